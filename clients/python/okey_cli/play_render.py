"""Text of `okey play`: one seat's view of the table, the events of each move, the outcome.

Everything here is built from GameService answers meant for the human's seat
(PlayerView for that seat, the events of ApplyMove, LegalMoves for that seat),
never from the opaque game state. A tile drawn from the wall is shown only to
the seat that drew it (docs/rules.md §8.7).

Seats are printed with the table's numbers (okey_cli.play_seats.Seats).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from okey.v1 import game_pb2, state_pb2

from okey_cli import render
from okey_cli.play_seats import Seats

_PHASE_TODO: dict[int, str] = {
    state_pb2.PHASE_FIRST_DISCARD: "open the round by discarding a tile (no draw)",
    state_pb2.PHASE_DRAW: "draw from the wall (d) or take the previous discard (t)",
    state_pb2.PHASE_DISCARD: "discard a tile (x TILE) or finish (win TILE)",
    state_pb2.PHASE_ROUND_OVER: "nothing: the round is over",
}
_MOVE_WORDS: dict[int, str] = {
    game_pb2.MOVE_KIND_DRAW_FROM_WALL: "draw",
    game_pb2.MOVE_KIND_TAKE_DISCARD: "take",
    game_pb2.MOVE_KIND_DISCARD: "discard",
    game_pb2.MOVE_KIND_DECLARE_WIN: "win",
    game_pb2.MOVE_KIND_GOSTERME: "gosterme",
    game_pb2.MOVE_KIND_END_ROUND: "end",
    game_pb2.MOVE_KIND_TIMEOUT: "timeout",
}


def count_text(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def tile_sort_key(tile: Any) -> tuple[bool, int, int, int]:
    """Colour by colour (R, Y, B, K), numbers ascending, false jokers last."""
    return (tile.false_joker, tile.color, tile.number, tile.copy)


def tiles_text(tiles: Iterable[Any], painter: render.Painter, *, sort: bool = False) -> str:
    ordered = sorted(tiles, key=tile_sort_key) if sort else list(tiles)
    return " ".join(painter.tile(t) for t in ordered) or "-"


def rack_line(view: game_pb2.PlayerViewResponse, painter: render.Painter) -> str:
    """The viewer's own rack, sorted for reading (the only rack `okey play` ever prints)."""
    return f"your rack ({len(view.rack)}): {tiles_text(view.rack, painter, sort=True)}"


def table_lines(
    view: game_pb2.PlayerViewResponse, seats: Seats, painter: render.Painter
) -> list[str]:
    """The table as the human's seat sees it: counts and visible discards of every seat,
    the wall's size, indicator and okey, whose turn it is, and the human's own rack."""
    human = view.seat
    turn = "your turn" if view.turn_seat == human else f"{seats.whose(view.turn_seat)} turn"
    todo = _PHASE_TODO.get(view.phase, "?")
    if view.phase == state_pb2.PHASE_DRAW and view.wall_size == 0:
        # §8.5: the round waits on a seat only when it can finish with the last discard.
        todo = "the wall is empty: take the last discard and finish (t), or end the round (end)"
    lines = [
        f"-- move {view.move_number}: {turn}: {todo}",
        f"indicator {painter.tile(view.indicator)}, okey {painter.tile(view.okey)}, "
        f"wall {count_text(view.wall_size, 'tile')}",
    ]
    if view.HasField("turn_deadline"):
        lines.append(f"deadline {view.turn_deadline.ToJsonString()}")
    previous = (human - 1) % view.player_count
    # Seats in turn order starting after the human, so the pile it takes from comes last.
    order = [(human + step) % view.player_count for step in range(1, view.player_count + 1)]
    for seat in order:
        seat_view = view.seats[seat]
        shown = ["showed gosterme"] if seat_view.gosterme else []
        lines.append(seat_line(seat_view, seats, previous, painter, tail=shown))
    lines.append(rack_line(view, painter))
    return lines


def seat_line(
    seat_view: Any, seats: Seats, previous: int, painter: render.Painter, *,
    state: Sequence[str] = (), tail: Sequence[str] = (),
) -> str:
    """One seat's line in either game: who, its tile count (not the human's), the game's
    `state` of the seat, its pile, the tile the human may take from it, then `tail`."""
    seat = seat_view.seat
    human = seats.human
    number = seats.number(seat)
    label = f"you (seat {number})" if seat == human else f"seat {number}"
    parts = [label]
    if seat != human:
        parts.append(count_text(seat_view.rack_size, "tile"))
    parts += state
    count = seat_view.discard_count
    if count == 0:
        parts.append("pile empty")
    elif seat_view.whole_pile:
        parts.append(f"pile {count}: {tiles_text(seat_view.discards, painter)}")
    else:
        parts.append(f"pile {count}, top {tiles_text(seat_view.discards[-1:], painter)}")
    if seat == previous and seat != human and count:
        parts.append(f"you may take {painter.tile(seat_view.discards[-1])}")
    return ", ".join([*parts, *tail])


