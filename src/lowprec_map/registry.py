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
from dataclasses import dataclass

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
        listing=Listing("Research programs", "Questions that can become experiments."),
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

BY_NAME: dict[str, EntryType] = {t.name: t for t in TYPES}
BY_SLUG: dict[str, EntryType] = {t.slug: t for t in TYPES if t.has_pages}
# The types whose entries each have a page, in the order pages, search and sitemap list them.
PAGE_TYPES: tuple[EntryType, ...] = tuple(t for t in TYPES if t.has_pages)
LISTED_TYPES: tuple[EntryType, ...] = tuple(t for t in TYPES if t.listing is not None)
MAP_COLUMNS: tuple[str, ...] = tuple(
    t.name
    for t in sorted(TYPES, key=lambda t: -1 if t.map_column is None else t.map_column)
    if t.map_column is not None
)
# Top-level URL segments of the site's own pages and files, beside the types' folders.
SITE_SEGMENTS = frozenset(
    {
        "map",
        "search",
        "changes",
        "data",
        "static",
        "labels",
        "404",
        "feed.xml",
        "sitemap.xml",
        "robots.txt",
        "references.bib",
    }
)
# A page is published at /<id>/, so its id must not take a segment the site uses.
RESERVED_PAGE_IDS = SITE_SEGMENTS | {t.url_folder.split("/")[0] for t in TYPES if t.url_folder}
# `[text](type:id)` in prose links an entry; the linker checks the id like any other reference.
MENTION = re.compile(rf"\]\(({'|'.join(t.slug for t in PAGE_TYPES)}):([^)\s]*)\)")


def type_name(name: str) -> str:
    """What an entry of type `name` is called: 'failure mode', 'research program'."""
    entry_type = BY_NAME.get(name)
    return entry_type.singular if entry_type else name
