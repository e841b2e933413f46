"""The project on disk: which content file holds which entry type, where the theme
and schemas live, and what each type is called.

Imported before anything heavy: `build` reads the file names early (see
write.prepared_staging), so this module needs nothing beyond the standard library.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from .errors import Problem, SourcePos, suggest

SLUG = re.compile(r"[a-z0-9][a-z0-9-]*")
# Known litter only: a hidden `.draft.yaml` is reported, not silently skipped.
LITTER = re.compile(r"\.DS_Store|Thumbs\.db|\.git.*|\.#.*|.*~|\..*\.sw[a-p]|#.*#")
SCHEMA_DIR = "schemas"

# file name -> entry type, for the files that hold one special entry or a list.
SINGLE_FILES = {"site.yaml": "site", "evidence.yaml": "evidence", "taxonomy.yaml": "taxonomy"}
# folder -> (entry type, file suffix): one entry per file, file name = id.
FOLDERS = {
    "dossiers": ("dossier", ".yaml"),
    "claims": ("claim", ".yaml"),
    "tensions": ("tension", ".yaml"),
    "failure_modes": ("failure_mode", ".yaml"),
    "programs": ("program", ".yaml"),
    "paths": ("path", ".yaml"),
    "pages": ("page", ".md"),
}

# Command-line type name -> entry type ("failure-mode" reads better than "failure_mode").
NEW_TYPES = {kind.replace("_", "-"): kind for kind, _ in FOLDERS.values()}

TYPE_NAMES = {
    "evidence": "evidence label",
    "group": "perturbation group",
    "perturbation": "perturbation",
    "dossier": "dossier",
    "claim": "claim",
    "tension": "tension",
    "failure_mode": "failure mode",
    "program": "research program",
    "path": "reading path",
    "page": "page",
    "site": "site",
}


@dataclass(frozen=True)
class Project:
    """Where a site's content, templates and static assets live."""

    content: Path
    templates: Path
    static: Path

    @classmethod
    def beside(cls, content: Path) -> Project:
        """templates/ and static/ next to content/, else those of the working directory."""
        root = content.parent if (content.parent / "templates").is_dir() else Path()
        return cls(content, root / "templates", root / "static")

    @property
    def protected(self) -> list[Path]:
        """Folders an output folder must never replace: the project's own and the working one."""
        return [self.content, self.templates, self.static, Path.cwd()]

    def missing_theme(self) -> str | None:
        """A message when the templates or static folder is missing, else None."""
        for name, folder in (("templates", self.templates), ("static", self.static)):
            if not folder.is_dir():
                return f"{name} folder not found: {folder}"
        return None


def discover(root: Path, problems: list[Problem]) -> list[tuple[Path, str]]:
    """Map each file under `root` to its entry type; unexpected files are errors."""
    found: list[tuple[Path, str]] = []
    known = [*SINGLE_FILES, *FOLDERS]
    for child in sorted(root.iterdir()):
        if _ignored(child):
            continue
        if child.is_file() and child.name in SINGLE_FILES:
            found.append((child, SINGLE_FILES[child.name]))
        elif child.is_dir() and child.name in FOLDERS:
            found.extend(_discover_folder(child, *FOLDERS[child.name], problems))
        else:
            message = f"unexpected {'folder' if child.is_dir() else 'file'} '{child.name}'"
            problems.append(Problem(SourcePos(child), message + suggest(child.name, known)))
    return found


def _discover_folder(
    folder: Path, kind: str, suffix: str, problems: list[Problem]
) -> list[tuple[Path, str]]:
    found = []
    # scandir knows each entry's kind without a stat call per file (this runs on every save).
    with os.scandir(folder) as listing:
        children = sorted((child.name, child.is_file()) for child in listing)
    prefix = f"{folder}/"
    for name, is_file in children:
        if LITTER.fullmatch(name):
            continue
        path = _path(prefix + name)
        stem, dot, extension = name.rpartition(".")
        if not is_file or f"{dot}{extension}" != suffix or not stem:
            problems.append(Problem(SourcePos(path), f"expected a {suffix} file in {folder.name}/"))
        elif not SLUG.fullmatch(stem):
            problems.append(
                Problem(
                    SourcePos(path),
                    f"file name '{stem}' is not a valid id: use lowercase letters, "
                    "digits and hyphens, starting with a letter or digit",
                )
            )
        else:
            found.append((path, kind))
    return found


def _path(name: str) -> Path:
    """The same Path object for the same file on every call.

    `serve` discovers every file on each save; a Path made afresh parses its
    parts and hashes its text again, a reused one has both cached.
    """
    path = _PATHS.get(name)
    if path is None:
        if len(_PATHS) > MAX_CACHED_PATHS:
            _PATHS.clear()
        path = _PATHS[name] = Path(name)
    return path


_PATHS: dict[str, Path] = {}
MAX_CACHED_PATHS = 200_000


def _ignored(path: Path) -> bool:
    """Editor, OS and VCS litter. Any other file is content or an error, never skipped."""
    return bool(LITTER.fullmatch(path.name))
