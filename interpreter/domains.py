"""Open domains: move parameters drawn from a space too large to list.

A legal action may hold a Domain in place of a parameter (a Precognition prediction is
one of 3^51 strings). A bot samples it, a person types it, and the engine checks the
value given against it before applying the action.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Words:
    """Texts over an alphabet, of a length between `shortest` and `longest`."""

    alphabet: str
    shortest: int
    longest: int

    def problem(self, value: Any) -> str | None:
        """Why `value` is not in the domain, or None if it is."""
        if not isinstance(value, str):
            return f"expected a text of the letters {self.letters()}"
        if not value:
            return "empty: write at least one letter"
        wrong = list(dict.fromkeys(ch for ch in value if ch not in self.alphabet))
        if wrong:  # (each once, in the order written)
            named = ["a space" if ch == " " else f"'{ch}'" for ch in wrong]
            listed = named[0] if len(named) == 1 else \
                f"{', '.join(named[:-1])} and {named[-1]}"
            return (f"{listed} {'is' if len(wrong) == 1 else 'are'} not allowed: "
                    f"use only {self.letters()}")
        if not self.shortest <= len(value) <= self.longest:
            return (f"{len(value)} letters: write between {self.shortest} and "
                    f"{self.longest}")
        return None

    def sample(self, rng: random.Random) -> str:
        """A value drawn at random: every length equally likely, then every letter."""
        length = rng.randint(self.shortest, self.longest)
        return "".join(rng.choice(self.alphabet) for _ in range(length))

    def letters(self) -> str:
        return ", ".join(self.alphabet)

    def __str__(self) -> str:
        return f"a text of {self.shortest} to {self.longest} letters from {self.letters()}"


Domain = Words  # the kinds of open domain there are


def is_open(action: tuple[Any, ...]) -> bool:
    """Whether a legal action still has a parameter to fill in."""
    return any(isinstance(arg, Words) for arg in action[1:])


def fill(action: tuple[Any, ...], rng: random.Random) -> tuple[Any, ...]:
    """The action with each open parameter sampled."""
    return tuple(arg.sample(rng) if isinstance(arg, Words) else arg for arg in action)


def matches(template: tuple[Any, ...], action: tuple[Any, ...]) -> str | None:
    """None if `action` fills the open parameters of `template`; else why not."""
    if len(template) != len(action) or template[0] != action[0]:
        return "a different move"
    for want, got in zip(template[1:], action[1:]):
        if isinstance(want, Words):
            problem = want.problem(got)
            if problem is not None:
                return problem
        elif want != got:
            return "a different choice"
    return None
