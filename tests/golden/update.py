"""Regenerate the golden site, on purpose only: after a change meant to alter output.

    python tests/golden/update.py

builds tests/fixtures/minimal with the repository's theme into tests/golden/site/,
leaving out static/ (copied from the repository's static/ byte for byte). Review the
diff (git diff tests/golden) before committing it.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "src"))

from lowprec_map.content.project import Project  # noqa: E402
from lowprec_map.pipeline import build  # noqa: E402

GOLDEN = REPO / "tests" / "golden" / "site"


def main() -> None:
    """Build the minimal map into the golden folder, replacing it."""
    project = Project(REPO / "tests/fixtures/minimal", REPO / "templates", REPO / "static")
    staging = GOLDEN.with_name("site.new")
    shutil.rmtree(staging, ignore_errors=True)
    build(project, staging)
    shutil.rmtree(staging / "static")
    shutil.rmtree(GOLDEN, ignore_errors=True)
    staging.rename(GOLDEN)
    print(f"wrote {GOLDEN.relative_to(REPO)}; review it with: git diff tests/golden")


if __name__ == "__main__":
    main()
