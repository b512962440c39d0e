"""Okey 101 rounds for the engine tests (docs/rules.md §10): dealt starts, positions
arranged from notation, tile accounting and the moves tests play.

`arranged` builds a position from notation (racks, the bank's front, the
indicator, melds on the table, discard piles) and places every other tile
of the 106 somewhere too, so each tile is in exactly one place. In table
melds ``K1=R6`` is the tile K1 (an okey, with the default indicator K13)
standing for R6. A face written twice anywhere in one position is its two
copies; a third is an error.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace

from okey_rules.dealing.deal import deal
from okey_rules.play.game101 import apply_move_101, start_round_101
from okey_rules.play.game101_types import Laid, Result101, Seat101, State101, TableMeld
from okey_rules.play.round_types import EventKind, Move, MoveKind, Opened, Penalty, Phase, RoundEnd
from okey_rules.rulebook import is_wild, plays_as, table_meld_kind
from okey_rules.ruleset import Game, Ruleset
from okey_rules.search.hand_types import MeldKind
from okey_rules.tiles import FACES, TILE_COUNT, TILE_OF_CODE, format_tile, okey_for, parse_tile

RULES_101 = Ruleset(game=Game.OKEY_101)
PLAYERS = 4
DEALER_RACK, OTHER_RACK = 22, 21
# The default indicator K13 makes K1 the okey: tests keep K1 out of the way unless
# they mean the okey, and a false joker plays as K1.
DEFAULT_INDICATOR = "K13"
# A move number well into the round for arranged positions (nothing depends on its value
# except the one-turn finish, which compares it with the move of the opening).
ARRANGED_MOVE = 20
# What an opened seat holds when a test does not say.
OPENED_SPARE_RACK = 10

Groups = tuple[tuple[tuple[int, int | None], ...], ...]


def face_of(text: str) -> int:
    return parse_tile(text).face


def start101(seed: str = "okey 101", dealer: int = 0) -> State101:
    return start_round_101(deal(RULES_101, PLAYERS, dealer, seed=seed))


class _Copies:
    """Hands out physical tiles for notation: a face's first mention is copy 0, its second
    copy 1, across the whole position."""

    def __init__(self) -> None:
        self.used: Counter[int] = Counter()

    def take(self, word: str) -> int:
        face = parse_tile(word).face
        copy = self.used[face]
        assert copy < 2, f"{word} is asked for a third time: the set has two"
        self.used[face] += 1
        return face + copy * FACES

    def many(self, text: str) -> list[int]:
        return [self.take(word) for word in text.replace(",", " ").split()]


def _table_meld(owner: int, text: str, copies: _Copies, okey_face: int) -> TableMeld:
    okey = TILE_OF_CODE[okey_face]
    laid = []
    for word in text.split():
        name, _, stands = word.partition("=")
        code = copies.take(name)
        natural = plays_as(TILE_OF_CODE[code], okey)
        if stands:
            assert natural is None, f"{name} is not an okey: it stands for itself"
            face = face_of(stands)
        else:
            assert natural is not None, f"say what the okey {name} stands for ({name}=R6)"
            face = natural.face
        laid.append(Laid(code, face))
    faces = [TILE_OF_CODE[t.face] for t in laid]
    kind = table_meld_kind(faces, RULES_101.runs_13_to_1)
    if kind is None and len(laid) == 2 and laid[0].face == laid[1].face:
        kind = MeldKind.PAIR
    assert kind is not None, f"{text} is no meld"
    tiles = tuple(sorted(laid, key=lambda t: t.face)) if kind is MeldKind.RUN else tuple(laid)
    return TableMeld(owner=owner, kind=kind, tiles=tiles)


def natural_rack_size(seat: int, turn: int, phase: Phase) -> int:
    """What a seat that has laid nothing holds: 21, one more on its turn once it has drawn."""
    return OTHER_RACK + (seat == turn and phase is Phase.DISCARD)


def arranged(
    racks: Mapping[int, str] | None = None,
    *,
    turn: int = 1,
    phase: Phase = Phase.DRAW,
    indicator: str = DEFAULT_INDICATOR,
    wall: str = "",
    wall_size: int | None = None,
    table: Sequence[tuple[int, str]] = (),
    discards: Mapping[int, str] | None = None,
    dealer: int = 0,
    seed: str = "arranged",
) -> State101:
    """A position on `turn`'s turn, in the DRAW phase or (PLAY) just after its draw.

    A seat with melds on the table has opened (with pairs if its melds are pairs) and
    holds exactly the rack given (10 spare tiles if none is given). Any other seat holds
    the tiles given first, then other tiles up to 21 (22 on its turn in PLAY). The bank
    starts with `wall`, then the spare tiles; with `wall_size` it holds that many and the
    rest lie under the seat on turn's discard pile (which nobody takes from during its
    turn). Spare tiles come from a real deal; okeys, false jokers and the other copies of
    faces the position names come last (deep in the bank), so a rack holds only the okeys
    and named faces written.
    """
    racks = dict(racks or {})
    discards = dict(discards or {})
    copies = _Copies()
    indicator_code = copies.take(indicator)
    okey_face = okey_for(TILE_OF_CODE[indicator_code]).face
    given = {seat: copies.many(text) for seat, text in racks.items()}
    melds = [_table_meld(owner, text, copies, okey_face) for owner, text in table]
    front = copies.many(wall)
    piles = {seat: copies.many(text) for seat, text in discards.items()}
    fixed = {indicator_code, *front}
    fixed.update(c for rack in given.values() for c in rack)
    fixed.update(t.code for meld in melds for t in meld.tiles)
    fixed.update(c for pile in piles.values() for c in pile)

    dealt = deal(RULES_101, PLAYERS, dealer, seed=seed)
    order = [*(c for rack in dealt.racks for c in rack), *dealt.wall, dealt.indicator]

    named = {code % FACES for code in fixed}

    def late(code: int) -> bool:
        # Spare okeys, false jokers and other copies of named faces go to the bank's end,
        # so a rack holds only the okeys and named faces the test wrote.
        tile = TILE_OF_CODE[code]
        return tile.is_false_joker or tile.face == okey_face or tile.face in named

    spare = [c for c in order if c not in fixed and not late(c)]
    spare += [c for c in order if c not in fixed and late(c)]
    pool = iter(spare)

    owners = {meld.owner: meld.kind for meld in melds}
    seats = []
    for seat in range(PLAYERS):
        rack = list(given.get(seat, []))
        kind = owners.get(seat)
        opened = None if kind is None else Opened.PAIRS if kind is MeldKind.PAIR else Opened.MELDS
        if opened is not None:
            if seat not in given:
                rack = [next(pool) for _ in range(OPENED_SPARE_RACK)]
        else:
            size = natural_rack_size(seat, turn, phase)
            assert len(rack) <= size, f"seat {seat} holds {size} tiles before opening"
            rack += [next(pool) for _ in range(size - len(rack))]
        seats.append(Seat101(rack=tuple(rack), discards=tuple(piles.get(seat, [])),
                             opened=opened))
    rest = list(pool)
    if wall_size is not None:
        assert len(front) <= wall_size <= len(front) + len(rest)
        keep = wall_size - len(front)
        under, rest = rest[keep:], rest[:keep]
        seats[turn] = replace(seats[turn], discards=(*under, *seats[turn].discards))
    state = State101(
        rules=RULES_101,
        dealer=dealer,
        indicator=indicator_code,
        seats=tuple(seats),
        wall=(*front, *rest),
        turn=turn,
        phase=phase,
        table=tuple(melds),
        move_number=ARRANGED_MOVE,
        turn_start=ARRANGED_MOVE - (phase is Phase.DISCARD),
    )
    assert_consistent_101(state)
    return state


def swap101(state: State101, a: int, b: int) -> State101:
    """`state` with tiles `a` and `b` trading places (racks, piles, the bank)."""

    def moved(held: Sequence[int]) -> tuple[int, ...]:
        return tuple(b if c == a else a if c == b else c for c in held)

    assert state.indicator not in (a, b), "the indicator stays where it is"
    seats = tuple(replace(s, rack=moved(s.rack), discards=moved(s.discards))
                  for s in state.seats)
    swapped = replace(state, seats=seats, wall=moved(state.wall))
    assert_consistent_101(swapped)
    return swapped


# --- reading positions -----------------------------------------------------------------------


def held(state: State101, seat: int, text: str) -> list[int]:
    """The codes of tiles with these faces in `seat`'s rack (a face written twice: both)."""
    rack = list(state.seats[seat].rack)
    found = []
    for word in text.split():
        face = face_of(word)
        code = next((c for c in rack if c % FACES == face), None)
        assert code is not None, f"seat {seat} holds no {word}"
        rack.remove(code)
        found.append(code)
    return found


