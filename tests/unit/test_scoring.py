"""Scoring one round (docs/rules.md §9.1, §9.3, §9.4): the round's value,
gösterme in every table mode, drawn rounds, the presets, the input the engine
refuses, and scoring a real finished round (winner, seats, next dealer)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from game_support import arrange, code, codes, end_dry, give, outcome_of, play, start
from okey_rules.errors import InvalidInputError
from okey_rules.play.game_types import GameState
from okey_rules.play.round_types import Move, MoveKind
from okey_rules.ruleset import PRESETS, ColourDouble, Game, Ruleset, ScoringMode, preset
from okey_rules.scores.scoring import (
    next_dealer,
    one_colour_of,
    result_of_outcome,
    score_game,
    score_round,
    seats_in_game,
    start_table,
)
from okey_rules.scores.scoring_types import RoundResult, RoundScore, ScoreRule, Table
from okey_rules.search.hand_types import WinKind
from okey_rules.tiles import Color

MELDS = WinKind.MELDS
PAIRS = WinKind.SEVEN_PAIRS
KAFA = WinKind.KAFA


def won(
    seat: int,
    kind: WinKind = MELDS,
    *,
    okey_discard: bool = False,
    colour: Color | None = None,
    gosterme: tuple[int, ...] = (),
) -> RoundResult:
    return RoundResult(
        drawn=False, winner=seat, kind=kind, okey_discard=okey_discard, one_colour=colour,
        gosterme=gosterme,
    )


def drawn(*gosterme: int) -> RoundResult:
    return RoundResult(drawn=True, gosterme=gosterme)


def rules_of(mode: ScoringMode, **options: object) -> Ruleset:
    return Ruleset(scoring_mode=mode, **options)  # type: ignore[arg-type]


def lines_of(scored: RoundScore, rule: ScoreRule) -> list[tuple[int, tuple[int, ...]]]:
    """(seat, deltas) of every line of `rule`, in order."""
    return [(line.seat, line.deltas) for line in scored.lines if line.rule is rule]


def refused_field(call: Callable[[], object]) -> str:
    """The field an InvalidInputError names; fails when the call is accepted."""
    with pytest.raises(InvalidInputError) as caught:
        call()
    assert caught.value.description
    return caught.value.field


# --- §9.1 round values --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "result", "value"),
    [
        ({}, won(0), 2),
        ({}, won(0, okey_discard=True), 4),
        ({}, won(0, PAIRS), 4),
        ({}, won(0, PAIRS, okey_discard=True), 8),
        ({"multipliers_combine": False}, won(0, PAIRS, okey_discard=True), 4),
        ({"multipliers_combine": False}, won(0, PAIRS), 4),
        ({"colour_double": ColourDouble.ANY}, won(0, colour=Color.BLUE), 4),
        ({"colour_double": ColourDouble.ANY}, won(0, colour=Color.YELLOW, okey_discard=True), 8),
        ({"colour_double": ColourDouble.ANY}, won(0, PAIRS, okey_discard=True, colour=Color.RED),
         16),
        ({"colour_double": ColourDouble.ANY, "multipliers_combine": False},
         won(0, PAIRS, okey_discard=True, colour=Color.RED), 4),
        ({"colour_double": ColourDouble.ANY}, won(0), 2),
        ({"colour_double": ColourDouble.RED_OR_BLACK}, won(0, colour=Color.RED), 4),
        ({"colour_double": ColourDouble.RED_OR_BLACK}, won(0, colour=Color.BLACK), 4),
        ({"colour_double": ColourDouble.RED_OR_BLACK}, won(0, colour=Color.BLUE), 2),
        ({"colour_double": ColourDouble.RED_OR_BLACK}, won(0, colour=Color.YELLOW), 2),
        ({}, won(0, colour=Color.RED), 2),
        ({"kafa": True}, won(0, KAFA, colour=Color.BLUE), 2),
        ({"kafa": True}, won(0, KAFA, okey_discard=True, colour=Color.BLUE), 4),
        ({"kafa": True, "colour_double": ColourDouble.ANY}, won(0, KAFA, colour=Color.BLUE), 4),
        ({"kafa": True, "colour_double": ColourDouble.RED_OR_BLACK},
         won(0, KAFA, colour=Color.BLUE), 2),
    ],
    ids=[
        "base-2",
        "okey-discard-x2",
        "seven-pairs-x2",
        "seven-pairs-and-okey-discard-combine-to-8",
        "multipliers-combine-false-largest-only-4",
        "multipliers-combine-false-single-double-still-4",
        "colour-double-any-blue-hand",
        "colour-double-with-okey-discard-8",
        "colour-double-seven-pairs-okey-discard-16",
        "colour-double-three-doubles-not-combined-4",
        "colour-double-any-needs-one-colour",
        "red-or-black-red-hand",
        "red-or-black-black-hand",
        "red-or-black-blue-hand-not-doubled",
        "red-or-black-yellow-hand-not-doubled",
        "colour-double-off-red-hand-not-doubled",
        "kafa-is-worth-a-melds-win",
        "kafa-with-an-okey-discard-x2",
        "kafa-one-colour-doubles-under-any",
        "blue-kafa-not-doubled-under-red-or-black",
    ],
)
def test_round_value(options, result, value):
    """§9.1: 2 for a win; an okey discard, seven pairs and (variant) a one-colour
    hand each double it; the doubles multiply unless multipliers_combine is off,
    then only one x2 applies. Each opponent loses the value in a countdown."""
    rules = Ruleset(**options)
    scored = score_round(rules, 4, None, result)
    assert scored.value == value
    assert scored.deltas == (0, -value, -value, -value)
    assert scored.table == Table((20, 20 - value, 20 - value, 20 - value), 1)


def test_each_double_is_a_line_with_its_factor():
    """§9.1: the answer shows why: the base win, then a x2 line per double."""
    rules = Ruleset(colour_double=ColourDouble.ANY)
    scored = score_round(rules, 4, None, won(2, PAIRS, okey_discard=True, colour=Color.BLACK))
    doubles = [(line.rule, line.seat, line.factor) for line in scored.lines[:4]]
    assert doubles == [
        (ScoreRule.WIN, 2, 0),
        (ScoreRule.OKEY_DISCARD, 2, 2),
        (ScoreRule.SEVEN_PAIRS, 2, 2),
        (ScoreRule.COLOUR_DOUBLE, 2, 2),
    ]
    assert lines_of(scored, ScoreRule.ROUND_VALUE) == [(2, (-16, -16, 0, -16))]
    assert lines_of(scored, ScoreRule.LARGEST_MULTIPLIER) == []


def test_multipliers_combine_false_says_only_the_largest_applies():
    """§9.1 multipliers_combine false: two doubles still list, plus one line
    saying only one x2 counts."""
    rules = Ruleset(multipliers_combine=False)
    scored = score_round(rules, 4, None, won(1, PAIRS, okey_discard=True))
    assert [line.rule for line in scored.lines[:4]] == [
        ScoreRule.WIN, ScoreRule.OKEY_DISCARD, ScoreRule.SEVEN_PAIRS,
        ScoreRule.LARGEST_MULTIPLIER,
    ]
    assert scored.value == 4


@pytest.mark.parametrize(
    ("hand", "okey", "colour"),
    [
        ("R1 R2 R3 R4 R5 R6 R7 R1 R2 R3 R4 R5 R6 R7", "K5", Color.RED),
        ("K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K12 K13 K1", "Y5", Color.BLACK),
        ("R1 R2 R3 R4 R5 R6 R7 R1 R2 R3 R4 R6 R7 R5", "R5", Color.RED),
        ("R1 R2 R3 R4 R5 R6 R7 R1 R2 R3 R4 R6 B9 B9", "B9", Color.RED),
        ("R1 R2 R3 R4 R6 R7 R8 R1 R2 R3 R4 R6 R7 F", "R5", Color.RED),
        ("B1 B2 B3 B4 B6 B7 B8 B1 B2 B3 B4 B6 B7 F", "R5", None),
        ("R1 R2 R3 R4 R5 R6 R7 R1 R2 R3 R4 R5 R6 Y7", "K5", None),
    ],
    ids=[
        "all-red",
        "all-black",
        "an-okey-of-the-same-colour",
        "okeys-of-another-colour-ignored",
        "false-joker-counts-as-the-okeys-colour",
        "false-joker-of-a-red-okey-in-a-blue-hand",
        "one-tile-of-another-colour",
    ],
)
def test_one_colour_of(hand, okey, colour):
    """§9.1: one colour is judged on the 14 tiles; the okeys (wild) do not
    count; a false joker plays as the okey's face, so it has the okey's colour."""
    assert one_colour_of(codes(hand), code(okey)) == colour


# --- §9.1-§9.2 gösterme in every table mode ------------------------------------------------------


GOSTERME_BY_SEAT_2 = [
    (ScoringMode.COUNTDOWN, {}, (-1, -1, 0, -1)),
    (ScoringMode.COUNTDOWN, {"partnership": True}, (0, -1, 0, -1)),
    (ScoringMode.TARGET, {}, (0, 0, 1, 0)),
    (ScoringMode.PENALTY, {}, (1, 1, 0, 1)),
    (ScoringMode.ZERO_SUM, {}, (-1, -1, 3, -1)),
]
GOSTERME_IDS = ["countdown", "partnership", "target", "penalty", "zero-sum"]


@pytest.mark.parametrize(("mode", "options", "gosterme"), GOSTERME_BY_SEAT_2, ids=GOSTERME_IDS)
def test_gosterme_per_mode(mode, options, gosterme):
    """§9.1, §9.2: gösterme is 1 per opponent: countdown each opponent -1
    (partnership: the other team), target the claimant +1, penalty each
    opponent +1, zero-sum each opponent pays 1 to the claimant. It adds to the
    round's value whoever wins."""
    rules = rules_of(mode, **options)
    plain = score_round(rules, 4, None, won(1))
    shown = score_round(rules, 4, None, won(1, gosterme=(2,)))
    assert lines_of(shown, ScoreRule.GOSTERME) == [(2, gosterme)]
    assert shown.deltas == tuple(a + b for a, b in zip(plain.deltas, gosterme, strict=True))
    assert shown.value == plain.value == 2


