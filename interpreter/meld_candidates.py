"""The melds a hand allows: a ruleset's meld kinds with the card tables they read
(MeldRules), a hand grouped into types of interchangeable cards, and every meld of a declared
kind those types can form, listed once each as counts per type (interpreter/melding.py
searches how a hand splits into them).

A search's work is counted as it goes (_Work): the melds listed here and the positions the
split tries there, against one bound, so that a rule file cannot make a search take unbounded
time or memory.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache, reduce
from itertools import combinations, combinations_with_replacement
from operator import or_
from typing import Any

from cardrules.errors import RuleFault
from cardrules.model import MeldKind

MOST_MELD_CARDS = 60  # the most cards a meld search takes at once
MOST_MELD_STEPS = 2_000_000  # the most melds listed plus positions tried in one search

Key = tuple[int, ...]  # counts per type


@dataclass(frozen=True, eq=False)
class MeldRules:
    """A ruleset's meld kinds with the card tables they read."""

    kinds: tuple[MeldKind, ...]
    rank: Sequence[int]
    suit: Sequence[int]
    wild: Sequence[bool]
    names: Sequence[str]
    value: Sequence[int]  # what a card left out of every meld counts
    n_ranks: int  # ranks of the deck, jokers not counted
    ace: int  # the index of the rank 'A', or -1
    _orders: dict[str, tuple[tuple[int, ...], bool]] = field(default_factory=dict)
    # goal searches already made, by (sorted cards, goal, listed): a bot asks again and again
    _goals: dict[tuple[tuple[int, ...], tuple[str, ...], bool], Any] = field(
        default_factory=dict)
    # the answers of deadwood, discard_deadwood and left_out (the cards melded), by built-in
    # and the sorted cards that may meld (`live_cards`): asked at every turn, of hands whose
    # few cards that meld come back turn after turn
    _kept: dict[tuple[str, tuple[int, ...]], Any] = field(default_factory=dict)
    # per built-in, its last cards and answer: one rule line may ask of one hand thrice
    _last: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = field(default_factory=dict)
    _made: dict[str, Any] = field(default_factory=dict)  # what is worked out once (card_order)

    def card_order(self) -> tuple[Any, ...] | None:
        """Per card, where it stands among a hand's types, where every card's name is its own
        (one deck), else None (made once)."""
        if "order" not in self._made:
            unique = len(set(self.names)) == len(self.names)
            self._made["order"] = tuple(
                (self.wild[c], self.rank[c], self.suit[c], self.names[c])
                for c in range(len(self.names))) if unique else None
        return self._made["order"]  # type: ignore[no-any-return]

    def liveness(self) -> _Liveness:
        """What `live_cards` reads of the kinds and the card tables (made once)."""
        if "live" not in self._made:
            self._made["live"] = _Liveness(self)
        return self._made["live"]  # type: ignore[no-any-return]

    def forget(self) -> None:
        """Drop the answers kept (for timing the search itself)."""
        self._goals.clear()
        self._kept.clear()
        self._last.clear()

    def order(self, place: str) -> tuple[tuple[int, ...], bool]:
        """The ranks a run climbs through, and whether they turn the corner."""
        if place not in self._orders:
            others = tuple(r for r in range(self.n_ranks) if r != self.ace)
            ace = (self.ace,) if self.ace >= 0 else ()
            self._orders[place] = {
                "low": (ace + others, False), "high": (others + ace, False),
                "both": (ace + others + ace, False), "wrap": (ace + others, True),
            }[place]
        return self._orders[place]


@dataclass(frozen=True)
class _Hand:
    ids: tuple[tuple[int, ...], ...]  # per type, its card ids ascending
    rank: tuple[int, ...]
    suit: tuple[int, ...]
    wild: tuple[bool, ...]
    value: tuple[int, ...]


def searchable(cards: Sequence[int], what: str, site: int) -> None:
    """A fault at the call's place where a search would take more than MOST_MELD_CARDS."""
    if len(cards) > MOST_MELD_CARDS:
        raise RuleFault(f"{what}: {len(cards)} cards; a meld search takes at most "
                        f"{MOST_MELD_CARDS}", site)


