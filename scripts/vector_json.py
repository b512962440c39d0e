"""The one protobuf JSON encoder of the conformance vectors (scripts/derive_vectors.py).

The engine's values as the okey.v1 messages read in proto3 JSON (lowerCamel field names,
enum value names, RFC 3339 timestamps), in the layout docs/conformance.md gives an
expectation: a field a vector pins is written even when it holds its default (`null`: a
message field not set, `false`, `""`), a field it leaves to the server is not written. So
the field choice is written here, message by message, where json_format would drop every
default; the request side (tiles, faces, clocks) is read back through the same tables.
Also the vector files' text (`dump`): short values and shallow objects on one line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from okey_rules.dealing.deal_types import Deal, FormalProcedure, codes_notation, rack_notation
from okey_rules.play.game101_types import State101, TableMeld
from okey_rules.play.game_types import GameState
from okey_rules.play.round_types import Event, EventKind, Move, Opened, Outcome, Phase, RoundEnd
from okey_rules.play.view_types import PlayerView, sees_whole_pile
from okey_rules.rulebook import is_wild
from okey_rules.ruleset import Game, Ruleset
from okey_rules.scores.scoring_types import RoundScore
from okey_rules.tiles import FACES, TILE_OF_CODE, Tile, indicator_for

Json = dict[str, Any]
SECOND_MS = 1000


def snake(name: str) -> str:
    """A ruleset option's engine name from its JSON name (layOffCap: lay_off_cap, runs13To1:
    runs_13_to_1)."""
    return re.sub(r"(?<=[a-z])(?=[A-Z0-9])|(?<=[0-9])(?=[A-Za-z])", "_", name).lower()


# --- tiles and clocks, both ways -----------------------------------------------------------------


def tile(code: int) -> Json:
    """An okey.v1.Tile with its copy always written: the copy says which physical tile."""
    t = TILE_OF_CODE[code]
    if t.is_false_joker:
        return {"falseJoker": True, "copy": t.copy}
    assert t.color is not None
    return {"color": f"COLOR_{t.color.name}", "number": t.number, "copy": t.copy}


def tiles(codes: Any) -> list[Json]:
    return [tile(c) for c in codes]


def face(code: int) -> Json:
    """The tile a table tile stands for: a face, so no copy is named."""
    t = TILE_OF_CODE[code]
    assert t.color is not None
    return {"color": f"COLOR_{t.color.name}", "number": t.number}


def _key(data: Json) -> str:
    return json.dumps(data, sort_keys=True)


CODES = {_key(tile(c)): c for c in range(len(TILE_OF_CODE))}
FACE_CODES = {_key(face(c)): c for c in range(FACES) if not TILE_OF_CODE[c].is_false_joker}


def code_of(data: Json) -> int:
    """A tile's code; a request may leave a first copy's `copy` unset."""
    return CODES[_key({"copy": 0} | data)]


def face_of(data: Json) -> int:
    return FACE_CODES[_key(data)]


def timestamp(ms: int) -> str:
    """RFC 3339 in UTC as protobuf JSON prints a Timestamp (no fraction when whole seconds)."""
    moment = datetime.fromtimestamp(ms // SECOND_MS, UTC).strftime("%Y-%m-%dT%H:%M:%S")
    fraction = ms % SECOND_MS
    return f"{moment}.{fraction:03d}Z" if fraction else f"{moment}Z"


def ms_of(text: str) -> int:
    return round(datetime.fromisoformat(text).timestamp() * SECOND_MS)


def deadline(ms: int | None) -> str | None:
    return timestamp(ms) if ms else None


# --- game.proto / state.proto: classic rounds ----------------------------------------------------


def offered(move: Move) -> Json:
    """A move LegalMoves offers: a move of a kind without a tile leaves `tile` unset."""
    return {"kind": f"MOVE_KIND_{move.kind.name}", "seat": move.seat,
            "tile": None if move.tile is None else tile(move.tile)}


def outcome(o: Outcome) -> Json:
    """The outcome without its arrangement: one way to split a hand, which a server may choose."""
    return {
        "drawn": o.drawn,
        "winnerSeat": o.winner,
        "winKind": f"WIN_KIND_{o.win_kind.name}" if o.win_kind else "WIN_KIND_UNSPECIFIED",
        "okeyDiscard": o.okey_discard,
        "discard": None if o.discard is None else tile(o.discard),
        "hand": tiles(o.hand),
        "gosterme": [{"seat": seat, "tile": tile(t)} for seat, t in o.gosterme],
        "moveNumber": o.move_number,
    }


def event(e: Event) -> Json:
    data: Json = {"kind": f"EVENT_KIND_{e.kind.name}", "seat": e.seat,
                  "tile": None if e.tile is None else tile(e.tile), "private": e.private}
    if e.kind is EventKind.TOOK_DISCARD:
        data["fromSeat"] = e.from_seat
    if e.outcome is not None:
        data["outcome"] = outcome(e.outcome)
    return data


def ruleset(rules: Ruleset) -> Json:
    """The resolved ruleset as an answer states it: every option written out."""
    return {
        "game": f"GAME_{rules.game.name}",
        "wildPairs": rules.wild_pairs,
        "kafa": rules.kafa,
        "runs13To1": rules.runs_13_to_1,
        "indicatorDrawableLast": rules.indicator_drawable_last,
        "gostermeInFirstTurn": rules.gosterme_in_first_turn,
        "moveTimerSeconds": rules.move_timer_seconds,
    }


def view(v: PlayerView, state: GameState, kind: str) -> Json:
    """docs/rules.md §8.7: one seat's view of a classic round; the deal's kind, never its
    keyed id (which depends on the server's key)."""
    return {
        "seat": v.seat,
        "ruleset": ruleset(v.rules) | {"gostermePlayed": v.rules.gosterme_played,
                                       "mustShowWin": v.rules.must_show_win},
        "playerCount": v.player_count,
        "dealerSeat": v.dealer,
        "indicator": tile(v.indicator),
        "okey": tile(state.okey.code),
        "rack": tiles(v.rack),
        "seats": [
            {"seat": o.seat, "rackSize": o.rack_size, "discardCount": o.discard_count,
             "discards": tiles(o.discards), "wholePile": o.whole_pile, "gosterme": o.gosterme}
            for o in v.seats
        ],
        "wallSize": v.wall_size,
        "turnSeat": v.turn,
        "phase": f"PHASE_{v.phase.name}",
        "moveNumber": v.move_number,
        "turnDeadline": deadline(v.deadline_ms),
        "outcome": None if v.outcome is None else outcome(v.outcome),
        "round": v.round,
        "dealKind": kind,
        "commitment": "",
    }


def status(state: GameState | State101, kind: str) -> Json:
    """The okey.v1.RoundStatus of a state, all but the key's part (a seeded deal's keyed id);
    the commitment (none but a committed deal's) is pinned empty."""
    okey_101 = state.rules.game is Game.OKEY_101
    return {
        "game": "GAME_OKEY_101" if okey_101 else "GAME_CLASSIC",
        "playerCount": state.player_count,
        "dealerSeat": state.dealer,
        "round": state.round,
        "moveNumber": state.move_number,
        "turnSeat": state.turn,
        "phase": f"PHASE_{state.phase.name}",
        # §10: Okey 101 rounds are not timed.
        "turnDeadline": None if okey_101 else deadline(state.deadline_ms),
        "roundOver": state.phase is Phase.ROUND_OVER,
        "outcome": None if state.outcome is None else (
            outcome_101(state.outcome) if okey_101 else outcome(state.outcome)),
        "dealKind": kind,
        "commitment": "",
        "mustFinish": False if okey_101 else state.must_finish,
    }


# --- game.proto / state.proto: Okey 101 rounds ---------------------------------------------------

# game.proto Event: the events with one `tile`, those with `tiles`, and what else each names.
K = EventKind
ONE_TILE = {K.DREW_FROM_WALL, K.TOOK_DISCARD, K.RETURNED_DISCARD, K.LAID_OFF, K.DISCARDED,
            K.ROUND_WON, K.RETRIEVED_OKEY}
SEVERAL_TILES = {K.OPENED, K.LAID_MELD, K.TOOK_BACK}
FROM_SEAT = {K.TOOK_DISCARD, K.RETURNED_DISCARD}
MELD_INDEX = {K.OPENED, K.LAID_MELD, K.LAID_OFF, K.RETRIEVED_OKEY}
ENDS = {K.ROUND_WON, K.ROUND_DRAWN, K.ROUND_VOID}


def offered_101(move: Move) -> Json:
    """A move LegalMoves offers: kind, seat, its tile (unset when it has none), its meld."""
    return {"kind": f"MOVE_KIND_{move.kind.name}", "seat": move.seat,
            "tile": None if move.tile is None else tile(move.tile), "meld": move.meld}


def outcome_101(o: Outcome) -> Json:
    """state.proto RoundOutcome for a 101 round: finished (the seat, an okey discard, a
    one-turn finish), drawn (the bank ran out) or void."""
    return {
        "drawn": o.drawn,
        "winnerSeat": o.winner if o.won else 0,
        "okeyDiscard": o.okey_discard,
        "moveNumber": o.move_number,
        "voidRound": o.end is RoundEnd.VOID,
        "oneTurnFinish": o.one_turn,
    }


def event_101(e: Event) -> Json:
    """An event as game.proto Event describes it; the one that ends the round carries the
    round's outcome."""
    data: Json = {"kind": f"EVENT_KIND_{e.kind.name}", "seat": e.seat,
                  "tile": tile(e.tile) if e.kind in ONE_TILE and e.tile is not None else None}
    if e.kind in SEVERAL_TILES:
        data["tiles"] = tiles(e.tiles)
    if e.kind in FROM_SEAT:
        data["fromSeat"] = e.from_seat
    if e.kind in MELD_INDEX:
        data["meld"] = e.meld
    if e.penalty is not None:
        data["penalty"] = f"PENALTY_{e.penalty.name}"
        data["points"] = e.points
    if e.kind in ENDS:
        assert e.outcome is not None
        data["outcome"] = outcome_101(e.outcome)
    data["private"] = e.private
    return data


def table_meld(index: int, meld: TableMeld, state: State101) -> Json:
    """A table meld: each tile with the face it stands for, fixed when laid (§10.3)."""
    return {
        "index": index,
        "ownerSeat": meld.owner,
        "kind": f"MELD_KIND_{meld.kind.name}",
        "tiles": [{"tile": tile(laid.code), "standsFor": face(laid.face),
                   "wild": is_wild(TILE_OF_CODE[laid.code], state.okey)} for laid in meld.tiles],
        "value": meld.value,
    }


def _opened(opened: Opened | None) -> str:
    return "OPENED_UNSPECIFIED" if opened is None else f"OPENED_{opened.name}"


def view_101(state: State101, seat: int) -> Json:
    """docs/rules.md §8.7, §10: one seat's view of a 101 round."""
    pending = state.taken is not None and state.taken in state.seats[state.turn].rack
    players = state.player_count
    return {
        "seat": seat,
        "ruleset": ruleset(state.rules),
        "playerCount": players,
        "dealerSeat": state.dealer,
        "indicator": tile(state.indicator),
        "okey": tile(state.okey.code),
        "rack": tiles(state.seats[seat].rack),
        "seats": [
            {
                "seat": owner,
                "rackSize": len(held.rack),
                "discardCount": len(held.discards),
                "discards": tiles(held.discards if sees_whole_pile(seat, owner, players)
                                  else held.discards[-1:]),
                "wholePile": sees_whole_pile(seat, owner, players),
                "gosterme": False,
                "opened": _opened(held.opened),
                "penalties": [f"PENALTY_{p.name}" for p in held.penalties],
            }
            for owner, held in enumerate(state.seats)
        ],
        "wallSize": len(state.wall),
        "turnSeat": state.turn,
        "phase": f"PHASE_{state.phase.name}",
        "moveNumber": state.move_number,
        "turnDeadline": None,
        "outcome": None if state.outcome is None else outcome_101(state.outcome),
        "round": state.round,
        "table": [table_meld(i, meld, state) for i, meld in enumerate(state.table)],
        "takenDiscard": tile(state.taken) if pending and state.taken is not None else None,
        "dealKind": "DEAL_KIND_SEEDED",
        "commitment": "",
    }


# --- scoring.proto -------------------------------------------------------------------------------


def round_score(scored: RoundScore, players: int, lines: bool = True) -> Json:
    """scoring.proto RoundScore (ScoreGame's rounds pin no lines: ScoreRound's do)."""
    data = {
        "deltas": list(scored.deltas),
        "table": {"scores": list(scored.table.scores), "roundsPlayed": scored.table.rounds_played},
        "roundValue": scored.value,
        "lines": [
            {"rule": f"SCORE_RULE_{line.rule.name}", "seat": line.seat, "factor": line.factor,
             "deltas": list(line.deltas)}
            for line in scored.lines
        ],
        "gameOver": scored.game_over,
        "winnerSeats": list(scored.winners),
        "eliminated": list(scored.eliminated) or [False] * players,
    }
    if not lines:
        del data["lines"]
    return data


def full_ruleset(r: Ruleset) -> Json:
    """A resolved ruleset as a ScoringService answer states it: every option written out."""
    return ruleset(r) | {
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
        "timeoutBotLevel": r.timeout_bot_level,
    }


# --- hand.proto: BestOpening ----------------------------------------------------------------------


def opening_arrangement(melds: Iterable[tuple[str, Sequence[Any]]], notation: str) -> Json:
    """An Arrangement of (MeldKind name, placed tiles) melds: each placed tile (anything with
    `tile`, `stands_for` and `wild`) with its canonical copy and the face it stands for."""
    return {
        "melds": [
            {"kind": f"MELD_KIND_{kind}",
             "tiles": [{"tile": tile(p.tile.code), "standsFor": face(p.stands_for.code),
                        "wild": p.wild} for p in placed]}
            for kind, placed in melds
        ],
        "notation": notation,
    }


def best_opening(  # noqa: PLR0917 (the response's fields, in proto order)
    arrangement: Json,
    value: int,
    opens: bool,
    okeys_used: int,
    unused: Sequence[Tile],
    pairs: Json,
    pairs_count: int,
    pairs_open: bool,
    okey: Tile,
) -> Json:
    """A BestOpeningResponse as the vectors pin it: every field but the free-text summary."""
    return {
        "arrangement": arrangement,
        "value": value,
        "opens": opens,
        "okeysUsed": okeys_used,
        "unused": tiles(t.code for t in unused),
        "pairs": {"arrangement": pairs, "count": pairs_count, "opens": pairs_open},
        "indicator": face(indicator_for(okey).code),
        "okey": face(okey.code),
    }


# --- deal.proto: Deal --------------------------------------------------------------------------

SEEDED, STACKED, COMMITTED = "DEAL_KIND_SEEDED", "DEAL_KIND_STACKED", "DEAL_KIND_COMMITTED"
# The RoundStatus fields a DealResponse pins, in its order (the empty commitment and seeded
# deal id follow where the kind of deal has none).
DEAL_STATUS = ("game", "playerCount", "dealerSeat", "round", "moveNumber", "turnSeat", "phase",
               "turnDeadline", "roundOver", "outcome", "dealKind", "mustFinish")


def dealt_tile(code: int) -> Json:
    """A Tile as protobuf JSON prints it, defaults left out (copy 0, no false joker): the
    deal files write their tiles so."""
    t = TILE_OF_CODE[code]
    data: Json = {"falseJoker": True} if t.is_false_joker else face(code)
    if t.copy:
        data["copy"] = t.copy
    return data


def dealt_tiles(codes: Iterable[int]) -> list[Json]:
    return [dealt_tile(c) for c in codes]


def deal_status(state: GameState | State101, kind: str) -> Json:
    """The opening state's RoundStatus: nothing played, the first seat to discard; the keyed
    parts left out, the empty ones pinned."""
    full = status(state, kind)
    data = {key: full[key] for key in DEAL_STATUS}
    if kind != COMMITTED:
        data["commitment"] = ""
    if kind != SEEDED:
        data["seededDealId"] = ""
    return data


def formal(p: FormalProcedure | None) -> Json | None:
    """deal.proto FormalProcedure: the dice, the 21 stacks, the spare, where the indicator
    was turned up and every take."""
    if p is None:
        return None
    return {
        "dice": list(p.dice),
        "diceGiven": p.dice_given,
        "stacks": [{"index": k, "letter": p.letter_of(k), "tiles": dealt_tiles(stack),
                    "notation": codes_notation(stack)} for k, stack in enumerate(p.stacks)],
        "spare": dealt_tile(p.spare),
        "indicatorStack": p.indicator_stack,
        "indicatorPosition": p.indicator_position,
        "takes": [{"seat": t.seat, "stack": t.stack, "letter": t.letter, "part": t.part,
                   "tiles": dealt_tiles(t.tiles)} for t in p.takes],
    }


def _inputs(dealt: Deal) -> Json:
    return {"method": f"DEAL_METHOD_{dealt.method.name}", "game": f"GAME_{dealt.game.name}",
            "playerCount": dealt.player_count, "dealerSeat": dealt.dealer,
            "firstSeat": dealt.first_seat}


def deal_response(
    dealt: Deal, state: GameState | State101, kind: str, seed: str, client_seeds: Sequence[str]
) -> Json:
    """A DealResponse of a seeded or stacked deal: every tile, never the keyed deal id."""
    data: Json = {"seed": seed, "commitment": ""}
    if kind == STACKED:
        data["dealId"] = ""
    data |= _inputs(dealt) | {
        "indicator": dealt_tile(dealt.indicator),
        "okey": face(dealt.okey.code),
        "racks": [{"seat": seat, "tiles": dealt_tiles(rack), "notation": rack_notation(rack)}
                  for seat, rack in enumerate(dealt.racks)],
        "wall": dealt_tiles(dealt.wall),
        "formal": formal(dealt.formal),
        "round": state.round,
    }
    if client_seeds:  # echoed as given (an empty list is not written in protobuf JSON)
        data["clientSeeds"] = list(client_seeds)
    data["status"] = deal_status(state, kind)
    return data


def committed_response(
    dealt: Deal, state: GameState | State101, client_seeds: Sequence[str]
) -> Json:
    """A DealResponse under a commitment, as far as a vector can pin it: the seed secret, the
    inputs bound, one rack per seat (its tiles from a seed nobody knows yet)."""
    return {"seed": "", **_inputs(dealt),
            "racks": [{"seat": seat} for seat in range(dealt.player_count)],
            "formal": None if dealt.formal is None else {"diceGiven": dealt.formal.dice_given},
            "round": state.round, "clientSeeds": list(client_seeds) or None,
            "status": deal_status(state, COMMITTED)}


# --- the files' text -----------------------------------------------------------------------------


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def dump(value: Any, indent: int = 0, list_depth: int = 2) -> str:
    """JSON with every short value, every shallow object (a tile, a move, a logged move, an
    event) and every list of scalars or tiles (a rack) on one line; a list of objects (moves,
    events, a log) gets one line per element. `list_depth` 3 keeps a list of shallow objects
    (a deal's racks of tiles, its stacks) on one line too."""
    inline = json.dumps(value, ensure_ascii=False)
    shallow = _depth(value) <= (3 if isinstance(value, dict) else list_depth)
    if shallow or len(inline) + indent <= 100:
        return inline
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {dump(v, indent + 2, list_depth)}"
                 for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + dump(v, indent + 2, list_depth) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def file_text(data: Json, list_depth: int = 2) -> str:
    """A vector file's exact text, as --write writes it."""
    return dump(data, list_depth=list_depth) + "\n"


# --- analysis.proto: AnalyzeHand ------------------------------------------------------------------


def hand_distance(d: Any) -> Json:
    """A HandDistance: every way's distance (kafa 0 and not played when the rules skip it)."""
    return {"melds": d.melds, "sevenPairs": d.pairs, "kafa": d.kafa or 0,
            "kafaPlayed": d.kafa is not None, "best": d.best}


def analysis(found: Any, okey: Tile) -> Json:
    """An AnalyzeHandResponse as the vectors pin it: all but the resolved ruleset."""
    return {
        "indicator": face(indicator_for(okey).code),
        "okey": face(okey.code),
        "distance": None if found.distance is None else hand_distance(found.distance),
        "discards": [
            {"tile": face(c.tile.code) if not c.tile.is_false_joker else {"falseJoker": True},
             "okey": c.okey, "distance": hand_distance(c.distance),
             "usefulDraws": [{"tile": face(u.tile.code) if not u.tile.is_false_joker
                              else {"falseJoker": True}, "unseen": u.unseen} for u in c.useful],
             "usefulUnseen": c.useful_unseen}
            for c in found.discards
        ],
        "bestDiscard": found.best_discard,
        "fromView": found.from_view,
    }


def opening_analysis(found: Any, okey: Tile) -> Json:
    """An AnalyzeHandResponse for an Okey 101 rack: its `opening`, and the wild in force."""
    return {
        "indicator": face(indicator_for(okey).code),
        "okey": face(okey.code),
        "distance": None,
        "discards": [],
        "opening": {
            "points": found.points, "pointsNeeded": found.points_needed,
            "pointsMissing": found.points_missing, "pairs": found.pairs,
            "pairsNeeded": found.pairs_needed, "pairsMissing": found.pairs_missing,
            "opened": "OPENED_UNSPECIFIED", "layOffs": [],
            "discards": [
                {"tile": face(d.tile.code) if not d.tile.is_false_joker else {"falseJoker": True},
                 "points": d.points, "pairs": d.pairs, "keepsPoints": d.keeps_points,
                 "keepsPairs": d.keeps_pairs}
                for d in found.discards
            ],
        },
    }
