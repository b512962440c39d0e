"""Derives the GameService conformance vectors (tests/conformance/game_*.json) from the engine.

Every expected answer is the pure engine's judgement (server/okey_rules:
`deal`, `start_round`, `apply_move`, `legal_moves`, `player_view`, `replay`),
written out here in protobuf JSON by hand: nothing goes through the gRPC
layer (okey_server), so a vector checks the server's translation of the
engine's answers as well as the rules.

A sealed state cannot be written into a vector: the token opens under one
server key only. So each case that needs a position says how to reach it: a
`given_state` (a ReplayRequest: a seeded or stacked DealRequest and a move
log) that the runner replays on the server under test, putting the answer's
state into the request (docs/conformance.md, "Cases that need a state"). No
expected answer names the token (an illegal ApplyMove pins it as empty);
legal answers pin the round's public `status` instead (turn, phase, deadline,
outcome, deal kind). Nothing that depends on the key is pinned: not the
seeded deal id of a view or status, only the deal's kind.

    python scripts/derive_game_vectors.py                 # print {file name: file} as JSON
    python scripts/derive_game_vectors.py --write DIR     # write DIR/game_*.json
    python scripts/derive_game_vectors.py --search        # how the special seeds were found

The winning and drawn rounds are move logs played by a small greedy player
(`greedy_log`) over the engine's legal moves, by seats that throw back what
they draw (`throw_back_log`), or by seats that build their hands but hold
back from finishing (`holding_log`, for the positions where a seat must
show its win, may play on, or waits on the last discard of an empty wall);
--search shows which seeds were picked and why.
tests/unit/test_game_vectors_wellformed.py checks that this script writes
the committed files byte for byte.
"""

from __future__ import annotations

import base64
import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property
from typing import Any

from okey_rules.deal import deal
from okey_rules.deal_fairness import seeded_deal_id
from okey_rules.deal_stacked import stacked_deal
from okey_rules.game import apply_move, legal_moves, replay, start_round
from okey_rules.game_types import (
    Event,
    EventKind,
    GameState,
    Move,
    MoveKind,
    MoveResult,
    Outcome,
    Phase,
)
from okey_rules.game_view import player_view
from okey_rules.hand import winning_discards
from okey_rules.ruleset import Ruleset, preset
from okey_rules.tiles import FACES, FALSE_JOKER_FACE, TILE_OF_CODE

Json = dict[str, Any]
Case = dict[str, Any]
LoggedMove = tuple[Move, int | None]  # a move and the caller's clock (ms), None: untimed

# 2026-12-01T18:00:00Z in milliseconds since the epoch: the clock of the timed tables.
T0_MS = 1_796_148_000_000
SECOND_MS = 1000
TIMER_S = 45  # docs/rules.md §5: the default move timer

# Seeds with a property worth a vector, found by `--search` (each property is
# asserted again when the vectors are built, so a changed deal fails loudly).
SEED_TABLE = "gosterme-table-2"  # seat 2 holds the indicator's twin; seat 1 opens
SEED_TIMER = "timer-okey-draw-244"  # seat 3 holds the twin; the first wall tile is an okey
SEED_WIN = "greedy-win-19"  # the greedy log: seat 3 shows gösterme, then wins at move 54
SEED_DRAWN = "wall-runs-out-0"  # seat 0 holds the twin; draw-and-throw-back empties the wall
# The holding log (`holding_log`): seat 2 shows gösterme; the wall runs out with the seat
# after the last drawer able to finish with its discard.
SEED_WAIT = "wall-waits-5"
# The holding log: within 30 moves a seat's next wall tile completes a hand with no okey
# (it must show it, §8.4); later another's completes a hand that keeps an okey (it may
# play on).
SEED_SHOW = "must-show-105"
SEED_TWO = "two-seats-0"  # a two-player table
# The key of the seeded deal ids in the engine's states here: never in a vector (views and
# statuses pin the deal's kind, not its keyed id, which differs from server to server).
DEAL_ID_KEY = b"conformance vectors: not a server key"

# --- protobuf JSON of the engine's values ------------------------------------------


def tile_json(code: int) -> Json:
    """An okey.v1.Tile with its copy always written: the copy says which physical tile."""
    tile = TILE_OF_CODE[code]
    if tile.is_false_joker:
        return {"falseJoker": True, "copy": tile.copy}
    assert tile.color is not None
    return {"color": f"COLOR_{tile.color.name}", "number": tile.number, "copy": tile.copy}


def tiles_json(codes: tuple[int, ...] | list[int]) -> list[Json]:
    return [tile_json(code) for code in codes]


