"""Write: publish the rendered site into the output folder atomically.

Everything is written to a fresh sibling folder first, then swapped into
place, so a failed or interrupted build never leaves a half-written site.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path


class OutputDirError(Exception):
    """The output folder is somewhere a build must never write."""


def check_output_dir(out: Path, protected: list[Path]) -> None:
    """Refuse output folders that are, or contain, the project's own files."""
    target = out.resolve()
    if target == Path(target.anchor) or target == Path.home().resolve():
        raise OutputDirError(f"refusing to replace {target}")
    if target.exists() and not target.is_dir():
        raise OutputDirError(f"{out} exists and is not a folder")
    for path in protected:
        resolved = path.resolve()
        if resolved == target or resolved.is_relative_to(target):
            raise OutputDirError(f"output folder {out} would replace {path}")


def publish(files: Mapping[str, bytes], out: Path) -> None:
    """Write `files` (relative path -> bytes) so that `out` holds exactly them."""
    with staged(out) as staging:
        write_files(sorted(files.items()), staging, out)


@contextmanager
def staged(out: Path) -> Iterator[Path]:
    """A fresh staging folder beside `out`, swapped into place if the block succeeds.

    Whatever the block writes into the staging folder becomes the whole site at
    once; on any error (or a kill) `out` is left exactly as it was.
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
