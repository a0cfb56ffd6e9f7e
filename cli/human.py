"""People in seats: play at the terminal against bots or each other, save, resume.

    cardrules play golf6                        # you in seat 1, random bots elsewhere
    cardrules run golf6 --human 1 --human 3     # two people pass the terminal between turns
    cardrules resume golf6-7.cardrules-save     # on from where a game was saved

A person sees only their seat's view (cli/screen.py) and picks one of the legal actions by
number; an action with an open parameter (a prediction to write) asks for the text and
checks it before the engine sees it. Nothing typed ever changes the game unless it is a
legal action. A saved game is a record of the game's start and every action since
(interpreter/record.py): resuming deals the game again and replays each action through the
engine, then sets every bot's random stream, so a resumed game goes on exactly as it would
have, and a save, however edited, reaches only positions the rules allow.
"""

from __future__ import annotations

import json
import re
import secrets
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import wraps
from pathlib import Path
from typing import Any, TypeVar

import click

from cardrules.dsl.loader import load_ruleset
from cardrules.errors import GameError, IllegalAction
from cardrules.interpreter import record
from cardrules.interpreter.bots import Bot
from cardrules.interpreter.domains import Words, is_open
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.events import EventStream
from cardrules.interpreter.record import HUMAN, Record, action_data, make_bots
from cardrules.interpreter.state import GameState
from cardrules.model import Action

from . import render
from .params import SEAT, SEED
from .render import printable, quoted
from .screen import (
    CLEAR,
    RULE,
    Style,
    cards_in_text,
    choice_lines,
    decision_screen,
    help_lines,
    known_before,
    matching,
    numbered,
    open_prompt,
    paint,
    public_line,
    revealed,
    round_line,
    rules_lines,
    view_section,
)

EXIT_GAME, EXIT_INTERRUPTED = 3, 130
KEPT_EVENTS = 200  # lines kept for a seat that has not decided for a long time
EOFS_TO_STOP = 5  # a terminal that keeps sending end-of-file has gone away
_NUMBER = re.compile(r"([0-9]+)(?:\s+(\S.*))?", re.ASCII | re.DOTALL)
F = TypeVar("F", bound=Callable[..., Any])


class Stop(Exception):
    """The session ends before the game does (quit, input gone); carries the exit code."""

    def __init__(self, code: int):
        super().__init__(code)
        self.code = code


def reports_errors(fn: F) -> F:
    """cli.main's error reporting, looked up when called: main imports this module at its
    end, so this module cannot import main while it loads."""
    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from .main import reports_errors as report
        return report(fn)(*args, **kwargs)
    return wrapper  # type: ignore[return-value]


# ----------------------------------------------------------------------- the table
@dataclass
class Table:
    """A game with its seats, and its record (what a save file holds)."""

    record: Record
    engine: Engine
    state: GameState
    bots: list[Bot | None]
    pending: dict[int, list[str]] = field(default_factory=dict)  # human seat -> news

    @classmethod
    def start(cls, ref: str, options: dict[str, str], engine: Engine, state: GameState,
              seats: list[str], seed: int, plain: bool = False) -> Table:
        record = Record.new(ref, options, engine.rules, state.n, seed, seats, plain)
        return cls(record, engine, state, make_bots(seats, seed),
                   {p: [] for p, k in enumerate(seats) if k == HUMAN})

    @property
    def seats(self) -> list[str]:
        return self.record.seats

    @property
    def seed(self) -> int:
        return self.record.seed

    @property
    def plain(self) -> bool:
        return self.record.plain

    @plain.setter
    def plain(self, value: bool) -> None:
        self.record.plain = value

    @property
    def humans(self) -> list[int]:
        return [p for p, kind in enumerate(self.seats) if kind == HUMAN]

    def advance(self, seat: int, action: Action) -> list[Action]:
        """Apply `seat`'s action, note it in the record, and tell every other person at the
        table what they may know of it (and the scores, when it ends a round)."""
        engine, state = self.engine, self.state
        line = public_line(engine, state, seat, action)
        before = known_before(engine, state, action)
        rounds = len(state.round_scores)
        engine.apply(state, action)
        self.record.actions.append(action_data(action))
        legal = engine.legal_actions(state)
        if line is not None and len(state.round_scores) == rounds:
            line += revealed(engine, before, state, action)
        for human, news in self.pending.items():
            if line is not None and human != seat:
                news.append(line)
            if len(state.round_scores) > rounds:
                news.extend(self.round_layout())
                news.append(round_line(state))
            del news[:-KEPT_EVENTS]
        return legal

    def replayed(self, seat: int, action: Action) -> None:
        """`advance` for an action read from a save: a person who made it had seen their
        news then, as in play."""
        if seat in self.pending:
            self.pending[seat] = []
        self.advance(seat, action)

    def round_layout(self) -> list[str]:
        """How the round just scored ended, as the public log records it (only the cards
        everyone knows are named), when the game keeps a log."""
        events = [e for e in self.state.log or [] if e.get("event") == "round_end"]
        if not events:
            return []
        return render.round_summary(self.engine.rules, events[-1], self.plain)[1:]

    def write(self, path: Path) -> None:
        """Save the game; a failed write leaves any earlier save as it was."""
        self.record.keep_streams(self.bots)
        record.write(path, self.record)


