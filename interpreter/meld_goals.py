"""Goals of melds to lay down together (`lay_downs`, `can_lay_down`): the search of
interpreter/melding.py, with what is still wanted of each kind of meld as part of its state.

A goal names kinds of meld to lay down together, a kind once for each meld of it
(['set', 'set', 'run']); the cards not laid down stay in hand. The first type still held is
either in one more meld of a kind still wanted, or left out with all its copies. A ruleset
keeps the answers of its last searches (a bot asks the same hand again and again).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from cardrules.errors import RuleFault
from cardrules.model import MeldKind

from .meld_candidates import Key, MeldRules, _candidates, _Hand, _hand, _Work
from .melding import _FIELDS, _W, MOST_LAYOUTS, _Search

MOST_GOAL_MELDS = 12  # the most melds one goal names
_GoalLayout = tuple[tuple[int, Key], ...]  # (goal kind, meld) pairs, sorted


class _GoalSearch:
    """The ways to lay down one goal's melds from one hand."""

    def __init__(self, rules: MeldRules, hand: _Hand, goal: Sequence[int],
                 what: str = "lay_downs", site: int = 0) -> None:
        self.hand = hand
        self.work = _Work(what, site, sum(len(ids) for ids in hand.ids))
        self.kinds = sorted(set(goal))  # goal kinds, as indices of rules.kinds
        self.least = [rules.kinds[k].least for k in self.kinds]
        self.wanted = tuple(goal.count(k) for k in self.kinds)
        self.holding: list[list[tuple[int, int, Key]]] = [[] for _ in hand.ids]
        for i, k in enumerate(self.kinds):
            for key in _candidates(rules, hand, (rules.kinds[k],), self.work):
                first = next(t for t, c in enumerate(key) if c)
                self.holding[first].append((_Search.pack(key), i, key))
        self.guard = sum(1 << (t * _W + _W - 1) for t in range(len(hand.ids)))
        self.start = _Search.pack(tuple(len(ids) for ids in hand.ids))
        self.fits_memo: dict[tuple[int, tuple[int, ...]], bool] = {}
        self.all_memo: dict[tuple[int, tuple[int, ...]], frozenset[_GoalLayout]] = {}

    def steps(self, left: int, wanted: tuple[int, ...]
              ) -> Iterator[tuple[int, int, Key, tuple[int, ...]]]:
        """The melds still wanted that hold the first type of `left` and fit in it: (packed,
        kind, key, what is wanted after it)."""
        guard = self.guard
        for packed, i, key in self.holding[_Search.first(left)]:
            if wanted[i] and (left | guard) - packed & guard == guard:
                yield packed, i, key, (*wanted[:i], wanted[i] - 1, *wanted[i + 1:])

    def without_first(self, left: int) -> int:
        """`left` without any copy of its first type."""
        t = _Search.first(left)
        return left & ~(((1 << _W) - 1) << (t * _W))

    def hopeless(self, left: int, wanted: tuple[int, ...]) -> bool:
        """Whether too few cards are left for the melds still wanted."""
        # the cards held: the sum of the fields, which is `left` modulo 2**_W - 1 (each field
        # is worth 1 there), exact since a hand has fewer cards than that
        return left % _FIELDS < sum(n * least for n, least in zip(wanted, self.least))

    def fits(self, left: int, wanted: tuple[int, ...]) -> bool:
        """Whether the melds still wanted can be laid from `left`."""
        if not any(wanted):
            return True
        if not left:
            return False
        memo_key = (left, wanted)
        got = self.fits_memo.get(memo_key)
        if got is None:
            self.work.charge(1 + len(self.holding[_Search.first(left)]))
            got = not self.hopeless(left, wanted) and (
                any(self.fits(left - packed, rest)
                    for packed, _, _, rest in self.steps(left, wanted))
                or self.fits(self.without_first(left), wanted))
            self.fits_memo[memo_key] = got
        return got

    def every(self, left: int, wanted: tuple[int, ...], site: int
              ) -> frozenset[_GoalLayout]:
        """Every way to lay the melds still wanted from `left`, each a sorted tuple of (kind,
        key)."""
        if not any(wanted):
            return frozenset({()})
        if not left or self.hopeless(left, wanted):
            return frozenset()
        memo_key = (left, wanted)
        got = self.all_memo.get(memo_key)
        if got is None:
            self.work.charge(1 + len(self.holding[_Search.first(left)]))
            found = set(self.every(self.without_first(left), wanted, site))
            for packed, i, key, rest in self.steps(left, wanted):
                for tail in self.every(left - packed, rest, site):
                    found.add(tuple(sorted(((i, key), *tail))))
                    if len(found) > MOST_LAYOUTS:
                        raise RuleFault(f"lay_downs: more than {MOST_LAYOUTS} ways to lay down "
                                        "the goal", site)
            got = self.all_memo[memo_key] = frozenset(found)
        return got


