"""Attacks on the parts built after the first hostile round: math, numbers and dates,
the exports, the output folder, concurrent builds, templates and the command line.

One test per defect class (each failed before its fix), then a property test that
puts generated hostile text and numbers into every prose, Markdown and measurement
field and checks every output format. serve's recovery is attacked in test_serve.py.
"""

from __future__ import annotations

import datetime
import json
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import bibtexparser
import pytest
import yaml
from bs4 import BeautifulSoup
from conftest import MINIMAL, REPO, MakeProject, run_cli, tree
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from pylatexenc.latex2text import LatexNodes2Text
from site_checks import (
    assert_no_csv_formula,
    assert_pages_hold_only_what_templates_and_prose_write,
    assert_strict_json,
    assert_xml_parses,
    bibtex_works,
    template_pairs,
)

from lowprec_map.content import load
from lowprec_map.content.check import check
from lowprec_map.content.project import Project
from lowprec_map.errors import ContentError, Problem
from lowprec_map.pipeline import build


def a_project(root: Path) -> Path:
    """A copy of the minimal map with its own theme under `root`; returns `root`."""
    shutil.copytree(MINIMAL, root / "content")
    shutil.copytree(REPO / "templates", root / "templates")
    shutil.copytree(REPO / "static", root / "static")
    return root


def claim_with(source_note: str | None = None, **fields: object) -> str:
    """A valid claim citing alpha, with `fields` added or replaced."""
    source = {"dossier": "alpha", "locator": "Table 1", "stance": "supports", "basis": "measured"}
    if source_note is not None:
        source["note"] = source_note
    claim: dict[str, object] = {"statement": "S.", "label": "measured", "sources": [source]}
    claim.update(fields)
    return yaml.safe_dump(claim, allow_unicode=True, sort_keys=False)


def measurement(**fields: object) -> dict[str, object]:
    row: dict[str, object] = {"metric": "speedup", "value": 2, "baseline": "BF16"}
    row.update({"model": "M-8B", "format": "fp8", "source": "alpha", "locator": "Table 1"})
    row["read_from"] = "table"
    row.update(fields)
    return row


# ---------------------------------------------------------------- math


MATH_ATTACKS = [
    r"$\text{<script>alert(1)</script>}$",
    r"$\text{<meta http-equiv=refresh content=0;url=https://evil.example>}$",
    r"$\mbox{<img src=x onerror=alert(1)>}$",
    r"$\textbf{<iframe src=https://evil.example>}$",
    r"$\href{javascript:alert(1)}{x}$",
    r"$\style{background:url(https://evil.example/t)}{y}$",
    r"$\class{masthead}{z}$",
    r"$$\text{<script>alert(2)</script>}$$",
]


def test_math_renders_no_markup_of_its_own(make_project: MakeProject, tmp_path: Path) -> None:
    """`\\text{}` holds text; \\href, \\style and \\class make no attribute."""
    note = "\n\n".join(MATH_ATTACKS)
    project = make_project({"claims/evil.yaml": claim_with(note=note)})
    assert check(project.content).errors == []
    build(project, tmp_path / "site")
    page = BeautifulSoup((tmp_path / "site/claims/evil/index.html").read_text(), "html.parser")
    maths = page.select("math")
    assert len(maths) == len(MATH_ATTACKS)
    for element in page.select("math, math *"):
        assert element.name not in {"script", "meta", "img", "iframe"}
        assert not {"href", "style", "class"} & set(element.attrs), element
    texts = [t.get_text().replace("\xa0", " ") for t in page.select("mtext")]  # TeX's spaces
    assert "<script>alert(1)</script>" in texts and "<img src=x onerror=alert(1)>" in texts
    for element in page.find_all(True):
        assert not any(a.startswith("on") for a in element.attrs)
    assert [s.get("src") for s in page.find_all("script") if not s.get("src")] == []


def test_ordinary_math_still_renders(make_project: MakeProject, tmp_path: Path) -> None:
    project = make_project(
        {"claims/m.yaml": claim_with(note=r"Ratio $\frac{\pi_\theta}{\mu} < 1$.")}
    )
    build(project, tmp_path / "site")
    page = BeautifulSoup((tmp_path / "site/claims/m/index.html").read_text(), "html.parser")
    math = page.select_one("math")
    assert math is not None and math.select_one("mfrac") is not None
    assert [o.get_text() for o in math.select("mo")] == ["<"]


# ---------------------------------------------------------------- the output folder


