"""An MkDocs project made from the same synthetic content tree, so MkDocs, the Python
peer, can be timed beside us: one page per entry with the same prose as Markdown
(bench/hugo_site.py's reading of the entries), MkDocs' default theme and no plugins
but its built-in search, which builds an index as ours does.

    python bench/mkdocs_site.py CONTENT SITE    # then: mkdocs build -q -f SITE/mkdocs.yml
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

import yaml
from hugo_site import Loader, entries


def write_site(content: Path, site: Path) -> int:
    """Write an MkDocs project under `site` (replacing it) from the synthetic `content`
    tree; returns the number of entry pages written."""
    shutil.rmtree(site, ignore_errors=True)
    docs = site / "docs"
    docs.mkdir(parents=True)
    title = yaml.load((content / "site.yaml").read_text(encoding="utf-8"), Loader=Loader)
    (docs / "index.md").write_text(f"# {title.get('title', 'Map')}\n", encoding="utf-8")
    written = 0
    for folder, entry_id, front, body in entries(content):
        page = docs / folder / f"{entry_id}.md"
        page.parent.mkdir(exist_ok=True)
        page.write_text(f"# {front['title']}\n\n{body}", encoding="utf-8")
        written += 1
    config = {"site_name": title.get("title", "Map"), "theme": "mkdocs", "plugins": ["search"]}
    (site / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("content", type=Path, help="a content tree written by bench/synth.py")
    parser.add_argument("site", type=Path, help="the MkDocs project folder to write (replaced)")
    args = parser.parse_args()
    print(f"wrote {write_site(args.content, args.site)} entry pages into {args.site}")


if __name__ == "__main__":
    main()
