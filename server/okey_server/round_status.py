"""The public facts of a state (okey.v1.RoundStatus), given beside every sealed token.

A table reads whose turn it is, what must happen next and how the round
ended from here, never from the token. Nothing here is secret: every seat's
view shows the same facts.
"""

from __future__ import annotations

from okey.v1 import ruleset_pb2, state_pb2
from okey_rules.game101_types import Phase101, State101
from okey_rules.game_types import GameState, Phase

from okey_server.convert_game101 import PHASE_TO_PROTO as PHASE_101_TO_PROTO
from okey_server.convert_game101 import fill_outcome_101
from okey_server.convert_state import PHASE_TO_PROTO, fill_outcome
from okey_server.convert_time import ms_timestamp
from okey_server.deal_ref import fill_deal_facts


def round_status(state: GameState | State101) -> state_pb2.RoundStatus:
    """The public facts of `state`."""
    status = state_pb2.RoundStatus(
        player_count=state.player_count,
        dealer_seat=state.dealer,
        round=state.round,
        move_number=state.move_number,
        turn_seat=state.turn,
    )
    fill_deal_facts(status, state.deal_id)
    if isinstance(state, State101):
        status.game = ruleset_pb2.GAME_OKEY_101
        status.phase = PHASE_101_TO_PROTO[state.phase]
        status.round_over = state.phase is Phase101.ROUND_OVER
        if state.outcome is not None:
            fill_outcome_101(status.outcome, state.outcome)
        return status
    status.game = ruleset_pb2.GAME_CLASSIC
    status.phase = PHASE_TO_PROTO[state.phase]
    status.round_over = state.phase is Phase.ROUND_OVER
    status.must_finish = state.must_finish
    if state.deadline_ms:
        status.turn_deadline.CopyFrom(ms_timestamp(state.deadline_ms))
    if state.outcome is not None:
        fill_outcome(status.outcome, state.outcome, state)
    return status
