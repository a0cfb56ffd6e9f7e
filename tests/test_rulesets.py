"""One generic test plays every ruleset in rulesets/ and checks the engine's invariants.

A ruleset is covered the moment its file lands: the list below is a glob. For several
table sizes across the declared [min, max] and several seeds, random bots play whole
matches while the loop here checks, after every action: cards conserved (`where` agrees),
a legal action exists until the end, the match ends within a generous bound, the state
survives a JSON round trip (and plays on identically), and no seat's view shows a card
that seat does not know (hidden zones show counts only).
"""

from __future__ import annotations

import copy
import functools
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules.dsl.errors import IllegalAction
from cardrules.dsl.loader import check_files, load_ruleset
from cardrules.interpreter.bots import RandomBot, make_bot
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.play import play_game
from cardrules.interpreter.state import GameState
from cardrules.interpreter.view import player_view

RULESETS = Path(__file__).resolve().parent.parent / "rulesets"
RULESET_FILES = sorted(RULESETS.glob("*.yaml"))
EMPTY = -1  # an empty grid slot

# The budget: this many seeds for each table size tried (min, default, max and one between).
SEEDS_PER_COUNT = 6
# A match ends within this many actions per round to be played (golf6 needs about 80).
MAX_ACTIONS_PER_ROUND = 3000
# How long a restored (or copied) state is played in lockstep with the original.
LOCKSTEP_ACTIONS = 40


# ------------------------------------------------------------------ invariants
def zone_indices(rules: Any, state: GameState, zone: Any) -> list[tuple[int | None, int]]:
    """(owner seat or None, zone index) for each instance of a declared zone at this table."""
    if zone.owned:
        return [(p, zone.zone_of(p)) for p in range(state.n)]
    return [(None, zone.index)]


def check_cards_conserved(state: GameState) -> None:
    """Every card id 0..n_cards-1 lies in exactly one zone, and `where` says which."""
    seen = [0] * state.n_cards
    for z, cards in enumerate(state.zones):
        for c in cards:
            if c == EMPTY:
                continue
            assert 0 <= c < state.n_cards, f"card id {c} out of range in zone {z}"
            seen[c] += 1
            assert state.where[c] == z, f"card {c} is in zone {z}, where says {state.where[c]}"
    lost = [c for c, k in enumerate(seen) if k == 0]
    doubled = [c for c, k in enumerate(seen) if k > 1]
    assert not lost and not doubled, f"lost cards {lost}; cards in two places {doubled}"
    assert len(state.where) == len(state.face_up) == len(state.known) == state.n_cards


def check_view(rules: Any, state: GameState, seat: int) -> None:
    """`seat`'s view shows a card's name exactly where that seat knows it; hidden zones
    show only their count (so the names shown are the seat's known cards, less those
    lying in hidden zones)."""
    view = player_view(rules, state, seat)
    names = rules.cards.names
    known = state.known
    assert view["seat"] == seat + 1
    for zone in rules.zones:
        entry = view["zones"][zone.name]
        hidden = zone.visibility == "hidden"
        for owner, z in zone_indices(rules, state, zone):
            zview = entry[str(owner + 1)] if owner is not None else entry
            cards = state.zones[z]
            if hidden:
                assert zview == {"count": len(cards) - cards.count(EMPTY)}, (
                    f"hidden zone {zone.name} shows {zview}")
                continue
            assert zview["count"] == len(cards) - cards.count(EMPTY)
            expected = [None if c == EMPTY else {
                "card": names[c] if known[c] >> seat & 1 else None, "up": state.face_up[c]}
                for c in cards]
            assert zview["cards"] == expected, (
                f"seat {seat + 1} sees {zone.name}"
                + (f"[{owner + 1}]" if owner is not None else "")
                + f" as {zview['cards']}, but knows {expected}")


def check_public_face_up_known(rules: Any, state: GameState) -> None:
    """A face-up card in a public zone is in plain sight: every seat knows it."""
    for zone in rules.zones:
        if zone.visibility != "public":
            continue
        for _, z in zone_indices(rules, state, zone):
            for c in state.zones[z]:
                if c != EMPTY and state.face_up[c]:
                    assert state.known[c] == (1 << state.n) - 1, (
                        f"face-up {rules.cards.names[c]} in public zone '{zone.name}' is not "
                        "known to every seat")


def check_scores(rules: Any, state: GameState) -> None:
    assert len(state.round_scores) <= state.rounds_total
    for p in range(state.n):
        assert state.totals[p] == sum(r[p] for r in state.round_scores)


def check_finished(engine: Engine, state: GameState) -> None:
    rules = engine.rules
    assert engine.legal_actions(state) == []
    before = state.to_json()
    with pytest.raises(IllegalAction):
        engine.apply(state, next(iter(rules.moves)) and (next(iter(rules.moves)),))
    assert state.to_json() == before
    pick = min if rules.winner == "lowest" else max
    best = pick(state.totals)
    assert state.winners == [p for p in range(state.n) if state.totals[p] == best]
    results = engine.results(state)
    assert results["winners"] == [w + 1 for w in state.winners]
    assert results["totals"] == state.totals
    assert results["rounds"] == len(state.round_scores)


