"""The ScoringService conformance vectors (tests/conformance/scoring_*.json) are well-formed.

Checks the files, not a server: each follows the vector format
(docs/conformance.md); requests, `given_state` logs and expected answers are
valid okey.v1 protobuf JSON; no vector pins a sealed state; every finished
round a case needs is reached by a legal move log when read as a server reads
it; each answer adds up (a round's changes are its lines', the table after it
is the table before plus the changes, the running table of a game chains);
the files cover what the scoring vectors are for (every ScoreRule, table
mode, preset and colour-double setting, elimination, partnership, kafa,
game_rounds, and each refusal of docs/rules.md §9); and
scripts/derive_vectors.py writes them byte for byte from their case table
(tests/conformance/cases/scoring.json).
"""

from __future__ import annotations

import base64
import json
import re
from typing import Any

import pytest
from google.protobuf import json_format
from google.protobuf.message import Message
from okey.v1 import game_pb2, ruleset_pb2, scoring_pb2
from okey_rules.play.round_types import Phase
from okey_rules.ruleset import ColourDouble, Ruleset, ScoringMode
from okey_rules.scores.scoring_types import CLASSIC_SCORE_RULES
from okey_server.wire.convert_ruleset import ruleset_from_proto
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

SCORING_FILES = sorted(CONFORMANCE.glob("scoring_*.json"))
METHODS: dict[str, tuple[type[Message], type[Message]]] = {
    "ScoreRound": (scoring_pb2.ScoreRoundRequest, scoring_pb2.ScoreRoundResponse),
    "ScoreGame": (scoring_pb2.ScoreGameRequest, scoring_pb2.ScoreGameResponse),
}
EXPECTED_FILES = {"scoring_round.json": "ScoreRound", "scoring_game.json": "ScoreGame"}
PREFIX = {"ScoreRound": "score-round-", "ScoreGame": "score-game-"}
PRESETS = ("classic", "tournament", "points-limit", "okey.gg", "penalty")
# docs/rules.md §9 (the refusals): the fields a ScoreRound refusal names, one case each
# at least.
ROUND_REFUSALS = {
    "round",  # no round
    "round.result.winner_seat",  # out of range or eliminated
    "round.result.gosterme_seats",  # out of range, eliminated or twice
    "round.result.drawn",  # drawn with win fields
    "round.result.win_kind",  # missing, contradicting the hand, kafa without kafa
    "round.result.hand",  # not winning
    "round.result.okey_discard",  # contradicting the discard
    "round.result.one_colour",  # contradicting the hand
    "round.result.indicator",  # needed with the hand
    "table",  # a game already over
    "table.scores",  # count, above the start, negative, partners, zero-sum
    "table.rounds_played",  # rounds_played >= game_rounds
    "round.state",  # not finished; not the table's seats; a token that does not open
    "preset",  # with a state; unknown
    "ruleset",  # with a state
    "ruleset.game",  # Okey 101
    "ruleset.scoring_mode",  # an unknown enum value
    "ruleset.start_points",
    "ruleset.target_points",
    "ruleset.countdown_winners",
    "ruleset.game_rounds",
    "ruleset.elimination",  # outside COUNTDOWN; with partnership
    "ruleset.partnership",  # outside COUNTDOWN
    "player_count",  # 2-4; partnership with other than 4
}


FILES = {path.name: load_json(path) for path in SCORING_FILES}
CASES = method_cases(FILES)
CASE_IDS = [case["name"] for _, _, case in CASES]
GIVEN = [case for _, _, case in CASES if "given_state" in case]
GIVEN_IDS = [case["name"] for case in GIVEN]


def _answered(method: str) -> list[dict[str, Any]]:
    return answered(CASES, method)


def _refused(method: str) -> set[str]:
    return {
        c["expect"]["error"]["field"] for _, m, c in CASES if m == method and "error" in c["expect"]
    }


def _rules(case: dict[str, Any]) -> Ruleset:
    """The rules a case is scored under: the request's, or those its state was dealt under."""
    if "given_state" in case:
        deal = case["given_state"]["deal"]
        message = json_format.ParseDict(deal.get("ruleset", {}), ruleset_pb2.Ruleset())
        return ruleset_from_proto(deal.get("preset", ""), message)
    message = json_format.ParseDict(case["request"].get("ruleset", {}), ruleset_pb2.Ruleset())
    return ruleset_from_proto(case["request"].get("preset", ""), message)


def _preset_of(case: dict[str, Any]) -> str:
    where = case["given_state"]["deal"] if "given_state" in case else case["request"]
    preset: str = where.get("preset", "")
    return preset


def test_there_is_one_file_per_scoringservice_method() -> None:
    assert {name: data["method"] for name, data in FILES.items()} == EXPECTED_FILES


def test_files_are_exactly_what_the_derivation_script_writes() -> None:
    # A hand edit of a vector without the script fails here; the script itself stops
    # when a hand-worked number and the engine disagree.
    assert_derived("scoring", SCORING_FILES)


