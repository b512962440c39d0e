"""The Okey 101 conformance vectors (tests/conformance/game101_*.json, scoring101_*.json) are
well-formed.

Checks the files, not a server: each follows the vector format
(docs/conformance.md); requests, `given_state` logs and expected answers are
valid okey.v1 protobuf JSON; no vector pins a sealed state; every position a
case needs is reached by a legal move log from a seeded Okey 101 deal when
read as a server reads it; the files cover what they are for (docs/rules.md
§10: every Okey 101 IllegalReason reachable through legal play, every
penalty as an event, each 101 move and event kind, a finished, an exhausted
and a void round, views of the table, ScoreRound of finished states adding
up); and scripts/derive_vectors.py writes them byte for byte from their case table
(tests/conformance/cases/game101.json).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format
from google.protobuf.message import Message
from okey.v1 import game_pb2, scoring_pb2, tile_pb2
from okey_rules.play.game101 import apply_move_101, replay_101
from okey_rules.play.game101_types import (
    OKEY_101_EVENTS,
    OKEY_101_MOVES,
    OKEY_101_REASONS,
    State101,
)
from okey_rules.play.round_types import Penalty, Phase
from okey_rules.play.turns import previous_seat
from okey_rules.ruleset import Game
from okey_server.services.deal_request import deal_for_request
from okey_server.wire.convert_game import move_from_proto
from vector_support import assert_derived

ROOT = Path(__file__).resolve().parents[2]
CONFORMANCE = ROOT / "tests" / "conformance"
VECTOR_FILES = sorted([*CONFORMANCE.glob("game101_*.json"), *CONFORMANCE.glob("scoring101_*.json")])
METHODS: dict[str, tuple[type[Message], type[Message]]] = {
    "ApplyMove": (game_pb2.ApplyMoveRequest, game_pb2.ApplyMoveResponse),
    "LegalMoves": (game_pb2.LegalMovesRequest, game_pb2.LegalMovesResponse),
    "PlayerView": (game_pb2.PlayerViewRequest, game_pb2.PlayerViewResponse),
    "Replay": (game_pb2.ReplayRequest, game_pb2.ReplayResponse),
    "ScoreRound": (scoring_pb2.ScoreRoundRequest, scoring_pb2.ScoreRoundResponse),
}
EXPECTED_FILES = {
    "game101_apply_move.json": "ApplyMove",
    "game101_legal_moves.json": "LegalMoves",
    "game101_player_view.json": "PlayerView",
    "game101_replay.json": "Replay",
    "scoring101_round.json": "ScoreRound",
}
PREFIX = {
    "ApplyMove": "game101-apply-",
    "LegalMoves": "game101-legal-",
    "PlayerView": "game101-view-",
    "Replay": "game101-replay-",
    "ScoreRound": "score101-round-",
}
# Reasons no legal play from a seeded deal reaches (docs/rules.md §10.1, §10.6): only a
# crafted state, which no server signs, could ask for them.
UNREACHABLE_REASONS = {
    # A discard that empties the bank ends the round: no seat is ever to draw, or to return
    # a taken discard for a bank tile, with the bank empty.
    "WALL_EMPTY",
    # A seat's pile always holds the discard that ended its turn when the next seat draws
    # (a taken tile goes back onto it, never elsewhere).
    "DISCARD_PILE_EMPTY",
}
# docs/rules.md §10.8: the variants, each off in the 101 preset, that deals set.
VARIANTS = {"progressiveOpening", "riziko", "okeyRetrieval", "layOffCap", "partnershipWaiver"}
# game.proto Event, for Okey 101: which events name one `tile`, several `tiles`, a
# `from_seat`, a table `meld`.
ONE_TILE = {
    "EVENT_KIND_DREW_FROM_WALL",
    "EVENT_KIND_RETRIEVED_OKEY",
    "EVENT_KIND_TOOK_DISCARD",
    "EVENT_KIND_RETURNED_DISCARD",
    "EVENT_KIND_LAID_OFF",
    "EVENT_KIND_DISCARDED",
    "EVENT_KIND_ROUND_WON",
}
SEVERAL_TILES = {"EVENT_KIND_OPENED", "EVENT_KIND_LAID_MELD", "EVENT_KIND_TOOK_BACK"}
ENDS = {"EVENT_KIND_ROUND_WON", "EVENT_KIND_ROUND_DRAWN", "EVENT_KIND_ROUND_VOID"}
# Okey 101 event kinds as game.proto names them.
EVENT_NAMES = {kind: f"EVENT_KIND_{kind.name}" for kind in OKEY_101_EVENTS}
KEBAB = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
# Any key will do for reading a log: the sealed token is not what is checked here.
KEY = b"test key for reading vector logs"


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


FILES = {path.name: _load(path) for path in VECTOR_FILES}
CASES = [(name, data["method"], case) for name, data in FILES.items() for case in data["cases"]]
CASE_IDS = [case["name"] for _, _, case in CASES]
GIVEN = [case for _, _, case in CASES if "given_state" in case]
GIVEN_IDS = [case["name"] for case in GIVEN]


def _responses(method: str) -> list[dict[str, Any]]:
    return [
        c["expect"]["response"] for _, m, c in CASES if m == method and "response" in c["expect"]
    ]


def _events() -> list[dict[str, Any]]:
    return [e for method in ("ApplyMove", "Replay") for r in _responses(method)
            for e in r.get("events", [])]


def _replayed(replay: dict[str, Any]) -> State101:
    """A ReplayRequest's final state, read as a server reads it (every move must be legal)."""
    request = json_format.ParseDict(replay, game_pb2.ReplayRequest())
    assert request.WhichOneof("start") == "deal"
    assert request.deal.seed
    state = deal_for_request(request.deal, KEY).state
    assert isinstance(state, State101), "an Okey 101 deal"
    assert state.rules.game is Game.OKEY_101
    log = [move_from_proto(e.move, f"moves[{i}].move") for i, e in enumerate(request.moves)]
    legal, final, applied, _, reason, message = replay_101(state, log)
    assert legal, f"move {applied}: {reason} ({message})"
    return final


