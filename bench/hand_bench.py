"""In-process hand-checking benchmark: checks/s and latency on fixed, seeded corpora.

Each figure is measured on a corpus the engine has not seen, after a warm-up
on corpora drawn from other seeds: the engine's transposition tables are then
as warm as in a long-running server, but no measured hand is a cache hit on
itself. Winning hands are timed with their arrangement built (and, for the
15-tile queries, with every winning discard's arrangement read as well as
without).
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpora import (
    Hand,
    fifteen_tile_hands,
    near_winning_hands,
    random_hands,
    winning_hands,
)
from okey_rules.hand import check_hand, winning_discards

SIZE = 20_000
FIFTEEN_SIZE = 10_000


def _timed(corpus: Sequence[Hand], check: Callable[[Hand], object]) -> tuple[float, list[int]]:
    """(checks per CPU-second, per-check CPU latencies in ns) over the corpus, GC paused.

    The clock is this thread's CPU time, so other work on the machine (a
    second core's worth of tests, say) does not inflate the figures; on an
    idle machine wall time agrees within the clock's own cost (~0.1 us).
    """
    latencies = []
    clock = time.thread_time_ns
    gc.disable()
    try:
        start = clock()
        for hand in corpus:
            t0 = clock()
            check(hand)
            latencies.append(clock() - t0)
        elapsed = clock() - start
    finally:
        gc.enable()
    latencies.sort()
    return len(corpus) / (elapsed / 1e9), latencies


def _pct(latencies: list[int], q: float) -> float:
    return latencies[min(len(latencies) - 1, int(len(latencies) * q))] / 1000


def _check14(hand: Hand) -> object:
    verdict = check_hand(*hand)
    return verdict.arrangement  # built inside check_hand for winning hands


def _check15(hand: Hand) -> object:
    return winning_discards(*hand).discards


def _check15_arranged(hand: Hand) -> object:
    return [d.arrangement for d in winning_discards(*hand).discards]


def run() -> None:
    print("== hand checking, in-process (one core, CPU time) ==")
    print("warming up on corpora from other seeds ...", flush=True)
    for hand in random_hands(SIZE, seed=101) + winning_hands(SIZE, seed=102):
        check_hand(*hand)
    for hand in near_winning_hands(SIZE, seed=103):
        check_hand(*hand)
    for hand in fifteen_tile_hands(FIFTEEN_SIZE, seed=104):
        winning_discards(*hand)
    rows = [
        ("random 14", random_hands(SIZE), _check14, None),
        ("winning 14 (+arrangement)", winning_hands(SIZE), _check14, 50_000),
        ("near-winning 14", near_winning_hands(SIZE), _check14, 100_000),
        ("15-tile which-discards", fifteen_tile_hands(FIFTEEN_SIZE), _check15, 20_000),
        (
            "15-tile + all arrangements",
            fifteen_tile_hands(FIFTEEN_SIZE, seed=5),
            _check15_arranged,
            None,
        ),
    ]
    print(f"{'corpus':30} {'checks/s':>10} {'p50 us':>8} {'p99 us':>8} {'max us':>8}  target")
    for name, corpus, check, target in rows:
        rate, latencies = _timed(corpus, check)
        goal = f">= {target:,}/s" if target else ""
        if target == 100_000:
            goal += ", p99 < 50 us"
        print(
            f"{name:30} {rate:10,.0f} {_pct(latencies, 0.5):8.1f} {_pct(latencies, 0.99):8.1f}"
            f" {latencies[-1] / 1000:8.0f}  {goal}"
        )


if __name__ == "__main__":
    run()
