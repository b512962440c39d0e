"""Okey 101 rounds <-> okey.v1: the opaque state's 101 fields, moves, events and views."""

from __future__ import annotations

from collections.abc import Iterable

from google.protobuf.internal.containers import RepeatedCompositeFieldContainer
from okey.internal.v1 import round_state_pb2
from okey.v1 import game_pb2, hand_pb2, state_pb2, tile_pb2
from okey_rules.errors import InvalidInputError
from okey_rules.play.game101_types import (
    Event101,
    Event101Kind,
    Illegal101,
    Laid,
    LayAction,
    Move101,
    Move101Kind,
    Opened,
    Outcome101,
    Penalty,
    Phase101,
    RoundEnd101,
    Seat101,
    State101,
    TableMeld,
)
from okey_rules.play.game101_view import PlayerView101
from okey_rules.ruleset import Ruleset
from okey_rules.search.hand_types import MeldKind
from okey_rules.tiles import TILE_OF_CODE

from okey_server.wire.convert_tile import fill_tile, tile_from_proto, tile_messages
from okey_server.wire.proto_enum import enum_value
from okey_server.wire.view_common import add_seat, view_answer

PHASE_TO_PROTO: dict[Phase101, state_pb2.Phase] = {
    Phase101.FIRST_DISCARD: state_pb2.PHASE_FIRST_DISCARD,
    Phase101.DRAW: state_pb2.PHASE_DRAW,
    Phase101.PLAY: state_pb2.PHASE_DISCARD,  # the turn goes on until its discard
    Phase101.ROUND_OVER: state_pb2.PHASE_ROUND_OVER,
}
PHASE_TO_DOMAIN = {value: phase for phase, value in PHASE_TO_PROTO.items()}
OPENED_TO_PROTO: dict[Opened | None, game_pb2.Opened] = {
    None: game_pb2.OPENED_UNSPECIFIED,
    Opened.MELDS: game_pb2.OPENED_MELDS,
    Opened.PAIRS: game_pb2.OPENED_PAIRS,
}
OPENED_TO_DOMAIN: dict[int, Opened | None] = {
    value: opened for opened, value in OPENED_TO_PROTO.items()
}
PENALTY_TO_PROTO: dict[Penalty, game_pb2.Penalty] = {
    penalty: enum_value(game_pb2.Penalty, f"PENALTY_{penalty.name}") for penalty in Penalty
}
PENALTY_TO_DOMAIN: dict[int, Penalty] = {
    value: penalty for penalty, value in PENALTY_TO_PROTO.items()
}
MELD_KIND_TO_PROTO: dict[MeldKind, hand_pb2.MeldKind] = {
    MeldKind.SET: hand_pb2.MELD_KIND_SET,
    MeldKind.RUN: hand_pb2.MELD_KIND_RUN,
    MeldKind.PAIR: hand_pb2.MELD_KIND_PAIR,
}
MELD_KIND_TO_DOMAIN: dict[int, MeldKind] = {
    value: kind for kind, value in MELD_KIND_TO_PROTO.items()
}
MOVE_TO_PROTO: dict[Move101Kind, game_pb2.MoveKind] = {
    Move101Kind.DISCARD: game_pb2.MOVE_KIND_DISCARD,
    Move101Kind.DRAW_FROM_WALL: game_pb2.MOVE_KIND_DRAW_FROM_WALL,
    Move101Kind.TAKE_DISCARD: game_pb2.MOVE_KIND_TAKE_DISCARD,
    Move101Kind.RETURN_DISCARD: game_pb2.MOVE_KIND_RETURN_DISCARD,
    Move101Kind.OPEN: game_pb2.MOVE_KIND_OPEN,
    Move101Kind.LAY_MELD: game_pb2.MOVE_KIND_LAY_MELD,
    Move101Kind.LAY_OFF: game_pb2.MOVE_KIND_LAY_OFF,
    Move101Kind.TAKE_BACK: game_pb2.MOVE_KIND_TAKE_BACK,
}
MOVE_TO_DOMAIN: dict[int, Move101Kind] = {value: kind for kind, value in MOVE_TO_PROTO.items()}
REASON_TO_PROTO: dict[Illegal101, game_pb2.IllegalReason] = {
    reason: enum_value(game_pb2.IllegalReason, f"ILLEGAL_REASON_{reason.name}")
    for reason in Illegal101
}
EVENT_TO_PROTO: dict[Event101Kind, game_pb2.EventKind] = {
    Event101Kind.DREW_FROM_WALL: game_pb2.EVENT_KIND_DREW_FROM_WALL,
    Event101Kind.TOOK_DISCARD: game_pb2.EVENT_KIND_TOOK_DISCARD,
    Event101Kind.RETURNED_DISCARD: game_pb2.EVENT_KIND_RETURNED_DISCARD,
    Event101Kind.OPENED: game_pb2.EVENT_KIND_OPENED,
    Event101Kind.LAID_MELD: game_pb2.EVENT_KIND_LAID_MELD,
    Event101Kind.LAID_OFF: game_pb2.EVENT_KIND_LAID_OFF,
    Event101Kind.TOOK_BACK: game_pb2.EVENT_KIND_TOOK_BACK,
    Event101Kind.DISCARDED: game_pb2.EVENT_KIND_DISCARDED,
    Event101Kind.PENALTY: game_pb2.EVENT_KIND_PENALTY,
    Event101Kind.ROUND_FINISHED: game_pb2.EVENT_KIND_ROUND_WON,
    Event101Kind.ROUND_EXHAUSTED: game_pb2.EVENT_KIND_ROUND_DRAWN,
    Event101Kind.ROUND_VOID: game_pb2.EVENT_KIND_ROUND_VOID,
    Event101Kind.RETRIEVED_OKEY: game_pb2.EVENT_KIND_RETRIEVED_OKEY,
}
# Events whose tiles go in `tile` (one tile) rather than `tiles`.
_ONE_TILE = (
    Event101Kind.DREW_FROM_WALL,
    Event101Kind.TOOK_DISCARD,
    Event101Kind.RETURNED_DISCARD,
    Event101Kind.LAID_OFF,
    Event101Kind.DISCARDED,
    Event101Kind.ROUND_FINISHED,
    Event101Kind.RETRIEVED_OKEY,
)


