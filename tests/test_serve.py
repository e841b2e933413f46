"""The dev server over real HTTP: serves, rebuilds on save, shows errors, survives, recovers."""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import watchfiles
from conftest import MINIMAL, REPO, MakeProject, tree
from hypothesis import given, settings
from hypothesis import strategies as st

from lowprec_map.cli import main
from lowprec_map.content.check import check
from lowprec_map.content.project import Project
from lowprec_map.dev import incremental
from lowprec_map.dev import serve as serve_module
from lowprec_map.dev.serve import DevSite, watch_saves
from lowprec_map.pipeline import build
from lowprec_map.site import pages


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def wait_for(condition: Callable[[], bool], timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if condition():
                return
        except (urllib.error.URLError, ConnectionError):
            pass
        time.sleep(0.1)
    raise AssertionError("condition not met in time")


Served = tuple[str, Path, subprocess.Popen[str]]


@contextmanager
def serving(root: Path) -> Iterator[Served]:
    """A scratch project under `root` served by `python build.py serve` on a free port."""
    shutil.copytree(MINIMAL, root / "content")
    shutil.copytree(REPO / "templates", root / "templates")
    shutil.copytree(REPO / "static", root / "static")
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, str(REPO / "build.py"), "serve", "--port", str(port)],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}/"
    try:
        wait_for(lambda: fetch(base)[0] == 200)
        yield base, root, process
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Served]:
    """A server of one's own, for a test that edits the content."""
    with serving(tmp_path) as served:
        yield served


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One server for the tests that only send it requests."""
    with serving(tmp_path_factory.mktemp("served")) as served:
        yield served


@pytest.mark.slow
def test_serve_rebuilds_shows_errors_and_recovers(
    server: tuple[str, Path, subprocess.Popen[str]],
) -> None:
    base, root, process = server
    status, body = fetch(base)
    assert status == 200 and "livereload" in body  # the reload script is injected in serve only
    claim = root / "content/claims/alpha-fast.yaml"
    page = base + "claims/alpha-fast/"

    claim.write_text(claim.read_text().replace("Alpha is fast.", "Alpha is fast on H100."))
    wait_for(lambda: "Alpha is fast on H100." in fetch(page)[1])
    # The page that shows the claim as a backlink is rebuilt too.
    wait_for(lambda: "Alpha is fast on H100." in fetch(base + "dossiers/alpha/")[1])

    good = claim.read_text()
    claim.write_text(good.replace("label: contested", "label: [contested"))
    wait_for(lambda: fetch(page)[0] == 500)
    status, body = fetch(page)
    assert "Build failed" in body
    assert "content/claims/alpha-fast.yaml:" in body and "YAML syntax error" in body
    assert fetch(base + "static/style.css")[0] == 200  # assets still served
    assert process.poll() is None  # the server survived

    claim.write_text(good)
    wait_for(lambda: fetch(page)[0] == 200)
    assert "Alpha is fast on H100." in fetch(page)[1]


def listening_addresses(port: int) -> set[str]:
    """IPv4/IPv6 addresses with a socket listening on `port`, from /proc/net (Linux)."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        path = Path(table)
        if not path.exists():
            continue
        for line in path.read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            address, port_hex = local.split(":")
            if state == "0A" and int(port_hex, 16) == port:
                found.add(address)
    return found


@pytest.mark.slow
def test_serve_binds_to_localhost_by_default(
    shared_server: Served,
) -> None:
    base, _, process = shared_server
    port = int(base.rsplit(":", 1)[1].strip("/"))
    if not Path("/proc/net/tcp").exists():
        pytest.skip("needs Linux /proc/net to list listening sockets")
    # 0100007F is 127.0.0.1 in /proc's little-endian hex; 00000000 would be 0.0.0.0.
    assert listening_addresses(port) == {"0100007F"}
    assert process.poll() is None


def raw_request(base: str, request: bytes, *, ends_here: bool = False) -> bytes:
    """Send raw bytes and read the answer; `ends_here` closes our side after sending, so
    a request the server waits to see finished ends at once instead of timing out."""
    host, port = base.removeprefix("http://").strip("/").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as sock:
        try:
            sock.sendall(request)
            if ends_here:
                sock.shutdown(socket.SHUT_WR)
        except OSError:
            return b""  # the server closed on junk before reading it all: a fine answer
        chunks = []
        try:
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        except (TimeoutError, ConnectionResetError):
            pass  # closing on junk is a fine answer; what matters is that the server lives
    return b"".join(chunks)


