"""`okey-server --processes N`: N server processes share the port; one startup line, one key,
signals forwarded and drained, a dead process restarted; metrics summed over the processes."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from metrics_scrape import free_port, listening_ports, scrape, value
from okey.v1 import deal_pb2, deal_pb2_grpc, game_pb2, game_pb2_grpc, hand_pb2, hand_pb2_grpc
from okey_rules.errors import InvalidInputError
from okey_server.wire.convert_state import state_from_token

pytestmark = pytest.mark.e2e

# Each channel its own connection: grpc otherwise shares one among channels to
# the same address, and SO_REUSEPORT spreads connections, not calls.
FRESH = (("grpc.so_reuseport", 0), ("grpc.use_local_subchannel_pool", 1))
# Connections tried before giving up on reaching both processes: the kernel
# hashes each to one of two, so all of 40 landing on one is a 1 in 2^39 event.
MAX_CONNECTIONS = 40
LOG_WAIT_S = 10.0
WINNING = "R1 R2 R3 Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12 K13"
HAND = "okey.v1.HandService"


def served_by_each(server, request_ids: list[str]) -> list[int]:
    """The pid on the rpc log line of each request id (a thread writes the lines: waits)."""
    deadline = time.monotonic() + LOG_WAIT_S
    while True:
        pids = {line["request_id"]: int(line["pid"]) for line in server.log_lines()
                if line.get("event") == "rpc" and line.get("request_id") in request_ids}
        if len(pids) == len(request_ids):
            return [pids[request_id] for request_id in request_ids]
        if time.monotonic() > deadline:
            raise AssertionError(f"no rpc line for {set(request_ids) - set(pids)}")
        time.sleep(0.02)


def served_by(server, request_id: str) -> int:
    return served_by_each(server, [request_id])[0]


def health_check(channel: grpc.Channel, request_id: str) -> int:
    answer = health_pb2_grpc.HealthStub(channel).Check(
        health_pb2.HealthCheckRequest(), metadata=(("x-request-id", request_id),), timeout=10
    )
    return answer.status


def connections_to_each_worker(
    server, workers: set[int] | None = None
) -> dict[int, grpc.Channel]:
    """One open channel per server process (`workers`, default those of the startup line),
    found by opening fresh connections until each has answered one (the caller closes them)."""
    workers = workers or set(server.startup["workers"])
    found: dict[int, grpc.Channel] = {}
    for attempt in range(MAX_CONNECTIONS):
        channel = grpc.insecure_channel(server.address, options=FRESH)
        request_id = f"connection-{attempt}"
        assert health_check(channel, request_id) == health_pb2.HealthCheckResponse.SERVING
        pid = served_by(server, request_id)
        assert pid in workers
        if pid in found:
            channel.close()
        else:
            found[pid] = channel
        if len(found) == len(workers):
            return found
    for channel in found.values():
        channel.close()
    raise AssertionError(f"{MAX_CONNECTIONS} connections reached only {sorted(found)}")


def test_two_processes_print_one_startup_line_and_both_serve_over_fresh_connections(
    start_server_process,
) -> None:
    server = start_server_process("--port", "0", "--processes", "2")
    try:
        startup = server.startup
        assert startup["processes"] == 2
        assert startup["pid"] == server.process.pid
        workers = startup["workers"]
        assert len(set(workers)) == 2
        assert server.process.pid not in workers
        serving = [line for line in server.log_lines() if line["event"] == "serving"]
        assert len(serving) == 1  # the workers say "worker serving"
        worker_lines = {line["pid"] for line in server.log_lines()
                        if line["event"] == "worker serving"}
        assert worker_lines == set(workers)

        channels = connections_to_each_worker(server)
        try:
            # Health reports SERVING in each process (checked on the way), and
            # many calls over each connection stay with its process.
            for pid, channel in channels.items():
                stub = hand_pb2_grpc.HandServiceStub(channel)
                request_ids = [f"hand-{pid}-{index}" for index in range(10)]
                for request_id in request_ids:
                    answer = stub.CheckHand(
                        hand_pb2.CheckHandRequest(hand_notation=WINNING, okey_notation="R5"),
                        metadata=(("x-request-id", request_id),), timeout=10,
                    )
                    assert answer.winning
                assert served_by_each(server, request_ids) == [pid] * len(request_ids)
        finally:
            for channel in channels.values():
                channel.close()
        # The parent itself serves nothing: only the workers listen on the port.
        assert server.port not in listening_ports(server.process.pid)
        for pid in workers:
            assert server.port in listening_ports(pid)
    finally:
        assert server.stop() == 0


def test_a_state_sealed_by_one_process_is_accepted_by_the_other(start_server_process) -> None:
    """No OKEY_SIGNING_KEY: the parent's one random key is every process's key."""
    server = start_server_process("--port", "0", "--processes", "2")
    channels = connections_to_each_worker(server)
    try:
        (first, one), (second, other) = channels.items()
        deal = deal_pb2_grpc.DealServiceStub(one).Deal(
            deal_pb2.DealRequest(seed="processes-share-a-key"),
            metadata=(("x-request-id", "deal"),), timeout=10,
        )
        moves = game_pb2_grpc.GameServiceStub(other).LegalMoves(
            game_pb2.LegalMovesRequest(state=deal.state, seat=deal.status.turn_seat),
            metadata=(("x-request-id", "legal-moves"),), timeout=10,
        )
        assert served_by(server, "deal") == first
        assert served_by(server, "legal-moves") == second
        assert first != second
        assert len(moves.moves) > 0
        # The check is real: a token changed in its last byte (the ciphertext) is refused
        # by the same process.
        tampered = deal.state[:-1] + bytes([deal.state[-1] ^ 1])
        with pytest.raises(grpc.RpcError) as refused:
            game_pb2_grpc.GameServiceStub(other).LegalMoves(
                game_pb2.LegalMovesRequest(state=tampered, seat=deal.status.turn_seat), timeout=10
            )
        assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT
        assert "does not open" in refused.value.details()
    finally:
        for channel in channels.values():
            channel.close()
        assert server.stop() == 0


def test_the_signing_key_reaches_the_processes_through_the_pipe_only(
    start_server_process,
) -> None:
    """OKEY_SIGNING_KEY given to the parent: the server processes seal with it, yet no OKEY_*
    variable (the key least of all) is in their environment; the pipe carried the config."""
    key_text = "6f6b65792d72756c657320746573742070697065206b6579206e6f742061207365637265"
    server = start_server_process("--port", "0", "--processes", "2",
                                  env={"OKEY_SIGNING_KEY": key_text})
    try:
        for pid in server.startup["workers"]:
            environment = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
            names = {entry.partition(b"=")[0] for entry in environment}
            assert {name for name in names if name.startswith(b"OKEY_")} == set()
            assert not [entry for entry in environment if key_text.encode() in entry]
        # The parent's own environment is the operator's: it still holds the variable.
        assert key_text.encode() in Path(f"/proc/{server.process.pid}/environ").read_bytes()
        channels = connections_to_each_worker(server)
        try:
            for channel in channels.values():
                deal = deal_pb2_grpc.DealServiceStub(channel).Deal(
                    deal_pb2.DealRequest(seed="signed-with-the-given-key"), timeout=10
                )
                # The token opens under the given key, and not under another one.
                opened = state_from_token(deal.state, bytes.fromhex(key_text), cached=False)
                assert opened.move_number == 0
                with pytest.raises(InvalidInputError):
                    state_from_token(deal.state, b"some other key, 32 bytes long...")
        finally:
            for channel in channels.values():
                channel.close()
    finally:
        assert server.stop() == 0


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_to_the_parent_drains_every_process_and_exits_0(
    start_server_process, signum: int
) -> None:
    server = start_server_process("--port", "0", "--processes", "2", "--grace", "5")
    workers = server.startup["workers"]
    with grpc.insecure_channel(server.address, options=FRESH) as channel:
        assert health_check(channel, "before") == health_pb2.HealthCheckResponse.SERVING
    assert server.stop(signum) == 0
    lines = server.log_lines()
    parent = [line["event"] for line in lines if line["pid"] == server.process.pid]
    assert parent[-2:] == ["draining", "stopped"]
    assert lines[-1]["event"] == "stopped"
    assert lines[-1]["exit_code"] == 0
    for pid in workers:
        events = [line["event"] for line in lines if line["pid"] == pid]
        # SIGTERM forwarded once: a drain, not "stopping now".
        assert events[-2:] == ["worker draining", "worker stopped"], events
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


def test_a_worker_that_dies_is_logged_and_restarted(start_server_process) -> None:
    server = start_server_process("--port", "0", "--processes", "2")
    dead, alive = server.startup["workers"]
    os.kill(dead, signal.SIGKILL)
    deadline = time.monotonic() + LOG_WAIT_S * 3
    restarted = None
    while restarted is None and time.monotonic() < deadline:
        for line in server.log_lines():
            if line["event"] == "worker serving" and line["pid"] not in (dead, alive):
                restarted = line["pid"]
        time.sleep(0.1)
    assert restarted is not None, server.log_path.read_text()
    lines = server.log_lines()
    exited = [line for line in lines if line["event"] == "worker exited"]
    assert len(exited) == 1
    assert exited[0]["worker_pid"] == dead
    assert exited[0]["signal"] == "SIGKILL"
    assert exited[0]["level"] == "error"
    channels = connections_to_each_worker(server, {alive, restarted})
    for channel in channels.values():
        channel.close()
    assert server.stop() == 0


def test_a_taken_port_stops_the_start_with_exit_1(start_server_process) -> None:
    """As with one process: a port another server holds is an error, not a shared port."""
    first = start_server_process("--port", "0")
    try:
        clean = {k: v for k, v in os.environ.items() if not k.startswith("OKEY_")}
        second = subprocess.run(
            [*first.command, "--port", str(first.port), "--processes", "2"],
            capture_output=True, timeout=60, env=clean, check=False,
        )
        assert second.returncode == 1
        assert b"cannot start" in second.stderr
    finally:
        assert first.stop() == 0


def test_one_process_is_the_server_itself(start_server_process) -> None:
    """--processes 1 (the default) starts no other process and binds no shared port."""
    server = start_server_process("--port", "0", "--processes", "1")
    try:
        assert "workers" not in server.startup
        assert server.startup["pid"] == server.process.pid
        assert listening_ports(server.process.pid) == {server.port}
        pid = server.process.pid
        assert Path(f"/proc/{pid}/task/{pid}/children").read_text().split() == []
        # SO_REUSEPORT stays off: a second bind of the port fails.
        with socket.socket() as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            with pytest.raises(OSError, match="in use"):
                probe.bind(("127.0.0.1", server.port))
    finally:
        assert server.stop() == 0


def test_metrics_of_two_processes_are_summed_on_the_parents_port(start_server_process) -> None:
    metrics_port = free_port()
    server = start_server_process(
        "--port", "0", "--processes", "2", "--metrics-port", str(metrics_port)
    )
    assert server.startup["metrics_port"] == metrics_port
    channels = connections_to_each_worker(server)
    calls: dict[int, int] = {}
    try:
        for count, (pid, channel) in enumerate(channels.items(), start=2):
            stub = hand_pb2_grpc.HandServiceStub(channel)
            for _ in range(count):
                stub.CheckHand(hand_pb2.CheckHandRequest(hand_notation=WINNING,
                                                         okey_notation="R5"), timeout=10)
            with pytest.raises(grpc.RpcError):
                stub.CheckHand(hand_pb2.CheckHandRequest(hand_notation="R99"), timeout=10)
            calls[pid] = count
    finally:
        for channel in channels.values():
            channel.close()
    samples = scrape(f"http://127.0.0.1:{metrics_port}/metrics")
    check_hand = {"grpc_service": HAND, "grpc_method": "CheckHand"}
    assert value(samples, "grpc_server_handled_total", grpc_code="OK", **check_hand) == sum(
        calls.values()
    )
    assert value(samples, "grpc_server_handled_total", grpc_code="INVALID_ARGUMENT",
                 **check_hand) == 2
    assert value(samples, "grpc_server_handling_seconds_count", **check_hand) == sum(
        calls.values()
    ) + 2
    # Health Checks: one per connection tried, each answered by one process or the other.
    tried = sum(1 for line in server.log_lines()
                if line["event"] == "rpc" and line["method"].endswith("Health/Check"))
    assert value(samples, "grpc_server_handled_total", grpc_method="Check", grpc_code="OK") == tried
    assert server.stop() == 0
    with pytest.raises(ConnectionRefusedError):  # the parent closed the metrics port
        socket.create_connection(("127.0.0.1", metrics_port), timeout=2).close()


def test_metrics_are_off_by_default_and_one_process_serves_its_own(start_server_process) -> None:
    plain = start_server_process("--port", "0")
    try:
        assert "metrics_port" not in plain.startup
        assert listening_ports(plain.process.pid) == {plain.port}  # no metrics port
    finally:
        assert plain.stop() == 0

    metrics_port = free_port()
    server = start_server_process("--port", "0", "--metrics-port", str(metrics_port))
    try:
        assert server.startup["metrics_port"] == metrics_port
        assert listening_ports(server.process.pid) == {server.port, metrics_port}
        with grpc.insecure_channel(server.address, options=FRESH) as channel:
            stub = hand_pb2_grpc.HandServiceStub(channel)
            stub.CheckHand(hand_pb2.CheckHandRequest(hand_notation=WINNING, okey_notation="R5"))
        samples = scrape(f"http://127.0.0.1:{metrics_port}/metrics")
        assert value(samples, "grpc_server_handled_total", grpc_service=HAND,
                     grpc_method="CheckHand", grpc_code="OK") == 1
    finally:
        assert server.stop() == 0
