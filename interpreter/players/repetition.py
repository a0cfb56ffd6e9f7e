"""Refusing to repeat a position: the memory of a search bot's seat.

A search bot values a position, not the way to it, so a move and its undoing (a sequence moved
from one pile to another and back) can each look best in turn, and the game goes round until
its bound on actions cuts it off. A seat's Memory keeps the positions of the real game it has
seen (at each of its decisions, and after each of its actions), each as the seat sees it; where
the bot's pick would return to one of them and another candidate would not, it takes the best
candidate that would not. Where no repetition occurs the bot's choice is unchanged.

A position as the seat sees it: each zone's cards where the seat knows every one of them (in
order, face up or not), else the cards it knows there (as a set) and how many it does not; the
variables as its view shows them; the totals and whose decision it is (phase, step, seat).
Counters that only grow (turns, actions) are left out, or nothing would ever repeat. The
position after a candidate is read with what the seat knows before taking it, so that where a
card would come to light (a draw) the memory learns nothing of it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from typing import Any

from cardrules.errors import CardrulesError
from cardrules.model import Ruleset

from ..engine import Engine
from ..state import GameState
from ..view import secret, shown

Action = tuple[Any, ...]
MOST = 100_000  # positions remembered at most (the oldest are forgotten first)


def position(rules: Ruleset, state: GameState, seat: int, known: list[int]) -> bytes:
    """A digest of `state` as `seat` sees it, reading what it knows from `known` (per card,
    the mask of the parties that know it)."""
    bit = 1 << seat
    zones: list[Any] = []
    for cards in state.zones:
        if all(c < 0 or known[c] & bit for c in cards):
            zones.append(tuple((c, state.face_up[c]) if c >= 0 else (c,) for c in cards))
        else:  # some cards unknown: which place each is in would say something of them
            seen = sorted((c, state.face_up[c]) for c in cards if c >= 0 and known[c] & bit)
            zones.append(("mixed", tuple(seen), len(cards) - len(seen)))
    saved = state.known
    state.known = known  # the variables' cards too, as the seat knows them before acting
    try:
        variables = _variables(rules, state, seat)
    finally:
        state.known = saved
    text = repr((zones, variables, state.totals, state.round, state.phase, state.step,
                 state.current, state.window, state.active, state.stop_before, state.over))
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def _variables(rules: Ruleset, state: GameState, seat: int) -> list[Any]:
    """The variables as the seat's view shows them: another seat's secret ones hidden."""
    out: list[Any] = []
    for var in rules.variables:
        if var.internal:
            continue
        if var.name in state.vars:
            out.append(shown(rules, state, seat, var.kind, var.item_kind, state.vars[var.name]))
        elif var.name in state.pvars:
            hide = secret(var, state.over)
            out.append([shown(rules, state, seat, var.kind, var.item_kind, v)
                        if not hide or p == seat else None
                        for p, v in enumerate(state.pvars[var.name])])
    return out


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
        if after is not None:
            self.remember(after)
        return pick

    @staticmethod
    def _after(engine: Engine, state: GameState, seat: int, action: Action,
               known: list[int]) -> bytes | None:
        """The position after `action`, as the seat sees it with what it knows now (None if
        the action cannot be tried on a copy: then it is not counted a repetition)."""
        copy = state.copy()
        try:
            engine.advance(copy, action)
            if not copy.over:
                engine.legal_actions(copy)  # pass over seats with nothing to react with
        except CardrulesError:
            return None
        known = known + [0] * (len(copy.known) - len(known))
        return position(engine.rules, copy, seat, known)
