"""A goal of melds to lay down (`lay_downs`, `can_lay_down` in interpreter/meld_goals.py) with
a contract rummy's kinds: worked examples, and random hands checked against a brute force
that tries every choice of disjoint card subsets with the runtime's is_set/is_run/is_flush.

Tables: two 52-card decks, ids 0..103 (deck, suit, rank), ranks A..K with A=0, suits 0..3
(C D H S), every 2 wild (and worth the same, so wild cards are interchangeable).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules.errors import RuleFault
from cardrules.interpreter import meld_goals, melding
from cardrules.interpreter.card_sets import is_flush, is_run, is_set, same_key

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = "CDHS"
N_RANKS = len(RANKS)
_CARDS = [(r, s) for _ in range(2) for s in range(4) for r in range(N_RANKS)]
RANK = tuple(r for r, _ in _CARDS)
SUIT = tuple(s for _, s in _CARDS)
WILD = tuple(RANKS[r] == "2" for r in RANK)
NAMES = tuple(RANKS[r] + SUITS[s] for r, s in _CARDS)
POINTS = tuple((15, 20, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10)[r] for r in RANK)

Layout = tuple[tuple[int, ...], ...]
NameLayout = tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]


# ------------------------------------------------------------------ helpers
@cache
def rules(wrap: bool = True, longer: bool = False) -> melding.MeldRules:
    """Trios of 3 and staircases of 4 (with `longer`, 3+ and 4+); `wrap`: K-A turns."""
    kinds = (melding.MeldKind("trio", False, 3, 0 if longer else 3, -1),
             melding.MeldKind("staircase", True, 4, 0 if longer else 4, -1,
                              "wrap" if wrap else "low"))
    return melding.MeldRules(kinds, RANK, SUIT, WILD, NAMES, POINTS, N_RANKS, 0)


def hand(*names: str) -> list[int]:
    """Card ids for the names, a name's first copy (deck 0) before its second."""
    ids, taken = [], set()
    for name in names:
        c = next(c for c in range(len(NAMES)) if NAMES[c] == name and c not in taken)
        taken.add(c)
        ids.append(c)
    return ids


def goal(trios: int, staircases: int) -> list[str]:
    return ["trio"] * trios + ["staircase"] * staircases


def layouts(cards: list[int], trios: int, staircases: int, wrap: bool = True,
            longer: bool = False) -> list[Layout]:
    return meld_goals.lay_downs(rules(wrap, longer), cards, goal(trios, staircases), 0)


def meets(cards: list[int], trios: int, staircases: int, wrap: bool = True) -> bool:
    return meld_goals.can_lay_down(rules(wrap), cards, goal(trios, staircases), 0)


def named(layout: Layout) -> list[list[str]]:
    return [[NAMES[c] for c in meld] for meld in layout]


def by_names(layout: Sequence[Sequence[int]], trios: int) -> NameLayout:
    """A layout as the player sees it: trios and staircases, each a sorted multiset, every
    wild card one 2 (they stand in alike and count alike)."""
    def kind(melds: Sequence[Sequence[int]]) -> tuple[tuple[str, ...], ...]:
        return tuple(sorted(tuple(sorted("2" if WILD[c] else NAMES[c] for c in m))
                            for m in melds))
    return kind(layout[:trios]), kind(layout[trios:])


def valid_trio(meld: Sequence[int]) -> bool:
    return is_set(RANK, WILD, list(meld))


def valid_staircase(meld: Sequence[int], wrap: bool) -> bool:
    return (is_run(RANK, WILD, N_RANKS, list(meld), wrap)
            and is_flush(SUIT, WILD, list(meld)))


