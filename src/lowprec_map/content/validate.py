"""Validate: raw documents -> typed entries, or problems at path:line:col.

pydantic does the checking; this module turns its error locations back into
source positions and its messages into ones an editor can act on.
"""

from __future__ import annotations

import re
import types
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from lowprec_map.content.entry import Entry
from lowprec_map.content.load import Loc, Positions, RawDoc
from lowprec_map.errors import Problem, SourcePos, suggest
from lowprec_map.registry import REGISTRY
from lowprec_map.schema.fields import SLUG_PATTERN, Model

PATTERN_HINTS = {
    SLUG_PATTERN: "is not a valid id: use lowercase letters, digits and hyphens",
    r"^\d{4}\.\d{4,5}$": "is not an arXiv id like '2510.11696'",
    r"^https?://": "is not an http(s) URL",
    r"^(Abstract": "is not a locator: start with Table, Fig., §, Appendix, Eq., Abstract, ...",
    r"^[A-Z]$": "must be one capital letter",
    r"\S": "is blank: write something besides white space",
}


@dataclass
class ValidateResult:
    entries: list[Entry]
    problems: list[Problem]
    # 'type:id' of entries that exist but failed validation: references to them
    # are not reported again as unknown ids.
    invalid: set[str] = field(default_factory=set)


def missing_required(kinds: set[str], content_root: Path) -> list[Problem]:
    """Problems for required files (site, evidence, taxonomy) that are absent."""
    return [
        Problem(SourcePos(content_root / name), f"required file {name} is missing")
        for name, kind in REGISTRY.single_files.items()
        if kind not in kinds and name in REGISTRY.required_files
    ]


def validate_doc(doc: RawDoc) -> ValidateResult:
    """Validate one document (one entry, or each item of a list file)."""
    result = ValidateResult([], [], set())
    if doc.kind in REGISTRY.list_files:
        _validate_list_file(doc, result)
        return result
    entry = _validate_one(doc.kind, doc.id, doc.data, doc.positions, (), result)
    if entry is not None:
        result.entries.append(
            Entry(entry.type, entry.id, entry.model, doc.positions, (), doc.body, doc.body_line)
        )
    return result


def _validate_list_file(doc: RawDoc, result: ValidateResult) -> None:
    """Check the file's shape, then each list item as its own entry."""
    file_model, lists = REGISTRY.list_files[doc.kind]
    try:
        file_model.model_validate(doc.data)
    except ValidationError as exc:
        # Report shape errors only; item errors are reported per item below.
        result.problems.extend(
            _problem(err, doc.positions, file_model, ())
            for err in exc.errors()
            if len(err["loc"]) < 2 or err["loc"][0] not in lists
        )
    for field_name, entry_type in lists.items():
        items = doc.data.get(field_name)
        if not isinstance(items, list):
            continue
        seen: dict[str, int] = {}
        for index, item in enumerate(items):
            loc: Loc = (field_name, index)
            if not isinstance(item, dict):
                continue  # reported by the file model
            entry_id = item.get("id")
            entry = _validate_one(entry_type, str(entry_id), item, doc.positions, loc, result)
            if entry is None:
                continue
            if entry.id in seen:
                message = f"duplicate id '{entry.id}' (first at item {seen[entry.id] + 1})"
                result.problems.append(Problem(entry.pos(("id",)), message))
                continue
            seen[entry.id] = index
            result.entries.append(entry)


def _validate_one(  # noqa: PLR0917 - private helper; every argument is positional context
    kind: str,
    entry_id: str,
    data: dict[str, Any],
    positions: Positions,
    loc: Loc,
    result: ValidateResult,
) -> Entry | None:
    model_cls = REGISTRY.by_name[kind].model
    try:
        model = model_cls.model_validate(data)
    except ValidationError as exc:
        result.problems.extend(_problem(err, positions, model_cls, loc) for err in exc.errors())
        result.invalid.add(f"{kind}:{entry_id}")
        return None
    return Entry(kind, entry_id, model, positions, loc)


def _problem(err: ErrorDetails, positions: Positions, model: type[Model], prefix: Loc) -> Problem:
    """Turn one pydantic error into a positioned, editor-friendly problem."""
    loc: Loc = tuple(err["loc"])
    where = _dotted(loc)
    kind = err["type"]
    if kind == "extra_forbidden":
        name = str(loc[-1])
        hint = " (the id is the file name)" if name == "id" and not prefix else ""
        hint = hint or suggest(name, _fields_at(model, loc[:-1]))
        return Problem(positions.key((*prefix, *loc)), f"unknown field '{where}'{hint}")
    if kind == "missing":
        return Problem(positions.value((*prefix, *loc[:-1])), f"missing field '{where}'")
    pos = positions.value((*prefix, *loc))
    value = err.get("input")
    if kind == "literal_error":
        expected = re.findall(r"'([^']*)'", str(err.get("ctx", {}).get("expected", "")))
        shown = ", ".join(expected)
        message = f"{where}: '{value}' is not one of {shown}{suggest(str(value), expected)}"
        return Problem(pos, message)
    if kind == "string_pattern_mismatch":
        pattern = str(err.get("ctx", {}).get("pattern", ""))
        pattern_hint = next((h for p, h in PATTERN_HINTS.items() if pattern.startswith(p)), None)
        if pattern_hint:
            return Problem(pos, f"{where}: '{value}' {pattern_hint}")
    detail = err["msg"].removeprefix("Value error, ")
    return Problem(pos, f"{where}: {detail}" if where else detail)


def _dotted(loc: Loc) -> str:
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else f".{part}" if text else str(part)
    return text


def _fields_at(model: type[BaseModel], loc: Loc) -> list[str]:
    """Field names of the (nested) model that sits at `loc`, for suggestions."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        field = current.model_fields.get(part) if _is_model(current) else None
        if field is None:
            return []
        current = _inner_model(field.annotation)
    return list(current.model_fields) if _is_model(current) else []


def _is_model(obj: Any) -> bool:
    return isinstance(obj, type) and issubclass(obj, BaseModel)


def _inner_model(annotation: Any) -> Any:
    """The model class inside list[...], X | None or Annotated[...], if any."""
    if _is_model(annotation):
        return annotation
    origin = typing.get_origin(annotation)
    if origin in (list, tuple, typing.Union, types.UnionType, typing.Annotated):
        for arg in typing.get_args(annotation):
            inner = _inner_model(arg)
            if inner is not None:
                return inner
    return None
