"""rulesets/gin-rummy.yaml: knocking, laying down, lay-offs, gin and undercuts.

Scoring is checked on constructed hands; the knock and what follows it on many random hands
played by seats that knock, lay down and lay off whenever they can.
"""

from __future__ import annotations

import random

import pytest

from cardrules.cli.screen import Style, view_section
from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.state import GameState
from cardrules.interpreter.view import player_view

OPENSPIEL = {"openspiel": "true"}
POINTS = {"A": 1, "J": 10, "Q": 10, "K": 10}


def value(name: str) -> int:
    return POINTS.get(name[:-1]) or int(name[:-1])


def scored(knocker: int | None, hands: tuple[str, str], **options: str) -> list[int]:
    """Each seat's score for a hand that ends with these cards left in the two hands."""
    engine = Engine(load_ruleset("gin-rummy", options or None))
    state = engine.new_game(2, 1)
    names = engine.rules.cards.names
    hand = engine.rules.zone("hand")
    for seat, text in enumerate(hands):
        state.zones[hand.zone_of(seat)] = [names.index(c) for c in text.split()]
    state.vars["knocker"] = knocker
    return [engine.round_score(state, seat) for seat in range(2)]


@pytest.mark.parametrize(("knocker", "hands", "common", "openspiel"), [
    (0, ("3C 5D", "KS QS 2H"), [14, 0], [14, -14]),            # 8 against 22
    (0, ("", "KS QS 2H"), [47, 0], [47, -47]),                # gin: 22 + 25
    (1, ("2C 3D", "AS 7H"), [28, 0], [28, -28]),               # undercut: 5 against 8
    (1, ("4C 4D", "AS 7H"), [0, 0], [0, 0]),                   # equal: no undercut
    (None, ("KC KD KH", "AS"), [0, 0], [0, 0]),               # nobody knocked: a draw
])
def test_a_hand_is_scored(knocker: int | None, hands: tuple[str, str], common: list[int],
                          openspiel: list[int]) -> None:
    assert scored(knocker, hands) == common
    assert scored(knocker, hands, **OPENSPIEL) == openspiel


def test_bonuses_are_options() -> None:
    assert scored(0, ("", "KS"), gin_bonus="20") == [30, 0]
    assert scored(1, ("2C", "AS 7H"), undercut_bonus="10", **OPENSPIEL) == [16, -16]


def eager(engine: Engine, state: GameState, rng: random.Random, made: dict[str, int]) -> None:
    """Play a hand where seats knock, lay down and lay off whenever they can."""
    keen = ("knock", "wall_knock", "lay", "lay_off", "meld", "done")
    while not state.over:
        legal = engine.legal_actions(state)
        wanted = [a for a in legal if a[0] in keen]
        action = rng.choice(wanted or legal)
        made[action[0]] = made.get(action[0], 0) + 1
        engine.apply(state, action)


def deadwood(names: list[str]) -> int:
    return sum(value(n) for n in names)


def test_knocks_lay_downs_and_lay_offs_keep_the_rules() -> None:
    engine = Engine(load_ruleset("gin-rummy", OPENSPIEL))
    rules = engine.rules
    names, laid = rules.cards.names, rules.zone("laid")
    rng = random.Random(5)
    knocks, made = 0, dict[str, int]()
    for seed in range(60):
        state = engine.new_game(2, seed)
        eager(engine, state, rng, made)
        totals = state.totals
        assert totals[0] == -totals[1]
        k = state.vars["knocker"]
        if k is None:
            assert totals == [0, 0]
            continue
        knocks += 1
        hands = [[names[c] for c in state.zones[rules.zone("hand").zone_of(p)]] for p in (0, 1)]
        dk, dd = deadwood(hands[k]), deadwood(hands[1 - k])
        assert dk <= 10
        result = dd - dk + (25 if dk == 0 else 0)
        result -= 25 if result < 0 else 0
        assert totals[k] == result
        for g in laid.instances(k):
            group = [names[c] for c in state.zones[g]]
            assert not group or len(group) >= 3
    assert knocks >= 8 and made["lay"] >= knocks and made.get("lay_off", 0) >= 1


def test_both_declining_the_first_upcard_makes_it_dead() -> None:
    engine = Engine(load_ruleset("gin-rummy", OPENSPIEL))
    state = engine.new_game(2, 2)
    assert [a[0] for a in engine.legal_actions(state)] == ["take_upcard", "decline"]
    upcard = state.zones[engine.rules.zone("upcard").index][-1]
    engine.apply(state, ("decline", upcard))
    engine.apply(state, ("decline", upcard))
    assert state.current == 0 and engine.legal_actions(state) == [("draw_stock",)]
    engine.apply(state, ("draw_stock",))
    assert state.zones[engine.rules.zone("dead").index] == [upcard]
    assert len(state.zones[engine.rules.zone("hand").zone_of(0)]) == 11


