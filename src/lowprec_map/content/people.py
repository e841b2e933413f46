"""Who did the work: the people and groups behind each dossier, for independence.

A dossier's `authors` are spellings as the work prints them; people.yaml says
which person (or group) each spelling names. Spellings are compared after
normalisation (case, spaces and dots, accents, zero-width characters, Unicode
look-alikes), so "Shuai Zhang", "shuai  zhang" and "Shuai Zhang\u200b" are one
person. A spelling people.yaml does not know names a person of its own.

Two works are independent when they share no person and no group: a work's
groups are its `groups`, the groups its people work in, and any author that is
a group's spelling (a post signed "Miles Team"). A spelling that resembles a
different person's (initials, order, a handle made of the name) is a warning
naming that person, unless people.yaml says they differ.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass

from lowprec_map.content.entry import Entry
from lowprec_map.content.graph import MapGraph
from lowprec_map.errors import Problem, Severity
from lowprec_map.schema.entries import Dossier
from lowprec_map.schema.frame import Person, ResearchGroup

# Letters of other scripts that look like Latin ones, as they appear in names pasted from
# PDFs (Cyrillic and Greek): mapped so a look-alike spelling is the same spelling.
_LOOK_ALIKES = str.maketrans(
    "аеорсухіјѕһԁӏɡοαικνρτυχ",
    "aeopcyxijshdlgoaikvptux",
)
_SEPARATORS = re.compile(r"[\s.\-‐-―_,·]+")


def normalized(spelling: str) -> str:
    """A spelling as identity sees it: look-alikes folded, accents, case, invisible
    characters and punctuation between words dropped."""
    text = unicodedata.normalize("NFKD", spelling)
    text = "".join(c for c in text if unicodedata.category(c) not in ("Mn", "Cf", "Cc"))
    text = text.casefold().translate(_LOOK_ALIKES)
    # A spelling of punctuation alone ('.', '—') stays itself rather than becoming ''.
    return " ".join(_SEPARATORS.sub(" ", text).split()) or spelling.strip().casefold()


Identity = str  # 'person:<id>', 'research_group:<id>', or 'name:<normalized spelling>'


@dataclass(frozen=True)
class Who:
    """A work's people and groups, as identities."""

    people: frozenset[Identity]
    groups: frozenset[Identity]

    @property
    def everyone(self) -> frozenset[Identity]:
        """Its people and groups together: what independence compares."""
        return self.people | self.groups


class People:
    """Every spelling people.yaml knows, and what it names; built once per graph."""

    def __init__(self, graph: MapGraph) -> None:
        self.spelled: dict[str, Identity] = {}
        self.person_groups: dict[Identity, frozenset[Identity]] = {}
        self.distinct: set[frozenset[str]] = set()
        self.problems: list[Problem] = []
        self._who: dict[str, Who] = {}  # per dossier key: each is asked once per rule
        for entry in graph.entries("research_group"):
            assert isinstance(entry.model, ResearchGroup)
            self._spell(entry, [entry.model.name, *entry.model.spellings])
        for entry in graph.entries("person"):
            assert isinstance(entry.model, Person)
            person = entry.model
            self._spell(entry, [person.name, *person.spellings])
            self.person_groups[entry.key] = frozenset(f"research_group:{g}" for g in person.groups)
            mine = [normalized(s) for s in (person.name, *person.spellings)]
            for other in person.distinct_from:
                self.distinct.update(frozenset((m, normalized(other))) for m in mine)

    def _spell(self, entry: Entry, spellings: list[str]) -> None:
        for index, spelling in enumerate(spellings):
            key = normalized(spelling)
            known = self.spelled.get(key)
            if known is not None and known != entry.key:
                where = entry.pos(("name",) if index == 0 else ("spellings", index - 1))
                self.problems.append(
                    Problem(where, f"the spelling '{spelling}' already names {known}")
                )
            self.spelled.setdefault(key, entry.key)

    def identity(self, spelling: str) -> Identity:
        """Whom a spelling names: a person or group people.yaml knows, or a name of its own."""
        return self.identity_of(normalized(spelling))

    def identity_of(self, key: str) -> Identity:
        """Whom a normalised spelling names."""
        return self.spelled.get(key, f"name:{key}")

    def who(self, dossier: Entry) -> Who:
        """The dossier's people and groups."""
        found = self._who.get(dossier.key)
        if found is None:
            found = self._who[dossier.key] = self._find_who(dossier)
        return found

    def _find_who(self, dossier: Entry) -> Who:
        assert isinstance(dossier.model, Dossier)
        named = [self.identity(a) for a in (*dossier.model.authors, *dossier.model.contributors)]
        people = frozenset(i for i in named if not i.startswith("research_group:"))
        groups = {i for i in named if i.startswith("research_group:")}
        groups.update(f"research_group:{g}" for g in dossier.model.groups)
        for person in people:
            groups |= self.person_groups.get(person, frozenset())
        return Who(people, frozenset(groups))


