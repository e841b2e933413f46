"""Seeded generator of synthetic map content at N entries, valid under the real models.

Proportions follow the real map: per 100 entries about 20 dossiers, 50 claims,
5 tensions, 9 failure modes, 8 programs, 4 reading paths and 4 pages. The
site, evidence labels and taxonomy are copied from the repository's content.

    python bench/synth.py N OUT_DIR [--seed 0]
"""

from __future__ import annotations

import argparse
import datetime
import random
import shutil
from pathlib import Path

import yaml

from lowprec_map.registry import REGISTRY

REPO = Path(__file__).resolve().parent.parent
SHARES = {
    "dossier": 20,
    "claim": 50,
    "tension": 5,
    "failure_mode": 9,
    "program": 8,
    "path": 4,
    "page": 4,
}
# Entry type -> its content folder, as the registry of entry types says.
FOLDERS = {t.name: str(t.folder) for t in REGISTRY.page_types}
WORDS = [
    "fp8",
    "rollout",
    "ratio",
    "clip",
    "entropy",
    "gradient",
    "kv",
    "cache",
    "routing",
    "quantized",
    "trainer",
    "behavior",
    "policy",
    "drift",
    "bias",
    "variance",
    "token",
    "sequence",
    "scale",
    "block",
    "noise",
    "update",
]
DATES = {"added": datetime.date(2026, 1, 5), "updated": datetime.date(2026, 2, 10)}
PERTURBATIONS = [
    "rollout-weights",
    "rollout-activations",
    "trainer-forward",
    "kv-cache",
    "importance-ratio",
    "clipping-boundary",
    "gradients",
    "moe-routing",
]


def sentence(rng: random.Random, words: int = 12) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


# Names like the real map's: each person's own given and family name, so that the
# people check compares what it would compare on real content (one spelling pattern
# shared by every author would make every name resemble every other).
SYLLABLES = ["an", "bo", "chen", "da", "el", "fa", "gu", "hu", "ji", "ka", "li", "mo", "na",
             "or", "pe", "qi", "ru", "sa", "ti", "wen", "xu", "ya", "ze"]  # fmt: skip


def person(rng: random.Random) -> str:
    """A made-up 'Given Family' name."""
    given = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 2)))
    family = "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3)))
    return f"{given.capitalize()} {family.capitalize()}"


def counts_for(n: int) -> dict[str, int]:
    total = sum(SHARES.values())
    counts = {kind: max(1, round(n * share / total)) for kind, share in SHARES.items()}
    counts["dossier"] = max(counts["dossier"], 2)
    return counts


def generate(n: int, out: Path, seed: int = 0) -> dict[str, int]:
    """Write a content tree with about `n` entries into `out` (replacing it)."""
    rng = random.Random(seed)
    counts = counts_for(n)
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    for name in REGISTRY.single_files:
        shutil.copy(REPO / "content" / name, out / name)
    for folder in FOLDERS.values():
        (out / folder).mkdir()
    ids = {
        kind: [f"{kind.replace('_', '-')}-{i:05d}" for i in range(c)] for kind, c in counts.items()
    }
    writers = {
        "dossier": _dossier,
        "claim": _claim,
        "tension": _tension,
        "failure_mode": _failure_mode,
        "program": _program,
        "path": _path,
    }
    for kind, writer in writers.items():
        for index, entry_id in enumerate(ids[kind]):
            data = {**writer(rng, index, ids), **DATES}
            path = out / FOLDERS[kind] / f"{entry_id}.yaml"
            path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    for index, entry_id in enumerate(ids["page"]):
        front = yaml.safe_dump(
            {
                "title": f"Page {index}",
                "description": sentence(rng, 8),
                "order": 30 + index % 60,
                **DATES,
            }
        )
        body = "\n\n".join(sentence(rng, 30) for _ in range(6)) + "\n\nRelative error $2^{-8}$.\n"
        (out / "pages" / f"{entry_id}.md").write_text(f"---\n{front}---\n{body}")
    return counts


def _dossier(rng: random.Random, index: int, ids: dict[str, list[str]]) -> dict[str, object]:
    return {
        "title": f"Synthetic study {index}: {sentence(rng, 6)[:-1]}",
        "short_name": f"Syn-{index}",
        "authors": [person(rng) for _ in range(rng.randint(2, 8))],
        "date": datetime.date(2025, rng.randint(1, 12), rng.randint(1, 28)),
        "kind": "paper",
        "domain": "llm-rl",
        "read": "abstract",
        "arxiv": f"25{index // 10000:02d}.{index % 10000:05d}",
        "url": f"https://arxiv.org/abs/2501.{index:05d}",
        "core": index < 8,
        "summary": sentence(rng, 18),
        "programs": rng.sample(ids["program"], min(2, len(ids["program"]))),
        "perturbs": rng.sample(PERTURBATIONS, 2),
        "regime": {
            "models": ["Synth-8B"],
            "algorithms": ["GRPO"],
            "tasks": ["GSM8K"],
            "lengths": "8K",
            "framework": "verl + vLLM",
        },
        "result": " ".join(sentence(rng) for _ in range(4)) + " (Tab. 2)",
        "limitation": sentence(rng, 20),
        "numerical_path": [
            {"tensor": "weights", "where": "rollout", "format": "fp8"},
            {"tensor": "gradients", "where": "trainer", "format": "bf16"},
        ],
    }


