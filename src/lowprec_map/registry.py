"""The registry of entry types: the one place that lists them.

Every module that needs the list of types reads it from here: discovery (which
folder or file holds a type), validation (its model), URLs (its folder on the
site), the `[text](type:id)` prose-link syntax, scaffolding and JSON Schemas,
listings and the masthead, reserved page ids, the map's columns, search and
the bench's generator. Adding a type is an `EntryType` here, a model in
`schema/` and a template.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Literal

from lowprec_map.schema.entries import (
    Claim,
    Dossier,
    FailureMode,
    Page,
    Program,
    ReadingPath,
    Tension,
)
from lowprec_map.schema.fields import Model
from lowprec_map.schema.frame import (
    EvidenceFile,
    EvidenceLabel,
    Metric,
    Perturbation,
    PerturbationGroup,
    Site,
    TaxonomyFile,
)


@dataclass(frozen=True)
class Listing:
    """The page that lists every entry of a type: where, with which template and words."""

    title: str
    description: str
    template: str = "listing.html"
    masthead: str | None = None  # the masthead's link text, when the masthead links it


@dataclass(frozen=True)
class EntryType:
    """One kind of entry: where it is kept, how it is checked, where it is published."""

    name: str  # the type's id, as in graph keys 'name:id'
    model: type[Model]
    singular: str  # what one entry is called in messages and on pages
    folder: str | None = None  # content/<folder>/<id><suffix>: one entry per file
    suffix: str = ".yaml"
    file: str | None = None  # or content/<file>, one file for the site or a list of entries
    list_field: str | None = None  # the list in `file` whose items are entries of this type
    url_folder: str | None = None  # entry pages at <url_folder>/<id>/; None: no folder
    anchor: str | None = None  # or an anchor on another page: '<url>#<prefix>-<id>'
    listing: Listing | None = None
    map_column: int | None = None  # position of its column on /map/, if it has one

    @property
    def slug(self) -> str:
        """The name on the command line and in prose links: 'failure-mode'."""
        return self.name.replace("_", "-")

    @property
    def has_pages(self) -> bool:
        """True for types whose entries each get a page (from the `<name>.html` template)."""
        return self.folder is not None

    @property
    def template(self) -> str:
        """The template of an entry's page."""
        return f"{self.name}.html"


TYPES: tuple[EntryType, ...] = (
    EntryType("site", Site, "site", file="site.yaml"),
    EntryType(
        "evidence",
        EvidenceLabel,
        "evidence label",
        file="evidence.yaml",
        list_field="labels",
        url_folder="claims/label",
    ),
    EntryType(
        "group",
        PerturbationGroup,
        "perturbation group",
        file="taxonomy.yaml",
        list_field="groups",
        anchor="dossiers/#group",
    ),
    EntryType(
        "perturbation",
        Perturbation,
        "perturbation",
        file="taxonomy.yaml",
        list_field="perturbations",
        anchor="dossiers/#perturbation",
    ),
    EntryType(
        "metric",
        Metric,
        "metric",
        file="taxonomy.yaml",
        list_field="metrics",
        anchor="compare/#metric",
    ),
    EntryType(
        "dossier",
        Dossier,
        "dossier",
        folder="dossiers",
        url_folder="dossiers",
        listing=Listing(
            "Paper dossiers",
            "Every paper on the map, with its numerical path side by side.",
            "dossiers.html",
            "Dossiers",
        ),
        map_column=1,
    ),
    EntryType(
        "claim",
        Claim,
        "claim",
        folder="claims",
        url_folder="claims",
        listing=Listing(
            "Claim ledger",
            "Every indexed claim with its sources, locators and evidence label.",
            "claims.html",
            "Claims",
        ),
        map_column=2,
    ),
    EntryType(
        "tension",
        Tension,
        "tension",
        folder="tensions",
        url_folder="tensions",
        listing=Listing(
            "Productive tensions", "Pairs of works whose results pull apart.", masthead="Tensions"
        ),
        map_column=3,
    ),
    EntryType(
        "failure_mode",
        FailureMode,
        "failure mode",
        folder="failure_modes",
        url_folder="failure-modes",
        listing=Listing(
            "Failure modes",
            "Mechanisms by which low precision breaks RL.",
            masthead="Failure modes",
        ),
        map_column=4,
    ),
    EntryType(
        "program",
        Program,
        "research program",
        folder="programs",
        url_folder="programs",
        listing=Listing(
            "Research programs",
            "Questions that can become experiments, and the status of each prediction.",
            "programs.html",
        ),
        map_column=0,
    ),
    EntryType(
        "path",
        ReadingPath,
        "reading path",
        folder="paths",
        url_folder="paths",
        listing=Listing("Reading paths", "Ordered ways into the map.", masthead="Paths"),
    ),
    EntryType("page", Page, "page", folder="pages", suffix=".md", url_folder=""),
)

# The files that hold lists of entries: file name -> the model of the whole file.
LIST_FILE_MODELS: dict[str, type[Model]] = {
    "evidence.yaml": EvidenceFile,
    "taxonomy.yaml": TaxonomyFile,
}


