"""Every arrangement the engine shows is a legal split of exactly the hand (docs/rules.md §2-4).

The validator here is written from docs/rules.md alone and uses no engine helper:
it reads only the Placed/Meld fields and the tiles' colour and number. Hand
checking ignores copy indexes, so "exactly the hand" is a multiset of faces,
each face shown as its copies 0 (and 1).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from okey_rules import rulebook
from okey_rules.ruleset import Game, Ruleset, preset
from okey_rules.search.hand import check_hand, winning_discards
from okey_rules.search.hand_types import Arrangement, Meld, MeldKind, Placed, WinKind
from okey_rules.tiles import Tile, okey_for, parse_tile, parse_tiles
from strategies import built_hands

CONFORMANCE = Path(__file__).resolve().parents[1] / "conformance"
RULESETS = [
    Ruleset(),
    Ruleset(runs_13_to_1=False),
    Ruleset(wild_pairs=False),
    Ruleset(kafa=True),
]
RULESET_IDS = ["classic", "no-12-13-1", "no-wild-pairs", "kafa"]
LETTER = {None: "F", 0: "R", 1: "Y", 2: "B", 3: "K"}
# Protobuf JSON names in the vectors, mapped here without the server's converters.
COLOURS = ["COLOR_RED", "COLOR_YELLOW", "COLOR_BLUE", "COLOR_BLACK"]
GAMES = {"GAME_CLASSIC": Game.CLASSIC, "GAME_OKEY_101": Game.OKEY_101}
OPTIONS = {
    "wildPairs": "wild_pairs",
    "kafa": "kafa",
    "runs13To1": "runs_13_to_1",
    "indicatorDrawableLast": "indicator_drawable_last",
}


def _name(tile: Tile) -> str:
    return "F" if tile.color is None else f"{LETTER[int(tile.color)]}{tile.number}"


def _same_face(a: Tile, b: Tile) -> bool:
    return (a.color, a.number) == (b.color, b.number)


def _check_placed(placed: Placed, okey: Tile) -> None:
    tile, stands_for, wild = placed
    assert stands_for.color is not None, f"{placed}: a tile never plays as a false joker"
    if _same_face(tile, okey):
        assert wild, f"{placed}: an okey tile is wild"
    elif tile.color is None:
        assert not wild, f"{placed}: a false joker is not wild"
        assert _same_face(stands_for, okey), f"{placed}: a false joker plays as the okey's face"
    else:
        assert not wild, f"{placed}: a plain tile is not wild"
        assert _same_face(stands_for, tile), f"{placed}: a plain tile plays as itself"


def _check_set(faces: list[Tile]) -> None:
    assert 3 <= len(faces) <= 4, "a set has 3 or 4 tiles"
    assert len({t.number for t in faces}) == 1, "a set is one number"
    assert len({t.color for t in faces}) == len(faces), "a set never repeats a colour"


def _check_run(faces: list[Tile], runs_13_to_1: bool) -> None:
    assert len(faces) >= 3, "a run has 3 or more tiles"
    assert len({t.color for t in faces}) == 1, "a run is one colour"
    # Shown low to high, as one of the runs the rulebook lists (docs/rules.md §3.2).
    numbers = tuple(t.number for t in faces)
    assert numbers in rulebook.run_numbers(len(faces), runs_13_to_1), "a run, low to high"


def _check_melds(arrangement: Arrangement, kind: WinKind, rules: Ruleset) -> None:
    melds = arrangement.melds
    if kind is WinKind.SEVEN_PAIRS:
        assert len(melds) == 7, "exactly seven pairs"
        assert all(m.kind is MeldKind.PAIR for m in melds), "pairs and melds never mix"
        shown = [(m.tiles[0].stands_for.color, m.tiles[0].stands_for.number) for m in melds]
        assert len(set(shown)) == 7, "each face in one pair at most"
        wild_pairs = [m for m in melds if all(p.wild for p in m.tiles)]
        assert not wild_pairs or rules.wild_pairs, "two wilds pair only with wild_pairs"
    else:
        assert all(m.kind in (MeldKind.SET, MeldKind.RUN) for m in melds)
    for meld in melds:
        faces = [p.stands_for for p in meld.tiles]
        if meld.kind is MeldKind.PAIR:
            assert len(faces) == 2, "a pair is two tiles"
            assert _same_face(*faces), "a pair is two identical tiles"
        elif meld.kind is MeldKind.SET:
            _check_set(faces)
        else:
            # A kafa is shown as its runs, 4..13-1 included, whatever runs_13_to_1 says.
            _check_run(faces, rules.runs_13_to_1 or kind is WinKind.KAFA)
    if kind is WinKind.KAFA:
        shown = sorted(p.stands_for.number for m in melds for p in m.tiles)
        assert shown == [1, *range(1, 14)], "kafa: 1..13 and a second 1"
        assert len({p.stands_for.color for m in melds for p in m.tiles}) == 1


def _order_key(meld: Meld) -> list[tuple[int, int]]:
    return [(int(p.stands_for.color), p.stands_for.number) for p in meld.tiles]  # type: ignore[arg-type]


def validate(hand: list[Tile], okey: Tile, kind: WinKind, arrangement: Arrangement,
             rules: Ruleset) -> None:
    placed = [p for m in arrangement.melds for p in m.tiles]
    held = Counter((t.color, t.number) for t in hand)
    shown = Counter((p.tile.color, p.tile.number) for p in placed)
    assert shown == held, "the melds hold exactly the hand's tiles"
    # Hand checking ignores copy indexes: a face shown twice is shown as both copies.
    copies = Counter((p.tile.color, p.tile.number, p.tile.copy) for p in placed)
    assert all(copies[(*face, copy)] == 1 for face, n in held.items() for copy in range(n))
    for p in placed:
        _check_placed(p, okey)
    _check_melds(arrangement, kind, rules)
    keys = [_order_key(m) for m in arrangement.melds]
    assert keys == sorted(keys), "melds in canonical order, by the faces they show"


def _notation(arrangement: Arrangement) -> str:
    def word(p: Placed) -> str:
        if p.wild:
            return "OK=" + _name(p.stands_for)
        if p.tile.color is None:
            return "F=" + _name(p.stands_for)
        return _name(p.tile)

    return " | ".join(" ".join(word(p) for p in m.tiles) for m in arrangement.melds)


def _check_verdict(hand: list[Tile], okey: Tile, rules: Ruleset) -> bool:
    verdict = check_hand(hand, okey, rules)
    if not verdict.winning:
        return False
    assert verdict.arrangement is not None
    assert verdict.kind is not None
    validate(hand, okey, verdict.kind, verdict.arrangement, rules)
    assert verdict.arrangement.notation() == _notation(verdict.arrangement)
    return True


@pytest.mark.parametrize("rules", RULESETS, ids=RULESET_IDS)
@settings(max_examples=150, deadline=None)
@given(built=built_hands(14, max_swaps=0))
def test_every_winning_arrangement_is_a_legal_split_of_the_hand(rules, built):
    hand, okey = built
    _check_verdict(hand, okey, rules)


@pytest.mark.parametrize("rules", RULESETS[:2], ids=RULESET_IDS[:2])
@settings(max_examples=60, deadline=None)
@given(built=built_hands(15, max_swaps=1))
def test_every_winning_discard_arrangement_is_a_legal_split_of_the_rest(rules, built):
    hand, okey = built
    verdict = winning_discards(hand, okey, rules)
    for discard in verdict.discards:
        assert discard.tile in hand
        rest = list(hand)
        rest.remove(discard.tile)
        validate(rest, okey, discard.kind, discard.arrangement, rules)
        assert discard.kind is check_hand(rest, okey, rules).kind


@pytest.mark.parametrize(
    ("hand", "okey"),
    [
        ("F R2 R3 R4 F R2 R3 R4 R5 R6 R7 R8 R9 R10", "R1"),
        ("R1 R1 R2 R3 R4 R5 R6 R7 R8 R9 F R11 R12 R13", "R10"),
        ("F F Y5 Y5 B9 B9 K13 K13 R7 R7 Y2 Y2 B11 B11", "K5"),
    ],
    ids=["two-false-jokers-in-two-runs", "false-joker-in-a-long-run", "false-joker-pair"],
)
def test_repeated_calls_give_the_same_arrangement_both_false_jokers_shown(hand, okey):
    # Same input, same answer, whatever the engine cached on the way.
    tiles = parse_tiles(hand)
    verdicts = [check_hand(tiles, parse_tile(okey)) for _ in range(3)]
    for verdict in verdicts:
        assert verdict.kind is not None
        validate(tiles, parse_tile(okey), verdict.kind, verdict.arrangement, Ruleset())
    assert verdicts[0].arrangement == verdicts[1].arrangement == verdicts[2].arrangement
    spare = [*tiles, parse_tile("K12")]
    discards = [winning_discards(spare, parse_tile(okey)).discards for _ in range(2)]
    assert [d.arrangement for d in discards[0]] == [d.arrangement for d in discards[1]]


def test_melds_come_in_canonical_order_by_the_faces_they_show():
    hand = parse_tiles("K1 K2 K3 B7 Y7 R7 Y10 Y11 Y12 Y13 R1 R2 R3 R4")
    arrangement = check_hand(hand, parse_tile("B11")).arrangement
    assert arrangement is not None
    keys = [_order_key(m) for m in arrangement.melds]
    assert keys == sorted(keys)
    assert arrangement.notation() == "R1 R2 R3 R4 | R7 Y7 B7 | Y10 Y11 Y12 Y13 | K1 K2 K3"


def test_a_long_run_is_shown_as_one_meld():
    hand = parse_tiles("Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y10 Y11 R5 B5 K5")
    arrangement = check_hand(hand, parse_tile("K1")).arrangement
    assert arrangement is not None
    assert arrangement.notation() == "R5 B5 K5 | Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y10 Y11"


@pytest.mark.parametrize(
    ("hand", "okey", "notation"),
    [
        ("B9 K9 R5 R1 R2 R3 Y10 Y11 Y12 Y13 K2 K3 K4 K5", "R5", "OK=R9 B9 K9"),
        ("F Y5 B5 R1 R2 R3 Y10 Y11 Y12 Y13 K2 K3 K4 K5", "R5", "F=R5 Y5 B5"),
        ("R1 K5 Y5 Y5 B9 B9 K13 K13 R7 R7 Y2 Y2 B11 B11", "K5", "R1 OK=R1"),
    ],
    ids=["wild-as-OK=face", "false-joker-as-F=face", "wild-in-a-pair"],
)
def test_arrangement_notation_marks_wilds_and_false_jokers(hand, okey, notation):
    arrangement = check_hand(parse_tiles(hand), parse_tile(okey)).arrangement
    assert arrangement is not None
    assert notation in arrangement.notation().split(" | ")


def test_wild_pair_stands_for_a_face_no_other_pair_shows():
    hand = parse_tiles("K5 K5 Y5 Y5 B9 B9 K13 K13 R7 R7 Y2 Y2 B11 B11")
    verdict = check_hand(hand, parse_tile("K5"))
    assert verdict.kind is WinKind.SEVEN_PAIRS
    validate(hand, parse_tile("K5"), verdict.kind, verdict.arrangement, Ruleset())


def _conformance_cases() -> list[tuple[str, dict]]:
    cases = []
    for path in sorted(CONFORMANCE.glob("hand_*.json")):
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            if case["expect"].get("response", {}).get("winning"):
                cases.append((f"{path.stem}:{case['name']}", case["request"]))
    return cases


def _tile_word(message: dict) -> str:
    if message.get("falseJoker"):
        return "F"
    return LETTER[COLOURS.index(message["color"])] + str(message["number"])


def _hand(request: dict) -> list[Tile]:
    if "handNotation" in request:
        return parse_tiles(request["handNotation"])
    return parse_tiles(" ".join(_tile_word(m) for m in request["hand"]["tiles"]))


def _ruleset(request: dict) -> Ruleset:
    options = dict(request.get("ruleset", {}))
    game = GAMES.get(options.pop("game", ""))
    rules = preset(request.get("preset", ""), game)
    overrides = {OPTIONS[k]: v for k, v in options.items()}
    if game is not None and game is not rules.game:
        overrides["game"] = game
    return rules.with_overrides(**overrides)


def _okey(request: dict) -> Tile:
    if "okeyNotation" in request:
        return parse_tile(request["okeyNotation"])
    if "okey" in request:
        return parse_tile(_tile_word(request["okey"]))
    if "indicator" in request:
        return okey_for(parse_tile(_tile_word(request["indicator"])))
    return okey_for(parse_tile(request["indicatorNotation"]))


CONFORMANCE_CASES = _conformance_cases()


@pytest.mark.parametrize(
    "request_", [r for _, r in CONFORMANCE_CASES], ids=[n for n, _ in CONFORMANCE_CASES]
)
def test_conformance_winning_hands_have_legal_arrangements(request_):
    hand = _hand(request_)
    okey, rules = _okey(request_), _ruleset(request_)
    if len(hand) == 14:
        assert _check_verdict(hand, okey, rules)
        return
    verdict = winning_discards(hand, okey, rules)
    assert verdict.winning
    for discard in verdict.discards:
        rest = list(hand)
        rest.remove(discard.tile)
        validate(rest, okey, discard.kind, discard.arrangement, rules)
