"""Derives the Deal conformance vectors (tests/conformance/deal_*.json) from docs/dealing.md alone.

This is a second, independent implementation of the documented shuffle and
deal procedures, written from the text of docs/dealing.md (and the field
comments of proto/okey/v1/deal.proto) as a client in another language would
write it. It deliberately imports nothing from okey_rules or okey_server: the
vectors it produces must not be the server's own output played back.

    python scripts/derive_deal_vectors.py                 # print {file name: file} as JSON
    python scripts/derive_deal_vectors.py --write DIR     # write DIR/deal_*.json
    python scripts/derive_deal_vectors.py --search        # how the special seeds were found

tests/unit/test_deal_vectors_wellformed.py imports this file by path and
re-derives every non-error vector from its request, so the vectors and the
documented algorithm cannot drift apart silently.

What depends on the server's signing key is never pinned: a seeded deal's
keyed id (`dealId`, `status.seededDealId`), the sealed opening state, and a
committed deal's secret deal id and commitment (new at every CommitSeed). A
seeded deal pins its kind (`status.dealKind`) and that it has no commitment
instead; a committed deal is reached through `given_commitment` (CommitSeed,
then Deal under the deal id it answers) and pins what the commitment binds;
a stacked deal (DealRequest.stacked) pins the position it was given.
"""

from __future__ import annotations

import base64
import hashlib
import json
import struct
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from vector_tools import run_cli

# docs/dealing.md, "The random stream", step 1.
DOMAIN = b"okey-rules/v1/shuffle\x00"
TILE_COUNT = 106
FALSE_JOKER_FACE = 52
COLOR_LETTERS = "RYBK"
COLOR_ENUMS = ("COLOR_RED", "COLOR_YELLOW", "COLOR_BLUE", "COLOR_BLACK")
SEATS_101 = 4
STACK_COUNT = 21
STACK_SIZE = 5
LETTERS = "abcdefghijklmnopqrst"  # the 20 stacks after the indicator stack


# --- the random stream and the shuffle (docs/dealing.md) -------------------


class Stream:
    """The counter-mode SHA-256 word stream of one seed, consumed word by word."""

    def __init__(self, seed: str) -> None:
        self._seed = seed.encode("utf-8")  # byte for byte, no normalisation
        self._block = 0
        self._words: list[int] = []

    def word(self) -> int:
        if not self._words:
            digest = hashlib.sha256(DOMAIN + self._seed + struct.pack(">Q", self._block)).digest()
            self._words = list(struct.unpack(">8I", digest))
            self._block += 1
        return self._words.pop(0)

    def below(self, n: int) -> int:
        # Rejection sampling: words at or above the largest multiple of n are discarded.
        limit = 2**32 - (2**32 % n)
        while True:
            w = self.word()
            if w < limit:
                return w % n

    def die(self) -> int:
        return self.below(6) + 1


def shuffle(stream: Stream) -> list[int]:
    """Fisher-Yates over the codes 0..105, i from 105 down to 1."""
    a = list(range(TILE_COUNT))
    for i in range(TILE_COUNT - 1, 0, -1):
        j = stream.below(i + 1)
        a[i], a[j] = a[j], a[i]
    return a


def mixed_seed(seed: str, client_seeds: list[str]) -> str:
    """docs/dealing.md, "Client seeds": hex SHA-256 of the label and the length-prefixed seeds."""
    data = b"okey.v1.client-seeds\x00"
    for text in [seed, *client_seeds]:
        raw = text.encode("utf-8")
        data += struct.pack(">I", len(raw)) + raw
    return hashlib.sha256(data).hexdigest()


# --- tiles ------------------------------------------------------------------


def is_false_joker(code: int) -> bool:
    return code % 53 == FALSE_JOKER_FACE


def notation(code: int) -> str:
    face = code % 53
    if face == FALSE_JOKER_FACE:
        return "F"
    return f"{COLOR_LETTERS[face // 13]}{face % 13 + 1}"


