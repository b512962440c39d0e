"""One pass over a hand's faces: everything the winning tests read, in compact ints."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from okey_rules.tiles import FALSE_JOKER_FACE, NUMBERS

# Per face 0..51: its colour, its number index and its weight in a base-3 colour key.
FACE_COLOUR = tuple(face // NUMBERS for face in range(52))
FACE_INDEX = tuple(face % NUMBERS for face in range(52))
FACE_WEIGHT = tuple(3 ** (face % NUMBERS) for face in range(52))


class Shape(NamedTuple):
    """What 14 (or 15) tiles play as.

    counts: per face 0..51, the naturals playing as it (a false joker as the
    okey's face); wilds: okey tiles; keys: per colour, base-3 counts of
    numbers; bits: per colour, the numbers held; meets: per number index,
    the colours holding it.
    """

    counts: list[int]
    wilds: int
    keys: list[int]
    bits: list[int]
    meets: list[int]


def shape_of(faces: Sequence[int], okey_face: int) -> Shape:
    counts = [0] * 52
    keys = [0, 0, 0, 0]
    bits = [0, 0, 0, 0]
    meets = [0] * NUMBERS
    wilds = 0
    for face in faces:
        if face == okey_face:
            wilds += 1
            continue
        if face == FALSE_JOKER_FACE:
            face = okey_face
        counts[face] += 1
        colour = FACE_COLOUR[face]
        index = FACE_INDEX[face]
        keys[colour] += FACE_WEIGHT[face]
        bits[colour] |= 1 << index
        meets[index] |= 1 << colour
    return Shape(counts, wilds, keys, bits, meets)


def without(shape: Shape, face: int) -> Shape:
    """The shape after one natural playing as `face` (0..51) leaves the hand."""
    counts = shape.counts.copy()
    counts[face] -= 1
    keys = shape.keys.copy()
    bits = shape.bits.copy()
    meets = shape.meets.copy()
    colour = FACE_COLOUR[face]
    index = FACE_INDEX[face]
    keys[colour] -= FACE_WEIGHT[face]
    if not counts[face]:
        bits[colour] &= ~(1 << index)
        meets[index] &= ~(1 << colour)
    return Shape(counts, shape.wilds, keys, bits, meets)


def without_wild(shape: Shape) -> Shape:
    return shape._replace(wilds=shape.wilds - 1)
