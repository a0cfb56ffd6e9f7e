#!/usr/bin/env python3
"""How fast the research adapters step, against cardrules playing the same games itself.

    python benchmarks/adapters_speed.py [--ruleset golf6] [--players 4] [--games 20]

Three measurements in one run, each playing whole games with uniformly random legal choices:
  - PettingZoo (`cardrules.pettingzoo.env`): agent steps a second, each step asking for the
    agent's observation (tensor and action mask) as a training loop does;
  - OpenSpiel (`cardrules.openspiel`, through pyspiel's State API): games a second, choosing
    uniformly among `legal_actions()` without observations;
  - cardrules itself (the engine and the kernel, what the adapters step on): games a second.
Needs the pettingzoo and openspiel extras (each part is skipped, saying why, without them).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.kernel import Kernel
from cardrules.interpreter.sessions.play import play_game


def pettingzoo_steps(ruleset: str, players: int, games: int) -> tuple[float, int, int]:
    """Seconds, agent steps and games."""
    from cardrules.pettingzoo import env

    game = env(ruleset, players=players)
    rng = random.Random(1)
    steps = 0
    t0 = time.perf_counter()
    for seed in range(games):
        game.reset(seed=seed)
        for _agent in game.agent_iter():
            observation, _, termination, truncation, _ = game.last()
            if termination or truncation:
                game.step(None)
                continue
            allowed = observation["action_mask"].nonzero()[0]
            game.step(int(allowed[rng.randrange(len(allowed))]))
            steps += 1
    return time.perf_counter() - t0, steps, games


def openspiel_games(ruleset: str, players: int, games: int) -> tuple[float, int, int]:
    """Seconds, actions (parts and chance outcomes) and games."""
    import pyspiel

    import cardrules.openspiel  # noqa: F401 - registers the game

    game = pyspiel.load_game("cardrules", {"ruleset": ruleset, "players": players})
    rng = random.Random(1)
    actions = 0
    t0 = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
    return time.perf_counter() - t0, actions, games


def native_games(ruleset: str, players: int, games: int, kernel: bool) -> tuple[float, int, int]:
    rules = load_ruleset(ruleset)
    engine = Kernel(rules) if kernel else Engine(rules)
    actions = 0
    t0 = time.perf_counter()
    for seed in range(games):
        actions += play_game(engine, players, seed).actions
    return time.perf_counter() - t0, actions, games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="golf6")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args(argv)
    name, n, games = args.ruleset, args.players, args.games
    print(f"{name}, {n} players, {games} games each, uniform random choices")
    engine = native_games(name, n, games, kernel=False)
    kernel = native_games(name, n, games, kernel=True)
    print(f"  cardrules engine      {games / engine[0]:9.1f} games/s "
          f"({engine[1] / engine[0]:,.0f} actions/s)")
    print(f"  cardrules kernel      {games / kernel[0]:9.1f} games/s "
          f"({kernel[1] / kernel[0]:,.0f} actions/s)")
    try:
        seconds, steps, played = pettingzoo_steps(name, n, games)
        print(f"  PettingZoo            {steps / seconds:9,.0f} agent steps/s "
              f"({played / seconds:.1f} games/s, observation and mask at every step)")
    except ImportError as exc:
        print(f"  PettingZoo            skipped: {exc}")
    try:
        seconds, actions, played = openspiel_games(name, n, games)
        rate = played / seconds
        print(f"  OpenSpiel adapter     {rate:9.1f} games/s ({actions / seconds:,.0f} actions/s); "
              f"{rate / (games / engine[0]):.2f}x the engine, "
              f"{rate / (games / kernel[0]):.2f}x the kernel")
    except ImportError as exc:
        print(f"  OpenSpiel adapter     skipped: {exc}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
