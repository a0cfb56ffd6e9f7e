"""Precognition: predictions from an open domain, the row's U/D/S string, longest match,
playoffs among the tied, and predictions kept secret until each deal's end."""

from __future__ import annotations

import functools
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules.dsl.loader import load_ruleset
from cardrules.errors import IllegalAction
from cardrules.interpreter import domains
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.runtime import changes
from cardrules.interpreter.sessions.events import drain, round_ends
from cardrules.interpreter.sessions.play import play_game
from cardrules.interpreter.state import GameState
from cardrules.interpreter.view import player_view
from cardrules.present.news import game_end_text, news


@functools.cache
def engine() -> Engine:
    return Engine(load_ruleset("precognition"))


def row_of(numbers: list[int]) -> list[int]:
    """Card ids (clubs, then other suits for repeats) whose numbers are `numbers`."""
    rules = engine().rules
    used: set[int] = set()
    out = []
    for number in numbers:
        card = next(c for c in range(52) if rules.cards.number[c] == number and c not in used)
        used.add(card)
        out.append(card)
    return out


def scored(numbers: list[int], predictions: list[str]) -> list[int]:
    """Each seat's score for a finished row and the given predictions."""
    eng = engine()
    state = eng.new_game(len(predictions), 1)
    cards = row_of(numbers)
    row = eng.rules.zone("row").index
    for zone in state.zones:
        zone[:] = [c for c in zone if c not in cards]
    state.zones[row][:] = cards
    for z, zone in enumerate(state.zones):
        for c in zone:
            state.where[c] = z
    state.pvars["prediction"] = list(predictions)
    return [sum(eng.rules.score(state, p)) for p in range(len(predictions))]


def test_the_written_example_scores_seven() -> None:
    row = [2, 6, 5, 4, 7, 9, 7, 1, 2, 2, 5, 8]
    assert changes(engine().rules.cards.number, row_of(row)) == "UDDUUDDUSUU"
    assert scored(row, ["UUDDUSU", "DDD"]) == [7, 0]


@pytest.mark.parametrize(("prediction", "score"), [
    ("UDD", 3),  # at the start
    ("SUU", 3),  # at the end
    ("UUDD", 4),  # in the middle
    ("U", 1), ("S", 1), ("D", 1),
    ("SS", 0), ("UUU", 0),
])
def test_matches_anywhere_in_the_row(prediction: str, score: int) -> None:
    assert scored([2, 6, 5, 4, 7, 9, 7, 1, 2, 2, 5, 8], [prediction, "D"])[0] == score


def test_equal_neighbours_are_s() -> None:
    assert changes(engine().rules.cards.number, row_of([5, 5, 6, 6, 1])) == "SUSD"


def at_prediction(players: int = 3, seed: int = 2) -> GameState:
    return engine().new_game(players, seed)


def test_a_prediction_is_an_open_action_checked_on_apply() -> None:
    state = at_prediction()
    (template,) = engine().legal_actions(state)
    assert template[0] == "predict" and isinstance(template[1], domains.Words)
    assert template[1].shortest == 1 and template[1].longest == 50  # 3 x 17 cards: 50 steps
    before = state.to_json()
    for bad, reason in [("UXD", "not allowed"), ("", "empty"), ("U" * 51, "between 1 and 50"),
                        (7, "expected a text")]:
        with pytest.raises(IllegalAction, match=reason):
            engine().apply(state, ("predict", bad))
        assert state.to_json() == before  # nothing changed
    with pytest.raises(IllegalAction, match="fill in"):
        engine().apply(state, template)
    engine().apply(state, ("predict", "UUDS"))
    assert state.pvars["prediction"][0] == "UUDS"


@pytest.mark.parametrize(("options", "longest"),
                         [({}, 50), ({"longest_prediction": "hand_size"}, 17)])
def test_the_longest_prediction_follows_the_option(options: dict[str, str], longest: int) -> None:
    """By default up to the row's steps (3 x 17 cards: 50); with hand_size, up to the 17
    cards of the player's hand."""
    eng = Engine(load_ruleset("precognition", options=options or None))
    (template,) = eng.legal_actions(eng.new_game(3, 2))
    assert template[1].longest == longest


