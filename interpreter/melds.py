"""Contract rummy goals: every way to lay down trios and staircases from a hand.

A *trio* is 3 cards whose non-wild cards share one rank; a *staircase* is 4 cards that are
a run and a flush, wild cards filling the gaps (with ``longer``, 3 or more and 4 or more).
The checks themselves are `is_set`, `is_run` and `is_flush` from runtime.py; this module only
searches for partitions of a hand into such melds.

How the search works
--------------------
* Cards that share a name (the two "7H" of two decks) are interchangeable, so the hand is
  grouped into *types*, one per name, each with its card ids.
* A meld is first chosen as a *skeleton*: the natural (non-wild) types it holds plus how
  many wild cards it needs. A trio's skeleton is some naturals of one rank and 3 - m wilds;
  a staircase's is one natural per rank inside a window of consecutive ranks of one suit,
  wilds filling the rest. All skeletons a hand allows are listed once, and each is checked
  with the runtime.py helpers on real cards of the hand.
* Staircases are picked first (they have few candidates), then trios, each kind as a
  multiset of skeletons (indices never decrease, so no permutation is produced twice).
  After every pick a closed-form test (`_trios_fit`) says whether the trios still wanted
  can be made from what is left; branches that cannot are cut. That test alone decides
  the trio part, which is what keeps `can_meet` fast.
* Only for a complete skeleton layout are the wild cards' names chosen: each meld takes a
  sub-multiset of the wild names left; melds with the same skeleton take theirs in
  non-decreasing order, so swapping them is not counted twice.
* Finally each name's copies are handed out lowest id first, melds in their canonical order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, product

from cardrules.errors import RuleFault
from cardrules.interpreter.runtime import is_flush, is_run, is_set

Layout = tuple[tuple[int, ...], ...]  # melds, each a tuple of card ids
# A layout as the player sees it: (trios, staircases), each meld a sorted tuple of types.
_TypeLayout = tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]


@dataclass(frozen=True)
class _Hand:
    """A hand grouped by card name. Types are ordered by (rank, suit, name)."""

    ids: tuple[tuple[int, ...], ...]  # per type: its card ids, ascending
    rank: tuple[int, ...]  # per type
    suit: tuple[int, ...]  # per type
    wild_types: tuple[int, ...]  # the wild types, ascending
    wild_ids: tuple[int, ...]  # every wild card of the hand
    n_rank_slots: int  # one more than the highest natural rank in the hand (at least 1)
    clash: bool  # whether two names share a (rank, suit): then melds need a real sort


@dataclass(frozen=True)
class _Skeleton:
    """A meld before its wild cards are named."""

    naturals: tuple[int, ...]  # natural types, ascending, one entry per card
    uses: tuple[tuple[int, int], ...]  # (type, how many) for the naturals
    wilds: int  # how many wild cards it takes
    low: int  # trios: the rank, or past every rank when all wild; staircases: unused


class _Pool:
    """What is left of the hand during the search: counts per type and rank, and wilds."""

    def __init__(self, hand: _Hand) -> None:
        self.rank = hand.rank
        self.counts = [len(ids) for ids in hand.ids]
        self.per_rank = [0] * hand.n_rank_slots
        wild_set = set(hand.wild_types)
        for t, n in enumerate(self.counts):
            if t not in wild_set:
                self.per_rank[hand.rank[t]] += n
        self.naturals = sum(self.per_rank)
        self.wilds = len(hand.wild_ids)

    def take(self, sk: _Skeleton) -> bool:
        """Remove a skeleton's cards if they are all left; tell whether it was done."""
        if sk.wilds > self.wilds or any(self.counts[t] < n for t, n in sk.uses):
            return False
        for t, n in sk.uses:
            self.counts[t] -= n
            self.per_rank[self.rank[t]] -= n
        self.naturals -= len(sk.naturals)
        self.wilds -= sk.wilds
        return True

    def give(self, sk: _Skeleton) -> None:
        """Undo `take`."""
        for t, n in sk.uses:
            self.counts[t] += n
            self.per_rank[self.rank[t]] += n
        self.naturals += len(sk.naturals)
        self.wilds += sk.wilds


