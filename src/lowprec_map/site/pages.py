"""The page plan: every page of the site, its URL, template and context.

Each `_..._context` function documents one page type's context. A context is
computed through a `Reader` when the page is rendered, so everything it reads
is recorded (see `site/reads.py`); templates show what the context carries and
never query the graph.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from lowprec_map.content.entry import Entry
from lowprec_map.content.graph import MapGraph
from lowprec_map.registry import REGISTRY
from lowprec_map.schema.entries import FailureMode, Tension
from lowprec_map.site.charts import OTHER_BASELINE, MetricChart, baseline_group, metric_charts
from lowprec_map.site.contexts import (
    ChangesContext,
    ClaimContext,
    CompareContext,
    DossierContext,
    DossierIndexContext,
    EntryContext,
    FeedContext,
    LandingContext,
    LedgerContext,
    ListingContext,
    MapContext,
    NotFoundContext,
    PageEntryContext,
    ProgramContext,
    ProgramsContext,
    SearchContext,
    SitemapContext,
    TensionContext,
    by_stance,
)
from lowprec_map.site.evidence_views import (
    evidence_depth,
    independence,
    program_prediction,
    program_predictions,
)
from lowprec_map.site.facets import ledger_facets
from lowprec_map.site.layout import (
    OVERVIEW_COLUMNS,
    MapLayout,
    layout_map,
    local_layout,
    overview_layout,
)
from lowprec_map.site.reads import Reader
from lowprec_map.site.standing import standing
from lowprec_map.site.urls import entry_url, listing_url
from lowprec_map.site.views import (
    belief_changes,
    domain_counts,
    entry_summary,
    in_file_order,
    label_counts,
    ledger_groups,
    measurement_rows,
    numerical_matrix,
    page_title,
    recently_updated,
    sorted_entries,
    taxonomy,
)
from lowprec_map.site_files import site_files

Context = Mapping[str, object]  # a context as template variables (`contexts.variables`)


@dataclass(frozen=True)
class PageSpec:
    """One page to render: where it goes, with which template, and how to get its context
    (an instance of one of the dataclasses in `site/contexts.py`)."""

    url: str
    template: str
    title: str
    description: str
    context: Callable[[Reader], object]


FEED_ENTRIES = 50
LANDING_CLAIMS = 5
LANDING_TENSIONS = 3
LANDING_PATHS = 4


def plan_pages(
    graph: MapGraph,
    base_url: str | None = None,
    layout_of: Callable[[MapGraph], MapLayout] = layout_map,
) -> list[PageSpec]:
    """Every page of the site, in a stable order; `base_url` overrides site.yaml's;
    `layout_of` lays the map out (serve passes one that keeps the layout across saves)."""
    pages = [
        PageSpec("", "index.html", graph.site.title, graph.site.description, _landing),
        PageSpec(
            "map/",
            "map.html",
            "The map",
            "Papers, claims, tensions, programs and failure modes, and how they connect.",
            lambda reader: _map_context(reader, layout_of),
        ),
        *_compare_pages(graph),
        _search_page(),
        PageSpec(
            "changes/",
            "changes.html",
            "What changed",
            "Belief changes first, then every entry by its last update.",
            _changes_context,
        ),
    ]
    pages.extend(_listing_pages())
    pages.extend(_entry_pages(graph))
    pages.extend(_ledger(label) for label in graph.entries("evidence"))
    pages.extend(_discovery_files(graph))
    root = urlsplit(base_url or graph.site.base_url).path.rstrip("/") + "/"
    pages.append(
        PageSpec(
            "404.html",
            "404.html",
            "Page not found",
            "This page does not exist.",
            lambda reader: NotFoundContext(root),
        )
    )
    return pages


def site_urls(graph: MapGraph) -> list[str]:
    """The URL of every HTML page, sorted (for the sitemap and for pruning stale files)."""
    own = [f.url for f in site_files(kind="page") if f.url.endswith("/") or not f.url]
    views = _compare_views(graph)
    compare = [_compare_url(view, views) for view in views]
    fixed = [*own, *compare, *(listing_url(t.name) for t in REGISTRY.listed_types)]
    entries = [
        entry_url(e)
        for t in (*REGISTRY.page_types, REGISTRY.by_name["evidence"])
        for e in graph.entries(t.name)
    ]
    return sorted({*fixed, *entries})


def sorted_dossiers(reader: Reader) -> list[Entry]:
    """Dossiers in the registry's order: core first, then by date and id."""
    return sorted_entries(reader.entries("dossier"))