def knocked_hand(options: dict[str, str]) -> tuple[Engine, GameState, list[str]]:
    """Seat 1 takes KS, knocks with 6D-6H-6S and 3C-4C-5C laid (deadwood AD AH 2H 3S: 7);
    seat 2, holding 6C, 7C and 8C, is to lay off. Returns the engine, the game and the names."""
    from cardrules.interpreter.deal import parse_deal_data

    rules = load_ruleset("gin-rummy", options)
    engine = Engine(rules)
    deal = parse_deal_data({"zones": {
        "hand[1]": ["6D", "6H", "6S", "3C", "4C", "5C", "AD", "AH", "2H", "3S"],
        "hand[2]": ["6C", "7C", "8C", "2C", "JH", "QH", "9S", "10S", "KD", "KH"],
        "upcard": ["KS"]}}, rules, 2)
    state = engine.new_game(2, 1, deal=deal)
    names = list(rules.cards.names)

    def play(move: str, *args: object) -> None:
        action = next(a for a in engine.legal_actions(state) if a[0] == move
                      and all(x == y for x, y in zip(a[1:], args)))
        engine.apply(state, action)

    assert engine.to_move(state) == 0  # (seat 1 is offered the upcard first, either way)
    play("take_upcard")
    play("knock")
    play("knock_discard", names.index("KS"))
    for meld in (("6D", "6H", "6S"), ("3C", "4C", "5C")):
        cards = sorted(names.index(c) for c in meld)
        play("lay", next(a[1] for a in engine.legal_actions(state)
                          if a[0] == "lay" and sorted(a[1]) == cards))
    play("done")
    return engine, state, names


def test_a_card_that_fits_two_melds_joins_the_one_its_player_chooses() -> None:
    engine, state, names = knocked_hand({})
    assert engine.to_move(state) == 1
    six = [a for a in engine.legal_actions(state) if a[0] == "lay_off_on"
           and a[1] == names.index("6C")]
    assert sorted(sorted(names[c] for c in a[2]) for a in six) == \
        [["3C", "4C", "5C"], ["6D", "6H", "6S"]]
    on_set = next(a for a in six if names.index("6D") in a[2])
    engine.apply(state, on_set)  # on the set, 7C has no run to follow on
    assert not any(a[1] == names.index("7C") for a in engine.legal_actions(state)
                   if a[0] == "lay_off_on")


def test_openspiel_counts_a_card_laid_off_on_every_meld_it_fits() -> None:
    engine, state, names = knocked_hand(OPENSPIEL)
    offered = {a[1] for a in engine.legal_actions(state) if a[0] == "lay_off"}
    assert offered == {names.index("6C"), names.index("2C")}
    engine.apply(state, ("lay_off", names.index("6C")))
    engine.apply(state, ("lay_off", names.index("7C")))  # the run goes on past 6C
    offered = {a[1] for a in engine.legal_actions(state) if a[0] == "lay_off"}
    assert offered == {names.index("2C")}  # 8C would be a third card at that end


def test_the_knocker_is_not_asked_for_lay_offs() -> None:
    engine, state, names = knocked_hand({})
    engine.apply(state, ("no_more",))
    assert engine.to_move(state) == 1  # the other player goes on to its own melds
    assert all(a[0] in ("meld", "finish") for a in engine.legal_actions(state))


@pytest.mark.parametrize("allowed", [True, False])
def test_the_upcard_just_taken_may_be_thrown_back_as_an_option(allowed: bool) -> None:
    """By default (and in OpenSpiel's game) the upcard just taken may be discarded at once;
    `discard_taken: false` forbids it, and only it: the upcard taken on a later turn, or a
    card drawn from the stock, may go."""
    engine = Engine(load_ruleset("gin-rummy", {"discard_taken": str(allowed).lower()}))
    for seed in range(6):
        state = engine.new_game(2, seed)
        take = next(a for a in engine.legal_actions(state) if a[0] == "take_upcard")
        legal = engine.play(state, take)
        discards = {a[1] for a in legal if a[0] == "discard"}
        hand = set(state.zones[engine.rules.zone("hand").zone_of(state.current)])
        assert (take[1] in discards) is allowed
        assert discards | {take[1]} == hand


def test_a_person_reads_no_bookkeeping_of_the_upcard_offer_or_the_knock() -> None:
    """Where the first upcard's offer stands, who knocked and how many melds the knocker
    laid are the rules' bookkeeping (the news tells each as it happens, the table shows the
    melds): no view lists them, as 'Upcard offer: 1'."""
    engine = Engine(load_ruleset("gin-rummy"))
    state = engine.new_game(2, 1)
    engine.apply(state, next(a for a in engine.legal_actions(state) if a[0] == "decline"))
    assert state.vars["offer"] == 1
    for seat in range(2):
        shown = set(player_view(engine.rules, state, seat)["variables"])
        assert not {"offer", "knocker", "laid_count"} & shown, shown
        seen = "\n".join(view_section(engine.rules, state, seat, Style(plain=True)))
        assert "offer" not in seen.lower() and "knock" not in seen.lower(), seen