def check_after_action(engine: Engine, state: GameState) -> list[tuple[Any, ...]]:
    """Every invariant that must hold between two actions; the legal actions now."""
    rules = engine.rules
    check_cards_conserved(state)
    check_public_face_up_known(rules, state)
    check_scores(rules, state)
    for seat in range(state.n):
        check_view(rules, state, seat)
    if state.over:
        return []
    assert 0 <= state.current < state.n and state.active[state.current]
    assert state.round == len(state.round_scores) + 1
    legal = engine.legal_actions(state)
    assert legal, "no legal action, yet the game is not over"
    assert len(set(legal)) == len(legal), "an action is listed twice"
    for action in legal:
        assert isinstance(action, tuple) and action[0] in rules.moves
    return legal


def lockstep(engine: Engine, states: list[GameState], choices: random.Random) -> None:
    """Play several states with the same actions; they must stay identical."""
    first, *others = states
    for _ in range(LOCKSTEP_ACTIONS):
        if first.over:
            break
        legal = engine.legal_actions(first)
        for other in others:
            assert engine.legal_actions(other) == legal
        action = legal[choices.randrange(len(legal))]
        for state in states:
            engine.apply(state, action)
        text = first.to_json()
        for other in others:
            assert other.to_json() == text
    assert all(other.over == first.over for other in others)


def check_round_trip(engine: Engine, state: GameState, seed: int) -> None:
    """A mid-game state survives to_json/from_json and copy(): each plays on exactly as the
    original would (a deep copy made here stands in for the original)."""
    text = state.to_json()
    reference = copy.deepcopy(state)
    restored = GameState.from_json(text)
    assert restored.to_json() == text
    assert engine.legal_actions(restored) == engine.legal_actions(state)
    copied = state.copy()
    assert copied.to_json() == text
    lockstep(engine, [reference, copied, restored], random.Random(seed))
    assert state.to_json() == text, "playing a copy changed the original"


def play_checked(engine: Engine, players: int, seed: int) -> GameState:
    """A random match with every invariant checked after every action."""
    state = engine.new_game(players, seed)
    bots = [make_bot("random", seed, seat) for seat in range(state.n)]
    assert all(isinstance(b, RandomBot) for b in bots)
    bound = MAX_ACTIONS_PER_ROUND * max(state.rounds_total, 1)
    round_trip_at = random.Random(seed).randrange(1, 120)
    legal = check_after_action(engine, state)
    while not state.over:
        assert state.actions < bound, f"no end after {state.actions} actions"
        action = bots[state.current].choose(engine, state, legal)
        label = engine.describe(action)
        assert isinstance(label, str) and label and "{" not in label, label
        engine.apply(state, action)
        legal = check_after_action(engine, state)
        if state.actions == round_trip_at:
            check_round_trip(engine, state, seed)
    check_finished(engine, state)
    return state


def player_counts(rules: Any) -> list[int]:
    low, high = rules.min_players, rules.max_players
    return sorted({low, rules.default_players, (low + high + 1) // 2, high})


# ----------------------------------------------------------------------- tests
def test_the_rulesets_folder_is_not_empty() -> None:
    assert RULESET_FILES, f"no rule files in {RULESETS}"


@pytest.mark.parametrize("path", RULESET_FILES, ids=lambda p: p.stem)
def test_ruleset_is_valid_and_named_after_its_file(path: Path) -> None:
    assert check_files([str(path)]) == []
    rules = load_ruleset(path.stem)  # a shipped ruleset loads by its name
    assert rules.name == path.stem
    assert rules.min_players <= rules.default_players <= rules.max_players


@pytest.mark.parametrize("path", RULESET_FILES, ids=lambda p: p.stem)
def test_random_games_keep_every_invariant(path: Path) -> None:
    rules = load_ruleset(path)
    engine = Engine(rules)
    for players in player_counts(rules):
        for seed in range(SEEDS_PER_COUNT):
            state = play_checked(engine, players, seed)
            assert state.n == players
            # play_game with the same seed plays the very same match.
            if seed == 0:
                assert play_game(engine, players, seed).to_json() == state.to_json()


GOLF6 = load_ruleset("golf6")


@functools.cache
def golf6_engine(rounds: int, stock_runs_out: str, discard_taken_card: bool) -> Engine:
    return Engine(load_ruleset("golf6", options={
        "rounds": rounds, "stock_runs_out": stock_runs_out,
        "discard_taken_card": discard_taken_card}))


# Full nine-round matches are played above; here Hypothesis picks seeds and table sizes, and
# the options too, with short matches to keep within the budget.
@settings(max_examples=25, deadline=None, database=None)
@given(seed=st.integers(0, 10**6),
       players=st.integers(GOLF6.min_players, GOLF6.max_players),
       rounds=st.integers(1, 3),
       stock_runs_out=st.sampled_from(["reshuffle", "end_round"]),
       discard_taken_card=st.booleans())
def test_golf6_any_seed_table_and_options_keep_every_invariant(
        seed: int, players: int, rounds: int, stock_runs_out: str,
        discard_taken_card: bool) -> None:
    engine = golf6_engine(rounds, stock_runs_out, discard_taken_card)
    state = play_checked(engine, players, seed)
    assert len(state.round_scores) == rounds
