"""What a scoring request gives, judged by the engine (issue 21 points 6 and 9):
a winning hand given with a result scores the best way it wins (docs/rules.md §9.1),
and a finished state's seats are read against the table's (§9.4)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from okey_rules.errors import InvalidInputError
from okey_rules.ruleset import ColourDouble, Ruleset
from okey_rules.scores.scoring import judge_hand, score_round, state_seats
from okey_rules.scores.scoring_types import RoundResult, ScoreRule, Table
from okey_rules.search.hand_types import WinKind
from okey_rules.tiles import Color, okey_for, parse_tile, parse_tiles

MELDS = WinKind.MELDS
PAIRS = WinKind.SEVEN_PAIRS
KAFA = WinKind.KAFA
OKEY = okey_for(parse_tile("B7"))  # B8
# Two runs Y1-Y7 and seven pairs at once: best as seven pairs (§4.4).
RUNS_AND_PAIRS = parse_tiles("Y1 Y1 Y2 Y2 Y3 Y3 Y4 Y4 Y5 Y5 Y6 Y6 Y7 Y7")
RED_KAFA = parse_tiles("R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1")
YELLOW_MELDS = parse_tiles("Y1 Y2 Y3 Y4 Y5 Y6 Y7 Y8 Y9 Y10 Y11 Y11 Y12 Y13")
FIELD = "round.result"


def won(kind: WinKind, **fields: object) -> RoundResult:
    return RoundResult(drawn=False, winner=1, kind=kind, **fields)  # type: ignore[arg-type]


def refused_field(call: Callable[[], object]) -> str:
    with pytest.raises(InvalidInputError) as raised:
        call()
    return raised.value.field


# --- point 6: the hand's best kind ---------------------------------------------------------


def test_a_hand_claimed_as_melds_that_is_seven_pairs_scores_seven_pairs() -> None:
    """§9.1 (issue 21 point 6): a finished state scores its hand's best kind, so the same
    14 tiles given with a result score it too: 4, not 2; the claim is kept for the line."""
    judged = judge_hand(Ruleset(), won(MELDS), RUNS_AND_PAIRS, OKEY, FIELD)
    assert (judged.kind, judged.claimed_kind) == (PAIRS, MELDS)
    scored = score_round(Ruleset(), 4, None, judged)
    assert scored.value == 4
    assert scored.deltas == (-4, 0, -4, -4)
    assert [line.rule for line in scored.lines] == [
        ScoreRule.WIN, ScoreRule.SEVEN_PAIRS, ScoreRule.ROUND_VALUE,
    ]
    assert scored.lines[0].text == (
        "seat 1 won with seven pairs, as the 14 tiles given win best (claimed: melds): 2 points"
    )


def test_a_claim_of_the_best_kind_is_scored_as_it_is() -> None:
    """§9.1: claimed as seven pairs, the same tiles score the same 4; the line says
    nothing was changed."""
    judged = judge_hand(Ruleset(), won(PAIRS), RUNS_AND_PAIRS, OKEY, FIELD)
    assert (judged.kind, judged.claimed_kind) == (PAIRS, None)
    scored = score_round(Ruleset(), 4, None, judged)
    assert scored.value == 4
    assert scored.lines[0].text == "seat 1 won: 2 points"


def test_a_kafa_hand_claimed_as_melds_is_kafa_where_kafa_is_played() -> None:
    """§9.2 kafa: with the kafa rule the hand's best is kafa, which ends the game; without
    it the hand wins as melds only and the game goes on."""
    with_kafa = Ruleset(kafa=True)
    judged = judge_hand(with_kafa, won(MELDS), RED_KAFA, OKEY, FIELD)
    assert judged.kind is KAFA
    scored = score_round(with_kafa, 4, None, judged)
    assert scored.game_over
    assert scored.winners == (1,)
    plain = judge_hand(Ruleset(), won(MELDS), RED_KAFA, OKEY, FIELD)
    assert (plain.kind, plain.claimed_kind) == (MELDS, None)
    assert not score_round(Ruleset(), 4, None, plain).game_over


def test_the_colour_scored_is_the_hands_own() -> None:
    """§9.1 colour double: the colour is found from the tiles; a colour they do not have
    is refused."""
    rules = Ruleset(colour_double=ColourDouble.ANY)
    judged = judge_hand(rules, won(MELDS), YELLOW_MELDS, OKEY, FIELD)
    assert judged.one_colour is Color.YELLOW
    wrong = won(MELDS, one_colour=Color.RED)
    assert refused_field(lambda: judge_hand(rules, wrong, YELLOW_MELDS, OKEY, FIELD)) == (
        f"{FIELD}.one_colour"
    )


@pytest.mark.parametrize(
    ("kind", "tiles", "field"),
    [
        (PAIRS, YELLOW_MELDS, f"{FIELD}.win_kind"),  # melds only: seven pairs is not borne out
        (KAFA, RED_KAFA, f"{FIELD}.win_kind"),  # kafa without the kafa rule
        (None, YELLOW_MELDS, f"{FIELD}.win_kind"),  # no claim at all
        (MELDS, YELLOW_MELDS[:13], f"{FIELD}.hand"),  # 13 tiles
        (MELDS, parse_tiles("R1 R2 R3 Y5 B5 K5 R9 R10 R11 R12 K10 K11 K12 Y1"), f"{FIELD}.hand"),
    ],
    ids=["claim-not-borne-out", "kafa-not-played", "no-claim", "thirteen-tiles", "not-winning"],
)
def test_a_hand_that_contradicts_the_result_is_refused(
    kind: WinKind | None, tiles: list[object], field: str
) -> None:
    """§9.2 refused input: the tiles must bear the claim out; they only raise it."""
    result = RoundResult(drawn=False, winner=1, kind=kind)
    assert refused_field(lambda: judge_hand(Ruleset(), result, tiles, OKEY, FIELD)) == field  # type: ignore[arg-type]


# --- point 9: a state's seats against the table ----------------------------------------------


def test_a_table_too_small_for_the_deal_names_the_tables_size() -> None:
    """§9.4 (issue 21 point 9): a round dealt to four seats beside a table of three: no
    table of three holds it, so the field that set the table's size is named."""
    three = Table((20, 18, 20), 1)
    field = refused_field(
        lambda: state_seats(Ruleset(), three, 4, "table.scores", "round.state")
    )
    assert field == "table.scores"


def test_a_table_whose_seats_still_in_differ_names_the_state() -> None:
    """§9.4: four scores with one seat out beside a deal of four: the state was dealt
    before the seat left (or at another table): the state is named."""
    rules = Ruleset(elimination=True)
    table = Table((9, -1, 12, 7), 6)
    field = refused_field(lambda: state_seats(rules, table, 4, "table.scores", "round.state"))
    assert field == "round.state"
    assert state_seats(rules, table, 3, "table.scores", "round.state") == [0, 2, 3]
