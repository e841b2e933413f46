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
import typing
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from lowprec_map.schema import skeletons
from lowprec_map.schema.claims import Claim
from lowprec_map.schema.entries import Dossier, FailureMode, Page, Program, ReadingPath, Tension
from lowprec_map.schema.fields import Model, RefTo
from lowprec_map.schema.frame import (
    Domain,
    EvidenceFile,
    EvidenceLabel,
    Metric,
    PeopleFile,
    Person,
    Perturbation,
    PerturbationGroup,
    ResearchGroup,
    Site,
    TaxonomyFile,
)
from lowprec_map.schema.skeletons import Existing
from lowprec_map.site_files import SITE_FILES


@dataclass(frozen=True)
class Listing:
    """The page that lists every entry of a type: where, with which template and words."""

    title: str
    description: str
    template: str = "listing.html"
    masthead: str | None = None  # the masthead's link text, when the masthead links it


@dataclass(frozen=True)
class Naming:
    """How an entry is named, described and found: by which of its fields."""

    title: str  # the field it is shown by in links, cards and lists
    summary: str | None = None  # the field that describes it in one sentence
    page_title: str | None = None  # the field of its page's <title>, if not `title`
    short: int | None = None  # the page title is cut at a word within this many characters
    search: tuple[str, ...] = ()  # the fields search matches, in order ('regime.models')


def _by_id(model: Model) -> tuple[object, ...]:
    return ()


def _core_then_date(model: Model) -> tuple[object, ...]:
    assert isinstance(model, Dossier)
    return (not model.core, model.date.isoformat())


def _by_order(model: Model) -> tuple[object, ...]:
    assert isinstance(model, ReadingPath | Page)
    return (model.order,)


@dataclass(frozen=True)
class EntryType:
    """One kind of entry: where it is kept, how it is checked, named, ordered and published."""

    name: str  # the type's id, as in graph keys 'name:id'
    model: type[Model]
    singular: str  # what one entry is called in messages and on pages
    folder: str | None = None  # content/<folder>/<id><suffix>: one entry per file
    suffix: str = ".yaml"
    file: str | None = None  # or content/<file>, one file for the site or a list of entries
    optional: bool = False  # whether `file` may be absent (then the type has no entries)
    list_field: str | None = None  # the list in `file` whose items are entries of this type
    url_folder: str | None = None  # entry pages at <url_folder>/<id>/; None: no folder
    anchor: str | None = None  # or an anchor on another page: '<url>#<prefix>-<id>'
    listing: Listing | None = None
    map_column: int | None = None  # position of its column on /map/, if it has one
    naming: Naming = Naming("name")
    order: Callable[[Model], tuple[object, ...]] = _by_id  # listing order (then by id)
    # What `new` writes for it: its required fields (schema/skeletons.py); None: no `new`.
    skeleton: Callable[[Existing], dict[str, Any]] | None = None

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
    EntryType("site", Site, "site", file="site.yaml", naming=Naming("title", "description")),
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
        naming=Naming("name", "description"),
    ),
    EntryType(
        "perturbation",
        Perturbation,
        "perturbation",
        file="taxonomy.yaml",
        list_field="perturbations",
        anchor="dossiers/#perturbation",
        naming=Naming("name", "description"),
    ),
    EntryType(
        "metric",
        Metric,
        "metric",
        file="taxonomy.yaml",
        list_field="metrics",
        anchor="compare/#metric",
        naming=Naming("name", "description"),
    ),
    EntryType(
        "domain",
        Domain,
        "domain",
        file="taxonomy.yaml",
        list_field="domains",
        anchor="compare/#domain",
        naming=Naming("name", "description"),
    ),
    EntryType(
        "person",
        Person,
        "person",
        file="people.yaml",
        list_field="people",
        optional=True,
        naming=Naming("name"),
    ),
    EntryType(
        "research_group",
        ResearchGroup,
        "group",
        file="people.yaml",
        list_field="groups",
        optional=True,
        naming=Naming("name"),
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
        naming=Naming(
            "short_name",
            "summary",
            page_title="title",
            search=("title", "short_name", "summary", "authors", "regime.models"),
        ),
        order=_core_then_date,
        skeleton=skeletons.dossier,
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
        # A claim is named by its statement; its page's title is a short form of it.
        naming=Naming("statement", "statement", short=90, search=("statement", "scope")),
        skeleton=skeletons.claim,
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
        naming=Naming("title", "summary", search=("title", "summary")),
        skeleton=skeletons.tension,
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
        naming=Naming("title", "summary", search=("title", "summary")),
        skeleton=skeletons.failure_mode,
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
        naming=Naming("title", "question", search=("title", "question")),
        skeleton=skeletons.program,
    ),
    EntryType(
        "path",
        ReadingPath,
        "reading path",
        folder="paths",
        url_folder="paths",
        listing=Listing("Reading paths", "Ordered ways into the map.", masthead="Paths"),
        naming=Naming("title", "summary", search=("title", "summary")),
        order=_by_order,
        skeleton=skeletons.path,
    ),
    EntryType(
        "page",
        Page,
        "page",
        folder="pages",
        suffix=".md",
        url_folder="",
        naming=Naming("title", "description", search=("title", "description")),
        order=_by_order,
        skeleton=skeletons.page,
    ),
)

