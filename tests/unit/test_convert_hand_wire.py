"""CheckHand answers written as bytes equal ones built field by field.

convert_hand writes answers from parts it keeps (each meld's serialized form
keyed by the engine's Meld object, headers, summaries); these tests build the
same answer the slow, obvious way and compare, on first use (cache miss) and
again (cache hit). The bytes are also the very bytes protobuf writes for the
answer, fields in number order.
"""

from __future__ import annotations

import sys
from pathlib import Path

from google.protobuf.descriptor import Descriptor
from hypothesis import given, settings
from okey.v1 import hand_pb2
from okey_rules.search.hand import check_hand, winning_discards
from okey_rules.search.hand_types import Arrangement
from okey_rules.tiles import indicator_for
from okey_server.wire.convert_hand import (
    MELD_KIND_TO_PROTO,
    WIN_KIND_TO_PROTO,
    WRITTEN_FIELDS,
    arrangement_bytes,
    discards_answer,
    hand_answer,
)
from okey_server.wire.convert_tile import tile_to_proto
from strategies import built_hands

ROOT = Path(__file__).resolve().parents[2]


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


def _plain_discards(verdict, indicator, okey) -> hand_pb2.CheckHandResponse:
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
    return plain


@settings(max_examples=150, deadline=None)
@given(hand=built_hands(size=15, max_swaps=1))
def test_discards_written_as_bytes_equal_the_plain_answer(hand):
    tiles, okey = hand
    indicator = indicator_for(okey)
    verdict = winning_discards(tiles, okey)
    plain = _plain_discards(verdict, indicator, okey)
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


def _fields_by_message(descriptor: Descriptor, found: dict[str, frozenset[str]]) -> None:
    if descriptor.full_name in found:
        return
    found[descriptor.full_name] = frozenset(field.name for field in descriptor.fields)
    for field in descriptor.fields:
        if field.message_type is not None:
            _fields_by_message(field.message_type, found)


def test_the_hand_written_answer_writes_every_field_of_the_contract():
    """A field added to CheckHandResponse, or to a message in it, must be written by hand too.

    convert_hand writes answer bytes itself; a field it does not know would
    silently never reach a client. Add it to the writer and to WRITTEN_FIELDS.
    """
    found: dict[str, frozenset[str]] = {}
    _fields_by_message(hand_pb2.CheckHandResponse.DESCRIPTOR, found)
    assert found == WRITTEN_FIELDS


def test_answers_on_the_benchmark_corpora_are_protobuf_s_own_bytes():
    """Many hands of every kind (winning, near-winning, random, 15 tiles) round-trip exactly."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import corpora
    finally:
        sys.path.remove(str(ROOT / "bench"))
    seed = 11  # fixed: other seeds than the benchmark's own
    hands = [
        *corpora.winning_hands(150, seed),
        *corpora.near_winning_hands(150, seed + 1),
        *corpora.random_hands(150, seed + 2),
        *corpora.fifteen_tile_hands(150, seed + 3),
    ]
    for tiles, okey in hands:
        indicator = indicator_for(okey)
        if len(tiles) == 14:
            verdict = check_hand(tiles, okey)
            written = hand_answer(verdict, indicator, okey)
            plain = _plain_answer(verdict, indicator, okey)
            if verdict.kind is not None:
                plain.kind = WIN_KIND_TO_PROTO[verdict.kind]
                plain.kinds.extend(WIN_KIND_TO_PROTO[k] for k in verdict.kinds)
                plain.arrangement.CopyFrom(_plain(verdict.arrangement))
        else:
            verdict = winning_discards(tiles, okey)
            written = discards_answer(verdict, indicator, okey)
            plain = _plain_discards(verdict, indicator, okey)
        _assert_written_as(written, plain)
