"""Wraps every RPC handler: request id, one JSON log line per RPC, errors to statuses.

The wrapping is done around each handler's behaviour function, not in the
interceptor's own frame: on the sync server the interceptor and the handler
need not share a context, so contextvars bound by an interceptor do not
reliably reach the handler (DESIGN.md). The interceptor only swaps in wrapped
handlers, built once per method. `RpcWrapperInterceptor` serves a sync
grpc.server; okey-server itself is grpc.aio, whose interceptor (aio_wrapper)
runs these same wrapped handlers on its event loop.
"""

from __future__ import annotations

import contextlib
import re
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any, NoReturn

import grpc
import structlog
from okey_rules.errors import InvalidInputError

from okey_server import errors

REQUEST_ID_KEY = "x-request-id"
# A client-chosen id is echoed and logged, so it must be short and inert.
_CLIENT_ID = re.compile(r"[A-Za-z0-9._:/+=-]{1,128}")
# Codes that mean the server, not the caller, is at fault.
_SERVER_FAULTS = frozenset(
    {grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN, grpc.StatusCode.DATA_LOSS}
)

_log = structlog.get_logger("okey_server.rpc")

Behavior = Callable[..., Any]


class Undecodable:
    """Stands in for a request whose bytes are not the expected message."""

    __slots__ = ("error",)

    def __init__(self, error: str) -> None:
        self.error = error


def undecodable(error: Exception) -> str:
    """What a caller is told about request bytes that do not parse."""
    return f"the request body does not decode: {error}"


def tolerant(deserializer: Callable[[bytes], Any] | None) -> Callable[[bytes], Any] | None:
    """A deserializer that never raises: grpc would answer INTERNAL for a bad body."""
    if deserializer is None:
        return None

    def deserialize(data: bytes) -> Any:
        try:
            return deserializer(data)
        except Exception as exc:  # DecodeError and friends: the caller sent bad bytes
            return Undecodable(undecodable(exc))

    return deserialize


def request_id_of(context: grpc.ServicerContext) -> str:
    """The caller's ``x-request-id`` when it is a sane token, else a fresh uuid4 hex."""
    for key, value in context.invocation_metadata() or ():
        if key == REQUEST_ID_KEY and isinstance(value, str) and _CLIENT_ID.fullmatch(value):
            return value
    return uuid.uuid4().hex


class CallLog:
    """Per-RPC bookkeeping: binds the request id, then writes the one log line."""

    __slots__ = ("invalid_field", "metadata", "method", "peer", "request_id", "started", "tokens")

    def __init__(self, method: str, context: grpc.ServicerContext) -> None:
        self.started = time.perf_counter()
        self.method = method
        self.request_id = request_id = request_id_of(context)
        # Read now: once the RPC is over, grpc.aio has released the call it asks.
        self.peer = context.peer()
        self.metadata: errors.Metadata = ((REQUEST_ID_KEY, request_id),)
        self.invalid_field: str | None = None
        context.set_trailing_metadata(self.metadata)
        self.tokens = structlog.contextvars.bind_contextvars(request_id=request_id, method=method)

    def fail(self, context: grpc.ServicerContext, exc: Exception) -> NoReturn:
        code = context.code()
        if type(exc) is Exception and code not in (None, grpc.StatusCode.OK):
            raise exc  # the handler's own context.abort(): keep its status
        if isinstance(exc, grpc.RpcError) and not context.is_active():
            # The request stream ended because the client cancelled (or its
            # deadline passed): not a fault here, and nobody is left to answer.
            # Re-raised as is, grpc knows it for its own and stays quiet;
            # `finish` logs the RPC as CANCELLED.
            _log.debug("client went away while the handler read its requests")
            raise exc
        if isinstance(exc, InvalidInputError):
            self.invalid_field = exc.field
            # The description may quote tiles, so only at debug level.
            _log.debug("invalid input", field=exc.field, description=exc.description)
        errors.abort_for_exception(context, exc, self.metadata)

    def finish(self, context: grpc.ServicerContext) -> None:
        code = context.code()
        if code is None:
            code = grpc.StatusCode.OK if context.is_active() else grpc.StatusCode.CANCELLED
        # The request id and method are given again: a stream that ends when
        # grpc.aio closes it is finished in another context than it began in.
        fields: dict[str, Any] = {
            "request_id": self.request_id,
            "method": self.method,
            "code": code.name,
            "duration_ms": round((time.perf_counter() - self.started) * 1000, 3),
            "peer": self.peer,
        }
        if self.invalid_field is not None:
            fields["invalid_field"] = self.invalid_field  # the field name only, never its value
        if code in _SERVER_FAULTS:
            _log.error("rpc", **fields)
        else:
            _log.info("rpc", **fields)
        with contextlib.suppress(ValueError):  # ValueError: bound in that other context
            structlog.contextvars.reset_contextvars(**self.tokens)


