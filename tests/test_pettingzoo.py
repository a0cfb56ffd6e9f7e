"""Every ruleset as a PettingZoo AEC environment (cardrules.pettingzoo)."""

from __future__ import annotations

from pathlib import Path

import pytest
from depth import deep  # (tests/depth.py)

pytest.importorskip("pettingzoo", reason="PettingZoo is not installed "
                                         "(pip install 'cardrules[pettingzoo]')")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from cardrules.adapters.table import AdapterError  # noqa: E402
from cardrules.pettingzoo import env, raw_env  # noqa: E402

RULESETS = sorted(p.stem for p in (Path(__file__).resolve().parent.parent / "rulesets")
                  .glob("*.yaml"))


# api_test warns that a dict observation "probably should be" a Box, and that it is not a
# NumPy array: an observation with an action mask is a dict, as in PettingZoo's own card
# games.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("name", RULESETS)
def test_api_test_passes(name: str) -> None:
    api_test(env(name), num_cycles=deep(200), verbose_progress=False)


def test_a_whole_game_with_the_mask() -> None:
    game = env("czech-golf", players=3)
    game.reset(seed=4)
    rng = np.random.default_rng(4)
    rewards = dict.fromkeys(game.possible_agents, 0.0)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, _ = game.last()
        rewards[agent] += reward
        mask = observation["action_mask"]
        assert observation["observation"].dtype == np.float32
        action = None if termination or truncation else int(rng.choice(np.flatnonzero(mask)))
        game.step(action)
    assert sum(rewards.values()) == pytest.approx(0.0)
    assert max(rewards.values()) > 0


def test_the_same_seed_deals_the_same_game() -> None:
    def first_observations(seed: int) -> list[bytes]:
        game = raw_env("golf6")
        game.reset(seed=seed)
        out = []
        for _ in range(10):
            agent = game.agent_selection
            observation = game.observe(agent)
            out.append(observation["observation"].tobytes())
            game.step(int(np.flatnonzero(observation["action_mask"])[-1]))
        return out
    assert first_observations(3) == first_observations(3)
    assert first_observations(3) != first_observations(4)


@pytest.mark.parametrize("settings,message", [
    ({"players": "3"}, "players: expected a whole number"),
    ({"players": 2.5}, "players: expected a whole number"),
    ({"options": ["rounds"]}, "options: expected a dict"),
    ({"options": {"rounds": 2.5}}, "options: each is a name"),
    ({"options": "rounds:2;rounds:3"}, "'rounds' is given twice"),
])
def test_a_setting_of_the_wrong_kind_is_refused_plainly(settings: dict[str, object],
                                                        message: str) -> None:
    with pytest.raises(AdapterError, match=message):
        raw_env("golf6", **settings)  # type: ignore[arg-type]


def test_text_and_render() -> None:
    game = raw_env("golf6", render_mode="ansi")
    with pytest.raises(AdapterError, match="call reset"):
        game.observe("player_0")
    game.reset(seed=1)
    assert '"seat":1' in game.observation_text("player_0")
    assert "grid 1:" in (game.render() or "")
    with pytest.raises(AdapterError, match="render_mode"):
        raw_env("golf6", render_mode="human")


def test_whole_actions_or_parts_and_what_is_refused() -> None:
    """golf6 has one id per whole action (699), or its 354 ids of parts if asked; an id out
    of range, or not an integer, is refused by the environment itself."""
    from cardrules.errors import IllegalAction

    whole, parts = env("golf6", players=4), env("golf6", players=4, actions="parts")
    assert whole.action_space("player_0").n == 699 and parts.action_space("player_0").n == 354
    whole.reset(seed=2)
    with pytest.raises(IllegalAction, match="'5000' is not legal now"):
        whole.step(5000)
    with pytest.raises(AdapterError, match="an action is an id of the action space"):
        whole.step(3.5)
    mask = whole.observe("player_0")["action_mask"]
    assert mask.sum() == 6  # reveal: one of the six cards of its grid
    whole.step(int(np.flatnonzero(mask)[0]))
    assert whole.agent_selection == "player_0"  # golf6: each seat reveals two cards first
    assert "seat 1: reveal" in whole.unwrapped.observation_text("player_1", recall=True)


@pytest.mark.parametrize("bound", [40, 10_000])
def test_a_match_stopped_by_a_bound_on_actions_is_truncated(tmp_path: Path,
                                                             bound: int) -> None:
    """A game the ruleset's own `max_actions` stops (40 here), like one the adapter's bound
    stops, ends truncated for every agent, never terminated, with no reward."""
    path = tmp_path / "short.yaml"
    path.write_text(f"cardrules: 1\nextends: golf6\nname: short\nmax_actions: {bound}\n",
                    encoding="utf-8")
    game = raw_env(str(path))
    if bound > 40:  # (the adapter's own bound, set low)
        game.table.max_actions = 40
    game.reset(seed=1)
    ends = {}
    for agent in game.agent_iter():
        observation, reward, termination, truncation, _ = game.last()
        if termination or truncation:
            ends[agent] = (reward, termination, truncation)
            game.step(None)
            continue
        game.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert ends == {agent: (0.0, False, True) for agent in game.possible_agents}


AUTOMATIC = """\
cardrules: 1
name: auto
players: {min: 2, max: 2}
max_actions: 2
deck: {zone: stock}
zones:
  - {name: stock, visibility: hidden}
  - {name: hand, owner: each, visibility: owner}
round:
  setup: [shuffle stock]
  phases:
    - name: play
      turns: rotate
      steps:
        - name: b
          automatic: true
          moves:
            - {name: draw, do: ["move top(stock) to hand[me]"]}
"""


def test_a_game_its_rules_play_to_the_end_before_anyone_decides(tmp_path: Path) -> None:
    """Every action played by the rules themselves (one move, an automatic step) until the
    bound on actions: the game is over at its deal, truncated for every agent (PettingZoo),
    and terminal (OpenSpiel), never waiting for a choice nobody may make."""
    import pyspiel

    import cardrules.openspiel  # noqa: F401  (registers the game)

    path = tmp_path / "auto.yaml"
    path.write_text(AUTOMATIC, encoding="utf-8")
    game = raw_env(str(path))
    game.reset(seed=1)
    assert all(game.truncations.values()) and not any(game.terminations.values())
    assert [agent for agent in game.agent_iter() if not game.step(None)] == \
        game.possible_agents
    state = pyspiel.load_game("cardrules", {"ruleset": str(path)}).new_initial_state()
    while state.is_chance_node():
        state.apply_action(1)
    assert state.is_terminal() and state.returns() == [0.0, 0.0]
