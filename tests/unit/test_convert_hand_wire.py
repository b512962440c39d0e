"""The arrangement written from cached meld bytes equals one built field by field.

convert_hand keeps each meld's serialized form keyed by the engine's Meld
object; these tests build the same answer the slow, obvious way and compare,
on first use (cache miss) and again (cache hit).
"""

from __future__ import annotations

from hypothesis import given, settings
from okey.v1 import hand_pb2
from okey_rules.hand import check_hand
from okey_rules.hand_types import Arrangement
from okey_server.convert_hand import MELD_KIND_TO_PROTO, fill_arrangement
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
        written = hand_pb2.Arrangement()
        fill_arrangement(written, verdict.arrangement)
        assert written == _plain(verdict.arrangement)
