"""The rendered site, parsed (not grepped): structure, counts, links, safety."""

from __future__ import annotations

import gzip
import json
import posixpath
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml
from bs4 import BeautifulSoup, Tag
from conftest import MakeProject
from page_facts import PageFacts, facts_of

from lowprec_map.content.check import check
from lowprec_map.content.evidence import support_kind
from lowprec_map.content.graph import MapGraph
from lowprec_map.content.people import People
from lowprec_map.pipeline import build
from lowprec_map.schema.entries import Dossier
from lowprec_map.site.views import measurement_domain, measurement_rows


@pytest.fixture
def mini_site(make_project: MakeProject, tmp_path: Path) -> Path:
    out = tmp_path / "_site"
    build(make_project(), out)
    return out


def soup(site: Path, page: str) -> BeautifulSoup:
    return BeautifulSoup((site / page).read_text(encoding="utf-8"), "html.parser")


def hero_counts(page: BeautifulSoup) -> dict[str, int]:
    counts = page.select_one("section.hero dl.counts")
    assert isinstance(counts, Tag)
    return {div.dt.get_text(): int(div.dd.get_text()) for div in counts.find_all("div")}  # type: ignore[union-attr]


def test_hero_counts_equal_the_content(real_site: Path, real_graph: MapGraph) -> None:
    counts = real_graph.counts()
    assert hero_counts(soup(real_site, "index.html")) == {
        "works on the map": counts["dossier"],
        "core works": counts["core"],
        "indexed claims": counts["claim"],
        "evidence labels": counts["evidence"],
        "research programs": counts["program"],
    }


def test_counts_follow_the_content_not_the_template(
    make_project: MakeProject, tmp_path: Path
) -> None:
    project = make_project(
        {
            "claims/extra.yaml": "statement: E.\nlabel: measured\nsources:\n  - {dossier: beta, locator: Fig. 1, stance: supports, basis: measured}\n"
        }
    )
    build(project, tmp_path / "s")
    assert hero_counts(soup(tmp_path / "s", "index.html"))["indexed claims"] == 4


def test_landing_has_nine_numbered_sections_in_order(mini_site: Path) -> None:
    page = soup(mini_site, "index.html")
    kickers = [
        k.get_text(" ", strip=True) for k in page.select("main > section.band > h2 > .kicker")
    ]
    assert kickers == [
        "01 / The thesis",
        "02 / The feedback loop",
        "03 / Productive tensions",
        "04 / Operational taxonomy",
        "05 / Paper dossiers",
        "06 / Claim ledger",
        "07 / A failure loop",
        "08 / Research programs",
        "09 / Reading paths",
    ]
    links = [a.get_text(strip=True) for a in page.select("main a")]
    assert "Read the full source-level ledger, sources and conflicts side by side →" in links
    assert "See all 1 failure modes →" in links


def test_every_entry_has_a_page_with_backlinks(mini_site: Path) -> None:
    for page in [
        "dossiers/alpha/",
        "dossiers/beta/",
        "claims/alpha-fast/",
        "claims/beta-slow/",
        "tensions/alpha-vs-beta/",
        "failure-modes/collapse/",
        "programs/prog/",
        "paths/start/",
        "foundations/",
        "claims/label/contested/",
    ]:
        assert (mini_site / page / "index.html").is_file(), page
    alpha = soup(mini_site, "dossiers/alpha/index.html")
    section = alpha.find("section", class_="backlinks")
    assert isinstance(section, Tag)
    items = [li.get_text(" ", strip=True) for li in section.find_all("li")]
    assert items == [
        "claim Alpha is fast.",
        "claim Both agree on something.",
        "dossier Beta",
        "failure mode Collapse",
        "reading path Where to start",
        "tension Fast or slow?",
    ]


def test_label_facet_page_lists_exactly_that_label(mini_site: Path) -> None:
    page = soup(mini_site, "claims/label/contested/index.html")
    labels = [a["data-label"] for a in page.select("article.claim")]
    assert labels == ["contested", "contested"]
    current = page.select_one('[aria-current="page"]')
    assert current is not None and current.get_text(" ", strip=True) == "Contested 2"


def test_markdown_is_inert_and_math_is_mathml(mini_site: Path) -> None:
    page = soup(mini_site, "foundations/index.html")
    body = page.select_one("article.prose")
    assert isinstance(body, Tag)
    assert body.find("script") is None
    assert "<script>alert(1)</script>" in body.get_text()
    hrefs = [a["href"] for a in body.find_all("a")]
    assert hrefs == ["https://example.org/"]
    assert body.find("math") is not None


def test_every_internal_link_and_anchor_resolves(
    real_site: Path, real_facts: dict[str, PageFacts], mini_site: Path
) -> None:
    assert _broken_links(real_site, real_facts) == []
    assert _broken_links(mini_site, facts_of(mini_site)) == []


