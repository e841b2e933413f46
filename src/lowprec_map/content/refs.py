"""References: where an entry names another, found from the schema's markers.

A field marked `RefTo` in the models holds an id of another entry; a prose
field may link to entries as `[text](type:id)`. Nothing here knows the entry
types: the plan for each model class is read from its annotations once.
"""

from __future__ import annotations

import functools
import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from lowprec_map.content.entry import Entry
from lowprec_map.content.load import Loc
from lowprec_map.registry import REGISTRY
from lowprec_map.schema.fields import Prose, RefTo


@dataclass(frozen=True)
class Reference:
    """A reference found in an entry: which entry it names, and where it stands."""

    target_type: str
    target_id: str
    relation: str
    loc: Loc
    offset: int | None = None  # character offset of a link inside a prose field


def iter_refs(model: BaseModel, loc: Loc = ()) -> Iterator[Reference]:
    """Every reference inside `model`: RefTo-marked fields, and entry links in prose fields."""
    for name, annotation, ref, prose in _field_plan(type(model)):
        value = getattr(model, name)
        if prose and isinstance(value, str):
            yield from mentions(value, (*loc, name))
        else:
            yield from _walk(value, annotation, ref, (*loc, name))


def mentions(text: str, loc: Loc) -> Iterator[Reference]:
    """`[text](type:id)` links in Markdown, as references with relation 'mentions'."""
    for match in REGISTRY.mention.finditer(text):
        kind = match.group(1).replace("-", "_")
        yield Reference(kind, match.group(2), "mentions", loc, match.start(2))


@functools.cache
def _field_plan(model: type[BaseModel]) -> tuple[tuple[str, Any, RefTo | None, bool], ...]:
    """Per model class, once: the fields that can hold references (plain text, dates and
    numbers are skipped), each with its annotation, reference marker and prose flag."""
    plan = (
        (
            name,
            field.annotation,
            _ref_marker(field.metadata) or _ref_in_annotation(field.annotation),
            _is_prose(field.metadata, field.annotation),
        )
        for name, field in model.model_fields.items()
    )
    return tuple(p for p in plan if p[2] or p[3] or _may_refer(p[1]))


@functools.cache
def reference_fields(model: type[BaseModel]) -> dict[str, str]:
    """Per model class, once: each field that holds a reference (an id, or a list of
    ids) -> the entry type it names. Nested models and prose links are not included."""
    found: dict[str, str] = {}
    for name, annotation, ref, _ in _field_plan(model):
        marker = ref or _item_plan(annotation)[1]
        if marker is not None:
            found[name] = marker.target
    return found


def _may_refer(annotation: Any) -> bool:
    """True when a value of this type can hold a reference: a RefTo anywhere inside it,
    or a pydantic model with such a field."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return bool(_field_plan(annotation))
    if typing.get_origin(annotation) is typing.Annotated and _ref_marker(
        list(annotation.__metadata__)
    ):
        return True
    return any(_may_refer(arg) for arg in typing.get_args(annotation))


def _is_prose(metadata: list[Any], annotation: Any) -> bool:
    if any(isinstance(m, Prose) for m in metadata):
        return True
    return any(  # Markdown | None
        typing.get_origin(arg) is typing.Annotated
        and any(isinstance(m, Prose) for m in arg.__metadata__)
        for arg in typing.get_args(annotation)
    )


def refs_of(entry: Entry) -> list[Reference]:
    """An entry's references, found once per entry object (serve reuses unchanged ones)."""
    found = entry.derived.get("refs")
    if not isinstance(found, list):
        found = [*iter_refs(entry.model), *mentions(entry.body, ("body",))]  # body: a page's
        entry.derived["refs"] = found
    return found


def _walk(value: Any, annotation: Any, ref: RefTo | None, loc: Loc) -> Iterator[Reference]:
    if ref is not None and isinstance(value, str):
        yield Reference(ref.target, value, ref.relation, loc)
    elif isinstance(value, BaseModel):
        yield from iter_refs(value, loc)
    elif isinstance(value, list):
        item, item_ref = _item_plan(annotation)
        for index, element in enumerate(value):
            yield from _walk(element, item, item_ref, (*loc, index))


@functools.cache
def _item_plan(annotation: Any) -> tuple[Any, RefTo | None]:
    item = _item_annotation(annotation)
    return item, _ref_in_annotation(item)


def _ref_marker(metadata: list[Any]) -> RefTo | None:
    return next((m for m in metadata if isinstance(m, RefTo)), None)


def _ref_in_annotation(annotation: Any) -> RefTo | None:
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _ref_marker(list(annotation.__metadata__))
    if origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(annotation):
            found = _ref_in_annotation(arg)
            if found:
                return found
    return None


def _item_annotation(annotation: Any) -> Any:
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        annotation = next(a for a in typing.get_args(annotation) if a is not type(None))
    args = typing.get_args(annotation)
    return args[0] if args else Any
