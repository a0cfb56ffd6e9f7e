"""The words a person may type at a decision besides a choice: react, hint, take back.

    react            answer my next chance to react (the game goes on until it comes)
    react always     ask me at every chance to react
    react auto       let chances to react go by (the default)
    hint [BOT]       what a bot (greedy, or ismcts; with a budget: ismcts:200) would play
    log [N]          all I have been told of this game (or its last N lines)
    takeback         take back my last decision (alone against bots, before I see a card)

Each returns the lines to show; none changes the game but `take_back`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cardrules.errors import GameError
from cardrules.interpreter.domains import Words, is_open, matches
from cardrules.interpreter.players import hint as hints
from cardrules.model import Action
from cardrules.present.choices import choice_key, once_each
from cardrules.present.lines import choice_text, choice_texts
from cardrules.present.render import printable

from .screen import Style, cards_in_text, paint
from .table import Table


def react(table: Table, seat: int, words: Sequence[str]) -> list[str]:
    """`react`, `react always`, `react auto`: how the person meets chances to react."""
    windows, state = table.windows, table.state
    if not words:
        if windows.in_window(state, seat):
            return ["This is your chance to react: type the number of a reaction, or just "
                    "Enter (or 0) to let it go by."]
        windows.want(seat)
        return ["Your next chance to react will wait for you: it comes once this action is "
                "made and the seats before you have had theirs."]
    if words == ["always"]:
        windows.set_stop(seat, True)
        return ["You will be asked at every chance to react (react auto: let them go by "
                "again)."]
    if words == ["auto"]:
        windows.set_stop(seat, False)
        windows.want(seat, False)
        return ["Chances to react go by for you unless you type react first (react always: "
                "be asked at each)."]
    return ["refused: type react (your next chance), react always or react auto"]


def hint(table: Table, seat: int, choices: Mapping[int, Action], words: Sequence[str],
         style: Style, named_numbers: set[int] | None = None) -> list[str]:
    """`hint [BOT]`: the bot's pick for this decision and what it thinks of each choice,
    from this seat's knowledge alone (the numbers of the choices it names are added to
    `named_numbers`: they are on the screen now)."""
    if len(words) > 1:
        return ["refused: type hint, or hint and a bot (greedy, ismcts, ismcts:200)"]
    kind = words[0] if words else hints.DEFAULT_HINT
    engine, state = table.engine, table.state
    try:
        advice = hints.hint(engine, state, kind)
    except GameError as exc:
        return [printable(f"refused: {exc}")]
    numbers = {action: n for n, action in choices.items() if not is_open(action)}
    # an action not offered, being the same choice as one that is (present/choices.py:
    # distinct), goes by that one's number and words
    alike = {choice_key(engine, state, action): n for action, n in numbers.items()}
    texts = choice_texts(engine, state, seat, {n: a for a, n in numbers.items()})

    def number_of(action: Action) -> int | None:
        found = numbers.get(action)
        return found if found is not None else alike.get(choice_key(engine, state, action))

    # a move whose text the person writes: offered once, by its number; a hint names a
    # text the bot wrote, and the number to type before writing it
    writes = [(n, action) for n, action in choices.items() if is_open(action)]

    def named(action: Action) -> str:
        number = number_of(action)
        if number is None:
            text = choice_text(engine, action, state, seat)
            template = next(((n, open_) for n, open_ in writes
                             if matches(open_, action) is None), None)
            written = [a for a, want in zip(action[1:], template[1][1:])
                       if isinstance(want, Words)] if template is not None else []
            if template is not None and written:
                return f"{template[0]}. {text} (type {template[0]}, then " \
                    f"{', then '.join(written)})"
            return text
        if named_numbers is not None:
            named_numbers.add(number)
        return f"{number}. {texts[number]}"

    estimates = once_each(advice.estimates, lambda e: number_of(e.action))
    names = frozenset(engine.rules.cards.names)
    lines = [f"Hint from {kind}: {named(advice.pick)}",
             "  what it makes of each choice, the best first:"]
    lines += [f"    {named(e.action)}: {e.words}" for e in estimates[:hints.SHOWN]]
    if len(estimates) > hints.SHOWN:
        lines.append(f"    ... and {len(estimates) - hints.SHOWN} more")
    return [paint(cards_in_text(printable(line), names, style), style) for line in lines]


def log(table: Table, seat: int, words: Sequence[str], style: Style) -> list[str]:
    """`log`, `log N`: the news this seat has been told of the game, as it was told (the
    last N lines)."""
    if len(words) > 1 or (words and not (words[0].isascii() and words[0].isdigit()
                                         and 0 < len(words[0]) <= 6 and int(words[0]) > 0)):
        return ["refused: type log, or log and a number of lines (log 20)"]
    told = table.history.get(seat, [])
    if not told:
        return ["You have been told nothing of this game yet."]
    shown = told[-int(words[0]):] if words else told
    earlier = len(told) - len(shown) + table.forgotten.get(seat, 0)
    lines = [f"What you have been told of this game ({len(shown)} "
             f"line{'s' if len(shown) != 1 else ''}"
             + (f"; {earlier} earlier" if earlier else "") + "):"]
    lines += ["  " + line for line in shown]
    names = frozenset(table.engine.rules.cards.names)
    return [paint(cards_in_text(printable(line), names, style), style) for line in lines]


def take_back(table: Table, seat: int) -> tuple[list[str], bool]:
    """`takeback`: the person's last decision taken back, if it may be (the lines to
    show, and whether it was)."""
    try:
        words = table.take_back(seat)
    except GameError as exc:
        return [printable(f"refused: {exc}")], False
    table.pending[seat] = []
    table.say(seat, [f"you take back: {words}"])
    return [printable(f"Taken back: {words}. Decide again.")], True
