"""ScoringService through gRPC (docs/scoring.md, docs/rules.md §9): rounds given directly
or as finished states, whole games, and the input refused."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from game_service_helpers import Position, Table, play_round
from okey.v1 import (
    hand_pb2,
    ruleset_pb2,
    scoring_pb2,
    scoring_pb2_grpc,
    tile_pb2,
)
from service_helpers import decode_error, pb_tile, pb_tiles

pytestmark = pytest.mark.service

KEY = b"scoring service test key, 32 b.."
CHANNEL_OPTIONS = (("grpc.so_reuseport", 0),)
MELDS = hand_pb2.WIN_KIND_MELDS
PAIRS = hand_pb2.WIN_KIND_SEVEN_PAIRS
# A one-colour (red) winning hand with okey R5 (indicator R4): four red runs.
RED_HAND = "R1 R2 R3 R6 R7 R8 R9 R10 R11 R12 R13 R1 R2 R3"
SEEDS = [f"scoring-round-{n}" for n in range(30)]


class Scoring:
    def __init__(self, channel: grpc.Channel) -> None:
        self.stub = scoring_pb2_grpc.ScoringServiceStub(channel)
        self.table = Table(channel)

    def round(self, **fields: object) -> scoring_pb2.ScoreRoundResponse:
        return self.stub.ScoreRound(scoring_pb2.ScoreRoundRequest(**fields))  # type: ignore[arg-type]

    def game(self, **fields: object) -> scoring_pb2.ScoreGameResponse:
        return self.stub.ScoreGame(scoring_pb2.ScoreGameRequest(**fields))  # type: ignore[arg-type]


@pytest.fixture
def scoring(make_server) -> Iterator[Scoring]:
    _, port = make_server(signing_key=KEY)
    with grpc.insecure_channel(f"127.0.0.1:{port}", options=CHANNEL_OPTIONS) as channel:
        yield Scoring(channel)


def won(seat: int, kind: int = MELDS, **fields: object) -> scoring_pb2.RoundInput:
    return scoring_pb2.RoundInput(
        result=scoring_pb2.RoundResult(winner_seat=seat, win_kind=kind, **fields)  # type: ignore[arg-type]
    )


def drawn(**fields: object) -> scoring_pb2.RoundInput:
    return scoring_pb2.RoundInput(result=scoring_pb2.RoundResult(drawn=True, **fields))  # type: ignore[arg-type]


def refused(call: object, **fields: object) -> tuple[str, str]:
    with pytest.raises(grpc.RpcError) as raised:
        call(**fields)  # type: ignore[operator]
    violation = decode_error(raised.value)
    assert violation.code is grpc.StatusCode.INVALID_ARGUMENT
    (field,) = violation.fields
    return field, violation.reason


# --- rounds given directly ----------------------------------------------------------------


def test_a_countdown_round_from_the_start_of_a_game(scoring: Scoring) -> None:
    """§9.1-§9.2: seven pairs finished with an okey discard is 8 against each opponent;
    gösterme 1 against each of the claimant's opponents; every option of the answer's
    ruleset written out."""
    answer = scoring.round(round=won(1, PAIRS, okey_discard=True, gosterme_seats=[2]))
    assert answer.round_value == 8
    assert list(answer.deltas) == [-9, -1, -8, -9]
    assert list(answer.table.scores) == [11, 19, 12, 11]
    assert answer.table.rounds_played == 1
    assert [line.rule for line in answer.lines] == [
        scoring_pb2.SCORE_RULE_WIN,
        scoring_pb2.SCORE_RULE_OKEY_DISCARD,
        scoring_pb2.SCORE_RULE_SEVEN_PAIRS,
        scoring_pb2.SCORE_RULE_ROUND_VALUE,
        scoring_pb2.SCORE_RULE_GOSTERME,
    ]
    assert all(line.text for line in answer.lines)
    assert not answer.game_over
    assert answer.ruleset.scoring_mode == ruleset_pb2.SCORING_MODE_COUNTDOWN
    assert answer.ruleset.start_points == 20


def test_the_table_carries_from_round_to_round_until_the_game_ends(scoring: Scoring) -> None:
    """§9.2 COUNTDOWN: the game ends when a score is at 0 or below; the two highest win."""
    table = scoring_pb2.TableScores(scores=[6, 20, 3, 4], rounds_played=5)
    answer = scoring.round(round=won(1), table=table)
    assert list(answer.table.scores) == [4, 20, 1, 2]
    assert not answer.game_over
    answer = scoring.round(round=won(0, PAIRS), table=answer.table)
    assert list(answer.table.scores) == [4, 16, -3, -2]
    assert answer.game_over
    assert list(answer.winner_seats) == [0, 1]
    assert answer.lines[-1].rule == scoring_pb2.SCORE_RULE_GAME_OVER


def test_a_preset_names_the_table_mode(scoring: Scoring) -> None:
    """§9.3: okey.gg scores towards 21; the penalty table accumulates penalties."""
    target = scoring.round(preset="okey.gg", round=won(3, okey_discard=True))
    assert list(target.deltas) == [0, 0, 0, 4]
    penalty = scoring.round(preset="penalty", round=drawn(gosterme_seats=[0]))
    assert list(penalty.deltas) == [1, 2, 2, 2]  # the stall, then gösterme
    assert [line.rule for line in penalty.lines] == [
        scoring_pb2.SCORE_RULE_STALL,
        scoring_pb2.SCORE_RULE_GOSTERME,
    ]


def test_a_given_hand_is_checked_and_its_colour_found(scoring: Scoring) -> None:
    """§9.1 colour double: the one-colour hand is found from the tiles given."""
    result = scoring_pb2.RoundResult(
        winner_seat=0,
        win_kind=MELDS,
        hand=pb_tiles(RED_HAND),
        indicator=pb_tile("R4"),
        discard=pb_tile("K9"),
    )
    rules = ruleset_pb2.Ruleset(colour_double=ruleset_pb2.COLOUR_DOUBLE_RED_OR_BLACK)
    answer = scoring.round(ruleset=rules, round=scoring_pb2.RoundInput(result=result))
    assert answer.round_value == 4
    assert scoring_pb2.SCORE_RULE_COLOUR_DOUBLE in [line.rule for line in answer.lines]


@pytest.mark.parametrize(
    ("result", "field"),
    [
        (scoring_pb2.RoundResult(winner_seat=4, win_kind=MELDS), "round.result.winner_seat"),
        (scoring_pb2.RoundResult(winner_seat=1), "round.result.win_kind"),
        (scoring_pb2.RoundResult(drawn=True, win_kind=MELDS), "round.result.drawn"),
        (
            scoring_pb2.RoundResult(winner_seat=0, win_kind=hand_pb2.WIN_KIND_KAFA),
            "round.result.win_kind",
        ),
        (
            scoring_pb2.RoundResult(
                winner_seat=0, win_kind=PAIRS, hand=pb_tiles(RED_HAND), indicator=pb_tile("R4")
            ),
            "round.result.win_kind",
        ),
        (
            scoring_pb2.RoundResult(winner_seat=0, win_kind=MELDS, hand=pb_tiles(RED_HAND)),
            "round.result.indicator",
        ),
        (
            scoring_pb2.RoundResult(
                winner_seat=0,
                win_kind=MELDS,
                okey_discard=True,
                discard=pb_tile("K9"),
                indicator=pb_tile("R4"),
            ),
            "round.result.okey_discard",
        ),
        (
            scoring_pb2.RoundResult(
                winner_seat=0,
                win_kind=MELDS,
                hand=pb_tiles("R1 R2 R3 R6 R7 R8 R9 R10 R11 R12 R13 K1 K2 K4"),
                indicator=pb_tile("R4"),
            ),
            "round.result.hand",
        ),
        (
            scoring_pb2.RoundResult(winner_seat=0, win_kind=MELDS, gosterme_seats=[2, 2]),
            "round.result.gosterme_seats[1]",
        ),
    ],
    ids=[
        "seat-out-of-range",
        "won-without-a-kind",
        "drawn-with-a-kind",
        "kafa-without-the-kafa-rule",
        "win-kind-contradicts-the-tiles",
        "tiles-without-indicator",
        "okey-discard-contradicts-the-discard",
        "hand-does-not-win",
        "gosterme-twice",
    ],
)
def test_a_result_no_game_could_produce_is_refused(
    scoring: Scoring, result: scoring_pb2.RoundResult, field: str
) -> None:
    """§9, bad input: INVALID_ARGUMENT naming the field, reason INVALID_ROUND."""
    round_input = scoring_pb2.RoundInput(result=result)
    assert refused(scoring.round, round=round_input) == (field, "ERROR_REASON_INVALID_ROUND")


@pytest.mark.parametrize(
    ("preset", "scores", "field"),
    [
        ("penalty", [0, -1, 0, 0], "table.scores[1]"),
        ("classic", [20, 21, 20, 20], "table.scores[1]"),
        ("classic", [20, 20, 20], "table.scores"),
        ("classic", [20, 0, 20, 20], "table"),
        ("okey.gg", [21, 0, 0, 0], "table"),
    ],
    ids=["negative-penalty", "above-the-countdown-start", "wrong-count", "over-at-0", "over-at-21"],
)
def test_scores_no_game_could_reach_are_refused(
    scoring: Scoring, preset: str, scores: list[int], field: str
) -> None:
    table = scoring_pb2.TableScores(scores=scores, rounds_played=4)
    got = refused(scoring.round, preset=preset, round=won(0), table=table, player_count=4)
    assert got == (field, "ERROR_REASON_INVALID_SCORES")


@pytest.mark.parametrize(
    ("ruleset", "field"),
    [
        (ruleset_pb2.Ruleset(start_points=4), "ruleset.start_points"),
        (ruleset_pb2.Ruleset(target_points=32), "ruleset.target_points"),
        (
            ruleset_pb2.Ruleset(scoring_mode=ruleset_pb2.SCORING_MODE_TARGET, elimination=True),
            "ruleset.elimination",
        ),
        (ruleset_pb2.Ruleset(game=ruleset_pb2.GAME_OKEY_101), "ruleset.game"),
    ],
)
def test_rules_that_cannot_score_are_refused(
    scoring: Scoring, ruleset: ruleset_pb2.Ruleset, field: str
) -> None:
    assert refused(scoring.round, ruleset=ruleset, round=won(0))[0] == field


def test_a_round_input_is_required(scoring: Scoring) -> None:
    assert refused(scoring.round) == ("round", "ERROR_REASON_INVALID_ROUND")


# --- finished states ------------------------------------------------------------------------


def finished_rounds(scoring: Scoring, **deal: object) -> Iterator[Position]:
    """Rounds dealt and played to their end through GameService (bounded by SEEDS)."""
    for seed in SEEDS:
        yield play_round(scoring.table, scoring.table.deal(seed, **deal)).final


def test_a_finished_state_is_scored_and_names_the_next_deal(scoring: Scoring) -> None:
    """§9.4: the outcome comes from the state; the next dealer is the seat to the right."""
    kinds = set()
    for final in finished_rounds(scoring, dealer_seat=3):
        answer = scoring.round(round=scoring_pb2.RoundInput(state=final.token))
        outcome = final.outcome
        assert answer.next_dealer_seat == 0
        assert answer.next_round == final.status.round + 1
        if outcome.drawn:
            assert list(answer.deltas) == [0, 0, 0, 0] or outcome.gosterme
            kinds.add("drawn")
        else:
            value = answer.round_value
            assert value == 2 * (2 if outcome.okey_discard else 1) * (
                2 if outcome.win_kind == PAIRS else 1
            )
            expected = [0 if s == outcome.winner_seat else -value for s in range(4)]
            gosterme = [claim.seat for claim in outcome.gosterme]
            for claimant in gosterme:
                expected = [d - (s != claimant) for s, d in enumerate(expected)]
            assert list(answer.deltas) == expected
            kinds.add("won")
        if kinds == {"won", "drawn"}:
            break
    assert kinds == {"won", "drawn"}


def test_a_state_still_in_play_is_refused(scoring: Scoring) -> None:
    opening = scoring.table.deal("not over")
    got = refused(scoring.round, round=scoring_pb2.RoundInput(state=opening.token))
    assert got == ("round.state", "ERROR_REASON_INVALID_STATE")


def test_a_tampered_state_is_refused(scoring: Scoring) -> None:
    """A finished token changed by one byte (a winner moved, say) does not open: the round
    is refused on round.state, INVALID_STATE, before anything is scored."""
    final = next(finished_rounds(scoring))
    changed = bytearray(final.token)
    changed[len(changed) * 2 // 3] ^= 0x01
    got = refused(scoring.round, round=scoring_pb2.RoundInput(state=bytes(changed)))
    assert got == ("round.state", "ERROR_REASON_INVALID_STATE")


def test_a_state_carries_its_own_rules(scoring: Scoring) -> None:
    final = next(finished_rounds(scoring))
    got = refused(scoring.round, preset="penalty", round=scoring_pb2.RoundInput(state=final.token))
    assert got[0] == "preset"


def test_a_state_from_a_table_with_a_seat_eliminated_maps_to_the_seats_left(
    scoring: Scoring,
) -> None:
    """§9.2 elimination, §9.4: a three-seat deal at a four-seat table whose seat 1 is out;
    the state's seats 0, 1, 2 are the table's seats 0, 2, 3."""
    rules = ruleset_pb2.Ruleset(elimination=True, gosterme_scores=False)
    table = scoring_pb2.TableScores(scores=[9, -1, 12, 7], rounds_played=6)
    for final in finished_rounds(scoring, ruleset=rules, player_count=3, dealer_seat=0):
        if final.outcome.drawn:
            continue
        answer = scoring.round(round=scoring_pb2.RoundInput(state=final.token), table=table)
        winner = [0, 2, 3][final.outcome.winner_seat]
        value = answer.round_value
        assert list(answer.deltas) == [
            0 if seat in (1, winner) else -value for seat in range(4)
        ]
        assert answer.eliminated[1]
        # The dealer was the state's seat 0 (table seat 0): next is table seat 2, the
        # next deal's seat 1 - unless table seat 2 went out this round.
        if not answer.game_over and answer.table.scores[2] > 0:
            assert answer.next_dealer_seat == 1
        return
    raise AssertionError("no won round over the seeds")


def test_a_state_dealt_to_more_seats_than_are_left_is_refused(scoring: Scoring) -> None:
    rules = ruleset_pb2.Ruleset(elimination=True)
    final = next(finished_rounds(scoring, ruleset=rules))
    table = scoring_pb2.TableScores(scores=[9, -1, 12, 7], rounds_played=6)
    got = refused(scoring.round, round=scoring_pb2.RoundInput(state=final.token), table=table)
    assert got == ("round.state", "ERROR_REASON_INVALID_STATE")


# --- whole games ----------------------------------------------------------------------------


def test_a_whole_game_gives_the_running_table_and_the_result(scoring: Scoring) -> None:
    """§9.2: a countdown from 5 (points-limit table): three rounds to the end."""
    rules = ruleset_pb2.Ruleset(start_points=5)
    answer = scoring.game(
        preset="points-limit",
        ruleset=rules,
        rounds=[won(0), drawn(), won(2, PAIRS, gosterme_seats=[1])],
    )
    assert [list(r.table.scores) for r in answer.rounds] == [
        [5, 3, 3, 3],
        [5, 3, 3, 3],
        [0, -1, 2, -2],  # seven pairs: 4 from 0, 1, 3; gösterme: 1 from 0, 2, 3
    ]
    assert answer.game_over
    assert list(answer.winner_seats) == [0, 2]  # the two highest
    assert list(answer.table.scores) == [0, -1, 2, -2]


def test_a_round_after_the_game_ended_is_refused(scoring: Scoring) -> None:
    rules = ruleset_pb2.Ruleset(game_rounds=1)
    got = refused(scoring.game, ruleset=rules, rounds=[won(0), won(1)])
    assert got == ("rounds[1]", "ERROR_REASON_INVALID_ROUND")


def test_a_game_of_finished_states_under_one_set_of_rules(scoring: Scoring) -> None:
    finals = list(zip(range(2), finished_rounds(scoring), strict=False))
    rounds = [scoring_pb2.RoundInput(state=final.token) for _, final in finals]
    answer = scoring.game(rounds=rounds)
    assert len(answer.rounds) == 2
    other = next(finished_rounds(scoring, ruleset=ruleset_pb2.Ruleset(gosterme_scores=False)))
    got = refused(scoring.game, rounds=[*rounds, scoring_pb2.RoundInput(state=other.token)])
    assert got == ("rounds[2].state.ruleset", "ERROR_REASON_INVALID_STATE")


def test_tiles_as_given_are_one_type(scoring: Scoring) -> None:
    """The one tile language: a bad tile in the hand names its field."""
    bad = scoring_pb2.RoundResult(
        winner_seat=0,
        win_kind=MELDS,
        hand=[*pb_tiles(RED_HAND)[:13], tile_pb2.Tile(color=1, number=14)],
        indicator=pb_tile("R4"),
    )
    field, _ = refused(scoring.round, round=scoring_pb2.RoundInput(result=bad))
    assert field == "round.result.hand[13].number"
