"""Every ruleset as an OpenSpiel game (cardrules.openspiel): OpenSpiel's own checks, and its
ISMCTS playing through resample_from_infostate."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install 'cardrules[openspiel]'; the "
                      "test extra installs it only where it has wheels)")

import numpy as np  # noqa: E402

from cardrules.adapters.table import AdapterError  # noqa: E402
from cardrules.dsl.loader import load_ruleset  # noqa: E402
from cardrules.errors import GameError, RulesetError  # noqa: E402
from cardrules.openspiel import load  # noqa: E402

RULESETS = sorted(p.stem for p in (Path(__file__).resolve().parent.parent / "rulesets")
                  .glob("*.yaml"))


@pytest.mark.parametrize("name", RULESETS)
def test_random_sim_test_passes(name: str) -> None:
    """OpenSpiel's random simulation test, with serialization, on every shipped ruleset at
    its default table size: a whole match, every check after every part."""
    # (spades: one deal, not a match to 500 points, which takes a dozen)
    params = {"ruleset": name, **({"options": "one_deal:true"} if name == "spades" else {})}
    game = pyspiel.load_game("cardrules", params)
    assert game.num_players() == load_ruleset(name).default_players
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_the_game_declares_itself() -> None:
    game = pyspiel.load_game("cardrules", {"ruleset": "golf6", "players": 4})
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.num_distinct_actions() == len(game.table.actions)
    assert game.max_chance_outcomes() == 256
    state = game.new_initial_state()
    for _ in range(4):  # the seed, byte by byte
        assert state.is_chance_node()
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 256 and abs(sum(p for _, p in outcomes) - 1) < 1e-9
        state.apply_action(7)
    assert state.current_player() == 0
    # golf6's 699 whole actions: one id each
    assert game.num_distinct_actions() == 699 and game.max_game_length() == 90_000
    assert state.action_to_string(state.legal_actions()[0]) == "reveal grid 1 row 1 column 1"
    assert len(state.legal_actions()) == 6
    state.apply_action(state.legal_actions()[0])
    assert state.current_player() == 0 and "seat 1: reveal" in state.information_state_string(1)
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()
    assert len(state.information_state_tensor(0)) == game.information_state_tensor_size()
    # ... or in parts, if asked
    parts = pyspiel.load_game("cardrules", {"ruleset": "golf6", "players": 4,
                                            "actions": "parts"})
    assert parts.num_distinct_actions() == 354
    state = parts.new_initial_state()
    for _ in range(4):
        state.apply_action(7)
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["reveal"]
    state.apply_action(state.legal_actions()[0])
    assert state.action_to_string(state.legal_actions()[0]) == "grid 1 row 1 column 1"
    assert "choosing: reveal" in state.observation_string(0)
    assert "choosing" not in state.observation_string(1)
    assert len(state.observation_tensor(0)) == parts.observation_tensor_size()


def _random_game(game: Any, seed: int) -> Any:
    rng, state = random.Random(seed), game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_poker_is_played_for_chips_as_openspiels_own() -> None:
    """kuhn-poker plays for chips (`stakes: chips`): a zero-sum game whose returns are the
    chips won or lost, 1 or 2 either way, as OpenSpiel's kuhn_poker's are, where a win
    shared out (1/2 to the winner) would make a bet lost cost what a check lost does."""
    ours, theirs = load("kuhn-poker"), pyspiel.load_game("kuhn_poker")
    assert ours.get_type().utility == theirs.get_type().utility == \
        pyspiel.GameType.Utility.ZERO_SUM
    seen, native = set(), set()
    for seed in range(120):
        state = _random_game(ours, seed)
        assert state.returns() == [float(t) for t in state.match.playing().totals]
        seen.add(tuple(state.returns()))
        native.add(tuple(_random_game(theirs, seed).returns()))
    assert seen == native == {(1.0, -1.0), (-1.0, 1.0), (2.0, -2.0), (-2.0, 2.0)}


def test_the_stakes_say_what_a_match_is_worth(tmp_path: Path) -> None:
    """hanabi plays for its score, the same to every seat (identical utility); golf6 asked
    for points returns minus its totals (the lowest wins); chips asked of a ruleset that does
    not play for them are refused at load, and a match said to be for chips whose totals do
    not add up to nothing at its end; alone at the table a win is worth 1."""
    from cardrules.adapters.match import zero_sum

    hanabi = load("hanabi", 2, {"fuse_out": "fireworks"})
    assert hanabi.get_type().utility == pyspiel.GameType.Utility.IDENTICAL
    scores = set()
    for seed in range(6):
        state = _random_game(hanabi, seed)
        score = state.match.playing().totals[0]
        assert state.returns() == [float(score)] * 2
        scores.add(score)
    assert len(scores) > 1
    golf = load("golf6", 3, {"rounds": 1}, returns="points")
    assert golf.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    state = _random_game(golf, 1)
    assert state.returns() == [-float(t) for t in state.match.playing().totals]
    with pytest.raises(AdapterError, match="returns=chips: golf6 plays for win, not chips"):
        load("golf6", 3, {"rounds": 1}, returns="chips")
    said = tmp_path / "golf-chips.yaml"
    said.write_text("cardrules: 1\nname: golf-chips\nextends: golf6\n"
                    "scoring:\n  stakes: chips\n", encoding="utf-8")
    with pytest.raises(AdapterError, match="add up to .*, not 0: chips only change hands"):
        _random_game(load(str(said), 3, {"rounds": 1}), 1).returns()
    assert zero_sum(1, [0]) == [1.0] and zero_sum(1, []) == [0.0]
    alone = load("freecell", 1)
    assert (alone.min_utility(), alone.max_utility()) == (0.0, 1.0)


def test_games_load_by_string_with_options() -> None:
    game = pyspiel.load_game("cardrules(ruleset=golf6,players=3,options=rounds:2)")
    assert game.num_players() == 3 and game.table.rounds == 2
    assert str(load("golf6", 3, {"rounds": 2})) == str(game)


@pytest.mark.parametrize("params, error, message", [
    ({"ruleset": "nosuch"}, RulesetError, "no ruleset 'nosuch'"),
    ({"ruleset": "golf6", "players": 12}, GameError, "golf6 is for 2 to 8 players, not 12"),
    ({"ruleset": "golf6", "options": "rounds"}, AdapterError, "expected NAME=VALUE"),
    ({"ruleset": "golf6", "returns": "money"}, AdapterError,
     "returns: expected one of auto, win, points, chips, not 'money'"),
    ({"ruleset": "hanabi", "returns": "chips"}, AdapterError,
     "hanabi's seats pass no chips between them"),
])
def test_a_bad_game_is_refused_with_a_clear_message(params: dict[str, object], error: type,
                                                    message: str) -> None:
    with pytest.raises(error, match=message):
        pyspiel.load_game("cardrules", params)


def test_a_resample_keeps_the_players_information_state() -> None:
    game = pyspiel.load_game("cardrules", {"ruleset": "czech-golf", "players": 2})
    rng = np.random.RandomState(3)
    state = game.new_initial_state()
    for _ in range(16):
        state.apply_action(rng.randint(256) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
    player = state.current_player()
    assert player in (0, 1)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    others = set()
    for _ in range(5):
        sample = state.resample_from_infostate(player, sampler)
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.legal_actions() == state.legal_actions()
        others.add(sample.information_state_string(1 - player))
    assert len(others) > 1  # what the other player holds is drawn afresh
    restored = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, sample))
    assert str(restored[1]) == str(sample)
    with pytest.raises(AdapterError, match="player 2 is not at the table"):
        state.resample_from_infostate(2, sampler)


def test_a_resample_for_another_seat_leaves_the_choosers_parts_out() -> None:
    """grandma, chosen in parts: seat 1 has begun laying down (two cards of its hand named).
    Seat 2 never saw those parts: its samples are drawn as if they were not chosen (never
    refused, never kept to hands those parts fit), and look the same to it."""
    game = pyspiel.load_game("cardrules(ruleset=grandma)")
    state = game.new_initial_state()
    for action in [0, 0, 0, 0, 1, 111]:  # the seed; seat 1 takes the discard
        state.apply_action(action)
    before = state.clone()
    for action in [2, 226, 219]:  # lay_down: hand 1 card 12, card 5
        state.apply_action(action)
    assert state.information_state_string(1) == before.information_state_string(1)
    hands = []
    for k in range(12):
        sample = state.resample_from_infostate(1, random.Random(k).random)
        assert sample.information_state_string(1) == state.information_state_string(1)
        assert sample.match.prefix == [] and sample.current_player() == 0
        # (and so does its history: the sample's seed, then the actions before those parts)
        assert sample.history() == sample.match.seed_parts + state.history()[4:-3]
        other = sample.match.table.rules.zone("hand").zone_of(0)
        hands.append(tuple(sample.match.state.zones[other]))
    assert len(set(hands)) == 12
    mine = state.resample_from_infostate(0, random.Random(1).random)  # the chooser's own
    assert mine.match.prefix == state.match.prefix


def test_a_resamples_history_has_no_letter_of_anothers_text() -> None:
    """precognition, chosen in parts: seat 1 writes its prediction letter by letter. Seat 2
    never saw the letters: a sample drawn for it lists the prediction by its `end` alone,
    the same for two texts of different letters and lengths; seat 1's own sample keeps them."""
    game = pyspiel.load_game("cardrules(ruleset=precognition)")

    def written(text: str) -> Any:
        state = game.new_initial_state()
        for action in [1, 2, 3, 4, 0]:  # the seed; seat 1 begins its prediction
            state.apply_action(action)
        for part in [f"letter {ch!r}" for ch in text] + ["end"]:
            labels = {state.action_to_string(a): a for a in state.legal_actions()}
            state.apply_action(labels[part])
        return state

    ud, sss = written("UD"), written("SSS")
    assert ud.history() != sss.history() and ud.current_player() == 1
    samples = [state.resample_from_infostate(1, random.Random(7).random) for state in (ud, sss)]
    assert samples[0].history() == samples[1].history()
    assert samples[0].history()[4:] == [0, ud.history()[-1]]  # predict, then end
    assert samples[0].move_number() == len(samples[0].history())
    own = ud.resample_from_infostate(0, random.Random(7).random)
    assert own.history()[4:] == ud.history()[4:]  # its own letters