@pytest.mark.slow
@pytest.mark.parametrize(
    ("out", "what"),
    [
        ("notes", "holds"),
        (".git", "holds"),
        ("content/_site", "would replace or sit inside"),
        ("templates/out", "would replace or sit inside"),
        ("static", "would replace or sit inside"),
        (".", "would replace the working folder"),
    ],
)
@pytest.mark.parametrize("command", ["build", "serve"])
def test_an_output_folder_that_is_not_a_build_is_never_replaced(
    tmp_path: Path, out: str, what: str, command: str
) -> None:
    root = a_project(tmp_path)
    for folder in ("notes", ".git"):
        (root / folder).mkdir()
        (root / folder / "keep.txt").write_text("mine")
    before = tree(root)
    extra = ["--port", "1"] if command == "serve" else []
    result = run_cli(command, "--out", out, *extra, cwd=root)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith(
        f"lowprec-map: error: {'output folder ' if what != 'holds' else ''}"
    )
    assert what in result.stderr and out in result.stderr
    if what == "holds":
        assert "keep.txt" in result.stderr  # what is in it
    assert tree(root) == before  # nothing written, nothing lost


@pytest.mark.slow
def test_a_previous_build_or_an_empty_folder_is_replaced(tmp_path: Path) -> None:
    root = a_project(tmp_path)
    (root / "empty").mkdir()
    assert run_cli("build", "--out", "empty", cwd=root).returncode == 0
    assert (root / "empty/index.html").is_file()
    assert run_cli("build", "--out", "empty", cwd=root).returncode == 0  # now it is a build
    (root / "empty/index.html").unlink()  # a build the user emptied in part is still one
    assert run_cli("build", "--out", "empty", cwd=root).returncode == 0


@pytest.mark.slow
def test_builds_into_one_folder_take_turns(tmp_path: Path) -> None:
    """Three builds at once, five times: each exits 0 and the site is whole every time."""
    root = a_project(tmp_path)
    assert run_cli("build", "--out", "expected", cwd=root).returncode == 0
    expected = tree(root / "expected")
    command = [sys.executable, str(REPO / "build.py"), "build", "--out", "_site"]
    for _ in range(5):
        processes = [
            subprocess.Popen(command, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for _ in range(3)
        ]
        for process in processes:
            _, stderr = process.communicate(timeout=120)
            assert process.returncode == 0, stderr
            assert (root / "_site/index.html").is_file()
        assert tree(root / "_site") == expected


# ---------------------------------------------------------------- numbers and dates


@pytest.mark.parametrize(
    ("row", "token", "message"),
    [
        ({"value": float("nan")}, ".nan", "value: Input should be a finite number"),
        ({"value": float("inf")}, ".inf", "value: Input should be a finite number"),
        ({"value": 3e22}, "3.0e+22", "value: Input should be less than or equal to 1000000000000"),
        ({"value": None, "range": [1, float("inf")]}, ".inf", "range[1]: Input should be a finite"),
        ({"size_b": float("inf")}, ".inf", "size_b: Input should be a finite number"),
        ({"size_b": 1e308}, "1.0e+308", "size_b: Input should be less than or equal to 100000"),
    ],
)
def test_numbers_must_be_finite_and_in_range(
    make_project: MakeProject, tmp_path: Path, row: dict[str, object], token: str, message: str
) -> None:
    text = claim_with(measurements=[measurement(**row)])
    project = make_project({"claims/n.yaml": text})
    errors = [p.format() for p in check(project.content).errors]
    line = next(n for n, t in enumerate(text.splitlines(), 1) if t.endswith(token))
    assert len(errors) == 1 and f"n.yaml:{line}:" in errors[0], errors
    assert f"measurements[0].{message}" in errors[0]
    with pytest.raises(ContentError):
        build(project, tmp_path / "site")


def test_a_metric_no_change_must_be_finite(make_project: MakeProject) -> None:
    taxonomy = (MINIMAL / "taxonomy.yaml").read_text().replace("no_change: 1", "no_change: .inf")
    errors = [p.format() for p in check(make_project({"taxonomy.yaml": taxonomy}).content).errors]
    assert [e.split("content/", 1)[1] for e in errors] == [
        "taxonomy.yaml:11:16: no_change: Input should be a finite number"
    ]


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("date: 2025-01-02", "date: 2026-02-30", "bad value '2026-02-30': day is out of range"),
        ("core: true", "core: !!int abc", "bad value 'abc': invalid literal for int()"),
        ("core: true", "core: !!float x", "bad value 'x': could not convert string to float"),
    ],
)
def test_impossible_dates_and_bad_tags_are_errors_at_their_line(
    make_project: MakeProject, old: str, new: str, message: str
) -> None:
    alpha = (MINIMAL / "dossiers/alpha.yaml").read_text()
    line = next(n for n, t in enumerate(alpha.splitlines(), 1) if old in t)
    project = make_project({"dossiers/alpha.yaml": alpha.replace(old, new)})
    errors = [p.format() for p in check(project.content).errors if p.pos.path.name == "alpha.yaml"]
    assert len(errors) == 1 and f"alpha.yaml:{line}:" in errors[0]
    assert message in errors[0]


