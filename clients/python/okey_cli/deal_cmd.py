"""`okey deal`: deals through DealService, commits and reveals seeds, verifies saved deals.

`okey deal verify` recomputes the deal on this machine with the okey_rules
library from the revealed seed (mixed with the saved client seeds), so the
check does not trust the server that dealt; see docs/dealing.md, "Fairness
you can verify" and "Client seeds".
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from dataclasses import fields
from pathlib import Path
from typing import Any

from google.protobuf import json_format
from okey.v1 import deal_pb2, deal_pb2_grpc, ruleset_pb2, state_pb2, tile_pb2

from okey_cli import render, rpc
from okey_cli.errors import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, CliError

_GAMES = {"classic": ruleset_pb2.GAME_CLASSIC, "101": ruleset_pb2.GAME_OKEY_101}
_COLOURS = (tile_pb2.COLOR_RED, tile_pb2.COLOR_YELLOW, tile_pb2.COLOR_BLUE, tile_pb2.COLOR_BLACK)
_FACES = 53  # packed code = copy * 53 + face; face 52 = false joker (docs/dealing.md)
_STATE_HELP = (
    "the round's finished state as JSON: a GameState, or a saved answer carrying it as "
    '"state" (- for stdin)'
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "deal",
        help="deal a round from a seed (also: commit, reveal, verify)",
        description=(
            "Deals one round through DealService/Deal and prints each seat's rack, the "
            "indicator and the okey. `okey deal commit`, `okey deal reveal` and `okey deal "
            "verify` make and check a committed deal (docs/dealing.md)."
        ),
    )
    parser.add_argument("--seed", default="", help="the seed (any text); default: a fresh one")
    parser.add_argument(
        "--formal", action="store_true", help="the traditional stacks-and-dice deal"
    )
    parser.add_argument("--players", type=int, default=0, help="2-4 (classic), 4 (101); default 4")
    parser.add_argument("--game", choices=sorted(_GAMES), default=None, help="default: classic")
    parser.add_argument("--preset", default="", help='"classic", "okey.gg" or "101"')
    parser.add_argument("--dealer", type=int, default=0, metavar="SEAT", help="default 0")
    parser.add_argument(
        "--dice", type=_dice, default=[], metavar="D1,D2[,...]",
        help="formal deal: the dice rolled at the table, e.g. 5,2 (default: from the seed)",
    )
    parser.add_argument(
        "--indicator-drawable-last", action=argparse.BooleanOptionalAction, default=None,
        help="is the indicator drawn as the last wall tile (default: the preset's)",
    )
    parser.add_argument(
        "--commit", action="store_true",
        help="a committed deal: the server keeps the seed and returns its SHA-256 and a deal id",
    )
    parser.add_argument(
        "--deal-id", default="", metavar="ID",
        help="deal from the seed committed by `okey deal commit` under this deal id",
    )
    parser.add_argument(
        "--client-seed", dest="client_seeds", action="append", default=[], metavar="TEXT",
        help="a player's own entropy, mixed into the shuffle (repeat, in order; at most 8)",
    )
    parser.add_argument("--json", action="store_true", help="print the Deal response as JSON")
    rpc.add_server_options(parser)
    parser.set_defaults(func=run_deal)

    commands = parser.add_subparsers(dest="deal_command", metavar="COMMAND")
    commit = commands.add_parser(
        "commit", help="commit to a secret seed before the players give client seeds",
        description=(
            "Asks DealService/CommitSeed for a new deal id and the commitment (SHA-256) of "
            "its secret seed. Publish the commitment; then deal with --deal-id ID and the "
            "players' --client-seed values."
        ),
    )
    commit.add_argument("--json", action="store_true", help="print the response as JSON")
    rpc.add_server_options(commit)
    commit.set_defaults(func=run_commit)

    reveal = commands.add_parser(
        "reveal", help="reveal a committed deal's seed once its round is over",
        description=(
            "Asks DealService/RevealSeed for the seed of a committed deal. The server "
            "reveals it only with the round's finished state."
        ),
    )
    reveal.add_argument("deal_id", help="the deal id of a committed deal (32 hex digits)")
    reveal.add_argument("--state", required=True, metavar="FILE", help=_STATE_HELP)
    reveal.add_argument("--json", action="store_true", help="print the response as JSON")
    rpc.add_server_options(reveal)
    reveal.set_defaults(func=run_reveal)

    verify = commands.add_parser(
        "verify", help="check a saved deal against its commitment and its seed",
        description=(
            "Reads a deal saved with `okey deal --json` (FILE, or - for stdin), checks "
            "that SHA-256 of the seed is the saved commitment, then recomputes the deal "
            "locally from the seed and compares every rack, the indicator and the wall."
        ),
    )
    verify.add_argument("file", help="the saved Deal response (JSON), - for stdin")
    source = verify.add_mutually_exclusive_group()
    source.add_argument("--seed", default=None, help="the revealed seed")
    source.add_argument(
        "--reveal", action="store_true",
        help="ask the server (RevealSeed) for the seed; needs --state",
    )
    verify.add_argument("--state", default=None, metavar="FILE", help=_STATE_HELP)
    rpc.add_server_options(verify)
    verify.set_defaults(func=run_verify)


def _dice(text: str) -> list[int]:
    try:
        return [int(word) for word in text.replace(" ", "").split(",") if word]
    except ValueError:
        raise argparse.ArgumentTypeError(f"dice are whole numbers like 5,2: {text!r}") from None


def build_request(args: argparse.Namespace) -> deal_pb2.DealRequest:
    request = deal_pb2.DealRequest(
        preset=args.preset,
        player_count=args.players,
        dealer_seat=args.dealer,
        seed=args.seed,
        dice=args.dice,
        commit=args.commit,
        deal_id=args.deal_id,
        client_seeds=args.client_seeds,
        method=deal_pb2.DEAL_METHOD_FORMAL if args.formal else deal_pb2.DEAL_METHOD_INFORMAL,
    )
    if args.game is not None:
        request.ruleset.game = _GAMES[args.game]
    if args.indicator_drawable_last is not None:
        request.ruleset.indicator_drawable_last = args.indicator_drawable_last
    if args.players < 0 or args.dealer < 0:
        raise CliError("invalid input: --players and --dealer are not negative", EXIT_BAD_INPUT)
    return request


def run_deal(args: argparse.Namespace) -> int:
    request = build_request(args)
    address = rpc.server_address(args)
    response = rpc.unary(address, args.timeout, deal_pb2_grpc.DealServiceStub, "Deal", request)
    painter = render.Painter(render.wants_colour(sys.stdout))
    rpc.print_answer(response, args.json, lambda: deal_text(response, painter))
    return EXIT_OK


def run_commit(args: argparse.Namespace) -> int:
    address = rpc.server_address(args)
    response = rpc.unary(
        address, args.timeout, deal_pb2_grpc.DealServiceStub, "CommitSeed",
        deal_pb2.CommitSeedRequest(),
    )
    rpc.print_answer(
        response, args.json,
        lambda: f"deal id {response.deal_id}\ncommitment {response.commitment}",
    )
    return EXIT_OK


def run_reveal(args: argparse.Namespace) -> int:
    address = rpc.server_address(args)
    response = _reveal(args.deal_id, load_state(args.state), address, args.timeout)
    rpc.print_answer(
        response, args.json, lambda: f"seed {response.seed}\ncommitment {response.commitment}"
    )
    return EXIT_OK


def load_state(file: str) -> state_pb2.GameState:
    """A saved GameState (protobuf JSON), alone or as the `state` of a saved answer."""
    try:
        data = json.loads(sys.stdin.read() if file == "-" else Path(file).read_text())
        if isinstance(data, dict) and isinstance(data.get("state"), dict):
            data = data["state"]
        # Unknown fields are kept out, not refused: the server's MAC check judges the state.
        return json_format.ParseDict(data, state_pb2.GameState(), ignore_unknown_fields=True)
    except (OSError, ValueError, json_format.ParseError, UnicodeDecodeError) as error:
        raise CliError(f"cannot read a game state from {file}: {error}", EXIT_BAD_INPUT) from None


def _reveal(
    deal_id: str, state: state_pb2.GameState, address: str, timeout: float
) -> deal_pb2.RevealSeedResponse:
    request = deal_pb2.RevealSeedRequest(deal_id=deal_id, state=state)
    response: deal_pb2.RevealSeedResponse = rpc.unary(
        address, timeout, deal_pb2_grpc.DealServiceStub, "RevealSeed", request
    )
    return response


# --- readable output -----------------------------------------------------------


def tile_code(tile: tile_pb2.Tile) -> int:
    """The engine's packed code of a Tile message (copy * 53 + face; face 52 = false joker)."""
    face = _FACES - 1 if tile.false_joker else _COLOURS.index(tile.color) * 13 + tile.number - 1
    return tile.copy * _FACES + face


