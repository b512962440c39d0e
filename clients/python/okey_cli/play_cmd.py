"""`okey play`: a classic Okey game in the terminal, every move judged by GameService.

`okey play --game 101` plays Okey 101 instead: play101_cmd.py, which builds on
the Table and Human of this module.

One seat is the human's; the others play by the policy of play_policy.py.
Each round is dealt by DealService/Deal; from then on the CLI only carries the
sealed state (an opaque token) from call to call (ApplyMove, LegalMoves,
PlayerView) and cannot read it: whose turn it is and what it prints come from
the seats' PlayerViews and the events of each move (docs/play.md). The
rounds are untimed: no clock is sent. After each round
ScoringService/ScoreRound scores the finished state against the table so far,
and its answer says who deals the next round (and whether the game is over);
the CLI keeps no score of its own.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
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
    ruleset_pb2,
    scoring_pb2,
    scoring_pb2_grpc,
    state_pb2,
    tile_pb2,
)
from okey_rules.dealing.shuffle import MAX_SEED_BYTES

from okey_cli import deal_cmd, play_policy, play_render, render, rpc, score_cmd, score_render
from okey_cli.errors import EXIT_BAD_INPUT, EXIT_OK, EXIT_SERVER_ERROR, CliError
from okey_cli.play_render import Seats

# The classic presets; Okey 101 is `--game 101` (play101_cmd.py).
PRESETS = score_cmd.SCORING_PRESETS
GAMES = ("classic", "101")
RULE_OPTIONS = {
    "wild_pairs": "may the two okeys pair with each other in seven pairs",
    "kafa": "kafa: one colour 1..13 plus a second 1 wins",
    "runs_13_to_1": "may a run continue 12-13-1",
    "indicator_drawable_last": "is the indicator drawn as the last wall tile",
    "gosterme_in_first_turn": "may gosterme be shown until the end of one's first turn",
    "gosterme_played": "does the table play gosterme at all (off in okey.gg)",
    "must_show_win": "must a winning hand with no okey in it be shown (classic: on)",
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
# Bounds, never reached in a real round: a bot turn is at most gösterme, draw (or take),
# discard (or win); a round has at most ~100 turns (the wall holds at most 77 tiles, and
# once it is empty the round ends with the last discard or the next seat's turn, §8.5).
_MAX_BOT_STEPS = 4
_MAX_BOT_TURNS = 1000
# A bound on a game's rounds (a countdown game of drawn rounds would never end). The
# round number also ends the derived seeds, which must stay within the 256 bytes a seed
# may have.
MAX_ROUNDS = 999
_ROUND_SEED_ROOM = len(f"/round-{MAX_ROUNDS}")
# Table modes that end only by a fixed number of rounds (docs/rules.md §9.2).
_ENDLESS_MODES = (ruleset_pb2.SCORING_MODE_PENALTY, ruleset_pb2.SCORING_MODE_ZERO_SUM)

HELP = """commands (tiles in notation: R7, Y13, B1, K12, F; case does not matter):
  d, draw          draw the next tile of the wall
  t, take          take the top tile of the previous seat's pile (the wall empty:
                   only to finish with it)
  x TILE, discard TILE
                   discard TILE (with two copies in your rack, either one)
  x                discard the tile you received last (the one just drawn or taken)
  w TILE, win TILE finish: discard TILE onto the indicator, show the other 14 tiles
  w, win           finish with a discard LegalMoves offers (an okey first)
  g, gosterme      show the indicator's twin (before your first draw)
  e, end           with the wall empty: decline the last discard, the round is drawn
  ?, moves         list your legal moves (LegalMoves)
  hint             what the bots' policy would play in your place
  s, show          show the table again
  h, help          this text
  q, quit          leave the game (end of input does the same)"""


def build_deal_request(args: argparse.Namespace) -> deal_pb2.DealRequest:
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
    return request


def next_deal_request(
    first: deal_pb2.DealRequest, base_seed: str, scored: scoring_pb2.ScoreRoundResponse
) -> deal_pb2.DealRequest:
    """The next round's deal: the first deal's rules; the seats still in the game; the
    dealer and round number ScoreRound gave; the seed derived from the game's seed."""
    request = deal_pb2.DealRequest()
    request.CopyFrom(first)
    request.player_count = len(seats_in_game(scored))
    request.dealer_seat = scored.next_dealer_seat
    request.round = scored.next_round
    request.seed = round_seed(base_seed, scored.next_round)
    return request


