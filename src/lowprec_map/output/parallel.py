"""Fork-parallel work: a large site's pages rendered and written on every core.

Workers are forked, so they start with the graph, the compiled templates and
the work itself already in memory; only task numbers and results (counts,
rendered pages, or an exception) cross the process boundary. Where fork is
unavailable, or the work is small, everything runs in this process.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

_Share = TypeVar("_Share")
_Result = TypeVar("_Result")
PARALLEL_THRESHOLD = 400  # below this many pages, forking costs more than it saves on 2 cores
# What a forked child runs, by its task number; set just before the fork, which
# hands it to the child.
_CHILD_WORK: Callable[[int], object] | None = None


def worth_forking(items: int) -> bool:
    """True when `items` pages are enough to split across forked processes."""
    return items >= PARALLEL_THRESHOLD and _cores() >= 2 and _can_fork()


def in_shares(items: list[_Share], work: Callable[[list[_Share]], _Result]) -> list[_Result]:
    """`work` on interleaved shares of `items`: one here, the others in forked children."""
    if not worth_forking(len(items)):
        return [work(items)]
    shares = min(_cores(), 4)
    with _forked(lambda index: work(items[index::shares]), shares - 1) as pool:
        pending = pool.map_async(_run_child, range(1, shares))
        mine = work(items[0::shares])
        return [mine, *pending.get()]


@contextmanager
def _forked(work: Callable[[int], object], processes: int) -> Iterator[Any]:
    """A pool of `processes` forked children that run `work` (see _run_child)."""
    global _CHILD_WORK  # noqa: PLW0603 - read by forked children, which inherit it
    _CHILD_WORK = work
    try:
        context = multiprocessing.get_context("fork")
        with context.Pool(processes, initializer=_ignore_interrupts) as pool:
            _CHILD_WORK = None  # the children have their copy
            yield pool
    finally:
        _CHILD_WORK = None


def _ignore_interrupts() -> None:
    """Ctrl-C is for this process, which stops the workers; they would each print a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run_child(index: int) -> object:
    assert _CHILD_WORK is not None
    return _CHILD_WORK(index)


def _cores() -> int:
    return os.cpu_count() or 1


def _can_fork() -> bool:
    return "fork" in multiprocessing.get_all_start_methods()
