"""Deal benchmark: deals per second in-process (engine, engine + proto) and over gRPC.

Run alone with `python bench/deal_bench.py`, or through bench/run.py, which
calls `run()`. Target (issue 3): at least 5,000 informal deals/s in-process.
The gRPC figures are taken against a server subprocess beside the health
Check RPC of the same server as the empty-RPC baseline; on a 2-core machine
the Python client burns most of a core, so read them as a ratio.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TARGET_INFORMAL_PER_S = 5_000
IN_PROCESS_S = 1.5
RPC_S = 3.0
# Half the server's 32 open calls per connection (--max-streams-per-connection), as
# docs/operations.md advises: gRPC core counts a finished stream against the cap until the
# server frees it, so a connection kept at its cap gets new calls refused (RST_STREAM
# REFUSED_STREAM, seen as UNAVAILABLE).
IN_FLIGHT = 16
CHANNEL_OPTIONS = (("grpc.so_reuseport", 0),)


def _rate(work: Callable[[int], object], seconds: float) -> tuple[float, float]:
    """(calls per second, mean µs per call) of `work(i)` run for about `seconds`."""
    for i in range(200):  # warm caches and lazy imports
        work(i)
    done, started = 0, time.perf_counter()
    while True:
        for i in range(done, done + 500):
            work(i)
        done += 500
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return done / elapsed, elapsed / done * 1e6


def in_process() -> dict[str, tuple[float, float]]:
    from okey.v1 import deal_pb2
    from okey_rules import preset
    from okey_rules.dealing.deal import deal
    from okey_rules.dealing.deal_types import DealMethod
    from okey_server.services.deal_request import deal_for_request
    from okey_server.wire.convert_deal import deal_to_proto
    from okey_server.wire.convert_state import state_token
    from okey_server.wire.round_status import round_status
    from okey_server.wire.sealing import KeyRing

    def answer(seed: str, method: int) -> object:
        # What the Deal RPC (DealServicer.Deal) does between decoding the request and
        # encoding the answer: the deal, its tiles, the sealed state and its public facts.
        dealt = deal_for_request(deal_pb2.DealRequest(seed=seed, method=method), keys)
        response = deal_to_proto(dealt.deal)
        response.seed = dealt.seed
        response.deal_id = dealt.deal_id
        response.round = dealt.state.round
        response.state = state_token(dealt.state, keys)
        response.status.CopyFrom(round_status(dealt.state))
        return response

    okey_101 = preset("101")
    keys = KeyRing(b"bench key")
    cases: dict[str, Callable[[int], object]] = {
        "informal classic (engine)": lambda i: deal(seed=f"bench-{i}"),
        "formal classic (engine)": lambda i: deal(seed=f"bench-{i}", method=DealMethod.FORMAL),
        "informal 101 (engine)": lambda i: deal(okey_101, seed=f"bench-{i}"),
        "informal classic + DealResponse": lambda i: answer(
            f"bench-{i}", deal_pb2.DEAL_METHOD_INFORMAL
        ),
        "formal classic + DealResponse": lambda i: answer(
            f"bench-{i}", deal_pb2.DEAL_METHOD_FORMAL
        ),
    }
    return {name: _rate(work, IN_PROCESS_S) for name, work in cases.items()}


def _start_server() -> tuple[subprocess.Popen[bytes], str]:
    server_bin = Path(sys.executable).with_name("okey-server")
    command = [str(server_bin)] if server_bin.exists() else [sys.executable, "-m",
                                                             "okey_server.main"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("OKEY_")}
    env["OKEY_LOG_LEVEL"] = "warning"
    process = subprocess.Popen(
        [*command, "--port", "0", "--host", "127.0.0.1"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
    )
    assert process.stdout is not None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if entry.get("event") == "serving":
            return process, f"127.0.0.1:{entry['port']}"
    process.kill()
    raise RuntimeError("okey-server did not start")


def _rpc_rate(method: Any, request: Any, seconds: float) -> float:
    """Calls per second with up to IN_FLIGHT calls outstanding (a semaphore window)."""
    import itertools
    import threading

    window = threading.Semaphore(IN_FLIGHT)
    completed = itertools.count()  # next() is atomic in CPython: safe from callbacks
    failures: list[str] = []

    def on_done(future: Any) -> None:
        # A failed call fails the benchmark, after the run: raising here would lose the
        # exception in gRPC's callback thread and never release the window (a hang).
        error = future.exception()
        if error is not None:
            failures.append(f"{error.code().name}: {error.details()}")
        next(completed)
        window.release()

    for _ in range(200):
        method(request)
    started = time.perf_counter()
    deadline = started + seconds
    while time.perf_counter() < deadline:
        window.acquire()
        method.future(request).add_done_callback(on_done)
    for _ in range(IN_FLIGHT):  # wait for the calls still in flight
        window.acquire()
    elapsed = time.perf_counter() - started
    if failures:
        raise RuntimeError(f"{len(failures)} calls failed, first: {failures[0]}")
    return (next(completed)) / elapsed


def over_grpc() -> dict[str, float]:
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc
    from okey.v1 import deal_pb2, deal_pb2_grpc

    process, address = _start_server()
    try:
        with grpc.insecure_channel(address, options=CHANNEL_OPTIONS) as channel:
            health = health_pb2_grpc.HealthStub(channel)
            deals = deal_pb2_grpc.DealServiceStub(channel)
            return {
                "health Check (baseline)": _rpc_rate(
                    health.Check, health_pb2.HealthCheckRequest(), RPC_S
                ),
                "Deal informal classic": _rpc_rate(
                    deals.Deal, deal_pb2.DealRequest(seed="bench"), RPC_S
                ),
                "Deal formal classic": _rpc_rate(
                    deals.Deal,
                    deal_pb2.DealRequest(seed="bench", method=deal_pb2.DEAL_METHOD_FORMAL),
                    RPC_S,
                ),
            }
    finally:
        process.terminate()
        process.wait(30)


def run() -> None:
    print("deal benchmark: in-process (one core)")
    results = in_process()
    for name, (per_s, micros) in results.items():
        print(f"  {name:<34} {per_s:>9,.0f} deals/s  {micros:>7.1f} µs/deal")
    informal = results["informal classic (engine)"][0]
    verdict = "meets" if informal >= TARGET_INFORMAL_PER_S else "MISSES"
    print(f"  target >= {TARGET_INFORMAL_PER_S:,} informal deals/s: {verdict}")
    print(f"deal benchmark: over gRPC ({IN_FLIGHT} calls in flight, server subprocess)")
    rpc = over_grpc()
    baseline = rpc["health Check (baseline)"]
    for name, per_s in rpc.items():
        print(f"  {name:<34} {per_s:>9,.0f} calls/s  {per_s / baseline:>6.0%} of baseline")


if __name__ == "__main__":
    run()
