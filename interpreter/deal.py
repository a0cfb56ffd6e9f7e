"""A given deal: a game started from stated cards instead of the seed's shuffles.

A deal is a stacked deck: the order each shuffle of the game yields, in turn (the first
listed card on top). Shuffles past the last order given are the seed's, as without a deal.
The convenience form names the cards of zones when the game starts (after the first
round's setup); it is turned into a stacked deck by playing the setup once with shuffles
that keep their order (a probe), which tells where each place of each shuffle's order ends
up, so the same rules play from it with nothing special about the deal.

    deal = read_deal(Path("hand.yaml"), rules, players=2)   # cardrules.dsl.deal_file
    state = engine.new_game(2, seed=1, deal=deal)

A deal file is YAML (or JSON) written by a person, so everything in it is checked (here, by
DealReader) and every problem is reported where it was written (dsl/deal_file.py reads the
file); a stated order that does not hold the cards the zone holds when it is shuffled is a
GameError naming the order's place in the file.

Cards are named as the deck names them (AS, 10H, JK); in a game of several decks each name
stands for any of its copies, which are interchangeable.
"""

from __future__ import annotations

import difflib
import random
import re
from collections import Counter
from collections.abc import Callable
from typing import Any

from cardrules.errors import Diagnostic, GameError
from cardrules.model import Ruleset

from .state import EMPTY, Deal, GameState

__all__ = ["MAX_SHUFFLES", "Deal", "DealReader", "Probe", "check_zones", "deal_from_data",
           "parse_deal_data", "stack", "stacked_deck"]

MAX_SHUFFLES = 10_000  # far beyond any match: a nine-round golf match has nine
_ZONE_NAME = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(?:\[(\w+)\])?$")
_KEYS = ("shuffles", "zones")


class DealRefused(GameError):
    """A deal the game cannot take where it comes to it (an order that does not hold the
    cards its shuffle shuffles, cards named for a setup that deals otherwise): the deal's
    fault, not the rules'."""


class Probe:
    """A deal that shuffles nothing and notes each shuffle's zone and order (card ids as
    the zone holds them), to learn where the places of each order end up; `turned`, one
    that turns each shuffled zone over instead (another deal, to learn whether the setup
    puts as many cards in each zone whatever it deals)."""

    def __init__(self, turned: bool = False) -> None:
        self.seen: list[tuple[int, list[int]]] = []
        self.turned = turned


# ------------------------------------------------------------------ reading
Locate = Callable[[tuple[str | int, ...], str, bool], Diagnostic]


def parse_deal_data(data: Any, rules: Ruleset, players: int, what: str = "the deal") -> Deal:
    """A deal given as data (a program's, or a save's), checked as a file's would be;
    GameError with the first problem."""
    def locate(path: tuple[str | int, ...], message: str, key: bool) -> Diagnostic:
        return Diagnostic(None, message)

    reader = DealReader(data, rules, players, locate, what)
    deal = reader.read()
    if reader.errors:
        raise GameError(f"{what}: {reader.errors[0].message}")
    return deal


def deal_from_data(data: Any, rules: Ruleset, players: int, what: str) -> Deal:
    """A stacked deck kept as JSON data (a save's `deal`), checked as a file's would be."""
    return parse_deal_data({"shuffles": data}, rules, players, what)


