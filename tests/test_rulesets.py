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
import json
import random
from pathlib import Path
from typing import Any

import pytest
from depth import deep  # (tests/depth.py)
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules.dsl.loader import check_files, load_ruleset
from cardrules.errors import IllegalAction
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.melding import run_shown
from cardrules.interpreter.players.bots import RandomBot, make_bot
from cardrules.interpreter.sessions.play import play_game
from cardrules.interpreter.state import GameState
from cardrules.interpreter.view import player_view
from cardrules.interpreter.words import told_words

RULESETS = Path(__file__).resolve().parent.parent / "rulesets"
# The shipped rulesets, and rule files of tests/games/ that play the language's constructs
# no shipped game uses.
GAMES = Path(__file__).resolve().parent / "games"
RULESET_FILES = sorted(RULESETS.glob("*.yaml")) + sorted(GAMES.glob("*.yaml"))
EMPTY = -1  # an empty grid slot

# The budget, for the whole module whatever the number of rulesets: about this many actions,
# each followed by every check, shared out among the rulesets and their table sizes (min,
# default, max). Each table size plays at least MIN_SEEDS whole matches, at most MAX_SEEDS.
CHECKED_ACTIONS = deep(16_000)
MIN_SEEDS, MAX_SEEDS = 1, 12
# A match ends within this many actions per round to be played (golf6 needs about 80).
MAX_ACTIONS_PER_ROUND = 3000
# How long a restored (or copied) state is played in lockstep with the original.
LOCKSTEP_ACTIONS = 40


# ------------------------------------------------------------------ invariants
def zone_instances(state: GameState, zone: Any, view: dict[str, Any] | None = None,
                   ) -> list[tuple[str, int, Any]]:
    """(label, zone index, that zone in `view`) for each instance of a declared zone at this
    table: one if shared, one per seat if owned, several per seat for a zone of groups."""
    entry = view["zones"][zone.name] if view is not None else None
    if not zone.owned and getattr(zone, "groups", 0):  # the table's piles
        return [(f"{zone.name}[{i}]", z, entry[i] if entry is not None else None)
                for i, z in enumerate(zone.instances(0))]
    if not zone.owned:
        return [(zone.name, zone.index, entry)]
    out = []
    for p in range(state.n):
        mine = entry[str(p + 1)] if entry is not None else None
        if getattr(zone, "groups", 0):
            for i, z in enumerate(zone.instances(p)):
                out.append((f"{zone.name}[{p + 1}][{i}]", z,
                            mine[i] if mine is not None else None))
        else:
            out.append((f"{zone.name}[{p + 1}]", zone.zone_of(p), mine))
    return out


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


