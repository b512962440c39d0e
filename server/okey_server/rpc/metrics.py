"""Per-RPC Prometheus metrics: a counter by method and status code, a latency histogram.

Off unless `--metrics-port` is given: then `RpcMetrics` is handed to
`create_server`, the per-RPC wrapper records every call it wraps, and
`serve_metrics` answers ``GET /metrics`` from a thread of its own (the gRPC
event loop never waits on a scrape). That thread runs a small asyncio HTTP
server (`MetricsServer`), so a connection costs a socket and a coroutine,
never a thread: prometheus-client's own server started a thread per
connection, and idle connections held them for as long as they stayed open.

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

import asyncio
import gzip
import socket
import threading
from urllib.parse import parse_qs, urlsplit

import grpc
from prometheus_client import CollectorRegistry, Counter, Histogram
from prometheus_client.exposition import choose_encoder, gzip_accepted
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector

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


# The metrics port's bounds. A scraper sends its request at once and comes back
# every 15-60 s: a connection that has not sent a whole request head within
# IDLE_TIMEOUT_S (after connecting, or after its last answer) is closed; a head
# longer than MAX_HEAD_BYTES is refused; an answer the client does not take
# within IDLE_TIMEOUT_S ends the connection. Past MAX_CONNECTIONS open
# connections the one idle longest is closed, so a new scrape always gets in.
IDLE_TIMEOUT_S = 30.0
MAX_HEAD_BYTES = 16 * 1024
MAX_CONNECTIONS = 64
_BACKLOG = 128
# Bounds for the server's thread to start and to stop, not expectations.
_THREAD_START_S = 10.0
_THREAD_STOP_S = 10.0
Headers = tuple[tuple[str, str], ...]
_REASONS = {200: "OK", 400: "Bad Request", 405: "Method Not Allowed",
            431: "Request Header Fields Too Large", 500: "Internal Server Error"}


class MetricsServer:
    """``/metrics`` over HTTP/1.1 (keep-alive) from one daemon thread running an asyncio loop.

    Any path answers the page (as prometheus-client's server did), with its
    content negotiation: OpenMetrics when the scraper asks for it, gzip when
    accepted, ``name[]`` to select families. GET and HEAD only.

    The socket is bound when the object is made: OSError then if the port
    cannot be had. ``server_port`` is the port; ``shutdown()`` stops serving,
    ``server_close()`` frees the rest (the names prometheus-client's server had).
    """

    def __init__(
        self,
        host: str,
        port: int,
        registry: CollectorRegistry,
        *,
        idle_timeout_s: float = IDLE_TIMEOUT_S,
        max_connections: int = MAX_CONNECTIONS,
    ) -> None:
        self._registry = registry
        self._idle_timeout_s = idle_timeout_s
        self._max_connections = max_connections
        bare = _bare_host(host)
        family = socket.getaddrinfo(bare, port, type=socket.SOCK_STREAM,
                                    flags=socket.AI_PASSIVE)[0][0]
        self._socket = socket.create_server((bare, port), family=family, backlog=_BACKLOG)
        self.server_port: int = self._socket.getsockname()[1]
        self._loop = asyncio.new_event_loop()
        # Every open connection's task; of those, the ones waiting for a request
        # head, least recently active first (the ones to close past the cap).
        self._connections: set[asyncio.Task[None]] = set()
        self._waiting: dict[asyncio.Task[None], None] = {}
        self._started = threading.Event()
        self._failure: BaseException | None = None
        self._stopping: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, name="okey-metrics", daemon=True)
        self._thread.start()
        if not self._started.wait(_THREAD_START_S) or self._failure is not None:
            self.shutdown()
            self.server_close()
            raise OSError(f"metrics server did not start: {self._failure}")

    def shutdown(self) -> None:
        """Stops accepting and closes every connection; returns once the thread has ended."""
        if self._stopping is not None and self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._stopping.set)
        self._thread.join(_THREAD_STOP_S)

    def server_close(self) -> None:
        """Frees the socket and the loop (after `shutdown`)."""
        self._socket.close()
        if not self._thread.is_alive():
            self._loop.close()

    def _run(self) -> None:
        try:
            self._loop.run_until_complete(self._serve())
        except BaseException as exc:  # reported to the thread that made the server
            self._failure = exc
            self._started.set()

    async def _serve(self) -> None:
        self._stopping = asyncio.Event()
        server = await asyncio.start_server(self._connection, sock=self._socket,
                                            limit=MAX_HEAD_BYTES)
        self._started.set()
        async with server:
            await self._stopping.wait()
            server.close()
            for task in list(self._connections):
                task.cancel()
            if self._connections:
                await asyncio.wait(self._connections, timeout=_THREAD_STOP_S)

    def _make_room(self, newcomer: asyncio.Task[None]) -> None:
        """Past the cap, closes the connection that has waited longest for a request."""
        if len(self._connections) <= self._max_connections:
            return
        for task in self._waiting:
            if task is not newcomer:
                del self._waiting[task]
                task.cancel()
                return

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._connections.add(task)
        self._make_room(task)
        # drain() then waits until the kernel has taken every byte: the
        # connection can be closed at once after an answer without cutting it.
        writer.transport.set_write_buffer_limits(high=0)
        try:
            keep_open = True
            while keep_open:
                self._waiting[task] = None
                try:
                    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"),
                                                  self._idle_timeout_s)
                except asyncio.LimitOverrunError:
                    await self._send(writer, 431, b"request head too long\n", keep_open=False)
                    return
                finally:
                    self._waiting.pop(task, None)
                keep_open = await self._answer(head, writer)
        except (TimeoutError, asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass  # idle too long, gone, or closed to make room or to stop: nothing to answer
        finally:
            self._waiting.pop(task, None)
            self._connections.discard(task)
            writer.transport.abort()

    async def _answer(self, head: bytes, writer: asyncio.StreamWriter) -> bool:
        """Answers one request; whether the connection stays open for another."""
        request_line, *header_lines = head.decode("latin-1").split("\r\n")
        parts = request_line.split(" ")
        headers: dict[str, str] = {}
        for line in header_lines:
            name, colon, text = line.partition(":")
            if colon:
                headers[name.strip().lower()] = text.strip()
            elif line:
                parts = []  # a header line without a colon: malformed
        if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
            await self._send(writer, 400, b"bad request\n", keep_open=False)
            return False
        method, target, version = parts
        # A body (never sent by scrapers) is not read: close after answering rather
        # than read it as the next request.
        has_body = headers.get("content-length", "0") != "0" or "transfer-encoding" in headers
        keep_open = (version == "HTTP/1.1" and headers.get("connection", "").lower() != "close"
                     and not has_body)
        if method not in ("GET", "HEAD"):
            await self._send(writer, 405, b"GET or HEAD only\n", keep_open,
                             (("Allow", "GET, HEAD"),))
            return keep_open
        try:
            body, content_type, extra = self._page(target, headers)
        except Exception:  # a scrape that fails must not end the server
            await self._send(writer, 500, b"metrics could not be collected\n", keep_open=False)
            return False
        await self._send(writer, 200, body, keep_open, extra, content_type=content_type,
                         head_only=method == "HEAD")
        return keep_open

    def _page(self, target: str, headers: dict[str, str]) -> tuple[bytes, str, Headers]:
        """The page's body, content type and extra headers, as the request asks for them."""
        encoder, content_type = choose_encoder(headers.get("accept", ""))
        registry: Collector = self._registry
        names = parse_qs(urlsplit(target).query).get("name[]")
        if names:
            registry = self._registry.restricted_registry(names)
        body = encoder(registry)
        if gzip_accepted(headers.get("accept-encoding", "")):
            return gzip.compress(body), content_type, (("Content-Encoding", "gzip"),)
        return body, content_type, ()

    async def _send(
        self,
        writer: asyncio.StreamWriter,
        status: int,
        body: bytes,
        keep_open: bool,
        extra: Headers = (),
        *,
        content_type: str = "text/plain; charset=utf-8",
        head_only: bool = False,
    ) -> None:
        lines = [f"HTTP/1.1 {status} {_REASONS[status]}", f"Content-Type: {content_type}",
                 f"Content-Length: {len(body)}",
                 f"Connection: {'keep-alive' if keep_open else 'close'}"]
        lines += [f"{name}: {text}" for name, text in extra]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        if not head_only:
            writer.write(body)
        # A client that does not read its answer holds the connection no longer than an idle one.
        await asyncio.wait_for(writer.drain(), self._idle_timeout_s)


def serve_metrics(host: str, port: int, registry: CollectorRegistry) -> MetricsServer:
    """Serves ``/metrics`` from `registry` on host:port in a daemon thread; returns the
    server (its ``server_port``, and ``shutdown()`` then ``server_close()`` to stop it).

    Raises OSError when the port cannot be bound.
    """
    return MetricsServer(host, port, registry)


def _bare_host(host: str) -> str:
    """The host as a socket wants it: an IPv6 literal without brackets."""
    return host[1:-1] if host.startswith("[") and host.endswith("]") else host


def rpc_type_of(unary_request: bool, unary_response: bool) -> str:
    """The ``grpc_type`` label of an RPC shape."""
    return RPC_TYPES[(not unary_response) + 2 * (not unary_request)]

