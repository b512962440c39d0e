"""The trust examples of the docs run as written (docs/dealing.md, "Deal ids", "Fairness you
can verify", "How a player verifies a committed deal"; docs/operations.md, "Rotating the
signing key").

A player verifies a committed deal with the Python that docs/dealing.md prints, not with
the server's code: these tests execute that very code, hold it to the server's
`commitment_for` and to live CommitSeed and Deal answers, and check every value the
worked examples quote. The rotation order of docs/operations.md is played on key rings.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from google.protobuf.json_format import MessageToDict
from google.rpc import error_details_pb2, status_pb2
from okey.v1 import deal_pb2, state_pb2
from okey_rules.dealing.deal import deal
from okey_rules.dealing.deal_fairness import (
    CommittedInputs,
    client_seed_hash,
    commitment_for,
    mixed_seed,
    seeded_deal_id,
)
from okey_rules.dealing.deal_types import DealMethod, rack_notation
from okey_rules.errors import InvalidInputError
from okey_rules.ruleset import preset
from okey_rules.tiles import Tile, okey_for
from okey_server.rpc.config import Config, parse_signing_key
from okey_server.rpc.errors import invalid_input_status
from okey_server.services.deal_request import open_deal_id
from okey_server.services.deal_servicer import DealServicer
from okey_server.wire.convert_state import state_from_token
from okey_server.wire.convert_tile import tile_messages
from okey_server.wire.sealing import REASON_UNKNOWN_KEY, KeyRing, SealingKey, TokenError

ROOT = Path(__file__).resolve().parents[2]
DEALING = (ROOT / "docs" / "dealing.md").read_text(encoding="utf-8")
VERIFY_SECTION = DEALING[
    DEALING.index("## How a player verifies a committed deal"):DEALING.index("## Stacked deals")
]
KEY_A = bytes(range(32))
KEY_B = bytes(range(100, 132))


def _section_blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", text, re.DOTALL)


def _doc_functions() -> dict[str, Any]:
    """The verifier's Python of docs/dealing.md, executed as printed."""
    blocks = _section_blocks(VERIFY_SECTION, "python")
    assert len(blocks) == 1, "docs/dealing.md's verifier should be one Python block"
    namespace: dict[str, Any] = {}
    exec(compile(blocks[0], "docs/dealing.md", "exec"), namespace)
    return namespace


def _doc_mix() -> Callable[[str, list[str]], str]:
    """The mixed-seed Python of docs/dealing.md ("Client seeds"), executed as printed."""
    section = DEALING[DEALING.index("## Client seeds"):DEALING.index("## The random stream")]
    namespace: dict[str, Any] = {}
    exec(compile(_section_blocks(section, "python")[0], "docs/dealing.md", "exec"), namespace)
    return namespace["mixed_seed"]  # type: ignore[no-any-return]


DOC = _doc_functions()
doc_mixed_seed = _doc_mix()
commitment_doc: Callable[[str, dict[str, Any]], str] = DOC["commitment"]
my_seat_is_bound: Callable[[dict[str, Any], int, str], bool] = DOC["my_seat_is_bound"]
client_seeds_match: Callable[[dict[str, Any], list[str]], bool] = DOC["client_seeds_match"]


def _quoted(pattern: str, text: str = VERIFY_SECTION) -> str:
    match = re.search(pattern, " ".join(text.split()))
    assert match, f"docs/dealing.md lost the text matching {pattern!r}"
    return match[1]


def _example() -> tuple[list[str], dict[str, Any], str]:
    """The worked example's client seeds, published inputs and revealed seed."""
    seeds_text = _quoted(r"chose the client seeds ((?:`[^`]+`(?:, )?)+)\. The committed")
    client_seeds = re.findall(r"`([^`]+)`", seeds_text)
    blocks = _section_blocks(VERIFY_SECTION, "json")
    assert len(blocks) == 1
    seed = _quoted(r"With the revealed seed `([0-9a-f]{64})`")
    return client_seeds, json.loads(blocks[0]), seed


def _inputs(published: dict[str, Any]) -> CommittedInputs:
    """The server's CommittedInputs of a published (proto3 JSON) `inputs`."""
    games = {"GAME_CLASSIC": "classic", "GAME_OKEY_101": "101"}
    methods = {"DEAL_METHOD_INFORMAL": "informal", "DEAL_METHOD_FORMAL": "formal"}
    return CommittedInputs(
        game=games[published["game"]],
        player_count=published.get("playerCount", 0),
        dealer=published.get("dealerSeat", 0),
        method=methods[published["method"]],
        round=published.get("round", 0),
        client_seed_count=published.get("clientSeedCount", 0),
        client_seed_hashes=tuple(bytes.fromhex(h) for h in published.get("clientSeedHashes", [])),
    )