@pytest.mark.parametrize("name", sorted(FILES))
def test_file_header_names_scoringservice(name: str) -> None:
    assert_header(FILES[name], "okey.v1.ScoringService", "docs/rules.md §9")


@pytest.mark.parametrize("name", sorted(FILES))
def test_vectors_stand_alone_citing_public_documents_only(name: str) -> None:
    text = (CONFORMANCE / name).read_text(encoding="utf-8")
    assert not re.search(r"RULES\.md|DESIGN\.md|seeds? ?0\d\d|seed-0\d\d|\.\./shared", text)


@pytest.mark.parametrize(("file", "method", "case"), CASES, ids=CASE_IDS)
def test_case_is_well_formed(file: str, method: str, case: dict[str, Any]) -> None:
    assert_case_form(file, case, PREFIX[method], r"docs/rules\.md §\d|[a-z]+\.proto")


@pytest.mark.parametrize(("file", "method", "case"), CASES, ids=CASE_IDS)
def test_request_given_state_and_expectation_parse(
    file: str, method: str, case: dict[str, Any]
) -> None:
    request_type, response_type = METHODS[method]
    json_format.ParseDict(case["request"], request_type())
    if "given_state" in case:
        # Only ScoreRound has one place for a state (round.state).
        assert method == "ScoreRound"
        json_format.ParseDict(case["given_state"], game_pb2.ReplayRequest())
    assert_answer_or_refusal(case["expect"], request_type, response_type)


@pytest.mark.parametrize(("file", "method", "case"), CASES, ids=CASE_IDS)
def test_no_vector_pins_a_sealed_state(file: str, method: str, case: dict[str, Any]) -> None:
    """A sealed state opens under one server key only: a request names a state only as one
    no server issued (sealed under key id 0), refused on round.state as UNKNOWN_KEY; a
    replayed state always starts from a seeded deal."""
    state = case["request"].get("round", {}).get("state")
    if state is not None:
        assert base64.b64decode(state)[:5] == bytes([1, 0, 0, 0, 0])
        assert case["expect"] == {
            "error": {
                "code": "INVALID_ARGUMENT",
                "field": "round.state",
                "reason": "ERROR_REASON_UNKNOWN_KEY",
            }
        }
        assert "given_state" not in case
    if "given_state" in case:
        assert "state" not in case["given_state"]
        assert "result" not in case["request"].get("round", {}), "the state would replace it"
    assert '"mac"' not in json.dumps(case["expect"])


@pytest.mark.parametrize("case", GIVEN, ids=GIVEN_IDS)
def test_given_state_is_a_legal_log_from_a_seeded_deal(case: dict[str, Any]) -> None:
    """Read as a server reads a ReplayRequest, the log is legal; a case with an answer
    reaches a finished round (a refused one may be the unfinished-state refusal)."""
    result = replay_given_state(case["given_state"])
    assert result.state is not None
    finished = result.state.phase is Phase.ROUND_OVER
    refused_unfinished = case["expect"].get("error", {}).get("field") == "round.state"
    assert finished or refused_unfinished


def _check_round(answer: dict[str, Any], before: list[int], rounds_before: int) -> None:
    """One round's answer adds up: lines to deltas, deltas to the table, the game's end."""
    players = len(before)
    deltas = answer["deltas"]
    assert len(deltas) == players
    if "lines" in answer:
        summed = [0] * players
        for line in answer["lines"]:
            if line["deltas"]:
                summed = [a + b for a, b in zip(summed, line["deltas"], strict=True)]
        assert summed == deltas
        rules = [line["rule"] for line in answer["lines"]]
        assert (rules[-1] == "SCORE_RULE_GAME_OVER") is answer["gameOver"]
        factors = [line["factor"] for line in answer["lines"] if line["factor"]]
        assert set(factors) <= {2}
    assert answer["table"]["scores"] == [a + b for a, b in zip(before, deltas, strict=True)]
    assert answer["table"]["roundsPlayed"] == rounds_before + 1
    assert bool(answer["winnerSeats"]) is answer["gameOver"]
    assert len(answer["eliminated"]) == players


def _start(rules: Ruleset, players: int) -> list[int]:
    start = rules.start_points if rules.scoring_mode is ScoringMode.COUNTDOWN else 0
    return [start] * players


@pytest.mark.parametrize("case", _answered("ScoreRound"), ids=lambda c: c["name"])
def test_round_answers_add_up(case: dict[str, Any]) -> None:
    answer = case["expect"]["response"]
    rules = _rules(case)
    table = case["request"].get("table")
    players = len(answer["deltas"])
    before = table["scores"] if table else _start(rules, players)
    _check_round(answer, before, table.get("roundsPlayed", 0) if table else 0)
    if rules.scoring_mode is ScoringMode.ZERO_SUM:
        assert sum(answer["deltas"]) == 0
        assert sum(answer["table"]["scores"]) == 0
    # scoring.proto: the next deal is given with a state only, and only while the game goes on.
    with_state = "given_state" in case
    assert ("nextRound" in answer) is with_state
    if with_state:
        assert (answer["nextRound"] == 0) is answer["gameOver"]


