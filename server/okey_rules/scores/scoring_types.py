"""Values of scoring (docs/rules.md §9): a round's result, the table's scores, the answer."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import NamedTuple

from okey_rules.search.hand_types import WinKind
from okey_rules.tiles import Color


@dataclass(frozen=True, slots=True)
class RoundResult:
    """What scoring needs of a finished classic round; seats are the table's seats."""

    drawn: bool
    winner: int = 0
    kind: WinKind | None = None
    okey_discard: bool = False
    one_colour: Color | None = None  # the colour of a one-colour winning hand
    gosterme: tuple[int, ...] = ()  # claimants, in the order shown
    # The kind a result claimed when the winner's tiles, judged, win better
    # (docs/rules.md §9.1): `kind` is then the tiles' best, and the lines say so.
    claimed_kind: WinKind | None = None


@dataclass(frozen=True, slots=True)
class Table:
    """The table's scores before (or after) a round, indexed by table seat."""

    scores: tuple[int, ...]
    rounds_played: int = 0


class ScoreRule(enum.Enum):
    WIN = "win"
    OKEY_DISCARD = "okey discard"
    SEVEN_PAIRS = "seven pairs"
    COLOUR_DOUBLE = "colour double"
    LARGEST_MULTIPLIER = "largest multiplier only"
    ROUND_VALUE = "round value"
    GOSTERME = "gösterme"
    DRAWN_ROUND = "drawn round"
    STALL = "stall"
    KAFA = "kafa"
    ELIMINATED = "eliminated"
    GAME_OVER = "game over"
    # Okey 101 (docs/rules.md §10.7)
    FINISHED = "finished"
    REMAINING_TILES = "remaining tiles"
    NEVER_OPENED = "never opened"
    ONE_TURN_FINISH = "one-turn finish"
    PAIRS_OPENER = "pairs opener"
    PENALTY = "penalty"
    OKEY_IN_HAND = "okey in hand"
    VOID_ROUND = "void round"
    BANK_EXHAUSTED = "bank exhausted"
    RIZIKO = "riziko"
    PARTNER_WAIVED = "partner waived"


# The rules only Okey 101 rounds apply (docs/rules.md §10.7).
OKEY_101_SCORE_RULES = frozenset({
    ScoreRule.FINISHED, ScoreRule.REMAINING_TILES, ScoreRule.NEVER_OPENED,
    ScoreRule.ONE_TURN_FINISH, ScoreRule.PAIRS_OPENER, ScoreRule.PENALTY,
    ScoreRule.OKEY_IN_HAND, ScoreRule.VOID_ROUND, ScoreRule.BANK_EXHAUSTED,
    ScoreRule.RIZIKO, ScoreRule.PARTNER_WAIVED,
})
CLASSIC_SCORE_RULES = frozenset(ScoreRule) - OKEY_101_SCORE_RULES


class ScoreLine(NamedTuple):
    """One rule applied: its factor (multipliers) or what it changed, per seat."""

    rule: ScoreRule
    seat: int
    factor: int
    deltas: tuple[int, ...]
    text: str


class RoundScore(NamedTuple):
    """A round scored: the changes, the new table, and whether the game is over."""

    deltas: tuple[int, ...]
    table: Table
    value: int  # the round's value after multipliers; 0 for a drawn round
    lines: tuple[ScoreLine, ...]
    game_over: bool
    winners: tuple[int, ...]
    eliminated: tuple[bool, ...]
