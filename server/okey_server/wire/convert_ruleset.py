"""okey.v1.Ruleset (optional fields over a named preset) <-> okey_rules.ruleset.Ruleset."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from okey.v1 import ruleset_pb2
from okey_rules.bounded_cache import BoundedCache
from okey_rules.errors import InvalidInputError
from okey_rules.ruleset import ColourDouble, Game, Ruleset, ScoringMode, preset

GAME_TO_DOMAIN: dict[ruleset_pb2.Game, Game] = {
    ruleset_pb2.GAME_CLASSIC: Game.CLASSIC,
    ruleset_pb2.GAME_OKEY_101: Game.OKEY_101,
}
GAME_TO_PROTO: dict[Game, ruleset_pb2.Game] = {
    game: value for value, game in GAME_TO_DOMAIN.items()
}
# Options whose values are enums: proto value <-> domain value, per option.
_ENUM_OPTIONS: dict[str, dict[int, Any]] = {
    "scoring_mode": {
        ruleset_pb2.SCORING_MODE_COUNTDOWN: ScoringMode.COUNTDOWN,
        ruleset_pb2.SCORING_MODE_TARGET: ScoringMode.TARGET,
        ruleset_pb2.SCORING_MODE_PENALTY: ScoringMode.PENALTY,
        ruleset_pb2.SCORING_MODE_ZERO_SUM: ScoringMode.ZERO_SUM,
    },
    "colour_double": {
        ruleset_pb2.COLOUR_DOUBLE_OFF: ColourDouble.OFF,
        ruleset_pb2.COLOUR_DOUBLE_ANY: ColourDouble.ANY,
        ruleset_pb2.COLOUR_DOUBLE_RED_OR_BLACK: ColourDouble.RED_OR_BLACK,
    },
}
_ENUM_TO_PROTO: dict[str, dict[Any, int]] = {
    name: {domain: value for value, domain in table.items()}
    for name, table in _ENUM_OPTIONS.items()
}
# The rule options besides `game`: same names on both sides (the mapping is 1:1).
_OPTIONS = tuple(f.name for f in fields(Ruleset) if f.name != "game")
_DEFAULT = preset("")


def ruleset_from_proto(preset_name: str, message: ruleset_pb2.Ruleset,
                       field: str = "ruleset") -> Ruleset:
    """The preset named `preset_name` (default: the game's) with `message`'s set fields over it."""
    if not preset_name and message.ByteSize() == 0:
        return _DEFAULT  # the common call: no preset, no options
    game: Game | None = None
    if message.game != ruleset_pb2.GAME_UNSPECIFIED:
        game = GAME_TO_DOMAIN.get(message.game)
        if game is None:
            raise InvalidInputError(f"{field}.game", f"unknown game value {message.game}")
    base = preset(preset_name, game)
    # ListFields lists exactly the fields the caller set (presence of `optional`).
    overrides: dict[str, Any] = {
        descriptor.name: _option_from_proto(descriptor.name, value, field)
        for descriptor, value in message.ListFields()
        if descriptor.name != "game"
    }
    if game is not None and game is not base.game:
        overrides["game"] = game
    return base.with_overrides(**overrides) if overrides else base


def _option_from_proto(name: str, value: Any, field: str) -> Any:
    table = _ENUM_OPTIONS.get(name)
    if table is None:
        return value
    if value not in table:
        raise InvalidInputError(f"{field}.{name}", f"unknown {name} value {value}")
    return table[value]


def ruleset_to_proto(rules: Ruleset) -> ruleset_pb2.Ruleset:
    """Every option written out, so the answer says exactly which rules applied."""
    message = ruleset_pb2.Ruleset(game=GAME_TO_PROTO[rules.game])
    for name in _OPTIONS:
        value = getattr(rules, name)
        to_proto = _ENUM_TO_PROTO.get(name)
        setattr(message, name, to_proto[value] if to_proto else value)
    return message


# A server sees few distinct rulesets (every state and view of a table carries the
# same), and writing one out costs more than copying it: each is written once.
RULESETS_KEPT = 256
_ruleset_message: BoundedCache[Ruleset, ruleset_pb2.Ruleset] = BoundedCache(RULESETS_KEPT)


def ruleset_proto_cached(rules: Ruleset) -> ruleset_pb2.Ruleset:
    """`ruleset_to_proto`, remembered: a shared message, only ever copied from."""
    message = _ruleset_message.get(rules)
    if message is None:
        message = _ruleset_message.put(rules, ruleset_to_proto(rules))
    return message
