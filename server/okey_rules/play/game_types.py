"""The values of a round of play: state, moves, events, outcome (docs/rules.md §8).

Tiles are packed codes here (``Tile.code``: copy * 53 + face), as in `Deal`:
a state holds all 106 of them and is rebuilt on every move.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NamedTuple

from okey_rules.play.results import MoveResult as SharedResult
from okey_rules.play.results import ReplayResult as SharedReplay
from okey_rules.ruleset import Ruleset
from okey_rules.search.hand_types import WinKind
from okey_rules.tiles import FACES, TILE_OF_CODE, Tile, okey_for


class Phase(enum.Enum):
    """What the seat on turn must do next."""

    FIRST_DISCARD = "first discard"  # the first seat opens by discarding, without a draw
    DRAW = "draw"
    DISCARD = "discard"
    ROUND_OVER = "round over"


class MoveKind(enum.Enum):
    DRAW_FROM_WALL = "draw from wall"
    TAKE_DISCARD = "take discard"
    DISCARD = "discard"
    DECLARE_WIN = "declare win"
    GOSTERME = "gösterme"
    END_ROUND = "end round"
    TIMEOUT = "timeout"


# The moves that name the tile they discard; every other kind names none.
MOVES_WITH_TILE = frozenset({MoveKind.DISCARD, MoveKind.DECLARE_WIN})


class IllegalReason(enum.Enum):
    ROUND_OVER = "round over"
    NOT_YOUR_TURN = "not your turn"
    MUST_DRAW_FIRST = "must draw first"
    MUST_DISCARD_FIRST = "must discard first"
    TILE_NOT_IN_RACK = "tile not in rack"
    WALL_EMPTY = "wall empty"
    WALL_NOT_EMPTY = "wall not empty"
    HAND_DOES_NOT_WIN = "hand does not win"
    GOSTERME_TOO_LATE = "gösterme too late"
    GOSTERME_ALREADY_SHOWN = "gösterme already shown"
    GOSTERME_WITHOUT_TILE = "gösterme without the tile"
    TURN_TIMED_OUT = "turn timed out"
    TURN_NOT_TIMED_OUT = "turn not timed out"
    GOSTERME_NOT_PLAYED = "gösterme not played"
    MUST_SHOW_WIN = "must show the win"
    MUST_FINISH = "must finish"


class EventKind(enum.Enum):
    DREW_FROM_WALL = "drew from wall"
    TOOK_DISCARD = "took discard"
    DISCARDED = "discarded"
    GOSTERME = "gösterme"
    TURN_TIMED_OUT = "turn timed out"
    ROUND_WON = "round won"
    ROUND_DRAWN = "round drawn"


@dataclass(frozen=True, slots=True)
class Move:
    """One move of one seat; `tile` only for DISCARD and DECLARE_WIN."""

    kind: MoveKind
    seat: int
    tile: Tile | None = None


@dataclass(frozen=True, slots=True)
class SeatState:
    rack: tuple[int, ...]  # codes, in the order received
    discards: tuple[int, ...] = ()  # codes, oldest first; the last is the top
    draws: int = 0  # tiles drawn or taken so far this round
    gosterme: bool = False


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a round ended: a winner and how, or a drawn round."""

    drawn: bool
    move_number: int  # the move that ended the round
    gosterme: tuple[tuple[int, int], ...] = ()  # (seat, tile code) in the order shown
    winner: int = 0
    kind: WinKind | None = None
    okey_discard: bool = False
    discard: int | None = None  # the finishing discard's code
    hand: tuple[int, ...] = ()  # the winner's 14 codes, in rack order


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

    @property
    def previous_seat(self) -> int:
        """The seat that plays before the seat on turn: its discard is the one to take."""
        return (self.turn - 1) % self.player_count

    def gosterme_tile(self) -> int:
        """The code of the indicator's twin: the tile gösterme shows."""
        return (self.indicator + FACES) % (2 * FACES)


class Event(NamedTuple):
    kind: EventKind
    seat: int
    tile: int | None = None  # code
    from_seat: int = 0
    private: bool = False  # only `seat` may see `tile` (a wall draw)
    outcome: Outcome | None = None


# The judgement on a move: the next state and its events, or the reason it is illegal.
MoveResult = SharedResult[GameState, Event, IllegalReason]


# A move log's verdict: every move legal, or the first illegal one.
ReplayResult = SharedReplay[GameState, Event, IllegalReason]
