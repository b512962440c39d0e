"""Derives the ScoringService conformance vectors (tests/conformance/scoring_*.json).

The expected numbers are written here by hand from the scoring rules
(docs/rules.md §9 and the scoring decisions it records), case by case: each
line's per-seat changes, the round's value, whether the game ends and who
wins. They are not the engine's output echoed: building the files scores
every case again with the engine (server/okey_rules/scoring.py) and stops
with both answers shown when the two disagree, so the files hold only numbers
the rules text and the engine agree on. Nothing goes through the gRPC layer
(okey_server); the vectors check the server's translation too.

Rounds given as finished states reach them as the GameService vectors do: a
`given_state` (a ReplayRequest: a seeded deal and a move log) that the runner
replays on the server under test and puts into the request's `round.state`
(docs/conformance.md, "Cases that need a state"). The move logs come from the
small greedy player of scripts/derive_game_vectors.py.

    python scripts/derive_scoring_vectors.py                 # print {file name: file} as JSON
    python scripts/derive_scoring_vectors.py --write DIR     # write DIR/scoring_*.json
    python scripts/derive_scoring_vectors.py --search        # how the special seeds were found

tests/unit/test_scoring_vectors_wellformed.py checks that this script writes
the committed files byte for byte.
"""

from __future__ import annotations

import base64
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from okey_rules.deal import deal
from okey_rules.deal_fairness import seeded_deal_id
from okey_rules.errors import InvalidInputError
from okey_rules.game import replay, start_round
from okey_rules.game_types import GameState, MoveKind, Phase
from okey_rules.hand import check_hand
from okey_rules.hand_types import WinKind
from okey_rules.ruleset import ColourDouble, Game, Ruleset, ScoringMode, preset
from okey_rules.scoring import (
    check_scorable,
    check_table_size,
    next_dealer,
    one_colour_of,
    result_of_outcome,
    score_round,
    seats_in_game,
    start_table,
)
from okey_rules.scoring_types import RoundResult, RoundScore, ScoreRule, Table
from okey_rules.tiles import Color, okey_for, parse_tile, parse_tiles
from vector_tools import load_script, run_cli

Json = dict[str, Any]
Case = dict[str, Any]

HERE = Path(__file__).resolve().parent
SERVICE = "okey.v1.ScoringService"
PLAYERS = 4  # scoring.proto: player_count unset and no table: 4 seats


@cache
def game_vectors() -> ModuleType:
    """scripts/derive_game_vectors.py: its greedy player, logs, seeds and JSON layout."""
    return load_script(HERE / "derive_game_vectors.py")


# --- rules, results and tables as a request gives them -------------------------------

_ENUM_PREFIX = {
    "game": "GAME",
    "scoring_mode": "SCORING_MODE",
    "colour_double": "COLOUR_DOUBLE",
}


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


@dataclass(frozen=True)
class Rules:
    """A preset name and rule options over it (snake_case, engine values)."""

    preset: str = ""
    options: tuple[tuple[str, Any], ...] = ()

    def ruleset_json(self) -> Json:
        out: Json = {}
        for name, value in self.options:
            if isinstance(value, int | bool) or name not in _ENUM_PREFIX:
                out[_camel(name)] = value
            else:
                out[_camel(name)] = f"{_ENUM_PREFIX[name]}_{value.name}"
        return out

    def request(self) -> Json:
        data: Json = {}
        if self.preset:
            data["preset"] = self.preset
        if self.options:
            data["ruleset"] = self.ruleset_json()
        return data

    def engine(self) -> Ruleset:
        """As ruleset.proto resolves them: the preset (classic by default), options over it."""
        options = dict(self.options)
        base = preset(self.preset, options.get("game"))
        return base.with_overrides(**options) if options else base


def rules(preset_name: str = "", **options: Any) -> Rules:
    return Rules(preset_name, tuple(options.items()))


CLASSIC = rules()
TARGET = rules(scoring_mode=ScoringMode.TARGET)
PENALTY = rules(scoring_mode=ScoringMode.PENALTY)
ZERO_SUM = rules(scoring_mode=ScoringMode.ZERO_SUM)


def tile_json(notation: str) -> Json:
    return tiles_json(notation)[0]


def tiles_json(notation: str) -> list[Json]:
    """Tiles in protobuf JSON; a face's second copy says so (copy 1)."""
    out = []
    for tile in parse_tiles(notation):
        data: Json = (
            {"falseJoker": True}
            if tile.color is None
            else {"color": f"COLOR_{tile.color.name}", "number": tile.number}
        )
        if tile.copy:
            data["copy"] = tile.copy
        out.append(data)
    return out


@dataclass(frozen=True)
class Result:
    """A RoundResult as a request gives it (scoring.proto), seats of the table."""

    drawn: bool = False
    winner: int = 0
    kind: WinKind | None = None
    okey_discard: bool = False
    one_colour: Color | None = None
    hand: str = ""  # notation of the winner's 14 tiles
    discard: str = ""
    indicator: str = ""
    gosterme: tuple[int, ...] = ()

    def json(self) -> Json:
        data: Json = {}
        if self.drawn:
            data["drawn"] = True
        if self.winner or not self.drawn:
            data["winnerSeat"] = self.winner  # seat 0 too, for the reader
        if self.kind is not None:
            data["winKind"] = f"WIN_KIND_{self.kind.name}"
        if self.okey_discard:
            data["okeyDiscard"] = True
        if self.one_colour is not None:
            data["oneColour"] = f"COLOR_{self.one_colour.name}"
        if self.hand:
            data["hand"] = tiles_json(self.hand)
        if self.discard:
            data["discard"] = tile_json(self.discard)
        if self.indicator:
            data["indicator"] = tile_json(self.indicator)
        if self.gosterme:
            data["gostermeSeats"] = list(self.gosterme)
        return data

    def engine(self, rules: Ruleset, field: str) -> RoundResult:
        """The engine's RoundResult, after the checks scoring.proto's RoundResult states:
        given tiles must agree with the win kind, the okey discard and the colour; a hand
        given is scored as it wins best (docs/rules.md §9.1, §4.4), the claim kept aside."""
        colour = self.one_colour
        kind, claimed = self.kind, None
        if self.hand or self.discard:
            if self.drawn:
                raise InvalidInputError(f"{field}.hand", "a drawn round has no winning hand")
            if not self.indicator:
                raise InvalidInputError(f"{field}.indicator", "needed with hand or discard")
            indicator = parse_tile(self.indicator)
            if indicator.color is None:
                raise InvalidInputError(f"{field}.indicator", "never a false joker")
            okey = okey_for(indicator)
            if self.discard and (parse_tile(self.discard).face == okey.face) != self.okey_discard:
                raise InvalidInputError(f"{field}.okey_discard", "the discard says otherwise")
            if self.hand:
                tiles = parse_tiles(self.hand)
                try:
                    verdict = check_hand(tiles, okey, rules)
                except InvalidInputError as error:
                    raise InvalidInputError(f"{field}.hand", error.description) from error
                if not verdict.winning:
                    raise InvalidInputError(f"{field}.hand", "not a winning hand")
                if self.kind not in verdict.kinds:
                    raise InvalidInputError(f"{field}.win_kind", "the hand does not win so")
                found = one_colour_of([tile.code for tile in tiles], okey.face)
                if colour is not None and colour != found:
                    raise InvalidInputError(f"{field}.one_colour", "the hand says otherwise")
                colour = found
                if verdict.kind is not self.kind:
                    kind, claimed = verdict.kind, self.kind
        return RoundResult(
            self.drawn, self.winner, kind, self.okey_discard, colour, self.gosterme, claimed
        )


MELDS, PAIRS, KAFA = WinKind.MELDS, WinKind.SEVEN_PAIRS, WinKind.KAFA


def won(
    seat: int, kind: WinKind = MELDS, *gosterme: int, okey: bool = False, **tiles: Any
) -> Result:
    """A won round: `okey` for an okey discard; `tiles`: hand, discard, indicator, one_colour."""
    return Result(False, seat, kind, okey, gosterme=gosterme, **tiles)


def drawn(*gosterme: int) -> Result:
    return Result(drawn=True, gosterme=gosterme)


# Hands for the colour double (docs/rules.md §9.1; decision: judged on the winning 14
# tiles, the okeys do not count, a false joker counts as the okey's colour). With
# indicator B7 the okey is B8; with R7 it is R8.
OKEY_B8 = "B7"
OKEY_R8 = "R7"
YELLOW_MELDS = "Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y10 Y11 Y11 Y12 Y13"
RED_MELDS = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R11 R12 R13"
BLACK_MELDS = "K1 K2 K3 K4 K5 K6 K7 K8 K9 K10 K11 K11 K12 K13"
RED_PAIRS = "R1 R1 R3 R3 R5 R5 R7 R7 R9 R9 R11 R11 R13 R13"
# Two runs Y1-Y7 and seven pairs at once: it wins best as seven pairs (§4.4).
RUNS_AND_PAIRS = "Y1 Y1 Y2 Y2 Y3 Y3 Y4 Y4 Y5 Y5 Y6 Y6 Y7 Y7"
# Red but for the okey B8, standing in for R8: the okey does not count.
RED_WITH_OKEY = "R1 R2 R3 R4 R5 R6 R7 B8 R9 R10 R11 R11 R12 R13"
# Red but for a false joker: with okey R8 it plays as R8 and is red.
RED_WITH_FALSE_JOKER = "R1 R2 R3 R4 R5 R6 R7 F R9 R10 R11 R11 R12 R13"
# Red but for a false joker (B8 with okey B8) in a set with R8 and the okey: blue.
RED_AND_FALSE_JOKER_BLUE = "R1 R2 R3 R4 R5 R6 R7 R9 R10 R11 R12 R8 F B8"
# Kafa (docs/rules.md §4.3): one colour 1-13 and a second 1; it also wins as melds.
RED_KAFA = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1"
NOT_WINNING = "R1 R2 R3 Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12 Y1"


# --- the expected answer, by hand -----------------------------------------------------


@dataclass(frozen=True)
class Line:
    """An expected ScoreLine: the rule, its seat, its factor, its per-seat changes."""

    rule: ScoreRule
    seat: int = 0
    factor: int = 0
    deltas: tuple[int, ...] = ()

    def json(self) -> Json:
        return {
            "rule": f"SCORE_RULE_{self.rule.name}",
            "seat": self.seat,
            "factor": self.factor,
            "deltas": list(self.deltas),
        }


def win(seat: int) -> Line:
    return Line(ScoreRule.WIN, seat)


def okey_x2(seat: int) -> Line:
    return Line(ScoreRule.OKEY_DISCARD, seat, 2)


def pairs_x2(seat: int) -> Line:
    return Line(ScoreRule.SEVEN_PAIRS, seat, 2)


def colour_x2(seat: int) -> Line:
    return Line(ScoreRule.COLOUR_DOUBLE, seat, 2)


def largest_only(seat: int) -> Line:
    return Line(ScoreRule.LARGEST_MULTIPLIER, seat, 2)


def value(seat: int, *deltas: int) -> Line:
    return Line(ScoreRule.ROUND_VALUE, seat, 0, deltas)


def gost(seat: int, *deltas: int) -> Line:
    return Line(ScoreRule.GOSTERME, seat, 0, deltas)


def drawn_line() -> Line:
    return Line(ScoreRule.DRAWN_ROUND)


def stall(*deltas: int) -> Line:
    return Line(ScoreRule.STALL, 0, 0, deltas)


def kafa(seat: int) -> Line:
    return Line(ScoreRule.KAFA, seat)


def out(seat: int) -> Line:
    return Line(ScoreRule.ELIMINATED, seat)


def over() -> Line:
    return Line(ScoreRule.GAME_OVER)


