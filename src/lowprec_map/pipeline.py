"""The build, stage by stage: check (load -> validate -> link -> rules) -> render -> write.

`build` is what the CLI runs; `serve` (dev/serve.py) runs the same stages and
renders only the pages whose recorded reads changed.
"""

from __future__ import annotations

import gc
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from lowprec_map import speed
from lowprec_map.content.check import check
from lowprec_map.content.graph import MapGraph
from lowprec_map.content.project import Project
from lowprec_map.errors import ContentError, Problem
from lowprec_map.output.parallel import cores, run_all, shares, worth_forking
from lowprec_map.output.write import (
    MARKER,
    MARKER_TEXT,
    check_output_dir,
    staged,
    taking_turns,
    write_files,
)
from lowprec_map.schema.fields import folder_url
from lowprec_map.site.bibtex import claims_bib, references_bib
from lowprec_map.site.exports import (
    claims_csv,
    graphml,
    map_json,
    map_schema,
    measurements_csv,
    robots_txt,
    sources_csv,
)
from lowprec_map.site.pages import PageSpec, plan_pages
from lowprec_map.site.render import Renderer
from lowprec_map.site.template_errors import TemplateFailure
from lowprec_map.site.urls import output_file
from lowprec_map.site_files import site_files


@dataclass(frozen=True)
class BuildReport:
    counts: Counter[str]
    pages: int
    files: int
    seconds: float
    warnings: list[Problem]


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while loading, linking and rendering.

    These stages allocate hundreds of thousands of small, mostly acyclic objects
    that live to the end, and every collection walks all live ones: at 10 000
    entries that made checking superlinear. The few cycles made meanwhile are
    freed when it is back on.
    """
    was_enabled = gc.isenabled()
    if speed.on("gc-pause"):
        gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def build(
    project: Project,
    out: Path,
    strict: bool = False,
    base_url: str | None = None,
    offline: bool = False,
) -> BuildReport:
    """Check, render and publish; raises ContentError and leaves `out` untouched on error.

    `base_url` publishes under another root URL than site.yaml's (e.g. a sub-path);
    `offline` makes every internal link name a file, for a site opened from a folder.
    """
    started = time.perf_counter()
    base_url = None if base_url is None else folder_url(base_url)
    check_output_dir(out, project.protected)
    with taking_turns(out), collector_paused():
        result = check(project.content)
        if result.problems if strict else result.errors:
            raise ContentError(result.problems)
        graph = result.graph
        templates, static = project.templates, project.static
        renderer = Renderer(templates, static, base_url, cache=project.cache, offline=offline)
        specs = plan_pages(graph, base_url)
        with staged(out) as staging:
            root = base_url or graph.site.base_url

            def write_the_rest() -> int:
                others = {**export_files(graph, root), **static_files(project)}
                others[MARKER] = MARKER_TEXT  # a later build may replace this folder
                return write_files(sorted(others.items()), staging, out)

            files = _write_pages(renderer, graph, specs, staging, out, write_the_rest)
    html = sum(1 for s in specs if output_file(s.url).endswith(".html"))
    elapsed = time.perf_counter() - started
    return BuildReport(graph.counts(), html, files, elapsed, result.warnings)


def _write_pages(  # noqa: PLR0917 - private; the build's own values
    renderer: Renderer,
    graph: MapGraph,
    specs: list[PageSpec],
    staging: Path,
    out: Path,
    write_the_rest: Callable[[], int],
) -> int:
    """Render the pages into the staging folder, and the data files beside them (for a
    large site, shares of the pages and the data files on every core); the file count."""

    def writer(share: list[PageSpec]) -> Callable[[], int]:
        def render_and_write() -> int:
            pages = ((output_file(s.url), renderer.render(s, graph)) for s in share)
            return write_files(pages, staging, out)

        return render_and_write

    parallel = worth_forking(len(specs))
    tasks = [writer(share) for share in shares(specs, cores() if parallel else 1)]
    try:
        renderer.compile(specs)  # before forking: the workers inherit the compiled templates
        return run_all([*tasks, write_the_rest], parallel)
    except TemplateFailure as failure:
        raise ContentError([failure.problem]) from None


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
        name: (project.static / name.removeprefix("static/")).read_bytes()
        for name in static_names(project)
    }


EXPORT_NAMES = tuple(f.url for f in site_files(export=True))


def export_files(graph: MapGraph, base_url: str) -> dict[str, bytes]:
    """The machine-readable files: data/*, references.bib, robots.txt (the site table's
    `export` files, which a test holds to this list)."""
    return {
        "data/map.json": map_json(graph, base_url),
        "data/map.schema.json": map_schema().encode(),
        "data/claims.csv": claims_csv(graph, base_url),
        "data/sources.csv": sources_csv(graph, base_url),
        "data/measurements.csv": measurements_csv(graph, base_url),
        "data/graph.graphml": graphml(graph),
        "references.bib": references_bib(graph),
        "claims.bib": claims_bib(graph, base_url),
        "robots.txt": robots_txt(base_url),
    }
