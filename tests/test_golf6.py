"""6-card Golf (rulesets/golf6.yaml) against its seed text: scores worked out by hand, the
flow of a round, the options, and statistics of random play against the reference figures.
"""

from __future__ import annotations

import functools
import random
import re
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from cardrules.dsl.loader import load_ruleset
from cardrules.errors import CardrulesError, IllegalAction, RulesetError
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.players.bots import RandomBot
from cardrules.interpreter.sessions.play import play_game
from cardrules.interpreter.state import GameState

EMPTY = -1


@functools.cache
def golf(**options: Any) -> Engine:
    return Engine(load_ruleset("golf6", options=options or None))


# ------------------------------------------------------------------ helpers
def card_named(rules: Any, state: GameState, name: str, taken: set[int]) -> int:
    """The first card called `name` (such as 'KH', '10S', 'JK') not already taken."""
    for c in range(state.n_cards):
        if rules.cards.names[c] == name and c not in taken:
            taken.add(c)
            return c
    raise LookupError(f"no card {name} left")


def zone_index(rules: Any, name: str, seat: int | None = None) -> int:
    zone = rules.zone(name)
    return zone.zone_of(seat) if seat is not None else zone.index


def relocate(state: GameState, card: int, zone: int) -> None:
    """Move a card to the end (top) of a zone, keeping `where` consistent."""
    src = state.zones[state.where[card]]
    src.remove(card)
    state.zones[zone].append(card)
    state.where[card] = zone


def set_grids(rules: Any, state: GameState, grids: dict[int, list[str]]) -> None:
    """Lay out the named cards in the given seats' grids (reading order, 2 rows of 3).

    The cards that lay there go to the stock; `where` is rebuilt from the zones.
    """
    taken: set[int] = set()
    wanted = {seat: [card_named(rules, state, n, taken) for n in names]
              for seat, names in grids.items()}
    stock = zone_index(rules, "stock")
    for cards in state.zones:
        cards[:] = [c for c in cards if c not in taken]
    for seat, cards in wanted.items():
        grid = state.zones[zone_index(rules, "grid", seat)]
        state.zones[stock].extend(c for c in grid if c != EMPTY)
        grid[:] = cards
    for z, cards in enumerate(state.zones):
        for c in cards:
            if c != EMPTY:
                state.where[c] = z
    state.legal_cache = None
    assert_conserved(state)


def assert_conserved(state: GameState) -> None:
    placed = sorted(c for cards in state.zones for c in cards if c != EMPTY)
    assert placed == list(range(state.n_cards))
    assert all(c in state.zones[state.where[c]] for c in range(state.n_cards))


def golf_score(names: Sequence[str | None]) -> int:
    """The seed text's scoring, written independently of the ruleset: a 2x3 grid in reading
    order; A=1, 2-10 face value, J=Q=10, K=0, joker=-2; a column of two equal ranks is 0."""
    def points(name: str) -> int:
        if name == "JK":
            return -2
        rank = name[:-1]
        faces = {"A": 1, "J": 10, "Q": 10, "K": 0}
        return faces[rank] if rank in faces else int(rank)

    def rank(name: str | None) -> str | None:
        return name if name == "JK" or name is None else name[:-1]

    total = 0
    for col in range(3):
        top, bottom = names[col], names[col + 3]
        assert top is not None and bottom is not None
        if rank(top) != rank(bottom):
            total += points(top) + points(bottom)
    return total


def grid_is_up(rules: Any, state: GameState, seat: int) -> bool:
    grid = state.zones[zone_index(rules, "grid", seat)]
    return all(state.face_up[c] for c in grid if c != EMPTY)


def play_phase_state(engine: Engine, players: int = 4, seed: int = 5) -> GameState:
    """A new game just after the reveal phase: the first player must draw."""
    state = engine.new_game(players, seed)
    for _ in range(2 * players):
        engine.apply(state, engine.legal_actions(state)[0])
    assert engine.rules.phases[state.phase].name == "play"
    return state


