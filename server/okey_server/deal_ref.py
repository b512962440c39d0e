"""A state's deal reference, shown as the public facts of its deal (kind, commitment, id)."""

from __future__ import annotations

from okey.v1 import state_pb2

# A state's deal reference (its `deal_id`) tells the deal kind by its length:
# a committed deal's commitment is 64 hex digits, a seeded deal's keyed id 32,
# and a stacked position has none. The server writes all three, so the
# lengths are its own convention, read only here.
COMMITMENT_HEX_DIGITS = 64
SEEDED_ID_HEX_DIGITS = 32


def deal_kind(deal_ref: str) -> int:
    """The okey.v1.DealKind of a state's deal reference."""
    if len(deal_ref) == COMMITMENT_HEX_DIGITS:
        return state_pb2.DEAL_KIND_COMMITTED
    if len(deal_ref) == SEEDED_ID_HEX_DIGITS:
        return state_pb2.DEAL_KIND_SEEDED
    return state_pb2.DEAL_KIND_STACKED


def fill_deal_facts(target: object, deal_ref: str) -> None:
    """Sets `deal_kind`, `commitment` and `seeded_deal_id` on a RoundStatus or a view."""
    kind = deal_kind(deal_ref)
    target.deal_kind = kind  # type: ignore[attr-defined]
    if kind == state_pb2.DEAL_KIND_COMMITTED:
        target.commitment = deal_ref  # type: ignore[attr-defined]
    elif kind == state_pb2.DEAL_KIND_SEEDED:
        target.seeded_deal_id = deal_ref  # type: ignore[attr-defined]
