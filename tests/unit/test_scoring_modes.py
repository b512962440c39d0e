"""The table modes over a game (docs/rules.md §9.2): when a game ends and who
wins it in COUNTDOWN (with elimination or partnership), TARGET, PENALTY and
ZERO_SUM, game_rounds and kafa; and a property over random games: ZERO_SUM
rounds sum to 0, COUNTDOWN scores never rise, TARGET and PENALTY never fall."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from okey_rules.errors import InvalidInputError
from okey_rules.ruleset import ColourDouble, Ruleset, ScoringMode
from okey_rules.scores.scoring import score_game, score_round, start_table
from okey_rules.scores.scoring_types import RoundResult, ScoreRule, Table
from okey_rules.search.hand_types import WinKind
from okey_rules.tiles import Color

MELDS = WinKind.MELDS
PAIRS = WinKind.SEVEN_PAIRS
KAFA = WinKind.KAFA
COUNTDOWN = Ruleset()
ELIMINATION = Ruleset(elimination=True)
PARTNERSHIP = Ruleset(partnership=True)
TARGET = Ruleset(scoring_mode=ScoringMode.TARGET)
PENALTY = Ruleset(scoring_mode=ScoringMode.PENALTY)
ZERO_SUM = Ruleset(scoring_mode=ScoringMode.ZERO_SUM)


def won(
    seat: int, kind: WinKind = MELDS, *, okey_discard: bool = False,
    colour: Color | None = None, gosterme: tuple[int, ...] = (),
) -> RoundResult:
    return RoundResult(
        drawn=False, winner=seat, kind=kind, okey_discard=okey_discard, one_colour=colour,
        gosterme=gosterme,
    )


def drawn(*gosterme: int) -> RoundResult:
    return RoundResult(drawn=True, gosterme=gosterme)


# --- COUNTDOWN ----------------------------------------------------------------------------------


def test_countdown_goes_on_while_every_score_is_above_0():
    """§9.2 COUNTDOWN: the game is not over while every score is above 0."""
    scored = score_round(COUNTDOWN, 4, Table((20, 3, 20, 20), 7), won(0))
    assert scored.table == Table((20, 1, 18, 18), 8)
    assert (scored.game_over, scored.winners) == (False, ())


@pytest.mark.parametrize("low", [2, 1], ids=["reaches-0", "goes-below-0"])
def test_countdown_ends_when_a_score_is_0_or_below(low):
    """§9.2 COUNTDOWN: the game is over once a score is at 0 or below."""
    scored = score_round(COUNTDOWN, 4, Table((20, low, 15, 10)), won(0))
    assert scored.table.scores[1] == low - 2
    assert scored.game_over
    assert [line.rule for line in scored.lines][-1] is ScoreRule.GAME_OVER


def test_countdown_two_highest_win():
    """§9.2 COUNTDOWN (the Japanese rules text, the French online table): at
    four seats the two highest scores win."""
    scored = score_round(COUNTDOWN, 4, Table((20, 2, 15, 10)), won(0))
    assert scored.table.scores == (20, 0, 13, 8)
    assert scored.winners == (0, 2)


def test_countdown_winners_1_single_highest_wins():
    """§9.2 countdown_winners 1 (the Russian tournament scoring): only the
    highest score wins."""
    rules = Ruleset(countdown_winners=1)
    assert score_round(rules, 4, Table((20, 2, 15, 10)), won(0)).winners == (0,)


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("winners", [1, 2])
def test_countdown_single_highest_wins_at_two_or_three_seats(players, winners):
    """§9.2: never more than half the table wins: at 2-3 seats only the
    highest score, whatever countdown_winners says."""
    rules = Ruleset(countdown_winners=winners)
    before = Table((2, 20, 15)[:players])
    scored = score_round(rules, players, before, won(1))
    assert scored.game_over
    assert scored.winners == (1,)


def test_countdown_seats_tied_with_the_last_winner_win_too():
    """§9.2: a seat tied with the last winning place wins as well (three
    winners at four seats here)."""
    scored = score_round(COUNTDOWN, 4, Table((20, 2, 13, 13)), won(0))
    assert scored.table.scores == (20, 0, 11, 11)
    assert scored.winners == (0, 2, 3)


def test_countdown_single_highest_tied_all_win():
    """§9.2: with countdown_winners 1, seats tied for the highest score all win."""
    rules = Ruleset(countdown_winners=1)
    scored = score_round(rules, 4, Table((12, 2, 12, 5)), won(3))
    assert scored.table.scores == (10, 0, 10, 5)
    assert scored.winners == (0, 2)


# --- COUNTDOWN with elimination -----------------------------------------------------------------


def test_elimination_a_seat_at_0_leaves_and_the_game_goes_on():
    """§9.2 elimination: a seat at 0 or below leaves the game; with two or
    more seats still in, the game goes on."""
    scored = score_round(ELIMINATION, 4, Table((20, 2, 20, 20), 5), won(0))
    assert scored.table == Table((20, 0, 18, 18), 6)
    assert scored.eliminated == (False, True, False, False)
    assert not scored.game_over
    eliminated = [line.seat for line in scored.lines if line.rule is ScoreRule.ELIMINATED]
    assert eliminated == [1]


def test_elimination_a_seat_that_left_pays_no_more():
    """§9.2 elimination: the seat that left keeps its score and pays nothing
    for wins or gösterme; the others pay as before."""
    before = Table((20, 0, 18, 18), 6)
    scored = score_round(ELIMINATION, 4, before, won(0, gosterme=(2,)))
    assert scored.deltas == (-1, 0, -2, -3)
    assert scored.eliminated == (False, True, False, False)
    # Not re-announced: it left in an earlier round.
    assert all(line.rule is not ScoreRule.ELIMINATED for line in scored.lines)


def test_elimination_last_seat_wins():
    """§9.2 elimination: the game is over when one seat is left; it wins."""
    scored = score_round(ELIMINATION, 4, Table((20, -1, 2, 2), 9), won(0))
    assert scored.table.scores == (20, -1, 0, 0)
    assert scored.game_over
    assert scored.winners == (0,)


def test_elimination_game_ended_by_game_rounds_goes_to_the_highest_seat_still_in():
    """§9.2 elimination with game_rounds: several seats still in when the rounds run
    out: the highest of them wins, not all of them."""
    rules = Ruleset(elimination=True, game_rounds=2)
    scored = score_game(rules, 4, [won(0), won(1)])[-1]
    assert scored.table.scores == (18, 18, 16, 16)
    assert scored.game_over
    assert scored.winners == (0, 1)
    scored = score_game(rules, 4, [won(0), won(0)])[-1]
    assert scored.winners == (0,)


def test_elimination_all_out_at_once_the_highest_of_them_wins():
    """§9.2 elimination: when every seat still in leaves in the same round,
    the highest of them wins (a seat out earlier cannot)."""
    # Seat 0 wins with an okey discard (4 each), seat 1 shows gösterme (1 each).
    scored = score_round(
        ELIMINATION, 4, Table((1, 1, 2, -1)), won(0, okey_discard=True, gosterme=(1,))
    )
    assert scored.table.scores == (0, -3, -3, -1)
    assert scored.eliminated == (True, True, True, True)
    assert scored.game_over
    assert scored.winners == (0,)


def test_elimination_game_with_two_seats_ends_when_one_leaves():
    """§9.2 elimination at two seats: one seat out leaves one: it wins."""
    scored = score_round(ELIMINATION, 2, Table((3, 2)), won(0))
    assert (scored.game_over, scored.winners) == (True, (0,))


# --- COUNTDOWN with partnership -----------------------------------------------------------------


def test_partnership_team_loses_once():
    """§9.2 partnership: seats 0+2 and 1+3 share a score; a win or gösterme
    costs the other team the value once (both its seats carry the team score)."""
    scored = score_round(PARTNERSHIP, 4, None, won(2, okey_discard=True))
    assert scored.table.scores == (20, 16, 20, 16)
    shown = score_round(PARTNERSHIP, 4, scored.table, drawn(1))
    assert shown.table.scores == (19, 16, 19, 16)


def test_partnership_winners_are_a_team():
    """§9.2 partnership: the game is over when a team is at 0 or below; the
    team with the higher score wins, both its seats."""
    scored = score_round(PARTNERSHIP, 4, Table((4, 2, 4, 2)), won(0))
    assert scored.table.scores == (4, 0, 4, 0)
    assert (scored.game_over, scored.winners) == (True, (0, 2))


def test_partnership_teams_tied_both_win():
    """§9.2 partnership: teams tied at the end both win (the tie rule)."""
    scored = score_round(PARTNERSHIP, 4, Table((1, 1, 1, 1)), drawn(0, 1))
    assert scored.table.scores == (0, 0, 0, 0)
    assert scored.winners == (0, 1, 2, 3)


def test_partnership_partners_must_agree():
    """§9.2 partnership: a table whose partners hold different scores is
    refused, naming the first seat that differs from its partner."""
    with pytest.raises(InvalidInputError) as caught:
        score_round(PARTNERSHIP, 4, Table((20, 18, 20, 17)), won(0))
    assert caught.value.field == "table.scores[1]"


def test_partnership_needs_four_seats():
    """§9.2 partnership is for four seats only."""
    with pytest.raises(InvalidInputError) as caught:
        start_table(PARTNERSHIP, 2)
    assert caught.value.field == "player_count"


# --- TARGET, PENALTY, ZERO_SUM ------------------------------------------------------------------


def test_target_only_the_winner_gains():
    """§9.2 TARGET: the winner gains the round's value; nobody loses."""
    scored = score_round(TARGET, 4, Table((3, 5, 0, 1), 4), won(2, PAIRS))
    assert scored.deltas == (0, 0, 4, 0)
    assert scored.table == Table((3, 5, 4, 1), 5)


