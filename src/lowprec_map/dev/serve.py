"""Serve: build, serve with live reload, re-render what a save changed, show errors in place.

`DevSite` keeps the last good site on disk and in memory. On each save it
re-checks the content, finds which facts changed (`site.reads.changed_facts`),
and redraws a page when its templates read one of them, or when its context
read one and came out different (`PageRecord`); it writes only files whose
bytes differ. While the content has errors, every page request is answered with a
page listing them; the next good save brings the pages back.

watchfiles reports saves (the OS notifies; it polls where the OS cannot);
livereload serves the site through its public interface: a WSGI app of ours
(`Server(app)`) and its `/forcereload` endpoint, which reloads open pages.
Nothing here is used by `build`, so published builds carry no reload script.
"""

from __future__ import annotations

import functools
import html
import mimetypes
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import watchfiles
from livereload import Server
from livereload.watcher import Watcher
from tornado.ioloop import IOLoop

from lowprec_map.content.check import ContentCache, check
from lowprec_map.content.graph import MapGraph
from lowprec_map.content.project import Project
from lowprec_map.errors import Problem
from lowprec_map.output.write import check_output_dir
from lowprec_map.pipeline import (
    EXPORT_NAMES,
    collector_paused,
    export_files,
    static_files,
    static_names,
)
from lowprec_map.site.layout import LayoutMemo
from lowprec_map.site.pages import Context, PageSpec, plan_pages
from lowprec_map.site.reads import Fact, changed_facts, context_shape
from lowprec_map.site.render import Renderer
from lowprec_map.site.template_errors import TemplateFailure
from lowprec_map.site.urls import output_file

