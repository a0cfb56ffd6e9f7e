"""rulesets/hanabi.yaml: hands seen by everyone but their holder, clues kept by place, the
last round once the stock is spent, and one score for the table.

What the generic tests check of every ruleset (tests/test_information.py, test_rulesets.py,
test_kernel.py) holds here too; these check what is Hanabi's own, and the two constructs it
brought: `visibility: others` and `tell`.
"""

from __future__ import annotations

import random

import numpy as np

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.players import hint as hints
from cardrules.interpreter.players.knowledge import determinize
from cardrules.interpreter.sight import possible
from cardrules.interpreter.state import GameState
from cardrules.interpreter.view import player_view
from cardrules.interpreter.words import tell
from cardrules.model import Action

ENGINE = Engine(load_ruleset("hanabi"))
RULES = ENGINE.rules
NAMES = RULES.cards.names


def hand(state: GameState, seat: int) -> list[int]:
    return state.zones[RULES.zone("hand").zone_of(seat)]


def clue(state: GameState, kind: str, to: int) -> Action:
    """The first clue of `kind` (tell_colour, tell_number) to seat `to` that may be given."""
    return next(a for a in ENGINE.legal_actions(state) if a[0] == kind and a[1] == to)


def test_the_deck_is_fifty_cards_and_the_hands_are_five_or_four() -> None:
    for players, size in ((2, 5), (3, 5), (4, 4), (5, 4)):
        state = ENGINE.new_game(players, players)
        in_play = [c for c in range(state.n_cards) if state.where[c] != RULES.zone("unused").index]
        assert len(in_play) == 50
        counts = {name: sum(NAMES[c] == name for c in in_play) for name in set(NAMES)}
        assert {counts[f"{rank}R"] for rank in "12345"} <= {1, 2, 3}
        assert [counts[f"{rank}W"] for rank in "12345"] == [3, 2, 2, 2, 1]
        assert all(len(hand(state, p)) == size for p in range(players))


def test_a_seat_sees_every_hand_but_its_own() -> None:
    state = ENGINE.new_game(3, 1, log=True)
    for seat in range(3):
        hands = player_view(RULES, state, seat)["zones"]["hand"]
        for owner in range(3):
            shown = [entry["card"] for entry in hands[str(owner + 1)]["cards"]]
            if owner == seat:
                assert shown == [None] * 5
            else:
                assert shown == [NAMES[c] for c in hand(state, owner)]
    # a card drawn is seen at once by the others, not by its holder
    play = next(a for a in ENGINE.legal_actions(state) if a[0] == "discard") \
        if any(a[0] == "discard" for a in ENGINE.legal_actions(state)) \
        else next(a for a in ENGINE.legal_actions(state) if a[0] == "play")
    ENGINE.apply(state, play)
    drawn = hand(state, 0)[-1]
    assert state.known[drawn] & 0b111 == 0b110
    words = tell(ENGINE.words, state, 1, clue(state, "tell_colour", 0)).seats
    assert words[0].startswith("seat 2 tells you which cards are")
    assert words[0].endswith("of your hand")


def test_a_clue_is_heard_by_all_kept_by_place_and_dropped_when_the_card_moves() -> None:
    state = ENGINE.new_game(3, 2, log=True)
    action = clue(state, "tell_colour", 1)
    colour = RULES.cards.suit_names[action[2]]
    told = tell(ENGINE.words, state, 0, action)
    cards = list(hand(state, 1))
    matched = [i + 1 for i, c in enumerate(cards) if RULES.cards.suit[c] == action[2]]
    places = " and ".join(str(i) for i in matched) if len(matched) < 3 else \
        ", ".join(str(i) for i in matched[:-1]) + f" and {matched[-1]}"
    noun = "card" if len(matched) == 1 else "cards"
    assert told.seats[1] == f"seat 1 tells you which cards are {colour} - {noun} " \
                            f"{places} of your hand"
    assert told.seats[2].endswith(f"{noun} {places} of seat 2's hand")
    ENGINE.apply(state, action)
    assert state.vars["clues"] == 7
    for c in cards:
        faces = {NAMES[f] for f in possible(RULES.board, state, c)}
        assert NAMES[c] in faces
        assert all((f[-1] == colour[0].upper()) == (c in [cards[i - 1] for i in matched])
                   for f in faces)
    views = [player_view(RULES, state, seat)["zones"]["hand"]["2"]["cards"] for seat in range(3)]
    assert [e["told"] for e in views[0]] == [e["told"] for e in views[1]] \
        == [colour if i + 1 in matched else f"not {colour}" for i in range(len(cards))]
    assert all(e["card"] is None for e in views[1])
    event = next(e for e in state.log or [] if e.get("effect") == "tell")
    assert event["yes"] == matched and event["seat"] == 2
    # seat 2 plays its first card: what was told of it goes; of the others, it stays
    ENGINE.apply(state, ("play", cards[0]))
    assert cards[0] not in state.told and all(c in state.told for c in hand(state, 1)[:4])
    assert GameState.from_json(state.to_json()).told == state.told


def test_no_sampled_world_contradicts_a_clue() -> None:
    rng = random.Random(3)
    state = ENGINE.new_game(3, 3)
    for kind, to in (("tell_colour", 0), ("tell_number", 0), ("tell_colour", 0)):
        while ENGINE.to_move(state) == to:
            ENGINE.apply(state, clue(state, kind, (to + 1) % 3))
        ENGINE.apply(state, clue(state, kind, to))
    assert all(c in state.told for c in hand(state, 0))
    for _ in range(200):
        sample = determinize(ENGINE, state, 0, rng)
        for c in hand(sample, 0):
            assert sample.told[c] >> RULES.board.face[c] & 1, NAMES[c]
        assert sorted(sum(sample.zones, [])) == sorted(sum(state.zones, []))


