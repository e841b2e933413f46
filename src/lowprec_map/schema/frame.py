"""The map's frame: site.yaml, evidence.yaml, taxonomy.yaml and people.yaml.

These files hold the landing page's words and the vocabularies entries refer
to (evidence labels, perturbations, metrics, people and groups); the entry models
are in `entries.py`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    Field,
    StringConstraints,
)

from lowprec_map.schema.fields import (
    BaseUrl,
    InGroup,
    InTeam,
    Markdown,
    Model,
    Number,
    Slug,
    Text,
    WebUrl,
)

# ---------------------------------------------------------------- site.yaml


class ResearchQuestion(Model):
    key: Annotated[str, StringConstraints(pattern=r"^[A-Z]$")] = Field(
        description="One capital letter: A, B, ..."
    )
    question: Text = Field(description="The research question, ending in '?'.")


class LoopStage(Model):
    id: Slug = Field(description="Slug naming the stage, unique within the loop.")
    title: Text = Field(description="Short stage name, e.g. 'rollout speed'.")
    detail: Text = Field(description="How numerical error enters or acts at this stage.")


class FeedbackLoop(Model):
    stages: list[LoopStage] = Field(
        min_length=3, description="The stages in loop order; the last feeds the first."
    )
    closing: Markdown = Field(description="Why the loop makes error part of the data.")


class SectionText(Model):
    label: Text = Field(description="Short section name shown after the number, e.g. 'The thesis'.")
    heading: Text = Field(description="The section's headline.")
    lede: Text | None = Field(default=None, description="One line under the headline.")


class LandingSections(Model):
    thesis: SectionText = Field(description="01: thesis and research questions.")
    loop: SectionText = Field(description="02: the feedback loop.")
    tensions: SectionText = Field(description="03: productive tensions.")
    taxonomy: SectionText = Field(description="04: operational taxonomy.")
    dossiers: SectionText = Field(description="05: paper dossiers.")
    claims: SectionText = Field(description="06: claim ledger.")
    failure: SectionText = Field(description="07: the featured failure loop.")
    programs: SectionText = Field(description="08: research programs.")
    paths: SectionText = Field(description="09: reading paths.")


class Thesis(Model):
    title: Text = Field(description="The thesis in one line.")
    body: Markdown = Field(description="What the thesis says, in a paragraph.")


class Site(Model):
    """content/site.yaml: the map's frame and the landing page's words."""

    title: Text = Field(description="Site title, e.g. 'Low-Precision RL'.")
    eyebrow: Text = Field(description="Line above the question, e.g. 'Living research map'.")
    question: Text = Field(description="The question the whole map answers.")
    lede: Markdown = Field(description="The paragraph under the question.")
    description: Text = Field(description="One-sentence description for metadata and feeds.")
    thesis: Thesis = Field(description="The thesis (section 01).")
    research_questions: list[ResearchQuestion] = Field(
        min_length=1, description="Research questions A, B, ..."
    )
    loop: FeedbackLoop = Field(description="The feedback loop (section 02).")
    sections: LandingSections = Field(description="Labels and headings of sections 01-09.")
    repository: WebUrl = Field(description="The source repository's URL.")
    base_url: BaseUrl = Field(
        description="Published root URL, for canonical links, the feed and sitemap "
        "(a missing '/' at its end is added)."
    )


# ---------------------------------------------------------------- evidence.yaml


class EvidenceLabel(Model):
    id: Slug = Field(description="The label's id, used by claims' `label`.")
    name: Text = Field(description="Display name.")
    meaning: Text = Field(description="What a claim with this label asserts about its evidence.")
    how_to_earn: Text = Field(
        description="The rule that earns the label, word for word as `check` enforces it."
    )


class EvidenceFile(Model):
    """content/evidence.yaml: the epistemic labels claims carry."""

    labels: list[EvidenceLabel] = Field(min_length=1, description="The labels, in display order.")


# ---------------------------------------------------------------- taxonomy.yaml


class PerturbationGroup(Model):
    id: Slug = Field(description="The group's id.")
    name: Text = Field(description="Display name, e.g. 'Dense computation'.")
    description: Text = Field(description="Why these perturbations belong together.")


class Perturbation(Model):
    id: Slug = Field(description="The perturbation's id, used by `perturbs` fields.")
    name: Text = Field(description="Display name, e.g. 'KV cache'.")
    group: InGroup = Field(description="The group id this perturbation belongs to.")
    description: Text = Field(description="What is approximated, and where.")


class Domain(Model):
    id: Slug = Field(description="The domain's id, used by dossiers' and measurements' `domain`.")
    name: Text = Field(description="Display name, e.g. 'LLM RL'.")
    description: Text = Field(description="Which works belong to it.")


class Metric(Model):
    id: Slug = Field(description="The metric's id, used by measurements' `metric`.")
    name: Text = Field(description="Display name, e.g. 'Rollout speedup'.")
    unit: Text = Field(description="Unit of its values, e.g. '×', '%', 'points', 'GB'.")
    better: Literal["higher", "lower"] = Field(description="Which direction is better.")
    no_change: Number | None = Field(
        default=None, description="The value that means 'same as the baseline' (1 for ×)."
    )
    description: Text = Field(description="What is measured, against what.")


class TaxonomyFile(Model):
    """content/taxonomy.yaml: what a method perturbs, and the metrics measurements use."""

    groups: list[PerturbationGroup] = Field(min_length=1, description="Groups, in display order.")
    perturbations: list[Perturbation] = Field(
        min_length=1, description="Perturbations, in display order."
    )
    metrics: list[Metric] = Field(default=[], description="Metrics, in display order.")
    domains: list[Domain] = Field(
        default=[], description="Where a work's results come from (LLM RL, diffusion RL...)."
    )


# ---------------------------------------------------------------- people.yaml


class Person(Model):
    id: Slug = Field(description="The person's id, e.g. 'shuai-zhang'.")
    name: Text = Field(description="Their name as they write it, e.g. 'Shuai Zhang'.")
    spellings: list[Text] = Field(
        default=[],
        description="Other ways works write them: a GitHub handle, a transliteration, "
        "initials ('S. Zhang'). Every spelling names one person only.",
    )
    groups: list[InTeam] = Field(
        default=[], description="The labs or teams they work in (group ids)."
    )
    distinct_from: list[Text] = Field(
        default=[],
        description="Spellings that resemble this person's but name someone else: "
        "silences the warning that they may be one person.",
    )
    note: Text | None = Field(
        default=None,
        description="How the spellings are known to name one person (a profile page, a "
        "byline), or that it is inferred and from what.",
    )


class ResearchGroup(Model):
    id: Slug = Field(description="The group's id, e.g. 'radixark-miles'.")
    name: Text = Field(description="The lab or team's name, e.g. 'RadixArk Miles team'.")
    spellings: list[Text] = Field(
        default=[], description="Other ways works sign as it, e.g. 'Miles Team'."
    )
    part_of: Text | None = Field(
        default=None, description="The company or university it belongs to, for readers."
    )


class PeopleFile(Model):
    """content/people.yaml: who did the work, each person and group named once."""

    people: list[Person] = Field(default=[], description="People, each with their spellings.")
    groups: list[ResearchGroup] = Field(default=[], description="Labs and teams.")
