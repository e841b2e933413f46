"""Render: planned pages -> bytes in memory, with Jinja (prose through `markdown.py`).

A page is its context, computed through a reader of the graph, then its
drawing. serve's reader records what each of the two read, apart (it compares
the two kinds differently, see `dev/recording.py`). Content is data, never code: Jinja
autoescapes with StrictUndefined so a template typo fails the build, as a
problem at the template's file and line (`TemplateFailure`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from lowprec_map import speed
from lowprec_map.content.entry import Entry
from lowprec_map.content.graph import MapGraph
from lowprec_map.registry import REGISTRY
from lowprec_map.schema.frame import Site
from lowprec_map.site.contexts import variables
from lowprec_map.site.markdown import make_markdown, resolve_mentions
from lowprec_map.site.pages import Context, PageSpec
from lowprec_map.site.reads import (
    Fact,
    LinkedEntry,
    Reader,
    SharedViews,
    field_fact,
    linked,
    members_fact,
)
from lowprec_map.site.template_errors import (
    TemplateFailure,
    check_blocks,
    template_problem,
)
from lowprec_map.site.template_table import template_table
from lowprec_map.site.urls import (
    asset_url,
    output_file,
)
from lowprec_map.site.views import (
    sorted_entries,
)

MAX_CHROMES = 64  # folder depths times the versions of the site a serve session keeps
STATIC_ASSETS = ("style.css", "site.js", "favicon.svg")
Placement = tuple[int, str | None]  # a page's folder depth, and the 404 page's absolute root


@dataclass(frozen=True)
class PageContext:
    """A page's context as computed, the reader it was computed through, and what it read."""

    values: Context
    reader: Reader
    facts: frozenset[Fact]