def _tiles(tiles: Any, painter: render.Painter, *, sort: bool = True) -> str:
    ordered = sorted(tiles, key=lambda t: (tile_code(t) % _FACES, t.copy)) if sort else tiles
    return " ".join(painter.tile(t) for t in ordered)


def _seat_role(response: deal_pb2.DealResponse, seat: int) -> str:
    roles = []
    if seat == response.dealer_seat:
        roles.append("dealer")
    if seat == response.first_seat:
        roles.append("first")
    return f"({', '.join(roles)})" if roles else ""


def deal_text(response: deal_pb2.DealResponse, painter: render.Painter) -> str:
    game = "Okey 101" if response.game == ruleset_pb2.GAME_OKEY_101 else "classic Okey"
    method = "formal" if response.method == deal_pb2.DEAL_METHOD_FORMAL else "informal"
    lines = []
    if response.seed:
        lines.append(f"seed {response.seed}")
    else:
        lines.append(f"deal id {response.deal_id} (committed: seed withheld)")
    lines.append(f"commitment {response.commitment}")
    if response.client_seeds:
        seeds = ", ".join(json.dumps(seed, ensure_ascii=False) for seed in response.client_seeds)
        lines.append(f"client seeds {seeds}")
    lines.append(
        f"{game}, {response.player_count} players, {method} deal, dealer seat "
        f"{response.dealer_seat}, first to discard: seat {response.first_seat}"
    )
    lines.append(
        f"indicator {painter.tile(response.indicator)}, okey {painter.tile(response.okey)}"
    )
    for rack in response.racks:
        label = f"seat {rack.seat} {_seat_role(response, rack.seat)}".strip()
        lines.append(f"{label:<22} {len(rack.tiles):>2}: {_tiles(rack.tiles, painter)}")
    bank = "bank" if response.game == ruleset_pb2.GAME_OKEY_101 else "wall"
    lines.append(f"{bank}: {len(response.wall)} tiles")
    if response.HasField("formal"):
        lines += _formal_lines(response.formal, painter)
    return "\n".join(lines)