# The files that hold lists of entries: file name -> the model of the whole file.
LIST_FILE_MODELS: dict[str, type[Model]] = {
    "evidence.yaml": EvidenceFile,
    "taxonomy.yaml": TaxonomyFile,
    "people.yaml": PeopleFile,
}


class Registry:
    """The entry types, and every list and lookup other modules derive from them.

    Modules read these attributes when they run (never copy them at import), so a
    type added with `extended` is seen everywhere, as the tests' toy type shows.
    """

    def __init__(self, types: tuple[EntryType, ...]) -> None:
        self._use(types)

    def _use(self, types: tuple[EntryType, ...]) -> None:
        check_types(types)
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
        # file name -> its kind ('site', 'evidence', 'taxonomy', 'people').
        self.single_files = {t.file: t.file.removesuffix(".yaml") for t in types if t.file}
        # The files a content folder must have.
        self.required_files = {t.file for t in types if t.file and not t.optional}
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


class RegistryError(Exception):
    """The entry types contradict each other: a programming error, raised at import."""


def check_types(types: tuple[EntryType, ...]) -> None:
    """Unique names, folders, files and URL folders; every reference's target type and
    every field a type is named or searched by exists; a type with pages can be made
    with `new`."""
    for what, values in (
        ("name", [t.name for t in types]),
        ("command-line name", [t.slug for t in types]),
        ("folder", [t.folder for t in types if t.folder]),
        ("file and list", [f"{t.file} {t.list_field}" for t in types if t.file]),
        ("URL folder", [t.url_folder for t in types if t.url_folder is not None]),
    ):
        repeated = sorted({v for v in values if values.count(v) > 1})
        if repeated:
            raise RegistryError(f"entry types share a {what}: {', '.join(repeated)}")
    names = {t.name for t in types}
    for entry_type in types:
        unknown = sorted(_reference_targets(entry_type.model) - names)
        if unknown:
            raise RegistryError(f"{entry_type.name} refers to unknown types: {unknown}")
        naming = entry_type.naming
        named_by = [naming.title, naming.summary, naming.page_title, *naming.search]
        fields = entry_type.model.model_fields
        missing = [f for f in named_by if f is not None and f.split(".")[0] not in fields]
        if missing:
            raise RegistryError(f"{entry_type.name} is named by fields it lacks: {missing}")
        if entry_type.has_pages and entry_type.skeleton is None:
            raise RegistryError(f"{entry_type.name} has pages but no skeleton for `new`")


def _reference_targets(model: type[BaseModel]) -> set[str]:
    """The entry types `model`'s RefTo fields name, nested models included."""
    found: set[str] = set()
    stack: list[Any] = [f for field in model.model_fields.values() for f in _parts(field)]
    seen: set[Any] = set()
    while stack:
        part = stack.pop()
        if isinstance(part, RefTo):
            found.add(part.target)
        elif isinstance(part, type) and issubclass(part, BaseModel) and part not in seen:
            seen.add(part)
            stack.extend(f for field in part.model_fields.values() for f in _parts(field))
        else:
            stack.extend([*getattr(part, "__metadata__", ()), *typing.get_args(part)])
    return found


def _parts(field: FieldInfo) -> list[Any]:
    return [*field.metadata, field.annotation]


REGISTRY = Registry(TYPES)


def type_name(name: str) -> str:
    """What an entry of type `name` is called: 'failure mode', 'research program'."""
    entry_type = REGISTRY.by_name.get(name)
    return entry_type.singular if entry_type else name