def _hand(rules: MeldRules, cards: Sequence[int], what: str, site: int,
          pool: bool = False) -> _Hand:
    """The hand grouped into types; with `pool`, wild cards of one value make one type
    (where only what is left over counts, which wild card stands in does not matter)."""
    searchable(cards, what, site)
    order = rules.card_order()
    if order is not None and not (pool and any(rules.wild[c] for c in cards)):
        # (every card its own type: the types are the cards in type order)
        one = sorted(cards, key=order.__getitem__)
        return _Hand(tuple((c,) for c in one), tuple(rules.rank[c] for c in one),
                     tuple(rules.suit[c] for c in one), tuple(rules.wild[c] for c in one),
                     tuple(rules.value[c] for c in one))
    by_name: dict[object, list[int]] = {}
    for c in sorted(cards):
        key = (None, rules.value[c]) if pool and rules.wild[c] else rules.names[c]
        by_name.setdefault(key, []).append(c)
    # wild cards last: a split then starts from natural cards, which few melds hold
    types = sorted(by_name.values(), key=lambda ids: (rules.wild[ids[0]], rules.rank[ids[0]],
                                                      rules.suit[ids[0]], rules.names[ids[0]]))
    return _Hand(tuple(tuple(t) for t in types), tuple(rules.rank[t[0]] for t in types),
                 tuple(rules.suit[t[0]] for t in types), tuple(rules.wild[t[0]] for t in types),
                 tuple(rules.value[t[0]] for t in types))


class _Work:
    """The work of one search so far, against its bound: a fault at the call's place once
    it passes MOST_MELD_STEPS (a hot loop may count `steps` itself and call `charge(0)` once
    it passes `limit`)."""

    __slots__ = ("what", "site", "cards", "steps", "limit")

    def __init__(self, what: str, site: int, cards: int) -> None:
        self.what, self.site, self.cards, self.steps = what, site, cards, 0
        self.limit = MOST_MELD_STEPS

    def charge(self, steps: int) -> None:
        self.steps += steps
        if self.steps > self.limit:
            raise RuleFault(f"{self.what}: a meld search of {self.cards} cards needs more than "
                            f"{self.limit:,} steps (melds listed and positions tried); "
                            "search fewer cards at once", self.site)


class _Liveness:
    """A ruleset's meld kinds as `live_cards` tests them. A hand is read as two integers:
    its count of each rank, a field of `_COUNT` bits a rank, and the places its cards hold
    in each kind of run's order, each kind a region of the integer, each suit a field of the
    region that ends in a bit never held (so that no stretch crosses into the next suit),
    twice as long where runs turn the corner (to hold the order twice over)."""

    def __init__(self, rules: MeldRules) -> None:
        kinds = rules.kinds
        self.wilds = frozenset(c for c, w in enumerate(rules.wild) if w) if any(
            kind.wilds != 0 for kind in kinds) else frozenset()  # wild cards that may meld
        natural = [not w and r < rules.n_ranks for w, r in zip(rules.wild, rules.rank)]
        sets = [max(k.least, 1) for k in kinds if not k.run]
        sets = [least for k, least in zip((k for k in kinds if not k.run), sets)
                if (not k.most or k.most >= least) and least <= MOST_MELD_CARDS]
        # What a card adds to the count of each rank, and the top bit of its rank's field:
        # adding `lift` to the counts sets the top bit of each rank held often enough for a
        # set (a count is at most MOST_MELD_CARDS, so no field carries into the next).
        top = 1 << (_COUNT - 1)
        self.unit = tuple(1 << r * _COUNT if n else 0 for r, n in zip(rules.rank, natural))
        self.mark = tuple(top << r * _COUNT if n and sets else 0
                          for r, n in zip(rules.rank, natural))
        self.lift = sum(top - min(sets) << r * _COUNT for r in range(rules.n_ranks)) if sets \
            else 0
        self.tops = sum(top << r * _COUNT for r in range(rules.n_ranks))
        n_suits = max(rules.suit, default=0) + 1
        # per kind of run: where its region starts, the region's mask, the cards its runs
        # hold at least, its order's length and whether runs turn the corner
        self.runs: list[tuple[int, int, int, int, bool]] = []
        places = [0] * len(natural)  # per card, its places in every region
        start = 0
        for kind in kinds:
            order, circle = rules.order(kind.ace)
            at = _places(order)
            least, span = max(kind.least, 1), len(order)
            if not kind.run or least > min(kind.most or span, len(at)):
                continue
            width = 2 * span + 1 if circle else span + 1
            for c, r in enumerate(rules.rank):
                if natural[c]:
                    places[c] |= sum(1 << i for i in at[r]) << (start + rules.suit[c] * width)
            self.runs.append((start, (1 << n_suits * width) - 1, least, span, circle))
            start += n_suits * width
        self.places = tuple(places)


