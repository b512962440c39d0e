"""Entry point of `okey`: one argparse program whose commands register themselves."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from okey_cli import conformance_cmd, deal_cmd, hand_cmd, play_cmd, score_cmd
from okey_cli.errors import EXIT_OK, CliError

# Each command module exposes `register(subparsers) -> None`; add new ones here.
COMMANDS = (
    hand_cmd,
    deal_cmd,
    conformance_cmd,
    play_cmd,
    score_cmd,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="okey",
        description="Reference client of the okey-rules gRPC service (okey.v1).",
        epilog=(
            "exit codes: 0 ok (also for a losing hand), 1 conformance cases failed, "
            "2 bad input, 3 server unreachable, 4 other server error"
        ),
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for command in COMMANDS:
        command.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except CliError as error:
        print(f"okey: {error.message}", file=sys.stderr)
        return error.exit_code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `okey ... | head`: the reader left. Point stdout at devnull so the
        # interpreter's final flush does not complain a second time.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
