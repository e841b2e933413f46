"""Whole processes timed cold, back to back: the measuring half of bench/build_bench.py."""

from __future__ import annotations

import compileall
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple


class Timing(NamedTuple):
    """One run of one process."""

    wall: float  # seconds
    peak_kb: int  # the largest resident set of the process and its forked children
    cpu: float  # user + system seconds of the process and its forked children


@dataclass(frozen=True)
class Job:
    """A whole process to time cold: its command, and the folders removed before each run."""

    argv: list[str]
    clear: tuple[Path, ...] = ()


def timed(command: list[str]) -> Timing:
    """Wall time, peak RSS and CPU time of a whole process (with its forked children).

    The figures come from wait4() on this one child, so they are its own: a
    process timed earlier (Hugo, a baseline) does not lift a later one's peak,
    as the running maximum of getrusage(RUSAGE_CHILDREN) would.
    """
    with tempfile.TemporaryFile() as errors:
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=errors)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode != 0:
            errors.seek(0)
            message = errors.read().decode(errors="replace")[-2000:]
            raise SystemExit(f"{command[:2]} failed (exit {process.returncode}):\n{message}")
    return Timing(elapsed, usage.ru_maxrss, usage.ru_utime + usage.ru_stime)


def run_back_to_back(jobs: dict[str, Job], runs: int) -> dict[str, list[Timing]]:
    """Time every job once per run, in the given order each time, so run k of every job
    ran under about the same load and their per-run ratios pair up."""
    timings: dict[str, list[Timing]] = {name: [] for name in jobs}
    for _ in range(runs):
        for name, job in jobs.items():
            for folder in job.clear:
                shutil.rmtree(folder, ignore_errors=True)
            timings[name].append(timed(job.argv))
    return timings


def compile_package(checkout: Path) -> None:
    """Write a checkout's bytecode first, as `pip install` does for an installed package.

    An editable install writes it on first import, unless PYTHONDONTWRITEBYTECODE
    is set (it is on some CI machines, this one included): then every timed build
    would compile the generator's modules again (~40 ms) while the floor's
    libraries come precompiled. compileall writes it whatever that variable says.
    """
    compileall.compile_dir(str(checkout / "src"), quiet=1)