# --- the worked example -----------------------------------------------------------------------


def test_worked_example_commitment_is_the_documented_encoding_and_the_servers():
    """Fairness you can verify: the commitment is SHA-256 of the documented encoding; the
    doc's code, the quoted value and the server's commitment_for agree."""
    _client_seeds, published, seed = _example()
    quoted = _quoted(r"the commitment is `([0-9a-f]{64})`")
    assert commitment_doc(seed, published) == quoted
    assert commitment_for(seed, _inputs(published)) == quoted


def test_worked_example_inputs_are_what_commit_seed_resolves():
    """The published inputs of the example are the ones a CommitSeed for that table answers
    (four players, classic, informal, dealer 0, round 1, the seats' hashes in seat order)."""
    client_seeds, published, _ = _example()
    answer = _commit(deal_pb2.CommitSeedRequest(
        client_seed_hashes=[hashlib.sha256(c.encode()).hexdigest() for c in client_seeds]
    ))
    assert MessageToDict(answer.inputs) == published


def test_worked_example_every_seat_finds_its_client_seed_at_its_index():
    """How a player verifies, step 1 and 5: each seat's hash at its own index, every client
    seed hashing to its seat's committed hash."""
    client_seeds, published, _ = _example()
    for seat, client_seed in enumerate(client_seeds):
        assert my_seat_is_bound(published, seat, client_seed)
    assert client_seeds_match(published, client_seeds)


def test_swapped_hashes_fail_the_seat_order_check():
    """Step 1, the seat-order check: a commitment whose hashes of seats 0 and 1 were swapped
    fails seat 0's check (and seat 1's), and so does a hash missing or a seed not one's own."""
    client_seeds, published, _ = _example()
    hashes = published["clientSeedHashes"]
    swapped = {**published, "clientSeedHashes": [hashes[1], hashes[0], *hashes[2:]]}
    assert not my_seat_is_bound(swapped, 0, client_seeds[0])
    assert not my_seat_is_bound(swapped, 1, client_seeds[1])
    short = {**published, "clientSeedHashes": hashes[:3]}
    assert not my_seat_is_bound(short, 0, client_seeds[0])
    assert not my_seat_is_bound(published, 3, "a seed that is not seat 3's")
    assert not client_seeds_match(published, [client_seeds[1], client_seeds[0], *client_seeds[2:]])


def test_worked_example_deals_the_quoted_racks():
    """Step 6: the mixed seed quoted is the documented mix (the doc's own "Client seeds" code
    too), and it turns up the indicator and deals seat 1 the rack the example quotes."""
    client_seeds, _, seed = _example()
    quoted_mix = _quoted(r"the mixed seed is `([0-9a-f]{64})`")
    assert doc_mixed_seed(seed, client_seeds) == quoted_mix == mixed_seed(seed, client_seeds)
    dealt = deal(preset("classic"), 4, 0, DealMethod.INFORMAL, seed=quoted_mix)
    indicator = Tile.from_code(dealt.indicator)
    assert f"turns up {indicator} (okey {okey_for(indicator)})" in " ".join(VERIFY_SECTION.split())
    assert rack_notation(dealt.racks[1]) == _quoted(r"seat 1 holds `([^`]+)`")


# --- live answers: the doc's code against CommitSeed and Deal --------------------------------


def _servicer(key: bytes = KEY_A, previous: tuple[bytes, ...] = ()) -> DealServicer:
    return DealServicer(Config(signing_key=key, previous_signing_keys=previous))


def _commit(request: deal_pb2.CommitSeedRequest, key: bytes = KEY_A) -> deal_pb2.CommitSeedResponse:
    return asyncio.run(_servicer(key).CommitSeed(request, None))  # type: ignore[arg-type]


def _deal(request: deal_pb2.DealRequest, key: bytes = KEY_A) -> deal_pb2.DealResponse:
    return asyncio.run(_servicer(key).Deal(request, None))  # type: ignore[arg-type]


SEEDS = ["9f1c4be07a2d5e3816c0f4a2b7d9e160", "07d3aa91c5e24f68b13e9d0c7a5f2b48",
         "c84e1f2a9b06d37e5a4c0b1f8e2d6a93", "5a0b9e4d2c7f13a68e1d4b0c9f3a7e25"]


