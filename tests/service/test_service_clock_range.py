"""The caller's clock (`now`): a time from 1970-01-01 to 9999-12-31T23:57:59Z, else
INVALID_ARGUMENT.

A clock far in the future put the timed turn's deadline beyond the state's
uint64 milliseconds, and a negative one below zero: Deal and ApplyMove
answered INTERNAL (found by tests/fuzz). A clock in the last two minutes of
9999 put the deadline (up to 120 s later) past the last second a Timestamp
may hold, an answer strict clients refuse.
"""

from __future__ import annotations

import grpc
import pytest
from google.protobuf.timestamp_pb2 import Timestamp
from okey.v1 import deal_pb2, deal_pb2_grpc, game_pb2, game_pb2_grpc, ruleset_pb2
from service_helpers import decode_error

pytestmark = pytest.mark.service

LAST_SECOND = 253_402_300_799  # 9999-12-31T23:59:59Z, the last a Timestamp holds
LONGEST_TIMER_S = 120
LAST_CLOCK = LAST_SECOND - LONGEST_TIMER_S  # the latest `now` whose deadline is valid
OUT_OF_RANGE = [LAST_CLOCK + 1, LAST_SECOND, LAST_SECOND + 1, 2**62, 2**63 - 1, -1, -(2**63)]


def _refusal(call: object) -> tuple[grpc.StatusCode, tuple[str, ...]]:
    with pytest.raises(grpc.RpcError) as raised:
        call()  # type: ignore[operator]
    found = decode_error(raised.value)
    return found.code, found.fields


@pytest.mark.parametrize("seconds", OUT_OF_RANGE)
def test_deal_now_outside_the_timestamp_range_is_invalid_now(
    channel: grpc.Channel, seconds: int
) -> None:
    request = deal_pb2.DealRequest(seed="clock", now=Timestamp(seconds=seconds))
    code, fields = _refusal(lambda: deal_pb2_grpc.DealServiceStub(channel).Deal(request))
    assert (code, fields) == (grpc.StatusCode.INVALID_ARGUMENT, ("now",))


def test_deal_now_at_the_last_accepted_second_gives_a_valid_deadline(
    channel: grpc.Channel,
) -> None:
    """Rule: a timed turn's deadline is always a valid Timestamp, even with the longest
    move timer."""
    request = deal_pb2.DealRequest(
        seed="clock", now=Timestamp(seconds=LAST_CLOCK),
        ruleset=ruleset_pb2.Ruleset(move_timer_seconds=LONGEST_TIMER_S),
    )
    dealt = deal_pb2_grpc.DealServiceStub(channel).Deal(request)
    # ToMilliseconds() checks the Timestamp's range: it raises on an invalid deadline.
    assert dealt.status.turn_deadline.ToMilliseconds() == (LAST_CLOCK + LONGEST_TIMER_S) * 1000


def _opening(channel: grpc.Channel) -> tuple[deal_pb2.DealResponse, game_pb2.Move]:
    dealt = deal_pb2_grpc.DealServiceStub(channel).Deal(deal_pb2.DealRequest(seed="clock"))
    seat = dealt.first_seat
    move = game_pb2.Move(kind=game_pb2.MOVE_KIND_DISCARD, seat=seat,
                         tile=dealt.racks[seat].tiles[0])
    return dealt, move


@pytest.mark.parametrize("seconds", OUT_OF_RANGE)
def test_apply_move_now_outside_the_timestamp_range_is_invalid_now(
    channel: grpc.Channel, seconds: int
) -> None:
    dealt, move = _opening(channel)
    request = game_pb2.ApplyMoveRequest(state=dealt.state, move=move,
                                        now=Timestamp(seconds=seconds))
    code, fields = _refusal(lambda: game_pb2_grpc.GameServiceStub(channel).ApplyMove(request))
    assert (code, fields) == (grpc.StatusCode.INVALID_ARGUMENT, ("now",))


def test_replay_names_the_move_whose_now_is_out_of_range(channel: grpc.Channel) -> None:
    dealt, move = _opening(channel)
    request = game_pb2.ReplayRequest(deal=deal_pb2.DealRequest(seed="clock"))
    request.moves.add(move=move, now=Timestamp(seconds=2**62))
    code, fields = _refusal(lambda: game_pb2_grpc.GameServiceStub(channel).Replay(request))
    assert (code, fields) == (grpc.StatusCode.INVALID_ARGUMENT, ("moves[0].now",))
    assert dealt.status.seeded_deal_id  # the same deal the log starts from
