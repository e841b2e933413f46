"""The URL map: where each entry lives, and relative links between pages.

Every link in the site is relative to the page that holds it, so the site
works at a domain root and under a sub-path without configuration.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from .project import FOLDERS

if TYPE_CHECKING:  # only for annotations: `build` imports this module before anything heavy
    from .validate import Entry

# Entry type -> URL folder. Types without a folder have no page of their own.
TYPE_FOLDERS = {
    "dossier": "dossiers",
    "claim": "claims",
    "tension": "tensions",
    "failure_mode": "failure-modes",
    "program": "programs",
    "path": "paths",
}

_SAFE_URL = re.compile(r"^(https?://[^\s]+|[#./a-zA-Z0-9_][^\s:]*)$")


def entry_url(entry: Entry) -> str:
    """Site-relative URL of an entry's page (or of its anchor on a listing)."""
    return url_of(entry.type, entry.id)


def url_of(entry_type: str, entry_id: str) -> str:
    """Site-relative URL of the page (or listing anchor) of an entry of this type and id."""
    if entry_type in TYPE_FOLDERS:
        return f"{TYPE_FOLDERS[entry_type]}/{entry_id}/"
    if entry_type == "page":
        return f"{entry_id}/"
    if entry_type == "evidence":
        return f"claims/label/{entry_id}/"
    if entry_type == "perturbation":
        return f"dossiers/#perturbation-{entry_id}"
    if entry_type == "group":
        return f"dossiers/#group-{entry_id}"
    return ""


def page_folders(files: Iterable[tuple[Path, str]]) -> list[str]:
    """The folders the pages of these content files will be written to, known from file
    names alone: in a folder of one entry per file, an entry's id is its file name."""
    urls = (url_of(kind, path.stem) for path, kind in files if kind in _ONE_PER_FILE)
    return [url[:-1] for url in urls if url.endswith("/")]


_ONE_PER_FILE = {kind for kind, _ in FOLDERS.values()}


def output_file(url: str) -> str:
    """The file that serves a site-relative URL: 'a/b/' -> 'a/b/index.html'."""
    if url == "" or url.endswith("/"):
        return f"{url}index.html"
    return url


def relative(from_file: str, to_url: str) -> str:
    """A link from the page written at `from_file` to the site-relative `to_url`.

    Site URLs never contain '..', so climbing to the root and descending again
    is exact; this is called for every link on every page, so it avoids posixpath.
    """
    if to_url.startswith(("http://", "https://", "#")):
        return to_url
    up = _root_prefix(from_file)
    if to_url == "" or to_url.startswith("#"):
        return (up or "./") + to_url
    return up + to_url


@functools.lru_cache(maxsize=4096)
def _root_prefix(from_file: str) -> str:
    return "../" * from_file.count("/")


def is_safe_link(url: str) -> bool:
    """True for http(s) URLs and scheme-less relative links; false for javascript: etc."""
    return bool(_SAFE_URL.match(url.strip()))


def asset_url(static_dir: Path, name: str) -> str:
    """Site-relative URL of a static asset, with a content hash to bust caches."""
    digest = hashlib.sha256((static_dir / name).read_bytes()).hexdigest()[:10]
    return f"static/{name}?v={digest}"