def check_view(engine: Engine, state: GameState, seat: int) -> None:
    """`seat`'s view shows a card's name exactly where that seat knows it; hidden zones
    show only their count (so the names shown are the seat's known cards, less those
    lying in hidden zones); a player variable kept to its owner is shown to nobody else."""
    rules = engine.rules
    view = player_view(rules, state, seat)
    names = rules.cards.names
    known = state.known
    assert view["seat"] == seat + 1
    maybe: dict[str, set[int]] = {}  # a card's name -> the zones where it may be
    for zone in rules.zones:
        hidden = zone.visibility == "hidden"
        for label, z, zview in zone_instances(state, zone, view):
            cards = state.zones[z]
            for name in zview.pop("maybe", []):
                maybe.setdefault(name, set()).add(z)
            if hidden and not (state.over and any(c != EMPTY and known[c] >> seat & 1
                                                  for c in cards)):
                assert zview == {"count": len(cards) - cards.count(EMPTY)}, (
                    f"hidden zone {label} shows {zview}")
                continue
            # (a hidden zone lists the cards it knows of once the game is over)
            assert zview["count"] == len(cards) - cards.count(EMPTY)
            held = zone.visibility == "owner" and rules.board.owner[z] != seat
            if held:
                # another's hand: its order is the holder's; the seat sees what it knows
                # first, in the deck's order of their names (copies of a card are one name
                # to it), and the backs of the others, whichever way they lie
                first = {name: names.index(name) for name in names}
                cards = sorted((c for c in cards if known[c] >> seat & 1),
                               key=lambda c: (first[names[c]], c)) + \
                    [c for c in cards if c != EMPTY and not known[c] >> seat & 1]
            run = None
            if rules.melds is not None and zone.groups and zone.layout in ("row", "spread") \
                    and cards and all(c != EMPTY and state.face_up[c]
                                      and known[c] == state.everyone for c in cards):
                run = run_shown(rules.melds, cards)  # a laid run, seen by all: as it climbs
            if run is not None:
                assert sorted(run[0]) == sorted(cards)
                cards = run[0]
            expected = [None if c == EMPTY else {
                "card": names[c] if known[c] >> seat & 1 else None,
                "up": state.face_up[c] and (not held or bool(known[c] >> seat & 1))}
                for c in cards]
            for c, entry in zip(cards, expected):  # a wild card in a laid run's gap
                if run is not None and c in run[1] and entry is not None:
                    entry["as"] = names[run[1][c]]
            for c, entry in zip(cards, expected):  # what clues told of a card, everyone heard
                if entry is not None and c in state.told:
                    entry["told"] = told_words(rules, state.told[c])
            if zone.layout == "trick":  # a trick shows who played each card
                for c, entry in zip(cards, expected):
                    by = state.by[c]
                    if entry is not None:
                        entry["by"] = by + 1 if by is not None else None
            assert zview["cards"] == expected, (
                f"seat {seat + 1} sees {label} as {zview['cards']}, but knows {expected}")
    for c, mask in state.told.items():  # what clues told of a card is true of it
        assert mask >> rules.board.face[c] & 1, f"a clue told {names[c]} it is not itself"
    for name, zones in maybe.items():  # a card known partly is in one of its zones
        assert any(names[c] == name and not known[c] >> seat & 1 and state.where[c] in zones
                   for c in range(state.n_cards)), (
            f"seat {seat + 1} is told {name} may be in zones {sorted(zones)}, but it is not")
    for var in rules.variables:
        if getattr(var, "visibility", "public") == "owner" and not state.over \
                and var.name in state.pvars:
            shown = view["player_variables"][var.name]
            assert [v for p, v in enumerate(shown) if p != seat] == [None] * (state.n - 1), (
                f"seat {seat + 1} sees the others' secret '{var.name}': {shown}")
        if var.kind == "card" or var.item_kind == "card":  # a card id would name the card
            values = [state.vars[var.name]] if var.name in state.vars else state.pvars[var.name]
            cards = [c for v in values if v is not None
                     for c in (v if isinstance(v, list) else [v])]
            secret = {names[c] for c in cards if not known[c] >> seat & 1}
            assert not secret & set(_leaves(view["variables"], view["player_variables"])), (
                f"seat {seat + 1} sees {secret} in variable '{var.name}'")
            seen = view["variables"].get(var.name, view["player_variables"].get(var.name))
            assert all(v is None or isinstance(v, str) for v in _leaves(seen)), (
                f"variable '{var.name}' shows card ids, which name the cards: {seen}")


def _leaves(*values: Any) -> list[Any]:
    """Every plain value inside nested dicts and lists."""
    out: list[Any] = []
    stack = list(values)
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
        else:
            out.append(value)
    return out


def check_public_face_up_known(rules: Any, state: GameState) -> None:
    """A face-up card in a public zone is in plain sight: every seat knows it."""
    for zone in rules.zones:
        if zone.visibility != "public":
            continue
        for label, z, _ in zone_instances(state, zone):
            for c in state.zones[z]:
                if c != EMPTY and state.face_up[c]:
                    assert state.known[c] == (1 << state.n) - 1, (
                        f"face-up {rules.cards.names[c]} in public zone {label} is not "
                        "known to every seat")


def check_scores(rules: Any, state: GameState) -> None:
    assert len(state.round_scores) <= max(state.rounds_total, 1)
    assert all(len(r) == state.n for r in state.round_scores)
    assert len(state.totals) == state.n
    assert all(isinstance(t, int) for t in state.totals)


def check_finished(engine: Engine, state: GameState) -> None:
    rules = engine.rules
    assert engine.legal_actions(state) == []
    before = state.to_json()
    with pytest.raises(IllegalAction):
        engine.apply(state, (next(iter(rules.moves)),))
    assert state.to_json() == before
    # (by totals, or by a rule's `win`: which one is for each ruleset's own tests); a game
    # for one seat, or for a table scored as one (`by: table`), may be lost, with no winner
    assert (state.winners or state.n == 1 or rules.score_by == "table") \
        and state.winners == sorted(set(state.winners))
    assert all(0 <= w < state.n and state.active[w] for w in state.winners)
    results = engine.results(state)
    assert results["winners"] == [w + 1 for w in state.winners]
    assert results["totals"] == state.totals
    assert results["rounds"] == len(state.round_scores)


