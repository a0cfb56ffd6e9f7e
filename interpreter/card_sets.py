"""What generated code asks of a grid and of a set of cards: a grid's columns and rows, and
whether cards share a rank or a suit or make a run (wild cards standing in where a rule lets
them). Part of the runtime: its EXPORTED names are bound for generated code as runtime.py's
are (dsl/binding.py)."""

from __future__ import annotations

from collections.abc import Sequence

from cardrules.model import Board

from .runtime import EMPTY, present
from .state import GameState


def columns(b: Board, s: GameState, z: int) -> list[list[int]]:
    """A grid's columns, each top to bottom, without empty slots."""
    cards, width = s.zones[z], b.width[z]
    if EMPTY in cards:
        return [present(cards[col::width]) for col in range(width)]
    return [cards[col::width] for col in range(width)]


def rows(b: Board, s: GameState, z: int) -> list[list[int]]:
    """A grid's rows, each left to right, without empty slots."""
    cards, width = s.zones[z], b.width[z]
    return [present(cards[i:i + width]) for i in range(0, len(cards), width)]


def same_key(table: Sequence[int], cards: Sequence[int]) -> bool:
    """Whether every card has the same entry in a card table (rank, suit...). (A loop that
    stops at the first card that differs: for the few cards of a column or a meld, a third
    of the time of making a set.)"""
    if not cards:
        return True
    key = table[cards[0]]
    for c in cards:  # noqa: SIM110 - a generator for all() takes twice as long
        if table[c] != key:
            return False
    return True


def is_set(rank: Sequence[int], wild: Sequence[bool], cards: Sequence[int]) -> bool:
    """All one rank, wild cards standing in for any."""
    return _one_key(rank, wild, cards)


def is_flush(suit: Sequence[int], wild: Sequence[bool], cards: Sequence[int]) -> bool:
    """All one suit, wild cards standing in for any."""
    return _one_key(suit, wild, cards)


def _one_key(table: Sequence[int], wild: Sequence[bool], cards: Sequence[int]) -> bool:
    """Whether the cards that are not wild all have one entry in a card table."""
    first, key = True, 0
    for c in cards:
        if not wild[c]:
            if first:
                first, key = False, table[c]
            elif table[c] != key:
                return False
    return True


def is_run_high(rank: Sequence[int], wild: Sequence[bool], n_ranks: int,
                cards: Sequence[int]) -> bool:
    """Whether the cards fill len(cards) consecutive ranks with the deck's first rank placed
    after its last (an ace above the king), wild cards taking any rank; no wrapping."""
    count = len(cards)
    if count > n_ranks:
        return False
    ranks = sorted(n_ranks if rank[c] == 0 else rank[c] for c in cards if not wild[c])
    if not ranks:
        return True
    if any(rank[c] >= n_ranks for c in cards if not wild[c]) or len(set(ranks)) != len(ranks):
        return False
    return ranks[-1] - ranks[0] + 1 <= count


def is_run(rank: Sequence[int], wild: Sequence[bool], n_ranks: int, cards: Sequence[int],
           wrap: bool) -> bool:
    """Whether the cards fill len(cards) consecutive ranks, wild cards taking any rank.

    Ranks are indices in the deck's rank order (a joker that is not wild has the index
    n_ranks, so it fits no run). With `wrap`, the order is a circle (K-A-2...).
    """
    count = len(cards)
    if count > n_ranks:
        return False
    ranks = sorted(rank[c] for c in cards if not wild[c])
    if not ranks:
        return True
    if ranks[-1] >= n_ranks or len(set(ranks)) != len(ranks):
        return False
    if ranks[-1] - ranks[0] + 1 <= count:
        return True
    if not wrap:
        return False
    # On a circle the smallest arc holding every rank leaves out the largest gap.
    gaps = [b - a for a, b in zip(ranks, ranks[1:])] + [ranks[0] + n_ranks - ranks[-1]]
    return n_ranks - max(gaps) + 1 <= count


# What generated code may call or read of this module (dsl/binding.py binds these names).
EXPORTED = ("columns", "rows", "same_key", "is_set", "is_flush", "is_run_high", "is_run")
