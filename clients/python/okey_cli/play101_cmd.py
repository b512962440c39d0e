"""`okey play --game 101`: an Okey 101 game in the terminal, every move judged by the server.

Each round is dealt by DealService/Deal with the preset "101"; from then on the
CLI carries the sealed state (an opaque token) from call to call (GameService
ApplyMove, LegalMoves, PlayerView) without reading it, and what it prints comes from the
human seat's PlayerView, the events of each move and BestOpening answers about
its own rack. A finished round is scored by ScoringService/ScoreRound from its
state; the answer names the next dealer and round (a void round is dealt
again). Okey 101 games end only after `game_rounds` rounds: the CLI asks for
3 unless --game-rounds says otherwise. The other seats play the policy of
play_policy101.py. docs/play.md, "Okey 101".
"""

from __future__ import annotations

import argparse
import contextlib
import re
import sys
from collections.abc import Sequence

from okey.v1 import (
    deal_pb2,
    game_pb2,
    hand_pb2,
    hand_pb2_grpc,
    ruleset_pb2,
    scoring_pb2,
    state_pb2,
    tile_pb2,
)
from okey_rules.dealing.deal import OKEY_101_PLAYERS as PLAYERS

from okey_cli import (
    deal_cmd,
    hand_cmd,
    play_cmd,
    play_policy101,
    play_render101,
    render,
    rpc,
    score_render,
)
from okey_cli.errors import EXIT_BAD_INPUT, EXIT_OK, EXIT_SERVER_ERROR, CliError
from okey_cli.play_render import Seats

PRESET = "101"
# Okey 101 games end only by a number of rounds (docs/rules.md §10.7); the preset sets
# none, so the CLI plays this many unless --game-rounds is given.
DEFAULT_GAME_ROUNDS = 3
# The Okey 101 options of the Ruleset `okey play --game 101` offers (docs/rules.md §10.7,
# §10.8), each unset unless given so that the preset decides.
OPTIONS_101 = {
    "exhaustion_scores_tiles": "an exhausted bank scores the racks (default on)",
    "progressive_opening": "each later opening must beat the best so far",
    "riziko": "a false joker turned up at the deal doubles the round's costs",
    "okey_retrieval": "the tile a table okey stands for may take its place",
    "lay_off_cap": "at most two lay-offs onto each end of a meld per turn",
    "partnership_waiver": "with --partnership: the finisher's partner pays nothing",
}
# Options of `okey play` that only classic Okey has: refused with --game 101.
CLASSIC_ONLY = ("preset", "kafa", "gosterme_in_first_turn", "mode", "start", "target",
                "elimination", "winners", "combine", "colour_double", "gosterme_scores",
                "gosterme_played", "must_show_win")
# Bounds, never reached in a real round: a bot's turn lays at most its 22 tiles one move
# at a time; the bank holds 20 tiles, so a round has about 21 turns.
_MAX_BOT_STEPS = 60
_MAX_TURNS = 500
_LAYING_EVENTS = (game_pb2.EVENT_KIND_OPENED, game_pb2.EVENT_KIND_LAID_MELD,
                  game_pb2.EVENT_KIND_LAID_OFF)
_COLOURS = {"R": tile_pb2.COLOR_RED, "Y": tile_pb2.COLOR_YELLOW, "B": tile_pb2.COLOR_BLUE,
            "K": tile_pb2.COLOR_BLACK}
_FACE = re.compile(r"([RYBK])(1[0-3]|[1-9])", re.IGNORECASE)

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


def add_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("Okey 101 options (--game 101; default: the preset's)")
    for name, meaning in OPTIONS_101.items():
        group.add_argument(f"--{name.replace('_', '-')}", action=argparse.BooleanOptionalAction,
                           default=None, help=meaning)


def refuse_101_options(args: argparse.Namespace) -> None:
    """A classic game given an Okey 101 option: bad input, not silently dropped."""
    for name in OPTIONS_101:
        if getattr(args, name) is not None:
            raise CliError(f"invalid input: --{name.replace('_', '-')} is an option of "
                           "Okey 101 (--game 101)", EXIT_BAD_INPUT)


