"""What one seat knows of a game, and samples of the rest that agree with it.

A seat knows a card's identity exactly when the card's bit for that seat is set in
`state.known`. Everything else about the layout (how many cards lie in each zone and
slot, which are face up) is public. A *determinization* for a seat re-deals the cards it
does not know among the places that hold cards it does not know, so that everything it
has seen stays put and the hidden cards are consistent with what it saw.

Nothing here reads a card's identity except through `known`: the positions of unknown
cards are used only as "a place holding an unknown card", never for which card it is.
"""

from __future__ import annotations

import random
from typing import Any

from .runtime import EMPTY
from .state import GameState


def unknown_positions(state: GameState, seat: int) -> list[tuple[int, int]]:
    """(zone, index) of every place holding a card `seat` does not know, in board order."""
    known = state.known
    out = []
    for z, cards in enumerate(state.zones):
        for i, c in enumerate(cards):
            if c != EMPTY and not known[c] >> seat & 1:
                out.append((z, i))
    return out


def possible_locations(state: GameState, seat: int) -> dict[int, set[int]]:
    """For each card: the zones it may be in, as far as `seat` can tell.

    A card the seat knows is where it is; a card it does not know may be in any zone
    that holds a card unknown to the seat.
    """
    known = state.known
    hidden_zones = {z for z, _ in unknown_positions(state, seat)}
    out: dict[int, set[int]] = {}
    for c in range(state.n_cards):
        out[c] = {state.where[c]} if known[c] >> seat & 1 else set(hidden_zones)
    return out


def determinize_with_map(engine: Any, state: GameState, seat: int,
                         rng: random.Random) -> tuple[GameState, dict[int, int]]:
    """A determinization for `seat` and the relabelling it made: `mapping[c]` is the card
    now lying where card c lay (identity for every card the seat knows).

    Per place, what is public or belongs to the place (face up or not, which seats know the
    card there) stays with the place; only the card identities move. The copy's random
    generator is reseeded from `rng`, so future shuffles and draws are not foreseen either.
    Player variables declared secret (`visibility: owner`) of the other seats are replaced
    by the seat's own value, which it knows, so their true values are not read.
    """
    det = state.copy()
    positions = unknown_positions(state, seat)
    cards = [state.zones[z][i] for z, i in positions]
    # Shuffle the unknown cards from a fixed order (sorted), so the sample depends only on
    # which cards are unknown, never on where they truly are.
    drawn = sorted(cards)
    rng.shuffle(drawn)
    mapping = {c: c for c in range(state.n_cards)}
    old_known = state.known
    old_up = state.face_up
    for (z, i), old, new in zip(positions, cards, drawn):
        det.zones[z][i] = new
        det.where[new] = z
        det.known[new] = old_known[old]
        det.face_up[new] = old_up[old]
        mapping[old] = new
    det.reseed(rng.getrandbits(64))
    det.version += 1
    det.legal_cache = None
    rules = getattr(engine, "rules", None)
    if rules is not None and not state.over:
        for var in rules.variables:
            if getattr(var, "visibility", None) == "owner" and var.name in det.pvars:
                values = det.pvars[var.name]
                det.pvars[var.name] = [values[seat] for _ in values]
    return det, mapping


def determinize(engine: Any, state: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy of `state` in which the cards `seat` does not know are re-dealt at random among
    the places holding cards it does not know (see determinize_with_map)."""
    return determinize_with_map(engine, state, seat, rng)[0]
