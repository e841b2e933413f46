"""Every export parsed back: JSON against its schema, CSV, GraphML, BibTeX, Atom, sitemap."""

from __future__ import annotations

import csv
import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import bibtexparser
import jsonschema
import networkx as nx
import pytest
from conftest import REPO

from lowprec_map.content.graph import MapGraph
from lowprec_map.pipeline import export_files
from lowprec_map.schema.claims import Claim
from lowprec_map.schema.entries import Dossier
from lowprec_map.site_files import SITE_FILES

ATOM = "{http://www.w3.org/2005/Atom}"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"


@pytest.fixture
def site(real_site: Path) -> Path:
    return real_site


@pytest.fixture
def graph(real_graph: MapGraph) -> MapGraph:
    return real_graph


def test_map_json_validates_against_its_published_schema(site: Path, graph: MapGraph) -> None:
    data = json.loads((site / "data/map.json").read_text())
    schema = json.loads((site / "data/map.schema.json").read_text())
    jsonschema.validate(data, schema)
    assert schema == json.loads((REPO / "schemas/map-data.json").read_text())
    assert data["version"] == "1.0"
    keys = {e["key"] for e in data["entries"]}
    assert keys == {e.key for e in graph.all_entries() if e.type != "site"}
    claim = next(e for e in data["entries"] if e["type"] == "claim")
    assert {r["target"] for r in claim["references"]} == {
        t for s, t, _ in graph.edges() if s == claim["key"]
    }


def test_claims_csv_has_one_row_per_claim(site: Path, graph: MapGraph) -> None:
    rows = list(csv.DictReader(io.StringIO((site / "data/claims.csv").read_text())))
    assert [r["id"] for r in rows] == [c.id for c in graph.entries("claim")]
    for row, entry in zip(rows, graph.entries("claim"), strict=True):
        assert isinstance(entry.model, Claim)
        assert row["statement"] == entry.model.statement
        assert row["label"] == entry.model.label
        for source in entry.model.sources:
            assert (
                f"{source.dossier} ({source.locator}; {source.stance}, {source.basis})"
                in row["sources"]
            )


def test_graphml_has_the_same_nodes_and_edges(site: Path, graph: MapGraph) -> None:
    loaded = nx.read_graphml(site / "data/graph.graphml", force_multigraph=True)
    assert set(loaded.nodes) == set(graph.graph.nodes)
    edges = {(s, t, d["relation"]) for s, t, d in loaded.edges(data=True)}
    assert edges == set(graph.edges())
    assert loaded.nodes["dossier:qerl"]["title"] == "QeRL"


def test_bibtex_parses_with_every_dossier_and_unique_keys(site: Path, graph: MapGraph) -> None:
    library = bibtexparser.parse_string((site / "references.bib").read_text())  # type: ignore[attr-defined]
    assert library.failed_blocks == []
    keys = [entry.key for entry in library.entries]
    assert len(keys) == len(set(keys))
    assert set(keys) == {d.id for d in graph.entries("dossier")}  # the works, and only they
    types = {entry.key: entry.entry_type for entry in library.entries}
    qerl = next(e for e in library.entries if e.key == "qerl")
    assert qerl["eprint"] == "2510.11696" and qerl["archivePrefix"] == "arXiv"
    assert qerl["author"].startswith("Wei Huang and Yi Ge")
    for dossier in graph.entries("dossier"):
        d = dossier.model
        assert isinstance(d, Dossier)
        found = next(e for e in library.entries if e.key == dossier.id)
        if d.kind == "paper" and d.venue:
            assert types[dossier.id] in ("article", "inproceedings"), dossier.id
        else:  # a preprint, a blog post, a docs page, a PR: @misc saying which
            assert types[dossier.id] == "misc" and found["howpublished"], dossier.id
    assert types["quarl"] == "article"  # TMLR: a journal
    assert {types[k] for k in ("tis", "verl-nvfp4-qat")} == {"misc"}
    claims = bibtexparser.parse_string((site / "claims.bib").read_text())  # type: ignore[attr-defined]
    assert claims.failed_blocks == []
    assert {e.key for e in claims.entries} == {f"claim-{c.id}" for c in graph.entries("claim")}


def test_sources_csv_has_one_row_per_claim_source(site: Path, graph: MapGraph) -> None:
    with (site / "data/sources.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    expected = [
        (c.id, s.dossier, s.locator, s.stance, s.basis)
        for c in graph.entries("claim")
        for s in c.model.sources  # type: ignore[attr-defined]
    ]
    assert [
        (r["claim"], r["dossier"], r["locator"], r["stance"], r["basis"]) for r in rows
    ] == expected
    assert {r["support"] for r in rows} <= {
        "figure read",
        "stated only",
        "reported only",
        "argued only",
        "no support",
    }
    assert {r["locator_kind"] for r in rows} >= {"abstract", "table", "figure"}


def test_feed_and_sitemap_are_well_formed_xml(site: Path, graph: MapGraph) -> None:
    feed = ET.parse(site / "feed.xml").getroot()
    assert feed.tag == f"{ATOM}feed"
    entries = feed.findall(f"{ATOM}entry")
    assert 0 < len(entries) <= 50
    updated = [e.findtext(f"{ATOM}updated", "") for e in entries]
    assert updated == sorted(updated, reverse=True)
    assert all(e.findtext(f"{ATOM}id", "").startswith(graph.site.base_url) for e in entries)
    sitemap = ET.parse(site / "sitemap.xml").getroot()
    locs = [u.findtext(f"{SITEMAP}loc") for u in sitemap.findall(f"{SITEMAP}url")]
    pages = [p for p in site.rglob("*.html") if p.name != "404.html"]
    assert len(locs) == len(pages)
    assert all(loc and loc.startswith(graph.site.base_url) for loc in locs)
    assert (
        (site / "robots.txt").read_text().endswith(f"Sitemap: {graph.site.base_url}sitemap.xml\n")
    )


def test_the_site_table_lists_exactly_the_files_the_build_writes(
    site: Path, graph: MapGraph
) -> None:
    """Every file of the site table exists, the exports are exactly the table's, and
    every data file is linked from /about/ (measurements from /compare/, claims from
    /claims/)."""
    for own in SITE_FILES:
        assert (
            site / (own.url + "index.html" if own.url.endswith("/") or not own.url else own.url)
        ).is_file(), own.url
    exported = {f.url for f in SITE_FILES if f.export}
    assert set(export_files(graph, graph.site.base_url)) == exported
    about = (site / "about/index.html").read_text()
    for data in (f for f in SITE_FILES if f.kind == "data"):
        assert f'href="../{data.url}"' in about, data.url
    assert 'href="../data/measurements.csv"' in (site / "compare/index.html").read_text()
    assert 'href="../data/claims.csv"' in (site / "claims/index.html").read_text()
