"""Linking (references, suggestions, backlinks) and the integrity rules."""

from __future__ import annotations

import os
import re
import time

import pytest
from conftest import MINIMAL, MakeProject

from lowprec_map.content.check import check
from lowprec_map.content.graph import MapGraph
from lowprec_map.dev import incremental as check_module
from lowprec_map.dev.incremental import ContentCache
from lowprec_map.errors import Severity


def messages(make_project: MakeProject, files: dict[str, str | bytes | None]) -> list[str]:
    result = check(make_project(files).content)
    return [p.format().split("content/", 1)[1] for p in result.errors]


def test_clean_fixture_has_no_errors(make_project: MakeProject) -> None:
    result = check(make_project().content)
    assert result.errors == []


def test_mistyped_dossier_id_points_at_the_value_and_suggests(make_project: MakeProject) -> None:
    claim = "statement: S.\nlabel: measured\nsources:\n  - dossier: alpah\n    locator: Table 1\n    stance: supports\n    basis: measured\n"
    assert messages(make_project, {"claims/new.yaml": claim}) == [
        "claims/new.yaml:4:14: unknown dossier 'alpah' (did you mean 'alpha'?)"
    ]


def test_unknown_id_without_a_close_match_has_no_suggestion(make_project: MakeProject) -> None:
    path = "title: P\norder: 2\nsummary: S.\nsteps:\n  - {dossier: alpha}\n  - {tension: zzz}\n"
    assert messages(make_project, {"paths/p2.yaml": path}) == [
        "paths/p2.yaml:6:15: unknown tension 'zzz'"
    ]


def test_backlinks_counts_and_path_order(make_project: MakeProject) -> None:
    graph = check(make_project().content).graph
    alpha = graph.get("dossier", "alpha")
    assert [e.key for e in graph.backlinks(alpha)] == [
        "claim:alpha-fast",
        "claim:both-agree",
        "dossier:beta",
        "failure_mode:collapse",
        "path:start",
        "tension:alpha-vs-beta",
    ]
    assert graph.backlinks(alpha, "claim") == [
        graph.get("claim", "alpha-fast"),
        graph.get("claim", "both-agree"),
    ]
    counts = graph.counts()
    assert (counts["dossier"], counts["core"], counts["claim"], counts["evidence"]) == (2, 1, 3, 5)
    # The path's steps name alpha, then a stage ("gap"), then beta-slow.
    assert [(t, r) for s, t, r in graph.edges() if s == "path:start"] == [
        ("claim:beta-slow", "step"),
        ("dossier:alpha", "step"),
    ]
    program = graph.get("program", "prog")
    assert [e.id for e in graph.program_members(program, "dossier")] == ["alpha"]
    assert graph.relations(graph.get("claim", "both-agree"), program) == ["tests"]
    assert graph.relations(program, graph.get("claim", "both-agree")) == []


def test_replicated_needs_two_independent_dossiers(make_project: MakeProject) -> None:
    beta = (MINIMAL / "dossiers/beta.yaml").read_text()
    shared_author = beta.replace("authors: [Cy Three]", "authors: [Cy Three, Ada One]")
    assert messages(make_project, {"dossiers/beta.yaml": shared_author}) == [NOT_REPLICATED]


NOT_REPLICATED = (
    "claims/both-agree.yaml:2:8: a 'replicated' claim needs two sources that support it "
    "with basis 'measured' from works sharing no person and no group; it has 1 (alpha: "
    "supports, measured; beta: supports, measured)"
)


@pytest.mark.parametrize(
    "spelling",
    ["Ada One ", "ada  one", "Ada\u00a0One", "Ada One\u200b", "Аda One", "Adá One"],
    ids=["trailing space", "case and spaces", "no-break space", "zero-width", "Cyrillic A",
         "accent"],
)  # fmt: skip
def test_one_person_spelled_two_ways_is_one_person(
    make_project: MakeProject, spelling: str
) -> None:
    beta = (MINIMAL / "dossiers/beta.yaml").read_text()
    shared = beta.replace("authors: [Cy Three]", f'authors: [Cy Three, "{spelling}"]')
    assert messages(make_project, {"dossiers/beta.yaml": shared}) == [NOT_REPLICATED]


