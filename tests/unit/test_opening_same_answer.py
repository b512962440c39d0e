"""BestOpening's faster search gives the answer the search had before it (docs/okey101.md).

The search now leaves out the naturals no meld can hold and the positions
no meld can reach, and takes states with no okey left in one step
(okey_rules.search.meld_reach, okey_rules.search.opening). None of that may
change an answer: the most valuable melds, then fewer okeys, more tiles and
the tie-break by numbers and colours, and the pairs. The reference is the
search as it was before (bench/opening_before.py, kept for the benchmark
and for this test only): its whole answer (arrangement, value, okeys, tiles
left, pairs) must come out again on thousands of dealt racks, under both
rulesets (12-13-1 a run or not), and on racks built from melds with okeys.

The search's exactness against the rulebook itself is tests/unit/test_opening.py's.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from okey_rules import preset
from okey_rules.dealing.deal import deal
from okey_rules.errors import InvalidInputError
from okey_rules.search.meld_reach import meld_positions, okey_positions
from okey_rules.search.opening import best_openings, check_rack
from okey_rules.tiles import FALSE_JOKER_FACE, NUMBERS, TILE_OF_CODE, okey_for, parse_tiles

BENCH = str(Path(__file__).resolve().parents[2] / "bench")
OKEY_101 = preset("101")
WRAP_101 = OKEY_101.with_overrides(runs_13_to_1=True)
COLOURS = 4
# Four racks a deal: 2,800 dealt racks under the 101 preset, 1,200 more with 12-13-1
# a run (the baseline is slower there; the suite stays within a few seconds).
DEALS = {"101": 700, "101-with-12-13-1": 300}


@pytest.fixture(scope="module")
def bench_modules():
    sys.path.insert(0, BENCH)
    try:
        import opening_before
        import opening_bench

        yield opening_before, opening_bench
    finally:
        sys.path.remove(BENCH)


def _dealt(count: int, tag: str) -> list[tuple[list, object]]:
    """Every seat's rack of `count` seeded Okey 101 deals (21 tiles, the dealer 22)."""
    racks = []
    for index in range(count):
        dealt = deal(OKEY_101, seed=f"opening-same-answer-{tag}-{index}")
        racks += [([TILE_OF_CODE[c] for c in rack], dealt.okey) for rack in dealt.racks]
    return racks


def _answer(openings) -> tuple:
    melds, pairs = openings
    return (
        melds.arrangement, melds.value, melds.opens, melds.okeys_used, melds.unused,
        pairs.arrangement, pairs.count, pairs.opens,
    )


def _same_answers(racks, rules, before) -> None:
    for tiles, okey in racks:
        expected = _answer(before.best_openings(tiles, okey, rules))
        assert _answer(best_openings(tiles, okey, rules)) == expected, (
            f"{' '.join(map(str, tiles))} okey {okey}"
        )


@pytest.mark.parametrize(
    ("rules", "deals"), [(OKEY_101, DEALS["101"]), (WRAP_101, DEALS["101-with-12-13-1"])],
    ids=list(DEALS),
)
def test_dealt_racks_get_the_same_opening_as_before(bench_modules, rules, deals):
    before, _ = bench_modules
    racks = _dealt(deals, "dealt")
    # The deals hold racks of every kind the search treats apart.
    okeys = [sum(t.face == okey.face for t in tiles) for tiles, okey in racks]
    assert {0, 1, 2} <= set(okeys)
    _same_answers(racks, rules, before)


@pytest.mark.parametrize("rules", [OKEY_101, WRAP_101], ids=["101", "101-with-12-13-1"])
def test_racks_built_from_melds_get_the_same_opening_as_before(bench_modules, rules):
    before, bench = bench_modules
    racks = bench.built_racks(150, seed=25)
    assert any(best_openings(t, o, rules)[0].okeys_used == 2 for t, o in racks)
    _same_answers(racks, rules, before)