_COUNT = 7  # bits a rank in a hand's count of each rank (a count up to MOST_MELD_CARDS)
assert MOST_MELD_CARDS < 1 << (_COUNT - 1)


def live_cards(rules: MeldRules, cards: Sequence[int]) -> list[int]:
    """The cards that some meld the hand allows holds, in the order given: every card where
    a wild card of the hand may stand in a meld; else each natural card of a rank held often
    enough to make a set, or in a stretch of its suit's held ranks long enough to make a run.
    A search of these alone splits the hand as a search of all does (the others are left
    out of every meld), and the same few come back hand after hand."""
    live = rules.liveness()
    if live.wilds and not live.wilds.isdisjoint(cards):
        return list(cards)
    places = live.places
    sets = sum(map(live.unit.__getitem__, cards)) + live.lift & live.tops
    held = reduce(or_, map(places.__getitem__, cards), 0)
    covered = 0
    for start, mask, least, span, circle in live.runs:
        region = held >> start & mask
        if circle:
            region |= region << span
        begins = region
        for k in range(1, least):
            begins &= region >> k
        spans = begins
        for k in range(1, least):
            spans |= begins << k
        if circle:
            spans |= spans >> span  # (the order's second copy folded onto the first)
        covered |= spans << start
    if not sets and not covered:
        return []
    mark = live.mark
    return [c for c in cards if sets & mark[c] or covered & places[c]]


def _wild_choices(wild_types: Sequence[int], counts: Sequence[int], w: int) -> Iterator[Key]:
    """Every multiset of w wild cards (as types) the hand holds."""
    for pick in combinations_with_replacement(wild_types, w):
        if all(pick.count(t) <= counts[t] for t in set(pick)):
            yield pick


def _candidates(rules: MeldRules, hand: _Hand, kinds: Sequence[MeldKind] | None = None,
                work: _Work | None = None) -> list[Key]:
    """Every meld the whole hand allows (of the given kinds, else of any), once each, as
    counts per type: longest first, then in key order (the most of the lowest types first).
    Each meld listed is charged to `work`."""
    counts = [len(ids) for ids in hand.ids]
    n = len(counts)
    wild_types = [t for t in range(n) if hand.wild[t]]
    n_wild = sum(counts[t] for t in wild_types)
    found: set[Key] = set()

    def add(naturals: Sequence[int], wilds: Sequence[int]) -> None:
        if work is not None:
            work.steps += 1
            if work.steps > work.limit:
                work.charge(0)
        key = [0] * n
        for t in (*naturals, *wilds):
            key[t] += 1
        found.add(tuple(key))

    for kind in rules.kinds if kinds is None else kinds:
        most_wild = n_wild if kind.wilds < 0 else min(kind.wilds, n_wild)
        if kind.run:
            _runs(rules, hand, kind, counts, wild_types, most_wild, add)
        else:
            _sets(rules, hand, kind, counts, wild_types, most_wild, add)
    return sorted(found, key=lambda key: (-sum(key), tuple(-c for c in key)))


def _sets(rules: MeldRules, hand: _Hand, kind: MeldKind, counts: list[int],
          wild_types: list[int], most_wild: int, add: Any) -> None:
    by_rank: dict[int, list[int]] = {}
    for t in range(len(counts)):
        if not hand.wild[t] and hand.rank[t] < rules.n_ranks:
            by_rank.setdefault(hand.rank[t], []).extend([t] * counts[t])
    if most_wild == 0:  # (naturals only: each set a choice of k cards of one rank)
        for naturals_all in by_rank.values():
            if len(naturals_all) < kind.least:
                continue
            top = len(naturals_all) if not kind.most else min(kind.most, len(naturals_all))
            for k in range(max(kind.least, 1), top + 1):
                for naturals in set(combinations(naturals_all, k)):
                    add(naturals, ())
        return
    groups = list(by_rank.values()) + [[]]  # the last: a set of wild cards only
    for naturals_all in groups:
        for k in range(len(naturals_all) + 1):
            if k == 0 and naturals_all:
                continue
            for naturals in set(combinations(naturals_all, k)):
                for w in range(most_wild + 1):
                    size = k + w
                    if size < kind.least or (kind.most and size > kind.most) or size == 0:
                        continue
                    for wilds in _wild_choices(wild_types, counts, w):
                        add(naturals, wilds)


