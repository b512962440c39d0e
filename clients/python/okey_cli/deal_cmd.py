"""`okey deal`: deals through DealService, commits and reveals seeds, verifies saved deals.

A committed deal takes two calls (docs/dealing.md, "Fairness you can verify"):
`okey deal commit` asks CommitSeed to commit to a secret seed and to every
input of the deal, the players' client seed hashes among them; once the
commitment is published, `okey deal --deal-id ID --client-seed ...` deals
under it with the same inputs. `okey deal reveal` asks for the seed once the
round is over. `okey deal verify` recomputes the commitment and the deal on
this machine with the okey_rules library from the revealed seed (mixed with
the saved client seeds), so the check does not trust the server that dealt;
see docs/dealing.md, "Fairness you can verify" and "Client seeds".

The state in a Deal answer is a sealed token: the CLI carries it (and saves it
with `--json`) but never reads it; what it prints about the deal's kind comes
from the answer's RoundStatus.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import hashlib
import hmac
import json
import sys
from pathlib import Path
from typing import Any

from google.protobuf import json_format
from okey.v1 import deal_pb2, deal_pb2_grpc, ruleset_pb2, state_pb2, tile_pb2
from okey_rules.ruleset import PRESETS
from okey_rules.tiles import FACES  # packed code = copy * 53 + face; face 52: false joker

from okey_cli import render, rpc
from okey_cli.errors import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_OK, CliError

_GAMES = {"classic": ruleset_pb2.GAME_CLASSIC, "101": ruleset_pb2.GAME_OKEY_101}
_GAME_NAMES = {value: name for name, value in _GAMES.items()}
_METHOD_NAMES = {deal_pb2.DEAL_METHOD_INFORMAL: "informal", deal_pb2.DEAL_METHOD_FORMAL: "formal"}
_COLOURS = (tile_pb2.COLOR_RED, tile_pb2.COLOR_YELLOW, tile_pb2.COLOR_BLUE, tile_pb2.COLOR_BLACK)
_STATE_HELP = (
    "the round's finished state: a saved answer carrying it as \"state\" (protobuf JSON, "
    "the token in base64, e.g. `okey play --save-state`), or the base64 token alone "
    "(- for stdin)"
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "deal",
        help="deal a round from a seed (also: commit, reveal, verify, hash-seed)",
        description=(
            "Deals one round through DealService/Deal and prints each seat's rack, the "
            "indicator and the okey. A committed deal: `okey deal commit` first, then "
            "`okey deal --deal-id ID` with the same options and the players' --client-seed "
            "values; `okey deal reveal` and `okey deal verify` after the round "
            "(docs/dealing.md)."
        ),
    )
    parser.add_argument("--seed", default="", help="the seed (any text); default: a fresh one")
    add_deal_inputs(parser)
    parser.add_argument(
        "--dice", type=_dice, default=[], metavar="D1,D2[,...]",
        help="formal deal: the dice rolled at the table, e.g. 5,2 (default: from the seed)",
    )
    parser.add_argument(
        "--deal-id", default="", metavar="ID",
        help="deal under the commitment `okey deal commit` made: its secret deal id; give "
             "the same options as to the commit and one --client-seed per seat",
    )
    parser.add_argument(
        "--client-seed", dest="client_seeds", action="append", default=[], metavar="TEXT",
        help="a player's own entropy, mixed into the shuffle (repeat, in seat order; at "
             "most 8; under --deal-id exactly the committed ones, one per seat)",
    )
    parser.add_argument(
        "--stacked", default=None, metavar="FILE",
        help="deal a position set up on purpose: a StackedDeal (racks, wall, indicator) "
             "in protobuf JSON (- for stdin); the deal is marked stacked, never fair",
    )
    parser.add_argument("--json", action="store_true", help="print the Deal response as JSON")
    rpc.add_server_options(parser)
    parser.set_defaults(func=run_deal)

    commands = parser.add_subparsers(dest="deal_command", metavar="COMMAND")
    commit = commands.add_parser(
        "commit", help="commit to a secret seed and the deal's inputs before the deal",
        description=(
            "Asks DealService/CommitSeed for a secret deal id and the commitment to a "
            "fresh secret seed and to every input of one deal: game and rules, players, "
            "dealer, method, round, and the SHA-256 of each player's client seed "
            "(`okey deal hash-seed` computes it), or --no-client-seeds. Publish the "
            "commitment; keep the deal id for the table. Then deal with the same options, "
            "--deal-id ID and the players' --client-seed values in seat order."
        ),
    )
    add_deal_inputs(commit)
    hashes = commit.add_mutually_exclusive_group()
    hashes.add_argument(
        "--client-seed-hash", dest="client_seed_hashes", action="append", default=[],
        metavar="HEX",
        help="SHA-256 (64 hex digits) of a player's client seed: one per seat, in seat order",
    )
    hashes.add_argument(
        "--no-client-seeds", action="store_true",
        help="the deal takes no client seeds: the server's seed alone decides it",
    )
    commit.add_argument("--json", action="store_true", help="print the response as JSON")
    rpc.add_server_options(commit)
    commit.set_defaults(func=run_commit)

    reveal = commands.add_parser(
        "reveal", help="reveal a committed deal's seed once its round is over",
        description=(
            "Asks DealService/RevealSeed for the seed of a committed deal and the inputs "
            "its commitment binds. The server reveals it only with the round's finished "
            "state."
        ),
    )
    reveal.add_argument("deal_id", nargs="?", default=None,
                        help="the secret deal id `okey deal commit` printed")
    reveal.add_argument("--deal-id", dest="deal_id_option", default=None, metavar="ID",
                        help="the same, as an option")
    reveal.add_argument("--state", "--state-file", dest="state", required=True, metavar="FILE",
                        help=_STATE_HELP)
    reveal.add_argument("--json", action="store_true", help="print the response as JSON")
    rpc.add_server_options(reveal)
    reveal.set_defaults(func=run_reveal)

    verify = commands.add_parser(
        "verify", help="check a saved deal against its seed (and its commitment)",
        description=(
            "Reads a deal saved with `okey deal --json` (FILE, or - for stdin). A committed "
            "deal: recomputes the commitment from the seed and the saved inputs (game, "
            "players, dealer, method, round, client seeds) and compares it with the saved "
            "one. Any deal: recomputes the deal locally from the seed and compares every "
            "rack, the indicator and the wall."
        ),
    )
    verify.add_argument("file", help="the saved Deal response (JSON), - for stdin")
    source = verify.add_mutually_exclusive_group()
    source.add_argument("--seed", default=None, help="the revealed seed")
    source.add_argument(
        "--reveal", action="store_true",
        help="ask the server (RevealSeed) for the seed; needs --state",
    )
    verify.add_argument("--state", "--state-file", dest="state", default=None, metavar="FILE",
                        help=_STATE_HELP)
    rpc.add_server_options(verify)
    verify.set_defaults(func=run_verify)

    hash_seed = commands.add_parser(
        "hash-seed", help="SHA-256 of client seeds, as a player commits to them",
        description=(
            "Prints the lower-case hex SHA-256 of each client seed's UTF-8 bytes, one a "
            "line: what `okey deal commit --client-seed-hash` takes. A player computes it "
            "on their own machine and gives only the hash before the commitment is "
            "published."
        ),
    )
    hash_seed.add_argument("client_seeds", nargs="+", metavar="TEXT", help="a client seed")
    hash_seed.set_defaults(func=run_hash_seed)


def add_deal_inputs(parser: argparse.ArgumentParser) -> None:
    """The inputs a commitment binds, on `okey deal` and `okey deal commit` alike: a deal
    under a commitment must repeat them."""
    parser.add_argument(
        "--formal", action="store_true", help="the traditional stacks-and-dice deal"
    )
    parser.add_argument("--players", type=int, default=0, help="2-4 (classic), 4 (101); default 4")
    parser.add_argument("--game", choices=sorted(_GAMES), default=None, help="default: classic")
    parser.add_argument(
        "--preset", default="", help=f"one of {', '.join(PRESETS)} (default: classic)"
    )
    parser.add_argument("--dealer", type=int, default=0, metavar="SEAT", help="default 0")
    parser.add_argument("--round", type=int, default=0, metavar="N",
                        help="the round number within the table's game (default 1)")
    parser.add_argument(
        "--indicator-drawable-last", action=argparse.BooleanOptionalAction, default=None,
        help="is the indicator drawn as the last wall tile (default: the preset's)",
    )


def _dice(text: str) -> list[int]:
    try:
        return [int(word) for word in text.replace(" ", "").split(",") if word]
    except ValueError:
        raise argparse.ArgumentTypeError(f"dice are whole numbers like 5,2: {text!r}") from None


def _check_counts(args: argparse.Namespace) -> None:
    if args.players < 0 or args.dealer < 0 or args.round < 0:
        raise CliError(
            "invalid input: --players, --dealer and --round are not negative", EXIT_BAD_INPUT
        )


def _ruleset(args: argparse.Namespace) -> ruleset_pb2.Ruleset:
    rules = ruleset_pb2.Ruleset()
    if args.game is not None:
        rules.game = _GAMES[args.game]
    if args.indicator_drawable_last is not None:
        rules.indicator_drawable_last = args.indicator_drawable_last
    return rules


def _method(args: argparse.Namespace) -> deal_pb2.DealMethod:
    return deal_pb2.DEAL_METHOD_FORMAL if args.formal else deal_pb2.DEAL_METHOD_INFORMAL


def build_request(args: argparse.Namespace) -> deal_pb2.DealRequest:
    _check_counts(args)
    request = deal_pb2.DealRequest(
        preset=args.preset,
        ruleset=_ruleset(args),
        player_count=args.players,
        dealer_seat=args.dealer,
        seed=args.seed,
        dice=args.dice,
        deal_id=args.deal_id,
        client_seeds=args.client_seeds,
        method=_method(args),
        round=args.round,
    )
    if args.stacked is not None:
        request.stacked.CopyFrom(load_stacked(args.stacked))
    return request


def build_commit_request(args: argparse.Namespace) -> deal_pb2.CommitSeedRequest:
    _check_counts(args)
    return deal_pb2.CommitSeedRequest(
        preset=args.preset,
        ruleset=_ruleset(args),
        player_count=args.players,
        dealer_seat=args.dealer,
        method=_method(args),
        round=args.round,
        # Sent as given: the server judges them (exactly one per seat, 64 hex digits).
        client_seed_hashes=args.client_seed_hashes,
        no_client_seeds=args.no_client_seeds,
    )


def load_stacked(file: str) -> deal_pb2.StackedDeal:
    """A StackedDeal in protobuf JSON, alone or as the `stacked` of a saved DealRequest.
    Unknown keys are refused, so that a misspelt one does not silently drop tiles."""
    try:
        data = json.loads(sys.stdin.read() if file == "-" else Path(file).read_text())
        if isinstance(data, dict) and isinstance(data.get("stacked"), dict):
            data = data["stacked"]
        return json_format.ParseDict(data, deal_pb2.StackedDeal())
    except (OSError, ValueError, json_format.ParseError, UnicodeDecodeError) as error:
        raise CliError(f"cannot read a StackedDeal from {file}: {error}", EXIT_BAD_INPUT) from None


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
        build_commit_request(args),
    )
    rpc.print_answer(response, args.json, lambda: commit_text(response))
    return EXIT_OK


def commit_text(response: deal_pb2.CommitSeedResponse) -> str:
    inputs = response.inputs
    if inputs.client_seed_count:
        seeds = (f"{inputs.client_seed_count} client seeds, one per seat in seat order, "
                 "hashing to:")
    else:
        seeds = "no client seeds"
    lines = [
        f"deal id {response.deal_id}",
        f"commitment {response.commitment}",
        f"binds: {inputs_text(inputs)}, {seeds}",
        *(f"  seat {seat}: {digest}" for seat, digest in enumerate(inputs.client_seed_hashes)),
        "publish the commitment; keep the deal id secret until the round is over. Deal with "
        "the same options, --deal-id ID"
        + (" and --client-seed TEXT per seat" if inputs.client_seed_count else ""),
    ]
    return "\n".join(lines)


def inputs_text(inputs: deal_pb2.CommittedInputs) -> str:
    game = "Okey 101" if inputs.game == ruleset_pb2.GAME_OKEY_101 else "classic Okey"
    method = _METHOD_NAMES.get(inputs.method, "?")
    return (f"{game}, {inputs.player_count} players, dealer seat {inputs.dealer_seat}, "
            f"{method} deal, round {inputs.round}")


def run_reveal(args: argparse.Namespace) -> int:
    deal_id = _reveal_deal_id(args)
    address = rpc.server_address(args)
    response = _reveal(deal_id, load_state(args.state), address, args.timeout)
    rpc.print_answer(
        response, args.json,
        lambda: f"seed {response.seed}\ncommitment {response.commitment}\n"
                f"binds: {inputs_text(response.inputs)}, "
                f"{response.inputs.client_seed_count} client seeds",
    )
    return EXIT_OK


def _reveal_deal_id(args: argparse.Namespace) -> str:
    given: list[str] = [value for value in (args.deal_id, args.deal_id_option) if value is not None]
    if len(given) != 1:
        raise CliError(
            "invalid input: give the deal id once: `okey deal reveal ID` or --deal-id ID",
            EXIT_BAD_INPUT,
        )
    return given[0]


def run_hash_seed(args: argparse.Namespace) -> int:
    for text in args.client_seeds:
        print(client_seed_hash(text))
    return EXIT_OK


def client_seed_hash(text: str) -> str:
    """What CommitSeed takes for a client seed: hex SHA-256 of its UTF-8 bytes."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def load_state(file: str) -> bytes:
    """A saved sealed state: the `state` of a saved answer in protobuf JSON (bytes are
    base64 there), a JSON string, or the base64 text alone. The CLI never opens it: the
    server judges whether it is one it issued."""
    try:
        text = sys.stdin.read() if file == "-" else Path(file).read_text()
    except (OSError, UnicodeDecodeError) as error:
        raise CliError(f"cannot read a game state from {file}: {error}", EXIT_BAD_INPUT) from None
    try:
        data: Any = json.loads(text)
    except ValueError:
        data = text.strip()
    if isinstance(data, dict):
        data = data.get("state")
    if not isinstance(data, str) or not data:
        raise CliError(
            f"cannot read a game state from {file}: expected a saved answer with a "
            "\"state\" (base64), or the base64 token alone", EXIT_BAD_INPUT,
        )
    try:
        # Protobuf JSON writes bytes in standard base64; the URL-safe alphabet is read too.
        standard = data.replace("-", "+").replace("_", "/")
        return base64.b64decode(standard + "=" * (-len(standard) % 4), validate=True)
    except (binascii.Error, ValueError) as error:
        raise CliError(
            f"cannot read a game state from {file}: the state is not base64: {error}",
            EXIT_BAD_INPUT,
        ) from None


