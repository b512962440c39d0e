"""`okey hand check` and `okey hand opening`: HandService's CheckHand and BestOpening
(`okey hand analyze`: okey_cli.analyze_cmd).

`check` asks about 14 or 15 tiles of classic Okey and prints the verdict;
`opening` asks about an Okey 101 rack (up to 22 tiles) and prints its best
opening by melds and by pairs.
"""

from __future__ import annotations

import argparse
import sys

from okey.v1 import hand_pb2, hand_pb2_grpc
from okey_rules.rulebook import OPENING_PAIRS, OPENING_POINTS
from okey_rules.ruleset import PRESETS

from okey_cli import analyze_cmd, render, rpc
from okey_cli.errors import EXIT_OK
from okey_cli.words import notation, tile_count

# Option name -> okey.v1.Ruleset field; each is `optional` in the proto, so an
# option left out stays unset and the preset decides.
_RULE_OPTIONS = {
    "wild_pairs": "may the two okeys pair with each other in seven pairs",
    "kafa": "kafa: one colour 1..13 plus a second 1 wins the game",
    "runs_13_to_1": "may a run continue 12-13-1",
}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    hand = subparsers.add_parser("hand", help="check hands", description="Check Okey hands.")
    commands = hand.add_subparsers(dest="hand_command", metavar="COMMAND", required=True)
    check = commands.add_parser(
        "check",
        help="is this hand winning? (14 tiles), which discards win? (15 tiles)",
        description=(
            "Checks a hand through HandService/CheckHand. Tiles in notation (R7, Y13, B1, "
            "K12, F), as separate words or one quoted string; 14 tiles ask whether the hand "
            "wins, 15 ask which discards leave a winning 14."
        ),
    )
    check.add_argument("tiles", nargs="+", metavar="TILE", help="the hand, e.g. R1 R2 R3 ...")
    wild = check.add_mutually_exclusive_group(required=True)
    wild.add_argument("--indicator", metavar="TILE", help="the face-up indicator, e.g. R4")
    wild.add_argument("--okey", metavar="TILE", help="the okey (wild) itself, e.g. R5")
    check.add_argument(
        "--preset",
        default="",
        help=f"ruleset preset: one of {', '.join(p for p in PRESETS if p != '101')} "
        "(default: classic; Okey 101: `okey hand opening`)",
    )
    for name, meaning in _RULE_OPTIONS.items():
        check.add_argument(
            f"--{name.replace('_', '-')}",
            action=argparse.BooleanOptionalAction,
            default=None,
            help=f"{meaning} (default: the preset's)",
        )
    check.add_argument(
        "--json",
        action="store_true",
        help="print the CheckHand response as proto3 JSON, every field included",
    )
    check.add_argument(
        "--no-arrangements",
        action="store_true",
        help="leave the arrangements out of the answer (omit_arrangements)",
    )
    rpc.add_server_options(check)
    check.set_defaults(func=run_check)
    _register_opening(commands)
    analyze_cmd.register(commands)


# The options that matter to an Okey 101 opening (docs/okey101.md).
_OPENING_OPTIONS = {
    "runs_13_to_1": "may a run continue 12-13-1 (off in Okey 101)",
    "wild_pairs": "may the two okeys pair with each other",
}


def _register_opening(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    opening = commands.add_parser(
        "opening",
        help="Okey 101: the best opening of a rack (melds worth 101, or 5 pairs)",
        description=(
            "Asks HandService/BestOpening for an Okey 101 rack of up to 22 tiles (R7, Y13, "
            "B1, K12, F, as separate words or one quoted string): the sets and runs worth "
            "the most and whether they reach the 101 points it takes to open, and the most "
            "pairs and whether they reach 5."
        ),
    )
    opening.add_argument("tiles", nargs="+", metavar="TILE", help="the rack, e.g. R1 R2 R3 ...")
    wild = opening.add_mutually_exclusive_group(required=True)
    wild.add_argument("--indicator", metavar="TILE", help="the face-up indicator, e.g. R4")
    wild.add_argument("--okey", metavar="TILE", help="the okey (wild) itself, e.g. R5")
    opening.add_argument("--preset", default="", help='ruleset preset (default "101")')
    for name, meaning in _OPENING_OPTIONS.items():
        opening.add_argument(
            f"--{name.replace('_', '-')}",
            action=argparse.BooleanOptionalAction,
            default=None,
            help=f"{meaning} (default: the preset's)",
        )
    opening.add_argument(
        "--json",
        action="store_true",
        help="print the BestOpening response as proto3 JSON, every field included",
    )
    rpc.add_server_options(opening)
    opening.set_defaults(func=run_opening)


def build_request(args: argparse.Namespace) -> hand_pb2.CheckHandRequest:
    request = hand_pb2.CheckHandRequest(
        preset=args.preset,
        hand_notation=notation(args.tiles),
        omit_arrangements=args.no_arrangements,
    )
    if args.indicator is not None:
        request.indicator_notation = args.indicator
    else:
        request.okey_notation = args.okey
    for name in _RULE_OPTIONS:
        value = getattr(args, name)
        if value is not None:
            setattr(request.ruleset, name, value)
    return request


def run_check(args: argparse.Namespace) -> int:
    request = build_request(args)
    address = rpc.server_address(args)
    response = rpc.unary(address, args.timeout, hand_pb2_grpc.HandServiceStub, "CheckHand", request)
    painter = render.Painter(render.wants_colour(sys.stdout))
    rpc.print_answer(
        response,
        args.json,
        lambda: render.hand_text(response, tile_count(request.hand_notation), painter),
    )
    return EXIT_OK


def build_opening_request(args: argparse.Namespace) -> hand_pb2.BestOpeningRequest:
    request = hand_pb2.BestOpeningRequest(preset=args.preset, hand_notation=notation(args.tiles))
    if args.indicator is not None:
        request.indicator_notation = args.indicator
    else:
        request.okey_notation = args.okey
    for name in _OPENING_OPTIONS:
        value = getattr(args, name)
        if value is not None:
            setattr(request.ruleset, name, value)
    return request


def run_opening(args: argparse.Namespace) -> int:
    request = build_opening_request(args)
    address = rpc.server_address(args)
    response = rpc.unary(
        address, args.timeout, hand_pb2_grpc.HandServiceStub, "BestOpening", request
    )
    painter = render.Painter(render.wants_colour(sys.stdout))
    rpc.print_answer(response, args.json, lambda: opening_text(response, painter))
    return EXIT_OK


# The thresholds to open in Okey 101, as the server applies them (hand.proto).


def opening_text(response: hand_pb2.BestOpeningResponse, painter: render.Painter) -> str:
    """The melds first (value, whether they open, the melds, what is left), then the pairs."""
    verdict = "opens" if response.opens else "does not open"
    okeys = response.okeys_used
    with_okeys = f", {okeys} okey{'' if okeys == 1 else 's'} used" if okeys else ""
    lines = [
        f"melds: {response.value} points{with_okeys}: {verdict} ({OPENING_POINTS} needed)",
        f"indicator {painter.tile(response.indicator)}, okey {painter.tile(response.okey)}",
    ]
    lines += render.arrangement_lines(response.arrangement, painter)
    left = " ".join(painter.tile(tile) for tile in response.unused) or "nothing"
    lines.append(f"left on the rack: {left}")
    pairs = response.pairs
    verdict = "opens" if pairs.opens else "does not open"
    lines.append(f"pairs: {pairs.count}: {verdict} ({OPENING_PAIRS} needed)")
    lines += render.arrangement_lines(pairs.arrangement, painter)
    return "\n".join(lines)