def test_predictions_stay_secret_until_the_game_is_over() -> None:
    state = at_prediction()
    engine().apply(state, ("predict", "UDU"))
    view = player_view(engine().rules, state, 1)
    assert view["player_variables"]["prediction"][0] is None
    assert player_view(engine().rules, state, 0)["player_variables"]["prediction"][0] == "UDU"
    finished = play_game(engine(), 3, seed=5)
    seen = player_view(engine().rules, finished, 1)["player_variables"]["prediction"]
    assert all(p for p in seen)


def test_the_public_log_shows_each_deals_predictions_when_that_deal_ends() -> None:
    """The event log is public: each round's end shows every prediction of that deal, a
    tied deal's too, since the lists are revealed once the row is finished."""
    finished = play_game(engine(), 3, seed=1, log=True)
    assert finished.log is not None
    ends = [e["player_variables"]["prediction"] for e in finished.log
            if e.get("event") == "round_end"]
    assert len(ends) > 1  # a playoff: rounds ended mid-match
    assert all(p is not None for seen in ends for p in seen)  # (a seat out of a playoff: '')
    assert all(ends[0]) and sum(1 for p in ends[1] if p) >= 2  # those who predicted


def test_predictions_stay_secret_from_the_others_while_the_row_is_built() -> None:
    eng = engine()
    state = at_prediction()
    for text in ("UDU", "S", "DD"):
        eng.apply(state, ("predict", text))
    eng.apply(state, eng.legal_actions(state)[0])  # the first card of the row
    assert state.phase == 1
    for seat, text in enumerate(("UDU", "S", "DD")):
        seen = player_view(eng.rules, state, seat)["player_variables"]["prediction"]
        assert seen == [text if p == seat else None for p in range(3)]


def test_a_tied_deals_predictions_are_shown_in_its_account() -> None:
    """`cardrules run --view` prints each round's account: after a tied deal, every seat's
    prediction, the viewer's own too, and no '?'."""
    from click.testing import CliRunner

    from cardrules.cli.main import main
    result = CliRunner().invoke(main, ["run", "precognition", "-s", "1", "--plain",
                                       "--view", "1"], catch_exceptions=False)
    assert result.exit_code == 0
    account = result.output.split("  Round 1 over")[1].splitlines()
    # the table's heading (a wide table's columns fall into blocks, each with the seats)
    heading = next(i for i, line in enumerate(account) if "Prediction" in line)
    first = account[heading + 1:heading + 4]
    assert [line.split()[:2] for line in first] == [["seat", "1"], ["seat", "2"],
                                                     ["seat", "3"]]
    assert all(re.fullmatch(r"[UDS]+", line.split()[-1]) for line in first), first


@settings(max_examples=40, deadline=None, database=None)
@given(seed=st.integers(0, 10**6))
def test_random_predictions_cover_every_length(seed: int) -> None:
    rng = random.Random(seed)
    domain = domains.Words("UDS", 1, 5)
    texts = [domain.sample(rng) for _ in range(200)]
    assert all(domain.problem(t) is None for t in texts)
    assert {len(t) for t in texts} == {1, 2, 3, 4, 5}


def test_hands_are_equal_and_the_remainder_is_set_aside() -> None:
    state = engine().new_game(5, 3)
    hands = [state.zones[engine().rules.zone("hand").zone_of(p)] for p in range(5)]
    assert {len(h) for h in hands} == {10}
    assert len(state.zones[engine().rules.zone("set_aside").index]) == 2


def test_a_tie_is_played_off_among_the_tied_until_one_is_left() -> None:
    eng = engine()
    state = eng.new_game(3, 11)
    for seat, text in enumerate(["U", "U", "SSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSS"]):
        assert state.current == seat
        eng.apply(state, ("predict", text))
    while state.round == 1:  # lay the cards; "U" surely matches, 49 S's surely do not
        eng.apply(state, eng.legal_actions(state)[0])
    assert state.round_scores[0] == [1, 1, 0]
    assert state.active == [True, True, False]  # the third is out of the playoff
    assert not state.over
    while not state.over:
        action = eng.legal_actions(state)[0]
        if action[0] == "predict":
            action = ("predict", "U" if state.current == 0 else "DDDDDDDDDDDDDDDDDDDD")
        eng.apply(state, action)
    assert state.winners == [0]
    assert len(state.round_scores) == 2


