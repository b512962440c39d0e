"""CheckHand answers written as bytes equal ones built field by field.

convert_hand writes answers from parts it keeps (each meld's serialized form
keyed by the engine's Meld object, headers, summaries); these tests build the
same answer the slow, obvious way and compare, on first use (cache miss) and
again (cache hit). The bytes are also the very bytes protobuf writes for the
answer, fields in number order.
"""

from __future__ import annotations

from hypothesis import given, settings
from okey.v1 import hand_pb2
from okey_rules.hand import check_hand, winning_discards
from okey_rules.hand_types import Arrangement
from okey_rules.tiles import indicator_for
from okey_server.convert_hand import (
    MELD_KIND_TO_PROTO,
    WIN_KIND_TO_PROTO,
    arrangement_bytes,
    discards_answer,
    hand_answer,
)
from okey_server.convert_tile import tile_to_proto
from strategies import built_hands


def _plain(arrangement: Arrangement) -> hand_pb2.Arrangement:
    return hand_pb2.Arrangement(
        melds=[
            hand_pb2.Meld(
                kind=MELD_KIND_TO_PROTO[meld.kind],
                tiles=[
                    hand_pb2.PlacedTile(
                        tile=tile_to_proto(p.tile), stands_for=tile_to_proto(p.stands_for),
                        wild=p.wild,
                    )
                    for p in meld.tiles
                ],
            )
            for meld in arrangement.melds
        ],
        notation=arrangement.notation(),
    )


@settings(max_examples=200, deadline=None)
@given(hand=built_hands(max_swaps=0))
def test_cached_meld_bytes_give_the_plain_arrangement(hand):
    verdict = check_hand(*hand)
    if verdict.arrangement is None:
        return
    for _ in range(2):  # the second time every meld comes from the cache
        written = arrangement_bytes(verdict.arrangement)
        assert hand_pb2.Arrangement.FromString(written) == _plain(verdict.arrangement)


def _plain_answer(verdict, indicator, okey) -> hand_pb2.CheckHandResponse:
    """The fields every answer carries, built the obvious way."""
    return hand_pb2.CheckHandResponse(
        winning=verdict.winning,
        summary=verdict.summary,
        indicator=tile_to_proto(indicator),
        okey=tile_to_proto(okey),
    )


def _assert_written_as(written: bytes, plain: hand_pb2.CheckHandResponse) -> None:
    assert hand_pb2.CheckHandResponse.FromString(written) == plain
    assert written == plain.SerializeToString(deterministic=True)


@settings(max_examples=150, deadline=None)
@given(hand=built_hands(size=15, max_swaps=1))
def test_discards_written_as_bytes_equal_the_plain_answer(hand):
    tiles, okey = hand
    indicator = indicator_for(okey)
    verdict = winning_discards(tiles, okey)
    plain = _plain_answer(verdict, indicator, okey)
    plain.okey_discard_wins = verdict.okey_discard_wins
    plain.winning_discards.extend(
        hand_pb2.WinningDiscard(
            tile=tile_to_proto(d.tile),
            okey=d.okey,
            kind=WIN_KIND_TO_PROTO[d.kind],
            arrangement=_plain(d.arrangement),
        )
        for d in verdict.discards
    )
    for _ in range(2):  # cold caches, then warm
        _assert_written_as(discards_answer(verdict, indicator, okey), plain)


@settings(max_examples=100, deadline=None)
@given(hand=built_hands(max_swaps=1))
def test_a_14_tile_answer_equals_the_plain_answer(hand):
    tiles, okey = hand
    indicator = indicator_for(okey)
    verdict = check_hand(tiles, okey)
    plain = _plain_answer(verdict, indicator, okey)
    if verdict.kind is not None:
        plain.kind = WIN_KIND_TO_PROTO[verdict.kind]
        plain.kinds.extend(WIN_KIND_TO_PROTO[k] for k in verdict.kinds)
        plain.arrangement.CopyFrom(_plain(verdict.arrangement))
    for _ in range(2):
        _assert_written_as(hand_answer(verdict, indicator, okey), plain)
