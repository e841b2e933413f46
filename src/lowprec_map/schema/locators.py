"""Locators name a place: where in a work a reader finds what a source is cited for.

A locator's kind is derived from how it is written, never typed: "Tab. 2" is a
table, "Fig. 4" a figure, "§5.1" a numbered section, "Blog, § Results" a blog's
section, "PR comment of 2025-12-02" a pull request's comment (with its date),
"Commit dbc8315 message" a commit (with its hash). A locator that names no
place ("§", "§ PR", "Docs, PR", "Blog") is an error at its line, and so is a
PR comment without its date or a commit without its hash.
"""

from __future__ import annotations

import re

# (kind, how a locator of that kind is written), tried in order: the first match decides.
LOCATOR_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern))
    for kind, pattern in (
        ("abstract", r"^(Abstract|Title page)\b"),
        ("table", r"^(Table|Tab\.)"),
        ("figure", r"^(Figure|Fig\.)"),
        ("appendix", r"^(Appendix|App\.)"),
        ("equation", r"^Eq\."),
        ("algorithm", r"^Algorithm"),
        ("PR or issue comment", r"\b[Cc]omments?\b"),
        ("commit", r"\b[Cc]ommits?\b"),
        ("PR or issue description", r"\b(PR|[Ii]ssue)\b.*\bdescription\b|What does this PR do"),
        ("PR diff", r"\bPR #\d+ diff\b"),
        ("blog section", r"^Blog\b"),
        ("docs section", r"^Docs\b"),
        ("README section", r"^README\b"),
        ("release notes section", r"^Release notes\b"),
        ("section", r"^(§\s*\d|Section\s*\d)"),
        ("summary", r"^TL;DR"),
        ("named section", r"^§\s*\S"),
    )
)
DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
COMMIT_HASH = re.compile(r"\b[0-9a-f]{7,40}\b")
# Words that name a medium, not a place in it: "§ PR" or "Docs, PR" says only where to start.
_MEDIUM_WORDS = {
    "pr",
    "issue",
    "blog",
    "docs",
    "readme",
    "page",
    "paper",
    "post",
    "section",
    "release",
    "notes",
}
_PREFIX = re.compile(r"^(Blog|Docs|README|Release notes)\b[,;:]?\s*|^§\s*")


# A blog's, docs page's or README's table or figure is a table or a figure all the same.
_MEDIA = ("blog section", "docs section", "README section", "release notes section")


def locator_kind(locator: str) -> str:
    """What a locator points at, from how it is written: 'table', 'figure', 'abstract'..."""
    for kind, pattern in LOCATOR_KINDS:
        if pattern.search(locator):
            if kind in _MEDIA:
                inner = locator_kind(_PREFIX.sub("", locator, count=1))
                return inner if inner in ("table", "figure") else kind
            return kind
    return "other"


# Kinds a locator's own first word already names ('Tab. 2' is plainly a table).
_EVIDENT = ("abstract", "table", "figure", "appendix", "equation", "algorithm", "section")


def shown_kind(locator: str) -> str | None:
    """The kind to show beside a locator, or None when its own first words name it."""
    kind = locator_kind(locator)
    for evident in _EVIDENT:
        if kind == evident and dict(LOCATOR_KINDS)[evident].match(locator):
            return None
    return kind


def locator_problem(locator: str) -> str | None:
    """Why `locator` names no place a reader can find, or None when it names one."""
    kind = locator_kind(locator)
    if kind == "other":
        return (
            f"locator '{locator}' names no place: start with where, e.g. 'Abstract', "
            "'Tab. 2', 'Fig. 4', '§5.1', 'App. D', 'Blog, § <section>', 'Docs, § <section>', "
            "'README, § <section>', '§ PR description', 'PR comment of YYYY-MM-DD'"
        )
    rest = _PREFIX.sub("", locator.strip())
    # A number alone is a place only as a section's ('§5'); 'PR #5190' names the PR.
    words = [w for w in re.split(r"[\s,;:#§()]+", rest.lower()) if w and not w.isdigit()]
    if kind != "section" and (not words or set(words) <= _MEDIUM_WORDS):
        return (
            f"locator '{locator}' names no place: say where in it, e.g. '§ PR description', "
            "'PR comment of YYYY-MM-DD', 'Commit <hash> message', 'Blog, § <section title>'"
        )
    if kind == "PR or issue comment" and not DATE.search(locator):
        return f"locator '{locator}' names a comment: give its date (YYYY-MM-DD)"
    if kind == "commit" and not COMMIT_HASH.search(locator):
        return f"locator '{locator}' names a commit: give its hash (7 or more hex digits)"
    return None


def checked_locator(locator: str) -> str:
    """`locator` itself, or a ValueError saying why it names no place (a field validator)."""
    problem = locator_problem(locator)
    if problem is not None:
        raise ValueError(problem)
    return locator