@pytest.mark.parametrize("target", [7, 21, 31])
def test_target_end(target):
    """§9.2 TARGET: the game is over when a score reaches target_points; one
    point short it goes on."""
    rules = TARGET.with_overrides(target_points=target)
    short = score_round(rules, 4, Table((target - 3, 0, 0, 0)), won(0))
    assert not short.game_over
    reached = score_round(rules, 4, Table((target - 2, 0, 0, 0)), won(0))
    assert reached.table.scores[0] == target
    assert (reached.game_over, reached.winners) == (True, (0,))


def test_target_highest_wins_and_ties_all_win():
    """§9.2 TARGET: when more than one seat passes the target in a round, the
    highest wins; seats tied for it all win."""
    # Seat 0 wins (+2) and seat 1 shows gösterme (+1).
    ahead = score_round(TARGET, 4, Table((20, 20, 0, 0)), won(0, gosterme=(1,)))
    assert ahead.table.scores == (22, 21, 0, 0)
    assert ahead.winners == (0,)
    tied = score_round(TARGET, 4, Table((19, 20, 0, 0)), won(0, gosterme=(1,)))
    assert tied.winners == (0, 1)


def test_penalty_lowest_wins():
    """§9.2 PENALTY: opponents of the winner take the value as penalty; at
    the game's end the lowest total wins (ties: all tied)."""
    rules = PENALTY.with_overrides(game_rounds=2)
    rounds = score_game(rules, 3, [won(0), won(1, PAIRS)])
    assert [r.table.scores for r in rounds] == [(0, 2, 2), (4, 2, 6)]
    assert (rounds[-1].game_over, rounds[-1].winners) == (True, (1,))
    tied = score_game(rules, 3, [won(0), won(1)])
    assert tied[-1].table.scores == (2, 2, 4)
    assert tied[-1].winners == (0, 1)


