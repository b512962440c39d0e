"""Scoring an Okey 101 round (docs/rules.md §10.7): one test per rule, each on a round
played to its end by the engine from an arranged position.

Points are bad: the finisher scores -101, every other seat its rack's points (202 if
it never opened); an okey discard, a one-turn finish and a pairs-opener double; each
penalty, and each okey left in an opened rack, adds 101. Positions use the default
indicator K13 (the okey is K1; a false joker plays as K1) unless a test says otherwise.
Seat 1 finishes unless a test says otherwise.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import pytest
from game101_support import (
    DEFAULT_INDICATOR,
    RULES_101,
    after,
    arranged,
    discard,
    finish,
    one,
    open_melds,
    penalised,
    with_rules,
)
from okey_rules.errors import InvalidInputError
from okey_rules.play.game101_types import State101
from okey_rules.play.round_types import Penalty, Phase, RoundEnd
from okey_rules.ruleset import Ruleset
from okey_rules.scores.scoring101 import check_table_101, score_round_101
from okey_rules.scores.scoring_types import RoundScore, ScoreRule, Table

FINISHER_OPENED = (1, "B1 B2 B3")  # seat 1 opened in an earlier turn: meld 0
SEAT_2_OPENED = (2, "K9 K10 K11")  # seat 2 opened with melds
SEAT_2_RACK = "R3 Y11 B8 R12"  # 3 + 11 + 8 + 12 = 34 points
PAIRS_OF = {  # five pairs each: a pairs-opener's table
    0: ("R1 R1", "R2 R2", "R3 R3", "R4 R4", "R5 R5"),
    1: ("R1 R1", "Y2 Y2", "B3 B3", "K4 K4", "R6 R6"),
    2: ("Y1 Y1", "Y2 Y2", "Y3 Y3", "Y4 Y4", "Y5 Y5"),
    3: ("B5 B5", "R10 R10", "Y12 Y12", "B13 B13", "K6 K6"),
}
ALL_RED = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13"  # a run worth 91
YELLOW_1_8 = "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8"  # a run worth 36


def _pairs(seat: int) -> list[tuple[int, str]]:
    return [(seat, pair) for pair in PAIRS_OF[seat]]


def _position(
    racks: Mapping[int, str] | None = None,
    table: Sequence[tuple[int, str]] = (),
    *,
    last: str = "R2",
    indicator: str = DEFAULT_INDICATOR,
) -> State101:
    """Seat 1, opened earlier with B1 B2 B3, has drawn and holds Y7 Y8 Y9 and `last`; the
    other seats as `racks` and `table` say (a seat with melds on the table has opened and
    holds exactly its rack; any other seat holds 21 tiles)."""
    return arranged({1: f"Y7 Y8 Y9 {last}", **(racks or {})}, phase=Phase.DISCARD,
                    table=[FINISHER_OPENED, *table], indicator=indicator)


def _finished(state: State101, last: str = "R2") -> State101:
    """Seat 1 of a `_position` lays Y7 Y8 Y9 and finishes by discarding `last`."""
    return finish(state, "Y7 Y8 Y9", last=last)


def _scored(state: State101, table: Table | None = None) -> RoundScore:
    """The round scored; its lines add up to its deltas and the table moves by them."""
    score = score_round_101(state, table)
    summed = [0, 0, 0, 0]
    for line in score.lines:
        for seat, change in enumerate(line.deltas):
            summed[seat] += change
    assert tuple(summed) == score.deltas, score.lines
    before = table.scores if table is not None else (0, 0, 0, 0)
    assert score.table.scores == tuple(b + d for b, d in zip(before, score.deltas, strict=True))
    assert all(line.text for line in score.lines)
    return score


def _lines(score: RoundScore, rule: ScoreRule) -> list[tuple[int, int, tuple[int, ...]]]:
    """(seat, factor, deltas) of each line of `rule`."""
    return [(line.seat, line.factor, line.deltas) for line in score.lines if line.rule is rule]


def _change(seat: int, points: int) -> tuple[int, ...]:
    return tuple(points if s == seat else 0 for s in range(4))


# --- the finisher and the racks left ---------------------------------------------------------


def test_the_finisher_scores_minus_101():
    """§10.7: the seat that finished scores -101; the others, never open here, 202."""
    state = _finished(_position())
    score = _scored(state)
    assert score.deltas == (202, -101, 202, 202)
    assert _lines(score, ScoreRule.FINISHED) == [(1, 0, _change(1, -101))]
    assert score.table == Table((202, -101, 202, 202), 1)
    assert not score.game_over
    assert score.winners == ()


def test_an_opened_seat_scores_the_points_of_the_tiles_left_in_its_rack():
    """§10.7: each tile left counts its number (R3 Y11 B8 R12: 34)."""
    state = _finished(_position({2: SEAT_2_RACK}, [SEAT_2_OPENED]))
    score = _scored(state)
    assert score.deltas == (202, -101, 34, 202)
    assert _lines(score, ScoreRule.REMAINING_TILES) == [(2, 0, _change(2, 34))]


@pytest.mark.parametrize(("indicator", "points"), [("R6", 7 + 3), ("K13", 1 + 3), ("B12", 13 + 3)])
def test_a_false_joker_left_counts_the_okeys_number(indicator, points):
    """§10.7: a false joker left in a rack counts as the okey's face does (indicator R6:
    the okey is R7, the false joker 7)."""
    state = _finished(_position({2: "F B3"}, [SEAT_2_OPENED], indicator=indicator))
    score = _scored(state)
    assert score.deltas[2] == points
    assert _lines(score, ScoreRule.OKEY_IN_HAND) == [], "a false joker is no okey"


@pytest.mark.parametrize(("indicator", "okey"), [("R6", "R7"), ("K13", "K1"), ("B12", "B13")])
def test_an_okey_left_counts_its_own_number_and_101(indicator, okey):
    """§10.7: an okey left in an opened seat's rack counts its own number, and costs the
    okey-in-hand 101 besides."""
    state = _finished(_position({2: f"{okey} B3"}, [SEAT_2_OPENED], indicator=indicator))
    number = int(okey[1:])
    score = _scored(state)
    assert score.deltas[2] == number + 3 + 101
    assert _lines(score, ScoreRule.REMAINING_TILES) == [(2, 0, _change(2, number + 3))]
    assert _lines(score, ScoreRule.OKEY_IN_HAND) == [(2, 0, _change(2, 101))]


def test_a_seat_that_never_opened_scores_202():
    """§10.7: whatever its rack holds, a seat that never opened scores 202."""
    state = _finished(_position({0: "R13 Y13 B13 K12 K11 Y12"}))
    score = _scored(state)
    assert score.deltas[0] == 202
    assert (0, 0, _change(0, 202)) in _lines(score, ScoreRule.NEVER_OPENED)
    assert not [line for line in _lines(score, ScoreRule.REMAINING_TILES) if line[0] == 0]


# --- the doubles --------------------------------------------------------------------------------


def test_an_okey_discard_finish_doubles_everything():
    """§10.7: finishing by discarding an okey: the finisher -202, a never-opened seat 404,
    an opened seat its tiles twice."""
    state = _finished(_position({2: SEAT_2_RACK}, [SEAT_2_OPENED], last="K1"), last="K1")
    assert state.outcome is not None
    assert state.outcome.okey_discard
    assert not state.outcome.one_turn
    score = _scored(state)
    assert score.deltas == (404, -202, 68, 404)
    assert _lines(score, ScoreRule.OKEY_DISCARD) == [(1, 2, ())]
    assert _lines(score, ScoreRule.ONE_TURN_FINISH) == []


def _one_turn(last: str) -> State101:
    """Seat 1 has drawn its 22nd tile, opens with 21 (127 points) and discards `last`,
    nobody else having opened."""
    state = arranged({1: f"{ALL_RED} {YELLOW_1_8} {last}"}, phase=Phase.DISCARD)
    return finish(state, ALL_RED, YELLOW_1_8, last=last, opening=True)


def test_a_one_turn_finish_doubles_everything():
    """§10.7: opened and finished in one turn, nobody else open: -202 and 404 each."""
    state = _one_turn("B9")
    assert state.outcome is not None
    assert (state.outcome.one_turn, state.outcome.okey_discard) == (True, False)
    score = _scored(state)
    assert score.deltas == (404, -202, 404, 404)
    assert _lines(score, ScoreRule.ONE_TURN_FINISH) == [(1, 2, ())]


def test_a_one_turn_finish_with_an_okey_discard_doubles_again():
    """§10.7: a one-turn finish with an okey discard: the finisher -404, every other seat
    808."""
    state = _one_turn("K1")
    assert state.outcome is not None
    assert (state.outcome.one_turn, state.outcome.okey_discard) == (True, True)
    score = _scored(state)
    assert score.deltas == (808, -404, 808, 808)
    assert _lines(score, ScoreRule.OKEY_DISCARD) == [(1, 2, ())]
    assert _lines(score, ScoreRule.ONE_TURN_FINISH) == [(1, 2, ())]


def _pairs_finish(racks: Mapping[int, str], table: Sequence[tuple[int, str]]) -> State101:
    """Seat 1 opened earlier with five pairs, lays the pair Y8 Y8 and finishes with R2."""
    state = arranged({1: "Y8 Y8 R2", **racks}, phase=Phase.DISCARD,
                     table=[*_pairs(1), *table])
    return finish(state, "Y8 Y8", last="R2")


def test_a_pairs_opener_finishing_doubles_its_own_points_and_the_others():
    """§10.7 a pairs-opener doubles: when a seat that opened with pairs finishes, the
    round's points double, its own -101 included (-202), every other seat's too (a
    never-opened seat 404)."""
    state = _pairs_finish({2: SEAT_2_RACK}, [SEAT_2_OPENED])
    score = _scored(state)
    assert score.deltas == (404, -202, 68, 404)
    assert (1, -202) in [(line.seat, line.deltas[1]) for line in score.lines
                         if line.rule is ScoreRule.FINISHED]


def test_a_pairs_opener_finishing_with_an_okey_scores_minus_404():
    """§10.7: a pairs-opener's finish by an okey discard doubles twice: the finisher -404,
    a never-opened seat 808, an opened seat's 34 points 136."""
    state = arranged({1: "Y8 Y8 K1", 2: SEAT_2_RACK}, phase=Phase.DISCARD,
                     table=[*_pairs(1), SEAT_2_OPENED])
    over = finish(state, "Y8 Y8", last="K1")
    assert over.outcome is not None
    assert over.outcome.okey_discard
    score = _scored(over)
    assert score.deltas == (808, -404, 136, 808)