@dataclass(frozen=True)
class Want:
    """What a round must score: its lines (the changes they make), its value, the game's
    end and winners, the seats out of the game after it; with a state, the next deal."""

    lines: tuple[Line, ...]
    value: int
    game_over: bool = False
    winners: tuple[int, ...] = ()
    out: tuple[int, ...] = ()  # every seat out of the game after the round
    next_dealer: int | None = None
    next_round: int | None = None


def want(
    value: int,
    *lines: Line,
    winners: Sequence[int] | None = None,
    out: Sequence[int] = (),
    next_deal: tuple[int, int] | None = None,
) -> Want:
    """`winners` given: the game is over and they won."""
    dealer, number = next_deal if next_deal is not None else (None, None)
    return Want(
        tuple(lines), value, winners is not None, tuple(winners or ()), tuple(out), dealer, number
    )


def table(*scores: int, rounds: int = 0) -> Table:
    return Table(tuple(scores), rounds)


def table_json(before: Table) -> Json:
    data: Json = {"scores": list(before.scores)}
    if before.rounds_played:
        data["roundsPlayed"] = before.rounds_played
    return data


@dataclass(frozen=True)
class Expected:
    """A round's full expected answer, worked out from `Want` and the table before it."""

    deltas: tuple[int, ...]
    table: Table
    value: int
    lines: tuple[Line, ...]
    game_over: bool
    winners: tuple[int, ...]
    eliminated: tuple[bool, ...]

    def json(self) -> Json:
        return {
            "deltas": list(self.deltas),
            "table": {"scores": list(self.table.scores), "roundsPlayed": self.table.rounds_played},
            "roundValue": self.value,
            "lines": [line.json() for line in self.lines],
            "gameOver": self.game_over,
            "winnerSeats": list(self.winners),
            "eliminated": list(self.eliminated),
        }


def expected(before: Table, w: Want) -> Expected:
    """The round's changes are the sum of its lines' (arithmetic, not a rule)."""
    players = len(before.scores)
    deltas = [0] * players
    for line in w.lines:
        if line.deltas:
            assert len(line.deltas) == players, line
            deltas = [a + b for a, b in zip(deltas, line.deltas, strict=True)]
    scores = tuple(a + b for a, b in zip(before.scores, deltas, strict=True))
    eliminated = tuple(seat in w.out for seat in range(players))
    after = Table(scores, before.rounds_played + 1)
    return Expected(tuple(deltas), after, w.value, w.lines, w.game_over, w.winners, eliminated)


def of_engine(scored: RoundScore) -> Expected:
    lines = tuple(Line(ln.rule, ln.seat, ln.factor, tuple(ln.deltas)) for ln in scored.lines)
    return Expected(
        tuple(scored.deltas),
        scored.table,
        scored.value,
        lines,
        scored.game_over,
        tuple(scored.winners),
        tuple(scored.eliminated),
    )


def agree(name: str, mine: Expected, engine: Expected) -> None:
    """The hand-worked answer and the engine's must be the same, or the build stops."""
    if mine != engine:
        raise AssertionError(f"{name}: worked out by hand\n  {mine}\nthe engine says\n  {engine}")


# --- cases: ScoreRound from results --------------------------------------------------


def _players(players: int | None, before: Table | None) -> int:
    """scoring.proto ScoreRoundRequest.player_count: as given, else the table's, else 4."""
    if players:
        return players
    return len(before.scores) if before is not None else PLAYERS


def _size_field(players: int | None, before: Table | None) -> str:
    """The request field that set the table's size, the one a wrong size is blamed on."""
    return "table.scores" if not players and before is not None else "player_count"


def round_request(
    result: Result | None, rules: Rules, before: Table | None, players: int | None
) -> Json:
    request = rules.request()
    if players:
        request["playerCount"] = players
    if result is not None:
        request["round"] = {"result": result.json()}
    if before is not None:
        request["table"] = table_json(before)
    return request


# The case tables read as (name, reason, result, answer, rules, table before): positional.
def round_case(  # noqa: PLR0917
    name: str,
    reason: str,
    result: Result,
    w: Want,
    rules: Rules = CLASSIC,
    before: Table | None = None,
    players: int | None = None,
    *,
    pin_ruleset: Json | None = None,
) -> Case:
    engine_rules = rules.engine()
    count = _players(players, before)
    start = before if before is not None else start_table(engine_rules, count)
    mine = expected(start, w)
    scored = score_round(engine_rules, count, before, result.engine(engine_rules, "round.result"))
    agree(name, mine, of_engine(scored))
    response = mine.json()
    if pin_ruleset is not None:
        assert ruleset_of(engine_rules) == pin_ruleset, name
        response = {"ruleset": pin_ruleset, **response}
    return _case(name, reason, round_request(result, rules, before, players), response)


def _case(name: str, reason: str, request: Json, response: Json, given: Json | None = None) -> Case:
    case: Case = {"name": name, "reason": reason}
    if given is not None:
        case["given_state"] = given
    case["request"] = request
    case["expect"] = {"response": response}
    return case


def error_case(
    name: str,
    reason: str,
    request: Json,
    field_path: str,
    *,
    refused_by: str | None = None,
    given: Json | None = None,
    why: str | None = None,
) -> Case:
    """An INVALID_ARGUMENT naming `field_path`; `refused_by`: the field the engine names;
    `why`: the ErrorReason, when the case pins it."""
    if refused_by is not None:
        assert refused_by == field_path or refused_by.startswith(
            (f"{field_path}[", f"{field_path}.")
        ), (name, refused_by)
    case: Case = {"name": name, "reason": reason}
    if given is not None:
        case["given_state"] = given
    case["request"] = request
    error = {"code": "INVALID_ARGUMENT", "field": field_path}
    if why is not None:
        error["reason"] = why
    case["expect"] = {"error": error}
    return case


def engine_refusal(
    result: Result | None,
    rules: Rules = CLASSIC,
    before: Table | None = None,
    players: int | None = None,
) -> str:
    """The field the engine names refusing this round (the request's checks in order)."""
    try:
        engine_rules = rules.engine()
        check_scorable(engine_rules)
        assert result is not None
        count = _players(players, before)
        check_table_size(engine_rules, count, _size_field(players, before))
        score_round(engine_rules, count, before, result.engine(engine_rules, "round.result"))
    except InvalidInputError as error:
        return error.field
    raise AssertionError(f"not refused: {result} {rules} {before} {players}")


def round_error(  # noqa: PLR0917 (as round_case)
    name: str,
    reason: str,
    result: Result | None,
    field_path: str,
    rules: Rules = CLASSIC,
    before: Table | None = None,
    players: int | None = None,
) -> Case:
    refused = engine_refusal(result, rules, before, players)
    request = round_request(result, rules, before, players)
    return error_case(name, reason, request, field_path, refused_by=refused)


def ruleset_of(r: Ruleset) -> Json:
    """A resolved ruleset as an answer states it: every option written out."""
    return {
        "game": f"GAME_{r.game.name}",
        "wildPairs": r.wild_pairs,
        "kafa": r.kafa,
        "runs13To1": r.runs_13_to_1,
        "indicatorDrawableLast": r.indicator_drawable_last,
        "gostermeInFirstTurn": r.gosterme_in_first_turn,
        "moveTimerSeconds": r.move_timer_seconds,
        "scoringMode": f"SCORING_MODE_{r.scoring_mode.name}",
        "startPoints": r.start_points,
        "targetPoints": r.target_points,
        "elimination": r.elimination,
        "partnership": r.partnership,
        "multipliersCombine": r.multipliers_combine,
        "colourDouble": f"COLOUR_DOUBLE_{r.colour_double.name}",
        "gostermeScores": r.gosterme_scores,
        "countdownWinners": r.countdown_winners,
        "gameRounds": r.game_rounds,
        "exhaustionScoresTiles": r.exhaustion_scores_tiles,
        "progressiveOpening": r.progressive_opening,
        "riziko": r.riziko,
        "okeyRetrieval": r.okey_retrieval,
        "layOffCap": r.lay_off_cap,
        "partnershipWaiver": r.partnership_waiver,
        "gostermePlayed": r.gosterme_played,
        "mustShowWin": r.must_show_win,
    }


def preset_ruleset(
    mode: str = "COUNTDOWN",
    *,
    kafa: bool = False,
    gosterme_in_first_turn: bool = False,
    start_points: int = 20,
    gosterme_scores: bool = True,
    countdown_winners: int = 2,
    gosterme_played: bool = True,
    must_show_win: bool = True,
) -> Json:
    """A preset as docs/rules.md §9.3 describes it, written out option by option; the
    options no preset changes hold their defaults (ruleset.proto). `must_show_win` is on
    only where the preset's rules text says so (§8.4: classic, tournament)."""
    return {
        "game": "GAME_CLASSIC",
        "wildPairs": True,
        "kafa": kafa,
        "runs13To1": True,
        "indicatorDrawableLast": False,
        "gostermeInFirstTurn": gosterme_in_first_turn,
        "moveTimerSeconds": 45,
        "scoringMode": f"SCORING_MODE_{mode}",
        "startPoints": start_points,
        "targetPoints": 21,
        "elimination": False,
        "partnership": False,
        "multipliersCombine": True,
        "colourDouble": "COLOUR_DOUBLE_OFF",
        "gostermeScores": gosterme_scores,
        "countdownWinners": countdown_winners,
        "gameRounds": 0,
        "exhaustionScoresTiles": True,
        "progressiveOpening": False,
        "riziko": False,
        "okeyRetrieval": False,
        "layOffCap": False,
        "partnershipWaiver": False,
        "gostermePlayed": gosterme_played,
        "mustShowWin": must_show_win,
    }


