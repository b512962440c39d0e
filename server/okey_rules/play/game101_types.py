"""The state of an Okey 101 round (docs/rules.md §10): table melds, seats, the turn's laying
moves. Its moves, events and outcome are okey_rules.play.round_types, shared with classic."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from okey_rules.play.results import MoveResult, ReplayResult
from okey_rules.play.round_types import (
    EventKind,
    IllegalReason,
    MoveKind,
    Opened,
    Outcome,
    Penalty,
    Phase,
)
from okey_rules.rulebook import tile_value
from okey_rules.ruleset import Ruleset
from okey_rules.search.hand_types import MeldKind
from okey_rules.tiles import FACES, Tile, okey_for


class Laid(NamedTuple):
    """A tile on the table: its code and the face (0..51) it stands for, fixed once laid."""

    code: int
    face: int


# The kinds of move Okey 101 has (the others are classic's: a win is a finishing discard,
# turns are untimed, there is no gösterme), the reasons one can be refused for, and the
# events they cause.
OKEY_101_MOVES = frozenset({
    MoveKind.DISCARD, MoveKind.DRAW_FROM_WALL, MoveKind.TAKE_DISCARD, MoveKind.RETURN_DISCARD,
    MoveKind.OPEN, MoveKind.LAY_MELD, MoveKind.LAY_OFF, MoveKind.TAKE_BACK,
})
OKEY_101_REASONS = frozenset({
    IllegalReason.ROUND_OVER, IllegalReason.NOT_YOUR_TURN, IllegalReason.MUST_DRAW_FIRST,
    IllegalReason.MUST_DISCARD_FIRST, IllegalReason.TILE_NOT_IN_RACK, IllegalReason.WALL_EMPTY,
    IllegalReason.NOT_OPENED, IllegalReason.ALREADY_OPENED, IllegalReason.INVALID_MELD,
    IllegalReason.TAKEN_DISCARD_NOT_USED, IllegalReason.NO_DISCARD_TO_RETURN,
    IllegalReason.NOTHING_TO_TAKE_BACK, IllegalReason.NO_SUCH_MELD,
    IllegalReason.CANNOT_LAY_OFF, IllegalReason.PAIRS_OPENER_LAYS_NO_MELDS,
    IllegalReason.MUST_KEEP_A_TILE, IllegalReason.DISCARD_PILE_EMPTY,
    IllegalReason.LAY_OFF_CAP_REACHED,
})
OKEY_101_EVENTS = frozenset({
    EventKind.DREW_FROM_WALL, EventKind.TOOK_DISCARD, EventKind.RETURNED_DISCARD,
    EventKind.OPENED, EventKind.LAID_MELD, EventKind.LAID_OFF, EventKind.TOOK_BACK,
    EventKind.DISCARDED, EventKind.PENALTY, EventKind.ROUND_WON, EventKind.ROUND_DRAWN,
    EventKind.ROUND_VOID, EventKind.RETRIEVED_OKEY,
})


@dataclass(frozen=True, slots=True)
class TableMeld:
    owner: int
    kind: MeldKind
    tiles: tuple[Laid, ...]  # a run low to high; a set or pair as laid

    @property
    def value(self) -> int:
        return sum(tile_value(laid.face) for laid in self.tiles)


@dataclass(frozen=True, slots=True)
class Seat101:
    rack: tuple[int, ...]
    discards: tuple[int, ...] = ()
    opened: Opened | None = None
    opened_on_move: int = 0  # the move number of the opening, for the one-turn finish
    penalties: tuple[Penalty, ...] = ()


class LayAction(NamedTuple):
    """One laying move of the turn, enough to take it back: a lay-off's meld, or the
    index of the first of the melds it added (they are the table's last ones)."""

    kind: MoveKind
    meld: int
    codes: tuple[int, ...]  # the tiles it laid
    opened_before: Opened | None
    side: int = 0  # a lay-off onto a run: 1 its low end, 2 its high end; 3 a retrieval
    best_before: int = 0  # an opening: the best opening (points or pairs) before it


@dataclass(frozen=True, slots=True)
class State101:
    rules: Ruleset
    dealer: int
    indicator: int
    seats: tuple[Seat101, ...]
    wall: tuple[int, ...]
    turn: int
    phase: Phase
    table: tuple[TableMeld, ...] = ()
    move_number: int = 0
    taken: int | None = None  # the discard taken this turn, until it is laid
    laid: tuple[LayAction, ...] = ()  # this turn's laying moves, oldest first
    took_back: int = 0  # the tiles this turn's take-backs returned (§10.5: one is free)
    turn_start: int = 0  # the move number the turn began with (its draw)
    best_opening: int = 0  # §10.8 progressive opening: the best melds opening's points
    best_pairs: int = 0  # ... and the most pairs opened with
    riziko: bool = False  # §10.8: a false joker was turned up at the deal, with riziko on
    deal_id: str = ""
    round: int = 1
    outcome: Outcome | None = None

    @property
    def player_count(self) -> int:
        return len(self.seats)

    @property
    def deadline_ms(self) -> int:
        """Always 0: Okey 101 turns are untimed (a classic state's turn deadline)."""
        return 0

    @property
    def must_finish(self) -> bool:
        """Always False: an Okey 101 seat takes a discard to lay it, not to finish
        (a classic state's §8.5 duty to declare the win)."""
        return False

    @property
    def okey(self) -> Tile:
        return okey_for(Tile.from_code(self.indicator))


# A replayed 101 move log: the same type as classic's (okey_rules.play.results).
Replay101 = ReplayResult[State101]


# The judgement on a 101 move: the same type as classic's (okey_rules.play.results).
Result101 = MoveResult[State101]


FACE_COUNT = FACES - 1  # 52 numbered faces