def sort_key(code: int) -> tuple[int, int]:
    """Rack notation order: colour R, Y, B, K, then number; false jokers last."""
    face = code % 53
    return (99, 0) if face == FALSE_JOKER_FACE else (face // 13, face % 13)


def rack_notation(codes: list[int]) -> str:
    return " ".join(notation(c) for c in sorted(codes, key=sort_key))


def tile_json(code: int) -> dict[str, Any]:
    """A tile as an okey.v1.Tile in protobuf JSON (defaults omitted: copy 0, no false joker)."""
    face = code % 53
    if face == FALSE_JOKER_FACE:
        tile: dict[str, Any] = {"falseJoker": True}
    else:
        tile = {"color": COLOR_ENUMS[face // 13], "number": face % 13 + 1}
    if code // 53:
        tile["copy"] = code // 53
    return tile


def tiles_json(codes: list[int]) -> list[dict[str, Any]]:
    return [tile_json(code) for code in codes]


def okey_face(indicator: int) -> int:
    """The indicator's colour, number + 1, 13 -> 1 (docs/rules.md, indicator and okey)."""
    face = indicator % 53
    return face // 13 * 13 + (face % 13 + 1) % 13


# --- the deals ----------------------------------------------------------------


@dataclass
class Deal:
    """One derived deal: racks indexed by seat, the wall in draw order."""

    indicator: int
    racks: list[list[int]]
    wall: list[int]
    first_seat: int
    formal: dict[str, Any] | None = None


def turn_up(seed: str) -> tuple[int, list[int]]:
    """docs/dealing.md, "Informal deal" steps 1-2: the indicator and the 105 tiles to deal.

    While a[0] is a false joker, it is put back: j = 1 + below(105), drawn
    from the stream right after the shuffle, and a[0] and a[j] swap. Then the
    indicator is a[0] and the rest is a[1:], order kept.
    """
    stream = Stream(seed)
    a = shuffle(stream)
    while is_false_joker(a[0]):
        j = 1 + stream.below(TILE_COUNT - 1)
        a[0], a[j] = a[j], a[0]
    return a[0], a[1:]


def deal_informal(seed: str, players: int, dealer: int, drawable_last: bool) -> Deal:
    indicator, rest = turn_up(seed)
    first = (dealer + 1) % players
    racks: list[list[int]] = [[] for _ in range(players)]
    racks[first] = rest[0:15]
    pos = 15
    for step in range(1, players):
        racks[(first + step) % players] = rest[pos : pos + 14]
        pos += 14
    wall = rest[pos:] + ([indicator] if drawable_last else [])
    return Deal(indicator, racks, wall, first)


def deal_101(seed: str, dealer: int, drawable_last: bool) -> Deal:
    indicator, rest = turn_up(seed)
    racks: list[list[int]] = [[] for _ in range(SEATS_101)]
    racks[dealer] = rest[0:22]
    pos = 22
    for step in range(1, SEATS_101):
        racks[(dealer + step) % SEATS_101] = rest[pos : pos + 21]
        pos += 21
    wall = rest[pos:] + ([indicator] if drawable_last else [])
    return Deal(indicator, racks, wall, dealer)


class DiceError(ValueError):
    """The given dice are not exactly the dice the procedure uses."""


def deal_formal(seed: str, dealer: int, dice: list[int] | None, drawable_last: bool) -> Deal:
    stream = Stream(seed)
    a = shuffle(stream)
    stacks = [a[STACK_SIZE * k : STACK_SIZE * k + STACK_SIZE] for k in range(STACK_COUNT)]
    spare = a[TILE_COUNT - 1]
    given = list(dice) if dice else None

    def roll() -> int:
        if given is None:
            return stream.die()  # the stream continues after the shuffle
        if not given:
            raise DiceError("die 2 needed and no die left")
        return given.pop(0)

    rolled = [roll()]
    p = rolled[0] - 1
    tall = [*stacks[p], spare]  # the indicator stack, bottom to top, spare on top
    while True:
        rolled.append(roll())
        position = rolled[-1]
        if not is_false_joker(tall[position - 1]):
            break
    if given:
        raise DiceError("surplus dice")
    indicator = tall[position - 1]

    def stack(letter: str) -> int:
        return (p + 1 + LETTERS.index(letter)) % STACK_COUNT

    first, opposite, left = (dealer + 1) % 4, (dealer + 2) % 4, (dealer + 3) % 4
    parts: list[tuple[int, str, str, slice]] = [
        (first, "a", "whole", slice(0, 5)),
        (opposite, "b", "whole", slice(0, 5)),
        (left, "c", "whole", slice(0, 5)),
        (dealer, "d", "whole", slice(0, 5)),
        (first, "e", "whole", slice(0, 5)),
        (opposite, "f", "whole", slice(0, 5)),
        (left, "g", "whole", slice(0, 5)),
        (dealer, "h", "whole", slice(0, 5)),
        (first, "i", "whole", slice(0, 5)),
        (opposite, "j", "top 4", slice(1, 5)),
        (left, "j", "bottom 1", slice(0, 1)),
        (left, "k", "top 3", slice(2, 5)),
        (dealer, "k", "bottom 2", slice(0, 2)),
        (dealer, "l", "top 2", slice(3, 5)),
    ]
    racks: list[list[int]] = [[] for _ in range(4)]
    takes = []
    for seat, letter, part, cut in parts:
        tiles = stacks[stack(letter)][cut]  # each part bottom to top
        racks[seat] += tiles
        takes.append(
            {"seat": seat, "stack": stack(letter), "letter": letter, "part": part, "tiles": tiles}
        )

    # The wall: what is left of l from the top down, stacks m..t from the top
    # down, then the indicator stack from the top down without the indicator.
    wall = list(reversed(stacks[stack("l")][0:3]))
    for letter in LETTERS[LETTERS.index("m") :]:
        wall += reversed(stacks[stack(letter)])
    wall += [code for i, code in reversed(list(enumerate(tall))) if i != position - 1]
    if drawable_last:
        wall.append(indicator)

    letters = {stack(letter): letter for letter in LETTERS}
    formal = {
        "dice": rolled,
        "diceGiven": given is not None,
        "stacks": [
            {
                "index": k,
                "letter": letters.get(k, ""),
                "tiles": stacks[k],
                "notation": " ".join(notation(c) for c in stacks[k]),
            }
            for k in range(STACK_COUNT)
        ],
        "spare": spare,
        "indicatorStack": p,
        "indicatorPosition": position,
        "takes": takes,
    }
    return Deal(indicator, racks, wall, first, formal)


# --- requests and expected responses -------------------------------------------


def formal_json(formal: dict[str, Any] | None) -> dict[str, Any] | None:
    """The formal procedure with its tiles (packed codes here) as Tile messages."""
    if formal is None:
        return None
    return {
        **formal,
        "stacks": [{**stack, "tiles": tiles_json(stack["tiles"])} for stack in formal["stacks"]],
        "spare": tile_json(formal["spare"]),
        "takes": [{**take, "tiles": tiles_json(take["tiles"])} for take in formal["takes"]],
    }


def expected_response(request: dict[str, Any]) -> dict[str, Any]:
    """The DealResponse (protobuf JSON, the subset a vector pins) a seeded request must get.

    The opening state is sealed under the server's key, and so is the seeded
    deal id (an HMAC of the seed): a vector pins neither, but the deal's kind.
    """
    seed = request["seed"]
    client_seeds = request.get("clientSeeds", [])
    # The shuffle runs on the mixed seed; seed and commitment stay the base seed's.
    shuffle_seed = mixed_seed(seed, client_seeds) if client_seeds else seed
    ruleset = request.get("ruleset", {})
    is_101 = request.get("preset") == "101" or ruleset.get("game") == "GAME_OKEY_101"
    players = request.get("playerCount", 0) or 4
    dealer = request.get("dealerSeat", 0)
    formal = request.get("method") == "DEAL_METHOD_FORMAL"
    drawable_last = ruleset.get("indicatorDrawableLast", False)
    if formal:
        deal = deal_formal(shuffle_seed, dealer, request.get("dice"), drawable_last)
    elif is_101:
        deal = deal_101(shuffle_seed, dealer, drawable_last)
    else:
        deal = deal_informal(shuffle_seed, players, dealer, drawable_last)
    okey = okey_face(deal.indicator)
    response: dict[str, Any] = {
        "seed": seed,
        # deal.proto: only a committed deal has a commitment.
        "commitment": "",
        "method": "DEAL_METHOD_FORMAL" if formal else "DEAL_METHOD_INFORMAL",
        "game": "GAME_OKEY_101" if is_101 else "GAME_CLASSIC",
        "playerCount": players,
        "dealerSeat": dealer,
        "firstSeat": deal.first_seat,
        "indicator": tile_json(deal.indicator),
        "okey": {"color": COLOR_ENUMS[okey // 13], "number": okey % 13 + 1},
        "racks": [
            {"seat": seat, "tiles": tiles_json(rack), "notation": rack_notation(rack)}
            for seat, rack in enumerate(deal.racks)
        ],
        "wall": tiles_json(deal.wall),
        "formal": formal_json(deal.formal),  # null: not set for an informal deal
        "round": request.get("round", 0) or 1,
    }
    if client_seeds:  # echoed as given (an empty list is not written in protobuf JSON)
        response["clientSeeds"] = list(client_seeds)
    response["status"] = opening_status(
        "DEAL_KIND_SEEDED",
        request,
        is_101=is_101,
        players=players,
        dealer=dealer,
        first=deal.first_seat,
    )
    return response


def opening_status(
    kind: str, request: dict[str, Any], *, is_101: bool, players: int, dealer: int, first: int
) -> dict[str, Any]:
    """The RoundStatus of an opening state (state.proto): nothing played, the first seat to
    discard. A seeded deal's keyed id and a committed deal's commitment are left out (they
    depend on the server's key or are new at every commitment); the empty ones are pinned."""
    status: dict[str, Any] = {
        "game": "GAME_OKEY_101" if is_101 else "GAME_CLASSIC",
        "playerCount": players,
        "dealerSeat": dealer,
        "round": request.get("round", 0) or 1,
        "moveNumber": 0,
        "turnSeat": first,
        "phase": "PHASE_FIRST_DISCARD",
        "turnDeadline": None,  # no `now` in these requests: the first turn is not timed
        "roundOver": False,
        "outcome": None,
        "dealKind": kind,
        "mustFinish": False,
    }
    if kind != "DEAL_KIND_COMMITTED":
        status["commitment"] = ""
    if kind != "DEAL_KIND_SEEDED":
        status["seededDealId"] = ""
    return status


# --- stacked deals (deal.proto, StackedDeal) ---------------------------------------


def code_of(tile: dict[str, Any]) -> int:
    """A Tile in protobuf JSON as its code (copy * 53 + face; face 52: false joker)."""
    face = (
        FALSE_JOKER_FACE
        if tile.get("falseJoker")
        else COLOR_ENUMS.index(tile["color"]) * 13 + tile["number"] - 1
    )
    return int(tile.get("copy", 0)) * 53 + face


def expected_stacked_response(request: dict[str, Any]) -> dict[str, Any]:
    """The DealResponse a valid stacked request must get: the position as given, marked
    stacked, with no seed, deal id or commitment (deal.proto, DealRequest.stacked)."""
    stacked = request["stacked"]
    ruleset = request.get("ruleset", {})
    is_101 = request.get("preset") == "101" or ruleset.get("game") == "GAME_OKEY_101"
    players = request.get("playerCount", 0) or 4
    dealer = request.get("dealerSeat", 0)
    first = dealer if is_101 else (dealer + 1) % players
    racks = [[code_of(t) for t in rack["tiles"]] for rack in stacked["racks"]]
    indicator = code_of(stacked["indicator"])
    okey = okey_face(indicator)
    return {
        "seed": "",
        "commitment": "",
        "dealId": "",
        "method": "DEAL_METHOD_INFORMAL",
        "game": "GAME_OKEY_101" if is_101 else "GAME_CLASSIC",
        "playerCount": players,
        "dealerSeat": dealer,
        "firstSeat": first,
        "indicator": tile_json(indicator),
        "okey": {"color": COLOR_ENUMS[okey // 13], "number": okey % 13 + 1},
        "racks": [
            {"seat": seat, "tiles": tiles_json(rack), "notation": rack_notation(rack)}
            for seat, rack in enumerate(racks)
        ],
        "wall": tiles_json([code_of(t) for t in stacked.get("wall", [])]),
        "formal": None,
        "round": request.get("round", 0) or 1,
        "status": opening_status(
            "DEAL_KIND_STACKED", request, is_101=is_101, players=players, dealer=dealer, first=first
        ),
    }


def stacked_position(
    players: int, dealer: int, is_101: bool, drawable_last: bool, order: list[int]
) -> dict[str, Any]:
    """A StackedDeal in protobuf JSON from the 106 codes in `order`: the indicator first,
    then the racks from the first seat on in turn order (15/14 tiles, Okey 101 22/21), then
    the wall (ending with the indicator again under indicator_drawable_last)."""
    assert sorted(order) == list(range(TILE_COUNT))
    assert not is_false_joker(order[0])
    indicator, rest = order[0], order[1:]
    first = dealer if is_101 else (dealer + 1) % players
    sizes = (22, 21) if is_101 else (15, 14)
    racks: list[list[int]] = [[] for _ in range(players)]
    pos = 0
    for step in range(players):
        size = sizes[0] if step == 0 else sizes[1]
        racks[(first + step) % players] = rest[pos : pos + size]
        pos += size
    wall = rest[pos:] + ([indicator] if drawable_last else [])
    return {
        "racks": [{"tiles": tiles_json(rack)} for rack in racks],
        "wall": tiles_json(wall),
        "indicator": tile_json(indicator),
    }


def ordered_tiles(indicator: int) -> list[int]:
    """The 106 codes in code order with `indicator` moved to the front: a position anyone
    can read (seat after seat holds runs of one colour)."""
    return [indicator, *(c for c in range(TILE_COUNT) if c != indicator)]


def swapped(stacked: dict[str, Any], transform: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    """A deep copy of a StackedDeal in protobuf JSON, changed by `transform`."""
    copy = json.loads(json.dumps(stacked))
    transform(copy)
    return copy


# --- the vectors ----------------------------------------------------------------

# Seeds with a property worth a vector, found by `--search` (each is checked
# by the derivation itself: the vector shows the property).
SEED_FJ_FIRST = "fj-first-8"  # a[0] is a false joker (put back at a[14])
SEED_FJ_BOTH = "fj-both-13438"  # a[0] and a[1] are the two false jokers
SEED_FJ_PUT_BACK_TWICE = "fj-put-back-twice-2198"  # the first put-back hits the other false joker
SEED_FJ_TO_A_RACK = "fj-to-a-rack-97"  # a[0] is a false joker, put back into a later rack
SEED_WORKED = "worked-example-77"  # dice 5, 2 turn up R4, okey R5, as in the worked example
SEED_REROLL_STREAM = "reroll-from-stream-138"  # die 2 from the stream hits a false joker
SEED_REROLL_GIVEN = "reroll-given-32"  # stack 1 (die 1 = 2) holds a false joker at position 3
SEED_DOUBLE_REROLL = "double-reroll-1727"  # both false jokers in stack 3 (die 1 = 4) + spare

WORKED = (
    "the Japanese rules text's worked example (docs/dealing.md, Formal deal): dice 5 then 2"
    " turn up a red 4, okey red 5"
)

Case = dict[str, Any]


def _ok(name: str, reason: str, request: dict[str, Any]) -> Case:
    return {"name": name, "reason": reason, "request": request}


def _error(
    name: str, reason: str, request: dict[str, Any], field: str, why: str | None = None
) -> Case:
    """An INVALID_ARGUMENT naming `field`; `why`, when given, the ErrorReason it must carry."""
    error = {"code": "INVALID_ARGUMENT", "field": field}
    if why is not None:
        error["reason"] = why
    return {"name": name, "reason": reason, "request": request, "expect": {"error": error}}


def client_seed_hash(text: str) -> str:
    """deal.proto, CommitSeedRequest.client_seed_hashes: the hex SHA-256 of a client seed."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def token_text(raw: bytes) -> str:
    """A deal id as deal ids travel: URL-safe base64 without padding."""
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


FORMAL = "DEAL_METHOD_FORMAL"
INFORMAL = "DEAL_METHOD_INFORMAL"
DRAWABLE = {"indicatorDrawableLast": True}


def informal_cases() -> list[Case]:
    return [
        _ok(
            "deal-informal-seed-42-four-players",
            "docs/dealing.md, Informal deal: 15 to the dealer's right, 14 to the others (seed 42,"
            " B3)",
            {"seed": "42", "playerCount": 4},
        ),
        _ok(
            "deal-informal-default-player-count-is-four",
            "deal.proto: player_count 0 means 4; docs/dealing.md: 4 players is standard",
            {"seed": "okey"},
        ),
        _ok(
            "deal-informal-four-players-dealer-1",
            "docs/dealing.md, Seats: the first player is the dealer's right (dealer 1: seat 2"
            " gets 15)",
            {"seed": "table-7", "playerCount": 4, "dealerSeat": 1, "method": INFORMAL},
        ),
        _ok(
            "deal-informal-four-players-dealer-3-wraps",
            "docs/dealing.md, Seats: the dealer's right of seat 3 is seat 0, who gets 15 tiles",
            {"seed": "table-7", "playerCount": 4, "dealerSeat": 3},
        ),
        _ok(
            "deal-informal-three-players-dealer-0",
            "docs/dealing.md, Informal deal: 2-4 players; 3 players get 15/14/14, a 62-tile wall",
            {"seed": "three-a", "playerCount": 3},
        ),
        _ok(
            "deal-informal-three-players-dealer-2",
            "docs/dealing.md, Seats: with 3 players the dealer's right of seat 2 is seat 0",
            {"seed": "three-b", "playerCount": 3, "dealerSeat": 2},
        ),
        _ok(
            "deal-informal-two-players-dealer-0",
            "docs/dealing.md, Informal deal: 2 players get 15/14, a 76-tile wall",
            {"seed": "two-a", "playerCount": 2},
        ),
        _ok(
            "deal-informal-two-players-dealer-1",
            "docs/dealing.md, Seats: with 2 players the dealer's right of seat 1 is seat 0",
            {"seed": "two-b", "playerCount": 2, "dealerSeat": 1},
        ),
        _ok(
            "deal-informal-false-joker-is-not-the-indicator",
            "docs/dealing.md, Informal deal step 1: a false joker turned up is put back at"
            " a[1 + below(105)] and the tile found there is the indicator",
            {"seed": SEED_FJ_FIRST, "playerCount": 4, "dealerSeat": 2},
        ),
        _ok(
            "deal-informal-false-joker-put-back-into-a-rack",
            "docs/dealing.md, Informal deal step 1: the false joker put back lands in a rack"
            " other than the first player's",
            {"seed": SEED_FJ_TO_A_RACK, "playerCount": 4},
        ),
        _ok(
            "deal-informal-two-false-jokers-on-top",
            "docs/dealing.md, Informal deal step 1: a[0] and a[1] are false jokers; a[0] is put"
            " back, a[1] stays where the shuffle put it",
            {"seed": SEED_FJ_BOTH, "playerCount": 3, "dealerSeat": 1},
        ),
        _ok(
            "deal-informal-false-joker-put-back-twice",
            "docs/dealing.md, Informal deal step 1: the first put-back swaps in the other false"
            " joker, so a second draw puts that one back",
            {"seed": SEED_FJ_PUT_BACK_TWICE, "playerCount": 4, "dealerSeat": 1},
        ),
        _ok(
            "deal-informal-indicator-drawable-last",
            "docs/dealing.md, Informal deal, indicator_drawable_last: the 49th, last wall tile",
            {"seed": "42", "playerCount": 4, "ruleset": DRAWABLE},
        ),
        _ok(
            "deal-informal-indicator-drawable-last-three-players",
            "docs/dealing.md, indicator_drawable_last, 3 players: the 63rd wall tile is the"
            " indicator",
            {"seed": "three-a", "playerCount": 3, "ruleset": DRAWABLE},
        ),
        _ok(
            "deal-informal-indicator-not-drawable-explicit",
            "docs/dealing.md: the face-up indicator is never drawn (option set false explicitly)",
            {"seed": "42", "ruleset": {"indicatorDrawableLast": False}},
        ),
        _ok(
            "deal-informal-okeygg-preset-deals-the-same",
            "ruleset.proto: the okey.gg preset changes no deal rule; seed 42 deals as in classic",
            {"seed": "42", "preset": "okey.gg"},
        ),
        _ok(
            "deal-informal-unicode-seed-composed",
            "docs/dealing.md: the seed is used byte for byte in UTF-8 (U+00E7)",
            {"seed": "ç"},
        ),
        _ok(
            "deal-informal-unicode-seed-decomposed",
            "docs/dealing.md: no Unicode normalisation: c + U+0327 deals differently from U+00E7",
            {"seed": "c\u0327"},
        ),
        _ok(
            "deal-informal-seed-of-256-bytes",
            "docs/dealing.md: a seed may have up to 256 UTF-8 bytes (128 two-byte characters)",
            {"seed": "ğ" * 128, "playerCount": 2},
        ),
        _ok(
            "deal-informal-client-seeds-mixed-into-the-shuffle",
            "docs/dealing.md, Client seeds: seed 42 with client seeds alice, bob deals from the"
            " mixed seed (K12); seed and commitment stay those of 42",
            {"seed": "42", "clientSeeds": ["alice", "bob"]},
        ),
    ]


def okey101_cases() -> list[Case]:
    return [
        _ok(
            "deal-101-preset-dealer-0",
            "docs/dealing.md, Okey 101 deal: 22 to the dealer, 21 to the others; the dealer starts",
            {"seed": "101-a", "preset": "101"},
        ),
        _ok(
            "deal-101-game-field-dealer-2",
            "docs/dealing.md, Okey 101 deal: the dealer (seat 2) gets 22 and opens; 3, 0, 1 get 21",
            {
                "seed": "101-b",
                "ruleset": {"game": "GAME_OKEY_101"},
                "playerCount": 4,
                "dealerSeat": 2,
            },
        ),
        _ok(
            "deal-101-dealer-3",
            "docs/dealing.md, Okey 101 deal: the bank is the 20 tiles left after 22/21/21/21",
            {"seed": "101-c", "preset": "101", "dealerSeat": 3, "method": INFORMAL},
        ),
        _ok(
            "deal-101-false-joker-is-not-the-indicator",
            "docs/dealing.md, Okey 101 deal: a false joker turned up is put back as in classic",
            {"seed": SEED_FJ_FIRST, "preset": "101", "dealerSeat": 1},
        ),
        _ok(
            "deal-101-indicator-drawable-last",
            "docs/dealing.md, Okey 101 deal, indicator_drawable_last: the bank's last tile",
            {"seed": "101-a", "preset": "101", "ruleset": DRAWABLE},
        ),
    ]


def formal_cases() -> list[Case]:
    return [
        _ok(
            "deal-formal-worked-example",
            f"{WORKED}; dealer seat 0 (player 1): seat 1 takes a e i, seat 2 b f top-4-of-j,"
            " seat 3 c g bottom-1-of-j top-3-of-k, seat 0 d h bottom-2-of-k top-2-of-l",
            {"seed": SEED_WORKED, "method": FORMAL, "dice": [5, 2]},
        ),
        _ok(
            "deal-formal-worked-example-dealer-2",
            f"{WORKED}; dealer seat 2 (player 1): seats 3, 0, 1, 2 (players 2, 3, 4, 1)"
            " take the parts the example names",
            {"seed": SEED_WORKED, "method": FORMAL, "dice": [5, 2], "dealerSeat": 2},
        ),
        _ok(
            "deal-formal-dice-from-the-seed-42",
            "docs/dealing.md, Formal deal: dice from the seed after the shuffle (42 rolls 4, 4;"
            " R9)",
            {"seed": "42", "method": FORMAL},
        ),
        _ok(
            "deal-formal-dice-from-the-seed-dealer-1",
            "docs/dealing.md, Formal deal: dice from the seed; dealer seat 1, first player seat 2",
            {"seed": "formal-b", "method": FORMAL, "playerCount": 4, "dealerSeat": 1},
        ),
        _ok(
            "deal-formal-dice-from-the-seed-dealer-3",
            "docs/dealing.md, Formal deal: dealer seat 3, first player seat 0 takes a, e, i (15"
            " tiles)",
            {"seed": "formal-c", "method": FORMAL, "dealerSeat": 3},
        ),
        _ok(
            "deal-formal-die-1-six-wraps-the-letters",
            "docs/dealing.md, Formal deal: die 1 = 6 is stack index 5; letters wrap round the 21",
            {"seed": "formal-d", "method": FORMAL, "dice": [6, 6]},
        ),
        _ok(
            "deal-formal-die-1-one-die-2-one",
            "docs/dealing.md, Formal deal: die 1 = 1 is the dealer's leftmost stack, die 2 = 1"
            " its bottom",
            {"seed": "formal-e", "method": FORMAL, "dice": [1, 1]},
        ),
        _ok(
            "deal-formal-die-2-six-is-the-spare",
            "docs/dealing.md, Formal deal: the spare on top is tile 6 of the stack; die 2 = 6"
            " turns it up",
            {"seed": "formal-f", "method": FORMAL, "dice": [3, 6]},
        ),
        _ok(
            "deal-formal-reroll-from-the-seed",
            "the Japanese rules text (docs/dealing.md, Formal deal): die 2 hits a false joker,"
            " re-rolled",
            {"seed": SEED_REROLL_STREAM, "method": FORMAL},
        ),
        _ok(
            "deal-formal-reroll-given",
            "docs/dealing.md, Formal deal: die 2 = 3 hits a false joker; the third die is the"
            " re-roll",
            {"seed": SEED_REROLL_GIVEN, "method": FORMAL, "dice": [2, 3, 5]},
        ),
        _ok(
            "deal-formal-three-rerolls-given",
            "docs/dealing.md, Formal deal: die 2 is re-rolled until a numbered tile (3 false"
            " joker hits)",
            {"seed": SEED_DOUBLE_REROLL, "method": FORMAL, "dice": [4, 2, 2, 4, 1]},
        ),
        _ok(
            "deal-formal-indicator-drawable-last",
            "docs/dealing.md, Formal deal, indicator_drawable_last: the wall's 49th tile is the"
            " indicator",
            {"seed": SEED_WORKED, "method": FORMAL, "dice": [5, 2], "ruleset": DRAWABLE},
        ),
    ]


def error_cases() -> list[Case]:
    return [
        _error(
            "deal-error-five-players",
            "docs/dealing.md, Errors: classic Okey has 2-4 players",
            {"seed": "42", "playerCount": 5},
            "player_count",
        ),
        _error(
            "deal-error-one-player",
            "docs/dealing.md, Errors: classic Okey has 2-4 players",
            {"seed": "42", "playerCount": 1},
            "player_count",
        ),
        _error(
            "deal-error-101-three-players",
            "docs/dealing.md, Errors: Okey 101 has exactly 4 players",
            {"seed": "42", "preset": "101", "playerCount": 3},
            "player_count",
        ),
        _error(
            "deal-error-101-two-players",
            "docs/dealing.md, Errors: Okey 101 has exactly 4 players",
            {"seed": "42", "ruleset": {"game": "GAME_OKEY_101"}, "playerCount": 2},
            "player_count",
        ),
        _error(
            "deal-error-dealer-seat-4-of-4",
            "deal.proto: dealer_seat is 0..player_count-1",
            {"seed": "42", "playerCount": 4, "dealerSeat": 4},
            "dealer_seat",
        ),
        _error(
            "deal-error-dealer-seat-2-of-2",
            "deal.proto: dealer_seat is 0..player_count-1 (2 players: seats 0, 1)",
            {"seed": "42", "playerCount": 2, "dealerSeat": 2},
            "dealer_seat",
        ),
        _error(
            "deal-error-die-1-zero",
            "docs/dealing.md, Errors: a die shows 1-6",
            {"seed": "42", "method": FORMAL, "dice": [0, 2]},
            "dice[0]",
        ),
        _error(
            "deal-error-die-2-seven",
            "docs/dealing.md, Errors: a die shows 1-6",
            {"seed": "42", "method": FORMAL, "dice": [5, 7]},
            "dice[1]",
        ),
        _error(
            "deal-error-formal-three-players",
            "docs/dealing.md, Errors: the formal deal (stacks and dice) is for 4 players",
            {"seed": "42", "method": FORMAL, "playerCount": 3},
            "method",
        ),
        _error(
            "deal-error-formal-two-players",
            "docs/dealing.md, Errors: the formal deal (stacks and dice) is for 4 players",
            {"seed": "42", "method": FORMAL, "playerCount": 2},
            "method",
        ),
        _error(
            "deal-error-formal-okey-101",
            "docs/dealing.md, Okey 101 deal: the formal deal is classic Okey's only",
            {"seed": "42", "method": FORMAL, "preset": "101"},
            "method",
        ),
        _error(
            "deal-error-unknown-method",
            "deal.proto: DealMethod has no value 9",
            {"seed": "42", "method": 9},
            "method",
        ),
        _error(
            "deal-error-seed-over-256-bytes",
            "docs/dealing.md: a seed has at most 256 UTF-8 bytes (129 two-byte characters are 258)",
            {"seed": "ğ" * 129},
            "seed",
        ),
        _error(
            "deal-error-dice-with-informal-deal",
            "docs/dealing.md, Errors: dice belong to the formal deal only",
            {"seed": "42", "dice": [5, 2]},
            "dice",
        ),
        _error(
            "deal-error-only-die-1-given",
            "docs/dealing.md, Errors: the formal deal needs die 2 as well",
            {"seed": "42", "method": FORMAL, "dice": [5]},
            "dice",
        ),
        _error(
            "deal-error-surplus-die",
            "docs/dealing.md, Formal deal: die 2 = 2 turns up a numbered tile, so a third die is"
            " surplus",
            {"seed": SEED_WORKED, "method": FORMAL, "dice": [5, 2, 3]},
            "dice",
        ),
        _error(
            "deal-error-reroll-missing",
            "docs/dealing.md, Formal deal: die 2 = 3 hits a false joker and the request has no"
            " re-roll",
            {"seed": SEED_REROLL_GIVEN, "method": FORMAL, "dice": [2, 3]},
            "dice",
        ),
        _error(
            "deal-error-unknown-preset",
            "ruleset.proto: the presets are classic, okey.gg and 101",
            {"seed": "42", "preset": "okey-102"},
            "preset",
        ),
        _error(
            "deal-error-nine-client-seeds",
            "docs/dealing.md, Client seeds: at most 8 client seeds",
            {"seed": "42", "clientSeeds": [f"player {n}" for n in range(9)]},
            "client_seeds",
        ),
        _error(
            "deal-error-empty-client-seed",
            "docs/dealing.md, Client seeds: each client seed has 1-256 UTF-8 bytes",
            {"seed": "42", "clientSeeds": ["alice", ""]},
            "client_seeds[1]",
        ),
        _error(
            "deal-error-deal-id-with-a-seed",
            "docs/dealing.md, Fairness you can verify: a deal from a CommitSeed id takes no seed",
            {"seed": "42", "dealId": "0123456789abcdef0123456789abcdef"},
            "seed",
        ),
    ]


# A deal id that is not one (docs/dealing.md, "Deal ids": a committed deal's id is a sealed
# token, URL-safe base64): of another token format (version byte 2), of a key no server
# holds (version 1, key id 0: one key in 2^32 has it), and not base64 at all.
TOKEN_OTHER_VERSION = token_text(bytes([2]) + bytes(40))
TOKEN_UNKNOWN_KEY = token_text(bytes([1]) + bytes(4) + bytes(40))
MISMATCH = "ERROR_REASON_COMMITMENT_MISMATCH"
PLAYERS = ("alice", "bob", "carol", "dave")  # one client seed per seat, seat 0's first


def _hashes(seeds: tuple[str, ...] | list[str]) -> list[str]:
    return [client_seed_hash(s) for s in seeds]


def token_error_cases() -> list[Case]:
    return [
        _error(
            "deal-error-deal-id-not-a-token",
            "deal.proto: deal_id is a secret deal id as CommitSeed issued it (URL-safe base64)",
            {"dealId": "not a deal id!"},
            "deal_id",
        ),
        _error(
            "deal-error-deal-id-of-another-token-version",
            "errors.proto ERROR_REASON_TOKEN_VERSION: a token whose first byte is not this"
            " server's format (1) is refused on its field",
            {"dealId": TOKEN_OTHER_VERSION},
            "deal_id",
            "ERROR_REASON_TOKEN_VERSION",
        ),
        _error(
            "deal-error-deal-id-under-an-unknown-key",
            "errors.proto ERROR_REASON_UNKNOWN_KEY: a token sealed under a key id the server"
            " does not hold (0) is refused on its field",
            {"dealId": TOKEN_UNKNOWN_KEY},
            "deal_id",
            "ERROR_REASON_UNKNOWN_KEY",
        ),
    ]


# --- stacked deals ----------------------------------------------------------------

# The readable position: the indicator is R5 (copy 0), every other tile in code order.
STACKED_INDICATOR = 4  # R5, copy 0
STACKED = stacked_position(4, 0, False, False, ordered_tiles(STACKED_INDICATOR))


def _stacked_request(stacked: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {**fields, "stacked": stacked}


def _duplicate(stacked: dict[str, Any]) -> None:
    # Seat 2's fourth tile becomes seat 1's first (two of one physical tile; one missing).
    stacked["racks"][2]["tiles"][3] = dict(stacked["racks"][1]["tiles"][0])


def _short_rack(stacked: dict[str, Any]) -> None:
    # Seat 2 hands its last tile to seat 3: 13 and 15 tiles.
    stacked["racks"][3]["tiles"].append(stacked["racks"][2]["tiles"].pop())


def _missing_tile(stacked: dict[str, Any]) -> None:
    stacked["wall"].pop()


def _false_joker_indicator(stacked: dict[str, Any]) -> None:
    # The indicator trades places with the false joker (copy 0) in a rack.
    for rack in stacked["racks"]:
        for index, tile in enumerate(rack["tiles"]):
            if tile.get("falseJoker"):
                rack["tiles"][index] = stacked["indicator"]
                stacked["indicator"] = tile
                return
    raise AssertionError("the position holds a false joker in a rack")


def _indicator_in_wall(stacked: dict[str, Any]) -> None:
    stacked["wall"].append(dict(stacked["indicator"]))


def _three_racks(stacked: dict[str, Any]) -> None:
    stacked["racks"].pop()


def stacked_cases() -> list[Case]:
    return [
        _ok(
            "deal-stacked-four-seats-dealer-0",
            "deal.proto, DealRequest.stacked: the position given tile by tile is the deal"
            " (seat 1, right of the dealer, holds 15), marked DEAL_KIND_STACKED, with no seed,"
            " deal id or commitment",
            _stacked_request(STACKED),
        ),
        _ok(
            "deal-stacked-two-seats-dealer-1",
            "deal.proto, StackedDeal.racks: with 2 seats and dealer 1 seat 0 moves first and"
            " holds 15",
            _stacked_request(
                stacked_position(2, 1, False, False, ordered_tiles(60)),
                playerCount=2,
                dealerSeat=1,
            ),
        ),
        _ok(
            "deal-stacked-okey-101-dealer-2",
            "deal.proto, StackedDeal.racks: in Okey 101 the dealer (seat 2) moves first and"
            " holds 22, the others 21; the bank holds the 20 tiles left",
            _stacked_request(
                stacked_position(4, 2, True, False, ordered_tiles(25)),
                preset="101",
                dealerSeat=2,
            ),
        ),
        _ok(
            "deal-stacked-indicator-drawable-last",
            "deal.proto, StackedDeal.wall: with indicator_drawable_last the wall ends with the"
            " indicator, the same tile",
            _stacked_request(
                stacked_position(4, 0, False, True, ordered_tiles(STACKED_INDICATOR)),
                ruleset=DRAWABLE,
            ),
        ),
        _ok(
            "deal-stacked-round-3-dealer-3",
            "deal.proto, DealRequest.round: a stacked deal carries its round; dealer 3's right"
            " is seat 0",
            _stacked_request(
                stacked_position(4, 3, False, False, ordered_tiles(100)), dealerSeat=3, round=3
            ),
        ),
        _error(
            "deal-error-stacked-tile-placed-twice",
            "deal.proto, StackedDeal: every one of the 106 tiles exactly once; the second place"
            " of a tile is named",
            _stacked_request(swapped(STACKED, _duplicate)),
            "stacked.racks[2].tiles[3]",
        ),
        _error(
            "deal-error-stacked-rack-of-13",
            "deal.proto, StackedDeal.racks: every seat but the first holds 14 tiles",
            _stacked_request(swapped(STACKED, _short_rack)),
            "stacked.racks[2].tiles",
        ),
        _error(
            "deal-error-stacked-tile-missing",
            "deal.proto, StackedDeal: every one of the 106 tiles exactly once (the wall is one"
            " short)",
            _stacked_request(swapped(STACKED, _missing_tile)),
            "stacked",
        ),
        _error(
            "deal-error-stacked-false-joker-indicator",
            "deal.proto, StackedDeal.indicator: not a false joker",
            _stacked_request(swapped(STACKED, _false_joker_indicator)),
            "stacked.indicator",
        ),
        _error(
            "deal-error-stacked-indicator-in-the-wall",
            "deal.proto, StackedDeal.wall: without indicator_drawable_last the indicator is not"
            " in the wall",
            _stacked_request(swapped(STACKED, _indicator_in_wall)),
            "stacked.wall",
        ),
        _error(
            "deal-error-stacked-three-racks-for-four-seats",
            "deal.proto, StackedDeal.racks: exactly player_count racks",
            _stacked_request(swapped(STACKED, _three_racks)),
            "stacked.racks",
        ),
        _error(
            "deal-error-stacked-with-a-seed",
            "deal.proto, DealRequest.stacked: seed must be empty",
            _stacked_request(STACKED, seed="42"),
            "seed",
        ),
        _error(
            "deal-error-stacked-with-client-seeds",
            "deal.proto, DealRequest.stacked: client_seeds must be empty",
            _stacked_request(STACKED, clientSeeds=["alice"]),
            "client_seeds",
        ),
        _error(
            "deal-error-stacked-formal",
            "deal.proto, DealRequest.stacked: the method is informal",
            _stacked_request(STACKED, method=FORMAL),
            "method",
        ),
    ]


# --- committed deals: CommitSeed, then Deal under its deal id -------------------------


def _committed(
    name: str,
    reason: str,
    commit: dict[str, Any],
    request: dict[str, Any],
    error: tuple[str, str | None] | None = None,
) -> Case:
    """A Deal under the deal id CommitSeed answers for `commit` (the case's given_commitment);
    `error`: the field (and ErrorReason) it must be refused on, else it must deal."""
    case: Case = {"name": name, "reason": reason, "given_commitment": commit, "request": request}
    if error is None:
        case["expect"] = {"response": expected_committed_response(commit, request)}
    else:
        field, why = error
        case["expect"] = _error(name, reason, request, field, why)["expect"]
    return case


def expected_committed_response(commit: dict[str, Any], request: dict[str, Any]) -> dict[str, Any]:
    """What a Deal under a commitment must answer, as far as a vector can pin it: the seed
    stays secret (""), the inputs the commitment bound, the client seeds as given, one rack
    per seat, the dice drawn from the seed (formal). The tiles come from a seed nobody
    knows yet; the commitment and deal id must be CommitSeed's (the runner checks them)."""
    ruleset = commit.get("ruleset", {})
    is_101 = commit.get("preset") == "101" or ruleset.get("game") == "GAME_OKEY_101"
    players = commit.get("playerCount", 0) or 4
    dealer = commit.get("dealerSeat", 0)
    formal = commit.get("method") == FORMAL
    first = dealer if is_101 else (dealer + 1) % players
    response: dict[str, Any] = {
        "seed": "",
        "method": FORMAL if formal else INFORMAL,
        "game": "GAME_OKEY_101" if is_101 else "GAME_CLASSIC",
        "playerCount": players,
        "dealerSeat": dealer,
        "firstSeat": first,
        "racks": [{"seat": seat} for seat in range(players)],
        # deal.proto: a committed deal's dice always come from its seed.
        "formal": {"diceGiven": False} if formal else None,
        "round": commit.get("round", 0) or 1,
        "clientSeeds": list(request.get("clientSeeds", [])) or None,
        "status": opening_status(
            "DEAL_KIND_COMMITTED",
            commit,
            is_101=is_101,
            players=players,
            dealer=dealer,
            first=first,
        ),
    }
    return response


COMMIT_FOUR: dict[str, Any] = {"playerCount": 4, "clientSeedHashes": _hashes(PLAYERS)}
DEAL_FOUR: dict[str, Any] = {"playerCount": 4, "clientSeeds": list(PLAYERS)}


def committed_cases() -> list[Case]:
    three = list(PLAYERS[:3])
    return [
        _committed(
            "deal-committed-four-client-seeds",
            "deal.proto, CommitSeed then Deal: under the deal id with the committed client"
            " seeds in seat order the round is dealt, its seed kept secret, DEAL_KIND_COMMITTED",
            COMMIT_FOUR,
            DEAL_FOUR,
        ),
        _committed(
            "deal-committed-no-client-seeds-okey-101",
            "deal.proto, CommitSeedRequest.no_client_seeds: an Okey 101 deal (dealer 2, round"
            " 3) made under the commitment takes no client seed",
            {"preset": "101", "dealerSeat": 2, "round": 3, "noClientSeeds": True},
            {"preset": "101", "dealerSeat": 2, "round": 3},
        ),
        _committed(
            "deal-committed-formal-dice-from-the-seed",
            "deal.proto, DealRequest.dice: a committed formal deal's dice come from its seed",
            {**COMMIT_FOUR, "method": FORMAL},
            {**DEAL_FOUR, "method": FORMAL},
        ),
        _committed(
            "deal-committed-three-seats-dealer-2-rules",
            "deal.proto, CommitSeed: seats, dealer and rule options bound, and repeated by the"
            " Deal (3 seats, dealer 2, indicator_drawable_last)",
            {
                "playerCount": 3,
                "dealerSeat": 2,
                "ruleset": DRAWABLE,
                "clientSeedHashes": _hashes(three),
            },
            {"playerCount": 3, "dealerSeat": 2, "ruleset": DRAWABLE, "clientSeeds": three},
        ),
        _committed(
            "deal-error-committed-client-seeds-out-of-order",
            "deal.proto, DealRequest.client_seeds: under a commitment, the committed seeds in"
            " seat order (seat 0's is not bob's)",
            COMMIT_FOUR,
            {**DEAL_FOUR, "clientSeeds": ["bob", "alice", "carol", "dave"]},
            ("client_seeds[0]", MISMATCH),
        ),
        _committed(
            "deal-error-committed-client-seed-missing",
            "deal.proto, DealRequest.client_seeds: under a commitment, one client seed per seat",
            COMMIT_FOUR,
            {**DEAL_FOUR, "clientSeeds": three},
            ("client_seeds", MISMATCH),
        ),
        _committed(
            "deal-error-committed-client-seed-changed",
            "deal.proto, DealRequest.client_seeds: each seed must hash to its seat's committed"
            " hash (dave's changed after the commitment)",
            COMMIT_FOUR,
            {**DEAL_FOUR, "clientSeeds": [*three, "mallory"]},
            ("client_seeds[3]", MISMATCH),
        ),
        _committed(
            "deal-error-committed-client-seeds-without-hashes",
            "deal.proto, DealRequest.client_seeds: none when committed with no_client_seeds",
            {"noClientSeeds": True},
            {"clientSeeds": ["alice"]},
            ("client_seeds", MISMATCH),
        ),
        _committed(
            "deal-error-committed-other-dealer",
            "deal.proto, DealRequest.deal_id: every input must be the committed one (dealer"
            " 1, committed 0)",
            COMMIT_FOUR,
            {**DEAL_FOUR, "dealerSeat": 1},
            ("dealer_seat", MISMATCH),
        ),
        _committed(
            "deal-error-committed-other-player-count",
            "deal.proto, DealRequest.deal_id: every input must be the committed one (3 seats,"
            " committed 4)",
            COMMIT_FOUR,
            {"playerCount": 3, "clientSeeds": three},
            ("player_count", MISMATCH),
        ),
        _committed(
            "deal-error-committed-other-method",
            "deal.proto, DealRequest.deal_id: every input must be the committed one (formal,"
            " committed informal)",
            COMMIT_FOUR,
            {**DEAL_FOUR, "method": FORMAL},
            ("method", MISMATCH),
        ),
        _committed(
            "deal-error-committed-other-round",
            "deal.proto, DealRequest.deal_id: every input must be the committed one (round 2,"
            " committed 1)",
            COMMIT_FOUR,
            {**DEAL_FOUR, "round": 2},
            ("round", MISMATCH),
        ),
        _committed(
            "deal-error-committed-other-preset",
            "deal.proto, DealRequest.deal_id: the rules must be the committed ones (okey.gg,"
            " committed classic)",
            COMMIT_FOUR,
            {**DEAL_FOUR, "preset": "okey.gg"},
            ("preset", MISMATCH),
        ),
        _committed(
            "deal-error-committed-other-rule-option",
            "deal.proto, DealRequest.deal_id: the ruleset's options must be the committed ones"
            " (indicator_drawable_last)",
            COMMIT_FOUR,
            {**DEAL_FOUR, "ruleset": DRAWABLE},
            ("ruleset.indicator_drawable_last", MISMATCH),
        ),
        _committed(
            "deal-error-committed-with-a-seed",
            "deal.proto, DealRequest.seed: must be empty with deal_id",
            COMMIT_FOUR,
            {**DEAL_FOUR, "seed": "42"},
            ("seed", None),
        ),
        _committed(
            "deal-error-committed-with-dice",
            "deal.proto, DealRequest.dice: must be empty with deal_id (the dice come from the"
            " committed seed)",
            {**COMMIT_FOUR, "method": FORMAL},
            {**DEAL_FOUR, "method": FORMAL, "dice": [5, 2]},
            ("dice", None),
        ),
        _committed(
            "deal-error-committed-with-a-stacked-position",
            "deal.proto, DealRequest.stacked: must be empty with deal_id",
            COMMIT_FOUR,
            {**DEAL_FOUR, "stacked": STACKED},
            ("stacked", None),
        ),
    ]


def commit_seed_cases() -> list[Case]:
    def inputs(**fields: Any) -> dict[str, Any]:
        return {"response": {"inputs": fields}}

    return [
        {
            "name": "commit-seed-four-client-seed-hashes",
            "reason": "deal.proto, CommitSeed: the inputs bound, resolved (classic, 4 seats,"
            " dealer 0, informal, round 1) with one client seed hash per seat",
            "request": COMMIT_FOUR,
            "expect": inputs(
                game="GAME_CLASSIC",
                playerCount=4,
                dealerSeat=0,
                method=INFORMAL,
                round=1,
                clientSeedCount=4,
                clientSeedHashes=_hashes(PLAYERS),
            ),
        },
        {
            "name": "commit-seed-no-client-seeds-okey-101",
            "reason": "deal.proto, CommitSeedRequest.no_client_seeds: no hash, client_seed_count"
            " 0 (Okey 101, dealer 2, round 3)",
            "request": {"preset": "101", "dealerSeat": 2, "round": 3, "noClientSeeds": True},
            "expect": inputs(
                game="GAME_OKEY_101",
                playerCount=4,
                dealerSeat=2,
                method=INFORMAL,
                round=3,
                clientSeedCount=0,
                clientSeedHashes=None,
            ),
        },
        {
            "name": "commit-seed-formal",
            "reason": "deal.proto, CommitSeed: the deal method is bound",
            "request": {**COMMIT_FOUR, "method": FORMAL},
            "expect": inputs(
                game="GAME_CLASSIC",
                playerCount=4,
                dealerSeat=0,
                method=FORMAL,
                round=1,
                clientSeedCount=4,
                clientSeedHashes=_hashes(PLAYERS),
            ),
        },
        _error(
            "commit-seed-error-hash-missing",
            "deal.proto, CommitSeedRequest.client_seed_hashes: exactly player_count of them",
            {"playerCount": 4, "clientSeedHashes": _hashes(PLAYERS[:3])},
            "client_seed_hashes",
        ),
        _error(
            "commit-seed-error-no-hashes",
            "deal.proto, CommitSeedRequest.client_seed_hashes: required unless no_client_seeds",
            {"playerCount": 2},
            "client_seed_hashes",
        ),
        _error(
            "commit-seed-error-hash-not-lower-case-hex",
            "deal.proto, CommitSeedRequest.client_seed_hashes: 64 lower-case hex digits each",
            {
                "playerCount": 2,
                "clientSeedHashes": [client_seed_hash("a"), client_seed_hash("b").upper()],
            },
            "client_seed_hashes[1]",
        ),
        _error(
            "commit-seed-error-hashes-with-no-client-seeds",
            "deal.proto, CommitSeedRequest.no_client_seeds: excludes client_seed_hashes",
            {**COMMIT_FOUR, "noClientSeeds": True},
            "client_seed_hashes",
        ),
        _error(
            "commit-seed-error-formal-three-seats",
            "docs/dealing.md, Errors: the formal deal is for 4 players",
            {"playerCount": 3, "method": FORMAL, "clientSeedHashes": _hashes(PLAYERS[:3])},
            "method",
        ),
        _error(
            "commit-seed-error-round-over-a-million",
            "deal.proto, DealRequest.round: at most 1,000,000",
            {**COMMIT_FOUR, "round": 1_000_001},
            "round",
        ),
    ]


FILES: dict[str, tuple[str, str, Callable[[], list[Case]]]] = {
    # file name: (suite, source, cases)
    "deal_informal.json": (
        "Deal: informal classic deals",
        "docs/dealing.md (The random stream, The shuffle, Informal deal); docs/rules.md"
        " (indicator)",
        informal_cases,
    ),
    "deal_101.json": (
        "Deal: Okey 101 deals",
        "docs/dealing.md (The shuffle, Informal deal, Okey 101 deal); docs/rules.md (indicator)",
        okey101_cases,
    ),
    "deal_formal.json": (
        "Deal: formal deals (stacks and dice)",
        "the Japanese rules text's formal deal and worked example, as docs/dealing.md (Formal"
        " deal)",
        formal_cases,
    ),
    "deal_errors.json": (
        "Deal: malformed requests",
        "docs/dealing.md (Errors); deal.proto; errors.proto",
        lambda: error_cases() + token_error_cases(),
    ),
    "deal_stacked.json": (
        "Deal: stacked positions",
        "deal.proto (DealRequest.stacked, StackedDeal)",
        stacked_cases,
    ),
    "deal_committed.json": (
        "Deal: under a commitment (CommitSeed, then Deal)",
        "deal.proto (CommitSeed, DealRequest.deal_id, DealRequest.client_seeds); errors.proto",
        committed_cases,
    ),
    "deal_commit_seed.json": (
        "CommitSeed: commitments to a seed and the inputs of one deal",
        "deal.proto (CommitSeed, CommitSeedRequest, CommittedInputs)",
        commit_seed_cases,
    ),
}
# The method of each file (Deal unless named).
METHODS = {"deal_commit_seed.json": "CommitSeed"}

DERIVED = (
    "Expected responses derived by scripts/derive_deal_vectors.py from docs/dealing.md alone, "
    "never from a server's output. Each deal pins seed, method, game, seats, "
    "indicator and okey, every rack (tiles in deal order and sorted notation), the whole wall "
    "in draw order{formal}, no commitment (a seeded deal has none) and the opening status "
    "(DEAL_KIND_SEEDED, the first seat to discard). The sealed opening state and the keyed "
    "deal id depend on the server's key and are not pinned."
)
NOTES = {
    "deal_informal.json": DERIVED.format(formal=""),
    "deal_101.json": DERIVED.format(formal=""),
    "deal_formal.json": DERIVED.format(
        formal=", the procedure (dice, the 21 stacks, spare, indicator stack and position, "
        "every take)"
    ),
    "deal_errors.json": "Each malformed request must fail with INVALID_ARGUMENT and a "
    "google.rpc.BadRequest violation on the field named (docs/dealing.md, Errors); a deal id "
    "that does not open, with the ErrorReason named where the contract gives one.",
    "deal_stacked.json": "A stacked position is dealt as given: the racks, the wall and the "
    "indicator come back tile for tile, marked DEAL_KIND_STACKED, with no seed, deal id or "
    "commitment. The refusals name the field at fault (the second place of a tile placed "
    "twice, the rack of the wrong size).",
    "deal_committed.json": "Each case commits first (given_commitment: a CommitSeedRequest "
    "the runner sends to DealService/CommitSeed) and deals under the secret deal id it "
    "answers. The tiles come from a secret seed and are not pinned; the answer's commitment "
    "and deal id must be CommitSeed's (the runner checks them). A Deal with other inputs "
    "than the committed ones is INVALID_ARGUMENT with ERROR_REASON_COMMITMENT_MISMATCH.",
    "deal_commit_seed.json": "The inputs a commitment binds, resolved. The commitment and the "
    "deal id come from a fresh secret seed and are not pinned.",
}


def build_files() -> dict[str, dict[str, Any]]:
    """Every vector file, by file name, as the JSON object to write."""
    files = {}
    for name, (suite, source, cases) in FILES.items():
        built = []
        for case in cases():
            if "expect" in case:
                built.append(case)
            elif "stacked" in case["request"]:
                response = expected_stacked_response(case["request"])
                built.append({**case, "expect": {"response": response}})
            else:
                response = expected_response(case["request"])
                built.append({**case, "expect": {"response": response}})
        files[name] = {
            "suite": suite,
            "source": source,
            "service": "okey.v1.DealService",
            "method": METHODS.get(name, "Deal"),
            "notes": NOTES[name],
            "cases": built,
        }
    return files


# --- output ----------------------------------------------------------------------


def dump(value: Any, indent: int = 0) -> str:
    """JSON with every short value and every shallow one (a tile, a rack, a stack) on one line."""
    inline = json.dumps(value, ensure_ascii=False)
    if _depth(value) <= 3 or len(inline) + indent <= 100:
        return inline
    pad = " " * (indent + 2)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {dump(v, indent + 2)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + dump(v, indent + 2) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def _depth(value: Any) -> int:
    """How deep containers nest: 0 for a scalar, 1 for a list of scalars, 2 for a list of tiles."""
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def search(prefix: str, found: Callable[[str], bool], limit: int = 10_000) -> str:
    """The first seed `prefix-N` with the property."""
    return next(f"{prefix}-{n}" for n in range(limit) if found(f"{prefix}-{n}"))


def _searches() -> Iterator[tuple[str, str]]:
    def stacks(seed: str) -> list[int]:
        return shuffle(Stream(seed))

    yield "SEED_FJ_FIRST", search("fj-first", lambda s: is_false_joker(stacks(s)[0]))
    yield (
        "SEED_FJ_BOTH",
        search("fj-both", lambda s: all(is_false_joker(c) for c in stacks(s)[:2]), 1_000_000),
    )

    def put_back_twice(seed: str) -> bool:
        stream = Stream(seed)
        a = shuffle(stream)
        return is_false_joker(a[0]) and is_false_joker(a[1 + stream.below(TILE_COUNT - 1)])

    yield "SEED_FJ_PUT_BACK_TWICE", search("fj-put-back-twice", put_back_twice, 1_000_000)

    def to_a_later_rack(seed: str) -> bool:
        # 4 players: rest[15:57] are the racks after the first player's.
        first = shuffle(Stream(seed))[0]
        return is_false_joker(first) and 15 <= turn_up(seed)[1].index(first) < 57

    yield "SEED_FJ_TO_A_RACK", search("fj-to-a-rack", to_a_later_rack)
    yield "SEED_WORKED", search("worked-example", lambda s: stacks(s)[4 * 5 + 1] % 53 == 3)

    def stream_reroll(seed: str) -> bool:
        deal = deal_formal(seed, 0, None, False)
        return deal.formal is not None and len(deal.formal["dice"]) > 2

    yield "SEED_REROLL_STREAM", search("reroll-from-stream", stream_reroll)
    yield "SEED_REROLL_GIVEN", search("reroll-given", lambda s: is_false_joker(stacks(s)[5 + 2]))

    def both_in_stack_3(seed: str) -> bool:
        a = stacks(seed)
        tall = [*a[15:20], a[105]]
        return [is_false_joker(c) for c in tall] == [False, True, False, True, False, False]

    yield "SEED_DOUBLE_REROLL", search("double-reroll", both_in_stack_3, 1_000_000)


def file_text(data: dict[str, Any]) -> str:
    """A vector file's exact text, as --write writes it."""
    return dump(data) + "\n"


def main(argv: list[str] | None = None) -> int:
    return run_cli(
        argv,
        description=__doc__.splitlines()[0],
        write_help="write DIR/deal_*.json",
        search_help="re-find the special seeds",
        build_files=build_files,
        file_text=file_text,
        dump=dump,
        searches=_searches,
    )


if __name__ == "__main__":
    sys.exit(main())
