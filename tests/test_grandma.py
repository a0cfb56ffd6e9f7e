"""Grandma's game: goals per round with wild 2s, wrapping staircases, laying off at both
ends of anyone's meld, no lay-off in the turn the goal was met, scoring, and bounded rounds."""

from __future__ import annotations

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules.cli.screen import Style, decision_screen
from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.sessions.play import play_game
from cardrules.interpreter.state import GameState
from cardrules.interpreter.view import player_view
from cardrules.interpreter.words import in_person
from cardrules.present.choices import distinct, offered
from cardrules.present.lines import choice_texts
from cardrules.present.render import view_lines


@functools.cache
def engine(**options: str) -> Engine:
    return Engine(load_ruleset("grandma", options=options or None))


def names_of(cards: list[int]) -> list[str]:
    return [engine().rules.cards.names[c] for c in cards]


def give(state: GameState, seat: int, names: list[str]) -> list[int]:
    """Make a seat's hand exactly these cards (others go to the stock)."""
    rules = engine().rules
    hand = state.zones[rules.zone("hand").zone_of(seat)]
    stock = state.zones[rules.zone("stock").index]
    chosen: list[int] = []
    for name in names:
        card = next(c for c in range(state.n_cards) if rules.cards.names[c] == name
                    and c not in chosen and state.where[c] in
                    (rules.zone("stock").index, rules.zone("hand").zone_of(seat)))
        chosen.append(card)
    for c in list(hand):
        if c not in chosen:
            hand.remove(c)
            stock.append(c)
            state.where[c] = rules.zone("stock").index
    for c in chosen:
        if c not in hand:
            state.zones[state.where[c]].remove(c)
            hand.append(c)
            state.where[c] = rules.zone("hand").zone_of(seat)
    state.legal_cache = None
    return chosen


def at_act_step(seed: int = 1, players: int = 2) -> GameState:
    """A game where the first player has drawn and may now lay down, lay off or discard."""
    eng = engine()
    state = eng.new_game(players, seed)
    eng.apply(state, ("take_stock",))
    return state


def lay_downs(state: GameState) -> list[tuple[object, ...]]:
    return [a for a in engine().legal_actions(state) if a[0].startswith("lay_down")]


def test_round_one_goal_two_trios_with_and_without_wilds() -> None:
    state = at_act_step()
    give(state, state.current, ["7H", "7S", "7C", "KD", "KH", "KS", "4C", "9D"])
    (layout,) = [a[1] for a in lay_downs(state)]
    assert sorted(map(sorted, (names_of(list(m)) for m in layout))) == [
        ["7C", "7H", "7S"], ["KD", "KH", "KS"]]
    give(state, state.current, ["7H", "7S", "2C", "KD", "KH", "4S", "4C", "9D"])
    assert lay_downs(state) == []  # one 2 cannot finish both trios
    give(state, state.current, ["7H", "7S", "2C", "KD", "KH", "2D", "4C", "9D"])
    assert lay_downs(state)  # two 2s can


def test_a_staircase_may_wrap_from_king_to_ace() -> None:
    eng = engine()
    state = eng.new_game(2, 1)
    state.round = 3  # two staircases
    eng.apply(state, ("take_stock",))
    give(state, state.current, ["QH", "KH", "AH", "3H", "5S", "6S", "7S", "8S", "9C"])
    assert lay_downs(state) == []  # Q K A _ 3 is no run of four
    give(state, state.current, ["JH", "QH", "KH", "AH", "5S", "6S", "7S", "8S", "9C"])
    assert lay_downs(state)
    no_wrap = Engine(load_ruleset("grandma", options={"wrap": "false"}))
    state2 = no_wrap.new_game(2, 1)
    state2.round = 3
    no_wrap.apply(state2, ("take_stock",))
    give(state2, state2.current, ["JH", "QH", "KH", "AH", "5S", "6S", "7S", "8S", "9C"])
    assert not [a for a in no_wrap.legal_actions(state2) if a[0].startswith("lay_down")]


def lay_down_first(state: GameState) -> None:
    eng = engine()
    eng.apply(state, lay_downs(state)[0])


