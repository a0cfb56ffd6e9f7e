"""Melds as a ruleset declares them (`melds:`): which cards form one, and how a hand splits.

A ruleset names its meld kinds: a *set* is `least`..`most` cards of one rank, a *run* is as
many cards of one suit in consecutive ranks, where the ace may stand low, high, at either end
or in the middle of a run that turns the corner (K-A-2). Wild cards (the deck's `wild`) stand
in for any card, up to `wilds` of them in one meld. A joker that is not wild fits no meld.
A goal of melds to lay down together is searched the same way (interpreter/meld_goals.py).

How the search works
--------------------
* Cards that share a name (the two 7H of two decks) are interchangeable, so the hand is
  grouped into *types*, one per name, ordered by (rank, suit, name) with the wild ones
  last; a hand is then a vector of counts per type.
* Every meld the hand allows is listed once, as counts per type (its *key*): sets by
  choosing naturals of one rank and wild cards; runs by a stretch of consecutive ranks in one
  suit from one natural card to another, each rank between its card or a wild card, with
  more wild cards at either end as the run's length allows.
* A hand splits by its first type still held: that card is either left out (deadwood) or in
  one of the melds that hold its type and fit in what is left. Least deadwood is this
  recursion with a memo on the counts; every layout is the same recursion, kept as sets of
  keys, so a layout found twice counts once.
* Before it, the hand is cut along what no meld crosses: a type that is in no meld is dead
  (always left out, its value counted as it is), and types that share no meld, directly or
  through others, fall into independent parts (the suits of a hand of runs, say). Least
  deadwood is the dead cards' value plus each part's least, each part searched and memoised
  on its own, so the memo holds the sum of the parts' positions rather than their product.
  Nothing else changes: the layouts, and the one `best_melds` picks, are those of the whole.
  A hand of few cards, or with a wild card that melds (it joins every part), is not cut: the
  cut would cost more than it saves.
* At a position the melds of the first type are tried first, and leaving its card out (which
  costs at least its value) only where no meld did as well. Where a type is in many melds, the
  ones that fit are found through a tree of them (`meld_tree`), walked only where what is left
  holds what a meld needs; with wild cards few of a type's melds fit.
* `discard_deadwood` of a hand searched whole makes the discard a choice of one search
  (`discarding`): far less work than a search per discard, where the memo of one discard's
  search serves little of another's.
* `deadwood`, `discard_deadwood` and `left_out`, asked at every turn of hands that mostly
  meld little, search only the cards some meld the hand allows holds (`live_cards`: where no
  wild card of the hand may stand in a meld, the cards of a rank held often enough for a set
  or in a stretch of held ranks long enough for a run), the others being left out of every
  layout (counted as they are; the highest of them the best discard of them); and keep their
  answers by those cards, which come back hand after hand. The layouts, and so the one
  `left_out` picks, are the whole hand's: a card in no meld adds no choice to a split.
  `left_out` keeps its last answer too, for a rule line that asks it of one hand again.
* Each type's copies are handed out lowest id first, melds in their key order.
* A search is bounded twice: by the cards it takes (MOST_MELD_CARDS) and by its work (the
  melds it lists, the positions it tries and the melds or tree nodes it looks at there,
  MOST_MELD_STEPS), each a fault at the call's place, so that no rule file can make one take
  unbounded time or memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardrules.errors import RuleFault
from cardrules.model import MeldKind  # noqa: F401  (this module's API, with MeldRules)

# What a hand allows, listed (meld_candidates.py); how it splits, searched here.
from .meld_candidates import (  # noqa: F401  (MOST_MELD_CARDS, MeldRules: this module's API)
    MOST_MELD_CARDS,
    MOST_MELD_STEPS,
    Key,
    MeldRules,
    _candidates,
    _Hand,
    _hand,
    _Work,
    live_cards,
    meld_tree,
    searchable,
)

MOST_LAYOUTS = 10_000  # the most layouts meld_layouts gives
_KEPT_SEARCHES = 100_000  # answers of left_out, deadwood and discard_deadwood kept, then afresh

CUT_FROM = 16  # hands of more cards than this are cut into dead cards and parts first
_TREE_FROM = 24  # a type in more melds than this finds those that fit through a tree

_W = 7  # bits per type in a packed count vector: a count up to 63, then a guard bit
_FIELDS = (1 << _W) - 1
assert MOST_MELD_CARDS < 1 << (_W - 1)  # (so a type's count never reaches its guard bit)


class _Search:
    """The splits of one hand into melds and cards left out.

    A count vector is packed into one integer, `_W` bits per type, so that the search works on
    integers: a meld fits in what is left when subtracting it borrows from no type's guard bit,
    and the first type still held is the lowest bit set."""

    def __init__(self, rules: MeldRules, hand: _Hand, counted: bool = True,
                 what: str = "meld search", site: int = 0) -> None:
        self.hand = hand
        self.kinds = rules.kinds
        n = len(hand.ids)
        self.work = _Work(what, site, sum(len(ids) for ids in hand.ids))
        self.value = hand.value if counted else (1,) * n
        self.signed = any(v < 0 for v in self.value)  # a card counting less than nothing
        self.cands = _candidates(rules, hand, work=self.work)
        self.guard = sum(1 << (t * _W + _W - 1) for t in range(n))
        self.holding: list[list[tuple[int, Key]]] = [[] for _ in hand.ids]
        for key in self.cands:
            self.holding[next(t for t, c in enumerate(key) if c)].append((self.pack(key), key))
        # a type in many melds finds those that fit through a tree (few do); in few, by a look
        # at each
        self.tries = [meld_tree(held) if len(held) > _TREE_FROM else None
                      for held in self.holding]
        self.memo: dict[int, tuple[int, Key | None]] = {}
        self.discards: dict[int, int] = {}  # `discarding`'s answers
        self.start = self.pack(tuple(len(ids) for ids in hand.ids))
        # A wild card that melds joins every part (it stands in for any card), and a small
        # hand is searched quickly whole: the cut would cost more than it saves.
        wilds = any(hand.wild) and any(kind.wilds != 0 for kind in rules.kinds)
        if self.work.cards > CUT_FROM and not wilds:
            self.dead, self.parts = self._cut(n)
        else:
            self.dead, self.parts = [], [sum(((1 << _W) - 1) << (t * _W) for t in range(n))]
        self.whole = not self.dead and len(self.parts) == 1  # nothing to cut: search it whole

    def _cut(self, n: int) -> tuple[list[int], list[int]]:
        """The dead types (in no meld) and the independent parts of the others (types
        joined by a meld that holds both), each part as a mask of its types' fields."""
        parent = list(range(n))

        def root(t: int) -> int:
            while parent[t] != t:
                parent[t] = parent[parent[t]]
                t = parent[t]
            return t

        live = [False] * n
        for key in self.cands:
            types = [t for t, c in enumerate(key) if c]
            for t in types:
                live[t] = True
                parent[root(t)] = root(types[0])
        field = (1 << _W) - 1
        parts: dict[int, int] = {}
        for t in range(n):
            if live[t]:
                parts[root(t)] = parts.get(root(t), 0) | field << (t * _W)
        return [t for t in range(n) if not live[t]], list(parts.values())

    @staticmethod
    def pack(key: Key) -> int:
        return sum(c << (t * _W) for t, c in enumerate(key))

    @staticmethod
    def first(left: int) -> int:
        """The lowest type still held in a packed vector (which must not be empty)."""
        return ((left & -left).bit_length() - 1) // _W

    def melds_with(self, t: int, left: int) -> list[tuple[int, Key]]:
        """The melds (packed, and as keys) whose lowest type is t and that fit in `left`, in
        meld order. They are found by walking the meld tree of type t (`meld_tree`) only where
        `left` holds what a meld needs, each node walked charged to the search's work: few
        of the melds a card is in fit in what is left, and they are not looked at."""
        tree = self.tries[t]
        work = self.work
        if tree is None:
            guard = self.guard
            work.steps += len(self.holding[t])
            if work.steps > work.limit:
                work.charge(0)
            return [(packed, key) for packed, key in self.holding[t]
                    if (left | guard) - packed & guard == guard]
        field = (1 << _W) - 1
        found: list[tuple[int, int, Key]] = []
        walked = 0
        stack = [tree]
        while stack:
            children = stack.pop()[4]
            skip = -1
            for child in children:
                u = child[0]
                if u == skip:
                    continue  # (more copies of a type that has too few already)
                walked += 1
                if left >> (u * _W) & field < child[1]:
                    skip = u
                    continue
                if child[2] >= 0:
                    found.append((child[2], child[3], child[5]))
                if child[4]:
                    stack.append(child)
        work.steps += walked
        if work.steps > work.limit:
            work.charge(0)
        found.sort()
        return [(packed, key) for _, packed, key in found]

    def least(self, left: int) -> int:
        """The least deadwood of `left`: its dead cards' value, and each part's least."""
        if not self.cands:  # no meld at all (most hands dealt at random): every card counts
            return sum(self.value[t] * (left >> (t * _W) & _FIELDS) for t in range(len(self.value)))
        if self.whole:
            return self._least(left)
        got = self.memo.get(left)
        if got is not None:
            return got[0]
        field = (1 << _W) - 1
        total = sum(self.value[t] * (left >> (t * _W) & field) for t in self.dead)
        for mask in self.parts:
            part = left & mask
            if part:
                total += self._least(part)
        return total

    def _least(self, left: int) -> int:
        """The least deadwood of `left`, cards of one part, and (in the memo) the meld that
        reaches it."""
        got = self.memo.get(left)
        if got is not None:
            return got[0]
        if not left:
            return 0
        t = self.first(left)
        self.work.steps += 1
        # The melds first: leaving the card out costs at least its value, so once a meld
        # does as well that branch is not searched, and nothing does better than none
        # (where no card counts less than nothing; with a negative value, every branch).
        signed = self.signed
        best: int | None = None
        choice: Key | None = None
        out = self.value[t]
        for packed, key in self.melds_with(t, left):
            score = self._least(left - packed)
            if best is None or score < best:
                best, choice = score, key
                if best == 0 and not signed:
                    break
        if best is None or signed or best > out:
            score = out + self._least(left - (1 << (t * _W)))
            if best is None or score < best:
                best, choice = score, None
        self.memo[left] = (best, choice)
        return best

    def discarding(self, left: int) -> int:
        """The least deadwood of `left`, cards searched whole, once one of them is discarded:
        the first type still held is discarded (then the rest is `least`'s), or left out, or
        in a meld, and one of the cards after it is discarded. The same as the least over
        each discard, but the discard is one more choice of one search, whose positions
        after it are `least`'s own."""
        got = self.discards.get(left)
        if got is not None:
            return got
        t = self.first(left)
        self.work.steps += 1
        rest = left - (1 << (t * _W))
        best = self._least(rest)
        signed = self.signed  # (a negative value: no branch is cut short)
        for packed, _ in self.melds_with(t, left) if best or signed else ():
            if left != packed:
                best = min(best, self.discarding(left - packed))
                if best == 0 and not signed:
                    break
        if (signed or best > self.value[t]) and rest:
            best = min(best, self.value[t] + self.discarding(rest))
        self.discards[left] = best
        return best

    def without_one(self, t: int) -> int:
        """The whole hand but one card of type t (packed)."""
        return self.start - (1 << (t * _W))

    def best(self) -> list[Key]:
        """The melds of the layout that leaves the least deadwood; where several do, the
        first when each lists its melds in meld order (`meld_order`), compared meld by
        meld: a fixed choice that a rule can state in words."""
        if not self.cands:
            return []
        least = self.least(self.start)
        ties = self.ties(self.start, least)
        return list(min(ties, key=lambda melds: sorted(self.meld_order(m) for m in melds)))

    def ties(self, left: int, target: int) -> list[tuple[Key, ...]]:
        """Every layout of `left` that leaves `target` deadwood (as its melds; a card left
        out is no meld), at most MOST_LAYOUTS of them."""
        if not left:
            return [()]
        t = self.first(left)
        out: list[tuple[Key, ...]] = []
        rest = left - (1 << (t * _W))
        if self.value[t] + self.least(rest) == target:
            out.extend(self.ties(rest, target - self.value[t]))
        for packed, key in self.melds_with(t, left):
            if self.least(left - packed) == target:
                out.extend((key, *tail) for tail in self.ties(left - packed, target))
            if len(out) > MOST_LAYOUTS:
                break
        return out[:MOST_LAYOUTS]

    def meld_order(self, key: Key) -> tuple[int, ...]:
        """Where a meld stands in meld order: its kind's place among the kinds declared,
        longer melds first, then a set by its rank and suits, a run by its suit and its
        lowest rank (ranks and suits in the deck's order)."""
        hand, kinds = self.hand, self.kinds
        naturals = [t for t, c in enumerate(key) for _ in range(c) if not hand.wild[t]]
        ranks = sorted(hand.rank[t] for t in naturals)
        is_set = not ranks or ranks[0] == ranks[-1]
        place = next((i for i, k in enumerate(kinds) if k.run != is_set), 0)
        if is_set:
            return (place, -sum(key), ranks[0] if ranks else -1,
                    *sorted(hand.suit[t] for t in naturals))
        return (place, -sum(key), hand.suit[naturals[0]], ranks[0])

    def partitions(self, left: int, site: int) -> set[tuple[Key, ...]]:
        """Every way to lay all of `left` in melds, as sorted tuples of keys."""
        if not left:
            return {()}
        out: set[tuple[Key, ...]] = set()
        if any(left >> (t * _W) & ((1 << _W) - 1) for t in self.dead):
            return out  # a card in no meld: no layout lays it
        t = self.first(left)
        self.work.charge(1)
        for packed, key in self.melds_with(t, left):
            for tail in self.partitions(left - packed, site):
                out.add(tuple(sorted((key, *tail), reverse=True)))
                if len(out) > MOST_LAYOUTS:
                    raise RuleFault(f"meld_layouts: more than {MOST_LAYOUTS} layouts", site)
        return out

    def cards(self, melds: Sequence[Key]) -> list[tuple[int, ...]]:
        """Melds of types as melds of card ids, each type's lowest ids first. Melds are
        tuples, so that a move may choose one (an action is a tuple of values)."""
        used = [0] * len(self.hand.ids)
        out = []
        for key in melds:
            meld: list[int] = []
            for t, c in enumerate(key):
                meld.extend(self.hand.ids[t][used[t]:used[t] + c])
                used[t] += c
            out.append(tuple(meld))
        return out


