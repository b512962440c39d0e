"""`okey conformance run`: runs the conformance vectors against a server and reports."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from okey_cli import conformance, rpc
from okey_cli.errors import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, CliError

DEFAULT_DIR = Path("tests/conformance")
# The repository's own vectors, for a run from outside the checkout (editable install).
_REPO_DIR = Path(__file__).resolve().parents[3] / "tests" / "conformance"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "conformance", help="conformance vectors", description="Conformance vectors."
    )
    commands = parser.add_subparsers(dest="conformance_command", metavar="COMMAND", required=True)
    run = commands.add_parser(
        "run",
        help="run the vectors against a server",
        description=(
            "Runs every case of every *.json vector file in --dir against a server speaking "
            "okey.v1; prints PASS/FAIL per case and a summary line 'N passed, N failed'. "
            "A case with given_state reaches its GameState through GameService/Replay first "
            "(docs/conformance.md). "
            "Exits 0 when every selected case passed, 1 when one failed or none ran."
        ),
    )
    run.add_argument(
        "--dir", type=Path, default=None, help=f"the vector directory (default: ./{DEFAULT_DIR})"
    )
    run.add_argument(
        "--filter",
        metavar="SUBSTRING",
        default=None,
        help="only cases whose name or suite contains SUBSTRING",
    )
    run.add_argument(
        "--json",
        action="store_true",
        help="print the results as one JSON object (summary line on stderr)",
    )
    rpc.add_server_options(run)
    run.set_defaults(func=run_vectors)


def vector_dir(given: Path | None) -> Path:
    if given is not None:
        return given
    return DEFAULT_DIR if DEFAULT_DIR.is_dir() or not _REPO_DIR.is_dir() else _REPO_DIR


def summary(results: list[conformance.CaseResult]) -> str:
    passed = sum(1 for r in results if r.passed)
    return f"{passed} passed, {len(results) - passed} failed"


def _text_report(results: list[conformance.CaseResult]) -> None:
    for result in results:
        case = result.case
        if result.passed:
            print(f"PASS {case.name}")
            continue
        print(f"FAIL {case.name}  ({case.file})")
        print(f"     reason: {case.reason}")
        for problem in result.problems:
            print(f"     - {problem}")


def _json_report(results: list[conformance.CaseResult], address: str) -> None:
    report = {
        "server": address,
        "passed": sum(1 for r in results if r.passed),
        "failed": sum(1 for r in results if not r.passed),
        "cases": [
            {
                "name": r.case.name,
                "suite": r.case.suite,
                "file": str(r.case.file),
                "passed": r.passed,
                "problems": r.problems,
            }
            for r in results
        ],
    }
    print(json.dumps(report, indent=2, ensure_ascii=False))


def run_vectors(args: argparse.Namespace) -> int:
    try:
        cases = conformance.select(conformance.load_dir(vector_dir(args.dir)), args.filter)
    except conformance.VectorError as error:
        raise CliError(f"bad conformance vectors: {error}", EXIT_BAD_INPUT) from None
    address = rpc.server_address(args)
    with rpc.open_channel(address) as channel:
        try:
            results = conformance.Runner(channel, address, args.timeout).run(cases)
        except conformance.UnreachableError:
            raise rpc.unreachable(address) from None
    if args.json:
        _json_report(results, address)
        print(summary(results), file=sys.stderr)
    else:
        _text_report(results)
        print(summary(results))
    if not results:
        print("okey: no conformance case was selected", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK if all(r.passed for r in results) else EXIT_FAILED
