"""Meld kinds declared in a ruleset (`melds:`) and the built-ins that search hands for them."""

from __future__ import annotations

import random
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from cardrules.dsl.loader import load_ruleset
from cardrules.errors import RuleFault
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.melding import (
    MOST_MELD_CARDS,
    MeldKind,
    MeldRules,
    best_melds,
    can_meld,
    deadwood,
    discard_deadwood,
    is_meld,
    meld_layouts,
    melds_in,
)
from cardrules.interpreter.sessions.play import play_game

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = "CDHS"


def deck(copies: int = 1, wild_rank: str | None = None) -> dict[str, list]:
    cards = [(r, s) for _ in range(copies) for s in range(4) for r in range(13)]
    return {"rank": [r for r, _ in cards], "suit": [s for _, s in cards],
            "wild": [RANKS[r] == wild_rank for r, _ in cards],
            "names": [RANKS[r] + SUITS[s] for r, s in cards],
            "value": [min(r + 1, 10) for r, _ in cards]}


def rules(*kinds: MeldKind, copies: int = 1, wild_rank: str | None = None) -> MeldRules:
    t = deck(copies, wild_rank)
    return MeldRules(kinds, t["rank"], t["suit"], t["wild"], t["names"], t["value"], 13, 0)


SETS = MeldKind("set", False, 3, 4, -1)
RUNS = MeldKind("run", True, 3, 0, -1, "low")
GIN = rules(SETS, RUNS)


def card(name: str, copy: int = 0) -> int:
    return copy * 52 + SUITS.index(name[-1]) * 13 + RANKS.index(name[:-1])


def cards(text: str) -> list[int]:
    return [card(c) for c in text.split()]


