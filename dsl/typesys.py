"""The types the meaning check knows: what an expression's value is."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Type:
    """A value's type. `item` for lists; `zone` names the zone of a zone reference."""

    name: str
    item: Type | None = None
    zone: str | None = None

    def __str__(self) -> str:
        if self.name == "list":
            return f"list of {_plural(self.item)}"
        if self.name == "zone" and self.zone:
            return f"zone '{self.zone}'"
        return _WORDS.get(self.name, self.name)

    @property
    def is_list(self) -> bool:
        return self.name == "list"


def list_of(item: Type) -> Type:
    return Type("list", item)


def open_list(t: Type) -> bool:
    """Whether a list type leaves its items' type open (`[]`, a list of `[]`)."""
    while t.is_list:
        if t.item is None or t.item.name == "any":
            return True
        t = t.item
    return False


def zone_type(name: str) -> Type:
    return Type("zone", zone=name)


INT = Type("int")
BOOL = Type("bool")
TEXT = Type("text")
CARD = Type("card")
PLAYER = Type("player")
RANK = Type("rank")
SUIT = Type("suit")
COLOUR = Type("colour")
NONE = Type("none")
ANY = Type("any")
# A name whose declaration failed its check (a parameter whose domain, a function whose
# value, did not parse or check): using it is not a second error, the first was reported.
UNCHECKED = Type("unchecked")
ZONE = Type("zone")
WORDS = Type("words")  # an open domain of texts (a move parameter typed by a person)
CARDS = list_of(CARD)
PLAYERS = list_of(PLAYER)

_WORDS = {"int": "a number", "bool": "true or false", "text": "a text", "card": "a card",
          "player": "a player", "rank": "a rank", "suit": "a suit", "colour": "a colour",
          "none": "none", "any": "any value", "zone": "a zone",
          "words": "a domain of texts"}


def _plural(t: Type | None) -> str:
    if t is None:
        return "values"
    if t.name == "list":
        return f"lists of {_plural(t.item)}"
    return {"int": "numbers", "bool": "truth values", "card": "cards", "player": "players",
            "text": "texts", "words": "domains of texts",
            "any": "values"}.get(t.name, t.name + "s")


def as_collection(t: Type) -> Type | None:
    """The list type a value can be iterated as (a zone iterates as its cards)."""
    if t.name == "zone":
        return CARDS
    if t.is_list:
        return t
    if t == ANY:
        return list_of(ANY)
    return None


def accepts(expected: Type, actual: Type) -> bool:
    """Whether a value of type `actual` may stand where `expected` is wanted."""
    if expected == ANY or actual == ANY:
        return True
    if expected.name == "zone" and actual.name == "zone":
        return expected.zone is None or expected.zone == actual.zone
    if actual == NONE:
        return expected.name in ("card", "player", "none")
    if expected.is_list:
        coll = as_collection(actual)
        if coll is None:
            return False
        assert expected.item is not None and coll.item is not None
        return accepts(expected.item, coll.item)
    return expected.name == actual.name


def comparable(a: Type, b: Type) -> bool:
    """Whether `a == b` can ever be true."""
    return accepts(a, b) or accepts(b, a)


def type_of_value(value: Any) -> Type:
    """The type of a value known at load time (an option's, a literal's)."""
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    if isinstance(value, str):
        return TEXT
    return ANY


def item_type(t: Type) -> Type:
    """The type of a list's (or a zone's) items."""
    coll = as_collection(t)
    return coll.item if coll is not None and coll.item is not None else ANY


def orderable(t: Type) -> bool:
    """Whether values of this type can be put in order: numbers, ranks, suits (as the deck
    lists them) and lists of numbers (item by item)."""
    return t in (INT, RANK, SUIT) or (t.is_list and t.item == INT)
