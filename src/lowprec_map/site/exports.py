"""Machine-readable exports built from the graph: JSON, CSV, GraphML, BibTeX, robots.txt.

Every export is deterministic (sorted, no timestamps beyond the content's own
dates) and is parsed back by the tests. The feed and sitemap are templates.
"""

from __future__ import annotations

import csv
import io
import json
import re
from typing import Any

import networkx as nx
from pydantic import BaseModel, Field

from lowprec_map.content.entry import Entry
from lowprec_map.content.graph import MapGraph
from lowprec_map.schema.entries import Claim, Dossier
from lowprec_map.schema.frame import Site
from lowprec_map.site.urls import entry_url
from lowprec_map.site.views import entry_title

MAP_JSON_VERSION = "1.0"


class MapReference(BaseModel):
    relation: str = Field(description="How the entry refers to the target, e.g. 'cites'.")
    target: str = Field(description="The target's key, 'type:id'.")


class MapEntry(BaseModel):
    key: str = Field(description="'type:id', unique across the map.")
    type: str = Field(description="Entry type: dossier, claim, tension, failure_mode, ...")
    id: str = Field(description="The entry's id (its file name).")
    title: str = Field(description="The name the site shows it by.")
    url: str = Field(description="Site-relative URL of its page or anchor.")
    references: list[MapReference] = Field(description="Resolved outgoing references.")
    referenced_by: list[str] = Field(description="Keys of entries that refer to it.")
    fields: dict[str, Any] = Field(description="The entry's fields as in its YAML file.")


class MapEdge(BaseModel):
    source: str = Field(description="Key of the referring entry.")
    target: str = Field(description="Key of the referenced entry.")
    relation: str = Field(description="The reference's relation.")


class MapData(BaseModel):
    """/data/map.json: every entry with resolved references, and the graph's edges."""

    version: str = Field(description="Schema version: major changes break readers.")
    site: str = Field(description="The map's title.")
    base_url: str = Field(description="Where the site is published.")
    entries: list[MapEntry] = Field(description="Every entry, sorted by key.")
    edges: list[MapEdge] = Field(description="Every reference once, sorted.")


def map_schema() -> str:
    """The JSON Schema of map.json (published beside it and kept in schemas/)."""
    schema = MapData.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = f"https://lowprec-map.github.io/schemas/map-data/{MAP_JSON_VERSION}.json"
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def map_json(graph: MapGraph, base_url: str) -> bytes:
    """Every entry (its YAML fields, resolved references, backlinks) and every edge.

    Built as plain data in the shape of `MapData` (validating thousands of nested
    models only to dump them again took most of this export's time); the tests
    check the output against the published schema.
    """
    entries = [
        {
            "key": e.key,
            "type": e.type,
            "id": e.id,
            "title": entry_title(e),
            "url": entry_url(e),
            "references": [{"relation": r, "target": t} for _, t, r in graph.edges_from(e)],
            "referenced_by": [b.key for b in graph.backlinks(e)],
            "fields": e.model.model_dump(mode="json"),
        }
        for e in graph.all_entries()
        if e.type != "site"
    ]
    document = {
        "$schema": "map.schema.json",
        "version": MAP_JSON_VERSION,
        "site": graph.site.title,
        "base_url": base_url,
        "entries": entries,
        "edges": [{"source": s, "target": t, "relation": r} for s, t, r in graph.edges()],
    }
    # Compact: with `indent`, json falls back to its pure-Python encoder (10x slower).
    text = json.dumps(document, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return (text + "\n").encode()


def claims_csv(graph: MapGraph, base_url: str) -> bytes:
    """One row per claim: statement, label, sources with locators, conflicts, programs."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        [
            "id",
            "statement",
            "label",
            "sources",
            "conflicts_with",
            "programs",
            "scope",
            "updated",
            "url",
        ]
    )
    for entry in graph.entries("claim"):
        claim = entry.model
        assert isinstance(claim, Claim)
        sources = "; ".join(f"{s.dossier} ({s.locator})" for s in claim.sources)
        writer.writerow(
            [
                entry.id,
                claim.statement,
                claim.label,
                sources,
                "; ".join(claim.conflicts_with),
                "; ".join(claim.programs),
                claim.scope or "",
                claim.updated.isoformat(),
                base_url + entry_url(entry),
            ]
        )
    return out.getvalue().encode()


def graphml(graph: MapGraph) -> bytes:
    """The graph for analysis tools, by networkx's GraphML writer: nodes with type, id,
    title and url; one edge per (source, target, relation) with its relation."""
    export = nx.MultiDiGraph()
    for e in graph.all_entries():
        export.add_node(e.key, type=e.type, id=e.id, title=entry_title(e), url=entry_url(e))
    for source, target, relation in graph.edges():
        export.add_edge(source, target, key=relation, relation=relation)
    return ("\n".join(nx.generate_graphml(export)) + "\n").encode()


def bibtex(graph: MapGraph, base_url: str) -> bytes:
    """references.bib: one @misc per dossier (arXiv eprint where there is one) and per claim."""
    chunks = [dossier_bibtex(e) for e in graph.entries("dossier")]
    chunks += [claim_bibtex(e, graph.site, base_url) for e in graph.entries("claim")]
    return "\n".join(chunks).encode()


def dossier_bibtex(entry: Entry) -> str:
    """A dossier's BibTeX entry; the key is its id."""
    d = entry.model
    assert isinstance(d, Dossier)
    fields = [
        ("title", "{" + _tex(d.title) + "}"),
        ("author", " and ".join(_tex(a) for a in d.authors)),
        ("year", str(d.date.year)),
        ("month", d.date.strftime("%b").lower()),
        ("url", d.url),
    ]
    if d.arxiv:
        fields += [("eprint", d.arxiv), ("archivePrefix", "arXiv")]
    if d.venue:
        fields.append(("note", _tex(d.venue)))
    return _entry(entry.id, fields)


def claim_bibtex(entry: Entry, site: Site, base_url: str) -> str:
    """A claim's own citation: @misc with a stable URL under `base_url`."""
    c = entry.model
    assert isinstance(c, Claim)
    fields = [
        ("title", "{" + _tex(c.statement) + "}"),
        ("author", "{" + _tex(site.title) + " contributors}"),
        ("year", str(c.updated.year)),
        ("url", base_url + entry_url(entry)),
        (
            "note",
            f"Claim in {_tex(site.title)}, a living research map; "
            f"evidence label: {c.label}; updated {c.updated.isoformat()}",
        ),
    ]
    return _entry(f"claim-{entry.id}", fields)


def _entry(key: str, fields: list[tuple[str, str]]) -> str:
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
    return f"@misc{{{key},\n{body}\n}}\n"


_TEX_SPECIALS = re.compile(r"([&%$#_{}])")


def _tex(text: str) -> str:
    """Escape BibTeX/LaTeX specials; keep Unicode (biber and modern BibTeX read UTF-8)."""
    return _TEX_SPECIALS.sub(r"\\\1", text).replace("~", r"\~{}").replace("^", r"\^{}")


def robots_txt(base_url: str) -> bytes:
    """Allow everything; point crawlers at the sitemap."""
    return f"User-agent: *\nAllow: /\nSitemap: {base_url}sitemap.xml\n".encode()
