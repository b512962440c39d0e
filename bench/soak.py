"""`make soak`: mixed load at about 80% of capacity against `okey-server --processes 2`, with a
stalled client throughout and one server process killed midway.

Not part of `make test` or `make bench`: the full run takes 10 minutes and
loads the machine. ``python bench/soak.py --seconds 60`` is a short run for
trying it. What it does, in order:

1. starts ``okey-server --port 0 --processes 2 --log-level warning`` (its log
   to a temporary file, read for worker starts, exits and restarts);
2. builds a pool of valid requests through the server: CheckHand (hands as
   tiles and as notation, from the seeded corpora), ApplyMove, LegalMoves and
   PlayerView on mid-round states, Deal, health Check, mixed by MIX. The pool
   is bounded and cycled, so once the server's caches hold it, any memory
   growth is a leak rather than a cache filling;
3. measures capacity: CLIENTS client processes (CONNECTIONS connections each)
   keep CALIBRATION_IN_FLIGHT calls outstanding for CALIBRATION_S seconds;
   capacity is the answered calls per second;
4. the soak: the same client processes send at `--load` (0.8) times that
   rate, paced (open loop: a slow answer does not slow the sending), for
   `--seconds`. Like a well-behaved client, each keeps at most
   IN_FLIGHT_PER_CONNECTION calls in flight on a connection (half the
   server's per-connection stream cap), sends each call on its connection
   with the fewest, and makes a call wait for a free slot past that (counted,
   and its latency is also given from when it was due). Their channels use
   the okey CLI's service config (its retry policy for UNAVAILABLE and
   RESOURCE_EXHAUSTED, with retry throttling: okey_cli.rpc); each call has
   CALL_TIMEOUT_S. A call counts as failed when its final status, retries
   included, is not OK;
5. meanwhile a **stalled client** (a process of its own) keeps STALLED_STREAMS
   calls open over STALLED_CONNECTIONS connections that send their headers
   and never a request message; when the server ends one, it opens another;
6. at `--kill-at` (half) of the soak, one server process is killed
   (SIGKILL); the parent restarts it;
7. every SAMPLE_S the server processes' memory (VmRSS) and CPU time are read
   from /proc.

It prints the capacity, the well-behaved calls (answered, failed by status,
latency percentiles per phase), how the stalled calls ended, the kill and
restart (and how soon the new process took a share of the work), and each
server process's memory over time. Memory is **flat** when, for every
server process, the median of its last MEMORY_WINDOW_SHARE of samples is at
most FLAT_MB above the median of the same share of samples around the middle
of its life (the first half is warm-up: caches filling, a restarted process
starting). Exit status 0 when no well-behaved call failed, memory was flat
and the server stayed up; 1 otherwise. ``--json FILE`` writes every figure.

Linux only (/proc). The clients are Python processes sharing the machine's
cores with the server: judge the run by its failures, latencies and memory
shape, not by its absolute rate.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import signal
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from okey_cli.rpc import RETRY_POLICY, SERVICE_CONFIG
from okey_server.rpc.config import DEFAULT_MAX_STREAMS_PER_CONNECTION

sys.path.insert(0, str(Path(__file__).resolve().parent))  # rpc_bench.py, when run as a script

import rpc_bench

DEFAULT_SECONDS = 600.0
DEFAULT_LOAD = 0.8
DEFAULT_KILL_AT = 0.5
CLIENTS = 2
CONNECTIONS = 4  # per client process
CALIBRATION_S = 20.0
CALIBRATION_WARM_UP_S = 5.0
# A well-behaved client keeps at most half the server's per-connection stream cap
# (--max-streams-per-connection, 32) in flight on a connection: gRPC core counts a
# finished stream against the cap until the server has freed it, so a connection
# kept at its cap gets some streams refused (docs/operations.md, "Streams per
# connection"). Past it, a client's sends wait for a free slot (counted).
IN_FLIGHT_PER_CONNECTION = DEFAULT_MAX_STREAMS_PER_CONNECTION // 2
MAX_IN_FLIGHT = CONNECTIONS * IN_FLIGHT_PER_CONNECTION  # per client process
CALIBRATION_IN_FLIGHT = MAX_IN_FLIGHT  # per client process
CALL_TIMEOUT_S = 5.0
STALLED_STREAMS = 300
STALLED_CONNECTIONS = 4
# A stalled call the server ends within this long is followed by a pause before the
# next, so that a server refusing at once does not make the stalled client spin.
STALLED_QUICK_END_S = 1.0
STALLED_PAUSE_S = 0.1
SAMPLE_S = 5.0
WINDOW_S = 10.0  # the well-behaved clients' figures are kept per window
MEMORY_WINDOW_SHARE = 0.2
FLAT_MB = 8.0
MIN_SAMPLES = 10  # fewer (a process that lived under a minute at SAMPLE_S 5 s): not judged
# The restarted process "takes its share" once it used this share of the server
# processes' CPU over a sample.
SHARE_BACK = 0.25
MID_ROUND_SEEDS = ("soak-a", "soak-b", "soak-c", "soak-d")
MID_ROUND_MOVES = (12, 24, 36, 48)
HANDS = 2_000
DEAL_SEEDS = 500
# (kind, share of the calls)
MIX = (
    ("CheckHand", 0.45),
    ("ApplyMove", 0.15),
    ("LegalMoves", 0.10),
    ("PlayerView", 0.10),
    ("Deal", 0.10),
    ("health Check", 0.10),
)
PATHS = {
    "CheckHand": rpc_bench.CHECK_HAND,
    "ApplyMove": "/okey.v1.GameService/ApplyMove",
    "LegalMoves": "/okey.v1.GameService/LegalMoves",
    "PlayerView": "/okey.v1.GameService/PlayerView",
    "Deal": "/okey.v1.DealService/Deal",
    "health Check": rpc_bench.HEALTH_CHECK,
}
# What the well-behaved clients do with a failed attempt: the okey CLI's own
# gRPC service config (retry policy and throttling; docs/operations.md says
# which codes a client should retry), so the soak's clients are the project's:
# RETRY_POLICY and SERVICE_CONFIG of okey_cli.rpc. Each channel is its own
# connection (grpc otherwise shares one between channels to an address).
CLIENT_OPTIONS = (
    *rpc_bench.CHANNEL_OPTIONS,
    ("grpc.use_local_subchannel_pool", 1),
    ("grpc.enable_retries", 1),
    ("grpc.service_config", SERVICE_CONFIG),
)
STALLED_OPTIONS = (*rpc_bench.CHANNEL_OPTIONS, ("grpc.use_local_subchannel_pool", 1))
STALLED_METHOD = "/okey.v1.GameService/ApplyMove"
SHUTDOWN_S = 30.0


# --- the request pool -----------------------------------------------------------------------

def build_pool(address: str) -> list[tuple[str, bytes]]:
    """(kind, serialized request) pairs in the proportions of MIX, shuffled with a fixed seed."""
    import random

    import grpc
    from game_bench import play_to_mid_round
    from grpc_health.v1 import health_pb2
    from okey.v1 import deal_pb2

    by_kind: dict[str, list[bytes]] = {}
    hands = rpc_bench.mixed_hands(HANDS, 7000)
    half = HANDS // 2
    by_kind["CheckHand"] = [
        request.SerializeToString()
        for request in (rpc_bench.check_hand_requests(hands[:half], False)
                        + rpc_bench.check_hand_requests(hands[half:], True))
    ]
    with grpc.insecure_channel(address, options=rpc_bench.CHANNEL_OPTIONS) as channel:
        mids = [play_to_mid_round(channel, moves, seed) for seed, moves in
                zip(MID_ROUND_SEEDS, MID_ROUND_MOVES, strict=True)]
    by_kind["ApplyMove"] = [mid.apply_move.SerializeToString() for mid in mids]
    by_kind["LegalMoves"] = [mid.legal_moves.SerializeToString() for mid in mids]
    by_kind["PlayerView"] = [mid.player_view.SerializeToString() for mid in mids]
    by_kind["Deal"] = [deal_pb2.DealRequest(seed=f"soak-deal-{index}").SerializeToString()
                       for index in range(DEAL_SEEDS)]
    by_kind["health Check"] = [health_pb2.HealthCheckRequest().SerializeToString()]
    size = 10_000
    pool = []
    for kind, share in MIX:
        requests = by_kind[kind]
        pool += [(kind, requests[index % len(requests)]) for index in range(round(size * share))]
    random.Random(23).shuffle(pool)
    return pool


# --- the well-behaved clients ---------------------------------------------------------------

@dataclass
class Window:
    """One client's calls that started within one WINDOW_S window of the soak."""

    sent: int = 0
    ok: int = 0
    failed: Counter[str] = field(default_factory=Counter)
    latencies_ms: list[float] = field(default_factory=list)
    # From when the call was due to its answer: the wait for a free slot included.
    as_sent_ms: list[float] = field(default_factory=list)


