"""Classic level 3's guess at how useful a discard is to the next seat, who may take it.

Only the next seat can take a discard, and a taken tile is a sure step for it
(a wall draw is a gamble), so throwing it a tile it wants costs about as much
as a step of one's own. Its rack is hidden; what the view shows is:

- the seat's own pile, which it sees whole: every tile still there is one the
  next seat left lying when it was thrown (a taken tile leaves the pile), so
  that face did not help it then, and rarely does later;
- the next seat's own discards (the top of its pile): faces it let go;
- the unseen copies of the tiles that would make a set, a run or a pair with
  the face: the more of them might sit in the next rack, the likelier the face
  joins something there.
"""

from __future__ import annotations

from okey_rules.play.view_types import PlayerView
from okey_rules.tiles import FACES, FALSE_JOKER_FACE, NUMBERS

COLOURS = 4
# Weights of an unseen partner copy: beside in a run or of the same number in a set
# (one more tile makes a meld with a held pair of them), two apart in a run (the gap
# must be filled too), the face's twin (a pair toward seven pairs).
NEAR = 1.0
GAP = 0.5
TWIN = 0.5
# A face the next seat left lying or threw: it wanted none then.
DECLINED = 0.0


def declined_faces(view: PlayerView) -> set[int]:
    """Faces the next seat passed over: the seat's own pile, the next seat's visible pile."""
    nxt = (view.seat + 1) % view.player_count
    codes = (*view.seats[view.seat].discards, *view.seats[nxt].discards)
    return {code % FACES for code in codes}


def feed_danger(face: int, okey_face: int, unseen: list[int], declined: set[int],
                runs_13_to_1: bool) -> float:
    """A weight for how likely the next seat takes `face` (0 for a face it passed over)."""
    if face in declined:
        return DECLINED
    played = okey_face if face == FALSE_JOKER_FACE else face
    colour, number = divmod(played, NUMBERS)
    weighted = [(other * NUMBERS + number, NEAR) for other in range(COLOURS) if other != colour]
    weighted.append((played, TWIN))
    for step, weight in ((-2, GAP), (-1, NEAR), (1, NEAR), (2, GAP)):
        beside = number + step
        if runs_13_to_1:
            beside %= NUMBERS
        if 0 <= beside < NUMBERS:
            weighted.append((colour * NUMBERS + beside, weight))
    return sum(unseen[p] * w for p, w in weighted if p != okey_face)
