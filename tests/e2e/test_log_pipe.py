"""Logging never blocks the event loop (issue 15 point 7): with its stderr a pipe nobody
reads, the server still answers every call, and its last lines arrive once someone reads.

Before, lines were written on the event loop: once the pipe's 64 KiB buffer was full
(about 270 health Checks at info level), the write blocked and so did every RPC, health
included.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from okey.v1 import hand_pb2, hand_pb2_grpc

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
OKEY_SERVER = ROOT / ".venv" / "bin" / "okey-server"
CHANNEL_OPTIONS = (("grpc.so_reuseport", 0),)
# At debug level each call writes two or more lines of ~200 bytes: 1,200 calls write
# several times the pipe's 64 KiB, and far fewer lines than the writer's queue holds.
HEALTH_CALLS = 800
HAND_CALLS = 400
# Bounds for a loaded machine, not timing assertions: a blocked server misses them all.
CALL_TIMEOUT_S = 10.0
START_DEADLINE_S = 30.0
WINNING = "R1 R2 R3 Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12 K13"


def _server_command() -> list[str]:
    if OKEY_SERVER.exists():
        return [str(OKEY_SERVER)]
    return [sys.executable, "-m", "okey_server.main"]


def _startup_line(process: subprocess.Popen[bytes]) -> dict[str, object]:
    """Reads stderr up to the "serving" line (and no further: the rest stays unread)."""
    assert process.stderr is not None
    deadline = time.monotonic() + START_DEADLINE_S
    pending = b""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([process.stderr], [], [], 0.1)
        if not ready:
            assert process.poll() is None, "okey-server exited before serving"
            continue
        chunk = os.read(process.stderr.fileno(), 1)  # byte by byte: stop right after the line
        assert chunk, "okey-server closed stderr before serving"
        pending += chunk
        if chunk == b"\n":
            entry = json.loads(pending)
            pending = b""
            if entry.get("event") == "serving":
                return dict(entry)
    raise AssertionError("okey-server printed no serving line")


def test_a_full_stderr_pipe_never_stalls_health_or_check_hand() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OKEY_")}
    process = subprocess.Popen(
        [*_server_command(), "--host", "127.0.0.1", "--port", "0", "--log-level", "debug"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
    )
    try:
        port = _startup_line(process)["port"]
        with grpc.insecure_channel(f"127.0.0.1:{port}", options=CHANNEL_OPTIONS) as channel:
            health = health_pb2_grpc.HealthStub(channel)
            hands = hand_pb2_grpc.HandServiceStub(channel)
            check_hand = hand_pb2.CheckHandRequest(hand_notation=WINNING, indicator_notation="R4")
            for index in range(HEALTH_CALLS + HAND_CALLS):
                if index % 3 == 2 and index // 3 < HAND_CALLS:
                    answer = hands.CheckHand(check_hand, timeout=CALL_TIMEOUT_S)
                    assert answer.winning
                else:
                    status = health.Check(health_pb2.HealthCheckRequest(),
                                          timeout=CALL_TIMEOUT_S)
                    assert status.status == health_pb2.HealthCheckResponse.SERVING
        # Nobody has read the pipe since the serving line, yet every call was answered.
        # Now read it: the queued lines, the drain and the last line all arrive.
        process.send_signal(signal.SIGTERM)
        _, rest = process.communicate(timeout=START_DEADLINE_S)
        assert process.returncode == 0
        entries = [json.loads(line) for line in rest.splitlines()]
        assert len(rest) > 64 * 1024  # more than the pipe held: the writer really waited
        assert [entry["event"] for entry in entries[-2:]] == ["draining", "stopped"]
        rpc_lines = [entry for entry in entries if entry["event"] == "rpc"]
        assert len(rpc_lines) == HEALTH_CALLS + HAND_CALLS  # none dropped at this volume
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=START_DEADLINE_S)