def _claim(rng: random.Random, index: int, ids: dict[str, list[str]]) -> dict[str, object]:
    cited = rng.sample(ids["dossier"], min(rng.randint(1, 3), len(ids["dossier"])))
    mechanistic = len(cited) < 2 and rng.random() < 0.5
    data: dict[str, object] = {
        "statement": sentence(rng, 16),
        "label": "replicated" if len(cited) >= 2 else "mechanistic" if mechanistic else "measured",
        "sources": [
            {
                "dossier": d,
                "locator": f"Table {rng.randint(1, 9)}",
                "stance": "supports",
                "basis": "argued" if mechanistic else "measured",
            }
            for d in cited
        ],
        "scope": sentence(rng, 6),
        "programs": rng.sample(ids["program"], 1),
        "perturbs": rng.sample(PERTURBATIONS, 1),
    }
    if mechanistic:
        data["mechanism"] = sentence(rng, 10)
    else:  # a measured claim carries its number, as the real ones do
        data["measurements"] = [_measurement(rng, cited[0])]
        data["tests"] = [{"program": data["programs"][0], "outcome": rng.choice(OUTCOMES)}]  # type: ignore[index]
    # Every tenth pair of claims is a mutual conflict.
    if index % 20 in (0, 1) and index + 1 < len(ids["claim"]) + (index % 20):
        partner = ids["claim"][index + 1] if index % 20 == 0 else ids["claim"][index - 1]
        if partner != ids["claim"][index]:
            data["label"], data["conflicts_with"] = "contested", [partner]
    return data


OUTCOMES = ("supports", "contradicts")
METRICS = ("rollout-speedup", "training-speedup", "accuracy", "accuracy-change")
FORMATS = ("fp8", "nvfp4", "int8", "mxfp4")


def _measurement(rng: random.Random, dossier: str) -> dict[str, object]:
    size = rng.choice([3, 7, 8, 14, 32, 70])
    return {
        "metric": rng.choice(METRICS),
        "value": round(rng.uniform(0.8, 2.5), 2),
        "baseline": "BF16",
        "model": f"Synth-{size}B",
        "size_b": size,
        "format": rng.choice(FORMATS),
        "setting": {"task": "GSM8K", "batch": str(rng.choice([2, 8]))},
        "source": dossier,
        "locator": f"Table {rng.randint(1, 9)}",
        "read_from": "table",
    }


def _tension(rng: random.Random, index: int, ids: dict[str, list[str]]) -> dict[str, object]:
    a, b = rng.sample(ids["dossier"], 2)
    return {
        "title": f"Tension {index}?",
        "kind": "versus",
        "sides": [
            {"dossier": a, "position": sentence(rng)},
            {"dossier": b, "position": sentence(rng)},
        ],
        "summary": sentence(rng, 30),
        "boundary_candidates": ["length", "backend"],
        "claims": rng.sample(ids["claim"], 2),
        "programs": rng.sample(ids["program"], 1),
    }


def _failure_mode(rng: random.Random, index: int, ids: dict[str, list[str]]) -> dict[str, object]:
    return {
        "title": f"Failure mode {index}",
        "summary": sentence(rng),
        "featured": index == 0,
        "steps": [{"title": sentence(rng, 3)[:-1], "detail": sentence(rng, 8)} for _ in range(4)],
        "sources": [{"dossier": rng.choice(ids["dossier"]), "locator": "Fig. 3"}],
        "claims": rng.sample(ids["claim"], 2),
    }


def _program(rng: random.Random, index: int, ids: dict[str, list[str]]) -> dict[str, object]:
    return {
        "title": f"Program {index}",
        "question": sentence(rng)[:-1] + "?",
        "test": sentence(rng, 25),
        "prediction": sentence(rng),
    }


def _path(rng: random.Random, index: int, ids: dict[str, list[str]]) -> dict[str, object]:
    steps = [{"dossier": d, "note": sentence(rng, 6)} for d in rng.sample(ids["dossier"], 3)]
    return {
        "title": f"Path {index}?",
        "order": index + 1,
        "summary": sentence(rng),
        "steps": [*steps, {"stage": "claim", "claim": rng.choice(ids["claim"])}],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="Generate synthetic lowprec-map content.")
    parser.add_argument("n", type=int)
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(generate(args.n, args.out, args.seed))


if __name__ == "__main__":
    main()
