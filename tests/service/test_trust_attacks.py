"""The attacker's side of docs/security.md: each test plays one party trying to learn or steer
what the service promises it cannot, through the public RPCs only.

1. A seat, from everything its own view shows, tries to re-deal the round in play.
2. A dishonest dealer tries to get more than one deal out of one commitment.
3. An observer tries to recover a guessable seed from a seeded deal's id.
4. Anyone who sees a token (a log, a proxy, a browser) tries to read the racks in it.
"""

from __future__ import annotations

import collections
import hashlib
import itertools
import math
from collections.abc import Iterator

import grpc
import pytest
from google.protobuf.message import Message
from okey.internal.v1 import round_state_pb2
from okey.v1 import deal_pb2, deal_pb2_grpc, game_pb2, game_pb2_grpc, ruleset_pb2, state_pb2
from okey_server.wire.sealing import STATE, unseal
from service_helpers import Violation, decode_error

pytestmark = pytest.mark.service

KEY = b"trust attack test key, 32 bytes!"
OTHER_KEY = b"another server's signing key...."
CHANNEL_OPTIONS = (("grpc.so_reuseport", 0),)
PLAYERS_SEEDS = ["ayse's seed", "burak 42", "cem: dice", "deniz \U0001f004"]
COMMITMENT_MISMATCH = "ERROR_REASON_COMMITMENT_MISMATCH"


class Table:
    """Stubs of one server (a table backend, or an attacker who can reach its RPCs)."""

    def __init__(self, channel: grpc.Channel) -> None:
        self.deals = deal_pb2_grpc.DealServiceStub(channel)
        self.game = game_pb2_grpc.GameServiceStub(channel)


@pytest.fixture
def table(make_server) -> Iterator[Table]:
    _, port = make_server(signing_key=KEY)
    with grpc.insecure_channel(f"127.0.0.1:{port}", options=CHANNEL_OPTIONS) as opened:
        yield Table(opened)


@pytest.fixture
def other_table(make_server) -> Iterator[Table]:
    _, port = make_server(signing_key=OTHER_KEY)
    with grpc.insecure_channel(f"127.0.0.1:{port}", options=CHANNEL_OPTIONS) as opened:
        yield Table(opened)


def seed_hash(seed: str) -> str:
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def committed_deal(table: Table, **inputs: object) -> tuple[deal_pb2.CommitSeedResponse,
                                                           deal_pb2.DealResponse]:
    committed = table.deals.CommitSeed(deal_pb2.CommitSeedRequest(
        client_seed_hashes=[seed_hash(s) for s in PLAYERS_SEEDS], **inputs
    ))
    dealt = table.deals.Deal(deal_pb2.DealRequest(
        deal_id=committed.deal_id, client_seeds=PLAYERS_SEEDS, **inputs
    ))
    return committed, dealt


def try_deal(table: Table, request: deal_pb2.DealRequest) -> deal_pb2.DealResponse | Violation:
    """The deal, or the refusal's details."""
    try:
        return table.deals.Deal(request)
    except grpc.RpcError as error:
        return decode_error(error)


def racks_of(dealt: deal_pb2.DealResponse) -> tuple[tuple[tuple[int, int, bool, int], ...], ...]:
    return tuple(
        tuple((t.color, t.number, t.false_joker, t.copy) for t in rack.tiles)
        for rack in dealt.racks
    )


def strings_in(message: Message) -> set[str]:
    """Every string and bytes value anywhere in `message` (bytes also as hex and text)."""
    found: set[str] = set()
    for field, value in message.ListFields():
        values = value if field.is_repeated else [value]
        for item in values:
            if isinstance(item, Message):
                found |= strings_in(item)
            elif isinstance(item, str):
                found.add(item)
            elif isinstance(item, bytes):
                found |= {item.hex(), item.decode("latin-1")}
    return found


# --- 1. A seat cannot re-deal the round in play from what it is shown ----------------------