def test_there_is_one_file_per_method() -> None:
    assert {name: data["method"] for name, data in FILES.items()} == EXPECTED_FILES


def test_files_are_exactly_what_the_derivation_script_writes() -> None:
    # A hand edit of a vector (reason, log or answer) without its case table fails here.
    assert_derived("game101", VECTOR_FILES)


@pytest.mark.parametrize("name", sorted(FILES))
def test_file_header_names_its_service_and_section(name: str) -> None:
    data = FILES[name]
    assert set(data) == {"suite", "source", "service", "method", "notes", "cases"}
    service = "okey.v1.ScoringService" if name.startswith("scoring") else "okey.v1.GameService"
    assert data["service"] == service
    assert "docs/rules.md §" in data["source"]
    assert "§10" in data["source"]
    assert data["cases"]


@pytest.mark.parametrize("name", sorted(FILES))
def test_vectors_stand_alone_citing_public_documents_only(name: str) -> None:
    text = (CONFORMANCE / name).read_text(encoding="utf-8")
    assert not re.search(r"RULES\.md|DESIGN\.md|seeds? ?0\d\d|seed-0\d\d|\.\./shared", text)


@pytest.mark.parametrize(("file", "method", "case"), CASES, ids=CASE_IDS)
def test_case_is_well_formed(file: str, method: str, case: dict[str, Any]) -> None:
    # docs/conformance.md: these keys, given_state optional, in this order when written.
    assert list(case) in (
        ["name", "reason", "request", "expect"],
        ["name", "reason", "given_state", "request", "expect"],
    ), file
    assert KEBAB.fullmatch(case["name"])
    assert case["name"].startswith(PREFIX[method])
    reason = case["reason"]
    assert reason.strip()
    assert "\n" not in reason
    assert re.search(r"docs/(rules|dealing)\.md|[a-z]+\.proto", reason), reason


