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

**The worst legal request at the concurrency limit** (the figure the
Kubernetes memory limit is set from). A request just under the receive
limit is not equally costly in every shape: a string is held about as many
bytes as it has, but a repeated message field of empty messages (2 bytes
each on the wire) becomes one parsed message per element, tens of bytes
each. `worst_shapes` builds, for every request type of the four okey
services, a request that fills one of its repeated message fields (reached
through singular message fields) with empty elements up to the limit,
parses a few copies in this process and weighs them (glibc's mallinfo2),
worst first. Every method whose shape parses within WORST_SHARE of the
worst is then sent to a fresh server: `--max-concurrent-rpcs` calls at
once, spread over WORST_CONNECTIONS connections (so no per-connection cap
holds them back), WORST_BURSTS times in a row (memory a burst leaves
fragmented shows as a higher peak in the next), then twice that many calls
once (what is past the limit must be refused or queued cheaply). The
highest peak (VmHWM) over the start, added to the at-rest ceiling
documented in docs/operations.md (AT_REST_MB: the bounded caches full), is
compared with the memory limit of deploy/k8s/deployment.yaml; this is run
with the server's defaults, then with the bounds the manifest sets
(OKEY_MAX_RECEIVE_BYTES: the figure its limit is set from).
`python bench/memory_bench.py --worst-case [server flags]` runs this part
alone (say, with another --max-receive-bytes).

Linux only (/proc). Figures in docs/performance.md ("Memory under large
requests") and docs/operations.md ("Memory budget").
"""

from __future__ import annotations

import ctypes
import gc
import re
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Iterator
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
# The worst-case runs: connections the calls are spread over, bursts in a row.
WORST_CONNECTIONS = 8
WORST_BURSTS = 3
# Parsed copies of each request shape held at once to weigh it (more: steadier figure).
SURVEY_COPIES = 8
SURVEY_SHOWN = 5
# Shapes within this share of the worst parsed size are all sent to a server.
WORST_SHARE = 0.95
# The most a long-running process holds at rest, its bounded caches full
# (docs/operations.md, "Memory budget"): the worst burst comes on top of it.
AT_REST_MB = 130
DEPLOYMENT = Path(__file__).resolve().parent.parent / "deploy" / "k8s" / "deployment.yaml"


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


def burst(
    address: str, request: bytes, count: int, method_path: str = CHECK_HAND, connections: int = 1
) -> Counter[str]:
    """Sends `request` `count` times at once (raw bytes) to `method_path`, spread over
    `connections` connections; how many ended with each status code."""
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

    # Each channel its own connection (grpc shares one among channels to an address).
    options = (*rpc_bench.CHANNEL_OPTIONS, ("grpc.use_local_subchannel_pool", 1))
    channels = [grpc.insecure_channel(address, options=options) for _ in range(connections)]
    try:
        methods = [channel.unary_unary(method_path) for channel in channels]
        for index in range(count):
            methods[index % connections].future(request, timeout=CALL_TIMEOUT_S).add_done_callback(
                on_done
            )
        if not done.wait(CALL_TIMEOUT_S + 10):
            with lock:
                codes["(no answer)"] = count - sum(codes.values())
    finally:
        for channel in channels:
            channel.close()
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


@dataclass(frozen=True)
class Shape:
    """A request made of empty elements of one repeated message field, and its parsed cost."""

    method_path: str
    field_path: str
    wire: bytes
    parsed_mb: float


def _varint(number: int) -> bytes:
    out = bytearray()
    while number >= 0x80:
        out.append(number & 0x7F | 0x80)
        number >>= 7
    out.append(number)
    return bytes(out)


def _repeated_paths(message: Any, depth: int = 4) -> Iterator[tuple[Any, ...]]:
    """Chains of singular message fields of `message` (a descriptor) ending in a repeated
    message field (map fields included), at most `depth` fields long."""
    for field in message.fields:
        if field.message_type is None:
            continue
        if field.is_repeated:
            yield (field,)
        elif depth > 1:
            for rest in _repeated_paths(field.message_type, depth - 1):
                yield (field, *rest)


def _empty_elements(path: tuple[Any, ...], size: int) -> bytes:
    """A serialized request of at most `size` bytes: the last field of `path` repeated with
    empty elements, nested in the fields before it."""
    *outer, repeated = path
    element = _varint(repeated.number << 3 | 2) + b"\x00"
    # Room for the outer fields' tags and lengths (at most 10 bytes each).
    count = (size - 10 * len(outer) - FRAMING_BYTES) // len(element)
    wire = element * count
    for field in reversed(outer):
        wire = _varint(field.number << 3 | 2) + _varint(len(wire)) + wire
    assert len(wire) <= size
    return wire


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def _malloc_in_use() -> int:
    """Bytes this process holds from malloc now (glibc's mallinfo2: heap blocks in use plus
    mmap'd ones). Unlike RSS it goes down when memory is freed, so shapes weighed one after
    another do not hide in memory the previous one gave back to malloc."""
    libc = ctypes.CDLL(None)
    libc.mallinfo2.restype = _MallInfo2
    info = libc.mallinfo2()
    return int(info.uordblks + info.hblkhd)


def worst_shapes(size: int) -> list[Shape]:
    """Every request shape `_repeated_paths` finds in the okey services, just under `size`
    bytes, by the memory one parsed copy holds (measured in this process), worst first."""
    from google.protobuf import message_factory
    from okey.v1 import deal_pb2, game_pb2, hand_pb2, scoring_pb2

    shapes = []
    for module in (deal_pb2, game_pb2, hand_pb2, scoring_pb2):
        for service in module.DESCRIPTOR.services_by_name.values():
            for method in service.methods:
                parse = message_factory.GetMessageClass(method.input_type).FromString
                for path in _repeated_paths(method.input_type):
                    wire = _empty_elements(path, size)
                    gc.collect()
                    before = _malloc_in_use()
                    held = [parse(wire) for _ in range(SURVEY_COPIES)]
                    parsed_mb = (_malloc_in_use() - before) / 1e6 / SURVEY_COPIES
                    del held
                    shapes.append(Shape(f"/{service.full_name}/{method.name}",
                                        ".".join(field.name for field in path), wire, parsed_mb))
    return sorted(shapes, key=lambda shape: -shape.parsed_mb)


@dataclass(frozen=True)
class Peak:
    """The worst-case run's figures, in MB."""

    start_mb: float
    peaks_mb: list[float]
    over_limit_peak_mb: float
    after_mb: float
    codes: list[Counter[str]]


def worst_case(shape: Shape, calls: int, flags: tuple[str, ...] = ()) -> Peak:
    """`shape` sent `calls` at once over WORST_CONNECTIONS connections, WORST_BURSTS times,
    then 2 x `calls` once, to one fresh server; its memory after each."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    with tempfile.NamedTemporaryFile(suffix=".log") as log:
        process, startup = rpc_bench.start_server(log, flags, log_level="warning")
        try:
            address = f"127.0.0.1:{startup['port']}"
            with grpc.insecure_channel(address, options=rpc_bench.CHANNEL_OPTIONS) as channel:
                health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest())
            start = memory_kb(process.pid)["VmRSS"]
            peaks, codes = [], []
            for _ in range(WORST_BURSTS):
                codes.append(burst(address, shape.wire, calls, shape.method_path,
                                   WORST_CONNECTIONS))
                peaks.append(memory_kb(process.pid)["VmHWM"] / 1000)
            codes.append(burst(address, shape.wire, 2 * calls, shape.method_path,
                               WORST_CONNECTIONS))
            time.sleep(SETTLE_S)
            after = memory_kb(process.pid)
        finally:
            rpc_bench.stop_server(process)
    return Peak(start / 1000, peaks, after["VmHWM"] / 1000, after["VmRSS"] / 1000, codes)


def manifest_memory_mib() -> dict[str, int]:
    """The Deployment's memory request and limit, in MiB (``memory: 256Mi`` lines)."""
    text = DEPLOYMENT.read_text()
    found = {}
    for kind in ("requests", "limits"):
        match = re.search(kind + r":\n(?:\s+cpu:.*\n)?\s+memory:\s*(\d+)Mi\b", text)
        if match is None:
            raise RuntimeError(f"no memory {kind} in {DEPLOYMENT}")
        found[kind] = int(match.group(1))
    return found


def manifest_flags() -> tuple[str, ...]:
    """The server flags the Deployment sets through the variables of the memory bound
    (OKEY_MAX_RECEIVE_BYTES, OKEY_MAX_CONCURRENT_RPCS), as command-line flags."""
    text = DEPLOYMENT.read_text()
    flags: tuple[str, ...] = ()
    for variable, flag in (("OKEY_MAX_RECEIVE_BYTES", "--max-receive-bytes"),
                           ("OKEY_MAX_CONCURRENT_RPCS", "--max-concurrent-rpcs")):
        match = re.search(r"- name: " + variable + r'\n\s+value: "?(\d+)"?', text)
        if match is not None:
            flags += (flag, match.group(1))
    return flags


def scenarios() -> list[tuple[str, tuple[str, ...], int]]:
    from okey_server.rpc.config import DEFAULT_MAX_RECEIVE_BYTES

    return [
        ("old bounds (4 MiB, 100000 RPCs), 4 MiB requests", OLD_FLAGS, OLD_RECEIVE_BYTES),
        ("defaults, 4 MiB requests", (), OLD_RECEIVE_BYTES),
        (f"defaults, requests just under {DEFAULT_MAX_RECEIVE_BYTES // 1024} KiB", (),
         DEFAULT_MAX_RECEIVE_BYTES),
    ]


def run() -> None:
    from okey_server.rpc.config import DEFAULT_MAX_CONCURRENT_RPCS, DEFAULT_MAX_RECEIVE_BYTES

    print(f"{BURST} CheckHand requests at once on one channel; server memory in MB "
          f"(defaults: --max-receive-bytes {DEFAULT_MAX_RECEIVE_BYTES}, "
          f"--max-concurrent-rpcs {DEFAULT_MAX_CONCURRENT_RPCS})")
    print(f"{'scenario':<52} {'before':>7} {'peak':>7} {'after':>7} {'s':>6}  codes")
    for name, flags, size in scenarios():
        figures = measure(flags, size)
        codes = ", ".join(f"{code} {n}" for code, n in sorted(figures.codes.items()))
        print(f"{name:<52} {figures.before_mb:7.0f} {figures.peak_mb:7.0f} "
              f"{figures.after_mb:7.0f} {figures.seconds:6.1f}  {codes}", flush=True)
    # With the server's defaults, then as the Kubernetes manifest runs it (the
    # figure its memory limit is set from), if it sets other bounds.
    print("\n--- the worst case with the server's defaults")
    run_worst_case()
    flags = manifest_flags()
    if flags:
        print(f"\n--- the worst case as deploy/k8s/deployment.yaml runs the server: "
              f"{' '.join(flags)}")
        run_worst_case(flags)


def _codes(codes: Counter[str]) -> str:
    return ", ".join(f"{code} {n}" for code, n in sorted(codes.items()))


def run_worst_case(flags: tuple[str, ...] = ()) -> None:
    """The worst legal request at the concurrency limit against the manifest's memory limit
    (`flags`: more server flags, for trying other limits by hand)."""
    from okey_server.rpc.config import DEFAULT_MAX_CONCURRENT_RPCS, DEFAULT_MAX_RECEIVE_BYTES

    size = DEFAULT_MAX_RECEIVE_BYTES
    if "--max-receive-bytes" in flags:
        size = int(flags[flags.index("--max-receive-bytes") + 1])
    calls = DEFAULT_MAX_CONCURRENT_RPCS
    if "--max-concurrent-rpcs" in flags:
        calls = int(flags[flags.index("--max-concurrent-rpcs") + 1])
    shapes = worst_shapes(size)
    print(f"\nRequest shapes just under {size} bytes, by memory one parsed copy holds "
          f"(in-process, {len(shapes)} shapes, the {SURVEY_SHOWN} worst):")
    for shape in shapes[:SURVEY_SHOWN]:
        print(f"  {shape.parsed_mb:6.1f} MB  {shape.method_path} {shape.field_path} "
              f"({len(shape.wire)} bytes)")
    # The costliest shape of each method among those that parse as badly as the worst:
    # how long each handler keeps its request decides how many are held at once.
    worst: dict[str, Shape] = {}
    for shape in shapes:
        if shape.parsed_mb >= WORST_SHARE * shapes[0].parsed_mb:
            worst.setdefault(shape.method_path, shape)
    print(f"\nWorst legal requests at the concurrency limit: {calls} calls at once over "
          f"{WORST_CONNECTIONS} connections, {WORST_BURSTS} bursts, then {2 * calls} calls once; "
          f"server memory in MB (peak: VmHWM after each burst)")
    highest, start = 0.0, 0.0
    for shape in worst.values():
        peak = worst_case(shape, calls, flags)
        burst_peaks = " ".join(f"{mb:5.0f}" for mb in peak.peaks_mb)
        print(f"  {shape.method_path} {shape.field_path}: start {peak.start_mb:.0f}, "
              f"peaks {burst_peaks}, {2 * calls} calls {peak.over_limit_peak_mb:.0f}, "
              f"after {peak.after_mb:.0f}", flush=True)
        for number, codes in enumerate(peak.codes, start=1):
            print(f"      burst {number}: {_codes(codes)}")
        if peak.over_limit_peak_mb > highest:
            highest, start = peak.over_limit_peak_mb, peak.start_mb
    growth = highest - start
    manifest = manifest_memory_mib()
    limit_mb = manifest["limits"] * MIB / 1e6
    worst_total = AT_REST_MB + growth
    print(f"  highest peak {highest:.0f} MB: the burst adds {growth:.0f} MB to the start")
    print(f"  budget: at rest at most {AT_REST_MB} MB + {growth:.0f} MB = {worst_total:.0f} MB "
          f"against the manifest's limit {manifest['limits']}Mi ({limit_mb:.0f} MB; request "
          f"{manifest['requests']}Mi): "
          f"{'fits' if worst_total <= limit_mb else 'DOES NOT FIT'} "
          f"({limit_mb - worst_total:+.0f} MB to spare)", flush=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worst-case"]:  # only the worst-case part, more server flags after
        run_worst_case(tuple(sys.argv[2:]))
    else:
        run()