@pytest.mark.parametrize("case", _answered("ScoreGame"), ids=lambda c: c["name"])
def test_game_answers_chain_round_by_round(case: dict[str, Any]) -> None:
    answer = case["expect"]["response"]
    rounds = answer["rounds"]
    assert len(rounds) == len(case["request"]["rounds"])
    players = case["request"].get("playerCount", 4)
    before = _start(_rules(case), players)
    for index, scored in enumerate(rounds):
        _check_round(scored, before, index)
        # Only the last round may end the game (a later one would be refused).
        if index < len(rounds) - 1:
            assert scored["gameOver"] is False
        before = scored["table"]["scores"]
    assert answer["table"] == rounds[-1]["table"]
    assert answer["gameOver"] is rounds[-1]["gameOver"]
    assert answer["winnerSeats"] == rounds[-1]["winnerSeats"]


def test_every_score_rule_appears_in_a_scoreround_answer() -> None:
    answers = [case["expect"]["response"] for case in _answered("ScoreRound")]
    seen = {line["rule"] for answer in answers for line in answer["lines"]}
    # The classic rules (docs/rules.md §9); Okey 101's (§10.7) are pinned by their own files.
    every = {f"SCORE_RULE_{rule.name}" for rule in CLASSIC_SCORE_RULES}
    assert seen == every


@pytest.mark.parametrize("method", sorted(METHODS))
def test_every_table_mode_is_scored(method: str) -> None:
    modes = {_rules(case).scoring_mode for case in _answered(method)}
    assert modes == set(ScoringMode)


@pytest.mark.parametrize("method", sorted(METHODS))
def test_every_preset_is_scored(method: str) -> None:
    presets = {_preset_of(case) for case in _answered(method)}
    assert set(PRESETS) <= presets
    refused = [c for _, m, c in CASES if m == method and "error" in c["expect"]]
    # Okey 101 is a preset too, not scorable yet (scoring.proto).
    assert any(
        _preset_of(c) == "101" and c["expect"]["error"]["field"] == "ruleset.game" for c in refused
    )


def test_each_preset_states_its_whole_ruleset_once() -> None:
    """docs/rules.md §9.3: an answer under each preset writes every option of it out."""
    every = {f.camelcase_name for f in ruleset_pb2.Ruleset.DESCRIPTOR.fields}
    pinned = {
        _preset_of(case)
        for case in _answered("ScoreRound")
        if set(case["expect"]["response"].get("ruleset", {})) == every
    }
    assert pinned == set(PRESETS)


def test_variants_are_covered_in_both_methods() -> None:
    for method in METHODS:
        rules = [_rules(case) for case in _answered(method)]
        assert any(r.elimination for r in rules), method
        assert any(r.partnership for r in rules), method
        assert any(r.kafa for r in rules), method
        assert any(r.game_rounds for r in rules), method
    round_rules = [_rules(case) for case in _answered("ScoreRound")]
    assert {r.colour_double for r in round_rules} == set(ColourDouble)
    assert any(not r.multipliers_combine for r in round_rules)
    assert any(not r.gosterme_scores for r in round_rules)


def test_multipliers_values_two_four_eight_sixteen() -> None:
    """docs/rules.md §9.1: 2, 4 (okey discard, seven pairs, colour), 8 and 16 combined."""
    values = {case["expect"]["response"]["roundValue"] for case in _answered("ScoreRound")}
    assert {0, 2, 4, 8, 16} <= values


def test_table_sizes_two_three_four() -> None:
    sizes = {len(case["expect"]["response"]["deltas"]) for case in _answered("ScoreRound")}
    assert sizes == {2, 3, 4}


def test_every_refusal_of_the_rules_is_pinned() -> None:
    assert _refused("ScoreRound") == ROUND_REFUSALS
    game = _refused("ScoreGame")
    # The game's own refusals: no rounds, a round missing or after the end, a bad round named.
    assert {"rounds", "rounds[1]", "rounds[1].result.winner_seat", "ruleset.game"} <= game
    # A round after the game ended (by score, and by kafa) is refused, naming it.
    after_end = [
        c
        for _, m, c in CASES
        if m == "ScoreGame" and "error" in c["expect"] and "after" in c["name"]
    ]
    assert len(after_end) >= 2
    for case in after_end:
        last = len(case["request"]["rounds"]) - 1
        assert case["expect"]["error"]["field"] == f"rounds[{last}]"


def test_given_state_cases_cover_won_drawn_and_a_three_seat_deal() -> None:
    answered = [c for c in GIVEN if "response" in c["expect"]]
    lines = {line["rule"] for c in answered for line in c["expect"]["response"]["lines"]}
    assert {"SCORE_RULE_DRAWN_ROUND", "SCORE_RULE_STALL", "SCORE_RULE_ROUND_VALUE"} <= lines
    assert {c["given_state"]["deal"]["playerCount"] for c in answered} == {3, 4}
    assert any(c["expect"]["response"]["gameOver"] for c in answered)
