"""Geohash: pairs by rank and colour, the hidden pair's partners, asking and fishing, the
two-card switch, declaring, accusing out of turn, elimination and redealing."""

from __future__ import annotations

import functools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.engine import PASS, Engine
from cardrules.interpreter.sessions.play import play_game
from cardrules.interpreter.state import GameState
from cardrules.interpreter.view import player_view


@functools.cache
def engine(**options: str) -> Engine:
    return Engine(load_ruleset("geohash", options=options or None))


def kind(state: GameState, c: int) -> tuple[int, int]:
    cards = engine().rules.cards
    return cards.rank[c], cards.colour[c]


def hand(state: GameState, seat: int) -> list[int]:
    return state.zones[engine().rules.zone("hand").zone_of(seat)]


def zone(state: GameState, name: str) -> list[int]:
    return state.zones[engine().rules.zone(name).index]


def has_pair(state: GameState, cards: list[int]) -> bool:
    kinds = Counter(kind(state, c) for c in cards)
    return any(n >= 2 for n in kinds.values())


def test_after_the_deal_no_hand_holds_a_pair_and_the_hidden_two_differ() -> None:
    for seed in range(20):
        state = engine().new_game(4, seed)
        hidden = zone(state, "hidden")
        assert len(hidden) == 2 and kind(state, hidden[0]) != kind(state, hidden[1])
        for seat in range(4):
            assert not has_pair(state, hand(state, seat))
        heap = zone(state, "heap")
        assert all(n == 2 for n in Counter(kind(state, c) for c in heap).values())
        # every card is somewhere; the hidden cards' partners are in hands
        partners = [c for c in range(52) if c not in hidden
                    and kind(state, c) in {kind(state, h) for h in hidden}]
        assert all(state.where[c] != engine().rules.zone("heap").index for c in partners)


def test_pairs_are_same_rank_and_colour() -> None:
    rules = engine().rules
    names = rules.cards.names
    four_hearts, four_diamonds = names.index("4H"), names.index("4D")
    four_spades = names.index("4S")
    assert kind(None, four_hearts) == kind(None, four_diamonds)  # type: ignore[arg-type]
    assert kind(None, four_hearts) != kind(None, four_spades)  # type: ignore[arg-type]


def hidden_partners_never_paired(state: GameState) -> bool:
    hidden = {kind(state, c) for c in zone(state, "hidden")}
    return not any(kind(state, c) in hidden for c in zone(state, "heap"))


@settings(max_examples=40, deadline=None, database=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4, 5, 6]))
def test_the_hidden_cards_partners_are_never_paired_away(seed: int, players: int) -> None:
    eng = engine()
    state = eng.new_game(players, seed)
    rng = random.Random(seed)
    legal = eng.legal_actions(state)
    steps = 0
    while legal:
        # mostly ask and pass, so that games last: accusations come rarely
        asks = [a for a in legal if a[0] != "accuse"]
        action = rng.choice(asks) if asks and rng.random() < 0.97 else rng.choice(legal)
        legal = eng.play(state, action)
        assert hidden_partners_never_paired(state)
        steps += 1
        assert steps < 20000
    cards = sorted(c for z in state.zones for c in z)
    assert cards == list(range(52))


def playing(seed: int = 3, players: int = 3) -> GameState:
    """A game past its first reaction window (everyone passes), at a turn's first ask."""
    state = engine().new_game(players, seed)
    return state


def test_early_asks_are_only_for_partners_of_cards_held() -> None:
    state = playing()
    me = state.current
    mine = {kind(state, c) for c in hand(state, me)}
    asks = [a for a in engine().legal_actions(state) if a[0] == "ask"]
    assert asks
    assert not state.vars["open_asking"]
    assert {(a[2], a[3]) for a in asks} == mine


def test_once_anyone_is_down_to_two_cards_any_card_may_be_asked_for() -> None:
    eng = engine()
    state = playing()
    victim = (state.current + 1) % state.n
    cards = hand(state, victim)
    while len(cards) > 2:  # move cards out of a hand by hand, keeping `where` right
        c = cards.pop()
        zone(state, "box").append(c)
        state.where[c] = eng.rules.zone("box").index
    state.legal_cache = None
    eng.apply(state, next(a for a in eng.legal_actions(state) if a[0] == "ask"
                          and a[1] != victim))
    assert state.vars["open_asking"]