def value_cases() -> list[Case]:
    """docs/rules.md §9.1: 2 for a win, x2 okey discard, x2 seven pairs, x2 colour double."""
    any_colour = rules(colour_double=ColourDouble.ANY)
    red_or_black = rules(colour_double=ColourDouble.RED_OR_BLACK)
    largest = rules(multipliers_combine=False)
    return [
        round_case(
            "score-round-win-melds-is-two",
            "docs/rules.md §9.1, §9.2 COUNTDOWN: a win is worth 2, lost by each opponent of the"
            " winner",
            won(1),
            want(2, win(1), value(1, -2, 0, -2, -2)),
        ),
        round_case(
            "score-round-okey-discard-doubles",
            "docs/rules.md §9.1: finishing by discarding an okey doubles the value (4)",
            won(2, okey=True),
            want(4, win(2), okey_x2(2), value(2, -4, -4, 0, -4)),
        ),
        round_case(
            "score-round-seven-pairs-doubles",
            "docs/rules.md §9.1: a seven-pairs win doubles the value (4)",
            won(0, PAIRS),
            want(4, win(0), pairs_x2(0), value(0, 0, -4, -4, -4)),
        ),
        round_case(
            "score-round-seven-pairs-okey-discard-eight",
            "docs/rules.md §9.1 multipliers_combine (default true): seven pairs and an okey"
            " discard multiply, 2 x 2 x 2 = 8",
            won(3, PAIRS, okey=True),
            want(8, win(3), okey_x2(3), pairs_x2(3), value(3, -8, -8, -8, 0)),
        ),
        round_case(
            "score-round-multipliers-not-combined-four",
            "docs/rules.md §9.1 multipliers_combine false: only the largest multiplier applies,"
            " seven pairs with an okey discard is 4",
            won(3, PAIRS, okey=True),
            want(4, win(3), okey_x2(3), pairs_x2(3), largest_only(3), value(3, -4, -4, -4, 0)),
            largest,
        ),
        round_case(
            "score-round-multipliers-not-combined-one-double",
            "docs/rules.md §9.1 multipliers_combine false: a single double still doubles (4)",
            won(1, okey=True),
            want(4, win(1), okey_x2(1), value(1, -4, 0, -4, -4)),
            largest,
        ),
        round_case(
            "score-round-colour-double-any-yellow",
            "docs/rules.md §9.1 colour_double ANY: a one-colour winning hand (here yellow, judged"
            " from `hand`) doubles the value",
            won(2, hand=YELLOW_MELDS, indicator=OKEY_B8),
            want(4, win(2), colour_x2(2), value(2, -4, -4, 0, -4)),
            any_colour,
        ),
        round_case(
            "score-round-colour-double-red-or-black-yellow-no-double",
            "docs/rules.md §9.1 colour_double RED_OR_BLACK: an all-yellow hand does not double",
            won(2, hand=YELLOW_MELDS, indicator=OKEY_B8),
            want(2, win(2), value(2, -2, -2, 0, -2)),
            red_or_black,
        ),
        round_case(
            "score-round-colour-double-red-or-black-red",
            "docs/rules.md §9.1 colour_double RED_OR_BLACK: an all-red hand doubles",
            won(0, hand=RED_MELDS, indicator=OKEY_B8),
            want(4, win(0), colour_x2(0), value(0, 0, -4, -4, -4)),
            red_or_black,
        ),
        round_case(
            "score-round-colour-double-red-or-black-black",
            "docs/rules.md §9.1 colour_double RED_OR_BLACK: an all-black hand doubles",
            won(3, hand=BLACK_MELDS, indicator=OKEY_R8),
            want(4, win(3), colour_x2(3), value(3, -4, -4, -4, 0)),
            red_or_black,
        ),
        round_case(
            "score-round-colour-double-okey-does-not-count",
            "docs/rules.md §9.1: one colour is judged without the okeys (wild): red tiles and the"
            " okey B8 are one colour",
            won(1, hand=RED_WITH_OKEY, indicator=OKEY_B8),
            want(4, win(1), colour_x2(1), value(1, -4, 0, -4, -4)),
            any_colour,
        ),
        round_case(
            "score-round-colour-double-false-joker-okey-colour",
            "docs/rules.md §9.1: a false joker counts as the okey's colour: red tiles and a false"
            " joker with okey R8 are one colour",
            won(1, hand=RED_WITH_FALSE_JOKER, indicator=OKEY_R8),
            want(4, win(1), colour_x2(1), value(1, -4, 0, -4, -4)),
            any_colour,
        ),
        round_case(
            "score-round-colour-double-false-joker-other-colour",
            "docs/rules.md §9.1: a false joker counts as the okey's colour: with okey B8 it is"
            " blue, so red tiles and a false joker are two colours",
            won(1, hand=RED_AND_FALSE_JOKER_BLUE, indicator=OKEY_B8),
            want(2, win(1), value(1, -2, 0, -2, -2)),
            any_colour,
        ),
        round_case(
            "score-round-colour-double-seven-pairs-okey-discard-sixteen",
            "docs/rules.md §9.1: the three doubles multiply: one-colour seven pairs finished with"
            " the okey is 2 x 2 x 2 x 2 = 16",
            won(1, PAIRS, okey=True, hand=RED_PAIRS, discard="B8", indicator=OKEY_B8),
            want(16, win(1), okey_x2(1), pairs_x2(1), colour_x2(1), value(1, -16, 0, -16, -16)),
            any_colour,
        ),
        round_case(
            "score-round-colour-double-not-combined",
            "docs/rules.md §9.1 multipliers_combine false: one-colour seven pairs is still 4",
            won(2, PAIRS, hand=RED_PAIRS, indicator=OKEY_B8),
            want(4, win(2), pairs_x2(2), colour_x2(2), largest_only(2), value(2, -4, -4, 0, -4)),
            rules(colour_double=ColourDouble.ANY, multipliers_combine=False),
        ),
        round_case(
            "score-round-colour-double-one-colour-given",
            "scoring.proto RoundResult.one_colour: without a hand the colour given is taken",
            won(0, one_colour=Color.BLUE),
            want(4, win(0), colour_x2(0), value(0, 0, -4, -4, -4)),
            any_colour,
        ),
        round_case(
            "score-round-colour-double-red-or-black-blue-given",
            "docs/rules.md §9.1 colour_double RED_OR_BLACK: a blue hand does not double",
            won(0, one_colour=Color.BLUE),
            want(2, win(0), value(0, 0, -2, -2, -2)),
            red_or_black,
        ),
        round_case(
            "score-round-colour-double-off",
            "docs/rules.md §9.1 colour_double OFF (default): a one-colour hand scores 2",
            won(0, hand=YELLOW_MELDS, indicator=OKEY_B8),
            want(2, win(0), value(0, 0, -2, -2, -2)),
        ),
        round_case(
            "score-round-hand-judged-seven-pairs-claimed-as-melds",
            "docs/rules.md §9.1: a hand given with the result scores the best way it wins, as"
            " its finished state would: these tiles are two runs and seven pairs, claimed as"
            " melds, and score seven pairs (4)",
            won(1, MELDS, hand=RUNS_AND_PAIRS, indicator=OKEY_B8),
            want(4, win(1), pairs_x2(1), value(1, -4, 0, -4, -4)),
        ),
        round_case(
            "score-round-hand-judged-seven-pairs-okey-discard",
            "docs/rules.md §9.1: judged as seven pairs, the hand still doubles for its okey"
            " discard: 8",
            won(2, MELDS, okey=True, hand=RUNS_AND_PAIRS, discard="B8", indicator=OKEY_B8),
            want(8, win(2), okey_x2(2), pairs_x2(2), value(2, -8, -8, 0, -8)),
        ),
        round_case(
            "score-round-hand-and-discard-agree",
            "scoring.proto RoundResult: a hand and a discard that agree with what is claimed are"
            " scored as claimed (seven pairs, the okey discarded)",
            won(3, PAIRS, okey=True, hand=RED_PAIRS, discard="B8", indicator=OKEY_B8),
            want(8, win(3), okey_x2(3), pairs_x2(3), value(3, -8, -8, -8, 0)),
        ),
    ]


def gosterme_cases() -> list[Case]:
    """docs/rules.md §9.1: gösterme, 1 per opponent, in every round it is shown, every mode."""
    return [
        round_case(
            "score-round-gosterme-countdown",
            "docs/rules.md §9.1 COUNTDOWN: a gösterme costs each opponent of the claimant 1",
            won(1, MELDS, 2),
            want(2, win(1), value(1, -2, 0, -2, -2), gost(2, -1, -1, 0, -1)),
        ),
        round_case(
            "score-round-gosterme-by-the-winner",
            "docs/rules.md §9.1: the winner's own gösterme scores as well",
            won(1, MELDS, 1),
            want(2, win(1), value(1, -2, 0, -2, -2), gost(1, -1, 0, -1, -1)),
        ),
        round_case(
            "score-round-gosterme-two-claims-in-order-shown",
            "docs/rules.md §9.1: each gösterme scores, one line each in the order shown",
            won(0, MELDS, 3, 1),
            want(
                2, win(0), value(0, 0, -2, -2, -2), gost(3, -1, -1, -1, 0), gost(1, -1, 0, -1, -1)
            ),
        ),
        round_case(
            "score-round-gosterme-drawn-round",
            "docs/rules.md §9.1: gösterme scores in a drawn round too (it is shown at the start)",
            drawn(2),
            want(0, drawn_line(), gost(2, -1, -1, 0, -1)),
        ),
        round_case(
            "score-round-gosterme-target",
            "docs/rules.md §9.1, §9.2 TARGET: a gösterme gains the claimant 1",
            won(1, MELDS, 3),
            want(2, win(1), value(1, 0, 2, 0, 0), gost(3, 0, 0, 0, 1)),
            TARGET,
        ),
        round_case(
            "score-round-gosterme-target-drawn",
            "docs/rules.md §9.1, §9.2 TARGET: a drawn round scores only its gösterme",
            drawn(0),
            want(0, drawn_line(), gost(0, 1, 0, 0, 0)),
            TARGET,
        ),
        round_case(
            "score-round-gosterme-penalty",
            "docs/rules.md §9.1, §9.2 PENALTY: a gösterme gives each opponent 1 penalty point,"
            " whoever wins",
            won(1, MELDS, 3),
            want(2, win(1), value(1, 2, 0, 2, 2), gost(3, 1, 1, 1, 0)),
            PENALTY,
        ),
        round_case(
            "score-round-gosterme-zero-sum",
            "docs/rules.md §9.1, §9.2 ZERO_SUM: each opponent pays the claimant 1",
            won(1, MELDS, 3),
            want(2, win(1), value(1, -2, 6, -2, -2), gost(3, -1, -1, -1, 3)),
            ZERO_SUM,
        ),
        round_case(
            "score-round-gosterme-zero-sum-drawn",
            "docs/rules.md §9.1, §9.2 ZERO_SUM: a drawn round scores only its gösterme",
            drawn(2),
            want(0, drawn_line(), gost(2, -1, -1, 3, -1)),
            ZERO_SUM,
        ),
        round_case(
            "score-round-gosterme-partnership",
            "docs/rules.md §9.1, §9.2 partnership: a gösterme costs the other team 1",
            won(1, MELDS, 0),
            want(2, win(1), value(1, -2, 0, -2, 0), gost(0, 0, -1, 0, -1)),
            rules(partnership=True),
        ),
        round_case(
            "score-round-gosterme-scores-false",
            "ruleset.proto gosterme_scores false: a gösterme shown scores nothing",
            won(1, MELDS, 2),
            want(2, win(1), value(1, -2, 0, -2, -2)),
            rules(gosterme_scores=False),
        ),
    ]


def drawn_cases() -> list[Case]:
    """docs/rules.md §9.2: a drawn round scores nothing, except PENALTY's stall."""
    return [
        round_case(
            "score-round-drawn-countdown-nothing",
            "docs/rules.md §9.2 COUNTDOWN: a drawn round scores nothing; it counts as played",
            drawn(),
            want(0, drawn_line()),
            before=table(14, 20, 9, 12, rounds=3),
        ),
        round_case(
            "score-round-drawn-target-nothing",
            "docs/rules.md §9.2 TARGET: a drawn round scores nothing",
            drawn(),
            want(0, drawn_line()),
            TARGET,
            table(3, 8, 0, 12, rounds=4),
        ),
        round_case(
            "score-round-drawn-zero-sum-nothing",
            "docs/rules.md §9.2 ZERO_SUM: a drawn round scores nothing",
            drawn(),
            want(0, drawn_line()),
            ZERO_SUM,
            table(6, -2, 4, -8, rounds=2),
        ),
        round_case(
            "score-round-stall-penalty",
            "docs/rules.md §9.2 PENALTY: a stalled round (the wall ran out) costs everyone 1",
            drawn(),
            want(0, stall(1, 1, 1, 1)),
            PENALTY,
            table(4, 2, 6, 0, rounds=2),
        ),
        round_case(
            "score-round-stall-penalty-three-seats",
            "docs/rules.md §9.2 PENALTY: the stall costs each seat at the table 1",
            drawn(),
            want(0, stall(1, 1, 1)),
            PENALTY,
            players=3,
        ),
    ]


