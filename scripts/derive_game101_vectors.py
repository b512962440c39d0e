"""Derives the Okey 101 conformance vectors (tests/conformance/game101_*.json, scoring101_*.json).

GameService (ApplyMove, LegalMoves, PlayerView, Replay) on Okey 101 rounds
(docs/rules.md §10, with the §10.8 variants each set in some deal's ruleset)
and ScoringService/ScoreRound of finished 101 rounds (§10.7). Every expected
answer is the pure engine's judgement (server/okey_rules: `apply_move_101`,
`legal_moves_101`, `replay_101`, `score_round_101`), written out here in
protobuf JSON by hand: nothing goes through the gRPC layer (okey_server), so
a vector checks the server's translation as well as the rules. The scores
are also worked out a second way here (`points_by_the_text`, from the §10.7
and §10.8 text) and must agree.

A sealed state cannot be written into a vector (the token opens under one
server key only), so a case that needs a position carries `given_state`: a
seeded Okey 101 deal and a move log the runner replays on the server under
test (docs/conformance.md, "Cases that need a state"). Positions worth a
vector are found with the engine: the seeds below were picked by `--search`
(bounded loops over numbered seeds) for what a seat's rack allows (an
opening of 101 or more that can be split, an okey that must stand for a
tile the seat still holds, a discard that completes an opening, six pairs),
and whole rounds are played by a small player (`bot_turn`) that opens with
the best melds or five pairs (okey_rules.opening), lays off and lays new
melds, and discards the least useful tile (a finish, one with an okey, one
in the opening turn, a finish by a seat that opened with pairs, a void round
and an exhausted bank are such rounds; so is a finish while another opened
seat holds an okey, its finisher given a failed opening first).
Each property is asserted again when the files are built, so a changed deal
or engine fails loudly.

    python scripts/derive_game101_vectors.py                 # print {file name: file} as JSON
    python scripts/derive_game101_vectors.py --write DIR     # write DIR/game101_*.json, ...
    python scripts/derive_game101_vectors.py --search        # how the seeds were found

Not reachable through legal play from a seeded deal, so not pinned:
WALL_EMPTY (a discard that empties the bank ends the round, so nobody is
ever to draw, or to return a taken discard, with the bank empty) and
DISCARD_PILE_EMPTY (a seat's pile always holds the discard that ended its
turn when the next seat draws). ScoreGame is not pinned: an Okey 101 game
is scored from its rounds' states, and a case's `given_state` gives a
request one state, never a list. tests/unit/test_game101_vectors_wellformed.py
checks that this script writes the committed files byte for byte.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from types import ModuleType
from typing import Any

from okey_rules.deal import deal
from okey_rules.deal_fairness import seeded_deal_id
from okey_rules.game101 import (
    apply_move_101,
    could_lay_off,
    extended,
    legal_moves_101,
    replay_101,
    resolve_meld,
    start_round_101,
)
from okey_rules.game101_types import (
    Event101,
    Event101Kind,
    Illegal101,
    Move101,
    Move101Kind,
    Opened,
    Outcome101,
    Penalty,
    Phase101,
    Result101,
    State101,
    TableMeld,
)
from okey_rules.game_view import sees_whole_pile
from okey_rules.hand_types import Arrangement, MeldKind
from okey_rules.opening import best_opening, best_pairs_opening
from okey_rules.rulebook import is_wild, plays_as
from okey_rules.ruleset import PRESETS, Ruleset
from okey_rules.scoring101 import score_round_101
from okey_rules.scoring_types import RoundScore, Table
from okey_rules.tiles import FACES, FALSE_JOKER_FACE, TILE_OF_CODE, Tile

Json = dict[str, Any]
Case = dict[str, Any]
Groups = tuple[tuple[tuple[int, int | None], ...], ...]

HERE = Path(__file__).resolve().parent
PLAYERS = 4  # docs/rules.md §10: Okey 101 is played by four
PENALTY = 101  # §10.5
FINISH = -101  # §10.7
NEVER_OPENED = 202  # §10.7
RULES_101 = PRESETS["101"]

# Seeds with a property worth a vector, found by `--search` (each property is asserted
# again when the vectors are built).
SEED_OPEN = "okey101-open-116"  # seat 1 opens >= 101 with a meld and an end tile to spare
SEED_OKEY = "okey101-okey-172"  # seat 1's okey stands for a tile seat 1 keeps
SEED_TAKE = "okey101-take-2"  # the dealer's discard completes seat 1's opening
SEED_PAIRS = "okey101-pairs-708"  # seat 1 holds six pairs and a set or run besides
SEED_FINISH = "okey101-finish-5"  # dealer 2: the player's round ends with a finish
SEED_OKEY_FINISH = "okey101-okey-finish-844"  # a finish by discarding an okey
SEED_EXHAUSTED = "okey101-exhausted-313"  # dealer 3: the bank runs out; openers and not
SEED_ONE_TURN = "okey101-one-turn-418"  # a seat opens and finishes in its first turn
SEED_PAIRS_FINISH = "okey101-pairs-finish-178"  # a seat that opened with pairs finishes
SEED_VOID = "okey101-void-2072"  # all four seats open with pairs: the round is void
# A finish while another seat that opened holds an okey; the finisher can fail an opening first.
SEED_OKEY_LEFT = "okey101-okey-left-246"
# The variants of docs/rules.md §10.8, each off in the preset and set in the deal's ruleset:
SEED_CAP = "okey101-cap-1"  # a seat lays off a third tile onto one end in a turn
SEED_PROGRESSIVE = "okey101-progressive-1"  # a later opening worth less than the best
SEED_RIZIKO = "okey101-riziko-0"  # a false joker is turned up at the deal
FINISH_DEALER = 2
EXHAUSTED_DEALER = 3
EXHAUSTED_ROUND = 3  # the exhausted round is dealt as round 3 of a game


@cache
def game_vectors() -> ModuleType:
    """scripts/derive_game_vectors.py: its JSON layout (tiles, rulesets, the file format)."""
    path = HERE / "derive_game_vectors.py"
    spec = importlib.util.spec_from_file_location("derive_game_vectors", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


# --- protobuf JSON of the engine's values ------------------------------------------------


def tile_json(code: int) -> Json:
    """An okey.v1.Tile with its copy: which physical tile."""
    data: Json = game_vectors().tile_json(code)
    return data


def tiles_json(codes: Sequence[int]) -> list[Json]:
    return [tile_json(code) for code in codes]


def face_json(face: int) -> Json:
    """The tile a table tile stands for: a face, so no copy is named."""
    tile = TILE_OF_CODE[face]
    assert tile.color is not None
    return {"color": f"COLOR_{tile.color.name}", "number": tile.number}


def groups_json(groups: Groups) -> list[Json]:
    melds = []
    for group in groups:
        laid = []
        for code, face in group:
            entry: Json = {"tile": tile_json(code)}
            if face is not None:
                entry["standsFor"] = face_json(face)
            laid.append(entry)
        melds.append({"tiles": laid})
    return melds


def move_json(move: Move101) -> Json:
    data: Json = {"kind": f"MOVE_KIND_{move.kind.name}", "seat": move.seat}
    if move.tile is not None:
        data["tile"] = tile_json(move.tile)
    if move.melds:
        data["melds"] = groups_json(move.melds)
    if move.pairs:
        data["pairs"] = True
    if move.kind is Move101Kind.LAY_OFF:
        data["meld"] = move.meld
    if move.face is not None:
        data["standsFor"] = face_json(move.face)
    return data


def logged_json(move: Move101) -> Json:
    return {"move": move_json(move)}


def offered_json(move: Move101) -> Json:
    """A move LegalMoves offers: kind, seat, its tile (unset when it has none), its meld."""
    return {
        "kind": f"MOVE_KIND_{move.kind.name}",
        "seat": move.seat,
        "tile": None if move.tile is None else tile_json(move.tile),
        "meld": move.meld,
    }


# game.proto EventKind: a finish is ROUND_WON, an empty bank ROUND_DRAWN.
EVENT_NAMES = {kind: f"EVENT_KIND_{kind.name}" for kind in Event101Kind} | {
    Event101Kind.ROUND_FINISHED: "EVENT_KIND_ROUND_WON",
    Event101Kind.ROUND_EXHAUSTED: "EVENT_KIND_ROUND_DRAWN",
}
# game.proto Event: the events with one `tile`, those with `tiles`, and what else each names.
ONE_TILE = {
    Event101Kind.DREW_FROM_WALL,
    Event101Kind.TOOK_DISCARD,
    Event101Kind.RETURNED_DISCARD,
    Event101Kind.LAID_OFF,
    Event101Kind.DISCARDED,
    Event101Kind.ROUND_FINISHED,
    Event101Kind.RETRIEVED_OKEY,
}
SEVERAL_TILES = {Event101Kind.OPENED, Event101Kind.LAID_MELD, Event101Kind.TOOK_BACK}
FROM_SEAT = {Event101Kind.TOOK_DISCARD, Event101Kind.RETURNED_DISCARD}
MELD_INDEX = {
    Event101Kind.OPENED,
    Event101Kind.LAID_MELD,
    Event101Kind.LAID_OFF,
    Event101Kind.RETRIEVED_OKEY,
}


ENDS = {Event101Kind.ROUND_FINISHED, Event101Kind.ROUND_EXHAUSTED, Event101Kind.ROUND_VOID}


def event_json(event: Event101, outcome: Outcome101 | None) -> Json:
    """An event as game.proto Event describes it; the one that ends the round carries the
    round's `outcome`."""
    data: Json = {"kind": EVENT_NAMES[event.kind], "seat": event.seat}
    data["tile"] = tile_json(event.tiles[0]) if event.kind in ONE_TILE else None
    if event.kind in SEVERAL_TILES:
        data["tiles"] = tiles_json(event.tiles)
    if event.kind in FROM_SEAT:
        data["fromSeat"] = event.meld
    if event.kind in MELD_INDEX:
        data["meld"] = event.meld
    if event.penalty is not None:
        data["penalty"] = f"PENALTY_{event.penalty.name}"
        data["points"] = event.points
    if event.kind in ENDS:
        assert outcome is not None
        data["outcome"] = outcome_json(outcome)
    data["private"] = event.private
    return data


def opened_json(opened: Opened | None) -> str:
    return "OPENED_UNSPECIFIED" if opened is None else f"OPENED_{opened.name}"


def table_meld_json(index: int, meld: TableMeld, state: State101) -> Json:
    """A table meld: each tile with the face it stands for, fixed when laid (§10.3)."""
    return {
        "index": index,
        "ownerSeat": meld.owner,
        "kind": f"MELD_KIND_{meld.kind.name}",
        "tiles": [
            {
                "tile": tile_json(laid.code),
                "standsFor": face_json(laid.face),
                "wild": is_wild(TILE_OF_CODE[laid.code], state.okey),
            }
            for laid in meld.tiles
        ],
        "value": meld.value,
    }


def outcome_json(outcome: Outcome101) -> Json:
    """state.proto RoundOutcome for a 101 round: finished (the seat, an okey discard, a
    one-turn finish) or drawn (the bank ran out)."""
    finished = outcome.kind == "finished"
    return {
        "drawn": outcome.kind == "exhausted",
        "winnerSeat": outcome.finisher if finished else 0,
        "okeyDiscard": outcome.okey_discard,
        "moveNumber": outcome.move_number,
        "voidRound": outcome.kind == "void",
        "oneTurnFinish": outcome.one_turn,
    }


def view_json(state: State101, seat: int) -> Json:
    """docs/rules.md §8.7, §10: one seat's view of a 101 round."""
    g = game_vectors()
    pending = state.taken is not None and state.taken in state.seats[state.turn].rack
    return {
        "seat": seat,
        "ruleset": g.ruleset_json(state.rules),
        "playerCount": state.player_count,
        "dealerSeat": state.dealer,
        "indicator": tile_json(state.indicator),
        "okey": tile_json(state.okey.code),
        "rack": tiles_json(state.seats[seat].rack),
        "seats": [
            {
                "seat": owner,
                "rackSize": len(held.rack),
                "discardCount": len(held.discards),
                "discards": tiles_json(
                    held.discards
                    if sees_whole_pile(seat, owner, state.player_count)
                    else held.discards[-1:]
                ),
                "wholePile": sees_whole_pile(seat, owner, state.player_count),
                "gosterme": False,
                "opened": opened_json(held.opened),
                "penalties": [f"PENALTY_{p.name}" for p in held.penalties],
            }
            for owner, held in enumerate(state.seats)
        ],
        "wallSize": len(state.wall),
        "turnSeat": state.turn,
        "phase": PHASE_NAMES[state.phase],
        "moveNumber": state.move_number,
        "turnDeadline": None,  # §10: Okey 101 rounds are not timed
        "outcome": None if state.outcome is None else outcome_json(state.outcome),
        "round": state.round,
        "table": [table_meld_json(i, meld, state) for i, meld in enumerate(state.table)],
        "takenDiscard": tile_json(state.taken) if pending and state.taken is not None else None,
        # game.proto: a view names the deal's kind, never its keyed id (which depends on
        # the server's key).
        "dealKind": "DEAL_KIND_SEEDED",
        "commitment": "",
    }


