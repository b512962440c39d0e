"""Signs and checks the MAC of an okey.v1.GameState with the server's signing key.

mac = HMAC-SHA256(key, "okey.v1.GameState\\0" || deterministic serialization
of the state with `mac` cleared). Only the server that holds the key checks
it, so the serialization need not be reproducible elsewhere; it only has to be
stable for this server, which deterministic serialization is.
"""

from __future__ import annotations

import hashlib
import hmac

from okey.v1 import state_pb2

MAC_LABEL = b"okey.v1.GameState\x00"


def state_mac(state: state_pb2.GameState, key: bytes) -> bytes:
    """The MAC the state should carry (its current `mac` is ignored, and left as it was)."""
    carried = state.mac
    state.ClearField("mac")
    try:
        payload = state.SerializeToString(deterministic=True)
    finally:
        if carried:
            state.mac = carried
    return hmac.new(key, MAC_LABEL + payload, hashlib.sha256).digest()


def sign_state(state: state_pb2.GameState, key: bytes) -> None:
    """Sets `state.mac` for the state as it stands."""
    state.mac = state_mac(state, key)


def state_mac_ok(state: state_pb2.GameState, key: bytes) -> bool:
    """True when the state carries the MAC this key gives it (constant-time compare)."""
    return hmac.compare_digest(state.mac, state_mac(state, key))
