"""Okey 101 as `okey play --game 101` plays it: its GamePlay.

Rounds are dealt with the preset "101"; what the CLI prints comes from the human
seat's PlayerView, the events of each move and BestOpening answers about its own
rack. A void round is dealt again. Okey 101 games end only after `game_rounds`
rounds: the CLI asks for 3 unless --game-rounds says otherwise. The other seats
play the policy of play_policy101.py; play_render101.py prints the table.
docs/play.md, "Okey 101".
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from okey.v1 import deal_pb2, game_pb2, ruleset_pb2, state_pb2, tile_pb2
from okey_rules.dealing.deal import OKEY_101_PLAYERS as PLAYERS

from okey_cli import hand_cmd, play_policy101, play_render101, render, score_render
from okey_cli.errors import EXIT_BAD_INPUT, CliError
from okey_cli.play_human import Human, parse_tile
from okey_cli.play_options import CLASSIC_ONLY, OPTIONS_101, option_name
from okey_cli.play_seats import Seats
from okey_cli.play_table import Table

PRESET = "101"
# Okey 101 games end only by a number of rounds (docs/rules.md §10.7); the preset sets
# none, so the CLI plays this many unless --game-rounds is given.
DEFAULT_GAME_ROUNDS = 3
_LAYING_EVENTS = (game_pb2.EVENT_KIND_OPENED, game_pb2.EVENT_KIND_LAID_MELD,
                  game_pb2.EVENT_KIND_LAID_OFF)
# Commands of Okey 101 alone that send a move with nothing more.
_MOVES = {
    "r": game_pb2.MOVE_KIND_RETURN_DISCARD, "return": game_pb2.MOVE_KIND_RETURN_DISCARD,
    "back": game_pb2.MOVE_KIND_TAKE_BACK,
}

HELP = """commands (tiles in notation: R7, Y13, B1, K12, F; OK names an okey; case does not matter):
  d, draw          draw the next tile of the bank
  t, take          take the top tile of the previous seat's pile (it must be laid this turn)
  r, return        give the taken discard back and draw from the bank instead
  open MELD | MELD | ...
                   open with sets and runs worth 101 or more, e.g.
                   open R10 R11 R12 R13 | Y10 Y11 Y12 Y13 | B4 Y4 K4
                   an okey as K1=R6 (the okey K1 stands for R6), or bare to let the server choose
  open pairs PAIR | PAIR | ...
                   open with five pairs or more, e.g. open pairs R1 R1 | Y2 Y2 | ...
  open best, open pairs best
                   open with what best shows (if it reaches the mark)
  meld MELD | ...  after opening: lay new melds (a pairs-opener: pairs); meld best: best's melds
  layoff TILE N [=FACE]
                   lay TILE off onto table meld N (an okey: =FACE says what it stands for)
  back             take back the last laying move of this turn (one tile a turn is free)
  x TILE, discard TILE
                   discard TILE, ending the turn; x alone: the tile you received last
  best             the best opening of your rack (HandService.BestOpening): a hint
  hint             what the bots' policy would play in your place
  auto             let the bots' policy play the rest of your turn
  ?, moves         your legal moves (LegalMoves lists no openings or new melds)
  s, show          show the table again
  h, help          this text
  q, quit          leave the game (end of input does the same)"""


def parse_face(word: str) -> tile_pb2.Tile | None:
    """A numbered face (R7, K13), what an okey may stand for; None if `word` is not one."""
    tile = parse_tile(word)
    return None if tile is None or tile.false_joker else tile


def parse_named(word: str, okey: tile_pb2.Tile) -> tile_pb2.Tile | None:
    """A tile named in a command: notation, or OK for an okey."""
    if word.upper() == "OK":
        return tile_pb2.Tile(color=okey.color, number=okey.number)
    return parse_tile(word)


class Picker:
    """Hands out the rack's copies of the faces a command names, each copy once (the copy
    received last first); a face the rack lacks gets a copy it does not hold, so that the
    server answers TILE_NOT_IN_RACK."""

    def __init__(self, rack: Sequence[tile_pb2.Tile]) -> None:
        self.free = list(rack)
        self.missing: dict[tuple[int, int, bool], int] = {}

    def take(self, wanted: tile_pb2.Tile) -> tile_pb2.Tile:
        face = play_policy101.face_key(wanted)
        for index in range(len(self.free) - 1, -1, -1):
            if play_policy101.face_key(self.free[index]) == face:
                held = self.free.pop(index)
                return tile_pb2.Tile(color=held.color, number=held.number,
                                     false_joker=held.false_joker, copy=held.copy)
        copy = self.missing.get(face, 0)
        self.missing[face] = copy + 1
        return tile_pb2.Tile(color=wanted.color, number=wanted.number,
                             false_joker=wanted.false_joker, copy=min(copy, 1))


def parse_melds(
    words: Sequence[str], view: game_pb2.PlayerViewResponse
) -> list[game_pb2.MeldPlay] | str:
    """Melds separated by `|`, each tile as notation or OK, an okey optionally with
    `=FACE`; the rack's copies. A string says what is wrong."""
    text = " ".join(words).replace("|", " | ")
    groups = [group.split() for group in text.split("|")]
    if not any(groups):
        return "name the melds, e.g. R10 R11 R12 | B4 Y4 K4"
    if not all(groups):
        return "an empty meld: melds are separated by a single |"
    picker = Picker(view.rack)
    melds = []
    for group in groups:
        meld = game_pb2.MeldPlay()
        for word in group:
            name, _, stands = word.partition("=")
            tile = parse_named(name, view.okey)
            if tile is None:
                return f"not a tile: {name!r} (write R7, Y13, B1, K12, F or OK)"
            laid = meld.tiles.add()
            laid.tile.CopyFrom(picker.take(tile))
            if stands:
                face = parse_face(stands)
                if face is None:
                    return f"not a face an okey may stand for: {stands!r} (write R6, K13)"
                laid.stands_for.CopyFrom(face)
        melds.append(meld)
    return melds


