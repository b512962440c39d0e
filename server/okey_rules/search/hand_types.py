"""The answers of hand checking: verdicts, arrangements, melds (docs/rules.md §4)."""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import NamedTuple

from okey_rules.tiles import Tile, format_tile


class WinKind(enum.Enum):
    MELDS = "melds"
    SEVEN_PAIRS = "seven pairs"
    KAFA = "kafa"


class MeldKind(enum.Enum):
    SET = "set"
    RUN = "run"
    PAIR = "pair"


class Placed(NamedTuple):
    """A tile in a meld and what it plays as (itself, the okey's face, or a wild's choice).

    Named tuples, not dataclasses, for the parts of an arrangement: a winning
    check builds twenty of them, and tuple construction is several times cheaper.
    """

    tile: Tile
    stands_for: Tile
    wild: bool = False

    def notation(self) -> str:
        if self.wild:
            return f"OK={format_tile(self.stands_for)}"
        if self.tile.is_false_joker:
            return f"F={format_tile(self.stands_for)}"
        return format_tile(self.tile)


class Meld(NamedTuple):
    kind: MeldKind
    tiles: tuple[Placed, ...]

    def notation(self) -> str:
        return " ".join(p.notation() for p in self.tiles)


class Arrangement(NamedTuple):
    """A winning split of 14 tiles, melds in canonical order."""

    melds: tuple[Meld, ...]

    def notation(self) -> str:
        """Melds separated by `` | ``; a wild as ``OK=R5``, a false joker as ``F=R5``."""
        return " | ".join(m.notation() for m in self.melds)


class HandVerdict(NamedTuple):
    """The verdict on 14 tiles. `kind` is the best-scoring way it wins."""

    winning: bool
    kind: WinKind | None
    kinds: tuple[WinKind, ...]
    arrangement: Arrangement | None
    summary: str


class WinningDiscard:
    """A discard that leaves a winning 14; the arrangement is built on first read."""

    __slots__ = ("_arrangement", "_build", "kind", "okey", "tile")

    def __init__(
        self, tile: Tile, okey: bool, kind: WinKind, arrangement: Callable[[], Arrangement]
    ) -> None:
        self.tile = tile
        self.okey = okey
        self.kind = kind
        self._build = arrangement
        self._arrangement: Arrangement | None = None

    @property
    def arrangement(self) -> Arrangement:
        if self._arrangement is None:
            self._arrangement = self._build()
        return self._arrangement

    def __repr__(self) -> str:
        return f"WinningDiscard({format_tile(self.tile)}, okey={self.okey}, kind={self.kind.value})"


class DiscardVerdict(NamedTuple):
    """The verdict on 15 tiles: every distinct discard that leaves a winning 14."""

    winning: bool
    discards: tuple[WinningDiscard, ...]
    okey_discard_wins: bool
    summary: str