def round_ends(sink: Callable[[dict[str, Any]], None] | None = None) -> EventStream:
    """The event log a table keeps: the last round's end, for the round's account (and
    every event handed to `sink`, a log file's writer, as it comes)."""
    return EventStream(sink, kinds=("round_end",), keep=1)


# ----------------------------------------------------------------- reading saves
def read_save(path: Path) -> Table:
    """The game saved in `path`, replayed from its start to where it was saved; GameError
    (one line, naming the file) if it is not one, or does not replay."""
    saved = record.read(path)
    if HUMAN not in saved.seats:
        raise GameError(f"{path}: a saved game with no seat for a person")
    try:
        engine, state = record.start(saved, load_ruleset, log=round_ends())
        table = Table(replace(saved, actions=[]), engine, state,
                      make_bots(saved.seats, saved.seed),
                      {p: [] for p, k in enumerate(saved.seats) if k == HUMAN})
        record.replay(saved, engine, state, table.replayed)
    except GameError as exc:
        raise GameError(f"{path}: {exc}") from None
    record.restore_streams(table.bots, saved.bots)
    return table


# ----------------------------------------------------------------------- console
class Console:
    """Lines out, lines in. A line that cannot be read (Ctrl-C, Ctrl-D) is refused with
    a reason and comes back as None; input that has ended for good raises Stop."""

    def __init__(self, style: Style):
        self.style = style
        self.interactive = sys.stdin.isatty()
        self.eofs = 0

    def show(self, lines: Sequence[str]) -> None:
        for line in lines:
            click.echo(line)

    def refuse(self, reason: str) -> None:
        click.echo(printable(f"refused: {reason}"))

    def clear(self) -> None:
        """Clear the screen and what scrolled off it, so the next person sees nothing."""
        if sys.stdout.isatty():
            click.echo(CLEAR, nl=False)
        else:
            click.echo("\n" * 3, nl=False)

    def ask(self, prompt: str) -> str | None:
        try:
            line = input(prompt)
        except KeyboardInterrupt:
            click.echo("")
            self.refuse("interrupted (Ctrl-C): nothing chosen; type quit to stop")
            return None
        except EOFError:
            self.eofs += 1
            click.echo("")
            if not self.interactive or self.eofs >= EOFS_TO_STOP:
                click.echo("error: input ended before the game did", err=True)
                raise Stop(EXIT_GAME) from None
            self.refuse("end of input (Ctrl-D) ignored: type quit to stop")
            return None
        self.eofs = 0
        return line