def _featured(reader: Reader) -> Entry | None:
    """The one failure mode with `featured: true`, if any."""
    featured = [
        e
        for e in reader.entries("failure_mode")
        if isinstance(e.model, FailureMode) and e.model.featured
    ]
    return featured[0] if featured else None


def _landing(reader: Reader) -> LandingContext:
    """Dossiers, a preview of the ledger, labels, taxonomy, tensions, the featured loop, ..."""
    recent, dossiers = reader.shared(recently_updated), reader.shared(sorted_dossiers)
    # The landing previews the ledger; the full ledger is one click away.
    preview = sorted([e for e in recent if e.type == "claim"][:LANDING_CLAIMS], key=lambda e: e.id)
    return LandingContext(
        recent=recent[:3],
        belief_changes=reader.shared(belief_changes)[:1],
        dossiers=dossiers,
        core_dossiers=[d for d in dossiers if getattr(d.model, "core", False)],
        claims=preview,
        labels=reader.shared(label_counts),
        counts=reader.counts(),
        taxonomy=taxonomy(reader, dossiers),
        tensions=[e for e in recent if e.type == "tension"][:LANDING_TENSIONS],
        featured=_featured(reader),
        programs=reader.entries("program"),
        program_statuses=[(p, pr.status) for p, pr in reader.shared(program_predictions)],
        paths=sorted_entries(reader.entries("path"))[:LANDING_PATHS],
        foundations=reader.find("page", "foundations"),
    )


def _map_context(reader: Reader, layout_of: Callable[[MapGraph], MapLayout]) -> MapContext:
    """The build-time layout of the graph, and the programs its filter lists."""
    layout = layout_of(reader.links())
    overview = overview_layout(reader.links())
    shown = Counter(node.entry.type for node in overview.nodes)
    return MapContext(
        layout,
        layout.node_cards(),
        reader.entries("program"),
        overview,
        overview.node_cards(),
        {t: shown[t] for t in OVERVIEW_COLUMNS},
        len(reader.entries("dossier")),
    )


def _compare_pages(graph: MapGraph) -> list[PageSpec]:
    """/compare/ shows the first domain's numbers (LLM RL), /compare/<domain>/ each other
    domain's and /compare/all/ every domain's: numbers compare like for like within one
    domain, and each view is a link, so it works without JavaScript."""
    views = _compare_views(graph)
    return [
        PageSpec(
            _compare_url(view, views),
            "compare.html",
            "The numbers side by side" + (f" — {_domain_name(graph, view)}" if view else ""),
            "Every measurement the claims carry, per metric: a chart and its table.",
            functools.partial(_compare_context, view=view, views=views),
        )
        for view in views
    ]


def _compare_views(graph: MapGraph) -> list[str | None]:
    """/compare/'s views: each domain in taxonomy order, then every domain (None)."""
    return [*(d.id for d in in_file_order(graph.entries("domain"))), None]


def _compare_url(view: str | None, views: list[str | None]) -> str:
    if view == views[0]:
        return "compare/"
    return f"compare/{view or 'all'}/"


def _domain_name(graph: MapGraph, domain: str) -> str:
    return str(getattr(graph.get("domain", domain).model, "name", domain))