def test_deep_nesting_without_libyaml_is_a_positioned_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(load, "SafeLoader", yaml.SafeLoader)  # the pure-Python parser
    problems: list[Problem] = []
    text = "statement: S.\nnote: " + "[" * 500 + "]" * 500 + "\n"
    assert load.parse_yaml(Path("deep.yaml"), text, problems) is None
    assert [p.format() for p in problems] == ["deep.yaml:2:71: more than 64 levels of nesting"]


@pytest.mark.slow
def test_a_huge_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """A 3 GB sparse claim, checked with 1 GB of memory: read whole, it could not fit."""
    root = a_project(tmp_path)
    with (root / "content/claims/huge.yaml").open("wb") as huge:
        huge.truncate(3 * 1024**3)
    code = (
        "import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30));"
        "from lowprec_map.cli import run; run(['check'])"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 1, result.stderr
    assert "content/claims/huge.yaml:1:1: file is 3221225472 bytes; the limit is 1000000" in (
        result.stderr
    )
    assert resource.getrlimit(resource.RLIMIT_AS)[0] != 2**30  # ours was the child's


# ---------------------------------------------------------------- exports


def test_csv_cells_never_start_a_formula(make_project: MakeProject, tmp_path: Path) -> None:
    rows = [
        measurement(model='=HYPERLINK("https://evil.example")', baseline="+1+1"),
        measurement(model="@SUM(A1)", baseline="\tx", value=-2.5),
    ]
    text = claim_with(statement="=1+1", scope="-2", measurements=rows)
    build(make_project({"claims/f.yaml": text}), tmp_path / "site")
    assert_no_csv_formula(tmp_path / "site")
    measurements = (tmp_path / "site/data/measurements.csv").read_text()
    assert "'=HYPERLINK" in measurements and "'@SUM(A1)" in measurements
    assert ",-2.5," in measurements  # a number stays a number
    assert "'=1+1" in (tmp_path / "site/data/claims.csv").read_text()


def test_bibtex_values_parse_back_as_themselves(make_project: MakeProject, tmp_path: Path) -> None:
    """Braces, backslashes, TeX specials and ' and ' inside one name, read back by
    bibtexparser and decoded by pylatexenc (a TeX reader the map does not write for)."""
    title = r"A}} @misc{evil, title={x} \} \{ 50% & $y$ #1 a_b ~t ^h \textbf{b}"
    authors = ["Ada and Bo Team", "Cé {Dé}", "x} and {y"]
    alpha = yaml.safe_load((MINIMAL / "dossiers/alpha.yaml").read_text())
    alpha.update(title=title, authors=authors)
    build(make_project({"dossiers/alpha.yaml": yaml.safe_dump(alpha)}), tmp_path / "site")
    works = bibtex_works(tmp_path / "site")
    assert works["alpha"] == (title, authors)
    assert set(works) == {
        "alpha",
        "beta",
        "claim-alpha-fast",
        "claim-beta-slow",
        "claim-both-agree",
    }
    decoded = LatexNodes2Text().latex_to_text(works_raw_title(tmp_path / "site"))
    assert decoded.replace("ˆ", "^") == title  # pylatexenc reads \textasciicircum as U+02C6


def works_raw_title(site: Path) -> str:
    library = bibtexparser.parse_string((site / "references.bib").read_text())  # type: ignore[attr-defined]
    return str(next(e for e in library.entries if e.key == "alpha")["title"])[1:-1]


@pytest.mark.parametrize(
    "url", ["https://e.org/}@misc{x,", "https://e.org/a\\b", 'https://e.org/"']
)
def test_a_url_that_could_close_a_value_is_an_error(make_project: MakeProject, url: str) -> None:
    alpha = (MINIMAL / "dossiers/alpha.yaml").read_text()
    alpha = alpha.replace("url: https://arxiv.org/abs/2501.00001", f"url: {json.dumps(url)}")
    errors = [p.message for p in check(make_project({"dossiers/alpha.yaml": alpha}).content).errors]
    assert errors == [f"url: '{url}' is not an http(s) URL"]


def test_a_control_character_is_an_error_at_its_line(make_project: MakeProject) -> None:
    text = 'statement: "Fast\\x01 and \\x0b."\nlabel: measured\n'
    errors = [p.format() for p in check(make_project({"claims/c.yaml": text}).content).errors]
    assert [e.split("content/", 1)[1] for e in errors] == [
        "claims/c.yaml:1:12: character U+0001 is not allowed: no page, feed or data file can "
        "hold it"
    ]
    project = make_project({"pages/p.md": "---\ntitle: T\n---\nBody with \x07 in it.\n"})
    page = project.content / "pages/p.md"
    line = page.read_text().splitlines().index("Body with \x07 in it.") + 1
    errors = [p.format() for p in check(project.content).errors if p.pos.path == page]
    assert [e.split("content/", 1)[1] for e in errors] == [
        f"pages/p.md:{line}:11: character U+0007 is not allowed: no page, feed or data file "
        "can hold it"
    ]


@pytest.mark.parametrize("where", ["site.yaml", "--base-url"])
def test_a_base_url_without_its_slash_is_normalised(
    make_project: MakeProject, tmp_path: Path, where: str
) -> None:
    project = make_project()
    site_yaml = project.content / "site.yaml"
    if where == "site.yaml":
        site_yaml.write_text(site_yaml.read_text().replace("/map/", "/map"))
        build(project, tmp_path / "site")
    else:
        build(project, tmp_path / "site", base_url="https://example.org/map")
    site = tmp_path / "site"
    assert (
        (site / "robots.txt").read_text().endswith("Sitemap: https://example.org/map/sitemap.xml\n")
    )
    for name in ("data/claims.csv", "data/sources.csv", "data/measurements.csv", "claims.bib"):
        text = (site / name).read_text()
        assert "https://example.org/map/claims/" in text and "/mapclaims/" not in text, name


# ---------------------------------------------------------------- templates and the CLI


@pytest.mark.slow
@pytest.mark.parametrize(
    ("template", "code", "message"),
    [
        ("claim.html", "{{ 1 // 0 }}", "ZeroDivisionError"),
        ("claim.html", "{{ (2.0 ** 2000) | int }}", "OverflowError"),
        ("partials/macros.html", "{% set broken = 1 / 0 %}", "ZeroDivisionError"),
        (
            "partials/macros.html",
            "{% macro r() %}{{ r() }}{% endmacro %}{{ r() }}",
            "RecursionError",
        ),
    ],
)
def test_template_runtime_errors_are_positioned(
    tmp_path: Path, template: str, code: str, message: str
) -> None:
    root = a_project(tmp_path)
    path = root / "templates" / template
    lines = path.read_text().splitlines()
    # In a page template, inside its main block; in the macro file, at its end.
    line = (
        len(lines) + 1 if template.startswith("partials") else lines.index("{% block main %}") + 2
    )
    lines.insert(line - 1, code)
    path.write_text("\n".join(lines) + "\n")
    result = run_cli("build", cwd=root)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert f"templates/{template}:{line}:1: template error: {message}" in result.stderr


@pytest.mark.slow
def test_schema_into_a_file_and_an_impossible_port_are_usage_errors(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("x")
    result = run_cli("schema", "--out", "a-file", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (
        2,
        "lowprec-map: error: a-file exists and is not a folder\n",
    )
    assert (tmp_path / "a-file").read_text() == "x"
    for port in ("99999", "0", "-1"):
        result = run_cli("serve", "--port", port, cwd=tmp_path)
        assert result.returncode == 2 and "Traceback" not in result.stderr
        assert f"must be a port from 1 to 65535, not '{port}'" in result.stderr


# ---------------------------------------------------------------- every field, generated


# Control characters have their own test (an error at the line); here they would only
# make every example an error, so the generated text is writable and the rest hostile.
PAYLOADS = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "</head>",
    r"$\text{<script>x</script>}$",
    r"$\href{javascript:alert(1)}{x}$",
    "$$\\style{color:red}{y}$$",
    "[a](javascript:alert(1))",
    "\"' & < >",
    "}@misc{evil,",
    "\\} \\{ {",
    " and ",
    "=HYPERLINK(1)",
    "+1",
    "-1",
    "@A1",
    "\t",
    "{{ site.title }}",
    "]]>",
    "\x7f",
    "\u202e",
]
writable = st.characters(blacklist_categories=("Cs", "Cc"))
hostile_text = st.lists(
    st.one_of(st.sampled_from(PAYLOADS), st.text(writable, max_size=8)), min_size=1, max_size=4
).map("".join)
extreme_numbers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([1e308, -1e308, 3e22, 1e-320, -0.0, 2.0**53 + 1]),
    st.integers(min_value=-(10**20), max_value=10**20),
)


def mostly(usual: st.SearchStrategy[float]) -> st.SearchStrategy[float]:
    """Numbers a source could print, and one time in five one no chart can draw."""
    return st.integers(0, 4).flatmap(lambda i: extreme_numbers if i == 0 else usual)


values, sizes = mostly(st.floats(-1e12, 1e12)), mostly(st.floats(1e-9, 1e5))
HOSTILE = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture(scope="module")
def plain_site(tmp_path_factory: pytest.TempPathFactory) -> set[tuple[str, str]]:
    """The elements and attributes the templates write, from the minimal map."""
    out = tmp_path_factory.mktemp("plain") / "site"
    build(Project(MINIMAL, REPO / "templates", REPO / "static"), out)
    return template_pairs(out)


@HOSTILE
@given(
    text=st.fixed_dictionaries(
        {
            key: hostile_text
            for key in (
                "statement",
                "note",
                "source_note",
                "scope",
                "title",
                "author",
                "result",
                "summary",
                "baseline",
                "model",
                "task",
            )
        }
    ),
    value=values,
    size=sizes,
)
def test_hostile_text_in_every_field_breaks_no_output(
    tmp_path_factory: pytest.TempPathFactory,
    plain_site: set[tuple[str, str]],
    text: dict[str, str],
    value: float,
    size: float,
) -> None:
    """Check passes or reports positioned errors; a site that builds is safe in every
    format: HTML, XML, JSON, CSV and BibTeX."""
    root = tmp_path_factory.mktemp("hostile")
    shutil.copytree(MINIMAL, root / "content")
    row = measurement(value=value, size_b=size, baseline=text["baseline"], model=text["model"])
    row.update(setting={"task": text["task"]}, note=text["note"][:400])
    claim = claim_with(
        source_note=text["source_note"],
        statement=text["statement"][:400],
        note=text["note"],
        scope=text["scope"],
        measurements=[row],
        added=datetime.date(2026, 1, 2),
        updated=datetime.date(2026, 1, 3),
    )
    (root / "content/claims/hostile.yaml").write_text(claim, encoding="utf-8")
    alpha = yaml.safe_load((MINIMAL / "dossiers/alpha.yaml").read_text())
    alpha.update(
        title=text["title"],
        authors=[text["author"], "Bo Two"],
        result=text["result"],
        summary=text["summary"],
        limitation=text["note"],
    )
    (root / "content/dossiers/alpha.yaml").write_text(yaml.safe_dump(alpha), encoding="utf-8")
    project = Project(root / "content", REPO / "templates", REPO / "static")
    result = check(project.content)
    for problem in result.problems:
        assert problem.pos.line >= 1 and "\n" not in problem.format()
    event("reported" if result.errors else "built")
    if result.errors:
        with pytest.raises(ContentError):
            build(project, root / "site")
        return
    site = root / "site"
    build(project, site)
    assert_pages_hold_only_what_templates_and_prose_write(site, plain_site)
    assert_xml_parses(site)
    assert_strict_json(site)
    assert_no_csv_formula(site)
    works = bibtex_works(site)
    # BibTeX drops the white space around each name; nothing else may change.
    assert works["alpha"] == (alpha["title"], [a.strip(" \t\n\r") for a in alpha["authors"]])
    assert len(works) == len(result.graph.entries("dossier")) + len(result.graph.entries("claim"))


def test_a_blank_name_is_an_error_not_a_merged_author(make_project: MakeProject) -> None:
    """A name of white space only would join the next author in BibTeX."""
    alpha = (MINIMAL / "dossiers/alpha.yaml").read_text()
    alpha = alpha.replace("authors: [Ada One, Bo Two]", 'authors: [" ", Bo Two]')
    errors = [
        p.format() for p in check(make_project({"dossiers/alpha.yaml": alpha}).content).errors
    ]
    assert [e.split("content/", 1)[1] for e in errors] == [
        "dossiers/alpha.yaml:3:11: authors[0]: ' ' is blank: write something besides white space"
    ]
