"""Search bots and the knowledge they sample from: determinizations and legal play."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter import domains
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.kernel import Kernel
from cardrules.interpreter.players.bots import BOTS, RandomBot, make_bot
from cardrules.interpreter.players.knowledge import (
    determinize,
    determinize_with_map,
    nothing_hidden,
    possible_locations,
    translate,
    unknown_positions,
)
from cardrules.interpreter.players.repetition import Memory, position
from cardrules.interpreter.players.search import GreedyBot, IsmctsBot
from cardrules.interpreter.players.worth import rewards
from cardrules.interpreter.runtime import OWNER
from cardrules.interpreter.sessions.play import play_game
from cardrules.interpreter.state import GameState
from cardrules.interpreter.view import player_view

EMPTY = -1
KNOWLEDGE_RULESETS = ["golf6", "czech-golf", "geohash", "grandma"]
ALL_RULESETS = ["golf6", "czech-golf", "geohash", "precognition", "grandma"]


@functools.cache
def engine_for(name: str) -> Engine:
    return Engine(load_ruleset(name))


def random_position(engine: Engine, seed: int, max_actions: int) -> GameState:
    """A game advanced by random play for a random number of actions (maybe to its end)."""
    rng = random.Random(seed)
    state = engine.new_game(seed=seed)
    legal = engine.legal_actions(state)
    for _ in range(rng.randint(0, max_actions)):
        if not legal:
            break
        action = legal[rng.randrange(len(legal))]
        if domains.is_open(action):
            action = domains.fill(action, rng)
        legal = engine.play(state, action)
    return state


def positions(state: GameState) -> dict[tuple[int, int], int]:
    return {(z, i): c for z, cards in enumerate(state.zones) for i, c in enumerate(cards)
            if c != EMPTY}


# ------------------------------------------------------------------ knowledge
@pytest.mark.parametrize("name", KNOWLEDGE_RULESETS)
def test_possible_locations_hold_the_truth(name: str) -> None:
    engine = engine_for(name)
    narrowed = 0
    for seed in range(40):
        state = random_position(engine, seed, 60)
        for seat in range(state.n):
            where = possible_locations(state, seat)
            assert set(where) == set(range(state.n_cards))
            for card, zones in where.items():
                assert state.where[card] in zones
                if state.known[card] >> seat & 1:
                    assert zones == {state.where[card]}
                    narrowed += 1
    assert narrowed > 0  # some cards are known somewhere: the property is not vacuous


@pytest.mark.parametrize("name", KNOWLEDGE_RULESETS)
def test_determinization_agrees_with_what_the_seat_knows(name: str) -> None:
    engine = engine_for(name)
    changed = 0
    for seed in range(40):
        state = random_position(engine, seed, 60)
        before = state.to_json()
        for seat in range(state.n):
            det, mapping = determinize_with_map(engine, state, seat, random.Random(seed * 7 + seat))
            truth, sample = positions(state), positions(det)
            # The same places hold cards; every card lies in exactly one place.
            assert truth.keys() == sample.keys()
            assert sorted(sample.values()) == list(range(state.n_cards))
            assert all(len(z) == len(t) for z, t in zip(det.zones, state.zones))
            for (z, _i), c in sample.items():
                assert det.where[c] == z
            hidden = set(unknown_positions(state, seat))
            # another's hand: the seat does not see its order, which the sample does not keep
            board = engine.rules.board
            held = {z for z in range(len(state.zones))
                    if board.visibility[z] == OWNER and board.owner[z] != seat}
            for z in held:
                was, now = state.zones[z], det.zones[z]
                assert [i for i, c in enumerate(was) if c == EMPTY] == \
                    [i for i, c in enumerate(now) if c == EMPTY]
                mine = sorted(c for c in was if c != EMPTY and state.known[c] >> seat & 1)
                assert mine == sorted(c for c in now if c != EMPTY and det.known[c] >> seat & 1)
                assert sorted(state.face_up[c] for c in was if c != EMPTY) == \
                    sorted(det.face_up[c] for c in now if c != EMPTY)
                for c in was:
                    if c != EMPTY and not state.known[c] >> seat & 1:
                        assert det.where[mapping[c]] == z and mapping[c] not in mine
            for place, card in truth.items():
                new = sample[place]
                if place[0] in held:
                    continue  # (checked above, as a whole)
                if state.known[card] >> seat & 1:
                    assert new == card  # what the seat knows stays exactly where it is
                    assert det.known[card] == state.known[card]
                else:
                    assert place in hidden
                    assert not state.known[new] >> seat & 1  # only unknown cards move in
                    assert not det.known[new] >> seat & 1
                    assert det.face_up[new] == state.face_up[card]
                    assert mapping[card] == new
                    changed += new != card
        assert state.to_json() == before  # the real game is untouched
    assert changed > 0  # hidden cards really are re-dealt


def swap_cards(state: GameState, a: int, b: int) -> GameState:
    """A twin of the state with cards a and b exchanged in place (with what each place
    carries: face up or not, who knows the card)."""
    twin = state.copy()
    za, zb = state.where[a], state.where[b]
    ia, ib = state.zones[za].index(a), state.zones[zb].index(b)
    twin.zones[za][ia], twin.zones[zb][ib] = b, a
    twin.where[a], twin.where[b] = zb, za
    twin.known[a], twin.known[b] = state.known[b], state.known[a]
    twin.face_up[a], twin.face_up[b] = state.face_up[b], state.face_up[a]
    return twin


def two_unknown(state: GameState, seat: int) -> tuple[int, int] | None:
    cards = [state.zones[z][i] for z, i in unknown_positions(state, seat)]
    return (cards[0], cards[-1]) if len(cards) >= 2 else None


@pytest.mark.parametrize("name", KNOWLEDGE_RULESETS)
def test_determinization_does_not_depend_on_hidden_truth(name: str) -> None:
    engine = engine_for(name)
    tried = 0
    for seed in range(20):
        state = random_position(engine, seed, 40)
        seat = seed % state.n
        pair = two_unknown(state, seat)
        if pair is None:
            continue
        twin = swap_cards(state, *pair)
        one = determinize(engine, state, seat, random.Random(seed))
        two = determinize(engine, twin, seat, random.Random(seed))
        assert one.zones == two.zones
        assert one.rng.getstate() == two.rng.getstate()
        assert one.rng.getstate() != state.rng.getstate()  # future draws are not foreseen
        # ... nor the true deal: the game's seed would deal it again (new_game)
        assert one.seed == two.seed != state.seed
        tried += 1
    assert tried > 10


def test_secret_variables_of_others_are_not_read() -> None:
    engine = engine_for("precognition")
    state = engine.new_game(seed=3)
    legal = engine.legal_actions(state)
    rng = random.Random(1)
    while state.phase == 0:
        legal = engine.play(state, domains.fill(legal[0], rng))
    assert len(set(state.pvars["prediction"])) > 1
    det = determinize(engine, state, 1, random.Random(0))
    assert det.pvars["prediction"] == [state.pvars["prediction"][1]] * state.n


# ------------------------------------------------------------------ bots play legally
class Checked:
    """Wraps a bot: asserts every choice is legal and records them."""

    def __init__(self, bot: object) -> None:
        self.bot = bot
        self.choices: list[tuple] = []

    def choose(self, engine: Engine, state: GameState, legal: list) -> tuple:
        snapshot = state.to_json()
        action = self.bot.choose(engine, state, legal)  # type: ignore[attr-defined]
        assert state.to_json() == snapshot, "a bot changed the real game"
        if action not in legal or domains.is_open(action):
            templates = [t for t in legal if domains.is_open(t)]
            assert any(domains.matches(t, action) is None for t in templates), action
        self.choices.append(action)
        return action


def play_some(name: str, kinds: list[str], seed: int, max_decisions: int,
              iterations: int = 8) -> list[list[tuple]]:
    engine = engine_for(name)
    state = engine.new_game(seed=seed)
    bots = []
    for seat in range(state.n):
        bot = make_bot(kinds[seat % len(kinds)], seed, seat)
        if isinstance(bot, IsmctsBot):
            bot.iterations = iterations
            bot.max_actions = 40
        bots.append(Checked(bot))
    legal = engine.legal_actions(state)
    for _ in range(max_decisions):
        if not legal:
            break
        seat = engine.to_move(state)
        assert seat is not None
        legal = engine.play(state, bots[seat].choose(engine, state, legal))
    return [b.choices for b in bots]


@pytest.mark.parametrize("name", ALL_RULESETS)
def test_bots_choose_only_legal_actions(name: str) -> None:
    for seed in range(3):
        choices = play_some(name, ["ismcts", "greedy", "random"], seed, max_decisions=45)
        assert sum(map(len, choices)) > 0


@pytest.mark.parametrize("name", ["czech-golf", "precognition", "golf6"])
def test_same_seed_same_choices(name: str) -> None:
    first = play_some(name, ["ismcts", "greedy"], 5, max_decisions=40)
    again = play_some(name, ["ismcts", "greedy"], 5, max_decisions=40)
    assert first == again
    other = play_some(name, ["ismcts", "greedy"], 6, max_decisions=40)
    assert other != first


def test_the_default_budget_is_deterministic() -> None:
    # No number after the kind: ismcts spends a budget of work, not of seconds, so the same
    # seed still makes the same choices (here on a ruleset where a decision is quick).
    engine = engine_for("czech-golf")
    runs = []
    for _ in range(2):
        state = engine.new_game(2, 11)
        bots = [make_bot("ismcts", 11, 0), make_bot("greedy", 11, 1)]
        legal = engine.legal_actions(state)
        choices = []
        for _ in range(12):
            if not legal:
                break
            seat = engine.to_move(state)
            assert seat is not None
            choices.append(bots[seat].choose(engine, state, legal))
            legal = engine.play(state, choices[-1])
        runs.append(choices)
    assert runs[0] == runs[1] and len(runs[0]) >= 8


def test_registered_and_seeded_like_random() -> None:
    assert BOTS["greedy"] is GreedyBot and BOTS["ismcts"] is IsmctsBot
    for kind in ("greedy", "ismcts"):
        bot = make_bot(kind, 4, 1)
        same = make_bot(kind, 4, 1)
        assert bot.rng.random() == same.rng.random()  # type: ignore[attr-defined]
        assert make_bot(kind, 4, 2).rng.random() != make_bot(kind, 4, 1).rng.random()  # type: ignore[attr-defined]
    assert isinstance(make_bot("random", 4, 1), RandomBot)


def test_single_legal_action_is_returned_at_once() -> None:
    engine = engine_for("golf6")
    state = engine.new_game(seed=1)
    only = [engine.legal_actions(state)[0]]
    bot = IsmctsBot(0, iterations=10_000_000)
    assert bot.choose(engine, state, only) is only[0]


def test_ismcts_does_not_see_hidden_cards() -> None:
    """Two games that differ only in where two cards the seat does not know lie give the
    same choice (up to naming those two cards)."""
    tried = 0
    for name in ("golf6", "czech-golf", "grandma"):
        engine = engine_for(name)
        for seed in range(6):
            state = random_position(engine, seed, 30)
            if state.over:
                continue
            seat = engine.to_move(state)
            pair = two_unknown(state, seat)
            if pair is None:
                continue
            a, b = pair
            twin = swap_cards(state, a, b)
            one = IsmctsBot(seed, iterations=25, max_actions=30).choose(
                engine, state, engine.legal_actions(state))
            two = IsmctsBot(seed, iterations=25, max_actions=30).choose(
                engine, twin, engine.legal_actions(twin))
            rename = {a: b, b: a}
            assert tuple(rename.get(x, x) if isinstance(x, int) else x for x in two) == one
            tried += 1
    assert tried >= 6


def test_rewards_are_in_range_and_favour_the_winner() -> None:
    engine = engine_for("czech-golf")
    finished = 0
    for seed in range(10):
        state = random_position(engine, seed, 200)
        r = rewards(engine, state)
        assert all(0.0 <= x <= 1.0 for x in r)
        if state.over:
            finished += 1
            losers = [r[p] for p in range(state.n) if p not in state.winners]
            assert all(r[w] > max(losers, default=-1.0) for w in state.winners)
    assert finished > 0


def duel(name: str, make: object, games: int) -> int:
    """Seat 1's wins with the bot `make(seed)` against random seats."""
    engine = engine_for(name)
    wins = 0
    for seed in range(games):
        state = engine.new_game(seed=1000 + seed)
        bots = [make(seed)] + [RandomBot(seed * 10 + p) for p in range(1, state.n)]  # type: ignore[operator]
        legal = engine.legal_actions(state)
        while legal:
            legal = engine.play(state, bots[engine.to_move(state)].choose(engine, state, legal))
        wins += 0 in state.winners
    return wins


