"""Two cards traded: the game as it would be had two cards been dealt the other way round.
The tests of what a seat may know (tests/test_information.py, tests/test_adapters.py) make
pairs of games that differ only in cards a seat never saw, with this one helper."""

from __future__ import annotations

from typing import Any

from cardrules.interpreter.engine import Engine
from cardrules.interpreter.state import GameState


def traded(engine: Engine, state: GameState, x: int, y: int) -> GameState:
    """A copy of `state` in which cards x and y have traded identities: each lies where the
    other did, face up or down as that place was, known to whoever knew the card there;
    every party's partial knowledge, what was told of each place, and every variable that
    held one holds the other."""
    swap = {x: y, y: x}
    other = state.copy()
    zx, zy = state.where[x], state.where[y]
    ix, iy = state.zones[zx].index(x), state.zones[zy].index(y)
    other.zones[zx][ix], other.zones[zy][iy] = y, x
    other.where[x], other.where[y] = zy, zx
    for table in (other.known, other.face_up, other.by):
        table[x], table[y] = table[y], table[x]
    other.maybe = [{mask: frozenset(swap.get(c, c) for c in cards)
                    for mask, cards in groups.items()} for groups in state.maybe]
    other.told = {swap.get(c, c): mask for c, mask in state.told.items()}  # of each place
    for var in engine.rules.variables:
        if "card" in (var.kind, var.item_kind):
            if var.name in other.vars:
                other.vars[var.name] = exchanged(other.vars[var.name], swap)
            if var.name in other.pvars:
                other.pvars[var.name] = [exchanged(v, swap) for v in other.pvars[var.name]]
    other.legal_cache = None
    other.version += 1
    return other


def exchanged(value: Any, swap: dict[int, int]) -> Any:
    """A value with the traded cards' ids exchanged (in lists and tuples, at any depth)."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return swap.get(value, value)
    if isinstance(value, list):
        return [exchanged(v, swap) for v in value]
    if isinstance(value, tuple):
        return tuple(exchanged(v, swap) for v in value)
    return value


def exchanged_action(engine: Any, action: Any, swap: dict[int, int]) -> Any:
    """An action with the traded cards' ids exchanged in the parameters that name cards
    alone (a bid of 9 is no card 9): by its move's declared kinds."""
    move = engine.rules.moves.get(action[0]) if isinstance(action, tuple) and action else None
    if move is None or not move.names_cards:
        return exchanged(action, swap)
    return (action[0], *(exchanged(value, swap) if names else value
                         for value, names in zip(action[1:], move.names_cards)),
            *action[1 + len(move.names_cards):])
