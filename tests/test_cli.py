"""The command line: exit codes, messages word for word, no tracebacks."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import MINIMAL, REPO, MakeProject, beside, run_cli

from lowprec_map.cli import main
from lowprec_map.content.check import check
from lowprec_map.site.pages import plan_pages

TYPO_CLAIM = "statement: S.\nlabel: measured\nsources:\n  - dossier: alpah\n    locator: Table 1\n    stance: supports\n    basis: measured\n"


def test_check_clean_exits_zero_with_summary(
    make_project: MakeProject, capsys: pytest.CaptureFixture[str]
) -> None:
    project = make_project()
    assert main(["check", "--content", str(project.content)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ok: 2 dossiers, 3 claims, 1 tension, 1 failure mode, 1 research program")


@pytest.mark.slow
def test_check_typo_prints_position_and_suggestion(
    make_project: MakeProject, tmp_path: Path
) -> None:
    make_project({"claims/new.yaml": TYPO_CLAIM})
    result = run_cli("check", "--content", "content", cwd=tmp_path)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert (
        lines[0] == "content/claims/new.yaml:4:14: unknown dossier 'alpah' (did you mean 'alpha'?)"
    )
    assert lines[1:] == ["failed: 1 error(s), 0 warning(s)"]


def test_check_json_format(make_project: MakeProject, capsys: pytest.CaptureFixture[str]) -> None:
    project = make_project({"claims/new.yaml": TYPO_CLAIM})
    assert main(["check", "--content", str(project.content), "--format", "json"]) == 1
    problems = json.loads(capsys.readouterr().out)
    errors = [p for p in problems if p["severity"] == "error"]
    assert len(errors) == 1
    assert (errors[0]["line"], errors[0]["col"]) == (4, 14)
    assert errors[0]["path"].endswith("claims/new.yaml")


def test_strict_turns_warnings_into_failure(make_project: MakeProject) -> None:
    orphan = (MINIMAL / "dossiers/beta.yaml").read_text().replace("Beta paper", "Delta paper")
    project = make_project({"dossiers/delta.yaml": orphan})
    assert main(["check", "--content", str(project.content)]) == 0
    assert main(["check", "--content", str(project.content), "--strict"]) == 1


@pytest.mark.slow
def test_usage_errors_exit_two(make_project: MakeProject, tmp_path: Path) -> None:
    assert run_cli("frobnicate", cwd=tmp_path).returncode == 2
    project = make_project()
    result = run_cli(
        "build", "--content", str(project.content), "--out", str(project.content), cwd=REPO
    )
    assert result.returncode == 2
    assert result.stderr.startswith("lowprec-map: error: output folder")
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_build_py_builds_by_default(make_project: MakeProject, tmp_path: Path) -> None:
    project = make_project()
    out = tmp_path / "site"
    result = run_cli("--content", str(project.content), "--out", str(out), cwd=REPO)
    assert result.returncode == 0, result.stderr
    specs = plan_pages(check(project.content).graph)
    pages = sum(1 for spec in specs if not spec.url.endswith(".xml"))
    files = sum(1 for path in out.rglob("*") if path.is_file())
    assert result.stdout.startswith(f"built {pages} pages ({files} files) from 2 dossiers")
    assert sum(1 for _ in out.rglob("*.html")) == pages


@pytest.mark.slow
def test_template_error_names_the_template_line(make_project: MakeProject, tmp_path: Path) -> None:
    project = make_project()
    templates = tmp_path / "templates"
    shutil.copytree(project.templates, templates)
    page = templates / "page.html"
    page.write_text(page.read_text().replace("{{ model.title }}", "{{ model.no_such_field }}"))
    result = run_cli(
        "build",
        "--content",
        str(project.content),
        "--templates",
        str(templates),
        "--static",
        str(project.static),
        "--out",
        str(tmp_path / "out"),
        cwd=tmp_path,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    line = next(
        n for n, text in enumerate(page.read_text().splitlines(), 1) if "no_such_field" in text
    )
    assert f"templates/page.html:{line}:1: template error:" in result.stderr
    assert "no_such_field" in result.stderr


@pytest.mark.slow
def test_an_unwritable_output_folder_is_an_error_not_a_traceback(
    make_project: MakeProject, tmp_path: Path
) -> None:
    project = make_project()
    (tmp_path / "a-file").write_text("not a folder")
    theme = ["--templates", str(project.templates), "--static", str(project.static)]
    result = run_cli("--content", "content", *theme, "--out", "a-file/site", cwd=tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("lowprec-map: error: File exists: ")  # a-file is no folder
    assert str(tmp_path / "a-file") in result.stderr
    assert result.stderr.rstrip().endswith("; a-file/site left unchanged")
    assert beside(tmp_path) == ["a-file", "content"]