def test_greedy_beats_random_at_golf6() -> None:
    # Four seats: a random seat 1 wins about a quarter of the games.
    assert duel("golf6", lambda seed: GreedyBot(seed, samples=2), 8) >= 6


def test_ismcts_beats_random_at_precognition() -> None:
    # Three seats: a random seat 1 wins about half of the games (ties count).
    assert duel("precognition", lambda seed: IsmctsBot(seed, iterations=20), 12) >= 9


def test_a_seat_kind_may_carry_a_budget() -> None:
    from cardrules.errors import GameError
    from cardrules.interpreter.players.bots import make_bot

    bot = make_bot("ismcts:25", 7, 0)
    assert bot.iterations == 25  # type: ignore[attr-defined]
    assert make_bot("greedy:3", 7, 1).samples == 3  # type: ignore[attr-defined]
    timed = make_bot("ismcts:0.25s", 7, 0)
    assert timed.seconds == 0.25 and timed.iterations is None  # type: ignore[attr-defined]
    default = make_bot("ismcts", 7, 0)
    assert default.seconds is None and default.iterations is None  # type: ignore[attr-defined]
    for bad in ("random:3", "ismcts:0", "ismcts:x", "ismcts:0s", "ismcts:-1s", "greedy:1s",
                "ismcts:s", "random:1s", "ismcts:\u00b2"):
        with pytest.raises(GameError):
            make_bot(bad, 7, 0)


