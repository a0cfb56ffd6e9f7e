"""Choices in the order a person would look for them: those that name a card of the seat's
own hand in the order the seat's view shows that hand (`in_view_order`), and a reaction's
the plausible first (`plausible_first`); choices that read alike to everyone, once
(`distinct`).

A reaction that names cards (a card, or a rank with a suit or a colour, or a rank alone) is
plausible when each card it names could be one the seat has not seen: for every such
description, some card of the deck that fits it is one the seat does not know. Naming the
hidden cards of geohash, the pairs that hold a card in the seat's own hand come last. Only
the order changes: nothing the rules allow is left out, and nothing but what the seat knows
is read.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from cardrules.interpreter.engine import PASS, Engine
from cardrules.interpreter.runtime import OWNER
from cardrules.interpreter.sight import hand_apart, knowers_seen
from cardrules.interpreter.state import GameState
from cardrules.interpreter.view import held_order
from cardrules.interpreter.words import cards_of
from cardrules.model import Action

from . import render

T = TypeVar("T")


def in_view_order(engine: Engine, state: GameState, seat: int,
                  actions: Sequence[Action]) -> list[Action]:
    """`actions` with those that name one card of a zone of `seat`'s in the order the
    seat's view shows its zones (present/render.py: a spread in the deck's order, its
    unseen cards last; other layouts as the cards lie), and those that name a card of a
    hand another holds by where the seat's view shows each card they name (`view.held_order`:
    the cards it knows in the deck's order, then backs), so that their order and the words
    at each place come of nothing the seat did not see (the engine lists such a hand in its
    holder's order, or a list made of it in the deck's); each move's among the places its
    own such actions held; every other action stays where it was."""
    rules = engine.rules
    board = rules.board
    seen_at = view_places(engine, state, seat)
    place_of = {zone.name: place for place, zone in enumerate(rules.zones)}

    def key(action: Action) -> tuple[tuple[int, int, int], ...] | None:
        cards = cards_of(rules, action) if action != PASS else []
        if len(cards) == 1:
            one = seen_at(cards[0])
            return None if one is None else (one,)
        if not any(hand_apart(board, state.where[c], seat) for c in cards):
            return None  # (cards of the seat's own, or the table's: as listed)
        # a choice naming a card of another's hand: by where the seat sees each card
        return tuple(seen_at(c) or (place_of[board.names[state.where[c]]], state.where[c],
                                  state.zones[state.where[c]].index(c)) for c in cards)

    out = list(actions)
    keys = [key(a) for a in actions]
    for move in dict.fromkeys(a[0] for a in actions):
        places = [i for i, a in enumerate(actions) if a[0] == move and keys[i] is not None]
        ordered = sorted(places, key=lambda i: keys[i] or ())
        for at, i in zip(places, ordered):
            out[at] = actions[i]
    return out


def view_places(engine: Engine, state: GameState,
                seat: int) -> Callable[[int], tuple[int, int, int] | None]:
    """Where `seat`'s view shows a card, as a key to sort by: in its own zones (a spread in
    the deck's order, its unseen cards last; other layouts as the cards lie) or in a hand
    another holds (`view.held_order`); None for a card anywhere else."""
    rules = engine.rules
    board = rules.board
    own: dict[int, tuple[int, str]] = {}  # zone index -> (the zone's place, its layout)
    place_of = {zone.name: place for place, zone in enumerate(rules.zones)}
    for place, zone in enumerate(rules.zones):
        if zone.owned:
            own.update((z, (place, zone.layout)) for z in zone.instances(seat))
    held = {z: place_of[name] for z, name in enumerate(board.names)
            if hand_apart(board, z, seat)}  # another's hand -> the zone's place
    deck, names = render.deck_order(rules), rules.cards.names
    seen: dict[int, dict[int, int]] = {}  # another's hand -> each card's place in its view

    def seen_at(c: int) -> tuple[int, int, int] | None:
        z = state.where[c]
        if z in held:
            if z not in seen:
                order = held_order(board, state, state.zones[z], seat)
                seen[z] = {card: i for i, card in enumerate(order)}
            return held[z], z, seen[z][c]
        if z not in own:
            return None
        at, layout = own[z]
        if layout != "spread":
            return at, z, state.zones[z].index(c)
        if not state.known[c] >> seat & 1:
            return at, z, len(deck) + 1
        return at, z, deck.get(names[c], len(deck))

    return seen_at


def offered(engine: Engine, state: GameState, seat: int,
            actions: Sequence[Action]) -> list[Action]:
    """The choices a person at `seat` is offered of the legal `actions`: in view order,
    each once (`distinct`), a reaction's the plausible first."""
    return [actions[i] for i in offered_order(engine, state, seat, actions)]


