"""Sets and runs: can a hand's naturals and wilds split wholly into melds (docs/rules.md §4.1)?

The rule is stated in `okey_rules.rulebook`; this is its fast form, held to
the rulebook by tests.

Search on the lowest tile: the lowest natural face still held must sit in
some meld, and in that meld it is the lowest natural, so only the melds filed
under it in the precomputed table are tried. Hand and melds are packed ints
(`okey_rules.search.packed`), so one try is a subtraction and a mask.
"""

from __future__ import annotations

from collections.abc import Callable

from okey_rules.bounded_cache import BoundedCache
from okey_rules.search.meld_table import (
    WILDS_AT,
    Candidates,
    Template,
    candidate_cache,
    candidates,
    neighbourhood,
)
from okey_rules.search.packed import (
    COLOUR_MASK,
    FIELD,
    LOW,
    ONE,
    colours_in,
    lonely_among,
    needy_faces,
    numbers_of,
    one_wild_run_fits,
)


def may_split(naturals: int, wilds: int, runs_13_to_1: bool) -> bool:
    """Cheap necessary test: can the tiles that need wilds get them?

    A needy tile (no wildless meld of held faces holds it, see
    `needy_faces`) sits in a meld with a wild, and there are at most two
    such melds. Each meld is one colour (a run) or one number (a set), so:

    - with no wild, no tile may be needy;
    - with one wild, every needy tile sits in its one meld: all share a
      number, or all share a colour within five run positions (a tile three
      places from the wild would have a wildless run of its own), every
      position among them held but the wild's;
    - a lonely tile (no partner at all) needs both wilds in its meld, so
      lonely tiles need two wilds; then every needy tile shares that one
      meld, which is a run (a set holding two wilds and a lonely tile holds
      no other natural, or that one would be a partner): one colour;
    - with two wilds otherwise, the needy tiles sit in one meld (one colour
      or one number) or in two melds of one wild each, each a set or a run
      whose needy tiles lie within five positions.
    """
    needy = needy_faces(naturals, runs_13_to_1)
    if not needy:
        return True
    if not wilds:
        return False  # the usual refusal, before the held faces are worked out
    return wilds_can_serve(needy, wilds, runs_13_to_1, naturals | naturals >> 1, naturals)


def wilds_can_serve(needy: int, wilds: int, runs_13_to_1: bool, held: int, hand: int) -> bool:
    """`may_split`'s test on given needy tiles (see there).

    `held` flags the held faces (bit 0 of each field; it may flag more), and
    the lonely tiles are the needy ones without a partner in `hand`.
    Monotone: flagging more needy tiles, fewer held faces or a hand with
    fewer partners never turns a refusal into a pass, so it may be given a
    subset of the true needy tiles and supersets of the held faces and of
    the hand. The tests run cheapest first, so lonely tiles are looked for
    only when they decide.
    """
    if not needy:
        return True
    if wilds == 0:
        return False
    if wilds == 1:
        # All needy tiles in one meld with one wild: one number, or one run;
        # and no lonely tile, which would need two wilds.
        return (
            _one_of(numbers_of(needy)) or _one_wild_run(needy, held, runs_13_to_1)
        ) and not lonely_among(hand, needy, runs_13_to_1)
    if colours_in(needy) == 1:
        return True  # one run takes both wilds, lonely tiles or not
    return not lonely_among(hand, needy, runs_13_to_1) and _two_groups(needy, runs_13_to_1, held)


def _one_of(bits: int) -> bool:
    """At most one flag set."""
    return not bits & (bits - 1)


def _one_wild_run(tiles: int, held: int, runs_13_to_1: bool) -> bool:
    """Could a run with one wild hold all the flagged tiles (see `one_wild_run_fits`)?"""
    for mask in COLOUR_MASK:
        if tiles & mask:
            # The first colour found must hold them all.
            if tiles & ~mask:
                return False
            return one_wild_run_fits(numbers_of(tiles), numbers_of(held & mask), runs_13_to_1)
    return False


