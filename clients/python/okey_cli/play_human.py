"""The human's seat in `okey play`: reads command lines and turns them into moves.

The commands both games have (quit, help, show, moves, hint, draw, take, discard)
are read here; the others are the game's (GamePlay.command).
"""

from __future__ import annotations

import re

from okey.v1 import game_pb2, tile_pb2

from okey_cli.analyze_cmd import hint_line
from okey_cli.errors import EXIT_BAD_INPUT, CliError
from okey_cli.play_table import Table, reason_name

_COLOURS = {
    "R": tile_pb2.COLOR_RED,
    "Y": tile_pb2.COLOR_YELLOW,
    "B": tile_pb2.COLOR_BLUE,
    "K": tile_pb2.COLOR_BLACK,
}
_TILE = re.compile(r"([RYBK])(1[0-3]|[1-9])|F", re.IGNORECASE)
# Commands both games read the same way: the move they send.
_SIMPLE_MOVES = {
    "d": game_pb2.MOVE_KIND_DRAW_FROM_WALL, "draw": game_pb2.MOVE_KIND_DRAW_FROM_WALL,
    "t": game_pb2.MOVE_KIND_TAKE_DISCARD, "take": game_pb2.MOVE_KIND_TAKE_DISCARD,
}


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


# The bot a hint asks (AnalysisService.SuggestMove): the strongest.
HINT_LEVEL = 3

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

    def hint(self) -> None:
        """The strongest bot's move in the seat's place and why (SuggestMove), then how far
        the rack is from a win or from opening (AnalyzeHand), from the seat's view."""
        advice = self.table.suggest(self.seat, HINT_LEVEL)
        if advice.HasField("move"):
            shown = self.table.play.move_text(advice.move, self.painter)
            print(f"hint: {shown} ({advice.reason})")
        else:
            print(f"hint: none ({advice.reason})")
        print(hint_line(self.table.analyze(self.seat), self.painter))

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
        tile = self.table.play.named_tile(words[1], view)
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
        game = self.table.play
        if word in ("q", "quit", "exit"):
            return False
        if word in _SIMPLE_MOVES:
            self.play(self.move(_SIMPLE_MOVES[word]))
        elif word in ("h", "help"):
            print(game.help)
        elif word in ("s", "show"):
            print("\n".join(game.table_lines(view, self.table.seats, self.painter)))
        elif word in ("?", "moves"):
            legal = self.table.legal(self.seat)
            print("\n".join(game.moves_lines(legal, view, self.painter)))
        elif word == "hint":
            self.hint()
        elif word in ("x", "discard"):
            ok, tile = self.tile_arg(words, view)
            if ok:
                # No tile named: the one received last (the end of the rack in received order).
                chosen = tile if tile is not None else (view.rack[-1] if view.rack else None)
                self.play(self.move(game_pb2.MOVE_KIND_DISCARD, chosen))
        elif not game.command(self, word, words, view):
            print(f"unknown command {words[0]!r} (help lists the commands)")
        return True
