"""The content schema: one pydantic model per entry type.

These models are the documentation of the YAML: every field carries a
description, and `lowprec-map schema` turns them into JSON Schema. Shared
field types (ids, references, vocabularies) live in `fields.py`.
"""

from __future__ import annotations

import datetime
from typing import Annotated, Literal

from pydantic import Field, StringConstraints, model_validator

from lowprec_map.schema.fields import (
    AboutClaim,
    ArxivId,
    Basis,
    ByGroup,
    Cites,
    ConflictsWith,
    HasSide,
    InDomain,
    InProgram,
    LabelledAs,
    Locator,
    Markdown,
    MeasuredIn,
    Measures,
    Model,
    ModelSize,
    Number,
    NumberFormat,
    Perturbs,
    RefTo,
    RelatesTo,
    Slug,
    Stance,
    Tensor,
    TestsProgram,
    Text,
    VersionId,
    WasLabelled,
    WebUrl,
)


class Dated(Model):
    """Entries carry when they were added and last updated, for the feed and /changes/."""

    added: datetime.date = Field(description="When the entry was added to the map (YYYY-MM-DD).")
    updated: datetime.date = Field(description="When its content last changed (YYYY-MM-DD).")
    draft: bool = Field(
        default=False,
        description="A draft (as `new` writes it): `serve` shows it with a banner, `build` "
        "leaves it out and `check --strict` fails while it remains. Delete the line to publish.",
    )

    @model_validator(mode="after")
    def _updated_after_added(self) -> Dated:
        if self.updated < self.added:
            raise ValueError(f"updated ({self.updated}) is before added ({self.added})")
        return self


# ---------------------------------------------------------------- dossiers/


class Regime(Model):
    models: list[Text] = Field(min_length=1, description="Models trained, e.g. 'Qwen3-8B-Base'.")
    algorithms: list[Text] = Field(min_length=1, description="RL algorithms, e.g. 'GRPO'.")
    tasks: list[Text] = Field(min_length=1, description="Training and evaluation tasks.")
    lengths: Text | None = Field(default=None, description="Rollout / response lengths.")
    framework: Text | None = Field(default=None, description="Trainer and rollout engine.")
    hardware: Text | None = Field(default=None, description="Accelerators used.")


class NumericalStep(Model):
    tensor: Tensor = Field(description="Which tensor or quantity.")
    where: Literal["rollout", "trainer", "both"] = Field(
        description="Rollout engine, trainer, or the same format on both."
    )
    format: NumberFormat = Field(description="Number format it is held or computed in.")
    detail: Text | None = Field(default=None, description="Granularity, scales, caveats.")


class Relation(Model):
    kind: Literal["extends", "challenges", "replicates", "complements", "precedes"] = Field(
        description="How this work relates to the other."
    )
    dossier: RelatesTo = Field(description="The other dossier's id.")
    note: Text = Field(description="The relation in one sentence.")


class Version(Model):
    id: VersionId = Field(description="The version's name as the work gives it: 'v1', 'v2'.")
    date: datetime.date = Field(description="When this version appeared (YYYY-MM-DD).")
    changes: Text = Field(
        description="What it changed: title, authors, numbers ('first version' for v1)."
    )


