"""rulesets/scopa.yaml: what a card may take, the scopa, and laying a card that cannot take,
from stated deals."""

from __future__ import annotations

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.deal import parse_deal_data
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.state import GameState


def dealt(table: list[str], hands: list[list[str]], **options: str) -> tuple[Engine, GameState]:
    """A two-player game whose first deal puts these cards on the table and in the hands."""
    engine = Engine(load_ruleset("rulesets/scopa.yaml", options or None))
    zones = {"table": table} | {f"hand[{seat + 1}]": hand for seat, hand in enumerate(hands)}
    deal = parse_deal_data({"zones": zones}, engine.rules, len(hands))
    return engine, engine.new_game(len(hands), 1, deal=deal)


def take(card: str, *cards: str) -> tuple[str, ...]:
    return ("take", card, *sorted(cards))


def cards_in(engine: Engine, state: GameState, zone: str) -> set[str]:
    return {engine.rules.cards.names[c]
            for c in state.zones[engine.rules.zone(zone).zone_of(0)] if c >= 0}


def ways(engine: Engine, state: GameState) -> set[tuple[str, ...]]:
    """Every way the seat to move can play: ("lay", card), or ("take", card, the table cards
    it takes, in order of their names), following each take through its picks on a copy."""
    names = engine.rules.cards.names
    out: set[tuple[str, ...]] = set()
    table = cards_in(engine, state, "table")
    for action in engine.legal_actions(state):
        if action[0] == "lay":
            out.add(("lay", names[action[1]]))
            continue
        stack = [(state.copy(), action)]
        while stack:
            game, move = stack.pop()
            engine.apply(game, move)
            legal = engine.legal_actions(game)   # a pick that is the only one is played alone
            if not cards_in(engine, game, "playing"):
                out.add(take(names[action[1]], *(table - cards_in(engine, game, "table"))))
                continue
            stack.extend((game.copy(), m) for m in legal)
    return out


def play(engine: Engine, state: GameState, way: tuple[str, ...]) -> None:
    """Play a way as `ways` gives it: the card, then its picks (the last may play alone)."""
    ids = {name: c for c, name in enumerate(engine.rules.cards.names)}
    engine.apply(state, (way[0], ids[way[1]]))
    for t in way[2:]:
        if ("pick", ids[t]) in engine.legal_actions(state):
            engine.apply(state, ("pick", ids[t]))


def test_a_card_of_equal_rank_must_be_taken_before_a_sum() -> None:
    # KC could take 2C 3D 5S (10), but the KH lies there: it must take that
    engine, state = dealt(["5S", "2C", "3D", "KH"], [["5H", "KC", "AS"], ["4C", "6C", "7C"]])
    assert engine.to_move(state) == 0
    assert ways(engine, state) == {take("5H", "5S"), take("KC", "KH"), ("lay", "AS")}


def test_a_card_that_can_take_must_take_a_card_or_a_sum() -> None:
    engine, state = dealt(["AC", "2C", "3D", "4S"], [["5H", "JH", "KS"], ["6C", "6D", "7C"]])
    assert ways(engine, state) == {
        take("5H", "2C", "3D"), take("5H", "AC", "4S"),    # 5 = 2 + 3 = 1 + 4
        take("JH", "AC", "3D", "4S"),                      # 8 = 1 + 3 + 4
        take("KS", "AC", "2C", "3D", "4S"),                # 10: the whole table
    }


def test_a_card_that_cannot_take_is_laid_on_the_table() -> None:
    engine, state = dealt(["KC", "QD", "JS", "AD"], [["5H", "6H", "7H"], ["6C", "6D", "2C"]])
    assert ways(engine, state) == {("lay", "5H"), ("lay", "6H"), ("lay", "7H")}
    play(engine, state, ("lay", "6H"))
    assert ways(engine, state) == {take("6C", "6H"), take("6D", "6H"), ("lay", "2C")}


def test_taking_the_whole_table_is_a_scopa() -> None:
    engine, state = dealt(["AC", "2C", "3D", "4S"], [["QH", "5C", "KS"], ["6C", "6D", "7C"]])
    play(engine, state, take("KS", "AC", "2C", "3D", "4S"))
    assert state.pvars["sweeps"][0] == 1 and engine.to_move(state) == 1
    play(engine, state, ("lay", "6C"))
    assert state.pvars["sweeps"] == [1, 0]
