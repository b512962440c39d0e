"""Okey 101 BestOpening: per-rack time in-process, and the RPC against the health Check.

Run alone with `python bench/opening_bench.py`, or through bench/run.py,
which calls `run()`.

In-process: `okey_rules.search.opening.best_openings` (the melds and the pairs,
what the RPC computes) on two seeded corpora of RACKS racks each, one rack
at a time, wall-clock per rack with the garbage collector paused: racks as
a 101 deal gives them (21 tiles, the dealer's 22; `deal` with the 101
preset) and racks built mostly from melds with okeys and false jokers among
them (as a rack looks when its player is close to opening, where the search
has the most to weigh). Each corpus is timed PASSES times after a warm-up
on racks of other seeds; the pass with the lowest p99 is reported, every
pass printed.

Before and after (issue 25, point 7): the search as it was at f9b2144
(bench/opening_before.py, the baseline, kept for this comparison) and the
engine's current one, on the same dealt racks in the same run, passes
interleaved (before, after, after, before, ...) so that a machine that
speeds up or slows down weighs on both; the median over passes of each
pass's median and p99, their ratios (target: median at most 0.6 of the
baseline's, p99 no worse), and the medians by kind of rack (okeys held,
value under 50). Both must give the same answers on every rack.

Over gRPC: an okey-server subprocess driven the way rpc_bench drives it
(same client, IN_FLIGHT calls outstanding, the same number of calls of
each kind in interleaved rounds, requests serialized up front and answers
left undecoded), BestOpening on the dealt racks (tiles as Tile messages,
and as notation) against the same server's health Check. Read the ratio
and the server CPU per call, not the absolute rates: the 2-core machine is
shared and the Python client burns most of a core.
"""

from __future__ import annotations

import gc
import random
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # rpc_bench.py, when run as a script

import rpc_bench
from rpc_bench import BASELINE, HEALTH_CHECK, Tally, drive

RACKS = 1_000
PASSES = 3
# Corpus seeds per use, so that no two uses share a rack.
SEEDS = {"dealt": 1, "built": 2, "warm-up": 3, "rpc notation": 4}
IN_FLIGHT = rpc_bench.IN_FLIGHT
ROUNDS = 10
CALLS_PER_ROUND = 300
WARM_UP_CALLS = 300
CHECKED_ANSWERS = 100
CALL_TIMEOUT_S = rpc_bench.CALL_TIMEOUT_S
BEST_OPENING = "/okey.v1.HandService/BestOpening"
PLAYERS = 4

Rack = tuple[list[Any], Any]  # (tiles, okey) as okey_rules Tiles


def dealt_racks(count: int, seed: int) -> list[Rack]:
    """Racks of Okey 101 deals from seeds ``opening-bench-{seed}-{i}``: seat i % 4, dealer 0."""
    from okey_rules import preset
    from okey_rules.dealing.deal import deal
    from okey_rules.tiles import TILE_OF_CODE

    rules = preset("101")
    racks = []
    for index in range(count):
        dealt = deal(rules, seed=f"opening-bench-{seed}-{index}")
        rack = dealt.racks[index % PLAYERS]
        racks.append(([TILE_OF_CODE[code] for code in rack], dealt.okey))
    return racks