def is_meld(rules: MeldRules, cards: Sequence[int], site: int) -> bool:
    """Whether the cards, all of them, form one meld of a declared kind."""
    if not cards:
        return False
    hand = _hand(rules, cards, "is_meld", site)
    whole = tuple(len(ids) for ids in hand.ids)
    return whole in set(_candidates(rules, hand, work=_Work("is_meld", site, len(cards))))


def melds_in(rules: MeldRules, cards: Sequence[int], site: int) -> list[tuple[int, ...]]:
    """Every distinct meld that some of the cards form, largest first."""
    hand = _hand(rules, cards, "melds_in", site)
    search = _Search(rules, hand, what="melds_in", site=site)
    return [search.cards([key])[0] for key in search.cands]


def can_meld(rules: MeldRules, cards: Sequence[int], site: int) -> bool:
    """Whether the cards can be laid, every one of them, in melds."""
    search = _Search(rules, _hand(rules, cards, "can_meld", site, pool=True), counted=False,
                     what="can_meld", site=site)
    return search.least(search.start) == 0  # every card counts 1 here, whatever its value


def meld_layouts(rules: MeldRules, cards: Sequence[int], site: int
                 ) -> list[tuple[tuple[int, ...], ...]]:
    """Every distinct way to lay all the cards in melds (none if there is no way)."""
    hand = _hand(rules, cards, "meld_layouts", site)
    if not cards:
        return [()]
    search = _Search(rules, hand, what="meld_layouts", site=site)
    return [tuple(search.cards(p)) for p in sorted(search.partitions(search.start, site),
                                                   reverse=True)]


