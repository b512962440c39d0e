"""AnalysisService/AnalyzeHand through a real server (docs/analysis.md): the servicer only
translates the engine's analysis (okey_rules.analysis), from a hand or from a seat's view,
and refuses what it cannot analyze on the field at fault."""

from __future__ import annotations

import random
from collections.abc import Iterator

import game_service_helpers  # noqa: F401 (puts tests/unit on the path for game_support)
import grpc
import pytest
from game_support import reshuffled, start
from okey.v1 import analysis_pb2, analysis_pb2_grpc, tile_pb2
from okey_rules import okey_for, parse_tiles, preset
from okey_rules.analysis.hand_analysis import analyze_hand, analyze_view
from okey_rules.analysis.opening_analysis import analyze_rack
from okey_rules.play.game_view import player_view
from okey_rules.tiles import TILE_OF_CODE
from okey_server.wire.convert_state import state_token
from service_helpers import decode_error, notation_of, pb_tile, pb_tiles

pytestmark = pytest.mark.service

CLASSIC = preset("classic")
KEY = b"analysis service test key, 32 b."
# Okey B6 (indicator B5): R1-R3, Y7 B7 K7, R9-R12, K11-K13 and the okey (as K10).
WINS = "R1 R2 R3 Y7 B7 K7 R9 R10 R11 R12 K11 K12 K13 B6"
NEAR = "R1 R2 R3 Y7 B7 K7 R9 R10 R11 R12 K1 K2 Y4 K13 Y1"


@pytest.fixture
def channel(make_server) -> Iterator[grpc.Channel]:
    """A server of its own, whose key the tests seal states with."""
    _, port = make_server(signing_key=KEY)
    with grpc.insecure_channel(f"127.0.0.1:{port}") as opened:
        yield opened


def _analyze(channel: grpc.Channel, **fields: object) -> analysis_pb2.AnalyzeHandResponse:
    stub = analysis_pb2_grpc.AnalysisServiceStub(channel)
    return stub.AnalyzeHand(analysis_pb2.AnalyzeHandRequest(**fields))  # type: ignore[arg-type]


def _refused(channel: grpc.Channel, **fields: object):
    with pytest.raises(grpc.RpcError) as raised:
        _analyze(channel, **fields)
    error = decode_error(raised.value)
    assert error.code is grpc.StatusCode.INVALID_ARGUMENT
    return error


def _hand(notation: str) -> tile_pb2.TileList:
    return tile_pb2.TileList(tiles=pb_tiles(notation))


def test_a_winning_hand_is_at_distance_zero(channel):
    answer = _analyze(channel, hand=_hand(WINS), indicator=pb_tile("B5"))
    assert answer.distance.best == 0
    assert notation_of(answer.okey) == "B6"
    assert not answer.discards


def test_fourteen_tiles_get_the_engines_distances(channel):
    hand = NEAR.rsplit(" ", 1)[0]
    answer = _analyze(channel, hand_notation=hand, okey_notation="B6")
    found = analyze_hand(parse_tiles(hand), okey_for(parse_tiles("B5")[0]), CLASSIC).distance
    assert found is not None
    got = answer.distance
    assert (got.melds, got.seven_pairs, got.best) == (found.melds, found.pairs, found.best)
    assert got.kafa_played is (found.kafa is not None)


def test_fifteen_tiles_list_every_distinct_discard_with_its_useful_draws(channel):
    answer = _analyze(channel, hand=_hand(NEAR), indicator=pb_tile("B5"))
    found = analyze_hand(parse_tiles(NEAR), okey_for(parse_tiles("B5")[0]), CLASSIC)
    assert [notation_of(d.tile) for d in answer.discards] == [
        notation_of(pb_tile(_word(c.tile))) for c in found.discards]
    for shown, choice in zip(answer.discards, found.discards, strict=True):
        assert shown.distance.best == choice.distance.best
        assert [(notation_of(u.tile), u.unseen) for u in shown.useful_draws] == [
            (_word(u.tile), u.unseen) for u in choice.useful]
        assert shown.useful_unseen == choice.useful_unseen
    assert answer.best_discard == found.best_discard
    assert answer.from_view is False


def test_seen_tiles_lower_the_unseen_copies(channel):
    alone = _analyze(channel, hand=_hand(NEAR), indicator=pb_tile("B5"))
    useful = {notation_of(u.tile) for d in alone.discards for u in d.useful_draws}
    seen = sorted(useful)[:2]
    viewed = _analyze(channel, hand=_hand(NEAR), indicator=pb_tile("B5"),
                      seen=_hand(" ".join(seen)))
    assert viewed.from_view is True
    before = {notation_of(u.tile): u.unseen for d in alone.discards for u in d.useful_draws}
    after = {notation_of(u.tile): u.unseen for d in viewed.discards for u in d.useful_draws}
    for word in seen:
        assert after[word] == before[word] - 1


