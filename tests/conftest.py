"""Shared fixtures: the repository's theme, and scratch projects built from a minimal map."""

from __future__ import annotations

import sys

# PYTHONDONTWRITEBYTECODE (set on this machine and on some CI images) would make pytest
# rewrite the asserts of every test module, and of the plugins it loads (hypothesis's
# 70-odd modules), again in every worker on every run: the rewritten modules are cached
# as pytest does by default. Set before the imports below, which load those modules.
sys.dont_write_bytecode = False

import os
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from hypothesis import settings
from page_facts import PageFacts, facts_of

from lowprec_map.content.check import check
from lowprec_map.content.graph import MapGraph
from lowprec_map.content.project import Project
from lowprec_map.pipeline import build

# CI runs the property tests derandomized, so a red run can be reproduced exactly;
# local runs explore new examples each time.
settings.register_profile("ci", derandomize=True)
if os.environ.get("LOWPREC_REQUIRE_BROWSER") == "1":
    settings.load_profile("ci")

REPO = Path(__file__).resolve().parent.parent
MINIMAL = REPO / "tests" / "fixtures" / "minimal"

# The map the read-only tests look at: the repository's content unless LOWPREC_CONTENT
# names another tree.
CONTENT = Path(os.environ.get("LOWPREC_CONTENT") or REPO / "content")

MakeProject = Callable[..., Project]


@pytest.fixture(scope="session")
def real_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """CONTENT built once, for every test that only reads the site (none may change it)."""
    out = tmp_path_factory.mktemp("real") / "_site"
    build(Project(CONTENT, REPO / "templates", REPO / "static"), out)
    return out


@pytest.fixture(scope="session")
def offline_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """CONTENT built with --offline (every link names a file), to open from its folder."""
    out = tmp_path_factory.mktemp("offline") / "_site"
    build(Project(CONTENT, REPO / "templates", REPO / "static"), out, offline=True)
    return out


class ParsedPages(dict[str, BeautifulSoup]):
    """A site's HTML pages by their path in the site, each parsed when first looked up."""

    def __init__(self, site: Path) -> None:
        super().__init__()
        self.site = site

    def __missing__(self, name: str) -> BeautifulSoup:
        page = BeautifulSoup((self.site / name).read_text("utf-8"), "html.parser")
        self[name] = page
        return page


@pytest.fixture(scope="session")
def real_pages(real_site: Path) -> ParsedPages:
    """Pages of `real_site` as BeautifulSoup trees, for tests that look into a few; the
    checks of every page read `real_facts`."""
    return ParsedPages(real_site)


@pytest.fixture(scope="session")
def real_facts(real_site: Path) -> dict[str, PageFacts]:
    """What the whole-site checks read of every page of `real_site`, parsed once."""
    return facts_of(real_site)


@pytest.fixture(scope="session")
def real_graph() -> MapGraph:
    """CONTENT's graph, checked once."""
    return check(CONTENT).graph


@pytest.fixture(scope="session")
def template_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache of compiled templates for every scratch project of the session."""
    return tmp_path_factory.mktemp("template-cache")


@pytest.fixture
def make_project(tmp_path: Path, template_cache: Path) -> MakeProject:
    """A scratch copy of the minimal map; `files` overwrite (or, with None, delete) files.
    Each call starts again from the fixture, in the same folder."""

    def make(files: dict[str, str | bytes | None] | None = None) -> Project:
        content = tmp_path / "content"
        if content.exists():  # a second project in one test starts from the fixture again
            shutil.rmtree(content)
        shutil.copytree(MINIMAL, content)
        cache = tmp_path / ".lowprec-cache"
        if not cache.is_symlink():
            cache.symlink_to(template_cache)  # compiled once per session
        for name, text in (files or {}).items():
            path = content / name
            if text is None:
                path.unlink()
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(text, bytes):
                path.write_bytes(text)
            else:
                path.write_text(with_dates(path, text), encoding="utf-8")
        return Project(content, REPO / "templates", REPO / "static")

    return make


DATED_FOLDERS = {"dossiers", "claims", "tensions", "failure_modes", "programs", "paths"}
DATES = "added: 2026-01-02\nupdated: 2026-01-03\n"


def with_dates(path: Path, text: str) -> str:
    """Give an entry written by a test the dates every entry needs, unless it sets them.

    Tests then show only the fields they are about; dates have their own tests.
    """
    if "added:" in text or not text.strip():
        return text
    if path.parent.name == "pages" and text.startswith("---\n") and "\n---\n" in text[3:]:
        front, _, body = text[4:].partition("\n---\n")
        return f"---\n{front}\n{DATES}---\n{body}"
    if path.parent.name not in DATED_FOLDERS:
        return text
    return (text if text.endswith("\n") else text + "\n") + DATES


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run the real console entry point in a subprocess, as an editor would."""
    return subprocess.run(
        [sys.executable, str(REPO / "build.py"), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def tree(root: Path) -> dict[str, bytes]:
    """Every file under `root` by relative path, for byte-for-byte comparisons."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def beside(folder: Path) -> list[str]:
    """What a build left in `folder`, by name, but for what it keeps on purpose: the
    project's cache of compiled templates (beside content/) and each output folder's
    lock file (beside the folder)."""
    kept = re.compile(r"\.lowprec-cache|\..+\.lock")
    return sorted(p.name for p in folder.iterdir() if not kept.fullmatch(p.name))
