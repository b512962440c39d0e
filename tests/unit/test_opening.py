"""Okey 101 openings (docs/okey101.md) held to a brute force built on the rulebook.

The brute force knows nothing of the engine's programme over numbers: it
lists every meld the rack holds (every choice of tiles that the rulebook's
`is_set` or `is_run` accepts, with every reading of what its okeys stand
for), then searches every way to lay disjoint melds from the rack (the
lowest tile left is either kept or laid in one of the melds holding it).
`best_opening` must reach the brute force's best value, okeys and tile
count on random 21- and 22-tile racks, racks built from melds, and small
racks, and on small racks its whole answer must be the one the documented
tie-break rule picks among all the brute force's best openings.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from functools import cache
from itertools import combinations

import pytest
from okey_rules.errors import InvalidInputError
from okey_rules.rulebook import HIGH_ONE, OPENING_PAIRS, OPENING_POINTS, is_pair, is_run, is_set
from okey_rules.ruleset import Game, Ruleset, preset
from okey_rules.search.hand_types import MeldKind
from okey_rules.search.opening import (
    MeldOpening,
    best_opening,
    best_openings,
    best_pairs_opening,
)
from okey_rules.tiles import (
    FALSE_JOKER_FACE,
    NUMBERS,
    TILE_COUNT,
    TILE_OF_CODE,
    Tile,
    format_tiles,
    indicator_for,
    okey_for,
    parse_tile,
    parse_tiles,
)

OKEY_101 = preset("101")
WRAP_101 = OKEY_101.with_overrides(runs_13_to_1=True)
COLOURS = 4

# --- the brute force -------------------------------------------------------------

# A reading of a meld: its value, and per tile laid (position, colour or None
# for an okey in a set, in a set?, okey?); position 14 is a 1 played high.
Reading = tuple[int, tuple[tuple[int, int | None, bool, bool], ...]]


def _played(face: int, okey_face: int) -> int | None:
    if face == okey_face:
        return None
    return okey_face if face == FALSE_JOKER_FACE else face


def _set_reading(naturals: list[int], okeys: int) -> Reading:
    number = naturals[0] % NUMBERS + 1
    laid = [(number, face // NUMBERS, True, False) for face in naturals]
    laid += [(number, None, True, True)] * okeys
    return number * (len(naturals) + okeys), tuple(sorted(laid, key=repr))


def _run_readings(naturals: list[int], okeys: int, wrap: bool) -> list[Reading]:
    """Every place the run can lie: a stretch of positions holding each natural's number."""
    colour = naturals[0] // NUMBERS
    numbers = sorted(face % NUMBERS + 1 for face in naturals)
    length = len(naturals) + okeys
    readings = []
    last_position = HIGH_ONE if wrap else NUMBERS
    for start in range(1, last_position - length + 2):
        positions = list(range(start, start + length))
        if 1 in positions and HIGH_ONE in positions:
            continue
        number_at = {p: (1 if p == HIGH_ONE else p) for p in positions}
        free = dict(number_at)
        ok = True
        for number in numbers:
            spot = next((p for p, n in free.items() if n == number), None)
            if spot is None:
                ok = False
                break
            del free[spot]
        if not ok:
            continue
        laid = [(p, colour, False, p in free) for p in positions]
        readings.append((sum(number_at.values()), tuple(laid)))
    return readings