class Renderer:
    """The Jinja environment and Markdown parser; reusable across rebuilds.

    Compiling templates is most of a small rebuild's cost, so `serve` keeps one
    Renderer while the templates and static files are unchanged. `base_url`
    overrides site.yaml's published root (a rendering input, e.g. a sub-path);
    `cache` is where compiled templates are kept; `reader` is the kind of reader pages
    are computed through (serve's records what each page read, a build's does not).
    """

    def __init__(
        self,
        templates: Path,
        static: Path,
        base_url: str | None = None,
        *,
        cache: Path | None = None,
        reader: type[Reader] = Reader,
        offline: bool = False,
    ) -> None:
        self.templates = templates
        self.base_url = base_url
        self.reader = reader
        self.offline = offline  # links name files, for a site opened from a folder
        # Per graph: the linked entries a build shares, the views every page shares.
        self._shared: tuple[MapGraph | None, dict[str, LinkedEntry], SharedViews] = (None, {}, {})
        self.markdown = make_markdown()
        # Content-hashed asset URLs; a changed static file makes serve build a new Renderer.
        self.assets = {name: asset_url(static, name) for name in STATIC_ASSETS}
        self.modules: dict[Placement, Any] = {}
        # The page chrome (head links, masthead, footer) is the same on every page at one
        # folder depth: drawn once per depth and per site and pages shown (see `_chrome`).
        self.chromes: dict[
            tuple[object, ...], tuple[list[object], dict[str, Markup], frozenset[Fact]]
        ] = {}
        self._shown_site: tuple[Site | None, Site | None] = (None, None)
        self._nav: tuple[MapGraph | None, list[Entry]] = (None, [])
        # Cards drawn, with the facts they read (see `card` and `forget`).
        self.cards: dict[tuple[object, ...], tuple[Markup, frozenset[Fact]]] = {}
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(templates),
            autoescape=jinja2.select_autoescape(["html", "xml"], default_for_string=True),
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
        )
        filters, template_globals = template_table(self)
        self.env.filters.update(filters)
        self.env.globals.update(template_globals)
        if cache is not None and speed.on("template-cache"):  # keyed by how filters are called
            self.env.bytecode_cache = _bytecode_cache(cache, self.env)

    def compile(self, specs: list[PageSpec]) -> None:
        """Compile the templates these pages use (before forking, so workers inherit them);
        raises TemplateFailure."""
        try:
            # Every type's page template too, so a missing one is found before its first entry.
            every_type = {t.template for t in REGISTRY.page_types}
            for name in sorted({s.template for s in specs} | every_type | {"partials/macros.html"}):
                self.env.get_template(name)
                check_blocks(self.env, self.templates, name)
        except jinja2.TemplateError as exc:
            raise TemplateFailure(template_problem(exc, self.templates)) from None

    def render(self, spec: PageSpec, graph: MapGraph) -> bytes:
        """One planned page as bytes; raises TemplateFailure."""
        return self.draw(spec, self.context(spec, graph))[0]

    def context(self, spec: PageSpec, graph: MapGraph) -> PageContext:
        """The page's context, computed through a reader of `graph`, and what it read."""
        reader = self._reader(graph)
        values = variables(spec.context(reader))
        return PageContext(values, reader, reader.take_facts())

    def draw(self, spec: PageSpec, page: PageContext) -> tuple[bytes, frozenset[Fact]]:
        """The page drawn from its context, and what its templates read; raises
        TemplateFailure."""
        try:
            return self._draw_page(spec, page.values, page.reader), page.reader.take_facts()
        # Whatever a template's code raises (a filter given the wrong value, 1/0, a macro
        # that calls itself forever, a macro file failing as it loads) is a mistake at a
        # template's line, and reported there.
        except Exception as exc:
            raise TemplateFailure(template_problem(exc, self.templates)) from None

    def _draw_page(self, spec: PageSpec, values: Context, reader: Reader) -> bytes:
        template = self.env.get_template(spec.template)
        variables = {name: linked(value, reader) for name, value in values.items()}
        if isinstance(variables.get("entry"), LinkedEntry):
            # An entry page's `model`: the linked entry's own fields, so a build resolves
            # them once for every page that shows the entry.
            variables["model"] = variables["entry"].model
        page_file = output_file(spec.url)
        placement = _placement_of(page_file, variables.get("absolute_root"))
        macros = self._macros(placement)
        site = self._site(reader.site)
        text = template.render(
            variables,
            page=spec,
            page_file=page_file,
            macros=macros,
            site=site,
            chrome=self._chrome(placement, site, reader),
        )
        return text.encode("utf-8")

    def _chrome(self, placement: Placement, site: Site, reader: Reader) -> dict[str, Markup]:
        """The head links, masthead and footer for a page at `placement`.

        Keyed by the identity of the very objects they show (the site and the pages in
        the masthead, kept alive beside the drawing so no identity is reused), so a
        changed site or page draws them anew; what they read is recorded for every
        page that shows them, as for cards.
        """
        pages = self._nav_pages(reader)
        shown: list[object] = [site, *pages]
        key = (placement, *map(id, shown))
        found = self.chromes.get(key)
        if found is None:
            if len(self.chromes) >= MAX_CHROMES:  # serve: drawings of older sites and pages
                self.chromes.clear()
            read = reader.start_recording()
            try:
                macros, nav = self._macros(placement), linked(pages, reader)
                drawn = {
                    "head_links": Markup(macros.head_links(site)),
                    "masthead": Markup(macros.masthead(site, nav)),
                    "site_footer": Markup(macros.site_footer(site)),
                }
            finally:
                reader.stop_recording(read)
            found = self.chromes[key] = (shown, drawn, frozenset(read))
        else:
            reader.note(*found[2])
        return found[1]

    def forget(self, changed: set[Fact]) -> None:
        """Drop the cards that read a fact in `changed` (serve, before rendering a save)."""
        self.cards = {k: v for k, v in self.cards.items() if v[1].isdisjoint(changed)}

    @jinja2.pass_context
    def card(
        self, context: jinja2.runtime.Context, macro: Any, entry: LinkedEntry, *args: object
    ) -> Markup:
        """`macro(entry, *args)`, drawn once while the facts it read stay the same.

        A card shows the same wherever it is drawn, so a claim card listed on many pages
        is drawn once per folder depth (each depth has its own macros, see `_macros`); the
        facts it read while drawn are recorded for every page that shows it, and
        `forget` drops it when one of them changes.
        """
        return self._draw(macro, entry, args)

    def _draw(self, macro: Any, entry: LinkedEntry, args: tuple[object, ...]) -> Markup:
        key = (macro, entry.key, *args)
        found = self.cards.get(key) if speed.on("drawn-once") else None
        if found is None:
            read = entry.reader.start_recording()
            try:
                drawn = Markup(macro(entry, *args))
            finally:
                entry.reader.stop_recording(read)
            found = self.cards[key] = (drawn, frozenset(read))
        else:
            entry.reader.note(*found[1])
        return found[0]

    @jinja2.pass_context
    def link(self, context: jinja2.runtime.Context, entry: LinkedEntry) -> Markup:
        """A link to `entry` named by its title: the `entry_link` macro, as a card."""
        placement = _placement_of(str(context["page_file"]), context.get("absolute_root"))
        return self._draw(self._macros(placement).entry_link, entry, ())

    @jinja2.pass_context
    def cards_of(
        self, context: jinja2.runtime.Context, macro: Any, entries: list[Any], *args: object
    ) -> Markup:
        """`card(macro, entry, *args)` for each of `entries` (an entry, or a tuple of an entry
        and its own arguments), joined: one call for a list, as a Jinja loop calling `card`
        for each of a thousand entries cost more than the cards it found drawn."""
        drawn = (
            self._draw(macro, item[0], (*item[1:], *args))
            if isinstance(item, tuple)
            else self._draw(macro, item, args)
            for item in entries
        )
        return Markup("".join(drawn))  # each is Markup already: no escaping to do

    def _nav_pages(self, reader: Reader) -> list[Entry]:
        """The pages the masthead links, in their order (sorted once per graph)."""
        graph, pages = self._nav
        if graph is not reader.graph:
            pages = sorted_entries(reader.graph.entries("page"))
            self._nav = (reader.graph, pages)
        # Their order is theirs to say; what the masthead shows of them, it records.
        reader.note(members_fact("page"), *(field_fact(e.key, "order") for e in pages))
        return pages

    def _reader(self, graph: MapGraph) -> Reader:
        """A page's reader, sharing with every page drawn from `graph` the views several
        pages show (`Reader.shared`) and, if it records nothing, the linked entries."""
        if self._shared[0] is not graph:
            self._shared = (graph, {}, {})
        _, entries, views = self._shared
        return self.reader(graph, entries, views)

    def _site(self, site: Site) -> Site:
        """The site as pages show it: published at `base_url` when one is given."""
        if self.base_url is None:
            return site
        original, shown = self._shown_site
        if original is not site or shown is None:
            shown = site.model_copy(update={"base_url": self.base_url})
            self._shown_site = (site, shown)
        return shown

    def _macros(self, placement: Placement) -> Any:
        """partials/macros.html as a module whose links are made for `placement`.

        Macros link relative to the page, so they need its folder depth; one module
        per depth is made once, instead of importing the file with each page's context.
        """
        module = self.modules.get(placement)
        if module is None:
            depth, root = placement
            template = self.env.get_template("partials/macros.html")
            variables = {"page_file": "x/" * depth + "x", "absolute_root": root}
            module = self.modules[placement] = template.make_module(variables)
        return module

    @jinja2.pass_context
    def block_markdown(self, context: jinja2.runtime.Context, text: str | None) -> Markup:
        source = resolve_mentions(str(context["page_file"]), text or "", self.offline)
        return Markup(self.markdown.render(source))  # safe: raw HTML is off


def _bytecode_cache(folder: Path, env: jinja2.Environment) -> jinja2.BytecodeCache | None:
    """Compiled templates kept in the project's cache folder between builds.

    Jinja checks each template's source checksum itself; compiled code also bakes
    in the Jinja version and how each filter is called (with the context or not),
    so those name the folder: a change to either never reuses old code.
    """
    calling = sorted(
        (name, str(getattr(f, "jinja_pass_arg", ""))) for name, f in env.filters.items()
    )
    key = hashlib.sha256(repr((jinja2.__version__, calling)).encode()).hexdigest()[:16]
    try:
        (folder / f"jinja-{key}").mkdir(parents=True, exist_ok=True)
    except OSError:
        return None  # a read-only project: compile every time
    return jinja2.FileSystemBytecodeCache(str(folder / f"jinja-{key}"))


def _placement_of(page_file: str, absolute_root: object) -> Placement:
    """What a page's links depend on: its folder depth, and on the 404 page (served at
    any depth) the absolute root its links start from."""
    return page_file.count("/"), absolute_root if isinstance(absolute_root, str) else None