def deadwood(rules: MeldRules, cards: Sequence[int], site: int,
             what: str = "deadwood") -> int:
    """The least total value of the cards left out of melds, over every layout: the value of
    the cards in no meld, and the least of the others' (kept by them)."""
    searchable(cards, what, site)
    live = live_cards(rules, cards)
    dead = sum(rules.value[c] for c in cards) - sum(rules.value[c] for c in live)
    return dead + _kept_least(rules, live, what, site) if live else dead


def _kept_least(rules: MeldRules, live: Sequence[int], what: str, site: int) -> int:
    """The least deadwood of cards that may meld (kept by them)."""
    key = ("deadwood", tuple(sorted(live)))
    found = rules._kept.get(key)
    if found is None:
        search = _Search(rules, _hand(rules, live, what, site, pool=True), what=what, site=site)
        found = _keep(rules, key, search.least(search.start))
    return found  # type: ignore[no-any-return]


def _keep(rules: MeldRules, key: tuple[str, tuple[int, ...]], answer: Any) -> Any:
    """Keep an answer (at most _KEPT_SEARCHES of them, then starting afresh)."""
    if len(rules._kept) > _KEPT_SEARCHES:
        rules._kept.clear()
    rules._kept[key] = answer
    return answer


def discard_deadwood(rules: MeldRules, cards: Sequence[int], site: int) -> int:
    """The least deadwood left after discarding one of the cards (the best one to discard):
    whether a player may knock or go down before the discard. A card in no meld leaves the
    others' least deadwood, and the highest of them is the one to discard of those; the
    cards that may meld are searched for their best discard in one search, whose memo
    serves every discard (kept by those cards)."""
    if not cards:
        raise RuleFault("discard_deadwood: no cards to discard", site)
    searchable(cards, "discard_deadwood", site)
    live = live_cards(rules, cards)
    melding = set(live)
    dead = [rules.value[c] for c in cards if c not in melding]
    best: list[int] = []
    if dead:
        best.append(sum(dead) - max(dead) + (
            _kept_least(rules, live, "discard_deadwood", site) if live else 0))
    if live:
        best.append(sum(dead) + _kept_discard(rules, live, site))
    return min(best)