def rack_melds(tiles: list[Tile], okey: Tile, wrap: bool) -> dict[tuple[int, ...], list[Reading]]:
    """Every meld in the rack (as sorted physical faces) the rulebook accepts, with its readings."""
    okey_face = okey.face
    held = Counter(tile.face for tile in tiles)
    wilds = held.get(okey_face, 0)
    by_number: dict[int, list[int]] = {}
    by_colour: dict[int, list[int]] = {}
    for face in held:
        played = _played(face, okey_face)
        if played is not None:
            by_number.setdefault(played % NUMBERS, []).append(face)
            by_colour.setdefault(played // NUMBERS, []).append(face)
    found: dict[tuple[int, ...], list[Reading]] = {}
    for groups, kind in ((by_number, MeldKind.SET), (by_colour, MeldKind.RUN)):
        for faces in groups.values():
            for size in range(1, len(faces) + 1):
                for chosen in combinations(sorted(faces), size):
                    for okeys in range(wilds + 1):
                        if size + okeys < 3 or (kind is MeldKind.SET and size + okeys > 4):
                            continue
                        physical = [TILE_OF_CODE[f] for f in chosen] + [okey] * okeys
                        played = [_played(f, okey_face) for f in chosen]
                        if kind is MeldKind.SET:
                            if not is_set(physical, okey):
                                continue
                            readings = [_set_reading(played, okeys)]
                        else:
                            if not is_run(physical, okey, wrap):
                                continue
                            readings = _run_readings(played, okeys, wrap)
                            assert readings, "the rulebook's run has a place"
                        key = tuple(sorted((*chosen, *(okey_face,) * okeys)))
                        found.setdefault(key, []).extend(readings)
    return found


def _layout(readings: list[Reading], wrap: bool) -> tuple[tuple[int, ...], ...]:
    """The tie-break key of docs/okey101.md: per position, per colour (set, run, okey in run)."""
    positions = [*range(1, NUMBERS + 1), *([HIGH_ONE] if wrap else [])]
    table = {p: [0] * (3 * COLOURS + 1) for p in positions}
    for _, laid in readings:
        for position, colour, in_set, wild in laid:
            row = table[position]
            if in_set and wild:
                row[3 * COLOURS] += 1
            elif in_set:
                row[3 * colour] += 1  # type: ignore[operator]
            else:
                row[3 * colour + (2 if wild else 1)] += 1  # type: ignore[operator]
    return tuple(tuple(table[p]) for p in positions)


def brute_best(tiles: list[Tile], okey: Tile, wrap: bool) -> tuple[int, int, int]:
    """(value, -okeys, tiles laid) of the best opening: every way to lay melds, memoised.

    The rack is a tuple of counts per physical face; the lowest face held is
    kept on the rack or laid in one of the melds that hold it.
    """
    melds = rack_melds(tiles, okey, wrap)
    okey_face = okey.face
    by_lowest: dict[int, list[tuple[tuple[tuple[int, int], ...], tuple[int, int, int]]]] = {}
    for key, readings in melds.items():
        need = tuple(sorted(Counter(key).items()))
        gain = (max(value for value, _ in readings), -key.count(okey_face), len(key))
        for face in set(key):
            by_lowest.setdefault(face, []).append((need, gain))

    @cache
    def best(rest: tuple[int, ...]) -> tuple[int, int, int]:
        lowest = next((face for face, held in enumerate(rest) if held), None)
        if lowest is None:
            return (0, 0, 0)
        kept = list(rest)
        kept[lowest] -= 1
        answer = best(tuple(kept))  # the lowest tile stays on the rack
        for need, gain in by_lowest.get(lowest, []):
            if any(rest[face] < count for face, count in need):
                continue
            after = list(rest)
            for face, count in need:
                after[face] -= count
            value, minus_okeys, laid = best(tuple(after))
            answer = max(answer, (value + gain[0], minus_okeys + gain[1], laid + gain[2]))
        return answer

    held = [0] * 53
    for tile in tiles:
        held[tile.face] += 1
    return best(tuple(held))


def brute_all(tiles: list[Tile], okey: Tile, wrap: bool) -> Iterator[list[Reading]]:
    """Every opening (every set of disjoint melds, every reading): for small racks only."""
    melds = rack_melds(tiles, okey, wrap)

    def lay(rest: Counter[int], keys: list[tuple[int, ...]], start: int) -> Iterator[list[Reading]]:
        yield []
        for index in range(start, len(keys)):
            need = Counter(keys[index])
            if any(rest[f] < n for f, n in need.items()):
                continue
            for reading in melds[keys[index]]:
                for more in lay(rest - need, keys, index):
                    yield [reading, *more]

    yield from lay(Counter(t.face for t in tiles), sorted(melds), 0)


def brute_choice(tiles: list[Tile], okey: Tile, wrap: bool) -> tuple[object, ...]:
    """The opening the tie-break rule picks, by its key: value, okeys, tiles, layout."""
    def key(opening: list[Reading]) -> tuple[object, ...]:
        okeys = sum(wild for _, laid in opening for *_, wild in laid)
        count = sum(len(laid) for _, laid in opening)
        return (sum(v for v, _ in opening), -okeys, count, _layout(opening, wrap))

    return max(key(opening) for opening in brute_all(tiles, okey, wrap))


def engine_key(opening: MeldOpening, wrap: bool) -> tuple[object, ...]:
    """The same key read off the engine's answer."""
    readings: list[Reading] = []
    for meld in opening.arrangement.melds:
        laid = []
        if meld.kind is MeldKind.SET:
            for placed in meld.tiles:
                colour = None if placed.wild else int(placed.stands_for.color)  # type: ignore[arg-type]
                laid.append((placed.stands_for.number, colour, True, placed.wild))
        else:
            start = meld.tiles[0].stands_for.number
            for offset, placed in enumerate(meld.tiles):
                colour = int(placed.stands_for.color)  # type: ignore[arg-type]
                laid.append((start + offset, colour, False, placed.wild))
        value = sum(p.stands_for.number for p in meld.tiles)
        readings.append((value, tuple(laid)))
    count = sum(len(meld.tiles) for meld in opening.arrangement.melds)
    return (opening.value, -opening.okeys_used, count, _layout(readings, wrap))


# --- racks -----------------------------------------------------------------------


def _legal_okey(tiles: list[Tile], rng: random.Random) -> Tile:
    while True:
        okey = okey_for(Tile.from_face(rng.randrange(52)))
        if sum(t.same_face(indicator_for(okey)) for t in tiles) <= 1:
            return okey


def random_racks(
    count: int, seed: int, sizes: tuple[int, ...] = (21, 22)
) -> list[tuple[list[Tile], Tile]]:
    """Racks drawn from a shuffled 106-tile set, with an indicator the rack allows."""
    rng = random.Random(seed)
    codes = list(range(TILE_COUNT))
    racks = []
    for _ in range(count):
        rng.shuffle(codes)
        tiles = [TILE_OF_CODE[c] for c in codes[: rng.choice(sizes)]]
        racks.append((tiles, _legal_okey(tiles, rng)))
    return racks


def built_racks(count: int, seed: int) -> list[tuple[list[Tile], Tile]]:
    """Racks of 21 or 22 made mostly of melds (okeys and false jokers among them), rest random."""
    rng = random.Random(seed)
    racks: list[tuple[list[Tile], Tile]] = []
    while len(racks) < count:
        okey = okey_for(Tile.from_face(rng.randrange(52)))
        size = rng.choice((21, 22))
        faces: list[int] = []
        while len(faces) < size - rng.randrange(0, 6):
            if rng.random() < 0.4:
                number = rng.randrange(NUMBERS)
                faces += [c * NUMBERS + number for c in rng.sample(range(4), rng.choice((3, 4)))]
            else:
                colour, length = rng.randrange(4), rng.randrange(3, 7)
                start = rng.randrange(0, NUMBERS - length + 1)
                faces += [colour * NUMBERS + start + i for i in range(length)]
        faces = faces[:size]
        while len(faces) < size:
            faces.append(rng.randrange(53))
        # The okey's face as a natural is a false joker; then up to two okeys.
        faces = [FALSE_JOKER_FACE if f == okey.face else f for f in faces]
        for _ in range(rng.choice((0, 1, 1, 2))):
            faces[rng.randrange(size)] = okey.face
        held = Counter(faces)
        if max(held.values()) > 2 or held[indicator_for(okey).face] > 1:
            continue
        seen: Counter[int] = Counter()
        tiles = []
        for face in faces:
            tiles.append(TILE_OF_CODE[face + 53 * seen[face]])
            seen[face] += 1
        racks.append((tiles, okey))
    return racks


def _check_melds(opening: MeldOpening, tiles: list[Tile], okey: Tile, wrap: bool) -> None:
    """Every meld valid by the rulebook, tiles from the rack, unused the rest, value summed."""
    laid = []
    for meld in opening.arrangement.melds:
        physical = [p.tile for p in meld.tiles]
        if meld.kind is MeldKind.SET:
            assert is_set(physical, okey), meld.notation()
        else:
            assert meld.kind is MeldKind.RUN
            assert is_run(physical, okey, wrap), meld.notation()
        laid += physical
    assert Counter(t.face for t in laid + list(opening.unused)) == Counter(t.face for t in tiles)
    assert len({(t.face, t.copy) for t in laid + list(opening.unused)}) == len(tiles)
    value = sum(p.stands_for.number for m in opening.arrangement.melds for p in m.tiles)
    assert opening.value == value
    assert opening.opens == (value >= OPENING_POINTS)


# --- the engine against the brute force --------------------------------------------

RANDOM = random_racks(200, seed=101)
BUILT = built_racks(60, seed=202)


@pytest.mark.parametrize("index", range(len(RANDOM)))
def test_best_opening_reaches_the_brute_force_best_on_random_racks(index):
    tiles, okey = RANDOM[index]
    opening = best_opening(tiles, okey, OKEY_101)
    _check_melds(opening, tiles, okey, wrap=False)
    laid = sum(len(m.tiles) for m in opening.arrangement.melds)
    assert (opening.value, -opening.okeys_used, laid) == brute_best(tiles, okey, wrap=False), (
        format_tiles(tiles) + f" okey {okey}"
    )


@pytest.mark.parametrize("rules", [OKEY_101, WRAP_101], ids=["101", "101-with-12-13-1"])
@pytest.mark.parametrize("index", range(len(BUILT)))
def test_best_opening_reaches_the_brute_force_best_on_racks_built_from_melds(index, rules):
    tiles, okey = BUILT[index]
    wrap = rules.runs_13_to_1
    opening = best_opening(tiles, okey, rules)
    _check_melds(opening, tiles, okey, wrap)
    laid = sum(len(m.tiles) for m in opening.arrangement.melds)
    assert (opening.value, -opening.okeys_used, laid) == brute_best(tiles, okey, wrap), (
        format_tiles(tiles) + f" okey {okey}"
    )


SMALL = random_racks(40, seed=303, sizes=(7, 8, 9)) + [
    (tiles[:9], okey) for tiles, okey in built_racks(40, seed=404)
]


# Hand-built racks where okeys and false jokers have several places (okey last).
TRICKY = [
    ("R5 R5 R7 R7 K9 K9", "K9"),  # two okeys at one place: two runs R5-R6-R7
    ("R12 R13 K9 K9", "K9"),  # 10-11-12-13
    ("K13 K1 K2 R9 R9", "R9"),  # 13-1-2 never; 11-12-13 or 1-2-3 with okeys
    ("R1 R1 R2 R2 R3 R3 Y1 B1 K1", "B7"),
    ("R4 F R6 F R5", "R5"),  # false jokers as R5, an okey R5
    ("R12 R13 R1 Y1 B1 R5", "R5"),
    ("Y11 Y12 Y13 Y1 Y2 R3 R3", "R3"),
    ("R9 Y9 B9 K9 R9 Y9 B2 B2", "B2"),  # up to three sets of 9s with two okeys
]


@pytest.mark.parametrize("rules", [OKEY_101, WRAP_101], ids=["101", "101-with-12-13-1"])
@pytest.mark.parametrize("rack", TRICKY, ids=[text for text, _ in TRICKY])
def test_tricky_racks_get_the_opening_the_documented_rule_picks(rack, rules):
    tiles, okey = parse_tiles(rack[0]), parse_tile(rack[1])
    wrap = rules.runs_13_to_1
    opening = best_opening(tiles, okey, rules)
    _check_melds(opening, tiles, okey, wrap)
    assert engine_key(opening, wrap) == brute_choice(tiles, okey, wrap)


def test_two_okeys_may_stand_for_the_same_tile_in_two_runs():
    opening = _open("R5 R5 R7 R7 K9 K9", "K8")
    assert opening.arrangement.notation() == "R5 OK=R6 R7 | R5 OK=R6 R7"
    assert opening.value == 36


@pytest.mark.parametrize("rules", [OKEY_101, WRAP_101], ids=["101", "101-with-12-13-1"])
@pytest.mark.parametrize("index", range(len(SMALL)))
def test_ties_go_to_the_opening_the_documented_rule_picks(index, rules):
    """Among all openings of a small rack, the engine's is the one the tie-break rule picks."""
    tiles, okey = SMALL[index]
    wrap = rules.runs_13_to_1
    opening = best_opening(tiles, okey, rules)
    _check_melds(opening, tiles, okey, wrap)
    assert engine_key(opening, wrap) == brute_choice(tiles, okey, wrap), format_tiles(tiles)


@pytest.mark.parametrize("text", [
    "R12 R13 R1 Y5 B5 K5 R1",
    "R3 R4 R5 Y3 Y4 Y5 B3 B4 B5",
    "R12 R5 R6",
    "K13 K1 K2 K12 R1",
    "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1",
])
@pytest.mark.parametrize("okey", ["R6", "K9", "B13"])
def test_the_answer_depends_only_on_the_tiles_held_not_their_order(text, okey):
    tiles, wild = parse_tiles(text), parse_tile(okey)
    first = best_opening(tiles, wild)
    for seed in range(5):
        shuffled = list(tiles)
        random.Random(seed).shuffle(shuffled)
        assert best_opening(shuffled, wild) == first


# --- one test per rule ---------------------------------------------------------------


def _open(text: str, indicator: str, rules: Ruleset = OKEY_101) -> MeldOpening:
    return best_opening(parse_tiles(text), okey_for(parse_tile(indicator)), rules)


def test_a_set_never_repeats_a_colour():
    # Two red 7s: only one of them can sit in the set.
    opening = _open("R7 R7 B7 K7", "Y1")
    assert opening.arrangement.notation() == "R7 B7 K7"
    assert opening.value == 21
    assert format_tiles(opening.unused) == "R7"
    assert not is_set(parse_tiles("R7 R7 B7"), parse_tile("Y2"))


def test_a_set_of_two_copies_of_each_colour_is_two_sets():
    opening = _open("R9 R9 Y9 Y9 B9 B9", "K1")
    assert opening.arrangement.notation() == "R9 Y9 B9 | R9 Y9 B9"
    assert opening.value == 54


@pytest.mark.parametrize("run", ["R12 R13 R1", "R13 R1 R2", "R12 R13 R1 R2"])
def test_12_13_1_and_13_1_2_are_not_runs_in_101(run):
    assert _open(run, "K5").value == 0
    assert not is_run(parse_tiles(run), parse_tile("K6"), runs_13_to_1=False)


def test_11_12_13_and_1_2_3_are_runs_in_101():
    assert _open("R11 R12 R13", "K5").value == 36
    assert _open("R1 R2 R3", "K5").value == 6


def test_with_runs_13_to_1_set_12_13_1_is_a_run_and_its_1_counts_1():
    opening = _open("R12 R13 R1", "K5", WRAP_101)
    assert opening.arrangement.notation() == "R12 R13 R1"
    assert opening.value == 26


def test_an_okey_counts_as_what_it_stands_for_after_12_13_it_is_11():
    # Indicator Y4: the okey is Y5. Before 12-13 it is the 11 (a run never
    # passes 13), worth 11.
    opening = _open("R12 R13 Y5", "Y4")
    assert opening.arrangement.notation() == "OK=R11 R12 R13"
    assert opening.value == 11 + 12 + 13
    assert opening.okeys_used == 1


def test_an_okey_takes_the_highest_place_a_run_allows():
    # R5 R6 and an okey: R5 R6 R7 (18), not R4 R5 R6 (15).
    opening = _open("R5 R6 Y5", "Y4")
    assert opening.arrangement.notation() == "R5 R6 OK=R7"
    assert opening.value == 18


def test_an_okey_in_a_set_counts_the_set_s_number():
    opening = _open("R10 B10 K5", "K4")  # okey K5
    assert opening.arrangement.notation() == "R10 OK=Y10 B10"
    assert opening.value == 30


def test_a_false_joker_counts_as_the_okey_s_face_value():
    # Indicator K10: okey K11, so a false joker plays as K11 and counts 11.
    run = _open("K10 F K12", "K10")
    assert run.arrangement.notation() == "K10 F=K11 K12"
    assert run.value == 33
    assert run.okeys_used == 0
    in_set = _open("R11 F B11", "K10")
    assert in_set.arrangement.notation() == "R11 B11 F=K11"
    assert in_set.value == 33


def test_a_false_joker_is_not_wild():
    # A false joker plays as the okey's face only: with okey K11 it cannot be R7.
    opening = _open("R6 F R8", "K10")
    assert opening.value == 0


def test_two_okeys_and_one_tile_make_a_meld_ties_decided_at_the_lowest_number():
    # With okey R2 (indicator R1), B12 and two okeys are the run 11-12-13 or
    # the set of 12s: 36 either way, one okey less for neither, three tiles
    # each. The tie-break looks at the lowest number where they differ: 11,
    # where the run lays an okey and the set nothing.
    opening = _open("B12 R2 R2", "R1")
    assert opening.value == 36
    assert opening.okeys_used == 2
    assert opening.arrangement.notation() == "OK=B11 B12 OK=B13"


def test_okey_101_opens_at_exactly_101():
    exactly = _open("K10 K11 K12 K13 R13 Y13 B13 R4 Y4 B4 K4", "Y7")
    assert exactly.value == 101 == OPENING_POINTS
    assert exactly.opens
    one_short = _open("K10 K11 K12 K13 R13 Y13 B13 R5 Y5 B5", "Y7")
    assert one_short.value == 100
    assert not one_short.opens


def test_nothing_to_lay_is_worth_zero_and_keeps_every_tile():
    opening = _open("R1 Y5 B9 K13", "R7")
    assert opening.value == 0
    assert opening.arrangement.melds == ()
    assert format_tiles(opening.unused) == "R1 Y5 B9 K13"


def test_a_long_run_is_one_meld():
    opening = _open("Y3 Y4 Y5 Y6 Y7 Y8 Y9", "R1")
    assert opening.arrangement.notation() == "Y3 Y4 Y5 Y6 Y7 Y8 Y9"
    assert opening.value == sum(range(3, 10))


# --- pairs -------------------------------------------------------------------------


def _pairs(text: str, indicator: str, rules: Ruleset = OKEY_101):
    return best_pairs_opening(parse_tiles(text), okey_for(parse_tile(indicator)), rules)


def test_pairs_opening_counts_pairs_of_identical_tiles():
    pairs = _pairs("R1 R1 Y2 Y2 B3 B3 K4 K4 R5 R5 Y9 K11 B12", "B7")
    assert pairs.count == 5 == OPENING_PAIRS
    assert pairs.opens
    assert pairs.arrangement.notation() == "R1 R1 | R5 R5 | Y2 Y2 | B3 B3 | K4 K4"
    okey = parse_tile("B8")
    assert all(is_pair([p.tile for p in m.tiles], okey) for m in pairs.arrangement.melds)


def test_four_pairs_do_not_open():
    pairs = _pairs("R1 R1 Y2 Y2 B3 B3 K4 K4 R5 Y9 K11 B12", "B7")
    assert pairs.count == 4
    assert not pairs.opens


def test_an_okey_completes_a_pair_with_a_single_tile():
    # Okey B8: it pairs with the lowest single, R5.
    pairs = _pairs("R1 R1 Y2 Y2 B3 B3 K4 K4 R5 Y9 B8", "B7")
    assert pairs.count == 5
    assert "R5 OK=R5" in pairs.arrangement.notation()


def test_an_okey_never_doubles_a_face_already_paired():
    # R1 R1 and two okeys are not two pairs of R1: the okeys pair each other.
    assert _pairs("R1 R1 B8 B8", "B7").count == 2
    assert _pairs("R1 R1 B8 B8", "B7", OKEY_101.with_overrides(wild_pairs=False)).count == 1


def test_the_two_okeys_pair_each_other_only_where_wild_pairs_allows():
    with_option = _pairs("R3 R3 B8 B8", "B7")
    assert with_option.count == 2
    assert with_option.arrangement.notation() == "R3 R3 | OK=B8 OK=B8"
    without = _pairs("R3 R3 B8 B8", "B7", OKEY_101.with_overrides(wild_pairs=False))
    assert without.count == 1


def test_false_jokers_pair_as_the_okey_s_face():
    pairs = _pairs("F F R3", "B7")  # okey B8
    assert pairs.arrangement.notation() == "F=B8 F=B8"
    assert pairs.count == 1


def test_pairs_count_agrees_with_a_plain_count_on_random_racks():
    for tiles, okey in RANDOM[:100]:
        pairs = best_pairs_opening(tiles, okey)
        for meld in pairs.arrangement.melds:
            assert is_pair([p.tile for p in meld.tiles], okey)
        faces = [p.stands_for.face for m in pairs.arrangement.melds for p in m.tiles]
        assert len(set(faces)) == pairs.count, "no two pairs show one face"
        held = Counter(
            okey.face if t.is_false_joker else t.face for t in tiles if not t.same_face(okey)
        )
        wilds = sum(t.same_face(okey) for t in tiles)
        singles = sum(1 for n in held.values() if n == 1)
        expected = sum(1 for n in held.values() if n == 2) + min(wilds, singles)
        expected += wilds - min(wilds, singles) == 2
        assert pairs.count == expected
        assert pairs.opens == (expected >= OPENING_PAIRS)


# --- input -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tiles", "okey", "rules", "field"),
    [
        ([], "R5", OKEY_101, "tiles"),
        ([f"R{n}" for n in range(1, 14)] + [f"Y{n}" for n in range(1, 11)], "K5", OKEY_101,
         "tiles"),
        (["R1", "R1", "R1"], "K5", OKEY_101, "tiles[2]"),
        (["R4", "R4"], "R5", OKEY_101, "tiles"),
        (["R4"], "F", OKEY_101, "okey"),
        (["R4"], "R5", Ruleset(), "ruleset.game"),
    ],
    ids=["no-tiles", "23-tiles", "three-copies", "both-indicators", "false-joker-okey", "classic"],
)
def test_impossible_racks_are_refused(tiles, okey, rules, field):
    rack = parse_tiles(" ".join(tiles))
    for ask in (best_opening, best_pairs_opening):
        with pytest.raises(InvalidInputError) as caught:
            ask(rack, parse_tile(okey), rules)
        assert caught.value.field == field