@dataclass(frozen=True)
class SiteFile:
    """One of the site's own pages or files (beside the entries' pages and listings)."""

    url: str  # site-relative: 'map/', 'data/claims.csv'
    name: str  # its link text
    description: str  # what it holds, where a page lists it
    kind: Literal["page", "data", "discovery"]
    masthead: bool = False  # linked from the masthead (in this table's order)
    footer: bool = False  # linked from every page's footer
    not_found: bool = False  # linked from the 404 page
    linked_from: tuple[str, ...] = ()  # pages that link it besides (/about/ lists all data)
    export: bool = False  # written by site/exports.py (the rest are drawn from templates)


SITE_FILES: tuple[SiteFile, ...] = (
    SiteFile("", "The landing page", "The map in a few screens.", "page", not_found=True),
    SiteFile("map/", "Map", "Every entry and how they connect.", "page", True, not_found=True),
    SiteFile("compare/", "Compare", "The numbers side by side, per metric.", "page", True),
    SiteFile("search/", "Search", "Every entry with a page, searchable.", "page"),
    SiteFile("changes/", "What changed", "Belief changes, then every entry by update.", "page",
             footer=True),
    SiteFile("404.html", "Page not found", "The page for addresses that lead nowhere.", "page"),
    SiteFile("data/map.json", "map.json",
             "Every entry with its fields, resolved references and backlinks, every edge "
             "and every measurement.", "data", footer=True, export=True),
    SiteFile("data/map.schema.json", "map.schema.json", "The JSON Schema of map.json.",
             "data", footer=True, export=True),
    SiteFile("data/claims.csv", "claims.csv",
             "One row per claim: statement, label, sources with locators, conflicts, programs.",
             "data", footer=True, linked_from=("claims/",), export=True),
    SiteFile("data/measurements.csv", "measurements.csv",
             "One row per measurement: metric, value or range, baseline, model, format, "
             "setting, source and locator.", "data", footer=True, linked_from=("compare/",),
             export=True),
    SiteFile("data/graph.graphml", "graph.graphml",
             "The graph of entries and references, for network tools.", "data", footer=True,
             export=True),
    SiteFile("references.bib", "references.bib",
             "A BibTeX entry per work and per claim.", "data", footer=True, export=True),
    SiteFile("feed.xml", "Atom feed", "The newest entries and changes.", "discovery",
             footer=True),
    SiteFile("sitemap.xml", "Sitemap", "Every page, for search engines.", "discovery"),
    SiteFile("robots.txt", "robots.txt", "Where the sitemap is.", "discovery", export=True),
)  # fmt: skip


def site_files(*, kind: str | None = None, **flags: bool | str) -> list[SiteFile]:
    """The site's own files of `kind` with each of `flags` set (`footer=True`, ...), or
    linked from a page (`linked_from='compare/'`), in the table's order."""
    found = [f for f in SITE_FILES if kind is None or f.kind == kind]
    for flag, wanted in flags.items():
        if flag == "linked_from":
            found = [f for f in found if wanted in f.linked_from]
        else:
            found = [f for f in found if getattr(f, flag) == wanted]
    return found


class Registry:
    """The entry types, and every list and lookup other modules derive from them.

    Modules read these attributes when they run (never copy them at import), so a
    type added with `extended` is seen everywhere, as the tests' toy type shows.
    """

    def __init__(self, types: tuple[EntryType, ...]) -> None:
        self._use(types)

    def _use(self, types: tuple[EntryType, ...]) -> None:
        self.types = types
        self.by_name = {t.name: t for t in types}
        # Command-line and prose-link names of the types with pages: 'failure-mode'.
        self.by_slug = {t.slug: t for t in types if t.has_pages}
        # The types whose entries each have a page, in the order pages, search, the
        # sitemap and the summary line list them.
        self.page_types = tuple(t for t in types if t.has_pages)
        self.listed_types = tuple(t for t in types if t.listing is not None)
        self.map_columns = tuple(
            t.name
            for t in sorted(types, key=lambda t: t.map_column or 0)
            if t.map_column is not None
        )
        self.folders = {t.folder: t for t in types if t.folder is not None}
        # file name -> its kind ('site', 'evidence', 'taxonomy').
        self.single_files = {t.file: t.file.removesuffix(".yaml") for t in types if t.file}
        # file kind -> (model of the file, list field -> entry type), for the list files.
        self.list_files = {
            name.removesuffix(".yaml"): (
                model,
                {t.list_field: t.name for t in types if t.file == name and t.list_field},
            )
            for name, model in LIST_FILE_MODELS.items()
        }
        # A page is published at /<id>/, so its id must not take a segment the site uses:
        # an entry type's folder, one of the site's own files, or the assets' folder.
        self.reserved_page_ids = frozenset(
            {t.url_folder.split("/")[0] for t in types if t.url_folder}
            | {f.url.split("/")[0].removesuffix(".html") for f in SITE_FILES if f.url}
            | {"static"}
        )
        # `[text](type:id)` in prose links an entry; the linker checks the id.
        slugs = "|".join(re.escape(t.slug) for t in self.page_types)
        self.mention = re.compile(rf"\]\(({slugs}):([^)\s]*)\)")

    @contextmanager
    def extended(self, *extra: EntryType) -> Iterator[Registry]:
        """The registry with `extra` types added, for the duration of the block."""
        before = self.types
        self._use((*before, *extra))
        try:
            yield self
        finally:
            self._use(before)


REGISTRY = Registry(TYPES)


def type_name(name: str) -> str:
    """What an entry of type `name` is called: 'failure mode', 'research program'."""
    entry_type = REGISTRY.by_name.get(name)
    return entry_type.singular if entry_type else name
