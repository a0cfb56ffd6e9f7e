"""People in seats: play at the terminal against bots or each other, save, resume.

    cardrules play golf6                        # you in seat 1, greedy bots elsewhere
    cardrules run golf6 --human 1 --human 3     # two people pass the terminal between turns
    cardrules resume golf6-7.cardrules-save     # on from where a game was saved

A person sees only their seat's view (cli/screen.py) and picks one of the legal actions by
number; an action with an open parameter (a prediction to write) asks for the text and
checks it before the engine sees it. Nothing typed ever changes the game unless it is a
legal action. A saved game is a record of the game's start and every action since
(interpreter/sessions/record.py): resuming deals the game again and replays each action through the
engine, then sets every bot's random stream, so a resumed game goes on exactly as it would
have, and a save, however edited, reaches only positions the rules allow.
"""

from __future__ import annotations

import copy
import json
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import click

from cardrules.dsl.loader import load_referenced, load_ruleset
from cardrules.errors import GameError, IllegalAction
from cardrules.interpreter.domains import Words, is_open
from cardrules.interpreter.engine import PASS, Engine
from cardrules.interpreter.players.bots import OPPONENT
from cardrules.interpreter.players.external import Forfeit, forfeit
from cardrules.interpreter.sessions import record as records
from cardrules.interpreter.sessions.events import round_ends
from cardrules.interpreter.sessions.play import finish
from cardrules.interpreter.sessions.record import HUMAN, Record
from cardrules.interpreter.sessions.start import free_path, fresh_seed
from cardrules.interpreter.state import GameState
from cardrules.model import Action
from cardrules.present.choices import offered
from cardrules.present.lines import fitted, rules_lines
from cardrules.present.render import printable, quoted

from . import commands, parts
from .console import Console, Stop
from .end import after_end, end_lines
from .errors import EXIT_INTERRUPTED, reports_errors
from .params import (
    SEAT,
    SEED,
    check_save,
    file_name,
    parse_options,
    parse_programs,
    player_count,
    seat_kind,
)
from .screen import (
    OnScreen,
    Style,
    cards_in_text,
    choice_lines,
    decision_screen,
    fit,
    help_lines,
    matching,
    numbered,
    open_prompt,
    paint,
    terminal_width,
    text_commands,
    text_way_out,
)
from .table import Table, game_line, read_save, resume_command

__all__ = ["HUMAN", "Table", "read_save", "play_cmd", "resume_cmd", "run_with_humans",
           "round_ends"]

_NUMBER = re.compile(r"([0-9]+)(?:\s+(\S.*))?", re.ASCII | re.DOTALL)


class TakenBack(Exception):
    """A person took back their last decision: the game stands where it was made."""


# ----------------------------------------------------------------------- session
# What works at the prompt of a choice made a part at a time (`help` there).
IN_PARTS_HELP = ("This choice is made a part at a time. Type a number from 1 to {} for this "
                 "part; back (or 0) goes back to the whole choices, where log, hint and "
                 "takeback work; quit saves and stops.")


