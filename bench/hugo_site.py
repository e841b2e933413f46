"""A Hugo site made from the same synthetic content tree, so Hugo can be timed beside us.

`write_site(content, site)` reads the entries bench/synth.py wrote under `content`
and writes one Hugo content page per entry (dossiers, claims, tensions, failure
modes, programs, reading paths and pages) with the same prose as Markdown, plus a
minimal hand-written layout: no theme, no modules, nothing fetched. The entries'
program ids go into a `programs` taxonomy whose term pages are the programs'
own pages (content/programs/ID/_index.md: the program's text, then every entry
in it, as our program pages are). So Hugo renders one page per entry, one list
per section, the taxonomy's list, the home page, a 404 page, robots.txt, a
sitemap and one RSS feed (we write one feed.xml): about the set we write.

    python bench/hugo_site.py CONTENT SITE    # then: hugo --source SITE
"""

from __future__ import annotations

import argparse
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import synth
import yaml

Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
Entry = dict[str, Any]

TAXONOMY = synth.FOLDERS["program"]  # "programs": the entries' program ids are its terms
CONFIG: dict[str, object] = {
    "baseURL": "https://example.org/",
    "languageCode": "en",
    "enableRobotsTXT": True,
    "taxonomies": {"program": TAXONOMY},
    # Hugo writes an RSS feed for every list page by default; we write one feed.
    "outputs": {
        "home": ["HTML", "RSS"],
        "section": ["HTML"],
        "taxonomy": ["HTML"],
        "term": ["HTML"],
    },
}
BASEOF = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ .Title }} · {{ .Site.Title }}</title>
<link rel="stylesheet" href="/site.css">
</head>
<body>
<nav><a href="/">{{ .Site.Title }}</a>
{{ range .Site.Sections }} <a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}
 <a href="/programs/">Programs</a></nav>
