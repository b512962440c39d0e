"""CheckHand over the HTTP listener against gRPC, in one run of one server: sequential
latency (median, p99) and server CPU per call, each as a ratio to gRPC's.

One okey-server subprocess (``--http-port 0``, log level info, as served) answers the same
CheckHand request over gRPC (grpcio, one channel), Connect JSON, Connect binary and
gRPC-Web (binary), the HTTP ones from one keep-alive HTTP/1.1 connection (http.client), one
call at a time. The four are interleaved in rounds so that drift (CPU frequency, other
load) falls on all of them alike. Server CPU is the process's user + system time over each
batch, divided by its calls; the client's share of the latency differs between the
clients (grpcio's C core against http.client), so read the server CPU beside it.
"""

from __future__ import annotations

import http.client
import statistics
import struct
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import grpc
from google.protobuf import json_format
from okey.v1 import hand_pb2, hand_pb2_grpc
from rpc_bench import server_cpu_s, start_server, stop_server

ROUNDS = 5
CALLS_PER_ROUND = 300
WARM_UP_CALLS = 200
HAND = "R1 R2 R3 Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12 K13"
PATH = "/okey.v1.HandService/CheckHand"
TRANSPORTS = ("gRPC", "Connect JSON", "Connect binary", "gRPC-Web")


@dataclass
class Tally:
    latencies_s: list[float] = field(default_factory=list)
    server_cpu_s: float = 0.0

    def percentile(self, fraction: float) -> float:
        ordered = sorted(self.latencies_s)
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]

    @property
    def cpu_us_per_call(self) -> float:
        return self.server_cpu_s / len(self.latencies_s) * 1e6


def callers(grpc_address: str, http_port: int) -> dict[str, Callable[[], None]]:
    """One sequential caller per transport, each checking its answer is a win."""
    request = hand_pb2.CheckHandRequest(hand_notation=HAND, indicator_notation="R4")
    binary = request.SerializeToString()
    as_json = json_format.MessageToJson(request).encode()
    channel = grpc.insecure_channel(grpc_address)
    stub = hand_pb2_grpc.HandServiceStub(channel)
    connection = http.client.HTTPConnection("127.0.0.1", http_port)

    def post(body: bytes, content_type: str) -> bytes:
        connection.request("POST", PATH, body=body, headers={"Content-Type": content_type})
        response = connection.getresponse()
        answer = response.read()
        assert response.status == 200, answer
        return answer

    def over_grpc() -> None:
        assert stub.CheckHand(request).winning

    def over_json() -> None:
        assert b'"winning":true' in post(as_json, "application/json")

    def over_binary() -> None:
        assert hand_pb2.CheckHandResponse.FromString(post(binary, "application/proto")).winning

    framed = b"\x00" + struct.pack(">I", len(binary)) + binary

    def over_grpc_web() -> None:
        answer = post(framed, "application/grpc-web+proto")
        size = struct.unpack(">I", answer[1:5])[0]
        assert hand_pb2.CheckHandResponse.FromString(answer[5:5 + size]).winning
        assert b"grpc-status:0" in answer[5 + size:].replace(b" ", b"")

    return dict(zip(TRANSPORTS, (over_grpc, over_json, over_binary, over_grpc_web),
                    strict=True))


def measure(grpc_address: str, http_port: int, pid: int) -> dict[str, Tally]:
    calls = callers(grpc_address, http_port)
    for call in calls.values():
        for _ in range(WARM_UP_CALLS):
            call()
    tallies = {name: Tally() for name in calls}
    for _ in range(ROUNDS):
        for name, call in calls.items():
            tally = tallies[name]
            before = server_cpu_s(pid)
            for _ in range(CALLS_PER_ROUND):
                started = time.perf_counter()
                call()
                tally.latencies_s.append(time.perf_counter() - started)
            tally.server_cpu_s += server_cpu_s(pid) - before
    return tallies


def report(tallies: dict[str, Tally]) -> None:
    base = tallies["gRPC"]
    base_median = statistics.median(base.latencies_s)
    base_p99 = base.percentile(0.99)
    for name, tally in tallies.items():
        median = statistics.median(tally.latencies_s)
        p99 = tally.percentile(0.99)
        print(f"  {name:<15} median {median * 1e6:>6.0f} µs ({median / base_median:.2f}x)"
              f"   p99 {p99 * 1e6:>6.0f} µs ({p99 / base_p99:.2f}x)"
              f"   server {tally.cpu_us_per_call:>4.0f} CPU-µs/call"
              f" ({tally.cpu_us_per_call / base.cpu_us_per_call:.2f}x)")


def run() -> None:
    with tempfile.NamedTemporaryFile(prefix="okey-bench-", suffix=".log") as log:
        process, startup = start_server(log, ["--http-port", "0"])
        print(f"http benchmark: CheckHand, one call at a time, {ROUNDS * CALLS_PER_ROUND:,} "
              f"calls per transport in {ROUNDS} interleaved rounds; ratios to gRPC")
        try:
            tallies = measure(f"127.0.0.1:{startup['port']}", int(startup["http_port"]),
                              process.pid)
        finally:
            stop_server(process)
    report(tallies)


if __name__ == "__main__":
    run()