def test_a_resamples_history_names_anothers_card_from_its_hand_by_the_hand_alone() -> None:
    """Where a card lay in another's hand is the holder's order, which no other seat sees (two
    games that differ only in that order look the same to them): a sample drawn for seat 1
    names each card another seat played from its hand by the hand's first place; seat 1's
    own plays, and the sample drawn for the player itself, keep their places."""
    game = pyspiel.load_game("cardrules", {"ruleset": "spades", "players": 4})
    state = game.new_initial_state()
    rng = random.Random(5)
    while not state.is_terminal() and len(state.history()) < 40:
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.random() * len(legal))])
    def said(state: Any) -> list[str]:  # the players' actions, the chance outcomes left out
        return [state.action_to_string(a.player, a.action) for a in state.full_history()
                if a.player >= 0]

    words = said(state)
    played = [w for w in words if w.startswith("play hand ")]
    assert any(not w.endswith(" card 1") for w in played), played  # the true places
    for viewer in range(4):
        told = said(state.resample_from_infostate(viewer, random.Random(viewer).random))
        assert len(told) == len(words)
        for true, seen in zip(words, told):
            if not true.startswith("play hand "):
                continue
            if true.startswith(f"play hand {viewer + 1} "):
                assert seen == true
            else:
                assert seen == true.rsplit(" card ", 1)[0] + " card 1", (true, seen)


