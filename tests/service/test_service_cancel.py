"""A client that leaves mid-stream is a CANCELLED RPC logged at info, never an INTERNAL error."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import AsyncIterator, Iterator

import grpc
import pytest
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from okey_server.rpc.rpc_wrapper import RpcWrapperInterceptor
from service_helpers import captured_info_logs

pytestmark = pytest.mark.service

METHOD = "/test.Cancel/Chat"
# Upper bounds for events that happen at once, not timing assertions.
DEADLINE_S = 20.0


@pytest.fixture
def info_logs() -> Iterator[list[dict[str, object]]]:
    """Captured structlog entries at info level and above (the session may log at warning)."""
    with captured_info_logs() as logs:
        yield logs


def _rpc_line(logs: list[dict[str, object]], method: str = METHOD) -> dict[str, object]:
    """The wrapper's one line for `method`, once the handler has finished."""
    deadline = time.monotonic() + DEADLINE_S
    while time.monotonic() < deadline:
        lines = [e for e in list(logs) if e.get("event") == "rpc" and e.get("method") == method]
        if lines:
            return lines[0]
        time.sleep(0.01)
    raise AssertionError(f"no rpc line for {method} in {logs}")


async def _chat_async(requests: AsyncIterator[bytes], _context: object) -> AsyncIterator[bytes]:
    """Answers the first request, then waits for more: a client that leaves cancels it here."""
    async for request in requests:
        yield request
        await asyncio.Event().wait()  # never set: only the client's cancel ends this


@pytest.fixture
def aio_chat(loop_thread) -> Iterator[grpc.Channel]:
    """A channel to a grpc.aio server with test.Cancel/Chat behind the production wrapper."""

    async def build() -> tuple[grpc.aio.Server, int]:
        server = grpc.aio.server(
            interceptors=(RpcWrapperInterceptor(),), options=(("grpc.so_reuseport", 0),)
        )
        handler = grpc.stream_stream_rpc_method_handler(_chat_async)
        server.add_generic_rpc_handlers(
            (grpc.method_handlers_generic_handler("test.Cancel", {"Chat": handler}),)
        )
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        return server, port

    server, port = loop_thread.run(build())
    with grpc.insecure_channel(f"127.0.0.1:{port}", options=(("grpc.so_reuseport", 0),)) as ch:
        yield ch
    loop_thread.run(server.stop(None))


def test_client_cancelling_an_asyncio_stream_is_logged_cancelled(
    aio_chat: grpc.Channel, info_logs: list[dict[str, object]], caplog: pytest.LogCaptureFixture
) -> None:
    client_done = threading.Event()

    def requests() -> Iterator[bytes]:
        yield b"hello"
        client_done.wait(DEADLINE_S)

    call = aio_chat.stream_stream(METHOD)(requests(), metadata=(("x-request-id", "gone-2"),))
    assert next(call) == b"hello"
    call.cancel()
    client_done.set()
    line = _rpc_line(info_logs)

    assert line["code"] == "CANCELLED"
    assert line["log_level"] == "info"
    assert line["request_id"] == "gone-2"
    assert [e for e in info_logs if e["log_level"] == "error"] == []
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []


def test_reflection_client_closing_its_stream_early_is_no_error(
    make_server, info_logs: list[dict[str, object]], caplog: pytest.LogCaptureFixture
) -> None:
    """The reported case, on the real server: a reflection client leaves after one answer.

    The reflection servicer may see the end of the request stream before the
    cancellation itself arrives, and then ends normally (OK): either way the
    line is an info line, never an error or INTERNAL.
    """
    _, port = make_server()
    method = "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo"
    ask = reflection_pb2.ServerReflectionRequest(list_services="")
    client_done = threading.Event()

    def requests() -> Iterator[reflection_pb2.ServerReflectionRequest]:
        yield ask
        client_done.wait(DEADLINE_S)  # keep the stream open until the client cancels

    with grpc.insecure_channel(f"127.0.0.1:{port}", options=(("grpc.so_reuseport", 0),)) as ch:
        stub = reflection_pb2_grpc.ServerReflectionStub(ch)
        call = stub.ServerReflectionInfo(requests(), metadata=(("x-request-id", "gone-3"),))
        assert next(call).list_services_response.service  # one answer, then the client leaves
        call.cancel()
        client_done.set()
        line = _rpc_line(info_logs, method)

    assert line["code"] in ("CANCELLED", "OK")
    assert line["log_level"] == "info"
    assert line["request_id"] == "gone-3"
    assert [e for e in info_logs if e["log_level"] == "error"] == []
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
