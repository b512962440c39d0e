"""The GameService conformance vectors (tests/conformance/game_*.json) are well-formed.

Checks the files, not a server: each follows the vector format
(docs/conformance.md), requests, `given_state` logs and expected answers are
valid okey.v1 protobuf JSON, no vector pins a sealed state, every position a
case needs is reached by a legal move log when read as a server reads it,
the files cover what the GameService vectors are for (each IllegalReason,
each move and event kind, a won and a drawn round, several seats' views), and
scripts/derive_vectors.py writes them byte for byte from their case table
(tests/conformance/cases/game.json).
"""

from __future__ import annotations

import base64
import json
import re
from typing import Any

import pytest
from google.protobuf import json_format
from google.protobuf.message import Message
from okey.v1 import game_pb2, tile_pb2
from okey_rules.play.game_types import CLASSIC_EVENTS, CLASSIC_MOVES, CLASSIC_REASONS
from vector_support import (
    CONFORMANCE,
    answered,
    assert_answer_or_refusal,
    assert_case_form,
    assert_derived,
    assert_header,
    load_json,
    method_cases,
    replay_given_state,
)

GAME_FILES = sorted(CONFORMANCE.glob("game_*.json"))
METHODS: dict[str, tuple[type[Message], type[Message]]] = {
    "ApplyMove": (game_pb2.ApplyMoveRequest, game_pb2.ApplyMoveResponse),
    "LegalMoves": (game_pb2.LegalMovesRequest, game_pb2.LegalMovesResponse),
    "PlayerView": (game_pb2.PlayerViewRequest, game_pb2.PlayerViewResponse),
    "Replay": (game_pb2.ReplayRequest, game_pb2.ReplayResponse),
}
EXPECTED_FILES = {
    "game_apply_move.json": "ApplyMove",
    "game_legal_moves.json": "LegalMoves",
    "game_player_view.json": "PlayerView",
    "game_replay.json": "Replay",
}


FILES = {path.name: load_json(path) for path in GAME_FILES}
# errors.proto: the reason a state that does not open is refused with, by the token's form.
TOKEN_REASONS = {
    "ERROR_REASON_TOKEN_VERSION": "another token format",
    "ERROR_REASON_UNKNOWN_KEY": "a key the server does not hold",
    "ERROR_REASON_INVALID_STATE": "a token that does not open",
}
CASES = method_cases(FILES)
CASE_IDS = [case["name"] for _, _, case in CASES]
GIVEN = [(name, case) for name, _, case in CASES if "given_state" in case]
GIVEN_IDS = [case["name"] for _, case in GIVEN]


def _responses(method: str) -> list[dict[str, Any]]:
    return [case["expect"]["response"] for case in answered(CASES, method)]


def _events() -> list[dict[str, Any]]:
    found = [e for r in _responses("ApplyMove") for e in r.get("events", [])]
    return found + [e for r in _responses("Replay") for e in r.get("events", [])]


def test_there_is_one_file_per_gameservice_method() -> None:
    assert {name: data["method"] for name, data in FILES.items()} == EXPECTED_FILES


def test_files_are_exactly_what_the_derivation_script_writes() -> None:
    # A hand edit of a vector (reason, log or answer) without its case table fails here.
    assert_derived("game", GAME_FILES)


@pytest.mark.parametrize("name", sorted(FILES))
def test_file_header_names_gameservice(name: str) -> None:
    assert_header(FILES[name], "okey.v1.GameService", "docs/rules.md")


@pytest.mark.parametrize("name", sorted(FILES))
def test_vectors_stand_alone_citing_public_documents_only(name: str) -> None:
    text = (CONFORMANCE / name).read_text(encoding="utf-8")
    assert not re.search(r"RULES\.md|DESIGN\.md|seeds? ?0\d\d|seed-0\d\d", text)


@pytest.mark.parametrize(("file", "method", "case"), CASES, ids=CASE_IDS)
def test_case_is_well_formed(file: str, method: str, case: dict[str, Any]) -> None:
    assert_case_form(file, case, "game-", r"docs/(rules|dealing)\.md|[a-z]+\.proto")


