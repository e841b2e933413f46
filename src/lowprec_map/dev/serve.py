"""Serve: build, serve with live reload, re-render what a save changed, show errors in place.

`DevSite` keeps the last good site on disk and in memory. On each save it
re-checks the content, finds which facts changed (`dev.recording.changed_facts`),
and redraws a page when its templates read one of them, or when its context
read one and came out different (`PageRecord`); it writes only files whose
bytes differ. While the content has errors, every page request is answered with a
page listing them; the next good save brings the pages back.

serve never stops rebuilding: any failure, a bug of ours included, becomes the
error page, and the next good save recovers. A file saved moments ago that does
not read (an editor that truncates, then writes) is judged again once it has
settled, so an in-place save never flashes the error page. A watched folder
deleted and made again, or an output folder deleted, is noticed too.

watchfiles reports saves (the OS notifies; it polls where the OS cannot);
livereload serves the site (dev/http.py). Nothing here is used by `build`, so
published builds carry no reload script.
"""

from __future__ import annotations

import html
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import watchfiles
from tornado.ioloop import IOLoop

from lowprec_map.content.check import check
from lowprec_map.content.graph import MapGraph
from lowprec_map.content.project import Project
from lowprec_map.dev.http import ReloadServer, make_app
from lowprec_map.dev.incremental import (
    ContentCache,
    Explanation,
    LayoutMemo,
    PageRecord,
    just_saved,
)
from lowprec_map.dev.recording import RecordingReader, changed_facts
from lowprec_map.errors import Problem, SourcePos
from lowprec_map.output.write import MARKER, check_output_dir, mark_as_build, taking_turns
from lowprec_map.pipeline import (
    EXPORT_NAMES,
    collector_paused,
    export_files,
    static_files,
    static_names,
)
from lowprec_map.site.pages import plan_pages
from lowprec_map.site.reads import Fact
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
    unsettled: bool = False  # the last check failed on a file saved moments before
    explain: bool = False  # keep, per save, why each page was or was not redrawn
    explanation: list[str] = field(default_factory=list)  # the last save's, when `explain`
    last_changed: set[Fact] = field(default_factory=set)  # the facts the last save changed

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

        Never raises: a failure of any stage becomes the error page.
        """
        try:
            return self._rebuild()
        except Exception as exc:  # a bug of ours must not stop the preview: show it
            return self._failed([self._internal_error(exc)])

    def _rebuild(self) -> list[str]:
        self.unsettled = False
        if not (self.out / MARKER).is_file():  # the first build, or the folder was deleted
            self.out.mkdir(parents=True, exist_ok=True)
            mark_as_build(self.out)
            self.files, self.renderer = {}, None
        with collector_paused():
            result = check(self.project.content, self.cache, drafts=True)
            if result.errors:
                if just_saved(result.errors):
                    self.unsettled = True  # perhaps mid-write: judge it again once settled
                    return []
                return self._failed(result.errors)
            stamp, project = _theme_stamp(self.project), self.project
            new_theme = stamp != self.theme_stamp or self.renderer is None
            if new_theme:  # the first build, or templates or assets changed: every page
                self.renderer = Renderer(
                    project.templates, project.static, cache=project.cache, reader=RecordingReader
                )
                self.pages = {}
            changed = set() if self.graph is None else changed_facts(self.graph, result.graph)
            try:
                fresh, records = self._render(result.graph, changed)
            except TemplateFailure as failure:
                return self._failed([failure.problem])
            if new_theme:
                fresh.update(static_files(project))
            names = {*records, *EXPORT_NAMES, *static_names(project), MARKER}
            written = self._write(fresh, names)
            self.graph, self.pages, self.theme_stamp, self.errors = result.graph, records, stamp, []
            return written

    def due(self) -> bool:
        """A rebuild is due without a save: an error to judge again, or no output folder."""
        return self.unsettled or not (self.out / MARKER).is_file()

    def _render(
        self, graph: MapGraph, changed: set[Fact]
    ) -> tuple[dict[str, bytes], dict[str, PageRecord]]:
        """The pages that may show a change (each without a previous drawing), drawn."""
        assert self.renderer is not None
        fresh: dict[str, bytes] = {}
        records: dict[str, PageRecord] = {}
        specs = plan_pages(graph, layout_of=self.layouts.layout)
        if not self.pages:
            self.renderer.compile(specs)  # a new renderer: check every template first
        self.renderer.forget(changed)
        self.drawn, self.last_changed = [], changed
        why = Explanation(changed, first=not self.pages)
        for spec in specs:
            name = output_file(spec.url)
            last = self.pages.get(name)
            if last is not None and last.unchanged(changed):
                records[name] = last
                why.unread += 1
                continue
            page = self.renderer.context(spec, graph)
            if last is not None:
                kept = PageRecord(spec, page.values, page.facts, last.drawn_facts)
                if kept.draws_like(last, changed):
                    records[name] = kept
                    why.kept_same(spec.url, last)
                    continue
            fresh[name], drawn_facts = self.renderer.draw(spec, page)
            records[name] = PageRecord(spec, page.values, page.facts, drawn_facts)
            self.drawn.append(spec.url)
            why.redrawn(spec.url, last)
        if self.explain:
            self.explanation = why.lines()
        return fresh, records

    def _internal_error(self, exc: Exception) -> Problem:
        """An unexpected exception as the problem the error page shows."""
        where = SourcePos(self.project.content)
        return Problem(where, f"internal error: {type(exc).__name__}: {exc}")

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
        try:
            fresh = export_files(self.graph, self.graph.site.base_url)
        except Exception as exc:  # as in `rebuild`: shown, never raised
            return self._failed([self._internal_error(exc)])
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

    def error_page(self) -> bytes | None:
        """The page shown in place of every page while the content has errors, else None."""
        if not self.errors:
            return None
        lines = "\n".join(html.escape(p.format()) for p in self.errors)
        return ERROR_PAGE.format(count=len(self.errors), problems=lines).encode()


def _theme_stamp(project: Project) -> tuple[tuple[str, float], ...]:
    files = [*project.templates.rglob("*"), *project.static.rglob("*")]
    return tuple(sorted((str(p), p.stat().st_mtime) for p in files if p.is_file()))


QUIET_MS = 10  # a save is a burst of events (write, rename); wait this long for the burst to end
IDLE_MS = 500  # this long after the last save, the data files are written


def watch_saves(folders: list[Path], stop: threading.Event) -> Iterator[list[str]]:
    """Each burst of changes under `folders`, as sorted paths, until `stop` is set; an
    empty list each time nothing changed for IDLE_MS.

    A folder deleted, or made again, is reported as a change of the whole folder,
    and the watch starts over on the folders as they now are (an OS watch ends with
    its folder). Notifications can fail (say, the OS's limit on watched folders is
    reached); then watchfiles polls instead, and the editor is told.
    """
    seen, polling, rescan = _identities(folders), False, False
    whole = sorted(str(f) for f in folders)
    while not stop.is_set():
        try:
            for batch in _bursts([f for f in folders if f.is_dir()], stop, polling):
                now = _identities(folders)
                if now != seen:
                    seen, rescan = now, True
                    yield whole
                    break
                # A save made while the new watch was starting was not seen: the first
                # pause of the new watch counts as a change of everything.
                yield whole if rescan and not batch else batch
                rescan = rescan and bool(batch)
        except Exception as exc:
            if polling:
                print(
                    f"serve: watching for changes failed ({exc}); saves are not seen",
                    file=sys.stderr,
                )
                return
            print(f"serve: watching for changes failed ({exc}); polling instead", file=sys.stderr)
            polling = True


def _bursts(folders: list[Path], stop: threading.Event, polling: bool) -> Iterator[list[str]]:
    if not folders:  # nothing to watch until a folder comes back
        stop.wait(IDLE_MS / 1000)
        yield []
        return
    for batch in watchfiles.watch(
        *folders,
        debounce=1000,
        step=QUIET_MS,
        stop_event=stop,
        raise_interrupt=False,
        force_polling=polling or None,
        rust_timeout=IDLE_MS,
        yield_on_timeout=True,
    ):
        yield sorted(path for _, path in batch)


def _identities(folders: list[Path]) -> list[tuple[int, int] | None]:
    """Which folder each path names now (device and inode), None for none."""
    identities: list[tuple[int, int] | None] = []
    for folder in folders:
        try:
            stat = folder.stat()
            identities.append((stat.st_dev, stat.st_ino))
        except OSError:
            identities.append(None)
    return identities


def serve(
    project: Project, out: Path, host: str = "127.0.0.1", port: int = 8000, explain: bool = False
) -> None:
    """Build, then serve `out` with live reload until interrupted; `out` is this serve's
    alone while it runs (a build into it waits, then fails). With `explain`, each save
    prints which facts changed and why each page was or was not redrawn."""
    check_output_dir(out, project.protected)
    with taking_turns(out, wait=0):
        site = DevSite(project, out, explain=explain)
        started = time.perf_counter()
        site.load_existing()
        written = site.rebuild() + site.write_exports()
        if not site.errors:
            elapsed = time.perf_counter() - started
            print(f"serve: built ({len(written)} files written) in {elapsed:.2f} s")
        local = "127.0.0.1" if host in ("0.0.0.0", "") else "[::1]" if host == "::" else host
        loop = IOLoop.current()  # livereload serves on this thread's loop
        watcher = threading.Thread(
            target=_rebuild_on_save,
            args=(site, loop, f"http://{local}:{port}/forcereload"),
            name="lowprec-map-watch",
            daemon=True,
        )
        watcher.start()
        print(f"serve: http://{host}:{port}/ from {out} (Ctrl+C to stop)")
        server = ReloadServer(lambda script: make_app(out, site.error_page, script))
        server.serve(host=host, port=port, restart_delay=0, debug=False)


def _rebuild_on_save(site: DevSite, loop: IOLoop, reload_url: str) -> None:
    """Each save: rebuild on the server's loop (requests wait for it instead of competing
    with it), then reload the open pages; once saves pause, write the data files."""
    project, exports_due = site.project, False
    for saved in watch_saves(
        [project.content, project.templates, project.static], threading.Event()
    ):
        if not saved and not site.due():
            if exports_due:
                site.write_exports()  # each file replaced whole, as requests may read it
            exports_due = False
            continue
        _rebuild_on_loop(site, loop)
        if site.unsettled:
            continue  # judged again at the next pause; the open pages stay as they are
        try:
            with urllib.request.urlopen(reload_url, timeout=5):
                pass
        except OSError as exc:
            print(f"serve: could not reload the browser ({exc})", file=sys.stderr)
        exports_due = True


def _rebuild_on_loop(site: DevSite, loop: IOLoop) -> None:
    """Run `site.rebuild()` on the server's loop and wait until it has run."""
    done = threading.Event()

    def rebuild() -> None:
        try:
            began = time.perf_counter()
            changed = site.rebuild()
            if not site.errors and not site.unsettled:
                ms = 1000 * (time.perf_counter() - began)
                print(f"serve: rebuilt {len(changed)} file(s) in {ms:.0f} ms")
                for line in site.explanation:  # empty unless serve --explain
                    print(line)
        finally:
            done.set()

    loop.add_callback(rebuild)
    done.wait()
