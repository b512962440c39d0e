"""Shared fixtures: real okey servers on ephemeral loopback ports, in-process and as processes."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import grpc
import pytest
from okey_server.rpc.config import Config
from okey_server.rpc.logging_setup import configure_logging
from okey_server.rpc.server import create_server

ROOT = Path(__file__).resolve().parent.parent
OKEY_SERVER = ROOT / ".venv" / "bin" / "okey-server"
LOOPBACK = "127.0.0.1"
# Single-process runs and tests must not share ports silently (grpc turns SO_REUSEPORT on).
CHANNEL_OPTIONS = (("grpc.so_reuseport", 0),)
TEST_SIGNING_KEY = b"okey-rules test signing key, not a secret"
# An upper bound for a subprocess to come up or shut down, not a timing assertion.
PROCESS_DEADLINE_S = 30.0


def loopback_config(**overrides: object) -> Config:
    """A Config for in-process test servers: loopback, ephemeral port, fixed key."""
    settings: dict[str, object] = {
        "host": LOOPBACK,
        "port": 0,
        "log_level": "warning",
        "signing_key": TEST_SIGNING_KEY,
        "signing_key_generated": False,
    }
    settings.update(overrides)
    return Config(**settings)  # type: ignore[arg-type]


T = TypeVar("T")


class LoopThread:
    """An event loop on a daemon thread: in-process aio servers run there, sync clients here."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="test-loop", daemon=True)
        self._thread.start()

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Runs `coroutine` on the loop and returns its result (or raises its exception)."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(PROCESS_DEADLINE_S)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(PROCESS_DEADLINE_S)
        self.loop.close()


@pytest.fixture(scope="session")
def loop_thread() -> Iterator[LoopThread]:
    """The one event loop every in-process test server of the session runs on."""
    running = LoopThread()
    yield running
    running.close()


@pytest.fixture(scope="session")
def grpc_server(loop_thread: LoopThread) -> Iterator[str]:
    """The address (``127.0.0.1:port``) of a started okey server shared by the session."""
    config = loopback_config()
    # Quiet: per-RPC info lines would only clutter failure reports.
    configure_logging(config.log_level)
    server, port = loop_thread.run(create_server(config.address, config))
    loop_thread.run(server.start())
    yield f"{LOOPBACK}:{port}"
    loop_thread.run(server.stop(None))


@pytest.fixture
def make_server(loop_thread: LoopThread) -> Iterator[Callable[..., tuple[grpc.aio.Server, int]]]:
    """Builds and starts a private server: ``make_server(health_servicer=None, activity=None,
    **config)``.

    For tests that need their own server (drain, port conflicts); stopped at
    teardown. It runs on `loop_thread`: drive it with ``loop_thread.run(...)``.
    """
    servers: list[grpc.aio.Server] = []

    def make(
        health_servicer: object = None, activity: object = None, **overrides: object
    ) -> tuple[grpc.aio.Server, int]:
        config = loopback_config(**overrides)
        server, port = loop_thread.run(
            create_server(config.address, config, health_servicer, activity)  # type: ignore[arg-type]
        )
        servers.append(server)
        loop_thread.run(server.start())
        return server, port

    yield make
    for server in servers:
        loop_thread.run(server.stop(None))


@pytest.fixture
def channel(grpc_server: str) -> Iterator[grpc.Channel]:
    """A fresh insecure channel to `grpc_server`."""
    with grpc.insecure_channel(grpc_server, options=CHANNEL_OPTIONS) as opened:
        yield opened


@dataclass
class ServerProcess:
    """An `okey-server` subprocess; its stderr (the JSON log) goes to `log_path`."""

    process: subprocess.Popen[bytes]
    log_path: Path
    startup: dict[str, object]
    command: list[str]  # how to run okey-server, flags not included

    @property
    def port(self) -> int:
        return int(self.startup["port"])  # type: ignore[call-overload]

    @property
    def address(self) -> str:
        return f"{LOOPBACK}:{self.port}"

    def log_lines(self) -> list[dict[str, object]]:
        """Every log line so far, each parsed as JSON (fails on a non-JSON line)."""
        text = self.log_path.read_text()
        return [json.loads(line) for line in text.splitlines() if line.strip()]

    def stop(self, signum: int = signal.SIGTERM) -> int:
        """Sends `signum` and returns the exit code."""
        self.process.send_signal(signum)
        return self.process.wait(timeout=PROCESS_DEADLINE_S)


def _wait_for_startup(process: subprocess.Popen[bytes], log_path: Path) -> dict[str, object]:
    deadline = time.monotonic() + PROCESS_DEADLINE_S
    while time.monotonic() < deadline:
        for line in log_path.read_text().splitlines():
            entry = json.loads(line) if line.startswith("{") else {}
            if entry.get("event") == "serving":
                return dict(entry)
        if process.poll() is not None:
            raise AssertionError(f"okey-server exited early:\n{log_path.read_text()}")
        time.sleep(0.05)
    raise AssertionError(f"okey-server printed no startup line:\n{log_path.read_text()}")


@pytest.fixture
def start_server_process(tmp_path: Path) -> Iterator[Callable[..., ServerProcess]]:
    """Starts ``okey-server *flags`` (default ``--port 0``) and waits for its startup line.

    `env` entries are added to a copy of the environment with every OKEY_*
    variable removed. Processes still running at teardown are killed.
    """
    started: list[subprocess.Popen[bytes]] = []

    def start(*flags: str, env: dict[str, str] | None = None) -> ServerProcess:
        clean = {k: v for k, v in os.environ.items() if not k.startswith("OKEY_")}
        clean.update(env or {})
        log_path = tmp_path / f"okey-server-{len(started)}.log"
        args = list(flags) if flags else ["--port", "0"]
        executable = str(OKEY_SERVER) if OKEY_SERVER.exists() else None
        command = [executable] if executable else [sys.executable, "-m", "okey_server.main"]
        with log_path.open("wb") as log:
            process = subprocess.Popen(
                [*command, *args], stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=clean
            )
        started.append(process)
        return ServerProcess(process, log_path, _wait_for_startup(process, log_path), command)

    yield start
    for process in started:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=PROCESS_DEADLINE_S)
