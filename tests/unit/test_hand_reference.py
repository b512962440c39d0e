"""The fast hand engine agrees with the rulebook (okey_rules.rulebook) on random hands.

The rulebook states each rule once as a plain predicate over tiles and
searches melds naively; it is the one referee the engine is held to.
Hands come from tests/unit/strategies.py: mostly built from melds or pairs and
then perturbed (the near-winning hands where bugs hide), some plain random.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from okey_rules import rulebook
from okey_rules.ruleset import Ruleset, preset
from okey_rules.search.hand import check_hand, winning_discards
from okey_rules.search.hand_types import WinKind
from okey_rules.tiles import Tile, parse_tile, parse_tiles
from strategies import hands

RULESETS = {
    "classic": preset("classic"),
    "no-12-13-1": Ruleset(runs_13_to_1=False),
    "no-wild-pairs": Ruleset(wild_pairs=False),
    "kafa": Ruleset(kafa=True),
}
BOUNDED = settings(max_examples=300, deadline=None)


def _hand(text: str, okey: str) -> tuple[list[Tile], Tile]:
    return parse_tiles(text), parse_tile(okey)


@pytest.mark.parametrize("rules", RULESETS.values(), ids=RULESETS.keys())
@BOUNDED
@given(hand=hands(14))
@example(hand=_hand("B12 B13 B1 R4 R5 R6 R7 Y5 Y6 Y7 K8 K9 K10 K11", "K1"))
@example(hand=_hand("K5 K5 Y5 Y5 B9 B9 K13 K13 R7 R7 Y2 Y2 B11 B11", "K5"))
@example(hand=_hand("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 K5", "K5"))
def test_check_hand_agrees_with_the_rulebook(rules, hand):
    tiles, okey = hand
    verdict = check_hand(tiles, okey, rules)
    kinds = rulebook.winning_kinds(tiles, okey, rules)
    assert verdict.kinds == kinds
    assert verdict.winning == bool(kinds)
    assert verdict.kind is rulebook.best_kind(kinds)


def rulebook_discards(tiles: list[Tile], okey: Tile, rules: Ruleset) -> dict[int, WinKind]:
    """For each distinct face whose discard leaves a winning 14: the best kind it wins as."""
    found = {}
    for face in sorted({tile.face for tile in tiles}):
        rest = list(tiles)
        rest.remove(next(tile for tile in tiles if tile.face == face))
        best = rulebook.best_kind(rulebook.winning_kinds(rest, okey, rules))
        if best is not None:
            found[face] = best
    return found


@pytest.mark.parametrize("rules", RULESETS.values(), ids=RULESETS.keys())
@BOUNDED
@given(hand=hands(15))
@example(hand=_hand("R1 R2 R3 R4 Y5 Y6 Y7 Y8 B9 B10 B11 B12 K2 K3 K4", "Y13"))
@example(hand=_hand("R1 R2 R3 Y5 Y6 Y7 B9 B10 B11 B12 K2 K3 K4 K5 R9", "R9"))
# Two okeys (R1) and a false joker playing as R1 around a long red run.
@example(hand=_hand("R1 R1 R3 F R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 Y9", "R1"))
def test_winning_discards_agree_with_the_rulebook(rules, hand):
    tiles, okey = hand
    verdict = winning_discards(tiles, okey, rules)
    expected = rulebook_discards(tiles, okey, rules)
    assert {d.tile.face: d.kind for d in verdict.discards} == expected
    assert verdict.winning == bool(expected)
    assert verdict.okey_discard_wins == (okey.face in expected)
    assert [d.okey for d in verdict.discards] == [d.tile.face == okey.face
                                                  for d in verdict.discards]
