"""Gösterme: showing the indicator's twin from one's rack (docs/rules.md §8.3)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from game_support import (
    NOW,
    UNTIMED,
    arrange,
    code,
    codes,
    discard,
    draw,
    end_dry,
    give,
    outcome_of,
    play,
    refused,
    start,
    to_last_wall_tile,
    without,
)
from okey_rules.play.game import apply_move, gosterme_window_open, legal_moves
from okey_rules.play.round_types import EventKind, IllegalReason, Move, MoveKind, Phase
from okey_rules.ruleset import Ruleset
from okey_rules.tiles import FACES

FIRST_TURN = Ruleset(move_timer_seconds=0, gosterme_in_first_turn=True)
SHOW = MoveKind.GOSTERME


def show(seat: int) -> Move:
    return Move(SHOW, seat)


def test_the_gosterme_tile_is_the_other_copy_of_the_indicator():
    """§8.3, §2.4: the shown tile is the indicator's twin: same face, other copy."""
    state = start()
    twin = state.gosterme_tile()
    assert twin != state.indicator
    assert twin % FACES == state.indicator % FACES


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_any_seat_may_show_before_its_first_draw_without_changing_the_turn(seat):
    """§8.3: on turn or not, a seat holding the twin shows it before its first
    draw; the turn, phase, wall and deadline stay as they were."""
    rules = Ruleset(move_timer_seconds=45)
    state = give(start(rules=rules, now_ms=NOW), seat, start(rules=rules).gosterme_tile())
    assert show(seat) in legal_moves(state, seat, NOW)
    result = apply_move(state, show(seat), NOW)
    assert result.legal
    after = result.state
    assert after is not None
    assert after.seats[seat].gosterme
    assert after.seats[seat].rack == state.seats[seat].rack  # shown, not given up
    assert (after.turn, after.phase, after.wall, after.deadline_ms) == (
        state.turn, state.phase, state.wall, state.deadline_ms
    )
    assert after.move_number == state.move_number + 1
    (event,) = result.events
    assert (event.kind, event.seat, event.tile) == (EventKind.GOSTERME, seat, state.gosterme_tile())
    assert not event.private


def test_a_seat_that_has_not_drawn_yet_may_still_show_later_in_the_round():
    """§8.3: the window closes at the seat's own first draw, not at the first
    move of the round: the last seat may show while others have played."""
    state = start(players=4, dealer=0)  # seat 1 opens, seat 0 plays last
    state = give(state, 0, state.gosterme_tile())
    state = discard(state, state.seats[1].rack[0])
    state = discard(draw(state), state.seats[2].rack[0])
    state = discard(draw(state), state.seats[3].rack[0])
    assert state.seats[0].draws == 0
    assert play(state, show(0)).seats[0].gosterme


def test_the_opening_seat_may_show_after_its_first_discard():
    """§8.3: the opening seat does not draw on its first turn, so its window
    lasts until it draws on its second turn."""
    state = start(players=2, dealer=0)  # seat 1 opens
    state = give(state, 1, state.gosterme_tile())
    state = discard(state, state.seats[1].rack[0])
    state = discard(draw(state), state.seats[0].rack[0])
    assert show(1) in legal_moves(state, 1)
    assert gosterme_window_open(state, 1)
    state = draw(state)
    assert not gosterme_window_open(state, 1)
    assert refused(state, show(1)).reason is IllegalReason.GOSTERME_TOO_LATE


def test_taking_a_discard_is_a_draw_for_gosterme():
    """§8.3: the window closes at the first draw, from the wall or a discard pile."""
    state = start(players=4, dealer=0)
    state = give(state, 2, state.gosterme_tile())
    state = discard(state, state.seats[1].rack[0])
    state = play(state, Move(MoveKind.TAKE_DISCARD, 2))
    assert refused(state, show(2)).reason is IllegalReason.GOSTERME_TOO_LATE


def test_option_gosterme_in_first_turn_extends_the_window_to_the_end_of_the_first_drawn_turn():
    """§8.3, option gosterme_in_first_turn: the seat may still show after its
    first draw, until it discards; then the window is closed."""
    state = start(rules=FIRST_TURN)
    state = give(state, 2, state.gosterme_tile())
    state = draw(discard(state, state.seats[1].rack[0]))
    assert state.seats[2].draws == 1
    assert gosterme_window_open(state, 2)
    assert show(2) in legal_moves(state, 2)
    shown = play(state, show(2))
    assert shown.seats[2].gosterme
    assert shown.phase is Phase.DISCARD  # still seat 2's turn to discard
    ended = discard(state, state.seats[2].rack[0])
    assert not gosterme_window_open(ended, 2)
    assert refused(ended, show(2)).reason is IllegalReason.GOSTERME_TOO_LATE


def test_with_the_option_the_second_drawn_turn_is_too_late():
    """§8.3: the extension covers the first drawn turn, not later ones."""
    state = start(players=2, dealer=0, rules=FIRST_TURN)  # seat 1 opens
    twin = state.gosterme_tile()
    state = draw(discard(state, state.seats[1].rack[0]))
    state = draw(discard(state, state.seats[0].rack[0]))  # seat 1's first drawn turn
    state = draw(discard(state, state.seats[1].rack[0]))  # seat 0's second drawn turn
    state = give(state, 0, twin)
    assert state.seats[0].draws == 2
    assert not gosterme_window_open(state, 0)
    assert refused(state, show(0)).reason is IllegalReason.GOSTERME_TOO_LATE