def test_nothing_in_a_seats_view_or_events_re_deals_the_round(table):
    """Guarantee: views and events carry no value that, given to Deal or RevealSeed,
    reproduces the round before it is over (the old view's deal_id did)."""
    _, dealt = committed_deal(table)
    state = dealt.state
    opener = dealt.first_seat
    discard = dealt.racks[opener].tiles[0]
    moved = table.game.ApplyMove(game_pb2.ApplyMoveRequest(
        state=state, move=game_pb2.Move(kind=game_pb2.MOVE_KIND_DISCARD, seat=opener,
                                        tile=discard)))
    assert moved.legal
    seen: set[str] = set()
    for seat in range(4):
        view = table.game.PlayerView(game_pb2.PlayerViewRequest(state=moved.state, seat=seat))
        seen |= strings_in(view)
    for event in moved.events:
        seen |= strings_in(event)
    seen |= strings_in(moved.status)
    assert dealt.status.commitment in seen  # the public commitment is shown, by design
    secret_racks = racks_of(dealt)
    attempts = 0
    for value in sorted(seen):
        for request in (
            deal_pb2.DealRequest(deal_id=value, client_seeds=PLAYERS_SEEDS),
            deal_pb2.DealRequest(seed=value) if value else None,
            deal_pb2.DealRequest(seed=value, client_seeds=PLAYERS_SEEDS) if value else None,
        ):
            if request is None:
                continue
            attempts += 1
            answer = try_deal(table, request)
            if isinstance(answer, deal_pb2.DealResponse):
                assert racks_of(answer) != secret_racks, f"{value!r} re-deals the round"
            else:
                assert answer.code is grpc.StatusCode.INVALID_ARGUMENT
        with pytest.raises(grpc.RpcError) as refused:
            table.deals.RevealSeed(deal_pb2.RevealSeedRequest(deal_id=value, state=moved.state))
        assert refused.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert attempts >= 3


def test_the_table_cannot_get_the_seed_before_the_round_is_over(table):
    """Guarantee: RevealSeed answers only with the round's finished state."""
    committed, dealt = committed_deal(table)
    with pytest.raises(grpc.RpcError) as refused:
        table.deals.RevealSeed(deal_pb2.RevealSeedRequest(
            deal_id=committed.deal_id, state=dealt.state))
    assert decode_error(refused.value).fields == ("state",)
    assert "not over" in decode_error(refused.value).descriptions[0]


# --- 2. One commitment, one deal --------------------------------------------------------------


def test_a_dishonest_dealer_gets_exactly_one_deal_from_a_commitment(table):
    """Guarantee: the commitment binds the game, seats, dealer, method, round and the client
    seeds in seat order. Reorderings, dropped or added seeds, another dealer, player count,
    game or round are refused, so exactly one deal is obtainable (the old service gave 24
    deals from reordering four seeds alone)."""
    committed, honest = committed_deal(table)
    obtained = {racks_of(honest)}
    refusals = collections.Counter()
    tries: list[deal_pb2.DealRequest] = []
    for order in itertools.permutations(PLAYERS_SEEDS):
        tries.append(deal_pb2.DealRequest(deal_id=committed.deal_id, client_seeds=order))
    for dropped in range(4):
        tries.append(deal_pb2.DealRequest(
            deal_id=committed.deal_id,
            client_seeds=PLAYERS_SEEDS[:dropped] + PLAYERS_SEEDS[dropped + 1:]))
    tries.append(deal_pb2.DealRequest(deal_id=committed.deal_id, client_seeds=[]))
    for extra in ("dealer's own", "x"):
        tries.append(deal_pb2.DealRequest(
            deal_id=committed.deal_id, client_seeds=[*PLAYERS_SEEDS, extra]))
    for dealer in (1, 2, 3):
        tries.append(deal_pb2.DealRequest(
            deal_id=committed.deal_id, client_seeds=PLAYERS_SEEDS, dealer_seat=dealer))
    for players in (2, 3):
        tries.append(deal_pb2.DealRequest(
            deal_id=committed.deal_id, client_seeds=PLAYERS_SEEDS[:players],
            player_count=players))
    tries.append(deal_pb2.DealRequest(deal_id=committed.deal_id, client_seeds=PLAYERS_SEEDS,
                                      preset="101"))
    tries.append(deal_pb2.DealRequest(
        deal_id=committed.deal_id, client_seeds=PLAYERS_SEEDS,
        ruleset=ruleset_pb2.Ruleset(indicator_drawable_last=True)))
    tries.append(deal_pb2.DealRequest(deal_id=committed.deal_id, client_seeds=PLAYERS_SEEDS,
                                      round=2))
    tries.append(deal_pb2.DealRequest(deal_id=committed.deal_id, client_seeds=PLAYERS_SEEDS,
                                      method=deal_pb2.DEAL_METHOD_FORMAL))
    tries.append(deal_pb2.DealRequest(deal_id=committed.deal_id, client_seeds=PLAYERS_SEEDS,
                                      seed="my own seed"))
    for request in tries:
        answer = try_deal(table, request)
        if isinstance(answer, deal_pb2.DealResponse):
            obtained.add(racks_of(answer))
        else:
            assert answer.code is grpc.StatusCode.INVALID_ARGUMENT
            refusals[answer.reason] += 1
    assert len(obtained) == 1, f"{len(obtained)} different deals from one commitment"
    assert refusals[COMMITMENT_MISMATCH] >= 23 + 4 + 1 + 2 + 3 + 2 + 1 + 1 + 1 + 1


