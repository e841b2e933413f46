"""The evidence model: the rules that earn a label, and prediction status.

A claim's label is a statement about its sources, so `check` tests it against
what each source does for the claim (`stance`) and what that rests on
(`basis`). The rules' words live here beside the code that enforces them;
evidence.yaml must state them word for word, so the label pages say exactly
what `check` does. A program's status is computed here too, never typed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from lowprec_map.content.entry import Entry
from lowprec_map.content.graph import MapGraph
from lowprec_map.content.people import People, independent_works
from lowprec_map.errors import Problem, SourcePos, suggest
from lowprec_map.schema.claims import Claim, Source
from lowprec_map.schema.entries import Dossier


@dataclass(frozen=True)
class ClaimEvidence:
    """A claim with its sources' dossiers at hand, as the label rules read it."""

    entry: Entry
    claim: Claim
    dossiers: dict[str, Entry]
    people: People

    def supporting(self, *bases: str) -> list[Source]:
        """The sources that support the claim with one of `bases` (`mentions` never counts)."""
        return [s for s in self.claim.sources if s.stance == "supports" and s.basis in bases]

    def at_label(self) -> SourcePos:
        return self.entry.pos(("label",))


LabelCheck = Callable[[ClaimEvidence], Iterator[Problem]]

# What a claim's support rests on, strongest first, as the site names it beside a label.
SUPPORT_KINDS = {
    "measured": "figure read",
    "stated": "stated only",
    "reported": "reported only",
    "argued": "argued only",
}


def support_kind(claim: Claim) -> str:
    """What the claim's strongest support is: 'figure read' (a supporting source's figure
    was read at its locator), 'stated only', 'reported only', 'argued only', or 'no
    support'."""
    bases = {s.basis for s in claim.sources if s.stance == "supports"}
    for basis, kind in SUPPORT_KINDS.items():
        if basis in bases:
            return kind
    return "no support"


@dataclass(frozen=True)
class LabelRule:
    """What earns a label: `text` as evidence.yaml's how_to_earn states it, and its check."""

    text: str
    check: LabelCheck


def _measured(ev: ClaimEvidence) -> Iterator[Problem]:
    if not ev.supporting("measured", "stated"):
        yield Problem(
            ev.at_label(),
            "a 'measured' claim needs a source that supports it with basis 'measured' or "
            f"'stated'; it has {_stances(ev.claim)}",
        )


def _replicated(ev: ClaimEvidence) -> Iterator[Problem]:
    works = {s.dossier: ev.dossiers[s.dossier] for s in ev.supporting("measured")}
    independent = independent_works(list(works.values()), ev.people)
    if len(independent) < 2:
        yield Problem(
            ev.at_label(),
            "a 'replicated' claim needs two sources that support it with basis 'measured' "
            f"from works sharing no person and no group; it has {len(independent)} "
            f"({_stances(ev.claim)})",
        )


def _contested(ev: ClaimEvidence) -> Iterator[Problem]:
    contrasting = [s for s in ev.claim.sources if s.stance == "contrasts"]
    if not contrasting and not ev.claim.conflicts_with:
        yield Problem(
            ev.at_label(),
            "a 'contested' claim needs a source whose stance is 'contrasts' or a "
            "conflicting claim in conflicts_with; it has neither",
        )


def _mechanistic(ev: ClaimEvidence) -> Iterator[Problem]:
    if not ev.supporting("measured", "stated", "argued"):
        yield Problem(
            ev.at_label(),
            "a 'mechanistic' claim needs a source that supports it with basis 'measured', "
            f"'stated' or 'argued'; it has {_stances(ev.claim)}",
        )
    if ev.claim.mechanism is None:
        yield Problem(ev.at_label(), "a 'mechanistic' claim names its mechanism in `mechanism`")


def _hypothesis(ev: ClaimEvidence) -> Iterator[Problem]:
    for index, source in enumerate(ev.claim.sources):
        if source.stance == "supports" and source.basis in ("measured", "stated"):
            yield Problem(
                ev.entry.pos(("sources", index, "basis")),
                f"a 'hypothesis' has no measured or stated support, but '{source.dossier}' "
                f"supports it with basis '{source.basis}': the claim is no longer a hypothesis",
            )
    if not ev.claim.programs:
        yield Problem(ev.at_label(), "a 'hypothesis' names the program that would test it")
    if ev.claim.refuted_if is None:
        yield Problem(ev.at_label(), "a 'hypothesis' says in `refuted_if` what would refute it")


LABEL_RULES: dict[str, LabelRule] = {
    "measured": LabelRule(
        "At least one source supports the claim with basis measured or stated.", _measured
    ),
    "replicated": LabelRule(
        "At least two sources support the claim with basis measured, from independent "
        "works: no shared person and no shared group.",
        _replicated,
    ),
    "contested": LabelRule(
        "A source contrasts the claim, or the claim names a conflicting claim in "
        "conflicts_with (and that claim names it back).",
        _contested,
    ),
    "mechanistic": LabelRule(
        "A source supports the claim with basis measured, stated or argued, and the claim "
        "names its mechanism.",
        _mechanistic,
    ),
    "hypothesis": LabelRule(
        "No source supports the claim with basis measured or stated; the claim names the "
        "program that would test it and what would refute it.",
        _hypothesis,
    ),
}


def _stances(claim: Claim) -> str:
    if not claim.sources:
        return "no sources"
    return "; ".join(f"{s.dossier}: {s.stance}, {s.basis}" for s in claim.sources)