def _kept_discard(rules: MeldRules, live: Sequence[int], site: int) -> int:
    """The least deadwood of cards that may meld once one of them is discarded (kept by
    them): the discard a choice of one search (searched whole) or each discard searched."""
    key = ("discard_deadwood", tuple(sorted(live)))
    found = rules._kept.get(key)
    if found is not None:
        return found  # type: ignore[no-any-return]
    search = _Search(rules, _hand(rules, live, "discard_deadwood", site, pool=True),
                     what="discard_deadwood", site=site)
    if not search.cands:  # no meld (wild cards alone): the highest card goes, the others count
        values = [v for v, ids in zip(search.value, search.hand.ids) for _ in ids]
        found = sum(values) - max(values)
    elif search.whole:  # one search, the discard a choice in it
        found = search.discarding(search.start)
    else:
        found = min(search.least(search.without_one(t)) for t in range(len(search.hand.ids)))
    return _keep(rules, key, found)  # type: ignore[no-any-return]


def best_melds(rules: MeldRules, cards: Sequence[int], site: int) -> list[tuple[int, ...]]:
    """The melds of a layout that leaves the least deadwood (where several do, the first in
    meld order: _Search.best)."""
    search = _Search(rules, _hand(rules, cards, "best_melds", site, pool=True),
                     what="best_melds", site=site)
    return search.cards(search.best())