@pytest.mark.parametrize(("file", "method", "case"), CASES, ids=CASE_IDS)
def test_request_given_state_and_expectation_parse(
    file: str, method: str, case: dict[str, Any]
) -> None:
    request_type, response_type = METHODS[method]
    json_format.ParseDict(case["request"], request_type())
    if "given_state" in case:
        json_format.ParseDict(case["given_state"], game_pb2.ReplayRequest())
    expect = case["expect"]
    assert len(expect) == 1
    if "response" in expect:
        json_format.ParseDict(expect["response"], response_type())
        return
    error = expect["error"]
    assert set(error) == {"code", "field"}
    assert error["code"] == "INVALID_ARGUMENT"
    head = re.split(r"[.\[]", error["field"], maxsplit=1)[0]
    assert head in request_type.DESCRIPTOR.fields_by_name


@pytest.mark.parametrize(("file", "method", "case"), CASES, ids=CASE_IDS)
def test_no_vector_pins_a_sealed_state(file: str, method: str, case: dict[str, Any]) -> None:
    """A sealed state opens under one server key only: answers pin at most that none is set
    (an empty token), no request names one, and a replayed state always starts from a
    seeded deal; nor does an answer pin the seeded deal's keyed id, only the deal's kind."""
    response = case["expect"].get("response", {})
    assert response.get("state") is None
    assert "state" not in case["request"]
    assert "state" not in case["request"].get("round", {})
    assert "state" not in case.get("given_state", {})
    assert '"mac"' not in json.dumps(case)
    assert "dealId" not in json.dumps(response)
    assert "seededDealId" not in json.dumps(response)


@pytest.mark.parametrize("case", GIVEN, ids=GIVEN_IDS)
def test_given_state_is_a_legal_log_from_a_seeded_101_deal(case: dict[str, Any]) -> None:
    state = _replayed(case["given_state"])
    if case["name"].startswith("score101-"):
        # A ScoreRound answer needs a finished round; a refusal may be of an unfinished one.
        refused_unfinished = case["expect"].get("error", {}).get("field") == "round.state"
        assert (state.phase is Phase.ROUND_OVER) is not refused_unfinished


@pytest.mark.parametrize(
    "case",
    [c for _, m, c in CASES if m == "Replay" and "deal" in c["request"]
     and "response" in c["expect"]],
    ids=lambda c: c["name"],
)
def test_replay_logs_are_okey_101_logs(case: dict[str, Any]) -> None:
    """A Replay case's own log starts from a seeded 101 deal; its answer's count of applied
    moves is where the engine stops."""
    request = json_format.ParseDict(case["request"], game_pb2.ReplayRequest())
    state = deal_for_request(request.deal, KEY).state
    assert isinstance(state, State101)
    log = [move_from_proto(e.move, f"moves[{i}].move") for i, e in enumerate(request.moves)]
    legal, _, applied, _, _, _ = replay_101(state, log)
    answer = case["expect"]["response"]
    assert (legal, applied) == (answer["legal"], answer["movesApplied"])


def test_every_reachable_illegal_reason_is_pinned_by_an_applymove_case() -> None:
    """Every Okey 101 IllegalReason (docs/rules.md §10) has an ApplyMove case, except those
    legal play cannot reach, which none pins."""
    pinned = {r["reason"] for r in _responses("ApplyMove") if r["legal"] is False}
    every = {reason.name for reason in OKEY_101_REASONS}
    assert every >= UNREACHABLE_REASONS
    assert pinned == {f"ILLEGAL_REASON_{name}" for name in every - UNREACHABLE_REASONS}


