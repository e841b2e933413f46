"""The site in a real headless Chromium: filters, URL state, search, keyboard, axe-core."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from browser import AXE_SCRIPT, CHROMIUM, CHROMIUM_ARGS, require, serve
from playwright.sync_api import Browser, Page, sync_playwright

from lowprec_map.content.entry import Entry
from lowprec_map.content.evidence import support_kind
from lowprec_map.content.graph import MapGraph
from lowprec_map.schema.claims import Claim
from lowprec_map.schema.entries import Dossier, Program
from lowprec_map.schema.frame import EvidenceLabel
from lowprec_map.site import pages
from lowprec_map.site.urls import entry_url
from lowprec_map.site.views import measurement_domain, measurement_rows

# Browsers, servers or other programs: outside the inner loop (pytest -m 'not slow').
pytestmark = pytest.mark.slow


__all__ = ["serve"]  # the fixture, imported so pytest finds it


@pytest.fixture
def site(real_site: Path) -> Path:
    return real_site


@pytest.fixture
def graph(real_graph: MapGraph) -> MapGraph:
    return real_graph


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    require(os.path.exists(CHROMIUM), f"Chromium not found at {CHROMIUM}")
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def problems() -> list[str]:
    """Console errors, page errors and requests to other hosts seen by `page`."""
    return []


@pytest.fixture(scope="module")
def shared_page(browser: Browser) -> Iterator[tuple[Page, list[list[str]]]]:
    """One page for the module's tests (opening a page costs a third of a second), and the
    list its listeners report to, which `page` points at each test's `problems`."""
    context = browser.new_context()
    page = context.new_page()
    sink: list[list[str]] = [[]]
    page.on("console", lambda m: sink[0].append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: sink[0].append(str(e)))
    page.on(
        "request",
        lambda r: None if r.url.startswith("http://127.0.0.1") else sink[0].append(r.url),
    )
    yield page, sink
    context.close()


@pytest.fixture
def page(shared_page: tuple[Page, list[list[str]]], problems: list[str]) -> Page:
    """The module's page, recording what `problems` collects for this test."""
    page, sink = shared_page
    sink[0] = problems
    page.goto("about:blank")
    return page


Url = Callable[..., str]


def visible(page: Page, selector: str, attribute: str) -> set[str]:
    script = (
        f"els => els.filter(e => e.offsetParent !== null).map(e => e.getAttribute('{attribute}'))"
    )
    return set(page.eval_on_selector_all(selector, script))


def test_program_filter_shows_exactly_its_dossiers_and_lives_in_the_url(
    problems: list[str], page: Page, site: Path, graph: MapGraph, serve: Url
) -> None:
    def core(dossiers: list[Entry]) -> set[str]:  # the landing page previews core dossiers
        return {d.id for d in dossiers if isinstance(d.model, Dossier) and d.model.core}

    program = next(p for p in graph.entries("program") if core(graph.program_members(p, "dossier")))
    expected = core(graph.program_members(program, "dossier"))
    assert isinstance(program.model, Program)
    page.goto(serve(site))
    page.click(f"a[data-program='{program.id}']")
    assert page.url.endswith(f"?program={program.id}")
    assert visible(page, "#dossiers article.dossier", "data-id") == expected
    status = page.text_content("#program-status")
    assert status == f"Showing research program: {program.model.title} ({len(expected)} dossiers)"
    assert page.get_attribute(f"a[data-program='{program.id}']", "aria-pressed") == "true"
    # Loading the URL restores the filter; going back restores everything.
    page.goto(serve(site, f"?program={program.id}"))
    assert visible(page, "#dossiers article.dossier", "data-id") == expected
    page.click("a[data-program='']")
    page.go_back()
    assert visible(page, "#dossiers article.dossier", "data-id") == expected
    page.go_back()
    everything = core(graph.entries("dossier"))
    assert visible(page, "#dossiers article.dossier", "data-id") == everything
    assert problems == []


