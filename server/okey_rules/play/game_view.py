"""What one seat may see of a round (docs/rules.md §8.7): never another rack or the wall order."""

from __future__ import annotations

from dataclasses import dataclass

from okey_rules.errors import check_seat
from okey_rules.play.game_types import GameState, Outcome, Phase
from okey_rules.ruleset import Ruleset


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    rack_size: int
    discard_count: int
    discards: tuple[int, ...]  # the visible part of the pile, oldest first
    whole_pile: bool
    gosterme: bool


@dataclass(frozen=True, slots=True)
class PlayerView:
    seat: int
    rules: Ruleset
    player_count: int
    dealer: int
    indicator: int
    rack: tuple[int, ...]
    seats: tuple[SeatView, ...]
    wall_size: int
    turn: int
    phase: Phase
    move_number: int
    deadline_ms: int
    outcome: Outcome | None
    deal_id: str
    round: int


def sees_whole_pile(viewer: int, owner: int, player_count: int) -> bool:
    """§8.7: a seat sees all of its own pile and of the previous seat's (the pile
    it takes from); of every other pile only the top tile."""
    return owner == viewer or owner == (viewer - 1) % player_count


def player_view(state: GameState, seat: int) -> PlayerView:
    check_seat(seat, state.player_count)
    seats = []
    for owner, held in enumerate(state.seats):
        whole = sees_whole_pile(seat, owner, state.player_count)
        pile = held.discards
        seats.append(
            SeatView(
                seat=owner,
                rack_size=len(held.rack),
                discard_count=len(pile),
                discards=pile if whole else pile[-1:],
                whole_pile=whole,
                gosterme=held.gosterme,
            )
        )
    return PlayerView(
        seat=seat,
        rules=state.rules,
        player_count=state.player_count,
        dealer=state.dealer,
        indicator=state.indicator,
        rack=state.seats[seat].rack,
        seats=tuple(seats),
        wall_size=len(state.wall),
        turn=state.turn,
        phase=state.phase,
        move_number=state.move_number,
        deadline_ms=state.deadline_ms,
        outcome=state.outcome,
        deal_id=state.deal_id,
        round=state.round,
    )
