"""Whole games scored round by round (docs/rules.md §9.2, §9.3), after the
rule texts' own descriptions: a countdown from 20 (the Japanese rules text,
and the same rounds under the Russian tournament scoring and the French
points limit), a partnership game, an elimination game, the Italian penalty
table with stalls and gösterme, and an okey.gg target game to 21.

Each game lists its rounds with the table expected after each, worked out by
hand from the texts' values: a win costs 2, an okey discard or seven pairs
4, both 8, gösterme 1 per opponent.
"""

from __future__ import annotations

import pytest
from okey_rules.errors import InvalidInputError
from okey_rules.ruleset import Ruleset, preset
from okey_rules.scores.scoring import score_game, score_round
from okey_rules.scores.scoring_types import RoundResult, RoundScore, Table
from okey_rules.search.hand_types import WinKind

MELDS = WinKind.MELDS
PAIRS = WinKind.SEVEN_PAIRS


def won(
    seat: int, kind: WinKind = MELDS, *, okey_discard: bool = False,
    gosterme: tuple[int, ...] = (),
) -> RoundResult:
    return RoundResult(
        drawn=False, winner=seat, kind=kind, okey_discard=okey_discard, gosterme=gosterme
    )


def drawn(*gosterme: int) -> RoundResult:
    return RoundResult(drawn=True, gosterme=gosterme)


def play_game(
    rules: Ruleset, players: int, rounds: list[tuple[RoundResult, tuple[int, ...]]]
) -> list[RoundScore]:
    """Scores the rounds and checks the running table after each one; only
    the last round may end the game."""
    scored = score_game(rules, players, [result for result, _ in rounds])
    assert [s.table.scores for s in scored] == [table for _, table in rounds]
    assert [s.table.rounds_played for s in scored] == list(range(1, len(rounds) + 1))
    assert [s.game_over for s in scored] == [False] * (len(rounds) - 1) + [True]
    return scored


# The rounds of the countdown games below, all at four seats.
COUNTDOWN_ROUNDS = [
    won(1, gosterme=(3,)),
    won(2, PAIRS),
    drawn(0),
    won(1, okey_discard=True),
    won(3, PAIRS, okey_discard=True),
    won(1),
]


def test_countdown_game_from_20_two_highest_win():
    """§9.2 COUNTDOWN, §9.3 classic (the Japanese rules text): everyone starts
    at 20, the winner's opponents lose 2, 4 or 8, gösterme costs each
    opponent 1 (in the drawn round too), and once a score is at 0 or below
    the two highest win."""
    scored = play_game(preset("classic"), 4, list(zip(COUNTDOWN_ROUNDS, [
        (17, 19, 17, 18),
        (13, 15, 17, 14),
        (13, 14, 16, 13),
        (9, 14, 12, 9),
        (1, 6, 4, 9),
        (-1, 6, 2, 7),
    ], strict=True)))
    assert [s.value for s in scored] == [2, 4, 0, 4, 8, 2]
    assert scored[-1].winners == (1, 3)


def test_tournament_game_gosterme_does_not_score_single_highest_wins():
    """§9.3 tournament (the Russian rules text's tournament scoring): the same
    rounds without gösterme scores; the highest score wins, here two seats
    tied for it."""
    scored = play_game(preset("tournament"), 4, list(zip(COUNTDOWN_ROUNDS, [
        (18, 20, 18, 18),
        (14, 16, 18, 14),
        (14, 16, 18, 14),
        (10, 16, 14, 10),
        (2, 8, 6, 10),
        (0, 8, 4, 8),
    ], strict=True)))
    assert scored[-1].winners == (1, 3)


def test_points_limit_game_from_10_ends_sooner():
    """§9.3 points-limit (the French online table): the table chose a limit
    of 10; the game ends in the fourth round and the two highest win; the
    next round is refused."""
    rules = preset("points-limit").with_overrides(start_points=10)
    scored = play_game(rules, 4, list(zip(COUNTDOWN_ROUNDS[:4], [
        (7, 9, 7, 8),
        (3, 5, 7, 4),
        (3, 4, 6, 3),
        (-1, 4, 2, -1),
    ], strict=True)))
    assert scored[-1].winners == (1, 2)
    with pytest.raises(InvalidInputError) as caught:
        score_game(rules, 4, COUNTDOWN_ROUNDS[:5])
    assert caught.value.field == "rounds[4]"


