"""Rule variants as data: the frozen `Ruleset` and its named presets (RULES.md)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, fields, replace
from typing import Any

from okey_rules.errors import InvalidInputError


class Game(enum.Enum):
    CLASSIC = "classic"
    OKEY_101 = "101"


@dataclass(frozen=True, slots=True)
class Ruleset:
    """Every option of RULES.md that the engine implements, with its default.

    Maps 1:1 to the ``okey.v1.Ruleset`` message; a preset is just an instance.
    """

    game: Game = Game.CLASSIC
    # §3: two okeys may pair with each other in seven pairs (default yes).
    wild_pairs: bool = True
    # §3, seed 003: one colour 1..13 plus a second 1 wins the game at once.
    kafa: bool = False
    # §3 (seeds 000, 001, 003): 12-13-1 is a run in classic; §7: never in 101.
    runs_13_to_1: bool = True
    # §4, seed 000: the face-up indicator is never drawn unless this is on.
    indicator_drawable_last: bool = False

    def with_overrides(self, **overrides: Any) -> Ruleset:
        """A copy with the given options replaced; unknown names are invalid input."""
        known = {f.name for f in fields(self)}
        for name in overrides:
            if name not in known:
                raise InvalidInputError(f"ruleset.{name}", "unknown rule option")
        return replace(self, **overrides)


PRESETS: dict[str, Ruleset] = {
    # Seeds 000-002: the classic table.
    "classic": Ruleset(),
    # The okey.gg rules name kafa as a real-table rule but do not play it yet:
    # such a hand is a normal finish there (docs/rules.md §4.3).
    "okey.gg": Ruleset(kafa=False),
    # Seed 000, second half: Okey 101, no 13-1 wrap.
    "101": Ruleset(game=Game.OKEY_101, runs_13_to_1=False),
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