# ---------------------------------------------------------------- an oracle
def plain_meld(hand: tuple[int, ...]) -> bool:
    """Gin rummy's melds written out plainly: 3-4 of a rank, or 3+ running in a suit, A low."""
    ranks = sorted(c % 13 for c in hand)
    if len(set(ranks)) == 1:
        return 3 <= len(hand) <= 4
    return (len(hand) >= 3 and len({c // 13 for c in hand}) == 1
            and ranks == list(range(ranks[0], ranks[0] + len(hand))))


def oracle_deadwood(hand: list[int]) -> int:
    """The least deadwood by trying every set of disjoint melds (slow, obviously right)."""
    melds = [frozenset(m) for k in range(3, len(hand) + 1) for m in combinations(hand, k)
             if plain_meld(m)]
    best = sum(min(c % 13 + 1, 10) for c in hand)

    def go(i: int, used: frozenset[int]) -> None:
        nonlocal best
        best = min(best, sum(min(c % 13 + 1, 10) for c in hand if c not in used))
        for j in range(i, len(melds)):
            if not melds[j] & used:
                go(j + 1, used | melds[j])
    go(0, frozenset())
    return best


def test_least_deadwood_agrees_with_trying_every_layout() -> None:
    rng = random.Random(7)
    for _ in range(150):
        hand = rng.sample(range(52), rng.choice((7, 10, 11)))
        assert deadwood(GIN, hand, 0) == oracle_deadwood(hand), hand


def test_best_melds_leave_exactly_the_least_deadwood() -> None:
    rng = random.Random(8)
    for _ in range(100):
        hand = rng.sample(range(52), 10)
        melds = best_melds(GIN, hand, 0)
        laid = [c for m in melds for c in m]
        assert len(laid) == len(set(laid)) and set(laid) <= set(hand)
        assert all(is_meld(GIN, m, 0) for m in melds)
        left = sum(min(c % 13 + 1, 10) for c in hand if c not in laid)
        assert left == deadwood(GIN, hand, 0)


def test_discard_deadwood_is_the_least_over_every_discard() -> None:
    rng = random.Random(9)
    for _ in range(60):
        hand = rng.sample(range(52), 11)
        assert discard_deadwood(GIN, hand, 0) == min(
            deadwood(GIN, [c for c in hand if c != gone], 0) for gone in hand)
    with pytest.raises(RuleFault, match="no cards"):
        discard_deadwood(GIN, [], 3)


def test_sets_and_runs() -> None:
    assert is_meld(GIN, cards("7C 7D 7H"), 0) and is_meld(GIN, cards("7C 7D 7H 7S"), 0)
    assert not is_meld(GIN, cards("7C 7D"), 0)
    assert is_meld(GIN, cards("AC 2C 3C"), 0) and is_meld(GIN, cards("9H 10H JH QH KH"), 0)
    assert not is_meld(GIN, cards("QH KH AH"), 0)  # the ace stands low only
    assert not is_meld(GIN, cards("AC 2C 3D"), 0) and not is_meld(GIN, cards("AC 2C 4C"), 0)


@pytest.mark.parametrize(("place", "low", "high", "corner"), [
    ("low", True, False, False), ("high", False, True, False), ("both", True, True, False),
    ("wrap", True, True, True)])
def test_where_the_ace_stands(place: str, low: bool, high: bool, corner: bool) -> None:
    r = rules(MeldKind("run", True, 3, 0, -1, place))
    assert is_meld(r, cards("AS 2S 3S"), 0) is low
    assert is_meld(r, cards("QS KS AS"), 0) is high
    assert is_meld(r, cards("KS AS 2S"), 0) is corner


def test_wild_cards_stand_in_up_to_the_kind_s_limit() -> None:
    one = rules(MeldKind("set", False, 3, 0, 1), MeldKind("run", True, 3, 0, 1), wild_rank="2")
    assert is_meld(one, cards("9C 9D 2H"), 0)  # a wild 2 as the third nine
    assert is_meld(one, cards("5H 2C 7H"), 0)  # ...or as the 6 of hearts
    assert not is_meld(one, cards("9C 2D 2H"), 0)  # only one wild card in a meld
    assert can_meld(one, cards("9C 9D 2H 5H 2C 7H"), 0)
    assert not can_meld(one, cards("9C 9D 2H 5H 7H"), 0)


def test_copies_of_one_card_count_once() -> None:
    two = rules(SETS, RUNS, copies=2)
    hand = [card("7C"), card("7C", 1), card("7D"), card("7H")]
    # 7C 7C 7D 7H; then 7C 7C 7D, 7C 7C 7H and 7C 7D 7H (which 7C does not matter)
    assert [len(m) for m in melds_in(two, hand, 0)] == [4, 3, 3, 3]
    hand = [card("7C"), card("7D"), card("7H"), card("7C", 1), card("8C"), card("9C")]
    layouts = meld_layouts(two, hand, 0)
    # the set of sevens and the run 7-9 of clubs, each seven of clubs in one of them,
    # the lower id to the meld listed first
    assert layouts == [((card("7C"), card("7D"), card("7H")),
                        (card("7C", 1), card("8C"), card("9C")))]


def test_every_layout_and_none() -> None:
    layouts = meld_layouts(GIN, cards("AC 2C 3C 4C AD AH AS"), 0)
    assert len(layouts) == 2  # A-4 of clubs + three aces, or 2-4 of clubs + four aces
    assert meld_layouts(GIN, cards("AC 2C 4C"), 0) == []
    assert meld_layouts(GIN, [], 0) == [()] and can_meld(GIN, [], 0)


def test_a_search_too_large_is_a_located_fault() -> None:
    with pytest.raises(RuleFault, match=f"at most {MOST_MELD_CARDS}"):
        deadwood(GIN, list(range(MOST_MELD_CARDS + 1)), 5)


# --------------------------------------------------------- in a ruleset
GAME = """\
cardrules: 1
name: melder
players: {min: 2, max: 2}
deck: {zone: stock}
values:
  points: {A: 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
           J: 10, Q: 10, K: 10}
melds:
  value: points
  kinds:
    - {name: group, kind: set, min: 3, max: 4}
    - {name: sequence, kind: run, min: 3}
zones:
  - {name: stock, visibility: hidden}
  - {name: hand, owner: each, visibility: owner, layout: spread}
  - {name: table, owner: each, visibility: public, layout: row, groups: 4}
variables:
  - {name: laid, scope: player_round, initial: 0}
round:
  setup: ["shuffle stock", "deal 10 from stock to each hand face down"]
  phases:
    - name: play
      turns: rotate
      steps:
        - name: lay
          repeat: 3
          moves:
            - name: lay
              label: "Lay {meld}"
              when: "me.laid < 4"
              choose: {meld: "melds_in(hand[me])"}
              do: ["move meld to table[me][me.laid] face up", "set me.laid += 1"]
            - name: wait
              do: []
  end: []
triggers:
  - {name: stop, after: turn, when: "turns >= 4", do: [end round]}
scoring:
  rounds: 1
  round:
    - {name: deadwood, score: "deadwood(hand[p])"}
"""


def test_a_ruleset_lays_melds_and_scores_deadwood(tmp_path: Path) -> None:
    path = tmp_path / "melder.yaml"
    path.write_text(GAME, encoding="utf-8")
    engine = Engine(load_ruleset(path))
    value = engine.rules.cards.values["points"]
    laid_any = False
    for seed in range(20):
        state = play_game(engine, 2, seed=seed)
        for seat in range(2):
            hand = list(state.zones[engine.rules.zone("hand").zone_of(seat)])
            assert state.round_scores[0][seat] == oracle_deadwood_by(hand, engine, value)
            for g in engine.rules.zone("table").instances(seat):
                laid = list(state.zones[g])
                laid_any |= bool(laid)
                assert not laid or is_meld(GIN, [_plain(engine, c) for c in laid], 0)
    assert laid_any


def _plain(engine: Engine, c: int) -> int:
    """A card of the ruleset's deck as this file's ids (suit * 13 + rank)."""
    cards = engine.rules.cards
    return cards.suit[c] * 13 + cards.rank[c]


def oracle_deadwood_by(hand: list[int], engine: Engine, value: tuple[int, ...]) -> int:
    plain = [_plain(engine, c) for c in hand]
    assert all(value[c] == min(p % 13 + 1, 10) for c, p in zip(hand, plain))
    return oracle_deadwood(plain)


# --------------------------------------------------------- kinds decided by options, goals
GOAL_GAME = """\
cardrules: 1
name: goals
players: {{min: 2, max: 2}}
deck: {{zone: stock}}
options:
  - {{name: long, default: false, doc: longer melds}}
  - {{name: corner, default: false, doc: runs turn the corner}}
melds:
  kinds:
{kinds}zones:
  - {{name: stock, visibility: hidden}}
  - {{name: hand, owner: each, visibility: owner, layout: spread}}
  - {{name: table, owner: each, visibility: public, layout: row, groups: 4}}
round:
  setup: ["shuffle stock", "deal 10 from stock to each hand face down"]
  phases:
    - name: play
      turns: rotate
      steps:
        - name: lay
          moves:
            - name: lay
              label: "Lay {{layout}}"
              when: "size(table[me][0]) == 0"
              choose: {{layout: "{choose}"}}
              do:
                - for: i in numbers(0, size(layout) - 1)
                  do: ["move layout[i] to table[me][i] face up"]
            - name: wait
              do: []
  end: []
triggers:
  - {{name: stop, after: turn, when: "turns >= 4", do: [end round]}}
scoring:
  rounds: 1
  round:
    - {{name: left, score: "size(hand[p])"}}
"""


def _kinds_file(tmp_path: Path, kinds: str, choose: str = "lay_downs(hand[me], ['trio'])"
                ) -> Path:
    path = tmp_path / "kinds.yaml"
    path.write_text(GOAL_GAME.format(kinds=kinds, choose=choose), encoding="utf-8")
    return path


def _kinds_of(path: Path, **options: object) -> tuple[MeldKind, ...]:
    from cardrules.dsl.compiler import check_document
    from cardrules.dsl.loader import load_document, resolve
    checked = check_document(load_document(resolve(str(path))), options)
    return checked.melds


KINDS = ("    - {name: trio, kind: set, max: \"if long then 13 else 3\"}\n"
         "    - {name: stairs, kind: run, min: 4, max: \"if long then 13 else 4\",\n"
         "       ace: \"if corner then 'wrap' else 'low'\"}\n")


def test_options_decide_a_kind_s_sizes_and_its_ace(tmp_path: Path) -> None:
    path = _kinds_file(tmp_path, KINDS)
    assert [(k.least, k.most, k.ace) for k in _kinds_of(path)] == [(3, 3, "low"),
                                                                   (4, 4, "low")]
    assert [(k.least, k.most, k.ace) for k in _kinds_of(path, long=True, corner=True)] == [
        (3, 13, "low"), (4, 13, "wrap")]
    engine = Engine(load_ruleset(path, options={"long": True}))
    for seed in range(5):
        play_game(engine, 2, seed=seed)


@pytest.mark.parametrize("kinds, message", [
    ("    - {name: trio, kind: set, max: \"size(hand[me])\"}\n",
     "'me' has no meaning here"),
    ("    - {name: trio, kind: set, max: \"player_count + 2\"}\n",
     "a meld kind's max may only use numbers, texts and options"),
    ("    - {name: trio, kind: set, min: \"if long then 0 else 3\"}\n", None),
    ("    - {name: trio, kind: set, max: \"'three'\"}\n",
     "a meld kind's max must be a number, but this is a text"),
    ("    - {name: stairs, kind: run, ace: \"if corner then 'wrap' else 'lo'\"}\n",
     "ace: 'lo'; the ace stands low, high, both or wrap: did you mean 'low'?"),
    ("    - {name: trio, kind: set, ace: low}\n",
     "ace: only a run has an order for the ace to stand in"),
])
def test_a_kind_s_fields_are_checked(tmp_path: Path, kinds: str, message: str | None) -> None:
    from cardrules.errors import RulesetError
    path = _kinds_file(tmp_path, kinds, choose="melds_in(hand[me])")
    if message is None:  # the bad value only under the option
        load_ruleset(path)
        with pytest.raises(RulesetError, match="min: 0; a meld kind's min is 1 to 24"):
            load_ruleset(path, options={"long": True})
        return
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    assert message in str(info.value)
    assert ":10:" in str(info.value)  # at the kind's line


@pytest.mark.parametrize("choose, message", [
    ("lay_downs(hand[me], ['trio', 'stair'])",
     "no meld kind 'stair' (the kinds: trio, stairs): did you mean 'stairs'?"),
    ("lay_downs(hand[me], if long then ['trio'] else ['set'])",
     "no meld kind 'set' (the kinds: trio, stairs)"),
    ("goal_layouts(hand[me], 2, 0, true, false)",
     "goal_layouts() is no longer a built-in: declare the kinds of meld (`melds:`) and use "
     "lay_downs(cards, goal)"),
    ("lay_downs(hand[me], 'trio')",
     "cannot go through a text: expected a zone or a list"),
])
def test_a_goal_s_kinds_are_checked_where_written(tmp_path: Path, choose: str,
                                                  message: str) -> None:
    from cardrules.errors import RulesetError
    path = _kinds_file(tmp_path, KINDS, choose=choose)
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    assert message in str(info.value)


def test_a_goal_lays_down_its_melds_in_a_game(tmp_path: Path) -> None:
    path = _kinds_file(tmp_path, KINDS, choose="lay_downs(hand[me], ['trio'])")
    engine = Engine(load_ruleset(path))
    laid = 0
    for seed in range(30):
        state = play_game(engine, 2, seed=seed)
        for seat in range(2):
            for g in engine.rules.zone("table").instances(seat):
                cards = list(state.zones[g])
                if cards:
                    laid += 1
                    ranks = {engine.rules.cards.rank[c] for c in cards}
                    assert len(cards) == 3 and len(ranks) == 1
    assert laid


# --------------------------------------------------------- large hands
def test_a_hand_past_the_old_bound_of_24_cards_is_searched() -> None:
    """A hand of 40 cards (a hand and a large pickup): before, a fault; now its least
    deadwood, its best melds leaving exactly that, and a card in no meld left out."""
    hand = random.Random(40).sample(range(52), 40)
    least = deadwood(GIN, hand, 0)
    melds = best_melds(GIN, hand, 0)
    melded = {c for meld in melds for c in meld}
    assert all(plain_meld(tuple(sorted(meld))) for meld in melds)
    assert least == sum(GIN.value[c] for c in hand if c not in melded)
    assert can_meld(GIN, list(range(52)[:39]), 0)  # every club, diamond and heart in runs


def _uncut(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search as it was: one part holding every type, none dead."""
    from cardrules.interpreter import melding

    def whole(self: Any, n: int) -> tuple[list[int], list[int]]:
        return [], [sum(((1 << melding._W) - 1) << (t * melding._W) for t in range(n))]
    monkeypatch.setattr(melding._Search, "_cut", whole)


def test_cutting_a_hand_into_parts_changes_no_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """Dead cards and independent parts searched apart give the answers of the whole
    search, on random hands from two decks."""
    from cardrules.interpreter import melding
    two = rules(SETS, RUNS, copies=2)
    rng = random.Random(7)
    hands = [rng.sample(range(104), rng.randint(4, 20)) for _ in range(40)]
    functions = (deadwood, discard_deadwood, best_melds, can_meld, meld_layouts)
    monkeypatch.setattr(melding, "CUT_FROM", 0)  # (small hands are not cut otherwise)
    cut = [[f(two, h, 0) for f in functions] for h in hands]
    _uncut(monkeypatch)
    assert cut == [[f(two, h, 0) for f in functions] for h in hands]


def test_a_search_past_its_bound_of_work_is_a_located_fault(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from cardrules.interpreter import meld_candidates
    monkeypatch.setattr(meld_candidates, "MOST_MELD_STEPS", 2000)
    wild = rules(SETS, RUNS, copies=2, wild_rank="2")
    hand = random.Random(3).sample(range(104), 30)
    with pytest.raises(RuleFault, match="deadwood: a meld search of 30 cards needs more than "
                                        "2,000 steps") as caught:
        deadwood(wild, hand, 5)
    assert caught.value.site == 5


CONTRACT = rules(MeldKind("set", False, 3, 0, -1), MeldKind("run", True, 4, 0, -1, "wrap"),
                 copies=2, wild_rank="2")


def test_with_wild_cards_discard_deadwood_is_the_least_over_every_discard() -> None:
    """A hand with wild cards is searched whole, the discard one choice of the search: the
    same as the least deadwood over every discard, whatever is discarded (a wild card, one
    of two copies)."""
    rng = random.Random(11)
    for size in (1, 2, 5, 9, 14, 18):
        for _ in range(6):
            hand = rng.sample(range(104), size)
            assert discard_deadwood(CONTRACT, hand, 0) == min(
                deadwood(CONTRACT, [c for c in hand if c != gone], 0) for gone in hand)


def test_the_tree_of_melds_finds_what_a_look_at_each_finds(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where a card is in many melds, the ones that fit are found through a tree of them;
    looking at every meld instead gives the same answers."""
    from cardrules.interpreter import melding
    rng = random.Random(5)
    hands = [rng.sample(range(104), rng.randint(6, 22)) for _ in range(30)]
    functions = (deadwood, discard_deadwood, best_melds, can_meld, melds_in)
    monkeypatch.setattr(melding, "_TREE_FROM", 0)
    tree = [[f(CONTRACT, h, 0) for f in functions] for h in hands]
    monkeypatch.setattr(melding, "_TREE_FROM", 10**9)
    assert tree == [[f(CONTRACT, h, 0) for f in functions] for h in hands]


def test_wild_hands_of_32_cards_stay_inside_the_bound_of_work() -> None:
    """The hands of 32 cards benchmarks/meld_speed.py draws (a contract rummy's kinds, 2s
    wild), four of which (the 8th, 9th, 14th and 15th) passed the bound before the tree of
    melds and the one-search discard: every search answers them now."""
    rng = random.Random(1 * 1000 + 32)
    hands = [rng.sample(range(104), 32) for _ in range(20)]
    for hand in (hands[7], hands[8], hands[13], hands[14]):
        for search in (deadwood, discard_deadwood, best_melds):
            search(CONTRACT, hand, 0)


def test_validate_notes_a_meld_search_of_a_zone_that_may_outgrow_the_bound(
        tmp_path: Path) -> None:
    """rulesets/gin-rummy.yaml with every 2 wild: each search of a whole hand (which nothing
    in the rules keeps below the deck's 52 cards) gets a hint at the call, since with wild
    cards a search of more than 32 cards may pass its bound; without wild cards, none."""
    from cardrules.dsl.loader import check_files
    gin = Path(__file__).resolve().parent.parent / "rulesets" / "gin-rummy.yaml"
    text = gin.read_text(encoding="utf-8")
    wild = tmp_path / "gin-rummy.yaml"
    wild.write_text(text.replace("deck:\n", "deck:\n  wild: \"card.rank == '2'\"\n", 1),
                    encoding="utf-8")
    found = check_files([str(wild)], hints=True)
    assert found and all(d.hint for d in found)
    assert all(d.message.startswith("melds_in() searches zone 'hand', which may hold up to "
                                    "52 cards: with wild cards, a meld search of more than 32 "
                                    "cards may pass its bound of 2,000,000 steps")
               for d in found)
    lines = wild.read_text(encoding="utf-8").splitlines()
    assert all(d.location is not None and "melds_in(hand[me])" in lines[d.location.line - 1]
               for d in found)
    assert check_files([str(gin)], hints=True) == []


def test_with_a_card_that_counts_less_than_nothing_the_search_is_still_exact() -> None:
    """A value table may count a card below zero (a king as -3): then leaving a card out can
    lower the count, and no branch of the search may be cut short. Least deadwood, and after
    the best discard, agree with trying every layout, with melds and without."""
    values = [(-3 if r == 12 else min(r + 1, 10)) for s in range(4)
              for r in range(13)]
    t = deck()
    signed = MeldRules((SETS, RUNS), t["rank"], t["suit"], t["wild"], t["names"], values, 13, 0)

    def oracle(hand: list[int]) -> int:
        melds = [frozenset(m) for k in range(3, len(hand) + 1) for m in combinations(hand, k)
                 if plain_meld(m)]
        best = sum(values[c] for c in hand)

        def go(i: int, used: frozenset[int]) -> None:
            nonlocal best
            best = min(best, sum(values[c] for c in hand if c not in used))
            for j in range(i, len(melds)):
                if not melds[j] & used:
                    go(j + 1, used | melds[j])
        go(0, frozenset())
        return best

    assert discard_deadwood(signed, cards("AC 6D 8D 9D KD"), 0) == 12  # (the 9 goes)
    assert discard_deadwood(signed, cards("AC 6D 8D 9D KD 5C 5D 5H"), 0) == 12
    rng = random.Random(11)
    for _ in range(120):
        hand = rng.sample(range(52), rng.choice((6, 8, 10)))
        assert deadwood(signed, hand, 0) == oracle(hand), hand
        assert discard_deadwood(signed, hand, 0) == min(
            oracle([c for c in hand if c != gone]) for gone in hand), hand
