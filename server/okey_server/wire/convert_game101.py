"""An Okey 101 round <-> the sealed state's internal message (okey.internal.v1.GameState):
the fields only Okey 101 has (the table, openings, penalties, the turn's laying moves)."""

from __future__ import annotations

from okey.internal.v1 import round_state_pb2
from okey_rules.errors import InvalidInputError
from okey_rules.play.game101_types import Laid, LayAction, Seat101, State101, TableMeld
from okey_rules.ruleset import Ruleset

from okey_server.wire.convert_outcome import fill_outcome, outcome_from_proto
from okey_server.wire.round_enums import (
    MELD_KIND_TO_DOMAIN,
    MELD_KIND_TO_PROTO,
    MOVE_KIND_TO_DOMAIN,
    MOVE_KIND_TO_PROTO,
    OPENED_TO_DOMAIN,
    OPENED_TO_PROTO,
    PENALTY_TO_DOMAIN,
    PENALTY_TO_PROTO,
    PHASE_TO_DOMAIN,
    PHASE_TO_PROTO,
)


def fill_state_101(message: round_state_pb2.GameState, state: State101) -> None:
    """Writes a 101 round into an (unsigned) GameState message."""
    message.player_count = state.player_count
    message.dealer_seat = state.dealer
    message.indicator = state.indicator
    message.okey_face = state.okey.face
    message.wall.extend(state.wall)
    message.turn_seat = state.turn
    message.phase = PHASE_TO_PROTO[state.phase]
    message.move_number = state.move_number
    message.deal_id = state.deal_id
    message.round = state.round
    message.first_seat = state.dealer
    message.taken = 0 if state.taken is None else state.taken + 1
    message.turn_start = state.turn_start
    message.best_opening = state.best_opening
    message.best_pairs = state.best_pairs
    message.riziko = state.riziko
    for seat in state.seats:
        message.seats.add(
            rack=seat.rack,
            discards=seat.discards,
            opened=OPENED_TO_PROTO[seat.opened],
            opened_on_move=seat.opened_on_move,
            penalties=[PENALTY_TO_PROTO[p] for p in seat.penalties],
        )
    for meld in state.table:
        message.table.add(
            owner=meld.owner,
            kind=MELD_KIND_TO_PROTO[meld.kind],
            codes=[laid.code for laid in meld.tiles],
            faces=[laid.face for laid in meld.tiles],
        )
    message.took_back = state.took_back
    for action in state.laid:
        message.laid.add(
            kind=MOVE_KIND_TO_PROTO[action.kind],
            meld=action.meld,
            codes=action.codes,
            opened_before=OPENED_TO_PROTO[action.opened_before],
            side=action.side,
            best_before=action.best_before,
        )
    if state.outcome is not None:
        fill_outcome(message.outcome, state.outcome, state.rules, state.okey,
                     with_arrangement=False)


def state_101_from_proto(
    message: round_state_pb2.GameState, rules: Ruleset, field: str
) -> State101:
    """A 101 round from a GameState whose MAC has been checked (the server wrote it)."""
    phase = PHASE_TO_DOMAIN.get(message.phase)
    if phase is None:  # only a server of another version could have signed this
        raise InvalidInputError(f"{field}.phase", f"unknown phase value {message.phase}")
    outcome = None
    if message.HasField("outcome"):
        outcome = outcome_from_proto(message.outcome, f"{field}.outcome")
    return State101(
        rules=rules,
        dealer=message.dealer_seat,
        indicator=message.indicator,
        seats=tuple(
            Seat101(
                rack=tuple(seat.rack),
                discards=tuple(seat.discards),
                opened=OPENED_TO_DOMAIN[seat.opened],
                opened_on_move=seat.opened_on_move,
                penalties=tuple(PENALTY_TO_DOMAIN[p] for p in seat.penalties),
            )
            for seat in message.seats
        ),
        wall=tuple(message.wall),
        turn=message.turn_seat,
        phase=phase,
        table=tuple(
            TableMeld(
                owner=meld.owner,
                kind=MELD_KIND_TO_DOMAIN[meld.kind],
                tiles=tuple(Laid(c, f) for c, f in zip(meld.codes, meld.faces, strict=True)),
            )
            for meld in message.table
        ),
        move_number=message.move_number,
        taken=message.taken - 1 if message.taken else None,
        laid=tuple(
            LayAction(MOVE_KIND_TO_DOMAIN[a.kind], a.meld, tuple(a.codes),
                      OPENED_TO_DOMAIN[a.opened_before], a.side, a.best_before)
            for a in message.laid
        ),
        took_back=message.took_back,
        turn_start=message.turn_start,
        best_opening=message.best_opening,
        best_pairs=message.best_pairs,
        riziko=message.riziko,
        deal_id=message.deal_id,
        round=message.round,
        outcome=outcome,
    )
