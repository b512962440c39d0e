"""How the server holds up against misbehaving clients and floods (issue 23): the figures.

Run alone with `python bench/limits_bench.py`, or through bench/run.py, which
calls `run()`. Every server is a fresh `okey-server` subprocess on loopback;
clients are grpc.aio channels in this process and raw HTTP/2 connections
(bench/raw_h2.py). Each scenario is bounded in time; figures that depend on
the machine's speed are given as ratios or shares within one run.

- stalled: 400 header-only streams over 4 connections (ignoring the stream
  limit), then an ordinary client's calls and health-lane probes;
- fairness: a connection with 32 calls outstanding beside one with 512: the
  first one's share of the answers, with the per-connection limit and without;
- flood: many calls outstanding (few connections, then many): how the calls
  ended, latency;
- drain: SIGTERM under load: how the calls ended (CANCELLED is what the drain
  must avoid);
- rapid reset: an ordinary client's answers per second while one connection
  opens and resets streams as fast as it can, against the same client alone;
  and whether the server sent GOAWAY;
- capacity back: under --processes 2 at the default --max-connection-age, how
  long after a process is killed its replacement serves calls.
"""

from __future__ import annotations

import asyncio
import collections
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # raw_h2.py, when run as a script

import raw_h2

ROOT = Path(__file__).resolve().parent.parent
OKEY_SERVER = ROOT / ".venv" / "bin" / "okey-server"
HOST = "127.0.0.1"
START_TIMEOUT_S = 30.0
CHECK_HAND = "/okey.v1.HandService/CheckHand"
WINNING = "R1 R2 R3 Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12 K13"
FLOOD_S = 6.0
CAPACITY_BACK_LIMIT_S = 90.0


