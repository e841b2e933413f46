"""Views: arrangements of graph data that several pages share.

The graph answers cross-reference questions; this module only orders and
groups its answers for display (conflict pairs in the ledger, the
papers × tensors matrix, the taxonomy, the search text, what changed).
"""

from __future__ import annotations

import math
import re
import textwrap
import typing
from collections import Counter
from dataclasses import dataclass
from typing import NamedTuple

from lowprec_map.content.entry import Entry
from lowprec_map.registry import REGISTRY
from lowprec_map.schema.claims import Claim, LabelChange, Measurement
from lowprec_map.schema.entries import Dossier
from lowprec_map.schema.fields import Dated, Tensor
from lowprec_map.site.reads import Reader

TENSOR_ORDER: tuple[str, ...] = typing.get_args(Tensor)


def ledger_groups(claims: list[Entry]) -> list[list[Entry]]:
    """Claims grouped so that conflicting claims stand side by side.

    Each group is a set of claims connected by `conflicts_with` (restricted to
    `claims`), in id order; groups are ordered by their first claim's id. Read from
    each claim's own field: the page read the claims already.
    """
    by_id = {c.id: c for c in claims}
    seen: set[str] = set()
    groups: list[list[Entry]] = []
    for claim in claims:
        if claim.id in seen:
            continue
        group, stack = [], [claim]
        while stack:
            current = stack.pop()
            if current.id in seen:
                continue
            seen.add(current.id)
            group.append(current)
            assert isinstance(current.model, Claim)
            stack.extend(
                by_id[other]
                for other in current.model.conflicts_with
                if other in by_id and other not in seen
            )
        groups.append(sorted(group, key=lambda e: e.id))
    return groups


def in_file_order(entries: list[Entry]) -> list[Entry]:
    """Entries of a list file (labels, metrics) in the order the file gives them, which is
    their display order; the graph lists every type by id."""
    return sorted(entries, key=lambda e: e.loc)


def label_counts(reader: Reader) -> list[tuple[Entry, int]]:
    """Each evidence label with the number of claims that carry it, in display order."""
    return [
        (label, reader.count_backlinks(label, "claim", "labelled"))
        for label in in_file_order(reader.entries("evidence"))
    ]


Taxonomy = list[tuple[Entry, list[tuple[Entry, list[Entry], list[Entry]]]]]


def taxonomy(reader: Reader, dossiers: list[Entry]) -> Taxonomy:
    """Groups -> perturbations -> the dossiers that perturb each, in the order of
    `dossiers`, and the core ones among them."""
    dossier_order = {e.key: i for i, e in enumerate(dossiers)}
    result = []
    for group in reader.entries("group"):
        members = []
        for perturbation in reader.backlinks(group, "perturbation"):
            perturbing = sorted(
                reader.backlinks(perturbation, "dossier"), key=lambda d: dossier_order[d.key]
            )
            core = [d for d in perturbing if isinstance(d.model, Dossier) and d.model.core]
            members.append((perturbation, perturbing, core))
        result.append((group, members))
    return result


@dataclass(frozen=True)
class PathCell:
    """The formats of one tensor in one dossier, by side."""

    rollout: str
    trainer: str

    @property
    def same(self) -> bool:
        return self.rollout == self.trainer


def numerical_matrix(dossiers: list[Entry]) -> tuple[list[str], list[dict[str, PathCell]]]:
    """Columns (tensors used by any dossier, in schema order) and one row per dossier."""
    rows: list[dict[str, PathCell]] = []
    used: set[str] = set()
    for entry in dossiers:
        assert isinstance(entry.model, Dossier)
        sides: dict[str, dict[str, list[str]]] = {}
        for step in entry.model.numerical_path:
            cell = sides.setdefault(step.tensor, {"rollout": [], "trainer": []})
            for side in ("rollout", "trainer") if step.where == "both" else (step.where,):
                cell[side].append(step.format)
        rows.append(
            {
                tensor: PathCell("/".join(s["rollout"]) or "–", "/".join(s["trainer"]) or "–")
                for tensor, s in sides.items()
            }
        )
        used.update(sides)
    return [t for t in TENSOR_ORDER if t in used], rows


def search_text(entry: Entry) -> str:
    """Lower-cased text a search matches against: the id and the fields the registry says
    the type is searched by (names, authors, summaries)."""
    parts = [entry.id]
    for path in REGISTRY.by_name[entry.type].naming.search:
        value: object = entry.model
        for name in path.split("."):
            value = getattr(value, name)
        if isinstance(value, str):
            parts.append(value)
        elif isinstance(value, list):
            parts.extend(v for v in value if isinstance(v, str))
    return " ".join(parts).casefold()


@dataclass(frozen=True)
class RingNode:
    """One stage of the feedback-loop diagram: its centre and the arc to the next stage."""

    number: int
    x: float
    y: float
    arc: str  # SVG path from this node toward the next, along the ring


def ring_layout(count: int, radius: float = 130, centre: float = 170) -> list[RingNode]:
    """Stages evenly spaced on a circle, starting at the top, clockwise, with arcs between."""
    gap = 0.32  # radians left free around each node for its circle
    nodes = []
    for index in range(count):
        start = 2 * math.pi * index / count - math.pi / 2
        end = 2 * math.pi * (index + 1) / count - math.pi / 2
        x, y = centre + radius * math.cos(start), centre + radius * math.sin(start)
        ax = centre + radius * math.cos(start + gap)
        ay = centre + radius * math.sin(start + gap)
        bx = centre + radius * math.cos(end - gap)
        by = centre + radius * math.sin(end - gap)
        arc = f"M {ax:.1f} {ay:.1f} A {radius:.0f} {radius:.0f} 0 0 1 {bx:.1f} {by:.1f}"
        nodes.append(RingNode(index + 1, round(x, 1), round(y, 1), arc))
    return nodes


