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
It takes the previous discard when it brings the hand nearer, and also, one
from a win, when the wider wait it gives beats this turn's wall draw by the
chance-to-win model of okey_rules.bots.classic_odds. Of the discards that keep
the lowest distance it throws the one whose unseen useful copies, less a
small weight for how much the next seat (the only one that may take it) may
want it (okey_rules.bots.classic_danger), come highest; at two from a win it
also looks two draws ahead. A hand that can no longer win before the wall
runs out only defends: it throws what the next seat is least likely to use.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from okey_rules.analysis.draws import DiscardChoice, analyze_discards
from okey_rules.analysis.hand_distance import distances, read_hand
from okey_rules.bots.classic_danger import declined_faces, feed_danger
from okey_rules.bots.classic_odds import draw_chance, turns_left, win_chance
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
from okey_rules.tiles import COPIES, FACES, TILE_OF_CODE, Tile

HAND = 14
# Level 3 weighs a discard by its unseen useful copies less this weight times its danger
# to the next seat (classic_danger): a tile the next seat takes is a sure step for it.
DANGER_WEIGHT = 0.1
# Level 3 takes a discard that keeps the distance when its chance to win with it beats
# the wall draw's by this factor.
TAKE_MARGIN = 1.0
# ... and only this close to a win, where the wait's width is what decides.
TAKE_DISTANCE = 1
# Level 3 looks two draws ahead at this distance (one step more, each look costs an
# analysis of 15 tiles), for this many discards and their most-copied useful draws;
# the ways two draws win, over the unseen tiles, weigh this much against a copy.
LOOKAHEAD_DISTANCE = 2
LOOKAHEAD_CHOICES = 2
LOOKAHEAD_DRAWS = 3
LOOKAHEAD_WEIGHT = 1.0


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
        return _draw(view, legal, level)
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


def _draw(view: PlayerView, legal: Sequence[Move], level: int) -> Suggestion:
    take = first_of(legal, MoveKind.TAKE_DISCARD)
    draw = first_of(legal, MoveKind.DRAW_FROM_WALL)
    top = previous_top(view)
    if take is not None and top is not None:
        if level >= 3:
            taken = _take_odds(view, top, draw is not None)
            if taken is not None:
                return Suggestion(take, taken)
        else:
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


def _take_odds(view: PlayerView, top: int, may_draw: bool) -> str | None:
    """Level 3: why to take the previous discard, or None to draw from the wall.

    One analysis of the rack with the discard answers both sides: throwing the
    discard's face again leaves the rack as it is now. The discard is taken when it
    brings the hand nearer, or when the chance to win (classic_odds) with it beats the
    chance with this turn's wall draw: a wider wait for a close hand."""
    seen = seen_tiles(view)
    choices = analyze_discards(_tiles((*view.rack, top)), okey_of(view), view.rules, seen)
    now = next(c for c in choices if c.tile.face == top % FACES)
    others = [c for c in choices if c.tile.face != top % FACES and not c.okey]
    if not others:
        return None
    after = min(others, key=lambda c: (c.distance.best, -c.useful_unseen, c.tile.face))
    was, then = now.distance.best, after.distance.best
    if then < was or not may_draw:
        return f"take {name(top)}: it brings the hand to {then} from a win (now {was})"
    if then > was or then > TAKE_DISTANCE:
        return None
    unseen = _unseen_total(seen)
    turns = turns_left(view.wall_size - 1, view.player_count)
    with_take = win_chance(then, after.useful_unseen, unseen, turns)
    with_draw = draw_chance(was, now.useful_unseen, unseen, turns)
    if with_take > with_draw * TAKE_MARGIN:
        return (f"take {name(top)}: still {then} from a win, but {after.useful_unseen} useful"
                f" draws unseen instead of {now.useful_unseen}")
    return None


def seen_tiles(view: PlayerView) -> list[Tile]:
    """Every tile whose place the view shows: the rack, the visible piles, the indicator."""
    codes = [*view.rack, view.indicator]
    for seat in view.seats:
        codes += seat.discards
    return _tiles(codes)


def _unseen_total(seen: list[Tile]) -> int:
    return COPIES * FACES - len(seen)


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
    if level >= 3:
        return _discard_informed(view, by_face, choices, seen or [])
    # An okey is wild: throwing it is a 101 penalty in Okey 101 and nearly always a loss
    # here; it goes only when every other discard leaves the hand farther from a win.
    least = min(c.distance.best for c in choices)
    kept = _least_kept(choices)
    best = min(kept, key=lambda c: (-c.useful_unseen, c.tile.face))
    move = by_face[best.tile.face]
    assert move.tile is not None
    return Suggestion(move, f"discard {name(move.tile)}: keeps {least} to a win,"
                            f" {best.useful_unseen} useful draws not in hand")


def _least_kept(choices: list[DiscardChoice]) -> list[DiscardChoice]:
    """The discards that keep the lowest distance, an okey only if nothing else does."""
    least = min(c.distance.best for c in choices)
    return [c for c in choices if c.distance.best == least and not c.okey] or [
        c for c in choices if c.distance.best == least
    ]


def _discard_informed(view: PlayerView, by_face: dict[int, Move],
                      choices: list[DiscardChoice], seen: list[Tile]) -> Suggestion:
    """Level 3: of the discards keeping the lowest distance, the one whose unseen useful
    copies, less a weight for how much the next seat may want it (classic_danger), come
    highest. A hand that can no longer win before the wall runs out only defends."""
    kept = _least_kept(choices)
    least = kept[0].distance.best
    unseen = _unseen(view)
    okey_face = okey_of(view).face
    declined = declined_faces(view)

    def danger(choice: DiscardChoice) -> float:
        return feed_danger(choice.tile.face, okey_face, unseen, declined,
                           view.rules.runs_13_to_1)

    # Each draw to come is one step at most, and the last discard, the wall empty, may
    # be taken to finish: a hand farther than that only defends.
    if least > turns_left(view.wall_size, view.player_count) + 1:
        safe = [c for c in choices if not c.okey] or choices
        best = min(safe, key=lambda c: (danger(c), c.distance.best, -c.useful_unseen,
                                        c.tile.face))
        move = by_face[best.tile.face]
        assert move.tile is not None
        return Suggestion(move, f"discard {name(move.tile)}: the hand cannot win before the"
                                " wall runs out, and the next seat is least likely to use it")
    scores = {c.tile.face: c.useful_unseen - DANGER_WEIGHT * danger(c) for c in kept}
    if least == LOOKAHEAD_DISTANCE and LOOKAHEAD_CHOICES > 1:
        ahead = sorted(kept, key=lambda c: (-scores[c.tile.face], c.tile.face))
        ahead = ahead[:LOOKAHEAD_CHOICES]
        for c in ahead:
            scores[c.tile.face] += LOOKAHEAD_WEIGHT * _two_draws(view, c, seen) / max(
                1, _unseen_total(seen))
        kept = ahead
    best = max(kept, key=lambda c: (scores[c.tile.face], -c.tile.face))
    move = by_face[best.tile.face]
    assert move.tile is not None
    reason = (f"discard {name(move.tile)}: keeps {least} to a win,"
              f" {best.useful_unseen} useful draws unseen")
    widest = min(kept, key=lambda c: (-c.useful_unseen, c.tile.face))
    if best is not widest and danger(best) < danger(widest):
        reason += ", and the next seat is less likely to use it"
    return Suggestion(move, reason)


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
