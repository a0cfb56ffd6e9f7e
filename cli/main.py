"""The `cardrules` command: people in, exit codes out (cli/errors.py says which).

This module holds the group and the commands that play or read one ruleset (run, validate,
show, diff); the others live in their own modules and are registered here.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click

from cardrules import __version__
from cardrules.dsl.deal_file import read_deal
from cardrules.dsl.diff import diff as diff_rules
from cardrules.dsl.loader import STAGES, check_files, load_ruleset, stage_text
from cardrules.errors import CardrulesError, Diagnostic, GameError, RulesetError
from cardrules.interpreter.deal import Deal, DealRefused
from cardrules.interpreter.effects import SEATS_OWN
from cardrules.interpreter.engine import PASS, Engine
from cardrules.interpreter.players.bots import Bot, make_bot
from cardrules.interpreter.players.external import Forfeit, forfeit
from cardrules.interpreter.sessions.events import EventStream, drain
from cardrules.interpreter.sessions.files import NewFile
from cardrules.interpreter.sessions.play import finish, play
from cardrules.interpreter.sessions.start import fresh_seed
from cardrules.interpreter.state import GameState
from cardrules.interpreter.view import player_view, table_cards, values_seen, with_values
from cardrules.interpreter.words import applied
from cardrules.model import Action, Ruleset
from cardrules.present import render
from cardrules.present.news import news, setup_lines
from cardrules.present.render import printable

from .errors import EXIT_INVALID, reports_errors, say
from .human import play_cmd, resume_cmd
from .lsp import lsp_cmd
from .params import (
    SEAT,
    SEED,
    Output,
    check_output,
    file_name,
    first_line,
    parse_options,
    parse_seats,
    player_count,
)
from .screen import Style, cards_in_text, terminal_width
from .serve import serve_cmd
from .simulate import compare, simulate


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="cardrules")
def main() -> None:
    """Card games described as data: run, check and compare rule files."""


@main.command()
@click.argument("ruleset")
@click.option("--players", "-p", type=SEAT, help="Number of players "
              "(default: the ruleset's).")
@click.option("--seed", "-s", type=SEED,
              help="Seed for the deal and the bots: the same seed plays the same game "
                   "(default: 1; with a person in a seat, a new one nobody knows, shown when "
                   "the game is over).")
@click.option("--seats", help="Comma-separated seat kinds, one per player (default: random).")
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
              help="Set one of the ruleset's options (repeatable).")
@click.option("--log", "log_file", type=click.Path(dir_okay=False, writable=True),
              callback=file_name, help="Write the event log to this file as JSON Lines (a "
              "file already there is written over only if it is such a log, or empty).")
@click.option("--plain", is_flag=True, help="Letters instead of suit symbols.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON only.")
@click.option("--view", "view_seat", type=SEAT, metavar="SEAT",
              help="Also show the game as this seat sees it, at the start of each of its turns.")
@click.option("--human", "humans", type=SEAT, multiple=True, metavar="SEAT",
              help="Play this seat yourself at the terminal (repeatable; or 'human' in --seats).")
@click.option("--save", "save_file", type=click.Path(dir_okay=False), callback=file_name,
              help="With human seats: save the game to this file after each of your moves.")
@click.option("--react", "react", is_flag=True,
              help="With human seats: be asked at every chance to react out of turn (as "
                   "typing 'react always' does); without it, chances pass unless you type "
                   "react.")
@click.option("--reveal", is_flag=True,
              help="Print every action with every card named, and the whole table at each "
                   "round's start and end: a full-information transcript, for rule authors.")
@click.option("--deal", "deal_file", type=click.Path(dir_okay=False), callback=file_name,
              help="Deal the cards this file states (YAML or JSON): the order of each "
                   "shuffle, or the cards of each zone at the start (docs/grammar.md).")
@reports_errors
def run(ruleset: str, players: int | None, seed: int | None, seats: str | None,
        options: tuple[str, ...], log_file: str | None, plain: bool, as_json: bool,
        view_seat: int | None, humans: tuple[int, ...] = (), save_file: str | None = None,
        reveal: bool = False, deal_file: str | None = None, react: bool = False) -> None:
    """Play a whole match of RULESET (a file, or a built-in name such as golf6) with bots."""
    if as_json and view_seat is not None:
        raise click.UsageError("--json prints the results alone and --view shows the game as "
                               "it goes: choose one")
    if log_file:
        check_output(Path(log_file), "--log", LOG_FILE)
        if save_file and Path(log_file).resolve() == Path(save_file).resolve():
            raise click.UsageError("--log and --save name the same file: the save would "
                                   "write over the log")
    rules = load_ruleset(ruleset, parse_options(options))
    engine = Engine(rules)
    count = player_count(players, [rules])
    kinds = parse_seats(seats, count)
    people = bool(humans or save_file or "human" in kinds)
    if reveal and people:
        raise click.BadParameter("--reveal names every card: it is for games of bots only, "
                                 "not with a person in a seat", param_hint="--reveal")
    if view_seat is not None and not people and view_seat > count:
        raise click.BadParameter(f"there are {count} seats", param_hint="--view")
    if reveal and (view_seat is not None or as_json):
        raise click.BadParameter("--reveal shows everything: it goes with neither --view nor "
                                 "--json", param_hint="--reveal")
    deal = read_deal(Path(deal_file), rules, count) if deal_file else None
    # A person's game is dealt from a seed nobody knows unless they give one: a seed known
    # (the default 1 of a game of bots) deals every hidden card.
    secret = people and seed is None
    seed = fresh_seed() if secret else 1 if seed is None else seed
    if deal is not None:  # its first deal tried on a game of its own, before any file is
        try:              # written: a deal the table cannot take is the file's fault
            engine.unwatched().new_game(count, seed, deal=deal)
        except DealRefused as exc:  # (a rule's own fault in the setup is told as in play)
            raise RulesetError([Diagnostic(None, str(exc))]) from None
    log = LogFile(Path(log_file)) if log_file else None
    try:
        if people:  # cli/human.py; the last round's end is kept for the round's account
            from .human import round_ends, run_with_humans
            state = engine.new_game(count, seed,
                                    log=round_ends(log.write if log is not None else None),
                                    deal=deal)
            run_with_humans(ruleset, parse_options(options), engine, state, kinds, humans,
                            seed, plain, save_file, as_json, view_seat, secret, deal_file,
                            begin=log.begin if log is not None else None, react=react)
        else:
            if reveal:
                engine = revealing(rules, plain)
            if log is not None:
                log.begin()
            play_bots(engine, count, seed, kinds, log, plain, as_json, view_seat, reveal, deal)
    except (click.UsageError, CardrulesError, KeyboardInterrupt):  # (before any action:
        if log is not None and not log.placed:  # the file there stays as it was)
            log.drop()
            log = None
        raise
    finally:
        if log is not None:
            log.close()


def play_bots(engine: Engine, count: int, seed: int, kinds: list[str], log: LogFile | None,
              plain: bool, as_json: bool, view_seat: int | None, reveal: bool = False,
              deal: Deal | None = None) -> None:
    """`run` with bots in every seat: each round's account printed as the round ends (and
    the event log written as it goes), so a game of any length keeps no history. With
    `reveal`, the engine prints every action and the whole table instead."""
    rules = engine.rules
    broken: list[OSError] = []  # output that failed (a closed pipe) while a move was made

    watching = view_seat is not None  # what the seat sees happen is read from the log
    # Each round's summary printed as the round ends, by the engine: unless the game is
    # watched from a seat, whose news tells the round's end where it comes, after the
    # action that ended it (or revealed, which prints the table instead).
    summaries = not watching and not reveal

    def shown(event: dict[str, Any]) -> None:
        if log is not None:
            log.write(event)
        if event.get("event") == "round_end" and not broken and summaries:
            try:
                click.echo("")
                click.echo("\n".join(render.round_summary(rules, event, plain)))
            except OSError as exc:  # raised here, it would be taken for the rule's fault
                broken.append(exc)

    sink = shown if not as_json else log.write if log is not None else None
    # what the seat sees happen is read from the log, and so is what a round's setup did
    fresh = watching or reveal
    state = engine.new_game(count, seed, log=EventStream(sink, fresh=fresh)
                            if sink or fresh else False, deal=deal)
    if not as_json:  # (no round has ended yet)
        click.echo(printable(f"{rules.title} ({rules.name}) - {count} players, seed {seed}, "
                             f"seats: {', '.join(kinds)}"))
    bots = [make_bot(kind, seed, seat) for seat, kind in enumerate(kinds)]
    if reveal:
        play_revealed(engine, state, bots, plain)
    elif view_seat is None:
        play(engine, state, bots)
    else:
        play_watched(engine, state, bots, view_seat - 1, plain)
    if broken:
        raise broken[0]
    results = engine.results(state)
    forfeited = [p + 1 for p, bot in enumerate(bots) if getattr(bot, "forfeited", False)]
    if forfeited:
        results["forfeited"] = forfeited
    if as_json:
        click.echo(json.dumps(results))
        return
    click.echo("")
    # (at a terminal, or with COLUMNS set, fitted to its width; else a line a seat, as a
    # script reading the output expects)
    width = terminal_width() if sys.stdout.isatty() or os.environ.get("COLUMNS") else None
    click.echo("\n".join(render.standings(results, rules.winner, rules.teams, width)))
    for seat in forfeited:
        click.echo(f"Seat {seat} forfeited the game (its program answered badly).")


def play_watched(engine: Engine, state: GameState, bots: list[Bot], seat: int,
                 plain: bool) -> None:
    """Play to the end, printing `seat`'s view whenever a turn of that seat begins."""
    try:
        _play_watched(engine, state, bots, seat, plain)
    except Forfeit as exc:
        forfeit(engine, state, exc.seat)
    finally:
        finish(engine, state, bots)


