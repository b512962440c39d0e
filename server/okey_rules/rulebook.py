"""The rules of melds and winning hands, each stated once, as plain predicates.

Read this module to learn what the engine decides; each function cites the
section of docs/rules.md it states. Tiles are `Tile` objects and the okey is
given beside them; there are no packed integers, tables or shortcuts here.
The fast engine (`okey_rules.search.hand` and the search behind it) answers the
same questions on packed counts, and tests hold it to these predicates. Code
that judges melds on the table (lay-offs in Okey 101) should call them too.

Two words used throughout (docs/rules.md §2.2, §2.3):

* a *wild* is an okey tile (either copy of the okey's face): it may stand
  for any tile, its own face included;
* every other tile is *natural* and plays as one face: its own, except a
  false joker, which plays as the okey's face (and is not wild).

The predicates judge the tiles they are given; they do not check that the
tiles could exist together (``hand.check_hand`` refuses impossible hands).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations

from okey_rules.ruleset import Ruleset
from okey_rules.search.hand_types import MeldKind, WinKind
from okey_rules.tiles import NUMBERS, TILE_OF_CODE, Tile

HAND_SIZE = 14
# The best-scoring way first (docs/rules.md §4.4): a hand that wins in several
# ways is reported as the first of them in this order.
BEST_KIND_ORDER = (WinKind.KAFA, WinKind.SEVEN_PAIRS, WinKind.MELDS)
# A run position after 13: the 1 played high (12-13-1).
HIGH_ONE = 14
# Okey 101 (§10.2): melds worth at least this many points open a rack, or at
# least this many pairs; §10.5: each penalty costs PENALTY_POINTS.
OPENING_POINTS = 101
OPENING_PAIRS = 5
PENALTY_POINTS = 101


def tile_value(face: int) -> int:
    """§10.2, Okey 101: a tile counts its number (red 3 is 3, black 11 is 11)."""
    return face % NUMBERS + 1


def is_wild(tile: Tile, okey: Tile) -> bool:
    """An okey tile, wild (§2.2). A false joker is never wild (§2.3)."""
    return tile.color is not None and tile.same_face(okey)


def plays_as(tile: Tile, okey: Tile) -> Tile | None:
    """The face a natural tile plays as (§2.3), or None for a wild (§2.2).

    A false joker plays as the okey's face; any other natural as itself.
    The answer is the face's first copy, so equal faces compare equal.
    """
    if is_wild(tile, okey):
        return None
    return TILE_OF_CODE[okey.face if tile.is_false_joker else tile.face]


def naturals_and_wilds(tiles: Sequence[Tile], okey: Tile) -> tuple[list[Tile], int]:
    """The faces the natural tiles play as, and how many wilds there are."""
    naturals = []
    wilds = 0
    for tile in tiles:
        face = plays_as(tile, okey)
        if face is None:
            wilds += 1
        else:
            naturals.append(face)
    return naturals, wilds


def is_set(tiles: Sequence[Tile], okey: Tile) -> bool:
    """§3.1 Sets: three or four tiles of one number, every colour different.

    A wild takes the place of any missing colour.
    """
    naturals, _ = naturals_and_wilds(tiles, okey)
    return _is_set_of(naturals, len(tiles))


def _is_set_of(naturals: Sequence[Tile], size: int) -> bool:
    """A set of `size` tiles whose naturals play as these faces (wilds fill the rest)."""
    if size not in (3, 4):
        return False
    numbers = {tile.number for tile in naturals}
    colours = [tile.color for tile in naturals]
    return len(numbers) <= 1 and len(set(colours)) == len(colours)


@cache  # 2 x 14 answers at most
def run_numbers(length: int, runs_13_to_1: bool) -> tuple[tuple[int, ...], ...]:
    """§3.2: every run of `length` tiles, as the numbers it shows, low to high.

    A run is a stretch of positions 1..13; with `runs_13_to_1` the position
    after 13 (the 1 played high) may end it, as in 12-13-1. No run holds
    the 1 both low and high, so 13-1-2 and 12-13-1-2 are never runs, and no
    run is longer than 13 tiles.
    """
    last_positions = [NUMBERS, HIGH_ONE] if runs_13_to_1 else [NUMBERS]
    runs = []
    for last in last_positions:
        first = last - length + 1
        lowest_first = 2 if last == HIGH_ONE else 1  # never 1 low and high
        for start in range(lowest_first, first + 1):
            positions = range(start, start + length)
            runs.append(tuple(1 if p == HIGH_ONE else p for p in positions))
    return tuple(runs)


@cache  # 2 x 14 answers at most
def _run_number_sets(length: int, runs_13_to_1: bool) -> tuple[frozenset[int], ...]:
    return tuple(frozenset(run) for run in run_numbers(length, runs_13_to_1))


def is_run(tiles: Sequence[Tile], okey: Tile, runs_13_to_1: bool = True) -> bool:
    """§3.2 Runs: three or more consecutive numbers of one colour.

    The 1 is low (1-2-3) or, where `runs_13_to_1` allows (classic Okey; never
    in Okey 101), high after 13 (12-13-1); never both in one run. A wild
    takes the place of any missing number.
    """
    naturals, _ = naturals_and_wilds(tiles, okey)
    return _is_run_of(naturals, len(tiles), runs_13_to_1)


def _is_run_of(naturals: Sequence[Tile], size: int, runs_13_to_1: bool) -> bool:
    """A run of `size` tiles whose naturals play as these faces (wilds fill the rest)."""
    if size < 3:
        return False
    if len({tile.color for tile in naturals}) > 1:
        return False
    numbers = [tile.number for tile in naturals]
    held = set(numbers)
    if len(held) < len(numbers):
        return False  # a run shows each number once
    return any(held <= run for run in _run_number_sets(size, runs_13_to_1))


def is_meld(tiles: Sequence[Tile], okey: Tile, runs_13_to_1: bool = True) -> bool:
    """§3: a set or a run."""
    return is_set(tiles, okey) or is_run(tiles, okey, runs_13_to_1)


def table_meld_kind(faces: Sequence[Tile], runs_13_to_1: bool = False) -> MeldKind | None:
    """§3 for a meld laid on the table (Okey 101): every tile, an okey included,
    stands for one face fixed when it was laid, so the faces themselves must
    form a set or a run (no tile is wild any more). None: neither."""
    if _is_set_of(faces, len(faces)):
        return MeldKind.SET
    if _is_run_of(faces, len(faces), runs_13_to_1):
        return MeldKind.RUN
    return None


def is_pair(tiles: Sequence[Tile], okey: Tile) -> bool:
    """§4.2: two tiles showing one face: two naturals of that face, or a wild and any tile."""
    if len(tiles) != 2:
        return False
    naturals, _ = naturals_and_wilds(tiles, okey)
    return len({tile.face for tile in naturals}) <= 1


def splits_into_melds(tiles: Sequence[Tile], okey: Tile, runs_13_to_1: bool = True) -> bool:
    """§4.1: can every tile sit in exactly one set or run, none left over?

    Searched plainly: the first remaining tile sits in some meld with other
    remaining tiles; try each such meld, then split the rest the same way.
    Only melds of three to five tiles are tried: a longer run is two or more
    runs of three to five tiles laid end to end, so a split with long runs
    is also a split with short ones. A meld's other tiles are wilds or share
    the first tile's number (a set) or colour (a run); `is_set` and `is_run`
    have the last word.
    """
    # Each tile by its face (0..52; which copy a tile is never matters),
    # naturals first, so the first remaining tile is a natural while any is
    # left; equal remainders are then equal tuples, looked at once.
    wild_face = okey.face
    start = sorted((tile.face for tile in tiles), key=lambda face: (face == wild_face, face))
    seen: dict[tuple[int, ...], bool] = {}

    def splits(rest: tuple[int, ...]) -> bool:
        if not rest:
            return True
        known = seen.get(rest)
        if known is not None:
            return known
        first, others = rest[0], rest[1:]
        first_face = plays_as(TILE_OF_CODE[first], okey)
        companions = [
            index
            for index, face in enumerate(others)
            if first_face is None
            or _may_share_a_meld(first_face, plays_as(TILE_OF_CODE[face], okey))
        ]
        found = False
        tried: set[tuple[int, ...]] = set()
        for size in (2, 3, 4):
            for chosen in combinations(companions, size):
                meld = (first, *(others[i] for i in chosen))
                if meld in tried:
                    continue
                tried.add(meld)
                if is_meld([TILE_OF_CODE[face] for face in meld], okey, runs_13_to_1):
                    left = tuple(face for i, face in enumerate(others) if i not in chosen)
                    if splits(left):
                        found = True
                        break
            if found:
                break
        seen[rest] = found
        return found

    return splits(tuple(start))


def _may_share_a_meld(face: Tile, other: Tile | None) -> bool:
    """Could `other` (None: a wild) sit in one set or run with a natural of `face`?"""
    return other is None or other.number == face.number or other.color == face.color


def is_melds_hand(hand: Sequence[Tile], okey: Tile, runs_13_to_1: bool = True) -> bool:
    """§4.1: fourteen tiles, all of them in sets and runs."""
    return len(hand) == HAND_SIZE and splits_into_melds(hand, okey, runs_13_to_1)


def is_seven_pairs(hand: Sequence[Tile], okey: Tile, wild_pairs: bool = True) -> bool:
    """§4.2 Seven pairs: fourteen tiles as seven pairs of seven different faces.

    A wild pairs with a lone natural tile; the two wilds may pair with each
    other only where `wild_pairs` allows. A wild never doubles a face that
    another pair shows (X X + two wilds is not two pairs of X).
    """
    if len(hand) != HAND_SIZE:
        return False
    naturals, wilds = naturals_and_wilds(hand, okey)
    copies = Counter(tile.face for tile in naturals)
    if any(count > 2 for count in copies.values()):
        return False
    lone = sum(1 for count in copies.values() if count == 1)
    spare = wilds - lone  # wilds left once every lone tile has its wild
    if spare < 0:
        return False
    return spare == 0 or (spare == 2 and wild_pairs)


def is_kafa(hand: Sequence[Tile], okey: Tile) -> bool:
    """§4.3 Kafa: fourteen tiles of one colour, 1 to 13 and a second 1.

    A wild stands for any missing tile of it.
    """
    if len(hand) != HAND_SIZE:
        return False
    naturals, _ = naturals_and_wilds(hand, okey)
    if len({tile.color for tile in naturals}) > 1:
        return False
    kafa_numbers = Counter([1, *range(1, NUMBERS + 1)])
    return not Counter(tile.number for tile in naturals) - kafa_numbers


def winning_kinds(hand: Sequence[Tile], okey: Tile, rules: Ruleset) -> tuple[WinKind, ...]:
    """§4: every way these fourteen tiles win under `rules`, in WinKind order.

    Kafa counts only where the ruleset plays it (option `kafa`).
    """
    tests: dict[WinKind, Callable[[], bool]] = {
        WinKind.MELDS: lambda: is_melds_hand(hand, okey, rules.runs_13_to_1),
        WinKind.SEVEN_PAIRS: lambda: is_seven_pairs(hand, okey, rules.wild_pairs),
        WinKind.KAFA: lambda: rules.kafa and is_kafa(hand, okey),
    }
    return tuple(kind for kind in WinKind if tests[kind]())


def best_kind(kinds: Sequence[WinKind]) -> WinKind | None:
    """§4.4: the best-scoring of the ways a hand wins (None: it does not win)."""
    return next((kind for kind in BEST_KIND_ORDER if kind in kinds), None)
