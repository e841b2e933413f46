"""serve's incremental machinery that the build does without. CONTRIBUTING's "How serve
redraws only what a save changed" walks through every idea; this module holds serve's
own: which files changed (`ContentCache`, the `Reuse` that `content.check` accepts),
a file caught mid-write (`just_saved`), the map's layout while the links stay
(`LayoutMemo`), whether a page is redrawn (`PageRecord`) and why (`Explanation`,
for `serve --explain`).
"""

from __future__ import annotations

import functools
import hashlib
import time
from dataclasses import dataclass, field
from pathlib import Path

from lowprec_map.content.check import Listing, validated
from lowprec_map.content.entry import Entry
from lowprec_map.content.graph import MapGraph
from lowprec_map.content.load import MAX_FILE_BYTES
from lowprec_map.content.project import discover
from lowprec_map.content.refs import refs_of
from lowprec_map.content.validate import ValidateResult
from lowprec_map.dev.recording import context_shape
from lowprec_map.errors import Problem
from lowprec_map.registry import REGISTRY
from lowprec_map.site.layout import MapLayout, PlacedNode, layout_map
from lowprec_map.site.pages import Context, PageSpec
from lowprec_map.site.reads import Fact


@dataclass
class FileResult:
    """What loading and validating one file produced, and the file's stamp and digest."""

    stamp: tuple[int, int] | None  # modification time and size, if settled when taken
    digest: bytes
    kind: str
    result: ValidateResult


# A file modified this recently may be modified again within the same timestamp
# tick and keep its size: its bytes are compared (by digest) instead of trusted.
SETTLED_NS = 2_000_000_000


@dataclass
class ContentCache:
    """What `serve` keeps between checks: the files found, and each file's validated result.

    A file whose modification time and size are unchanged (or, if modified in the
    last two seconds, whose bytes are unchanged) is not parsed or validated again.
    The folders are listed again only when one of them changed (adding, removing or
    renaming a file changes its folder's modification time) or changed recently.
    """

    files: dict[Path, FileResult] = field(default_factory=dict)
    graph: MapGraph | None = (
        None  # the last graph: a save that keeps every reference keeps its links
    )
    listing: Listing | None = None

    def discover(self, content: Path) -> Listing:
        """The content folder's files (as `discover` finds them), listed again only when
        a folder changed; each file's Path object is kept while it exists."""
        last = self.listing
        if last is not None and all(
            mtime is not None and _settled_stamp(path) == mtime for path, mtime in last.stamps
        ):
            return last
        # Stamped before listing: a change made while listing shows as a newer time.
        folders = [content, *(content / name for name in sorted(REGISTRY.folders))]
        stamps = [(f, _settled_stamp(f)) for f in folders if f.is_dir()]
        problems: list[Problem] = []
        files = discover(content, problems)
        self.listing = Listing(stamps, files, problems)
        self.forget_all_but({path for path, _ in files})
        return self.listing

    def forget_folder(self) -> None:
        """The content folder is gone: list it again when it is back."""
        self.listing = None

    def forget_all_but(self, paths: set[Path]) -> None:
        """Drop the results of files that no longer exist."""
        for stale in set(self.files) - paths:
            del self.files[stale]

    def link(self, entries: list[Entry], invalid: set[str], left_out: set[str]) -> MapGraph:
        """The graph of `entries`, sharing the last graph's links when it can (`relinkable`)."""
        last, links = self.graph, None
        if last is not None and left_out == last.left_out and relinkable(last, entries, invalid):
            links = last.graph
        self.graph = MapGraph(entries, invalid, links, left_out)
        return self.graph

    def result(self, path: Path, kind: str) -> ValidateResult:
        """The file's entries and problems, from the cache when the file is unchanged."""
        stat = path.stat()
        stamp = (stat.st_mtime_ns, stat.st_size)
        cached = self.files.get(path)
        if cached is not None and cached.kind != kind:
            cached = None
        settled = time.time_ns() - stat.st_mtime_ns > SETTLED_NS
        if cached is not None and cached.stamp == stamp:
            return cached.result
        # Read once: for the digest and, if it changed, for parsing; a file over the limit
        # is never read (load_file reports its size).
        raw = _read_bytes(path) if stat.st_size <= MAX_FILE_BYTES else None
        digest = hashlib.blake2b(raw, digest_size=16).digest() if raw is not None else b""
        # A stamp is trusted only if the file had settled when it was taken: a write within
        # the same tick after it would keep it.
        trusted = stamp if settled else None
        if cached is not None and cached.digest == digest:
            cached.stamp = trusted
            return cached.result
        result = validated(path, kind, raw)
        self.files[path] = FileResult(trusted, digest, kind, result)
        return result


def relinkable(previous: MapGraph, entries: list[Entry], invalid: set[str]) -> bool:
    """Whether a graph of `entries` may share `previous`'s links: the same entries exist,
    and each one that changed refers to exactly what it did before (same targets,
    relations and places), as after the usual save, a text edit."""
    if previous.problems or invalid != previous.invalid or len(entries) != len(previous.keys()):
        return False
    for entry in entries:
        before = previous.entry(entry.key)
        if before is None or (before is not entry and refs_of(before) != refs_of(entry)):
            return False
    return True


