"""Hand-checking answers (HandVerdict / DiscardVerdict) -> okey.v1.CheckHandResponse."""

from __future__ import annotations

from okey.v1 import hand_pb2
from okey_rules.hand_types import (
    Arrangement,
    DiscardVerdict,
    HandVerdict,
    MeldKind,
    WinKind,
)
from okey_rules.tiles import Tile

from okey_server.convert_tile import fill_tile

WIN_KIND_TO_PROTO: dict[WinKind, int] = {
    WinKind.MELDS: hand_pb2.WIN_KIND_MELDS,
    WinKind.SEVEN_PAIRS: hand_pb2.WIN_KIND_SEVEN_PAIRS,
    WinKind.KAFA: hand_pb2.WIN_KIND_KAFA,
}
MELD_KIND_TO_PROTO: dict[MeldKind, int] = {
    MeldKind.SET: hand_pb2.MELD_KIND_SET,
    MeldKind.RUN: hand_pb2.MELD_KIND_RUN,
    MeldKind.PAIR: hand_pb2.MELD_KIND_PAIR,
}


def fill_arrangement(target: hand_pb2.Arrangement, arrangement: Arrangement) -> None:
    """Writes the melds and their notation into `target` (built in place: a hot path)."""
    for meld in arrangement.melds:
        meld_message = target.melds.add(kind=MELD_KIND_TO_PROTO[meld.kind])
        for placed in meld.tiles:
            placed_message = meld_message.tiles.add(wild=placed.wild)
            fill_tile(placed_message.tile, placed.tile)
            fill_tile(placed_message.stands_for, placed.stands_for)
    target.notation = arrangement.notation()


def _base(winning: bool, summary: str, indicator: Tile, okey: Tile) -> hand_pb2.CheckHandResponse:
    response = hand_pb2.CheckHandResponse(winning=winning, summary=summary)
    fill_tile(response.indicator, indicator)
    fill_tile(response.okey, okey)
    return response


def hand_verdict_to_proto(
    verdict: HandVerdict, indicator: Tile, okey: Tile
) -> hand_pb2.CheckHandResponse:
    """The answer for 14 tiles: verdict, best kind, every kind, one canonical arrangement."""
    response = _base(verdict.winning, verdict.summary, indicator, okey)
    if verdict.kind is not None:
        response.kind = WIN_KIND_TO_PROTO[verdict.kind]
    response.kinds.extend(WIN_KIND_TO_PROTO[kind] for kind in verdict.kinds)
    if verdict.arrangement is not None:
        fill_arrangement(response.arrangement, verdict.arrangement)
    return response


def discard_verdict_to_proto(
    verdict: DiscardVerdict, indicator: Tile, okey: Tile
) -> hand_pb2.CheckHandResponse:
    """The answer for 15 tiles: `winning` is true when at least one discard wins."""
    response = _base(verdict.winning, verdict.summary, indicator, okey)
    response.okey_discard_wins = verdict.okey_discard_wins
    for discard in verdict.discards:
        message = response.winning_discards.add(
            okey=discard.okey, kind=WIN_KIND_TO_PROTO[discard.kind]
        )
        fill_tile(message.tile, discard.tile)
        fill_arrangement(message.arrangement, discard.arrangement)
    return response
