"""A winning hand must be shown (docs/rules.md §8.4, option `must_show_win`):
the Japanese and Russian rules texts oblige a seat holding a winning hand to
show it, unless the win holds an okey and the seat plays on for the double."""

from __future__ import annotations

import pytest
from game_support import NOW, arrange, code, codes, draw, give, play, refused, start
from okey_rules.play.game import apply_move, legal_moves
from okey_rules.play.round_types import EventKind, IllegalReason, Move, MoveKind
from okey_rules.ruleset import PRESETS, Game, Ruleset

# Indicator B13: the okey is B1. R1-R4, Y5-Y7, K9-K12 and R8 Y8 B8 win.
INDICATOR = code("B13")
WINNING_14 = "R1 R2 R3 R4 Y5 Y6 Y7 K9 K10 K11 K12 R8 Y8 B8"
# The same hand with the okey B1 standing for Y7.
WITH_OKEY_14 = "R1 R2 R3 R4 Y5 Y6 B1 K9 K10 K11 K12 R8 Y8 B8"


UNTIMED = Ruleset(move_timer_seconds=0)


def opening(rack: str, rules: Ruleset = UNTIMED):
    """A fresh round whose opening seat (seat 1) holds `rack` (15 tiles)."""
    return arrange(start(rules=rules), {1: codes(rack)}, indicator=INDICATOR)


def discards(state) -> set[int]:
    return {m.tile for m in legal_moves(state, 1) if m.kind is MoveKind.DISCARD}


@pytest.mark.parametrize(
    ("name", "on"),
    [("classic", True), ("tournament", True), ("points-limit", False),
     ("okey.gg", False), ("penalty", False), ("101", False)],
)
def test_presets_oblige_the_winner_to_show_where_their_text_says_so(name, on):
    """§8.4, §5: on where the rules text says so (the Japanese text behind the
    classic preset, the Russian one behind the tournament preset), off where
    the text is silent (French, okey.gg, Italian) and in Okey 101."""
    assert PRESETS[name].must_show_win is on


def test_the_option_defaults_by_game():
    """§5: on by default in classic Okey, off in Okey 101 (its own rules)."""
    assert Ruleset().must_show_win
    assert not Ruleset(game=Game.OKEY_101).must_show_win
    assert Ruleset().with_overrides(game=Game.OKEY_101).must_show_win is False


def test_a_winning_hand_without_an_okey_offers_only_declarations():
    """§8.4: holding a winning hand with no okey in it, no plain discard is legal."""
    state = opening(WINNING_14 + " K2")
    assert discards(state) == set()
    assert {m.kind for m in legal_moves(state, 1)} == {MoveKind.DECLARE_WIN}
    result = apply_move(state, Move(MoveKind.DISCARD, 1, code("K2")))
    assert result.reason is IllegalReason.MUST_SHOW_WIN
    assert "declare the win" in result.message


def test_a_winning_hand_holding_an_okey_may_play_on():
    """§8.4: the Japanese text lets a seat whose winning hand uses an okey keep
    it hidden and play on, hoping to finish by discarding an okey (the double)."""
    state = opening(WITH_OKEY_14 + " K2")
    assert code("K2") in discards(state)
    after = play(state, Move(MoveKind.DISCARD, 1, code("K2")))
    assert after.outcome is None


def test_a_spare_okey_may_play_on_too():
    """§8.4: a winning hand plus a spare okey wins with any discard, the okey
    staying in the 14 shown: the seat may play on."""
    state = opening(WINNING_14 + " B1")
    assert discards(state) == set(state.seats[1].rack)


def test_with_the_option_off_a_ready_hand_may_play_on():
    """§8.4: the French, okey.gg and Italian texts oblige nobody to show."""
    state = opening(WINNING_14 + " K2", Ruleset(move_timer_seconds=0, must_show_win=False))
    after = play(state, Move(MoveKind.DISCARD, 1, code("K2")))
    assert after.outcome is None


def test_a_hand_that_does_not_win_discards_freely():
    """§8.4: the duty binds only a winning hand."""
    state = opening("R1 R2 R3 R4 Y5 Y6 Y7 K9 K10 K11 K12 R8 Y8 B9 K2")
    assert discards(state) == set(state.seats[1].rack)


def test_a_timed_out_seat_holding_a_win_it_must_show_declares_it():
    """§8.4, §8.6: the automatic move keeps the rules: it draws, and when the
    seat then holds a winning hand it must show, it declares the win."""
    rules = Ruleset(move_timer_seconds=45)
    state = start(rules=rules, now_ms=NOW)
    state = arrange(state, indicator=INDICATOR)
    # Seat 2 holds 13 winning tiles and a spare; the wall's next tile completes it.
    hand = codes(WINNING_14)
    state = give(state, 2, *hand[:-1])
    state = arrange(state, {2: state.seats[2].rack}, wall_front=[hand[-1]])
    state = play(state, Move(MoveKind.DISCARD, 1, state.seats[1].rack[0]), NOW)
    assert state.turn == 2
    late = state.deadline_ms
    result = apply_move(state, Move(MoveKind.TIMEOUT, 2), late)
    assert result.legal
    assert result.state is not None
    kinds = [e.kind for e in result.events]
    assert kinds == [EventKind.TURN_TIMED_OUT, EventKind.DREW_FROM_WALL, EventKind.ROUND_WON]
    assert result.state.outcome is not None
    assert result.state.outcome.winner == 2


def test_drawing_into_a_win_leaves_only_declarations():
    """§8.4: after a draw completes the hand the seat must show it."""
    state = arrange(start(rules=Ruleset(move_timer_seconds=0)), indicator=INDICATOR)
    hand = codes(WINNING_14)
    state = give(state, 2, *hand[:-1])
    state = arrange(state, {2: state.seats[2].rack}, wall_front=[hand[-1]])
    state = play(state, Move(MoveKind.DISCARD, 1, state.seats[1].rack[0]))
    state = draw(state)
    spare = next(c for c in state.seats[2].rack if c not in hand)
    assert refused(state, Move(MoveKind.DISCARD, 2, spare)).reason is (
        IllegalReason.MUST_SHOW_WIN
    )
