"""Classic Okey scoring (docs/rules.md §9): a round's value, each table mode, the game's end.

Each rule is one small function named after it; `score_round` applies them
in order and records a line per rule, so an answer can show why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from okey_rules.errors import InvalidInputError, check_seat
from okey_rules.play.game_types import GameState
from okey_rules.play.round_types import Outcome
from okey_rules.ruleset import ColourDouble, Game, Ruleset, ScoringMode
from okey_rules.scores.scoring_types import RoundResult, RoundScore, ScoreLine, ScoreRule, Table
from okey_rules.search.hand import check_hand
from okey_rules.search.hand_types import WinKind
from okey_rules.tiles import FACES, FALSE_JOKER_FACE, NUMBERS, Color, Tile

BASE_VALUE = 2  # §9.1: a normal win costs each opponent 2
DOUBLE = 2
GOSTERME_VALUE = 1  # §9.1: 1 per opponent
STALL_PENALTY = 1  # §9.2 PENALTY: a stalled round costs everyone 1
PLAYERS = (2, 4)
PARTNERSHIP_PLAYERS = 4
RED_OR_BLACK = (Color.RED, Color.BLACK)


# --- the round's value (§9.1) ------------------------------------------------------------------


def one_colour_of(hand: Sequence[int], okey_face: int) -> Color | None:
    """The colour of a one-colour hand (tile codes), None when it holds several.

    The okeys are wild and do not count; a false joker plays as the okey's
    face, so it counts as the okey's colour.
    """
    colours = set()
    for code in hand:
        face = code % FACES
        if face == okey_face:
            continue
        if face == FALSE_JOKER_FACE:
            face = okey_face
        colours.add(face // NUMBERS)
    return Color(colours.pop()) if len(colours) == 1 else None


def colour_double_applies(rules: Ruleset, colour: Color | None) -> bool:
    """§9.1: the colour-double variant, for any colour or only red and black."""
    if colour is None or rules.colour_double is ColourDouble.OFF:
        return False
    return rules.colour_double is ColourDouble.ANY or colour in RED_OR_BLACK


def round_value(rules: Ruleset, result: RoundResult) -> tuple[int, list[ScoreLine]]:
    """§9.1: 2 for a win, doubled for an okey discard, for seven pairs and (variant)
    for one colour; the doubles multiply, or only the largest applies."""
    winner = result.winner
    lines = [_line(ScoreRule.WIN, winner, 0, f"seat {winner} won{_judged(result)}: "
                                              f"{BASE_VALUE} points")]
    doubles = []
    if result.okey_discard:
        doubles.append((ScoreRule.OKEY_DISCARD, "finished by discarding an okey"))
    if result.kind is WinKind.SEVEN_PAIRS:
        doubles.append((ScoreRule.SEVEN_PAIRS, "won with seven pairs"))
    if colour_double_applies(rules, result.one_colour):
        assert result.one_colour is not None
        doubles.append((ScoreRule.COLOUR_DOUBLE, f"a hand all {result.one_colour.name.lower()}"))
    for rule, why in doubles:
        lines.append(_line(rule, winner, DOUBLE, f"{why}: x{DOUBLE}"))
    if rules.multipliers_combine:
        value = BASE_VALUE * DOUBLE ** len(doubles)
    else:
        value = BASE_VALUE * (DOUBLE if doubles else 1)
        if len(doubles) > 1:
            lines.append(
                _line(ScoreRule.LARGEST_MULTIPLIER, winner, DOUBLE,
                      f"multipliers do not combine: only x{DOUBLE} applies")
            )
    return value, lines


def _judged(result: RoundResult) -> str:
    """The WIN line's note when the kind scored is not the one claimed (`judge_hand`)."""
    if result.claimed_kind is None or result.kind is None:
        return ""
    return (f" with {result.kind.value}, as the 14 tiles given win best"
            f" (claimed: {result.claimed_kind.value})")


def _line(
    rule: ScoreRule, seat: int, factor: int, text: str, deltas: Sequence[int] = ()
) -> ScoreLine:
    return ScoreLine(rule, seat, factor, tuple(deltas), text)


