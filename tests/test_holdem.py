"""rulesets/holdem.yaml: blinds, the order of betting, the cap on raises, a fold, and the
showdown's ranking written as rules, from stated deals."""

from __future__ import annotations

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.deal import parse_deal_data
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.state import GameState


def dealt(one: list[str], two: list[str], board: list[str] | None = None,
          **options: str) -> tuple[Engine, GameState]:
    """A one-hand match whose deal gives these hole cards (seat 1, seat 2) and, from the top of
    the stock, these board cards."""
    engine = Engine(load_ruleset("rulesets/holdem.yaml", {"hands": "1"} | options))
    zones = {"hand[1]": one, "hand[2]": two}
    if board:
        zones["stock"] = board
    deal = parse_deal_data({"zones": zones}, engine.rules, 2)
    return engine, engine.new_game(2, 1, deal=deal)


def act(engine: Engine, state: GameState, *moves: str) -> None:
    for move in moves:
        assert (move,) in engine.legal_actions(state), (move, engine.legal_actions(state))
        engine.apply(state, (move,))


def test_the_dealer_posts_the_small_blind_and_acts_first_before_the_flop() -> None:
    engine, state = dealt(["AH", "AD"], ["KS", "KC"])
    dealer = engine.to_move(state)
    assert state.pvars["put"][dealer] == 1 and state.pvars["put"][1 - dealer] == 2
    assert sorted(a[0] for a in engine.legal_actions(state)) == ["call", "fold", "raise"]
    act(engine, state, "call")
    assert engine.to_move(state) == 1 - dealer    # the big blind's option
    assert sorted(a[0] for a in engine.legal_actions(state)) == ["check", "raise"]
    act(engine, state, "check")
    assert engine.to_move(state) == 1 - dealer    # after the flop the other acts first
    assert len(state.zones[engine.rules.zone("board").zone_of(0)]) == 3


def test_a_betting_round_holds_at_most_cap_bets() -> None:
    engine, state = dealt(["AH", "AD"], ["KS", "KC"], cap="3")
    act(engine, state, "raise", "raise")            # the big blind, then two raises: 3 bets
    assert sorted(a[0] for a in engine.legal_actions(state)) == ["call", "fold"]
    act(engine, state, "call")
    assert state.pvars["put"] == [6, 6]


def test_a_fold_gives_the_pot_away_unseen() -> None:
    engine, state = dealt(["AH", "AD"], ["KS", "KC"])
    dealer = engine.to_move(state)
    act(engine, state, "fold")
    assert state.over and state.totals[dealer] == -1 and state.totals[1 - dealer] == 1


def showdown(one: list[str], two: list[str], board: list[str]) -> list[int]:
    """The chips each seat wins when both check the hand down."""
    engine, state = dealt(one, two, board)
    act(engine, state, "call", "check", *["check"] * 6)
    assert state.over
    return state.totals


def test_the_best_five_of_seven_takes_the_pot() -> None:
    # aces over kings
    assert showdown(["AH", "AD"], ["KS", "KC"], ["2C", "7D", "9S", "JH", "3C"]) == [2, -2]
    # the wheel (5 high) loses to the straight to the 6
    assert showdown(["AH", "2D"], ["6S", "2S"], ["3C", "4D", "5S", "KH", "KD"]) == [-2, 2]
    # a flush beats a straight
    assert showdown(["AH", "QH"], ["9C", "10D"], ["8H", "JS", "QD", "2H", "5H"]) == [2, -2]
    # the same five cards split the pot
    assert showdown(["KH", "4C"], ["KD", "4S"], ["2C", "7D", "9S", "JH", "3C"]) == [0, 0]
    # a full house (nines full of aces) beats three aces
    assert showdown(["9H", "9D"], ["AS", "KC"], ["9C", "AD", "AH", "2S", "3S"]) == [2, -2]