def test_bots_value_a_position_by_the_rulesets_evaluation() -> None:
    from cardrules.interpreter.players.worth import seat_values

    engine = Engine(load_ruleset("golf6"))
    state = engine.new_game(2, 5)
    assert engine.rules.evaluate is not None
    expected = [-(state.totals[p] + engine.rules.evaluate(state, p)) for p in range(2)]
    assert seat_values(engine, state) == expected
    # at the start every card is face down: six average cards of 5 points
    assert engine.rules.evaluate(state, 0) == 30


# ------------------------------------------------------------ playing sensibly
def geohash_window(seed: int) -> tuple[Engine, GameState, int]:
    """A geohash game at its first reaction window, and the seat deciding there."""
    engine = engine_for("geohash")
    state = engine.new_game(4, seed)
    engine.apply(state, next(a for a in engine.legal_actions(state) if a[0] == "ask"))
    assert state.window
    return engine, state, state.window[0]


def hidden_cards(engine: Engine, state: GameState) -> list[int]:
    return list(state.zones[engine.rules.zone("hidden").index])


@pytest.mark.parametrize("seed", range(4))
def test_greedy_names_the_hidden_cards_when_it_knows_them(seed: int) -> None:
    engine, state, seat = geohash_window(seed)
    hidden = hidden_cards(engine, state)
    for c in hidden:
        state.known[c] |= 1 << seat  # as if it had worked them out
    state.version += 1  # knowledge changed: the legal actions are listed afresh
    state.legal_cache = None
    action = GreedyBot(seed).choose(engine, state, engine.legal_actions(state))
    assert action[0] == "accuse"
    engine.apply(state, action)
    assert state.over and state.winners == [seat]


