"""golf6-family and the other golf6 variants: each house rule changes results as it says.

The family bonuses are checked against a brute force written here, independently of the
card-pattern built-ins: jokers are tried as every rank and suit.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter import flow
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.sessions.play import play_game
from cardrules.interpreter.state import GameState
from cardrules.present.render import round_summary

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = "CDHS"
NAMES = [r + s for s in SUITS for r in RANKS] + ["JK", "JK"]


@functools.cache
def engine(name: str, **options: Any) -> Engine:
    return Engine(load_ruleset(name, options=options or None))


def dealt(eng: Engine, grids: dict[int, list[str]], seed: int = 1,
          log: bool = False) -> GameState:
    """A new game whose given seats' grids hold the named cards (reading order)."""
    rules = eng.rules
    state = eng.new_game(2, seed, log=log)
    names = rules.cards.names
    taken: set[int] = set()
    for seat, wanted in grids.items():
        cards = []
        for name in wanted:
            card = next(c for c in range(state.n_cards) if names[c] == name and c not in taken)
            taken.add(card)
            cards.append(card)
        grid = state.zones[rules.zone("grid").zone_of(seat)]
        stock = state.zones[rules.zone("stock").index]
        for zone in state.zones:
            zone[:] = [c for c in zone if c not in cards]
        stock.extend(c for c in grid if c not in cards)
        grid[:] = cards
    for z, zone in enumerate(state.zones):
        for c in zone:
            state.where[c] = z
    state.legal_cache = None
    return state


# ----------------------------------------------------------- brute force oracle
def brute_flush(grid: list[str]) -> bool:
    suits = {n[-1] for n in grid if n != "JK"}
    return len(suits) <= 1


def brute_run(grid: list[str], wrap: bool = False, ace_high: bool = True) -> bool:
    jokers = grid.count("JK")
    ranks = [RANKS.index(n[:-1]) for n in grid if n != "JK"]
    for filling in itertools.product(range(13), repeat=jokers):
        values = sorted(ranks + list(filling))
        if values == list(range(values[0], values[0] + 6)):
            return True
        high = sorted(13 if v == 0 else v for v in values)  # the ace above the king
        if ace_high and high == list(range(high[0], high[0] + 6)):
            return True
        if wrap and any(sorted((v - shift) % 13 for v in values)
                        == list(range(6)) for shift in range(13)):
            return True
    return False


grids = st.lists(st.sampled_from(range(len(NAMES))), min_size=6, max_size=6, unique=True)


@settings(max_examples=300, deadline=None, database=None)
@given(picks=grids)
def test_family_bonuses_match_a_brute_force(picks: list[int]) -> None:
    grid = [NAMES[i] for i in picks]
    state = dealt(engine("golf6-family"), {0: grid})
    columns, bonus = engine("golf6-family").rules.score(state, 0)
    expected = -20 if brute_flush(grid) or brute_run(grid) else 0
    assert bonus == expected, grid
    assert columns == engine("golf6").rules.score(state, 0)[0]  # bonus is added, by default


@settings(max_examples=150, deadline=None, database=None)
@given(picks=grids)
def test_wrapping_runs_match_a_brute_force(picks: list[int]) -> None:
    grid = [NAMES[i] for i in picks]
    eng = engine("golf6-family", run_wraps="true", bonuses_combine="true")
    state = dealt(eng, {0: grid})
    _, bonus = eng.rules.score(state, 0)
    assert bonus == -20 * (brute_flush(grid) + brute_run(grid, wrap=True)), grid


@settings(max_examples=150, deadline=None, database=None)
@given(picks=grids)
def test_ace_low_runs_only_match_a_brute_force(picks: list[int]) -> None:
    grid = [NAMES[i] for i in picks]
    eng = engine("golf6-family", ace_high_runs="false")
    _, bonus = eng.rules.score(dealt(eng, {0: grid}), 0)
    assert bonus == (-20 if brute_flush(grid) or brute_run(grid, ace_high=False) else 0), grid


def test_examples_of_each_bonus() -> None:
    eng = engine("golf6-family")
    cases = {
        ("2H", "5H", "9H", "JH", "KH", "AH"): -20,  # one suit
        ("3C", "4D", "5H", "6S", "7C", "8D"): -20,  # a run of six
        ("3C", "4D", "JK", "6S", "7C", "8D"): -20,  # a joker fills the gap
        ("QC", "KD", "AH", "2S", "3C", "4D"): 0,  # no wrapping by default
        ("9C", "10D", "JH", "QS", "KC", "AD"): -20,  # but an ace may end a run above the king
        ("10C", "JD", "QH", "KS", "AC", "JK"): -20,  # the joker as the 9
        ("3C", "4D", "5H", "6S", "7C", "9D"): 0,
    }
    for grid, bonus in cases.items():
        state = dealt(eng, {0: list(grid)})
        assert eng.rules.score(state, 0)[1] == bonus, grid


def test_bonus_replaces_the_total_when_asked() -> None:
    grid = ["2H", "5H", "9H", "JH", "KH", "AH"]
    plain = engine("golf6-family")
    replacing = engine("golf6-family", bonus_replaces_total="true")
    assert sum(plain.rules.score(dealt(plain, {0: grid}), 0)) == 2 + 5 + 9 + 10 + 0 + 1 - 20
    assert sum(replacing.rules.score(dealt(replacing, {0: grid}), 0)) == -20


def finish_round(eng: Engine, state: GameState) -> None:
    """End the current round through the engine's own flow and scoring."""
    state.signal |= 4  # as `end round` would
    flow.end_round(eng.flow, state)


