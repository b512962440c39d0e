"""The referee of the BestOpening vectors: Okey 101 openings worked out without the engine's search.

scripts/derive_vectors.py (`--suite opening`) holds each case's hand-written melds to this
module and the engine's answer to both. What it checks (docs/okey101.md):

- the melds, written in notation (`OK=R5` an okey standing for R5, `F=K11` a false joker),
  are sets and runs by the rulebook's own predicates (`is_set`, `is_run`), made of the
  rack's tiles, and worth the value the case states;
- a brute force built only on those predicates (and `run_numbers`) lists every meld the
  rack holds with every reading of its okeys and tries every way to lay disjoint melds,
  keeping the best by the documented order (value, fewer okeys, more tiles, then the first
  number where two openings differ): the hand-written melds must be exactly that best, so
  the hand-picked answer is the one the tie-break rule picks;
- the pairs are counted by the documented rule (identical tiles, an okey with the lowest
  singles, the two okeys together where `wild_pairs` allows).

`expected` turns the checked melds into the answer a server must give, through the one
protobuf JSON encoder (scripts/vector_json.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Any

import vector_json as vj
from okey_rules.rulebook import HIGH_ONE, OPENING_PAIRS, OPENING_POINTS, is_run, is_set, run_numbers
from okey_rules.tiles import FALSE_JOKER_FACE, NUMBERS, Tile, format_tile, parse_tile

Json = dict[str, Any]
COLOURS = 4

# --- the brute force ------------------------------------------------------------------
#
# An opening is compared by docs/okey101.md's order as one tuple: (value, -okeys, tiles
# laid, layout). The layout is the tie-break's third rule as a number: per position (1 to
# 13, then the 1 played high where 12-13-1 is allowed), per colour red, yellow, blue,
# black: tiles in sets, natural tiles in runs, okeys standing for it in runs; then okeys
# in that number's sets. Each of those counts is 0, 1 or 2 in any opening (two copies of
# a face, two okeys), so written as base-3 digits, the lowest position first, comparing
# the numbers compares the layouts as the rule does, and a sum over melds is the
# opening's layout digit by digit (no digit carries). So every part of the tuple adds
# up over disjoint melds, and the best opening of a rack is the best of: its lowest tile
# kept, or laid in one of the melds that hold it plus the best opening of the rest.

Key = tuple[int, int, int, int]
NOTHING: Key = (0, 0, 0, 0)
SLOTS = 3 * COLOURS + 1  # per position: 3 per colour, then okeys in sets
SET_OKEYS = 3 * COLOURS
# One laid tile: (position, colour (None: an okey in a set), in a set?, an okey?).
Laid = tuple[int, int | None, bool, bool]


def positions(wrap: bool) -> list[int]:
    return [*range(1, NUMBERS + 1), *([HIGH_ONE] if wrap else [])]


def layout_of(laid: Sequence[Laid], wrap: bool) -> int:
    """The layout digits of these tiles (see above)."""
    order = positions(wrap)
    digits = len(order) * SLOTS
    total = 0
    for position, colour, in_set, wild in laid:
        if in_set and wild:
            slot = SET_OKEYS
        else:
            assert colour is not None
            slot = 3 * colour if in_set else 3 * colour + (2 if wild else 1)
        total += 3 ** (digits - 1 - (order.index(position) * SLOTS + slot))
    return total


def add(a: Key, b: Key) -> Key:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3])


def _played(tile: Tile, okey: Tile) -> int | None:
    """The face a tile plays as (a false joker: the okey's); None for an okey (wild)."""
    if tile.same_face(okey):
        return None
    return okey.face if tile.is_false_joker else tile.face


def _physical(played: int, okey: Tile) -> Tile:
    """The natural tile that plays as `played`: the okey's face is played by a false joker."""
    return Tile.false_joker() if played == okey.face else Tile.from_face(played)


def rack_melds(tiles: Sequence[Tile], okey: Tile, wrap: bool) -> dict[tuple[int, ...], Key]:
    """Every meld the rack holds that the rulebook accepts, by its physical faces (sorted),
    with the best key any reading of it (what its okeys stand for) has."""
    wilds = sum(tile.same_face(okey) for tile in tiles)
    played = {p for p in (_played(t, okey) for t in tiles) if p is not None}
    found: dict[tuple[int, ...], Key] = {}

    def keep(naturals: Sequence[int], okeys: int, key: Key) -> None:
        faces = tuple(sorted([_physical(f, okey).face for f in naturals] + [okey.face] * okeys))
        if faces not in found or key > found[faces]:
            found[faces] = key

    for number in range(1, NUMBERS + 1):
        same_number = sorted(f for f in played if f % NUMBERS + 1 == number)
        for size in range(1, len(same_number) + 1):
            for naturals in combinations(same_number, size):
                for okeys in range(wilds + 1):
                    laid = [_physical(f, okey) for f in naturals] + [okey] * okeys
                    if len(laid) > COLOURS or not is_set(laid, okey):
                        continue
                    tiles_laid: list[Laid] = [(number, f // NUMBERS, True, False) for f in naturals]
                    tiles_laid += [(number, None, True, True)] * okeys
                    value = number * len(laid)
                    keep(naturals, okeys, (value, -okeys, len(laid), layout_of(tiles_laid, wrap)))
    for colour in range(COLOURS):
        same_colour = sorted(f for f in played if f // NUMBERS == colour)
        for size in range(1, len(same_colour) + 1):
            for naturals in combinations(same_colour, size):
                for okeys in range(wilds + 1):
                    laid = [_physical(f, okey) for f in naturals] + [okey] * okeys
                    if len(laid) < 3 or not is_run(laid, okey, wrap):
                        continue
                    held = {f % NUMBERS + 1 for f in naturals}
                    for numbers in run_numbers(len(laid), wrap):
                        if not held <= set(numbers):
                            continue
                        # A 1 after the first place is the 1 played high after 13.
                        run_laid: list[Laid] = [
                            (HIGH_ONE if n == 1 and i else n, colour, False, n not in held)
                            for i, n in enumerate(numbers)
                        ]
                        key = (sum(numbers), -okeys, len(laid), layout_of(run_laid, wrap))
                        keep(naturals, okeys, key)
    return found


def brute_best(tiles: Sequence[Tile], okey: Tile, wrap: bool) -> Key:
    """The key of the best opening by the documented order: every way to lay melds."""
    melds = rack_melds(tiles, okey, wrap)
    by_lowest: dict[int, list[tuple[Counter[int], Key]]] = {}
    for faces, key in melds.items():
        by_lowest.setdefault(faces[0], []).append((Counter(faces), key))

    @cache
    def best(rest: tuple[int, ...]) -> Key:
        lowest = next((face for face, held in enumerate(rest) if held), None)
        if lowest is None:
            return NOTHING
        kept = list(rest)
        kept[lowest] -= 1
        answer = best(tuple(kept))  # the lowest tile stays on the rack
        for need, key in by_lowest.get(lowest, []):
            if all(rest[face] >= count for face, count in need.items()):
                after = list(rest)
                for face, count in need.items():
                    after[face] -= count
                answer = max(answer, add(key, best(tuple(after))))
        return answer

    held = [0] * (FALSE_JOKER_FACE + 1)
    for tile in tiles:
        held[tile.face] += 1
    return best(tuple(held))


# --- openings written in notation ---------------------------------------------------------


@dataclass(frozen=True)
class Placed:
    tile: Tile  # the physical tile, its copy numbered canonically
    stands_for: Tile
    wild: bool


def read_meld(text: str, okey: Tile) -> list[tuple[Tile, Tile, bool]]:
    """A meld in notation as (physical face, face it stands for, okey?): `OK=R5` an okey
    standing for R5, `F=K11` a false joker (it plays as the okey's face), `R5` itself."""
    out = []
    for word in text.split():
        if word.startswith("OK="):
            out.append((okey, parse_tile(word[3:]), True))
        elif word.startswith("F="):
            stands_for = parse_tile(word[2:])
            assert stands_for.same_face(okey), f"a false joker plays as the okey: {word}"
            out.append((Tile.false_joker(), stands_for, False))
        else:
            tile = parse_tile(word)
            assert not tile.same_face(okey), f"the okey is written OK=...: {text}"
            out.append((tile, tile, False))
    return out


def read_melds(text: str, okey: Tile) -> list[list[Placed]]:
    """Melds in notation (`|` between them) with canonical copies (hand.proto, PlacedTile.tile):
    a face's first use is copy 0, the next copy 1, in the order the melds are written."""
    used: Counter[int] = Counter()
    out = []
    for meld in (read_meld(m, okey) for m in text.split(" | ") if m):
        placed = []
        for face, stands_for, wild in meld:
            placed.append(Placed(Tile.from_face(face.face, used[face.face]), stands_for, wild))
            used[face.face] += 1
        out.append(placed)
    return out


def is_set_meld(meld: Sequence[Placed]) -> bool:
    return len({p.stands_for.number for p in meld}) == 1


def meld_laid(meld: Sequence[Placed]) -> list[Laid]:
    """The tiles of a written meld as the layout reads them."""
    if is_set_meld(meld):
        return [(p.stands_for.number, None if p.wild else _colour(p), True, p.wild) for p in meld]
    start = meld[0].stands_for.number
    return [(start + i, _colour(p), False, p.wild) for i, p in enumerate(meld)]


def _colour(p: Placed) -> int:
    assert p.stands_for.color is not None
    return int(p.stands_for.color)


def key_of(melds: Sequence[Sequence[Placed]], wrap: bool) -> Key:
    laid = [tile for meld in melds for tile in meld_laid(meld)]
    value = sum(p.stands_for.number for meld in melds for p in meld)
    okeys = sum(p.wild for meld in melds for p in meld)
    return (value, -okeys, len(laid), layout_of(laid, wrap))


def left_on_rack(tiles: Sequence[Tile], melds: Sequence[Sequence[Placed]]) -> list[Tile]:
    """The rack's tiles no meld lays, in tile order, copies numbered after the ones laid."""
    held = Counter(t.face for t in tiles)
    laid = Counter(p.tile.face for meld in melds for p in meld)
    assert not laid - held, f"the melds lay tiles the rack does not hold: {laid - held}"
    return [Tile.from_face(face, copy) for face in sorted(held)
            for copy in range(laid[face], held[face])]


def notation_of(melds: Sequence[Sequence[Placed]]) -> str:
    def word(p: Placed) -> str:
        if p.wild:
            return f"OK={format_tile(p.stands_for)}"
        if p.tile.is_false_joker:
            return f"F={format_tile(p.stands_for)}"
        return format_tile(p.tile)

    return " | ".join(" ".join(word(p) for p in meld) for meld in melds)


# --- pairs by the documented rule -----------------------------------------------------------


def pairs_by_the_rule(tiles: Sequence[Tile], okey: Tile, wild_pairs: bool) -> str:
    """docs/okey101.md, Pairs, in notation: two identical tiles (two false jokers play as
    the okey's face); an okey with a face the rack holds once, the lowest singles first
    (tile order), never with a face already paired; the two okeys left over pair together
    where `wild_pairs` allows, showing the okey's face unless a pair shows it, else the
    lowest face no pair shows. Pairs in the order of the faces they show."""
    plays = Counter(p for p in (_played(t, okey) for t in tiles) if p is not None)
    okeys = sum(t.same_face(okey) for t in tiles)
    pairs: list[tuple[int, int]] = []  # (face shown, okeys in the pair)
    for face in sorted(plays):
        if plays[face] == 2:
            pairs.append((face, 0))
    for face in sorted(plays):
        if plays[face] == 1 and okeys:
            pairs.append((face, 1))
            okeys -= 1
    if okeys == 2 and wild_pairs:
        shown = {face for face, _ in pairs}
        free = okey.face if okey.face not in shown else min(set(range(52)) - shown)
        pairs.append((free, 2))
    words = []
    for face, wilds in sorted(pairs):
        shown_tile = Tile.from_face(face)
        natural = "F=" + format_tile(shown_tile) if face == okey.face else format_tile(shown_tile)
        words.append(" ".join([natural] * (2 - wilds) + [f"OK={format_tile(shown_tile)}"] * wilds))
    return " | ".join(words)


# --- the answer ----------------------------------------------------------------------------------


def expected(
    name: str, tiles: Sequence[Tile], okey: Tile, *, wrap: bool, wild_pairs: bool, want: Json
) -> Json:
    """The BestOpeningResponse from the case's written-out melds (`want`: melds in notation,
    their value, the pairs where they are the point), held to the rulebook and the brute
    force. Raises AssertionError, naming the case, where any check fails."""
    melds = read_melds(want["melds"], okey)
    for meld in melds:
        physical = [p.tile for p in meld]
        valid = is_set(physical, okey) if is_set_meld(meld) else is_run(physical, okey, wrap)
        assert valid, f"{name}: {notation_of([meld])} is no meld by the rulebook"
    unused = left_on_rack(tiles, melds)
    mine = key_of(melds, wrap)
    if "value" in want:
        worth = want["value"]
        assert mine[0] == worth, f"{name}: the melds are worth {mine[0]}, not {worth}"
    best = brute_best(tiles, okey, wrap)
    # (value, -okeys, tiles) apart, or equal there and a lower number laid differently.
    assert mine == best, (
        f"{name}: {want['melds']!r} is (value, -okeys, tiles) {mine[:3]}; the brute force's best"
        f" {best[:3]}, {'a better' if best > mine else 'a worse (the melds are no opening?)'}"
        " opening by the documented order"
    )
    by_rule = pairs_by_the_rule(tiles, okey, wild_pairs)
    if "pairs" in want:
        assert want["pairs"] == by_rule, f"{name}: pairs {want['pairs']!r}, by the rule {by_rule!r}"
    pairs = read_melds(by_rule, okey)
    kinds = ["SET" if is_set_meld(meld) else "RUN" for meld in melds]
    return vj.best_opening(
        vj.opening_arrangement(zip(kinds, melds, strict=True), notation_of(melds)),
        mine[0],
        mine[0] >= OPENING_POINTS,
        -mine[1],
        unused,
        vj.opening_arrangement((("PAIR", pair) for pair in pairs), notation_of(pairs)),
        len(pairs),
        len(pairs) >= OPENING_PAIRS,
        okey,
    )
