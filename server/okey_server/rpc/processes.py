"""`okey-server --processes N`: N server processes sharing one port (SO_REUSEPORT).

The handlers are CPU-bound on one event loop, so a process uses about one
core; more cores need more processes. This module is the parent's side (it
never creates a grpc object: each child is a fresh interpreter that builds
its own grpc.aio server) and the child's entry point.

The parent:

1. resolves the port: with ``--port 0`` it picks a free one; either way it
   first binds the port without SO_REUSEPORT (so a port another server holds
   fails the start, as it does for one process), then keeps a bound, never
   listening socket with SO_REUSEPORT on it until it exits (the children
   join that group; connections go only to listening sockets, and nothing
   else can take the port while a child restarts);
2. starts N children, each given the whole config (signing key included)
   through a pipe, never on a command line or in the environment: a child's
   environment is the parent's without any ``OKEY_*`` variable (the key's
   ``OKEY_SIGNING_KEY`` would otherwise be readable in /proc/PID/environ of
   every child, and a child reads no variable for its config anyway);
3. prints the one ``serving`` line once every child is serving;
4. forwards SIGTERM/SIGINT: the first as SIGTERM (each child drains as a lone
   server does), a second as SIGINT (each stops at once); exits 0 once every
   child has exited cleanly;
5. restarts a child that exits unexpectedly, with an error line saying how it
   ended. If children keep dying (more than `MAX_RESTARTS` in
   `RESTART_WINDOW_S`), or one fails before the server first comes up (a
   bad certificate, a taken port), it stops them all and exits 1: that is
   not a fault a restart fixes, and the service manager should hear of it.

With metrics on, the parent makes a temporary directory for
prometheus-client's multiprocess files, gives it to the children as
PROMETHEUS_MULTIPROC_DIR, serves the sum of their figures on the metrics
port, and removes the directory when it exits. A restarted child's files
stay, so counters never go back.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import pickle
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from typing import Any

import structlog
from okey_rules import __version__
from structlog.typing import EventDict, WrappedLogger

from okey_server.rpc.config import Config
from okey_server.rpc.logging_setup import configure_logging, lifecycle_logger

MULTIPROC_DIR_VARIABLE = "PROMETHEUS_MULTIPROC_DIR"
# The prefix of the server's configuration variables (okey_server.rpc.config).
CONFIG_VARIABLE_PREFIX = "OKEY_"
READY = b"ready\n"
# Bounds, not expectations: a child comes up in about a second.
START_TIMEOUT_S = 60.0
# On top of --grace: a child needs a little more than the grace to drain and exit.
STOP_MARGIN_S = 10.0
MAX_RESTARTS = 5
RESTART_WINDOW_S = 60.0
_POLL_S = 0.05
_CHILD_CODE = "from okey_server.rpc.processes import child_main; raise SystemExit(child_main())"


def add_pid(_logger: WrappedLogger, _name: str, event_dict: EventDict) -> EventDict:
    """Names the process on every line: several processes share one log stream."""
    event_dict["pid"] = os.getpid()
    return event_dict


def log_pids() -> None:
    """Puts `add_pid` first in the configured processors (call after configure_logging)."""
    processors = structlog.get_config()["processors"]
    structlog.configure(processors=[add_pid, *processors])


@dataclasses.dataclass(frozen=True)
class Handover:
    """What a child is given on its stdin (pickled)."""

    config: Config
    index: int
    parent_pid: int
    metrics: bool


def reserve_port(host: str, port: int) -> tuple[socket.socket, int]:
    """A bound (not listening) SO_REUSEPORT socket on host:port and the port it holds.

    The port is first bound without SO_REUSEPORT: that fails if anyone holds it,
    whereas a SO_REUSEPORT bind would silently join a group someone else made.
    """
    bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    family, kind, proto, _name, address = socket.getaddrinfo(
        bare, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )[0]
    with socket.socket(family, kind, proto) as probe:
        # SO_REUSEADDR, as grpc sets it: a restart must not wait out the last
        # run's TIME_WAIT connections; a listening socket still refuses the bind.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind(address)
        port = probe.getsockname()[1]
    reserved = socket.socket(family, kind, proto)
    try:
        reserved.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        reserved.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        reserved.bind((*address[:1], port, *address[2:]))
    except OSError:
        reserved.close()
        raise
    return reserved, port


def child_environment(parent: Mapping[str, str]) -> dict[str, str]:
    """The environment a child starts with: the parent's, minus the configuration variables
    (the child's config comes through its pipe) and any PROMETHEUS_MULTIPROC_DIR."""
    return {name: text for name, text in parent.items()
            if not name.startswith(CONFIG_VARIABLE_PREFIX) and name != MULTIPROC_DIR_VARIABLE}


class Child:
    """One server process and what the parent knows of it."""

    def __init__(self, handover: Handover, env: dict[str, str]) -> None:
        self.index = handover.index
        self.process = subprocess.Popen(
            [sys.executable, "-c", _CHILD_CODE],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            close_fds=True,
            # Its own process group: a Ctrl-C at a terminal reaches the parent
            # alone, which forwards it once, instead of every child twice.
            process_group=0,
        )
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self._out = self.process.stdout.fileno()
        os.set_blocking(self._out, False)
        self._seen = b""
        self.ready = False
        try:
            self.process.stdin.write(pickle.dumps(handover))
            self.process.stdin.close()
        except OSError:
            pass  # it died at once: the caller sees it exit

    @property
    def pid(self) -> int:
        return self.process.pid

    def check_ready(self) -> bool:
        """True once the child said it is serving."""
        if not self.ready:
            with contextlib.suppress(BlockingIOError, OSError):
                self._seen += os.read(self._out, 64)
            self.ready = READY in self._seen
        return self.ready

    def signal(self, signum: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(signum)

    def close(self) -> None:
        assert self.process.stdout is not None
        self.process.stdout.close()


def how_it_ended(returncode: int) -> dict[str, Any]:
    if returncode < 0:
        try:
            return {"signal": signal.Signals(-returncode).name}
        except ValueError:
            return {"signal": -returncode}
    return {"exit_code": returncode}


class Supervisor:
    """Starts, watches, restarts and stops the children (see the module's doc)."""

    def __init__(self, config: Config, metrics_dir: str | None) -> None:
        self.config = config
        self.metrics_dir = metrics_dir
        self.log = structlog.get_logger("okey_server")
        self.lifecycle = lifecycle_logger()
        self.children: list[Child] = []
        self.signals: list[signal.Signals] = []
        self.restarts: list[float] = []
        self.env = child_environment(os.environ)
        if metrics_dir is not None:
            self.env[MULTIPROC_DIR_VARIABLE] = metrics_dir

    def spawn(self, index: int) -> Child:
        handover = Handover(self.config, index, os.getpid(), self.metrics_dir is not None)
        return Child(handover, self.env)

    def run(self, signals: list[signal.Signals]) -> int:
        """Runs until stopped; `signals` is the list `catch_signals` fills."""
        self.signals = signals
        try:
            self.children = [self.spawn(index) for index in range(self.config.processes)]
            status = self._start()
            if status is None:
                status = self._watch()
        finally:
            self._kill_all()
        self.lifecycle.info("stopped", exit_code=status)
        return status

    def _start(self) -> int | None:
        """Waits until every child serves: None then, else the exit status (all stopped)."""
        deadline = time.monotonic() + START_TIMEOUT_S
        while not all(child.check_ready() for child in self.children):
            for child in self.children:
                returncode = child.process.poll()
                if returncode is not None:
                    self.log.error("worker exited before serving", worker=child.index,
                                   worker_pid=child.pid, **how_it_ended(returncode))
                    return self._stop_all(1)
            if self.signals:
                self.lifecycle.info("draining", signal=self.signals[0].name)
                return self._stop_all(0)
            if time.monotonic() > deadline:
                self.log.error("workers did not start", timeout_s=START_TIMEOUT_S)
                return self._stop_all(1)
            time.sleep(_POLL_S)
        shown: dict[str, Any] = {"processes": len(self.children),
                                 "workers": [child.pid for child in self.children]}
        if self.config.health_port is not None:
            shown["health_port"] = self.config.health_port
        if self.config.http_port is not None:
            shown["http_port"] = self.config.http_port
        if self.config.metrics_port is not None:
            shown["metrics_port"] = self.config.metrics_port
        # The one startup line, as a lone server prints it (its pid is this process's).
        self.lifecycle.info("serving", host=self.config.host, port=self.config.port,
                            version=__version__, transport=self.config.transport, **shown)
        return None

    def _watch(self) -> int:
        """Restarts children that die until a signal comes; then stops them all."""
        while not self.signals:
            for slot, child in enumerate(self.children):
                returncode = child.process.poll()
                if returncode is None:
                    continue
                child.close()
                self.log.error("worker exited", worker=child.index, worker_pid=child.pid,
                               **how_it_ended(returncode))
                now = time.monotonic()
                self.restarts = [t for t in self.restarts if now - t < RESTART_WINDOW_S]
                if len(self.restarts) >= MAX_RESTARTS:
                    self.log.error("workers keep exiting; stopping", restarts=len(self.restarts),
                                   window_s=RESTART_WINDOW_S)
                    return self._stop_all(1)
                self.restarts.append(now)
                self.children[slot] = self.spawn(child.index)
                self.lifecycle.info("worker restarted", worker=child.index,
                                    worker_pid=self.children[slot].pid)
            time.sleep(_POLL_S)
        self.lifecycle.info("draining", signal=self.signals[0].name, grace_s=self.config.grace_s)
        return self._stop_all(0)

    def _stop_all(self, status: int) -> int:
        """SIGTERM to every child (each drains), SIGINT to all on a second signal (each stops
        at once); waits for them. `status` unless a child did not end cleanly: then 1."""
        forwarded = len(self.signals)
        for child in self.children:
            child.signal(signal.SIGTERM)
        deadline = time.monotonic() + self.config.grace_s + STOP_MARGIN_S
        while any(child.process.poll() is None for child in self.children):
            if len(self.signals) > forwarded:
                forwarded = len(self.signals)
                self.lifecycle.info("stopping now", signal=self.signals[-1].name)
                for child in self.children:
                    child.signal(signal.SIGINT)
            if time.monotonic() > deadline:
                self.log.error("workers did not stop in time; killing them",
                               timeout_s=self.config.grace_s + STOP_MARGIN_S)
                self._kill_all()
                return 1
            time.sleep(_POLL_S)
        for child in self.children:
            returncode = child.process.returncode
            # Killed by the SIGTERM sent above before it could set its handler: stopped too.
            if returncode not in (0, -signal.SIGTERM):
                self.log.error("worker did not stop cleanly", worker=child.index,
                               worker_pid=child.pid, **how_it_ended(returncode))
                status = 1
        return status

    def _kill_all(self) -> None:
        for child in self.children:
            if child.process.poll() is None:
                child.signal(signal.SIGKILL)
                child.process.wait()
            with contextlib.suppress(OSError):
                child.close()


@contextlib.contextmanager
def _metrics_directory(config: Config) -> Iterator[str | None]:
    if config.metrics_port is None:
        yield None
        return
    directory = tempfile.mkdtemp(prefix="okey-metrics-")
    try:
        yield directory
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def catch_signals() -> list[signal.Signals]:
    """From now on SIGTERM and SIGINT are appended to the list returned, nothing more
    (the supervisor's loop reads it)."""
    caught: list[signal.Signals] = []

    def on_signal(signum: int, _frame: object) -> None:
        caught.append(signal.Signals(signum))

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, on_signal)
    return caught


def supervise(config: Config) -> int:
    """Runs the parent of `config.processes` server processes; its exit status."""
    # First of all: a signal during the start must not kill this process before
    # it can stop the children it started or remove the metrics directory.
    signals = catch_signals()
    configure_logging(config.log_level, cache=True)
    log_pids()
    log = structlog.get_logger("okey_server")
    if config.signing_key_generated:
        log.warning(
            "signing key generated",
            detail="no OKEY_SIGNING_KEY set: the server processes share one random key; "
            "state tokens and deal ids sealed now will not open after a restart "
            "or on another instance",
        )
    try:
        reserved, port = reserve_port(config.host, config.port)
    except OSError as exc:
        log.error("cannot start", error=f"cannot listen on {config.address}: {exc}")
        return 1
    config = dataclasses.replace(config, port=port)
    # The health lane's port is held the same way (and picked here if 0), so
    # that every child serves the same one.
    health_reserved: socket.socket | None = None
    if config.health_port is not None:
        try:
            health_reserved, health_port = reserve_port(config.host, config.health_port)
        except OSError as exc:
            reserved.close()
            log.error("cannot start", error=f"health port {config.health_port}: {exc}")
            return 1
        config = dataclasses.replace(config, health_port=health_port)
    # So is the HTTP listener's (okey_server.http): every child binds it with SO_REUSEPORT.
    http_reserved: socket.socket | None = None
    if config.http_port is not None:
        try:
            http_reserved, http_port = reserve_port(config.host, config.http_port)
        except OSError as exc:
            reserved.close()
            if health_reserved is not None:
                health_reserved.close()
            log.error("cannot start", error=f"http port {config.http_port}: {exc}")
            return 1
        config = dataclasses.replace(config, http_port=http_port)
    with reserved, health_reserved or contextlib.nullcontext(), \
            http_reserved or contextlib.nullcontext(), _metrics_directory(config) as metrics_dir:
        httpd = None
        if metrics_dir is not None and config.metrics_port is not None:
            from okey_server.rpc.metrics import multiprocess_registry, serve_metrics

            try:
                httpd = serve_metrics(
                    config.host, config.metrics_port, multiprocess_registry(metrics_dir)
                )
            except OSError as exc:
                log.error("cannot start", error=f"metrics port {config.metrics_port}: {exc}")
                return 1
        try:
            return Supervisor(config, metrics_dir).run(signals)
        finally:
            if httpd is not None:
                httpd.shutdown()
                httpd.server_close()


def child_main() -> int:
    """A server process of a multi-process server: reads its Handover from stdin, serves."""
    import asyncio

    from okey_server.rpc.serving import Worker, serve

    handover: Handover = pickle.loads(sys.stdin.buffer.read())
    config = handover.config
    configure_logging(config.log_level, cache=True)
    log_pids()
    metrics = None
    if handover.metrics:
        # PROMETHEUS_MULTIPROC_DIR is in this process's environment from its start.
        from okey_server.rpc.metrics import RpcMetrics

        metrics = RpcMetrics()
    lifecycle = lifecycle_logger()

    def on_ready(port: int) -> None:
        lifecycle.info("worker serving", worker=handover.index, port=port)
        os.write(sys.stdout.fileno(), READY)
        # The parent reads no more: anything printed later goes to the log stream
        # rather than filling a pipe nobody empties (which would block this process).
        os.dup2(sys.stderr.fileno(), sys.stdout.fileno())

    worker = Worker(handover.index, handover.parent_pid, on_ready)
    return asyncio.run(serve(config, metrics, worker))