def _compare_context(reader: Reader, view: str | None, views: list[str | None]) -> CompareContext:
    """Per metric with measurements in `view` (a domain, or None: all), its chart and rows;
    the metrics without any there."""
    charts, empty = metric_charts(reader, view)
    counts = domain_counts(reader)
    by_id = {d.id: (d, n) for d, n in counts}
    links = [
        (
            by_id[v][0].model.name if v is not None else "All domains",  # type: ignore[attr-defined]
            _compare_url(v, views),
            by_id[v][1] if v is not None else sum(n for _, n in counts),
            v == view,
        )
        for v in views
    ]
    return CompareContext(
        charts=charts,
        empty_metrics=empty,
        measurement_count=sum(len(chart.rows) for chart in charts),
        domain=by_id[view][0] if view is not None else None,
        domains=counts,
        formats=sorted({row.measurement.format for chart in charts for row in chart.rows}),
        baselines=_baseline_groups(charts),
        views=links,
        data_files=site_files(linked_from="compare/"),
    )


def _baseline_groups(charts: list[MetricChart]) -> list[str]:
    """The kinds of baseline on the page, most measured first, a method's last."""
    groups = Counter(baseline_group(r.measurement) for chart in charts for r in chart.rows)
    return sorted(groups, key=lambda g: (g == OTHER_BASELINE, -groups[g], g))


def _changes_context(reader: Reader) -> ChangesContext:
    """Belief changes (claim, change) newest first; every dated entry by its last update."""
    return ChangesContext(reader.shared(belief_changes), reader.shared(recently_updated))


def _search_page() -> PageSpec:
    """Every entry with a page, grouped by type, for the no-JS index."""
    return PageSpec(
        "search/",
        "search.html",
        "Search",
        "Search every dossier, claim, tension, failure mode, program, path and page.",
        _search_context,
    )


def _search_context(reader: Reader) -> SearchContext:
    return SearchContext([(t.name, reader.entries(t.name)) for t in REGISTRY.page_types])


def _listing_pages() -> Iterator[PageSpec]:
    """One index page per listed type; the ledger has its own context."""
    for entry_type in REGISTRY.listed_types:
        listing = entry_type.listing
        assert listing is not None
        if entry_type.name == "claim":
            yield _ledger(None)
            continue
        special = {"dossier": _dossier_index_context, "program": _programs_context}
        context = special.get(entry_type.name) or _listing_context(entry_type.name)
        url = listing_url(entry_type.name)
        yield PageSpec(url, listing.template, listing.title, listing.description, context)


def _listing_context(entry_type: str) -> Callable[[Reader], ListingContext]:
    def context(reader: Reader) -> ListingContext:
        return ListingContext(sorted_entries(reader.entries(entry_type)), entry_type)

    return context


def _programs_context(reader: Reader) -> ProgramsContext:
    """The prediction ledger: each program with its computed status and claims behind it."""
    predictions = [(p, vars(pr)) for p, pr in reader.shared(program_predictions)]
    return ProgramsContext(predictions, "program")


def _dossier_index_context(reader: Reader) -> DossierIndexContext:
    """Entries, taxonomy, and the papers × tensors matrix (columns, rows)."""
    entries = reader.shared(sorted_dossiers)
    columns, rows = numerical_matrix(entries)
    return DossierIndexContext(
        entries=entries,
        taxonomy=taxonomy(reader, entries),
        columns=columns,
        matrix=list(zip(entries, rows, strict=True)),
    )