def _play_watched(engine: Engine, state: GameState, bots: list[Bot], seat: int,
                  plain: bool) -> None:
    rules = engine.rules
    legal = engine.legal_actions(state)
    turn = -1
    names, style = frozenset(rules.cards.names), Style(plain=plain)
    told: list[dict[str, Any]] = []  # what came of the last action
    while True:
        # every action the seat sees happen (those the engine played for a seat too), what
        # came of it, each round's deal and account, in the words it may read and in the
        # order they came, before the view they lead to: as a person playing reads them,
        # with the cards shown as the table shows them (8♠, or 8S with --plain)
        for item in news(rules, told + drain(state.log), seat):
            click.echo("\n".join(cards_in_text(printable(f"  {line}"), names, style)
                                  for line in item.lines()))
        if not legal:
            break
        if state.current == seat and state.turns != turn and state.step == 0:
            turn = state.turns
            click.echo("\n".join(render.view_lines(rules, player_view(rules, state, seat),
                                                    plain)))
        decider = engine.to_move(state)
        assert decider is not None
        action = bots[decider].choose(engine, state, legal)
        before = values_seen(rules, state)
        told = drain(state.log)  # (what came before it)
        legal = engine.play(state, action)
        # what the seat sees of the variables, changed by the action (as at a table with
        # people), told with what else came of it, never in the log (a --log file is the
        # table's)
        told += with_values(rules, state, before, drain(state.log))
    click.echo("\n".join(render.view_lines(rules, player_view(rules, state, seat), plain)))