def _two_groups(needy: int, runs_13_to_1: bool, held: int) -> bool:
    """Can two wilds serve these needy tiles (no lonely ones among them)?

    Either one meld holds them all (one colour or one number, any span: a
    run with two wilds may be long), or two melds with one wild each: each
    a set (one number) or a run as with one wild.
    """
    groups = [needy & mask for mask in COLOUR_MASK if needy & mask]
    numbers = numbers_of(needy)
    if len(groups) == 1 or _one_of(numbers) or _one_of(numbers & (numbers - 1)):
        return True  # one meld, or two sets
    if len(groups) == 2 and all(_one_wild_run(group, held, runs_13_to_1) for group in groups):
        return True  # two runs
    for group in groups:
        # A run of this colour and a set: the other colours' needy tiles
        # share one number, and this colour's tiles off that number fit a run.
        others = numbers_of(needy & ~group)
        if _one_of(others):
            in_run = group & ~(others * _EVERY_COLOUR)
            if not in_run or _one_wild_run(in_run, held, runs_13_to_1):
                return True
    return False


# Times a folded number mask, the same numbers in every colour.
_EVERY_COLOUR = 1 | 1 << 39 | 1 << 78 | 1 << 117


# Transposition tables, per `runs_13_to_1`, keyed ``naturals | wilds << WILDS_AT``
# (a "search key"): for a packed remainder, the melds of its first split in
# table order (None: no split), and which single discards make it split.
# Remainders recur across hands, so these are shared; they are bounded
# before a search (`BoundedCache.make_room`), never during one. Taking a
# meld from a remainder is one subtraction on the key: ``key - template.step``;
# and a key's lowest set bit is its lowest natural tile.
# The bound is the server's memory: a long-running process sees millions of
# distinct remainders, so the tables fill to it. At 2**18 entries a table and
# its skips hold about 80 MB when full (2**20 held about 330 MB), and the hand
# benchmark measured no difference in speed between the two.
SEARCH_LIMIT = 1 << 18
_UNKNOWN = object()
_NATURALS = (1 << WILDS_AT) - 1
Split = tuple[Template, ...]
_choices: tuple[BoundedCache[int, Split | None], ...] = (
    BoundedCache(SEARCH_LIMIT),
    BoundedCache(SEARCH_LIMIT),
)
_skips: tuple[BoundedCache[int, int], ...] = (
    BoundedCache(SEARCH_LIMIT),
    BoundedCache(SEARCH_LIMIT),
)
_Lowest = tuple[int, list[dict[int, Candidates]], int]


def _by_lowest_bit(runs_13_to_1: bool) -> tuple[_Lowest | None, ...]:
    """Per bit length of a key's lowest set bit: what the search needs of its lowest face.

    (presence bits near the face (`neighbourhood`), the face's candidate
    caches by wild count, the face); None where no natural is left (no bit,
    or only the wild count's).
    """
    near = neighbourhood(runs_13_to_1)
    table: list[_Lowest | None] = [None] * (WILDS_AT + 3)
    for face in range(52):
        caches = candidate_cache[runs_13_to_1][face * 3 : face * 3 + 3]
        by_wilds = [cache.entries for cache in caches]
        entry = (near[face], by_wilds, face)
        table[FIELD * face + 1] = table[FIELD * face + 2] = entry  # count 1 or 2 (or 3)
    return tuple(table)


_LOWEST = (_by_lowest_bit(False), _by_lowest_bit(True))


def _chooser(runs_13_to_1: bool) -> Callable[[int], Split | None]:
    """The search for one value of the option, its tables bound as locals (the hot loop)."""
    cache = _choices[runs_13_to_1].entries  # cleared in place, so binding it once is safe
    lowest = _LOWEST[runs_13_to_1]
    unknown = _UNKNOWN

    def choose(key: int) -> Split | None:
        """The melds of remainder `key`'s first split, lowest tile first, or None.

        Called on a key not in the table.
        """
        entry = lowest[(key & -key).bit_length()]
        if entry is None:
            # No natural left: split only with no wild left either (one or
            # two wilds make no meld on their own).
            result: Split | None = () if key == 0 else None
            cache[key] = result
            return result
        near, by_wilds, face = entry
        held = key | key >> 1  # bit 0 of a field: the face is held (other bits are noise)
        # Only melds that fit; and a wild never needs to stand for a tile still
        # held: were that tile in another meld, the two melds could swap it.
        # (`candidates`, with its cache looked up inline.)
        found = by_wilds[key >> WILDS_AT].get(held & near)
        if found is None:
            found = candidates(runs_13_to_1, key >> WILDS_AT, face, held)
        result = None
        for template in found[0]:
            rest = key - template.step
            # The child's answer is read here, not through a call: most
            # children are remainders seen before.
            child = cache.get(rest, unknown)
            if child is unknown:
                child = choose(rest)
            if child is not None:
                result = (template,) + child  # type: ignore[operator]  # noqa: RUF005 (cheaper)
                break
        cache[key] = result
        return result

    return choose


