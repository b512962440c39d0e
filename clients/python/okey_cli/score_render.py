"""Text of ScoringService answers: the rules in words, the running table, the game's result.

Shared by `okey score` and `okey play` (which prints the same table after
each round it plays). Every number comes from the server's answer: the
scores before a round are the answer's totals minus its changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from okey.v1 import ruleset_pb2, scoring_pb2

_LABEL = 9  # width of the row label column ("start", "round 3")
_CELL = 13  # width of one seat's column: "-2 18 out"


def seats_text(seats: Sequence[int]) -> str:
    """``seat 2``, ``seats 0 and 2``, ``seats 0, 1 and 3``."""
    names = [str(seat) for seat in seats]
    if not names:
        return "no seat"
    if len(names) == 1:
        return f"seat {names[0]}"
    return f"seats {', '.join(names[:-1])} and {names[-1]}"


def winners_text(seats: Sequence[int]) -> str:
    return f"{seats_text(seats)} {'wins' if len(seats) == 1 else 'win'}"


def rules_text(rules: ruleset_pb2.Ruleset) -> str:
    """The scoring options of an answer's ruleset (every option set) in one line."""
    if rules.game == ruleset_pb2.GAME_OKEY_101:
        return rules_text_101(rules)
    mode = rules.scoring_mode
    if mode == ruleset_pb2.SCORING_MODE_TARGET:
        parts = [f"target {rules.target_points}: the first to reach it ends the game, "
                 "the highest score wins"]
    elif mode == ruleset_pb2.SCORING_MODE_PENALTY:
        parts = ["penalty points from 0: the lowest total wins"]
    elif mode == ruleset_pb2.SCORING_MODE_ZERO_SUM:
        parts = ["zero-sum from 0 (each opponent pays the winner): the highest total wins"]
    else:
        parts = [f"countdown from {rules.start_points}"]
        if rules.elimination:
            parts.append("elimination: a seat at 0 or below leaves, the last seat left wins")
        elif rules.partnership:
            parts.append("partnership: seats 0+2 against 1+3, the higher team wins "
                         "when a team reaches 0")
        elif rules.countdown_winners == 1:
            parts.append("the game ends when a score reaches 0, the highest score wins")
        else:
            parts.append("the game ends when a score reaches 0, the two highest scores win "
                         "(the highest at 2-3 seats)")
    if rules.game_rounds:
        parts.append(f"the game ends after {rules.game_rounds} rounds at the latest")
    parts.append("gosterme scores 1" if rules.gosterme_scores else "gosterme does not score")
    parts.append("doubles multiply" if rules.multipliers_combine
                 else "only the largest double applies")
    if rules.colour_double == ruleset_pb2.COLOUR_DOUBLE_ANY:
        parts.append("a one-colour hand doubles")
    elif rules.colour_double == ruleset_pb2.COLOUR_DOUBLE_RED_OR_BLACK:
        parts.append("an all-red or all-black hand doubles")
    if rules.kafa:
        parts.append("kafa wins the game")
    return "rules: " + "; ".join(parts)


_VARIANTS_101 = ("progressive_opening", "riziko", "okey_retrieval", "lay_off_cap")


def rules_text_101(rules: ruleset_pb2.Ruleset) -> str:
    """An Okey 101 ruleset's scoring and variants (docs/rules.md §10.7, §10.8) in one line."""
    parts = ["Okey 101: points are bad, the lowest total wins"]
    if rules.partnership:
        waiver = (" (the finisher's partner pays nothing for its tiles)"
                  if rules.partnership_waiver else "")
        parts.append(f"partnership: seats 0+2 against 1+3, the lower team total wins{waiver}")
    if rules.game_rounds:
        noun = "round" if rules.game_rounds == 1 else "rounds"
        parts.append(f"the game ends after {rules.game_rounds} {noun}")
    else:
        parts.append("no number of rounds: the game has no end of its own")
    parts.append("an exhausted bank scores the racks" if rules.exhaustion_scores_tiles
                 else "an exhausted bank scores only penalties")
    variants = [name.replace("_", " ") for name in _VARIANTS_101 if getattr(rules, name)]
    parts.append(f"variants: {', '.join(variants)}" if variants else "no variants")
    return "rules: " + "; ".join(parts)


def _row(label: str, cells: Sequence[str]) -> str:
    return (f"{label:<{_LABEL}}" + "".join(f"{cell:>{_CELL}}" for cell in cells)).rstrip()


def header_row(players: int) -> str:
    return _row("", [f"seat {seat}" for seat in range(players)])


def scores_row(label: str, scores: Sequence[int]) -> str:
    return _row(label, [str(score) for score in scores])


def before_scores(answer: scoring_pb2.ScoreRoundResponse) -> list[int]:
    """The scores the round started from: its totals less its changes."""
    return [total - change for total, change in zip(answer.table.scores, answer.deltas,
                                                    strict=True)]


def round_rows(answer: scoring_pb2.ScoreRoundResponse) -> list[str]:
    """One row for the round (each seat's change and new total; `out` for a seat that has
    left the game), then the text of every rule line, indented."""
    out = list(answer.eliminated) or [False] * len(answer.deltas)
    cells = [
        f"{change:+d} {total}" + (" out" if gone else "")
        for change, total, gone in zip(answer.deltas, answer.table.scores, out, strict=True)
    ]
    rows = [_row(f"round {answer.table.rounds_played}", cells)]
    rows += [f"  {line.text}" for line in answer.lines]
    return rows


def result_line(
    game_over: bool, winners: Sequence[int], rounds: int, going_on: str = "the game goes on"
) -> str:
    """The game's result, or `going_on` when it is not over."""
    noun = "round" if rounds == 1 else "rounds"
    if game_over:
        return f"game over after {rounds} {noun}: {winners_text(winners)}"
    return f"{going_on} after {rounds} {noun}"


def round_text(answer: scoring_pb2.ScoreRoundResponse, from_state: bool) -> str:
    """The answer to ScoreRound: the rules, the scores before and after, the rule lines,
    the result, and how to go on."""
    players = len(answer.deltas)
    lines = [
        rules_text(answer.ruleset),
        header_row(players),
        scores_row("before", before_scores(answer)),
        *round_rows(answer),
        result_line(answer.game_over, answer.winner_seats, answer.table.rounds_played),
    ]
    if not answer.game_over:
        scores = ",".join(str(score) for score in answer.table.scores)
        # `=`: a first score below zero would otherwise read as an option.
        lines.append(f"next round: --scores={scores} --rounds-played "
                     f"{answer.table.rounds_played}")
        if from_state:
            lines.append(
                f"next deal: round {answer.next_round}, dealer seat {answer.next_dealer_seat} "
                "(numbered among the seats still in the game)"
            )
    return "\n".join(lines)


def game_text(
    rounds: Sequence[scoring_pb2.ScoreRoundResponse],
    game_over: bool,
    winners: Sequence[int],
    going_on: str = "the game goes on",
) -> str:
    """A whole game: the rules, the starting scores, one row per round with its rule
    lines, and the result."""
    if not rounds:
        return "no round scored"
    first = rounds[0]
    lines = [
        rules_text(first.ruleset),
        header_row(len(first.deltas)),
        scores_row("start", before_scores(first)),
    ]
    for answer in rounds:
        lines += round_rows(answer)
    lines.append(result_line(game_over, winners, rounds[-1].table.rounds_played, going_on))
    return "\n".join(lines)


def game_response_text(response: Any) -> str:
    """The answer to ScoreGame."""
    return game_text(list(response.rounds), response.game_over, list(response.winner_seats))
