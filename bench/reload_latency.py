"""Save-to-served latency of `lowprec-map serve`, measured over real HTTP.

Copies the repository's content, templates and static files into a scratch
project, starts the dev server, then repeatedly edits one claim and times how
long until the claim's page is served with the new text. Prints the median,
the spread, and the server's own rebuild times. Run from the repository root:

    python bench/reload_latency.py [--runs 15]
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent


def fetch(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return str(response.read().decode())
    except OSError:
        return ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--synthetic", type=int, metavar="N", help="use N synthetic entries")
    args = parser.parse_args()
    runs = args.runs
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        for name in ("templates", "static"):
            shutil.copytree(REPO / name, root / name)
        if args.synthetic:
            sys.path.insert(0, str(REPO / "bench"))
            import synth  # noqa: PLC0415

            synth.generate(args.synthetic, root / "content")
        else:
            shutil.copytree(REPO / "content", root / "content")
        claims = sorted((root / "content/claims").glob("*.yaml"))
        claim = claims[len(claims) // 2]
        claim.write_text(yaml.safe_dump(yaml.safe_load(claim.read_text()), allow_unicode=True))
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        server = subprocess.Popen(
            [sys.executable, str(REPO / "build.py"), "serve", "--port", str(port)],
            cwd=root,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        page = f"http://127.0.0.1:{port}/claims/{claim.stem}/"
        try:
            while "<h1>" not in fetch(page):
                time.sleep(0.05)
            time.sleep(1.0)  # let the first data-file export finish
            latencies = [_one_edit(claim, page, run) for run in range(runs)]
        finally:
            server.terminate()
            output = server.communicate(timeout=10)[0]
    rebuilds = [float(ms) for ms in re.findall(r"rebuilt \d+ file\(s\) in (\d+) ms", output)]
    print(f"machine: {_machine()}")
    what = f"{args.synthetic} synthetic entries" if args.synthetic else "the repository's content"
    print(f"content: {what}; runs: {runs}")
    print(
        f"save -> page served with the edit: median {statistics.median(latencies):.0f} ms, "
        f"min {min(latencies):.0f} ms, max {max(latencies):.0f} ms"
    )
    if rebuilds:
        print(f"rebuild itself (server log):       median {statistics.median(rebuilds):.0f} ms")
    print("(changes arrive by inotify via watchfiles, after a 10 ms quiet period)")


def _one_edit(claim: Path, page: str, run: int) -> float:
    text = claim.read_text(encoding="utf-8")
    marker = f"bench-marker-{run}"
    data = yaml.safe_load(text)
    data["statement"] = f"{data['statement']} {marker}"
    edited = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    time.sleep(0.3)  # let the previous rebuild settle
    started = time.perf_counter()
    claim.write_text(edited, encoding="utf-8")
    while marker not in fetch(page):
        time.sleep(0.002)
    elapsed = 1000 * (time.perf_counter() - started)
    claim.write_text(text, encoding="utf-8")
    while marker in fetch(page):
        time.sleep(0.01)
    return elapsed


def _machine() -> str:
    cpu = platform.processor() or platform.machine()
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


if __name__ == "__main__":
    main()
