"""winning_discards on 15 tiles: which discards leave a winning 14 (docs/rules.md §4, §4.5)."""

from __future__ import annotations

import pytest
from okey_rules.ruleset import Ruleset, preset
from okey_rules.search.hand import check_hand, winning_discards
from okey_rules.search.hand_types import WinKind
from okey_rules.tiles import format_tile, format_tiles, parse_tile, parse_tiles

RULESETS = {"classic": preset("classic"), "101": preset("101"), "kafa": Ruleset(kafa=True)}


def row(name: str, hand: str, okey: str, discards: str, okey_wins: bool, rules: str = "classic"):
    return pytest.param(hand, okey, discards, okey_wins, rules, id=name)


# Discards are listed in tile order: R, Y, B, K by number, false joker last.
TABLE = [
    row("single-stray-goes", "R1 R2 R3 Y5 Y6 Y7 B9 B10 B11 B12 K2 K3 K4 K5 R9", "Y13", "R9", False),
    row("any-end-of-a-4-run", "R1 R2 R3 R4 Y5 Y6 Y7 Y8 B9 B10 B11 B12 K2 K3 K4", "Y13",
        "R1 R4 Y5 Y8 B9 B12", False),
    row("order-is-tile-order-not-hand-order", "K2 K3 K4 B12 B9 B10 B11 Y8 Y5 Y6 Y7 R4 R1 R2 R3",
        "Y13", "R1 R4 Y5 Y8 B9 B12", False),
    row("spare-okey-discard-is-the-double", "R1 R2 R3 Y5 Y6 Y7 B9 B10 B11 B12 K2 K3 K4 K5 K9",
        "K9", "R1 R2 R3 Y5 Y6 Y7 B9 B10 B11 B12 K2 K3 K4 K5 K9", True),
    row("needed-okey-is-not-a-winning-discard", "R1 R2 K9 Y5 Y6 Y7 B9 B10 B11 B12 K2 K3 K4 K5 K10",
        "K9", "K10", False),
    row("false-joker-stray-goes", "R1 R2 R3 Y5 Y6 Y7 B9 B10 B11 B12 K2 K3 K4 K5 F", "K9", "F",
        False),
    row("false-joker-plays-as-okey-face-not-stray", "R1 R2 R3 Y5 Y6 Y7 B9 B10 B11 K2 K3 K4 K5 F R9",
        "K6", "R9", False),
    row("twin-listed-once", "R1 R2 R3 R4 Y5 Y6 Y7 B9 B10 B11 K2 K3 K4 K5 R4", "K9", "R4", False),
    row("seven-pairs-after-discard", "R1 R1 Y5 Y5 B9 B9 K13 K13 R7 R7 Y2 Y2 B11 B11 K4", "R5",
        "K4", False),
    row("no-discard-wins", "R1 R3 R5 R7 R9 R11 R13 Y2 Y4 Y6 Y8 Y10 Y12 B1 B3", "K1", "", False),
    row("101-no-12-13-1-after-discard", "B12 B13 B1 R4 R5 R6 R7 Y5 Y6 Y7 K8 K9 K10 K11 R9", "K1",
        "", False, "101"),
    row("classic-12-13-1-after-discard", "B12 B13 B1 R4 R5 R6 R7 Y5 Y6 Y7 K8 K9 K10 K11 R9", "K1",
        "R9", False),
]


@pytest.mark.parametrize(("hand", "okey", "discards", "okey_wins", "rules"), TABLE)
def test_winning_discards(hand, okey, discards, okey_wins, rules):
    verdict = winning_discards(parse_tiles(hand), parse_tile(okey), RULESETS[rules])
    assert format_tiles(d.tile for d in verdict.discards) == discards
    assert verdict.winning == bool(discards)
    assert verdict.okey_discard_wins is okey_wins
    assert [d.okey for d in verdict.discards] == [d.tile.face == parse_tile(okey).face
                                                  for d in verdict.discards]


