"""Writing: atomic publish, no half-written site, byte-identical rebuilds."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, MakeProject, tree

from lowprec_map import parallel, pipeline
from lowprec_map.cli import main
from lowprec_map.errors import ContentError
from lowprec_map.pipeline import build
from lowprec_map.write import (
    OutputDirError,
    PreparedStaging,
    check_output_dir,
    prepared_staging,
    publish,
    staged,
    write_files,
)


def test_two_builds_are_byte_identical(make_project: MakeProject, tmp_path: Path) -> None:
    project = make_project()
    build(project, tmp_path / "one")
    build(project, tmp_path / "two")
    one, two = tree(tmp_path / "one"), tree(tmp_path / "two")
    assert len(one) > 20
    assert one == two


def test_builds_in_separate_processes_are_byte_identical(tmp_path: Path) -> None:
    """String hashing is seeded per process: no output may depend on set or dict-of-set order.

    (The map's layout once summed neighbour ranks in set order, and one ulp flipped a tie.)
    """
    # Seeds 0 and 6 gave different maps of the real content before the fix.
    for seed in ("0", "6"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        command = [sys.executable, str(REPO / "build.py"), "--out", str(tmp_path / seed)]
        subprocess.run(command, cwd=REPO, env=env, check=True, capture_output=True)
    assert tree(tmp_path / "0") == tree(tmp_path / "6")


def test_content_error_leaves_old_site_intact(make_project: MakeProject, tmp_path: Path) -> None:
    project = make_project()
    out = tmp_path / "site"
    build(project, out)
    before = tree(out)
    (project.content / "claims" / "alpha-fast.yaml").write_text("statement: [\n")
    with pytest.raises(ContentError):
        build(project, out)
    assert tree(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["content", "site"]


@pytest.mark.parametrize("threshold", [10_000, 0], ids=["in-process", "forked"])
def test_crash_while_writing_leaves_old_site_intact(
    make_project: MakeProject, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, threshold: int
) -> None:
    """Also when the data files are written by a forked child (its error is raised here)."""
    monkeypatch.setattr(parallel, "PARALLEL_THRESHOLD", threshold)
    project = make_project()
    out = tmp_path / "site"
    build(project, out)
    before = tree(out)

    def broken_exports(*args: object) -> dict[str, bytes]:
        return {"a/../../escape.html": b"x"}  # written after every page

    monkeypatch.setattr(pipeline, "export_files", broken_exports)
    with pytest.raises(OutputDirError):
        build(project, out)
    assert tree(out) == before
    assert not (tmp_path / "escape.html").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["content", "site"]


def test_publish_replaces_stale_files(tmp_path: Path) -> None:
    out = tmp_path / "site"
    publish({"a.html": b"1", "old/b.html": b"2"}, out)
    publish({"a.html": b"3"}, out)
    assert tree(out) == {"a.html": b"3"}


def test_output_dir_may_not_hold_the_project(tmp_path: Path) -> None:
    content = tmp_path / "content"
    content.mkdir()
    with pytest.raises(OutputDirError):
        check_output_dir(tmp_path, [content])
    with pytest.raises(OutputDirError):
        check_output_dir(content, [content])
    check_output_dir(tmp_path / "_site", [content])


def test_unchanged_files_are_not_rewritten(make_project: MakeProject, tmp_path: Path) -> None:
    project = make_project()
    out = tmp_path / "site"
    build(project, out)
    before = {p: p.stat().st_ino for p in out.rglob("*.html")}
    claim = project.content / "claims" / "beta-slow.yaml"
    claim.write_text(claim.read_text().replace("Beta finds it slow.", "Beta finds it slower."))
    build(project, out)
    after = {p: p.stat().st_ino for p in out.rglob("*.html")}
    kept = {p for p in before if after.get(p) == before[p]}
    assert out / "claims/beta-slow/index.html" not in kept  # changed: rewritten
    assert out / "foundations/index.html" in kept  # unchanged: same file, not rewritten
    assert (out / "claims/beta-slow/index.html").read_text().count("Beta finds it slower.") >= 1


def test_parallel_rendering_gives_the_same_bytes(
    make_project: MakeProject, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = make_project()
    build(project, tmp_path / "serial")
    monkeypatch.setattr(parallel, "PARALLEL_THRESHOLD", 0)  # fork workers even for a tiny site
    build(project, tmp_path / "parallel")
    assert tree(tmp_path / "serial") == tree(tmp_path / "parallel")


def _folders(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_dir())


def test_the_cli_build_with_early_folders_gives_the_same_site(
    make_project: MakeProject, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`build` makes page folders (and empty pages) in a child before anything is parsed:
    the site is the same to the byte and the folder, with nothing empty left behind,
    both for a first build and over a previous site (whose unchanged pages keep their inode)."""
    project = make_project()
    monkeypatch.chdir(tmp_path)
    (project.content / "claims" / "ghost.yaml").write_text("statement: never valid\n")
    with pytest.raises(ContentError):  # the early folders go when the content is wrong
        build(project, tmp_path / "unused")
    theme = ["--templates", str(project.templates), "--static", str(project.static)]
    assert main(["build", "--content", "content", *theme, "--out", "x"]) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["content"]
    (project.content / "claims" / "ghost.yaml").unlink()
    build(project, tmp_path / "plain")
    for _ in range(2):  # a first build, then one over the previous site
        inodes = {p: p.stat().st_ino for p in (tmp_path / "early").rglob("*.html")}
        assert main(["build", "--content", "content", *theme, "--out", "early"]) == 0
        assert tree(tmp_path / "early") == tree(tmp_path / "plain")
        assert _folders(tmp_path / "early") == _folders(tmp_path / "plain")
        assert not [
            p for p in (tmp_path / "early").rglob("*") if p.is_file() and not p.stat().st_size
        ]
    kept = [p for p in inodes if p.stat().st_ino == inodes[p]]
    assert len(kept) == len(inodes) > 20
    assert sorted(p.name for p in tmp_path.iterdir()) == ["content", "early", "plain"]


def test_early_folders_no_page_was_written_to_are_removed(tmp_path: Path) -> None:
    out = tmp_path / "site"
    folders = [f"claims/c{i}" for i in range(300)] + ["ghost", "claims/ghost"]
    pages = {f"claims/c{i}/index.html": f"<p>claim {i}</p>".encode() for i in range(300)}
    with prepared_staging(out, folders) as prepared, staged(out, prepared) as staging:
        # Written at once, racing the child: it must never empty a page written first.
        write_files(sorted(pages.items()), staging, out)
        prepared.settle(set(pages))
    assert tree(out) == pages
    assert _folders(out) == ["claims", *sorted(f"claims/c{i}" for i in range(300))]


def test_an_unsettled_early_staging_is_not_published(tmp_path: Path) -> None:
    out = tmp_path / "site"
    with (
        pytest.raises(RuntimeError, match="not settled"),
        prepared_staging(out, ["a", "b"]) as prepared,
        staged(out, prepared) as staging,
    ):
        write_files([("a/index.html", b"a")], staging, out)
    assert list(tmp_path.iterdir()) == []


def test_the_cli_imports_nothing_heavy_before_the_early_folders() -> None:
    """What `build` imports before forking the child delays it; the stages' libraries wait."""
    code = (
        "import sys, lowprec_map.cli; "
        "print(sorted({m.split('.')[0] for m in sys.modules} & "
        "{'networkx', 'pydantic', 'jinja2', 'markdown_it', 'yaml', 'multiprocessing'}))"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO / "src")}
    command = [sys.executable, "-c", code]
    result = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    assert result.stdout.strip() == "[]", result.stderr


def test_settling_removes_an_unused_folder_the_child_left_without_its_file(
    tmp_path: Path,
) -> None:
    """The child stops at the first unexpected failure, so a folder may lack its empty file."""
    staging = tmp_path / "staging"
    (staging / "claims" / "ghost").mkdir(parents=True)
    (staging / "claims" / "kept").mkdir()
    (staging / "claims" / "kept" / "index.html").write_bytes(b"<p>kept</p>")
    prepared = PreparedStaging(staging, ["claims/ghost", "claims/kept"], with_files=True)
    prepared.settle({"claims/kept/index.html"})
    assert _folders(staging) == ["claims", "claims/kept"]