def test_penalty_never_ends_by_itself():
    """§9.2 PENALTY without game_rounds: no score ends the game."""
    rounds = score_game(PENALTY, 4, [won(0, PAIRS, okey_discard=True)] * 40)
    assert rounds[-1].table.scores == (0, 320, 320, 320)
    assert not any(r.game_over for r in rounds)


@pytest.mark.parametrize(
    ("players", "result", "deltas"),
    [
        (4, won(0), (6, -2, -2, -2)),
        (4, won(1, okey_discard=True), (-4, 12, -4, -4)),
        (4, won(2, PAIRS), (-4, -4, 12, -4)),
        (4, drawn(3), (-1, -1, -1, 3)),
        (3, won(2), (-2, -2, 4)),
        (2, won(0, PAIRS, okey_discard=True), (8, -8)),
    ],
    ids=["plus-6-minus-2", "okey-discard-plus-12-minus-4", "seven-pairs-plus-12-minus-4",
         "gosterme-plus-3-minus-1", "three-seats", "two-seats"],
)
def test_zero_sum_each_opponent_pays_the_winner(players, result, deltas):
    """§9.2 ZERO_SUM: each opponent pays the value to the winner (+6/-2 at
    four seats, +12/-4 for an okey discard or seven pairs); the deltas add up to 0."""
    scored = score_round(ZERO_SUM, players, None, result)
    assert scored.deltas == deltas
    assert sum(scored.deltas) == 0
    assert not scored.game_over