# ------------------------------------------------------------------ grouping the hand
def _group(cards: Sequence[int], rank: Sequence[int], suit: Sequence[int],
           wild: Sequence[bool], names: Sequence[str]) -> _Hand:
    """Group a hand's cards by name, checking that copies agree on rank, suit and wildness."""
    if len(set(cards)) != len(cards):
        raise ValueError("a card id appears twice in the hand")
    by_name: dict[str, list[int]] = {}
    for c in sorted(cards):
        by_name.setdefault(names[c], []).append(c)
    for name, copies in by_name.items():
        if len({(rank[c], suit[c], bool(wild[c])) for c in copies}) > 1:
            raise ValueError(f"cards named {name!r} differ in rank, suit or wildness")
    order = sorted(by_name, key=lambda n: (rank[by_name[n][0]], suit[by_name[n][0]], n))
    ids = tuple(tuple(by_name[n]) for n in order)
    firsts = [i[0] for i in ids]
    wild_types = tuple(t for t, c in enumerate(firsts) if wild[c])
    natural_ranks = [rank[c] for c in firsts if not wild[c]]
    faces = [(rank[c], suit[c]) for c in firsts]
    return _Hand(ids=ids, rank=tuple(rank[c] for c in firsts),
                 suit=tuple(suit[c] for c in firsts), wild_types=wild_types,
                 wild_ids=tuple(c for t in wild_types for c in ids[t]),
                 n_rank_slots=max(natural_ranks, default=-1) + 1 or 1,
                 clash=len(set(faces)) != len(faces))


def _skeleton(naturals: Sequence[int], wilds: int, low: int) -> _Skeleton:
    nat = tuple(sorted(naturals))
    uses = tuple((t, nat.count(t)) for t in sorted(set(nat)))
    return _Skeleton(naturals=nat, uses=uses, wilds=wilds, low=low)


def _sample(hand: _Hand, naturals: Sequence[int], wilds: int) -> list[int]:
    """Real card ids of the hand making up a skeleton (to check it with the ops helpers)."""
    seen: dict[int, int] = {}
    out = []
    for t in naturals:
        out.append(hand.ids[t][seen.get(t, 0)])
        seen[t] = seen.get(t, 0) + 1
    return out + list(hand.wild_ids[:wilds])


# ------------------------------------------------------------------ candidate melds
def _trio_skeletons(hand: _Hand, rank: tuple[int, ...], wild: tuple[bool, ...],
                    longer: bool) -> list[_Skeleton]:
    """Every trio skeleton the hand allows, by rank, the all-wild ones last."""
    n_wild = len(hand.wild_ids)
    wild_set = set(hand.wild_types)
    by_rank: dict[int, list[int]] = {}
    for t, r in enumerate(hand.rank):
        if t not in wild_set:
            by_rank.setdefault(r, []).append(t)
    found: list[_Skeleton] = []
    for r in sorted(by_rank):
        types = by_rank[r]
        for takes in product(*(range(len(hand.ids[t]) + 1) for t in types)):
            m = sum(takes)
            if m == 0:
                continue
            naturals = [t for t, n in zip(types, takes) for _ in range(n)]
            extra = range(max(0, 3 - m), n_wild + 1) if longer else (3 - m,) if m <= 3 else ()
            for k in extra:
                if k <= n_wild and is_set(rank, wild, _sample(hand, naturals, k)):
                    found.append(_skeleton(naturals, k, r))
    all_wild = range(3, n_wild + 1) if longer else (3,) if n_wild >= 3 else ()
    found.extend(_skeleton((), k, hand.n_rank_slots) for k in all_wild)
    return sorted(found, key=lambda s: (s.low, s.naturals, s.wilds))


