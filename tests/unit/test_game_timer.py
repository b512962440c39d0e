"""The move timer and the automatic move of a timed-out turn (docs/rules.md §8.6)."""

from __future__ import annotations

import dataclasses

import pytest
from game_support import (
    NOW,
    code,
    discard,
    draw,
    end_dry,
    events_of,
    give,
    outcome_of,
    play,
    refused,
    start,
    swap,
    to_last_wall_tile,
    waiting_on_last_discard,
)
from okey_rules.errors import InvalidInputError
from okey_rules.play.game import apply_move, auto_discard, legal_moves
from okey_rules.play.game_types import GameState, MoveResult
from okey_rules.play.round_types import EventKind, IllegalReason, Move, MoveKind, Phase
from okey_rules.ruleset import Ruleset
from okey_rules.tiles import FACES

SECOND = 1000
TIMED = Ruleset(move_timer_seconds=45)


def timeout(state: GameState, now_ms: int) -> tuple[MoveResult, GameState]:
    """A timeout that must be legal: the result and the state after it."""
    result = apply_move(state, Move(MoveKind.TIMEOUT, state.turn), now_ms)
    assert result.legal, result.message
    assert result.state is not None
    return result, result.state


def test_the_default_timer_is_45_seconds_and_0_means_none():
    """§5, §8.6: 45 s by default; 0 turns the timer off; 15-120 s otherwise."""
    assert Ruleset().move_timer_seconds == 45
    assert start(rules=Ruleset(move_timer_seconds=0), now_ms=NOW).deadline_ms == 0
    for seconds in (15, 120):
        assert start(rules=Ruleset(move_timer_seconds=seconds), now_ms=NOW).deadline_ms == (
            NOW + seconds * SECOND
        )
    for seconds in (14, 121, -1):
        with pytest.raises(InvalidInputError) as raised:
            Ruleset(move_timer_seconds=seconds)
        assert raised.value.field == "ruleset.move_timer_seconds"


def test_each_turn_start_sets_the_deadline_from_the_callers_clock():
    """§8.6: the opening turn and every turn after a discard get now + timer;
    a draw or a gösterme within the turn leaves the deadline alone."""
    state = start(rules=TIMED, now_ms=NOW)
    assert state.deadline_ms == NOW + 45 * SECOND
    later = NOW + 7 * SECOND
    state = discard(state, state.seats[1].rack[0], later)
    assert state.deadline_ms == later + 45 * SECOND
    deadline = state.deadline_ms
    state = draw(state, later + 3 * SECOND)
    assert state.deadline_ms == deadline
    state = give(state, 0, state.gosterme_tile())
    shown = play(state, Move(MoveKind.GOSTERME, 0), later + 4 * SECOND)
    assert shown.deadline_ms == deadline


def test_the_round_is_untimed_without_the_callers_clock():
    """§8.6: with no clock given (now unset) a turn has no deadline and never times out."""
    state = start(rules=TIMED, now_ms=None)
    assert state.deadline_ms == 0
    assert legal_moves(state, 1, None) == legal_moves(state, 1, NOW + 10**9)
    assert refused(state, Move(MoveKind.TIMEOUT, 1), NOW + 10**9).reason is (
        IllegalReason.TURN_NOT_TIMED_OUT
    )
    # A move played without a clock starts an untimed turn.
    timed = start(rules=TIMED, now_ms=NOW)
    assert discard(timed, timed.seats[1].rack[0], None).deadline_ms == 0


def test_the_deadline_itself_is_already_too_late():
    """§8.6: the turn has timed out when now >= deadline; a millisecond before, it has not."""
    state = start(rules=TIMED, now_ms=NOW)
    deadline = state.deadline_ms
    assert Move(MoveKind.TIMEOUT, 1) not in legal_moves(state, 1, deadline - 1)
    assert legal_moves(state, 1, deadline) == [Move(MoveKind.TIMEOUT, 1)]
    timeout(state, deadline)


def test_after_the_deadline_only_timeout_and_gosterme_are_left():
    """§8.6, §8.3: the seat on turn can only be timed out; gösterme does not
    use the turn, so it stays open to every seat."""
    state = start(rules=TIMED, now_ms=NOW)
    state = give(state, 1, state.gosterme_tile())
    late = state.deadline_ms + 1
    assert legal_moves(state, 1, late) == [Move(MoveKind.GOSTERME, 1), Move(MoveKind.TIMEOUT, 1)]
    play(state, Move(MoveKind.GOSTERME, 1), late)


