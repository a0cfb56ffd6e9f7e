"""The lines a seat reads, the same at the terminal and in the browser: an action it may
choose, the round's result, the rules' summary, whose decision it is, a typed text taken as
the rules' letters."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardrules.interpreter.domains import Words, is_open
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.runtime import OWNER
from cardrules.interpreter.sight import knowers_seen
from cardrules.interpreter.state import GameState
from cardrules.interpreter.words import cards_of
from cardrules.model import Action, Ruleset

from .render import printable


def choice_text(engine: Engine, action: Action, state: GameState, seat: int) -> str:
    """An action as `seat` may read it, in the ruleset's words (card names as rules write
    them); an action with text still to write says so."""
    text = engine.words.describe(action, state, seat)
    return text + " (you write it next)" if is_open(action) else text


def choice_texts(engine: Engine, state: GameState, seat: int,
                 actions: Mapping[int, Action]) -> dict[int, str]:
    """Each offered action's text (`choice_text`); where two read alike but are not the same
    choice (two jokers in a grid, a card of one name the others saw you take and its twin
    they did not), each says which: where its card lies, or who else knows it."""
    texts = {n: choice_text(engine, action, state, seat) for n, action in actions.items()}
    alike: dict[str, list[int]] = {}
    for n, text in texts.items():
        alike.setdefault(text, []).append(n)
    for group in alike.values():
        if len(group) < 2:
            continue
        # each card of each choice told apart as the seat can tell it; said of the cards
        # whose words differ among the choices alike (the one whose card lies elsewhere)
        labels = {n: [_which_card(engine, state, seat, c)
                      for c in cards_of(engine.rules, actions[n])] for n in group}
        width = min(len(each) for each in labels.values())
        differ = [i for i in range(width) if len({labels[n][i] for n in group}) > 1]
        for n in group:
            which = "; ".join(labels[n][i] for i in differ if labels[n][i])
            if which:
                texts[n] += f" ({which})"
    return texts


def _which_card(engine: Engine, state: GameState, seat: int, c: int) -> str:
    """What tells card c apart from another of the same words: its row and column in a
    grid, its place in a pile, or who else knows it in a hand, as far as the seat can tell
    (`sight.knowers_seen`); of another's hand, nothing where the seat does not know the
    card (those it does not know are alike to it)."""
    board = engine.rules.board
    if not 0 <= c < len(state.where):
        return ""
    z = state.where[c]
    index = state.zones[z].index(c)
    if board.grid[z]:
        width = board.width[z]
        return f"row {index // width + 1}, column {index % width + 1}"
    if board.visibility[z] != OWNER:
        depth = len(state.zones[z]) - index
        return "the top one" if depth == 1 else f"{depth} from the top"
    if board.owner[z] != seat and not state.known[c] >> seat & 1:
        return ""
    seen = knowers_seen(board, state, c, seat)
    knowers = [p for p in range(state.n) if p != seat and seen >> p & 1]
    return ("known to " + ", ".join(f"seat {p + 1}" for p in knowers)) if knowers \
        else "known to you alone"


def round_line(state: GameState) -> str:
    """The public result of the round just scored."""
    scores = state.round_scores[-1]
    return (f"round {len(state.round_scores)} over: scores "
            + ", ".join(f"seat {p + 1}: {s}" for p, s in enumerate(scores))
            + "; totals " + ", ".join(f"seat {p + 1}: {t}" for p, t in enumerate(state.totals)))


def situation(engine: Engine, state: GameState, seat: int) -> str:
    """Whose decision this is and where in the turn it comes."""
    phase = engine.rules.phases[state.phase]
    if state.window:
        return (f"A chance to react (seat {state.current + 1}'s turn): act now, "
                "or Enter (or 0) to pass. Choose:")
    return f"Your turn ({phase.name}: {phase.steps[state.step].name}). Choose:"


def rules_parts(rules: Ruleset) -> list[tuple[str, str]]:
    """The rules' summary and options, each part with what it is: ('title', ...),
    ('summary', ...), ('options', ...), then for each option ('option', its label, name
    and value in force, and its choices) and ('doc', what it settles). The terminal wraps
    them (`rules_lines`); the browser lays them out."""
    parts = [("title", f"{rules.title} ({rules.name})"),
             ("summary", " ".join(rules.summary.split()))]
    if rules.option_defs:
        parts.append(("options", "Options (set with --option NAME=VALUE when starting a game):"))
    for option in rules.option_defs:
        value = rules.options.get(option.name, option.default)
        named = f"{option.title} ({option.name})" if option.label else option.name
        parts.append(("option", f"{named} = {shown_value(value)}"
                      + (f"  (one of: {', '.join(map(str, option.choices))})"
                         if option.choices else "")))
        parts.append(("doc", " ".join(option.doc.split())))
    return [(kind, printable(text)) for kind, text in parts]


def rules_lines(rules: Ruleset) -> list[str]:
    """The ruleset's summary and its options, with the values in force, as text lines, one
    for each part (the screen breaks them to its width: cli/screen.py fit)."""
    indent = {"title": "", "summary": "  ", "options": "", "option": "  ", "doc": "      "}
    return [indent[kind] + text for kind, text in rules_parts(rules) if text]


def shown_value(value: Any) -> str:
    """A variable's or an option's value in words: '?' where it is not told, yes or no."""
    if value is None:
        return "?"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value) if value != "" else "-"


def fitted(domain: Words, value: str) -> str:
    """Letters typed in the other case are taken when the alphabet has one case only (so a
    refusal names only the letters that are wrong in either case)."""
    alphabet = domain.alphabet
    if domain.problem(value) is None:
        return value
    # (letter by letter, where a letter stays one: 'ß' is no 'SS', nor 'ﬆ' an 'ST')
    if alphabet == alphabet.upper():
        return "".join(ch.upper() if len(ch.upper()) == 1 else ch for ch in value)
    if alphabet == alphabet.lower():
        return "".join(ch.lower() if len(ch.lower()) == 1 else ch for ch in value)
    return value
