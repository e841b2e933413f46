"""BibTeX: references.bib holds the works, claims.bib the map's own claims.

Each work is entered as what it is, so a reference manager imports it as such:
a journal article `@article`, a conference or workshop paper `@inproceedings`, a
preprint `@misc` with its arXiv eprint, and a blog post, a docs page, a pull
request or an issue `@misc` with `howpublished` saying which.
"""

from __future__ import annotations

import re

from lowprec_map.content.entry import Entry
from lowprec_map.content.graph import MapGraph
from lowprec_map.schema.claims import Claim
from lowprec_map.schema.entries import Dossier
from lowprec_map.schema.frame import Site
from lowprec_map.site.urls import entry_url

# A venue naming one of these is a journal: the paper is an @article.
_JOURNAL = re.compile(r"\b(Transactions|Journal|Letters)\b")
_GITHUB_THREAD = re.compile(r"^https://github\.com/[^/]+/[^/]+/(pull|issues)/\d+")


def references_bib(graph: MapGraph) -> bytes:
    """references.bib: one entry per published work, of the type the work is."""
    return "\n".join(dossier_bibtex(e) for e in graph.entries("dossier") if not e.draft).encode()


def claims_bib(graph: MapGraph, base_url: str) -> bytes:
    """claims.bib: one @misc per published claim of the map, with its stable URL."""
    site = graph.site
    chunks = [claim_bibtex(e, site, base_url) for e in graph.entries("claim") if not e.draft]
    return "\n".join(chunks).encode()


def dossier_bibtex(entry: Entry) -> str:
    """A dossier's BibTeX entry, of the type the work is; the key is its id."""
    d = entry.model
    assert isinstance(d, Dossier)
    entry_type, where = _work_type(d)
    fields = [
        ("title", "{" + _tex(d.title) + "}"),
        ("author", " and ".join(_bibtex_name(a) for a in d.authors)),
        ("year", str(d.date.year)),
        ("month", d.date.strftime("%b").lower()),
        *where,
        ("url", d.url),
    ]
    if d.arxiv:
        fields += [("eprint", d.arxiv), ("archivePrefix", "arXiv")]
    return _entry(entry_type, entry.id, fields)


def _work_type(d: Dossier) -> tuple[str, list[tuple[str, str]]]:
    """The BibTeX type of a work, and the fields that say where it appeared."""
    if d.kind == "paper" and d.venue:
        if _JOURNAL.search(d.venue):
            return "article", [("journal", _tex(d.venue))]
        return "inproceedings", [("booktitle", _tex(d.venue))]
    thread = _GITHUB_THREAD.match(d.url)
    if thread is not None:
        what = "GitHub pull request" if thread[1] == "pull" else "GitHub issue"
    elif d.kind == "blog":
        what = "Blog post"
    elif d.kind == "docs":
        what = "Documentation"
    elif d.arxiv:
        what = "arXiv preprint" if d.kind == "paper" else "Technical report, arXiv"
    else:
        what = "Technical report" if d.kind == "report" else "Preprint"
    fields = [("howpublished", what)]
    if d.venue:
        fields.append(("note", _tex(d.venue)))
    return "misc", fields


def claim_bibtex(entry: Entry, site: Site, base_url: str) -> str:
    """A claim's own citation: @misc with a stable URL under `base_url`."""
    c = entry.model
    assert isinstance(c, Claim)
    fields = [
        ("title", "{" + _tex(c.statement) + "}"),
        ("author", "{" + _tex(site.title) + " contributors}"),
        ("year", str(c.updated.year)),
        ("url", base_url + entry_url(entry)),
        ("howpublished", "Claim in a living research map"),
        (
            "note",
            f"Claim in {_tex(site.title)}; "
            f"evidence label: {c.label}; updated {c.updated.isoformat()}",
        ),
    ]
    return _entry("misc", f"claim-{entry.id}", fields)


def _entry(entry_type: str, key: str, fields: list[tuple[str, str]]) -> str:
    body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
    return f"@{entry_type}{{{key},\n{body}\n}}\n"


_TEX_SPECIALS = re.compile(r"[\\&%$#_{}~^]")
# BibTeX counts every brace, escaped or not, when it finds a field's end: a brace in a
# value is written as math's brace command, so the braces of every field stay balanced.
_TEX_ESCAPES = {
    "\\": r"\textbackslash{}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "{": r"$\lbrace$",
    "}": r"$\rbrace$",
}


def _tex(text: str) -> str:
    """Escape every TeX special (backslash included) in one pass, so no escape is escaped
    again; keep Unicode (biber and modern BibTeX read UTF-8)."""
    return _TEX_SPECIALS.sub(lambda m: _TEX_ESCAPES.get(m[0], "\\" + m[0]), text)


_NAME_SEPARATOR = re.compile(r"\sand\s", re.IGNORECASE)


def _bibtex_name(name: str) -> str:
    """One author for an `author` field: BibTeX splits the field at every ' and ', so a
    name holding one (a team's, say) is braced whole."""
    tex = _tex(name)
    return "{" + tex + "}" if _NAME_SEPARATOR.search(tex) else tex
