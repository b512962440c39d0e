"""Health Check and CheckHand calls per second against `okey-server --processes 1` and 2.

Run alone with `python bench/process_bench.py`, or through bench/run.py,
which calls `run()`. Both servers run at once as subprocesses (log level
info, to temporary files); the idle one costs nothing. The load comes from
CLIENTS client processes (each its own interpreter and GIL), each with
CONNECTIONS connections to each server (SO_REUSEPORT spreads connections,
not calls, over the server's processes) and IN_FLIGHT calls outstanding in
all. Rounds alternate servers and kinds in a rotating order, so machine
noise hits every combination alike.

What the ratio means depends on the cores: on a machine with more cores than
client and server processes want, two processes approach twice the calls/s
of one. On a 2-core machine the client processes need about as much CPU per
call as the server does, so clients and servers share the same two cores:
one server process already gets about half the machine, and a second can
only take CPU from the clients. The server CPU per call and each process's
share of the server CPU (printed too) show both processes worked.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # rpc_bench.py, when run as a script

import rpc_bench

PROCESS_COUNTS = (1, 2)
CLIENTS = 4
CONNECTIONS = 4  # per client and server: 16 connections, hashed over the server's processes
IN_FLIGHT = 48  # per client, spread over its connections
ROUNDS = 6
CALLS_PER_ROUND = 400  # per client
WARM_UP_CALLS = 200  # per client, connection and kind
KINDS = ("health Check", "CheckHand")
PATHS = {"health Check": rpc_bench.HEALTH_CHECK, "CheckHand": rpc_bench.CHECK_HAND}
# Each channel its own connection (grpc would otherwise share one between them).
CLIENT_CHANNEL_OPTIONS = (*rpc_bench.CHANNEL_OPTIONS, ("grpc.use_local_subchannel_pool", 1))


def _requests(client: int, calls: int) -> dict[str, list[bytes]]:
    from grpc_health.v1 import health_pb2

    health = health_pb2.HealthCheckRequest().SerializeToString()
    # Seeds apart from rpc_bench's and from every other client's: no hand repeats.
    hands = rpc_bench.mixed_hands(calls, 1000 + 10 * client)
    return {
        "health Check": [health] * calls,
        "CheckHand": [r.SerializeToString() for r in rpc_bench.check_hand_requests(hands, False)],
    }


def _drive_all(methods: list[Any], requests: list[bytes]) -> list[str]:
    """`requests` split over the connections, each driven from its own thread."""
    share = -(-len(requests) // len(methods))
    failures: list[str] = []
    threads = [
        threading.Thread(
            target=lambda m=method, part=requests[i * share : (i + 1) * share]: failures.extend(
                rpc_bench.drive(m, part, max(1, IN_FLIGHT // len(methods)))
            )
        )
        for i, method in enumerate(methods)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return failures


def client_loop(client: int, addresses: list[str], connection: Any) -> None:
    """One client process: connects, warms up, then runs each command it is sent."""
    import grpc

    calls = ROUNDS * CALLS_PER_ROUND
    requests = _requests(client, calls)
    channels = [
        [grpc.insecure_channel(address, options=CLIENT_CHANNEL_OPTIONS) for _ in range(CONNECTIONS)]
        for address in addresses
    ]
    methods = {
        (server, kind): [
            channel.unary_unary(PATHS[kind], request_serializer=None, response_deserializer=None)
            for channel in channels[server]
        ]
        for server in range(len(addresses))
        for kind in KINDS
    }
    for channel in (c for per_server in channels for c in per_server):
        grpc.channel_ready_future(channel).result(timeout=rpc_bench.START_TIMEOUT_S)
    warm_up = _requests(client + 500, WARM_UP_CALLS * CONNECTIONS)
    for (_server, kind), server_methods in methods.items():
        _drive_all(server_methods, warm_up[kind])
    connection.send("ready")
    while True:
        command = connection.recv()
        if command is None:
            break
        server, kind, round_index = command
        chunk = requests[kind][round_index * CALLS_PER_ROUND : (round_index + 1) * CALLS_PER_ROUND]
        cpu_before = time.process_time()
        failures = _drive_all(methods[(server, kind)], chunk)
        connection.send((len(chunk), time.process_time() - cpu_before, failures[:5]))
    for per_server in channels:
        for channel in per_server:
            channel.close()


def _pids(process: Any, startup: dict[str, Any]) -> list[int]:
    """The server's processes: the workers of a multi-process server, else itself."""
    return [process.pid, *startup.get("workers", [])]