def test_unreachable_reasons_are_never_met_in_the_logged_rounds() -> None:
    """What UNREACHABLE_REASONS says, checked along every whole round of the files: whenever
    a seat is to draw, the bank and the previous seat's pile both hold a tile."""
    logs = [c["request"] for _, m, c in CASES
            if m == "Replay" and "deal" in c["request"] and "response" in c["expect"]]
    logs += [c["given_state"] for c in GIVEN]
    checked = 0
    for replay in logs:
        request = json_format.ParseDict(replay, game_pb2.ReplayRequest())
        state = deal_for_request(request.deal, KEY).state
        assert isinstance(state, State101)
        for i, entry in enumerate(request.moves):
            if state.phase is Phase.DRAW:
                assert state.wall
                assert state.seats[previous_seat(state.turn, state.player_count)].discards
                checked += 1
            result = apply_move_101(state, move_from_proto(entry.move, f"moves[{i}]"))
            if not result.legal or result.state is None:
                break
            state = result.state
    assert checked > 100


def test_every_penalty_is_an_event_of_101_points() -> None:
    """docs/rules.md §10.5: each penalty is pinned as it happens, an event of 101 points."""
    events = [e for r in _responses("ApplyMove") for e in r["events"]]
    penalties = [e for e in events if e["kind"] == "EVENT_KIND_PENALTY"]
    assert {e["penalty"] for e in penalties} == {f"PENALTY_{p.name}" for p in Penalty}
    assert all(e["points"] == 101 and e["tile"] is None for e in penalties)


def test_okey_left_in_hand_is_an_event_of_the_discard_that_ends_the_round() -> None:
    """docs/rules.md §10.5: an okey left in an opened rack is charged when the round ends,
    by a finish or by the bank running out (both pinned), never on another move."""
    ends_charging = set()
    for response in _responses("ApplyMove"):
        events = response["events"]
        kinds = [e["kind"] for e in events]
        left = [e for e in events if e.get("penalty") == "PENALTY_OKEY_LEFT_IN_HAND"]
        if not left:
            continue
        ends = [k for k in kinds if k in ENDS]
        assert len(ends) == 1
        assert kinds[0] == "EVENT_KIND_DISCARDED"
        if ends[0] == "EVENT_KIND_ROUND_WON":
            # The finisher's rack is empty: the okeys charged are other seats'.
            assert all(e["seat"] != events[0]["seat"] for e in left)
        ends_charging.add(ends[0])
    assert ends_charging == {"EVENT_KIND_ROUND_WON", "EVENT_KIND_ROUND_DRAWN"}


def test_every_101_move_kind_is_applied_legally_and_offered() -> None:
    """Each Okey 101 move kind is applied; LegalMoves offers every kind but the openings and
    new melds (too many groupings to list: game101.legal_moves_101)."""
    every = {f"MOVE_KIND_{kind.name}" for kind in OKEY_101_MOVES}
    applied = {
        c["request"]["move"]["kind"]
        for _, m, c in CASES
        if m == "ApplyMove" and c["expect"].get("response", {}).get("legal") is True
    }
    offered = {move["kind"] for r in _responses("LegalMoves") for move in r["moves"]}
    assert applied == every
    assert offered == every - {"MOVE_KIND_OPEN", "MOVE_KIND_LAY_MELD"}


def test_every_101_event_kind_is_expected_with_its_fields() -> None:
    events = _events()
    assert {e["kind"] for e in events} == set(EVENT_NAMES.values())
    for event in events:
        kind = event["kind"]
        # game.proto Event: a bank draw is private; one `tile` or several `tiles` per kind.
        assert event["private"] is (kind == "EVENT_KIND_DREW_FROM_WALL")
        assert (event["tile"] is not None) is (kind in ONE_TILE)
        assert ("tiles" in event) is (kind in SEVERAL_TILES)
        assert ("fromSeat" in event) is (kind in ("EVENT_KIND_TOOK_DISCARD",
                                                   "EVENT_KIND_RETURNED_DISCARD"))
        # game.proto Event.outcome: the event that ends the round carries it.
        assert ("outcome" in event) is (kind in ENDS)


