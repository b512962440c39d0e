"""The CheckHand conformance vectors (tests/conformance/hand_*.json) are well-formed.

Checks the files themselves, not any engine: each parses, follows the vector
format the conformance runner reads, and every request and expected response
is valid okey.v1 protobuf JSON. It also pins the conventions the vectors
promise (kinds in enum order, winning discards distinct and in tile order).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import json_format
from okey.v1 import hand_pb2, tile_pb2
from vector_support import CONFORMANCE, KEBAB, field_head, file_case_ids, file_cases, load_json

HAND_FILES = sorted(CONFORMANCE.glob("hand_*.json"))
# At least 150 CheckHand cases covering docs/rules.md §3-4.
MIN_HAND_CASES = 150
# Proto field names (snake_case) a CheckHand violation may name, with an index suffix.
REQUEST_FIELDS = {f.name for f in hand_pb2.CheckHandRequest.DESCRIPTOR.fields}
STATUS_CODES = {code.name for code in grpc.StatusCode}


CASES = file_cases(HAND_FILES)
CASE_IDS = file_case_ids(CASES)


def _tile_order(tile: dict[str, Any]) -> tuple[int, int]:
    """Sort key in the vectors' tile order: R, Y, B, K, numbers up, false joker last."""
    if tile.get("falseJoker"):
        return (99, 0)
    color = tile_pb2.Color.Value(tile["color"])
    return (color, tile["number"])


def test_there_are_hand_vector_files() -> None:
    assert HAND_FILES, f"no hand_*.json under {CONFORMANCE}"


@pytest.mark.parametrize("path", HAND_FILES, ids=[p.name for p in HAND_FILES])
def test_file_header_names_checkhand(path: Path) -> None:
    data = load_json(path)
    assert set(data) == {"suite", "source", "service", "method", "cases"}
    assert data["service"] == "okey.v1.HandService"
    assert data["method"] == "CheckHand"
    assert data["suite"].strip()
    # The source cites the rules page the cases come from.
    assert "docs/rules.md" in data["source"] or "proto" in data["source"]
    assert isinstance(data["cases"], list)
    assert data["cases"]


def test_case_names_are_unique_across_files() -> None:
    names = [case["name"] for _, case in CASES]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    assert not duplicates


def test_issue_4_asks_for_at_least_150_hand_cases() -> None:
    assert len(CASES) >= MIN_HAND_CASES


@pytest.mark.parametrize(("file", "case"), CASES, ids=CASE_IDS)
def test_case_is_well_formed(file: str, case: dict[str, Any]) -> None:
    assert set(case) == {"name", "reason", "request", "expect"}, file
    assert KEBAB.fullmatch(case["name"])
    # Each case says which rule it pins.
    reason = case["reason"]
    assert isinstance(reason, str)
    assert reason.strip()
    assert "\n" not in reason
    # The vectors stand alone: they cite the project's own docs and protos.
    assert "docs/rules.md" in reason or ".proto" in reason, reason


@pytest.mark.parametrize("path", HAND_FILES, ids=[p.name for p in HAND_FILES])
def test_vectors_cite_no_internal_notes(path: Path) -> None:
    """A vector is read by people without this project's planning notes."""
    text = path.read_text(encoding="utf-8")
    assert not re.search(r"RULES\.md|DESIGN\.md|seeds? 00[0-9]", text)


@pytest.mark.parametrize(("file", "case"), CASES, ids=CASE_IDS)
def test_request_parses_as_checkhandrequest(file: str, case: dict[str, Any]) -> None:
    # ParseDict rejects unknown field names and bad enum names.
    json_format.ParseDict(case["request"], hand_pb2.CheckHandRequest())


@pytest.mark.parametrize(("file", "case"), CASES, ids=CASE_IDS)
def test_expect_has_exactly_one_of_response_or_error(file: str, case: dict[str, Any]) -> None:
    expect = case["expect"]
    assert len(expect) == 1
    assert set(expect) <= {"response", "error"}
    if "error" in expect:
        error = expect["error"]
        assert set(error) <= {"code", "field"}
        assert error["code"] in STATUS_CODES
        if "field" in error:
            assert field_head(error["field"]) in REQUEST_FIELDS
    else:
        # The expected subset must itself be valid CheckHandResponse JSON.
        json_format.ParseDict(expect["response"], hand_pb2.CheckHandResponse())
        assert "winning" in expect["response"]


@pytest.mark.parametrize(("file", "case"), CASES, ids=CASE_IDS)
def test_expected_kinds_follow_the_convention(file: str, case: dict[str, Any]) -> None:
    response = case["expect"].get("response")
    if response is None or "kinds" not in response:
        return
    kinds = [hand_pb2.WinKind.Value(k) for k in response["kinds"]]
    assert kinds == sorted(set(kinds)), "kinds are distinct and in enum order"
    # docs/rules.md §4.4: kind is the best way (kafa > seven pairs > melds), i.e. the last.
    assert response["winning"] is bool(kinds)
    assert hand_pb2.WinKind.Value(response["kind"]) == kinds[-1]


@pytest.mark.parametrize(("file", "case"), CASES, ids=CASE_IDS)
def test_expected_discards_are_distinct_and_in_tile_order(
    file: str, case: dict[str, Any]
) -> None:
    response = case["expect"].get("response")
    if response is None or "winningDiscards" not in response:
        return
    discards = response["winningDiscards"]
    keys = [_tile_order(d["tile"]) for d in discards]
    assert keys == sorted(set(keys))
    assert response["winning"] is bool(discards)
    # An okey discard is flagged, and then the double is on.
    flagged = [d for d in discards if d.get("okey")]
    assert response.get("okeyDiscardWins", False) is bool(flagged)
    assert len(flagged) <= 1