def test_racks_around_12_13_1_get_the_same_opening_as_before(bench_modules):
    """Ones, twelves and thirteens, where ones kept back for the high position matter."""
    before, _ = bench_modules
    rng = random.Random(7)
    racks = []
    while len(racks) < 300:
        okey = okey_for(TILE_OF_CODE[rng.randrange(52)])
        pool = [c * NUMBERS + n for c in range(COLOURS) for n in (0, 1, 10, 11, 12)]
        pool = [face for face in pool if face != okey.face] * 2
        pool += [FALSE_JOKER_FACE, okey.face] * 2
        copies: dict[int, int] = {}
        tiles = []
        for face in rng.sample(pool, rng.randrange(6, 15)):
            tiles.append(TILE_OF_CODE[face + (FALSE_JOKER_FACE + 1) * copies.get(face, 0)])
            copies[face] = copies.get(face, 0) + 1
        try:
            check_rack(tiles, okey, OKEY_101)
        except InvalidInputError:
            continue  # both copies of the indicator's face
        racks.append((tiles, okey))
    for rules in (OKEY_101, WRAP_101):
        _same_answers(racks, rules, before)


# --- where melds can lie -------------------------------------------------------------


def _masks(text: str, okey_text: str, wrap: bool = False) -> tuple[tuple[int, ...], int]:
    okey = parse_tiles(okey_text)[0]
    held = [0] * COLOURS
    wilds = 0
    for tile in parse_tiles(text):
        if tile.face == okey.face:
            wilds += 1
            continue
        face = okey.face if tile.is_false_joker else tile.face
        held[face // NUMBERS] |= 1 << face % NUMBERS
    reach = meld_positions(held, wilds, wrap)
    return reach, okey_positions(reach, wilds, wrap)


def _bits(*positions: int) -> int:
    return sum(1 << (p - 1) for p in positions)


def test_a_run_needs_three_consecutive_numbers_of_a_colour_without_okeys():
    reach, near = _masks("R3 R4 R5 R9 R10 Y7", "B1")
    assert reach == (_bits(3, 4, 5), 0, 0, 0)
    assert near == _bits(3, 4, 5)


def test_a_set_needs_three_colours_of_a_number_without_okeys():
    reach, _ = _masks("R7 Y7 B7 R8 K9", "B1")
    assert reach == (_bits(7), _bits(7), _bits(7), 0)


def test_one_okey_fills_one_gap_in_three_and_reaches_one_position_further():
    reach, near = _masks("R3 R5 Y9 B9 K12 B1", "B1")
    # R3 _ R5 is a run with the okey; Y9 B9 a set with it; K12 alone is in no meld.
    assert reach == (_bits(3, 5), _bits(9), _bits(9), 0)
    assert near == _bits(2, 3, 4, 5, 6, 8, 9, 10)


def test_with_two_okeys_every_natural_fits_somewhere():
    reach, near = _masks("R3 K13 B1 B1", "B1")
    assert reach == (_bits(3), 0, 0, _bits(13))
    assert near == _bits(1, 2, 3, 4, 5, 11, 12, 13)


def test_a_false_joker_counts_as_the_okey_s_face():
    reach, _ = _masks("F R6 R7", "R5")  # okey R5: the false joker is R5
    assert reach == (_bits(5, 6, 7), 0, 0, 0)


def test_12_13_1_reaches_the_high_position_only_where_it_is_a_run():
    assert _masks("R12 R13 R1", "B5")[0] == (0, 0, 0, 0)
    reach, near = _masks("R12 R13 R1", "B5", wrap=True)
    assert reach == (_bits(12, 13) | 1 << NUMBERS, 0, 0, 0)
    assert near == _bits(12, 13) | 1 << NUMBERS


def test_every_tile_the_best_opening_lays_is_one_meld_positions_keeps(bench_modules):
    """The pruning is sound: no tile an opening lays is left out (the answers above say so
    too; this says where)."""
    for rules in (OKEY_101, WRAP_101):
        wrap = rules.runs_13_to_1
        for tiles, okey in _dealt(150, "reach"):
            melds, _ = best_openings(tiles, okey, rules)
            text = " ".join(map(str, tiles))
            reach, near = _masks(text, str(okey), wrap)
            for meld in melds.arrangement.melds:
                numbers = [placed.stands_for.number for placed in meld.tiles]
                high = wrap and numbers[-1] == 1 and len(numbers) > 1 and numbers[0] != 1
                for place, placed in enumerate(meld.tiles):
                    number = placed.stands_for.number
                    bit = NUMBERS if high and place == len(numbers) - 1 else number - 1
                    assert near >> bit & 1, (text, meld.notation())
                    if not placed.wild:
                        assert reach[placed.stands_for.face // NUMBERS] >> bit & 1