@pytest.mark.parametrize("seed", range(4))
def test_greedy_does_not_accuse_on_a_hunch(seed: int) -> None:
    # The seat knows every card but the hidden two and one more: three cards, three equally
    # likely pairs. A guess would be right one time in three: it passes.
    engine, state, seat = geohash_window(seed)
    hidden = hidden_cards(engine, state)
    other = next(c for c in range(state.n_cards) if c not in hidden
                 and state.where[c] != engine.rules.zone("hand").zone_of(seat))
    for c in range(state.n_cards):
        if c not in hidden and c != other:
            state.known[c] |= 1 << seat
        else:
            state.known[c] &= ~(1 << seat)
    state.version += 1
    state.legal_cache = None
    for k in range(3):
        action = GreedyBot(seed * 10 + k).choose(engine, state, engine.legal_actions(state))
        assert action == ("pass",)


def test_greedy_lays_off_when_it_can_in_grandma() -> None:
    # Over random positions of grandma where the greedy seat may lay off, it does nearly
    # always (a lay-off sheds a card and the turn goes on); a random seat does not.
    engine = engine_for("grandma")
    offered = taken = 0
    for seed in range(40):
        state = engine.new_game(3, seed)
        bots = [RandomBot(seed * 3 + p) for p in range(3)]
        legal = engine.legal_actions(state)
        while legal and offered < 30:
            seat = engine.to_move(state)
            assert seat is not None
            if any(a[0] == "lay_off" for a in legal):
                offered += 1
                taken += GreedyBot(seed, samples=2).choose(engine, state, legal)[0] == "lay_off"
            legal = engine.play(state, bots[seat].choose(engine, state, legal))
        if offered >= 30:
            break
    assert offered >= 30
    assert taken >= 0.9 * offered


def test_greedy_follows_through_to_the_end_of_its_turn() -> None:
    # golf6: taking a card is worth what the best use of it is worth, later in the same
    # turn. Greedy values "take the discard" by the best swap or discard that follows.
    engine = engine_for("golf6")
    for seed in range(5):
        state = engine.new_game(2, seed)
        legal = engine.legal_actions(state)
        while any(a[0] == "reveal" for a in legal):
            legal = engine.play(state, legal[0])
        seat = state.current
        bot = GreedyBot(seed)
        identity = {c: c for c in range(state.n_cards)}
        own = {a: a for a in legal}
        value, decisive, won = bot._try(engine, state, own, ("take_discard",), identity, seat)
        after = state.copy()
        follow_ups = engine.play(after, ("take_discard",))
        assert follow_ups and engine.to_move(after) == seat
        best = max(GreedyBot._value(engine, step_to(engine, after, a), seat)
                   for a in follow_ups)
        assert value == best and not decisive and not won
        assert value > GreedyBot._value(engine, after, seat) - 1e-9


