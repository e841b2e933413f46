"""Editor support: JSON Schemas from the models, and `new` skeleton entries.

A skeleton is generated from the model, so it cannot drift from the schema:
each field gets its description as a comment, required fields get a value that
validates (ids are taken from the existing content), optional fields are left
commented out.
"""

from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel

from lowprec_map.content.graph import MapGraph
from lowprec_map.content.project import SCHEMA_DIR, SLUG
from lowprec_map.registry import LIST_FILE_MODELS, REGISTRY
from lowprec_map.schema.fields import Model
from lowprec_map.site.exports import map_schema


def schema_models() -> dict[str, type[Model]]:
    """Schema file name -> model: one per content file type."""
    return {
        "site": REGISTRY.by_name["site"].model,
        **{name.removesuffix(".yaml"): model for name, model in LIST_FILE_MODELS.items()},
        **{t.name: t.model for t in REGISTRY.page_types},
    }


class ScaffoldError(Exception):
    """`new` cannot write the entry (bad id, existing file, missing prerequisites)."""


def write_schemas(out: Path) -> list[Path]:
    """Write one JSON Schema per content file type into `out`; returns the paths."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, model in schema_models().items():
        path = out / f"{name}.json"
        path.write_text(schema_text(model), encoding="utf-8")
        written.append(path)
    data_schema = out / "map-data.json"  # the schema of the published /data/map.json
    data_schema.write_text(map_schema(), encoding="utf-8")
    return [*written, data_schema]


def schema_text(model: type[BaseModel]) -> str:
    """A model's JSON Schema, stably formatted."""
    schema = model.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def new_entry(graph: MapGraph, content: Path, type_name: str, entry_id: str) -> Path:
    """Write a skeleton entry that validates as written; refuses to overwrite."""
    if type_name not in REGISTRY.by_slug:
        known = ", ".join(REGISTRY.by_slug)
        raise ScaffoldError(f"unknown type '{type_name}'; choose from {known}")
    if not SLUG.fullmatch(entry_id):
        raise ScaffoldError(
            f"'{entry_id}' is not a valid id: use lowercase letters, digits and hyphens"
        )
    entry_type = REGISTRY.by_slug[type_name]
    kind, folder = entry_type.name, str(entry_type.folder)
    path = content / folder / f"{entry_id}{entry_type.suffix}"
    if path.exists():
        raise ScaffoldError(f"{path} already exists; not overwriting it")
    text = _skeleton(kind, entry_id, graph, folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _skeleton(kind: str, entry_id: str, graph: MapGraph, folder: str) -> str:
    model = REGISTRY.by_name[kind].model
    values = _example_values(kind, entry_id, graph)
    lines = [f"# {kind.replace('_', ' ')} '{entry_id}': {(model.__doc__ or '').strip()}"]
    if kind == "page":
        lines = ["---", *lines]
    else:
        lines.insert(0, f"# yaml-language-server: $schema=../../{SCHEMA_DIR}/{kind}.json")
    for name, field in model.model_fields.items():
        lines.append(f"# {field.description}")
        if name in values:
            lines.append(_dump({name: values[name]}))
        else:
            lines.append("# " + _dump({name: None}).replace("null", "...").rstrip())
    if kind == "page":
        lines += ["---", "Write the page here, in Markdown.", ""]
    return "\n".join(line.rstrip("\n") for line in lines) + "\n"


def _dump(data: dict[str, Any]) -> str:
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100).rstrip("\n")


@dataclass(frozen=True)
class _Existing:
    """The content a new entry joins, as the skeletons ask about it (`skeletons.Existing`)."""

    graph: MapGraph
    title: str
    today: datetime.date

    def ids(self, entry_type: str) -> list[str]:
        return [e.id for e in self.graph.entries(entry_type)]

    def require(self, present: bool, what: str) -> None:
        if not present:
            raise ScaffoldError(f"add {what} first: a new entry of this type needs it")

    def first(self, entry_type: str, what: str) -> str:
        ids = self.ids(entry_type)
        self.require(bool(ids), f"a {what}")
        return ids[0]


def _example_values(kind: str, entry_id: str, graph: MapGraph) -> dict[str, Any]:
    """Values for the required fields, valid against the models and the current content:
    the registry's skeleton of the type, and the dates."""
    today = datetime.date.today()
    skeleton = REGISTRY.by_name[kind].skeleton
    existing = _Existing(graph, entry_id.replace("-", " ").capitalize(), today)
    values = skeleton(existing) if skeleton else {}
    return {**values, "added": today, "updated": today, "draft": True}
