"""What each kind of page shows: one dataclass per page kind, a line on each field.

`site/pages.py` computes them through a recording reader; the renderer hands each
field to the page's template as a variable of that name (`variables`), so a
template can show only what its context's class declares. Entries stay `Entry`
objects here, in lists, tuples and dicts: the renderer links them for templates
(see `site/reads.py`). tests/test_contexts.py renders every kind from its class
and holds every field to its description.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, fields
from typing import Any

from lowprec_map.content.entry import Entry
from lowprec_map.schema.claims import Claim, Source
from lowprec_map.site.charts import MetricChart
from lowprec_map.site.evidence_views import EvidenceDepth
from lowprec_map.site.facets import Facet
from lowprec_map.site.layout import MapLayout
from lowprec_map.site.views import BeliefChange, PathCell, Row, Taxonomy
from lowprec_map.site_files import SiteFile

STANCES = ("supports", "contrasts", "mentions")  # the order a claim page lists them in


def by_stance(claim: Entry) -> list[tuple[str, list[Source]]]:
    """A claim's sources grouped by stance, in STANCES order, empty stances left out."""
    assert isinstance(claim.model, Claim)
    groups = [(s, [x for x in claim.model.sources if x.stance == s]) for s in STANCES]
    return [(stance, sources) for stance, sources in groups if sources]


def variables(context: object) -> dict[str, Any]:
    """A context's fields as template variables, by field name."""
    return {f.name: getattr(context, f.name) for f in fields(context)}  # type: ignore[arg-type]


@dataclass(frozen=True)
class LandingContext:
    """/: the map in a few screens, each section a preview of a page one click away."""

    recent: list[Entry]
    """The three most recently updated entries."""
    belief_changes: list[BeliefChange]
    """The newest change of a claim's label, if any (claim, change)."""
    dossiers: list[Entry]
    """Every dossier in listing order, for the taxonomy's filter."""
    core_dossiers: list[Entry]
    """The core dossiers, as tiles."""
    claims: list[Entry]
    """A preview of the ledger: the newest claims, by id."""
    labels: list[tuple[Entry, int]]
    """Each evidence label with the number of claims carrying it."""
    counts: Counter[str]
    """Entries per type, and 'core' for core dossiers."""
    taxonomy: Taxonomy
    """Groups, their perturbations, the dossiers perturbing each and the core ones."""
    tensions: list[Entry]
    """The newest tensions, previewed."""
    featured: Entry | None
    """The failure mode marked featured, if any."""
    programs: list[Entry]
    """Every research program."""
    program_statuses: list[tuple[Entry, str]]
    """Each program with its computed prediction status."""
    paths: list[Entry]
    """The first reading paths, in their order."""
    foundations: Entry | None
    """The numerical-foundations page, if the content has one."""


@dataclass(frozen=True)
class MapContext:
    """/map/: the graph laid out at build time, and the programs its filter lists."""

    layout: MapLayout
    """Where each shown node and edge stands, and what was left out."""
    nodes: list[tuple[Entry, int, int, str]]
    """Each shown node: its entry, position and label."""
    programs: list[Entry]
    """Every research program, for the filter."""
    overview: MapLayout
    """The first view: programs, core works, tensions and failure modes, whole labels."""
    overview_nodes: list[tuple[Entry, int, int, str]]
    """Each overview node: its entry, position and programs."""
    overview_counts: dict[str, int]
    """How many entries of each type the overview shows."""
    work_count: int
    """How many works (dossiers) the map holds, core or not."""


@dataclass(frozen=True)
class CompareContext:
    """/compare/: per metric with measurements, its chart and rows."""

    charts: list[MetricChart]
    """A chart per metric that has measurements."""
    empty_metrics: list[Entry]
    """Metrics no claim measures yet."""
    measurement_count: int
    """How many measurements the charts hold."""
    domain: Entry | None
    """The domain whose numbers this page shows; None: every domain."""
    domains: list[tuple[Entry, int]]
    """Every domain with how many measurements come from it."""
    formats: list[str]
    """The number formats of the measurements shown, for the format filter."""
    baselines: list[str]
    """The kinds of baseline (the precision each names, or a method), for the filter."""
    views: list[tuple[str, str, int, bool]]
    """The page's views (name, URL, measurements, whether it is this one): a domain each,
    the first at /compare/, and every domain together."""
    data_files: list[SiteFile]
    """The data files this page offers (measurements.csv)."""


@dataclass(frozen=True)
class ChangesContext:
    """/changes/: belief changes first, then every dated entry by its last update."""

    belief_changes: list[BeliefChange]
    """Every change of a claim's label, newest first."""
    recent: list[Entry]
    """Every dated entry, most recently updated first."""


@dataclass(frozen=True)
class SearchContext:
    """/search/: every entry with a page, by type, for the index that works without
    JavaScript."""

    entries: list[tuple[str, list[Entry]]]
    """Each type with pages, and its entries."""


