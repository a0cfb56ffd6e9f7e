"""`while` and `until` blocks: the test before or after the body, and the limit that bounds
every loop."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardrules.dsl.loader import check_files, load_ruleset
from cardrules.interpreter.engine import Engine

GAME = """\
cardrules: 1
name: loops
players: {min: 2, max: 2}
deck: {zone: stock}
zones:
  - {name: stock, visibility: hidden}
  - {name: hand, owner: each, visibility: owner}
variables:
  - {name: n, scope: round, initial: 0}
  - {name: m, scope: round, initial: 0}
round:
  setup:
    - shuffle stock
    - while: "sum(c.number for c in hand[seat(1)]) < 17"
      limit: 15
      do: ["move top(stock) to hand[seat(1)]"]
    - until: "n >= 3"
      limit: 5
      do: ["set n += 1", "move top(stock) to hand[seat(2)]"]
    - until: "true"
      limit: 5
      do: ["set m += 1"]
    - while: "false"
      limit: 5
      do: ["set m += 10"]
    - while: "true"
      limit: LIMIT
      do: ["set m += 100"]
  phases:
    - name: p
      turns: each_once
      steps:
        - name: s
          moves:
            - {name: ok, do: []}
"""


def engine(tmp_path: Path, limit: int = 4) -> Engine:
    path = tmp_path / "loops.yaml"
    path.write_text(GAME.replace("LIMIT", str(limit)), encoding="utf-8")
    return Engine(load_ruleset(path))


@pytest.mark.parametrize("compiled", [True, False])
def test_while_tests_first_until_runs_the_body_first(tmp_path: Path, compiled: bool) -> None:
    e = engine(tmp_path)
    number = e.rules.cards.number
    hand = e.rules.zone("hand")
    for seed in range(30):
        state = Engine(e.rules, compiled=compiled).new_game(2, seed)
        first = [number[c] for c in state.zones[hand.zone_of(0)]]
        assert sum(first) >= 17 and sum(first[:-1]) < 17  # drew until 17, not a card more
        assert len(state.zones[hand.zone_of(1)]) == 3 and state.vars["n"] == 3
        # `until: true` ran once, `while: false` never, `while: true` up to its limit
        assert state.vars["m"] == 1 + 4 * 100


def test_the_limit_ends_a_loop_whose_test_never_changes(tmp_path: Path) -> None:
    state = engine(tmp_path, limit=1000).new_game(2, 1)
    assert state.vars["m"] == 1 + 1000 * 100


def test_a_loop_must_have_a_limit(tmp_path: Path) -> None:
    path = tmp_path / "loops.yaml"
    path.write_text(GAME.replace("      limit: LIMIT\n", ""), encoding="utf-8")
    (problem,) = check_files([str(path)])
    assert "a while block needs `limit: N`" in problem.message
    assert problem.location is not None and problem.location.line == 26