def test_partnership_game():
    """§9.2 partnership (the Japanese rules text's variant): seats 0+2 and 1+3
    start at 20 as teams; a win costs the other team the value, gösterme 1;
    the game ends when a team is at 0 or below and the other team wins."""
    scored = play_game(Ruleset(partnership=True), 4, [
        (won(0), (20, 18, 20, 18)),
        (won(3, PAIRS), (16, 18, 16, 18)),
        (won(1, okey_discard=True, gosterme=(2,)), (12, 17, 12, 17)),
        (won(1, PAIRS, okey_discard=True), (4, 17, 4, 17)),
        (drawn(0), (4, 16, 4, 16)),
        (won(3), (2, 16, 2, 16)),
        (won(1, okey_discard=True), (-2, 16, -2, 16)),
    ])
    assert scored[-1].winners == (1, 3)


def test_elimination_game():
    """§9.2 elimination (the Japanese rules text's variant): a seat at 0 or
    below leaves and pays no more; the last seat in wins."""
    scored = play_game(Ruleset(elimination=True, start_points=6), 4, [
        (won(0, PAIRS), (6, 2, 2, 2)),
        (won(1), (4, 2, 0, 0)),
        (won(0), (4, 0, 0, 0)),
    ])
    assert [s.eliminated for s in scored] == [
        (False, False, False, False),
        (False, False, True, True),
        (False, True, True, True),
    ]
    assert scored[-1].winners == (0,)


def test_penalty_game_with_stalls_and_gosterme():
    """§9.2 PENALTY, §9.3 penalty (the Italian penalty table): penalties
    accumulate from 0; the winner's opponents take 2 (4 for seven pairs or an
    okey discard); a stall costs everyone 1; gösterme costs each opponent 1
    whoever wins, in a stall too. Over five rounds (game_rounds 5) the
    lowest total wins."""
    rules = preset("penalty").with_overrides(game_rounds=5)
    scored = play_game(rules, 4, [
        (won(0), (0, 2, 2, 2)),
        (drawn(), (1, 3, 3, 3)),
        (drawn(2), (3, 5, 4, 5)),
        (won(3, PAIRS, gosterme=(1,)), (8, 9, 9, 6)),
        (won(1, okey_discard=True), (12, 9, 13, 10)),
    ])
    assert scored[-1].winners == (1,)


def test_target_game_to_21_okey_gg():
    """§9.2 TARGET, §9.3 okey.gg: the winner gains the value towards 21, a
    drawn round scores nothing, there is no round limit, and the first
    score to reach 21 ends the game. §8.3: the okey.gg rules have no
    gösterme, so a result that lists one scores nothing for it."""
    scored = play_game(preset("okey.gg"), 4, [
        (won(0), (2, 0, 0, 0)),
        (won(1, PAIRS), (2, 4, 0, 0)),
        (drawn(), (2, 4, 0, 0)),
        (won(0, okey_discard=True), (6, 4, 0, 0)),
        (won(2, gosterme=(0,)), (6, 4, 2, 0)),
        (won(0, PAIRS, okey_discard=True), (14, 4, 2, 0)),
        (won(1, okey_discard=True), (14, 8, 2, 0)),
        (won(0, PAIRS), (18, 8, 2, 0)),
        (won(3), (18, 8, 2, 2)),
        (drawn(0), (18, 8, 2, 2)),
        (won(0, okey_discard=True), (22, 8, 2, 2)),
    ])
    assert scored[-1].winners == (0,)


def test_okey_gg_scores_no_gosterme_in_a_drawn_round():
    """§8.3, §9.3: the okey.gg rules have no gösterme and write nothing for
    anyone when the tiles run out: at 20 a drawn round with a gösterme listed
    leaves the table as it was and does not end the game (it used to take
    seat 0 to 21)."""
    scored = score_round(preset("okey.gg"), 4, Table((20, 0, 0, 0), 3), drawn(0))
    assert scored.table.scores == (20, 0, 0, 0)
    assert not scored.game_over
    counted = score_round(preset("classic"), 4, Table((20, 20, 20, 20), 3), drawn(0))
    assert counted.table.scores == (20, 19, 19, 19)
