"""The CLI's retry policy (okey_cli.rpc.RETRY_POLICY): a call refused UNAVAILABLE or
RESOURCE_EXHAUSTED is tried again by gRPC, at most maxAttempts times in all; every other
code is final. Against an in-process server that refuses the first calls it gets."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent import futures

import grpc
import pytest
from okey.v1 import hand_pb2, hand_pb2_grpc
from okey_cli import rpc

pytestmark = pytest.mark.service

REQUEST = hand_pb2.CheckHandRequest(hand_notation="R1 R2 R3", indicator_notation="R4")


class Refusing(hand_pb2_grpc.HandServiceServicer):
    """CheckHand fails with `codes` in turn, then answers; `calls` counts every call."""

    def __init__(self, codes: list[grpc.StatusCode]) -> None:
        self.codes = codes
        self.calls = 0

    def CheckHand(self, request, context):  # noqa: N802 (the RPC's name)
        code = self.codes[self.calls] if self.calls < len(self.codes) else None
        self.calls += 1
        if code is not None:
            context.abort(code, f"refused with {code.name}")
        return hand_pb2.CheckHandResponse(winning=True)


@pytest.fixture
def serve() -> Iterator:
    servers: list[grpc.Server] = []

    def start(codes: list[grpc.StatusCode]) -> tuple[Refusing, str]:
        servicer = Refusing(codes)
        server = grpc.server(futures.ThreadPoolExecutor(2), options=(("grpc.so_reuseport", 0),))
        hand_pb2_grpc.add_HandServiceServicer_to_server(servicer, server)
        port = server.add_insecure_port("127.0.0.1:0")
        server.start()
        servers.append(server)
        return servicer, f"127.0.0.1:{port}"

    yield start
    for server in servers:
        server.stop(None)


def _check(address: str) -> hand_pb2.CheckHandResponse:
    with rpc.open_channel(address) as channel:
        return hand_pb2_grpc.HandServiceStub(channel).CheckHand(REQUEST, timeout=10)


def test_unavailable_and_resource_exhausted_are_retried_until_the_call_succeeds(serve) -> None:
    servicer, address = serve([grpc.StatusCode.RESOURCE_EXHAUSTED, grpc.StatusCode.UNAVAILABLE])
    assert _check(address).winning
    assert servicer.calls == 3


def test_retries_stop_after_max_attempts(serve) -> None:
    attempts = rpc.RETRY_POLICY["maxAttempts"]
    servicer, address = serve([grpc.StatusCode.UNAVAILABLE] * (attempts + 2))
    with pytest.raises(grpc.RpcError) as failed:
        _check(address)
    assert failed.value.code() == grpc.StatusCode.UNAVAILABLE
    assert servicer.calls == attempts


@pytest.mark.parametrize(
    "code",
    [grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.CANCELLED,
     grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.INTERNAL],
)
def test_other_codes_are_final(serve, code: grpc.StatusCode) -> None:
    servicer, address = serve([code])
    with pytest.raises(grpc.RpcError) as failed:
        _check(address)
    assert failed.value.code() == code
    assert servicer.calls == 1
