"""An action as each party saw it: the words every seat, and the table, may read of it.

A seat reads an action in its own words: a card it knew before the action and still knows
once the action's effects are done is named; any other card is told by the place it lay in
("an unseen card from seat 1's hand"), and a card the action showed it is added after
(" - it was 7D"). So a card everyone knew in a hand, put face down into a field, is not
named to the others: they cannot tell which card of the hand it was. What the action does is
worked out on a copy of the game, its move applied there first, so the words are known when
the action is logged, before its effects.

The table's words (`Told.public`, those of the public event log) name a card only if every
seat knows it before and after. Text a seat wrote into an open parameter (a secret
prediction) is its own: the others read that something was written.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardrules.model import Action

from .engine import PASS, Engine
from .state import GameState


@dataclass(frozen=True)
class Told:
    """An action's words: for the table, and for each seat (seats[0] for seat 1)."""

    public: str
    seats: tuple[str, ...]


def tell(engine: Engine, state: GameState, me: int, action: Action) -> Told:
    """`me`'s action in every seat's words and in the table's, `state` being the game before
    the action is applied (it is not changed)."""
    if action == PASS:
        words = engine.describe(action)
        return Told(words, (words,) * state.n)
    move = engine.moves.get(action[0])
    if move is not None and action[0] in engine.open_moves:
        public = f"{engine.describe_move(action[0])} (written, not shown)"
        return Told(public, tuple(engine.describe(action, state, me) if p == me else public
                                  for p in range(state.n)))
    cards = list(_cards_of(engine, action))
    if move is None or not cards:
        public = engine.describe(action, state, None)
        return Told(public, (public,) * state.n)
    after = known_after(engine, state, me, action)
    everyone = state.everyone
    public = _words(engine, state, action, None, cards,
                    lambda c: state.known[c] == everyone, lambda c: after[c] == everyone)
    seats = tuple(_words(engine, state, action, p, cards, _bit(state.known, p), _bit(after, p))
                  for p in range(state.n))
    return Told(public, seats)


def known_after(engine: Engine, state: GameState, me: int, action: Action) -> dict[int, int]:
    """For each card `action` names, who knows it once the move's own effects are done. If
    the move cannot be carried out, who knows it now."""
    cards = list(_cards_of(engine, action))
    if not cards:
        return {}
    after = applied(engine, state, me, action) or state
    return {c: after.known[c] for c in cards}


def applied(engine: Engine, state: GameState, me: int, action: Action) -> GameState | None:
    """The game once `me`'s action's move has done its own effects, on a copy (what follows
    the move, its triggers, a round's end and a new deal, is not done; the copy draws from
    the generator what the game will draw). None if the move cannot be carried out there:
    the game itself will say why."""
    move = engine.moves.get(action[0]) if action and action != PASS else None
    if move is None:
        return None
    copy = state.copy()  # (a copy keeps no event log and tells no watcher)
    try:
        move.run(copy, me, action)
    except Exception:  # noqa: BLE001 - the move will fail, and be reported, in play
        return None
    return copy


def _bit(known: Any, seat: int) -> Callable[[int], bool]:
    return lambda c: bool(known[c] >> seat & 1)


def _words(engine: Engine, state: GameState, action: Action, seat: int | None,
           cards: list[int], knew: Callable[[int], bool], knows: Callable[[int], bool]) -> str:
    """The action's words for `seat` (None: the table), and the cards it showed them."""
    names = engine.rules.cards.names

    def namer(c: int) -> str:
        return names[c] if knew(c) and knows(c) else engine.place_of(state, c, seat)

    text = engine.describe(action, state, seat, namer)
    shown = [names[c] for c in cards if not knew(c) and knows(c)]
    return f"{text} - it was {' '.join(shown)}" if shown else text


def _cards_of(engine: Engine, action: Action) -> list[int]:
    """The cards an action names, in order, each once."""
    move = engine.moves.get(action[0])
    if move is None:
        return []
    out: list[int] = []
    for names_cards, value in zip(move.names_cards, action[1:]):
        if names_cards:
            for c in _flat(value):
                if c not in out:
                    out.append(c)
    return out


def _flat(value: Any) -> list[int]:
    if isinstance(value, int):
        return [value]
    if isinstance(value, (list, tuple)):
        return [c for v in value for c in _flat(v)]
    return []
