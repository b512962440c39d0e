"""The state of a classic round (docs/rules.md §8); its moves, events and outcome are
okey_rules.play.round_types, shared with Okey 101.

Tiles are packed codes here (``Tile.code``: copy * 53 + face), as in `Deal`:
a state holds all 106 of them and is rebuilt on every move.
"""

from __future__ import annotations

from dataclasses import dataclass

from okey_rules.play.results import MoveResult, ReplayResult
from okey_rules.play.round_types import EventKind, IllegalReason, MoveKind, Outcome, Phase
from okey_rules.ruleset import Ruleset
from okey_rules.tiles import FACES, TILE_OF_CODE, Tile, okey_for

# The kinds of move classic Okey has (the others are Okey 101's: melds stay in the rack).
CLASSIC_MOVES = frozenset({
    MoveKind.DRAW_FROM_WALL, MoveKind.TAKE_DISCARD, MoveKind.DISCARD, MoveKind.DECLARE_WIN,
    MoveKind.GOSTERME, MoveKind.END_ROUND, MoveKind.TIMEOUT,
})
# The reasons a classic move can be refused for, and the events classic moves cause.
CLASSIC_REASONS = frozenset({
    IllegalReason.ROUND_OVER, IllegalReason.NOT_YOUR_TURN, IllegalReason.MUST_DRAW_FIRST,
    IllegalReason.MUST_DISCARD_FIRST, IllegalReason.TILE_NOT_IN_RACK, IllegalReason.WALL_EMPTY,
    IllegalReason.WALL_NOT_EMPTY, IllegalReason.HAND_DOES_NOT_WIN,
    IllegalReason.GOSTERME_TOO_LATE, IllegalReason.GOSTERME_ALREADY_SHOWN,
    IllegalReason.GOSTERME_WITHOUT_TILE, IllegalReason.TURN_TIMED_OUT,
    IllegalReason.TURN_NOT_TIMED_OUT, IllegalReason.GOSTERME_NOT_PLAYED,
    IllegalReason.MUST_SHOW_WIN, IllegalReason.MUST_FINISH,
})
CLASSIC_EVENTS = frozenset({
    EventKind.DREW_FROM_WALL, EventKind.TOOK_DISCARD, EventKind.DISCARDED, EventKind.GOSTERME,
    EventKind.TURN_TIMED_OUT, EventKind.ROUND_WON, EventKind.ROUND_DRAWN,
})
# The moves that name the tile they discard; every other classic kind names none.
MOVES_WITH_TILE = frozenset({MoveKind.DISCARD, MoveKind.DECLARE_WIN})


@dataclass(frozen=True, slots=True)
class SeatState:
    rack: tuple[int, ...]  # codes, in the order received
    discards: tuple[int, ...] = ()  # codes, oldest first; the last is the top
    draws: int = 0  # tiles drawn or taken so far this round
    gosterme: bool = False


@dataclass(frozen=True, slots=True)
class GameState:
    """A round in play. Every one of the 106 tiles is in exactly one place:
    a rack, a discard pile, the wall, the indicator, or the winning discard."""

    rules: Ruleset
    player_count: int
    dealer: int
    first_seat: int
    indicator: int  # code
    seats: tuple[SeatState, ...]
    wall: tuple[int, ...]  # codes in draw order
    turn: int
    phase: Phase
    move_number: int = 0
    deal_id: str = ""
    round: int = 1
    deadline_ms: int = 0  # 0: the turn is not timed
    outcome: Outcome | None = None
    # The seats that showed gösterme, in the order shown (§8.3): with
    # gosterme_in_first_turn the twin can pass from seat to seat, so the
    # per-seat flags alone do not say who showed first.
    gosterme_order: tuple[int, ...] = ()
    # §8.5: the seat on turn took the last discard with the wall empty, which
    # it may do only to finish with it: it must now declare the win.
    must_finish: bool = False

    @property
    def okey(self) -> Tile:
        """The okey face, as a copy-0 tile."""
        return okey_for(TILE_OF_CODE[self.indicator])

    def gosterme_tile(self) -> int:
        """The code of the indicator's twin: the tile gösterme shows."""
        return (self.indicator + FACES) % (2 * FACES)


# The judgement on a classic move: the next state and its events, or the reason it is illegal.
ClassicResult = MoveResult[GameState]


# A classic move log's verdict: every move legal, or the first illegal one.
ClassicReplay = ReplayResult[GameState]