def _reveal(
    deal_id: str, state: bytes, address: str, timeout: float
) -> deal_pb2.RevealSeedResponse:
    request = deal_pb2.RevealSeedRequest(deal_id=deal_id, state=state)
    response: deal_pb2.RevealSeedResponse = rpc.unary(
        address, timeout, deal_pb2_grpc.DealServiceStub, "RevealSeed", request
    )
    return response


# --- readable output -----------------------------------------------------------


def tile_code(tile: tile_pb2.Tile) -> int:
    """The engine's packed code of a Tile message (copy * 53 + face; face 52 = false joker)."""
    face = FACES - 1 if tile.false_joker else _COLOURS.index(tile.color) * 13 + tile.number - 1
    return tile.copy * FACES + face


def _tiles(tiles: Any, painter: render.Painter, *, sort: bool = True) -> str:
    ordered = sorted(tiles, key=lambda t: (tile_code(t) % FACES, t.copy)) if sort else tiles
    return " ".join(painter.tile(t) for t in ordered)


def _seat_role(response: deal_pb2.DealResponse, seat: int) -> str:
    roles = []
    if seat == response.dealer_seat:
        roles.append("dealer")
    if seat == response.first_seat:
        roles.append("first")
    return f"({', '.join(roles)})" if roles else ""


