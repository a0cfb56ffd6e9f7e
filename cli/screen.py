"""What a person at the terminal sees when it is their seat's decision.

Everything here is computed from one seat's point of view: the seat's player view (see
interpreter/view.py), the legal actions in the ruleset's own words as that seat may read
them (Engine.describe with the seat), and lines about what others did, written from the
public point of view when they did it. Nothing here looks at a card the seat does not know.

Card names in texts ('QH', as rule labels write them) are shown like the view shows cards:
'Q♥', or 'QH' when plain; with colour, red suits are red and black suits black, on a light
card face. Every line is broken to the terminal's width as it is shown (`fit`).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cardrules.interpreter.domains import Words, is_open
from cardrules.interpreter.engine import PASS, Engine
from cardrules.interpreter.sessions.windows import Reacting
from cardrules.interpreter.state import GameState
from cardrules.interpreter.view import player_view
from cardrules.model import Action, Ruleset
from cardrules.present import render
from cardrules.present.lines import choice_texts, fitted, situation
from cardrules.present.render import printable

from . import parts

# A long list of choices shows this many, and says how to see the others.
SHOWN_CHOICES = 30
# What others did since a seat last decided: at most this many lines, the latest.
SHOWN_EVENTS = 30

RULE = "=" * 72  # the top of each screen
MIN_WIDTH = 20  # a terminal narrower than this is taken as this wide
CLEAR = "\033[H\033[2J\033[3J"  # home, clear the screen, clear the scrollback
_RESET = "\033[0m"
_RED, _BLACK, _BACK = "\033[31;47m", "\033[30;47m", "\033[37;44m"
_ANSI = re.compile(r"\033\[[0-9;]*[A-Za-z]")
# A card name as rule texts write them ('10H', 'QS', 'JK'), as a word of its own.
_NAME = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AJQK])[CDHS](?![0-9A-Za-z])|(?<![0-9A-Za-z])JK"
                   r"(?![0-9A-Za-z])")
# A card as shown with a suit symbol, or a back.
_SHOWN = re.compile(r"(?:10|[2-9AJQK])[♥♦]|(?:10|[2-9AJQK])[♣♠]|##")


@dataclass(frozen=True)
class Style:
    """How cards look: letters only (plain), and whether to use colour."""

    plain: bool = False
    colour: bool = False

    @classmethod
    def for_terminal(cls, plain: bool, is_tty: bool, encoding: str | None = "utf-8") -> Style:
        """Colour only on a terminal, never when plain or when NO_COLOR is set; letters
        when the output cannot encode the suit symbols."""
        try:
            "".join(render.SUIT_SYMBOLS.values()).encode(encoding or "ascii")
        except (UnicodeEncodeError, LookupError):
            plain = True
        return cls(plain, is_tty and not plain and not os.environ.get("NO_COLOR"))


def strip_ansi(text: str) -> str:
    return _ANSI.sub("", text)


# ------------------------------------------------------------------ the width
def terminal_width() -> int:
    """The terminal's width in columns (COLUMNS if set; 80 where it cannot be told)."""
    return max(shutil.get_terminal_size().columns, MIN_WIDTH)


def fit(lines: Sequence[str], columns: int) -> list[str]:
    """`lines` as a terminal `columns` wide shows them: a line too long is broken between
    words, each part after the first indented 4 more than the line (and by the spaces that
    lined its first word up, so that the rows of a table break alike, their columns in
    line). The top rule is cut to the width. Colour codes take no room."""
    out: list[str] = []
    for line in lines:
        if line == RULE:
            out.append(line[:columns])
        else:
            out += _broken(line, columns)
    return out