def test_no_lay_off_in_the_turn_the_goal_is_met_but_on_a_later_turn() -> None:
    eng = engine()
    state = at_act_step()
    me = state.current
    give(state, me, ["7H", "7S", "7C", "KD", "KH", "KS", "7D", "KC", "4C", "9D"])
    lay_down_first(state)
    assert state.pvars["down"][me]
    assert not [a for a in eng.legal_actions(state) if a[0] == "lay_off"]
    fitting = {n for n in names_of(state.zones[eng.rules.zone("hand").zone_of(me)])
               if n[:-1] in ("7", "K")}
    assert len(fitting) == 2
    eng.apply(state, next(a for a in eng.legal_actions(state) if a[0] == "discard"
                          and names_of([a[1]]) == ["4C"]))
    # the other player takes a turn
    eng.apply(state, ("take_stock",))
    eng.apply(state, next(a for a in eng.legal_actions(state) if a[0] == "discard"))
    eng.apply(state, ("take_stock",))
    fitting = {n for n in names_of(state.zones[eng.rules.zone("hand").zone_of(me)])
               if n[:-1] in ("7", "K", "2")}  # what fits a trio of 7s or Ks (2s are wild)
    offs = [a for a in eng.legal_actions(state) if a[0] == "lay_off"]
    assert {names_of([a[1]])[0] for a in offs} == fitting
    off = offs[0]
    eng.apply(state, off)
    meld = state.zones[eng.rules.zone("meld").zone_of(me) + off[3] - 1]  # melds count from 1
    assert names_of([off[1]])[0] in names_of(meld)


def test_laying_off_onto_another_players_staircase_at_both_ends() -> None:
    eng = engine()
    state = eng.new_game(2, 3)
    state.round = 3  # two staircases
    eng.apply(state, ("take_stock",))
    owner = state.current
    give(state, owner, ["4H", "5H", "6H", "7H", "9S", "10S", "JS", "QS", "KC", "KD", "9D"])
    lay_down_first(state)
    eng.apply(state, next(a for a in eng.legal_actions(state) if a[0] == "discard"))
    other = state.current
    give(state, other, ["3D", "4D", "5D", "6D", "8C", "9C", "10C", "JC", "3H", "8H", "KS"])
    eng.apply(state, ("take_stock",))
    give(state, other, ["3D", "4D", "5D", "6D", "8C", "9C", "10C", "JC", "3H", "8H", "KS"])
    lay_down_first(state)
    eng.apply(state, next(a for a in eng.legal_actions(state) if a[0] == "discard"
                          and names_of([a[1]]) == ["KS"]))
    eng.apply(state, ("take_stock",))  # the owner's turn
    eng.apply(state, next(a for a in eng.legal_actions(state) if a[0] == "discard"))
    eng.apply(state, ("take_stock",))  # the other's turn: lay off onto the owner's melds
    offs = {(names_of([a[1]])[0], a[2]) for a in eng.legal_actions(state) if a[0] == "lay_off"}
    assert ("3H", owner) in offs and ("8H", owner) in offs  # below 4H and above 7H


def test_scoring_cards_left_in_hand() -> None:
    eng = engine()
    state = eng.new_game(2, 1)
    give(state, 0, ["3H", "10S", "JD", "QC", "KH", "AS", "2D"])
    give(state, 1, [])
    assert sum(eng.rules.score(state, 0)) == 5 + 5 + 10 + 10 + 10 + 15 + 20
    assert sum(eng.rules.score(state, 1)) == 0


@pytest.mark.parametrize(("options", "rounds"), [
    ({}, 7), ({"last_goal": "either"}, 6), ({"last_goal": "either_twice"}, 7)])
def test_seven_rounds_by_default_and_six_as_an_option(options: dict[str, str],
                                                       rounds: int) -> None:
    assert len(play_game(engine(**options), 3, seed=2).round_scores) == rounds


STAIRS = ["3H", "4H", "5H", "6H", "7S", "8S", "9S", "10S", "3C", "4C", "5C", "6C", "KD"]
TRIOS = ["3H", "3S", "3C", "5H", "5S", "5C", "8D", "8S", "8C", "JH", "JS", "JC", "KD"]