def test_a_formal_commitment_fixes_the_dice(table):
    """Guarantee: a committed formal deal's dice come from the committed seed: dice given
    with the deal are refused (the old service let the dealer choose among 30 rolls)."""
    formal = {"method": deal_pb2.DEAL_METHOD_FORMAL}
    committed, honest = committed_deal(table, **formal)
    obtained = {racks_of(honest)}
    for die_1, die_2 in itertools.product(range(1, 7), range(1, 6)):
        with pytest.raises(grpc.RpcError) as refused:
            table.deals.Deal(deal_pb2.DealRequest(
                deal_id=committed.deal_id, client_seeds=PLAYERS_SEEDS, dice=[die_1, die_2],
                **formal))
        assert decode_error(refused.value).fields == ("dice",)
    obtained.add(racks_of(table.deals.Deal(deal_pb2.DealRequest(
        deal_id=committed.deal_id, client_seeds=PLAYERS_SEEDS, **formal))))
    assert len(obtained) == 1


def test_a_commitment_from_another_key_or_tampered_is_refused(table, other_table):
    """Guarantee: only a deal id this server's keys sealed deals; a changed one does not."""
    committed = other_table.deals.CommitSeed(deal_pb2.CommitSeedRequest(no_client_seeds=True))
    with pytest.raises(grpc.RpcError) as refused:
        table.deals.Deal(deal_pb2.DealRequest(deal_id=committed.deal_id))
    assert decode_error(refused.value).reason == "ERROR_REASON_UNKNOWN_KEY"
    mine = table.deals.CommitSeed(deal_pb2.CommitSeedRequest(no_client_seeds=True)).deal_id
    flipped = mine[:-3] + ("A" if mine[-3] != "A" else "B") + mine[-2:]
    with pytest.raises(grpc.RpcError) as refused:
        table.deals.Deal(deal_pb2.DealRequest(deal_id=flipped))
    assert decode_error(refused.value).fields == ("deal_id",)


# --- 3. Seeded deal ids are keyed ----------------------------------------------------------------


GUESSES = [f"table-{t}-round-{r}" for t in range(1, 12) for r in range(1, 6)]


def test_a_guessable_seed_is_not_recovered_from_a_seeded_deal_id(table, other_table):
    """Guarantee: a seeded deal's id is an HMAC under the server's key: guessing seeds and
    hashing them (as the old unkeyed id allowed) finds nothing, and another key gives
    another id."""
    dealt = table.deals.Deal(deal_pb2.DealRequest(seed="table-7-round-3"))
    view = table.game.PlayerView(game_pb2.PlayerViewRequest(state=dealt.state, seat=2))
    assert view.deal_kind == state_pb2.DEAL_KIND_SEEDED
    shown = view.seeded_deal_id
    assert len(shown) == 32
    assert shown == dealt.status.seeded_deal_id
    for guess in GUESSES:
        for label in (b"", b"okey.v1.deal-id\x00", b"okey-rules seeded deal id v1\x00"):
            digest = hashlib.sha256(label + guess.encode()).hexdigest()
            assert shown not in (digest[:32], digest[32:])
    assert not any(guess in strings_in(view) for guess in GUESSES)
    other = other_table.deals.Deal(deal_pb2.DealRequest(seed="table-7-round-3"))
    assert other.status.seeded_deal_id != shown
    again = table.deals.Deal(deal_pb2.DealRequest(seed="table-7-round-3"))
    assert again.status.seeded_deal_id == shown  # same key, same seed: same id


# --- 4. The token hides every tile --------------------------------------------------------------


def _mid_round_tokens(
    table: Table, seed: str, moves: int
) -> list[tuple[bytes, deal_pb2.DealResponse]]:
    """Tokens of a seeded round after each of `moves` moves (draw from the wall, discard the
    first tile), with the deal they came from."""
    dealt = table.deals.Deal(deal_pb2.DealRequest(seed=seed))
    state, status = dealt.state, dealt.status
    tokens = [(state, dealt)]
    for _ in range(moves):
        seat = status.turn_seat
        if status.phase == state_pb2.PHASE_DRAW:
            move = game_pb2.Move(kind=game_pb2.MOVE_KIND_DRAW_FROM_WALL, seat=seat)
        else:
            view = table.game.PlayerView(game_pb2.PlayerViewRequest(state=state, seat=seat))
            move = game_pb2.Move(kind=game_pb2.MOVE_KIND_DISCARD, seat=seat, tile=view.rack[0])
        answer = table.game.ApplyMove(game_pb2.ApplyMoveRequest(state=state, move=move))
        assert answer.legal, answer.message
        state, status = answer.state, answer.status
        tokens.append((state, dealt))
    return tokens


