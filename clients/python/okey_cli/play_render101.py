"""Text of `okey play --game 101`: one seat's view of an Okey 101 round, its events, moves.

Everything here is built from GameService answers for the human's seat
(PlayerView, the events of ApplyMove, LegalMoves) and BestOpening answers
about its own rack, never from the opaque state. Table melds are public: each
tile is shown with what it stands for (an okey as ``OK=R6``, a false joker as
``F=K11``). A tile drawn from the bank is shown only to the seat that drew it
(docs/rules.md §8.7, §10).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from okey.v1 import game_pb2, hand_pb2, state_pb2

from okey_cli import render
from okey_cli.play_render import count_text, rack_line, seat_line, tiles_text
from okey_cli.play_seats import Seats

_MELD_KINDS = {
    hand_pb2.MELD_KIND_SET: "set",
    hand_pb2.MELD_KIND_RUN: "run",
    hand_pb2.MELD_KIND_PAIR: "pair",
}
_PENALTIES: dict[int, str] = {
    game_pb2.PENALTY_OKEY_DISCARDED: "an okey discarded",
    game_pb2.PENALTY_FAILED_OPENING: "a failed opening",
    game_pb2.PENALTY_DISCARD_COULD_BE_LAID_OFF: "a discard that could have been laid off",
    game_pb2.PENALTY_TOOK_BACK_SEVERAL: "several tiles taken back",
}
_OPENED = {
    game_pb2.OPENED_MELDS: "opened with melds",
    game_pb2.OPENED_PAIRS: "opened with pairs",
}
_PHASE_TODO = {
    state_pb2.PHASE_FIRST_DISCARD: "open the round by discarding a tile (x TILE; no draw)",
    state_pb2.PHASE_DRAW: "draw from the bank (d) or take the previous discard (t)",
    state_pb2.PHASE_DISCARD: "open, lay melds, lay off, then discard (x TILE)",
    state_pb2.PHASE_ROUND_OVER: "nothing: the round is over",
}
_WORDS = {
    game_pb2.MOVE_KIND_DRAW_FROM_WALL: "draw",
    game_pb2.MOVE_KIND_TAKE_DISCARD: "take",
    game_pb2.MOVE_KIND_RETURN_DISCARD: "return",
    game_pb2.MOVE_KIND_TAKE_BACK: "back",
    game_pb2.MOVE_KIND_DISCARD: "discard",
    game_pb2.MOVE_KIND_LAY_OFF: "layoff",
    game_pb2.MOVE_KIND_OPEN: "open",
    game_pb2.MOVE_KIND_LAY_MELD: "meld",
}


def penalty_text(penalty: int) -> str:
    return _PENALTIES.get(penalty, f"penalty {penalty}")


def meld_text(meld: game_pb2.TableMeld, seats: Seats, painter: render.Painter) -> str:
    """``seat 1's run: R5 OK=R6 R7 (18)``: owner, kind, the tiles with what each stands
    for, and the value."""
    tiles = " ".join(painter.placed(placed) for placed in meld.tiles)
    kind = _MELD_KINDS.get(meld.kind, "?")
    return f"{seats.whose(meld.owner_seat)} {kind}: {tiles} ({meld.value})"


def meld_line(meld: game_pb2.TableMeld, seats: Seats, painter: render.Painter) -> str:
    """A table meld behind the index LAY_OFF names it by: ``  [2] seat 1's run: ...``."""
    return f"  [{meld.index}] {meld_text(meld, seats, painter)}"


def table_melds_lines(
    view: game_pb2.PlayerViewResponse, seats: Seats, painter: render.Painter
) -> list[str]:
    if not view.table:
        return ["table: no melds yet"]
    return [f"table ({count_text(len(view.table), 'meld')}):",
            *(meld_line(meld, seats, painter) for meld in view.table)]


def _seat_state(seat_view: game_pb2.SeatView) -> list[str]:
    parts = [_OPENED.get(seat_view.opened, "not opened")]
    if seat_view.penalties:
        names = ", ".join(penalty_text(p) for p in seat_view.penalties)
        parts.append(f"penalties {len(seat_view.penalties)} ({names})")
    return parts


