"""`okey play`'s game loop, written once for every game: deal, play the round move by
move, score it, deal the next one, until the game is over.

What differs between the games is asked of the GamePlay the loop is given
(okey_cli.play_game). Each round is dealt by DealService/Deal; after each round
ScoringService/ScoreRound scores the finished state against the table so far, and
its answer says who deals the next round, its number (a void round is dealt again
under the same number) and whether the game is over; the CLI keeps no score of its
own.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import sys
from pathlib import Path

from google.protobuf import json_format
from okey.v1 import deal_pb2, game_pb2, ruleset_pb2, scoring_pb2, state_pb2

from okey_cli import deal_cmd, render, rpc, score_render
from okey_cli.errors import EXIT_BAD_INPUT, EXIT_OK, EXIT_SERVER_ERROR, CliError
from okey_cli.play_game import GamePlay
from okey_cli.play_human import Human
from okey_cli.play_options import MAX_ROUNDS, first_deal_request
from okey_cli.play_seats import Seats
from okey_cli.play_table import Table


def round_seed(base_seed: str, round_number: int) -> str:
    """Round 1 is dealt from the game's seed itself (so that `--rounds 1 --seed S` deals
    what `okey deal --seed S` deals); round N > 1 from ``SEED/round-N``."""
    return base_seed if round_number <= 1 else f"{base_seed}/round-{round_number}"


def seats_in_game(scored: scoring_pb2.ScoreRoundResponse) -> list[int]:
    """The table's seats still in the game after a round, in order: the next deal's seats."""
    return [seat for seat, out in enumerate(scored.eliminated) if not out]


def next_deal_request(
    first: deal_pb2.DealRequest, base_seed: str, scored: scoring_pb2.ScoreRoundResponse,
    again: int = 0,
) -> deal_pb2.DealRequest:
    """The next round's deal: the first deal's rules; the seats still in the game; the
    dealer and round number ScoreRound gave; the seed derived from the game's. A round
    dealt again (a void round: same number, same dealer) is dealt from `/again-K` after
    the round's seed, since the same seed would deal the same tiles."""
    request = deal_pb2.DealRequest()
    request.CopyFrom(first)
    if scored.eliminated:  # an answer that lists no seats has nobody leaving
        request.player_count = len(seats_in_game(scored))
    request.dealer_seat = scored.next_dealer_seat
    request.round = scored.next_round
    seed = round_seed(base_seed, scored.next_round)
    request.seed = f"{seed}/again-{again}" if again else seed
    return request


def round_header(
    game: GamePlay, deal: deal_pb2.DealRequest, seed: str, view: game_pb2.PlayerViewResponse,
    *, again: int, seats: Seats, painter: render.Painter,
) -> list[str]:
    """The deal as the human's seat may know it (from a PlayerView, not from the Deal
    answer, which also holds every rack and the wall)."""
    number = deal.round
    replay = " ".join((*game.game_options, "--seed", seed))
    if number > 1 or again:
        if game.players is None:
            replay += f" --players {deal.player_count}"
        replay += f" --dealer {deal.dealer_seat} --rounds 1"
    title = f"== round {number}" + (" (dealt again: the last deal was void)" if again else "")
    lines = [
        title,
        *deal_cmd.deal_kind_lines(view, seed=seed,
                                  replay=f" (play this deal again with {replay})"),
        game.round_line(view, seats),
        f"indicator {painter.tile(view.indicator)}, okey {painter.tile(view.okey)}",
    ]
    if number == 1 and not again:
        lines.append("type help for the commands")
    return lines


def looker(seats: Seats) -> int:
    """Whose PlayerView says where the round stands: the human's, or any seat's once the
    human has left (only its phase and turn are read then, never its rack)."""
    return seats.human if seats.human is not None else 0


def play_round(table: Table, human: Human) -> bool:
    """Plays the dealt round to its end (True) or until the human quits (False). Once the
    human has left the game (elimination) the bots play it alone, and only the public
    events are printed."""
    game = table.play
    seats = table.seats
    seat = looker(seats)
    shown = -1  # the move number the human's side was last printed at
    bot_turns = 0
    while True:
        view = table.view(seat)
        if view.phase == state_pb2.PHASE_ROUND_OVER:
            print("\n".join(game.round_end_lines(view, seats, table.painter)))
            return True
        if view.turn_seat != seats.human:
            bot_turns += 1
            if bot_turns > game.max_bot_turns:
                raise CliError("the round did not end within the bound", EXIT_SERVER_ERROR)
            table.bot_turn(view.turn_seat)
            continue
        if view.move_number != shown:
            print("\n".join(game.turn_lines(table, view, shown < 0)))
            shown = view.move_number
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


def run(game: GamePlay, args: argparse.Namespace) -> int:
    """`okey play` of `game` (okey_cli.play_main looks it up by --game)."""
    first = first_deal_request(game, args)
    address = rpc.server_address(args)
    painter = render.Painter(render.wants_colour(sys.stdout))
    interactive = sys.stdin.isatty()
    if interactive:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401 (line editing for input())
    with rpc.open_channel(address) as channel:
        table = Table(game, channel, Seats.whole_table(args.seat, first.player_count), painter,
                      address=address, timeout=args.timeout, bot_level=args.bot_level)
        rules: ruleset_pb2.Ruleset | None = game.rules_before_deal(table, first)
        if rules is not None:
            print("\n".join(game.game_header(rules, args)))
        human = Human(table, args.seat, interactive)
        record = Game(first.player_count)
        request = first
        base_seed = args.seed
        again = 0  # how many times this round's number has been dealt before
        for count in range(1, MAX_ROUNDS + 1):
            seed = table.deal(request).seed
            base_seed = base_seed or seed  # the seed the server drew for round 1
            view = table.view(looker(table.seats))
            if rules is None:
                rules = view.ruleset
                print("\n".join(game.game_header(rules, args)))
            print("\n".join(round_header(game, request, seed, view, again=again,
                                         seats=table.seats, painter=painter)))
            if not play_round(table, human):
                print("quit: the round is left unfinished")
                if record.scored:
                    print(record.text(going_on="the game is left unfinished"))
                return EXIT_OK
            scored = table.score(record.table)
            record.scored.append(scored)
            record.states.append(table.state)
            save_state(args.save_state, table.state, table.status)
            save_game(args.save_game, record)
            print("\n".join(round_score_lines(scored)))
            if scored.game_over:
                print("== final table")
                print(record.text(going_on="the game goes on"))
                print(human_result(scored, args.seat))
                return EXIT_OK
            if args.rounds and count >= args.rounds:
                print(f"stopped after {rounds_text(count)} (--rounds {args.rounds}): "
                      "the game is not over")
                return EXIT_OK
            if interactive and not go_on(human, scored.next_round):
                print(record.text(going_on="the game is left unfinished"))
                return EXIT_OK
            again = again + 1 if scored.next_round == request.round else 0
            request = next_deal_request(first, base_seed, scored, again)
            in_game = seats_in_game(scored) or list(table.seats.table)
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