def last_rounds_goals(round_: int, **options: str) -> tuple[str, list[str], list[str]]:
    """In the given round: the goal shown, and which lay-down moves a hand of three
    staircases and a hand of four trios are offered."""
    eng = engine(**options)
    state = eng.new_game(2, 2)  # a seed whose deals leave these cards to be had
    while state.round < round_:  # end rounds at once: the first seat goes out
        eng.apply(state, ("take_stock",))
        give(state, state.current, ["KD"])
        eng.apply(state, next(a for a in eng.legal_actions(state) if a[0] == "discard"))
    assert state.round == round_
    eng.apply(state, ("take_stock",))
    offered = []
    for hand in (STAIRS, TRIOS):
        give(state, state.current, hand)
        offered.append(sorted({a[0] for a in eng.legal_actions(state)
                               if a[0].startswith("lay_down")}))
    return state.vars["goal"], offered[0], offered[1]


def test_the_last_goal_line_is_the_sixth_and_seventh_rounds_by_default() -> None:
    """The line "4 trios or 3 staircases" read as two rounds, in the order written."""
    assert last_rounds_goals(5)[0] == "a trio and 2 staircases"
    assert last_rounds_goals(6) == ("4 trios", [], ["lay_down"])
    assert last_rounds_goals(7) == ("3 staircases", ["lay_down"], [])


@pytest.mark.parametrize("last_goal", ["either", "either_twice"])
def test_the_last_goal_line_as_a_choice(last_goal: str) -> None:
    either = ("4 trios or 3 staircases", ["lay_down_stairs"], ["lay_down"])
    assert last_rounds_goals(6, last_goal=last_goal) == either
    if last_goal == "either_twice":
        assert last_rounds_goals(7, last_goal=last_goal) == either


def test_play_passes_to_the_right_from_the_dealers_right() -> None:
    state = engine().new_game(4, 1)
    assert state.first == (state.dealer - 1) % 4
    first = state.current
    eng = engine()
    eng.apply(state, ("take_stock",))
    if state.current == first and lay_downs(state):  # holding the goal: it goes down first
        eng.apply(state, lay_downs(state)[0])
    eng.apply(state, next(a for a in eng.legal_actions(state) if a[0] == "discard"))
    assert state.current == (first - 1) % 4


@settings(max_examples=30, deadline=None, database=None)
@given(seed=st.integers(0, 10**6), round_=st.integers(1, 6))
def test_every_layout_offered_is_valid_melds_from_the_hand(seed: int, round_: int) -> None:
    eng = engine()
    rules = eng.rules
    state = eng.new_game(2, seed)
    state.round = round_
    eng.apply(state, ("take_stock",))
    hand = set(state.zones[rules.zone("hand").zone_of(state.current)])
    from cardrules.interpreter.card_sets import is_flush, is_run, is_set
    cards = rules.cards
    for action in lay_downs(state):
        layout = action[1]
        used = [c for meld in layout for c in meld]
        assert len(used) == len(set(used)) and set(used) <= hand
        for meld in layout:
            trio = len(meld) == 3 and is_set(cards.rank, cards.wild, list(meld))
            stair = len(meld) == 4 and is_run(cards.rank, cards.wild, 13, list(meld), True) \
                and is_flush(cards.suit, cards.wild, list(meld))
            assert trio or stair


def test_random_rounds_always_end() -> None:
    for seed in range(6):
        state = play_game(engine(), 2 + seed % 3, seed=seed)
        assert state.over and len(state.round_scores) == 7


def act_step(eng: Engine, seed: int = 1) -> GameState:
    state = eng.new_game(2, seed)
    eng.apply(state, ("take_stock",))
    return state


@pytest.mark.parametrize(("options", "may_discard"),
                         [({}, False), ({"must_lay_down": "false"}, True)])
def test_a_player_holding_the_goal_lays_it_down(options: dict[str, str],
                                                may_discard: bool) -> None:
    """The text has the goal laid down once it is held; `must_lay_down: false` lets a player
    keep it in hand and discard."""
    eng = engine(**options)
    state = act_step(eng)
    give(state, state.current, ["7H", "7S", "7C", "KD", "KH", "KS", "4C", "9D"])
    moves = {a[0] for a in eng.legal_actions(state)}
    assert "lay_down" in moves
    assert ("discard" in moves) is may_discard
    give(state, state.current, ["7H", "7S", "5C", "KD", "KH", "4S", "4C", "9D"])
    assert {a[0] for a in eng.legal_actions(state)} == {"discard"}  # no goal: discard


