"""`okey play`'s rule options and round 1's deal request built from them.

Which options a game refuses and what it sets on top is the game's own
(GamePlay.refuse_options, GamePlay.set_deal_defaults); the checks and options
both games take are here, once.
"""

from __future__ import annotations

import argparse

from okey.v1 import deal_pb2
from okey_rules.dealing.shuffle import MAX_SEED_BYTES

from okey_cli import score_cmd
from okey_cli.errors import EXIT_BAD_INPUT, CliError
from okey_cli.play_game import GamePlay

# The classic presets; Okey 101 is `--game 101`, which plays its own preset.
PRESETS = score_cmd.SCORING_PRESETS
RULE_OPTIONS = {
    "wild_pairs": "may the two okeys pair with each other in seven pairs",
    "kafa": "kafa: one colour 1..13 plus a second 1 wins",
    "runs_13_to_1": "may a run continue 12-13-1",
    "indicator_drawable_last": "is the indicator drawn as the last wall tile",
    "gosterme_in_first_turn": "may gosterme be shown until the end of one's first turn",
    "gosterme_played": "does the table play gosterme at all (off in okey.gg)",
    "must_show_win": "must a winning hand with no okey in it be shown (classic: on)",
}
# The Okey 101 options of the Ruleset `okey play --game 101` offers (docs/rules.md §10.7,
# §10.8), each unset unless given so that the preset decides.
OPTIONS_101 = {
    "exhaustion_scores_tiles": "an exhausted bank scores the racks (default on)",
    "progressive_opening": "each later opening must beat the best so far",
    "riziko": "a false joker turned up at the deal doubles the round's costs",
    "okey_retrieval": "the tile a table okey stands for may take its place",
    "lay_off_cap": "at most two lay-offs onto each end of a meld per turn",
    "partnership_waiver": "with --partnership: the finisher's partner pays nothing",
}
# Options of `okey play` that only classic Okey has.
CLASSIC_ONLY = ("preset", "kafa", "gosterme_in_first_turn", "mode", "start", "target",
                "elimination", "winners", "combine", "colour_double", "gosterme_scores",
                "gosterme_played", "must_show_win")
# A bound on a game's rounds (a countdown game of drawn rounds would never end). The
# round number also ends the derived seeds, which must stay within the 256 bytes a seed
# may have.
MAX_ROUNDS = 999
_ROUND_SEED_ROOM = len(f"/round-{MAX_ROUNDS}")


def add_101_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("Okey 101 options (--game 101; default: the preset's)")
    for name, meaning in OPTIONS_101.items():
        group.add_argument(f"--{name.replace('_', '-')}", action=argparse.BooleanOptionalAction,
                           default=None, help=meaning)


def option_name(name: str) -> str:
    return f"--{name.replace('_', '-')}"


def first_deal_request(game: GamePlay, args: argparse.Namespace) -> deal_pb2.DealRequest:
    """Round 1's deal: the options checked (the game's refusals first), the rule and
    scoring options given set, then what the game sets itself."""
    game.refuse_options(args)
    if game.players is not None and args.players != game.players:
        raise CliError(f"invalid input: --players: {game.title} is played by {game.players}",
                       EXIT_BAD_INPUT)
    if not 2 <= args.players <= 4:
        raise CliError("invalid input: --players is 2, 3 or 4", EXIT_BAD_INPUT)
    for option, value in (("--seat", args.seat), ("--dealer", args.dealer)):
        if not 0 <= value < args.players:
            raise CliError(
                f"invalid input: {option} is a seat, 0-{args.players - 1}", EXIT_BAD_INPUT
            )
    if not 0 <= args.rounds <= MAX_ROUNDS:
        raise CliError(f"invalid input: --rounds is 0-{MAX_ROUNDS}", EXIT_BAD_INPUT)
    room = MAX_SEED_BYTES - _ROUND_SEED_ROOM
    if args.rounds != 1 and len(args.seed.encode("utf-8")) > room:
        raise CliError(
            f"invalid input: --seed: at most {room} bytes when more than one round is played "
            "(later rounds are dealt from SEED/round-N)", EXIT_BAD_INPUT,
        )
    request = deal_pb2.DealRequest(
        preset=args.preset, player_count=args.players, dealer_seat=args.dealer, seed=args.seed,
        round=1,
    )
    for name in RULE_OPTIONS:
        value = getattr(args, name)
        if value is not None:
            setattr(request.ruleset, name, value)
    score_cmd.apply_scoring_options(args, request.ruleset)
    game.set_deal_defaults(request, args)
    return request
