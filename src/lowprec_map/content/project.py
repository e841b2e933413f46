"""The project on disk: which content file holds which entry type (as the registry
says), and where the theme and schemas live."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from lowprec_map.errors import Problem, SourcePos, suggest
from lowprec_map.registry import REGISTRY

SLUG = re.compile(r"[a-z0-9][a-z0-9-]*")
# Known litter only: a hidden `.draft.yaml` is reported, not silently skipped.
LITTER = re.compile(r"\.DS_Store|Thumbs\.db|\.git.*|\.#.*|.*~|\..*\.sw[a-p]|#.*#")
SCHEMA_DIR = "schemas"


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
    def cache(self) -> Path:
        """Where builds keep what they may reuse (compiled templates): beside content/."""
        return self.content.absolute().parent / ".lowprec-cache"

    @property
    def preview(self) -> Path:
        """Where `serve` writes by default: in the cache, so a build's folder (an offline
        site, say) is never rewritten by a preview."""
        return self.cache / "serve"

    @property
    def protected(self) -> list[Path]:
        """The project's folders, which an output folder must neither replace nor sit in."""
        return [self.content, self.templates, self.static]

    def missing_theme(self) -> str | None:
        """A message when the templates or static folder is missing, else None."""
        for name, folder in (("templates", self.templates), ("static", self.static)):
            if not folder.is_dir():
                return f"{name} folder not found: {folder}"
        return None


def discover(root: Path, problems: list[Problem]) -> list[tuple[Path, str]]:
    """Map each file under `root` to its entry type; unexpected files are errors."""
    found: list[tuple[Path, str]] = []
    single_files, folders = REGISTRY.single_files, REGISTRY.folders
    known = [*single_files, *folders]
    for child in sorted(root.iterdir()):
        if _ignored(child):
            continue
        if child.is_file() and child.name in single_files:
            found.append((child, single_files[child.name]))
        elif child.is_dir() and child.name in folders:
            entry_type = folders[child.name]
            found.extend(_discover_folder(child, entry_type.name, entry_type.suffix, problems))
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
        path = Path(prefix + name)
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


def _ignored(path: Path) -> bool:
    """Editor, OS and VCS litter. Any other file is content or an error, never skipped."""
    return bool(LITTER.fullmatch(path.name))
