#!/usr/bin/env python3
"""Count the golf6-family grids that win the match outright with a straight flush.

    python benchmarks/straight_flush_grids.py [name=value ...]

Every set of six cards that can be a straight flush lies in one suit once its jokers are put
aside, so the candidates are: a suit, six minus k of its thirteen cards, and k of the deck's two
jokers (k = 0, 1, 2). Each candidate is laid in seat 1's grid of a two-player game and the round
is ended through the engine's own flow; the script prints how many candidates made seat 1 the
winner. Options are given as in `cardrules run -o` (straight_flush_wild=true, ace_high_runs=false,
run_wraps=true, ...).
"""

from __future__ import annotations

import itertools
import math
import sys

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter import flow
from cardrules.interpreter.engine import Engine


def main(argv: list[str]) -> int:
    options = dict(arg.split("=", 1) for arg in argv)
    eng = Engine(load_ruleset("golf6-family", options=options or None))
    rules = eng.rules
    names = rules.cards.names[:eng.new_game(2, 1).n_cards]  # one deck
    jokers = [c for c in range(len(names)) if names[c] == "JK"]
    other = [names.index(n) for n in ("2C", "2D", "9S", "9H", "KC", "KD")]
    wins = candidates = 0
    for suit in "CDHS":
        naturals = [c for c in range(len(names)) if names[c] != "JK" and names[c][-1] == suit]
        for k in range(3):
            for picked in itertools.combinations(naturals, 6 - k):
                for extra in itertools.combinations(jokers, k):
                    candidates += 1
                    wins += wins_outright(eng, [*picked, *extra], other)
    print(f"options: {options or 'defaults'}")
    print(f"candidate grids: {candidates}, straight flushes that win: {wins} "
          f"(of {math.comb(len(names), 6)} six-card grids from one deck)")
    return 0


def wins_outright(eng: Engine, grid: list[int], other: list[int]) -> bool:
    """Whether seat 1 wins at once with `grid` against a grid that cannot qualify."""
    rules = eng.rules
    state = eng.new_game(2, 1)
    placed = {0: grid, 1: other}
    for zone in state.zones:
        zone[:] = [c for c in zone if c not in grid and c not in other]
    stock = state.zones[rules.zone("stock").index]
    for seat, cards in placed.items():
        target = state.zones[rules.zone("grid").zone_of(seat)]
        stock.extend(target)
        target[:] = cards
    for z, zone in enumerate(state.zones):
        for c in zone:
            state.where[c] = z
    state.legal_cache = None
    state.signal |= 4  # as `end round` would
    flow.end_round(eng.flow, state)
    return state.over and state.winners == [0]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
