"""Derives the conformance vectors (tests/conformance/*.json) from their case tables.

The cases are data: tests/conformance/cases/<suite>.json holds each vector file's header
and its cases as written by hand (name, reason, the position a case starts from, the
request, and what is expected of the engine: a move's verdict, the kinds offered, a
round's numbers, or a refusal written out whole). This script replays each position on
the rules engine (server/okey_rules, never the gRPC layer), asks the engine the case's
question, holds the answer to the hand-written expectation, and writes the answer through
one protobuf JSON encoder (scripts/vector_json.py), so a vector checks the server's
translation as well as the rules.

    python scripts/derive_vectors.py                       # every suite, printed as JSON
    python scripts/derive_vectors.py --write DIR           # write DIR/<file>.json
    python scripts/derive_vectors.py --suite game101 ...   # one case table only

A case table is one JSON object: `positions` (name: a ReplayRequest, a seeded or stacked
`deal` and its `moves`; or `from` another position and the `moves` after it) and `files`
(vector file name: its header and `cases`). A case names its position with `at` (written
out as the vector's given_state), carries its `request`, and either `expect` (a refusal,
copied) or `want` (what the engine must answer; the answer itself is derived); a refusal
the engine makes names its field (`refused`). Two suites have a referee, a second way to
the answer: `deal` (DealService) deals each request again with scripts/deal_referee.py,
docs/dealing.md implemented apart from the engine, and `opening` (BestOpening) holds the
hand-written melds to the brute force of scripts/opening_referee.py; where the engine and
the referee differ, the build stops. A table's `listDepth` sets how deep a list nests and
stays on one line in its files (the deal files keep racks and stacks on one line).
docs/conformance.md describes the vector files; tests/unit/test_*vectors_wellformed.py
check that this script writes them byte for byte.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import deal_referee
import opening_referee
import vector_json as vj
from okey_rules.analysis.hand_analysis import analyze_hand
from okey_rules.analysis.opening_analysis import analyze_rack
from okey_rules.dealing.deal import deal, validate_deal_input
from okey_rules.dealing.deal_fairness import seeded_deal_id, shuffle_seed
from okey_rules.dealing.deal_stacked import stacked_deal
from okey_rules.dealing.deal_types import DealMethod
from okey_rules.errors import InvalidInputError
from okey_rules.play.game import apply_move, legal_moves, replay, start_round
from okey_rules.play.game101 import apply_move_101, legal_moves_101, replay_101, start_round_101
from okey_rules.play.game101_types import State101
from okey_rules.play.game_types import GameState
from okey_rules.play.game_view import player_view
from okey_rules.play.round import round_for
from okey_rules.play.round_types import Move, MoveKind
from okey_rules.ruleset import ColourDouble, Game, Ruleset, ScoringMode, preset
from okey_rules.scores.scoring import (
    check_scorable,
    check_table_size,
    next_dealer,
    one_colour_of,
    result_of_outcome,
    score_round,
    seats_in_game,
    start_table,
)
from okey_rules.scores.scoring101 import score_round_101
from okey_rules.scores.scoring_types import RoundResult, Table
from okey_rules.search.hand import check_hand
from okey_rules.search.hand_types import WinKind
from okey_rules.search.opening import best_openings
from okey_rules.tiles import TILE_OF_CODE, Color, Tile, okey_for, parse_tile, parse_tiles

Json = dict[str, Any]
ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "tests" / "conformance" / "cases"
# The seeded deal id is keyed: under a key of this script's own, so no vector can show it.
DEAL_ID_KEY = b"conformance vectors: not a server key"
LEGAL = "LEGAL"  # `want` of a move the engine must find legal


# --- positions: a deal and a move log, every move legal -------------------------------------


ENUMS = {"game": Game, "scoring_mode": ScoringMode, "colour_double": ColourDouble}


def rules_of(request: Json) -> Ruleset:
    """A request's ruleset as ruleset.proto resolves it: the preset (the game's default one
    when unnamed), the ruleset's options over it."""
    options = {vj.snake(k): v for k, v in request.get("ruleset", {}).items()}
    for name, enum in ENUMS.items():
        if name in options:
            prefix = f"{vj.snake(enum.__name__).upper()}_"
            options[name] = enum[options[name].removeprefix(prefix)]
    base = preset(request.get("preset", ""), options.get("game"))
    return base.with_overrides(**options) if options else base


