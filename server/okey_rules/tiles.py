"""Tiles, their notation and integer codes, and the okey of an indicator.

docs/rules.md §1-§2. Inside the algorithms a tile is an int:

* a *face* is ``colour * 13 + (number - 1)`` for a numbered tile (0..51, colour
  order R, Y, B, K) and ``52`` for a false joker;
* a *code* also tells the two physical copies apart: ``copy * 53 + face``
  (0..105). This is the packed form the wire uses for whole racks and walls.

>>> parse_tile("r7")
Tile(color=<Color.RED: 0>, number=7, copy=0)
>>> format_tile(parse_tile("k12"))
'K12'
>>> format_tile(okey_for(parse_tile("B13")))
'B1'
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from okey_rules.errors import InvalidInputError, NotationError

NUMBERS = 13
FACES = 53  # 52 numbered faces and the false joker
FALSE_JOKER_FACE = 52
TILE_COUNT = 106
COPIES = 2


class Color(enum.IntEnum):
    """The four colours, in canonical order (the order of their letters R, Y, B, K)."""

    RED = 0
    YELLOW = 1
    BLUE = 2
    BLACK = 3

    @property
    def letter(self) -> str:
        return _LETTERS[self]


COLOURS = len(Color)  # four


_LETTERS = {Color.RED: "R", Color.YELLOW: "Y", Color.BLUE: "B", Color.BLACK: "K"}
_BY_LETTER = {letter: color for color, letter in _LETTERS.items()}
_TILE_RE = re.compile(r"([RYBK])(\d{1,2})|(F)")


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile: a numbered tile (colour, number 1-13) or a false joker.

    A false joker has ``color is None`` and ``number == 0``. ``copy`` (0 or 1)
    tells the two physical copies apart; it is ignored where only the face
    matters, and it never appears in notation.
    """

    color: Color | None
    number: int
    copy: int = 0
    # The face (0..52), computed once: the hot paths read it for every tile.
    face: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.copy not in (0, 1):
            raise InvalidInputError("copy", f"copy index must be 0 or 1, not {self.copy}")
        if self.color is None:
            if self.number != 0:
                raise InvalidInputError("number", "a false joker has no number")
            face = FALSE_JOKER_FACE
        elif not 1 <= self.number <= NUMBERS:
            raise InvalidInputError("number", f"number must be 1-13, not {self.number}")
        else:
            face = int(self.color) * NUMBERS + self.number - 1
        object.__setattr__(self, "face", face)

    @classmethod
    def false_joker(cls, copy: int = 0) -> Tile:
        return cls(None, 0, copy)

    @classmethod
    def from_face(cls, face: int, copy: int = 0) -> Tile:
        if face == FALSE_JOKER_FACE:
            return cls(None, 0, copy)
        if not 0 <= face < FALSE_JOKER_FACE:
            raise InvalidInputError("face", f"tile face must be 0-52, not {face}")
        return cls(Color(face // NUMBERS), face % NUMBERS + 1, copy)

    @classmethod
    def from_code(cls, code: int) -> Tile:
        if not 0 <= code < TILE_COUNT:
            raise InvalidInputError("code", f"tile code must be 0-105, not {code}")
        return cls.from_face(code % FACES, code // FACES)

    @property
    def is_false_joker(self) -> bool:
        return self.color is None

    @property
    def code(self) -> int:
        return self.copy * FACES + self.face

    def __lt__(self, other: Tile) -> bool:
        # Canonical tile order: R, Y, B, K by number, false jokers last; copy breaks ties.
        return (self.face, self.copy) < (other.face, other.copy)

    def same_face(self, other: Tile) -> bool:
        return self.face == other.face

    def __str__(self) -> str:
        return format_tile(self)

    def __repr__(self) -> str:
        color = "None" if self.color is None else f"<Color.{self.color.name}: {int(self.color)}>"
        return f"Tile(color={color}, number={self.number}, copy={self.copy})"


def parse_tile(text: str) -> Tile:
    """Parses one tile in notation (``R7``, ``y13``, ``F``); copy index 0.

    Raises `NotationError` for anything else: no lenient guessing.
    """
    tile = _BY_NOTATION.get(text.strip().upper())
    if tile is None:
        match = _TILE_RE.fullmatch(text.strip().upper())
        if match is not None and match.group(2):
            raise NotationError("tile", f"{text!r}: number must be 1-13")
        raise NotationError("tile", f"cannot read {text!r} as a tile (R7, Y13, B1, K12 or F)")
    return tile


def format_tile(tile: Tile) -> str:
    """Canonical notation of a tile: upper-case letter and number, or ``F``."""
    return _NOTATION[tile.face]


def parse_tiles(text: str) -> list[Tile]:
    """Parses tiles separated by spaces and/or commas.

    Copies are numbered in order of appearance (the second ``R7`` gets copy 1),
    so the result is a valid set of physical tiles when the text is.

    >>> [format_tile(t) for t in parse_tiles("r1, R2  b13 f")]
    ['R1', 'R2', 'B13', 'F']
    """
    # Runs of whitespace and commas separate words: commas made spaces, then
    # str.split() (the same whitespace as the regex's \s).
    words = text.upper().replace(",", " ").split()
    tiles = list(map(_BY_NOTATION.get, words))
    if not all(tiles):  # not `None in tiles`: that calls Tile.__eq__ per tile
        index = tiles.index(None)
        try:
            parse_tile(words[index])
        except NotationError as exc:
            raise NotationError(f"[{index}]", exc.description) from None
        raise AssertionError("unreachable: parse_tile accepted what the table lacks")
    if len(set(words)) < len(words):
        # A word stands for one face, so repeated faces are repeated words.
        seen: set[str] = set()
        for index, word in enumerate(words):
            if word in seen:
                tiles[index] = _SECOND_COPY[word]  # a repeated face is the second copy
            else:
                seen.add(word)
    return tiles  # type: ignore[return-value]


def format_tiles(tiles: Iterable[Tile]) -> str:
    return " ".join(format_tile(t) for t in tiles)


def okey_for(indicator: Tile) -> Tile:
    """The okey (wild) shown by an indicator: same colour, number + 1, 13 -> 1."""
    if indicator.color is None:
        raise InvalidInputError("indicator", "a false joker cannot be the indicator")
    return Tile(indicator.color, indicator.number % NUMBERS + 1)


def indicator_for(okey: Tile) -> Tile:
    """The indicator that makes `okey` the okey (inverse of `okey_for`)."""
    if okey.color is None:
        raise InvalidInputError("okey", "a false joker cannot be the okey")
    return Tile(okey.color, (okey.number - 2) % NUMBERS + 1)


# Counts per face in five-bit fields: with at most 15 tiles no field can
# overflow, and adding 13 to every field sets a field's top bit exactly when
# it holds 3 or more.
_COUNT_ONE = tuple(1 << (5 * face) for face in range(FACES))
_PLUS_13 = sum(13 * one for one in _COUNT_ONE)
_TOP_BITS = sum(16 * one for one in _COUNT_ONE)
_PACKED_UP_TO = 15


def check_tile_multiset(tiles: Sequence[Tile], field: str = "tiles") -> None:
    """Raises when the tiles cannot all exist in one 106-tile set.

    At most two copies of each numbered face and at most two false jokers.
    """
    if len(tiles) <= _PACKED_UP_TO:
        # The usual answer (all is well) in a few integer operations.
        counts_packed = 0
        for tile in tiles:
            counts_packed += _COUNT_ONE[tile.face]
        if not (counts_packed + _PLUS_13) & _TOP_BITS:
            return
    counts = [0] * FACES
    for index, tile in enumerate(tiles):
        counts[tile.face] += 1
        if counts[tile.face] > COPIES:
            what = "false jokers" if tile.is_false_joker else f"copies of {format_tile(tile)}"
            raise InvalidInputError(
                f"{field}[{index}]", f"more than two {what}: the set has only two"
            )


def full_set() -> list[Tile]:
    """All 106 tiles in code order (copy 0 faces, then copy 1 faces)."""
    return list(_BY_CODE)


# Tiles are immutable, so one shared instance per code serves every parse.
_BY_CODE = tuple(Tile.from_code(code) for code in range(TILE_COUNT))
# The shared tile of each code 0..105; codes 0..52 are the faces' first copies.
TILE_OF_CODE: tuple[Tile, ...] = _BY_CODE
_NOTATION = tuple(
    "F" if f == FALSE_JOKER_FACE else f"{'RYBK'[f // NUMBERS]}{f % NUMBERS + 1}"
    for f in range(FACES)
)
_BY_NOTATION = {_NOTATION[tile.face]: tile for tile in _BY_CODE[:FACES]}
_SECOND_COPY = {_NOTATION[tile.face]: tile for tile in _BY_CODE[FACES:]}