@pytest.mark.parametrize(("mode", "options", "gosterme"), GOSTERME_BY_SEAT_2, ids=GOSTERME_IDS)
def test_gosterme_scores_in_a_drawn_round(mode, options, gosterme):
    """§9.1: gösterme is shown at the start, so it scores in a drawn round too
    (in PENALTY on top of the stall's 1 each)."""
    rules = rules_of(mode, **options)
    stall = 1 if mode is ScoringMode.PENALTY else 0
    scored = score_round(rules, 4, None, drawn(2))
    assert scored.deltas == tuple(stall + change for change in gosterme)
    assert scored.value == 0
    assert not scored.game_over


@pytest.mark.parametrize(("mode", "options", "_gosterme"), GOSTERME_BY_SEAT_2, ids=GOSTERME_IDS)
def test_gosterme_scores_false(mode, options, _gosterme):
    """§9.1 option gosterme_scores false: gösterme is recorded but scores
    nothing, in a won round or a drawn one."""
    rules = rules_of(mode, gosterme_scores=False, **options)
    assert score_round(rules, 4, None, won(1, gosterme=(2, 3))).deltas == (
        score_round(rules, 4, None, won(1)).deltas
    )
    stall = 1 if mode is ScoringMode.PENALTY else 0
    scored = score_round(rules, 4, None, drawn(2))
    assert scored.deltas == (stall,) * 4
    assert lines_of(scored, ScoreRule.GOSTERME) == []