class Dossier(Dated):
    """content/dossiers/<id>.yaml: one paper (or report) as evidence."""

    title: Text = Field(description="Exact title of the work.")
    short_name: Annotated[str, StringConstraints(min_length=1, max_length=40)] = Field(
        description="Name used on cards and in tensions, e.g. 'QeRL'."
    )
    authors: list[Text] = Field(
        min_length=1,
        description="Authors in the order of the work, as it prints them (a person, a "
        "handle, or a team that signs as one). people.yaml says who each spelling names.",
    )
    contributors: list[Text] = Field(
        default=[],
        description="People the work names as having done it beyond its byline, e.g. the "
        "per-team names of a post signed by teams. They count for independence as authors do.",
    )
    groups: list[ByGroup] = Field(
        default=[],
        description="The labs or teams the work comes from (people.yaml group ids), when "
        "its authors do not say so themselves.",
    )
    date: datetime.date = Field(
        description="By one convention: a paper's first version's submission date; a blog or "
        "docs page's publication date, or the revision read; a PR's or issue's opening date."
    )
    date_proxy: Text | None = Field(
        default=None,
        description="When `date` is not the convention's date: what it is instead (inferred "
        "from..., the revision read, the announcement), so a reader knows.",
    )
    domain: InDomain = Field(
        description="Where its results come from (taxonomy.yaml `domains`): LLM RL, diffusion "
        "or image RL, classic deep RL, inference or serving only."
    )
    venue: Text | None = Field(default=None, description="Venue, when published at one.")
    kind: Literal["paper", "blog", "docs", "report"] = Field(description="What the work is.")
    read: Literal["full-text", "abstract", "partial"] = Field(
        description="How much of the work the map's editors have checked against the source."
    )
    arxiv: ArxivId | None = Field(default=None, description="arXiv id, e.g. '2510.11696'.")
    url: WebUrl = Field(description="Canonical URL of the work.")
    code: WebUrl | None = Field(default=None, description="Code repository URL.")
    core: bool = Field(default=False, description="True for the map's core dossiers.")
    summary: Text = Field(description="One sentence for cards.")
    programs: list[InProgram] = Field(default=[], description="Research program ids.")
    perturbs: list[Perturbs] = Field(min_length=1, description="Perturbation ids.")
    regime: Regime = Field(description="Where the results hold.")
    result: Markdown = Field(description="Main results with exact numbers and locators.")
    limitation: Markdown = Field(description="What the work does not show.")
    numerical_path: list[NumericalStep] = Field(
        min_length=1, description="Which tensor is in which format, on which side."
    )
    relations: list[Relation] = Field(default=[], description="Relations to other dossiers.")
    versions: list[Version] = Field(
        default=[], description="The work's versions, oldest first, when it has more than one."
    )

    @model_validator(mode="after")
    def _versions_in_order(self) -> Dossier:
        ids = [v.id for v in self.versions]
        if len(set(ids)) != len(ids):
            raise ValueError("each version id appears once")
        dates = [v.date for v in self.versions]
        if dates != sorted(dates):
            raise ValueError("versions are listed oldest first")
        return self


# ---------------------------------------------------------------- claims/


class Citation(Model):
    dossier: Cites = Field(description="The dossier the evidence comes from.")
    locator: Locator = Field(
        description="Exact place: 'Tab. 2', 'Fig. 4', '§5.1', 'App. D', 'Abstract'; a blog's or "
        "docs page's section ('Blog, § Results'); a PR's or issue's description, a comment with "
        "its date ('PR comment of 2025-12-02') or a commit with its hash."
    )
    version: VersionId | None = Field(
        default=None, description="The version the locator refers to (one of the dossier's)."
    )
    note: Text | None = Field(default=None, description="What exactly this source shows.")


class Source(Citation):
    stance: Stance = Field(
        description="What the source does for the claim: supports, contrasts or mentions it."
    )
    basis: Basis = Field(
        description="measured: the work ran it and its figure (a number, a table, a plot) "
        "stands at the locator and was read there; stated: the work reports its own result "
        "there in words only, with no figure; reported: it repeats a figure from elsewhere; "
        "argued: reasoning, motivation or a design aim, no run."
    )
    origin: Text | None = Field(
        default=None, description="For a reported figure: where it comes from, when known."
    )


class Setting(Model):
    task: Text | None = Field(default=None, description="Task or benchmark, e.g. 'GSM8K'.")
    length: Text | None = Field(default=None, description="Prompt / response length.")
    batch: Text | None = Field(default=None, description="Batch size or rollout group.")


class Measurement(Model):
    metric: Measures = Field(description="Metric id (see taxonomy.yaml `metrics`).")
    value: Number | None = Field(default=None, description="The number, in the metric's unit.")
    range: Annotated[list[Number], Field(min_length=2, max_length=2)] | None = Field(
        default=None, description="[low, high], when the source gives a range."
    )
    baseline: Text = Field(description="What it is compared with, e.g. 'BF16 rollout'.")
    model: Text = Field(description="The model, as the source names it.")
    size_b: ModelSize | None = Field(
        default=None, description="Parameters in billions (total, for MoE)."
    )
    format: NumberFormat = Field(description="The number format measured.")
    setting: Setting | None = Field(default=None, description="Task, length, batch.")
    baseline_value: Number | None = Field(
        default=None,
        description="The baseline's own value in the metric's unit, when the source gives it "
        "(a KL of 0.0006 in BF16 against which the FP8 run is compared).",
    )
    baseline_range: Annotated[list[Number], Field(min_length=2, max_length=2)] | None = Field(
        default=None, description="[low, high] of the baseline, when the source gives a range."
    )
    source: MeasuredIn = Field(description="The dossier; one of the claim's supporting sources.")
    locator: Locator = Field(description="Where the number stands in the source.")
    read_from: Literal["text", "table", "plot"] = Field(
        description="How the number was read: printed in the text, in a table, or off a plot "
        "(approximate, shown with ≈)."
    )
    domain: InDomain | None = Field(
        default=None, description="Where it comes from, when not its dossier's `domain`."
    )
    note: Text | None = Field(default=None, description="How it was read or recomputed.")

    @model_validator(mode="after")
    def _value_or_range(self) -> Measurement:
        if (self.value is None) == (self.range is None):
            raise ValueError("give either a value or a range")
        if self.range is not None and self.range[0] > self.range[1]:
            raise ValueError(f"range {list(self.range)} runs from high to low")
        if self.baseline_value is not None and self.baseline_range is not None:
            raise ValueError("give the baseline's value or its range, not both")
        if self.baseline_range is not None and self.baseline_range[0] > self.baseline_range[1]:
            raise ValueError(f"baseline_range {list(self.baseline_range)} runs from high to low")
        return self

    @property
    def low(self) -> float:
        """The smallest value the measurement states."""
        return self.value if self.value is not None else self.range[0]  # type: ignore[index]

    @property
    def high(self) -> float:
        """The largest value the measurement states."""
        return self.value if self.value is not None else self.range[1]  # type: ignore[index]


