"""The house (`house:`): a party that is not a seat, holds cards, plays by rule, is scored
and can win; results, views, standings, simulate and the adapters carry it apart from the
seats."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest

from cardrules.dsl.loader import load_ruleset
from cardrules.errors import CardrulesError, RulesetError
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.sessions.simulate import Simulation, Summary, play_record
from cardrules.interpreter.state import GameState
from cardrules.interpreter.view import player_view
from cardrules.present.render import standings

ROOT = Path(__file__).resolve().parent.parent


class Ref:
    """A ruleset reference for a Summary that plays no games of its own."""

    ref = "bank"
    options: tuple[tuple[str, str], ...] = ()

# Two seats and a bank: each seat holds, the bank gets a card face up and one it keeps
# secret (an owner zone of the house); scores are fixed by options so ties can be made.
BANK = """\
cardrules: 1
name: bank
players: {{min: 2, max: 3, default: 2}}
house: {{name: Bank}}
options:
  - {{name: seat_points, default: 1, doc: A seat's points a round.}}
  - {{name: bank_points, default: 5, doc: The bank's points a round.}}
deck: {{zone: stock}}
zones:
  - {{name: stock, visibility: hidden}}
  - {{name: hand, owner: each, visibility: owner, layout: spread}}
  - {{name: shown, owner: each, visibility: public, layout: row}}
variables:
  - {{name: stake, scope: player, initial: 1}}
  - {{name: secret, scope: player, initial: 7, visibility: owner}}
round:
  setup:
    - shuffle stock
    - deal 1 from stock to each hand
    - move top(stock) to hand[house]
    - move top(stock) to shown[house] face up
    - move top(stock) to shown[house] face down
    - set house.stake = house.stake + 2
  phases:
    - name: play
      turns: each_once
      steps:
        - name: play
          moves:
            - {{name: hold, label: Hold}}
{extra}
scoring:
  winner: {winner}
  rounds: 2
  round:
    - {{name: points, score: "if p == house then bank_points else seat_points"}}
"""


def bank(tmp_path: Path, winner: str = "highest", extra: str = "",
         options: dict[str, str] | None = None):  # noqa: ANN201
    path = tmp_path / "bank.yaml"
    path.write_text(BANK.format(winner=winner, extra=extra), encoding="utf-8")
    return load_ruleset(path, options=options) if options else load_ruleset(path)


def play_out(engine: Engine, seed: int = 1, players: int | None = None) -> GameState:
    state = engine.new_game(players=players, seed=seed)
    while not state.over:
        engine.apply(state, engine.legal_actions(state)[0])
    return state


def test_house_zones_variables_and_cards_conserved(tmp_path: Path) -> None:
    rules = bank(tmp_path)
    engine = Engine(rules)
    state = engine.new_game(seed=3)
    hand, shown = rules.zone("hand"), rules.zone("shown")
    house = rules.house.index
    assert house == rules.max_players == 3 and state.house == 3
    assert len(state.zones[hand.zone_of(house)]) == 1
    assert len(state.zones[shown.zone_of(house)]) == 2
    assert state.pvars["stake"][house] == 3 and state.pvars["stake"][:2] == [1, 1]
    cards = sorted(c for z in state.zones for c in z if c >= 0)
    assert cards == list(range(state.n_cards))
    assert all(c in state.zones[state.where[c]] for c in range(state.n_cards))
    # players are the seats only; the house never moves
    assert {engine.to_move(state)} <= {0, 1}


def test_views_do_not_leak_the_house_cards(tmp_path: Path) -> None:
    rules = bank(tmp_path)
    engine = Engine(rules)
    state = engine.new_game(seed=3)
    hand, shown = rules.zone("hand"), rules.zone("shown")
    secret = state.zones[hand.zone_of(state.house)][0]
    up, down = state.zones[shown.zone_of(state.house)]
    names = rules.cards.names
    for seat in range(state.n):
        view = player_view(rules, state, seat)
        text = json.dumps(view)
        assert view["zones"]["hand"]["house"]["cards"] == [{"card": None, "up": False}]
        assert view["zones"]["shown"]["house"]["cards"] == [
            {"card": names[up], "up": True}, {"card": None, "up": False}]
        assert f'"{names[secret]}"' not in text and f'"{names[down]}"' not in text
        assert view["house"]["variables"] == {"stake": 3, "secret": None}
        assert set(view["zones"]["hand"]) == {"1", "2", "house"}
    # the public log and the textual layout of the table name them only when all may know
    logged = engine.new_game(seed=3, log=True)
    assert not any(e.get("card") in (names[secret], names[down]) for e in logged.log)


def test_the_house_scores_and_wins(tmp_path: Path) -> None:
    engine = Engine(bank(tmp_path))
    state = play_out(engine)
    results = engine.results(state)
    assert results["totals"] == [2, 2] and results["round_scores"] == [[1, 1], [1, 1]]
    assert results["winners"] == []
    assert results["house"] == {"name": "Bank", "total": 10, "round_scores": [5, 5],
                                "winner": True}
    text = "\n".join(standings(results, "highest"))
    assert re.search(r"Bank\s+10\s+5\s+5", text) and text.endswith("Winner: Bank")
    view = player_view(engine.rules, state, 0)
    assert view["winners"] == [] and view["house"]["winner"] is True
    assert view["house"]["variables"]["secret"] == 7  # shown once the game is over


def test_a_seat_beats_the_house(tmp_path: Path) -> None:
    engine = Engine(bank(tmp_path, winner="lowest"))
    results = engine.results(play_out(engine))
    assert results["winners"] == [1, 2] and results["house"]["winner"] is False
    assert "Tied winners: seat 1, seat 2" in "\n".join(standings(results, "lowest"))


def test_a_tie_between_the_house_and_seats_is_shared(tmp_path: Path) -> None:
    rules = bank(tmp_path, options={"seat_points": "5"})
    engine = Engine(rules)
    results = engine.results(play_out(engine))
    assert results["winners"] == [1, 2] and results["house"]["winner"] is True
    assert "Tied winners: Bank, seat 1, seat 2" in "\n".join(standings(results, "highest"))
    sim = Simulation((Ref(),), 1, 2, ("random", "random"), 1)
    summary = Summary(rules, sim)
    summary.add(play_record(engine, sim, 0))
    report = summary.report()
    assert report["house"]["wins"] == pytest.approx(0.3333)
    assert report["per_seat"][0]["wins"] == pytest.approx(0.3333)
    assert report["ties"]["games"] == 1 and report["no_winner"]["games"] == 0


def test_win_house_and_house_attributes(tmp_path: Path) -> None:
    extra = """\
triggers:
  - name: bank_wins
    after: turn
    when: "house.active and house.seat == 0 and house.total == 5 and round == 2"
    do: [set house.total += 100, win house]"""
    engine = Engine(bank(tmp_path, winner="lowest", extra=extra))
    results = engine.results(play_out(engine))
    assert results["winners"] == [] and results["house"]["winner"] is True
    assert results["house"]["total"] == 110  # 5, 100 more, and round 2 scored as it ends


def test_state_round_trips_with_the_house(tmp_path: Path) -> None:
    engine = Engine(bank(tmp_path))
    state = engine.new_game(seed=2)
    engine.apply(state, engine.legal_actions(state)[0])
    again = GameState.from_json(state.to_json())
    assert again.to_dict() == state.to_dict() and again.everyone == state.everyone
    assert again.house == 3 and again.everyone == 0b1011
    while not state.over:
        engine.apply(state, engine.legal_actions(state)[0])
        engine.apply(again, engine.legal_actions(again)[0])
    assert engine.results(again) == engine.results(state)


def test_games_without_a_house_are_unchanged() -> None:
    engine = Engine(load_ruleset("golf6"))
    state = engine.new_game(seed=1)
    assert state.house == -1 and "house" not in state.to_dict()
    assert "house" not in engine.results(state)
    assert "house" not in player_view(engine.rules, state, 0)


@pytest.mark.parametrize("rule, message", [
    ("turn to owner(top(hand[house]))", "the house is not a seat: `turn to` names a seat"),
    ("eliminate owner(top(hand[house]))", "the house is not a seat: it cannot be put out"),
    ("let x = next_player(owner(top(hand[house])))",
     "the house is not a seat: next_player needs a seat"),
])
def test_a_rule_that_names_the_house_as_a_seat_faults(tmp_path: Path, rule: str,
                                                      message: str) -> None:
    extra = f"""\
triggers:
  - name: odd
    after: move
    do: ["{rule}"]"""
    engine = Engine(bank(tmp_path, extra=extra))
    state = engine.new_game(seed=1)
    with pytest.raises(CardrulesError) as info:
        engine.apply(state, engine.legal_actions(state)[0])
    assert message in str(info.value)


def test_house_as_a_turn_by_first_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bank.yaml"
    text = BANK.format(winner="highest", extra="").replace(
        "  phases:", "  first: owner(top(hand[house]))\n  phases:")
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CardrulesError, match=r"bank\.yaml:\d+:\d+: .*the house is not a seat: "
                       r"the round's play begins with it"):
        Engine(load_ruleset(path)).new_game(seed=1)


def test_house_without_house_key_is_a_located_error(tmp_path: Path) -> None:
    path = tmp_path / "bank.yaml"
    text = BANK.format(winner="highest", extra="").replace("house: {name: Bank}\n", "")
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    assert "this ruleset declares no house" in str(info.value)


# ------------------------------------------------------------------- blackjack
def blackjack(tmp_path: Path) -> Path:
    text = (ROOT / "docs" / "grammar.md").read_text(encoding="utf-8")
    start = text.index("### 15.6 Blackjack")
    block = text[text.index("```yaml\n", start) + 8:text.index("```\n", start + 10)]
    path = tmp_path / "blackjack.yaml"
    path.write_text(block, encoding="utf-8")
    return path


def test_blackjack_seeded_games_won_by_the_house_and_by_a_seat(tmp_path: Path) -> None:
    from cardrules.interpreter.players.bots import make_bot
    from cardrules.interpreter.sessions.play import play

    rules = load_ruleset(blackjack(tmp_path))
    engine = Engine(rules)
    outcome = {}
    for seed in (1, 9):
        state = engine.new_game(seed=seed)
        bots = [make_bot("random", seed, seat) for seat in range(state.n)]
        results = engine.results(play(engine, state, bots))
        outcome[seed] = results
        assert sum(results["totals"]) + results["house"]["total"] == 0  # what one loses...
    assert outcome[1]["house"]["winner"] and outcome[1]["winners"] == []
    assert "Winner: Dealer" in "\n".join(standings(outcome[1], "highest"))
    assert not outcome[9]["house"]["winner"] and outcome[9]["winners"] == [2]
    assert "Winner: seat 2" in "\n".join(standings(outcome[9], "highest"))
    sim = Simulation((Ref(),), 10, 3, ("random",) * 3, 1)
    summary = Summary(rules, sim)
    for index in range(10):
        summary.add(play_record(engine, sim, index))
    report = summary.report()
    seat_wins = sum(s["wins"] for s in report["per_seat"])
    assert report["house"]["name"] == "Dealer"
    assert report["house"]["wins"] + seat_wins == pytest.approx(10)


def test_blackjack_through_openspiel(tmp_path: Path) -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed")
    import cardrules.openspiel  # noqa: F401

    path = blackjack(tmp_path)
    game = pyspiel.load_game("cardrules", {"ruleset": str(path)})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    mini = tmp_path / "bank.yaml"
    mini.write_text(BANK.format(winner="highest", extra=""), encoding="utf-8")
    game = pyspiel.load_game("cardrules", {"ruleset": str(mini)})
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            state.apply_action(state.legal_actions()[0])
    assert state.returns() == [0.0, 0.0]  # the house won alone: no seat won or lost


def test_blackjack_through_pettingzoo(tmp_path: Path) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from cardrules.pettingzoo import env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env(str(blackjack(tmp_path))), num_cycles=400, verbose_progress=False)


def test_the_houses_score_entries_are_in_the_round_account(tmp_path: Path) -> None:
    """A house scored by entries (here two: the chips, and a constant bonus) has them in its
    row of the round's account, as a seat has."""
    from cardrules.present.account import round_account

    path = blackjack(tmp_path)
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("  round:\n", "  round:\n    - {name: bonus, score: \"1\"}\n", 1),
                    encoding="utf-8")
    rules = load_ruleset(path)
    engine = Engine(rules)
    state = engine.new_game(seed=1, log=True)
    legal = engine.legal_actions(state)
    while legal:
        legal = engine.play(state, legal[0])
    end = next(e for e in state.log if e.get("event") == "round_end")
    kept = end["house"]["score_parts"]
    assert set(kept) == {"bonus", "chips"} and sum(kept.values()) == end["house"]["score"]
    account = round_account(rules, end)
    row = account.rows[-1]  # (the house's, after the seats')
    assert [row[account.header.index(name)] for name in ("bonus", "chips")] == \
        [str(kept["bonus"]), str(kept["chips"])]


def test_partners_fill_one_place_in_the_standings() -> None:
    """Two teams of two: the second team ranks 2 (not 3, the places its partners would fill
    as seats); seats alone keep a tie's places (1, 1, 3)."""
    def ranks(totals: list[int], winners: list[int], teams: int) -> list[tuple[int, int]]:
        results = {"totals": totals, "round_scores": [totals], "winners": winners,
                   "rounds": 1}
        rows = standings(results, "highest", teams)[2:2 + len(totals)]
        return [(int(row.split()[0]), int(row.split()[-3])) for row in rows]  # (rank, seat)

    assert ranks([120, 80, 120, 80], [1, 3], 2) == [(1, 1), (1, 3), (2, 2), (2, 4)]
    assert ranks([5, 9, 9, 1], [2, 3], 0) == [(1, 2), (1, 3), (3, 1), (4, 4)]
    assert ranks([5, 1, 9, 5, 1, 9], [3, 6], 3) == [(1, 3), (1, 6), (2, 1), (2, 4), (3, 2),
                                                    (3, 5)]
