"""Okey 101 bots (docs/rules.md §10): which move a seat makes, by level.

The legal-move lists leave out OPEN and LAY_MELD (too many groupings to list);
the bots build those from the best opening's arrangement
(okey_rules.search.opening) and lay them with the rack's own tiles.

Level 1 plays a random listed move, but opens when its best opening reaches
what is needed (melds first, else pairs): without opening a seat can only draw
and throw, and a bot that never opens is not playing the game. It never takes
back at random, and settles a taken discard (lays or returns it) as level 2
does: laying off and taking back could otherwise go on for ever. Its random
discards (okeys and tiles that could be laid off among them) keep it weakest.

Level 2 is greedy: draws from the bank, opens as soon as it can, then lays
every meld it holds and lays off every natural tile that fits the table; it
discards the tile whose loss keeps the best opening (the larger of the points
and pairs reached, as a share of what is needed; once opened, the melds left
to lay, then the highest number, which would count against it), never an
okey and never a tile that could be laid off (each a 101 penalty) unless
nothing else is left.

Level 3 also takes the previous discard when it opens with it this turn or,
once opened, when it can lay it at once (a tile laid, not a tile more in the
rack); among discards it also keeps tiles that are two of a meld already (a
pair of one number, or neighbours of one colour) whose missing tile is not all
in sight; and with the bank almost empty it lays off its okeys, which would
cost 101 each if the round ended in its rack.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from okey_rules.bots.okey101_melds import (
    Openings,
    codes_in,
    lay_meld_move,
    layable,
    needed,
    opening_move,
    openings,
    table_melds,
)
from okey_rules.bots.suggestion import (
    Suggestion,
    first_of,
    name,
    of_kind,
    okey_of,
    previous_top,
    random_move,
)
from okey_rules.play.game101_types import TableMeld
from okey_rules.play.round_types import Move, MoveKind, Opened, Phase
from okey_rules.play.view_types import PlayerView
from okey_rules.rulebook import is_wild, plays_as, tile_value
from okey_rules.tiles import COPIES, FACES, NUMBERS, TILE_OF_CODE

# Level 3 lays off its okeys once the bank holds this few tiles (a round of draws).
BANK_LOW = 4
# Level 3: the weight of a tile that is two of a meld already, against a laid point.
PARTIAL_WEIGHT = 0.5


def okey101_move(
    view: PlayerView, legal: Sequence[Move], level: int, lots: random.Random
) -> Suggestion:
    opened = view.seats[view.seat].opened
    if view.phase is Phase.DISCARD and opened is None:
        found = openings(view.rack, view)
        opening = opening_move(view, view.rack, view.taken_discard, found)
        if opening is not None:
            move, text = opening
            return Suggestion(move, f"{text} ({_needed_text(view)} needed)")
    if level == 1:
        if view.phase is Phase.DISCARD and view.taken_discard is not None:
            # A taken discard must be laid or returned: the level-2 way, or the seat
            # could lay off and take back for ever, never free to discard.
            settled = _lay(view, legal, 2, opened)
            if settled is not None:
                return settled
        # Never a take-back at random: laying off and taking back could go on for ever.
        undone = [move for move in legal if move.kind is not MoveKind.TAKE_BACK]
        return random_move(undone or legal, lots)
    if view.phase is Phase.DRAW:
        return _draw(view, legal, level)
    if view.phase is Phase.DISCARD:
        laid = _lay(view, legal, level, opened)
        if laid is not None:
            return laid
    return _discard(view, legal, level, opened)


def _needed_text(view: PlayerView) -> str:
    points, pairs = needed(view)
    return f"{points} points or {pairs} pairs"


def _draw(view: PlayerView, legal: Sequence[Move], level: int) -> Suggestion:
    take = first_of(legal, MoveKind.TAKE_DISCARD)
    draw = first_of(legal, MoveKind.DRAW_FROM_WALL)
    top = previous_top(view)
    if take is not None and top is not None and (level >= 3 or draw is None):
        use = _use_for(view, top)
        if use is not None or draw is None:
            return Suggestion(take, f"take {name(top)}: {use or 'the bank is empty'}")
    assert draw is not None
    return Suggestion(draw, "draw from the bank")


def _use_for(view: PlayerView, top: int) -> str | None:
    """What taking `top` does this turn, or None when it would only come back."""
    rack = (*view.rack, top)
    found = openings(rack, view)
    opened = view.seats[view.seat].opened
    if opened is None:
        opening = opening_move(view, rack, top, found)
        return None if opening is None else f"it lets the seat {opening[1]}"
    if layable(view, top, table_melds(view)):
        return "it can be laid off at once"
    arrangement = found.pair_melds if opened is Opened.PAIRS else found.melds
    for meld in arrangement.melds:
        if any(p.tile.face == top % FACES and not p.wild for p in meld.tiles):
            return "it completes a meld to lay"
    return None


def _lay(view: PlayerView, legal: Sequence[Move], level: int,
         opened: Opened | None) -> Suggestion | None:
    """An opened seat's laying move: the taken discard first, then melds, then lay-offs."""
    if opened is None:
        taken_back = first_of(legal, MoveKind.RETURN_DISCARD)
        if view.taken_discard is not None and taken_back is not None:
            return Suggestion(taken_back, f"return {name(view.taken_discard)} and draw:"
                                          " no opening uses it")
        return None
    if len(view.rack) <= 1:
        return None
    lay_offs = of_kind(legal, MoveKind.LAY_OFF)
    taken = view.taken_discard
    if taken is not None:
        for move in lay_offs:
            if move.tile == taken:
                return Suggestion(move, f"lay off {name(taken)}, the discard taken,"
                                        f" onto meld {move.meld}")
    found = openings(view.rack, view)
    meld = lay_meld_move(view, found, opened is Opened.PAIRS)
    if meld is not None and (taken is None or taken in codes_in(meld[0].melds)):
        move, tiles = meld
        count = len(move.melds)
        return Suggestion(move, f"lay {count} meld{'s' if count > 1 else ''} ({tiles} tiles)")
    if taken is not None:
        back = first_of(legal, MoveKind.RETURN_DISCARD)
        if back is not None:
            return Suggestion(back, f"return {name(taken)} and draw: it cannot be laid")
        # Something was laid since (§10.4: the tile goes back only before laying): take
        # that back first, then return the tile.
        undo = first_of(legal, MoveKind.TAKE_BACK)
        if undo is not None:
            return Suggestion(undo, f"take back the last tiles laid, to return {name(taken)}:"
                                    " it cannot be laid")
        return None
    okey = okey_of(view)
    naturals = [m for m in lay_offs
                if m.tile is not None and not is_wild(TILE_OF_CODE[m.tile], okey)]
    if naturals:
        move = max(naturals, key=lambda m: (tile_value(_played(m.tile, view)), -m.meld))
        assert move.tile is not None
        return Suggestion(move, f"lay off {name(move.tile)} onto meld {move.meld}")
    if level >= 3 and view.wall_size <= BANK_LOW and lay_offs:
        move = lay_offs[0]
        assert move.tile is not None
        return Suggestion(move, f"lay off the okey {name(move.tile)}: the bank is almost"
                                " empty and an okey left in the rack costs 101")
    return None