def brute_force(cards: list[int], trios: int, staircases: int, wrap: bool = True,
                longer: bool = False) -> set[NameLayout]:
    """Every layout, trying every way to choose disjoint subsets of the allowed sizes."""
    found: set[NameLayout] = set()
    kinds = goal(trios, staircases)

    def extend(left: list[int], chosen: list[tuple[int, ...]]) -> None:
        if len(chosen) == len(kinds):
            found.add(by_names(chosen, trios))
            return
        kind = kinds[len(chosen)]
        smallest = 3 if kind == "trio" else 4
        for size in range(smallest, len(left) + 1) if longer else (smallest,):
            for meld in itertools.combinations(left, size):
                ok = valid_trio(meld) if kind == "trio" else valid_staircase(meld, wrap)
                if ok:
                    extend([c for c in left if c not in meld], [*chosen, meld])

    extend(list(cards), [])
    return found


def runs_in_order(meld: Sequence[int]) -> bool:
    """Whether natural cards of a run follow each other, K-A-2 turning the corner."""
    return all((RANK[b] - RANK[a]) % N_RANKS == 1 for a, b in zip(meld, meld[1:]))


def check_layouts(cards: list[int], result: list[Layout], trios: int, staircases: int,
                  wrap: bool = True, longer: bool = False) -> None:
    """Every layout is valid, disjoint, from the hand, in its fixed order; none repeated."""
    wilds = sorted(c for c in cards if WILD[c])
    first_wild = (RANK[wilds[0]], SUIT[wilds[0]]) if wilds else (0, 0)
    def shown(c: int) -> tuple[int, int, str, int]:
        return (*first_wild, "", c) if WILD[c] else (RANK[c], SUIT[c], NAMES[c], c)
    for layout in result:
        assert len(layout) == trios + staircases
        used = [c for meld in layout for c in meld]
        assert len(used) == len(set(used)), "a card is used twice"
        assert set(used) <= set(cards), "a card not in the hand"
        for i, meld in enumerate(layout):
            is_trio = i < trios
            size_ok = (len(meld) >= 3 if is_trio else len(meld) >= 4) if longer else \
                len(meld) == (3 if is_trio else 4)
            assert size_ok
            assert valid_trio(meld) if is_trio else valid_staircase(meld, wrap)
            if not is_trio and not any(WILD[c] for c in meld):
                assert runs_in_order(meld), named(layout)
            else:
                assert list(meld) == sorted(meld, key=shown)
        for name in {NAMES[c] for c in used if not WILD[c]}:  # each name's lowest ids
            mine = sorted(c for c in used if NAMES[c] == name)
            assert mine == sorted(c for c in cards if NAMES[c] == name)[:len(mine)]
        laid_wilds = sorted(c for c in used if WILD[c])  # the lowest wild cards
        assert laid_wilds == wilds[:len(laid_wilds)]
    seen = [by_names(layout, trios) for layout in result]
    assert len(seen) == len(set(seen)), "the same layout twice"


# ------------------------------------------------------------------ worked examples
@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 11), max_size=8), st.lists(st.integers(0, 3), min_size=12,
                                                          max_size=12),
       st.sets(st.integers(0, 11)))
def test_one_rank_and_one_suit_are_what_a_set_of_keys_says(
        cards: list[int], table: list[int], wild: set[int]) -> None:
    """same_key, is_set and is_flush stop at the first card that differs; they say what
    the set of the cards' entries (the wild cards' left out) says."""
    wilds = [c in wild for c in range(12)]
    assert same_key(table, cards) == (len({table[c] for c in cards}) <= 1)
    one = len({table[c] for c in cards if not wilds[c]}) <= 1
    assert is_set(table, wilds, cards) == one and is_flush(table, wilds, cards) == one


def test_two_trios_without_wilds() -> None:
    cards = hand("7H", "7S", "7D", "9C", "9D", "9S", "KH", "4C", "5D", "JS")
    assert meets(cards, 2, 0)
    result = layouts(cards, 2, 0)
    assert [named(x) for x in result] == [[["7D", "7H", "7S"], ["9C", "9D", "9S"]]]
    # One nine fewer and no wild card: the goal is out of reach.
    short = hand("7H", "7S", "7D", "9C", "9D", "KH", "4C", "5D", "JS", "QC")
    assert not meets(short, 2, 0)
    assert layouts(short, 2, 0) == []