@dataclass(frozen=True)
class ListingContext:
    """A type's listing page (tensions, failure modes, paths)."""

    entries: list[Entry]
    """The type's entries in listing order."""
    entry_type: str
    """The type listed."""


@dataclass(frozen=True)
class ProgramsContext:
    """/programs/: the prediction ledger."""

    predictions: list[tuple[Entry, dict[str, Any]]]
    """Each program with its prediction: status, supporting, contradicting, pending."""
    entry_type: str
    """'program'."""


@dataclass(frozen=True)
class DossierIndexContext:
    """/dossiers/: every work, the taxonomy, and the papers × tensors matrix."""

    entries: list[Entry]
    """Every dossier in listing order."""
    taxonomy: Taxonomy
    """Groups, their perturbations and the dossiers perturbing each."""
    columns: list[str]
    """The tensors some dossier names, in schema order."""
    matrix: list[tuple[Entry, dict[str, PathCell]]]
    """Each dossier with its formats per tensor, by side."""


@dataclass(frozen=True)
class LedgerContext:
    """/claims/ and /claims/label/<id>/: the claim ledger, whole or for one label."""

    claims: list[Entry]
    """The claims shown."""
    groups: list[list[Entry]]
    """The claims grouped so that conflicting claims stand side by side."""
    labels: list[tuple[Entry, int]]
    """Each evidence label with the number of claims carrying it."""
    claim_count: int
    """How many claims the map holds."""
    label: Entry | None
    """The label of this ledger page; None for the whole ledger."""
    depth: EvidenceDepth | None
    """Where sources point and how much was read (the whole ledger only)."""
    data_files: list[SiteFile]
    """The data files this page offers (claims.csv)."""
    facets: list[Facet]
    """The facets the whole ledger filters by, with counts (empty on a label's page)."""


@dataclass(frozen=True)
class SitemapContext:
    """sitemap.xml."""

    urls: list[str]
    """Every HTML page's URL, sorted."""


@dataclass(frozen=True)
class FeedContext:
    """feed.xml."""

    recent: list[Entry]
    """The newest entries, most recently updated first."""


@dataclass(frozen=True)
class NotFoundContext:
    """404.html, served at any depth, so its links are absolute."""

    absolute_root: str
    """The site's root path, from its base URL ('/lowprec-map/')."""


@dataclass(frozen=True)
class EntryContext:
    """An entry's page (the renderer adds `model`, the entry's linked fields)."""

    entry: Entry
    """The entry."""
    backlinks: list[Entry]
    """Every entry that refers to it."""
    local_map: dict[str, Any]
    """Its neighbourhood drawn small: the nodes on each side and the edges."""


@dataclass(frozen=True)
class DossierContext(EntryContext):
    """A dossier's page."""

    citing: list[Entry]
    """The claims that cite the work."""
    measurements: list[Row]
    """The measurements those claims take from this work."""
    standing: dict[str, Any]
    """`site/standing.py`'s `Standing` as a dict (so its entries reach templates linked):
    the tensions it is a side of, the works that agree or disagree through shared claims,
    its relations both ways, and the claims citing it by stance."""


@dataclass(frozen=True)
class ClaimContext(EntryContext):
    """A claim's page."""

    measurements: list[Row]
    """The claim's measurements."""
    stances: list[tuple[str, list[Source]]]
    """Its sources by stance (supports, contrasts, mentions), each stance that has any."""


@dataclass(frozen=True)
class TensionContext(EntryContext):
    """A tension's page."""

    side_rows: list[list[Row]]
    """Per side, the measurements its claims carry."""


@dataclass(frozen=True)
class ProgramContext(EntryContext):
    """A research program's page."""

    members: dict[str, list[Entry]]
    """The dossiers, claims and tensions that declare themselves in the program."""
    prediction: dict[str, Any]
    """Its prediction: status, and the claims supporting, contradicting or pending."""


@dataclass(frozen=True)
class PageEntryContext(EntryContext):
    """A prose page's, with the computed panels its `shows` asks for."""

    depth: EvidenceDepth | None = None
    """Where sources point and how much was read ('evidence-depth')."""
    labels: list[Entry] | None = None
    """The evidence labels and their rules ('label-rules')."""
    data_files: list[SiteFile] | None = None
    """Every data file the site publishes ('data-files')."""
    independence: dict[str, Any] | None = None
    """`Independence`'s fields: the people and groups the map knows, and the replicated
    claims a group tells apart ('people')."""


CONTEXTS = (
    LandingContext, MapContext, CompareContext, ChangesContext, SearchContext,
    ListingContext, ProgramsContext, DossierIndexContext, LedgerContext, SitemapContext,
    FeedContext, NotFoundContext, EntryContext, DossierContext, ClaimContext,
    ProgramContext, PageEntryContext, TensionContext,
)  # fmt: skip
"""Every kind of page context, for the contract test."""
