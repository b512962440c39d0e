"""What a bot answers, and the parts every bot policy shares.

A `Suggestion` is one of the seat's moves and one line a player understands.
A bot's only inputs are the seat's view and its legal moves; where a level
draws lots, the lots come from `lots_for(view)`, seeded by the whole view, so
one position always gives one move (and a hidden tile cannot change it: the
view does not hold one).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import NamedTuple

from okey_rules.play.round_types import Move, MoveKind
from okey_rules.play.view_types import PlayerView
from okey_rules.tiles import TILE_OF_CODE, Tile, format_tile, okey_for

LEVELS = (1, 2, 3)


class Suggestion(NamedTuple):
    move: Move
    reason: str  # one short line for the player


def lots_for(view: PlayerView) -> random.Random:
    """A generator seeded by everything the view holds (the repr of frozen dataclasses,
    enums and tuples is the same in every process, unlike `hash`)."""
    digest = hashlib.sha256(repr(view).encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def okey_of(view: PlayerView) -> Tile:
    return okey_for(TILE_OF_CODE[view.indicator])


def name(code: int) -> str:
    return format_tile(TILE_OF_CODE[code])


def of_kind(legal: Sequence[Move], kind: MoveKind) -> list[Move]:
    return [move for move in legal if move.kind is kind]


def first_of(legal: Sequence[Move], kind: MoveKind) -> Move | None:
    return next((move for move in legal if move.kind is kind), None)


def previous_top(view: PlayerView) -> int | None:
    """The top of the previous seat's pile: the discard the seat may take."""
    pile = view.seats[(view.seat - 1) % view.player_count].discards
    return pile[-1] if pile else None


def random_move(legal: Sequence[Move], lots: random.Random) -> Suggestion:
    move = lots.choice(list(legal))
    shown = f" {name(move.tile)}" if move.tile is not None else ""
    return Suggestion(move, f"{move.kind.value}{shown}: a move drawn at random (level 1)")