def test_a_pairs_opener_that_does_not_finish_pays_double():
    """§10.7: a seat that opened with pairs pays its points twice when another finishes
    (B4 Y6: 10, so 20)."""
    state = _finished(_position({2: SEAT_2_RACK, 3: "B4 Y6"}, [SEAT_2_OPENED, *_pairs(3)]))
    score = _scored(state)
    assert score.deltas == (202, -101, 34, 20)


def test_a_pairs_opener_pays_four_times_when_a_pairs_opener_finishes():
    """§10.7: both doubles apply: a pairs-opener's 10 points become 40 when the finisher
    opened with pairs too."""
    state = _pairs_finish({3: "B4 Y6"}, _pairs(3))
    score = _scored(state)
    assert score.deltas == (404, -202, 404, 40)


def test_a_pairs_opener_double_is_a_score_line():
    """§10.7 and scoring.proto: the pairs-opener double, like the okey-discard and one-turn
    doubles, is a line of the answer (factor 2) naming the pairs-opener."""
    finished = _scored(_pairs_finish({3: "B4 Y6"}, _pairs(3)))
    assert {(seat, factor) for seat, factor, _ in _lines(finished, ScoreRule.PAIRS_OPENER)} == {
        (1, 2), (3, 2)
    }


# --- penalties and okeys left ------------------------------------------------------------------