def check_after_action(engine: Engine, state: GameState,
                       acted: int | None = None) -> list[tuple[Any, ...]]:
    """Every invariant that must hold between two actions; the legal actions now.

    Views (the costly check) are checked for the seat that acted, the seat to move and one
    more seat in rotation: every seat is checked at least every n actions, and at a table
    of up to three, every seat after every action.
    """
    rules = engine.rules
    check_cards_conserved(state)
    check_public_face_up_known(rules, state)
    check_scores(rules, state)
    deciding = engine.to_move(state)
    seats = {acted if acted is not None else 0, state.actions % state.n}
    if deciding is not None:
        seats.add(deciding)
    for seat in seats:
        check_view(engine, state, seat)
    if state.over:
        assert deciding is None
        return []
    assert deciding is not None and 0 <= deciding < state.n and state.active[deciding]
    assert state.round == len(state.round_scores) + 1
    legal = engine.legal_actions(state)
    assert legal, "no legal action, yet the game is not over"
    assert len(set(legal)) == len(legal), "an action is listed twice"
    for action in legal:
        # a move of the ruleset, or the engine's own ("pass",) in a reaction window
        assert isinstance(action, tuple) and (action[0] in rules.moves or action == ("pass",))
    return legal


def lockstep(engine: Engine, states: list[GameState], bot: RandomBot) -> None:
    """Play several states with the same actions; they must stay identical."""
    first, *others = states
    for _ in range(LOCKSTEP_ACTIONS):
        if first.over:
            break
        legal = engine.legal_actions(first)
        for other in others:
            assert engine.legal_actions(other) == legal
            assert engine.to_move(other) == engine.to_move(first)
        action = bot.choose(engine, first, legal)
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
    lockstep(engine, [reference, copied, restored], RandomBot(seed))
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
        acted = engine.to_move(state)
        assert acted is not None
        action = bots[acted].choose(engine, state, legal)
        label = engine.words.describe(action)
        assert isinstance(label, str) and label and "{" not in label, label
        engine.apply(state, action)
        legal = check_after_action(engine, state, acted)
        if state.actions == round_trip_at:
            check_round_trip(engine, state, seed)
    check_finished(engine, state)
    return state


def player_counts(rules: Any) -> list[int]:
    return sorted({rules.min_players, rules.default_players, rules.max_players})


# ----------------------------------------------------------------------- tests
def test_the_rulesets_folder_is_not_empty() -> None:
    assert RULESET_FILES, f"no rule files in {RULESETS}"


@pytest.mark.parametrize("path", RULESET_FILES, ids=lambda p: p.stem)
def test_ruleset_is_valid_and_named_after_its_file(path: Path) -> None:
    """Valid, with no hint either (tests/test_repetition.py: a hint at moves that undo each
    other is given to none of them)."""
    assert check_files([str(path)], hints=True) == []
    rules = load_ruleset(path.stem if path.parent == RULESETS else path)  # a shipped one by name
    assert rules.name == path.stem
    assert rules.min_players <= rules.default_players <= rules.max_players


@pytest.mark.parametrize("path", RULESET_FILES, ids=lambda p: p.stem)
def test_random_games_keep_every_invariant(path: Path) -> None:
    rules = load_ruleset(path)
    engine = Engine(rules)
    counts = player_counts(rules)
    budget = CHECKED_ACTIONS // len(RULESET_FILES) // len(counts)
    for players in counts:
        played = 0
        for seed in range(MAX_SEEDS):
            if seed >= MIN_SEEDS and played >= budget:
                break
            state = play_checked(engine, players, seed)
            assert state.n == players
            played += state.actions
            # play_game with the same seed plays the very same match.
            if seed == 0:
                assert play_game(engine, players, seed).to_json() == state.to_json()


# Rulesets whose views do not yet say who decides (test_every_view_says_who_decides_now).
TO_MOVE_BUGS: dict[str, str] = {}  # fixed: views name the seat a reaction waits for


@pytest.mark.parametrize("path", [
    pytest.param(p, id=p.stem, marks=[pytest.mark.xfail(strict=True, reason=TO_MOVE_BUGS[p.stem])]
                 if p.stem in TO_MOVE_BUGS else []) for p in RULESET_FILES])
def test_every_view_says_who_decides_now(path: Path) -> None:
    """Before each decision (a turn's move, or an answer in a reaction window), every
    view's `to_move` is the seat the engine waits for."""
    engine = Engine(load_ruleset(path))
    players = engine.rules.min_players
    decisions = 0
    for seed in range(MAX_SEEDS):
        if decisions >= 3000:
            break
        state = engine.new_game(players, seed)
        bots = [make_bot("random", seed, seat) for seat in range(state.n)]
        while True:
            deciding = engine.to_move(state)
            for seat in {0, players - 1}:
                view = player_view(engine.rules, state, seat)
                assert view["to_move"] == (deciding + 1 if deciding is not None else None), (
                    f"seed {seed}, action {state.actions}")
            if deciding is None:
                break
            engine.apply(state, bots[deciding].choose(engine, state,
                                                      engine.legal_actions(state)))
            decisions += 1


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


