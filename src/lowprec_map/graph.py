"""Link: typed entries -> one graph of entries and their typed references.

The graph is the single source of cross-references. Templates ask it for
backlinks, related entries, counts and reading-path order; nothing else
re-derives them.
"""

from __future__ import annotations

import functools
from collections import Counter

import networkx as nx

from .errors import Problem, SourcePos, suggest
from .load import Loc
from .models import PathStep, ReadingPath, Site
from .project import TYPE_NAMES
from .refs import Reference, refs_of
from .validate import Entry

EdgeKey = tuple[str, Loc, int | None]  # (relation, where in the source, offset in prose)
HUB_TYPES = ("evidence:", "perturbation:", "group:", "program:", "site:")


def _ref_pos(entry: Entry, ref: Reference) -> SourcePos:
    """Where a reference stands; a link in a page body is placed on its own line."""
    if ref.offset is not None and ref.loc == ("body",):
        line = entry.body_line + entry.body.count("\n", 0, ref.offset)
        col = ref.offset - entry.body.rfind("\n", 0, ref.offset)
        return SourcePos(entry.path, line, col)
    return entry.pos(ref.loc)


class MapGraph:
    """All entries as nodes ('type:id'), references as edges keyed by relation.

    The networkx graph is the store; the lookups templates make thousands of
    times per build (backlinks, neighbours, outgoing references) read plain
    indexes derived from it once, as the graph never changes after linking.
    """

    def __init__(self, entries: list[Entry], invalid: set[str] | None = None) -> None:
        self.graph = nx.MultiDiGraph()
        # Entries that exist but failed validation: already reported, not "unknown".
        self.invalid = invalid or set()
        self.problems: list[Problem] = []
        self._by_type: dict[str, list[Entry]] = {}
        self._entries: dict[str, Entry] = {}
        for entry in sorted(entries, key=lambda e: (e.type, e.id)):
            self.graph.add_node(entry.key)
            self._entries[entry.key] = entry
            self._by_type.setdefault(entry.type, []).append(entry)
        for entry in entries:
            self._link(entry)

    @classmethod
    def relinked(
        cls, previous: MapGraph | None, entries: list[Entry], invalid: set[str]
    ) -> MapGraph | None:
        """A graph of `entries` that reuses `previous`'s links, or None if they differ.

        Valid when the same entries exist and every entry that changed refers to
        exactly what it referred to before (same targets, relations and places);
        then only the entries are swapped in. The networkx graph and the indexes
        hold keys only and are never changed after linking, so both graphs share them.
        """
        if previous is None or previous.problems or invalid != previous.invalid:
            return None
        if len(entries) != len(previous._entries):
            return None
        for entry in entries:
            before = previous._entries.get(entry.key)
            if before is None:
                return None
            if before is not entry and refs_of(before) != refs_of(entry):
                return None
        graph = cls.__new__(cls)
        graph.graph, graph.invalid, graph.problems = previous.graph, invalid, []
        graph._entries = {e.key: e for e in sorted(entries, key=lambda e: (e.type, e.id))}
        graph._by_type = {}
        for entry in graph._entries.values():
            graph._by_type.setdefault(entry.type, []).append(entry)
        # Every cached property of the graph is an index of its links.
        for name, attribute in vars(cls).items():
            if isinstance(attribute, functools.cached_property) and name in previous.__dict__:
                graph.__dict__[name] = previous.__dict__[name]
        return graph

    def _link(self, entry: Entry) -> None:
        for ref in refs_of(entry):
            target = f"{ref.target_type}:{ref.target_id}"
            if target in self._entries:
                key = (ref.relation, ref.loc, ref.offset)
                self.graph.add_edge(entry.key, target, key=key, loc=ref.loc)
                continue
            if target in self.invalid:
                continue
            known = [e.id for e in self._by_type.get(ref.target_type, [])]
            kind = TYPE_NAMES[ref.target_type]
            message = f"unknown {kind} '{ref.target_id}'{suggest(ref.target_id, known)}"
            self.problems.append(Problem(_ref_pos(entry, ref), message))

    # ------------------------------------------------------------ indexes

    @functools.cached_property
    def _outgoing(self) -> dict[str, list[tuple[str, EdgeKey]]]:
        """Key -> (target, edge key) of each reference it makes, in reference order."""
        found: dict[str, list[tuple[str, EdgeKey]]] = {}
        for source, target, key in self.graph.edges(keys=True):
            found.setdefault(source, []).append((target, key))
        return found

    @functools.cached_property
    def _sources(self) -> dict[str, list[str]]:
        """Key -> keys of the entries that refer to it, sorted, each once."""
        found: dict[str, set[str]] = {}
        for source, refs in self._outgoing.items():
            for target, _ in refs:
                found.setdefault(target, set()).add(source)
        return {key: sorted(sources) for key, sources in found.items()}

    @functools.cached_property
    def _adjacent(self) -> dict[str, frozenset[str]]:
        """Key -> keys it refers to or is referred to by."""
        found: dict[str, set[str]] = {key: set() for key in self._entries}
        for source, refs in self._outgoing.items():
            for target, _ in refs:
                found[source].add(target)
                found[target].add(source)
        return {key: frozenset(keys) for key, keys in found.items()}

    @functools.cached_property
    def _edges(self) -> list[tuple[str, str, str]]:
        unique = {(s, t, k[0]) for s, refs in self._outgoing.items() for t, k in refs}
        return sorted(unique)

    # ------------------------------------------------------------ lookups

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

    def __contains__(self, key: str) -> bool:
        return key in self._entries

    def override_base_url(self, base_url: str) -> None:
        """Publish under another root URL than site.yaml's (e.g. a project sub-path)."""
        site = self._by_type["site"][0]
        url = base_url if base_url.endswith("/") else base_url + "/"
        model = site.model.model_copy(update={"base_url": url})
        entry = Entry(site.type, site.id, model, site.positions)
        self._by_type["site"] = [entry]
        self._entries[entry.key] = entry

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

    # ------------------------------------------------------------ edges

    def targets(self, entry: Entry, relation: str | None = None) -> list[Entry]:
        """Entries `entry` refers to (optionally by one relation), in reference order."""
        if relation is not None:
            return [self._entries[t] for t in self._by_relation(relation).get(entry.key, ())]
        found = dict.fromkeys(target for target, _ in self._outgoing.get(entry.key, ()))
        return [self._entries[t] for t in found]

    def _by_relation(self, relation: str) -> dict[str, list[str]]:
        """Source key -> its targets by `relation`, each once, in reference order (cached)."""
        index = self._relation_index.get(relation)
        if index is None:
            found: dict[str, dict[str, None]] = {}
            for source, refs in self._outgoing.items():
                for target, key in refs:
                    if key[0] == relation:
                        found.setdefault(source, {})[target] = None
            index = self._relation_index[relation] = {s: list(t) for s, t in found.items()}
        return index

    @functools.cached_property
    def _relation_index(self) -> dict[str, dict[str, list[str]]]:
        return {}

    def backlinks(self, entry: Entry, source_type: str | None = None) -> list[Entry]:
        """Entries that refer to `entry`, ordered by type and id, each once."""
        sources = self._sources.get(entry.key, ())
        if source_type is not None:
            prefix = f"{source_type}:"
            sources = [s for s in sources if s.startswith(prefix)]
        return [self._entries[s] for s in sources]

    def neighbours(self, key: str) -> frozenset[str]:
        """Keys of the entries that `key` refers to or that refer to it."""
        return self._adjacent.get(key, frozenset())

    def target_keys(self, key: str) -> set[str]:
        """Keys of the entries `key` refers to."""
        return {target for target, _ in self._outgoing.get(key, ())}

    def page_reach(self, entry: Entry) -> set[str]:
        """Keys of the entries whose change can alter `entry`'s own page.

        A page shows its entry, names its neighbours (links, "Referenced by")
        and may draw a neighbour's card, which names what that neighbour refers
        to. Vocabulary entries (HUB_TYPES) are named on pages, never drawn as
        cards there, so what they refer to is not reached through them.
        """
        reach = {entry.key}
        for key in self._adjacent.get(entry.key, ()):
            reach.add(key)
            if not key.startswith(HUB_TYPES):
                reach |= self.target_keys(key)
        return reach

    def pages_reaching(self, key: str) -> set[str]:
        """Keys of the entries whose page can show something of `key`: the inverse
        of `page_reach` (`key` itself, its neighbours, and the neighbours of every
        non-vocabulary entry that refers to it)."""
        found = {key, *self._adjacent.get(key, ())}
        for source in self._sources.get(key, ()):
            if not source.startswith(HUB_TYPES):
                found |= self._adjacent.get(source, frozenset())
        return found

    def neighbourhood(self, entry: Entry, hops: int = 1) -> set[str]:
        """Keys of entries within `hops` references of `entry` (either direction), and its own.

        Vocabulary entries (labels, perturbations, groups, programs, the site)
        are reached but not walked through: every claim links to its label, so
        walking through a label would make each claim a neighbour of all others.
        """
        found, frontier = {entry.key}, {entry.key}
        for _ in range(hops):
            nxt: set[str] = set()
            for key in frontier:
                if key != entry.key and key.startswith(HUB_TYPES):
                    continue
                nxt.update(self._adjacent.get(key, ()))
            frontier = nxt - found
            found |= nxt
        return found

    def relations(self, source: Entry, target: Entry) -> list[str]:
        """The relations by which `source` refers to `target`."""
        refs = self._outgoing.get(source.key, ())
        return sorted({key[0] for t, key in refs if t == target.key})

    def edges(self) -> list[tuple[str, str, str]]:
        """Every (source, target, relation) edge once, sorted: for exports."""
        return list(self._edges)

    def edges_from(self, entry: Entry) -> list[tuple[str, str, str]]:
        """Every (source, target, relation) edge leaving `entry` once, sorted."""
        refs = self._outgoing.get(entry.key, ())
        return sorted({(entry.key, t, k[0]) for t, k in refs})

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

    def with_label(self, label: Entry) -> list[Entry]:
        """Claims carrying an evidence label."""
        return self.backlinks(label, "claim")

    def path_steps(self, path: Entry) -> list[tuple[PathStep, Entry | None]]:
        """A reading path's steps in order, each with the entry it names, if any."""
        named: dict[int, Entry] = {}
        for target, (relation, loc, _) in self._outgoing.get(path.key, ()):
            if relation == "step":
                named[int(loc[1])] = self._entries[target]
        model = path.model
        assert isinstance(model, ReadingPath)
        return [(step, named.get(i)) for i, step in enumerate(model.steps)]
