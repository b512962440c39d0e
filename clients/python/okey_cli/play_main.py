"""`okey play`: the command's options and the choice of game.

GAMES is the one place that knows the games: --game looks up its GamePlay there
(okey_cli.play_classic, okey_cli.play_101), and the one game loop (okey_cli.play_loop)
plays it. This module imports both games and neither imports it or the other.
"""

from __future__ import annotations

import argparse

from okey_cli import play_loop, play_options, rpc, score_cmd
from okey_cli.play_101 import OKEY_101
from okey_cli.play_classic import CLASSIC
from okey_cli.play_game import GamePlay

# The games `okey play --game` offers, the first the default.
GAMES: dict[str, GamePlay] = {"classic": CLASSIC, "101": OKEY_101}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play a classic Okey or Okey 101 game in the terminal against simple bots",
        description=(
            "Plays a classic Okey game (or with --game 101 an Okey 101 game) round after "
            "round until it is over: each round is dealt by DealService/Deal, played move by "
            "move through GameService and scored by ScoringService. You play one seat and "
            "type commands (help lists them); the other seats play a simple fixed policy. "
            "You see only your seat's view. Untimed. --rounds 1 plays a single round. "
            "See docs/play.md."
        ),
    )
    parser.add_argument(
        "--game", choices=tuple(GAMES), default="classic",
        help="classic (default) or 101: Okey 101, four players, the 101 preset, "
             "3 rounds unless --game-rounds says otherwise",
    )
    parser.add_argument(
        "--seed", default="",
        help="the first deal's seed (any text; round N > 1 is dealt from SEED/round-N); "
             "default: the server draws one",
    )
    parser.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    parser.add_argument("--players", type=int, default=4, help="2-4 (default 4)")
    parser.add_argument("--dealer", type=int, default=0, metavar="SEAT",
                        help="the first round's dealer (default 0)")
    parser.add_argument("--bot-level", type=int, default=0, choices=range(4), metavar="N",
                        help="the bots' strength: 1 (random) to 3 (the strongest), played by "
                             "AnalysisService/SuggestMove; 0 (default): the CLI's simple policy")
    parser.add_argument("--rounds", type=int, default=0, metavar="N",
                        help="stop after N rounds even if the game is not over; 1 plays a "
                             "single round (default 0: play until the game is over)")
    parser.add_argument("--preset", choices=play_options.PRESETS, default="",
                        help="default: classic")
    for name, meaning in play_options.RULE_OPTIONS.items():
        parser.add_argument(
            f"--{name.replace('_', '-')}",
            action=argparse.BooleanOptionalAction,
            default=None,
            help=f"{meaning} (default: the preset's)",
        )
    score_cmd.add_scoring_options(parser)
    play_options.add_101_options(parser)
    parser.add_argument(
        "--save-state", metavar="FILE", default=None,
        help=(
            "once a round is over, write its final sealed state to FILE as JSON "
            "({\"state\": base64 token, \"status\": its RoundStatus}), replacing the "
            "previous round's (for checking the round afterwards, e.g. with Replay, "
            "`okey score round --state` or `okey deal reveal`)"
        ),
    )
    parser.add_argument(
        "--save-game", metavar="FILE", default=None,
        help=(
            "after each round, write the game so far to FILE as a ScoreGameRequest (JSON) "
            "of the finished states: `okey score game FILE` scores it again"
        ),
    )
    rpc.add_server_options(parser)
    parser.set_defaults(func=run_play)


def run_play(args: argparse.Namespace) -> int:
    return play_loop.run(GAMES[args.game], args)
