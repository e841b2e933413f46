"""What the whole-site checks read of every page, from one tree-free parse per page.

BeautifulSoup builds a tree the checks that walk every page never need (it took
three times as long); tests that look into one page still parse it with
BeautifulSoup (`conftest.real_pages`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

# Elements that make the browser fetch what their src names, and link relations that do.
LOADING_TAGS = {"script", "img", "iframe", "source", "video", "audio"}
LOADING_RELS = {"stylesheet", "icon", "preload", "modulepreload"}
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}


@dataclass
class PageFacts:
    """One page: where it links (a, link and form targets), its ids, what it loads, its
    Content-Security-Policy, how many scripts carry inline code, and its headings."""

    hrefs: list[str] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)
    loads: list[str] = field(default_factory=list)
    csp: str | None = None
    inline_scripts: int = 0
    headings: list[tuple[int, str]] = field(default_factory=list)


class _FactParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.facts = PageFacts()
        self._open: str | None = None  # the heading or script whose text is being read
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = {name: value or "" for name, value in attrs}
        if named.get("id"):
            self.facts.ids.add(named["id"])
        target = named.get("action" if tag == "form" else "href")
        if tag in ("a", "link", "form") and target:
            self.facts.hrefs.append(target)
        if tag in LOADING_TAGS:
            self.facts.loads.append(named.get("src", ""))
        if tag == "link" and LOADING_RELS & set(named.get("rel", "").split()):
            self.facts.loads.append(named.get("href", ""))
        if tag == "meta" and named.get("http-equiv") == "Content-Security-Policy":
            self.facts.csp = named.get("content", "")
        if tag in HEADINGS or tag == "script":
            self._open, self._text = tag, []

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag != self._open:
            return
        text = "".join(self._text).strip()
        if tag == "script":
            self.facts.inline_scripts += bool(text)
        else:
            self.facts.headings.append((int(tag[1]), " ".join(text.split())))
        self._open = None


def facts_of(site: Path) -> dict[str, PageFacts]:
    """Every HTML page of `site`, by its path in the site."""
    found = {}
    for path in sorted(site.rglob("*.html")):
        parser = _FactParser()
        parser.feed(path.read_text(encoding="utf-8"))
        parser.close()
        found[path.relative_to(site).as_posix()] = parser.facts
    return found
