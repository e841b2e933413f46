"""Template mistakes as positioned problems: the template file and line, never a traceback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2

from lowprec_map.errors import Problem, SourcePos


class TemplateFailure(Exception):
    """A template could not be compiled or rendered; `problem` says where and why."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.format())
        self.problem = problem

    def __reduce__(self) -> tuple[Any, ...]:  # crosses from forked workers intact
        return (TemplateFailure, (self.problem,))


# What a template can raise through the filters and globals it calls with a wrong value.
TEMPLATE_MISTAKES = (TypeError, AttributeError, ValueError, KeyError, IndexError)


def template_problem(exc: Exception, templates: Path) -> Problem:
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
    detail = str(exc) if isinstance(exc, jinja2.TemplateError) else f"{type(exc).__name__}: {exc}"
    return Problem(where, f"template error: {detail}")
