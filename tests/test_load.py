"""The loader: positions of keys and values, and every malformed-file case."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from lowprec_map.content.load import Positions, load_file, parse_yaml
from lowprec_map.content.project import discover
from lowprec_map.errors import Problem


def parse(text: str) -> tuple[tuple[dict[str, Any], Positions] | None, list[str]]:
    problems: list[Problem] = []
    result = parse_yaml(Path("f.yaml"), text, problems)
    return result, [p.format() for p in problems]


def test_positions_of_nested_keys_and_values() -> None:
    result, problems = parse("title: T\nsources:\n  - dossier: qerl\n    locator: Table 2\n")
    assert problems == []
    assert result is not None
    data, positions = result
    assert data == {"title": "T", "sources": [{"dossier": "qerl", "locator": "Table 2"}]}
    assert positions.value(("sources", 0, "dossier")).line == 3
    assert positions.value(("sources", 0, "dossier")).col == 14
    assert positions.key(("sources", 0, "locator")).col == 5
    # An unknown deeper path falls back to its nearest known parent.
    assert positions.value(("sources", 0, "nope")).line == 3


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a: 1\na: 2\n", "f.yaml:2:1: duplicate key 'a' (first defined on line 1)"),
        ("a: [1\n", "f.yaml:2:1: YAML syntax error: while parsing a flow sequence"),
        ("a:\n\tb: 1\n", "f.yaml:2:1: tab in indentation; use spaces"),
        ("a: 1\nb:\n  \tc: 1\n", "f.yaml:3:3: tab in indentation; use spaces"),
        ("", "f.yaml:1:1: file is empty"),
        ("# only a comment\n", "f.yaml:1:1: file is empty"),
        ("- 1\n- 2\n", "f.yaml:1:1: expected a mapping of fields, found a list"),
        ("just text\n", "f.yaml:1:1: expected a mapping of fields, found a string"),
        ("<<: {a: 1}\n", "f.yaml:1:1: merge keys ('<<') are not supported"),
        ("? [a]\n: 1\n", "f.yaml:1:3: keys must be plain strings"),
        ("a: 1\n---\nb: 2\n", "f.yaml:2:1: YAML syntax error: expected a single document"),
    ],
)
def test_malformed_yaml_is_a_positioned_problem(text: str, expected: str) -> None:
    result, problems = parse(text)
    assert result is None
    assert len(problems) == 1
    assert problems[0].startswith(expected)


def test_alias_bomb_is_bounded() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        refs = ", ".join([f"*a{i - 1}"] * 10)
        lines.append(f"a{i}: &a{i} [{refs}]")
    result, problems = parse("\n".join(lines) + "\n")
    assert result is None
    assert problems == [problems[0]] and "alias bomb" in problems[0]


def test_invalid_utf8_names_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_bytes(b"title: ok\nname: caf\xe9\n")
    problems: list[Problem] = []
    assert load_file(path, "claim", problems) is None
    assert [p.format().split(": ", 1)[1] for p in problems] == ["invalid UTF-8 (byte 0xe9)"]
    assert (problems[0].pos.line, problems[0].pos.col) == (2, 10)


def test_front_matter_positions_count_the_opening_line(tmp_path: Path) -> None:
    path = tmp_path / "p.md"
    path.write_text("---\ntitle: A\ndescription: [\n---\nbody\n", encoding="utf-8")
    problems: list[Problem] = []
    assert load_file(path, "page", problems) is None
    assert problems[0].pos.line == 4


def test_unclosed_front_matter(tmp_path: Path) -> None:
    path = tmp_path / "p.md"
    path.write_text("---\ntitle: A\n", encoding="utf-8")
    problems: list[Problem] = []
    assert load_file(path, "page", problems) is None
    assert "not closed" in problems[0].message


def test_layout_problems_are_reported_not_dropped(tmp_path: Path) -> None:
    (tmp_path / "claims").mkdir()
    (tmp_path / "claims" / "Bad_Name.yaml").write_text("a: 1\n")
    (tmp_path / "claims" / "notes.yml").write_text("a: 1\n")
    (tmp_path / "claim").mkdir()
    (tmp_path / ".hidden").write_text("reported: it might be content")
    (tmp_path / ".DS_Store").write_text("ignored: known litter")
    (tmp_path / "claims" / "draft.yaml~").write_text("ignored: a backup")
    problems: list[Problem] = []
    discover(tmp_path, problems)
    messages = sorted(p.message for p in problems)
    assert messages == [
        "expected a .yaml file in claims/",
        "file name 'Bad_Name' is not a valid id: use lowercase letters, digits and hyphens, "
        "starting with a letter or digit",
        "unexpected file '.hidden'",
        "unexpected folder 'claim' (did you mean 'claims'?)",
    ]
