"""The one exception tree of cardrules, and located diagnostics.

Everything the project raises on purpose derives from CardrulesError. Only the
command line turns these into messages and exit codes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

# A source line longer than this is shown as this many of its characters around the column,
# with … where it is cut: a line of a hundred thousand digits is not quoted whole.
SHOWN = 100
_BEFORE = 40  # of those, at most this many before the column


@dataclass(frozen=True)
class Location:
    """A place in a rule file: 1-based line and column."""

    path: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"

    def shifted(self, text: str, offset: int) -> Location:
        """The location `offset` characters into `text`, which starts here."""
        before = text[:offset]
        newlines = before.count("\n")
        if newlines == 0:
            return Location(self.path, self.line, self.column + offset)
        return Location(self.path, self.line + newlines, offset - before.rfind("\n"))


@dataclass(frozen=True)
class Diagnostic:
    """One problem in a rule file, with where it is and what to do about it. `end`, when
    known, is where the offending text ends: the place just past its last character."""

    location: Location | None
    message: str
    source_line: str | None = None
    end: Location | None = None
    hint: bool = False  # a note that does not make the file invalid

    def format(self) -> str:
        """`path:line:col: message`, then the source line and a caret under the column, or
        carets under the whole offending text where its end is known; a hint says so."""
        message = f"hint: {self.message}" if self.hint else self.message
        if self.location is None:
            return message
        head = f"{self.location}: {message}"
        if not self.source_line:
            return head
        line = _visible(self.source_line.rstrip("\n").expandtabs(1))
        column = max(self.location.column, 1)
        width = self.width(len(line))
        if len(line) > SHOWN:
            line, column, width = _window(line, column, width)
        caret = " " * (column - 1) + "^" * width
        return f"{head}\n    {line}\n    {caret}"

    def width(self, line_length: int) -> int:
        """How many characters of the first line the offending text covers (at least one):
        to its end, or to the line's end when it goes on to the next lines."""
        start, end = self.location, self.end
        if start is None or end is None or (end.line, end.column) <= (start.line, start.column):
            return 1
        last = end.column if end.line == start.line else line_length + 1
        return max(min(last, line_length + 1) - max(start.column, 1), 1)


def _window(line: str, column: int, width: int) -> tuple[str, int, int]:
    """SHOWN characters of a long `line` around `column` (… marking each end cut off), with
    the column and the carets' width moved into it: the carets stop where the shown text
    does, unless the line ends there (a caret may stand just past a line's end)."""
    start = max(0, min(column - 1 - _BEFORE, len(line) - SHOWN))
    end = start + SHOWN
    last = min(column - 1 + width, end if end < len(line) else end + 1)
    cut = "\u2026" if start > 0 else ""
    shown = cut + line[start:end] + ("\u2026" if end < len(line) else "")
    return shown, column - start + len(cut), max(last - (column - 1), 1)


def _visible(line: str) -> str:
    """A source line as shown above its caret: each character that prints nothing (a control
    character, which a terminal's output drops) shown as U+FFFD, so the caret stays under
    the column it names."""
    return line if line.isprintable() else "".join(
        ch if ch.isprintable() else "\ufffd" for ch in line)


class CardrulesError(Exception):
    """Root of every error cardrules raises on purpose."""


class RulesetError(CardrulesError):
    """A rule file (or several) is not a valid ruleset; carries every diagnostic found."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(d.format() for d in self.diagnostics))


class GameError(CardrulesError):
    """A game cannot proceed as asked (bad player count, refused action, broken save)."""


class IllegalAction(GameError):
    """An action that is not among the legal ones; the state is unchanged."""


class RuleRuntimeError(GameError):
    """A rule failed while a game ran (for example: the top card of an empty zone). When the
    rule text is known, `diagnostic` points at it: `rules.yaml:12:9: ...`, the line, a caret."""

    def __init__(self, message: str, diagnostic: Diagnostic | None = None):
        super().__init__(diagnostic.format() if diagnostic is not None else message)
        self.message = message
        self.diagnostic = diagnostic


class NoLegalMove(RuleRuntimeError):
    """The seat to move has nothing it may do: the rules leave the game stuck there."""


class RuleFault(RuleRuntimeError):
    """What the runtime raises when a rule meets a state it cannot work on. `site` numbers
    the piece of rule text that failed (the ruleset's `sites`), when the runtime knows it;
    the engine turns it into a located RuleRuntimeError."""

    def __init__(self, message: str, site: int | None = None):
        super().__init__(message)
        self.site = site


class ProtocolError(CardrulesError):
    """What an editor sent the language server cannot be a message of its protocol (a header
    line far too long, a body larger than any rule file's): the server stops."""


class GeneratorError(CardrulesError):
    """The code generator was asked to write something it must never write (a name that is
    not a plain identifier, a value that is not a plain literal): a bug in cardrules."""
