"""The per-RPC wrapper of the grpc.aio server: request id, one JSON log line, errors to statuses,
the request's time limit, refusals at the end of a drain.

`RpcWrapperInterceptor` swaps each method's handler for a wrapped one, built
once per method. The wrapping is around the handler's own coroutine, so the
request id bound for logging lives in the RPC's task and reaches everything
the handler logs. Every servicer is native asyncio (`async def`); a sync
behaviour is refused when the wrapper is built rather than run blocking.

A method whose request is one message is served as a request stream whose
first message the wrapper reads itself, within the receive time limit: gRPC
reads a unary request before any code of ours runs, with no limit of its own,
so a client that sent headers and nothing more held an RPC slot for as long as
its connection lived. At the end of a drain (`Activity.refusing`) a new call is
answered UNAVAILABLE before its request is read, so that gRPC core's queue
empties before the server stops (gRPC's stop cancels what is still queued,
which clients see as CANCELLED); health checks are still answered.

With metrics on (`okey_server.rpc.metrics`), each call is also counted by its
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

from okey_server.rpc import errors

if TYPE_CHECKING:  # imported only when metrics are on: see okey_server.rpc.metrics
    from okey_server.rpc.metrics import MethodMetrics, RpcMetrics

REQUEST_ID_KEY = "x-request-id"
# A client-chosen id is echoed and logged, so it must be short and inert.
_CLIENT_ID = re.compile(r"[A-Za-z0-9._:/+=-]{1,128}")
# Codes that mean the server, not the caller, is at fault.
_SERVER_FAULTS = frozenset(
    {grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN, grpc.StatusCode.DATA_LOSS}
)

# Health answers even while the server refuses calls: it says NOT_SERVING then.
HEALTH_PREFIX = "/grpc.health.v1.Health/"
DRAINING = "server shutting down: retry, on another instance"
# At most one `calls refused` line per this many seconds: a line per refused
# call would cost more than the refusal itself.
REFUSAL_LOG_INTERVAL_S = 1.0

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


def request_id_of(context: grpc.aio.ServicerContext[Any, Any]) -> str:
    """The caller's ``x-request-id`` when it is a sane token, else a fresh uuid4 hex."""
    for key, value in context.invocation_metadata() or ():
        if key == REQUEST_ID_KEY and isinstance(value, str) and _CLIENT_ID.fullmatch(value):
            return value
    return uuid.uuid4().hex


def request_id_from(value: str | None) -> str:
    """`value` (a caller's ``x-request-id``) when it is a sane token, else a fresh uuid4 hex."""
    if value is not None and _CLIENT_ID.fullmatch(value):
        return value
    return uuid.uuid4().hex


class Activity:
    """How many unary RPCs are being handled, and when that last changed (for the drain).

    Long-lived streams (health Watch, reflection) are not counted: a watcher
    would otherwise keep a draining server from ever looking idle. `arrived`
    is when the server last took a call of any kind from gRPC core, and while
    `refusing` is set new calls are answered UNAVAILABLE (the drain's last step).
    """

    __slots__ = ("arrived", "changed", "in_flight", "refusing")

    def __init__(self) -> None:
        self.in_flight = 0
        self.changed = time.perf_counter()
        self.arrived = self.changed
        self.refusing = False

    def idle_for(self, since: float) -> float:
        """Seconds since the last unary RPC ended or `since` (a perf_counter), 0 while one runs."""
        return 0.0 if self.in_flight else time.perf_counter() - max(self.changed, since)


class Refusals:
    """Handlers that answer a status at once, without reading the request: counted per
    method in the metrics, and summed into one log line a second rather than one per call.
    """

    __slots__ = ("_handlers", "_last_logged", "_metrics", "unlogged")

    def __init__(self, metrics: RpcMetrics | None) -> None:
        self._metrics = metrics
        self._handlers: dict[str, grpc.RpcMethodHandler[Any, Any]] = {}
        self._last_logged = 0.0
        self.unlogged = 0

    def handler(self, method: str, response_streaming: bool) -> grpc.RpcMethodHandler[Any, Any]:
        """A handler that answers UNAVAILABLE (the server is draining) without reading."""
        refusal = self._handlers.get(method)
        if refusal is None:
            refusal = self._handlers[method] = self._refusal(method, response_streaming)
        return refusal

    def _refusal(self, method: str, response_streaming: bool) -> grpc.RpcMethodHandler[Any, Any]:
        recorder = None
        if self._metrics is not None:
            from okey_server.rpc.metrics import rpc_type_of

            recorder = self._metrics.for_method(method, rpc_type_of(True, not response_streaming))

        # Request-streaming in shape, so grpc runs it before reading any request message.
        async def refuse(_requests: Any, context: grpc.aio.ServicerContext[Any, Any]) -> None:
            self.counted()
            if recorder is not None:
                recorder.observe(grpc.StatusCode.UNAVAILABLE, 0.0)
            await context.abort(grpc.StatusCode.UNAVAILABLE, DRAINING)

        return grpc.stream_unary_rpc_method_handler(refuse)

    def counted(self) -> None:
        self.unlogged += 1
        now = time.monotonic()
        if now - self._last_logged >= REFUSAL_LOG_INTERVAL_S:
            _log.info("calls refused", refused=self.unlogged, code="UNAVAILABLE",
                      detail=DRAINING)
            self._last_logged = now
            self.unlogged = 0