def classic_move(logged: Json) -> tuple[Move, int | None]:
    """A logged move and the caller's clock then (a classic turn may be timed)."""
    now = vj.ms_of(logged["now"]) if "now" in logged else None
    return move_101(logged), now


def move_101(logged: Json) -> Move:
    """A logged move (either game's: one Move type)."""
    move = logged["move"]
    melds = tuple(
        tuple(
            (vj.code_of(laid["tile"]), vj.face_of(laid["standsFor"]) if "standsFor" in laid
             else None)
            for laid in group["tiles"]
        )
        for group in move.get("melds", [])
    )
    return Move(
        MoveKind[move["kind"].removeprefix("MOVE_KIND_")],
        move["seat"],
        vj.code_of(move["tile"]) if "tile" in move else None,
        melds,
        move.get("pairs", False),
        move.get("meld", 0),
        vj.face_of(move["standsFor"]) if "standsFor" in move else None,
    )


@dataclass(frozen=True)
class Start:
    """A DealRequest as a server deals it (a seeded or a stacked deal)."""

    request: Json

    @cached_property
    def rules(self) -> Ruleset:
        return rules_of(self.request)

    @property
    def okey_101(self) -> bool:
        return self.rules.game is Game.OKEY_101

    @property
    def kind(self) -> str:
        return "DEAL_KIND_STACKED" if "stacked" in self.request else "DEAL_KIND_SEEDED"

    def state(self) -> GameState | State101:
        r = self.request
        players, dealer = r.get("playerCount", 4), r.get("dealerSeat", 0)
        if "stacked" in r:
            stacked = r["stacked"]
            dealt = stacked_deal(
                self.rules, players, dealer,
                racks=[[vj.code_of(t) for t in rack["tiles"]] for rack in stacked["racks"]],
                wall=[vj.code_of(t) for t in stacked["wall"]],
                indicator=vj.code_of(stacked["indicator"]),
            )
            return start_round(dealt, deal_id="")
        dealt = deal(self.rules, players, dealer, seed=r["seed"])
        deal_id = seeded_deal_id(DEAL_ID_KEY, r["seed"])
        if self.okey_101:
            return start_round_101(dealt, deal_id=deal_id, round_number=r.get("round") or 1)
        now = vj.ms_of(r["now"]) if "now" in r else None
        return start_round(dealt, deal_id=deal_id, round_number=r.get("round") or 1, now_ms=now)

    def play(self, state: Any, moves: Sequence[Json]) -> Any:
        """The engine's replay of `moves` from `state` (classic or Okey 101)."""
        if self.okey_101:
            return replay_101(state, [move_101(m) for m in moves])
        return replay(state, [classic_move(m) for m in moves])


@dataclass
class Position:
    start: Start
    moves: list[Json]

    @cached_property
    def state(self) -> Any:
        result = self.start.play(self.start.state(), self.moves)
        assert result.legal, f"{self.start.request}: move {result.applied}: {result.reason}"
        return result.state

    def given_state(self) -> Json:
        return {"deal": self.start.request, "moves": self.moves}


def positions(table: dict[str, Json]) -> dict[str, Position]:
    """The case table's positions, each `from` another resolved to a whole log."""
    found: dict[str, Position] = {}

    def resolve(name: str) -> Position:
        if name not in found:
            entry = table[name]
            if "from" in entry:
                base = resolve(entry["from"])
                found[name] = Position(base.start, base.moves + entry["moves"])
            else:
                found[name] = Position(Start(entry["deal"]), entry["moves"])
        return found[name]

    for name in table:
        resolve(name)
    return found


# --- the engine's answers, held to what each case wants ----------------------------------------


