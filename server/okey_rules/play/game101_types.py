"""Values of an Okey 101 round (docs/rules.md §10): table melds, seats, moves, events, outcome."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NamedTuple

from okey_rules.play.results import MoveResult, ReplayResult
from okey_rules.rulebook import tile_value
from okey_rules.ruleset import Ruleset
from okey_rules.search.hand_types import MeldKind
from okey_rules.tiles import FACES, Tile, okey_for


class Phase101(enum.Enum):
    FIRST_DISCARD = "first discard"  # the dealer opens the round by discarding
    DRAW = "draw"
    PLAY = "play"  # drawn: open, lay, lay off, take back, then discard
    ROUND_OVER = "round over"


class Opened(enum.Enum):
    MELDS = "melds"
    PAIRS = "pairs"


class Move101Kind(enum.Enum):
    DISCARD = "discard"
    DRAW_FROM_WALL = "draw from the bank"
    TAKE_DISCARD = "take the discard"
    RETURN_DISCARD = "return the discard"
    OPEN = "open"
    LAY_MELD = "lay a meld"
    LAY_OFF = "lay off"
    TAKE_BACK = "take back"


class Illegal101(enum.Enum):
    ROUND_OVER = "round over"
    NOT_YOUR_TURN = "not your turn"
    MUST_DRAW_FIRST = "must draw first"
    MUST_DISCARD_FIRST = "must discard first"
    TILE_NOT_IN_RACK = "tile not in rack"
    WALL_EMPTY = "wall empty"
    NOT_OPENED = "not opened"
    ALREADY_OPENED = "already opened"
    INVALID_MELD = "invalid meld"
    TAKEN_DISCARD_NOT_USED = "taken discard not used"
    NO_DISCARD_TO_RETURN = "no discard to return"
    NOTHING_TO_TAKE_BACK = "nothing to take back"
    NO_SUCH_MELD = "no such meld"
    CANNOT_LAY_OFF = "cannot lay off"
    PAIRS_OPENER_LAYS_NO_MELDS = "pairs opener lays no melds"
    MUST_KEEP_A_TILE = "must keep a tile to discard"
    DISCARD_PILE_EMPTY = "discard pile empty"
    LAY_OFF_CAP_REACHED = "lay-off cap reached"


class Penalty(enum.Enum):
    """§10.5: the 101-point penalties, each an event when it happens."""

    OKEY_DISCARDED = "okey discarded"
    FAILED_OPENING = "failed opening"
    DISCARD_COULD_BE_LAID_OFF = "discard could be laid off"
    TOOK_BACK_SEVERAL = "took back several tiles"
    OKEY_LEFT_IN_HAND = "okey left in hand"


class Event101Kind(enum.Enum):
    DREW_FROM_WALL = "drew from the bank"
    TOOK_DISCARD = "took the discard"
    RETURNED_DISCARD = "returned the discard"
    OPENED = "opened"
    LAID_MELD = "laid a meld"
    LAID_OFF = "laid off"
    TOOK_BACK = "took back"
    DISCARDED = "discarded"
    PENALTY = "penalty"
    ROUND_FINISHED = "round finished"
    ROUND_EXHAUSTED = "bank exhausted"
    ROUND_VOID = "round void"
    RETRIEVED_OKEY = "retrieved an okey"


class Laid(NamedTuple):
    """A tile on the table: its code and the face (0..51) it stands for, fixed once laid."""

    code: int
    face: int


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

    kind: Move101Kind
    meld: int
    codes: tuple[int, ...]  # the tiles it laid
    opened_before: Opened | None
    side: int = 0  # a lay-off onto a run: 1 its low end, 2 its high end; 3 a retrieval
    best_before: int = 0  # an opening: the best opening (points or pairs) before it


class RoundEnd101(enum.StrEnum):
    """How an Okey 101 round ended (a str, so it still equals its old string value)."""

    FINISHED = "finished"  # a seat laid its last tile
    EXHAUSTED = "exhausted"  # the bank ran out
    VOID = "void"  # §10.3: all four opened with pairs; dealt again


@dataclass(frozen=True, slots=True)
class Outcome101:
    kind: RoundEnd101
    move_number: int
    finisher: int = 0
    okey_discard: bool = False
    one_turn: bool = False  # opened and finished in one turn, nobody else open
    discard: int | None = None  # the finishing discard's code


@dataclass(frozen=True, slots=True)
class State101:
    rules: Ruleset
    dealer: int
    indicator: int
    seats: tuple[Seat101, ...]
    wall: tuple[int, ...]
    turn: int
    phase: Phase101
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
    outcome: Outcome101 | None = None

    @property
    def player_count(self) -> int:
        return len(self.seats)

    @property
    def okey(self) -> Tile:
        return okey_for(Tile.from_code(self.indicator))

    def previous(self, seat: int) -> int:
        return (seat - 1) % self.player_count


class Move101(NamedTuple):
    """One move. `melds` (OPEN, LAY_MELD): groups of (code, face the tile stands for, or
    None to let the engine choose for an okey); OPEN with `pairs` opens with pairs.
    LAY_OFF lays `tile` onto table meld `meld` (an okey standing for `face`, or None)."""

    kind: Move101Kind
    seat: int
    tile: int | None = None
    melds: tuple[tuple[tuple[int, int | None], ...], ...] = ()
    pairs: bool = False
    meld: int = 0
    face: int | None = None


class Event101(NamedTuple):
    kind: Event101Kind
    seat: int
    tiles: tuple[int, ...] = ()
    meld: int = 0  # OPENED, LAID_MELD, LAID_OFF, RETRIEVED_OKEY: the table meld's index
    penalty: Penalty | None = None
    points: int = 0
    private: bool = False
    from_seat: int = 0  # TOOK_DISCARD, RETURNED_DISCARD: the seat whose pile it is


# A replayed 101 move log: the same type as classic's (okey_rules.play.results).
Replay101 = ReplayResult[State101, Event101, Illegal101]


# The judgement on a 101 move: the same type as classic's (okey_rules.play.results).
Result101 = MoveResult[State101, Event101, Illegal101]


FACE_COUNT = FACES - 1  # 52 numbered faces
