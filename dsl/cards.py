"""The card table: what every card id of a deck means (names, ranks, suits, colours)."""

from __future__ import annotations

from typing import Any

STANDARD_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
STANDARD_SUITS = ("clubs", "diamonds", "hearts", "spades")
_RED_SUITS = ("hearts", "diamonds")
_BLACK_SUITS = ("clubs", "spades")
_FACE_NUMBERS = {"A": 1, "J": 11, "Q": 12, "K": 13}
COLOUR_NUMBERS = {"red": 0, "black": 1}  # a card's colour as the tables hold it (2: none)
NO_COLOUR = 2


def card_table(ranks: tuple[str, ...], suits: tuple[str, ...], jokers: int, copies: int,
               per_deck: int, colours: dict[str, int] | None = None,
               joker_names: tuple[str, ...] = ()) -> dict[str, Any]:
    """Every card's name, rank, suit, colour (`colours`: the deck's own for the suits it
    names), number and whether it is a joker. `joker_names`: the names of a copy's jokers
    in order, where the deck gives them (else every joker is JK)."""
    colours = colours or {}
    names, rank, suit, colour, number, joker = [], [], [], [], [], []
    for _ in range(copies):
        for si, s in enumerate(suits):
            for ri, r in enumerate(ranks):
                names.append(r + s[:1].upper())
                rank.append(ri)
                suit.append(si)
                colour.append(suit_colour(s, colours))
                number.append(rank_number(r, ri))
                joker.append(False)
        for j in range(jokers):
            names.append(joker_names[j] if j < len(joker_names) else "JK")
            rank.append(len(ranks))
            suit.append(len(suits))
            colour.append(j % 2)
            number.append(0)
            joker.append(True)
    return {"names": tuple(names), "rank": tuple(rank), "suit": tuple(suit),
            "colour": tuple(colour), "number": tuple(number), "joker": tuple(joker),
            "rank_names": (*ranks, "joker"), "suit_names": (*suits, "joker")}


def suit_colour(suit: str, colours: dict[str, int]) -> int:
    """A suit's colour: as the deck's `colours` names it, else red for hearts and diamonds,
    black for clubs and spades, else none (NO_COLOUR)."""
    return colours.get(suit, 0 if suit in _RED_SUITS else 1 if suit in _BLACK_SUITS
                       else NO_COLOUR)


def rank_number(rank: str, index: int) -> int:
    if rank in _FACE_NUMBERS:
        return _FACE_NUMBERS[rank]
    # (ASCII digits only: '٣' is a name, not a 3; the checker bounds a name's length)
    return int(rank) if rank.isascii() and rank.isdigit() and len(rank) <= 9 else index + 1