def test_zero_sum_never_ends_by_itself_and_the_highest_wins():
    """§9.2 ZERO_SUM: only game_rounds ends it; the highest total wins."""
    results = [won(0), won(1, PAIRS), won(3), drawn(2)]
    assert not score_game(ZERO_SUM, 4, results * 10)[-1].game_over
    rounds = score_game(ZERO_SUM.with_overrides(game_rounds=4), 4, results)
    assert rounds[-1].table.scores == (-1, 7, -5, -1)
    assert (rounds[-1].game_over, rounds[-1].winners) == (True, (1,))


# --- game_rounds and kafa -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "winners"),
    [
        (COUNTDOWN, (0, 1)),
        (Ruleset(countdown_winners=1), (0,)),
        (PARTNERSHIP, (0, 2)),
        (TARGET, (0,)),
        (PENALTY, (0,)),
        (ZERO_SUM, (0,)),
    ],
    ids=["countdown", "countdown-1-winner", "partnership", "target", "penalty", "zero-sum"],
)
def test_game_rounds_end(rules, winners):
    """§9.2 game_rounds: the game ends after that many rounds whatever the
    mode and the scores; the mode's own rule then says who won."""
    limited = rules.with_overrides(game_rounds=3)
    results = [won(0), won(1), won(0, PAIRS)]
    rounds = score_game(limited, 4, results)
    assert [r.game_over for r in rounds] == [False, False, True]
    assert rounds[-1].table.rounds_played == 3
    assert rounds[-1].winners == winners
    assert not score_game(rules, 4, results)[-1].game_over


def test_a_drawn_round_counts_towards_game_rounds():
    """§9.2 game_rounds counts every round scored, drawn ones too."""
    rounds = score_game(COUNTDOWN.with_overrides(game_rounds=2), 4, [drawn(), drawn()])
    assert rounds[-1].game_over
    assert rounds[-1].winners == (0, 1, 2, 3)  # all tied at 20


@pytest.mark.parametrize(
    ("rules", "deltas"),
    [
        (Ruleset(kafa=True), (-2, -2, 0, -2)),
        (Ruleset(kafa=True, colour_double=ColourDouble.ANY), (-4, -4, 0, -4)),
        (Ruleset(kafa=True, scoring_mode=ScoringMode.TARGET), (0, 0, 2, 0)),
        (Ruleset(kafa=True, scoring_mode=ScoringMode.PENALTY), (2, 2, 0, 2)),
    ],
    ids=["countdown", "colour-double", "target", "penalty"],
)
def test_kafa_ends_the_game(rules, deltas):
    """§9.2: a kafa win ends the game at once and its winner wins, whatever
    the scores; the round is still scored (value 2, x2 for one colour when
    the colour double is on)."""
    scored = score_round(rules, 4, None, won(2, KAFA, colour=Color.YELLOW))
    assert scored.deltas == deltas
    assert (scored.game_over, scored.winners) == (True, (2,))
    rules_applied = [line.rule for line in scored.lines]
    assert rules_applied[-2:] == [ScoreRule.KAFA, ScoreRule.GAME_OVER]


