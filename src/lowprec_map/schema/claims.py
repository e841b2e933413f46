"""The claim model: one checkable statement, its sources and the numbers they give.

A claim's sources say where in a work it stands (`Citation`), what the work does for
it and on what basis (`Source`); its measurements are the numbers as data
(`Measurement`), with how each was read. The label rules that read them are in
`content/evidence.py`.
"""

from __future__ import annotations

import datetime
from typing import Annotated, Literal

from pydantic import Field, model_validator

from lowprec_map.schema.fields import (
    Basis,
    Cites,
    ConflictsWith,
    Dated,
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
    Stance,
    TestsProgram,
    Text,
    VersionId,
    WasLabelled,
)


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
    printed: Literal["percent-gain", "percent-time-cut", "percent-speedup"] | None = Field(
        default=None,
        description="How the source printed a speedup when not as a ratio; `value` or "
        "`range` then hold its N as printed and the map shows the ratio, so a speedup is one "
        "metric however it was printed. `percent-gain`: N % more throughput, or N % faster "
        "(1 + N/100). `percent-time-cut`: N % less time (1 / (1 - N/100)). "
        "`percent-speedup`: an 'N % speedup' that does not say which, shown as the range "
        "between the two readings.",
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
        cuts = self.printed in ("percent-time-cut", "percent-speedup")
        if cuts and max(self.printed_values) >= 100:
            raise ValueError("no time cut reaches 100 %: a gain that large is a 'percent-gain'")
        if self.baseline_range is not None and self.baseline_range[0] > self.baseline_range[1]:
            raise ValueError(f"baseline_range {list(self.baseline_range)} runs from high to low")
        return self

    @property
    def printed_values(self) -> list[float]:
        """The value, or the range's two ends, as the source printed them."""
        return [self.value] if self.value is not None else list(self.range or [])

    @property
    def values(self) -> list[float]:
        """The value or range in the metric's unit: a printed percentage as a ratio."""
        printed = self.printed_values
        if self.printed == "percent-gain":
            return [1 + n / 100 for n in printed]
        if self.printed == "percent-time-cut":
            return [1 / (1 - n / 100) for n in printed]
        if self.printed == "percent-speedup":  # from the rate reading to the time-cut one
            return [1 + printed[0] / 100, 1 / (1 - printed[-1] / 100)]
        return printed

    @property
    def low(self) -> float:
        """The smallest value the measurement states, in the metric's unit."""
        return self.values[0]

    @property
    def high(self) -> float:
        """The largest value the measurement states, in the metric's unit."""
        return self.values[-1]


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
