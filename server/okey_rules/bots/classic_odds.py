"""Classic level 3's model of a hand's chance to win before the wall runs out.

A hand `distance` replacements from a win, with `useful` unseen copies of
the faces that bring it one step nearer, steps forward on a turn when the
seat draws one of them from the wall, or finds one on top of the previous
seat's pile (that seat throws what it does not need: roughly a tile drawn
from the same unseen ones). So a turn's chance to step is taken as
`1 - (1 - useful / unseen) ** 2`, the same at every step (the later steps'
useful draws are not known yet), and the hand wins when it steps `distance`
times in the turns the wall leaves it: a binomial tail. The figures are
rough; the model ranks choices (take or draw, which discard) rather than
predicting rounds.
"""

from __future__ import annotations

from math import comb

# A step's chance is capped: a wait is never certain, however wide.
MOST_LIKELY_STEP = 0.9


def step_chance(useful: int, unseen: int) -> float:
    """The chance that one turn brings the hand a step nearer (wall draw or the previous
    seat's discard)."""
    if unseen <= 0 or useful <= 0:
        return 0.0
    one = min(1.0, useful / unseen)
    return min(MOST_LIKELY_STEP, 1 - (1 - one) ** 2)


def win_chance(distance: int, useful: int, unseen: int, turns: int) -> float:
    """The chance to make `distance` steps in `turns` turns (0 distance: won)."""
    if distance <= 0:
        return 1.0
    if turns < distance:
        return 0.0
    step = step_chance(useful, unseen)
    missed = sum(comb(turns, k) * step**k * (1 - step) ** (turns - k) for k in range(distance))
    return max(0.0, 1.0 - missed)


def turns_left(wall_size: int, player_count: int) -> int:
    """The seat's draws still to come once this turn's draw is made (`wall_size` tiles
    left then): one a round of the table while the wall lasts, the other seats first."""
    return max(0, wall_size // player_count)


def draw_chance(distance: int, useful: int, unseen: int, turns: int) -> float:
    """The chance to win when this turn's draw comes from the wall: it steps with
    `useful / unseen`, and the turns after it go as `win_chance` says."""
    if unseen <= 0:
        return win_chance(distance, useful, unseen, turns)
    hit = min(1.0, useful / unseen)
    return (hit * win_chance(distance - 1, useful, unseen, turns)
            + (1 - hit) * win_chance(distance, useful, unseen, turns))