@pytest.mark.parametrize(("file", "method", "case"), CASES, ids=CASE_IDS)
def test_request_given_state_and_expectation_parse(
    file: str, method: str, case: dict[str, Any]
) -> None:
    request_type, response_type = METHODS[method]
    json_format.ParseDict(case["request"], request_type())
    if "given_state" in case:
        json_format.ParseDict(case["given_state"], game_pb2.ReplayRequest())
    # `start` is ReplayRequest's oneof: a refusal of a log with no start names it.
    assert_answer_or_refusal(case["expect"], request_type, response_type, frozenset({"start"}))


@pytest.mark.parametrize(("file", "method", "case"), CASES, ids=CASE_IDS)
def test_no_vector_pins_a_sealed_state(file: str, method: str, case: dict[str, Any]) -> None:
    """A sealed state opens under one server key only: answers may only pin that no state
    is set, and a request names a state only as one no server issued, which is refused on
    `state` with the reason the token's form gives (errors.proto)."""
    response = case["expect"].get("response", {})
    assert response.get("state", None) is None
    if "state" in case["request"]:
        error = case["expect"]["error"]
        assert error["field"] == "state"
        assert error["reason"] in TOKEN_REASONS
        assert "given_state" not in case
    assert "state" not in case.get("given_state", {}), "a given_state starts from a deal"


@pytest.mark.parametrize(("file", "method", "case"), CASES, ids=CASE_IDS)
def test_no_vector_pins_what_the_servers_key_decides(
    file: str, method: str, case: dict[str, Any]
) -> None:
    """A seeded deal's keyed id differs from server to server (state.proto RoundStatus,
    game.proto PlayerViewResponse): answers pin the deal's kind instead, and legal ones
    the round's public status."""
    response = case["expect"].get("response", {})
    text = json.dumps(response)
    assert "seededDealId" not in text
    assert "dealId" not in text
    if method == "PlayerView" and response:
        assert response["dealKind"] in ("DEAL_KIND_SEEDED", "DEAL_KIND_STACKED")
    if method in ("ApplyMove", "Replay") and response.get("legal") is True:
        assert response["status"]["dealKind"] in ("DEAL_KIND_SEEDED", "DEAL_KIND_STACKED")
    if method == "ApplyMove" and response.get("legal") is False:
        assert response["status"] is None


@pytest.mark.parametrize(("file", "case"), GIVEN, ids=GIVEN_IDS)
def test_given_state_is_a_legal_log_from_a_seeded_deal(file: str, case: dict[str, Any]) -> None:
    """Read as a server reads a ReplayRequest, the log reaches its position: every move legal."""
    replay_given_state(case["given_state"])


def test_every_illegal_reason_is_pinned_by_an_applymove_case() -> None:
    pinned = {r["reason"] for r in _responses("ApplyMove") if r["legal"] is False}
    # Classic rounds' reasons: game_*.json plays classic Okey (Okey 101 has its own files).
    every = {f"ILLEGAL_REASON_{reason.name}" for reason in CLASSIC_REASONS}
    assert pinned == every


def test_every_move_kind_is_applied_legally_and_offered() -> None:
    every = {f"MOVE_KIND_{kind.name}" for kind in CLASSIC_MOVES}
    applied = {
        c["request"]["move"]["kind"]
        for _, m, c in CASES
        if m == "ApplyMove" and c["expect"].get("response", {}).get("legal") is True
    }
    offered = {move["kind"] for r in _responses("LegalMoves") for move in r["moves"]}
    assert applied == every
    assert offered == every


def test_every_event_kind_is_expected_with_its_tile_rule() -> None:
    events = _events()
    assert {e["kind"] for e in events} == {f"EVENT_KIND_{kind.name}" for kind in CLASSIC_EVENTS}
    for event in events:
        # game.proto Event: a wall draw is private; the tile is there when one is involved.
        assert event["private"] is (event["kind"] == "EVENT_KIND_DREW_FROM_WALL")
        no_tile = event["kind"] in ("EVENT_KIND_TURN_TIMED_OUT", "EVENT_KIND_ROUND_DRAWN")
        assert (event["tile"] is None) is no_tile
        ends = event["kind"] in ("EVENT_KIND_ROUND_WON", "EVENT_KIND_ROUND_DRAWN")
        assert ("outcome" in event) is ends


