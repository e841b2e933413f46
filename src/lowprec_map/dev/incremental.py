"""serve's incremental machinery that the build does without: what it keeps between
checks of one content folder. CONTRIBUTING's "How serve redraws only what a save
changed" walks through every idea; this module holds the first, which files changed
(`ContentCache`, the `Reuse` that `content.check` accepts).
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from pathlib import Path

from lowprec_map.content.check import Listing, validated
from lowprec_map.content.graph import MapGraph
from lowprec_map.content.load import MAX_FILE_BYTES
from lowprec_map.content.project import discover
from lowprec_map.content.validate import ValidateResult
from lowprec_map.errors import Problem
from lowprec_map.registry import REGISTRY


@dataclass
class FileResult:
    """What loading and validating one file produced, and the file's stamp and digest."""

    stamp: tuple[int, int] | None  # modification time and size, if settled when taken
    digest: bytes
    kind: str
    result: ValidateResult


# A file modified this recently may be modified again within the same timestamp
# tick and keep its size: its bytes are compared (by digest) instead of trusted.
SETTLED_NS = 2_000_000_000


@dataclass
class ContentCache:
    """What `serve` keeps between checks: the files found, and each file's validated result.

    A file whose modification time and size are unchanged (or, if modified in the
    last two seconds, whose bytes are unchanged) is not parsed or validated again.
    The folders are listed again only when one of them changed (adding, removing or
    renaming a file changes its folder's modification time) or changed recently.
    """

    files: dict[Path, FileResult] = field(default_factory=dict)
    graph: MapGraph | None = (
        None  # the last graph: a save that keeps every reference keeps its links
    )
    listing: Listing | None = None

    def discover(self, content: Path) -> Listing:
        """The content folder's files (as `discover` finds them), listed again only when
        a folder changed; each file's Path object is kept while it exists."""
        last = self.listing
        if last is not None and all(
            mtime is not None and _settled_stamp(path) == mtime for path, mtime in last.stamps
        ):
            return last
        # Stamped before listing: a change made while listing shows as a newer time.
        folders = [content, *(content / name for name in sorted(REGISTRY.folders))]
        stamps = [(f, _settled_stamp(f)) for f in folders if f.is_dir()]
        problems: list[Problem] = []
        files = discover(content, problems)
        self.listing = Listing(stamps, files, problems)
        self.forget_all_but({path for path, _ in files})
        return self.listing

    def forget_folder(self) -> None:
        """The content folder is gone: list it again when it is back."""
        self.listing = None

    def forget_all_but(self, paths: set[Path]) -> None:
        """Drop the results of files that no longer exist."""
        for stale in set(self.files) - paths:
            del self.files[stale]

    def result(self, path: Path, kind: str) -> ValidateResult:
        """The file's entries and problems, from the cache when the file is unchanged."""
        stat = path.stat()
        stamp = (stat.st_mtime_ns, stat.st_size)
        cached = self.files.get(path)
        if cached is not None and cached.kind != kind:
            cached = None
        settled = time.time_ns() - stat.st_mtime_ns > SETTLED_NS
        if cached is not None and cached.stamp == stamp:
            return cached.result
        # Read once: for the digest and, if it changed, for parsing; a file over the limit
        # is never read (load_file reports its size).
        raw = _read_bytes(path) if stat.st_size <= MAX_FILE_BYTES else None
        digest = hashlib.blake2b(raw, digest_size=16).digest() if raw is not None else b""
        # A stamp is trusted only if the file had settled when it was taken: a write within
        # the same tick after it would keep it.
        trusted = stamp if settled else None
        if cached is not None and cached.digest == digest:
            cached.stamp = trusted
            return cached.result
        result = validated(path, kind, raw)
        self.files[path] = FileResult(trusted, digest, kind, result)
        return result


def _settled_stamp(folder: Path) -> int | None:
    """The folder's modification time, or None if it changed too recently to be trusted
    (or is gone)."""
    try:
        mtime = folder.stat().st_mtime_ns
    except OSError:
        return None
    return mtime if time.time_ns() - mtime > SETTLED_NS else None


def _read_bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None  # unreadable: load_file reports it
