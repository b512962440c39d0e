"""Hand checking for classic Okey (docs/rules.md §4): is a hand winning, how, and arranged how.

The rules are stated once, readably, in `okey_rules.rulebook`; this module
and the search behind it (`melds`, `meld_table`, `packed`, `pairs`) are their
fast forms on packed counts, held to the rulebook by tests.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from okey_rules.errors import InvalidInputError
from okey_rules.rulebook import BEST_KIND_ORDER, HAND_SIZE
from okey_rules.ruleset import Ruleset
from okey_rules.search.arrange import arrange_kafa, arrange_melds, arrange_pairs
from okey_rules.search.hand_types import (
    Arrangement,
    DiscardVerdict,
    HandVerdict,
    WinKind,
    WinningDiscard,
)
from okey_rules.search.melds import (
    discard_faces,
    find_melds,
    may_split,
    splits_fully,
    wilds_can_serve,
)
from okey_rules.search.packed import FIELD, LOW, ONE, needy_faces, singles
from okey_rules.search.pairs import kafa_colour, seven_pairs_packed
from okey_rules.tiles import (
    FALSE_JOKER_FACE,
    TILE_OF_CODE,
    Tile,
    check_tile_multiset,
    format_tile,
    indicator_for,
)

# From this many candidate discards on, one search over all 15 tiles beats
# one search per discard (measured with bench/hand_bench.py).
_UNIFIED_FROM = 8
CLASSIC = Ruleset()


def _validate(
    tiles: Sequence[Tile], okey: Tile, sizes: tuple[int, ...], rules: Ruleset
) -> tuple[int, int]:
    """(packed naturals, wild count) of a well-formed hand; raises on a malformed one."""
    count = len(tiles)
    if count not in sizes:
        wanted = " or ".join(str(s) for s in sizes)
        raise InvalidInputError("tiles", f"a hand has {wanted} tiles, not {count}")
    okey_face = okey.face
    if okey_face == FALSE_JOKER_FACE:
        raise InvalidInputError("okey", "a false joker cannot be the okey")
    # The numbered tiles as they are, counted per face (no field for false jokers).
    # (A plain loop: about 40% cheaper here than sum() over a comprehension.)
    physical = 0
    for tile in tiles:
        physical += _ONE_OR_NOTHING[tile.face]
    # Two copies per face at most. A field holding 3 has bits 0 and 1 set.
    # Counting bits 0 and 1 of every field counts the numbered tiles when no
    # field holds more than 3; the rest are false jokers, two at most. A field
    # holding 4 to 7 hides at least four tiles from that count, and one that
    # overflowed (8 copies or more) at least seven: too many "false jokers".
    numbered = (physical & LOW).bit_count() + 2 * (physical >> 1 & LOW).bit_count()
    jokers = count - numbered
    # One test for both refusals: a face held three times or more (bits 0
    # and 1 of its field), or the indicator's face held twice (bit 1).
    if jokers > 2 or physical & (physical >> 1 & LOW | _INDICATOR_TWICE[okey_face]):
        check_tile_multiset(tiles)  # names the offending tile, if a face repeats
        if jokers > 2 or physical & (physical >> 1) & LOW:
            raise AssertionError("unreachable: the packed hand said a face repeats")
        if not rules.indicator_drawable_last:
            _refuse_both_indicators(okey)
    return _played(physical, jokers, okey_face)


# Per okey face: bit 1 of the packed field of the indicator's face, set in a
# hand that holds two of it. One copy of that face lies face up on the table
# (docs/rules.md §2.4), so no hand can hold both, unless the indicator may be
# drawn as the last wall tile.
_INDICATOR_TWICE = tuple(
    2 << FIELD * indicator_for(TILE_OF_CODE[face]).face for face in range(FALSE_JOKER_FACE)
)


def _refuse_both_indicators(okey: Tile) -> None:
    shown = format_tile(indicator_for(okey))
    raise InvalidInputError(
        "tiles",
        f"the hand holds both {shown} tiles, but one {shown} is the face-up indicator"
        f" (okey {format_tile(okey)})",
    )


# ONE per face, and nothing for the false joker: `_played` adds those apart.
_ONE_OR_NOTHING = (*ONE, 0)


def _played(physical: int, jokers: int, okey_face: int) -> tuple[int, int]:
    """(packed naturals, wild count) from the numbered tiles and the false jokers (§2.2, §2.3).

    Okey tiles are wild, so they leave the naturals; a false joker plays as
    the okey's face, so it joins them there.
    """
    wilds = physical >> (FIELD * okey_face) & 7
    return physical + (jokers - wilds) * ONE[okey_face], wilds


def packed_hand(faces: list[int], okey_face: int) -> tuple[int, int]:
    """(packed naturals, wild count) of a valid hand given by physical faces (52: false joker)."""
    physical = sum(map(_ONE_OR_NOTHING.__getitem__, faces))
    return _played(physical, faces.count(FALSE_JOKER_FACE), okey_face)


def _verdict(
    okey_face: int, naturals: int, wilds: int, rules: Ruleset, splits: bool = False
) -> HandVerdict:
    """Every way a 14-tile hand wins, the best-scoring one, and its arrangement.

    `splits`: the caller knows the hand splits into melds (no need to test first).
    """
    runs_13_to_1 = rules.runs_13_to_1
    if splits or may_split(naturals, wilds, runs_13_to_1):
        split = find_melds(naturals, wilds, runs_13_to_1)
    else:
        split = None
    pairs = seven_pairs_packed(naturals, wilds, rules.wild_pairs)
    kafa = kafa_colour(naturals) if rules.kafa else None
    if kafa is None and not pairs:
        if split is None:
            return _NOT_WINNING
        # The usual win, and the fast path: melds only.
        arrangement = arrange_melds(okey_face, split)
        return tuple.__new__(HandVerdict, (True, _MELDS, _MELDS_ONLY, arrangement, _MELDS_SUMMARY))
    # Kinds best first (docs/rules.md §4.4); the answer lists them in enum order.
    holds = {_KAFA: kafa is not None, _PAIRS: pairs, _MELDS: split is not None}
    kinds = [kind for kind in BEST_KIND_ORDER if holds[kind]]
    kind = kinds[0]
    if kafa is not None:
        arrangement = arrange_kafa(okey_face, naturals, kafa)
    else:
        arrangement = arrange_pairs(okey_face, naturals, wilds)
    # tuple.__new__ skips the named tuple's Python-level constructor.
    return tuple.__new__(
        HandVerdict, (True, kind, tuple(kinds[::-1]), arrangement, _SUMMARY[kind])
    )


_KAFA, _PAIRS, _MELDS = WinKind.KAFA, WinKind.SEVEN_PAIRS, WinKind.MELDS
_BEST_FIRST = {kind: rank for rank, kind in enumerate(BEST_KIND_ORDER)}
_MELDS_ONLY = (_MELDS,)
_NOT_WINNING = HandVerdict(False, None, (), None, "not winning")
_SUMMARY = {kind: f"winning: {kind.value}" for kind in WinKind}
_MELDS_SUMMARY = _SUMMARY[_MELDS]


def check_hand(tiles: Sequence[Tile], okey: Tile, rules: Ruleset = CLASSIC) -> HandVerdict:
    """Is this 14-tile hand winning under `rules`, with `okey` wild? How, arranged how?"""
    naturals, wilds = _validate(tiles, okey, (HAND_SIZE,), rules)
    return _verdict(okey.face, naturals, wilds, rules)


def winning_discards(tiles: Sequence[Tile], okey: Tile, rules: Ruleset = CLASSIC) -> DiscardVerdict:
    """Which discards from these 15 tiles leave a winning 14 (one entry per distinct tile)?

    Entries come in tile order (R, Y, B, K by number, false joker last). Each
    entry's arrangement is built when first read: the list of discards is the
    answer, and a caller that wants one arrangement need not pay for fifteen.
    """
    full, wilds = _validate(tiles, okey, (HAND_SIZE + 1,), rules)
    okey_face = okey.face
    distinct = sorted({t.face for t in tiles})  # physical faces, 52 = false joker
    melds_win = _melds_discards(full, wilds, okey_face, distinct, rules.runs_13_to_1)
    # Seven pairs after a discard needs at most one single more than wilds:
    # a discard removes one single at most.
    pairs_possible = singles(full) <= wilds + 1
    other_kinds = pairs_possible or rules.kafa
    found: list[WinningDiscard] = []
    for face in distinct:
        if not other_kinds and face not in melds_win:
            continue
        # What the discard leaves: (packed naturals, wilds).
        if face == okey_face:
            naturals, left = full, wilds - 1
        else:
            naturals, left = full - ONE[okey_face if face == FALSE_JOKER_FACE else face], wilds
        kinds = []
        if rules.kafa and kafa_colour(naturals) is not None:
            kinds.append(WinKind.KAFA)
        if pairs_possible and seven_pairs_packed(naturals, left, rules.wild_pairs):
            kinds.append(WinKind.SEVEN_PAIRS)
        if face in melds_win:
            kinds.append(WinKind.MELDS)
        if kinds:
            best = kinds[0] if len(kinds) == 1 else min(kinds, key=_BEST_FIRST.__getitem__)
            # The discard as a canonical tile (copy 0): copies do not matter here.
            found.append(
                WinningDiscard(
                    TILE_OF_CODE[face],
                    face == okey_face,
                    best,
                    _lazy(okey_face, naturals, left, rules, face in melds_win),
                )
            )
    okey_wins = any(d.okey for d in found)
    if found:
        names = ", ".join(format_tile(d.tile) + (" (okey)" if d.okey else "") for d in found)
        summary = f"winning: discard {names}"
    else:
        summary = "not winning: no discard leaves a winning 14"
    return DiscardVerdict(bool(found), tuple(found), okey_wins, summary)


def _melds_discards(
    full: int, wilds: int, okey_face: int, distinct: list[int], runs_13_to_1: bool
) -> set[int]:
    """The physical faces whose discard leaves 14 tiles that split into sets and runs."""
    if wilds and splits_fully(full, wilds - 1, runs_13_to_1):
        # Discarding an okey wins, so every discard does: the spare okey
        # takes the discarded tile's place in its meld.
        return set(distinct)

    def physical(played: int) -> int:
        return FALSE_JOKER_FACE if played == okey_face else played

    # Tiles lonely or needy among all 15 stay so after any other discard
    # (see `may_split`), which rules out most discards without a search.
    needy = needy_faces(full, runs_13_to_1)
    held = full | full >> 1  # all 15: a superset of what any 14 hold, as the test allows
    if wilds_can_serve(needy, wilds, runs_13_to_1, held, full):
        # The test is monotone, so it passes after every discard too.
        tries = [
            okey_face if face == FALSE_JOKER_FACE else face
            for face in distinct
            if face != okey_face
        ]
    else:
        # Only discarding a needy face held once changes the flagged tiles.
        tries = []
        once = needy & full
        while once:
            low = once & -once
            once ^= low
            if wilds_can_serve(needy & ~low, wilds, runs_13_to_1, held, full):
                tries.append((low.bit_length() - 1) // 3)
    if len(tries) > _UNIFIED_FROM:
        # Many discards to try: one search over all 15 answers them together.
        mask = discard_faces(full, wilds, runs_13_to_1)
        return {physical(played) for played in tries if mask >> played & 1}
    return {
        physical(played)
        for played in tries
        if splits_fully(full - ONE[played], wilds, runs_13_to_1)
    }


def _lazy(
    okey_face: int, naturals: int, wilds: int, rules: Ruleset, splits: bool
) -> Callable[[], Arrangement]:
    def build() -> Arrangement:
        verdict = _verdict(okey_face, naturals, wilds, rules, splits)
        assert verdict.arrangement is not None
        return verdict.arrangement

    return build
