"""One server process serving until it is told to stop: the lone `okey-server`, or one of the
processes of `--processes N` (okey_server.rpc.processes starts those). Kept apart from
`okey_server.main`, which only reads the config and picks one of the two, so that neither
imports the other.
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import structlog
from grpc_health.v1._async import HealthServicer
from okey_rules import __version__

from okey_server.rpc.config import Config
from okey_server.rpc.logging_setup import lifecycle_logger
from okey_server.rpc.rpc_wrapper import Activity
from okey_server.rpc.server import (
    ServerStartError,
    create_health_server,
    create_server,
    drain,
    make_servicers,
)

if TYPE_CHECKING:
    from okey_server.http.listener import HttpListener
    from okey_server.rpc.metrics import RpcMetrics

# How long RPC tasks that grpc has cancelled get to end once the server stopped.
_TASKS_END_S = 1.0
# How often a server process of a multi-process server checks that its parent lives.
_PARENT_CHECK_S = 0.5


class Worker:
    """How one server process of a multi-process server differs from a lone server.

    It binds with SO_REUSEPORT, reports readiness through `on_ready` instead of
    printing the startup line (the parent prints the one line), names its
    lifecycle lines ``worker ...``, drains when its parent is gone, and a
    repeated SIGTERM does not cut its drain short: a service manager that
    signals the whole group and the parent's forwarding both send one. SIGINT
    (the parent's "stop now") does.
    """

    def __init__(self, index: int, parent_pid: int, on_ready: Callable[[int], None]) -> None:
        self.index = index
        self.parent_pid = parent_pid
        self.on_ready = on_ready


async def serve(
    config: Config, metrics: RpcMetrics | None = None, worker: Worker | None = None
) -> int:
    """Serves until the first SIGTERM/SIGINT, then drains; a second signal stops at once.

    With --health-port the health lane is served beside the RPC port, and with
    --http-port the same servicers over HTTP (okey_server.http), sharing the drain. Should
    gRPC stop the RPC server on its own (it does when its serving task
    fails), health turns NOT_SERVING, the process drains what is left and
    exits 1: it can no longer serve, and a supervisor should restart it.
    """
    log = structlog.get_logger("okey_server")
    lifecycle = lifecycle_logger()
    prefix = "" if worker is None else "worker "
    health_servicer = HealthServicer()
    activity = Activity()
    servicers = make_servicers(config)
    try:
        server, port = await create_server(
            config.address, config, health_servicer, activity,
            reuse_port=worker is not None, metrics=metrics, servicers=servicers,
        )
    except ServerStartError as exc:
        log.error("cannot start", error=str(exc))
        return 1
    http: HttpListener | None = None
    if config.http_port is not None:
        try:
            http = _http_listener(config, servicers, health_servicer, activity, metrics,
                                  reuse_port=worker is not None)
        except ServerStartError as exc:
            log.error("cannot start", error=f"http port: {exc}")
            await server.stop(None)
            return 1
    health_server, health_port = None, None
    if config.health_port is not None:
        try:
            health_server, health_port = await create_health_server(
                config, health_servicer, reuse_port=worker is not None, metrics=metrics
            )
        except ServerStartError as exc:
            log.error("cannot start", error=f"health port: {exc}")
            await server.stop(None)
            return 1

    loop = asyncio.get_running_loop()
    signalled = asyncio.Event()
    signalled_again = asyncio.Event()

    def on_signal(signum: signal.Signals | None, reason: str | None = None) -> None:
        if signalled.is_set():
            if signum is None or (worker is not None and signum == signal.SIGTERM):
                return  # the drain goes on (see Worker)
            lifecycle.info(prefix + "stopping now", signal=signum.name)
            signalled_again.set()
            return
        cause: dict[str, Any] = {"signal": signum.name} if signum else {"reason": reason}
        lifecycle.info(prefix + "draining", grace_s=config.grace_s, **cause)
        signalled.set()

    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, on_signal, signum)

    await server.start()
    if health_server is not None:
        await health_server.start()
    if http is not None:
        http.start()
    watcher = None
    if worker is None:
        # The one startup line; with --port 0 it is how callers learn the port.
        shown: dict[str, Any] = {"pid": os.getpid(), "transport": config.transport}
        if health_server is not None:
            shown["health_port"] = health_port
        if http is not None:
            shown["http_port"] = http.port
        if config.metrics_port is not None:
            shown["metrics_port"] = config.metrics_port
        lifecycle.info("serving", host=config.host, port=port, version=__version__, **shown)
    else:
        worker.on_ready(port)
        watcher = asyncio.ensure_future(_watch_parent(worker.parent_pid, on_signal))
    # Never cancelled: gRPC's wait_for_termination awaits the server's own
    # shutdown future, and cancelling it would cancel the shutdown itself.
    stopped = asyncio.ensure_future(server.wait_for_termination())
    signal_came = asyncio.ensure_future(signalled.wait())
    await asyncio.wait((stopped, signal_came), return_when=asyncio.FIRST_COMPLETED)
    status = 0
    if not signalled.is_set():
        log.error("grpc server stopped unexpectedly",
                  detail="health is NOT_SERVING; the process exits so that it is restarted")
        status = 1
        on_signal(None, "grpc server stopped")
    signal_came.cancel()
    if watcher is not None:
        watcher.cancel()
    drain_started = loop.time()
    drained = asyncio.ensure_future(drain(server, health_servicer, activity, config.grace_s))
    cut_short = asyncio.ensure_future(signalled_again.wait())
    await asyncio.wait((drained, cut_short), return_when=asyncio.FIRST_COMPLETED)
    cut_short.cancel()
    if drained.done():
        drained.result()  # a failed drain is a bug: let it show
    else:
        # A second signal: stop now, cancelling whatever is still running.
        drained.cancel()
        await server.stop(0)
    if http is not None:
        # The drain refused new HTTP calls with the gRPC ones and waited for both
        # ports to go quiet; HTTP calls still running get what is left of the grace.
        left = 0.0 if signalled_again.is_set() else config.grace_s - (loop.time() - drain_started)
        await http.stop(max(left, 0.0))
    if health_server is not None:
        # Last: it answered NOT_SERVING all through the drain.
        await health_server.stop(0)
    # grpc has cancelled what was left; let those RPCs' tasks end (and log)
    # before asyncio.run cancels them anew.
    rest = asyncio.all_tasks() - {asyncio.current_task()}
    if rest:
        await asyncio.wait(rest, timeout=_TASKS_END_S)
    lifecycle.info(prefix + "stopped")
    return status


async def _watch_parent(
    parent_pid: int, on_signal: Callable[[signal.Signals | None, str | None], None]
) -> None:
    """Drains a server process whose parent is gone (killed with SIGKILL, say):
    nothing would ever stop it otherwise."""
    while os.getppid() == parent_pid:
        await asyncio.sleep(_PARENT_CHECK_S)
    on_signal(None, "parent exited")


def _http_listener(
    config: Config,
    servicers: dict[str, object],
    health_servicer: HealthServicer,
    activity: Activity,
    metrics: RpcMetrics | None,
    *,
    reuse_port: bool,
) -> HttpListener:
    """The HTTP listener, bound (ServerStartError if it cannot be), not yet serving."""
    from okey_server.http.app import HttpApp
    from okey_server.http.call_log import HttpMetrics
    from okey_server.http.listener import HttpListener

    app = HttpApp(config, servicers, health_servicer, activity,
                  None if metrics is None else HttpMetrics(metrics))
    return HttpListener(app, config, reuse_port=reuse_port)
