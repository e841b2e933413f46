"""The dev server's HTTP side: files from the output folder, the error page, live reload.

livereload serves it: its websocket, `/livereload.js` and `/forcereload` (which
reloads open pages), around a WSGI app of ours. Its own WSGI container would put
the reload script before the first `</head>` of *any* response, a JSON or CSV
file that quotes one included; so `ReloadServer` hands livereload a plain
tornado container, and the app puts the script into HTML pages only.
"""

from __future__ import annotations

import mimetypes
import urllib.request
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from livereload import Server
from livereload.watcher import Watcher
from tornado import web
from tornado.wsgi import WSGIContainer

CSP_SCRIPT_SRC = b"script-src 'self'"
# livereload's loader is an inline script; the dev server allows inline scripts so that
# it runs (published pages keep `script-src 'self'`).
DEV_SCRIPT_SRC = b"script-src 'self' 'unsafe-inline'"
HEAD_END = b"</head>"
WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def make_app(root: Path, error_page: Callable[[], bytes | None], script: bytes) -> WsgiApp:
    """A WSGI app serving the files under `root`, confined to it; while `error_page()`
    gives a page, that page in place of every page. HTML gets the reload `script`."""
    root = root.resolve()

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        path = str(environ.get("PATH_INFO", "/"))
        head_only = environ.get("REQUEST_METHOD") == "HEAD"
        failed = error_page() if _is_page(path) else None
        if failed is not None:
            status, body, kind = "500 Internal Server Error", failed, "text/html"
        elif (target := _file_for(root, path)) is None:
            missing = root / "404.html"
            status, kind = "404 Not Found", "text/html"
            body = missing.read_bytes() if missing.is_file() else b"not found"
        else:
            status, body = "200 OK", target.read_bytes()
            kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        if kind == "text/html":
            body = body.replace(CSP_SCRIPT_SRC, DEV_SCRIPT_SRC, 1)
            body = body.replace(HEAD_END, script + HEAD_END, 1)
        charset = "; charset=utf-8" if kind.startswith("text/") or kind.endswith("json") else ""
        headers = [
            ("Content-Type", kind + charset),
            ("Content-Length", str(len(body))),
            ("Cache-Control", "no-store"),
        ]
        start_response(status, headers)
        return [b"" if head_only else body]

    return app


def _is_page(path: str) -> bool:
    return path.endswith((".html", "/")) or "." not in path.rsplit("/", 1)[-1]


def _file_for(root: Path, path: str) -> Path | None:
    """The file a request path names inside `root` (a folder means its index.html); None
    for anything else, a name too long for the file system included."""
    try:
        target = (root / urllib.request.url2pathname(path.lstrip("/"))).resolve()
        if target.is_dir():
            target = target / "index.html"
        return target if target.is_relative_to(root) and target.is_file() else None
    except (OSError, ValueError):
        return None


class _WatchfilesInstead(Watcher):  # type: ignore[misc]
    """livereload's watcher, idle: watchfiles reports saves (see `serve.watch_saves`).

    livereload polls its watcher every 800 ms (walking every watched file, the
    working directory when told of none) unless `start` reports that changes are
    handled elsewhere; these two methods are the watcher interface it documents.
    """

    def start(self, callback: Callable[[], object]) -> bool:
        return True

    def examine(self) -> tuple[str | None, float | None]:
        return None, None


class ReloadServer(Server):  # type: ignore[misc]
    """livereload's server around the app `app_for(script)` makes, given the reload script.

    `get_web_handlers` is where livereload wraps an app in its own container; this one
    uses tornado's, which leaves the bodies as the app wrote them.
    """

    def __init__(self, app_for: Callable[[bytes], WsgiApp]) -> None:
        super().__init__(watcher=_WatchfilesInstead())
        self.app_for = app_for

    def get_web_handlers(self, script: bytes) -> list[tuple[str, type, dict[str, Any]]]:
        container = WSGIContainer(self.app_for(script))
        return [(r".*", web.FallbackHandler, {"fallback": container})]