def _staircase_skeletons(hand: _Hand, rank: tuple[int, ...], suit: tuple[int, ...],
                         wild: tuple[bool, ...], n_ranks: int, wrap: bool,
                         longer: bool) -> list[_Skeleton]:
    """Every staircase skeleton the hand allows, the all-wild ones last."""
    n_wild = len(hand.wild_ids)
    wild_set = set(hand.wild_types)
    by_suit: dict[int, dict[int, list[int]]] = {}
    for t, (r, s) in enumerate(zip(hand.rank, hand.suit)):
        if t not in wild_set and 0 <= r < n_ranks:
            by_suit.setdefault(s, {}).setdefault(r, []).append(t)
    sizes = range(4, n_ranks + 1) if longer else (4,) if n_ranks >= 4 else ()
    shapes: set[tuple[tuple[int, ...], int]] = set()
    for by_rank in by_suit.values():
        for size in sizes:
            for start in range(n_ranks) if wrap else range(n_ranks - size + 1):
                window = [(start + i) % n_ranks for i in range(size)]
                present = [r for r in window if r in by_rank]
                for m in range(max(1, size - n_wild), len(present) + 1):
                    for chosen in combinations(present, m):
                        for types in product(*(by_rank[r] for r in chosen)):
                            shapes.add((tuple(sorted(types)), size - m))
    shapes.update(((), size) for size in sizes if size <= n_wild)
    found = []
    for naturals, k in sorted(shapes, key=lambda p: (not p[0], p)):
        cards = _sample(hand, naturals, k)
        if is_run(rank, wild, n_ranks, cards, wrap) and is_flush(suit, wild, cards):
            found.append(_skeleton(naturals, k, 0))
    return found


# ------------------------------------------------------------------ the search
def _trios_fit(needed: int, per_rank: Sequence[int], wilds: int, low: int = 0) -> bool:
    """Whether `needed` trios can be made from naturals of ranks >= low and `wilds` wilds.

    Exact: from c naturals of one rank, the first c // 3 trios need no wild, the next
    needs 3 - c % 3 (3 if c % 3 == 0), every later one 3. Those costs never decrease, so
    taking the cheapest trios first is optimal.
    """
    if needed <= 0:
        return True
    free = ones = twos = 0
    for c in per_rank[low:]:
        free += c // 3
        if c % 3 == 2:
            ones += 1
        elif c % 3 == 1:
            twos += 1
    needed -= free
    if needed <= 0:
        return True
    one = min(needed, ones)
    two = min(needed - one, twos)
    return one + 2 * two + 3 * (needed - one - two) <= wilds


Check = Callable[[_Pool, int, _Skeleton], bool]
_SubCache = dict[tuple[tuple[int, ...], int], list[tuple[tuple[int, ...], tuple[int, ...]]]]


def _pick(cands: Sequence[_Skeleton], count: int, start: int, pool: _Pool,
          ok: Check) -> Iterator[tuple[int, ...]]:
    """Multisets of `count` candidate indices (non-decreasing, from `start`) that fit the pool.

    While a result is being looked at, the pool has its skeletons taken out; `ok(pool,
    left, skeleton)` is asked after each pick and cuts the branch when it says no.
    """
    if count == 0:
        yield ()
        return
    for j in range(start, len(cands)):
        sk = cands[j]
        if not pool.take(sk):
            continue
        if ok(pool, count - 1, sk):
            for rest in _pick(cands, count - 1, j, pool, ok):
                yield (j, *rest)
        pool.give(sk)


def _staircase_check(trios: int) -> Check:
    """After a staircase is picked: are there enough cards, and can the trios still be made?"""
    def ok(pool: _Pool, left: int, sk: _Skeleton) -> bool:
        if pool.naturals + pool.wilds < 4 * left + 3 * trios:
            return False
        return _trios_fit(trios, pool.per_rank, pool.wilds)
    return ok


def _trio_check(pool: _Pool, left: int, sk: _Skeleton) -> bool:
    """After a trio is picked: can the trios left be made from its rank upwards?"""
    return _trios_fit(left, pool.per_rank, pool.wilds, sk.low)