# ----------------------------------------------------------------------- session
class Session:
    """Plays a table to its end, asking people for their seats' decisions."""

    def __init__(self, table: Table, console: Console, save: Path | None):
        self.table = table
        self.console = console
        self.save = save  # None: saved only on quit, to a default file
        self.last_person: int | None = None

    @property
    def save_path(self) -> Path:
        if self.save is not None:
            return self.save
        return Path(f"{self.table.engine.rules.name}-{self.table.seed}.cardrules-save")

    def play(self) -> None:
        """Play on until the game is over; Stop if a person quits."""
        t = self.table
        engine, state = t.engine, t.state
        legal = engine.legal_actions(state)
        while legal:
            seat = engine.to_move(state)
            assert seat is not None
            bot = t.bots[seat]
            if bot is not None:
                legal = t.advance(seat, bot.choose(engine, state, legal))
                continue
            action = self.decide(seat, legal)
            seen = t.pending[seat]
            t.pending[seat] = []  # shown with this decision; what the action brings is news
            try:
                legal = t.advance(seat, action)
            except IllegalAction as exc:  # the engine refused: the state is unchanged
                t.pending[seat] = seen
                self.console.refuse(str(exc))
                continue
            if self.save is not None:
                t.write(self.save)

    # ------------------------------------------------------------ one decision
    def decide(self, seat: int, legal: list[Action]) -> Action:
        t = self.table
        if len(t.humans) > 1 and seat != self.last_person:
            self.hand_over(seat)
        self.last_person = seat
        self.console.show(decision_screen(t.engine, t.state, seat, legal, t.pending[seat],
                                          self.console.style))
        choices = numbered(legal)
        while True:
            line = self.console.ask(f"seat {seat + 1}> ")
            if line is not None:
                action = self.answer(seat, legal, choices, line.strip())
                if action is not None:
                    return action

    def hand_over(self, seat: int) -> None:
        """Pass and play: a clear screen until the next person says they are at it."""
        self.console.clear()
        self.console.show([f"Seat {seat + 1} to play: pass the terminal to seat {seat + 1}, "
                           "everyone else look away."])
        while self.console.ask(f"Seat {seat + 1}, press Enter when ready ") is None:
            pass
        self.console.clear()

    def answer(self, seat: int, legal: list[Action], choices: dict[int, Action],
               text: str) -> Action | None:
        """The action a typed line picks, or None once the line is dealt with otherwise
        (a command carried out, a narrowed list shown, or a refusal given)."""
        t, console, style = self.table, self.console, self.console.style
        engine, state = t.engine, t.state
        word = text.lower()
        if not text:
            console.refuse("nothing typed: type the number of a choice (or help)")
        elif word in ("help", "?"):
            console.show(help_lines(engine, state, seat, legal))
        elif word == "rules":
            console.show(rules_lines(engine.rules))
        elif word in ("quit", "exit"):
            self.quit()
        elif word == "all":
            console.show([paint(line, style) for line in
                          choice_lines(engine, state, seat, choices, style, limit=None)])
        elif match := _NUMBER.fullmatch(text):  # ASCII digits only: '١' is no 1
            return self.pick(choices, match.group(1), match.group(2))
        elif text.split()[0].isdigit():  # digits of another script: '١', '３'
            console.refuse(f"'{quoted(text.split()[0])}' is not a number in digits 0-9: "
                           "type the number of a choice")
        else:
            found = matching(engine, state, seat, choices, text.split())
            if not found:
                console.refuse(f"no choice has the words '{quoted(text)}': type a number "
                               "(or help)")
            else:
                console.show([paint(line, style) for line in
                              choice_lines(engine, state, seat, choices, style, only=found)])
        return None

    def pick(self, choices: dict[int, Action], digits: str, rest: str | None) -> Action | None:
        number = int(digits) if len(digits) <= 9 else -1
        if number not in choices:
            shown = digits if len(digits) <= 12 else digits[:9] + "..."
            self.console.refuse(f"there is no choice {shown}: type a number from "
                                f"{min(choices)} to {max(choices)}")
            return None
        action = choices[number]
        if is_open(action):
            return self.fill(action, rest)
        if rest is not None:
            self.console.refuse(f"choice {number} needs nothing more: type just {number}")
            return None
        return action

    def fill(self, action: Action, given: str | None) -> Action | None:
        """Ask for each open parameter's text until it is acceptable; None to go back.
        `given`: the text typed after the choice's number, taken for the first one."""
        parts = list(action)
        for index, domain in enumerate(action):
            if not isinstance(domain, Words):
                continue
            say, prompt = open_prompt(self.table.engine, action, index)
            if given is None:
                self.console.show([say])
            while True:
                typed = given if given is not None else self.console.ask(prompt)
                given = None
                if typed is None:
                    continue
                value = fitted(domain, typed.strip())
                problem = domain.problem(value)
                if problem is None:
                    parts[index] = value
                    break
                if value.lower() == "back":
                    self.console.show(["Back to the choices."])
                    return None
                self.console.refuse(problem)
        return tuple(parts)

    def quit(self) -> None:
        path = self.save_path
        reply = self.console.ask(f"Quit now, saving the game to {path}? [y/N] ")
        if reply is None or reply.strip().lower() not in ("y", "yes"):
            self.console.show(["Not quitting: the game goes on."])
            return
        self.table.write(path)
        self.console.show([f"Game saved to {path}. Resume it with: cardrules resume {path}"])
        raise Stop(0)

    # ---------------------------------------------------------------- the end
    def end_lines(self) -> list[str]:
        """After the game: what people missed since their last decision, the single
        person's final view, and the standings."""
        t, style = self.table, self.console.style
        names = frozenset(t.engine.rules.cards.names)
        lines = [RULE, "Game over."]
        alone = len(t.humans) == 1
        for seat, news in t.pending.items():
            if news:
                lines.append("Since your last decision:" if alone else
                             f"Since seat {seat + 1}'s last decision:")
                lines += ["  " + line for line in news[-40:]]
        if len(t.humans) == 1:
            lines += view_section(t.engine.rules, t.state, t.humans[0], style)
        lines += render.standings(t.engine.results(t.state), t.engine.rules.winner,
                                  t.engine.rules.teams)
        return [paint(cards_in_text(printable(line), names, style), style) for line in lines]


