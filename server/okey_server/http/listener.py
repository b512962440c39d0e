"""The HTTP listener: hypercorn serving `HttpApp` in the gRPC server's own event loop.

HTTP/1.1 and HTTP/2 (h2c in plaintext, ALPN over TLS). The socket is bound here,
before hypercorn starts, so that a port in use fails the start like the gRPC port
does and ``--http-port 0`` is known at once; with ``--processes`` each server process
binds it with SO_REUSEPORT, as the gRPC port is shared (okey_server.rpc.processes).
TLS is the gRPC listener's: the same certificate and key, and with a client CA the
same mutual TLS. hypercorn's own log lines go to structlog (`StructlogLogger`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import ssl
import tempfile
from collections.abc import Iterator
from typing import Any

import structlog
from hypercorn.asyncio import serve
from hypercorn.config import Config as HypercornConfig

from okey_server.rpc.config import Config
from okey_server.rpc.server import ServerStartError

# hypercorn's keep-alive: an idle HTTP/1.1 connection is closed after this long
# (browsers and curl reopen one at once; an idle socket costs the server memory).
KEEP_ALIVE_S = 30.0
# Connections the kernel queues before hypercorn accepts them: browsers open several
# at once per page, and a burst must not be refused while the loop is busy.
_LISTEN_BACKLOG = 1024
_log = structlog.get_logger("okey_server.http")


class StructlogLogger:
    """hypercorn's logger (its ``logger_class``), writing to structlog.

    No access log: each call has its own line (okey_server.http.call_log). hypercorn's
    "Running on ..." is debug here: the server's ``serving`` line says the port.
    """

    def __init__(self, _config: HypercornConfig) -> None:
        self.access_logger = None
        self.error_logger = None

    async def access(self, *_args: Any) -> None:
        return

    async def critical(self, message: str, *args: Any, **_kwargs: Any) -> None:
        _log.critical("hypercorn", detail=_text(message, args))

    async def error(self, message: str, *args: Any, **_kwargs: Any) -> None:
        _log.error("hypercorn", detail=_text(message, args))

    async def warning(self, message: str, *args: Any, **_kwargs: Any) -> None:
        _log.warning("hypercorn", detail=_text(message, args))

    async def info(self, message: str, *args: Any, **_kwargs: Any) -> None:
        _log.debug("hypercorn", detail=_text(message, args))

    async def debug(self, message: str, *args: Any, **_kwargs: Any) -> None:
        _log.debug("hypercorn", detail=_text(message, args))

    async def exception(self, message: str, *args: Any, **_kwargs: Any) -> None:
        _log.error("hypercorn", detail=_text(message, args), exc_info=True)

    async def log(self, level: int, message: str, *args: Any, **_kwargs: Any) -> None:
        _log.log(level, "hypercorn", detail=_text(message, args))


def _text(message: str, args: tuple[Any, ...]) -> str:
    try:
        return message % args if args else message
    except (TypeError, ValueError):
        return f"{message} {args!r}"


class _ServerConfig(HypercornConfig):
    """hypercorn's config with TLS from the PEM contents okey's config holds (hypercorn
    reads files only)."""

    def __init__(self, config: Config) -> None:
        super().__init__()
        self._okey = config

    @property
    def ssl_enabled(self) -> bool:
        return self._okey.tls

    def create_ssl_context(self) -> ssl.SSLContext | None:
        return tls_context(self._okey, self.alpn_protocols) if self._okey.tls else None


def tls_context(config: Config, alpn: list[str]) -> ssl.SSLContext:
    """The listener's TLS: the gRPC port's certificate and key, and its client CA (mutual TLS)."""
    assert config.tls_cert is not None
    assert config.tls_key is not None
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2  # HTTP/2 requires it
    context.options |= ssl.OP_NO_COMPRESSION
    context.set_alpn_protocols(alpn)
    with _pem_file(config.tls_cert) as cert, _pem_file(config.tls_key) as key:
        context.load_cert_chain(cert, key, password=b"")
    if config.tls_client_ca is not None:
        context.load_verify_locations(cadata=config.tls_client_ca.decode("ascii", "replace"))
        context.verify_mode = ssl.CERT_REQUIRED
    return context


@contextlib.contextmanager
def _pem_file(data: bytes) -> Iterator[str]:
    """A path `ssl` can read `data` from: an anonymous in-memory file where Linux has
    them (the key never touches a disk), else a private temporary file, gone after."""
    if hasattr(os, "memfd_create"):
        fd = os.memfd_create("okey-pem", os.MFD_CLOEXEC)
        try:
            os.write(fd, data)
            yield f"/proc/self/fd/{fd}"
        finally:
            os.close(fd)
        return
    with tempfile.NamedTemporaryFile() as file:  # mode 0600
        file.write(data)
        file.flush()
        yield file.name


def bind_socket(host: str, port: int, reuse_port: bool) -> socket.socket:
    """A bound TCP socket on host:port (0: any free port); ServerStartError if it cannot be."""
    bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    try:
        family, kind, proto, _name, address = socket.getaddrinfo(
            bare, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        sock = socket.socket(family, kind, proto)
    except OSError as exc:
        raise ServerStartError(f"cannot listen on {host}:{port} (HTTP): {exc}") from exc
    try:
        # As on the gRPC port: a restart need not wait out TIME_WAIT connections.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind(address)
        sock.listen(_LISTEN_BACKLOG)
    except OSError as exc:
        sock.close()
        raise ServerStartError(f"cannot listen on {host}:{port} (HTTP): {exc}") from exc
    return sock


def hypercorn_config(config: Config, sock: socket.socket) -> HypercornConfig:
    """hypercorn's settings from okey's: the limits the gRPC port has, where they apply."""
    served = _ServerConfig(config)
    served.bind = [f"fd://{sock.detach()}"]
    served.backlog = _LISTEN_BACKLOG
    served.logger_class = StructlogLogger  # type: ignore[assignment]
    served.accesslog = None
    served.errorlog = None
    served.include_server_header = False
    served.keep_alive_timeout = KEEP_ALIVE_S
    # HTTP/2's per-connection cap, as --max-streams-per-connection is on the gRPC port.
    served.h2_max_concurrent_streams = config.max_streams_per_connection
    # A client that sends part of a request and then nothing is cut off. hypercorn's read
    # timeout also runs on a connection idle between requests, and one it ends there is
    # left open but deaf: the client's next call on it hangs (a page idle 10 s, then a
    # call). So it runs past the keep-alive, which closes an idle connection cleanly first;
    # a stalled request is cut off after the keep-alive plus --receive-timeout.
    served.read_timeout = round(KEEP_ALIVE_S) + max(1, round(config.receive_timeout_s))
    return served


class HttpListener:
    """The listener once bound: `start` serves, `stop` ends it within a grace period."""

    def __init__(self, app: Any, config: Config, reuse_port: bool = False) -> None:
        sock = bind_socket(config.host, config.http_port or 0, reuse_port)
        self.port: int = sock.getsockname()[1]
        self._config = hypercorn_config(config, sock)
        self._app = app
        self._stopping = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.ensure_future(
            serve(self._app, self._config, shutdown_trigger=self._stopping.wait, mode="asgi")
        )

    @property
    def stopped(self) -> bool:
        return self._task is not None and self._task.done()

    async def stop(self, grace_s: float) -> None:
        """Stops accepting, lets calls in flight end within `grace_s`, closes the rest."""
        self._config.graceful_timeout = max(grace_s, 0.0)
        self._stopping.set()
        if self._task is not None:
            with contextlib.suppress(Exception):
                await self._task