def own_lines(view: game_pb2.PlayerViewResponse, painter: render.Painter) -> list[str]:
    """The human's rack and, while it is to be used, the discard it took."""
    lines = [rack_line(view, painter)]
    if view.HasField("taken_discard"):
        lines.append(f"the discard you took, {painter.tile(view.taken_discard)}, must be laid "
                     "this turn (or give it back: return)")
    return lines


def table_lines(
    view: game_pb2.PlayerViewResponse, seats: Seats, painter: render.Painter
) -> list[str]:
    """The round as the human's seat sees it: whose turn, the indicator, okey and bank, the
    table melds, every seat's counts, opening, penalties and visible pile, its own rack."""
    human = view.seat
    turn = "your turn" if view.turn_seat == human else f"{seats.whose(view.turn_seat)} turn"
    lines = [
        f"-- move {view.move_number}: {turn}: {_PHASE_TODO.get(view.phase, '?')}",
        f"indicator {painter.tile(view.indicator)}, okey {painter.tile(view.okey)}, "
        f"bank {count_text(view.wall_size, 'tile')}",
        *table_melds_lines(view, seats, painter),
    ]
    previous = (human - 1) % view.player_count
    order = [(human + step) % view.player_count for step in range(1, view.player_count + 1)]
    lines += [seat_line(view.seats[seat], seats, previous, painter,
                        state=_seat_state(view.seats[seat])) for seat in order]
    return lines + own_lines(view, painter)


def event_lines(
    events: Iterable[game_pb2.Event],
    seats: Seats,
    painter: render.Painter,
    after: game_pb2.PlayerViewResponse | None = None,
) -> list[str]:
    """What each event tells the human's seat; `after` (the human's view once the move is
    made) shows the melds a laying move made. A bank draw's tile is shown only to the
    seat that drew it."""
    lines = []
    for event in events:
        actor = seats.who(event.seat)
        visible = event.HasField("tile") and (not event.private or event.seat == seats.human)
        tile = painter.tile(event.tile) if visible else ""
        kind = event.kind
        if kind == game_pb2.EVENT_KIND_DREW_FROM_WALL:
            lines.append(f"{actor} drew {tile} from the bank" if tile else
                         f"{actor} drew from the bank")
        elif kind == game_pb2.EVENT_KIND_TOOK_DISCARD:
            lines.append(f"{actor} took {tile} from {seats.whose(event.from_seat)} pile")
        elif kind == game_pb2.EVENT_KIND_RETURNED_DISCARD:
            lines.append(f"{actor} gave {tile} back to {seats.whose(event.from_seat)} pile")
        elif kind in (game_pb2.EVENT_KIND_OPENED, game_pb2.EVENT_KIND_LAID_MELD):
            what = "opened with" if kind == game_pb2.EVENT_KIND_OPENED else "laid"
            lines.append(f"{actor} {what} {tiles_text(event.tiles, painter)}")
            if after is not None:
                lines += [meld_line(m, seats, painter) for m in after.table[event.meld:]]
        elif kind == game_pb2.EVENT_KIND_LAID_OFF:
            line = f"{actor} laid {tile} off onto meld {event.meld}"
            if after is not None and event.meld < len(after.table):
                line += ", now " + meld_text(after.table[event.meld], seats, painter)
            lines.append(line)
        elif kind == game_pb2.EVENT_KIND_RETRIEVED_OKEY:
            lines.append(f"{actor} took the okey {tile} off meld {event.meld}")
        elif kind == game_pb2.EVENT_KIND_TOOK_BACK:
            lines.append(f"{actor} took back {tiles_text(event.tiles, painter)}")
        elif kind == game_pb2.EVENT_KIND_DISCARDED:
            lines.append(f"{actor} discarded {tile}")
        elif kind == game_pb2.EVENT_KIND_PENALTY:
            lines.append(f"penalty: {actor}, {penalty_text(event.penalty)}: {event.points} "
                         "points")
        elif kind == game_pb2.EVENT_KIND_ROUND_WON:
            lines.append(f"{actor} finished, discarding {tile}")
        elif kind == game_pb2.EVENT_KIND_ROUND_DRAWN:
            lines.append("the bank is empty: the round is over")
        elif kind == game_pb2.EVENT_KIND_ROUND_VOID:
            lines.append("all four opened with pairs: the round is void")
    return lines


