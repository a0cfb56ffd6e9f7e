#!/usr/bin/env python3
"""How fast the research adapters step, against cardrules playing the same games itself.

    python benchmarks/adapters_speed.py [--ruleset golf6] [--players 4] [--games 20] [--repeat 3]

Every measurement plays whole games with uniformly random legal choices, side by side:
  - cardrules itself, the engine and the kernel (what the adapters step on): games a second;
  - PettingZoo (`cardrules.pettingzoo.env`, and `raw_env` without PettingZoo's checking
    wrapper): agent steps a second, each step asking for the agent's observation (tensor
    and action mask) as a training loop does; and, for scale, the same loop on an
    environment that does nothing, of the same sizes, behind the same wrapper (what
    PettingZoo's loop costs by itself);
  - OpenSpiel (`cardrules.openspiel`, through pyspiel's State API): games a second,
    choosing among `legal_actions()`, with whole actions and in parts (`actions=parts`),
    without observations and with `observation_tensor` at every decision; and, for scale,
    a Python game that does nothing, of as many decisions a game (what pyspiel's State API
    costs by itself).
Every measurement is made `--repeat` times, in turn, and the median of each is shown (the
ratios are of medians), so that a busy moment of the machine does not decide a ratio.
Needs the pettingzoo and openspiel extras (each part is skipped, saying why, without them).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.kernel import Kernel
from cardrules.interpreter.sessions.play import play_game


def pettingzoo_steps(ruleset: str, players: int, games: int, raw: bool = False,
                     idle: bool = False) -> tuple[float, int, int]:
    """Seconds, agent steps and games."""
    from cardrules.pettingzoo import env, raw_env

    game = _idle_env(ruleset, players) if idle else \
        raw_env(ruleset, players=players) if raw else env(ruleset, players=players)
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


def _idle_env(ruleset: str, players: int) -> Any:
    """An environment that does nothing, with the observation and action sizes of the
    ruleset's, a game as long as the ruleset's, behind the wrapper `env` puts on."""
    import numpy as np
    from pettingzoo.utils import wrappers

    from cardrules.adapters.pettingzoo import CardrulesEnv

    class Idle(CardrulesEnv):  # type: ignore[misc]
        def reset(self, seed: int | None = None, options: Any = None) -> None:
            super().reset(seed, options)
            self.left = 700
            self.tensor = np.zeros(self.plan.size, np.float32)
            self.mask = np.zeros(len(self.table.actions), np.int8)
            self.mask[:3] = 1

        def observe(self, agent: str) -> dict[str, Any]:
            return {"observation": self.tensor.copy(), "action_mask": self.mask.copy()}

        def step(self, action: int | None) -> None:
            agent = self.agent_selection
            if self.terminations[agent]:
                self._was_dead_step(action)
                return
            self._cumulative_rewards[agent] = 0.0
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.left -= 1
            if self.left <= 0:
                self.terminations = dict.fromkeys(self.agents, True)
            else:
                index = self.possible_agents.index(agent)
                self.agent_selection = self.possible_agents[(index + 1) % len(self.agents)]
            self._accumulate_rewards()

    return wrappers.OrderEnforcingWrapper(Idle(ruleset, players))


def openspiel_games(ruleset: str, players: int, games: int, actions: str = "auto",
                    observe: bool = False) -> tuple[float, int, int]:
    """Seconds, actions (ids chosen and chance outcomes) and games."""
    import pyspiel

    import cardrules.openspiel  # noqa: F401 - registers the game

    game = pyspiel.load_game("cardrules", {"ruleset": ruleset, "players": players,
                                           "actions": actions})
    return _openspiel_loop(game, games, observe)


def _openspiel_loop(game: Any, games: int, observe: bool) -> tuple[float, int, int]:
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
                if observe:
                    state.observation_tensor(state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
            actions += 1
    return time.perf_counter() - t0, actions, games


def idle_openspiel_games(games: int, decisions: int, players: int) -> tuple[float, int, int]:
    """A Python game that does nothing but take `decisions` decisions a game (after 4 chance
    nodes), played through the same loop."""
    import pyspiel

    kind = pyspiel.GameType(
        short_name="cardrules_idle", long_name="A game that does nothing",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=16, min_num_players=1, provides_information_state_string=False,
        provides_information_state_tensor=False, provides_observation_string=False,
        provides_observation_tensor=False, parameter_specification={})

    class Idle(pyspiel.State):  # type: ignore[misc]
        def __init__(self, game: Any):
            super().__init__(game)
            self.count, self.player = 0, int(pyspiel.PlayerId.CHANCE)

        def current_player(self) -> int:
            return self.player

        def _legal_actions(self, player: int) -> list[int]:
            return [3, 40, 41, 200]

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return [(b, 1 / 256) for b in range(256)]

        def _apply_action(self, action: int) -> None:
            self.count += 1
            self.player = int(pyspiel.PlayerId.TERMINAL) if self.count >= decisions + 4 \
                else -1 if self.count < 4 else self.count % players

        def is_terminal(self) -> bool:
            return self.player == int(pyspiel.PlayerId.TERMINAL)

        def returns(self) -> list[float]:
            return [0.0] * players

    class IdleGame(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: Any = None):
            info = pyspiel.GameInfo(num_distinct_actions=700, max_chance_outcomes=256,
                                    num_players=players, min_utility=-1.0, max_utility=1.0,
                                    utility_sum=0.0, max_game_length=decisions + 4)
            super().__init__(kind, info, params or {})

        def new_initial_state(self) -> Idle:
            return Idle(self)

    return _openspiel_loop(IdleGame(), games, False)


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
    parser.add_argument("--repeat", type=int, default=3,
                        help="passes over every measurement, in turn; each figure is the median")
    args = parser.parse_args(argv)
    name, n, games = args.ruleset, args.players, args.games
    print(f"{name}, {n} players, {games} games each, uniform random choices "
          f"(the median of {args.repeat} passes)")
    runs: dict[str, list[tuple[float, int, int]]] = {}
    skipped: dict[str, str] = {}
    for _ in range(args.repeat):
        for label, measure in _measurements(name, n, games, skipped):
            runs.setdefault(label, []).append(measure())
    engine, kernel = _median(runs["engine"]), _median(runs["kernel"])
    engine_rate, kernel_rate = games / engine[0], games / kernel[0]
    print(f"  cardrules engine      {engine_rate:9.1f} games/s "
          f"({engine[1] / engine[0]:,.0f} actions/s)")
    print(f"  cardrules kernel      {kernel_rate:9.1f} games/s "
          f"({kernel[1] / kernel[0]:,.0f} actions/s)")
    for label in ("PettingZoo env", "PettingZoo raw_env", "  (an idle env)"):
        if label in runs:
            seconds, steps, played = _median(runs[label])
            print(f"  {label:21} {steps / seconds:9,.0f} agent steps/s "
                  f"({played / seconds:.1f} games/s, observation and mask at every step)")
    if "pettingzoo" in skipped:
        print(f"  PettingZoo            skipped: {skipped['pettingzoo']}")
    for label in ("OpenSpiel whole", "OpenSpiel parts", "OpenSpiel + observing"):
        if label in runs:
            seconds, steps, played = _median(runs[label])
            rate = played / seconds
            print(f"  {label:21} {rate:9.1f} games/s ({steps / seconds:,.0f} ids/s); "
                  f"{rate / engine_rate:.2f}x the engine, {rate / kernel_rate:.2f}x the kernel")
    if "  (an idle game)" in runs:
        seconds, steps, played = _median(runs["  (an idle game)"])
        rate = played / seconds
        print(f"  {'  (an idle game)':21} {rate:9.1f} games/s ({steps / seconds:,.0f} ids/s); "
              f"{rate / engine_rate:.2f}x the engine, {round(engine[1] / games)} decisions a game")
    if "openspiel" in skipped:
        print(f"  OpenSpiel             skipped: {skipped['openspiel']}")
    return 0


def _measurements(name: str, n: int, games: int,
                  skipped: dict[str, str]) -> list[tuple[str, Any]]:
    """(label, what to time) of every measurement that can be made here."""
    out: list[tuple[str, Any]] = [
        ("engine", lambda: native_games(name, n, games, kernel=False)),
        ("kernel", lambda: native_games(name, n, games, kernel=True))]
    try:
        import pettingzoo  # noqa: F401
        for label, raw, idle in (("PettingZoo env", False, False),
                                 ("PettingZoo raw_env", True, False),
                                 ("  (an idle env)", False, True)):
            out.append((label, lambda raw=raw, idle=idle: pettingzoo_steps(name, n, games, raw,
                                                                            idle)))
    except ImportError as exc:
        skipped["pettingzoo"] = str(exc)
    try:
        import pyspiel  # noqa: F401
        for label, actions, observe in (("OpenSpiel whole", "auto", False),
                                        ("OpenSpiel parts", "parts", False),
                                        ("OpenSpiel + observing", "auto", True)):
            out.append((label, lambda actions=actions, observe=observe: openspiel_games(
                name, n, games, actions, observe)))
        decisions = round(native_games(name, n, games, kernel=True)[1] / games)
        out.append(("  (an idle game)",
                    lambda: idle_openspiel_games(games, decisions, n)))
    except ImportError as exc:
        skipped["openspiel"] = str(exc)
    return out


def _median(runs: list[tuple[float, int, int]]) -> tuple[float, int, int]:
    """The run of the median time."""
    return sorted(runs)[len(runs) // 2]


if __name__ == "__main__":
    sys.exit(main())
