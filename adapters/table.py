"""The fixed tables of action ids of one ruleset at one table size.

Frameworks for game research want every decision to be a choice among a fixed set of ids.
A cardrules action is a tuple (move name, *parameters). Where every move's parameters can
take few enough values, each whole action has an id of its own (`WholeActions`: the move,
then its parameters' values in order, at most WHOLE_LIMIT ids unless asked for). Some
parameters are lists of cards or lists of groups of cards, or texts a player writes: far too
many to number. Then an action is chosen in parts, each part an id of one table built from
the move declarations and their parameters' kinds alone, nothing per game:

    the move            one id per move (and `pass` in a ruleset with reactions)
    a card              its place: one id per (zone, slot) that can hold a card
    a player            one id per seat
    a rank, suit, colour, truth value, number
                        one id per value (numbers 0 to the number of cards)
    a list              its elements one by one (a group inside it the same way),
                        then `end`
    a text (open)       its letters one by one (printable ASCII), then `end`

A card is named by its place, never by its identity: a seat that does not know a card
learns nothing from the ids offered, and one that does finds it in its view at that place
(two copies of a card, in a game of two decks, are told apart only by where they lie, as
a player would). The same ruleset at the same table size always has the same table
(`labels` names every id).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import Any

from cardrules.dsl.loader import load_ruleset
from cardrules.errors import GameError
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.kernel import Kernel
from cardrules.interpreter.runtime import OWNER
from cardrules.interpreter.state import GameState
from cardrules.interpreter.view import player_view
from cardrules.model import Action, MoveDef, Ruleset, ZoneDef

# The letters a text may be written in, one id each: printable ASCII.
LETTERS = "".join(chr(code) for code in range(32, 127))
# A text is written in at most this many letters (a longer one is not offered).
TEXT_LIMIT = 64
# A match that has not ended after this many actions per round to be played ends with no
# winner (a bound the frameworks ask for; the shipped games need a few hundred at most).
ACTIONS_PER_ROUND = 10_000
# The parameter kinds the table encodes; any other is refused when the ruleset is loaded.
KINDS = ("card", "player", "rank", "suit", "colour", "int", "bool", "list", "words")
COLOURS = ("red", "black", "none")
# A ruleset whose table of whole actions has at most this many ids gets one id per whole
# action; a larger one is chosen in parts, unless whole actions are asked for (`actions`),
# which is refused past WHOLE_ASKED_LIMIT.
WHOLE_LIMIT = 4096
WHOLE_ASKED_LIMIT = 65_536
# How actions are chosen: `auto` (whole where the table is small enough), `whole`, `parts`.
CHOOSING = ("auto", "whole", "parts")
# What a match is worth to each seat (`returns`): the ruleset's `scoring.stakes` (auto), or
# one of them asked for (docs/adapters.md, section 4).
RETURNS = ("auto", "win", "points", "chips")


class AdapterError(GameError):
    """A ruleset, or a value met in play, that the adapters cannot encode."""


@dataclass(frozen=True)
class Place:
    """One zone of the board as the adapters name it: 'grid 2', 'meld 1.3', 'stock'."""

    zone: ZoneDef | None
    label: str
    capacity: int  # how many slots the zone can have: a grid's size, else every card

    def slot_label(self, slot: int) -> str:
        """'grid 2 row 1 column 3', 'hand 1 card 4' (counted from the bottom of a stack)."""
        if self.zone is not None and self.zone.layout == "grid":
            columns = max(self.zone.columns, 1)
            return f"{self.label} row {slot // columns + 1} column {slot % columns + 1}"
        return f"{self.label} card {slot + 1}"


class ActionTable:
    """Every id of one ruleset at one table size, with its label, in sections."""

    def __init__(self, rules: Ruleset, players: int, n_cards: int, places: list[Place]):
        self.labels: list[str] = []
        self.moves: dict[str, int] = {}
        kinds = {kind for move in rules.moves.values() for kind in move.kinds}
        names_cards = any(any(move.names_cards) for move in rules.moves.values())
        # A list of something other than cards holds numbers or truth values.
        plain_lists = any(kind == "list" and not cards for move in rules.moves.values()
                          for kind, cards in zip(move.kinds, move.names_cards))
        for name in rules.moves:
            self.moves[name] = self._add(name)
        if rules.reactions is not None and "pass" not in self.moves:
            self.moves["pass"] = self._add("pass")
        self.end = self._add("end")
        cards = rules.cards
        self.place_base = self.player_base = self.rank_base = -1
        self.suit_base = self.colour_base = self.number_base = self.truth_base = -1
        self.letter_base = -1
        self.place_start: list[int] = []
        # numbers from the least a choice writes (0, or below where a rule writes a negative
        # one: ninety-nine's ten played for -10) up to the number of cards
        self.least_number = min([0, *(move.least_number for move in rules.moves.values())])
        self.n_numbers = n_cards + 1 - self.least_number
        if "card" in kinds or names_cards:
            self.place_base = len(self.labels)
            for place in places:
                self.place_start.append(len(self.labels))
                self.labels.extend(place.slot_label(slot) for slot in range(place.capacity))
        if "player" in kinds:
            self.player_base = self._section([f"seat {p + 1}" for p in range(players)])
        if "rank" in kinds:
            self.rank_base = self._section([f"rank {r}" for r in cards.rank_names])
        if "suit" in kinds:
            self.suit_base = self._section([f"suit {s}" for s in cards.suit_names])
        if "colour" in kinds:
            self.colour_base = self._section([f"colour {c}" for c in COLOURS])
        if "int" in kinds or plain_lists:
            self.number_base = self._section([f"number {v}" for v in
                                              range(self.least_number, n_cards + 1)])
        if "bool" in kinds or plain_lists:
            self.truth_base = self._section(["false", "true"])
        if "words" in kinds:
            self.letter_base = self._section([f"letter {ch!r}" for ch in LETTERS])
        self.places = places
        self.place_count = sum(place.capacity for place in places)  # card places in all
        self.n_cards = n_cards
        self.players = players
        self.rules = rules

    def __len__(self) -> int:
        return len(self.labels)

    def _add(self, label: str) -> int:
        self.labels.append(label)
        return len(self.labels) - 1

    def _section(self, labels: list[str]) -> int:
        start = len(self.labels)
        self.labels.extend(labels)
        return start

    # ------------------------------------------------------------ value -> id
    def place(self, zone: int, slot: int) -> int:
        place = self.places[zone]
        if slot >= place.capacity:
            raise AdapterError(f"{place.label} holds more than {place.capacity} cards")
        return self.place_start[zone] + slot

    def number(self, value: int) -> int:
        index = value - self.least_number
        if not 0 <= index < self.n_numbers:
            raise AdapterError(f"the number {value} is outside the numbers this adapter "
                               f"encodes ({self.least_number} to {self.n_cards})")
        return self.number_base + index

    def letter(self, ch: str) -> int:
        index = LETTERS.find(ch)
        if len(ch) != 1 or index < 0:
            raise AdapterError(f"the letter {ch!r} is not printable ASCII, which is all this "
                               "adapter encodes in a text")
        return self.letter_base + index

    def letter_of(self, token: int) -> str | None:
        index = token - self.letter_base
        return LETTERS[index] if self.letter_base >= 0 and 0 <= index < len(LETTERS) else None

    def tokens(self, move: MoveDef, action: tuple[Any, ...],
               card: Callable[[int], int]) -> list[int]:
        """The ids of a whole action with no open parameter; `card` gives a card's id (the
        id of its place)."""
        out = [self.moves[action[0]]]
        kinds = move.kinds
        if len(kinds) == 1 and kinds[0] == "card":  # the common case, without a call
            out.append(card(action[1]))
            return out
        for kind, cards, value in zip(kinds, move.names_cards, action[1:]):
            self.value_tokens(kind, cards, value, card, out)
        return out

    def value_tokens(self, kind: str, cards: bool, value: Any, card: Callable[[int], int],
                     out: list[int]) -> None:
        if kind == "card":
            out.append(card(value))
        elif kind == "player":
            out.append(self.player_base + value)
        elif kind == "rank":
            out.append(self.rank_base + value)
        elif kind == "suit":
            out.append(self.suit_base + value)
        elif kind == "colour":
            out.append(self.colour_base + value)
        elif kind == "bool":
            out.append(self.truth_base + int(bool(value)))
        elif kind == "int":
            out.append(self.number(value))
        elif kind == "list":
            self._list_tokens(value, cards, card, out)
        else:  # refused when the table was made; a value of another kind is a rule's bug
            raise AdapterError(f"a parameter of kind '{kind}' cannot be encoded")

    def _list_tokens(self, value: Any, cards: bool, card: Callable[[int], int],
                     out: list[int]) -> None:
        for item in value:
            if isinstance(item, (list, tuple)):
                self._list_tokens(item, cards, card, out)
            elif isinstance(item, bool) and self.truth_base >= 0:
                out.append(self.truth_base + int(item))
            elif isinstance(item, int) and not isinstance(item, bool):
                out.append(card(item) if cards else self.number(item))
            else:
                raise AdapterError(f"a list holding {item!r} cannot be encoded")
        out.append(self.end)

    def section_of(self, kind: str) -> tuple[int, int] | None:
        """(first id, count) of the section a parameter of `kind` takes one id of; None for
        a list or a text, which take any number of parts."""
        rules = self.rules
        found = {"card": (self.place_base, self.place_count),
                 "player": (self.player_base, self.players),
                 "rank": (self.rank_base, len(rules.cards.rank_names)),
                 "suit": (self.suit_base, len(rules.cards.suit_names)),
                 "colour": (self.colour_base, len(COLOURS)),
                 "int": (self.number_base, self.n_numbers),
                 "bool": (self.truth_base, 2)}.get(kind)
        return found if found is not None and found[0] >= 0 else None

    def whole_count(self) -> int | None:
        """How many whole actions the moves can spell: the ids of a WholeActions, or None if
        some move chooses a list or a text."""
        total = 0
        for name in self.moves:
            move = self.rules.moves.get(name)
            count = 1
            for kind in move.kinds if move is not None else ():
                section = self.section_of(kind)
                if section is None:
                    return None
                count *= section[1]
            total += count
        return total

    def seen_id(self, token: int, viewer: int) -> int:
        """A part id as `viewer` can tell it: the place of a card in a hand another party
        holds is that hand's first place (the holder's order is theirs: the viewer's view
        lists the cards it knows there in the deck's order, the others as a count), and any
        other id is itself."""
        if self.place_base < 0 or \
                not self.place_base <= token < self.place_base + self.place_count:
            return token
        z = bisect_right(self.place_start, token) - 1
        zone, board = self.places[z].zone, self.rules.board
        if zone is None or zone.layout == "grid" or board.visibility[z] != OWNER \
                or board.owner[z] == viewer:
            return token
        return self.place_start[z]

    # ---------------------------------------------------------------- id -> ?
    def sections(self) -> Iterator[tuple[str, int, int]]:
        """(name, first id, count) of each section of the table, in order."""
        starts = [("moves", 0), ("end", self.end), ("places", self.place_base),
                  ("players", self.player_base), ("ranks", self.rank_base),
                  ("suits", self.suit_base), ("colours", self.colour_base),
                  ("numbers", self.number_base), ("truth values", self.truth_base),
                  ("letters", self.letter_base)]
        present = [(name, start) for name, start in starts if start >= 0]
        for (name, start), (_, after) in zip(present, [*present[1:], ("", len(self))]):
            yield name, start, after - start


class WholeActions:
    """One id per whole action: each move (in the parts table's order) takes as many ids as
    its parameters have values together, the first parameter varying slowest. An action's
    id is worked out from the ids of its parts (a card by its place, as in the parts table),
    so the same action at the same place always has the same id."""

    def __init__(self, parts: ActionTable):
        self.parts = parts
        self.labels: list[str] = []
        # move -> (its first id, per parameter: its section's first part id and its stride)
        self.moves: dict[str, tuple[int, tuple[tuple[int, int], ...]]] = {}
        # The common cases, worked out without a call: a move -> its first id, and whether
        # it chooses one card (its id then past the first by the card's place id, less the
        # places' first) or nothing (its one id).
        self._fast: dict[str, tuple[int, bool]] = {}
        self._firsts: list[tuple[int, str]] | None = None  # (first id, move), made when asked
        for name in parts.moves:
            move = parts.rules.moves.get(name)
            kinds = move.kinds if move is not None else ()
            sections = [parts.section_of(kind) for kind in kinds]
            if any(section is None for section in sections):
                raise AdapterError(f"move '{name}' chooses a list or a text: its actions "
                                   "cannot be numbered whole (choose them in parts)")
            counts = [section[1] for section in sections if section is not None]
            strides, stride = [], 1
            for count in reversed(counts):
                strides.append(stride)
                stride *= count
            strides.reverse()
            bases = [section[0] for section in sections if section is not None]
            self.moves[name] = (len(self.labels), tuple(zip(bases, strides)))
            if not kinds:
                self._fast[name] = (len(self.labels), False)
            elif kinds == ("card",):
                self._fast[name] = (len(self.labels) - parts.place_base, True)
            for values in product(*[range(base, base + count)
                                    for base, count in zip(bases, counts)]):
                self.labels.append(" ".join([name, *(parts.labels[v] for v in values)]))

    def __len__(self) -> int:
        return len(self.labels)

    def seen_id(self, action_id: int, viewer: int) -> int:
        """A whole action's id as `viewer` can tell it: each card it names as
        ActionTable.seen_id tells that card's place."""
        if self._firsts is None:
            self._firsts = sorted((first, name) for name, (first, _) in self.moves.items())
        name = self._firsts[bisect_right(self._firsts, (action_id, "\uffff")) - 1][1]
        first, params = self.moves[name]
        move = self.parts.rules.moves.get(name)
        if move is None or "card" not in move.kinds:
            return action_id
        offset, out, wider = action_id - first, first, 0
        for (base, stride), kind in zip(params, move.kinds):
            index = offset // stride % (wider // stride) if wider else offset // stride
            wider = stride
            token = base + index
            if kind == "card":
                token = self.parts.seen_id(token, viewer)
            out += stride * (token - base)
        return out

    def ids_of(self, legal: list[tuple[Any, ...]], where: list[int],
               zones: list[list[int]]) -> list[int]:
        """The id of each action of `legal`, in its order, its cards where `where` and `zones`
        have them (a game's). It runs at every decision: the common moves (no parameter, one
        card) are worked out here."""
        out: list[int] = []
        add, fast, start = out.append, self._fast, self.parts.place_start
        for action in legal:
            found = fast.get(action[0])
            if found is None:
                add(self.id_of(action, self._card(where, zones)))
            elif found[1]:
                c = action[1]
                z = where[c]
                add(found[0] + start[z] + zones[z].index(c))
            else:
                add(found[0])
        return out

    def _card(self, where: list[int], zones: list[list[int]]) -> Callable[[int], int]:
        place = self.parts.place
        return lambda c: place(where[c], zones[where[c]].index(c))

    def id_of(self, action: tuple[Any, ...], card: Callable[[int], int]) -> int:
        """The id of a whole action (`pass` too); `card` gives a card's place id."""
        first, params = self.moves[action[0]]
        if not params:
            return first
        move = self.parts.rules.moves[action[0]]
        found, value_tokens = first, self.parts.value_tokens
        for (base, stride), kind, value in zip(params, move.kinds, action[1:]):
            if kind == "card":
                token = card(value)
            else:
                out: list[int] = []
                value_tokens(kind, False, value, card, out)
                token = out[0]
            found += stride * (token - base)
        return found


class Table:
    """One ruleset at one table size, as the adapters play it: the engine and its kernel,
    the action tables and the bounds the frameworks ask for. Shared by every game at that
    table.

    `actions` is how actions are chosen: `whole` (one id each), `parts`, or `auto`, whole
    where the table of whole actions has at most WHOLE_LIMIT ids. `parts` is always the
    table of parts (places are numbered there); `actions` the ids the frameworks offer,
    `whole` the WholeActions if they are whole (else None)."""

    def __init__(self, ruleset: str, options: tuple[tuple[str, str], ...] = (),
                 players: int | None = None, actions: str = "auto", returns: str = "auto"):
        if not isinstance(actions, str) or actions not in CHOOSING:
            raise AdapterError(f"actions: expected one of {', '.join(CHOOSING)}, "
                               f"not {actions!r}"[:200])
        if not isinstance(returns, str) or returns not in RETURNS:
            raise AdapterError(f"returns: expected one of {', '.join(RETURNS)}, "
                               f"not {returns!r}"[:200])
        if not isinstance(ruleset, str):
            raise AdapterError(f"ruleset: expected a built-in ruleset's name or a rule file's "
                               f"path, not {type(ruleset).__name__}")
        if players is not None and (type(players) is not int):
            raise AdapterError(f"players: expected a whole number, not {players!r}"[:200])
        self.ruleset, self.options, self.choosing, self.returns = \
            ruleset, options, actions, returns
        self.rules = rules = load_ruleset(ruleset, dict(options) or None)
        refuse_unencodable(rules)
        self.stakes = rules.stakes if returns == "auto" else returns
        if self.stakes == "chips" and (rules.score_by == "table" or rules.house is not None):
            raise AdapterError(f"returns=chips: {rules.name}'s seats pass no chips between them "
                               "(one score for the table, or a house that is no seat); "
                               "its returns are points or a win")
        if self.stakes == "chips" and rules.stakes != "chips":
            # (chips only change hands: a ruleset that does not say it plays for them has
            # totals that need not add up to 0, which its first match's end would find)
            raise AdapterError(f"returns=chips: {rules.name} plays for {rules.stakes}, not "
                               "chips (its scoring says `stakes: chips` where totals are chips "
                               "that change hands); its returns are points or a win")
        # (it tells `recording` of each action applied to the game being recorded, the
        # ones it plays alone included: an automatic step's only card)
        self.engine = Engine(rules, watch=self._watched)
        # (by the game's id: several games may be caught up at once, in threads)
        self._recording: dict[int, tuple[GameState, Callable[[int, Action, GameState],
                                                              None]]] = {}
        # What the games step on: the same game, without the engine's knowledge and log
        # (the observations replay the actions on the engine when asked: match.py).
        self.kernel = Kernel(rules)
        probe = self.engine.new_game(players, 0)
        self.players = probe.n
        self.n_cards = probe.n_cards
        self.zone_count = len(probe.zones)
        self.rounds = int(player_view(rules, probe, 0)["rounds"])
        self.places = places(rules, self.players, self.zone_count, self.n_cards)
        self.parts = ActionTable(rules, self.players, self.n_cards, self.places)
        self.whole_count = self.parts.whole_count()
        self.whole: WholeActions | None = None
        if actions == "whole":
            if self.whole_count is None or self.whole_count > WHOLE_ASKED_LIMIT:
                size = "unbounded (a move chooses a list or a text)" \
                    if self.whole_count is None else f"{self.whole_count:,} ids"
                raise AdapterError(f"actions=whole: {rules.name}'s table of whole actions is "
                                   f"{size}, more than the {WHOLE_ASKED_LIMIT:,} this adapter "
                                   "numbers; choose them in parts (actions=parts)")
            self.whole = WholeActions(self.parts)
        elif actions == "auto" and self.whole_count is not None \
                and self.whole_count <= WHOLE_LIMIT:
            self.whole = WholeActions(self.parts)
        self.actions: WholeActions | ActionTable = self.whole or self.parts
        self.max_actions = ACTIONS_PER_ROUND * max(self.rounds, 1)
        self.max_parts = 1 if self.whole is not None else \
            max((self.parts_bound(move) for move in rules.moves.values()), default=1)

    @contextmanager
    def recording(self, state: GameState,
                  note: Callable[[int, Action, GameState], None]) -> Iterator[None]:
        """While the block runs, `note(seat, action, state)` is told of each action about to
        be applied to `state` by this table's engine: those handed to it and those it plays
        alone after them (a seat's only card of an automatic step), which a recall must tell
        as it tells a choice (a seat's only card, played alone, is news of its hand)."""
        key = id(state)
        before = self._recording.get(key)
        self._recording[key] = (state, note)
        try:
            yield
        finally:
            if before is None:
                del self._recording[key]
            else:
                self._recording[key] = before

    def _watched(self, state: GameState, seat: int, action: Action) -> None:
        found = self._recording.get(id(state))
        if found is not None and found[0] is state:
            found[1](seat, action, state)

    def seen_id(self, action_id: int, viewer: int) -> int:
        """An id of `actions` as `viewer` can tell it (where another's hand is named, its
        first place: ActionTable.seen_id)."""
        return self.actions.seen_id(action_id, viewer)

    @property
    def key(self) -> tuple[str, tuple[tuple[str, str], ...], int, str, str]:
        """What makes the table again (`table(*key)`): a pickled game carries it."""
        return self.ruleset, self.options, self.players, self.choosing, self.returns

    def parts_bound(self, move: MoveDef) -> int:
        """The most parts an action of `move` can take."""
        parts = 1
        for kind in move.kinds:
            if kind == "list":  # every card once, an `end` per group and one for the list
                parts += 2 * self.n_cards + 1
            elif kind == "words":
                parts += TEXT_LIMIT + 1
            else:
                parts += 1
        return parts


def refuse_unencodable(rules: Ruleset) -> None:
    """Raise AdapterError, naming the move and parameter, for a kind the table cannot hold."""
    for move in rules.moves.values():
        for param, kind in zip(move.params, move.kinds):
            if kind not in KINDS:
                raise AdapterError(
                    f"{rules.name}: move '{move.name}' chooses '{param}', a {kind} value, "
                    "which is not supported by this adapter (it encodes parameters of kinds "
                    + ", ".join(KINDS) + ")")


def places(rules: Ruleset, players: int, zone_count: int, n_cards: int) -> list[Place]:
    """Every zone of the board at this table, named as a person would."""
    out: list[Place | None] = [None] * zone_count
    for zone in rules.zones:
        capacity = zone.rows * zone.columns if zone.layout == "grid" else n_cards
        if not zone.owned:
            for g, z in enumerate(zone.instances(0)):
                out[z] = Place(zone, zone.name + (f" {g + 1}" if zone.groups else ""), capacity)
            continue
        for p in range(players):
            for g, z in enumerate(zone.instances(p)):
                label = f"{zone.name} {p + 1}" + (f".{g + 1}" if zone.groups else "")
                out[z] = Place(zone, label, capacity)
    # Zones kept for seats beyond this table's size hold nothing, and have no slots.
    return [place or Place(None, f"zone {z} (unused)", 0) for z, place in enumerate(out)]


@lru_cache(maxsize=32)
def table(ruleset: str, options: tuple[tuple[str, str], ...] = (),
          players: int | None = None, actions: str = "auto", returns: str = "auto") -> Table:
    """The shared Table of a ruleset (a built-in name or a file), its options and size, how
    its actions are chosen and what a match is worth to a seat."""
    return Table(ruleset, options, players, actions, returns)


def option_pairs(options: dict[str, Any] | str | None) -> tuple[tuple[str, str], ...]:
    """Ruleset options as sorted (name, text) pairs, from a dict or from text: 'a=1;b=x', or
    'a:1;b:x' (OpenSpiel's game strings allow no '=' inside a value)."""
    if options is None or options == "":
        return ()
    if isinstance(options, str):
        pairs = {}
        for item in options.split(";"):
            if not item.strip():
                continue
            name, sep, value = item.partition("=")
            if not sep:
                name, sep, value = item.partition(":")
            if not sep or not name.strip():
                raise AdapterError(f"options: expected NAME=VALUE or NAME:VALUE, separated by "
                                   f"';', got '{item.strip()[:80]}'")
            if name.strip() in pairs:
                raise AdapterError(f"options: '{name.strip()[:80]}' is given twice")
            pairs[name.strip()] = value.strip()
        options = pairs
    if not isinstance(options, dict):
        raise AdapterError("options: expected a dict of names and values, or text "
                           f"'NAME=VALUE;...', not {type(options).__name__}")
    if not all(isinstance(k, str) and isinstance(v, str | int | bool)
               for k, v in options.items()):
        raise AdapterError("options: each is a name (text) with a value (text, a whole "
                           "number or true/false)")
    return tuple(sorted((k, _text(v)) for k, v in options.items()))


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