def build_deal_request(args: argparse.Namespace) -> deal_pb2.DealRequest:
    """Round 1's deal: the 101 preset, four players, the options given."""
    for name in CLASSIC_ONLY:
        if getattr(args, name) not in (None, ""):
            raise CliError(f"invalid input: --{name.replace('_', '-')} is not an option of "
                           "Okey 101 (--game 101 plays the 101 preset)", EXIT_BAD_INPUT)
    if args.players != PLAYERS:
        raise CliError(f"invalid input: --players: Okey 101 is played by {PLAYERS}",
                       EXIT_BAD_INPUT)
    request = play_cmd.build_deal_request(args)
    request.preset = PRESET
    for name in OPTIONS_101:
        value = getattr(args, name)
        if value is not None:
            setattr(request.ruleset, name, value)
    if args.game_rounds is None:
        request.ruleset.game_rounds = DEFAULT_GAME_ROUNDS
    return request


def parse_face(word: str) -> tile_pb2.Tile | None:
    """A numbered face (R7, K13), what an okey may stand for; None if `word` is not one."""
    match = _FACE.fullmatch(word)
    if match is None:
        return None
    return tile_pb2.Tile(color=_COLOURS[match.group(1).upper()], number=int(match.group(2)))


def parse_named(word: str, okey: tile_pb2.Tile) -> tile_pb2.Tile | None:
    """A tile named in a command: notation, or OK for an okey."""
    if word.upper() == "OK":
        return tile_pb2.Tile(color=okey.color, number=okey.number)
    return play_cmd.parse_tile(word)


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


class Table101(play_cmd.Table):
    """An Okey 101 round as the client carries it; also asks BestOpening."""

    def __init__(self, channel: object, address: str, timeout: float, seats: Seats,
                 painter: render.Painter) -> None:
        super().__init__(channel, address, timeout, seats, painter)
        self.hands = hand_pb2_grpc.HandServiceStub(channel)
        self._openings: dict[tuple[object, ...], hand_pb2.BestOpeningResponse] = {}

    def best_opening(
        self, tiles: Sequence[tile_pb2.Tile], view: game_pb2.PlayerViewResponse
    ) -> hand_pb2.BestOpeningResponse:
        """BestOpening for some of the viewer's tiles under the round's rules (kept per
        rack for the round: a bot asks about the same rack at several steps)."""
        # The round's public names (a void round dealt again has another seed, so another
        # id) and the indicator tell the rounds apart.
        deal_name = (view.seeded_deal_id, view.commitment, view.round,
                     play_policy101.face_key(view.indicator))
        key = (deal_name, tuple(sorted(play_policy101.face_key(t) for t in tiles)))
        if key not in self._openings:
            request = hand_pb2.BestOpeningRequest(indicator=view.indicator)
            request.hand.tiles.extend(tiles)
            request.ruleset.CopyFrom(view.ruleset)
            self._openings[key] = self._call(self.hands.BestOpening, request)
        return self._openings[key]

    def apply(self, move: game_pb2.Move) -> game_pb2.ApplyMoveResponse:
        """Applies `move`; when legal, keeps the new state and prints the events as the
        human's seat sees them (a laying move with the melds it made)."""
        answer: game_pb2.ApplyMoveResponse = self._call(
            self.game.ApplyMove, game_pb2.ApplyMoveRequest(state=self.state, move=move)
        )
        if answer.legal:
            self.state = answer.state
            self.status = answer.status
            after = None
            if any(e.kind in _LAYING_EVENTS for e in answer.events):
                assert self.seats.human is not None
                after = self.view(self.seats.human)
            for line in play_render101.event_lines(answer.events, self.seats, self.painter,
                                                   after):
                print(line)
        return answer

    def policy_move(self, seat: int) -> game_pb2.Move | None:
        view = self.view(seat)
        return play_policy101.choose_move(
            view, self.legal(seat), lambda tiles: self.best_opening(tiles, view)
        )

    def bot_turn(self, seat: int) -> None:
        """Plays the rest of `seat`'s turn by the policy, from its own view and moves."""
        name = self.seats.who(seat)
        for _ in range(_MAX_BOT_STEPS):
            move = self.policy_move(seat)
            if move is None:
                raise CliError(f"{name} is on turn but LegalMoves offers it no move",
                               EXIT_SERVER_ERROR)
            answer = self.apply(move)
            if not answer.legal:
                what = play_render101.move_text(move, self.painter)
                raise CliError(
                    f"the server refused {name}'s move {what}"
                    f" ({play_cmd.reason_name(answer.reason)}): {answer.message}",
                    EXIT_SERVER_ERROR,
                )
            # A discard ends the turn; an opening may end the round (void, §10.2).
            if (move.kind == game_pb2.MOVE_KIND_DISCARD
                    or answer.status.phase == state_pb2.PHASE_ROUND_OVER):
                return
        raise CliError(f"{name} did not end its turn in {_MAX_BOT_STEPS} moves",
                       EXIT_SERVER_ERROR)


