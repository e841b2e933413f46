"""Machine-readable exports built from the graph: JSON, CSV, GraphML, robots.txt (BibTeX
is `bibtex.py`).

Every export is deterministic (sorted, no timestamps beyond the content's own
dates) and is parsed back by the tests. The feed and sitemap are templates.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import networkx as nx
from pydantic import BaseModel, Field

from lowprec_map.content.entry import Entry
from lowprec_map.content.evidence import support_kind
from lowprec_map.content.graph import MapGraph
from lowprec_map.schema.claims import Claim, Measurement, Setting
from lowprec_map.schema.frame import Metric
from lowprec_map.schema.locators import locator_kind
from lowprec_map.site.urls import entry_url
from lowprec_map.site.views import entry_title, measurement_domain, measurement_rows

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
    support: str | None = Field(
        default=None,
        description="A claim's kind of support, beside its label: 'figure read', 'stated "
        "only', 'reported only', 'argued only' or 'no support'; absent for other entries.",
    )


class MapEdge(BaseModel):
    source: str = Field(description="Key of the referring entry.")
    target: str = Field(description="Key of the referenced entry.")
    relation: str = Field(description="The reference's relation.")


class MapSetting(BaseModel):
    task: str | None = Field(description="Task or benchmark.")
    length: str | None = Field(description="Prompt / response length.")
    batch: str | None = Field(description="Batch size or rollout group.")


class MapMeasurement(BaseModel):
    claim: str = Field(description="Key of the claim that carries it, 'claim:id'.")
    metric: str = Field(description="Metric id (see the 'metric' entries).")
    unit: str = Field(description="The metric's unit.")
    value: float | None = Field(
        description="The value in the metric's unit, when the source gives one number."
    )
    printed: str | None = Field(
        description="'percent-gain' when the source printed the speedup as 'N % faster'."
    )
    printed_value: float | None = Field(description="N, as printed, for a percent gain.")
    low: float = Field(description="The lowest value stated (the value, or a range's low).")
    high: float = Field(description="The highest value stated.")
    baseline: str = Field(description="What it is compared with.")
    model: str = Field(description="The model, as the source names it.")
    size_b: float | None = Field(description="Parameters in billions, when stated.")
    format: str = Field(description="Number format measured.")
    setting: MapSetting = Field(description="Task, length, batch, as stated.")
    baseline_value: float | None = Field(
        description="The baseline's own value in the metric's unit, when the source gives it."
    )
    baseline_low: float | None = Field(description="The baseline's lowest value, when given.")
    baseline_high: float | None = Field(description="The baseline's highest value, when given.")
    source: str = Field(description="Key of the dossier the number comes from.")
    locator: str = Field(description="Where the number stands in the source.")
    locator_kind: str = Field(description="What the locator points at: table, figure, ...")
    read_from: str = Field(description="How the number was read: text, table or plot.")
    approximate: bool = Field(description="True when read off a plot: the value is ≈.")
    domain: str = Field(description="Where it comes from: a 'domain' entry's id (LLM RL...).")


class MapData(BaseModel):
    """/data/map.json: every entry with resolved references, the graph's edges, and every
    measurement the claims carry."""

    version: str = Field(description="Schema version: major changes break readers.")
    site: str = Field(description="The map's title.")
    base_url: str = Field(description="Where the site is published.")
    entries: list[MapEntry] = Field(description="Every entry, sorted by key.")
    edges: list[MapEdge] = Field(description="Every reference once, sorted.")
    measurements: list[MapMeasurement] = Field(
        description="Every claim's measurements, by claim id and then in the claim's order."
    )


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
    drafts = {e.key for e in graph.all_entries() if e.draft}
    entries = [
        {
            "key": e.key,
            "type": e.type,
            "id": e.id,
            "title": entry_title(e),
            "url": entry_url(e),
            "references": [
                {"relation": r, "target": t} for _, t, r in graph.edges_from(e) if t not in drafts
            ],
            "referenced_by": [b.key for b in graph.backlinks(e) if not b.draft],
            "fields": e.model.model_dump(mode="json"),
            **({"support": support_kind(e.model)} if isinstance(e.model, Claim) else {}),
        }
        for e in graph.all_entries()
        if e.type != "site" and not e.draft
    ]
    document = {
        "$schema": "map.schema.json",
        "version": MAP_JSON_VERSION,
        "site": graph.site.title,
        "base_url": base_url,
        "entries": entries,
        "edges": [{"source": s, "target": t, "relation": r} for s, t, r in published_edges(graph)],
        "measurements": [
            _measurement_data(graph, row.claim, row.measurement)
            for row in measurement_rows(graph.entries("claim"))
        ],
    }
    # Compact: with `indent`, json falls back to its pure-Python encoder (10x slower).
    # allow_nan=False: the schema admits finite numbers only, and JSON has no NaN.
    text = json.dumps(
        document, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False
    )
    return (text + "\n").encode()


def _measurement_data(graph: MapGraph, claim: Entry, m: Measurement) -> dict[str, Any]:
    metric = graph.get("metric", m.metric).model
    assert isinstance(metric, Metric)
    setting = m.setting or Setting()
    return {
        "claim": claim.key,
        "metric": m.metric,
        "unit": metric.unit,
        "value": m.values[0] if len(m.values) == 1 else None,
        "printed": m.printed,
        "printed_value": m.value if m.printed else None,
        "low": m.low,
        "high": m.high,
        "baseline": m.baseline,
        "model": m.model,
        "size_b": m.size_b,
        "format": m.format,
        "setting": setting.model_dump(mode="json"),
        "baseline_value": m.baseline_value,
        "baseline_low": _baseline_ends(m)[0],
        "baseline_high": _baseline_ends(m)[1],
        "source": f"dossier:{m.source}",
        "locator": m.locator,
        "locator_kind": locator_kind(m.locator),
        "read_from": m.read_from,
        "approximate": m.read_from == "plot",
        "domain": measurement_domain(m, graph.get("dossier", m.source)),
    }


def _baseline_ends(m: Measurement) -> tuple[float | None, float | None]:
    """The baseline's lowest and highest value, when the source gives one or a range."""
    if m.baseline_value is not None:
        return m.baseline_value, m.baseline_value
    if m.baseline_range is not None:
        return m.baseline_range[0], m.baseline_range[1]
    return None, None


