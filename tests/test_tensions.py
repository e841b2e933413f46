"""Tensions by side, their computed state, and how a work stands to others."""

from __future__ import annotations

from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import MINIMAL, MakeProject

from lowprec_map.content.check import check
from lowprec_map.content.evidence import tension_state
from lowprec_map.pipeline import build


@pytest.mark.parametrize(
    ("sides", "boundary", "missing", "state"),
    [
        ([["figure read"], ["stated only", "figure read"]], [], False, "both sides measured"),
        ([["figure read"], ["stated only"]], [], False, "one side measured, the other stated only"),
        ([["argued only"], ["figure read"]], [], True,
         "one side measured, the other only argued; waiting on the missing variable"),
        ([[], ["argued only"]], ["figure read"], True,
         "neither side measured; a boundary condition measured"),
    ],
)  # fmt: skip
def test_a_tensions_state_follows_from_its_claims(
    sides: list[list[str]], boundary: list[str], missing: bool, state: str
) -> None:
    assert tension_state(sides, boundary, missing) == state


TENSION = (MINIMAL / "tensions/alpha-vs-beta.yaml").read_text()


def messages(make_project: MakeProject, text: str) -> list[str]:
    project = make_project({"tensions/alpha-vs-beta.yaml": text})
    return [p.format().split("content/", 1)[1] for p in check(project.content).problems]


def test_each_claim_stands_once_and_none_is_left_unplaced(make_project: MakeProject) -> None:
    twice = TENSION.replace("boundary: [both-agree]", "boundary: [both-agree, alpha-fast]")
    assert messages(make_project, twice) == [
        "tensions/alpha-vs-beta.yaml:8:24: claim 'alpha-fast' is placed twice: on side 1 "
        "and on the boundary"
    ]
    unplaced = TENSION.replace("boundary: [both-agree]", "claims: [both-agree]")
    assert messages(make_project, unplaced) == [
        "tensions/alpha-vs-beta.yaml:8:10: warning: claim 'both-agree' is at stake but on no "
        "side: move it to a side's claims or to boundary"
    ]


def test_the_tension_page_shows_each_side_with_what_backs_it(
    make_project: MakeProject, tmp_path: Path
) -> None:
    build(make_project(), tmp_path / "site")
    page = BeautifulSoup(
        (tmp_path / "site/tensions/alpha-vs-beta/index.html").read_text(), "html.parser"
    )
    state = page.select_one("p.state")
    assert state is not None and "both sides measured" in state.get_text()
    sides = {
        s.get_text(" ", strip=True).split(" (")[0]: s for s in page.select("h2[id$='-claims']")
    }
    assert set(sides) == {"What backs side 1", "What backs side 2"}
    side_one = sides["What backs side 1"].parent
    assert side_one is not None
    assert [a["href"] for a in side_one.select("article.claim h3 a")] == [
        "../../claims/alpha-fast/"
    ]
    boundary = page.find(id="boundary-h")
    assert boundary is not None and boundary.parent is not None
    assert [a["href"] for a in boundary.parent.select("article.claim h3 a")] == [
        "../../claims/both-agree/"
    ]


def test_a_dossier_says_which_works_agree_and_disagree_with_it(
    make_project: MakeProject, tmp_path: Path
) -> None:
    contrast = (
        "statement: Beta contrasts Alpha's speed.\nlabel: contested\nsources:\n"
        "  - {dossier: alpha, locator: Table 1, stance: supports, basis: measured}\n"
        "  - {dossier: beta, locator: Table 2, stance: contrasts, basis: measured}\n"
        "programs: [prog]\nadded: 2026-11-29\nupdated: 2026-11-29\n"
    )
    build(make_project({"claims/contrast.yaml": contrast}), tmp_path / "site")
    page = BeautifulSoup((tmp_path / "site/dossiers/alpha/index.html").read_text(), "html.parser")
    standing = page.find(id="standing-h")
    assert standing is not None and standing.parent is not None
    text = " ".join(standing.parent.get_text(" ").split())
    assert "Disagrees with Beta contrasts what this work supports, in Beta contrasts" in text
    assert "Agrees with Beta supports the same claim: Both agree on something." in text
    assert (
        "A side of Fast or slow? (side 1; both sides measured; a boundary condition measured)"
        in text
    )
    headings = [h.get_text(" ", strip=True) for h in page.select("h2") if "Claims" in h.get_text()]
    assert headings == ["Claims this work supports 3"]