def test_a_total_of_exactly_150_drops_back_to_zero() -> None:
    eng = engine("golf6-family")
    grid = ["KH", "KS", "KC", "KD", "QH", "QS"]  # columns K/K, K/Q, K/Q: 0 + 10 + 10 = 20
    state = dealt(eng, {0: grid, 1: ["2C", "3D", "4S", "5C", "6D", "8S"]})
    state.totals = [130, 129]
    finish_round(eng, state)
    assert state.round_scores[-1][0] == 20
    assert state.totals[0] == 0  # 130 + 20 = 150 exactly
    assert state.totals[1] == 129 + state.round_scores[-1][1]


def test_a_six_card_straight_flush_wins_the_match_at_once() -> None:
    eng = engine("golf6-family")
    state = dealt(eng, {0: ["3H", "4H", "5H", "6H", "7H", "8H"],
                        1: ["2C", "2D", "9S", "9H", "KC", "KD"]})
    state.totals = [300, 0]
    finish_round(eng, state)
    assert state.over and state.winners == [0]
    assert state.round < state.rounds_total  # the match stopped before its nine rounds


@pytest.mark.parametrize(("options", "wins"),
                         [({}, False), ({"straight_flush_wild": "true"}, True)])
def test_a_joker_makes_no_straight_flush_unless_the_option_says(
        options: dict[str, str], wins: bool) -> None:
    """The text makes jokers wild for the two bonuses only; the outright win asks for a
    natural straight flush by default. The joker still earns the bonus either way."""
    eng = engine("golf6-family", **options)
    grid = ["3H", "4H", "5H", "6H", "7H", "JK"]
    state = dealt(eng, {0: grid, 1: ["2C", "2D", "9S", "9H", "KC", "KD"]})
    assert eng.rules.score(state, 0)[1] == -20
    state.totals = [300, 0]
    finish_round(eng, state)
    assert state.over is wins
    assert (state.winners == [0]) is wins


@pytest.mark.parametrize(("options", "run"), [
    ({}, True), ({"ace_high_runs": "false"}, False),
    ({"ace_high_runs": "false", "run_wraps": "true"}, True)])
def test_an_ace_high_run_is_its_own_option_apart_from_wrapping(
        options: dict[str, str], run: bool) -> None:
    eng = engine("golf6-family", **options)
    high = ["9C", "10D", "JH", "QS", "KC", "AD"]
    assert eng.rules.score(dealt(eng, {0: high}), 0)[1] == (-20 if run else 0)
    corner = ["QC", "KD", "AH", "2S", "3C", "4D"]
    wraps = options.get("run_wraps") == "true"
    assert eng.rules.score(dealt(eng, {0: corner}), 0)[1] == (-20 if wraps else 0)


def test_quick_plays_four_rounds() -> None:
    state = play_game(engine("golf6-quick"), 3, seed=4)
    assert len(state.round_scores) == 4
    assert len(play_game(engine("golf6"), 3, seed=4).round_scores) == 9


def test_jokers_are_worth_minus_five() -> None:
    grid = ["JK", "5H", "9H", "JH", "KH", "AH"]
    base, fives = engine("golf6"), engine("golf6-jokers5")
    difference = sum(base.rules.score(dealt(base, {0: grid}), 0)) \
        - sum(fives.rules.score(dealt(fives, {0: grid}), 0))
    assert difference == 3  # -2 became -5


def test_a_pair_in_a_column_scores_minus_ten() -> None:
    grid = ["7H", "5H", "9H", "7S", "KH", "AH"]  # column 1 holds 7H over 7S
    base, pairs = engine("golf6"), engine("golf6-pairs10")
    assert sum(base.rules.score(dealt(base, {0: grid}), 0)) == 0 + 5 + 0 + 9 + 1
    assert sum(pairs.rules.score(dealt(pairs, {0: grid}), 0)) == -10 + 5 + 0 + 9 + 1


def test_the_family_rules_change_random_matches() -> None:
    plain = [sum(play_game(engine("golf6"), 4, seed=s).totals) for s in range(30)]
    family = [sum(play_game(engine("golf6-family"), 4, seed=s).totals) for s in range(30)]
    assert plain != family
    assert sum(family) < sum(plain)  # bonuses only lower scores, and 150 drops to 0


def test_the_round_account_says_what_the_house_rules_did_and_why() -> None:
    """The account of a round names the bonus apart from the columns, and says when a total
    dropped to 0 or a straight flush won, in the words of the rules that did it."""
    eng = engine("golf6-family")
    grid = ["KH", "KS", "KC", "KD", "QH", "QS"]  # 0 + 10 + 10 = 20
    flush = ["3H", "4H", "5H", "6H", "7H", "8H"]  # a natural straight flush
    state = dealt(eng, {0: grid, 1: flush}, log=True)
    state.totals = [130, 0]
    finish_round(eng, state)
    event = next(e for e in state.log if e.get("event") == "round_end")
    text = "\n".join(round_summary(eng.rules, event, plain=True))
    assert "seat 1's total 150 -> 0" in text
    assert "seat 2 won the match" in text
    assert "(back_to_zero: A total of exactly reset_total (150)" in text
    assert "(straight_flush: A six-card straight flush" in text
    second = next(line for line in text.splitlines() if line.startswith("  seat 2"))
    assert "(columns 33, house_bonus -20)" in second  # 3+4+5+6+7+8 = 33, and the bonus
    first = next(line for line in text.splitlines() if line.startswith("  seat 1"))
    assert "house_bonus" not in first
