"""What sealing the game state costs: ApplyMove server CPU per call, before and after, in one run.

Run alone with `.venv/bin/python bench/seal_bench.py [--baseline REV] [--current REV]`, or
through bench/run.py, which calls `run()`. Two okey-server subprocesses run side by side:

- before: the revision BASELINE_REV (the last commit whose state is a signed
  okey.v1.GameState; override with OKEY_SEAL_BASELINE or --baseline), checked out as a
  git worktree under .bench-cache/seal_bench/ (kept for the next run, git-ignored, outside
  every package), its stubs generated there by its own scripts/gen_protos.py, and served
  by this interpreter with PYTHONPATH=<worktree>/server, so it runs its own code and not
  the installed package;
- after: this checkout's okey-server, started as rpc_bench starts it (or, with --current
  REV, a worktree of REV like the baseline's, e.g. to compare two commits).

The state is never decoded: a signed message and a sealed token travel in the same field
numbers as length-delimited bytes, so the client takes it out of each answer at the wire
level and puts it back into the next request the same way (the rest of each message goes
through the current stubs). Each server reaches game_bench's mid-round state by
game_bench's policy (its deal seed, moves played and seeded choices), and the run checks
that both played the same moves, so both measure the same discard.

The calls are driven like rpc_bench's (IN_FLIGHT outstanding, raw pre-serialized
requests, answers undecoded; the servers' stream limit raised: see SERVER_ARGS), in ROUNDS
rounds of [before Check, before ApplyMove, after Check, after ApplyMove], the order rotated
each round, each chunk's server CPU read from that server's /proc/<pid>/stat. Both servers are
pinned to the same CPU (see _start), and each has its health Check beside: read the
after/before ratios and ApplyMove/Check per server, not calls/s.

Target: sealing adds at most 10% to ApplyMove's server CPU per call (after/before <= 1.10).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))  # rpc_bench.py, when run as a script

import game_bench
import rpc_bench
from rpc_bench import HEALTH_CHECK, Tally, drive

BASELINE_ENV = "OKEY_SEAL_BASELINE"
# The last commit before sealing; read at import so bench/run.py's plain run() honours it too.
BASELINE_REV = os.environ.get(BASELINE_ENV) or "05f3886"
TARGET_RATIO = 1.10
ROOT = Path(__file__).resolve().parent.parent
# Git-ignored, at the top of the checkout: neither under server/ (a package) nor bench/.
CACHE_DIR = ROOT / ".bench-cache" / "seal_bench"
IN_FLIGHT = rpc_bench.IN_FLIGHT
# Both servers get these flags. At the default 32 streams per connection, gRPC core
# refused (REFUSED_STREAM) up to a third of the calls of some rounds here, at 48 and
# even at 24 in flight: it still counts streams the client has seen end. A refused call
# costs the server next to nothing and would lower CPU per call; with room to spare, none
# was refused. Neither revision's Check or ApplyMove path depends on the limit.
SERVER_ARGS = ("--max-streams-per-connection", "1000")
ROUNDS = 20
CALLS_PER_ROUND = 500
WARM_UP_CALLS = game_bench.WARM_UP_CALLS
CALL_TIMEOUT_S = rpc_bench.CALL_TIMEOUT_S
GIT_TIMEOUT_S = 120.0
GEN_TIMEOUT_S = 120.0
DEAL = "/okey.v1.DealService/Deal"
APPLY_MOVE = game_bench.APPLY_MOVE
LEGAL_MOVES = game_bench.LEGAL_MOVES
PLAYER_VIEW = game_bench.PLAYER_VIEW
# Where the state travels; the same numbers before and after sealing (only the type changes).
DEAL_RESPONSE_STATE = 14
APPLY_MOVE_RESPONSE_STATE = 2
REQUEST_STATE = 1  # ApplyMoveRequest, LegalMovesRequest, PlayerViewRequest
_LENGTH_DELIMITED = 2


# --- the state at the wire level -------------------------------------------------------------


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _read_varint(data: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if pos >= len(data) or shift > 63:
            raise ValueError("truncated or overlong varint")
        byte = data[pos]
        value |= (byte & 0x7F) << shift
        pos, shift = pos + 1, shift + 7
        if not byte & 0x80:
            return value, pos


def _fields(data: bytes) -> Iterator[tuple[int, int, int, int]]:
    """(field number, wire type, start of the value, end) of each top-level field, in order."""
    pos = 0
    while pos < len(data):
        key, value_start = _read_varint(data, pos)
        number, wire_type = key >> 3, key & 7
        if wire_type == 0:
            _, end = _read_varint(data, value_start)
        elif wire_type == 1:
            end = value_start + 8
        elif wire_type == _LENGTH_DELIMITED:
            length, value_start = _read_varint(data, value_start)
            end = value_start + length
        elif wire_type == 5:
            end = value_start + 4
        else:  # groups: no okey message has one
            raise ValueError(f"wire type {wire_type} at byte {pos}")
        if end > len(data):
            raise ValueError(f"field {number} runs past the end")
        yield number, wire_type, value_start, end
        pos = end


def take_field(data: bytes, number: int) -> tuple[bytes, bytes]:
    """Field `number`'s bytes (length-delimited, once at most) and the message without it.

    The rest then parses with stubs of either generation: a stub that still declares a
    GameState there would try to parse a sealed token as one, so it never sees the field.
    """
    value = b""
    rest = bytearray()
    pos = 0
    for found, wire_type, value_start, end in _fields(data):
        if found == number:
            if wire_type != _LENGTH_DELIMITED or value:
                raise ValueError(f"field {number} is not one length-delimited value")
            value = data[value_start:end]
        else:
            rest += data[pos:end]
        pos = end
    return value, bytes(rest)


def with_state(request: Any, state: bytes) -> bytes:
    """`request` (a stub message, its state unset) serialized with `state` as field 1."""
    # Fields may come in any order on the wire; the stub's own field 1 is left empty.
    tag = _varint(REQUEST_STATE << 3 | _LENGTH_DELIMITED)
    return tag + _varint(len(state)) + state + request.SerializeToString()


# --- the servers -----------------------------------------------------------------------------


def _git(*args: str, cwd: Path = ROOT) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True, timeout=GIT_TIMEOUT_S
    ).stdout.strip()


def prepare_worktree(rev: str) -> tuple[str, Path]:
    """A detached worktree of `rev` with its stubs generated (reused when clean); (sha, path)."""
    sha = _git("rev-parse", "--verify", f"{rev}^{{commit}}")
    tree = CACHE_DIR / sha[:12]
    usable = (tree / ".git").exists()
    if usable:
        try:
            # Tracked files as committed: the server measured is that revision's code.
            usable = _git("rev-parse", "HEAD", cwd=tree) == sha and not _git(
                "status", "--porcelain", "--untracked-files=no", cwd=tree
            )
        except subprocess.CalledProcessError:
            usable = False
    if not usable:
        if tree.exists():
            _git("worktree", "remove", "--force", str(tree))
        _git("worktree", "prune")  # forgets a worktree whose directory was deleted by hand
        tree.parent.mkdir(parents=True, exist_ok=True)
        _git("worktree", "add", "--detach", str(tree), sha)
    if not (tree / "server" / "okey" / "v1" / ".generated").exists():
        # As `make gen` does, with this interpreter's grpcio-tools; it writes to <tree>/server.
        subprocess.run(
            [sys.executable, str(tree / "scripts" / "gen_protos.py")],
            cwd=tree, check=True, capture_output=True, timeout=GEN_TIMEOUT_S,
        )
    return sha, tree


def tree_command(tree: Path) -> list[str]:
    """okey-server from `tree`'s own code: PYTHONPATH ahead of the installed package.

    `env` execs the interpreter, so the pid start_server gets is the server's own (its
    CPU is what /proc reports). -P keeps the working directory off sys.path, where a
    checkout's server/ could otherwise shadow the worktree's.
    """
    return ["env", f"PYTHONPATH={tree / 'server'}", sys.executable, "-P", "-m", "okey_server.main"]


def _check_imports_from(tree: Path) -> None:
    """The modules the server imports resolve inside `tree` (not the editable install)."""
    probe = "import okey.v1.game_pb2 as g, okey_rules as r, okey_server as s; " + (
        "print(g.__file__); print(r.__file__); print(s.__file__)"
    )
    command = [*tree_command(tree)[:-3], "-P", "-c", probe]
    paths = subprocess.run(
        command, check=True, capture_output=True, text=True, timeout=GEN_TIMEOUT_S
    ).stdout.split()
    outside = [p for p in paths if not Path(p).resolve().is_relative_to(tree.resolve())]
    if len(paths) != 3 or outside:
        raise RuntimeError(f"the worktree server would import from elsewhere: {outside or paths}")


@dataclass
class Side:
    """One server and what was measured on it."""

    label: str  # "before" / "after"
    source: str  # which code it runs
    pid: int = 0
    address: str = ""
    methods: dict[str, Any] = field(default_factory=dict)
    moves: list[bytes] = field(default_factory=list)  # every move played, serialized
    state: bytes = b""  # the mid-round state as the server issued it
    apply_move: bytes = b""  # the measured request: the seat on turn discards
    next_state: bytes = b""  # the state the measured ApplyMove answers with
    cold: list[bytes] = field(default_factory=list)  # ApplyMoves on states never seen lately


def server_cpu() -> int | None:
    """The one CPU both servers are pinned to: the last this process may use (None: one)."""
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    return cpus[-1] if len(cpus) > 1 else None


def _pin(pid: int, cpu: int) -> None:
    """Every thread of `pid` to `cpu`; threads it starts later inherit it."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            os.sched_setaffinity(int(task.name), {cpu})
        except ProcessLookupError:  # a thread that has just ended
            continue