def built_racks(count: int, seed: int) -> list[Rack]:
    """Racks of 21 or 22 tiles made mostly of sets and runs, up to two okeys, the rest random.

    Every rack is one a table can deal: two copies of a face at most, one
    copy of the indicator's face.
    """
    from okey_rules.tiles import FALSE_JOKER_FACE, NUMBERS, TILE_OF_CODE, indicator_for, okey_for

    rng = random.Random(seed)
    racks: list[Rack] = []
    while len(racks) < count:
        okey = okey_for(TILE_OF_CODE[rng.randrange(52)])
        size = rng.choice((21, 22))
        faces: list[int] = []
        while len(faces) < size - rng.randrange(0, 6):
            if rng.random() < 0.4:
                number = rng.randrange(NUMBERS)
                faces += [c * NUMBERS + number for c in rng.sample(range(4), rng.choice((3, 4)))]
            else:
                colour, length = rng.randrange(4), rng.randrange(3, 7)
                start = rng.randrange(0, NUMBERS - length + 1)
                faces += [colour * NUMBERS + start + i for i in range(length)]
        faces = faces[:size]
        while len(faces) < size:
            faces.append(rng.randrange(FALSE_JOKER_FACE + 1))
        # A natural of the okey's face is played by a false joker; then 0-2 okeys.
        faces = [FALSE_JOKER_FACE if f == okey.face else f for f in faces]
        for _ in range(rng.choice((0, 1, 1, 2))):
            faces[rng.randrange(size)] = okey.face
        counts = [faces.count(face) for face in range(FALSE_JOKER_FACE + 1)]
        if max(counts) > 2 or counts[indicator_for(okey).face] > 1:
            continue
        seen = [0] * (FALSE_JOKER_FACE + 1)
        tiles = []
        for face in faces:
            tiles.append(TILE_OF_CODE[face + (FALSE_JOKER_FACE + 1) * seen[face]])
            seen[face] += 1
        racks.append((tiles, okey))
    return racks


def opening_requests(racks: Sequence[Rack], as_notation: bool) -> list[Any]:
    """BestOpeningRequest messages (no preset: Okey 101), tiles and okey as messages or notation."""
    from okey.v1 import hand_pb2

    return rpc_bench.tile_requests(hand_pb2.BestOpeningRequest, racks, as_notation)


# --- in-process -----------------------------------------------------------------


def _latencies(racks: Sequence[Rack], work: Callable[[Rack], object]) -> list[int]:
    """Per-rack wall-clock ns (GC paused), sorted."""
    latencies = []
    clock = time.perf_counter_ns
    gc.disable()
    try:
        for rack in racks:
            started = clock()
            work(rack)
            latencies.append(clock() - started)
    finally:
        gc.enable()
    latencies.sort()
    return latencies


def _ms(latencies: list[int], q: float) -> float:
    return latencies[min(len(latencies) - 1, int(len(latencies) * q))] / 1e6


