"""Fork-parallel work: a large site's pages and data files made on every core at once.

Optional by design: `run_all` runs the tasks one after the other where fork is
unavailable, on one core, or for a small site, and the output is the same.
Workers are forked, so they start with the graph, the compiled templates and
the tasks already in memory; only task numbers and results (counts, or an
exception) cross the process boundary.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Sequence
from typing import TypeVar

from lowprec_map import speed

_Item = TypeVar("_Item")
PARALLEL_THRESHOLD = 200  # below this many pages, forking costs more than it saves on 2 cores
# The tasks a forked child runs, by number; set just before the fork, which hands them over.
_TASKS: Sequence[Callable[[], int]] = ()


def worth_forking(pages: int) -> bool:
    """True when `pages` pages are enough to split across forked processes."""
    return pages >= PARALLEL_THRESHOLD and _cores() >= 2 and _can_fork() and speed.on("fork-pool")


def shares(items: list[_Item], count: int) -> list[list[_Item]]:
    """`items` dealt into `count` interleaved shares (pages of every kind in each)."""
    return [items[index::count] for index in range(count)]


def run_all(tasks: Sequence[Callable[[], int]], parallel: bool) -> int:
    """Run every task (the first here, the others in forked children when `parallel`);
    the sum of their results. An exception in any task is raised here."""
    if not parallel or len(tasks) < 2:
        return sum(task() for task in tasks)
    global _TASKS  # noqa: PLW0603 - read by the forked children, which inherit it
    _TASKS = tasks
    try:
        context = multiprocessing.get_context("fork")
        with context.Pool(len(tasks) - 1, initializer=_ignore_interrupts) as pool:
            pending = pool.map_async(_run_task, range(1, len(tasks)))
            done_here = tasks[0]()
            return done_here + sum(pending.get())
    finally:
        _TASKS = ()


def cores() -> int:
    """How many processes `run_all` should share pages between."""
    return min(_cores(), 4)


def _ignore_interrupts() -> None:
    """Ctrl-C is for this process, which stops the workers; they would each print a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_task(index: int) -> int:
    return _TASKS[index]()


def _cores() -> int:
    return os.cpu_count() or 1


def _can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()
