"""Okey 101 scoring (docs/rules.md §10.7): a finished round's points per seat, a game of rounds.

Points are bad here: the lowest total wins. Each rule is a small step of
`score_round_101`, recorded as a line so an answer can show why.
"""

from __future__ import annotations

from okey_rules.dealing.deal import OKEY_101_PLAYERS as PLAYERS
from okey_rules.errors import InvalidInputError
from okey_rules.play.game101_types import State101
from okey_rules.play.round_types import Opened, Penalty, Phase, RoundEnd
from okey_rules.rulebook import PENALTY_POINTS, is_wild, plays_as, tile_value
from okey_rules.ruleset import Game, Ruleset
from okey_rules.scores.scoring import DOUBLE, partner
from okey_rules.scores.scoring_types import RoundScore, ScoreLine, ScoreRule, Table
from okey_rules.tiles import TILE_OF_CODE

FINISH_POINTS = -101  # §10.7: the seat that finishes
NEVER_OPENED_POINTS = 202  # §10.7: a seat that never opened


def rack_points(state: State101, seat: int) -> int:
    """§10.7: the points of the tiles left in a rack: each tile its number; a false joker
    the okey's number; an okey its own number (it also costs the okey penalty)."""
    okey = state.okey
    total = 0
    for code in state.seats[seat].rack:
        tile = TILE_OF_CODE[code]
        face = tile if is_wild(tile, okey) else plays_as(tile, okey)
        assert face is not None
        total += tile_value(face.face)
    return total


def check_table_101(rules: Ruleset, table: Table, field: str = "table") -> None:
    if len(table.scores) != PLAYERS:
        raise InvalidInputError(f"{field}.scores", f"an Okey 101 table has {PLAYERS} scores")
    if rules.game_rounds and table.rounds_played >= rules.game_rounds:
        raise InvalidInputError(
            f"{field}.rounds_played",
            f"the game of {rules.game_rounds} rounds is over already: start a new table",
        )