def _settled_stamp(folder: Path) -> int | None:
    """The folder's modification time, or None if it changed too recently to be trusted
    (or is gone)."""
    try:
        mtime = folder.stat().st_mtime_ns
    except OSError:
        return None
    return mtime if time.time_ns() - mtime > SETTLED_NS else None


def _read_bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None  # unreadable: load_file reports it


@dataclass(frozen=True)
class PageRecord:
    """What a page's last drawing came from: its context and what computing it read, and
    what its templates read (field by field, see `site.reads`)."""

    spec: PageSpec
    context: Context
    context_facts: frozenset[Fact]
    drawn_facts: frozenset[Fact]

    def unchanged(self, changed: set[Fact]) -> bool:
        """Nothing it read changed."""
        return self.context_facts.isdisjoint(changed) and self.drawn_facts.isdisjoint(changed)

    @functools.cached_property
    def shape(self) -> object:
        """What decides the page's bytes besides the fields its templates read."""
        spec = self.spec
        return spec.template, spec.title, spec.description, context_shape(self.context)

    def draws_like(self, last: PageRecord, changed: set[Fact]) -> bool:
        """Drawn, this would give `last`'s bytes: its templates would read nothing that
        changed (what they read follows from the context) from the same context but for
        the entries' objects."""
        return last.drawn_facts.isdisjoint(changed) and self.shape == last.shape


SETTLE_SECONDS = 0.2  # a file this fresh may be half-written; an editor's write takes less


def just_saved(problems: list[Problem]) -> bool:
    """Whether a file blamed by `problems` changed less than SETTLE_SECONDS ago."""
    now = time.time()
    for path in {p.pos.path for p in problems}:
        try:
            if now - path.stat().st_mtime < SETTLE_SECONDS:
                return True
        except OSError:
            continue
    return False


@dataclass
class Explanation:
    """Why a save redrew the pages it did: the facts that changed, and per page whether
    a fact its templates read changed (redrawn), its context read one but came out the
    same (kept), or it read none of them (kept, counted rather than listed). Each save
    notes its pages here; the words are made only when asked for (`serve --explain`)."""

    changed: set[Fact]
    first: bool  # no earlier drawing: every page is drawn
    found: list[tuple[bool, str, PageRecord | None]] = field(default_factory=list)
    unread: int = 0  # pages kept that read none of the changed facts

    def kept_same(self, url: str, last: PageRecord) -> None:
        """A page whose context read a change and came out as before: kept."""
        self.found.append((False, url, last))

    def redrawn(self, url: str, last: PageRecord | None) -> None:
        """A page drawn: new, or it read something that changed."""
        self.found.append((True, url, last))

    def _line(self, drawn: bool, url: str, last: PageRecord | None) -> str:
        if last is None:
            return f"  redrew /{url}: {'first drawing' if self.first else 'a new page'}"
        if not drawn:
            read = _facts(last.context_facts & self.changed)
            return f"  kept /{url}: its context read {read}, came out the same"
        templates = last.drawn_facts & self.changed
        whose = "its templates read" if templates else "its context read and changed:"
        return f"  redrew /{url}: {whose} {_facts(templates or last.context_facts & self.changed)}"

    def lines(self) -> list[str]:
        """One line of what changed, one per page drawn or kept for a reason, a count."""
        # The fields that changed say more than 'the entry' or 'something' ('*') does.
        named = {
            fact
            for fact in self.changed
            if fact != "*" and not any(other.startswith(fact + ".") for other in self.changed)
        }
        head = f"serve: changed: {_facts(named) if named else 'nothing known'}"
        pages = [self._line(*found) for found in self.found]
        return [head, *pages, f"  kept {self.unread} pages that read none of it"]


def _facts(facts: set[Fact] | frozenset[Fact], shown: int = 4) -> str:
    """Facts as a log reader wants them ('claim:x.statement' a field, '<claim:x' what
    refers to it, '*claim' which claims exist): the first few, and how many more."""
    ordered = sorted(facts)
    more = f" and {len(ordered) - shown} more" if len(ordered) > shown else ""
    return ", ".join(ordered[:shown]) + more


class LayoutMemo:
    """The map's last layout, kept by `serve` across saves. Positions depend on the links
    alone, and a save that keeps every reference keeps the very networkx graph
    (`ContentCache.link`), so then only the entries are bound anew."""

    def __init__(self) -> None:
        self._last: tuple[object, MapLayout] | None = None

    def layout(self, graph: MapGraph) -> MapLayout:
        """`layout_map(graph)`, reusing the positions while the links are the same."""
        if self._last is not None and self._last[0] is graph.graph:
            return _bound_to(self._last[1], graph)
        found = layout_map(graph)
        self._last = (graph.graph, found)
        return found


def _bound_to(layout: MapLayout, graph: MapGraph) -> MapLayout:
    """`layout` with each node holding `graph`'s entry of the same key."""
    nodes = {}
    for node in layout.nodes:
        entry = graph.entry(node.entry.key)
        assert entry is not None  # the same links: the same entries
        nodes[entry.key] = PlacedNode(entry, node.x, node.y, node.programs)
    edges = [(nodes[a.entry.key], nodes[b.entry.key], rel) for a, b, rel in layout.edges]
    return MapLayout(
        list(nodes.values()), edges, layout.columns, layout.width, layout.height, layout.omitted
    )
