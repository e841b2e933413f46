"""Hostile and broken input: nothing crashes, nothing leaks, nothing is silently dropped."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup
from conftest import MINIMAL, REPO, MakeProject, beside, tree
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from page_facts import PageFacts

from lowprec_map.content.check import check
from lowprec_map.content.load import load_file, parse_yaml
from lowprec_map.errors import Problem
from lowprec_map.pipeline import build
from lowprec_map.schema.claims import Claim

PROBLEM_LINE = re.compile(r"^[^\n]+:\d+:\d+: [^\n]+$")
FIELDS = [*Claim.model_fields, "id", "sumary", "dossier", "locator", "<<", "label "]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True),
    st.text(max_size=60),
    st.text(alphabet="\u202e\u0000\ufeff\U0001f600abc$<>&'\"", max_size=30),
    st.dates(),
    st.sampled_from(["measured", "alpha", "Alpha", "../x", "{{ 7*7 }}", "<script>"]),
)
documents = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5),
        st.dictionaries(
            st.one_of(st.sampled_from(FIELDS), st.text(max_size=12)), children, max_size=6
        ),
    ),
    max_leaves=40,
)
HYPOTHESIS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def assert_well_formed(problems: list[Problem]) -> None:
    for problem in problems:
        assert PROBLEM_LINE.match(problem.format()), problem.format()
        assert problem.pos.line >= 1 and problem.pos.col >= 1


@HYPOTHESIS
@given(st.text(max_size=400))
def test_any_text_parses_or_fails_with_positions(text: str) -> None:
    problems: list[Problem] = []
    result = parse_yaml(Path("f.yaml"), text, problems)
    assert (result is None) == bool(problems)
    assert_well_formed(problems)


@HYPOTHESIS
@given(st.binary(max_size=300))
def test_any_bytes_load_or_fail_with_positions(
    tmp_path_factory: pytest.TempPathFactory, raw: bytes
) -> None:
    path = tmp_path_factory.mktemp("bytes") / "x.yaml"
    path.write_bytes(raw)
    problems: list[Problem] = []
    doc = load_file(path, "claim", problems)
    assert (doc is None) == bool(problems)
    assert_well_formed(problems)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    content = tmp_path_factory.mktemp("hostile") / "content"
    shutil.copytree(MINIMAL, content)
    return content


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(documents)
def test_generated_claims_are_kept_or_reported(scratch: Path, document: object) -> None:
    """A claim file is either an entry of the map or the subject of an error: never dropped."""
    path = scratch / "claims" / "generated.yaml"
    path.write_text(
        yaml.safe_dump({"root": document})[6:]
        if isinstance(document, dict)
        else yaml.safe_dump(document),
        encoding="utf-8",
    )
    result = check(scratch)
    assert_well_formed(result.problems)
    kept = result.graph.has("claim", "generated")
    blamed = any(p.pos.path == path for p in result.errors)
    assert kept or blamed
    assert not (kept and blamed)


def test_deep_nesting_and_huge_strings_are_bounded(make_project: MakeProject) -> None:
    deep = "statement: " + "[" * 200 + "]" * 200 + "\n"
    huge = "statement: " + "x" * 2_000_000 + "\n"
    long_field = "statement: " + "y" * 5000 + "\nlabel: measured\n"
    project = make_project(
        {"claims/deep.yaml": deep, "claims/huge.yaml": huge, "claims/long.yaml": long_field}
    )
    messages = {p.pos.path.name: p.message for p in check(project.content).errors}
    assert "nesting" in messages["deep.yaml"]
    assert re.fullmatch(r"file is 20000\d\d bytes; the limit is 1000000", messages["huge.yaml"])
    assert "statement: String should have at most 400 characters" in messages["long.yaml"]


INJECTION = """\
statement: "<script>alert('x')</script> {{ site.title }} {% raw %}x{% endraw %} <img src=x onerror=alert(1)>"
label: measured
sources:
  - dossier: alpha
    locator: Table 1
    stance: supports
    basis: measured
    note: "[click](javascript:alert(1)) <a href=javascript:alert(2)>a</a>"
