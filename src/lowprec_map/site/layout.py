"""The map view's layout, computed at build time so it is deterministic.

A layered layout: one column per entry type, entries ordered within a column
by the mean position of their neighbours in the columns already placed
(the barycentre heuristic), which keeps related entries near each other and
costs O(edges) per sweep instead of a force layout's O(n^2).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

from lowprec_map.content.entry import Entry
from lowprec_map.content.graph import MapGraph
from lowprec_map.registry import REGISTRY, type_name
from lowprec_map.site.urls import listing_url
from lowprec_map.site.views import entry_title, label_start

# Past this many nodes the SVG stops being readable (and the page heavy): claims,
# the largest class, are left to the ledger, then each column keeps its most
# connected entries; the map says what it left out and where to find it.
NODE_LIMIT = 600
COLUMN_GAP = 240
ROW_GAP = 34
LABEL_ROOM = 200  # right of the last column, for its labels
MARGIN = 50
SWEEPS = 4


@dataclass(frozen=True)
class PlacedNode:
    entry: Entry
    x: int
    y: int
    programs: str  # ids of the research programs it belongs to, for the map's filter


@dataclass(frozen=True)
class Omission:
    """An entry type the map trims: it shows `shown` of `total` (the listing has them all)."""

    entry_type: str
    shown: int
    total: int

    @property
    def listing(self) -> str:
        """Site URL of the page that lists every entry of the type."""
        return listing_url(self.entry_type)


@dataclass(frozen=True)
class MapLayout:
    nodes: list[PlacedNode]
    edges: list[tuple[PlacedNode, PlacedNode, str]]
    columns: list[tuple[int, str]]  # (x, entry type) of each column's heading
    width: int
    height: int
    omitted: list[Omission]  # entry types the map shows only some of, or none

    def node_cards(self) -> list[tuple[Entry, int, int, str]]:
        """(entry, x, y, its programs' ids joined by spaces) of each node, for the template."""
        return [(node.entry, node.x, node.y, node.programs) for node in self.nodes]

    def edges_svg(self) -> str:
        """All edges as SVG paths in one string (numbers and relation names only, no content).

        Built in Python because a map has thousands of edges and a Jinja loop over
        them dominated a rebuild.
        """
        parts = []
        for a, b, relation in self.edges:
            mid = (a.x + b.x) / 2
            parts.append(
                f'<path d="M {a.x} {a.y} C {mid} {a.y}, {mid} {b.y}, {b.x} {b.y}" '
                f'class="edge rel-{relation}" data-a="{a.entry.key}" data-b="{b.entry.key}"/>'
            )
        return "\n".join(parts)


def layout_map(graph: MapGraph) -> MapLayout:
    """Place the map's entries (all of them, up to NODE_LIMIT) and the edges between them."""
    chosen, omitted = _chosen_entries(graph)
    return _layout(graph, chosen, omitted)


# The overview's columns: what a reader can take in at first sight, the rest a focus away.
OVERVIEW_COLUMNS = ("program", "dossier", "tension", "failure_mode")
OVERVIEW_ROW_GAP = 44  # room for a whole name on three lines
OVERVIEW_LABEL_ROOM = 260  # the last column's names, wider than the full map's


def overview_layout(graph: MapGraph) -> MapLayout:
    """The map's first view: research programs, core works, tensions and failure modes."""
    chosen = {
        t: [e for e in graph.entries(t) if t != "dossier" or getattr(e.model, "core", False)]
        for t in OVERVIEW_COLUMNS
    }
    return _layout(graph, chosen, [], OVERVIEW_ROW_GAP, OVERVIEW_LABEL_ROOM)


def _layout(
    graph: MapGraph,
    chosen: dict[str, list[Entry]],
    omitted: list[Omission],
    row_gap: int = ROW_GAP,
    label_room: int = LABEL_ROOM,
) -> MapLayout:
    """`chosen`'s entries in columns, in barycentre order, and the edges between them."""
    types, every_edge = list(chosen), graph.edges()
    columns = _ordered_columns(every_edge, list(chosen.values()))
    placed: dict[str, PlacedNode] = {}
    for col, column in enumerate(columns):
        for row, entry in enumerate(column):
            x = MARGIN + col * COLUMN_GAP
            programs = " ".join(_programs_of(graph, entry))
            placed[entry.key] = PlacedNode(entry, x, MARGIN + row * row_gap, programs)
    edges = [
        (placed[source], placed[target], relation)
        for source, target, relation in every_edge
        if source in placed and target in placed and source != target
    ]
    tallest = max((len(c) for c in columns), default=1)
    width = 2 * MARGIN + (len(types) - 1) * COLUMN_GAP + label_room
    heads = [(MARGIN + col * COLUMN_GAP - 6, entry_type) for col, entry_type in enumerate(types)]
    height = 2 * MARGIN + tallest * row_gap
    return MapLayout(list(placed.values()), edges, heads, width, height, omitted)


def _chosen_entries(graph: MapGraph) -> tuple[dict[str, list[Entry]], list[Omission]]:
    """Each column's entries, trimmed to NODE_LIMIT in all, and what was left out.

    Claims go first (the ledger lists them all). If the rest still exceeds the
    limit, each column keeps its most connected entries, columns sharing the
    limit evenly and a short column's unused share going to the others.
    """
    order = REGISTRY.map_columns
    columns = {t: graph.entries(t) for t in order}
    omitted: list[Omission] = []
    if sum(len(c) for c in columns.values()) > NODE_LIMIT:
        omitted.append(Omission("claim", 0, len(columns.pop("claim"))))
    remaining = NODE_LIMIT
    by_size = sorted(columns, key=lambda t: len(columns[t]))
    for index, entry_type in enumerate(by_size):
        entries = columns[entry_type]
        share = remaining // (len(by_size) - index)
        if len(entries) > share:
            most_connected = sorted(entries, key=lambda e: (-len(graph.neighbours(e.key)), e.id))
            kept = {e.key for e in most_connected[:share]}
            columns[entry_type] = [e for e in entries if e.key in kept]
            omitted.append(Omission(entry_type, share, len(entries)))
        remaining -= len(columns[entry_type])
    omitted.sort(key=lambda o: order.index(o.entry_type))
    return {t: columns[t] for t in order if t in columns}, omitted


def _ordered_columns(
    edges: list[tuple[str, str, str]], columns: list[list[Entry]]
) -> list[list[Entry]]:
    """Each column's entries in barycentre order."""
    columns = list(columns)
    neighbours = _neighbours(edges, {e.key for column in columns for e in column})
    for _ in range(SWEEPS):
        for index in range(1, len(columns)):
            columns[index] = _order_by_barycentre(columns[index], columns, neighbours)
    return columns


def _programs_of(graph: MapGraph, entry: Entry) -> list[str]:
    """Ids of the research programs an entry belongs to (a program belongs to itself)."""
    if entry.type == "program":
        return [entry.id]
    return sorted(p.id for p in graph.targets(entry, "in-program"))


def _neighbours(edges: list[tuple[str, str, str]], keys: set[str]) -> dict[str, set[str]]:
    result: dict[str, set[str]] = {key: set() for key in keys}
    for source, target, _ in edges:
        if source in keys and target in keys:
            result[source].add(target)
            result[target].add(source)
    return result


def _order_by_barycentre(
    column: list[Entry], columns: list[list[Entry]], neighbours: dict[str, set[str]]
) -> list[Entry]:
    # Ranks are fractions of a column's height, so columns of different sizes compare.
    rank = {
        e.key: i / max(len(other) - 1, 1)
        for other in columns
        if other is not column
        for i, e in enumerate(other)
    }

    def barycentre(item: tuple[int, Entry]) -> tuple[float, str]:
        index, entry = item
        ranks = [rank[n] for n in neighbours[entry.key] if n in rank]
        fallback = index / max(len(column) - 1, 1)
        # fsum is exact, so the mean does not depend on the set's (hash-seeded) order;
        # a plain sum made the layout differ between processes by one ulp, and ties flip.
        return (math.fsum(ranks) / len(ranks) if ranks else fallback, entry.id)

    return [entry for _, entry in sorted(enumerate(column), key=barycentre)]


LOCAL_SIDE = 12  # neighbours drawn per side; the lists below the map hold them all
LOCAL_WIDTH, LOCAL_ROW = 720, 28


class LocalNode(NamedTuple):
    """A neighbour on a local map: the entry, where it sits, and the names it is shown by."""

    entry: Entry
    x: int
    y: int
    name: str  # its title and type, for its accessible name and tooltip
    label: str  # the start of its title that fits beside it


@dataclass(frozen=True)
class LocalMap:
    """An entry's neighbourhood: what refers to it on the left, what it refers to on the
    right, the entry in the middle; drawn at build time on its page, no script needed."""

    centre: tuple[int, int]
    incoming: list[LocalNode]
    outgoing: list[LocalNode]
    more: int  # neighbours not drawn
    width: int
    height: int
    edges: str  # every edge as SVG paths (numbers only, no content)


def _local_edges(
    centre: tuple[int, int], incoming: list[LocalNode], outgoing: list[LocalNode]
) -> str:
    """Every edge of a local map as an SVG path, incoming first (numbers only), built here
    like the map's edges: a template loop computing eight numbers per edge cost more."""
    cx, cy = centre
    paths = [
        f'<path class="edge" d="M {x} {y} C {(x + cx) / 2} {y}, {(x + cx) / 2} {cy}, {cx} {cy}"/>'
        for _, x, y, _, _ in incoming
    ]
    paths += [
        f'<path class="edge" d="M {cx} {cy} C {(x + cx) / 2} {cy}, {(x + cx) / 2} {y}, {x} {y}"/>'
        for _, x, y, _, _ in outgoing
    ]
    return "".join(paths)


def local_layout(incoming: list[Entry], outgoing: list[Entry]) -> LocalMap:
    """Place up to LOCAL_SIDE neighbours on each side of an entry."""
    drawn_in, drawn_out = incoming[:LOCAL_SIDE], outgoing[:LOCAL_SIDE]
    rows = max(len(drawn_in), len(drawn_out), 1)
    height = 2 * MARGIN + (rows - 1) * LOCAL_ROW

    def column(entries: list[Entry], x: int) -> list[LocalNode]:
        top = (height - (len(entries) - 1) * LOCAL_ROW) // 2
        return [
            LocalNode(
                e, x, top + i * LOCAL_ROW, f"{title} ({type_name(e.type)})", label_start(title, 30)
            )
            for i, e in enumerate(entries)
            for title in (entry_title(e),)
        ]

    more = len(incoming) - len(drawn_in) + len(outgoing) - len(drawn_out)
    centre, left, right = (
        (LOCAL_WIDTH // 2, height // 2),
        column(drawn_in, 230),
        column(drawn_out, LOCAL_WIDTH - 230),
    )
    return LocalMap(
        centre, left, right, more, LOCAL_WIDTH, height, _local_edges(centre, left, right)
    )
