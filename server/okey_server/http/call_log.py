"""One HTTP call's bookkeeping: its request id, the one JSON log line, its metrics.

The line has the gRPC port's fields (okey_server.rpc.rpc_wrapper.CallLog:
``request_id``, ``method``, ``code``, ``duration_ms``, ``peer``, ``invalid_field``)
plus ``transport``, the protocol the call came in (`transport_of`). The code is
the gRPC status code's name whatever the protocol wrote (Connect's
``invalid_argument`` is logged ``INVALID_ARGUMENT``), so one query reads both
ports' lines.

Metrics: an HTTP call is counted in the same per-method families as a gRPC call
(``grpc_server_handled_total``, ``grpc_server_handling_seconds``: a method's rate
and errors are the service's, whatever carried them), and once more in
``okey_http_calls_total{transport}``, which tells how much of it came over HTTP.
"""

from __future__ import annotations

import contextvars
import time
from typing import TYPE_CHECKING, Any

import grpc
import structlog
from okey_rules.errors import InvalidInputError
from prometheus_client import Counter

from okey_server.rpc import errors

if TYPE_CHECKING:
    from okey_server.rpc.metrics import MethodMetrics, RpcMetrics

HTTP_CALLS = "okey_http_calls"  # exposed as okey_http_calls_total
# Codes that mean the server, not the caller, is at fault (as on the gRPC port).
_SERVER_FAULTS = frozenset(
    {grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN, grpc.StatusCode.DATA_LOSS}
)
# The code of a call connectrpc refused with a bare HTTP status, before any
# Connect or gRPC-Web framing (no such method, a content type it cannot read, a
# method other than POST).
_CODE_BY_HTTP_STATUS = {
    # A Connect refusal of the request's headers (a timeout or protocol version it cannot
    # read, a body that does not decompress) comes before any interceptor; of the codes
    # Connect sends with 400 this server's is INVALID_ARGUMENT.
    400: grpc.StatusCode.INVALID_ARGUMENT,
    404: grpc.StatusCode.UNIMPLEMENTED,
    405: grpc.StatusCode.UNIMPLEMENTED,
    415: grpc.StatusCode.INVALID_ARGUMENT,
    # An encoding the server lacks, by Connect's protocol.
    501: grpc.StatusCode.UNIMPLEMENTED,
}

_log = structlog.get_logger("okey_server.http")
_current: contextvars.ContextVar[HttpCall | None] = contextvars.ContextVar(
    "okey_http_call", default=None
)


def transport_of(content_type: str, http_method: str) -> str:
    """The protocol of a call by its content type: ``connect_json``, ``connect_proto``,
    ``grpc_web`` (binary or JSON framing), ``grpc`` (HTTP/2 with trailers), ``connect_get``."""
    kind = content_type.partition(";")[0].strip().lower()
    if kind.startswith("application/grpc-web"):
        return "grpc_web"
    if kind.startswith("application/grpc"):
        return "grpc"
    if http_method == "GET":
        return "connect_get"
    if kind.endswith("json"):
        return "connect_json"
    if kind.endswith("proto"):
        return "connect_proto"
    return "other"


def peer_of(client: tuple[str, int] | None) -> str:
    """The client's address as gRPC names a peer (``ipv4:127.0.0.1:5555``)."""
    if not client:
        return "unknown"
    host, port = client[0], client[1]
    return f"ipv6:[{host}]:{port}" if ":" in host else f"ipv4:{host}:{port}"


class HttpMetrics:
    """The RPC families (shared with the gRPC port) and the HTTP calls by transport."""

    def __init__(self, metrics: RpcMetrics) -> None:
        self.rpc = metrics
        self.calls = Counter(
            HTTP_CALLS,
            "Calls the HTTP listener answered, by transport (connect_json, connect_proto, "
            "grpc_web, ...); each is also in grpc_server_handled_total.",
            ("transport",),
            registry=metrics.registry,
        )

    def recorder(self, method: str) -> MethodMetrics:
        from okey_server.rpc.metrics import rpc_type_of

        return self.rpc.for_method(method, rpc_type_of(True, True))


class HttpCall:
    """A call in progress; `current()` finds it from anywhere in the call's task."""

    __slots__ = ("code", "invalid_field", "known", "method", "peer", "recorder", "request_id",
                 "started", "token", "transport")

    def __init__(self, method: str, request_id: str, peer: str, transport: str, *,
                 known: bool, recorder: MethodMetrics | None) -> None:
        self.started = time.perf_counter()
        self.method = method
        self.known = known
        self.request_id = request_id
        self.peer = peer
        self.transport = transport
        self.recorder = recorder
        self.code: grpc.StatusCode | None = None
        self.invalid_field: str | None = None
        self.token = _current.set(self)
        structlog.contextvars.bind_contextvars(request_id=request_id, method=method)

    def finish(self, http_status: int | None, metrics: HttpMetrics | None) -> None:
        """Writes the line and records the metrics; the code, if no status was set, is
        the bare HTTP status's (`_CODE_BY_HTTP_STATUS`)."""
        _current.reset(self.token)
        structlog.contextvars.unbind_contextvars("request_id", "method")
        code = self.code
        if code is None:
            code = _CODE_BY_HTTP_STATUS.get(http_status or 0, grpc.StatusCode.UNKNOWN)
        elapsed = time.perf_counter() - self.started
        if metrics is not None:
            metrics.calls.labels(self.transport).inc()
            if self.recorder is not None:
                self.recorder.observe(code, elapsed)
        fields: dict[str, Any] = {
            "request_id": self.request_id,
            "method": self.method,
            "code": code.name,
            "duration_ms": round(elapsed * 1000, 3),
            "peer": self.peer,
            "transport": self.transport,
        }
        if self.invalid_field is not None:
            fields["invalid_field"] = self.invalid_field  # the field name only, never its value
        if code in _SERVER_FAULTS:
            _log.error("rpc", **fields)
        elif not self.known:
            _log.debug("rpc", **fields)  # no such method: a scan must not flood the log
        else:
            _log.info("rpc", **fields)


def current() -> HttpCall | None:
    return _current.get()


def record_failure(exc: Exception) -> None:
    """Logs a handler's failure as the gRPC port does: bad input at debug (it may quote
    tiles), anything else with its traceback."""
    if isinstance(exc, InvalidInputError):
        field = errors.bounded_field(exc.field)
        call = current()
        if call is not None:
            call.invalid_field = field
        _log.debug("invalid input", field=field,
                   description=errors.bounded_description(exc.description))
    elif not isinstance(exc, NotImplementedError):
        _log.error("unhandled exception in handler", exc_info=exc)