class Session:
    """Plays a table to its end, asking people for their seats' decisions."""

    def __init__(self, table: Table, console: Console, save: Path | None):
        self.table = table
        self.console = console
        self.save = save  # None: saved only on quit, to a default file
        self.default: Path | None = None  # that file, once named
        self.last_person: int | None = None
        self.save_problem: str | None = None  # why the last save after a decision failed
        self.unsaved: str | None = None  # why the last save on quitting failed
        self.unsaveable: str | None = None  # why the game can never be saved, if it cannot
        self.shown = OnScreen({}, set(), {})  # the choices the person has been shown
        self.decided: Record | None = None  # the game at the last decision (autosave)
        # the seats asked for a decision so far (a resumed game's people have decided)
        self.asked: set[int] | None = None if table.record.actions else set()

    def autosave(self) -> None:
        """Save after a decision (with --save; without, the game as it stands is kept in
        memory, `decided`, to be saved if play is interrupted before the next). A save that
        fails (a full disk, a game too long for a save) is said once, on stderr, and play
        goes on; the earlier save stays as it was."""
        if self.save is None:
            if self.unsaveable is None:
                self.decided = copy.deepcopy(self.table.noted())
            return
        try:
            self.table.write(self.save)
        except GameError as exc:
            if self.save_problem is None:
                click.echo(printable(f"warning: {exc}; the game goes on unsaved"), err=True)
            self.save_problem = str(exc)
        else:
            self.save_problem = None

    @property
    def save_path(self) -> Path:
        if self.save is not None:
            return self.save
        if self.default is None:  # (named for the ruleset: a seed in its name would tell it)
            self.default = free_path(Path(), self.table.engine.rules.name)
        return self.default

    def play(self) -> None:
        """Play on until the game is over; Stop if a person quits."""
        t = self.table
        legal = t.listed()
        while legal:
            engine, state = t.engine, t.state
            seat = engine.to_move(state)
            assert seat is not None
            bot = t.bots[seat]
            if bot is not None:
                try:
                    legal = t.advance(seat, bot.choose(engine, state, legal))
                except Forfeit as exc:  # a program seat's bad answer ends the game
                    forfeit(engine, state, exc.seat)
                    t.say_all(f"seat {exc.seat + 1} forfeits the game: {exc.reason}")
                    break
                self.watch_out()
                continue
            if t.windows.passes(state, seat):  # a chance to react the person lets go by
                legal = t.advance(seat, PASS)
                continue
            if t.play_lone(seat, legal):  # nothing to decide: played for them, and told so
                legal = t.listed()
                self.autosave()
                continue
            action = self.decide(seat, legal)
            if action is None:  # the decision before this one was taken back
                legal = t.listed()
                self.autosave()
                continue
            seen = t.pending[seat]
            t.pending[seat] = []  # shown with this decision; what the action brings is news
            try:
                legal = t.advance(seat, action, chosen=True)
            except IllegalAction as exc:  # the engine refused: the state is unchanged
                t.pending[seat] = seen
                self.console.refuse(str(exc))
                continue
            self.autosave()
        self.watch_out()

    def watch_out(self) -> None:
        """Once every person is out of the game, what happens is shown as it happens."""
        t = self.table
        if t.humans and not any(t.state.active[p] for p in t.humans):
            for seat in t.humans:
                if t.pending[seat]:
                    self.console.show([printable("  " + line) for line in t.pending[seat]])
                    t.pending[seat] = []

    # ------------------------------------------------------------ one decision
    def decide(self, seat: int, legal: list[Action]) -> Action | None:
        """The action the person at `seat` picks; None if they took back the decision
        before it instead (the game stands elsewhere now)."""
        t = self.table
        if len(t.humans) > 1 and seat != self.last_person:
            self.hand_over(seat)
        self.last_person = seat
        legal = offered(t.engine, t.state, seat, legal)
        first = self.asked is not None and seat not in self.asked
        if self.asked is not None:
            self.asked.add(seat)
        self.console.show(decision_screen(t.engine, t.state, seat, legal, t.pending[seat],
                                          self.console.style, t.windows.seats.get(seat),
                                          first))
        choices = numbered(legal)
        self.shown = OnScreen.of(choices)
        while True:
            line = self.console.ask(f"seat {seat + 1}> ")
            if line is None:
                continue
            try:
                action = self.answer(seat, legal, choices, line.strip())
            except TakenBack:
                return None
            if action is not None:
                return action

    def hand_over(self, seat: int) -> None:
        """Pass and play: a clear screen until the next person says they are at it."""
        self.console.clear()
        self.console.show([f"Seat {seat + 1} to play: pass the terminal to seat {seat + 1}, "
                           "everyone else look away."])
        # Only Enter hands over: anything else typed there is the last person's, who must
        # not see the next one's screen by typing it (quit saves and stops, as elsewhere).
        while True:
            line = self.console.ask(f"Seat {seat + 1}, press Enter when ready ")
            if line is None:
                continue
            word = line.strip().lower()
            if not word:
                break
            if word in ("quit", "exit"):
                self.quit()
            else:
                self.console.refuse(f"press Enter once seat {seat + 1} is at the terminal "
                                    "(or type quit to save and stop)")
        self.console.clear()

    def answer(self, seat: int, legal: list[Action], choices: dict[int, Action],
               text: str) -> Action | None:
        """The action a typed line picks, or None once the line is dealt with otherwise
        (a command carried out, a narrowed list shown, or a refusal given)."""
        t, console, style = self.table, self.console, self.console.style
        engine, state = t.engine, t.state
        word = text.lower()
        if not text and 0 in choices:  # in a reaction window, Enter lets it go by
            return choices[0]
        if not text:
            console.refuse("nothing typed: type the number of a choice (or help)")
        elif word in ("help", "?"):
            console.show(help_lines(engine, state, seat, legal))
        elif word == "rules":
            console.show(rules_lines(engine.rules))
        elif word in ("quit", "exit"):
            self.quit()
        elif word.split()[0] == "react" and engine.rules.reactions is not None:
            console.show(commands.react(t, seat, word.split()[1:]))
        elif word.split()[0] in ("log", "history"):
            console.show(commands.log(t, seat, word.split()[1:], style))
        elif word.split()[0] == "hint":
            try:
                console.show(commands.hint(t, seat, choices, word.split()[1:], style,
                                           self.shown.listed))
            except KeyboardInterrupt:  # a search cut short: the game is as it was
                click.echo("")
                console.show(["Hint cancelled (Ctrl-C): nothing chosen; decide as before."])
        elif word in ("takeback", "take back", "undo"):
            lines, taken = commands.take_back(t, seat)
            console.show(lines)
            if taken:
                raise TakenBack
        elif word == "all":
            self.shown.add(limit=None)
            console.show([paint(line, style) for line in
                          choice_lines(engine, state, seat, choices, style, limit=None)])
        elif match := _NUMBER.fullmatch(text):  # ASCII digits only: '١' is no 1
            return self.number(seat, choices, match.group(1), match.group(2))
        elif text.split()[0].isdigit():  # digits of another script: '١', '３'
            console.refuse(f"'{quoted(text.split()[0])}' is not a number in digits 0-9: "
                           "type the number of a choice")
        else:
            found = matching(engine, state, seat, choices, text.split())
            if not found and word.split()[0] == "react":  # (no reactions in these rules)
                console.refuse("this game has no chances to react: type the number of a "
                               "choice (or help)")
            elif not found:
                console.refuse(f"no choice has the words '{quoted(text)}': type a number "
                               "(or help)")
            else:
                self.shown.add(only=found)
                console.show([paint(line, style) for line in
                              choice_lines(engine, state, seat, choices, style, only=found)])
        return None

    def number(self, seat: int, choices: dict[int, Action], digits: str,
               rest: str | None) -> Action | None:
        """The action a number typed picks (`rest`: what was typed after it): a choice on
        the screen; a run of choices folded into one line, opened to choose part by part;
        nothing, with the reason, for a number not shown."""
        number = int(digits) if len(digits) <= 9 else -1
        run = self.shown.folded.get(number)
        if number not in self.shown.listed and run is not None and rest is None:
            if number != run.first:
                self.console.show([f"Choice {number} is one of the {run.size} on line "
                                   f"{run.first}: choose it part by part."])
            return self.in_parts(seat, [choices[n] for n in parts.numbers_of(run)])
        if number in choices and number not in self.shown.listed and run is None:
            self.console.refuse(f"choice {number} is not on the screen: type all to list "
                                "every choice, or some words of the one you want")
            return None
        return self.pick(choices, digits, rest)

    def in_parts(self, seat: int, actions: list[Action]) -> Action | None:
        """Choose one of a move's many actions a part at a time; None to go back."""
        t, console = self.table, self.console
        names = frozenset(t.engine.rules.cards.names)
        narrowing = parts.Narrowing(t.engine, t.state, seat, actions)
        narrowing.settle()
        while (action := narrowing.done()) is None:
            options = narrowing.options()
            shown = [paint(cards_in_text(printable(line), names, console.style), console.style)
                     for line in [narrowing.progress(), f"Choose the {narrowing.what()}:",
                                  *narrowing.lines()]]
            console.show(shown)
            while True:
                typed = console.ask(printable(f"{narrowing.what()}> "))
                if typed is None:
                    continue
                typed = typed.strip().lower()
                if typed in ("back", "0"):
                    console.show(["Back to the choices."])
                    return None
                if typed in ("quit", "exit"):
                    self.quit()
                    continue
                if typed.isascii() and typed.isdigit() and len(typed) <= 9 \
                        and 1 <= int(typed) <= len(options):
                    narrowing.choose(options[int(typed) - 1])
                    break
                if typed in ("help", "?"):
                    console.show([*shown, IN_PARTS_HELP.format(len(options))])
                    continue
                console.refuse(f"type a number from 1 to {len(options)}, back, help or quit")
        return action

    def pick(self, choices: dict[int, Action], digits: str, rest: str | None) -> Action | None:
        number = int(digits) if len(digits) <= 9 else -1
        if number not in choices:
            shown = digits if len(digits) <= 12 else digits[:9] + "..."
            self.console.refuse(f"there is no choice {shown}: type a number "
                                f"{self.shown.numbers()}")
            return None
        action = choices[number]
        if is_open(action):
            return self.fill(action, rest)
        if rest is not None:
            self.console.refuse(f"choice {number} needs nothing more: type just {number}")
            return None
        return action

    def fill(self, action: Action, given: str | None) -> Action | None:
        """Ask for each open parameter's text until it is acceptable; None to go back (Enter
        alone, or back where that is no text). quit saves and stops where it is no text.
        `given`: the text typed after the choice's number, taken for the first one."""
        parts = list(action)
        for index, domain in enumerate(action):
            if not isinstance(domain, Words):
                continue
            say, prompt = open_prompt(self.table.engine, action, index)
            words = text_commands(domain)
            if given is None:
                self.console.show([say])
            while True:
                typed = given if given is not None else \
                    self.console.ask(prompt, text_way_out(domain))
                given = None
                if typed is None:
                    continue
                word = typed.strip().lower()
                if not word or word == "back" and word in words:  # (Enter: never a text)
                    self.console.show(["Back to the choices."])
                    return None
                if word == "quit" and word in words:
                    self.quit()
                    continue
                if word == "help" and word in words:
                    self.console.show([say])
                    continue
                value = fitted(domain, typed.strip())
                problem = domain.problem(value)
                if problem is None:
                    parts[index] = value
                    break
                self.console.refuse(problem)
        return tuple(parts)

    def offer_save(self) -> None:
        """Interrupted (Ctrl-C) with no --save, while the bots played on: offer to save the
        game as it stood at the person's last decision (where a resumed game goes on as if
        never stopped); a second Ctrl-C, or no, leaves it unsaved."""
        if self.decided is None:
            return
        path = self.save_path
        try:
            reply = self.console.ask(printable(f"Save the game as it stood at your last "
                                               f"decision to {path}? [y/N] "))
        except (KeyboardInterrupt, EOFError):
            reply = None
        if reply is None or reply.strip().lower() not in ("y", "yes"):
            click.echo("not saved", err=True)
            return
        try:
            records.write(path, self.decided)
        except GameError as exc:
            click.echo(printable(f"not saved: {exc}"), err=True)
            return
        click.echo(printable(f"Game saved to {path}. Resume it with: "
                             f"{resume_command(path, self.table.seats)}"), err=True)

    def quit(self) -> None:
        """Quit, saving the game (Stop). A save that fails is said and the game goes on, so
        that the person can make room and try again; once told, they may quit without
        saving it (`lose`). A game that can never be saved is quit unsaved, once confirmed."""
        path = self.save_path
        lose: tuple[str, ...] = ()  # the replies that quit without saving
        if self.unsaveable is not None:
            question, lose = (f"Quit now? The game cannot be saved (a save of it could never be "
                              f"resumed: {self.unsaveable}): it is lost. [y/N] ", ("y", "yes"))
        elif self.unsaved is not None:
            question, lose = (f"Quit now? The game could not be saved ({self.unsaved}): y to "
                              "try again, lose to quit without saving it [y/lose/N] ",
                              ("lose",))
        else:
            question = f"Quit now, saving the game to {path}? [y/N] "
        reply = self.console.ask(printable(question))
        word = reply.strip().lower() if reply is not None else ""
        if word in lose:
            self.console.show(["Quit without saving: the game is lost."])
            raise Stop(0)
        if word not in ("y", "yes") or self.unsaveable is not None:
            self.console.show(["Not quitting: the game goes on."])
            return
        try:
            self.table.write(path)
        except GameError as exc:
            self.unsaved = str(exc)
            self.console.show([printable(f"Not quitting: {exc}. The game goes on: type quit "
                                         "again to try once more, or to quit without saving "
                                         "it.")])
            return
        self.console.show([printable(f"Game saved to {path}. Resume it with: "
                                     f"{resume_command(path, self.table.seats)}")])
        raise Stop(0)


