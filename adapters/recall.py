"""A seat's recall of a game: each action as the table saw it, and as one seat reads it.

A Record is made as an action is about to be applied (`record`): who made it, what it was,
and for each card it names, which seats know the card once the move is done and where it
lay before. `told` reads a record as one seat does: a card named only if the seat knows it
once the move is done, by its place before otherwise (a card in another's hand by the hand
alone); a text only by its writer. `as_seen` keeps of a record only what one seat knew: a
sample made for a seat (match.py) holds its records so, and pickling it hands on nothing
more.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardrules.interpreter.runtime import OWNER
from cardrules.interpreter.sight import apart_from
from cardrules.interpreter.state import GameState
from cardrules.interpreter.words import answered, applied, clue_answers

from .table import Table

Action = tuple[Any, ...]


@dataclass(frozen=True)
class Record:
    """One applied action as the table saw it: who, what, and per card it names, which seats
    know the card once the move is done and where it lay before (for the others)."""

    seat: int
    action: Action
    # (card, seats that know it, where it lay); in a sample, a card its seat did not know
    # is a stand-in below 0, known to none (as_seen)
    cards: tuple[tuple[int, int, str], ...]
    # what the clues it gave answered (the event log's `tell` events), heard by every seat
    answers: tuple[dict[str, Any], ...] = ()


def record(table: Table, s: GameState, seat: int, action: Action) -> Record:
    """`seat`'s action, about to be applied to `s`, as the recall will tell it."""
    rules = table.rules
    answers = tuple(clue_answers(rules, s, seat, action)) if rules.tells else ()
    facts = _card_facts(table, s, action)
    if not facts:
        return Record(seat, action, (), answers)
    # who knows each card once the move's own effects are done (words.known_after); a seat
    # that cannot tell which card of another's hand the action looked at, where it still
    # lies, is not said to know it, whatever it knows of it (sight.apart_from, as the
    # action's words say it, words.tell)
    board, done = rules.board, applied(rules, s, seat, action) or s
    return Record(seat, action, tuple((c, done.known[c] & ~apart_from(board, done, c, seat),
                                       place) for c, _, place in facts), answers)


def as_seen(table: Table, record: Record, viewer: int) -> Record:
    """`record` saying no more than `viewer` knew of it (what its recall line tells): a card
    the viewer did not know once the move was done is named by a stand-in, -1 less its index
    among the record's cards, and nobody is said to know it (where it lay is kept); one it
    knew, by its face's number (`Board.face`: the copies of a card are one face); a text
    another seat wrote is left empty. A sample's records are these: they are pickled with
    it, and its recall and moves made are rebuilt from them."""
    record = _seen_first(table, record, viewer)
    hidden = {c: -1 - i for i, (c, known, _) in enumerate(record.cards)
              if not known >> viewer & 1}
    # a card it knew by its face's number: which copy of a card it was (several decks), no
    # seat tells apart
    face = table.rules.board.face
    hidden.update({c: face[c] for c, known, _ in record.cards
                   if known >> viewer & 1 and face[c] != c})
    move = table.engine.moves.get(record.action[0])
    written = record.seat != viewer and move is not None and "words" in move.kinds
    if not hidden and not written:
        return record
    assert move is not None  # (a move that names no card has no facts)
    action: list[Any] = [record.action[0]]
    for kind, cards, value in zip(move.kinds, move.names_cards, record.action[1:]):
        action.append(_stood_in(value, hidden) if cards and hidden else
                      "" if kind == "words" and written else value)
    cards = tuple((hidden[c], known if hidden[c] >= 0 else 0, place) if c in hidden
                  else (c, known, place) for c, known, place in record.cards)
    return Record(record.seat, tuple(action), cards, record.answers)


def told(table: Table, record: Record, viewer: int) -> str:
    """One action of the recall, as `viewer` reads it: `seat 2: swap 5H`."""
    engine = table.engine
    names = table.rules.cards.names
    record = _seen_first(table, record, viewer)
    seen = {c: names[c] if known >> viewer & 1 else place
            for c, known, place in record.cards}
    move = engine.moves.get(record.action[0])
    words = [f"seat {record.seat + 1}:", record.action[0]]
    if move is not None:
        for kind, cards, value in zip(move.kinds, move.names_cards, record.action[1:]):
            if cards:
                words.append(_cards_text(value, seen))
            elif kind == "words":
                words.append(repr(value) if viewer == record.seat else "(written)")
            else:
                words.append(engine.words.value_text(kind, value))
    return " ".join(words) + answered(engine.words, list(record.answers), viewer)


def _seen_first(table: Table, record: Record, viewer: int) -> Record:
    """`record` with each list of cards it names in the order `viewer` can tell: the cards
    it knows first, then those it does not, each part in its order (where an unseen card lay
    among the seen ones would tell which card it is, by the deck's order of a hand's cards:
    words.cards_text says them so too), and its cards in that order."""
    knows = {c for c, known, _ in record.cards if known >> viewer & 1}
    if len(knows) in (0, len(record.cards)):
        return record
    move = table.engine.moves.get(record.action[0])
    if move is None:
        return record
    action = [record.action[0], *(_known_first(value, knows) if cards else value
                                  for cards, value in zip(move.names_cards, record.action[1:]))]
    facts = {fact[0]: fact for fact in record.cards}
    order = [c for cards, value in zip(move.names_cards, action[1:]) if cards
             for c in _flat(value)]
    return Record(record.seat, tuple(action), tuple(facts[c] for c in order), record.answers)


def _known_first(value: Any, knows: set[int]) -> Any:
    """A card parameter's value with each list's items that `knows` holds whole first."""
    if not isinstance(value, (list, tuple)):
        return value
    items = [_known_first(v, knows) for v in value]
    whole = [all(c in knows for c in _flat(v)) for v in items]
    return type(value)([v for v, w in zip(items, whole) if w]
                       + [v for v, w in zip(items, whole) if not w])


def _card_facts(table: Table, s: GameState, action: Action) -> tuple[tuple[int, int, str], ...]:
    move = table.engine.moves.get(action[0])
    if move is None or not any(move.names_cards):
        return ()
    out = []
    held = table.rules.board.visibility
    for cards, value in zip(move.names_cards, action[1:]):
        if cards:
            for c in _flat(value):
                z = s.where[c]
                place = table.places[z]
                # a hand's order is its holder's: the others are told the hand alone
                where = place.label if held[z] == OWNER else \
                    place.slot_label(s.zones[z].index(c))
                out.append((c, s.known[c], where))
    return tuple(out)


def _flat(value: Any) -> list[int]:
    if isinstance(value, (list, tuple)):
        return [c for v in value for c in _flat(v)]
    return [value]


def _stood_in(value: Any, hidden: dict[int, int]) -> Any:
    """A card parameter's value with each card in `hidden` replaced by its stand-in."""
    if isinstance(value, (list, tuple)):
        return type(value)(_stood_in(v, hidden) for v in value)
    return hidden.get(value, value)


def _cards_text(value: Any, seen: dict[int, str]) -> str:
    if isinstance(value, (list, tuple)):
        inner = [_cards_text(v, seen) for v in value]
        nested = any(isinstance(v, (list, tuple)) for v in value)
        return "[" + (" | " if nested else " ").join(inner) + "]"
    return seen.get(value, str(value))
