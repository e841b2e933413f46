"""Machine-readable outputs built from the graph: /data/map.json."""

from __future__ import annotations

import json
from typing import Any

from .graph import MapGraph
from .urls import entry_url

MAP_JSON_VERSION = 1


def map_json(graph: MapGraph) -> bytes:
    """Every entry (as its YAML fields plus id, type and URL) and every edge."""
    entries: list[dict[str, Any]] = []
    for node in sorted(graph.graph.nodes):
        entry = graph.graph.nodes[node]["entry"]
        if entry.type == "site":
            continue
        fields = entry.model.model_dump(mode="json")
        entries.append(
            {"id": entry.id, "type": entry.type, "url": entry_url(entry), "fields": fields}
        )
    edges = [{"source": s, "target": t, "relation": r} for s, t, r in graph.edges()]
    document = {"version": MAP_JSON_VERSION, "entries": entries, "edges": edges}
    return (json.dumps(document, sort_keys=True, ensure_ascii=False, indent=1) + "\n").encode()
