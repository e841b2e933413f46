"""Render: planned pages -> bytes in memory, with Jinja and markdown-it-py.

Content is data, never code: Markdown renders with raw HTML off and only
http(s) or relative link targets, math becomes MathML at build time, and Jinja
autoescapes with StrictUndefined so a template typo fails the build.
"""

from __future__ import annotations

import datetime
import hashlib
import html
import os
import re
from pathlib import Path
from typing import Any

import jinja2
from markdown_it import MarkdownIt
from markupsafe import Markup
from mdit_py_plugins.dollarmath import dollarmath_plugin

from .exports import claim_bibtex, dossier_bibtex
from .fields import MENTION
from .graph import MapGraph
from .pages import PageSpec
from .project import TYPE_NAMES
from .urls import asset_url, entry_url, is_safe_link, output_file, relative
from .validate import Entry
from .views import (
    entry_programs,
    entry_summary,
    entry_title,
    ledger_items,
    ring_layout,
    search_text,
)

STATIC_ASSETS = ("style.css", "site.js", "favicon.svg")
Placement = tuple[int, str | None]  # a page's folder depth, and the 404 page's absolute root


def make_markdown() -> MarkdownIt:
    """CommonMark plus tables and $math$; raw HTML, images and unsafe links off."""
    md = MarkdownIt("commonmark", {"html": False, "typographer": True})
    md.enable(["table", "strikethrough", "replacements", "smartquotes"])
    md.disable("image")  # an image URL is a request to another host; content has none
    md.use(dollarmath_plugin, allow_digits=False, allow_space=False, renderer=_math)
    md.validateLink = is_safe_link  # type: ignore[method-assign]
    return md


def _math(tex: str, options: dict[str, Any]) -> str:
    # Imported on first use: it pulls in urllib and ssl (~50 ms) and most pages have no math.
    from latex2mathml.converter import convert as latex_to_mathml  # noqa: PLC0415

    display = "block" if options.get("display_mode") else "inline"
    try:
        return str(latex_to_mathml(tex, display=display))
    except Exception:  # latex2mathml raises many types; show the source instead
        return f'<code class="math-source">{html.escape(tex)}</code>'