@pytest.mark.parametrize(("options", "all_down"), [
    ({"longer_melds": "true"}, False),
    ({"longer_melds": "true", "final_discard": "false"}, True)])
def test_laying_down_every_card_needs_final_discard_off(options: dict[str, str],
                                                        all_down: bool) -> None:
    """With longer melds, 13 cards can form the goal; the last discard final_discard asks
    for must still be possible, so no lay-down takes every card unless it is off."""
    eng = engine(**options)
    state = act_step(eng)
    stock = state.zones[eng.rules.zone("stock").index]
    other = eng.rules.zone("hand").zone_of(1 - state.current)
    for zone in (eng.rules.zone("discard").index, other):
        for c in state.zones[zone]:  # every copy within reach of give()
            stock.append(c)
            state.where[c] = eng.rules.zone("stock").index
        state.zones[zone][:] = []
    hand = ["7H", "7S", "7C", "7D", "7H", "7S", "7C", "KD", "KH", "KS", "KC", "KD", "KH"]
    give(state, state.current, hand)
    sizes = {sum(len(m) for m in a[1]) for a in eng.legal_actions(state)
             if a[0] == "lay_down"}
    assert sizes and max(sizes) <= 13
    assert (13 in sizes) is all_down
    if all_down:
        eng.apply(state, next(a for a in eng.legal_actions(state)
                              if a[0] == "lay_down" and sum(len(m) for m in a[1]) == 13))
        assert len(state.round_scores) == 1  # out of cards: the round is over


def test_the_rounds_goal_is_shown_and_bookkeeping_is_not() -> None:
    eng = engine()
    state = eng.new_game(2, 1)
    assert state.vars["goal"] == "2 trios"
    internal = {v.name for v in eng.rules.variables if v.internal}
    assert internal == {"down_turn", "trios_laid", "taken"}


def test_layouts_that_differ_only_in_which_2_is_used_are_offered_once() -> None:
    state = at_act_step()
    give(state, state.current, ["7H", "7S", "2C", "KD", "KH", "2D", "4C", "9D"])
    layouts = [a[1] for a in lay_downs(state)]
    # 7 7 + a 2 and K K + a 2: which 2 goes where does not matter, so one layout
    assert len(layouts) == 1


def test_a_wrapping_staircase_reads_in_run_order_and_melds_count_from_1() -> None:
    eng = engine()
    state = eng.new_game(2, 1, log=True)
    state.round = 3  # two staircases
    eng.apply(state, ("take_stock",))
    me = state.current
    give(state, me, ["JH", "QH", "KH", "AH", "5S", "6S", "7S", "8S", "9C"])
    (layout,) = [a[1] for a in lay_downs(state)]
    assert [names_of(list(m)) for m in layout] == [["JH", "QH", "KH", "AH"],
                                                    ["5S", "6S", "7S", "8S"]]
    eng.apply(state, ("lay_down", layout))
    view = "\n".join(view_lines(eng.rules, player_view(eng.rules, state, me), plain=True))
    assert "meld: 1: JH QH KH AH | 2: 5S 6S 7S 8S" in view
    assert eng.rules.moves["lay_off"].label.startswith("Lay {card} on meld {g}")


def test_a_hand_is_shown_sorted_by_suit_and_rank() -> None:
    eng = engine()
    state = eng.new_game(2, 1)
    me = state.current
    hand = state.zones[eng.rules.zone("hand").zone_of(me)]
    view = "\n".join(view_lines(eng.rules, player_view(eng.rules, state, me), plain=True))
    line = next(ln for ln in view.splitlines() if "(you)" in ln)
    shown = line.split("hand:")[1].split("meld:")[0].split()
    order = list(dict.fromkeys(eng.rules.cards.names))
    names = [s.strip("()") for s in shown]
    assert sorted(names, key=order.index) == names and len(names) == len(hand)