def _played(code: int | None, view: PlayerView) -> int:
    assert code is not None
    face = plays_as(TILE_OF_CODE[code], okey_of(view))
    return code % FACES if face is None else face.face


def _discard(view: PlayerView, legal: Sequence[Move], level: int,
             opened: Opened | None) -> Suggestion:
    discards = of_kind(legal, MoveKind.DISCARD)
    assert discards, "a seat with its tile for the turn can always discard"
    if len(view.rack) == 1:
        move = discards[0]
        assert move.tile is not None
        return Suggestion(move, f"discard {name(move.tile)}, the last tile: the round is won")
    okey = okey_of(view)
    table = table_melds(view)
    by_face: dict[int, Move] = {}
    for move in discards:
        assert move.tile is not None
        by_face.setdefault(move.tile % FACES, move)
    free = [face for face in by_face
            if not is_wild(TILE_OF_CODE[face], okey)
            and not _layable(view, by_face[face], table)]
    penalty = not free
    faces = free or [f for f in by_face if not is_wild(TILE_OF_CODE[f], okey)] or list(by_face)
    unseen = _unseen(view) if level >= 3 else None
    scored = []
    for face in faces:
        rest = list(view.rack)
        tile = by_face[face].tile
        assert tile is not None
        rest.remove(tile)
        thrown = tile_value(_played(tile, view))
        scored.append((_worth(view, openings(rest, view), opened, unseen, thrown), face))
    _, face = max(scored, key=lambda pair: (pair[0], -pair[1]))
    move = by_face[face]
    assert move.tile is not None
    reason = f"discard {name(move.tile)}: {_keeps_text(view, opened, move.tile)}"
    if penalty:
        reason += " (every tile left costs a penalty to throw)"
    return Suggestion(move, reason)


