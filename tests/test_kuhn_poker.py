"""rulesets/kuhn-poker.yaml: every betting sequence of every deal, and what it pays.

The same as tests/test_lockstep.py checks against OpenSpiel's kuhn_poker, written out here by
hand from the rules, so that it is checked where open_spiel is not installed.
"""

from __future__ import annotations

import itertools

import pytest

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.deal import parse_deal_data
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.view import player_view

ENGINE = Engine(load_ruleset("kuhn-poker"))
HIGH = {"JS": 0, "QS": 1, "KS": 2}

# The moves of each sequence, and who takes the pot: 'high' the higher card, else a seat.
SEQUENCES = [
    (["check", "check"], "high", 1),
    (["check", "bet", "fold"], 1, 1),
    (["check", "bet", "call"], "high", 2),
    (["bet", "fold"], 0, 1),
    (["bet", "call"], "high", 2),
]


@pytest.mark.parametrize("deal", list(itertools.permutations(HIGH, 2)), ids="-".join)
@pytest.mark.parametrize(("moves", "taker", "won"), SEQUENCES,
                         ids=["-".join(s[0]) for s in SEQUENCES])
def test_a_sequence_pays_what_the_rules_say(deal: tuple[str, str], moves: list[str],
                                            taker: str | int, won: int) -> None:
    given = parse_deal_data({"zones": {"hand[1]": [deal[0]], "hand[2]": [deal[1]]}},
                            ENGINE.rules, 2)
    state = ENGINE.new_game(2, 1, deal=given)
    for i, move in enumerate(moves):
        assert state.current == i % 2
        offered = sorted(a[0] for a in ENGINE.legal_actions(state))
        assert offered == (["call", "fold"] if "bet" in moves[:i] else ["bet", "check"])
        ENGINE.apply(state, (move,))
    assert state.over
    winner = (0 if HIGH[deal[0]] > HIGH[deal[1]] else 1) if taker == "high" else taker
    assert state.totals == [won if seat == winner else -won for seat in range(2)]
    # at a showdown both cards are shown; a folded hand is never seen by the other seat
    other = player_view(ENGINE.rules, state, 1 - winner)["zones"]["hand"][str(winner + 1)]
    assert (other["cards"][0]["card"] is not None) == (taker == "high")
