"""Build speed at scale, side by side with a minimal floor, Hugo and an older checkout.
Run from the repository root:

    python bench/build_bench.py [--sizes 100 1000 10000] [--runs 3] [--baseline DIR]

For each N it generates synthetic content (bench/synth.py, seed 0) and prints,
as medians of --runs runs:
  - cold build: `python build.py build` as a whole process (time, peak memory,
    and CPU time with its forked children), after writing the package's bytecode;
  - the floor: the same number of entries through the least a generator must
    do (read YAML with the C loader, validate with one pydantic model, render
    one Jinja template, write one file each), also as a whole process;
  - the ratio generator / floor: each run times a build and then a floor back to
    back, and the ratio is the median of those pairs (with their range), which
    holds up better than a ratio of medians on a shared, noisy machine;
  - the cost per entry;
  - incremental rebuild after editing one claim, in-process as `serve` does it;
  - when `hugo` is on PATH: `hugo --quiet` on a Hugo site made from the same
    entries (bench/hugo_site.py), cold, in the same runs, and lowprec-map / Hugo;
  - with --baseline DIR (another checkout of this repository): DIR's build.py
    with DIR's templates on N entries from DIR's own bench/synth.py (an older
    checkout may not read today's schema), in the same runs, and ours / baseline.
"""

from __future__ import annotations

import argparse
import os
import platform
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

import hugo_site  # noqa: E402
import mkdocs_site  # noqa: E402
import synth  # noqa: E402
from timing import Job, Timing, compile_package, run_back_to_back  # noqa: E402

from lowprec_map.content.project import Project  # noqa: E402
from lowprec_map.dev.serve import DevSite  # noqa: E402

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


def dev_site(content: Path, out: Path) -> DevSite:
    """The incremental builder `serve` uses, for this checkout's theme."""
    return DevSite(Project(content, REPO / "templates", REPO / "static"), out)