def apply_answer(case: Json, at: Position) -> Json:
    move = case["request"]["move"]
    if at.start.okey_101:
        result = apply_move_101(at.state, move_101({"move": move}))
        events = [vj.event_101(e) for e in result.events]
    else:
        logged = classic_move(case["request"])
        result = apply_move(at.state, *logged)
        events = [vj.event(e) for e in result.events]
    got = LEGAL if result.legal else result.reason.name
    assert got == case["want"], f"{case['name']}: the engine says {got} ({result.message})"
    if not result.legal:
        return {"legal": False, "reason": f"ILLEGAL_REASON_{got}", "state": None,
                "status": None, "events": []}
    penalties = [e["penalty"] for e in events if "penalty" in e]
    assert penalties == case.get("penalties", []), f"{case['name']}: penalties {penalties}"
    kinds = case.get("events")
    assert kinds is None or kinds == [e["kind"] for e in events], case["name"]
    return {"legal": True, "events": events, "status": vj.status(result.state, at.start.kind)}


def legal_answer(case: Json, at: Position) -> Json:
    seat = case["request"]["seat"]
    if at.start.okey_101:
        moves = [vj.offered_101(m) for m in legal_moves_101(at.state, seat)]
    else:
        now = vj.ms_of(case["request"]["now"]) if "now" in case["request"] else None
        moves = [vj.offered(m) for m in legal_moves(at.state, seat, now)]
    kinds = list(dict.fromkeys(m["kind"].removeprefix("MOVE_KIND_") for m in moves))
    assert kinds == case["want"], f"{case['name']}: the engine offers {kinds}"
    return {"moves": moves}


def view_answer(case: Json, at: Position) -> Json:
    seat = case["request"]["seat"]
    if at.start.okey_101:
        return vj.view_101(at.state, seat)
    return vj.view(player_view(at.state, seat), at.state, at.start.kind)


def replay_answer(case: Json, at: Position | None) -> Json:
    request = case["request"]
    start = at.start if at is not None else Start(request["deal"])
    begin = at.state if at is not None else start.state()
    result = start.play(begin, request["moves"])
    got = LEGAL if result.legal else result.reason.name
    assert got == case["want"], f"{case['name']}: the engine says {got}"
    final = result.state
    if start.okey_101:
        events = [vj.event_101(e) for e in result.events]
    else:
        events = [vj.event(e) for e in result.events]
    answer: Json = {"legal": result.legal, "movesApplied": result.applied, "events": events,
                    "status": vj.status(final, start.kind)}
    if not result.legal:
        answer["illegalIndex"] = result.applied
        answer["reason"] = f"ILLEGAL_REASON_{got}"
    return answer


def score_101_answer(case: Json, at: Position) -> Json:
    """ScoreRound of a finished Okey 101 round: every number is the case's own, written by
    hand from docs/rules.md §10.7, and must be the engine's."""
    before = case["request"].get("table")
    table = None if before is None else Table(tuple(before["scores"]), before["roundsPlayed"])
    scored = score_round_101(at.state, table)
    want = case["want"]
    answer = vj.round_score(scored, at.state.player_count)
    answer["nextDealerSeat"] = want["nextDealerSeat"]
    answer["nextRound"] = want["nextRound"]
    for key in ("deltas", "roundValue", "gameOver", "winnerSeats"):
        assert answer[key] == want[key], f"{case['name']}: {key} {answer[key]}, not {want[key]}"
    assert answer["table"] == want["table"], case["name"]
    rules = {line["rule"] for line in answer["lines"]}
    assert set(want.get("rules", [])) <= rules, f"{case['name']}: the lines show {rules}"
    return answer


def _refuse(field: str, why: str) -> InvalidInputError:
    return InvalidInputError(field, why)