class RequestTimeoutError(Exception):
    """The request message did not arrive within the receive time limit."""


async def first_request(context: grpc.aio.ServicerContext[Any, Any], timeout_s: float) -> Any:
    """The one request message of a unary-request call, read within `timeout_s`."""
    try:
        async with asyncio.timeout(timeout_s):
            request = await context.read()
    except TimeoutError:
        raise RequestTimeoutError(
            f"the request message did not arrive within {timeout_s:g} s"
        ) from None
    if request is grpc.aio.EOF:
        # gRPC's own unary path never answers such a call: it just waits.
        raise InvalidInputError("request", "the call ended without a request message")
    return request


def drop_tracebacks(exc: BaseException) -> None:
    """Clears the traceback of `exc` and of the exceptions it was raised from.

    A traceback holds the frames the exception came through, and their locals
    the parsed request: a refused request stays in memory for as long as its
    exception keeps its traceback. Call only once the traceback was logged.
    """
    pending: list[BaseException] = [exc]
    seen: set[int] = set()
    while pending:
        current = pending.pop()
        if id(current) in seen:  # `raise ... from` can make a cycle
            continue
        seen.add(id(current))
        current.__traceback__ = None
        pending.extend(e for e in (current.__cause__, current.__context__) if e is not None)


class CallLog:
    """One RPC's bookkeeping: binds the request id, maps a failure, writes the one log line."""

    __slots__ = ("code", "invalid_field", "metadata", "method", "peer", "request_id", "started")

    def __init__(self, method: str, context: grpc.aio.ServicerContext[Any, Any]) -> None:
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

    async def fail(self, context: grpc.aio.ServicerContext[Any, Any], exc: Exception) -> NoReturn:
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
        # Sending the status can take a while (many refusals queued, a slow
        # client): the request must not be held until then (see drop_tracebacks).
        drop_tracebacks(exc)
        await context.abort(status.code, status.details, status.trailing_metadata)
        raise AssertionError("unreachable: context.abort raises")  # pragma: no cover

    async def end(
        self, context: grpc.aio.ServicerContext[Any, Any], code: grpc.StatusCode, details: str
    ) -> NoReturn:
        """Ends the RPC with `code` (a status of the wrapper's own, not of input); never returns."""
        self.code = code
        await context.abort(code, details, self.metadata)
        raise AssertionError("unreachable: context.abort raises")  # pragma: no cover

    def aborted(self, context: grpc.aio.ServicerContext[Any, Any]) -> None:
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
        self, method: str, context: grpc.aio.ServicerContext[Any, Any], recorder: MethodMetrics
    ) -> None:
        super().__init__(method, context)
        self.recorder = recorder

    def finish(self) -> None:
        self.recorder.observe(self.code, time.perf_counter() - self.started)
        super().finish()


NewCall = Callable[[str, "grpc.aio.ServicerContext[Any, Any]"], CallLog]


def _call_log(recorder: MethodMetrics | None) -> NewCall:
    """What starts a call's bookkeeping: a plain CallLog with metrics off."""
    if recorder is None:
        return CallLog

    def metered(method: str, context: grpc.aio.ServicerContext[Any, Any]) -> CallLog:
        return MeteredCallLog(method, context, recorder)

    return metered