def test_timeout_draws_from_the_wall_then_discards_the_drawn_tile():
    """§8.6: a timed-out seat that has not drawn draws the next wall tile and
    discards it (the most recently received tile); the turn passes on with a
    new deadline."""
    state = start(rules=TIMED, now_ms=NOW)
    state = discard(state, state.seats[1].rack[0], NOW)
    okey_face = state.okey.face
    state = swap_front_to_non_okey(state)
    drawn = state.wall[0]
    late = state.deadline_ms + 500
    result, after = timeout(state, late)
    assert events_of(result) == [
        EventKind.TURN_TIMED_OUT, EventKind.DREW_FROM_WALL, EventKind.DISCARDED
    ]
    assert result.events[1].private
    assert result.events[2].tile == drawn
    assert drawn % FACES != okey_face
    assert after.seats[2].rack == state.seats[2].rack
    assert after.seats[2].discards[-1] == drawn
    assert after.seats[2].draws == 1
    assert after.wall == state.wall[1:]
    assert (after.turn, after.phase) == (3, Phase.DRAW)
    assert after.deadline_ms == late + 45 * SECOND
    assert after.move_number == state.move_number + 1


def swap_front_to_non_okey(state: GameState) -> GameState:
    """The same position with a non-okey tile next in the wall."""
    okey_face = state.okey.face
    if state.wall[0] % FACES != okey_face:
        return state
    other = next(c for c in state.wall if c % FACES != okey_face)
    return swap(state, state.wall[0], other)


def test_timeout_after_the_draw_discards_the_drawn_tile():
    """§8.6: a seat that drew but did not discard in time discards its newest tile."""
    state = start(rules=TIMED, now_ms=NOW)
    state = discard(state, state.seats[1].rack[0], NOW)
    state = swap_front_to_non_okey(state)
    state = draw(state, NOW)
    drawn = state.seats[2].rack[-1]
    result, after = timeout(state, state.deadline_ms)
    assert events_of(result) == [EventKind.TURN_TIMED_OUT, EventKind.DISCARDED]
    assert after.seats[2].discards == (drawn,)


def test_timeout_of_the_opening_turn_discards_the_last_dealt_tile():
    """§8.6: the opening seat has not drawn; its newest tile is the last one dealt."""
    state = start(rules=TIMED, now_ms=NOW)
    okey_face = state.okey.face
    last = state.seats[1].rack[-1]
    result, after = timeout(state, state.deadline_ms)
    assert events_of(result) == [EventKind.TURN_TIMED_OUT, EventKind.DISCARDED]
    expected = next(c for c in reversed(state.seats[1].rack) if c % FACES != okey_face)
    assert expected == last or last % FACES == okey_face
    assert after.seats[1].discards == (expected,)
    assert after.turn == 2


def test_timeout_never_discards_an_okey():
    """§8.6: a drawn okey is kept: the newest tile that is not an okey goes."""
    state = start(rules=TIMED, now_ms=NOW)
    okey_face = state.okey.face
    okey, other_okey = okey_face, okey_face + FACES
    plain = [c for c in state.seats[2].rack if c % FACES != okey_face][-2:]
    state = give(state, 2, *plain, other_okey)
    if state.wall[0] != okey:
        state = swap(state, state.wall[0], okey)
    opener = next(c for c in state.seats[1].rack if c % FACES != okey_face)
    state = discard(state, opener, NOW)
    before = state.seats[2].rack
    assert before[-1] == other_okey  # the newest tile is an okey, and so is the next draw
    assert state.wall[0] == okey
    result, timed_out = timeout(state, state.deadline_ms)
    after = timed_out.seats[2]
    assert result.events[1].tile == okey
    assert after.discards == (plain[-1],)
    assert {okey, other_okey} <= set(after.rack)


def test_auto_discard_picks_the_newest_tile_that_is_not_an_okey():
    """§8.6: newest first, okeys skipped; a false joker is not an okey, so it may go."""
    okey = code("R5")
    false_joker = code("F")
    assert auto_discard([code("K1"), code("Y2"), code("B3")], okey) == code("B3")
    assert auto_discard([code("K1"), code("Y2"), okey], okey) == code("Y2")
    assert auto_discard([code("K1"), okey, okey + FACES], okey) == code("K1")
    assert auto_discard([code("K1"), false_joker, okey], okey) == false_joker


def test_timeout_with_the_wall_empty_ends_the_round_drawn():
    """§8.6, §8.5: with nothing to draw, a timed-out seat declines the last
    discard it could finish with: the round ends with no winner."""
    rules = Ruleset(move_timer_seconds=45, must_show_win=False)
    state = waiting_on_last_discard(start(players=3, rules=rules, now_ms=NOW), NOW)
    assert state.deadline_ms == NOW + 45 * SECOND
    result, over = timeout(state, state.deadline_ms)
    assert events_of(result) == [EventKind.TURN_TIMED_OUT, EventKind.ROUND_DRAWN]
    assert over.phase is Phase.ROUND_OVER
    assert outcome_of(over).drawn
    assert over.deadline_ms == 0


