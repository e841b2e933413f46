"""The page contexts are a contract: every page kind is drawn from its dataclass, and every
field of every context says what it holds (as Datasette's template contexts do)."""

from __future__ import annotations

import ast
import inspect

from conftest import MINIMAL, REPO

from lowprec_map.content.check import check
from lowprec_map.site import contexts
from lowprec_map.site.pages import plan_pages
from lowprec_map.site.reads import Reader
from lowprec_map.site.render import Renderer


def test_every_field_of_every_context_is_described() -> None:
    tree = ast.parse(inspect.getsource(contexts))
    described: dict[str, list[str]] = {}
    for node in tree.body:
        if not (isinstance(node, ast.ClassDef) and node.name.endswith("Context")):
            continue
        assert ast.get_docstring(node), node.name
        body, missing = node.body, []
        for index, statement in enumerate(body):
            if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                after = body[index + 1] if index + 1 < len(body) else None
                is_text = isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                if not (is_text and isinstance(after.value.value, str)):  # type: ignore[union-attr]
                    missing.append(statement.target.id)
        described[node.name] = missing
    assert set(described) == {c.__name__ for c in contexts.CONTEXTS}
    assert {name: missing for name, missing in described.items() if missing} == {}


def test_every_page_kind_is_drawn_from_its_dataclass() -> None:
    """Each page's context is an instance of a context class; its template draws from
    exactly those fields (StrictUndefined fails on any other); every class is used."""
    graph = check(MINIMAL).graph
    renderer = Renderer(REPO / "templates", REPO / "static")
    used = set()
    for spec in plan_pages(graph):
        context = spec.context(Reader(graph))
        assert type(context) in contexts.CONTEXTS, (spec.url, type(context))
        used.add(type(context))
        assert renderer.render(spec, graph)  # drawn from its fields, and only those
    assert used == set(contexts.CONTEXTS)