def _goal(rules: MeldRules, goal: Sequence[str], what: str, site: int) -> list[int]:
    """A goal's kinds as indices of the ruleset's kinds, in the goal's order."""
    if len(goal) > MOST_GOAL_MELDS:
        raise RuleFault(f"{what}: a goal of {len(goal)} melds; a goal names at most "
                        f"{MOST_GOAL_MELDS}", site)
    index = {kind.name: i for i, kind in enumerate(rules.kinds)}
    out = []
    for name in goal:
        if name not in index:
            raise RuleFault(f"{what}: no meld kind '{name}' (the kinds: "
                            f"{', '.join(index)})", site)
        out.append(index[name])
    return out


MOST_GOALS_KEPT = 4096  # goal searches a ruleset keeps the answers of


def _kept(rules: MeldRules, cards: Sequence[int], goal: Sequence[str], listed: bool,
          work: Callable[[], Any]) -> Any:
    """The answer of a goal search, from those kept if the same cards were asked the same."""
    key = (tuple(sorted(cards)), tuple(goal), listed)
    kept = rules._goals
    if key in kept:
        return kept[key]
    if len(kept) >= MOST_GOALS_KEPT:
        kept.clear()
    got = kept[key] = work()
    return got


def can_lay_down(rules: MeldRules, cards: Sequence[int], goal: Sequence[str],
                 site: int) -> bool:
    """Whether some of the cards form the goal's melds, one of each kind it names."""
    listed = rules._goals.get((tuple(sorted(cards)), tuple(goal), True))
    if listed is not None:  # the ways to lay them down, listed already: whether there is one
        return bool(listed)

    def work() -> bool:
        kinds = _goal(rules, goal, "can_lay_down", site)
        hand = _hand(rules, cards, "can_lay_down", site, pool=True)
        search = _GoalSearch(rules, hand, kinds, "can_lay_down", site)
        return search.fits(search.start, search.wanted)
    return bool(_kept(rules, cards, goal, False, work))


def lay_downs(rules: MeldRules, cards: Sequence[int], goal: Sequence[str], site: int
              ) -> list[tuple[tuple[int, ...], ...]]:
    """Every distinct way to lay down the goal's melds from some of the cards.

    A layout gives its melds in the goal's order, each a tuple of card ids. Copies of one card
    are interchangeable, and so are wild cards of one value: a layout is listed once, with
    the lowest ids of each. Cards are put in order by rank, then suit (a type of wild cards
    where its lowest card would stand); a run with no wild card is given in the order it
    runs (J Q K A). Melds of one kind are in that order among themselves, and the layouts in
    the order of their melds."""
    return list(_kept(rules, cards, goal, True, lambda: _lay_downs(rules, cards, goal, site)))


def _lay_downs(rules: MeldRules, cards: Sequence[int], goal: Sequence[str], site: int
               ) -> tuple[tuple[tuple[int, ...], ...], ...]:
    kinds = _goal(rules, goal, "lay_downs", site)
    hand = _hand(rules, cards, "lay_downs", site, pool=True)
    search = _GoalSearch(rules, hand, kinds, "lay_downs", site)
    found = search.every(search.start, search.wanted, site)
    # the order people read: types by (rank, suit, name), wild cards where their first is
    shown = sorted(range(len(hand.ids)), key=lambda t: (
        rules.rank[hand.ids[t][0]], rules.suit[hand.ids[t][0]],
        "" if hand.wild[t] else rules.names[hand.ids[t][0]]))
    place = {t: i for i, t in enumerate(shown)}
    slots = [[j for j, k in enumerate(kinds) if k == search.kinds[i]]
             for i in range(len(search.kinds))]
    ordered = []
    for layout in found:
        melds: list[tuple[int, ...]] = [()] * len(kinds)
        by_kind: list[list[tuple[int, ...]]] = [[] for _ in search.kinds]
        for i, key in layout:
            by_kind[i].append(tuple(sorted(place[t] for t, c in enumerate(key)
                                           for _ in range(c))))
        for i, contents in enumerate(by_kind):
            for j, content in zip(slots[i], sorted(contents)):
                melds[j] = content
        ordered.append(tuple(melds))
    out = []
    for contents_of in sorted(ordered):
        used = [0] * len(hand.ids)
        laid: list[tuple[int, ...]] = []
        for j, content in enumerate(contents_of):
            meld: list[int] = []
            for p in content:
                t = shown[p]
                meld.append(hand.ids[t][used[t]])
                used[t] += 1
            kind = rules.kinds[kinds[j]]
            if kind.run and not any(rules.wild[c] for c in meld):
                meld = _run_order(rules, kind, meld)
            laid.append(tuple(meld))
        out.append(tuple(laid))
    return tuple(out)


def _run_order(rules: MeldRules, kind: MeldKind, meld: list[int]) -> list[int]:
    """A run of natural cards in the order it runs: from the first place of the kind's rank
    order where it fits (the whole circle of a wrapping run from the ace)."""
    order, circle = rules.order(kind.ace)
    span = len(order)
    at = {rules.rank[c]: c for c in meld}
    for start in range(span if circle else span - len(meld) + 1):
        ranks = [order[(start + i) % span] for i in range(len(meld))]
        if set(ranks) == set(at) and len(set(ranks)) == len(ranks):
            return [at[r] for r in ranks]
    return meld


# What generated code may call of this module (dsl/binding.py binds these).
EXPORTED = ("lay_downs", "can_lay_down")
