"""The fast hand engine agrees with the slow referee (reference.py) on random hands.

Hands come from tests/unit/strategies.py: mostly built from melds or pairs and
then perturbed (the near-winning hands where bugs hide), some plain random.
"""

from __future__ import annotations

from collections import Counter

import pytest
import reference
from hypothesis import example, given, settings
from okey_rules.hand import check_hand, winning_discards
from okey_rules.hand_types import WinKind
from okey_rules.ruleset import Ruleset, preset
from okey_rules.tiles import Tile, parse_tile, parse_tiles
from strategies import hands

RULESETS = {
    "classic": preset("classic"),
    "no-wrap": Ruleset(runs_13_to_1=False),
    "no-wild-pairs": Ruleset(wild_pairs=False),
    "kafa": Ruleset(kafa=True),
}
BOUNDED = settings(max_examples=300, deadline=None)


def _kafa(naturals: tuple[int, ...]) -> bool:
    """One colour 1..13 and a second 1, wilds standing in (seed 003); written from the rule."""
    for colour in range(4):
        needed = Counter([colour * 13, *range(colour * 13, colour * 13 + 13)])
        if not Counter(naturals) - needed:
            return True
    return False


def referee_kinds(faces: list[int], okey_face: int, rules: Ruleset) -> tuple[WinKind, ...]:
    """The ways the referee finds the hand winning, in enum order (MELDS, SEVEN_PAIRS, KAFA)."""
    naturals, wilds = reference.play_faces(faces, okey_face)
    kinds = []
    if reference.splits_into_melds(naturals, wilds, rules.runs_13_to_1):
        kinds.append(WinKind.MELDS)
    if reference.seven_pairs(naturals, wilds, rules.wild_pairs):
        kinds.append(WinKind.SEVEN_PAIRS)
    if rules.kafa and _kafa(naturals):
        kinds.append(WinKind.KAFA)
    return tuple(kinds)


def _faces(tiles: list[Tile]) -> list[int]:
    return [t.face for t in tiles]


def _hand(text: str, okey: str) -> tuple[list[Tile], Tile]:
    return parse_tiles(text), parse_tile(okey)


@pytest.mark.parametrize("rules", RULESETS.values(), ids=RULESETS.keys())
@BOUNDED
@given(hand=hands(14))
@example(hand=_hand("B12 B13 B1 R4 R5 R6 R7 Y5 Y6 Y7 K8 K9 K10 K11", "K1"))
@example(hand=_hand("K5 K5 Y5 Y5 B9 B9 K13 K13 R7 R7 Y2 Y2 B11 B11", "K5"))
@example(hand=_hand("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 K5", "K5"))
def test_check_hand_agrees_with_the_reference(rules, hand):
    tiles, okey = hand
    verdict = check_hand(tiles, okey, rules)
    kinds = referee_kinds(_faces(tiles), okey.face, rules)
    plain = reference.wins(_faces(tiles), okey.face, rules.runs_13_to_1, rules.wild_pairs)
    assert verdict.winning == (plain or WinKind.KAFA in kinds)
    assert verdict.kinds == kinds


def referee_discards(faces: list[int], okey_face: int, rules: Ruleset) -> dict[int, WinKind]:
    """For each distinct face whose discard leaves a winning 14: the best kind it wins as."""
    found = {}
    for face in sorted(set(faces)):
        rest = list(faces)
        rest.remove(face)
        kinds = referee_kinds(rest, okey_face, rules)
        for best in (WinKind.KAFA, WinKind.SEVEN_PAIRS, WinKind.MELDS):
            if best in kinds:
                found[face] = best
                break
    return found


@pytest.mark.parametrize("rules", RULESETS.values(), ids=RULESETS.keys())
@BOUNDED
@given(hand=hands(15))
@example(hand=_hand("R1 R2 R3 R4 Y5 Y6 Y7 Y8 B9 B10 B11 B12 K2 K3 K4", "Y13"))
@example(hand=_hand("R1 R2 R3 Y5 Y6 Y7 B9 B10 B11 B12 K2 K3 K4 K5 R9", "R9"))
# Two okeys (R1) and a false joker playing as R1 around a long red run.
@example(hand=_hand("R1 R1 R3 F R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 Y9", "R1"))
def test_winning_discards_agree_with_the_reference(rules, hand):
    tiles, okey = hand
    verdict = winning_discards(tiles, okey, rules)
    expected = referee_discards(_faces(tiles), okey.face, rules)
    assert {d.tile.face: d.kind for d in verdict.discards} == expected
    assert verdict.winning == bool(expected)
    assert verdict.okey_discard_wins == (okey.face in expected)
    assert [d.okey for d in verdict.discards] == [d.tile.face == okey.face
                                                  for d in verdict.discards]
