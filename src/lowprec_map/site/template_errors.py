"""Template mistakes as positioned problems: the template file and line, never a traceback."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import jinja2

from lowprec_map.errors import Problem, SourcePos, suggest


class TemplateFailure(Exception):
    """A template could not be compiled or rendered; `problem` says where and why."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.format())
        self.problem = problem

    def __reduce__(self) -> tuple[Any, ...]:  # crosses from forked workers intact
        return (TemplateFailure, (self.problem,))


def template_problem(exc: Exception, templates: Path) -> Problem:
    """A template failure as a positioned problem (the template file and line)."""
    if isinstance(exc, jinja2.TemplateSyntaxError) and exc.name:
        return Problem(SourcePos(templates / exc.name, exc.lineno or 1), f"template: {exc.message}")
    if isinstance(exc, jinja2.TemplateNotFound):
        return Problem(SourcePos(templates / str(exc.name)), "template not found")
    # The innermost frame of a template's compiled code names the file and, through the
    # template's line map, the line (Jinja rewrites only some tracebacks itself).
    frame, where = exc.__traceback__, SourcePos(templates)
    while frame is not None:
        code, template = frame.tb_frame.f_code, frame.tb_frame.f_globals.get("__jinja_template__")
        if code.co_filename.endswith((".html", ".xml")):
            line = frame.tb_lineno
            if isinstance(template, jinja2.Template):
                line = template.get_corresponding_lineno(line)
            where = SourcePos(Path(code.co_filename), line)
        frame = frame.tb_next
    detail = str(exc) if isinstance(exc, jinja2.TemplateError) else f"{type(exc).__name__}: {exc}"
    return Problem(where, f"template error: {detail}")


_EXTENDS = re.compile(r"\{%-?\s*extends\s+[\"']([^\"']+)[\"']")
_BLOCK_TAGS = re.compile(r"\{%-?\s*(block|endblock)\b\s*(\w*)")


def check_blocks(env: jinja2.Environment, templates: Path, name: str) -> None:
    """A block the parent template does not define would never show: a TemplateFailure.

    Read from the source's tags (parsing every template again on every build cost
    more than compiling them from the cache).
    """
    source = env.loader.get_source(env, name)[0] if env.loader else ""
    extends = _EXTENDS.search(source)
    if extends is None:
        return
    parent = env.get_template(extends.group(1))
    depth = 0
    for tag in _BLOCK_TAGS.finditer(source):
        if tag.group(1) == "endblock":
            depth -= 1
            continue
        if depth == 0 and tag.group(2) not in parent.blocks:
            line = source.count("\n", 0, tag.start()) + 1
            message = f"block '{tag.group(2)}' is not in {parent.name}"
            hint = suggest(tag.group(2), parent.blocks)
            raise TemplateFailure(Problem(SourcePos(templates / name, line), message + hint))
        depth += 1