def one(state: State101, seat: int, word: str) -> int:
    (code,) = held(state, seat, word)
    return code


def groups(state: State101, seat: int, *melds: str) -> Groups:
    """Meld groups for OPEN / LAY_MELD from the seat's rack: ``"R5 K1=R6 R7"`` gives the
    okey's face, a plain ``K1`` lets the engine choose it."""
    rack = list(state.seats[seat].rack)
    result = []
    for text in melds:
        group = []
        for word in text.split():
            name, _, stands = word.partition("=")
            face = face_of(name)
            code = next((c for c in rack if c % FACES == face), None)
            assert code is not None, f"seat {seat} holds no {name}"
            rack.remove(code)
            group.append((code, face_of(stands) if stands else None))
        result.append(tuple(group))
    return tuple(result)


def faces_of(meld: TableMeld) -> list[int]:
    return [t.face for t in meld.tiles]


def shown(faces: Sequence[int]) -> str:
    return " ".join(format_tile(TILE_OF_CODE[f]) for f in faces)


# --- invariants --------------------------------------------------------------------------------


def tile_places_101(state: State101) -> list[int]:
    """Every tile where the state keeps it: racks, piles, the bank, the table, the indicator."""
    places = [c for seat in state.seats for c in (*seat.rack, *seat.discards)]
    places += state.wall
    places += [t.code for meld in state.table for t in meld.tiles]
    places.append(state.indicator)
    return places