def checked(request: Any, streamed: bool) -> Any:
    """The request, or for a request stream an iterator that refuses undecodable items."""
    if streamed:
        return checked_stream(request)
    if isinstance(request, Undecodable):
        raise InvalidInputError("request", request.error)
    return request


def checked_stream(requests: Iterator[Any]) -> Iterator[Any]:
    for request in requests:
        yield checked(request, streamed=False)


def wrap_unary_response(method: str, behavior: Behavior, streamed: bool) -> Behavior:
    def handle(request: Any, context: grpc.ServicerContext) -> Any:
        call = CallLog(method, context)
        try:
            return behavior(checked(request, streamed), context)
        except Exception as exc:
            call.fail(context, exc)
        finally:
            call.finish(context)

    return handle


def wrap_stream_response(method: str, behavior: Behavior, streamed: bool) -> Behavior:
    def handle(request: Any, context: grpc.ServicerContext) -> Iterator[Any]:
        call = CallLog(method, context)
        try:
            yield from behavior(checked(request, streamed), context)
        except Exception as exc:
            call.fail(context, exc)
        finally:
            call.finish(context)

    return handle


def _wrap_non_blocking(behavior: Behavior) -> Behavior:
    """Health Watch: callback-driven and open for as long as the client watches.

    A logging wrapper would pin a worker thread per watcher, so this one only
    refuses an undecodable request and keeps the non-blocking marks.
    """

    def handle(request: Any, context: grpc.ServicerContext, send: Any = None) -> Any:
        if isinstance(request, Undecodable):
            errors.abort_for_exception(context, InvalidInputError("request", request.error))
        return behavior(request, context, send)

    handle.experimental_non_blocking = True  # type: ignore[attr-defined]
    handle.experimental_thread_pool = getattr(  # type: ignore[attr-defined]
        behavior, "experimental_thread_pool", None
    )
    return handle


def wrap_handler(method: str, handler: grpc.RpcMethodHandler) -> grpc.RpcMethodHandler:
    """The same handler with its behaviour wrapped (see the module docstring).

    Every deserializer is made tolerant: grpc would answer INTERNAL for bytes
    that do not decode, which is the caller's fault, not the server's.
    """
    deserializer = tolerant(handler.request_deserializer)
    serializer = handler.response_serializer
    if handler.unary_unary is not None:
        return grpc.unary_unary_rpc_method_handler(
            wrap_unary_response(method, handler.unary_unary, False), deserializer, serializer
        )
    if handler.unary_stream is not None:
        if getattr(handler.unary_stream, "experimental_non_blocking", False):
            behavior = _wrap_non_blocking(handler.unary_stream)
        else:
            behavior = wrap_stream_response(method, handler.unary_stream, False)
        return grpc.unary_stream_rpc_method_handler(behavior, deserializer, serializer)
    if handler.stream_unary is not None:
        return grpc.stream_unary_rpc_method_handler(
            wrap_unary_response(method, handler.stream_unary, True), deserializer, serializer
        )
    return grpc.stream_stream_rpc_method_handler(
        wrap_stream_response(method, handler.stream_stream, True), deserializer, serializer
    )


class RpcWrapperInterceptor(grpc.ServerInterceptor):  # type: ignore[misc]
    """Serves each method through its wrapped handler, built on first use."""

    def __init__(self) -> None:
        self._wrapped: dict[str, grpc.RpcMethodHandler] = {}

    def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], grpc.RpcMethodHandler | None],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler | None:
        method = handler_call_details.method
        wrapped = self._wrapped.get(method)
        if wrapped is None:
            handler = continuation(handler_call_details)
            if handler is None:
                return None  # unknown method: grpc answers UNIMPLEMENTED
            # A benign race: two threads may build equal wrappers; either one serves.
            wrapped = self._wrapped[method] = wrap_handler(method, handler)
        return wrapped
