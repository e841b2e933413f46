"""A golden minimal site: the tiny fixture's whole output, checked in, and its graph's
edges written out by hand from its YAML (not read back from the code that made them).

After a change meant to alter output, regenerate it on purpose with
`python tests/golden/update.py` and review the diff.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from conftest import MINIMAL, REPO, tree

from lowprec_map.content.check import check
from lowprec_map.content.project import Project
from lowprec_map.pipeline import build

GOLDEN = REPO / "tests" / "golden" / "site"

# Every reference in tests/fixtures/minimal, read off its files: (source, target, relation).
EDGES = {
    # claims/alpha-fast.yaml: cites alpha, contested, conflicts with beta-slow, in prog
    ("claim:alpha-fast", "dossier:alpha", "cites"),
    ("claim:alpha-fast", "evidence:contested", "labelled"),
    ("claim:alpha-fast", "claim:beta-slow", "conflicts-with"),
    ("claim:alpha-fast", "program:prog", "in-program"),
    # claims/beta-slow.yaml: cites beta, contested, conflicts with alpha-fast
    ("claim:beta-slow", "dossier:beta", "cites"),
    ("claim:beta-slow", "evidence:contested", "labelled"),
    ("claim:beta-slow", "claim:alpha-fast", "conflicts-with"),
    # claims/both-agree.yaml: cites both, replicated, tests prog, measures speedup in both
    ("claim:both-agree", "dossier:alpha", "cites"),
    ("claim:both-agree", "dossier:beta", "cites"),
    ("claim:both-agree", "evidence:replicated", "labelled"),
    ("claim:both-agree", "program:prog", "tests"),
    ("claim:both-agree", "metric:speedup", "measures"),
    ("claim:both-agree", "dossier:alpha", "measured-in"),
    ("claim:both-agree", "dossier:beta", "measured-in"),
    # dossiers/alpha.yaml: perturbs rollout weights, in prog
    ("dossier:alpha", "perturbation:rollout-weights", "perturbs"),
    ("dossier:alpha", "program:prog", "in-program"),
    # dossiers/beta.yaml: perturbs the KV cache, challenges alpha
    ("dossier:beta", "perturbation:kv-cache", "perturbs"),
    ("dossier:alpha", "domain:llm-rl", "in-domain"),
    ("dossier:beta", "domain:llm-rl", "in-domain"),
    ("dossier:beta", "dossier:alpha", "relates-to"),
    # failure_modes/collapse.yaml: one source
    ("failure_mode:collapse", "dossier:alpha", "cites"),
    # paths/start.yaml: alpha, a stage, beta-slow
    ("path:start", "dossier:alpha", "step"),
    ("path:start", "claim:beta-slow", "step"),
    # taxonomy.yaml: both perturbations in the compute group
    ("perturbation:rollout-weights", "group:compute", "in-group"),
    ("perturbation:kv-cache", "group:compute", "in-group"),
    # tensions/alpha-vs-beta.yaml: two sides, each backed by a claim, one on the boundary
    ("tension:alpha-vs-beta", "dossier:alpha", "side"),
    ("tension:alpha-vs-beta", "dossier:beta", "side"),
    ("tension:alpha-vs-beta", "claim:alpha-fast", "backs-side"),
    ("tension:alpha-vs-beta", "claim:beta-slow", "backs-side"),
    ("tension:alpha-vs-beta", "claim:both-agree", "about"),
    ("tension:alpha-vs-beta", "program:prog", "in-program"),
}


def test_the_minimal_maps_edges_are_the_references_its_files_make() -> None:
    assert set(check(MINIMAL).graph.edges()) == EDGES


def test_the_minimal_map_builds_to_the_golden_site(tmp_path: Path) -> None:
    build(Project(MINIMAL, REPO / "templates", REPO / "static"), tmp_path / "site")
    # static/ is the repository's own folder, copied byte for byte: not kept twice.
    built = {k: v for k, v in tree(tmp_path / "site").items() if not k.startswith("static/")}
    golden = tree(GOLDEN)
    assert sorted(built) == sorted(golden), "files added or gone: run tests/golden/update.py"
    for name in sorted(golden):
        if built[name] != golden[name]:
            diff = difflib.unified_diff(
                golden[name].decode(errors="replace").splitlines(),
                built[name].decode(errors="replace").splitlines(),
                f"golden/{name}",
                f"built/{name}",
                lineterm="",
                n=1,
            )
            detail = "\n".join(list(diff)[:40])
            raise AssertionError(f"{name} differs (meant? run tests/golden/update.py):\n{detail}")