# ---------------------------------------------------------------------- commands
def play_table(table: Table, plain: bool, save: str | None, as_json: bool = False,
               unsaveable: str | None = None, deal_file: str | None = None) -> None:
    """Play a table at the terminal to its end and print the results (exit on a quit).
    `unsaveable`: why the game cannot be saved (no `save` then), if it cannot; `deal_file`:
    the file it was dealt from, if it was and that is known."""
    console = Console(Style.for_terminal(plain or table.plain, sys.stdout.isatty(),
                                         getattr(sys.stdout, "encoding", None)))
    table.plain = plain or table.plain
    session = Session(table, console, Path(save) if save else None)
    session.unsaveable = unsaveable
    try:
        session.play()
    except Stop as stop:
        sys.exit(stop.code)
    except KeyboardInterrupt:
        where = "" if not session.save else f"; your last decision is saved in {session.save}" \
            if session.save_problem is None else f"; {session.save} holds an earlier point"
        click.echo(f"\ninterrupted{where}", err=True)
        session.offer_save()
        sys.exit(EXIT_INTERRUPTED)
    finally:
        finish(table.engine, table.state, table.bots)  # programs told the end, and stopped
    if as_json:
        click.echo(json.dumps(table.engine.results(table.state)))
    else:
        console.show(end_lines(table, console.style, deal_file))
        after_end(table, console.style, console.ask_last, console.show)