def test_ledger_filter_shows_exactly_the_claims_of_a_label(
    problems: list[str], page: Page, site: Path, graph: MapGraph, serve: Url
) -> None:
    def carrying(label: Entry) -> list[Entry]:
        return graph.backlinks(label, "claim", "labelled")

    label = max(graph.entries("evidence"), key=lambda e: len(carrying(e)))
    expected = {c.id for c in carrying(label)}
    assert isinstance(label.model, EvidenceLabel)
    page.goto(serve(site, "claims/"))
    page.click(f"a[data-label-filter='{label.id}']")
    assert page.url.endswith(f"claims/?label={label.id}")
    assert visible(page, "article.claim", "data-id") == expected
    assert page.text_content("#label-status") == (
        f"Showing {len(expected)} of {len(graph.entries('claim'))} claims (filtered by label)"
    )
    page.reload()
    assert visible(page, "article.claim", "data-id") == expected
    assert problems == []


def test_which_fp8_rollout_claims_have_measured_support_in_three_clicks(
    problems: list[str], page: Page, site: Path, graph: MapGraph, serve: Url
) -> None:
    """Reader task 1: from the landing page, Claims, then two facets, combined."""
    expected = set()
    for claim in graph.entries("claim"):
        assert isinstance(claim.model, Claim)
        formats = {m.format for m in claim.model.measurements}
        if support_kind(claim.model) == "figure read" and "fp8" in formats:
            expected.add(claim.id)
    assert expected
    page.goto(serve(site))
    page.click("nav.nav-wide a:text-is('Claims')")  # click 1
    page.select_option("select[name='support']", "figure-read")  # click 2
    page.select_option("select[name='format']", "fp8")  # click 3
    assert visible(page, "article.claim", "data-id") == expected
    assert "support=figure-read" in page.url and "format=fp8" in page.url
    count = page.text_content("select[name='format'] option[value='fp8']")
    assert count is not None and count.endswith(f"({len(expected)})")
    page.reload()  # the state lives in the URL
    assert visible(page, "article.claim", "data-id") == expected
    page.click("form[data-facets] button[type='reset']")
    assert len(visible(page, "article.claim", "data-id")) == len(graph.entries("claim"))
    assert problems == []


def test_search_finds_a_dossier_by_short_name(
    problems: list[str], page: Page, site: Path, graph: MapGraph, serve: Url
) -> None:
    dossier = graph.get("dossier", "qerl")
    assert isinstance(dossier.model, Dossier)
    page.goto(serve(site))
    page.fill("#site-search-q", dossier.model.short_name)
    page.press("#site-search-q", "Enter")
    page.wait_for_url("**/search/?q=*")
    results = page.eval_on_selector_all(
        "[data-search]",
        "els => els.filter(e => !e.hidden).map(e => e.querySelector('a').textContent)",
    )
    assert dossier.model.short_name in results
    assert len(results) < graph.graph.number_of_nodes() / 2
    # Narrowed to claims: only claims, each with its label and kind of support.
    page.select_option("#search-type", "claim")
    assert "type=claim" in page.url
    shown = page.eval_on_selector_all(
        ".search-group", "gs => gs.filter(g => !g.hidden).map(g => g.dataset.type)"
    )
    assert shown in (["claim"], [])
    labels = page.eval_on_selector_all(
        "[data-search]:not([hidden]) .claim-label", "els => els.map(e => e.textContent)"
    )
    assert all("figure read" in t or "only" in t or "no support" in t for t in labels)
    assert problems == []


def test_map_nodes_are_keyboard_reachable_and_named(
    problems: list[str], page: Page, site: Path, serve: Url
) -> None:
    page.goto(serve(site, "map/"))
    page.focus("#every-entry summary")  # the full map, folded below the overview, opened
    page.keyboard.press("Enter")  # from the keyboard (a click would leave the pointer on a node)
    page.focus("svg.map a.node")
    focused = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert focused and page.text_content("#map-info") == focused
    page.keyboard.press("Tab")
    following = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert following and following != focused
    page.uncheck("input[data-map-type='claim']")
    dimmed = page.eval_on_selector_all("a.node.dim", "els => els.map(e => e.dataset.type)")
    assert dimmed and set(dimmed) == {"claim"}
    assert problems == []


