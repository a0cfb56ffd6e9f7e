"""rulesets/ninety-nine.yaml: the running total, the cards' effects, tokens and the last one in.

The effects are checked from stated deals; which cards may be played, on every decision of
random games, against a reading of the rules written here.
"""

from __future__ import annotations

import pytest

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.deal import parse_deal_data
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.players.bots import make_bot
from cardrules.interpreter.state import GameState
from cardrules.model import Action


def dealt(hands: list[list[str]], stock: list[str] | None = None, seed: int = 1,
          **options: str) -> tuple[Engine, GameState]:
    """A game whose first deal gives these hands (seat 1 first) and stock, from its top."""
    engine = Engine(load_ruleset("ninety-nine", options or None))
    zones = {f"hand[{seat + 1}]": hand for seat, hand in enumerate(hands)}
    if stock:
        zones["stock"] = stock
    deal = parse_deal_data({"zones": zones}, engine.rules, len(hands))
    return engine, engine.new_game(len(hands), seed, deal=deal)


def play(engine: Engine, state: GameState, card: str, amount: int | None = None) -> None:
    """The seat to move plays `card` (for `amount`, where its player says what it adds)."""
    names = engine.rules.cards.names
    for action in engine.legal_actions(state):
        if names[action[1]] == card and (amount is None or action[2] == amount):
            engine.apply(state, action)
            return
    raise AssertionError(f"{card} is not offered")


def offered(engine: Engine, state: GameState) -> list[tuple[str, ...]]:
    names = engine.rules.cards.names
    return sorted((a[0], names[a[1]], *map(str, a[2:])) for a in engine.legal_actions(state))


def test_cards_add_to_the_total_and_play_goes_round() -> None:
    engine, state = dealt([["7H", "2C", "3C"], ["JD", "2D", "3D"], ["9S", "2S", "3S"]])
    play(engine, state, "7H")
    assert state.vars["running"] == 7 and state.current == 1
    play(engine, state, "JD")
    play(engine, state, "9S")   # a nine adds nothing
    assert state.vars["running"] == 17 and state.current == 0
    assert [len(state.zones[engine.rules.zone("hand").zone_of(p)]) for p in range(3)] == [3] * 3


def test_a_four_reverses_the_direction_of_play() -> None:
    engine, state = dealt([["4H", "2C", "3C"], ["5D", "2D", "3D"], ["6S", "2S", "3S"],
                           ["8H", "2H", "3H"]])
    play(engine, state, "4H")
    assert state.vars["reversed"] and state.current == 3   # seat 4 next, then seat 3
    play(engine, state, "8H")
    assert state.current == 2
    play(engine, state, "6S")
    assert state.vars["running"] == 14 and state.current == 1


def test_a_ten_takes_ten_off_but_never_below_nothing() -> None:
    engine, state = dealt([["5H", "10C", "3C"], ["10D", "2D", "3D"]])
    play(engine, state, "5H")
    play(engine, state, "10D")
    assert state.vars["running"] == 0


def test_a_king_makes_ninety_nine_and_the_next_who_cannot_play_loses_a_token() -> None:
    engine, state = dealt([["KH", "2C", "3C"], ["5D", "6D", "7D"]], stock=["8S", "9C"])
    play(engine, state, "KH")
    # seat 2 holds nothing that keeps 99: it loses a token and a new deal begins
    assert state.round == 2 and state.pvars["tokens_left"] == [3, 2]
    assert state.totals == [0, -1]


def test_cards_that_would_pass_ninety_nine_are_not_offered() -> None:
    engine, state = dealt([["KH", "2C", "3C"], ["9D", "4D", "AD"]], stock=["QS"])
    play(engine, state, "KH")
    assert offered(engine, state) == [("play", "4D"), ("play", "9D")]


def test_options_let_a_ten_or_an_ace_count_as_its_player_says() -> None:
    engine, state = dealt([["10H", "AC", "3C"], ["5D", "6D", "7D"]], ten="either",
                          ace="one_or_eleven")
    assert offered(engine, state) == [("play", "3C"), ("play_for", "10H", "-10"),
                                      ("play_for", "10H", "10"), ("play_for", "AC", "1"),
                                      ("play_for", "AC", "11")]
    play(engine, state, "AC", 11)
    assert state.vars["running"] == 11


def test_a_king_may_add_nothing() -> None:
    engine, state = dealt([["KH", "2C", "3C"], ["5D", "6D", "7D"]], king="zero")
    play(engine, state, "KH")
    assert state.vars["running"] == 0 and state.round == 1


def test_out_of_tokens_out_of_the_game_and_the_last_one_in_wins() -> None:
    engine, state = dealt([["KH", "2C", "3C"], ["5D", "6D", "7D"], ["8S", "2S", "3S"]],
                          tokens="1")
    play(engine, state, "KH")
    assert state.active == [True, False, True] and not state.over
    bots = [make_bot("random", 3, seat) for seat in range(3)]
    while not state.over:
        seat = engine.to_move(state)
        assert seat is not None and seat != 1
        engine.apply(state, bots[seat].choose(engine, state, engine.legal_actions(state)))
    assert len(state.winners or []) == 1 and sum(state.active) == 1
    assert state.winners == [state.active.index(True)]


@pytest.mark.parametrize("options", [{}, {"ten": "either", "ace": "one_or_eleven"}])
def test_every_decision_offers_exactly_the_cards_that_fit(options: dict[str, str]) -> None:
    """Random games, every decision compared with the rules as read here: each card, with
    each amount it may add, that leaves the total at 99 or under."""
    engine = Engine(load_ruleset("ninety-nine", options or None))
    names, hand = engine.rules.cards.names, engine.rules.zone("hand")
    adds = {"A": [1], "4": [0], "9": [0], "10": [-10], "J": [10], "Q": [10], "K": [0]}
    if options:
        adds.update({"A": [1, 11], "10": [-10, 10]})

    def total(running: int, card: str, amount: int) -> int:
        return 99 if card[:-1] == "K" else max(0, running + amount)

    for seed in range(3):
        state = engine.new_game(4, seed)
        bot = make_bot("random", seed, 0)
        while not state.over:
            running = state.vars["running"]
            mine = [names[c] for c in state.zones[hand.zone_of(state.current)]]
            wanted = {(card, total(running, card, a)) for card in mine
                      for a in adds.get(card[:-1], [int(card[:-1]) if card[:-1].isdigit() else 0])
                      if total(running, card, a) <= 99}
            legal: list[Action] = engine.legal_actions(state)
            got = set()
            for action in legal:
                card = names[action[1]]
                amount = action[2] if action[0] == "play_for" else \
                    adds.get(card[:-1], [int(card[:-1]) if card[:-1].isdigit() else 0])[0]
                got.add((card, total(running, card, amount)))
            assert got == wanted and len(got) == len(legal), (running, mine)
            engine.apply(state, bot.choose(engine, state, legal))