def _start(
    stack: ExitStack,
    side: Side,
    command: Sequence[str] | None,
    args: Sequence[str],
    cpu: int | None,
) -> None:
    # Closed (and deleted) by the stack, after the server is stopped.
    log = tempfile.NamedTemporaryFile(prefix="okey-seal-bench-", suffix=".log")  # noqa: SIM115
    stack.enter_context(log)
    process, startup = rpc_bench.start_server(log, args, command=command)
    stack.callback(rpc_bench.stop_server, process)  # registered before anything else can fail
    side.pid, side.address = process.pid, f"127.0.0.1:{startup['port']}"
    if cpu is not None:
        # Both servers on the same core: unpinned, the same code measured 0.91 and 1.21
        # after/before in two runs here (one process settled on the busier core for the
        # whole run); pinned, 0.99-1.01 in three.
        _pin(process.pid, cpu)


def _connect(stack: ExitStack, side: Side) -> None:
    import grpc

    channel = stack.enter_context(
        grpc.insecure_channel(side.address, options=rpc_bench.CHANNEL_OPTIONS)
    )
    grpc.channel_ready_future(channel).result(timeout=rpc_bench.START_TIMEOUT_S)
    # Raw bytes both ways: the state is handled at the wire level, the rest by the stubs.
    side.methods = {
        path: channel.unary_unary(path, request_serializer=None, response_deserializer=None)
        for path in (HEALTH_CHECK, DEAL, APPLY_MOVE, LEGAL_MOVES, PLAYER_VIEW)
    }


