"""okey_rules.dealing.deal_types.Deal -> okey.v1.DealResponse with the opening state sealed."""

from __future__ import annotations

from okey.v1 import deal_pb2
from okey_rules.dealing.deal_types import (
    Deal,
    DealMethod,
    FormalProcedure,
    codes_notation,
    rack_notation,
)
from okey_rules.errors import InvalidInputError
from okey_rules.tiles import TILE_OF_CODE

from okey_server.wire.convert_ruleset import GAME_TO_PROTO
from okey_server.wire.convert_tile import fill_tile, tile_messages

METHOD_TO_DOMAIN: dict[deal_pb2.DealMethod, DealMethod] = {
    deal_pb2.DEAL_METHOD_UNSPECIFIED: DealMethod.INFORMAL,
    deal_pb2.DEAL_METHOD_INFORMAL: DealMethod.INFORMAL,
    deal_pb2.DEAL_METHOD_FORMAL: DealMethod.FORMAL,
}
METHOD_TO_PROTO: dict[DealMethod, deal_pb2.DealMethod] = {
    DealMethod.INFORMAL: deal_pb2.DEAL_METHOD_INFORMAL,
    DealMethod.FORMAL: deal_pb2.DEAL_METHOD_FORMAL,
}


def method_from_proto(value: deal_pb2.DealMethod) -> DealMethod:
    method = METHOD_TO_DOMAIN.get(value)
    if method is None:
        raise InvalidInputError("method", f"unknown deal method value {value}")
    return method


def _fill_formal(target: deal_pb2.FormalDeal, formal: FormalProcedure) -> None:
    target.dice.extend(formal.dice)
    target.dice_given = formal.dice_given
    for index, stack in enumerate(formal.stacks):
        target.stacks.add(
            index=index,
            letter=formal.letter_of(index),
            tiles=tile_messages(stack),
            notation=codes_notation(stack),
        )
    fill_tile(target.spare, TILE_OF_CODE[formal.spare])
    target.indicator_stack = formal.indicator_stack
    target.indicator_position = formal.indicator_position
    for take in formal.takes:
        target.takes.add(
            seat=take.seat,
            stack=take.stack,
            letter=take.letter,
            part=take.part,
            tiles=tile_messages(take.tiles),
        )


def deal_to_proto(dealt: Deal) -> deal_pb2.DealResponse:
    """The Deal answer's tiles and procedure (seed, ids and state are the caller's to add)."""
    response = deal_pb2.DealResponse(
        method=METHOD_TO_PROTO[dealt.method],
        game=GAME_TO_PROTO[dealt.game],
        player_count=dealt.player_count,
        dealer_seat=dealt.dealer,
        first_seat=dealt.first_seat,
    )
    fill_tile(response.indicator, dealt.indicator_tile)
    fill_tile(response.okey, dealt.okey)
    for seat, rack in enumerate(dealt.racks):
        response.racks.add(seat=seat, tiles=tile_messages(rack), notation=rack_notation(rack))
    response.wall.extend(tile_messages(dealt.wall))
    if dealt.formal is not None:
        _fill_formal(response.formal, dealt.formal)
    return response
