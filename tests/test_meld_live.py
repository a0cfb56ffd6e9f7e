"""The cards a hand may meld (`meld_candidates.live_cards`): exactly the cards of the melds the
hand allows where no wild card of it may stand in one; and `deadwood`, `discard_deadwood` and
`left_out`, which search those alone and keep their answers by them, answer as a search of the
whole hand does."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardrules.errors import RuleFault
from cardrules.interpreter.meld_candidates import _candidates, _hand, live_cards
from cardrules.interpreter.melding import (
    MOST_MELD_CARDS,
    MeldKind,
    MeldRules,
    _Search,
    deadwood,
    discard_deadwood,
    left_out,
)

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "Joker")
SUITS = "CDHS"


def rules(*kinds: MeldKind, copies: int = 1, wild_rank: str | None = None,
          jokers: int = 0, less: int = 0) -> MeldRules:
    """Kinds over `copies` 52-card decks (ids deck by deck, suit by suit, rank by rank), then
    `jokers` jokers (of no suit's rank, wild where `wild_rank` is 'Joker'); a card counts
    its number, 10 at most, less `less`."""
    cards = [(r, s) for _ in range(copies) for s in range(4) for r in range(13)]
    cards += [(13, i % 4) for i in range(jokers)]
    return MeldRules(kinds, [r for r, _ in cards], [s for _, s in cards],
                     [RANKS[r] == wild_rank for r, _ in cards],
                     [RANKS[r] + ("" if r == 13 else SUITS[s]) for r, s in cards],
                     [min(r + 1, 10) - less for r, _ in cards], 13, 0)


SET = MeldKind("set", False, 3, 4, 0)
KINDS = {
    "gin": rules(SET, MeldKind("run", True, 3, 5, 0, "low")),
    "high": rules(MeldKind("run", True, 3, 0, 0, "high")),
    "both": rules(SET, MeldKind("run", True, 3, 0, 0, "both")),
    "wrap": rules(MeldKind("set", False, 2, 0, 0), MeldKind("run", True, 4, 0, 0, "wrap")),
    "long runs and no sets of 3": rules(MeldKind("set", False, 3, 2, 0),
                                        MeldKind("run", True, 5, 6, 0, "low")),
    "runs of one": rules(MeldKind("run", True, 1, 1, 0, "low")),
    "two kinds of run": rules(MeldKind("run", True, 3, 3, 0, "low"),
                              MeldKind("run", True, 4, 0, 0, "wrap")),
    "two decks": rules(SET, MeldKind("run", True, 3, 0, 0, "wrap"), copies=2),
    "jokers not wild": rules(SET, MeldKind("run", True, 3, 0, 0, "low"), jokers=2),
    "cards counting less than nothing": rules(SET, MeldKind("run", True, 3, 0, 0, "low"),
                                              less=6),
    "2s wild": rules(MeldKind("set", False, 3, 0, -1), MeldKind("run", True, 4, 0, 1, "wrap"),
                     copies=2, wild_rank="2"),
    "2s wild in no meld": rules(SET, MeldKind("run", True, 3, 0, 0, "low"), wild_rank="2"),
    "jokers wild": rules(SET, MeldKind("run", True, 3, 0, 2, "low"), jokers=2,
                         wild_rank="Joker"),
}


def melded(meld_rules: MeldRules, cards: list[int]) -> set[int]:
    """The cards of every meld the whole hand allows (each copy of a card's name)."""
    hand = _hand(meld_rules, cards, "test", 0, pool=True)
    return {c for key in _candidates(meld_rules, hand)
            for t, count in enumerate(key) if count for c in hand.ids[t]}


def left_out_whole(meld_rules: MeldRules, cards: list[int]) -> list[int]:
    """left_out as a search of the whole hand answers it."""
    search = _Search(meld_rules, _hand(meld_rules, cards, "left_out", 0, pool=True))
    best = {c for meld in search.cards(search.best()) for c in meld}
    return [c for c in cards if c not in best]


def deadwood_whole(meld_rules: MeldRules, cards: list[int]) -> int:
    """The least deadwood as a search of the whole hand answers it."""
    search = _Search(meld_rules, _hand(meld_rules, cards, "deadwood", 0, pool=True))
    return search.least(search.start)


def hands(meld_rules: MeldRules, seed: int, count: int = 150) -> list[list[int]]:
    rng = random.Random(seed)
    deck = range(len(meld_rules.names))
    return [rng.sample(deck, rng.choice((0, 1, 3, 7, 10, 11, 14, 20, 30))) for _ in range(count)]


@pytest.mark.parametrize("name", sorted(KINDS))
def test_the_live_cards_are_the_cards_of_the_melds_a_hand_allows(name: str) -> None:
    meld_rules = KINDS[name]
    wild = any(k.wilds != 0 for k in meld_rules.kinds)
    for cards in hands(meld_rules, 1):
        live = live_cards(meld_rules, cards)
        some = melded(meld_rules, cards)
        if wild and any(meld_rules.wild[c] for c in cards):
            assert live == cards  # (a wild card may stand anywhere: every card is searched)
        else:
            assert live == [c for c in cards if c in some], [meld_rules.names[c] for c in cards]


@pytest.mark.parametrize("name", sorted(KINDS))
def test_left_out_answers_as_a_search_of_the_whole_hand(name: str) -> None:
    meld_rules = KINDS[name]
    for cards in hands(meld_rules, 2) + hands(meld_rules, 2):  # (the second time, as kept)
        assert left_out(meld_rules, cards, 0) == left_out_whole(meld_rules, cards)


@pytest.mark.parametrize("name", sorted(KINDS))
def test_deadwood_and_the_best_discard_are_a_search_of_the_whole_hand(name: str) -> None:
    meld_rules = KINDS[name]
    wild = any(k.wilds != 0 for k in meld_rules.kinds)
    for cards in hands(meld_rules, 3, 60) + hands(meld_rules, 3, 60):  # (then as kept)
        assert deadwood(meld_rules, cards, 0) == deadwood_whole(meld_rules, cards)
        # (a hand that melds wild cards is searched whole: a few of those suffice here)
        if cards and not (wild and len(cards) > 11 and any(meld_rules.wild[c] for c in cards)):
            assert discard_deadwood(meld_rules, cards, 0) == min(
                deadwood_whole(meld_rules, cards[:i] + cards[i + 1:]) for i in range(len(cards)))


def test_answers_are_kept_only_for_hands_that_meld() -> None:
    meld_rules = rules(SET, MeldKind("run", True, 3, 0, 0, "low"))
    assert left_out(meld_rules, [0, 14, 28, 42], 0) == [0, 14, 28, 42]  # (nothing melds)
    assert deadwood(meld_rules, [0, 14, 28, 42], 0) == 10
    assert discard_deadwood(meld_rules, [0, 14, 28, 42], 0) == 6
    assert meld_rules._kept == {}
    assert left_out(meld_rules, [5, 0, 1, 2, 20], 0) == [5, 20]  # A-2-3 of clubs
    assert left_out(meld_rules, [0, 1, 2, 30], 0) == [30]  # the same run, kept
    assert discard_deadwood(meld_rules, [5, 0, 1, 2, 20], 0) == 6  # (the 9 goes)
    assert discard_deadwood(meld_rules, [3, 0, 1, 2], 0) == 0  # (A-2-3-4: either end goes)
    assert list(meld_rules._kept) == [("left_out", (0, 1, 2)), ("deadwood", (0, 1, 2)),
                                      ("discard_deadwood", (0, 1, 2)),
                                      ("discard_deadwood", (0, 1, 2, 3))]
    meld_rules.forget()
    assert meld_rules._kept == {} and meld_rules._last == {}
    first = left_out(meld_rules, [30, 2, 1, 0], 0)
    first.append(99)  # (an answer is the caller's own, and asked again is as it was)
    assert left_out(meld_rules, [30, 2, 1, 0], 0) == [30]
    assert left_out(meld_rules, [2, 1, 0, 30], 0) == [30]


@pytest.mark.parametrize("search", [left_out, deadwood, discard_deadwood])
def test_a_search_of_too_many_cards_is_a_fault_at_its_place(search: Any) -> None:
    meld_rules = rules(SET, copies=2)
    with pytest.raises(RuleFault, match=f"{search.__name__}: {MOST_MELD_CARDS + 1} cards"):
        search(meld_rules, list(range(0, 104, 4))[:20] + list(range(1, 104, 2))[:41], 7)