# --- the mid-round state ---------------------------------------------------------------------


def play_to_mid_round(side: Side) -> None:
    """game_bench.play_to_mid_round's game (deal seed, moves, seeded choices), state unread."""
    from okey.v1 import deal_pb2, game_pb2

    def call(path: str, request: bytes) -> bytes:
        return bytes(side.methods[path](request, timeout=CALL_TIMEOUT_S))

    rng = random.Random(game_bench.POLICY_SEED)
    deal = deal_pb2.DealRequest(seed=game_bench.DEAL_SEED).SerializeToString()
    state, _ = take_field(call(DEAL, deal), DEAL_RESPONSE_STATE)

    def next_move() -> Any:
        # The same calls and rng draws as game_bench's next_move, in the same order.
        view = game_pb2.PlayerViewResponse.FromString(
            call(PLAYER_VIEW, with_state(game_pb2.PlayerViewRequest(), state))
        )
        legal = with_state(game_pb2.LegalMovesRequest(seat=view.turn_seat), state)
        offered = game_pb2.LegalMovesResponse.FromString(call(LEGAL_MOVES, legal)).moves
        discards = [m for m in offered if m.kind == game_pb2.MOVE_KIND_DISCARD]
        if discards:
            return rng.choice(discards)
        kinds = {m.kind: m for m in offered}
        take = rng.random() < game_bench.TAKE_DISCARD_SHARE
        kind = game_pb2.MOVE_KIND_TAKE_DISCARD if take else game_pb2.MOVE_KIND_DRAW_FROM_WALL
        if kind not in kinds:
            raise RuntimeError(f"{side.label}: no {game_pb2.MoveKind.Name(kind)} offered")
        return kinds[kind]

    for played in range(game_bench.MOVES_PLAYED):
        move = next_move()
        answer, rest = take_field(
            call(APPLY_MOVE, with_state(game_pb2.ApplyMoveRequest(move=move), state)),
            APPLY_MOVE_RESPONSE_STATE,
        )
        parsed = game_pb2.ApplyMoveResponse.FromString(rest)
        if not parsed.legal or not answer:
            raise RuntimeError(f"{side.label}: move {played + 1} refused: {parsed.message}")
        side.moves.append(move.SerializeToString())
        state = answer
    move = next_move()
    if move.kind != game_pb2.MOVE_KIND_DISCARD:
        raise RuntimeError(f"{side.label}: the measured move is not a discard: {move}")
    side.moves.append(move.SerializeToString())
    side.state = state
    side.apply_move = with_state(game_pb2.ApplyMoveRequest(move=move), state)
    # The measured request gets a real answer: the discard applied, with its events.
    next_state, rest = take_field(call(APPLY_MOVE, side.apply_move), APPLY_MOVE_RESPONSE_STATE)
    applied = game_pb2.ApplyMoveResponse.FromString(rest)
    if not applied.legal or not applied.events or not next_state:
        raise RuntimeError(f"{side.label}: the measured move is not applied: {applied.message}")
    side.next_state = next_state


