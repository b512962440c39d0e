"""What a bot says when a seat has no move to make now, and the levels a caller may ask."""

from __future__ import annotations

from okey_rules.bots.suggestion import LEVELS
from okey_rules.errors import InvalidInputError
from okey_rules.play.round_types import Phase
from okey_rules.play.view_types import PlayerView


def why_no_move(view: PlayerView) -> str:
    """One line: the round is over, or whose turn it is."""
    if view.phase is Phase.ROUND_OVER:
        return "the round is over: no seat moves"
    return f"seat {view.seat} has no move now: it is seat {view.turn}'s turn"


# SuggestMove's level when the caller names none (0): the greedy bot.
DEFAULT_LEVEL = 2


def check_level(level: int) -> None:
    """A bot's level is 1 to 3 (okey_rules.bots.suggestion.LEVELS)."""
    if level not in LEVELS:
        raise InvalidInputError("level", f"a bot's level is 1 to 3, not {level}")
