"""Long lists of choices chosen in parts: one parameter at a time, a layout meld by meld.

When a decision offers more choices than a screen shows, a move with many of them is listed
as one line (its label with '...' for what is still to choose, and how many choices it
holds); picking that line asks for the move's parameters in turn (a rank, then a suit), each
from the values still possible, and for a layout (melds laid down together) one meld after
the other. A part with one possible value is taken without asking. Everything is described
in the seat's own terms (Engine.value_text with the seat), so a part names no card the seat
does not know.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardrules.interpreter.engine import Engine
from cardrules.interpreter.state import GameState
from cardrules.model import Action
from cardrules.present.choices import view_places

# A move with more choices than this, in a list too long for one screen, is one line.
RUN_AT = 8
BLANK = "..."


@dataclass(frozen=True)
class Run:
    """Consecutive numbered choices of one move, listed as one line."""

    first: int
    last: int
    move: str

    @property
    def size(self) -> int:
        return self.last - self.first + 1


def runs(choices: Mapping[int, Action], limit: int) -> list[Run]:
    """The runs to list as one line each so that the list fits in `limit` lines: the longest
    first, as few as will do (none if the list fits already)."""
    rows = len(choices)
    chosen: list[Run] = []
    for run in sorted(all_runs(choices), key=lambda r: (-r.size, r.first)):
        if rows <= limit:
            break
        chosen.append(run)
        rows -= run.size - 1
    return sorted(chosen, key=lambda r: r.first)


def all_runs(choices: Mapping[int, Action], at: int = RUN_AT) -> list[Run]:
    """The runs of more than `at` consecutive choices of one move (pass, 0, is never one)."""
    out: list[Run] = []
    numbers = sorted(n for n in choices if n)
    start = 0
    for i in range(1, len(numbers) + 1):
        if i == len(numbers) or choices[numbers[i]][0] != choices[numbers[start]][0] \
                or numbers[i] != numbers[i - 1] + 1:
            if i - start > at:
                out.append(Run(numbers[start], numbers[i - 1], str(choices[numbers[start]][0])))
            start = i
    return out


def run_text(engine: Engine, run: Run) -> str:
    """The one line of a run: the move's label with its choices left open."""
    move = engine.moves.get(run.move)
    label = move.render(dict.fromkeys(move.params, BLANK)) if move is not None else run.move
    return f"{label} ({run.size} choices: type {run.first} to choose it part by part)"


def parts_of(action: Action) -> list[tuple[int, int | None, Any]]:
    """The parts of an action, in order: (parameter index, meld index or None, value)."""
    out: list[tuple[int, int | None, Any]] = []
    for index, value in enumerate(action[1:], start=1):
        if isinstance(value, tuple) and value and all(isinstance(v, tuple) for v in value):
            out += [(index, j, meld) for j, meld in enumerate(value)]
        else:
            out.append((index, None, value))
    return out


@dataclass
class Narrowing:
    """A run being chosen part by part: the actions still possible and the parts taken."""

    engine: Engine
    state: GameState
    seat: int
    actions: list[Action]
    taken: int = 0  # how many parts are chosen

    def settle(self) -> None:
        """Take every part that has one possible value."""
        while len(self.actions) > 1 and len(self.options()) == 1:
            self.taken += 1

    def done(self) -> Action | None:
        return self.actions[0] if len(self.actions) == 1 else None

    def options(self) -> list[Any]:
        """The values the next part may take, in the order of the list; cards as the seat's
        view shows them (present/choices.py, `view_places`: a hand in the deck's order)."""
        seen: list[Any] = []
        for action in self.actions:
            parts = parts_of(action)
            value = parts[self.taken][2] if self.taken < len(parts) else None
            if value not in seen:
                seen.append(value)
        index = parts_of(self.actions[0])[self.taken][0]
        if self.engine.moves[self.actions[0][0]].kinds[index - 1] == "card":
            place = view_places(self.engine, self.state, self.seat)
            seen.sort(key=lambda c: (0, place(c) or ()) if isinstance(c, int) else (1, ()))
        return seen

    def choose(self, value: Any) -> None:
        self.actions = [a for a in self.actions if (parts_of(a)[self.taken][2]
                                                   if self.taken < len(parts_of(a)) else None)
                        == value]
        self.taken += 1
        self.settle()

    def what(self) -> str:
        """The name of the part to choose next: its parameter's, in words (`part_name`:
        'first rank', 'other card', 'field card', 'meld 2 of layout')."""
        move = self.engine.moves[self.actions[0][0]]
        index, meld, _ = parts_of(self.actions[0])[self.taken]
        name = part_name(move.params[index - 1], move.kinds[index - 1])
        return f"meld {meld + 1} of {name}" if meld is not None else name

    def progress(self) -> str:
        """The move's label with the parts chosen so far and '...' for the rest."""
        first = self.actions[0]
        move = self.engine.moves[first[0]]
        chosen: dict[int, list[str]] = {}
        for n, (index, meld, value) in enumerate(parts_of(first)):
            if n < self.taken:
                chosen.setdefault(index, []).append(self.text(index, value))
            elif meld is not None:
                chosen.setdefault(index, []).append(BLANK)
        values = {}
        for index, name in enumerate(move.params, start=1):
            texts = chosen.get(index)
            values[name] = " | ".join(texts) if texts else BLANK
        return move.render(values)

    def text(self, index: int, value: Any) -> str:
        move = self.engine.moves[self.actions[0][0]]
        kind = move.kinds[index - 1]
        if value is None:
            return "(no more)"
        return self.engine.words.value_text(kind, value, self.state, self.seat)

    def lines(self) -> list[str]:
        """The numbered values of the next part."""
        index = parts_of(self.actions[0])[self.taken][0]
        options = self.options()
        width = len(str(len(options)))
        return [f"  {n:>{width}}. {self.text(index, v)}" for n, v in enumerate(options, 1)]


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
            "ninth")
NAMED_KINDS = ("card", "rank", "suit", "colour", "player")  # what a part's name may add


def part_name(param: str, kind: str) -> str:
    """A parameter's name as a part to choose is named: with spaces for `_`, a number at
    its end said as an order ('rank1': 'first rank', 'suit_2': 'second suit'), and the
    kind of thing it is added where the name does not say it ('other': 'other card')."""
    name = param.replace("_", " ").strip()
    match = re.fullmatch(r"(.*?) ?(\d+)", name)
    if match and match.group(1) and 1 <= int(match.group(2)) <= len(ORDINALS):
        name = f"{ORDINALS[int(match.group(2)) - 1]} {match.group(1)}"
    if kind in NAMED_KINDS and kind not in name.split():
        name = f"{name} {kind}"
    return name


def numbers_of(run: Run) -> Sequence[int]:
    return range(run.first, run.last + 1)
