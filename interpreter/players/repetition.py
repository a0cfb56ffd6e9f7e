"""Refusing to repeat a position: the memory of a search bot's seat.

A search bot values a position, not the way to it, so a move and its undoing (a sequence moved
from one pile to another and back) can each look best in turn, and the game goes round until
its bound on actions cuts it off. A seat's Memory keeps the positions of the real game it has
seen (at each of its decisions, and after each of its actions), each as the seat sees it; where
the bot's pick would return to one of them and another candidate would not, it takes the best
candidate that would not. Where no repetition occurs the bot's choice is unchanged.

A position is the game as the seat sees it (interpreter/positions.py). A candidate that would
show the seat a card it does not know (a draw), or that meets chance (a shuffle), is news
however it falls, and repeats nothing: the memory learns nothing of which card, nor of how
the shuffle would fall.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from cardrules.errors import CardrulesError

from ..engine import Engine
from ..positions import position, shows_a_card
from ..state import GameState

Action = tuple[Any, ...]
MOST = 100_000  # positions remembered at most (the oldest are forgotten first)
NEWS = b""  # the position after an action that shows the seat a card: new, never remembered


class Memory:
    """The positions one seat has seen in its game, and the choice that avoids them."""

    def __init__(self) -> None:
        self.seen: dict[bytes, None] = {}  # an ordered set: the oldest first
        self.game: tuple[int, int] = (-1, -1)  # (seed, actions) of the last decision seen

    def remember(self, key: bytes) -> None:
        self.seen[key] = None
        if len(self.seen) > MOST:
            del self.seen[next(iter(self.seen))]

    def choose(self, engine: Engine, state: GameState, seat: int, pick: Action,
               ranked: Iterable[Action]) -> Action:
        """`pick`, unless it returns to a position this seat has seen and one of `ranked`
        (the other candidates, the best first) does not: then the first such one."""
        if state.seed != self.game[0] or state.actions < self.game[1]:
            self.seen.clear()  # another game (or one taken back): nothing seen yet
        self.game = (state.seed, state.actions)
        rules, known = engine.rules, list(state.known)
        self.remember(position(rules, state, seat, known))
        sampler = engine.unwatched()
        after = self._after(sampler, state, seat, pick, known)
        if after is not None and after in self.seen:
            for other in ranked:
                if other == pick:
                    continue
                elsewhere = self._after(sampler, state, seat, other, known)
                if elsewhere is not None and elsewhere not in self.seen:
                    pick, after = other, elsewhere
                    break
        if after:  # (None: it could not be tried; NEWS: no position to remember)
            self.remember(after)
        return pick

    @staticmethod
    def _after(engine: Engine, state: GameState, seat: int, action: Action,
               known: list[int]) -> bytes | None:
        """The position after `action`, as the seat sees it with what it knows now (None if
        the action cannot be tried on a copy: then it is not counted a repetition; NEWS if it
        would show the seat a card it does not know or meets chance: never a repetition)."""
        copy = state.copy()
        try:
            engine.advance(copy, action)
            if not copy.over:
                engine.legal_actions(copy)  # pass over seats with nothing to react with
        except CardrulesError:
            return None
        if copy.met_chance_since(state) or shows_a_card(known, copy.known, 1 << seat):
            return NEWS  # news to the seat, however it fell: no position of its own
        return position(engine.rules, copy, seat)
