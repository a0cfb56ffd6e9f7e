"""How the command reports errors: one located message on stderr and an exit code, never a
traceback. Every subcommand wraps itself in `reports_errors`.

Exit codes: 0 success; 1 an invalid rule file; 2 a usage error (click's); 3 a game that
cannot be played as asked (player count, a rule failing during play, a refused save); 130 a
run stopped by Ctrl-C.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

import click

from cardrules.errors import CardrulesError, GameError, RuleRuntimeError, RulesetError
from cardrules.present.render import printable

EXIT_INVALID, EXIT_USAGE, EXIT_GAME = 1, 2, 3
EXIT_INTERRUPTED = 130  # what a shell reports for a program stopped by Ctrl-C (128 + SIGINT)
F = TypeVar("F", bound=Callable[..., Any])


def reports_errors(fn: F) -> F:
    """Turn cardrules errors into messages on stderr and exit codes."""
    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
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
