"""HandService/BestOpening through a real server: Okey 101 openings (docs/okey101.md, hand.proto).

The servicer only translates: its answers are held to okey_rules.search.opening's on
hand-built and seeded random racks; the request's forms (tiles or notation,
indicator or okey), the ruleset's default (Okey 101) and every refusal are
checked through the wire.
"""

from __future__ import annotations

import random

import grpc
import pytest
from okey.v1 import hand_pb2, hand_pb2_grpc, ruleset_pb2, tile_pb2
from okey_rules import okey_for, parse_tile, parse_tiles, preset
from okey_rules.search.opening import best_opening, best_pairs_opening
from okey_rules.tiles import TILE_COUNT, TILE_OF_CODE, format_tile, format_tiles, indicator_for
from service_helpers import decode_error, notation_of, pb_tile, pb_tiles

pytestmark = pytest.mark.service

OKEY_101 = preset("101")
# 21 tiles, okey Y5: R4 Y4 B4 K4 (16), the okey as R11 before R12 R13 (36),
# R13 Y13 B13 K13 (52), K10 K11 K12 (33): 137 points; R1 R1 R7 Y2 B9 K6 and the
# false joker (a Y5) are left. Pairs: R1 R1, R13 R13 and the okey with R4.
RACK = "R12 R13 Y5 K10 K11 K12 K13 Y13 B13 R4 Y4 B4 K4 R1 R1 R13 R7 Y2 B9 K6 F"


def _stub(channel: grpc.Channel) -> hand_pb2_grpc.HandServiceStub:
    return hand_pb2_grpc.HandServiceStub(channel)


def _ask(channel: grpc.Channel, **fields: object) -> hand_pb2.BestOpeningResponse:
    return _stub(channel).BestOpening(hand_pb2.BestOpeningRequest(**fields))  # type: ignore[arg-type]


def _refused(channel: grpc.Channel, request: hand_pb2.BestOpeningRequest):
    with pytest.raises(grpc.RpcError) as raised:
        _stub(channel).BestOpening(request)
    error = decode_error(raised.value)
    assert error.code is grpc.StatusCode.INVALID_ARGUMENT
    return error


def _placed(placed: hand_pb2.PlacedTile) -> tuple[str, int, str, bool]:
    return (notation_of(placed.tile), placed.tile.copy, notation_of(placed.stands_for),
            placed.wild)


def _assert_answers_as_the_engine(response, tiles, okey, rules=OKEY_101) -> None:
    melds = best_opening(tiles, okey, rules)
    pairs = best_pairs_opening(tiles, okey, rules)
    assert response.value == melds.value
    assert response.opens == melds.opens
    assert response.okeys_used == melds.okeys_used
    assert response.arrangement.notation == melds.arrangement.notation()
    assert [[_placed(p) for p in m.tiles] for m in response.arrangement.melds] == [
        [(format_tile(p.tile), p.tile.copy, format_tile(p.stands_for), p.wild) for p in m.tiles]
        for m in melds.arrangement.melds
    ]
    assert [(notation_of(t), t.copy) for t in response.unused] == [
        (format_tile(t), t.copy) for t in melds.unused
    ]
    assert response.pairs.count == pairs.count
    assert response.pairs.opens == pairs.opens
    assert response.pairs.arrangement.notation == pairs.arrangement.notation()
    assert notation_of(response.okey) == format_tile(okey)
    assert notation_of(response.indicator) == format_tile(indicator_for(okey))


@pytest.mark.parametrize("as_notation", [False, True], ids=["tiles", "hand_notation"])
@pytest.mark.parametrize("wild", ["indicator", "okey", "indicator_notation", "okey_notation"])
def test_best_opening_answers_what_the_engine_answers(channel, as_notation, wild):
    request = hand_pb2.BestOpeningRequest()
    if as_notation:
        request.hand_notation = RACK.lower()  # notation is case-insensitive on input
    else:
        request.hand.tiles.extend(pb_tiles(RACK))
    indicator, okey = "Y4", "Y5"
    value = okey if wild.startswith("okey") else indicator
    if wild.endswith("notation"):
        setattr(request, wild, value)
    else:
        getattr(request, wild).CopyFrom(pb_tile(value))
    response = _stub(channel).BestOpening(request)
    _assert_answers_as_the_engine(response, parse_tiles(RACK), parse_tile(okey))
    assert response.value == 137
    assert response.opens
    assert response.okeys_used == 1
    assert response.arrangement.notation == (
        "R4 Y4 B4 K4 | OK=R11 R12 R13 | R13 Y13 B13 K13 | K10 K11 K12"
    )
    assert [m.kind for m in response.arrangement.melds] == [
        hand_pb2.MELD_KIND_SET, hand_pb2.MELD_KIND_RUN, hand_pb2.MELD_KIND_SET,
        hand_pb2.MELD_KIND_RUN,
    ]
    assert " ".join(notation_of(t) for t in response.unused) == "R1 R1 R7 Y2 B9 K6 F"
    assert response.pairs.arrangement.notation == "R1 R1 | R4 OK=R4 | R13 R13"
    assert response.summary == "melds: 137 points in 4 melds (opens); pairs: 3 (short of 5)"