def mode_cases() -> list[Case]:
    """docs/rules.md §9.2: each table mode's scoring, end and winners."""
    cw1 = rules(countdown_winners=1)
    penalty3 = rules(scoring_mode=ScoringMode.PENALTY, game_rounds=3)
    return [
        round_case(
            "score-round-countdown-game-over-two-highest",
            "docs/rules.md §9.2 COUNTDOWN: the game ends when a score is at 0 or below; the two"
            " highest scores win",
            won(1, okey=True),
            want(4, win(1), okey_x2(1), value(1, -4, 0, -4, -4), over(), winners=(1, 3)),
            before=table(2, 10, 3, 12, rounds=5),
        ),
        round_case(
            "score-round-countdown-zero-ends",
            "docs/rules.md §9.2 COUNTDOWN: a score of exactly 0 ends the game",
            won(3),
            want(2, win(3), value(3, -2, -2, -2, 0), over(), winners=(1, 3)),
            before=table(2, 9, 5, 7, rounds=6),
        ),
        round_case(
            "score-round-countdown-not-over",
            "docs/rules.md §9.2 COUNTDOWN: while every score is above 0 the game goes on",
            won(3),
            want(2, win(3), value(3, -2, -2, -2, 0)),
            before=table(3, 9, 5, 7, rounds=6),
        ),
        round_case(
            "score-round-countdown-tied-with-second-win",
            "docs/rules.md §9.2 COUNTDOWN: seats tied with the last winner win too",
            won(1),
            want(2, win(1), value(1, -2, 0, -2, -2), over(), winners=(1, 2, 3)),
            before=table(2, 8, 6, 6, rounds=6),
        ),
        round_case(
            "score-round-countdown-three-seats-single-highest",
            "docs/rules.md §9.2 COUNTDOWN: never more winners than half the table: at three seats"
            " the single highest wins",
            won(1),
            want(2, win(1), value(1, -2, 0, -2), over(), winners=(1,)),
            before=table(2, 9, 8, rounds=5),
        ),
        round_case(
            "score-round-countdown-two-seats",
            "docs/rules.md §9.2 COUNTDOWN: at two seats the single highest wins",
            won(0),
            want(2, win(0), value(0, 0, -2), over(), winners=(0,)),
            before=table(9, 1, rounds=5),
        ),
        round_case(
            "score-round-countdown-ties-at-or-below-zero-win",
            "docs/rules.md §9.2 COUNTDOWN: ties count even at 0 or below: a win worth 4 from 20,"
            " 1, 1, 1 leaves 20, -3, -3, -3 and all four seats win",
            won(0, okey=True),
            want(4, win(0), okey_x2(0), value(0, 0, -4, -4, -4), over(), winners=(0, 1, 2, 3)),
            before=table(20, 1, 1, 1, rounds=4),
        ),
        round_case(
            "score-round-countdown-winners-one",
            "ruleset.proto countdown_winners 1: only the highest score wins",
            won(1, okey=True),
            want(4, win(1), okey_x2(1), value(1, -4, 0, -4, -4), over(), winners=(1,)),
            cw1,
            table(2, 10, 3, 12, rounds=5),
        ),
        round_case(
            "score-round-countdown-winners-one-tied",
            "docs/rules.md §9.2 COUNTDOWN: seats tied for the highest score all win",
            won(3),
            want(2, win(3), value(3, -2, -2, -2, 0), over(), winners=(1, 2)),
            cw1,
            table(1, 6, 6, 3, rounds=5),
        ),
        round_case(
            "score-round-countdown-start-points",
            "ruleset.proto start_points: the countdown starts from it (here 5) when no table is"
            " given",
            won(2, PAIRS),
            want(4, win(2), pairs_x2(2), value(2, -4, -4, 0, -4)),
            rules(start_points=5),
        ),
        round_case(
            "score-round-target-winner-gains",
            "docs/rules.md §9.2 TARGET: only the winner scores, gaining the value; start at 0",
            won(2),
            want(2, win(2), value(2, 0, 0, 2, 0)),
            TARGET,
        ),
        round_case(
            "score-round-target-reached-ends",
            "docs/rules.md §9.2 TARGET: the game ends when a score reaches target_points (21);"
            " the highest wins",
            won(0),
            want(2, win(0), value(0, 2, 0, 0, 0), over(), winners=(0,)),
            TARGET,
            table(19, 5, 0, 10, rounds=8),
        ),
        round_case(
            "score-round-target-points-option",
            "ruleset.proto target_points: a target of 7 is reached by 9",
            won(0, okey=True),
            want(4, win(0), okey_x2(0), value(0, 4, 0, 0, 0), over(), winners=(0,)),
            rules(scoring_mode=ScoringMode.TARGET, target_points=7),
            table(5, 6, 0, 1, rounds=3),
        ),
        round_case(
            "score-round-target-tie-all-win",
            "docs/rules.md §9.2 TARGET: seats tied at the highest score all win",
            won(1, MELDS, 0),
            want(2, win(1), value(1, 0, 2, 0, 0), gost(0, 1, 0, 0, 0), over(), winners=(0, 1)),
            TARGET,
            table(20, 19, 0, 0, rounds=9),
        ),
        round_case(
            "score-round-penalty-opponents-take-value",
            "docs/rules.md §9.2 PENALTY: the winner's opponents take the value as penalty points",
            won(1),
            want(2, win(1), value(1, 2, 0, 2, 2)),
            PENALTY,
        ),
        round_case(
            "score-round-penalty-no-end-by-score",
            "docs/rules.md §9.2 PENALTY: no score ends the game (only game_rounds does)",
            won(1, PAIRS),
            want(4, win(1), pairs_x2(1), value(1, 4, 0, 4, 4)),
            PENALTY,
            table(150, 90, 160, 140, rounds=50),
        ),
        round_case(
            "score-round-penalty-game-rounds-lowest-wins",
            "docs/rules.md §9.2 PENALTY: when game_rounds are played the lowest total wins",
            won(2),
            want(2, win(2), value(2, 2, 2, 0, 2), over(), winners=(2,)),
            penalty3,
            table(4, 6, 2, 8, rounds=2),
        ),
        round_case(
            "score-round-penalty-lowest-tied",
            "docs/rules.md §9.2 PENALTY: seats tied at the lowest total all win",
            won(0),
            want(2, win(0), value(0, 0, 2, 2, 2), over(), winners=(0, 2)),
            penalty3,
            table(4, 6, 2, 8, rounds=2),
        ),
        round_case(
            "score-round-zero-sum-normal-win",
            "docs/rules.md §9.2 ZERO_SUM: each opponent pays the winner 2: +6/-2 at four seats",
            won(1),
            want(2, win(1), value(1, -2, 6, -2, -2)),
            ZERO_SUM,
        ),
        round_case(
            "score-round-zero-sum-okey-discard",
            "docs/rules.md §9.2 ZERO_SUM: an okey discard: +12/-4",
            won(0, okey=True),
            want(4, win(0), okey_x2(0), value(0, 12, -4, -4, -4)),
            ZERO_SUM,
        ),
        round_case(
            "score-round-zero-sum-seven-pairs",
            "docs/rules.md §9.2 ZERO_SUM: seven pairs: +12/-4",
            won(2, PAIRS),
            want(4, win(2), pairs_x2(2), value(2, -4, -4, 12, -4)),
            ZERO_SUM,
        ),
        round_case(
            "score-round-zero-sum-three-seats",
            "docs/rules.md §9.2 ZERO_SUM: at three seats a win is +4/-2",
            won(0),
            want(2, win(0), value(0, 4, -2, -2)),
            ZERO_SUM,
            players=3,
        ),
        round_case(
            "score-round-zero-sum-two-seats",
            "docs/rules.md §9.2 ZERO_SUM: at two seats a win is +2/-2",
            won(1),
            want(2, win(1), value(1, -2, 2)),
            ZERO_SUM,
            players=2,
        ),
        round_case(
            "score-round-zero-sum-no-end-by-score",
            "docs/rules.md §9.2 ZERO_SUM: no score ends the game (only game_rounds does)",
            won(1),
            want(2, win(1), value(1, -2, 6, -2, -2)),
            ZERO_SUM,
            table(30, -10, -10, -10, rounds=10),
        ),
        round_case(
            "score-round-zero-sum-game-rounds-highest-wins",
            "docs/rules.md §9.2 ZERO_SUM: when game_rounds are played the highest total wins",
            won(0),
            want(2, win(0), value(0, 6, -2, -2, -2), over(), winners=(0,)),
            rules(scoring_mode=ScoringMode.ZERO_SUM, game_rounds=2),
            table(6, -2, -2, -2, rounds=1),
        ),
    ]


def table_cases() -> list[Case]:
    """docs/rules.md §9.2: elimination, partnership, game_rounds and kafa."""
    elim = rules(elimination=True)
    team = rules(partnership=True)
    with_kafa = rules(kafa=True)
    return [
        round_case(
            "score-round-elimination-seat-leaves",
            "docs/rules.md §9.2 elimination: a seat at 0 or below leaves the game; the rest play"
            " on",
            won(1),
            want(2, win(1), value(1, -2, 0, -2, -2), out(0), out=(0,)),
            elim,
            table(2, 10, 8, 6, rounds=6),
        ),
        round_case(
            "score-round-elimination-out-seat-pays-no-more",
            "docs/rules.md §9.2 elimination: a seat that has left pays neither a win nor a"
            " gösterme; its score stays",
            won(2, MELDS, 3),
            want(2, win(2), value(2, 0, -2, 0, -2), gost(3, 0, -1, -1, 0), out=(0,)),
            elim,
            table(-1, 10, 8, 6, rounds=7),
        ),
        round_case(
            "score-round-elimination-last-seat-wins",
            "docs/rules.md §9.2 elimination: the game is over when one seat is left, and it wins",
            won(3, okey=True),
            want(
                4,
                win(3),
                okey_x2(3),
                value(3, 0, -4, 0, 0),
                out(1),
                over(),
                winners=(3,),
                out=(0, 1, 2),
            ),
            elim,
            table(-1, 3, -2, 9, rounds=9),
        ),
        round_case(
            "score-round-elimination-last-out-together-highest-wins",
            "docs/rules.md §9.2 elimination: when the seats left all go out in one round the"
            " highest of them wins",
            won(1, MELDS, 2),
            want(
                2,
                win(1),
                value(1, 0, 0, -2, 0),
                gost(2, 0, -1, 0, 0),
                out(1),
                out(2),
                over(),
                winners=(1,),
                out=(0, 1, 2, 3),
            ),
            elim,
            table(-1, 1, 1, -3, rounds=9),
        ),
        round_case(
            "score-round-elimination-game-rounds-highest-still-in",
            "docs/rules.md §9.2 elimination: a game that game_rounds ends with several seats still"
            " in is won by the highest of them",
            won(1),
            want(2, win(1), value(1, 0, 0, -2, -2), over(), winners=(1,), out=(0,)),
            rules(elimination=True, game_rounds=2),
            table(-1, 12, 6, 9, rounds=1),
        ),
        round_case(
            "score-round-partnership-other-team-loses",
            "docs/rules.md §9.2 partnership: seats 0+2 and 1+3 share a score; the other team"
            " loses the value once",
            won(1),
            want(2, win(1), value(1, -2, 0, -2, 0)),
            team,
        ),
        round_case(
            "score-round-partnership-seven-pairs-seat-two",
            "docs/rules.md §9.2 partnership: seat 2 wins for seats 0 and 2",
            won(2, PAIRS),
            want(4, win(2), pairs_x2(2), value(2, 0, -4, 0, -4)),
            team,
            table(12, 16, 12, 16, rounds=2),
        ),
        round_case(
            "score-round-partnership-higher-team-wins",
            "docs/rules.md §9.2 partnership: the game ends when a team is at 0 or below; the"
            " higher team wins, both partners",
            won(1, okey=True),
            want(4, win(1), okey_x2(1), value(1, -4, 0, -4, 0), over(), winners=(1, 3)),
            team,
            table(3, 7, 3, 7, rounds=8),
        ),
        round_case(
            "score-round-game-rounds-ends-countdown",
            "docs/rules.md §9.2 game_rounds: the game ends after that many rounds whatever the"
            " scores; COUNTDOWN's two highest win",
            won(2),
            want(2, win(2), value(2, -2, -2, 0, -2), over(), winners=(1, 3)),
            rules(game_rounds=2),
            table(12, 16, 8, 14, rounds=1),
        ),
        round_case(
            "score-round-game-rounds-ends-target",
            "docs/rules.md §9.2 game_rounds: a TARGET game of one round ends after it",
            won(2),
            want(2, win(2), value(2, 0, 0, 2, 0), over(), winners=(2,)),
            rules(scoring_mode=ScoringMode.TARGET, game_rounds=1),
        ),
        round_case(
            "score-round-game-rounds-not-yet",
            "docs/rules.md §9.2 game_rounds: before the last round the game goes on",
            won(2),
            want(2, win(2), value(2, -2, -2, 0, -2)),
            rules(game_rounds=3),
            table(12, 16, 8, 14, rounds=1),
        ),
        round_case(
            "score-round-kafa-ends-the-game",
            "docs/rules.md §9.2 kafa: a kafa win ends the game at once and its winner wins; the"
            " round still scores its value (2)",
            won(0, KAFA),
            want(2, win(0), value(0, 0, -2, -2, -2), kafa(0), over(), winners=(0,)),
            with_kafa,
            table(12, 20, 16, 18, rounds=3),
        ),
        round_case(
            "score-round-kafa-colour-double",
            "docs/rules.md §9.2 kafa: a kafa hand is one colour, so the colour double applies (4)",
            won(2, KAFA, hand=RED_KAFA, indicator=OKEY_B8),
            want(4, win(2), colour_x2(2), value(2, -4, -4, 0, -4), kafa(2), over(), winners=(2,)),
            rules(kafa=True, colour_double=ColourDouble.ANY),
        ),
        round_case(
            "score-round-kafa-partnership-team-wins",
            "docs/rules.md §9.2 kafa: with partnership the kafa winner and partner win",
            won(3, KAFA),
            want(2, win(3), value(3, -2, 0, -2, 0), kafa(3), over(), winners=(1, 3)),
            rules(kafa=True, partnership=True),
        ),
        round_case(
            "score-round-kafa-target",
            "docs/rules.md §9.2 kafa: a kafa win ends a TARGET game too, far from the target",
            won(1, KAFA),
            want(2, win(1), value(1, 0, 2, 0, 0), kafa(1), over(), winners=(1,)),
            rules("okey.gg", kafa=True),
        ),
        round_case(
            "score-round-kafa-hand-claimed-as-melds-is-kafa",
            "docs/rules.md §9.1, §9.2 kafa: a kafa hand also wins as melds; claimed so with its"
            " tiles given, it is judged from them and scored as kafa, as its finished state"
            " would be: the game is won at once",
            won(0, MELDS, hand=RED_KAFA, indicator=OKEY_B8),
            want(2, win(0), value(0, 0, -2, -2, -2), kafa(0), over(), winners=(0,)),
            with_kafa,
        ),
        round_case(
            "score-round-kafa-hand-claimed-as-melds-without-kafa",
            "docs/rules.md §4.3, §9.1: under rules without kafa a kafa hand wins as melds only,"
            " and is scored so",
            won(0, MELDS, hand=RED_KAFA, indicator=OKEY_B8),
            want(2, win(0), value(0, 0, -2, -2, -2)),
        ),
    ]


