"""Result types of a deal: the dealt round and, for a formal deal, its procedure."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from okey_rules.ruleset import Game, Ruleset
from okey_rules.tiles import FACES, Tile, format_tile, okey_for


class DealMethod(enum.Enum):
    """How the tiles reach the racks (docs/dealing.md)."""

    INFORMAL = "informal"
    FORMAL = "formal"


@dataclass(frozen=True, slots=True)
class Take:
    """A part of a stack that one seat took in a formal deal."""

    seat: int
    stack: int  # index in table order, 0..20
    letter: str  # "a" = the stack right after the indicator stack
    part: str  # "whole", "top 4", "bottom 1", ...
    tiles: tuple[int, ...]  # codes, bottom to top


@dataclass(frozen=True, slots=True)
class FormalProcedure:
    """The formal stacks-and-dice procedure as it ran (docs/dealing.md, "Formal deal")."""

    dice: tuple[int, ...]  # die 1, die 2, then each re-roll of die 2
    dice_given: bool
    stacks: tuple[tuple[int, ...], ...]  # 21 stacks as built, bottom to top
    spare: int
    indicator_stack: int
    indicator_position: int  # 1-based from the bottom of the 6-tile stack
    takes: tuple[Take, ...]

    def letter_of(self, stack: int) -> str:
        """The stack's take-order letter: "a" right after the indicator stack; "" for it."""
        offset = (stack - self.indicator_stack) % len(self.stacks)
        return "" if offset == 0 else chr(ord("a") + offset - 1)


@dataclass(frozen=True, slots=True)
class Deal:
    """One dealt round: every one of the 106 tiles is in exactly one of
    `racks`, `wall` and `indicator` (the indicator is in the wall, as its last
    tile, only when ``rules.indicator_drawable_last``)."""

    seed: str
    rules: Ruleset
    method: DealMethod
    player_count: int
    dealer: int
    first_seat: int
    indicator: int  # tile code
    racks: tuple[tuple[int, ...], ...]  # per seat, codes in the order dealt
    wall: tuple[int, ...]  # codes in draw order: wall[0] is drawn next
    formal: FormalProcedure | None = None
    # A false joker was turned up as the indicator and put back (Okey 101 riziko).
    false_joker_turned_up: bool = False

    @property
    def game(self) -> Game:
        return self.rules.game

    @property
    def indicator_tile(self) -> Tile:
        return Tile.from_code(self.indicator)

    @property
    def okey(self) -> Tile:
        """The okey (wild) face, as a copy-0 tile."""
        return okey_for(self.indicator_tile)

    @property
    def okey_face(self) -> int:
        return self.okey.face


# Notation by code, built once: racks are formatted on every deal answer.
CODE_NOTATION: tuple[str, ...] = tuple(format_tile(Tile.from_code(c)) for c in range(2 * FACES))


def _reading_order(code: int) -> tuple[int, int]:
    return code % FACES, code


def sorted_codes(codes: Iterable[int]) -> list[int]:
    """Codes sorted for reading: by colour (R, Y, B, K), number, false jokers last."""
    return sorted(codes, key=_reading_order)


def codes_notation(codes: Iterable[int]) -> str:
    """Codes in notation, in the order given."""
    return " ".join(CODE_NOTATION[code] for code in codes)


def rack_notation(codes: Iterable[int]) -> str:
    """A rack in notation, sorted for reading (see `sorted_codes`)."""
    return codes_notation(sorted_codes(codes))
