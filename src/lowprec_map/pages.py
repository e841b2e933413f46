"""The page plan: every page of the site, its URL, template and typed context.

Each `_..._pages` function documents one page type's context. The plan is
computed from the graph alone, before anything is rendered. Each page also
declares what it can show (`PageSpec.depends`), which is how `serve` redraws
only the pages a save can change: a template that starts showing something new
must widen its page's dependencies (tests/test_serve.py checks them against
full builds).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from .graph import MapGraph
from .layout import layout_map
from .models import Dossier, FailureMode, Page, Perturbation, ReadingPath
from .urls import TYPE_FOLDERS, entry_url
from .validate import Entry
from .views import (
    BeliefChange,
    belief_changes,
    entry_summary,
    ledger_groups,
    numerical_matrix,
    recently_updated,
)


@dataclass(frozen=True)
class PageSpec:
    """One HTML page to render: where it goes, with which template and context."""

    url: str
    template: str
    title: str
    description: str
    # The template's variables, or a function computing them when the page is rendered
    # (overview pages are planned on every save but rendered only when affected).
    context: Mapping[str, object] | Callable[[], Mapping[str, object]] = field(default_factory=dict)
    # Graph keys whose change requires re-rendering this page; "*" means any change,
    # MEMBERSHIP an entry added or removed.
    depends: frozenset[str] = frozenset({"*"})

    def variables(self) -> Mapping[str, object]:
        """The context, computed now if it was deferred."""
        return self.context() if callable(self.context) else self.context

    def affected_by(self, changed: set[str], before: frozenset[str] = frozenset()) -> bool:
        """True when an entry in `changed` ('type:id' keys) can alter this page.

        `before` is what the page depended on at the last render: an entry that
        left the page (say, a claim that dropped out of the feed) changes it too.
        """
        if "*" in self.depends:
            return True
        return not self.depends.isdisjoint(changed) or not before.isdisjoint(changed)


FEED_ENTRIES = 50
MEMBERSHIP = "+entries"  # stands in `changed` for "an entry was added or removed"


def plan_pages(graph: MapGraph, changed: set[str] | None = None) -> list[PageSpec]:
    """The site's pages in a stable order: all of them, or those `changed` entries affect.

    Overview pages (landing, ledger, map, ...) are always planned, each with
    its dependencies; an entry page is planned when a changed entry lies within
    its reach (MapGraph.page_reach), found from the changed entries' side
    (MapGraph.pages_reaching) without visiting every entry.
    """
    only = None if changed is None else affected_entries(graph, changed)
    recent, changes = recently_updated(graph), belief_changes(graph)
    pages = [_landing(graph, recent, changes), _map_page(graph), _search_page(graph)]
    pages.append(_changes_page(recent, changes))
    pages.extend(_listing_pages(graph))
    pages.extend(_entry_pages(graph, only))
    pages.extend(_label_pages(graph))
    pages.extend(_discovery_files(graph, recent))
    root = urlsplit(graph.site.base_url).path.rstrip("/") + "/"
    pages.append(
        PageSpec(
            "404.html",
            "404.html",
            "Page not found",
            "This page does not exist.",
            {"absolute_root": root},
            _keys(graph, "page"),  # the chrome names the pages; a site change renders all
        )
    )
    return pages


def sorted_dossiers(graph: MapGraph) -> list[Entry]:
    """Core dossiers first, then by date and id."""

    def key(entry: Entry) -> tuple[bool, str, str]:
        assert isinstance(entry.model, Dossier)
        return (not entry.model.core, entry.model.date.isoformat(), entry.id)

    return sorted(graph.entries("dossier"), key=key)


def sorted_paths(graph: MapGraph) -> list[Entry]:
    """Reading paths by their `order`."""
    return sorted(graph.entries("path"), key=lambda e: (_order(e), e.id))


def _order(entry: Entry) -> int:
    assert isinstance(entry.model, ReadingPath | Page)
    return entry.model.order


def featured_failure_mode(graph: MapGraph) -> Entry | None:
    """The one failure mode with `featured: true`, if any."""
    featured = [
        e
        for e in graph.entries("failure_mode")
        if isinstance(e.model, FailureMode) and e.model.featured
    ]
    return featured[0] if featured else None


def taxonomy(graph: MapGraph) -> list[tuple[Entry, list[tuple[Entry, list[Entry]]]]]:
    """Groups -> perturbations -> the dossiers that perturb each, in display order."""
    dossier_order = {e.key: i for i, e in enumerate(sorted_dossiers(graph))}
    result = []
    for group in graph.entries("group"):
        members = []
        for perturbation in graph.backlinks(group, "perturbation"):
            assert isinstance(perturbation.model, Perturbation)
            dossiers = sorted(
                graph.backlinks(perturbation, "dossier"), key=lambda d: dossier_order[d.key]
            )
            members.append((perturbation, dossiers))
        result.append((group, members))
    return result


LANDING_CLAIMS = 12


def _landing(graph: MapGraph, recent: list[Entry], changes: list[BeliefChange]) -> PageSpec:
    """Context: dossiers, claims (a preview), labels, taxonomy, tensions, featured, ..."""
    site = graph.site
    # The landing previews the ledger; the full ledger is one click away.
    preview = [e for e in recent if e.type == "claim"][:LANDING_CLAIMS]
    preview.sort(key=lambda e: e.id)
    dossiers, tensions, paths = (
        sorted_dossiers(graph),
        graph.entries("tension"),
        sorted_paths(graph),
    )
    featured = featured_failure_mode(graph)
    context = {
        "recent": recent[:5],
        "belief_changes": changes[:3],
        "dossiers": dossiers,
        "claims": preview,
        "groups": ledger_groups(graph, preview),
        "labels": graph.entries("evidence"),
        "taxonomy": taxonomy(graph),
        "tensions": tensions,
        "featured": featured,
        "programs": graph.entries("program"),
        "paths": paths,
    }
    # What it shows, and what the cards among them name; counts change with
    # membership, label counts with a claim's label (a changed reference to a label).
    named = [*recent[:5], *(claim for claim, _ in changes[:3]), *([featured] if featured else [])]
    named += [e for t in LANDING_NAMED for e in graph.entries(t)]
    depends = _shown_with_targets(graph, [*dossiers, *tensions, *paths, *preview])
    depends |= {e.key for e in named} | {MEMBERSHIP}
    return PageSpec("", "index.html", site.title, site.description, context, depends)


# Entry types the landing names or counts in full (their cards name nothing else).
LANDING_NAMED = ("program", "group", "perturbation", "evidence", "page", "site")


def _map_page(graph: MapGraph) -> PageSpec:
    """Context: `layout`, the build-time layout of the graph."""
    layout = layout_map(graph)
    # Nodes show their entries' names; the program filter lists every program; the
    # notes on what the map leaves out count entries.
    shown = {n.entry.key for n in layout.nodes} | _keys(graph, "program") | {MEMBERSHIP}
    return PageSpec(
        "map/",
        "map.html",
        "The map",
        "Papers, claims, tensions, programs and failure modes, and how they connect.",
        {"layout": layout},
        frozenset(shown),
    )


def _changes_page(recent: list[Entry], changes: list[BeliefChange]) -> PageSpec:
    """Context: `belief_changes` (claim, change) newest first, `recent` entries by update."""
    return PageSpec(
        "changes/",
        "changes.html",
        "What changed",
        "Belief changes first, then every entry by its last update.",
        {"belief_changes": changes, "recent": recent},
    )


def affected_entries(graph: MapGraph, changed: set[str]) -> set[str]:
    """Keys of entries whose own page can show something of a `changed` entry."""
    affected = set(changed)
    for key in changed:
        if key in graph:
            affected |= graph.pages_reaching(key)
    return affected


def site_urls(graph: MapGraph) -> list[str]:
    """The URL of every HTML page, sorted (for the sitemap and for pruning stale files)."""
    fixed = ["", "map/", "search/", "changes/", "dossiers/", "claims/", "tensions/",
             "failure-modes/", "programs/", "paths/"]  # fmt: skip
    entries = [entry_url(e) for t in (*TYPE_FOLDERS, "page", "evidence") for e in graph.entries(t)]
    return sorted({*fixed, *entries})


def _discovery_files(graph: MapGraph, recent: list[Entry]) -> Iterator[PageSpec]:
    """sitemap.xml (every HTML page) and feed.xml (entries by update), as templates."""
    urls = site_urls(graph)
    membership = frozenset({MEMBERSHIP})
    yield PageSpec("sitemap.xml", "sitemap.xml", "Sitemap", "", {"urls": urls}, membership)
    latest = recent[:FEED_ENTRIES]
    yield PageSpec(
        "feed.xml",
        "feed.xml",
        graph.site.title,
        graph.site.description,
        {"recent": latest},
        frozenset(e.key for e in latest),
    )


def _search_page(graph: MapGraph) -> PageSpec:
    """Context: `entries`, every entry with a page, grouped by type for the no-JS index."""
    types = ("dossier", "claim", "tension", "failure_mode", "program", "path", "page")
    entries = [(t, graph.entries(t)) for t in types]
    return PageSpec(
        "search/",
        "search.html",
        "Search",
        "Search every dossier, claim, tension, failure mode, program, path and page.",
        {"entries": entries},
    )


def _listing_pages(graph: MapGraph) -> Iterator[PageSpec]:
    """One index page per entry type; context: `entries` (+ extras per type)."""
    yield PageSpec(
        "dossiers/",
        "dossiers.html",
        "Paper dossiers",
        "Every paper on the map, with its numerical path side by side.",
        lambda: _dossier_index_context(graph),
        _keys(graph, "dossier", "perturbation", "group", "program"),
    )
    yield _ledger(graph, None)
    listings = {
        "tension": ("Productive tensions", "Pairs of works whose results pull apart."),
        "failure_mode": ("Failure modes", "Mechanisms by which low precision breaks RL."),
        "program": ("Research programs", "Questions that can become experiments."),
        "path": ("Reading paths", "Ordered ways into the map."),
    }
    for entry_type, (title, description) in listings.items():
        entries = sorted_paths(graph) if entry_type == "path" else graph.entries(entry_type)
        depends = _shown_with_targets(graph, entries)
        yield PageSpec(
            f"{TYPE_FOLDERS[entry_type]}/",
            "listing.html",
            title,
            description,
            {"entries": entries, "entry_type": entry_type},
            frozenset(depends),
        )


def _shown_with_targets(graph: MapGraph, entries: list[Entry]) -> frozenset[str]:
    """Keys of `entries` and of what they refer to: what their cards show."""
    keys = {e.key for e in entries}
    for entry in entries:
        keys |= graph.target_keys(entry.key)
    return frozenset(keys)


def _keys(graph: MapGraph, *entry_types: str) -> frozenset[str]:
    return frozenset(e.key for t in entry_types for e in graph.entries(t))


def _dossier_index_context(graph: MapGraph) -> dict[str, object]:
    """Context: entries, taxonomy, and the papers × tensors matrix (columns, rows)."""
    entries = sorted_dossiers(graph)
    columns, rows = numerical_matrix(entries)
    return {
        "entries": entries,
        "taxonomy": taxonomy(graph),
        "columns": columns,
        "matrix": list(zip(entries, rows, strict=True)),
    }


def _ledger(graph: MapGraph, label: Entry | None) -> PageSpec:
    """The claim ledger, whole or for one evidence label; context: claims, labels, label."""
    claims = graph.entries("claim") if label is None else graph.with_label(label)

    def context() -> dict[str, object]:
        return {
            "claims": claims,
            "groups": ledger_groups(graph, claims),
            "labels": graph.entries("evidence"),
            "label": label,
        }

    if label is None:
        return PageSpec(
            "claims/",
            "claims.html",
            "Claim ledger",
            "Every indexed claim with its sources, locators and evidence label.",
            context,
        )
    name = getattr(label.model, "name", label.id)
    # A facet shows its claims' cards (conflict partners share the label, so they
    # are among the claims), the label counts and the label names.
    depends = _shown_with_targets(graph, claims) | _keys(graph, "evidence")
    return PageSpec(
        entry_url(label),
        "claims.html",
        f"Claims labelled {name}",
        getattr(label.model, "meaning", ""),
        context,
        frozenset(depends),
    )


def _label_pages(graph: MapGraph) -> Iterator[PageSpec]:
    for label in graph.entries("evidence"):
        yield _ledger(graph, label)


def _entry_pages(graph: MapGraph, only: set[str] | None = None) -> Iterator[PageSpec]:
    """One page per entry (or per entry in `only`); context: `entry`, `model`, `backlinks`."""
    for entry_type in (*TYPE_FOLDERS, "page"):
        for entry in graph.entries(entry_type):
            if only is not None and entry.key not in only:
                continue
            model = entry.model
            title = vars(model).get("title", entry.id)
            description = entry_summary(entry)
            context = {"entry": entry, "model": model, "backlinks": graph.backlinks(entry)}
            depends = frozenset(graph.page_reach(entry))
            yield PageSpec(
                entry_url(entry), f"{entry_type}.html", title, description, context, depends
            )