def test_several_gosterme_score_in_the_order_shown():
    """§9.1: each seat's gösterme is a line of its own, in the order shown."""
    scored = score_round(Ruleset(), 4, None, drawn(3, 0))
    assert lines_of(scored, ScoreRule.GOSTERME) == [(3, (-1, -1, -1, 0)), (0, (0, -1, -1, -1))]
    assert scored.deltas == (-1, -2, -2, -1)


def test_stall_in_penalty():
    """§9.2 PENALTY: a round that ends with the wall empty costs every seat 1."""
    scored = score_round(rules_of(ScoringMode.PENALTY), 3, Table((4, 0, 2), 2), drawn())
    assert scored.deltas == (1, 1, 1)
    assert scored.table == Table((5, 1, 3), 3)
    assert lines_of(scored, ScoreRule.STALL) == [(0, (1, 1, 1))]
    assert lines_of(scored, ScoreRule.DRAWN_ROUND) == []


@pytest.mark.parametrize(
    "mode", [ScoringMode.COUNTDOWN, ScoringMode.TARGET, ScoringMode.ZERO_SUM],
    ids=["countdown", "target", "zero-sum"],
)
def test_drawn_round_scores_nothing_otherwise(mode):
    """§9.2: outside PENALTY a drawn round changes no score; it still counts
    as a round played."""
    rules = rules_of(mode)
    before = start_table(rules, 4)
    scored = score_round(rules, 4, before, drawn())
    assert scored.deltas == (0, 0, 0, 0)
    assert scored.table == Table(before.scores, 1)
    assert scored.value == 0
    assert [line.rule for line in scored.lines] == [ScoreRule.DRAWN_ROUND]