# ------------------------------------------------------------------ scoring
SCORED_GRIDS = [
    pytest.param(["5H", "7C", "KS", "5D", "2C", "QH"], 19, id="pair-cancels"),
    pytest.param(["JK", "AC", "3C", "JK", "AD", "4H"], 7, id="two-jokers-cancel"),
    pytest.param(["AC", "JC", "10C", "KD", "QD", "9H"], 40, id="J-and-Q-do-not-cancel"),
    pytest.param(["JK", "2H", "3H", "KH", "4H", "5H"], 12, id="joker-minus-2-king-0"),
    pytest.param(["2C", "3C", "4C", "6D", "7D", "8D"], 30, id="face-values"),
    pytest.param(["JK", "9C", "9D", "AS", "8S", "9S"], 16, id="joker-ace-and-nines"),
    pytest.param(["KC", "KD", "QS", "KH", "KS", "QH"], 0, id="kings-and-queens"),
    pytest.param(["JC", "QC", "10S", "QS", "JD", "10H"], 40, id="jacks-queens-tens"),
    pytest.param(["10C", "QC", "KC", "9D", "JD", "AD"], 1 + 19 + 20, id="no-pairs"),
]


@pytest.mark.parametrize(("names", "expected"), SCORED_GRIDS)
def test_grid_scores_by_hand(names: list[str], expected: int) -> None:
    engine = golf()
    rules = engine.rules
    state = engine.new_game(4, 1)
    set_grids(rules, state, {2: names})
    assert rules.score(state, 2) == (expected,)
    assert golf_score(names) == expected  # the independent scorer agrees with the hand sums


@pytest.mark.parametrize(("options", "expected"), [({}, 7), ({"joker_pair_cancels": False}, 3)])
def test_two_jokers_in_a_column_cancel_unless_the_option_says_not(
        options: dict[str, Any], expected: int) -> None:
    """The text cancels any two cards of one denomination; `joker_pair_cancels: false` lets
    two jokers keep their -2 each."""
    engine = golf(**options)
    state = engine.new_game(4, 1)
    set_grids(engine.rules, state, {2: ["JK", "AC", "3C", "JK", "AD", "4H"]})
    assert engine.rules.score(state, 2) == (expected,)


def test_columns_score_independently_for_every_seat() -> None:
    engine = golf()
    rules = engine.rules
    state = engine.new_game(4, 3)
    grids = {0: ["JK", "KD", "7C", "JK", "KH", "7D"],     # every column cancels
             1: ["AC", "2C", "3C", "AD", "2D", "4C"],     # 0 + 0 + 7
             2: ["QS", "JS", "10S", "QH", "JH", "9S"],    # 0 + 0 + 19
             3: ["KS", "5S", "6S", "AH", "5H", "6H"]}     # 1 + 0 + 0
    set_grids(rules, state, grids)
    assert [rules.score(state, p) for p in range(4)] == [(0,), (7,), (19,), (1,)]


def test_face_up_or_down_does_not_change_a_score() -> None:
    engine = golf()
    rules = engine.rules
    state = engine.new_game(2, 4)
    set_grids(rules, state, {0: ["5H", "7C", "KS", "5D", "2C", "QH"]})
    before = rules.score(state, 0)
    for c in state.zones[zone_index(rules, "grid", 0)]:
        state.face_up[c] = not state.face_up[c]
    assert rules.score(state, 0) == before == (19,)


def test_points_table_follows_the_seed_text() -> None:
    rules = load_ruleset("golf6")
    expected = {"A": 1, "J": 10, "Q": 10, "K": 0, "JK": -2}
    expected.update({str(n): n for n in range(2, 11)})
    names, points = rules.cards.names, rules.cards.values["points"]
    for c, name in enumerate(names):
        assert points[c] == expected[name if name == "JK" else name[:-1]], name
    assert rules.score_names == ("columns",)


def test_deck_is_52_cards_and_two_jokers_and_two_decks_from_five_players() -> None:
    engine = golf()
    names = engine.rules.cards.names
    for players, decks in ((2, 1), (4, 1), (5, 2), (8, 2)):
        state = engine.new_game(players, 1)
        assert state.n_cards == 54 * decks
        in_play = sorted(names[c] for c in range(state.n_cards))
        assert in_play.count("JK") == 2 * decks
        assert in_play.count("QH") == decks
        assert len(set(in_play)) == 53