@pytest.mark.parametrize(
    "request_fields",
    [
        {"client_seed_hashes": [hashlib.sha256(s.encode()).hexdigest() for s in SEEDS]},
        {"client_seed_hashes": [hashlib.sha256(s.encode()).hexdigest() for s in SEEDS],
         "dealer_seat": 2, "round": 7, "method": deal_pb2.DEAL_METHOD_FORMAL},
        {"client_seed_hashes": [hashlib.sha256(s.encode()).hexdigest() for s in SEEDS[:3]],
         "player_count": 3, "dealer_seat": 1},
        {"client_seed_hashes": [hashlib.sha256(s.encode()).hexdigest() for s in SEEDS],
         "preset": "101", "dealer_seat": 3},
        {"no_client_seeds": True, "dealer_seat": 1},
    ],
    ids=["classic", "formal-dealer-2-round-7", "three-seats", "okey-101", "no-client-seeds"],
)
def test_doc_commitment_matches_a_live_commit_seed_answer(request_fields):
    """The doc's commitment() over CommitSeed's own `inputs` (proto3 JSON, zeros left out)
    and its seed gives the commitment CommitSeed answered. The seed is read from the deal id
    here (a server-side shortcut: RevealSeed gives the same seed, but only after a whole
    round), since what is under test is the encoding, not the reveal."""
    answer = _commit(deal_pb2.CommitSeedRequest(**request_fields))
    seed = open_deal_id(KEY_A, answer.deal_id).seed
    published = MessageToDict(answer.inputs)
    assert commitment_doc(seed, published) == answer.commitment
    count = published.get("clientSeedCount", 0)
    for seat in range(count):
        assert my_seat_is_bound(published, seat, SEEDS[seat])


def test_the_committed_deal_is_the_one_a_player_recomputes():
    """Step 6 against the server: the racks Deal answers under the commitment are the racks
    of the documented mix of the seed and the client seeds, dealt as documented."""
    hashes = [hashlib.sha256(s.encode()).hexdigest() for s in SEEDS]
    committed = _commit(deal_pb2.CommitSeedRequest(client_seed_hashes=hashes, dealer_seat=2))
    dealt = _deal(deal_pb2.DealRequest(
        deal_id=committed.deal_id, client_seeds=SEEDS, dealer_seat=2
    ))
    assert dealt.seed == ""
    assert dealt.commitment == committed.commitment
    assert dealt.status.deal_kind == state_pb2.DEAL_KIND_COMMITTED
    assert dealt.status.commitment == committed.commitment
    seed = open_deal_id(KEY_A, committed.deal_id).seed
    recomputed = deal(preset("classic"), 4, 2, seed=doc_mixed_seed(seed, SEEDS))
    assert [list(rack.tiles) for rack in dealt.racks] == [
        list(tile_messages(rack)) for rack in recomputed.racks
    ]


def test_swapped_client_seeds_are_refused_on_the_first_seat():
    """docs/dealing.md's example: passing seats 0 and 1's client seeds in each other's
    places is refused on client_seeds[0]."""
    hashes = [hashlib.sha256(s.encode()).hexdigest() for s in SEEDS]
    committed = _commit(deal_pb2.CommitSeedRequest(client_seed_hashes=hashes))
    with pytest.raises(InvalidInputError) as refused:
        _deal(deal_pb2.DealRequest(
            deal_id=committed.deal_id, client_seeds=[SEEDS[1], SEEDS[0], *SEEDS[2:]]
        ))
    assert refused.value.field == "client_seeds[0]"


@pytest.mark.parametrize("changed", [{"player_count": 3}, {"dealer_seat": 1}])
def test_a_commitment_mismatch_carries_its_reason(changed):
    """docs/dealing.md, Errors: every refusal of a Deal under a commitment because an input
    differs carries ERROR_REASON_COMMITMENT_MISMATCH."""
    hashes = [hashlib.sha256(s.encode()).hexdigest() for s in SEEDS]
    committed = _commit(deal_pb2.CommitSeedRequest(client_seed_hashes=hashes))
    with pytest.raises(InvalidInputError) as refused:
        _deal(deal_pb2.DealRequest(deal_id=committed.deal_id, client_seeds=SEEDS, **changed))
    status = invalid_input_status(refused.value)
    assert "ERROR_REASON_COMMITMENT_MISMATCH" in _status_reasons(status)


def _status_reasons(status: Any) -> str:
    """The ErrorInfo reason of a status the server would send."""
    for key, value in status.trailing_metadata:
        if key == "grpc-status-details-bin":
            details = status_pb2.Status.FromString(value)
            for detail in details.details:
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info):
                    return info.reason
    return ""


# --- the keyed seeded id ------------------------------------------------------------------------


def _hkdf_sha256(key: bytes, salt: bytes, info: bytes, length: int) -> bytes:
    """RFC 5869, written out so the documented derivation is checked without the server's
    HKDF."""
    prk = hmac.new(salt, key, hashlib.sha256).digest()
    out, block, counter = b"", b"", 1
    while len(out) < length:
        block = hmac.new(prk, block + info + bytes((counter,)), hashlib.sha256).digest()
        out += block
        counter += 1
    return out[:length]


