"""Zones that keep their cards from one round to the next (`keep: true`): a shoe dealt from
over several hands, refilled from a tray of used cards when it runs low."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.engine import Engine

SHOE = """\
cardrules: 1
name: shoe
players: {min: 2, max: 2}
deck: {copies: 2, zone: tray}
zones:
  - {name: tray, visibility: public, keep: true, doc: "used cards, until the shoe is refilled"}
  - {name: shoe, visibility: hidden, keep: true}
  - {name: hand, owner: each, visibility: owner}
round:
  setup:
    - if: "size(shoe) < 20"
      then: ["move cards(tray) to shoe face down", "shuffle shoe"]
    - deal 2 from shoe to each hand
  phases:
    - name: p
      turns: each_once
      steps:
        - name: s
          moves:
            - {name: hit, do: ["move top(shoe) to hand[me]"]}
            - {name: stand, do: []}
scoring:
  rounds: 30
  round:
    - {name: held, score: "size(hand[p])"}
"""


@pytest.mark.parametrize("compiled", [True, False])
def test_a_shoe_lasts_several_rounds(tmp_path: Path, compiled: bool) -> None:
    path = tmp_path / "shoe.yaml"
    path.write_text(SHOE, encoding="utf-8")
    engine = Engine(load_ruleset(path), compiled=compiled)
    rules = engine.rules
    shoe, tray = rules.zone("shoe").index, rules.zone("tray").index
    state = engine.new_game(2, 3)
    rng = random.Random(3)
    sizes, round_seen, refills = [len(state.zones[shoe])], 1, 0
    while not engine.is_over(state):
        legal = engine.legal_actions(state)
        engine.apply(state, legal[rng.randrange(len(legal))])
        if state.round != round_seen and not state.over:
            round_seen = state.round
            before = sizes[-1]
            sizes.append(len(state.zones[shoe]))
            refills += sizes[-1] > before
            # every card is somewhere, once; the tray's cards lie face up as they were left
            assert sorted(c for z in state.zones for c in z) == list(range(104))
            assert all(not state.face_up[c] for c in state.zones[shoe])
        if refills == 0:
            assert len(state.zones[tray]) + len(state.zones[shoe]) + sum(
                len(state.zones[z]) for z in rules.zone("hand").instances(0)
                + rules.zone("hand").instances(1)) == 104
    assert sizes[0] == 100 and sizes[1] < sizes[0] - 3  # the second hand came from the same shoe
    assert refills >= 1  # ...and the shoe was refilled from the tray when it ran low
    assert min(sizes) >= 20 - 4 - 8


def test_without_keep_every_round_starts_from_a_full_deck(tmp_path: Path) -> None:
    path = tmp_path / "shoe.yaml"
    path.write_text(SHOE.replace(", keep: true", ""), encoding="utf-8")
    engine = Engine(load_ruleset(path))
    shoe = engine.rules.zone("shoe").index
    state = engine.new_game(2, 3)
    while not engine.is_over(state):
        rnd = state.round
        engine.apply(state, engine.legal_actions(state)[0])
        if state.round != rnd and not state.over:
            assert len(state.zones[shoe]) == 100
