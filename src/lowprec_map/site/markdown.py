"""Prose: Markdown as the site renders it, with math and `[text](type:id)` mentions.

Content is data, never code: raw HTML is off, images are off (an image URL is a
request to another host), only http(s) or relative link targets pass, and math
becomes MathML at build time.
"""

from __future__ import annotations

import html
import re
from typing import Any

from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin

from lowprec_map.registry import REGISTRY
from lowprec_map.site.math import tex_to_mathml
from lowprec_map.site.urls import is_safe_link, naming_files, relative, url_of


def make_markdown() -> MarkdownIt:
    """CommonMark plus tables and $math$; raw HTML, images and unsafe links off."""
    md = MarkdownIt("commonmark", {"html": False, "typographer": True})
    md.enable(["table", "strikethrough", "replacements", "smartquotes"])
    md.disable("image")  # an image URL is a request to another host; content has none
    md.use(dollarmath_plugin, allow_digits=False, allow_space=False, renderer=_math)
    md.validateLink = is_safe_link  # type: ignore[method-assign]
    # A wide table scrolls inside its own box, which a keyboard can focus, so the page
    # itself never scrolls sideways on a narrow screen.
    md.add_render_rule("table_open", _table_open)
    md.add_render_rule("table_close", _table_close)
    return md


def _table_open(self: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
    # Named by its column headings, so that two tables on a page are two distinct regions.
    headings = []
    for token in tokens[idx + 1 :]:
        if token.type == "thead_close":
            break
        if token.type == "inline":
            headings.append(token.content)
    return _scroll_box_open("Table: " + ", ".join(headings)) + "\n<table>\n"


def _table_close(self: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
    return "</table>\n</div>\n"


def _math(tex: str, options: dict[str, Any]) -> str:
    display = "block" if options.get("display_mode") else "inline"
    rendered = tex_to_mathml(tex, display)
    if rendered is None:  # TeX latex2mathml cannot read: show the source instead
        return f'<code class="math-source">{html.escape(tex)}</code>'
    if display == "inline":
        return rendered
    # A long equation scrolls inside its own focusable box, as wide tables do.
    return f"{_scroll_box_open(f'Equation: {tex}')}{rendered}</div>"


def _scroll_box_open(name: str) -> str:
    """A box that scrolls sideways on its own and that a keyboard can focus and name."""
    label = html.escape(name, quote=True)
    return f'<div class="table-wrap" role="region" aria-label="{label}" tabindex="0">'


def resolve_mentions(page_file: str, text: str, offline: bool) -> str:
    """Turn `[x](dossier:qerl)` into a relative link to that entry's page (checked by link)."""

    def link(match: re.Match[str]) -> str:
        url = relative(page_file, url_of(match.group(1).replace("-", "_"), match.group(2)))
        return f"]({naming_files(url) if offline else url})"

    return REGISTRY.mention.sub(link, text)
