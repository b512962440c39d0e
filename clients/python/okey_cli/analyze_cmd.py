"""`okey hand analyze`: AnalysisService.AnalyzeHand, a classic hand's distance to a win.

14 tiles: how many must be replaced, at fewest, to win (by melds, by seven pairs, by kafa).
15 tiles: each discard, the distance it leaves and the draws that would bring the hand
closer, with their unseen copies; the best discard first. From the hand alone, from the
tiles the player has seen (`--seen`), or from a seat of a saved round (`--state`).
"""

from __future__ import annotations

import argparse
import sys

from okey.v1 import analysis_pb2, analysis_pb2_grpc

from okey_cli import deal_cmd, render, rpc
from okey_cli.errors import EXIT_BAD_INPUT, EXIT_OK, CliError
from okey_cli.words import notation


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    analyze = commands.add_parser(
        "analyze",
        help="how far is this hand from a win, and which discard and draws help?",
        description=(
            "Asks AnalysisService/AnalyzeHand about a classic hand (R7, Y13, B1, K12, F, as "
            "separate words or one quoted string): for 14 tiles, the fewest to replace for "
            "a win; for 15, each discard with the distance it leaves and the useful draws "
            "with their unseen copies. An Okey 101 rack (--preset 101): the points and pairs "
            "missing to open and what each discard leaves. Or a seat of a saved round: "
            "--state FILE --seat N."
        ),
    )
    analyze.add_argument("tiles", nargs="*", metavar="TILE", help="the hand, e.g. R1 R2 R3 ...")
    wild = analyze.add_mutually_exclusive_group()
    wild.add_argument("--indicator", metavar="TILE", help="the face-up indicator, e.g. R4")
    wild.add_argument("--okey", metavar="TILE", help="the okey (wild) itself, e.g. R5")
    analyze.add_argument("--seen", metavar="TILES", default=None,
                         help="the discards you have seen, e.g. \"R4 K9\" (unseen copies are "
                              "counted without them)")
    analyze.add_argument("--preset", default="", help="ruleset preset (default: classic)")
    analyze.add_argument("--state", metavar="FILE", default=None,
                         help="a saved round (okey play --save-state): analyze a seat's rack")
    analyze.add_argument("--seat", type=int, default=0, help="with --state: whose rack")
    analyze.add_argument("--json", action="store_true",
                         help="print the AnalyzeHand response as proto3 JSON")
    rpc.add_server_options(analyze)
    analyze.set_defaults(func=run_analyze)


def build_request(args: argparse.Namespace) -> analysis_pb2.AnalyzeHandRequest:
    if args.state is not None:
        if args.tiles or args.indicator or args.okey or args.seen or args.preset:
            raise CliError("--state analyzes a seat of the saved round: give no tiles, wild,"
                           " --seen or --preset with it", EXIT_BAD_INPUT)
        return analysis_pb2.AnalyzeHandRequest(state=deal_cmd.load_state(args.state),
                                               seat=args.seat)
    if not args.tiles or (args.indicator is None and args.okey is None):
        raise CliError("give the hand's tiles and --indicator or --okey (or --state FILE)",
                       EXIT_BAD_INPUT)
    request = analysis_pb2.AnalyzeHandRequest(preset=args.preset,
                                              hand_notation=notation(args.tiles))
    if args.indicator is not None:
        request.indicator_notation = args.indicator
    else:
        request.okey_notation = args.okey
    if args.seen is not None:
        request.seen_notation = args.seen
    return request


def run_analyze(args: argparse.Namespace) -> int:
    request = build_request(args)
    address = rpc.server_address(args)
    response = rpc.unary(address, args.timeout, analysis_pb2_grpc.AnalysisServiceStub,
                         "AnalyzeHand", request)
    painter = render.Painter(render.wants_colour(sys.stdout))
    rpc.print_answer(response, args.json, lambda: analysis_text(response, painter))
    return EXIT_OK


def _distance(found: analysis_pb2.HandDistance) -> str:
    ways = [f"melds {found.melds}", f"seven pairs {found.seven_pairs}"]
    if found.kafa_played:
        ways.append(f"kafa {found.kafa}")
    if found.best == 0:
        return "wins (" + ", ".join(ways) + ")"
    plural = "" if found.best == 1 else "s"
    return f"{found.best} tile{plural} from a win (" + ", ".join(ways) + ")"


def analysis_text(response: analysis_pb2.AnalyzeHandResponse, painter: render.Painter) -> str:
    """The distance (14 tiles), or the discards best first with their useful draws (15)."""
    if response.HasField("opening"):
        return opening_text(response, painter)
    counted = "what the seat has seen" if response.from_view else "the hand alone"
    lines = [f"okey {painter.tile(response.okey)} (indicator {painter.tile(response.indicator)}),"
             f" unseen copies counted from {counted}"]
    if not response.discards:
        lines.append(_distance(response.distance))
        return "\n".join(lines)
    order = sorted(range(len(response.discards)),
                   key=lambda i: (i != response.best_discard, response.discards[i].distance.best,
                                  -response.discards[i].useful_unseen, i))
    for index in order:
        choice = response.discards[index]
        mark = " (best)" if index == response.best_discard else ""
        okey = " (an okey)" if choice.okey else ""
        lines.append(f"discard {painter.tile(choice.tile)}{okey}{mark}: "
                     f"{_distance(choice.distance)}")
        if choice.useful_draws:
            draws = " ".join(f"{painter.tile(d.tile)}x{d.unseen}" for d in choice.useful_draws)
            lines.append(f"  useful draws ({choice.useful_unseen} unseen): {draws}")
    return "\n".join(lines)


def opening_text(response: analysis_pb2.AnalyzeHandResponse, painter: render.Painter) -> str:
    """Okey 101: what opening needs and what is missing, the lay-offs, then each discard."""
    found = response.opening
    lines = [
        f"okey {painter.tile(response.okey)} (indicator {painter.tile(response.indicator)})",
        f"melds: {found.points} points of {found.points_needed}, {found.points_missing} missing",
        f"pairs: {found.pairs} of {found.pairs_needed}, {found.pairs_missing} missing",
    ]
    if found.lay_offs:
        lines.append("lay-offs: " + " ".join(
            f"{painter.tile(lay.tile)}>meld {lay.meld}" for lay in found.lay_offs))
    for left in found.discards:
        keeps = [name for name, kept in (("melds", left.keeps_points and found.points),
                                         ("pairs", left.keeps_pairs and found.pairs)) if kept]
        kept_text = f" (keeps the best {' and '.join(keeps)})" if keeps else ""
        lines.append(f"discard {painter.tile(left.tile)}: {left.points} points,"
                     f" {left.pairs} pairs{kept_text}")
    return "\n".join(lines)


def hint_line(response: analysis_pb2.AnalyzeHandResponse, painter: render.Painter) -> str:
    """One line of a seat's analysis for `okey play`'s hint: the distance to a win (and the
    best discard's useful draws), or what opening still needs."""
    if response.HasField("opening"):
        found = response.opening
        return (f"your rack: melds {found.points} of {found.points_needed}"
                f" ({found.points_missing} missing), pairs {found.pairs} of"
                f" {found.pairs_needed} ({found.pairs_missing} missing)")
    if not response.discards:
        return "your hand: " + _distance(response.distance)
    best = response.discards[response.best_discard]
    draws = " ".join(f"{painter.tile(d.tile)}x{d.unseen}" for d in best.useful_draws)
    useful = f"; useful draws ({best.useful_unseen} unseen): {draws}" if draws else ""
    return f"discarding {painter.tile(best.tile)}: {_distance(best.distance)}{useful}"
