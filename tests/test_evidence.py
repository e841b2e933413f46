"""The evidence model: label rules at the right line, measurements, versions, predictions."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import MINIMAL, MakeProject

from lowprec_map.content.check import check
from lowprec_map.content.evidence import LABEL_RULES
from lowprec_map.content.graph import MapGraph
from lowprec_map.pipeline import build
from lowprec_map.schema.claims import Claim, Measurement
from lowprec_map.schema.entries import Dossier
from lowprec_map.site.charts import baseline_text, value_text

CLAIM = "statement: S.\nlabel: {label}\nsources:\n{sources}"


def source(dossier: str, stance: str, basis: str) -> str:
    return f"  - {{dossier: {dossier}, locator: Table 1, stance: {stance}, basis: {basis}}}\n"


def column(line: str, key: str) -> int:
    """The 1-based column of `key`'s value in a YAML flow mapping line."""
    return line.index(key + ": ") + len(key) + 3


def messages(make_project: MakeProject, files: dict[str, str | None]) -> list[str]:
    result = check(make_project(files).content)
    return [p.format().split("content/", 1)[1] for p in result.errors]


def claim(label: str, *sources: str, extra: str = "") -> dict[str, str | None]:
    return {"claims/new.yaml": CLAIM.format(label=label, sources="".join(sources)) + extra}


# ---------------------------------------------------------------- one test per rule


def test_measured_needs_a_measured_supporting_source(make_project: MakeProject) -> None:
    files = claim(
        "measured", source("alpha", "supports", "argued"), source("beta", "mentions", "measured")
    )
    assert messages(make_project, files) == [
        "claims/new.yaml:2:8: a 'measured' claim needs a source that supports it with basis "
        "'measured' or 'stated'; it has alpha: supports, argued; beta: mentions, measured"
    ]
    for basis in ("measured", "stated"):
        ok = claim("measured", source("alpha", "supports", basis))
        assert messages(make_project, ok) == []


def test_stated_support_never_replicates(make_project: MakeProject) -> None:
    """Two works that report it in words only earn 'measured', never 'replicated'."""
    stated = claim(
        "replicated", source("alpha", "supports", "stated"), source("beta", "supports", "stated")
    )
    [problem] = messages(make_project, stated)
    assert "a 'replicated' claim needs two sources that support it with basis 'measured'" in problem
    assert (
        messages(
            make_project, {**stated, **claim("measured", source("alpha", "supports", "stated"))}
        )
        == []
    )


def test_replicated_counts_neither_mentions_nor_reported_figures(make_project: MakeProject) -> None:
    for second in ("mentions", "supports"):
        basis = "measured" if second == "mentions" else "reported"
        files = claim(
            "replicated", source("alpha", "supports", "measured"), source("beta", second, basis)
        )
        assert messages(make_project, files) == [
            "claims/new.yaml:2:8: a 'replicated' claim needs two sources that support it with "
            f"basis 'measured' from works sharing no person and no group; it has 1 (alpha: supports, "
            f"measured; beta: {second}, {basis})"
        ]


def test_contested_holds_with_a_contrasting_source_alone(make_project: MakeProject) -> None:
    files = claim(
        "contested",
        source("alpha", "supports", "measured"),
        source("beta", "contrasts", "measured"),
    )
    assert messages(make_project, files) == []
    alone = claim("contested", source("alpha", "supports", "measured"))
    assert messages(make_project, alone) == [
        "claims/new.yaml:2:8: a 'contested' claim needs a source whose stance is 'contrasts' "
        "or a conflicting claim in conflicts_with; it has neither"
    ]


def test_mechanistic_names_its_mechanism_and_an_argued_source(make_project: MakeProject) -> None:
    files = claim("mechanistic", source("alpha", "mentions", "argued"))
    assert messages(make_project, files) == [
        "claims/new.yaml:2:8: a 'mechanistic' claim names its mechanism in `mechanism`",
        "claims/new.yaml:2:8: a 'mechanistic' claim needs a source that supports it with basis "
        "'measured', 'stated' or 'argued'; it has alpha: mentions, argued",
    ]
    named = claim("mechanistic", source("alpha", "supports", "argued"), extra="mechanism: M.\n")
    assert messages(make_project, named) == []


