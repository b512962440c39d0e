"""The per-RPC wrapper maps what a handler raises: input -> INVALID_ARGUMENT, bug -> INTERNAL."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator

import grpc
import pytest
from okey_rules.errors import InvalidInputError, NotationError
from okey_server.rpc.rpc_wrapper import RpcWrapperInterceptor, wrap_handler
from service_helpers import captured_info_logs, decode_error

pytestmark = pytest.mark.service

OPTIONS = (("grpc.so_reuseport", 0),)


async def _invalid(_request: bytes, _context: grpc.aio.ServicerContext) -> bytes:
    raise InvalidInputError("hand.tiles[2].number", "number must be 1-13, not 0")


async def _bad_notation(_request: bytes, _context: grpc.aio.ServicerContext) -> bytes:
    raise NotationError("hand_notation", "cannot read 'X3' as a tile")


async def _bug(_request: bytes, _context: grpc.aio.ServicerContext) -> bytes:
    return {}["missing"]  # type: ignore[no-any-return]  # a genuine bug: KeyError


async def _todo(_request: bytes, _context: grpc.aio.ServicerContext) -> bytes:
    raise NotImplementedError


async def _own_abort(_request: bytes, context: grpc.aio.ServicerContext) -> bytes:
    await context.abort(grpc.StatusCode.FAILED_PRECONDITION, "the handler's own status")
    return b""


async def _echo_metadata(_request: bytes, context: grpc.aio.ServicerContext) -> bytes:
    return dict(context.invocation_metadata())["x-request-id"].encode()


async def _stream_then_invalid(
    _request: bytes, _context: grpc.aio.ServicerContext
) -> AsyncIterator[bytes]:
    yield b"first"
    yield b"second"
    raise InvalidInputError("seed", "a seed is 32 bytes")


@pytest.fixture(scope="module")
def probe(loop_thread) -> Iterator[grpc.Channel]:
    """A grpc.aio server whose only service is test.Probe, behind the production wrapper."""
    unary = {
        "Invalid": _invalid,
        "BadNotation": _bad_notation,
        "Bug": _bug,
        "Todo": _todo,
        "OwnAbort": _own_abort,
        "Echo": _echo_metadata,
    }
    handlers = {name: grpc.unary_unary_rpc_method_handler(b) for name, b in unary.items()}
    handlers["Stream"] = grpc.unary_stream_rpc_method_handler(_stream_then_invalid)

    async def build() -> tuple[grpc.aio.Server, int]:
        server = grpc.aio.server(interceptors=(RpcWrapperInterceptor(),), options=OPTIONS)
        server.add_generic_rpc_handlers(
            (grpc.method_handlers_generic_handler("test.Probe", handlers),)
        )
        port = server.add_insecure_port("127.0.0.1:0")
        await server.start()
        return server, port

    server, port = loop_thread.run(build())
    with grpc.insecure_channel(f"127.0.0.1:{port}", options=OPTIONS) as ch:
        yield ch
    loop_thread.run(server.stop(None))


def _rpc_codes(logs: list[dict[str, object]], method: str) -> list[object]:
    """The codes of the rpc lines, once there is one (written after the status is sent)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        codes = [
            entry["code"] for entry in list(logs)
            if entry["event"] == "rpc" and entry["method"] == f"/test.Probe/{method}"
        ]
        if codes:
            return codes
        time.sleep(0.01)
    return []


def _call(channel: grpc.Channel, method: str) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as raised:
        channel.unary_unary(f"/test.Probe/{method}")(b"", metadata=(("x-request-id", "probe-1"),))
    return raised.value


@pytest.mark.parametrize(
    ("method", "field", "reason"),
    [
        ("Invalid", "hand.tiles[2].number", "ERROR_REASON_INVALID_TILES"),
        ("BadNotation", "hand_notation", "ERROR_REASON_INVALID_TILES"),
    ],
)
def test_invalid_input_error_becomes_invalid_argument_with_field_violation(
    probe: grpc.Channel, method: str, field: str, reason: str
) -> None:
    error = _call(probe, method)
    violation = decode_error(error)
    assert violation.code is grpc.StatusCode.INVALID_ARGUMENT
    assert violation.fields == (field,)
    assert violation.reason == reason
    assert ("x-request-id", "probe-1") in [(m.key, m.value) for m in error.trailing_metadata()]


def test_genuine_bug_is_internal_after_being_logged(probe: grpc.Channel) -> None:
    with captured_info_logs() as logs:
        error = _call(probe, "Bug")
        codes = _rpc_codes(logs, "Bug")
    assert error.code() is grpc.StatusCode.INTERNAL
    assert "missing" not in error.details()  # no internals leak to the caller
    logged = [entry for entry in logs if entry["log_level"] == "error"]
    assert any(isinstance(entry.get("exc_info"), KeyError) for entry in logged)
    assert any(
        entry.get("request_id") == "probe-1" and entry.get("method") == "/test.Probe/Bug"
        for entry in logged
    )
    assert codes == ["INTERNAL"]


def test_unwritten_handler_is_unimplemented_not_internal(probe: grpc.Channel) -> None:
    assert _call(probe, "Todo").code() is grpc.StatusCode.UNIMPLEMENTED


def test_handler_s_own_abort_keeps_its_status_and_is_logged_with_it(probe: grpc.Channel) -> None:
    with captured_info_logs() as logs:
        error = _call(probe, "OwnAbort")
        codes = _rpc_codes(logs, "OwnAbort")
    assert error.code() is grpc.StatusCode.FAILED_PRECONDITION
    assert error.details() == "the handler's own status"
    assert codes == ["FAILED_PRECONDITION"]


def test_handler_reads_the_call_s_metadata(probe: grpc.Channel) -> None:
    answer = probe.unary_unary("/test.Probe/Echo")(b"", metadata=(("x-request-id", "aio-2"),))
    assert answer == b"aio-2"


def test_streaming_handler_sends_its_items_then_the_error(probe: grpc.Channel) -> None:
    responses = probe.unary_stream("/test.Probe/Stream")(b"")
    assert [next(responses), next(responses)] == [b"first", b"second"]
    with pytest.raises(grpc.RpcError) as raised:
        next(responses)
    assert decode_error(raised.value).fields == ("seed",)


def test_every_error_info_reason_is_an_error_reason_enum_name() -> None:
    """okey.v1.ErrorReason: clients switch on the reason, so each one is in the enum."""
    from okey.v1 import errors_pb2
    from okey_server.rpc import errors

    names = set(errors_pb2.ErrorReason.keys()) - {"ERROR_REASON_UNSPECIFIED"}
    assert {*errors.REASONS.values(), errors.DEFAULT_REASON} <= names
    assert errors.reason_for("hand.tiles[3].number") == "ERROR_REASON_INVALID_TILES"
    assert errors.reason_for("hand_notation") == "ERROR_REASON_INVALID_TILES"


def test_a_sync_servicer_is_refused_when_registered_not_run_blocking() -> None:
    """Servicers are `async def`: a plain function would block the event loop."""

    def blocking(_request: bytes, _context: object) -> bytes:
        return b""

    with pytest.raises(TypeError, match="async def"):
        wrap_handler("/test.Probe/Blocking", grpc.unary_unary_rpc_method_handler(blocking))
