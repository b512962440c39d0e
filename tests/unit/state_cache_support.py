"""Every state the engine reaches survives the signed okey.v1.GameState unchanged.

The server remembers the states it signed and hands the remembered object
back when a client returns one (convert_state's decoded-state cache). That is
only right if decoding the message in full gives the very same state, so the
property tests check it at every step of their random rounds.
"""

from __future__ import annotations

import dataclasses

from okey_rules.game101_types import State101
from okey_rules.game_types import GameState
from okey_server.convert_state import any_state_from_proto, state_to_proto

KEY = b"signed round trip key, 32 bytes!"


def assert_signed_round_trip(state: GameState | State101) -> None:
    message = state_to_proto(state, KEY)
    decoded = any_state_from_proto(message, KEY, cached=False)
    differ = [
        f"{field.name}: {getattr(state, field.name)!r} became {getattr(decoded, field.name)!r}"
        for field in dataclasses.fields(state)
        if getattr(state, field.name) != getattr(decoded, field.name)
    ]
    assert not differ, differ
    # The cache answers the same object for the state just signed.
    assert any_state_from_proto(message, KEY) is state
