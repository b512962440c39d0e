"""Prometheus metrics of an in-process server: per-method counters by code and latency histograms,
scraped over HTTP from 127.0.0.1."""

from __future__ import annotations

import gzip
import socket
import threading
from collections.abc import Iterator

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from metrics_scrape import scrape, value
from okey.v1 import hand_pb2, hand_pb2_grpc
from okey_server.rpc.config import Config
from okey_server.rpc.metrics import (
    HANDLED,
    LATENCY_BUCKETS,
    MetricsServer,
    RpcMetrics,
    serve_metrics,
    split_method,
)
from okey_server.rpc.rpc_wrapper import CallLog, RpcWrapperInterceptor, _call_log
from okey_server.rpc.server import create_server

pytestmark = pytest.mark.service

LOOPBACK = "127.0.0.1"
CHANNEL_OPTIONS = (("grpc.so_reuseport", 0),)

WINNING = "R1 R2 R3 Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12 K13"
HAND = "okey.v1.HandService"
HEALTH = "grpc.health.v1.Health"


@pytest.fixture
def metered_server(loop_thread) -> Iterator[tuple[str, str]]:
    """(gRPC address, metrics URL) of a private server recording into its own registry."""
    config = Config(host=LOOPBACK, port=0, log_level="warning")
    metrics = RpcMetrics()
    server, port = loop_thread.run(create_server(config.address, config, metrics=metrics))
    loop_thread.run(server.start())
    httpd = serve_metrics(LOOPBACK, 0, metrics.registry)
    try:
        yield f"{LOOPBACK}:{port}", f"http://{LOOPBACK}:{httpd.server_port}/metrics"
    finally:
        httpd.shutdown()
        httpd.server_close()
        loop_thread.run(server.stop(None))


def test_split_method_names_service_and_method() -> None:
    assert split_method("/okey.v1.HandService/CheckHand") == (HAND, "CheckHand")


def test_counters_by_method_and_code_and_histogram_counts(metered_server) -> None:
    """Each finished RPC adds one to its (service, method, code) counter and one
    observation to its method's histogram; the codes are the callers' statuses."""
    address, url = metered_server
    with grpc.insecure_channel(address, options=CHANNEL_OPTIONS) as channel:
        hands = hand_pb2_grpc.HandServiceStub(channel)
        for okey in ("R5", "Y7", "K1"):
            hands.CheckHand(hand_pb2.CheckHandRequest(hand_notation=WINNING, okey_notation=okey))
        for bad in ("R1 X9", "R99"):
            with pytest.raises(grpc.RpcError) as caught:
                hands.CheckHand(hand_pb2.CheckHandRequest(hand_notation=bad, okey_notation="R5"))
            assert caught.value.code() is grpc.StatusCode.INVALID_ARGUMENT
        health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest())

    samples = scrape(url)
    handled = "grpc_server_handled_total"
    check_hand = {"grpc_service": HAND, "grpc_method": "CheckHand", "grpc_type": "unary"}
    assert value(samples, handled, grpc_code="OK", **check_hand) == 3
    assert value(samples, handled, grpc_code="INVALID_ARGUMENT", **check_hand) == 2
    assert value(samples, handled, grpc_code="INTERNAL", **check_hand) == 0
    assert value(samples, handled, grpc_service=HEALTH, grpc_method="Check", grpc_code="OK") == 1

    # The histogram counts every call of the method, whatever its code.
    seconds = "grpc_server_handling_seconds"
    assert value(samples, seconds + "_count", **check_hand) == 5
    assert value(samples, seconds + "_count", grpc_service=HEALTH, grpc_method="Check") == 1
    assert 0 < value(samples, seconds + "_sum", **check_hand) < 5 * 30
    buckets = [(labels["le"], v) for labels, v in samples[seconds + "_bucket"]
               if labels["grpc_method"] == "CheckHand"]
    assert [float(le) for le, _ in buckets] == [*LATENCY_BUCKETS, float("inf")]
    counts = [v for _, v in buckets]
    assert counts == sorted(counts)  # cumulative
    assert counts[-1] == 5


def test_metrics_off_keeps_the_plain_call_path() -> None:
    """Metrics off (the default): no recorder, and each call's bookkeeping is the plain
    CallLog, not a metered one that would test for a recorder on every call."""
    assert Config().metrics_port is None
    assert RpcWrapperInterceptor().metrics is None
    assert _call_log(None) is CallLog
    assert _call_log(RpcMetrics().for_method("/p.S/M", "unary")) is not CallLog


IDLE_CONNECTIONS = 10


def test_idle_connections_to_the_metrics_port_hold_no_thread() -> None:
    """Connections that send nothing, or half a request, cost the process no thread each
    (prometheus-client's own server started one per connection: 10 idle ones, 10 threads),
    and a scrape is still answered while they stay open."""
    metrics = RpcMetrics()
    metrics.for_method("/p.S/M", "unary").observe(grpc.StatusCode.OK, 0.001)
    httpd = serve_metrics(LOOPBACK, 0, metrics.registry)
    idle: list[socket.socket] = []
    try:
        threads_before = set(threading.enumerate())
        for index in range(IDLE_CONNECTIONS):
            connection = socket.create_connection((LOOPBACK, httpd.server_port), timeout=5)
            if index % 2:
                connection.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")  # never finished
            idle.append(connection)
        # The server accepts in order: once this scrape is answered, every idle
        # connection above has been accepted (and given its thread, if it gets one).
        samples = scrape(f"http://{LOOPBACK}:{httpd.server_port}/metrics")
        assert value(samples, HANDLED + "_total", grpc_method="M", grpc_code="OK") == 1
        assert set(threading.enumerate()) - threads_before == set()
    finally:
        for connection in idle:
            connection.close()
        httpd.shutdown()
        httpd.server_close()


