"""structlog set-up: one JSON object per line on stderr, request context merged in.

Lines are never written on the event loop: they go to a bounded queue that a
writer thread empties (`QueuedWriter`). A stderr nobody reads (a full pipe)
then stalls that thread only; once the queue is full, new lines are dropped
and counted, and a later line says how many.
"""

from __future__ import annotations

import atexit
import json
import logging
import queue
import sys
import threading
import time
from typing import Any, TextIO

import structlog
from structlog.typing import EventDict, WrappedLogger

_LEVELS = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
}


class UtcTimestamper:
    """Adds ``timestamp`` as ISO 8601 UTC with microseconds (``2026-01-31T12:00:00.123456Z``).

    The same text as structlog's ``TimeStamper(fmt="iso", utc=True)`` at a
    fraction of its cost: it runs once per RPC, and the date and time part is
    formatted only once a second.
    """

    def __init__(self) -> None:
        self._cached: tuple[int, str] = (-1, "")  # (whole second, its text): one atomic swap

    def __call__(self, _logger: WrappedLogger, _name: str, event_dict: EventDict) -> EventDict:
        now = time.time()
        second = int(now)
        cached = self._cached
        if cached[0] != second:
            cached = self._cached = (second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)))
        event_dict["timestamp"] = f"{cached[1]}.{int((now - second) * 1_000_000):06d}Z"
        return event_dict


# One encoder for every line: json.dumps would build a new one per call.
_ENCODER = json.JSONEncoder(default=repr)


def _dumps(event_dict: EventDict, **_ignored: Any) -> str:
    return _ENCODER.encode(event_dict)


# Lines the queue holds while the stream does not take them (about 250 bytes
# each at info level: a few MB at most); beyond that, lines are dropped.
QUEUE_LINES = 10_000
# How long the exit waits for queued lines to reach a stream that may be stuck.
FLUSH_TIMEOUT_S = 2.0
# The most bytes one write to the stream carries. A pipe takes a write of at
# most PIPE_BUF (4,096 bytes on Linux) whole; a bigger one may be split, and
# with --processes several processes share one stderr pipe (a container's log
# stream), so their lines could be cut into each other. Writes are therefore
# whole lines of at most this many bytes together.
WRITE_BYTES = 4096


class QueuedWriter:
    """A structlog logger that hands each line to a writer thread and never blocks.

    `msg` (and every level's alias) puts the rendered line on a queue; a daemon
    thread writes what is queued, in order, and flushes the stream after each
    batch. While the stream blocks (a pipe nobody reads), the queue fills; at
    `capacity` lines a new line is dropped and counted instead, and the next
    batch the stream takes starts with a ``log lines dropped`` line giving the
    count. `flush` waits (bounded) until every queued line is written; it runs
    at exit, so the last line (``stopped``) is not lost.
    """

    def __init__(self, stream: TextIO, capacity: int = QUEUE_LINES) -> None:
        self.stream = stream
        self._capacity = capacity
        self._lines: queue.SimpleQueue[str | threading.Event] = queue.SimpleQueue()
        # `dropped` is written by the logging threads (in the server, the event
        # loop's alone) and `_reported` by the writer thread alone, so the two
        # need no lock; the writer reports the difference.
        self.dropped = 0
        self._reported = 0
        self._stamp = UtcTimestamper()
        self._thread = threading.Thread(target=self._run, name="log-writer", daemon=True)
        self._thread.start()

    def msg(self, message: str) -> None:
        # qsize() is a cheap C call; a line past the bound is counted, not queued.
        if self._lines.qsize() >= self._capacity:
            self.dropped += 1
            return
        self._lines.put(message + "\n")

    log = debug = info = warn = warning = msg
    fatal = failure = err = error = critical = exception = msg

    def flush(self, timeout_s: float = FLUSH_TIMEOUT_S) -> bool:
        """Waits until the lines queued so far are written; False if the stream is stuck."""
        if not self._thread.is_alive():
            return False
        written = threading.Event()
        self._lines.put(written)
        return written.wait(timeout_s)

    def _run(self) -> None:
        while True:
            batch: list[str] = []
            markers: list[threading.Event] = []
            item = self._lines.get()  # blocks until a line comes
            while True:
                if isinstance(item, threading.Event):
                    markers.append(item)
                else:
                    batch.append(item)
                try:
                    item = self._lines.get_nowait()
                except queue.Empty:
                    break
            missed = self.dropped - self._reported
            if missed:
                self._reported += missed
                batch.insert(0, self._dropped_line(missed))
            for chunk in _chunks(batch):
                self._write(chunk)
            for marker in markers:
                marker.set()

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            # stderr closed or gone: nowhere left to say it; keep taking lines
            # so the loop never notices.
            pass

    def _dropped_line(self, count: int) -> str:
        entry: EventDict = {"event": "log lines dropped", "dropped": count,
                            "detail": "the log stream did not keep up", "level": "warning"}
        return _ENCODER.encode(self._stamp(None, "warning", entry)) + "\n"


def _chunks(lines: list[str]) -> list[str]:
    """The lines joined into writes of whole lines, each at most WRITE_BYTES bytes (a
    longer line goes alone: no write of it can be whole)."""
    chunks: list[str] = []
    current: list[str] = []
    size = 0
    for line in lines:
        length = len(line.encode())
        if current and size + length > WRITE_BYTES:
            chunks.append("".join(current))
            current, size = [], 0
        current.append(line)
        size += length
    if current:
        chunks.append("".join(current))
    return chunks


# One writer per stream for the whole process: configuring again (tests do)
# reuses it instead of starting another thread.
_writers: dict[int, QueuedWriter] = {}
_writers_lock = threading.Lock()


def queued_writer(stream: TextIO) -> QueuedWriter:
    """The process's `QueuedWriter` for `stream`, started on first use."""
    with _writers_lock:
        writer = _writers.get(id(stream))
        if writer is None or writer.stream is not stream:
            writer = _writers[id(stream)] = QueuedWriter(stream)
        return writer


def flush_logs(timeout_s: float = FLUSH_TIMEOUT_S) -> None:
    """Writes out every queued line (each stream waited for at most `timeout_s`)."""
    with _writers_lock:
        writers = list(_writers.values())
    for writer in writers:
        writer.flush(timeout_s)


# The writer threads are daemons (a stuck stream must not keep the process
# alive); this writes what they still hold before the interpreter goes.
atexit.register(flush_logs)


def configure_logging(level: str = "info", stream: TextIO | None = None,
                      cache: bool = False) -> None:
    """Routes every structlog logger to JSON lines on `stream` (default stderr),
    written by a `QueuedWriter` thread, never on the caller's thread.

    Info-level lines carry no tiles, racks or walls: callers log names and codes
    only; request contents may appear at debug level at most.

    `cache` keeps each logger once it has logged (cheaper per line), for a
    process that configures logging once, before serving; leave it off where
    the configuration may change later (tests capture logs that way).
    """
    writer = queued_writer(stream or sys.stderr)
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            UtcTimestamper(),
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(serializer=_dumps),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(_LEVELS[level]),
        logger_factory=lambda *_args: writer,
        cache_logger_on_first_use=cache,
    )


def lifecycle_logger() -> Any:
    """A logger that ignores the level: start-up and shutdown lines always print.

    With ``--port 0`` the startup line is how callers learn the port, so even
    ``--log-level error`` must not hide it.
    """
    return structlog.wrap_logger(
        None,
        wrapper_class=structlog.make_filtering_bound_logger(logging.NOTSET),
    )