def run_with_humans(ref: str, options: dict[str, str], engine: Engine, state: GameState,
                    kinds: list[str], humans: Sequence[int], seed: int, plain: bool,
                    save: str | None, as_json: bool, view_seat: int | None,
                    secret: bool = False, deal_file: str | None = None,
                    begin: Callable[[], None] | None = None, react: bool = False) -> None:
    """`cardrules run` with people in seats (`--human SEAT`, or `human` in `--seats`);
    `secret`: the seed was cardrules' pick (shown only at the game's end); `deal_file`: the
    file the game was dealt from (`--deal`), if any; `begin`: called once the game is
    checked, as it begins (the event log put in place: nothing refused it); `react`: every
    person is asked at every chance to react (`--react`, as `react always`)."""
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
    table = Table.start(ref, options, engine, state, seats, seed, plain)
    if react:  # (a person whose every decision is their only choice is never asked else)
        for seat in table.windows.seats:
            table.windows.set_stop(seat, True)
    unsaveable = records.resumable(table.record, load_referenced)
    if unsaveable is not None:
        why = f"a save of this game could never be resumed: {unsaveable}"
        if save:  # refused before anything is played
            raise click.BadParameter(why, param_hint="--save")
        click.echo(printable(f"note: {why}; the game cannot be saved"), err=True)
    check_save(save, table.record)
    if begin is not None:
        begin()
    if not as_json:
        told = printable(game_line(engine.rules, table.record, secret))
        for line in fit([told], terminal_width()):
            click.echo(line)
    play_table(table, plain, save, as_json, unsaveable, deal_file)


