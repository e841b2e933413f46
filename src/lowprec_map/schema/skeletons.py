"""What `lowprec-map new` writes for each type: the required fields, with placeholder
values that validate against the models and the content as it is.

Each function takes what it needs to know of the existing content (`Existing`) and
returns the fields; the registry names the function of each type, and
`dev/scaffold.py` writes the file (dates, the draft mark and comments).
"""

from __future__ import annotations

import datetime
from typing import Any, Protocol


class Existing(Protocol):
    """What a skeleton may ask of the content it is added to."""

    @property
    def title(self) -> str:
        """A title made from the new entry's id."""

    @property
    def today(self) -> datetime.date:
        """The day the entry is made."""

    def ids(self, entry_type: str) -> list[str]:
        """The ids of the existing entries of `entry_type`."""

    def require(self, present: bool, what: str) -> None:
        """Stop `new`, asking the editor to add `what` first, unless `present`."""

    def first(self, entry_type: str, what: str) -> str:
        """The id of an existing entry of `entry_type` (else `new` stops, naming `what`)."""


def dossier(existing: Existing) -> dict[str, Any]:
    """A work with placeholders to replace and one valid perturbation from the taxonomy."""
    return {
        "title": existing.title,
        "short_name": existing.title,
        "authors": ["First Author"],
        "date": existing.today,
        "kind": "paper",
        "domain": existing.first("domain", "domain to taxonomy.yaml"),
        "read": "abstract",
        "url": "https://arxiv.org/abs/0000.00000",
        "summary": "One sentence for cards.",
        "perturbs": [existing.first("perturbation", "perturbation to taxonomy.yaml")],
        "regime": {"models": ["TODO"], "algorithms": ["TODO"], "tasks": ["TODO"]},
        "result": "Main results with exact numbers and locators (Tab. N).",
        "limitation": "What the work does not show.",
        "numerical_path": [{"tensor": "weights", "where": "rollout", "format": "fp8"}],
    }


def claim(existing: Existing) -> dict[str, Any]:
    """A 'measured' claim: one source that measured it, and its number as data."""
    existing.require(
        "measured" in existing.ids("evidence"), "the label 'measured' to evidence.yaml"
    )
    work = existing.first("dossier", "dossier")
    source = {"dossier": work, "locator": "Table 1", "stance": "supports", "basis": "measured"}
    values: dict[str, Any] = {
        "statement": "One checkable statement.",
        "label": "measured",
        "sources": [source],
    }
    metrics = existing.ids("metric")
    if metrics:
        values["measurements"] = [
            {
                "metric": metrics[0],
                "value": 1.0,
                "baseline": "What it is compared with.",
                "model": "The model, as the source names it.",
                "format": "unstated",
                "source": work,
                "locator": "Table 1",
                "read_from": "table",
            }
        ]
    return values


def tension(existing: Existing) -> dict[str, Any]:
    """Two sides, each a work and its position."""
    works = existing.ids("dossier")[:2]
    existing.require(len(works) == 2, "two dossiers: a tension is between two works")
    return {
        "title": f"{existing.title}?",
        "kind": "versus",
        "sides": [{"dossier": d, "position": "What this side reports."} for d in works],
        "summary": "The tension in a short paragraph.",
        "missing_variable": "TODO",
    }


def failure_mode(existing: Existing) -> dict[str, Any]:
    """A mechanism in two steps, with one source."""
    return {
        "title": existing.title,
        "summary": "The mechanism in one sentence.",
        "steps": [
            {"title": "First step", "detail": "What happens."},
            {"title": "Second step", "detail": "What follows."},
        ],
        "sources": [{"dossier": existing.first("dossier", "dossier"), "locator": "Abstract"}],
    }


def program(existing: Existing) -> dict[str, Any]:
    """A question, its discriminating test and a falsifiable prediction."""
    return {
        "title": existing.title,
        "question": "The research question?",
        "test": "The experiment.",
        "prediction": "A falsifiable prediction.",
    }


def path(existing: Existing) -> dict[str, Any]:
    """A reading path after the existing ones, from a first stage to a last."""
    return {
        "title": f"{existing.title}?",
        "order": 1 + len(existing.ids("path")),
        "summary": "What the reader will understand at the end.",
        "steps": [{"stage": "start"}, {"stage": "finish"}],
    }


def page(existing: Existing) -> dict[str, Any]:
    """A prose page: its title and one sentence for metadata."""
    return {"title": existing.title, "description": "One sentence for metadata."}