@pytest.mark.parametrize("allowed", [True, False])
def test_the_card_taken_from_the_discard_pile_may_go_again_by_option(allowed: bool) -> None:
    """By default the card just taken may be discarded again at once; with
    discard_taken_card false it stays for a later turn, unless it is the only card left."""
    eng = engine(discard_taken_card=str(allowed).lower())
    state = eng.new_game(2, 3)
    top = state.zones[eng.rules.zone("discard").index][-1]
    eng.apply(state, ("take_discard", top))
    discards = [a for a in eng.legal_actions(state) if a[0] == "discard"]
    assert (("discard", top) in discards) is allowed
    assert len(discards) == (13 if allowed else 12)
    hand = state.zones[eng.rules.zone("hand").zone_of(state.current)]
    for c in [c for c in hand if c != top]:  # the taken card alone left: it may always go
        hand.remove(c)
        state.zones[eng.rules.zone("stock").index].append(c)
        state.where[c] = eng.rules.zone("stock").index
    state.legal_cache = None
    assert [a for a in eng.legal_actions(state) if a[0] == "discard"] == [("discard", top)]
    # a draw from the stock takes nothing from the pile: every card may go
    eng.apply(state, ("discard", top))
    eng.apply(state, ("take_stock",))
    assert len([a for a in eng.legal_actions(state) if a[0] == "discard"]) == 13


def test_a_lay_off_on_the_readers_own_meld_reads_as_theirs() -> None:
    """'Lay 5D on meld 1 of {owner}' reads 'of yours' to the meld's owner, 'of seat 1' to
    the others and in public; a label's "{p}'s" reads 'your' to that player."""
    eng = engine()
    state = eng.new_game(3, 1)
    card = state.zones[eng.rules.zone("hand").zone_of(0)][0]
    name = eng.rules.cards.names[card]
    action = ("lay_off", card, 0, 1)
    assert eng.words.describe(action, state, 0) == f"Lay {name} on meld 1 of yours"
    assert eng.words.narrate(action, 0, 0, state) == f"you lay {name} on meld 1 of yours"
    assert eng.words.describe(action, state, 1).endswith("on meld 1 of seat 1")
    assert eng.words.describe(action).endswith("on meld 1 of seat 1")
    assert eng.words.narrate(("lay_off", card, 1, 1), 0, 1, state).endswith(
        "on meld 1 of yours")
    parts, values = in_person((("text", "Take "), ("param", "p"), ("text", "'s card")),
                              {"p": "you"})
    assert "".join(t if k == "text" else values[t] for k, t in parts) == "Take your card"


def test_two_cards_alike_to_everyone_are_one_choice() -> None:
    """With two decks a hand may hold two 5H: discarding either reads the same to every
    seat, so the screen offers it once (and the choice plays one of them); a 5H that every
    seat has seen is another choice than one only its holder knows."""
    eng = engine()
    state = at_act_step()
    seat = state.current
    twins = give(state, seat, ["5H", "5H", "9D", "KC", "3S"])[:2]
    for c in state.zones[eng.rules.zone("hand").zone_of(seat)]:
        state.known[c] = 1 << seat
    legal = eng.legal_actions(state)
    discards = [a for a in legal if a[0] == "discard"]
    assert sorted(a[1] for a in discards if a[1] in twins) == sorted(twins)
    screen = "\n".join(decision_screen(eng, state, seat, offered(eng, state, seat, legal), [],
                                        Style(plain=True)))
    assert screen.count("Discard 5H") == 1, screen
    kept = [legal[i] for i in distinct(eng, state, legal)]
    assert len(kept) == len(legal) - 1
    state.known[twins[0]] = state.everyone  # (seen by all: taken from the discard pile)
    assert len(distinct(eng, state, legal)) == len(legal)
    # offered both, each says which it is
    texts = choice_texts(eng, state, seat, dict(enumerate(offered(eng, state, seat, legal))))
    said = sorted(t for t in texts.values() if t.startswith("Discard 5H"))
    assert len(said) == 2 and said[0] != said[1] and "Discard 5H (known to you alone)" in said


def test_a_hint_names_a_choice_once_though_two_cards_alike_make_it() -> None:
    """A hint's estimates of the twins of one offered choice: the best one alone, in its
    place; an estimate offered nowhere is kept."""
    from cardrules.present.choices import once_each

    estimates = [("5H a", 1), ("5H b", 1), ("open", None), ("9D", 2), ("text", None)]
    assert once_each(estimates, lambda e: e[1]) == [("5H a", 1), ("open", None), ("9D", 2),
                                                    ("text", None)]