def score_round_101(state: State101, table: Table | None, field: str = "round.state") -> RoundScore:
    """§10.7: the round's points per seat (finisher -101, others their tiles or 202,
    the doubles), its penalties, and whether the game of `game_rounds` is over."""
    rules = state.rules
    if rules.game is not Game.OKEY_101:
        raise InvalidInputError(f"{field}.ruleset.game", "not an Okey 101 round")
    if state.phase is not Phase.ROUND_OVER or state.outcome is None:
        raise InvalidInputError(field, "the round is not over yet: score its finished state")
    before = table if table is not None else Table((0,) * PLAYERS)
    check_table_101(rules, before)
    deltas = [0] * PLAYERS
    lines: list[ScoreLine] = []
    outcome = state.outcome

    def add(rule: ScoreRule, seat: int, points: int, text: str, factor: int = 0) -> None:
        change = [0] * PLAYERS
        change[seat] = points
        deltas[seat] += points
        lines.append(ScoreLine(rule, seat, factor, tuple(change) if points else (), text))

    if outcome.end is RoundEnd.VOID:
        lines.append(ScoreLine(ScoreRule.VOID_ROUND, 0, 0, (),
                               "all four opened with pairs: the round is void, nothing scores"))
        # It is dealt again as the same round: not one of the game's rounds.
        return _finish(rules, before, deltas, lines, played=0)
    finisher = outcome.winner if outcome.won else None
    everything = 1
    pairs_finisher = finisher is not None and state.seats[finisher].opened is Opened.PAIRS
    if finisher is not None:
        if outcome.okey_discard:
            everything *= DOUBLE
            lines.append(ScoreLine(ScoreRule.OKEY_DISCARD, finisher, DOUBLE, (),
                                   f"seat {finisher} finished by discarding an okey: x2"))
        if outcome.one_turn:
            everything *= DOUBLE
            lines.append(ScoreLine(ScoreRule.ONE_TURN_FINISH, finisher, DOUBLE, (),
                                   f"seat {finisher} opened and finished in one turn: x2"))
        # The pairs-opener's double is the whole round's, its own -101 included (the text:
        # "the points at the end of the round are also doubled"; the peer engines agree).
        own = everything * DOUBLE if pairs_finisher else everything
        if pairs_finisher:
            lines.append(ScoreLine(
                ScoreRule.PAIRS_OPENER, finisher, DOUBLE, (),
                f"seat {finisher} opened with pairs and finished: its -101 and the others x2",
            ))
        add(ScoreRule.FINISHED, finisher, FINISH_POINTS * own,
            f"seat {finisher} finished: {FINISH_POINTS * own}")
    else:
        lines.append(ScoreLine(ScoreRule.BANK_EXHAUSTED, 0, 0, (),
                               "the bank ran out with nobody finished"))
    tiles_count = finisher is not None or rules.exhaustion_scores_tiles
    # §10.8 riziko: every point the round costs doubles (not the finisher's -101).
    costs = DOUBLE if state.riziko else 1
    if state.riziko:
        lines.append(ScoreLine(ScoreRule.RIZIKO, 0, DOUBLE, (),
                               "riziko: a false joker was turned up at the deal: costs x2"))
    waived = (
        partner(finisher)
        if finisher is not None and rules.partnership and rules.partnership_waiver
        else None
    )
    for seat, held in enumerate(state.seats):
        if seat == finisher or not tiles_count:
            continue
        if seat == waived:
            lines.append(ScoreLine(ScoreRule.PARTNER_WAIVED, seat, 0, (),
                                   f"seat {seat} is the finisher's partner: its tiles are free"))
            continue
        factor = everything * costs
        why = []
        if pairs_finisher:
            factor *= DOUBLE
            why.append("the finisher opened with pairs")
        if held.opened is Opened.PAIRS:
            factor *= DOUBLE
            why.append("it opened with pairs")
            lines.append(ScoreLine(ScoreRule.PAIRS_OPENER, seat, DOUBLE, (),
                                   f"seat {seat} opened with pairs: what it pays x2"))
        if held.opened is None:
            points = NEVER_OPENED_POINTS * factor
            rule, what = ScoreRule.NEVER_OPENED, f"never opened ({NEVER_OPENED_POINTS})"
        else:
            left = rack_points(state, seat)
            points = left * factor
            rule, what = ScoreRule.REMAINING_TILES, f"{left} left in the rack"
        doubled = f" x{factor} ({', '.join(why) or 'the finish doubles'})" if factor > 1 else ""
        add(rule, seat, points, f"seat {seat} pays {points}: {what}{doubled}")
    for seat, held in enumerate(state.seats):
        for penalty in held.penalties:
            # The engine records every penalty, an okey left in hand included (§10.5).
            rule = ScoreRule.OKEY_IN_HAND if penalty is Penalty.OKEY_LEFT_IN_HAND else (
                ScoreRule.PENALTY)
            add(rule, seat, PENALTY_POINTS * costs,
                f"seat {seat} pays {PENALTY_POINTS * costs}: penalty, {penalty.value}")
    return _finish(rules, before, deltas, lines)


def _finish(rules: Ruleset, before: Table, deltas: list[int], lines: list[ScoreLine],
            played: int = 1) -> RoundScore:
    after = Table(
        tuple(score + change for score, change in zip(before.scores, deltas, strict=True)),
        before.rounds_played + played,
    )
    over = rules.game_rounds > 0 and after.rounds_played >= rules.game_rounds
    winners: tuple[int, ...] = ()
    if over:
        winners = game_winners_101(rules, after)
        names = ", ".join(str(s) for s in winners)
        lines.append(ScoreLine(ScoreRule.GAME_OVER, 0, 0, (),
                               f"game over: the lowest total wins: seat(s) {names}"))
    return RoundScore(tuple(deltas), after, 0, tuple(lines), over, winners, (False,) * PLAYERS)


def game_winners_101(rules: Ruleset, table: Table) -> tuple[int, ...]:
    """§10.7: the lowest total wins (ties: all tied); partners by their team's total."""
    scores = table.scores
    if rules.partnership:
        team = [scores[s] + scores[partner(s)] for s in range(PLAYERS)]
        best = min(team)
        return tuple(s for s in range(PLAYERS) if team[s] == best)
    best = min(scores)
    return tuple(s for s in range(PLAYERS) if scores[s] == best)


def next_deal_101(state: State101, scored: RoundScore) -> tuple[int, int] | None:
    """§10.7: the seat after the dealer deals the next round; a void round is dealt again
    by the same dealer, as the same round. None once the game is over."""
    if scored.game_over:
        return None
    if state.outcome is not None and state.outcome.end is RoundEnd.VOID:
        return state.dealer, state.round
    return (state.dealer + 1) % PLAYERS, state.round + 1
