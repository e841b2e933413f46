"""Serve: build, serve with live reload, rebuild what a save changed, show errors in place.

The dev server keeps the last good site on disk and in memory. On each save it
re-checks the content, finds which entries changed, re-renders only the pages
that depend on them, and writes only files whose bytes differ. While content
has errors, every HTML request is answered with an error page listing them;
the next good save brings the pages back. watchfiles reports saves,
`livereload` refreshes the browser; nothing here is used by `build`, so
published builds carry no reload script.
"""

from __future__ import annotations

import base64
import gc
import hashlib
import html
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import watchfiles
from livereload import Server
from livereload.handlers import LiveReloadHandler, StaticFileHandler
from livereload.watcher import Watcher
from tornado.ioloop import IOLoop

from .errors import Problem
from .graph import MapGraph
from .pages import MEMBERSHIP, plan_pages
from .pipeline import (
    ContentCache,
    check,
    collector_paused,
    export_files,
    render_site,
    template_problem,
)
from .project import Project
from .render import Renderer
from .write import check_output_dir

ERROR_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Build failed · lowprec-map</title>
<style>body{{font:16px system-ui,sans-serif;margin:2rem;max-width:70rem}}
pre{{white-space:pre-wrap;background:#fff4f0;border-left:4px solid #8a3b00;padding:1rem}}</style>
</head><body><main><h1>Build failed</h1>
<p>{count} problem(s). The page comes back as soon as the content is fixed; this tab reloads
by itself.</p><pre>{problems}</pre></main></body></html>
"""


@dataclass
class DevSite:
    """The incremental builder behind `serve`: last entries, last files, current errors."""

    project: Project
    out: Path
    errors: list[Problem] = field(default_factory=list)
    entries: dict[str, tuple[Any, str]] = field(default_factory=dict)
    files: dict[str, bytes] = field(default_factory=dict)
    theme_stamp: tuple[tuple[str, float], ...] = ()
    renderer: Renderer | None = None
    cache: ContentCache = field(default_factory=ContentCache)
    graph: MapGraph | None = None
    depends: dict[str, frozenset[str]] = field(default_factory=dict)  # per page, last render

    def load_existing(self) -> None:
        """Remember what the output folder holds, so unchanged files are not rewritten."""
        if self.out.is_dir():
            self.files = {
                p.relative_to(self.out).as_posix(): p.read_bytes()
                for p in self.out.rglob("*")
                if p.is_file()
            }

    def rebuild(self) -> list[str]:
        """Re-check and re-render what changed; returns the files written.

        The garbage collector waits: a full collection walks every entry, card
        and cache kept across rebuilds (~100 ms at 1 000 entries), so `serve`
        collects once the pages are served instead.
        """
        with collector_paused():
            return self._rebuild()

    def _rebuild(self) -> list[str]:
        result = check(self.project.content, self.cache)
        if result.errors:
            self.errors = result.errors
            _report(self.errors)
            return []
        current = {e.key: (e.model, e.body) for e in result.graph.all_entries()}
        changed = _changed_keys(self.entries, current)
        changed |= _rewired(self.graph, result.graph, changed)
        if current.keys() != self.entries.keys():
            changed.add(MEMBERSHIP)
        stamp = _theme_stamp(self.project)
        full = (
            not self.entries
            or stamp != self.theme_stamp
            or any(k.startswith("site:") for k in changed)
        )
        if stamp != self.theme_stamp:
            self.renderer = None  # templates changed: compile them again
        try:
            if self.renderer is None:
                self.renderer = Renderer(result.graph, self.project.templates, self.project.static)
            rendered = render_site(
                result.graph, self.project, self.renderer, None if full else changed, self.depends
            )
        except jinja2.TemplateError as exc:
            self.errors = [template_problem(exc, self.project.templates)]
            _report(self.errors)
            return []
        written = self._write(rendered.files, rendered.names)
        self.entries, self.theme_stamp, self.errors = current, stamp, []
        self.depends = rendered.depends
        self.graph = result.graph
        return written

    def warm(self) -> None:
        """Draw the overview pages once, discarding them, so that the first save finds
        every card memoized (a large first build draws them in forked workers, whose
        memory is gone): at 1 000 entries the first save took 110 ms, later ones 35."""
        if self.graph is None or self.errors or self.renderer is None:
            return
        with collector_paused():
            for spec in plan_pages(self.graph, set()):  # no entry pages: overview pages only
                self.renderer.render(spec)

    def write_exports(self) -> list[str]:
        """Write the data files for the last good build (serve runs this after the pages)."""
        if self.graph is None or self.errors:
            return []
        fresh = export_files(self.graph)
        return self._write(fresh, set(self.files) | set(fresh))

    def _write(self, fresh: dict[str, bytes], names: set[str]) -> list[str]:
        written = []
        for name, content in sorted(fresh.items()):
            if self.files.get(name) != content:
                path = self.out / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(content)
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


def _changed_keys(
    before: dict[str, tuple[Any, str]], after: dict[str, tuple[Any, str]]
) -> set[str]:
    keys = set(before) | set(after)
    return {k for k in keys if before.get(k) != after.get(k)}


def _rewired(before: MapGraph | None, after: MapGraph, changed: set[str]) -> set[str]:
    """Entries whose backlinks changed: targets of references added or removed by `changed`.

    Their pages (and counts shown elsewhere, e.g. per evidence label) must be redrawn
    even though their own files did not change.
    """
    if before is None:
        return set()
    touched: set[str] = set()
    for key in changed:
        old = {(t, r) for _, t, r in _edges(before, key)}
        new = {(t, r) for _, t, r in _edges(after, key)}
        touched |= {t for t, _ in old ^ new}
    return touched


def _edges(graph: MapGraph, key: str) -> list[tuple[str, str, str]]:
    entry = graph.entry(key)
    if entry is None:
        return []
    return graph.edges_from(entry)


def _theme_stamp(project: Project) -> tuple[tuple[str, float], ...]:
    files = [*project.templates.rglob("*"), *project.static.rglob("*")]
    return tuple(sorted((str(p), p.stat().st_mtime) for p in files if p.is_file()))


def _report(problems: list[Problem]) -> None:
    for problem in problems:
        print(problem.format(), file=sys.stderr)
    print(f"serve: {len(problems)} problem(s); showing them in the browser", file=sys.stderr)


CSP_SCRIPT_SRC = b"script-src 'self'"


def make_handler(site: DevSite, reload_script: bytes) -> type[StaticFileHandler]:
    """A static-file handler (root-confined by tornado) that shows errors while there are any.

    Pages carry a Content-Security-Policy without inline scripts; in serve only,
    the live-reload snippet's hash is added to it so the browser runs that one script.
    """
    snippet = reload_script.split(b">", 1)[1].rsplit(b"</script>", 1)[0]
    digest = base64.b64encode(hashlib.sha256(snippet).digest())
    allowed = CSP_SCRIPT_SRC + b" 'sha256-" + digest + b"'"

    class Handler(StaticFileHandler):  # type: ignore[misc]
        async def get(self, path: str, include_body: bool = True) -> None:
            if site.errors and (path == "" or path.endswith((".html", "/")) or "." not in path):
                self.set_status(500)
                self.set_header("Content-Type", "text/html; charset=utf-8")
                self.finish(site.error_page())
                return
            page = self._page_file(path)
            if page is None:
                await super().get(path, include_body)
                return
            self.absolute_path = str(page)  # tornado's ETag is computed from it
            self.set_header("Content-Type", "text/html; charset=utf-8")
            self.set_header("Cache-Control", "no-store")
            self.finish(page.read_bytes().replace(CSP_SCRIPT_SRC, allowed, 1))

        def _page_file(self, path: str) -> Path | None:
            """The HTML file a request maps to, if it is one inside the output folder."""
            root = Path(self.root).resolve()
            target = (root / self.parse_url_path(path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            inside = target.is_relative_to(root)
            return target if inside and target.suffix == ".html" and target.is_file() else None

    return Handler


EXPORT_DELAY = 0.5  # seconds after a rebuild before the data files are regenerated
QUIET_MS = 10  # a save is a burst of events (write, rename); wait this long for the burst to end


class _NotifyWatcher(Watcher):  # type: ignore[misc]
    """livereload's watcher, told of changes by the OS instead of polling for them.

    livereload polls every 800 ms by walking every watched file; at 1 000
    entries a poll costs milliseconds, and the wait dominated save-to-served.
    watchfiles (inotify, or polling where the OS cannot notify) runs in a
    thread and hands each burst of changes to the IOLoop, which then runs the
    tasks and reloads the browser exactly as livereload does after a poll.
    """

    def __init__(self) -> None:
        super().__init__()
        self._pending: list[str] = []
        self.stop = threading.Event()

    def start(self, callback: Callable[[], object]) -> bool:
        loop = IOLoop.current()
        paths = list(self._tasks)
        thread = threading.Thread(
            target=self._watch, args=(paths, loop, callback), name="lowprec-map-watch", daemon=True
        )
        thread.start()
        return True

    def _watch(self, paths: list[str], loop: IOLoop, callback: Callable[[], object]) -> None:
        # Notifications can fail (say, the OS's limit on watched folders is reached);
        # then watchfiles polls instead, and the editor is told.
        for force_polling in (None, True):
            try:
                changes = watchfiles.watch(
                    *paths,
                    debounce=1000,
                    step=QUIET_MS,
                    stop_event=self.stop,
                    raise_interrupt=False,
                    force_polling=force_polling,
                )
                for batch in changes:
                    loop.add_callback(self._arrived, sorted(path for _, path in batch), callback)
                return
            except Exception as exc:
                then = "polling instead" if force_polling is None else "saves are not seen"
                print(f"serve: watching for changes failed ({exc}); {then}", file=sys.stderr)

    def _arrived(self, paths: list[str], callback: Callable[[], object]) -> None:
        self._pending.extend(paths)
        callback()

    def examine(self) -> tuple[str | None, float | None]:
        """Run the tasks once for the changes that arrived; (a changed path, no delay)."""
        if not self._pending:
            return None, None
        self.filepath, self._pending = self._pending[0], []
        for task in {id(t["func"]): t["func"] for t in self._tasks.values() if t["func"]}.values():
            task()
        return self.filepath, None


class _DevServer(Server):  # type: ignore[misc]
    def __init__(self, site: DevSite) -> None:
        super().__init__(watcher=_NotifyWatcher())
        self.site = site
        # livereload ignores reloads within 3 s of the previous one; editors save more often.
        LiveReloadHandler.DEFAULT_RELOAD_TIME = 0.2

    def get_web_handlers(self, script: bytes) -> list[tuple[str, type, dict[str, str]]]:
        handler = make_handler(self.site, script)
        return [(r"/(.*)", handler, {"path": str(self.site.out), "default_filename": "index.html"})]


def serve(project: Project, out: Path, host: str = "127.0.0.1", port: int = 8000) -> None:
    """Build, then serve `out` with live reload until interrupted."""
    gc.enable()  # a server runs for hours; `run` turns the collector off for one-shot commands
    check_output_dir(out, project.protected)
    site = DevSite(project, out)
    started = time.perf_counter()
    site.load_existing()
    out.mkdir(parents=True, exist_ok=True)
    written = site.rebuild() + site.write_exports()
    site.warm()
    if not site.errors:
        print(
            f"serve: built ({len(written)} files written) in {time.perf_counter() - started:.2f} s"
        )

    exports_due: list[object] = []

    def on_change() -> None:
        began = time.perf_counter()
        written = site.rebuild()
        if not site.errors:
            ms = 1000 * (time.perf_counter() - began)
            print(f"serve: rebuilt {len(written)} file(s) in {ms:.0f} ms")
            # Data files (map.json, graph.graphml, ...) follow once the pages are served.
            loop = IOLoop.current()
            for handle in exports_due:
                loop.remove_timeout(handle)
            exports_due[:] = [loop.call_later(EXPORT_DELAY, after_rebuild)]

    def after_rebuild() -> None:
        site.write_exports()
        gc.collect()  # the garbage of the rebuild, while the editor reads the page

    server = _DevServer(site)
    for folder in (project.content, project.templates, project.static):
        server.watch(str(folder), on_change)
    print(f"serve: http://{host}:{port}/ (Ctrl+C to stop)")
    server.serve(host=host, port=port, root=str(out), restart_delay=0)
