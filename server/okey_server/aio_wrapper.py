"""The per-RPC wrapper on the asyncio server: rpc_wrapper's handling, driven from the event loop.

Servicers are plain functions written against the sync ServicerContext API
(`context.abort(...)` raises). On the asyncio server each one runs on the
event-loop thread itself (or, with more than one worker, in a thread pool)
with a `LoopContext` standing in for the sync context, behind the same
wrapper as on the sync server: request id, one log line, errors to statuses.
grpc's own asyncio servicers (server reflection) are coroutines and are
wrapped as such.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import inspect
from collections.abc import AsyncIterator, Awaitable, Callable, Generator
from concurrent.futures import Executor
from typing import Any, NamedTuple, NoReturn

import grpc
from okey_rules.errors import InvalidInputError

from okey_server import errors
from okey_server.rpc_wrapper import (
    Behavior,
    CallLog,
    Undecodable,
    checked,
    tolerant,
    wrap_stream_response,
    wrap_unary_response,
)

# How a client's leaving reaches a handler: its task is cancelled (at an await),
# or grpc stops reading a response stream and closes it (at a yield).
_ENDED = (asyncio.CancelledError, GeneratorExit)


class _Status(NamedTuple):
    code: grpc.StatusCode
    details: str
    trailing_metadata: Any


class LoopContext:
    """The sync ServicerContext API over an asyncio one, for handlers written against it.

    `abort` and `abort_with_status` raise at once, as on the sync server; the
    wrapper then ends the RPC with the recorded status (`send_abort`). The
    wrapper sets `gone` when the RPC's task is cancelled: a client that left
    shows no other way (grpc.aio's `cancelled()` only reports a status).
    """

    __slots__ = ("_context", "gone", "status")

    def __init__(self, context: grpc.aio.ServicerContext) -> None:
        self._context = context
        self.status: _Status | None = None
        self.gone = False

    def invocation_metadata(self) -> Any:
        return self._context.invocation_metadata()

    def peer(self) -> str:
        return str(self._context.peer())

    def set_trailing_metadata(self, metadata: Any) -> None:
        self._context.set_trailing_metadata(metadata)

    def set_code(self, code: grpc.StatusCode) -> None:
        self._context.set_code(code)

    def set_details(self, details: str) -> None:
        self._context.set_details(details)

    def code(self) -> grpc.StatusCode | None:
        return self.status.code if self.status is not None else self._context.code()

    def details(self) -> str | None:
        return self.status.details if self.status is not None else self._context.details()

    def time_remaining(self) -> float | None:
        remaining: float | None = self._context.time_remaining()
        return remaining

    def is_active(self) -> bool:
        return not (self.gone or self._context.cancelled() or self._context.done())

    def add_callback(self, callback: Callable[[], None]) -> bool:
        self._context.add_done_callback(lambda _context: callback())
        return True

    def abort(self, code: grpc.StatusCode, details: str = "") -> NoReturn:
        self.status = _Status(code, details, ())
        raise Exception()  # as the sync server's abort does: rpc_wrapper keeps the status

    def abort_with_status(self, status: grpc.Status) -> NoReturn:
        self.status = _Status(status.code, status.details, status.trailing_metadata)
        raise Exception()

    async def send_abort(self) -> NoReturn:
        """Ends the RPC with the status a handler aborted with."""
        assert self.status is not None
        code, details, trailing_metadata = self.status
        await self._context.abort(code, details, trailing_metadata)
        raise AssertionError("unreachable: context.abort raises")  # pragma: no cover


async def _end_failed(call: CallLog, context: LoopContext, exc: Exception) -> NoReturn:
    """What rpc_wrapper's `fail` makes of `exc`, sent as this RPC's status."""
    try:
        call.fail(context, exc)
    except Exception:
        if context.status is None:
            raise
    await context.send_abort()


def _sync_unary(method: str, behavior: Behavior, pool: Executor | None) -> Behavior:
    handle_sync = wrap_unary_response(method, behavior, streamed=False)

    async def handle(request: Any, context: grpc.aio.ServicerContext) -> Any:
        loop_context = LoopContext(context)
        try:
            if pool is None:
                return handle_sync(request, loop_context)
            run = contextvars.copy_context().run
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(pool, run, handle_sync, request, loop_context)
        except asyncio.CancelledError:
            loop_context.gone = True
            raise
        except Exception:
            if loop_context.status is None:
                raise
            await loop_context.send_abort()

    return handle


def _sync_stream(method: str, behavior: Behavior) -> Behavior:
    handle_sync = wrap_stream_response(method, behavior, streamed=False)

    async def handle(request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
        loop_context = LoopContext(context)
        responses: Generator[Any, None, None] = handle_sync(request, loop_context)
        try:
            for response in responses:
                yield response
        except _ENDED:
            loop_context.gone = True  # the client left mid-stream: logged as CANCELLED
            raise
        except Exception:
            if loop_context.status is None:
                raise
            await loop_context.send_abort()
        finally:
            responses.close()

    return handle


def _non_blocking(behavior: Behavior) -> Behavior:
    """Health Watch: the sync servicer pushes updates through a callback, from any thread."""

    async def handle(request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
        if isinstance(request, Undecodable):
            bad = InvalidInputError("request", request.error)
            await context.abort_with_status(errors.invalid_input_status(bad))
        loop = asyncio.get_running_loop()
        updates: asyncio.Queue[Any] = asyncio.Queue()

        def send(response: Any) -> None:  # None ends the stream
            with contextlib.suppress(RuntimeError):  # the loop is closed: the server is gone
                loop.call_soon_threadsafe(updates.put_nowait, response)

        behavior(request, LoopContext(context), send)
        while (response := await updates.get()) is not None:
            yield response

    return handle


async def _checked_async(requests: AsyncIterator[Any]) -> AsyncIterator[Any]:
    async for request in requests:
        yield checked(request, streamed=False)


def _async_unary(method: str, behavior: Callable[..., Awaitable[Any]], streamed: bool) -> Behavior:
    async def handle(request: Any, context: grpc.aio.ServicerContext) -> Any:
        loop_context = LoopContext(context)
        call = CallLog(method, loop_context)
        try:
            argument = _checked_async(request) if streamed else checked(request, streamed=False)
            return await behavior(argument, context)
        except _ENDED:
            loop_context.gone = True  # the client left: logged as CANCELLED
            raise
        except grpc.aio.AbortError:
            raise  # the handler's own abort: its status stands
        except Exception as exc:
            await _end_failed(call, loop_context, exc)
        finally:
            call.finish(loop_context)

    return handle


def _async_stream(method: str, behavior: Callable[..., AsyncIterator[Any]], streamed: bool
                  ) -> Behavior:
    async def handle(request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
        loop_context = LoopContext(context)
        call = CallLog(method, loop_context)
        try:
            argument = _checked_async(request) if streamed else checked(request, streamed=False)
            async for response in behavior(argument, context):
                yield response
        except _ENDED:
            loop_context.gone = True  # the client left: logged as CANCELLED
            raise
        except grpc.aio.AbortError:
            raise
        except Exception as exc:
            await _end_failed(call, loop_context, exc)
        finally:
            call.finish(loop_context)

    return handle


def _is_async(behavior: Behavior) -> bool:
    return inspect.iscoroutinefunction(behavior) or inspect.isasyncgenfunction(behavior)


def wrap_handler(
    method: str, handler: grpc.RpcMethodHandler, pool: Executor | None
) -> grpc.RpcMethodHandler:
    """`handler` as coroutines for the asyncio server, each behind the per-RPC wrapper.

    Sync handlers that read a request stream would block the event loop, so
    they are refused here: write those as coroutines.
    """
    deserializer = tolerant(handler.request_deserializer)
    serializer = handler.response_serializer
    if handler.unary_unary is not None:
        behavior = handler.unary_unary
        wrapped = (
            _async_unary(method, behavior, streamed=False)
            if _is_async(behavior)
            else _sync_unary(method, behavior, pool)
        )
        return grpc.unary_unary_rpc_method_handler(wrapped, deserializer, serializer)
    if handler.unary_stream is not None:
        behavior = handler.unary_stream
        if getattr(behavior, "experimental_non_blocking", False):
            wrapped = _non_blocking(behavior)
        elif _is_async(behavior):
            wrapped = _async_stream(method, behavior, streamed=False)
        else:
            wrapped = _sync_stream(method, behavior)
        return grpc.unary_stream_rpc_method_handler(wrapped, deserializer, serializer)
    behavior = handler.stream_unary or handler.stream_stream
    if not _is_async(behavior):
        raise TypeError(f"{method}: a request-streaming handler must be a coroutine here")
    if handler.stream_unary is not None:
        wrapped = _async_unary(method, behavior, streamed=True)
        return grpc.stream_unary_rpc_method_handler(wrapped, deserializer, serializer)
    wrapped = _async_stream(method, behavior, streamed=True)
    return grpc.stream_stream_rpc_method_handler(wrapped, deserializer, serializer)


class AioRpcWrapperInterceptor(grpc.aio.ServerInterceptor):  # type: ignore[misc]
    """Serves each method through its wrapped handler, built on first use.

    `pool` runs the sync handlers; None runs them on the event-loop thread.
    """

    def __init__(self, pool: Executor | None = None) -> None:
        self._pool = pool
        self._wrapped: dict[str, grpc.RpcMethodHandler] = {}

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
            wrapped = self._wrapped[method] = wrap_handler(method, handler, self._pool)
        return wrapped
