"""A mistake in a template is a positioned error: file and line, exit 1, the old site kept."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import REPO, MakeProject, tree

from lowprec_map.cli import main

# (template, text, mistake, the line the error must name, words the message must hold)
MISTAKES = [
    (
        "claim.html",
        "card(claim_card, o, 'h3')",
        "card(claim_crd, o, 'h3')",
        23,
        "'claim_crd' is undefined",
    ),
    ("claim.html", "{{ model.statement }}", "{{ model.statment }}", 6, "no attribute 'statment'"),
    ("dossier.html", "|human_date }}", "|humane_date }}", 7, "No filter named 'humane_date'"),
    (
        "dossier.html",
        "block main %}",
        "block mian %}",
        3,
        "block 'mian' is not in base.html (did you mean 'main'?)",
    ),
    (
        "partials/macros.html",
        '<a href="{{ e|url }}">{{ entry_title(e) }}</a>',
        '<a href="{{ e|url }}">{{ entry_titel(e) }}</a>',
        4,
        "'entry_titel' is undefined",
    ),
    ("index.html", "{% endfor %}", "{% endfro %}", 25, "unknown tag 'endfro'"),
]


@pytest.mark.parametrize(
    ("name", "text", "mistake", "line", "words"), MISTAKES, ids=[m[2] for m in MISTAKES]
)
def test_a_template_mistake_is_one_positioned_line(
    make_project: MakeProject,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    name: str,
    text: str,
    mistake: str,
    line: int,
    words: str,
) -> None:
    content = make_project().content
    templates = tmp_path / "templates"
    shutil.copytree(REPO / "templates", templates)
    out = tmp_path / "site"
    theme = ["--templates", str(templates), "--static", str(REPO / "static")]
    assert main(["build", "--content", str(content), *theme, "--out", str(out)]) == 0
    before = tree(out)
    capsys.readouterr()
    source = (templates / name).read_text(encoding="utf-8")
    assert text in source
    # The first occurrence only, so the line the error names is the one mistyped.
    replaced = source.replace(text, mistake, 1).replace("endblock mian", "endblock main")
    if "block mian" in mistake:  # a whole block misnamed, its end tag too
        replaced = replaced.replace("endblock main", "endblock mian")
    (templates / name).write_text(replaced, encoding="utf-8")
    assert main(["build", "--content", str(content), *theme, "--out", str(out)]) == 1
    err = capsys.readouterr().err
    first = err.splitlines()[0]
    assert first.startswith(f"{templates / name}:{line}:"), err
    assert words in first
    assert "Traceback" not in err and len(err.splitlines()) == 2  # the problem, the summary
    assert tree(out) == before