def test_a_finished_an_exhausted_and_a_void_round_are_replayed_whole() -> None:
    legal = [r for r in _responses("Replay") if r["legal"]]
    last_kinds = {r["events"][-1]["kind"] for r in legal if r["events"]}
    assert {"EVENT_KIND_ROUND_WON", "EVENT_KIND_ROUND_DRAWN", "EVENT_KIND_ROUND_VOID"} <= last_kinds
    illegal = [r for r in _responses("Replay") if not r["legal"]]
    assert any(r["illegalIndex"] > 0 for r in illegal)
    assert all(r["illegalIndex"] == r["movesApplied"] for r in illegal)


def test_expected_tiles_name_their_copy() -> None:
    """A tile in an answer is a physical tile: its copy is pinned. What a table tile stands
    for is a face, named without a copy."""

    def tiles(value: Any) -> list[dict[str, Any]]:
        if isinstance(value, dict):
            found = [value] if "number" in value or "falseJoker" in value else []
            return found + [t for k, v in value.items() if k != "standsFor" for t in tiles(v)]
        if isinstance(value, list):
            return [t for v in value for t in tiles(v)]
        return []

    found = [t for _, _, c in CASES for t in tiles(c["expect"].get("response", {}))]
    assert found
    assert all("copy" in t for t in found)


def test_player_views_show_the_viewers_rack_and_the_table() -> None:
    """docs/rules.md §8.7, §10: one rack, the viewer's; every seat's counts, piles as far as
    seen, opening and penalties; the table with each tile's face; the taken discard."""
    tile_fields = [
        f.name
        for f in game_pb2.PlayerViewResponse.DESCRIPTOR.fields
        if f.message_type is tile_pb2.Tile.DESCRIPTOR and f.is_repeated
    ]
    assert tile_fields == ["rack"]
    views = _responses("PlayerView")
    for view in views:
        seats = view["seats"]
        assert view["playerCount"] == 4
        assert [s["seat"] for s in seats] == [0, 1, 2, 3]
        assert len(view["rack"]) == seats[view["seat"]]["rackSize"]
        assert view["turnDeadline"] is None  # §10: Okey 101 rounds are not timed
        for seat in seats:
            whole = seat["seat"] in (view["seat"], (view["seat"] - 1) % 4)
            assert seat["wholePile"] is whole
            shown = seat["discardCount"] if whole else min(seat["discardCount"], 1)
            assert len(seat["discards"]) == shown
        for index, meld in enumerate(view["table"]):
            assert meld["index"] == index
            assert meld["value"] == sum(t["standsFor"]["number"] for t in meld["tiles"])
    assert {v["seat"] for v in views} == {0, 1, 2, 3}
    table_tiles = [t for v in views for m in v["table"] for t in m["tiles"]]
    assert any(t["wild"] for t in table_tiles)
    assert any(t["tile"].get("falseJoker") for t in table_tiles)
    opened = {s["opened"] for v in views for s in v["seats"]}
    assert opened == {"OPENED_UNSPECIFIED", "OPENED_MELDS", "OPENED_PAIRS"}
    assert any(s["penalties"] for v in views for s in v["seats"])
    assert any(v["takenDiscard"] is not None for v in views)
    outcomes = [v["outcome"] for v in views if v["outcome"]]
    assert {o["drawn"] for o in outcomes} == {True, False}
    assert any(o["okeyDiscard"] for o in outcomes)
    assert any(o["oneTurnFinish"] for o in outcomes)
    assert any(o["voidRound"] for o in outcomes)


def _deal_of(case: dict[str, Any]) -> dict[str, Any]:
    deal: dict[str, Any] = case["given_state"]["deal"]
    return deal