def test_without_javascript_everything_is_listed(
    browser: Browser, site: Path, graph: MapGraph, serve: Url
) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(serve(site))
    core = {d.id for d in graph.entries("dossier") if getattr(d.model, "core", False)}
    assert visible(page, "#dossiers article.dossier", "data-id") == core
    assert len(visible(page, "#claims li.claim-line", "data-id")) == min(
        pages.LANDING_CLAIMS, len(graph.entries("claim"))
    )
    paths = graph.entries("path")  # the landing previews them; the listing has every one
    assert len(page.query_selector_all("#paths li.path")) == min(pages.LANDING_PATHS, len(paths))
    page.click("#paths a[href$='paths/']")
    listed = " ".join(page.eval_on_selector_all("main a", "els => els.map(e => e.href)"))
    assert [p.id for p in paths if f"/paths/{p.id}/" not in listed] == []
    page.goto(serve(site, "dossiers/"))  # one click away, every dossier is listed
    assert visible(page, "article.dossier, tr[data-id], li[data-id]", "data-id") >= {
        d.id for d in graph.entries("dossier")
    }
    page.goto(serve(site))
    program = graph.entries("program")[0]
    page.click(f"a[data-program='{program.id}']")
    assert page.url.endswith(f"programs/{program.id}/")
    context.close()


# One page of each template (axe takes a second or two a page); the label facet and a
# search with results add the states the script and the facet links draw.
AXE_PAGES = [
    "",
    "dossiers/qerl/",
    "claims/",
    "claims/label/measured/",
    "map/",
    "changes/",
    "dossiers/",
    "compare/",
    "programs/",
    "about/",
    "claims/qerl-e2e-step-speedup/",
    "tensions/routing-replay-or-not/",
    "failure-modes/",
    "failure-modes/stale-scales/",
    "programs/noise-as-exploration/",
    "paths/is-noise-exploration/",
    "search/?q=fp8",
    "map/?focus=tension:truncate-vs-mask-ratios",  # the full map, open on a focus
    "compare/all/",
    "tensions/",
    "paths/",
    "foundations/",
]


@pytest.mark.parametrize("path", AXE_PAGES)
def test_axe_reports_no_violations(
    problems: list[str], page: Page, site: Path, serve: Url, path: str
) -> None:
    require(
        AXE_SCRIPT.is_file(), "the current axe-core is missing: run `npm install` in tests/tools"
    )
    page.goto(serve(site, path))
    results = Axe(axe_script=AXE_SCRIPT.read_text(encoding="utf-8")).run(page)
    assert page.evaluate("axe.version") >= "4.14"
    violations = [
        (v["id"], [n["target"] for n in v["nodes"]][:3]) for v in results.response["violations"]
    ]
    assert violations == []
    assert problems == []


NARROW_PAGES = [
    "",
    "compare/",
    "programs/",
    "claims/",
    "dossiers/qerl/",
    "about/",
    "map/",
    "foundations/",
]


def test_no_page_scrolls_sideways_at_360_px(browser: Browser, site: Path, serve: Url) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 800})
    narrow = context.new_page()
    widths = {}
    for path in NARROW_PAGES:
        narrow.goto(serve(site, path))
        widths[path] = narrow.evaluate("document.documentElement.scrollWidth")
    context.close()
    assert {path: width for path, width in widths.items() if width > 360} == {}


def test_chart_marks_are_reached_by_keyboard_with_their_values(
    problems: list[str], page: Page, site: Path, serve: Url
) -> None:
    page.goto(serve(site, "compare/"))
    first = page.locator("a.mark").first
    label = first.get_attribute("aria-label")
    for _ in range(200):  # tab through the masthead and the metric links to the first mark
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.getAttribute('aria-label')") == label:
            break
    else:
        pytest.fail("the first chart mark is not reachable with Tab")
    page.keyboard.press("Enter")
    page.wait_for_url("**/claims/*/")
    assert problems == []


def test_offline_pages_open_from_a_folder(
    problems: list[str], page: Page, offline_site: Path
) -> None:
    """From file://, a page at each folder depth opens with its styles and script (asset
    links are relative, so depth is what varies), and search works; that every link
    names a file is checked on every page by test_site."""
    root = offline_site.as_uri() + "/"
    depths = ["index.html", "claims/index.html", "dossiers/qerl/index.html"]
    depths.append("claims/label/measured/index.html")
    for name in depths:
        page.goto(root + name, wait_until="load")
        assert page.locator("main").count() == 1, f"{name} is not a page"
        width = page.evaluate("getComputedStyle(document.querySelector('main')).maxWidth")
        assert width != "none", f"{name} has no style"
    page.goto(root + "search/index.html?q=QeRL")
    shown = page.eval_on_selector_all("[data-search]", "els => els.filter(e => !e.hidden).length")
    assert 0 < shown < len(page.query_selector_all("[data-search]"))
    assert [p for p in problems if not p.startswith(root)] == []  # files of the site only