class Renderer:
    """The Jinja environment and Markdown parser; reusable across rebuilds.

    Compiling templates is most of a small rebuild's cost, so `serve` keeps one
    Renderer while the templates are unchanged and only swaps in the new graph.
    """

    def __init__(self, graph: MapGraph, templates: Path, static: Path) -> None:
        self.templates = templates
        self.markdown = make_markdown()
        # Content-hashed asset URLs; a changed static file makes serve build a new Renderer.
        self.assets = {name: asset_url(static, name) for name in STATIC_ASSETS}
        # Rendered fragments by entry key ("" for the chrome), then (macro, placement,
        # args): a claim card is drawn once per build however many pages list it, and
        # kept across rebuilds unless the entry or one near it changed.
        self.fragments: dict[str, dict[tuple[str, Placement, tuple[object, ...]], Markup]] = {}
        self.modules: dict[Placement, Any] = {}
        self.drawn = 0  # fragments drawn (memo misses) since this renderer was made
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(templates),
            autoescape=jinja2.select_autoescape(["html", "xml"], default_for_string=True),
            undefined=jinja2.StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
            bytecode_cache=_bytecode_cache(),
        )
        self.env.filters.update(
            md=self._block_markdown,
            url=_url_filter,
            human_date=_human_date,
        )
        self.use(graph)

    def use(self, graph: MapGraph, changed: set[str] | None = None) -> None:
        """Render from `graph` from now on (the templates stay compiled).

        `changed` names the entries that changed since the last render; cached
        cards of other entries stay valid. None drops every cached card.
        """
        self.graph = graph
        self.modules.clear()  # a macro module snapshots the globals it was made with
        if changed is None:
            self.fragments.clear()
        else:
            # A fragment of entry E shows E and its neighbours, and a ledger group also
            # E's conflict partners and theirs: all within two references of E.
            stale = set(changed)
            for key in changed:
                entry = graph.entry(key)
                if entry is not None:
                    stale |= graph.neighbourhood(entry, hops=2)
            if any(key.startswith(("site:", "page:")) for key in changed):
                stale.add("")  # the chrome shows the site's title and the pages' names
            for key in stale:
                self.fragments.pop(key, None)
        self.env.globals.update(
            graph=graph,
            site=graph.site,
            counts=graph.counts(),
            type_name=lambda t: TYPE_NAMES.get(t, t),
            programs_of=lambda entry: entry_programs(graph, entry),
            search_text=search_text,
            entry_title=entry_title,
            page_summary=entry_summary,
            dossier_bibtex=dossier_bibtex,
            claim_bibtex=lambda entry: claim_bibtex(graph, entry),
            ring_layout=ring_layout,
            card=self._card,
            ledger_items=ledger_items,
            cards=self._cards,
            link=self._link,
            chrome=self._chrome,
            assets=self.assets,
            nav_pages=sorted(
                graph.entries("page"), key=lambda e: (getattr(e.model, "order", 0), e.id)
            ),
        )

    def render(self, spec: PageSpec) -> bytes:
        """Render one planned page to bytes."""
        template = self.env.get_template(spec.template)
        page_file, variables = output_file(spec.url), spec.variables()
        # The macros come made for the page's placement: a template importing them
        # `with context` ran the whole macro file again for every page.
        macros = self._macros(_placement_of(page_file, variables.get("absolute_root")))
        text = template.render(page=spec, page_file=page_file, macros=macros, **variables)
        return text.encode("utf-8")

    @jinja2.pass_context
    def _card(
        self, context: jinja2.runtime.Context, macro: str, entry: Entry, *args: object
    ) -> Markup:
        """The macro `macro` of partials/macros.html applied to `entry`, memoized."""
        return self._fragment(_placement(context), macro, entry, args)

    @jinja2.pass_context
    def _cards(
        self, context: jinja2.runtime.Context, macro: str, items: list[Any], *args: object
    ) -> Markup:
        """`card` for each item (an entry, or a tuple of an entry and its own arguments), joined.

        One call for a whole list: overview pages list every entry, and a Jinja
        loop calling `card` per entry cost more than the memoized cards themselves.
        """
        placement = _placement(context)
        if items and isinstance(items[0], tuple):
            parts = [self._fragment(placement, macro, i[0], (*i[1:], *args)) for i in items]
        else:
            parts = [self._fragment(placement, macro, entry, args) for entry in items]
        return Markup("".join(parts))

    @jinja2.pass_context
    def _link(self, context: jinja2.runtime.Context, entry: Entry) -> Markup:
        """A link to `entry` named by its title (the `entry_link` macro), memoized."""
        return self._fragment(_placement(context), "entry_link", entry, ())

    @jinja2.pass_context
    def _chrome(self, context: jinja2.runtime.Context, macro: str) -> Markup:
        """A page-chrome macro (masthead, footer, ...), drawn once per folder depth."""
        return self._fragment(_placement(context), macro, None, ())

    def _fragment(
        self, placement: Placement, macro: str, entry: Entry | None, args: tuple[object, ...]
    ) -> Markup:
        key = entry.key if entry else ""
        memo = self.fragments.get(key)
        if memo is None:
            memo = self.fragments[key] = {}
        cached = memo.get((macro, placement, args))
        if cached is None:
            call = getattr(self._macros(placement), macro)
            cached = Markup(call(entry, *args) if entry else call(*args))
            memo[(macro, placement, args)] = cached
            self.drawn += 1
        return cached

    def _macros(self, placement: Placement) -> Any:
        """partials/macros.html as a module whose links are made for `placement`."""
        module = self.modules.get(placement)
        if module is None:
            depth, root = placement
            template = self.env.get_template("partials/macros.html")
            variables = {"page_file": "x/" * depth + "x", "absolute_root": root}
            module = self.modules[placement] = template.make_module(variables)
        return module

    @jinja2.pass_context
    def _block_markdown(self, context: jinja2.runtime.Context, text: str | None) -> Markup:
        source = self._resolve_mentions(str(context["page_file"]), text or "")
        return Markup(self.markdown.render(source))  # safe: raw HTML is off

    def _resolve_mentions(self, page_file: str, text: str) -> str:
        """Turn `[x](dossier:qerl)` into a relative link to that entry's page (checked by link)."""

        def link(match: re.Match[str]) -> str:
            entry = self.graph.get(match.group(1).replace("-", "_"), match.group(2))
            return f"]({relative(page_file, entry_url(entry))})"

        return MENTION.sub(link, text)


def _placement(context: jinja2.runtime.Context) -> Placement:
    """What a fragment's links depend on: the page's folder depth, and on the 404
    page (served at any depth) the absolute root its links start from."""
    return _placement_of(str(context["page_file"]), context.get("absolute_root"))


def _placement_of(page_file: str, absolute_root: object) -> Placement:
    return page_file.count("/"), absolute_root if isinstance(absolute_root, str) else None


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    """Compiled templates on disk, keyed by each template's source checksum.

    Compiling the templates takes ~0.1 s of every cold build; the cache lives in
    the user's cache folder (never the output), and a stale entry is never used.
    """
    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    # Compiled code also bakes in how filters are called (e.g. whether they take the
    # context), which lives in this file: a change here must not reuse old bytecode.
    code = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:12]
    folder = root / "lowprec-map" / f"jinja-{code}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None  # read-only home: compile every time
    return jinja2.FileSystemBytecodeCache(str(folder))


@jinja2.pass_context
def _url_filter(context: jinja2.runtime.Context, target: Entry | str) -> str:
    """Relative link from the page being rendered to an entry or a site URL."""
    url = entry_url(target) if isinstance(target, Entry) else target
    root = context.get("absolute_root")
    if root is not None and not url.startswith(("http://", "https://")):
        return f"{root}{url}"  # 404.html is served at any depth: relative links would break
    return relative(str(context["page_file"]), url)


def _human_date(value: datetime.date) -> str:
    return f"{value.day} {value.strftime('%b %Y')}"