def step_to(engine: Engine, state: GameState, action: tuple[object, ...]) -> GameState:
    out = state.copy()
    engine.play(out, action)
    return out


# ------------------------------------------------------- small constructed games
TWO_STEPS = """\
cardrules: 1
name: two-steps
players: {min: 2, max: 2, default: 2}
deck: {ranks: [A, "2", "3", "4", "5", "6", "7", "8"], suits: [clubs], zone: stock}
zones:
  - {name: stock, visibility: hidden, layout: stack}
  - {name: hidden, visibility: hidden, layout: stack}
variables:
  - {name: pts, scope: player, initial: 0}
round:
  setup: [shuffle stock, move top(stock) to hidden]
  phases:
    - name: p
      turns: rotate
      steps:
        - name: first
          moves:
            - {name: prepare, do: []}
            - {name: rest, do: ["end turn"]}
            - {name: stop, when: "turns > 6", do: ["end round"]}
        - name: second
          moves:
            - {name: gain, do: ["set me.pts = me.pts + 5"]}
            - {name: lose, do: ["set me.pts = me.pts - 5"]}
            - name: guess
              choose: {r: "ranks()"}
              do:
                - if: "top(hidden).rank == r"
                  then: ["win me"]
                  else: ["eliminate me"]
REACTIONS
scoring:
  winner: highest
  round:
    - {name: pts, score: "p.pts"}
"""
NEVER = """\
reactions:
  moves:
    - {name: object, when: "turns < 0", do: []}
"""


def constructed(tmp_path: Path, text: str) -> Engine:
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    return Engine(load_ruleset(path))


@pytest.mark.parametrize("reactions", ["", NEVER], ids=["plain", "with-reactions"])
def test_greedy_values_a_step_by_what_follows_it(tmp_path: Path, reactions: str) -> None:
    # "prepare" changes nothing by itself but allows "gain" next: greedy prepares. A
    # reaction nobody can make (a window that closes at once) must not stop that.
    engine = constructed(tmp_path, TWO_STEPS.replace("REACTIONS", reactions))
    for seed in range(5):
        state = engine.new_game(2, seed)
        assert GreedyBot(seed).choose(engine, state, engine.legal_actions(state)) == ("prepare",)


def test_following_through_is_no_way_round_the_sure_rule(tmp_path: Path) -> None:
    # After "prepare", a guess at the hidden card wins in the sample where it is right; the
    # follow-through must not count on that guess (the seat cannot know it), so "prepare"
    # is worth its "gain", and at the second step the bot gains rather than guesses.
    engine = constructed(tmp_path, TWO_STEPS.replace("REACTIONS", "").replace(
        "set me.pts = me.pts + 5", "set me.pts = me.pts - 1"))
    for seed in range(5):
        state = engine.new_game(2, seed)
        assert GreedyBot(seed).choose(engine, state, engine.legal_actions(state)) == ("rest",)
        engine.apply(state, ("prepare",))
        action = GreedyBot(seed).choose(engine, state, engine.legal_actions(state))
        assert action == ("gain",)


LIST_CHOICE = """\
cardrules: 1
name: list-choice
players: {min: 2, max: 2, default: 2}
deck: {ranks: [A, "2"], suits: [clubs], zone: stock}
zones:
  - {name: stock, visibility: hidden, layout: stack}
variables:
  - {name: pts, scope: player, initial: 0}
round:
  phases:
    - name: p
      turns: each_once
      steps:
        - name: s
          moves:
            - name: pick
              choose: {ns: "[numbers(1, 2), numbers(3, 4), numbers(0, 0)]"}
              do: ["set me.pts = sum(n for n in ns)"]
scoring:
  winner: highest
  round:
    - {name: pts, score: "p.pts"}
"""


def test_ismcts_searches_moves_whose_parameter_is_a_list_of_numbers(tmp_path: Path) -> None:
    engine = constructed(tmp_path, LIST_CHOICE)
    state = engine.new_game(2, 1)
    legal = engine.legal_actions(state)
    for seed in range(3):  # (a list chosen is held as a tuple)
        assert IsmctsBot(seed, iterations=40).choose(engine, state, legal) == ("pick", (3, 4))


@pytest.mark.parametrize("bot", [GreedyBot(1), IsmctsBot(1, iterations=30)],
                         ids=["greedy", "ismcts"])
