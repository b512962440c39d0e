"""`okey score`: scores one round or a whole game through ScoringService and prints the table.

`okey score round` builds a ScoreRoundRequest from options (a result given
directly, or a finished state saved by `okey play --save-state`);
`okey score game FILE` sends a ScoreGameRequest written as proto3 JSON
(docs/play.md, "okey score"). The CLI applies no scoring rule itself: every
number printed is the server's.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from google.protobuf import json_format
from okey.v1 import hand_pb2, ruleset_pb2, scoring_pb2, scoring_pb2_grpc, tile_pb2

from okey_cli import deal_cmd, rpc, score_render
from okey_cli.errors import EXIT_BAD_INPUT, EXIT_OK, CliError

_KINDS = {
    "melds": hand_pb2.WIN_KIND_MELDS,
    "pairs": hand_pb2.WIN_KIND_SEVEN_PAIRS,
    "seven-pairs": hand_pb2.WIN_KIND_SEVEN_PAIRS,
    "kafa": hand_pb2.WIN_KIND_KAFA,
}
_COLOURS = {
    "red": tile_pb2.COLOR_RED,
    "yellow": tile_pb2.COLOR_YELLOW,
    "blue": tile_pb2.COLOR_BLUE,
    "black": tile_pb2.COLOR_BLACK,
}
_MODES = {
    "countdown": ruleset_pb2.SCORING_MODE_COUNTDOWN,
    "target": ruleset_pb2.SCORING_MODE_TARGET,
    "penalty": ruleset_pb2.SCORING_MODE_PENALTY,
    "zero-sum": ruleset_pb2.SCORING_MODE_ZERO_SUM,
}
_COLOUR_DOUBLES = {
    "off": ruleset_pb2.COLOUR_DOUBLE_OFF,
    "any": ruleset_pb2.COLOUR_DOUBLE_ANY,
    "red-or-black": ruleset_pb2.COLOUR_DOUBLE_RED_OR_BLACK,
}
# Option -> (Ruleset field, help). Numbers are not range-checked here: the server
# refuses a value out of range naming the field (e.g. ruleset.start_points).
_NUMBER_OPTIONS = {
    "start": ("start_points", "COUNTDOWN: the points everyone starts with, 5-21"),
    "target": ("target_points", "TARGET: the score that ends the game, 7-31"),
    "winners": ("countdown_winners", "COUNTDOWN: how many of the highest scores win, 1 or 2"),
    "game_rounds": ("game_rounds", "the game ends after this many rounds, 1-99 (0: no limit)"),
}
_SWITCH_OPTIONS = {
    "elimination": ("elimination", "COUNTDOWN: a seat at 0 or below leaves the game"),
    "partnership": ("partnership", "COUNTDOWN, 4 seats: seats 0+2 and 1+3 share a score"),
    "combine": ("multipliers_combine",
                "doubles multiply (seven pairs + okey discard = 8); --no-combine: the largest"),
    "gosterme_scores": ("gosterme_scores", "gosterme scores 1 point per opponent"),
}
SCORING_PRESETS = ("classic", "tournament", "points-limit", "okey.gg", "penalty")
_GAME_FILE_HELP = (
    "a ScoreGameRequest as proto3 JSON (- for stdin), e.g. "
    '{"preset": "classic", "playerCount": 4, "rounds": [{"result": {"winnerSeat": 2, '
    '"winKind": "WIN_KIND_MELDS"}}, {"result": {"drawn": true}}]}; '
    "rounds may also be finished states: {\"state\": {...}}"
)


def add_scoring_options(parser: argparse.ArgumentParser) -> None:
    """The table-mode options of the Ruleset (docs/rules.md §9), each unset unless given so
    that the preset decides. Also used by `okey play`."""
    group = parser.add_argument_group("scoring options (default: the preset's)")
    group.add_argument("--mode", choices=sorted(_MODES), default=None,
                       help="how the table keeps score (default countdown)")
    for option, (_, meaning) in _NUMBER_OPTIONS.items():
        group.add_argument(f"--{option.replace('_', '-')}", type=_count, default=None,
                           metavar="N", help=meaning)
    for option, (_, meaning) in _SWITCH_OPTIONS.items():
        group.add_argument(f"--{option.replace('_', '-')}", action=argparse.BooleanOptionalAction,
                           default=None, help=meaning)
    group.add_argument("--colour-double", choices=sorted(_COLOUR_DOUBLES), default=None,
                       help="which one-colour winning hands double the value (default off)")


def apply_scoring_options(args: argparse.Namespace, rules: ruleset_pb2.Ruleset) -> None:
    """Sets the options given on the command line; the others stay unset (the preset's)."""
    if args.mode is not None:
        rules.scoring_mode = _MODES[args.mode]
    if args.colour_double is not None:
        rules.colour_double = _COLOUR_DOUBLES[args.colour_double]
    for option, (field, _) in {**_NUMBER_OPTIONS, **_SWITCH_OPTIONS}.items():
        value = getattr(args, option)
        if value is not None:
            setattr(rules, field, value)


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"not negative: {text!r}")
    return value


