"""What a seat's view shows in both games, as the okey.v1 answer: each game's view
(okey_rules.play.game_view, game101_view) carries these under the same names, and its
converter adds what only that game shows."""

from __future__ import annotations

from typing import Protocol

from okey.v1 import game_pb2, state_pb2
from okey_rules.ruleset import Ruleset
from okey_rules.tiles import TILE_OF_CODE, okey_for

from okey_server.wire.convert_ruleset import ruleset_proto_cached
from okey_server.wire.convert_tile import fill_tile, tile_messages
from okey_server.wire.deal_ref import fill_deal_facts


class SeatShown(Protocol):
    @property
    def seat(self) -> int: ...
    @property
    def rack_size(self) -> int: ...
    @property
    def discard_count(self) -> int: ...
    @property
    def discards(self) -> tuple[int, ...]: ...
    @property
    def whole_pile(self) -> bool: ...


class ViewShown(Protocol):
    @property
    def seat(self) -> int: ...
    @property
    def rules(self) -> Ruleset: ...
    @property
    def player_count(self) -> int: ...
    @property
    def dealer(self) -> int: ...
    @property
    def indicator(self) -> int: ...
    @property
    def rack(self) -> tuple[int, ...]: ...
    @property
    def wall_size(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def move_number(self) -> int: ...
    @property
    def deal_id(self) -> str: ...
    @property
    def round(self) -> int: ...


def view_answer(view: ViewShown, phase: state_pb2.Phase) -> game_pb2.PlayerViewResponse:
    """The answer with what both games' views show, `phase` written by the caller's game."""
    answer = game_pb2.PlayerViewResponse(
        seat=view.seat,
        ruleset=ruleset_proto_cached(view.rules),  # copied into the answer
        player_count=view.player_count,
        dealer_seat=view.dealer,
        rack=tile_messages(view.rack),
        wall_size=view.wall_size,
        turn_seat=view.turn,
        phase=phase,
        move_number=view.move_number,
        round=view.round,
    )
    fill_deal_facts(answer, view.deal_id)
    indicator = TILE_OF_CODE[view.indicator]
    fill_tile(answer.indicator, indicator)
    fill_tile(answer.okey, okey_for(indicator))
    return answer


def add_seat(answer: game_pb2.PlayerViewResponse, seat: SeatShown) -> game_pb2.SeatView:
    """A seat's public side as both games show it; the caller adds its game's parts."""
    return answer.seats.add(
        seat=seat.seat,
        rack_size=seat.rack_size,
        discard_count=seat.discard_count,
        discards=tile_messages(seat.discards),
        whole_pile=seat.whole_pile,
    )