class Human101(play_cmd.Human):
    """Reads the human's Okey 101 commands and turns them into moves of its seat."""

    table: Table101

    def command(self, line: str) -> bool:
        """Carries out one command line; False when the human quits."""
        words = line.split()
        if not words:
            return True
        word = words[0].lower()
        view = self.table.view(self.seat)
        simple = {
            "d": game_pb2.MOVE_KIND_DRAW_FROM_WALL, "draw": game_pb2.MOVE_KIND_DRAW_FROM_WALL,
            "t": game_pb2.MOVE_KIND_TAKE_DISCARD, "take": game_pb2.MOVE_KIND_TAKE_DISCARD,
            "r": game_pb2.MOVE_KIND_RETURN_DISCARD, "return": game_pb2.MOVE_KIND_RETURN_DISCARD,
            "back": game_pb2.MOVE_KIND_TAKE_BACK,
        }
        if word in ("q", "quit", "exit"):
            return False
        if word in simple:
            self.play(self.move(simple[word]))
        elif word in ("h", "help"):
            print(HELP)
        elif word in ("s", "show"):
            print("\n".join(play_render101.table_lines(view, self.table.seats, self.painter)))
        elif word in ("?", "moves"):
            print("\n".join(play_render101.moves_lines(self.table.legal(self.seat),
                                                       self.painter)))
            if view.phase == state_pb2.PHASE_DISCARD:
                print("openings and new melds are not listed (too many): "
                      "best shows the best of your rack")
        elif word == "best":
            self._best(view)
        elif word == "hint":
            choice = self.table.policy_move(self.seat)
            print("hint: " + (play_render101.move_text(choice, self.painter) if choice
                              else "none"))
        elif word == "auto":
            self.table.bot_turn(self.seat)
        elif word in ("open", "meld"):
            self._lay(word, words[1:], view)
        elif word == "layoff":
            self._lay_off(words[1:], view)
        elif word in ("x", "discard"):
            if len(words) == 2 and words[1].upper() == "OK":  # the okey, by its face
                words[1] = render.Painter(colour=False).tile(view.okey)
            ok, tile = self.tile_arg(words, view)
            if ok:
                chosen = tile if tile is not None else (view.rack[-1] if view.rack else None)
                self.play(self.move(game_pb2.MOVE_KIND_DISCARD, chosen))
        else:
            print(f"unknown command {words[0]!r} (help lists the commands)")
        return True

    def _best(self, view: game_pb2.PlayerViewResponse) -> None:
        answer = self.table.best_opening(view.rack, view)
        print(hand_cmd.opening_text(answer, self.painter))

    def _lay(self, word: str, args: list[str], view: game_pb2.PlayerViewResponse) -> None:
        kind = game_pb2.MOVE_KIND_OPEN if word == "open" else game_pb2.MOVE_KIND_LAY_MELD
        pairs = bool(args) and args[0].lower() == "pairs"
        if pairs:
            if kind != game_pb2.MOVE_KIND_OPEN:
                print("meld lays pairs by itself once you opened with pairs: "
                      "meld R1 R1 | Y2 Y2")
                return
            args = args[1:]
        if [a.lower() for a in args] == ["best"]:
            move = self._best_move(kind, pairs, view)
            if move is not None:
                self.play(move)
            return
        melds = parse_melds(args, view)
        if isinstance(melds, str):
            print(melds)
            return
        move = self.move(kind)
        move.pairs = pairs
        move.melds.extend(melds)
        self.play(move)

    def _best_move(
        self, kind: game_pb2.MoveKind, pairs: bool, view: game_pb2.PlayerViewResponse
    ) -> game_pb2.Move | None:
        """`open best` / `meld best`: BestOpening's melds (or pairs) as the move, when they
        are there (an opening only when BestOpening says they reach the mark)."""
        answer = self.table.best_opening(view.rack, view)
        by_pairs = pairs or (kind == game_pb2.MOVE_KIND_LAY_MELD
                             and play_policy101.opened(view) == game_pb2.OPENED_PAIRS)
        found = answer.pairs.arrangement if by_pairs else answer.arrangement
        reaches = answer.pairs.opens if by_pairs else answer.opens
        if not found.melds:
            print("best: nothing to lay")
            return None
        if kind == game_pb2.MOVE_KIND_OPEN and not reaches:
            short = (f"{answer.pairs.count} pairs" if by_pairs
                     else f"{answer.value} points")
            print(f"best: {short} do not open: not sent (type the melds to try anyway)")
            return None
        melds = [list(meld.tiles) for meld in found.melds]
        move = play_policy101.melds_move(kind, self.seat, melds, view.rack, pairs=pairs)
        assert move is not None  # BestOpening's tiles are the rack's
        return move

    def _lay_off(self, args: list[str], view: game_pb2.PlayerViewResponse) -> None:
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
        move = self.move(game_pb2.MOVE_KIND_LAY_OFF, Picker(view.rack).take(tile))
        move.meld = int(words[1])
        if face_word:
            face = parse_face(face_word)
            if face is None:
                print(f"not a face an okey may stand for: {face_word!r} (write R6, K13)")
                return
            move.stands_for.CopyFrom(face)
        self.play(move)


