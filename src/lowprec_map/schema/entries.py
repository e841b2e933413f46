"""The content schema: one pydantic model per entry type (claims in `claims.py`).

These models are the documentation of the YAML: every field carries a
description, and `lowprec-map schema` turns them into JSON Schema. Shared
field types (ids, references, vocabularies) live in `fields.py`.
"""

from __future__ import annotations

import datetime
from typing import Annotated, Literal

from pydantic import Field, StringConstraints, model_validator

from lowprec_map.schema.claims import Citation
from lowprec_map.schema.fields import (
    AboutClaim,
    ArxivId,
    BacksSide,
    ByGroup,
    Cites,
    Dated,
    HasSide,
    InDomain,
    InProgram,
    Markdown,
    Model,
    NumberFormat,
    Perturbs,
    RefTo,
    RelatesTo,
    Slug,
    Tensor,
    Text,
    VersionId,
    WebUrl,
)

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


# ---------------------------------------------------------------- tensions/


class Side(Model):
    dossier: HasSide = Field(description="The dossier on this side.")
    position: Text = Field(description="What this side reports.")
    claims: list[BacksSide] = Field(
        default=[],
        description="The claims that back this side's position (whoever's work they come from).",
    )


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
    boundary: list[AboutClaim] = Field(
        default=[],
        description="Claims that bear on the boundary between the sides: a condition under "
        "which one side or the other holds, or the missing variable.",
    )
    claims: list[AboutClaim] = Field(
        default=[],
        description="Claims at stake not yet placed on a side or on the boundary (a warning: "
        "place each one).",
    )
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
