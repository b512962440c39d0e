"""Hand analysis for classic Okey: how far a hand is from a win, and which draws bring it closer.

**Distance.** The distance of 14 tiles to a win is the fewest of them that
must be replaced, each by a tile that could be there instead, for
`okey_rules.search.hand.check_hand` to say the hand wins. "Could be there"
means the hand after the replacements could be dealt: at most two tiles of a
face (two false jokers, two okey tiles), and one tile of the indicator's face,
whose other copy lies face up (docs/rules.md §2.4; two with the option
`indicator_drawable_last`). Replacing a tile by an okey (wild) or a false
joker (which plays as the okey's face, §2.3) is allowed like any other. The
distance is given per way to win: by melds (§4.1), by seven pairs (§4.2),
by kafa (§4.3, only when the rules play it), and the best of them. So the
best distance is 0 exactly when the hand wins, and 1 exactly when some
one-tile replacement wins. It depends on the tiles alone, not on what the
seat has seen.

**Fifteen tiles.** With 15 tiles (the turn of a seat that has drawn), each
distinct tile that can be discarded is analysed: the distance of the 14 left,
and the *useful draws*: each tile face that, drawn into those 14 and followed
by the best discard, leaves 14 at a smaller best distance. (A draw and a
discard replace one tile, so a useful draw lowers the distance by exactly
one.) A face is listed only if the 14 could hold one more of it. Each comes
with its *unseen* copies: two, less those the seat knows the place of. When
the caller passes `seen` (every tile the seat has seen: its own rack, every
discard pile, the indicator), those are the known ones; otherwise the hand
alone is the view: the 15 tiles and the indicator. A useful face may have 0
unseen copies: it would lower the distance, but every copy is in sight.
"""

from okey_rules.analysis.draws import DiscardChoice, UsefulDraw, analyze_discards
from okey_rules.analysis.hand_distance import Distance, distance

__all__ = ["DiscardChoice", "Distance", "UsefulDraw", "analyze_discards", "distance"]
