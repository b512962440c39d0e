"""`okey play`: a classic Okey round in the terminal, every move judged by GameService.

One seat is the human's; the others play by the policy of play_policy.py.
The round is dealt by DealService/Deal; from then on the CLI only carries the
signed state from call to call (ApplyMove, LegalMoves, PlayerView) and never
reads it: what it prints comes from the human seat's PlayerView and the
events of each move (docs/play.md). The round is untimed: no clock is sent.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from google.protobuf import json_format
from okey.v1 import (
    deal_pb2,
    deal_pb2_grpc,
    game_pb2,
    game_pb2_grpc,
    state_pb2,
    tile_pb2,
)

from okey_cli import play_policy, play_render, render, rpc
from okey_cli.errors import EXIT_BAD_INPUT, EXIT_OK, EXIT_SERVER_ERROR, CliError

_PRESETS = ("classic", "okey.gg")  # Okey 101 rounds are dealt but not played by the server yet
_RULE_OPTIONS = {
    "wild_pairs": "may the two okeys pair with each other in seven pairs",
    "kafa": "kafa: one colour 1..13 plus a second 1 wins",
    "runs_13_to_1": "may a run continue 12-13-1",
    "indicator_drawable_last": "is the indicator drawn as the last wall tile",
    "gosterme_in_first_turn": "may gosterme be shown until the end of one's first turn",
}
_COLOURS = {
    "R": tile_pb2.COLOR_RED,
    "Y": tile_pb2.COLOR_YELLOW,
    "B": tile_pb2.COLOR_BLUE,
    "K": tile_pb2.COLOR_BLACK,
}
_TILE = re.compile(r"([RYBK])(1[0-3]|[1-9])|F", re.IGNORECASE)
# Moves after which the seat's turn is over (or the round).
_TURN_ENDERS = {
    game_pb2.MOVE_KIND_DISCARD,
    game_pb2.MOVE_KIND_DECLARE_WIN,
    game_pb2.MOVE_KIND_END_ROUND,
    game_pb2.MOVE_KIND_TIMEOUT,
}
# Bounds, never reached in a real round: a bot turn is at most gösterme, draw, discard;
# a round has at most ~100 turns (the wall holds at most 77 tiles and once it is empty
# the next bot ends the round).
_MAX_BOT_STEPS = 4
_MAX_BOT_TURNS = 1000

HELP = """commands (tiles in notation: R7, Y13, B1, K12, F; case does not matter):
  d, draw          draw the next tile of the wall
  t, take          take the top tile of the previous seat's pile
  x TILE, discard TILE
                   discard TILE (with two copies in your rack, either one)
  x                discard the tile you received last (the one just drawn or taken)
  w TILE, win TILE finish: discard TILE onto the indicator, show the other 14 tiles
  w, win           finish with a discard LegalMoves offers (an okey first)
  g, gosterme      show the indicator's twin (before your first draw)
  e, end           with the wall empty: decline the previous discard, the round is drawn
  ?, moves         list your legal moves (LegalMoves)
  hint             what the bots' policy would play in your place
  s, show          show the table again
  h, help          this text
  q, quit          leave (end of input does the same)"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play a classic Okey round in the terminal against simple bots",
        description=(
            "Deals a classic round (DealService/Deal) and plays it move by move through "
            "GameService: you play one seat and type commands (help lists them); the other "
            "seats play a simple fixed policy. You see only your seat's view. Untimed. "
            "See docs/play.md."
        ),
    )
    parser.add_argument(
        "--seed", default="", help="the deal's seed (any text); default: the server draws one"
    )
    parser.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    parser.add_argument("--players", type=int, default=4, help="2-4 (default 4)")
    parser.add_argument("--dealer", type=int, default=0, metavar="SEAT", help="default 0")
    parser.add_argument("--preset", choices=_PRESETS, default="", help="default: classic")
    for name, meaning in _RULE_OPTIONS.items():
        parser.add_argument(
            f"--{name.replace('_', '-')}",
            action=argparse.BooleanOptionalAction,
            default=None,
            help=f"{meaning} (default: the preset's)",
        )
    parser.add_argument(
        "--save-state", metavar="FILE", default=None,
        help=(
            "once the round is over, write its final signed GameState as JSON to FILE "
            "(it holds every rack: for checking the round afterwards, e.g. with Replay)"
        ),
    )
    rpc.add_server_options(parser)
    parser.set_defaults(func=run_play)