def independent_works(dossiers: list[Entry], people: People) -> list[Entry]:
    """A greedy set of the dossiers, by id, that pairwise share no person and no group."""
    chosen: list[tuple[Entry, frozenset[Identity]]] = []
    for entry in sorted({d.id: d for d in dossiers}.values(), key=lambda d: d.id):
        everyone = people.who(entry).everyone
        if all(not (everyone & other) for _, other in chosen):
            chosen.append((entry, everyone))
    return [entry for entry, _ in chosen]


def check_people(graph: MapGraph) -> Iterator[Problem]:
    """Spellings named twice, and author spellings that resemble another person's."""
    people = People(graph)
    yield from people.problems
    yield from _resemblances(graph, people)


def _resemblances(graph: MapGraph, people: People) -> Iterator[Problem]:
    """A warning per author spelling that resembles a different person's, at the spelling
    people.yaml does not know (the later dossier's, when it knows neither)."""
    spellings: dict[str, Spelled] = {}
    for key, identity in people.spelled.items():
        if not identity.startswith("research_group:"):
            spellings[key] = Spelled(key, identity, None, ())
    together: set[frozenset[str]] = set()  # named by one work: two people, by construction
    for dossier in graph.entries("dossier"):
        assert isinstance(dossier.model, Dossier)
        named = [("authors", dossier.model.authors), ("contributors", dossier.model.contributors)]
        keys = []
        for field, names in named:
            for index, name in enumerate(names):
                key = normalized(name)
                keys.append(key)
                identity = people.identity_of(key)
                if not identity.startswith("research_group:"):
                    spellings.setdefault(key, Spelled(key, identity, dossier, (field, index)))
        together.update(frozenset(pair) for pair in itertools.combinations(set(keys), 2))
    for pair in _close_pairs(list(spellings)):
        if frozenset(pair) in together or frozenset(pair) in people.distinct:
            continue
        found = _resemblance(spellings[pair[0]], spellings[pair[1]])
        if found is not None:
            yield found


@dataclass(frozen=True)
class Spelled:
    """A normalised spelling, whom it names, and where a dossier first writes it (None: a
    spelling people.yaml gives)."""

    key: str
    identity: Identity
    dossier: Entry | None
    loc: tuple[str, int] | tuple[()]

    @property
    def shown(self) -> str:
        """The spelling as its dossier writes it (normalised, for people.yaml's)."""
        if self.dossier is None or not self.loc:
            return self.key
        assert isinstance(self.dossier.model, Dossier)
        field, index = self.loc
        return str(getattr(self.dossier.model, field)[index])


def _resemblance(a: Spelled, b: Spelled) -> Problem | None:
    """The warning for two resembling spellings of different people, at the one
    people.yaml does not know (the later dossier's, when it knows neither)."""
    if a.identity == b.identity or (a.dossier is None and b.dossier is None):
        return None
    if b.dossier is None or (a.dossier is not None and a.dossier.id > b.dossier.id):
        a, b = b, a
    assert b.dossier is not None
    where = a.dossier.id if a.dossier is not None else "people.yaml"
    return Problem(
        b.dossier.pos(b.loc),
        f"'{b.shown}' resembles '{a.shown}' ({where}): if one person, add the spelling "
        "to people.yaml; if not, list it in that person's distinct_from",
        Severity.WARNING,
    )


def _close_pairs(keys: list[str]) -> Iterator[tuple[str, str]]:
    """Pairs of normalised spellings that may be one person written two ways."""
    # Only spellings that could resemble share a bucket: the same surname and first
    # initial ('s zhang', 'shuai zhang'), either way round, or the same letters (a
    # reordering, or a handle made of the name's words).
    by_name: dict[tuple[str, str], list[str]] = defaultdict(list)
    by_letters: dict[str, list[str]] = defaultdict(list)
    for key in keys:
        words = key.split()
        if len(words) > 1:
            by_name[(words[-1], words[0][0])].append(key)
            by_name[(words[0], words[-1][0])].append(key)  # 'Zhang Shuai', family name first
        by_letters["".join(sorted(key.replace(" ", "")))].append(key)
    seen: set[frozenset[str]] = set()
    for group in (*by_name.values(), *by_letters.values()):
        for a, b in itertools.combinations(sorted(set(group)), 2):
            pair = frozenset((a, b))
            if pair not in seen and _resemble(a, b):
                seen.add(pair)
                yield a, b


def _resemble(a: str, b: str) -> bool:
    """The same letters without spaces, the same words in another order, initials for
    given names, or a handle made of the name's words.

    Given names one letter apart are not flagged: among pinyin names ('jian liu',
    'jiang liu') they are nearly always two people."""
    wa, wb = a.split(), b.split()
    if a.replace(" ", "") == b.replace(" ", "") or sorted(wa) == sorted(wb):
        return True
    if len(wa) == 1 or len(wb) == 1:
        handle, words = (wa[0], wb) if len(wa) == 1 else (wb[0], wa)
        return any(handle == "".join(p) for p in itertools.permutations(words))
    if wa[-1] != wb[-1] or len(wa) != len(wb):
        return False
    return all(
        x == y or ((len(x) == 1 or len(y) == 1) and x[0] == y[0])
        for x, y in zip(wa[:-1], wb[:-1], strict=True)
    )