# --- §9.3 presets -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "start", "deltas", "winners"),
    [
        ("classic", 20, (-3, -1, -2, -3), (1, 2)),
        ("tournament", 20, (-2, 0, -2, -2), (1,)),
        ("points-limit", 20, (-3, -1, -2, -3), (1, 2)),
        ("okey.gg", 0, (0, 2, 0, 0), (1,)),
        ("penalty", 0, (3, 1, 2, 3), (1,)),
    ],
)
def test_preset_scores_as_its_rules_text(name, start, deltas, winners):
    """§9.3: seat 1 wins by melds and seat 2 shows gösterme, under each
    preset: the Japanese rules text (classic), the Russian tournament scoring
    (no gösterme; the single highest wins), the French online table, okey.gg
    (a target game that plays no gösterme, §8.3: seat 2's scores nothing) and
    the Italian penalty table. A one-round game
    (game_rounds 1) ends at once, so each preset's winners show too."""
    rules = preset(name)
    assert start_table(rules, 4) == Table((start,) * 4)
    scored = score_round(rules, 4, None, won(1, gosterme=(2,)))
    assert scored.deltas == deltas
    assert not scored.game_over
    one_round = rules.with_overrides(game_rounds=1)
    assert score_round(one_round, 4, None, won(1, gosterme=(2,))).winners == winners


def test_points_limit_preset_starts_from_the_chosen_limit():
    """§9.3: the French online table sets the limit between 5 and 21 (default 20)."""
    rules = preset("points-limit")
    assert rules.start_points == 20
    assert rules.gosterme_in_first_turn
    assert start_table(rules.with_overrides(start_points=5), 4) == Table((5, 5, 5, 5))


def test_the_101_preset_cannot_be_scored_yet():
    """§9.3: Okey 101 rounds are not scored yet (invalid input naming the game)."""
    assert refused_field(lambda: score_round(PRESETS["101"], 4, None, won(0))) == "ruleset.game"
    assert refused_field(lambda: start_table(PRESETS["101"], 4)) == "ruleset.game"


# --- §9.2 input the engine refuses (decision: the field is named) --------------------------------


COUNTDOWN = Ruleset()
ELIMINATION = Ruleset(elimination=True)
PARTNERSHIP = Ruleset(partnership=True)
TARGET = rules_of(ScoringMode.TARGET)
PENALTY = rules_of(ScoringMode.PENALTY)
ZERO_SUM = rules_of(ScoringMode.ZERO_SUM)
OUT_SEAT_1 = Table((20, 0, 20, 20), 3)  # elimination: seat 1 has left


