"""What each mechanism that exists only for speed pays today, side by side in one run.
Run from the repository root:

    python bench/switches.py [--sizes real 1000] [--runs 5] [--readme]

For the real content and for N synthetic entries (bench/synth.py), it times the
cold build as a whole process with every switch on, then with each switch of
`lowprec_map.speed` off in turn, back to back in every run (so run k of each ran
under about the same load), and the import of the command line alone; then, in a
process of its own per switch, serve's rebuild after a one-claim edit. A switch
pays (off / on - 1) of the build's wall time, and of the rebuild's: the median of
the runs' pairs, with their range. One that pays under 5 % everywhere is marked for
removal, as the design asks. With --readme, the table replaces the one between the
README's `speed-table` markers.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "bench"))

import synth  # noqa: E402
from build_bench import build_command  # noqa: E402
from timing import Job, Timing, compile_package, run_back_to_back  # noqa: E402

from lowprec_map.speed import SWITCHES  # noqa: E402

KEEP_AT = 0.05  # a mechanism for speed stays when it pays this much at some size
MARKERS = ("<!-- speed-table -->", "<!-- /speed-table -->")


def jobs(content: Path, root: Path) -> dict[str, Job]:
    """All switches on, each switch off, and the import alone."""
    out = root / "site"
    build = build_command(REPO, content, out)
    found = {"on": Job(build, (out,))}
    for switch in SWITCHES:
        found[switch] = Job(["env", f"LOWPREC_SLOW={switch}", *build], (out,))
    found["import"] = Job([sys.executable, "-c", "import lowprec_map.cli"])
    return found


def pays(off: list[Timing], on: list[Timing]) -> list[float]:
    """Per run, how much longer the build took with the switch off: off / on - 1."""
    return [a.wall / b.wall - 1 for a, b in zip(off, on, strict=True)]


REBUILD = (
    "import sys; sys.path.insert(0, {bench!r}); from pathlib import Path; import build_bench;"
    "print(build_bench.incremental(Path({content!r}), Path({out!r})))"
)


def rebuild_seconds(content: Path, out: Path, switch: str | None) -> float:
    """serve's one-claim rebuild (build_bench.incremental), in a fresh process with
    `switch` off (None: every switch on)."""
    env = {**os.environ, "LOWPREC_SLOW": switch or ""}
    code = REBUILD.format(bench=str(REPO / "bench"), content=str(content), out=str(out))
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    shutil.rmtree(out, ignore_errors=True)
    return float(done.stdout.split()[-1])


def measure(size: str, runs: int) -> dict[str, list[float]]:
    """Each switch's pay per run at `size` ('real' or a number of entries) for the build
    and (under 'rebuild:<switch>') for serve's rebuild; the 'on' build's wall times under
    'on' and the import's under 'import'."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        content = root / "content"
        if size == "real":
            shutil.copytree(REPO / "content", content)  # the rebuild edits a claim
        else:
            synth.generate(int(size), content)
        timings = run_back_to_back(jobs(content, root), runs)
        rebuilds: dict[str | None, list[float]] = {s: [] for s in [None, *SWITCHES]}
        for _ in range(runs):
            for switch, seconds in rebuilds.items():
                seconds.append(rebuild_seconds(content, root / "dev", switch))
    result = {s: pays(timings[s], timings["on"]) for s in SWITCHES}
    for switch in SWITCHES:
        pairs = zip(rebuilds[switch], rebuilds[None], strict=True)
        result[f"rebuild:{switch}"] = [off / on - 1 for off, on in pairs]
    result["on"] = [t.wall for t in timings["on"]]
    result["import"] = [t.wall for t in timings["import"]]
    result["rebuild"] = rebuilds[None]
    return result


def cell(values: list[float]) -> str:
    """'+12 % (8 to 15)': the median pay and its range."""
    low, high = min(values), max(values)
    return f"{statistics.median(values):+.0%} ({low:+.0%} to {high:+.0%})".replace("%", " %")


def table(results: dict[str, dict[str, list[float]]], runs: int) -> str:
    """The Markdown table: one row per switch, one column per size, and the verdict."""
    sizes = list(results)
    names = ["real content" if s == "real" else f"{s} entries" for s in sizes]
    heads = [f"build, {n}" for n in names] + [f"serve's rebuild, {n}" for n in names]
    lines = [
        f"| switch | what it does | {' | '.join(heads)} | verdict |",
        f"|---|---|{'---|' * len(heads)}---|",
    ]
    for switch, what in SWITCHES.items():
        keys = [(s, switch) for s in sizes] + [(s, f"rebuild:{switch}") for s in sizes]
        cells = [cell(results[s][key]) for s, key in keys]
        best = max(statistics.median(results[s][key]) for s, key in keys)
        verdict = "keep" if best >= KEEP_AT else "pays under 5 %: remove"
        lines.append(f"| `{switch}` | {what} | {' | '.join(cells)} | {verdict} |")
    pairs = list(zip(sizes, names, strict=True))
    builds = ", ".join(f"{n}: {statistics.median(results[s]['on']):.2f} s" for s, n in pairs)
    again = ", ".join(
        f"{n}: {1000 * statistics.median(results[s]['rebuild']):.0f} ms" for s, n in pairs
    )
    imports = statistics.median(v for s in sizes for v in results[s]["import"])
    lines += [
        "",
        f"How much longer the cold build (a whole process) and serve's one-claim rebuild "
        f"take with the switch off (median of {runs} back-to-back runs, range in "
        f"brackets). With every switch on, the build takes {builds}, the rebuild {again}; "
        f"importing the command line alone takes {imports:.2f} s. "
        f"{platform.python_implementation()} {platform.python_version()} on "
        f"{platform.machine()}, by `python bench/switches.py`.",
    ]
    return "\n".join(lines)


def write_readme(text: str) -> None:
    """Put `text` between the README's speed-table markers."""
    readme = REPO / "README.md"
    start, end = MARKERS
    body = readme.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(start) + ".*?" + re.escape(end), re.DOTALL)
    if not pattern.search(body):
        raise SystemExit(f"README.md has no {start} ... {end} markers")
    readme.write_text(pattern.sub(lambda _: f"{start}\n{text}\n{end}", body), encoding="utf-8")


def main() -> None:
    """Measure, print the table, and with --readme write it into the README."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", default=["real", "1000"])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--readme", action="store_true", help="rewrite the README's table")
    args = parser.parse_args()
    compile_package(REPO)
    results = {size: measure(size, args.runs) for size in args.sizes}
    text = table(results, args.runs)
    print(text)
    if args.readme:
        write_readme(text)


if __name__ == "__main__":
    main()