def check_evidence(graph: MapGraph) -> Iterator[Problem]:
    """Every label rule, every measurement's source and every source's version."""
    yield from _rules_stated(graph)
    people = People(graph)
    for entry in graph.entries("claim"):
        assert isinstance(entry.model, Claim)
        claim = entry.model
        if not all(graph.has("dossier", s.dossier) for s in claim.sources):
            continue  # unknown dossier: reported by the linker
        dossiers = {s.dossier: graph.get("dossier", s.dossier) for s in claim.sources}
        yield from _claim_evidence(ClaimEvidence(entry, claim, dossiers, people))


def _claim_evidence(ev: ClaimEvidence) -> list[Problem]:
    """The claim's problems under the evidence rules."""
    problems: list[Problem] = []
    rule = LABEL_RULES.get(ev.claim.label)
    if rule is not None:
        problems.extend(rule.check(ev))
    problems.extend(_versions_known(ev.entry, ev.claim, ev.dossiers))
    problems.extend(_measurements_sourced(ev.entry, ev.claim))
    return problems


def _rules_stated(graph: MapGraph) -> Iterator[Problem]:
    for label in graph.entries("evidence"):
        rule = LABEL_RULES.get(label.id)
        if rule is None:
            yield Problem(
                label.pos(("id",)),
                f"check has no rule for the label '{label.id}'"
                f"{suggest(label.id, list(LABEL_RULES))}; the rules are for: "
                + ", ".join(LABEL_RULES),
            )
        elif " ".join(str(getattr(label.model, "how_to_earn", "")).split()) != rule.text:
            yield Problem(
                label.pos(("how_to_earn",)),
                f"how_to_earn must state the rule check enforces, word for word: '{rule.text}'",
            )


def _versions_known(entry: Entry, claim: Claim, dossiers: dict[str, Entry]) -> Iterator[Problem]:
    for index, source in enumerate(claim.sources):
        if source.version is None:
            continue
        dossier = dossiers[source.dossier].model
        assert isinstance(dossier, Dossier)
        known = [v.id for v in dossier.versions]
        if source.version not in known:
            listed = ", ".join(known) if known else "none"
            yield Problem(
                entry.pos(("sources", index, "version")),
                f"dossier '{source.dossier}' has no version '{source.version}'"
                f"{suggest(source.version, known)} (its versions: {listed})",
            )


def _measurements_sourced(entry: Entry, claim: Claim) -> Iterator[Problem]:
    supporting = {s.dossier for s in claim.sources if s.stance == "supports"}
    for index, measurement in enumerate(claim.measurements):
        if measurement.source not in supporting:
            yield Problem(
                entry.pos(("measurements", index, "source")),
                f"a measurement's source must be one of the claim's supporting sources; "
                f"'{measurement.source}' is not (supporting: "
                f"{', '.join(sorted(supporting)) or 'none'})",
            )


# ---------------------------------------------------------------- predictions


@dataclass(frozen=True)
class Prediction:
    """A program's prediction as the claims that test it leave it."""

    status: str  # open | supported | contradicted | mixed
    supporting: list[Entry]
    contradicting: list[Entry]
    pending: list[Entry]  # claims that name the program but rest on no measurement yet


PREDICTION_RULE = (
    "A claim counts when a source supports it with basis measured or stated. No counting claim: "
    "open. All counting claims support the prediction: supported; all contradict it: "
    "contradicted. Both, or a counting claim that is contested: mixed."
)


def prediction(program: Entry, testing: list[Entry]) -> Prediction:
    """The status of `program`'s prediction, computed from the claims whose tests name it."""
    outcomes: dict[str, list[Entry]] = {"supports": [], "contradicts": [], "pending": []}
    contested = False
    for entry in testing:
        assert isinstance(entry.model, Claim)
        claim = entry.model
        counts = any(
            s.stance == "supports" and s.basis in ("measured", "stated") for s in claim.sources
        )
        for test in claim.tests:
            if test.program == program.id:
                outcomes[test.outcome if counts else "pending"].append(entry)
                contested |= counts and claim.label == "contested"
    support, contra = outcomes["supports"], outcomes["contradicts"]
    if contested or (support and contra):
        status = "mixed"
    elif support:
        status = "supported"
    elif contra:
        status = "contradicted"
    else:
        status = "open"
    return Prediction(status, support, contra, outcomes["pending"])


# ---------------------------------------------------------------- tensions

TENSION_STATE_RULE = (
    "A side rests on figures when one of its claims has a supporting source whose figure was "
    "read; on words when its best claim is stated only; on arguments when it is argued only. "
    "Both sides on figures: both sides measured. One side on figures: one side measured. "
    "Neither: both sides argued or stated. A boundary claim on figures is shown beside it; "
    "with none, a named missing variable means the tension waits on it."
)


def side_basis(kinds: list[str]) -> str:
    """What a side rests on, from its claims' kinds of support: 'figures', 'words',
    'arguments' or 'nothing yet'."""
    if "figure read" in kinds:
        return "figures"
    if "stated only" in kinds or "reported only" in kinds:
        return "words"
    if "argued only" in kinds:
        return "arguments"
    return "nothing yet"


def tension_state(sides: list[list[str]], boundary: list[str], missing_variable: bool) -> str:
    """A tension's state, computed from its sides' and boundary's kinds of support."""
    bases = [side_basis(kinds) for kinds in sides]
    measured = [b == "figures" for b in bases]
    others = {"words": "stated only", "arguments": "only argued", "nothing yet": "without claims"}
    if all(measured):
        state = "both sides measured"
    elif any(measured):
        state = f"one side measured, the other {others[bases[measured.index(False)]]}"
    else:
        state = "neither side measured"
    if "figure read" in boundary:
        return f"{state}; a boundary condition measured"
    if missing_variable:
        return f"{state}; waiting on the missing variable"
    return state
