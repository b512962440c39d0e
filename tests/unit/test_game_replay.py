"""Replaying a move log (docs/rules.md §8): every move judged in order, up to
the first illegal one."""

from __future__ import annotations

import random

import pytest
from game_support import NOW, play, random_round, start
from okey_rules.errors import InvalidInputError
from okey_rules.play.game import apply_move, replay
from okey_rules.play.round_types import Event, IllegalReason, Move, MoveKind
from okey_rules.ruleset import Ruleset

TIMED = Ruleset(move_timer_seconds=15, gosterme_in_first_turn=True)


@pytest.mark.parametrize("seed", ["replay-1", "replay-2", "replay-3"])
@pytest.mark.parametrize("clock", [False, True])
def test_a_full_legal_log_replays_to_the_final_state(seed, clock):
    """§8: a log of legal moves (each with the caller's clock then) ends in the
    state and events the moves produced one by one."""
    opening = start(seed=seed, players=3, rules=TIMED, now_ms=NOW if clock else None)
    steps, final = random_round(opening, random.Random(seed), clock)
    events: list[Event] = []
    for before, move, now in steps:
        events += apply_move(before, move, now).events
    log = [(move, now) for _, move, now in steps]
    replayed = replay(opening, log)
    assert replayed.legal
    assert replayed.state == final
    assert replayed.applied == len(log)
    assert replayed.events == tuple(events)
    assert replayed.reason is None


def test_replay_stops_at_the_first_illegal_move():
    """§8: the answer names the first illegal move's index and reason, and
    gives the state and events after the moves before it."""
    opening = start(players=4, dealer=0)
    first = opening.seats[1].rack[0]
    after_one = play(opening, Move(MoveKind.DISCARD, 1, first))
    log = [
        (Move(MoveKind.DISCARD, 1, first), None),
        (Move(MoveKind.DISCARD, 2, after_one.seats[2].rack[0]), None),  # must draw first
        (Move(MoveKind.DRAW_FROM_WALL, 2), None),
    ]
    result = replay(opening, log)
    assert not result.legal
    assert (result.illegal_index, result.applied) == (1, 1)
    assert result.reason is IllegalReason.MUST_DRAW_FIRST
    assert result.message
    assert result.state == after_one
    assert result.events == apply_move(opening, log[0][0]).events


def test_replay_of_an_illegal_first_move_returns_the_start():
    """§8: nothing is applied when the first move is illegal."""
    opening = start()
    result = replay(opening, [(Move(MoveKind.DRAW_FROM_WALL, 2), None)])
    assert not result.legal
    assert (result.illegal_index, result.applied, result.state) == (0, 0, opening)
    assert result.reason is IllegalReason.NOT_YOUR_TURN
    assert result.events == ()


def test_an_empty_log_replays_to_the_start():
    """§8: no moves, no change."""
    opening = start()
    result = replay(opening, [])
    assert result.legal
    assert (result.state, result.applied, result.events) == (opening, 0, ())


def test_replay_judges_each_move_at_its_own_clock():
    """§8.6: the same moves are legal or timed out depending on the clock logged with them."""
    opening = start(rules=TIMED, now_ms=NOW)
    move = Move(MoveKind.DISCARD, 1, opening.seats[1].rack[0])
    assert replay(opening, [(move, NOW + 1)]).legal
    late = replay(opening, [(move, opening.deadline_ms)])
    assert late.reason is IllegalReason.TURN_TIMED_OUT


def test_a_malformed_move_in_a_log_is_invalid_input_naming_its_index():
    """§8: a move no rule can judge is invalid input, and the field names its place in the log."""
    opening = start()
    first = Move(MoveKind.DISCARD, 1, opening.seats[1].rack[0])
    with pytest.raises(InvalidInputError) as raised:
        replay(opening, [(first, None), (Move(MoveKind.DRAW_FROM_WALL, 7), None)])
    assert raised.value.field == "moves[1].move.seat"
