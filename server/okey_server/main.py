"""`okey-server`: reads the config, serves, drains gracefully on SIGTERM/SIGINT."""

from __future__ import annotations

import signal
import threading
from collections.abc import Sequence
from types import FrameType

import structlog
from grpc_health.v1 import health
from okey_rules import __version__

from okey_server.config import load_config
from okey_server.logging_setup import configure_logging, lifecycle_logger
from okey_server.server import ServerStartError, create_server, drain

_WAKE_S = 0.5


def main(argv: Sequence[str] | None = None) -> int:
    config = load_config(argv)
    # Configured once, before any RPC: loggers may be cached (cheaper per RPC line).
    configure_logging(config.log_level, cache=True)
    log = structlog.get_logger("okey_server")
    lifecycle = lifecycle_logger()
    if config.signing_key_generated:
        log.warning(
            "signing key generated",
            detail="no OKEY_SIGNING_KEY set: states and seed commitments issued now "
            "will not verify after a restart or on another instance",
        )

    health_servicer = health.HealthServicer()
    try:
        server, port = create_server(config.address, config, health_servicer)
    except ServerStartError as exc:
        log.error("cannot start", error=str(exc))
        return 1

    stopping = threading.Event()

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        if stopping.is_set():
            # A second signal: stop now, cancelling whatever is still running.
            server.stop(0)
            return
        lifecycle.info("draining", signal=signal.Signals(signum).name, grace_s=config.grace_s)
        stopping.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    server.start()
    # The one startup line; with --port 0 it is how callers learn the port.
    lifecycle.info(
        "serving", host=config.host, port=port, version=__version__, workers=config.workers
    )
    # Python runs signal handlers only in this thread, and only once it wakes:
    # waiting in slices bounds the delay should a signal land on another thread.
    while not stopping.wait(_WAKE_S):
        pass
    drain(server, health_servicer, config.grace_s)
    lifecycle.info("stopped")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
