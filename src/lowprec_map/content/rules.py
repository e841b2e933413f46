"""Integrity rules across entries, checked on the linked graph.

These are the map's own standards: the evidence rules (see `evidence.py`),
mutual conflicts, one featured failure mode, ... They run after linking and
report in the same `path:line:col: message` form as every other stage.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from lowprec_map.content.entry import Entry
from lowprec_map.content.evidence import check_evidence
from lowprec_map.content.graph import MapGraph
from lowprec_map.content.people import check_people
from lowprec_map.errors import Problem, Severity, SourcePos
from lowprec_map.registry import REGISTRY, type_name
from lowprec_map.schema.claims import Claim
from lowprec_map.schema.entries import Dossier, FailureMode, ReadingPath, Tension
from lowprec_map.schema.frame import Metric

# Entries of these types are expected to be referenced; unreferenced ones are orphans.
# Labels and perturbations are vocabulary: an unused one shows a gap in the map
# ("no dossier yet"), which is information, not a mistake.
EXPECTED_REFERENCED = ("dossier", "program")

Rule = Callable[[MapGraph], Iterator[Problem]]


def check_rules(graph: MapGraph) -> list[Problem]:
    """Run every integrity rule; warnings carry Severity.WARNING."""
    rules: list[Rule] = [
        check_evidence,
        check_people,
        _conflicts_mutual,
        _tension_sides_differ,
        _dossiers_unique,
        _one_featured_failure_mode,
        _path_orders_unique,
        _page_ids_free,
        _percent_gains_on_ratios,
        _orphans,
    ]
    return [problem for rule in rules for problem in rule(graph)]


def _claims(graph: MapGraph) -> Iterator[tuple[Entry, Claim]]:
    for entry in graph.entries("claim"):
        assert isinstance(entry.model, Claim)
        yield entry, entry.model


def _conflicts_mutual(graph: MapGraph) -> Iterator[Problem]:
    claims = dict((e.id, (e, c)) for e, c in _claims(graph))
    for entry, claim in claims.values():
        for index, other_id in enumerate(claim.conflicts_with):
            pos = entry.pos(("conflicts_with", index))
            if other_id == entry.id:
                yield Problem(pos, "a claim cannot conflict with itself")
            elif other_id in claims and entry.id not in claims[other_id][1].conflicts_with:
                yield Problem(
                    pos,
                    f"conflicts must be mutual: add '{entry.id}' to the conflicts_with "
                    f"of claim '{other_id}'",
                )


def _percent_gains_on_ratios(graph: MapGraph) -> Iterator[Problem]:
    """A percent gain converts to a ratio, so it is printed only on a metric in ×."""
    for entry, claim in _claims(graph):
        for index, m in enumerate(claim.measurements):
            metric = graph.entry(f"metric:{m.metric}") if m.printed else None
            unit = metric.model.unit if metric and isinstance(metric.model, Metric) else "×"
            if unit != "×":
                yield Problem(
                    entry.pos(("measurements", index, "printed")),
                    f"a percent gain converts to a ratio: metric '{m.metric}' is in "
                    f"'{unit}', not '×'",
                )


def _tension_sides_differ(graph: MapGraph) -> Iterator[Problem]:
    """Two different sides; each claim placed once (a side or the boundary); none unplaced."""
    for entry in graph.entries("tension"):
        assert isinstance(entry.model, Tension)
        tension = entry.model
        first, second = tension.sides
        if first.dossier == second.dossier:
            yield Problem(entry.pos(("sides", 1, "dossier")), "a tension's two sides must differ")
        placed: dict[str, str] = {}
        places = [(("sides", i, "claims"), side.claims) for i, side in enumerate(tension.sides)]
        for loc, ids in [*places, (("boundary",), tension.boundary)]:
            for index, claim_id in enumerate(ids):
                where = (
                    "side 1"
                    if loc[:2] == ("sides", 0)
                    else "side 2"
                    if loc[0] == "sides"
                    else "the boundary"
                )
                if claim_id in placed:
                    yield Problem(
                        entry.pos((*loc, index)),
                        f"claim '{claim_id}' is placed twice: on {placed[claim_id]} and on {where}",
                    )
                placed.setdefault(claim_id, where)
        for index, claim_id in enumerate(tension.claims):
            yield Problem(
                entry.pos(("claims", index)),
                f"claim '{claim_id}' is at stake but on no side: move it to a side's claims "
                "or to boundary",
                Severity.WARNING,
            )


def _dossiers_unique(graph: MapGraph) -> Iterator[Problem]:
    seen: dict[tuple[str, str], Entry] = {}
    for entry in graph.entries("dossier"):
        assert isinstance(entry.model, Dossier)
        keys = [("title", " ".join(entry.model.title.casefold().split()))]
        if entry.model.arxiv:
            keys.append(("arxiv", entry.model.arxiv))
        for field, value in keys:
            if (field, value) in seen:
                other = seen[(field, value)]
                yield Problem(
                    entry.pos((field,)),
                    f"dossier '{other.id}' has the same {field}; one work, one dossier",
                )
            else:
                seen[(field, value)] = entry


def _one_featured_failure_mode(graph: MapGraph) -> Iterator[Problem]:
    entries = graph.entries("failure_mode")
    featured = [e for e in entries if isinstance(e.model, FailureMode) and e.model.featured]
    for extra in featured[1:]:
        yield Problem(
            extra.pos(("featured",)),
            f"only one failure mode can be featured; '{featured[0].id}' already is",
        )
    if entries and not featured:
        yield Problem(
            SourcePos(entries[0].path.parent),
            "no failure mode is featured: set 'featured: true' on one",
        )


def _path_orders_unique(graph: MapGraph) -> Iterator[Problem]:
    seen: dict[int, str] = {}
    for entry in graph.entries("path"):
        assert isinstance(entry.model, ReadingPath)
        order = entry.model.order
        if order in seen:
            yield Problem(entry.pos(("order",)), f"order {order} is taken by path '{seen[order]}'")
        seen.setdefault(order, entry.id)


def _page_ids_free(graph: MapGraph) -> Iterator[Problem]:
    for entry in graph.entries("page"):
        if entry.id in REGISTRY.reserved_page_ids:
            yield Problem(SourcePos(entry.path), f"page id '{entry.id}' is reserved for the site")


def _orphans(graph: MapGraph) -> Iterator[Problem]:
    for entry_type in EXPECTED_REFERENCED:
        for entry in graph.entries(entry_type):
            if graph.in_degree(entry) == 0:
                yield Problem(
                    entry.pos(),
                    f"{type_name(entry_type)} '{entry.id}' is not referenced by any other entry",
                    Severity.WARNING,
                )
