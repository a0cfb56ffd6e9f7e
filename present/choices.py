"""A reaction's choices in the order a person would look for them: the plausible first.

A reaction that names cards (a card, or a rank with a suit or a colour, or a rank alone) is
plausible when each card it names could be one the seat has not seen: for every such
description, some card of the deck that fits it is one the seat does not know. Naming the
hidden cards of geohash, the pairs that hold a card in the seat's own hand come last. Only
the order changes: nothing the rules allow is left out, and nothing but what the seat knows
is read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardrules.interpreter.engine import PASS, Engine
from cardrules.interpreter.state import GameState
from cardrules.model import Action


def plausible_first(engine: Engine, state: GameState, seat: int,
                    actions: Sequence[Action]) -> list[Action]:
    """`actions` with those whose named cards the seat may not have seen first (each
    group in its own order), the pass last."""
    return [actions[i] for i in plausible_order(engine, state, seat, actions)]


def plausible_order(engine: Engine, state: GameState, seat: int,
                    actions: Sequence[Action]) -> list[int]:
    """The indices of `actions` in the order `plausible_first` gives them."""
    unseen = _Unseen(engine, state, seat)
    return sorted(range(len(actions)),
                  key=lambda i: (actions[i] == PASS, not unseen.plausible(actions[i]), i))


class _Unseen:
    """What a seat has not seen: the cards it does not know, by rank and suit or colour."""

    def __init__(self, engine: Engine, state: GameState, seat: int) -> None:
        cards = engine.rules.cards
        self.engine = engine
        self.cards: set[int] = set()
        self.kinds: set[tuple[str, int, int]] = set()
        self.ranks: set[int] = set()
        for c in range(state.n_cards):
            if not state.known[c] >> seat & 1:
                self.cards.add(c)
                self.kinds.add(("suit", cards.rank[c], cards.suit[c]))
                self.kinds.add(("colour", cards.rank[c], cards.colour[c]))
                self.ranks.add(cards.rank[c])

    def plausible(self, action: Action) -> bool:
        move = self.engine.moves.get(action[0])
        if move is None:
            return True
        kinds = move.kinds
        values = action[1:]
        for i, (kind, value) in enumerate(zip(kinds, values)):
            if kind == "card" or (move.names_cards and move.names_cards[i]):
                if not all(c in self.cards for c in _cards(value)) and _cards(value):
                    return False
            elif kind == "rank":
                after = kinds[i + 1] if i + 1 < len(kinds) else ""
                if after in ("suit", "colour"):
                    if (after, value, values[i + 1]) not in self.kinds:
                        return False
                elif value not in self.ranks:
                    return False
        return True


def _cards(value: Any) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, (list, tuple)):
        return [c for v in value for c in _cards(v)]
    return []
