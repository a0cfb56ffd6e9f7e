"""A position of a game: what a seat (or the whole table) sees of it, as one digest.

Two games are at the same position for a seat when it sees the same there: each zone's cards
where the seat knows every one of them (in order, face up or not; another's hand as a set, its
order being its holder's), else the cards it knows there (as a set) and how many it does not;
the variables as its view shows them; the totals and whose decision it is (round, phase, step,
seat, a reaction window). Counters that only grow (turns, actions) are left out, or nothing
would ever repeat.

A search bot's seat remembers the positions it has seen so as not to go back to them
(players/repetition.py); a ruleset that forbids repetition (`repetition: forbid`) refuses a
move that returns the game to a position the table has seen (flow.unrepeated): there the
position is the table's, what every seat sees, so that whether a move would repeat is
settled by what all can see.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from cardrules.model import Ruleset

from .runtime import OWNER
from .state import GameState
from .view import secret, shown


def position(rules: Ruleset, state: GameState, seat: int | None,
             known: Sequence[int] | None = None) -> bytes:
    """A digest of `state` as `seat` sees it (None: as every seat does, the table), reading
    who knows each card from `known` (per card, the mask of the parties that know it; by
    default the state's own)."""
    known = state.known if known is None else known
    zones = _zones(rules, state, seat, known)
    saved = state.known
    state.known = list(known)  # the variables' cards too, as the seat knows them
    try:
        variables = _variables(rules, state, seat)
    finally:
        state.known = saved
    text = repr((zones, variables, state.totals, state.round, state.phase, state.step,
                 state.current, state.window, state.active, state.stop_before, state.over,
                 *(("reversed",) if state.direction != rules.direction else ())))
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def cards_position(rules: Ruleset, state: GameState, seat: int) -> bytes:
    """A digest of where the cards lie as `seat` sees them, and whose decision it is, the
    variables left out: a person's lone choices that go round in a circle while a count
    grows come back to one (sessions/people.py)."""
    text = repr((_zones(rules, state, seat, state.known), state.round, state.phase,
                 state.step, state.current, state.window))
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def _zones(rules: Ruleset, state: GameState, seat: int | None,
           known: Sequence[int]) -> list[Any]:
    """Each zone as `seat` sees it (position)."""
    mask = state.everyone if seat is None else 1 << seat
    board = rules.board
    zones: list[Any] = []
    for z, cards in enumerate(state.zones):
        if all(c < 0 or known[c] & mask == mask for c in cards):
            if board.visibility[z] == OWNER and board.owner[z] != seat:
                # another's hand: its order is its holder's, which the others never see
                zones.append(("held", tuple(sorted((c, state.face_up[c]) for c in cards
                                                   if c >= 0))))
                continue
            zones.append(tuple((c, state.face_up[c]) if c >= 0 else (c,) for c in cards))
        else:  # some cards unknown: which place each is in would say something of them
            seen = sorted((c, state.face_up[c]) for c in cards
                          if c >= 0 and known[c] & mask == mask)
            zones.append(("mixed", tuple(seen), len(cards) - len(seen)))
    return zones


def shows_a_card(before: Sequence[int], after: Sequence[int], mask: int) -> bool:
    """Whether a move showed every party of `mask` a card they did not all know before it
    (per card, who knew it `before` the move and `after`): what it reaches is news to them,
    whichever card it was, so it repeats no position of theirs."""
    return any(a & mask == mask and b & mask != mask for b, a in zip(before, after))


def _variables(rules: Ruleset, state: GameState, seat: int | None) -> list[Any]:
    """The variables as the seat's view shows them: another seat's secret ones hidden (every
    seat's, for the table)."""
    out: list[Any] = []
    for var in rules.variables:
        if var.internal:
            continue
        if var.name in state.vars:
            out.append(shown(rules, state, seat, var.shape, state.vars[var.name]))
        elif var.name in state.pvars:
            hide = secret(var, state.over)
            out.append([shown(rules, state, seat, var.shape, v)
                        if not hide or p == seat else None
                        for p, v in enumerate(state.pvars[var.name])])
    return out
