"""The URL map: where each entry lives, and relative links between pages.

Every link in the site is relative to the page that holds it, so the site
works at a domain root and under a sub-path without configuration.
"""

from __future__ import annotations

import functools
import hashlib
import re
from pathlib import Path

from lowprec_map.content.entry import Entry
from lowprec_map.registry import REGISTRY

_SAFE_URL = re.compile(r"^(https?://[^\s]+|[#./a-zA-Z0-9_][^\s:]*)$")


def entry_url(entry: Entry) -> str:
    """Site-relative URL of an entry's page (or of its anchor on a listing)."""
    return url_of(entry.type, entry.id)


def url_of(entry_type: str, entry_id: str) -> str:
    """Site-relative URL of the page (or listing anchor) of an entry of this type and id."""
    kind = REGISTRY.by_name.get(entry_type)
    if kind is None:
        return ""
    if kind.anchor is not None:
        return f"{kind.anchor}-{entry_id}"
    if kind.url_folder is None:
        return ""
    return f"{kind.url_folder}/{entry_id}/" if kind.url_folder else f"{entry_id}/"


def listing_url(entry_type: str) -> str:
    """Site-relative URL of the page that lists every entry of a type."""
    return f"{REGISTRY.by_name[entry_type].url_folder}/"


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


def naming_files(link: str) -> str:
    """A relative link that names a file: 'a/' -> 'a/index.html', '../#x' -> '../index.html#x'.

    For a site opened from a folder (`build --offline`): a browser shows a directory
    listing, not the page, for a link that ends in a folder.
    """
    if link.startswith(("http://", "https://", "#")):
        return link
    path, hash_mark, fragment = link.partition("#")
    path, question, query = path.partition("?")
    if path in ("", "./") or path.endswith("/"):
        path += "index.html"
    return f"{path}{question}{query}{hash_mark}{fragment}"


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