@pytest.mark.parametrize(("width", "height", "screens"), [(1280, 800, 8), (390, 844, 16)])
def test_landing_page_reads_in_a_few_screens(
    browser: Browser, site: Path, serve: Url, width: int, height: int, screens: int
) -> None:
    """The landing page is an overview: each section previews, the detail is one click away."""
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(serve(site))
    total = page.evaluate("document.documentElement.scrollHeight")
    headings = page.eval_on_selector_all("main section > h2", "els => els.map(e => e.textContent)")
    context.close()
    assert total <= screens * height, f"{total / height:.1f} screens"
    # The seed's numbered section names are part of the headings a screen reader lists.
    assert [h.split("/")[0].strip() for h in headings] == [f"{n:02d}" for n in range(1, 10)]


def test_map_selects_a_node_lists_its_connections_and_restores_on_back(
    problems: list[str], page: Page, site: Path, graph: MapGraph, serve: Url
) -> None:
    qerl = graph.get("dossier", "qerl")
    neighbours = graph.neighbours(qerl.key)
    page.goto(serve(site, "map/?focus=dossier:qerl"))
    drawn = set(page.eval_on_selector_all("svg.map a.node", "els => els.map(e => e.dataset.key)"))
    neighbours &= drawn  # vocabulary (perturbations, pages) is not drawn on the map
    lit = set(page.eval_on_selector_all("svg.map a.node.on", "els => els.map(e => e.dataset.key)"))
    assert lit == {qerl.key} | neighbours
    assert page.locator("#map-info li").count() == len(neighbours)
    # Choosing another node selects it first; choosing it again opens it.
    other = sorted(neighbours)[0]
    page.click(f"svg.map a.node[data-key='{other}']")
    assert page.url.endswith(f"?focus={other.replace(':', '%3A')}")
    page.go_back()
    assert page.get_attribute("svg.map a.node.selected", "data-key") == qerl.key
    page.select_option("#map-program", "noise-as-exploration")
    page.go_back()
    assert page.input_value("#map-program") == ""
    page.go_forward()
    assert page.input_value("#map-program") == "noise-as-exploration"
    assert page.get_attribute("svg.map a.node.selected", "data-key") == qerl.key
    page.click(f"svg.map a.node[data-key='{qerl.key}']")  # chosen again: opens it
    page.wait_for_url("**/dossiers/qerl/")
    assert problems == []


def test_every_map_node_is_named_by_its_visible_text(page: Page, site: Path, serve: Url) -> None:
    """WCAG 2.5.3: the accessible name of each node contains the words it shows."""
    for path in ("map/", "dossiers/qerl/"):
        page.goto(serve(site, path))
        pairs = page.eval_on_selector_all(
            "svg a.node",
            "els => els.map(e => [e.getAttribute('aria-label'), e.querySelector('text').textContent])",
        )
        assert pairs
        for name, shown in pairs:
            assert shown.strip() and shown.strip() in name, (shown, name)


def test_the_largest_nvfp4_rollout_speedup_in_llm_rl_in_three_clicks(
    problems: list[str], page: Page, site: Path, graph: MapGraph, serve: Url
) -> None:
    """Reader task 4: Compare (LLM RL by default), the format, then sort by value."""
    speedups = []
    for row in measurement_rows(graph.entries("claim")):
        m = row.measurement
        domain = measurement_domain(m, graph.get("dossier", m.source))
        if m.metric == "rollout-speedup" and m.format == "nvfp4" and domain == "llm-rl":
            speedups.append(((m.low + m.high) / 2, f"{row.claim.id}-{row.position}"))
    assert speedups
    page.goto(serve(site))
    page.click("nav.nav-wide a:text-is('Compare')")  # click 1
    page.select_option("form[data-compare] select[name='format']", "nvfp4")  # click 2
    table = "#metric-rollout-speedup table.measurements"
    page.click(f"{table} th[data-sort='value'] button")  # click 3
    rows = page.eval_on_selector_all(
        f"{table} tbody tr", "rows => rows.filter(r => !r.hidden).map(r => r.dataset.row)"
    )
    assert set(rows) == {key for _, key in speedups}  # LLM RL only, NVFP4 only
    top = page.get_attribute(f"{table} tbody tr[data-row='{rows[0]}']", "data-value")
    assert top is not None and float(top) == max(speedups)[0]  # the largest first
    assert "format=nvfp4" in page.url
    assert problems == []