def test_round_scores_match_an_independent_scorer() -> None:
    """Every finished round's score equals the seed text's sum over the final grids."""
    engine = golf()
    checked = 0
    for players, seed in [(2, 1), (4, 2), (5, 3), (8, 4)]:
        state = play_game(engine, players, seed, log=True)
        assert state.log is not None
        ends = [e for e in state.log if e.get("event") == "round_end"]
        assert len(ends) == 9
        for event in ends:
            grids = event["zones"]["grid"]
            expected = [golf_score(grids[str(p + 1)]) for p in range(players)]
            assert event["scores"] == expected
            checked += players
        assert state.totals == [sum(r[p] for r in state.round_scores) for p in range(players)]
    assert checked == 9 * (2 + 4 + 5 + 8)


# ------------------------------------------------------------- determinism
def test_same_seed_same_event_log_and_different_seeds_differ() -> None:
    engine = golf()
    first = play_game(engine, 4, 21, log=True)
    again = play_game(engine, 4, 21, log=True)
    other = play_game(engine, 4, 22, log=True)
    assert first.log and first.log == again.log
    assert first.to_json() == again.to_json()
    assert other.log != first.log
    assert other.totals != first.totals or other.round_scores != first.round_scores


def test_a_new_game_depends_only_on_its_seed() -> None:
    engine = golf()
    random.seed(1)
    a = engine.new_game(4, 99).to_json()
    random.seed(2)  # the global generator plays no part
    b = engine.new_game(4, 99).to_json()
    assert a == b
    assert engine.new_game(4, 100).to_json() != a


# -------------------------------------------------------------- statistics
def test_random_play_statistics_match_the_reference() -> None:
    """4 players, 150 random matches: about 34.9 play-phase turns a round (38.9 with the
    four reveal turns) and a mean round score of about 31.0 per player."""
    engine = golf()
    turns_per_round: list[float] = []
    round_scores: list[int] = []
    for seed in range(150):
        state = play_game(engine, 4, seed)
        rounds = len(state.round_scores)
        assert rounds == 9
        turns_per_round.append(state.turns / rounds)
        round_scores.extend(s for r in state.round_scores for s in r)
    assert statistics.mean(turns_per_round) == pytest.approx(38.9, abs=1.5)
    assert statistics.mean(turns_per_round) - 4 == pytest.approx(34.9, abs=1.5)
    assert statistics.mean(round_scores) == pytest.approx(31.0, abs=1.5)


# --------------------------------------------------------------- the round
def test_reveal_phase_turns_exactly_two_cards_per_player() -> None:
    engine = golf()
    rules = engine.rules
    for players, seed in [(2, 1), (4, 7), (8, 3)]:
        state = engine.new_game(players, seed)
        assert rules.phases[state.phase].name == "reveal"
        grids = [zone_index(rules, "grid", p) for p in range(players)]
        assert not any(state.face_up[c] for g in grids for c in state.zones[g])
        order = []
        for _ in range(players):
            seat = state.current
            order.append(seat)
            for flipped in range(2):
                assert state.current == seat
                grid = state.zones[grids[seat]]
                legal = engine.legal_actions(state)
                assert legal == [("reveal", c) for c in grid if not state.face_up[c]]
                assert len(legal) == 6 - flipped
                engine.apply(state, legal[-1])
            assert sum(state.face_up[c] for c in state.zones[grids[seat]]) == 2
        assert sorted(order) == list(range(players))
        assert order == [(order[0] + k) % players for k in range(players)]
        assert rules.phases[state.phase].name == "play"
        assert state.current == order[0]
        assert [sum(state.face_up[c] for c in state.zones[g]) for g in grids] == [2] * players
        assert engine.legal_actions(state) == [("take_stock",), ("take_discard",)]


def test_round_ends_after_everyone_else_has_one_more_turn() -> None:
    """Once a player's six cards are all face up, each other player has exactly one turn."""
    engine = golf()
    rules = engine.rules
    laps_seen = 0
    for players, seed in [(2, 1), (3, 2), (4, 3), (4, 4), (5, 5), (8, 6)]:
        state = engine.new_game(players, seed)
        bot = RandomBot(seed)
        out: int | None = None  # the first seat of this round to have all six cards up
        after_out: list[int] = []
        while not state.over:
            seat, turns, rounds = state.current, state.turns, len(state.round_scores)
            engine.apply(state, bot.choose(engine, state, engine.legal_actions(state)))
            round_over = len(state.round_scores) > rounds
            if state.turns == turns:
                assert not round_over, "a round ended in the middle of a turn"
                continue
            if out is not None:
                after_out.append(seat)
            elif not round_over and grid_is_up(rules, state, seat):
                out = seat
            if round_over:
                assert out is not None, "a round ended without a grid all face up"
                assert after_out == [(out + k) % players for k in range(1, players)]
                laps_seen += 1
                out, after_out = None, []
    assert laps_seen == 6 * 9


