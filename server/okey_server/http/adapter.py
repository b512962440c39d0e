"""The gRPC servicers as Connect services: one implementation of each RPC for both ports.

A generated Connect application (okey/v1/*_connect.py) calls ``service.check_hand(
request, ctx)``; `ServicerService` answers that name with the gRPC servicer's own
``CheckHand`` coroutine, given a `ServicerContext` for the grpc context it expects,
and translates only what crosses the boundary: a servicer's serialized answer
(`codecs.Serialized`), its exceptions (`errors.connect_error`), and `abort`.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any, NoReturn

import grpc
from connectrpc.errors import ConnectError
from connectrpc.request import RequestContext
from google.protobuf.descriptor import ServiceDescriptor
from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass

from okey_server.http import call_log
from okey_server.http.codecs import Serialized
from okey_server.http.errors import connect_code, connect_error

_WORD_START = re.compile(r"(?<!^)(?=[A-Z])")
Handler = Callable[[Any, RequestContext[Any, Any]], Awaitable[Any]]


def snake_case(rpc: str) -> str:
    """The name the Connect generator gives an RPC's method: ``CheckHand`` -> ``check_hand``."""
    return _WORD_START.sub("_", rpc).lower()


class AbortedError(Exception):
    """A servicer ended the call itself (`ServicerContext.abort`)."""

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(details)
        self.code = code
        self.details = details


class ServicerContext:
    """What the servicers may ask of grpc.aio's ServicerContext, for a call over HTTP.

    The okey.v1 servicers use none of it today; the health servicer aborts an unknown
    service with NOT_FOUND. A servicer that starts using more fails here loudly
    (AttributeError, logged as a bug) rather than quietly doing something else.
    """

    __slots__ = ("_ctx",)

    def __init__(self, ctx: RequestContext[Any, Any]) -> None:
        self._ctx = ctx

    def peer(self) -> str:
        call = call_log.current()
        return call.peer if call is not None else "unknown"

    def invocation_metadata(self) -> tuple[tuple[str, str], ...]:
        return tuple(self._ctx.request_headers.allitems())

    def time_remaining(self) -> float | None:
        remaining = self._ctx.timeout_ms
        return None if remaining is None else remaining / 1000

    async def abort(self, code: grpc.StatusCode, details: str = "",
                    _trailing_metadata: Any = ()) -> NoReturn:
        raise AbortedError(code, details)


def unary(behaviour: Callable[..., Awaitable[Any]], output: type[Message]) -> Handler:
    """A Connect unary handler calling a servicer's RPC coroutine."""

    async def handle(request: Any, ctx: RequestContext[Any, Any]) -> Any:
        try:
            answer = await behaviour(request, ServicerContext(ctx))
        except ConnectError:
            raise
        except AbortedError as exc:
            raise ConnectError(connect_code(exc.code), exc.details) from None
        except Exception as exc:
            call_log.record_failure(exc)
            raise connect_error(exc) from None
        if type(answer) is bytes:
            return Serialized(answer, output)
        return answer

    return handle


class ServicerService:
    """A gRPC servicer seen as the Connect service of `descriptor`: an attribute per RPC,
    named as the generator names it (`snake_case`)."""

    def __init__(self, servicer: object, descriptor: ServiceDescriptor) -> None:
        self._handlers: dict[str, Handler] = {}
        for method in descriptor.methods:
            behaviour = getattr(servicer, method.name)
            output = GetMessageClass(method.output_type)
            self._handlers[snake_case(method.name)] = unary(behaviour, output)

    def __getattr__(self, name: str) -> Handler:
        try:
            return self._handlers[name]
        except KeyError:
            raise AttributeError(name) from None