def in_process() -> None:
    from okey_rules import preset
    from okey_rules.search.opening import best_openings

    rules = preset("101")

    def work(rack: Rack) -> object:
        return best_openings(rack[0], rack[1], rules)

    print(f"== BestOpening in-process (best_openings: melds and pairs), {RACKS:,} racks ==")
    for rack in dealt_racks(RACKS // 4, SEEDS["warm-up"]) + built_racks(RACKS // 4, 99):
        work(rack)
    print(f"{'corpus':38} {'median ms':>9} {'p99 ms':>8} {'max ms':>8} {'racks/s':>8}  opens")
    corpora = {
        "dealt (101 deals: 21, the dealer 22)": dealt_racks(RACKS, SEEDS["dealt"]),
        "built from melds (0-2 okeys)": built_racks(RACKS, SEEDS["built"]),
    }
    for name, racks in corpora.items():
        passes = [_latencies(racks, work) for _ in range(PASSES)]
        best = min(passes, key=lambda latencies: _ms(latencies, 0.99))
        rate = len(best) / (sum(best) / 1e9)
        opens = sum(best_openings(tiles, okey, rules)[0].opens for tiles, okey in racks)
        print(
            f"{name:38} {_ms(best, 0.5):9.3f} {_ms(best, 0.99):8.3f} {best[-1] / 1e6:8.2f}"
            f" {rate:8,.0f}  {opens / len(racks):.0%} by melds"
        )
        print(
            f"{'':38} passes: median {' '.join(f'{_ms(p, 0.5):.3f}' for p in passes)} ms,"
            f" p99 {' '.join(f'{_ms(p, 0.99):.3f}' for p in passes)} ms"
        )


# --- before and after ------------------------------------------------------------

COMPARED_PASSES = 6
TARGET_MEDIAN_RATIO = 0.6


def _latencies_in_order(racks: Sequence[Rack], work: Callable[[Rack], object]) -> list[int]:
    """Per-rack wall-clock ns (GC paused), in the racks' order."""
    latencies = []
    clock = time.perf_counter_ns
    gc.disable()
    try:
        for rack in racks:
            started = clock()
            work(rack)
            latencies.append(clock() - started)
    finally:
        gc.enable()
    return latencies


def _answer(openings: Any) -> tuple[Any, ...]:
    melds, pairs = openings
    return (melds.arrangement, melds.value, melds.okeys_used, melds.unused, pairs.arrangement)


def before_and_after() -> dict[str, float]:
    """The baseline's and the engine's search on the same dealt racks, in one run.

    Returns the ratios (after / before) of the medians and of the p99s.
    """
    import opening_before
    from okey_rules import preset
    from okey_rules.search import opening

    rules = preset("101")
    racks = dealt_racks(RACKS, SEEDS["dealt"])
    versions: dict[str, Callable[[Rack], object]] = {
        "before (bench/opening_before.py, f9b2144)": (
            lambda rack: opening_before.best_openings(rack[0], rack[1], rules)
        ),
        "after (okey_rules.search.opening)": (
            lambda rack: opening.best_openings(rack[0], rack[1], rules)
        ),
    }
    before_name, after_name = versions
    for tiles, okey in racks:
        answers = [_answer(work((tiles, okey))) for work in versions.values()]
        if answers[0] != answers[1]:
            raise AssertionError(f"before and after differ on {tiles} (okey {okey})")
    warm_up = dealt_racks(RACKS // 4, SEEDS["warm-up"])
    for work in versions.values():
        for rack in warm_up:
            work(rack)
    runs: dict[str, list[list[int]]] = {name: [] for name in versions}
    for index in range(COMPARED_PASSES):
        order = list(versions) if index % 2 == 0 else list(versions)[::-1]
        for name in order:
            runs[name].append(_latencies_in_order(racks, versions[name]))

    def summary(name: str) -> tuple[float, float, float]:
        passes = [sorted(latencies) for latencies in runs[name]]
        medians = sorted(_ms(p, 0.5) for p in passes)
        p99s = sorted(_ms(p, 0.99) for p in passes)
        middle = len(passes) // 2
        return medians[middle], p99s[middle], max(p[-1] for p in passes) / 1e6

    print(
        f"== BestOpening before and after, {RACKS:,} dealt racks, {COMPARED_PASSES} interleaved"
        " passes (same answers on every rack) =="
    )
    print(f"{'search':44} {'median ms':>9} {'p99 ms':>8} {'max ms':>8}")
    figures = {name: summary(name) for name in versions}
    for name, (median, p99, worst) in figures.items():
        print(f"{name:44} {median:9.3f} {p99:8.3f} {worst:8.2f}")
    median_ratio = figures[after_name][0] / figures[before_name][0]
    p99_ratio = figures[after_name][1] / figures[before_name][1]
    per_pass = [
        sorted(a)[len(a) // 2] / sorted(b)[len(b) // 2]
        for a, b in zip(runs[after_name], runs[before_name], strict=True)
    ]
    print(
        f"after/before: median {median_ratio:.2f} (target <= {TARGET_MEDIAN_RATIO}:"
        f" {'met' if median_ratio <= TARGET_MEDIAN_RATIO else 'NOT MET'}),"
        f" p99 {p99_ratio:.2f} ({'not worse' if p99_ratio <= 1 else 'WORSE'});"
        f" median ratio per pass {' '.join(f'{r:.2f}' for r in per_pass)}"
    )
    _by_kind(racks, runs, before_name, after_name, rules)
    return {"median": median_ratio, "p99": p99_ratio}


def _by_kind(
    racks: Sequence[Rack],
    runs: dict[str, list[list[int]]],
    before_name: str,
    after_name: str,
    rules: Any,
) -> None:
    """Median ms per kind of rack, before and after (each rack's fastest pass)."""
    from okey_rules.search.opening import best_opening

    fastest = {name: [min(times) for times in zip(*runs[name], strict=True)] for name in runs}
    kinds: dict[str, list[int]] = {}
    for index, (tiles, okey) in enumerate(racks):
        okeys = sum(tile.face == okey.face for tile in tiles)
        kinds.setdefault(f"{okeys} okey{'s' if okeys != 1 else ''}", []).append(index)
        worth = best_opening(tiles, okey, rules).value
        kinds.setdefault("worth under 50" if worth < 50 else "worth 50 or more", []).append(index)
    print(f"{'racks by kind':24} {'racks':>6} {'before ms':>9} {'after ms':>9} {'ratio':>6}")
    for kind in sorted(kinds):
        indexes = kinds[kind]
        medians = [
            sorted(fastest[name][i] for i in indexes)[len(indexes) // 2] / 1e6
            for name in (before_name, after_name)
        ]
        print(
            f"{kind:24} {len(indexes):6} {medians[0]:9.3f} {medians[1]:9.3f}"
            f" {medians[1] / medians[0]:6.2f}"
        )


# --- over gRPC ------------------------------------------------------------------


def _check_answers(channel: Any, racks: Sequence[Rack]) -> None:
    """The server's openings of `racks` (both request forms) are the engine's."""
    from okey.v1 import hand_pb2_grpc
    from okey_rules.search.opening import best_openings

    stub = hand_pb2_grpc.HandServiceStub(channel)
    for as_notation in (False, True):
        for (tiles, okey), request in zip(
            racks, opening_requests(racks, as_notation), strict=True
        ):
            answer = stub.BestOpening(request, timeout=CALL_TIMEOUT_S)
            melds, pairs = best_openings(tiles, okey)
            if (answer.value, answer.pairs.count) != (melds.value, pairs.count):
                raise AssertionError(f"server says {answer.summary!r} for {request}")


def measure(address: str, pid: int, rounds: int = ROUNDS) -> dict[str, Tally]:
    """Interleaved rounds of the health Check and BestOpening (both request forms)."""
    import grpc
    from grpc_health.v1 import health_pb2

    calls = rounds * CALLS_PER_ROUND
    dealt = dealt_racks(RACKS, SEEDS["dealt"])
    others = dealt_racks(RACKS, SEEDS["rpc notation"])
    # The racks cycle when more calls are made than there are racks.
    health = health_pb2.HealthCheckRequest().SerializeToString()
    batches: dict[str, tuple[str, list[bytes]]] = {BASELINE: (HEALTH_CHECK, [health] * calls)}
    for name, racks, as_notation in (("messages", dealt, False), ("notation", others, True)):
        requests = [r.SerializeToString() for r in opening_requests(racks, as_notation)]
        batches[f"BestOpening, tiles as {name}"] = (
            BEST_OPENING, [requests[i % len(requests)] for i in range(calls)]
        )
    warm_up_racks = dealt_racks(WARM_UP_CALLS, SEEDS["warm-up"])
    warm_up = [r.SerializeToString() for r in opening_requests(warm_up_racks, False)]

    with grpc.insecure_channel(address, options=rpc_bench.CHANNEL_OPTIONS) as channel:
        grpc.channel_ready_future(channel).result(timeout=rpc_bench.START_TIMEOUT_S)
        _check_answers(channel, warm_up_racks[:CHECKED_ANSWERS])
        methods = {
            path: channel.unary_unary(path, request_serializer=None, response_deserializer=None)
            for path in (HEALTH_CHECK, BEST_OPENING)
        }
        drive(methods[HEALTH_CHECK], [health] * WARM_UP_CALLS, IN_FLIGHT)
        drive(methods[BEST_OPENING], warm_up, IN_FLIGHT)
        return rpc_bench.interleave(methods, batches, rounds, CALLS_PER_ROUND, pid)


def over_grpc(server_args: Sequence[str] = ()) -> None:
    calls = ROUNDS * CALLS_PER_ROUND
    with tempfile.NamedTemporaryFile(prefix="okey-opening-bench-", suffix=".log") as log:
        process, startup = rpc_bench.start_server(
            log, [*rpc_bench.CPU_BENCH_ARGS, *server_args]
        )
        print(
            f"== BestOpening over gRPC: okey-server subprocess (log level info), {IN_FLIGHT} "
            f"calls in flight, {calls:,} calls of each kind in {ROUNDS} interleaved rounds =="
        )
        try:
            tallies = measure(f"127.0.0.1:{startup['port']}", process.pid)
        finally:
            rpc_bench.stop_server(process)
    rpc_bench.report(tallies)


def run(server_args: Sequence[str] = ()) -> None:
    before_and_after()
    in_process()
    over_grpc(server_args)


if __name__ == "__main__":
    run(sys.argv[1:])
