"""Okey 101 openings (docs/okey101.md): the most valuable melds a rack can lay, and the most pairs.

A player opens in Okey 101 by laying sets and runs worth at least 101
points (each tile counts its number, an okey the number it stands for, a
false joker the okey's number), or at least five pairs. `best_opening`
finds the melds of highest value a rack holds, `best_pairs_opening` the
most pairs. Both are exact.

How the melds are found (why it is exact): the numbers are decided one at a
time, 1 to 13 (then the 1 played high after 13, where `runs_13_to_1`
allows it). At each number, each tile of that number is left on the rack,
laid in a set of that number, or laid in a run of its colour, where it
continues a run that reached the number before or starts one; an okey may
stand for any tile in a set or a run. A run shorter than three cannot stop,
so what the later numbers need to know is, per colour, how many runs are
open and how long each is (1, 2, or 3 and more: from three on a run may stop
anywhere), and how many okeys are spent. Those are the states of a dynamic
programme over the numbers, and each state keeps only its best way so far:
whatever the numbers above do next depends on the state alone, so the best
way to reach a state is part of the best opening through it. A set is only
a question of how many tiles of one number lie in sets (3 or 4 of different
colours, or two or three sets of them), so sets need no state at all.

Why its cost follows the rack: the naturals that fit in no set or run are
left out first, and only the numbers a meld can reach are visited (between
two of them every run stops; `okey_rules.search.meld_reach`). A state with
no okey left (every state of a rack without okeys) takes each way its runs
go on once: which of the other naturals there go in sets changes no state,
so only the best allocation to sets is weighed (`_step_without_okeys`).

The programme keeps, for each state, the value laid, the tiles laid and the
choices made so far, and compares them in the order of the tie-break rule
(`best_opening`): equal states have equal futures, so the comparison made
early is the one the whole openings would get. The melds are then rebuilt
from the chosen layout (how many tiles of each face lie in sets and in runs)
in one fixed way: runs as long as they can be (where fewer runs of a colour
go on, the longest stop), sets with two copies of a colour in two sets. Each
meld is held to the rulebook (`is_set`, `is_run`) before it is answered.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from okey_rules.errors import InvalidInputError
from okey_rules.rulebook import HIGH_ONE, OPENING_PAIRS, OPENING_POINTS, is_run, is_set
from okey_rules.ruleset import PRESETS, Game, Ruleset
from okey_rules.search.hand_types import Arrangement, Meld, MeldKind, Placed
from okey_rules.search.meld_reach import meld_positions, okey_positions
from okey_rules.tiles import (
    COLOURS,
    FACES,
    FALSE_JOKER_FACE,
    NUMBERS,
    TILE_OF_CODE,
    Tile,
    check_tile_multiset,
    format_tile,
    indicator_for,
)

# The thresholds to open (docs/okey101.md).
# A rack holds 21 tiles, the dealer's 22; fewer are accepted (what is left of a rack).
MAX_TILES = 22
OKEY_101 = PRESETS["101"]

# A run state per colour: (runs of length 1, of length 2, of length 3 or more).
RunState = tuple[int, int, int]
_NO_RUNS: RunState = (0, 0, 0)
# What one colour does at one number: (tiles in sets, tiles in runs (okeys
# included), okeys in runs, the colour's run state after, okeys the state
# needs next, and (tiles in sets, natural tiles in runs, okeys in runs) as
# one base-3 number: the colour's digits of a choice).
Move = tuple[int, int, int, RunState, int, int]
# The naturals of a colour at the next two positions (None: past the last).
_Ahead = tuple[int | None, int | None]
# A state of the programme: (run state per colour, okeys spent, ones kept
# back per colour for the high position); its entry: (value, tiles laid, the
# choices made at the positions searched so far). Comparing entries compares
# openings by the tie-break rule: each choice is one number whose digits are
# its parts in the rule's order (see `_choice`), and the choices are the
# digits of one number in base _CHOICES, the first position the most
# significant, so that comparing two (every state has searched the same
# positions) compares them position by position, and a choice is added by
# one multiplication, not a copy of all before it.
_State = tuple[tuple[RunState, ...], int, tuple[int, ...]]
_Entry = tuple[int, int, int]
# More okeys than exist: a run that can never be finished.
_NEVER = 99
# The positions decided in turn: 1 to 13, then the 1 played high where 12-13-1 is a run.
_POSITIONS = tuple(range(1, NUMBERS + 1))
_POSITIONS_WRAP = (*_POSITIONS, HIGH_ONE)
# Where each colour's faces start (colour * 13).
_COLOUR_BASES = tuple(colour * NUMBERS for colour in range(COLOURS))
# One more than the largest choice at a position: 13 base-3 digits.
_CHOICES = 3 ** (3 * COLOURS + 1)
# Tiles of one number laid in sets: valid with no tile, 3 or 4 of different
# colours, or 6 to 10 (two or three sets: no colour has more than two copies).
_SET_TOTALS_ONE_EACH = frozenset({0, 3, 4, 6, 7, 8, 9, 10})
_SET_TOTALS_WITH_TWO = frozenset({6, 7, 8, 9, 10})


@dataclass(frozen=True, slots=True)
class MeldOpening:
    """The most valuable melds a rack can lay (docs/okey101.md)."""

    arrangement: Arrangement  # sets and runs, in canonical order (possibly none)
    value: int  # the points they are worth
    opens: bool  # value >= 101
    okeys_used: int
    unused: tuple[Tile, ...]  # the tiles left on the rack, in tile order


@dataclass(frozen=True, slots=True)
class PairsOpening:
    """The most pairs a rack holds (docs/okey101.md)."""

    arrangement: Arrangement  # the pairs, in face order
    count: int
    opens: bool  # count >= 5


def check_rack(tiles: Sequence[Tile], okey: Tile, rules: Ruleset) -> None:
    """Raises `InvalidInputError` for a rack no Okey 101 table can deal or an other game.

    1-22 tiles that can exist together: two copies of a face at most, two
    false jokers at most, and one copy of the indicator's face (the other is
    face up on the table; docs/rules.md §2.4) unless the indicator may be drawn.
    """
    if rules.game is not Game.OKEY_101:
        raise InvalidInputError(
            "ruleset.game", "openings are a rule of Okey 101: ask with the 101 preset"
        )
    if okey.is_false_joker:
        raise InvalidInputError("okey", "a false joker cannot be the okey")
    if not 1 <= len(tiles) <= MAX_TILES:
        raise InvalidInputError(
            "tiles", f"a rack has 1 to {MAX_TILES} tiles (21, the dealer 22), not {len(tiles)}"
        )
    check_tile_multiset(tiles)
    shown = indicator_for(okey)
    if not rules.indicator_drawable_last and [t.face for t in tiles].count(shown.face) > 1:
        raise InvalidInputError(
            "tiles",
            f"the rack holds both {format_tile(shown)} tiles, but one is the face-up"
            f" indicator (okey {format_tile(okey)})",
        )


# A rack as `_played` reads it.
_Played = tuple[list[int], int, list[int]]


def _played(tiles: Sequence[Tile], okey_face: int) -> _Played:
    """(naturals per played face 0..51, okeys, numbers held per colour as bits).

    A false joker plays as the okey's face. Bit n - 1 of a colour's mask is
    set where the rack holds its n.
    """
    counts = [0] * (FACES - 1)
    held = [0] * COLOURS
    wilds = 0
    for tile in tiles:
        face = tile.face
        if face == okey_face:
            wilds += 1
            continue
        if face == FALSE_JOKER_FACE:
            face = okey_face
        counts[face] += 1
        held[face // NUMBERS] |= 1 << face % NUMBERS
    return counts, wilds, held


def best_openings(
    tiles: Sequence[Tile], okey: Tile, rules: Ruleset = OKEY_101
) -> tuple[MeldOpening, PairsOpening]:
    """Both ways to open, the rack checked once: `best_opening` and `best_pairs_opening`."""
    check_rack(tiles, okey, rules)
    played = _played(tiles, okey.face)  # both read the rack the same way: once
    return _melds_opening(tiles, okey, rules, played), _pairs_opening(okey, rules, played)


# --- the melds -----------------------------------------------------------------


def best_opening(tiles: Sequence[Tile], okey: Tile, rules: Ruleset = OKEY_101) -> MeldOpening:
    """The sets and runs of highest value among `tiles`, and whether they open (>= 101).

    Several openings may be worth the most. The answer is then, in order:
    the one that uses fewer okeys; then the one that lays more tiles; then,
    going up the numbers from 1 (the 1 played high after 13 last), at the
    first number where the two lay its tiles differently: for each colour
    in the order red, yellow, blue, black, more of its tiles in sets, then
    more of its (natural) tiles in runs, then more okeys standing for it in
    runs; and last more okeys in that number's sets. The answer therefore
    depends only on which tiles the rack holds, never on their order.
    """
    check_rack(tiles, okey, rules)
    return _melds_opening(tiles, okey, rules, _played(tiles, okey.face))


def _melds_opening(
    tiles: Sequence[Tile], okey: Tile, rules: Ruleset, played: _Played
) -> MeldOpening:
    okey_face = okey.face
    counts, wilds, held = played
    wrap = rules.runs_13_to_1
    reach = meld_positions(held, wilds, wrap)
    if not any(reach):
        # No natural fits in any meld (and okeys alone make none): nothing to lay.
        return MeldOpening(Arrangement(()), 0, False, 0, _unused(tiles, [0] * FACES, 0, okey_face))
    positions = _POSITIONS_WRAP if wrap else _POSITIONS
    layout = [
        (index, _choice(number))
        for index, number in _best_layout(_laid_counts(counts, reach), wilds, positions, reach)
        if number
    ]
    melds = _melds_of(layout, positions)
    arrangement, used_copies, okeys_used = _placed(melds, okey_face)
    for meld in arrangement.melds:
        laid = [placed.tile for placed in meld.tiles]
        valid = is_set(laid, okey) if meld.kind is MeldKind.SET else is_run(laid, okey, wrap)
        if not valid:
            raise AssertionError(f"engine error: {meld.notation()} is no {meld.kind.value}")
    value = sum(placed.stands_for.number for meld in arrangement.melds for placed in meld.tiles)
    unused = _unused(tiles, used_copies, okeys_used, okey_face)
    return MeldOpening(arrangement, value, value >= OPENING_POINTS, okeys_used, unused)


def _laid_counts(counts: list[int], reach: tuple[int, ...]) -> list[int]:
    """`counts` without the naturals no meld can hold (a 1 counts if it fits low or high).

    No opening lays them, so the search answers the same without them, and
    the fewer tiles it weighs, the fewer ways it keeps open.
    """
    laid = [0] * len(counts)
    for colour, positions in enumerate(reach):
        # A 1 that fits only high is still taken up at position 1 (and kept back there).
        left = positions | (positions >> NUMBERS & 1)
        base = colour * NUMBERS
        while left:
            low = left & -left
            number = low.bit_length() - 1
            if number < NUMBERS:
                laid[base + number] = counts[base + number]
            left ^= low
    return laid


def _best_layout(
    counts: list[int], wilds: int, positions: tuple[int, ...], reach: tuple[int, ...]
) -> list[tuple[int, int]]:
    """(index in `positions`, choice) of the best opening, at the positions a meld can reach.

    `_choice` reads a choice. The positions no meld can reach lay nothing in
    any opening (see `okey_positions`), so they are not searched: between
    two reached positions, every run stops, and only the states whose runs
    may stop there go on (`_stopped`).
    """
    wrap = positions[-1] == HIGH_ONE
    last = len(positions)
    live = okey_positions(reach, wilds, wrap)
    high_live = wrap and bool(live >> NUMBERS & 1)
    if high_live:
        live |= 1  # the ones played high are kept back at position 1
    states: dict[_State, _Entry] = {((_NO_RUNS,) * COLOURS, 0, (0,) * COLOURS): (0, 0, 0)}
    searched: list[int] = []
    previous = -1
    while live:
        low = live & -live
        index = low.bit_length() - 1
        live ^= low
        if index != previous + 1 and previous >= 0:
            states = _stopped(states)
        previous = index
        searched.append(index)
        position = positions[index]
        high = position == HIGH_ONE
        points = 1 if high else position
        # Ones are kept back at position 1 only for a high position some meld can reach.
        keep_ones = high_live and position == 1
        number = index % NUMBERS
        here = [
            counts[number],
            counts[number + NUMBERS],
            counts[number + 2 * NUMBERS],
            counts[number + 3 * NUMBERS],
        ]
        # A set holds three colours or more: those held here, okeys for the others.
        colours_here = 0 if high else 4 - here.count(0)
        reached: dict[_State, _Entry] = {}
        # What a state with no okey left needs here, except where ones are kept or laid high.
        plain = None if high or keep_ones else (counts, index, last, colours_here >= 3, points)
        if not wilds and plain:
            # No okeys at all (most dealt racks): every state steps without them.
            for key, entry in states.items():
                _step_without_okeys(key, entry, here, plain, reached)
            states = reached
            continue
        # Naturals per colour at the next two positions (None: past the last).
        ahead: list[_Ahead] = [
            (
                counts[base + (index + 1) % NUMBERS] if index + 1 < last else None,
                counts[base + (index + 2) % NUMBERS] if index + 2 < last else None,
            )
            for base in _COLOUR_BASES
        ]
        # (sets possible, ones kept back) for a state with no okey left, one, two.
        options = [(colours_here + left >= 3, keep_ones) for left in range(wilds + 1)]
        for key, entry in states.items():
            runs, spent, kept = key
            left = wilds - spent
            if not left and plain:
                _step_without_okeys(key, entry, here, plain, reached)
                continue
            per_colour: list[tuple[tuple[Move, int], ...]] = []
            for c in range(COLOURS):
                runs_c = runs[c]
                if high:
                    # Only the ones kept back at position 1, and every one of them.
                    moves = _high_moves(runs_c, kept[c], left, ahead[c])
                else:
                    moves = _moves(runs_c, here[c], left, ahead[c], options[left])
                if not moves:
                    break
                per_colour.append(moves)
            else:
                _combine(
                    per_colour, reached, left=left, spent=spent,
                    kept=None if keep_ones else kept, points=points, entry=entry,
                )
        states = reached
    if previous != last - 1:
        states = _stopped(states)
    # Every run still open has three tiles or more (the moves saw to it).
    best = max(states, key=lambda k: (states[k][0], -k[1], states[k][1], states[k][2]))
    choices = states[best][2]
    layout = []
    for index in reversed(searched):
        choices, choice = divmod(choices, _CHOICES)
        layout.append((index, choice))
    return layout[::-1]


def _stopped(states: dict[_State, _Entry]) -> dict[_State, _Entry]:
    """The states after a position where nothing is laid: every run stops there.

    A run of one or two tiles cannot stop, so its state ends; runs of three
    and more end where they are. Each state keeps its best way (see `_combine`).
    """
    out: dict[_State, _Entry] = {}
    closed = (_NO_RUNS,) * COLOURS
    for (runs, spent, kept), entry in states.items():
        if any(ones or twos for ones, twos, _ in runs):
            continue
        key = (closed, spent, kept)
        known = out.get(key)
        if known is None or entry > known:
            out[key] = entry
    return out


def _combine(
    per_colour: list[tuple[tuple[Move, int], ...]],
    reached: dict[_State, _Entry],
    *,
    left: int,
    spent: int,
    kept: tuple[int, ...] | None,
    points: int,
    entry: _Entry,
) -> None:
    """Every way the four colours' moves go together at one position, into `reached`.

    From a state with `left` okeys unspent (`spent` spent) and its `entry`;
    each tile laid here is worth `points`. `kept` is None at position 1 when
    ones are kept back for the high position: each move then says how many
    (the second item of its pair).
    """
    value, laid, choices = entry
    moves_r, moves_y, moves_b, moves_k = per_colour
    # Sums over the colours so far, level by level: okeys in runs, okeys the
    # runs need next, tiles in sets, tiles in runs, whether a colour has two
    # tiles in sets, and the choice's digits.
    for move_r, keep_r in moves_r:
        sets_r, runs_r, okeys_r, after_r, need_r, digits_r = move_r
        if okeys_r + need_r > left:
            break  # the moves come cheapest in okeys first
        two_r = sets_r == 2
        for move_y, keep_y in moves_y:
            sets_y, runs_y, okeys_y, after_y, need_y, digits_y = move_y
            okeys_ry = okeys_r + okeys_y
            need_ry = need_r + need_y
            if okeys_ry + need_ry > left:
                break
            sets_ry = sets_r + sets_y
            runs_ry = runs_r + runs_y
            two_ry = two_r or sets_y == 2
            digits_ry = digits_r * 27 + digits_y
            for move_b, keep_b in moves_b:
                sets_b, runs_b, okeys_b, after_b, need_b, digits_b = move_b
                okeys_ryb = okeys_ry + okeys_b
                need_ryb = need_ry + need_b
                if okeys_ryb + need_ryb > left:
                    break
                sets_ryb = sets_ry + sets_b
                runs_ryb = runs_ry + runs_b
                two_ryb = two_ry or sets_b == 2
                digits_ryb = digits_ry * 27 + digits_b
                for move_k, keep_k in moves_k:
                    sets_k, runs_k, okeys_k, after_k, need_k, digits_k = move_k
                    okeys = okeys_ryb + okeys_k
                    spare = left - okeys - need_ryb - need_k  # okeys free for sets
                    if spare < 0:
                        break
                    in_sets = sets_ryb + sets_k
                    totals = (
                        _SET_TOTALS_WITH_TWO
                        if two_ryb or sets_k == 2
                        else _SET_TOTALS_ONE_EACH
                    )
                    count = in_sets + runs_ryb + runs_k
                    runs = (after_r, after_y, after_b, after_k)
                    now_kept = kept if kept is not None else (keep_r, keep_y, keep_b, keep_k)
                    digits = (digits_ryb * 27 + digits_k) * 3
                    for set_okeys in range(spare + 1):
                        if in_sets + set_okeys not in totals:
                            continue
                        key = (runs, spent + okeys + set_okeys, now_kept)
                        after = (
                            value + points * (count + set_okeys),
                            laid + count + set_okeys,
                            choices * _CHOICES + digits + set_okeys,
                        )
                        known = reached.get(key)
                        if known is None or after > known:
                            reached[key] = after


# Without okeys, one way a colour's runs go on at a position: (its run state
# after, its naturals in runs, its naturals left (for sets, where sets are
# possible), its naturals in runs as the choice's digit).
_Plain = tuple[RunState, int, int, int]
_PLAIN_IDLE: tuple[_Plain, ...] = ((_NO_RUNS, 0, 0, 0),)


def _step_without_okeys(
    state: _State,
    entry: _Entry,
    here: list[int],
    position: tuple[list[int], int, int, bool, int],
    reached: dict[_State, _Entry],
) -> None:
    """`_combine` for a state with no okey left (not at position 1 where ones are kept back,
    nor at the high position): the same states reached, with the same best entries.

    `here`: the naturals per colour at this position; `position`: the
    naturals per played face, this position's index, how many positions
    there are, whether sets are possible here, and the points a tile laid
    here is worth. With no okey left, the colours' run states after this
    position say how many naturals each lays in runs; what is left of each
    colour may go in sets, and which of it does changes no state, only the
    value and the choice. So each way the runs go on needs one allocation to
    sets: the best (`_best_sets`), not every one.
    """
    runs, spent, kept = state
    counts, index, last, sets_possible, points = position
    per_colour = []
    for colour in range(COLOURS):
        runs_c = runs[colour]
        avail = here[colour]
        if not avail:
            if runs_c[0] or runs_c[1]:
                return  # a run of one or two tiles cannot stop here
            per_colour.append(_PLAIN_IDLE)
            continue
        base = colour * NUMBERS
        # The naturals at the next two positions (-1: past the last).
        next_1 = counts[base + (index + 1) % NUMBERS] if index + 1 < last else -1
        next_2 = counts[base + (index + 2) % NUMBERS] if index + 2 < last else -1
        ways = _plain_ways(colour, runs_c, avail, next_1, next_2)
        if not ways:
            return
        per_colour.append(ways)
    value, laid, choices = entry
    choices *= _CHOICES
    ways_r, ways_y, ways_b, ways_k = per_colour
    for after_r, runs_r, free_r, digits_r in ways_r:
        for after_y, runs_y, free_y, digits_y in ways_y:
            for after_b, runs_b, free_b, digits_b in ways_b:
                for after_k, runs_k, free_k, digits_k in ways_k:
                    count = runs_r + runs_y + runs_b + runs_k
                    digits = digits_r + digits_y + digits_b + digits_k
                    if sets_possible:
                        in_sets, set_digits = _best_sets((free_r, free_y, free_b, free_k))
                        count += in_sets
                        digits += set_digits
                    key = ((after_r, after_y, after_b, after_k), spent, kept)
                    after = (value + points * count, laid + count, choices + digits)
                    known = reached.get(key)
                    if known is None or after > known:
                        reached[key] = after


@cache
def _plain_ways(
    colour: int, runs: RunState, avail: int, next_1: int, next_2: int
) -> tuple[_Plain, ...]:
    """Every way one colour's runs may go on without okeys (`_moves` with none left).

    `next_1`, `next_2`: its naturals at the next two positions (-1: past the
    last). Each way carries its naturals in runs as the choice's digit
    (`_choice`), and how many of its naturals are left for sets.
    """
    ahead = (None if next_1 < 0 else next_1, None if next_2 < 0 else next_2)
    place = 3 * 27 ** (COLOURS - 1 - colour) * 3  # natural tiles in runs, this colour
    ways = []
    for naturals in range(avail + 1):
        after = _continue(runs, naturals)
        if after is not None and not _okeys_needed(after, ahead):
            ways.append((after, naturals, avail - naturals, naturals * place))
    return tuple(ways)


@cache  # at most 3**4 keys
def _best_sets(free: tuple[int, int, int, int]) -> tuple[int, int]:
    """Naturals in sets, with no okey: (how many, their digits in the choice (`_choice`)).

    `free`: per colour, how many of its naturals may go in sets. Of the
    allocations that make sets (`_SET_TOTALS_*`), the one laying the most
    tiles; among those, more red, then yellow, blue and black (the order
    `best_opening` breaks ties in, the runs being the same).
    """
    best = (0, 0, 0, 0)
    best_key = (0, best)
    for r in range(free[0] + 1):
        for y in range(free[1] + 1):
            for b in range(free[2] + 1):
                for k in range(free[3] + 1):
                    total = r + y + b + k
                    totals = (
                        _SET_TOTALS_WITH_TWO if 2 in (r, y, b, k) else _SET_TOTALS_ONE_EACH
                    )
                    if total in totals and (total, (r, y, b, k)) > best_key:
                        best = (r, y, b, k)
                        best_key = (total, best)
    digits = sum(
        sets * 9 * 27 ** (COLOURS - 1 - colour) * 3 for colour, sets in enumerate(best)
    )
    return sum(best), digits


@cache  # small ints only: a few thousand entries at most
def _moves(
    runs: RunState, avail: int, left: int, ahead: _Ahead, options: tuple[bool, bool]
) -> tuple[tuple[Move, int], ...]:
    """What one colour may do at a number: every move that can still finish its runs.

    `avail` natural tiles of the colour and number, `left` okeys unspent,
    `ahead` the naturals at the next two positions (None past the last).
    `options`: (may tiles go in sets here, may ones be kept back). Ones are
    kept back at position 1 where 12-13-1 runs are played, for the high
    position; the pair's second item says how many.
    """
    sets_possible, keep_ones = options
    out = []
    for keep in range(avail + 1 if keep_ones else 1):
        for in_sets in range(avail - keep + 1 if sets_possible else 1):
            for naturals in range(avail - keep - in_sets + 1):
                for okeys in range(left + 1):
                    after = _continue(runs, naturals + okeys)
                    if after is None:
                        continue
                    need = _okeys_needed(after, ahead)
                    if okeys + need <= left:
                        digits = in_sets * 9 + naturals * 3 + okeys
                        move = (in_sets, naturals + okeys, okeys, after, need, digits)
                        out.append((move, keep))
    return _cheapest_first(out)


@cache
def _high_moves(
    runs: RunState, kept: int, left: int, ahead: _Ahead
) -> tuple[tuple[Move, int], ...]:
    """The high position (the 1 after 13): the kept ones go on runs, okeys may too."""
    out = []
    for okeys in range(left + 1):
        after = _continue(runs, kept + okeys)
        if after is None:
            continue
        need = _okeys_needed(after, ahead)
        if okeys + need <= left:
            out.append(((0, kept + okeys, okeys, after, need, kept * 3 + okeys), 0))
    return _cheapest_first(out)


def _cheapest_first(moves: list[tuple[Move, int]]) -> tuple[tuple[Move, int], ...]:
    """Moves by the okeys they spend now and need next, fewest first (stable otherwise).

    `_combine` then stops a colour's moves at the first that the okeys left
    cannot pay for.
    """
    return tuple(sorted(moves, key=lambda move: move[0][2] + move[0][4]))


@cache
def _continue(runs: RunState, tiles: int) -> RunState | None:
    """A colour's runs after `tiles` of its tiles at a number go into runs (None: cannot).

    Runs of one or two tiles must go on; of the rest, the tiles continue runs
    first and only start new ones when every open run goes on (a run is
    never cut where it could go on: cutting never helps a later number).
    """
    ones, twos, longer = runs
    if tiles < ones + twos:
        return None
    open_runs = ones + twos + longer
    if tiles <= open_runs:
        return (0, ones, twos + tiles - ones - twos)
    return (tiles - open_runs, ones, twos + longer)


@cache
def _okeys_needed(runs: RunState, ahead: _Ahead) -> int:
    """At least how many okeys the next two positions need for these runs to reach three."""
    ones, twos, _ = runs
    a1, a2 = ahead
    need = 0
    if ones + twos:
        if a1 is None:
            return _NEVER
        need += max(0, ones + twos - a1)
    if ones:
        if a2 is None:
            return _NEVER
        need += max(0, ones - a2)
    return need


_NOTHING = (0,) * (3 * COLOURS + 1)


@lru_cache(maxsize=4096)  # a few hundred kinds of choices come up; each is read often
def _choice(number: int) -> tuple[int, ...]:
    """A position's choice as `_combine` writes it, read back.

    (tiles in sets, natural tiles in runs, okeys in runs) for red, yellow,
    blue and black, then okeys in sets: the order of the tie-break rule, each
    part a base-3 digit (none is more than 2), so comparing the numbers
    compares the parts in that order.
    """
    if not number:
        return _NOTHING  # most numbers lay nothing
    digits = []
    for _ in range(3 * COLOURS + 1):
        number, digit = divmod(number, 3)
        digits.append(digit)
    return tuple(digits[::-1])


_SET_OKEYS = 3 * COLOURS


# A meld while it is rebuilt: its kind and its tiles as (face played, okey?).
_Slots = list[tuple[int, bool]]


# The choices of an opening at the positions where it lays something: (index
# in the positions, choice), in position order; it lays nothing elsewhere.
_Layout = list[tuple[int, tuple[int, ...]]]


def _melds_of(layout: _Layout, positions: tuple[int, ...]) -> list[tuple[MeldKind, _Slots]]:
    """The melds of a layout, rebuilt in one fixed way (see the module's docstring)."""
    melds: list[tuple[MeldKind, _Slots]] = []
    run_colours: set[int] = set()
    for index, choice in layout:
        in_sets = choice[0:_SET_OKEYS:3]  # per colour
        if (any(in_sets) or choice[_SET_OKEYS]) and positions[index] != HIGH_ONE:
            sets = _sets_of(positions[index], in_sets, choice[_SET_OKEYS])
            melds += [(MeldKind.SET, slots) for slots in sets]
        for colour in range(COLOURS):
            if choice[3 * colour + 1] or choice[3 * colour + 2]:
                run_colours.add(colour)
    for colour in sorted(run_colours):
        melds += [(MeldKind.RUN, run) for run in _runs_of(colour, layout, positions)]
    return melds


def _sets_of(number: int, in_sets: Sequence[int], okeys: int) -> list[_Slots]:
    """The sets of one number: copies of a colour in different sets, okeys filling up.

    The tiles (3 to 10) make one, two or three sets of 3 or 4; the first
    sets are the larger. The colours' tiles are dealt round the sets in
    colour order, so the two copies of a colour land in two sets, and each
    okey stands for the first colour its set lacks.
    """
    total = sum(in_sets) + okeys
    if not total:
        return []
    count = -(-total // 4)  # 3-4: one set, 6-8: two, 9-10: three
    sizes = [3 + (i < total - 3 * count) for i in range(count)]
    colours_in: list[list[int]] = [[] for _ in range(count)]
    turn = 0
    for colour, copies in enumerate(in_sets):
        for _ in range(copies):
            colours_in[turn % count].append(colour)
            turn += 1
    sets = []
    for size, colours in zip(sizes, colours_in, strict=True):
        missing = [c for c in range(COLOURS) if c not in colours]
        okeys_here = missing[: size - len(colours)]
        played = sorted([(c, False) for c in colours] + [(c, True) for c in okeys_here])
        sets.append([(c * NUMBERS + number - 1, wild) for c, wild in played])
    return sets


def _runs_of(colour: int, layout: _Layout, positions: tuple[int, ...]) -> list[_Slots]:
    """The runs of one colour: as long as they can be; where fewer go on, the longest stop.

    At each position, natural tiles go to the longest open runs first, okeys
    to the rest; every run stops at a position where nothing is laid. A run
    from 1 to the high 1 (fourteen tiles) is cut after 11: no run holds the
    1 twice.
    """
    finished: list[_Slots] = []
    open_runs: list[_Slots] = []  # oldest (longest) first
    previous = -1
    digit = 3 * colour + 1  # natural tiles in runs; okeys in runs next
    for index, choice in layout:
        naturals = choice[digit]
        tiles = naturals + choice[digit + 1]
        if index != previous + 1:
            # A position between laid nothing: every run stopped there.
            finished += open_runs
            open_runs = []
        previous = index
        if tiles < len(open_runs):
            finished += open_runs[: len(open_runs) - tiles]
            open_runs = open_runs[len(open_runs) - tiles :]
        if not tiles:
            continue
        while len(open_runs) < tiles:
            open_runs.append([])
        face = colour * NUMBERS + (positions[index] - 1) % NUMBERS
        for place, run in enumerate(open_runs):
            run.append((face, place >= naturals))
    finished += open_runs
    runs = []
    for run in finished:
        if len(run) > NUMBERS:
            runs += [run[: NUMBERS - 2], run[NUMBERS - 2 :]]
        else:
            runs.append(run)
    return runs


def _placed(
    melds: list[tuple[MeldKind, _Slots]], okey_face: int
) -> tuple[Arrangement, list[int], int]:
    """The melds with the rack's tiles in them, in canonical order.

    Melds are ordered by the faces they stand for. Copies are canonical: a
    face's first use is copy 0, its second copy 1; a natural playing as the
    okey's face is a false joker; okeys are numbered in the order placed.
    Also returns how many copies of each physical face were laid, and okeys.
    """
    melds.sort(key=lambda meld: [face for face, _ in meld[1]])
    used = [0] * FACES
    okeys = 0
    built = []
    for kind, slots in melds:
        tiles = []
        for face, wild in slots:
            stands_for = TILE_OF_CODE[face]
            if wild:
                tiles.append(Placed(TILE_OF_CODE[okey_face + FACES * okeys], stands_for, True))
                okeys += 1
                continue
            physical = FALSE_JOKER_FACE if face == okey_face else face
            tiles.append(Placed(TILE_OF_CODE[physical + FACES * used[physical]], stands_for))
            used[physical] += 1
        built.append(Meld(kind, tuple(tiles)))
    return Arrangement(tuple(built)), used, okeys


def _unused(
    tiles: Sequence[Tile], used: list[int], okeys_used: int, okey_face: int
) -> tuple[Tile, ...]:
    """The tiles left on the rack in tile order, copies after the ones laid."""
    left = []
    face_before = -1
    copy = 0
    for face in sorted([tile.face for tile in tiles]):
        copy = copy + 1 if face == face_before else 0
        face_before = face
        if copy >= (okeys_used if face == okey_face else used[face]):
            left.append(TILE_OF_CODE[face + FACES * copy])
    return tuple(left)


# --- the pairs -----------------------------------------------------------------


def best_pairs_opening(
    tiles: Sequence[Tile], okey: Tile, rules: Ruleset = OKEY_101
) -> PairsOpening:
    """The most pairs among `tiles`, and whether they open (>= 5).

    A pair is two tiles of one face (a false joker plays as the okey's
    face), or an okey with a tile whose face is held once: as in seven pairs
    (docs/rules.md §4.2), an okey never pairs with a face already paired, so
    no two pairs show one face. The two okeys may pair with each other where
    `wild_pairs` allows. Okeys pair first with the lowest single tiles (tile
    order); two okeys left over pair together, showing the okey's own face
    when no other pair shows it, else the lowest face no pair shows.
    """
    check_rack(tiles, okey, rules)
    return _pairs_opening(okey, rules, _played(tiles, okey.face))


def _pairs_opening(okey: Tile, rules: Ruleset, played: _Played) -> PairsOpening:
    okey_face = okey.face
    counts, wilds, _ = played
    # (face shown, okeys in it): the faces held twice, in face order.
    pairs = [(face, 0) for face, held in enumerate(counts) if held == 2]
    okeys = wilds
    if okeys:
        # The okeys go with the lowest faces held once.
        for face, held in enumerate(counts):
            if held == 1 and okeys:
                pairs.append((face, 1))
                okeys -= 1
        pairs.sort()
    if okeys == 2 and rules.wild_pairs:
        # Every single has an okey already, so the faces shown are the pairs'.
        shown = {face for face, _ in pairs}
        free = okey_face if okey_face not in shown else min(set(range(FACES - 1)) - shown)
        pairs.append((free, 2))
        pairs.sort()
    melds = []
    used = 0
    for face, with_okeys in pairs:
        physical = FALSE_JOKER_FACE if face == okey_face else face
        placed = []
        for copy in range(2):
            if copy < 2 - with_okeys:
                placed.append(Placed(TILE_OF_CODE[physical + FACES * copy], TILE_OF_CODE[face]))
            else:
                okey_tile = TILE_OF_CODE[okey_face + FACES * used]
                placed.append(Placed(okey_tile, TILE_OF_CODE[face], True))
                used += 1
        melds.append(Meld(MeldKind.PAIR, tuple(placed)))
    return PairsOpening(Arrangement(tuple(melds)), len(melds), len(melds) >= OPENING_PAIRS)