def _formal_lines(formal: deal_pb2.FormalDeal, painter: render.Painter) -> list[str]:
    source = "given" if formal.dice_given else "from the seed"
    dice = ", ".join(str(d) for d in formal.dice)
    lines = [
        f"dice ({source}): {dice} -> spare on stack {formal.indicator_stack}, indicator "
        f"{formal.indicator_position} from its bottom",
        "stacks, table order from the dealer's leftmost, bottom to top:",
    ]
    for stack in formal.stacks:
        mark = stack.letter or "*"
        spare = f" + spare {painter.tile(formal.spare)}" if not stack.letter else ""
        tiles = _tiles(stack.tiles, painter, sort=False)
        lines.append(f"  {stack.index:>2} {mark}: {tiles}{spare}")
    by_seat: dict[int, list[str]] = {}
    for take in formal.takes:
        what = take.letter if take.part == "whole" else f"{take.part} of {take.letter}"
        by_seat.setdefault(take.seat, []).append(what)
    for seat in sorted(by_seat):
        lines.append(f"seat {seat} took: {', '.join(by_seat[seat])}")
    return lines


# --- verify ----------------------------------------------------------------------


def load_saved_deal(file: str) -> deal_pb2.DealResponse:
    try:
        text = sys.stdin.read() if file == "-" else Path(file).read_text()
        return json_format.Parse(text, deal_pb2.DealResponse(), ignore_unknown_fields=True)
    except (OSError, json_format.ParseError, UnicodeDecodeError) as error:
        raise CliError(f"cannot read a saved deal from {file}: {error}", EXIT_BAD_INPUT) from None


def _option_value(descriptor: Any, value: Any, annotation: Any) -> Any:
    """A saved option as the engine's Ruleset takes it: enum options by their names
    (SCORING_MODE_TARGET -> ScoringMode.TARGET), the others as they are."""
    if descriptor.enum_type is None:
        return value
    from okey_rules import ruleset

    enum_class = getattr(ruleset, str(annotation))
    name = descriptor.enum_type.values_by_number[value].name
    prefix = descriptor.enum_type.name
    return enum_class[name.removeprefix(_upper_snake(prefix) + "_")]