def preset_cases() -> list[Case]:
    """docs/rules.md §9.3: each preset's table, its ruleset written out in the answer."""
    return [
        round_case(
            "score-round-preset-classic",
            "docs/rules.md §9.3 classic: countdown from 20, the two highest win, gösterme scores",
            won(1, MELDS, 2),
            want(2, win(1), value(1, -2, 0, -2, -2), gost(2, -1, -1, 0, -1)),
            rules("classic"),
            pin_ruleset=preset_ruleset(),
        ),
        round_case(
            "score-round-preset-tournament",
            "docs/rules.md §9.3 tournament: countdown from 20, gösterme does not score, the single"
            " highest wins",
            won(1, MELDS, 2, okey=True),
            want(4, win(1), okey_x2(1), value(1, -4, 0, -4, -4), over(), winners=(1,)),
            rules("tournament"),
            table(2, 10, 3, 12, rounds=7),
            pin_ruleset=preset_ruleset(gosterme_scores=False, countdown_winners=1),
        ),
        round_case(
            "score-round-preset-points-limit",
            "docs/rules.md §9.3 points-limit: a countdown from the points limit (20 unless set),"
            " gösterme in the first turn",
            won(0),
            want(2, win(0), value(0, 0, -2, -2, -2)),
            rules("points-limit"),
            pin_ruleset=preset_ruleset(gosterme_in_first_turn=True, must_show_win=False),
        ),
        round_case(
            "score-round-preset-points-limit-eleven",
            "docs/rules.md §9.3 points-limit: the limit is settable 5-21 (here 11); gösterme"
            " scores 1 per opponent",
            won(1, PAIRS, 0),
            want(4, win(1), pairs_x2(1), value(1, -4, 0, -4, -4), gost(0, 0, -1, -1, -1)),
            rules("points-limit", start_points=11),
            pin_ruleset=preset_ruleset(
                gosterme_in_first_turn=True, start_points=11, must_show_win=False
            ),
        ),
        round_case(
            "score-round-preset-okey-gg",
            "docs/rules.md §9.3 okey.gg: the winner scores towards 21, kafa off, timer 45 s;"
            " no gösterme is played (§8.3), so the one listed scores nothing",
            won(1, MELDS, 2),
            want(2, win(1), value(1, 0, 2, 0, 0), over(), winners=(1,)),
            rules("okey.gg"),
            table(15, 20, 3, 0, rounds=9),
            pin_ruleset=preset_ruleset("TARGET", gosterme_played=False, must_show_win=False),
        ),
        round_case(
            "score-round-preset-penalty",
            "docs/rules.md §9.3 penalty: penalties accumulate from 0; a stall costs everyone 1,"
            " a gösterme each opponent 1",
            drawn(3),
            want(0, stall(1, 1, 1, 1), gost(3, 1, 1, 1, 0)),
            rules("penalty"),
            table(3, 0, 5, 2, rounds=4),
            pin_ruleset=preset_ruleset("PENALTY", must_show_win=False),
        ),
    ]


def round_error_cases() -> list[Case]:
    """docs/rules.md §9 (input refused): INVALID_ARGUMENT naming the field at fault."""
    elim = rules(elimination=True)
    errors = [
        round_error(
            "score-round-winner-seat-out-of-range",
            "docs/rules.md §9.2: a winner seat the table does not have is refused",
            won(4),
            "round.result.winner_seat",
        ),
        round_error(
            "score-round-winner-seat-out-of-range-three-seats",
            "docs/rules.md §9.2: at three seats, seat 3 does not exist",
            won(3),
            "round.result.winner_seat",
            players=3,
        ),
        round_error(
            "score-round-gosterme-seat-out-of-range",
            "docs/rules.md §9.2: a gösterme by a seat the table does not have is refused",
            won(1, MELDS, 4),
            "round.result.gosterme_seats",
        ),
        round_error(
            "score-round-gosterme-twice",
            "docs/rules.md §8.3, §9.2: a seat shows gösterme once a round",
            won(1, MELDS, 2, 2),
            "round.result.gosterme_seats",
        ),
        round_error(
            "score-round-winner-eliminated",
            "docs/rules.md §9.2 elimination: a seat that has left cannot win",
            won(0),
            "round.result.winner_seat",
            elim,
            table(-1, 10, 8, 6, rounds=7),
        ),
        round_error(
            "score-round-gosterme-eliminated",
            "docs/rules.md §9.2 elimination: a seat that has left cannot show gösterme",
            won(1, MELDS, 0),
            "round.result.gosterme_seats",
            elim,
            table(-1, 10, 8, 6, rounds=7),
        ),
        round_error(
            "score-round-drawn-with-win-fields",
            "scoring.proto RoundResult.drawn: a drawn round has no winner: no win kind",
            Result(drawn=True, kind=MELDS),
            "round.result.drawn",
        ),
        round_error(
            "score-round-won-without-win-kind",
            "scoring.proto RoundResult.win_kind: required unless drawn",
            Result(winner=1),
            "round.result.win_kind",
        ),
        round_error(
            "score-round-win-kind-contradicts-hand",
            "scoring.proto RoundResult.hand: a hand that wins as melds is not seven pairs",
            won(1, PAIRS, hand=YELLOW_MELDS, indicator=OKEY_B8),
            "round.result.win_kind",
        ),
        round_error(
            "score-round-hand-not-winning",
            "scoring.proto RoundResult.hand: the winner's 14 tiles must form a winning hand",
            won(1, hand=NOT_WINNING, indicator=OKEY_B8),
            "round.result.hand",
        ),
        round_error(
            "score-round-hand-without-indicator",
            "scoring.proto RoundResult.indicator: required with `hand`",
            won(1, hand=YELLOW_MELDS),
            "round.result.indicator",
        ),
        round_error(
            "score-round-okey-discard-contradicts-discard",
            "scoring.proto RoundResult.discard: okey_discard with a discard that is no okey",
            won(1, okey=True, discard="Y3", indicator=OKEY_B8),
            "round.result.okey_discard",
        ),
        round_error(
            "score-round-okey-discard-unclaimed",
            "scoring.proto RoundResult.discard: the discard is the okey but okey_discard says no",
            won(1, discard="B8", indicator=OKEY_B8),
            "round.result.okey_discard",
        ),
        round_error(
            "score-round-one-colour-contradicts-hand",
            "scoring.proto RoundResult.one_colour: red claimed for an all-yellow hand",
            won(1, hand=YELLOW_MELDS, indicator=OKEY_B8, one_colour=Color.RED),
            "round.result.one_colour",
            rules(colour_double=ColourDouble.ANY),
        ),
        round_error(
            "score-round-kafa-without-kafa-rules",
            "docs/rules.md §9.2 kafa: a kafa win under rules without kafa is refused",
            won(1, KAFA),
            "round.result.win_kind",
        ),
        round_error(
            "score-round-table-wrong-count",
            "scoring.proto TableScores.scores: one score per seat",
            won(1),
            "table.scores",
            before=table(20, 20, 20),
            players=4,
        ),
        round_error(
            "score-round-countdown-score-above-start",
            "docs/rules.md §9.2 COUNTDOWN: a score above the start is refused",
            won(1),
            "table.scores",
            before=table(20, 21, 20, 20, rounds=1),
        ),
        round_error(
            "score-round-countdown-score-above-start-points",
            "docs/rules.md §9.2 COUNTDOWN: with start_points 10, 12 is refused",
            won(1),
            "table.scores",
            rules(start_points=10),
            table(10, 12, 9, 8, rounds=1),
        ),
        round_error(
            "score-round-penalty-score-negative",
            "docs/rules.md §9.2 PENALTY: penalties start at 0 and only grow",
            won(1),
            "table.scores",
            PENALTY,
            table(0, -1, 3, 2, rounds=2),
        ),
        round_error(
            "score-round-target-score-negative",
            "docs/rules.md §9.2 TARGET: scores start at 0 and only grow",
            won(1),
            "table.scores",
            TARGET,
            table(0, 0, -2, 1, rounds=2),
        ),
        round_error(
            "score-round-partners-differ",
            "docs/rules.md §9.2 partnership: partners (seats 0 and 2) hold the same score",
            won(1),
            "table.scores",
            rules(partnership=True),
            table(20, 18, 19, 18, rounds=1),
        ),
        round_error(
            "score-round-zero-sum-not-zero",
            "docs/rules.md §9.2 ZERO_SUM: the scores add up to 0",
            won(1),
            "table.scores",
            ZERO_SUM,
            table(6, -2, -2, 0, rounds=1),
        ),
        round_error(
            "score-round-countdown-game-already-over",
            "docs/rules.md §9.2 COUNTDOWN: a table with a score at 0 is a game already over",
            won(1),
            "table",
            before=table(0, 10, 4, 6, rounds=8),
        ),
        round_error(
            "score-round-target-game-already-over",
            "docs/rules.md §9.2 TARGET: a table with a score at the target is a game already over",
            won(1),
            "table",
            TARGET,
            table(21, 3, 0, 0, rounds=8),
        ),
        round_error(
            "score-round-elimination-game-already-over",
            "docs/rules.md §9.2 elimination: a table with one seat left is a game already over",
            won(2),
            "table",
            elim,
            table(-1, -3, 5, -2, rounds=8),
        ),
        round_error(
            "score-round-game-rounds-already-played",
            "docs/rules.md §9.2 game_rounds: a game of 3 rounds with 3 played is over",
            won(1),
            "table.rounds_played",
            rules(game_rounds=3),
            table(12, 16, 8, 14, rounds=3),
        ),
        round_error(
            "score-round-start-points-too-low",
            "ruleset.proto start_points: 5-21",
            won(1),
            "ruleset.start_points",
            rules(start_points=4),
        ),
        round_error(
            "score-round-start-points-too-high",
            "ruleset.proto start_points: 5-21",
            won(1),
            "ruleset.start_points",
            rules(start_points=22),
        ),
        round_error(
            "score-round-target-points-too-low",
            "ruleset.proto target_points: 7-31",
            won(1),
            "ruleset.target_points",
            rules(scoring_mode=ScoringMode.TARGET, target_points=6),
        ),
        round_error(
            "score-round-target-points-too-high",
            "ruleset.proto target_points: 7-31",
            won(1),
            "ruleset.target_points",
            rules(scoring_mode=ScoringMode.TARGET, target_points=32),
        ),
        round_error(
            "score-round-countdown-winners-zero",
            "ruleset.proto countdown_winners: 1 or 2",
            won(1),
            "ruleset.countdown_winners",
            rules(countdown_winners=0),
        ),
        round_error(
            "score-round-countdown-winners-three",
            "ruleset.proto countdown_winners: 1 or 2",
            won(1),
            "ruleset.countdown_winners",
            rules(countdown_winners=3),
        ),
        round_error(
            "score-round-game-rounds-too-many",
            "ruleset.proto game_rounds: 1-99, or 0 for none",
            won(1),
            "ruleset.game_rounds",
            rules(game_rounds=100),
        ),
        round_error(
            "score-round-elimination-outside-countdown",
            "ruleset.proto elimination: a rule of the COUNTDOWN mode only",
            won(1),
            "ruleset.elimination",
            rules(scoring_mode=ScoringMode.TARGET, elimination=True),
        ),
        round_error(
            "score-round-partnership-outside-countdown",
            "ruleset.proto partnership: a rule of the COUNTDOWN mode only",
            won(1),
            "ruleset.partnership",
            rules(scoring_mode=ScoringMode.PENALTY, partnership=True),
        ),
        round_error(
            "score-round-elimination-with-partnership",
            "docs/rules.md §9.2: elimination and partnership do not go together",
            won(1),
            "ruleset.elimination",
            rules(elimination=True, partnership=True),
        ),
        round_error(
            "score-round-partnership-three-seats",
            "ruleset.proto partnership: four players only",
            won(1),
            "player_count",
            rules(partnership=True),
            players=3,
        ),
        round_error(
            "score-round-five-seats",
            "scoring.proto ScoreRoundRequest.player_count: 2-4 seats",
            won(1),
            "player_count",
            players=5,
        ),
        round_error(
            "score-round-five-scores",
            "scoring.proto ScoreRoundRequest.player_count: unset, the table has as many seats as"
            " scores; five scores are no classic table, and the scores are named",
            won(1),
            "table.scores",
            before=table(20, 20, 20, 20, 20),
        ),
        round_error(
            "score-round-one-score",
            "scoring.proto ScoreRoundRequest.player_count: unset, one score is a table of one",
            won(0),
            "table.scores",
            before=table(20),
        ),
        round_error(
            "score-round-one-seat",
            "scoring.proto ScoreRoundRequest.player_count: 2-4 seats",
            won(0),
            "player_count",
            players=1,
        ),
        round_error(
            "score-round-preset-101-not-scorable",
            "scoring.proto ScoringService: Okey 101 rounds are not scored yet",
            won(1),
            "ruleset.game",
            rules("101"),
        ),
        round_error(
            "score-round-game-okey-101-not-scorable",
            "scoring.proto ScoringService: Okey 101 rounds are not scored yet",
            won(1),
            "ruleset.game",
            rules(game=Game.OKEY_101),
        ),
        round_error(
            "score-round-unknown-preset",
            "scoring.proto ScoreRoundRequest.preset: a preset the server does not know",
            won(1),
            "preset",
            rules("no-such-table"),
        ),
    ]
    # Refusals of the message form, where the engine has no word to check against.
    errors += [
        error_case(
            "score-round-missing",
            "scoring.proto ScoreRoundRequest.round: the round is required",
            {"table": {"scores": [20, 20, 20, 20]}},
            "round",
        ),
        error_case(
            "score-round-rounds-played-without-scores",
            "scoring.proto TableScores: rounds played leave scores; give them",
            {"round": {"result": won(1).json()}, "table": {"roundsPlayed": 2}},
            "table.scores",
        ),
        error_case(
            "score-round-win-kind-unknown-value",
            "scoring.proto RoundResult.win_kind: an unknown enum value is refused",
            {"round": {"result": {"winnerSeat": 1, "winKind": 9}}},
            "round.result.win_kind",
        ),
        error_case(
            "score-round-one-colour-unknown-value",
            "scoring.proto RoundResult.one_colour: an unknown colour value is refused",
            {"round": {"result": {"winnerSeat": 1, "winKind": "WIN_KIND_MELDS", "oneColour": 9}}},
            "round.result.one_colour",
        ),
        error_case(
            "score-round-scoring-mode-unknown-value",
            "ruleset.proto scoring_mode: an unknown enum value is refused",
            {"ruleset": {"scoringMode": 9}, "round": {"result": won(1).json()}},
            "ruleset.scoring_mode",
        ),
        error_case(
            "score-round-indicator-false-joker",
            "docs/rules.md §2: a false joker is never the indicator",
            {"round": {"result": won(1, hand=YELLOW_MELDS, indicator="F").json()}},
            "round.result.indicator",
        ),
        error_case(
            "score-round-hand-thirteen-tiles",
            "scoring.proto RoundResult.hand: the winner's 14 tiles",
            {"round": {"result": won(1, hand=YELLOW_MELDS[3:], indicator=OKEY_B8).json()}},
            "round.result.hand",
        ),
    ]
    return errors


