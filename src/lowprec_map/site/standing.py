"""How a work stands to others: the works that agree or disagree with it through the claims
they share, its declared relations both ways, and the tensions it is a side of.

All of it is read from the graph through the page's reader, so serve knows what a
dossier page depends on; nothing here is typed by an editor.
"""

from __future__ import annotations

from dataclasses import dataclass

from lowprec_map.content.entry import Entry
from lowprec_map.schema.claims import Claim
from lowprec_map.schema.entries import Dossier, Tension
from lowprec_map.site.reads import Reader

STANCES = ("supports", "contrasts", "mentions")  # strongest first
# The relation a dossier declares, as the other side reads it.
INVERSE = {
    "extends": "is extended by",
    "challenges": "is challenged by",
    "replicates": "is replicated by",
    "complements": "complements",
    "precedes": "follows",
}


@dataclass(frozen=True)
class Standing:
    """A dossier's place among the works (each list of tuples, so templates see entries
    linked)."""

    tensions: list[tuple[Entry, int]]  # tensions it is a side of, with its side (1 or 2)
    agree: list[tuple[Entry, list[Entry]]]  # works supporting claims it supports, via them
    disagree: list[tuple[Entry, str, list[Entry]]]  # works on the other stance, how, via
    relations: list[tuple[str, Entry, str]]  # (how it relates, the other work, the note)
    citing: list[tuple[str, list[Entry]]]  # claims citing it, by its stance: supports first


def standing(reader: Reader, dossier: Entry) -> Standing:
    """How `dossier` stands to the other works on the map."""
    claims = reader.backlinks(dossier, "claim")
    by_stance: dict[str, list[Entry]] = {s: [] for s in STANCES}
    agree: dict[str, tuple[Entry, list[Entry]]] = {}
    disagree: dict[str, tuple[Entry, str, list[Entry]]] = {}
    for claim in claims:
        assert isinstance(claim.model, Claim)
        mine = _stance(claim.model, dossier.id)
        by_stance[mine].append(claim)
        for other in sorted({s.dossier for s in claim.model.sources} - {dossier.id}):
            theirs = _stance(claim.model, other)
            work = reader.get("dossier", other)
            if mine == theirs == "supports":
                agree.setdefault(other, (work, []))[1].append(claim)
            elif {mine, theirs} == {"supports", "contrasts"}:
                how = (
                    "contrasts what this work supports"
                    if theirs == "contrasts"
                    else "supports what this work contrasts"
                )
                disagree.setdefault(other, (work, how, []))[2].append(claim)
    return Standing(
        tensions=_sides(reader, dossier),
        agree=sorted(agree.values(), key=lambda item: (-len(item[1]), item[0].id)),
        disagree=sorted(disagree.values(), key=lambda item: (-len(item[2]), item[0].id)),
        relations=_relations(reader, dossier),
        citing=[(stance, found) for stance, found in by_stance.items() if found],
    )


def _stance(claim: Claim, dossier_id: str) -> str:
    """The strongest stance the dossier's sources take on the claim; a claim that names the
    work only in its prose mentions it."""
    stances = {s.stance for s in claim.sources if s.dossier == dossier_id}
    return next((s for s in STANCES if s in stances), "mentions")


def _sides(reader: Reader, dossier: Entry) -> list[tuple[Entry, int]]:
    found = []
    for tension in reader.backlinks(dossier, "tension", "side"):
        assert isinstance(tension.model, Tension)
        for number, side in enumerate(tension.model.sides, 1):
            if side.dossier == dossier.id:
                found.append((tension, number))
    return found


def _relations(reader: Reader, dossier: Entry) -> list[tuple[str, Entry, str]]:
    """Relations the dossier declares, then those other dossiers declare to it."""
    assert isinstance(dossier.model, Dossier)
    mine = [(r.kind, reader.get("dossier", r.dossier), r.note) for r in dossier.model.relations]
    theirs = []
    for other in reader.backlinks(dossier, "dossier", "relates-to"):
        assert isinstance(other.model, Dossier)
        for r in other.model.relations:
            if r.dossier == dossier.id:
                theirs.append((INVERSE[r.kind], other, r.note))
    return mine + theirs
