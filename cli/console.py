"""The terminal a person plays at: lines out, each fitted to its width, and lines in, where
Ctrl-C and Ctrl-D are refused with a reason and input that has ended for good stops the
session (Stop, with its exit code)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from cardrules.present.render import printable

from .errors import EXIT_GAME
from .screen import CLEAR, Style, fit, terminal_width

EOFS_TO_STOP = 5  # a terminal that keeps sending end-of-file has gone away


class Stop(Exception):
    """The session ends before the game does (quit, input gone); carries the exit code."""

    def __init__(self, code: int):
        super().__init__(code)
        self.code = code


# ----------------------------------------------------------------------- console
class Console:
    """Lines out, lines in. A line that cannot be read (Ctrl-C, Ctrl-D) is refused with
    a reason and comes back as None; input that has ended for good raises Stop."""

    def __init__(self, style: Style):
        self.style = style
        self.interactive = sys.stdin.isatty()
        self.eofs = 0

    def show(self, lines: Sequence[str]) -> None:
        """Print `lines`, each broken to fit the terminal's width."""
        for line in fit(lines, terminal_width()):
            click.echo(line)

    def refuse(self, reason: str) -> None:
        self.show([printable(f"refused: {reason}")])

    def clear(self) -> None:
        """Clear the screen and what scrolled off it, so the next person sees nothing."""
        if sys.stdout.isatty():
            click.echo(CLEAR, nl=False)
        else:
            click.echo("\n" * 3, nl=False)

    def ask(self, prompt: str, stop: str = "type quit to stop") -> str | None:
        """A line typed at `prompt`; None, refused, for Ctrl-C or Ctrl-D (`stop`: how to
        stop at this prompt, as the refusal says it)."""
        try:
            line = input(prompt)
        except KeyboardInterrupt:
            click.echo("")
            self.refuse(f"interrupted (Ctrl-C): nothing chosen; {stop}")
            return None
        except EOFError:
            self.eofs += 1
            click.echo("")
            if not self.interactive or self.eofs >= EOFS_TO_STOP:
                click.echo("error: input ended before the game did", err=True)
                raise Stop(EXIT_GAME) from None
            self.refuse(f"end of input (Ctrl-D) ignored: {stop}")
            return None
        self.eofs = 0
        return line

    def ask_last(self, prompt: str) -> str | None:
        """A line once the game is over; None where none comes (the input has ended, or
        Ctrl-C): there is nothing left to lose."""
        try:
            return input(prompt)
        except (EOFError, KeyboardInterrupt):
            click.echo("")
            return None
