"""The server's own limits (issue 23): the health lane beside full RPC slots, the request's
receive time limit, the drain's UNAVAILABLE refusals, and the channel arguments set."""

from __future__ import annotations

import time
from collections.abc import Iterator

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1._async import HealthServicer
from okey.v1 import hand_pb2, hand_pb2_grpc
from okey_server.rpc import rpc_wrapper
from okey_server.rpc.config import Config
from okey_server.rpc.rpc_wrapper import Activity
from okey_server.rpc.server import create_health_server, drain, server_options

pytestmark = pytest.mark.service

CALL_TIMEOUT_S = 10.0
LOOPBACK = "127.0.0.1"
CHANNEL_OPTIONS = (("grpc.so_reuseport", 0),)
CHECK_HAND = "/okey.v1.HandService/CheckHand"
REQUEST = hand_pb2.CheckHandRequest(
    hand_notation="R1 R2 R3 Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12 K13", indicator_notation="R4"
)
SERVING = health_pb2.HealthCheckResponse.SERVING
NOT_SERVING = health_pb2.HealthCheckResponse.NOT_SERVING


def _check(address: str) -> int:
    with grpc.insecure_channel(address, options=CHANNEL_OPTIONS) as channel:
        return health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(), timeout=CALL_TIMEOUT_S).status


@pytest.fixture
def lane(loop_thread, make_server) -> Iterator:
    """make_server plus the health lane sharing its health servicer: (main, lane) addresses,
    the servicer, the activity and the main server."""
    servers = []

    def start(**overrides: object):
        health_servicer = loop_thread.run(_servicer())
        activity = Activity()
        server, port = make_server(health_servicer, activity, **overrides)
        config = Config(host=LOOPBACK, port=0, health_port=0, **overrides)  # type: ignore[arg-type]
        health_server, health_port = loop_thread.run(
            create_health_server(config, health_servicer))
        loop_thread.run(health_server.start())
        servers.append(health_server)
        return (f"{LOOPBACK}:{port}", f"{LOOPBACK}:{health_port}", health_servicer, activity,
                server)

    yield start
    for server in servers:
        loop_thread.run(server.stop(None))


async def _servicer() -> HealthServicer:
    return HealthServicer()  # made on the loop it serves from


def test_the_health_lane_answers_while_every_rpc_slot_is_taken(lane) -> None:
    address, health_address, _servicer, _activity, _server = lane(max_concurrent_rpcs=2)
    with grpc.insecure_channel(address, options=CHANNEL_OPTIONS) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        watches = [health.Watch(health_pb2.HealthCheckRequest(), timeout=60) for _ in range(2)]
        try:
            assert [next(watch).status for watch in watches] == [SERVING, SERVING]
            with pytest.raises(grpc.RpcError) as refused:
                health.Check(health_pb2.HealthCheckRequest(), timeout=CALL_TIMEOUT_S)
            assert refused.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert [_check(health_address) for _ in range(5)] == [SERVING] * 5
        finally:
            for watch in watches:
                watch.cancel()


def test_the_health_lane_serves_health_only_and_drains_with_the_server(lane, loop_thread) -> None:
    _address, health_address, servicer, activity, server = lane()
    with grpc.insecure_channel(health_address, options=CHANNEL_OPTIONS) as channel:
        with pytest.raises(grpc.RpcError) as missing:
            hand_pb2_grpc.HandServiceStub(channel).CheckHand(REQUEST, timeout=CALL_TIMEOUT_S)
        assert missing.value.code() == grpc.StatusCode.UNIMPLEMENTED
    loop_thread.run(drain(server, servicer, activity, 0.5, quiet_s=0.05))
    assert _check(health_address) == NOT_SERVING


def test_while_refusing_calls_are_unavailable_and_health_still_answers(make_server) -> None:
    activity = Activity()
    _server, port = make_server(None, activity)
    activity.refusing = True
    with grpc.insecure_channel(f"{LOOPBACK}:{port}", options=CHANNEL_OPTIONS) as channel:
        with pytest.raises(grpc.RpcError) as refused:
            hand_pb2_grpc.HandServiceStub(channel).CheckHand(REQUEST, timeout=CALL_TIMEOUT_S)
        assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
        assert refused.value.details() == rpc_wrapper.DRAINING
        answer = health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(), timeout=CALL_TIMEOUT_S)
        assert answer.status == SERVING
        activity.refusing = False
        assert hand_pb2_grpc.HandServiceStub(channel).CheckHand(
            REQUEST, timeout=CALL_TIMEOUT_S).winning


def _never_ending() -> Iterator[bytes]:
    """A request stream that sends nothing, for as long as the call lasts."""
    time.sleep(CALL_TIMEOUT_S)
    yield from ()


def test_a_request_that_does_not_arrive_in_time_ends_deadline_exceeded(make_server) -> None:
    _server, port = make_server(receive_timeout_s=0.3)
    with grpc.insecure_channel(f"{LOOPBACK}:{port}", options=CHANNEL_OPTIONS) as channel:
        # Headers sent, never a message: what a unary stub cannot do, a stream call can.
        stalled = channel.stream_unary(CHECK_HAND)
        started = time.monotonic()
        with pytest.raises(grpc.RpcError) as overdue:
            stalled(_never_ending(), timeout=CALL_TIMEOUT_S * 2)
        assert time.monotonic() - started < CALL_TIMEOUT_S
        assert overdue.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        assert overdue.value.details() == "the request message did not arrive within 0.3 s"
        # No message at all, the stream closed: an answer, not a wait.
        with pytest.raises(grpc.RpcError) as empty:
            stalled(iter(()), timeout=CALL_TIMEOUT_S)
        assert empty.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        # One ordinary call is unaffected.
        answer = hand_pb2_grpc.HandServiceStub(channel).CheckHand(REQUEST, timeout=CALL_TIMEOUT_S)
        assert answer.winning


def test_server_options_carry_the_limits() -> None:
    options = dict(server_options(Config(max_streams_per_connection=7,
                                         max_connection_age_s=4.0)))
    assert options["grpc.max_concurrent_streams"] == 7
    assert options["grpc.max_connection_age_ms"] == 4000
    assert options["grpc.max_connection_age_grace_ms"] == 2000  # half the age when shorter
    assert options["grpc.http2.max_ping_strikes"] == 2
    defaults = dict(server_options(Config()))
    assert defaults["grpc.max_concurrent_streams"] == 32
    assert defaults["grpc.max_connection_age_ms"] == 30_000
    assert defaults["grpc.max_connection_age_grace_ms"] == 10_000


def test_the_health_lane_is_plaintext_beside_a_mutual_tls_port(lane) -> None:
    """Kubernetes' gRPC probes cannot talk TLS: the lane answers them whatever the RPC port
    requires, and answers health only."""
    import tls_certs

    certs = tls_certs.certificates()
    address, health_address, *_ = lane(
        tls_cert=certs.read("server_cert"), tls_key=certs.read("server_key"),
        tls_client_ca=certs.read("ca"),
    )
    assert _check(health_address) == SERVING
    with grpc.insecure_channel(address, options=CHANNEL_OPTIONS) as channel:
        with pytest.raises(grpc.RpcError) as refused:
            health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=2)
        assert refused.value.code() == grpc.StatusCode.UNAVAILABLE  # no plaintext there