def _runs(rules: MeldRules, hand: _Hand, kind: MeldKind, counts: list[int],
               wild_types: list[int], most_wild: int, add: Any) -> None:
    """Every run, listed once by its natural cards: a stretch of the order from one
    natural card to another, the gaps between them wild, and as many more wild cards as the
    run may hold (they stand at either end; a run that long always fits in the order)."""
    order, circle = rules.order(kind.ace)
    span = len(order)
    longest = min(kind.most or span, len(_places(order)))
    least = max(kind.least, 1)
    at: dict[tuple[int, int], list[int]] = {}
    for t in range(len(counts)):
        if not hand.wild[t] and hand.rank[t] < rules.n_ranks:
            at.setdefault((hand.suit[t], hand.rank[t]), []).append(t)
    if most_wild == 0 and all(len(ts) == 1 for ts in at.values()):
        _plain_runs(order, circle, longest, least, at, add)
        return
    wild_sets = [list(_wild_choices(wild_types, counts, w)) for w in range(most_wild + 1)]

    def grow(suit: int, start: int, length: int, chosen: tuple[int, ...], gaps: int,
             seen: frozenset[int]) -> None:
        n = len(chosen)
        for w in range(max(gaps, least - n), min(most_wild, longest - n) + 1):
            for wilds in wild_sets[w]:
                add(chosen, wilds)
        for skip in range(most_wild - gaps + 1):
            size = length + skip + 1
            if size > longest or (not circle and start + size > span):
                return
            r = order[(start + size - 1) % span]
            if r in seen:
                return
            ts = at.get((suit, r))
            if ts:
                for t in ts:
                    grow(suit, start, size, (*chosen, t), gaps + skip, seen | {r})
            seen = seen | {r}  # skipped: a wild card stands there

    for (suit, r), ts in at.items():
        for start in range(span):
            if order[start] == r:
                for t in ts:
                    grow(suit, start, 1, (t,), 0, frozenset({r}))
    for w in range(least, min(longest, most_wild) + 1):  # runs of wild cards only
        for wilds in wild_sets[w]:
            add((), wilds)


def _plain_runs(order: tuple[int, ...], circle: bool, longest: int, least: int,
                at: dict[tuple[int, int], list[int]], add: Any) -> None:
    """Runs without wild cards, where each rank of a suit is one type: every stretch of held
    ranks from each card held, as long as it may be. (No rank comes twice in one stretch:
    `longest` is at most the order's distinct ranks, and only an order that turns the corner
    goes round, at most once.)"""
    span = len(order)
    places = _places(order)
    held: dict[int, int] = {}  # suit -> a bit for each place of the order held
    for suit, r in at:
        for i in places[r]:
            held[suit] = held.get(suit, 0) | 1 << i
    starts: dict[int, int] = {}  # suit -> a bit for each place where `least` held ones begin
    for suit, bits in held.items():
        if circle:
            bits |= bits << span  # (round the corner)
        begins = bits
        for k in range(1, least):
            begins &= bits >> k
        starts[suit] = begins
    for suit, first in at:  # (a run starts at a card held, and at least `least` follow)
        begins = starts[suit]
        if not begins:
            continue
        for start in places[first]:
            if not begins >> start & 1:
                continue
            chosen: list[int] = []
            for i in range(longest if circle else min(longest, span - start)):
                slot = at.get((suit, order[(start + i) % span]))
                if slot is None:
                    break
                chosen.append(slot[0])
                if i >= least - 1:
                    add(chosen, ())


@cache
def _places(order: tuple[int, ...]) -> dict[int, tuple[int, ...]]:
    """Each rank's places in a run order (the ace's two, where it stands at both ends)."""
    return {r: tuple(i for i, x in enumerate(order) if x == r) for r in set(order)}


def meld_tree(held: list[tuple[int, Key]]) -> list[Any]:
    """The melds of one lowest type as a tree: a node is [type, copies of it needed, the
    meld's number in `held` where a meld ends there (else -1), its packed vector, children
    sorted by type and then copies, the meld as a key]. A meld's path is its types in order
    with the copies of each it holds, so melds that share their first types share a path."""
    root: list[Any] = [-1, 0, -1, 0, [], ()]
    for number, (packed, key) in enumerate(held):
        node = root
        for u, c in enumerate(key):
            if c:
                child = next((x for x in node[4] if x[0] == u and x[1] == c), None)
                if child is None:
                    child = [u, c, -1, 0, [], ()]
                    node[4].append(child)
                node = child
        node[2], node[3], node[5] = number, packed, key
    stack = [root]
    while stack:
        node = stack.pop()
        node[4].sort(key=lambda x: (x[0], x[1]))
        stack.extend(node[4])
    return root
