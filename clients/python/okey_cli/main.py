"""Entry point of `okey`: one argparse program whose commands register themselves.

The connection options (--server, --timeout, --tls...) are taken before the command as
well as after it: `okey --server HOST:PORT hand check ...` is `okey hand check ...
--server HOST:PORT`. Given in both places, the one after the command wins.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator, Sequence

from okey_cli import conformance_cmd, deal_cmd, hand_cmd, play_main, rpc, score_cmd
from okey_cli.errors import EXIT_OK, CliError

# Each command module exposes `register(subparsers) -> None`; add new ones here.
COMMANDS = (
    hand_cmd,
    deal_cmd,
    conformance_cmd,
    play_main,
    score_cmd,
)


def _connection_defaults() -> dict[str, object]:
    """Each connection option's dest and its default, as `rpc.add_server_options` adds them."""
    probe = argparse.ArgumentParser(add_help=False)
    rpc.add_server_options(probe)
    return vars(probe.parse_args([]))


CONNECTION_DEFAULTS = _connection_defaults()
# Set (to the command's name) by a command that takes no connection options.
NO_CONNECTION = "_no_connection_options"


def _command_parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """Every command and subcommand parser under `parser`, depth first."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                yield command
                yield from _command_parsers(command)


def _take_connection_options_first(parser: argparse.ArgumentParser) -> None:
    """Lets the connection options stand before the command too.

    A command parser's defaults would overwrite what the top level parsed (argparse copies
    the command's whole namespace over the top level's), so at both levels an option that
    is not given stays unset; `parse_args` fills in the defaults afterwards.
    """
    rpc.add_server_options(parser)
    for each in (parser, *_command_parsers(parser)):
        takes_them = False
        for action in each._actions:
            if action.dest in CONNECTION_DEFAULTS:
                action.default = argparse.SUPPRESS
                takes_them = True
        has_commands = any(isinstance(a, argparse._SubParsersAction) for a in each._actions)
        if each is not parser and not takes_them and not has_commands:
            # A command that talks to no server (okey deal hash-seed): a connection
            # option given before it would otherwise be dropped without a word.
            each.set_defaults(**{NO_CONNECTION: each.prog})


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
    _take_connection_options_first(parser)
    return parser


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The command line parsed, connection options given before the command included."""
    parser = build_parser()
    args = parser.parse_args(argv)
    command = vars(args).pop(NO_CONNECTION, None)
    given = [dest for dest in CONNECTION_DEFAULTS if hasattr(args, dest)]
    if command is not None and given:
        option = "--" + given[0].replace("_", "-")
        parser.error(f"{option} does not apply to `{command}`: it talks to no server")
    for dest, default in CONNECTION_DEFAULTS.items():
        if not hasattr(args, dest):
            setattr(args, dest, default)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
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
