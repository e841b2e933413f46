"""Load: content files -> raw data plus the source position of every key and value.

The loader knows the content layout (which file holds which entry type) and
YAML, nothing about the schema. It never raises on bad input: each file either
becomes a :class:`RawDoc` or yields :class:`Problem` values with a position.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from lowprec_map import speed
from lowprec_map.errors import Problem, SourcePos

# The C loader is several times faster; the pure-Python one behaves the same.
SafeLoader: type[yaml.SafeLoader] = (
    getattr(yaml, "CSafeLoader", yaml.SafeLoader) if speed.on("c-yaml") else yaml.SafeLoader
)

MAX_FILE_BYTES = 1_000_000
MAX_NODES = 50_000  # bounds alias expansion ("billion laughs") per file
STR_TAG = "tag:yaml.org,2002:str"
_MERGE = object()  # stands for a '<<' key
MAX_DEPTH = 64  # content is shallow; deeper input is hostile and would exhaust the stack
# Characters no output can carry: XML 1.0 forbids them (and HTML, JSON and CSV readers
# choke on them), so a value holding one is an error at its line, not a broken feed.
# After a plain value, ' #' and a digit or a letter is where a value like 'PR #657' was cut.
_CUT_BY_COMMENT = re.compile(r"^[ \t]+#[0-9A-Za-z]")
UNWRITABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")

Loc = tuple[str | int, ...]


@dataclass
class Positions:
    """Where each key and value of one document stands, by key path."""

    path: Path
    keys: dict[Loc, tuple[int, int]] = field(default_factory=dict)
    values: dict[Loc, tuple[int, int]] = field(default_factory=dict)

    def value(self, loc: Loc) -> SourcePos:
        """Position of the value at `loc`, or of its nearest existing parent."""
        return self._lookup(self.values, loc)

    def key(self, loc: Loc) -> SourcePos:
        """Position of the key at `loc` (falls back to the value's position)."""
        if loc in self.keys:
            return self._pos(self.keys[loc])
        return self.value(loc)

    def _lookup(self, table: dict[Loc, tuple[int, int]], loc: Loc) -> SourcePos:
        for end in range(len(loc), -1, -1):
            if loc[:end] in table:
                return self._pos(table[loc[:end]])
        return SourcePos(self.path)

    def _pos(self, line_col: tuple[int, int]) -> SourcePos:
        return SourcePos(self.path, *line_col)


@dataclass
class RawDoc:
    """One content file, parsed but not yet validated."""

    path: Path
    kind: str
    id: str
    data: dict[str, Any]
    positions: Positions
    body: str = ""
    body_line: int = 1


def load_file(
    path: Path, kind: str, problems: list[Problem], raw: bytes | None = None
) -> RawDoc | None:
    """Parse one file (or `raw`, its bytes already read) into a RawDoc; on failure
    append problems and return None."""
    text = _read_text(path, problems, raw)
    if text is None:
        return None
    body, body_line = "", 1
    if kind == "page":
        split = _split_front_matter(path, text, problems)
        if split is None:
            return None
        text, body, body_line = split
    line_offset = 1 if kind == "page" else 0
    parsed = parse_yaml(path, text, problems, line_offset)
    if parsed is None:
        return None
    data, positions = parsed
    return RawDoc(path, kind, path.stem, data, positions, body, body_line)


def _read_text(path: Path, problems: list[Problem], raw: bytes | None) -> str | None:
    # The size is known before reading: a huge (or sparse) file is never read whole.
    size = len(raw) if raw is not None else path.stat().st_size
    if size > MAX_FILE_BYTES:
        problems.append(
            Problem(SourcePos(path), f"file is {size} bytes; the limit is {MAX_FILE_BYTES}")
        )
        return None
    if raw is None:
        raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = raw[: exc.start]
        line = before.count(b"\n") + 1
        col = len(before) - (before.rfind(b"\n") + 1) + 1
        problems.append(
            Problem(SourcePos(path, line, col), f"invalid UTF-8 (byte 0x{raw[exc.start]:02x})")
        )
        return None
    text = text.removeprefix("\ufeff")
    unwritable = UNWRITABLE.search(text)
    if unwritable is not None:  # raw in the file: YAML would reject it too, but not a page body
        problems.append(
            Problem(_text_pos(path, text, unwritable.start()), _unwritable(unwritable[0]))
        )
        return None
    return text


def _split_front_matter(
    path: Path, text: str, problems: list[Problem]
) -> tuple[str, str, int] | None:
    """Split a Markdown page into (front matter, body, first body line)."""
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].rstrip() != "---":
        problems.append(Problem(SourcePos(path), "a page must start with '---' front matter"))
        return None
    for number, line in enumerate(lines[1:], start=1):
        if line.rstrip() == "---":
            return "".join(lines[1:number]), "".join(lines[number + 1 :]), number + 2
    problems.append(Problem(SourcePos(path), "front matter is not closed by a '---' line"))
    return None