def timestamp(ms: int) -> str:
    """RFC 3339 in UTC as protobuf JSON prints a Timestamp (no fraction when whole seconds)."""
    moment = datetime.fromtimestamp(ms // SECOND_MS, UTC).strftime("%Y-%m-%dT%H:%M:%S")
    fraction = ms % SECOND_MS
    return f"{moment}.{fraction:03d}Z" if fraction else f"{moment}Z"


def move_json(move: Move) -> Json:
    data: Json = {"kind": f"MOVE_KIND_{move.kind.name}", "seat": move.seat}
    if move.tile is not None:
        data["tile"] = tile_json(move.tile.code)
    return data


def expected_move(move: Move) -> Json:
    """A move in an answer: a move of a kind without a tile must leave `tile` unset."""
    data = move_json(move)
    data.setdefault("tile", None)
    return data


def logged_json(logged: LoggedMove) -> Json:
    move, now_ms = logged
    data: Json = {"move": move_json(move)}
    if now_ms is not None:
        data["now"] = timestamp(now_ms)
    return data


def outcome_json(outcome: Outcome) -> Json:
    """The outcome without its arrangement: one way to split a hand, which a server may choose."""
    data: Json = {
        "drawn": outcome.drawn,
        "winnerSeat": outcome.winner,
        "winKind": f"WIN_KIND_{outcome.kind.name}" if outcome.kind else "WIN_KIND_UNSPECIFIED",
        "okeyDiscard": outcome.okey_discard,
        "discard": None if outcome.discard is None else tile_json(outcome.discard),
        "hand": tiles_json(outcome.hand),
        "gosterme": [{"seat": seat, "tile": tile_json(tile)} for seat, tile in outcome.gosterme],
        "moveNumber": outcome.move_number,
    }
    return data


def event_json(event: Event) -> Json:
    data: Json = {
        "kind": f"EVENT_KIND_{event.kind.name}",
        "seat": event.seat,
        "tile": None if event.tile is None else tile_json(event.tile),
        "private": event.private,
    }
    if event.kind is EventKind.TOOK_DISCARD:
        data["fromSeat"] = event.from_seat
    if event.outcome is not None:
        data["outcome"] = outcome_json(event.outcome)
    return data


def status_json(state: GameState, kind: str = "DEAL_KIND_SEEDED") -> Json:
    """The okey.v1.RoundStatus of a classic state (state.proto), all but the key's part: a
    seeded deal's keyed id is left out; the commitment (none but a committed deal's) is
    pinned empty."""
    return {
        "game": "GAME_CLASSIC",
        "playerCount": state.player_count,
        "dealerSeat": state.dealer,
        "round": state.round,
        "moveNumber": state.move_number,
        "turnSeat": state.turn,
        "phase": f"PHASE_{state.phase.name}",
        "turnDeadline": timestamp(state.deadline_ms) if state.deadline_ms else None,
        "roundOver": state.phase is Phase.ROUND_OVER,
        "outcome": None if state.outcome is None else outcome_json(state.outcome),
        "dealKind": kind,
        "commitment": "",
        "mustFinish": state.must_finish,
    }


def ruleset_json(rules: Ruleset) -> Json:
    """The resolved ruleset as an answer states it: every option written out."""
    return {
        "game": f"GAME_{rules.game.name}",
        "wildPairs": rules.wild_pairs,
        "kafa": rules.kafa,
        "runs13To1": rules.runs_13_to_1,
        "indicatorDrawableLast": rules.indicator_drawable_last,
        "gostermeInFirstTurn": rules.gosterme_in_first_turn,
        "moveTimerSeconds": rules.move_timer_seconds,
    }


# --- tables (seeded deals) and positions (a table and a move log) --------------------


@dataclass(frozen=True)
class Table:
    """A seeded deal as a DealRequest asks for it, and the engine's opening state."""

    seed: str
    players: int = 4
    dealer: int = 0
    now_ms: int | None = None
    gosterme_in_first_turn: bool = False
    preset: str = ""  # a named preset (docs/rules.md §5); "" is the classic one

    @property
    def rules(self) -> Ruleset:
        rules = preset(self.preset)
        if self.gosterme_in_first_turn:
            rules = rules.with_overrides(gosterme_in_first_turn=True)
        return rules

    def request(self) -> Json:
        data: Json = {"seed": self.seed, "playerCount": self.players, "dealerSeat": self.dealer}
        if self.preset:
            data["preset"] = self.preset
        if self.gosterme_in_first_turn:
            data["ruleset"] = {"gostermeInFirstTurn": True}
        if self.now_ms is not None:
            data["now"] = timestamp(self.now_ms)
        return data

    @property
    def kind(self) -> str:
        return "DEAL_KIND_SEEDED"

    def start(self) -> GameState:
        # As the server deals a seeded request: the deal id comes from the seed (under a key
        # of this script's own: no vector shows it).
        dealt = deal(self.rules, self.players, self.dealer, seed=self.seed)
        deal_id = seeded_deal_id(DEAL_ID_KEY, self.seed)
        return start_round(dealt, deal_id=deal_id, now_ms=self.now_ms)

    def at(self, *log: LoggedMove) -> Position:
        return Position(self, tuple(log))


@dataclass(frozen=True)
class StackedTable:
    """A stacked deal (deal.proto, DealRequest.stacked): a position given tile by tile, for
    the positions a shuffle would take long to find. Four seats, dealer 0, classic rules."""

    seed: str  # a name for messages only: a stacked deal has no seed
    racks: tuple[tuple[int, ...], ...]
    wall: tuple[int, ...]
    indicator: int
    players: int = 4
    dealer: int = 0

    @property
    def rules(self) -> Ruleset:
        return preset("")

    @property
    def kind(self) -> str:
        return "DEAL_KIND_STACKED"

    def request(self) -> Json:
        return {
            "playerCount": self.players,
            "dealerSeat": self.dealer,
            "stacked": {
                "racks": [{"tiles": tiles_json(rack)} for rack in self.racks],
                "wall": tiles_json(self.wall),
                "indicator": tile_json(self.indicator),
            },
        }

    def start(self) -> GameState:
        dealt = stacked_deal(
            self.rules,
            self.players,
            self.dealer,
            racks=self.racks,
            wall=self.wall,
            indicator=self.indicator,
        )
        return start_round(dealt, deal_id="")

    def at(self, *log: LoggedMove) -> Position:
        return Position(self, tuple(log))


def code(color: int, number: int, copy: int = 0) -> int:
    """A tile's code: copy * 53 + colour * 13 + number - 1 (colours R, Y, B, K: 0-3)."""
    return copy * FACES + color * 13 + number - 1


def stacked_table(name: str, first_rack: list[int], indicator: int) -> StackedTable:
    """Dealer 0, seat 1 (first) holding `first_rack`; every other tile in code order: seats
    2, 3, 0 take 14 each, the wall the rest."""
    assert len(first_rack) == 15
    rest = [c for c in range(2 * FACES) if c not in first_rack and c != indicator]
    racks = {
        1: tuple(first_rack),
        2: tuple(rest[:14]),
        3: tuple(rest[14:28]),
        0: tuple(rest[28:42]),
    }
    return StackedTable(name, tuple(racks[s] for s in range(4)), tuple(rest[42:]), indicator)


# Seat 1 opens holding seven pairs and one tile more (K2), the okey K7 nowhere in its rack:
# it may win at once by discarding K2 (docs/rules.md §8.4), a position no seed search needs.
R, Y, B, K = range(4)
SEVEN_PAIRS = stacked_table(
    "stacked-seven-pairs",
    [
        code(c, n, copy)
        for c, n in ((R, 1), (R, 3), (Y, 5), (Y, 7), (B, 9), (B, 11), (K, 13))
        for copy in (0, 1)
    ]
    + [code(K, 2)],
    code(K, 6),
)


@dataclass(frozen=True)
class Position:
    """Where a table stands after a move log, every move of which is legal."""

    table: Table | StackedTable
    log: tuple[LoggedMove, ...] = ()

    @cached_property
    def state(self) -> GameState:
        result = replay(self.table.start(), self.log)
        assert result.legal, f"{self.table.seed}: move {result.illegal_index}: {result.reason}"
        return result.state

    def then(self, *more: LoggedMove) -> Position:
        return Position(self.table, self.log + more)

    def given_state(self) -> Json:
        """The ReplayRequest that reaches this position on any server."""
        return {"deal": self.table.request(), "moves": [logged_json(m) for m in self.log]}

    def rack(self, seat: int) -> tuple[int, ...]:
        return self.state.seats[seat].rack


def draw(seat: int, now_ms: int | None = None) -> LoggedMove:
    return Move(MoveKind.DRAW_FROM_WALL, seat), now_ms


def take(seat: int, now_ms: int | None = None) -> LoggedMove:
    return Move(MoveKind.TAKE_DISCARD, seat), now_ms


def discard(seat: int, code: int, now_ms: int | None = None) -> LoggedMove:
    return Move(MoveKind.DISCARD, seat, TILE_OF_CODE[code]), now_ms


def declare(seat: int, code: int, now_ms: int | None = None) -> LoggedMove:
    return Move(MoveKind.DECLARE_WIN, seat, TILE_OF_CODE[code]), now_ms


def gosterme(seat: int, now_ms: int | None = None) -> LoggedMove:
    return Move(MoveKind.GOSTERME, seat), now_ms


def end_round(seat: int, now_ms: int | None = None) -> LoggedMove:
    return Move(MoveKind.END_ROUND, seat), now_ms


def timeout(seat: int, now_ms: int | None = None) -> LoggedMove:
    return Move(MoveKind.TIMEOUT, seat), now_ms


def twin_holder(state: GameState) -> int | None:
    """The seat holding the indicator's twin (the gösterme tile), if a seat does."""
    twin = state.gosterme_tile()
    return next((s for s, seat in enumerate(state.seats) if twin in seat.rack), None)


def is_okey(code: int, state: GameState) -> bool:
    return code % FACES == state.okey.face


# --- the players that write the long logs ----------------------------------------------


def _face_as_played(code: int, okey_face: int) -> int:
    """A false joker stands for the okey's face (docs/rules.md §2.3)."""
    face = code % FACES
    return okey_face if face == FALSE_JOKER_FACE else face


def usefulness(code: int, rack: tuple[int, ...], okey_face: int) -> int:
    """How much a tile helps its rack: neighbours for runs, other colours for sets, a twin
    for pairs. Okeys are worth keeping above all. A heuristic, not a rule."""
    if code % FACES == okey_face:
        return 100
    face = _face_as_played(code, okey_face)
    color, number = divmod(face, 13)
    score, set_colors = 0, set()
    for other in rack:
        if other == code or other % FACES == okey_face:
            continue
        other_color, other_number = divmod(_face_as_played(other, okey_face), 13)
        gap = min((other_number - number) % 13, (number - other_number) % 13)
        if other_color == color and gap == 0:
            score += 1
        elif other_number == number:
            set_colors.add(other_color)
        elif other_color == color and gap == 1:
            score += 3
        elif other_color == color and gap == 2:
            score += 1
    return score + 2 * len(set_colors)


def greedy_move(state: GameState) -> Move:
    """The greedy player's move for the seat on turn: win when it can (with an okey
    discard if one wins), take a useful discard, else draw; throw the least useful tile.
    With the wall empty it takes the last discard when that is legal (only to finish
    with it, docs/rules.md §8.5), else ends the round."""
    seat, okey_face = state.turn, state.okey.face
    rack = state.seats[seat].rack
    if state.phase is Phase.DRAW:
        if not state.wall:
            take_last = Move(MoveKind.TAKE_DISCARD, seat)
            if take_last in legal_moves(state, seat):
                return take_last
            return Move(MoveKind.END_ROUND, seat)
        top = state.seats[state.previous_seat].discards[-1]
        if usefulness(top, (*rack, top), okey_face) >= 4:
            return Move(MoveKind.TAKE_DISCARD, seat)
        return Move(MoveKind.DRAW_FROM_WALL, seat)
    wins = [m for m in legal_moves(state, seat) if m.kind is MoveKind.DECLARE_WIN]
    if wins:
        okey_wins = [m for m in wins if m.tile is not None and m.tile.face == okey_face]
        return (okey_wins or wins)[0]
    worst = min(rack, key=lambda c: (usefulness(c, rack, okey_face), -rack.index(c)))
    return Move(MoveKind.DISCARD, seat, TILE_OF_CODE[worst])


def greedy_log(table: Table, limit: int = 400) -> list[LoggedMove]:
    """A whole round by the greedy player, untimed; the twin's holder shows gösterme first."""
    state = table.start()
    log: list[LoggedMove] = []
    holder = twin_holder(state)
    if holder is not None:
        log.append(gosterme(holder))
        state = _applied(state, log[-1])
    while state.phase is not Phase.ROUND_OVER and len(log) < limit:
        log.append((greedy_move(state), None))
        state = _applied(state, log[-1])
    return log


def throw_back_log(table: Table, start_ms: int) -> list[LoggedMove]:
    """A timed round in which every seat draws and throws the drawn tile back, one move a
    second, until the wall is empty; the twin's holder shows gösterme first."""
    state = table.start()
    clock = iter(range(start_ms, start_ms + 1000 * SECOND_MS, SECOND_MS))
    log: list[LoggedMove] = []
    holder = twin_holder(state)
    if holder is not None:
        log.append(gosterme(holder, next(clock)))
        state = _applied(state, log[-1])
    first = state.turn
    log.append(discard(first, state.seats[first].rack[-1], next(clock)))
    state = _applied(state, log[-1])
    while state.wall:
        seat = state.turn
        log.append(draw(seat, next(clock)))
        state = _applied(state, log[-1])
        log.append(discard(seat, state.seats[seat].rack[-1], next(clock)))
        state = _applied(state, log[-1])
    return log


def wins_with(state: GameState, seat: int, code: int) -> bool:
    """Whether `seat`'s rack with `code` added makes a winning hand (some discard wins)."""
    tiles = [TILE_OF_CODE[c] for c in (*state.seats[seat].rack, code)]
    return bool(winning_discards(tiles, state.okey, state.rules).discards)


@dataclass(frozen=True)
class Holding:
    """A holding log and the places in it worth a vector (`None`: not reached)."""

    log: tuple[LoggedMove, ...]
    # How many moves of the log come before a seat's draw that completes a hand:
    must_show: int | None  # ... with no okey left among the 14 shown (it must show, §8.4)
    plays_on: int | None  # ... keeping an okey among them (it may play on, §8.4)
    # The log ends with the wall empty and the seat on turn able to finish with the last
    # discard (§8.5); False when the round ended otherwise or could not be held back.
    waits: bool


def holding_log(table: Table, start_ms: int, limit: int = 400) -> Holding:
    """A timed round, one move a second, whose seats build their hands but hold back
    from finishing: each draws from the wall and throws its least useful tile (as the
    greedy player judges it), but takes the previous discard instead when the wall's
    next tile (known to this script, not to a player) would complete its hand. The
    seat that draws the last wall tile throws one the next seat can finish with, if it
    holds one. The twin's holder shows gösterme first.

    The log stops when the wall is empty and the round waits on the seat on turn, or
    when the round has ended, or when a seat cannot hold back (both tiles on offer
    complete its hand)."""
    state = table.start()
    clock = iter(range(start_ms, start_ms + limit * SECOND_MS, SECOND_MS))
    log: list[LoggedMove] = []
    marks: dict[str, int] = {}
    holder = twin_holder(state)
    if holder is not None:
        log.append(gosterme(holder, next(clock)))
        state = _applied(state, log[-1])
    while state.phase is not Phase.ROUND_OVER and len(log) < limit:
        seat, okey_face = state.turn, state.okey.face
        rack = state.seats[seat].rack
        if state.phase is Phase.DRAW:
            if not state.wall:
                break
            if not wins_with(state, seat, state.wall[0]):
                log.append(draw(seat, next(clock)))
            else:
                drawn = _applied(state, draw(seat))
                shown = Move(MoveKind.DISCARD, seat, TILE_OF_CODE[rack[0]])
                must = shown not in legal_moves(drawn, seat)
                marks.setdefault("must_show" if must else "plays_on", len(log))
                if wins_with(state, seat, state.seats[state.previous_seat].discards[-1]):
                    break
                log.append(take(seat, next(clock)))
        else:
            choice = min(rack, key=lambda c: (usefulness(c, rack, okey_face), -rack.index(c)))
            if not state.wall:
                after = (seat + 1) % state.player_count
                choice = next((c for c in rack if wins_with(state, after, c)), choice)
            log.append(discard(seat, choice, next(clock)))
        state = _applied(state, log[-1])
    waits = state.phase is Phase.DRAW and not state.wall
    return Holding(tuple(log), marks.get("must_show"), marks.get("plays_on"), waits)


def _applied(state: GameState, logged: LoggedMove) -> GameState:
    result = apply_move(state, *logged)
    assert result.legal, (logged, result.reason)
    assert result.state is not None
    return result.state


# --- the tables of the vectors -------------------------------------------------------------

TABLE = Table(SEED_TABLE)
TABLE_OPTION = Table(SEED_TABLE, gosterme_in_first_turn=True)
TIMER = Table(SEED_TIMER, now_ms=T0_MS)
WIN = Table(SEED_WIN)
DRAWN = Table(SEED_DRAWN, now_ms=T0_MS)
WAIT = Table(SEED_WAIT, now_ms=T0_MS)
SHOW = Table(SEED_SHOW, now_ms=T0_MS)
TWO = Table(SEED_TWO, players=2)
OKEY_GG = Table(SEED_TABLE, preset="okey.gg")  # §8.3: a table that plays no gösterme

FIRST = 1  # dealer 0: seat 1 opens (docs/rules.md §8.1)
HOLDER = 2  # SEED_TABLE: seat 2 holds the indicator's twin
TIMER_HOLDER = 3  # SEED_TIMER: seat 3 holds it


def s(seconds: float) -> int:
    """T0 plus `seconds`, in milliseconds."""
    return T0_MS + round(seconds * SECOND_MS)


def last_ms(log: tuple[LoggedMove, ...] | list[LoggedMove]) -> int:
    """The clock of a timed log's last move."""
    now_ms = log[-1][1]
    assert now_ms is not None, "a timed log"
    return now_ms


def next_ms(at: Position, seconds: int = 1) -> int:
    """`seconds` after the last move of a position's timed log (its deadline: TIMER_S)."""
    return last_ms(at.log) + seconds * SECOND_MS


@dataclass(frozen=True)
class Positions:
    """The positions the cases start from, each reached by a legal move log."""

    opening: Position
    after_opening: Position  # seat 1 has opened; seat 2 must draw
    after_draw: Position  # seat 2 has drawn from the wall
    after_turn: Position  # seat 2 has thrown the drawn tile back; seat 3 must draw
    shown: Position  # seat 2 showed gösterme at the opening
    option_after_draw: Position  # as after_draw, with gosterme_in_first_turn
    option_after_turn: Position
    timed_opening: Position
    timed_after_opening: Position  # seat 1 opened at T0 + 10 s; seat 2's deadline is T0 + 55 s
    win_log: tuple[LoggedMove, ...]
    mid_game: Position  # the winning round where every pile holds two tiles or more
    before_win: Position
    won: Position
    drawn_log: tuple[LoggedMove, ...]  # draw-and-throw-back until the round ends by itself
    last_to_draw: Position  # one wall tile left, its drawer on turn
    last_drawn: Position  # ... drawn: its discard ends the round (the next seat cannot finish)
    ended: Position  # ... discarded: the round is drawn
    waiting: Position  # the wall is empty; the seat on turn can finish with the last discard
    took_last: Position  # ... and took it: it must finish
    must_show: Position  # the seat on turn's next wall tile completes a hand with no okey
    must_show_drawn: Position  # ... drawn: the seat must show the win
    plays_on: Position  # a seat has drawn into a winning hand that keeps an okey
    okey_gg: Position  # the okey.gg preset: seat 2 holds the twin but plays no gösterme
    two_seats: Position


def positions() -> Positions:
    opening = TABLE.at()
    assert twin_holder(opening.state) == HOLDER, SEED_TABLE
    opened = discard(FIRST, opening.rack(FIRST)[0])
    after_opening = opening.then(opened)
    after_draw = after_opening.then(draw(HOLDER))
    after_turn = after_draw.then(discard(HOLDER, after_draw.rack(HOLDER)[-1]))
    option = TABLE_OPTION.at(opened, draw(HOLDER))
    option_after_turn = option.then(discard(HOLDER, option.rack(HOLDER)[-1]))

    timed_opening = TIMER.at()
    state = timed_opening.state
    assert is_okey(state.wall[0], state), f"{SEED_TIMER}: the first wall tile is an okey"
    assert twin_holder(state) == TIMER_HOLDER, SEED_TIMER
    timed_after_opening = timed_opening.then(discard(FIRST, timed_opening.rack(FIRST)[0], s(10)))

    win_log = tuple(greedy_log(WIN))
    won = WIN.at(*win_log)
    outcome = won.state.outcome
    assert outcome is not None, SEED_WIN
    assert not outcome.drawn, f"{SEED_WIN}: the round is won"
    assert outcome.gosterme, f"{SEED_WIN}: a gösterme is shown"
    mid = next(
        WIN.at(*win_log[:n])
        for n in range(len(win_log))
        if min(len(seat.discards) for seat in WIN.at(*win_log[:n]).state.seats) >= 2
    )

    drawn_log = tuple(throw_back_log(DRAWN, s(1)))
    ended = DRAWN.at(*drawn_log)
    drawn_outcome = ended.state.outcome
    assert drawn_outcome is not None, f"{SEED_DRAWN}: the last discard ends the round"
    assert drawn_outcome.drawn, SEED_DRAWN
    last_drawn = DRAWN.at(*drawn_log[:-1])
    assert not last_drawn.state.wall

    held = holding_log(WAIT, s(1))
    assert held.waits, f"{SEED_WAIT}: the round waits on the seat after the last drawer"
    waiting = WAIT.at(*held.log)
    waiter = waiting.state.turn
    assert twin_holder(WAIT.start()) is not None, f"{SEED_WAIT}: a gösterme is shown"
    took_last = waiting.then(take(waiter, next_ms(waiting)))
    assert took_last.state.must_finish

    shown = holding_log(SHOW, s(1))
    assert shown.must_show is not None, f"{SEED_SHOW}: a seat must show a win"
    assert shown.plays_on is not None, f"{SEED_SHOW}: a seat may play on"
    must_show = SHOW.at(*shown.log[: shown.must_show])
    must_show_drawn = must_show.then(draw(must_show.state.turn, next_ms(must_show)))
    before_plays_on = SHOW.at(*shown.log[: shown.plays_on])
    plays_on = before_plays_on.then(draw(before_plays_on.state.turn, next_ms(before_plays_on)))
    okey_gg = OKEY_GG.at()
    assert twin_holder(okey_gg.state) == HOLDER, f"{SEED_TABLE} under okey.gg"

    two = TWO.at()
    two_first = two.state.turn
    two_other = 1 - two_first
    two = two.then(discard(two_first, two.rack(two_first)[0]), take(two_other))
    two = two.then(discard(two_other, two.rack(two_other)[0]), draw(two_first))
    two = two.then(discard(two_first, two.rack(two_first)[-1]))
    return Positions(
        opening=opening,
        after_opening=after_opening,
        after_draw=after_draw,
        after_turn=after_turn,
        shown=opening.then(gosterme(HOLDER)),
        option_after_draw=option,
        option_after_turn=option_after_turn,
        timed_opening=timed_opening,
        timed_after_opening=timed_after_opening,
        win_log=win_log,
        mid_game=mid,
        before_win=WIN.at(*win_log[:-1]),
        won=won,
        drawn_log=drawn_log,
        last_to_draw=DRAWN.at(*drawn_log[:-2]),
        last_drawn=last_drawn,
        ended=ended,
        waiting=waiting,
        took_last=took_last,
        must_show=must_show,
        must_show_drawn=must_show_drawn,
        plays_on=plays_on,
        okey_gg=okey_gg,
        two_seats=two,
    )


# --- case builders ----------------------------------------------------------------------

LEGAL = None  # `want` for a move the engine must find legal


def _now(request: Json, now_ms: int | None) -> Json:
    if now_ms is not None:
        request["now"] = timestamp(now_ms)
    return request


def apply_expect(result: MoveResult, kind: str = "DEAL_KIND_SEEDED") -> Json:
    if result.legal:
        assert result.state is not None
        return {
            "legal": True,
            "events": [event_json(e) for e in result.events],
            "status": status_json(result.state, kind),
        }
    assert result.reason is not None
    return {
        "legal": False,
        "reason": f"ILLEGAL_REASON_{result.reason.name}",
        "state": None,  # an illegal move answers no state (an empty token)...
        "status": None,  # ... and no status
        "events": [],
    }


def apply_case(
    name: str,
    reason: str,
    at: Position,
    logged: LoggedMove,
    want: Any = LEGAL,
    *,
    events: tuple[EventKind, ...] | None = None,
) -> Case:
    """ApplyMove at a position; `want` is the IllegalReason name the engine must give, or LEGAL;
    `events`, when given, the kinds of the events a legal move must answer, in order."""
    move, now_ms = logged
    result = apply_move(at.state, move, now_ms)
    got = None if result.legal else result.reason and result.reason.name
    assert got == want, f"{name}: the engine says {got}, the case wants {want}"
    if events is not None:
        got_events = tuple(e.kind for e in result.events)
        assert got_events == events, f"{name}: the engine answers {got_events}"
    return {
        "name": f"game-apply-{name}",
        "reason": reason,
        "given_state": at.given_state(),
        "request": _now({"move": move_json(move)}, now_ms),
        "expect": {"response": apply_expect(result, at.table.kind)},
    }


def legal_case(
    name: str,
    reason: str,
    at: Position,
    seat: int,
    *,
    now_ms: int | None = None,
    check: Callable[[list[Move]], bool],
) -> Case:
    """LegalMoves at a position; `check` says which kinds the engine must offer."""
    moves = legal_moves(at.state, seat, now_ms)
    assert check(moves), f"{name}: {[m.kind.name for m in moves]}"
    return {
        "name": f"game-legal-{name}",
        "reason": reason,
        "given_state": at.given_state(),
        "request": _now({"seat": seat}, now_ms),
        "expect": {"response": {"moves": [expected_move(m) for m in moves]}},
    }


def kinds(*wanted: MoveKind) -> Callable[[list[Move]], bool]:
    """A check that the moves' kinds, duplicates removed, are `wanted` in order."""

    def check(moves: list[Move]) -> bool:
        seen: list[MoveKind] = []
        for move in moves:
            if move.kind not in seen:
                seen.append(move.kind)
        return seen == list(wanted)

    return check


def classic_ruleset_json(rules: Ruleset) -> Json:
    """`ruleset_json` and the options of classic rounds only (docs/rules.md §8.3, §8.4)."""
    return ruleset_json(rules) | {
        "gostermePlayed": rules.gosterme_played,
        "mustShowWin": rules.must_show_win,
    }


def view_json(state: GameState, seat: int, kind: str = "DEAL_KIND_SEEDED") -> Json:
    view = player_view(state, seat)
    return {
        "seat": view.seat,
        "ruleset": classic_ruleset_json(view.rules),
        "playerCount": view.player_count,
        "dealerSeat": view.dealer,
        "indicator": tile_json(view.indicator),
        "okey": tile_json(state.okey.code),
        "rack": tiles_json(view.rack),
        "seats": [
            {
                "seat": other.seat,
                "rackSize": other.rack_size,
                "discardCount": other.discard_count,
                "discards": tiles_json(other.discards),
                "wholePile": other.whole_pile,
                "gosterme": other.gosterme,
            }
            for other in view.seats
        ],
        "wallSize": view.wall_size,
        "turnSeat": view.turn,
        "phase": f"PHASE_{view.phase.name}",
        "moveNumber": view.move_number,
        "turnDeadline": timestamp(view.deadline_ms) if view.deadline_ms else None,
        "outcome": None if view.outcome is None else outcome_json(view.outcome),
        "round": view.round,
        # game.proto: a view names the deal's kind, never anything that re-deals it; a
        # seeded deal's keyed id depends on the server's key and is not pinned.
        "dealKind": kind,
        "commitment": "",
    }


def view_case(name: str, reason: str, at: Position, seat: int) -> Case:
    return {
        "name": f"game-view-{name}",
        "reason": reason,
        "given_state": at.given_state(),
        "request": {"seat": seat},
        "expect": {"response": view_json(at.state, seat, at.table.kind)},
    }


def replay_case(
    name: str,
    reason: str,
    start: Table | StackedTable | Position,
    log: tuple[LoggedMove, ...] | list[LoggedMove],
    want: Any = LEGAL,
) -> Case:
    """Replay from a seeded or stacked deal (a table) or from a replayed state (a
    Position)."""
    begin = start.state if isinstance(start, Position) else start.start()
    kind = start.table.kind if isinstance(start, Position) else start.kind
    result = replay(begin, list(log))
    got = None if result.legal else result.reason and result.reason.name
    assert got == want, f"{name}: the engine says {got}, the case wants {want}"
    expect: Json = {
        "legal": result.legal,
        "movesApplied": result.applied,
        "events": [event_json(e) for e in result.events],
        # The public facts of the state after the last legal move.
        "status": status_json(result.state, kind),
    }
    if not result.legal:
        assert result.reason is not None
        expect["illegalIndex"] = result.illegal_index
        expect["reason"] = f"ILLEGAL_REASON_{result.reason.name}"
    case: Case = {"name": f"game-replay-{name}", "reason": reason}
    moves = [logged_json(m) for m in log]
    if isinstance(start, Position):
        case["given_state"] = start.given_state()
        case["request"] = {"moves": moves}
    else:
        case["request"] = {"deal": start.request(), "moves": moves}
    case["expect"] = {"response": expect}
    return case


def error_case(
    name: str,
    reason: str,
    request: Json,
    field_path: str,
    at: Position | None = None,
    *,
    why: str | None = None,
) -> Case:
    """An INVALID_ARGUMENT naming `field_path`; `why`, when given, the ErrorReason."""
    case: Case = {"name": name, "reason": reason}
    if at is not None:
        case["given_state"] = at.given_state()
    case["request"] = request
    error = {"code": "INVALID_ARGUMENT", "field": field_path}
    if why is not None:
        error["reason"] = why
    case["expect"] = {"error": error}
    return case


def token_json(raw: bytes) -> str:
    """A token as a bytes field in protobuf JSON: standard base64."""
    return base64.b64encode(raw).decode("ascii")


# States no server issued (a sealed state is: version byte 1, a 4-byte key id, AES-SIV):
# of another format (version 2), sealed under a key id no server holds (0: one key in 2^32
# has it), and cut short (a version-1 token shorter than its header and tag).
STATE_OTHER_VERSION = token_json(bytes([2]) + bytes(40))
STATE_UNKNOWN_KEY = token_json(bytes([1]) + bytes(4) + bytes(40))
STATE_CUT_SHORT = token_json(bytes([1]) + bytes(7))


def other_copy_missing(rack: tuple[int, ...]) -> int:
    """A tile of `rack` whose other copy the rack does not hold: that copy is not in it."""
    code = next(c for c in rack if (c + FACES) % (2 * FACES) not in rack)
    return (code + FACES) % (2 * FACES)


def first_of(at: Position, seat: int, kind: MoveKind) -> Move:
    """The first legal move of `kind` the engine offers `seat` at a position."""
    return next(m for m in legal_moves(at.state, seat) if m.kind is kind)


def not_okey(at: Position, seat: int) -> int:
    """The seat's most recently received tile that is not an okey."""
    return next(c for c in reversed(at.rack(seat)) if not is_okey(c, at.state))


def not_winning(at: Position, seat: int) -> int:
    """A tile of the seat's rack whose discard leaves no winning hand."""
    wins = {
        m.tile.code
        for m in legal_moves(at.state, seat)
        if m.kind is MoveKind.DECLARE_WIN and m.tile is not None
    }
    return next(c for c in at.rack(seat) if c not in wins)


# --- the vectors ------------------------------------------------------------------------


def apply_move_cases(p: Positions) -> list[Case]:
    opening, after_opening, after_draw = p.opening, p.after_opening, p.after_draw
    first_tile = opening.rack(FIRST)[0]
    drawn = after_draw.rack(HOLDER)[-1]
    holder_tile = opening.rack(HOLDER)[0]
    deadline = s(TIMER_S)
    timed_second = p.timed_after_opening
    second_deadline = s(10 + TIMER_S)
    ended, before_win, won = p.ended, p.before_win, p.won
    last_drawn, last_to_draw = p.last_drawn, p.last_to_draw
    waiting, took_last = p.waiting, p.took_last
    waiter = waiting.state.turn
    must_show, shown = p.must_show, p.must_show_drawn
    showing = must_show.state.turn
    plays_on = p.plays_on
    playing_on = plays_on.state.turn
    winning = p.win_log[-1][0]
    assert winning.kind is MoveKind.DECLARE_WIN
    winner = winning.seat
    return [
        apply_case(
            "opening-discard",
            "docs/rules.md §8.1: the seat after the dealer opens by discarding one of its 15"
            " tiles; the turn passes on",
            opening,
            discard(FIRST, first_tile),
        ),
        apply_case(
            "opening-draw-must-discard-first",
            "docs/rules.md §8.1: the opening seat discards without drawing; drawing first is"
            " MUST_DISCARD_FIRST",
            opening,
            draw(FIRST),
            "MUST_DISCARD_FIRST",
        ),
        apply_case(
            "opening-take-discard-must-discard-first",
            "docs/rules.md §8.1: the opening seat holds 15 tiles and takes nothing before its"
            " discard (MUST_DISCARD_FIRST)",
            opening,
            take(FIRST),
            "MUST_DISCARD_FIRST",
        ),
        apply_case(
            "opening-end-round-must-discard-first",
            "docs/rules.md §8.1, §8.5: ending the round is a draw-phase choice; the opening seat"
            " must discard first",
            opening,
            end_round(FIRST),
            "MUST_DISCARD_FIRST",
        ),
        apply_case(
            "opening-declare-win-hand-does-not-win",
            "docs/rules.md §8.1, §8.4: the opening seat may finish, but only if the 14 tiles left"
            " win (HAND_DOES_NOT_WIN)",
            opening,
            declare(FIRST, first_tile),
            "HAND_DOES_NOT_WIN",
        ),
        apply_case(
            "not-your-turn-discard",
            "docs/rules.md §8.1: only the seat on turn moves (NOT_YOUR_TURN)",
            opening,
            discard(HOLDER, holder_tile),
            "NOT_YOUR_TURN",
        ),
        apply_case(
            "not-your-turn-draw",
            "docs/rules.md §8.1: after seat 1's discard seat 2 is on turn, not seat 3"
            " (NOT_YOUR_TURN)",
            after_opening,
            draw(3),
            "NOT_YOUR_TURN",
        ),
        apply_case(
            "tile-not-in-rack-another-seats-tile",
            "docs/rules.md §8.2: a tile the seat does not hold is refused (TILE_NOT_IN_RACK)",
            opening,
            discard(FIRST, holder_tile),
            "TILE_NOT_IN_RACK",
        ),
        apply_case(
            "tile-not-in-rack-other-copy",
            "docs/rules.md §8.2, game.proto Move.tile: the tile is named with its copy; the"
            " copy the seat does not hold is not in its rack",
            opening,
            discard(FIRST, other_copy_missing(opening.rack(FIRST))),
            "TILE_NOT_IN_RACK",
        ),
        apply_case(
            "draw-from-wall",
            "docs/rules.md §8.2: the seat on turn draws the next wall tile; only the drawer sees"
            " it (a private event)",
            after_opening,
            draw(HOLDER),
        ),
        apply_case(
            "take-previous-discard",
            "docs/rules.md §8.2: the seat on turn may take the top tile of the previous seat's"
            " pile",
            after_opening,
            take(HOLDER),
        ),
        apply_case(
            "discard-before-draw-must-draw-first",
            "docs/rules.md §8.2: discarding before the draw is MUST_DRAW_FIRST",
            after_opening,
            discard(HOLDER, holder_tile),
            "MUST_DRAW_FIRST",
        ),
        apply_case(
            "declare-before-draw-must-draw-first",
            "docs/rules.md §8.2: finishing before the draw is MUST_DRAW_FIRST",
            after_opening,
            declare(HOLDER, holder_tile),
            "MUST_DRAW_FIRST",
        ),
        apply_case(
            "end-round-wall-not-empty",
            "docs/rules.md §8.5: ending the round while the wall holds tiles is WALL_NOT_EMPTY",
            after_opening,
            end_round(HOLDER),
            "WALL_NOT_EMPTY",
        ),
        apply_case(
            "second-draw-must-discard-first",
            "docs/rules.md §8.2: a second draw in the same turn is MUST_DISCARD_FIRST",
            after_draw,
            draw(HOLDER),
            "MUST_DISCARD_FIRST",
        ),
        apply_case(
            "take-after-draw-must-discard-first",
            "docs/rules.md §8.2: one draw a turn: taking the discard after drawing is"
            " MUST_DISCARD_FIRST",
            after_draw,
            take(HOLDER),
            "MUST_DISCARD_FIRST",
        ),
        apply_case(
            "discard-the-drawn-tile",
            "docs/rules.md §8.2: the seat may discard the very tile it has just drawn",
            after_draw,
            discard(HOLDER, drawn),
        ),
        apply_case(
            "declare-win-hand-does-not-win",
            "docs/rules.md §8.4: a declaration whose 14 tiles do not win is HAND_DOES_NOT_WIN",
            after_draw,
            declare(HOLDER, drawn),
            "HAND_DOES_NOT_WIN",
        ),
        apply_case(
            "gosterme-off-turn",
            "docs/rules.md §8.3: the holder of the indicator's twin shows it before its first"
            " draw, on turn or not",
            opening,
            gosterme(HOLDER),
        ),
        apply_case(
            "gosterme-keeps-the-turn",
            "docs/rules.md §8.3: showing gösterme is not a turn: the seat on turn still opens",
            p.shown,
            discard(FIRST, first_tile),
        ),
        apply_case(
            "gosterme-before-first-draw",
            "docs/rules.md §8.3: on turn to draw but not yet drawn, the holder may still show",
            after_opening,
            gosterme(HOLDER),
        ),
        apply_case(
            "gosterme-already-shown",
            "docs/rules.md §8.3: gösterme once per seat (GOSTERME_ALREADY_SHOWN)",
            p.shown,
            gosterme(HOLDER),
            "GOSTERME_ALREADY_SHOWN",
        ),
        apply_case(
            "gosterme-without-tile",
            "docs/rules.md §8.3: only with the indicator's twin in the rack"
            " (GOSTERME_WITHOUT_TILE)",
            opening,
            gosterme(3),
            "GOSTERME_WITHOUT_TILE",
        ),
        apply_case(
            "gosterme-too-late-after-draw",
            "docs/rules.md §8.3: gösterme only before the seat's first draw (GOSTERME_TOO_LATE)",
            after_draw,
            gosterme(HOLDER),
            "GOSTERME_TOO_LATE",
        ),
        apply_case(
            "gosterme-in-first-turn-after-draw",
            "docs/rules.md §8.3: with gosterme_in_first_turn the window stays open until the end"
            " of the seat's first turn with a draw",
            p.option_after_draw,
            gosterme(HOLDER),
        ),
        apply_case(
            "gosterme-in-first-turn-too-late",
            "docs/rules.md §8.3: with gosterme_in_first_turn, once that first turn ends it is"
            " GOSTERME_TOO_LATE",
            p.option_after_turn,
            gosterme(HOLDER),
            "GOSTERME_TOO_LATE",
        ),
        apply_case(
            "timed-discard-before-deadline",
            "docs/rules.md §8.6: a move before the turn's deadline (deal time + 45 s) is judged"
            " as usual and times the next turn",
            p.timed_opening,
            discard(FIRST, p.timed_opening.rack(FIRST)[0], deadline - 1),
        ),
        apply_case(
            "timed-discard-at-deadline-turn-timed-out",
            "docs/rules.md §8.6: at or past the deadline the seat's own moves are TURN_TIMED_OUT",
            p.timed_opening,
            discard(FIRST, p.timed_opening.rack(FIRST)[0], deadline),
            "TURN_TIMED_OUT",
        ),
        apply_case(
            "timeout-before-deadline-not-timed-out",
            "docs/rules.md §8.6: a timeout before the deadline is TURN_NOT_TIMED_OUT",
            p.timed_opening,
            timeout(FIRST, deadline - 1),
            "TURN_NOT_TIMED_OUT",
        ),
        apply_case(
            "timeout-without-clock-not-timed-out",
            "docs/rules.md §8.6, game.proto ApplyMoveRequest.now: without the caller's clock no"
            " deadline has passed (TURN_NOT_TIMED_OUT)",
            p.timed_opening,
            timeout(FIRST),
            "TURN_NOT_TIMED_OUT",
        ),
        apply_case(
            "timeout-untimed-turn-not-timed-out",
            "docs/rules.md §8.6: a timeout in an untimed turn (no clock at the deal) is"
            " TURN_NOT_TIMED_OUT",
            opening,
            timeout(FIRST, deadline),
            "TURN_NOT_TIMED_OUT",
        ),
        apply_case(
            "timeout-wrong-seat-not-your-turn",
            "docs/rules.md §8.6: the timeout is sent for the seat on turn; another seat is"
            " NOT_YOUR_TURN",
            p.timed_opening,
            timeout(HOLDER, deadline),
            "NOT_YOUR_TURN",
        ),
        apply_case(
            "timeout-opening-discards-last-received",
            "docs/rules.md §8.6: a timed-out opening seat discards its most recently received"
            " tile that is not an okey",
            p.timed_opening,
            timeout(FIRST, deadline),
        ),
        apply_case(
            "timeout-draws-and-keeps-a-drawn-okey",
            "docs/rules.md §8.6: a timed-out seat draws; the drawn tile is an okey, so it"
            " discards the tile received before it",
            timed_second,
            timeout(HOLDER, second_deadline),
        ),
        apply_case(
            "gosterme-after-the-deadline",
            "docs/rules.md §8.3: gösterme stays allowed after the turn's deadline has passed",
            timed_second,
            gosterme(TIMER_HOLDER, second_deadline + 5 * SECOND_MS),
        ),
        apply_case(
            "last-discard-ends-round",
            "docs/rules.md §8.5: the last wall tile drawn and thrown, the next seat cannot finish"
            " with it: the same answer ends the round with no winner (DISCARDED, then"
            " ROUND_DRAWN); the outcome lists the gösterme shown",
            last_drawn,
            discard(
                last_drawn.state.turn,
                last_drawn.rack(last_drawn.state.turn)[-1],
                next_ms(last_drawn),
            ),
            events=(EventKind.DISCARDED, EventKind.ROUND_DRAWN),
        ),
        apply_case(
            "timeout-last-wall-tile-ends-round",
            "docs/rules.md §8.5, §8.6: a timed-out seat draws the last wall tile and throws it"
            " back; the next seat cannot finish with it, so the round ends in the same answer",
            last_to_draw,
            timeout(last_to_draw.state.turn, next_ms(last_to_draw, TIMER_S)),
            events=(
                EventKind.TURN_TIMED_OUT,
                EventKind.DREW_FROM_WALL,
                EventKind.DISCARDED,
                EventKind.ROUND_DRAWN,
            ),
        ),
        apply_case(
            "drawn-round-is-over",
            "docs/rules.md §8.5, game.proto IllegalReason: after the round ends no move is legal,"
            " not even taking the last discard (ROUND_OVER)",
            ended,
            take(ended.state.turn),
            "ROUND_OVER",
        ),
        apply_case(
            "draw-from-empty-wall",
            "docs/rules.md §8.5: the wall empty, the seat after the last discard may take it only"
            " to finish or end the round; drawing is WALL_EMPTY",
            waiting,
            draw(waiter, next_ms(waiting)),
            "WALL_EMPTY",
        ),
        apply_case(
            "take-last-discard-to-finish",
            "docs/rules.md §8.5: with the wall empty the seat on turn may take the last discard"
            " when it can finish with it",
            waiting,
            take(waiter, next_ms(waiting)),
            events=(EventKind.TOOK_DISCARD,),
        ),
        apply_case(
            "end-round-empty-wall",
            "docs/rules.md §8.5: the seat that could finish with the last discard may decline it:"
            " the round ends with no winner; the outcome lists the gösterme shown",
            waiting,
            end_round(waiter, next_ms(waiting)),
            events=(EventKind.ROUND_DRAWN,),
        ),
        apply_case(
            "timeout-empty-wall-ends-round",
            "docs/rules.md §8.6: a timed-out seat facing an empty wall declines the last discard:"
            " the round ends with no winner",
            waiting,
            timeout(waiter, next_ms(waiting, TIMER_S)),
            events=(EventKind.TURN_TIMED_OUT, EventKind.ROUND_DRAWN),
        ),
        apply_case(
            "took-last-discard-must-finish",
            "docs/rules.md §8.5: the last discard taken with the wall empty, a plain discard"
            " (throwing it back) is MUST_FINISH",
            took_last,
            discard(waiter, took_last.rack(waiter)[-1], next_ms(took_last)),
            "MUST_FINISH",
        ),
        apply_case(
            "took-last-discard-declares-win",
            "docs/rules.md §8.4, §8.5: the last discard taken, the seat finishes with it",
            took_last,
            (first_of(took_last, waiter, MoveKind.DECLARE_WIN), next_ms(took_last)),
            events=(EventKind.ROUND_WON,),
        ),
        apply_case(
            "timeout-must-finish-declares-win",
            "docs/rules.md §8.5, §8.6: a timed-out seat that took the last discard to finish has"
            " its win declared for it",
            took_last,
            timeout(waiter, next_ms(took_last, TIMER_S)),
            events=(EventKind.TURN_TIMED_OUT, EventKind.ROUND_WON),
        ),
        apply_case(
            "must-show-win",
            "docs/rules.md §8.4, option must_show_win (on in the classic preset): a seat whose 15"
            " tiles win with no okey among the 14 shown may not discard (MUST_SHOW_WIN)",
            shown,
            discard(showing, shown.rack(showing)[-1], next_ms(shown)),
            "MUST_SHOW_WIN",
        ),
        apply_case(
            "must-show-win-declares",
            "docs/rules.md §8.4: the seat that must show its win declares it",
            shown,
            (first_of(shown, showing, MoveKind.DECLARE_WIN), next_ms(shown)),
            events=(EventKind.ROUND_WON,),
        ),
        apply_case(
            "timeout-must-show-declares-win",
            "docs/rules.md §8.4, §8.6: a timed-out seat draws into a win it must show: the win is"
            " declared for it",
            must_show,
            timeout(showing, next_ms(must_show, TIMER_S)),
            events=(EventKind.TURN_TIMED_OUT, EventKind.DREW_FROM_WALL, EventKind.ROUND_WON),
        ),
        apply_case(
            "winning-hand-with-okey-plays-on",
            "docs/rules.md §8.4: a winning hand that keeps an okey among the 14 shown may play on"
            " for an okey finish: a plain discard is legal and the round goes on",
            plays_on,
            discard(playing_on, not_okey(plays_on, playing_on), next_ms(plays_on)),
            events=(EventKind.DISCARDED,),
        ),
        apply_case(
            "gosterme-not-played",
            "docs/rules.md §8.3, option gosterme_played (off in the okey.gg preset): the twin's"
            " holder may not show it (GOSTERME_NOT_PLAYED)",
            p.okey_gg,
            gosterme(HOLDER),
            "GOSTERME_NOT_PLAYED",
        ),
        apply_case(
            "declare-win",
            "docs/rules.md §8.4: finishing with a winning 14: the outcome names the winner, how"
            " the hand wins, the discard and the gösterme shown",
            before_win,
            (winning, None),
        ),
        apply_case(
            "declare-win-wrong-discard",
            "docs/rules.md §8.4: only the discards that leave a winning 14 finish; another is"
            " HAND_DOES_NOT_WIN",
            before_win,
            declare(winner, not_winning(before_win, winner)),
            "HAND_DOES_NOT_WIN",
        ),
        apply_case(
            "won-round-is-over",
            "docs/rules.md §8.4, game.proto IllegalReason: after a win no move is legal, not even"
            " gösterme (ROUND_OVER)",
            won,
            gosterme(winner),
            "ROUND_OVER",
        ),
        error_case(
            "game-apply-state-missing",
            "game.proto ApplyMoveRequest.state: the state is required (INVALID_ARGUMENT on state)",
            {"move": move_json(draw(HOLDER)[0])},
            "state",
        ),
        error_case(
            "game-apply-state-of-another-token-version",
            "errors.proto ERROR_REASON_TOKEN_VERSION: a state whose first byte is not the"
            " server's token format (1) is refused on state",
            {"state": STATE_OTHER_VERSION, "move": move_json(draw(FIRST)[0])},
            "state",
            why="ERROR_REASON_TOKEN_VERSION",
        ),
        error_case(
            "game-apply-state-under-an-unknown-key",
            "errors.proto ERROR_REASON_UNKNOWN_KEY: a state sealed under a key id the server"
            " does not hold (0) is refused on state",
            {"state": STATE_UNKNOWN_KEY, "move": move_json(draw(FIRST)[0])},
            "state",
            why="ERROR_REASON_UNKNOWN_KEY",
        ),
        error_case(
            "game-apply-state-cut-short",
            "errors.proto ERROR_REASON_INVALID_STATE: a token too short to be sealed does not open",
            {"state": STATE_CUT_SHORT, "move": move_json(draw(FIRST)[0])},
            "state",
            why="ERROR_REASON_INVALID_STATE",
        ),
        error_case(
            "game-apply-move-kind-unspecified",
            "game.proto MoveKind: MOVE_KIND_UNSPECIFIED is invalid in a request",
            {"move": {"seat": FIRST}},
            "move.kind",
            opening,
        ),
        error_case(
            "game-apply-seat-does-not-exist",
            "docs/rules.md §8: a seat that does not exist is invalid input, not an illegal move",
            {"move": move_json(draw(4)[0])},
            "move.seat",
            opening,
        ),
        error_case(
            "game-apply-discard-without-tile",
            "game.proto Move.tile: a discard names its tile",
            {"move": {"kind": "MOVE_KIND_DISCARD", "seat": FIRST}},
            "move.tile",
            opening,
        ),
        error_case(
            "game-apply-draw-with-tile",
            "game.proto Move.tile: must be unset for every kind but DISCARD and DECLARE_WIN",
            {"move": {**move_json(draw(FIRST)[0]), "tile": tile_json(first_tile)}},
            "move.tile",
            opening,
        ),
        error_case(
            "game-apply-tile-number-out-of-range",
            "docs/rules.md §1.1, game.proto Move.tile: a tile that cannot exist is invalid input",
            {
                "move": {
                    "kind": "MOVE_KIND_DISCARD",
                    "seat": FIRST,
                    "tile": {"color": "COLOR_RED", "number": 14},
                }
            },
            "move.tile",
            opening,
        ),
    ]


def legal_moves_cases(p: Positions) -> list[Case]:
    waiting = p.waiting
    waiter = waiting.state.turn
    winner = p.win_log[-1][0].seat
    timed = p.timed_after_opening
    second_deadline = s(10 + TIMER_S)
    d, t, w, g, x, e, o = (
        MoveKind.DISCARD,
        MoveKind.TAKE_DISCARD,
        MoveKind.DRAW_FROM_WALL,
        MoveKind.GOSTERME,
        MoveKind.TIMEOUT,
        MoveKind.END_ROUND,
        MoveKind.DECLARE_WIN,
    )
    return [
        legal_case(
            "opening-seat-discards-any-tile",
            "docs/rules.md §8.1, game.proto LegalMovesResponse: the opening seat discards one of"
            " its 15 tiles, one move per tile in rack order",
            p.opening,
            FIRST,
            check=kinds(d),
        ),
        legal_case(
            "opening-twin-holder-may-show",
            "docs/rules.md §8.3: off turn, the holder of the indicator's twin may only show"
            " gösterme",
            p.opening,
            HOLDER,
            check=kinds(g),
        ),
        legal_case(
            "opening-other-seat-has-none",
            "game.proto LegalMovesResponse: empty when the seat may do nothing",
            p.opening,
            3,
            check=kinds(),
        ),
        legal_case(
            "draw-phase-with-gosterme",
            "docs/rules.md §8.2, §8.3: on turn to draw: show (not drawn yet), draw from the wall"
            " or take the previous discard",
            p.after_opening,
            HOLDER,
            check=kinds(g, w, t),
        ),
        legal_case(
            "draw-phase",
            "docs/rules.md §8.2: on turn to draw, having shown gösterme: the wall or the previous"
            " discard",
            p.after_opening.then(gosterme(HOLDER)),
            HOLDER,
            check=kinds(w, t),
        ),
        legal_case(
            "after-draw-discards",
            "docs/rules.md §8.2, §8.3: after the draw one of 15 tiles is discarded; gösterme is"
            " too late",
            p.after_draw,
            HOLDER,
            check=kinds(d),
        ),
        legal_case(
            "after-draw-gosterme-in-first-turn",
            "docs/rules.md §8.3: with gosterme_in_first_turn the holder may still show after its"
            " first draw",
            p.option_after_draw,
            HOLDER,
            check=kinds(g, d),
        ),
        legal_case(
            "timed-before-deadline",
            "docs/rules.md §8.6: before the deadline the seat on turn has its usual moves",
            timed,
            HOLDER,
            now_ms=second_deadline - 1,
            check=kinds(w, t),
        ),
        legal_case(
            "timed-out-offers-only-timeout",
            "docs/rules.md §8.6, game.proto LegalMovesRequest.now: a turn past its deadline"
            " offers only TIMEOUT",
            timed,
            HOLDER,
            now_ms=second_deadline,
            check=kinds(x),
        ),
        legal_case(
            "timed-out-turn-gosterme-stays",
            "docs/rules.md §8.3, §8.6: off turn after the deadline, the twin's holder may still"
            " show",
            timed,
            TIMER_HOLDER,
            now_ms=second_deadline,
            check=kinds(g),
        ),
        legal_case(
            "empty-wall",
            "docs/rules.md §8.5: with the wall empty, a seat that can finish with the last"
            " discard may take it (only to finish) or end the round; no draw",
            waiting,
            waiter,
            now_ms=next_ms(waiting),
            check=kinds(t, e),
        ),
        legal_case(
            "empty-wall-timed-out",
            "docs/rules.md §8.6: past the deadline with the wall empty, only TIMEOUT",
            waiting,
            waiter,
            now_ms=next_ms(waiting, TIMER_S),
            check=kinds(x),
        ),
        legal_case(
            "took-last-discard-declares-only",
            "docs/rules.md §8.5: the last discard taken with the wall empty, only declarations"
            " are legal (no plain discard: MUST_FINISH)",
            p.took_last,
            waiter,
            now_ms=next_ms(p.took_last),
            check=kinds(o),
        ),
        legal_case(
            "must-show-win-declares-only",
            "docs/rules.md §8.4, option must_show_win: 15 tiles that win with no okey among the"
            " 14 shown offer only declarations",
            p.must_show_drawn,
            p.must_show_drawn.state.turn,
            now_ms=next_ms(p.must_show_drawn),
            check=kinds(o),
        ),
        legal_case(
            "winning-hand-with-okey-plays-on",
            "docs/rules.md §8.4: a winning hand that keeps an okey among the 14 shown may"
            " discard and play on, or declare",
            p.plays_on,
            p.plays_on.state.turn,
            now_ms=next_ms(p.plays_on),
            check=kinds(d, o),
        ),
        legal_case(
            "gosterme-not-played-none",
            "docs/rules.md §8.3, option gosterme_played (off in the okey.gg preset): the twin's"
            " holder is offered no gösterme",
            p.okey_gg,
            HOLDER,
            check=kinds(),
        ),
        legal_case(
            "gosterme-not-played-draw-phase",
            "docs/rules.md §8.2, §8.3: under the okey.gg preset the twin's holder on turn to draw"
            " may draw or take, not show",
            p.okey_gg.then(discard(FIRST, p.okey_gg.rack(FIRST)[0])),
            HOLDER,
            check=kinds(w, t),
        ),
        legal_case(
            "winning-rack-declares",
            "docs/rules.md §8.4, game.proto LegalMovesResponse: DECLARE_WIN once per tile whose"
            " discard leaves a winning 14; with no okey among them the win must be shown"
            " (must_show_win): no plain discard",
            p.before_win,
            winner,
            check=kinds(o),
        ),
        legal_case(
            "won-round-none",
            "docs/rules.md §8.4: once the round is won no seat has a move",
            p.won,
            winner,
            check=kinds(),
        ),
        legal_case(
            "drawn-round-none",
            "docs/rules.md §8.5: once the round is drawn no seat has a move, not even the seat"
            " after the last discard",
            p.ended,
            p.ended.state.turn,
            check=kinds(),
        ),
        legal_case(
            "two-seats",
            "docs/rules.md §8.2: with two seats each draws from the other's pile",
            p.two_seats,
            p.two_seats.state.turn,
            check=kinds(w, t),
        ),
        error_case(
            "game-legal-seat-does-not-exist",
            "docs/rules.md §8: a seat that does not exist is invalid input",
            {"seat": 4},
            "seat",
            p.opening,
        ),
        error_case(
            "game-legal-state-missing",
            "game.proto LegalMovesRequest.state: the state is required",
            {"seat": FIRST},
            "state",
        ),
    ]


def player_view_cases(p: Positions) -> list[Case]:
    mid, won, ended, two = p.mid_game, p.won, p.ended, p.two_seats
    winner = p.win_log[-1][0].seat
    loser = (winner + 1) % 4
    cases = [
        view_case(
            f"opening-seat-{seat}",
            "docs/rules.md §8.7: a seat sees its own rack, every seat's counts, the wall's size;"
            " never another rack",
            p.opening,
            seat,
        )
        for seat in range(4)
    ]
    cases += [
        view_case(
            f"mid-round-seat-{seat}",
            "docs/rules.md §8.7: the whole of one's own pile and of the previous seat's, only the"
            " top of the others",
            mid,
            seat,
        )
        for seat in range(4)
    ]
    cases += [
        view_case(
            "after-gosterme",
            "docs/rules.md §8.3, §8.7: every seat sees who has shown gösterme; the turn is"
            " unchanged",
            p.shown,
            3,
        ),
        view_case(
            "timed-deadline",
            "docs/rules.md §8.6, §8.7: the view shows the turn's deadline (the discard's time +"
            " 45 s)",
            p.timed_after_opening,
            HOLDER,
        ),
        view_case(
            "won-round-loser",
            "docs/rules.md §8.7: once a round is won its outcome, the winner's 14 tiles"
            " included, is shown to everyone",
            won,
            loser,
        ),
        view_case(
            "won-round-winner",
            "docs/rules.md §8.4, §8.7: the winner's rack holds the 14 tiles shown; the discard"
            " lies on the indicator",
            won,
            winner,
        ),
        view_case(
            "drawn-round",
            "docs/rules.md §8.5, §8.7: a drawn round: the wall is empty and the outcome says drawn",
            ended,
            ended.state.turn,
        ),
        view_case(
            "waiting-on-last-discard",
            "docs/rules.md §8.5, §8.7: the wall empty and the round not over: the seat on turn"
            " can finish with the last discard",
            p.waiting,
            p.waiting.state.turn,
        ),
        view_case(
            "okey-gg-rules",
            "docs/rules.md §5, §8.3, §8.4: the okey.gg preset plays no gösterme and does not"
            " oblige a winner to show",
            p.okey_gg,
            HOLDER,
        ),
    ]
    cases += [
        view_case(
            f"two-seats-seat-{seat}",
            "docs/rules.md §8.7: with two players both piles are seen whole",
            two,
            seat,
        )
        for seat in range(2)
    ]
    cases += [
        error_case(
            "game-view-seat-does-not-exist",
            "docs/rules.md §8.7: a seat that does not exist is invalid input",
            {"seat": 4},
            "seat",
            p.opening,
        ),
        error_case(
            "game-view-state-under-an-unknown-key",
            "errors.proto ERROR_REASON_UNKNOWN_KEY: a state sealed under a key id the server"
            " does not hold is refused on state",
            {"state": STATE_UNKNOWN_KEY, "seat": 1},
            "state",
            why="ERROR_REASON_UNKNOWN_KEY",
        ),
    ]
    return cases


def replay_cases(p: Positions) -> list[Case]:
    waiter = p.waiting.state.turn
    took = p.took_last.log[-1]  # the waiting seat takes the last discard
    opening_log = p.after_turn.log
    first_tile = p.opening.rack(FIRST)[0]
    holder_tile = p.opening.rack(HOLDER)[0]
    late_log = (
        discard(FIRST, p.timed_opening.rack(FIRST)[0], s(10)),
        draw(HOLDER, s(10 + TIMER_S)),
    )
    half = len(p.win_log) // 2
    return [
        replay_case(
            "empty-log",
            "game.proto ReplayRequest: an empty log from a seeded deal is legal, with no events",
            TABLE,
            [],
        ),
        replay_case(
            "first-turns",
            "docs/rules.md §8.1, §8.2: an opening discard and a draw-discard turn, events in order",
            TABLE,
            opening_log,
        ),
        replay_case(
            "illegal-first-move",
            "game.proto ReplayResponse: the first illegal move's index and reason; nothing applied",
            TABLE,
            [discard(HOLDER, holder_tile)],
            "NOT_YOUR_TURN",
        ),
        replay_case(
            "illegal-later-move",
            "game.proto ReplayResponse: moves before the first illegal one are applied and their"
            " events given (MUST_DRAW_FIRST)",
            TABLE,
            [discard(FIRST, first_tile), discard(HOLDER, holder_tile), draw(HOLDER)],
            "MUST_DRAW_FIRST",
        ),
        replay_case(
            "late-move-timed-out",
            "docs/rules.md §8.6: each logged move is judged at its own clock; a late draw is"
            " TURN_TIMED_OUT",
            TIMER,
            late_log,
            "TURN_TIMED_OUT",
        ),
        replay_case(
            "winning-round",
            "docs/rules.md §8.4: a whole round from the deal to a win; the last event is ROUND_WON",
            WIN,
            p.win_log,
        ),
        replay_case(
            "winning-round-from-a-state",
            "game.proto ReplayRequest.start: a log may start from a state the server issued",
            WIN.at(*p.win_log[:half]),
            p.win_log[half:],
        ),
        replay_case(
            "move-after-win-round-over",
            "docs/rules.md §8.4: a move logged after the win is ROUND_OVER",
            WIN,
            (*p.win_log, draw((p.win_log[-1][0].seat + 1) % 4)),
            "ROUND_OVER",
        ),
        replay_case(
            "drawn-round",
            "docs/rules.md §8.5: a timed round played until the wall is empty; the next seat"
            " cannot finish with the last discard, so that discard ends it with no winner",
            DRAWN,
            p.ended.log,
        ),
        replay_case(
            "won-with-the-last-discard",
            "docs/rules.md §8.5: with the wall empty the seat on turn takes the last discard and"
            " finishes with it",
            p.waiting,
            [took, (first_of(p.took_last, waiter, MoveKind.DECLARE_WIN), next_ms(p.took_last))],
        ),
        replay_case(
            "last-discard-thrown-back-must-finish",
            "docs/rules.md §8.5: taking the last discard of an empty wall and throwing it back"
            " is refused (MUST_FINISH): play does not go on past the wall",
            p.waiting,
            [took, discard(waiter, p.took_last.rack(waiter)[-1], next_ms(p.took_last))],
            "MUST_FINISH",
        ),
        error_case(
            "game-replay-no-start",
            "game.proto ReplayRequest.start: a replay starts from a deal or a state",
            {"moves": []},
            "start",
        ),
        error_case(
            "game-replay-deal-without-seed",
            "game.proto ReplayRequest.deal: a deal is re-dealt from its seed",
            {"deal": {"playerCount": 4}},
            "deal.seed",
        ),
        error_case(
            "game-replay-committed-deal",
            "game.proto ReplayRequest.deal: a committed deal (a deal id) cannot be re-dealt",
            {"deal": {"dealId": "bm90IGEgZGVhbCBpZA"}},
            "deal.deal_id",
        ),
        error_case(
            "game-replay-deal-bad-player-count",
            "docs/dealing.md: classic Okey seats 2 to 4 players; errors name deal.<field>",
            {"deal": {"seed": SEED_TABLE, "playerCount": 5}},
            "deal.player_count",
        ),
        error_case(
            "game-replay-okey-101-classic-move",
            "docs/rules.md §10: an Okey 101 round has no classic-only moves (no DECLARE_WIN)",
            {
                "deal": {"seed": SEED_TABLE, "preset": "101"},
                "moves": [{"move": {"kind": "MOVE_KIND_DECLARE_WIN", "seat": 0}}],
            },
            "moves[0].move.kind",
        ),
        error_case(
            "game-replay-move-kind-unspecified",
            "game.proto MoveKind: an unspecified kind in the log names its index",
            {
                "deal": TABLE.request(),
                "moves": [logged_json(discard(FIRST, first_tile)), {"move": {"seat": HOLDER}}],
            },
            "moves[1].move.kind",
        ),
        error_case(
            "game-replay-seat-does-not-exist",
            "docs/rules.md §8: a seat that does not exist is invalid input, naming the log entry",
            {"deal": TABLE.request(), "moves": [logged_json(draw(7))]},
            "moves[0].move.seat",
        ),
        error_case(
            "game-replay-state-of-another-token-version",
            "errors.proto ERROR_REASON_TOKEN_VERSION: a state of another token format is"
            " refused on state",
            {"state": STATE_OTHER_VERSION, "moves": []},
            "state",
            why="ERROR_REASON_TOKEN_VERSION",
        ),
    ]


def stacked_cases(method: str) -> list[Case]:
    """Cases from a stacked deal (deal.proto, DealRequest.stacked): given_state starts from
    the position itself, and Replay deals it; the status and view say DEAL_KIND_STACKED."""
    opening = SEVEN_PAIRS.at()
    odd = code(K, 2)
    if method == "ApplyMove":
        return [
            apply_case(
                "stacked-seven-pairs-win-at-the-opening",
                "docs/rules.md §8.4: the first seat may win with its opening discard (seven"
                " pairs, K2 thrown), from a stacked position; the status says DEAL_KIND_STACKED",
                opening,
                declare(FIRST, odd),
                events=(EventKind.ROUND_WON,),
            ),
            apply_case(
                "stacked-winning-hand-must-be-shown",
                "docs/rules.md §8.4 (must_show_win, classic preset): a plain discard that"
                " keeps a winning hand with no okey is refused, from a stacked position",
                opening,
                discard(FIRST, odd),
                "MUST_SHOW_WIN",
            ),
        ]
    if method == "LegalMoves":
        return [
            legal_case(
                "stacked-seven-pairs-may-win",
                "docs/rules.md §8.4: the seat holding seven pairs and one tile more is offered"
                " to win by discarding it",
                opening,
                FIRST,
                check=lambda moves: Move(MoveKind.DECLARE_WIN, FIRST, TILE_OF_CODE[odd]) in moves,
            ),
        ]
    if method == "PlayerView":
        return [
            view_case(
                "stacked-position-first-seat",
                "game.proto PlayerViewResponse.deal_kind: a stacked position is marked"
                " DEAL_KIND_STACKED, with no commitment nor seeded deal id",
                opening,
                FIRST,
            ),
        ]
    return [
        replay_case(
            "stacked-deal-and-a-win",
            "game.proto ReplayRequest.deal: a stacked DealRequest is dealt as given and the"
            " log played on it (the opening seat wins with seven pairs)",
            SEVEN_PAIRS,
            [declare(FIRST, odd)],
        ),
    ]


FILES: dict[str, tuple[str, str, str, Callable[[Positions], list[Case]]]] = {
    "game_apply_move.json": (
        "GameService: ApplyMove",
        "docs/rules.md §8 (Playing a round); game.proto (IllegalReason, EventKind)",
        "ApplyMove",
        apply_move_cases,
    ),
    "game_legal_moves.json": (
        "GameService: LegalMoves",
        "docs/rules.md §8; game.proto (LegalMovesResponse)",
        "LegalMoves",
        legal_moves_cases,
    ),
    "game_player_view.json": (
        "GameService: PlayerView",
        "docs/rules.md §8.7 (What each seat sees); game.proto (PlayerViewResponse)",
        "PlayerView",
        player_view_cases,
    ),
    "game_replay.json": (
        "GameService: Replay",
        "docs/rules.md §8; game.proto (ReplayRequest, ReplayResponse)",
        "Replay",
        replay_cases,
    ),
}

NOTES = (
    "Expected answers derived by scripts/derive_game_vectors.py from the engine's rules"
    " (docs/rules.md §8). A sealed state cannot be stored in a vector (the token opens under"
    " one server key only): a case that needs a position carries given_state, a ReplayRequest"
    " (a seeded or stacked deal and a move log) that the runner replays first, putting the"
    " answer's state into the request. No expected answer pins a token (an illegal move's is"
    " pinned empty); legal answers pin the round's status (turn, phase, deadline, outcome,"
    " deal kind) instead. Nothing that depends on the server's key is pinned (a seeded deal's"
    " keyed id); arrangements and message texts are not pinned either."
)


def build_files() -> dict[str, Json]:
    """Every vector file, by file name, as the JSON object to write."""
    p = positions()
    return {
        name: {
            "suite": suite,
            "source": source,
            "service": "okey.v1.GameService",
            "method": method,
            "notes": NOTES,
            "cases": [*cases(p), *stacked_cases(method)],
        }
        for name, (suite, source, method, cases) in FILES.items()
    }


# --- output ----------------------------------------------------------------------------


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def dump(value: Any, indent: int = 0) -> str:
    """JSON with every short value, every shallow object (a tile, a move, a logged move, an
    event) and every list of scalars or tiles (a rack) on one line; a list of objects (moves,
    events, a log) gets one line per element."""
    inline = json.dumps(value, ensure_ascii=False)
    shallow = _depth(value) <= (3 if isinstance(value, dict) else 2)
    if shallow or len(inline) + indent <= 100:
        return inline
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {dump(v, indent + 2)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + dump(v, indent + 2) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def file_text(data: Json) -> str:
    """A vector file's exact text, as --write writes it."""
    return dump(data) + "\n"


# --- how the seeds were found ----------------------------------------------------------


def search(prefix: str, found: Callable[[str], bool], limit: int = 1000) -> str:
    """The first seed `prefix-N` with the property."""
    return next(f"{prefix}-{n}" for n in range(limit) if found(f"{prefix}-{n}"))


def _searches() -> Iterator[tuple[str, str]]:
    def table(seed: str) -> bool:
        return twin_holder(Table(seed).start()) == HOLDER

    yield "SEED_TABLE", search("gosterme-table", table)

    def timer(seed: str) -> bool:
        state = Table(seed, now_ms=T0_MS).start()
        # Seat 2 draws the okey first; the tile it then discards is its last dealt one.
        return (
            is_okey(state.wall[0], state)
            and not is_okey(state.seats[HOLDER].rack[-1], state)
            and twin_holder(state) == TIMER_HOLDER
        )

    yield "SEED_TIMER", search("timer-okey-draw", timer)

    def win(seed: str) -> bool:
        log = greedy_log(Table(seed))
        state = replay(Table(seed).start(), log).state
        outcome = state.outcome
        # A short win with a gösterme in its outcome, by a seat other than the opener.
        return (
            outcome is not None
            and not outcome.drawn
            and bool(outcome.gosterme)
            and outcome.winner != FIRST
            and len(log) <= 60
        )

    yield "SEED_WIN", search("greedy-win", win)

    def wall_runs_out(seed: str) -> bool:
        holder = twin_holder(Table(seed).start())
        return holder is not None and holder != FIRST

    yield "SEED_DRAWN", search("wall-runs-out", wall_runs_out)

    def waits(seed: str) -> bool:
        # The round waits on a seat at the wall's end, and its outcome will list a gösterme.
        table = Table(seed, now_ms=T0_MS)
        return twin_holder(table.start()) is not None and holding_log(table, s(1)).waits

    yield "SEED_WAIT", search("wall-waits", waits)

    def shows(seed: str) -> bool:
        # A short log to a win that must be shown, and one that may play on later.
        held = holding_log(Table(seed, now_ms=T0_MS), s(1))
        return held.must_show is not None and held.must_show < 30 and held.plays_on is not None

    yield "SEED_SHOW", search("must-show", shows)
    yield "SEED_TWO", "two-seats-0"


def main(argv: list[str] | None = None) -> int:
    # Imported only when run: other derive scripts and tests load this file by path,
    # where scripts/ need not be on the import path.
    from vector_tools import run_cli

    return run_cli(
        argv,
        description=(__doc__ or "").splitlines()[0],
        write_help="write DIR/game_*.json",
        search_help="re-find the special seeds",
        build_files=build_files,
        file_text=file_text,
        dump=dump,
        searches=_searches,
    )


if __name__ == "__main__":
    sys.exit(main())