def test_each_penalty_costs_101_and_is_never_doubled():
    """§10.7: every penalty recorded in the round (§10.5) adds 101, the finisher's too,
    and an okey-discard finish does not double it."""
    position = _position({2: SEAT_2_RACK}, [SEAT_2_OPENED], last="K1")
    position = penalised(position, 0, Penalty.OKEY_DISCARDED, Penalty.FAILED_OPENING)
    position = penalised(position, 1, Penalty.DISCARD_COULD_BE_LAID_OFF)
    position = penalised(position, 2, Penalty.TOOK_BACK_SEVERAL)
    score = _scored(_finished(position, last="K1"))
    assert score.deltas == (404 + 202, -202 + 101, 68 + 101, 404)
    assert _lines(score, ScoreRule.PENALTY) == [
        (0, 0, _change(0, 101)), (0, 0, _change(0, 101)),
        (1, 0, _change(1, 101)), (2, 0, _change(2, 101)),
    ]


def test_an_okey_left_in_an_opened_rack_costs_101_per_okey():
    """§10.5, §10.7: both okeys left in an opened seat's rack: 101 each, on top of their
    numbers (R3 K1 K1: 5)."""
    state = _finished(_position({2: "R3 K1 K1"}, [SEAT_2_OPENED]))
    score = _scored(state)
    assert score.deltas[2] == 5 + 2 * 101
    assert _lines(score, ScoreRule.OKEY_IN_HAND) == [(2, 0, _change(2, 101))] * 2