def parse_yaml(
    path: Path, text: str, problems: list[Problem], line_offset: int = 0
) -> tuple[dict[str, Any], Positions] | None:
    """Parse YAML text into a mapping and the positions of all its keys and values."""
    tab = _indent_tab(text)
    if tab is not None:
        line, col = tab
        problems.append(
            Problem(SourcePos(path, line + line_offset, col), "tab in indentation; use spaces")
        )
        return None
    node = _compose(path, text, problems, line_offset)
    if node is None:
        return None
    builder = _Builder(path, line_offset, text)
    data = builder.build(node, ())
    problems.extend(builder.problems)
    if builder.problems:
        return None
    if not isinstance(data, dict):
        pos = builder.positions.value(())
        problems.append(Problem(pos, f"expected a mapping of fields, found {_kind(data)}"))
        return None
    return data, builder.positions


def _compose(path: Path, text: str, problems: list[Problem], line_offset: int) -> yaml.Node | None:
    """The document's node tree (aliases not yet expanded), or None with a problem."""
    try:
        loader = SafeLoader(text)
        try:
            node: yaml.Node | None = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        problems.append(_syntax_problem(path, exc, line_offset))
        return None
    except yaml.YAMLError as exc:  # errors without a mark, e.g. from the reader
        problems.append(Problem(SourcePos(path), f"YAML error: {exc}"))
        return None
    except RecursionError:  # the pure-Python parser recurses once per level of nesting
        line, col = _deepest(text)
        message = f"more than {MAX_DEPTH} levels of nesting"
        problems.append(Problem(SourcePos(path, line + line_offset, col), message))
        return None
    if node is None:
        problems.append(Problem(SourcePos(path, 1 + line_offset), "file is empty"))
    return node


TAB_IN_INDENT = re.compile(r"^[ \t]*\t", re.MULTILINE)


def _indent_tab(text: str) -> tuple[int, int] | None:
    match = TAB_IN_INDENT.search(text)
    if match is None:
        return None
    line_start = match.start()  # ^ in MULTILINE mode: the start of the line
    return text.count("\n", 0, line_start) + 1, match.end() - line_start


def _syntax_problem(path: Path, exc: yaml.MarkedYAMLError, line_offset: int) -> Problem:
    mark = exc.problem_mark or exc.context_mark
    line, col = (mark.line + 1 + line_offset, mark.column + 1) if mark else (1, 1)
    what = " ".join(part for part in (exc.context, exc.problem) if part)
    return Problem(SourcePos(path, line, col), f"YAML syntax error: {what}")


def _deepest(text: str) -> tuple[int, int]:
    """Where brackets first open deeper than MAX_DEPTH (line, column), else the start;
    for the error when nesting exhausts the parser (block nesting that deep would be
    thousands of columns of indentation: this names the usual culprit)."""
    depth = 0
    for index, char in enumerate(text):
        depth += (char in "[{") - (char in "]}")
        if depth > MAX_DEPTH:
            return _text_line_col(text, index)
    return 1, 1


def _text_line_col(text: str, index: int) -> tuple[int, int]:
    line_start = text.rfind("\n", 0, index) + 1
    return text.count("\n", 0, index) + 1, index - line_start + 1


def _text_pos(path: Path, text: str, index: int) -> SourcePos:
    return SourcePos(path, *_text_line_col(text, index))


def _unwritable(char: str) -> str:
    return f"character U+{ord(char):04X} is not allowed: no page, feed or data file can hold it"


def _kind(value: object) -> str:
    names = {dict: "a mapping", list: "a list", str: "a string", type(None): "nothing"}
    return names.get(type(value), f"a {type(value).__name__}")


