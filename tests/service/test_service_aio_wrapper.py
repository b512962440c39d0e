"""Sync-style handlers behind the asyncio wrapper keep the sync server's error semantics."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent import futures

import grpc
import pytest
from okey_rules.errors import InvalidInputError
from okey_server.aio_wrapper import AioRpcWrapperInterceptor
from okey_server.loop_server import LoopServer
from service_helpers import decode_error

pytestmark = pytest.mark.service

OPTIONS = (("grpc.so_reuseport", 0),)
PROCESS_DEADLINE_S = 30.0


def _invalid(_request: bytes, _context: grpc.ServicerContext) -> bytes:
    raise InvalidInputError("tiles[2].number", "number must be 1-13, not 0")


def _own_abort(_request: bytes, context: grpc.ServicerContext) -> bytes:
    context.abort(grpc.StatusCode.FAILED_PRECONDITION, "the handler's own status")
    return b""


def _bug(_request: bytes, _context: grpc.ServicerContext) -> bytes:
    return {}["missing"]  # type: ignore[no-any-return]  # a genuine bug: KeyError


def _echo_metadata(_request: bytes, context: grpc.ServicerContext) -> bytes:
    return dict(context.invocation_metadata())["x-request-id"].encode()


def _stream_then_invalid(_request: bytes, _context: grpc.ServicerContext) -> Iterator[bytes]:
    yield b"first"
    yield b"second"
    raise InvalidInputError("seed", "a seed is 32 bytes")


@pytest.fixture(scope="module", params=[None, 2], ids=["on-the-loop", "in-a-pool"])
def probe(request: pytest.FixtureRequest) -> Iterator[grpc.Channel]:
    """test.Probe on a grpc.aio server, handlers on the loop thread or in a 2-thread pool."""
    pool = None if request.param is None else futures.ThreadPoolExecutor(request.param)
    unary = {
        "Invalid": _invalid,
        "OwnAbort": _own_abort,
        "Bug": _bug,
        "Echo": _echo_metadata,
    }
    handlers = {name: grpc.unary_unary_rpc_method_handler(b) for name, b in unary.items()}
    handlers["Stream"] = grpc.unary_stream_rpc_method_handler(_stream_then_invalid)

    def build() -> grpc.aio.Server:
        server = grpc.aio.server(interceptors=(AioRpcWrapperInterceptor(pool),), options=OPTIONS)
        server.add_generic_rpc_handlers(
            (grpc.method_handlers_generic_handler("test.Probe", handlers),)
        )
        return server

    server = LoopServer(build, on_stop=pool.shutdown if pool is not None else None)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    with grpc.insecure_channel(f"127.0.0.1:{port}", options=OPTIONS) as channel:
        yield channel
    assert server.stop(None).wait(PROCESS_DEADLINE_S)


def _call(channel: grpc.Channel, method: str) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as raised:
        channel.unary_unary(f"/test.Probe/{method}")(b"", metadata=(("x-request-id", "aio-1"),))
    return raised.value


def test_invalid_input_is_invalid_argument_with_field_violation_and_request_id(
    probe: grpc.Channel,
) -> None:
    error = _call(probe, "Invalid")
    violation = decode_error(error)
    assert violation.code is grpc.StatusCode.INVALID_ARGUMENT
    assert violation.fields == ("tiles[2].number",)
    assert ("x-request-id", "aio-1") in [(m.key, m.value) for m in error.trailing_metadata()]


def test_handler_s_own_sync_style_abort_keeps_its_status(probe: grpc.Channel) -> None:
    error = _call(probe, "OwnAbort")
    assert error.code() is grpc.StatusCode.FAILED_PRECONDITION
    assert error.details() == "the handler's own status"


def test_genuine_bug_is_internal_without_internals(probe: grpc.Channel) -> None:
    error = _call(probe, "Bug")
    assert error.code() is grpc.StatusCode.INTERNAL
    assert "missing" not in error.details()


def test_handler_reads_the_call_s_metadata(probe: grpc.Channel) -> None:
    answer = probe.unary_unary("/test.Probe/Echo")(b"", metadata=(("x-request-id", "aio-2"),))
    assert answer == b"aio-2"


def test_sync_response_stream_sends_its_items_then_the_error(probe: grpc.Channel) -> None:
    responses = probe.unary_stream("/test.Probe/Stream")(b"")
    assert [next(responses), next(responses)] == [b"first", b"second"]
    with pytest.raises(grpc.RpcError) as raised:
        next(responses)
    assert decode_error(raised.value).fields == ("seed",)
