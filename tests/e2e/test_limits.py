"""Bounded resources (issue 15 point 7): --max-receive-bytes and --max-concurrent-rpcs are
enforced with gRPC's own RESOURCE_EXHAUSTED, the server stays healthy, and a burst of
oversized requests does not grow its memory."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from okey.v1 import hand_pb2, hand_pb2_grpc
from okey_server.rpc.config import DEFAULT_MAX_RECEIVE_BYTES

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import memory_bench  # bench/ is put on the path just above

pytestmark = pytest.mark.e2e

CHANNEL_OPTIONS = (("grpc.so_reuseport", 0),)
CALL_TIMEOUT_S = 30.0
WINNING = "R1 R2 R3 Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12 K13"
CONCURRENCY_LIMIT = "Concurrent RPC limit exceeded!"


def _notation_of(size: int) -> hand_pb2.CheckHandRequest:
    """A CheckHandRequest of about `size` bytes (a hand of many R1s: read, then refused)."""
    return hand_pb2.CheckHandRequest.FromString(memory_bench.large_request(size))


def _code(call: object, request: object) -> grpc.StatusCode:
    try:
        call(request, timeout=CALL_TIMEOUT_S)  # type: ignore[operator]
    except grpc.RpcError as error:
        return error.code()
    return grpc.StatusCode.OK


def _healthy(channel: grpc.Channel) -> None:
    """Health SERVING and a CheckHand answered."""
    status = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(),
                                                         timeout=CALL_TIMEOUT_S)
    assert status.status == health_pb2.HealthCheckResponse.SERVING
    answer = hand_pb2_grpc.HandServiceStub(channel).CheckHand(
        hand_pb2.CheckHandRequest(hand_notation=WINNING, indicator_notation="R4"),
        timeout=CALL_TIMEOUT_S,
    )
    assert answer.winning


def test_a_request_over_the_receive_limit_is_resource_exhausted_and_the_server_stays_healthy(
    start_server_process,
) -> None:
    server = start_server_process("--port", "0")
    over = _notation_of(DEFAULT_MAX_RECEIVE_BYTES + 4096)
    under = _notation_of(DEFAULT_MAX_RECEIVE_BYTES)
    assert over.ByteSize() > DEFAULT_MAX_RECEIVE_BYTES >= under.ByteSize()
    with grpc.insecure_channel(server.address, options=CHANNEL_OPTIONS) as channel:
        check_hand = hand_pb2_grpc.HandServiceStub(channel).CheckHand
        with pytest.raises(grpc.RpcError) as refused:
            check_hand(over, timeout=CALL_TIMEOUT_S)
        assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        # gRPC's own words: what was sent and the limit, so the caller knows what to cut.
        assert refused.value.details() == (
            f"SERVER: Received message larger than max ({over.ByteSize()} vs. "
            f"{DEFAULT_MAX_RECEIVE_BYTES})"
        )
        # Just under the limit the request is read, and judged on its merits.
        assert _code(check_hand, under) == grpc.StatusCode.INVALID_ARGUMENT
        _healthy(channel)


def test_the_receive_limit_follows_the_flag(start_server_process) -> None:
    server = start_server_process("--port", "0", "--max-receive-bytes", str(1024 * 1024))
    over_default = _notation_of(DEFAULT_MAX_RECEIVE_BYTES + 4096)
    with grpc.insecure_channel(server.address, options=CHANNEL_OPTIONS) as channel:
        check_hand = hand_pb2_grpc.HandServiceStub(channel).CheckHand
        assert _code(check_hand, over_default) == grpc.StatusCode.INVALID_ARGUMENT
        assert _code(check_hand, _notation_of(1024 * 1024 + 4096)) == (
            grpc.StatusCode.RESOURCE_EXHAUSTED
        )


# Slots of cancelled calls come free on the server a moment after the client cancels.
FREE_SLOT_TRIES = 200
FREE_SLOT_WAIT_S = 0.05


@contextmanager
def _held_calls(channel: grpc.Channel, count: int) -> Iterator[None]:
    """`count` health Watch streams open on the server (each has answered once): RPCs that
    stay in flight for as long as the block runs, however loaded the machine is.

    A Watch refused because the slots of an earlier block are not free yet is tried again.
    """
    health = health_pb2_grpc.HealthStub(channel)
    watches = []
    try:
        for _ in range(count):
            for _ in range(FREE_SLOT_TRIES):
                watch = health.Watch(health_pb2.HealthCheckRequest(), timeout=CALL_TIMEOUT_S * 4)
                try:
                    first = next(watch)
                except grpc.RpcError as error:
                    if error.code() != grpc.StatusCode.RESOURCE_EXHAUSTED:
                        raise
                    time.sleep(FREE_SLOT_WAIT_S)
                    continue
                assert first.status == health_pb2.HealthCheckResponse.SERVING
                watches.append(watch)
                break
        assert len(watches) == count, "the server never freed the slots of cancelled calls"
        yield
    finally:
        for watch in watches:
            watch.cancel()


def _concurrent_codes(channel: grpc.Channel, count: int) -> list[grpc.StatusCode]:
    """`count` CheckHand calls sent at once; how each ended."""
    stub = hand_pb2_grpc.HandServiceStub(channel)
    request = hand_pb2.CheckHandRequest(hand_notation=WINNING, indicator_notation="R4")
    futures = [stub.CheckHand.future(request, timeout=CALL_TIMEOUT_S) for _ in range(count)]
    codes = []
    for future in futures:
        error = future.exception()
        codes.append(grpc.StatusCode.OK if error is None else error.code())
        if error is not None:
            assert error.details() == CONCURRENCY_LIMIT
    return codes


def test_calls_past_max_concurrent_rpcs_are_resource_exhausted_and_the_bound_holds(
    start_server_process,
) -> None:
    """--max-concurrent-rpcs 3: with three calls held open every further call is refused;
    with two held, calls get the one free slot; the count does not drift over rounds."""
    server = start_server_process("--port", "0", "--max-concurrent-rpcs", "3")
    with grpc.insecure_channel(server.address, options=CHANNEL_OPTIONS) as channel:
        _healthy(channel)
        for _ in range(3):
            with _held_calls(channel, 3):
                assert _concurrent_codes(channel, 8) == [grpc.StatusCode.RESOURCE_EXHAUSTED] * 8
                health = health_pb2_grpc.HealthStub(channel)
                assert _code(health.Check, health_pb2.HealthCheckRequest()) == (
                    grpc.StatusCode.RESOURCE_EXHAUSTED
                )
            with _held_calls(channel, 2):
                stub = hand_pb2_grpc.HandServiceStub(channel)
                request = hand_pb2.CheckHandRequest(hand_notation=WINNING, indicator_notation="R4")
                # Once one call gets through, no slot of the last block is still taken
                # (2 held + any such slot would fill all 3): from then on every call fits.
                for _ in range(FREE_SLOT_TRIES):
                    if _code(stub.CheckHand, request) == grpc.StatusCode.OK:
                        break
                    time.sleep(FREE_SLOT_WAIT_S)
                assert [_code(stub.CheckHand, request) for _ in range(5)] == (
                    [grpc.StatusCode.OK] * 5
                )
        _healthy(channel)


# Many requests of gRPC's old limit at once: with the old bounds this many took the server
# from ~50 MB to several hundred; with the defaults it should barely move.
BURST = 96
MAX_GROWTH_MB = 48


def test_memory_stays_bounded_under_a_burst_of_oversized_requests() -> None:
    figures = memory_bench.measure((), memory_bench.OLD_RECEIVE_BYTES, BURST)
    assert dict(figures.codes) == {"RESOURCE_EXHAUSTED": BURST}
    assert figures.peak_mb - figures.before_mb < MAX_GROWTH_MB, figures