def outcome_lines(
    view: game_pb2.PlayerViewResponse, seats: Seats, painter: render.Painter
) -> list[str]:
    """The round's end: who finished (and the doubles), or the bank ran out, or void; then
    the table and every seat's opening and penalties as they ended."""
    outcome = view.outcome
    head = f"round over at move {outcome.move_number}: "
    if outcome.void_round:
        lines = [head + "void (all four opened with pairs): it is dealt again"]
    elif outcome.drawn:
        lines = [head + "the bank ran out, nobody finished"]
    else:
        finisher = ("you finished" if outcome.winner_seat == seats.human
                    else f"{seats.who(outcome.winner_seat)} finished")
        lines = [head + finisher]
        if outcome.okey_discard:
            lines.append("the finishing discard was an okey: the round's points double")
        if outcome.one_turn_finish:
            lines.append("opened and finished in one turn with nobody else open: the round's "
                         "points double")
    lines += table_melds_lines(view, seats, painter)
    for seat_view in view.seats:
        lines.append(f"{seats.who(seat_view.seat)}: {', '.join(_seat_state(seat_view))}")
    return lines


def laid_text(laid: game_pb2.LaidTile, painter: render.Painter) -> str:
    text = painter.tile(laid.tile)
    if laid.HasField("stands_for"):
        text += f"={painter.tile(laid.stands_for)}"
    return text


def move_text(move: game_pb2.Move, painter: render.Painter) -> str:
    """A move as the command that makes it: ``open R10 R11 R12 | K1=R7 B7 K7``,
    ``layoff R5 2``, ``discard K9``, ``draw``."""
    word = _WORDS.get(move.kind, "?")
    if move.kind in (game_pb2.MOVE_KIND_OPEN, game_pb2.MOVE_KIND_LAY_MELD):
        melds = " | ".join(" ".join(laid_text(t, painter) for t in meld.tiles)
                           for meld in move.melds)
        return f"{word} {'pairs ' if move.pairs else ''}{melds}"
    if move.kind == game_pb2.MOVE_KIND_LAY_OFF:
        face = f" ={painter.tile(move.stands_for)}" if move.HasField("stands_for") else ""
        return f"{word} {painter.tile(move.tile)} {move.meld}{face}"
    return f"{word} {painter.tile(move.tile)}" if move.HasField("tile") else word


def moves_lines(legal: Sequence[game_pb2.Move], painter: render.Painter) -> list[str]:
    """LegalMoves as commands: plain moves, the lay-offs (tile -> meld indexes), the
    discards. Openings and new melds are never listed (too many): `best` suggests one."""
    if not legal:
        return ["no legal move now"]
    plain: list[str] = []
    lay_offs: dict[str, list[str]] = {}
    discards: list[str] = []
    for move in legal:
        if move.kind == game_pb2.MOVE_KIND_LAY_OFF:
            melds = lay_offs.setdefault(painter.tile(move.tile), [])
            if str(move.meld) not in melds:
                melds.append(str(move.meld))
        elif move.kind == game_pb2.MOVE_KIND_DISCARD:
            name = painter.tile(move.tile)
            if name not in discards:
                discards.append(name)
        elif (word := _WORDS.get(move.kind, "?")) not in plain:
            plain.append(word)
    lines = [f"legal: {word}" for word in plain]
    lines += [f"legal: layoff {tile} {' or '.join(melds)}" for tile, melds in lay_offs.items()]
    if discards:
        lines.append(f"legal: discard {' '.join(discards)}")
    return lines

