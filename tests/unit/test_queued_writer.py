"""Logging never blocks the caller (issue 15 point 7): QueuedWriter queues, drops past its
bound and counts the drops, and writes in order on its own thread."""

from __future__ import annotations

import io
import json
import threading

from okey_server.rpc.logging_setup import QueuedWriter

# A bound for the writer thread to react, never reached when the code is right.
WAIT_S = 10.0


class StuckStream(io.StringIO):
    """A stream whose first write blocks until released, as a full pipe nobody reads does."""

    def __init__(self) -> None:
        super().__init__()
        self.entered = threading.Event()
        self.release = threading.Event()

    def write(self, text: str) -> int:
        self.entered.set()
        assert self.release.wait(WAIT_S), "the test never released the stream"
        return super().write(text)


def test_lines_past_the_bound_are_dropped_and_counted_while_the_stream_is_stuck() -> None:
    stream = StuckStream()
    writer = QueuedWriter(stream, capacity=5)
    writer.msg('{"event": "line 0"}')
    assert stream.entered.wait(WAIT_S)  # the writer thread holds line 0, blocked in write
    for index in range(1, 20):
        writer.msg(f'{{"event": "line {index}"}}')  # returns at once: queued or dropped
    assert writer.dropped == 14  # lines 1-5 fill the queue; 6-19 are dropped
    stream.release.set()
    assert writer.flush(WAIT_S)
    entries = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert entries[0] == {"event": "line 0"}
    assert entries[1]["event"] == "log lines dropped"
    assert entries[1]["dropped"] == 14
    assert entries[1]["level"] == "warning"
    assert entries[1]["timestamp"].endswith("Z")
    assert [entry["event"] for entry in entries[2:]] == [f"line {i}" for i in range(1, 6)]


def test_lines_are_written_in_order_and_flush_waits_for_them() -> None:
    stream = io.StringIO()
    writer = QueuedWriter(stream)
    for index in range(1_000):
        writer.msg(str(index))
    assert writer.flush(WAIT_S)
    assert stream.getvalue().splitlines() == [str(i) for i in range(1_000)]
    assert writer.dropped == 0


class RecordingStream(io.StringIO):
    """Keeps each write as it came, to see how the writer cuts its output."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[str] = []

    def write(self, text: str) -> int:
        self.writes.append(text)
        return super().write(text)


def test_each_write_is_whole_lines_within_a_pipes_atomic_size() -> None:
    """Several processes share one stderr pipe: a write above PIPE_BUF (4,096 bytes) may
    be split and interleaved with another process's, so no write exceeds it or cuts a
    line; a line longer than that goes alone."""
    stream = RecordingStream()
    writer = QueuedWriter(stream)
    lines = [f'{{"event": "line {i}", "pad": "{"ü" * (i % 97)}"}}' for i in range(2_000)]
    lines.insert(700, '{"event": "long", "pad": "' + "x" * 9_000 + '"}')
    for line in lines:
        writer.msg(line)
    assert writer.flush(WAIT_S)
    assert stream.getvalue().splitlines() == lines
    for text in stream.writes:
        assert text.endswith("\n")
        assert len(text.encode()) <= 4096 or text.count("\n") == 1


def test_flush_gives_up_on_a_stream_that_stays_stuck() -> None:
    stream = StuckStream()
    writer = QueuedWriter(stream)
    writer.msg("first")
    assert stream.entered.wait(WAIT_S)
    assert writer.flush(0.05) is False  # bounded: exit is not held up by a dead pipe
    stream.release.set()
    assert writer.flush(WAIT_S)
    assert stream.getvalue() == "first\n"
