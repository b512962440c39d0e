"""The round as `okey play` carries it: the sealed state, the seats, and the calls on it.

The CLI only carries the sealed state (an opaque token) from call to call
(ApplyMove, LegalMoves, PlayerView) and cannot read it: whose turn it is and
what it prints come from the seats' PlayerViews and the events of each move.
The rounds are untimed: no clock is sent.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from okey.v1 import (
    analysis_pb2,
    analysis_pb2_grpc,
    deal_pb2,
    deal_pb2_grpc,
    game_pb2,
    game_pb2_grpc,
    hand_pb2,
    hand_pb2_grpc,
    ruleset_pb2,
    scoring_pb2,
    scoring_pb2_grpc,
    state_pb2,
    tile_pb2,
)

from okey_cli import render, rpc
from okey_cli.errors import EXIT_SERVER_ERROR, CliError
from okey_cli.play_game import GamePlay
from okey_cli.play_seats import Seats


def reason_name(reason: int) -> str:
    name = game_pb2.IllegalReason.Name(reason) if reason in game_pb2.IllegalReason.values() \
        else str(reason)
    return name.removeprefix("ILLEGAL_REASON_")


def _face(tile: tile_pb2.Tile) -> tuple[int, int, bool]:
    return tile.color, tile.number, tile.false_joker


class Table:
    """The round as this client carries it: the opaque state, who sits where in this
    round's deal, and the calls on it."""

    def __init__(
        self, play: GamePlay, channel: Any, seats: Seats, painter: render.Painter, *,
        address: str, timeout: float, bot_level: int = 0,
    ) -> None:
        self.play = play
        # 0: the bots play the CLI's simple policy; 1-3: AnalysisService.SuggestMove's bots.
        self.bot_level = bot_level
        self.analysis = analysis_pb2_grpc.AnalysisServiceStub(channel)
        self.moves = game_pb2_grpc.GameServiceStub(channel)
        self.deals = deal_pb2_grpc.DealServiceStub(channel)
        self.scoring = scoring_pb2_grpc.ScoringServiceStub(channel)
        self.hands = hand_pb2_grpc.HandServiceStub(channel)
        self.address = address
        self.timeout = timeout
        self.seats = seats
        self.painter = painter
        self.state = b""  # the sealed state: carried, never opened
        self.status = state_pb2.RoundStatus()  # its public facts, as the last answer gave
        self._openings: dict[tuple[object, ...], hand_pb2.BestOpeningResponse] = {}

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
        view: game_pb2.PlayerViewResponse = self._call(self.moves.PlayerView, request)
        return view

    def legal(self, seat: int) -> list[game_pb2.Move]:
        request = game_pb2.LegalMovesRequest(state=self.state, seat=seat)
        return list(self._call(self.moves.LegalMoves, request).moves)

    def best_opening(
        self, tiles: Sequence[tile_pb2.Tile], view: game_pb2.PlayerViewResponse
    ) -> hand_pb2.BestOpeningResponse:
        """BestOpening for some of the viewer's tiles under the round's rules (kept per
        rack for the round: a bot asks about the same rack at several steps)."""
        # The round's public names (a deal dealt again has another seed, so another id)
        # and the indicator tell the rounds apart.
        deal_name = (view.seeded_deal_id, view.commitment, view.round, _face(view.indicator))
        key = (deal_name, tuple(sorted(_face(t) for t in tiles)))
        if key not in self._openings:
            request = hand_pb2.BestOpeningRequest(indicator=view.indicator)
            request.hand.tiles.extend(tiles)
            request.ruleset.CopyFrom(view.ruleset)
            self._openings[key] = self._call(self.hands.BestOpening, request)
        return self._openings[key]

    def apply(self, move: game_pb2.Move) -> game_pb2.ApplyMoveResponse:
        """Applies `move`; when legal, keeps the new state and prints the events as the
        human's seat may see them."""
        answer: game_pb2.ApplyMoveResponse = self._call(
            self.moves.ApplyMove, game_pb2.ApplyMoveRequest(state=self.state, move=move)
        )
        if answer.legal:
            self.state = answer.state
            self.status = answer.status
            for line in self.play.event_lines(self, answer.events):
                print(line)
        return answer

    def suggest(self, seat: int, level: int) -> analysis_pb2.SuggestMoveResponse:
        """AnalysisService.SuggestMove for `seat` at `level`, from that seat's view only."""
        request = analysis_pb2.SuggestMoveRequest(state=self.state, seat=seat, level=level)
        answer: analysis_pb2.SuggestMoveResponse = self._call(self.analysis.SuggestMove,
                                                              request)
        return answer

    def analyze(self, seat: int) -> analysis_pb2.AnalyzeHandResponse:
        """AnalysisService.AnalyzeHand of `seat`'s rack, as its view shows the table."""
        request = analysis_pb2.AnalyzeHandRequest(state=self.state, seat=seat)
        answer: analysis_pb2.AnalyzeHandResponse = self._call(self.analysis.AnalyzeHand,
                                                              request)
        return answer

    def bot_move(self, seat: int) -> game_pb2.Move | None:
        """The bot's next move: SuggestMove's at the table's bot level, else the CLI's
        simple policy."""
        if not self.bot_level:
            return self.play.policy_move(self, seat)
        answer = self.suggest(seat, self.bot_level)
        return answer.move if answer.HasField("move") else None

    def bot_turn(self, seat: int) -> None:
        """Plays the rest of `seat`'s turn by the bots' policy, from its own view and moves.
        The turn is over when the answer's status gives the turn to another seat or ends
        the round."""
        name = self.seats.who(seat)
        steps = self.play.max_bot_steps
        for _ in range(steps):
            move = self.bot_move(seat)
            if move is None:
                raise CliError(
                    f"{name} is on turn but LegalMoves offers it no move", EXIT_SERVER_ERROR
                )
            answer = self.apply(move)
            if not answer.legal:
                what = self.play.move_text(move, self.painter)
                raise CliError(
                    f"the server refused {name}'s move {what}"
                    f" ({reason_name(answer.reason)}): {answer.message}",
                    EXIT_SERVER_ERROR,
                )
            if (answer.status.phase == state_pb2.PHASE_ROUND_OVER
                    or answer.status.turn_seat != seat):
                return
        raise CliError(f"{name} did not end its turn in {steps} moves", EXIT_SERVER_ERROR)