def test_no_rack_can_be_found_in_a_token(table):
    """Guarantee: the state is encrypted: no rack's tile codes appear in the token, though
    the sealed plaintext holds them (so the search would find them if they leaked)."""
    for token, _ in _mid_round_tokens(table, "sealed racks", 12):
        plaintext, _ = unseal(KEY, STATE, token, "state", "state")
        inside = round_state_pb2.GameState.FromString(plaintext)
        for seat in inside.seats:
            codes = bytes(seat.rack)
            assert codes in plaintext  # packed codes, as the old clear state carried them
            for start in range(len(codes) - 3):
                assert codes[start:start + 4] not in token
        assert bytes(inside.wall)[:4] not in token


def test_token_bytes_look_random(table):
    """Guarantee: tokens look random: byte values are uniform (chi-square over many tokens)
    and no two tokens of different states share a long run of bytes."""
    tokens = [token[5:] for token, _ in _mid_round_tokens(table, "random looking", 60)]
    body = b"".join(tokens)
    assert len(body) > 10_000
    counts = collections.Counter(body)
    expected = len(body) / 256
    chi_square = sum((counts.get(b, 0) - expected) ** 2 / expected for b in range(256))
    # 255 degrees of freedom: the 99.9999th percentile is about 390.
    assert chi_square < 390, chi_square
    # Shannon entropy close to 8 bits a byte (a protobuf of codes is far below).
    entropy = -sum(c / len(body) * math.log2(c / len(body)) for c in counts.values())
    assert entropy > 7.9, entropy
    for first, second in itertools.combinations(tokens[:20], 2):
        assert first[:16] != second[:16]


def test_a_token_changed_anywhere_is_refused(table):
    """Guarantee: the token is authenticated: any flipped bit is INVALID_ARGUMENT."""
    token = table.deals.Deal(deal_pb2.DealRequest(seed="flip")).state
    for position in (0, 1, 5, len(token) // 2, len(token) - 1):
        changed = bytearray(token)
        changed[position] ^= 0x01
        with pytest.raises(grpc.RpcError) as refused:
            table.game.PlayerView(game_pb2.PlayerViewRequest(state=bytes(changed), seat=0))
        error = decode_error(refused.value)
        assert error.code is grpc.StatusCode.INVALID_ARGUMENT
        assert error.fields == ("state",)
        if position == 0:
            assert error.reason == "ERROR_REASON_TOKEN_VERSION"
        elif position < 5:
            assert error.reason == "ERROR_REASON_UNKNOWN_KEY"
        else:
            assert error.reason == "ERROR_REASON_INVALID_STATE"


# --- 5. Stacked positions are marked and never fair ----------------------------------------------


def test_a_stacked_position_is_marked_and_cannot_be_committed_or_revealed(table):
    """Guarantee: a position given tile by tile says so in every view and status, and no
    commitment or reveal can be attached to it."""
    source = table.deals.Deal(deal_pb2.DealRequest(seed="to stack"))
    stacked = deal_pb2.StackedDeal(
        racks=[deal_pb2.StackedRack(tiles=rack.tiles) for rack in source.racks],
        wall=source.wall, indicator=source.indicator)
    dealt = table.deals.Deal(deal_pb2.DealRequest(stacked=stacked))
    assert dealt.status.deal_kind == state_pb2.DEAL_KIND_STACKED
    assert not dealt.deal_id
    assert not dealt.seed
    assert not dealt.commitment
    assert racks_of(dealt) == racks_of(source)
    view = table.game.PlayerView(game_pb2.PlayerViewRequest(state=dealt.state, seat=1))
    assert view.deal_kind == state_pb2.DEAL_KIND_STACKED
    committed = table.deals.CommitSeed(deal_pb2.CommitSeedRequest(no_client_seeds=True))
    with pytest.raises(grpc.RpcError) as refused:
        table.deals.Deal(deal_pb2.DealRequest(deal_id=committed.deal_id, stacked=stacked))
    assert decode_error(refused.value).fields == ("stacked",)
