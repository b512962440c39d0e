"""`okey hand check`: asks HandService/CheckHand about 14 or 15 tiles and prints the verdict."""

from __future__ import annotations

import argparse
import re
import sys

from okey.v1 import hand_pb2, hand_pb2_grpc

from okey_cli import render, rpc
from okey_cli.errors import EXIT_OK

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
        "--preset", default="", help='ruleset preset: "classic" (default), "okey.gg", "101"'
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


def notation(words: list[str]) -> str:
    """All the words as one notation string; the server parses and validates it."""
    return " ".join(" ".join(words).split())


def tile_count(text: str) -> int:
    return len([w for w in re.split(r"[\s,]+", text) if w])


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
