"""Field types shared by the content models: ids, text, URLs, references, vocabularies.

A field that refers to another entry is typed with one of the reference
aliases below; their :class:`RefTo` marker is what the linker reads to build
the graph, so nothing else needs to know which fields are references.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    model_validator,
)

from lowprec_map.schema.locators import checked_locator

SLUG_PATTERN = r"^[a-z0-9][a-z0-9-]*$"


@dataclass(frozen=True)
class RefTo:
    """Marks a field as a reference to an entry of `target` type via `relation`."""

    target: str
    relation: str


Slug = Annotated[str, StringConstraints(pattern=SLUG_PATTERN, max_length=80)]
# A number a source gives: finite, and within what a chart's axis and a reader can take
# (NaN, infinities and magnitudes past 10^12 are errors at their line, not a crashed build).
Number = Annotated[float, Field(allow_inf_nan=False, ge=-1e12, le=1e12)]
# Parameters in billions: from one parameter (1e-9) to a hundred trillion (1e5).
ModelSize = Annotated[float, Field(allow_inf_nan=False, ge=1e-9, le=1e5)]
# Text holds something to read: at least one character that is not white space (a blank
# author would merge with the next one in BibTeX, and a blank title names nothing).
Text = Annotated[str, StringConstraints(min_length=1, max_length=400, pattern=r"\S")]


@dataclass(frozen=True)
class Prose:
    """Marks a Markdown field: links like `[QeRL](dossier:qerl)` in it are references."""


Markdown = Annotated[
    str, StringConstraints(min_length=1, max_length=20_000, pattern=r"\S"), Prose()
]
# No space, quote, angle bracket, brace, backslash, caret, backtick or bar: RFC 3986 allows
# none of them in a URL, and each could close a value in some export (HTML, BibTeX).
WebUrl = Annotated[
    str,
    StringConstraints(pattern=r"^https?://[^\s/?#\"<>{}|\\^`]+[^\s\"<>{}|\\^`]*$", max_length=500),
]


def folder_url(url: str) -> str:
    """`url` ending in one '/', as a base URL must: pages are joined onto it."""
    return url.rstrip("/") + "/"


# Where the site is published; normalised to end in '/'.
BaseUrl = Annotated[WebUrl, AfterValidator(folder_url)]
ArxivId = Annotated[str, StringConstraints(pattern=r"^\d{4}\.\d{4,5}$")]
# A locator says where in a source a statement stands, so a reader can check it: it names
# a place (schema/locators.py), and its kind is derived from how it is written.
Locator = Annotated[
    str, StringConstraints(min_length=1, max_length=200), AfterValidator(checked_locator)
]

Cites = Annotated[Slug, RefTo("dossier", "cites")]
RelatesTo = Annotated[Slug, RefTo("dossier", "relates-to")]
HasSide = Annotated[Slug, RefTo("dossier", "side")]
LabelledAs = Annotated[Slug, RefTo("evidence", "labelled")]
WasLabelled = Annotated[Slug, RefTo("evidence", "label-history")]
ConflictsWith = Annotated[Slug, RefTo("claim", "conflicts-with")]
AboutClaim = Annotated[Slug, RefTo("claim", "about")]
BacksSide = Annotated[Slug, RefTo("claim", "backs-side")]
InProgram = Annotated[Slug, RefTo("program", "in-program")]
Perturbs = Annotated[Slug, RefTo("perturbation", "perturbs")]
InGroup = Annotated[Slug, RefTo("group", "in-group")]
InTeam = Annotated[Slug, RefTo("research_group", "in-team")]
ByGroup = Annotated[Slug, RefTo("research_group", "by-group")]
Measures = Annotated[Slug, RefTo("metric", "measures")]
InDomain = Annotated[Slug, RefTo("domain", "in-domain")]
MeasuredIn = Annotated[Slug, RefTo("dossier", "measured-in")]
TestsProgram = Annotated[Slug, RefTo("program", "tests")]
# A version of a work as its source names it: 'v1', 'v2' on arXiv; 'tmlr' for a venue's.
VersionId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9.-]*$", max_length=40)]

# What a source does for a claim (after scite's citation stances).
Stance = Literal["supports", "contrasts", "mentions"]
# What the source's part rests on: its own run with the figure at the locator (measured), its
# own result in words only (stated), a figure repeated from elsewhere (reported), reasoning.
Basis = Literal["measured", "stated", "reported", "argued"]

Tensor = Literal[
    "weights",
    "activations",
    "kv-cache",
    "attention",
    "logits",
    "router",
    "ratio",
    "gradients",
    "optimizer-state",
    "master-weights",
    "lora-adapters",
]
NumberFormat = Literal[
    "fp32",
    "bf16",
    "fp16",
    "fp8",
    "fp8-e4m3",
    "fp8-e5m2",
    "mxfp8",
    "int8",
    "int4",
    "nvfp4",
    "mxfp4",
    "nf4",
    "low-bit",
    "unstated",  # the source does not say which format; better than a guess
]


class Model(BaseModel):
    """Strict base: unknown fields are errors, values are never coerced silently."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


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
