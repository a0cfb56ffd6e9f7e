"""Laid runs as people read them: a group of a grouped zone that holds one run shows in the
order the run climbs, a wild card in a gap naming the card it stands for (melding.run_shown,
the views, the terminal)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.melding import MeldKind, MeldRules, run_shown
from cardrules.interpreter.view import card_places, player_view
from cardrules.present.render import view_lines

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = "CDHS"


def meld_rules(*kinds: MeldKind, wild_rank: str = "2") -> MeldRules:
    deck = [(r, s) for _ in range(2) for s in range(4) for r in range(13)]
    return MeldRules(kinds, [r for r, _ in deck], [s for _, s in deck],
                     [RANKS[r] == wild_rank for r, _ in deck],
                     [RANKS[r] + SUITS[s] for r, s in deck], [1] * len(deck), 13, 0)


RUN_LOW = MeldKind("run", True, 4, 4, -1, "low")
RUN_WRAP = MeldKind("staircase", True, 4, 4, -1, "wrap")
TRIO = MeldKind("trio", False, 3, 3, -1)


def ids(text: str) -> list[int]:
    """Card ids by name; a name given twice is the second deck's copy."""
    out: list[int] = []
    for name in text.split():
        c = SUITS.index(name[-1]) * 13 + RANKS.index(name[:-1])
        out.append(c + 52 if c in out else c)
    return out


def shown(rules: MeldRules, text: str) -> str | None:
    """run_shown as names: '4H 2C=5H 6H 7H'."""
    found = run_shown(rules, ids(text))
    if found is None:
        return None
    order, stands = found
    return " ".join(rules.names[c] + (f"={rules.names[stands[c]]}" if c in stands else "")
                    for c in order)


def test_a_run_shows_as_it_climbs_with_a_wild_in_a_gap_named() -> None:
    rules = meld_rules(TRIO, RUN_LOW)
    assert shown(rules, "2C 7H 4H 6H") == "4H 2C=5H 6H 7H"
    assert shown(rules, "9S 2D 2C QS") == "9S 2D=10S 2C=JS QS"
    assert shown(rules, "KH 3H AH 2H") is None  # (the ace stands low only: no run)


def test_spare_wild_cards_stand_at_the_top_end_unnamed_else_at_the_foot() -> None:
    rules = meld_rules(TRIO, RUN_LOW)
    assert shown(rules, "2C 5H 7H 6H") == "5H 6H 7H 2C"
    assert shown(rules, "2C QH KH JH") == "2C JH QH KH"  # (no rank above the king here)
    wrap = meld_rules(TRIO, RUN_WRAP)
    assert shown(wrap, "2C QH KH JH") == "JH QH KH 2C"  # (the ace follows the king)


def test_a_wild_card_in_its_own_place_is_itself() -> None:
    assert shown(meld_rules(RUN_LOW), "3H AH 4H 2H") == "AH 2H 3H 4H"
    assert shown(meld_rules(RUN_LOW), "3H 4H 5H 2H") == "2H 3H 4H 5H"  # (not on top, as 6H)
    # the 2 of the run's suit takes its place; another wild card goes on top, unnamed
    assert shown(meld_rules(RUN_LOW), "AH 3H 4H 2C 2H") == "AH 2H 3H 4H 2C"
    # a wild card between one in its own place and a natural can only be the card between
    assert shown(meld_rules(RUN_LOW), "4H 5H 6H 2H 2C") == "2H 2C=3H 4H 5H 6H"


def test_a_run_that_turns_the_corner_keeps_spare_wild_cards_on_top() -> None:
    wrap = meld_rules(TRIO, RUN_WRAP)
    assert shown(wrap, "AH 2S 3H 4H 2C") == "AH 2S=2H 3H 4H 2C"
    assert shown(wrap, "QS KS AS 2C 2D") == "QS KS AS 2C 2D"
    assert shown(wrap, "2C 3C KC 4C 2D AC") == "KC AC 2C 3C 4C 2D"


def test_what_is_not_one_run_alone_is_left_as_it_lies() -> None:
    rules = meld_rules(TRIO, RUN_LOW)
    assert shown(rules, "5H 6S 7H 8H") is None  # two suits
    assert shown(rules, "5H 5H 6H 7H") is None  # a rank twice
    assert shown(rules, "7H 2C 2D") is None  # a trio of sevens as well
    assert shown(rules, "7H 2C 2D 2S") is None
    assert shown(meld_rules(TRIO), "4H 5H 6H") is None  # no kind of run declared
    no_wilds = meld_rules(MeldKind("run", True, 3, 0, 0, "low"))
    assert shown(no_wilds, "4H 2C 6H") is None  # a run of this kind holds no wild card
    assert shown(no_wilds, "6H 4H 5H") == "4H 5H 6H"


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 12), st.integers(3, 9), st.integers(0, 3), st.data())
def test_any_run_with_wild_cards_in_it_reads_back_in_order(start: int, length: int, suit: int,
                                                          data: st.DataObject) -> None:
    rules = meld_rules(RUN_WRAP)
    ranks = [(start + i) % 13 for i in range(length)]
    spare_wilds = [copy * 52 + 13 * s + 1 for s in range(4) if s != suit for copy in (0, 1)]
    wild_at = data.draw(st.sets(st.sampled_from(range(length)), max_size=length - 1))
    wild_at |= {i for i, r in enumerate(ranks) if RANKS[r] == "2"}  # (a 2 is wild anyway)
    if len(wild_at) >= length or len(wild_at) > len(spare_wilds):
        return
    cards = [spare_wilds.pop() if i in wild_at else 13 * suit + r for i, r in enumerate(ranks)]
    laid = cards[:]
    random.Random(start * 100 + length).shuffle(laid)
    found = run_shown(rules, laid)
    assert found is not None, [rules.names[c] for c in laid]
    order, stands = found
    assert sorted(order) == sorted(laid)
    places = [i for i, c in enumerate(order) if not rules.wild[c]]
    assert places[0] == 0  # (a circle always has room on top for the spare wild cards)
    for a, b in zip(places, places[1:]):  # the naturals as far apart as their ranks climb
        assert (rules.rank[order[b]] - rules.rank[order[a]]) % 13 == b - a
    gaps = {i for i in range(places[0] + 1, places[-1]) if rules.wild[order[i]]
            and rules.suit[order[i]] != suit}  # (a 2 of the run's suit in its place is itself)
    assert {order.index(c) for c in stands} == gaps  # every wild card in a gap is named
    for c, stand_in in stands.items():  # as the card of its place
        at = order.index(c)
        assert rules.rank[stand_in] == (rules.rank[order[places[0]]] + at - places[0]) % 13
        assert rules.suit[stand_in] == suit


