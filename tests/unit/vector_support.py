"""What the conformance-vector checks (tests/unit/test_*vectors_wellformed.py) share.

Reading the vector files (tests/conformance/*.json, format in docs/conformance.md)
and their cases, picking cases by method, holding the files to what
scripts/derive_vectors.py writes from their case table byte for byte, the file
header, the case form and expectation the GameService and ScoringService files
share, and replaying a case's `given_state` as a server reads it.
"""

from __future__ import annotations

import importlib
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from google.protobuf import json_format
from google.protobuf.message import Message
from okey.v1 import errors_pb2, game_pb2
from okey_rules.play.game import replay
from okey_rules.play.game_types import ReplayResult
from okey_server.services.deal_request import deal_for_request
from okey_server.wire.convert_game import clock_ms, move_from_proto

ROOT = Path(__file__).resolve().parents[2]
CONFORMANCE = ROOT / "tests" / "conformance"
SCRIPTS = ROOT / "scripts"
KEBAB = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
# Any key will do for reading a log: the sealed token is not what is checked here.
KEY = b"test key for reading vector logs"
# The keys of a vector file, in docs/conformance.md's format (the CheckHand files have no notes).
HEADER_KEYS = {"suite", "source", "service", "method", "notes", "cases"}

# scripts/derive_vectors.py imports its siblings (vector_json, the referees) as it does when
# run from scripts/; appended, so nothing there shadows an installed module.
if str(SCRIPTS) not in sys.path:
    sys.path.append(str(SCRIPTS))

Case = dict[str, Any]
MethodCase = tuple[str, str, Case]  # (file name, method, case)


def load_json(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def file_cases(paths: Sequence[Path]) -> list[tuple[str, Case]]:
    """Every case of the files, with its file's name, in file order."""
    return [(path.name, case) for path in paths for case in load_json(path)["cases"]]


def file_case_ids(cases: Sequence[tuple[str, Case]]) -> list[str]:
    """Test ids: a case's name, or its file and index where it has none (still reported)."""
    return [case.get("name", f"{file}#{i}") for i, (file, case) in enumerate(cases)]


def method_cases(files: dict[str, dict[str, Any]]) -> list[MethodCase]:
    """Every case of the files (by file name), with its file's name and method."""
    return [(name, data["method"], case) for name, data in files.items() for case in data["cases"]]


def answered(cases: Sequence[MethodCase], method: str) -> list[Case]:
    """The cases of one method that expect an answer, not a refusal."""
    return [case for _, m, case in cases if m == method and "response" in case["expect"]]


def field_head(field: str) -> str:
    """The request field a refusal's field path starts at: `hand.tiles[1].color` -> `hand`."""
    return re.split(r"[.\[]", field, maxsplit=1)[0]


def duplicate_case_names() -> list[str]:
    """docs/conformance.md: case names are unique across every file of the directory."""
    names = [c["name"] for p in sorted(CONFORMANCE.glob("*.json")) for c in load_json(p)["cases"]]
    return sorted({n for n in names if names.count(n) > 1})


def script(name: str) -> ModuleType:
    """A module of scripts/ (derive_vectors, deal_referee, ...), imported by its name."""
    return importlib.import_module(name)


def assert_derived(suite: str, paths: Sequence[Path]) -> None:
    """The files are exactly what scripts/derive_vectors.py writes from the case table
    tests/conformance/cases/<suite>.json: no more, no fewer, byte for byte. A hand edit of a
    vector without its case table fails here; so does a case the engine and the case table
    (or the suite's referee) disagree on, as the deriver stops."""
    texts = script("derive_vectors").file_texts([CONFORMANCE / "cases" / f"{suite}.json"])
    assert sorted(texts) == sorted(path.name for path in paths)
    for path in paths:
        assert path.read_text(encoding="utf-8") == texts[path.name], (
            f"regenerate {path.name}: scripts/derive_vectors.py --write tests/conformance"
        )


def assert_header(data: dict[str, Any], service: str, source_cites: str) -> None:
    """A file's header: the format's keys, the service, the document its source cites, cases."""
    assert set(data) == HEADER_KEYS
    assert data["service"] == service
    assert source_cites in data["source"]
    assert data["cases"]


def assert_case_form(file: str, case: Case, prefix: str, cites: str) -> None:
    """docs/conformance.md: these keys, given_state optional, in this order when written; a
    kebab-case name with the file's prefix; a one-line reason citing the rule (`cites`)."""
    assert list(case) in (
        ["name", "reason", "request", "expect"],
        ["name", "reason", "given_state", "request", "expect"],
    ), file
    assert KEBAB.fullmatch(case["name"])
    assert case["name"].startswith(prefix)
    reason = case["reason"]
    assert reason.strip()
    assert "\n" not in reason
    assert re.search(cites, reason), reason


def assert_answer_or_refusal(
    expect: dict[str, Any],
    request_type: type[Message],
    response_type: type[Message],
    other_heads: frozenset[str] = frozenset(),
) -> None:
    """An expectation is one answer that parses as the response, or one INVALID_ARGUMENT
    refusal naming a field of the request (or one of `other_heads`: a oneof's name)."""
    assert len(expect) == 1
    if "response" in expect:
        json_format.ParseDict(expect["response"], response_type())
        return
    error = expect["error"]
    # docs/conformance.md: `reason`, the ErrorInfo reason, is optional.
    assert {"code", "field"} <= set(error) <= {"code", "field", "reason"}
    assert error["code"] == "INVALID_ARGUMENT"
    assert (
        error.get("reason", "ERROR_REASON_INVALID_INPUT")
        in errors_pb2.ErrorReason.DESCRIPTOR.values_by_name
    )
    head = field_head(error["field"])
    assert head in request_type.DESCRIPTOR.fields_by_name or head in other_heads


def replay_given_state(given_state: dict[str, Any]) -> ReplayResult:
    """Read as a server reads a ReplayRequest: a seeded or stacked deal (a vector cannot hold
    a sealed state), then the log, every move legal."""
    request = json_format.ParseDict(given_state, game_pb2.ReplayRequest())
    assert request.WhichOneof("start") == "deal"
    assert request.deal.seed or request.deal.HasField("stacked")
    state = deal_for_request(request.deal, KEY).state
    log = [
        (move_from_proto(entry.move, f"moves[{i}].move"), clock_ms(entry))
        for i, entry in enumerate(request.moves)
    ]
    result = replay(state, log)
    assert result.legal, f"move {result.illegal_index}: {result.reason} ({result.message})"
    return result