def test_a_seat_that_never_opened_pays_202_only_even_holding_okeys():
    """§10.7: a seat that never opened pays its 202 and nothing more for the okeys it
    holds."""
    state = _finished(_position({0: "K1 K1"}))
    score = _scored(state)
    assert score.deltas[0] == 202
    assert _lines(score, ScoreRule.OKEY_IN_HAND) == []


# --- rounds with nobody finished --------------------------------------------------------------


def _void_round() -> State101:
    """Seats 0, 2 and 3 opened with pairs; seat 1 opens with pairs too: the round is void.
    Seats 0 and 2 paid penalties on the way."""
    pairs_7 = ("R7 R7", "Y7 Y7", "B7 B7", "K7 K7", "R9 R9")
    state = arranged({1: " ".join(pairs_7), 2: "R11 K1", 3: "B4 Y6"}, phase=Phase.DISCARD,
                     table=[*_pairs(0), *_pairs(2), *_pairs(3)])
    state = penalised(state, 0, Penalty.FAILED_OPENING)
    state = penalised(state, 2, Penalty.OKEY_DISCARDED)
    over = after(state, open_melds(state, *pairs_7, pairs=True))
    assert over.outcome is not None
    assert over.outcome.end is RoundEnd.VOID
    return over


def test_a_void_round_scores_nothing():
    """§10.7: all four opened with pairs: nobody scores, penalties and okeys left included."""
    before = Table((30, 40, 50, 60), 2)
    score = _scored(_void_round(), before)
    assert score.deltas == (0, 0, 0, 0)
    assert score.table.scores == before.scores
    assert [line.rule for line in score.lines] == [ScoreRule.VOID_ROUND]


def test_a_void_round_is_not_one_of_the_games_rounds():
    """§10.7: a void round is dealt again with the same number, so it is not one of the
    game's `game_rounds`: the table's rounds stay as they were and the game goes on."""
    before = Table((30, 40, 50, 60), 2)
    score = _scored(with_rules(_void_round(), game_rounds=3), before)
    assert score.table == before
    assert not score.game_over
    assert score.winners == ()


def _exhausted(**options: object) -> State101:
    """The bank is empty and seat 1, never opened, discards R2 without finishing. Seat 0
    never opened (one penalty); seat 2 opened with melds holding R3 Y11 and an okey;
    seat 3 opened with pairs holding B4 Y6."""
    state = arranged({1: "R2", 2: "R3 Y11 K1", 3: "B4 Y6"}, phase=Phase.DISCARD,
                     table=[SEAT_2_OPENED, *_pairs(3)], wall_size=0)
    state = penalised(with_rules(state, **options), 0, Penalty.OKEY_DISCARDED)
    over = discard(state, one(state, 1, "R2"))
    assert over.outcome is not None
    assert over.outcome.end is RoundEnd.DRAWN
    return over


def test_an_exhausted_bank_scores_every_rack_by_default():
    """§10.7, option exhaustion_scores_tiles (default on): every seat scores its rack (202
    never opened, pairs-openers doubled), nobody -101, penalties and okeys left as ever."""
    score = _scored(_exhausted())
    assert score.deltas == (202 + 101, 202, 3 + 11 + 1 + 101, (4 + 6) * 2)
    assert _lines(score, ScoreRule.BANK_EXHAUSTED) == [(0, 0, ())]
    assert _lines(score, ScoreRule.FINISHED) == []


def test_an_exhausted_bank_without_exhaustion_scores_tiles_scores_only_penalties():
    """§10.7, option exhaustion_scores_tiles off: the racks score nothing; penalties count
    either way, the okey left in an opened rack among them (§10.5: the fifth penalty)."""
    score = _scored(_exhausted(exhaustion_scores_tiles=False))
    assert score.deltas == (101, 0, 101, 0)
    rules = {line.rule for line in score.lines}
    assert rules == {ScoreRule.BANK_EXHAUSTED, ScoreRule.PENALTY, ScoreRule.OKEY_IN_HAND}


