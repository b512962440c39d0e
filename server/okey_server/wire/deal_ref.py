"""A state's deal reference, shown as the public facts of its deal (kind, commitment, id)."""

from __future__ import annotations

from typing import Protocol

from okey.v1 import state_pb2

# A state's deal reference (its `deal_id`) tells the deal kind by its length:
# a committed deal's commitment is 64 hex digits, a seeded deal's keyed id 32,
# and a stacked position has none. The server writes all three, so the
# lengths are its own convention, read only here.
COMMITMENT_HEX_DIGITS = 64
SEEDED_ID_HEX_DIGITS = 32


class DealFacts(Protocol):
    """A message with the public facts of a deal: okey.v1.RoundStatus, PlayerViewResponse."""

    deal_kind: state_pb2.DealKind
    commitment: str
    seeded_deal_id: str


def deal_kind(deal_ref: str) -> state_pb2.DealKind:
    """The okey.v1.DealKind of a state's deal reference."""
    if len(deal_ref) == COMMITMENT_HEX_DIGITS:
        return state_pb2.DEAL_KIND_COMMITTED
    if len(deal_ref) == SEEDED_ID_HEX_DIGITS:
        return state_pb2.DEAL_KIND_SEEDED
    return state_pb2.DEAL_KIND_STACKED


def fill_deal_facts(target: DealFacts, deal_ref: str) -> None:
    """Sets `deal_kind`, `commitment` and `seeded_deal_id` on a RoundStatus or a view."""
    kind = deal_kind(deal_ref)
    target.deal_kind = kind
    if kind == state_pb2.DEAL_KIND_COMMITTED:
        target.commitment = deal_ref
    elif kind == state_pb2.DEAL_KIND_SEEDED:
        target.seeded_deal_id = deal_ref