class Test(Model):
    program: TestsProgram = Field(description="The research program whose prediction it bears on.")
    outcome: Literal["supports", "contradicts"] = Field(
        description="Whether the claim supports or contradicts the prediction."
    )


class LabelChange(Model):
    date: datetime.date = Field(description="When the map's belief changed (YYYY-MM-DD).")
    was: WasLabelled | None = Field(default=None, description="The label before; none when new.")
    now: WasLabelled = Field(description="The label after the change.")
    why: Text = Field(description="What evidence moved the label.")


class Claim(Dated):
    """content/claims/<id>.yaml: one atomic, checkable statement."""

    statement: Text = Field(description="The claim, checkable against its sources.")
    label: LabelledAs = Field(description="Evidence label id (see evidence.yaml).")
    sources: list[Source] = Field(
        default=[], description="Sources with exact locators, stance and basis."
    )
    mechanism: Text | None = Field(
        default=None, description="The mechanism a 'mechanistic' claim names."
    )
    refuted_if: Text | None = Field(
        default=None, description="For a hypothesis: the result that would refute it."
    )
    measurements: list[Measurement] = Field(
        default=[], description="The numbers the sources give, as data."
    )
    tests: list[Test] = Field(
        default=[], description="Programs whose prediction this claim supports or contradicts."
    )
    scope: Text | None = Field(default=None, description="The regime the claim holds in.")
    conflicts_with: list[ConflictsWith] = Field(
        default=[], description="Claims this one conflicts with (must be mutual)."
    )
    programs: list[InProgram] = Field(default=[], description="Research program ids.")
    perturbs: list[Perturbs] = Field(default=[], description="Perturbation ids.")
    note: Markdown | None = Field(default=None, description="Caveats, arithmetic, context.")
    history: list[LabelChange] = Field(
        default=[], description="Dated changes of the evidence label, oldest first."
    )

    @model_validator(mode="after")
    def _history_ends_at_label(self) -> Claim:
        if self.history and self.history[-1].now != self.label:
            raise ValueError(
                f"history ends at '{self.history[-1].now}', but label is '{self.label}'"
            )
        for change in self.history:
            if change.was == change.now:
                raise ValueError(f"history entry of {change.date} does not change the label")
            if change.date > self.updated:
                raise ValueError(
                    f"history entry of {change.date} is after updated ({self.updated})"
                )
        return self


# ---------------------------------------------------------------- tensions/


class Side(Model):
    dossier: HasSide = Field(description="The dossier on this side.")
    position: Text = Field(description="What this side reports.")


class Tension(Dated):
    """content/tensions/<id>.yaml: two works that pull against each other."""

    title: Text = Field(
        description="The question in dispute, e.g. 'Entropy: exploration or failure?'."
    )
    kind: Literal["versus", "progression"] = Field(
        description="'versus': the sides disagree; 'progression': the later qualifies the first."
    )
    sides: list[Side] = Field(min_length=2, max_length=2, description="Exactly two sides.")
    summary: Markdown = Field(description="The tension in a short paragraph.")
    boundary_candidates: list[Text] = Field(
        default=[], description="Variables that may separate the two results."
    )
    missing_variable: Text | None = Field(
        default=None, description="The variable neither side controls."
    )
    claims: list[AboutClaim] = Field(default=[], description="Claims at stake.")
    programs: list[InProgram] = Field(default=[], description="Programs that could settle it.")

    @model_validator(mode="after")
    def _needs_a_boundary(self) -> Tension:
        if not self.boundary_candidates and self.missing_variable is None:
            raise ValueError("give boundary_candidates or a missing_variable")
        return self


