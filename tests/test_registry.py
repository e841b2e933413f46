"""The registry of entry types: a type added there, with a model and a template, is built."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import pytest
from bs4 import BeautifulSoup
from conftest import REPO, MakeProject
from pydantic import Field

from lowprec_map.content.check import check
from lowprec_map.content.project import Project
from lowprec_map.dev.scaffold import write_schemas
from lowprec_map.errors import ContentError
from lowprec_map.pipeline import build
from lowprec_map.registry import REGISTRY, EntryType, Listing, Naming, RegistryError
from lowprec_map.schema.fields import Dated, Markdown, RefTo, Slug, Text


class Note(Dated):
    """content/notes/<id>.yaml: a toy type, known to nothing but the registry."""

    title: Text = Field(description="The note's title.")
    about: list[Annotated[Slug, RefTo("dossier", "about")]] = Field(
        default=[], description="Dossiers the note is about."
    )
    body: Markdown = Field(description="The note.")


NOTE = EntryType(
    "note",
    Note,
    "note",
    folder="notes",
    url_folder="notes",
    listing=Listing("Notes", "Every note.", masthead="Notes"),
    naming=Naming("title", search=("title",)),
    skeleton=lambda existing: {"title": existing.title, "body": "The note."},
)
NOTE_TEMPLATE = """{% extends "base.html" %}
{% block main %}<article class="entry"><h1>{{ model.title }}</h1>{{ model.body|md }}
<ul>{% for d in model.about %}<li>{{ macros.entry_link(d) }}</li>{% endfor %}</ul></article>
{% endblock main %}
"""


def test_a_toy_type_is_checked_built_listed_linked_and_given_a_schema(
    make_project: MakeProject, tmp_path: Path
) -> None:
    dates = "added: 2026-01-01\nupdated: 2026-01-01\n"
    note = "title: A toy note\nabout: [alpha]\nbody: See [the other note](note:second).\n"
    project = make_project(
        {
            "notes/first.yaml": note + dates,
            "notes/second.yaml": "title: Second\nbody: No.\n" + dates,
        }
    )
    templates = tmp_path / "templates"
    shutil.copytree(REPO / "templates", templates)
    (templates / "note.html").write_text(NOTE_TEMPLATE, encoding="utf-8")
    themed = Project(project.content, templates, project.static)
    out = tmp_path / "site"
    with REGISTRY.extended(NOTE):
        bad = project.content / "notes" / "third.yaml"
        bad.write_text("title: Third\nabout: [alpah]\nbody: x\n" + dates)
        assert [p.format().split("content/")[1] for p in check(project.content).errors] == [
            "notes/third.yaml:2:9: unknown dossier 'alpah' (did you mean 'alpha'?)"
        ]
        bad.unlink()
        build(themed, out)
        schemas = {p.name for p in write_schemas(tmp_path / "schemas")}
    page = BeautifulSoup((out / "notes/first/index.html").read_text(), "html.parser")
    assert page.h1 is not None and page.h1.get_text() == "A toy note"
    links = {a["href"] for a in page.select("article a")}
    assert {"../../notes/second/", "../../dossiers/alpha/"} <= links  # a prose link and a reference
    listing = BeautifulSoup((out / "notes/index.html").read_text(), "html.parser")
    assert [a.get_text() for a in listing.select("ul.entries a")] == ["A toy note", "Second"]
    masthead = [a.get_text() for a in listing.select("header nav a")]
    assert "Notes" in masthead
    dossier = (out / "dossiers/alpha/index.html").read_text()
    assert 'note</span> <a href="../../notes/first/">A toy note</a>' in dossier  # a backlink
    assert "notes/first/" in (out / "sitemap.xml").read_text()
    search = BeautifulSoup((out / "search/index.html").read_text(), "html.parser")
    assert "Notes" in [h.get_text() for h in search.select("h2")]
    entries = json.loads((out / "data/map.json").read_text())["entries"]
    assert {"note:first", "note:second"} <= {e["key"] for e in entries}
    assert "note.json" in schemas
    # Outside the block, the registry is as it was: notes are unexpected content again.
    assert any("unexpected folder 'notes'" in p.message for p in check(project.content).errors)


class Stray(Dated):
    """A type whose reference names a type the registry does not have."""

    title: Text = Field(description="Its title.")
    about: Annotated[Slug, RefTo("notebook", "about")] = Field(description="A notebook.")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (replace(NOTE, folder="claims"), "entry types share a folder: claims"),
        (replace(NOTE, url_folder="dossiers"), "entry types share a URL folder: dossiers"),
        (replace(NOTE, name="claim"), "entry types share a name: claim"),
        (replace(NOTE, model=Stray), "note refers to unknown types: ['notebook']"),
        (replace(NOTE, naming=Naming("name")), "note is named by fields it lacks: ['name']"),
        (replace(NOTE, skeleton=None), "note has pages but no skeleton for `new`"),
    ],
)
def test_the_registry_checks_itself_when_built(extra: EntryType, message: str) -> None:
    with pytest.raises(RegistryError, match=re.escape(message)), REGISTRY.extended(extra):
        pass
    assert "note" not in REGISTRY.by_name  # refused whole


def test_a_type_without_its_page_template_is_a_positioned_error(
    make_project: MakeProject, tmp_path: Path
) -> None:
    """Found before any entry of the type needs the template."""
    project = make_project()
    with REGISTRY.extended(NOTE), pytest.raises(ContentError) as raised:
        build(project, tmp_path / "site")
    assert [p.format().split("templates/")[1] for p in raised.value.problems] == [
        "note.html:1:1: template not found"
    ]