def _holds_events(head: bytes) -> bool:
    """Whether a file beginning with `head` is an event log: its first line an event."""
    line = first_line(head)
    try:
        event = json.loads(line) if line is not None else None
    except (ValueError, RecursionError):
        return False
    return isinstance(event, dict) and ("event" in event or "effect" in event)


# What --log writes, and so the only file it writes over (params.check_output)
LOG_FILE = Output("an event log (JSON Lines, its first line an event)", _holds_events)


class LogFile:
    """The event log written to a file as JSON Lines, each event as it comes: a new file,
    never one written through a link, put in the file's place with the game's first action
    once the game has begun (`begin`), so that it holds what happened so far however the
    game ends (interpreter/sessions/files.py). A run refused or failing before that (a seat
    not at the table, a save refused, a seat's program that cannot start) drops it (`drop`):
    the file there stays as it was. A failure to write is kept and reported once the game
    is over (an event is logged in the middle of a move, where an error would be taken for
    the rule's)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.problem: str | None = None
        self.begun = self.placed = False
        try:
            self.out = NewFile(path)
        except OSError as exc:
            raise GameError(f"cannot write the log to {path}: {exc.strerror or exc}") from None

    def begin(self) -> None:
        """The game begins: the log takes the file's place with its first action."""
        self.begun = True

    def _place(self) -> None:
        self.placed = True
        try:
            self.out.put_in_place()
        except OSError as exc:
            self.problem = self.problem or exc.strerror or str(exc)

    def drop(self) -> None:
        """Leave the file there as it was (the run was refused before its game began)."""
        self.out.drop()

    def write(self, event: dict[str, Any]) -> None:
        if self.problem is None:
            if any(k in event for k in SEATS_OWN):  # each seat's own: the log is the table's
                event = {k: v for k, v in event.items() if k not in SEATS_OWN}
            try:
                self.out.file.write(json.dumps(event) + "\n")
            except OSError as exc:
                self.problem = exc.strerror or str(exc)
            if self.begun and not self.placed and event.get("event") == "action":
                self._place()

    def close(self) -> None:
        try:
            self.out.done()
        except OSError as exc:
            self.problem = self.problem or exc.strerror or str(exc)
        if self.problem is not None:
            raise GameError(f"cannot write the log to {self.path}: {self.problem}")


