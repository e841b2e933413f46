"""The site's own pages and files, beside the entries' pages and listings: one table.

The masthead, the footer, the 404 page, the sitemap, the exports, /about/'s list of
data files and the ids a page may not take all read it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


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
             "One row per claim: statement, label and kind of support, sources with locators, "
             "stance and basis, conflicts, programs.",
             "data", footer=True, linked_from=("claims/",), export=True),
    SiteFile("data/sources.csv", "sources.csv",
             "One row per claim source: the claim, the work, the locator and its kind, the "
             "stance and the basis.", "data", footer=True, linked_from=("claims/",),
             export=True),
    SiteFile("data/measurements.csv", "measurements.csv",
             "One row per measurement: metric, value or range in the metric's unit (≈ when "
             "read off a plot; a speedup printed as a percentage converted, with the "
             "percentage as printed), baseline and its value, model, format, domain, "
             "setting, source, locator and how the number was read.", "data", footer=True,
             linked_from=("compare/",), export=True),
    SiteFile("data/graph.graphml", "graph.graphml",
             "The graph of entries and references, for network tools.", "data", footer=True,
             export=True),
    SiteFile("references.bib", "references.bib",
             "A BibTeX entry per work, of the type it is (article, inproceedings, misc).",
             "data", footer=True, export=True),
    SiteFile("claims.bib", "claims.bib",
             "A BibTeX entry per claim of the map, to cite the map's own statements.",
             "data", footer=True, linked_from=("claims/",), export=True),
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