def _submultisets(counts: Sequence[int], k: int, i: int = 0) -> list[tuple[int, ...]]:
    """Every way to take k items from the multiset counts[i:], as ascending positions."""
    if k == 0:
        return [()]
    out: list[tuple[int, ...]] = []
    for j in range(i, len(counts)):
        for n in range(min(k, counts[j]), 0, -1):
            out.extend((j,) * n + rest for rest in _submultisets(counts, k - n, j + 1))
    return out


def _fillings(melds: Sequence[_Skeleton], same: Sequence[bool], counts: list[int],
              wild_types: Sequence[int], cache: _SubCache, i: int = 0,
              prev: tuple[int, ...] = ()) -> Iterator[list[tuple[int, ...]]]:
    """Every way to name the wild cards of melds[i:], from `counts` wilds per wild type.

    Yields the melds' contents: their natural and wild types, ascending. A meld with the
    same skeleton as the one before it (same[i]) takes a choice of wilds no smaller than
    that one's, so swapping the two is produced once. `cache` keeps the sub-multisets
    already worked out, by (counts, size): as positions in `counts` and as types.
    """
    if i == len(melds):
        yield []
        return
    meld = melds[i]
    key = (tuple(counts), meld.wilds)
    subs = cache.get(key)
    if subs is None:
        subs = cache[key] = [(sub, tuple(wild_types[p] for p in sub))
                             for sub in _submultisets(counts, meld.wilds)]
    for sub, types in subs:
        if same[i] and sub < prev:
            continue
        content = tuple(sorted(meld.naturals + types)) if types else meld.naturals
        for p in sub:
            counts[p] -= 1
        for rest in _fillings(melds, same, counts, wild_types, cache, i + 1, sub):
            rest.append(content)
            yield rest
        for p in sub:
            counts[p] += 1


def _deal_ids(hand: _Hand, contents: Sequence[tuple[int, ...]], rank: Sequence[int],
              suit: Sequence[int]) -> Layout:
    """Turn melds of types into melds of card ids, each name's lowest ids first."""
    ids = hand.ids
    used = [0] * len(ids)
    out = []
    for content in contents:
        meld = []
        for t in content:
            j = used[t]
            meld.append(ids[t][j])
            used[t] = j + 1
        if hand.clash:
            meld.sort(key=lambda c: (rank[c], suit[c], c))
        out.append(tuple(meld))
    return tuple(out)


def _layouts_of(hand: _Hand, trio_melds: Sequence[_Skeleton],
                stair_melds: Sequence[_Skeleton], trio_idx: Sequence[int],
                stair_idx: Sequence[int], cache: _SubCache) -> Iterator[_TypeLayout]:
    """The layouts (as melds of types, canonically ordered) of one skeleton layout."""
    melds = [*trio_melds, *stair_melds]
    idx = [*trio_idx, *(-1 - j for j in stair_idx)]
    same = [i > 0 and idx[i] == idx[i - 1] for i in range(len(idx))]
    counts = [len(hand.ids[t]) for t in hand.wild_types]
    n_stairs = len(stair_melds)
    for contents in _fillings(melds, same, counts, hand.wild_types, cache):
        # `contents` comes back last meld first: staircases, then trios.
        yield tuple(sorted(contents[n_stairs:])), tuple(sorted(contents[:n_stairs]))


def _check_goal(trios: int, staircases: int) -> None:
    if trios < 0 or staircases < 0:
        raise ValueError("the numbers of trios and staircases must not be negative")