def test_random_games_always_end_with_a_winner_or_a_bounded_tie() -> None:
    for seed in range(20):
        state = play_game(engine(), 4, seed=seed)
        assert state.over
        assert len(state.round_scores) <= engine().rules.options["playoff_limit"]
        assert state.winners


def test_the_row_reads_as_its_steps_and_playoffs_are_named() -> None:
    """The row's U/D/S text is shown as it grows (a round variable everyone sees), and a
    round after the first says it is a playoff."""
    eng = engine()
    state = at_prediction(players=2)
    assert state.vars["stage"] == "first deal" and state.vars["row_moves"] == ""
    while state.phase == 0:
        eng.apply(state, ("predict", "U"))
    for _ in range(3):
        eng.apply(state, eng.legal_actions(state)[0])
    row = state.zones[eng.rules.zone("row").index]
    numbers = [eng.rules.cards.number[c] for c in row]
    steps = "".join("U" if b > a else "D" if b < a else "S" for a, b in zip(numbers, numbers[1:]))
    assert state.vars["row_moves"] == steps and len(steps) == 2
    view = player_view(eng.rules, state, 1)
    assert view["variables"]["row_moves"] == steps
    while len(state.round_scores) < 1:  # the same prediction for both: a tie
        eng.apply(state, eng.legal_actions(state)[0])
    assert state.round_scores[0][0] == state.round_scores[0][1] and not state.over
    assert state.vars["stage"] == "playoff" and state.vars["row_moves"] == ""


def test_the_account_of_the_deal_that_ends_the_match_speaks_of_no_playoff() -> None:
    """A deal that leaves one player in ends the match: its account does not say who is
    put out, nor the playoff rule; a deal after which the tied play on says both."""
    eng = engine()
    ended, played_off = 0, 0
    for seed in range(30):
        state = eng.new_game(3, seed, log=round_ends())
        bot = random.Random(seed)
        events = []
        while not state.over:
            eng.apply(state, domains.fill(bot.choice(eng.legal_actions(state)), bot))
            events += drain(state.log)
        *before, last = ["\n".join(n.lines()) for n in news(eng.rules, events, 0)
                         if n.kind == "account" and " over " in n.text]
        assert "playoff" not in last and "out of the game" not in last, last
        ends = [e for e in events if e.get("event") == "round_end"]
        ended += bool(ends[-1].get("after_round", {}).get("out"))
        for said in before:
            assert ("out of the game" in said) == ("(playoff: " in said), said
            played_off += "out of the game" in said
    assert ended and played_off  # (both kinds of deal were played)


def test_a_hint_names_each_prediction_once_and_how_to_write_it() -> None:
    """The bot tries a few predictions it writes itself, and may write one twice: a hint
    lists each once, and says which choice to type and what to write after it."""
    from click.testing import CliRunner

    from cardrules.cli.main import main
    from cardrules.interpreter.players.hint import hint

    eng = engine()
    state = eng.new_game(3, seed=11)
    advice = hint(eng, state)
    actions = [e.action for e in advice.estimates]
    assert len(actions) == len(set(actions)) and advice.pick == actions[0]
    result = CliRunner().invoke(main, ["play", "precognition", "--seed", "11", "--plain"],
                                input="hint\nquit\nn\n1\nD\n")
    said = " ".join(result.stdout.split())
    written = advice.pick[1]
    assert f"Hint from greedy: 1. Predict {written} (type 1, then {written})" in said, said


def test_a_match_stopped_at_its_limit_of_playoffs_says_so() -> None:
    """A tie still standing after the last playoff `playoff_limit` allows ends the match
    there: its end says it stopped at its limit (the ties share the win), where a match
    whose playoffs leave one seat says nothing of a limit."""
    limited = Engine(load_ruleset("precognition", {"playoff_limit": "1"}))
    ends = {}
    for seed in range(12):
        state = play_game(limited, seed=seed, log=True)
        end = next(e for e in state.log or [] if e.get("event") == "game_end")
        ends[len(state.winners or []) > 1] = (end, game_end_text(end, limited.rules))
    (tied, told), (alone, said) = ends[True], ends[False]
    assert tied["limit"] == 1 and "limit" not in alone
    assert told.startswith("the game is over after 1 round, the most it plays: tied winners ")
    assert said.startswith("the game is over: winner seat ")
