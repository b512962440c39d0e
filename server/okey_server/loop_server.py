"""A grpc.aio server on its own event-loop thread, driven through the sync grpc.Server calls.

Callers (main, tests) start, stop and drain it from ordinary threads exactly
as they would a `grpc.server(...)`; everything grpc.aio touches runs on the
loop thread.
"""

from __future__ import annotations

import asyncio
import signal
import threading
from collections.abc import Callable
from typing import TypeVar

import grpc

T = TypeVar("T")


class LoopServer:
    """Owns an event-loop thread and the grpc.aio server built on it.

    `build` runs on the loop thread and returns the (not yet started) server;
    `on_stop` runs once the server has stopped (to release what it used).
    """

    def __init__(
        self,
        build: Callable[[], grpc.aio.Server],
        on_stop: Callable[[], object] | None = None,
        name: str = "okey-loop",
    ) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run_loop, name=name, daemon=True)
        self._thread.start()
        self._lock = threading.Lock()
        self._stopping = False
        self._stopped = threading.Event()
        self._on_stop = on_stop
        self._server: grpc.aio.Server = self.call(build)

    def _run_loop(self) -> None:
        # SIGINT and SIGTERM are for the main thread, where Python runs their
        # handlers; grpc's threads, started from this one, inherit the mask.
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_forever()
        finally:
            self._loop.run_until_complete(self._loop.shutdown_asyncgens())
            self._loop.close()

    def call(self, function: Callable[[], T]) -> T:
        """Runs `function()` on the loop thread and returns its result."""

        async def run() -> T:
            return function()

        return asyncio.run_coroutine_threadsafe(run(), self._loop).result()

    @property
    def aio_server(self) -> grpc.aio.Server:
        return self._server

    def add_insecure_port(self, address: str) -> int:
        return int(self.call(lambda: self._server.add_insecure_port(address)))

    def start(self) -> None:
        asyncio.run_coroutine_threadsafe(self._server.start(), self._loop).result()

    def stop(self, grace: float | None) -> threading.Event:
        """Stops accepting RPCs; in-flight ones get `grace` seconds. Set once all is done.

        A second call (a second signal, say) may shorten the grace. The loop
        thread ends with the server, as a stopped sync server's threads do.
        """
        with self._lock:
            first = not self._stopping
            self._stopping = True

        async def stop() -> None:
            try:
                await self._server.stop(grace)
            finally:
                if first:
                    if self._on_stop is not None:
                        self._on_stop()
                    self._loop.call_soon(self._loop.stop)

        if self._loop.is_closed():
            self._stopped.set()
            return self._stopped
        future = asyncio.run_coroutine_threadsafe(stop(), self._loop)
        if first:
            future.add_done_callback(lambda _future: self._stopped.set())
        return self._stopped

    def wait_for_termination(self, timeout: float | None = None) -> bool:
        return self._stopped.wait(timeout)
