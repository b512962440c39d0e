"""`okey-server`: reads the config, serves, drains gracefully on SIGTERM/SIGINT.

With ``--processes N`` (N > 1) this process only supervises: it starts N
server processes sharing the port (`okey_server.rpc.processes`); otherwise it
serves itself (`okey_server.rpc.serving`).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence

import structlog

from okey_server.rpc.config import load_config
from okey_server.rpc.logging_setup import configure_logging
from okey_server.rpc.serving import serve


def main(argv: Sequence[str] | None = None) -> int:
    config = load_config(argv)
    if config.processes > 1:
        from okey_server.rpc.processes import supervise

        return supervise(config)
    # Configured once, before any RPC: loggers may be cached (cheaper per RPC line).
    configure_logging(config.log_level, cache=True)
    log = structlog.get_logger("okey_server")
    if config.signing_key_generated:
        log.warning(
            "signing key generated",
            detail="no OKEY_SIGNING_KEY set: state tokens and deal ids sealed now "
            "will not open after a restart or on another instance",
        )
    if config.metrics_port is None:
        return asyncio.run(serve(config))

    # One process keeps its figures in memory: a PROMETHEUS_MULTIPROC_DIR left
    # in the environment would make prometheus-client write files instead.
    os.environ.pop("PROMETHEUS_MULTIPROC_DIR", None)  # processes.MULTIPROC_DIR_VARIABLE
    from okey_server.rpc.metrics import RpcMetrics, serve_metrics

    metrics = RpcMetrics()
    try:
        httpd = serve_metrics(config.host, config.metrics_port, metrics.registry)
    except OSError as exc:
        log.error("cannot start", error=f"metrics port {config.metrics_port}: {exc}")
        return 1
    try:
        return asyncio.run(serve(config, metrics))
    finally:
        httpd.shutdown()
        httpd.server_close()


if __name__ == "__main__":
    raise SystemExit(main())