def test_hypothesis_has_no_measured_support_a_program_and_a_refutation(
    make_project: MakeProject,
) -> None:
    files = claim(
        "hypothesis", source("alpha", "mentions", "argued"), source("beta", "supports", "measured")
    )
    assert messages(make_project, files) == [
        "claims/new.yaml:2:8: a 'hypothesis' names the program that would test it",
        "claims/new.yaml:2:8: a 'hypothesis' says in `refuted_if` what would refute it",
        f"claims/new.yaml:5:{column(source('beta', 'supports', 'measured'), 'basis')}: "
        "a 'hypothesis' has no measured or stated support, but 'beta' supports it "
        "with basis 'measured': the claim is no longer a hypothesis",
    ]
    fine: dict[str, str | None] = {
        "claims/new.yaml": "statement: S.\nlabel: hypothesis\nprograms: [prog]\nrefuted_if: X.\n"
    }
    assert messages(make_project, fine) == []


def test_evidence_yaml_states_each_rule_word_for_word(make_project: MakeProject) -> None:
    evidence = (MINIMAL / "evidence.yaml").read_text()
    reworded = evidence.replace("At least one source supports", "One source backs", 1)
    renamed = evidence.replace("id: hypothesis", "id: hypothesys")
    assert messages(make_project, {"evidence.yaml": reworded}) == [
        "evidence.yaml:5:18: how_to_earn must state the rule check enforces, word for word: "
        f"'{LABEL_RULES['measured'].text}'"
    ]
    assert messages(make_project, {"evidence.yaml": renamed})[0] == (
        "evidence.yaml:18:9: check has no rule for the label 'hypothesys' (did you mean "
        "'hypothesis'?); the rules are for: measured, replicated, contested, mechanistic, hypothesis"
    )


def test_the_real_evidence_yaml_and_label_pages_state_the_enforced_rules(
    real_graph: MapGraph, real_pages: dict[str, BeautifulSoup]
) -> None:
    labels = {e.id: e for e in real_graph.entries("evidence")}
    assert set(labels) == set(LABEL_RULES)
    for label_id, rule in LABEL_RULES.items():
        lede = real_pages[f"claims/label/{label_id}/index.html"].select_one("p.lede")
        assert lede is not None and rule.text in lede.get_text(" ", strip=True)


# ---------------------------------------------------------------- measurements and versions

MEASURED = "  - {dossier: alpha, locator: Fig. 2, stance: supports, basis: measured}\n"


def measurement(**fields: str) -> str:
    values = {
        "metric": "speedup",
        "value": "1.5",
        "baseline": "BF16",
        "model": "M",
        "format": "fp8",
        "source": "alpha",
        "locator": "Fig. 2",
        "read_from": "plot",
        **fields,
    }
    return "measurements:\n  - {" + ", ".join(f"{k}: {v}" for k, v in values.items()) + "}\n"


def test_a_measurement_names_a_known_metric_format_and_a_supporting_source(
    make_project: MakeProject,
) -> None:
    def errors(**fields: str) -> list[str]:
        return messages(make_project, claim("measured", MEASURED, extra=measurement(**fields)))

    line = measurement().splitlines()[1]
    assert errors() == []
    assert errors(metric="speedp") == [
        f"claims/new.yaml:6:{column(line, 'metric')}: unknown metric 'speedp' (did you mean 'speedup'?)"
    ]
    assert errors(format="fp9") == [
        f"claims/new.yaml:6:{column(line, 'format')}: measurements[0].format: 'fp9' is not one "
        "of fp32, bf16, fp16, fp8, fp8-e4m3, fp8-e5m2, mxfp8, int8, int4, nvfp4, mxfp4, nf4, "
        "low-bit, unstated (did you mean 'fp8'?)"
    ]
    assert errors(source="beta") == [
        f"claims/new.yaml:6:{column(line, 'source')}: a measurement's source must be one of the claim's supporting "
        "sources; 'beta' is not (supporting: alpha)"
    ]
    assert errors(value="1.5, range: [1, 2]") == [
        "claims/new.yaml:6:5: measurements[0]: give either a value or a range"
    ]