def _numbers(text: str, *, signed: bool) -> list[int]:
    words = [word for word in text.replace(" ", "").split(",") if word]
    try:
        values = [int(word) for word in words]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"whole numbers separated by commas, e.g. 1,3: {text!r}"
        ) from None
    if not signed and any(value < 0 for value in values):
        raise argparse.ArgumentTypeError(f"seats are not negative: {text!r}")
    return values


def _seats(text: str) -> list[int]:
    return _numbers(text, signed=False)


def _scores(text: str) -> list[int]:
    return _numbers(text, signed=True)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    score = subparsers.add_parser(
        "score",
        help="score a round or a whole game (ScoringService)",
        description="Scores classic Okey rounds and games through ScoringService and prints "
                    "the table. See docs/play.md, \"okey score\".",
    )
    commands = score.add_subparsers(dest="score_command", metavar="COMMAND", required=True)

    one = commands.add_parser(
        "round",
        help="score one round: a result given by options, or a finished state",
        description=(
            "Scores one round (ScoringService/ScoreRound): give the winner and how it won, "
            "--drawn, or --state FILE (a finished round saved by `okey play --save-state`). "
            "The table before the round is --scores (default: the game's start). A first "
            "score below zero needs the = form: --scores=-2,4,6,0."
        ),
    )
    which = one.add_mutually_exclusive_group(required=True)
    which.add_argument("--winner", type=_count, metavar="SEAT", help="the winner's seat")
    which.add_argument("--drawn", action="store_true", help="the wall ran out: no winner")
    which.add_argument("--state", metavar="FILE",
                       help="a finished round's sealed state, as `okey play --save-state` "
                            "saves it (- for stdin); it carries "
                            "its rules, so no --preset or rule option goes with it")
    one.add_argument("--kind", choices=sorted(_KINDS), default=None,
                     help="how the winner's hand wins (pairs: seven pairs)")
    one.add_argument("--okey-discard", action="store_true",
                     help="the winner finished by discarding an okey")
    one.add_argument("--colour", choices=sorted(_COLOURS), default=None,
                     help="the winning hand is all of this colour (the colour-double variant)")
    one.add_argument("--gosterme", type=_seats, default=[], metavar="SEATS",
                     help="the seats that showed gosterme, in the order shown, e.g. 1,3")
    one.add_argument("--scores", type=_scores, default=[], metavar="S0,S1,...",
                     help="each seat's score before the round (default: the game's start)")
    one.add_argument("--rounds-played", type=_count, default=0, metavar="N",
                     help="rounds scored before this one (with --scores)")
    one.add_argument("--players", type=_count, default=0, metavar="N",
                     help="seats at the table, 2-4 (default: the state's, else as many as "
                          "--scores, else 4)")
    one.add_argument("--preset", default="",
                     help=f"{', '.join(SCORING_PRESETS)} (default: classic)")
    one.add_argument("--kafa", action=argparse.BooleanOptionalAction, default=None,
                     help="kafa is played (needed for --kind kafa; default: the preset's)")
    add_scoring_options(one)
    one.add_argument("--json", action="store_true",
                     help="print the ScoreRound response as proto3 JSON, every field included")
    rpc.add_server_options(one)
    one.set_defaults(func=run_round)

    game = commands.add_parser(
        "game",
        help="score a whole game from a JSON file (a ScoreGameRequest)",
        description=(
            "Scores a whole game (ScoringService/ScoreGame) and prints the running table: "
            "one row per round with each seat's change and total, the rules applied, and "
            "the result. `okey play --save-game FILE` writes such a file."
        ),
    )
    game.add_argument("file", help=_GAME_FILE_HELP)
    game.add_argument("--json", action="store_true",
                      help="print the ScoreGame response as proto3 JSON, every field included")
    rpc.add_server_options(game)
    game.set_defaults(func=run_game)