@pytest.mark.slow
@pytest.mark.parametrize(
    "path",
    [
        "/../../../../etc/passwd",
        "/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        "/..%2f..%2f..%2f..%2fetc%2fpasswd",
        "/static/..%2f..%2f..%2f..%2f..%2fetc/passwd",
        "/%252e%252e/%252e%252e/etc/passwd",
        "/static/%2e%2e/%2e%2e/content/site.yaml",
        "//etc/passwd",
    ],
)
def test_serve_never_leaves_the_output_folder(shared_server: Served, path: str) -> None:
    base, _, process = shared_server
    response = raw_request(
        base, f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode()
    )
    status = int(response.split(b" ", 2)[1])
    assert status in (301, 302, 400, 403, 404), response[:200]
    assert b"root:" not in response and b"repository:" not in response
    assert process.poll() is None


@pytest.mark.slow
def test_serve_survives_malformed_requests(shared_server: Served) -> None:
    base, _, process = shared_server
    for junk in [
        b"\x00\x01\x02 garbage\r\n\r\n",
        b"GET / HTTP/1.1\r\n" + b"X-Long: " + b"a" * 200_000 + b"\r\n\r\n",
        b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
        b"GET / HTTP/1.1\r\n",  # never finished
    ]:
        raw_request(base, junk, ends_here=True)
    assert process.poll() is None
    assert fetch(base)[0] == 200


@pytest.mark.slow
def test_browser_reloads_by_itself_after_a_save(
    server: tuple[str, Path, subprocess.Popen[str]],
) -> None:
    """The live-reload script runs under the page's CSP and reloads the open page."""
    from browser import CHROMIUM, CHROMIUM_ARGS, require  # noqa: PLC0415
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    require(Path(CHROMIUM).exists(), f"Chromium not found at {CHROMIUM}")
    base, root, _ = server
    claim = root / "content/claims/alpha-fast.yaml"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(base + "claims/alpha-fast/")
        page.wait_for_function("() => window.LiveReload !== undefined", timeout=10_000)
        claim.write_text(claim.read_text().replace("Alpha is fast.", "Alpha reloaded itself."))
        # While the reloaded page is still being parsed it may have no heading yet.
        page.wait_for_function(
            "() => document.querySelector('h1')?.textContent.includes('reloaded itself')",
            timeout=15_000,
        )
        browser.close()
    assert errors == []


