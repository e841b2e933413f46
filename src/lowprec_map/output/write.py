"""Write: publish the rendered site into the output folder atomically.

Everything is written to a fresh sibling folder first, then swapped into
place, so a failed or interrupted build never leaves a half-written site.

The output folder is the tool's: a build replaces a folder only when it is
absent, empty, or a previous build (which carries MARKER), and builds into one
folder take turns through a lock file beside it, so two at once never publish
a partial site.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

MARKER = ".lowprec-map"
MARKER_TEXT = b"A lowprec-map build: each build replaces this whole folder.\n"
LOCK_WAIT_SECONDS = 120.0  # a build waits this long for another one into the same folder


class OutputDirError(Exception):
    """The output folder is somewhere a build must never write."""


def check_output_dir(out: Path, project_folders: list[Path]) -> None:
    """Refuse an output folder that is not the tool's to replace: one that holds, or sits
    inside, the project's folders or the working folder, or holds files but no MARKER."""
    target = out.resolve()
    if target == Path(target.anchor) or target == Path.home().resolve():
        raise OutputDirError(f"refusing to replace {target}")
    if target.exists() and not target.is_dir():
        raise OutputDirError(f"{out} exists and is not a folder")
    if Path.cwd().resolve().is_relative_to(target):
        raise OutputDirError(f"output folder {out} would replace the working folder")
    for folder in project_folders:
        resolved = folder.resolve()
        if resolved.is_relative_to(target) or target.is_relative_to(resolved):
            raise OutputDirError(f"output folder {out} would replace or sit inside {folder}")
    if target.is_dir() and not (target / MARKER).is_file():
        names = sorted(p.name for p in target.iterdir())
        if names:
            shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
            raise OutputDirError(
                f"{out} is not a lowprec-map build (it has no {MARKER} file) and holds "
                f"{shown}; remove it or choose another output folder"
            )


@contextmanager
def taking_turns(out: Path, wait: float = LOCK_WAIT_SECONDS) -> Iterator[None]:
    """Hold the lock of `out` (a file beside it) for the block: writers take turns.

    Waits up to `wait` seconds for another writer, then raises OutputDirError. The lock
    is the kernel's (flock), so a killed writer never leaves it held.
    """
    lock_path = out.absolute().parent / f".{out.name}.lock"
    lock_path.parent.mkdir(parents=True, exist_ok=True)
    with lock_path.open("ab") as lock:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise OutputDirError(
                        f"{out} is being written by another lowprec-map build or serve; "
                        "try again when it has finished"
                    ) from None
                time.sleep(0.05)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def mark_as_build(folder: Path) -> None:
    """Write the marker that lets later builds replace `folder`."""
    (folder / MARKER).write_bytes(MARKER_TEXT)


@contextmanager
def staged(out: Path) -> Iterator[Path]:
    """A fresh staging folder beside `out`, swapped into place if the block succeeds.

    Whatever the block writes into the staging folder becomes the whole site at
    once; on any error (or a kill) `out` is left exactly as it was. The caller holds
    `taking_turns(out)`, so the stale staging folders removed here are no one's.
    """
    out = out.absolute()
    staging = _new_staging(out)
    try:
        yield staging
        _swap_into_place(staging, out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _new_staging(out: Path) -> Path:
    out.parent.mkdir(parents=True, exist_ok=True)
    # A build killed mid-way leaves its staging folder behind; the site itself is whole.
    for stale in out.parent.glob(f".{out.name}.new-*"):
        shutil.rmtree(stale, ignore_errors=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.new-", dir=out.parent))
    staging.chmod(0o755)
    return staging


def write_files(files: Iterable[tuple[str, bytes]], staging: Path, previous: Path) -> int:
    """Write files into `staging`, hard-linking those unchanged since `previous`; the count.

    Safe to call from several processes at once on disjoint sets of files.
    """
    earlier = previous if previous.is_dir() else None
    folders: set[str] = {""}
    count = 0
    for relative_path, content in files:
        folder = _checked_folder(relative_path)
        if folder not in folders:
            (staging / folder).mkdir(parents=True, exist_ok=True)
            folders.add(folder)
        _place(earlier, relative_path, staging / relative_path, content)
        count += 1
    return count


def _checked_folder(relative_path: str) -> str:
    """The folder part of a site-relative file name, refusing names that leave the site.

    Checked on the text, not by resolving on disk: names come from the page plan,
    and a lexical check costs nothing per file where resolving walks every folder.
    """
    parts = relative_path.split("/")
    if relative_path.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise OutputDirError(f"refusing to write outside the output folder: {relative_path}")
    return "/".join(parts[:-1])


def _place(previous: Path | None, name: str, destination: Path, content: bytes) -> None:
    """Write `content`, or hard-link the previous build's file when its bytes are the same.

    An unchanged file then keeps its inode and mtime, so rsync-style deploys and
    browser caches see no change; the swap stays atomic either way.
    """
    if previous is not None:
        old = previous / name
        try:
            if old.stat().st_size == len(content) and old.read_bytes() == content:
                os.link(old, destination)
                return
        except OSError:
            pass  # no previous file, or links unsupported: write it
    destination.write_bytes(content)


def _swap_into_place(staging: Path, out: Path) -> None:
    """Make `staging` become `out`; afterwards `staging` holds the old site, if any.

    Two renames in the same folder: between them, for the microseconds two
    rename system calls take, `out` does not exist (a request then gets a 404,
    never a half-written site).
    """
    if not out.exists():
        staging.rename(out)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{out.name}.old-", dir=out.parent))
    old.rmdir()
    out.rename(old)
    staging.rename(out)
    old.rename(staging)