class Okey101Play:
    """Okey 101: four players, the 101 preset, nobody leaves the game."""

    title = "Okey 101"
    help = HELP
    game_options: tuple[str, ...] = ("--game", "101")
    players: int | None = PLAYERS
    # A bot's turn lays at most its 22 tiles one move at a time; the bank holds 20 tiles,
    # so a round has about 21 turns.
    max_bot_steps = 60
    max_bot_turns = 500

    def refuse_options(self, args: argparse.Namespace) -> None:
        for name in CLASSIC_ONLY:
            if getattr(args, name) not in (None, ""):
                raise CliError(f"invalid input: {option_name(name)} is not an option of "
                               "Okey 101 (--game 101 plays the 101 preset)", EXIT_BAD_INPUT)

    def set_deal_defaults(self, request: deal_pb2.DealRequest, args: argparse.Namespace) -> None:
        """The 101 preset, its options given, and the CLI's number of rounds."""
        request.preset = PRESET
        for name in OPTIONS_101:
            value = getattr(args, name)
            if value is not None:
                setattr(request.ruleset, name, value)
        if args.game_rounds is None:
            request.ruleset.game_rounds = DEFAULT_GAME_ROUNDS

    def rules_before_deal(
        self, table: Table, first: deal_pb2.DealRequest,  # noqa: ARG002 (asks nothing)
    ) -> ruleset_pb2.Ruleset | None:
        return None  # the first deal's view shows them

    def game_header(self, rules: ruleset_pb2.Ruleset, args: argparse.Namespace) -> list[str]:
        lines = [score_render.rules_text(rules)]
        if args.game_rounds is None:
            lines.append(f"{DEFAULT_GAME_ROUNDS} rounds (the CLI's default for Okey 101; "
                         "--game-rounds N for another number)")
        elif not rules.game_rounds:
            lines.append("--game-rounds 0: the game has no end of its own: it goes on until "
                         "you quit (q)")
        if args.rounds:
            lines.append(f"at most {args.rounds} rounds (--rounds {args.rounds})")
        return lines

    def round_line(self, view: game_pb2.PlayerViewResponse, seats: Seats) -> str:
        dealer = view.dealer_seat
        opens = "you open" if dealer == seats.human else f"seat {dealer} opens"
        return (f"Okey 101, {PLAYERS} players, dealer seat {dealer}: {opens} by discarding; "
                f"you play seat {seats.human}")

    def turn_lines(
        self, table: Table, view: game_pb2.PlayerViewResponse, first: bool
    ) -> list[str]:
        """The whole table when the turn begins; the human's own side after each of its
        laying moves."""
        if view.phase == state_pb2.PHASE_DISCARD and not first:
            return play_render101.own_lines(view, table.painter)
        return play_render101.table_lines(view, table.seats, table.painter)

    def round_end_lines(
        self, view: game_pb2.PlayerViewResponse, seats: Seats, painter: render.Painter
    ) -> list[str]:
        lines = play_render101.outcome_lines(view, seats, painter)
        return [*lines, play_render101.own_lines(view, painter)[0]]

    def event_lines(self, table: Table, events: Sequence[game_pb2.Event]) -> list[str]:
        """The events, a laying move with the melds it made as the human's view shows them."""
        after = None
        if any(e.kind in _LAYING_EVENTS for e in events):
            assert table.seats.human is not None  # nobody leaves an Okey 101 game
            after = table.view(table.seats.human)
        return play_render101.event_lines(events, table.seats, table.painter, after)

    def table_lines(
        self, view: game_pb2.PlayerViewResponse, seats: Seats, painter: render.Painter
    ) -> list[str]:
        return play_render101.table_lines(view, seats, painter)

    def moves_lines(
        self, legal: Sequence[game_pb2.Move], view: game_pb2.PlayerViewResponse,
        painter: render.Painter,
    ) -> list[str]:
        lines = play_render101.moves_lines(legal, painter)
        if view.phase == state_pb2.PHASE_DISCARD:
            lines.append("openings and new melds are not listed (too many): "
                         "best shows the best of your rack")
        return lines

    def move_text(self, move: game_pb2.Move, painter: render.Painter) -> str:
        return play_render101.move_text(move, painter)

    def policy_move(self, table: Table, seat: int) -> game_pb2.Move | None:
        view = table.view(seat)
        return play_policy101.choose_move(
            view, table.legal(seat), lambda tiles: table.best_opening(tiles, view)
        )

    def named_tile(self, word: str, view: game_pb2.PlayerViewResponse) -> tile_pb2.Tile | None:
        return parse_named(word, view.okey)

    def command(
        self, human: Human, word: str, words: list[str], view: game_pb2.PlayerViewResponse
    ) -> bool:
        if word in _MOVES:
            human.play(human.move(_MOVES[word]))
        elif word == "best":
            print(hand_cmd.opening_text(human.table.best_opening(view.rack, view),
                                        human.painter))
        elif word == "auto":
            human.table.bot_turn(human.seat)
        elif word in ("open", "meld"):
            _lay(human, word, words[1:], view)
        elif word == "layoff":
            _lay_off(human, words[1:], view)
        else:
            return False
        return True