class Server:
    """An okey-server subprocess; its log (stderr) in a temporary file."""

    def __init__(self, *flags: str) -> None:
        self.log = tempfile.NamedTemporaryFile(prefix="okey-limits-", suffix=".log")  # noqa: SIM115
        command = [str(OKEY_SERVER)] if OKEY_SERVER.exists() else [
            sys.executable, "-m", "okey_server.main"]
        env = {k: v for k, v in os.environ.items() if not k.startswith("OKEY_")}
        self.process = subprocess.Popen(
            [*command, "--port", "0", *flags], stdin=subprocess.DEVNULL,
            stdout=self.log, stderr=self.log, env=env,
        )
        self.startup = self._wait_for("serving")
        self.address = f"{HOST}:{self.startup['port']}"

    def lines(self) -> list[dict[str, Any]]:
        text = Path(self.log.name).read_text()
        return [json.loads(line) for line in text.splitlines() if line.startswith("{")]

    def _wait_for(self, event: str) -> dict[str, Any]:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            for entry in self.lines():
                if entry.get("event") == event:
                    return entry
            if self.process.poll() is not None:
                raise RuntimeError(f"okey-server exited: {Path(self.log.name).read_text()}")
            time.sleep(0.05)
        raise RuntimeError(f"okey-server printed no {event!r} line")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(START_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


def _request() -> bytes:
    from okey.v1 import hand_pb2

    return hand_pb2.CheckHandRequest(
        hand_notation=WINNING, indicator_notation="R4").SerializeToString()


async def _load(address: str, connections: int, in_flight: int, seconds: float,
                pause_s: float = 0.0, stop: threading.Event | None = None,
                ) -> dict[str, list[float]]:
    """Closed-loop CheckHand calls, `in_flight` per connection, for `seconds` (or until
    `stop` is set, if given): latencies by how the calls ended."""
    import grpc

    options = (("grpc.so_reuseport", 0), ("grpc.use_local_subchannel_pool", 1))
    channels = [grpc.aio.insecure_channel(address, options=options) for _ in range(connections)]
    request = _request()
    ended: dict[str, list[float]] = collections.defaultdict(list)
    stop_at = time.monotonic() + seconds

    def going() -> bool:
        return time.monotonic() < stop_at and not (stop is not None and stop.is_set())

    async def caller(method: Any) -> None:
        while going():
            started = time.monotonic()
            try:
                await method(request, timeout=30)
                code = "OK"
            except grpc.aio.AioRpcError as error:
                code = error.code().name
            ended[code].append(time.monotonic() - started)
            if pause_s:
                await asyncio.sleep(pause_s)

    methods = [channel.unary_unary(CHECK_HAND) for channel in channels]
    await asyncio.gather(*(caller(m) for m in methods for _ in range(in_flight)))
    for channel in channels:
        await channel.close()
    return dict(ended)


async def answer_times(address: str, in_flight: int, seconds: float) -> list[float]:
    """`in_flight` CheckHand calls kept outstanding on one connection for `seconds`: when
    each OK answer came (time.monotonic, the same clock in every process)."""
    import grpc

    options = (("grpc.so_reuseport", 0), ("grpc.use_local_subchannel_pool", 1))
    times: list[float] = []
    async with grpc.aio.insecure_channel(address, options=options) as channel:
        method = channel.unary_unary(CHECK_HAND)
        request = _request()
        stop_at = time.monotonic() + seconds

        async def caller() -> None:
            while time.monotonic() < stop_at:
                try:
                    await method(request, timeout=30)
                except grpc.aio.AioRpcError:
                    continue
                times.append(time.monotonic())

        await asyncio.gather(*(caller() for _ in range(in_flight)))
    return times


def greedy_process(address: str, in_flight: int, seconds: float) -> subprocess.Popen[str]:
    """A client process (its own interpreter) with `in_flight` calls out on one connection;
    it prints its answer times as JSON when done (`python bench/limits_bench.py --answers`)."""
    return subprocess.Popen(
        [sys.executable, __file__, "--answers", address, str(in_flight), str(seconds)],
        stdout=subprocess.PIPE, text=True,
    )


def modest_share(address: str, greedy_in_flight: int = 512, modest_in_flight: int = 32,
                 seconds: float = 3.0) -> float:
    """A connection with `greedy_in_flight` calls out (another process) and meanwhile one
    with `modest_in_flight`: the second one's share of the answers while both ran."""
    greedy = greedy_process(address, greedy_in_flight, seconds + 2.0)
    time.sleep(1.0)  # the greedy one is in full flow first
    modest = asyncio.run(answer_times(address, modest_in_flight, seconds))
    output, _ = greedy.communicate(timeout=seconds + 60)
    overlap = [t for t in json.loads(output) if modest and modest[0] <= t <= modest[-1]]
    return len(modest) / max(len(modest) + len(overlap), 1)


def _summary(ended: dict[str, list[float]]) -> str:
    parts = []
    for code, unsorted in sorted(ended.items(), key=lambda item: -len(item[1])):
        times = sorted(unsorted)
        p50, p99 = times[len(times) // 2], times[int(len(times) * 0.99)]
        parts.append(f"{code} {len(times)} (p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms)")
    return ", ".join(parts)


def stalled() -> None:
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    server = Server("--health-port", "0")
    try:
        connections = [raw_h2.RawConnection(HOST, int(server.startup["port"])) for _ in range(4)]
        for connection in connections:
            connection.ignore_stream_limit()
            connection.open_streams(100)
            connection.ping_and_wait()
        refused = sum(list(c.ended.resets.values()).count(7) for c in connections)
        ended = asyncio.run(_load(server.address, 1, 8, 3.0))
        serving = 0
        for _ in range(20):
            with grpc.insecure_channel(f"{HOST}:{server.startup['health_port']}") as channel:
                answer = health_pb2_grpc.HealthStub(channel).Check(
                    health_pb2.HealthCheckRequest(), timeout=10)
                serving += answer.status == health_pb2.HealthCheckResponse.SERVING
        ok = len(ended.get("OK", []))
        total = sum(len(times) for times in ended.values())
        print(f"stalled: 400 header-only streams over 4 connections, {refused} refused "
              f"(REFUSED_STREAM), {400 - refused} held; another client: {ok} of {total} OK "
              f"({100 * ok / max(total, 1):.0f}%): {_summary(ended)}; health lane: "
              f"{serving} of 20 SERVING", flush=True)
        for connection in connections:
            connection.close()
    finally:
        server.stop()


def fairness() -> None:
    shares = {}
    for label, flags in (("with the limit (32)", ()),
                         ("without (100000)", ("--max-streams-per-connection", "100000"))):
        server = Server(*flags)
        try:
            shares[label] = modest_share(server.address)
        finally:
            server.stop()
    print("fairness: share of the answers of a connection with 32 calls out beside one with "
          "512: " + ", ".join(f"{label} {share:.2f}" for label, share in shares.items()),
          flush=True)


def flood() -> None:
    for connections, in_flight in ((8, 512), (64, 64)):
        server = Server("--log-level", "warning")
        try:
            ended = asyncio.run(_load(server.address, connections, in_flight, FLOOD_S))
        finally:
            server.stop()
        print(f"flood: {connections} connections x {in_flight} calls outstanding for "
              f"{FLOOD_S:g} s: {_summary(ended)}", flush=True)


def drain() -> None:
    for connections, in_flight in ((4, 16), (64, 16)):
        server = Server("--log-level", "warning")
        try:
            timer = threading.Timer(2.0, server.process.send_signal, (signal.SIGTERM,))
            timer.start()
            ended = asyncio.run(_load(server.address, connections, in_flight, 4.0))
            timer.join()
        finally:
            server.stop()
        print(f"drain: SIGTERM with {connections} connections x {in_flight} calls out "
              f"(no client back-off): {_summary(ended)}", flush=True)


def rapid_reset() -> None:
    server = Server("--log-level", "warning")
    try:
        alone = asyncio.run(_load(server.address, 1, 16, 4.0))
        attacker = raw_h2.RawConnection(HOST, int(server.startup["port"]))
        stop_at = time.monotonic() + 6.0
        opened = 0

        def attack() -> None:
            nonlocal opened
            while time.monotonic() < stop_at and attacker.ended.goaway is None:
                if attacker.ended.closed:
                    return
                attacker.open_streams(50, reset=True)
                opened += 50

        thread = threading.Thread(target=attack, daemon=True)
        thread.start()
        time.sleep(1.0)
        attacked = asyncio.run(_load(server.address, 1, 16, 4.0))
        thread.join(10)
        goaway = attacker.ended.goaway
        attacker.close()
    finally:
        server.stop()
    rate_alone = len(alone.get("OK", [])) / 4.0
    rate_attacked = len(attacked.get("OK", [])) / 4.0
    print(f"rapid reset: {opened} streams opened and reset in 6 s on one connection; "
          f"another client {rate_attacked:.0f} OK/s against {rate_alone:.0f} alone "
          f"({rate_attacked / max(rate_alone, 1):.2f}); GOAWAY: {goaway}", flush=True)


def capacity_back() -> None:
    server = Server("--processes", "2")
    try:
        first, second = server.startup["workers"]

        stop = threading.Event()
        result: list[dict[str, list[float]]] = []
        # The same 8 connections all along: only their reconnecting moves them.
        load = threading.Thread(target=lambda: result.append(asyncio.run(
            _load(server.address, 8, 1, CAPACITY_BACK_LIMIT_S + 10, pause_s=0.05, stop=stop))))
        load.start()
        time.sleep(1.0)
        os.kill(first, signal.SIGKILL)
        killed = time.monotonic()
        replacement, back = None, None
        while back is None and time.monotonic() - killed < CAPACITY_BACK_LIMIT_S:
            served: collections.Counter[int] = collections.Counter()
            for entry in server.lines():
                if entry.get("event") == "worker restarted":
                    replacement = entry["worker_pid"]
                elif entry.get("event") == "rpc":
                    served[entry["pid"]] += 1
            if replacement is not None and served[replacement] >= 10:
                back = time.monotonic() - killed
            time.sleep(0.25)
        stop.set()
        load.join(30)
        codes = {code: len(times) for code, times in (result[0] if result else {}).items()}
        shown = f"{back:.1f} s" if back is not None else f"not within {CAPACITY_BACK_LIMIT_S:g} s"
        print(f"capacity back: --processes 2, default --max-connection-age (30 s), 8 client "
              f"connections: the replacement of a killed process served 10 calls {shown} "
              f"after the kill (survivor pid {second}); calls: {codes}", flush=True)
    finally:
        server.stop()


def run() -> None:
    for scenario in (stalled, fairness, flood, drain, rapid_reset, capacity_back):
        scenario()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--answers"]:
        target, calls_out, duration = sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
        print(json.dumps(asyncio.run(answer_times(target, calls_out, duration))))
    else:
        run()
