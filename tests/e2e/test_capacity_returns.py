"""Capacity comes back (issue 23, point 6): under --processes, a restarted server process
gets clients again, because every connection is closed after --max-connection-age and
the client reconnects (the kernel spreads connections, not calls, over the processes).
Here with an age of 2 s; bench/limits_bench.py measures the default 30 s."""

from __future__ import annotations

import os
import signal
import threading
import time

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from okey.v1 import hand_pb2, hand_pb2_grpc
from okey_server import probe

pytestmark = pytest.mark.e2e

CONNECTIONS = 8
CALL_TIMEOUT_S = 10.0
# Age 2 s (+10% jitter) and a 1 s grace; a wide bound for a busy 2-core machine.
BACK_WITHIN_S = 20.0
REQUEST = hand_pb2.CheckHandRequest(
    hand_notation="R1 R2 R3 Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12 K13", indicator_notation="R4"
)


def _served_by(server, since_line: int) -> dict[int, int]:
    """RPCs served per process pid, in the log lines after the first `since_line`."""
    counts: dict[int, int] = {}
    for entry in server.log_lines()[since_line:]:
        if entry.get("event") == "rpc":
            pid = int(entry["pid"])  # type: ignore[call-overload]
            counts[pid] = counts.get(pid, 0) + 1
    return counts


def test_a_restarted_process_serves_again_within_the_connection_age(start_server_process):
    server = start_server_process("--port", "0", "--processes", "2", "--health-port", "0",
                                  "--max-connection-age", "2")
    first, second = server.startup["workers"]  # type: ignore[misc]
    health_port = server.startup["health_port"]
    assert probe.main(["--address", f"127.0.0.1:{health_port}"]) == 0
    stop = threading.Event()
    failures: list[str] = []

    def keep_calling(channel: grpc.Channel) -> None:
        check_hand = hand_pb2_grpc.HandServiceStub(channel).CheckHand
        while not stop.is_set():
            try:
                check_hand(REQUEST, timeout=CALL_TIMEOUT_S)
            except grpc.RpcError as error:
                failures.append(error.code().name)
            time.sleep(0.02)

    options = (("grpc.use_local_subchannel_pool", 1),)
    channels = [grpc.insecure_channel(server.address, options=options)
                for _ in range(CONNECTIONS)]
    callers = [threading.Thread(target=keep_calling, args=(c,), daemon=True) for c in channels]
    try:
        for caller in callers:
            caller.start()
        os.kill(int(first), signal.SIGKILL)  # type: ignore[call-overload]
        restarted = None
        deadline = time.monotonic() + BACK_WITHIN_S
        while restarted is None and time.monotonic() < deadline:
            lines = server.log_lines()
            for index, entry in enumerate(lines):
                if entry.get("event") == "worker restarted":
                    restarted, since = int(entry["worker_pid"]), index  # type: ignore[call-overload]
            time.sleep(0.1)
        assert restarted is not None, "the killed process was not restarted"
        while time.monotonic() < deadline:
            served = _served_by(server, since)
            if served.get(restarted, 0) >= 10 and served.get(int(second), 0) >= 10:  # type: ignore[call-overload]
                break
            time.sleep(0.2)
        served = _served_by(server, since)
        assert served.get(restarted, 0) >= 10, served
        assert served.get(int(second), 0) >= 10, served  # type: ignore[call-overload]
        # The health lane answers from whichever process takes the probe.
        with grpc.insecure_channel(f"127.0.0.1:{health_port}") as channel:
            answer = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(), timeout=CALL_TIMEOUT_S)
        assert answer.status == health_pb2.HealthCheckResponse.SERVING
    finally:
        stop.set()
        for caller in callers:
            caller.join(CALL_TIMEOUT_S)
        for channel in channels:
            channel.close()
    # Calls on the killed process's connections fail (UNAVAILABLE, retried by clients
    # with a retry policy); no other code.
    assert set(failures) <= {"UNAVAILABLE"}, failures
