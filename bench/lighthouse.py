"""Lighthouse (mobile) scores of one page of every type, for the README's figures.

    npm install --prefix bench/tools && python bench/lighthouse.py

Builds the real content, serves it on 127.0.0.1 compressed as a static host
serves it (gzip), and prints one row per page: the four category scores, the
blocking time and the bytes sent. /map/ runs three times. A figure, not a test:
Lighthouse's performance score moves with the machine's load.
"""

from __future__ import annotations

import functools
import gzip
import http.server
import io
import json
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LIGHTHOUSE = REPO / "bench" / "tools" / "node_modules" / ".bin" / "lighthouse"
PAGES = (
    "", "map/", "map/", "map/", "claims/", "claims/label/measured/",
    "claims/fp16-removes-mismatch/", "compare/", "compare/all/", "dossiers/",
    "dossiers/qerl/", "tensions/", "tensions/truncate-vs-mask-ratios/", "failure-modes/",
    "programs/", "programs/ratio-semantics/", "paths/", "paths/build-a-research-project/",
    "foundations/", "about/", "search/", "changes/",
)  # fmt: skip
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")


class _Gzip(http.server.SimpleHTTPRequestHandler):
    """A static host: each file gzip-compressed when the browser accepts it."""

    def log_message(self, format: str, *args: object) -> None:
        """Print nothing per request."""

    def send_head(self):  # type: ignore[no-untyped-def]
        path = Path(self.translate_path(self.path))
        path = path / "index.html" if path.is_dir() else path
        if not path.is_file() or "gzip" not in self.headers.get("Accept-Encoding", ""):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), 6)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


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
        handler = functools.partial(_Gzip, directory=str(site))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        heads = "".join(f"{c:>16}" for c in CATEGORIES)
        print(f"{'page':<36}{heads}{'blocking':>10}{'sent':>10}")
        for page in PAGES:
            report = Path(tmp) / "report.json"
            url = f"http://127.0.0.1:{server.server_address[1]}/{page}"
            env = {**os.environ, "CHROME_PATH": os.environ.get("CHROMIUM", "/usr/bin/chromium")}
            subprocess.run(
                [str(LIGHTHOUSE), url, "--quiet", "--form-factor=mobile", "--output=json",
                 f"--output-path={report}", "--chrome-flags=--headless=new --no-sandbox"],
                check=True, env=env, timeout=300,
            )  # fmt: skip
            result = json.loads(report.read_text())
            scores, audits = result["categories"], result["audits"]
            row = "".join(f"{round(scores[c]['score'] * 100):>16}" for c in CATEGORIES)
            blocking = f"{audits['total-blocking-time']['numericValue']:.0f} ms"
            sent = f"{audits['total-byte-weight']['numericValue'] / 1024:.0f} KiB"
            print(f"{'/' + page:<36}{row}{blocking:>10}{sent:>10}")
        server.shutdown()


if __name__ == "__main__":
    main()