class _Builder:
    """Turns a composed YAML node tree into Python data, recording positions."""

    def __init__(self, path: Path, line_offset: int, text: str = "") -> None:
        self.text = text  # the document, to see what follows a plain value on its line
        self.positions = Positions(path)
        self.problems: list[Problem] = []
        self.line_offset = line_offset
        self.nodes = 0
        self.scalars = SafeLoader("")

    def _mark(self, node: yaml.Node) -> tuple[int, int]:
        return node.start_mark.line + 1 + self.line_offset, node.start_mark.column + 1

    def build(self, node: yaml.Node, loc: Loc) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES or len(loc) > MAX_DEPTH:
            self._too_big(node, loc)
            return None
        self.positions.values[loc] = self._mark(node)
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, loc)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, (*loc, i)) for i, item in enumerate(node.value)]
        return self._scalar(node)

    def _too_big(self, node: yaml.Node, loc: Loc) -> None:
        if any(p.message.startswith("more than") for p in self.problems):
            return  # one report per file is enough
        pos = SourcePos(self.positions.path, *self._mark(node))
        if len(loc) > MAX_DEPTH:
            self.problems.append(Problem(pos, f"more than {MAX_DEPTH} levels of nesting"))
        else:
            self.problems.append(Problem(pos, f"more than {MAX_NODES} values (an alias bomb?)"))

    def _scalar(self, node: yaml.Node) -> Any:
        if node.tag == STR_TAG:  # most values: no constructor needed
            style = getattr(node, "style", None)
            if not style:  # plain: PyYAML says None, libyaml ''
                self._check_cut(node)
            # Only a double-quoted escape ("\x01") can make a character the file itself
            # could not hold (_read_text refuses those in the raw text).
            return self._checked_text(node, node.value) if style == '"' else node.value
        try:
            value = self.scalars.construct_object(node)
        # PyYAML's constructors raise ValueError and others of their own on values such as
        # `2026-02-30` or `!!int abc`: every one is a bad value at its line.
        except Exception as exc:
            pos = SourcePos(self.positions.path, *self._mark(node))
            reason = getattr(exc, "problem", None) or (str(exc).splitlines() or [""])[0]
            reason = reason or type(exc).__name__
            self.problems.append(Problem(pos, f"bad value '{node.value}': {reason}"))
            return None
        if isinstance(value, str) and getattr(node, "style", None) == '"':
            return self._checked_text(node, value)
        return value

    def _check_cut(self, node: yaml.Node) -> None:
        """A plain value followed on its line by ' #657' lost it: YAML reads a comment there,
        so 'PR #657 diff' silently became 'PR'. An error, so nothing is dropped unseen."""
        end = node.end_mark.index
        line_end = self.text.find("\n", end)
        after = self.text[end : line_end if line_end >= 0 else len(self.text)]
        if _CUT_BY_COMMENT.match(after):
            line, col = node.end_mark.line + 1 + self.line_offset, node.end_mark.column + 1
            self.problems.append(
                Problem(
                    SourcePos(self.positions.path, line, col),
                    f"the value '{node.value}' ends here: '{after.strip()}' is read as a "
                    "YAML comment, not as part of it; put the whole value in quotes",
                )
            )

    def _checked_text(self, node: yaml.Node, text: str) -> str | None:
        """`text`, or None with a problem at its character when no output can hold it."""
        unwritable = UNWRITABLE.search(text)
        if unwritable is None:
            return text
        line, col = self._mark(node)  # the value's start: escapes make columns inexact
        self.problems.append(
            Problem(SourcePos(self.positions.path, line, col), _unwritable(unwritable[0]))
        )
        return None

    def _key(self, node: yaml.Node) -> Any:
        if node.tag == "tag:yaml.org,2002:merge":
            return _MERGE
        return self._scalar(node) if isinstance(node, yaml.ScalarNode) else None

    def _mapping(self, node: yaml.MappingNode, loc: Loc) -> dict[str, Any]:
        result: dict[str, Any] = {}
        first_seen: dict[str, int] = {}
        for key_node, value_node in node.value:
            line_col = self._mark(key_node)
            key = self._key(key_node)
            if not isinstance(key, str) or key in first_seen:
                if key is _MERGE:
                    message = "merge keys ('<<') are not supported"
                elif isinstance(key, str):
                    message = f"duplicate key '{key}' (first defined on line {first_seen[key]})"
                else:
                    message = "keys must be plain strings"
                pos = SourcePos(self.positions.path, *line_col)
                self.problems.append(Problem(pos, message))
                continue
            first_seen[key] = line_col[0]
            self.positions.keys[(*loc, key)] = line_col
            result[key] = self.build(value_node, (*loc, key))
        return result