def revealing(rules: Ruleset, plain: bool) -> Engine:
    """An engine that prints every action as it is applied (forced ones too), every card
    named; the whole table as each round begins, before its first action (one the engine
    plays for a seat too: a round may have no decision at all), and as it ends."""
    begun = [0]  # the round whose start is printed

    def watch(state: GameState, seat: int, action: Action) -> None:
        events = drain(state.log) if state.log is not None else []
        if state.round != begun[0]:  # (before its first action: the table the setup left)
            begun[0] = state.round
            lines = round_start_lines(engine, state, plain)
            setup = setup_lines(rules, setup_effects(events))
            if setup:  # the deal and whatever else the setup did, then the table it left
                lines[1:1] = [*(f"  setup: {line}" for line in setup),
                              "  the table after the setup:"]
            say("\n".join(lines))
        if action != PASS:
            say(f"  seat {seat + 1}: {revealed_words(engine, state, action)}")

    def watch_round(state: GameState) -> None:
        say(f"  round {state.round} over, scores: "
            + "  ".join(f"seat {p + 1}: {score}"
                        for p, score in enumerate(state.round_scores[-1])))
        say("\n".join(render.table_lines(rules, table_cards(rules, state), plain)))

    engine = Engine(rules, watch=watch, watch_round=watch_round)
    return engine


def revealed_words(engine: Engine, state: GameState, action: Action) -> str:
    """An action about to be applied, as --reveal prints it: the ruleset's words with every
    card named, those its choices name and, after them in brackets, those it moves without
    naming them ("Take the top card of the stock (QS)"); marked when the engine plays it
    alone (the only legal action of an automatic step)."""
    named = set(chosen_cards(engine, action))
    unnamed = [c for c in moved_cards(engine, state, action) if c not in named]
    cards = engine.rules.cards.names
    moved = f" ({', '.join(cards[c] for c in unnamed)})" if unnamed else ""
    forced = "" if engine.is_choice(state) else "  (the only move)"
    return printable(f"{engine.words.describe(action)}{moved}{forced}")


def chosen_cards(engine: Engine, action: Action) -> list[int]:
    """The cards an action's choices name (a card, or a list or layout of cards)."""
    move = engine.moves.get(action[0]) if action else None
    if move is None:
        return []
    out: list[int] = []
    pending = [value for names_cards, value in zip(move.names_cards, action[1:]) if names_cards]
    while pending:
        value = pending.pop()
        if isinstance(value, (list, tuple)):
            pending.extend(value)
        elif isinstance(value, int) and not isinstance(value, bool):
            out.append(value)
    return out