# --- measuring -------------------------------------------------------------------------------


# The cold row: ApplyMove on opening states the server has not sealed or opened lately.
# Both servers remember the states of their last calls in a table of 1,024 entries that
# is emptied when full, and every ApplyMove adds two (the state in, the state out). Going
# round COLD_STATES states, a state comes back 2 x COLD_STATES > 1,024 additions later,
# so the table has been emptied since: every call opens (after) or checks the MAC of and
# decodes (before) its state in full, as a call that lands on another process would.
COLD_STATES = 600


def prepare_cold(side: Side) -> None:
    """COLD_STATES opening states, each with its first seat's discard of its first tile."""
    from okey.v1 import deal_pb2, game_pb2

    for index in range(COLD_STATES):
        request = deal_pb2.DealRequest(seed=f"seal-bench-cold-{index}").SerializeToString()
        answer = bytes(side.methods[DEAL](request, timeout=CALL_TIMEOUT_S))
        state, rest = take_field(answer, DEAL_RESPONSE_STATE)
        dealt = deal_pb2.DealResponse.FromString(rest)
        seat = dealt.first_seat
        move = game_pb2.Move(
            kind=game_pb2.MOVE_KIND_DISCARD, seat=seat, tile=dealt.racks[seat].tiles[0]
        )
        side.cold.append(with_state(game_pb2.ApplyMoveRequest(move=move), state))


