"""What the command line gives, read and checked for every subcommand: numbers, options,
seat kinds.

Python's int() and float() read '٣', '３', '3_000', 'nan' and 'inf'; click's INT and FLOAT
types pass such text on. A flag value is typed by a person or a script, so these types take
only what the help shows: an optional '-', ASCII digits, for seconds a '.' and more digits.

Seat kinds come from here alone for a program (cmd:COMMAND): only the person at the command
line may seat one, in every command alike (`--seats` when a game starts, `--seat N=cmd:...`
when a saved game resumes); a save or a web request never names one.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from cardrules.errors import GameError
from cardrules.interpreter.players.bots import BOTS, check_kind
from cardrules.interpreter.players.external import is_command, split_seats
from cardrules.interpreter.sessions import record as records
from cardrules.interpreter.sessions.record import HUMAN, Record
from cardrules.model import Ruleset
from cardrules.present.render import printable, quoted

MAX_SEED = 2**63 - 1  # a saved game keeps a seed of at most this size, either sign
_WHOLE = re.compile(r"-?[0-9]+", re.ASCII)
MAX_DIGITS = 19  # of any number a flag takes
_DECIMAL = re.compile(r"[0-9]{1,6}(?:\.[0-9]{0,6})?|\.[0-9]{1,6}", re.ASCII)
_SIGNED = re.compile(r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)", re.ASCII)  # any size, any sign


class Whole(click.ParamType):
    """A whole number in ASCII digits from `low` to `high` (either may be None: unbounded,
    within 19 digits)."""

    name = "integer"

    def __init__(self, low: int | None = None, high: int | None = None):
        self.low, self.high = low, high

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
            if len(value.strip().lstrip("-").lstrip("0")) > MAX_DIGITS:  # (0001 is 1)
                most = f" of at most {MAX_DIGITS} digits" if self.high is None else ""
                self.fail(f"'{quoted(value, 24)}' is far too large: expected "
                          f"{self.range_text()}{most}", param, ctx)
            digits = value.strip()
            sign, digits = ("-", digits[1:]) if digits.startswith("-") else ("", digits)
            number = int(sign + (digits.lstrip("0") or "0"))  # (at most MAX_DIGITS of them)
        else:
            self.fail(f"expected a whole number in digits 0-9, got '{quoted(str(value), 24)}'",
                      param, ctx)
        if (self.low is not None and number < self.low) or \
                (self.high is not None and number > self.high):
            self.fail(f"{number} is not in the range {self.range_text()}", param, ctx)
        return number

    def range_text(self) -> str:
        if self.high is None:
            return f"x>={self.low}" if self.low is not None else "a whole number"
        if self.low is None:
            return f"x<={self.high}"
        return f"{self.low}<=x<={self.high}"


class Seconds(click.ParamType):
    """A number of seconds, such as 0.8, in ASCII digits, at most `high`."""

    name = "seconds"

    def __init__(self, high: float):
        self.high = high

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> float:
        text = value.strip() if isinstance(value, str) else ""
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(value)
        elif _DECIMAL.fullmatch(text):
            number = float(text)
        elif _SIGNED.fullmatch(text):  # a number, with a sign or more digits than a flag takes
            whole, _, fraction = text.lstrip("-").partition(".")
            if len(fraction) > 6 and len(whole) <= 6 and not text.startswith("-"):
                self.fail(f"'{quoted(text, 24)}' has more than 6 decimals: expected seconds "
                          f"in the range {self.range_text()}, such as 0.8", param, ctx)
            self.fail(f"'{quoted(text, 24)}' is not in the range {self.range_text()}",
                      param, ctx)
        else:
            self.fail(f"expected seconds in digits 0-9 (such as 0.8), in the range "
                      f"{self.range_text()}, got '{quoted(str(value), 24)}'", param, ctx)
        if not 0 <= number <= self.high:  # (also false for nan)
            self.fail(f"{number:g} is not in the range {self.range_text()}", param, ctx)
        return number

    def range_text(self) -> str:
        return f"0<=x<={self.high:g}"



class Address(click.ParamType):
    """A server's address as HOST:PORT, optionally after a scheme (tcp://host:8786)."""

    name = "address"
    _FORM = re.compile(r"(?:(?:tcp|tls|ws|wss|ucx)://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)"
                       r":[0-9]{1,5}", re.ASCII)

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> str:
        text = str(value).strip()
        if not self._FORM.fullmatch(text) or int(text.rsplit(":", 1)[1]) > 65535:
            self.fail(f"'{quoted(text, 40)}' is not an address: expected HOST:PORT, such as "
                      "tcp://127.0.0.1:8786", param, ctx)
        return text


