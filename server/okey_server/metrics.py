"""Per-RPC Prometheus metrics: a counter by method and status code, a latency histogram.

Off unless `--metrics-port` is given: then `RpcMetrics` is handed to
`create_server`, the per-RPC wrapper records every call it wraps, and
`serve_metrics` answers ``GET /metrics`` from a thread of its own (the gRPC
event loop never waits on a scrape).

The names and labels are those of the common gRPC server metrics
(``grpc_server_handled_total``, ``grpc_server_handling_seconds``), so
dashboards and alerts written for other gRPC servers read these as they are.

With several server processes (`--processes N`) each child records into
prometheus-client's multiprocess files (``PROMETHEUS_MULTIPROC_DIR``, a
directory the parent makes and removes) and the parent serves the sum
(`multiprocess_registry`). prometheus-client picks its storage when it is
first imported, so this module is imported only once that choice is made:
the variable set (a child) or removed (a single process).
"""

from __future__ import annotations

import threading
from wsgiref.simple_server import WSGIServer

import grpc
from prometheus_client import CollectorRegistry, Counter, Histogram, start_http_server
from prometheus_client.multiprocess import MultiProcessCollector

# Seconds. The server's calls take from about 0.1 ms (a health Check) to tens of
# milliseconds (a long Replay, a ScoreGame of many rounds); a call near a second
# means a stalled loop. Three buckets a decade keep the scrape small.
LATENCY_BUCKETS = (
    0.0001, 0.00025, 0.0005,
    0.001, 0.0025, 0.005,
    0.01, 0.025, 0.05,
    0.1, 0.25, 0.5,
    1.0, 2.5,
)
HANDLED = "grpc_server_handled"  # exposed as grpc_server_handled_total
HANDLING_SECONDS = "grpc_server_handling_seconds"
RPC_TYPES = ("unary", "server_stream", "client_stream", "bidi_stream")


def split_method(method: str) -> tuple[str, str]:
    """``/okey.v1.HandService/CheckHand`` -> (``okey.v1.HandService``, ``CheckHand``)."""
    service, _, name = method.lstrip("/").rpartition("/")
    return service, name


class MethodMetrics:
    """One method's counter children (one per status code, made on first use) and its
    histogram child: the label lookups happen once, not per call."""

    __slots__ = ("_handled", "_handled_by_code", "_labels", "_latency")

    def __init__(self, metrics: RpcMetrics, method: str, rpc_type: str) -> None:
        service, name = split_method(method)
        self._labels = (rpc_type, service, name)
        self._handled = metrics.handled
        self._handled_by_code: dict[grpc.StatusCode, Counter] = {}
        self._latency = metrics.latency.labels(*self._labels)

    def observe(self, code: grpc.StatusCode, seconds: float) -> None:
        counter = self._handled_by_code.get(code)
        if counter is None:
            counter = self._handled_by_code[code] = self._handled.labels(*self._labels, code.name)
        counter.inc()
        self._latency.observe(seconds)


class RpcMetrics:
    """The server's two metric families, registered in `registry`.

    In a child of a multi-process server the registry is never scraped: the
    values go to the multiprocess files, and the parent reads those.
    """

    def __init__(self, registry: CollectorRegistry | None = None) -> None:
        self.registry = registry if registry is not None else CollectorRegistry(auto_describe=True)
        self.handled = Counter(
            HANDLED,
            "RPCs completed on the server, by method and status code.",
            ("grpc_type", "grpc_service", "grpc_method", "grpc_code"),
            registry=self.registry,
        )
        self.latency = Histogram(
            HANDLING_SECONDS,
            "Time from the handler's start to its answer (the server's own time, "
            "network and queueing before the handler not included), by method.",
            ("grpc_type", "grpc_service", "grpc_method"),
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self._lock = threading.Lock()
        self._methods: dict[tuple[str, str], MethodMetrics] = {}

    def for_method(self, method: str, rpc_type: str) -> MethodMetrics:
        """The recorder of `method` (the full path), made once per method."""
        with self._lock:
            found = self._methods.get((method, rpc_type))
            if found is None:
                found = self._methods[(method, rpc_type)] = MethodMetrics(self, method, rpc_type)
            return found


def multiprocess_registry(directory: str) -> CollectorRegistry:
    """A registry that sums every process's figures found in `directory` at each scrape."""
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=directory)
    return registry


def serve_metrics(host: str, port: int, registry: CollectorRegistry) -> WSGIServer:
    """Serves ``/metrics`` from `registry` on host:port in a daemon thread; returns the
    HTTP server (its ``server_port``, and ``shutdown()`` to stop it).

    Raises OSError when the port cannot be bound.
    """
    httpd, _thread = start_http_server(port, addr=_bare_host(host), registry=registry)
    return httpd


def _bare_host(host: str) -> str:
    """The host as a socket wants it: an IPv6 literal without brackets."""
    return host[1:-1] if host.startswith("[") and host.endswith("]") else host


def rpc_type_of(unary_request: bool, unary_response: bool) -> str:
    """The ``grpc_type`` label of an RPC shape."""
    return RPC_TYPES[(not unary_response) + 2 * (not unary_request)]

