"""The build, stage by stage: load -> validate -> link -> check rules -> render -> write.

`check` runs the stages that read content; `build` adds rendering and the
atomic write. Both are shared by the CLI and the dev server.
"""

from __future__ import annotations

import gc
import hashlib
import time
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from .errors import ContentError, Problem, Severity, SourcePos
from .exports import bibtex, claims_csv, graphml, map_json, map_schema, robots_txt
from .graph import MapGraph
from .load import load_file
from .pages import PageSpec, plan_pages, site_urls
from .parallel import alongside, in_shares, worth_forking
from .project import Project, discover
from .render import Renderer
from .rules import check_rules
from .urls import output_file
from .validate import ValidateResult, missing_required, validate_doc
from .write import PreparedStaging, check_output_dir, staged, write_files


@dataclass
class CheckResult:
    graph: MapGraph
    problems: list[Problem] = field(default_factory=list)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if p.severity is Severity.ERROR]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.problems if p.severity is Severity.WARNING]


@dataclass(frozen=True)
class BuildReport:
    counts: Counter[str]
    pages: int
    files: int
    seconds: float
    warnings: list[Problem]


@dataclass
class FileResult:
    """What loading and validating one file produced, and the file's stamp and digest."""

    stamp: tuple[int, int]
    digest: bytes
    kind: str
    result: ValidateResult


# A file modified this recently may be modified again within the same timestamp
# tick and keep its size: its bytes are compared (by digest) instead of trusted.
SETTLED_NS = 2_000_000_000


@dataclass
class ContentCache:
    """What `serve` keeps between checks: each file's result, and the last graph."""

    files: dict[Path, FileResult] = field(default_factory=dict)
    graph: MapGraph | None = None


def check(content: Path, cache: ContentCache | None = None) -> CheckResult:
    """Load, validate, link and check rules; every problem from every stage.

    With a `cache` (kept by `serve` across rebuilds), a file whose modification
    time and size are unchanged (or, if modified in the last two seconds, whose
    bytes are unchanged) is not parsed or validated again.
    """
    with collector_paused():
        return _check(content, cache)


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while loading, linking and (in a build) rendering.

    These stages allocate hundreds of thousands of small, mostly acyclic objects
    that live to the end, and every collection walks all live ones: at 10 000
    entries that made checking superlinear (5.1 s with the collector, 2.3 s
    without). The few cycles made meanwhile are freed when it is back on.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _check(content: Path, cache: ContentCache | None) -> CheckResult:
    problems: list[Problem] = []
    files: list[tuple[Path, str]] = []
    if content.is_dir():
        files = discover(content, problems)
    else:
        problems.append(Problem(SourcePos(content), "content folder not found"))
    cache = ContentCache() if cache is None else cache
    for stale in set(cache.files) - {path for path, _ in files}:
        del cache.files[stale]
    entries, invalid, kinds = [], set(), set()
    for path, kind in files:
        one = _load_and_validate(path, kind, cache.files)
        entries.extend(one.entries)
        problems.extend(one.problems)
        invalid |= one.invalid
        kinds.add(kind)
    problems.extend(missing_required(kinds, content))
    # An edit that leaves every reference as it was (the usual save) keeps the links.
    graph = MapGraph.relinked(cache.graph, entries, invalid) or MapGraph(entries, invalid)
    cache.graph = graph
    problems.extend(graph.problems)
    problems.extend(check_rules(graph))
    return CheckResult(graph, sorted(problems))


def _load_and_validate(path: Path, kind: str, cache: dict[Path, FileResult]) -> ValidateResult:
    stat = path.stat()
    stamp = (stat.st_mtime_ns, stat.st_size)
    cached = cache.get(path)
    if cached is not None and cached.kind != kind:
        cached = None
    settled = time.time_ns() - stat.st_mtime_ns > SETTLED_NS
    if cached is not None and cached.stamp == stamp and settled:
        return cached.result
    raw = _read_bytes(path)  # read once: for the digest and, if it changed, for parsing
    digest = hashlib.blake2b(raw, digest_size=16).digest() if raw is not None else b""
    if cached is not None and cached.digest == digest:
        cached.stamp = stamp
        return cached.result
    problems: list[Problem] = []
    doc = load_file(path, kind, problems, raw)
    if doc is None:
        result = ValidateResult([], problems, {f"{kind}:{path.stem}"})
    else:
        result = validate_doc(doc)
        result.problems[:0] = problems
    cache[path] = FileResult(stamp, digest, kind, result)
    return result


def _read_bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None  # unreadable: load_file reports it


@dataclass
class RenderedSite:
    """What `render_site` produced: files to write, every file the site consists of,
    and each page's dependencies (the next incremental render needs them)."""

    files: dict[str, bytes]
    names: set[str]
    depends: dict[str, frozenset[str]]


def render_site(
    graph: MapGraph,
    project: Project,
    renderer: Renderer,
    changed: set[str] | None = None,
    before: Mapping[str, frozenset[str]] | None = None,
) -> RenderedSite:
    """The pages (and, on a full render, the static files) in memory; the data files
    are left to `export_files`, which `serve` runs once the pages are served.

    With `changed` (graph keys of entries that changed since the last render, and
    MEMBERSHIP if entries were added or removed), only pages that depend on them
    now or did `before` are rendered; otherwise every page is.
    """
    renderer.use(graph, changed)
    specs = plan_pages(graph, changed)
    names = {output_file(url) for url in site_urls(graph)} | {output_file(s.url) for s in specs}
    was = before or {}
    depends = {**was, **{s.url: s.depends for s in specs}}  # unplanned pages: unchanged
    if changed is not None:
        specs = [s for s in specs if s.affected_by(changed, was.get(s.url, frozenset()))]
    files = dict(render_pages(renderer, specs))
    names.update(static_names(project))
    names.update(EXPORT_NAMES)
    if changed is None:  # a changed static file always means a full render
        files.update(static_files(project))
    names.update(files)
    return RenderedSite(files, names, depends)


