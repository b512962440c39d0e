"""`okey-server`: reads the config, serves, drains gracefully on SIGTERM/SIGINT."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Sequence

import structlog
from grpc_health.v1._async import HealthServicer
from okey_rules import __version__

from okey_server.config import Config, load_config
from okey_server.logging_setup import configure_logging, lifecycle_logger
from okey_server.rpc_wrapper import Activity
from okey_server.server import ServerStartError, create_server, drain

# How long RPC tasks that grpc has cancelled get to end once the server stopped.
_TASKS_END_S = 1.0


async def serve(config: Config) -> int:
    """Serves until the first SIGTERM/SIGINT, then drains; a second signal stops at once."""
    log = structlog.get_logger("okey_server")
    lifecycle = lifecycle_logger()
    health_servicer = HealthServicer()
    activity = Activity()
    try:
        server, port = await create_server(config.address, config, health_servicer, activity)
    except ServerStartError as exc:
        log.error("cannot start", error=str(exc))
        return 1

    loop = asyncio.get_running_loop()
    signalled = asyncio.Event()
    signalled_again = asyncio.Event()

    def on_signal(signum: signal.Signals) -> None:
        if signalled.is_set():
            lifecycle.info("stopping now", signal=signum.name)
            signalled_again.set()
            return
        lifecycle.info("draining", signal=signum.name, grace_s=config.grace_s)
        signalled.set()

    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, on_signal, signum)

    await server.start()
    # The one startup line; with --port 0 it is how callers learn the port.
    lifecycle.info("serving", host=config.host, port=port, version=__version__)
    await signalled.wait()
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
    # grpc has cancelled what was left; let those RPCs' tasks end (and log)
    # before asyncio.run cancels them anew.
    rest = asyncio.all_tasks() - {asyncio.current_task()}
    if rest:
        await asyncio.wait(rest, timeout=_TASKS_END_S)
    lifecycle.info("stopped")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    config = load_config(argv)
    # Configured once, before any RPC: loggers may be cached (cheaper per RPC line).
    configure_logging(config.log_level, cache=True)
    if config.signing_key_generated:
        structlog.get_logger("okey_server").warning(
            "signing key generated",
            detail="no OKEY_SIGNING_KEY set: states and seed commitments issued now "
            "will not verify after a restart or on another instance",
        )
    return asyncio.run(serve(config))


if __name__ == "__main__":
    raise SystemExit(main())
