"""Lighthouse (mobile) scores of the pages a reader meets first, for the README's figures.

    npm install --prefix bench/tools && python bench/lighthouse.py

Builds the real content, serves it on 127.0.0.1 and prints one row per page: the
four category scores. A figure, not a test: Lighthouse's performance score moves
with the machine's load.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LIGHTHOUSE = REPO / "bench" / "tools" / "node_modules" / ".bin" / "lighthouse"
PAGES = ("", "map/", "claims/", "compare/", "dossiers/qerl/")
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        """Print nothing per request."""


def main() -> None:
    """Build, serve, and print each page's Lighthouse scores."""
    if not LIGHTHOUSE.exists():
        sys.exit("lighthouse is missing: npm install --prefix bench/tools")
    sys.path.insert(0, str(REPO / "src"))
    from lowprec_map.cli import main as cli  # noqa: PLC0415 - after the path is set

    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        if cli(["build", "--content", str(REPO / "content"), "--out", str(site)]) != 0:
            sys.exit("the build failed")
        handler = functools.partial(_Quiet, directory=str(site))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        print(f"{'page':<18}" + "".join(f"{c:>16}" for c in CATEGORIES))
        for page in PAGES:
            report = Path(tmp) / "report.json"
            url = f"http://127.0.0.1:{server.server_address[1]}/{page}"
            env = {**os.environ, "CHROME_PATH": os.environ.get("CHROMIUM", "/usr/bin/chromium")}
            subprocess.run(
                [str(LIGHTHOUSE), url, "--quiet", "--form-factor=mobile", "--output=json",
                 f"--output-path={report}", "--chrome-flags=--headless=new --no-sandbox"],
                check=True, env=env, timeout=300,
            )  # fmt: skip
            scores = json.loads(report.read_text())["categories"]
            row = "".join(f"{round(scores[c]['score'] * 100):>16}" for c in CATEGORIES)
            print(f"{'/' + page:<18}{row}")
        server.shutdown()


if __name__ == "__main__":
    main()