@pytest.mark.parametrize("name", ["golf6", "geohash"])
def test_a_search_tells_no_watcher_and_logs_nothing(bot: object, name: str) -> None:
    """The samples a search plays are not the game: an engine's watchers hear only of the
    actions the game itself applies, and the game's event log gets nothing from a search."""
    heard: list[tuple[object, ...]] = []
    rounds: list[int] = []
    engine = Engine(load_ruleset(name), watch=lambda s, seat, a: heard.append(a),
                    watch_round=lambda s: rounds.append(s.round))
    state = engine.new_game(None, 3, log=True)
    assert state.log is not None
    for _ in range(6):
        legal = engine.legal_actions(state)
        if not legal:
            break
        logged = len(state.log)
        action = bot.choose(engine, state, legal)  # type: ignore[attr-defined]
        assert heard == [] and rounds == [] and len(state.log) == logged
        engine.apply(state, action)
        assert heard == [action]
        heard.clear()
        rounds.clear()  # (a round the game itself ended)


# ---------------------------------------------------------------- repeating a position
SHUTTLE = str(Path(__file__).resolve().parent / "data" / "shuttle.yaml")


@pytest.mark.parametrize("kind", ["greedy", "ismcts:60"])
def test_search_bots_refuse_to_return_to_a_position(kind: str) -> None:
    """tests/data/shuttle.yaml: a shift and its undoing each look best in turn, so a seat
    that valued positions alone would shift one card back and forth until the game's bound
    cut it off. The seat refuses to return to a position it has seen while it has another
    move, draws, and wins; the same seed gives the same game."""
    engine = Engine(load_ruleset(SHUTTLE))
    games = [play_game(engine, seed=seed, seats=[kind]) for seed in (1, 2, 1)]
    for state in games:
        assert state.over and not state.cut_off and state.winners == [0]
    assert games[0].actions == games[2].actions


def test_a_remembered_position_names_no_card_the_seat_does_not_know() -> None:
    """Two deals that differ only in the hidden stock's order are one position to the seat,
    before and after a draw from it."""
    engine = Engine(load_ruleset(SHUTTLE))
    state = engine.new_game(seed=3)
    other = state.copy()
    stock = engine.rules.zone("stock").index
    other.zones[stock] = other.zones[stock][::-1]
    assert position(engine.rules, state, 0) == position(engine.rules, other, 0)
    draw = next(a for a in engine.legal_actions(state) if a[0] == "draw")
    assert Memory._after(engine, state, 0, draw) == Memory._after(engine, other, 0, draw)


def test_a_remembered_position_keeps_no_order_of_anothers_hand() -> None:
    """spades: seat 1 knows every card of seat 2's hand (as if shown it). Two games that
    differ only in that hand's order are one position to seat 1, whose view lists another's
    hand in the deck's order, and to the table; two to seat 2, whose own order it is.
    (A sample, which shuffles another's hand where the seat knows some of it, is then at the
    position of the game it was drawn from.)"""
    engine = engine_for("spades")
    state = engine.new_game(4, 2)
    hand = engine.rules.zone("hand").zone_of(1)
    for c in state.zones[hand]:
        state.known[c] |= 1
    other = state.copy()
    other.zones[hand].reverse()
    other.version += 1
    other.legal_cache = None
    rules = engine.rules
    assert position(rules, state, 0) == position(rules, other, 0)
    assert position(rules, state, None) == position(rules, other, None)
    assert position(rules, state, 1) != position(rules, other, 1)
    for k in range(4):
        sample = determinize(engine, state, 0, random.Random(k))
        assert position(rules, sample, 0) == position(rules, state, 0)


COIN = Path(__file__).resolve().parent / "data" / "coin.yaml"


def test_nothing_is_hidden_only_where_a_sample_would_draw_nothing_afresh(
        tmp_path: Path) -> None:
    """knowledge.nothing_hidden: freecell (every card face up) hides nothing from its seat,
    golf6 its stock. Where a seat knows every card, another's hand of two cards or more still
    hides its order (a sample shuffles it), and another's secret variable its value (a
    sample sets it to the seat's own)."""
    freecell = engine_for("freecell")
    state = freecell.new_game(seed=1)
    assert nothing_hidden(freecell.rules, state, 0)
    golf = engine_for("golf6")
    assert not any(nothing_hidden(golf.rules, golf.new_game(seed=1), seat) for seat in range(4))
    spades = engine_for("spades")
    state = spades.new_game(4, 2)
    state.known = [state.everyone] * len(state.known)
    assert not nothing_hidden(spades.rules, state, 0)
    secret = tmp_path / "coin.yaml"
    secret.write_text(COIN.read_text(encoding="utf-8") + """
variables:
  - {name: guess, scope: player, initial: 0, visibility: owner}
""", encoding="utf-8")
    for path, hidden in ((COIN, False), (secret, True)):
        engine = Engine(load_ruleset(path))
        state = engine.new_game(2, 1)
        assert not nothing_hidden(engine.rules, state, 0)  # the stock
        state.known = [state.everyone] * len(state.known)  # (one card in each hand)
        assert nothing_hidden(engine.rules, state, 0) is not hidden, path