def test_offline_links_name_files_and_reach_every_page(offline_site: Path) -> None:
    """Opened from a folder, a link to 'x/' shows a file listing: every link names a file."""
    found = facts_of(offline_site)
    assert _broken_links(offline_site, found, offline=True) == []
    reached, queue = {"index.html"}, ["index.html"]
    while queue:
        here = queue.pop()
        for href in found[here].hrefs:
            path = _joined(here, href.split("#")[0].split("?")[0])
            if not urlsplit(href).scheme and path in found and path not in reached:
                reached.add(path)
                queue.append(path)
    assert set(found) - reached <= {"404.html"}


def test_nothing_loads_from_another_host(real_facts: dict[str, PageFacts]) -> None:
    loads = {(name, url) for name, facts in real_facts.items() for url in facts.loads}
    assert any(url.startswith("static/") or "/static/" in url for _, url in loads)
    assert {(name, url) for name, url in loads if urlsplit(url).netloc} == set()


def test_map_json_holds_every_entry_and_edge(mini_site: Path, make_project: MakeProject) -> None:
    data = json.loads((mini_site / "data/map.json").read_text())
    graph = check(mini_site.parent / "content").graph
    assert data["version"] == "1.0"
    assert len(data["entries"]) == graph.graph.number_of_nodes() - 1  # all but the site
    assert {(e["source"], e["target"], e["relation"]) for e in data["edges"]} == set(graph.edges())


def _broken_links(site: Path, found: dict[str, PageFacts], offline: bool = False) -> list[str]:
    """Internal links whose file or anchor does not exist (with `offline`, also any that
    names a folder)."""
    ids = {name: links.ids for name, links in found.items()}
    broken = []
    for here, links in found.items():
        if here == "404.html":
            continue  # served at arbitrary depths; checked by its own test
        for href in links.hrefs:
            if urlsplit(href).scheme in ("http", "https", "mailto"):
                continue
            target, _, anchor = href.partition("#")
            target = target.split("?")[0]
            names_folder = target.endswith("/") or (site / _joined(here, target)).is_dir()
            if (offline and target and names_folder) or not _resolves(
                site, ids, here, target, anchor
            ):
                broken.append(f"{here}: {href}")
    return broken


def _joined(here: str, target: str) -> str:
    return posixpath.normpath(posixpath.join(posixpath.dirname(here), target)) if target else here


def _resolves(site: Path, ids: dict[str, set[str]], here: str, target: str, anchor: str) -> bool:
    path = _joined(here, target)
    if target.endswith("/") and not (site / path).is_dir():
        return False  # 'x/' must name a folder, not a file
    if (site / path).is_dir():
        path = posixpath.join(path, "index.html")
    if not (site / path).is_file():
        return False
    return not anchor or anchor in ids.get(path, set())