def incremental(content: Path, out: Path) -> float:
    """Median time of the in-process rebuild after editing one claim (as serve does)."""
    site = dev_site(content, out)
    site.load_existing()
    site.rebuild()
    claims = sorted((content / "claims").glob("*.yaml"))
    claim = claims[len(claims) // 2]
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


def build_command(checkout: Path, content: Path, out: Path) -> list[str]:
    """`python build.py build` of one checkout, with that checkout's own theme."""
    return [
        *(sys.executable, str(checkout / "build.py"), "build", "--content", str(content)),
        *("--templates", str(checkout / "templates"), "--static", str(checkout / "static")),
        *("--out", str(out)),
    ]


def jobs(
    root: Path, hugo: str | None, baseline: Path | None, mkdocs: str | None = None
) -> dict[str, Job]:
    """The processes timed in each run, in order: build, floor, then Hugo, MkDocs and the
    baseline."""
    content, site, floor = root / "content", root / "_site", root / "floor"
    found = {
        "build": Job(build_command(REPO, content, site), (site,)),
        "floor": Job([sys.executable, "-c", FLOOR, str(content), str(floor)], (floor,)),
    }
    if hugo is not None:
        source, out = root / "hugo", root / "hugo_out"
        hugo_site.write_site(content, source)
        argv = [hugo, "--quiet", "--source", str(source), "--destination", str(out)]
        found["hugo"] = Job(argv, (out, source / "resources"))  # cold: no output, no cache
    if mkdocs is not None:
        project, out = root / "mkdocs", root / "mkdocs_out"
        mkdocs_site.write_site(content, project)
        argv = [mkdocs, "build", "--quiet", "-f", str(project / "mkdocs.yml"), "-d", str(out)]
        found["mkdocs"] = Job(argv, (out,))
    if baseline is not None:
        out = root / "baseline_site"
        found["baseline"] = Job(build_command(baseline, root / "baseline_content", out), (out,))
    return found


def baseline_content(baseline: Path, n: int, out: Path) -> None:
    """The baseline's own synthetic entries at N, from its own bench/synth.py: an older
    checkout may not read this schema, so each side builds the content it was made for."""
    env = {**os.environ, "PYTHONPATH": str(baseline / "src")}
    script = baseline / "bench" / "synth.py"
    subprocess.run(
        [sys.executable, str(script), str(n), str(out)],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )


@dataclass
class Versus:
    """Another generator timed in the same runs: its median seconds, ours / its per run."""

    seconds: float
    ratios: list[float]


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
    hugo: Versus | None = None
    baseline: Versus | None = None
    mkdocs: Versus | None = None


def versus(builds: list[Timing], others: list[Timing] | None) -> Versus | None:
    """The other generator's median, and ours / its for each run (None when not timed)."""
    if others is None:
        return None
    ratios = [b.wall / o.wall for b, o in zip(builds, others, strict=True)]
    return Versus(statistics.median(o.wall for o in others), ratios)


def measure(  # noqa: PLR0917 - the bench's own options
    n: int,
    root: Path,
    runs: int,
    hugo: str | None = None,
    baseline: Path | None = None,
    mkdocs: str | None = None,
) -> Row:
    """Generate N entries under `root`, then time `runs` back-to-back rounds of the build,
    the floor (and Hugo, the baseline checkout, when given), then the rebuild."""
    entries = sum(synth.generate(n, root / "content").values())
    if baseline is not None:
        baseline_content(baseline, n, root / "baseline_content")
    timings = run_back_to_back(jobs(root, hugo, baseline, mkdocs), runs)
    builds, floors = timings["build"], timings["floor"]
    return Row(
        entries,
        statistics.median(b.wall for b in builds),
        statistics.median(f.wall for f in floors),
        statistics.median(b.cpu for b in builds),
        statistics.median(f.cpu for f in floors),
        max(b.peak_kb for b in builds),
        [b.wall / f.wall for b, f in zip(builds, floors, strict=True)],
        incremental(root / "content", root / "_site"),
        versus(builds, timings.get("hugo")),
        versus(builds, timings.get("baseline")),
        versus(builds, timings.get("mkdocs")),
    )


def columns(hugo: bool = False, baseline: bool = False, mkdocs: bool = False) -> list[str]:
    """The table's column names in order, one per cell of row_text ("build s" is one)."""
    cells = ["N", "build s", "peak MB", "floor s", "ratio", "(range)", "build CPU"]
    cells += ["floor CPU", "ms/entry", "floor ms/e", "rebuild ms"]
    cells += ["hugo s", "/hugo", "(range)"] if hugo else []
    cells += ["base s", "/base", "(range)"] if baseline else []
    cells += ["mkdocs s", "/mkdocs", "(range)"] if mkdocs else []
    return cells


WIDTHS = {"N": 6, "(range)": 11, "build CPU": 9, "floor CPU": 9, "ms/entry": 9}
WIDTHS |= {"floor ms/e": 10, "rebuild ms": 10, "ratio": 6, "/hugo": 6, "/base": 6}
WIDTHS |= {"/mkdocs": 7}


def header(hugo: bool = False, baseline: bool = False, mkdocs: bool = False) -> str:
    """The table's first line."""
    names = columns(hugo, baseline, mkdocs)
    return " ".join(f"{cell:>{WIDTHS.get(cell, 8)}}" for cell in names)


COLUMNS = header()


def _ratio_cells(ratios: list[float]) -> str:
    spread = f"{min(ratios):.2f}-{max(ratios):.2f}"
    return f"{statistics.median(ratios):>6.2f} {spread:>11}"


def row_text(n: int, row: Row) -> str:
    """The row under header(hugo=row.hugo is not None, baseline=row.baseline is not None)."""
    text = (
        f"{n:>6} {row.build_s:>8.2f} {row.peak_kb / 1024:>8.0f} {row.floor_s:>8.2f} "
        f"{_ratio_cells(row.ratios)} {row.build_cpu:>9.2f} "
        f"{row.floor_cpu:>9.2f} {1000 * row.build_s / row.entries:>9.2f} "
        f"{1000 * row.floor_s / row.entries:>10.2f} {1000 * row.rebuild_s:>10.0f}"
    )
    for other in (row.hugo, row.baseline, row.mkdocs):
        if other is not None:
            text += f" {other.seconds:>8.2f} {_ratio_cells(other.ratios)}"
    return text


def _describe(checkout: Path) -> str:
    """A checkout's folder and commit (read-only: `git rev-parse`)."""
    git = shutil.which("git")
    command = [str(git), "-C", str(checkout), "rev-parse", "--short", "HEAD"]
    result = subprocess.run(command, capture_output=True, text=True, check=False) if git else None
    if result is None or result.returncode != 0:
        return f"{checkout} (commit unknown)"
    return f"{checkout} (commit {result.stdout.strip()}, plus any uncommitted changes)"


def _hugo_line(hugo: str | None) -> str:
    if hugo is None:
        return "hugo: not found on PATH; the Hugo columns are skipped"
    result = subprocess.run([hugo, "version"], capture_output=True, text=True, check=False)
    return f"hugo: {hugo}, {result.stdout.strip() or 'version unknown'}"


NOTES = (
    "ratio: lowprec-map / floor, the median of the runs' pairs (their range beside it).",
    "peak MB: the build process's largest resident set, with its forked children.",
    "CPU: user + system seconds of the whole process and its forked children, median.",
)
HUGO_NOTE = "/hugo: lowprec-map / Hugo per run, median (range); hugo s: Hugo's median seconds."
BASE_NOTE = "/base: ours / baseline per run, median (range); base s: the baseline's median."
MKDOCS_NOTE = (
    "/mkdocs: lowprec-map / MkDocs (default theme, search, one page per entry) per run, "
    "median (range)."
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 10000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--baseline", type=Path, metavar="DIR", help="another checkout to time")
    args = parser.parse_args()
    baseline = args.baseline.resolve() if args.baseline else None
    if baseline is not None and not (baseline / "build.py").is_file():
        parser.error(f"--baseline: no build.py in {baseline}")
    hugo = shutil.which("hugo")
    # MkDocs, the Python peer, is optional: `pip install mkdocs` to time it.
    mkdocs = shutil.which("mkdocs", path=str(Path(sys.executable).parent)) or shutil.which("mkdocs")
    for checkout in (REPO, baseline):
        if checkout is not None:
            compile_package(checkout)
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print(f"ours: {_describe(REPO)}")
    if baseline is not None:
        print(f"baseline: {_describe(baseline)}")
    print(_hugo_line(hugo))
    print(f"mkdocs: {mkdocs or 'not found (pip install mkdocs); the MkDocs columns are skipped'}")
    print(header(hugo is not None, baseline is not None, mkdocs is not None))
    with tempfile.TemporaryDirectory() as scratch:
        for n in args.sizes:
            row = measure(n, Path(scratch) / str(n), args.runs, hugo, baseline, mkdocs)
            print(row_text(n, row), flush=True)
    extra = ([HUGO_NOTE] if hugo else []) + ([BASE_NOTE] if baseline else [])
    extra += [MKDOCS_NOTE] if mkdocs else []
    print("\n".join([*NOTES, *extra]))


if __name__ == "__main__":
    main()