class DealReader:
    """Checks a deal's data, gathering every problem, each located by `locate(path,
    message, key)` (a deal file's reader points into the file: dsl/deal_file.py)."""

    def __init__(self, data: Any, rules: Ruleset, players: int, locate: Locate,
                 what: str = "the deal") -> None:
        self.data, self.rules, self.players, self.locate = data, rules, players, locate
        self.what = what
        self.errors: list[Diagnostic] = []
        per_deck = rules.cards.per_deck
        self.copies = Counter(rules.cards.names[:per_deck * rules.copies[players]])
        self.upper = {n.upper(): n for n in self.copies}

    def problem(self, path: tuple[str | int, ...], message: str, key: bool = False) -> None:
        self.errors.append(self.locate(path, message, key))

    def read(self) -> Deal:
        data = self.data
        if not isinstance(data, dict):
            self.problem((), "a deal file holds a mapping: 'shuffles:' (the order of each "
                             "shuffle, top card first) or 'zones:' (the cards of each zone)")
            return Deal()
        for key in data:
            if key not in _KEYS:
                self.problem((key,), f"unknown entry '{key}': a deal has 'shuffles' or "
                                     "'zones'", key=True)
        if "shuffles" in data and "zones" in data:
            self.problem(("zones",), "give either 'shuffles' or 'zones', not both", key=True)
            return Deal()
        if "zones" in data:
            return self.zones(data["zones"])
        if "shuffles" in data:
            return self.shuffles(data["shuffles"])
        if not self.errors:
            self.problem((), "an empty deal: give 'shuffles' or 'zones'")
        return Deal()

    def shuffles(self, value: Any) -> Deal:
        if not isinstance(value, list) or not value:
            self.problem(("shuffles",), "'shuffles' is a list of orders, each a list of "
                                        "cards from the top")
            return Deal()
        if len(value) > MAX_SHUFFLES:
            self.problem(("shuffles",), f"{len(value)} shuffles: a deal gives at most "
                                        f"{MAX_SHUFFLES}")
            return Deal()
        orders, where = [], []
        for i, order in enumerate(value):
            orders.append(tuple(self.cards(("shuffles", i), order, f"shuffle {i + 1}")))
            where.append(self.place(("shuffles", i), f"shuffle {i + 1}"))
        return Deal(shuffles=tuple(orders), where=tuple(where))

    def zones(self, value: Any) -> Deal:
        if not isinstance(value, dict) or not value:
            self.problem(("zones",), "'zones' maps zone names (hand[1], stock) to their cards")
            return Deal()
        named: dict[int, tuple[tuple[str, ...], bool]] = {}
        used: Counter[str] = Counter()
        where = []
        for key, cards in value.items():
            found = self.zone(("zones", key), str(key))
            names = self.cards(("zones", key), cards, str(key), used)
            if found is None:
                continue
            z, stack = found
            if z in named:
                self.problem(("zones", key), f"'{key}' is named twice", key=True)
                continue
            named[z] = (tuple(reversed(names)) if stack else tuple(names)), stack
            where.append((z, self.place(("zones", key), str(key))))
        where.sort()
        return Deal(zones=tuple((z, *named[z]) for z in sorted(named)),
                    where=tuple(w for _, w in where))

    def zone(self, path: tuple[str | int, ...], text: str) -> tuple[int, bool] | None:
        """The zone index a deal file's zone name stands for (`stock`, or `hand[2]` for
        seat 2's, `hand[house]` for the house's), and whether it is a stack (listed from
        the top)."""
        match = _ZONE_NAME.match(text)
        names = [z.name for z in self.rules.zones]
        if match is None or match.group(1) not in names:
            base = match.group(1) if match is not None else text
            close = difflib.get_close_matches(base, names, n=1)
            hint = f": did you mean '{close[0]}'?" if close else \
                f"; the zones are {', '.join(names)}" if len(names) <= 12 else ""
            self.problem(path, f"no zone '{base}'{hint}", key=True)
            return None
        zone = self.rules.zone(match.group(1))
        owner, stack = match.group(2), zone.layout == "stack"
        if zone.groups:
            self.problem(path, f"'{zone.name}' is a zone of groups, which a deal does not "
                               "fill", key=True)
            return None
        if not zone.owned:
            if owner is not None:
                self.problem(path, f"'{zone.name}' is one zone for the table: name it "
                                   "without a seat", key=True)
                return None
            return zone.index, stack
        house = self.rules.house
        if owner == "house" and house is not None:
            return zone.zone_of(house.index), stack
        if owner is None or not owner.isascii() or not owner.isdigit() \
                or not 1 <= int(owner) <= self.players:
            self.problem(path, f"'{zone.name}' is each player's: name one, from "
                               f"{zone.name}[1] to {zone.name}[{self.players}]", key=True)
            return None
        return zone.zone_of(int(owner) - 1), stack

    def cards(self, path: tuple[str | int, ...], value: Any, what: str,
              used: Counter[str] | None = None) -> list[str]:
        """A list of card names, each a card of this table's deck, none more often than
        the deck holds it (in this list, or with `used`, in the whole file)."""
        if not isinstance(value, list):
            self.problem(path, f"{what}: a list of cards, such as [AS, 10H, KD]")
            return []
        seen = used if used is not None else Counter()
        names = []
        for i, item in enumerate(value):
            text = str(item).strip() if isinstance(item, (str, int)) else ""
            card = self.upper.get(text.upper())
            if card is None:
                self.problem((*path, i), f"{what}: '{item}' is not a card of this deck "
                                         "(cards are named like AS, 10H, KD)")
                continue
            seen[card] += 1
            if seen[card] > self.copies[card]:
                times = "once" if self.copies[card] == 1 else f"{self.copies[card]} times"
                self.problem((*path, i), f"{what}: {card} again (the deck holds it {times})")
                continue
            names.append(card)
        return names

    def place(self, path: tuple[str | int, ...], what: str) -> str:
        where = self.locate(path, "", False).location
        return f"{where}: {what}" if where is not None else f"{self.what}, {what}"


