"""okey_rules GameState <-> the sealed state token, and the round outcome for answers.

A state is encoded as the server's internal message (okey.internal.v1.GameState)
and sealed (okey_server.wire.sealing). A token coming in is trusted only once it
opens under a key of the server's ring; it is then decoded without re-judging
the rules (the server built it).
"""

from __future__ import annotations

from collections.abc import Callable

from google.protobuf.message import Message
from okey.internal.v1 import round_state_pb2
from okey.v1 import ruleset_pb2
from okey_rules.bounded_cache import BoundedCache
from okey_rules.errors import InvalidInputError
from okey_rules.play.game_types import GameState, SeatState
from okey_rules.play.round import RoundState, classic_state, okey_101_state
from okey_rules.ruleset import Game, Ruleset
from okey_rules.tiles import TILE_OF_CODE

from okey_server.wire.convert_game101 import fill_state_101, state_101_from_proto
from okey_server.wire.convert_outcome import fill_outcome, outcome_from_proto
from okey_server.wire.convert_ruleset import (
    RULESETS_KEPT,
    ruleset_from_proto,
    ruleset_proto_cached,
)
from okey_server.wire.round_enums import PHASE_TO_DOMAIN, PHASE_TO_PROTO
from okey_server.wire.sealing import STATE, KeyRing, key_ring, seal, unseal

# Every state of a table carries the same ruleset, and a server sees few
# distinct ones, while resolving one (presets, overrides, checks) costs more
# than the rest of a state's decoding: both directions are remembered. A
# state's ruleset is read only after its MAC checks out, so only rulesets the
# server issued reach the table; the bound is for a server that issues many.
_ruleset_of_wire: BoundedCache[bytes, Ruleset] = BoundedCache(RULESETS_KEPT)

# The states this server sealed or opened lately, by key ring and token. A table's
# next call carries the state the last answer issued (the next ApplyMove, the
# four seats' PlayerViews), so most incoming tokens were sealed here moments
# ago. Sealing is deterministic and authenticated: a token equal byte for
# byte to one this process sealed or opened holds that very state, so a hit
# skips opening and decoding it. The ring is part of the key: a token is taken
# from the table only by the ring that sealed or opened it (one process may
# serve under several rings, as tests do). States are immutable: sharing them
# is safe.
_STATES_KEPT = 1024
_decoded_states: BoundedCache[tuple[KeyRing, bytes], RoundState] = BoundedCache(
    _STATES_KEPT
)


def _state_ruleset(message: ruleset_pb2.Ruleset, state_field: str) -> Ruleset:
    """`ruleset_from_proto` of a signed state's ruleset, remembered by its wire bytes."""
    wire = message.SerializeToString(deterministic=True)
    rules = _ruleset_of_wire.get(wire)
    if rules is None:
        rules = ruleset_from_proto("", message, f"{state_field}.ruleset")
        _ruleset_of_wire.put(wire, rules)
    return rules


def _varint(value: int) -> bytes:
    """`value` (>= 0) as a protobuf varint."""
    if value < 0x80:
        return _BYTE[value]
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _tag(message: type[Message], name: str, wire_type: int) -> bytes:
    number: int = message.DESCRIPTOR.fields_by_name[name].number
    return _varint(number << 3 | wire_type)


_BYTE = tuple(bytes((value,)) for value in range(0x80))
_VARINT, _LENGTH_DELIMITED = 0, 2
_SEATS = _tag(round_state_pb2.GameState, "seats", _LENGTH_DELIMITED)
_WALL = _tag(round_state_pb2.GameState, "wall", _LENGTH_DELIMITED)
_RACK = _tag(round_state_pb2.SeatState, "rack", _LENGTH_DELIMITED)
_DISCARDS = _tag(round_state_pb2.SeatState, "discards", _LENGTH_DELIMITED)
_DRAWS = _tag(round_state_pb2.SeatState, "draws", _VARINT)
_GOSTERME = _tag(round_state_pb2.SeatState, "gosterme", _VARINT) + _BYTE[1]
# A tile code is below 0x80, so it is a one-byte varint and a packed list of
# codes is just their bytes: `bytes(codes)`.
if len(TILE_OF_CODE) > 0x80:
    raise AssertionError("tile codes no longer fit one varint byte each")


def _packed_codes(tag: bytes, codes: tuple[int, ...]) -> bytes:
    return tag + _varint(len(codes)) + bytes(codes) if codes else b""


def _piles_wire(state: GameState) -> bytes:
    """The state's seats and wall as GameState wire bytes, to merge into the message.

    Writing them field by field through the protobuf runtime was a third of
    the cost of encoding a state; as bytes they are one merge.
    """
    parts = [_packed_codes(_WALL, state.wall)]
    for seat in state.seats:
        body = _packed_codes(_RACK, seat.rack) + _packed_codes(_DISCARDS, seat.discards)
        if seat.draws:
            body += _DRAWS + _varint(seat.draws)
        if seat.gosterme:
            body += _GOSTERME
        parts += (_SEATS, _varint(len(body)), body)
    return b"".join(parts)


