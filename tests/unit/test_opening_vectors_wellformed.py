"""The BestOpening conformance vectors (tests/conformance/hand101_best_opening.json) hold up.

Checks the file, not a server: it follows the vector format (docs/conformance.md);
requests and expected answers are valid okey.v1 protobuf JSON; each expected
answer holds together (its melds are sets and runs by the rulebook, made of
the rack's tiles with the rest left on the rack, worth the value it states;
okeys, pairs and the 101 and five-pair marks agree; the wild in force is the
one asked); every rule the issue lists has its case, every refusal of
docs/okey101.md its field; and scripts/derive_vectors.py writes the file byte
for byte from its case table (tests/conformance/cases/opening.json).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import grpc
import pytest
from google.protobuf import json_format
from okey.v1 import hand_pb2
from okey_rules.rulebook import is_pair, is_run, is_set
from okey_rules.tiles import Color, Tile, indicator_for, okey_for, parse_tile, parse_tiles
from vector_support import (
    CONFORMANCE,
    KEBAB,
    assert_derived,
    assert_header,
    duplicate_case_names,
    field_head,
    load_json,
)

PATH = CONFORMANCE / "hand101_best_opening.json"
PREFIX = "best-opening-"
REQUEST_FIELDS = {f.name for f in hand_pb2.BestOpeningRequest.DESCRIPTOR.fields}
STATUS_CODES = {code.name for code in grpc.StatusCode}
COLOURS = {f"COLOR_{c.name}": c for c in Color}
OPENING_VALUE, OPENING_PAIRS = 101, 5

# The rules the vectors are for, one case each (names without the prefix).
RULE_CASES = {
    # the 101 mark
    "exactly-101-opens",
    "100-does-not-open",
    # runs never pass 13
    "12-13-1-is-no-run",
    "13-1-2-is-no-run",
    "okey-after-12-13-stands-for-11",
    # runs_13_to_1 set explicitly, both ways
    "runs-13-to-1-set-makes-12-13-1-a-run",
    "runs-13-to-1-unset-explicitly",
    "runs-13-to-1-never-13-1-2",
    # sets never repeat a colour
    "set-never-repeats-a-colour",
    "two-reds-and-a-blue-are-no-set",
    # an okey counts as what it stands for; a false joker as the okey's number
    "okey-counts-what-it-stands-for-in-a-run",
    "okey-counts-the-number-of-its-set",
    "false-joker-counts-the-okey-number-in-a-run",
    "false-joker-counts-the-okey-number-in-a-set",
    "false-joker-is-not-wild",
    # the tie-break, rule by rule
    "tie-fewer-okeys",
    "tie-more-tiles",
    "tie-lowest-number-run-over-set",
    "tie-sets-before-runs-at-a-number",
    "tie-two-okeys-and-one-tile",
    # pairs
    "five-pairs-open",
    "four-pairs-do-not-open",
    "okey-completes-a-pair",
    "okeys-pair-together-with-wild-pairs",
    "okeys-do-not-pair-without-wild-pairs",
    "okey-never-doubles-a-pair",
    # racks from a seeded deal
    "dealt-dealer-rack-of-22",
    "dealt-rack-of-21",
    # the request's forms
    "rack-as-tile-messages-indicator-as-a-tile",
    "rack-in-notation-okey-in-notation",
    "okey-as-a-tile-gives-the-indicator",
    "classic-preset-asked-for-okey-101",
}
# docs/okey101.md, Calling BestOpening: the fields a refusal names.
REFUSALS = {
    "hand",  # no rack
    "hand_notation",  # more than 22 or no tile, a bad tile, a third copy, both indicators
    "hand.tiles",  # more than 22, both indicators
    "hand.tiles[1].number",  # a tile that does not exist
    "hand.tiles[1].color",
    "hand.tiles[2]",  # a third false joker
    "indicator",  # no wild
    "indicator_notation",  # a false joker as the wild
    "okey",
    "preset",  # a classic preset, an unknown one
    "ruleset.game",  # GAME_CLASSIC
}


DATA = load_json(PATH)
CASES: list[dict[str, Any]] = DATA["cases"]
IDS = [case["name"] for case in CASES]
ANSWERED = [case for case in CASES if "response" in case["expect"]]
ANSWERED_IDS = [case["name"] for case in ANSWERED]


def _by_name(short: str) -> dict[str, Any]:
    return next(case for case in CASES if case["name"] == PREFIX + short)


def _tile(message: dict[str, Any]) -> Tile:
    if message.get("falseJoker"):
        return Tile.false_joker(message.get("copy", 0))
    return Tile(COLOURS[message["color"]], message["number"], message.get("copy", 0))


def _rack(request: dict[str, Any]) -> list[Tile]:
    if "handNotation" in request:
        return parse_tiles(request["handNotation"])
    return [_tile(t) for t in request["hand"]["tiles"]]


def _okey(request: dict[str, Any]) -> Tile:
    if "okeyNotation" in request:
        return parse_tile(request["okeyNotation"])
    if "indicatorNotation" in request:
        return okey_for(parse_tile(request["indicatorNotation"]))
    if "okey" in request:
        return _tile(request["okey"])
    return okey_for(_tile(request["indicator"]))


def _word(placed: dict[str, Any]) -> str:
    stands_for = _tile(placed["standsFor"])
    text = f"{'RYBK'[stands_for.color]}{stands_for.number}"  # type: ignore[index]
    if placed["wild"]:
        return f"OK={text}"
    return f"F={text}" if placed["tile"].get("falseJoker") else text


def _notation(arrangement: dict[str, Any]) -> str:
    return " | ".join(" ".join(_word(p) for p in m["tiles"]) for m in arrangement["melds"])


# --- the file ---------------------------------------------------------------------------------


def test_file_is_exactly_what_the_deriver_writes_from_its_case_table() -> None:
    # A hand edit without the case table fails here; the deriver itself stops when a
    # hand-written answer, the referee's brute force and the engine disagree.
    assert_derived("opening", [PATH])


def test_file_header_names_bestopening() -> None:
    assert_header(DATA, "okey.v1.HandService", "docs/okey101.md")
    assert DATA["method"] == "BestOpening"


def test_vectors_stand_alone_citing_public_documents_only() -> None:
    text = PATH.read_text(encoding="utf-8")
    assert not re.search(r"RULES\.md|DESIGN\.md|seeds? ?0\d\d|seed-0\d\d|\.\./shared", text)


def test_case_names_are_unique_across_the_whole_directory() -> None:
    assert duplicate_case_names() == []


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_case_is_well_formed(case: dict[str, Any]) -> None:
    assert set(case) == {"name", "reason", "request", "expect"}
    assert KEBAB.fullmatch(case["name"])
    assert case["name"].startswith(PREFIX)
    reason = case["reason"]
    assert reason.strip()
    assert "\n" not in reason
    assert reason.startswith(("docs/okey101.md", "hand.proto")), reason


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_request_and_expectation_parse(case: dict[str, Any]) -> None:
    # ParseDict rejects unknown field names, bad enum names and two members of a oneof.
    json_format.ParseDict(case["request"], hand_pb2.BestOpeningRequest())
    expect = case["expect"]
    assert len(expect) == 1
    if "error" in expect:
        error = expect["error"]
        assert set(error) == {"code", "field"}
        assert error["code"] in STATUS_CODES
        assert field_head(error["field"]) in REQUEST_FIELDS
    else:
        json_format.ParseDict(expect["response"], hand_pb2.BestOpeningResponse())
        # The summary is free text: another correct server may word it differently.
        assert "summary" not in expect["response"]


# --- each answer holds together -----------------------------------------------------------------


@pytest.mark.parametrize("case", ANSWERED, ids=ANSWERED_IDS)
def test_answer_melds_are_the_rack_s_tiles_and_worth_the_value(case: dict[str, Any]) -> None:
    request, answer = case["request"], case["expect"]["response"]
    rack, okey = _rack(request), _okey(request)
    wrap = request.get("ruleset", {}).get("runs13To1", False)
    melds = answer["arrangement"]["melds"]
    for meld in melds:
        tiles = [_tile(p["tile"]) for p in meld["tiles"]]
        if meld["kind"] == "MELD_KIND_SET":
            assert is_set(tiles, okey), meld
        else:
            assert meld["kind"] == "MELD_KIND_RUN"
            assert is_run(tiles, okey, wrap), meld
        for placed in meld["tiles"]:
            assert placed["wild"] == _tile(placed["tile"]).same_face(okey)
    laid = [_tile(p["tile"]) for m in melds for p in m["tiles"]]
    unused = [_tile(t) for t in answer["unused"]]
    # Every tile of the rack once, in a meld or left; copies distinct; unused in tile order.
    assert Counter(t.face for t in laid + unused) == Counter(t.face for t in rack)
    assert len({(t.face, t.copy) for t in laid + unused}) == len(rack)
    assert unused == sorted(unused)
    value = sum(p["standsFor"]["number"] for m in melds for p in m["tiles"])
    assert answer["value"] == value
    assert answer["opens"] is (value >= OPENING_VALUE)
    assert answer["okeysUsed"] == sum(p["wild"] for m in melds for p in m["tiles"])
    assert answer["arrangement"]["notation"] == _notation(answer["arrangement"])


@pytest.mark.parametrize("case", ANSWERED, ids=ANSWERED_IDS)
def test_answer_pairs_and_wild_hold_together(case: dict[str, Any]) -> None:
    request, answer = case["request"], case["expect"]["response"]
    rack, okey = _rack(request), _okey(request)
    pairs = answer["pairs"]
    shown = []
    held = Counter(t.face for t in rack)
    used: Counter[int] = Counter()
    for meld in pairs["arrangement"]["melds"]:
        assert meld["kind"] == "MELD_KIND_PAIR"
        tiles = [_tile(p["tile"]) for p in meld["tiles"]]
        assert is_pair(tiles, okey), meld
        shown.append(_tile(meld["tiles"][0]["standsFor"]).face)
        used.update(t.face for t in tiles)
    assert not used - held, "the pairs use tiles the rack does not hold"
    assert len(set(shown)) == len(shown) == pairs["count"], "no two pairs show one face"
    assert shown == sorted(shown), "pairs in face order"
    assert pairs["opens"] is (pairs["count"] >= OPENING_PAIRS)
    assert pairs["arrangement"]["notation"] == _notation(pairs["arrangement"])
    assert _tile(answer["okey"]) == okey
    assert _tile(answer["indicator"]) == indicator_for(okey)


# --- coverage -----------------------------------------------------------------------------------


def test_every_rule_has_its_case() -> None:
    assert {name.removeprefix(PREFIX) for name in IDS} >= RULE_CASES


def test_every_refusal_names_its_field() -> None:
    refused = {c["expect"]["error"]["field"] for c in CASES if "error" in c["expect"]}
    assert refused == REFUSALS
    assert all(c["expect"]["error"]["code"] == "INVALID_ARGUMENT" for c in CASES
               if "error" in c["expect"])


def test_the_marks_are_pinned_on_both_sides() -> None:
    # docs/okey101.md: exactly 101 opens, 100 does not; five pairs open, four do not.
    assert {a["expect"]["response"]["value"] for a in ANSWERED} >= {101, 100}
    answers = [a["expect"]["response"] for a in ANSWERED]
    assert any(a["value"] == 101 and a["opens"] for a in answers)
    assert any(a["value"] == 100 and not a["opens"] for a in answers)
    assert any(a["pairs"]["count"] == 5 and a["pairs"]["opens"] for a in answers)
    assert any(a["pairs"]["count"] == 4 and not a["pairs"]["opens"] for a in answers)


def test_rule_cases_pin_what_they_are_named_for() -> None:
    """A few answers read directly: a meld or a face the rule decides."""
    assert _by_name("okey-after-12-13-stands-for-11")["expect"]["response"]["arrangement"][
        "notation"] == "OK=R11 R12 R13"
    wrapped = _by_name("runs-13-to-1-set-makes-12-13-1-a-run")
    assert wrapped["request"]["ruleset"] == {"runs13To1": True}
    assert wrapped["expect"]["response"]["value"] == 12 + 13 + 1
    off = _by_name("runs-13-to-1-unset-explicitly")
    assert off["request"]["ruleset"] == {"runs13To1": False}
    assert off["expect"]["response"]["value"] == 0
    with_pairs = _by_name("okeys-pair-together-with-wild-pairs")["expect"]["response"]["pairs"]
    without = _by_name("okeys-do-not-pair-without-wild-pairs")
    assert without["request"]["ruleset"] == {"wildPairs": False}
    assert (with_pairs["count"], without["expect"]["response"]["pairs"]["count"]) == (5, 4)
    false_joker = _by_name("false-joker-counts-the-okey-number-in-a-run")["expect"]["response"]
    assert false_joker["arrangement"]["notation"] == "K10 F=K11 K12"
    assert false_joker["okeysUsed"] == 0


def test_requests_use_every_form() -> None:
    """Tiles as messages and as notation; the wild in each of its four forms; the dealt racks
    are a dealer's 22 tiles and 21."""
    keys = {key for case in CASES for key in case["request"]}
    assert {"hand", "handNotation", "indicator", "okey", "indicatorNotation", "okeyNotation",
            "preset", "ruleset"} <= keys
    assert len(_rack(_by_name("dealt-dealer-rack-of-22")["request"])) == 22
    assert len(_rack(_by_name("dealt-rack-of-21")["request"])) == 21