# ------------------------------------------------------------------ dealing
def stack(b: Any, s: GameState, z: int, shuffled: Any) -> None:
    """Zone z is shuffled in a game with a deal: its cards take the next stated order (or,
    the deal used up, the seed's shuffle `shuffled(rng, cards)`)."""
    deal, cards = s.deal, s.zones[z]
    if isinstance(deal, Probe):
        if deal.turned:
            cards.reverse()
        deal.seen.append((z, list(cards)))
        return
    if s.dealt >= len(deal.shuffles):
        shuffled(s.rng, cards)
        return
    order = deal.shuffles[s.dealt]
    where = deal.where[s.dealt] if s.dealt < len(deal.where) else \
        f"the deal, shuffle {s.dealt + 1}"
    s.dealt += 1
    names = b.card_names
    by_name: dict[str, list[int]] = {}
    for c in sorted(c for c in cards if c != EMPTY):
        by_name.setdefault(names[c], []).append(c)
    held = len(cards) - cards.count(EMPTY)
    placed = []
    for name in reversed(order):  # the zone keeps its top last
        ids = by_name.get(name)
        if not ids:
            raise DealRefused(f"{where}: {name} is not among the {held} cards "
                            "shuffled there")
        placed.append(ids.pop(0))
    if len(placed) != held:
        left = sorted(names[c] for ids in by_name.values() for c in ids)
        raise DealRefused(f"{where}: {len(placed)} cards, but {held} are shuffled "
                        f"there (not named: {', '.join(left[:8])}"
                        f"{', ...' if len(left) > 8 else ''})")
    cards[:] = [EMPTY] * (len(cards) - held) + placed


def stacked_deck(engine: Any, players: int, seed: int, deal: Deal) -> Deal:
    """The stacked deck that deals the cards `deal.zones` names (the others in the seed's
    order): the setup played once with shuffles that keep their order tells which place
    of which shuffle ends up where."""
    probe = Probe()
    start = engine.new_game(players, seed, deal=probe)
    names = engine.rules.cards.names
    if not probe.seen:
        raise DealRefused("the deal names cards, but this ruleset's setup shuffles nothing: "
                        "its deal is always the same")
    # Only the cards the shuffles order can be stated: a card the setup sets aside before
    # it shuffles (hanabi's copies beyond the game's 50) stays where the rules put it.
    shuffled = sorted({c for _, order in probe.seen for c in order if c != EMPTY})
    ids: dict[str, list[int]] = {}
    for c in shuffled:
        ids.setdefault(names[c], []).append(c)
    wanted: dict[int, int] = {}  # probe card -> the card to put in its place
    for (z, cards, stack), where in zip(deal.zones, deal.where):
        held = [c for c in start.zones[z] if c != EMPTY]
        if len(held) != len(cards) and not (stack and len(cards) < len(held)):
            other = engine.new_game(players, seed, deal=Probe(turned=True)).zones[z]
            if len(other) - other.count(EMPTY) != len(held):  # (another deal, another count)
                raise DealRefused(_DEPENDS.format(where=where))
            raise DealRefused(f"{where}: {len(cards)} cards named, but the setup "
                            f"puts {len(held)} there")
        for probe_card, name in zip(held[len(held) - len(cards):], cards):
            if not ids.get(name):
                had = sum(names[c] == name for c in shuffled)
                raise DealRefused(f"{where}: {name} is named more often than the "
                                f"setup's shuffles hold it ({had})")
            wanted[probe_card] = ids[name].pop(0)
    rest = sorted(c for group in ids.values() for c in group)
    random.Random(seed).shuffle(rest)  # the cards not named: in an order of the seed's
    open_places = [c for c in shuffled if c not in wanted]
    wanted.update(zip(open_places, rest))
    orders = tuple(tuple(names[wanted[c]] for c in reversed(order) if c != EMPTY)
                   for _, order in probe.seen)
    return Deal(shuffles=orders)


def check_zones(rules: Ruleset, s: GameState, deal: Deal) -> None:
    """After a deal made from named zones: refuse it if the zones do not hold what it named
    (a setup whose moves depend on which cards it deals cannot be stacked so)."""
    names = rules.cards.names
    for (z, cards, stack), where in zip(deal.zones, deal.where):
        held = tuple(names[c] for c in s.zones[z] if c != EMPTY)
        # (a stack's named cards are its top ones; any other zone's, all it holds)
        if (held[len(held) - len(cards):] if stack else held) != cards:
            raise DealRefused(_DEPENDS.format(where=where))


_DEPENDS = ("{where}: this ruleset's setup depends on which cards it deals, so the "
            "cards of its zones cannot be stated; give the order of each shuffle instead "
            "('shuffles:')")


def from_zones(engine: Any, players: int | None, seed: int, log: Any, deal: Deal) -> GameState:
    """A new game dealt the cards `deal.zones` names: through the stacked deck that deals
    them (which the game keeps as its deal, for a save), checked once dealt."""
    count = engine.rules.default_players if players is None else players
    s = engine.new_game(count, seed, log, stacked_deck(engine, count, seed, deal))
    check_zones(engine.rules, s, deal)
    return s