def state_token(state: RoundState, keys: KeyRing | bytes) -> bytes:
    """The state (classic or Okey 101) as the sealed token clients carry."""
    ring = key_ring(keys)
    token = seal(ring, STATE, _internal_message(state).SerializeToString(deterministic=True))
    _decoded_states.put((ring, token), state)
    return token


def _internal_message(state: RoundState) -> round_state_pb2.GameState:
    """The state's internal message, written by its game's encoder."""
    return _ENCODERS[state.rules.game](state)


def _message_101(state: RoundState) -> round_state_pb2.GameState:
    okey_101 = okey_101_state(state)
    message = round_state_pb2.GameState(ruleset=ruleset_proto_cached(okey_101.rules))
    fill_state_101(message, okey_101)
    return message


def _classic_message(round_state: RoundState) -> round_state_pb2.GameState:
    state = classic_state(round_state)
    message = round_state_pb2.GameState(
        ruleset=ruleset_proto_cached(state.rules),  # copied into the new message
        player_count=state.player_count,
        dealer_seat=state.dealer,
        indicator=state.indicator,
        okey_face=state.okey.face,
        turn_seat=state.turn,
        phase=PHASE_TO_PROTO[state.phase],
        move_number=state.move_number,
        deal_id=state.deal_id,
        round=state.round,
        turn_deadline_ms=state.deadline_ms,
        first_seat=state.first_seat,
        gosterme_order=state.gosterme_order,
        must_finish=state.must_finish,
    )
    message.MergeFromString(_piles_wire(state))
    if state.outcome is not None:
        # The state keeps the outcome without its arrangement: answers rebuild it.
        fill_outcome(message.outcome, state.outcome, state.rules, state.okey,
                     with_arrangement=False)
    return message


_ENCODERS: dict[Game, Callable[[RoundState], round_state_pb2.GameState]] = {
    Game.CLASSIC: _classic_message,
    Game.OKEY_101: _message_101,
}


def classic_state_from_token(
    token: bytes, keys: KeyRing | bytes, field: str = "state"
) -> GameState:
    """A classic round's state a client passed back; INVALID_ARGUMENT on `field` unless the
    server issued it, and on its game for an Okey 101 state."""
    return classic_state(state_from_token(token, keys, field), field)


def state_from_token(
    token: bytes, keys: KeyRing | bytes, field: str = "state", cached: bool = True
) -> RoundState:
    """The state (classic or Okey 101) a client passed back; INVALID_ARGUMENT on `field`
    unless a key of the ring sealed it. `cached=False` opens and decodes the token in full
    even when this process sealed or opened it lately (tests hold the two to each other)."""
    ring = key_ring(keys)
    if cached:
        known = _decoded_states.get((ring, token))
        if known is not None:
            return known
    plaintext, _ = unseal(ring, STATE, token, field, "state")
    state = _decode_state(round_state_pb2.GameState.FromString(plaintext), field)
    if cached:
        _decoded_states.put((ring, token), state)
    return state


def _decode_state(message: round_state_pb2.GameState, field: str) -> RoundState:
    """The state an opened token holds, read by its rules' game's decoder."""
    rules = _state_ruleset(message.ruleset, field)
    return _DECODERS[rules.game](message, rules, field)


def _classic_from_proto(
    message: round_state_pb2.GameState, rules: Ruleset, field: str
) -> GameState:
    """A classic round from an opened token's message."""
    phase = PHASE_TO_DOMAIN.get(message.phase)
    if phase is None:  # only a server of another version could have sealed this
        raise InvalidInputError(f"{field}.phase", f"unknown phase value {message.phase}")
    outcome = None
    if message.HasField("outcome"):
        outcome = outcome_from_proto(message.outcome, f"{field}.outcome")
    return GameState(
        rules=rules,
        player_count=message.player_count,
        dealer=message.dealer_seat,
        first_seat=message.first_seat,
        indicator=message.indicator,
        # Slicing a repeated field first copies it in one call (faster than
        # iterating it element by element).
        seats=tuple([
            SeatState(
                rack=tuple(seat.rack[:]),
                discards=tuple(seat.discards[:]),
                draws=seat.draws,
                gosterme=seat.gosterme,
            )
            for seat in message.seats
        ]),
        wall=tuple(message.wall[:]),
        turn=message.turn_seat,
        phase=phase,
        move_number=message.move_number,
        deal_id=message.deal_id,
        round=message.round,
        deadline_ms=message.turn_deadline_ms,
        outcome=outcome,
        gosterme_order=tuple(message.gosterme_order[:]),
        must_finish=message.must_finish,
    )


# Each game's reader of the internal message, looked up by the rules' game.
_DECODERS: dict[Game, Callable[[round_state_pb2.GameState, Ruleset, str], RoundState]] = {
    Game.CLASSIC: _classic_from_proto,
    Game.OKEY_101: state_101_from_proto,
}