@click.command("play")
@click.argument("ruleset")
@click.option("--players", "-p", type=SEAT, help="Number of players "
              "(default: the ruleset's).")
@click.option("--seed", "-s", type=SEED, help="Seed for the deal and the bots (default: a new "
              "one nobody knows, shown when the game is over).")
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
              help="Set one of the ruleset's options (repeatable).")
@click.option("--save", "save_file", type=click.Path(dir_okay=False), callback=file_name,
              help="Save the game to this file after each of your decisions.")
@click.option("--bots", "bot_kind", default=OPPONENT, show_default=True, metavar="KIND",
              help="The seat kind of the other seats (random, greedy, ismcts...).")
@click.option("--plain", is_flag=True, help="Letters instead of suit symbols, no colour.")
@click.option("--react", is_flag=True,
              help="Be asked at every chance to react out of turn (as typing 'react always' "
                   "does); without it, chances pass unless you type react.")
@reports_errors
def play_cmd(ruleset: str, players: int | None, seed: int | None, options: tuple[str, ...],
             save_file: str | None, bot_kind: str, plain: bool, react: bool) -> None:
    """Play RULESET yourself, in seat 1, against bots (greedy ones unless --bots says)."""
    chosen = parse_options(options)
    secret = seed is None
    dealt = fresh_seed() if seed is None else seed
    engine = Engine(load_ruleset(ruleset, chosen))
    state = engine.new_game(player_count(players, [engine.rules]), dealt, log=round_ends())
    seats = [HUMAN] + [seat_kind(bot_kind, "--bots")] * (state.n - 1)
    run_with_humans(ruleset, chosen, engine, state, seats, (), dealt, plain, save_file,
                    False, None, secret, react=react)


@click.command("resume")
@click.argument("file", callback=file_name)
@click.option("--save", "save_file", type=click.Path(dir_okay=False), callback=file_name,
              help="Save to this file from now on (default: FILE itself).")
@click.option("--plain", is_flag=True, help="Letters instead of suit symbols, no colour.")
@click.option("--seat", "programs", multiple=True, metavar="SEAT=KIND",
              help="cmd:COMMAND, the program to play a seat that a program played (a save "
                   "never holds the command); or a bot's kind again, where the save gives it "
                   "more than a save may seat by itself (repeatable).")
@reports_errors
def resume_cmd(file: str, save_file: str | None, plain: bool, programs: tuple[str, ...]) -> None:
    """Go on with a game saved by `play`, or `run --human` (after quit or --save)."""
    table = read_save(Path(file), parse_programs(programs))
    check_save(save_file, table.record)
    for line in fit([printable(f"{game_line(table.engine.rules, table.record, True)} - "
                               f"resumed from {file}")], terminal_width()):
        click.echo(line)
    play_table(table, plain, save_file or file)