@pytest.mark.parametrize(
    ("rules", "players", "table", "result", "field"),
    [
        (COUNTDOWN, 5, None, won(0), "player_count"),
        (COUNTDOWN, 1, None, won(0), "player_count"),
        (PARTNERSHIP, 3, None, won(0), "player_count"),
        (COUNTDOWN, 4, None, won(4), "round.result.winner_seat"),
        (COUNTDOWN, 3, None, won(3), "round.result.winner_seat"),
        (ELIMINATION, 4, OUT_SEAT_1, won(1), "round.result.winner_seat"),
        (COUNTDOWN, 4, None, won(0, gosterme=(2, 7)), "round.result.gosterme_seats[1]"),
        (ELIMINATION, 4, OUT_SEAT_1, drawn(1), "round.result.gosterme_seats[0]"),
        (COUNTDOWN, 4, None, drawn(2, 3, 2), "round.result.gosterme_seats[2]"),
        (COUNTDOWN, 4, None, RoundResult(drawn=True, kind=MELDS), "round.result.drawn"),
        (COUNTDOWN, 4, None, RoundResult(drawn=True, okey_discard=True), "round.result.drawn"),
        (COUNTDOWN, 4, None, RoundResult(drawn=True, one_colour=Color.RED),
         "round.result.drawn"),
        (COUNTDOWN, 4, None, RoundResult(drawn=False, winner=0), "round.result.win_kind"),
        (COUNTDOWN, 4, None, won(0, KAFA), "round.result.win_kind"),
        (COUNTDOWN, 4, Table((20, 20, 20)), won(0), "table.scores"),
        (COUNTDOWN, 4, Table((20, 21, 20, 20)), won(0), "table.scores[1]"),
        (Ruleset(start_points=10), 4, Table((10, 10, 12, 10)), won(0), "table.scores[2]"),
        (TARGET, 4, Table((0, 0, -1, 0)), won(0), "table.scores[2]"),
        (PENALTY, 4, Table((3, -2, 0, 0)), won(0), "table.scores[1]"),
        (PARTNERSHIP, 4, Table((20, 18, 19, 18)), won(0), "table.scores[0]"),
        (ZERO_SUM, 4, Table((6, -2, -2, -1)), won(0), "table.scores"),
        (COUNTDOWN, 4, Table((20, 0, 20, 20)), won(0), "table"),
        (ELIMINATION, 4, Table((20, 0, -1, -3)), won(0), "table"),
        (PARTNERSHIP, 4, Table((-1, 5, -1, 5)), won(1), "table"),
        (TARGET, 4, Table((21, 0, 0, 0)), won(1), "table"),
        (rules_of(ScoringMode.PENALTY, game_rounds=5), 4, Table((0, 2, 2, 2), 5), won(0),
         "table.rounds_played"),
    ],
    ids=[
        "five-seats",
        "one-seat",
        "partnership-with-three-seats",
        "winner-seat-out-of-range",
        "winner-seat-out-of-range-at-three-seats",
        "winner-eliminated",
        "gosterme-seat-out-of-range",
        "gosterme-by-an-eliminated-seat",
        "gosterme-twice-by-one-seat",
        "drawn-with-a-win-kind",
        "drawn-with-an-okey-discard",
        "drawn-with-a-colour",
        "won-without-a-win-kind",
        "kafa-when-kafa-is-off",
        "table-with-the-wrong-count",
        "countdown-score-above-the-start",
        "countdown-score-above-a-chosen-start",
        "negative-score-in-target",
        "negative-score-in-penalty",
        "partners-with-different-scores",
        "zero-sum-not-adding-up-to-0",
        "countdown-game-already-over",
        "elimination-game-already-over",
        "partnership-game-already-over",
        "target-game-already-over",
        "rounds-played-reach-game-rounds",
    ],
)
def test_invalid_input_names_the_field(rules, players, table, result, field):
    """§9.2: input no game under these rules could produce is refused as
    InvalidInputError naming the offending field, never scored."""
    assert refused_field(lambda: score_round(rules, players, table, result)) == field


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"start_points": 4}, "ruleset.start_points"),
        ({"start_points": 22}, "ruleset.start_points"),
        ({"target_points": 6}, "ruleset.target_points"),
        ({"target_points": 32}, "ruleset.target_points"),
        ({"countdown_winners": 0}, "ruleset.countdown_winners"),
        ({"countdown_winners": 3}, "ruleset.countdown_winners"),
        ({"game_rounds": 100}, "ruleset.game_rounds"),
        ({"game_rounds": -1}, "ruleset.game_rounds"),
        ({"scoring_mode": ScoringMode.TARGET, "elimination": True}, "ruleset.elimination"),
        ({"scoring_mode": ScoringMode.PENALTY, "partnership": True}, "ruleset.partnership"),
        ({"scoring_mode": ScoringMode.ZERO_SUM, "partnership": True}, "ruleset.partnership"),
        ({"elimination": True, "partnership": True}, "ruleset.elimination"),
    ],
    ids=[
        "start-points-below-5",
        "start-points-above-21",
        "target-points-below-7",
        "target-points-above-31",
        "countdown-winners-0",
        "countdown-winners-3",
        "game-rounds-above-99",
        "game-rounds-negative",
        "elimination-outside-countdown",
        "partnership-in-penalty",
        "partnership-in-zero-sum",
        "elimination-with-partnership",
    ],
)
def test_invalid_scoring_option_names_the_field(options, field):
    """§5, §9.2: a scoring option out of its range, or in a mode it does not
    belong to, is invalid input naming the option."""
    assert refused_field(lambda: Ruleset(**options)) == field