def _lay(human: Human, word: str, args: list[str], view: game_pb2.PlayerViewResponse) -> None:
    kind = game_pb2.MOVE_KIND_OPEN if word == "open" else game_pb2.MOVE_KIND_LAY_MELD
    pairs = bool(args) and args[0].lower() == "pairs"
    if pairs:
        if kind != game_pb2.MOVE_KIND_OPEN:
            print("meld lays pairs by itself once you opened with pairs: meld R1 R1 | Y2 Y2")
            return
        args = args[1:]
    if [a.lower() for a in args] == ["best"]:
        move = _best_move(human, kind, pairs, view)
        if move is not None:
            human.play(move)
        return
    melds = parse_melds(args, view)
    if isinstance(melds, str):
        print(melds)
        return
    move = human.move(kind)
    move.pairs = pairs
    move.melds.extend(melds)
    human.play(move)


def _best_move(
    human: Human, kind: game_pb2.MoveKind, pairs: bool, view: game_pb2.PlayerViewResponse
) -> game_pb2.Move | None:
    """`open best` / `meld best`: BestOpening's melds (or pairs) as the move, when they
    are there (an opening only when BestOpening says they reach the mark)."""
    answer = human.table.best_opening(view.rack, view)
    by_pairs = pairs or (kind == game_pb2.MOVE_KIND_LAY_MELD
                         and play_policy101.opened(view) == game_pb2.OPENED_PAIRS)
    found = answer.pairs.arrangement if by_pairs else answer.arrangement
    reaches = answer.pairs.opens if by_pairs else answer.opens
    if not found.melds:
        print("best: nothing to lay")
        return None
    if kind == game_pb2.MOVE_KIND_OPEN and not reaches:
        short = f"{answer.pairs.count} pairs" if by_pairs else f"{answer.value} points"
        print(f"best: {short} do not open: not sent (type the melds to try anyway)")
        return None
    melds = [list(meld.tiles) for meld in found.melds]
    move = play_policy101.melds_move(kind, human.seat, melds, view.rack, pairs=pairs)
    assert move is not None  # BestOpening's tiles are the rack's
    return move


def _lay_off(human: Human, args: list[str], view: game_pb2.PlayerViewResponse) -> None:
    """`layoff TILE N [=FACE]` (also `layoff TILE=FACE N`)."""
    words = list(args)
    face_word = ""
    if words and words[-1].startswith("="):
        face_word = words.pop()[1:]
    if len(words) != 2 or not words[1].isdigit():
        print("layoff TILE N [=FACE], e.g. layoff R9 2 (N: the meld's number on the table)")
        return
    name, _, stands = words[0].partition("=")
    face_word = face_word or stands
    tile = parse_named(name, view.okey)
    if tile is None:
        print(f"not a tile: {name!r} (write R7, Y13, B1, K12, F or OK)")
        return
    move = human.move(game_pb2.MOVE_KIND_LAY_OFF, Picker(view.rack).take(tile))
    move.meld = int(words[1])
    if face_word:
        face = parse_face(face_word)
        if face is None:
            print(f"not a face an okey may stand for: {face_word!r} (write R6, K13)")
            return
        move.stands_for.CopyFrom(face)
    human.play(move)


OKEY_101 = Okey101Play()