def grandma_with_meld(names: str, face_up: bool = True):
    rules = load_ruleset("rulesets/grandma.yaml")
    state = Engine(rules).new_game(3, 1)
    group = rules.zone("meld").instances(0)[1]
    first = {}
    for c, name in enumerate(rules.cards.names):
        first.setdefault(name, []).append(c)
    for name in names.split():
        c = first[name].pop(0)
        state.zones[state.where[c]].remove(c)
        state.zones[group].append(c)
        state.where[c] = group
        state.face_up[c] = face_up
        state.known[c] = state.everyone if face_up else 1
    return rules, state


def test_every_seat_sees_a_laid_run_as_it_climbs() -> None:
    rules, state = grandma_with_meld("2C 7H 4H 6H")
    for seat in range(3):
        view = player_view(rules, state, seat)
        group = view["zones"]["meld"]["1"][1]
        assert [e["card"] for e in group["cards"]] == ["4H", "2C", "6H", "7H"]
        assert group["cards"][1]["as"] == "5H"
        assert "meld: 2: 4H 2C=5H 6H 7H" in "\n".join(view_lines(rules, view, plain=True))
        places = card_places(rules, state, seat)  # (where a page finds a card it draws)
        for slot, entry in enumerate(group["cards"]):
            c = rules.cards.names.index(entry["card"])
            assert places[c] == ["meld", "1", 1, slot]
    # the zone itself keeps the cards as they were laid (what top, position and slices read)
    assert [rules.cards.names[c] for c in state.zones[rules.zone("meld").instances(0)[1]]] \
        == ["2C", "7H", "4H", "6H"]


def test_a_group_not_all_face_up_is_shown_as_it_lies() -> None:
    rules, state = grandma_with_meld("2C 7H 4H 6H", face_up=False)
    group = player_view(rules, state, 0)["zones"]["meld"]["1"][1]
    assert [e["card"] for e in group["cards"]] == ["2C", "7H", "4H", "6H"]
    assert not any("as" in e for e in group["cards"])


def test_a_run_not_every_seat_has_seen_tells_nobody_its_order() -> None:
    """Cards face up where only their owner sees them (an owner-visible group): the others
    are shown them as they lie, unnamed, with no card a wild one stands for."""
    rules, state = grandma_with_meld("2C 7H 4H 6H")
    group = rules.zone("meld").instances(0)[1]
    for c in state.zones[group]:
        state.known[c] = 1  # (seat 1's alone)
    mine = player_view(rules, state, 0)["zones"]["meld"]["1"][1]["cards"]
    theirs = player_view(rules, state, 1)["zones"]["meld"]["1"][1]["cards"]
    assert [e["card"] for e in mine] == ["2C", "7H", "4H", "6H"]  # (not every seat: as laid)
    assert [e["card"] for e in theirs] == [None] * 4
    assert not any("as" in e for e in mine + theirs)
    places = card_places(rules, state, 1)
    assert [places[c][3] for c in state.zones[group]] == [0, 1, 2, 3]


PILES = """\
cardrules: 1
name: piles
title: A pile and runs
players: {min: 2, max: 2, default: 2}
deck: {zone: stock}
melds:
  kinds: [{name: run, kind: run, min: 3}]
zones:
  - {name: stock, visibility: hidden, layout: stack}
  - {name: pile, visibility: public, layout: stack, groups: 2}
round:
  setup: [shuffle stock]
  phases:
    - name: play
      turns: rotate
      steps:
        - name: play
          moves:
            - {name: lay, label: "Lay the top card", do: ["move top(stock) to pile[0] face up"]}
scoring:
  rounds: 1
  round: [{name: none, score: "0"}]
"""


def test_a_pile_stays_as_it_lies_whatever_run_it_holds(tmp_path) -> None:
    """A stack's top card is what its rules read and what a view says is on top: a group of
    a stack is never read as a run."""
    path = tmp_path / "piles.yaml"
    path.write_text(PILES, encoding="utf-8")
    rules = load_ruleset(path)
    state = Engine(rules).new_game(2, 1)
    pile = rules.zone("pile").instances(0)[0]
    for name in ("KH", "QH", "JH", "10H"):  # played down in turn: the ten on top
        c = rules.cards.names.index(name)
        state.zones[state.where[c]].remove(c)
        state.zones[pile].append(c)
        state.where[c], state.face_up[c], state.known[c] = pile, True, state.everyone
    view = player_view(rules, state, 0)
    assert [e["card"] for e in view["zones"]["pile"][0]["cards"]] == ["KH", "QH", "JH", "10H"]
    assert "pile: 1: 10H on top (4 cards)" in "\n".join(view_lines(rules, view, plain=True))
