"""Views of the evidence model: prediction status per program, and evidence depth.

Both are computed from content through the page's `Reader` (so `serve` knows
what they read) with the rules of `content/evidence.py`; nothing here is typed
by an editor.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from lowprec_map.content.entry import Entry
from lowprec_map.content.evidence import Prediction, prediction
from lowprec_map.content.people import People, independent_works
from lowprec_map.schema.claims import Claim
from lowprec_map.schema.entries import Dossier
from lowprec_map.schema.locators import LOCATOR_KINDS, locator_kind
from lowprec_map.site.reads import Reader


def program_prediction(reader: Reader, program: Entry) -> Prediction:
    """The status of `program`'s prediction and the claims behind it."""
    return prediction(program, reader.backlinks(program, "claim", "tests"))


def program_predictions(reader: Reader) -> list[tuple[Entry, Prediction]]:
    """Every program with its prediction's status, in id order."""
    return [(p, program_prediction(reader, p)) for p in reader.entries("program")]


@dataclass(frozen=True)
class EvidenceDepth:
    """How deep the map's evidence goes: where its claims' sources point, how much was read."""

    sources: int
    below_abstract: int
    kinds: list[tuple[str, int]]  # locator kind -> sources, in LOCATOR_KINDS order
    dossiers: int
    read: list[tuple[str, int]]  # 'full-text' / 'partial' / 'abstract' -> dossiers

    @property
    def below_abstract_percent(self) -> int:
        """The share of sources located below the abstract, in whole percent."""
        return round(100 * self.below_abstract / self.sources) if self.sources else 0

    @property
    def full_text(self) -> int:
        """How many dossiers were read in full."""
        return dict(self.read).get("full-text", 0)


def evidence_depth(reader: Reader) -> EvidenceDepth:
    """Locator kinds of every claim source, and the dossiers' `read` field, counted."""
    kinds: Counter[str] = Counter()
    for claim in reader.entries("claim"):
        assert isinstance(claim.model, Claim)
        kinds.update(locator_kind(s.locator) for s in claim.model.sources)
    read: Counter[str] = Counter()
    for dossier in reader.entries("dossier"):
        assert isinstance(dossier.model, Dossier)
        read[dossier.model.read] += 1
    order = [name for name, _ in LOCATOR_KINDS] + ["other"]
    total = sum(kinds.values())
    return EvidenceDepth(
        sources=total,
        below_abstract=total - kinds["abstract"],
        kinds=[(k, kinds[k]) for k in order if kinds[k]],
        dossiers=sum(read.values()),
        read=[(r, read[r]) for r in ("full-text", "partial", "abstract") if read[r]],
    )


@dataclass(frozen=True)
class Independence:
    """Who did the work, as `replicated` counts it: how many people and groups the map
    knows, and the replicated claims whose independent works are told apart by a group."""

    people: int  # distinct people behind the dossiers, after normalisation
    listed_people: int  # of whom people.yaml names (with their other spellings)
    groups: int  # labs and teams people.yaml names
    by_group: list[Entry]  # replicated claims with an independent work naming no person


def independence(reader: Reader) -> Independence:
    """Counted through people.yaml's spellings, as the label rules count them."""
    people = People(reader.links())
    dossiers = reader.entries("dossier")
    persons = {p for d in dossiers for p in people.who(d).people}
    by_group = []
    for claim in reader.entries("claim"):
        assert isinstance(claim.model, Claim)
        if claim.model.label != "replicated":
            continue
        works = {s.dossier for s in claim.model.sources if s.stance == "supports"}
        chosen = independent_works([reader.get("dossier", w) for w in sorted(works)], people)
        if any(not people.who(d).people for d in chosen):
            by_group.append(claim)
    return Independence(
        people=len(persons),
        listed_people=reader.count("person"),
        groups=reader.count("research_group"),
        by_group=by_group,
    )
