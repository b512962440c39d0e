"""What one seat may see of a round (docs/rules.md §8.7): never another rack or the wall order."""

from __future__ import annotations

from okey_rules.errors import check_seat
from okey_rules.play.game_types import GameState
from okey_rules.play.view_types import PlayerView, SeatView, sees_whole_pile


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
