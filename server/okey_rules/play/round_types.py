"""The words of a round, one vocabulary for both games (docs/rules.md §8, §10): the phase,
a move, why a move is illegal, what a move caused, how a round ended.

Classic Okey and Okey 101 use the same types; a kind that only one game has says so,
and each game's engine refuses a move kind of the other game as input no rule can judge.
Tiles are packed codes (``Tile.code``: copy * 53 + face) throughout. The states and the
views stay each game's own (okey_rules.play.game_types, game101_types), behind one
`Round` (okey_rules.play.round).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NamedTuple

from okey_rules.search.hand_types import WinKind


class Phase(enum.Enum):
    """What the seat on turn must do next."""

    FIRST_DISCARD = "first discard"  # the first seat opens by discarding, without a draw
    DRAW = "draw"
    # Drawn: classic discards or declares a win; Okey 101 may open, lay, lay off and
    # take back before its discard.
    DISCARD = "discard"
    ROUND_OVER = "round over"


class MoveKind(enum.Enum):
    DRAW_FROM_WALL = "draw from wall"  # Okey 101 calls the wall the bank
    TAKE_DISCARD = "take discard"
    DISCARD = "discard"
    DECLARE_WIN = "declare win"  # classic
    GOSTERME = "gösterme"  # classic
    END_ROUND = "end round"  # classic
    TIMEOUT = "timeout"  # classic
    RETURN_DISCARD = "return the discard"  # Okey 101
    OPEN = "open"  # Okey 101
    LAY_MELD = "lay a meld"  # Okey 101
    LAY_OFF = "lay off"  # Okey 101
    TAKE_BACK = "take back"  # Okey 101


class Move(NamedTuple):
    """One move of one seat.

    `tile`: the tile a DISCARD, DECLARE_WIN or LAY_OFF names. `melds` (OPEN, LAY_MELD):
    groups of (code, the face the tile stands for, or None to let the engine choose for an
    okey); OPEN with `pairs` opens with pairs. LAY_OFF lays `tile` onto table meld `meld`
    (an okey standing for `face`, or None).
    """

    kind: MoveKind
    seat: int
    tile: int | None = None
    melds: tuple[tuple[tuple[int, int | None], ...], ...] = ()
    pairs: bool = False
    meld: int = 0
    face: int | None = None


class IllegalReason(enum.Enum):
    ROUND_OVER = "round over"
    NOT_YOUR_TURN = "not your turn"
    MUST_DRAW_FIRST = "must draw first"
    MUST_DISCARD_FIRST = "must discard first"
    TILE_NOT_IN_RACK = "tile not in rack"
    WALL_EMPTY = "wall empty"
    WALL_NOT_EMPTY = "wall not empty"  # classic
    HAND_DOES_NOT_WIN = "hand does not win"  # classic
    GOSTERME_TOO_LATE = "gösterme too late"  # classic
    GOSTERME_ALREADY_SHOWN = "gösterme already shown"  # classic
    GOSTERME_WITHOUT_TILE = "gösterme without the tile"  # classic
    TURN_TIMED_OUT = "turn timed out"  # classic
    TURN_NOT_TIMED_OUT = "turn not timed out"  # classic
    GOSTERME_NOT_PLAYED = "gösterme not played"  # classic
    MUST_SHOW_WIN = "must show the win"  # classic
    MUST_FINISH = "must finish"  # classic
    NOT_OPENED = "not opened"  # Okey 101 from here on
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
    """Okey 101 (§10.5): the 101-point penalties, each an event when it happens."""

    OKEY_DISCARDED = "okey discarded"
    FAILED_OPENING = "failed opening"
    DISCARD_COULD_BE_LAID_OFF = "discard could be laid off"
    TOOK_BACK_SEVERAL = "took back several tiles"
    OKEY_LEFT_IN_HAND = "okey left in hand"


class Opened(enum.Enum):
    """Okey 101: how a seat opened."""

    MELDS = "melds"
    PAIRS = "pairs"


class EventKind(enum.Enum):
    DREW_FROM_WALL = "drew from wall"
    TOOK_DISCARD = "took discard"
    DISCARDED = "discarded"
    GOSTERME = "gösterme"  # classic
    TURN_TIMED_OUT = "turn timed out"  # classic
    ROUND_WON = "round won"  # Okey 101: a seat laid its last tile
    ROUND_DRAWN = "round drawn"  # the wall (Okey 101: the bank) ran out
    RETURNED_DISCARD = "returned the discard"  # Okey 101 from here on
    OPENED = "opened"
    LAID_MELD = "laid a meld"
    LAID_OFF = "laid off"
    TOOK_BACK = "took back"
    PENALTY = "penalty"
    ROUND_VOID = "round void"
    RETRIEVED_OKEY = "retrieved an okey"


class RoundEnd(enum.Enum):
    """How a round ended."""

    WON = "won"  # classic: a seat declared a win; Okey 101: a seat laid its last tile
    DRAWN = "drawn"  # nobody won: the wall (Okey 101: the bank) ran out
    VOID = "void"  # Okey 101 (§10.3): all four opened with pairs; dealt again


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a round ended, and what the scores read of it."""

    end: RoundEnd
    move_number: int  # the move that ended the round
    winner: int = 0  # WON: the seat that won (Okey 101: that finished)
    win_kind: WinKind | None = None  # classic WON: how the 14 tiles win (the best kind)
    okey_discard: bool = False  # WON: the finishing discard was an okey
    discard: int | None = None  # WON: the finishing discard's code
    hand: tuple[int, ...] = ()  # classic WON: the winner's 14 codes, in rack order
    gosterme: tuple[tuple[int, int], ...] = ()  # classic: (seat, tile code) in the order shown
    one_turn: bool = False  # Okey 101: opened and finished in one turn, nobody else open

    @property
    def drawn(self) -> bool:
        return self.end is RoundEnd.DRAWN

    @property
    def won(self) -> bool:
        return self.end is RoundEnd.WON


class Event(NamedTuple):
    """One thing a move caused."""

    kind: EventKind
    seat: int
    tile: int | None = None  # the one tile involved, when one is
    tiles: tuple[int, ...] = ()  # Okey 101 (OPENED, LAID_MELD, TOOK_BACK): the tiles involved
    from_seat: int = 0  # TOOK_DISCARD, RETURNED_DISCARD: the seat whose pile it is
    private: bool = False  # only `seat` may see `tile` (a wall draw)
    outcome: Outcome | None = None  # ROUND_WON, ROUND_DRAWN, ROUND_VOID
    meld: int = 0  # Okey 101 (OPENED, LAID_MELD, LAID_OFF, RETRIEVED_OKEY): the table meld
    penalty: Penalty | None = None  # PENALTY: which
    points: int = 0  # PENALTY: its points
