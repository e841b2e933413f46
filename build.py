"""Thin entry point: `python build.py` builds; `python build.py check|serve ...` forwards."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "src"))

from lowprec_map.cli import run


def _with_default_command(args: list[str]) -> list[str]:
    """`python build.py --out x` means `build --out x`."""
    if not args or (args[0].startswith("-") and args[0] not in ("-h", "--help")):
        return ["build", *args]
    return args


if __name__ == "__main__":
    run(_with_default_command(sys.argv[1:]))
