"""Any cardrules ruleset as a PettingZoo AEC environment (`pip install 'cardrules[pettingzoo]'`).

    from cardrules.pettingzoo import env

    game = env("golf6", players=4)                 # options={"rounds": 4} for a ruleset option
    game.reset(seed=1)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        mask = observation["action_mask"]
        action = None if termination or truncation else game.action_space(agent).sample(mask)
        game.step(action)

Agents are "player_0" ... "player_{n-1}", seat 1 being player_0. Each observation is a dict:
"observation", the seat's view as a float32 tensor (adapters/observe.py), and "action_mask",
an int8 vector over the action table with a 1 for every id the agent may take now (all 0
for an agent not choosing). Actions are whole or chosen in parts (`actions`: `auto`,
`whole`, `parts`), exactly as in the OpenSpiel adapter (adapters/table.py,
docs/adapters.md): in parts, the same agent is selected again until its parts spell a whole
action. Rewards come at the end, what the match is worth to each seat: by default what
the ruleset plays for (`scoring.stakes`: a win, 1/k - 1/n to each of k winners and -1/n to
the others; its points; its chips), or what `returns` asks (docs/adapters.md, section 4). A
match that reaches the bound of 10,000 actions per round is truncated with no winner.
`reset(seed=...)` deals the same game for the same seed; `render()` (mode "ansi") returns
the whole table, hidden cards included, for debugging.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .match import Match
from .observe import TensorPlan, tensor_of
from .table import AdapterError, option_pairs, table
from .texts import information_text, observation_text, truth_text


class CardrulesEnv(AECEnv):  # type: ignore[misc]
    """One ruleset, with its options, at one table size, as an AEC environment."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "cardrules_v0",
                                "is_parallelizable": False}

    def __init__(self, ruleset: str = "golf6", players: int | None = None,
                 options: dict[str, Any] | None = None, render_mode: str | None = None,
                 actions: str = "auto", returns: str = "auto"):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise AdapterError(f"render_mode: expected 'ansi' or none, not {render_mode!r}")
        self.table = table(ruleset, option_pairs(options), players, actions, returns)
        self.plan = TensorPlan.of(self.table, False)
        self.render_mode = render_mode
        count = len(self.table.actions)
        self.possible_agents = [f"player_{p}" for p in range(self.table.players)]
        self._seats = {agent: p for p, agent in enumerate(self.possible_agents)}
        self._count = count
        self.agents: list[str] = []
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.plan.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (count,), np.int8),
        })
        self._action_space = spaces.Discrete(count)
        self._seeds = random.Random()
        self.match: Match | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds.seed(seed)
        self.match = Match(self.table, recording=False)  # the recall, if asked, replays it
        self.match.start(self._seeds.getrandbits(32))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[self.match.to_move() or 0]
        if self.match.is_over():  # (over before anyone decided: its rules played it all)
            self._ended(self.match)

    def _ended(self, match: Match) -> None:
        """The game is over: every agent's reward, and each done, truncated where the bound
        on actions stopped it."""
        done = self.truncations if match.cut else self.terminations
        for agent_name, value in zip(self.possible_agents, match.returns()):
            self.rewards[agent_name] = value
            done[agent_name] = True

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        match = self._playing()
        seat = self._seats.get(agent)
        if seat is None:
            seat = self.possible_agents.index(agent)  # (refuses an agent not at the table)
        mask = np.zeros(self._count, np.int8)
        if match.to_move() == seat:
            mask.put(match.legal(), 1)  # (a few ids: faster than indexing by a list)
        return {"observation": tensor_of(self.plan, match, seat).copy(), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        match = self._playing()
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if action is None:
            raise AdapterError(f"{agent} must choose an action: the game is not over")
        if not isinstance(action, (int, np.integer)) or isinstance(action, bool):
            raise AdapterError(f"{agent}: an action is an id of the action space (an integer), "
                               f"not {action!r}")
        if self.table.whole is not None:
            seat = match.play_id(int(action))
        else:
            match.apply(int(action))
            seat = match.to_move()
        if seat is None:
            self._ended(match)
        else:
            self.agent_selection = self.possible_agents[seat]
        self._accumulate_rewards()

    def observation_text(self, agent: str, recall: bool = False) -> str:
        """What the agent's seat sees, as text (its player view as JSON); with `recall`, also
        every action so far as it saw it."""
        seat = self.possible_agents.index(agent)
        match = self._playing()
        return information_text(match, seat) if recall else observation_text(match, seat)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return truth_text(self._playing())

    def close(self) -> None:
        pass

    def _playing(self) -> Match:
        if self.match is None:
            raise AdapterError("call reset() before playing")
        return self.match


def raw_env(ruleset: str = "golf6", players: int | None = None,
            options: dict[str, Any] | None = None, render_mode: str | None = None,
            actions: str = "auto", returns: str = "auto") -> CardrulesEnv:
    """The environment without PettingZoo's checking wrappers."""
    return CardrulesEnv(ruleset, players, options, render_mode, actions, returns)


def env(ruleset: str = "golf6", players: int | None = None,
        options: dict[str, Any] | None = None, render_mode: str | None = None,
        actions: str = "auto", returns: str = "auto") -> AECEnv:
    """The environment of a ruleset (a built-in name or a rule file), wrapped as PettingZoo's
    own environments are, so that a call out of order is refused. An illegal action, an id
    out of the action space's range too, is refused by the environment itself (so it needs
    no AssertOutOfBoundsWrapper, which would check every step again)."""
    return wrappers.OrderEnforcingWrapper(
        CardrulesEnv(ruleset, players, options, render_mode, actions, returns))