def test_two_hands_that_differ_only_where_the_clues_allow_look_the_same() -> None:
    state = ENGINE.new_game(2, 4)
    ENGINE.apply(state, clue(state, "tell_number", 1))
    cards = list(hand(state, 1))
    pairs = [(x, y) for x in cards for y in cards if x < y and NAMES[x] != NAMES[y]
             and state.told[x] >> RULES.board.face[y] & 1
             and state.told[y] >> RULES.board.face[x] & 1]
    assert pairs
    x, y = pairs[0]
    other = state.copy()
    zone = other.zones[other.where[x]]
    i, j = zone.index(x), zone.index(y)
    zone[i], zone[j] = y, x
    other.told = {({x: y, y: x}.get(c, c)): mask for c, mask in state.told.items()}
    other.known[x], other.known[y] = state.known[y], state.known[x]
    assert player_view(RULES, state, 1) == player_view(RULES, other, 1)
    assert player_view(RULES, state, 0) != player_view(RULES, other, 0)  # seat 1 sees them


def test_the_last_round_gives_every_player_one_more_turn() -> None:
    for players in (2, 3, 5):
        state = ENGINE.new_game(players, players)
        stock = RULES.zone("stock").index
        drew_last = None
        turns_after = 0
        while not state.over:
            legal = ENGINE.legal_actions(state)
            safe = [a for a in legal if a[0] == "discard"] or [a for a in legal
                                                               if a[0].startswith("tell")]
            before = len(state.zones[stock])
            ENGINE.apply(state, safe[0])
            if drew_last is not None:
                turns_after += 1
            elif before == 1 and not state.zones[stock]:
                drew_last = True
        assert turns_after == players
        assert state.totals == [0] * players and state.winners == []


def test_the_last_fuse_scores_by_the_option() -> None:
    for option, scored in (("zero", False), ("fireworks", True)):
        engine = Engine(load_ruleset("hanabi", {"fuse_out": option}))
        for seed in range(40):
            state = engine.new_game(2, seed)
            while not state.over:
                legal = engine.legal_actions(state)
                engine.apply(state, next(a for a in legal if a[0] == "play"))
            built = sum(len(state.zones[z]) for z in engine.rules.zone("firework").instances(0))
            if state.vars["fuses"] == 0 and built:
                assert state.totals == [built if scored else 0] * 2
                break
        else:
            raise AssertionError("no game lost its fuses with a firework begun")


def test_the_adapters_observe_what_the_clues_told() -> None:
    from cardrules.adapters.match import Match
    from cardrules.adapters.observe import TensorPlan, tensor_of
    from cardrules.adapters.table import Table

    table = Table("rulesets/hanabi.yaml", (), 3)
    match = Match(table)
    match.state = ENGINE.new_game(3, 5)
    plan = TensorPlan.of(table, False)
    before = plan.views(tensor_of(plan, match, 0).copy())["told"]
    assert not before.any()
    ENGINE.apply(match.state, clue(match.state, "tell_colour", 1))
    told = [plan.views(tensor_of(plan, match, seat).copy())["told"] for seat in range(3)]
    assert told[0].any() and np.array_equal(told[0], told[1]) and np.array_equal(told[1],
                                                                                 told[2])
    rows = told[0].sum(axis=1)
    assert set(rows[rows > 0].tolist()) <= {5.0, 20.0}  # a colour, or the other four


def test_a_hint_speaks_of_the_shared_score_not_of_another_seat() -> None:
    """The table shares one score: a greedy hint values each choice by it, and names no
    other seat to beat."""
    engine = Engine(load_ruleset("hanabi"))
    advice = hints.hint(engine, engine.new_game(2, 1))
    assert advice.estimates and all(e.words.startswith("a shared score of ")
                                    for e in advice.estimates), advice
    assert not any("other seat" in e.words for e in advice.estimates)


def test_the_news_of_a_clue_is_the_clue_not_that_nothing_came_of_it() -> None:
    """A clue asked of no card moves none, but it tells: the news is its own line (which
    cards it names), never 'nothing comes of it', which a question that moved no card
    elsewhere gets (geohash's ask of a card the other seat did not hold)."""
    from cardrules.present.news import news

    engine = Engine(load_ruleset("hanabi"))
    state = engine.new_game(3, 11, log=True)
    clue = next(a for a in engine.legal_actions(state) if a[0].startswith("tell_"))
    state.log = []
    engine.apply(state, clue)
    for seat in range(3):
        [item] = news(engine.rules, state.log, seat)
        assert item.then == () and "which cards are" in item.text, item


def test_the_news_tells_a_fuse_burnt_and_a_clue_token_spent() -> None:
    """What an action changed of the variables a seat sees is news too: a card that does not
    fit burns a fuse, a clue spends a token (each seat reads it under the action)."""
    from cardrules.interpreter.players.bots import make_bot
    from cardrules.web.game import Game
    from cardrules.web.payload import seat_news

    game = Game.new("hanabi", {}, 3, 11, None)
    bots = [make_bot("random", 11, seat) for seat in range(3)]
    told: set[str] = set()
    while not game.state.over and game.state.actions < 60:
        seat = game.to_move()
        assert seat is not None
        game.play(seat, bots[seat].choose(game.engine, game.state, game.legal()))
        told.update(line for item in seat_news(game, 0, None) for line in item["then"])
    assert {"Fuses left: 3 -> 2", "Clue tokens: 8 -> 7"} <= told, sorted(told)
