"""Shared setup for browser tests: a built site served on localhost and a headless Chromium."""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

# .ci/run sets this: in CI a missing browser or Java fails the run instead of skipping.
REQUIRED = os.environ.get("LOWPREC_REQUIRE_BROWSER") == "1"
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def require(available: bool, why: str) -> None:
    """Skip locally when a tool is missing; fail when CI requires it."""
    if not available:
        if REQUIRED:
            pytest.fail(f"{why} (required: LOWPREC_REQUIRE_BROWSER=1)")
        pytest.skip(why)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def serve() -> Iterator[functools.partial[str]]:
    """Serve folders on 127.0.0.1; returns url(site, path)."""
    servers: dict[Path, http.server.ThreadingHTTPServer] = {}

    def url(site: Path, path: str = "") -> str:
        if site not in servers:
            handler = functools.partial(_QuietHandler, directory=str(site))
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
            threading.Thread(target=server.serve_forever, daemon=True).start()
            servers[site] = server
        return f"http://127.0.0.1:{servers[site].server_address[1]}/{path}"

    yield functools.partial(url)
    for server in servers.values():
        server.shutdown()


# The current checkers, installed by the README's test command (`npm install` in tests/tools):
# what the tests pass is what today's axe-core and Nu Html Checker pass.
TOOLS = Path(__file__).parent / "tools" / "node_modules"
AXE_SCRIPT = TOOLS / "axe-core" / "axe.min.js"
VNU_JAR = TOOLS / "vnu-jar" / "build" / "dist" / "vnu.jar"
