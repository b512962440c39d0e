"""An Okey 101 round, one move at a time (docs/rules.md §10): pure, like the classic engine.

Melds on the table are judged by the rulebook (`table_meld_kind`): every
tile on the table stands for one face, fixed when it was laid, so a lay-off
can extend a meld but never change what an okey in it stands for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import product

from okey_rules.dealing.deal_types import Deal
from okey_rules.errors import InvalidInputError, check_seat
from okey_rules.play.game101_types import (
    FACE_COUNT,
    OKEY_101_MOVES,
    Laid,
    LayAction,
    Replay101,
    Result101,
    Seat101,
    State101,
    TableMeld,
)
from okey_rules.play.results import MoveResult, ReplayResult
from okey_rules.play.round_types import (
    Event,
    EventKind,
    IllegalReason,
    Move,
    MoveKind,
    Opened,
    Outcome,
    Penalty,
    Phase,
    RoundEnd,
)
from okey_rules.play.turns import (
    discard,
    draw,
    fast_replace,
    next_seat,
    previous_seat,
    take_discard,
    with_seat,
)
from okey_rules.rulebook import (
    OPENING_PAIRS,
    OPENING_POINTS,
    PENALTY_POINTS,
    is_wild,
    plays_as,
    table_meld_kind,
    tile_value,
)
from okey_rules.ruleset import Game
from okey_rules.search.hand_types import MeldKind
from okey_rules.tiles import TILE_OF_CODE, Tile, format_tile

FREE_TAKE_BACK = 1  # §10.5: the tiles a turn may take back free (the last tile placed)
MOVES_WITH_TILE = (MoveKind.DISCARD, MoveKind.LAY_OFF)
MOVES_WITH_MELDS = (MoveKind.OPEN, MoveKind.LAY_MELD)
LAYING = (MoveKind.OPEN, MoveKind.LAY_MELD, MoveKind.LAY_OFF)


def start_round_101(dealt: Deal, *, deal_id: str = "", round_number: int = 1) -> State101:
    """§10.1: the dealer holds 22 tiles and opens the round by discarding."""
    if dealt.rules.game is not Game.OKEY_101:
        raise InvalidInputError("ruleset.game", "an Okey 101 round needs an Okey 101 deal")
    return State101(
        rules=dealt.rules,
        dealer=dealt.dealer,
        indicator=dealt.indicator,
        seats=tuple(Seat101(rack=rack) for rack in dealt.racks),
        wall=dealt.wall,
        turn=dealt.first_seat,
        phase=Phase.FIRST_DISCARD,
        deal_id=deal_id,
        round=round_number,
        riziko=dealt.rules.riziko and dealt.false_joker_turned_up,
    )


LAY_OFF_CAP = 2  # §10.8: tiles per meld end per turn
RETRIEVAL = 3  # LayAction.side of an okey retrieval (§10.8), which is final


# --- melds -------------------------------------------------------------------------------------


def _face_of(code: int, okey: Tile) -> int | None:
    """The face a natural tile plays as; None for an okey (wild)."""
    face = plays_as(TILE_OF_CODE[code], okey)
    return None if face is None else face.face


def resolve_meld(
    entries: Sequence[tuple[int, int | None]],
    okey: Tile,
    runs_13_to_1: bool,
    pairs: bool,
    wild_pairs: bool = True,
) -> TableMeld | None:
    """The meld these tiles make, each okey standing for the face given or, where none is
    given, the face that makes the meld worth most (ties: the lowest faces); None when
    they make no meld. A natural tile stands for its own face (a false joker for the
    okey's); a face given for it must be that one."""
    fixed: list[int | None] = []
    for code, face in entries:
        natural = _face_of(code, okey)
        if natural is not None:
            if face is not None and face != natural:
                return None
            fixed.append(natural)
        else:
            if face is not None and not 0 <= face < FACE_COUNT:
                return None
            fixed.append(face)
    wilds = sum(_face_of(code, okey) is None for code, _ in entries)
    if pairs and wilds == 2 and not wild_pairs:
        return None  # §4.2 option wild_pairs: the two okeys may not pair together
    open_slots = [i for i, face in enumerate(fixed) if face is None]
    best: tuple[int, tuple[int, ...]] | None = None
    best_kind: MeldKind | None = None
    for choice in product(range(FACE_COUNT), repeat=len(open_slots)):
        faces = list(fixed)
        for slot, face in zip(open_slots, choice, strict=True):
            faces[slot] = face
        chosen = tuple(f for f in faces if f is not None)
        kind = _kind_of(chosen, runs_13_to_1, pairs)
        if kind is None:
            continue
        key = (-sum(tile_value(f) for f in chosen), chosen)
        if best is None or key < best:
            best, best_kind = key, kind
    if best is None or best_kind is None:
        return None
    laid = tuple(Laid(code, face) for (code, _), face in zip(entries, best[1], strict=True))
    if best_kind is MeldKind.RUN:
        laid = tuple(sorted(laid, key=lambda t: tile_value(t.face)))
    return TableMeld(owner=0, kind=best_kind, tiles=laid)


def _kind_of(faces: tuple[int, ...], runs_13_to_1: bool, pairs: bool) -> MeldKind | None:
    if pairs:
        return MeldKind.PAIR if len(faces) == 2 and faces[0] == faces[1] else None
    return table_meld_kind([TILE_OF_CODE[f] for f in faces], runs_13_to_1)


def extended(meld: TableMeld, code: int, face: int | None, okey: Tile,
             runs_13_to_1: bool) -> TableMeld | None:
    """`meld` with one more tile laid off onto it, or None when it does not fit. What the
    tiles already there stand for never changes (§10.3)."""
    if meld.kind is MeldKind.PAIR:
        return None
    natural = _face_of(code, okey)
    if natural is not None and face is not None and face != natural:
        return None
    candidates = [natural] if natural is not None else (
        [face] if face is not None else list(range(FACE_COUNT))
    )
    best: TableMeld | None = None
    for candidate in candidates:
        if candidate is None or not 0 <= candidate < FACE_COUNT:
            continue
        faces = [laid.face for laid in meld.tiles] + [candidate]
        if table_meld_kind([TILE_OF_CODE[f] for f in faces], runs_13_to_1) is not meld.kind:
            continue
        tiles = (*meld.tiles, Laid(code, candidate))
        if meld.kind is MeldKind.RUN:
            tiles = tuple(sorted(tiles, key=lambda t: tile_value(t.face)))
        grown = replace(meld, tiles=tiles)
        if best is None or grown.value > best.value:
            best = grown
    return best


def could_lay_off(state: State101, code: int) -> bool:
    """§10.5: a natural tile that fits a set or run on the table."""
    okey = state.okey
    if is_wild(TILE_OF_CODE[code], okey):
        return False
    runs = state.rules.runs_13_to_1
    return any(extended(meld, code, None, okey, runs) is not None for meld in state.table)


# --- moves -------------------------------------------------------------------------------------


def check_move_101(state: State101, move: Move, field: str = "move") -> None:
    """Raises for a move no rule can judge: a seat that does not exist, a missing tile..."""
    check_seat(move.seat, state.player_count, f"{field}.seat")
    if move.kind not in OKEY_101_MOVES:
        raise InvalidInputError(f"{field}.kind", f"a {move.kind.value} is not a move of Okey 101")
    if move.kind in MOVES_WITH_TILE and move.tile is None:
        raise InvalidInputError(f"{field}.tile", f"a {move.kind.value} names its tile")
    if move.kind not in MOVES_WITH_TILE and move.tile is not None:
        raise InvalidInputError(f"{field}.tile", f"a {move.kind.value} names no tile")
    if move.kind in MOVES_WITH_MELDS and not move.melds:
        raise InvalidInputError(f"{field}.melds", f"a {move.kind.value} names its melds")
    if move.kind not in MOVES_WITH_MELDS and move.melds:
        raise InvalidInputError(f"{field}.melds", f"a {move.kind.value} names no melds")
    if move.face is not None and move.kind is not MoveKind.LAY_OFF:
        raise InvalidInputError(
            f"{field}.stands_for", "only a lay-off says what an okey stands for"
        )


def _illegal(reason: IllegalReason, message: str) -> Result101:
    return MoveResult(False, None, (), reason, message)


def apply_move_101(state: State101, move: Move) -> Result101:
    """Judges `move` against `state` (docs/rules.md §10)."""
    check_move_101(state, move)
    if state.phase is Phase.ROUND_OVER:
        return _illegal(IllegalReason.ROUND_OVER, "the round is over")
    if move.seat != state.turn:
        return _illegal(
            IllegalReason.NOT_YOUR_TURN, f"it is seat {state.turn}'s turn, not seat {move.seat}'s"
        )
    kind = move.kind
    if kind in (MoveKind.DRAW_FROM_WALL, MoveKind.TAKE_DISCARD):
        if state.phase is not Phase.DRAW:
            return _illegal(IllegalReason.MUST_DISCARD_FIRST,
                            "the seat has its tile for this turn: play on and discard")
        if kind is MoveKind.DRAW_FROM_WALL:
            return _draw(state)
        return _take(state)
    if state.phase is Phase.DRAW:
        return _illegal(IllegalReason.MUST_DRAW_FIRST,
                        "draw from the bank or take the previous discard first")
    if kind is MoveKind.DISCARD:
        return _discard(state, move)
    if state.phase is Phase.FIRST_DISCARD:
        return _illegal(IllegalReason.MUST_DISCARD_FIRST,
                        "the dealer opens the round by discarding")
    handlers = {
        MoveKind.RETURN_DISCARD: _return_discard,
        MoveKind.OPEN: _open,
        MoveKind.LAY_MELD: _lay_meld,
        MoveKind.LAY_OFF: _lay_off,
        MoveKind.TAKE_BACK: _take_back,
    }
    return handlers[kind](state, move)


def _seat(state: State101, seat: int, **changes: object) -> tuple[Seat101, ...]:
    return with_seat(state.seats, seat, **changes)


def _moved(state: State101, events: list[Event], **changes: object) -> Result101:
    after = fast_replace(state, move_number=state.move_number + 1, **changes)
    return MoveResult(True, after, tuple(events))


def _draw(state: State101) -> Result101:
    if not state.wall:
        return _illegal(IllegalReason.WALL_EMPTY, "the bank is empty")
    seat = state.turn
    seats, wall, tile = draw(state.seats, seat, state.wall)
    event = Event(EventKind.DREW_FROM_WALL, seat, tile, private=True)
    return _moved(state, [event], seats=seats, wall=wall, phase=Phase.DISCARD)


def _take(state: State101) -> Result101:
    seat = state.turn
    giver = previous_seat(seat, state.player_count)
    if not state.seats[giver].discards:
        return _illegal(IllegalReason.DISCARD_PILE_EMPTY,
                        f"seat {giver}'s discard pile is empty: draw from the bank")
    seats, tile = take_discard(state.seats, seat, giver)
    event = Event(EventKind.TOOK_DISCARD, seat, tile, from_seat=giver)
    return _moved(state, [event], seats=seats, phase=Phase.DISCARD, taken=tile)


def _taken_pending(state: State101) -> bool:
    return state.taken is not None and state.taken in state.seats[state.turn].rack


def _return_discard(state: State101, _move: Move) -> Result101:
    """§10.4: the taken discard may go back, free, for a tile of the bank instead."""
    if not _taken_pending(state) or state.laid:
        return _illegal(IllegalReason.NO_DISCARD_TO_RETURN,
                        "only a discard taken this turn, before laying anything, goes back")
    if not state.wall:
        return _illegal(IllegalReason.WALL_EMPTY, "the bank is empty: the discard must be used")
    seat = state.turn
    giver = previous_seat(seat, state.player_count)
    tile = state.taken
    assert tile is not None
    rack = tuple(code for code in state.seats[seat].rack if code != tile)
    seats = _seat(state, giver, discards=(*state.seats[giver].discards, tile))
    seats, wall, drawn = draw(with_seat(seats, seat, rack=rack), seat, state.wall)
    events = [
        Event(EventKind.RETURNED_DISCARD, seat, tile, from_seat=giver),
        Event(EventKind.DREW_FROM_WALL, seat, drawn, private=True),
    ]
    return _moved(state, events, seats=seats, wall=wall, taken=None)


def _resolved(
    state: State101, move: Move, pairs: bool
) -> tuple[list[TableMeld], list[int]] | Result101:
    """The melds a move lays (owned by the seat on turn) and their codes, or why not."""
    rack = list(state.seats[state.turn].rack)
    codes = [code for group in move.melds for code, _ in group]
    for code in codes:
        if code not in rack:
            return _illegal(IllegalReason.TILE_NOT_IN_RACK,
                            f"{format_tile(TILE_OF_CODE[code])} is not in the seat's rack")
        rack.remove(code)
    if not rack:
        return _illegal(IllegalReason.MUST_KEEP_A_TILE,
                        "keep one tile: a turn always ends with a discard")
    melds = []
    for group in move.melds:
        meld = resolve_meld(group, state.okey, state.rules.runs_13_to_1, pairs,
                            state.rules.wild_pairs)
        if meld is None:
            shown = " ".join(format_tile(TILE_OF_CODE[code]) for code, _ in group)
            what = "a pair" if pairs else "a set or a run"
            return _illegal(IllegalReason.INVALID_MELD, f"{shown} is not {what}")
        melds.append(replace(meld, owner=state.turn))
    return melds, codes


def _laid(state: State101, move: Move, table: tuple[TableMeld, ...], codes: list[int],
          events: list[Event], *, side: int = 0, **seat_changes: object) -> Result101:
    """Moves `codes` from the rack to the table, remembering how to take it back."""
    seat = state.turn
    rack = list(state.seats[seat].rack)
    for code in codes:
        rack.remove(code)
    meld = move.meld if move.kind is MoveKind.LAY_OFF else len(state.table)
    best_before = state.best_pairs if move.pairs else state.best_opening
    action = LayAction(move.kind, meld, tuple(codes), state.seats[seat].opened, side, best_before)
    seats = _seat(state, seat, rack=tuple(rack), **seat_changes)
    return _moved(state, events, seats=seats, table=table, laid=(*state.laid, action))


def _open(state: State101, move: Move) -> Result101:
    """§10.2: melds worth 101 or more, or five pairs or more; below that, a penalty."""
    seat = state.turn
    if state.seats[seat].opened is not None:
        return _illegal(IllegalReason.ALREADY_OPENED, "the seat has opened already")
    found = _resolved(state, move, move.pairs)
    if isinstance(found, MoveResult):  # an illegal move's answer, not melds
        return found
    melds, codes = found
    if _taken_pending(state) and state.taken not in codes:
        return _illegal(IllegalReason.TAKEN_DISCARD_NOT_USED,
                        "the discard taken this turn must be part of the opening")
    value = sum(meld.value for meld in melds)
    enough = (len(melds) >= pairs_needed(state) if move.pairs
              else value >= points_needed(state))
    if not enough:
        # §10.5: the tiles go back to the rack and the seat pays the penalty.
        return _penalised(state, seat, Penalty.FAILED_OPENING, [])
    opened = Opened.PAIRS if move.pairs else Opened.MELDS
    table = (*state.table, *melds)
    event = Event(EventKind.OPENED, seat, tiles=tuple(codes), meld=len(state.table))
    result = _laid(state, move, table, codes, [event], opened=opened,
                   opened_on_move=state.move_number)
    assert result.state is not None
    best = (
        {"best_pairs": max(state.best_pairs, len(melds))} if move.pairs
        else {"best_opening": max(state.best_opening, value)}
    )
    result = result._replace(state=replace(result.state, **best))  # type: ignore[arg-type]
    assert result.state is not None
    if all(s.opened is Opened.PAIRS for s in result.state.seats):
        return _void(result)
    return result


def points_needed(state: State101) -> int:
    """§10.2: 101 points; §10.8 progressive opening: more than the best opening so far."""
    if state.rules.progressive_opening and state.best_opening:
        return max(OPENING_POINTS, state.best_opening + 1)
    return OPENING_POINTS


def pairs_needed(state: State101) -> int:
    """§10.2: five pairs; §10.8 progressive opening: one more than the most so far."""
    if state.rules.progressive_opening and state.best_pairs:
        return max(OPENING_PAIRS, state.best_pairs + 1)
    return OPENING_PAIRS


def _void(result: Result101) -> Result101:
    """§10.2: all four opened with pairs: the round is void and dealt again."""
    state = result.state
    assert state is not None
    outcome = Outcome(RoundEnd.VOID, move_number=state.move_number)
    events = (*result.events, Event(EventKind.ROUND_VOID, state.turn, outcome=outcome))
    over = replace(state, phase=Phase.ROUND_OVER, outcome=outcome)
    return MoveResult(True, over, events)


def _penalised(state: State101, seat: int, penalty: Penalty,
               events: list[Event], **changes: object) -> Result101:
    given = changes.pop("seats", state.seats)
    assert isinstance(given, tuple)
    seats: list[Seat101] = list(given)
    held = seats[seat]
    seats[seat] = replace(held, penalties=(*held.penalties, penalty))
    event = Event(EventKind.PENALTY, seat, penalty=penalty, points=PENALTY_POINTS)
    return _moved(state, [*events, event], seats=tuple(seats), **changes)


def _lay_meld(state: State101, move: Move) -> Result101:
    """§10.3: after opening, new melds (a pairs-opener: new pairs only)."""
    opened = state.seats[state.turn].opened
    if opened is None:
        return _illegal(IllegalReason.NOT_OPENED, "open first: 101 points of melds or five pairs")
    pairs = opened is Opened.PAIRS
    if pairs and any(_is_set_or_run(state, group) for group in move.melds):
        return _illegal(IllegalReason.PAIRS_OPENER_LAYS_NO_MELDS,
                        "a seat that opened with pairs lays pairs, never sets or runs")
    found = _resolved(state, move, pairs)
    if isinstance(found, MoveResult):  # an illegal move's answer, not melds
        return found
    melds, codes = found
    event = Event(EventKind.LAID_MELD, state.turn, tiles=tuple(codes), meld=len(state.table))
    return _laid(state, move, (*state.table, *melds), codes, [event])


def _is_set_or_run(state: State101, group: Sequence[tuple[int, int | None]]) -> bool:
    return resolve_meld(group, state.okey, state.rules.runs_13_to_1, pairs=False) is not None


def _lay_off(state: State101, move: Move) -> Result101:
    """§10.3: a tile added to any set or run on the table, by a seat that has opened."""
    seat = state.turn
    if state.seats[seat].opened is None:
        return _illegal(IllegalReason.NOT_OPENED, "open first: 101 points of melds or five pairs")
    code = move.tile
    assert code is not None
    if code not in state.seats[seat].rack:
        return _illegal(IllegalReason.TILE_NOT_IN_RACK,
                        f"{format_tile(TILE_OF_CODE[code])} is not in the seat's rack")
    if len(state.seats[seat].rack) == 1:
        return _illegal(IllegalReason.MUST_KEEP_A_TILE,
                        "keep one tile: a turn always ends with a discard")
    if not 0 <= move.meld < len(state.table):
        return _illegal(IllegalReason.NO_SUCH_MELD,
                        f"there is no meld {move.meld} on the table ({len(state.table)} laid)")
    target = state.table[move.meld]
    if state.rules.okey_retrieval:
        retrieved = _retrieval(state, target, code)
        if retrieved is not None:
            return _retrieve(state, move, retrieved)
    grown = extended(target, code, move.face, state.okey, state.rules.runs_13_to_1)
    if grown is None:
        return _illegal(IllegalReason.CANNOT_LAY_OFF,
                        f"{format_tile(TILE_OF_CODE[code])} does not fit meld {move.meld}")
    side = _side(target, grown, code)
    if state.rules.lay_off_cap and sum(
        action.kind is MoveKind.LAY_OFF and action.meld == move.meld and action.side == side
        for action in state.laid
    ) >= LAY_OFF_CAP:
        return _illegal(IllegalReason.LAY_OFF_CAP_REACHED,
                        f"{LAY_OFF_CAP} tiles were laid off onto that end of meld {move.meld}"
                        " this turn already")
    table = list(state.table)
    table[move.meld] = grown
    event = Event(EventKind.LAID_OFF, seat, code, meld=move.meld)
    return _laid(state, move, tuple(table), [code], [event], side=side)


def _side(before: TableMeld, grown: TableMeld, code: int) -> int:
    """Which end of a run a lay-off extended (1 low, 2 high); 0 for a set."""
    if before.kind is not MeldKind.RUN:
        return 0
    return 1 if grown.tiles[0].code == code else 2


def _retrieval(state: State101, meld: TableMeld, code: int) -> int | None:
    """§10.8 okey retrieval: the index in `meld` of an okey standing for this natural tile."""
    face = _face_of(code, state.okey)
    if face is None:
        return None
    for index, laid in enumerate(meld.tiles):
        if laid.face == face and is_wild(TILE_OF_CODE[laid.code], state.okey):
            return index
    return None


def _retrieve(state: State101, move: Move, index: int) -> Result101:
    """The tile takes the okey's place; the okey goes to the rack. Not taken back."""
    seat = state.turn
    code = move.tile
    assert code is not None
    meld = state.table[move.meld]
    okey_code = meld.tiles[index].code
    tiles = list(meld.tiles)
    tiles[index] = Laid(code, tiles[index].face)
    table = list(state.table)
    table[move.meld] = replace(meld, tiles=tuple(tiles))
    rack = [c for c in state.seats[seat].rack if c != code] + [okey_code]
    events = [
        Event(EventKind.LAID_OFF, seat, code, meld=move.meld),
        Event(EventKind.RETRIEVED_OKEY, seat, okey_code, meld=move.meld),
    ]
    # A retrieval is final: TAKE_BACK refuses it, and with it this turn's earlier
    # laying moves (only the last may ever come back).
    action = LayAction(move.kind, move.meld, (code,), state.seats[seat].opened, RETRIEVAL)
    return _moved(state, events, seats=_seat(state, seat, rack=tuple(rack)),
                  table=tuple(table), laid=(*state.laid, action))


def _take_back(state: State101, _move: Move) -> Result101:
    """§10.5: the last laying move of the turn comes back. Only the last tile placed comes
    back free: the take-back that brings the turn's tiles taken back past one costs 101,
    once a turn (the text's one penalty for laying several tiles and taking them back)."""
    if not state.laid:
        return _illegal(IllegalReason.NOTHING_TO_TAKE_BACK, "nothing was laid this turn")
    seat = state.turn
    action = state.laid[-1]
    if action.side == RETRIEVAL:
        return _illegal(IllegalReason.NOTHING_TO_TAKE_BACK,
                        "an okey retrieval is final: nothing laid before it comes back")
    rack = (*state.seats[seat].rack, *action.codes)
    seats = _seat(state, seat, rack=rack, opened=action.opened_before)
    if action.kind is MoveKind.LAY_OFF:
        table = list(state.table)
        grown = table[action.meld]
        (code,) = action.codes
        table[action.meld] = replace(grown, tiles=tuple(t for t in grown.tiles if t.code != code))
        before = tuple(table)
    else:
        before = state.table[: action.meld]
    took_back = state.took_back + len(action.codes)
    changes: dict[str, object] = {"seats": seats, "table": before, "laid": state.laid[:-1],
                                  "took_back": took_back}
    if action.kind is MoveKind.OPEN:
        # §10.8 progressive opening: an opening taken back no longer sets the mark.
        pairs = state.seats[seat].opened is Opened.PAIRS
        changes["best_pairs" if pairs else "best_opening"] = action.best_before
    event = Event(EventKind.TOOK_BACK, seat, tiles=action.codes)
    if state.took_back <= FREE_TAKE_BACK < took_back:
        return _penalised(state, seat, Penalty.TOOK_BACK_SEVERAL, [event], **changes)
    return _moved(state, [event], **changes)


def _discard(state: State101, move: Move) -> Result101:
    """§10.4-§10.6: the turn ends with a discard; an empty rack finishes the round."""
    seat = state.turn
    code = move.tile
    assert code is not None
    held = state.seats[seat]
    if code not in held.rack:
        return _illegal(IllegalReason.TILE_NOT_IN_RACK,
                        f"{format_tile(TILE_OF_CODE[code])} is not in the seat's rack")
    if _taken_pending(state):
        return _illegal(IllegalReason.TAKEN_DISCARD_NOT_USED,
                        "the discard taken this turn must be laid, or returned for a bank tile")
    finishing = len(held.rack) == 1
    wild = is_wild(TILE_OF_CODE[code], state.okey)
    penalties = []
    if not finishing:
        if wild:
            penalties.append(Penalty.OKEY_DISCARDED)
        elif could_lay_off(state, code):
            penalties.append(Penalty.DISCARD_COULD_BE_LAID_OFF)
    seats = discard(state.seats, seat, code, penalties=(*held.penalties, *penalties))
    events = [Event(EventKind.DISCARDED, seat, code)]
    events += [Event(EventKind.PENALTY, seat, penalty=p, points=PENALTY_POINTS)
               for p in penalties]
    after = replace(state, seats=seats, move_number=state.move_number + 1, taken=None, laid=(),
                    took_back=0)
    if finishing or not state.wall:
        # §10.5: at the round's end, an okey left in an opened rack is a penalty.
        after, left_in_hand = _okeys_left_in_hand(after, seat if finishing else None)
        events += left_in_hand
    if finishing:
        one_turn = held.opened_on_move >= state.turn_start and all(
            other.opened is None for number, other in enumerate(state.seats) if number != seat
        )
        outcome = Outcome(RoundEnd.WON, after.move_number, seat, okey_discard=wild,
                          one_turn=one_turn, discard=code)
        events.append(Event(EventKind.ROUND_WON, seat, code, outcome=outcome))
        return MoveResult(True, replace(after, phase=Phase.ROUND_OVER, outcome=outcome),
                         tuple(events))
    if not state.wall:
        outcome = Outcome(RoundEnd.DRAWN, after.move_number)
        events.append(Event(EventKind.ROUND_DRAWN, seat, outcome=outcome))
        return MoveResult(True, replace(after, phase=Phase.ROUND_OVER, outcome=outcome),
                         tuple(events))
    after = replace(after, turn=next_seat(seat, state.player_count), phase=Phase.DRAW,
                    turn_start=after.move_number)
    return MoveResult(True, after, tuple(events))


def _okeys_left_in_hand(
    state: State101, finisher: int | None
) -> tuple[State101, list[Event]]:
    """§10.5: one OKEY_LEFT_IN_HAND penalty per okey in the rack of each seat that has
    opened, the finisher aside (a seat that never opened pays its 202 instead, §10.7)."""
    seats = list(state.seats)
    events = []
    for number, held in enumerate(seats):
        if number == finisher or held.opened is None:
            continue
        okeys = sum(is_wild(TILE_OF_CODE[code], state.okey) for code in held.rack)
        if okeys:
            seats[number] = replace(
                held, penalties=(*held.penalties, *[Penalty.OKEY_LEFT_IN_HAND] * okeys)
            )
            events += [Event(EventKind.PENALTY, number, penalty=Penalty.OKEY_LEFT_IN_HAND,
                                points=PENALTY_POINTS)] * okeys
    return replace(state, seats=tuple(seats)), events


def legal_moves_101(state: State101, seat: int) -> list[Move]:
    """Every legal move of `seat` now, except openings and new melds (any valid groups of
    the rack: too many to list; HandService.BestOpening finds the best opening)."""
    check_seat(seat, state.player_count)
    if state.phase is Phase.ROUND_OVER or seat != state.turn:
        return []
    rack = state.seats[seat].rack
    candidates: list[Move] = []
    if state.phase is Phase.DRAW:
        candidates += [Move(MoveKind.DRAW_FROM_WALL, seat),
                       Move(MoveKind.TAKE_DISCARD, seat)]
    else:
        if state.phase is Phase.DISCARD:
            candidates += [Move(MoveKind.TAKE_BACK, seat),
                           Move(MoveKind.RETURN_DISCARD, seat)]
            candidates += [Move(MoveKind.LAY_OFF, seat, code, meld=index)
                           for code in rack for index in range(len(state.table))]
        candidates += [Move(MoveKind.DISCARD, seat, code) for code in rack]
    return [move for move in candidates if apply_move_101(state, move).legal]


def replay_101(state: State101, log: Sequence[Move], field: str = "moves") -> Replay101:
    """Applies a move log until the first illegal move."""
    events: list[Event] = []
    for index, move in enumerate(log):
        check_move_101(state, move, f"{field}[{index}].move")
        result = apply_move_101(state, move)
        if not result.legal or result.state is None:
            return ReplayResult(False, state, index, tuple(events), result.reason, result.message)
        state = result.state
        events += result.events
    return ReplayResult(True, state, len(log), tuple(events))