# ------------------------------------------------------------------ public API
def goal_layouts(cards: Sequence[int], rank: Sequence[int], suit: Sequence[int],
                 wild: Sequence[bool], names: Sequence[str], n_ranks: int, trios: int,
                 staircases: int, *, wrap: bool = True, longer: bool = False,
                 limit: int | None = None) -> list[Layout]:
    """Every distinct way to lay down `trios` trios and `staircases` staircases from `cards`.

    `rank`, `suit`, `wild` and `names` are tables indexed by card id (a joker has rank
    n_ranks). Not every card need be used. A trio has exactly 3 cards and a staircase 4,
    unless `longer`, when they may have 3 or more and 4 or more. `wrap` lets a staircase
    go round K-A.

    Layouts that differ only by swapping cards of the same name (copies from two decks)
    count once; the one kept hands each name's lowest ids to the melds in order. A layout
    lists its trios, then its staircases, each kind in a canonical order (by the cards'
    rank, suit and name); the cards of a meld are sorted by (rank, suit, id). The list is
    sorted by the same canonical key.

    `limit` stops the search once that many layouts are found (None: all); the result is
    still deterministic and sorted, but it is the first ones the search meets, not
    necessarily the first ones of the full sorted list.
    """
    _check_goal(trios, staircases)
    if limit is not None and limit < 0:
        raise ValueError("limit must not be negative")
    hand = _group(cards, rank, suit, wild, names)
    if limit == 0 or 3 * trios + 4 * staircases > len(cards):
        return []
    rank_t, suit_t, wild_t = tuple(rank), tuple(suit), tuple(wild)
    trio_cands = _trio_skeletons(hand, rank_t, wild_t, longer) if trios else []
    stair_cands = (_staircase_skeletons(hand, rank_t, suit_t, wild_t, n_ranks, wrap, longer)
                   if staircases else [])
    pool = _Pool(hand)
    if not _trios_fit(trios, pool.per_rank, pool.wilds):
        return []
    found: list[_TypeLayout] = []
    cache: _SubCache = {}
    for s_idx in _pick(stair_cands, staircases, 0, pool, _staircase_check(trios)):
        stair_melds = [stair_cands[j] for j in s_idx]
        for t_idx in _pick(trio_cands, trios, 0, pool, _trio_check):
            trio_melds = [trio_cands[j] for j in t_idx]
            for key in _layouts_of(hand, trio_melds, stair_melds, t_idx, s_idx, cache):
                found.append(key)
                if limit is not None and len(found) >= limit:
                    return _finish(hand, found, rank_t, suit_t)
    return _finish(hand, found, rank_t, suit_t)


def _finish(hand: _Hand, found: list[_TypeLayout], rank: Sequence[int],
            suit: Sequence[int]) -> list[Layout]:
    """Sort the layouts found (as melds of types) and give them card ids."""
    return [_deal_ids(hand, (*t, *s), rank, suit) for t, s in sorted(found)]


def can_meet(cards: Sequence[int], rank: Sequence[int], suit: Sequence[int],
             wild: Sequence[bool], names: Sequence[str], n_ranks: int, trios: int,
             staircases: int, *, wrap: bool = True) -> bool:
    """Whether `cards` can lay down `trios` trios and `staircases` staircases.

    Agrees with ``bool(goal_layouts(...))`` (with or without `longer`: a longer meld always
    holds an exact-size one). Only staircases are searched; the trios are then decided in
    closed form by `_trios_fit`.
    """
    _check_goal(trios, staircases)
    hand = _group(cards, rank, suit, wild, names)
    if 3 * trios + 4 * staircases > len(cards):
        return False
    pool = _Pool(hand)
    if not staircases:
        return _trios_fit(trios, pool.per_rank, pool.wilds)
    stair_cands = _staircase_skeletons(hand, tuple(rank), tuple(suit), tuple(wild), n_ranks,
                                       wrap, False)
    return any(True for _ in _pick(stair_cands, staircases, 0, pool, _staircase_check(trios)))


def rule_goal_layouts(rank: Sequence[int], suit: Sequence[int], wild: Sequence[bool],
                      names: Sequence[str], n_ranks: int, cards: Sequence[int], trios: int,
                      staircases: int, wrap: bool, longer: bool, site: int) -> list[Layout]:
    """`goal_layouts(...)` as rule text calls it (the card tables come first); a negative
    number of trios or staircases is the rule's fault."""
    if trios < 0 or staircases < 0:
        raise RuleFault(f"goal_layouts(..., {trios}, {staircases}, ...): the numbers of "
                        "trios and staircases must not be negative", site)
    return goal_layouts(cards, rank, suit, wild, names, n_ranks, trios, staircases,
                        wrap=wrap, longer=longer)
