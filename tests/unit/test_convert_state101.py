"""An Okey 101 state survives the sealed state token unchanged (every field the
engine keeps: table melds and the faces okeys stand for, this turn's laying moves, the
taken discard, openings, penalties, the variants' fields, the outcome)."""

from __future__ import annotations

import dataclasses

import pytest
from game101_support import after, arranged, lay_off, take
from okey_rules.errors import InvalidInputError
from okey_rules.play.round_types import Move, MoveKind, Outcome, Penalty, Phase, RoundEnd
from okey_server.wire.convert_state import classic_state_from_token, state_from_token, state_token

KEY = b"state 101 round trip test key.."


def test_a_mid_turn_101_state_round_trips():
    state = arranged({1: "B4 Y7 K12"}, table=[(1, "B1 B2 B3"), (2, "R5 K1=R6 R7")],
                     discards={0: "Y8"})
    state = take(state)
    state = after(state, lay_off(state, "B4", 0))
    seats = list(state.seats)
    seats[3] = dataclasses.replace(seats[3], penalties=(Penalty.FAILED_OPENING,))
    state = dataclasses.replace(state, seats=tuple(seats), best_opening=120, best_pairs=6,
                                riziko=True)
    assert state_from_token(state_token(state, KEY), KEY, cached=False) == state


def test_the_tiles_taken_back_this_turn_round_trip():
    """docs/rules.md §10.5: only the last tile placed comes back free, so how many tiles
    the turn took back travels with the state from one ApplyMove to the next."""
    state = arranged({1: "B4 B5 K12"}, phase=Phase.DISCARD, table=[(1, "B1 B2 B3")])
    state = after(state, lay_off(state, "B4", 0))
    state = after(state, Move(MoveKind.TAKE_BACK, 1))
    assert state.took_back == 1
    assert state_from_token(state_token(state, KEY), KEY, cached=False) == state


def test_a_finished_101_state_round_trips():
    state = arranged({1: "B4"}, table=[(1, "B1 B2 B3")])
    over = dataclasses.replace(state, phase=Phase.ROUND_OVER,
                               outcome=Outcome(RoundEnd.WON, 30, 1, okey_discard=True,
                                               one_turn=True, discard=4))
    assert state_from_token(state_token(over, KEY), KEY, cached=False) == over


def test_a_101_state_is_refused_where_only_classic_states_are_taken():
    token = state_token(arranged(), KEY)
    with pytest.raises(InvalidInputError) as caught:
        classic_state_from_token(token, KEY)
    assert caught.value.field == "state.ruleset.game"
