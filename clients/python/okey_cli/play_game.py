"""What `okey play`'s one game loop asks of a game: the `GamePlay` interface.

Classic Okey (okey_cli.play_classic) and Okey 101 (okey_cli.play_101) each implement
it once; okey_cli.play_main looks the game up by --game, and from then on the loop
(okey_cli.play_loop), the table (play_table) and the human's seat (play_human) ask
the game object only, never which game it is.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from okey.v1 import deal_pb2, game_pb2, ruleset_pb2, tile_pb2

from okey_cli import render
from okey_cli.play_seats import Seats

if TYPE_CHECKING:
    from okey_cli.play_human import Human
    from okey_cli.play_table import Table


class GamePlay(Protocol):
    """One game as `okey play` plays it: its options, headers, views, bots and commands."""

    # The game's name in messages ("Okey 101").
    title: str
    # The human's commands, as `help` prints them.
    help: str
    # The options that choose this game on `okey play`'s command line (none for classic):
    # the round header's "play this deal again with ..." starts with them.
    game_options: tuple[str, ...]
    # The game's fixed number of players; None when --players chooses.
    players: int | None
    # Bounds, never reached in a real round: moves in one bot turn, bot turns in a round.
    max_bot_steps: int
    max_bot_turns: int

    def refuse_options(self, args: argparse.Namespace) -> None:
        """Raises CliError for an option given on the command line the game does not take."""

    def set_deal_defaults(self, request: deal_pb2.DealRequest, args: argparse.Namespace) -> None:
        """Round 1's deal request, once the options both games take are in: the game's own."""

    def rules_before_deal(
        self, table: Table, first: deal_pb2.DealRequest
    ) -> ruleset_pb2.Ruleset | None:
        """The rules the game header shows, when asked before the first deal; None: the
        first deal's view shows them."""

    def game_header(self, rules: ruleset_pb2.Ruleset, args: argparse.Namespace) -> list[str]:
        """The lines printed once before the first round."""

    def round_line(self, view: game_pb2.PlayerViewResponse, seats: Seats) -> str:
        """The round header's line saying the game, the seats, who opens and the human's."""

    def turn_lines(
        self, table: Table, view: game_pb2.PlayerViewResponse, first: bool
    ) -> list[str]:
        """What the human sees when its turn has moved on (`first`: the round's first time)."""

    def round_end_lines(
        self, view: game_pb2.PlayerViewResponse, seats: Seats, painter: render.Painter
    ) -> list[str]:
        """The round's outcome as the looking seat sees it once the round is over."""

    def event_lines(
        self, table: Table, events: Sequence[game_pb2.Event]
    ) -> list[str]:
        """A legal move's events as the human's seat may see them."""

    def table_lines(
        self, view: game_pb2.PlayerViewResponse, seats: Seats, painter: render.Painter
    ) -> list[str]:
        """The whole table as the human's seat sees it (`show`)."""

    def moves_lines(
        self, legal: Sequence[game_pb2.Move], view: game_pb2.PlayerViewResponse,
        painter: render.Painter,
    ) -> list[str]:
        """The human's legal moves as commands (`moves`)."""

    def move_text(self, move: game_pb2.Move, painter: render.Painter) -> str:
        """A move as the command that makes it."""

    def policy_move(self, table: Table, seat: int) -> game_pb2.Move | None:
        """The bots' next move for `seat`, from its own view; None when it has none."""

    def named_tile(self, word: str, view: game_pb2.PlayerViewResponse) -> tile_pb2.Tile | None:
        """The tile a command names (any copy); None when `word` names none."""

    def command(
        self, human: Human, word: str, words: list[str], view: game_pb2.PlayerViewResponse
    ) -> bool:
        """Carries out a command only this game has; False when `word` is none of them."""