def assert_table_meld(meld: TableMeld, state: State101) -> None:
    """A table meld: naturals stand for their own faces, the faces make the meld's kind."""
    okey = state.okey
    for laid in meld.tiles:
        assert 0 <= laid.face < FACES - 1
        natural = plays_as(TILE_OF_CODE[laid.code], okey)
        if natural is not None:
            assert laid.face == natural.face, (meld, laid)
    faces = faces_of(meld)
    if meld.kind is MeldKind.PAIR:
        assert len(faces) == 2
        assert faces[0] == faces[1]
    else:
        kind = table_meld_kind([TILE_OF_CODE[f] for f in faces], state.rules.runs_13_to_1)
        assert kind is meld.kind, (shown(faces), meld.kind)
    if meld.kind is MeldKind.RUN:
        assert faces == sorted(faces), "a run lies low to high"


def assert_consistent_101(state: State101) -> None:
    """The invariants every state of an Okey 101 round keeps."""
    assert sorted(tile_places_101(state)) == list(range(TILE_COUNT)), "a tile lost or doubled"
    assert len(state.seats) == PLAYERS
    assert 0 <= state.turn < PLAYERS
    assert 0 <= state.dealer < PLAYERS
    assert (state.outcome is None) == (state.phase is not Phase.ROUND_OVER)
    assert state.turn_start <= state.move_number
    if state.phase is Phase.FIRST_DISCARD:
        assert state.move_number == 0
        assert state.turn == state.dealer
    if state.phase is Phase.DRAW:
        assert state.laid == ()
        assert state.taken is None
        assert state.took_back == 0, "a turn's take-backs are its own"
    if state.taken is not None:
        assert state.phase is Phase.DISCARD
    if state.laid:
        assert state.phase in (Phase.DISCARD, Phase.ROUND_OVER)
    for meld in state.table:
        assert 0 <= meld.owner < PLAYERS
        assert_table_meld(meld, state)
    owners: dict[int, set[MeldKind]] = {}
    for meld in state.table:
        owners.setdefault(meld.owner, set()).add(meld.kind)
    outcome = state.outcome
    finisher = outcome.winner if outcome is not None and outcome.end is RoundEnd.WON else None
    for number, seat in enumerate(state.seats):
        kinds = owners.get(number, set())
        if seat.opened is None:
            assert not kinds, f"seat {number} has melds on the table but has not opened"
            size = (DEALER_RACK if state.phase is Phase.FIRST_DISCARD and number == state.turn
                    else natural_rack_size(number, state.turn, state.phase))
            assert len(seat.rack) == size, f"seat {number} laid nothing: {size} tiles"
        else:
            assert kinds, f"seat {number} opened but owns no meld"
            if seat.opened is Opened.PAIRS:
                assert kinds == {MeldKind.PAIR}
            else:
                assert MeldKind.PAIR not in kinds
        if not (finisher is not None and number == finisher):
            assert seat.rack, f"seat {number} holds no tile"
    if outcome is not None:
        assert outcome.move_number == state.move_number
        assert outcome.end in (RoundEnd.WON, RoundEnd.DRAWN, RoundEnd.VOID)
        if outcome.end is RoundEnd.WON:
            assert outcome.winner == state.turn
            assert state.seats[outcome.winner].rack == ()
            last = state.seats[outcome.winner].discards[-1]
            assert outcome.okey_discard == is_wild(TILE_OF_CODE[last], state.okey)
        elif outcome.end is RoundEnd.DRAWN:
            assert state.wall == ()
        else:
            assert all(seat.opened is Opened.PAIRS for seat in state.seats)
    if all(seat.opened is Opened.PAIRS for seat in state.seats):
        assert outcome is not None
        assert outcome.end is RoundEnd.VOID, "four pairs-openers void the round"