SEED = Whole(-MAX_SEED, MAX_SEED)
SCHEDULER = Address()
SEAT = Whole(1, 16)  # a seat number, or a number of players


def parse_options(pairs: Iterable[str], hint: str = "--option") -> dict[str, str]:
    """`--option name=value` pairs to a dict (values stay text; the ruleset types them)."""
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise click.BadParameter(f"expected NAME=VALUE, got '{quoted(pair, 40)}'",
                                     param_hint=hint)
        out[name.strip()] = value.strip()
    return out


def player_count(players: int | None, rulesets: Sequence[Ruleset]) -> int:
    """--players, or the first ruleset's default; checked against every ruleset (a number
    a ruleset is not for is a usage error, as any flag out of its range)."""
    def takes(rules: Ruleset) -> str:
        low, high = rules.min_players, rules.max_players
        return f"{low} to {high} players" if low < high else \
            f"{low} player{'s' if low > 1 else ''}"

    if len(rulesets) > 1 and max(r.min_players for r in rulesets) > \
            min(r.max_players for r in rulesets):
        raise click.UsageError("these rulesets share no number of players: " + ", ".join(
            f"{rules.name} is for {takes(rules)}" for rules in rulesets))
    count = rulesets[0].default_players if players is None else players
    for rules in rulesets:
        if not rules.min_players <= count <= rules.max_players:
            given = f"not {count}" if players is not None else \
                f"not {count} ({rulesets[0].name}'s default: give --players)"
            raise click.BadParameter(f"{rules.name} is for {takes(rules)}, {given}",
                                     param_hint="--players")
    return count


def parse_seats(text: str | None, players: int, hint: str = "--seats",
                people: bool = True) -> list[str]:
    """--seats: one kind per player, comma-separated (a comma inside quotes or the brackets
    of `cmd[...]` does not separate seats); a built-in bot or a program, or a person where
    `people` may sit."""
    if text is None:
        return ["random"] * players
    if not text.strip():  # (given, but naming no seat: not the default said otherwise)
        raise click.BadParameter("expected one kind for each seat, comma-separated "
                                 "(greedy,random,random), got an empty text", param_hint=hint)
    kinds = split_seats(text)
    # each kind first: a mistake inside one (a quote left open, which takes in the commas
    # after it) is what to mend, not the count it throws off
    for kind in kinds:
        if not (people and kind == HUMAN):
            seat_kind(kind, hint, people)
    if len(kinds) != players:
        raise click.BadParameter(f"{len(kinds)} seats named for {players} players",
                                 param_hint=hint)
    return kinds


def seat_kind(kind: str, hint: str, people: bool = False) -> str:
    """One seat kind from the command line, checked without starting anything: a bot or a
    program, or a person (`human`) where `people` may sit. A refusal names the kinds this
    option takes, and only those."""
    if not is_command(kind) and kind.partition(":")[0] not in BOTS:
        expected = ", ".join([*BOTS, HUMAN] if people else BOTS)
        found = ("these seats are for bots and programs, not a person ('human')"
                 if kind == HUMAN else
                 f"unknown seat kind '{quoted(kind.partition(':')[0], 24)}'")
        raise click.BadParameter(f"{found}: expected one of {expected} (a search bot may "
                                 "take a budget: ismcts:200), or cmd:COMMAND for a program",
                                 param_hint=hint)
    try:
        check_kind(kind, programs=True)
    except GameError as exc:
        raise click.BadParameter(str(exc), param_hint=hint) from None
    return kind


