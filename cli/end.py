"""The end of a game at the terminal: how it is dealt again, what each person missed since
their last decision (its latest items of news that fit in END_NEWS lines, a round's account
whole), the single person's final view and the
standings; then, for the asking, the whole log of what each person was told (`log`, `log N`,
as at any decision), until Enter or the end of input.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence

from cardrules.present import render
from cardrules.present.lines import rules_lines
from cardrules.present.render import printable

from . import commands
from .screen import (
    RULE,
    Style,
    cards_in_text,
    paint,
    shown_news,
    terminal_width,
    view_section,
)
from .table import Table

END_NEWS = 40  # lines of a person's news since their last decision on the end screen
LEAVE = ("Type log to read all you have been told of this game (log 20: its last 20 lines), "
         "or press Enter to leave.")
LEAVE_SEVERAL = ("Type log to read all each of you has been told of this game (log 20: the "
                 "last 20 lines of each), or press Enter to leave.")


def dealt_again(table: Table, deal_file: str | None) -> str:
    """How the game is dealt again: its seed, and the deal it was given, if any
    (`deal_file`: the file it was dealt from, where that is known)."""
    seed = table.seed
    if table.record.deal is None:
        return f"Its seed was {seed}: --seed {seed} deals it again."
    if deal_file is None:  # (resumed: a save holds the deal, not its file's name)
        return f"Its seed was {seed}: --deal with the file it was dealt from and --seed " \
               f"{seed} deal it again."
    return f"Its seed was {seed}: --deal {shlex.quote(deal_file)} --seed {seed} " \
           "deal it again."


def end_lines(table: Table, style: Style, deal_file: str | None = None) -> list[str]:
    """After the game: what people missed since their last decision (the latest items that
    fit in END_NEWS lines, a round's account whole, and how many lines `log` shows besides),
    the single person's final view, the
    standings, and how to read the whole log."""
    t = table
    names = frozenset(t.engine.rules.cards.names)
    lines = [RULE, f"Game over. {dealt_again(t, deal_file)}"]
    alone = len(t.humans) == 1
    for seat, news in t.pending.items():
        if news:
            lines.append("Since your last decision:" if alone else
                         f"Since seat {seat + 1}'s last decision:")
            # as at a decision: whole items, a round's account always (cli/screen.py)
            lines += ["  " + line for line in shown_news(news, END_NEWS)]
    if alone:
        lines += view_section(t.engine.rules, t.state, t.humans[0], style)
    lines += render.standings(t.engine.results(t.state), t.engine.rules.winner,
                              t.engine.rules.teams, terminal_width())
    lines.append(LEAVE if alone else LEAVE_SEVERAL)
    return [paint(cards_in_text(printable(line), names, style), style) for line in lines]


def whole_log(table: Table, words: Sequence[str], style: Style) -> list[str]:
    """`log` once the game is over: all each person was told (`commands.log`), under their
    seat's name where several people played."""
    if len(table.humans) == 1:
        return commands.log(table, table.humans[0], words, style)
    out: list[str] = []
    for seat in table.humans:
        out += [f"Seat {seat + 1}:", *commands.log(table, seat, words, style)]
    return out


def after_end(table: Table, style: Style, ask: Callable[[str], str | None],
              show: Callable[[Sequence[str]], None]) -> None:
    """Once the end screen is shown: the whole log for each `log` typed, until Enter (or
    quit) leaves, or `ask` has no more lines (None); `rules` and `help` as at a decision;
    anything else is refused, saying what works here (the game is over: no hint, no
    take-back)."""
    while (line := ask("game over> ")) is not None:
        words = line.strip().lower().split()
        if not words or words[0] in ("quit", "exit", "q"):
            return
        if words[0] in ("log", "history"):
            show(whole_log(table, words[1:], style))
        elif words == ["rules"]:
            show(rules_lines(table.engine.rules))
        elif words[0] in ("help", "?") and len(words) == 1:
            show(["The game is over: no more moves, hints or take-backs.",
                  "  log, log N   read what you were told of the game (its last N lines)",
                  "  rules        read the rules of this game",
                  "  Enter, quit  leave"])
        else:
            show(["refused: the game is over: type log (or log 20) to read what you were "
                  "told, rules to read the rules, or press Enter to leave"])