def build_deal_request(args: argparse.Namespace) -> deal_pb2.DealRequest:
    if not 2 <= args.players <= 4:
        raise CliError("invalid input: --players is 2, 3 or 4", EXIT_BAD_INPUT)
    for option, value in (("--seat", args.seat), ("--dealer", args.dealer)):
        if not 0 <= value < args.players:
            raise CliError(
                f"invalid input: {option} is a seat, 0-{args.players - 1}", EXIT_BAD_INPUT
            )
    request = deal_pb2.DealRequest(
        preset=args.preset, player_count=args.players, dealer_seat=args.dealer, seed=args.seed
    )
    for name in _RULE_OPTIONS:
        value = getattr(args, name)
        if value is not None:
            setattr(request.ruleset, name, value)
    return request


def parse_tile(word: str) -> tile_pb2.Tile | None:
    """A tile in notation (docs/rules.md §1.2), copy 0; None when `word` is not one."""
    match = _TILE.fullmatch(word)
    if match is None:
        return None
    if match.group(1) is None:
        return tile_pb2.Tile(false_joker=True)
    return tile_pb2.Tile(color=_COLOURS[match.group(1).upper()], number=int(match.group(2)))


def rack_tile(view: game_pb2.PlayerViewResponse, wanted: tile_pb2.Tile) -> tile_pb2.Tile:
    """The copy of `wanted`'s face the rack holds (the one received last when it holds both);
    `wanted` itself when it holds none, so that the server answers TILE_NOT_IN_RACK."""
    for held in reversed(view.rack):
        if (held.color, held.number, held.false_joker) == (
            wanted.color, wanted.number, wanted.false_joker,
        ):
            return tile_pb2.Tile(
                color=held.color, number=held.number, false_joker=held.false_joker,
                copy=held.copy,
            )
    return wanted


class Table:
    """The round as this client carries it: the opaque state and the calls on it."""

    def __init__(
        self, channel: Any, address: str, timeout: float, human: int, painter: render.Painter
    ) -> None:
        self.game = game_pb2_grpc.GameServiceStub(channel)
        self.deals = deal_pb2_grpc.DealServiceStub(channel)
        self.address = address
        self.timeout = timeout
        self.human = human
        self.painter = painter
        self.state = state_pb2.GameState()

    def _call(self, method: Callable[..., Any], request: Any) -> Any:
        return rpc.call(method, request, self.address, self.timeout)

    def deal(self, request: deal_pb2.DealRequest) -> deal_pb2.DealResponse:
        response: deal_pb2.DealResponse = self._call(self.deals.Deal, request)
        # The response also holds every rack and the wall; only the state is kept.
        self.state = response.state
        return response

    def view(self, seat: int) -> game_pb2.PlayerViewResponse:
        request = game_pb2.PlayerViewRequest(state=self.state, seat=seat)
        view: game_pb2.PlayerViewResponse = self._call(self.game.PlayerView, request)
        return view

    def legal(self, seat: int) -> list[game_pb2.Move]:
        request = game_pb2.LegalMovesRequest(state=self.state, seat=seat)
        return list(self._call(self.game.LegalMoves, request).moves)

    def apply(self, move: game_pb2.Move) -> game_pb2.ApplyMoveResponse:
        """Applies `move`; when legal, keeps the new state and prints the events as the
        human's seat may see them."""
        answer: game_pb2.ApplyMoveResponse = self._call(
            self.game.ApplyMove, game_pb2.ApplyMoveRequest(state=self.state, move=move)
        )
        if answer.legal:
            self.state = answer.state
            for line in play_render.event_lines(answer.events, self.human, self.painter):
                print(line)
        return answer

    def bot_turn(self, seat: int) -> None:
        """Plays one whole turn of `seat` by the policy, from its own view and legal moves."""
        for _ in range(_MAX_BOT_STEPS):
            move = play_policy.choose_move(self.view(seat), self.legal(seat))
            if move is None:
                raise CliError(
                    f"seat {seat} is on turn but LegalMoves offers it no move", EXIT_SERVER_ERROR
                )
            answer = self.apply(move)
            if not answer.legal:
                what = play_render.move_text(move, self.painter)
                raise CliError(
                    f"the server refused seat {seat}'s move {what}"
                    f" ({reason_name(answer.reason)}): {answer.message}",
                    EXIT_SERVER_ERROR,
                )
            if move.kind in _TURN_ENDERS:
                return
        raise CliError(f"seat {seat} did not end its turn in {_MAX_BOT_STEPS} moves",
                       EXIT_SERVER_ERROR)


