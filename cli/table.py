"""A game at the terminal: its seats, its record, and what each person has not read yet.

Every action is applied by the engine, noted in the game's record (a save is a replay:
interpreter/sessions/record.py) and told to each person at the table in that person's
words, from the game's event log (present/news.py). A person's reaction windows pass for
them unless they asked to react (interpreter/sessions/windows.py), and alone against bots
a person may take back their last decision (interpreter/sessions/takeback.py).
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardrules.dsl.loader import load_referenced
from cardrules.errors import GameError
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.players.bots import Bot
from cardrules.interpreter.sessions import people, record
from cardrules.interpreter.sessions.events import drain, round_ends
from cardrules.interpreter.sessions.people import Lone, PeoplesGame
from cardrules.interpreter.sessions.record import (
    HUMAN,
    Record,
    dealt_from,
    make_bots,
)
from cardrules.interpreter.sessions.takeback import TakeBack
from cardrules.interpreter.sessions.windows import Windows
from cardrules.interpreter.state import GameState
from cardrules.model import Action, Ruleset
from cardrules.present.news import News, news

KEPT_EVENTS = 200  # lines kept for a seat that has not decided for a long time
KEPT_HISTORY = 20_000  # lines of a seat's news kept for `log` (the latest)


class Line(str):
    """A line of a seat's news. `first`: the first of its item (an action and what came
    of it, a round's account...); `whole`: of an item shown whole however long the news is
    (a round's account, the seat's own action)."""

    first: bool
    whole: bool

    def __new__(cls, text: str, first: bool = True, whole: bool = False) -> Line:
        line = super().__new__(cls, text)
        line.first, line.whole = first, whole
        return line


def news_lines(item: News, seat: int, ends_round: bool = False) -> list[Line]:
    """An item of news as the lines `seat` reads: shown whole however long the news is, a
    round's (its account and how the next begins), the seat's own action with what came
    of it (what it did is never among the lines left out for `log`), and the action that
    ended a round (`ends_round`: the one before its account, which says how it ended)."""
    whole = ends_round or item.kind in ("round", "account") or (
        item.kind == "action" and item.seat == seat + 1)
    return [Line(text, i == 0, whole) for i, text in enumerate(item.lines())]


@dataclass
class Table(PeoplesGame):
    """A game with its seats, and its record (what a save file holds)."""

    record: Record
    engine: Engine
    state: GameState
    bots: list[Bot | None]
    pending: dict[int, list[str]] = field(default_factory=dict)  # human seat -> news
    # human seat -> every line it has been told (the latest KEPT_HISTORY), and how many
    # earlier lines are no longer kept
    history: dict[int, list[str]] = field(default_factory=dict)
    forgotten: dict[int, int] = field(default_factory=dict)
    windows: Windows = field(default_factory=Windows)
    takeback: TakeBack = field(default_factory=TakeBack)
    lone_from: dict[int, set[bytes]] = field(default_factory=dict)  # (people.py)

    def __post_init__(self) -> None:
        if not self.windows.seats:
            self.windows = Windows.of(self.pending)

    @classmethod
    def start(cls, ref: str, options: dict[str, str], engine: Engine, state: GameState,
              seats: list[str], seed: int, plain: bool = False) -> Table:
        record = Record.new(ref, options, engine.rules, state.n, seed, seats, plain,
                            deal=dealt_from(state))
        return cls(record, engine, state, make_bots(seats, seed),
                   {p: [] for p, k in enumerate(seats) if k == HUMAN}).dealt()

    def dealt(self) -> Table:
        """The game as dealt: what its first round's setup did is news before the first
        decision, as a later round's is."""
        self.tell(drain(self.state.log))
        return self

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

    def advance(self, seat: int, action: Action, chosen: bool = False) -> list[Action]:
        """Apply `seat`'s action, note it in the record, and tell every person at the table
        what they may know of it and what came of it (and the round's account, when it ends
        a round); returns the legal actions then. `chosen`: a person chose it (and may take
        it back, alone at the table)."""
        self.step(seat, action, chosen)
        return self.listed()

    def tell(self, events: list[dict[str, Any]], lone: Lone | None = None) -> None:
        """Tell every person at the table what they may know of `events` (`lone`: they began
        with a person's only choice, played for them)."""
        for human in self.pending:
            items = news(self.engine.rules, events, human, lone=lone)
            for index, item in enumerate(items):
                ends = item.kind == "action" and index + 1 < len(items) \
                    and items[index + 1].kind == "account"
                self.say(human, news_lines(item, human, ends))

    def say(self, seat: int, lines: Sequence[str]) -> None:
        """Tell the person at `seat` `lines` of news: they read them at their next decision
        (the latest KEPT_EVENTS, and any item shown whole: their own action, a round's
        account), and with `log` at any."""
        pending = self.pending[seat]
        pending.extend(lines)
        if len(pending) > KEPT_EVENTS:
            pending[:] = [line for line in pending[:-KEPT_EVENTS]
                          if getattr(line, "whole", False)] + pending[-KEPT_EVENTS:]
        history = self.history.setdefault(seat, [])
        history.extend(lines)
        if len(history) > KEPT_HISTORY:
            self.forgotten[seat] = self.forgotten.get(seat, 0) + len(history) - KEPT_HISTORY
            del history[:-KEPT_HISTORY]

    def say_all(self, line: str) -> None:
        """Tell every person at the table `line`."""
        for seat in self.pending:
            self.say(seat, [line])

    def decided(self, seat: int) -> None:
        """A person who made an action read from a save had read their news then, as in
        play."""
        if seat in self.pending:
            self.pending[seat] = []

    def take_back(self, seat: int) -> str:
        """Take back `seat`'s last decision (GameError, saying why, where it may not be):
        the game stands again where that decision was made. Returns the decision's words."""
        problem = self.takeback.refusal(self.state, seat, len(self.humans))
        if problem is not None:
            raise GameError(problem)
        state, undone = self.takeback.take(self.record, self.engine, self.bots, round_ends())
        drain(state.log)
        self.state = state
        return self.engine.words.describe(record.find_action(self.engine, state, undone),
                                          state, seat)

    def write(self, path: Path) -> None:
        """Save the game; a failed write leaves any earlier save as it was."""
        record.write(path, self.noted())


