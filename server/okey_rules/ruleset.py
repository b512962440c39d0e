"""Rule variants as data: the frozen `Ruleset` and its named presets (docs/rules.md §5)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields, replace
from typing import Any

from okey_rules.errors import InvalidInputError


class Game(enum.Enum):
    CLASSIC = "classic"
    OKEY_101 = "101"


# Options whose default depends on the game: 12-13-1 is a run in classic
# Okey, never in Okey 101 (docs/rules.md §3.2); a classic winning hand must be
# shown (§8.4), a rule Okey 101 does not have.
GAME_DEFAULTS: dict[Game, dict[str, bool]] = {
    Game.CLASSIC: {"runs_13_to_1": True, "must_show_win": True},
    Game.OKEY_101: {"runs_13_to_1": False, "must_show_win": False},
}

class ScoringMode(enum.Enum):
    """§9.2: how a table keeps score over a game."""

    COUNTDOWN = "countdown"
    TARGET = "target"
    PENALTY = "penalty"
    ZERO_SUM = "zero-sum"


class ColourDouble(enum.Enum):
    """§9.1: which one-colour winning hands double the round's value."""

    OFF = "off"
    ANY = "any colour"
    RED_OR_BLACK = "red or black"


# §9.2: the ranges the rule texts give for a table's settings.
DEFAULT_START_POINTS = 20
START_POINTS_RANGE = (5, 21)
DEFAULT_TARGET_POINTS = 21
TARGET_POINTS_RANGE = (7, 31)
COUNTDOWN_WINNERS_RANGE = (1, 2)
GAME_ROUNDS_RANGE = (0, 99)
# §8.6 bot takeover: 0 plays a timed-out turn by the simple automatic move, 1-3 by the bot
# of that level (okey_rules.bots).
TIMEOUT_BOT_LEVEL_RANGE = (0, 3)

# §8.6: the okey.gg move timer: none, or 15-120 seconds, 45 by default.
DEFAULT_MOVE_TIMER_SECONDS = 45
MIN_MOVE_TIMER_SECONDS = 15
MAX_MOVE_TIMER_SECONDS = 120


