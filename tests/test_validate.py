"""Validation: each model rejects bad fields with a position and an actionable message."""

from __future__ import annotations

import typing

import pytest
from conftest import MINIMAL, MakeProject
from pydantic import BaseModel

from lowprec_map.content.check import check
from lowprec_map.registry import LIST_FILE_MODELS, REGISTRY

ALPHA = (
    "title: Alpha paper\nshort_name: Alpha\nauthors: [Ada One]\ndate: 2025-01-02\nkind: paper\n"
    "domain: llm-rl\nread: abstract\nurl: https://arxiv.org/abs/2501.00001\nsummary: S.\nperturbs: [rollout-weights]\n"
    "regime: {models: [M], algorithms: [GRPO], tasks: [T]}\nresult: R.\nlimitation: L.\n"
    "numerical_path:\n  - {tensor: weights, where: rollout, format: fp8}\n"
)


def errors_for(make_project: MakeProject, files: dict[str, str | bytes | None]) -> list[str]:
    result = check(make_project(files).content)
    return [p.format().split("content/", 1)[1] for p in result.errors]


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (
            "sumary: typo\n",
            "dossiers/alpha.yaml:16:1: unknown field 'sumary' (did you mean 'summary'?)",
        ),
        ("id: alpha\n", "dossiers/alpha.yaml:16:1: unknown field 'id' (the id is the file name)"),
        ("arxiv: 2501.1\n", "dossiers/alpha.yaml:16:8: arxiv: Input should be a valid string"),
        (
            "arxiv: '25-1'\n",
            "dossiers/alpha.yaml:16:8: arxiv: '25-1' is not an arXiv id like '2510.11696'",
        ),
        (
            "code: javascript:alert(1)\n",
            "dossiers/alpha.yaml:16:7: code: 'javascript:alert(1)' is not an http(s) URL",
        ),
        ("venue: [a]\n", "dossiers/alpha.yaml:16:8: venue: Input should be a valid string"),
        (
            "programs: [Bad_Id]\n",
            "dossiers/alpha.yaml:16:12: programs[0]: 'Bad_Id' is not a valid id: use lowercase letters, digits and hyphens",
        ),
    ],
)
def test_dossier_field_errors(make_project: MakeProject, extra: str, expected: str) -> None:
    assert errors_for(make_project, {"dossiers/alpha.yaml": ALPHA + extra}) == [expected]


def test_enum_value_gets_a_suggestion(make_project: MakeProject) -> None:
    text = ALPHA.replace("format: fp8}", "format: fp8-e4m4}")
    assert errors_for(make_project, {"dossiers/alpha.yaml": text}) == [
        "dossiers/alpha.yaml:15:47: numerical_path[0].format: 'fp8-e4m4' is not one of fp32, bf16, "
        "fp16, fp8, fp8-e4m3, fp8-e5m2, mxfp8, int8, int4, nvfp4, mxfp4, nf4, low-bit, unstated "
        "(did you mean 'fp8-e4m3'?)"
    ]


def test_quoted_date_and_missing_field(make_project: MakeProject) -> None:
    text = ALPHA.replace("date: 2025-01-02", "date: '2025-01-02'").replace("summary: S.\n", "")
    assert errors_for(make_project, {"dossiers/alpha.yaml": text}) == [
        "dossiers/alpha.yaml:1:1: missing field 'summary'",
        "dossiers/alpha.yaml:4:7: date: Input should be a valid date",
    ]


@pytest.mark.parametrize(
    ("locator", "reason"),
    [
        ("somewhere", "names no place: start with where"),
        ("'§'", "names no place: start with where"),
        ("'§ PR'", "names no place: say where in it"),
        ("'Docs, PR'", "names no place: say where in it"),
        ("Blog", "names no place: say where in it"),
        ("'PR comment, Observations'", "names a comment: give its date (YYYY-MM-DD)"),
        ("'Commit message (PR branch)'", "names a commit: give its hash"),
    ],
)
def test_a_locator_names_a_place(make_project: MakeProject, locator: str, reason: str) -> None:
    claim = (
        "statement: S.\nlabel: measured\nsources:\n"
        f"  - {{dossier: alpha, locator: {locator}, stance: supports, basis: measured}}\n"
    )
    [error] = errors_for(make_project, {"claims/new.yaml": claim})
    assert error.startswith("claims/new.yaml:4:31: sources[0].locator: locator ")
    assert reason in error