def read_save(path: Path, programs: dict[int, str] | None = None) -> Table:
    """The game saved in `path`, replayed from its start to where it was saved, with
    `programs` (seat -> 'cmd:...', from the command line) in the seats programs played;
    GameError (one line, naming the file) if it is not one, or does not replay."""
    return people.resume(
        path, programs, load_referenced,
        lambda saved, engine, state, bots: Table(
            saved, engine, state, bots,
            {p: [] for p, k in enumerate(saved.seats) if k == HUMAN}).dealt())


def game_line(rules: Ruleset, saved: Record, secret: bool = False) -> str:
    """What a game is: its ruleset, players, seed, seats and the options it plays under. A
    `secret` seed (one cardrules picked, or any once saved: it deals every hidden card) is
    not shown while the game is on."""
    chosen = ", ".join(f"{name}={value}" for name, value in sorted(saved.options.items()))
    seed = "seed shown at the end" if secret else f"seed {saved.seed}"
    return (f"{rules.title} ({rules.name}) - {saved.players} players, {seed}, "
            f"seats: {', '.join(saved.seats)}" + (f", options: {chosen}" if chosen else ""))


def resume_command(path: Path, seats: Sequence[str]) -> str:
    """The command that resumes a game saved to `path`, with the seats a save does not seat
    by itself named again: a program's command (its placeholder, where this game was itself
    resumed and never knew it), a bot given more than a save may ask for."""
    flags = [f"--seat '{number}=cmd:COMMAND'" if kind == record.PROGRAM  # (to fill in)
             else "--seat " + shlex.quote(f"{number}={kind}")
             for number, kind in enumerate(seats, 1) if record.named_again(kind)]
    return " ".join(["cardrules resume", shlex.quote(str(path)), *flags])
