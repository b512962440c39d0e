"""okey.v1 game messages <-> the engine's moves, events and views, one translation for both
games (their words are one vocabulary: okey_rules.play.round_types, view_types)."""

from __future__ import annotations

from collections.abc import Iterable

from google.protobuf.internal.containers import RepeatedCompositeFieldContainer
from google.protobuf.message import Message
from okey.v1 import game_pb2, tile_pb2
from okey_rules.errors import InvalidInputError
from okey_rules.play.round import RoundState
from okey_rules.play.round_types import Event, IllegalReason, Move
from okey_rules.play.view_types import PlayerView
from okey_rules.ruleset import MAX_MOVE_TIMER_SECONDS
from okey_rules.tiles import TILE_OF_CODE, okey_for

from okey_server.wire.convert_outcome import fill_outcome
from okey_server.wire.convert_ruleset import ruleset_proto_cached
from okey_server.wire.convert_tile import fill_tile, tile_from_proto, tile_messages
from okey_server.wire.convert_time import ms_timestamp, timestamp_ms
from okey_server.wire.deal_ref import fill_deal_facts
from okey_server.wire.round_enums import (
    EVENT_KIND_TO_PROTO,
    MELD_KIND_TO_PROTO,
    MOVE_KIND_TO_DOMAIN,
    MOVE_KIND_TO_PROTO,
    OPENED_TO_PROTO,
    PENALTY_TO_PROTO,
    PHASE_TO_PROTO,
    REASON_TO_PROTO,
)


def _face(message: tile_pb2.Tile, field: str) -> int:
    tile = tile_from_proto(message, field)
    if tile.is_false_joker:
        raise InvalidInputError(field, "an okey stands for a numbered tile, not a false joker")
    return tile.face


def move_from_proto(message: game_pb2.Move, field: str) -> Move:
    """The engine's move; INVALID_ARGUMENT on ``field.kind`` / ``field.tile`` when unreadable.

    Whether the move is legal is the engine's answer, not an error; here only
    a move no rule could judge is refused (no kind, an impossible tile). A kind of
    the other game is the engine's to refuse, as input no rule can judge.
    """
    kind = MOVE_KIND_TO_DOMAIN.get(message.kind)
    if kind is None:
        if message.kind == game_pb2.MOVE_KIND_UNSPECIFIED:
            raise InvalidInputError(f"{field}.kind", "a move needs its kind")
        raise InvalidInputError(f"{field}.kind", f"unknown move kind value {message.kind}")
    tile = (tile_from_proto(message.tile, f"{field}.tile").code
            if message.HasField("tile") else None)
    melds = []
    for m, meld in enumerate(message.melds):
        group = []
        for t, laid in enumerate(meld.tiles):
            where = f"{field}.melds[{m}].tiles[{t}]"
            code = tile_from_proto(laid.tile, f"{where}.tile").code
            face = (_face(laid.stands_for, f"{where}.stands_for")
                    if laid.HasField("stands_for") else None)
            group.append((code, face))
        melds.append(tuple(group))
    face = (_face(message.stands_for, f"{field}.stands_for")
            if message.HasField("stands_for") else None)
    return Move(kind, message.seat, tile, tuple(melds), message.pairs, message.meld, face)


def move_to_proto(move: Move) -> game_pb2.Move:
    """A move as ApplyMove takes it: kind, seat, tile, melds (each okey with the face it
    stands for, when chosen), pairs, the lay-off's meld and face."""
    message = game_pb2.Move(kind=MOVE_KIND_TO_PROTO[move.kind], seat=move.seat, meld=move.meld,
                            pairs=move.pairs)
    if move.tile is not None:
        fill_tile(message.tile, TILE_OF_CODE[move.tile])
    for group in move.melds:
        meld = message.melds.add()
        for code, face in group:
            laid = meld.tiles.add()
            fill_tile(laid.tile, TILE_OF_CODE[code])
            if face is not None:
                fill_tile(laid.stands_for, TILE_OF_CODE[face])
    if move.face is not None:
        fill_tile(message.stands_for, TILE_OF_CODE[move.face])
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
    state: RoundState,
) -> None:
    """Appends `events` to a repeated Event field; outcomes come with their arrangement."""
    for event in events:
        message = target.add(
            kind=EVENT_KIND_TO_PROTO[event.kind],
            seat=event.seat,
            from_seat=event.from_seat,
            private=event.private,
            meld=event.meld,
        )
        if event.tile is not None:
            fill_tile(message.tile, TILE_OF_CODE[event.tile])
        if event.tiles:
            message.tiles.extend(tile_messages(event.tiles))
        if event.penalty is not None:
            message.penalty = PENALTY_TO_PROTO[event.penalty]
            message.points = event.points
        if event.outcome is not None:
            fill_outcome(message.outcome, event.outcome, state.rules, state.okey)


def illegal_reason_to_proto(reason: IllegalReason | None) -> game_pb2.IllegalReason:
    return game_pb2.ILLEGAL_REASON_UNSPECIFIED if reason is None else REASON_TO_PROTO[reason]


def view_to_proto(view: PlayerView) -> game_pb2.PlayerViewResponse:
    """One seat's view: its own rack, every seat's counts and visible discards, the table;
    never another rack or the wall's order (the engine's view holds none)."""
    answer = game_pb2.PlayerViewResponse(
        seat=view.seat,
        ruleset=ruleset_proto_cached(view.rules),  # copied into the answer
        player_count=view.player_count,
        dealer_seat=view.dealer,
        rack=tile_messages(view.rack),
        wall_size=view.wall_size,
        turn_seat=view.turn,
        phase=PHASE_TO_PROTO[view.phase],
        move_number=view.move_number,
        round=view.round,
    )
    fill_deal_facts(answer, view.deal_id)
    indicator = TILE_OF_CODE[view.indicator]
    okey = okey_for(indicator)
    fill_tile(answer.indicator, indicator)
    fill_tile(answer.okey, okey)
    for seat in view.seats:
        answer.seats.add(
            seat=seat.seat,
            rack_size=seat.rack_size,
            discard_count=seat.discard_count,
            discards=tile_messages(seat.discards),
            whole_pile=seat.whole_pile,
            gosterme=seat.gosterme,
            opened=OPENED_TO_PROTO[seat.opened],
            penalties=[PENALTY_TO_PROTO[p] for p in seat.penalties],
        )
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
    if view.deadline_ms:
        answer.turn_deadline.CopyFrom(ms_timestamp(view.deadline_ms))
    if view.outcome is not None:
        fill_outcome(answer.outcome, view.outcome, view.rules, okey)
    return answer