def round_seed(base_seed: str, round_number: int) -> str:
    """Round 1 is dealt from the game's seed itself (so that `--rounds 1 --seed S` deals
    what `okey deal --seed S` deals); round N > 1 from ``SEED/round-N``."""
    return base_seed if round_number <= 1 else f"{base_seed}/round-{round_number}"


def seats_in_game(scored: scoring_pb2.ScoreRoundResponse) -> list[int]:
    """The table's seats still in the game after a round, in order: the next deal's seats."""
    return [seat for seat, out in enumerate(scored.eliminated) if not out]


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
    """The round as this client carries it: the opaque state, who sits where in this
    round's deal, and the calls on it."""

    def __init__(
        self, channel: Any, address: str, timeout: float, seats: Seats, painter: render.Painter
    ) -> None:
        self.game = game_pb2_grpc.GameServiceStub(channel)
        self.deals = deal_pb2_grpc.DealServiceStub(channel)
        self.scoring = scoring_pb2_grpc.ScoringServiceStub(channel)
        self.address = address
        self.timeout = timeout
        self.seats = seats
        self.painter = painter
        self.state = b""  # the sealed state: carried, never opened
        self.status = state_pb2.RoundStatus()  # its public facts, as the last answer gave

    def _call(self, method: Callable[..., Any], request: Any) -> Any:
        return rpc.call(method, request, self.address, self.timeout)

    def deal(self, request: deal_pb2.DealRequest) -> deal_pb2.DealResponse:
        response: deal_pb2.DealResponse = self._call(self.deals.Deal, request)
        # The response also holds every rack and the wall; only the state is kept.
        self.state = response.state
        self.status = response.status
        return response

    def check_scoring(self, deal: deal_pb2.DealRequest) -> ruleset_pb2.Ruleset:
        """The deal's rules as ScoringService reads them, every option set. Asked before
        the first deal by scoring a drawn round at the start of a game (the answer is
        otherwise thrown away), so that rules no table can score (partnership at three
        seats, say) are refused before any round is played."""
        probe = scoring_pb2.ScoreRoundRequest(
            preset=deal.preset, player_count=deal.player_count,
            round=scoring_pb2.RoundInput(result=scoring_pb2.RoundResult(drawn=True)),
        )
        probe.ruleset.CopyFrom(deal.ruleset)
        answer: scoring_pb2.ScoreRoundResponse = self._call(self.scoring.ScoreRound, probe)
        return answer.ruleset

    def score(self, before: scoring_pb2.TableScores | None) -> scoring_pb2.ScoreRoundResponse:
        """The finished round scored from its state against the table before it (None: the
        game's start). The state carries the rules it was dealt under."""
        request = scoring_pb2.ScoreRoundRequest(round=scoring_pb2.RoundInput(state=self.state))
        if before is not None:
            request.table.CopyFrom(before)
        answer: scoring_pb2.ScoreRoundResponse = self._call(self.scoring.ScoreRound, request)
        return answer

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
            self.status = answer.status
            for line in play_render.event_lines(answer.events, self.seats, self.painter):
                print(line)
        return answer

    def bot_turn(self, seat: int) -> None:
        """Plays one whole turn of `seat` by the policy, from its own view and legal moves."""
        name = self.seats.who(seat)
        for _ in range(_MAX_BOT_STEPS):
            move = play_policy.choose_move(self.view(seat), self.legal(seat))
            if move is None:
                raise CliError(
                    f"{name} is on turn but LegalMoves offers it no move", EXIT_SERVER_ERROR
                )
            answer = self.apply(move)
            if not answer.legal:
                what = play_render.move_text(move, self.painter)
                raise CliError(
                    f"the server refused {name}'s move {what}"
                    f" ({reason_name(answer.reason)}): {answer.message}",
                    EXIT_SERVER_ERROR,
                )
            if move.kind in _TURN_ENDERS:
                return
        raise CliError(f"{name} did not end its turn in {_MAX_BOT_STEPS} moves",
                       EXIT_SERVER_ERROR)


def reason_name(reason: int) -> str:
    name = game_pb2.IllegalReason.Name(reason) if reason in game_pb2.IllegalReason.values() \
        else str(reason)
    return name.removeprefix("ILLEGAL_REASON_")