@pytest.mark.parametrize(
    "case", [c for _, m, c in CASES if m == "ScoreRound" and "response" in c["expect"]],
    ids=lambda c: c["name"],
)
def test_score_answers_add_up(case: dict[str, Any]) -> None:
    """docs/rules.md §10.7: the lines add up to the round's points, the table after is the
    table before plus them, the game ends after game_rounds, and the next deal is the next
    dealer's, one round on (a void round's again; none once the game is over)."""
    answer = case["expect"]["response"]
    before = case["request"].get("table", {"scores": [0, 0, 0, 0], "roundsPlayed": 0})
    summed = [0, 0, 0, 0]
    for line in answer["lines"]:
        if line["deltas"]:
            summed = [a + b for a, b in zip(summed, line["deltas"], strict=True)]
    assert summed == answer["deltas"]
    assert answer["table"]["scores"] == [
        a + b for a, b in zip(before["scores"], answer["deltas"], strict=True)
    ]
    rules = [line["rule"] for line in answer["lines"]]
    # A void round is dealt again, the same round: it is not one of the game's rounds.
    again = 0 if "SCORE_RULE_VOID_ROUND" in rules else 1
    assert answer["table"]["roundsPlayed"] == before.get("roundsPlayed", 0) + again
    assert (rules[-1] == "SCORE_RULE_GAME_OVER") is answer["gameOver"]
    assert bool(answer["winnerSeats"]) is answer["gameOver"]
    deal = _deal_of(case)
    if answer["gameOver"]:
        assert (answer["nextDealerSeat"], answer["nextRound"]) == (0, 0)
    else:
        assert answer["nextDealerSeat"] == (deal.get("dealerSeat", 0) + again) % 4
        assert answer["nextRound"] == deal.get("round", 1) + again


def test_score_rules_of_101_are_pinned() -> None:
    """§10.7's lines: the finish, tiles left, never opened, the okey-discard, one-turn and
    pairs-opener doubles, penalties, okeys left, a void round, the exhausted bank and the
    game's end; §10.8's riziko and partnership waiver."""
    seen = {line["rule"] for r in _responses("ScoreRound") for line in r["lines"]}
    wanted = {
        "FINISHED", "REMAINING_TILES", "NEVER_OPENED", "OKEY_DISCARD", "ONE_TURN_FINISH",
        "PAIRS_OPENER", "PENALTY", "OKEY_IN_HAND", "VOID_ROUND", "BANK_EXHAUSTED", "GAME_OVER",
        "RIZIKO", "PARTNER_WAIVED",
    }
    assert {f"SCORE_RULE_{rule}" for rule in wanted} <= seen
    options = [_deal_of(c).get("ruleset", {}) for _, m, c in CASES
               if m == "ScoreRound" and "response" in c["expect"]]
    assert any(o.get("exhaustionScoresTiles") is False for o in options)
    assert any(o.get("partnership") for o in options)
    assert any(o.get("gameRounds") for o in options)


def test_the_finisher_pays_its_own_penalties() -> None:
    """docs/rules.md §10.5, §10.7: a penalty paid earlier in the round counts even for the
    seat that then finished, beside its -101; an okey left in an opened rack is scored
    after a finish as well as when the bank runs out."""
    finisher_penalised = okey_left_after_finish = False
    for response in _responses("ScoreRound"):
        lines = response["lines"]
        finishers = {line["seat"] for line in lines if line["rule"] == "SCORE_RULE_FINISHED"}
        rules = {(line["rule"], line["seat"]) for line in lines}
        finisher_penalised |= any(("SCORE_RULE_PENALTY", s) in rules for s in finishers)
        okey_left_after_finish |= bool(finishers) and any(
            rule == "SCORE_RULE_OKEY_IN_HAND" for rule, _ in rules)
    assert finisher_penalised
    assert okey_left_after_finish


def test_every_variant_is_played() -> None:
    """docs/rules.md §10.8: each variant option is set in some case's deal."""
    options = {key for c in GIVEN for key in _deal_of(c).get("ruleset", {})}
    assert options >= VARIANTS


def test_score_refusals_are_pinned() -> None:
    refused = {c["expect"]["error"]["field"] for _, m, c in CASES
               if m == "ScoreRound" and "error" in c["expect"]}
    assert refused == {"round.state", "preset", "table.scores", "table.rounds_played"}