@pytest.mark.parametrize("name", ["kuhn-poker", "czech-golf"])
def test_a_resample_carries_none_of_the_games_seed(name: str) -> None:
    """A sample's chance outcomes are its own: its history() begins with its seed parts,
    drawn with it, then lists the game's actions; its seed (and its cardrules state's) is
    never the game's, from which the true hands are dealt. No seed deals a sample, so
    replaying its history deals another game: the true one only by chance (in kuhn-poker,
    three cards, one deal in six), never in czech-golf."""
    game = pyspiel.load_game("cardrules", {"ruleset": name, "players": 2})
    rng = random.Random(3)
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(rng.randrange(256) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
    player, truth = state.current_player(), str(state)
    seeds, replayed_truth = set(), 0
    for k in range(10):
        sample = state.resample_from_infostate(player, random.Random(k).random)
        assert sample.information_state_string(player) == state.information_state_string(player)
        match = sample.match
        assert sample.history() == match.seed_parts + state.history()[4:]
        assert match.dealt == sum(b * 256 ** i for i, b in enumerate(match.seed_parts))
        assert match.dealt != state.match.dealt and match.state.seed == match.dealt
        again = state.resample_from_infostate(player, random.Random(k).random)
        assert again.history() == sample.history() and str(again) == str(sample)
        seeds.add(match.dealt)
        replay = game.new_initial_state()
        try:
            for action in sample.history():
                replay.apply_action(action)
        except (pyspiel.SpielError, GameError):
            continue  # (the actions need not be legal in the game the sample's seed deals)
        replayed_truth += str(replay) == truth
    assert len(seeds) == 10
    assert replayed_truth <= (3 if name == "kuhn-poker" else 0)


def test_a_resample_is_drawn_again_until_the_game_can_go_on() -> None:
    """gin rummy: seat 1 has just knocked, so its hand can be laid down with little
    deadwood; a sample of it for seat 2 is drawn until it can (most hands cannot), and the
    game goes on from it."""
    game = pyspiel.load_game("cardrules(ruleset=gin-rummy)")
    state = game.new_initial_state()
    for action in [2, 5, 0, 0, 0, 68, 5, 229, 0, 68, 5, 285, 0, 68, 5, 230, 1, 5, 284, 1, 5,
                   224, 0, 68, 5, 281, 1, 5, 232, 0, 68, 5, 279, 0, 68, 6]:
        state.apply_action(action)
    assert state.current_player() == 0
    for k in range(3):
        sample = state.resample_from_infostate(1, random.Random(k).random)
        assert sample.current_player() == 0 and sample.legal_actions()
        assert sample.information_state_string(1) == state.information_state_string(1)


def test_chance_outcomes_only_at_a_chance_node() -> None:
    state = pyspiel.load_game("cardrules(ruleset=kuhn-poker)").new_initial_state()
    assert len(state.chance_outcomes()) == 256
    for action in (1, 2, 3, 4):
        state.apply_action(action)
    with pytest.raises(pyspiel.SpielError, match="not a chance node"):
        state.chance_outcomes()


@pytest.mark.parametrize("params", [{"ruleset": "czech-golf", "players": 2},
                                    {"ruleset": "golf6", "players": 2, "options": "rounds:1"}])
def test_openspiels_ismcts_plays_a_whole_game(params: dict[str, object]) -> None:
    """OpenSpiel's ISMCTS (its Python one: the C++ bot cannot call a Python game's
    resample_from_infostate) with OpenSpiel's random rollouts, through the adapter, nothing
    written per game."""
    from open_spiel.python.algorithms import ismcts, mcts
    game = pyspiel.load_game("cardrules", params)
    rng = np.random.RandomState(5)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, 8,
                           random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.randint(256))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert sum(state.returns()) == pytest.approx(0.0)


