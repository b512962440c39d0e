"""The referee of the Deal vectors: docs/dealing.md implemented a second time, from its text alone.

A second, independent implementation of the documented shuffle and deal procedures,
written from docs/dealing.md (and the field comments of proto/okey/v1/deal.proto) as a
client in another language would write it. It deliberately imports nothing from
okey_rules or okey_server: scripts/derive_vectors.py (`--suite deal`) asks the engine for
every deal of tests/conformance/cases/deal.json and stops where the engine's answer and
this module's differ, so the vectors are never the server's own output played back.

What depends on the server's signing key is never pinned: a seeded deal's keyed id
(`dealId`, `status.seededDealId`), the sealed opening state, and a committed deal's
secret deal id and commitment (new at every CommitSeed). A seeded deal pins its kind
(`status.dealKind`) and that it has no commitment instead; a committed deal pins what
the commitment binds; a stacked deal (DealRequest.stacked) pins the position it was given.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass
from typing import Any

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
FORMAL = "DEAL_METHOD_FORMAL"
INFORMAL = "DEAL_METHOD_INFORMAL"


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


# --- committed deals: CommitSeed, then Deal under its deal id -------------------------


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
