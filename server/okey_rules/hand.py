"""Hand checking for classic Okey (RULES.md §3): is a hand winning, how, and arranged how."""

from __future__ import annotations

from collections.abc import Sequence

from okey_rules.arrange import arrange_kafa, arrange_melds, arrange_pairs
from okey_rules.errors import InvalidInputError
from okey_rules.hand_types import (
    Arrangement,
    DiscardVerdict,
    HandVerdict,
    WinKind,
    WinningDiscard,
)
from okey_rules.melds import MeldSplit, find_split, may_split
from okey_rules.pairs import is_seven_pairs, kafa_colour
from okey_rules.ruleset import Ruleset
from okey_rules.shape import Shape, shape_of, without, without_wild
from okey_rules.tiles import FALSE_JOKER_FACE, Tile, check_tile_multiset, format_tile

HAND_SIZE = 14
CLASSIC = Ruleset()
_ENUM_ORDER = (WinKind.MELDS, WinKind.SEVEN_PAIRS, WinKind.KAFA)


def _validate(tiles: Sequence[Tile], okey: Tile, sizes: tuple[int, ...]) -> None:
    if len(tiles) not in sizes:
        wanted = " or ".join(str(s) for s in sizes)
        raise InvalidInputError("tiles", f"a hand has {wanted} tiles, not {len(tiles)}")
    if okey.is_false_joker:
        raise InvalidInputError("okey", "a false joker cannot be the okey")
    check_tile_multiset(tiles)


class _Analysis:
    """Every way a 14-tile shape wins, best-scoring first, and the meld split if any."""

    __slots__ = ("kafa", "kinds", "split")

    def __init__(self, shape: Shape, rules: Ruleset) -> None:
        kinds: list[WinKind] = []
        self.kafa: int | None = None
        if rules.kafa:
            self.kafa = kafa_colour(shape.keys, shape.counts)
            if self.kafa is not None:
                kinds.append(WinKind.KAFA)
        if is_seven_pairs(shape.counts, shape.wilds, rules.wild_pairs):
            kinds.append(WinKind.SEVEN_PAIRS)
        wrap = rules.runs_13_to_1
        self.split: MeldSplit | None = None
        if may_split(shape, wrap):
            self.split = find_split(shape, wrap)
            if self.split is not None:
                kinds.append(WinKind.MELDS)
        self.kinds = kinds


def _verdict(tiles: Sequence[Tile], okey_face: int, shape: Shape, rules: Ruleset) -> HandVerdict:
    found = _Analysis(shape, rules)
    if not found.kinds:
        return HandVerdict(False, None, (), None, "not winning")
    kind = found.kinds[0]
    arrangement = _arrangement(kind, found, tiles, okey_face, shape)
    ordered = tuple(k for k in _ENUM_ORDER if k in found.kinds)
    return HandVerdict(True, kind, ordered, arrangement, f"winning: {kind.value}")


def _arrangement(
    kind: WinKind, found: _Analysis, tiles: Sequence[Tile], okey_face: int, shape: Shape
) -> Arrangement:
    if kind is WinKind.KAFA and found.kafa is not None:
        return arrange_kafa(tiles, okey_face, found.kafa)
    if kind is WinKind.SEVEN_PAIRS:
        return arrange_pairs(tiles, okey_face, shape.counts, shape.wilds)
    assert found.split is not None
    return arrange_melds(tiles, okey_face, found.split)


def check_hand(tiles: Sequence[Tile], okey: Tile, rules: Ruleset = CLASSIC) -> HandVerdict:
    """Is this 14-tile hand winning under `rules`, with `okey` wild? How, arranged how?"""
    _validate(tiles, okey, (HAND_SIZE,))
    okey_face = okey.face
    return _verdict(tiles, okey_face, shape_of([t.face for t in tiles], okey_face), rules)


def winning_discards(
    tiles: Sequence[Tile], okey: Tile, rules: Ruleset = CLASSIC
) -> DiscardVerdict:
    """Which discards from these 15 tiles leave a winning 14 (one entry per distinct tile)?

    Entries come in tile order (R, Y, B, K by number, false joker last).
    """
    _validate(tiles, okey, (HAND_SIZE + 1,))
    okey_face = okey.face
    faces = [t.face for t in tiles]
    full = shape_of(faces, okey_face)
    found: list[WinningDiscard] = []
    for face in sorted(set(faces)):
        if face == okey_face:
            rest_shape = without_wild(full)
        else:
            rest_shape = without(full, okey_face if face == FALSE_JOKER_FACE else face)
        at = faces.index(face)
        rest = [*tiles[:at], *tiles[at + 1 :]]
        verdict = _verdict(rest, okey_face, rest_shape, rules)
        if verdict.kind is None or verdict.arrangement is None:
            continue
        found.append(WinningDiscard(tiles[at], face == okey_face, verdict.kind, verdict.arrangement))
    okey_wins = any(d.okey for d in found)
    if found:
        names = ", ".join(format_tile(d.tile) + (" (okey)" if d.okey else "") for d in found)
        summary = f"winning: discard {names}"
    else:
        summary = "not winning: no discard leaves a winning 14"
    return DiscardVerdict(bool(found), tuple(found), okey_wins, summary)