def judge_hand(
    rules: Ruleset, result: RoundResult, hand: Sequence[Tile], okey: Tile, field: str
) -> RoundResult:
    """§9.1: a result that carries the winner's 14 tiles is scored as the tiles win best.

    A finished state scores the best way its hand wins (§4.4, §8.4), so the same
    tiles given with a result must score the same: a claim the tiles bear out but
    that is not their best (melds for a hand that is also seven pairs, or kafa
    under the kafa rule) is raised to the best, and `claimed_kind` keeps the claim
    for the lines. A claim the tiles do not bear out, and a colour they do not
    have, are refused; the colour scored is the tiles' own.
    """
    try:
        verdict = check_hand(hand, okey, rules)
    except InvalidInputError as exc:
        raise InvalidInputError(f"{field}.hand", exc.description) from exc
    if not verdict.winning:
        raise InvalidInputError(f"{field}.hand", "these 14 tiles do not form a winning hand")
    if result.kind not in verdict.kinds:
        wins_as = ", ".join(kind.value for kind in verdict.kinds)
        raise InvalidInputError(
            f"{field}.win_kind", f"the hand does not win that way (it wins as {wins_as})"
        )
    colour = one_colour_of([tile.code for tile in hand], okey.face)
    if result.one_colour is not None and result.one_colour != colour:
        raise InvalidInputError(f"{field}.one_colour", "the hand's colours say otherwise")
    claimed = result.kind if result.kind is not verdict.kind else None
    return replace(result, kind=verdict.kind, one_colour=colour, claimed_kind=claimed)


# --- the table (§9.2) ---------------------------------------------------------------------------


def starting_score(rules: Ruleset) -> int:
    return rules.start_points if rules.scoring_mode is ScoringMode.COUNTDOWN else 0


def start_table(rules: Ruleset, players: int) -> Table:
    """The scores at a game's start: the countdown's start points, else 0."""
    check_table_size(rules, players)
    return Table((starting_score(rules),) * players)


def check_table_size(rules: Ruleset, players: int, field: str = "player_count") -> None:
    check_scorable(rules)
    low, high = PLAYERS
    if not low <= players <= high:
        raise InvalidInputError(field, f"a classic table has {low}-{high} seats, not {players}")
    if rules.partnership and players != PARTNERSHIP_PLAYERS:
        raise InvalidInputError(
            field, f"partnership scoring needs {PARTNERSHIP_PLAYERS} seats, not {players}"
        )


def check_scorable(rules: Ruleset, field: str = "ruleset.game") -> None:
    if rules.game is not Game.CLASSIC:
        raise InvalidInputError(
            field, "Okey 101 rounds are scored from their finished states (round.state)"
        )


def eliminated_seats(rules: Ruleset, table: Table) -> tuple[bool, ...]:
    """§9.2 elimination: a seat at 0 or below has left the game."""
    out = rules.elimination
    return tuple(out and score <= 0 for score in table.scores)


def partner(seat: int) -> int:
    """§9.2 partnership: opposite seats (0 and 2, 1 and 3)."""
    return (seat + 2) % PARTNERSHIP_PLAYERS


def opponents(rules: Ruleset, seat: int, active: Sequence[int]) -> list[int]:
    """The seats that pay for `seat`'s win or gösterme: everyone else still in
    the game, or with partnership the other team."""
    if rules.partnership:
        return [s for s in active if s not in (seat, partner(seat))]
    return [s for s in active if s != seat]


