"""Checks of a built site that hostile content must never break, one per output format.

Shared by the attack tests (one defect class each) and the property test that puts
generated hostile text into every field (test_attacks.py).
"""

from __future__ import annotations

import csv
import io
import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import bibtexparser
from bibtexparser.middlewares import SeparateCoAuthors

# What prose may add to a page: Markdown's elements and MathML's, with the attributes
# their renderers write. Anything else in a page must come from the templates.
MARKDOWN_TAGS = set(
    [
        "p",
        "em",
        "strong",
        "code",
        "pre",
        "a",
        "ul",
        "ol",
        "li",
        "blockquote",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "hr",
        "br",
        "table",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "s",
        "del",
        "div",
        "span",
    ]
)
MATH_TAGS = set(
    [
        "math",
        "mrow",
        "mi",
        "mn",
        "mo",
        "mtext",
        "mspace",
        "mfrac",
        "msqrt",
        "mroot",
        "msub",
        "msup",
        "msubsup",
        "munder",
        "mover",
        "munderover",
        "mtable",
        "mtr",
        "mtd",
        "mstyle",
        "menclose",
        "mpadded",
        "mphantom",
    ]
)
PROSE_ATTRIBUTES = {"href", "title", "start", "style", "class", "role", "aria-label", "tabindex"}
MATH_ATTRIBUTES = set(
    [
        "xmlns",
        "display",
        "mathvariant",
        "stretchy",
        "accent",
        "accentunder",
        "fence",
        "form",
        "largeop",
        "lspace",
        "rspace",
        "maxsize",
        "minsize",
        "movablelimits",
        "separator",
        "symmetric",
        "width",
        "height",
        "depth",
        "notation",
        "columnalign",
        "columnlines",
        "columnspacing",
        "rowspacing",
        "rowlines",
        "displaystyle",
        "scriptlevel",
        "linethickness",
    ]
)
NEVER = {"script", "iframe", "img", "object", "embed", "meta", "link", "base", "form", "style"}
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


class _Vocabulary(HTMLParser):
    """Every (element, attribute) pair of a page, and its script elements' attributes."""

    def __init__(self) -> None:
        super().__init__()
        self.pairs: set[tuple[str, str]] = set()
        self.scripts: list[dict[str, str | None]] = []
        self.script_text = ""
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.pairs.add((tag, ""))
        self.pairs.update((tag, name) for name, _ in attrs)
        if tag == "script":
            self.scripts.append(dict(attrs))
            self._in_script = True

    def handle_endtag(self, tag: str) -> None:
        self._in_script = self._in_script and tag != "script"

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.script_text += data


def vocabulary(site: Path) -> dict[str, _Vocabulary]:
    """Each HTML page of `site`, by its name, read for its elements and attributes."""
    pages = {}
    for page in sorted(site.rglob("*.html")):
        parser = _Vocabulary()
        parser.feed(page.read_text("utf-8"))
        pages[page.relative_to(site).as_posix()] = parser
    return pages


def template_pairs(site: Path) -> set[tuple[str, str]]:
    """The (element, attribute) pairs the templates write, read off a site of plain content."""
    return {pair for page in vocabulary(site).values() for pair in page.pairs}


def assert_pages_hold_only_what_templates_and_prose_write(
    site: Path, written: set[tuple[str, str]]
) -> None:
    """No element or attribute beyond the templates' and prose's; no script of content."""
    for name, page in vocabulary(site).items():
        for tag, attribute in page.pairs - written:
            assert tag not in NEVER, (name, tag)
            assert tag in MARKDOWN_TAGS | MATH_TAGS, (name, tag, attribute)
            if attribute:
                assert not attribute.startswith("on"), (name, tag, attribute)
                assert attribute in PROSE_ATTRIBUTES | MATH_ATTRIBUTES, (name, tag, attribute)
                if tag in MATH_TAGS:
                    assert attribute not in {"href", "style", "class"}, (name, tag, attribute)
        assert page.script_text.strip() == "", name  # scripts are files, never inline
        for script in page.scripts:
            assert str(script.get("src", "")).split("?")[0].endswith(".js"), (name, script)


def assert_xml_parses(site: Path) -> None:
    for name in ("feed.xml", "sitemap.xml", "data/graph.graphml"):
        ET.parse(site / name)


def assert_strict_json(site: Path) -> None:
    def refuse(constant: str) -> None:
        raise AssertionError(f"JSON holds {constant}")

    for path in site.rglob("*.json"):
        json.loads(path.read_text("utf-8"), parse_constant=refuse)


def assert_no_csv_formula(site: Path) -> None:
    """No cell starts a formula: text cells that would are neutralised, numbers stay numbers."""
    for path in site.rglob("*.csv"):
        for row in csv.reader(io.StringIO(path.read_text("utf-8"))):
            for cell in row:
                if cell.startswith(("+", "-")):
                    float(cell)  # a signed cell must be a number
                else:
                    assert not cell.startswith(FORMULA_START), (path.name, cell)


def untex(value: str) -> str:
    """A BibTeX field's text as a reader sees it: the map's escapes undone."""
    commands = {
        r"\textbackslash{}": "\\",
        r"\textasciitilde{}": "~",
        r"\textasciicircum{}": "^",
        r"$\lbrace$": "{",
        r"$\rbrace$": "}",
    }
    pattern = "|".join(re.escape(c) for c in commands) + r"|\\[&%$#_]"
    return re.sub(pattern, lambda m: commands.get(m[0], m[0][1:]), value)


def bibtex_works(site: Path) -> dict[str, tuple[str, list[str]]]:
    """references.bib and claims.bib read by bibtexparser: each entry's key, unbraced title
    and authors (without the white space around a name, which BibTeX ignores).

    Fails if any block does not parse.
    """
    text = (
        (site / "references.bib").read_text("utf-8")
        + "\n"
        + (site / "claims.bib").read_text("utf-8")
    )
    library = bibtexparser.parse_string(  # type: ignore[attr-defined]
        text, append_middleware=[SeparateCoAuthors()]
    )
    assert library.failed_blocks == []
    works = {}
    for entry in library.entries:
        title = untex(entry["title"].removeprefix("{").removesuffix("}"))
        authors = entry["author"] if isinstance(entry["author"], list) else [entry["author"]]
        unbraced = [a[1:-1] if a.startswith("{") and a.endswith("}") else a for a in authors]
        works[entry.key] = (title, [untex(a).strip(" \t\n\r") for a in unbraced])
    return works