def _random_racks(count: int, seed: int):
    rng = random.Random(seed)
    codes = list(range(TILE_COUNT))
    for _ in range(count):
        rng.shuffle(codes)
        tiles = [TILE_OF_CODE[c] for c in codes[: rng.choice((21, 22))]]
        while True:
            okey = okey_for(TILE_OF_CODE[rng.randrange(52)])
            if sum(t.same_face(indicator_for(okey)) for t in tiles) <= 1:
                break
        yield tiles, okey


@pytest.mark.parametrize("index", range(3))
def test_best_opening_on_random_racks_answers_what_the_engine_answers(channel, index):
    for tiles, okey in list(_random_racks(40, seed=500 + index)):
        request = hand_pb2.BestOpeningRequest(
            hand=tile_pb2.TileList(tiles=pb_tiles(format_tiles(tiles))),
            okey_notation=format_tile(okey),
        )
        _assert_answers_as_the_engine(_stub(channel).BestOpening(request), tiles, okey)


def test_the_melds_open_at_101_and_the_pairs_at_5(channel):
    exactly = _ask(channel, hand_notation="K10 K11 K12 K13 R13 Y13 B13 R4 Y4 B4 K4",
                   indicator_notation="Y7")
    assert (exactly.value, exactly.opens) == (101, True)
    short = _ask(channel, hand_notation="K10 K11 K12 K13 R13 Y13 B13 R5 Y5 B5",
                 indicator_notation="Y7")
    assert (short.value, short.opens) == (100, False)
    five = _ask(channel, hand_notation="R1 R1 Y2 Y2 B3 B3 K4 K4 R5 R5 Y9", okey_notation="B8")
    assert (five.pairs.count, five.pairs.opens) == (5, True)
    assert all(m.kind == hand_pb2.MELD_KIND_PAIR for m in five.pairs.arrangement.melds)
    four = _ask(channel, hand_notation="R1 R1 Y2 Y2 B3 B3 K4 K4 R5 Y9", okey_notation="B8")
    assert (four.pairs.count, four.pairs.opens) == (4, False)


@pytest.mark.parametrize(
    ("preset_name", "ruleset", "value"),
    [
        pytest.param("", None, 36, id="no-preset-is-101"),
        pytest.param("101", None, 36, id="preset-101"),
        pytest.param("", ruleset_pb2.Ruleset(game=ruleset_pb2.GAME_OKEY_101), 36,
                     id="ruleset-game-101"),
        pytest.param("classic", ruleset_pb2.Ruleset(game=ruleset_pb2.GAME_OKEY_101), 36,
                     id="classic-preset-asked-for-101"),
        pytest.param("", ruleset_pb2.Ruleset(runs_13_to_1=True), 36 + 26,
                     id="runs-13-to-1-set-over-101"),
    ],
)
def test_okey_101_is_the_default_and_its_runs_never_pass_13(channel, preset_name, ruleset, value):
    # R11 R12 R13 (36) and R12 R13 R1: a run only where runs_13_to_1 is set.
    request = hand_pb2.BestOpeningRequest(
        hand_notation="R11 R12 R13 R12 R13 R1", okey_notation="K5", preset=preset_name
    )
    if ruleset is not None:
        request.ruleset.CopyFrom(ruleset)
    assert _stub(channel).BestOpening(request).value == value


def test_wild_pairs_option_reaches_the_pairs(channel):
    rack = "R3 R3 B8 B8"
    assert _ask(channel, hand_notation=rack, okey_notation="B8").pairs.count == 2
    without = hand_pb2.BestOpeningRequest(hand_notation=rack, okey_notation="B8")
    without.ruleset.wild_pairs = False
    assert _stub(channel).BestOpening(without).pairs.count == 1


def test_one_tile_is_a_rack_too(channel):
    response = _ask(channel, hand_notation="R7", okey_notation="K5")
    assert response.value == 0
    assert not response.arrangement.melds
    assert [notation_of(t) for t in response.unused] == ["R7"]
    assert response.summary == "melds: 0 points in 0 melds (short of 101); pairs: 0 (short of 5)"


TOO_MANY = " ".join([f"R{n}" for n in range(1, 14)] + [f"Y{n}" for n in range(1, 11)])