def test_both_indicators_are_accepted_where_the_indicator_may_be_drawn():
    rules = OKEY_101.with_overrides(indicator_drawable_last=True)
    assert _open("R4 R4", "R4", rules).value == 0


def test_the_101_ruleset_is_the_default():
    assert OKEY_101.game is Game.OKEY_101
    assert best_opening(parse_tiles("R1 R2 R3"), parse_tile("K5")).value == 6


# --- ties and the canonical melds ----------------------------------------------------


def test_ties_keep_the_okey_on_the_rack():
    # The set of four 5s is worth 20; the okey could stand for one of them in
    # place of the real tile (also 20) but has no other place: the answer
    # keeps the okey (fewer okeys first).
    opening = _open("R5 Y5 B5 K5 R9", "R8")
    assert opening.value == 20
    assert opening.okeys_used == 0
    assert opening.arrangement.notation() == "R5 Y5 B5 K5"
    assert format_tiles(opening.unused) == "R9"


def test_ties_lay_more_tiles():
    # With okey K9: R3 OK=R4 R5 R6 or R5 R6 OK=R7, 18 points and one okey
    # either way: the answer lays four tiles rather than three.
    opening = _open("R3 R5 R6 K9", "K8")
    assert opening.value == 18
    assert opening.arrangement.notation() == "R3 OK=R4 R5 R6"


