"""Hand analysis in-process: median and p99 per call on dealt classic racks.

Run alone with `python bench/analysis_bench.py`, or through bench/run.py,
which calls `run()`.

Racks come from classic deals (the classic preset, four seats, seeds
``analysis-bench-{corpus}-{i}``): the dealer's 15 tiles for
`okey_rules.analysis.analyze_discards` (every distinct discard with its
distance and useful draws, from the hand alone) and the other seats' 14 for
`okey_rules.analysis.distance`. Each call is timed in PASSES passes, each
on racks of its own seeds, one rack per call, wall clock with the garbage
collector paused, after a warm-up on racks of other seeds (the engine's
tables then hold what a running bot's would, but no timed rack is a cache
hit on itself); the pass with the lowest p99 is reported and every pass
printed. The VM is shared: read the
figures of one run side by side, not against another day's.
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

DEALS = 300  # 900 racks of 14 and 300 of 15 per corpus
WARM_UP_DEALS = 100
PASSES = 3

Rack = tuple[list[Any], Any]  # (tiles, okey) as okey_rules Tiles


def dealt_racks(deals: int, corpus: str) -> tuple[list[Rack], list[Rack]]:
    """(racks of 14, racks of 15) from `deals` seeded classic deals."""
    from okey_rules import preset
    from okey_rules.dealing.deal import deal
    from okey_rules.tiles import TILE_OF_CODE

    rules = preset("classic")
    fourteen: list[Rack] = []
    fifteen: list[Rack] = []
    for index in range(deals):
        dealt = deal(rules, seed=f"analysis-bench-{corpus}-{index}")
        for rack in dealt.racks:
            tiles = [TILE_OF_CODE[code] for code in rack]
            (fifteen if len(tiles) == 15 else fourteen).append((tiles, dealt.okey))
    return fourteen, fifteen


def _latencies(racks: Sequence[Rack], call: Callable[[list[Any], Any], object]) -> list[float]:
    """Per-call wall-clock latencies in ms (GC paused), sorted."""
    clock = time.perf_counter_ns
    found = []
    gc.disable()
    try:
        for tiles, okey in racks:
            start = clock()
            call(tiles, okey)
            found.append((clock() - start) / 1e6)
    finally:
        gc.enable()
    found.sort()
    return found


def _median_p99(latencies: list[float]) -> tuple[float, float]:
    last = len(latencies) - 1
    return latencies[len(latencies) // 2], latencies[min(last, len(latencies) * 99 // 100)]


def measure() -> dict[str, tuple[float, float]]:
    """{name: (median ms, p99 ms)} of the best pass of each call, every pass printed."""
    from okey_rules.analysis import analyze_discards, distance

    warm14, warm15 = dealt_racks(WARM_UP_DEALS, "warm-up")
    for tiles, okey in warm14:
        distance(tiles, okey)
    for tiles, okey in warm15:
        analyze_discards(tiles, okey)
    corpora = [dealt_racks(DEALS, f"pass-{number}") for number in range(PASSES)]
    calls: dict[str, tuple[int, Callable[[list[Any], Any], object]]] = {
        "distance, 14 tiles": (0, distance),
        "analyze_discards, 15 tiles": (1, analyze_discards),
    }
    best: dict[str, tuple[float, float]] = {}
    for name, (size, call) in calls.items():
        passes = []
        for number in range(PASSES):
            median, p99 = _median_p99(_latencies(corpora[number][size], call))
            print(f"  {name}: pass {number + 1}: median {median:.2f} ms, p99 {p99:.2f} ms")
            passes.append((median, p99))
        best[name] = min(passes, key=lambda figures: figures[1])
    return best


def run() -> None:
    best = measure()
    for name, (median, p99) in best.items():
        print(f"{name}: median {median:.2f} ms, p99 {p99:.2f} ms (best of {PASSES} passes)")


if __name__ == "__main__":
    run()