@dataclass(frozen=True, slots=True, init=False)
class Ruleset:
    """Every rule option the engine implements, with its default (docs/rules.md §5).

    Maps 1:1 to the ``okey.v1.Ruleset`` message; a preset is just an instance.
    An option left out (or given as None) takes its game's default, here and
    nowhere else, so ``Ruleset(game=Game.OKEY_101)`` is the 101 preset and the
    RPC layer resolves rulesets exactly as the library does.
    """

    game: Game
    # §4.2: the two okeys may pair with each other in seven pairs.
    wild_pairs: bool
    # §4.3: one colour 1..13 plus a second 1 wins the game at once.
    kafa: bool
    # §3.2: 12-13-1 is a run (classic: yes; Okey 101: no).
    runs_13_to_1: bool
    # §2.4: the face-up indicator may be drawn as the last wall tile.
    indicator_drawable_last: bool
    # §8.3: gösterme may be shown until the end of one's first turn, not
    # only before one's first draw.
    gosterme_in_first_turn: bool
    # §8.6: seconds per turn, 0 for no timer, else 15-120.
    move_timer_seconds: int
    # §8.3: the table plays gösterme at all (the okey.gg rules have none).
    gosterme_played: bool
    # §8.4: a seat holding a winning hand must show it, unless the win uses an
    # okey and the seat plays on for the double (the Japanese and Russian texts).
    must_show_win: bool
    # §8.6: who plays a timed-out turn: 0 the simple automatic move, 1-3 the bot of that
    # level, from the seat's view ("bot takeover").
    timeout_bot_level: int
    # §9: how the table keeps score, and that mode's settings.
    scoring_mode: ScoringMode
    start_points: int  # COUNTDOWN, 5-21
    target_points: int  # TARGET, 7-31
    elimination: bool  # COUNTDOWN
    partnership: bool  # COUNTDOWN, four players
    multipliers_combine: bool  # §9.1: 2 x 2 x 2 = 8, or the largest only
    colour_double: ColourDouble  # §9.1
    gosterme_scores: bool  # §9.1
    countdown_winners: int  # COUNTDOWN: 1 or 2 highest win
    game_rounds: int  # 0: no fixed number of rounds
    # §10.7: Okey 101, the bank run out: remaining tiles are scored (or nothing is).
    exhaustion_scores_tiles: bool
    # §10.8: Okey 101 variants of online tables, all off by default.
    progressive_opening: bool  # each later opening must beat the best so far
    riziko: bool  # a false joker turned up as indicator doubles the round's points
    okey_retrieval: bool  # an opened seat takes a table okey by laying its tile
    lay_off_cap: bool  # at most 2 tiles laid off per meld end per turn
    partnership_waiver: bool  # the finisher's partner pays no tiles

    def __init__(
        self,
        game: Game = Game.CLASSIC,
        wild_pairs: bool = True,
        kafa: bool = False,
        runs_13_to_1: bool | None = None,
        indicator_drawable_last: bool = False,
        *,
        gosterme_in_first_turn: bool = False,
        move_timer_seconds: int = DEFAULT_MOVE_TIMER_SECONDS,
        gosterme_played: bool = True,
        must_show_win: bool | None = None,
        timeout_bot_level: int = 0,
        scoring_mode: ScoringMode = ScoringMode.COUNTDOWN,
        start_points: int = DEFAULT_START_POINTS,
        target_points: int = DEFAULT_TARGET_POINTS,
        elimination: bool = False,
        partnership: bool = False,
        multipliers_combine: bool = True,
        colour_double: ColourDouble = ColourDouble.OFF,
        gosterme_scores: bool = True,
        countdown_winners: int = 2,
        game_rounds: int = 0,
        exhaustion_scores_tiles: bool = True,
        progressive_opening: bool = False,
        riziko: bool = False,
        okey_retrieval: bool = False,
        lay_off_cap: bool = False,
        partnership_waiver: bool = False,
    ) -> None:
        if move_timer_seconds != 0 and not (
            MIN_MOVE_TIMER_SECONDS <= move_timer_seconds <= MAX_MOVE_TIMER_SECONDS
        ):
            raise InvalidInputError(
                "ruleset.move_timer_seconds",
                f"the move timer is 0 (none) or {MIN_MOVE_TIMER_SECONDS}-{MAX_MOVE_TIMER_SECONDS}"
                f" seconds, not {move_timer_seconds}",
            )
        _check_range("start_points", start_points, START_POINTS_RANGE)
        _check_range("target_points", target_points, TARGET_POINTS_RANGE)
        _check_range("countdown_winners", countdown_winners, COUNTDOWN_WINNERS_RANGE)
        _check_range("game_rounds", game_rounds, GAME_ROUNDS_RANGE)
        _check_range("timeout_bot_level", timeout_bot_level, TIMEOUT_BOT_LEVEL_RANGE)
        countdown = scoring_mode is ScoringMode.COUNTDOWN
        # §9.2: elimination and partnership are countdown rules; §10.7: Okey 101 has
        # its own scoring, with a partnership option.
        if (elimination and (not countdown or game is Game.OKEY_101)) or (
            partnership and not countdown and game is not Game.OKEY_101
        ):
            name = "elimination" if elimination else "partnership"
            raise InvalidInputError(
                f"ruleset.{name}", f"{name} is a rule of the COUNTDOWN table mode only"
            )
        if elimination and partnership:
            raise InvalidInputError(
                "ruleset.elimination", "elimination and partnership do not go together"
            )
        defaults = GAME_DEFAULTS[game]
        set_field = object.__setattr__  # the dataclass is frozen
        set_field(self, "game", game)
        set_field(self, "wild_pairs", wild_pairs)
        set_field(self, "kafa", kafa)
        set_field(
            self, "runs_13_to_1", defaults["runs_13_to_1"] if runs_13_to_1 is None else runs_13_to_1
        )
        set_field(self, "indicator_drawable_last", indicator_drawable_last)
        set_field(self, "gosterme_in_first_turn", gosterme_in_first_turn)
        set_field(self, "move_timer_seconds", move_timer_seconds)
        set_field(self, "gosterme_played", gosterme_played)
        set_field(
            self,
            "must_show_win",
            defaults["must_show_win"] if must_show_win is None else must_show_win,
        )
        set_field(self, "timeout_bot_level", timeout_bot_level)
        set_field(self, "scoring_mode", scoring_mode)
        set_field(self, "start_points", start_points)
        set_field(self, "target_points", target_points)
        set_field(self, "elimination", elimination)
        set_field(self, "partnership", partnership)
        set_field(self, "multipliers_combine", multipliers_combine)
        set_field(self, "colour_double", colour_double)
        set_field(self, "gosterme_scores", gosterme_scores)
        set_field(self, "countdown_winners", countdown_winners)
        set_field(self, "game_rounds", game_rounds)
        set_field(self, "exhaustion_scores_tiles", exhaustion_scores_tiles)
        set_field(self, "progressive_opening", progressive_opening)
        set_field(self, "riziko", riziko)
        set_field(self, "okey_retrieval", okey_retrieval)
        set_field(self, "lay_off_cap", lay_off_cap)
        set_field(self, "partnership_waiver", partnership_waiver)

    def with_overrides(self, **overrides: Any) -> Ruleset:
        """A copy with the given options replaced; unknown names are invalid input.

        Changing the game also moves every game-dependent option that still
        holds the old game's default to the new game's default, unless the
        same call sets it: the classic preset asked for Okey 101 plays 101's
        runs, as ``Ruleset(game=Game.OKEY_101)`` does.
        """
        known = {f.name for f in fields(self)}
        for name in overrides:
            if name not in known:
                raise InvalidInputError(f"ruleset.{name}", "unknown rule option")
        game = overrides.get("game", self.game)
        if game is not self.game:
            for name, old_default in GAME_DEFAULTS[self.game].items():
                if name not in overrides and getattr(self, name) == old_default:
                    overrides[name] = None  # the new game's default
        return replace(self, **overrides)