def test_a_timeout_is_the_seat_on_turns_move_only():
    """§8.6: TIMEOUT names the seat on turn; another seat's is refused."""
    state = start(rules=TIMED, now_ms=NOW)
    late = state.deadline_ms
    assert refused(state, Move(MoveKind.TIMEOUT, 2), late).reason is IllegalReason.NOT_YOUR_TURN
    assert legal_moves(state, 2, late) == [
        m for m in legal_moves(state, 2, late) if m.kind is MoveKind.GOSTERME
    ]


def test_a_timed_out_seat_that_took_the_last_discard_finishes():
    """§8.6, §8.5: a seat that took the last discard to finish with it and then
    times out has its win declared for it (an okey discard first, else the most
    recently received tile that wins)."""
    rules = Ruleset(move_timer_seconds=45, must_show_win=False)
    state = waiting_on_last_discard(start(players=4, rules=rules, now_ms=NOW), NOW)
    took = play(state, Move(MoveKind.TAKE_DISCARD, state.turn), NOW)
    result, over = timeout(took, took.deadline_ms)
    assert events_of(result) == [EventKind.TURN_TIMED_OUT, EventKind.ROUND_WON]
    assert outcome_of(over).winner == took.turn


def test_a_timed_out_last_draw_ends_the_round_in_the_same_answer():
    """§8.6, §8.5: the automatic move draws the last wall tile and throws it back;
    when the next seat cannot finish with it the round ends in the same answer."""
    state = to_last_wall_tile(start(players=3, rules=TIMED, now_ms=NOW), NOW)
    result, over = timeout(state, state.deadline_ms)
    assert events_of(result) == [
        EventKind.TURN_TIMED_OUT, EventKind.DREW_FROM_WALL, EventKind.DISCARDED,
        EventKind.ROUND_DRAWN,
    ]
    assert outcome_of(over).drawn


def test_a_round_ending_move_clears_the_deadline():
    """§8.6: a finished round has no turn to time."""
    over = end_dry(start(players=2, rules=TIMED, now_ms=NOW), NOW)
    assert over.deadline_ms == 0
    assert legal_moves(over, over.turn, NOW + 10**9) == []


def test_a_timed_out_tile_discard_names_the_tile():
    """§8.6: the DISCARDED event of a timeout is public and names the tile."""
    state = start(rules=TIMED, now_ms=NOW)
    result, after = timeout(state, state.deadline_ms)
    event = result.events[-1]
    assert (event.kind, event.seat, event.private) == (EventKind.DISCARDED, 1, False)
    assert event.tile == after.seats[1].discards[-1]


@pytest.mark.parametrize("level", [1, 2, 3])
def test_bot_takeover_plays_the_timed_out_turn_as_the_bot_would(level):
    """§8.6 option timeout_bot_level: the timed-out turn is the bot's draw and discard
    (okey_rules.bots.suggest_move from the seat's view), one move, the next seat timed
    from the caller's clock."""
    from okey_rules.bots.suggest import suggest_move
    from okey_rules.play.game_view import player_view

    rules = Ruleset(move_timer_seconds=45, timeout_bot_level=level)
    state = start(rules=rules, now_ms=NOW)
    state = discard(state, state.seats[1].rack[0], NOW)
    late = state.deadline_ms + 500
    result, after = timeout(state, late)
    # The same turn played by hand: the bot's choices, applied untimed.
    hand = dataclasses.replace(state, deadline_ms=0)
    expected = [EventKind.TURN_TIMED_OUT]
    for _ in range(2):
        legal = [m for m in legal_moves(hand, 2) if m.kind is not MoveKind.GOSTERME]
        step = apply_move(hand, suggest_move(player_view(hand, 2), legal, level).move, late)
        assert step.state is not None
        expected += events_of(step)
        hand = step.state
        if hand.turn != 2:
            break
        # The draw is part of the one move: the bot discards with the move not yet counted.
        hand = dataclasses.replace(hand, move_number=state.move_number)
    assert events_of(result) == expected
    assert (after.seats, after.wall, after.turn) == (hand.seats, hand.wall, hand.turn)
    assert after.move_number == state.move_number + 1
    assert after.deadline_ms == late + 45 * SECOND


def test_bot_takeover_level_is_0_to_3():
    """0 keeps the simple automatic move; a level beyond the bots' is refused."""
    assert Ruleset().timeout_bot_level == 0
    with pytest.raises(InvalidInputError) as raised:
        Ruleset(timeout_bot_level=4)
    assert raised.value.field == "ruleset.timeout_bot_level"