@pytest.mark.parametrize(
    ("fields", "field", "reason"),
    [
        ({"okey_notation": "K5"}, "hand", "ERROR_REASON_INVALID_TILES"),
        ({"hand": tile_pb2.TileList(), "okey_notation": "K5"}, "hand.tiles",
         "ERROR_REASON_INVALID_TILES"),
        ({"hand_notation": "", "okey_notation": "K5"}, "hand_notation",
         "ERROR_REASON_INVALID_TILES"),
        ({"hand": tile_pb2.TileList(tiles=pb_tiles(TOO_MANY)), "okey_notation": "K5"},
         "hand.tiles", "ERROR_REASON_INVALID_TILES"),
        ({"hand_notation": TOO_MANY, "okey_notation": "K5"}, "hand_notation",
         "ERROR_REASON_INVALID_TILES"),
        ({"hand": tile_pb2.TileList(tiles=pb_tiles("R1 R1 R1")), "okey_notation": "K5"},
         "hand.tiles[2]", "ERROR_REASON_INVALID_TILES"),
        ({"hand_notation": "R1 R1 R1", "okey_notation": "K5"}, "hand_notation",
         "ERROR_REASON_INVALID_TILES"),
        ({"hand_notation": "F F F", "okey_notation": "K5"}, "hand_notation",
         "ERROR_REASON_INVALID_TILES"),
        ({"hand_notation": "R4 R4 R7", "okey_notation": "R5"}, "hand_notation",
         "ERROR_REASON_INVALID_TILES"),
        ({"hand": tile_pb2.TileList(tiles=pb_tiles("R4 R4")), "indicator_notation": "R4"},
         "hand.tiles", "ERROR_REASON_INVALID_TILES"),
        ({"hand_notation": "R1 R14", "okey_notation": "K5"}, "hand_notation",
         "ERROR_REASON_INVALID_TILES"),
        ({"hand_notation": "R1 R2 R3"}, "indicator", "ERROR_REASON_INVALID_INDICATOR"),
        ({"hand_notation": "R1 R2 R3", "indicator_notation": "F"}, "indicator_notation",
         "ERROR_REASON_INVALID_INDICATOR"),
        ({"hand_notation": "R1 R2 R3", "okey": tile_pb2.Tile(false_joker=True)}, "okey",
         "ERROR_REASON_INVALID_OKEY"),
        ({"hand_notation": "R1 R2 R3", "okey_notation": "K5", "preset": "bogus"}, "preset",
         "ERROR_REASON_INVALID_RULESET"),
        ({"hand_notation": "R1 R2 R3", "okey_notation": "K5", "preset": "classic"}, "preset",
         "ERROR_REASON_INVALID_RULESET"),
        ({"hand_notation": "R1 R2 R3", "okey_notation": "K5", "preset": "okey.gg"}, "preset",
         "ERROR_REASON_INVALID_RULESET"),
        ({"hand_notation": "R1 R2 R3", "okey_notation": "K5",
          "ruleset": ruleset_pb2.Ruleset(game=ruleset_pb2.GAME_CLASSIC)}, "ruleset.game",
         "ERROR_REASON_INVALID_RULESET"),
        ({"hand_notation": "R1 R2 R3", "okey_notation": "K5", "preset": "101",
          "ruleset": ruleset_pb2.Ruleset(game=ruleset_pb2.GAME_CLASSIC)}, "ruleset.game",
         "ERROR_REASON_INVALID_RULESET"),
    ],
    ids=[
        "no-rack", "empty-tile-list", "empty-notation", "23-tiles", "23-tiles-notation",
        "three-copies", "three-copies-notation", "three-false-jokers", "both-indicators",
        "both-indicators-tiles", "bad-notation", "no-wild", "false-joker-indicator",
        "false-joker-okey", "unknown-preset", "classic-preset", "okey-gg-preset",
        "classic-game", "classic-game-over-101-preset",
    ],
)
def test_bad_input_is_invalid_argument_naming_the_field(channel, fields, field, reason):
    error = _refused(channel, hand_pb2.BestOpeningRequest(**fields))
    assert error.fields == (field,)
    assert error.reason == reason


def test_errors_in_notation_say_which_tile(channel):
    error = _refused(channel, hand_pb2.BestOpeningRequest(hand_notation="R1 R1 R1",
                                                          okey_notation="K5"))
    assert error.descriptions[0].startswith("tile 3: ")
    classic = _refused(channel, hand_pb2.BestOpeningRequest(hand_notation="R1",
                                                            okey_notation="K5",
                                                            preset="classic"))
    assert "Okey 101" in classic.descriptions[0]


def test_a_rack_of_22_tiles_is_accepted_and_23_refused_before_any_tile_is_read(channel):
    dealer_rack = pb_tiles(RACK + " B1")
    answer = _ask(channel, hand=tile_pb2.TileList(tiles=dealer_rack), okey_notation="Y5")
    assert sum(len(m.tiles) for m in answer.arrangement.melds) + len(answer.unused) == 22
    # 23 tiles, the last one not even a tile: the count is refused first.
    over = tile_pb2.TileList(tiles=[*dealer_rack, tile_pb2.Tile(number=99)])
    error = _refused(channel, hand_pb2.BestOpeningRequest(hand=over, okey_notation="Y5"))
    assert error.fields == ("hand.tiles",)
    assert "22" in error.descriptions[0]
