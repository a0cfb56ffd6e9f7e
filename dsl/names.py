"""Small helpers about names: suggestions for misspellings, and a construct's one stem."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def suggest(name: str, candidates: Iterable[str]) -> str | None:
    """The closest candidate to a misspelt `name`, if any is close enough."""
    options = list(candidates)
    for option in options:  # a difference of case only ('k' for 'K') is the likeliest slip
        if option.lower() == name.lower() and option != name:
            return option
    lowered = {option.lower(): option for option in options}
    found = difflib.get_close_matches(name.lower(), list(lowered), n=1, cutoff=0.6)
    return lowered[found[0]] if found else None


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """`: did you mean 'x'?` when a candidate is close, else an empty string."""
    hint = suggest(name, candidates)
    return f": did you mean '{hint}'?" if hint else ""


def rule_name(node_class: type) -> str:
    """The grammar rule a syntax-tree class is built from (`MoveCards` -> `move_cards`): a
    construct keeps this one stem at every stage (docs/language-design.md, the glossary)."""
    out = []
    for i, ch in enumerate(node_class.__name__):
        if ch.isupper() and i:
            out.append("_")
        out.append(ch.lower())
    return "".join(out)
