"""The per-RPC wrapper of the grpc.aio server: request id, one JSON log line, errors to statuses.

`RpcWrapperInterceptor` swaps each method's handler for a wrapped one, built
once per method. The wrapping is around the handler's own coroutine, so the
request id bound for logging lives in the RPC's task and reaches everything
the handler logs. Every servicer is native asyncio (`async def`); a sync
behaviour is refused when the wrapper is built rather than run blocking.

With metrics on (`okey_server.metrics`), each call is also counted by its
status code and timed; the choice is made when a method's wrapper is built,
so with metrics off a call runs exactly the code it ran before metrics existed.
"""

from __future__ import annotations

import asyncio
import inspect
import re
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any, NoReturn

import grpc
import structlog
from okey_rules.errors import InvalidInputError

from okey_server import errors

if TYPE_CHECKING:  # imported only when metrics are on: see okey_server.metrics
    from okey_server.metrics import MethodMetrics, RpcMetrics

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
    """A deserializer that never raises: grpc.aio answers UNKNOWN for a bad body."""
    if deserializer is None:
        return None

    def deserialize(data: bytes) -> Any:
        try:
            return deserializer(data)
        except Exception as exc:  # DecodeError and friends: the caller sent bad bytes
            return Undecodable(undecodable(exc))

    return deserialize


def checked(request: Any) -> Any:
    """The request, unless it did not decode: then the caller is told so."""
    if isinstance(request, Undecodable):
        raise InvalidInputError("request", request.error)
    return request


async def checked_stream(requests: AsyncIterator[Any]) -> AsyncIterator[Any]:
    async for request in requests:
        yield checked(request)


def request_id_of(context: grpc.aio.ServicerContext) -> str:
    """The caller's ``x-request-id`` when it is a sane token, else a fresh uuid4 hex."""
    for key, value in context.invocation_metadata() or ():
        if key == REQUEST_ID_KEY and isinstance(value, str) and _CLIENT_ID.fullmatch(value):
            return value
    return uuid.uuid4().hex


class Activity:
    """How many unary RPCs are being handled, and when that last changed (for the drain).

    Long-lived streams (health Watch, reflection) are not counted: a watcher
    would otherwise keep a draining server from ever looking idle.
    """

    __slots__ = ("changed", "in_flight")

    def __init__(self) -> None:
        self.in_flight = 0
        self.changed = time.perf_counter()

    def idle_for(self, since: float) -> float:
        """Seconds since the last unary RPC ended or `since` (a perf_counter), 0 while one runs."""
        return 0.0 if self.in_flight else time.perf_counter() - max(self.changed, since)


class CallLog:
    """One RPC's bookkeeping: binds the request id, maps a failure, writes the one log line."""

    __slots__ = ("code", "invalid_field", "metadata", "method", "peer", "request_id", "started")

    def __init__(self, method: str, context: grpc.aio.ServicerContext) -> None:
        self.started = time.perf_counter()
        self.method = method
        self.request_id = request_id = request_id_of(context)
        self.peer = context.peer()
        self.metadata: errors.Metadata = ((REQUEST_ID_KEY, request_id),)
        self.invalid_field: str | None = None
        self.code = grpc.StatusCode.OK
        context.set_trailing_metadata(self.metadata)
        # Each RPC runs in its own task, whose context is a copy: what is bound
        # here is gone with the task, so it needs no reset.
        structlog.contextvars.bind_contextvars(request_id=request_id, method=method)

    async def fail(self, context: grpc.aio.ServicerContext, exc: Exception) -> NoReturn:
        """Ends the RPC with the status `exc` deserves (errors.status_for); never returns."""
        if isinstance(exc, InvalidInputError):
            self.invalid_field = errors.bounded_field(exc.field)
            # The description may quote tiles, so only at debug level.
            _log.debug("invalid input", field=self.invalid_field,
                       description=errors.bounded_description(exc.description))
        elif not isinstance(exc, NotImplementedError):
            _log.error("unhandled exception in handler", exc_info=exc)
        status = errors.status_for(exc, self.metadata)
        self.code = status.code
        await context.abort(status.code, status.details, status.trailing_metadata)
        raise AssertionError("unreachable: context.abort raises")  # pragma: no cover

    def aborted(self, context: grpc.aio.ServicerContext) -> None:
        """The handler ended the RPC itself (context.abort): its status stands."""
        code = context.code()
        self.code = code if isinstance(code, grpc.StatusCode) else grpc.StatusCode.UNKNOWN

    def finish(self) -> None:
        fields: dict[str, Any] = {
            "request_id": self.request_id,
            "method": self.method,
            "code": self.code.name,
            "duration_ms": round((time.perf_counter() - self.started) * 1000, 3),
            "peer": self.peer,
        }
        if self.invalid_field is not None:
            fields["invalid_field"] = self.invalid_field  # the field name only, never its value
        if self.code in _SERVER_FAULTS:
            _log.error("rpc", **fields)
        else:
            _log.info("rpc", **fields)


class MeteredCallLog(CallLog):
    """A CallLog that also records the call in its method's metrics when it finishes."""

    __slots__ = ("recorder",)

    def __init__(
        self, method: str, context: grpc.aio.ServicerContext, recorder: MethodMetrics
    ) -> None:
        super().__init__(method, context)
        self.recorder = recorder

    def finish(self) -> None:
        self.recorder.observe(self.code, time.perf_counter() - self.started)
        super().finish()