def test_take_stock_from_an_empty_stock_reshuffles_the_discard_pile() -> None:
    engine = golf()
    rules = engine.rules
    state = play_phase_state(engine)
    stock, discard = zone_index(rules, "stock"), zone_index(rules, "discard")
    me = state.current
    holding = zone_index(rules, "holding", me)
    for c in list(reversed(state.zones[stock])):
        relocate(state, c, discard)
        state.face_up[c] = True
        state.known[c] = (1 << state.n) - 1
    state = GameState.from_json(state.to_json())  # a state as a save file would give it
    assert state.zones[stock] == []
    pile = list(state.zones[discard])
    assert len(pile) == 30  # 54 - 24 dealt
    legal = engine.legal_actions(state)
    assert ("take_stock",) in legal
    engine.apply(state, ("take_stock",))
    assert_conserved(state)
    assert state.zones[discard] == [pile[-1]]  # the top card stays
    assert len(state.zones[holding]) == 1
    assert sorted(state.zones[stock] + state.zones[holding]) == sorted(pile[:-1])
    assert len(state.zones[stock]) == 28
    for c in state.zones[stock]:
        assert not state.face_up[c]
        assert state.known[c] == 0, "a reshuffled card is still known to someone"
    taken = state.zones[holding][0]
    assert state.known[taken] == 1 << me and not state.face_up[taken]
    assert engine.rules.phases[state.phase].steps[state.step].name == "place"


def test_no_take_stock_when_the_stock_is_empty_and_the_discard_pile_has_one_card() -> None:
    engine = golf()
    rules = engine.rules
    state = play_phase_state(engine)
    stock, discard = zone_index(rules, "stock"), zone_index(rules, "discard")
    # Out of the way: the stock goes to the previous player's holding place.
    spare = zone_index(rules, "holding", (state.current - 1) % state.n)
    for c in list(state.zones[stock]):
        relocate(state, c, spare)
    state = GameState.from_json(state.to_json())
    assert len(state.zones[discard]) == 1
    assert engine.legal_actions(state) == [("take_discard",)]


def test_discarding_the_card_just_taken_from_the_discard_pile_is_an_option() -> None:
    for again, expect_discard in ((True, True), (False, False)):
        engine = golf(discard_taken_card=again)
        state = play_phase_state(engine)
        engine.apply(state, ("take_discard",))
        moves = {a[0] for a in engine.legal_actions(state)}
        assert ("discard" in moves) is expect_discard
        assert "swap" in moves
        # after a card from the stock, discarding is always allowed
        state = play_phase_state(engine)
        engine.apply(state, ("take_stock",))
        assert "discard" in {a[0] for a in engine.legal_actions(state)}


def test_swap_puts_the_new_card_face_up_and_discards_the_old_one() -> None:
    engine = golf()
    rules = engine.rules
    state = play_phase_state(engine)
    me = state.current
    grid = state.zones[zone_index(rules, "grid", me)]
    engine.apply(state, ("take_stock",))
    new = state.zones[zone_index(rules, "holding", me)][-1]
    slot = next(i for i, c in enumerate(grid) if not state.face_up[c])
    old = grid[slot]
    engine.apply(state, ("swap", old))
    assert grid[slot] == new and state.face_up[new]
    assert state.zones[zone_index(rules, "discard")][-1] == old and state.face_up[old]
    assert state.known[new] == state.known[old] == (1 << state.n) - 1
    assert state.current == (me + 1) % state.n