def test_a_source_version_must_be_one_of_the_dossiers(make_project: MakeProject) -> None:
    alpha = (MINIMAL / "dossiers/alpha.yaml").read_text() + (
        "versions:\n  - {id: v1, date: 2025-01-02, changes: First version.}\n"
        "  - {id: v2, date: 2025-03-01, changes: New numbers in Tab. 2.}\n"
    )
    sourced = (
        "  - {dossier: alpha, locator: Fig. 2, version: v3, stance: supports, basis: measured}\n"
    )
    assert messages(make_project, {"dossiers/alpha.yaml": alpha, **claim("measured", sourced)}) == [
        "claims/new.yaml:4:48: dossier 'alpha' has no version 'v3' (its versions: v1, v2)"
    ]


@pytest.fixture
def mini_site(make_project: MakeProject, tmp_path: Path) -> Path:
    alpha = (MINIMAL / "dossiers/alpha.yaml").read_text() + (
        "versions:\n  - {id: v1, date: 2025-01-02, changes: First version.}\n"
        "  - {id: v2, date: 2025-03-01, changes: New numbers in Tab. 2.}\n"
    )
    agree = (
        (MINIMAL / "claims/both-agree.yaml")
        .read_text()
        .replace("locator: Fig. 2,", "locator: Fig. 2, version: v2,", 1)
    )
    out = tmp_path / "_site"
    build(make_project({"dossiers/alpha.yaml": alpha, "claims/both-agree.yaml": agree}), out)
    return out


def page(site: Path, path: str) -> BeautifulSoup:
    return BeautifulSoup((site / path / "index.html").read_text("utf-8"), "html.parser")


def test_dossier_shows_its_versions_and_the_claim_which_one_it_means(mini_site: Path) -> None:
    versions = page(mini_site, "dossiers/alpha").select("ol.versions li")
    assert [v.select_one("strong").get_text() for v in versions] == ["v1", "v2"]  # type: ignore[union-attr]
    assert "New numbers in Tab. 2." in versions[1].get_text()
    sources = page(mini_site, "claims/both-agree").select("ul.sources li")
    alpha = next(s for s in sources if "Fig. 2" in s.get_text())
    assert "(v2)" in alpha.get_text()


def test_compare_marks_link_their_claims_and_a_table_holds_the_same_numbers(
    mini_site: Path,
) -> None:
    compare = page(mini_site, "compare")
    section = compare.select_one("#metric-speedup")
    assert section is not None
    marks = section.select("svg a.mark")
    rows = section.select("table.measurements tbody tr")
    assert len(marks) == len(rows) == 3
    assert {m["href"] for m in marks} == {"../claims/both-agree/"}
    names = [str(m["aria-label"]) for m in marks]
    assert names[0] == "≈1.5× against BF16, Alpha-7B, fp8 — Alpha, Fig. 2"  # read off a plot
    assert names[1].startswith("1.2–1.8× against BF16")
    # Text from content is escaped in the SVG like anywhere else.
    assert "BF16 <rollout> & co" in names[2]
    raw = (mini_site / "compare/index.html").read_text("utf-8")
    assert "<rollout>" not in raw and "BF16 &lt;rollout&gt; &amp; co" in raw
    assert [r.select("td")[0].get_text() for r in rows] == ["≈1.5×", "1.2–1.8×", "1.1×"]
    empty = compare.select_one("#metric-accuracy")  # listed, with no marks yet
    assert empty is not None and "Accuracy" in empty.get_text()


def test_prediction_status_is_computed_from_the_claims_that_test_it(
    make_project: MakeProject, tmp_path: Path
) -> None:
    def status(files: dict[str, str | None]) -> str:
        out = tmp_path / "site"
        build(make_project(files), out)
        found = page(out, "programs/prog").select_one(".kicker .status")
        assert found is not None
        return found.get_text()

    assert status({}) == "supported"
    against = (
        "statement: Alpha loses.\nlabel: measured\nsources:\n"
        + MEASURED
        + "tests: [{program: prog, outcome: contradicts}]\n"
    )
    assert status({"claims/against.yaml": against}) == "mixed"
    argued = against.replace("basis: measured", "basis: argued").replace(
        "measured\n", "mechanistic\n", 1
    )
    assert status({"claims/against.yaml": argued + "mechanism: M.\n"}) == "supported"
    tension = (
        (MINIMAL / "tensions/alpha-vs-beta.yaml")
        .read_text()
        .replace("boundary: [both-agree]\n", "")
    )
    assert (
        status({"claims/both-agree.yaml": None, "tensions/alpha-vs-beta.yaml": tension}) == "open"
    )