@pytest.mark.parametrize(
    ("mode", "start"),
    [(ScoringMode.COUNTDOWN, 20), (ScoringMode.TARGET, 0), (ScoringMode.PENALTY, 0),
     (ScoringMode.ZERO_SUM, 0)],
)
def test_an_unset_table_is_the_games_start(mode, start):
    """§9.2: without a table the round is the game's first: everyone at the
    mode's start (the countdown's start_points, else 0)."""
    rules = rules_of(mode)
    assert start_table(rules, 3) == Table((start,) * 3, 0)
    assert score_round(rules, 3, None, drawn()) == score_round(
        rules, 3, Table((start,) * 3), drawn()
    )


# --- §9.4 from a finished state -----------------------------------------------------------------


MELDS_14 = "R1 R2 R3 R4 Y5 Y6 Y7 K9 K10 K11 K12 R8 Y8 B8"  # okey B1 (indicator B13)
RED_14 = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R5"  # okey K5 (indicator K4)


def finished(rack15: str, indicator: str, finish: int, players: int = 4, dealer: int = 0,
             show: int | None = None) -> GameState:
    """A round whose opening seat (dealer + 1) finishes at once with `finish`,
    after `show` (if given) has shown gösterme."""
    opener = (dealer + 1) % players
    state = arrange(start(players=players, dealer=dealer), {opener: codes(rack15)},
                    indicator=code(indicator))
    if show is not None:
        state = give(state, show, state.gosterme_tile())
        state = play(state, Move(MoveKind.GOSTERME, show))
    return play(state, Move(MoveKind.DECLARE_WIN, opener, finish))


def test_result_of_outcome_from_a_finished_state():
    """§9.4: a won state's outcome gives the winner, how, the okey discard
    and the gösterme shown; the one-colour finding comes from its 14 tiles."""
    state = finished(MELDS_14 + " B1", "B13", code("B1"), show=3)
    outcome = outcome_of(state)
    result = result_of_outcome(outcome, state, [0, 1, 2, 3])
    assert result == RoundResult(
        drawn=False, winner=1, kind=MELDS, okey_discard=True, one_colour=None, gosterme=(3,)
    )
    scored = score_round(state.rules, 4, None, result)
    assert scored.value == 4
    assert scored.deltas == (-5, -1, -5, -4)


def test_result_of_outcome_finds_a_one_colour_hand():
    """§9.1, §9.4: an all-red winning hand is reported red and doubles under
    the colour-double variant."""
    state = finished(RED_14 + " Y9", "K4", code("Y9"))
    result = result_of_outcome(outcome_of(state), state, [0, 1, 2, 3])
    assert (result.kind, result.okey_discard, result.one_colour) == (MELDS, False, Color.RED)
    assert score_round(Ruleset(colour_double=ColourDouble.RED_OR_BLACK), 4, None,
                       result).value == 4


def test_result_of_outcome_maps_the_deal_seats_to_the_table_seats():
    """§9.4: a three-seat deal at a table whose seat 1 has left: deal seats
    0, 1, 2 are table seats 0, 2, 3."""
    state = finished(MELDS_14 + " K2", "B13", code("K2"), players=3, dealer=1, show=0)
    assert outcome_of(state).winner == 2
    table = Table((20, -1, 20, 20), 4)
    seats = seats_in_game(ELIMINATION, table)
    assert seats == [0, 2, 3]
    result = result_of_outcome(outcome_of(state), state, seats)
    assert (result.winner, result.gosterme) == (3, (0,))
    scored = score_round(ELIMINATION, 4, table, result)
    assert scored.deltas == (-2, 0, -3, -1)


