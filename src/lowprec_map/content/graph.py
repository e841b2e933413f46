"""Link: typed entries -> one graph of entries and their typed references.

The graph is the single source of cross-references: page contexts ask it for
backlinks, related entries, counts and reading-path order (through the
reader of `site/reads.py`); nothing else re-derives them.
"""

from __future__ import annotations

from collections import Counter

import networkx as nx

from lowprec_map.content.entry import Entry
from lowprec_map.content.load import Loc
from lowprec_map.content.refs import Reference, refs_of
from lowprec_map.errors import Problem, SourcePos, suggest
from lowprec_map.registry import type_name
from lowprec_map.schema.frame import Site

EdgeKey = tuple[str, Loc, int | None]  # (relation, where in the source, offset in prose)


def _ref_pos(entry: Entry, ref: Reference) -> SourcePos:
    """Where a reference stands; a link in a page body is placed on its own line."""
    if ref.offset is not None and ref.loc == ("body",):
        line = entry.body_line + entry.body.count("\n", 0, ref.offset)
        col = ref.offset - entry.body.rfind("\n", 0, ref.offset)
        return SourcePos(entry.path, line, col)
    return entry.pos(ref.loc)


class MapGraph:
    """All entries as nodes ('type:id'), references as edges keyed by relation.

    networkx holds the links and answers every question about them; this class
    adds the entries themselves (by key and by type) and the problems found while
    linking. It never changes after linking.
    """

    def __init__(
        self,
        entries: list[Entry],
        invalid: set[str] | None = None,
        links: nx.MultiDiGraph | None = None,
        left_out: set[str] | None = None,
    ) -> None:
        """Link `entries`; or, given the `links` of a graph whose entries refer to exactly
        what these do and that had no problems (serve, after a text edit), share them: the
        networkx graph is never changed after linking. `left_out`: drafts a build leaves
        out, which published entries must not refer to."""
        # Entries that exist but failed validation: already reported, not "unknown".
        self.invalid = invalid or set()
        self.left_out = left_out or set()
        self.problems: list[Problem] = []
        self._index(entries)
        if links is not None:
            self.graph = links
            return
        self.graph = nx.MultiDiGraph()
        self.graph.add_nodes_from(self._entries)
        for entry in entries:
            self._link(entry)

    def _index(self, entries: list[Entry]) -> None:
        """The entries by key and by type, each ordered by type and id."""
        self._entries: dict[str, Entry] = {}
        self._by_type: dict[str, list[Entry]] = {}
        for entry in sorted(entries, key=lambda e: (e.type, e.id)):
            self._entries[entry.key] = entry
            self._by_type.setdefault(entry.type, []).append(entry)

    def _link(self, entry: Entry) -> None:
        for ref in refs_of(entry):
            target = f"{ref.target_type}:{ref.target_id}"
            if target in self._entries:
                key = (ref.relation, ref.loc, ref.offset)
                self.graph.add_edge(entry.key, target, key=key, relation=ref.relation)
                continue
            if target in self.invalid:
                continue
            if target in self.left_out:
                kind = type_name(ref.target_type)
                message = (
                    f"{kind} '{ref.target_id}' is a draft, which a build leaves out: publish it "
                    "(delete its `draft: true`) or refer to it later"
                )
                self.problems.append(Problem(_ref_pos(entry, ref), message))
                continue
            known = [e.id for e in self._by_type.get(ref.target_type, [])]
            kind = type_name(ref.target_type)
            message = f"unknown {kind} '{ref.target_id}'{suggest(ref.target_id, known)}"
            self.problems.append(Problem(_ref_pos(entry, ref), message))

    # ------------------------------------------------------------ entries

    @property
    def site(self) -> Site:
        """The site entry's model."""
        model = self._by_type["site"][0].model
        assert isinstance(model, Site)
        return model

    def get(self, entry_type: str, entry_id: str) -> Entry:
        """The entry of that type and id (KeyError when absent)."""
        return self._entries[f"{entry_type}:{entry_id}"]

    def entry(self, key: str) -> Entry | None:
        """The entry with key 'type:id', if any."""
        return self._entries.get(key)

    def keys(self) -> set[str]:
        """Every entry's key."""
        return set(self._entries)

    def __contains__(self, key: str) -> bool:
        return key in self._entries

    def has(self, entry_type: str, entry_id: str) -> bool:
        """True when an entry of that type and id exists."""
        return f"{entry_type}:{entry_id}" in self._entries

    def all_entries(self) -> list[Entry]:
        """Every entry, ordered by key."""
        return [self._entries[key] for key in sorted(self._entries)]

    def entries(self, entry_type: str) -> list[Entry]:
        """All entries of a type, ordered by id."""
        return list(self._by_type.get(entry_type, []))

    def counts(self) -> Counter[str]:
        """Number of entries per type, plus 'core' for core dossiers."""
        counts = Counter({t: len(es) for t, es in self._by_type.items()})
        counts["core"] = sum(1 for e in self.entries("dossier") if getattr(e.model, "core", False))
        return counts

    # ------------------------------------------------------------ links

    def targets(self, entry: Entry, relation: str | None = None) -> list[Entry]:
        """Entries `entry` refers to (optionally by one relation), each once, in reference order."""
        successors = self.graph.succ[entry.key]  # target -> {edge key: data}, in reference order
        return [
            self._entries[target]
            for target, keys in successors.items()
            if relation is None or any(key[0] == relation for key in keys)
        ]

    def backlinks(
        self, entry: Entry, source_type: str | None = None, relation: str | None = None
    ) -> list[Entry]:
        """Entries that refer to `entry` (of one type, by one relation, if given), ordered
        by type and id, each once."""
        sources = sorted(self.graph.predecessors(entry.key))
        if source_type is not None:
            prefix = f"{source_type}:"
            sources = [s for s in sources if s.startswith(prefix)]
        if relation is not None:
            incoming = self.graph.pred[entry.key]
            sources = [s for s in sources if any(k[0] == relation for k in incoming[s])]
        return [self._entries[s] for s in sources]

    def neighbours(self, key: str) -> set[str]:
        """Keys of the entries that `key` refers to or that refer to it."""
        return {*self.graph.successors(key), *self.graph.predecessors(key)}

    def relations(self, source: Entry, target: Entry) -> list[str]:
        """The relations by which `source` refers to `target`."""
        edges = self.graph.get_edge_data(source.key, target.key) or {}
        return sorted({key[0] for key in edges})

    def edges(self) -> list[tuple[str, str, str]]:
        """Every (source, target, relation) edge once, sorted: for exports and the map."""
        return sorted({(s, t, k[0]) for s, t, k in self.graph.edges(keys=True)})

    def edges_from(self, entry: Entry) -> list[tuple[str, str, str]]:
        """Every (source, target, relation) edge leaving `entry` once, sorted."""
        return sorted({(s, t, k[0]) for s, t, k in self.graph.out_edges(entry.key, keys=True)})

    def in_degree(self, entry: Entry) -> int:
        """Number of references that reach `entry`."""
        return int(self.graph.in_degree(entry.key))

    def program_members(self, program: Entry, entry_type: str) -> list[Entry]:
        """Dossiers, claims or tensions that declare membership in `program`."""
        return [
            e
            for e in self.backlinks(program, entry_type)
            if "in-program" in self.relations(e, program)
        ]