def reason_name(reason: int) -> str:
    name = game_pb2.IllegalReason.Name(reason) if reason in game_pb2.IllegalReason.values() \
        else str(reason)
    return name.removeprefix("ILLEGAL_REASON_")


class Human:
    """Reads the human's commands and turns them into moves of its seat."""

    def __init__(self, table: Table, interactive: bool) -> None:
        self.table = table
        self.seat = table.human
        self.painter = table.painter
        self.interactive = interactive

    def read(self) -> str | None:
        """One command line, or None at the end of input. Piped input is echoed after the
        prompt, so a transcript reads like a session."""
        try:
            line = input(f"seat {self.seat}> ")
        except EOFError:
            print()
            return None
        if not self.interactive:
            print(line)
        return line

    def move(self, kind: int, tile: tile_pb2.Tile | None = None) -> game_pb2.Move:
        move = game_pb2.Move(kind=kind, seat=self.seat)  # type: ignore[arg-type]
        if tile is not None:
            move.tile.CopyFrom(tile)
        return move

    def play(self, move: game_pb2.Move) -> None:
        """Sends the move; an illegal one is the server's answer, printed with its reason."""
        try:
            answer = self.table.apply(move)
        except CliError as error:
            if error.exit_code != EXIT_BAD_INPUT:
                raise
            print(f"refused: {error.message}")
            return
        if not answer.legal:
            print(f"illegal move ({reason_name(answer.reason)}): {answer.message}")

    def tile_arg(
        self, words: list[str], view: game_pb2.PlayerViewResponse
    ) -> tuple[bool, tile_pb2.Tile | None]:
        """(ok, tile): the tile named, the copy in the rack; (True, None) when none is named."""
        if len(words) < 2:
            return True, None
        if len(words) > 2:
            print("one tile at a time, e.g. x R7")
            return False, None
        tile = parse_tile(words[1])
        if tile is None:
            print(f"not a tile: {words[1]!r} (write R7, Y13, B1, K12 or F)")
            return False, None
        return True, rack_tile(view, tile)

    def command(self, line: str) -> bool:
        """Carries out one command line; False when the human quits."""
        words = line.split()
        if not words:
            return True
        word = words[0].lower()
        view = self.table.view(self.seat)
        if word in ("q", "quit", "exit"):
            return False
        if word in ("h", "help"):
            print(HELP)
        elif word in ("s", "show"):
            print("\n".join(play_render.table_lines(view, self.seat, self.painter)))
        elif word in ("?", "moves"):
            legal = self.table.legal(self.seat)
            print("\n".join(play_render.moves_lines(legal, self.painter)))
        elif word == "hint":
            choice = play_policy.choose_move(view, self.table.legal(self.seat))
            print("hint: " + (play_render.move_text(choice, self.painter) if choice else "none"))
        elif word in ("d", "draw"):
            self.play(self.move(game_pb2.MOVE_KIND_DRAW_FROM_WALL))
        elif word in ("t", "take"):
            self.play(self.move(game_pb2.MOVE_KIND_TAKE_DISCARD))
        elif word in ("g", "gosterme", "gösterme"):
            self.play(self.move(game_pb2.MOVE_KIND_GOSTERME))
        elif word in ("e", "end"):
            self.play(self.move(game_pb2.MOVE_KIND_END_ROUND))
        elif word in ("x", "discard"):
            ok, tile = self.tile_arg(words, view)
            if ok:
                # No tile named: the one received last (the end of the rack in received order).
                chosen = tile if tile is not None else (view.rack[-1] if view.rack else None)
                self.play(self.move(game_pb2.MOVE_KIND_DISCARD, chosen))
        elif word in ("w", "win"):
            ok, tile = self.tile_arg(words, view)
            if ok:
                self.play(self.move(game_pb2.MOVE_KIND_DECLARE_WIN, tile or self._win_tile(view)))
        else:
            print(f"unknown command {words[0]!r} (help lists the commands)")
        return True

    def _win_tile(self, view: game_pb2.PlayerViewResponse) -> tile_pb2.Tile | None:
        """A finishing discard LegalMoves offers (an okey first); without one, the tile
        received last, so that the server says why the hand does not finish."""
        wins = [m for m in self.table.legal(self.seat)
                if m.kind == game_pb2.MOVE_KIND_DECLARE_WIN]
        okeys = [m for m in wins if play_policy.is_okey(m.tile, view.okey)]
        if okeys or wins:
            return (okeys or wins)[0].tile
        return view.rack[-1] if view.rack else None