def test_ties_are_then_decided_at_the_lowest_number_where_openings_differ():
    # The set R4 Y4 B4 or the run Y3 Y4 Y5: 12 points, no okey, three tiles
    # each. The first number where they differ is 3, where the run lays Y3.
    run = _open("Y3 Y4 Y5 R4 B4", "K9")
    assert run.value == 12
    assert run.arrangement.notation() == "Y3 Y4 Y5"
    # Three runs or three sets of the same nine tiles: at 3, the sets lay
    # their tiles in sets (sets before runs, colour by colour).
    sets = _open("R3 R4 R5 Y3 Y4 Y5 B3 B4 B5", "K9")
    assert sets.value == 36
    assert sets.arrangement.notation() == "R3 Y3 B3 | R4 Y4 B4 | R5 Y5 B5"


def test_natural_tiles_go_to_the_longest_run_okeys_to_the_others():
    opening = _open("R3 R4 R5 R5 R6 R7 R7 K9", "K8")
    assert opening.value == 43
    assert opening.arrangement.notation() == "R3 R4 R5 R6 R7 | R5 OK=R6 R7"


def test_a_run_is_only_cut_where_it_must_be():
    # Two runs over 5..7 and one going on to 9: the longest stop first.
    opening = _open("R3 R4 R5 R5 R6 R6 R7 R7 R8 R9", "K1")
    assert opening.value == sum(range(3, 10)) + 5 + 6 + 7
    assert opening.arrangement.notation() == "R3 R4 R5 R6 R7 | R5 R6 R7 R8 R9"


def test_with_12_13_1_a_fourteen_tile_run_is_cut_after_11():
    text = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1"
    wrapped = _open(text, "K1", WRAP_101)
    assert wrapped.arrangement.notation() == (
        "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 | R12 R13 R1"
    )
    assert wrapped.value == 92
    plain = _open(text, "K1")
    assert plain.value == 91
    assert format_tiles(plain.unused) == "R1"


def test_best_openings_is_both_answers_with_the_rack_checked_once():
    for tiles, okey in RANDOM[:20] + BUILT[:20]:
        assert best_openings(tiles, okey) == (
            best_opening(tiles, okey), best_pairs_opening(tiles, okey)
        )
    with pytest.raises(InvalidInputError) as caught:
        best_openings(parse_tiles("R1 R1 R1"), parse_tile("K5"))
    assert caught.value.field == "tiles[2]"