# ---------------------------------------------------------------- the real map's data


def test_measurements_csv_round_trips_against_the_claims(
    real_site: Path, real_graph: MapGraph
) -> None:
    rows = list(csv.DictReader(io.StringIO((real_site / "data/measurements.csv").read_text())))
    expected = []
    for entry in real_graph.entries("claim"):
        assert isinstance(entry.model, Claim)
        expected += [(entry.id, m) for m in entry.model.measurements]
    assert len(rows) == len(expected) > 30
    for row, (claim_id, m) in zip(rows, expected, strict=True):
        assert (row["claim"], row["metric"], row["source"], row["locator"]) == (
            claim_id,
            m.metric,
            m.source,
            m.locator,
        )
        assert (float(row["low"]), float(row["high"])) == (m.low, m.high)
        single = m.values[0] if len(m.values) == 1 else None
        printed = m.value if m.printed else None
        pairs = ((row["value"], single), (row["printed_value"], printed), (row["size_b"], m.size_b))
        for written, number in pairs:
            if number is None:
                assert written == ""
            else:  # every digit the source gave survives, and 2 is written 2, not 2.0
                assert float(written) == number
                assert not written.endswith(".0")
        assert (row["baseline"], row["model"], row["format"]) == (m.baseline, m.model, m.format)
    data = json.loads((real_site / "data/map.json").read_text())
    assert len(data["measurements"]) == len(rows)


def test_real_compare_page_has_three_metrics_with_linked_marks(
    real_pages: dict[str, BeautifulSoup],
) -> None:
    compare = real_pages["compare/index.html"]
    charts = compare.select("section.metric")
    assert len(charts) >= 3
    for chart in charts:
        marks, rows = chart.select("svg a.mark"), chart.select("table.measurements tbody tr")
        assert marks and len(marks) == len(rows)
        for mark in marks:
            assert re.fullmatch(r"\.\./claims/[a-z0-9-]+/", str(mark["href"]))
            assert " against " in mark["aria-label"] and ", " in mark["aria-label"]


def test_evidence_depth_on_about_is_computed_from_the_content(
    real_graph: MapGraph, real_pages: dict[str, BeautifulSoup]
) -> None:
    sources = [s for c in real_graph.entries("claim") for s in c.model.sources]  # type: ignore[attr-defined]
    below = [s for s in sources if not s.locator.startswith(("Abstract", "Title page"))]
    full = [
        d
        for d in real_graph.entries("dossier")
        if isinstance(d.model, Dossier) and d.model.read == "full-text"
    ]
    text = real_pages["about/index.html"].select_one("section.depth").get_text(" ", strip=True)  # type: ignore[union-attr]
    assert f"{len(below)} of the {len(sources)} sources" in text
    assert f"Dossiers read in full: {len(full)} of {len(real_graph.entries('dossier'))}." in text


def test_a_baseline_gives_its_value_or_its_range(make_project: MakeProject) -> None:
    def errors(**fields: str) -> list[str]:
        return messages(make_project, claim("measured", MEASURED, extra=measurement(**fields)))

    assert errors(baseline_value="1.0") == []
    assert errors(baseline_range="[0.5, 1.0]") == []
    assert errors(baseline_value="1.0", baseline_range="[0.5, 1.0]") == [
        "claims/new.yaml:6:5: measurements[0]: give the baseline's value or its range, not both"
    ]
    assert errors(baseline_range="[2, 1]") == [
        "claims/new.yaml:6:5: measurements[0]: baseline_range [2.0, 1.0] runs from high to low"
    ]