def test_map_trims_to_the_node_limit_and_says_what_it_left_out(
    make_project: MakeProject, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from lowprec_map.registry import REGISTRY  # noqa: PLC0415
    from lowprec_map.site import layout  # noqa: PLC0415
    from lowprec_map.site.layout import Omission  # noqa: PLC0415

    project = make_project()
    graph = check(project.content).graph
    full = layout.layout_map(graph)
    assert {n.entry.type for n in full.nodes} >= {"claim", "dossier"} and full.omitted == []
    counts = {t: len(graph.entries(t)) for t in REGISTRY.map_columns}
    without_claims = sum(counts.values()) - counts["claim"]
    monkeypatch.setattr(layout, "NODE_LIMIT", without_claims)
    small = layout.layout_map(graph)
    assert "claim" not in {n.entry.type for n in small.nodes}
    assert small.omitted == [Omission("claim", 0, counts["claim"])]
    assert len(small.nodes) == without_claims

    # Tighter still: the fixture has 2 dossiers and 1 of each other type, so with
    # 3 places the dossier column keeps its most connected dossier (alpha).
    monkeypatch.setattr(layout, "NODE_LIMIT", 3)
    tiny = layout.layout_map(graph)
    assert len(tiny.nodes) <= 3
    shown = {n.entry.key for n in tiny.nodes}
    assert "dossier:alpha" in shown and "dossier:beta" not in shown
    assert Omission("dossier", 1, 2) in tiny.omitted
    assert Omission("program", 0, 1) in tiny.omitted

    build(project, tmp_path / "site")  # NODE_LIMIT is still 3
    page = BeautifulSoup((tmp_path / "site/map/index.html").read_text(), "html.parser")
    notes = [p.get_text(" ", strip=True) for p in page.select("p.status")]
    assert (
        "Of 2 dossiers the map shows the 1 most connected, to stay readable; all 2 are listed here ."
        in notes
    )
    assert any(n.startswith("With 1 research programs the map would be unreadable") for n in notes)


def test_prose_links_render_as_relative_links(make_project: MakeProject, tmp_path: Path) -> None:
    page = "---\ntitle: P\ndescription: D.\n---\nSee [Beta](dossier:beta) and [the path](path:start).\n"
    out = tmp_path / "s"
    build(make_project({"pages/p.md": page}), out)
    body = soup(out, "p/index.html").select_one("article.prose")
    assert body is not None
    assert [a["href"] for a in body.find_all("a")] == ["../dossiers/beta/", "../paths/start/"]


def test_no_page_skips_a_heading_level(real_facts: dict[str, PageFacts]) -> None:
    """Screen-reader users move by headings: h1, then h2, never h1 straight to h3."""
    skips = []
    for name, facts in real_facts.items():
        previous = 0
        for level, text in facts.headings:
            if level > previous + 1:
                skips.append(f"{name}: h{previous} -> h{level} ({text[:40]})")
                break
            previous = level
    assert skips == []


def test_a_dossier_heading_does_not_repeat_its_short_name(
    real_pages: dict[str, BeautifulSoup], real_graph: MapGraph
) -> None:
    for dossier in real_graph.entries("dossier"):
        assert isinstance(dossier.model, Dossier)
        h1 = real_pages[f"dossiers/{dossier.id}/index.html"].select_one("h1")
        assert h1 is not None
        text, short = h1.get_text(strip=True), dossier.model.short_name
        assert dossier.model.title in text
        assert not text.startswith(f"{short}: {short}"), text


def test_assets_stay_within_their_budget() -> None:
    """Hand-written, framework-free: the script under 30 KB and the stylesheet under 40 KB."""
    static = Path(__file__).parent.parent / "static"
    assert (static / "site.js").stat().st_size <= 30_000
    assert (static / "style.css").stat().st_size <= 40_000


# Each page, compressed as a static host sends it: about two seconds on a slow phone
# connection, which keeps Lighthouse's performance score at 95 or more.
PAGE_BUDGET_GZIP = 160_000


def test_every_page_stays_within_its_weight_budget(real_site: Path) -> None:
    """The real map's heaviest pages (the map, the search index, the ledger) included."""
    heavy = {
        str(page.relative_to(real_site)): size
        for page in real_site.rglob("*.html")
        if (size := len(gzip.compress(page.read_bytes(), 6))) > PAGE_BUDGET_GZIP
    }
    assert heavy == {}


def test_labels_and_metrics_keep_the_order_of_their_file(
    real_pages: dict[str, BeautifulSoup],
) -> None:
    """evidence.yaml and taxonomy.yaml give the display order, not the ids' alphabet."""
    content = Path(__file__).parent.parent / "content"
    labels = [
        item["id"] for item in yaml.safe_load((content / "evidence.yaml").read_text())["labels"]
    ]
    shown = [
        a["data-label-filter"]
        for a in real_pages["claims/index.html"].select("a[data-label-filter]")
    ]
    assert shown == ["", *labels]
    metrics = [m["id"] for m in yaml.safe_load((content / "taxonomy.yaml").read_text())["metrics"]]
    charted = [
        str(s["id"]).removeprefix("metric-")
        for s in real_pages["compare/index.html"].select("section.metric")
    ]
    assert charted == [m for m in metrics if m in charted]


def test_about_counts_who_did_the_work(real_site: Path, real_graph: MapGraph) -> None:
    """The people and groups /about/ states are those the label rules count, and every
    label on a claim page says what its support rests on."""
    people = People(real_graph)
    persons = {p for d in real_graph.entries("dossier") for p in people.who(d).people}
    about = BeautifulSoup((real_site / "about/index.html").read_text(), "html.parser")
    panel = about.find(id="people-h")
    assert isinstance(panel, Tag) and panel.parent is not None
    text = " ".join(panel.parent.get_text().split())
    groups = len(real_graph.entries("research_group"))
    assert f"The map knows {len(persons)} people" in text
    assert f"and {groups} labs and teams" in text
    for claim in real_graph.entries("claim")[:40]:
        page = BeautifulSoup(
            (real_site / f"claims/{claim.id}/index.html").read_text(), "html.parser"
        )
        kicker = page.select_one("p.kicker .support")
        assert kicker is not None and kicker.get_text() == support_kind(claim.model)  # type: ignore[arg-type]


def test_compare_shows_one_domain_like_for_like_and_the_others_a_click_away(
    real_site: Path, real_graph: MapGraph
) -> None:
    def claims_marked(page: str) -> set[str]:
        html = BeautifulSoup((real_site / page).read_text(), "html.parser")
        return {a["href"].rstrip("/").rsplit("/", 1)[-1] for a in html.select("a.mark")}  # type: ignore[union-attr]

    domains: dict[str, set[str]] = {}
    for row in measurement_rows(real_graph.entries("claim")):
        m = row.measurement
        domain = measurement_domain(m, real_graph.get("dossier", m.source))
        domains.setdefault(domain, set()).add(row.claim.id)
    assert claims_marked("compare/index.html") == domains["llm-rl"]  # the first domain
    assert claims_marked("compare/diffusion-rl/index.html") == domains["diffusion-rl"]
    assert claims_marked("compare/all/index.html") == set().union(*domains.values())
    nav = BeautifulSoup((real_site / "compare/index.html").read_text(), "html.parser")
    current = nav.select('nav.domain-views a[aria-current="page"]')
    assert [a.get_text(" ", strip=True).split(" ")[0] for a in current] == ["LLM"]