def test_descriptions_name_only_cards_the_reader_knows() -> None:
    """A described action names a card only to a seat that knows it (the public log: only
    if everyone does); otherwise it says where the card lies. The log tells an action once
    it is done: a card turned up is said where it lay, then what it was."""
    engine = golf()
    names = engine.rules.cards.names
    state = engine.new_game(3, 17, log=True)
    bot = RandomBot(17)
    named = hidden = revealed = 0
    while not state.over and state.actions < 150:
        legal = engine.legal_actions(state)
        me = state.current
        everyone = (1 << state.n) - 1
        for action in legal:
            cards = [a for a in action[1:] if isinstance(a, int)]
            for reader in (me, None):
                text = engine.words.describe(action, state, reader)
                for c in cards:
                    knows = (state.known[c] >> me & 1 if reader is not None
                             else state.known[c] == everyone)
                    shown = re.search(rf"(?<![0-9A-Z]){names[c]}(?![0-9A-Z])", text)
                    assert bool(shown) == bool(knows), (text, names[c])
                    named += bool(shown)
                    hidden += not shown
        action = bot.choose(engine, state, legal)
        public = engine.words.describe(action, state)
        shown = [names[c] for c in action[1:] if isinstance(c, int) and c >= 0
                 and state.known[c] != everyone]
        engine.apply(state, action)
        assert state.log is not None
        event = [e for e in state.log if e.get("event") == "action"][-1]
        if action[0] in ("reveal", "swap") and shown:  # the card named is turned face up
            public += f" - it was {' '.join(shown)}"
            revealed += 1
        assert (event["seat"], event["action"]) == (me + 1, public)
    assert named > 50 and hidden > 50 and revealed > 5


# ------------------------------------------------------------------ options
def test_rounds_option_sets_the_match_length() -> None:
    engine = Engine(load_ruleset("golf6", options={"rounds": "3"}))
    state = play_game(engine, 4, 8)
    assert state.over and state.rounds_total == 3
    assert len(state.round_scores) == 3
    assert engine.results(state)["rounds"] == 3
    assert len(play_game(golf(), 4, 8).round_scores) == 9


def test_end_round_option_ends_the_round_when_the_stock_empties() -> None:
    """With stock_runs_out: end_round, the turn that takes the stock's last card is played
    out (its card placed or discarded), and the round ends after it."""
    engine = golf(stock_runs_out="end_round")
    rules = engine.rules
    stock = zone_index(rules, "stock")
    emptied = 0
    for seed in range(30):
        state = engine.new_game(4, seed)
        bot = RandomBot(seed)
        while not state.over:
            rounds, mover = len(state.round_scores), state.current
            was_empty = not state.zones[stock]
            action = bot.choose(engine, state, engine.legal_actions(state))
            engine.apply(state, action)
            if len(state.round_scores) > rounds:
                emptied += was_empty
                assert action[0] in ("swap", "discard") or not was_empty
            elif not state.zones[stock] and state.round == rounds + 1:
                # the last card is drawn: its taker still places or discards it
                assert action[0] == "take_stock" and state.current == mover
                assert {a[0] for a in engine.legal_actions(state)} <= {"swap", "discard"}
    assert emptied > 0


def test_end_round_option_a_constructed_last_card() -> None:
    engine = golf(stock_runs_out="end_round")
    rules = engine.rules
    state = play_phase_state(engine)
    stock = zone_index(rules, "stock")
    spare = zone_index(rules, "holding", (state.current - 1) % state.n)  # out of the way
    for c in state.zones[stock][:-1]:
        relocate(state, c, spare)
    state = GameState.from_json(state.to_json())
    assert len(state.zones[stock]) == 1 and state.round == 1
    mover = state.current
    engine.apply(state, ("take_stock",))
    assert state.round == 1 and state.current == mover  # the turn goes on: the card is held
    engine.apply(state, ("swap", state.zones[zone_index(rules, "grid", mover)][0]))
    assert len(state.round_scores) == 1 and state.round == 2


def test_reshuffle_is_the_default_and_keeps_the_round_going() -> None:
    engine = golf()
    rules = engine.rules
    state = play_phase_state(engine)
    stock, discard = zone_index(rules, "stock"), zone_index(rules, "discard")
    for c in state.zones[stock][:-1]:
        relocate(state, c, discard)
        state.face_up[c] = True
        state.known[c] = (1 << state.n) - 1
    state = GameState.from_json(state.to_json())
    engine.apply(state, ("take_stock",))
    assert state.zones[stock] == [] and state.round == 1
    engine.apply(state, ("discard",))
    assert ("take_stock",) in engine.legal_actions(state)