def _layable(view: PlayerView, move: Move, table: list[TableMeld]) -> bool:
    assert move.tile is not None
    return layable(view, move.tile, table)


def _worth(view: PlayerView, found: Openings, opened: Opened | None,
           unseen: list[int] | None, thrown_value: int) -> float:
    """How good the rack left after throwing a tile worth `thrown_value` is (higher is
    better)."""
    points, pairs = needed(view)
    bonus = 0.0 if unseen is None else PARTIAL_WEIGHT * _partials(view, found, unseen)
    if opened is None:
        progress = max((found.value + bonus) / points, found.pairs / pairs)
        # Never opened, the rack scores 202 whatever it holds: keep high numbers toward 101.
        return progress - thrown_value / 1000
    if opened is Opened.PAIRS:
        return found.pairs + thrown_value / 100
    # Opened: what can still be laid, then throw the highest (it counts at the end).
    return found.value + bonus + thrown_value / 100


def _partials(view: PlayerView, found: Openings, unseen: list[int]) -> float:
    """The points of the tiles left out of the best melds that are two of a meld already,
    where some tile to complete it is unseen."""
    okey = okey_of(view)
    faces = []
    for tile in found.unused:
        played = plays_as(tile, okey)
        if played is not None:
            faces.append(played.face)
    held = set(faces)
    total = 0.0
    for face in faces:
        colour, number = divmod(face, NUMBERS)
        for other in held:
            if other == face:
                continue
            o_colour, o_number = divmod(other, NUMBERS)
            if o_number == number:
                thirds = [c * NUMBERS + number for c in range(4) if c not in (colour, o_colour)]
            elif o_colour == colour and abs(o_number - number) <= 2:
                low, high = sorted((number, o_number))
                thirds = ([colour * NUMBERS + low + 1] if high - low == 2 else
                          [colour * NUMBERS + n for n in (low - 1, high + 1) if 0 <= n < NUMBERS])
            else:
                continue
            if any(unseen[t] for t in thirds):
                total += tile_value(face)
                break
    return total


def _unseen(view: PlayerView) -> list[int]:
    counts = [COPIES] * FACES
    codes = [*view.rack, view.indicator]
    for seat in view.seats:
        codes += seat.discards
    codes += [t.code for meld in view.table for t in meld.tiles]
    for code in codes:
        counts[code % FACES] -= 1
    return counts


def _keeps_text(view: PlayerView, opened: Opened | None, thrown: int) -> str:
    rest = list(view.rack)
    rest.remove(thrown)
    found = openings(rest, view)
    if opened is None:
        points, pairs = needed(view)
        return (f"keeps the best opening at {found.value} of {points} points"
                f" ({found.pairs} of {pairs} pairs)")
    if opened is Opened.PAIRS:
        return f"keeps {found.pairs} pairs to lay"
    return f"keeps {found.value} points of melds to lay, throws {tile_value(_played(thrown, view))}"
