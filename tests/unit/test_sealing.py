"""The sealed token (okey_server.wire.sealing; docs/security.md, "Sealed tokens"): versioned,
key-identified, encrypted and authenticated, deterministic, and opened by any key of a ring."""

from __future__ import annotations

import pytest
from okey_server.wire.sealing import (
    DEAL_ID,
    KEY_ID_BYTES,
    REASON_TOKEN_VERSION,
    REASON_UNKNOWN_KEY,
    STATE,
    TOKEN_VERSION,
    KeyRing,
    TokenError,
    seal,
    text_token,
    token_from_text,
    unseal,
)

OLD = b"the key being rotated out, 32 b."
NEW = b"the key being rotated in, 32 by."
PLAINTEXT = b"\x0a\x04rack\x12\x03\x01\x02\x03 every tile of a round"


def test_a_token_is_version_key_id_then_ciphertext():
    token = seal(NEW, STATE, PLAINTEXT)
    assert token[0] == TOKEN_VERSION
    assert token[1 : 1 + KEY_ID_BYTES] == KeyRing(NEW).current.key_id
    # AES-SIV: a 16-byte synthetic IV, then as many bytes as the plaintext.
    assert len(token) == 1 + KEY_ID_BYTES + 16 + len(PLAINTEXT)
    assert PLAINTEXT[:8] not in token


def test_sealing_is_deterministic_so_the_same_state_gives_the_same_token():
    assert seal(NEW, STATE, PLAINTEXT) == seal(NEW, STATE, PLAINTEXT)
    assert seal(NEW, STATE, PLAINTEXT) != seal(NEW, STATE, PLAINTEXT + b"!")


def test_a_token_opens_to_its_plaintext_under_its_key():
    plaintext, key = unseal(NEW, STATE, seal(NEW, STATE, PLAINTEXT), "state", "state")
    assert plaintext == PLAINTEXT
    assert key.key_id == KeyRing(NEW).current.key_id


def test_a_ring_opens_tokens_of_its_previous_keys_and_seals_with_the_current_one():
    """Rotation: tokens made under a listed previous key still open; new ones use the
    current key."""
    ring = KeyRing(NEW, [OLD])
    old_token = seal(OLD, STATE, PLAINTEXT)
    assert unseal(ring, STATE, old_token, "state", "state")[0] == PLAINTEXT
    assert seal(ring, STATE, PLAINTEXT) == seal(NEW, STATE, PLAINTEXT)
    assert len(ring) == 2


def test_a_key_outside_the_ring_is_named_as_unknown():
    with pytest.raises(TokenError) as refused:
        unseal(NEW, STATE, seal(OLD, STATE, PLAINTEXT), "state", "state")
    assert refused.value.reason == REASON_UNKNOWN_KEY
    assert refused.value.field == "state"


def test_another_format_version_is_refused_clearly_never_misread():
    """An old server's state (a protobuf message, first byte 0x0a) or a future format."""
    token = seal(NEW, STATE, PLAINTEXT)
    for first in (0x00, 0x0A, TOKEN_VERSION + 1):
        with pytest.raises(TokenError) as refused:
            unseal(NEW, STATE, bytes((first,)) + token[1:], "state", "state")
        assert refused.value.reason == REASON_TOKEN_VERSION
        assert "format" in refused.value.description


@pytest.mark.parametrize("position", [5, 6, 20, -1])
def test_any_changed_byte_fails_authentication(position):
    token = bytearray(seal(NEW, STATE, PLAINTEXT))
    token[position] ^= 0x80
    with pytest.raises(TokenError) as refused:
        unseal(NEW, STATE, bytes(token), "state", "state")
    assert refused.value.reason is None  # the field's own reason: INVALID_STATE
    assert "does not open" in refused.value.description


def test_a_deal_id_is_not_accepted_as_a_state_nor_the_reverse():
    """Each purpose has its own subkey and associated data."""
    with pytest.raises(TokenError):
        unseal(NEW, STATE, seal(NEW, DEAL_ID, PLAINTEXT), "state", "state")
    with pytest.raises(TokenError):
        unseal(NEW, DEAL_ID, seal(NEW, STATE, PLAINTEXT), "deal_id", "deal id")


def test_empty_and_short_tokens_are_refused_naming_the_field():
    for token in (b"", bytes((TOKEN_VERSION,)) + b"abc"):
        with pytest.raises(TokenError) as refused:
            unseal(NEW, STATE, token, "rounds[2].state", "state")
        assert refused.value.field == "rounds[2].state"


def test_deal_ids_travel_as_url_safe_text():
    token = seal(NEW, DEAL_ID, PLAINTEXT)
    text = text_token(token)
    assert text.isascii()
    assert not set(text) & set("+/=")
    assert token_from_text(text, "deal_id", "deal id") == token
    with pytest.raises(TokenError):
        token_from_text("not base64 at all!", "deal_id", "deal id")