def status_json(state: State101) -> Json:
    """The okey.v1.RoundStatus of an Okey 101 state (state.proto), but the seeded deal's
    keyed id, which depends on the server's key; no commitment (a seeded deal)."""
    return {
        "game": "GAME_OKEY_101",
        "playerCount": state.player_count,
        "dealerSeat": state.dealer,
        "round": state.round,
        "moveNumber": state.move_number,
        "turnSeat": state.turn,
        "phase": PHASE_NAMES[state.phase],
        "turnDeadline": None,  # §10: Okey 101 rounds are not timed
        "roundOver": state.phase is Phase101.ROUND_OVER,
        "outcome": None if state.outcome is None else outcome_json(state.outcome),
        "dealKind": "DEAL_KIND_SEEDED",
        "commitment": "",
        "mustFinish": False,
    }


# state.proto Phase: a 101 turn goes on after the draw until its discard (PHASE_DISCARD).
PHASE_NAMES = {
    Phase101.FIRST_DISCARD: "PHASE_FIRST_DISCARD",
    Phase101.DRAW: "PHASE_DRAW",
    Phase101.PLAY: "PHASE_DISCARD",
    Phase101.ROUND_OVER: "PHASE_ROUND_OVER",
}


# --- tables (seeded 101 deals) and positions (a table and a move log) -----------------------