@pytest.mark.parametrize("options", [
    {"rounds": "many"}, {"rounds": "2.5"}, {"rounds": 2.5}, {"rounds": True},
    {"stock_runs_out": "never"}, {"stock_runs_out": "Reshuffle"},
    {"discard_taken_card": "maybe"}, {"extra_deck_from": "five"},
    {"round": "3"}, {"stock_runs_ou": "end_round"}, {"": "1"},
], ids=repr)
def test_bad_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(RulesetError) as info:
        load_ruleset("golf6", options=options)
    name = next(iter(options))
    assert f"'{name}'" in str(info.value)


def test_an_unknown_option_gets_a_suggestion() -> None:
    with pytest.raises(RulesetError, match="no option 'stock_runs_ou': did you mean "
                                           "'stock_runs_out'"):
        load_ruleset("golf6", options={"stock_runs_ou": "end_round"})


@pytest.mark.parametrize("value", ["yes", "true", "no", "false", True, False])
def test_boolean_options_accept_words(value: Any) -> None:
    rules = load_ruleset("golf6", options={"discard_taken_card": value})
    assert rules.options["discard_taken_card"] is (value in ("yes", "true", True))


@pytest.mark.parametrize("rounds", ["0", "-2"])
def test_a_match_needs_at_least_one_round(rounds: str, tmp_path: Path) -> None:
    """golf6 bounds its option (min: 1); the language's own bound holds without it."""
    with pytest.raises(CardrulesError, match="'rounds': -?[0-9] is outside its range, from 1"):
        golf(rounds=rounds).new_game(4, 1)
    shipped = Path(__file__).resolve().parent.parent / "rulesets" / "golf6.yaml"
    text = shipped.read_text(encoding="utf-8").replace("    min: 1\n    max: 10000\n", "")
    path = tmp_path / "golf6-unbounded.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CardrulesError, match="at least one round"):
        Engine(load_ruleset(path, {"rounds": rounds})).new_game(4, 1)


def test_the_deal_and_the_first_turn_move_round_by_round() -> None:
    """Seat 1 plays first in round 1, the seat before it deals; both move on each round."""
    engine = golf()
    for players in (2, 4, 5):
        state = engine.new_game(players, 3)
        bot = RandomBot(3)
        starts = []
        while not state.over:
            if state.round > len(starts):
                starts.append((state.dealer, state.current))
            engine.apply(state, bot.choose(engine, state, engine.legal_actions(state)))
        assert starts == [((r - 2) % players, (r - 1) % players) for r in range(1, 10)]


# ----------------------------------------------------------- illegal actions
def illegal_actions_now(engine: Engine, state: GameState) -> list[Any]:
    rules = engine.rules
    me = state.current
    other_grid = state.zones[zone_index(rules, "grid", (me + 1) % state.n)]
    stock_top = state.zones[zone_index(rules, "stock")][-1]
    return [("no_such_move",), (), ("reveal", other_grid[0]), ("swap", other_grid[0]),
            ("reveal", stock_top), ("swap", -1), ("reveal", 10**6), ("take_stock", 1),
            ("discard",), ("swap",), ("take_discard",) if rules.phases[state.phase].name ==
            "reveal" else ("reveal", other_grid[1]), ("Reveal", other_grid[0]), "take_stock"]


@pytest.mark.parametrize("log", [False, True])
def test_illegal_action_leaves_the_state_unchanged(log: bool) -> None:
    engine = golf()
    state = engine.new_game(4, 13, log=log)
    bot = RandomBot(13)
    tried = 0
    while not state.over and state.actions < 120:
        legal = engine.legal_actions(state)
        for action in illegal_actions_now(engine, state):
            if action in legal:
                continue
            before = state.to_json()
            log_before = list(state.log) if state.log is not None else None
            with pytest.raises(IllegalAction):
                engine.apply(state, action)
            assert state.to_json() == before
            assert state.log == log_before
            assert engine.legal_actions(state) == legal
            tried += 1
        engine.apply(state, bot.choose(engine, state, legal))
    assert tried > 500


