"""Each game's translation for GameService, looked up by game as okey_rules.play.round looks up
its rules: the game servicer asks neither which game a state belongs to nor how its moves,
events and views are written.

A `GameWire` only translates between okey.v1 messages and one game's engine types
(okey_server.wire.convert_game for classic Okey, okey_server.wire.convert_game101 for Okey 101).
The values a wire is given come from its own game's round (`wire_of` and
`okey_rules.play.round.round_of` pick both by the state's rules), so each wire takes them as
its game's types without checking (`cast`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, cast

from google.protobuf.internal.containers import RepeatedCompositeFieldContainer
from okey.v1 import game_pb2, ruleset_pb2, state_pb2
from okey_rules.play.game101_types import Event101, Illegal101, Move101, Phase101, State101
from okey_rules.play.game101_view import PlayerView101
from okey_rules.play.game_types import Event, GameState, IllegalReason, Move, Phase
from okey_rules.play.game_view import PlayerView
from okey_rules.play.round import AnyMove, AnyView, RoundState
from okey_rules.ruleset import Game

from okey_server.wire.convert_game import (
    fill_events,
    illegal_reason_to_proto,
    move_from_proto,
    move_to_proto,
    view_to_proto,
)
from okey_server.wire.convert_game101 import (
    PHASE_TO_PROTO as PHASE_101_TO_PROTO,
)
from okey_server.wire.convert_game101 import (
    REASON_TO_PROTO as REASON_101_TO_PROTO,
)
from okey_server.wire.convert_game101 import (
    fill_events_101,
    fill_outcome_101,
    move_101_from_proto,
    move_101_to_proto,
    view_101_to_proto,
)
from okey_server.wire.convert_state import PHASE_TO_PROTO, fill_outcome
from okey_server.wire.convert_time import ms_timestamp

Events = RepeatedCompositeFieldContainer[game_pb2.Event]


class GameWire(Protocol):
    """One game's moves, reasons, events and views as okey.v1 messages."""

    def move_from_proto(self, message: game_pb2.Move, field: str) -> AnyMove: ...

    def move_to_proto(self, move: AnyMove) -> game_pb2.Move: ...

    def reason_to_proto(self, reason: IllegalReason | Illegal101 | None
                        ) -> game_pb2.IllegalReason: ...

    def fill_events(self, target: Events, events: Iterable[Event | Event101],
                    state: RoundState) -> None: ...

    def view_to_proto(self, view: AnyView, state: RoundState) -> game_pb2.PlayerViewResponse: ...

    def fill_status(self, status: state_pb2.RoundStatus, state: RoundState) -> None:
        """The game's own facts of okey.v1.RoundStatus: game, phase, deadline, outcome."""


class ClassicWire:
    def move_from_proto(self, message: game_pb2.Move, field: str) -> AnyMove:
        return move_from_proto(message, field)

    def move_to_proto(self, move: AnyMove) -> game_pb2.Move:
        return move_to_proto(cast(Move, move))

    def reason_to_proto(self, reason: IllegalReason | Illegal101 | None
                        ) -> game_pb2.IllegalReason:
        return illegal_reason_to_proto(cast(IllegalReason | None, reason))

    def fill_events(self, target: Events, events: Iterable[Event | Event101],
                    state: RoundState) -> None:
        fill_events(target, cast(Iterable[Event], events), cast(GameState, state))

    def view_to_proto(self, view: AnyView, state: RoundState) -> game_pb2.PlayerViewResponse:
        return view_to_proto(cast(PlayerView, view), cast(GameState, state))

    def fill_status(self, status: state_pb2.RoundStatus, state: RoundState) -> None:
        classic = cast(GameState, state)
        status.game = ruleset_pb2.GAME_CLASSIC
        status.phase = PHASE_TO_PROTO[classic.phase]
        status.round_over = classic.phase is Phase.ROUND_OVER
        status.must_finish = classic.must_finish
        if classic.deadline_ms:
            status.turn_deadline.CopyFrom(ms_timestamp(classic.deadline_ms))
        if classic.outcome is not None:
            fill_outcome(status.outcome, classic.outcome, classic)


class Okey101Wire:
    def move_from_proto(self, message: game_pb2.Move, field: str) -> AnyMove:
        return move_101_from_proto(message, field)

    def move_to_proto(self, move: AnyMove) -> game_pb2.Move:
        return move_101_to_proto(cast(Move101, move))

    def reason_to_proto(self, reason: IllegalReason | Illegal101 | None
                        ) -> game_pb2.IllegalReason:
        if reason is None:
            return game_pb2.ILLEGAL_REASON_UNSPECIFIED
        return REASON_101_TO_PROTO[cast(Illegal101, reason)]

    def fill_events(self, target: Events, events: Iterable[Event | Event101],
                    state: RoundState) -> None:
        fill_events_101(target, cast(Iterable[Event101], events), cast(State101, state).outcome)

    # The 101 view carries all it shows (classic's answer takes the okey from the state).
    def view_to_proto(self, view: AnyView,
                      state: RoundState) -> game_pb2.PlayerViewResponse:  # noqa: ARG002
        return view_101_to_proto(cast(PlayerView101, view))

    def fill_status(self, status: state_pb2.RoundStatus, state: RoundState) -> None:
        okey_101 = cast(State101, state)  # untimed: no deadline
        status.game = ruleset_pb2.GAME_OKEY_101
        status.phase = PHASE_101_TO_PROTO[okey_101.phase]
        status.round_over = okey_101.phase is Phase101.ROUND_OVER
        if okey_101.outcome is not None:
            fill_outcome_101(status.outcome, okey_101.outcome)


WIRES: dict[Game, GameWire] = {Game.CLASSIC: ClassicWire(), Game.OKEY_101: Okey101Wire()}


def wire_of(state: RoundState) -> GameWire:
    """The translation of the game `state` belongs to (by its rules, never its type)."""
    return WIRES[state.rules.game]
