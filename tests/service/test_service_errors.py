"""The per-RPC wrapper maps what a handler raises: input -> INVALID_ARGUMENT, bug -> INTERNAL."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent import futures

import grpc
import pytest
import structlog
from okey_rules.errors import InvalidInputError, NotationError
from okey_server.rpc_wrapper import RpcWrapperInterceptor
from service_helpers import decode_error

pytestmark = pytest.mark.service


def _invalid(_request: bytes, _context: grpc.ServicerContext) -> bytes:
    raise InvalidInputError("hand.tiles[2].number", "number must be 1-13, not 0")


def _bad_notation(_request: bytes, _context: grpc.ServicerContext) -> bytes:
    raise NotationError("hand_notation", "cannot read 'X3' as a tile")


def _bug(_request: bytes, _context: grpc.ServicerContext) -> bytes:
    return {}["missing"]  # type: ignore[no-any-return]  # a genuine bug: KeyError


def _todo(_request: bytes, _context: grpc.ServicerContext) -> bytes:
    raise NotImplementedError


def _own_abort(_request: bytes, context: grpc.ServicerContext) -> bytes:
    context.abort(grpc.StatusCode.FAILED_PRECONDITION, "the handler's own status")
    return b""


def _stream_then_invalid(_request: bytes, _context: grpc.ServicerContext) -> Iterator[bytes]:
    yield b"first"
    raise InvalidInputError("seed", "a seed is 32 bytes")


@pytest.fixture(scope="module")
def probe() -> Iterator[grpc.Channel]:
    """A server whose only service is test.Probe, behind the production wrapper."""
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=2),
        interceptors=(RpcWrapperInterceptor(),),
        options=(("grpc.so_reuseport", 0),),
    )
    handlers = {
        name: grpc.unary_unary_rpc_method_handler(behaviour)
        for name, behaviour in {
            "Invalid": _invalid,
            "BadNotation": _bad_notation,
            "Bug": _bug,
            "Todo": _todo,
            "OwnAbort": _own_abort,
        }.items()
    }
    handlers["Stream"] = grpc.unary_stream_rpc_method_handler(_stream_then_invalid)
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler("test.Probe", handlers),))
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    with grpc.insecure_channel(f"127.0.0.1:{port}", options=(("grpc.so_reuseport", 0),)) as ch:
        yield ch
    server.stop(None)


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
    with structlog.testing.capture_logs([structlog.contextvars.merge_contextvars]) as logs:
        error = _call(probe, "Bug")
    assert error.code() is grpc.StatusCode.INTERNAL
    assert "missing" not in error.details()  # no internals leak to the caller
    logged = [entry for entry in logs if entry["log_level"] == "error"]
    assert any(isinstance(entry.get("exc_info"), KeyError) for entry in logged)
    assert any(entry.get("request_id") == "probe-1" for entry in logged)


def test_unwritten_handler_is_unimplemented_not_internal(probe: grpc.Channel) -> None:
    assert _call(probe, "Todo").code() is grpc.StatusCode.UNIMPLEMENTED


def test_handler_s_own_abort_keeps_its_status(probe: grpc.Channel) -> None:
    error = _call(probe, "OwnAbort")
    assert error.code() is grpc.StatusCode.FAILED_PRECONDITION
    assert error.details() == "the handler's own status"


def test_streaming_handler_errors_map_too(probe: grpc.Channel) -> None:
    responses = probe.unary_stream("/test.Probe/Stream")(b"")
    assert next(responses) == b"first"
    with pytest.raises(grpc.RpcError) as raised:
        next(responses)
    assert decode_error(raised.value).fields == ("seed",)


def test_every_error_info_reason_is_an_error_reason_enum_name() -> None:
    """okey.v1.ErrorReason: clients switch on the reason, so each one is in the enum."""
    from okey.v1 import errors_pb2
    from okey_server import errors

    names = set(errors_pb2.ErrorReason.keys()) - {"ERROR_REASON_UNSPECIFIED"}
    assert {*errors.REASONS.values(), errors.DEFAULT_REASON} <= names
    assert errors.reason_for("hand.tiles[3].number") == "ERROR_REASON_INVALID_TILES"
    assert errors.reason_for("hand_notation") == "ERROR_REASON_INVALID_TILES"