# ---------------------------------------------------------------- failure_modes/


class ChainStep(Model):
    title: Text = Field(description="The step in a few words.")
    detail: Text = Field(description="What happens at this step.")


class Mitigation(Model):
    title: Text = Field(description="The mitigation's name.")
    detail: Text = Field(description="What it does and what it costs.")
    dossier: Cites | None = Field(default=None, description="Where it is proposed or tested.")


class FailureMode(Dated):
    """content/failure_modes/<id>.yaml: a named mechanism as an ordered chain."""

    title: Text = Field(description="The failure mode's name.")
    summary: Text = Field(description="The mechanism in one sentence.")
    featured: bool = Field(default=False, description="Shown on the landing page (exactly one).")
    steps: list[ChainStep] = Field(min_length=2, description="The causal chain, in order.")
    sources: list[Citation] = Field(min_length=1, description="Where the mechanism is documented.")
    mitigations: list[Mitigation] = Field(default=[], description="Known mitigations.")
    perturbs: list[Perturbs] = Field(default=[], description="Perturbation ids involved.")
    claims: list[AboutClaim] = Field(default=[], description="Claims that bear on it.")


# ---------------------------------------------------------------- programs/


class Program(Dated):
    """content/programs/<id>.yaml: a question that can become an experiment."""

    title: Text = Field(description="The program's name.")
    question: Text = Field(description="The research question.")
    test: Markdown = Field(description="The discriminating experiment.")
    prediction: Text = Field(description="A falsifiable prediction.")
    evidence_note: Text | None = Field(
        default=None,
        description="What the evidence does and does not show yet. The status itself is "
        "computed from the claims whose `tests` name this program.",
    )


# ---------------------------------------------------------------- paths/


class PathStep(Model):
    stage: Text | None = Field(default=None, description="A stage label, e.g. 'failure'.")
    dossier: Annotated[Slug, RefTo("dossier", "step")] | None = Field(
        default=None, description="A dossier id."
    )
    claim: Annotated[Slug, RefTo("claim", "step")] | None = Field(
        default=None, description="A claim id."
    )
    tension: Annotated[Slug, RefTo("tension", "step")] | None = Field(
        default=None, description="A tension id."
    )
    failure_mode: Annotated[Slug, RefTo("failure_mode", "step")] | None = Field(
        default=None, description="A failure mode id."
    )
    program: Annotated[Slug, RefTo("program", "step")] | None = Field(
        default=None, description="A research program id."
    )
    page: Annotated[Slug, RefTo("page", "step")] | None = Field(
        default=None, description="A page id."
    )
    note: Text | None = Field(default=None, description="Why this step, what to look for.")

    @model_validator(mode="after")
    def _one_target(self) -> PathStep:
        named = sum(getattr(self, kind) is not None for kind in STEP_TARGETS)
        if named > 1:
            raise ValueError("a step names at most one entry")
        if named == 0 and self.stage is None:
            raise ValueError("a step names an entry or a stage")
        return self


# The fields of a path step that name an entry (at most one per step).
STEP_TARGETS = tuple(name for name in PathStep.model_fields if name not in ("stage", "note"))


class ReadingPath(Dated):
    """content/paths/<id>.yaml: an ordered way into the map."""

    title: Text = Field(description="The question the path answers.")
    order: int = Field(ge=1, le=10_000, description="Position among reading paths (1, 2, ...).")
    summary: Text = Field(description="What the reader will understand at the end.")
    steps: list[PathStep] = Field(min_length=2, description="The steps, in reading order.")


# ---------------------------------------------------------------- pages/


class Page(Dated):
    """content/pages/<id>.md front matter; the Markdown body follows it."""

    title: Text = Field(description="Page title.")
    description: Text = Field(description="One sentence for metadata and cards.")
    order: int = Field(
        default=50, ge=1, le=10_000, description="Position in the footer navigation."
    )
    shows: list[Literal["label-rules", "evidence-depth", "data-files", "people"]] = Field(
        default=[],
        description="Computed panels shown after the body: the evidence labels and the "
        "rules that earn them ('label-rules'); where sources point and how much was read "
        "('evidence-depth'); every data file the site publishes ('data-files'); how many "
        "people and groups the map knows, and which replicated claims a group tells apart "
        "('people').",
    )