def event_lines(
    events: Iterable[game_pb2.Event], seats: Seats, painter: render.Painter
) -> list[str]:
    """What each event tells the human's seat. A private tile (drawn from the wall) is shown
    only when the human drew it (to nobody once the human has left the game)."""
    lines = []
    previous: int | None = None
    for event in events:
        actor = seats.who(event.seat)
        visible = event.HasField("tile") and (not event.private or event.seat == seats.human)
        tile = painter.tile(event.tile) if visible else ""
        kind = event.kind
        if kind == game_pb2.EVENT_KIND_DREW_FROM_WALL:
            lines.append(f"{actor} drew {tile} from the wall" if tile else
                         f"{actor} drew from the wall")
        elif kind == game_pb2.EVENT_KIND_TOOK_DISCARD:
            lines.append(f"{actor} took {tile} from {seats.whose(event.from_seat)} pile")
        elif kind == game_pb2.EVENT_KIND_DISCARDED:
            lines.append(f"{actor} discarded {tile}")
        elif kind == game_pb2.EVENT_KIND_GOSTERME:
            lines.append(f"{actor} showed gosterme: {tile}")
        elif kind == game_pb2.EVENT_KIND_TURN_TIMED_OUT:
            lines.append(f"{seats.whose(event.seat)} turn timed out")
        elif kind == game_pb2.EVENT_KIND_ROUND_WON:
            lines.append(f"{actor} finished, discarding {tile} onto the indicator")
        elif kind == game_pb2.EVENT_KIND_ROUND_DRAWN:
            if previous == game_pb2.EVENT_KIND_DISCARDED:
                # §8.5: the discard of the last wall tile ended the round by itself.
                lines.append(f"the wall is empty and {actor} cannot finish with that tile:"
                             " the round is drawn")
            else:
                lines.append(f"{actor} ended the round: the wall is empty")
        previous = kind
    return lines


def outcome_lines(
    outcome: state_pb2.RoundOutcome, seats: Seats, painter: render.Painter
) -> list[str]:
    """The round's outcome: the winner, how it won and its 14 tiles (shown to all), or a
    drawn round; then every gösterme shown, in the order shown."""
    head = f"round over at move {outcome.move_number}: "
    if outcome.drawn:
        lines = [head + "drawn, no winner (the wall ran out)"]
    else:
        winner = ("you win" if outcome.winner_seat == seats.human
                  else f"{seats.who(outcome.winner_seat)} wins")
        lines = [head + f"{winner} ({render.win_kind(outcome.win_kind)})"]
        double = " (an okey: the score doubles)" if outcome.okey_discard else ""
        lines.append(f"finishing discard: {painter.tile(outcome.discard)}{double}")
        lines.append(f"winning hand (14): {tiles_text(outcome.hand, painter)}")
        lines += render.arrangement_lines(outcome.arrangement, painter)
    claims = [f"{seats.who(c.seat)} ({painter.tile(c.tile)})" for c in outcome.gosterme]
    lines.append(f"gosterme: {', '.join(claims) if claims else 'none'}")
    return lines


def moves_lines(legal: Sequence[game_pb2.Move], painter: render.Painter) -> list[str]:
    """LegalMoves as the commands that make them; tile moves grouped on one line each."""
    if not legal:
        return ["no legal move now"]
    plain: list[str] = []
    with_tiles: dict[int, list[str]] = {}
    for move in legal:
        word = _MOVE_WORDS.get(move.kind, "?")
        if move.HasField("tile"):
            names = with_tiles.setdefault(move.kind, [])
            name = painter.tile(move.tile)
            if name not in names:  # both copies of a face are one command
                names.append(name)
        elif word not in plain:
            plain.append(word)
    lines = [f"legal: {word}" for word in plain]
    for kind, names in with_tiles.items():
        lines.append(f"legal: {_MOVE_WORDS.get(kind, '?')} {' '.join(names)}")
    return lines


def notices(legal: Sequence[game_pb2.Move], painter: render.Painter) -> list[str]:
    """What the human's own LegalMoves offer that is easy to miss: gösterme, a finish (and
    that it must be made, docs/rules.md §8.4-§8.5), and the last discard of an empty wall
    (offered only to a seat that can finish with it)."""
    lines = []
    kinds = {m.kind for m in legal}
    if game_pb2.MOVE_KIND_GOSTERME in kinds:
        lines.append("you may show gosterme (g): you hold the indicator's twin")
    wins: list[str] = []
    for move in legal:
        name = painter.tile(move.tile)
        if move.kind == game_pb2.MOVE_KIND_DECLARE_WIN and name not in wins:
            wins.append(name)
    if wins:
        must = "" if game_pb2.MOVE_KIND_DISCARD in kinds else " (you must: no plain discard)"
        lines.append(f"your hand finishes: win {' or '.join(wins)}{must}")
    if game_pb2.MOVE_KIND_TAKE_DISCARD in kinds and game_pb2.MOVE_KIND_DRAW_FROM_WALL not in kinds:
        lines.append("the last discard finishes your hand: take it (t) and win, or end the"
                     " round (end)")
    return lines


def move_text(move: game_pb2.Move, painter: render.Painter) -> str:
    """A move as the command that makes it (`discard R7`, `draw`)."""
    word = _MOVE_WORDS.get(move.kind, "?")
    return f"{word} {painter.tile(move.tile)}" if move.HasField("tile") else word