def test_kafa_wins_even_when_another_seat_scores_higher():
    """§9.2: kafa wins the game, not the scores: a seat far ahead still loses."""
    rules = Ruleset(kafa=True, countdown_winners=2)
    scored = score_round(rules, 4, Table((20, 3, 2, 19)), won(2, KAFA))
    assert scored.table.scores == (18, 1, 2, 17)
    assert scored.winners == (2,)


def test_kafa_in_partnership_wins_for_the_team():
    """§9.2: the kafa winner's partner wins with it."""
    rules = Ruleset(kafa=True, partnership=True)
    assert score_round(rules, 4, None, won(3, KAFA)).winners == (1, 3)


def test_kafa_refused_when_kafa_off():
    """§9.2: a result claiming kafa under rules without kafa is invalid input."""
    with pytest.raises(InvalidInputError) as caught:
        score_round(Ruleset(kafa=False), 4, None, won(0, KAFA))
    assert caught.value.field == "round.result.win_kind"


# --- a property over random games ---------------------------------------------------------------


MODES = [ScoringMode.COUNTDOWN, ScoringMode.TARGET, ScoringMode.PENALTY, ScoringMode.ZERO_SUM]
MAX_ROUNDS = 25


@st.composite
def table_rules(draw: st.DrawFn) -> tuple[Ruleset, int]:
    mode = draw(st.sampled_from(MODES))
    players = draw(st.integers(2, 4))
    extra = {}
    if mode is ScoringMode.COUNTDOWN:
        variant = draw(st.sampled_from(["plain", "elimination", "partnership"]))
        if variant == "partnership":
            players = 4
        extra = {variant: True} if variant != "plain" else {}
        extra["start_points"] = draw(st.integers(5, 21))
        extra["countdown_winners"] = draw(st.integers(1, 2))
    rules = Ruleset(
        scoring_mode=mode,
        kafa=draw(st.booleans()),
        multipliers_combine=draw(st.booleans()),
        colour_double=draw(st.sampled_from(list(ColourDouble))),
        gosterme_scores=draw(st.booleans()),
        game_rounds=draw(st.integers(0, MAX_ROUNDS)),
        target_points=draw(st.integers(7, 31)),
        **extra,  # type: ignore[arg-type]
    )
    return rules, players


def random_result(draw: st.DrawFn, rules: Ruleset, active: list[int]) -> RoundResult:
    """A result that names only seats still in the game."""
    gosterme = tuple(draw(st.lists(st.sampled_from(active), unique=True, max_size=len(active))))
    if draw(st.integers(0, 4)) == 0:
        return drawn(*gosterme)
    kinds = [MELDS, PAIRS] + ([KAFA] if rules.kafa and draw(st.integers(0, 9)) == 0 else [])
    return won(
        draw(st.sampled_from(active)),
        draw(st.sampled_from(kinds)),
        okey_discard=draw(st.booleans()),
        colour=draw(st.none() | st.sampled_from(list(Color))),
        gosterme=gosterme,
    )


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_scores_move_only_the_way_the_mode_allows(data):
    """§9.2 over random games: in ZERO_SUM every round's deltas sum to 0; in
    COUNTDOWN no score ever rises; in TARGET and PENALTY none ever falls.
    Every table is the last one plus the deltas, and a game that is over
    names its winners."""
    rules, players = data.draw(table_rules())
    table = start_table(rules, players)
    for _ in range(MAX_ROUNDS):
        active = [s for s in range(players) if not (rules.elimination and table.scores[s] <= 0)]
        scored = score_round(rules, players, table, random_result(data.draw, rules, active))
        if rules.scoring_mode is ScoringMode.ZERO_SUM:
            assert sum(scored.deltas) == 0
            assert sum(scored.table.scores) == 0
        elif rules.scoring_mode is ScoringMode.COUNTDOWN:
            assert all(change <= 0 for change in scored.deltas)
        else:
            assert all(change >= 0 for change in scored.deltas)
        assert scored.table.scores == tuple(
            a + b for a, b in zip(table.scores, scored.deltas, strict=True)
        )
        assert scored.table.rounds_played == table.rounds_played + 1
        if scored.game_over:
            assert scored.winners
            return
        table = scored.table