def title_field(entry_type: str) -> str:
    """The field an entry of `entry_type` is named by (the registry's `Naming`)."""
    return REGISTRY.by_name[entry_type].naming.title


def summary_field(entry_type: str) -> str | None:
    """The field that describes an entry of `entry_type` in a sentence, if any."""
    return REGISTRY.by_name[entry_type].naming.summary


def entry_title(entry: Entry) -> str:
    """The plain-text name an entry is shown by (a dossier's short name, a claim's statement)."""
    return _text(entry, title_field(entry.type)) or entry.id


def page_title(entry: Entry) -> str:
    """The title of an entry's page: its naming's page-title field, or a short form of
    its name cut at a word (a claim's statement)."""
    naming = REGISTRY.by_name[entry.type].naming
    title = _text(entry, naming.page_title or naming.title) or entry.id
    if naming.short is None or len(title) <= naming.short:
        return title
    return label_start(title, naming.short - 1) + "…"


def _text(entry: Entry, name: str | None) -> str:
    """The entry's field `name` as text ('' if it has none)."""
    # vars(): a pydantic model answers a missing attribute slowly (it raises inside),
    # and this runs for every link on every page.
    value = vars(entry.model).get(name) if name else None
    return value if isinstance(value, str) else ""


def sorted_entries(entries: list[Entry]) -> list[Entry]:
    """Entries of one type in the order the registry gives that type (then by id)."""
    if not entries:
        return entries
    order = REGISTRY.by_name[entries[0].type].order
    return sorted(entries, key=lambda e: (*order(e.model), e.id))


def recently_updated(reader: Reader) -> list[Entry]:
    """Entries with dates, most recently updated first (then by key, for stable order)."""
    dated_types = [t.name for t in REGISTRY.page_types if issubclass(t.model, Dated)]
    dated = [e for t in dated_types for e in reader.entries(t)]
    return sorted(dated, key=_newest_first)


def _newest_first(entry: Entry) -> tuple[int, str]:
    assert isinstance(entry.model, Dated)
    return -entry.model.updated.toordinal(), entry.key


BeliefChange = tuple[Entry, LabelChange]


def belief_changes(reader: Reader) -> list[BeliefChange]:
    """Every dated change of a claim's evidence label, newest first."""
    changes: list[BeliefChange] = []
    for entry in reader.entries("claim"):
        assert isinstance(entry.model, Claim)
        changes.extend((entry, change) for change in entry.model.history)
    return sorted(changes, key=lambda pair: (pair[1].date, pair[0].id), reverse=True)


def entry_summary(entry: Entry) -> str:
    """One sentence describing an entry, for metadata, feeds and cards (a claim's statement)."""
    return _text(entry, summary_field(entry.type))


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")


def first_sentence(markdown: str) -> str:
    """The first sentence of a Markdown paragraph, as plain text (for previews)."""
    text = " ".join(markdown.replace("`", "").split())
    return _SENTENCE_END.split(text, maxsplit=1)[0]


def label_start(name: str, limit: int) -> str:
    """The whole words of `name` that fit in `limit` characters (all of it if it fits)."""
    if len(name) <= limit:
        return name
    words = name[: limit + 1].split(" ")[:-1] or [name[:limit]]
    # A bracket opened and not closed reads as a fragment (and accessibility checkers
    # then fail to find the label in the name): end before it.
    while len(words) > 1 and "".join(words).count("(") > "".join(words).count(")"):
        words.pop()
    return " ".join(words).rstrip(",;:")


def label_lines(name: str, width: int, lines: int) -> list[str]:
    """`name` wrapped at spaces into at most `lines` lines of about `width` characters;
    a name too long for them ends at the last whole word that fits."""
    wrapped = textwrap.wrap(name, width, break_long_words=False, break_on_hyphens=False)
    if len(wrapped) > lines:
        wrapped[lines - 1] = label_start(" ".join(wrapped[lines - 1 :]), width)
    return wrapped[:lines]


class Row(NamedTuple):
    """One measurement, named by the claim that carries it and its place in the claim's list
    (templates draw a row as a card of the claim, so it is drawn once wherever it shows)."""

    claim: Entry
    position: int  # of the measurement in the claim's list

    @property
    def measurement(self) -> Measurement:
        """The measurement itself."""
        assert isinstance(self.claim.model, Claim)
        return self.claim.model.measurements[self.position]


def measurement_rows(claims: list[Entry]) -> list[Row]:
    """Every measurement of `claims`, in their order and then in each claim's order; a
    draft's placeholders never count."""
    rows: list[Row] = []
    for claim in claims:
        assert isinstance(claim.model, Claim)
        if claim.draft:
            continue
        rows.extend(Row(claim, i) for i in range(len(claim.model.measurements)))
    return rows


def measurement_domain(measurement: Measurement, dossier: Entry) -> str:
    """A measurement's domain id: its own, or else its dossier's."""
    if measurement.domain is not None:
        return measurement.domain
    assert isinstance(dossier.model, Dossier)
    return dossier.model.domain


def domain_counts(reader: Reader) -> list[tuple[Entry, int]]:
    """Every domain, in taxonomy order, with how many measurements come from it."""
    counts: Counter[str] = Counter()
    for row in measurement_rows(reader.entries("claim")):
        m = row.measurement
        counts[measurement_domain(m, reader.get("dossier", m.source))] += 1
    return [(d, counts[d.id]) for d in in_file_order(reader.entries("domain"))]