@pytest.mark.parametrize("kind", ["greedy", "ismcts:20"])
def test_a_seat_that_knows_every_card_tries_its_moves_on_the_game_itself(
        kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """freecell: any sample of the game would be the game itself, so the memory draws none
    to try where a move would lead, and chooses as it did on a sample (the same seed plays
    the same game)."""
    from cardrules.interpreter.players import repetition

    drawn: list[int] = []
    sample = repetition.determinize_with_map

    def counted(*args: object) -> object:
        drawn.append(1)
        return sample(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(repetition, "determinize_with_map", counted)
    on_the_game = play_some("freecell", [kind], 1, 12)
    assert not drawn
    monkeypatch.setattr(repetition, "nothing_hidden", lambda *args: False)
    on_samples = play_some("freecell", [kind], 1, 12)
    assert drawn and on_samples == on_the_game


def test_where_a_move_leads_is_the_same_on_the_game_as_on_a_sample_where_nothing_is_hidden(
        ) -> None:
    """freecell, at random points: each legal move leads the seat to the same position (or
    to news alike) tried on the game itself as on a sample of it."""
    engine = engine_for("freecell")
    tried = 0
    for seed in range(10):
        state = random_position(engine, seed, 15)
        if state.over:
            continue
        assert nothing_hidden(engine.rules, state, 0)
        sample, mapping = determinize_with_map(engine, state, 0, random.Random(seed))
        for action in engine.legal_actions(state):
            assert Memory._after(engine, state, 0, action) == \
                Memory._after(engine, sample, 0, translate(engine, action, mapping))
            tried += 1
    assert tried > 20


PEEK = str(Path(__file__).resolve().parent / "data" / "peek.yaml")


def peek_games(engine: Engine, seed: int) -> tuple[GameState, GameState]:
    """A game of tests/data/peek.yaml, and a copy in which seat 2 holds a king where the
    first has it hold an ace: its card traded with a stock card of the other rank, neither
    known to seat 1 (each keeps who knew the card at its place)."""
    names = engine.rules.cards.names
    board = engine.rules.board
    stock = board.names.index("stock")
    hand = [z for z, name in enumerate(board.names) if name == "hand"][1]  # seat 2's
    games = []
    for rank in ("A", "K"):
        state = engine.new_game(2, seed)
        held = state.zones[hand][0]
        if not names[held].startswith(rank):
            other = next(c for c in state.zones[stock] if names[c].startswith(rank))
            i = state.zones[stock].index(other)
            state.zones[stock][i], state.zones[hand][0] = held, other
            state.where[held], state.where[other] = stock, hand
            state.known[held], state.known[other] = state.known[other], state.known[held]
            state.legal_cache = None
            state.version += 1
        assert not state.known[state.zones[hand][0]] & 1
        games.append(state)
    return games[0], games[1]


@pytest.mark.parametrize("kind", ["greedy", "ismcts:50"])
def test_where_a_move_would_lead_is_worked_out_on_a_sample(kind: str) -> None:
    """tests/data/peek.yaml: probing raises the prober's public counter only if the other's
    hidden card is an ace. Seat 1 (a search bot) plays two games alike but for that card,
    seat 2 always waiting: while seat 1 sees the same in both, it chooses the same. Its
    memory once tried each move on the real game to see whether it would repeat a position,
    and so, once a round of waits had brought the table back, probed where the card was an
    ace (a change) and waited where it was a king (a repeat either way)."""
    engine = Engine(load_ruleset(PEEK))
    compared = 0
    for seed in range(4):
        games = peek_games(engine, seed)
        bots = [make_bot(kind, seed, 0) for _ in games]
        while all(engine.legal_actions(s) for s in games) and \
                player_view(engine.rules, games[0], 0) == player_view(engine.rules, games[1], 0):
            if engine.to_move(games[0]) == 1:
                for state in games:
                    engine.apply(state, ("wait",))
                continue
            picks = [bot.choose(engine, s, engine.legal_actions(s)) for bot, s in zip(bots, games)]
            assert picks[0] == picks[1], (kind, seed, games[0].actions)
            compared += 1
            for state, pick in zip(games, picks):
                engine.apply(state, pick)
    assert compared >= 6  # (at least: a probe that finds the ace sets the games apart)


LAST_DRAW = str(Path(__file__).resolve().parent / "data" / "last_draw.yaml")


@pytest.mark.parametrize("kind", ["greedy", "ismcts"])
def test_a_search_follows_its_turn_into_an_automatic_step_that_ends_the_game(kind: str) -> None:
    """tests/data/last_draw.yaml: after the seat's play, listing its next decision plays an
    automatic draw that may end the game; the search then has no decision to weigh (greedy
    ended in 'a decision always has a legal action'), and every seed plays to the end."""
    engine = Engine(load_ruleset(LAST_DRAW))
    for seed in range(6):
        result = play_game(engine, 2, seed, seats=[kind, kind])
        assert result.winners


HELD = sorted((Path(__file__).resolve().parent / "data" / "held").glob("*.yaml"))


@pytest.mark.parametrize("path", HELD, ids=[p.stem for p in HELD])
def test_searches_stop_their_imagined_games_at_the_rounds_end(path: Path) -> None:
    """The search bots play their samples to the round's end and deal no further: a round
    ended by a reaction, by a turn passed before it begins, or by a move under `repetition:
    forbid` leaves the sample with nothing to play, and the sample lists what the real game
    lists. Whole games with search seats play to their end."""
    rules = load_ruleset(path)
    engine, kernel = Engine(rules), Kernel(rules)
    for seed in range(3):
        state = engine.new_game(None, seed)
        sample = kernel.adopt(state.copy(), until_round_end=True)
        assert kernel.legal_actions(sample) == engine.legal_actions(state)
        for seats in (["greedy", "ismcts:30"], ["ismcts:30", "greedy"]):
            done = play_game(engine, None, seed, seats=seats)
            assert done.over and len(done.round_scores) == 3


PLAYED_BY = """\
cardrules: 1
name: played-by
deck: {ranks: [A, "2"], suits: [clubs, hearts], zone: stock}
zones:
  - {name: stock, visibility: public}
  - {name: trick, visibility: public, layout: trick}
  - {name: won, owner: each, visibility: public}
round:
  setup:
    - shuffle stock
  phases:
    - name: play
      turns: rotate
      steps:
        - name: act
          moves:
            - name: lead
              choose: {card: stock}
              do:
                - move card to trick
            - name: take
              choose: {card: trick}
              do:
                - move card to won[me]
scoring:
  round:
    - {name: nothing, score: "0"}
  evaluate: "count(c.played_by == p for c in won[p])"
"""


def test_an_estimate_is_kept_only_by_what_it_reads(tmp_path: Path) -> None:
    """The estimates a search keeps are keyed by the seat's cards and which way up they lie:
    an estimate that reads who played a card is worked out afresh every time (two games
    with the same card in seat 2's pile, played by different seats, are valued apart), and
    every shipped estimate, kept or not, is the ruleset's `evaluate` of the game."""
    path = tmp_path / "played-by.yaml"
    path.write_text(PLAYED_BY, encoding="utf-8")
    rules = load_ruleset(path)
    assert rules.evaluate is not None and rules.evaluate_key is None
    engine = Engine(rules)
    first, second = engine.new_game(2, seed=3), engine.new_game(2, seed=3)
    card, other = first.zones[0][0], first.zones[0][1]
    for action in (("lead", card), ("take", card)):  # seat 1 plays it, seat 2 takes it
        engine.apply(first, action)
    for action in (("lead", other), ("lead", card), ("take", other), ("take", card)):
        engine.apply(second, action)  # seat 2 plays it and takes it back
    assert [engine.estimate(g, 1) for g in (first, second)] == [0, 1]
    for name in ("golf6", "golf6-family"):
        engine = Engine(load_ruleset(name))
        assert engine.rules.evaluate_key is not None
        for seed in range(3):
            state = engine.new_game(4, seed)
            legal = engine.legal_actions(state)
            rng = random.Random(seed)
            while legal:
                for p in range(state.n):
                    assert engine.estimate(state, p) == engine.rules.evaluate(state, p)
                legal = engine.play(state, rng.choice(legal))


def test_greedy_keeps_a_way_on_when_the_bold_choices_fill_its_shortlist() -> None:
    """geohash's first decision: 28 declarations 'for the win' end the game in any sample
    where they guess right, and a win weighs most, so a few right guesses filled the eight
    choices greedy keeps after its first sample, and it named two hidden cards on that hunch
    (about 1 in 500 at a real table). The best choices that do not end the game go on too, and
    a decisive one only while it wins as often as it must to be taken."""
    from cardrules.interpreter.players.hint import hint

    engine = Engine(load_ruleset("geohash"))
    for seed in range(1, 5):
        advice = hint(engine, engine.new_game(4, seed), "greedy")
        assert advice.pick[0] == "ask", (seed, advice.pick)