def _upper_snake(name: str) -> str:
    """ScoringMode -> SCORING_MODE (how buf's enum value prefixes are made)."""
    return "".join(f"_{c}" if c.isupper() and i else c for i, c in enumerate(name)).upper()


def recompute(saved: deal_pb2.DealResponse, seed: str) -> Any:
    """The deal the engine deals from `seed` (and the saved client seeds) with the saved
    deal's parameters."""
    from okey_rules.deal import deal
    from okey_rules.deal_fairness import shuffle_seed
    from okey_rules.deal_types import DealMethod
    from okey_rules.errors import InvalidInputError
    from okey_rules.ruleset import Game, Ruleset

    options = saved.state.ruleset
    game = Game.OKEY_101 if saved.game == ruleset_pb2.GAME_OKEY_101 else Game.CLASSIC
    known = {f.name: f for f in fields(Ruleset)}
    overrides = {
        descriptor.name: _option_value(descriptor, value, known[descriptor.name].type)
        for descriptor, value in options.ListFields()
        if descriptor.name != "game" and descriptor.name in known
    }
    formal = saved.method == deal_pb2.DEAL_METHOD_FORMAL
    try:
        return deal(
            Ruleset(game=game, **overrides),
            saved.player_count,
            saved.dealer_seat,
            DealMethod.FORMAL if formal else DealMethod.INFORMAL,
            seed=shuffle_seed(seed, list(saved.client_seeds)),
            dice=list(saved.formal.dice) if formal and saved.formal.dice_given else None,
        )
    except InvalidInputError as error:
        raise CliError(f"the saved deal cannot be recomputed: {error}", EXIT_BAD_INPUT) from None


def compare(saved: deal_pb2.DealResponse, dealt: Any) -> list[str]:
    """Every difference between the saved deal and the recomputed one (empty: they match)."""
    problems = []
    if tile_code(saved.indicator) != dealt.indicator:
        problems.append("the indicator differs")
    saved_racks = [[tile_code(t) for t in rack.tiles] for rack in saved.racks]
    for seat, rack in enumerate(dealt.racks):
        if seat >= len(saved_racks) or saved_racks[seat] != list(rack):
            problems.append(f"seat {seat}'s rack differs")
    if len(saved_racks) != len(dealt.racks):
        problems.append("the number of racks differs")
    if [tile_code(t) for t in saved.wall] != list(dealt.wall):
        problems.append("the wall differs")
    if dealt.formal is not None and list(saved.formal.dice) != list(dealt.formal.dice):
        problems.append("the dice differ")
    return problems


def run_verify(args: argparse.Namespace) -> int:
    saved = load_saved_deal(args.file)
    if args.state is not None and not args.reveal:
        raise CliError("--state goes with --reveal (it is what RevealSeed needs)", EXIT_BAD_INPUT)
    if args.seed is not None:
        seed = args.seed
    elif args.reveal:
        if not saved.deal_id:
            raise CliError("the saved deal has no deal id to reveal", EXIT_BAD_INPUT)
        if args.state is None:
            raise CliError(
                "--reveal needs --state FILE: the server reveals the seed only with the"
                " round's finished state", EXIT_BAD_INPUT,
            )
        state = load_state(args.state)
        seed = _reveal(saved.deal_id, state, rpc.server_address(args), args.timeout).seed
    elif saved.seed:
        seed = saved.seed
    else:
        raise CliError("a committed deal: give --seed SEED or --reveal", EXIT_BAD_INPUT)

    problems = []
    commitment = hashlib.sha256(seed.encode("utf-8")).hexdigest()
    if not saved.commitment:
        problems.append("the saved deal carries no commitment")
    elif commitment != saved.commitment:
        problems.append("SHA-256 of the seed is not the saved commitment")
    problems += compare(saved, recompute(saved, seed))
    if problems:
        for problem in problems:
            print(f"FAIL: {problem}")
        return EXIT_FAILED
    print(f"OK: SHA-256 of seed {seed} is the commitment {saved.commitment}")
    mixed = f" mixed with the {len(saved.client_seeds)} client seeds" if saved.client_seeds else ""
    print(f"OK: the seed{mixed} deals exactly the saved indicator, racks and wall")
    return EXIT_OK
