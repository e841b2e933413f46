"""`new` and `schema`: skeletons validate as written, schemas stay in sync with the models."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml
from conftest import REPO, MakeProject

from lowprec_map.cli import main
from lowprec_map.content.check import check
from lowprec_map.content.load import SafeLoader
from lowprec_map.dev.scaffold import schema_models, schema_text
from lowprec_map.pipeline import export_files
from lowprec_map.registry import REGISTRY
from lowprec_map.site.views import measurement_rows


@pytest.mark.parametrize("type_name", sorted(REGISTRY.by_slug))
def test_new_then_check_passes_and_matches_the_schema(
    make_project: MakeProject, type_name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    content = make_project().content
    assert main(["new", type_name, "fresh-entry", "--content", str(content)]) == 0
    written = Path(capsys.readouterr().out.split()[1].rstrip(";"))
    assert written.is_file()
    entry_type = REGISTRY.by_slug[type_name].name
    result = check(content)  # as a build sees it: the draft left out, and a warning
    assert result.errors == [], [p.format() for p in result.errors]
    assert not result.graph.has(entry_type, "fresh-entry")
    assert [w.message for w in result.warnings if "fresh-entry" in w.message] == [
        f"{REGISTRY.by_slug[type_name].singular} 'fresh-entry' is a draft: a build leaves it "
        "out; delete its `draft: true` to publish it"
    ]
    shown = check(content, drafts=True)  # as serve shows it
    assert shown.errors == [], [p.format() for p in shown.errors]
    assert shown.graph.has(entry_type, "fresh-entry")
    text = written.read_text(encoding="utf-8")
    if written.suffix == ".md":
        text = text.split("---")[1]
    else:
        assert text.startswith(
            f"# yaml-language-server: $schema=../../schemas/{REGISTRY.by_slug[type_name].name}.json"
        )
    schema = json.loads(schema_text(schema_models()[REGISTRY.by_slug[type_name].name]))
    data = json.loads(json.dumps(yaml.safe_load(text), default=str))  # dates as JSON strings
    jsonschema.validate(data, schema)


def test_new_refuses_to_overwrite_and_rejects_bad_ids(
    make_project: MakeProject, capsys: pytest.CaptureFixture[str]
) -> None:
    content = make_project().content
    before = (content / "claims/alpha-fast.yaml").read_bytes()
    assert main(["new", "claim", "alpha-fast", "--content", str(content)]) == 2
    assert "already exists; not overwriting it" in capsys.readouterr().err
    assert (content / "claims/alpha-fast.yaml").read_bytes() == before
    assert main(["new", "claim", "../escape", "--content", str(content)]) == 2
    assert "is not a valid id" in capsys.readouterr().err
    assert not (content.parent / "escape.yaml").exists()
    with pytest.raises(SystemExit) as exit_info:
        main(["new", "widget", "x", "--content", str(content)])
    assert exit_info.value.code == 2


def test_committed_schemas_match_the_models(tmp_path: Path) -> None:
    """schemas/ is what editors load; it must be regenerated when the models change."""
    assert main(["schema", "--out", str(tmp_path)]) == 0
    generated = {p.name: p.read_text() for p in tmp_path.iterdir()}
    committed = {p.name: p.read_text() for p in (REPO / "schemas").iterdir()}
    assert generated == committed, "run: lowprec-map schema"


def test_schemas_validate_the_real_content() -> None:
    """What `check` accepts, an editor's schema accepts too."""
    validators: dict[str, jsonschema.protocols.Validator] = {}
    for path in sorted((REPO / "content").rglob("*.yaml")):
        if path.parent.name == "content":
            kind = REGISTRY.single_files[path.name]
        else:
            kind = REGISTRY.folders[path.parent.name].name
        if kind not in validators:
            schema = json.loads((REPO / "schemas" / f"{kind}.json").read_text())
            validators[kind] = jsonschema.validators.validator_for(schema)(schema)
        data = json.loads(json.dumps(yaml.load(path.read_text(), Loader=SafeLoader), default=str))
        validators[kind].validate(data)


def test_a_draft_fails_strict_and_reaches_no_page_chart_or_export(
    make_project: MakeProject, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    content = make_project().content
    assert main(["new", "claim", "fresh-entry", "--content", str(content)]) == 0
    assert main(["check", "--strict", "--content", str(content)]) == 1
    out = tmp_path / "site"
    assert main(["build", "--content", str(content), "--out", str(out)]) == 0
    assert not (out / "claims" / "fresh-entry").exists()
    published = [
        f.read_text(encoding="utf-8")
        for f in out.rglob("*")
        if f.is_file() and f.suffix in {".html", ".json", ".csv", ".bib", ".xml", ".graphml"}
    ]
    assert not any("fresh-entry" in text for text in published)
    # serve's graph shows the draft; its placeholder numbers still reach no export or chart
    shown = check(content, drafts=True).graph
    exports = export_files(shown, "https://example.org/")
    assert all(b"fresh-entry" not in data for data in exports.values())
    assert all(row.claim.id != "fresh-entry" for row in measurement_rows(shown.entries("claim")))