def result_of(data: Json, rules: Ruleset, field: str) -> RoundResult:
    """scoring.proto RoundResult, after the checks it states: given tiles must agree with the
    win kind, the okey discard and the colour; a hand given is scored as it wins best
    (docs/rules.md §9.1, §4.4), the claim kept aside."""
    kind = WinKind[data["winKind"].removeprefix("WIN_KIND_")] if "winKind" in data else None
    colour = Color[data["oneColour"].removeprefix("COLOR_")] if "oneColour" in data else None
    drawn, okey_discard, claimed = data.get("drawn", False), data.get("okeyDiscard", False), None
    if "hand" in data or "discard" in data:
        if drawn:
            raise _refuse(f"{field}.hand", "a drawn round has no winning hand")
        if "indicator" not in data:
            raise _refuse(f"{field}.indicator", "needed with hand or discard")
        indicator = TILE_OF_CODE[vj.code_of(data["indicator"])]
        if indicator.color is None:
            raise _refuse(f"{field}.indicator", "never a false joker")
        okey = okey_for(indicator)
        discard = data.get("discard")
        if discard and (TILE_OF_CODE[vj.code_of(discard)].face == okey.face) != okey_discard:
            raise _refuse(f"{field}.okey_discard", "the discard says otherwise")
        if "hand" in data:
            tiles = [TILE_OF_CODE[vj.code_of(t)] for t in data["hand"]]
            try:
                verdict = check_hand(tiles, okey, rules)
            except InvalidInputError as error:
                raise _refuse(f"{field}.hand", error.description) from error
            if not verdict.winning:
                raise _refuse(f"{field}.hand", "not a winning hand")
            if kind not in verdict.kinds:
                raise _refuse(f"{field}.win_kind", "the hand does not win so")
            found = one_colour_of([t.code for t in tiles], okey.face)
            if colour is not None and colour != found:
                raise _refuse(f"{field}.one_colour", "the hand says otherwise")
            colour = found
            if verdict.kind is not kind:
                kind, claimed = verdict.kind, kind
    return RoundResult(drawn, data.get("winnerSeat", 0), kind, okey_discard, colour,
                       tuple(data.get("gostermeSeats", [])), claimed)


def table_of(data: Json | None) -> Table | None:
    return None if data is None else Table(tuple(data["scores"]), data.get("roundsPlayed", 0))


def _pinned(answer: Json, pinned: Json, rules: Ruleset) -> Json:
    """A ScoringService answer pins its resolved ruleset where the case does."""
    return {"ruleset": vj.full_ruleset(rules), **answer} if "ruleset" in pinned else answer


def score_answer(case: Json, at: Position | None) -> Json:
    """ScoreRound: of a result given in the request, or of a position's finished state."""
    if at is not None and at.start.okey_101:
        return score_101_answer(case, at)
    request, pinned = case["request"], case.get("expect", {}).get("response", {})
    before = table_of(request.get("table"))
    if at is None:
        rules = rules_of(request)
        check_scorable(rules)
        count = request.get("playerCount") or (len(before.scores) if before else 4)
        size_field = "table.scores" if not request.get("playerCount") and before else "player_count"
        check_table_size(rules, count, size_field)
        result = result_of(request["round"]["result"], rules, "round.result")
        return _pinned(vj.round_score(score_round(rules, count, before, result), count), pinned,
                       rules)
    state = at.state
    rules = state.rules
    count = len(before.scores) if before is not None else state.player_count
    seats = seats_in_game(rules, before) if before is not None else list(range(count))
    scored = score_round(rules, count, before, result_of_outcome(state.outcome, state, seats))
    start = before if before is not None else start_table(rules, count)
    dealer, number = 0, 0
    if not scored.game_over:
        dealer, number = next_dealer(rules, state.dealer, start, scored.table), state.round + 1
    return vj.round_score(scored, count) | {"nextDealerSeat": dealer, "nextRound": number}


def game_answer(case: Json, _at: Position | None) -> Json:
    """ScoreGame: the rounds' results scored one after another on the running table."""
    request, pinned = case["request"], case.get("expect", {}).get("response", {})
    rules = rules_of(request)
    check_scorable(rules)
    count = request.get("playerCount") or 4
    table: Table | None = None
    answers, scored = [], None
    for index, game_round in enumerate(request["rounds"]):
        if scored is not None and scored.game_over:
            raise _refuse(f"rounds[{index}]", "the game has ended")
        where = f"rounds[{index}].result"
        result = result_of(game_round["result"], rules, where)
        scored = score_round(rules, count, table, result, field=where)
        answer = vj.round_score(scored, count, lines=False)
        answers.append(_pinned(answer, pinned.get("rounds", [{}])[0], rules))
        table = scored.table
    assert scored is not None
    return {"rounds": answers, "table": answers[-1]["table"], "gameOver": scored.game_over,
            "winnerSeats": list(scored.winners)}