<main>{{ block "main" . }}{{ end }}</main>
<footer>Updated {{ .Lastmod.Format "2006-01-02" }}</footer>
</body>
</html>
"""
SINGLE = """{{ define "main" }}<article>
<h1>{{ .Title }}</h1>
{{ with .Params.description }}<p class="lede">{{ . }}</p>{{ end }}
{{ with .GetTerms "programs" }}<p>Programs:{{ range . }}
 <a href="{{ .RelPermalink }}">{{ .LinkTitle }}</a>{{ end }}</p>{{ end }}
{{ .Content }}
</article>{{ end }}
"""
LIST = """{{ define "main" }}<h1>{{ .Title }}</h1>
{{ .Content }}
<ul>{{ range .Pages }}
<li><a href="{{ .RelPermalink }}">{{ .LinkTitle }}</a>{{ with .Summary }}: {{ . }}{{ end }}</li>
{{ end }}</ul>{{ end }}
"""
NOT_FOUND = """{{ define "main" }}<h1>Page not found</h1>
<p><a href="/">Back to the map</a></p>{{ end }}
"""
LAYOUTS = {
    "_default/baseof.html": BASEOF,
    "_default/single.html": SINGLE,
    "_default/list.html": LIST,
    "404.html": NOT_FOUND,
}


def _link(folder: str, entry_id: str) -> str:
    return f"[{entry_id}](/{folder}/{entry_id}/)"


def _dossier(data: Entry) -> tuple[str, list[str]]:
    authors = ", ".join(data.get("authors", []))
    body = [f"{authors} ({data['date']}). <{data['url']}>"]
    body += [data["summary"], f"**Result.** {data['result']}"]
    body.append(f"**Limitation.** {data['limitation']}")
    return data["title"], body


def _claim(data: Entry) -> tuple[str, list[str]]:
    sources = [f"- {_link('dossiers', s['dossier'])}, {s['locator']}" for s in data["sources"]]
    body = [data["statement"], f"**{data['label']}.** Scope: {data['scope']}"]
    body += [data[key] for key in ("note",) if key in data]
    body.append("\n".join(sources))
    conflicts = [_link("claims", c) for c in data.get("conflicts_with", [])]
    if conflicts:
        body.append("Conflicts with " + ", ".join(conflicts) + ".")
    return data["statement"], body


def _tension(data: Entry) -> tuple[str, list[str]]:
    sides = [f"- {_link('dossiers', s['dossier'])}: {s['position']}" for s in data["sides"]]
    claims = ", ".join(_link("claims", c) for c in data.get("claims", []))
    return data["title"], [data["summary"], "\n".join(sides), f"Claims: {claims}."]


def _failure_mode(data: Entry) -> tuple[str, list[str]]:
    steps = [f"{k}. **{s['title']}.** {s['detail']}" for k, s in enumerate(data["steps"], 1)]
    sources = [f"- {_link('dossiers', s['dossier'])}, {s['locator']}" for s in data["sources"]]
    return data["title"], [data["summary"], "\n".join(steps), "\n".join(sources)]


def _program(data: Entry) -> tuple[str, list[str]]:
    body = [data["question"], f"**Test.** {data['test']}"]
    return data["title"], [*body, f"**Prediction.** {data['prediction']}"]


def _path(data: Entry) -> tuple[str, list[str]]:
    steps = [
        f"{k}. {_link('dossiers', s['dossier'])}: {s['note']}"
        if "dossier" in s
        else f"{k}. {_link('claims', s['claim'])}"
        for k, s in enumerate(data["steps"], 1)
    ]
    return data["title"], [data["summary"], "\n".join(steps)]


WRITERS: dict[str, Callable[[Entry], tuple[str, list[str]]]] = {
    "dossier": _dossier,
    "claim": _claim,
    "tension": _tension,
    "failure_mode": _failure_mode,
    "program": _program,
    "path": _path,
}


def entries(content: Path) -> Iterator[tuple[str, str, Entry, str]]:
    """(folder, id, front matter, Markdown body) for every synthetic entry."""
    for kind, folder in synth.FOLDERS.items():
        for path in sorted((content / folder).iterdir()):
            text = path.read_text(encoding="utf-8")
            if kind == "page":
                _, front, body = text.split("---\n", 2)
                data = yaml.load(front, Loader=Loader)
                yield folder, path.stem, _front(data, data["title"]), body
                continue
            data = yaml.load(text, Loader=Loader)
            title, paragraphs = WRITERS[kind](data)
            yield folder, path.stem, _front(data, title), "\n\n".join(paragraphs) + "\n"


def _front(data: Entry, title: str) -> Entry:
    front: Entry = {"title": title, "date": data["added"], "lastmod": data["updated"]}
    if "description" in data:
        front["description"] = data["description"]
    if data.get("programs"):
        front["programs"] = list(data["programs"])
    return front


def write_site(content: Path, site: Path) -> int:
    """Write a Hugo site under `site` (replacing it) from the synthetic `content` tree;
    returns the number of entry pages written."""
    shutil.rmtree(site, ignore_errors=True)
    for name, text in LAYOUTS.items():
        (site / "layouts" / name).parent.mkdir(parents=True, exist_ok=True)
        (site / "layouts" / name).write_text(text, encoding="utf-8")
    (site / "static").mkdir()
    (site / "static" / "site.css").write_text("body { max-width: 40rem; }\n", encoding="utf-8")
    title = yaml.load((content / "site.yaml").read_text(encoding="utf-8"), Loader=Loader)
    config = {**CONFIG, "title": title.get("title", "Map")}
    (site / "config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    written = 0
    for folder, entry_id, front, body in entries(content):
        section = site / "content" / folder
        if not section.is_dir():
            section.mkdir(parents=True)
            heading = {"title": folder.replace("_", " ").capitalize()}
            (section / "_index.md").write_text(_page(heading, ""), encoding="utf-8")
        # A program is its taxonomy term's page; every other entry is a page of its section.
        target = section / f"{entry_id}.md"
        if folder == TAXONOMY:
            target = section / entry_id / "_index.md"
            target.parent.mkdir()
        target.write_text(_page(front, body), encoding="utf-8")
        written += 1
    return written


def _page(front: Entry, body: str) -> str:
    return f"---\n{yaml.safe_dump(front, sort_keys=False, allow_unicode=True)}---\n{body}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("content", type=Path, help="a content tree written by bench/synth.py")
    parser.add_argument("site", type=Path, help="the Hugo site folder to write (replaced)")
    args = parser.parse_args()
    print(f"wrote {write_site(args.content, args.site)} entry pages into {args.site}")


if __name__ == "__main__":
    main()
