"""How the command reports errors: one located message on stderr and an exit code, never a
traceback. Every subcommand wraps itself in `reports_errors`.

Exit codes: 0 success; 1 an invalid rule file; 2 a usage error (click's: a flag's value out
of its range, a player count the ruleset is not for, seats that do not fit the table); 3 a
game that fails in play or a save refused (a rule failing during play, a deal file's order
that does not fit, a save that cannot be read or written); 130 a
run stopped by Ctrl-C; 141 an output closed by its reader (`cardrules run ... | head`), which
ends the command without a word, as it ends other command-line tools.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

import click

from cardrules.errors import CardrulesError, GameError, RuleRuntimeError, RulesetError
from cardrules.present.render import printable

EXIT_INVALID, EXIT_USAGE, EXIT_GAME = 1, 2, 3
EXIT_INTERRUPTED = 130  # what a shell reports for a program stopped by Ctrl-C (128 + SIGINT)
EXIT_CLOSED = 141  # ... and for one whose output was closed (128 + SIGPIPE)
F = TypeVar("F", bound=Callable[..., Any])


class OutputClosed(BaseException):
    """The command's output was closed by its reader. Not an Exception: raised where the
    engine is making a move (a watcher printing each action), it must pass through the
    engine, which takes any Exception raised then for a fault of the rules."""


def say(text: str = "") -> None:
    """click.echo to the output, where a closed output ends the command (OutputClosed)."""
    try:
        click.echo(text)
    except BrokenPipeError:
        raise OutputClosed from None


def _closed() -> None:
    """End quietly: nothing more is written to the closed output (not even the buffer Python
    would flush on leaving), and nothing is said."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # (an output without a file: nothing to flush into it)
        pass
    sys.exit(EXIT_CLOSED)


def reports_errors(fn: F) -> F:
    """Turn cardrules errors into messages on stderr and exit codes."""
    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            result = fn(*args, **kwargs)
            sys.stdout.flush()  # here, where a closed output is caught, not on leaving
            return result
        except (BrokenPipeError, OutputClosed):
            _closed()
        except RulesetError as exc:
            for diagnostic in exc.diagnostics:
                click.echo(printable(diagnostic.format()), err=True)
            sys.exit(EXIT_INVALID)
        except RuleRuntimeError as exc:  # a rule failed in play: where, and why
            click.echo(printable(exc.diagnostic.format() if exc.diagnostic else f"error: {exc}"),
                       err=True)
            sys.exit(EXIT_GAME)
        except GameError as exc:
            click.echo(printable(f"error: {exc}"), err=True)
            sys.exit(EXIT_GAME)
        except CardrulesError as exc:  # pragma: no cover - every error has a subclass above
            click.echo(printable(f"error: {exc}"), err=True)
            sys.exit(EXIT_GAME)
    return wrapper  # type: ignore[return-value]
