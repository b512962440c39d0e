"""The judgement on a move and on a move log, one type each for both games:
`MoveResult[State, Event, Reason]` and `ReplayResult[State, Event, Reason]`.

Classic Okey's `game_types.MoveResult`/`ReplayResult` and Okey 101's
`game101_types.Result101`/`Replay101` are these types with their game's state, event and
illegal-reason types, so whatever reads a result (the server's translation, the CLI's
bots, the tests) reads the same fields in both.
"""

from __future__ import annotations

from typing import Generic, NamedTuple, TypeVar

State = TypeVar("State")
EventT = TypeVar("EventT")
Reason = TypeVar("Reason")


class MoveResult(NamedTuple, Generic[State, EventT, Reason]):
    """The next state and the events the move caused, or the reason it is illegal."""

    legal: bool
    state: State | None
    events: tuple[EventT, ...] = ()
    reason: Reason | None = None
    message: str = ""


class ReplayResult(NamedTuple, Generic[State, EventT, Reason]):
    """A move log's verdict: every move legal, or the first illegal one and why."""

    legal: bool
    state: State  # after the last legal move
    applied: int  # the moves applied; when not legal, also the index of the illegal one
    events: tuple[EventT, ...]
    reason: Reason | None = None
    message: str = ""

    @property
    def illegal_index(self) -> int:
        """The index in the log of the first illegal move (0 when every move was legal)."""
        return 0 if self.legal else self.applied
