"""The build, stage by stage: load -> validate -> link -> check rules -> render -> write.

`check` runs the stages that read content; `build` adds rendering and the
atomic write. Both are shared by the CLI and the dev server.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from .errors import ContentError, Problem, Severity, SourcePos
from .exports import bibtex, claims_csv, graphml, map_json, map_schema, robots_txt
from .graph import MapGraph
from .load import load_content
from .pages import plan_pages
from .render import Renderer
from .rules import check_rules
from .urls import output_file
from .validate import validate_docs
from .write import check_output_dir, publish


@dataclass(frozen=True)
class Project:
    """Where a site's content, templates and static assets live."""

    content: Path
    templates: Path
    static: Path

    @classmethod
    def beside(cls, content: Path) -> Project:
        """templates/ and static/ next to content/, else those of the working directory."""
        root = content.parent if (content.parent / "templates").is_dir() else Path()
        return cls(content, root / "templates", root / "static")

    def missing_theme(self) -> str | None:
        """A message when the templates or static folder is missing, else None."""
        for name, folder in (("templates", self.templates), ("static", self.static)):
            if not folder.is_dir():
                return f"{name} folder not found: {folder}"
        return None


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


def check(content: Path) -> CheckResult:
    """Load, validate, link and check rules; every problem from every stage."""
    loaded = load_content(content)
    validated = validate_docs(loaded.docs, content)
    problems = [*loaded.problems, *validated.problems]
    graph = MapGraph(validated.entries, validated.invalid | loaded.unreadable)
    problems.extend(graph.problems)
    problems.extend(check_rules(graph))
    return CheckResult(graph, sorted(problems))


def render_site(
    graph: MapGraph,
    project: Project,
    changed: set[str] | None = None,
    renderer: Renderer | None = None,
) -> tuple[dict[str, bytes], set[str]]:
    """Output files in memory, and the full set of file names the site consists of.

    With `changed` (graph keys of entries that changed since the last render),
    only pages that depend on them are rendered; otherwise every file is.
    A `renderer` kept from an earlier build skips compiling the templates again.
    """
    if renderer is None:
        renderer = Renderer(graph, project.templates, project.static)
    else:
        renderer.use(graph)
    files: dict[str, bytes] = {}
    names: set[str] = set()
    for spec in plan_pages(graph):
        name = output_file(spec.url)
        names.add(name)
        if changed is None or spec.affected_by(changed):
            files[name] = renderer.render(spec)
    files["data/map.json"] = map_json(graph)
    files["data/map.schema.json"] = map_schema().encode()
    files["data/claims.csv"] = claims_csv(graph)
    files["data/graph.graphml"] = graphml(graph)
    files["references.bib"] = bibtex(graph)
    files["robots.txt"] = robots_txt(graph)
    for asset in sorted(project.static.rglob("*")):
        if asset.is_file() and not asset.name.startswith("."):
            files[f"static/{asset.relative_to(project.static).as_posix()}"] = asset.read_bytes()
    names.update(files)
    return files, names


def build(
    project: Project, out: Path, strict: bool = False, base_url: str | None = None
) -> BuildReport:
    """Check, render and publish; raises ContentError and leaves `out` untouched on error."""
    started = time.perf_counter()
    check_output_dir(out, [project.content, project.templates, project.static, Path.cwd()])
    result = check(project.content)
    blocking = result.problems if strict else result.errors
    if blocking:
        raise ContentError(result.problems)
    if base_url is not None:
        result.graph.override_base_url(base_url)
    try:
        files, _ = render_site(result.graph, project)
    except jinja2.TemplateError as exc:
        raise ContentError([template_problem(exc, project.templates)]) from exc
    publish(files, out)
    pages = sum(1 for name in files if name.endswith(".html"))
    elapsed = time.perf_counter() - started
    return BuildReport(result.graph.counts(), pages, len(files), elapsed, result.warnings)


def template_problem(exc: jinja2.TemplateError, templates: Path) -> Problem:
    """A template failure as a positioned problem (the template file and line)."""
    if isinstance(exc, jinja2.TemplateSyntaxError) and exc.name:
        return Problem(SourcePos(templates / exc.name, exc.lineno or 1), f"template: {exc.message}")
    if isinstance(exc, jinja2.TemplateNotFound):
        return Problem(SourcePos(templates / str(exc.name)), "template not found")
    return Problem(SourcePos(templates), f"template error: {exc}")