def offered_order(engine: Engine, state: GameState, seat: int,
                  actions: Sequence[Action]) -> list[int]:
    """The indices of `actions` that `offered` gives, in its order (what a page lists)."""
    at = {action: i for i, action in enumerate(actions)}
    ordered = in_view_order(engine, state, seat, actions)
    ordered = [ordered[i] for i in distinct(engine, state, ordered)]
    if state.window:
        ordered = plausible_first(engine, state, seat, ordered)
    return [at[action] for action in ordered]


def distinct(engine: Engine, state: GameState, actions: Sequence[Action]) -> list[int]:
    """The indices of `actions` but those that are the same choice as an earlier one: read
    the same to every seat and to the table, and name their cards from the same places (two
    cards of one name, from two decks, in one hand, turned and known alike). A card of a
    grid, a pile or a row is its place: two jokers in a golf grid are two choices."""
    seen: set[tuple[Any, ...]] = set()
    out = []
    for i, action in enumerate(actions):
        key = choice_key(engine, state, action)
        if key not in seen:
            seen.add(key)
            out.append(i)
    return out


def once_each(items: Sequence[T], choice_of: Callable[[T], Any]) -> list[T]:
    """`items` (a hint's estimates, best first) but those of a choice an earlier one is of
    (`choice_of`: the offered choice an item is of, None for one offered nowhere)."""
    out, seen = [], set()
    for item in items:
        choice = choice_of(item)
        if choice is None or choice not in seen:
            if choice is not None:
                seen.add(choice)
            out.append(item)
    return out


def choice_key(engine: Engine, state: GameState, action: Action) -> tuple[Any, ...]:
    """What makes a choice the one it is to everyone (`distinct`): its words to every seat
    and to the table, and the places of its cards."""
    seats = [*range(state.n), None]
    return (tuple(engine.words.describe(action, state, s) for s in seats),
            _places(engine, state, action))


def _places(engine: Engine, state: GameState, action: Action) -> tuple[Any, ...]:
    """Where each card an action names lies, as far as it sets the choice apart: in a hand
    (a zone only its owner sees, not a grid) the hand, the facing and who knows the card,
    and who knows the card as far as the seat choosing can tell (`sight.knowers_seen`), as
    its place there is its holder's order alone; anywhere else the very place. A card of a
    hand that the seat choosing does not know is a choice of its own: two copies there that
    only their holder knows are alike to everyone else, but one choice of the two would
    tell the chooser that they are copies."""
    move = engine.rules.moves.get(str(action[0]))
    if move is None or not move.names_cards:
        return ()
    board = engine.rules.board
    chooser = engine.to_move(state)
    chooser = -1 if chooser is None else chooser
    mine = 0 if chooser < 0 else 1 << chooser
    out: list[Any] = []
    for value, cards in zip(action[1:], move.names_cards):
        if not cards:
            continue
        for c in value if isinstance(value, (list, tuple)) else (value,):
            if not isinstance(c, int) or not 0 <= c < len(state.where):
                out.append(c)
                continue
            z = state.where[c]
            if board.visibility[z] == OWNER and not board.grid[z]:
                out.append((z, state.face_up[c], knowers_seen(board, state, c, chooser))
                           if state.known[c] & mine else (z, c))
            else:
                out.append((z, state.zones[z].index(c)))
    return tuple(out)


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
