"""Who is who in one deal of `okey play`, for both games.

Seats are printed with the table's numbers. They differ from the deal's once a
seat has left the game (elimination): a deal's seats are the table's seats
still in the game, in order (docs/rules.md §9.4), so `Seats` maps them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Seats:
    """Who is who in one deal: the human's seat in the deal (None once the human has left
    the game) and, per deal seat, the table seat it is."""

    human: int | None
    table: tuple[int, ...]

    @classmethod
    def whole_table(cls, human: int, players: int) -> Seats:
        """Every table seat in the game: deal seats are table seats."""
        return cls(human, tuple(range(players)))

    def number(self, seat: int) -> int:
        """The table seat of deal seat `seat`."""
        return self.table[seat] if 0 <= seat < len(self.table) else seat

    def who(self, seat: int) -> str:
        return "you" if seat == self.human else f"seat {self.number(seat)}"

    def whose(self, seat: int) -> str:
        return "your" if seat == self.human else f"seat {self.number(seat)}'s"