def test_round_rollouts_value_the_round_reached() -> None:
    from cardrules.adapters.openspiel import RoundRollouts
    game = pyspiel.load_game("cardrules", {"ruleset": "golf6", "players": 3})
    state = game.new_initial_state()
    for byte in (1, 2, 3, 4):
        state.apply_action(byte)
    evaluator = RoundRollouts(rollouts=3, seed=1)
    value = evaluator.evaluate(state)
    assert value.shape == (3,) and abs(value.sum()) < 1e-9 and np.all(np.abs(value) <= 1)
    assert state.match.actions == 0  # the rollouts played on copies
    legal = state.legal_actions()
    assert evaluator.prior(state) == [(a, 1 / len(legal)) for a in legal]


def test_a_tensor_handed_out_is_the_callers_own() -> None:
    """A tensor's list, kept from one decision to the next (OpenSpiel's lists are the
    caller's), is neither changed by the game playing on nor by another list changed."""
    game = pyspiel.load_game("cardrules", {"ruleset": "golf6", "options": "rounds:1"})
    rng = np.random.default_rng(3)
    state = game.new_initial_state()
    kept: list[tuple[list[float], list[float]]] = []
    while not state.is_terminal():
        if not state.is_chance_node():
            for recall in (False, True):
                ask = state.information_state_tensor if recall else state.observation_tensor
                mine = ask(0)
                kept.append((mine, list(mine)))
                mine[0] = 99.0  # spoiling the list handed out spoils nothing else
                assert ask(0) == pyspiel.State.information_state_tensor(state, 0) if recall \
                    else ask(0) == pyspiel.State.observation_tensor(state, 0)
                mine[0] = kept[-1][1][0]
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert len(kept) > 50
    assert all(tensor == copy for tensor, copy in kept)