@pytest.mark.parametrize(
    ("fields", "unit", "value", "baseline"),
    [
        ({"value": 3e-06, "read_from": "text"}, "GB", "3 KB", "BF16"),
        ({"value": 0.25, "read_from": "text"}, "GB", "250 MB", "BF16"),
        ({"value": 0.5, "read_from": "table", "baseline_value": 2.0}, "s", "500 ms", "BF16 (2 s)"),
        ({"value": 1.5, "read_from": "plot", "baseline_value": 1.0}, "×", "≈1.5×", "BF16 (≈1×)"),
        ({"range": [1.2, 1.8], "read_from": "table", "baseline_range": [0.9, 1.0]}, "×", "1.2–1.8×", "BF16 (0.9–1×)"),
    ],
)  # fmt: skip
def test_values_read_in_units_that_fit_and_plot_readings_are_approximate(
    fields: dict[str, object], unit: str, value: str, baseline: str
) -> None:
    row = {"metric": "m", "baseline": "BF16", "model": "M", "format": "fp8", "source": "a"}
    m = Measurement.model_validate({**row, "locator": "Tab. 1", **fields}, strict=False)
    assert (value_text(m, unit), baseline_text(m, unit)) == (value, baseline)


@pytest.mark.parametrize(
    ("fields", "value", "low", "high"),
    [
        ({"value": 30, "printed": "percent-gain"}, "1.3× (printed as 30% faster)", 1.3, 1.3),
        ({"value": -15, "printed": "percent-gain"}, "0.85× (printed as -15% faster)", 0.85, 0.85),
        ({"range": [10, 20], "printed": "percent-time-cut"}, "1.11–1.25× (printed as 10–20% less time)", 1 / 0.9, 1.25),
        ({"value": 48, "printed": "percent-speedup"}, "1.48–1.92× (printed as a 48% speedup)", 1.48, 1 / 0.52),
    ],
)  # fmt: skip
def test_a_speedup_printed_as_a_percentage_is_shown_as_a_ratio_with_how_it_was_printed(
    fields: dict[str, object], value: str, low: float, high: float
) -> None:
    """One metric per quantity: 'N % faster', 'N % less time' and a bare 'N % speedup'
    each become a ratio (the last the range between its two readings)."""
    row = {"metric": "m", "baseline": "BF16", "model": "M", "format": "fp8", "source": "a"}
    m = Measurement.model_validate({**row, "locator": "Tab. 1", "read_from": "text", **fields})
    assert value_text(m, "×") == value
    assert (m.low, m.high) == pytest.approx((low, high))


def test_a_percentage_is_printed_only_on_a_ratio_and_no_time_cut_reaches_100(
    make_project: MakeProject,
) -> None:
    def errors(**fields: str) -> list[str]:
        return messages(make_project, claim("measured", MEASURED, extra=measurement(**fields)))

    assert errors(value="30", printed="percent-gain") == []
    line = measurement(value="30", printed="percent-gain", metric="accuracy").splitlines()[1]
    assert errors(value="30", printed="percent-gain", metric="accuracy") == [
        f"claims/new.yaml:6:{column(line, 'printed')}: a percent gain converts to a ratio: "
        "metric 'accuracy' is in '%', not '×'"
    ]
    assert errors(value="100", printed="percent-time-cut") == [
        "claims/new.yaml:6:5: measurements[0]: no time cut reaches 100 %: a gain that large "
        "is a 'percent-gain'"
    ]


def test_each_chart_says_what_on_it_compares_like_for_like(
    make_project: MakeProject, tmp_path: Path
) -> None:
    extra = measurement(value="30", printed="percent-gain", baseline="'no speculative decoding'")
    out = tmp_path / "_site"
    build(make_project(claim("measured", MEASURED, extra=extra)), out)
    section = page(out, "compare").select_one("#metric-speedup")
    assert section is not None
    said = section.select_one("ul.comparable")
    assert said is not None
    text = " ".join(said.get_text().split())
    assert "Baselines: 3 BF16, 1 a method (no precision named);" in text
    assert "1 printed as a percentage, shown as a ratio" in text
    assert "read off a plot" in text
    baselines = [o["value"] for o in page(out, "compare").select("select[name='baseline'] option")]
    assert baselines == ["", "BF16", "a method (no precision named)"]
    csv_rows = list(csv.DictReader(io.StringIO((out / "data/measurements.csv").read_text())))
    printed = [r for r in csv_rows if r["printed"]]
    assert [(r["value"], r["printed"], r["printed_value"]) for r in printed] == [
        ("1.3", "percent-gain", "30")
    ]