# --- the opaque state -------------------------------------------------------------------------


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
            kind=MOVE_TO_PROTO[action.kind],
            meld=action.meld,
            codes=action.codes,
            opened_before=OPENED_TO_PROTO[action.opened_before],
            side=action.side,
            best_before=action.best_before,
        )
    if state.outcome is not None:
        fill_outcome_101(message.outcome, state.outcome)


def state_101_from_proto(
    message: round_state_pb2.GameState, rules: Ruleset, field: str
) -> State101:
    """A 101 round from a GameState whose MAC has been checked (the server wrote it)."""
    phase = PHASE_TO_DOMAIN.get(message.phase)
    if phase is None:  # only a server of another version could have signed this
        raise InvalidInputError(f"{field}.phase", f"unknown phase value {message.phase}")
    outcome = None
    if message.HasField("outcome"):
        got = message.outcome
        kind = (
            RoundEnd101.VOID if got.void_round
            else RoundEnd101.EXHAUSTED if got.drawn else RoundEnd101.FINISHED
        )
        discard = (
            tile_from_proto(got.discard, f"{field}.outcome.discard").code
            if got.HasField("discard") else None
        )
        outcome = Outcome101(kind, got.move_number, got.winner_seat, got.okey_discard,
                             got.one_turn_finish, discard)
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
            LayAction(MOVE_TO_DOMAIN[a.kind], a.meld, tuple(a.codes),
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


# --- moves, events, views ---------------------------------------------------------------------


def _face(message: tile_pb2.Tile, field: str) -> int:
    tile = tile_from_proto(message, field)
    if tile.is_false_joker:
        raise InvalidInputError(field, "an okey stands for a numbered tile, not a false joker")
    return tile.face


def move_101_from_proto(message: game_pb2.Move, field: str) -> Move101:
    """The engine's 101 move; INVALID_ARGUMENT for a kind classic-only or unknown."""
    kind = MOVE_TO_DOMAIN.get(message.kind)
    if kind is None:
        if message.kind == game_pb2.MOVE_KIND_UNSPECIFIED:
            raise InvalidInputError(f"{field}.kind", "a move needs its kind")
        raise InvalidInputError(
            f"{field}.kind", f"move kind {message.kind} is not a move of Okey 101"
        )
    tile = None
    if message.HasField("tile"):
        tile = tile_from_proto(message.tile, f"{field}.tile").code
    melds = []
    for m, meld in enumerate(message.melds):
        group = []
        for t, laid in enumerate(meld.tiles):
            where = f"{field}.melds[{m}].tiles[{t}]"
            code = tile_from_proto(laid.tile, f"{where}.tile").code
            face = _face(laid.stands_for, f"{where}.stands_for") if laid.HasField(
                "stands_for") else None
            group.append((code, face))
        melds.append(tuple(group))
    face = _face(message.stands_for, f"{field}.stands_for") if message.HasField(
        "stands_for") else None
    return Move101(kind, message.seat, tile, tuple(melds), message.pairs, message.meld, face)


def move_101_to_proto(move: Move101) -> game_pb2.Move:
    message = game_pb2.Move(kind=MOVE_TO_PROTO[move.kind], seat=move.seat)
    if move.tile is not None:
        fill_tile(message.tile, TILE_OF_CODE[move.tile])
    message.meld = move.meld
    return message


_ENDS = (Event101Kind.ROUND_FINISHED, Event101Kind.ROUND_EXHAUSTED, Event101Kind.ROUND_VOID)


def fill_events_101(
    target: RepeatedCompositeFieldContainer[game_pb2.Event],
    events: Iterable[Event101],
    outcome: Outcome101 | None,
) -> None:
    """Appends `events`; the event that ends the round carries its `outcome`."""
    for event in events:
        message = target.add(kind=EVENT_TO_PROTO[event.kind], seat=event.seat,
                             private=event.private)
        if event.kind in _ONE_TILE and event.tiles:
            fill_tile(message.tile, TILE_OF_CODE[event.tiles[0]])
        elif event.tiles:
            message.tiles.extend(tile_messages(event.tiles))
        message.from_seat = event.from_seat
        message.meld = event.meld
        if event.penalty is not None:
            message.penalty = PENALTY_TO_PROTO[event.penalty]
            message.points = event.points
        if event.kind in _ENDS and outcome is not None:
            fill_outcome_101(message.outcome, outcome)


def view_101_to_proto(view: PlayerView101) -> game_pb2.PlayerViewResponse:
    """One seat's view of a 101 round (okey_rules.play.game101_view), as the answer."""
    answer = view_answer(view, PHASE_TO_PROTO[view.phase])
    for seat in view.seats:
        side = add_seat(answer, seat)
        side.opened = OPENED_TO_PROTO[seat.opened]
        side.penalties.extend(PENALTY_TO_PROTO[p] for p in seat.penalties)
    for meld in view.table:
        shown = answer.table.add(
            index=meld.index, owner_seat=meld.owner, kind=MELD_KIND_TO_PROTO[meld.kind],
            value=meld.value,
        )
        for laid in meld.tiles:
            placed = shown.tiles.add(wild=laid.wild)
            fill_tile(placed.tile, TILE_OF_CODE[laid.code])
            fill_tile(placed.stands_for, TILE_OF_CODE[laid.face])
    if view.taken_discard is not None:
        fill_tile(answer.taken_discard, TILE_OF_CODE[view.taken_discard])
    if view.outcome is not None:
        fill_outcome_101(answer.outcome, view.outcome)
    return answer


def fill_outcome_101(target: state_pb2.RoundOutcome, outcome: Outcome101) -> None:
    target.move_number = outcome.move_number
    target.drawn = outcome.kind == "exhausted"
    target.void_round = outcome.kind == "void"
    if outcome.kind == "finished":
        target.winner_seat = outcome.finisher
        target.okey_discard = outcome.okey_discard
        target.one_turn_finish = outcome.one_turn
        if outcome.discard is not None:
            fill_tile(target.discard, TILE_OF_CODE[outcome.discard])