def round_header(
    deal: deal_pb2.DealRequest, seed: str, view: game_pb2.PlayerViewResponse,
    *, again: int, seats: Seats, painter: render.Painter,
) -> list[str]:
    """The deal as the human's seat may know it (from its PlayerView, not the Deal answer,
    which holds every rack and the bank)."""
    number = deal.round
    replay = f"--game 101 --seed {seed}"
    if number > 1 or again:
        replay += f" --dealer {deal.dealer_seat} --rounds 1"
    title = f"== round {number}" + (" (dealt again: the last deal was void)" if again else "")
    dealer = view.dealer_seat
    opens = "you open" if dealer == seats.human else f"seat {dealer} opens"
    lines = [
        title,
        *deal_cmd.deal_kind_lines(view, seed=seed, replay=f" (play this deal again with "
                                                          f"{replay})"),
        f"Okey 101, {PLAYERS} players, dealer seat {dealer}: {opens} by discarding; "
        f"you play seat {seats.human}",
        f"indicator {painter.tile(view.indicator)}, okey {painter.tile(view.okey)}",
    ]
    if number == 1 and not again:
        lines.append("type help for the commands")
    return lines


def play_round(table: Table101, human: Human101) -> bool:
    """Plays the dealt round to its end (True) or until the human quits (False)."""
    seats = table.seats
    seat = seats.human
    assert seat is not None  # nobody leaves an Okey 101 game
    shown = -1  # the move number the human's side was last printed at
    turns = 0
    while True:
        view = table.view(seat)
        if view.phase == state_pb2.PHASE_ROUND_OVER:
            print("\n".join(play_render101.outcome_lines(view, seats, table.painter)))
            print(play_render101.own_lines(view, table.painter)[0])
            return True
        if view.turn_seat != seat:
            turns += 1
            if turns > _MAX_TURNS:
                raise CliError("the round did not end within the bound", EXIT_SERVER_ERROR)
            table.bot_turn(view.turn_seat)
            continue
        if view.move_number != shown:
            if view.phase == state_pb2.PHASE_DISCARD and shown >= 0:
                lines = play_render101.own_lines(view, table.painter)
            else:  # the turn begins
                lines = play_render101.table_lines(view, seats, table.painter)
            print("\n".join(lines))
            shown = view.move_number
        line = human.read()
        if line is None or not human.command(line):
            return False


