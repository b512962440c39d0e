"""Sets and runs: can a hand's naturals and wilds split wholly into melds (RULES.md §3)?

Search on the lowest tile: the lowest natural face still held must sit in
some meld, and in that meld it is the lowest natural, so only the melds filed
under it in the precomputed table are tried. Hand and melds are packed ints
(`okey_rules.packed`), so one try is a subtraction and a mask.
"""

from __future__ import annotations

from okey_rules.meld_table import Template, candidate_cache, candidates, neighbourhood
from okey_rules.packed import COLOUR_MASK, LOW, ONE, colours_in, lonely


def may_split(x: int, wilds: int, wrap: bool) -> bool:
    """Cheap necessary test on tiles with no possible meld partner ("lonely").

    A lonely tile's meld holds at least two wilds, and there are only two, so
    every lonely tile must sit in that one meld: none may exist with fewer
    than two wilds, and they must all share a colour (a set holding two wilds
    has room for one natural only).
    """
    alone = lonely(x, wrap)
    if not alone:
        return True
    return wilds >= 2 and colours_in(alone) == 1


# Transposition tables, per `wrap`, keyed ``x << 2 | wilds``: for a packed
# remainder, the meld its lowest tile goes into on the way to a full split
# (None: no split), and which single discards make it split. Remainders
# recur across hands, so these are shared; they are bounded by clearing.
_CACHE_LIMIT = 1 << 20
_choices: tuple[dict[int, Template | None], dict[int, Template | None]] = ({}, {})
_skips: tuple[dict[int, int], dict[int, int]] = ({}, {})
_UNKNOWN = object()
_NEAR = (neighbourhood(False), neighbourhood(True))


def _choose(x: int, wilds: int, wrap: bool) -> Template | None:
    """The first meld (table order) for the lowest tile of a non-empty `x` that leads to a split."""
    cache = _choices[wrap]
    key = x << 2 | wilds
    known = cache.get(key, _UNKNOWN)
    if known is not _UNKNOWN:
        return known  # type: ignore[return-value]
    face = ((x & -x).bit_length() - 1) // 3
    result = None
    # Only melds that fit; and a wild never needs to stand for a tile still
    # held: were that tile in another meld, the two melds could swap it.
    # (`candidates`, with its cache looked up inline: this is the hot loop.)
    held = (x | x >> 1) & LOW
    found = candidate_cache[wrap].get((held & _NEAR[wrap][face]) << 8 | face << 2 | wilds)
    useful = (found or candidates(wrap, wilds, face, held))[0]
    for template in useful:
        rest = x - template.natural
        left = wilds - template.wilds
        if not rest:
            if left == 0:
                result = template
                break
            continue
        # The child's cached answer is read here, not through a call: most
        # children are remainders seen before.
        child = cache.get(rest << 2 | left, _UNKNOWN)
        if child is _UNKNOWN:
            child = _choose(rest, left, wrap)
        if child is not None:
            result = template
            break
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = result
    return result


def splits_fully(x: int, wilds: int, wrap: bool) -> bool:
    """True when the naturals (packed) and `wilds` wilds split wholly into melds."""
    if not x:
        return wilds == 0
    return _choose(x, wilds, wrap) is not None


def find_melds(x: int, wilds: int, wrap: bool) -> list[Template] | None:
    """The melds of a winning split (the first in table order), or None."""
    if not splits_fully(x, wilds, wrap):
        return None
    melds = []
    while x:
        template = _choose(x, wilds, wrap)
        assert template is not None  # the remainder of a split splits
        melds.append(template)
        x -= template.natural
        wilds -= template.wilds
    return melds


def one_colour(x: int) -> int | None:
    """The only colour holding naturals, or None when there are several (or none)."""
    held = [c for c, mask in enumerate(COLOUR_MASK) if x & mask]
    return held[0] if len(held) == 1 else None


def discard_faces(x: int, wilds: int, wrap: bool) -> int:
    """Bitmask of the natural faces f whose discard leaves a meld split of the rest.

    One search over the whole 15 instead of one per discard: at each state the
    lowest tile either is the discard (then the rest must split) or sits in a
    meld filed under it.
    """
    if not x:
        return 0
    cache = _skips[wrap]
    key = x << 2 | wilds
    known = cache.get(key)
    if known is not None:
        return known
    face = ((x & -x).bit_length() - 1) // 3
    result = 1 << face if splits_fully(x - ONE[face], wilds, wrap) else 0
    held = (x | x >> 1) & LOW
    useful, wild_for_held = candidates(wrap, wilds, face, held)
    for template in useful:
        result |= discard_faces(x - template.natural, wilds - template.wilds, wrap)
    for template in wild_for_held:
        # As in `_choose`, a wild standing for a held tile is needed only when
        # that very tile is the discard; otherwise the two could swap.
        # So only that discard needs checking, without a search for others.
        wild_held = template.wild_at & held
        if not wild_held & (wild_held - 1):
            only = (wild_held.bit_length() - 1) // 3
            if not result >> only & 1 and splits_fully(
                x - template.natural - ONE[only], wilds - template.wilds, wrap
            ):
                result |= 1 << only
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = result
    return result