def tile_of(message: Json) -> Tile:
    """A Tile message as the engine's Tile, which checks it (a number 1-13, a copy 0 or 1)."""
    if message.get("falseJoker"):
        return Tile.false_joker(message.get("copy", 0))
    colour = Color[message["color"].removeprefix("COLOR_")]
    return Tile(colour, message["number"], message.get("copy", 0))


def opening_inputs(request: Json) -> tuple[list[Tile], Tile, Ruleset]:
    """A BestOpeningRequest's rack, okey and rules (the 101 preset unless it names a game)."""
    hand = request.get("hand")
    rack = [tile_of(t) for t in hand["tiles"]] if hand else parse_tiles(request["handNotation"])
    wild = next(k for k in ("indicator", "indicatorNotation", "okey", "okeyNotation")
                if k in request)
    given = request[wild]
    tile = tile_of(given) if isinstance(given, dict) else parse_tile(given)
    named = request.get("preset") or ("" if "game" in request.get("ruleset", {}) else "101")
    return rack, okey_for(tile) if wild.startswith("indicator") else tile, rules_of(
        {**request, "preset": named})


def opening_answer(case: Json, _at: Position | None) -> Json:
    """BestOpening: the engine's openings, held to the referee (scripts/opening_referee.py),
    which works the case's hand-written melds (`want`) out again. A `dealt` rack's melds are
    the engine's, pinned once the referee finds them the best by the same checks."""
    rack, okey, rules = opening_inputs(case["request"])
    melds, pairs = best_openings(rack, okey, rules)
    engine = vj.best_opening(
        vj.opening_arrangement(((m.kind.name, m.tiles) for m in melds.arrangement.melds),
                               melds.arrangement.notation()),
        melds.value, melds.opens, melds.okeys_used, melds.unused,
        vj.opening_arrangement(((m.kind.name, m.tiles) for m in pairs.arrangement.melds),
                               pairs.arrangement.notation()),
        pairs.count, pairs.opens, okey,
    )
    want = case.get("want")
    if "dealt" in case:  # the request's rack is the seat's rack of that seeded 101 deal
        dealt = deal(preset("101"), 4, 0, seed=case["dealt"]["seed"])
        faces = [Tile.from_code(c).face for c in dealt.racks[case["dealt"]["seat"]]]
        assert [t.face for t in rack] == faces, f"{case['name']}: not the seat's dealt rack"
        assert okey == okey_for(dealt.indicator_tile), f"{case['name']}: not the deal's okey"
        want = {"melds": melds.arrangement.notation()}
    ruleset = case["request"].get("ruleset", {})
    mine = opening_referee.expected(case["name"], rack, okey,
                                    wrap=ruleset.get("runs13To1", False),
                                    wild_pairs=ruleset.get("wildPairs", True), want=want)
    assert mine == engine, f"{case['name']}: worked out\n{vj.dump(mine)}\nthe engine says\n" \
        f"{vj.dump(engine)}"
    return engine


def analyze_answer(case: Json, _at: Position | None) -> Json:
    """AnalyzeHand: the engine's analysis. A case's hand-written `want` (the best distance,
    and per way) is checked, and a distance of 0 or 1 is worked out again by brute force:
    0 exactly when CheckHand wins, 1 exactly when some one tile replaced makes it win."""
    request = case["request"]
    tiles = parse_tiles(request["handNotation"])
    okey = (okey_for(parse_tile(request["indicatorNotation"])) if "indicatorNotation" in request
            else parse_tile(request["okeyNotation"]))
    rules = rules_of(request)
    seen = parse_tiles(request["seenNotation"]) if "seenNotation" in request else None
    want = case.get("want", {})
    if rules.game is Game.OKEY_101:  # the rack's openings, held to BestOpening's referee
        opening = analyze_rack(tiles, okey, rules)
        for field in ("points", "pairs"):
            if field in want:
                assert getattr(opening, field) == want[field], f"{case['name']}: {field}"
        for left in opening.discards:
            rest = list(tiles)
            rest.remove(next(t for t in tiles if t.face == left.tile.face))
            value = opening_referee.brute_best(rest, okey, rules.runs_13_to_1)[0]
            pairs = opening_referee.read_melds(
                opening_referee.pairs_by_the_rule(rest, okey, rules.wild_pairs), okey)
            assert (value, len(pairs)) == (left.points, left.pairs), \
                f"{case['name']}: without {left.tile}"
        return vj.opening_analysis(opening, okey)
    found = analyze_hand(tiles, okey, rules, seen)
    answer = vj.analysis(found, okey)
    got = found.distance if found.distance is not None else found.discards[
        found.best_discard].distance
    for way in ("best", "melds", "pairs", "kafa"):
        if way in want:
            assert getattr(got, way) == want[way], f"{case['name']}: {way} is {getattr(got, way)}"
    if "bestDiscard" in want:
        shown = vj.face(found.discards[found.best_discard].tile.code)
        assert shown == vj.face(parse_tile(want["bestDiscard"]).code), case["name"]
    if found.distance is not None and found.distance.best <= 1:
        assert _wins_after(tiles, okey, rules, found.distance.best), case["name"]
    return answer