def test_a_tensions_sides_and_a_works_standing_are_in_the_first_screens(
    problems: list[str], page: Page, site: Path, serve: Url
) -> None:
    """Reader tasks 2 and 3: a tension's sides with their claims; from QeRL's page, the
    works that agree or disagree, in its first two screens."""
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(serve(site))
    page.click("nav.nav-wide a:text-is('Tensions')")  # click 1
    page.click("a[href$='tensions/truncate-vs-mask-ratios/']")  # click 2
    assert page.locator("h2#side-1-claims").count() == 1
    assert page.locator("h2#side-2-claims").count() == 1
    assert "State:" in (page.text_content("p.state") or "")
    page.goto(serve(site, "dossiers/qerl/"))
    top = page.eval_on_selector("#standing-h", "h => h.getBoundingClientRect().top")
    assert top < 2 * 900
    text = page.text_content("section.standing") or ""
    assert "A side of" in text and ("Agrees with" in text or "Disagrees with" in text)
    assert problems == []


OVERVIEW_NODES = """els => els.map(e => {
  const svg = e.ownerSVGElement, text = e.querySelector('text');
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  return [e.getAttribute('aria-label'), text.textContent,
          parseFloat(getComputedStyle(text).fontSize) * scale];
})"""


def test_the_map_reads_at_first_sight_and_a_focus_shows_a_whole_neighbourhood(
    problems: list[str], page: Page, site: Path, graph: MapGraph, serve: Url
) -> None:
    """Reader task 5: "Explore the map" opens an overview of a few dozen marks whose labels
    are whole names, legible on a laptop and a phone; a tension chosen there opens a page
    that links every entry it touches."""
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(serve(site))
        page.click("main a.button:text-is('Explore the map')")  # click 1
        nodes = page.eval_on_selector_all("svg.map-overview a.node", OVERVIEW_NODES)
        assert 0 < len(nodes) <= 100
        for name, shown, font_px in nodes:
            assert name.rsplit(" (", 1)[0] == " ".join(shown.split()), name  # whole, not cut
            assert font_px >= 10.5, (name, font_px)  # not shrunk to fit the screen
        # Before a focus is chosen the full map of every entry stays folded away.
        assert not page.locator("svg.map").is_visible()
    tension = graph.get("tension", "truncate-vs-mask-ratios")
    page.click(f"svg.map-overview a.node[href$='{entry_url(tension)}']")  # click 2
    page.wait_for_url(f"**/{entry_url(tension)}")
    linked = set(
        page.eval_on_selector_all(
            "main a[href]",
            "els => els.map(a => new URL(a.getAttribute('href'), location.href).pathname.replace(/index.html$/, ''))",
        )
    )
    expected = {
        entry_url(e)
        for key in graph.neighbours(tension.key)
        if (e := graph.entry(key)) is not None and entry_url(e) and "#" not in entry_url(e)
    }
    assert expected and {u for u in expected if not any(p.endswith(u) for p in linked)} == set()
    # The full map opens on a focus given in the address, its neighbours lit.
    page.goto(serve(site, f"map/?focus={tension.key}"))
    assert page.locator("svg.map").is_visible()
    drawn = set(page.eval_on_selector_all("svg.map a.node", "els => els.map(e => e.dataset.key)"))
    lit = set(page.eval_on_selector_all("svg.map a.node.on", "els => els.map(e => e.dataset.key)"))
    assert lit == {tension.key} | (graph.neighbours(tension.key) & drawn)
    assert problems == []


def test_compare_keeps_the_numbers_against_one_kind_of_baseline(
    problems: list[str], page: Page, site: Path, serve: Url
) -> None:
    """The baseline filter leaves the rows (and marks) measured against BF16, in the URL."""
    page.goto(serve(site, "compare/"))
    every = page.locator("section.metric tbody tr").count()
    page.select_option("form[data-compare] select[name='baseline']", "BF16")
    shown = page.eval_on_selector_all(
        "section.metric tbody tr",
        "rows => rows.filter(r => !r.hidden).map(r => r.dataset.baseline)",
    )
    assert shown and set(shown) == {"BF16"} and len(shown) < every
    assert "baseline=BF16" in page.url
    off = page.locator("section.metric a.mark.off").count()
    assert off == every - len(shown)  # every mark whose row is hidden is dimmed
    assert problems == []
