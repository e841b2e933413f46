"""The build benchmark runs end to end at a small size (its figures are not checked:
timings belong in the benchmark's output, not in assertions)."""

from __future__ import annotations

import sys
from pathlib import Path

from conftest import REPO

sys.path.insert(0, str(REPO / "bench"))

import build_bench


def test_one_row_of_the_build_benchmark(tmp_path: Path) -> None:
    row = build_bench.measure(100, tmp_path, runs=2)
    assert row.entries == 100
    assert len(row.ratios) == 2
    assert (tmp_path / "_site/claims/index.html").is_file()  # the build really ran
    entry_files = list((tmp_path / "content").glob("*/*.yaml"))  # the floor reads YAML only
    assert len(list((tmp_path / "floor").rglob("index.html"))) == len(entry_files) > 90
    assert min(row.build_s, row.floor_s, row.build_cpu, row.floor_cpu, row.rebuild_s) > 0
    cells = build_bench.row_text(100, row).split()
    assert cells[0] == "100"
    assert len(cells) == 11  # one per column of COLUMNS
