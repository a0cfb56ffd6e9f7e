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


GROUPED = """\
cardrules: 1
name: grouped
deck: {zone: stock}
zones:
  - {name: stock, visibility: hidden}
  - {name: hand, owner: each, visibility: owner}
  - {name: meld, owner: each, visibility: owner, groups: 2}
round:
  setup: ["DEAL"]
  phases:
    - name: p
      turns: each_once
      steps:
        - name: s
          moves:
            - name: m
              do: ["move top(hand[me]) to meld[me][1]"]
"""


def test_a_grouped_zone_cannot_be_dealt_to(tmp_path: Path) -> None:
    from cardrules.dsl.loader import check_files

    path = tmp_path / "g.yaml"
    path.write_text(GROUPED.replace("DEAL", "deal 2 from stock to each meld"), encoding="utf-8")
    (problem,) = check_files([str(path)])
    assert "without groups" in problem.message


def test_a_card_moved_into_an_owner_group_is_known_to_that_owner(tmp_path: Path) -> None:
    path = tmp_path / "g.yaml"
    path.write_text(GROUPED.replace("DEAL", "deal 3 from stock to each hand"), encoding="utf-8")
    engine = Engine(load_ruleset(path))
    state = engine.new_game(2, 1)
    engine.apply(state, ("m",))  # seat 1 puts a card into its second group
    engine.apply(state, ("m",))  # seat 2 likewise
    for seat in range(2):
        (card,) = state.zones[engine.rules.zone("meld").instances(seat)[1]]
        assert state.known[card] == 1 << seat