def test_people_yaml_ties_a_handle_to_its_person(make_project: MakeProject) -> None:
    beta = (MINIMAL / "dossiers/beta.yaml").read_text()
    files: dict[str, str | bytes | None] = {
        "dossiers/beta.yaml": beta.replace("authors: [Cy Three]", "authors: [ada1]"),
        "people.yaml": "people:\n  - {id: ada-one, name: Ada One, spellings: [ada1]}\n",
    }
    assert messages(make_project, files) == [NOT_REPLICATED]
    files.pop("people.yaml")
    assert messages(make_project, files) == []  # unknown to people.yaml: another person


def test_works_of_one_group_are_not_independent(make_project: MakeProject) -> None:
    alpha = (MINIMAL / "dossiers/alpha.yaml").read_text()
    beta = (MINIMAL / "dossiers/beta.yaml").read_text()
    people = "groups:\n  - {id: miles, name: RadixArk Miles team, spellings: [Miles Team]}\n"
    signed: dict[str, str | bytes | None] = {
        "dossiers/alpha.yaml": alpha.replace("authors: [Ada One, Bo Two]", "authors: [Miles Team]"),
        "dossiers/beta.yaml": beta.replace("authors: [Cy Three]", "authors: [RadixArk Miles team]"),
        "people.yaml": people,
    }
    assert messages(make_project, signed) == [NOT_REPLICATED]
    by_field: dict[str, str | bytes | None] = {
        "dossiers/beta.yaml": beta.replace(
            "authors: [Cy Three]", "authors: [Cy Three]\ngroups: [miles]"
        ),
        "dossiers/alpha.yaml": alpha.replace(
            "authors: [Ada One, Bo Two]", "authors: [Ada One, Bo Two]\ngroups: [miles]"
        ),
        "people.yaml": people,
    }
    assert messages(make_project, by_field) == [NOT_REPLICATED]
    in_group: dict[str, str | bytes | None] = {
        "dossiers/alpha.yaml": alpha.replace(
            "authors: [Ada One, Bo Two]", "authors: [Ada One, Bo Two]\ngroups: [miles]"
        ),
        "people.yaml": people + "people:\n  - {id: cy, name: Cy Three, groups: [miles]}\n",
    }
    assert messages(make_project, in_group) == [NOT_REPLICATED]  # a person's group counts


def test_a_spelling_close_to_another_persons_is_a_warning(make_project: MakeProject) -> None:
    beta = (MINIMAL / "dossiers/beta.yaml").read_text()
    files = {"dossiers/beta.yaml": beta.replace("authors: [Cy Three]", "authors: [A. One]")}
    project = make_project(files)
    found = [p.format().split("content/", 1)[1] for p in check(project.content).warnings]
    assert found == [
        "dossiers/beta.yaml:3:11: warning: 'A. One' resembles 'Ada One' (alpha): if one "
        "person, add the spelling to people.yaml; if not, list it in that person's distinct_from"
    ]
    files["people.yaml"] = "people:\n  - {id: ada, name: Ada One, distinct_from: [A. One]}\n"
    assert check(make_project(files).content).warnings == []


def test_conflicts_must_be_mutual_and_contested_needs_one(make_project: MakeProject) -> None:
    beta_slow = "statement: Beta finds it slow.\nlabel: contested\nsources:\n  - {dossier: beta, locator: Table 3, stance: supports, basis: measured}\n"
    assert messages(make_project, {"claims/beta-slow.yaml": beta_slow}) == [
        "claims/alpha-fast.yaml:6:18: conflicts must be mutual: add 'alpha-fast' to the "
        "conflicts_with of claim 'beta-slow'",
        "claims/beta-slow.yaml:2:8: a 'contested' claim needs a source whose stance is "
        "'contrasts' or a conflicting claim in conflicts_with; it has neither",
    ]


