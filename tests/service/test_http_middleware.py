"""What the HTTP listener does around each call, as the gRPC port's wrapper does: CORS,
the drain (shared with the gRPC port), the concurrency limit, the call log and metrics."""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from collections.abc import Iterator
from typing import Any

import pytest
from http_helpers import (
    ALLOWED_ORIGIN,
    GRPC_WEB,
    Answer,
    HttpServer,
    connect_refusal,
    grpc_web_answer,
    grpc_web_frame,
    loopback_config,
    start_http_server,
    stop_http_server,
)
from okey.v1 import hand_pb2
from okey_server.rpc.rpc_wrapper import DRAINING
from okey_server.rpc.server import drain, make_servicers
from service_helpers import captured_info_logs

pytestmark = pytest.mark.service

CHECK_HAND = "/okey.v1.HandService/CheckHand"
HEALTH = "/grpc.health.v1.Health/Check"
BAD = {"handNotation": "R1 X2", "indicatorNotation": "R4"}
WAIT_S = 10.0  # a bound for a call to arrive, not an expectation


@pytest.fixture(scope="module")
def server(loop_thread) -> Iterator[HttpServer]:
    made = start_http_server(loop_thread, http_cors_origins=(ALLOWED_ORIGIN,))
    yield made
    stop_http_server(loop_thread, made)


class HeldHands:
    """A HandService whose calls wait until released: calls that stay in flight."""

    def __init__(self) -> None:
        self.release = asyncio.Event()

    async def CheckHand(self, _request: Any, _context: Any) -> bytes:  # noqa: N802
        await self.release.wait()
        return hand_pb2.CheckHandResponse(summary="held").SerializeToString()

    async def BestOpening(self, _request: Any, _context: Any) -> Any:  # noqa: N802
        raise NotImplementedError


@pytest.fixture
def held(loop_thread, request) -> Iterator[tuple[HttpServer, HeldHands]]:
    """A server whose CheckHand calls are held; ``max_concurrent_rpcs`` by parameter."""
    hands = HeldHands()
    servicers = {**make_servicers(loopback_config()), "HandService": hands}
    made = start_http_server(loop_thread, servicers=servicers,
                             max_concurrent_rpcs=getattr(request, "param", 8))
    yield made, hands
    loop_thread.loop.call_soon_threadsafe(hands.release.set)
    stop_http_server(loop_thread, made)


def in_flight(server: HttpServer, pool: concurrent.futures.Executor
              ) -> concurrent.futures.Future[Answer]:
    """A held CheckHand, sent from another thread; returns once the server runs it."""
    call = pool.submit(server.json_call, CHECK_HAND, {})
    deadline = time.monotonic() + WAIT_S
    while server.activity.in_flight < 1:
        assert time.monotonic() < deadline, "the call never arrived"
        time.sleep(0.01)
    return call


# --- CORS ----------------------------------------------------------------------------------