MEASUREMENT_COLUMNS = ("claim", "metric", "unit", "value", "low", "high", "printed",
                       "printed_value", "approximate",
                       "baseline", "baseline_value", "baseline_low", "baseline_high", "model",
                       "size_b", "format", "domain", "task", "length", "batch", "source",
                       "locator", "locator_kind", "read_from", "claim_url")  # fmt: skip


def measurements_csv(graph: MapGraph, base_url: str) -> bytes:
    """One row per measurement, with its claim id, source and locator (empty: not stated)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(MEASUREMENT_COLUMNS)
    for row in measurement_rows(graph.entries("claim")):
        entry, m = row.claim, row.measurement
        data = _measurement_data(graph, entry, m)
        data.update(data.pop("setting"), claim=entry.id, source=m.source)
        data["claim_url"] = base_url + entry_url(entry)
        writer.writerow(["" if data[c] is None else _cell(data[c]) for c in MEASUREMENT_COLUMNS])
    return out.getvalue().encode()


# A text cell starting with one of these is run as a formula by spreadsheets.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: object) -> object:
    """A CSV cell. Numbers as people write them (2, not 2.0) and to every digit the source
    gave (`:g` would keep six); text that a spreadsheet would run as a formula gets a
    leading apostrophe, as OWASP's CSV-injection advice has it. Numbers stay numbers."""
    if isinstance(value, str):
        return "'" + value if value.startswith(FORMULA_START) else value
    if not isinstance(value, float):
        return value
    return str(int(value)) if value.is_integer() and abs(value) < 1e15 else repr(value)


def claims_csv(graph: MapGraph, base_url: str) -> bytes:
    """One row per claim: statement, label, sources with locators, conflicts, programs."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        [
            "id",
            "statement",
            "label",
            "support",
            "sources",
            "conflicts_with",
            "programs",
            "scope",
            "updated",
            "url",
        ]
    )
    for entry in published(graph, "claim"):
        claim = entry.model
        assert isinstance(claim, Claim)
        sources = "; ".join(
            f"{s.dossier} ({s.locator}; {s.stance}, {s.basis})" for s in claim.sources
        )
        row = [
            entry.id,
            claim.statement,
            claim.label,
            support_kind(claim),
            sources,
            "; ".join(claim.conflicts_with),
            "; ".join(claim.programs),
            claim.scope or "",
            claim.updated.isoformat(),
            base_url + entry_url(entry),
        ]
        writer.writerow([_cell(value) for value in row])
    return out.getvalue().encode()


SOURCE_COLUMNS = ("claim", "label", "support", "dossier", "locator", "locator_kind", "version",
                  "stance", "basis", "origin", "note", "claim_url")  # fmt: skip


def sources_csv(graph: MapGraph, base_url: str) -> bytes:
    """One row per claim source: the claim and its label, the work, where in it, and what
    the source does for the claim (stance) on what basis."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(SOURCE_COLUMNS)
    for entry in published(graph, "claim"):
        claim = entry.model
        assert isinstance(claim, Claim)
        for s in claim.sources:
            row = [entry.id, claim.label, support_kind(claim), s.dossier, s.locator,
                   locator_kind(s.locator), s.version, s.stance, s.basis, s.origin, s.note,
                   base_url + entry_url(entry)]  # fmt: skip
            writer.writerow(["" if v is None else _cell(v) for v in row])
    return out.getvalue().encode()


def published(graph: MapGraph, entry_type: str) -> list[Entry]:
    """The entries of `entry_type` that are not drafts (serve's graph holds drafts)."""
    return [e for e in graph.entries(entry_type) if not e.draft]


def published_edges(graph: MapGraph) -> list[tuple[str, str, str]]:
    """Every edge between entries that are not drafts."""
    drafts = {e.key for e in graph.all_entries() if e.draft}
    return [edge for edge in graph.edges() if not drafts & {edge[0], edge[1]}]


def graphml(graph: MapGraph) -> bytes:
    """The graph for analysis tools, by networkx's GraphML writer: nodes with type, id,
    title and url; one edge per (source, target, relation) with its relation."""
    export = nx.MultiDiGraph()
    for e in graph.all_entries():
        if not e.draft:
            export.add_node(e.key, type=e.type, id=e.id, title=entry_title(e), url=entry_url(e))
    for source, target, relation in published_edges(graph):
        export.add_edge(source, target, key=relation, relation=relation)
    return ("\n".join(nx.generate_graphml(export)) + "\n").encode()


def robots_txt(base_url: str) -> bytes:
    """Allow everything; point crawlers at the sitemap."""
    return f"User-agent: *\nAllow: /\nSitemap: {base_url}sitemap.xml\n".encode()