def _wins_after(tiles: list[Tile], okey: Tile, rules: Ruleset, replaced: int) -> bool:
    """Brute force: does the hand win with `replaced` (0 or 1) of its tiles swapped for a
    tile that could exist beside the rest, and (for 1) not with none?"""
    if replaced == 0:
        return check_hand(tiles, okey, rules).winning
    if check_hand(tiles, okey, rules).winning:
        return False
    for index in range(len(tiles)):
        rest = tiles[:index] + tiles[index + 1:]
        for code in range(len(TILE_OF_CODE)):
            candidate = [*rest, TILE_OF_CODE[code]]
            try:
                if check_hand(candidate, okey, rules).winning:
                    return True
            except InvalidInputError:  # a third copy, or the indicator's copy on the table
                continue
    return False


def _deal_inputs(request: Json) -> tuple[Ruleset, int, int, DealMethod]:
    method = request.get("method", "DEAL_METHOD_INFORMAL").removeprefix("DEAL_METHOD_")
    return (rules_of(request), request.get("playerCount", 0), request.get("dealerSeat", 0),
            DealMethod[method])


def deal_answer(case: Json, _at: Position | None) -> Json:
    """Deal: the engine's deal of a seed (the client seeds mixed in), of a stacked position
    or under a commitment (`given_commitment`), held to the referee (scripts/deal_referee.py),
    docs/dealing.md implemented a second time: any field that differs stops the build."""
    request = case["request"]
    commit = case.get("given_commitment")
    rules, players, dealer, method = _deal_inputs(commit if commit is not None else request)
    if commit is not None:  # the tiles come from a secret seed: any seed shows the rest
        dealt = deal(rules, players, dealer, method, seed="a committed seed")
    elif "stacked" in request:
        stacked = request["stacked"]
        dealt = stacked_deal(
            rules, players, dealer,
            racks=[[vj.code_of(t) for t in rack["tiles"]] for rack in stacked["racks"]],
            wall=[vj.code_of(t) for t in stacked.get("wall", [])],
            indicator=vj.code_of(stacked["indicator"]),
        )
    else:
        seed = shuffle_seed(request["seed"], request.get("clientSeeds", []))
        dealt = deal(rules, players, dealer, method, seed=seed, dice=request.get("dice"))
    number = (commit if commit is not None else request).get("round") or 1
    state = round_for(rules.game).start(dealt, deal_ref="", round_number=number, now_ms=None)
    if commit is not None:
        engine = vj.committed_response(dealt, state, request.get("clientSeeds", []))
        referee = deal_referee.expected_committed_response(commit, request)
    elif "stacked" in request:
        engine = vj.deal_response(dealt, state, vj.STACKED, "", [])
        referee = deal_referee.expected_stacked_response(request)
    else:
        engine = vj.deal_response(dealt, state, vj.SEEDED, request["seed"],
                                  request.get("clientSeeds", []))
        referee = deal_referee.expected_response(request)
    assert engine == referee, (
        f"{case['name']}: the engine deals\n{vj.dump(engine)}\nthe referee\n{vj.dump(referee)}")
    return engine