class Human:
    """Reads the human's commands and turns them into moves of its seat."""

    def __init__(self, table: Table, table_seat: int, interactive: bool) -> None:
        self.table = table
        self.table_seat = table_seat  # the seat the human chose; the prompt names it
        self.painter = table.painter
        self.interactive = interactive

    @property
    def seat(self) -> int:
        """The human's seat in this round's deal (only asked while the human is in the game)."""
        seat = self.table.seats.human
        assert seat is not None
        return seat

    def read(self, prompt: str | None = None) -> str | None:
        """One command line, or None at the end of input. Piped input is echoed after the
        prompt, so a transcript reads like a session."""
        try:
            line = input(prompt if prompt is not None else f"seat {self.table_seat}> ")
        except EOFError:
            print()
            return None
        if not self.interactive:
            print(line)
        return line

    def move(self, kind: game_pb2.MoveKind, tile: tile_pb2.Tile | None = None) -> game_pb2.Move:
        move = game_pb2.Move(kind=kind, seat=self.seat)
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
            print("\n".join(play_render.table_lines(view, self.table.seats, self.painter)))
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


def _round_header(
    number: int, seed: str, deal: deal_pb2.DealRequest, view: game_pb2.PlayerViewResponse,
    *, seats: Seats, painter: render.Painter,
) -> list[str]:
    """The deal as the human's seat may know it (from a PlayerView, not from the Deal
    answer, which also holds every rack and the wall)."""
    again = f"--seed {seed}"
    if number > 1:
        again += f" --players {deal.player_count} --dealer {deal.dealer_seat} --rounds 1"
    lines = [f"== round {number}",
             *deal_cmd.deal_kind_lines(view, seed=seed, replay=f" (play this deal again with "
                                                               f"{again})")]
    playing = ("you have left the game: the bots play on" if seats.human is None
               else f"you play seat {seats.number(seats.human)}")
    in_game = ""
    if seats.table != tuple(range(len(seats.table))):  # a seat has left the game
        in_game = f" (table {score_render.seats_text(seats.table)})"
    lines += [
        f"classic Okey, {view.player_count} players{in_game}, dealer seat "
        f"{seats.number(view.dealer_seat)}, {seats.who(view.turn_seat)} "
        f"{'open' if view.turn_seat == seats.human else 'opens'}; {playing}; untimed",
        f"indicator {painter.tile(view.indicator)}, okey {painter.tile(view.okey)}",
    ]
    if number == 1:
        lines.append("type help for the commands")
    return lines


def _game_header(rules: ruleset_pb2.Ruleset, args: argparse.Namespace) -> list[str]:
    lines = [score_render.rules_text(rules)]
    if args.rounds == 1:
        lines.append("one round (--rounds 1): it is scored, and the game stops after it")
    elif args.rounds:
        lines.append(f"at most {args.rounds} rounds (--rounds {args.rounds})")
    elif rules.scoring_mode in _ENDLESS_MODES and not rules.game_rounds:
        lines.append("this table mode has no end of its own without --game-rounds N: "
                     "the game goes on until you quit (q)")
    return lines


def play_round(table: Table, human: Human) -> bool:
    """Plays the dealt round to its end (True) or until the human quits (False). Once the
    human has left the game (elimination) the bots play it alone, and only the public
    events are printed."""
    seats = table.seats
    painter = table.painter
    # Whose PlayerView says where the round stands: the human's, or any seat's once the
    # human has left (only its phase and turn are read then, never its rack).
    looker = seats.human if seats.human is not None else 0
    shown = -1  # the move number the table was last printed at
    bot_turns = 0
    while True:
        view = table.view(looker)
        if view.phase == state_pb2.PHASE_ROUND_OVER:
            print("\n".join(play_render.outcome_lines(view.outcome, seats, painter)))
            if seats.human is not None:
                print(play_render.rack_line(view, painter))
            return True
        if view.turn_seat != seats.human:
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
                print("\n".join(play_render.table_lines(view, seats, painter)))
            for notice in play_render.notices(table.legal(view.seat), painter):
                print(notice)
        line = human.read()
        if line is None or not human.command(line):
            return False


class Game:
    """The game so far: every round's scoring answer and finished state."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.scored: list[scoring_pb2.ScoreRoundResponse] = []
        self.states: list[bytes] = []  # the sealed finished states

    @property
    def table(self) -> scoring_pb2.TableScores | None:
        """The scores before the next round; None at the game's start."""
        return self.scored[-1].table if self.scored else None

    def text(self, going_on: str) -> str:
        last = self.scored[-1]
        return score_render.game_text(self.scored, last.game_over, list(last.winner_seats),
                                      going_on=going_on)

    def as_request(self) -> scoring_pb2.ScoreGameRequest:
        """The game as ScoreGame takes it: the finished states in order (each carries the
        rules, so no preset or ruleset goes with them)."""
        request = scoring_pb2.ScoreGameRequest(player_count=self.players)
        for state in self.states:
            request.rounds.add().state = state
        return request


