"""The compiled turn flow plays exactly as the engine's generic flow, on every ruleset.

Each move's generated handler applies the move and takes the game on to the next decision;
the engine's interpreted flow (`Engine(rules, compiled=False)`) is the reference. Two engines
play the same seeded games side by side, and after every action the legal actions, the whole
state and the event log must be the same.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter import domains
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.players.search import sample_fill

RULESETS = sorted((Path(__file__).resolve().parent.parent / "rulesets").glob("*.yaml"))
LIMIT = 3000  # actions per game, enough for whole matches of every shipped ruleset


@pytest.mark.parametrize("path", RULESETS, ids=[p.stem for p in RULESETS])
def test_the_compiled_flow_plays_as_the_generic_flow(path: Path) -> None:
    rules = load_ruleset(path)
    compiled, generic = Engine(rules), Engine(rules, compiled=False)
    assert compiled.compiled and not generic.compiled
    lockstep(compiled, generic)


# Shipped rulesets whose rules say `end turn` (the flow takes such a turn's end on the common
# path, as after its last step: `ends_turns`), and the options under which they do.
ENDING = {"czech-golf": {}, "gin-rummy": {}, "scopa": {},
          "geohash": {"declaring_forfeits": "declaring_turn_and_next"}}


@pytest.mark.parametrize("name", ENDING)
def test_a_turn_ended_by_a_rule_plays_as_any_signal(name: str) -> None:
    """`end turn` taken on the common path (compiled and generic alike) plays as the flow's
    general way with a rule's signal (`signalled`), which it takes when told no rule ends
    turns."""
    rules = load_ruleset(name, ENDING[name])
    assert rules.flow is not None and rules.flow.ends_turns
    general = replace(rules, flow=replace(rules.flow, ends_turns=False))
    lockstep(Engine(rules), Engine(general, compiled=False))


def lockstep(compiled: Engine, generic: Engine) -> None:
    rules = compiled.rules
    for seed in range(3):
        players = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
        a = compiled.new_game(players, seed, log=True)
        b = generic.new_game(players, seed, log=True)
        rng = random.Random(seed)
        legal_a, legal_b = compiled.legal_actions(a), generic.legal_actions(b)
        seen = 0
        for _ in range(LIMIT):
            assert legal_a == legal_b
            if not legal_a:
                break
            action = legal_a[rng.randrange(len(legal_a))]
            if domains.is_open(action):
                action = sample_fill(action, rng)
            listing = rng.random() < 0.9  # advance() as the search bots use it, now and then
            legal_a = compiled.play(a, action, listing)
            legal_b = generic.play(b, action, listing)
            if not listing:
                legal_a, legal_b = compiled.legal_actions(a), generic.legal_actions(b)
            assert a.to_dict() == b.to_dict()
            assert a.log is not None and b.log is not None
            assert a.log[seen:] == b.log[seen:]
            seen = len(a.log)
        assert a.over and b.over
        assert compiled.results(a) == generic.results(b)
