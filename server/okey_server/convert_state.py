"""okey_rules GameState <-> the signed okey.v1.GameState, and the round outcome for answers.

A state coming in is trusted only once its MAC checks out with the server's
key; it is then decoded without re-judging the rules (the server built it).
"""

from __future__ import annotations

from okey.v1 import hand_pb2, state_pb2
from okey_rules.errors import InvalidInputError
from okey_rules.game_types import GameState, Outcome, Phase, SeatState
from okey_rules.hand import check_hand
from okey_rules.tiles import TILE_OF_CODE

from okey_server.convert_hand import WIN_KIND_TO_PROTO, arrangement_bytes
from okey_server.convert_ruleset import ruleset_from_proto, ruleset_to_proto
from okey_server.convert_tile import fill_tile, tile_from_proto, tile_messages
from okey_server.state_mac import sign_state, state_mac_ok

PHASE_TO_PROTO: dict[Phase, int] = {
    Phase.FIRST_DISCARD: state_pb2.PHASE_FIRST_DISCARD,
    Phase.DRAW: state_pb2.PHASE_DRAW,
    Phase.DISCARD: state_pb2.PHASE_DISCARD,
    Phase.ROUND_OVER: state_pb2.PHASE_ROUND_OVER,
}
PHASE_TO_DOMAIN: dict[int, Phase] = {value: phase for phase, value in PHASE_TO_PROTO.items()}
WIN_KIND_TO_DOMAIN = {value: kind for kind, value in WIN_KIND_TO_PROTO.items()}


def state_to_proto(state: GameState, key: bytes) -> state_pb2.GameState:
    """The state as the opaque, signed message clients carry."""
    message = state_pb2.GameState(
        ruleset=ruleset_to_proto(state.rules),
        player_count=state.player_count,
        dealer_seat=state.dealer,
        indicator=state.indicator,
        okey_face=state.okey.face,
        wall=state.wall,
        turn_seat=state.turn,
        phase=PHASE_TO_PROTO[state.phase],
        move_number=state.move_number,
        deal_id=state.deal_id,
        round=state.round,
        turn_deadline_ms=state.deadline_ms,
        first_seat=state.first_seat,
        gosterme_order=state.gosterme_order,
    )
    for seat in state.seats:
        message.seats.add(
            rack=seat.rack, discards=seat.discards, draws=seat.draws, gosterme=seat.gosterme
        )
    if state.outcome is not None:
        # The state keeps the outcome without its arrangement: answers rebuild it.
        fill_outcome(message.outcome, state.outcome, state, with_arrangement=False)
    sign_state(message, key)
    return message


def state_from_proto(message: state_pb2.GameState, key: bytes, field: str = "state") -> GameState:
    """The state a client passed back; INVALID_ARGUMENT on `field` unless the server issued it."""
    if not message.ByteSize():
        raise InvalidInputError(
            field, "a state is required: pass the state a deal or a move returned"
        )
    if not message.mac:
        raise InvalidInputError(
            f"{field}.mac", "the state carries no MAC: pass it exactly as the server issued it"
        )
    if not state_mac_ok(message, key):
        raise InvalidInputError(
            f"{field}.mac",
            "the state's MAC does not match: it was changed after the server issued it,"
            " or issued under another signing key",
        )
    phase = PHASE_TO_DOMAIN.get(message.phase)
    if phase is None:  # only a server of another version could have signed this
        raise InvalidInputError(f"{field}.phase", f"unknown phase value {message.phase}")
    outcome = None
    if message.HasField("outcome"):
        outcome = _outcome_from_proto(message.outcome, f"{field}.outcome")
    return GameState(
        rules=ruleset_from_proto("", message.ruleset, f"{field}.ruleset"),
        player_count=message.player_count,
        dealer=message.dealer_seat,
        first_seat=message.first_seat,
        indicator=message.indicator,
        seats=tuple(
            SeatState(
                rack=tuple(seat.rack),
                discards=tuple(seat.discards),
                draws=seat.draws,
                gosterme=seat.gosterme,
            )
            for seat in message.seats
        ),
        wall=tuple(message.wall),
        turn=message.turn_seat,
        phase=phase,
        move_number=message.move_number,
        deal_id=message.deal_id,
        round=message.round,
        deadline_ms=message.turn_deadline_ms,
        outcome=outcome,
        gosterme_order=tuple(message.gosterme_order),
    )


def _outcome_from_proto(message: state_pb2.RoundOutcome, field: str) -> Outcome:
    def code(tile: object, where: str) -> int:
        return tile_from_proto(tile, where).code  # type: ignore[arg-type]

    return Outcome(
        drawn=message.drawn,
        move_number=message.move_number,
        gosterme=tuple(
            (claim.seat, code(claim.tile, f"{field}.gosterme[{i}].tile"))
            for i, claim in enumerate(message.gosterme)
        ),
        winner=message.winner_seat,
        kind=WIN_KIND_TO_DOMAIN.get(message.win_kind),
        okey_discard=message.okey_discard,
        discard=code(message.discard, f"{field}.discard") if message.HasField("discard") else None,
        hand=tuple(code(tile, f"{field}.hand[{i}]") for i, tile in enumerate(message.hand)),
    )


def fill_outcome(
    target: state_pb2.RoundOutcome,
    outcome: Outcome,
    state: GameState,
    with_arrangement: bool = True,
) -> None:
    """Writes `outcome` into `target`; the arrangement is rebuilt from the winner's hand."""
    target.drawn = outcome.drawn
    target.move_number = outcome.move_number
    for seat, tile in outcome.gosterme:
        claim = target.gosterme.add(seat=seat)
        fill_tile(claim.tile, TILE_OF_CODE[tile])
    if outcome.drawn:
        return
    target.winner_seat = outcome.winner
    if outcome.kind is not None:
        target.win_kind = WIN_KIND_TO_PROTO[outcome.kind]  # type: ignore[assignment]
    target.okey_discard = outcome.okey_discard
    if outcome.discard is not None:
        fill_tile(target.discard, TILE_OF_CODE[outcome.discard])
    target.hand.extend(tile_messages(outcome.hand))
    if with_arrangement and outcome.hand:
        verdict = check_hand([TILE_OF_CODE[c] for c in outcome.hand], state.okey, state.rules)
        if verdict.arrangement is not None:
            target.arrangement.CopyFrom(
                hand_pb2.Arrangement.FromString(arrangement_bytes(verdict.arrangement))
            )