def run() -> None:
    ctx = multiprocessing.get_context("spawn")
    with contextlib.ExitStack() as stack:
        servers = []
        for count in PROCESS_COUNTS:
            log = stack.enter_context(
                tempfile.NamedTemporaryFile(prefix=f"okey-bench-p{count}-", suffix=".log")
            )
            process, startup = rpc_bench.start_server(log, ["--processes", str(count)])
            stack.callback(rpc_bench.stop_server, process)
            servers.append((count, process, startup))
        addresses = [f"127.0.0.1:{startup['port']}" for _, _, startup in servers]
        print(
            f"process benchmark: okey-server --processes 1 and 2 (log level info) on "
            f"{os.cpu_count()} cores; {CLIENTS} client processes x {CONNECTIONS} connections "
            f"per server, {IN_FLIGHT} calls in flight per client; {ROUNDS} interleaved rounds "
            f"of {CLIENTS * CALLS_PER_ROUND:,} calls per server and kind",
            flush=True,
        )
        clients = []
        for client in range(CLIENTS):
            ours, theirs = ctx.Pipe()
            worker = ctx.Process(target=client_loop, args=(client, addresses, theirs), daemon=True)
            worker.start()
            clients.append((worker, ours))
            stack.callback(worker.kill)
        for _, pipe in clients:
            if not pipe.poll(120) or pipe.recv() != "ready":
                raise RuntimeError("a client process did not start")
        tallies, shares = _measure(servers, clients)
        for worker, pipe in clients:
            pipe.send(None)
            worker.join(10)
    _report(tallies, shares)


def _measure(
    servers: list[tuple[int, Any, dict[str, Any]]], clients: list[tuple[Any, Any]]
) -> tuple[dict[tuple[int, str], rpc_bench.Tally], dict[int, float]]:
    tallies = {(count, kind): rpc_bench.Tally() for count, _, _ in servers for kind in KINDS}
    combos = [(index, kind) for index in range(len(servers)) for kind in KINDS]
    worker_cpu: dict[int, float] = {}
    for round_index in range(ROUNDS):
        shift = round_index % len(combos)
        for server, kind in combos[shift:] + combos[:shift]:
            count, process, startup = servers[server]
            pids = _pids(process, startup)
            before = [rpc_bench.server_cpu_s(pid) for pid in pids]
            started = time.perf_counter()
            for _, pipe in clients:
                pipe.send((server, kind, round_index))
            answers = [pipe.recv() for _, pipe in clients]
            elapsed = time.perf_counter() - started
            spent = [rpc_bench.server_cpu_s(pid) - b for pid, b in zip(pids, before, strict=True)]
            tally = tallies[(count, kind)]
            tally.calls += sum(calls for calls, _, _ in answers)
            tally.seconds += elapsed
            tally.server_cpu_s += sum(spent)
            tally.client_cpu_s += sum(cpu for _, cpu, _ in answers)
            for _, _, failures in answers:
                tally.failures += failures
            if count > 1:
                for pid, cpu in zip(pids, spent, strict=True):
                    worker_cpu[pid] = worker_cpu.get(pid, 0.0) + cpu
    total = sum(worker_cpu.values()) or 1.0
    return tallies, {pid: cpu / total for pid, cpu in worker_cpu.items()}


def _report(tallies: dict[tuple[int, str], rpc_bench.Tally], shares: dict[int, float]) -> None:
    for (count, kind), tally in tallies.items():
        processes = f"{count} process{'es' if count > 1 else '  '}"
        print(
            f"  {processes} {kind:<13} {tally.per_s:>7,.0f} calls/s"
            f"   server {tally.us_per_call(tally.server_cpu_s):>4.0f} CPU-µs/call"
            f"   clients {tally.us_per_call(tally.client_cpu_s):>4.0f}"
        )
        for failure in tally.failures:
            print(f"    FAILED: {failure}")
    for kind in KINDS:
        one, two = tallies[(1, kind)], tallies[(2, kind)]
        print(f"  {kind}: 2 processes / 1 process = {two.per_s / one.per_s:.2f}")
    split = ", ".join(f"{share:.0%}" for share in shares.values())
    print(f"  the 2-process server's CPU by process (parent first): {split}")


if __name__ == "__main__":
    run()