def _game_header(rules: ruleset_pb2.Ruleset, args: argparse.Namespace) -> list[str]:
    lines = [score_render.rules_text(rules)]
    if args.game_rounds is None:
        lines.append(f"{DEFAULT_GAME_ROUNDS} rounds (the CLI's default for Okey 101; "
                     "--game-rounds N for another number)")
    elif not rules.game_rounds:
        lines.append("--game-rounds 0: the game has no end of its own: it goes on until you "
                     "quit (q)")
    if args.rounds:
        lines.append(f"at most {args.rounds} rounds (--rounds {args.rounds})")
    return lines


def next_deal(
    first: deal_pb2.DealRequest, base_seed: str, scored: scoring_pb2.ScoreRoundResponse,
    again: int,
) -> deal_pb2.DealRequest:
    """The next round's deal: the first deal's rules, the dealer and round ScoreRound named,
    the seed derived from the game's. A void round is dealt again with the same number
    and dealer, so its seed gets `/again-K` (the same seed would deal the same tiles)."""
    request = deal_pb2.DealRequest()
    request.CopyFrom(first)
    request.dealer_seat = scored.next_dealer_seat
    request.round = scored.next_round
    seed = play_cmd.round_seed(base_seed, scored.next_round)
    request.seed = f"{seed}/again-{again}" if again else seed
    return request


def run_play_101(args: argparse.Namespace) -> int:
    first = build_deal_request(args)
    address = rpc.server_address(args)
    painter = render.Painter(render.wants_colour(sys.stdout))
    interactive = sys.stdin.isatty()
    if interactive:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401 (line editing for input())
    with rpc.open_channel(address) as channel:
        table = Table101(channel, address, args.timeout,
                         Seats.whole_table(args.seat, PLAYERS), painter)
        human = Human101(table, args.seat, interactive)
        game = play_cmd.Game(PLAYERS)
        request = first
        base_seed = args.seed
        again = 0
        for count in range(1, play_cmd.MAX_ROUNDS + 1):
            seed = table.deal(request).seed
            base_seed = base_seed or seed  # the seed the server drew for round 1
            view = table.view(args.seat)
            if count == 1:
                print("\n".join(_game_header(view.ruleset, args)))
            print("\n".join(round_header(request, seed, view, again=again, seats=table.seats,
                                         painter=painter)))
            if not play_round(table, human):
                print("quit: the round is left unfinished")
                if game.scored:
                    print(game.text(going_on="the game is left unfinished"))
                return EXIT_OK
            scored = table.score(game.table)
            game.scored.append(scored)
            game.states.append(table.state)
            play_cmd.save_state(args.save_state, table.state, table.status)
            play_cmd.save_game(args.save_game, game)
            print("\n".join(play_cmd.round_score_lines(scored)))
            if scored.game_over:
                print("== final table")
                print(game.text(going_on="the game goes on"))
                print(play_cmd.human_result(scored, args.seat))
                return EXIT_OK
            if args.rounds and count >= args.rounds:
                print(f"stopped after {play_cmd.rounds_text(count)} (--rounds {args.rounds}): "
                      "the game is not over")
                return EXIT_OK
            if interactive and not play_cmd.go_on(human, scored.next_round):
                print(game.text(going_on="the game is left unfinished"))
                return EXIT_OK
            again = again + 1 if scored.next_round == request.round else 0
            request = next_deal(first, base_seed, scored, again)
    raise CliError(f"the game did not end within {play_cmd.MAX_ROUNDS} rounds", EXIT_SERVER_ERROR)

