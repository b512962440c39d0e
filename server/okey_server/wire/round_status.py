"""The public facts of a state (okey.v1.RoundStatus), given beside every sealed token.

A table reads whose turn it is, what must happen next and how the round
ended from here, never from the token. Nothing here is secret: every seat's
view shows the same facts.
"""

from __future__ import annotations

from okey.v1 import state_pb2
from okey_rules.play.round import RoundState

from okey_server.wire.deal_ref import fill_deal_facts
from okey_server.wire.game_wire import wire_of


def round_status(state: RoundState) -> state_pb2.RoundStatus:
    """The public facts of `state`: those both games share here, the rest by its game's
    translation (okey_server.wire.game_wire)."""
    status = state_pb2.RoundStatus(
        player_count=state.player_count,
        dealer_seat=state.dealer,
        round=state.round,
        move_number=state.move_number,
        turn_seat=state.turn,
    )
    fill_deal_facts(status, state.deal_id)
    wire_of(state).fill_status(status, state)
    return status