def deal_kind_lines(status: Any, *, seed: str = "", replay: str = "") -> list[str]:
    """How a round was dealt, as every seat may know it (RoundStatus, or a PlayerView's
    same fields): a seeded deal's seed (when the caller has it) and keyed id, a committed
    deal's commitment, or the mark of a stacked position. `replay` follows the seed."""
    if status.deal_kind == state_pb2.DEAL_KIND_COMMITTED:
        return [f"committed deal, commitment {status.commitment} "
                "(the seed is withheld until the round is over)"]
    if status.deal_kind == state_pb2.DEAL_KIND_STACKED:
        return ["stacked deal: a position set up tile by tile, not shuffled"]
    lines = [f"seed {seed}{replay}"] if seed else []
    if status.seeded_deal_id:
        lines.append(f"seeded deal, id {status.seeded_deal_id}")
    return lines


def deal_text(response: deal_pb2.DealResponse, painter: render.Painter) -> str:
    game = "Okey 101" if response.game == ruleset_pb2.GAME_OKEY_101 else "classic Okey"
    method = "formal" if response.method == deal_pb2.DEAL_METHOD_FORMAL else "informal"
    lines = deal_kind_lines(response.status, seed=response.seed)
    if response.client_seeds:
        seeds = ", ".join(json.dumps(seed, ensure_ascii=False) for seed in response.client_seeds)
        lines.append(f"client seeds {seeds}")
    lines.append(
        f"{game}, {response.player_count} players, {method} deal, round {response.round}, "
        f"dealer seat {response.dealer_seat}, first to discard: seat {response.first_seat}"
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


def saved_kind(saved: deal_pb2.DealResponse) -> int:
    """The saved deal's kind: its status says; a deal saved without one is judged by its
    fields (a commitment: committed; a seed: seeded; neither: stacked)."""
    if saved.status.deal_kind != state_pb2.DEAL_KIND_UNSPECIFIED:
        return saved.status.deal_kind
    if saved.commitment:
        return state_pb2.DEAL_KIND_COMMITTED
    return state_pb2.DEAL_KIND_SEEDED if saved.seed else state_pb2.DEAL_KIND_STACKED


def saved_inputs(saved: deal_pb2.DealResponse) -> Any:
    """The inputs a committed deal's commitment binds, as the saved deal shows them: its
    game, seats, dealer, method and round, and its client seeds (their hashes, in seat
    order; none when it was committed without client seeds)."""
    from okey_rules.dealing.deal_fairness import CommittedInputs

    client_seeds = list(saved.client_seeds)
    return CommittedInputs(
        game=_GAME_NAMES.get(saved.game, "classic"),
        player_count=saved.player_count,
        dealer=saved.dealer_seat,
        method=_METHOD_NAMES.get(saved.method, "informal"),
        round=saved.round or 1,
        client_seed_count=len(client_seeds),
        client_seed_hashes=tuple(hashlib.sha256(s.encode("utf-8")).digest()
                                 for s in client_seeds),
    )


def _revealed_inputs_problems(
    saved: deal_pb2.DealResponse, revealed: deal_pb2.CommittedInputs
) -> list[str]:
    """Where the inputs RevealSeed says the commitment binds differ from the saved deal."""
    problems = []
    for name, theirs, ours in (
        ("game", revealed.game, saved.game),
        ("number of players", revealed.player_count, saved.player_count),
        ("dealer", revealed.dealer_seat, saved.dealer_seat),
        ("method", revealed.method, saved.method),
        ("round", revealed.round, saved.round or 1),
    ):
        if theirs != ours:
            problems.append(f"the revealed inputs' {name} is not the saved deal's")
    hashes = [client_seed_hash(seed) for seed in saved.client_seeds]
    if list(revealed.client_seed_hashes) != hashes and (revealed.client_seed_hashes or hashes):
        problems.append("the revealed client seed hashes are not those of the saved client "
                        "seeds")
    return problems


def recompute(saved: deal_pb2.DealResponse, seed: str) -> Any:
    """The deal the engine deals from `seed` (and the saved client seeds) with the saved
    deal's parameters."""
    from okey_rules.dealing.deal import deal
    from okey_rules.dealing.deal_fairness import shuffle_seed
    from okey_rules.dealing.deal_types import DealMethod
    from okey_rules.errors import InvalidInputError
    from okey_rules.ruleset import Game, Ruleset

    game = Game.OKEY_101 if saved.game == ruleset_pb2.GAME_OKEY_101 else Game.CLASSIC
    # The only rule option dealing reads besides the game. The saved answer does not list
    # the rules (they are sealed in the state), but the wall shows it: it ends with the
    # indicator itself (same copy) exactly when the indicator is drawn last.
    drawable_last = bool(saved.wall) and tile_code(saved.wall[-1]) == tile_code(saved.indicator)
    formal = saved.method == deal_pb2.DEAL_METHOD_FORMAL
    try:
        return deal(
            Ruleset(game=game, indicator_drawable_last=drawable_last),
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
    kind = saved_kind(saved)
    if kind == state_pb2.DEAL_KIND_STACKED:
        raise CliError(
            "a stacked deal has no seed: its tiles were given, so there is nothing to verify",
            EXIT_BAD_INPUT,
        )
    committed = kind == state_pb2.DEAL_KIND_COMMITTED
    problems: list[str] = []
    if args.seed is not None:
        seed = args.seed
    elif args.reveal:
        if not committed or not saved.deal_id:
            raise CliError("the saved deal is not a committed one: there is nothing to reveal",
                           EXIT_BAD_INPUT)
        if args.state is None:
            raise CliError(
                "--reveal needs --state FILE: the server reveals the seed only with the"
                " round's finished state", EXIT_BAD_INPUT,
            )
        state = load_state(args.state)
        revealed = _reveal(saved.deal_id, state, rpc.server_address(args), args.timeout)
        seed = revealed.seed
        problems += _revealed_inputs_problems(saved, revealed.inputs)
    elif saved.seed:
        seed = saved.seed
    else:
        raise CliError("a committed deal: give --seed SEED or --reveal", EXIT_BAD_INPUT)

    if committed:
        from okey_rules.dealing.deal_fairness import commitment_for

        commitment = commitment_for(seed, saved_inputs(saved))
        if not saved.commitment:
            problems.append("the saved committed deal carries no commitment")
        elif not hmac.compare_digest(commitment, saved.commitment):
            problems.append("the seed with the saved inputs does not give the saved commitment")
    problems += compare(saved, recompute(saved, seed))
    if problems:
        for problem in problems:
            print(f"FAIL: {problem}")
        return EXIT_FAILED
    if committed:
        print(f"OK: seed {seed} with the saved inputs gives the commitment {saved.commitment}")
    mixed = f" mixed with the {len(saved.client_seeds)} client seeds" if saved.client_seeds else ""
    print(f"OK: the seed{mixed} deals exactly the saved indicator, racks and wall")
    return EXIT_OK