def test_a_page_is_redrawn_when_an_entry_leaves_it(
    make_project: MakeProject, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The feed shows the newest entries: one dated back drops out and another comes in.

    The entry that left is not among what the new feed depends on, only among what
    the old one did; the feed must be redrawn all the same.
    """
    monkeypatch.setattr(pages, "FEED_ENTRIES", 3)
    project = make_project()
    dev = DevSite(project, tmp_path / "dev")
    dev.rebuild()
    feed = tmp_path / "dev" / "feed.xml"
    newest = re.findall(r"<id>[^<]*/([a-z-]+/[a-z0-9-]+)/</id>", feed.read_text())
    assert len(newest) == 3
    folder, entry_id = newest[0].split("/")
    path = next(project.content.glob(f"*/{entry_id}.yaml"))
    text = path.read_text()
    path.write_text(re.sub(r"(added|updated): \S+", r"\1: 2020-01-01", text))
    dev.rebuild()
    build(project, tmp_path / "full")
    assert feed.read_bytes() == (tmp_path / "full" / "feed.xml").read_bytes()
    assert f"/{folder}/{entry_id}/" not in feed.read_text()


OLD_BOTH_AGREE = """statement: Both agree on something.
label: replicated
sources:
  - {dossier: alpha, locator: Fig. 2, stance: supports, basis: measured}
  - {dossier: beta, locator: Abstract, stance: supports, basis: measured}
"""


def drawn_on_save(dev: DevSite, path: Path, old: str, new: str) -> list[str]:
    """URLs of the pages the next rebuild draws after replacing `old` with `new`."""
    path.write_text(path.read_text().replace(old, new))
    dev.rebuild()
    dev.write_exports()
    return dev.drawn


def test_a_save_renders_only_pages_that_can_show_the_change(
    make_project: MakeProject, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Claims sharing a dossier do not show each other: neither page is redrawn for the other."""
    monkeypatch.setattr(pages, "LANDING_CLAIMS", 1)  # the preview: alpha-fast only
    dated_back = "added: 2020-01-01\nupdated: 2020-01-01\n"  # nor among the 5 newest
    project = make_project({"claims/both-agree.yaml": OLD_BOTH_AGREE + dated_back})
    dev = DevSite(project, tmp_path / "dev")
    dev.rebuild()
    claims = project.content / "claims"

    urls = drawn_on_save(dev, claims / "both-agree.yaml", "on something", "on X")
    assert {"claims/both-agree/", "dossiers/alpha/", "dossiers/beta/", "claims/"} <= set(urls)
    assert "claims/alpha-fast/" not in urls  # cites alpha too, but never shows both-agree
    # The landing reads every claim (to find the newest) but shows none of this one.
    assert "" not in urls
    assert len(urls) < len(pages.plan_pages(check(project.content).graph)) / 2
    build(project, tmp_path / "full")
    assert tree(tmp_path / "dev") == tree(tmp_path / "full")

    # A field only the dossier's own page shows: the pages that show the dossier's name
    # (its claims, the ledger) are not redrawn.
    dossiers = project.content / "dossiers"
    urls = drawn_on_save(dev, dossiers / "alpha.yaml", "Alpha limitation.", "Alpha's limit.")
    assert "dossiers/alpha/" in urls
    assert not {"claims/alpha-fast/", "claims/", "dossiers/"} & set(urls)
    build(project, tmp_path / "full-1")
    assert tree(tmp_path / "dev") == tree(tmp_path / "full-1")

    # Made the newest claim, both-agree enters the landing's preview (and alpha-fast leaves).
    newest = "updated: 2026-11-30"
    urls = drawn_on_save(dev, claims / "both-agree.yaml", "updated: 2020-01-01", newest)
    assert "" in urls and "claims/alpha-fast/" not in urls
    build(project, tmp_path / "full-2")
    assert tree(tmp_path / "dev") == tree(tmp_path / "full-2")


# Edits the fixture accepts in any order; each toggles between its two texts. Pages
# record what they read field by field: each kind of field is here, shown on few
# pages or on all.
TOGGLES = [
    ("claims/both-agree.yaml", "Both agree on something.", "Both agree, mostly."),
    ("claims/both-agree.yaml", "label: replicated", "label: measured"),
    ("claims/alpha-fast.yaml", "updated: 2026-11-29", "updated: 2026-11-30"),
    ("claims/beta-slow.yaml", "Beta finds it slow.", "Beta finds it slower."),
    ("dossiers/alpha.yaml", "core: true", "core: false"),
    ("dossiers/beta.yaml", "short_name: Beta", "short_name: Beta-2"),
    ("dossiers/alpha.yaml", "programs: [prog]", "programs: []"),
    ("programs/prog.yaml", "title: The program", "title: Renamed"),
    ("tensions/alpha-vs-beta.yaml", "title: Fast or slow?", "title: Fast, or slow?"),
    ("paths/start.yaml", "{claim: beta-slow}", "{claim: both-agree}"),
    ("failure_modes/collapse.yaml", "title: Collapse", "title: Collapse!"),
    ("pages/foundations.md", "# Formats", "# Formats, after [Beta](dossier:beta)"),
    ("evidence.yaml", "name: Measured", "name: Measured once"),
    ("pages/foundations.md", "title: Foundations", "title: Groundwork"),  # every masthead
    ("pages/foundations.md", "Relative error is", "The relative error is"),  # the body only
    ("dossiers/alpha.yaml", "read: abstract", "read: full-text"),
    ("dossiers/alpha.yaml", "summary: Alpha summary.", "summary: Alpha, in short."),
    ("claims/alpha-fast.yaml", "locator: Table 1", "locator: Fig. 1"),
    ("site.yaml", "title: Test Map", "title: Test Map II"),
]


def assert_drawn_like_a_full_build(dev: DevSite, full: Path, edit: str) -> None:
    """serve's folder equals a full build; if not, name each page that differs, what it
    recorded reading, and the changed facts it never recorded (the missing read)."""
    served, built = tree(dev.out), tree(full)
    if served == built:
        return
    found = []
    for name in sorted(set(served) | set(built)):
        if served.get(name) == built.get(name):
            continue
        record = dev.pages.get(name)
        if record is None:
            found.append(f"{name}: not a page serve drew (a data or static file)")
            continue
        reads = record.context_facts | record.drawn_facts
        found.append(
            f"{name}: differs after {edit}; it recorded {len(reads)} reads, and never "
            f"recorded these facts the save changed: {sorted(dev.last_changed - reads)}"
        )
    raise AssertionError("\n".join(found))


def test_incremental_rebuilds_match_full_builds(make_project: MakeProject, tmp_path: Path) -> None:
    """After each kind of edit (every toggle once, then an entry added), what serve wrote
    equals a fresh full build, byte for byte."""
    project = make_project()
    dev = DevSite(project, tmp_path / "dev")
    dev.rebuild()
    dev.write_exports()
    content = project.content
    for step, (name, old, new) in enumerate(TOGGLES):
        path = content / name
        path.write_text(path.read_text().replace(old, new))
        dev.rebuild()
        dev.write_exports()
        assert dev.errors == [], [p.format() for p in dev.errors]
        full = tmp_path / f"full-{step}"
        build(project, full)
        assert_drawn_like_a_full_build(dev, full, f"editing {name}")
    (content / "claims/extra.yaml").write_text(
        "statement: New.\nlabel: measured\nsources:\n  - {dossier: beta, locator: Fig. 9, stance: supports, basis: measured}\n"
        "added: 2026-02-01\nupdated: 2026-02-01\n"
    )
    (content / "paths/start.yaml").write_text(
        (content / "paths/start.yaml").read_text().replace("{claim: beta-slow}", "{claim: extra}")
    )
    dev.rebuild()
    dev.write_exports()
    build(project, tmp_path / "full-added")
    assert tree(tmp_path / "dev") == tree(tmp_path / "full-added")


def _changes_seen(folder: Path) -> list[str]:
    """Watch `folder`, save a file there, and return the paths reported for that save."""
    stop, reported = threading.Event(), []

    def save_soon() -> None:
        time.sleep(0.3)  # let the watch begin
        (folder / "a.yaml").write_text("statement: saved\n")

    threading.Thread(target=save_soon, daemon=True).start()
    timer = threading.Timer(10, stop.set)  # a watch that sees nothing ends the test, not CI
    timer.start()
    for batch in watch_saves([folder], stop):
        reported.extend(batch)
        if batch:  # an empty batch: nothing changed for a while
            break
    timer.cancel()
    return reported


def test_saves_are_noticed_and_a_failing_os_watch_falls_back_to_polling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert str(tmp_path / "a.yaml") in _changes_seen(tmp_path)

    real_watch = watchfiles.watch

    def no_notifications(*paths: str, force_polling: bool | None, **options: Any) -> Any:
        if not force_polling:
            raise OSError("OS file watch limit reached")
        return real_watch(*paths, force_polling=True, poll_delay_ms=50, **options)

    monkeypatch.setattr(watchfiles, "watch", no_notifications)
    (tmp_path / "b").mkdir()
    assert str(tmp_path / "b/a.yaml") in _changes_seen(tmp_path / "b")
    assert "watch limit reached" in capsys.readouterr().err


@pytest.fixture(scope="module")
def scratch_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder for every example, so that compiled templates are kept between them."""
    return tmp_path_factory.mktemp("sequences")


@settings(max_examples=6, deadline=None)
@given(st.lists(st.sampled_from(range(len(TOGGLES))), min_size=1, max_size=5))
def test_any_sequence_of_edits_rebuilds_like_a_full_build(
    scratch_root: Path, sequence: list[int]
) -> None:
    """Whatever is edited, in whatever order, serve's output equals a full build's.

    A page is redrawn when a fact it read changed; this is the guard that what
    is recorded covers everything pages show.
    """
    root = scratch_root
    for old in root.iterdir():  # the last example's content, sites and locks; not the cache
        if old.is_file():
            old.unlink()
        elif old.name != ".lowprec-cache":
            shutil.rmtree(old)
    shutil.copytree(MINIMAL, root / "content")
    project = Project(root / "content", REPO / "templates", REPO / "static")
    dev = DevSite(project, root / "dev")
    dev.rebuild()
    dev.write_exports()
    for step, index in enumerate(sequence):
        name, one, other = TOGGLES[index]
        path = project.content / name
        text = path.read_text()
        assert one in text or other in text, name
        path.write_text(text.replace(one, other) if one in text else text.replace(other, one))
        dev.rebuild()
        dev.write_exports()
        assert dev.errors == [], [p.format() for p in dev.errors]
        build(project, root / f"full-{step}")
        assert_drawn_like_a_full_build(dev, root / f"full-{step}", str(TOGGLES[index]))


# ---------------------------------------------------------------- attacks on recovery


def test_a_failing_stage_shows_the_error_page_and_the_next_save_recovers(
    make_project: MakeProject, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Any exception in a stage, a bug of ours included, becomes the error page."""
    project = make_project()
    dev = DevSite(project, tmp_path / "dev")
    dev.rebuild()

    def broken(*args: Any) -> Any:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(serve_module, "changed_facts", broken)
    claim = project.content / "claims/alpha-fast.yaml"
    claim.write_text(claim.read_text().replace("Alpha is fast.", "Alpha is faster."))
    dev.rebuild()
    page = dev.error_page()
    assert page is not None and b"internal error: ZeroDivisionError: division by zero" in page
    monkeypatch.undo()
    claim.write_text(claim.read_text().replace("Alpha is faster.", "Alpha is fastest."))
    dev.rebuild()
    assert dev.error_page() is None
    assert "Alpha is fastest." in (tmp_path / "dev/claims/alpha-fast/index.html").read_text()


def test_a_file_caught_mid_write_is_judged_once_it_has_settled(
    make_project: MakeProject, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = make_project()
    dev = DevSite(project, tmp_path / "dev")
    dev.rebuild()
    claim = project.content / "claims/alpha-fast.yaml"
    good = claim.read_text()
    claim.write_text("")  # an editor's save in place: truncated, not yet written
    dev.rebuild()
    assert dev.error_page() is None and dev.due()  # the last good pages stay up
    claim.write_text(good.replace("Alpha is fast.", "Alpha, saved in place."))
    dev.rebuild()
    assert dev.error_page() is None and not dev.due()
    monkeypatch.setattr(incremental, "SETTLE_SECONDS", 0.0)  # a file that stays broken
    claim.write_text("")
    dev.rebuild()
    page = dev.error_page()
    assert page is not None and b"alpha-fast.yaml:1:1: file is empty" in page


def test_a_deleted_output_folder_is_written_again_whole(
    make_project: MakeProject, tmp_path: Path
) -> None:
    project = make_project()
    dev = DevSite(project, tmp_path / "dev")
    dev.rebuild()
    dev.write_exports()
    shutil.rmtree(tmp_path / "dev")
    assert dev.due()
    dev.rebuild()
    dev.write_exports()
    build(project, tmp_path / "full")
    assert tree(tmp_path / "dev") == tree(tmp_path / "full")


@pytest.mark.slow
def test_serve_recovers_a_content_folder_deleted_and_made_again(server: Served) -> None:
    base, root, process = server
    content, away = root / "content", root / "content-away"
    content.rename(away)
    wait_for(lambda: "content folder not found" in fetch(base)[1])
    away.rename(content)
    wait_for(lambda: fetch(base)[0] == 200)
    claim = content / "claims/alpha-fast.yaml"
    claim.write_text(claim.read_text().replace("Alpha is fast.", "Alpha, watched again."))
    wait_for(lambda: "Alpha, watched again." in fetch(base + "claims/alpha-fast/")[1])
    assert process.poll() is None


@pytest.mark.slow
def test_saves_in_place_never_flash_the_error_page(server: Served) -> None:
    """Forty saves as many editors write them (truncate, then write) while a reader keeps
    asking for the page: every answer is the page."""
    base, root, _ = server
    claim, page = root / "content/claims/alpha-fast.yaml", base + "claims/alpha-fast/"
    good, statuses, stop = claim.read_text(), [], threading.Event()

    def keep_reading() -> None:
        while not stop.is_set():
            statuses.append(fetch(page)[0])

    reader = threading.Thread(target=keep_reading)
    reader.start()
    try:
        for n in range(40):
            with claim.open("w") as save:  # truncated here
                save.flush()
                time.sleep(0.02)
                save.write(good.replace("Alpha is fast.", f"Alpha, save {n}."))
            time.sleep(0.05)
        wait_for(lambda: "Alpha, save 39." in fetch(page)[1])
    finally:
        stop.set()
        reader.join()
    assert len(statuses) > 20 and set(statuses) == {200}


@pytest.mark.slow
def test_serve_answers_head_long_names_and_data_files_as_they_are(server: Served) -> None:
    base, root, _ = server
    response = raw_request(base, b"HEAD / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    head, _, body = response.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200") and body == b""
    length = int(re.search(rb"Content-Length: (\d+)", head)[1])  # type: ignore[index]
    assert length == len(fetch(base)[1].encode())
    assert fetch(base + "x" * 300 + "/")[0] == 404  # a name too long for the file system
    claim = root / "content/claims/alpha-fast.yaml"
    claim.write_text(claim.read_text().replace("Alpha is fast.", "Alpha </head> is fast."))
    data = root / ".lowprec-cache/serve/data/map.json"
    wait_for(lambda: "</head>" in data.read_text())
    status, served = fetch(base + "data/map.json")
    assert status == 200 and served == data.read_text()  # no reload script in data
    json.loads(served)


@pytest.mark.slow
def test_each_save_can_explain_itself(make_project: MakeProject, tmp_path: Path) -> None:
    """With explain on, a save says which facts changed and why pages were redrawn."""
    project = make_project()
    dev = DevSite(project, tmp_path / "dev", explain=True)
    dev.rebuild()
    claim = project.content / "claims/alpha-fast.yaml"
    claim.write_text(claim.read_text().replace("Alpha is fast.", "Alpha is quick."))
    dev.rebuild()
    lines = dev.explanation
    assert lines[0] == "serve: changed: claim:alpha-fast.statement"
    claim_page = next(line for line in lines if line.startswith("  redrew /claims/alpha-fast/:"))
    assert claim_page.split(": ", 1)[1].startswith("its templates read ")
    assert "claim:alpha-fast.statement" in claim_page
    assert len([line for line in lines if line.startswith("  redrew ")]) == len(dev.drawn)
    assert re.fullmatch(r"  kept \d+ pages that read none of it", lines[-1])
    assert int(lines[-1].split()[1]) > 0


def test_serve_previews_from_its_own_folder(server: Served) -> None:
    """An offline site built into _site survives a preview and its rebuilds."""
    base, root, _ = server
    built = subprocess.run(
        [sys.executable, str(REPO / "build.py"), "--offline"],
        cwd=root,
        capture_output=True,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    offline = tree(root / "_site")
    claim = root / "content/claims/alpha-fast.yaml"
    claim.write_text(claim.read_text().replace("Alpha is fast.", "Alpha, previewed."))
    wait_for(lambda: "Alpha, previewed." in fetch(base + "claims/alpha-fast/")[1])
    assert tree(root / "_site") == offline
    assert (root / ".lowprec-cache/serve/claims/alpha-fast/index.html").is_file()


def test_serve_shows_a_draft_with_a_banner_and_keeps_it_out_of_the_data(
    make_project: MakeProject, tmp_path: Path
) -> None:
    project = make_project()
    assert main(["new", "claim", "in-progress", "--content", str(project.content)]) == 0
    dev = DevSite(project, tmp_path / "dev")
    dev.rebuild()
    assert dev.errors == []  # a draft is a warning, never the error page
    dev.write_exports()
    page = (tmp_path / "dev" / "claims" / "in-progress" / "index.html").read_text()
    assert 'class="draft-banner"' in page and "build</code> leaves it out" in page
    published = (tmp_path / "dev" / "claims" / "alpha-fast" / "index.html").read_text()
    assert "draft-banner" not in published
    for name in ("data/map.json", "data/claims.csv", "data/measurements.csv", "claims.bib"):
        assert "in-progress" not in (tmp_path / "dev" / name).read_text(), name