# --- cases: ScoreRound from finished states ----------------------------------------------

# A finished state no server issued: a token sealed under key id 0, which no server's key
# has but one in 2^32 (a sealed state: version byte 1, a 4-byte key id, AES-SIV).
FORGED_STATE = base64.b64encode(bytes([1]) + bytes(4) + bytes(40)).decode("ascii")

# Seeds with a property worth a vector, found by `--search` (each property is asserted
# again when the vectors are built, so a changed deal fails loudly).
SEED_THREE = "three-seats-0"  # 3 seats, dealer 0: state seat 2 shows gösterme and wins
SEED_DEALER_THREE = "dealer-three-79"  # 4 seats, dealer 3: a seven-pairs win


@dataclass(frozen=True)
class Dealt:
    """A seeded DealRequest (with the table's rules) and a move log from it."""

    seed: str
    players: int = 4
    dealer: int = 0
    round: int = 0
    now_ms: int | None = None
    rules: Rules = CLASSIC
    log: tuple[Any, ...] = field(default=(), repr=False)

    def deal_json(self) -> Json:
        g = game_vectors()
        data: Json = {"seed": self.seed, "playerCount": self.players, "dealerSeat": self.dealer}
        data |= self.rules.request()
        if self.round:
            data["round"] = self.round
        if self.now_ms is not None:
            data["now"] = g.timestamp(self.now_ms)
        return data

    def given_state(self) -> Json:
        g = game_vectors()
        return {"deal": self.deal_json(), "moves": [g.logged_json(m) for m in self.log]}

    def state(self) -> GameState:
        """As a server deals the request (docs/dealing.md) and replays the log."""
        dealt = deal(self.rules.engine(), self.players, self.dealer, seed=self.seed)
        start = start_round(
            dealt,
            deal_id=seeded_deal_id(game_vectors().DEAL_ID_KEY, self.seed),
            round_number=self.round or 1,
            now_ms=self.now_ms,
        )
        result = replay(start, self.log)
        assert result.legal, f"{self.seed}: move {result.illegal_index}: {result.reason}"
        assert result.state is not None
        return result.state

    def under(self, r: Rules) -> Dealt:
        return Dealt(self.seed, self.players, self.dealer, self.round, self.now_ms, r, self.log)


@dataclass(frozen=True)
class Finished:
    """What the round's outcome must be for the hand-worked numbers to hold (state seats)."""

    drawn: bool
    winner: int = 0
    kind: WinKind | None = None
    okey_discard: bool = False
    gosterme: tuple[int, ...] = ()

    def check(self, state: GameState) -> None:
        outcome = state.outcome
        assert state.phase is Phase.ROUND_OVER
        assert outcome is not None
        got = Finished(
            outcome.drawn,
            0 if outcome.drawn else outcome.winner,
            outcome.kind,
            outcome.okey_discard,
            tuple(seat for seat, _ in outcome.gosterme),
        )
        assert got == self, f"the round ended otherwise: {got}"


def greedy(seed: str, players: int = 4, dealer: int = 0) -> tuple[Any, ...]:
    """A whole round by the GameService vectors' greedy player (untimed)."""
    g = game_vectors()
    return tuple(g.greedy_log(g.Table(seed, players=players, dealer=dealer)))


@dataclass(frozen=True)
class Rounds:
    """The finished (and one unfinished) rounds the state cases start from."""

    won: Dealt  # dealer 0, round 1: seat 3 shows gösterme and wins with melds
    drawn: Dealt  # a timed round to an empty wall: seat 0 shows gösterme
    three: Dealt  # three seats of an elimination table, dealer 0, round 6
    dealer_three: Dealt  # dealer 3, round 7: seat 3 wins with seven pairs, seat 1 shows
    unfinished: Dealt


def finished_rounds() -> Rounds:
    g = game_vectors()
    p = g.positions()
    won = Dealt(g.SEED_WIN, log=p.won.log)
    drawn_round = Dealt(g.SEED_DRAWN, now_ms=g.T0_MS, log=p.ended.log)
    three = Dealt(
        SEED_THREE, players=3, round=6, rules=rules(elimination=True), log=greedy(SEED_THREE, 3)
    )
    dealer_three = Dealt(SEED_DEALER_THREE, dealer=3, round=7, log=greedy(SEED_DEALER_THREE, 4, 3))
    return Rounds(
        won=won,
        drawn=drawn_round,
        three=three,
        dealer_three=dealer_three,
        unfinished=Dealt(g.SEED_WIN, log=p.won.log[:10]),
    )


WON_FACTS = Finished(False, 3, MELDS, False, (3,))


def without_gosterme(dealt: Dealt) -> Dealt:
    """The round's log without its gösterme moves, for a table that plays none (§8.3)."""
    log = tuple(m for m in dealt.log if m[0].kind is not MoveKind.GOSTERME)
    assert len(log) < len(dealt.log), "the round shows a gösterme"
    return Dealt(dealt.seed, dealt.players, dealt.dealer, dealt.round, dealt.now_ms,
                 dealt.rules, log)
DRAWN_FACTS = Finished(True, gosterme=(0,))


def state_case(
    name: str,
    reason: str,
    dealt: Dealt,
    facts: Finished,
    w: Want,
    *,
    before: Table | None = None,
) -> Case:
    state = dealt.state()
    facts.check(state)
    engine_rules = state.rules
    count = len(before.scores) if before is not None else state.player_count
    seats = seats_in_game(engine_rules, before) if before is not None else list(range(count))
    assert state.outcome is not None
    result = result_of_outcome(state.outcome, state, seats)
    scored = score_round(engine_rules, count, before, result)
    start = before if before is not None else start_table(engine_rules, count)
    mine = expected(start, w)
    agree(name, mine, of_engine(scored))
    dealer, number = (0, 0)
    if not scored.game_over:
        dealer = next_dealer(engine_rules, state.dealer, start, scored.table)
        number = state.round + 1
    assert (w.next_dealer or 0, w.next_round or 0) == (dealer, number), (name, dealer, number)
    response = mine.json() | {"nextDealerSeat": dealer, "nextRound": number}
    request: Json = {"round": {}}
    if before is not None:
        request["table"] = table_json(before)
    return _case(name, reason, request, response, dealt.given_state())