def _broken(line: str, columns: int) -> list[str]:
    if len(strip_ansi(line)) <= columns:
        return [line]
    plain = strip_ansi(line)
    indent = min(len(plain) - len(plain.lstrip(" ")) + 4, columns // 2)
    out: list[str] = []
    current, length = "", 0
    for piece in re.findall(r"\s*\S+", line):
        size = len(strip_ansi(piece))
        if current and length + size > columns:
            out.append(current)
            piece = " " * (indent - 1) + piece  # (its spaces: a column's alignment, or one)
            size = len(strip_ansi(piece))
            current, length = "", 0
        current += piece
        length += size
    out.append(current)
    return out


# ------------------------------------------------------------------- cards in text
def cards_in_text(text: str, names: frozenset[str], style: Style) -> str:
    """A rule text with the card names in it shown as cards ('Take QD' -> 'Take Q♦')."""
    def shown(match: re.Match[str]) -> str:
        name = match.group(0)
        return render.card_text(name, style.plain) if name in names else name
    return _NAME.sub(shown, text)


def paint(line: str, style: Style) -> str:
    """Colour the cards of a finished line (widths are unchanged: codes take no room)."""
    if not style.colour:
        return line

    def coloured(match: re.Match[str]) -> str:
        card = match.group(0)
        code = _BACK if card == "##" else _RED if card[-1] in "♥♦" else _BLACK
        return f"{code}{card}{_RESET}"
    return _SHOWN.sub(coloured, line)


# ------------------------------------------------------------------------ choices
def numbered(legal: Sequence[Action]) -> dict[int, Action]:
    """The legal actions by the number a person types: 1, 2... in the engine's order, and
    0 for letting a reaction window go by, so that passing is always the same key."""
    out: dict[int, Action] = {}
    number = 0
    for action in legal:
        if action == PASS:
            out[0] = action
        else:
            number += 1
            out[number] = action
    return out




def choice_lines(engine: Engine, state: GameState, seat: int, choices: Mapping[int, Action],
                 style: Style, only: Sequence[int] | None = None,
                 limit: int | None = SHOWN_CHOICES) -> list[str]:
    """The numbered choices (those in `only`, if given), at most `limit` of them. In a list
    longer than `limit`, a move with many choices is one line, chosen part by part."""
    names = frozenset(engine.rules.cards.names)
    width = len(str(max(choices))) if choices else 1
    entries, hidden = layout(choices, only, limit)
    texts = choice_texts(engine, state, seat, choices)
    lines = []
    for entry in entries:
        if isinstance(entry, parts.Run):
            lines.append(f"  {entry.first:>{width}}. {parts.run_text(engine, entry)}")
        else:
            text = cards_in_text(texts[entry], names, style)
            lines.append(f"  {entry:>{width}}. {text}")
    if hidden:
        lines.append(f"  ... and {hidden} more: type some words of the choice you want to "
                     "list the choices that have them, or 'all' for every choice")
    return [printable(line) for line in lines]


def layout(choices: Mapping[int, Action], only: Sequence[int] | None = None,
           limit: int | None = SHOWN_CHOICES) -> tuple[list[int | parts.Run], int]:
    """What `choice_lines` lists, line by line: a choice's number, or a run of one move's
    choices folded into one line; and how many choices it leaves out."""
    numbers = list(only) if only is not None else sorted(choices, key=lambda n: (n == 0, n))
    if collapsed(choices, only, limit):
        inside = {n: run for run in parts.runs(choices, limit or len(choices))
                  for n in parts.numbers_of(run)}
        entries: list[int | parts.Run] = []
        for n in numbers:
            run = inside.get(n)
            if run is None:
                entries.append(n)
            elif n == run.first:
                entries.append(run)
        if len(entries) <= (limit or len(entries)):
            return entries, 0
    shown = numbers if limit is None or len(numbers) <= limit else numbers[:limit]
    if 0 in numbers and 0 not in shown:
        shown = [*shown[:-1], 0]  # passing stays in sight in a long list
    return list(shown), len(numbers) - len(shown)


@dataclass
class OnScreen:
    """The choices a person has been shown at a decision: those listed on a line of their
    own (`listed`), and those folded into a run's line (`folded`: number -> its run)."""

    choices: Mapping[int, Action]
    listed: set[int]
    folded: dict[int, parts.Run]

    @classmethod
    def of(cls, choices: Mapping[int, Action]) -> OnScreen:
        """What a decision's screen lists of `choices`."""
        shown = cls(choices, set(), {})
        shown.add()
        return shown

    def add(self, only: Sequence[int] | None = None, limit: int | None = SHOWN_CHOICES) -> None:
        """The choices `choice_lines(only, limit)` lists are shown too."""
        for entry in layout(self.choices, only, limit)[0]:
            if isinstance(entry, parts.Run):
                self.folded.update((n, entry) for n in parts.numbers_of(entry))
            else:
                self.listed.add(entry)

    def numbers(self) -> str:
        """The numbers on the screen, as a person may type them: 'from 1 to 37'."""
        lines = self.listed | {run.first for run in self.folded.values()}
        return f"from {min(lines)} to {max(lines)}" if len(lines) > 1 else str(min(lines))


def collapsed(choices: Mapping[int, Action], only: Sequence[int] | None = None,
              limit: int | None = SHOWN_CHOICES) -> bool:
    """Whether the list is shown with its long moves as one line each."""
    return only is None and limit is not None and len(choices) > limit \
        and bool(parts.runs(choices, limit))


def matching(engine: Engine, state: GameState, seat: int, choices: Mapping[int, Action],
             words: Sequence[str]) -> list[int]:
    """The numbers of the choices in which each word typed begins a word, in the order
    typed ('5 hearts 9 clubs' finds the 5 of hearts and the 9 of clubs, not the 9 of
    hearts and the 5 of clubs)."""
    wanted = [w.lower() for w in words]
    found = []
    texts = choice_texts(engine, state, seat, choices)
    for n in sorted(choices, key=lambda n: (n == 0, n)):
        text = texts[n].lower()
        have = iter(re.findall(r"[0-9a-z]+", text))
        if all(any(h.startswith(w) for h in have) for w in wanted):
            found.append(n)
    return found


# ------------------------------------------------------------------- the screen








def view_section(rules: Ruleset, state: GameState, seat: int, style: Style) -> list[str]:
    """The seat's view: zones as it sees them, its known face-down cards in brackets,
    other cards as backs, hidden zones as counts, and the variables it may see (each seat's
    on its line), a card held by a variable shown as the zones show cards."""
    names = frozenset(rules.cards.names)
    return [cards_in_text(line, names, style)
            for line in render.view_lines(rules, player_view(rules, state, seat), style.plain)]




def decision_screen(engine: Engine, state: GameState, seat: int, legal: Sequence[Action],
                    events: Sequence[str], style: Style,
                    reacting: Reacting | None = None, first: bool = False) -> list[str]:
    """Everything shown to `seat` before it decides: its name, what happened since it
    last decided (`first`: since the game began, its first decision), its view, its
    numbered choices, and how it meets chances to react (`reacting`, in a ruleset with
    reactions)."""
    rules = engine.rules
    names = frozenset(rules.cards.names)
    lines = [RULE, f"{rules.title} - seat {seat + 1} (you)"]
    if events:
        lines.append("Since the game began:" if first else "Since your last decision:")
        lines += ["  " + cards_in_text(e, names, style) for e in shown_news(events)]
    lines += view_section(rules, state, seat, style)
    lines.append(situation(engine, state, seat))
    lines += choice_lines(engine, state, seat, numbered(legal), style)
    if rules.reactions is not None and reacting is not None and not state.window:
        lines.append(reacting_line(reacting))
    lines.append("Type a number (or help, rules, log, hint, quit).")
    return [paint(printable(line), style) for line in lines]


def shown_news(lines: Sequence[str], limit: int = SHOWN_EVENTS) -> list[str]:
    """The news a screen shows of `lines`: all of it, or when that is more than `limit`
    lines, the latest items that fit and every item to be shown whole (a round's account,
    the seat's own action: cli/table.py's Line), each item whole; a line says where others
    were left out, and how to read them."""
    if len(lines) <= limit:
        return list(lines)
    items: list[list[str]] = []
    for line in lines:
        if not items or getattr(line, "first", True):
            items.append([])
        items[-1].append(line)
    room = limit - sum(len(item) for item in items if _whole(item))
    shown = [False] * len(items)
    for index in range(len(items) - 1, -1, -1):
        if _whole(items[index]):
            shown[index] = True
        elif len(items[index]) <= room:
            shown[index], room = True, room - len(items[index])
        else:
            room = 0  # (the latest news, without a gap in it)
    out: list[str] = []
    left = 0
    for item, show in zip(items, shown):
        if not show:
            left += len(item)
            continue
        if left:
            out.append(_left_out(left))
            left = 0
        out += item
    if left:
        out.append(_left_out(left))
    return out


def _whole(item: Sequence[str]) -> bool:
    return bool(getattr(item[0], "whole", False))


def _left_out(count: int) -> str:
    return f"({count} line{'s' if count != 1 else ''} not shown: type log to read them)"


def reacting_line(reacting: Reacting) -> str:
    """How the person meets chances to react, and how to change it."""
    if reacting.wanted:
        return "Your next chance to react will wait for you (react auto: let it go by)."
    if reacting.stop:
        return "You are asked at every chance to react (react auto: let them go by)."
    return "Chances to react go by for you: type react to take your next one (react " \
           "always: be asked at each)."




def help_lines(engine: Engine, state: GameState, seat: int, legal: Sequence[Action]) -> list[str]:
    """What the current choice is and how to make it."""
    rules = engine.rules
    choices = numbered(legal)
    phase = rules.phases[state.phase]
    lines = [f"You are seat {seat + 1} of {state.n} in {rules.title}, "
             f"{render.round_of(rules, state.round, state.rounds_total).lower()}."]
    if state.window:
        lines.append("Anyone may react after each action; this is your chance to. Type the "
                     "number of a reaction, or just Enter (or 0) to let it go by.")
    else:
        which = f"the number of one of the {len(choices)} choices" if len(choices) > 1 \
            else f"{min(choices)}, the only choice"
        lines.append(f"It is your turn: phase '{phase.name}', step "
                     f"'{phase.steps[state.step].name}'. Type {which}, then Enter.")
    if any(is_open(a) for a in legal):
        lines.append("A choice marked '(you write it next)' asks for a text once picked; "
                     "or type its number, a space and the text on one line.")
    if len(choices) > SHOWN_CHOICES:
        lines.append("Words narrow a long list: typing two words lists the choices that "
                     "have both; 'all' lists every choice.")
    if collapsed(choices):
        lines.append("A line with '...' stands for many choices of one move: type its number "
                     "to choose it part by part (each part from a short list; 'back' to "
                     "return).")
    seen: set[str] = set()
    for action in legal:
        move = engine.moves.get(action[0])
        if move is not None and move.doc and move.name not in seen:
            seen.add(move.name)
            lines.append(f"  {engine.words.describe_move(move.name)}: {' '.join(move.doc.split())}")
    lines.append("Commands: help (this), rules (the game's summary and options), "
                 "log (all you have been told of this game: log 20, the last 20 lines), "
                 "hint (what a bot would play: hint greedy, hint ismcts, hint ismcts:200), "
                 "takeback (your last decision, alone against bots, before you see a card), "
                 "quit (save the game and stop).")
    if rules.reactions is not None:
        lines.append("Chances to react: react (wait for me at my next one), react always "
                     "(at every one), react auto (let them go by: the default).")
    return render.printable_lines(lines)




def text_commands(domain: Words) -> tuple[str, ...]:
    """The words that are commands at a prompt for a text of `domain` (back: choose again;
    quit: save and stop; help: what to write, again): those that are not themselves a text
    of it. Enter alone, never a text, always goes back."""
    return tuple(word for word in ("back", "quit", "help")
                 if domain.problem(fitted(domain, word)) is not None)


def open_prompt(engine: Engine, action: Action, index: int) -> tuple[str, str]:
    """For an open parameter of a picked action: the line saying what to write and how to
    go back or stop there, and the prompt (the parameter's name)."""
    move = engine.moves.get(action[0])
    domain = action[index]
    assert isinstance(domain, Words)
    name = move.params[index - 1].replace("_", " ") if move is not None else "text"
    words = text_commands(domain)
    back = "Enter alone or back" if "back" in words else "Enter alone"
    stop = "; quit: save and stop" if "quit" in words else \
        "; to stop, go back, then type quit"
    again = "; help: this again" if "help" in words else ""
    return (printable(f"Write the {name}: {domain}. ({back}: choose again{stop}{again}.)"),
            printable(f"{name}> "))


def text_way_out(domain: Words) -> str:
    """How to stop at a prompt for a text of `domain`, as a refusal there says it."""
    return "type quit to stop" if "quit" in text_commands(domain) else \
        "press Enter to choose again, then type quit to stop"
