"""The judgement on a move and on a move log, one type each for both games:
`MoveResult[State]` and `ReplayResult[State]`, with the shared events and reasons of
okey_rules.play.round_types.

Classic Okey's `game_types.ClassicResult`/`ClassicReplay` and Okey 101's
`game101_types.Result101`/`Replay101` are these types with their game's state, so
whatever reads a result (the server's translation, the CLI's bots, the tests) reads the
same fields in both.
"""

from __future__ import annotations

from typing import Generic, NamedTuple, TypeVar

from okey_rules.play.round_types import Event, IllegalReason

# Covariant: a classic result is a result of either game (its fields are read only).
State_co = TypeVar("State_co", covariant=True)


class MoveResult(NamedTuple, Generic[State_co]):
    """The next state and the events the move caused, or the reason it is illegal."""

    legal: bool
    state: State_co | None
    events: tuple[Event, ...] = ()
    reason: IllegalReason | None = None
    message: str = ""


class ReplayResult(NamedTuple, Generic[State_co]):
    """A move log's verdict: every move legal, or the first illegal one and why."""

    legal: bool
    state: State_co  # after the last legal move
    applied: int  # the moves applied; when not legal, also the index of the illegal one
    events: tuple[Event, ...]
    reason: IllegalReason | None = None
    message: str = ""

    @property
    def illegal_index(self) -> int:
        """The index in the log of the first illegal move (0 when every move was legal)."""
        return 0 if self.legal else self.applied
