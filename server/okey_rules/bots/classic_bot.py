"""Classic Okey bots (docs/rules.md §8): which move a seat makes, by level.

Level 1 plays a random legal move, but declares a win when one is offered: a
bot that never finishes a won hand would hold the round up (with
`must_show_win` the rules force it anyway), and declaring keeps level 1 no
stronger, since its random discards rarely build a win.

Level 2 is greedy on the hand alone: shows gösterme when it may, declares a
win when offered (with an okey as the discard where one wins: the double),
takes the previous discard only when it lowers the distance to a win
(okey_rules.analysis), and discards to keep the lowest distance, then the most
useful draws, their copies counted from the hand alone (the rack and the
indicator). It never throws an okey while another discard keeps the same
distance.

Level 3 counts what the view shows: a face's unseen copies leave out every
visible discard too, so a wait whose tiles lie in the piles is worth less.
Among discards that keep the lowest distance and come close on unseen useful
copies, it throws the one the next seat (who may take it) is least likely to
use: a face that seat discarded itself, else the face with the fewest unseen
tiles that could make a set or run with it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from okey_rules.analysis.draws import DiscardChoice, analyze_discards
from okey_rules.analysis.hand_distance import distances, read_hand
from okey_rules.bots.suggestion import (
    Suggestion,
    first_of,
    name,
    of_kind,
    okey_of,
    previous_top,
    random_move,
)
from okey_rules.play.round_types import Move, MoveKind, Phase
from okey_rules.play.view_types import PlayerView
from okey_rules.tiles import COPIES, FACES, FALSE_JOKER_FACE, NUMBERS, TILE_OF_CODE, Tile

HAND = 14
# Level 3: discards within this share of the most unseen useful copies (at least
# CLOSE_COPIES fewer) are "close": feeding the next seat a tile that brings it one
# step nearer costs more than a copy or two fewer to wait on.
CLOSE_SHARE = 0.2
CLOSE_COPIES = 2
# Level 3 looks two draws ahead at this distance (one step more, each look costs an
# analysis of 15 tiles), for this many discards and their most-copied useful draws.
LOOKAHEAD_DISTANCE = 2
LOOKAHEAD_CHOICES = 2
LOOKAHEAD_DRAWS = 3


def classic_move(
    view: PlayerView, legal: Sequence[Move], level: int, lots: random.Random
) -> Suggestion:
    timeout = first_of(legal, MoveKind.TIMEOUT)
    if timeout is not None:
        return Suggestion(timeout, "the turn's time is up: the automatic move plays it")
    wins = of_kind(legal, MoveKind.DECLARE_WIN)
    if wins:
        return _declare(view, wins)
    if level == 1:
        return random_move(legal, lots)
    gosterme = first_of(legal, MoveKind.GOSTERME)
    if gosterme is not None:
        twin = (view.indicator + FACES) % (2 * FACES)
        return Suggestion(gosterme, f"show gösterme: the rack holds {name(twin)},"
                                    " the indicator's twin")
    if view.phase is Phase.DRAW:
        return _draw(view, legal)
    return _discard(view, legal, level)


def _declare(view: PlayerView, wins: list[Move]) -> Suggestion:
    okey_face = okey_of(view).face
    for move in wins:
        if move.tile is not None and move.tile % FACES == okey_face:
            return Suggestion(move, f"declare the win discarding the okey {name(move.tile)}"
                                    " (it doubles the win)")
    move = wins[0]
    assert move.tile is not None
    return Suggestion(move, f"declare the win discarding {name(move.tile)}")


def _tiles(codes: Sequence[int]) -> list[Tile]:
    return [TILE_OF_CODE[code] for code in codes]


def _distance(view: PlayerView, codes: Sequence[int]) -> int:
    """The best distance of 14 tiles, or of 15 after their best discard."""
    reading = read_hand(_tiles(codes), okey_of(view), view.rules, (HAND, HAND + 1))
    return distances(reading, view.rules)[0].best


def _draw(view: PlayerView, legal: Sequence[Move]) -> Suggestion:
    take = first_of(legal, MoveKind.TAKE_DISCARD)
    draw = first_of(legal, MoveKind.DRAW_FROM_WALL)
    top = previous_top(view)
    if take is not None and top is not None:
        now = _distance(view, view.rack)
        with_top = _distance(view, (*view.rack, top))
        if with_top < now or draw is None:
            return Suggestion(take, f"take {name(top)}: it brings the hand to {with_top}"
                                    f" from a win (now {now})")
    if draw is not None:
        return Suggestion(draw, "draw from the wall: the previous discard does not bring"
                                " the hand closer to a win")
    end = first_of(legal, MoveKind.END_ROUND)
    assert end is not None, "a seat on turn to draw can always end or take"
    return Suggestion(end, "end the round: the wall is empty and the last discard does"
                           " not finish the hand")


def seen_tiles(view: PlayerView) -> list[Tile]:
    """Every tile whose place the view shows: the rack, the visible piles, the indicator."""
    codes = [*view.rack, view.indicator]
    for seat in view.seats:
        codes += seat.discards
    return _tiles(codes)


def _discard(view: PlayerView, legal: Sequence[Move], level: int) -> Suggestion:
    discards = of_kind(legal, MoveKind.DISCARD)
    assert discards, "a seat holding 15 tiles discards or declares a win"
    by_face: dict[int, Move] = {}
    for move in discards:
        assert move.tile is not None
        by_face.setdefault(move.tile % FACES, move)
    okey = okey_of(view)
    seen = seen_tiles(view) if level >= 3 else None
    choices = [c for c in analyze_discards(_tiles(view.rack), okey, view.rules, seen)
               if c.tile.face in by_face]
    # An okey is wild: throwing it is a 101 penalty in Okey 101 and nearly always a loss
    # here; it goes only when every other discard leaves the hand farther from a win.
    least = min(c.distance.best for c in choices)
    kept = [c for c in choices if c.distance.best == least and not c.okey] or [
        c for c in choices if c.distance.best == least
    ]
    if level >= 3:
        best = _safest_close(view, kept, least, seen or [])
    else:
        best = min(kept, key=lambda c: (-c.useful_unseen, c.tile.face))
    move = by_face[best.tile.face]
    assert move.tile is not None
    source = "unseen" if level >= 3 else "not in hand"
    reason = (f"discard {name(move.tile)}: keeps {least} to a win,"
              f" {best.useful_unseen} useful draws {source}")
    if level >= 3 and len(kept) > 1 and best.useful_unseen < max(c.useful_unseen for c in kept):
        reason += ", and the next seat is less likely to use it"
    return Suggestion(move, reason)


def _safest_close(view: PlayerView, kept: list[DiscardChoice], least: int,
                  seen: list[Tile]) -> DiscardChoice:
    """Of the discards close to the most unseen useful copies, the one whose wait two
    draws ahead is best (two steps from a win), then the one the next seat is least
    likely to want."""
    top = max(c.useful_unseen for c in kept)
    margin = max(CLOSE_COPIES, int(top * CLOSE_SHARE))
    close = [c for c in kept if c.useful_unseen >= top - margin]
    if len(close) == 1:
        return close[0]
    if least == LOOKAHEAD_DISTANCE:
        ahead = sorted(close, key=lambda c: (-c.useful_unseen, c.tile.face))[:LOOKAHEAD_CHOICES]
        scores = {c.tile.face: _two_draws(view, c, seen) for c in ahead}
        return max(ahead, key=lambda c: (scores[c.tile.face], c.useful_unseen, -c.tile.face))
    unseen = _unseen(view)
    okey_face = okey_of(view).face
    nexts_pile = {code % FACES for code in view.seats[(view.seat + 1) % view.player_count].discards}
    return min(close, key=lambda c: (
        _danger(c.tile.face, okey_face, unseen, nexts_pile, view.rules.runs_13_to_1),
        -c.useful_unseen, c.tile.face,
    ))


def _two_draws(view: PlayerView, choice: DiscardChoice, seen: list[Tile]) -> int:
    """How many ways two draws win after this discard: each useful draw's unseen copies
    times the unseen copies that then win after the best discard (the most-copied useful
    draws only, to answer in time)."""
    hand = list(view.rack)
    thrown = next(code for code in hand if code % FACES == choice.tile.face)
    hand.remove(thrown)
    okey = okey_of(view)
    total = 0
    draws = sorted(choice.useful, key=lambda d: (-d.unseen, d.tile.face))[:LOOKAHEAD_DRAWS]
    for useful in draws:
        if not useful.unseen:
            continue
        face = useful.tile.face
        drawn = face if face not in hand else face + FACES
        tiles = _tiles((*hand, drawn))
        after = analyze_discards(tiles, okey, view.rules, [*seen, TILE_OF_CODE[drawn]])
        waits = [c.useful_unseen for c in after
                 if c.distance.best < choice.distance.best]
        total += useful.unseen * max(waits, default=0)
    return total


def _unseen(view: PlayerView) -> list[int]:
    counts = [COPIES] * FACES
    for tile in seen_tiles(view):
        counts[tile.face] -= 1
    return counts


def _danger(face: int, okey_face: int, unseen: list[int], nexts_pile: set[int],
            runs_13_to_1: bool) -> int:
    """How many unseen tiles could make a set or run with this face (0 when the next seat
    threw this face itself: it did not want it then)."""
    if face in nexts_pile:
        return 0
    played = okey_face if face == FALSE_JOKER_FACE else face
    colour, number = divmod(played, NUMBERS)
    partners = [other * NUMBERS + number for other in range(4) if other != colour]
    for step in (-2, -1, 1, 2):
        beside = number + step
        if runs_13_to_1:
            beside %= NUMBERS
        if 0 <= beside < NUMBERS:
            partners.append(colour * NUMBERS + beside)
    return sum(unseen[p] for p in partners if p != okey_face)
