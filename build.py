"""Thin entry point: `python build.py` builds; `python build.py check|serve ...` forwards."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "src"))

from lowprec_map.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:] or ["build"]))