def test_option_off_the_window_closes_at_the_first_draw():
    """§8.3: by default the window closes at the seat's first draw (the
    Japanese rules text); after it the seat is too late."""
    state = start(rules=UNTIMED)
    assert not state.rules.gosterme_in_first_turn
    state = give(state, 2, state.gosterme_tile())
    state = draw(discard(state, state.seats[1].rack[0]))
    assert not gosterme_window_open(state, 2)
    assert show(2) not in legal_moves(state, 2)


def test_with_the_option_a_seat_not_on_turn_after_its_draw_is_too_late():
    """§8.3: the extension covers the seat's own first drawn turn only."""
    state = start(players=2, dealer=0, rules=FIRST_TURN)  # seat 1 opens
    state = give(state, 0, state.gosterme_tile())
    state = draw(discard(state, state.seats[1].rack[0]))
    state = discard(state, state.seats[0].rack[0])  # seat 0's first drawn turn ends
    state = draw(state)  # seat 1 on turn
    assert refused(state, show(0)).reason is IllegalReason.GOSTERME_TOO_LATE


def test_gosterme_is_shown_once_per_seat():
    """§8.3: a second gösterme by the same seat is refused and no longer listed."""
    state = start()
    state = give(state, 0, state.gosterme_tile())
    state = play(state, show(0))
    assert show(0) not in legal_moves(state, 0)
    assert refused(state, show(0)).reason is IllegalReason.GOSTERME_ALREADY_SHOWN


def test_gosterme_needs_the_twin_in_the_rack():
    """§8.3: only the seat holding the twin may show it; the indicator itself
    lies on the table."""
    state = start()
    twin = state.gosterme_tile()
    state = without(state, 1, twin)
    assert show(1) not in legal_moves(state, 1)
    assert refused(state, show(1)).reason is IllegalReason.GOSTERME_WITHOUT_TILE


def test_a_seat_that_discarded_the_twin_can_no_longer_show():
    """§8.3: the tile must be in the rack when shown."""
    state = start(players=4, dealer=0)
    twin = state.gosterme_tile()
    state = give(state, 1, twin)
    state = discard(state, twin)
    assert refused(state, show(1)).reason is IllegalReason.GOSTERME_WITHOUT_TILE


def test_gosterme_is_recorded_in_a_drawn_outcome():
    """§8.3, §8.5: the outcome lists each gösterme (seat and tile) even when
    nobody wins."""
    state = start(players=3)
    twin = state.gosterme_tile()
    state = play(give(state, 0, twin), show(0))
    over = end_dry(state)
    assert outcome_of(over).drawn
    assert outcome_of(over).gosterme == ((0, twin),)


def test_gosterme_is_recorded_in_a_won_outcome():
    """§8.3, §8.4: a winning outcome lists the gösterme too, whoever wins."""
    hand = codes("R1 R2 R3 R4 Y5 Y6 Y7 K9 K10 K11 K12 R8 Y8 B8 K2")
    state = arrange(start(players=4, dealer=0), {1: hand}, indicator=code("B13"))
    twin = state.gosterme_tile()
    state = play(give(state, 3, twin), show(3))
    over = play(state, Move(MoveKind.DECLARE_WIN, 1, code("K2")))
    assert outcome_of(over).winner == 1
    assert outcome_of(over).gosterme == ((3, twin),)


def test_no_gosterme_leaves_the_outcome_list_empty():
    """§8.3: an outcome without any gösterme lists none."""
    over = end_dry(start(players=2))
    assert outcome_of(over).gosterme == ()


def test_gosterme_claims_are_listed_in_the_order_shown():
    """§8.3: with the option, the twin can pass on: the opening seat shows it,
    discards it, and the next seat takes it and shows it in its first drawn
    turn. The outcome lists the claims in the order they were shown."""
    state = start(players=2, dealer=0, rules=FIRST_TURN)  # seat 1 opens, then seat 0
    twin = state.gosterme_tile()
    state = give(state, 1, twin)
    state = play(state, show(1))
    state = discard(state, twin)
    state = play(state, Move(MoveKind.TAKE_DISCARD, 0))
    state = play(state, show(0))
    over = end_dry(discard(state, twin))
    assert outcome_of(over).gosterme == ((1, twin), (0, twin))


def test_a_state_without_the_recorded_order_still_lists_every_claim():
    """§8.3: the per-seat flags say who showed; a state that lost the order
    (rebuilt from an encoding without it) lists every claim, in seat order."""
    state = start(players=2, dealer=0, rules=FIRST_TURN)
    twin = state.gosterme_tile()
    state = play(give(state, 1, twin), show(1))
    state = discard(state, twin)
    state = play(play(state, Move(MoveKind.TAKE_DISCARD, 0)), show(0))
    assert state.gosterme_order == (1, 0)
    state = replace(to_last_wall_tile(discard(state, twin)), gosterme_order=())
    # apply_move directly: the test helpers check the order against the flags.
    drew = apply_move(state, Move(MoveKind.DRAW_FROM_WALL, state.turn)).state
    assert drew is not None
    last = Move(MoveKind.DISCARD, drew.turn, drew.seats[drew.turn].rack[-1])
    over = apply_move(drew, last).state
    assert over is not None
    assert outcome_of(over).gosterme == ((0, twin), (1, twin))