def test_no_fishing_from_a_player_with_two_cards_or_fewer() -> None:
    eng = engine()
    for seed in range(10):
        state = playing(seed)
        me = state.current
        target = (me + 1) % state.n
        cards = hand(state, target)
        while len(cards) > 2:
            c = cards.pop()
            zone(state, "box").append(c)
            state.where[c] = eng.rules.zone("box").index
        state.vars["open_asking"] = True
        state.legal_cache = None
        theirs = {kind(state, c) for c in cards}
        missing = next(a for a in eng.legal_actions(state)
                       if a[0] == "ask" and a[1] == target and (a[2], a[3]) not in theirs)
        before = list(cards)
        eng.apply(state, missing)
        assert hand(state, target) == before  # nothing fished


def test_a_card_asked_for_by_name_is_handed_over_and_shown() -> None:
    eng = engine()
    state = playing(5)
    me, target = state.current, (state.current + 1) % state.n
    state.vars["open_asking"] = True
    state.legal_cache = None
    wanted = hand(state, target)[0]
    eng.apply(state, ("ask", target, *kind(state, wanted)))
    assert state.where[wanted] in (eng.rules.zone("hand").zone_of(me),
                                   eng.rules.zone("heap").index)
    assert state.known[wanted] == state.everyone


def accuse(state: GameState, first: int, second: int) -> tuple[object, ...]:
    """The accusation naming two exact cards, as the ruleset lists it: each pair once, the
    lower rank first (for equal ranks, the suit first in the deck's order)."""
    cards = engine().rules.cards
    one, two = sorted([(cards.rank[c], cards.suit[c]) for c in (first, second)])
    return ("accuse", *one, *two)


def accuse_kinds(state: GameState, first: int, second: int) -> tuple[object, ...]:
    """The accusation naming two cards' kinds (`accuse_by: kinds`): each pair once, the lower
    rank first (red first for equal ranks)."""
    one, two = sorted([kind(state, first), kind(state, second)])
    return ("accuse_kinds", *one, *two)


def window(state: GameState) -> None:
    """Take one action so that a reaction window opens."""
    eng = engine()
    eng.apply(state, next(a for a in eng.legal_actions(state) if a[0] == "ask"))
    assert state.window


def test_a_right_accusation_out_of_turn_wins() -> None:
    eng = engine()
    state = playing(7)
    window(state)
    seat = state.window[0]
    hidden = zone(state, "hidden")
    eng.apply(state, accuse(state, hidden[0], hidden[1]))
    assert state.over and state.winners == [seat]


def partner_of(state: GameState, card: int) -> int:
    return next(c for c in range(52) if c != card and kind(state, c) == kind(state, card))


def test_naming_a_hidden_cards_partner_is_wrong_by_default() -> None:
    """The text has the accuser name the cards: the right kinds with a wrong suit lose."""
    eng = engine()
    state = playing(7)
    window(state)
    seat = state.window[0]
    hidden = zone(state, "hidden")
    eng.apply(state, accuse(state, partner_of(state, hidden[0]), hidden[1]))
    assert not state.active[seat] and not state.over


def test_with_accuse_by_kinds_a_rank_and_colour_are_enough() -> None:
    eng = engine(accuse_by="kinds")
    state = eng.new_game(3, 7)
    eng.apply(state, next(a for a in eng.legal_actions(state) if a[0] == "ask"))
    seat = state.window[0]
    assert not any(a[0] == "accuse" for a in eng.legal_actions(state))
    hidden = zone(state, "hidden")
    eng.apply(state, accuse_kinds(state, partner_of(state, hidden[0]), hidden[1]))
    assert state.over and state.winners == [seat]


def test_each_exact_accusation_is_listed_once() -> None:
    eng = engine()
    state = playing(7)
    window(state)
    accusations = [a for a in eng.legal_actions(state) if a[0] == "accuse"]
    assert len(accusations) == 52 * 51 // 2
    assert len({frozenset([(a[1], a[2]), (a[3], a[4])]) for a in accusations}) == 52 * 51 // 2


