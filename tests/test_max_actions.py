"""A game's bound on actions (`max_actions`): whatever the seats do, every game ends."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardrules.dsl import limits
from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.players.bots import make_bot
from cardrules.interpreter.sessions.play import play
from cardrules.interpreter.state import GameState

RULESETS = Path(__file__).resolve().parent.parent / "rulesets"

# golf6 on a 3x3 grid keeping golf6's estimate: greedy seats never turn their last cards up
# (every one of them prefers to discard), and the stock is reshuffled forever.
GOLF9 = """\
cardrules: 1
extends: GOLF6
name: golf9
max_actions: 600
zones:
  - {name: grid, rows: 3}
round:
  setup:
    - shuffle stock
    - deal 9 from stock to each grid face down
    - move top(stock) to discard face up
"""


@pytest.mark.parametrize("compiled", [True, False])
def test_an_endless_game_is_cut_off_with_no_winner(tmp_path: Path, compiled: bool) -> None:
    path = tmp_path / "golf9.yaml"
    path.write_text(GOLF9.replace("GOLF6", "golf6"), encoding="utf-8")
    rules = load_ruleset(path)
    assert rules.max_actions == 600
    engine = Engine(rules, compiled=compiled)
    state = engine.new_game(4, 1)
    state.log = []
    play(engine, state, [make_bot("greedy", 1, seat) for seat in range(4)])
    assert state.over and state.cut_off and state.winners == [] and state.actions == 600
    assert engine.legal_actions(state) == []
    results = engine.results(state)
    assert results["winners"] == [] and results["rounds"] == 0
    assert results["cut_off"] == ("no winner: the game reached its bound of 600 actions "
                                  "(max_actions) before it ended")
    assert state.log[-1]["event"] == "game_end" and state.log[-1]["cut_off"]
    again = GameState.from_json(state.to_json())
    assert again.cut_off and again.over


def test_the_bound_has_a_default_and_a_game_that_ends_says_nothing_of_it() -> None:
    engine = Engine(load_ruleset(RULESETS / "golf6.yaml"))
    assert engine.rules.max_actions == limits.DEFAULT_ACTIONS
    state = play(engine, engine.new_game(2, 3), [make_bot("random", 3, s) for s in range(2)])
    assert state.over and not state.cut_off and "cut_off" not in engine.results(state)
    assert "cut_off" not in state.to_dict()


def test_a_variant_deletes_the_inherited_estimate(tmp_path: Path) -> None:
    """`evaluate: null` in a variant: golf6's estimate is gone, and the 3x3 grid keeps its
    bound on actions whatever the seats do."""
    path = tmp_path / "golf9.yaml"
    text = GOLF9.replace("GOLF6", "golf6")
    path.write_text(text + "scoring: {evaluate: null}\n", encoding="utf-8")
    rules = load_ruleset(path)
    assert rules.evaluate is None and "evaluate" not in rules.data["scoring"]
    assert rules.data["scoring"]["winner"] == "lowest"  # the other keys stay
    engine = Engine(rules)
    state = play(engine, engine.new_game(4, 2), [make_bot("greedy", 2, s) for s in range(4)])
    assert state.over


def test_deleting_a_key_the_parent_lacks_is_an_error(tmp_path: Path) -> None:
    from cardrules.dsl.loader import check_files

    path = tmp_path / "golf9.yaml"
    text = GOLF9.replace("GOLF6", "golf6")
    path.write_text(text + "scoring: {evalute: null}\n", encoding="utf-8")
    (problem,) = check_files([str(path)])
    assert problem.message.startswith("cannot delete 'evalute': the parent has no such key")
    assert problem.message.endswith("(keys: winner, rounds, evaluate, round)")
    assert problem.location is not None and problem.location.line == 12