@pytest.mark.parametrize("name,options", [("golf6", "rounds:1"), ("gin-rummy", "")])
def test_what_python_asks_is_what_the_state_api_answers(name: str, options: str) -> None:
    """legal_actions, is_chance_node and the tensors, answered in Python, agree with OpenSpiel's
    own State (which reaches _legal_actions and the observers through C++) at chance nodes,
    decisions and the end."""
    game = pyspiel.load_game("cardrules", {"ruleset": name, "options": options})
    rng = np.random.default_rng(5)
    state = game.new_initial_state()
    seats = [None, *range(game.num_players()), int(pyspiel.PlayerId.CHANCE)]
    while True:
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
        for seat in seats:
            args = () if seat is None else (seat,)
            assert _answer(state.legal_actions, *args) == \
                _answer(pyspiel.State.legal_actions, state, *args), (state.history(), seat)
        for seat in range(game.num_players()):
            assert state.observation_tensor(seat) == \
                pyspiel.State.observation_tensor(state, seat)
            assert state.information_state_tensor(seat) == \
                pyspiel.State.information_state_tensor(state, seat)
        if not state.is_chance_node() and not state.is_terminal():
            assert state.observation_tensor() == pyspiel.State.observation_tensor(state)
        for outside in (-1, game.num_players()):
            with pytest.raises(pyspiel.SpielError):
                state.observation_tensor(outside)
            with pytest.raises(pyspiel.SpielError):
                pyspiel.State.observation_tensor(state, outside)
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))


def _answer(ask: Any, *args: Any) -> Any:
    """What a call returns, or the message of the SpielError it raises."""
    try:
        return ask(*args)
    except pyspiel.SpielError as exc:
        return str(exc)


@pytest.mark.parametrize(("name", "returns"), [("golf6", "points"), ("kuhn-poker", "win")])
def test_a_serialized_state_keeps_what_its_game_plays_for(name: str, returns: str) -> None:
    """The `returns` a game was loaded with travels with its serialized state: restored, it
    gives the same returns, within the game's bounds."""
    game = load(name, 2, {"rounds": 1} if name == "golf6" else None, returns=returns)
    state = _random_game(game, 5)
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert again.returns() == state.returns()
    assert all(game.min_utility() <= r <= game.max_utility() for r in again.returns())