def build_round_request(args: argparse.Namespace) -> scoring_pb2.ScoreRoundRequest:
    request = scoring_pb2.ScoreRoundRequest(preset=args.preset, player_count=args.players)
    if args.kafa is not None:
        request.ruleset.kafa = args.kafa
    apply_scoring_options(args, request.ruleset)
    if args.scores or args.rounds_played:
        # Rounds played without scores is sent as it is: the server names the field.
        request.table.scores.extend(args.scores)
        request.table.rounds_played = args.rounds_played
    if args.state is not None:
        given = [option for option, value in (
            ("--kind", args.kind), ("--okey-discard", args.okey_discard or None),
            ("--colour", args.colour), ("--gosterme", args.gosterme or None),
        ) if value is not None]
        if given:
            raise CliError(
                f"invalid input: {given[0]} describes a result; with --state the state "
                "says how the round ended", EXIT_BAD_INPUT,
            )
        request.round.state = deal_cmd.load_state(args.state)
        return request
    result = request.round.result
    result.drawn = args.drawn
    if args.winner is not None:
        result.winner_seat = args.winner
    if args.kind is not None:
        result.win_kind = _KINDS[args.kind]
    result.okey_discard = args.okey_discard
    if args.colour is not None:
        result.one_colour = _COLOURS[args.colour]
    result.gosterme_seats.extend(args.gosterme)
    return request


def run_round(args: argparse.Namespace) -> int:
    request = build_round_request(args)
    address = rpc.server_address(args)
    response = rpc.unary(
        address, args.timeout, scoring_pb2_grpc.ScoringServiceStub, "ScoreRound", request
    )
    from_state = request.round.HasField("state")
    rpc.print_answer(response, args.json, lambda: score_render.round_text(response, from_state))
    return EXIT_OK


def load_game_request(file: str) -> scoring_pb2.ScoreGameRequest:
    """A ScoreGameRequest in proto3 JSON; unknown keys are refused, so that a misspelt
    key is not silently left out of the game."""
    try:
        text = sys.stdin.read() if file == "-" else Path(file).read_text()
        return json_format.Parse(text, scoring_pb2.ScoreGameRequest())
    except (OSError, json_format.ParseError, UnicodeDecodeError) as error:
        raise CliError(
            f"cannot read a ScoreGameRequest from {file}: {error}", EXIT_BAD_INPUT
        ) from None


def run_game(args: argparse.Namespace) -> int:
    request = load_game_request(args.file)
    address = rpc.server_address(args)
    response = rpc.unary(
        address, args.timeout, scoring_pb2_grpc.ScoringServiceStub, "ScoreGame", request
    )
    rpc.print_answer(response, args.json, lambda: score_render.game_response_text(response))
    return EXIT_OK