def test_a_wrong_accusation_is_out_and_its_hand_is_dealt_to_the_others() -> None:
    eng = engine()
    state = playing(7, players=4)
    window(state)
    seat = state.window[0]
    hidden = zone(state, "hidden")
    wrong = next(c for c in range(52) if kind(state, c) not in
                 {kind(state, h) for h in hidden})
    theirs = list(hand(state, seat))
    others = [p for p in range(4) if p != seat]
    eng.apply(state, accuse(state, hidden[0], wrong))
    assert not state.active[seat]
    assert hand(state, seat) == []
    homes = {eng.rules.zone("hand").zone_of(p) for p in others} | {
        eng.rules.zone("heap").index}
    assert all(state.where[c] in homes for c in theirs)  # dealt out (pairs went to the heap)
    first = (seat + 1) % 4  # dealing starts at the accuser's left
    dealt = {p: sum(1 for c in theirs if state.where[c] == eng.rules.zone("hand").zone_of(p))
             for p in others}
    if not any(state.where[c] == eng.rules.zone("heap").index for c in theirs):
        assert dealt[first] == -(-len(theirs) // 3)  # the first gets the odd card
    assert sorted(c for z in state.zones for c in z) == list(range(52))
    assert zone(state, "hidden") == hidden  # the hidden cards go back unseen


def test_everyone_may_pass_a_reaction_window() -> None:
    eng = engine()
    state = playing(9)
    window(state)
    seats = list(state.window)
    for _ in seats:
        assert PASS in eng.legal_actions(state)
        eng.apply(state, PASS)
    assert not state.window
    assert not state.over


THIS_TURN = {"declaring_forfeits": "declaring_turn"}
THIS_AND_NEXT = {"declaring_forfeits": "declaring_turn_and_next"}


@pytest.mark.parametrize(("options", "missed", "ends_turn"),
                         [({}, 1, False), (THIS_TURN, 0, True), (THIS_AND_NEXT, 1, True)])
def test_declaring_one_card_costs_one_turn(options: dict[str, str], missed: int,
                                           ends_turn: bool) -> None:
    """By default a declaration takes an ask's place and the declarer misses the next turn;
    `declaring_turn` ends the declaring turn, the one forfeited; `declaring_turn_and_next`
    ends it and misses the next one too."""
    eng = engine(**options)
    state = eng.new_game(3, 4)
    me = state.current
    eng.apply(state, next(a for a in eng.legal_actions(state) if a[0] == "declare"))
    while state.window:
        eng.apply(state, PASS)
    assert (state.current != me) == ends_turn
    assert state.pvars["missed"][me] == missed


def wrong_pair(eng: Engine, state: GameState) -> tuple[object, ...]:
    """A two-card declaration someone can disprove: a card whose partner another seat holds."""
    me = state.current
    others = [c for p in range(state.n) if p != me for c in hand(state, p)]
    mine = hand(state, me)
    return next(a for a in eng.legal_actions(state) if a[0] == "declare_two"
                and any(kind(state, c) == kind(state, a[1]) for c in others)
                and a[1] in mine)


@pytest.mark.parametrize(("options", "missed", "ends_turn"),
                         [({}, 2, False), (THIS_TURN, 1, True), (THIS_AND_NEXT, 2, True)])
def test_a_wrong_two_card_declaration_costs_two_turns(options: dict[str, str], missed: int,
                                                      ends_turn: bool) -> None:
    eng = engine(**options)
    state = eng.new_game(3, 4)
    me = state.current
    eng.apply(state, wrong_pair(eng, state))
    while state.window:
        eng.apply(state, PASS)
    assert not state.over and (state.current != me) == ends_turn
    assert state.pvars["missed"][me] == missed


def turn_order(eng: Engine, state: GameState, first: list[str], count: int) -> list[int]:
    """The seats whose actions make a game's first turns: the turn's first seat plays the
    moves named in `first` (a `declare` or `declare_two` is a wrong one), then everyone asks
    and passes; one entry per action, until `count` actions are taken."""
    seats = []
    plan = list(first)
    while len(seats) < count and not state.over:
        legal = eng.legal_actions(state)
        if state.window:
            eng.apply(state, PASS)
            continue
        name = plan.pop(0) if plan else "ask"
        if name == "declare_two":
            action = wrong_pair(eng, state)
        else:
            action = next(a for a in legal if a[0] == name)
        seats.append(state.current)
        eng.apply(state, action)
    return seats


@pytest.mark.parametrize("first", [["ask", "declare"], ["declare", "ask"]])
def test_a_declaration_costs_the_declarers_next_turn_whenever_it_is_made(
        first: list[str]) -> None:
    """Declared after the turn's first ask or instead of it, one card costs the declarer's
    next turn and nothing more: the turn's two actions, then two turns of each other seat."""
    eng = engine()
    state = eng.new_game(3, 4)
    a = state.current
    b, c = (a + 1) % 3, (a + 2) % 3
    assert turn_order(eng, state, first, 12) == [a, a, b, b, c, c, b, b, c, c, a, a]


def test_a_wrong_pair_costs_the_declarers_next_two_turns() -> None:
    eng = engine()
    state = eng.new_game(3, 4)
    a = state.current
    b, c = (a + 1) % 3, (a + 2) % 3
    order = turn_order(eng, state, ["ask", "declare_two"], 14)
    assert order == [a, a, b, b, c, c, b, b, c, c, b, b, c, c]


def test_the_declaring_turn_is_the_forfeited_one_under_declaring_turn() -> None:
    """Today's other reading: a declaration after the first ask ends the turn, and that turn
    is all it costs."""
    eng = engine(**THIS_TURN)
    state = eng.new_game(3, 4)
    a = state.current
    b, c = (a + 1) % 3, (a + 2) % 3
    assert turn_order(eng, state, ["ask", "declare"], 8) == [a, a, b, b, c, c, a, a]


def test_a_deal_that_leaves_two_cards_opens_asking_from_the_start() -> None:
    eng = engine()
    state = eng.new_game(6, 51)  # this deal leaves the last seat two cards, pairs thrown away
    assert min(len(hand(state, p)) for p in range(6)) <= 2
    assert state.vars["open_asking"]
    me = state.current
    mine = {kind(state, c) for c in hand(state, me)}
    assert any(a[0] == "ask" and (a[2], a[3]) not in mine for a in eng.legal_actions(state))


def test_a_game_stopped_by_the_turn_limit_has_no_winner() -> None:
    eng = engine(turn_limit="3")
    state = eng.new_game(4, 8)
    legal = eng.legal_actions(state)
    while legal:  # only ask and pass: nobody accuses
        legal = eng.play(state, PASS if state.window else next(a for a in legal if a[0] == "ask"))
    assert state.over and state.winners == []
    assert eng.results(state)["winners"] == []


def test_declaring_one_card_costs_the_next_turn() -> None:
    eng = engine(**THIS_AND_NEXT)
    state = eng.new_game(3, 4)
    me = state.current
    eng.apply(state, next(a for a in eng.legal_actions(state) if a[0] == "declare"))
    while state.window:
        eng.apply(state, PASS)
    assert state.pvars["missed"][me] == 1
    turns_seen = []
    while len(turns_seen) < state.n + 1 and not state.over:
        if state.step == 0 and not state.window and (not turns_seen
                                                     or turns_seen[-1] != state.turns):
            turns_seen.append(state.turns)
            assert state.current != me or state.pvars["missed"][me] == 0
        legal = eng.legal_actions(state)
        eng.apply(state, PASS if state.window else next(a for a in legal if a[0] == "ask"))


def test_random_games_finish() -> None:
    for seed in range(30):
        state = play_game(engine(), 2 + seed % 5, seed=seed)
        assert state.over


def test_each_two_card_declaration_is_listed_once() -> None:
    eng = engine()
    state = playing(4)
    pairs = [frozenset(a[1:]) for a in eng.legal_actions(state) if a[0] == "declare_two"]
    assert pairs and len(pairs) == len(set(pairs))
    mine = hand(state, state.current)
    n = len(mine)
    partners = sum(1 for i in range(n) for j in range(i + 1, n)
                   if kind(state, mine[i]) == kind(state, mine[j]))
    assert len(pairs) == n * (n - 1) // 2 - partners


def test_with_declare_at_any_time_a_card_is_declared_out_of_turn() -> None:
    """declare_at: any_time offers declaring in every reaction window, to every player still
    in, and not as a turn's action; a card declared is shown to all and costs the declarer's
    next turn. By default declaring is a turn's action only."""
    eng = engine(declare_at="any_time")
    state = eng.new_game(3, 4)
    assert not {a[0] for a in eng.legal_actions(state)} & {"declare", "declare_two"}
    eng.apply(state, next(a for a in eng.legal_actions(state) if a[0] == "ask"))
    assert state.window
    seat = state.window[0]
    declaring = next(a for a in eng.legal_actions(state) if a[0] == "declare_any_time")
    assert declaring[1] in hand(state, seat)
    eng.apply(state, declaring)
    assert state.pvars["missed"][seat] == 1
    assert state.known[declaring[1]] == (1 << state.n) - 1  # shown to the table

    default = engine()
    state = default.new_game(3, 4)
    default.apply(state, next(a for a in default.legal_actions(state) if a[0] == "ask"))
    assert state.window
    assert not {a[0] for a in default.legal_actions(state)} & {"declare_any_time",
                                                               "declare_two_any_time"}


def test_the_hidden_two_are_in_every_view_once_the_game_is_over() -> None:
    """The rules show the hidden two at the end: each seat's view of the game over lists
    them (as it lists the heap's cards the seat knows, the others as backs), where during
    the game it gave their count alone."""
    game = engine()
    state = game.new_game(4, seed=2)
    assert player_view(game.rules, state, 0)["zones"]["hidden"] == {"count": 2}
    state = play_game(game, 4, seed=2)
    names = game.rules.cards.names
    for seat in range(4):
        zones = player_view(game.rules, state, seat)["zones"]
        assert [e["card"] for e in zones["hidden"]["cards"]] == \
            [names[c] for c in zone(state, "hidden")]
        assert None in [e and e["card"] for e in zones["heap"]["cards"]]