def test_one_wild_cannot_fill_two_melds() -> None:
    cards = hand("7H", "7S", "9C", "9D", "2C", "KH", "4C", "5D", "JS", "QC")
    assert meets(cards, 1, 0)  # the 2 completes either pair...
    assert {tuple(sorted(named(x)[0])) for x in layouts(cards, 1, 0)} == {
        ("2C", "7H", "7S"), ("2C", "9C", "9D")}
    assert not meets(cards, 2, 0)  # ...but not both
    assert layouts(cards, 2, 0) == []
    # With a second 2 (another copy of the same card) both trios are there.
    both = [*cards, hand("2C", "2C")[1]]
    assert meets(both, 2, 0)
    assert [named(x) for x in layouts(both, 2, 0)] == [[["2C", "7H", "7S"], ["2C", "9C", "9D"]]]


def test_wilds_make_a_staircase_and_a_trio_together() -> None:
    cards = hand("5H", "6H", "8H", "2S", "KC", "KD", "2D", "3C", "JC", "10S")
    assert meets(cards, 1, 1)
    # The two 2s stand in alike: one layout, whichever 2 goes where.
    assert [named(x) for x in layouts(cards, 1, 1)] == [[["2D", "KC", "KD"],
                                                       ["2S", "5H", "6H", "8H"]]]
    assert not meets(hand("5H", "6H", "8H", "2S", "KC", "KD", "3C", "JC", "10S", "4D"), 1, 1)


@pytest.mark.parametrize("names", [("QH", "KH", "AH", "2C"), ("JH", "QH", "KH", "AH")])
def test_a_staircase_round_the_corner_needs_wrap(names: tuple[str, ...]) -> None:
    cards = hand(*names, "5C", "9D", "7S")
    assert meets(cards, 0, 1, wrap=True)
    result = layouts(cards, 0, 1, wrap=True)
    assert [sorted(named(x)[0]) for x in result] == [sorted(names)]
    if "2C" not in names:  # with no wild card, laid in the order it runs
        assert named(result[0]) == [list(names)]
    assert not meets(cards, 0, 1, wrap=False)
    assert layouts(cards, 0, 1, wrap=False) == []


def test_a_staircase_inside_the_ranks_needs_no_wrap() -> None:
    cards = hand("9H", "10H", "JH", "QH", "5C")
    for wrap in (True, False):
        assert meets(cards, 0, 1, wrap=wrap)
        assert [named(x) for x in layouts(cards, 0, 1, wrap=wrap)] == [
            [["9H", "10H", "JH", "QH"]]]


def test_cards_in_a_staircase_must_share_a_suit() -> None:
    cards = hand("9H", "10H", "JS", "QH", "5C")
    assert not meets(cards, 0, 1)
    assert meets([*cards, *hand("2D")], 0, 1)  # the 2 stands in for the jack of hearts


def test_identical_copies_give_no_duplicate_layouts() -> None:
    cards = hand("7H", "7H", "7S", "7S", "7D", "KC")
    result = layouts(cards, 1, 0)
    # C(5, 3) = 10 subsets of ids, but only 5 multisets of names.
    assert sorted(sorted(named(x)[0]) for x in result) == [
        ["7D", "7H", "7H"], ["7D", "7H", "7S"], ["7D", "7S", "7S"], ["7H", "7H", "7S"],
        ["7H", "7S", "7S"]]
    check_layouts(cards, result, 1, 0)
    # Two identical trios from two decks: one layout, lower ids in the first trio.
    six = hand("7H", "7H", "7S", "7S", "7D", "7D")
    twins = [x for x in layouts(six, 2, 0)
             if [sorted(m) for m in named(x)] == [["7D", "7H", "7S"]] * 2]
    assert len(twins) == 1
    assert max(twins[0][0]) < min(twins[0][1])
    assert {by_names(x, 2) for x in layouts(six, 2, 0)} == brute_force(six, 2, 0)