def commit_answer(case: Json, _at: Position | None) -> Json:
    """CommitSeed: the inputs a commitment binds, as the engine resolves them (the game's
    preset, 0 seats as 4, round 0 as 1), held to the hand-written `inputs`."""
    request = case["request"]
    rules, players, dealer, method = _deal_inputs(request)
    hashes = request.get("clientSeedHashes", [])
    return {"inputs": {
        "game": f"GAME_{rules.game.name}",
        "playerCount": validate_deal_input(rules, players, dealer, method, None),
        "dealerSeat": dealer,
        "method": f"DEAL_METHOD_{method.name}",
        "round": request.get("round") or 1,
        "clientSeedCount": len(hashes),
        "clientSeedHashes": hashes or None,
    }}


ANSWERS = {
    "ApplyMove": apply_answer,
    "LegalMoves": legal_answer,
    "PlayerView": view_answer,
    "Replay": replay_answer,
    "ScoreRound": score_answer,
    "ScoreGame": game_answer,
    "BestOpening": opening_answer,
    "Deal": deal_answer,
    "CommitSeed": commit_answer,
    "AnalyzeHand": analyze_answer,
}


# --- the files ---------------------------------------------------------------------------------


def build_case(case: Json, method: str, at: dict[str, Position]) -> Json:
    position = at[case["at"]] if "at" in case else None
    built: Json = {"name": case["name"], "reason": case["reason"]}
    if position is not None:
        built["given_state"] = position.given_state()
    if "given_commitment" in case:  # a CommitSeedRequest sent first (DealService)
        built["given_commitment"] = case["given_commitment"]
    built["request"] = case["request"]
    if "expect" not in case:  # the engine's answer, held to what the case wants (if it says)
        built["expect"] = {"response": ANSWERS[method](case, position)}
        return built
    built["expect"] = expect = case["expect"]
    if "response" in expect:  # an answer written by hand: the engine's must be the same
        got = ANSWERS[method](case, position)
        assert got == expect["response"], f"{case['name']}: the engine answers\n  {got}"
    elif "refused" in case:  # a refusal written by hand: the engine refuses so too
        refused = None
        try:
            ANSWERS[method](case, position)
        except InvalidInputError as error:
            refused = error.field
        assert refused == case["refused"], f"{case['name']}: the engine refuses {refused}"
    return built


def read_table(path: Path) -> Json:
    table: Json = json.loads(path.read_text(encoding="utf-8"))
    return table


def build_suite(path: Path) -> dict[str, Json]:
    return build_table(read_table(path))


def build_table(table: Json) -> dict[str, Json]:
    at = positions(table.get("positions", {}))
    files = {}
    for name, data in table["files"].items():
        header = {k: v for k, v in data.items() if k != "cases"}
        cases = [build_case(case, data["method"], at) for case in data["cases"]]
        files[name] = header | {"cases": cases}
    return files


def suites() -> list[Path]:
    return sorted(CASES.glob("*.json"))


def build_files(paths: Sequence[Path] | None = None) -> dict[str, Json]:
    """Every vector file of the case tables (all of them by default), by file name."""
    files: dict[str, Json] = {}
    for path in paths if paths is not None else suites():
        files |= build_suite(path)
    return files


def file_texts(paths: Sequence[Path] | None = None) -> dict[str, str]:
    """Every vector file's exact text, by file name, in its case table's layout (`listDepth`:
    how deep a list may nest and stay on one line, 2 unless the table says)."""
    texts: dict[str, str] = {}
    for path in paths if paths is not None else suites():
        table = read_table(path)
        depth = table.get("listDepth", 2)
        texts |= {name: vj.file_text(data, depth) for name, data in build_table(table).items()}
    return texts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--write", metavar="DIR", type=Path, help="write the files into DIR")
    parser.add_argument("--suite", action="append",
                        help="a case table's name (game, game101, scoring, deal, opening)")
    args = parser.parse_args(argv)
    paths = [CASES / f"{s}.json" for s in args.suite] if args.suite else None
    if not args.write:
        print(vj.dump(build_files(paths)))
        return 0
    for name, text in file_texts(paths).items():
        (args.write / name).write_text(text, encoding="utf-8")
        print(f"wrote {args.write / name}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
