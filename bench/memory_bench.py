"""The server's memory under a burst of large requests, with gRPC's old bounds and the defaults.

Run alone with `python bench/memory_bench.py`, or through bench/run.py, which
calls `run()`. Each scenario starts a fresh `okey-server` subprocess (log
level warning, so no per-call line), sends BURST CheckHand requests at once
over one channel, each a `hand_notation` of about the given size (``R1 R1
R1 ...``, a request that is read and parsed before it is refused), waits for
every answer, and reads the server's memory from /proc/PID/status:

- before: VmRSS once the server has answered one call;
- peak: VmHWM (the most resident memory the process ever had) after the burst;
- after: VmRSS a moment after the last answer.

Scenarios:

- gRPC's defaults as the server had them (``--max-receive-bytes 4194304
  --max-concurrent-rpcs 100000``): BURST requests of just under 4 MiB, all read;
- the server's defaults, the same burst: every request is over the receive
  limit and refused RESOURCE_EXHAUSTED;
- the server's defaults, BURST requests just under its receive limit: the most
  a burst can make it read now.

The client builds one request and sends it BURST times; gRPC copies it per
call, so the client itself holds up to BURST times its size while it runs.
Linux only (/proc). Figures in docs/performance.md ("Memory under large
requests").
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # rpc_bench.py, when run as a script

import rpc_bench

BURST = 256
MIB = 1024 * 1024
OLD_RECEIVE_BYTES = 4 * MIB
OLD_FLAGS = ("--max-receive-bytes", str(OLD_RECEIVE_BYTES), "--max-concurrent-rpcs", "100000")
CHECK_HAND = "/okey.v1.HandService/CheckHand"
CALL_TIMEOUT_S = 120.0
# Room under a receive limit for the request's own framing (field tag, length).
FRAMING_BYTES = 64
# How long after the last answer "after" is read: enough for the server to free buffers.
SETTLE_S = 1.0


@dataclass(frozen=True)
class Memory:
    """One scenario's figures, in MB (10^6 bytes), and how the calls ended."""

    before_mb: float
    peak_mb: float
    after_mb: float
    seconds: float
    codes: Counter[str]


def memory_kb(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM of process `pid`, in kB, from /proc/PID/status."""
    values: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, rest = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            values[key] = int(rest.split()[0])
    return values


def large_request(size: int) -> bytes:
    """A serialized CheckHandRequest of about `size` bytes: a notation ``R1 R1 R1 ...``."""
    from okey.v1 import hand_pb2

    text = ("R1 " * (size // 3 + 1))[: max(size - FRAMING_BYTES, 0)]
    return hand_pb2.CheckHandRequest(hand_notation=text).SerializeToString()


def burst(address: str, request: bytes, count: int) -> Counter[str]:
    """Sends `request` `count` times at once (raw bytes); how many ended with each status code."""
    import grpc

    codes: Counter[str] = Counter()
    lock = threading.Lock()
    done = threading.Event()

    def on_done(future: Any) -> None:
        error = future.exception()
        with lock:
            codes[error.code().name if error is not None else "OK"] += 1
            if sum(codes.values()) == count:
                done.set()

    with grpc.insecure_channel(address, options=rpc_bench.CHANNEL_OPTIONS) as channel:
        method = channel.unary_unary(CHECK_HAND)
        for _ in range(count):
            method.future(request, timeout=CALL_TIMEOUT_S).add_done_callback(on_done)
        if not done.wait(CALL_TIMEOUT_S + 10):
            codes["(no answer)"] = count - sum(codes.values())
    return codes


def measure(flags: tuple[str, ...], request_bytes: int, count: int = BURST) -> Memory:
    """A fresh server with `flags`; `count` requests of `request_bytes` at once; its memory."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    request = large_request(request_bytes)
    with tempfile.NamedTemporaryFile(suffix=".log") as log:
        process, startup = rpc_bench.start_server(log, flags, log_level="warning")
        try:
            address = f"127.0.0.1:{startup['port']}"
            with grpc.insecure_channel(address, options=rpc_bench.CHANNEL_OPTIONS) as channel:
                health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest())
            before = memory_kb(process.pid)["VmRSS"]
            started = time.perf_counter()
            codes = burst(address, request, count)
            seconds = time.perf_counter() - started
            time.sleep(SETTLE_S)
            after = memory_kb(process.pid)
        finally:
            rpc_bench.stop_server(process)
    return Memory(before / 1000, after["VmHWM"] / 1000, after["VmRSS"] / 1000, seconds, codes)


def scenarios() -> list[tuple[str, tuple[str, ...], int]]:
    from okey_server.config import DEFAULT_MAX_RECEIVE_BYTES

    return [
        ("old bounds (4 MiB, 100000 RPCs), 4 MiB requests", OLD_FLAGS, OLD_RECEIVE_BYTES),
        ("defaults, 4 MiB requests", (), OLD_RECEIVE_BYTES),
        (f"defaults, requests just under {DEFAULT_MAX_RECEIVE_BYTES // 1024} KiB", (),
         DEFAULT_MAX_RECEIVE_BYTES),
    ]


def run() -> None:
    from okey_server.config import DEFAULT_MAX_CONCURRENT_RPCS, DEFAULT_MAX_RECEIVE_BYTES

    print(f"{BURST} CheckHand requests at once on one channel; server memory in MB "
          f"(defaults: --max-receive-bytes {DEFAULT_MAX_RECEIVE_BYTES}, "
          f"--max-concurrent-rpcs {DEFAULT_MAX_CONCURRENT_RPCS})")
    print(f"{'scenario':<52} {'before':>7} {'peak':>7} {'after':>7} {'s':>6}  codes")
    for name, flags, size in scenarios():
        figures = measure(flags, size)
        codes = ", ".join(f"{code} {n}" for code, n in sorted(figures.codes.items()))
        print(f"{name:<52} {figures.before_mb:7.0f} {figures.peak_mb:7.0f} "
              f"{figures.after_mb:7.0f} {figures.seconds:6.1f}  {codes}", flush=True)


if __name__ == "__main__":
    run()
