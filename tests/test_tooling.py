"""Lint, format and types are part of the suite, and the README cannot drift from the CLI."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys

import pytest
from conftest import REPO

from lowprec_map.cli import make_parser


@pytest.mark.slow
@pytest.mark.parametrize(
    "command",
    [
        ["ruff", "check", "src", "tests", "build.py"],
        ["ruff", "format", "--check", "src", "tests", "build.py"],
        ["mypy"],
    ],
)
def test_tool_is_clean(command: list[str]) -> None:
    exe = shutil.which(command[0], path=str(REPO / ".venv/bin")) or shutil.which(command[0])
    assert exe, f"{command[0]} is not installed: install the [dev] extra"
    result = subprocess.run(
        [sys.executable, "-m", command[0], *command[1:]]
        if command[0] == "mypy"
        else [exe, *command[1:]],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_readme_lists_every_command() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\s+lowprec-map (\w+)", readme, re.MULTILINE))
    subparsers = make_parser()._subparsers
    assert subparsers is not None
    choices = subparsers._group_actions[0].choices
    assert choices is not None
    assert documented == set(choices)


def test_ci_runs_the_readmes_test_command() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = readme.split("<!-- test-command -->", 1)[1].split("```")[1]
    command = block.removeprefix("sh").strip()
    ci_lines = (REPO / ".ci/run").read_text(encoding="utf-8").splitlines()
    assert command in ci_lines


DOCS = ("README.md", "CONTRIBUTING.md", "SECURITY.md")
# A path in backticks or a link target that names a file or folder of the repository
# (entries under content/ are the docs' examples of what `new` writes; `type:id` is prose
# link syntax).
NAMED_PATH = re.compile(
    r"`((?:src|tests|bench|templates|static|schemas|\.ci)/[\w./-]*)`"
    r"|\]\((?!https?:|#)([^):#\s]+)\)"
)


def test_no_file_the_docs_name_is_missing() -> None:
    named = {
        (doc, path.rstrip("/"))
        for doc in DOCS
        for match in NAMED_PATH.finditer((REPO / doc).read_text(encoding="utf-8"))
        for path in match.groups()
        if path and "*" not in path and "<" not in path
    }
    assert len(named) > 10
    missing = sorted((doc, path) for doc, path in named if not (REPO / path).exists())
    assert missing == []