def state_cases() -> list[Case]:
    r = finished_rounds()
    won, drawn_round = r.won, r.drawn
    return [
        state_case(
            "score-round-state-won",
            "docs/rules.md §9.4: a finished state scores as its outcome says (seat 3 won with"
            " melds after its gösterme); the next deal: the dealer's next seat, round + 1",
            won,
            WON_FACTS,
            want(2, win(3), value(3, -2, -2, -2, 0), gost(3, -1, -1, -1, 0), next_deal=(1, 2)),
        ),
        state_case(
            "score-round-state-drawn",
            "docs/rules.md §9.1, §9.4: a drawn round's state scores only its gösterme",
            drawn_round,
            DRAWN_FACTS,
            want(0, drawn_line(), gost(0, 0, -1, -1, -1), next_deal=(1, 2)),
        ),
        state_case(
            "score-round-state-ends-the-game",
            "docs/rules.md §9.4: once the game is over no next deal is given",
            won,
            WON_FACTS,
            want(
                2, win(3), value(3, -2, -2, -2, 0), gost(3, -1, -1, -1, 0), over(), winners=(1, 2)
            ),
            before=table(2, 9, 12, 1, rounds=6),
        ),
        state_case(
            "score-round-state-penalty-deal",
            "docs/rules.md §9.3 penalty: a state carries the rules it was dealt under; its stall"
            " and gösterme are penalty points",
            drawn_round.under(rules("penalty")),
            DRAWN_FACTS,
            want(0, stall(1, 1, 1, 1), gost(0, 0, 1, 1, 1), next_deal=(1, 2)),
        ),
        state_case(
            "score-round-state-tournament-deal",
            "docs/rules.md §9.3 tournament: dealt under the tournament preset, gösterme does not"
            " score",
            won.under(rules("tournament")),
            WON_FACTS,
            want(2, win(3), value(3, -2, -2, -2, 0), next_deal=(1, 2)),
        ),
        state_case(
            "score-round-state-okey-gg-deal",
            "docs/rules.md §8.3, §9.3 okey.gg: dealt under okey.gg, which plays no gösterme (the"
            " won round's log without its gösterme), the winner gains its value",
            without_gosterme(won).under(rules("okey.gg")),
            Finished(False, 3, MELDS, False, ()),
            want(2, win(3), value(3, 0, 0, 0, 2), next_deal=(1, 2)),
        ),
        state_case(
            "score-round-state-partnership-deal",
            "docs/rules.md §9.2 partnership: dealt with partnership, the other team pays",
            won.under(rules(partnership=True)),
            WON_FACTS,
            want(2, win(3), value(3, -2, 0, -2, 0), gost(3, -1, 0, -1, 0), next_deal=(1, 2)),
        ),
        state_case(
            "score-round-state-elimination-three-seats",
            "docs/rules.md §9.4: with seat 1 out the deal has three seats (table seats 0, 2, 3);"
            " seat 2 goes out; the next dealer after table seat 0 is table seat 3, deal seat 1",
            r.three,
            Finished(False, 2, MELDS, False, (2,)),
            want(
                2,
                win(3),
                value(3, -2, 0, -2, 0),
                gost(3, -1, 0, -1, 0),
                out(2),
                out=(1, 2),
                next_deal=(1, 7),
            ),
            before=table(6, -1, 2, 9, rounds=5),
        ),
        state_case(
            "score-round-state-dealer-leaves",
            "docs/rules.md §9.4: seats that left are skipped even when this round's dealer (table"
            " seat 0) has just left itself: table seat 2 deals next, seat 0 of the two-seat deal",
            r.three,
            Finished(False, 2, MELDS, False, (2,)),
            want(
                2,
                win(3),
                value(3, -2, 0, -2, 0),
                gost(3, -1, 0, -1, 0),
                out(0),
                out=(0, 1),
                next_deal=(0, 7),
            ),
            before=table(2, -1, 6, 9, rounds=5),
        ),
        state_case(
            "score-round-state-dealer-wraps",
            "docs/rules.md §9.4: after dealer 3 the next dealer is seat 0; round 7 is followed by"
            " round 8",
            r.dealer_three,
            Finished(False, 3, PAIRS, False, (1,)),
            want(
                4,
                win(3),
                pairs_x2(3),
                value(3, -4, -4, -4, 0),
                gost(1, -1, 0, -1, -1),
                next_deal=(0, 8),
            ),
        ),
        error_case(
            "score-round-state-not-finished",
            "scoring.proto RoundInput.state: a state whose round is not over is refused",
            {"round": {}},
            "round.state",
            given=r.unfinished.given_state(),
        ),
        error_case(
            "score-round-state-with-preset",
            "scoring.proto ScoreRoundRequest.preset: must be unset with a state",
            {"preset": "classic", "round": {}},
            "preset",
            given=won.given_state(),
        ),
        error_case(
            "score-round-state-with-ruleset",
            "scoring.proto ScoreRoundRequest.ruleset: must be unset with a state",
            {"ruleset": {"kafa": True}, "round": {}},
            "ruleset",
            given=won.given_state(),
        ),
        error_case(
            "score-round-state-seats-not-the-tables",
            "scoring.proto RoundInput.state: its seats are the table's seats still in the game"
            " (three dealt, four in the game)",
            {"round": {}, "table": table_json(table(6, 3, 2, 9, rounds=5))},
            "round.state",
            given=r.three.given_state(),
        ),
        error_case(
            "score-round-state-more-seats-than-the-tables-scores",
            "docs/rules.md §9.4: a state dealt to four seats beside three scores (player_count"
            " unset): no table of three holds that round, so the scores are refused",
            {"round": {}, "table": table_json(table(20, 18, 20, rounds=1))},
            "table.scores",
            given=won.given_state(),
        ),
        error_case(
            "score-round-state-more-seats-than-player-count",
            "docs/rules.md §9.4: a state dealt to four seats at a table of player_count 3: the"
            " table's size is refused",
            {"playerCount": 3, "round": {}},
            "player_count",
            given=won.given_state(),
        ),
        error_case(
            "score-round-state-seats-not-the-tables-at-the-start",
            "docs/rules.md §9.4: at the game's start of a four-seat table every seat is in, so a"
            " state dealt to three is refused",
            {"playerCount": 4, "round": {}},
            "round.state",
            given=r.three.given_state(),
        ),
        error_case(
            "score-round-state-under-an-unknown-key",
            "errors.proto ERROR_REASON_UNKNOWN_KEY: a state sealed under a key the server does"
            " not hold is refused on round.state",
            {"round": {"state": FORGED_STATE}},
            "round.state",
            why="ERROR_REASON_UNKNOWN_KEY",
        ),
    ]


# --- cases: ScoreGame ----------------------------------------------------------------------


@dataclass(frozen=True)
class GameRound:
    """A round of a game, its expected changes by hand, and the game's end if it ends."""

    result: Result
    deltas: tuple[int, ...]
    value: int
    winners: tuple[int, ...] | None = None
    out: tuple[int, ...] = ()


def rnd(
    result: Result,
    value: int,
    *deltas: int,
    winners: Sequence[int] | None = None,
    out: Sequence[int] = (),
) -> GameRound:
    return GameRound(result, deltas, value, None if winners is None else tuple(winners), tuple(out))


def game_request(rounds: Sequence[Result], r: Rules, players: int | None) -> Json:
    request = r.request()
    if players:
        request["playerCount"] = players
    request["rounds"] = [{"result": result.json()} for result in rounds]
    return request


def _without_lines(answer: Expected) -> Expected:
    """ScoreGame vectors pin each round's numbers; the ScoreRound vectors pin the lines."""
    return Expected(
        answer.deltas,
        answer.table,
        answer.value,
        (),
        answer.game_over,
        answer.winners,
        answer.eliminated,
    )


def game_case(
    name: str,
    reason: str,
    rounds: Sequence[GameRound],
    r: Rules = CLASSIC,
    players: int | None = None,
    *,
    pin_ruleset: Json | None = None,
) -> Case:
    """Each round's changes by hand; the running table is their sum (arithmetic)."""
    engine_rules = r.engine()
    count = players or PLAYERS
    table_now = start_table(engine_rules, count)
    answers = []
    last: Expected | None = None
    for index, game_round in enumerate(rounds):
        deltas = game_round.deltas
        assert len(deltas) == count, (name, index)
        scores = tuple(a + b for a, b in zip(table_now.scores, deltas, strict=True))
        mine = Expected(
            deltas,
            Table(scores, index + 1),
            game_round.value,
            (),
            game_round.winners is not None,
            game_round.winners or (),
            tuple(seat in game_round.out for seat in range(count)),
        )
        where = f"rounds[{index}].result"
        scored = score_round(
            engine_rules,
            count,
            None if index == 0 else table_now,
            game_round.result.engine(engine_rules, where),
            field=where,
        )
        agree(f"{name} round {index}", mine, _without_lines(of_engine(scored)))
        answer = mine.json()
        del answer["lines"]
        if pin_ruleset is not None:
            answer = {"ruleset": pin_ruleset, **answer}
        answers.append(answer)
        table_now, last = mine.table, mine
    assert last is not None
    assert last.game_over == (rounds[-1].winners is not None)
    response = {
        "rounds": answers,
        "table": {"scores": list(last.table.scores), "roundsPlayed": last.table.rounds_played},
        "gameOver": last.game_over,
        "winnerSeats": list(last.winners),
    }
    request = game_request([g.result for g in rounds], r, players)
    return _case(name, reason, request, response)


def game_error(
    name: str,
    reason: str,
    rounds: Sequence[Result],
    field_path: str,
    r: Rules = CLASSIC,
    *,
    players: int | None = None,
) -> Case:
    """A game the engine refuses, naming `field_path` (rounds[i]... as the request has it)."""
    refused = None
    try:
        engine_rules = r.engine()
        check_scorable(engine_rules)
        count = players or PLAYERS
        table_now: Table | None = None
        ended = False
        for index, result in enumerate(rounds):
            if ended:
                raise InvalidInputError(f"rounds[{index}]", "the game has ended")
            where = f"rounds[{index}].result"
            scored = score_round(
                engine_rules, count, table_now, result.engine(engine_rules, where), field=where
            )
            table_now, ended = scored.table, scored.game_over
    except InvalidInputError as error:
        refused = error.field
    assert refused is not None, f"{name}: not refused"
    request = game_request(rounds, r, players)
    return error_case(name, reason, request, field_path, refused_by=refused)


CLASSIC_GAME = (
    rnd(won(1, PAIRS, okey=True), 8, -8, 0, -8, -8),
    rnd(won(2, PAIRS, 0), 4, -4, -5, -1, -5),
    rnd(drawn(3), 0, -1, -1, -1, 0),
    rnd(won(3, okey=True), 4, -4, -4, -4, 0),
    rnd(won(1), 2, -2, 0, -2, -2),
    rnd(won(2, PAIRS), 4, -4, -4, 0, -4, winners=(1, 2)),
)  # 20 -> 12 20 12 12 -> 8 15 11 7 -> 7 14 10 7 -> 3 10 6 7 -> 1 10 4 5 -> -3 6 4 1

KAFA_GAME = (
    rnd(won(2, okey=True), 4, -4, -4, 0, -4),
    rnd(won(1, KAFA), 2, -2, 0, -2, -2, winners=(1,)),
)  # 16 16 20 16 -> 14 16 18 14: kafa, seat 1 wins though seat 2 is higher


