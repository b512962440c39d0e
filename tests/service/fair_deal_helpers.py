"""Helpers for the fair-deal service tests: a round played to its end with the engine."""

from __future__ import annotations

from okey_rules.play.game import apply_move
from okey_rules.play.round_types import Move, MoveKind, Phase
from okey_server.wire.convert_state import classic_state_from_token, state_token


def play_to_the_end(opening: bytes, key: bytes) -> bytes:
    """The round of a sealed opening state played out and sealed again with `key` (the
    server's).

    Every seat draws from the wall and throws the newest tile back; with the
    wall empty the seat on turn ends the round drawn (docs/rules.md §8.5). The
    game service is not needed: the engine plays, and the state is sealed as
    the server would seal it (the tests that use this are about RevealSeed,
    not about the moves).
    """
    state = classic_state_from_token(opening, key)
    while state.phase is not Phase.ROUND_OVER:
        seat = state.turn
        if state.phase is Phase.DRAW:
            move = Move(MoveKind.DRAW_FROM_WALL if state.wall else MoveKind.END_ROUND, seat)
        else:  # the opening discard, or the discard after a draw
            move = Move(MoveKind.DISCARD, seat, state.seats[seat].rack[-1])
        result = apply_move(state, move)
        assert result.legal, result.message
        assert result.state is not None
        state = result.state
    return state_token(state, key)
