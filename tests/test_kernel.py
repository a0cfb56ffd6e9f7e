"""The playout kernel plays the engine's game, on every ruleset, action by action.

The kernel (interpreter/kernel.py) is the ruleset compiled a second time with other facts:
no log, no cache of legal actions, and no record of who knows each card unless a rule asks.
Side by side with the engine, from the same seeds and the same actions, after every action
it must list the same legal actions (as the same ids), have the same seat to move, and leave
the game in the same state, knowledge aside; and the games end with the same results.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from depth import deep  # (tests/depth.py)

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter import domains
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.kernel import Kernel
from cardrules.interpreter.players.bots import make_bot
from cardrules.interpreter.players.search import sample_fill
from cardrules.interpreter.sessions.play import play_game

TESTS = Path(__file__).resolve().parent
# The shipped rulesets, and the rule files of tests/games/ (constructs no shipped game uses).
RULESETS = (sorted((TESTS.parent / "rulesets").glob("*.yaml"))
            + sorted((TESTS / "games").glob("*.yaml")))
LIMIT = 3000  # actions per game, enough for whole matches of every shipped ruleset
SEEDS = deep(4)
KNOWLEDGE = ("known", "maybe", "watchers", "told")  # what a kernel keeps only where rules ask


def _game(state: Any, knowing: bool) -> dict[str, Any]:
    data = state.to_dict()
    return data if knowing else {k: v for k, v in data.items() if k not in KNOWLEDGE}


@pytest.mark.parametrize("path", RULESETS, ids=[p.stem for p in RULESETS])
def test_the_kernel_plays_the_engines_game(path: Path) -> None:
    rules = load_ruleset(path)
    engine, kernel = Engine(rules), Kernel(rules)
    assert kernel.rules.flow is not None and not kernel.rules.flow.caching
    for seed in range(SEEDS):
        players = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
        a, b = engine.new_game(players, seed), kernel.new_game(players, seed)
        assert b.log is None and not b.sight
        rng = random.Random(seed)
        legal_a, legal_b = engine.legal_actions(a), kernel.legal_actions(b)
        for _ in range(LIMIT):
            assert legal_a == legal_b
            assert [kernel.action_of(kernel.id_of(x)) for x in legal_b] == legal_b
            assert engine.to_move(a) == kernel.to_move(b)
            if not legal_a:
                break
            action = legal_a[rng.randrange(len(legal_a))]
            if domains.is_open(action):
                action = sample_fill(action, rng)
            listing = rng.random() < 0.9  # advance() as the search bots use it, now and then
            legal_a = engine.play(a, action, listing)
            legal_b = kernel.play(b, action, listing)
            if not listing:
                legal_a, legal_b = engine.legal_actions(a), kernel.legal_actions(b)
            assert _game(a, kernel.rules.knowing) == _game(b, kernel.rules.knowing)
        assert a.over and b.over
        assert engine.results(a) == kernel.results(b)


@pytest.mark.parametrize("name", ["golf6", "czech-golf", "spades", "grandma"])
def test_random_seats_play_the_same_match_on_the_kernel(name: str) -> None:
    """Whole matches of random seats (the kernel's one-loop playout) end as the engine's."""
    rules = load_ruleset(name)
    engine, kernel = Engine(rules), Kernel(rules)
    for seed in range(4):
        assert engine.results(play_game(engine, None, seed)) == \
            kernel.results(play_game(kernel, None, seed))


def test_only_rules_that_ask_who_knows_a_card_keep_knowledge() -> None:
    assert not Kernel(load_ruleset("golf6")).rules.knowing
    assert Kernel(load_ruleset("czech-golf")).rules.knowing  # its rules read `knows`
    state = Kernel(load_ruleset("golf6")).new_game(4, 1)
    assert not any(state.known)


def test_a_bot_plays_a_kernel_game_to_its_end() -> None:
    rules = load_ruleset("golf6")
    kernel = Kernel(rules)
    state = kernel.new_game(4, 3)
    bot = make_bot("random", 3, 0)
    legal = kernel.legal_actions(state)
    while legal:
        legal = kernel.play(state, bot.choose(kernel, state, legal))
    assert state.over and kernel.legal_actions(state) == []


@pytest.mark.parametrize("name", ["golf6", "spades", "mini"])
def test_a_game_played_until_its_round_end_stops_there_scored(name: str) -> None:
    """A search's imagined game (`adopt(..., until_round_end=True)`) is the same game up to
    its round's end, which is scored as ever; then nothing is left to play and the next round
    is not dealt, but the game is not over (unless that round ended it)."""
    rules = load_ruleset(TESTS / "data" / "mini.yaml" if name == "mini" else name)
    engine, kernel = Engine(rules), Kernel(rules)
    whole = engine.new_game(None, 5)
    held = kernel.adopt(engine.new_game(None, 5), until_round_end=True)
    rng = random.Random(5)
    legal = engine.legal_actions(whole)
    assert kernel.legal_actions(held) == legal
    while len(whole.round_scores) == 0:
        action = legal[int(rng.random() * len(legal))]
        legal = engine.play(whole, action)
        left = kernel.play(held, action)
        if len(whole.round_scores) == 0:
            assert left == legal
    assert held.round_scores == whole.round_scores and held.totals == whole.totals
    if whole.over:  # (a one-round game: over either way)
        assert held.over and not held.between_rounds and held.winners == whole.winners
        return
    assert left == [] and kernel.legal_actions(held) == [] and kernel.to_move(held) is None
    assert held.between_rounds and not held.over and held.round == whole.round - 1
    assert held.copy().between_rounds and held.copy().until_round_end