@pytest.mark.parametrize(("hand", "okey", "discards", "okey_wins", "rules"), TABLE)
def test_each_winning_discard_leaves_a_hand_check_hand_calls_winning(
    hand, okey, discards, okey_wins, rules
):
    tiles = parse_tiles(hand)
    verdict = winning_discards(tiles, parse_tile(okey), RULESETS[rules])
    winners = {d.tile.face for d in verdict.discards}
    for tile in tiles:
        rest = list(tiles)
        rest.remove(tile)
        alone = check_hand(rest, parse_tile(okey), RULESETS[rules])
        assert alone.winning == (tile.face in winners), format_tile(tile)
    for discard in verdict.discards:
        rest = list(tiles)
        rest.remove(discard.tile)
        assert discard.kind is check_hand(rest, parse_tile(okey), RULESETS[rules]).kind


@pytest.mark.parametrize(
    ("hand", "okey"),
    [
        ("R1 R2 R3 Y5 Y6 Y7 B9 B10 B11 B12 K2 K3 K4 K5 K9", "K9"),
        ("R1 R2 R3 R4 Y5 Y6 Y7 Y8 B9 B10 B11 K7 K8 F K9", "K9"),
        ("R7 Y7 B7 K7 K1 K2 K3 Y10 Y11 Y12 Y13 B1 B2 B3 R5", "R5"),
    ],
    ids=["runs-and-sets", "with-false-joker", "okey-as-itself"],
)
def test_a_spare_okey_lets_every_tile_go(hand, okey):
    # The spare okey takes the place of whatever is discarded (docs/rules.md §2).
    tiles = parse_tiles(hand)
    verdict = winning_discards(tiles, parse_tile(okey))
    assert {d.tile.face for d in verdict.discards} == {t.face for t in tiles}
    assert verdict.okey_discard_wins


def test_the_okey_discard_is_flagged_and_is_the_okey_tile():
    tiles = parse_tiles("R1 R2 R3 Y5 Y6 Y7 B9 B10 B11 B12 K2 K3 K4 K5 K9")
    verdict = winning_discards(tiles, parse_tile("K9"))
    flagged = [d for d in verdict.discards if d.okey]
    assert [format_tile(d.tile) for d in flagged] == ["K9"]
    assert flagged[0].kind is WinKind.MELDS


def test_discard_entry_holds_a_tile_of_the_hand_and_its_arrangement_shows_the_rest():
    tiles = parse_tiles("R1 R2 R3 R4 Y5 Y6 Y7 B9 B10 B11 K2 K3 K4 K5 R4")
    (discard,) = winning_discards(tiles, parse_tile("K9")).discards
    assert discard.tile in tiles
    shown = sorted(p.tile.face for m in discard.arrangement.melds for p in m.tiles)
    rest = sorted(t.face for t in tiles)
    rest.remove(discard.tile.face)
    assert shown == rest
    assert discard.arrangement is discard.arrangement  # built once, then kept


def test_summary_lists_the_discards_and_marks_the_okey():
    verdict = winning_discards(
        parse_tiles("R1 R2 R3 R4 Y5 Y6 Y7 Y8 B9 B10 B11 B12 K2 K3 K4"), parse_tile("Y13")
    )
    for name in ("R1", "R4", "Y5", "Y8", "B9", "B12"):
        assert name in verdict.summary
    double = winning_discards(
        parse_tiles("R1 R2 R3 Y5 Y6 Y7 B9 B10 B11 B12 K2 K3 K4 K5 K9"), parse_tile("K9")
    )
    assert "K9 (okey)" in double.summary


def test_summary_says_not_winning_when_no_discard_wins():
    verdict = winning_discards(
        parse_tiles("R1 R3 R5 R7 R9 R11 R13 Y2 Y4 Y6 Y8 Y10 Y12 B1 B3"), parse_tile("K1")
    )
    assert verdict.summary.startswith("not winning")
    assert verdict.discards == ()


def test_kafa_discard_kind_is_kafa():
    tiles = parse_tiles("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1 K7")
    verdict = winning_discards(tiles, parse_tile("K4"), RULESETS["kafa"])
    assert [(format_tile(d.tile), d.kind) for d in verdict.discards] == [("K7", WinKind.KAFA)]
