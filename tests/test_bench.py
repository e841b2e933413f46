"""The build benchmark runs end to end at a small size (its figures are not checked:
timings belong in the benchmark's output, not in assertions)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from conftest import REPO

sys.path.insert(0, str(REPO / "bench"))

import build_bench
import hugo_site
import mkdocs_site
import synth

# Browsers, servers or other programs: outside the inner loop (pytest -m 'not slow').
pytestmark = pytest.mark.slow


HUGO = shutil.which("hugo")


def test_one_row_of_the_build_benchmark_with_every_column(tmp_path: Path) -> None:
    """A build, the floor, Hugo (when installed) and a baseline checkout (this one), once."""
    row = build_bench.measure(40, tmp_path, runs=1, hugo=HUGO, baseline=REPO)
    assert row.entries == sum(synth.counts_for(40).values())
    assert len(row.ratios) == 1
    assert (tmp_path / "_site/claims/index.html").is_file()  # the build really ran
    entry_files = list((tmp_path / "content").glob("*/*.yaml"))  # the floor reads YAML only
    assert len(list((tmp_path / "floor").rglob("index.html"))) == len(entry_files) > 30
    assert min(row.build_s, row.floor_s, row.build_cpu, row.floor_cpu, row.rebuild_s) > 0
    assert row.baseline is not None and len(row.baseline.ratios) == 1
    assert (tmp_path / "baseline_site/claims/index.html").is_file()  # the baseline really ran
    cells = build_bench.row_text(40, row).split()
    assert cells[0] == "40"
    assert len(cells) == len(build_bench.columns(hugo=HUGO is not None, baseline=True))
    assert "/base" in build_bench.header(baseline=True).split()
    if HUGO is not None:
        assert row.hugo is not None and len(row.hugo.ratios) == 1
        assert (tmp_path / "hugo_out/claims/claim-00000/index.html").is_file()  # Hugo ran
        assert (tmp_path / "hugo_out/programs/program-00000/index.html").is_file()
        assert "/hugo" in build_bench.header(hugo=True).split()


def test_the_hugo_site_has_one_page_per_entry(tmp_path: Path) -> None:
    counts = synth.generate(100, tmp_path / "content")
    assert hugo_site.write_site(tmp_path / "content", tmp_path / "hugo") == sum(counts.values())
    pages = [p for p in (tmp_path / "hugo/content").rglob("*.md") if p.name != "_index.md"]
    programs = list((tmp_path / "hugo/content/programs").glob("*/_index.md"))
    assert len(pages) + len(programs) == sum(counts.values())
    assert len(programs) == counts["program"]  # the programs are the taxonomy's terms


def test_the_mkdocs_project_has_one_page_per_entry_and_builds(tmp_path: Path) -> None:
    counts = synth.generate(60, tmp_path / "content")
    written = mkdocs_site.write_site(tmp_path / "content", tmp_path / "mkdocs")
    assert written == sum(counts.values())
    pages = [p for p in (tmp_path / "mkdocs/docs").rglob("*.md") if p.name != "index.md"]
    assert len(pages) == written
    mkdocs = shutil.which("mkdocs", path=str(Path(sys.executable).parent))
    if mkdocs is None:
        pytest.skip("mkdocs is not installed (the bench's optional Python peer)")
    row = build_bench.measure(40, tmp_path / "row", runs=1, mkdocs=mkdocs)
    assert row.mkdocs is not None and len(row.mkdocs.ratios) == 1
    assert (tmp_path / "row/mkdocs_out/claims/claim-00000/index.html").is_file()  # it ran
    cells = build_bench.row_text(40, row).split()
    assert len(cells) == len(build_bench.columns(mkdocs=True))
