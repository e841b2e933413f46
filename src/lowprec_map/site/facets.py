"""The claim ledger's facets: what each claim is, by kind of support, what it perturbs,
number format and research program, with how many claims carry each value.

Each claim card carries its values as data attributes (`facet_values`), so the ledger's
script can combine facets in place; without JavaScript every claim stays listed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from lowprec_map.content.entry import Entry
from lowprec_map.content.evidence import SUPPORT_KINDS, support_kind
from lowprec_map.schema.claims import Claim
from lowprec_map.site.reads import Reader
from lowprec_map.site.views import in_file_order

FACET_PARAMS = ("support", "perturbs", "format", "program")


@dataclass(frozen=True)
class Facet:
    """One facet of the ledger: its URL parameter, its name, and its values in display
    order, each (value, name, how many claims carry it)."""

    param: str
    name: str
    values: list[tuple[str, str, int]]


def facet_values(claim: Claim) -> dict[str, list[str]]:
    """A claim's value (or values) for each facet, as its card's data attributes carry them."""
    formats: list[str] = sorted({m.format for m in claim.measurements})
    return {
        "support": [support_kind(claim).replace(" ", "-")],
        "perturbs": list(claim.perturbs),
        "format": formats,
        "program": list(claim.programs),
    }


def ledger_facets(reader: Reader) -> list[Facet]:
    """The facets of the whole ledger, with counts over every claim."""
    counts: dict[str, Counter[str]] = {
        p: Counter() for p in ("support", "perturbs", "format", "program")
    }
    for entry in reader.entries("claim"):
        assert isinstance(entry.model, Claim)
        for param, values in facet_values(entry.model).items():
            counts[param].update(values)
    kinds = [*SUPPORT_KINDS.values(), "no support"]
    support = [(k.replace(" ", "-"), k, counts["support"][k.replace(" ", "-")]) for k in kinds]
    perturbations = in_file_order(reader.entries("perturbation"))
    return [
        Facet("support", "Kind of support", [v for v in support if v[2]]),
        Facet("perturbs", "What it perturbs", _named(perturbations, counts["perturbs"])),
        Facet("format", "Number format", [(f, f, n) for f, n in sorted(counts["format"].items())]),
        Facet("program", "Research program", _named(reader.entries("program"), counts["program"])),
    ]


def _named(entries: list[Entry], counts: Counter[str]) -> list[tuple[str, str, int]]:
    return [(e.id, _name(e), counts[e.id]) for e in entries if counts[e.id]]


def _name(entry: Entry) -> str:
    return str(getattr(entry.model, "name", None) or getattr(entry.model, "title", entry.id))
