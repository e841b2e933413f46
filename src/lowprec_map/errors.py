"""Problems found in content, and how they are printed.

Every stage reports problems as :class:`Problem` values instead of raising, so
one run can show an editor every mistake at once. Only the CLI prints them.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path


@dataclass(frozen=True, order=True)
class SourcePos:
    """A 1-based line and column inside one content file."""

    path: Path
    line: int = 1
    col: int = 1

    def display_path(self) -> str:
        """The path relative to the working directory when it lies below it."""
        try:
            return str(self.path.resolve().relative_to(Path.cwd().resolve()))
        except ValueError:
            return str(self.path)


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, order=True)
class Problem:
    """One error or warning, anchored at a position in a content file."""

    pos: SourcePos
    message: str
    severity: Severity = Severity.ERROR

    def format(self) -> str:
        """`path:line:col: message`, with `warning: ` before warnings' messages."""
        prefix = "warning: " if self.severity is Severity.WARNING else ""
        where = f"{self.pos.display_path()}:{self.pos.line}:{self.pos.col}"
        # One problem per line, whatever a library put in its message.
        return f"{where}: {prefix}{' '.join(self.message.split())}"

    def as_json(self) -> dict[str, object]:
        """The problem as a JSON-ready dict, for tools."""
        return {
            "path": self.pos.display_path(),
            "line": self.pos.line,
            "col": self.pos.col,
            "severity": str(self.severity),
            "message": self.message,
        }


class ContentError(Exception):
    """Raised at a stage boundary when content errors stop the pipeline."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = sorted(problems)
        super().__init__(f"{len(self.problems)} content problem(s)")


def suggest(word: str, choices: Iterable[str]) -> str:
    """A ` (did you mean 'x'?)` suffix naming the closest choice, or ''."""
    matches = difflib.get_close_matches(word, sorted(set(choices)), n=1, cutoff=0.6)
    return f" (did you mean '{matches[0]}'?)" if matches else ""


def problems_json(problems: Iterable[Problem]) -> str:
    """Problems as a JSON array, one object per problem."""
    return json.dumps([p.as_json() for p in problems], indent=2)