def left_out(rules: MeldRules, cards: Sequence[int], site: int) -> list[int]:
    """The cards best_melds leaves out of its melds, in the order given: the deadwood itself,
    for a rule that counts it otherwise than by `deadwood` (such as less its highest card).
    Only the cards that may meld are searched (kept by them); the last answer is kept too."""
    given = tuple(cards)
    last = rules._last.get("left_out")
    if last is not None and last[0] == given:
        return list(last[1])
    searchable(cards, "left_out", site)
    live = live_cards(rules, cards)  # the others are left out of every meld
    if not live:
        rules._last["left_out"] = (given, given)
        return list(cards)
    key = ("left_out", tuple(sorted(live)))
    melded = rules._kept.get(key)
    if melded is None:
        search = _Search(rules, _hand(rules, live, "left_out", site, pool=True),
                         what="left_out", site=site)
        melded = _keep(rules, key, frozenset(
            c for meld in search.cards(search.best()) for c in meld))
    out = [c for c in cards if c not in melded]
    rules._last["left_out"] = (given, tuple(out))
    return out


# What generated code may call of this module: the meld built-ins (dsl/binding.py binds these).
EXPORTED = ("is_meld", "melds_in", "can_meld", "meld_layouts", "deadwood", "discard_deadwood",
            "best_melds", "left_out")


