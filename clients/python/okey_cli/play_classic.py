"""Classic Okey as `okey play` plays it (the default game): its GamePlay.

The bots play the policy of play_policy.py; the table, events and outcome are
printed by play_render.py.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from okey.v1 import deal_pb2, game_pb2, ruleset_pb2, state_pb2, tile_pb2

from okey_cli import play_policy, play_render, render, score_render
from okey_cli.errors import EXIT_BAD_INPUT, CliError
from okey_cli.play_human import Human, parse_tile
from okey_cli.play_options import OPTIONS_101, option_name
from okey_cli.play_seats import Seats
from okey_cli.play_table import Table

# Table modes that end only by a fixed number of rounds (docs/rules.md §9.2).
_ENDLESS_MODES = (ruleset_pb2.SCORING_MODE_PENALTY, ruleset_pb2.SCORING_MODE_ZERO_SUM)
# Commands of classic Okey alone: the move they send (a tile, if any, follows).
_MOVES = {
    "g": game_pb2.MOVE_KIND_GOSTERME, "gosterme": game_pb2.MOVE_KIND_GOSTERME,
    "gösterme": game_pb2.MOVE_KIND_GOSTERME,
    "e": game_pb2.MOVE_KIND_END_ROUND, "end": game_pb2.MOVE_KIND_END_ROUND,
}

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


class ClassicPlay:
    """Classic Okey: 2-4 players, any classic preset, seats may leave the game."""

    title = "classic Okey"
    help = HELP
    game_options: tuple[str, ...] = ()
    players: int | None = None
    # A bot turn is at most gösterme, draw (or take), discard (or win); a round has at
    # most ~100 turns (the wall holds at most 77 tiles, and once it is empty the round
    # ends with the last discard or the next seat's turn, §8.5).
    max_bot_steps = 4
    max_bot_turns = 1000

    def refuse_options(self, args: argparse.Namespace) -> None:
        """An Okey 101 option: bad input, not silently dropped."""
        for name in OPTIONS_101:
            if getattr(args, name) is not None:
                raise CliError(f"invalid input: {option_name(name)} is an option of "
                               "Okey 101 (--game 101)", EXIT_BAD_INPUT)

    def set_deal_defaults(self, request: deal_pb2.DealRequest, args: argparse.Namespace) -> None:
        """The preset and options given are all there is."""

    def rules_before_deal(
        self, table: Table, first: deal_pb2.DealRequest
    ) -> ruleset_pb2.Ruleset | None:
        return table.check_scoring(first)

    def game_header(self, rules: ruleset_pb2.Ruleset, args: argparse.Namespace) -> list[str]:
        lines = [score_render.rules_text(rules)]
        if args.rounds == 1:
            lines.append("one round (--rounds 1): it is scored, and the game stops after it")
        elif args.rounds:
            lines.append(f"at most {args.rounds} rounds (--rounds {args.rounds})")
        elif rules.scoring_mode in _ENDLESS_MODES and not rules.game_rounds:
            lines.append("this table mode has no end of its own without --game-rounds N: "
                         "the game goes on until you quit (q)")
        return lines

    def round_line(self, view: game_pb2.PlayerViewResponse, seats: Seats) -> str:
        playing = ("you have left the game: the bots play on" if seats.human is None
                   else f"you play seat {seats.number(seats.human)}")
        in_game = ""
        if seats.table != tuple(range(len(seats.table))):  # a seat has left the game
            in_game = f" (table {score_render.seats_text(seats.table)})"
        return (f"classic Okey, {view.player_count} players{in_game}, dealer seat "
                f"{seats.number(view.dealer_seat)}, {seats.who(view.turn_seat)} "
                f"{'open' if view.turn_seat == seats.human else 'opens'}; {playing}; untimed")

    def turn_lines(
        self, table: Table, view: game_pb2.PlayerViewResponse,
        first: bool,  # noqa: ARG002 (the phase alone says what is shown)
    ) -> list[str]:
        """The rack alone once a tile is in hand, else the table; then what the legal
        moves offer that is easy to miss."""
        if view.phase == state_pb2.PHASE_DISCARD:
            lines = [play_render.rack_line(view, table.painter)]
        else:
            lines = play_render.table_lines(view, table.seats, table.painter)
        return lines + play_render.notices(table.legal(view.seat), table.painter)

    def round_end_lines(
        self, view: game_pb2.PlayerViewResponse, seats: Seats, painter: render.Painter
    ) -> list[str]:
        lines = play_render.outcome_lines(view.outcome, seats, painter)
        if seats.human is not None:
            lines.append(play_render.rack_line(view, painter))
        return lines

    def event_lines(self, table: Table, events: Sequence[game_pb2.Event]) -> list[str]:
        return play_render.event_lines(events, table.seats, table.painter)

    def table_lines(
        self, view: game_pb2.PlayerViewResponse, seats: Seats, painter: render.Painter
    ) -> list[str]:
        return play_render.table_lines(view, seats, painter)

    def moves_lines(
        self, legal: Sequence[game_pb2.Move], view: game_pb2.PlayerViewResponse,
        painter: render.Painter,
    ) -> list[str]:
        del view  # classic's list needs the moves alone
        return play_render.moves_lines(legal, painter)

    def move_text(self, move: game_pb2.Move, painter: render.Painter) -> str:
        return play_render.move_text(move, painter)

    def policy_move(self, table: Table, seat: int) -> game_pb2.Move | None:
        return play_policy.choose_move(table.view(seat), table.legal(seat))

    def named_tile(self, word: str, view: game_pb2.PlayerViewResponse) -> tile_pb2.Tile | None:
        del view  # no tile of classic is named by the view (Okey 101's OK is)
        return parse_tile(word)

    def command(
        self, human: Human, word: str, words: list[str], view: game_pb2.PlayerViewResponse
    ) -> bool:
        if word in _MOVES:
            human.play(human.move(_MOVES[word]))
        elif word in ("w", "win"):
            ok, tile = human.tile_arg(words, view)
            if ok:
                chosen = tile or _win_tile(human, view)
                human.play(human.move(game_pb2.MOVE_KIND_DECLARE_WIN, chosen))
        else:
            return False
        return True


def _win_tile(human: Human, view: game_pb2.PlayerViewResponse) -> tile_pb2.Tile | None:
    """A finishing discard LegalMoves offers (an okey first); without one, the tile
    received last, so that the server says why the hand does not finish."""
    wins = [m for m in human.table.legal(human.seat)
            if m.kind == game_pb2.MOVE_KIND_DECLARE_WIN]
    okeys = [m for m in wins if play_policy.is_okey(m.tile, view.okey)]
    if okeys or wins:
        return (okeys or wins)[0].tile
    return view.rack[-1] if view.rack else None


CLASSIC = ClassicPlay()