def test_tension_sides_duplicates_and_featured(make_project: MakeProject) -> None:
    tension = (
        "title: T\nkind: versus\nsides:\n  - {dossier: alpha, position: A.}\n"
        "  - {dossier: alpha, position: B.}\nsummary: S.\nmissing_variable: m\n"
    )
    gamma = (MINIMAL / "dossiers/alpha.yaml").read_text()
    failure = "title: F\nsummary: S.\nfeatured: true\nsteps:\n  - {title: a, detail: b}\n  - {title: c, detail: d}\nsources:\n  - {dossier: alpha, locator: Abstract}\n"
    assert messages(
        make_project,
        {
            "tensions/t2.yaml": tension,
            "dossiers/gamma.yaml": gamma,
            "failure_modes/f2.yaml": failure,
        },
    ) == [
        "dossiers/gamma.yaml:1:8: dossier 'alpha' has the same title; one work, one dossier",
        "dossiers/gamma.yaml:8:8: dossier 'alpha' has the same arxiv; one work, one dossier",
        "failure_modes/f2.yaml:3:11: only one failure mode can be featured; 'collapse' already is",
        "tensions/t2.yaml:5:15: a tension's two sides must differ",
    ]


# The fixture's metrics, which its claims' measurements name.
FIXTURE_METRICS = "metrics:" + (MINIMAL / "taxonomy.yaml").read_text().split("metrics:", 1)[1]


def test_orphans_are_warnings_but_unused_vocabulary_is_not(make_project: MakeProject) -> None:
    gamma = (MINIMAL / "dossiers/alpha.yaml").read_text()
    gamma = gamma.replace("Alpha paper", "Gamma paper").replace("2501.00001", "2501.00002")
    extra = (
        "groups:\n  - {id: compute, name: C, description: D.}\nperturbations:\n"
        "  - {id: rollout-weights, name: R, group: compute, description: D.}\n"
        "  - {id: kv-cache, name: K, group: compute, description: D.}\n"
        "  - {id: unused, name: U, group: compute, description: D.}\n" + FIXTURE_METRICS
    )
    result = check(make_project({"dossiers/gamma.yaml": gamma, "taxonomy.yaml": extra}).content)
    assert result.errors == []
    assert [p.format().split("content/", 1)[1] for p in result.warnings] == [
        "dossiers/gamma.yaml:1:1: warning: dossier 'gamma' is not referenced by any other entry"
    ]
    assert all(p.severity is Severity.WARNING for p in result.warnings)


def test_links_in_prose_are_checked_references(make_project: MakeProject) -> None:
    page = "---\ntitle: P\ndescription: D.\n---\nIntro.\n\nSee [the paper](dossier:alpah) here.\n"
    claim = "statement: S.\nlabel: measured\nsources:\n  - {dossier: alpha, locator: Table 1, stance: supports, basis: measured}\nnote: >-\n  Compare [beta](dossier:beta) and [gone](claim:nope).\n"
    assert messages(make_project, {"pages/p.md": page, "claims/c.yaml": claim}) == [
        "claims/c.yaml:5:7: unknown claim 'nope'",
        "pages/p.md:9:25: unknown dossier 'alpah' (did you mean 'alpha'?)",
    ]


def test_prose_links_make_backlinks(make_project: MakeProject) -> None:
    page = "---\ntitle: P\ndescription: D.\n---\nSee [Beta](dossier:beta).\n"
    graph = check(make_project({"pages/p.md": page}).content).graph
    beta = graph.get("dossier", "beta")
    assert "page:p" in [e.key for e in graph.backlinks(beta)]
    assert graph.relations(graph.get("page", "p"), beta) == ["mentions"]


def _answers(graph: MapGraph) -> list[object]:
    """Everything the graph answers about every entry, as plain keys."""
    found: list[object] = [graph.edges()]
    for entry in graph.all_entries():
        found += [
            entry.key,
            vars(entry.model),
            [e.key for e in graph.backlinks(entry)],
            [e.key for e in graph.targets(entry)],
            sorted(graph.neighbours(entry.key)),
        ]
    return found