note: |
  Markdown with <script>alert(3)</script>, an <iframe src="https://evil.example">,
  a [js link](javascript:alert(4)), a [data link](data:text/html;base64,PHNjcmlwdD4=),
  an ![image](https://evil.example/pixel.png) and ${{ 7*7 }}$ math.
"""


def test_injected_markup_is_inert(make_project: MakeProject, tmp_path: Path) -> None:
    project = make_project({"claims/evil.yaml": INJECTION})
    out = tmp_path / "site"
    build(project, out)
    for page in out.rglob("*.html"):
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        for script in soup.find_all("script"):
            assert str(script.get("src", "")).startswith(("../", "static/", "/")), page
            assert not script.string
        for tag in soup.find_all(True):
            assert not any(attr.startswith("on") for attr in tag.attrs), (page, tag.name)
            for attr in ("href", "src"):
                value = str(tag.get(attr, ""))
                assert not value.lower().startswith(("javascript:", "data:text")), (page, value)
        assert soup.find("iframe") is None
        assert soup.find("img") is None
    text = (out / "claims/evil/index.html").read_text(encoding="utf-8")
    assert "{{ site.title }}" in text  # Jinja syntax in content is text, not template code
    assert "&lt;script&gt;" in text


@pytest.mark.parametrize("name", ["..%2Fescape", "Evil", "a b", "-lead", "x.y"])
def test_ids_that_could_escape_are_rejected(make_project: MakeProject, name: str) -> None:
    project = make_project({f"claims/{name}.yaml": "statement: S.\nlabel: measured\n"})
    errors = check(project.content).errors
    assert [e.message for e in errors if e.pos.path.name == f"{name}.yaml"] == [
        f"file name '{name}' is not a valid id: use lowercase letters, digits and hyphens, "
        "starting with a letter or digit"
    ]


def test_reference_with_dot_dot_is_an_error(make_project: MakeProject) -> None:
    claim = "statement: S.\nlabel: measured\nsources:\n  - {dossier: ../alpha, locator: Table 1, stance: supports, basis: measured}\n"
    errors = [e.format() for e in check(make_project({"claims/c.yaml": claim}).content).errors]
    assert errors[0].endswith(
        "sources[0].dossier: '../alpha' is not a valid id: use lowercase "
        "letters, digits and hyphens"
    )


def test_every_page_carries_a_strict_csp(real_facts: dict[str, PageFacts]) -> None:
    for page, facts in real_facts.items():
        policy = facts.csp
        assert policy is not None, page
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy
        assert "default-src 'self'" in policy
        assert facts.inline_scripts == 0, page


def test_a_killed_builds_leftovers_never_reach_the_site(
    make_project: MakeProject, tmp_path: Path
) -> None:
    """What a killed build left beside the site (its half-written staging folder) is
    cleaned up by the next build and none of it is published. (A real kill while
    writing is the test below.)"""
    project = make_project()
    out = tmp_path / "site"
    build(project, out)
    before = tree(out)
    leftover = tmp_path / ".site.new-killed"
    (leftover / "claims").mkdir(parents=True)
    (leftover / "index.html").write_text("half")
    (leftover / "stray.html").write_text("never built")
    build(project, out)
    assert tree(out) == before
    assert not leftover.exists()


@pytest.fixture(scope="module")
def big_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """Synthetic content with enough pages (over the fork threshold) for forked workers, built once;
    and the command that builds it again."""
    sys.path.insert(0, str(REPO / "bench"))
    import synth  # noqa: PLC0415

    root = tmp_path_factory.mktemp("big")
    synth.generate(420, root / "content")
    command = [sys.executable, str(REPO / "build.py"), "--content", str(root / "content")]
    command += ["--out", str(root / "site")]
    subprocess.run(command, check=True, capture_output=True, cwd=REPO)
    return root, command


def _edit_a_claim(root: Path, index: int) -> None:
    claim = sorted((root / "content/claims").glob("*.yaml"))[index]
    claim.write_text(claim.read_text().replace("statement: ", "statement: Changed. ", 1))


def _wait_for_a_staged_page(root: Path, process: subprocess.Popen[str], stale: set[Path]) -> None:
    """Until a rendered page stands in this build's staging folder: the build is writing.
    (`stale`: staging folders already there, left by a killed build.)"""
    deadline = time.monotonic() + 60
    while not [
        p for p in root.glob(".site.new-*/claims/*/index.html") if p.parents[2] not in stale
    ]:
        assert time.monotonic() < deadline and process.poll() is None, "no page seen"
        time.sleep(0.002)


@pytest.mark.slow
def test_build_killed_while_writing_leaves_the_old_site_whole(
    big_site: tuple[Path, list[str]],
) -> None:
    """SIGKILL a real build while it writes its staging folder: the old site is untouched."""
    root, command = big_site
    before = tree(root / "site")
    _edit_a_claim(root, 0)
    stale = set(root.glob(".site.new-*"))
    process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.DEVNULL, text=True)
    _wait_for_a_staged_page(root, process, stale)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert list(root.glob(".site.new-*")), "the build was not caught while writing"
    assert tree(root / "site") == before


@pytest.mark.slow
def test_ctrl_c_while_writing_is_one_line_and_leaves_the_old_site_whole(
    big_site: tuple[Path, list[str]],
) -> None:
    """Ctrl-C (SIGINT to the whole process group, workers included) while pages are written."""
    root, command = big_site
    before = tree(root / "site")
    _edit_a_claim(root, 1)
    stale = set(root.glob(".site.new-*"))
    process = subprocess.Popen(
        command, cwd=REPO, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    _wait_for_a_staged_page(root, process, stale)
    os.killpg(process.pid, signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert (process.returncode, stderr) == (130, "lowprec-map: interrupted\n")
    assert tree(root / "site") == before
    assert [p for p in beside(root) if not p.startswith(".site.new-")] == ["content", "site"]
    assert set(root.glob(".site.new-*")) <= stale  # this build's staging folder is gone
