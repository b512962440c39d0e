"""Turns a winning split (faces and wild slots) into melds of the player's own tiles."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from operator import attrgetter, itemgetter

from okey_rules.bounded_cache import BoundedCache
from okey_rules.search.hand_types import Arrangement, Meld, MeldKind, Placed
from okey_rules.search.meld_table import Template, joined
from okey_rules.search.packed import LOW, ONE
from okey_rules.tiles import FACES, FALSE_JOKER_FACE, NUMBERS, TILE_OF_CODE, Tile

# Canonical tiles per face (copy 0), so arrangements do not re-validate new Tiles.
_FACE_TILE = TILE_OF_CODE[:FACES]  # a face's first copy
_CODE_TILE = TILE_OF_CODE


def _new_placed(tile: Tile, stands_for: Tile, wild: bool) -> Placed:
    # tuple.__new__ skips the named tuple's Python-level constructor.
    return tuple.__new__(Placed, (tile, stands_for, wild))


# Every Placed an arrangement can hold is built once, here: a plain tile as
# itself (per okey, since a false joker plays as the okey's face), and an
# okey tile standing for any face. Tiles are values, so sharing them is safe.
_WILD_PLACED = tuple(
    tuple(_new_placed(_CODE_TILE[code], _FACE_TILE[face], True) for face in range(52))
    for code in range(len(_CODE_TILE))
)


@cache
def _natural_placed(okey_face: int) -> tuple[Placed, ...]:
    return tuple(
        _new_placed(tile, _FACE_TILE[okey_face] if tile.color is None else tile, False)
        for tile in _CODE_TILE
    )


def _take(
    okey_face: int, slots: Sequence[tuple[int, bool]], used: int, taken: int
) -> tuple[Placed, ...]:
    """The tiles for a meld's slots: a wild where the slot says so, else the face's tile.

    Hand checking ignores the copy index (the proto says so), so the tiles of
    an arrangement are canonical: a face's first use is copy 0, its second
    copy 1; a natural playing as the okey's face is a false joker, and a wild
    is an okey tile, the first placed copy 0. This makes the answer
    independent of the input order. `used` counts the wilds placed before,
    and `taken` flags (bit 0 of each packed field) the faces whose first copy
    is placed already.
    """
    placed = _natural_placed(okey_face)
    out = []
    for face, is_wild in slots:
        if is_wild:
            out.append(_WILD_PLACED[okey_face + FACES * used][face])
            used += 1
        else:
            code = FALSE_JOKER_FACE if face == okey_face else face
            bit = ONE[face]
            if taken & bit:
                code += FACES
            else:
                taken |= bit
            out.append(placed[code])
    return tuple(out)


def _order(meld: Meld) -> tuple[int, ...]:
    return tuple([p[1].face for p in meld[1]])


def _finish(melds: list[Meld]) -> Arrangement:
    """Melds in canonical order: by the faces they stand for, first tile first."""
    return tuple.__new__(Arrangement, (tuple(sorted(melds, key=_order)),))


def _joined_runs(runs: list[Template]) -> list[Template]:
    """Joins run pieces that continue each other back into one run.

    The search works with runs of 3-5 tiles; a player shows R1..R9 as one run.
    Pieces join when one starts right after the other ends in the same
    colour, unless the result would hold a 1 both low and high.
    """
    result: list[Template] = []
    current: Template | None = None
    for run in sorted(runs, key=_ORDER):
        if (
            current is not None
            and run.colour_bit == current.colour_bit
            and current.end + 1 == run.start
            and not (current.start == 1 and run.end == 14)
        ):
            pair = (current.ident, run.ident)
            current = _JOINED.entries.get(pair)
            if current is None:
                current = _JOINED.put(pair, joined(result[-1], run))
            result[-1] = current
        else:
            current = run
            result.append(run)
    return result


# Joined runs, built once per pair of pieces (a join of a join is keyed by
# the joined template): they then have idents of their own for `_built`.
# Idents are never reused, so clearing this leaves `_built` correct.
MELD_LIMIT = 1 << 18
_JOINED: BoundedCache[tuple[int, int], Template] = BoundedCache(MELD_LIMIT)
_ORDER = attrgetter("order")


# Built melds keyed by (template, okey face, wilds already used, which of its
# faces an earlier meld already took): a meld's tiles depend on nothing else.
# The okey face and wilds are left out of the key when the meld has no wild
# and no false joker, and a meld taking no face a second time besides is
# keyed by its template alone.
_built: BoundedCache[int, Meld] = BoundedCache(MELD_LIMIT)
_ANY_OKEY = 63 << 2  # in the okey-face bits of a key: no face is 63


def arrange_melds(okey_face: int, melds: Sequence[Template]) -> Arrangement:
    """The arrangement of a split: melds in canonical order, copies canonical (see `_take`)."""
    # Sets take tiles first, in the search's order, then runs: in the
    # search's order too when each colour has one, else joined where they
    # continue each other, in colour and number order. A face's first use
    # is copy 0, an okey's too; each meld is built (or found built) on its own.
    sets = []
    runs = []
    runs_bits = 0
    colours = 0
    for template in melds:
        bit = template.colour_bit
        if bit:
            runs.append(template)
            runs_bits += bit
            colours |= bit
        else:
            sets.append(template)
    if runs_bits != colours:
        runs = _joined_runs(runs)
    built = _built.entries
    keyed = []
    used = 0
    taken = 0
    okey_one = ONE[okey_face]
    for template in sets + runs:
        natural = template.natural
        clash = natural & taken
        if template.wilds or natural & okey_one:
            key = (clash << 40) | template.ident << 8 | okey_face << 2 | used
        elif clash:
            # No okey and no false joker in it: the same meld whatever the okey.
            key = (clash << 40) | template.ident << 8 | _ANY_OKEY
        else:
            # Most melds besides take no face a second time: the template
            # alone decides them (a negative key, apart from all others).
            key = ~template.ident
        meld = built.get(key)
        if meld is None:
            meld = _built.put(key, _build(template, okey_face, used, clash))
        keyed.append((template.rank, meld))
        used += template.wilds
        taken |= natural
    keyed.sort(key=_first)
    return tuple.__new__(Arrangement, (tuple(map(_second, keyed)),))


def _build(template: Template, okey_face: int, used: int, clash: int) -> Meld:
    """A meld's tiles after `used` wilds, the faces flagged in `clash` taken once already."""
    kind = MeldKind.RUN if template.colour_bit else MeldKind.SET
    return tuple.__new__(Meld, (kind, _take(okey_face, template.slots, used, clash)))


