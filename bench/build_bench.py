"""Build speed at scale, side by side with a minimal floor. Run from the repository root:

    python bench/build_bench.py [--sizes 100 1000 10000] [--runs 3]

For each N it generates synthetic content (bench/synth.py, seed 0) and prints,
as medians of --runs runs:
  - cold build: `python build.py` as a whole process (time and peak memory);
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
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
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


def timed(command: list[str]) -> tuple[float, int]:
    """Wall time and peak RSS (KB) of a whole process."""
    started = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(result.stderr[-2000:])
    return elapsed, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 10000])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    header = (
        f"{'N':>6} {'entries':>7} {'build s':>8} {'peak MB':>8} {'floor s':>8} {'ratio':>6} "
        f"{'(range)':>11} {'ms/entry':>9} {'floor ms/e':>10} {'rebuild ms':>10}"
    )
    print(header)
    with tempfile.TemporaryDirectory() as scratch:
        for n in args.sizes:
            root = Path(scratch) / str(n)
            counts = synth.generate(n, root / "content")
            entries = sum(counts.values())
            builds, floors, peaks, ratios = [], [], [], []
            for _ in range(args.runs):
                shutil.rmtree(root / "_site", ignore_errors=True)
                seconds, peak = timed(
                    [
                        sys.executable,
                        str(REPO / "build.py"),
                        "--content",
                        str(root / "content"),
                        "--out",
                        str(root / "_site"),
                    ]
                )
                builds.append(seconds)
                peaks.append(peak)
                shutil.rmtree(root / "floor", ignore_errors=True)
                floors.append(
                    timed(
                        [sys.executable, "-c", FLOOR, str(root / "content"), str(root / "floor")]
                    )[0]
                )
                ratios.append(seconds / floors[-1])
            build_s, floor_s = statistics.median(builds), statistics.median(floors)
            rebuild = incremental(root / "content", root / "_site")
            print(
                f"{n:>6} {entries:>7} {build_s:>8.2f} {max(peaks) / 1024:>8.0f} {floor_s:>8.2f} "
                f"{statistics.median(ratios):>6.2f} {f'{min(ratios):.2f}-{max(ratios):.2f}':>11} "
                f"{1000 * build_s / entries:>9.2f} {1000 * floor_s / entries:>10.2f} "
                f"{1000 * rebuild:>10.0f}"
            )
    print("peak MB: the largest child process so far (ru_maxrss); it only grows down the table.")


if __name__ == "__main__":
    main()
