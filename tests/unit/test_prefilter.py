"""The cheap rejection before the search (`may_split`) never refuses a hand that splits.

docs/rules.md §4.1: every tile sits in a set or a run, a wild anywhere. The filter
reasons about tiles that no wildless meld of held faces can hold ("needy"):
they must sit with a wild, and there are at most two wild melds. These tests
pin that reasoning against the rulebook's plain search and on the cases at its edges.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from okey_rules import rulebook
from okey_rules.search.hand import packed_hand
from okey_rules.search.melds import may_split, wilds_can_serve
from okey_rules.search.packed import lonely_among, needy_faces, one_wild_run_fits
from okey_rules.tiles import Tile, parse_tile, parse_tiles
from strategies import built_hands

BOUNDED = settings(max_examples=400, deadline=None)


def _packed(text: str, okey: str) -> tuple[int, int]:
    tiles = parse_tiles(text)
    return packed_hand([t.face for t in tiles], parse_tile(okey).face)


def _referee_splits(tiles: list[Tile], okey: Tile, runs_13_to_1: bool) -> bool:
    return rulebook.splits_into_melds(tiles, okey, runs_13_to_1)


@pytest.mark.parametrize("runs_13_to_1", [True, False], ids=["runs-13-to-1", "no-runs-13-to-1"])
@BOUNDED
@given(hand=st.one_of(built_hands(max_swaps=0), built_hands(max_swaps=1)))
def test_the_filter_passes_every_hand_the_referee_splits(runs_13_to_1, hand):
    tiles, okey = hand
    naturals, wilds = packed_hand([t.face for t in tiles], okey.face)
    if _referee_splits(tiles, okey, runs_13_to_1):
        assert may_split(naturals, wilds, runs_13_to_1)


@pytest.mark.parametrize("runs_13_to_1", [True, False], ids=["runs-13-to-1", "no-runs-13-to-1"])
@BOUNDED
@given(hand=built_hands(max_swaps=2))
def test_a_refused_hand_never_splits(runs_13_to_1, hand):
    tiles, okey = hand
    naturals, wilds = packed_hand([t.face for t in tiles], okey.face)
    if not may_split(naturals, wilds, runs_13_to_1):
        assert not _referee_splits(tiles, okey, runs_13_to_1)


def test_without_wilds_a_tile_outside_every_wildless_meld_refuses():
    # R1 R2 have partners but no third tile (R3 missing, no other colour's 1 or 2).
    naturals, wilds = _packed("R1 R2 Y5 Y6 Y7 B9 B10 B11 K2 K3 K4 R11 R12 R13", "B1")
    assert wilds == 0
    assert not may_split(naturals, wilds, runs_13_to_1=True)


def test_one_wild_accepts_needy_tiles_within_five_run_positions():
    # R1 R2 _ R4 R5: the wild fills R3; all four reds are needy, five positions wide.
    naturals, wilds = _packed("R1 R2 B6 R4 R5 Y7 Y8 Y9 B10 B11 B12 K3 K4 K5", "B6")
    assert wilds == 1
    assert may_split(naturals, wilds, runs_13_to_1=True)


def test_one_wild_accepts_needy_tiles_across_13_to_1():
    # R11 R12 _ R1, the wild as R13: needy 11, 12 and the high 1 span four positions.
    naturals, wilds = _packed("R11 R12 B6 R1 Y7 Y8 Y9 B10 B11 B12 K3 K4 K5 K6", "B6")
    assert may_split(naturals, wilds, runs_13_to_1=True)
    assert not may_split(naturals, wilds, runs_13_to_1=False)


def test_one_wild_refuses_needy_tiles_of_two_colours_and_two_numbers():
    # R1 R2 need R3, Y8 Y9 need Y7 or Y10: two gaps, one wild.
    naturals, wilds = _packed("R1 R2 B6 Y8 Y9 K5 K6 K7 B10 B11 B12 K9 K10 K11", "B6")
    assert not may_split(naturals, wilds, runs_13_to_1=True)


def test_one_wild_accepts_needy_tiles_of_one_number():
    # R7 Y7 plus the wild make a set.
    naturals, wilds = _packed("R7 Y7 B6 R1 R2 R3 R4 Y9 Y10 Y11 Y12 B1 B2 B3", "B6")
    # The filter passes; the search decides.
    assert may_split(naturals, wilds, runs_13_to_1=True) is True


def test_two_wilds_with_a_lonely_tile_need_every_needy_tile_in_one_colour():
    # K8 has no partner; the needy R1 R2 is another colour: both wilds cannot serve both.
    naturals, wilds = _packed("K8 B6 B6 R1 R2 Y5 Y6 Y7 B9 B10 B11 Y11 Y12 Y13", "B6")
    assert wilds == 2
    assert not may_split(naturals, wilds, runs_13_to_1=False)


def test_partnerless_marks_lonely_and_needy_faces():
    naturals, _ = _packed("R1 R2 R3 Y9 K13", "B6")
    alone, needy = partnerless(naturals, runs_13_to_1=False)
    faces = [f for f in range(52) if alone >> (3 * f) & 1]
    assert faces == [13 + 8, 39 + 12]  # Y9 and K13
    assert [f for f in range(52) if needy >> (3 * f) & 1] == faces


def _partners_by_definition(face: int, other: int, runs_13_to_1: bool) -> bool:
    """Partners: one set or run of three holds both, the third tile a wild (docs/rules.md §3)."""
    okey = Tile.from_face(next(f for f in range(52) if f % 13 not in (face % 13, other % 13)
                               and f // 13 not in (face // 13, other // 13)))
    tiles = [Tile.from_face(face), Tile.from_face(other), okey]
    return rulebook.is_meld(tiles, okey, runs_13_to_1)


@pytest.mark.parametrize("runs_13_to_1", [True, False], ids=["runs-13-to-1", "no-runs-13-to-1"])
@BOUNDED
@given(faces=st.sets(st.integers(0, 51), max_size=15), twice=st.sets(st.integers(0, 51)))
def test_lonely_faces_are_those_without_a_partner_however_many_are_needy(
    runs_13_to_1, faces, twice
):
    # Lonely faces come from a per-face partner table: it must agree with the
    # definition, however many faces are needy.
    naturals = sum((2 if f in twice else 1) << (3 * f) for f in faces)
    alone, needy = partnerless(naturals, runs_13_to_1)
    expected = {
        f for f in faces if not any(_partners_by_definition(f, g, runs_13_to_1) for g in faces)
    }
    assert {f for f in range(52) if alone >> (3 * f) & 1} == expected
    assert alone & ~needy == 0


@pytest.mark.parametrize("runs_13_to_1", [True, False], ids=["runs-13-to-1", "no-runs-13-to-1"])
@BOUNDED
@given(hand=built_hands(size=15, max_swaps=2), drop=st.integers(0, 51), wilds=st.integers(0, 2))
def test_the_wild_test_is_monotone_so_15_tiles_can_share_it(runs_13_to_1, hand, drop, wilds):
    # 15 tiles: the filter runs once on all 15 and is reused for each discard,
    # which is exact only if fewer flagged tiles never turn a pass into a refusal.
    tiles, okey = hand
    naturals, _ = packed_hand([t.face for t in tiles], okey.face)
    needy = needy_faces(naturals, runs_13_to_1)
    fewer = ~(7 << (3 * drop))
    held = naturals | naturals >> 1
    if wilds_can_serve(needy, wilds, runs_13_to_1, held, naturals):
        assert wilds_can_serve(needy & fewer, wilds, runs_13_to_1, held, naturals)
        assert wilds_can_serve(needy, wilds, runs_13_to_1, held | ~fewer, naturals)
        assert wilds_can_serve(needy, wilds, runs_13_to_1, held, naturals | 1 << (3 * drop))


def partnerless(naturals: int, runs_13_to_1: bool) -> tuple[int, int]:
    """(lonely, needy) flags of a packed hand, as the engine's tests read them."""
    needy = needy_faces(naturals, runs_13_to_1)
    return lonely_among(naturals, needy, runs_13_to_1), needy


def _numbers(*numbers: int) -> int:
    return sum(1 << (3 * (n - 1)) for n in numbers)


@pytest.mark.parametrize(
    ("needy", "held", "runs_13_to_1", "fits"),
    [((1, 2, 4, 5), (1, 2, 4, 5), False, True),     # one gap (3): the wild
     ((1, 5), (1, 5), False, False),                # three gaps, one wild
     ((1, 5), (1, 2, 4, 5), False, True),
     ((1, 6), (1, 2, 3, 4, 6), False, False),       # six positions: too long
     ((11, 12, 1), (11, 12, 1), True, True),        # 11-12-_-1, the wild as 13
     ((11, 12, 1), (11, 12, 1), False, False),
     ((10, 1), (10, 1), True, False)],              # 10-_-_-1: two gaps
)  # fmt: skip
def test_one_wild_run_needs_the_span_held_but_for_one_place(needy, held, runs_13_to_1, fits):
    assert one_wild_run_fits(_numbers(*needy), _numbers(*held), runs_13_to_1) is fits