def test_wild_cards_of_one_value_are_interchangeable() -> None:
    cards = hand("7H", "7H", "7S", "7S", "2C", "2D")
    result = layouts(cards, 2, 0)
    check_layouts(cards, result, 2, 0)
    twins = [x for x in result
             if sorted(sorted(m) for m in named(x)) == [["2C", "7H", "7S"], ["2D", "7H", "7S"]]]
    assert len(twins) == 1
    assert sorted(twins[0][0] + twins[0][1]) == sorted(cards)
    assert {by_names(x, 2) for x in result} == brute_force(cards, 2, 0)


def test_longer_allows_a_four_card_trio_and_a_five_card_staircase() -> None:
    cards = hand("7C", "7D", "7H", "7S", "KD")
    assert len(layouts(cards, 1, 0)) == 4  # the four 3-card trios
    long = layouts(cards, 1, 0, longer=True)
    assert len(long) == 5
    assert [["7C", "7D", "7H", "7S"]] in [named(x) for x in long]
    run = hand("3S", "4S", "5S", "6S", "7S")
    assert all(len(x[0]) == 4 for x in layouts(run, 0, 1))
    assert [["3S", "4S", "5S", "6S", "7S"]] in [named(x) for x in layouts(run, 0, 1, longer=True)]


def test_all_wild_melds() -> None:
    cards = hand("2C", "2D", "2H", "2S", "5D")
    # wild cards are interchangeable: which three of the four 2s does not make a new trio
    assert [named(x) for x in layouts(cards, 1, 0)] == [[["2C", "2D", "2H"]],
                                                        [["2C", "2D", "5D"]]]
    stairs = [named(x)[0] for x in layouts(cards, 0, 1)]
    assert stairs == [["2C", "2D", "2H", "2S"], ["2C", "2D", "2H", "5D"]]


def test_no_goal_is_met_by_the_empty_layout() -> None:
    assert layouts(hand("5C"), 0, 0) == [()]
    assert meets(hand("5C"), 0, 0)
    assert layouts([], 1, 0) == [] and not meets([], 1, 0)


def test_melds_come_in_the_goals_order() -> None:
    cards = hand("7H", "7S", "7D", "9H", "10H", "JH", "QH", "5C")
    assert named(layouts(cards, 1, 1)[0]) == [["7D", "7H", "7S"], ["9H", "10H", "JH", "QH"]]
    found = meld_goals.lay_downs(rules(), cards, ["staircase", "trio"], 0)
    assert [named(x) for x in found] == [[["9H", "10H", "JH", "QH"], ["7D", "7H", "7S"]]]


@pytest.mark.parametrize("ace, cards, order", [
    ("high", ("KS", "AS", "QS"), ["QS", "KS", "AS"]),
    ("both", ("KS", "AS", "QS"), ["QS", "KS", "AS"]),
    ("both", ("3S", "AS", "2S"), ["AS", "2S", "3S"]),
    ("wrap", ("3S", "AS", "KS"), ["KS", "AS", "3S"]),
    ("low", ("3S", "AS", "4S"), ["AS", "3S", "4S"]),
])
def test_a_run_of_natural_cards_is_laid_in_the_order_it_runs(
        ace: str, cards: tuple[str, ...], order: list[str]) -> None:
    no_wilds = (False,) * len(NAMES)
    three = melding.MeldRules((melding.MeldKind("run", True, 3, 3, 0, ace),), RANK, SUIT,
                              no_wilds, NAMES, POINTS, N_RANKS, 0)
    found = meld_goals.lay_downs(three, hand(*cards, "9D"), ["run"], 0)
    if ace == "low" or cards == ("3S", "AS", "KS"):  # with no wild 2, no such run
        assert found == []
    else:
        assert [named(x) for x in found] == [[order]]


def test_order_of_the_hand_does_not_matter() -> None:
    rng = random.Random(3)
    cards = hand("7H", "7S", "2D", "9C", "9D", "8C", "10C", "2C", "JC", "KS", "KH", "KH", "5D")
    want = layouts(cards, 1, 1)
    assert want
    for _ in range(5):
        rng.shuffle(cards)
        assert layouts(cards, 1, 1) == want