@pytest.mark.parametrize(
    "locator",
    ["Tab. 2", "§5.1", "'§ PR description, math table'", "'PR comment of 2025-12-02, Speedup'",
     "Commit dbc8315 message", "'Blog, § Results'", "App. D"],
)  # fmt: skip
def test_locators_that_name_a_place_pass(make_project: MakeProject, locator: str) -> None:
    claim = (
        "statement: S.\nlabel: measured\nsources:\n"
        f"  - {{dossier: alpha, locator: {locator}, stance: supports, basis: measured}}\n"
    )
    assert errors_for(make_project, {"claims/new.yaml": claim}) == []


def test_a_value_cut_short_by_a_comment_is_an_error(make_project: MakeProject) -> None:
    claim = (
        "statement: S.\nlabel: measured\nsources:\n  - dossier: alpha\n"
        "    locator: § PR #657 description\n    stance: supports\n    basis: measured\n"
    )
    [error] = errors_for(make_project, {"claims/new.yaml": claim})
    assert error.startswith("claims/new.yaml:5:18: the value '§ PR' ends here: '#657 description'")
    assert "put the whole value in quotes" in error


def test_model_validators_report_at_the_entry(make_project: MakeProject) -> None:
    alpha = (MINIMAL / "dossiers/alpha.yaml").read_text() + (
        "versions:\n  - {id: v2, date: 2025-03-01, changes: New numbers.}\n"
        "  - {id: v1, date: 2025-01-01, changes: First version.}\n"
    )
    tension = (
        "title: T\nkind: versus\nsides:\n  - {dossier: alpha, position: A.}\n"
        "  - {dossier: beta, position: B.}\nsummary: S.\n"
    )
    assert errors_for(
        make_project, {"dossiers/alpha.yaml": alpha, "tensions/t2.yaml": tension}
    ) == [
        "dossiers/alpha.yaml:1:1: versions are listed oldest first",
        "tensions/t2.yaml:1:1: give boundary_candidates or a missing_variable",
    ]


def test_list_files_validate_items_separately(make_project: MakeProject) -> None:
    taxonomy = (
        "groups:\n  - {id: compute, name: C, description: D.}\n"
        "perturbations:\n"
        "  - {id: rollout-weights, name: R, group: compute, description: D.}\n"
        "  - {id: kv-cache, name: K, group: compute, descripton: D.}\n"
        "  - {id: rollout-weights, name: R2, group: compute, description: D.}\n"
        "metrics:\n  - {id: speedup, name: S, unit: x, better: higher, description: D.}\n"
        "  - {id: accuracy, name: A, unit: '%', better: highest, description: D.}\n"
        "domains:\n  - {id: llm-rl, name: L, description: D.}\n"
    )
    assert errors_for(make_project, {"taxonomy.yaml": taxonomy}) == [
        "taxonomy.yaml:5:5: missing field 'description'",
        "taxonomy.yaml:5:45: unknown field 'descripton' (did you mean 'description'?)",
        "taxonomy.yaml:6:10: duplicate id 'rollout-weights' (first at item 1)",
        "taxonomy.yaml:9:48: better: 'highest' is not one of higher, lower (did you mean 'higher'?)",
    ]


def test_missing_required_file(make_project: MakeProject) -> None:
    errors = errors_for(make_project, {"evidence.yaml": None})
    assert "evidence.yaml:1:1: required file evidence.yaml is missing" in errors


def _all_models() -> set[type[BaseModel]]:
    found: set[type[BaseModel]] = set()
    pending: list[object] = [*(t.model for t in REGISTRY.types), *LIST_FILE_MODELS.values()]
    while pending:
        item = pending.pop()
        if isinstance(item, type) and issubclass(item, BaseModel):
            if item not in found:
                found.add(item)
                pending.extend(f.annotation for f in item.model_fields.values())
        else:
            pending.extend(typing.get_args(item))
    return found


def test_every_field_is_documented() -> None:
    """The models are the YAML's documentation: no field may lack a description."""
    undocumented = [
        f"{model.__name__}.{name}"
        for model in _all_models()
        for name, field in model.model_fields.items()
        if not field.description
    ]
    assert undocumented == []
    assert len(_all_models()) >= 20
