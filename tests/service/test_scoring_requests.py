"""ScoringService through gRPC, issue 21 points 6-9: the same hand scores the same by either
path, ScoreGame names the next deal, messages keep their letters, and errors name the
field that is wrong (docs/scoring.md, docs/rules.md §9)."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from game_service_helpers import Position, Table, move, play_round, same_face
from okey.v1 import game_pb2, hand_pb2, ruleset_pb2, scoring_pb2, scoring_pb2_grpc
from service_helpers import decode_error, pb_tile, pb_tiles

pytestmark = pytest.mark.service

KEY = b"scoring requests test key, 32 b."
CHANNEL_OPTIONS = (("grpc.so_reuseport", 0),)
MELDS = hand_pb2.WIN_KIND_MELDS
PAIRS = hand_pb2.WIN_KIND_SEVEN_PAIRS
KAFA = hand_pb2.WIN_KIND_KAFA
# Two runs Y1-Y7 and seven pairs at once (okey B8, indicator B7): best as seven pairs.
RUNS_AND_PAIRS = "Y1 Y1 Y2 Y2 Y3 Y3 Y4 Y4 Y5 Y5 Y6 Y6 Y7 Y7"
RED_KAFA = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1"
SEEDS = [f"scoring-requests-{n}" for n in range(40)]


class Scoring:
    def __init__(self, channel: grpc.Channel) -> None:
        self.stub = scoring_pb2_grpc.ScoringServiceStub(channel)
        self.table = Table(channel)

    def round(self, **fields: object) -> scoring_pb2.ScoreRoundResponse:
        return self.stub.ScoreRound(scoring_pb2.ScoreRoundRequest(**fields))  # type: ignore[arg-type]

    def game(self, **fields: object) -> scoring_pb2.ScoreGameResponse:
        return self.stub.ScoreGame(scoring_pb2.ScoreGameRequest(**fields))  # type: ignore[arg-type]

    def finished(self, **deal: object) -> Iterator[Position]:
        """Rounds dealt and played to their end through GameService (bounded by SEEDS)."""
        for seed in SEEDS:
            yield play_round(self.table, self.table.deal(seed, **deal)).final


@pytest.fixture
def scoring(make_server) -> Iterator[Scoring]:
    _, port = make_server(signing_key=KEY)
    with grpc.insecure_channel(f"127.0.0.1:{port}", options=CHANNEL_OPTIONS) as channel:
        yield Scoring(channel)


def refused(call: object, **fields: object) -> tuple[str, str]:
    """The one field an INVALID_ARGUMENT names, and its description."""
    with pytest.raises(grpc.RpcError) as raised:
        call(**fields)  # type: ignore[operator]
    violation = decode_error(raised.value)
    assert violation.code is grpc.StatusCode.INVALID_ARGUMENT
    (field,) = violation.fields
    (description,) = violation.descriptions
    return field, description


def with_hand(seat: int, kind: int, hand: str, **fields: object) -> scoring_pb2.RoundInput:
    result = scoring_pb2.RoundResult(
        winner_seat=seat, win_kind=kind, hand=pb_tiles(hand), indicator=pb_tile("B7"),
        **fields,  # type: ignore[arg-type]
    )
    return scoring_pb2.RoundInput(result=result)


# --- point 6: a hand given with a result scores its best kind (§9.1) ---------------------


def test_a_hand_claimed_as_melds_scores_the_seven_pairs_it_makes(scoring: Scoring) -> None:
    """§9.1, §4.4 (issue 21 point 6): 14 tiles that are both two runs and seven pairs
    score 4 claimed as melds, as they would from a finished state, and the WIN line says
    the kind was judged from the tiles."""
    answer = scoring.round(round=with_hand(1, MELDS, RUNS_AND_PAIRS))
    assert answer.round_value == 4
    assert list(answer.deltas) == [-4, 0, -4, -4]
    assert [line.rule for line in answer.lines] == [
        scoring_pb2.SCORE_RULE_WIN, scoring_pb2.SCORE_RULE_SEVEN_PAIRS,
        scoring_pb2.SCORE_RULE_ROUND_VALUE,
    ]
    win = answer.lines[0].text
    assert "seven pairs" in win
    assert "claimed: melds" in win
    same = scoring.round(round=with_hand(1, PAIRS, RUNS_AND_PAIRS))
    assert list(same.deltas) == list(answer.deltas)
    assert "claimed" not in same.lines[0].text


def test_a_kafa_hand_claimed_as_melds_is_kafa_and_ends_the_game(scoring: Scoring) -> None:
    """§9.2 kafa (issue 21 point 6): under the kafa rule a kafa hand claimed as melds is
    judged kafa, as its finished state would be: the game is won at once. A ScoreGame of
    such results scores alike."""
    rules = ruleset_pb2.Ruleset(kafa=True)
    answer = scoring.round(ruleset=rules, round=with_hand(0, MELDS, RED_KAFA))
    assert answer.game_over
    assert list(answer.winner_seats) == [0]
    assert scoring_pb2.SCORE_RULE_KAFA in [line.rule for line in answer.lines]
    game = scoring.game(ruleset=rules, rounds=[with_hand(0, MELDS, RED_KAFA)])
    assert game.game_over
    assert list(game.winner_seats) == [0]


def test_a_claim_the_tiles_do_not_bear_out_is_still_refused(scoring: Scoring) -> None:
    """§9.2 refused input: seven pairs claimed for a hand that wins as melds only."""
    melds_only = "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y10 Y11 Y11 Y12 Y13"
    field, _ = refused(scoring.round, round=with_hand(0, PAIRS, melds_only))
    assert field == "round.result.win_kind"


# --- point 7: ScoreGame names the next deal (§9.4) ----------------------------------------


def test_score_game_of_states_names_each_rounds_next_deal(scoring: Scoring) -> None:
    """§9.4 (issue 21 point 7): each round given as a finished state answers the next
    dealer (the seat after its dealer) and round, in ScoreGame as in ScoreRound."""
    finals = [
        next(scoring.finished(dealer_seat=dealer, round=number))
        for dealer, number in ((2, 5), (3, 6))
    ]
    rounds = [scoring_pb2.RoundInput(state=final.token) for final in finals]
    game = scoring.game(rounds=rounds)
    assert not game.game_over
    for final, answer in zip(finals, game.rounds, strict=True):
        alone = scoring.round(round=scoring_pb2.RoundInput(state=final.token))
        assert (answer.next_dealer_seat, answer.next_round) == (
            (final.status.dealer_seat + 1) % 4, final.status.round + 1
        )
        assert (answer.next_dealer_seat, answer.next_round) == (
            alone.next_dealer_seat, alone.next_round
        )


def test_score_game_names_no_next_deal_for_results_or_after_the_end(scoring: Scoring) -> None:
    """scoring.proto: a result names no next deal; nor does the round that ends the game."""
    rules = ruleset_pb2.Ruleset(game_rounds=2)
    final = next(scoring.finished(dealer_seat=1, round=3, ruleset=rules))
    game = scoring.game(rounds=[scoring_pb2.RoundInput(state=final.token)] * 2)
    assert game.game_over
    assert (game.rounds[0].next_dealer_seat, game.rounds[0].next_round) == (2, 4)
    assert (game.rounds[1].next_dealer_seat, game.rounds[1].next_round) == (0, 0)
    result = scoring_pb2.RoundInput(
        result=scoring_pb2.RoundResult(winner_seat=0, win_kind=MELDS)
    )
    given = scoring.game(ruleset=rules, rounds=[result])
    assert (given.rounds[0].next_dealer_seat, given.rounds[0].next_round) == (0, 0)


# --- point 8: messages keep their letters ------------------------------------------------


def test_a_gosterme_refusal_reads_gosterme(scoring: Scoring) -> None:
    """Issue 21 point 8: the description is UTF-8 text as written, not "g\\xf6sterme"."""
    twice = scoring_pb2.RoundInput(
        result=scoring_pb2.RoundResult(winner_seat=0, win_kind=MELDS, gosterme_seats=[1, 1])
    )
    field, description = refused(scoring.round, round=twice)
    assert field == "round.result.gosterme_seats[1]"
    assert description == "seat 1 shows gösterme once a round"


def test_an_illegal_gosterme_message_reads_gosterme(scoring: Scoring) -> None:
    """Issue 21 point 8: an illegal move's message (IllegalReason GOSTERME_ALREADY_SHOWN)
    comes through ApplyMove as written."""
    table = scoring.table
    for seed in SEEDS:
        state = table.deal(seed)
        indicator = table.view(state, 0).indicator
        holders = [
            seat for seat in range(state.player_count)
            if seat != state.turn_seat
            and any(same_face(t, indicator) for t in table.view(state, seat).rack)
        ]
        if holders:
            shown = table.play(state, move(game_pb2.MOVE_KIND_GOSTERME, holders[0]))
            again = table.apply(shown, move(game_pb2.MOVE_KIND_GOSTERME, holders[0]))
            assert again.reason == game_pb2.ILLEGAL_REASON_GOSTERME_ALREADY_SHOWN
            assert "gösterme" in again.message
            return
    raise AssertionError("no seed gave a seat the indicator's twin")


# --- point 9: errors name the field that is wrong ----------------------------------------


@pytest.mark.parametrize("count", [1, 5])
def test_scores_of_no_table_size_name_the_scores(scoring: Scoring, count: int) -> None:
    """scoring.proto player_count (issue 21 point 9): unset, the table has as many seats
    as scores; a number of scores no classic table has names table.scores, the field
    that is wrong, not the player_count nobody gave."""
    won = scoring_pb2.RoundInput(result=scoring_pb2.RoundResult(winner_seat=0, win_kind=MELDS))
    table = scoring_pb2.TableScores(scores=[20] * count)
    assert refused(scoring.round, round=won, table=table)[0] == "table.scores"
    asked = refused(scoring.round, round=won, table=table, player_count=count)
    assert asked[0] == "player_count"


def test_too_few_scores_beside_a_state_name_the_scores(scoring: Scoring) -> None:
    """§9.4 (issue 21 point 9): three scores beside a state dealt to four seats: no table
    of three holds that round, so table.scores is named, not round.state; with
    player_count 3 and no scores, player_count."""
    final = next(scoring.finished())
    state = scoring_pb2.RoundInput(state=final.token)
    three = scoring_pb2.TableScores(scores=[20, 18, 20], rounds_played=1)
    assert refused(scoring.round, round=state, table=three)[0] == "table.scores"
    assert refused(scoring.round, round=state, player_count=3)[0] == "player_count"
    wrong_count = refused(scoring.round, round=state, table=three, player_count=4)
    assert wrong_count[0] == "table.scores"
    assert refused(scoring.game, rounds=[state], player_count=3)[0] == "player_count"


def test_a_state_dealt_to_more_seats_than_are_left_still_names_the_state(
    scoring: Scoring,
) -> None:
    """§9.4: four scores, one seat out, a state dealt to four: the scores can hold the
    round, the state was dealt before the seat left: round.state."""
    final = next(scoring.finished(ruleset=ruleset_pb2.Ruleset(elimination=True)))
    table = scoring_pb2.TableScores(scores=[9, -1, 12, 7], rounds_played=6)
    field, _ = refused(scoring.round, round=scoring_pb2.RoundInput(state=final.token), table=table)
    assert field == "round.state"