def test_a_won_and_a_drawn_round_are_replayed_whole() -> None:
    legal = [r for r in _responses("Replay") if r["legal"]]
    last_kinds = {r["events"][-1]["kind"] for r in legal if r["events"]}
    assert {"EVENT_KIND_ROUND_WON", "EVENT_KIND_ROUND_DRAWN"} <= last_kinds
    illegal = [r for r in _responses("Replay") if not r["legal"]]
    # The first illegal move's index, with the moves before it applied.
    assert any(r["illegalIndex"] > 0 for r in illegal)
    assert all(r["illegalIndex"] == r["movesApplied"] for r in illegal)


def test_expected_tiles_name_their_copy() -> None:
    """A tile in an answer is one physical tile: the vectors pin its copy, not just its face."""

    def tiles(value: Any) -> list[dict[str, Any]]:
        if isinstance(value, dict):
            if "number" in value or "falseJoker" in value:
                return [value]
            return [t for v in value.values() for t in tiles(v)]
        if isinstance(value, list):
            return [t for v in value for t in tiles(v)]
        return []

    found = [t for _, _, c in CASES for t in tiles(c["expect"].get("response", {}))]
    assert found
    assert all("copy" in t for t in found)


def test_player_views_show_only_the_viewers_rack() -> None:
    """docs/rules.md §8.7: the answer's one rack is the viewer's; other seats are counts and
    piles (whole for one's own and the previous seat's pile, else only the top)."""
    tile_fields = [
        f.name
        for f in game_pb2.PlayerViewResponse.DESCRIPTOR.fields
        if f.message_type is tile_pb2.Tile.DESCRIPTOR and f.is_repeated
    ]
    assert tile_fields == ["rack"]
    views = _responses("PlayerView")
    for view in views:
        seats = view["seats"]
        players = view["playerCount"]
        assert [s["seat"] for s in seats] == list(range(players))
        assert len(view["rack"]) == seats[view["seat"]]["rackSize"]
        for seat in seats:
            whole = seat["seat"] in (view["seat"], (view["seat"] - 1) % players)
            assert seat["wholePile"] is whole
            shown = seat["discardCount"] if whole else min(seat["discardCount"], 1)
            assert len(seat["discards"]) == shown
    # Several seats of one table, and a two-player table.
    assert {v["seat"] for v in views if v["playerCount"] == 4} == {0, 1, 2, 3}
    assert {v["seat"] for v in views if v["playerCount"] == 2} == {0, 1}
    assert any(not s["wholePile"] and s["discardCount"] > 1 for v in views for s in v["seats"])
    assert any(v["turnDeadline"] is not None for v in views)
    assert {bool(v["outcome"] and v["outcome"]["drawn"]) for v in views if v["outcome"]} == {
        True,
        False,
    }


def test_no_file_holds_a_state_a_server_could_open() -> None:
    """The states in requests are tokens no server issued: another format (first byte not
    1), a key id of 0 (no key of the tests has it) or too short to be sealed."""
    forged = [
        base64.b64decode(c["request"]["state"]) for _, _, c in CASES if "state" in c["request"]
    ]
    assert {
        TOKEN_REASONS[c["expect"]["error"]["reason"]]
        for _, _, c in CASES
        if "state" in c["request"]
    } == set(TOKEN_REASONS.values())
    for token in forged:
        assert token[0] != 1 or token[1:5] == bytes(4) or len(token) < 5 + 16


def test_stacked_positions_are_played() -> None:
    """deal.proto DealRequest.stacked: a case of every method starts from a stacked deal."""
    for method in METHODS:
        assert any(
            "stacked" in (c.get("given_state") or c["request"]).get("deal", {})
            for _, m, c in CASES
            if m == method
        ), method