def _header(
    seed: str, view: game_pb2.PlayerViewResponse, painter: render.Painter
) -> list[str]:
    """The deal as the human's seat may know it (from its PlayerView, not from the Deal
    answer, which also holds every rack and the wall)."""
    return [
        f"seed {seed} (play this deal again with --seed {seed})",
        f"classic Okey, {view.player_count} players, dealer seat {view.dealer_seat}, "
        f"seat {view.turn_seat} opens; you play seat {view.seat}; untimed",
        f"indicator {painter.tile(view.indicator)}, okey {painter.tile(view.okey)}",
        "type help for the commands",
    ]


def run_play(args: argparse.Namespace) -> int:
    request = build_deal_request(args)
    address = rpc.server_address(args)
    painter = render.Painter(render.wants_colour(sys.stdout))
    interactive = sys.stdin.isatty()
    if interactive:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401 (line editing for input())
    with rpc.open_channel(address) as channel:
        table = Table(channel, address, args.timeout, args.seat, painter)
        seed = table.deal(request).seed
        print("\n".join(_header(seed, table.view(args.seat), painter)))
        human = Human(table, interactive)
        shown = -1  # the move number the table was last printed at
        bot_turns = 0
        while True:
            view = table.view(args.seat)
            if view.phase == state_pb2.PHASE_ROUND_OVER:
                print("\n".join(play_render.outcome_lines(view.outcome, args.seat, painter)))
                print(play_render.rack_line(view, painter))
                _save_state(args.save_state, table.state)
                return EXIT_OK
            if view.turn_seat != args.seat:
                bot_turns += 1
                if bot_turns > _MAX_BOT_TURNS:
                    raise CliError("the round did not end within the bound", EXIT_SERVER_ERROR)
                table.bot_turn(view.turn_seat)
                continue
            if view.move_number != shown:
                shown = view.move_number
                if view.phase == state_pb2.PHASE_DISCARD:
                    print(play_render.rack_line(view, painter))
                else:
                    print("\n".join(play_render.table_lines(view, args.seat, painter)))
                for notice in play_render.notices(table.legal(args.seat), painter):
                    print(notice)
            line = human.read()
            if line is None or not human.command(line):
                print("quit: the round is left unfinished")
                return EXIT_OK


def _save_state(file: str | None, state: state_pb2.GameState) -> None:
    if file is None:
        return
    try:
        Path(file).write_text(json_format.MessageToJson(state) + "\n")
    except OSError as error:
        raise CliError(f"cannot write the state to {file}: {error}", EXIT_BAD_INPUT) from None