_CHOOSE = (_chooser(False), _chooser(True))


def _split_of(key: int, runs_13_to_1: bool) -> Split | None:
    """The melds of search key `key`'s first split, or None: from the table, else searched."""
    table = _choices[runs_13_to_1]
    found = table.entries.get(key, _UNKNOWN)
    if found is _UNKNOWN:
        table.make_room()
        return _CHOOSE[runs_13_to_1](key)
    return found  # type: ignore[return-value]


def splits_fully(naturals: int, wilds: int, runs_13_to_1: bool) -> bool:
    """True when the naturals (packed) and `wilds` wilds split wholly into melds."""
    return _split_of(naturals | wilds << WILDS_AT, runs_13_to_1) is not None


def find_melds(naturals: int, wilds: int, runs_13_to_1: bool) -> Split | None:
    """The melds of the first winning split (lowest tile first, table order), or None."""
    return _split_of(naturals | wilds << WILDS_AT, runs_13_to_1)


def one_colour(naturals: int) -> int | None:
    """The only colour holding naturals, or None when there are several (or none)."""
    held = [colour for colour, mask in enumerate(COLOUR_MASK) if naturals & mask]
    return held[0] if len(held) == 1 else None


def discard_faces(naturals: int, wilds: int, runs_13_to_1: bool) -> int:
    """Bitmask of the natural faces f whose discard leaves a meld split of the rest.

    One search over the whole 15 instead of one per discard: at each state the
    lowest tile either is the discard (then the rest must split) or sits in a
    meld filed under it.
    """
    if not naturals:
        return 0
    key = naturals | wilds << WILDS_AT
    cache = _skips[runs_13_to_1]
    known = cache.entries.get(key)
    if known is None:
        cache.make_room()
        _choices[runs_13_to_1].make_room()  # the discard search fills it too
        known = _SKIPPER[runs_13_to_1](key)
    return known


def _skipper(runs_13_to_1: bool) -> Callable[[int], int]:
    """`discard_faces` for one value of the option, on search keys, tables bound as locals."""
    cache = _skips[runs_13_to_1].entries  # cleared in place, so binding it once is safe
    choices = _choices[runs_13_to_1].entries
    choose = _CHOOSE[runs_13_to_1]
    lowest = _LOWEST[runs_13_to_1]
    unknown = _UNKNOWN

    def skips(key: int) -> int:
        """Called on a key not in the table whose remainder holds a natural."""
        near, by_wilds, face = lowest[(key & -key).bit_length()]  # type: ignore[misc]
        wilds = key >> WILDS_AT
        # The lowest tile is the discard: then the rest must split.
        rest = key - ONE[face]
        split = choices.get(rest, unknown)
        if split is unknown:
            split = choose(rest)
        result = 1 << face if split is not None else 0
        held = (key | key >> 1) & LOW
        found = by_wilds[wilds].get(held & near)
        useful, wild_for_held = found or candidates(runs_13_to_1, wilds, face, held)
        for template in useful:
            child = key - template.step
            if child & _NATURALS:  # naturals left, so a discard among them
                sub = cache.get(child)
                result |= skips(child) if sub is None else sub
        for template in wild_for_held:
            # As in `choose`, a wild standing for a held tile is needed only
            # when that very tile is the discard; otherwise the two could swap.
            # So only that discard needs checking, without a search for others.
            wild_held = template.wild_at & held
            if not wild_held & (wild_held - 1):
                only = (wild_held.bit_length() - 1) // 3
                if not result >> only & 1 and (
                    _split_of(key - template.step - ONE[only], runs_13_to_1) is not None
                ):
                    result |= 1 << only
        cache[key] = result
        return result

    return skips


_SKIPPER = (_skipper(False), _skipper(True))