# --- playing -----------------------------------------------------------------------------------


def play101(state: State101, move: Move) -> Result101:
    """Applies a move that must be legal; the state after it must be consistent."""
    result = apply_move_101(state, move)
    assert result.legal, (move, result.reason, result.message)
    assert result.state is not None
    assert result.reason is None
    assert_consistent_101(result.state)
    return result


def after(state: State101, move: Move) -> State101:
    result = play101(state, move)
    assert result.state is not None
    return result.state


def refused101(state: State101, move: Move) -> Result101:
    """Applies a move that must be illegal: no state, no events, a reason and a message."""
    result = apply_move_101(state, move)
    assert not result.legal
    assert result.state is None
    assert result.events == ()
    assert result.reason is not None
    assert result.message
    return result


def draw(state: State101) -> State101:
    return after(state, Move(MoveKind.DRAW_FROM_WALL, state.turn))


def take(state: State101) -> State101:
    return after(state, Move(MoveKind.TAKE_DISCARD, state.turn))


def discard(state: State101, code: int) -> State101:
    return after(state, Move(MoveKind.DISCARD, state.turn, code))


def open_melds(state: State101, *melds: str, pairs: bool = False) -> Move:
    return Move(MoveKind.OPEN, state.turn, melds=groups(state, state.turn, *melds),
                   pairs=pairs)


def lay_meld(state: State101, *melds: str) -> Move:
    return Move(MoveKind.LAY_MELD, state.turn, melds=groups(state, state.turn, *melds))


def lay_off(state: State101, word: str, meld: int, face: str | None = None) -> Move:
    tile = one(state, state.turn, word)
    return Move(MoveKind.LAY_OFF, state.turn, tile, meld=meld,
                   face=None if face is None else face_of(face))


def finish(state: State101, *melds: str, last: str, opening: bool = False,
           pairs: bool = False) -> State101:
    """The seat on turn (drawn: PLAY) lays `melds` (opening with them when `opening`, with
    pairs when `pairs`) and finishes by discarding `last`: the finished state."""
    seat = state.turn
    if melds:
        laying = open_melds(state, *melds, pairs=pairs) if opening else lay_meld(state, *melds)
        state = after(state, laying)
    over = discard(state, one(state, seat, last))
    assert over.outcome is not None
    assert (over.outcome.end, over.outcome.winner) == (RoundEnd.WON, seat)
    return over


# --- arranging what scoring reads (docs/rules.md §10.7) ---------------------------------------


def with_rules(state: State101, **options: object) -> State101:
    """`state` under the Okey 101 rules with these options (game_rounds, partnership,
    exhaustion_scores_tiles): what was played does not depend on them."""
    return replace(state, rules=Ruleset(game=Game.OKEY_101, **options))  # type: ignore[arg-type]


def penalised(state: State101, seat: int, *penalties: Penalty) -> State101:
    """`state` with `penalties` recorded on `seat`, as its earlier turns would have left them."""
    seats = list(state.seats)
    seats[seat] = replace(seats[seat], penalties=(*seats[seat].penalties, *penalties))
    return replace(state, seats=tuple(seats))


def penalties_in(result: Result101) -> list[Penalty]:
    """The penalties a move's events charge, each 101 points."""
    found = []
    for event in result.events:
        if event.kind is EventKind.PENALTY:
            assert event.points == 101
            assert event.penalty is not None
            found.append(event.penalty)
    return found


def event_kinds(result: Result101) -> list[EventKind]:
    return [event.kind for event in result.events]