async def _calibrate(methods: list[Any], pool: list[tuple[str, bytes]], seconds: float,
                     in_flight: int) -> tuple[int, Counter[str]]:
    """Closed loop: `in_flight` calls outstanding for `seconds`; answered calls, failures."""
    import grpc

    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    ok = 0
    failed: Counter[str] = Counter()

    async def worker(offset: int) -> None:
        nonlocal ok
        index = offset
        while loop.time() < end:
            kind, request = pool[index % len(pool)]
            index += in_flight
            try:
                await methods[index % len(methods)][kind](request, timeout=CALL_TIMEOUT_S)
                ok += 1
            except grpc.aio.AioRpcError as error:
                failed[error.code().name] += 1

    await asyncio.gather(*(worker(offset) for offset in range(in_flight)))
    return ok, failed


async def _paced(methods: list[Any], pool: list[tuple[str, bytes]], rate: float,
                 seconds: float, offset: int) -> tuple[list[Window], int, list[str]]:
    """Open loop at `rate` calls/s for `seconds`: per-window figures, sends that had to wait
    for a free in-flight slot, and the first few failure descriptions."""
    import grpc

    loop = asyncio.get_running_loop()
    started = loop.time()
    windows = [Window() for _ in range(int(seconds // WINDOW_S) + 1)]
    slots = asyncio.Semaphore(MAX_IN_FLIGHT)
    # Calls in flight per connection: each call goes to the connection with the fewest,
    # so none has more than IN_FLIGHT_PER_CONNECTION (a connection whose server process
    # is slower would otherwise pile up the calls sent to it in turn).
    in_flight = [0] * len(methods)
    waited = 0
    examples: list[str] = []
    tasks: set[asyncio.Task[None]] = set()

    async def call(window: Window, kind: str, request: bytes, connection: int,
                   due: float) -> None:
        begun = loop.time()
        try:
            await methods[connection][kind](request, timeout=CALL_TIMEOUT_S)
            window.ok += 1
            window.latencies_ms.append((loop.time() - begun) * 1000)
            window.as_sent_ms.append((loop.time() - due) * 1000)
        except grpc.aio.AioRpcError as error:
            window.failed[f"{kind} {error.code().name}"] += 1
            if len(examples) < 5:
                examples.append(f"{kind}: {error.code().name}: {error.details()}")
        finally:
            in_flight[connection] -= 1
            slots.release()

    sent = 0
    interval = 1.0 / rate
    while True:
        now = loop.time()
        due = started + sent * interval
        if due - started >= seconds:
            break
        if due > now:
            await asyncio.sleep(due - now)
        if slots.locked():
            waited += 1
        await slots.acquire()
        kind, request = pool[(offset + sent) % len(pool)]
        window = windows[int((due - started) // WINDOW_S)]
        window.sent += 1
        connection = in_flight.index(min(in_flight))
        in_flight[connection] += 1
        task = asyncio.ensure_future(call(window, kind, request, connection, due))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
        sent += 1
    if tasks:
        await asyncio.wait(tasks, timeout=CALL_TIMEOUT_S * 3)
    return windows, waited, examples


def _plain(window: Window) -> dict[str, Any]:
    """A window as plain data for the pipe (asdict would turn the Counter into pair counts)."""
    return {"sent": window.sent, "ok": window.ok, "failed": dict(window.failed),
            "latencies_ms": window.latencies_ms, "as_sent_ms": window.as_sent_ms}


async def _client(index: int, address: str, pool: list[tuple[str, bytes]], pipe: Any) -> None:
    import grpc

    channels = [grpc.aio.insecure_channel(address, options=CLIENT_OPTIONS)
                for _ in range(CONNECTIONS)]
    methods = [
        {kind: channel.unary_unary(path, request_serializer=None, response_deserializer=None)
         for kind, path in PATHS.items()}
        for channel in channels
    ]
    for channel in channels:
        await asyncio.wait_for(channel.channel_ready(), CALL_TIMEOUT_S * 6)
    pipe.send("ready")
    while True:
        command = await asyncio.get_running_loop().run_in_executor(None, pipe.recv)
        if command is None:
            break
        what, *args = command
        if what == "calibrate":
            seconds, in_flight = args
            pipe.send(await _calibrate(methods, pool, seconds, in_flight))
        elif what == "soak":
            rate, seconds = args
            windows, waited, examples = await _paced(methods, pool, rate, seconds,
                                                     index * 7919)
            pipe.send(([_plain(window) for window in windows], waited, examples))
    for channel in channels:
        await channel.close()


def client_main(index: int, address: str, pool: list[tuple[str, bytes]], pipe: Any) -> None:
    """A well-behaved client process: runs each command its pipe brings."""
    asyncio.run(_client(index, address, pool, pipe))


# --- the stalled client ---------------------------------------------------------------------

async def _stalled(address: str, streams: int, pipe: Any) -> None:
    import grpc

    channels = [grpc.aio.insecure_channel(address, options=STALLED_OPTIONS)
                for _ in range(STALLED_CONNECTIONS)]
    stop = asyncio.Event()
    ended: Counter[str] = Counter()
    held_s: list[float] = []
    opened = 0

    async def never_sends() -> Any:
        await stop.wait()
        yield b""  # pragma: no cover (the call is over by then)

    async def hold(channel: Any) -> None:
        nonlocal opened
        method = channel.stream_unary(STALLED_METHOD, request_serializer=None,
                                      response_deserializer=None)
        loop = asyncio.get_running_loop()
        while not stop.is_set():
            begun = loop.time()
            opened += 1
            call = method(never_sends())
            waiting = asyncio.ensure_future(call)
            stopping = asyncio.ensure_future(stop.wait())
            await asyncio.wait((waiting, stopping), return_when=asyncio.FIRST_COMPLETED)
            stopping.cancel()
            if not waiting.done():
                call.cancel()
                with contextlib.suppress(asyncio.CancelledError, grpc.aio.AioRpcError):
                    await waiting
                return
            try:
                waiting.result()
                ended["OK"] += 1
            except grpc.aio.AioRpcError as error:
                ended[error.code().name] += 1
            except asyncio.CancelledError:
                ended["CANCELLED (client)"] += 1
            lasted = loop.time() - begun
            held_s.append(lasted)
            if lasted < STALLED_QUICK_END_S:
                await asyncio.sleep(STALLED_PAUSE_S)

    holders = [asyncio.ensure_future(hold(channels[i % len(channels)])) for i in range(streams)]
    pipe.send("ready")
    await asyncio.get_running_loop().run_in_executor(None, pipe.recv)
    stop.set()
    if holders:
        await asyncio.wait(holders, timeout=SHUTDOWN_S)
    for channel in channels:
        await channel.close()
    held = sorted(held_s)
    pipe.send({
        "opened": opened,
        "ended": dict(ended),
        "held_median_s": round(statistics.median(held), 2) if held else None,
        "held_max_s": round(held[-1], 2) if held else None,
    })


def stalled_main(address: str, streams: int, pipe: Any) -> None:
    """The stalled client process: holds its streams until its pipe says stop."""
    asyncio.run(_stalled(address, streams, pipe))


# --- the server's processes -----------------------------------------------------------------

@dataclass
class ServerWatch:
    """The server's log and processes, read as the soak goes."""

    process: Any
    log_path: str
    started: float
    workers: dict[int, float] = field(default_factory=dict)  # pid -> when it served
    events: list[dict[str, Any]] = field(default_factory=list)
    memory: dict[int, list[tuple[float, float]]] = field(default_factory=dict)  # pid -> (s, MB)
    cpu: dict[int, list[tuple[float, float]]] = field(default_factory=dict)  # pid -> (s, CPU s)
    _offset: int = 0

    def read_log(self) -> None:
        with open(self.log_path, "rb") as log:
            log.seek(self._offset)
            data = log.read()
        complete = data[: data.rfind(b"\n") + 1]
        self._offset += len(complete)
        for line in complete.splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            now = self._at(entry)
            if entry.get("event") == "worker serving":
                self.workers[int(entry["pid"])] = now
            if entry.get("level") in ("warning", "error") or entry.get("event") in (
                "worker serving", "worker restarted", "worker exited"
            ):
                self.events.append({"at_s": round(now, 1), **entry})

    def _at(self, entry: dict[str, Any]) -> float:
        """When a log line was written, in seconds since `started` (its own timestamp: the
        log is read only every SAMPLE_S)."""
        try:
            written = datetime.fromisoformat(entry["timestamp"]).timestamp()
        except (KeyError, ValueError):
            return time.monotonic() - self.started
        return written - (time.time() - (time.monotonic() - self.started))

    def sample(self) -> None:
        self.read_log()
        now = time.monotonic() - self.started
        for pid in [self.process.pid, *self.workers]:
            try:
                rss = rpc_bench_memory_mb(pid)
                cpu = rpc_bench.server_cpu_s(pid)
            except (OSError, ValueError, IndexError):
                continue  # gone
            self.memory.setdefault(pid, []).append((round(now, 1), rss))
            self.cpu.setdefault(pid, []).append((round(now, 1), cpu))


def rpc_bench_memory_mb(pid: int) -> float:
    """VmRSS of `pid` in MB (10^6 bytes)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1000
    raise ValueError(f"no VmRSS for {pid}")


def flatness(series: list[tuple[float, float]]) -> tuple[float, float, float] | None:
    """(median around the middle, median at the end, growth) of a process's memory samples,
    each median over MEMORY_WINDOW_SHARE of them; None with too few samples to judge."""
    count = len(series)
    width = max(1, int(count * MEMORY_WINDOW_SHARE))
    if count < max(MIN_SAMPLES, 2 * width + 2):
        return None
    middle = count // 2
    around_middle = [mb for _, mb in series[middle - width // 2: middle - width // 2 + width]]
    at_end = [mb for _, mb in series[-width:]]
    mid_mb, end_mb = statistics.median(around_middle), statistics.median(at_end)
    return mid_mb, end_mb, end_mb - mid_mb


# --- the run --------------------------------------------------------------------------------

def _percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def _merge(windows_by_client: list[list[dict[str, Any]]]) -> list[Window]:
    merged = [Window() for _ in range(max(len(w) for w in windows_by_client))]
    for windows in windows_by_client:
        for index, window in enumerate(windows):
            merged[index].sent += window["sent"]
            merged[index].ok += window["ok"]
            merged[index].failed.update(window["failed"])
            merged[index].latencies_ms += window["latencies_ms"]
            merged[index].as_sent_ms += window["as_sent_ms"]
    return merged


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=DEFAULT_SECONDS,
                        help=f"soak duration (default {DEFAULT_SECONDS:g}; calibration first)")
    parser.add_argument("--load", type=float, default=DEFAULT_LOAD,
                        help=f"share of the measured capacity to send (default {DEFAULT_LOAD})")
    parser.add_argument("--kill-at", type=float, default=DEFAULT_KILL_AT,
                        help="when to kill a server process, as a share of the soak "
                        f"(default {DEFAULT_KILL_AT}; 0 = never)")
    parser.add_argument("--stalled-streams", type=int, default=STALLED_STREAMS,
                        help=f"calls the stalled client holds open (default {STALLED_STREAMS})")
    parser.add_argument("--server-arg", action="append", default=[], metavar="ARG",
                        help="one more okey-server argument (repeat for each; e.g. "
                        "--server-arg=--max-receive-bytes --server-arg=65536)")
    parser.add_argument("--json", help="write every figure to this file")
    args = parser.parse_args(argv)
    if args.seconds < 2 * WINDOW_S:
        parser.error(f"--seconds: at least {2 * WINDOW_S:g}")
    if not 0 < args.load <= 1.5:
        parser.error("--load: a share of capacity in (0, 1.5]")
    if not 0 <= args.kill_at < 1:
        parser.error("--kill-at: a share of the soak in [0, 1)")
    if args.stalled_streams < 0:
        parser.error("--stalled-streams: 0 or more")

    ctx = multiprocessing.get_context("spawn")
    report: dict[str, Any] = {"seconds": args.seconds, "load": args.load, "cores": os.cpu_count(),
                              "retry_policy": RETRY_POLICY}
    with contextlib.ExitStack() as stack:
        log = stack.enter_context(tempfile.NamedTemporaryFile(prefix="okey-soak-", suffix=".log"))
        process, startup = rpc_bench.start_server(log, ["--processes", "2", *args.server_arg],
                                                  log_level="warning")
        stack.callback(rpc_bench.stop_server, process)
        address = f"127.0.0.1:{startup['port']}"
        watch = ServerWatch(process, log.name, time.monotonic())
        watch.read_log()
        print(f"soak: okey-server --processes 2 {' '.join(args.server_arg)} on {address} "
              f"(pid {process.pid}, workers {startup['workers']}), {os.cpu_count()} cores",
              flush=True)
        pool = build_pool(address)
        print(f"  request pool: {len(pool):,} requests, mix "
              + ", ".join(f"{kind} {share:.0%}" for kind, share in MIX), flush=True)

        clients = []
        for index in range(CLIENTS):
            ours, theirs = ctx.Pipe()
            worker = ctx.Process(target=client_main, args=(index, address, pool, theirs),
                                 daemon=True)
            worker.start()
            stack.callback(worker.kill)
            clients.append((worker, ours))
        for _, pipe in clients:
            if not pipe.poll(120) or pipe.recv() != "ready":
                raise RuntimeError("a client process did not start")

        for _, pipe in clients:
            pipe.send(("calibrate", CALIBRATION_WARM_UP_S, CALIBRATION_IN_FLIGHT))
        for _, pipe in clients:
            pipe.recv()
        for _, pipe in clients:
            pipe.send(("calibrate", CALIBRATION_S, CALIBRATION_IN_FLIGHT))
        answers = [pipe.recv() for _, pipe in clients]
        capacity = sum(ok for ok, _ in answers) / CALIBRATION_S
        refused: Counter[str] = Counter()
        for _, failed in answers:
            refused.update(failed)
        rate = args.load * capacity
        report.update(capacity_per_s=round(capacity), calibration_failed=dict(refused),
                      rate_per_s=round(rate))
        print(f"  capacity: {capacity:,.0f} calls/s ({CLIENTS} clients x "
              f"{CALIBRATION_IN_FLIGHT} in flight for {CALIBRATION_S:g} s; not answered: "
              f"{dict(refused) or 'none'}); soak at {args.load:.0%}: {rate:,.0f} calls/s "
              f"for {args.seconds:g} s", flush=True)

        stalled_pipe, theirs = ctx.Pipe()
        stalled = ctx.Process(target=stalled_main, args=(address, args.stalled_streams, theirs),
                              daemon=True)
        stalled.start()
        stack.callback(stalled.kill)
        if not stalled_pipe.poll(120) or stalled_pipe.recv() != "ready":
            raise RuntimeError("the stalled client did not start")

        watch.started = time.monotonic()
        watch.memory.clear()
        watch.cpu.clear()
        for pid in list(watch.workers):
            watch.workers[pid] = 0.0
        for _, pipe in clients:
            pipe.send(("soak", rate / CLIENTS, args.seconds))
        killed: dict[str, Any] | None = None
        kill_at = args.seconds * args.kill_at if args.kill_at else None
        next_sample = 0.0
        while not all(pipe.poll() for _, pipe in clients):
            now = time.monotonic() - watch.started
            if now >= next_sample:
                watch.sample()
                next_sample += SAMPLE_S
            if kill_at is not None and killed is None and now >= kill_at:
                victim = startup["workers"][0]
                os.kill(victim, signal.SIGKILL)
                killed = {"pid": victim, "at_s": round(now, 1)}
                print(f"  {now:5.0f} s: killed server process {victim}", flush=True)
            if process.poll() is not None:
                print("  the server exited during the soak", flush=True)
                break
            time.sleep(0.2)
        watch.sample()
        results = [pipe.recv() for _, pipe in clients]
        stalled_pipe.send("stop")
        stalled_report = stalled_pipe.recv() if stalled_pipe.poll(SHUTDOWN_S * 2) else None
        for _, pipe in clients:
            pipe.send(None)
        for worker, _ in clients:
            worker.join(SHUTDOWN_S)
        server_up = process.poll() is None
        stop_status = None
        if server_up:
            process.send_signal(signal.SIGTERM)
            with contextlib.suppress(Exception):
                stop_status = process.wait(SHUTDOWN_S)
        watch.read_log()

    return _report(report, results, stalled_report, watch, killed, server_up, stop_status,
                   args)


def _report(report: dict[str, Any], results: list[Any], stalled_report: dict[str, Any] | None,
            watch: ServerWatch, killed: dict[str, Any] | None, server_up: bool,
            stop_status: int | None, args: argparse.Namespace) -> int:
    windows = _merge([windows for windows, _, _ in results])
    waited = sum(w for _, w, _ in results)
    examples = [e for _, _, found in results for e in found][:5]
    sent = sum(w.sent for w in windows)
    ok = sum(w.ok for w in windows)
    failed: Counter[str] = Counter()
    for window in windows:
        failed.update(window.failed)
    latencies = [ms for w in windows for ms in w.latencies_ms]
    print(f"\nwell-behaved clients: {sent:,} calls, {ok:,} OK, {sum(failed.values()):,} failed "
          f"{dict(failed) or ''}; {sent / args.seconds:,.0f} calls/s sent; sends that waited "
          f"for a free slot: {waited}")
    for example in examples:
        print(f"  e.g. {example}")
    print(f"  latency ms: p50 {_percentile(latencies, 0.5):.1f}, p99 "
          f"{_percentile(latencies, 0.99):.1f}, max {max(latencies, default=float('nan')):.0f}")
    as_sent = [ms for w in windows for ms in w.as_sent_ms]
    print(f"  from when due (a wait for a free slot included) ms: p50 "
          f"{_percentile(as_sent, 0.5):.1f}, p99 {_percentile(as_sent, 0.99):.1f}, "
          f"max {max(as_sent, default=float('nan')):.0f}")
    print("  per window (start s: sent, failed, p50 / p99 ms; p99 ms from when due):")
    rows = []
    for index, window in enumerate(windows):
        if not window.sent:
            continue
        row = {"start_s": index * WINDOW_S, "sent": window.sent, "ok": window.ok,
               "failed": dict(window.failed),
               "p50_ms": round(_percentile(window.latencies_ms, 0.5), 1),
               "p99_ms": round(_percentile(window.latencies_ms, 0.99), 1),
               "as_sent_p99_ms": round(_percentile(window.as_sent_ms, 0.99), 1)}
        rows.append(row)
    for row in rows:
        print(f"    {row['start_s']:5.0f}: {row['sent']:6,}, {sum(row['failed'].values()):4}, "
              f"{row['p50_ms']:6.1f} / {row['p99_ms']:7.1f}; {row['as_sent_p99_ms']:8.1f}")
    print(f"\nstalled client ({args.stalled_streams} calls held over {STALLED_CONNECTIONS} "
          f"connections): {stalled_report}")

    restarted = None
    if killed is not None:
        new = [pid for pid, at in watch.workers.items() if at > killed["at_s"]]
        restarted = {"killed": killed, "new_pid": new[0] if new else None,
                     "serving_after_s": (round(watch.workers[new[0]] - killed["at_s"], 1)
                                         if new else None)}
        if new:
            restarted["share_back_after_s"] = _share_back(watch, new[0], killed["at_s"])
        print(f"\nkill: {restarted}")
    print("\nserver events (warnings, errors, worker starts and exits):")
    for event in watch.events[:40]:
        shown = {k: v for k, v in event.items() if k not in ("timestamp", "level")}
        print(f"  {shown}")
    if len(watch.events) > 40:
        print(f"  ... {len(watch.events) - 40} more")

    print("\nserver memory, VmRSS MB (every "
          f"{SAMPLE_S:g} s; shown about every minute):")
    flat = True
    memory_report = {}
    for pid, series in watch.memory.items():
        role = "parent" if pid == watch.process.pid else "worker"
        judged = flatness(series)
        step = max(1, int(60 / SAMPLE_S))
        shown = ", ".join(f"{at:.0f}s {mb:.0f}" for at, mb in series[::step])
        verdict = "too short to judge"
        if judged is not None:
            mid_mb, end_mb, growth = judged
            good = growth <= FLAT_MB
            flat = flat and good
            verdict = (f"{'flat' if good else 'GROWING'}: middle {mid_mb:.1f}, end {end_mb:.1f}, "
                       f"{growth:+.1f} MB")
        print(f"  {role} {pid}: {shown}\n    max {max(mb for _, mb in series):.0f}; {verdict}")
        memory_report[pid] = {"role": role, "series": series, "verdict": verdict}

    failures = sum(failed.values())
    passed = failures == 0 and flat and server_up
    print(f"\nresult: {'PASS' if passed else 'FAIL'} (failed calls {failures}, memory "
          f"{'flat' if flat else 'not flat'}, server {'up' if server_up else 'DOWN'}, "
          f"stopped with {stop_status})")
    report.update(sent=sent, ok=ok, failed=dict(failed), waited=waited, failure_examples=examples,
                  p50_ms=_percentile(latencies, 0.5), p99_ms=_percentile(latencies, 0.99),
                  as_sent_p50_ms=_percentile(as_sent, 0.5),
                  as_sent_p99_ms=_percentile(as_sent, 0.99),
                  windows=rows, stalled=stalled_report, restart=restarted,
                  events=watch.events, memory=memory_report, cpu=watch.cpu, passed=passed)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1, default=str))
    return 0 if passed else 1


def _share_back(watch: ServerWatch, pid: int, since_s: float) -> float | None:
    """Seconds from `since_s` until `pid` used SHARE_BACK of the workers' CPU over a sample."""
    previous: dict[int, tuple[float, float]] = {}
    times = sorted({at for series in watch.cpu.values() for at, _ in series if at >= since_s})
    by_time = {other: dict(series) for other, series in watch.cpu.items()
               if other != watch.process.pid}
    for at in times:
        used = {}
        for other, series in by_time.items():
            if at in series:
                if other in previous:
                    used[other] = series[at] - previous[other][1]
                previous[other] = (at, series[at])
        total = sum(used.values())
        if pid in used and total > 0 and used[pid] / total >= SHARE_BACK:
            return round(at - since_s, 1)
    return None


if __name__ == "__main__":
    raise SystemExit(main())