def moved_cards(engine: Engine, state: GameState, action: Action) -> list[int]:
    """The cards that `action`'s move carries into another zone by its own statements (not
    the triggers or the round's end that may follow), in the deck's order: worked out by
    running the move on a copy of the game, which draws what the game will draw. None if
    the move cannot be carried out there (the game will say why)."""
    after = applied(engine.rules, state,
                    state.window[0] if state.window else state.current, action)
    if after is None:
        return []
    return [c for c, (was, now) in enumerate(zip(state.where, after.where)) if was != now]


def round_start_lines(engine: Engine, state: GameState, plain: bool) -> list[str]:
    """A round as it begins, as --reveal prints it: its number, its dealer and the whole
    table, every card named."""
    return [f"Round {state.round}, dealer seat {state.dealer + 1}:",
            *render.table_lines(engine.rules, table_cards(engine.rules, state), plain)]


def setup_effects(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The effects of the latest round's setup among `events`: those after its start."""
    starts = [i for i, event in enumerate(events) if event.get("event") == "round"]
    if not starts:
        return []
    return [event for event in events[starts[-1] + 1:] if "event" not in event]


def play_revealed(engine: Engine, state: GameState, bots: list[Bot], plain: bool) -> None:
    """Play to the end with an engine made by `revealing`, which prints every action as it
    is applied, and the whole table as each round begins and ends."""
    legal = engine.legal_actions(state)
    while legal:
        seat = engine.to_move(state)
        assert seat is not None
        legal = engine.play(state, bots[seat].choose(engine, state, legal))
    finish(engine, state, bots)


@main.command()
@click.argument("files", nargs=-1, required=True)
@reports_errors
def validate(files: tuple[str, ...]) -> None:
    """Check rule files; print every problem as file:line:col: message."""
    found = check_files(files, hints=True)
    for diagnostic in found:
        click.echo(printable(diagnostic.format()), err=True)
    problems = [d for d in found if not d.hint]
    if problems:
        count = len(problems)
        click.echo(f"{count} problem{'s' if count != 1 else ''} found", err=True)
        sys.exit(EXIT_INVALID)
    click.echo(f"{len(files)} file{'s' if len(files) != 1 else ''} valid")


@main.command()
@click.argument("ruleset")
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
              help="Set one of the ruleset's options (shown with its new default).")
@click.option("--stage", type=click.Choice(STAGES), default="yaml", show_default=True,
              help="What to print: the rule file resolved (yaml), the syntax tree read from "
                   "its rule text (nodes), the checked program (ir) or the Python code it "
                   "compiles to (python).")
@click.option("--python", "as_python", is_flag=True,
              help="Short for --stage python (for authors and bug reports).")
@reports_errors
def show(ruleset: str, options: tuple[str, ...], stage: str, as_python: bool) -> None:
    """Print RULESET fully resolved (its parents merged in) as YAML, or what a stage of the
    compiler makes of it."""
    given = click.get_current_context().get_parameter_source("stage")
    if as_python and given is not click.core.ParameterSource.DEFAULT and stage != "python":
        raise click.UsageError(f"--python is short for --stage python, and --stage says "
                               f"{stage}: choose one")
    click.echo(stage_text(ruleset, "python" if as_python else stage, parse_options(options)),
               nl=False)




@main.command()
@click.argument("first")
@click.argument("second")
@reports_errors
def diff(first: str, second: str) -> None:
    """Print what differs between two resolved rulesets, entry by entry."""
    a, b = load_ruleset(first), load_ruleset(second)
    changes = list(diff_rules(a.data, b.data))
    for change in changes:
        click.echo(printable(change.format()))
    if not changes:
        click.echo("no differences")


for command in (play_cmd, resume_cmd, serve_cmd, simulate, compare, lsp_cmd):
    main.add_command(command)

