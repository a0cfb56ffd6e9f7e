"""Refusing to repeat a position: the memory of a search bot's seat.

A search bot values a position, not the way to it, so a move and its undoing (a sequence moved
from one pile to another and back) can each look best in turn, and the game goes round until
its bound on actions cuts it off. A seat's Memory keeps the positions of the real game it has
seen at each of its decisions, and the one it expected each of its actions to lead to, each as
the seat sees it; where
the bot's pick would return to one of them and another candidate would not, it takes the best
candidate that would not. Where no repetition occurs the bot's choice is unchanged.

A position is the game as the seat sees it (interpreter/positions.py). A candidate that would
show the seat a card it does not know (a draw), or that meets chance (a shuffle), is news
however it falls, and repeats nothing: the memory learns nothing of which card, nor of how
the shuffle would fall.

Where a candidate leads is worked out on a sample of the game, not on the game itself: a
move's visible effect may hang on a card the seat does not know (a counter raised only if
another's hidden card is an ace), and trying it on the real game would tell the seat which
it is. The sample (knowledge.determinize_with_map) is drawn from a generator seeded by the
position alone, so the bot stays a function of its seed, and two games that differ only in
what the seat has not seen give it the same sample and the same choice. Where nothing of the
game is hidden from the seat (knowledge.nothing_hidden: a patience, every card face up), every
sample would be the game itself but for what no position reads, and the game is tried instead.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from cardrules.errors import CardrulesError

from ..engine import Engine
from ..positions import position, shows_a_card
from ..state import GameState
from .knowledge import determinize_with_map, nothing_hidden, translate

Action = tuple[Any, ...]
MOST = 100_000  # positions remembered at most (the oldest are forgotten first)
NEWS = b""  # the position after an action that shows the seat a card: new, never remembered


class Memory:
    """The positions one seat has seen in its game, and the choice that avoids them."""

    def __init__(self) -> None:
        self.seen: dict[bytes, None] = {}  # an ordered set: the oldest first
        self.actions = -1  # the game's count of actions at the last decision seen

    def remember(self, key: bytes) -> None:
        self.seen[key] = None
        if len(self.seen) > MOST:
            del self.seen[next(iter(self.seen))]

    def choose(self, engine: Engine, state: GameState, seat: int, pick: Action,
               ranked: Iterable[Action]) -> Action:
        """`pick`, unless it returns to a position this seat has seen and one of `ranked`
        (the other candidates, the best first) does not: then the first such one."""
        if state.actions < self.actions:
            self.seen.clear()  # a game taken back (or another game): nothing seen yet
        self.actions = state.actions
        here = position(engine.rules, state, seat)
        self.remember(here)
        sampler = engine.unwatched()
        if nothing_hidden(engine.rules, state, seat):
            sample, mapping = state, None  # (tried on copies: the game is not changed)
        else:
            sample, mapping = determinize_with_map(sampler, state, seat, random.Random(here))

        def named(action: Action) -> Action:  # the action as it reads in the sample
            return action if mapping is None else translate(sampler, action, mapping)

        after = self._after(sampler, sample, seat, named(pick))
        if after is not None and after in self.seen:
            for other in ranked:
                if other == pick:
                    continue
                elsewhere = self._after(sampler, sample, seat, named(other))
                if elsewhere is not None and elsewhere not in self.seen:
                    pick, after = other, elsewhere
                    break
        if after:  # (None: it could not be tried; NEWS: no position to remember)
            self.remember(after)
        return pick

    @staticmethod
    def _after(engine: Engine, sample: GameState, seat: int, action: Action) -> bytes | None:
        """The position after `action` in `sample` (a game as the seat may think it is, the
        action naming its cards), as the seat would see it (None if the action cannot be
        tried there: then it is not counted a repetition; NEWS if it would show the seat a
        card it does not know or meets chance: never a repetition)."""
        copy = sample.copy()
        copy.sight = False  # (no position reads partial knowledge: a sample keeps none)
        try:
            engine.advance(copy, action)
            if not copy.over:
                engine.legal_actions(copy)  # pass over seats with nothing to react with
        except CardrulesError:
            return None
        if copy.met_chance_since(sample) or shows_a_card(sample.known, copy.known, 1 << seat):
            return NEWS  # news to the seat, however it fell: no position of its own
        return position(engine.rules, copy, seat)
