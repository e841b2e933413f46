"""Command line: the only module that prints and picks exit codes.

Each command imports what only it needs (rendering for `build`, the skeletons for
`new` and `schema`) when it runs: `check`, which CI and the pre-commit hook run
most, starts without Jinja, Markdown and the page code.

Exit codes: 0 success, 1 content errors (or warnings under --strict), 2 usage errors,
130 interrupted (Ctrl-C).

"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from pydantic import TypeAdapter, ValidationError

from lowprec_map.content.check import check
from lowprec_map.content.project import SCHEMA_DIR, Project
from lowprec_map.errors import ContentError, Problem, problems_json
from lowprec_map.output.write import OutputDirError
from lowprec_map.registry import REGISTRY, type_name
from lowprec_map.schema.fields import WebUrl

EXIT_OK, EXIT_CONTENT, EXIT_USAGE = 0, 1, 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report it


def make_parser() -> argparse.ArgumentParser:
    """The argument parser for every command."""
    parser = argparse.ArgumentParser(
        prog="lowprec-map", description="Build and check Low-Precision RL, a living research map."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    build_cmd = commands.add_parser("build", help="check the content and build the site")
    _content_options(build_cmd)
    build_cmd.add_argument("--out", type=Path, default=Path("_site"), help="output folder")
    build_cmd.add_argument("--base-url", help="published root URL (overrides site.yaml's)")
    build_cmd.add_argument(
        "--offline",
        action="store_true",
        help="links name files (…/index.html), so the site also works opened from a folder",
    )
    check_cmd = commands.add_parser("check", help="validate the content only (for CI)")
    _content_options(check_cmd)
    check_cmd.add_argument("--format", choices=("text", "json"), default="text")
    serve_cmd = commands.add_parser("serve", help="build, serve and rebuild on save")
    _content_options(serve_cmd)
    serve_cmd.add_argument(
        "--out",
        type=Path,
        help="preview folder (default: .lowprec-cache/serve beside the content, never "
        "build's _site)",
    )
    serve_cmd.add_argument(
        "--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1)"
    )
    serve_cmd.add_argument("--port", type=_port, default=8000, help="port (default: 8000)")
    serve_cmd.add_argument(
        "--explain",
        action="store_true",
        help="after each save, say which facts changed and why each page was redrawn or not",
    )
    new_cmd = commands.add_parser("new", help="scaffold an entry that validates as written")
    new_cmd.add_argument(
        "type",
        choices=sorted(REGISTRY.by_slug),
        metavar="TYPE",
        help=", ".join(sorted(REGISTRY.by_slug)),
    )
    new_cmd.add_argument("id", metavar="ID", help="the new entry's id (a slug)")
    new_cmd.add_argument("--content", type=Path, default=Path("content"), help="content folder")
    schema_cmd = commands.add_parser("schema", help="write one JSON Schema per content type")
    schema_cmd.add_argument("--out", type=Path, default=Path(SCHEMA_DIR), help="output folder")
    return parser


def _port(text: str) -> int:
    """A TCP port to listen on, 1 to 65535 (the OS would pick another port for others)."""
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"must be a port from 1 to 65535, not '{text}'")
    return int(text)


def _content_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--content", type=Path, default=Path("content"), help="content folder")
    command.add_argument("--strict", action="store_true", help="treat warnings as errors")
    command.add_argument(
        "--templates", type=Path, help="templates folder (default: beside content)"
    )
    command.add_argument("--static", type=Path, help="static folder (default: beside content)")


def main(argv: Sequence[str] | None = None) -> int:
    """Run a command; returns the exit code."""
    args = make_parser().parse_args(argv)
    if args.command == "schema":
        return _schema(args.out)
    if args.command == "new":
        return _new(args.content, args.type, args.id)
    project = Project.beside(args.content)
    project = Project(
        args.content, args.templates or project.templates, args.static or project.static
    )
    if args.command == "check":
        return _check(project, args.strict, args.format)
    missing = project.missing_theme()
    if missing:
        print(f"lowprec-map: error: {missing}", file=sys.stderr)
        return EXIT_USAGE
    if args.command == "serve":
        return _serve(project, args.out or project.preview, args.host, args.port, args.explain)
    return _build(project, args.out, args.strict, args.base_url, args.offline)


def _check(project: Project, strict: bool, output_format: str) -> int:
    started = time.perf_counter()
    result = check(project.content)
    failed = bool(result.errors or (strict and result.warnings))
    if output_format == "json":
        print(problems_json(result.problems))
        return EXIT_CONTENT if failed else EXIT_OK
    _print_problems(result.problems)
    if failed:
        print(_failure_line(result.problems), file=sys.stderr)
        return EXIT_CONTENT
    counts = result.graph.counts()
    print(f"ok: {_counts_text(counts)} ({time.perf_counter() - started:.2f} s)")
    return EXIT_OK


def _schema(out: Path) -> int:
    if out.exists() and not out.is_dir():
        print(f"lowprec-map: error: {out} exists and is not a folder", file=sys.stderr)
        return EXIT_USAGE
    try:
        from lowprec_map.dev.scaffold import write_schemas  # noqa: PLC0415 - see the docstring

        written = write_schemas(out)
    except OSError as exc:
        print(f"lowprec-map: error: {exc.strerror or exc}: {exc.filename or out}", file=sys.stderr)
        return EXIT_USAGE
    for path in written:
        print(path)
    return EXIT_OK


def _new(content: Path, type_name: str, entry_id: str) -> int:
    from lowprec_map.dev.scaffold import ScaffoldError, new_entry  # noqa: PLC0415 - docstring

    result = check(content)
    try:
        path = new_entry(result.graph, content, type_name, entry_id)
    except ScaffoldError as exc:
        print(f"lowprec-map: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    print(f"wrote {path}; edit it, then run: lowprec-map check")
    return EXIT_OK


def _serve(project: Project, out: Path, host: str, port: int, explain: bool) -> int:
    from lowprec_map.dev.serve import serve  # noqa: PLC0415 - tornado loads only for the dev server

    try:
        serve(project, out, host, port, explain)
    except OutputDirError as exc:
        print(f"lowprec-map: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as exc:
        if exc.filename:  # the output folder, not the address
            print(f"lowprec-map: error: {exc.strerror}: {exc.filename}", file=sys.stderr)
        else:
            message = f"cannot serve on {host}:{port}: {exc.strerror}"
            print(f"lowprec-map: error: {message}", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_OK


def _build(
    project: Project, out: Path, strict: bool, base_url: str | None = None, offline: bool = False
) -> int:
    if base_url is not None and not _is_web_url(base_url):
        print(
            f"lowprec-map: error: --base-url must be an http(s) URL, not '{base_url}'",
            file=sys.stderr,
        )
        return EXIT_USAGE
    try:
        from lowprec_map.pipeline import build  # noqa: PLC0415 - see the module docstring

        report = build(project, out, strict, base_url, offline)
    except OutputDirError as exc:
        print(f"lowprec-map: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except ContentError as exc:
        _print_problems(exc.problems)
        print(_failure_line(exc.problems) + f"; {out} left unchanged", file=sys.stderr)
        return EXIT_CONTENT
    except OSError as exc:  # the output folder cannot be written: no room, no permission, ...
        where = f": {exc.filename}" if exc.filename else ""
        reason = exc.strerror or str(exc)
        print(f"lowprec-map: error: {reason}{where}; {out} left unchanged", file=sys.stderr)
        return EXIT_USAGE
    _print_problems(report.warnings)
    print(
        f"built {report.pages} pages ({report.files} files) from {_counts_text(report.counts)} "
        f"into {out} in {report.seconds:.2f} s"
    )
    return EXIT_OK


def _is_web_url(text: str) -> bool:
    try:
        TypeAdapter(WebUrl).validate_python(text)
    except ValidationError:
        return False
    return True


def _print_problems(problems: list[Problem]) -> None:
    for problem in problems:
        print(problem.format(), file=sys.stderr)


def _failure_line(problems: list[Problem]) -> str:
    errors = sum(1 for p in problems if p.severity == "error")
    warnings = len(problems) - errors
    return f"failed: {errors} error(s), {warnings} warning(s)"


def _counts_text(counts: Counter[str]) -> str:
    parts = []
    # The entries with pages, then the vocabularies.
    for entry_type in (*(t.name for t in REGISTRY.page_types), "evidence", "perturbation"):
        name = type_name(entry_type)
        n = counts.get(entry_type, 0)
        parts.append(f"{n} {name}{'' if n == 1 else 's'}")
    return ", ".join(parts)


def run(argv: Sequence[str] | None = None) -> NoReturn:
    """The console entry point: `main`, with Ctrl-C as one line and exit code 130."""
    try:
        code = main(argv)
    except KeyboardInterrupt:  # the stages' own cleanup has already run
        print("lowprec-map: interrupted", file=sys.stderr)
        code = EXIT_INTERRUPTED
    sys.exit(code)


if __name__ == "__main__":  # pragma: no cover
    run()
