"""The HTTP listener's ASGI application: the five okey.v1 services and the health check,
each a generated Connect application (okey/v1/*_connect.py) over the gRPC port's own
servicer objects, behind what the gRPC port's per-RPC wrapper does for its calls.

Per call, in this order: CORS (a preflight is answered here), the request id
(``x-request-id``, echoed), the call log line and the metrics (`call_log`), the drain
(`Activity`, shared with the gRPC port: a draining server answers ``unavailable``,
HTTP 503, and the drain waits for HTTP calls in flight too) and the concurrency limit
(``--max-concurrent-rpcs`` calls at once on this listener, then
``resource_exhausted``). Connect and gRPC-Web framing, codecs, the size limit
(``--max-receive-bytes``) and timeouts (``connect-timeout-ms``, ``grpc-timeout``) are
connectrpc's.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, cast

import grpc
from connectrpc.errors import ConnectError
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from connectrpc.request import RequestContext
from connectrpc.server import ConnectASGIApplication, Endpoint
from google.protobuf.descriptor import ServiceDescriptor
from grpc_health.v1 import health_pb2
from okey.v1 import (
    analysis_connect,
    analysis_pb2,
    deal_connect,
    deal_pb2,
    game_connect,
    game_pb2,
    hand_connect,
    hand_pb2,
    scoring_connect,
    scoring_pb2,
)
from okey_rules.errors import InvalidInputError

from okey_server.http import call_log
from okey_server.http.adapter import ServicerService, unary
from okey_server.http.codecs import CODECS
from okey_server.http.cors import Cors
from okey_server.http.errors import connect_error, grpc_code, resource_exhausted, unavailable
from okey_server.rpc.config import Config
from okey_server.rpc.rpc_wrapper import (
    DRAINING,
    HEALTH_PREFIX,
    REQUEST_ID_KEY,
    Activity,
    Refusals,
    request_id_from,
)
from okey_server.web_table import WebTable

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]
HEALTH_SERVICE = HEALTH_PREFIX.strip("/").rpartition("/")[0] or HEALTH_PREFIX.strip("/")
OVERLOADED = "too many calls at once on this server: retry, or on another instance"


class HealthApplication(ConnectASGIApplication[ServicerService]):
    """``grpc.health.v1.Health/Check`` over HTTP (SERVING, or NOT_SERVING once draining),
    for load balancers and probes that speak HTTP; the gRPC servicer answers it."""

    def __init__(self, servicer: object, **options: Any) -> None:
        method = MethodInfo(
            name="Check", service_name="grpc.health.v1.Health",
            input=health_pb2.HealthCheckRequest, output=health_pb2.HealthCheckResponse,
            idempotency_level=IdempotencyLevel.UNKNOWN, stream_type=StreamType.UNARY,
        )
        check = unary(servicer.Check, health_pb2.HealthCheckResponse)  # type: ignore[attr-defined]
        super().__init__(
            service=cast(ServicerService, servicer),
            endpoints=lambda _service: {
                "/grpc.health.v1.Health/Check": Endpoint.unary(method=method, function=check)
            },
            **options,
        )

    @property
    def path(self) -> str:
        return "/grpc.health.v1.Health"


def service_applications(
    servicers: Mapping[str, object], options: Mapping[str, Any]
) -> list[ConnectASGIApplication[Any]]:
    """The generated Connect application of each okey.v1 service, over its servicer
    (`servicers` by the service's short name: ``HandService`` ...)."""
    made: list[ConnectASGIApplication[Any]] = []
    for name, application, module in (
        ("HandService", hand_connect.HandServiceASGIApplication, hand_pb2),
        ("DealService", deal_connect.DealServiceASGIApplication, deal_pb2),
        ("GameService", game_connect.GameServiceASGIApplication, game_pb2),
        ("ScoringService", scoring_connect.ScoringServiceASGIApplication, scoring_pb2),
        ("AnalysisService", analysis_connect.AnalysisServiceASGIApplication, analysis_pb2),
    ):
        descriptor: ServiceDescriptor = module.DESCRIPTOR.services_by_name[name]
        service = ServicerService(servicers[name], descriptor)
        made.append(application(cast(Any, service), **options))
    return made


class HttpApp:
    """The ASGI application hypercorn serves (see the module's doc)."""

    def __init__(
        self,
        config: Config,
        servicers: Mapping[str, object],
        health_servicer: object,
        activity: Activity,
        metrics: call_log.HttpMetrics | None = None,
    ) -> None:
        self.activity = activity
        self.metrics = metrics
        self.running = 0
        self._limit = config.max_concurrent_rpcs
        self._max_body = config.max_receive_bytes
        self._cors = Cors(config.http_cors_origins)
        self._refusals = Refusals(None)
        options: dict[str, Any] = {
            "interceptors": (self,),
            "read_max_bytes": config.max_receive_bytes,
            "codecs": CODECS,
        }
        applications = [*service_applications(servicers, options),
                        HealthApplication(health_servicer, **options)]
        self._applications = {application.path: application for application in applications}
        self._methods = frozenset(_method_paths(servicers))
        self._web_table = WebTable()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":
            return  # websockets: hypercorn closes the connection
        headers = _headers(scope)
        origin = headers.get("origin")
        if scope["method"] == "OPTIONS":
            await self._preflight(origin, send)
            return
        path: str = scope["path"]
        application = self._applications.get(path.rpartition("/")[0])
        if application is None and self._web_table.owns(scope["method"], path):
            await self._web_table.serve(scope["method"], path, send)
            return
        request_id = request_id_from(headers.get(REQUEST_ID_KEY))
        added = [(REQUEST_ID_KEY.encode(), request_id.encode()),
                 *self._cors.response_headers(origin)]
        status: list[int] = []

        body = RequestBody(receive, self._max_body)

        async def send_marked(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                status.append(message["status"])
                headers = message.get("headers", ())
                # A gRPC-Web refusal of the request's framing or headers comes before any
                # interceptor: its code is only in this trailers-only answer's headers.
                if call.code is None:
                    call.code = _grpc_status_of(headers)
                closing = [] if await body.read_to_end() else [CONNECTION_CLOSE]
                message = {**message, "headers": [*headers, *added, *closing]}
            await send(message)

        known = path in self._methods
        recorder = self.metrics.recorder(path) if self.metrics and known else None
        call = call_log.HttpCall(
            path, request_id, call_log.peer_of(scope.get("client")),
            call_log.transport_of(headers.get("content-type", ""), scope["method"]),
            known=known, recorder=recorder,
        )
        activity = self.activity
        activity.arrived = time.perf_counter()
        activity.in_flight += 1
        self.running += 1
        try:
            if application is None:
                await _plain(send_marked, 404, b"no such method on this server\n")
            elif _grpc_without_http2(headers, scope):
                # connectrpc would answer UNKNOWN after the fact (gRPC's status travels in
                # HTTP/2 trailers, which HTTP/1.1 lacks): refuse the content type instead.
                await _plain(send_marked, 415, b"gRPC needs HTTP/2: use the gRPC port, or "
                             b"gRPC-Web or Connect over HTTP/1.1\n")
            else:
                await application(cast(Any, scope),
                                  cast(Any, _checked_frames(body.receive, headers)),
                                  cast(Any, send_marked))
        finally:
            self.running -= 1
            activity.in_flight -= 1
            activity.changed = time.perf_counter()
            call.finish(status[0] if status else None, self.metrics)

    # connectrpc's metadata interceptor: runs before the request body is read.
    async def on_start(self, ctx: RequestContext[Any, Any]) -> None:
        call = call_log.current()
        if self.activity.refusing and ctx.method.service_name != HEALTH_SERVICE:
            if call is not None:
                call.code = grpc.StatusCode.UNAVAILABLE
            self._refusals.counted()
            raise unavailable(DRAINING)
        if self.running > self._limit:
            if call is not None:
                call.code = grpc.StatusCode.RESOURCE_EXHAUSTED
            raise resource_exhausted(OVERLOADED)

    async def on_end(self, _token: None, _ctx: RequestContext[Any, Any],
                     error: Exception | None) -> None:
        call = call_log.current()
        if call is None:
            return
        if error is None:
            call.code = grpc.StatusCode.OK
        elif isinstance(error, ConnectError):
            call.code = grpc_code(error.code)
            field = getattr(error, "field", None)
            if field is not None and call.invalid_field is None:
                call.invalid_field = field
        else:
            call.code = grpc.StatusCode.UNKNOWN

    async def _preflight(self, origin: str | None, send: Send) -> None:
        if origin is None or not self._cors.allows(origin):
            await _plain(send, 403, b"origin not allowed (--http-cors-origin)\n")
            return
        await send({"type": "http.response.start", "status": 204,
                    "headers": self._cors.preflight_headers(origin)})
        await send({"type": "http.response.body", "body": b"", "more_body": False})


def _method_paths(servicers: Iterable[str]) -> Iterable[str]:
    by_name = {"HandService": hand_pb2, "DealService": deal_pb2, "GameService": game_pb2,
               "ScoringService": scoring_pb2, "AnalysisService": analysis_pb2}
    for name in servicers:
        descriptor = by_name[name].DESCRIPTOR.services_by_name[name]
        for method in descriptor.methods:
            yield f"/{descriptor.full_name}/{method.name}"
    yield f"{HEALTH_PREFIX}Check"


def _checked_frames(receive: Receive, headers: Mapping[str, str]) -> Receive:
    """`receive`, refusing a gRPC-Web message flagged compressed when the request names no
    encoding: the client's error, which connectrpc would answer as INTERNAL.

    Unary calls carry one message, so its frame starts the body: the first byte read is
    its flags."""
    kind = headers.get("content-type", "").lower()
    encoding = headers.get("grpc-encoding", "identity").strip().lower()
    if not kind.startswith("application/grpc-web") or encoding != "identity":
        return receive
    first = True

    async def checked() -> dict[str, Any]:
        nonlocal first
        message = await receive()
        body = message.get("body", b"")
        if first and body:
            first = False
            if body[0] & 0x01:
                raise connect_error(InvalidInputError(
                    "request", "the message is flagged compressed but grpc-encoding names "
                               "no compression"))
        return message

    return checked


def _grpc_without_http2(headers: Mapping[str, str], scope: Scope) -> bool:
    """Whether the request is native gRPC (not gRPC-Web) over HTTP/1.x."""
    kind = headers.get("content-type", "").partition(";")[0].strip().lower()
    native = kind == "application/grpc" or kind.startswith("application/grpc+")
    return native and scope.get("http_version") != "2"


def _grpc_status_of(headers: Iterable[tuple[bytes, bytes]]) -> grpc.StatusCode | None:
    """The gRPC status code a trailers-only answer's headers carry, if any."""
    for key, value in headers:
        if key.lower() == b"grpc-status":
            number = int(value) if value.isdigit() else -1
            return next((code for code in grpc.StatusCode if code.value[0] == number),
                        grpc.StatusCode.UNKNOWN)
    return None


def _headers(scope: Scope) -> dict[str, str]:
    """The request's headers by lower-case name (the last of a repeated one)."""
    return {key.decode("latin-1").lower(): value.decode("latin-1")
            for key, value in scope.get("headers", ())}


# Said with an answer when the connection will not carry another request.
CONNECTION_CLOSE = (b"connection", b"close")


class RequestBody:
    """A call's request body as the application reads it, and what is left of it once
    the answer starts.

    An answer can start before the body has been read: every refusal before the request
    is decoded (404, 405, 415, overload, draining), whoever writes it. An HTTP/1.1
    connection whose request body was left unread cannot carry the next request, so the
    server would close it after the answer without saying so, and a client that reuses
    it (a browser's fetch among them) would see its next call fail. So the rest is read,
    up to the size limit, before the answer starts; past the limit, or when the client
    went away, the answer says `connection: close`.
    """

    __slots__ = ("_done", "_limit", "_read", "_receive")

    def __init__(self, receive: Receive, limit: int) -> None:
        self._receive = receive
        self._limit = limit
        self._read = 0
        self._done = False

    async def receive(self) -> dict[str, Any]:
        message = await self._receive()
        if message["type"] != "http.request":
            self._done = True  # the client went away: nothing more will come
        else:
            self._read += len(message.get("body", b""))
            self._done = not message.get("more_body", False)
        return message

    async def read_to_end(self) -> bool:
        """True when the whole body has been read and the connection can carry another."""
        while not self._done:
            if self._read > self._limit:
                return False
            message = await self.receive()
            if message["type"] != "http.request":
                return False
        return self._read <= self._limit


async def _plain(send: Send, status: int, body: bytes) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8")]})
    await send({"type": "http.response.body", "body": body, "more_body": False})


async def _lifespan(receive: Receive, send: Send) -> None:
    """Nothing to start or stop: the servicers exist before the listener does."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return

