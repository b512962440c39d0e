"""The public facts of a state (okey.v1.RoundStatus), given beside every sealed token.

A table reads whose turn it is, what must happen next and how the round
ended from here, never from the token. Nothing here is secret: every seat's
view shows the same facts.
"""

from __future__ import annotations

from okey.v1 import state_pb2
from okey_rules.play.round import RoundState
from okey_rules.play.round_types import Phase

from okey_server.wire.convert_outcome import fill_outcome
from okey_server.wire.convert_ruleset import GAME_TO_PROTO
from okey_server.wire.convert_time import ms_timestamp
from okey_server.wire.deal_ref import fill_deal_facts
from okey_server.wire.round_enums import PHASE_TO_PROTO


def round_status(state: RoundState) -> state_pb2.RoundStatus:
    """The public facts of `state`, either game's."""
    status = state_pb2.RoundStatus(
        game=GAME_TO_PROTO[state.rules.game],
        player_count=state.player_count,
        dealer_seat=state.dealer,
        round=state.round,
        move_number=state.move_number,
        turn_seat=state.turn,
        phase=PHASE_TO_PROTO[state.phase],
        round_over=state.phase is Phase.ROUND_OVER,
        must_finish=state.must_finish,
    )
    fill_deal_facts(status, state.deal_id)
    if state.deadline_ms:
        status.turn_deadline.CopyFrom(ms_timestamp(state.deadline_ms))
    if state.outcome is not None:
        fill_outcome(status.outcome, state.outcome, state.rules, state.okey)
    return status