def check_table(rules: Ruleset, players: int, table: Table, field: str = "table") -> None:
    """Refuses scores no game under these rules can reach, and a game already over."""
    if len(table.scores) != players:
        raise InvalidInputError(
            f"{field}.scores", f"the table has {players} seats: give {players} scores"
        )
    mode = rules.scoring_mode
    for seat, score in enumerate(table.scores):
        where = f"{field}.scores[{seat}]"
        if mode is ScoringMode.COUNTDOWN and score > rules.start_points:
            raise InvalidInputError(
                where, f"a countdown from {rules.start_points} never goes above it ({score})"
            )
        if mode in (ScoringMode.TARGET, ScoringMode.PENALTY) and score < 0:
            raise InvalidInputError(where, f"scores start at 0 and only grow here, not {score}")
        if rules.partnership and score != table.scores[partner(seat)]:
            raise InvalidInputError(
                where, f"partners share one score: seats {seat} and {partner(seat)} differ"
            )
    if mode is ScoringMode.ZERO_SUM and sum(table.scores) != 0:
        raise InvalidInputError(
            f"{field}.scores", f"zero-sum scores add up to 0, these to {sum(table.scores)}"
        )
    if _over_by_score(rules, table):
        raise InvalidInputError(field, "the game is over already: start a new table")
    if rules.game_rounds and table.rounds_played >= rules.game_rounds:
        raise InvalidInputError(
            f"{field}.rounds_played",
            f"the game of {rules.game_rounds} rounds is over already: start a new table",
        )


def check_result(
    rules: Ruleset, players: int, table: Table, result: RoundResult, field: str
) -> None:
    """Refuses a result that names a seat out of the game or contradicts itself."""
    out = eliminated_seats(rules, table)

    def seat_in_game(seat: int, where: str) -> None:
        check_seat(seat, players, where)
        if out[seat]:
            raise InvalidInputError(where, f"seat {seat} has left the game (eliminated)")

    if result.drawn:
        if result.kind is not None or result.okey_discard or result.one_colour is not None:
            raise InvalidInputError(
                f"{field}.drawn", "a drawn round has no winner: leave the win fields unset"
            )
    else:
        seat_in_game(result.winner, f"{field}.winner_seat")
        if result.kind is None:
            raise InvalidInputError(f"{field}.win_kind", "a won round needs its win kind")
        if result.kind is WinKind.KAFA and not rules.kafa:
            raise InvalidInputError(
                f"{field}.win_kind", "kafa is not played under these rules (option kafa)"
            )
    for index, seat in enumerate(result.gosterme):
        seat_in_game(seat, f"{field}.gosterme_seats[{index}]")
        if seat in result.gosterme[:index]:
            raise InvalidInputError(
                f"{field}.gosterme_seats[{index}]", f"seat {seat} shows gösterme once a round"
            )


def _over_by_score(rules: Ruleset, table: Table) -> bool:
    scores = table.scores
    if rules.scoring_mode is ScoringMode.COUNTDOWN:
        if rules.elimination:
            return sum(score > 0 for score in scores) <= 1
        return any(score <= 0 for score in scores)
    if rules.scoring_mode is ScoringMode.TARGET:
        return any(score >= rules.target_points for score in scores)
    return False


def _best(scores: Sequence[int], seats: Sequence[int], count: int, lowest: bool) -> list[int]:
    """The `count` best seats by score; seats tied with the last of them are included."""
    ranked = sorted(seats, key=lambda s: scores[s], reverse=not lowest)
    cutoff = scores[ranked[min(count, len(ranked)) - 1]]
    return sorted(s for s in seats if (scores[s] <= cutoff if lowest else scores[s] >= cutoff))