NewCall = Callable[[str, grpc.aio.ServicerContext], CallLog]


def _call_log(recorder: MethodMetrics | None) -> NewCall:
    """What starts a call's bookkeeping: a plain CallLog with metrics off."""
    if recorder is None:
        return CallLog

    def metered(method: str, context: grpc.aio.ServicerContext) -> CallLog:
        return MeteredCallLog(method, context, recorder)

    return metered


def _unary_response(
    method: str, behavior: Behavior, streamed: bool, activity: Activity | None,
    new_call: NewCall = CallLog,
) -> Behavior:
    async def handle(request: Any, context: grpc.aio.ServicerContext) -> Any:
        call = new_call(method, context)
        if activity is not None:
            activity.in_flight += 1
        try:
            argument = checked_stream(request) if streamed else checked(request)
            return await behavior(argument, context)
        except asyncio.CancelledError:
            call.code = grpc.StatusCode.CANCELLED  # the client left, or the server stopped
            raise
        except grpc.aio.AbortError:
            call.aborted(context)
            raise
        except Exception as exc:
            await call.fail(context, exc)
        finally:
            call.finish()
            if activity is not None:
                activity.in_flight -= 1
                activity.changed = time.perf_counter()

    return handle


def _stream_response(
    method: str, behavior: Behavior, streamed: bool, new_call: NewCall = CallLog
) -> Behavior:
    async def handle(request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
        call = new_call(method, context)
        try:
            argument = checked_stream(request) if streamed else checked(request)
            async for response in behavior(argument, context):
                yield response
        except (asyncio.CancelledError, GeneratorExit):
            # The client left: its task is cancelled at an await, or grpc stops
            # reading the stream and closes it at a yield.
            call.code = grpc.StatusCode.CANCELLED
            raise
        except grpc.aio.AbortError:
            call.aborted(context)
            raise
        except Exception as exc:
            await call.fail(context, exc)
        finally:
            call.finish()

    return handle


def passing_bytes(serializer: Callable[[Any], bytes] | None) -> Callable[[Any], bytes] | None:
    """A serializer that sends a response already serialized (bytes) as it is.

    CheckHand writes its answer as bytes (convert_hand) yet keeps the
    generated registration, whose serializer expects a message.
    """
    if serializer is None:
        return None

    def serialize(response: Any) -> bytes:
        return response if type(response) is bytes else serializer(response)

    return serialize


def wrap_handler(
    method: str,
    handler: grpc.RpcMethodHandler,
    activity: Activity | None = None,
    metrics: RpcMetrics | None = None,
) -> grpc.RpcMethodHandler:
    """The same handler behind the per-RPC wrapper, with a deserializer that never raises
    and a serializer that passes bytes through (`passing_bytes`). Unary RPCs
    are counted in `activity`; every call is recorded in `metrics` when given.

    A response stream is an async generator, or a coroutine that writes with
    ``context.write`` (the asyncio health Watch): the latter is wrapped as a
    coroutine too.
    """
    deserializer = tolerant(handler.request_deserializer)
    serializer = passing_bytes(handler.response_serializer)
    shapes: tuple[tuple[Behavior | None, bool, Callable[..., grpc.RpcMethodHandler]], ...] = (
        (handler.unary_unary, False, grpc.unary_unary_rpc_method_handler),
        (handler.unary_stream, False, grpc.unary_stream_rpc_method_handler),
        (handler.stream_unary, True, grpc.stream_unary_rpc_method_handler),
        (handler.stream_stream, True, grpc.stream_stream_rpc_method_handler),
    )
    for behavior, streamed, make in shapes:
        if behavior is None:
            continue
        recorder = None
        if metrics is not None:
            from okey_server.metrics import rpc_type_of

            recorder = metrics.for_method(
                method, rpc_type_of(not handler.request_streaming, not handler.response_streaming)
            )
        new_call = _call_log(recorder)
        if inspect.isasyncgenfunction(behavior):
            wrapped = _stream_response(method, behavior, streamed, new_call)
        elif inspect.iscoroutinefunction(behavior):
            unary = handler.unary_unary is not None
            wrapped = _unary_response(
                method, behavior, streamed, activity if unary else None, new_call
            )
        else:
            raise TypeError(f"{method}: servicers on this server must be `async def`")
        return make(wrapped, deserializer, serializer)
    raise TypeError(f"{method}: the handler has no behaviour")


class RpcWrapperInterceptor(grpc.aio.ServerInterceptor):  # type: ignore[misc]
    """Serves each method through its wrapped handler, built on first use."""

    def __init__(
        self, activity: Activity | None = None, metrics: RpcMetrics | None = None
    ) -> None:
        self._wrapped: dict[str, grpc.RpcMethodHandler] = {}
        self.activity = activity or Activity()
        self.metrics = metrics  # None: metrics off

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler | None]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler | None:
        method = handler_call_details.method
        wrapped = self._wrapped.get(method)
        if wrapped is None:
            handler = await continuation(handler_call_details)
            if handler is None:
                return None  # unknown method: grpc answers UNIMPLEMENTED
            wrapped = self._wrapped[method] = wrap_handler(
                method, handler, self.activity, self.metrics
            )
        return wrapped
