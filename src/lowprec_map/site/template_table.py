"""What templates may call and read besides their page's context: one table of filters and
globals. Pure functions are listed once here; the renderer's own (drawing cards and
links, Markdown with mentions resolved for the page) are bound to it.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Any

import jinja2

from lowprec_map.content.evidence import (
    PREDICTION_RULE,
    TENSION_STATE_RULE,
    side_basis,
    support_kind,
    tension_state,
)
from lowprec_map.registry import REGISTRY, type_name
from lowprec_map.schema.locators import shown_kind
from lowprec_map.site.bibtex import claim_bibtex, dossier_bibtex
from lowprec_map.site.charts import baseline_group, baseline_text, setting_text, value_text
from lowprec_map.site.facets import facet_values
from lowprec_map.site.reads import LinkedEntry
from lowprec_map.site.urls import listing_url, naming_files, relative, url_of
from lowprec_map.site.views import (
    entry_summary,
    entry_title,
    first_sentence,
    label_lines,
    label_start,
    ring_layout,
    search_text,
    summary_field,
    title_field,
)
from lowprec_map.site_files import site_files

if TYPE_CHECKING:
    from lowprec_map.site.render import Renderer


def template_table(renderer: Renderer) -> tuple[dict[str, Any], dict[str, Any]]:
    """The filters and the globals every template sees, for `renderer`."""
    filters = {"md": renderer.block_markdown, "url": _url_filter, "human_date": _human_date}
    functions = {
        "type_name": type_name,
        # A function given a linked entry says which of its fields it reads.
        "search_text": lambda e: search_text(e.whole()),
        "entry_title": lambda e: entry_title(e.fields(title_field(e.type))),
        "page_summary": lambda e: entry_summary(e.fields(*filter(None, [summary_field(e.type)]))),
        "dossier_bibtex": lambda e: dossier_bibtex(e.whole()),
        "claim_bibtex": lambda e, site: claim_bibtex(e.whole(), site, site.base_url),
        "support_kind": lambda e: support_kind(e.fields("sources").model),
        "tension_state": _tension_state,
        "facet_attrs": lambda c: facet_values(
            c.fields("sources", "perturbs", "measurements", "programs").model
        ),
        "side_basis": lambda claims: side_basis([_support(c) for c in claims]),
        "shown_kind": shown_kind,
        "ring_layout": ring_layout,
        "first_sentence": first_sentence,
        "label_start": label_start,
        "label_lines": label_lines,
        "value_text": value_text,
        "baseline_text": baseline_text,
        "baseline_group": baseline_group,
        "setting_text": setting_text,
    }
    values = {
        "offline": renderer.offline,
        "prediction_rule": PREDICTION_RULE,
        "tension_state_rule": TENSION_STATE_RULE,
        "assets": renderer.assets,
        # The site table's pages, then the listings the registry puts in the masthead.
        "masthead_links": [
            *((f.name, f.url) for f in site_files(masthead=True)),
            *(
                (t.listing.masthead, listing_url(t.name))
                for t in REGISTRY.listed_types
                if t.listing is not None and t.listing.masthead
            ),
        ],
        "footer_files": site_files(footer=True),
        "not_found_links": site_files(not_found=True),
    }
    drawing = {"card": renderer.card, "cards": renderer.cards_of, "link": renderer.link}
    return filters, {**functions, **values, **drawing}


@jinja2.pass_context
def _url_filter(context: jinja2.runtime.Context, target: LinkedEntry | str) -> str:
    """Relative link from the page being rendered to an entry or a site URL."""
    url = url_of(target.type, target.id) if isinstance(target, LinkedEntry) else target
    root = context.get("absolute_root")
    if root is not None and not url.startswith(("http://", "https://")):
        return f"{root}{url}"  # 404.html is served at any depth: relative links would break
    link = relative(str(context["page_file"]), url)
    return naming_files(link) if context["offline"] else link


def _facet_attrs(claim: LinkedEntry) -> dict[str, list[str]]:
    """A claim card's facet values (site/facets.py), for its data attributes."""
    read = claim.fields("sources", "perturbs", "measurements", "programs")
    return facet_values(read.model)  # type: ignore[arg-type]


def _support(claim: LinkedEntry) -> str:
    return support_kind(claim.fields("sources").model)  # type: ignore[arg-type]


def _tension_state(tension: LinkedEntry) -> str:
    """A tension's state from its sides' and boundary's claims (content/evidence.py)."""
    model = tension.model
    sides = [[_support(c) for c in side.claims] for side in model.sides]
    boundary = [_support(c) for c in model.boundary]
    return tension_state(sides, boundary, model.missing_variable is not None)


def _human_date(value: datetime.date) -> str:
    return f"{value.day} {value.strftime('%b %Y')}"