def test_preflight_of_an_allowed_origin(server: HttpServer) -> None:
    """An allowed origin's preflight is 204 with the methods and the Connect and gRPC-Web
    request headers a browser may send."""
    answer = server.call(CHECK_HAND, b"", method="OPTIONS", headers={
        "Origin": ALLOWED_ORIGIN, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type,connect-protocol-version"})
    assert answer.status == 204
    assert answer.headers["access-control-allow-origin"] == ALLOWED_ORIGIN
    assert "POST" in answer.headers["access-control-allow-methods"]
    allowed = answer.headers["access-control-allow-headers"].split(", ")
    assert {"content-type", "connect-protocol-version", "x-grpc-web"} <= set(allowed)


def test_preflight_of_another_origin_is_refused(server: HttpServer) -> None:
    answer = server.call(CHECK_HAND, b"", method="OPTIONS", headers={
        "Origin": "http://evil.example", "Access-Control-Request-Method": "POST"})
    assert answer.status == 403
    assert "access-control-allow-origin" not in answer.headers


def test_an_allowed_origin_may_read_the_answer_and_its_status(server: HttpServer) -> None:
    """The answer to an allowed origin names it and exposes gRPC-Web's status headers."""
    answer = server.json_call(HEALTH, {}, headers={"Origin": ALLOWED_ORIGIN})
    assert answer.headers["access-control-allow-origin"] == ALLOWED_ORIGIN
    exposed = answer.headers["access-control-expose-headers"]
    assert "grpc-status-details-bin" in exposed
    assert "x-request-id" in exposed


def test_another_origin_gets_no_cors_headers(server: HttpServer) -> None:
    answer = server.json_call(HEALTH, {}, headers={"Origin": "http://evil.example"})
    assert answer.status == 200  # answered, but the browser keeps it from the page
    assert "access-control-allow-origin" not in answer.headers


def test_no_origin_is_allowed_by_default(loop_thread) -> None:
    made = start_http_server(loop_thread)
    try:
        answer = made.call(CHECK_HAND, b"", method="OPTIONS", headers={
            "Origin": ALLOWED_ORIGIN, "Access-Control-Request-Method": "POST"})
        assert answer.status == 403
    finally:
        stop_http_server(loop_thread, made)


# --- the drain and the limit ---------------------------------------------------------------


def test_a_draining_server_answers_503_unavailable(server: HttpServer) -> None:
    """At the drain's end (Activity.refusing, shared with the gRPC port) a call is refused
    before it is read: Connect's unavailable (HTTP 503), gRPC-Web's grpc-status 14; the
    health check is still answered."""
    server.activity.refusing = True
    try:
        answer = server.json_call(CHECK_HAND, {})
        web = server.call(CHECK_HAND, grpc_web_frame(b""), GRPC_WEB)
        health = server.json_call(HEALTH, {})
    finally:
        server.activity.refusing = False
    assert answer.status == 503
    assert connect_refusal(answer).code == "unavailable"
    assert connect_refusal(answer).message == DRAINING
    assert grpc_web_answer(web)[1]["grpc-status"] == "14"
    assert health.status == 200


def test_the_drain_waits_for_http_calls_in_flight(held, loop_thread) -> None:
    """The server's stop, as okey-server runs it (serving.serve: the drain, then the HTTP
    listener's stop): while an HTTP call runs the drain does not go quiet (it refuses new
    calls only at half the grace), and the listener's stop ends only once the call has
    been answered. (What a draining server answers: the test above.)"""
    server, hands = held
    listener, grpc_server = server.stops
    health_servicer = server.app._applications["/grpc.health.v1.Health"]._service
    grace_s = 2.0

    async def stop() -> None:
        await drain(grpc_server, health_servicer, server.activity, grace_s, quiet_s=0.05)
        await listener.stop(grace_s)

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        call = in_flight(server, pool)
        started = time.monotonic()
        stopping = asyncio.run_coroutine_threadsafe(stop(), loop_thread.loop)
        deadline = started + WAIT_S
        while not server.activity.refusing:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert time.monotonic() - started >= grace_s / 2 - 0.05
        time.sleep(0.2)
        assert not stopping.done()
        loop_thread.loop.call_soon_threadsafe(hands.release.set)
        assert call.result(WAIT_S).json()["summary"] == "held"
        stopping.result(WAIT_S)


@pytest.mark.parametrize("held", [1], indirect=True)
def test_calls_past_the_limit_are_resource_exhausted(held, loop_thread) -> None:
    """--max-concurrent-rpcs on this listener: past it, resource_exhausted (HTTP 429)."""
    server, hands = held
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        call = in_flight(server, pool)
        refused = server.json_call(CHECK_HAND, {})
        loop_thread.loop.call_soon_threadsafe(hands.release.set)
        assert call.result(WAIT_S).status == 200
    assert refused.status == 429
    assert connect_refusal(refused).code == "resource_exhausted"


# --- the call log and the metrics ----------------------------------------------------------


def test_one_log_line_per_call_with_the_grpc_fields_and_the_transport(server: HttpServer) -> None:
    def lines() -> list[dict[str, Any]]:
        return [entry for entry in logs
                if entry.get("request_id") == "log-line-test" and entry["event"] == "rpc"]

    with captured_info_logs() as logs:
        server.json_call(CHECK_HAND, BAD, headers={"x-request-id": "log-line-test"})
        # The line is written once the answer is sent, so maybe after the client has it.
        deadline = time.monotonic() + WAIT_S
        while not lines() and time.monotonic() < deadline:
            time.sleep(0.01)
    (line,) = lines()
    assert line["method"] == CHECK_HAND
    assert line["code"] == "INVALID_ARGUMENT"
    assert line["invalid_field"] == "hand_notation"
    assert line["transport"] == "connect_json"
    assert str(line["peer"]).startswith("ipv4:127.0.0.1:")
    assert "duration_ms" in line


def test_calls_are_counted_in_the_rpc_families_and_by_transport(server: HttpServer) -> None:
    registry = server.metrics.registry
    labels = {"grpc_type": "unary", "grpc_service": "okey.v1.HandService",
              "grpc_method": "CheckHand", "grpc_code": "INVALID_ARGUMENT"}
    before = registry.get_sample_value("grpc_server_handled_total", labels) or 0
    web_before = registry.get_sample_value("okey_http_calls_total",
                                           {"transport": "grpc_web"}) or 0
    server.json_call(CHECK_HAND, BAD)
    server.call(CHECK_HAND, grpc_web_frame(hand_pb2.CheckHandRequest().SerializeToString()),
                GRPC_WEB)
    deadline = time.monotonic() + WAIT_S  # counted once the answer is sent (see above)
    while (registry.get_sample_value("grpc_server_handled_total", labels) != before + 2
           and time.monotonic() < deadline):
        time.sleep(0.01)
    assert registry.get_sample_value("grpc_server_handled_total", labels) == before + 2
    assert registry.get_sample_value("okey_http_calls_total",
                                     {"transport": "grpc_web"}) == web_before + 1


def test_unknown_paths_are_not_counted_per_method(server: HttpServer) -> None:
    """A scan of made-up paths must not grow the metrics' label sets."""
    server.call("/okey.v1.HandService/Made-Up", b"{}")
    names = {sample.labels.get("grpc_method") for family in server.metrics.registry.collect()
             for sample in family.samples}
    assert "Made-Up" not in names