def test_result_of_outcome_of_a_drawn_state():
    """§8.5, §9.4: a round that ended with the wall empty (by the last discard, or
    by the next seat declining it) is a drawn result, with its gösterme."""
    state = arrange(start(players=4, dealer=0), {}, indicator=code("B13"))
    state = give(state, 2, state.gosterme_tile())
    state = play(state, Move(MoveKind.GOSTERME, 2))
    state = end_dry(state)
    result = result_of_outcome(outcome_of(state), state, [0, 1, 2, 3])
    assert result == RoundResult(drawn=True, gosterme=(2,))
    assert score_round(Ruleset(), 4, None, result).deltas == (-1, -1, 0, -1)


@pytest.mark.parametrize(
    ("dealer", "players", "next_seat"),
    [(0, 4, 1), (2, 4, 3), (3, 4, 0), (1, 2, 0), (2, 3, 0)],
)
def test_next_dealer_without_elimination(dealer, players, next_seat):
    """§9.4: the next round's dealer is the seat to the dealer's right: the
    next seat number, after the last comes 0."""
    rules = Ruleset()
    before = start_table(rules, players)
    after = score_round(rules, players, before, won(0)).table
    assert next_dealer(rules, dealer, before, after) == next_seat


@pytest.mark.parametrize(
    ("before", "dealer", "next_seat"),
    [
        ((20, 2, 20, 20), 0, 1),  # seat 1 leaves; table seat 0 dealt: table seat 2 = new seat 1
        ((20, 2, 20, 20), 1, 1),  # the dealer itself leaves: table seat 2 = new seat 1
        ((20, 2, 20, 20), 3, 0),  # table seat 3 dealt: table seat 0 = new seat 0
        ((20, 2, 20, 2), 2, 0),  # seats 1 and 3 leave; table seat 2 dealt: seat 0 next
        ((20, 2, 20, 2), 0, 1),  # seats 1 and 3 leave; table seat 0 dealt: table seat 2 = seat 1
    ],
)
def test_next_dealer_with_elimination(before, dealer, next_seat):
    """§9.4: seats that have left (here the seats at 2 when seat 0 wins) are
    skipped, and the next dealer is given as the next deal numbers the seats
    still in the game."""
    table = Table(before, 3)
    after = score_round(ELIMINATION, 4, table, won(0)).table
    assert [score <= 0 for score in after.scores] == [score == 2 for score in before]
    assert next_dealer(ELIMINATION, dealer, table, after) == next_seat


def test_next_dealer_when_a_three_seat_deal_was_dealt():
    """§9.4: after a round dealt to table seats 0, 2, 3 (seat 1 out), deal
    seat 2 (table seat 3) dealt: table seat 0 deals next, deal seat 0."""
    before = Table((20, -1, 20, 20), 4)
    after = score_round(ELIMINATION, 4, before, won(0)).table
    assert next_dealer(ELIMINATION, 2, before, after) == 0
    assert next_dealer(ELIMINATION, 0, before, after) == 1


def test_score_game_refuses_a_round_after_the_game_ended():
    """§9.4: the rounds of a game are scored in order from its start; a round
    after the one that ended it is refused, naming it."""
    rules = Ruleset(start_points=5)
    rounds = [won(0, PAIRS), won(0, okey_discard=True), won(1)]
    assert score_game(rules, 4, rounds[:2])[-1].game_over
    assert refused_field(lambda: score_game(rules, 4, rounds)) == "rounds[2]"


def test_kafa_without_kafa_rules_is_refused_in_a_game():
    """§9.2: a result claiming kafa under rules without kafa is refused."""
    field = refused_field(lambda: score_game(Ruleset(), 4, [won(0), won(1, KAFA)]))
    assert field.startswith("rounds[1]")
    assert field.endswith("win_kind")


def test_okey_101_rules_are_refused_for_a_game():
    """§9.3: Okey 101 is not scored yet, whole games neither."""
    rules = Ruleset(game=Game.OKEY_101)
    assert refused_field(lambda: score_game(rules, 4, [won(0)])) == "ruleset.game"
