"""Two leaks of hidden information, each reproduced where it happened, and the knowledge a
seat keeps instead (interpreter/sight.py).

Both came from knowing cards one at a time: a card everyone knew in a hand went out of sight,
and the others saw which one went. Each test plays the moment twice, once with the card
everyone knew and once with another, and compares what a third seat is told.
"""

from __future__ import annotations

import random
from typing import Any

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.players.knowledge import determinize
from cardrules.interpreter.state import GameState
from cardrules.interpreter.view import player_view
from cardrules.interpreter.words import tell
from cardrules.model import Action


def act(engine: Engine, state: GameState, name: str, where: Any = None) -> Action:
    """Play the first legal action of move `name` (that `where` accepts, if given)."""
    action = next(a for a in engine.legal_actions(state)
                  if a[0] == name and (where is None or where(a)))
    engine.apply(state, action)
    return action


def seen(engine: Engine, state: GameState, seat: int, owner: int) -> dict[str, Any]:
    """What `seat` sees of `owner`'s hand and field (each zone's view)."""
    zones = player_view(engine.rules, state, seat)["zones"]
    return {name: zones[name][str(owner + 1)] for name in ("hand", "field")}


# ------------------------------------------------------------------------ czech golf
def czech_golf_with_a_taken_card() -> tuple[Engine, GameState, int, int]:
    """A 2-player czech-golf game in which seat 1 took the discard pile's top card (so both
    seats know it is in seat 1's hand), then drew and chose to put a hand card into its
    field: the game, seat 1, the card it took."""
    engine = Engine(load_ruleset("czech-golf"))
    state = engine.new_game(2, 3, log=True)
    while "take_discard" not in {a[0] for a in engine.legal_actions(state)}:
        engine.apply(state, engine.legal_actions(state)[0])  # the looks at the field
    me = state.current
    taken = state.zones[engine.rules.zone("discard").index][-1]
    act(engine, state, "take_discard")
    act(engine, state, "discard", lambda a: a[1] != taken)
    act(engine, state, "draw")  # the other seat's turn
    act(engine, state, "discard")
    act(engine, state, "draw")
    act(engine, state, "to_field")
    return engine, state, me, taken


def test_a_taken_card_put_face_down_is_not_named_to_the_other_seat() -> None:
    """Putting the taken card face down into the field, or another card of the hand, reads
    the same to the other seat, and leaves it the same view: the taken card is in seat 1's
    hand or field, it cannot tell which."""
    engine, state, me, taken = czech_golf_with_a_taken_card()
    other = 1 - me
    name = engine.rules.cards.names[taken]
    assert [e["card"] for e in seen(engine, state, other, me)["hand"]["cards"]].count(name) == 1
    places = [a for a in engine.legal_actions(state) if a[0] == "place"]
    with_taken = next(a for a in places if a[1] == taken)
    with_other = next(a for a in places if a[1] != taken and a[2] == with_taken[2])
    told, after = [], []
    for action in (with_taken, with_other):
        game = state.copy()
        game.log = []
        told.append(tell(engine.words, game, me, action).seats[other])
        engine.apply(game, action)
        after.append(seen(engine, game, other, me))
        assert name not in game.log[0]["action"] and name not in game.log[0]["told"][other]
    assert told[0] == told[1] and name not in told[0]
    assert after[0] == after[1]
    assert after[0]["hand"]["maybe"] == [name] and after[0]["field"]["maybe"] == [name]
    assert all(e["card"] is None for e in after[0]["hand"]["cards"])


def test_bots_keep_the_taken_card_in_the_hand_or_the_field() -> None:
    """The other seat's samples of the hidden cards put the taken card in seat 1's hand or
    field, never anywhere else."""
    engine, state, me, taken = czech_golf_with_a_taken_card()
    act(engine, state, "place", lambda a: a[1] == taken)
    other = 1 - me
    places = {engine.rules.zone("hand").zone_of(me), engine.rules.zone("field").zone_of(me)}
    rng = random.Random(1)
    where = {determinize(engine, state, other, rng).where[taken] for _ in range(200)}
    assert where == places  # both, and nothing else


# -------------------------------------------------------------------------- geohash
def geohash_before_a_fish(seed: int) -> tuple[Engine, GameState, Action, int, int] | None:
    """A geohash game at an ask that will fish a random card from a hand holding a card
    shown to the table: the game, the ask, the hand's holder and the shown card (None if
    the game with this seed never gets there)."""
    engine = Engine(load_ruleset("geohash"))
    state = engine.new_game(4, seed, log=True)
    rng = random.Random(seed)
    for _ in range(300):
        legal = engine.legal_actions(state)
        if not legal:
            return None
        me = engine.to_move(state)
        for action in legal:
            if action[0] != "ask":
                continue
            target = action[1]
            held = state.zones[engine.rules.zone("hand").zone_of(target)]
            shown = [c for c in held if state.known[c] == state.everyone]
            rank, colour = action[2], action[3]
            cards = engine.rules.cards
            asked = any(cards.rank[c] == rank and cards.colour[c] == colour for c in held)
            if shown and not asked and len(held) > 2 and me != target:
                return engine, state, action, target, shown[0]
        pick = [a for a in legal if a[0] != "declare_two" and a[0] not in ("accuse",
                                                                          "accuse_kinds")]
        action = rng.choice(pick or legal)
        engine.apply(state, action)
    return None


def test_a_shown_card_fished_from_a_hand_is_not_told_to_the_others() -> None:
    """A card shown to the table and kept in the hand, then fished at random from it, and
    another card fished instead: the seats looking on see the same either way (the shown card
    is in the one hand or the other)."""
    found = next(filter(None, (geohash_before_a_fish(seed) for seed in range(60))))
    engine, state, ask, holder, shown = found
    me = engine.to_move(state)
    onlookers = [p for p in range(state.n) if p not in (me, holder)]
    hand = state.zones[engine.rules.zone("hand").zone_of(holder)]
    probe = state.copy()
    engine.apply(probe, ask)
    fished = next(c for c in hand if c not in probe.zones[probe.where[c]] or
                  probe.where[c] != engine.rules.zone("hand").zone_of(holder))
    games = [state.copy(), state.copy()]
    if fished != shown:  # the other game: the shown card lies where the draw falls
        cards = games[1].zones[engine.rules.zone("hand").zone_of(holder)]
        i, j = cards.index(fished), cards.index(shown)
        cards[i], cards[j] = cards[j], cards[i]
    views = []
    for game in games:
        game.log = []
        engine.apply(game, ask)
        views.append([player_view(engine.rules, game, p) for p in onlookers])
    moved = {games[0].where[shown], games[1].where[shown]}
    assert len(moved) == 2, "one game fishes the shown card, the other another card"
    assert views[0] == views[1]
    name = engine.rules.cards.names[shown]
    for view in views[0]:
        maybe = [z for part in view["zones"]["hand"].values() for z in part.get("maybe", [])]
        assert maybe.count(name) == 2  # in the holder's hand, or the fisher's