def _ledger(label: Entry | None) -> PageSpec:
    """The claim ledger, whole or for one evidence label; context: claims, groups, labels."""

    def context(reader: Reader) -> LedgerContext:
        current = None if label is None else reader.get("evidence", label.id)
        claims = (
            reader.entries("claim")
            if current is None
            else reader.backlinks(current, "claim", "labelled")
        )
        return LedgerContext(
            claims=claims,
            groups=ledger_groups(claims),
            labels=reader.shared(label_counts),
            claim_count=reader.count("claim"),
            label=current,
            # Only the whole ledger shows it: it reads every claim's sources.
            depth=reader.shared(evidence_depth) if current is None else None,
            data_files=site_files(linked_from="claims/"),
            facets=reader.shared(ledger_facets) if current is None else [],
        )

    if label is None:
        listing = REGISTRY.by_name["claim"].listing
        assert listing is not None
        return PageSpec("claims/", "claims.html", listing.title, listing.description, context)
    name = getattr(label.model, "name", label.id)
    meaning = getattr(label.model, "meaning", "")
    return PageSpec(entry_url(label), "claims.html", f"Claims labelled {name}", meaning, context)


def _discovery_files(graph: MapGraph) -> Iterator[PageSpec]:
    """sitemap.xml (every HTML page) and feed.xml (entries by update), as templates."""

    def sitemap(reader: Reader) -> SitemapContext:
        for entry_type in (*REGISTRY.page_types, REGISTRY.by_name["evidence"]):
            reader.count(entry_type.name)  # the URLs follow which entries exist
        return SitemapContext(site_urls(reader.graph))

    yield PageSpec("sitemap.xml", "sitemap.xml", "Sitemap", "", sitemap)
    yield PageSpec(
        "feed.xml",
        "feed.xml",
        graph.site.title,
        graph.site.description,
        lambda reader: FeedContext(reader.shared(recently_updated)[:FEED_ENTRIES]),
    )


def _entry_pages(graph: MapGraph) -> Iterator[PageSpec]:
    """One page per entry; context: `entry`, `backlinks`, and per type a little more (the
    renderer adds `model`, the entry's linked fields)."""
    for entry_type in REGISTRY.page_types:
        for entry in graph.entries(entry_type.name):
            yield PageSpec(
                entry_url(entry),
                entry_type.template,
                page_title(entry),
                entry_summary(entry),
                _entry_context(entry.type, entry.id),
            )


def _entry_context(entry_type: str, entry_id: str) -> Callable[[Reader], object]:
    def context(reader: Reader) -> object:
        entry = reader.get(entry_type, entry_id)
        backlinks = reader.backlinks(entry)
        outgoing = [e for e in reader.targets(entry) if e.key != entry.key]  # each once
        common = (entry, backlinks, vars(local_layout(backlinks, outgoing)))
        if entry_type == "dossier":
            citing = reader.backlinks(entry, "claim")
            rows = [r for r in measurement_rows(citing) if r.measurement.source == entry_id]
            place = vars(standing(reader, entry))
            return DossierContext(*common, citing=citing, measurements=rows, standing=place)
        if entry_type == "claim":
            rows = measurement_rows([entry])
            return ClaimContext(*common, measurements=rows, stances=by_stance(entry))
        if entry_type == "program":
            members = {t: reader.program_members(entry, t) for t in ("dossier", "claim", "tension")}
            prediction = vars(program_prediction(reader, entry))
            return ProgramContext(*common, members=members, prediction=prediction)
        if entry_type == "page":
            return _page_context(reader, common)
        if entry_type == "tension":
            assert isinstance(entry.model, Tension)
            claims = [[reader.get("claim", c) for c in side.claims] for side in entry.model.sides]
            return TensionContext(*common, side_rows=[measurement_rows(cs) for cs in claims])
        return EntryContext(*common)

    return context


def _page_context(reader: Reader, common: tuple[Entry, list[Entry], dict[str, Any]]) -> object:
    """A prose page's context, with the panels its `shows` asks for."""
    shows = getattr(common[0].model, "shows", ())
    return PageEntryContext(
        *common,
        depth=reader.shared(evidence_depth) if "evidence-depth" in shows else None,
        labels=in_file_order(reader.entries("evidence")) if "label-rules" in shows else None,
        data_files=site_files(kind="data") if "data-files" in shows else None,
        # As a dict, so templates receive its claims linked (a dataclass is not walked).
        independence=vars(reader.shared(independence)) if "people" in shows else None,
    )
