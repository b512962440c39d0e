"""A round's outcome (okey_rules.play.round_types.Outcome) <-> okey.v1.RoundOutcome, for
both games: in answers, in events and inside the sealed state."""

from __future__ import annotations

from okey.v1 import hand_pb2, state_pb2, tile_pb2
from okey_rules.play.round_types import Outcome, RoundEnd
from okey_rules.ruleset import Ruleset
from okey_rules.search.hand import check_hand
from okey_rules.tiles import TILE_OF_CODE, Tile

from okey_server.wire.convert_hand import WIN_KIND_TO_PROTO, arrangement_bytes
from okey_server.wire.convert_tile import fill_tile, tile_from_proto, tile_messages

WIN_KIND_TO_DOMAIN = {value: kind for kind, value in WIN_KIND_TO_PROTO.items()}


def fill_outcome(
    target: state_pb2.RoundOutcome,
    outcome: Outcome,
    rules: Ruleset,
    okey: Tile,
    with_arrangement: bool = True,
) -> None:
    """Writes `outcome` into `target`; a classic win's arrangement is rebuilt from the
    winner's hand (the sealed state keeps the hand only: `with_arrangement=False`)."""
    target.drawn = outcome.drawn
    target.void_round = outcome.end is RoundEnd.VOID
    target.move_number = outcome.move_number
    for seat, tile in outcome.gosterme:
        claim = target.gosterme.add(seat=seat)
        fill_tile(claim.tile, TILE_OF_CODE[tile])
    if not outcome.won:
        return
    target.winner_seat = outcome.winner
    if outcome.win_kind is not None:
        target.win_kind = WIN_KIND_TO_PROTO[outcome.win_kind]
    target.okey_discard = outcome.okey_discard
    target.one_turn_finish = outcome.one_turn
    if outcome.discard is not None:
        fill_tile(target.discard, TILE_OF_CODE[outcome.discard])
    target.hand.extend(tile_messages(outcome.hand))
    if with_arrangement and outcome.hand:
        verdict = check_hand([TILE_OF_CODE[c] for c in outcome.hand], okey, rules)
        if verdict.arrangement is not None:
            target.arrangement.CopyFrom(
                hand_pb2.Arrangement.FromString(arrangement_bytes(verdict.arrangement))
            )


def outcome_from_proto(message: state_pb2.RoundOutcome, field: str) -> Outcome:
    """The outcome a sealed state keeps (the server wrote it)."""

    def code(tile: tile_pb2.Tile, where: str) -> int:
        return tile_from_proto(tile, where).code

    end = (RoundEnd.VOID if message.void_round
           else RoundEnd.DRAWN if message.drawn else RoundEnd.WON)
    return Outcome(
        end,
        move_number=message.move_number,
        winner=message.winner_seat,
        win_kind=WIN_KIND_TO_DOMAIN.get(message.win_kind),
        okey_discard=message.okey_discard,
        discard=code(message.discard, f"{field}.discard") if message.HasField("discard") else None,
        hand=tuple(code(tile, f"{field}.hand[{i}]") for i, tile in enumerate(message.hand)),
        gosterme=tuple(
            (claim.seat, code(claim.tile, f"{field}.gosterme[{i}].tile"))
            for i, claim in enumerate(message.gosterme)
        ),
        one_turn=message.one_turn_finish,
    )
