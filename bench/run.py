"""`make bench`: runs every benchmark in turn and prints its figures (not part of the test suite).

hand_bench: hand checks per second in-process; rpc_bench: CheckHand RPCs per
second against the server's health Check; deal_bench: deals per second;
game_bench: ApplyMove, LegalMoves and PlayerView RPCs per second on a
mid-round state against the health Check, and the signed state's size;
opening_bench: Okey 101 BestOpening per rack in-process (median, p99) and
its RPC against the health Check; memory_bench: server memory under
256 concurrent large requests, old limits against the defaults, and the
worst legal request at the concurrency limit against the Kubernetes
manifest's memory limit;
process_bench: health Check and
CheckHand calls per second against one and two server processes
(`--processes`), from several client processes; limits_bench: header-only
streams, a greedy connection, floods, a drain and rapid resets against the
server's limits, and how soon a restarted process serves again; seal_bench:
ApplyMove server CPU per call of the last revision before the sealed state
(a git worktree under .bench-cache/) against this checkout's, in one run;
bots_bench: seeded rounds between bot levels (win rates with 95% intervals) and
suggest_move's median and p99 per level; analysis_bench: hand analysis per
call in-process (the 14-tile distance and the 15-tile per-discard analysis,
median and p99, on dealt classic racks); http_bench: CheckHand over gRPC,
Connect JSON, Connect binary and gRPC-Web from one server, one call at a
time, as ratios to gRPC (latency median and p99, server CPU per call). Each
is a bounded run (counts and time budgets fixed in its module). A benchmark
module that is missing is skipped with a note; one that fails is reported and
the others still run; the exit status is 1 if any failed. The soak
(bench/soak.py, `make soak`) is not among them: it runs for 10 minutes.
"""

from __future__ import annotations

import importlib
import sys
import time
import traceback
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
BENCHMARKS = (
    "hand_bench", "rpc_bench", "deal_bench", "game_bench", "opening_bench", "memory_bench",
    "process_bench", "limits_bench", "seal_bench", "bots_bench",
    "analysis_bench", "http_bench",
)


def main() -> int:
    sys.path.insert(0, str(BENCH_DIR))
    failed: list[str] = []
    for name in BENCHMARKS:
        print(f"=== {name} ===", flush=True)
        if not (BENCH_DIR / f"{name}.py").exists():
            print(f"(skipped: bench/{name}.py does not exist yet)\n", flush=True)
            continue
        started = time.perf_counter()
        try:
            importlib.import_module(name).run()
        except Exception:
            traceback.print_exc()
            failed.append(name)
        print(f"({name}: {time.perf_counter() - started:.0f} s)\n", flush=True)
    if failed:
        print(f"FAILED: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