def file_name(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """A file option's (or argument's) value, refused when it names no file at all (an
    empty text), in every command alike."""
    if value is not None and not str(value).strip():
        folder = isinstance(param.type, click.Path) and not param.type.file_okay
        raise click.BadParameter(f"expected a {'folder' if folder else 'file'} name, got an "
                                 "empty text")
    return value


def parse_programs(pairs: Iterable[str]) -> dict[int, str]:
    """`--seat N=cmd:COMMAND` (repeatable): the program to play seat N of a resumed game,
    by seat number from 1 (the result counts from 0); or `--seat N=KIND`, a bot's kind named
    again where the save gives it more than a save may seat by itself (ismcts:200)."""
    out: dict[int, str] = {}
    for pair in pairs:
        number, sep, kind = pair.partition("=")
        number = number.strip()
        if not (sep and number.isascii() and number.isdigit() and len(number) <= 2
                and 1 <= int(number) <= 64):
            raise click.BadParameter(f"expected SEAT=cmd:COMMAND (2=cmd:python bot.py), got "
                                     f"'{quoted(pair, 40)}'", param_hint="--seat")
        out[int(number) - 1] = seat_kind(kind.strip(), "--seat")
    return out


@dataclass(frozen=True)
class Output:
    """What an option writes to a file, so that a file it wrote before is known again:
    `what` it holds, in words, and `holds(head)`, whether a file that begins with `head` (at
    most HEAD bytes of it) holds that."""

    what: str
    holds: Callable[[bytes], bool]


HEAD = 65536  # bytes read of a file that is there, to tell what it holds


def check_writable(path: str, hint: str, output: Output) -> Path:
    """A file an option names, checked before any work is done that would be lost were it
    not written: its folder must exist and take files, and a file already there must be one
    this user may replace, and one the option wrote (check_output). Nothing is created (the
    file is written once there is something to write)."""
    target = Path(path)
    problem = place_problem(target)
    if problem is None:
        try:
            check_output(target, hint, output)
            return target
        except (OSError, ValueError) as exc:  # a name the system refuses
            problem = str(exc)
    raise click.BadParameter(f"cannot write {quoted(path, 60)}: {problem}", param_hint=hint)


def place_problem(target: Path) -> str | None:
    """Why a file could not be written at `target` (its folder missing or closed to this
    user, a folder there, a file there that may not be written), or None."""
    folder = target.parent
    try:
        if target.is_dir():
            return "it is a folder"
        if not folder.is_dir():
            return f"there is no folder {folder}"
        if target.exists() and not os.access(target, os.W_OK):
            return "it may not be written"
        if not target.exists() and not os.access(folder, os.W_OK | os.X_OK):
            return f"the folder {folder} may not be written"
    except (OSError, ValueError) as exc:  # a name the system refuses
        return str(exc)
    return None


def check_output(target: Path, hint: str, output: Output) -> None:
    """Refuse (a usage error, before anything is played) a file the option `hint` would
    write over that holds something else than the option writes: a rule file (the one being
    played, say), a save, a deal, any other file is the user's, and is kept. An empty file,
    a link (replaced itself, never written through: files.py), a device or a pipe (written
    into) are written; so is a name nothing has yet, or one the system refuses (the write
    then says why)."""
    try:
        status = os.lstat(target)
    except (OSError, ValueError):
        return
    if not stat.S_ISREG(status.st_mode) or status.st_size == 0:
        return
    try:
        with open(target, "rb") as file:
            head = file.read(HEAD)
    except OSError as exc:
        raise click.BadParameter(f"will not write over {_named(target)}: it may not "
                                 f"be read, to tell whether it holds {output.what} "
                                 f"({exc.strerror or exc})", param_hint=hint) from None
    if not output.holds(head):
        raise click.BadParameter(f"will not write over {_named(target)}: {hint} replaces "
                                 f"only {output.what}, and this file holds something else; "
                                 "choose another file, or remove it first", param_hint=hint)


def _named(path: Path) -> str:
    """A file's name as given, to name it in a message: a long one clipped at its start,
    which keeps the file's own name."""
    text = quoted(str(path), len(str(path)))
    return text if len(text) <= 200 else "..." + text[-197:]


def first_line(head: bytes) -> bytes | None:
    """A file's first line (without its line end), if `head` holds all of it."""
    line, end, _ = head.partition(b"\n")
    return line.removesuffix(b"\r") if end else None


def check_save(save: str | None, game: Record) -> None:
    """Refuse (a usage error, before anything is played) a --save file that is there and is
    not a save of this game: a rule file, any other file, a save of another game."""
    problem = None
    if save:
        problem = place_problem(Path(save))
        problem = f"cannot write {quoted(save, 60)}: {problem}" if problem is not None \
            else records.overwrite_problem(Path(save), game)
    if problem is not None:
        raise click.BadParameter(printable(problem), param_hint="--save")
