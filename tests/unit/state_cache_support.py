"""Every state the engine reaches survives the sealed state token unchanged.

The server remembers the states it sealed and hands the remembered object
back when a client returns their token (convert_state's decoded-state cache).
That is only right if opening and decoding the token in full gives the very
same state, so the property tests check it at every step of their random
rounds.
"""

from __future__ import annotations

import dataclasses

from okey_rules.play.game101_types import State101
from okey_rules.play.game_types import GameState
from okey_server.wire.convert_state import state_from_token, state_token

KEY = b"sealed round trip key, 32 bytes!"


def assert_sealed_round_trip(state: GameState | State101) -> None:
    token = state_token(state, KEY)
    assert isinstance(token, bytes)
    decoded = state_from_token(token, KEY, cached=False)
    differ = [
        f"{field.name}: {getattr(state, field.name)!r} became {getattr(decoded, field.name)!r}"
        for field in dataclasses.fields(state)
        if getattr(state, field.name) != getattr(decoded, field.name)
    ]
    assert not differ, differ
    # The cache answers the same object for the state just sealed.
    assert state_from_token(token, KEY) is state
    # Sealing is deterministic (AES-SIV): the decoded state seals to the same
    # token, which is what lets the cache key on the token's bytes.
    assert state_token(decoded, KEY) == token
