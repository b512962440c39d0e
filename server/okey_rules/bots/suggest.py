"""`suggest_move`: a bot's move for one seat of either game, from the seat's view alone.

Each game's policy is looked up by the view's rules (a table, not the state's
type): okey_rules.bots.classic_bot and okey101_bot say what each level does.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from okey_rules.bots.classic_bot import classic_move
from okey_rules.bots.okey101_bot import okey101_move
from okey_rules.bots.suggestion import Suggestion, lots_for
from okey_rules.bots.waiting import check_level
from okey_rules.errors import InvalidInputError
from okey_rules.play.round_types import Move
from okey_rules.play.view_types import PlayerView
from okey_rules.ruleset import Game

Policy = Callable[[PlayerView, Sequence[Move], int, random.Random], Suggestion]
POLICIES: dict[Game, Policy] = {Game.CLASSIC: classic_move, Game.OKEY_101: okey101_move}


def suggest_move(view: PlayerView, legal: Sequence[Move], level: int) -> Suggestion:
    """The move `view`'s seat should make at `level` (1 random, 2 greedy, 3 the most
    informed), with a one-line reason.

    `legal` is the seat's legal moves now (the game's `Round.legal_moves`); the answer
    is one of them, or for Okey 101 an OPEN or LAY_MELD built from the rack (those
    are not listed). The same view and moves always give the same answer.
    """
    check_level(level)
    if not legal:
        raise InvalidInputError("legal", "the seat has no move to make now")
    return POLICIES[view.rules.game](view, legal, level, lots_for(view))