def run_classic(args: argparse.Namespace) -> int:
    """`okey play` of a classic game (okey_cli.play_main picks the game)."""
    first = build_deal_request(args)
    address = rpc.server_address(args)
    painter = render.Painter(render.wants_colour(sys.stdout))
    interactive = sys.stdin.isatty()
    if interactive:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401 (line editing for input())
    with rpc.open_channel(address) as channel:
        table = Table(channel, address, args.timeout,
                      Seats.whole_table(args.seat, args.players), painter)
        rules = table.check_scoring(first)
        human = Human(table, args.seat, interactive)
        game = Game(args.players)
        request = first
        base_seed = args.seed
        print("\n".join(_game_header(rules, args)))
        for number in range(1, MAX_ROUNDS + 1):
            seed = table.deal(request).seed
            base_seed = base_seed or seed  # the seed the server drew for round 1
            looker = table.seats.human if table.seats.human is not None else 0
            print("\n".join(_round_header(number, seed, request, table.view(looker),
                                          seats=table.seats, painter=painter)))
            if not play_round(table, human):
                print("quit: the round is left unfinished")
                if game.scored:
                    print(game.text(going_on="the game is left unfinished"))
                return EXIT_OK
            scored = table.score(game.table)
            game.scored.append(scored)
            game.states.append(table.state)
            save_state(args.save_state, table.state, table.status)
            save_game(args.save_game, game)
            print("\n".join(round_score_lines(scored)))
            if scored.game_over:
                print("== final table")
                print(game.text(going_on="the game goes on"))
                print(human_result(scored, args.seat))
                return EXIT_OK
            if args.rounds and number >= args.rounds:
                print(f"stopped after {rounds_text(number)} (--rounds {args.rounds}): "
                      "the game is not over")
                return EXIT_OK
            if interactive and not go_on(human, scored.next_round):
                print(game.text(going_on="the game is left unfinished"))
                return EXIT_OK
            request = next_deal_request(first, base_seed, scored)
            in_game = seats_in_game(scored)
            human_seat = in_game.index(args.seat) if args.seat in in_game else None
            table.seats = Seats(human_seat, tuple(in_game))
    raise CliError(f"the game did not end within {MAX_ROUNDS} rounds", EXIT_SERVER_ERROR)


def rounds_text(count: int) -> str:
    return f"{count} round" if count == 1 else f"{count} rounds"


def round_score_lines(scored: scoring_pb2.ScoreRoundResponse) -> list[str]:
    """This round's row of the table (each seat's change and total) and its rule lines."""
    lines = [f"scores after round {scored.table.rounds_played}:",
             score_render.header_row(len(scored.deltas)),
             *score_render.round_rows(scored)]
    if not scored.game_over:
        lines.append(score_render.result_line(False, [], scored.table.rounds_played))
    return lines


def human_result(scored: scoring_pb2.ScoreRoundResponse, seat: int) -> str:
    if seat in scored.winner_seats:
        return f"you (seat {seat}) are among the winners" if len(scored.winner_seats) > 1 \
            else f"you (seat {seat}) win the game"
    return f"you (seat {seat}) did not win"


def go_on(human: Human, next_round: int) -> bool:
    """At a terminal, a pause between rounds so the table can be read."""
    line = human.read(f"Enter deals round {next_round}, q quits: ")
    return line is not None and line.strip().lower() not in ("q", "quit", "exit")


def save_state(file: str | None, state: bytes, status: state_pb2.RoundStatus) -> None:
    """Writes the sealed state as `okey deal reveal`, `okey score round --state` and any
    protobuf JSON reader take a saved answer's: {"state": base64, "status": RoundStatus},
    the status being its public facts (the token itself cannot be read)."""
    if file is None:
        return
    saved = {
        "state": base64.b64encode(state).decode("ascii"),
        "status": json_format.MessageToDict(status, always_print_fields_with_no_presence=True),
    }
    try:
        Path(file).write_text(json.dumps(saved, indent=2, ensure_ascii=False) + "\n")
    except OSError as error:
        raise CliError(f"cannot write the state to {file}: {error}", EXIT_BAD_INPUT) from None


def save_game(file: str | None, game: Game) -> None:
    if file is None:
        return
    try:
        Path(file).write_text(json_format.MessageToJson(game.as_request()) + "\n")
    except OSError as error:
        raise CliError(f"cannot write the game to {file}: {error}", EXIT_BAD_INPUT) from None