def test_a_goal_with_an_unknown_kind_or_too_many_cards_is_the_rules_fault() -> None:
    cards = hand("7H", "7S", "7D")
    with pytest.raises(RuleFault, match="no meld kind 'set' .the kinds: trio, staircase"):
        meld_goals.lay_downs(rules(), cards, ["set"], 0)
    with pytest.raises(RuleFault, match="a goal names at most"):
        meld_goals.can_lay_down(rules(), cards, ["trio"] * (meld_goals.MOST_GOAL_MELDS + 1), 0)
    with pytest.raises(RuleFault, match="a meld search takes at most"):
        meld_goals.can_lay_down(rules(), list(range(melding.MOST_MELD_CARDS + 1)), ["trio"], 0)


# ------------------------------------------------------------------ random hands
@st.composite
def dense_hands(draw: st.DrawFn, low: int, high: int) -> list[int]:
    """Hands from a few neighbouring ranks, a few suits and every 2, so melds are common."""
    start = draw(st.integers(0, N_RANKS - 1))
    ranks = {(start + i) % N_RANKS for i in range(draw(st.integers(3, 6)))}
    suits = set(draw(st.sets(st.integers(0, 3), min_size=1, max_size=4)))
    pool = [c for c in range(len(NAMES))
            if WILD[c] or (RANK[c] in ranks and SUIT[c] in suits)]
    if len(pool) < high:  # too few cards: take every suit
        pool = [c for c in range(len(NAMES)) if WILD[c] or RANK[c] in ranks]
    return draw(st.lists(st.sampled_from(pool), min_size=low, max_size=high, unique=True))


@pytest.mark.parametrize("goal", [(2, 0), (1, 1), (0, 2)])
@settings(max_examples=120, deadline=None, database=None)
@given(cards=dense_hands(8, 11), wrap=st.booleans())
def test_random_hands_match_the_brute_force(goal: tuple[int, int], cards: list[int],
                                            wrap: bool) -> None:
    trios, staircases = goal
    want = brute_force(cards, trios, staircases, wrap)
    rules(wrap).forget()  # can_lay_down's own search first, then the listing's answer
    assert meets(cards, trios, staircases, wrap=wrap) == bool(want)
    result = layouts(cards, trios, staircases, wrap=wrap)
    check_layouts(cards, result, trios, staircases, wrap)
    assert {by_names(x, trios) for x in result} == want
    assert meets(cards, trios, staircases, wrap=wrap) == bool(want)


@pytest.mark.parametrize("goal", [(1, 0), (0, 1), (2, 0), (1, 1)])
@settings(max_examples=60, deadline=None, database=None)
@given(cards=dense_hands(6, 8), wrap=st.booleans())
def test_random_hands_with_longer_melds_match_the_brute_force(
        goal: tuple[int, int], cards: list[int], wrap: bool) -> None:
    trios, staircases = goal
    want = brute_force(cards, trios, staircases, wrap, longer=True)
    result = layouts(cards, trios, staircases, wrap=wrap, longer=True)
    check_layouts(cards, result, trios, staircases, wrap, longer=True)
    assert {by_names(x, trios) for x in result} == want
    assert meets(cards, trios, staircases, wrap=wrap) == bool(want)


@settings(max_examples=25, deadline=None, database=None)
@given(cards=dense_hands(13, 13),
       goal=st.sampled_from([(2, 0), (1, 1), (0, 2), (2, 1), (1, 2), (4, 0), (0, 3)]))
def test_thirteen_card_hands_give_valid_layouts(cards: list[int], goal: tuple[int, int]) -> None:
    trios, staircases = goal
    rules().forget()  # can_lay_down's own search, then the listing's answer
    met = meets(cards, trios, staircases)
    result = layouts(cards, trios, staircases)
    check_layouts(cards, result, trios, staircases)
    assert met == bool(result) == meets(cards, trios, staircases)
    assert layouts(sorted(cards, reverse=True), trios, staircases) == result