def test_a_check_with_the_file_cache_answers_as_a_fresh_check(
    make_project: MakeProject,
) -> None:
    """serve's cached files (text edits, then a reference edit) give the graph a fresh check does."""
    content = make_project().content
    cache = ContentCache()
    first = check(content, cache).graph
    claim = content / "claims" / "beta-slow.yaml"
    text = claim.read_text()

    claim.write_text(text.replace("Beta finds it slow.", "Beta finds it slower."))
    kept = check(content, cache).graph
    assert _answers(first) != _answers(kept)
    assert _answers(kept) == _answers(check(content).graph)
    assert vars(kept.get("claim", "beta-slow").model)["statement"] == "Beta finds it slower."

    claim.write_text(text.replace("dossier: beta", "dossier: alpha"))
    relinked = check(content, cache).graph
    assert _answers(relinked) == _answers(check(content).graph)
    assert "claim:beta-slow" in {
        e.key for e in relinked.backlinks(relinked.get("dossier", "alpha"))
    }


def test_an_edit_within_one_timestamp_tick_is_seen(make_project: MakeProject) -> None:
    """Two saves within one clock tick keep the size and the modification time: the
    second is still seen (a recently modified file is compared by its bytes)."""
    content = make_project().content
    cache = ContentCache()
    claim = content / "claims" / "beta-slow.yaml"
    claim.write_text(claim.read_text().replace("slow.", "slov."))
    check(content, cache)
    first = claim.stat()
    claim.write_text(claim.read_text().replace("slov.", "SLOW."))
    os.utime(claim, ns=(first.st_atime_ns, first.st_mtime_ns))
    assert (claim.stat().st_size, claim.stat().st_mtime_ns) == (first.st_size, first.st_mtime_ns)
    graph = check(content, cache).graph
    assert vars(graph.get("claim", "beta-slow").model)["statement"] == "Beta finds it SLOW."


def test_files_added_or_removed_are_seen_by_a_cached_check(
    make_project: MakeProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache lists the folders again when one changed since it was listed, however
    long ago, and when one changed within one clock tick of a listing."""
    content = make_project().content
    claims, cache = content / "claims", ContentCache()
    long_ago = time.time_ns() - 3600 * 10**9
    for folder in (content, claims):
        os.utime(folder, ns=(long_ago, long_ago))
    assert "claim:extra" not in check(content, cache).graph

    extra = claims / "extra.yaml"
    extra.write_text((claims / "beta-slow.yaml").read_text())
    os.utime(claims, ns=(long_ago + 10**9, long_ago + 10**9))  # changed, and long settled
    assert "claim:extra" in check(content, cache).graph
    extra.unlink()
    assert "claim:extra" not in check(content, cache).graph  # the folder is recent now

    # Listed while recent, then changed within the same tick: the time stays the same,
    # and the change is still seen once everything has settled.
    (claims / "new.yaml").write_text((claims / "beta-slow.yaml").read_text())
    listed = claims.stat().st_mtime_ns
    assert "claim:new" in check(content, cache).graph
    (claims / "new.yaml").unlink()
    os.utime(claims, ns=(listed, listed))
    monkeypatch.setattr(check_module, "SETTLED_NS", 0)  # as if checked much later
    assert "claim:new" not in check(content, cache).graph


def test_a_cached_check_sees_a_dossier_edit_break_a_claims_label(
    make_project: MakeProject,
) -> None:
    """A claim's evidence problems follow from its dossiers too: with the claim's file
    unchanged, an edit to one of its dossiers still re-checks its label rule."""
    content = make_project().content
    cache = ContentCache()
    assert [p.format() for p in check(content, cache).errors] == []
    beta = content / "dossiers" / "beta.yaml"
    text = beta.read_text()
    # Both-agree is 'replicated' on alpha and beta: shared authors undo that.
    beta.write_text(re.sub(r"authors: \[[^\]]*\]", "authors: [Ada One]", text))
    cached = [p.format() for p in check(content, cache).errors]
    assert cached == [p.format() for p in check(content).errors]
    assert any("both-agree" in line for line in cached), cached
    beta.write_text(text)
    assert [p.format() for p in check(content, cache).errors] == []