def game_cases() -> list[Case]:
    """docs/rules.md §9.2-§9.3: whole games, the running table after every round."""
    return [
        game_case(
            "score-game-classic-countdown",
            "docs/rules.md §9.2 COUNTDOWN from 20: six rounds (8, 4 with a gösterme, a drawn round"
            " with a gösterme, 4, 2, 4) until seat 0 is at -3; the two highest (6, 4) win",
            CLASSIC_GAME,
            rules("classic"),
        ),
        game_case(
            "score-game-tournament",
            "docs/rules.md §9.3 tournament: gösterme does not score; the single highest wins,"
            " here not the last round's winner",
            (
                rnd(won(0, PAIRS, 1, okey=True), 8, 0, -8, -8, -8),
                rnd(won(0, okey=True), 4, 0, -4, -4, -4),
                rnd(won(3, PAIRS), 4, -4, -4, -4, 0),
                rnd(won(1, PAIRS, okey=True), 8, -8, 0, -8, -8, winners=(0,)),
            ),  # 20 12 12 12 -> 20 8 8 8 -> 16 4 4 8 -> 8 4 -4 0
            rules("tournament"),
            pin_ruleset=preset_ruleset(gosterme_scores=False, countdown_winners=1),
        ),
        game_case(
            "score-game-points-limit-five",
            "docs/rules.md §9.3 points-limit at 5: seat 0 and 3 reach 0 in round 2; the two"
            " highest win",
            (
                rnd(won(2), 2, -2, -2, 0, -2),
                rnd(won(1, MELDS, 1), 2, -3, 0, -3, -3, winners=(1, 2)),
            ),  # 5 -> 3 3 5 3 -> 0 3 2 0
            rules("points-limit", start_points=5),
            pin_ruleset=preset_ruleset(
                gosterme_in_first_turn=True, start_points=5, must_show_win=False
            ),
        ),
        game_case(
            "score-game-okey-gg-target",
            "docs/rules.md §9.3 okey.gg: winners score towards 21, the first to reach it wins;"
            " the gösterme listed score nothing, in a won round or a drawn one (§8.3)",
            (
                rnd(won(0, PAIRS, okey=True), 8, 8, 0, 0, 0),
                rnd(won(1, PAIRS, 0, okey=True), 8, 0, 8, 0, 0),
                rnd(drawn(2), 0, 0, 0, 0, 0),
                rnd(won(0, PAIRS, okey=True), 8, 8, 0, 0, 0),
                rnd(won(0, PAIRS, okey=True), 8, 8, 0, 0, 0, winners=(0,)),
            ),  # 8 0 0 0 -> 8 8 0 0 -> 8 8 0 0 -> 16 8 0 0 -> 24 8 0 0
            rules("okey.gg"),
        ),
        game_case(
            "score-game-penalty-four-rounds",
            "docs/rules.md §9.3 penalty with game_rounds 4: penalties accumulate (a stall costs"
            " everyone 1); the lowest total wins",
            (
                rnd(won(1), 2, 2, 0, 2, 2),
                rnd(drawn(2), 0, 2, 2, 1, 2),
                rnd(won(2, PAIRS), 4, 4, 4, 0, 4),
                rnd(won(0, okey=True), 4, 0, 4, 4, 4, winners=(2,)),
            ),  # 2 0 2 2 -> 4 2 3 4 -> 8 6 3 8 -> 8 10 7 12
            rules("penalty", game_rounds=4),
        ),
        game_case(
            "score-game-zero-sum-three-rounds",
            "docs/rules.md §9.2 ZERO_SUM with game_rounds 3: points change hands, the scores add"
            " up to 0, the highest wins",
            (
                rnd(won(1), 2, -2, 6, -2, -2),
                rnd(won(3, PAIRS, 0), 4, -1, -5, -5, 11),
                rnd(won(0, okey=True), 4, 12, -4, -4, -4, winners=(0,)),
            ),  # -2 6 -2 -2 -> -3 1 -7 9 -> 9 -3 -11 5
            rules(scoring_mode=ScoringMode.ZERO_SUM, game_rounds=3),
        ),
        game_case(
            "score-game-elimination",
            "docs/rules.md §9.2 elimination from 5: seats 2 and 3 leave in round 2 and pay no"
            " more; seat 0 wins round 3 but seat 1's gösterme puts it out: seat 1 is left and wins",
            (
                rnd(won(0), 2, 0, -2, -2, -2),
                rnd(won(1, okey=True), 4, -4, 0, -4, -4, out=(2, 3)),
                rnd(won(0, MELDS, 1), 2, -1, -2, 0, 0, winners=(1,), out=(0, 2, 3)),
            ),  # 5 3 3 3 -> 1 3 -1 -1 -> 0 1 -1 -1
            rules(elimination=True, start_points=5),
        ),
        game_case(
            "score-game-partnership",
            "docs/rules.md §9.2 partnership from 10: the other team pays; seats 1 and 3 win",
            (
                rnd(won(0, PAIRS), 4, 0, -4, 0, -4),
                rnd(won(1, MELDS, 2, okey=True), 4, -4, -1, -4, -1),
                rnd(won(3, PAIRS, okey=True), 8, -8, 0, -8, 0, winners=(1, 3)),
            ),  # 10 6 10 6 -> 6 5 6 5 -> -2 5 -2 5
            rules(partnership=True, start_points=10),
        ),
        game_case(
            "score-game-kafa-ends",
            "docs/rules.md §9.2 kafa: a kafa win ends the game at round 2 and its winner wins",
            KAFA_GAME,
            rules(kafa=True),
        ),
        game_case(
            "score-game-countdown-game-rounds",
            "docs/rules.md §9.2 game_rounds 3: the game ends after round 3 (a drawn round) with"
            " every score above 0; the two highest win",
            (
                rnd(won(0), 2, 0, -2, -2, -2),
                rnd(won(3, PAIRS), 4, -4, -4, -4, 0),
                rnd(drawn(), 0, 0, 0, 0, 0, winners=(0, 3)),
            ),  # 20 18 18 18 -> 16 14 14 18 -> same
            rules(game_rounds=3),
        ),
        game_case(
            "score-game-three-seats",
            "docs/rules.md §9.2 COUNTDOWN at three seats: the single highest wins",
            (
                rnd(won(0, okey=True), 4, 0, -4, -4),
                rnd(won(1), 2, -2, 0, -2, winners=(0,)),
            ),  # 5 1 1 -> 3 1 -1
            rules(start_points=5),
            players=3,
        ),
        game_case(
            "score-game-zero-sum-two-seats",
            "docs/rules.md §9.2 ZERO_SUM at two seats: +2/-2, +4/-4 for seven pairs",
            (
                rnd(won(0), 2, 2, -2),
                rnd(won(1, PAIRS), 4, -4, 4, winners=(1,)),
            ),  # 2 -2 -> -2 2
            rules(scoring_mode=ScoringMode.ZERO_SUM, game_rounds=2),
            players=2,
        ),
        game_error(
            "score-game-round-after-the-end",
            "docs/rules.md §9.2: a round after the game ended is refused, naming it",
            [g.result for g in CLASSIC_GAME] + [won(1)],
            "rounds[6]",
        ),
        game_error(
            "score-game-round-after-kafa",
            "docs/rules.md §9.2 kafa: the game ended with the kafa win; a further round is refused",
            [g.result for g in KAFA_GAME] + [won(0)],
            "rounds[2]",
            rules(kafa=True),
        ),
        game_error(
            "score-game-bad-round-named",
            "scoring.proto ScoreGameRequest.rounds: an error names the round at fault",
            [won(1), won(7)],
            "rounds[1].result.winner_seat",
        ),
        game_error(
            "score-game-game-rounds-too-many",
            "ruleset.proto game_rounds: 1-99, or 0 for none",
            [won(1)],
            "ruleset.game_rounds",
            rules(game_rounds=100),
        ),
        game_error(
            "score-game-partnership-three-seats",
            "ruleset.proto partnership: four players only",
            [won(1)],
            "player_count",
            rules(partnership=True),
            players=3,
        ),
        game_error(
            "score-game-preset-101-not-scorable",
            "scoring.proto ScoringService: Okey 101 games are not scored yet",
            [won(1)],
            "ruleset.game",
            rules("101"),
        ),
        error_case(
            "score-game-no-rounds",
            "scoring.proto ScoreGameRequest.rounds: a game has at least one round",
            {"rounds": []},
            "rounds",
        ),
        error_case(
            "score-game-round-missing",
            "scoring.proto RoundInput.round: each round is a state or a result",
            {"rounds": [{"result": won(1).json()}, {}]},
            "rounds[1]",
        ),
    ]


# --- the files -----------------------------------------------------------------------------


FILES: dict[str, tuple[str, str, str, Callable[[], list[Case]]]] = {
    "scoring_round.json": (
        "ScoringService: ScoreRound",
        "docs/rules.md §9 (Scoring); scoring.proto (ScoreRoundRequest, ScoreRule); ruleset.proto",
        "ScoreRound",
        lambda: (
            value_cases()
            + gosterme_cases()
            + drawn_cases()
            + mode_cases()
            + table_cases()
            + preset_cases()
            + state_cases()
            + round_error_cases()
        ),
    ),
    "scoring_game.json": (
        "ScoringService: ScoreGame",
        "docs/rules.md §9 (Scoring); scoring.proto (ScoreGameRequest); ruleset.proto",
        "ScoreGame",
        game_cases,
    ),
}

NOTES = (
    "Expected numbers worked out by hand in scripts/derive_scoring_vectors.py from the scoring"
    " rules (docs/rules.md §9) and checked against the engine. Answers pin every seat's change,"
    " the table after the round, the round's value, the lines (rule, seat, factor, changes; not"
    " their text) in the order applied (the win, its doubles in ScoreRule order, the largest-only"
    " note, the value; gösterme in the order shown; eliminations in seat order; kafa; game over),"
    " the game's end and winners. A finished state cannot be stored (the sealed token opens"
    " under one server key only): those cases carry given_state, which the runner replays and"
    " puts into"
    " round.state. ScoreGame rounds are results only: given_state has no single place in a list"
    " of rounds."
)


def build_files() -> dict[str, Json]:
    """Every vector file, by file name, as the JSON object to write."""
    return {
        name: {
            "suite": suite,
            "source": source,
            "service": SERVICE,
            "method": method,
            "notes": NOTES,
            "cases": cases(),
        }
        for name, (suite, source, method, cases) in FILES.items()
    }


def file_text(data: Json) -> str:
    """A vector file's exact text, as --write writes it (the GameService files' layout)."""
    text: str = game_vectors().file_text(data)
    return text


# --- how the seeds were found ---------------------------------------------------------------


def _searches() -> Iterator[tuple[str, str]]:
    g = game_vectors()

    def outcome(seed: str, players: int, dealer: int) -> Any:
        table_ = g.Table(seed, players=players, dealer=dealer)
        return replay(table_.start(), g.greedy_log(table_)).state.outcome

    def three(seed: str) -> bool:
        # The winner is not state seat 1 (table seat 2), which must lose and go out.
        found = outcome(seed, 3, 0)
        return found is not None and not found.drawn and found.winner == 2

    yield "SEED_THREE", g.search("three-seats", three)

    def dealer_three(seed: str) -> bool:
        found = outcome(seed, 4, 3)
        return found is not None and not found.drawn and found.kind is not WinKind.MELDS

    yield "SEED_DEALER_THREE", g.search("dealer-three", dealer_three)


def main(argv: list[str] | None = None) -> int:
    return run_cli(
        argv,
        description=(__doc__ or "").splitlines()[0],
        write_help="write DIR/scoring_*.json",
        search_help="re-find the special seeds",
        build_files=build_files,
        file_text=file_text,
        dump=game_vectors().dump,
        searches=_searches,
    )


if __name__ == "__main__":
    sys.exit(main())
