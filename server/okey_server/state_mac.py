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
from okey_rules.bounded_cache import BoundedCache

MAC_LABEL = b"okey.v1.GameState\x00"
# Per key, an HMAC that has taken in the key and the label: each MAC then
# copies it instead of keying a new HMAC (a server uses one key).
_keyed: BoundedCache[bytes, hmac.HMAC] = BoundedCache(8)


def _hmac(key: bytes) -> hmac.HMAC:
    keyed = _keyed.get(key)
    if keyed is None:
        keyed = _keyed.put(key, hmac.new(key, MAC_LABEL, hashlib.sha256))
    return keyed.copy()


def state_mac(state: state_pb2.GameState, key: bytes) -> bytes:
    """The MAC the state should carry (its current `mac` is ignored, and left as it was)."""
    carried = state.mac
    state.ClearField("mac")
    try:
        payload = state.SerializeToString(deterministic=True)
    finally:
        if carried:
            state.mac = carried
    mac = _hmac(key)
    mac.update(payload)
    return mac.digest()


def sign_state(state: state_pb2.GameState, key: bytes) -> None:
    """Sets `state.mac` for the state as it stands."""
    state.mac = state_mac(state, key)


def state_mac_ok(state: state_pb2.GameState, key: bytes) -> bool:
    """True when the state carries the MAC this key gives it (constant-time compare)."""
    return hmac.compare_digest(state.mac, state_mac(state, key))
