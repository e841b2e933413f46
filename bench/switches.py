"""What each mechanism that exists only for speed pays today, side by side in one run.
Run from the repository root:

    python bench/switches.py [--sizes real 1000] [--runs 5] [--readme]

For the real content and for N synthetic entries (bench/synth.py), it times the
cold build as a whole process with every switch on, then with each switch of
`lowprec_map.speed` off in turn, back to back in every run (so run k of each ran
under about the same load), and the import of the command line alone. A switch
pays (off / on - 1) of the build's wall time: the median of the runs' pairs, with
their range. One that pays under 5 % at both sizes is marked for removal, as the
design asks. With --readme, the table replaces the one between the README's
`speed-table` markers.
"""

from __future__ import annotations

import argparse
import platform
import re
import statistics
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


def measure(size: str, runs: int) -> dict[str, list[float]]:
    """Each switch's pay per run at `size` ('real' or a number of entries), the 'on'
    build's wall times under 'on' and the import's under 'import'."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        content = REPO / "content"
        if size != "real":
            content = root / "content"
            synth.generate(int(size), content)
        timings = run_back_to_back(jobs(content, root), runs)
    result = {s: pays(timings[s], timings["on"]) for s in SWITCHES}
    result["on"] = [t.wall for t in timings["on"]]
    result["import"] = [t.wall for t in timings["import"]]
    return result


def cell(values: list[float]) -> str:
    """'+12 % (8 to 15)': the median pay and its range."""
    low, high = min(values), max(values)
    return f"{statistics.median(values):+.0%} ({low:+.0%} to {high:+.0%})".replace("%", " %")


def table(results: dict[str, dict[str, list[float]]], runs: int) -> str:
    """The Markdown table: one row per switch, one column per size, and the verdict."""
    sizes = list(results)
    names = ["real content" if s == "real" else f"{s} entries" for s in sizes]
    lines = [
        f"| switch | what it does | {' | '.join(names)} | verdict |",
        f"|---|---|{'---|' * len(sizes)}---|",
    ]
    for switch, what in SWITCHES.items():
        cells = [cell(results[s][switch]) for s in sizes]
        best = max(statistics.median(results[s][switch]) for s in sizes)
        verdict = "keep" if best >= KEEP_AT else "pays under 5 %: remove"
        lines.append(f"| `{switch}` | {what} | {' | '.join(cells)} | {verdict} |")
    builds = ", ".join(
        f"{n}: {statistics.median(results[s]['on']):.2f} s"
        for s, n in zip(sizes, names, strict=True)
    )
    imports = statistics.median(v for s in sizes for v in results[s]["import"])
    lines += [
        "",
        f"What the build takes longer with the switch off (median of {runs} back-to-back "
        f"runs, range in brackets). Cold build with every switch on: {builds}; importing "
        f"the command line alone: {imports:.2f} s. {platform.python_implementation()} "
        f"{platform.python_version()} on {platform.machine()}, by `python bench/switches.py`.",
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
