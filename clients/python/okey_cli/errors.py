"""Exit codes of the `okey` CLI and the one exception that carries them to `main`."""

from __future__ import annotations

# The documented exit codes (README "CLI"); a losing hand is a normal answer (0).
EXIT_OK = 0
EXIT_FAILED = 1  # conformance: some case failed, or no case ran
EXIT_BAD_INPUT = 2  # bad flags, INVALID_ARGUMENT from the server, malformed vector files
EXIT_UNREACHABLE = 3  # no server at the address, or it did not answer within the deadline
EXIT_SERVER_ERROR = 4  # the server answered with any other error status


class CliError(Exception):
    """A failure to report as one line on stderr, exiting with `exit_code`."""

    def __init__(self, message: str, exit_code: int) -> None:
        super().__init__(message)
        self.message = " ".join(message.split())  # one line, whatever the server sent
        self.exit_code = exit_code
