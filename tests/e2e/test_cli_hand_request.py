"""The CheckHand request `okey hand check` builds from its flags (no server needed)."""

from __future__ import annotations

import pytest
from okey_cli import hand_cmd
from okey_cli.main import build_parser

HAND = ["R1", "R2", "R3", "Y5", "B5", "K5", "R9", "R10", "R11", "R12", "K10", "K11", "K12", "K13"]


def request_for(*flags: str):
    args = build_parser().parse_args(["hand", "check", *HAND, *flags])
    return hand_cmd.build_request(args)


def test_tiles_go_as_one_notation_string_for_the_server_to_parse():
    request = request_for("--indicator", "R4")
    assert request.hand_notation == " ".join(HAND)
    assert request.indicator_notation == "R4"
    assert request.WhichOneof("wild") == "indicator_notation"
    assert request.WhichOneof("hand_form") == "hand_notation"
    assert request.omit_arrangements is False


def test_no_arrangements_flag_sets_omit_arrangements():
    assert request_for("--okey", "R5", "--no-arrangements").omit_arrangements is True


def test_okey_flag_sends_the_okey_not_an_indicator():
    request = request_for("--okey", "R5")
    assert request.WhichOneof("wild") == "okey_notation"
    assert request.okey_notation == "R5"


def test_rule_options_left_out_stay_unset_so_the_preset_decides():
    request = request_for("--okey", "R5", "--preset", "okey.gg")
    assert request.preset == "okey.gg"
    for name in ("wild_pairs", "kafa", "runs_13_to_1"):
        assert not request.ruleset.HasField(name)


@pytest.mark.parametrize(
    ("flag", "field", "value"),
    [
        ("--wild-pairs", "wild_pairs", True),
        ("--no-wild-pairs", "wild_pairs", False),
        ("--kafa", "kafa", True),
        ("--no-kafa", "kafa", False),
        ("--runs-13-to-1", "runs_13_to_1", True),
        ("--no-runs-13-to-1", "runs_13_to_1", False),
    ],
)
def test_rule_option_flags_set_the_ruleset_field(flag: str, field: str, value: bool):
    request = request_for("--okey", "R5", flag)
    assert request.ruleset.HasField(field)
    assert getattr(request.ruleset, field) is value


def test_indicator_and_okey_are_mutually_exclusive(capsys: pytest.CaptureFixture[str]):
    with pytest.raises(SystemExit) as exit_info:
        build_parser().parse_args(["hand", "check", *HAND, "--okey", "R5", "--indicator", "R4"])
    assert exit_info.value.code == 2
    assert "not allowed with" in capsys.readouterr().err