def _http(connection: socket.socket, request: bytes) -> tuple[str, dict[str, str], bytes]:
    """Sends `request` and reads one answer (status line, headers, body by Content-Length)."""
    connection.sendall(request)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        assert chunk, f"closed before an answer: {data!r}"
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    status, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): text.strip() for name, _, text in (ln.partition(":") for ln in lines)}
    length = int(headers.get("content-length", "0")) if not request.startswith(b"HEAD") else 0
    while len(body) < length:
        chunk = connection.recv(65536)
        assert chunk
        body += chunk
    return status, headers, body


def _closed_by_server(connection: socket.socket) -> bool:
    try:
        return connection.recv(1) == b""
    except ConnectionResetError:
        return True


def test_metrics_port_answers_like_prometheus_clients_server() -> None:
    """Keep-alive, OpenMetrics and gzip when asked, name[] filter, HEAD, any path; other
    methods and malformed heads are refused with a status, not a dropped connection."""
    metrics = RpcMetrics()
    metrics.for_method("/p.S/M", "unary").observe(grpc.StatusCode.OK, 0.001)
    httpd = serve_metrics(LOOPBACK, 0, metrics.registry)
    try:
        with socket.create_connection((LOOPBACK, httpd.server_port), timeout=5) as connection:
            status, headers, body = _http(connection, b"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
            assert status == "HTTP/1.1 200 OK"
            assert headers["content-type"].startswith("text/plain; version=0.0.4")
            assert b'grpc_server_handled_total{grpc_code="OK"' in body
            # The same connection again: OpenMetrics, gzip, one family only, another path.
            status, headers, body = _http(
                connection,
                b"GET /other?name[]=grpc_server_handled_total HTTP/1.1\r\nHost: x\r\n"
                b"Accept: application/openmetrics-text; version=1.0.0\r\n"
                b"Accept-Encoding: gzip\r\n\r\n",
            )
            assert headers["content-type"].startswith("application/openmetrics-text")
            assert headers["content-encoding"] == "gzip"
            page = gzip.decompress(body)
            assert page.endswith(b"# EOF\n")
            assert b"grpc_server_handled_total" in page
            assert b"grpc_server_handling_seconds" not in page
            status, headers, body = _http(connection, b"HEAD / HTTP/1.1\r\nHost: x\r\n\r\n")
            assert status == "HTTP/1.1 200 OK"
            assert int(headers["content-length"]) > 0
            status, headers, _ = _http(connection, b"POST / HTTP/1.1\r\nHost: x\r\n\r\n")
            assert status == "HTTP/1.1 405 Method Not Allowed"
            assert headers["allow"] == "GET, HEAD"
            status, headers, _ = _http(
                connection, b"GET / HTTP/1.1\r\nConnection: close\r\n\r\n"
            )
            assert status == "HTTP/1.1 200 OK"
            assert headers["connection"] == "close"
            assert _closed_by_server(connection)
        with socket.create_connection((LOOPBACK, httpd.server_port), timeout=5) as connection:
            status, _, _ = _http(connection, b"nonsense\r\n\r\n")
            assert status == "HTTP/1.1 400 Bad Request"
            assert _closed_by_server(connection)
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_metrics_port_closes_idle_connections_and_makes_room_past_its_cap() -> None:
    """A connection with no whole request within the idle timeout is closed; past the cap
    the connection idle longest is closed and the newcomer is answered."""
    httpd = MetricsServer(LOOPBACK, 0, RpcMetrics().registry, idle_timeout_s=0.5,
                          max_connections=2)
    try:
        with socket.create_connection((LOOPBACK, httpd.server_port), timeout=5) as silent:
            silent.sendall(b"GET / HTTP/1.1\r\n")  # half a head, then nothing
            assert _closed_by_server(silent)  # within the 0.5 s (the recv waits up to 5 s)

        roomy = MetricsServer(LOOPBACK, 0, RpcMetrics().registry, max_connections=2)
        try:
            first = socket.create_connection((LOOPBACK, roomy.server_port), timeout=5)
            second = socket.create_connection((LOOPBACK, roomy.server_port), timeout=5)
            with first, second, socket.create_connection(
                (LOOPBACK, roomy.server_port), timeout=5
            ) as third:
                status, _, _ = _http(third, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                assert status == "HTTP/1.1 200 OK"
                assert _closed_by_server(first)  # the one idle longest
                status, _, _ = _http(second, b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
                assert status == "HTTP/1.1 200 OK"
        finally:
            roomy.shutdown()
            roomy.server_close()
    finally:
        httpd.shutdown()
        httpd.server_close()