def _unary_response(
    method: str, behavior: Behavior, streamed: bool, activity: Activity | None,
    new_call: NewCall = CallLog, *, receive_timeout_s: float | None = None,
) -> Behavior:
    async def handle(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
        call = new_call(method, context)
        argument: Any = None
        if activity is not None:
            activity.in_flight += 1
        try:
            if streamed:
                argument = checked_stream(request)
            elif receive_timeout_s is None:
                argument = checked(request)
            else:  # served as a request stream: see the module's doc
                argument = checked(await first_request(context, receive_timeout_s))
            return await behavior(argument, context)
        except asyncio.CancelledError:
            call.code = grpc.StatusCode.CANCELLED  # the client left, or the server stopped
            raise
        except grpc.aio.AbortError:
            call.aborted(context)
            raise
        except RequestTimeoutError as exc:
            await call.end(context, grpc.StatusCode.DEADLINE_EXCEEDED, str(exc))
        except Exception as exc:
            # Let go of the request before the refusal is sent (see CallLog.fail).
            request = argument = None
            await call.fail(context, exc)
        finally:
            call.finish()
            if activity is not None:
                activity.in_flight -= 1
                activity.changed = time.perf_counter()

    return handle


def _stream_response(
    method: str, behavior: Behavior, streamed: bool, new_call: NewCall = CallLog,
    *, receive_timeout_s: float | None = None,
) -> Behavior:
    async def handle(
        request: Any, context: grpc.aio.ServicerContext[Any, Any]
    ) -> AsyncIterator[Any]:
        call = new_call(method, context)
        argument: Any = None
        try:
            if streamed:
                argument = checked_stream(request)
            elif receive_timeout_s is None:
                argument = checked(request)
            else:
                argument = checked(await first_request(context, receive_timeout_s))
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
        except RequestTimeoutError as exc:
            await call.end(context, grpc.StatusCode.DEADLINE_EXCEEDED, str(exc))
        except Exception as exc:
            # Let go of the request before the refusal is sent (see CallLog.fail).
            request = argument = None
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


# A unary-request handler's shape once the wrapper reads the request itself.
_AS_REQUEST_STREAM = {
    False: grpc.stream_unary_rpc_method_handler,
    True: grpc.stream_stream_rpc_method_handler,
}


def wrap_handler(
    method: str,
    handler: grpc.RpcMethodHandler[Any, Any],
    activity: Activity | None = None,
    metrics: RpcMetrics | None = None,
    receive_timeout_s: float | None = None,
) -> grpc.RpcMethodHandler[Any, Any]:
    """The same handler behind the per-RPC wrapper, with a deserializer that never raises
    and a serializer that passes bytes through (`passing_bytes`). Unary RPCs
    are counted in `activity`; every call is recorded in `metrics` when given.

    With `receive_timeout_s`, a unary-request method is served as a request
    stream and its request must arrive within that many seconds, else the call
    ends DEADLINE_EXCEEDED (see the module's doc).

    A response stream is an async generator, or a coroutine that writes with
    ``context.write`` (the asyncio health Watch): the latter is wrapped as a
    coroutine too.
    """
    deserializer = tolerant(handler.request_deserializer)
    serializer = passing_bytes(handler.response_serializer)
    shapes: tuple[
        tuple[Behavior | None, bool, Callable[..., grpc.RpcMethodHandler[Any, Any]]], ...
    ] = (
        (handler.unary_unary, False, grpc.unary_unary_rpc_method_handler),
        (handler.unary_stream, False, grpc.unary_stream_rpc_method_handler),
        (handler.stream_unary, True, grpc.stream_unary_rpc_method_handler),
        (handler.stream_stream, True, grpc.stream_stream_rpc_method_handler),
    )
    for behavior, streamed, generated_shape in shapes:
        if behavior is None:
            continue
        recorder = None
        if metrics is not None:
            from okey_server.rpc.metrics import rpc_type_of

            recorder = metrics.for_method(
                method, rpc_type_of(not handler.request_streaming, not handler.response_streaming)
            )
        new_call = _call_log(recorder)
        make = generated_shape
        if not streamed and receive_timeout_s is not None:
            make = _AS_REQUEST_STREAM[bool(handler.response_streaming)]
        if inspect.isasyncgenfunction(behavior):
            wrapped = _stream_response(
                method, behavior, streamed, new_call, receive_timeout_s=receive_timeout_s
            )
        elif inspect.iscoroutinefunction(behavior):
            unary = handler.unary_unary is not None
            wrapped = _unary_response(
                method, behavior, streamed, activity if unary else None, new_call,
                receive_timeout_s=receive_timeout_s,
            )
        else:
            raise TypeError(f"{method}: servicers on this server must be `async def`")
        return make(wrapped, deserializer, serializer)
    raise TypeError(f"{method}: the handler has no behaviour")


class RpcWrapperInterceptor(grpc.aio.ServerInterceptor):
    """Serves each method through its wrapped handler, built on first use.

    While `activity.refusing`, a call to anything but the health service gets
    a refusal handler instead.
    """

    def __init__(
        self,
        activity: Activity | None = None,
        metrics: RpcMetrics | None = None,
        *,
        receive_timeout_s: float | None = None,
    ) -> None:
        self._wrapped: dict[str, grpc.RpcMethodHandler[Any, Any]] = {}
        self.activity = activity or Activity()
        self.metrics = metrics  # None: metrics off
        self.receive_timeout_s = receive_timeout_s
        self.refusals = Refusals(metrics)

    async def intercept_service(
        self,
        continuation: Callable[
            [grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler[Any, Any] | None]
        ],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler[Any, Any] | None:
        method = handler_call_details.method
        activity = self.activity
        activity.arrived = time.perf_counter()
        wrapped = self._wrapped.get(method)
        if wrapped is None:
            handler = await continuation(handler_call_details)
            if handler is None:
                return None  # unknown method: grpc answers UNIMPLEMENTED
            wrapped = self._wrapped[method] = wrap_handler(
                method, handler, self.activity, self.metrics, self.receive_timeout_s
            )
        if activity.refusing and not method.startswith(HEALTH_PREFIX):
            return self.refusals.handler(method, bool(wrapped.response_streaming))
        return wrapped