# ------------------------------------------- the checks above can fail (no tautologies)
def mid_game(actions: int = 30) -> tuple[Engine, GameState]:
    engine = golf6_engine(9, "reshuffle", True)
    state = engine.new_game(4, 11)
    bot = RandomBot(11)
    for _ in range(actions):
        engine.apply(state, bot.choose(engine, state, engine.legal_actions(state)))
    assert not state.over
    return engine, state


def test_conservation_check_catches_a_lost_a_doubled_and_a_misplaced_card() -> None:
    _, state = mid_game()
    check_cards_conserved(state)
    for corrupt in ("lost", "doubled", "misplaced"):
        broken = copy.deepcopy(state)
        stock = GOLF6.zone("stock").index
        card = broken.zones[stock][-1]
        if corrupt == "lost":
            broken.zones[stock].pop()
        elif corrupt == "doubled":
            broken.zones[1].append(card)
        else:
            broken.where[card] = 1
        with pytest.raises(AssertionError):
            check_cards_conserved(broken)
    check_cards_conserved(state)  # the copies were broken, not the state


def test_view_check_catches_a_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    engine, state = mid_game()
    check_view(engine, state, 0)
    honest = player_view

    def leaks_the_stock(rules: Any, s: GameState, seat: int) -> dict[str, Any]:
        view = honest(rules, s, seat)
        view["zones"]["stock"]["cards"] = [{"card": rules.cards.names[c], "up": False}
                                           for c in s.zones[rules.zone("stock").index]]
        return view

    def leaks_a_face_down_card(rules: Any, s: GameState, seat: int) -> dict[str, Any]:
        view = honest(rules, s, seat)
        grid = s.zones[rules.zone("grid").zone_of(1)]
        slot = next(i for i, c in enumerate(grid) if not s.face_up[c])
        view["zones"]["grid"]["2"]["cards"][slot]["card"] = rules.cards.names[grid[slot]]
        return view

    for leaky in (leaks_the_stock, leaks_a_face_down_card):
        monkeypatch.setitem(globals(), "player_view", leaky)
        with pytest.raises(AssertionError):
            check_view(engine, state, 0)


# ------------------------------------------------------------ open parameters
def first_open_action(engine: Engine, seed: int) -> tuple[GameState, tuple[Any, ...]] | None:
    """A state and a legal action of it that still holds an open parameter (a value a
    player must fill in, so not plain JSON), within the first actions of a game."""
    state = engine.new_game(None, seed)
    bot = RandomBot(seed)
    for _ in range(200):
        if state.over:
            return None
        legal = engine.legal_actions(state)
        for action in legal:
            try:
                json.dumps(action)
            except TypeError:
                return state, action
        engine.apply(state, bot.choose(engine, state, legal))
    return None


def test_an_open_action_must_be_filled_in() -> None:
    found = 0
    for path in RULESET_FILES:
        if "words(" not in path.read_text(encoding="utf-8"):
            continue  # (an open parameter chooses among words: no other file has one)
        engine = Engine(load_ruleset(path))
        if not engine.open_moves:  # (no move with a text to write: nothing to look for)
            continue
        open_action = first_open_action(engine, 1)
        if open_action is None:
            continue
        found += 1
        state, template = open_action
        before = state.to_json()
        with pytest.raises(IllegalAction):
            engine.apply(state, template)
        assert state.to_json() == before
    if not found:
        pytest.skip("no ruleset has an open parameter")


@pytest.mark.parametrize("path", RULESET_FILES, ids=lambda p: p.stem)
def test_advance_is_apply_with_the_listing_left_for_later(path: Path) -> None:
    # Engine.advance (for search) applies an action without listing the next decision; once
    # legal_actions is asked, the game is exactly where apply would have left it.
    engine = Engine(load_ruleset(path))
    for seed in range(deep(2)):
        stepped = engine.new_game(seed=seed)
        bot = RandomBot(seed)
        for _ in range(150):
            if stepped.over:
                break
            legal = engine.legal_actions(stepped)
            action = bot.choose(engine, stepped, legal)
            advanced = stepped.copy()
            engine.advance(advanced, action)
            engine.apply(stepped, action)
            assert engine.legal_actions(advanced) == engine.legal_actions(stepped)
            assert engine.to_move(advanced) == engine.to_move(stepped)
            assert advanced.to_json() == stepped.to_json()