# --- the game ----------------------------------------------------------------------------------


def _round_of(**options: object) -> State101:
    """A finished round scoring (202, -101, 34, 202), under these options."""
    return with_rules(_finished(_position({2: SEAT_2_RACK}, [SEAT_2_OPENED])), **options)


def test_game_rounds_end_the_game_and_the_lowest_total_wins():
    """§10.7: after `game_rounds` rounds, all played, the lowest total wins."""
    state = _round_of(game_rounds=3)
    second = _scored(state, Table((0, 0, 0, 0), 1))
    assert second.table.rounds_played == 2
    assert not second.game_over
    assert second.winners == ()
    assert _lines(second, ScoreRule.GAME_OVER) == []
    last = _scored(state, Table((150, 300, 100, -20), 2))
    assert last.table == Table((352, 199, 134, 182), 3)
    assert last.game_over
    assert last.winners == (2,)
    assert last.lines[-1].rule is ScoreRule.GAME_OVER


def test_without_game_rounds_the_game_never_ends():
    """§10.7: `game_rounds` 0 sets no number of rounds: no round ends the game."""
    score = _scored(_round_of(), Table((0, 0, 0, 0), 40))
    assert score.table.rounds_played == 41
    assert not score.game_over


def test_tied_lowest_totals_all_win():
    """§10.7: seats tied on the lowest total all win."""
    score = _scored(_round_of(game_rounds=3), Table((-160, 143, 300, 0), 2))
    assert score.table.scores == (42, 42, 334, 202)
    assert score.winners == (0, 1)


def test_a_partnership_wins_by_its_team_total():
    """§10.7, option partnership: opposite seats are a team and the lowest team total wins,
    whoever holds the lowest seat total (seat 1 here, in the losing team)."""
    score = _scored(_round_of(game_rounds=1, partnership=True), Table((-300, 0, 0, 0)))
    assert score.table.scores == (-98, -101, 34, 202)
    assert score.winners == (0, 2)  # teams: -64 against 101
    tied = _scored(_round_of(game_rounds=1, partnership=True), Table((0, 135, 0, 0)))
    assert tied.table.scores == (202, 34, 34, 202)
    assert tied.winners == (0, 1, 2, 3)  # teams: 236 each


# --- refusals ----------------------------------------------------------------------------------


@pytest.mark.parametrize("scores", [(0, 0, 0), (0, 0, 0, 0, 0), ()])
def test_check_table_101_refuses_a_table_without_four_scores(scores):
    """§10.7: Okey 101 is played by four: a table of other than four scores is refused."""
    with pytest.raises(InvalidInputError) as raised:
        check_table_101(RULES_101, Table(scores, 1))
    assert raised.value.field == "table.scores"
    with pytest.raises(InvalidInputError) as scoring:
        score_round_101(_round_of(), Table(scores, 1))
    assert scoring.value.field == "table.scores"


def test_check_table_101_refuses_a_table_whose_game_is_over():
    """§10.7: after `game_rounds` rounds the game is over: no round is scored onto it."""
    state = _round_of(game_rounds=3)
    with pytest.raises(InvalidInputError) as raised:
        check_table_101(state.rules, Table((1, 2, 3, 4), 3), "rounds[3].table")
    assert raised.value.field == "rounds[3].table.rounds_played"
    with pytest.raises(InvalidInputError) as scoring:
        score_round_101(state, Table((1, 2, 3, 4), 5))
    assert scoring.value.field == "table.rounds_played"
    check_table_101(state.rules, Table((1, 2, 3, 4), 2))  # one round still to play


def test_a_round_not_over_is_refused():
    """§10.7: only a finished state is scored: a round in play is invalid input."""
    position = _position()
    with pytest.raises(InvalidInputError) as raised:
        score_round_101(position, None)
    assert raised.value.field == "round.state"
    with pytest.raises(InvalidInputError) as named:
        score_round_101(position, None, "rounds[2].state")
    assert named.value.field == "rounds[2].state"


def test_a_round_under_classic_rules_is_refused():
    """§10.7 scores Okey 101 rounds: a state under classic rules is refused on its game."""
    state = replace(_finished(_position()), rules=Ruleset())
    with pytest.raises(InvalidInputError) as raised:
        score_round_101(state, None)
    assert raised.value.field == "round.state.ruleset.game"
