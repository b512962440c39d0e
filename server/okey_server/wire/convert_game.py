"""okey.v1 game messages <-> the engine's moves, events, views and replay log."""

from __future__ import annotations

from collections.abc import Iterable

from google.protobuf.internal.containers import RepeatedCompositeFieldContainer
from google.protobuf.message import Message
from okey.v1 import game_pb2
from okey_rules.errors import InvalidInputError
from okey_rules.play.game_types import (
    Event,
    EventKind,
    GameState,
    IllegalReason,
    Move,
    MoveKind,
)
from okey_rules.play.game_view import PlayerView
from okey_rules.ruleset import MAX_MOVE_TIMER_SECONDS
from okey_rules.tiles import TILE_OF_CODE

from okey_server.wire.convert_state import PHASE_TO_PROTO, fill_outcome
from okey_server.wire.convert_tile import fill_tile, tile_from_proto, tile_message
from okey_server.wire.convert_time import ms_timestamp, timestamp_ms
from okey_server.wire.proto_enum import enum_value
from okey_server.wire.view_common import add_seat, view_answer

MOVE_KIND_TO_PROTO: dict[MoveKind, game_pb2.MoveKind] = {
    MoveKind.DRAW_FROM_WALL: game_pb2.MOVE_KIND_DRAW_FROM_WALL,
    MoveKind.TAKE_DISCARD: game_pb2.MOVE_KIND_TAKE_DISCARD,
    MoveKind.DISCARD: game_pb2.MOVE_KIND_DISCARD,
    MoveKind.DECLARE_WIN: game_pb2.MOVE_KIND_DECLARE_WIN,
    MoveKind.GOSTERME: game_pb2.MOVE_KIND_GOSTERME,
    MoveKind.END_ROUND: game_pb2.MOVE_KIND_END_ROUND,
    MoveKind.TIMEOUT: game_pb2.MOVE_KIND_TIMEOUT,
}
MOVE_KIND_TO_DOMAIN = {value: kind for kind, value in MOVE_KIND_TO_PROTO.items()}

REASON_TO_PROTO: dict[IllegalReason, game_pb2.IllegalReason] = {
    reason: enum_value(game_pb2.IllegalReason, f"ILLEGAL_REASON_{reason.name}")
    for reason in IllegalReason
}
EVENT_KIND_TO_PROTO: dict[EventKind, game_pb2.EventKind] = {
    kind: enum_value(game_pb2.EventKind, f"EVENT_KIND_{kind.name}") for kind in EventKind
}


def move_from_proto(message: game_pb2.Move, field: str) -> Move:
    """The engine's move; INVALID_ARGUMENT on ``field.kind`` / ``field.tile`` when unreadable.

    Whether the move is legal is the engine's answer, not an error; here only
    a move no rule could judge is refused (no kind, an impossible tile).
    """
    kind = MOVE_KIND_TO_DOMAIN.get(message.kind)
    if kind is None:
        if message.kind == game_pb2.MOVE_KIND_UNSPECIFIED:
            raise InvalidInputError(f"{field}.kind", "a move needs its kind")
        raise InvalidInputError(f"{field}.kind", f"unknown move kind value {message.kind}")
    tile = tile_from_proto(message.tile, f"{field}.tile") if message.HasField("tile") else None
    return Move(kind, message.seat, tile)


def move_to_proto(move: Move) -> game_pb2.Move:
    message = game_pb2.Move(kind=MOVE_KIND_TO_PROTO[move.kind], seat=move.seat)
    if move.tile is not None:
        fill_tile(message.tile, move.tile)
    return message


# The last second a google.protobuf.Timestamp may hold (9999-12-31T23:59:59Z).
LAST_TIMESTAMP_SECONDS = 253_402_300_799
# The latest clock accepted: a turn's deadline (at most the longest move timer later)
# must itself be a valid Timestamp, which strict clients check (Go's CheckValid,
# Java's checkValid) and Python's ToMilliseconds() refuses past that second.
MAX_CLOCK_SECONDS = LAST_TIMESTAMP_SECONDS - MAX_MOVE_TIMER_SECONDS


def clock_ms(message: Message, field: str = "now", path: str | None = None) -> int | None:
    """The caller's clock in milliseconds, None when `field` is unset (an untimed call).

    A clock before 1970 or within the longest move timer of the end of 9999 is
    INVALID_ARGUMENT on `path` (default: `field`).
    """
    if not message.HasField(field):
        return None
    stamp = getattr(message, field)
    if not 0 <= stamp.seconds <= MAX_CLOCK_SECONDS or not 0 <= stamp.nanos < 1_000_000_000:
        raise InvalidInputError(
            path or field,
            "the clock must be a valid time from 1970-01-01 to 9999-12-31T23:57:59Z (a turn's"
            " deadline must still be a valid time)",
        )
    return timestamp_ms(stamp)


def fill_events(
    target: RepeatedCompositeFieldContainer[game_pb2.Event],
    events: Iterable[Event],
    state: GameState,
) -> None:
    """Appends `events` to a repeated Event field; outcomes come with their arrangement."""
    for event in events:
        message = target.add(
            kind=EVENT_KIND_TO_PROTO[event.kind],
            seat=event.seat,
            from_seat=event.from_seat,
            private=event.private,
        )
        if event.tile is not None:
            message.tile.CopyFrom(tile_message(TILE_OF_CODE[event.tile]))
        if event.outcome is not None:
            fill_outcome(message.outcome, event.outcome, state)


def illegal_reason_to_proto(reason: IllegalReason | None) -> game_pb2.IllegalReason:
    return game_pb2.ILLEGAL_REASON_UNSPECIFIED if reason is None else REASON_TO_PROTO[reason]


def view_to_proto(view: PlayerView, state: GameState) -> game_pb2.PlayerViewResponse:
    """One seat's view: its own rack, every seat's counts and visible discards, no wall order."""
    answer = view_answer(view, PHASE_TO_PROTO[view.phase])
    for seat in view.seats:
        add_seat(answer, seat).gosterme = seat.gosterme
    if view.deadline_ms:
        answer.turn_deadline.CopyFrom(ms_timestamp(view.deadline_ms))
    if view.outcome is not None:
        fill_outcome(answer.outcome, view.outcome, state)
    return answer