def run_shown(rules: MeldRules, cards: Sequence[int]) -> tuple[list[int], dict[int, int]] | None:
    """A laid run as people read it: `cards`, which form one run of a declared kind, in the
    order the run climbs, with each wild card that fills a gap between two natural cards and
    the card it stands for (a card of that rank and suit; none where it is such a card
    itself, a wild 2 in a run of its suit); None where the cards
    are not one run, or read as more than one meld (a natural and wild cards alone may be a
    set as well). Wild cards beyond the naturals stand at the run's top end where there is
    room (else at its foot), not named: a natural card may take either end. Only what the
    cards show is read: it is for the views, never for the rules."""
    if len(cards) < 2 or any(not (0 <= c < len(rules.wild)) for c in cards):
        return None
    naturals = [c for c in cards if not rules.wild[c]]
    wilds = [c for c in cards if rules.wild[c]]
    if not naturals or len({rules.suit[c] for c in naturals}) != 1 \
            or any(not 0 <= rules.rank[c] < rules.n_ranks for c in naturals):
        return None
    fits = [kind for kind in rules.kinds if _fits(kind, len(wilds))]
    if any(not kind.run for kind in fits) and len({rules.rank[c] for c in naturals}) == 1:
        return None  # (a set of that rank as well)
    best: tuple[list[int], dict[int, int]] | None = None
    for kind in fits:
        if not kind.run:
            continue
        found = _climb(rules, kind, naturals, wilds)
        if found is not None:
            if best is not None and found[0] != best[0]:
                return None  # (runs of two kinds that read differently)
            best = found
    return best


def _fits(kind: MeldKind, wilds: int) -> bool:
    """Whether a meld of this kind may hold so many wild cards (its length is not asked: a
    laid meld may have grown beyond what a lay-down allows)."""
    return kind.wilds < 0 or wilds <= kind.wilds


def _climb(rules: MeldRules, kind: MeldKind, naturals: list[int],
           wilds: list[int]) -> tuple[list[int], dict[int, int]] | None:
    """The run `naturals` and `wilds` make in the kind's rank order (see run_shown). Of the
    stretches of ranks that take every natural card once, the one where most wild cards
    are the very card of a place (a 2 of the run's suit where its 2 goes), then the one with
    the fewest wild cards below the lowest natural, so that spare ones go on top. A wild card
    that is the card of a place takes it; the others fill the rest from the foot up, in
    the order they were laid."""
    order, circle = rules.order(kind.ace)
    span, size = len(order), len(naturals) + len(wilds)
    by_rank = {rules.rank[c]: c for c in naturals}
    if len(by_rank) != len(naturals) or size > (span if circle else len(order)):
        return None
    suit = rules.suit[naturals[0]]
    own = {rules.rank[w] for w in wilds if rules.suit[w] == suit}  # (wild ranks of the suit)
    best: tuple[int, int, list[int]] | None = None
    for start in range(span) if circle else range(span - size + 1):
        ranks = [order[(start + i) % span] for i in range(size)]
        if len(set(ranks)) != len(ranks) or not set(by_rank) <= set(ranks):
            continue
        fits = len({r for r in ranks if r not in by_rank} & own)
        below = min(i for i, r in enumerate(ranks) if r in by_rank)
        if best is None or (fits, -below) > best[:2]:
            best = (fits, -below, ranks)
    if best is None:
        return None
    ranks = best[2]
    out: list[int | None] = [by_rank.get(r) for r in ranks]
    spare = []
    for w in wilds:  # a wild card that is the card of a free place takes it
        at = ranks.index(rules.rank[w]) if rules.rank[w] in ranks else -1
        if rules.suit[w] == suit and at >= 0 and out[at] is None:
            out[at] = w
        else:
            spare.append(w)
    # the cards in place, naturals and wild cards in their own places: what lies between two
    # of them can only be the card of its place
    placed = [i for i, c in enumerate(out) if c is not None]
    stands: dict[int, int] = {}
    left = iter(spare)
    for i, r in enumerate(ranks):
        if out[i] is None:
            wild = out[i] = next(left)
            if placed[0] < i < placed[-1]:
                stand_in = _card_of(rules, r, suit)
                if stand_in is not None:
                    stands[wild] = stand_in
    return [c for c in out if c is not None], stands


def _card_of(rules: MeldRules, rank: int, suit: int) -> int | None:
    """A card of this rank and suit (the first of the deck's copies), if the deck has one."""
    for c in range(len(rules.rank)):
        if rules.rank[c] == rank and rules.suit[c] == suit:
            return c
    return None