def game_winners(rules: Ruleset, table: Table, before: Table) -> tuple[int, ...]:
    """§9.2: who wins a game that is over: the highest scores (countdown: the two
    highest at four seats, or the single highest), the lowest in PENALTY; with
    elimination the last seat left; partners win together."""
    scores = table.scores
    seats = range(len(scores))
    if rules.scoring_mode is ScoringMode.COUNTDOWN and rules.elimination:
        left = [s for s in seats if scores[s] > 0]
        if not left:
            # Everyone still in went out in the same round: the best of them wins.
            left = [s for s in seats if before.scores[s] > 0]
        # One seat left wins; several (the game's rounds ran out) the highest of them.
        return tuple(_best(scores, left, 1, lowest=False))
    if rules.partnership:
        best_team = _best(scores, seats, 1, lowest=False)
        return tuple(sorted({s for t in best_team for s in (t, partner(t))}))
    if rules.scoring_mode is ScoringMode.COUNTDOWN:
        count = min(rules.countdown_winners, max(1, len(scores) // 2))
        # The rule texts: the two highest scores win, whatever they are; seats tied
        # with the last of them win too (no text breaks such a tie).
        return tuple(_best(scores, seats, count, lowest=False))
    lowest = rules.scoring_mode is ScoringMode.PENALTY
    return tuple(_best(scores, seats, 1, lowest=lowest))


# --- one round (§9.1-§9.2) ----------------------------------------------------------------------


def _apply(deltas: list[int], changes: dict[int, int]) -> tuple[int, ...]:
    line = [0] * len(deltas)
    for seat, change in changes.items():
        deltas[seat] += change
        line[seat] += change
    return tuple(line)


def _charge(
    rules: Ruleset, scorer: int, points: int, active: Sequence[int]
) -> dict[int, int]:
    """What `scorer`'s win or gösterme worth `points` per opponent does to each seat."""
    paying = opponents(rules, scorer, active)
    mode = rules.scoring_mode
    if mode is ScoringMode.COUNTDOWN:
        return dict.fromkeys(paying, -points)
    if mode is ScoringMode.TARGET:
        # Only the scorer moves: a gain of `points` is the same lead over each
        # opponent that a countdown loss of `points` gives.
        return {scorer: points}
    if mode is ScoringMode.PENALTY:
        return dict.fromkeys(paying, points)
    return {**dict.fromkeys(paying, -points), scorer: points * len(paying)}


def score_round(
    rules: Ruleset,
    players: int,
    table: Table | None,
    result: RoundResult,
    *,
    field: str = "round.result",
    table_field: str = "table",
) -> RoundScore:
    """Scores one round for the table; refuses input no game could produce."""
    check_table_size(rules, players)
    before = table if table is not None else start_table(rules, players)
    check_table(rules, players, before, table_field)
    check_result(rules, players, before, result, field)
    out = eliminated_seats(rules, before)
    active = [s for s in range(players) if not out[s]]
    deltas = [0] * players
    lines: list[ScoreLine] = []
    value = 0
    if result.drawn:
        if rules.scoring_mode is ScoringMode.PENALTY:
            changed = _apply(deltas, dict.fromkeys(active, STALL_PENALTY))
            lines.append(_line(ScoreRule.STALL, 0, 0,
                               f"the wall ran out: {STALL_PENALTY} penalty point each", changed))
        else:
            lines.append(
                _line(ScoreRule.DRAWN_ROUND, 0, 0, "the wall ran out: no winner, no score")
            )
    else:
        value, value_lines = round_value(rules, result)
        lines += value_lines
        changed = _apply(deltas, _charge(rules, result.winner, value, active))
        lines.append(_line(ScoreRule.ROUND_VALUE, result.winner, 0,
                           f"round value {value}: {_how(rules, value, 'winner')}", changed))
    # §8.3: a table that does not play gösterme (the okey.gg rules) scores none.
    if rules.gosterme_scores and rules.gosterme_played:
        for seat in result.gosterme:
            changed = _apply(deltas, _charge(rules, seat, GOSTERME_VALUE, active))
            how = _how(rules, GOSTERME_VALUE, "claimant")
            lines.append(_line(ScoreRule.GOSTERME, seat, 0,
                               f"seat {seat} showed gösterme: {how}", changed))
    after = Table(
        tuple(score + change for score, change in zip(before.scores, deltas, strict=True)),
        before.rounds_played + 1,
    )
    now_out = eliminated_seats(rules, after)
    for seat in active:
        if now_out[seat]:
            lines.append(_line(ScoreRule.ELIMINATED, seat, 0,
                               f"seat {seat} is at {after.scores[seat]}: out of the game"))
    kafa = not result.drawn and result.kind is WinKind.KAFA
    winners: tuple[int, ...] = ()
    over = kafa or _over_by_score(rules, after) or (
        rules.game_rounds > 0 and after.rounds_played >= rules.game_rounds
    )
    if kafa:
        winners = (result.winner, partner(result.winner)) if rules.partnership else (result.winner,)
        winners = tuple(sorted(winners))
        lines.append(_line(ScoreRule.KAFA, result.winner, 0,
                           f"seat {result.winner} finished with kafa: the game is won at once"))
    elif over:
        winners = game_winners(rules, after, before)
    if over:
        names = ", ".join(str(s) for s in winners)
        lines.append(_line(ScoreRule.GAME_OVER, 0, 0, f"game over: seat(s) {names} won"))
    return RoundScore(tuple(deltas), after, value, tuple(lines), over, winners, now_out)


def _how(rules: Ruleset, points: int, scorer: str) -> str:
    """What a win or gösterme worth `points` does, in words, for the line's text."""
    each = "each opposing team" if rules.partnership else "each opponent"
    return {
        ScoringMode.COUNTDOWN: f"{each} loses {points}",
        ScoringMode.TARGET: f"the {scorer} gains {points}",
        ScoringMode.PENALTY: f"{each} takes {points} penalty points",
        ScoringMode.ZERO_SUM: f"{each} pays {points} to the {scorer}",
    }[rules.scoring_mode]


def score_game(
    rules: Ruleset, players: int, results: Sequence[RoundResult], field: str = "rounds"
) -> list[RoundScore]:
    """§9.2: every round in order from the game's start; a round after the game's end is refused."""
    scored: list[RoundScore] = []
    table = start_table(rules, players)
    for index, result in enumerate(results):
        if scored and scored[-1].game_over:
            raise InvalidInputError(
                f"{field}[{index}]", f"the game ended after round {index}: no more rounds"
            )
        scored.append(score_round(rules, players, table, result, field=f"{field}[{index}]"))
        table = scored[-1].table
    return scored


# --- a finished round's state (§8, §9) ----------------------------------------------------------


def result_of_outcome(
    outcome: Outcome, state: GameState, seats: Sequence[int]
) -> RoundResult:
    """The scoring view of a finished round; `seats` maps the round's seats to the table's."""
    gosterme = tuple(seats[seat] for seat, _ in outcome.gosterme)
    if outcome.drawn:
        return RoundResult(drawn=True, gosterme=gosterme)
    return RoundResult(
        drawn=False,
        winner=seats[outcome.winner],
        kind=outcome.win_kind,
        okey_discard=outcome.okey_discard,
        one_colour=one_colour_of(outcome.hand, state.okey.face),
        gosterme=gosterme,
    )


def seats_in_game(rules: Ruleset, table: Table) -> list[int]:
    """The table's seats still in the game, in seat order: the seats of the next deal."""
    out = eliminated_seats(rules, table)
    return [seat for seat in range(len(table.scores)) if not out[seat]]


def state_seats(
    rules: Ruleset, table: Table, dealt: int, table_field: str, state_field: str
) -> list[int]:
    """§9.4: the table seats of a round dealt to `dealt` seats, the deal's seat i being
    the i-th seat still in the game.

    A table of fewer seats than the deal can hold no such round: the table's size
    is wrong (`table_field`, the field that set it). A table large enough whose
    seats still in are not the deal's number is the state's fault (`state_field`):
    the round was dealt to another table or before a seat left.
    """
    if dealt > len(table.scores):
        raise InvalidInputError(
            table_field,
            f"the round was dealt to {dealt} seats: a table of {len(table.scores)} cannot hold it",
        )
    seats = seats_in_game(rules, table)
    if len(seats) != dealt:
        raise InvalidInputError(
            state_field, f"the round was dealt to {dealt} seats but {len(seats)} are in the game"
        )
    return seats


def next_deal(
    rules: Ruleset, state: GameState, before: Table, scored: RoundScore
) -> tuple[int, int] | None:
    """§9.4: after a classic round, the next deal's dealer and round number; None once
    the game is over."""
    if scored.game_over:
        return None
    return next_dealer(rules, state.dealer, before, scored.table), state.round + 1


def next_dealer(rules: Ruleset, dealer: int, before: Table, after: Table) -> int:
    """§9.4: the next round's dealer is the seat after this one's dealer (to the
    right), counted among the seats still in the game, numbered as the next
    deal numbers them."""
    seats_before = seats_in_game(rules, before)
    seats_after = seats_in_game(rules, after)
    if not seats_after:
        return 0
    table_dealer = seats_before[dealer]
    players = len(after.scores)
    for step in range(1, players + 1):
        candidate = (table_dealer + step) % players
        if candidate in seats_after:
            return seats_after.index(candidate)
    return 0