def snake(name: str) -> str:
    """A ruleset option's engine name from its JSON name (layOffCap: lay_off_cap)."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


@dataclass(frozen=True)
class Table101:
    """A seeded Okey 101 deal as a DealRequest asks for it (preset 101, four seats)."""

    seed: str
    dealer: int = 0
    round: int = 0
    options: tuple[tuple[str, Any], ...] = ()  # ruleset options over the preset (JSON names)

    @property
    def rules(self) -> Ruleset:
        return RULES_101.with_overrides(**{snake(k): v for k, v in self.options})

    def request(self) -> Json:
        data: Json = {"seed": self.seed, "preset": "101", "playerCount": PLAYERS,
                      "dealerSeat": self.dealer}
        if self.options:
            data["ruleset"] = dict(self.options)
        if self.round:
            data["round"] = self.round
        return data

    def start(self) -> State101:
        # As the server deals a seeded request: the deal id comes from the seed.
        dealt = deal(self.rules, PLAYERS, self.dealer, seed=self.seed)
        return start_round_101(dealt, deal_id=seeded_deal_id(game_vectors().DEAL_ID_KEY, self.seed),
                               round_number=self.round or 1)

    def at(self, *log: Move101) -> Position:
        return Position(self, tuple(log))

    def under(self, *options: tuple[str, Any]) -> Table101:
        return Table101(self.seed, self.dealer, self.round, options)


@dataclass(frozen=True)
class Position:
    """Where a table stands after a move log, every move of which is legal."""

    table: Table101
    log: tuple[Move101, ...] = ()

    @cached_property
    def state(self) -> State101:
        legal, state, applied, _, reason, message = replay_101(self.table.start(), self.log)
        assert legal, f"{self.table.seed}: move {applied}: {reason} ({message})"
        return state

    def then(self, *more: Move101) -> Position:
        return Position(self.table, self.log + more)

    def given_state(self) -> Json:
        """The ReplayRequest that reaches this position on any server."""
        return {"deal": self.table.request(), "moves": [logged_json(m) for m in self.log]}

    def rack(self, seat: int) -> tuple[int, ...]:
        return self.state.seats[seat].rack

    def under(self, *options: tuple[str, Any]) -> Position:
        """The same log dealt under other scoring options (play does not depend on them)."""
        return Position(self.table.under(*options), self.log)


def draw(seat: int) -> Move101:
    return Move101(Move101Kind.DRAW_FROM_WALL, seat)


def take(seat: int) -> Move101:
    return Move101(Move101Kind.TAKE_DISCARD, seat)


def give_back(seat: int) -> Move101:
    return Move101(Move101Kind.RETURN_DISCARD, seat)


def discard(seat: int, code: int) -> Move101:
    return Move101(Move101Kind.DISCARD, seat, code)


def open_melds(seat: int, groups: Groups, pairs: bool = False) -> Move101:
    return Move101(Move101Kind.OPEN, seat, melds=groups, pairs=pairs)


def lay_meld(seat: int, groups: Groups) -> Move101:
    return Move101(Move101Kind.LAY_MELD, seat, melds=groups)


def lay_off(seat: int, code: int, meld: int, face: int | None = None) -> Move101:
    return Move101(Move101Kind.LAY_OFF, seat, code, meld=meld, face=face)


def take_back(seat: int) -> Move101:
    return Move101(Move101Kind.TAKE_BACK, seat)


def _applied(state: State101, move: Move101) -> State101:
    result = apply_move_101(state, move)
    assert result.legal, (move, result.reason, result.message)
    assert result.state is not None
    return result.state


# --- melds from a rack: okey_rules.opening's answers as the rack's own tiles -----------------


def wild(code: int, state: State101) -> bool:
    return is_wild(TILE_OF_CODE[code], state.okey)


def groups_of(arrangement: Arrangement, rack: Sequence[int], first: int | None = None) -> Groups:
    """An arrangement's melds (canonical copies) as groups of the rack's own tile codes; an
    okey names the face it stands for. `first`, a tile of the rack, is used before the other
    copy of its face."""
    pool: dict[int, list[int]] = defaultdict(list)
    for code in sorted(rack, key=lambda c: c != first):
        pool[code % FACES].append(code)
    groups = []
    for meld in arrangement.melds:
        group = []
        for placed in meld.tiles:
            code = pool[placed.tile.face].pop(0)
            group.append((code, placed.stands_for.face if placed.wild else None))
        groups.append(tuple(group))
    return tuple(groups)


def melds_of(rack: Sequence[int], state: State101, first: int | None = None) -> Groups:
    """The most valuable sets and runs of a rack (okey_rules.opening.best_opening)."""
    found = best_opening([TILE_OF_CODE[c] for c in rack], state.okey, state.rules)
    return groups_of(found.arrangement, rack, first)


def pairs_of(rack: Sequence[int], state: State101) -> Groups:
    found = best_pairs_opening([TILE_OF_CODE[c] for c in rack], state.okey, state.rules)
    return groups_of(found.arrangement, rack)


def meld(group: Sequence[tuple[int, int | None]], state: State101, pairs: bool = False
         ) -> TableMeld:
    made = resolve_meld(group, state.okey, state.rules.runs_13_to_1, pairs, state.rules.wild_pairs)
    assert made is not None, group
    return made


def value(groups: Groups, state: State101) -> int:
    return sum(meld(group, state).value for group in groups)


def codes(groups: Groups) -> set[int]:
    return {code for group in groups for code, _ in group}


# --- the player that writes whole rounds ---------------------------------------------------


def usefulness(code: int, rack: Sequence[int], okey: int) -> int:
    """How much a tile helps its rack (`okey`: the okey's face): neighbours for runs, other
    colours for sets, a twin for pairs; okeys above all. A heuristic, not a rule."""
    if code % FACES == okey:
        return 100
    face = okey if code % FACES == FALSE_JOKER_FACE else code % FACES
    colour, number = divmod(face, 13)
    score, colours = 0, set()
    for other in rack:
        if other == code or other % FACES == okey:
            continue
        other_face = okey if other % FACES == FALSE_JOKER_FACE else other % FACES
        other_colour, other_number = divmod(other_face, 13)
        gap = abs(other_number - number)
        if other_face == face:
            score += 1
        elif other_number == number:
            colours.add(other_colour)
        elif other_colour == colour and gap <= 2:
            score += 3 if gap == 1 else 1
    return score + 2 * len(colours)


def _wants_discard(state: State101) -> bool:
    """Take the previous seat's discard when it is laid at once: laid off by a seat that
    has opened, or completing an opening (with the taken tile in it) by one that has not."""
    seat = state.turn
    held = state.seats[seat]
    pile = state.seats[state.previous(seat)].discards
    if not pile or wild(pile[-1], state):
        return False
    top = pile[-1]
    if held.opened is not None:
        return could_lay_off(state, top)
    rack = (*held.rack, top)
    found = best_opening([TILE_OF_CODE[c] for c in rack], state.okey, state.rules)
    return found.opens and bool(found.unused) and top in codes(groups_of(
        found.arrangement, rack, top))


def _lay_everything(state: State101, moves: list[Move101]) -> State101:
    """After opening: lay off what fits, then lay the rack's best melds (or pairs), always
    keeping a tile to discard."""
    seat = state.turn
    while len(state.seats[seat].rack) > 1:
        rack = state.seats[seat].rack
        fits = [
            lay_off(seat, code, index)
            for code in rack
            if not wild(code, state)
            for index, on_table in enumerate(state.table)
            if extended(on_table, code, None, state.okey, state.rules.runs_13_to_1) is not None
        ]
        if fits:
            moves.append(fits[0])
            state = _applied(state, fits[0])
            continue
        pairs = state.seats[seat].opened is Opened.PAIRS
        groups = pairs_of(rack, state) if pairs else melds_of(rack, state)
        while groups and len(codes(groups)) >= len(rack):
            groups = groups[:-1]  # keep one tile back for the discard
        if not groups:
            break
        moves.append(lay_meld(seat, groups))
        state = _applied(state, moves[-1])
    return state


def bot_turn(state: State101) -> list[Move101]:
    """One turn of the round's player: draw (or take a discard it lays at once), open with
    the best melds (or with pairs) when they open, lay everything it can, discard the least
    useful tile, never an okey or a tile that could be laid off unless it is the last."""
    seat = state.turn
    moves: list[Move101] = []
    if state.phase is Phase101.DRAW:
        moves.append(take(seat) if _wants_discard(state) else draw(seat))
        state = _applied(state, moves[-1])
        held = state.seats[seat]
        if held.opened is None:
            first = state.taken
            melds = best_opening([TILE_OF_CODE[c] for c in held.rack], state.okey, state.rules)
            pairs = best_pairs_opening([TILE_OF_CODE[c] for c in held.rack], state.okey,
                                       state.rules)
            groups: Groups = ()
            if melds.opens and melds.unused:
                groups = groups_of(melds.arrangement, held.rack, first)
            elif pairs.opens and first is None and len(codes(pairs_of(held.rack, state))) < len(
                    held.rack):
                groups = pairs_of(held.rack, state)
            if groups and (first is None or first in codes(groups)):
                moves.append(open_melds(seat, groups, pairs=not melds.opens))
                state = _applied(state, moves[-1])
                if state.phase is Phase101.ROUND_OVER:
                    return moves  # §10.2: the fourth pairs opening voids the round
        if state.seats[seat].opened is not None:
            state = _lay_everything(state, moves)
        if state.taken is not None and state.taken in state.seats[seat].rack:
            moves.append(give_back(seat))
            state = _applied(state, moves[-1])
    rack = state.seats[seat].rack
    okey = state.okey.face

    def cost(code: int) -> tuple[int, int]:
        penalised = len(rack) > 1 and (code % FACES == okey or could_lay_off(state, code))
        return 1000 * penalised + usefulness(code, rack, okey), -rack.index(code)

    moves.append(discard(seat, min(rack, key=cost)))
    return moves


def bot_log(start: Position, limit: int = 400) -> tuple[Move101, ...]:
    """The log of `start` played on by `bot_turn` to the end of the round."""
    state = start.state
    log = list(start.log)
    while state.phase is not Phase101.ROUND_OVER and len(log) < limit:
        for move in bot_turn(state):
            log.append(move)
            state = _applied(state, move)
    assert state.phase is Phase101.ROUND_OVER, start.table.seed
    return tuple(log)


# --- the seeds' properties (asserted when the files are built; searched by --search) -------


@dataclass(frozen=True)
class Split:
    """Seat 1's best opening after its first draw, split: `opening` (>= 101) without the
    meld `extra` and without `spare`, an end tile of one of its melds (index `onto`)."""

    opening: Groups
    extra: Groups
    spare: int
    onto: int


def split_opening(state: State101, seat: int) -> Split | None:
    rack = state.seats[seat].rack
    best = melds_of(rack, state)
    if value(best, state) < 101:
        return None
    for extra_index, extra in enumerate(best):
        rest = [g for i, g in enumerate(best) if i != extra_index]
        for onto, group in enumerate(rest):
            made = meld(group, state)
            if len(group) < 4 or made.kind is MeldKind.PAIR:
                continue
            ends = [made.tiles[0], made.tiles[-1]] if made.kind is MeldKind.RUN else made.tiles
            for end in ends:
                if wild(end.code, state):
                    continue
                kept = tuple(
                    tuple(e for e in g if e[0] != end.code) if i == onto else g
                    for i, g in enumerate(rest)
                )
                if value(kept, state) >= 101:
                    return Split(kept, (extra,), end.code, onto)
    return None


def open_table_ok(seed: str) -> bool:
    """SEED_OPEN: the dealer holds an okey; seat 1, after drawing, can split its opening."""
    state = Table101(seed).at(discard(0, Table101(seed).start().seats[0].rack[0])).state
    if not any(wild(c, state) for c in state.seats[0].rack):
        return False
    return split_opening(_applied(state, draw(1)), 1) is not None


@dataclass(frozen=True)
class FixedOkey:
    """Seat 1 opens with an okey standing for `kept`'s face in a run; `kept` stays."""

    opening: Groups
    kept: int
    run: int  # the run's index in the opening


def fixed_okey(state: State101, seat: int) -> FixedOkey | None:
    rack = state.seats[seat].rack
    if not any(wild(c, state) for c in rack):
        return None
    for kept in rack:
        if wild(kept, state):
            continue
        face = plays_as(TILE_OF_CODE[kept], state.okey)
        assert face is not None
        rest = [c for c in rack if c != kept]
        groups = melds_of(rest, state)
        if value(groups, state) < 101:
            continue
        for index, group in enumerate(groups):
            made = meld(group, state)
            inside = made.tiles[1:-1]
            if made.kind is MeldKind.RUN and any(
                wild(t.code, state) and t.face == face.face for t in inside
            ):
                return FixedOkey(groups, kept, index)
    return None


def okey_table_ok(seed: str) -> bool:
    table = Table101(seed)
    state = table.at(discard(0, table.start().seats[0].rack[0]), draw(1)).state
    return fixed_okey(state, 1) is not None


def taken_opening(state: State101) -> tuple[int, Groups] | None:
    """SEED_TAKE: a tile of the dealer's (not an okey) whose discard completes seat 1's
    opening, and that opening with it."""
    held = state.seats[1].rack
    if value(melds_of(held, state), state) >= 101:
        return None  # seat 1 must need the discard
    for code in state.seats[0].rack:
        if wild(code, state):
            continue
        rack = (*held, code)
        groups = melds_of(rack, state, code)
        if value(groups, state) >= 101 and code in codes(groups):
            return code, groups
    return None


def take_table_ok(seed: str) -> bool:
    state = Table101(seed).start()
    found = taken_opening(state)
    # Seat 1's rack alone holds a meld too: an opening without the taken tile.
    return found is not None and bool(melds_of(state.seats[1].rack, state))


def pairs_table_ok(seed: str) -> bool:
    """SEED_PAIRS: seat 1 draws to six pairs (no okey among them) and a set or run besides."""
    table = Table101(seed)
    state = table.at(discard(0, table.start().seats[0].rack[0]), draw(1)).state
    rack = state.seats[1].rack
    pairs = pairs_of(rack, state)
    if len(pairs) < 6 or any(wild(c, state) for c in codes(pairs)):
        return False
    rest = [c for c in rack if c not in codes(pairs)]
    return bool(melds_of(rest, state)) and value(melds_of(rack, state), state) < 101


def finished_round(table: Table101) -> Position:
    return table.at(*bot_log(table.at()))


def finish_ok(seed: str, dealer: int) -> bool:
    outcome = finished_round(Table101(seed, dealer)).state.outcome
    return outcome is not None and outcome.kind == "finished" and not outcome.okey_discard


def okey_finish_ok(seed: str) -> bool:
    outcome = finished_round(Table101(seed)).state.outcome
    return outcome is not None and outcome.kind == "finished" and outcome.okey_discard


def one_turn_ok(seed: str) -> bool:
    outcome = finished_round(Table101(seed)).state.outcome
    return outcome is not None and outcome.kind == "finished" and outcome.one_turn


def pairs_finish_ok(seed: str) -> bool:
    """SEED_PAIRS_FINISH: the player's round ends with a finish by a seat that opened with
    pairs (not with an okey: the okey double has its own case)."""
    state = finished_round(Table101(seed)).state
    outcome = state.outcome
    return (outcome is not None and outcome.kind == "finished" and not outcome.okey_discard
            and state.seats[outcome.finisher].opened is Opened.PAIRS)


def void_ok(seed: str) -> bool:
    outcome = finished_round(Table101(seed)).state.outcome
    return outcome is not None and outcome.kind == "void"


def diverging(log: Sequence[Move101], plain: Table101, option: Table101
              ) -> tuple[int, Result101] | None:
    """The first move of a log (legal under the preset) that an option judges otherwise:
    its index and the option's judgement."""
    before, after = plain.start(), option.start()
    for index, move in enumerate(log):
        was, now = apply_move_101(before, move), apply_move_101(after, move)
        if (was.legal, was.events) != (now.legal, now.events):
            return index, now
        if not now.legal or was.state is None or now.state is None:
            return None
        before, after = was.state, now.state
    return None


CAP = ("layOffCap", True)
PROGRESSIVE = ("progressiveOpening", True)
RETRIEVAL = ("okeyRetrieval", True)
RIZIKO = ("riziko", True)


def cap_ok(seed: str) -> bool:
    """SEED_CAP: the player's round lays a third tile off onto one end of a meld in a turn."""
    table = Table101(seed)
    found = diverging(finished_round(table).log, table, table.under(CAP))
    return found is not None and found[1].reason is Illegal101.LAY_OFF_CAP_REACHED


def progressive_ok(seed: str) -> bool:
    """SEED_PROGRESSIVE: a later melds opening that does not beat the best so far."""
    table = Table101(seed)
    found = diverging(finished_round(table).log, table, table.under(PROGRESSIVE))
    return found is not None and found[1].legal and any(
        e.penalty is Penalty.FAILED_OPENING for e in found[1].events
    )


def riziko_ok(seed: str) -> bool:
    """SEED_RIZIKO: the deal turned a false joker up (riziko on), and the round is played."""
    table = Table101(seed).under(RIZIKO)
    return table.start().riziko and finished_round(table).state.outcome is not None


def exhausted_ok(seed: str, dealer: int) -> bool:
    """The bank runs out with a seat opened with melds holding an okey, a seat opened with
    pairs, and a seat that never opened."""
    state = finished_round(Table101(seed, dealer, EXHAUSTED_ROUND)).state
    if state.outcome is None or state.outcome.kind != "exhausted":
        return False
    okey_held = any(
        s.opened is Opened.MELDS and any(wild(c, state) for c in s.rack) for s in state.seats
    )
    openings = {s.opened for s in state.seats}
    return okey_held and {None, Opened.PAIRS} <= openings


def failed_first(finished: Position) -> Position | None:
    """The finisher's round with a failed opening of its own added (§10.5): right after its
    first bank draw before it opened, it lays its least valuable meld alone (below 101); the
    tiles go back to the rack, so the rest of the log stays legal and ends in the same finish."""
    outcome = finished.state.outcome
    assert outcome is not None
    finisher = outcome.finisher
    state = finished.table.start()
    for index, move in enumerate(finished.log):
        state = _applied(state, move)
        if move != draw(finisher) or state.seats[finisher].opened is not None:
            continue
        groups = melds_of(state.seats[finisher].rack, state)
        if not groups:
            continue
        low = smallest(groups, state)
        if value(low, state) >= 101:
            return None
        tried = finished.table.at(*finished.log[: index + 1], open_melds(finisher, low))
        legal, final, _, _, _, _ = replay_101(tried.state, finished.log[index + 1:])
        if not legal or final.outcome is None or final.outcome.finisher != finisher:
            return None
        return tried.then(*finished.log[index + 1:])
    return None


def okey_left_ok(seed: str) -> bool:
    """SEED_OKEY_LEFT: the player's round ends in a finish (not with an okey) while a seat
    that opened, not the finisher, holds an okey; the finisher can fail an opening first."""
    finished = finished_round(Table101(seed))
    state = finished.state
    outcome = state.outcome
    if outcome is None or outcome.kind != "finished" or outcome.okey_discard:
        return False
    left = any(
        held.opened is not None and any(wild(c, state) for c in held.rack)
        for number, held in enumerate(state.seats) if number != outcome.finisher
    )
    return left and failed_first(finished) is not None


# --- the positions of the vectors ----------------------------------------------------------


OPENER = 1  # dealer 0: seat 1 is the first to draw
NEXT = 2


@dataclass(frozen=True)
class Positions:
    """The positions the cases start from, each reached by a legal move log."""

    dealt: Position  # the open table's deal: the dealer discards first
    first_discard: Position  # the dealer discarded: seat 1 draws or takes
    drawn: Position  # seat 1 drew: it may open
    split: Split
    best: Groups  # seat 1's whole best opening
    opened: Position  # seat 1 opened with `split.opening`
    engine_faces: Position  # ... or with the same tiles, every okey's face left to the engine
    laid: Position  # ... and laid `split.extra`
    laid_off: Position  # ... took the meld back and laid it again, laid `split.spare` off
    off_once: Position  # seat 1 opened and laid `split.spare` off (nothing taken back yet)
    turn_done: Position  # ... and discarded: seat 2 to draw
    seat2_drawn: Position  # seat 2 drew (not opened, the table has melds)
    mainline: tuple[Move101, ...]  # the open table played to the end of the round
    later_turn: Position  # seat 1 on turn again, opened in an earlier turn
    okey_drawn: Position
    fixed: FixedOkey
    okey_opened: Position
    take_dealt: Position
    taken_tile: int
    taken_groups: Groups
    taken: Position  # seat 1 took the dealer's discard
    taken_opened: Position  # ... and opened with it
    taken_undone: Position  # ... and took the opening back
    pairs_drawn: Position
    pairs_opened: Position  # seat 1 opened with five pairs
    six_pairs: Groups
    finished: Position
    okey_finished: Position
    exhausted: Position
    one_turn: Position  # a seat opened and finished in one turn, nobody else open
    pairs_finished: Position  # a seat that opened with pairs finished
    void: Position  # all four opened with pairs
    retrieval: Position  # the okey table's opening under okey_retrieval
    capped: tuple[Position, Move101]  # under lay_off_cap: two lay-offs made, the third
    progressive: tuple[Position, Move101]  # under progressive_opening: an opening too small
    riziko: Position  # a round dealt with a false joker turned up, riziko on
    okey_left: Position  # a finish; an opened seat holds an okey; the finisher failed to open


def positions() -> Positions:
    table = Table101(SEED_OPEN)
    dealt = table.at()
    dealer_rack = dealt.rack(0)
    okey_tile = next(c for c in dealer_rack if wild(c, dealt.state))
    # The dealer opens the round with an okey: a penalty, in the mainline.
    first_discard = dealt.then(discard(0, okey_tile))
    drawn = first_discard.then(draw(OPENER))
    split = split_opening(drawn.state, OPENER)
    assert split is not None, SEED_OPEN
    best = melds_of(drawn.rack(OPENER), drawn.state)
    opened = drawn.then(open_melds(OPENER, split.opening))
    faceless = tuple(tuple((c, None) for c, _ in group) for group in split.opening)
    engine_faces = drawn.then(open_melds(OPENER, faceless))
    assert engine_faces.state.table != opened.state.table, "the engine picks another face"
    laid = opened.then(lay_meld(OPENER, split.extra))
    # The mainline takes the meld back (a penalty) and lays it again, then lays the spare
    # tile off, takes it back (free) and lays it off again.
    relaid = laid.then(take_back(OPENER), lay_meld(OPENER, split.extra))
    laid_off = relaid.then(lay_off(OPENER, split.spare, split.onto))
    laid_off = laid_off.then(take_back(OPENER), lay_off(OPENER, split.spare, split.onto))
    rest = laid_off.rack(OPENER)
    worst = min(rest, key=lambda c: (wild(c, laid_off.state) or could_lay_off(laid_off.state, c),
                                     usefulness(c, rest, laid_off.state.okey.face)))
    turn_done = laid_off.then(discard(OPENER, worst))
    seat2_drawn = turn_done.then(draw(NEXT))
    mainline = bot_log(turn_done)
    again = next(
        i for i in range(len(turn_done.log), len(mainline))
        if mainline[i].seat == OPENER and table.at(*mainline[: i + 1]).state.phase
        is Phase101.PLAY
    )
    later_turn = table.at(*mainline[: again + 1])

    okey_table = Table101(SEED_OKEY)
    okey_drawn = okey_table.at(discard(0, okey_table.start().seats[0].rack[0]), draw(OPENER))
    fixed = fixed_okey(okey_drawn.state, OPENER)
    assert fixed is not None, SEED_OKEY
    okey_opened = okey_drawn.then(open_melds(OPENER, fixed.opening))

    take_table = Table101(SEED_TAKE)
    take_dealt = take_table.at()
    found = taken_opening(take_dealt.state)
    assert found is not None, SEED_TAKE
    taken_tile, taken_groups = found
    taken = take_dealt.then(discard(0, taken_tile), take(OPENER))
    taken_opened = taken.then(open_melds(OPENER, taken_groups))

    pairs_table = Table101(SEED_PAIRS)
    assert pairs_table_ok(SEED_PAIRS), SEED_PAIRS
    pairs_drawn = pairs_table.at(discard(0, pairs_table.start().seats[0].rack[0]), draw(OPENER))
    six = pairs_of(pairs_drawn.rack(OPENER), pairs_drawn.state)

    finished = finished_round(Table101(SEED_FINISH, FINISH_DEALER))
    assert finish_ok(SEED_FINISH, FINISH_DEALER), SEED_FINISH
    okey_finished = finished_round(Table101(SEED_OKEY_FINISH))
    assert okey_finish_ok(SEED_OKEY_FINISH), SEED_OKEY_FINISH
    exhausted = finished_round(Table101(SEED_EXHAUSTED, EXHAUSTED_DEALER, EXHAUSTED_ROUND))
    assert exhausted_ok(SEED_EXHAUSTED, EXHAUSTED_DEALER), SEED_EXHAUSTED
    assert one_turn_ok(SEED_ONE_TURN), SEED_ONE_TURN
    assert pairs_finish_ok(SEED_PAIRS_FINISH), SEED_PAIRS_FINISH
    assert void_ok(SEED_VOID), SEED_VOID
    assert cap_ok(SEED_CAP), SEED_CAP
    assert progressive_ok(SEED_PROGRESSIVE), SEED_PROGRESSIVE
    assert riziko_ok(SEED_RIZIKO), SEED_RIZIKO
    assert okey_left_ok(SEED_OKEY_LEFT), SEED_OKEY_LEFT
    okey_left = failed_first(finished_round(Table101(SEED_OKEY_LEFT)))
    assert okey_left is not None, SEED_OKEY_LEFT
    left_outcome = okey_left.state.outcome
    assert left_outcome is not None
    assert okey_left.state.seats[left_outcome.finisher].penalties == (Penalty.FAILED_OPENING,)
    return Positions(
        dealt=dealt,
        first_discard=first_discard,
        drawn=drawn,
        split=split,
        best=best,
        opened=opened,
        engine_faces=engine_faces,
        laid=laid,
        laid_off=laid_off,
        off_once=opened.then(lay_off(OPENER, split.spare, split.onto)),
        turn_done=turn_done,
        seat2_drawn=seat2_drawn,
        mainline=mainline,
        later_turn=later_turn,
        okey_drawn=okey_drawn,
        fixed=fixed,
        okey_opened=okey_opened,
        take_dealt=take_dealt,
        taken_tile=taken_tile,
        taken_groups=taken_groups,
        taken=taken,
        taken_opened=taken_opened,
        taken_undone=taken_opened.then(take_back(OPENER)),
        pairs_drawn=pairs_drawn,
        pairs_opened=pairs_drawn.then(open_melds(OPENER, six[:5], pairs=True)),
        six_pairs=six,
        finished=finished,
        okey_finished=okey_finished,
        exhausted=exhausted,
        one_turn=finished_round(Table101(SEED_ONE_TURN)),
        pairs_finished=finished_round(Table101(SEED_PAIRS_FINISH)),
        void=finished_round(Table101(SEED_VOID)),
        retrieval=okey_opened.under(RETRIEVAL),
        capped=_diverged(Table101(SEED_CAP), CAP),
        progressive=_diverged(Table101(SEED_PROGRESSIVE), PROGRESSIVE),
        riziko=finished_round(Table101(SEED_RIZIKO).under(RIZIKO)),
        okey_left=okey_left,
    )


def _diverged(table: Table101, option: tuple[str, Any]) -> tuple[Position, Move101]:
    """The player's round under `option`, up to the first move the option judges otherwise,
    and that move."""
    log = finished_round(table).log
    found = diverging(log, table, table.under(option))
    assert found is not None, table.seed
    index = found[0]
    return table.under(option).at(*log[:index]), log[index]


# --- case builders ---------------------------------------------------------------------------

LEGAL = None  # `want` for a move the engine must find legal


def apply_expect(result: Result101) -> Json:
    if result.legal:
        assert result.state is not None
        outcome = result.state.outcome
        return {
            "legal": True,
            "events": [event_json(e, outcome) for e in result.events],
            "status": status_json(result.state),
        }
    assert result.reason is not None
    return {
        "legal": False,
        "reason": f"ILLEGAL_REASON_{result.reason.name}",
        "state": None,  # an illegal move answers no state (an empty token)...
        "status": None,  # ... and no status
        "events": [],
    }


def apply_case(name: str, reason: str, at: Position, move: Move101, want: Any = LEGAL) -> Case:
    """ApplyMove at a position; `want` is the IllegalReason name the engine must give, or
    LEGAL."""
    result = apply_move_101(at.state, move)
    got = None if result.legal else result.reason and result.reason.name
    assert got == want, f"{name}: the engine says {got} ({result.message}), the case wants {want}"
    return {
        "name": f"game101-apply-{name}",
        "reason": reason,
        "given_state": at.given_state(),
        "request": {"move": move_json(move)},
        "expect": {"response": apply_expect(result)},
    }


def penalties(case: Case) -> list[str]:
    events = case["expect"]["response"]["events"]
    return [e["penalty"] for e in events if e["kind"] == "EVENT_KIND_PENALTY"]


def with_penalty(case: Case, penalty: str | None) -> Case:
    """A legal case whose events hold exactly this penalty (or none)."""
    assert penalties(case) == ([] if penalty is None else [f"PENALTY_{penalty}"]), case["name"]
    return case


def legal_case(name: str, reason: str, at: Position, seat: int,
               check: Callable[[list[Move101]], bool]) -> Case:
    """LegalMoves at a position; `check` says which kinds the engine must offer."""
    moves = legal_moves_101(at.state, seat)
    assert check(moves), f"{name}: {[m.kind.name for m in moves]}"
    return {
        "name": f"game101-legal-{name}",
        "reason": reason,
        "given_state": at.given_state(),
        "request": {"seat": seat},
        "expect": {"response": {"moves": [offered_json(m) for m in moves]}},
    }


def kinds(*wanted: Move101Kind) -> Callable[[list[Move101]], bool]:
    """A check that the moves' kinds, duplicates removed, are `wanted` in order."""

    def check(moves: list[Move101]) -> bool:
        seen: list[Move101Kind] = []
        for move in moves:
            if move.kind not in seen:
                seen.append(move.kind)
        return seen == list(wanted)

    return check


def view_case(name: str, reason: str, at: Position, seat: int) -> Case:
    return {
        "name": f"game101-view-{name}",
        "reason": reason,
        "given_state": at.given_state(),
        "request": {"seat": seat},
        "expect": {"response": view_json(at.state, seat)},
    }


def replay_case(name: str, reason: str, start: Table101 | Position, log: Sequence[Move101],
                want: Any = LEGAL) -> Case:
    """Replay from a seeded deal (a Table101) or from a replayed state (a Position)."""
    begin = start.state if isinstance(start, Position) else start.start()
    legal, final, applied, events, reason_got, _ = replay_101(begin, list(log))
    got = None if legal else reason_got and reason_got.name
    assert got == want, f"{name}: the engine says {got}, the case wants {want}"
    expect: Json = {
        "legal": legal,
        "movesApplied": applied,
        "events": [event_json(e, final.outcome) for e in events],
        # The public facts of the state after the last legal move.
        "status": status_json(final),
    }
    if not legal:
        assert reason_got is not None
        expect["illegalIndex"] = applied
        expect["reason"] = f"ILLEGAL_REASON_{reason_got.name}"
    case: Case = {"name": f"game101-replay-{name}", "reason": reason}
    moves = [logged_json(m) for m in log]
    if isinstance(start, Position):
        case["given_state"] = start.given_state()
        case["request"] = {"moves": moves}
    else:
        case["request"] = {"deal": start.request(), "moves": moves}
    case["expect"] = {"response": expect}
    return case


def error_case(name: str, reason: str, request: Json, field_path: str,
               at: Position | None = None) -> Case:
    case: Case = {"name": name, "reason": reason}
    if at is not None:
        case["given_state"] = at.given_state()
    case["request"] = request
    case["expect"] = {"error": {"code": "INVALID_ARGUMENT", "field": field_path}}
    return case


def not_a_meld(rack: Sequence[int], state: State101) -> tuple[tuple[int, None], ...]:
    """Three tiles of the rack, no okey among them, that make no set or run."""
    naturals = [c for c in rack if not wild(c, state)]
    for i, a in enumerate(naturals):
        for j in range(i + 1, len(naturals)):
            for k in range(j + 1, len(naturals)):
                group = ((a, None), (naturals[j], None), (naturals[k], None))
                if resolve_meld(group, state.okey, False, False) is None:
                    return group
    raise AssertionError("every three tiles make a meld")


def fits_nowhere(rack: Sequence[int], state: State101) -> int:
    """A natural tile of the rack that extends no meld on the table."""
    return next(c for c in rack if not wild(c, state) and not could_lay_off(state, c))


def other_copy(code: int) -> int:
    return (code + FACES) % (2 * FACES)


def elsewhere(at: Position, seat: int) -> int:
    """A tile the seat does not hold: the other copy of a face it holds once."""
    rack = at.rack(seat)
    return next(other_copy(c) for c in rack if other_copy(c) not in rack)


def smallest(groups: Groups, state: State101) -> Groups:
    """The group worth least: an opening below 101."""
    return (min(groups, key=lambda g: meld(g, state).value),)


def okey_for_face(fixed: FixedOkey, okey: Tile) -> tuple[int, int]:
    """The okey standing for the kept tile's face in the run, and that face."""
    face = plays_as(TILE_OF_CODE[fixed.kept], okey)
    assert face is not None
    return next((c, f) for c, f in fixed.opening[fixed.run] if f is not None and f == face.face)


# --- the vectors: ApplyMove ------------------------------------------------------------------


def apply_move_cases(p: Positions) -> list[Case]:
    dealt, first, drawn, opened = p.dealt, p.first_discard, p.drawn, p.opened
    state = drawn.state
    dealer_rack = dealt.rack(0)
    okey_tile = p.first_discard.log[0].tile
    assert okey_tile is not None
    plain = next(c for c in dealer_rack if not wild(c, dealt.state))
    rack1 = drawn.rack(OPENER)
    drawn_tile = rack1[-1]
    low = smallest(p.best, state)
    assert meld(low[0], state).value < 101
    whole_rack = (tuple((c, None) for c in rack1),)
    spare, onto = p.split.spare, p.split.onto
    stranger = fits_nowhere(opened.rack(OPENER), opened.state)
    fixed, okey_opened = p.fixed, p.okey_opened
    okey_code, okey_face = okey_for_face(fixed, okey_opened.state.okey)
    unfit = fixed.opening[fixed.run]
    # The okey made to stand for a face of another colour: the run is no run.
    bad_face = (okey_face + 13) % 52
    unfit_okey = tuple(
        tuple((c, bad_face if c == okey_code else f) for c, f in g) if i == fixed.run else g
        for i, g in enumerate(fixed.opening)
    )
    assert unfit != unfit_okey[fixed.run]
    taken, taken_tile = p.taken, p.taken_tile
    without_taken = melds_of([c for c in taken.rack(OPENER) if c != taken_tile], taken.state)
    assert without_taken
    assert taken_tile not in codes(without_taken)
    five, sixth = p.six_pairs[:5], p.six_pairs[5:]
    pairs_rest = [c for c in p.pairs_opened.rack(OPENER) if c not in codes(sixth)]
    pairs_run = melds_of(pairs_rest, p.pairs_opened.state)[:1]
    four = p.six_pairs[:4]
    not_pair = ((p.six_pairs[4][0][0], None), (p.six_pairs[5][0][0], None))
    finished, okey_finished, exhausted = p.finished, p.okey_finished, p.exhausted
    before_finish = finished.table.at(*finished.log[:-1])
    before_okey_finish = okey_finished.table.at(*okey_finished.log[:-1])
    before_exhausted = exhausted.table.at(*exhausted.log[:-1])
    finisher = finished.log[-1].seat
    next_after_finish = (finisher + 1) % PLAYERS
    return [
        apply_case(
            "dealer-opens-the-round-discarding",
            "docs/rules.md §10.1: the dealer holds 22 tiles and opens the round by discarding"
            " one, without drawing; seat 1 is next",
            dealt,
            discard(0, plain),
        ),
        with_penalty(apply_case(
            "dealer-discards-an-okey-penalty",
            "docs/rules.md §10.5: an okey discarded (not as the finishing discard) costs 101,"
            " reported as a PENALTY event",
            dealt,
            discard(0, okey_tile),
        ), "OKEY_DISCARDED"),
        apply_case(
            "dealer-draw-must-discard-first",
            "docs/rules.md §10.1: the dealer discards without drawing (MUST_DISCARD_FIRST)",
            dealt,
            draw(0),
            "MUST_DISCARD_FIRST",
        ),
        apply_case(
            "dealer-open-must-discard-first",
            "docs/rules.md §10.1: the dealer's first move is its discard; opening first is"
            " MUST_DISCARD_FIRST",
            dealt,
            open_melds(0, melds_of(dealer_rack, dealt.state)[:1]),
            "MUST_DISCARD_FIRST",
        ),
        apply_case(
            "dealer-take-back-must-discard-first",
            "docs/rules.md §10.1: before the dealer's discard nothing else is legal"
            " (MUST_DISCARD_FIRST)",
            dealt,
            take_back(0),
            "MUST_DISCARD_FIRST",
        ),
        apply_case(
            "not-your-turn",
            "docs/rules.md §10: only the seat on turn moves (NOT_YOUR_TURN)",
            dealt,
            discard(OPENER, dealt.rack(OPENER)[0]),
            "NOT_YOUR_TURN",
        ),
        apply_case(
            "tile-not-in-rack",
            "docs/rules.md §10.1, game.proto Move.tile: a tile the seat does not hold, copy"
            " included, is TILE_NOT_IN_RACK",
            dealt,
            discard(0, elsewhere(dealt, 0)),
            "TILE_NOT_IN_RACK",
        ),
        apply_case(
            "draw-from-the-bank",
            "docs/rules.md §10.1: the next seat draws the bank's next tile; only it sees the tile"
            " (a private event)",
            first,
            draw(OPENER),
        ),
        apply_case(
            "take-the-previous-discard",
            "docs/rules.md §10.1: or it takes the top tile of the previous seat's pile (here an"
            " okey)",
            first,
            take(OPENER),
        ),
        apply_case(
            "discard-must-draw-first",
            "docs/rules.md §10.1: every turn after the dealer's first discard starts with a draw"
            " (MUST_DRAW_FIRST)",
            first,
            discard(OPENER, rack1[0]),
            "MUST_DRAW_FIRST",
        ),
        apply_case(
            "open-must-draw-first",
            "docs/rules.md §10.1: opening comes after the turn's draw (MUST_DRAW_FIRST)",
            first,
            open_melds(OPENER, p.split.opening),
            "MUST_DRAW_FIRST",
        ),
        apply_case(
            "return-discard-must-draw-first",
            "docs/rules.md §10.1, §10.4: nothing was taken before the draw (MUST_DRAW_FIRST)",
            first,
            give_back(OPENER),
            "MUST_DRAW_FIRST",
        ),
        apply_case(
            "not-your-turn-next-seat",
            "docs/rules.md §10.1: after the dealer, seat 1 plays, not seat 2 (NOT_YOUR_TURN)",
            first,
            draw(NEXT),
            "NOT_YOUR_TURN",
        ),
        apply_case(
            "second-draw-must-discard-first",
            "docs/rules.md §10.1: one draw a turn (MUST_DISCARD_FIRST)",
            drawn,
            draw(OPENER),
            "MUST_DISCARD_FIRST",
        ),
        apply_case(
            "open-with-melds-of-101-or-more",
            "docs/rules.md §10.2: sets and runs worth 101 or more open (an okey counts as what it"
            " stands for, a false joker as the okey)",
            drawn,
            open_melds(OPENER, p.best),
        ),
        with_penalty(apply_case(
            "open-below-101-failed-opening",
            "docs/rules.md §10.2, §10.5: an opening worth less than 101 is not refused: its tiles"
            " stay in the rack and the seat pays the failed-opening penalty",
            drawn,
            open_melds(OPENER, low),
        ), "FAILED_OPENING"),
        apply_case(
            "open-not-a-meld-invalid-meld",
            "docs/rules.md §10.2: a group that is no set or run is INVALID_MELD",
            drawn,
            open_melds(OPENER, (*p.split.opening, not_a_meld(
                [c for c in rack1 if c not in codes(p.split.opening)], state))),
            "INVALID_MELD",
        ),
        apply_case(
            "open-tile-not-in-rack",
            "docs/rules.md §10.2: an opening lays the seat's own tiles (TILE_NOT_IN_RACK)",
            drawn,
            open_melds(OPENER, ((*p.split.opening[0], (elsewhere(drawn, OPENER), None)),)),
            "TILE_NOT_IN_RACK",
        ),
        apply_case(
            "open-whole-rack-must-keep-a-tile",
            "docs/rules.md §10.1: a laying move that would empty the rack is MUST_KEEP_A_TILE (the"
            " last tile is the discard)",
            drawn,
            open_melds(OPENER, whole_rack),
            "MUST_KEEP_A_TILE",
        ),
        apply_case(
            "lay-meld-not-opened",
            "docs/rules.md §10.3: laying a meld before opening is NOT_OPENED",
            drawn,
            lay_meld(OPENER, low),
            "NOT_OPENED",
        ),
        apply_case(
            "lay-off-not-opened",
            "docs/rules.md §10.3: laying off before opening is NOT_OPENED",
            drawn,
            lay_off(OPENER, drawn_tile, 0),
            "NOT_OPENED",
        ),
        apply_case(
            "take-back-nothing-laid",
            "docs/rules.md §10.5: only a laying move of this turn can be taken back"
            " (NOTHING_TO_TAKE_BACK)",
            drawn,
            take_back(OPENER),
            "NOTHING_TO_TAKE_BACK",
        ),
        apply_case(
            "return-after-a-bank-draw",
            "docs/rules.md §10.4: only a discard taken this turn goes back (NO_DISCARD_TO_RETURN)",
            drawn,
            give_back(OPENER),
            "NO_DISCARD_TO_RETURN",
        ),
        with_penalty(apply_case(
            "discard-before-opening-empty-table",
            "docs/rules.md §10.1: a seat need not open; with no meld on the table its discard"
            " costs nothing",
            drawn,
            discard(OPENER, drawn_tile),
        ), None),
        apply_case(
            "open-split-101-or-more",
            "docs/rules.md §10.2: any sets and runs worth 101 or more open, not only the most"
            " valuable",
            drawn,
            open_melds(OPENER, p.split.opening),
        ),
        apply_case(
            "already-opened",
            "docs/rules.md §10.2: a seat opens once (ALREADY_OPENED)",
            opened,
            open_melds(OPENER, p.split.extra),
            "ALREADY_OPENED",
        ),
        apply_case(
            "lay-meld-after-opening",
            "docs/rules.md §10.3: a seat that opened with melds lays new sets and runs, of any"
            " value",
            opened,
            lay_meld(OPENER, p.split.extra),
        ),
        apply_case(
            "lay-off-onto-own-meld",
            "docs/rules.md §10.3: a seat that has opened lays a tile off onto a set or run that"
            " stays one",
            opened,
            lay_off(OPENER, spare, onto),
        ),
        apply_case(
            "lay-off-does-not-fit",
            "docs/rules.md §10.3: a tile that does not extend the meld is CANNOT_LAY_OFF",
            opened,
            lay_off(OPENER, stranger, onto),
            "CANNOT_LAY_OFF",
        ),
        apply_case(
            "lay-off-no-such-meld",
            "game.proto Move.meld: the index of a table meld; one past the last is NO_SUCH_MELD",
            opened,
            lay_off(OPENER, spare, len(opened.state.table)),
            "NO_SUCH_MELD",
        ),
        with_penalty(apply_case(
            "discard-that-could-be-laid-off-penalty",
            "docs/rules.md §10.5: a discard that could have been laid off onto a table meld costs"
            " 101",
            opened,
            discard(OPENER, spare),
        ), "DISCARD_COULD_BE_LAID_OFF"),
        with_penalty(apply_case(
            "take-back-the-opening-penalty",
            "docs/rules.md §10.5: taking back an opening (several tiles) undoes it and costs 101",
            opened,
            take_back(OPENER),
        ), "TOOK_BACK_SEVERAL"),
        with_penalty(apply_case(
            "take-back-a-meld-penalty",
            "docs/rules.md §10.5: taking back a meld laid this turn costs 101",
            p.laid,
            take_back(OPENER),
        ), "TOOK_BACK_SEVERAL"),
        with_penalty(apply_case(
            "take-back-a-lay-off-free",
            "docs/rules.md §10.5: the last tile placed (a lay-off), the first tile the turn"
            " takes back, comes back free",
            p.off_once,
            take_back(OPENER),
        ), None),
        with_penalty(apply_case(
            "take-back-a-second-tile-penalty",
            "docs/rules.md §10.5: only one tile a turn comes back free: the lay-off taken back,"
            " laid off again and taken back again is a second tile, 101",
            p.off_once.then(take_back(OPENER), lay_off(OPENER, p.split.spare, p.split.onto)),
            take_back(OPENER),
        ), "TOOK_BACK_SEVERAL"),
        with_penalty(apply_case(
            "take-back-penalty-once-a-turn",
            "docs/rules.md §10.5: the take-back penalty is once a turn: this turn paid it for"
            " its meld taken back, so the lay-off comes back with no second penalty",
            p.laid_off,
            take_back(OPENER),
        ), None),
        with_penalty(apply_case(
            "discard-not-opened-could-be-laid-off-penalty",
            "docs/rules.md §10.5: the lay-off penalty applies even to a seat that has not opened",
            p.seat2_drawn,
            discard(NEXT, next(c for c in p.seat2_drawn.rack(NEXT)
                                if not wild(c, p.seat2_drawn.state)
                                and could_lay_off(p.seat2_drawn.state, c))),
        ), "DISCARD_COULD_BE_LAID_OFF"),
        apply_case(
            "lay-off-not-opened-onto-a-table-meld",
            "docs/rules.md §10.3: laying off onto another seat's meld needs an opening of one's"
            " own (NOT_OPENED)",
            p.seat2_drawn,
            lay_off(NEXT, p.seat2_drawn.rack(NEXT)[0], 0),
            "NOT_OPENED",
        ),
        apply_case(
            "open-okey-stands-for-a-kept-tile",
            "docs/rules.md §10.2: the move says what each okey stands for; the seat may keep the"
            " real tile",
            p.okey_drawn,
            open_melds(OPENER, fixed.opening),
        ),
        apply_case(
            "open-okey-stands-for-a-face-that-does-not-fit",
            "game.proto IllegalReason INVALID_MELD: an okey's stands_for that makes no run",
            p.okey_drawn,
            open_melds(OPENER, unfit_okey),
            "INVALID_MELD",
        ),
        apply_case(
            "lay-off-the-tile-a-table-okey-stands-for",
            "docs/rules.md §10.3: table okeys are fixed: the real tile an okey stands for cannot"
            " be laid off onto its run (CANNOT_LAY_OFF)",
            okey_opened,
            lay_off(OPENER, fixed.kept, fixed.run),
            "CANNOT_LAY_OFF",
        ),
        apply_case(
            "taken-discard-not-used",
            "docs/rules.md §10.4: discarding with the taken tile still in the rack is"
            " TAKEN_DISCARD_NOT_USED",
            taken,
            discard(OPENER, taken.rack(OPENER)[0]),
            "TAKEN_DISCARD_NOT_USED",
        ),
        apply_case(
            "open-without-the-taken-discard",
            "docs/rules.md §10.4: a seat not yet open lays the taken tile in its opening; one"
            " without it is TAKEN_DISCARD_NOT_USED",
            taken,
            open_melds(OPENER, without_taken),
            "TAKEN_DISCARD_NOT_USED",
        ),
        apply_case(
            "return-the-taken-discard",
            "docs/rules.md §10.4: before laying anything, the taken tile goes back on the pile and"
            " the seat draws from the bank, free",
            taken,
            give_back(OPENER),
        ),
        apply_case(
            "open-with-the-taken-discard",
            "docs/rules.md §10.4: the taken tile laid in the opening",
            taken,
            open_melds(OPENER, p.taken_groups),
        ),
        apply_case(
            "return-after-laying",
            "docs/rules.md §10.4: once something is laid the taken tile cannot go back"
            " (NO_DISCARD_TO_RETURN)",
            p.taken_opened,
            give_back(OPENER),
            "NO_DISCARD_TO_RETURN",
        ),
        apply_case(
            "return-after-the-opening-is-taken-back",
            "docs/rules.md §10.4: a laying move taken back counts as not laid, so the tile may"
            " then go back",
            p.taken_undone,
            give_back(OPENER),
        ),
        apply_case(
            "open-with-five-pairs",
            "docs/rules.md §10.2: five pairs or more open",
            p.pairs_drawn,
            open_melds(OPENER, five, pairs=True),
        ),
        with_penalty(apply_case(
            "open-four-pairs-failed-opening",
            "docs/rules.md §10.2, §10.5: fewer than five pairs is a failed opening (101)",
            p.pairs_drawn,
            open_melds(OPENER, four, pairs=True),
        ), "FAILED_OPENING"),
        apply_case(
            "open-pairs-not-a-pair",
            "docs/rules.md §10.2: opening with pairs, a group that is no pair is INVALID_MELD",
            p.pairs_drawn,
            open_melds(OPENER, (*four, not_pair), pairs=True),
            "INVALID_MELD",
        ),
        apply_case(
            "pairs-opener-lays-a-pair",
            "docs/rules.md §10.3: a seat that opened with pairs may lay further pairs",
            p.pairs_opened,
            lay_meld(OPENER, sixth),
        ),
        apply_case(
            "pairs-opener-lays-a-set-or-run",
            "docs/rules.md §10.3: a seat that opened with pairs lays no sets or runs"
            " (PAIRS_OPENER_LAYS_NO_MELDS)",
            p.pairs_opened,
            lay_meld(OPENER, pairs_run),
            "PAIRS_OPENER_LAYS_NO_MELDS",
        ),
        with_penalty(apply_case(
            "finishing-discard",
            "docs/rules.md §10.6: a discard that empties the rack finishes the round (ROUND_WON)",
            before_finish,
            finished.log[-1],
        ), None),
        with_penalty(apply_case(
            "finishing-with-an-okey-no-penalty",
            "docs/rules.md §10.5, §10.6: the finishing discard may be an okey, without the okey"
            " penalty",
            before_okey_finish,
            okey_finished.log[-1],
        ), None),
        with_penalty(apply_case(
            "finishing-in-the-opening-turn",
            "docs/rules.md §10.6: a seat that opens and finishes in one turn while nobody else"
            " has opened finishes like any other (the outcome says so)",
            p.one_turn.table.at(*p.one_turn.log[:-1]),
            p.one_turn.log[-1],
        ), None),
        apply_case(
            "fourth-pairs-opening-voids-the-round",
            "docs/rules.md §10.2: when the fourth seat opens with pairs too, the round is void"
            " (ROUND_VOID)",
            p.void.table.at(*p.void.log[:-1]),
            p.void.log[-1],
        ),
        with_penalty(apply_case(
            "discard-empties-the-bank",
            "docs/rules.md §10.5, §10.6: a discard that leaves the bank empty ends the round with"
            " nobody finished (ROUND_DRAWN); the okey left in an opened rack is a penalty event",
            before_exhausted,
            exhausted.log[-1],
        ), "OKEY_LEFT_IN_HAND"),
        with_penalty(apply_case(
            "finishing-discard-okey-left-in-an-opened-rack",
            "docs/rules.md §10.5, §10.6: the finishing discard ends the round; an okey still in"
            " the rack of another seat that has opened costs that seat 101, an event of this"
            " discard",
            p.okey_left.table.at(*p.okey_left.log[:-1]),
            p.okey_left.log[-1],
        ), "OKEY_LEFT_IN_HAND"),
        apply_case(
            "after-a-finish-round-over",
            "docs/rules.md §10.6: once a seat has finished no move is legal (ROUND_OVER)",
            finished,
            draw(next_after_finish),
            "ROUND_OVER",
        ),
        apply_case(
            "after-the-bank-ran-out-round-over",
            "docs/rules.md §10.6: once the bank has run out no move is legal (ROUND_OVER)",
            exhausted,
            draw(exhausted.state.turn),
            "ROUND_OVER",
        ),
        apply_case(
            "okey-retrieval-lay-off-takes-the-okey",
            "docs/rules.md §10.8 okey_retrieval: the real tile a table okey stands for takes its"
            " place and the okey comes to the rack (RETRIEVED_OKEY)",
            p.retrieval,
            lay_off(OPENER, fixed.kept, fixed.run),
        ),
        apply_case(
            "okey-retrieval-is-final",
            "docs/rules.md §10.8 okey_retrieval: a retrieval cannot be taken back"
            " (NOTHING_TO_TAKE_BACK)",
            p.retrieval.then(lay_off(OPENER, fixed.kept, fixed.run)),
            take_back(OPENER),
            "NOTHING_TO_TAKE_BACK",
        ),
        apply_case(
            "lay-off-cap-third-tile-on-one-end",
            "docs/rules.md §10.8 lay_off_cap: two tiles a turn onto each end of a meld; a third"
            " is LAY_OFF_CAP_REACHED",
            p.capped[0],
            p.capped[1],
            "LAY_OFF_CAP_REACHED",
        ),
        with_penalty(apply_case(
            "progressive-opening-below-the-best",
            "docs/rules.md §10.8 progressive_opening: an opening that does not beat the best so"
            " far is a failed opening (101)",
            p.progressive[0],
            p.progressive[1],
        ), "FAILED_OPENING"),
        error_case(
            "game101-apply-classic-move-declare-win",
            "docs/rules.md §10: an Okey 101 round has no classic-only move (DECLARE_WIN)",
            {"move": {"kind": "MOVE_KIND_DECLARE_WIN", "seat": 0, "tile": tile_json(plain)}},
            "move.kind",
            dealt,
        ),
        error_case(
            "game101-apply-classic-move-gosterme",
            "docs/rules.md §10: an Okey 101 round has no gösterme",
            {"move": {"kind": "MOVE_KIND_GOSTERME", "seat": 1}},
            "move.kind",
            dealt,
        ),
        error_case(
            "game101-apply-open-without-melds",
            "game.proto Move.melds: an OPEN names its melds",
            {"move": {"kind": "MOVE_KIND_OPEN", "seat": OPENER}},
            "move.melds",
            drawn,
        ),
        error_case(
            "game101-apply-lay-off-without-tile",
            "game.proto Move.tile: a LAY_OFF names its tile",
            {"move": {"kind": "MOVE_KIND_LAY_OFF", "seat": OPENER, "meld": 0}},
            "move.tile",
            opened,
        ),
        error_case(
            "game101-apply-okey-stands-for-a-false-joker",
            "game.proto LaidTile.stands_for: an okey stands for a numbered tile, never a false"
            " joker",
            {"move": {"kind": "MOVE_KIND_OPEN", "seat": OPENER, "melds": [{"tiles": [
                {"tile": tile_json(fixed.kept)},
                {"tile": tile_json(okey_code), "standsFor": {"falseJoker": True}},
            ]}]}},
            "move.melds[0].tiles[1].stands_for",
            p.okey_drawn,
        ),
        error_case(
            "game101-apply-draw-naming-a-tile",
            "game.proto Move.tile: must be unset for a move that names no tile (a draw)",
            {"move": {"kind": "MOVE_KIND_DRAW_FROM_WALL", "seat": OPENER,
                      "tile": tile_json(rack1[0])}},
            "move.tile",
            first,
        ),
        error_case(
            "game101-apply-discard-naming-melds",
            "game.proto Move.melds: only OPEN and LAY_MELD name melds",
            {"move": {**move_json(discard(OPENER, drawn_tile)),
                      "melds": groups_json(p.split.extra)}},
            "move.melds",
            drawn,
        ),
        error_case(
            "game101-apply-open-naming-a-face",
            "game.proto Move.stands_for: only a LAY_OFF of an okey says at move level what it"
            " stands for",
            {"move": {**move_json(open_melds(OPENER, p.best)), "standsFor": face_json(0)}},
            "move.stands_for",
            drawn,
        ),
        error_case(
            "game101-apply-seat-does-not-exist",
            "docs/rules.md §10: Okey 101 is played by four: seat 4 does not exist",
            {"move": {"kind": "MOVE_KIND_DRAW_FROM_WALL", "seat": 4}},
            "move.seat",
            first,
        ),
    ]


# --- the vectors: LegalMoves, PlayerView, Replay ---------------------------------------------

DISCARD, DRAW, TAKE = Move101Kind.DISCARD, Move101Kind.DRAW_FROM_WALL, Move101Kind.TAKE_DISCARD
RETURN, LAY_OFF, BACK = Move101Kind.RETURN_DISCARD, Move101Kind.LAY_OFF, Move101Kind.TAKE_BACK


def legal_moves_cases(p: Positions) -> list[Case]:
    finisher = p.finished.log[-1].seat
    return [
        legal_case(
            "dealer-first-discard",
            "docs/rules.md §10.1: the dealer opens the round by discarding: one DISCARD per rack"
            " tile, 22 of them",
            p.dealt,
            0,
            kinds(DISCARD),
        ),
        legal_case(
            "off-turn-none",
            "docs/rules.md §10: a seat off turn has no move",
            p.dealt,
            NEXT,
            kinds(),
        ),
        legal_case(
            "draw-or-take",
            "docs/rules.md §10.1: a turn starts with a bank draw or the previous seat's discard",
            p.first_discard,
            OPENER,
            kinds(DRAW, TAKE),
        ),
        legal_case(
            "drawn-not-opened-discards",
            "docs/rules.md §10.1, game.proto LegalMoves: after the draw, with nothing on the"
            " table and nothing to take back, the discards (openings are not listed)",
            p.drawn,
            OPENER,
            kinds(DISCARD),
        ),
        legal_case(
            "taken-discard-must-be-used",
            "docs/rules.md §10.4: with the taken tile in the rack no discard is legal; it may go"
            " back (openings are not listed)",
            p.taken,
            OPENER,
            kinds(RETURN),
        ),
        legal_case(
            "opened-take-back-lay-offs-discards",
            "docs/rules.md §10.3, §10.5: after opening this turn: take it back, lay off onto table"
            " melds, discard",
            p.opened,
            OPENER,
            kinds(BACK, LAY_OFF, DISCARD),
        ),
        legal_case(
            "not-opened-no-lay-offs",
            "docs/rules.md §10.3: a seat that has not opened lays nothing off, even with melds on"
            " the table",
            p.seat2_drawn,
            NEXT,
            kinds(DISCARD),
        ),
        legal_case(
            "opened-earlier-nothing-to-take-back",
            "docs/rules.md §10.5: in a later turn the opening cannot be taken back",
            p.later_turn,
            OPENER,
            lambda moves: BACK not in {m.kind for m in moves} and bool(moves),
        ),
        legal_case(
            "pairs-on-the-table-take-no-lay-off",
            "docs/rules.md §10.3: lay-offs go onto sets and runs; with only pairs on the table the"
            " pairs-opener may take its opening back or discard",
            p.pairs_opened,
            OPENER,
            kinds(BACK, DISCARD),
        ),
        legal_case(
            "round-finished-none",
            "docs/rules.md §10.6: once a seat has finished nobody moves",
            p.finished,
            (finisher + 1) % PLAYERS,
            kinds(),
        ),
        legal_case(
            "bank-ran-out-none",
            "docs/rules.md §10.6: once the bank has run out nobody moves",
            p.exhausted,
            p.exhausted.state.turn,
            kinds(),
        ),
        legal_case(
            "round-void-none",
            "docs/rules.md §10.2: a void round is over: nobody moves",
            p.void,
            p.void.state.turn,
            kinds(),
        ),
        error_case(
            "game101-legal-seat-does-not-exist",
            "docs/rules.md §10: Okey 101 is played by four: seat 4 does not exist",
            {"seat": 4},
            "seat",
            p.dealt,
        ),
    ]


def player_view_cases(p: Positions) -> list[Case]:
    finisher = p.finished.log[-1].seat
    return [
        view_case(
            "dealt-dealer",
            "docs/rules.md §10.1, §8.7: the dealer sees its 22 tiles, every seat's counts, the"
            " bank's size; no table yet",
            p.dealt,
            0,
        ),
        view_case(
            "dealt-seat-1",
            "docs/rules.md §8.7: seat 1 sees its own 21 tiles, never another rack",
            p.dealt,
            OPENER,
        ),
        view_case(
            "opened-table",
            "docs/rules.md §10.3, §10.5: the table's melds (each tile with the face it stands for,"
            " an okey marked wild), who opened, each seat's penalties",
            p.turn_done,
            NEXT,
        ),
        view_case(
            "opened-table-opener",
            "docs/rules.md §10.3: the opener's own view of the same table",
            p.turn_done,
            OPENER,
        ),
        view_case(
            "table-okey-fixed",
            "docs/rules.md §10.3: an okey on the table shows the face it stands for",
            p.okey_opened,
            3,
        ),
        view_case(
            "okey-face-chosen-by-the-engine",
            "docs/rules.md §10.2: an okey laid without a face stands for the one that makes its"
            " meld worth most (at a run's end: the higher)",
            p.engine_faces,
            OPENER,
        ),
        view_case(
            "okey-retrieved",
            "docs/rules.md §10.8 okey_retrieval: the real tile stands on the table where the okey"
            " stood; the okey is in the seat's rack",
            p.retrieval.then(lay_off(OPENER, p.fixed.kept, p.fixed.run)),
            OPENER,
        ),
        view_case(
            "taken-discard-pending",
            "game.proto PlayerViewResponse.taken_discard: the discard the seat on turn took and"
            " has still to lay",
            p.taken,
            3,
        ),
        view_case(
            "pairs-opened",
            "docs/rules.md §10.2: a pairs opening: the pairs on the table, OPENED_PAIRS",
            p.pairs_opened,
            0,
        ),
        view_case(
            "later-in-the-round",
            "docs/rules.md §8.7, §10: the whole of one's own pile and the previous seat's, the top"
            " of the others; every seat's opening",
            p.later_turn,
            OPENER,
        ),
        view_case(
            "round-finished",
            "docs/rules.md §10.6: a finished round's outcome: the seat that finished",
            p.finished,
            (finisher + 2) % PLAYERS,
        ),
        view_case(
            "round-finished-with-an-okey",
            "docs/rules.md §10.6: the outcome says the finishing discard was an okey",
            p.okey_finished,
            p.okey_finished.log[-1].seat,
        ),
        view_case(
            "one-turn-finish",
            "docs/rules.md §10.6: the outcome says the seat opened and finished in one turn",
            p.one_turn,
            p.one_turn.log[-1].seat,
        ),
        view_case(
            "round-void",
            "docs/rules.md §10.2: all four opened with pairs: the outcome says the round is void",
            p.void,
            0,
        ),
        view_case(
            "bank-ran-out",
            "docs/rules.md §10.6: the bank ran out: the outcome is drawn, nobody finished",
            p.exhausted,
            0,
        ),
        error_case(
            "game101-view-seat-does-not-exist",
            "docs/rules.md §10: Okey 101 is played by four: seat 4 does not exist",
            {"seat": 4},
            "seat",
            p.dealt,
        ),
    ]


def replay_cases(p: Positions) -> list[Case]:
    table = p.dealt.table
    mainline = p.mainline
    half = len(p.finished.log) // 2
    finish_table = p.finished.table
    return [
        replay_case(
            "empty-log",
            "game.proto ReplayRequest: an empty log from a seeded Okey 101 deal is legal",
            table,
            [],
        ),
        replay_case(
            "opening-turn",
            "docs/rules.md §10.1-§10.5: the dealer's okey discard, seat 1's draw, opening, meld"
            " taken back and laid again, lay-off taken back and laid again, discard",
            table,
            p.turn_done.log,
        ),
        replay_case(
            "whole-round-bank-runs-out",
            "docs/rules.md §10.6: the opening turn above played on to the end of the bank",
            table,
            mainline,
        ),
        replay_case(
            "whole-round-finished",
            "docs/rules.md §10.6: a round from the deal to a finish; the last event is ROUND_WON",
            finish_table,
            p.finished.log,
        ),
        replay_case(
            "whole-round-void",
            "docs/rules.md §10.2: a round in which all four seats open with pairs; the last event"
            " is ROUND_VOID",
            p.void.table,
            p.void.log,
        ),
        replay_case(
            "finished-from-a-state",
            "game.proto ReplayRequest.start: a log may start from a state the server issued",
            finish_table.at(*p.finished.log[:half]),
            p.finished.log[half:],
        ),
        replay_case(
            "illegal-first-move",
            "game.proto ReplayResponse: the first illegal move's index and reason; nothing applied",
            table,
            [draw(OPENER)],
            "NOT_YOUR_TURN",
        ),
        replay_case(
            "illegal-later-move",
            "game.proto ReplayResponse: the moves before the first illegal one are applied, their"
            " events given (a lay-off onto a table okey's face: CANNOT_LAY_OFF)",
            p.okey_drawn.table,
            (*p.okey_opened.log, lay_off(OPENER, p.fixed.kept, p.fixed.run),
             discard(OPENER, p.fixed.kept)),
            "CANNOT_LAY_OFF",
        ),
        replay_case(
            "move-after-the-round-round-over",
            "docs/rules.md §10.6: a move logged after the bank ran out is ROUND_OVER",
            table,
            (*mainline, draw(OPENER)),
            "ROUND_OVER",
        ),
        replay_case(
            "taken-discard-not-used",
            "docs/rules.md §10.4: a taken discard not laid before the discard is"
            " TAKEN_DISCARD_NOT_USED",
            p.take_dealt.table,
            (*p.taken.log, discard(OPENER, p.taken_tile)),
            "TAKEN_DISCARD_NOT_USED",
        ),
        error_case(
            "game101-replay-three-seats",
            "docs/dealing.md: Okey 101 is dealt to exactly four players (deal.player_count)",
            {"deal": {"seed": SEED_OPEN, "preset": "101", "playerCount": 3}},
            "deal.player_count",
        ),
        error_case(
            "game101-replay-classic-move-end-round",
            "docs/rules.md §10: an Okey 101 log has no classic-only move (END_ROUND), named by its"
            " index",
            {
                "deal": table.request(),
                "moves": [logged_json(p.first_discard.log[0]),
                          {"move": {"kind": "MOVE_KIND_END_ROUND", "seat": OPENER}}],
            },
            "moves[1].move.kind",
        ),
        error_case(
            "game101-replay-lay-meld-without-melds",
            "game.proto Move.melds: a LAY_MELD names its melds, in the log too",
            {
                "deal": table.request(),
                "moves": [*[logged_json(m) for m in p.opened.log],
                          {"move": {"kind": "MOVE_KIND_LAY_MELD", "seat": OPENER}}],
            },
            f"moves[{len(p.opened.log)}].move.melds",
        ),
        error_case(
            "game101-replay-discard-without-tile",
            "game.proto Move.tile: a DISCARD names its tile",
            {"deal": table.request(), "moves": [{"move": {"kind": "MOVE_KIND_DISCARD",
                                                          "seat": 0}}]},
            "moves[0].move.tile",
        ),
    ]


# --- the vectors: ScoreRound of finished 101 rounds -----------------------------------------


def rack_points_by_the_text(state: State101, seat: int) -> int:
    """§10.7: each tile its number, a false joker the okey's number, an okey its own."""
    total = 0
    for code in state.seats[seat].rack:
        tile = TILE_OF_CODE[code]
        total += state.okey.number if tile.is_false_joker else tile.number
    return total


def points_by_the_text(state: State101) -> list[int]:
    """Each seat's points for a finished round, read from docs/rules.md §10.7 and the §10.8
    variants (a second reading beside okey_rules.scoring101, which must agree)."""
    outcome = state.outcome
    assert outcome is not None
    rules = state.rules
    points = [0] * PLAYERS
    if outcome.kind == "void":
        return points
    finisher = outcome.finisher if outcome.kind == "finished" else None
    everything = 1
    if finisher is not None:
        everything = (2 if outcome.okey_discard else 1) * (2 if outcome.one_turn else 1)
        # A pairs-opener doubles the round's points, its own -101 too; riziko never does.
        pairs_double = 2 if state.seats[finisher].opened is Opened.PAIRS else 1
        points[finisher] = FINISH * everything * pairs_double
    costs = 2 if state.riziko else 1  # §10.8 riziko: every point the round costs
    waived = None  # §10.8 partnership_waiver: the finisher's partner pays no tiles
    if finisher is not None and rules.partnership and rules.partnership_waiver:
        waived = (finisher + 2) % PLAYERS
    for seat, held in enumerate(state.seats):
        # §10.5: every penalty of the round adds 101, the finisher's own included (a seat
        # that paid for a failed opening and finished later still pays it). The okeys left in
        # hand are counted from the racks below, so the engine's record of them is left out.
        others = [p for p in held.penalties if p is not Penalty.OKEY_LEFT_IN_HAND]
        points[seat] += PENALTY * costs * len(others)
        if seat == finisher:
            continue
        if (finisher is not None or rules.exhaustion_scores_tiles) and seat != waived:
            factor = everything * costs
            if finisher is not None and state.seats[finisher].opened is Opened.PAIRS:
                factor *= 2
            if held.opened is Opened.PAIRS:
                factor *= 2
            base = NEVER_OPENED if held.opened is None else rack_points_by_the_text(state, seat)
            points[seat] += base * factor
        if held.opened is not None:
            # §10.5, §10.7: each okey still in an opened rack at the end costs 101; a seat
            # that never opened pays its 202 and nothing more.
            points[seat] += PENALTY * costs * sum(wild(c, state) for c in held.rack)
    return points


def winners_by_the_text(rules: Ruleset, scores: Sequence[int]) -> list[int]:
    """§10.7: the lowest total wins, ties all; with partnership the lowest team total."""
    totals = list(scores)
    if rules.partnership:
        totals = [scores[s] + scores[(s + 2) % PLAYERS] for s in range(PLAYERS)]
    return [s for s in range(PLAYERS) if totals[s] == min(totals)]


def score_json(scored: RoundScore) -> Json:
    return {
        "deltas": list(scored.deltas),
        "table": {"scores": list(scored.table.scores), "roundsPlayed": scored.table.rounds_played},
        "roundValue": scored.value,
        "lines": [
            {
                "rule": f"SCORE_RULE_{line.rule.name}",
                "seat": line.seat,
                "factor": line.factor,
                "deltas": list(line.deltas),
            }
            for line in scored.lines
        ],
        "gameOver": scored.game_over,
        "winnerSeats": list(scored.winners),
        "eliminated": [False] * PLAYERS,
    }


def score_case(name: str, reason: str, at: Position, before: Table | None = None,
               rule: str | None = None) -> Case:
    """ScoreRound of a finished 101 state; the numbers read from §10.7 here must be the
    engine's. `rule`: a ScoreRule the answer must show."""
    state = at.state
    scored = score_round_101(state, before)
    start = before.scores if before is not None else (0,) * PLAYERS
    mine = points_by_the_text(state)
    assert list(scored.deltas) == mine, f"{name}: the engine says {scored.deltas}, §10.7 {mine}"
    for line in scored.lines:
        assert not line.deltas or sum(line.deltas) == sum(line.deltas[line.seat:line.seat + 1])
    total = [a + b for a, b in zip(start, mine, strict=True)]
    assert list(scored.table.scores) == total, name
    void = state.outcome is not None and state.outcome.kind == "void"
    # §10.7: a void round is dealt again as the same round: not one of the game's rounds.
    rounds = (before.rounds_played if before is not None else 0) + (not void)
    assert scored.table.rounds_played == rounds, name
    over = bool(state.rules.game_rounds) and rounds >= state.rules.game_rounds
    assert scored.game_over is over, name
    assert list(scored.winners) == (winners_by_the_text(state.rules, total) if over else []), name
    if rule is not None:
        assert any(line.rule.name == rule for line in scored.lines), f"{name}: no {rule} line"
    response = score_json(scored)
    # §10.7: the next round is dealt by the seat after the dealer and numbered one more.
    response["nextDealerSeat"] = 0 if over else (state.dealer + (not void)) % PLAYERS
    response["nextRound"] = 0 if over else state.round + (not void)
    request: Json = {"round": {}}
    if before is not None:
        request["table"] = {"scores": list(before.scores), "roundsPlayed": before.rounds_played}
    return {
        "name": f"score101-round-{name}",
        "reason": reason,
        "given_state": at.given_state(),
        "request": request,
        "expect": {"response": response},
    }


def score_round_cases(p: Positions) -> list[Case]:
    finished, okey_finished, exhausted = p.finished, p.okey_finished, p.exhausted
    mainline = p.dealt.table.at(*p.mainline)
    no_tiles = ("exhaustionScoresTiles", False)
    one_round = ("gameRounds", 1)
    three_rounds = ("gameRounds", 3)
    return [
        score_case(
            "finished",
            "docs/rules.md §10.7: the finisher -101, the others their tiles left, 202 for a seat"
            " that never opened; the next round is dealt by the next seat",
            finished,
            rule="FINISHED",
        ),
        score_case(
            "finished-with-an-okey",
            "docs/rules.md §10.7: finishing with an okey discard doubles everything",
            okey_finished,
            rule="OKEY_DISCARD",
        ),
        score_case(
            "one-turn-finish",
            "docs/rules.md §10.7: a one-turn finish, nobody else open, doubles everything",
            p.one_turn,
            rule="ONE_TURN_FINISH",
        ),
        score_case(
            "pairs-opener-finished",
            "docs/rules.md §10.7: a seat that opened with pairs finishes: the round's points"
            " double, its own -101 included (-202), and what every other seat pays",
            p.pairs_finished,
            rule="PAIRS_OPENER",
        ),
        score_case(
            "void-round",
            "docs/rules.md §10.7: a void round scores nothing; it is dealt again by the same"
            " dealer, as the same round",
            p.void,
            rule="VOID_ROUND",
        ),
        score_case(
            "bank-ran-out",
            "docs/rules.md §10.7: the bank ran out: every rack scores (202 never opened, a"
            " pairs-opener doubled), an okey left in an opened rack 101",
            exhausted,
            rule="OKEY_IN_HAND",
        ),
        score_case(
            "finished-okey-left-and-finishers-penalty",
            "docs/rules.md §10.5, §10.7: after a finish an okey left in an opened rack costs 101"
            " (OKEY_IN_HAND); the finisher's own penalty of the round (a failed opening) counts"
            " beside its -101",
            p.okey_left,
            rule="OKEY_IN_HAND",
        ),
        score_case(
            "bank-ran-out-tiles-not-scored",
            "docs/rules.md §10.7 option exhaustion_scores_tiles off: the racks score nothing when"
            " the bank runs out; okeys left still cost 101",
            exhausted.under(no_tiles),
            rule="BANK_EXHAUSTED",
        ),
        score_case(
            "penalties",
            "docs/rules.md §10.5, §10.7: each penalty of the round adds 101, never doubled",
            mainline,
            rule="PENALTY",
        ),
        score_case(
            "riziko",
            "docs/rules.md §10.8 riziko: a false joker turned up at the deal doubles every point"
            " the round costs (not the finisher's -101)",
            p.riziko,
            rule="RIZIKO",
        ),
        score_case(
            "partnership-waiver",
            "docs/rules.md §10.8 partnership_waiver: the finisher's partner pays nothing for its"
            " tiles",
            finished.under(("partnership", True), ("partnershipWaiver", True)),
            rule="PARTNER_WAIVED",
        ),
        score_case(
            "game-of-one-round",
            "docs/rules.md §10.7 option game_rounds: after the game's last round the lowest total"
            " wins; no next deal",
            finished.under(one_round),
        ),
        score_case(
            "game-partnership",
            "docs/rules.md §10.7 option partnership: the lowest team total (opposite seats) wins",
            okey_finished.under(one_round, ("partnership", True)),
        ),
        score_case(
            "game-ends-with-the-table",
            "docs/rules.md §10.7: the round's points add to the table's; the third of three"
            " rounds ends the game on the totals",
            exhausted.under(three_rounds),
            before=Table((-101, 240, 95, 180), 2),
        ),
        score_case(
            "table-before",
            "scoring.proto TableScores: the round's points are added to the scores before it",
            finished,
            before=Table((120, -101, 303, 44), 1),
        ),
        error_case(
            "score101-round-unfinished-state",
            "docs/rules.md §10.7: a round is scored from its finished state (round.state)",
            {"round": {}},
            "round.state",
            p.turn_done,
        ),
        error_case(
            "score101-round-state-with-preset",
            "scoring.proto ScoreRoundRequest.preset: a state carries its own rules",
            {"preset": "101", "round": {}},
            "preset",
            finished,
        ),
        error_case(
            "score101-round-three-scores",
            "docs/rules.md §10.7: an Okey 101 table has four scores (table.scores)",
            {"round": {}, "table": {"scores": [0, 0, 0]}},
            "table.scores",
            finished,
        ),
        error_case(
            "score101-round-game-already-over",
            "docs/rules.md §10.7 option game_rounds: no round after the game's last"
            " (table.rounds_played)",
            {"round": {}, "table": {"scores": [0, 0, 0, 0], "roundsPlayed": 1}},
            "table.rounds_played",
            finished.under(one_round),
        ),
    ]


# --- the files ------------------------------------------------------------------------------

GAME_SERVICE = "okey.v1.GameService"
SCORING_SERVICE = "okey.v1.ScoringService"
FILES: dict[str, tuple[str, str, str, str, Callable[[Positions], list[Case]]]] = {
    "game101_apply_move.json": (
        "GameService: ApplyMove, Okey 101",
        "docs/rules.md §10 (Okey 101 rounds); game.proto (IllegalReason, Penalty, EventKind)",
        GAME_SERVICE,
        "ApplyMove",
        apply_move_cases,
    ),
    "game101_legal_moves.json": (
        "GameService: LegalMoves, Okey 101",
        "docs/rules.md §10; game.proto (LegalMovesResponse)",
        GAME_SERVICE,
        "LegalMoves",
        legal_moves_cases,
    ),
    "game101_player_view.json": (
        "GameService: PlayerView, Okey 101",
        "docs/rules.md §8.7, §10; game.proto (PlayerViewResponse, TableMeld)",
        GAME_SERVICE,
        "PlayerView",
        player_view_cases,
    ),
    "game101_replay.json": (
        "GameService: Replay, Okey 101",
        "docs/rules.md §10; game.proto (ReplayRequest, ReplayResponse)",
        GAME_SERVICE,
        "Replay",
        replay_cases,
    ),
    "scoring101_round.json": (
        "ScoringService: ScoreRound, Okey 101",
        "docs/rules.md §10.7 (Scoring an Okey 101 round); scoring.proto",
        SCORING_SERVICE,
        "ScoreRound",
        score_round_cases,
    ),
}

NOTES = (
    "Expected answers derived by scripts/derive_game101_vectors.py from the engine's Okey 101"
    " rules (docs/rules.md §10), scores also read from §10.7 directly. A sealed state cannot be"
    " stored in a vector (the token opens under one server key only): a case that needs a"
    " position carries given_state, a ReplayRequest (a seeded Okey 101 deal and a move log)"
    " that the runner replays first, putting the answer's state into the request. No expected"
    " answer pins a token (an illegal move's is pinned empty); legal answers pin the round's"
    " status instead, and views the deal's kind, never the keyed deal id. Message texts and"
    " score-line texts are not pinned either."
)


def build_files() -> dict[str, Json]:
    """Every vector file, by file name, as the JSON object to write."""
    p = positions()
    return {
        name: {
            "suite": suite,
            "source": source,
            "service": service,
            "method": method,
            "notes": NOTES,
            "cases": cases(p),
        }
        for name, (suite, source, service, method, cases) in FILES.items()
    }


# --- how the seeds were found ----------------------------------------------------------------


def search(prefix: str, found: Callable[[str], bool], limit: int = 500) -> str:
    """The first seed `prefix-N` (N < limit) with the property."""
    seed = next((f"{prefix}-{n}" for n in range(limit) if found(f"{prefix}-{n}")), None)
    assert seed is not None, f"no {prefix}-N seed below {limit}"
    return seed


def _searches() -> Iterator[tuple[str, str]]:
    yield "SEED_OPEN", search("okey101-open", open_table_ok)
    yield "SEED_OKEY", search("okey101-okey", okey_table_ok)
    yield "SEED_TAKE", search("okey101-take", take_table_ok)
    yield "SEED_PAIRS", search("okey101-pairs", pairs_table_ok, 2000)
    yield "SEED_FINISH", search("okey101-finish", lambda s: finish_ok(s, FINISH_DEALER))
    yield "SEED_OKEY_FINISH", search("okey101-okey-finish", okey_finish_ok, 1000)
    def one_turn_candidate(seed: str) -> bool:
        # A cheap first look: a seat whose dealt rack lays all but a few tiles in its best
        # melds (the first one-turn seed passes it).
        start = Table101(seed).start()
        left = min(
            len(best_opening([TILE_OF_CODE[c] for c in held.rack], start.okey, start.rules).unused)
            for held in start.seats
        )
        return left <= 4 and one_turn_ok(seed)

    yield "SEED_ONE_TURN", search("okey101-one-turn", one_turn_candidate, 1000)
    yield "SEED_PAIRS_FINISH", search("okey101-pairs-finish", pairs_finish_ok, 1000)
    def void_candidate(seed: str) -> bool:
        # A cheap first look before playing the round: four pairs openings within a few
        # draws need pairs at the deal (the first void seed passes it).
        start = Table101(seed).start()
        pairs = [len(pairs_of(held.rack, start)) for held in start.seats]
        return min(pairs) >= 2 and sum(pairs) >= 14 and void_ok(seed)

    yield "SEED_VOID", search("okey101-void", void_candidate, 3000)
    yield "SEED_CAP", search("okey101-cap", cap_ok)
    yield "SEED_PROGRESSIVE", search("okey101-progressive", progressive_ok)
    yield "SEED_RIZIKO", search("okey101-riziko", riziko_ok)
    yield "SEED_EXHAUSTED", search(
        "okey101-exhausted", lambda s: exhausted_ok(s, EXHAUSTED_DEALER), 1000
    )
    yield "SEED_OKEY_LEFT", search("okey101-okey-left", okey_left_ok)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--write", metavar="DIR", type=Path, help="write the files into DIR")
    parser.add_argument("--search", action="store_true", help="re-find the special seeds")
    args = parser.parse_args(argv)
    if args.search:
        for name, seed in _searches():
            print(f"{name} = {seed!r}", flush=True)
        return 0
    g = game_vectors()
    started = time.monotonic()
    files = build_files()
    if not args.write:
        print(g.dump(files))
        return 0
    for name, data in files.items():
        (args.write / name).write_text(g.file_text(data), encoding="utf-8")
        print(f"wrote {args.write / name} ({len(data['cases'])} cases)", file=sys.stderr)
    print(f"built in {time.monotonic() - started:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