@dataclass
class Row:
    """One kind of call on one server: its totals and its per-round chunks."""

    side: Side
    path: str
    request: bytes
    total: Tally = field(default_factory=Tally)
    chunks: list[Tally] = field(default_factory=list)
    # Distinct requests sent in turn instead of `request` (the cold row).
    rotation: list[bytes] = field(default_factory=list)
    sent: int = 0

    def batch(self, calls: int) -> list[bytes]:
        if not self.rotation:
            return [self.request] * calls
        size = len(self.rotation)
        start, self.sent = self.sent, self.sent + calls
        return [self.rotation[(start + k) % size] for k in range(calls)]


def _cpu_us(tally: Tally) -> float:
    return tally.us_per_call(tally.server_cpu_s)


def measure(sides: Sequence[Side], rounds: int = ROUNDS) -> dict[str, Row]:
    """Rounds of each server's Check then ApplyMove, the order rotated each round."""
    from grpc_health.v1 import health_pb2

    health = health_pb2.HealthCheckRequest().SerializeToString()
    rows: dict[str, Row] = {}
    for side in sides:
        rows[f"{side.label} Check"] = Row(side, HEALTH_CHECK, health)
        rows[f"{side.label} ApplyMove"] = Row(side, APPLY_MOVE, side.apply_move)
        rows[f"{side.label} ApplyMove cold"] = Row(side, APPLY_MOVE, b"", rotation=side.cold)
    for row in rows.values():
        drive(row.side.methods[row.path], row.batch(WARM_UP_CALLS), IN_FLIGHT)
    names = list(rows)
    for round_index in range(rounds):
        shift = round_index % len(names)
        for name in names[shift:] + names[:shift]:
            row = rows[name]
            # rpc_bench's interleave, one chunk at a time: each chunk reads its own server's
            # CPU, and the two servers' chunks still alternate within every round.
            chunk = rpc_bench.interleave(
                {row.path: row.side.methods[row.path]},
                {name: (row.path, row.batch(CALLS_PER_ROUND))},
                1, CALLS_PER_ROUND, row.side.pid,
            )[name]
            row.chunks.append(chunk)
            total = row.total
            total.calls += chunk.calls
            total.seconds += chunk.seconds
            total.server_cpu_s += chunk.server_cpu_s
            total.client_cpu_s += chunk.client_cpu_s
            total.failures += chunk.failures
    return rows


def _per_round_ratios(rows: dict[str, Row]) -> list[float]:
    """After/before ApplyMove server CPU per call of each round: the run's own noise."""
    before, after = rows["before ApplyMove"].chunks, rows["after ApplyMove"].chunks
    return [_cpu_us(a) / _cpu_us(b) for a, b in zip(after, before, strict=True) if _cpu_us(b)]


def report(rows: dict[str, Row], sides: Sequence[Side]) -> float:
    """Prints the table; returns after/before of ApplyMove server CPU per call."""
    cpu = {name: _cpu_us(row.total) for name, row in rows.items()}
    print(
        f"  {'server':<34} {'Check':>7} {'ApplyMove':>10} {'ApplyMove/Check':>16}"
        f" {'ApplyMove calls/s':>18} {'state':>8}"
    )
    for side in sides:
        check, apply = cpu[f"{side.label} Check"], cpu[f"{side.label} ApplyMove"]
        rate = rows[f"{side.label} ApplyMove"].total.per_s
        print(
            f"  {side.label + ': ' + side.source:<34} {check:>7.0f} {apply:>10.0f}"
            f" {apply / check:>16.2f} {rate:>18,.0f} {len(side.state):>6,} B"
        )
    check_ratio = cpu["after Check"] / cpu["before Check"]
    apply_ratio = cpu["after ApplyMove"] / cpu["before ApplyMove"]
    relative = (cpu["after ApplyMove"] / cpu["after Check"]) / (
        cpu["before ApplyMove"] / cpu["before Check"]
    )
    print(
        f"  {'after/before':<34} {check_ratio:>7.2f} {apply_ratio:>10.2f} {relative:>16.2f}"
        "   (Check and ApplyMove in server CPU-µs per call)"
    )
    cold = {side.label: cpu[f"{side.label} ApplyMove cold"] for side in sides}
    print(
        f"  ApplyMove on states not seen lately ({COLD_STATES} opening states in turn: the"
        f" token opened, the MAC checked, in full): before {cold['before']:.0f}, after"
        f" {cold['after']:.0f} CPU-µs per call; after/before {cold['after'] / cold['before']:.2f}"
    )
    for name, row in rows.items():
        failed = [chunk for chunk in row.chunks if chunk.failures]
        if failed:
            print(
                f"  FAILED ({name}): calls failed in {len(failed)} of {len(row.chunks)} rounds,"
                f" e.g. {failed[0].failures[0]}"
            )
    per_round = sorted(_per_round_ratios(rows))
    if per_round:
        print(
            f"  ApplyMove after/before per round: median {per_round[len(per_round) // 2]:.2f},"
            f" range {per_round[0]:.2f}-{per_round[-1]:.2f} ({len(per_round)} rounds)"
        )
    for side in sides:
        print(
            f"  {side.label}: state in the request {len(side.state):,} B, in the answer"
            f" {len(side.next_state):,} B; ApplyMoveRequest {len(side.apply_move):,} B"
        )
    return apply_ratio


