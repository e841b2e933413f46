"""serve's recording reader: what each page read, and which facts a save changed.

A build draws every page once and never asks what a page read (`site.reads.Reader`
ignores it). serve redraws only the pages a save changed, so it draws each page
through a `RecordingReader`, which keeps every fact the page's context and its
templates read (field by field, through `LinkedEntry`). After a save,
`changed_facts` compares the old and the new graph; a page is redrawn when a fact
its templates read changed, or when one its context read changed and the context
came out different (`context_shape`; see `incremental.PageRecord`).
"""

from __future__ import annotations

from typing import Any

from lowprec_map.content.entry import Entry
from lowprec_map.content.graph import MapGraph
from lowprec_map.site.reads import (
    Fact,
    LinkedEntry,
    Reader,
    SharedViews,
    backlinks_fact,
    field_fact,
    members_fact,
)


class RecordingReader(Reader):
    """The graph as one page sees it in serve: every answer is recorded in `facts`.

    Each page links entries afresh (`linked_entries` is not shared), as each page's
    linked entries record into that page's reader."""

    records = True

    def __init__(
        self,
        graph: MapGraph,
        linked_entries: dict[str, LinkedEntry] | None = None,
        views: SharedViews | None = None,
    ) -> None:
        super().__init__(graph, None, views)
        self.facts: set[Fact] = set()
        self._nested: list[set[Fact]] = []  # open `recording` blocks, innermost last

    def note(self, *facts: Fact) -> None:
        """Record facts read (also in every open `recording` block)."""
        self.facts.update(facts)
        for nested in self._nested:
            nested.update(facts)

    def note_again(self, fact: Fact) -> None:
        """Record a fact this page read before: only the open `recording` blocks lack it."""
        for nested in self._nested:
            nested.add(fact)

    def take_facts(self) -> frozenset[Fact]:
        """The facts recorded so far; recording goes on afresh (what a page's context read,
        then what its templates read)."""
        taken, self.facts = frozenset(self.facts), set()
        return taken

    def start_recording(self) -> set[Fact]:
        """A set that collects the facts read until `stop_recording` (they are recorded
        for the page as well): what a card read while it was drawn."""
        found: set[Fact] = set()
        self._nested.append(found)
        return found

    def stop_recording(self, found: set[Fact]) -> None:
        """End the recording `start_recording` began."""
        self._nested.remove(found)


def changed_facts(before: MapGraph, after: MapGraph) -> set[Fact]:
    """The facts whose answer differs between two graphs of the same content folder."""
    changed: set[Fact] = set()
    for key in before.keys() | after.keys():
        old, new = before.entry(key), after.entry(key)
        if old is new or (
            old is not None and new is not None and (old.model, old.body) == (new.model, new.body)
        ):
            continue
        changed.add(key)
        changed.update(field_fact(key, name) for name in _changed_fields(old, new))
        if old is None or new is None:
            changed.add(members_fact(key.split(":", 1)[0]))
        # What it refers to now and did not then, or the reverse, gains or loses a backlink.
        then = set(before.edges_from(old)) if old is not None else set()
        now = set(after.edges_from(new)) if new is not None else set()
        changed.update(backlinks_fact(target) for _, target, _ in then ^ now)
    if changed:
        changed.add("*")
    return changed


def _changed_fields(old: Entry | None, new: Entry | None) -> set[str]:
    """The fields (and 'body') that differ; all of them when the entry came or went."""
    if old is None or new is None or type(old.model) is not type(new.model):
        present = [e for e in (old, new) if e is not None]
        return {"body", *(name for e in present for name in type(e.model).model_fields)}
    fields = {
        name
        for name in type(new.model).model_fields
        if getattr(old.model, name) != getattr(new.model, name)
    }
    return fields | {"body"} if old.body != new.body else fields


def context_shape(value: Any) -> Any:
    """A page context as it decides what the page shows, for comparing two contexts: each
    entry stands as its key, as templates read its fields through `LinkedEntry`, each one
    recorded; everything else is compared as it is.

    It walks the containers `linked` walks, and only those: an entry kept in any other
    value reaches templates unlinked, so that value is compared whole, entries included.
    """
    if isinstance(value, Entry):
        return ("entry", value.key)
    if isinstance(value, list | tuple):
        return (type(value), [context_shape(item) for item in value])
    if isinstance(value, dict):
        return (dict, [(key, context_shape(item)) for key, item in value.items()])
    return value