def fitted(domain: Words, value: str) -> str:
    """Letters typed in the other case are taken when the alphabet has one case only."""
    alphabet = domain.alphabet
    if domain.problem(value) is None:
        return value
    if alphabet == alphabet.upper():
        other = value.upper()
    elif alphabet == alphabet.lower():
        other = value.lower()
    else:
        return value
    return other if domain.problem(other) is None else value


# ---------------------------------------------------------------------- commands
def play_table(table: Table, plain: bool, save: str | None, as_json: bool = False) -> None:
    """Play a table at the terminal to its end and print the results (exit on a quit)."""
    console = Console(Style.for_terminal(plain or table.plain, sys.stdout.isatty(),
                                         getattr(sys.stdout, "encoding", None)))
    table.plain = plain or table.plain
    session = Session(table, console, Path(save) if save else None)
    try:
        session.play()
    except Stop as stop:
        sys.exit(stop.code)
    except KeyboardInterrupt:
        where = f"; your last decision is saved in {session.save}" if session.save else ""
        click.echo(f"\ninterrupted{where}", err=True)
        sys.exit(EXIT_INTERRUPTED)
    if as_json:
        click.echo(json.dumps(table.engine.results(table.state)))
    else:
        console.show(session.end_lines())


def run_with_humans(ref: str, options: dict[str, str], engine: Engine, state: GameState,
                    kinds: list[str], humans: Sequence[int], seed: int, plain: bool,
                    save: str | None, as_json: bool, view_seat: int | None) -> None:
    """`cardrules run` with people in seats (`--human SEAT`, or `human` in `--seats`)."""
    seats = list(kinds)
    for seat in humans:
        if seat > state.n:
            raise click.BadParameter(f"there are {state.n} seats", param_hint="--human")
        seats[seat - 1] = HUMAN
    if HUMAN not in seats:
        raise click.BadParameter("saving is for games with people: add --human SEAT",
                                 param_hint="--save")
    if view_seat is not None:
        raise click.BadParameter("a person sees their own seat's view; --view is for games "
                                 "of bots", param_hint="--view")
    rules = engine.rules
    if not as_json:
        click.echo(printable(f"{rules.title} ({rules.name}) - {state.n} players, seed {seed}, "
                             f"seats: {', '.join(seats)}"))
    play_table(Table.start(ref, options, engine, state, seats, seed, plain), plain, save,
               as_json)


@click.command("play")
@click.argument("ruleset")
@click.option("--players", "-p", type=SEAT, help="Number of players "
              "(default: the ruleset's).")
@click.option("--seed", "-s", type=SEED, help="Seed for the deal and the bots (default: a new "
              "one, shown at the start).")
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
              help="Set one of the ruleset's options (repeatable).")
@click.option("--save", "save_file", type=click.Path(dir_okay=False),
              help="Save the game to this file after each of your decisions.")
@click.option("--plain", is_flag=True, help="Letters instead of suit symbols, no colour.")
@reports_errors
def play_cmd(ruleset: str, players: int | None, seed: int | None, options: tuple[str, ...],
             save_file: str | None, plain: bool) -> None:
    """Play RULESET yourself, in seat 1, against random bots."""
    from .main import parse_options
    chosen = parse_options(options)
    seed = secrets.randbelow(1_000_000) if seed is None else seed
    engine = Engine(load_ruleset(ruleset, chosen))
    state = engine.new_game(players, seed, log=round_ends())
    seats = [HUMAN] + ["random"] * (state.n - 1)
    run_with_humans(ruleset, chosen, engine, state, seats, (), seed, plain, save_file,
                    False, None)


@click.command("resume")
@click.argument("file")
@click.option("--save", "save_file", type=click.Path(dir_okay=False),
              help="Save to this file from now on (default: FILE itself).")
@click.option("--plain", is_flag=True, help="Letters instead of suit symbols, no colour.")
@reports_errors
def resume_cmd(file: str, save_file: str | None, plain: bool) -> None:
    """Go on with a game saved by `play`, or `run --human` (after quit or --save)."""
    table = read_save(Path(file))
    rules = table.engine.rules
    click.echo(printable(f"{rules.title} ({rules.name}) - {table.state.n} players, seed "
                         f"{table.seed}, seats: {', '.join(table.seats)} - resumed from {file}"))
    play_table(table, plain, save_file or file)
