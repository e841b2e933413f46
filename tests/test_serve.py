"""The dev server over real HTTP: serves, rebuilds on save, shows errors, survives, recovers."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import MINIMAL, REPO


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


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Path, subprocess.Popen[str]]]:
    """A scratch project served by `python build.py serve` on a free port."""
    shutil.copytree(MINIMAL, tmp_path / "content")
    shutil.copytree(REPO / "templates", tmp_path / "templates")
    shutil.copytree(REPO / "static", tmp_path / "static")
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, str(REPO / "build.py"), "serve", "--port", str(port)],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}/"
    try:
        wait_for(lambda: fetch(base)[0] == 200)
        yield base, tmp_path, process
    finally:
        process.terminate()
        process.wait(timeout=10)


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


def test_serve_binds_to_localhost_by_default(
    server: tuple[str, Path, subprocess.Popen[str]],
) -> None:
    base, _, process = server
    port = int(base.rsplit(":", 1)[1].strip("/"))
    if not Path("/proc/net/tcp").exists():
        pytest.skip("needs Linux /proc/net to list listening sockets")
    # 0100007F is 127.0.0.1 in /proc's little-endian hex; 00000000 would be 0.0.0.0.
    assert listening_addresses(port) == {"0100007F"}
    assert process.poll() is None
