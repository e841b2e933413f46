"""Build speed at scale, side by side with a minimal floor. Run from the repository root:

    python bench/build_bench.py [--sizes 100 1000 10000] [--runs 3]

For each N it generates synthetic content (bench/synth.py, seed 0) and prints,
as medians of --runs runs:
  - cold build: `python build.py` as a whole process (time, peak memory, and CPU
    time with its forked children), after writing the package's bytecode;
  - the floor: the same number of entries through the least a generator must
    do (read YAML with the C loader, validate with one pydantic model, render
    one Jinja template, write one file each), also as a whole process;
  - the ratio generator / floor: each run times a build and then a floor back to
    back, and the ratio is the median of those pairs (with their range), which
    holds up better than a ratio of medians on a shared, noisy machine;
  - the cost per entry;
  - incremental rebuild after editing one claim, in-process as `serve` does it.
"""

from __future__ import annotations

import argparse
import compileall
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "bench"))

import synth  # noqa: E402

FLOOR = r"""
import sys, datetime, pathlib, yaml, jinja2, pydantic
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
class Entry(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="allow")
    added: datetime.date
    updated: datetime.date
template = jinja2.Environment(autoescape=True).from_string(
    "<!doctype html><title>{{ e.title or e.statement }}</title>"
    "<h1>{{ e.title or e.statement }}</h1>"
    "{% for k, v in fields %}<p><b>{{ k }}</b> {{ v }}</p>{% endfor %}")
content, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
for path in sorted(content.glob("*/*.yaml")):
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=Loader)
    entry = Entry.model_validate(data)
    html = template.render(e=entry, fields=sorted(data.items(), key=str))
    target = out / path.parent.name / path.stem / "index.html"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(html, encoding="utf-8")
"""


def timed(command: list[str]) -> tuple[float, int, float]:
    """Wall time, peak RSS (KB) and CPU time (user + system, with its forked
    children) of a whole process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(result.stderr[-2000:])
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, after.ru_maxrss, cpu


def compile_package() -> None:
    """Write the package's bytecode first, as `pip install` does for an installed one.

    An editable install writes it on first import, unless PYTHONDONTWRITEBYTECODE
    is set (it is on some CI machines, this one included): then every timed build
    would compile the generator's modules again (~40 ms) while the floor's
    libraries come precompiled.
    """
    compileall.compile_dir(str(REPO / "src"), quiet=1)


def incremental(content: Path, out: Path) -> float:
    """Median time of the in-process rebuild after editing one claim (as serve does)."""
    from lowprec_map.project import Project  # noqa: PLC0415
    from lowprec_map.serve import DevSite  # noqa: PLC0415

    site = DevSite(Project(content, REPO / "templates", REPO / "static"), out)
    site.load_existing()
    site.rebuild()
    claim = sorted((content / "claims").glob("*.yaml"))[
        len(list((content / "claims").glob("*.yaml"))) // 2
    ]
    original = claim.read_text()
    times = []
    for run in range(5):
        claim.write_text(original.replace("statement: ", f"statement: Edit {run}. ", 1))
        started = time.perf_counter()
        site.rebuild()
        times.append(time.perf_counter() - started)
    claim.write_text(original)
    assert not site.errors, site.errors
    return statistics.median(times)


@dataclass
class Row:
    """One N's figures: medians over the runs, ratios of back-to-back pairs."""

    entries: int
    build_s: float
    floor_s: float
    build_cpu: float
    floor_cpu: float
    peak_kb: int
    ratios: list[float]
    rebuild_s: float


def measure(n: int, root: Path, runs: int) -> Row:
    """Generate N entries under `root`, then time `runs` build/floor pairs and the rebuild."""
    entries = sum(synth.generate(n, root / "content").values())
    content, site, floor = str(root / "content"), root / "_site", root / "floor"
    builds, floors, ratios = [], [], []
    for _ in range(runs):
        shutil.rmtree(site, ignore_errors=True)
        build = timed(
            [sys.executable, str(REPO / "build.py"), "--content", content, "--out", str(site)]
        )
        shutil.rmtree(floor, ignore_errors=True)
        bottom = timed([sys.executable, "-c", FLOOR, content, str(floor)])
        builds.append(build)
        floors.append(bottom)
        ratios.append(build[0] / bottom[0])
    return Row(
        entries,
        statistics.median(b[0] for b in builds),
        statistics.median(f[0] for f in floors),
        statistics.median(b[2] for b in builds),
        statistics.median(f[2] for f in floors),
        max(b[1] for b in builds),
        ratios,
        incremental(root / "content", site),
    )


COLUMNS = (
    f"{'N':>6} {'build s':>8} {'peak MB':>8} {'floor s':>8} {'ratio':>6} {'(range)':>11} "
    f"{'build CPU':>9} {'floor CPU':>9} {'ms/entry':>9} {'floor ms/e':>10} {'rebuild ms':>10}"
)


def row_text(n: int, row: Row) -> str:
    """The row under COLUMNS."""
    spread = f"{min(row.ratios):.2f}-{max(row.ratios):.2f}"
    return (
        f"{n:>6} {row.build_s:>8.2f} {row.peak_kb / 1024:>8.0f} {row.floor_s:>8.2f} "
        f"{statistics.median(row.ratios):>6.2f} {spread:>11} {row.build_cpu:>9.2f} "
        f"{row.floor_cpu:>9.2f} {1000 * row.build_s / row.entries:>9.2f} "
        f"{1000 * row.floor_s / row.entries:>10.2f} {1000 * row.rebuild_s:>10.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 10000])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    compile_package()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print(COLUMNS)
    with tempfile.TemporaryDirectory() as scratch:
        for n in args.sizes:
            print(row_text(n, measure(n, Path(scratch) / str(n), args.runs)), flush=True)
    print("peak MB: the largest process so far (ru_maxrss only grows: give sizes in rising order).")
    print("CPU: user + system seconds of the whole process and its forked children, median.")


if __name__ == "__main__":
    main()
