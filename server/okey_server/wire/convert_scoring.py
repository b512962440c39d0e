"""okey.v1 scoring messages <-> okey_rules.scores.scoring: round inputs in, scored rounds out."""

from __future__ import annotations

from okey.v1 import ruleset_pb2, scoring_pb2
from okey_rules.errors import InvalidInputError
from okey_rules.play.round import RoundState
from okey_rules.ruleset import Ruleset
from okey_rules.scores.scoring import judge_hand
from okey_rules.scores.scoring_types import RoundResult, RoundScore, ScoreRule, Table
from okey_rules.tiles import okey_for

from okey_server.wire.convert_hand import WIN_KIND_TO_PROTO
from okey_server.wire.convert_ruleset import ruleset_from_proto
from okey_server.wire.convert_state import state_from_token
from okey_server.wire.convert_tile import COLOR_TO_DOMAIN, tile_from_proto, tiles_from_proto
from okey_server.wire.proto_enum import enum_value
from okey_server.wire.sealing import KeyRing

WIN_KIND_TO_DOMAIN = {value: kind for kind, value in WIN_KIND_TO_PROTO.items()}
RULE_TO_PROTO: dict[ScoreRule, scoring_pb2.ScoreRule] = {
    rule: enum_value(scoring_pb2.ScoreRule, f"SCORE_RULE_{rule.name}") for rule in ScoreRule
}


def table_from_proto(message: scoring_pb2.TableScores) -> Table | None:
    """The table before a round; None (the game's start) when no scores are given."""
    if not message.scores:
        if message.rounds_played:
            raise InvalidInputError(
                "table.scores", "rounds were played: give the scores they left"
            )
        return None
    return Table(tuple(message.scores), message.rounds_played)


INT32_RANGE = range(-(2**31), 2**31)
UINT32_MAX = 2**32 - 1


def check_table_fits(table: Table, field: str = "table") -> None:
    """Refuses a given table whose scores after the round leave int32, or whose round
    count leaves uint32: the answer's TableScores could not carry them."""
    for seat, score in enumerate(table.scores):
        if score not in INT32_RANGE:
            raise InvalidInputError(
                f"{field}.scores[{seat}]", f"after this round the score, {score}, leaves int32"
            )
    if table.rounds_played > UINT32_MAX:
        raise InvalidInputError(
            f"{field}.rounds_played", f"no round can be counted after round {UINT32_MAX}"
        )


def rules_for(
    preset: str, ruleset: ruleset_pb2.Ruleset, state: RoundState | None
) -> Ruleset:
    """The request's rules, or the state's own: a state carries the rules it was dealt under."""
    if state is None:
        return ruleset_from_proto(preset, ruleset)
    if preset:
        raise InvalidInputError("preset", "a finished state carries its rules: leave preset empty")
    if ruleset.ByteSize():
        raise InvalidInputError(
            "ruleset", "a finished state carries its rules: leave ruleset unset"
        )
    return state.rules


def finished_state(token: bytes, keys: KeyRing, field: str) -> RoundState:
    state = state_from_token(token, keys, field)
    if state.outcome is None:
        raise InvalidInputError(field, "the round is not over yet: score its finished state")
    return state


def result_from_proto(
    message: scoring_pb2.RoundResult, rules: Ruleset, field: str
) -> RoundResult:
    """A result given directly; its tiles, when given, must agree with what it claims, and
    its hand is scored as it wins best (okey_rules.scores.scoring.judge_hand)."""
    kind = WIN_KIND_TO_DOMAIN.get(message.win_kind)
    if message.win_kind and kind is None:
        raise InvalidInputError(f"{field}.win_kind", f"unknown win kind value {message.win_kind}")
    colour = None
    if message.one_colour:
        colour = COLOR_TO_DOMAIN.get(message.one_colour)
        if colour is None:
            raise InvalidInputError(
                f"{field}.one_colour", f"unknown colour value {message.one_colour}"
            )
    result = RoundResult(
        drawn=message.drawn,
        winner=message.winner_seat,
        kind=kind,
        okey_discard=message.okey_discard,
        one_colour=colour,
        gosterme=tuple(message.gosterme_seats),
    )
    if message.hand or message.HasField("discard"):
        result = _check_tiles(message, rules, result, field)
    return result


def _check_tiles(
    message: scoring_pb2.RoundResult, rules: Ruleset, result: RoundResult, field: str
) -> RoundResult:
    """`result` as its tiles say: the discard checked, the hand judged; INVALID_ARGUMENT
    where they contradict it."""
    if message.drawn:
        raise InvalidInputError(f"{field}.hand", "a drawn round has no winning hand")
    if not message.HasField("indicator"):
        raise InvalidInputError(
            f"{field}.indicator", "the indicator is needed to judge the hand and the discard"
        )
    indicator = tile_from_proto(message.indicator, f"{field}.indicator")
    if indicator.is_false_joker:
        raise InvalidInputError(f"{field}.indicator", "a false joker is never the indicator")
    okey = okey_for(indicator)
    if message.HasField("discard"):
        discard = tile_from_proto(message.discard, f"{field}.discard")
        if (discard.face == okey.face) != message.okey_discard:
            said = "an okey" if message.okey_discard else "not an okey"
            raise InvalidInputError(
                f"{field}.okey_discard", f"okey_discard says {said}, the discard says otherwise"
            )
    if not message.hand:
        return result
    hand = tiles_from_proto(message.hand, f"{field}.hand")
    return judge_hand(rules, result, hand, okey, field)


def round_to_proto(
    scored: RoundScore, rules: ruleset_pb2.Ruleset
) -> scoring_pb2.ScoreRoundResponse:
    """A scored round as the answer, under `rules` (written out once per call or game).

    Every answer's table passes `check_table_fits` here, whichever game or call
    scored it."""
    check_table_fits(scored.table)
    answer = scoring_pb2.ScoreRoundResponse(
        deltas=scored.deltas,
        round_value=scored.value,
        game_over=scored.game_over,
        winner_seats=scored.winners,
        eliminated=scored.eliminated,
    )
    answer.ruleset.CopyFrom(rules)
    answer.table.scores.extend(scored.table.scores)
    answer.table.rounds_played = scored.table.rounds_played
    for line in scored.lines:
        answer.lines.add(
            rule=RULE_TO_PROTO[line.rule],
            seat=line.seat,
            factor=line.factor,
            deltas=line.deltas,
            text=line.text,
        )
    return answer