ERROR_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Build failed · lowprec-map</title>
<style>body{{font:16px system-ui,sans-serif;margin:2rem;max-width:70rem}}
pre{{white-space:pre-wrap;background:#fff4f0;border-left:4px solid #8a3b00;padding:1rem}}</style>
</head><body><main><h1>Build failed</h1>
<p>{count} problem(s). The page comes back as soon as the content is fixed; this tab reloads
by itself.</p><pre>{problems}</pre></main></body></html>
"""


@dataclass(frozen=True)
class PageRecord:
    """What a page's last drawing came from: its context and what computing it read, and
    what its templates read (field by field, see `site.reads`)."""

    spec: PageSpec
    context: Context
    context_facts: frozenset[Fact]
    drawn_facts: frozenset[Fact]

    def unchanged(self, changed: set[Fact]) -> bool:
        """Nothing it read changed."""
        return self.context_facts.isdisjoint(changed) and self.drawn_facts.isdisjoint(changed)

    @functools.cached_property
    def shape(self) -> object:
        """What decides the page's bytes besides the fields its templates read."""
        spec = self.spec
        return spec.template, spec.title, spec.description, context_shape(self.context)

    def draws_like(self, last: PageRecord, changed: set[Fact]) -> bool:
        """Drawn, this would give `last`'s bytes: its templates would read nothing that
        changed (what they read follows from the context) from the same context but for
        the entries' objects."""
        return last.drawn_facts.isdisjoint(changed) and self.shape == last.shape


@dataclass
class DevSite:
    """The incremental builder behind `serve`: the last graph, each page's record, the files."""

    project: Project
    out: Path
    errors: list[Problem] = field(default_factory=list)
    files: dict[str, bytes] = field(default_factory=dict)  # what `out` holds
    pages: dict[str, PageRecord] = field(default_factory=dict)  # per page, its last drawing
    cache: ContentCache = field(default_factory=ContentCache)
    layouts: LayoutMemo = field(default_factory=LayoutMemo)  # the map's, while links stay
    renderer: Renderer | None = None
    graph: MapGraph | None = None
    theme_stamp: tuple[tuple[str, float], ...] = ()
    drawn: list[str] = field(default_factory=list)  # URLs of the pages the last rebuild drew

    def load_existing(self) -> None:
        """Remember what the output folder holds, so unchanged files are not rewritten."""
        if self.out.is_dir():
            self.files = {
                p.relative_to(self.out).as_posix(): p.read_bytes()
                for p in self.out.rglob("*")
                if p.is_file()
            }

    def rebuild(self) -> list[str]:
        """Re-check and re-render what changed; returns the files written."""
        with collector_paused():
            result = check(self.project.content, self.cache)
            if result.errors:
                return self._failed(result.errors)
            stamp, project = _theme_stamp(self.project), self.project
            new_theme = stamp != self.theme_stamp or self.renderer is None
            if new_theme:  # the first build, or templates or assets changed: every page
                self.renderer = Renderer(project.templates, project.static, cache=project.cache)
                self.pages = {}
            changed = set() if self.graph is None else changed_facts(self.graph, result.graph)
            try:
                fresh, records = self._render(result.graph, changed)
            except TemplateFailure as failure:
                return self._failed([failure.problem])
            if new_theme:
                fresh.update(static_files(project))
            names = {*records, *EXPORT_NAMES, *static_names(project)}
            written = self._write(fresh, names)
            self.graph, self.pages, self.theme_stamp, self.errors = result.graph, records, stamp, []
            return written

    def _render(
        self, graph: MapGraph, changed: set[Fact]
    ) -> tuple[dict[str, bytes], dict[str, PageRecord]]:
        """The pages that may show a change (each without a previous drawing), drawn."""
        assert self.renderer is not None
        fresh: dict[str, bytes] = {}
        records: dict[str, PageRecord] = {}
        specs = plan_pages(graph, layouts=self.layouts)
        if not self.pages:
            self.renderer.compile(specs)  # a new renderer: check every template first
        self.renderer.forget(changed)
        self.drawn = []
        for spec in specs:
            name = output_file(spec.url)
            last = self.pages.get(name)
            if last is not None and last.unchanged(changed):
                records[name] = last
                continue
            page = self.renderer.context(spec, graph)
            if last is not None:
                kept = PageRecord(spec, page.values, page.facts, last.drawn_facts)
                if kept.draws_like(last, changed):
                    records[name] = kept
                    continue
            fresh[name], drawn_facts = self.renderer.draw(spec, page)
            records[name] = PageRecord(spec, page.values, page.facts, drawn_facts)
            self.drawn.append(spec.url)
        return fresh, records

    def _failed(self, problems: list[Problem]) -> list[str]:
        self.errors = problems
        for problem in problems:
            print(problem.format(), file=sys.stderr)
        print(f"serve: {len(problems)} problem(s); showing them in the browser", file=sys.stderr)
        return []

    def write_exports(self) -> list[str]:
        """Write the data files for the last good build (serve runs this after the pages)."""
        if self.graph is None or self.errors:
            return []
        fresh = export_files(self.graph, self.graph.site.base_url)
        return self._write(fresh, set(self.files) | set(fresh))

    def _write(self, fresh: dict[str, bytes], names: set[str]) -> list[str]:
        written = []
        for name, content in sorted(fresh.items()):
            if self.files.get(name) != content:
                path = self.out / name
                path.parent.mkdir(parents=True, exist_ok=True)
                partial = path.with_name(f".{path.name}.partial")
                partial.write_bytes(content)
                partial.replace(path)  # a request never reads half a page
                written.append(name)
            self.files[name] = content
        for gone in sorted(set(self.files) - names):
            (self.out / gone).unlink(missing_ok=True)
            del self.files[gone]
        return written

    def error_page(self) -> bytes:
        """The page shown in place of every page while the content has errors."""
        lines = "\n".join(html.escape(p.format()) for p in self.errors)
        return ERROR_PAGE.format(count=len(self.errors), problems=lines).encode()


def _theme_stamp(project: Project) -> tuple[tuple[str, float], ...]:
    files = [*project.templates.rglob("*"), *project.static.rglob("*")]
    return tuple(sorted((str(p), p.stat().st_mtime) for p in files if p.is_file()))


# ---------------------------------------------------------------- HTTP

CSP_SCRIPT_SRC = b"script-src 'self'"
# livereload injects its loader as an inline script; the dev server allows inline
# scripts so that it runs (published pages keep `script-src 'self'`).
DEV_SCRIPT_SRC = b"script-src 'self' 'unsafe-inline'"
WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def make_app(site: DevSite) -> WsgiApp:
    """The WSGI app livereload serves: files from the output folder, confined to it, or the
    error page in place of any page while the content has errors."""
    root = site.out.resolve()

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        path = str(environ.get("PATH_INFO", "/"))
        if site.errors and _is_page(path):
            return _respond(start_response, "500 Internal Server Error", site.error_page())
        target = _file_for(root, path)
        if target is None:
            missing = root / "404.html"
            body = missing.read_bytes() if missing.is_file() else b"not found"
            return _respond(start_response, "404 Not Found", body)
        body = target.read_bytes()
        kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        if kind == "text/html":
            body = body.replace(CSP_SCRIPT_SRC, DEV_SCRIPT_SRC, 1)
        return _respond(start_response, "200 OK", body, kind)

    return app


def _is_page(path: str) -> bool:
    return path.endswith((".html", "/")) or "." not in path.rsplit("/", 1)[-1]


def _file_for(root: Path, path: str) -> Path | None:
    """The file a request path names inside `root` (a folder means its index.html)."""
    try:
        target = (root / urllib.request.url2pathname(path.lstrip("/"))).resolve()
    except (OSError, ValueError):
        return None
    if target.is_dir():
        target = target / "index.html"
    return target if target.is_relative_to(root) and target.is_file() else None


def _respond(
    start_response: Callable[..., Any], status: str, body: bytes, kind: str = "text/html"
) -> list[bytes]:
    charset = "; charset=utf-8" if kind.startswith("text/") or kind.endswith("json") else ""
    headers = [("Content-Type", kind + charset), ("Cache-Control", "no-store")]
    start_response(status, headers)
    return [body]


class _WatchfilesInstead(Watcher):  # type: ignore[misc]
    """livereload's watcher, idle: watchfiles reports saves (see `watch_saves`).

    livereload polls its watcher every 800 ms (walking every watched file, the
    working directory when told of none) unless `start` reports that changes are
    handled elsewhere; these two methods are the watcher interface it documents.
    """

    def start(self, callback: Callable[[], object]) -> bool:
        return True

    def examine(self) -> tuple[str | None, float | None]:
        return None, None


QUIET_MS = 10  # a save is a burst of events (write, rename); wait this long for the burst to end
IDLE_MS = 500  # this long after the last save, the data files are written


def watch_saves(folders: list[Path], stop: threading.Event) -> Iterator[list[str]]:
    """Each burst of changes under `folders`, as sorted paths, until `stop` is set; an
    empty list each time nothing changed for IDLE_MS.

    Notifications can fail (say, the OS's limit on watched folders is reached);
    then watchfiles polls instead, and the editor is told.
    """
    for force_polling in (None, True):
        try:
            for batch in watchfiles.watch(
                *folders,
                debounce=1000,
                step=QUIET_MS,
                stop_event=stop,
                raise_interrupt=False,
                force_polling=force_polling,
                rust_timeout=IDLE_MS,
                yield_on_timeout=True,
            ):
                yield sorted(path for _, path in batch)
            return
        except Exception as exc:
            then = "polling instead" if force_polling is None else "saves are not seen"
            print(f"serve: watching for changes failed ({exc}); {then}", file=sys.stderr)


def serve(project: Project, out: Path, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Build, then serve `out` with live reload until interrupted."""
    check_output_dir(out, project.protected)
    site = DevSite(project, out)
    started = time.perf_counter()
    site.load_existing()
    out.mkdir(parents=True, exist_ok=True)
    written = site.rebuild() + site.write_exports()
    if not site.errors:
        print(
            f"serve: built ({len(written)} files written) in {time.perf_counter() - started:.2f} s"
        )
    local = "127.0.0.1" if host in ("0.0.0.0", "") else "[::1]" if host == "::" else host
    loop = IOLoop.current()  # livereload serves on this thread's loop
    watcher = threading.Thread(
        target=_rebuild_on_save,
        args=(site, loop, f"http://{local}:{port}/forcereload"),
        name="lowprec-map-watch",
        daemon=True,
    )
    watcher.start()
    print(f"serve: http://{host}:{port}/ (Ctrl+C to stop)")
    server = Server(app=make_app(site), watcher=_WatchfilesInstead())
    server.serve(host=host, port=port, restart_delay=0, debug=False)


def _rebuild_on_save(site: DevSite, loop: IOLoop, reload_url: str) -> None:
    """Each save: rebuild on the server's loop (requests wait for it instead of competing
    with it), then reload the open pages; once saves pause, write the data files."""
    project, exports_due = site.project, False
    for saved in watch_saves(
        [project.content, project.templates, project.static], threading.Event()
    ):
        if not saved:
            if exports_due:
                site.write_exports()  # each file replaced whole, as requests may read it
            exports_due = False
            continue
        done = threading.Event()

        def rebuild(done: threading.Event = done) -> None:
            began = time.perf_counter()
            changed = site.rebuild()
            if not site.errors:
                ms = 1000 * (time.perf_counter() - began)
                print(f"serve: rebuilt {len(changed)} file(s) in {ms:.0f} ms")
            done.set()

        loop.add_callback(rebuild)
        done.wait()
        try:
            with urllib.request.urlopen(reload_url, timeout=5):
                pass
        except OSError as exc:
            print(f"serve: could not reload the browser ({exc})", file=sys.stderr)
        exports_due = True