def static_names(project: Project) -> list[str]:
    """The static assets' names in the site (static/...)."""
    return [
        f"static/{asset.relative_to(project.static).as_posix()}"
        for asset in sorted(project.static.rglob("*"))
        if asset.is_file() and not asset.name.startswith(".")
    ]


def static_files(project: Project) -> dict[str, bytes]:
    """The static assets, by their name in the site."""
    return {
        name: (project.static / name[len("static/") :]).read_bytes()
        for name in static_names(project)
    }


EXPORT_NAMES = ("data/map.json", "data/map.schema.json", "data/claims.csv",
                "data/graph.graphml", "references.bib", "robots.txt")  # fmt: skip


def export_files(graph: MapGraph) -> dict[str, bytes]:
    """The machine-readable files: data/*, references.bib, robots.txt."""
    return {
        "data/map.json": map_json(graph),
        "data/map.schema.json": map_schema().encode(),
        "data/claims.csv": claims_csv(graph),
        "data/graph.graphml": graphml(graph),
        "references.bib": bibtex(graph),
        "robots.txt": robots_txt(graph),
    }


def render_pages(renderer: Renderer, specs: list[PageSpec]) -> list[tuple[str, bytes]]:
    """Render pages to bytes, in the order of `specs` (large sets on every core)."""

    def render(share: list[PageSpec]) -> list[tuple[str, bytes]]:
        return [(output_file(s.url), renderer.render(s)) for s in share]

    rendered = dict(item for chunk in in_shares(specs, render) for item in chunk)
    return [(output_file(s.url), rendered[output_file(s.url)]) for s in specs]


def render_into(renderer: Renderer, specs: list[PageSpec], staging: Path, previous: Path) -> int:
    """Render pages straight into the staging folder (large sets on every core); the count.

    Each process writes the pages it renders, so no page crosses a process
    boundary and the writes overlap too. Raises ContentError on a template error.
    """

    def render_and_write(share: list[PageSpec]) -> tuple[int, list[Problem]]:
        pages = ((output_file(s.url), renderer.render(s)) for s in share)
        try:
            return write_files(pages, staging, previous), []
        except jinja2.TemplateError as exc:  # converted here: the traceback names the line
            return 0, [template_problem(exc, renderer.templates)]

    results = in_shares(specs, render_and_write)
    problems = [p for _, found in results for p in found]
    if problems:
        raise ContentError(problems[:1])  # every share fails alike: one report
    return sum(count for count, _ in results)


def build(
    project: Project,
    out: Path,
    strict: bool = False,
    base_url: str | None = None,
    prepared: PreparedStaging | None = None,
) -> BuildReport:
    """Check, render and publish; raises ContentError and leaves `out` untouched on error.

    With `prepared` (see write.prepared_staging), the pages go into its folder.
    """
    with collector_paused():  # a build's garbage is freed at its end
        return _build(project, out, strict, base_url, prepared)


def _build(
    project: Project,
    out: Path,
    strict: bool,
    base_url: str | None,
    prepared: PreparedStaging | None,
) -> BuildReport:
    started = time.perf_counter()
    if prepared is None:  # a prepared folder was made beside an output folder already checked
        check_output_dir(out, project.protected)
    result = check(project.content)
    blocking = result.problems if strict else result.errors
    if blocking:
        raise ContentError(result.problems)
    graph = result.graph
    if base_url is not None:
        graph.override_base_url(base_url)
    renderer = Renderer(graph, project.templates, project.static)
    specs = plan_pages(graph)
    with staged(out, prepared) as staging:

        def write_pages() -> int:
            return render_into(renderer, specs, staging, out)

        def write_the_rest() -> int:
            others = {**export_files(graph), **static_files(project)}
            return write_files(sorted(others.items()), staging, out)

        if worth_forking(len(specs)):  # the data files are made while the pages are
            files = alongside(write_the_rest, write_pages)
        else:
            files = write_pages() + write_the_rest()
        if prepared is not None:
            prepared.settle({output_file(s.url) for s in specs})
    pages = sum(1 for s in specs if output_file(s.url).endswith(".html"))
    elapsed = time.perf_counter() - started
    return BuildReport(graph.counts(), pages, files, elapsed, result.warnings)


def template_problem(exc: jinja2.TemplateError, templates: Path) -> Problem:
    """A template failure as a positioned problem (the template file and line)."""
    if isinstance(exc, jinja2.TemplateSyntaxError) and exc.name:
        return Problem(SourcePos(templates / exc.name, exc.lineno or 1), f"template: {exc.message}")
    if isinstance(exc, jinja2.TemplateNotFound):
        return Problem(SourcePos(templates / str(exc.name)), "template not found")
    # Jinja rewrites tracebacks so that template frames carry the template's file and line.
    frame, where = exc.__traceback__, SourcePos(templates)
    while frame is not None:
        filename = frame.tb_frame.f_code.co_filename
        if filename.endswith((".html", ".xml")):
            where = SourcePos(Path(filename), frame.tb_lineno)
        frame = frame.tb_next
    return Problem(where, f"template error: {exc}")
