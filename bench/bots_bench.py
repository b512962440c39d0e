"""Bot strength and speed (issue 25, points 5 and 6): seeded rounds played in-process.

Every round is played through the Round interface (okey_rules.play.round) by
bots on all four seats, `suggest_move` choosing each move from the seat's view
and legal moves alone. For each pairing of levels (1 v 2, 2 v 3, 1 v 3) the two
levels sit on alternate seats (0 and 2 against 1 and 3), swapped every other
round so that each level plays each seat equally often; each round is dealt
from its own seed.

Who wins a round: in classic Okey, the level of the seat that declared the win
(a drawn round, the wall run out, counts for neither); in Okey 101, where points
are bad, the level whose two seats scored fewer points together in the round
(the finisher's -101, racks, 202 for never opening, penalties: the engine's
scoring), a tie for neither. A level's win rate is its share of the decided
rounds, with a 95% Wilson interval; it beats the other with 95% confidence when
the interval's low end is above one half.

Speed: median and p99 of one `suggest_move` call per level, on the positions of
seeded level-2 rounds (every decision of the seat on turn, from the deal on), each
level asked at each position, the first asked in turn.

`python bench/bots_bench.py` plays 2,000 classic and 500 Okey 101 rounds per
pairing; `--quick` 200 and 60. Rounds are shared between two processes.
`--game classic --pairing 2v3` plays one game's one pairing (each repeatable);
`--no-timing` and `--timing-only` skip or keep only the speed part.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Sequence
from multiprocessing import Pool
from multiprocessing.pool import Pool as PoolType
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))

from okey_rules.bots.suggest import suggest_move
from okey_rules.dealing.deal import deal
from okey_rules.play.round import RoundState, ScoreFields, round_for
from okey_rules.play.round_types import MoveKind, Phase
from okey_rules.ruleset import Game, Ruleset, preset

SEATS = 4
PAIRINGS = ((1, 2), (2, 3), (1, 3))
FULL_ROUNDS = {Game.CLASSIC: 2000, Game.OKEY_101: 500}
QUICK_ROUNDS = {Game.CLASSIC: 200, Game.OKEY_101: 60}
SPEED_ROUNDS = {Game.CLASSIC: 12, Game.OKEY_101: 12}
QUICK_SPEED_ROUNDS = {Game.CLASSIC: 4, Game.OKEY_101: 4}
MOVE_LIMIT = 3000  # a round longer than this is a bot stuck in a loop: an error
Z95 = 1.959964
WORKERS = 2
FIELDS = ScoreFields(state="state", table="table")


def rules_of(game: Game) -> Ruleset:
    return preset("101") if game is Game.OKEY_101 else preset("classic")


class Played(NamedTuple):
    state: RoundState
    moves: int


def play_round(game: Game, levels: Sequence[int], seed: str,
               timings: dict[int, list[float]] | None = None) -> Played:
    """One round with the seat `s` bot at `levels[s]`; `timings` collects each call's
    seconds by level when given."""
    rules = rules_of(game)
    rounds = round_for(game)
    state = rounds.start(deal(rules, SEATS, 0, seed=seed), deal_ref="", round_number=1,
                         now_ms=None)
    moves = 0
    while state.phase is not Phase.ROUND_OVER:
        if moves > MOVE_LIMIT:
            raise RuntimeError(f"round {seed!r} ({levels}) did not end in {MOVE_LIMIT} moves")
        state = _show_gosterme(state, levels, timings)
        seat = state.turn
        legal = rounds.legal_moves(state, seat, None)
        started = time.perf_counter()
        move = suggest_move(rounds.view(state, seat), legal, levels[seat]).move
        if timings is not None:
            timings[levels[seat]].append(time.perf_counter() - started)
        result = rounds.apply(state, move, None)
        if not result.legal or result.state is None:
            raise RuntimeError(f"round {seed!r}: level {levels[seat]} chose an illegal"
                               f" {move}: {result.message}")
        state = result.state
        moves += 1
    return Played(state, moves)


def _show_gosterme(state: RoundState, levels: Sequence[int],
                   timings: dict[int, list[float]] | None) -> RoundState:
    """Classic: a seat off turn may show gösterme; its bot is asked when it may."""
    rounds = round_for(state.rules.game)
    if state.rules.game is not Game.CLASSIC or state.move_number > 2 * SEATS:
        return state
    for seat in range(SEATS):
        if seat == state.turn:
            continue
        legal = rounds.legal_moves(state, seat, None)
        if not any(move.kind is MoveKind.GOSTERME for move in legal):
            continue
        started = time.perf_counter()
        move = suggest_move(rounds.view(state, seat), legal, levels[seat]).move
        if timings is not None:
            timings[levels[seat]].append(time.perf_counter() - started)
        if move.kind is MoveKind.GOSTERME:
            result = rounds.apply(state, move, None)
            assert result.state is not None
            state = result.state
    return state


def winner_level(game: Game, played: Played, levels: Sequence[int]) -> int | None:
    """The level that won the round (see the module's docstring), or None."""
    state = played.state
    outcome = state.outcome
    assert outcome is not None
    if game is Game.CLASSIC:
        return levels[outcome.winner] if outcome.won else None
    if not outcome.won and not outcome.drawn:
        return None  # a void round scores nothing
    scored, _ = round_for(game).score(state, SEATS, None, FIELDS)
    totals: dict[int, int] = {}
    for seat, delta in enumerate(scored.deltas):
        totals[levels[seat]] = totals.get(levels[seat], 0) + delta
    (low, low_total), (_high, high_total) = sorted(totals.items(), key=lambda kv: kv[1])
    return None if low_total == high_total else low


def seating(pairing: tuple[int, int], index: int) -> tuple[int, ...]:
    a, b = pairing if index % 2 == 0 else pairing[::-1]
    return (a, b, a, b)


def _one(job: tuple[str, tuple[int, int], int]) -> tuple[int | None, int]:
    game_name, pairing, index = job
    game = Game(game_name)
    levels = seating(pairing, index)
    played = play_round(game, levels, f"bots {game_name} {pairing} {index}")
    return winner_level(game, played, levels), played.moves


def wilson(wins: int, total: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% with the default z)."""
    if not total:
        return 0.0, 1.0
    share = wins / total
    centre = share + z * z / (2 * total)
    spread = z * math.sqrt(share * (1 - share) / total + z * z / (4 * total * total))
    scale = 1 + z * z / total
    return (centre - spread) / scale, (centre + spread) / scale


def strength(game: Game, rounds: int, pool: PoolType,
             pairings: Sequence[tuple[int, int]] = PAIRINGS) -> None:
    for pairing in pairings:
        started = time.perf_counter()
        jobs = [(game.value, pairing, index) for index in range(rounds)]
        results = pool.map(_one, jobs, chunksize=4)
        low, high = pairing
        high_wins = sum(1 for level, _ in results if level == high)
        decided = sum(1 for level, _ in results if level is not None)
        lo, hi = wilson(high_wins, decided)
        verdict = "yes" if lo > 0.5 else "no"
        moves = statistics.mean(m for _, m in results)
        print(f"  {game.value:7} L{high} v L{low}: {rounds} rounds, {decided} decided;"
              f" L{high} wins {high_wins / max(decided, 1):.1%}"
              f" (95% CI {lo:.1%}-{hi:.1%}); beats L{low} with 95% confidence: {verdict};"
              f" {moves:.0f} moves a round; {time.perf_counter() - started:.0f} s", flush=True)


def speed(game: Game, rounds: int) -> None:
    timings: dict[int, list[float]] = {1: [], 2: [], 3: []}
    for index in range(rounds):
        levels = (2, 2, 2, 2)
        rules = rules_of(game)
        rounds_of = round_for(game)
        state = rounds_of.start(deal(rules, SEATS, 0, seed=f"speed {game.value} {index}"),
                                deal_ref="", round_number=1, now_ms=None)
        while state.phase is not Phase.ROUND_OVER:
            seat = state.turn
            legal = rounds_of.legal_moves(state, seat, None)
            view = rounds_of.view(state, seat)
            # The levels take turns going first: the analysis caches one warms serve the next.
            turn = len(timings[1]) % 3
            for level in (1, 2, 3)[turn:] + (1, 2, 3)[:turn]:
                started = time.perf_counter()
                suggest_move(view, legal, level)
                timings[level].append(time.perf_counter() - started)
            move = suggest_move(view, legal, levels[seat]).move
            result = rounds_of.apply(state, move, None)
            assert result.state is not None
            state = result.state
    for level, seconds in timings.items():
        ordered = sorted(seconds)
        p99 = ordered[min(len(ordered) - 1, math.ceil(0.99 * len(ordered)) - 1)]
        print(f"  {game.value:7} suggest_move level {level}: {len(ordered)} positions,"
              f" median {statistics.median(ordered) * 1e3:.2f} ms, p99 {p99 * 1e3:.2f} ms",
              flush=True)


def run(quick: bool = False, games: Sequence[Game] = (Game.CLASSIC, Game.OKEY_101),
        pairings: Sequence[tuple[int, int]] = PAIRINGS, timing: bool = True) -> None:
    counts = QUICK_ROUNDS if quick else FULL_ROUNDS
    speeds = QUICK_SPEED_ROUNDS if quick else SPEED_ROUNDS
    if timing:
        print("suggest_move per call (positions of seeded level-2 rounds, every level on"
              " each):")
        for game in games:
            speed(game, speeds[game])
    if not pairings:
        return
    print(f"strength ({WORKERS} processes; a round's winner as in the module docstring):")
    with Pool(WORKERS) as pool:
        for game in games:
            strength(game, counts[game], pool, pairings)


def _pairing(text: str) -> tuple[int, int]:
    """`2v3` names the pairing of levels 2 and 3 (the lower first)."""
    low, high = sorted(int(level) for level in text.lower().split("v"))
    return low, high


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds per pairing")
    parser.add_argument("--game", choices=[g.value for g in Game], action="append",
                        help="only this game (repeatable; default both)")
    parser.add_argument("--pairing", type=_pairing, action="append",
                        help="only this pairing of levels, as 2v3 (repeatable; default"
                             " 1v2, 2v3, 1v3)")
    parser.add_argument("--no-timing", action="store_true",
                        help="skip suggest_move's timing")
    parser.add_argument("--timing-only", action="store_true", help="only suggest_move's timing")
    args = parser.parse_args()
    games = [Game(g) for g in args.game] if args.game else [Game.CLASSIC, Game.OKEY_101]
    pairings = [] if args.timing_only else args.pairing or list(PAIRINGS)
    run(args.quick, games, pairings, not args.no_timing)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