def run(
    baseline: str = BASELINE_REV, current: str | None = None, server_args: Sequence[str] = ()
) -> None:
    """Before (`baseline`, a revision) against after (`current`: a revision, or None for
    this checkout's okey-server)."""
    base_sha, base_tree = prepare_worktree(baseline)
    _check_imports_from(base_tree)
    before = Side("before", f"{base_sha[:7]} (worktree)")
    if current is None:
        after, after_command = Side("after", "this checkout"), None
    else:
        sha, tree = prepare_worktree(current)
        _check_imports_from(tree)
        after, after_command = Side("after", f"{sha[:7]} (worktree)"), tree_command(tree)
    sides = (before, after)
    with ExitStack() as stack:  # stops both servers whatever happens
        cpu = server_cpu()
        _start(stack, before, tree_command(base_tree), [*SERVER_ARGS, *server_args], cpu)
        _start(stack, after, after_command, [*SERVER_ARGS, *server_args], cpu)
        for side in sides:
            _connect(stack, side)
            play_to_mid_round(side)
            prepare_cold(side)
        if before.moves != after.moves:
            raise RuntimeError("the two servers played different games: not the same discard")
        pinned = f"both on CPU {cpu}" if cpu is not None else "one CPU"
        print(
            f"seal benchmark: two okey-server subprocesses ({pinned}, log level info),"
            f" {IN_FLIGHT} calls in flight, {ROUNDS * CALLS_PER_ROUND:,} calls of each kind on"
            f" each server in {ROUNDS} alternated rounds; state: deal seed"
            f" {game_bench.DEAL_SEED!r} + {game_bench.MOVES_PLAYED} moves, then the measured"
            " discard"
        )
        rows = measure(sides)
    ratio = report(rows, sides)
    # A failed call counts as a call but costs the server next to nothing: no verdict then.
    failed = any(row.total.failures for row in rows.values())
    verdict = "meets" if ratio <= TARGET_RATIO else "MISSES"
    if failed:
        verdict = "NOT JUDGED, calls failed"
    print(
        f"  target: sealing adds at most {TARGET_RATIO - 1:.0%} to ApplyMove server CPU per call"
        f" (after/before <= {TARGET_RATIO:.2f}): {verdict} ({ratio:.2f})"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--baseline",
        default=BASELINE_REV,
        help=f"revision of the before server (default: ${BASELINE_ENV}, else 05f3886; now "
        f"{BASELINE_REV})",
    )
    parser.add_argument(
        "--current", help="revision of the after server (default: this checkout's okey-server)"
    )
    parser.add_argument(
        "server_args", nargs="*", help="extra okey-server flags for both servers (after --)"
    )
    args = parser.parse_args(argv)
    run(args.baseline, args.current, args.server_args)


if __name__ == "__main__":
    main()