def test_seeded_deal_id_example_is_the_documented_keyed_hmac():
    """Deal ids: id = hex(first 16 bytes of HMAC-SHA256(K, label 0x00 || seed)), K derived by
    HKDF-SHA256 from the signing key; the quoted example is what that formula, the server's
    function and a live Deal all give."""
    key_text = _quoted(r"With the signing key `([0-9a-f]{64})`", DEALING)
    quoted = _quoted(r"seed `42` alone has the id `([0-9a-f]{32})`", DEALING)
    key = parse_signing_key(key_text)
    derived = _hkdf_sha256(key, b"okey-rules/sealing", b"seeded deal id", 32)
    by_formula = hmac.new(
        derived, b"okey-rules seeded deal id v1\x00" + b"42", hashlib.sha256
    ).digest()[:16].hex()
    assert by_formula == quoted
    assert seeded_deal_id(SealingKey.from_secret(key).seeded_id_key, "42") == quoted
    answer = _deal(deal_pb2.DealRequest(seed="42"), key)
    assert answer.deal_id == answer.status.seeded_deal_id == quoted
    assert answer.commitment == ""


def test_two_keys_give_a_seed_two_seeded_ids():
    """Deal ids: servers with different keys give the same seed different ids."""
    ids = {_deal(deal_pb2.DealRequest(seed="42"), key).deal_id for key in (KEY_A, KEY_B)}
    assert len(ids) == 2


# --- rotating the signing key (docs/operations.md) --------------------------------------------


def _state_under(key: bytes, previous: tuple[bytes, ...] = ()) -> bytes:
    """An opening state sealed by an instance configured with `key` and `previous`."""
    request = deal_pb2.DealRequest(seed="rotation")
    return asyncio.run(_servicer(key, previous).Deal(request, None)).state  # type: ignore[arg-type]


def _opens(token: bytes, ring: KeyRing) -> bool:
    """Whether an instance with `ring` opens `token`; a refusal must be the unknown key's."""
    refusal: TokenError | None = None
    try:
        state_from_token(token, ring, cached=False)  # in full: the process cache is key-blind
    except TokenError as refused:
        refusal = refused
    if refusal is None:
        return True
    assert refusal.reason == REASON_UNKNOWN_KEY
    return False


def test_rotation_in_the_documented_order_fails_no_call():
    """Rotating the signing key: at every point of the three rollouts, a token any instance
    seals opens on every instance that may receive it."""
    old_config, step1, step2, step3 = (
        KeyRing(KEY_A), KeyRing(KEY_A, [KEY_B]), KeyRing(KEY_B, [KEY_A]), KeyRing(KEY_B)
    )
    # Rollout 1: old and step-1 instances side by side, both sealing with A.
    for sealer in ((KEY_A, ()), (KEY_A, (KEY_B,))):
        token = _state_under(*sealer)
        assert _opens(token, old_config)
        assert _opens(token, step1)
    # Rollout 2: step-1 instances (seal A) beside step-2 ones (seal B).
    for sealer in ((KEY_A, (KEY_B,)), (KEY_B, (KEY_A,))):
        token = _state_under(*sealer)
        assert _opens(token, step1)
        assert _opens(token, step2)
    # Rollout 3: once no A token can come back, instances without A open every B token.
    token = _state_under(KEY_B, (KEY_A,))
    assert _opens(token, step2)
    assert _opens(token, step3)
    assert not _opens(_state_under(KEY_A), step3)


def test_switching_before_every_instance_holds_the_new_key_fails_calls():
    """Rotating the signing key: why step 1 comes first. An instance sealing with B while
    another still runs the old configuration hands out tokens the other refuses."""
    token = _state_under(KEY_B, (KEY_A,))
    assert not _opens(token, KeyRing(KEY_A))


def test_commitment_does_not_depend_on_the_key():
    """Rotating the signing key: commitments are plain SHA-256; a deal id committed under A
    is dealt by an instance sealing with B that lists A, with the same commitment."""
    hashes = [client_seed_hash(s).hex() for s in SEEDS]
    committed = _commit(deal_pb2.CommitSeedRequest(client_seed_hashes=hashes), KEY_A)
    dealt = asyncio.run(_servicer(KEY_B, (KEY_A,)).Deal(  # type: ignore[arg-type]
        deal_pb2.DealRequest(deal_id=committed.deal_id, client_seeds=SEEDS), None
    ))
    assert dealt.commitment == committed.commitment
