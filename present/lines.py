"""The lines a seat reads, the same at the terminal and in the browser: an action it may
choose, the round's result, the rules' summary, whose decision it is, a typed text taken as
the rules' letters."""

from __future__ import annotations

from typing import Any

from cardrules.interpreter.domains import Words, is_open
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.state import GameState
from cardrules.model import Action, Ruleset

from .render import printable


def choice_text(engine: Engine, action: Action, state: GameState, seat: int) -> str:
    """An action as `seat` may read it, in the ruleset's words (card names as rules write
    them); an action with text still to write says so."""
    text = engine.words.describe(action, state, seat)
    return text + " (you write it next)" if is_open(action) else text


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
    if alphabet == alphabet.upper():
        return value.upper()
    if alphabet == alphabet.lower():
        return value.lower()
    return value