def test_a_seat_of_a_round_is_analyzed_from_its_own_view(channel):
    """From a state: the seat's rack, unseen copies counted from what its view shows."""
    state = start(players=4)
    seat = state.turn
    answer = _analyze(channel, state=state_token(state, KEY), seat=seat)
    found = analyze_view(player_view(state, seat)).hand
    assert found is not None
    assert len(state.seats[seat].rack) == 15
    assert answer.from_view is True
    assert [d.useful_unseen for d in answer.discards] == [c.useful_unseen for c in found.discards]


def test_the_analysis_of_a_seat_tells_nothing_its_view_does_not(channel):
    """Trust: two rounds that differ only in tiles the seat cannot see (other racks, the
    wall's order) get the same answer, byte for byte."""
    rng = random.Random(7)
    state = start(players=4)
    seat = state.turn
    twin = reshuffled(state, seat, rng)
    assert twin != state
    answers = [_analyze(channel, state=state_token(s, KEY), seat=seat)
               for s in (state, twin)]
    assert answers[0].SerializeToString(deterministic=True) == answers[1].SerializeToString(
        deterministic=True)


def test_a_state_with_a_hand_beside_it_is_refused_on_the_hand(channel):
    state = state_token(start(players=4), KEY)
    error = _refused(channel, state=state, hand_notation=NEAR)
    assert error.fields == ("hand_notation",)


RACK_101 = "R12 R13 Y5 K10 K11 K12 K13 Y13 B13 R4 Y4 B4 K4 R1 R1 R13 R7 Y2 B9 K6 F"


def test_an_okey_101_rack_gets_its_opening_analysis(channel):
    """docs/analysis.md, Okey 101: points and pairs missing to open, each discard's best."""
    answer = _analyze(channel, preset="101", hand_notation=RACK_101, okey_notation="Y5")
    found = analyze_rack(parse_tiles(RACK_101), parse_tiles("Y5")[0], preset("101"))
    opening = answer.opening
    assert (opening.points, opening.points_needed, opening.points_missing) == (
        found.points, 101, 0)
    assert (opening.pairs, opening.pairs_needed, opening.pairs_missing) == (3, 5, 2)
    assert [(notation_of(d.tile), d.points, d.keeps_points) for d in opening.discards] == [
        (_word(d.tile), d.points, d.keeps_points) for d in found.discards]
    assert not answer.discards
    assert not answer.HasField("distance")


def test_a_101_seat_sees_its_lay_offs_from_its_view(channel):
    """With a state: the seat's rack against the table (none at the deal) and what an
    opening needs now."""
    from okey_rules.dealing.deal import deal
    from okey_rules.play.round import round_for
    from okey_rules.ruleset import Game

    rules = preset("101")
    state = round_for(Game.OKEY_101).start(deal(rules, seed="analysis 101"), deal_ref="",
                                           round_number=1, now_ms=None)
    answer = _analyze(channel, state=state_token(state, KEY), seat=state.turn)
    assert answer.HasField("opening")
    assert answer.opening.points_needed == 101
    assert list(answer.opening.lay_offs) == []  # nothing on the table yet
    faces = {TILE_OF_CODE[t].face for t in state.seats[state.turn].rack}
    assert len(answer.opening.discards) == len(faces)


def test_a_hand_of_the_wrong_size_is_refused_on_the_hand(channel):
    error = _refused(channel, hand_notation="R1 R2 R3", okey_notation="B6")
    assert error.fields == ("hand_notation",)


def test_seen_tiles_that_cannot_exist_are_refused_on_seen(channel):
    error = _refused(channel, hand=_hand(NEAR), indicator=pb_tile("B5"),
                     seen=_hand("Y1 Y1"))  # a third Y1 beside the hand's
    assert error.fields[0].startswith("seen")


def _word(tile: object) -> str:
    from okey_rules.tiles import format_tile
    return format_tile(tile)  # type: ignore[arg-type]


def test_every_discard_tile_is_a_first_copy():
    """Canonical answers: a discard and a useful draw name a face, as copy 0."""
    found = analyze_hand(parse_tiles(NEAR), okey_for(parse_tiles("B5")[0]), CLASSIC)
    assert all(c.tile.copy == 0 for c in found.discards)
    assert TILE_OF_CODE[found.discards[0].tile.code].copy == 0
