"""Corners of the language that the games do not all reach: aggregates with conditions over
grids, joined lists, and the code generated for them."""

from __future__ import annotations

from pathlib import Path

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.play import play_game

DATA = Path(__file__).resolve().parent / "data"


def test_aggregates_with_conditions_over_a_grid() -> None:
    engine = Engine(load_ruleset(DATA / "grid_aggregates.yaml"))
    state = play_game(engine, 2, seed=3)
    numbers = engine.rules.cards.number
    for seat in range(2):
        grid = state.zones[engine.rules.zone("grid").zone_of(seat)]
        expected = sum(numbers[c] for c in grid if numbers[c] > 5) + sum(numbers[c] for c in grid)
        assert state.round_scores[0][seat] == expected