def _check_range(name: str, value: int, bounds: tuple[int, int]) -> None:
    low, high = bounds
    if not low <= value <= high:
        raise InvalidInputError(f"ruleset.{name}", f"{name} is {low}-{high}, not {value}")


PRESETS: dict[str, Ruleset] = {
    # The classic table: the Japanese rules text.
    "classic": Ruleset(),
    # §9.3: the Russian rules text's tournament scoring: countdown from 20,
    # 2 / 4 / 4 per opponent, no gösterme, the single highest score wins; a
    # winning hand is shown unless it plays on with an okey (§8.4), as in the
    # Japanese text (the game's default).
    "tournament": Ruleset(gosterme_scores=False, countdown_winners=1),
    # §9.3: the French online table: a points limit set between 5 and 21
    # (countdown; the two highest win), gösterme "at the first turn" (§8.3).
    # The French text does not oblige a winner to show (§8.4).
    "points-limit": Ruleset(gosterme_in_first_turn=True, must_show_win=False),
    # The okey.gg rules name kafa as a real-table rule but do not play it yet:
    # such a hand is a normal finish there (docs/rules.md §4.3). §9.3: the
    # winner scores towards a target of 21 (7-31); the move timer is 45 s.
    # §8.3: the okey.gg rules have no gösterme at all.
    "okey.gg": Ruleset(
        kafa=False,
        gosterme_played=False,
        must_show_win=False,  # §8.4: the okey.gg rules do not say so
        scoring_mode=ScoringMode.TARGET,
        target_points=DEFAULT_TARGET_POINTS,
        move_timer_seconds=DEFAULT_MOVE_TIMER_SECONDS,
    ),
    # §9.3: the Italian penalty table: penalties accumulate from 0, a stall
    # costs everyone 1, gösterme costs each opponent 1 whoever wins.
    # The Italian text does not oblige a winner to show (§8.4).
    "penalty": Ruleset(scoring_mode=ScoringMode.PENALTY, must_show_win=False),
    # Okey 101: no 12-13-1 runs (its game default).
    "101": Ruleset(game=Game.OKEY_101),
}


def preset(name: str, game: Game | None = None) -> Ruleset:
    """The named preset; an empty name picks the game's default preset."""
    if not name:
        return PRESETS["101"] if game is Game.OKEY_101 else PRESETS["classic"]
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        names = ", ".join(sorted(PRESETS))
        raise InvalidInputError("preset", f"unknown preset {name!r} (known: {names})") from None
