"""Check: the stages that read content, in order — discover, load, validate, link, rules."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from lowprec_map.content.entry import Entry
from lowprec_map.content.graph import MapGraph
from lowprec_map.content.load import load_file
from lowprec_map.content.project import discover
from lowprec_map.content.rules import check_rules
from lowprec_map.content.validate import ValidateResult, missing_required, validate_doc
from lowprec_map.errors import Problem, Severity, SourcePos
from lowprec_map.registry import type_name


@dataclass
class CheckResult:
    graph: MapGraph
    problems: list[Problem] = field(default_factory=list)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity is Severity.WARNING]


@dataclass
class Listing:
    """What discovering the content folder found (and, for serve's cache, the folders'
    modification times)."""

    # The content folder and each folder of entries, with its modification time if it was
    # settled when listed (None: it may change again within the same tick, list it again).
    stamps: list[tuple[Path, int | None]]
    files: list[tuple[Path, str]]
    problems: list[Problem]


class Reuse(Protocol):
    """What `check` may reuse from an earlier check of the same folder: serve's cache
    (dev/incremental.py) implements it; a build checks with `Fresh`, which reuses nothing."""

    def discover(self, content: Path) -> Listing:
        """The content folder's files, as `discover` finds them."""

    def result(self, path: Path, kind: str) -> ValidateResult:
        """The file's entries and problems."""

    def forget_folder(self) -> None:
        """The content folder is gone: nothing listed can be trusted."""

    def link(self, entries: list[Entry], invalid: set[str], left_out: set[str]) -> MapGraph:
        """The graph of `entries` (`invalid`: keys that failed validation; `left_out`:
        drafts not among `entries`)."""


@dataclass
class Fresh:
    """Every file read, parsed and validated once: the build's way (`Reuse`)."""

    def discover(self, content: Path) -> Listing:
        problems: list[Problem] = []
        return Listing([], discover(content, problems), problems)

    def result(self, path: Path, kind: str) -> ValidateResult:
        return validated(path, kind, None)

    def forget_folder(self) -> None:
        pass

    def link(self, entries: list[Entry], invalid: set[str], left_out: set[str]) -> MapGraph:
        return MapGraph(entries, invalid, left_out=left_out)


def validated(path: Path, kind: str, raw: bytes | None) -> ValidateResult:
    """One file (or `raw`, its bytes already read) loaded and validated."""
    problems: list[Problem] = []
    doc = load_file(path, kind, problems, raw)
    if doc is None:
        return ValidateResult([], problems, {f"{kind}:{path.stem}"})
    result = validate_doc(doc)
    result.problems[:0] = problems
    return result


def check(content: Path, cache: Reuse | None = None, *, drafts: bool = False) -> CheckResult:
    """Load, validate, link and check rules; every problem from every stage.

    With a `cache` (kept by `serve` across rebuilds), unchanged files are not
    parsed or validated again. Drafts are left out of the graph (as a build
    publishes it) unless `drafts` (serve shows them); each is a warning.
    """
    problems: list[Problem] = []
    files: list[tuple[Path, str]] = []
    cache = Fresh() if cache is None else cache
    if content.is_dir():
        listing = cache.discover(content)
        files = listing.files
        problems.extend(listing.problems)
    else:
        problems.append(Problem(SourcePos(content), "content folder not found"))
        cache.forget_folder()
    entries, invalid, kinds = [], set(), set()
    for path, kind in files:
        one = cache.result(path, kind)
        entries.extend(one.entries)
        problems.extend(one.problems)
        invalid |= one.invalid
        kinds.add(kind)
    problems.extend(missing_required(kinds, content))
    problems.extend(_drafts(entries))
    left_out = set() if drafts else {e.key for e in entries if e.draft}
    if left_out:
        entries = [e for e in entries if e.key not in left_out]
    graph = cache.link(entries, invalid, left_out)
    problems.extend(graph.problems)
    problems.extend(check_rules(graph))
    return CheckResult(graph, sorted(problems))


def _drafts(entries: list[Entry]) -> list[Problem]:
    """A warning per draft, so `check --strict` fails while one remains."""
    return [
        Problem(
            e.pos(("draft",)),
            f"{type_name(e.type)} '{e.id}' is a draft: a build leaves it out; delete its "
            "`draft: true` to publish it",
            Severity.WARNING,
        )
        for e in entries
        if e.draft
    ]
