"""The judgement on a move, one type for both games: `MoveResult[State, Event, Reason]`.

Classic Okey's `game_types.MoveResult` and Okey 101's `game101_types.Result101` are this
type with their game's state, event and illegal-reason types, so whatever reads a result
(the server's translation, the CLI's bots, the tests) reads the same fields in both.
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