def test_an_empty_action_is_illegal() -> None:
    engine = golf()
    state = engine.new_game(4, 1)
    before = state.to_json()
    with pytest.raises(IllegalAction):
        engine.apply(state, ())
    assert state.to_json() == before


def test_a_face_up_card_cannot_be_revealed_again() -> None:
    engine = golf()
    state = engine.new_game(4, 2)
    first = engine.legal_actions(state)[0]
    engine.apply(state, first)
    before = state.to_json()
    with pytest.raises(IllegalAction):
        engine.apply(state, first)
    assert state.to_json() == before


def test_no_action_after_the_game_is_over() -> None:
    engine = golf(rounds=1)
    state = play_game(engine, 3, 4)
    assert state.over and engine.legal_actions(state) == []
    before = state.to_json()
    for action in [("take_stock",), ("take_discard",), ("discard",)]:
        with pytest.raises(IllegalAction):
            engine.apply(state, action)
    assert state.to_json() == before


def test_an_action_given_as_a_list_is_the_same_action() -> None:
    engine = golf()
    a, b = engine.new_game(4, 6), engine.new_game(4, 6)
    action = engine.legal_actions(a)[2]
    engine.apply(a, action)
    engine.apply(b, list(action))
    assert a.to_json() == b.to_json()


def test_a_card_id_that_is_not_an_int_is_illegal() -> None:
    engine = golf()
    state = engine.new_game(4, 1)
    name, card = engine.legal_actions(state)[0]
    with pytest.raises(IllegalAction):
        engine.apply(state, (name, float(card)))


# ----------------------------------------------------------------- players
@pytest.mark.parametrize("players", [0, 1, 9, 16])
def test_table_size_outside_two_to_eight_is_refused(players: int) -> None:
    from cardrules.errors import GameError

    with pytest.raises(GameError, match=f"golf6 is for 2 to 8 players, not {players}"):
        golf().new_game(players, 1)


def test_default_table_is_four_players() -> None:
    assert golf().new_game(None, 1).n == 4


def test_the_held_cards_flag_is_cleared_once_the_card_is_placed() -> None:
    """took_discard ("Holding the discard pile's card") says no once the held card is
    placed or discarded: the next seat's view never reads the seat before's draw."""
    engine = golf()
    state = play_phase_state(engine)
    engine.apply(state, ("take_discard",))
    assert state.vars["took_discard"] is True
    engine.apply(state, ("discard",) if ("discard",) in engine.legal_actions(state)
                 else engine.legal_actions(state)[0])
    assert state.vars["took_discard"] is False
    engine.apply(state, ("take_discard",))
    engine.apply(state, next(a for a in engine.legal_actions(state) if a[0] == "swap"))
    assert state.vars["took_discard"] is False


def test_two_jokers_in_a_grid_are_two_choices_each_told_by_its_place() -> None:
    """Cards of one name in two places of a grid are two choices (which column the new card
    goes to decides the pairs): both are offered, each saying where it lies."""
    from cardrules.dsl.deal_file import parse_deal
    from cardrules.present.choices import offered
    from cardrules.present.lines import choice_texts

    rules = load_ruleset("golf6")
    engine = Engine(rules)
    deal = parse_deal('{"zones": {"grid[1]": [JK, 8D, 5C, 6D, 9S, JK], "stock": [8H]}}',
                      "deal.yaml", rules, 2)
    state = engine.new_game(2, 3, deal=deal)
    grid = rules.zone("grid").zone_of(0)
    jokers = [c for c in state.zones[grid] if rules.cards.names[c] == "JK"]
    for c in jokers:
        engine.play(state, ("reveal", c))
        if engine.to_move(state) != 0:
            break
    while engine.to_move(state) != 0 or engine.legal_actions(state)[0][0] not in (
            "take_stock", "take_discard"):
        engine.play(state, engine.legal_actions(state)[0])
    engine.play(state, ("take_stock",))
    legal = offered(engine, state, 0, engine.legal_actions(state))
    texts = choice_texts(engine, state, 0, dict(enumerate(legal, 1)))
    on_jokers = [t for t in texts.values() if "place of JK" in t]
    assert on_jokers == ["Put the card in place of JK (row 1, column 1)",
                         "Put the card in place of JK (row 2, column 3)"], texts
