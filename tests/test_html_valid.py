"""Every page passes the Nu Html Checker (vnu), run on a build of the real content."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from browser import VNU_JAR, require

# Browsers, servers or other programs: outside the inner loop (pytest -m 'not slow').
pytestmark = pytest.mark.slow


def test_every_page_is_valid_html(real_site: Path) -> None:
    java, jar = shutil.which("java"), VNU_JAR if VNU_JAR.is_file() else None
    require(java is not None, "java is not installed (Debian: default-jre-headless)")
    require(jar is not None, "the current vnu.jar is missing: run `npm install` in tests/tools")
    assert java is not None and jar is not None
    out = real_site
    pages = sorted(str(p) for p in out.rglob("*.html"))
    assert len(pages) > 20
    # One collector thread and the quick compiler only: half the CPU for one short run.
    speed = ["-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"]
    result = subprocess.run(
        [java, *speed, "-Xss2m", "-jar", str(jar), "--format", "json", "--also-check-svg", *pages],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    messages = json.loads(result.stderr or '{"messages": []}')["messages"]
    problems = [
        f"{str(m.get('url', '')).removeprefix('file:' + str(out))}:{m.get('lastLine')}: "
        f"{m['type']}: {m['message']}"
        for m in messages
        if (m["type"] in ("error", "non-document-error") or m.get("subType") == "warning")
        # The checker reads the pages as file: URLs, whose origin matches no 'self' in the
        # Content-Security-Policy; served, the same pages load their files (browser tests).
        and not m["message"].startswith("Resource violates Content Security Policy")
    ]
    assert problems == []
