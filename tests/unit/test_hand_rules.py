"""check_hand pinned rule by rule (docs/rules.md §2-4): every row a 14-tile hand in notation.

Each row names the rule it pins; its expected kinds are written from the rules,
and `test_every_table_row_agrees_with_the_rulebook` re-checks each row with the
plain predicates of okey_rules.rulebook, so a row cannot quietly be wrong.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from okey_rules import rulebook
from okey_rules.errors import InvalidInputError
from okey_rules.ruleset import Ruleset, preset
from okey_rules.search.hand import check_hand, winning_discards
from okey_rules.search.hand_types import MeldKind, WinKind
from okey_rules.tiles import Tile, check_tile_multiset, okey_for, parse_tile, parse_tiles

CLASSIC = preset("classic")
RULESETS = {
    "classic": CLASSIC,
    "101": preset("101"),
    "no-12-13-1": Ruleset(runs_13_to_1=False),
    "no-wild-pairs": Ruleset(wild_pairs=False),
    "kafa": Ruleset(kafa=True),
    "kafa-no-12-13-1": Ruleset(kafa=True, runs_13_to_1=False),
}
M, P, K = WinKind.MELDS, WinKind.SEVEN_PAIRS, WinKind.KAFA
LOSES: tuple[WinKind, ...] = ()


def row(name: str, hand: str, okey: str, kinds: tuple[WinKind, ...], rules: str = "classic"):
    return pytest.param(hand, okey, kinds, rules, id=name)


# Okey R5 (indicator R4) unless a row says otherwise; "R5" in a hand is then a wild.
TABLE = [
    # --- Sets: 3 or 4 of one number, all colours different (§3).
    row("set-of-3-distinct-colours", "R7 Y7 B7 R1 R2 R3 R4 Y10 Y11 Y12 Y13 K4 K5 K6", "B11", (M,)),
    row("set-of-4-all-colours", "R7 Y7 B7 K7 R1 R2 R3 Y10 Y11 Y12 Y13 K3 K4 K5", "B11", (M,)),
    row("set-repeated-colour-fails", "R7 R7 B7 R1 R2 R3 R4 Y10 Y11 Y12 Y13 K4 K5 K6", "B11",
        LOSES),
    row("set-of-2-fails", "R7 B7 R1 R2 R3 R4 Y10 Y11 Y12 Y13 K3 K4 K5 K6", "B11", LOSES),
    row("set-numbers-must-match", "R7 Y8 B7 R1 R2 R3 R4 Y10 Y11 Y12 Y13 K4 K5 K6", "B11",
        LOSES),
    row("two-sets-of-one-number", "R7 Y7 B7 R7 Y7 K7 R1 R2 R3 R4 K10 K11 K12 K13", "B11", (M,)),
    # --- Runs: 3+ consecutive of one colour; 1 low or high after 13, never both (§3).
    row("run-1-2-3", "R1 R2 R3 Y5 Y6 Y7 Y8 B9 B10 B11 K2 K3 K4 K5", "B13", (M,)),
    row("run-12-13-1", "B12 B13 B1 R4 R5 R6 R7 Y5 Y6 Y7 K8 K9 K10 K11", "K1", (M,)),
    row("run-11-12-13-1", "B11 B12 B13 B1 R4 R5 R6 Y5 Y6 Y7 K8 K9 K10 K11", "K1", (M,)),
    row("run-13-1-2-fails", "B13 B1 B2 R4 R5 R6 R7 Y5 Y6 Y7 K8 K9 K10 K11", "K1", LOSES),
    row("run-12-13-1-2-fails", "B12 B13 B1 B2 R4 R5 R6 Y5 Y6 Y7 K8 K9 K10 K11", "K1", LOSES),
    row("run-long-1-to-11", "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y10 Y11 R5 B5 K5", "K1", (M,)),
    row("run-long-4-to-13-1", "Y4 Y5 Y6 Y7 Y8 Y9 Y10 Y11 Y12 Y13 Y1 R2 B2 K2", "K1", (M,)),
    row("run-1-to-13-with-okey", "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 K5", "K5", (M,)),
    row("run-mixed-colours-fails", "R1 Y2 R3 Y5 Y6 Y7 Y8 B9 B10 B11 K2 K3 K4 K5", "B13", LOSES),
    row("run-with-gap-fails", "R1 R2 R4 Y5 Y6 Y7 Y8 B9 B10 B11 K2 K3 K4 K5", "B13", LOSES),
    row("run-of-2-fails", "R1 R2 Y5 Y6 Y7 Y8 B9 B10 B11 K2 K3 K4 K5 K9", "B13", LOSES),
    # --- No 12-13-1 in Okey 101 or with runs_13_to_1 off (docs/rules.md §3.2).
    row("101-run-12-13-1-fails", "B12 B13 B1 R4 R5 R6 R7 Y5 Y6 Y7 K8 K9 K10 K11", "K1", LOSES,
        "101"),
    row("run-12-13-1-fails-when-off", "B12 B13 B1 R4 R5 R6 R7 Y5 Y6 Y7 K8 K9 K10 K11", "K1",
        LOSES, "no-12-13-1"),
    row("101-run-11-12-13", "B11 B12 B13 R4 R5 R6 R7 Y5 Y6 Y7 K8 K9 K10 K11", "K1", (M,), "101"),
    row("101-run-1-2-3", "R1 R2 R3 Y5 Y6 Y7 Y8 B9 B10 B11 K2 K3 K4 K5", "B13", (M,), "101"),
    row("101-okey-after-12-13", "B12 B13 R5 R1 R2 R3 Y5 Y6 Y7 K8 K9 K10 K11 K12", "R5", (M,),
        "101"),
    # --- Wilds: the two okey tiles stand for any tile, their own face too (§2).
    row("wild-as-itself-in-run", "R4 R5 R6 Y1 Y2 Y3 Y4 B9 B10 B11 K6 K7 K8 K9", "R5", (M,)),
    row("wild-as-itself-in-set", "R5 Y5 B5 Y1 Y2 Y3 Y4 B9 B10 B11 K6 K7 K8 K9", "R5", (M,)),
    row("wild-completes-set", "B9 K9 R5 R1 R2 R3 Y10 Y11 Y12 Y13 K2 K3 K4 K5", "R5", (M,)),
    row("wild-completes-4-set", "Y8 B8 K8 R5 R1 R2 R3 Y10 Y11 Y12 B1 B2 B3 B4", "R5", (M,)),
    row("wild-at-run-start", "R5 B12 B13 R1 R2 R3 Y5 Y6 Y7 K8 K9 K10 K11 K12", "R5", (M,)),
    row("wild-at-run-end", "B1 B2 R5 R1 R2 R3 Y5 Y6 Y7 K8 K9 K10 K11 K12", "R5", (M,)),
    row("wild-in-run-middle", "B4 R5 B6 Y1 Y2 Y3 Y4 K10 K11 K12 R8 R9 R10 R11", "R5", (M,)),
    row("two-wilds-in-one-run", "B4 R5 R5 B7 Y1 Y2 Y3 Y4 K10 K11 K12 R8 R9 R10", "R5", (M,)),
    row("two-wilds-in-one-set", "B9 R5 R5 Y1 Y2 Y3 Y4 K10 K11 K12 R8 R9 R10 R11", "R5", (M,)),
    row("two-wilds-in-two-melds", "B9 Y9 R5 B4 R5 B6 Y1 Y2 Y3 Y4 K10 K11 K12 K13", "R5", (M,)),
    row("one-wild-cannot-fix-two-strays", "R1 R2 R3 Y5 Y6 Y7 Y8 B9 B10 B11 K2 K3 K7 R5",
        "R5", LOSES),
    row("wild-needs-a-meld", "R1 R2 R3 Y5 Y6 Y7 Y8 B9 B10 B11 K2 K3 K4 K9", "R5", LOSES),
    # --- False jokers: not wild, they play as the okey's face (§2).
    row("false-joker-as-okey-face-in-set", "F Y5 B5 R1 R2 R3 Y10 Y11 Y12 Y13 K2 K3 K4 K5", "R5",
        (M,)),
    row("false-joker-as-okey-face-in-run", "R4 F R6 Y1 Y2 Y3 Y4 B9 B10 B11 K6 K7 K8 K9", "R5",
        (M,)),
    row("false-joker-is-not-wild", "F Y9 B9 R1 R2 R3 Y11 Y12 Y13 K2 K3 K4 K5 K6", "R5", LOSES),
    row("false-jokers-are-one-face-not-wild", "F F R5 Y1 Y2 Y3 Y4 B9 B10 B11 K6 K7 K8 K9",
        "R5", LOSES),
    row("false-joker-and-wilds-around", "R3 F R5 R5 Y1 Y2 Y3 B9 B10 B11 K6 K7 K8 K9", "R5", (M,)),
    row("false-joker-is-1-when-indicator-13", "F K2 K3 R1 R2 R3 Y5 Y6 Y7 Y8 B9 B10 B11 B12",
        "K1", (M,)),
    row("false-joker-as-high-1-after-12-13", "K12 K13 F R1 R2 R3 Y5 Y6 Y7 Y8 B9 B10 B11 B12",
        "K1", (M,)),
    row("101-false-joker-not-1-after-13", "K12 K13 F R1 R2 R3 Y5 Y6 Y7 Y8 B9 B10 B11 B12",
        "K1", LOSES, "101"),
    # --- Seven pairs: exactly 7 pairs of identical tiles, never mixed with melds (§3).
    row("seven-pairs", "R1 R1 Y5 Y5 B9 B9 K13 K13 R7 R7 Y2 Y2 B11 B11", "K5", (P,)),
    row("seven-pairs-colours-must-match", "R1 Y1 Y5 Y5 B9 B9 K13 K13 R7 R7 Y2 Y2 B11 B11", "K5",
        LOSES),
    row("seven-pairs-wild-with-lone-tile", "R1 K5 Y5 Y5 B9 B9 K13 K13 R7 R7 Y2 Y2 B11 B11",
        "K5", (P,)),
    row("seven-pairs-two-wilds-with-two-lone", "R1 K5 Y5 K5 B9 B9 K13 K13 R7 R7 Y2 Y2 B11 B11",
        "K5", (P,)),
    row("seven-pairs-wild-pair-allowed", "K5 K5 Y5 Y5 B9 B9 K13 K13 R7 R7 Y2 Y2 B11 B11", "K5",
        (P,)),
    row("seven-pairs-wild-pair-off", "K5 K5 Y5 Y5 B9 B9 K13 K13 R7 R7 Y2 Y2 B11 B11", "K5",
        LOSES, "no-wild-pairs"),
    row("seven-pairs-wild-pair-off-lone-tiles-ok", "R1 K5 Y5 K5 B9 B9 K13 K13 R7 R7 Y2 Y2 B11 B11",
        "K5", (P,), "no-wild-pairs"),
    row("seven-pairs-false-jokers-pair", "F F Y5 Y5 B9 B9 K13 K13 R7 R7 Y2 Y2 B11 B11", "K5",
        (P,)),
    row("seven-pairs-false-joker-with-wild", "F K5 Y5 Y5 B9 B9 K13 K13 R7 R7 Y2 Y2 B11 B11",
        "K5", (P,)),
    row("seven-pairs-false-joker-is-okey-face", "F K4 Y5 Y5 B9 B9 K13 K13 R7 R7 Y2 Y2 B11 B11",
        "K5", LOSES),
    row("seven-pairs-wilds-cannot-double-a-pair",
        "R1 R1 K5 K5 B9 B9 K13 K13 R7 R7 Y2 Y2 B11 B11", "K5", LOSES, "no-wild-pairs"),
    row("seven-pairs-wilds-cannot-double-false-jokers",
        "F F K5 K5 B9 B9 K13 K13 R7 R7 Y2 Y2 B11 B11", "K5", LOSES, "no-wild-pairs"),
    row("pairs-and-melds-never-mix", "R1 R1 Y5 Y5 B9 B9 K13 K13 R2 R3 R4 Y10 Y11 Y12", "K5",
        LOSES),
    row("six-pairs-loses", "R1 R1 Y5 Y5 B9 B9 K13 K13 R7 R7 Y2 Y2 B11 B12", "K5", LOSES),
    row("pairs-that-are-also-melds", "R1 R1 R2 R2 R3 R3 R4 R4 Y4 Y4 Y5 Y5 Y6 Y6", "K5", (M, P)),
    # --- Kafa (option, from the okey.gg rules text): one colour 1..13 plus a second 1.
    row("kafa", "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1", "K5", (M, K), "kafa"),
    row("kafa-off-is-melds", "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1", "K5", (M,)),
    row("kafa-with-wild", "R1 R2 R3 R4 K5 R6 R7 R8 R9 R10 R11 R12 R13 R1", "K5", (M, K), "kafa"),
    row("kafa-wild-for-second-1", "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 K5", "K5", (M, K),
        "kafa"),
    row("kafa-false-joker-as-okey-face", "Y1 Y2 Y3 Y4 F Y6 Y7 Y8 Y9 Y10 Y11 Y12 Y13 Y1", "Y5",
        (M, K), "kafa"),
    row("kafa-needs-the-second-1", "B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13 B13", "K5", LOSES,
        "kafa"),
    row("kafa-one-colour-only", "B1 B2 B3 B4 B5 B6 B7 B8 B9 B10 B11 B12 B13 R1", "K5", LOSES,
        "kafa"),
    row("kafa-without-12-13-1-still-kafa", "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1", "K5",
        (K,), "kafa-no-12-13-1"),
]


def _verdict(hand: str, okey: str, rules: str):
    return check_hand(parse_tiles(hand), parse_tile(okey), RULESETS[rules])


def _best(kinds: tuple[WinKind, ...]) -> WinKind | None:
    for kind in (K, P, M):
        if kind in kinds:
            return kind
    return None


@pytest.mark.parametrize(("hand", "okey", "kinds", "rules"), TABLE)
def test_hand_rule(hand, okey, kinds, rules):
    verdict = _verdict(hand, okey, rules)
    assert verdict.kinds == kinds
    assert verdict.winning == bool(kinds)
    # The kind is the best-scoring way it wins: kafa, then seven pairs, then melds.
    assert verdict.kind == _best(kinds)
    assert (verdict.arrangement is None) == (not kinds)


@pytest.mark.parametrize(("hand", "okey", "kinds", "rules"), TABLE)
def test_every_table_row_agrees_with_the_rulebook(hand, okey, kinds, rules):
    assert len(parse_tiles(hand)) == 14
    assert rulebook.winning_kinds(parse_tiles(hand), parse_tile(okey), RULESETS[rules]) == kinds


@pytest.mark.parametrize(
    ("hand", "okey", "kind"),
    [
        ("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1", "K5", K),
        ("R1 R1 R2 R2 R3 R3 R4 R4 Y4 Y4 Y5 Y5 Y6 Y6", "K5", P),
    ],
    ids=["kafa-beats-melds", "seven-pairs-beat-melds"],
)
def test_kind_is_the_best_scoring_arrangement_is_of_that_kind(hand, okey, kind):
    verdict = check_hand(parse_tiles(hand), parse_tile(okey), Ruleset(kafa=True))
    assert verdict.kind is kind
    assert verdict.kinds == tuple(k for k in WinKind if k in verdict.kinds)  # enum order
    assert verdict.arrangement is not None
    meld_kinds = {m.kind for m in verdict.arrangement.melds}
    assert meld_kinds == ({MeldKind.PAIR} if kind is P else {MeldKind.RUN})


def test_summary_says_winning_and_how():
    verdict = _verdict("R1 R1 Y5 Y5 B9 B9 K13 K13 R7 R7 Y2 Y2 B11 B11", "K5", "classic")
    assert "seven pairs" in verdict.summary
    losing = _verdict("R1 R2 R4 Y5 Y6 Y7 Y8 B9 B10 B11 K2 K3 K4 K5", "B13", "classic")
    assert "not winning" in losing.summary


def test_okey_1_from_indicator_13_makes_false_joker_a_1():
    okey = okey_for(parse_tile("K13"))
    hand = parse_tiles("F K2 K3 R1 R2 R3 Y5 Y6 Y7 Y8 B9 B10 B11 B12")
    verdict = check_hand(hand, okey)
    assert verdict.winning
    assert verdict.arrangement is not None
    assert "F=K1 K2 K3" in verdict.arrangement.notation()


@pytest.mark.parametrize(
    ("hand", "okey", "rules", "shown"),
    [
        ("R5 B12 B13 R1 R2 R3 Y5 Y6 Y7 K8 K9 K10 K11 K12", "R5", "101", "OK=B11 B12 B13"),
        ("B4 R5 B6 Y1 Y2 Y3 Y4 K10 K11 K12 R8 R9 R10 R11", "R5", "classic", "B4 OK=B5 B6"),
        ("B1 B2 R5 R1 R2 R3 Y5 Y6 Y7 K8 K9 K10 K11 K12", "R5", "classic", "B1 B2 OK=B3"),
        ("F Y5 B5 R1 R2 R3 Y10 Y11 Y12 Y13 K2 K3 K4 K5", "R5", "classic", "F=R5 Y5 B5"),
    ],
    ids=["101-okey-after-12-13-is-11", "wild-fills-the-gap", "wild-after-1-2-is-3",
         "false-joker-shown-as-okey-face"],
)
def test_arrangement_shows_what_a_forced_wild_or_false_joker_stands_for(hand, okey, rules, shown):
    verdict = _verdict(hand, okey, rules)
    assert verdict.arrangement is not None
    assert shown in verdict.arrangement.notation().split(" | ")


def _meld_faces(verdict) -> list[tuple[MeldKind, tuple[int, ...], tuple[bool, ...]]]:
    return [
        (m.kind, tuple(p.stands_for.face for p in m.tiles), tuple(p.wild for p in m.tiles))
        for m in verdict.arrangement.melds
    ]


@pytest.mark.parametrize(("hand", "okey", "kinds", "rules"), [r for r in TABLE if r.values[2]])
def test_shuffled_hand_gets_the_same_verdict_and_arrangement_notation(hand, okey, kinds, rules):
    # Deterministic (issue 2): the arrangement depends on the tiles, not their order.
    first = _verdict(hand, okey, rules)
    tiles = parse_tiles(hand)
    for seed in range(5):
        shuffled = list(tiles)
        random.Random(seed).shuffle(shuffled)
        again = check_hand(shuffled, parse_tile(okey), RULESETS[rules])
        assert (again.kind, again.kinds) == (first.kind, first.kinds)
        assert again.arrangement is not None
        assert first.arrangement is not None
        assert again.arrangement.notation() == first.arrangement.notation()
        assert _meld_faces(again) == _meld_faces(first)
        # Copy indexes are ignored, so the arrangement is equal tile for tile too.
        assert again.arrangement == first.arrangement


def test_arrangement_ignores_the_copy_indexes_given():
    hand = parse_tiles("R1 R1 R2 R2 R3 R3 Y4 Y5 Y6 B9 K9 R9 K11 K11")
    swapped = [Tile.from_face(t.face, 1 - t.copy) if t.face in (0, 1, 2) else t for t in hand]
    first = check_hand(hand, parse_tile("K11"))
    again = check_hand(swapped, parse_tile("K11"))
    assert first.winning
    assert again.arrangement == first.arrangement


@pytest.mark.parametrize("hand", ["R1 R2 R3 R4 Y5 Y6 Y7 Y8 B9 B10 B11 K2 K3",
                                  "R1 R2 R3 R4 Y5 Y6 Y7 Y8 B9 B10 B11 K2 K3 K4 K5 K6", ""],
                         ids=["13-tiles", "16-tiles", "no-tiles"])
def test_check_hand_wants_exactly_14_tiles(hand):
    with pytest.raises(InvalidInputError) as caught:
        check_hand(parse_tiles(hand), parse_tile("R5"))
    assert caught.value.field == "tiles"


def test_check_hand_15_tiles_is_invalid_too():
    with pytest.raises(InvalidInputError) as caught:
        check_hand(parse_tiles("R1 R2 R3 R4 Y5 Y6 Y7 Y8 B9 B10 B11 K2 K3 K4 K5"), parse_tile("R5"))
    assert caught.value.field == "tiles"


@pytest.mark.parametrize("size", [14, 16])
def test_winning_discards_wants_exactly_15_tiles(size):
    hand = parse_tiles("R1 R2 R3 R4 Y5 Y6 Y7 Y8 B9 B10 B11 K2 K3 K4 K5 K6")[:size]
    with pytest.raises(InvalidInputError) as caught:
        winning_discards(hand, parse_tile("R5"))
    assert caught.value.field == "tiles"


@pytest.mark.parametrize("check", [check_hand, winning_discards], ids=["14", "15"])
def test_false_joker_cannot_be_the_okey(check):
    hand = parse_tiles("R1 R2 R3 R4 Y5 Y6 Y7 Y8 B9 B10 B11 K2 K3 K4 K5")
    hand = hand[:14] if check is check_hand else hand
    with pytest.raises(InvalidInputError) as caught:
        check(hand, Tile.false_joker())
    assert caught.value.field == "okey"


@pytest.mark.parametrize(
    ("hand", "field"),
    [
        ("R7 R7 R7 R1 R2 R3 Y5 Y6 Y7 Y8 B9 B10 B11 B12", "tiles[2]"),
        ("F F R1 R2 R3 Y5 Y6 Y7 Y8 B9 B10 F B11 B12", "tiles[11]"),
    ],
    ids=["third-copy", "third-false-joker"],
)
def test_check_hand_refuses_tiles_the_set_cannot_hold(hand, field):
    with pytest.raises(InvalidInputError) as caught:
        check_hand(parse_tiles(hand), parse_tile("K5"))
    assert caught.value.field == field


def test_okey_copy_does_not_matter():
    hand = parse_tiles("B9 K9 R5 R1 R2 R3 Y10 Y11 Y12 Y13 K2 K3 K4 K5")
    assert check_hand(hand, Tile.from_face(4, 1)) == check_hand(hand, Tile.from_face(4, 0))


def test_a_cleared_search_table_still_answers_rules_3():
    # docs/rules.md §3-4 answers must not depend on the search table's state: with
    # --workers > 1 one thread may read a table another has just cleared.
    from okey_rules.search import melds

    hand = parse_tiles("R1 R2 R3 Y5 Y6 Y7 Y8 B9 B10 B11 K1 K2 K3 K4")
    okey = parse_tile("B5")
    for table in (*melds._choices, *melds._skips):
        table.clear()
    assert check_hand(hand, okey).winning
    assert winning_discards([*hand, parse_tile("R9")], okey).discards[0].tile == parse_tile("R9")


# Faces crowded onto a few values (and the false joker, 52), so that three or
# more copies, even eight or more (a packed field overflowing), come up often.
_crowded_hands = st.lists(
    st.sampled_from([0, 1, 12, 13, 25, 51, 52]), min_size=14, max_size=15
).map(lambda faces: [Tile.from_face(face) for face in faces])


@settings(max_examples=300, deadline=None)
@given(tiles=_crowded_hands, okey_face=st.sampled_from([0, 1, 13, 40]))
def test_only_tiles_one_set_can_hold_are_checked_rules_1(tiles, okey_face):
    # docs/rules.md §1: two copies of each tile, two false jokers. The engine's
    # packed count must refuse exactly what check_tile_multiset refuses,
    # naming the same tile, however many copies a face has. (The indicator
    # may be drawn here, so holding both its copies is no refusal: that rule,
    # §2.4, has tests of its own.)
    check = check_hand if len(tiles) == 14 else winning_discards
    try:
        check_tile_multiset(tiles)
        expected = None
    except InvalidInputError as exc:
        expected = exc.field
    try:
        check(tiles, Tile.from_face(okey_face), Ruleset(indicator_drawable_last=True))
        got = None
    except InvalidInputError as exc:
        got = exc.field
    assert got == expected


def test_search_tables_stay_bounded_and_answers_do_not_change_rules_3(monkeypatch):
    # docs/rules.md §3-4 answers must not depend on the tables' size; a long-running
    # server must not grow them without end. The bound is applied before each
    # search, so a table holds at most the limit plus one search's remainders
    # (unbounded, these 42 queries leave about a thousand).
    from okey_rules.search import melds

    queries = []
    for text in (
        "R1 R2 R3 Y5 Y6 Y7 Y8 B9 B10 B11 K1 K2 K3 K4",
        "R7 Y7 B7 K7 R8 Y8 B8 R9 R10 R11 K12 K13 K1 B1",
        "R4 R5 R6 R7 R8 Y4 B4 K4 Y11 Y12 Y13 B2 B3 B4",
    ):
        tiles = parse_tiles(text)
        queries += [(tiles, okey) for okey in tiles]  # each tile's face wild in turn

    def answers() -> list[object]:
        seen = []
        for tiles, okey in queries:
            verdict = check_hand(tiles, okey)
            discards = winning_discards([*tiles, parse_tile("K10")], okey)
            seen.append((verdict, [(d.tile, d.okey, d.kind) for d in discards.discards]))
            for table in (*melds._choices, *melds._skips):
                assert len(table) <= limit + 100
        return seen

    limit = 10**9
    unbounded = answers()
    limit = 10
    for table in (*melds._choices, *melds._skips):
        monkeypatch.setattr(table, "limit", limit)
        table.clear()
    assert answers() == unbounded
