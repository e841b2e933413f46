"""What a page reads: the graph as one page sees it, and entries as templates see them.

A page's context is computed through a `Reader`, which answers from the graph.
Templates receive entries as `LinkedEntry` values whose reference fields hold the
entries they name. Each answer and each field read names its *fact* (an entry's
content, who refers to an entry, which entries of a type exist) and tells the
reader (`Reader.note`). A build's reader ignores them; serve's
(`dev/recording.py`) records them, to redraw only the pages a save changed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from pydantic import BaseModel

from lowprec_map import speed
from lowprec_map.content.entry import Entry
from lowprec_map.content.graph import MapGraph
from lowprec_map.content.refs import reference_fields
from lowprec_map.schema.entries import PathStep
from lowprec_map.schema.frame import Site

# 'type:id' an entry's content, 'type:id.field' one of its fields (or its body);
# '<type:id' who refers to it; '*type' which entries of a type exist; '*' anything.
Fact = str
T = TypeVar("T")
# Views of a graph that several pages show, each with the facts computing it read.
SharedViews = dict[Callable[..., Any], tuple[Any, frozenset[Fact]]]


def field_fact(key: str, name: str) -> Fact:
    """The fact 'field `name` (or 'body') of the entry `key`'."""
    return f"{key}.{name}"


def backlinks_fact(key: str) -> Fact:
    """The fact 'which entries refer to `key`'."""
    return f"<{key}"


def members_fact(entry_type: str) -> Fact:
    """The fact 'which entries of `entry_type` exist'."""
    return f"*{entry_type}"


class Reader:
    """The graph as one page of a build sees it. It records nothing, so every page of
    one graph shares the same linked entries (`linked_entries`, each entry linked and
    its references resolved once per build) and views (`views`)."""

    records = False  # nothing is recorded, so linked values may be kept as first read

    def __init__(
        self,
        graph: MapGraph,
        linked_entries: dict[str, LinkedEntry] | None = None,
        views: SharedViews | None = None,
    ) -> None:
        self.graph = graph
        self._linked: dict[str, LinkedEntry] = {} if linked_entries is None else linked_entries
        self._views: SharedViews = {} if views is None else views

    # -------------------------------------------- what is read (serve records it)

    def note(self, *facts: Fact) -> None:
        """Facts read: a build has no use for them."""

    def note_again(self, fact: Fact) -> None:
        """A fact this page read before, read again (by a card drawn now)."""

    def start_recording(self) -> set[Fact]:
        """A set that collects the facts read until `stop_recording`: what a card read
        while it was drawn (a build's stays empty)."""
        return set()

    def stop_recording(self, found: set[Fact]) -> None:
        """End the recording `start_recording` began."""

    def take_facts(self) -> frozenset[Fact]:
        """The facts read since the last call (a build's: none)."""
        return frozenset()

    def shared(self, view: Callable[[Reader], T]) -> T:
        """`view(self)`, computed once for every page of this graph that shows it (given
        the same `views`), the facts it read noted for each. Its value is shared:
        take from it, never change it."""
        found = self._views.get(view) if speed.on("shared-views") else None
        if found is None:
            read = self.start_recording()
            try:
                value = view(self)
            finally:
                self.stop_recording(read)
            found = self._views[view] = (value, frozenset(read))
        else:
            self.note(*found[1])
        return found[0]

    # ------------------------------------------------------------ the answers

    def linked(self, entry: Entry) -> LinkedEntry:
        """`entry` as this page's templates see it (one LinkedEntry per entry and page)."""
        found = self._linked.get(entry.key)
        if found is None:
            found = self._linked[entry.key] = LinkedEntry(entry, self)
        return found

    def _seen(self, entries: Iterable[Entry]) -> list[Entry]:
        found = list(entries)
        self.note(*(e.key for e in found))
        return found

    @property
    def site(self) -> Site:
        """The site's frame (title, question, loop...)."""
        self.note("site:site")
        return self.graph.site

    def get(self, entry_type: str, entry_id: str) -> Entry:
        """The entry of that type and id."""
        entry = self.graph.get(entry_type, entry_id)
        self.note(entry.key)
        return entry

    def resolve(self, entry_type: str, entry_id: str) -> LinkedEntry:
        """The entry a reference names, linked, noting nothing: the reference was read as
        a field of its own, and the entry named notes the fields a template reads."""
        return self.linked(self.graph.get(entry_type, entry_id))

    def find(self, entry_type: str, entry_id: str) -> Entry | None:
        """The entry of that type and id, or None (recorded either way)."""
        self.note(f"{entry_type}:{entry_id}", members_fact(entry_type))
        return self.graph.entry(f"{entry_type}:{entry_id}")

    def entries(self, entry_type: str) -> list[Entry]:
        """All entries of a type, by id."""
        self.note(members_fact(entry_type))
        return self._seen(self.graph.entries(entry_type))

    def count(self, entry_type: str) -> int:
        """How many entries of a type exist (without reading them)."""
        self.note(members_fact(entry_type))
        return len(self.graph.entries(entry_type))

    def counts(self) -> Counter[str]:
        """Entries per type and core dossiers, as on the landing page."""
        counts = self.graph.counts()
        self.note(*(members_fact(t) for t in {*counts, "dossier"} - {"core"}))
        self._seen(self.graph.entries("dossier"))  # 'core' reads each dossier
        return counts

    def backlinks(
        self, entry: Entry, source_type: str | None = None, relation: str | None = None
    ) -> list[Entry]:
        """Entries that refer to `entry` (of one type, by one relation, if given), by type
        and id."""
        self.note(backlinks_fact(entry.key))
        return self._seen(self.graph.backlinks(entry, source_type, relation))

    def count_backlinks(self, entry: Entry, source_type: str, relation: str | None = None) -> int:
        """How many entries of `source_type` refer to `entry` (without reading them)."""
        self.note(backlinks_fact(entry.key))
        return len(self.graph.backlinks(entry, source_type, relation))

    def targets(self, entry: Entry, relation: str | None = None) -> list[Entry]:
        """Entries `entry` refers to (by `relation`, if given), in reference order."""
        self.note(entry.key)
        return self._seen(self.graph.targets(entry, relation))

    def program_members(self, program: Entry, entry_type: str) -> list[Entry]:
        """Entries of `entry_type` that declare membership in `program`."""
        self.note(backlinks_fact(program.key))
        return self._seen(self.graph.program_members(program, entry_type))

    def links(self) -> MapGraph:
        """The whole graph, for a page that draws every link (the map): reads everything."""
        self.note("*")
        return self.graph


# ---------------------------------------------------------------- linked values


class LinkedEntry:
    """An entry as templates see it: `model`'s reference fields hold entries, not ids, and
    each field read (and the body) is recorded as a fact of its own."""

    def __init__(self, entry: Entry, reader: Reader) -> None:
        self._entry = entry
        self.reader = reader
        self.type, self.id, self.key = entry.type, entry.id, entry.key

    def __getattr__(self, name: str) -> Any:
        if name != "model":
            raise AttributeError(name)
        # The entry's fields, references resolved: made on first read (most entries on
        # a page are drawn by cards already drawn, and never read here).
        self.model = LinkedModel(self._entry.model, self.reader, self.key)
        return self.model

    @property
    def body(self) -> str:
        """The entry's Markdown body."""
        self.reader.note(field_fact(self.key, "body"))
        return self._entry.body

    def fields(self, *names: str) -> Entry:
        """The entry itself, for a function that reads only the fields `names` of it."""
        self.reader.note(*(field_fact(self.key, name) for name in names))
        return self._entry

    def whole(self) -> Entry:
        """The entry itself, for a function that may read any of it."""
        self.reader.note(self.key)
        return self._entry


class LinkedModel:
    """A model's fields as templates read them: a reference field (a `RefTo` id, or a
    list of them) holds the `LinkedEntry` it names, a nested model is linked too.

    Of an entry's model (`entry_key` given), every read notes the field's fact; a model
    nested in field `field` notes that field's fact at every read of its own fields.
    """

    def __init__(
        self, model: BaseModel, reader: Reader, entry_key: str | None = None, field: str = ""
    ) -> None:
        self._model = model
        self._reader = reader
        self._entry_key = entry_key
        self._field = field
        self._known: dict[str, tuple[Any, Fact]] = {}  # field -> value, fact

    def __getattr__(self, name: str) -> Any:
        reader, key = self._reader, self._entry_key
        known = self._known.get(name)
        if known is not None:  # read on this page before: a card drawn now records it too
            reader.note_again(known[1])
            return known[0]
        value = _link(getattr(self._model, name), type(self._model), name, self)
        if key is None or not reader.records:
            setattr(self, name, value)  # later reads skip __getattr__
        else:
            fact = field_fact(key, self._field or name)
            self._known[name] = (value, fact)
            reader.note(fact)
        return value

    def _nested(self, model: BaseModel, name: str) -> LinkedModel:
        return LinkedModel(model, self._reader, self._entry_key, self._field or name)

    @property
    def named(self) -> LinkedEntry | None:
        """The entry a reading-path step names, if it names one."""
        assert isinstance(self._model, PathStep)
        for name in reference_fields(PathStep):
            value = getattr(self, name)
            if value is not None:
                return value  # type: ignore[no-any-return]
        return None


def linked(value: Any, reader: Reader) -> Any:
    """A context value as templates see it: entries and models linked, containers mapped."""
    if isinstance(value, Entry):
        return reader.linked(value)
    if isinstance(value, BaseModel):
        return LinkedModel(value, reader)
    if isinstance(value, list):
        return [linked(item, reader) for item in value]
    if isinstance(value, tuple):
        return tuple(linked(item, reader) for item in value)
    if isinstance(value, dict):
        return {key: linked(item, reader) for key, item in value.items()}
    return value


def _link(value: Any, model: type[BaseModel], name: str, owner: LinkedModel) -> Any:
    """Field `name`'s value as templates see it: references resolved, nested models linked."""
    target = reference_fields(model).get(name)
    reader = owner._reader
    if target is not None:
        if isinstance(value, str):
            return reader.resolve(target, value)
        if isinstance(value, list):
            return [reader.resolve(target, v) for v in value]
        return value  # None
    if isinstance(value, BaseModel):
        return owner._nested(value, name)
    if isinstance(value, list) and value and isinstance(value[0], BaseModel):
        return [owner._nested(item, name) for item in value]
    return value
