"""Prometheus metrics of an in-process server: per-method counters by code and latency histograms,
scraped over HTTP from 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from metrics_scrape import scrape, value
from okey.v1 import hand_pb2, hand_pb2_grpc
from okey_server.config import Config
from okey_server.metrics import LATENCY_BUCKETS, RpcMetrics, serve_metrics, split_method
from okey_server.rpc_wrapper import CallLog, RpcWrapperInterceptor, _call_log
from okey_server.server import create_server

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
