"""The game benchmark's state and requests hold to the GameService contract (so `make bench`
cannot rot or quietly measure something else: a refused move, an opening or finished state).

The benchmark is not part of the suite; its builder is. It runs here against the
session's in-process server, no timing involved.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from okey.v1 import game_pb2, game_pb2_grpc, state_pb2

BENCH = str(Path(__file__).resolve().parents[2] / "bench")


@pytest.fixture(scope="module")
def game_bench():
    sys.path.insert(0, BENCH)
    try:
        import game_bench

        yield game_bench
    finally:
        sys.path.remove(BENCH)


@pytest.fixture
def mid(game_bench, channel):
    return game_bench.play_to_mid_round(channel)


def _sent(request):
    """The request as the benchmark sends it: serialized once, parsed by the server."""
    return type(request).FromString(request.SerializeToString())


def test_state_is_mid_round_with_the_seat_on_turn_to_discard(game_bench, channel, mid):
    view = game_pb2_grpc.GameServiceStub(channel).PlayerView(_sent(mid.player_view))
    assert view.move_number == game_bench.MOVES_PLAYED == mid.moves_played
    assert view.phase == state_pb2.PHASE_DISCARD
    assert view.turn_seat == mid.seat == view.seat
    assert not view.HasField("outcome")
    # Mid-round: tiles have been drawn from the wall and some are still left in it.
    assert 0 < view.wall_size < 48
    assert len(view.rack) == 15
    assert sum(seat.discard_count for seat in view.seats) > 0


def test_measured_move_is_a_legal_discard_by_the_seat_on_turn(channel, mid):
    game = game_pb2_grpc.GameServiceStub(channel)
    request = _sent(mid.apply_move)
    assert request.move.kind == game_pb2.MOVE_KIND_DISCARD
    assert request.move.seat == mid.seat
    offered = game.LegalMoves(_sent(mid.legal_moves)).moves
    assert request.move in offered
    answer = game.ApplyMove(request)
    assert answer.legal, answer.message
    assert [event.kind for event in answer.events] == [game_pb2.EVENT_KIND_DISCARDED]
    assert answer.events[0].tile == request.move.tile


def test_requests_carry_the_state_as_the_server_sealed_it(mid):
    """The state is the opaque token the server issued (okey_server.wire.sealing: version byte 1,
    4-byte key id, then AES-SIV's 16-byte tag and the ciphertext), passed back untouched."""
    assert isinstance(mid.state, bytes)
    assert mid.state[0] == 1
    assert len(mid.state) > 1 + 4 + 16
    for request in (mid.apply_move, mid.legal_moves, mid.player_view):
        assert request.state == mid.state
    assert mid.legal_moves.seat == mid.player_view.seat == mid.seat


def test_the_same_requests_every_run(game_bench, channel, mid):
    # A fixed deal seed and policy seed: the benchmark measures the same state each time.
    again = game_bench.play_to_mid_round(channel)
    assert again.apply_move.SerializeToString(deterministic=True) == (
        mid.apply_move.SerializeToString(deterministic=True)
    )