_first = itemgetter(0)
_second = itemgetter(1)


# Built pairs, keyed (okey face, face, how the pair is made, wilds used before):
# as with `_built`, a pair's tiles depend on nothing else.
_PAIR_TWO_NATURALS, _PAIR_WITH_WILD, _PAIR_OF_WILDS = 0, 1, 2
_built_pairs: BoundedCache[tuple[int, int, int, int], Meld] = BoundedCache(MELD_LIMIT)


def _pair(okey_face: int, face: int, made: int, used: int) -> Meld:
    key = (okey_face, face, made, used)
    meld = _built_pairs.entries.get(key)
    if meld is None:
        slots = ((face, made == _PAIR_OF_WILDS), (face, made != _PAIR_TWO_NATURALS))
        tiles = _take(okey_face, slots, used, 0)
        meld = _built_pairs.put(key, tuple.__new__(Meld, (MeldKind.PAIR, tiles)))
    return meld


def arrange_pairs(okey_face: int, naturals: int, wilds: int) -> Arrangement:
    """Seven pairs: each face held twice, each single with a wild, and two wilds together.

    Each face sits in one pair only, so every natural is its face's copy 0
    (and copy 1 in a pair of two); wilds are numbered in face order. The
    pairs come in face order, which is the canonical order (see `_finish`):
    no two pairs show the same face.
    """
    doubles = naturals >> 1 & LOW
    held = (naturals | doubles) & LOW
    melds = []
    used = 0
    rest = held
    while rest:
        low = rest & -rest
        rest ^= low
        face = (low.bit_length() - 1) // 3
        if doubles & low:
            melds.append(_pair(okey_face, face, _PAIR_TWO_NATURALS, 0))
        else:
            melds.append(_pair(okey_face, face, _PAIR_WITH_WILD, used))
            used += 1
    if wilds > used:
        # Two wilds paired together stand for a face no other pair shows: the
        # okey's own face when free, otherwise the lowest free face.
        free_faces = LOW & ~held
        free_bit = ONE[okey_face] if free_faces & ONE[okey_face] else free_faces & -free_faces
        free = (free_bit.bit_length() - 1) // 3
        place = (held & (free_bit - 1)).bit_count()  # pairs of lower faces come first
        melds.insert(place, _pair(okey_face, free, _PAIR_OF_WILDS, used))
    return tuple.__new__(Arrangement, (tuple(melds),))


def arrange_kafa(okey_face: int, naturals: int, colour: int) -> Arrangement:
    """Kafa shown as the runs it is made of: 1-2-3 and 4..13-1."""
    first = colour * NUMBERS
    left = {face: (naturals >> (3 * face)) & 7 for face in range(first, first + NUMBERS)}
    melds = []
    used = 0
    taken = 0
    for numbers in ((1, 2, 3), (*range(4, 14), 1)):
        slots = []
        for number in numbers:
            face = colour * NUMBERS + number - 1
            slots.append((face, not left[face]))
            if left[face]:
                left[face] -= 1
        melds.append(Meld(MeldKind.RUN, _take(okey_face, slots, used, taken)))
        used += sum(wild for _, wild in slots)
        taken |= sum(ONE[face] for face, wild in slots if not wild)
    return _finish(melds)
