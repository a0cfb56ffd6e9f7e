"""What a seat's page is told, from the same words as the terminal's (present/news.py): the
news of a game's setup before its first decision, what came of each action, and the lines
that stand for several moves of one action."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from cardrules.interpreter.players.bots import make_bot  # noqa: E402
from cardrules.web.game import Game  # noqa: E402
from cardrules.web.payload import seat_payload  # noqa: E402


def played(game: Game, actions: int | None = None) -> None:
    """Random seats play `game` on: `actions` actions, or to its end."""
    choosers = [make_bot("random", 1, seat) for seat in range(game.state.n)]
    while not game.state.over and (actions is None or game.state.actions < actions):
        seat = game.to_move()
        assert seat is not None
        game.play(seat, choosers[seat].choose(game.engine, game.state, game.legal()))


def texts(game: Game, seat: int) -> list[str]:
    """The news a seat's page is sent, each entry's line and what came of it."""
    return [line for entry in seat_payload(game, seat)["news"]
            for line in [entry["text"], *entry["then"]]]


def test_the_first_rounds_setup_is_news_before_the_first_decision() -> None:
    game = Game.new("geohash", {}, 4, 1, None)
    assert texts(game, 0)[:2] == ["before play:", "7D 7H JD JH go from your hand to the heap"]


def test_a_page_is_told_a_swap_in_one_line_and_a_turned_card_once() -> None:
    game = Game.new("golf6", {}, 2, 1, None)
    for _ in range(8):  # each seat turns two cards, then seat 1 draws and swaps
        seat = game.to_move()
        assert seat is not None
        game.play(seat, game.legal()[0])
    told = seat_payload(game, 0)["news"]
    turned = [entry for entry in told if " face up - it was " in entry["text"]]
    assert turned and all(entry["then"] == [] for entry in turned)
    assert any(line.endswith("in your holding change places") for entry in told
               for line in entry["then"]), told


def test_a_persons_lone_choice_is_played_for_them_and_told_so() -> None:
    """As at the terminal: a person's decision with one choice that needs nothing written is
    played at once, and their page says it was their only choice."""
    game = Game.new("grandma", {}, 3, 1, ["human", "random", "random"])
    for _ in range(400):
        seat = game.to_move()
        if seat is None or any(line.startswith("your only choice: ")
                               for line in texts(game, 0)):
            break
        bot = game.bots[seat]
        legal = game.legal()
        if seat == 0:
            assert len(seat_payload(game, 0)["choices"]) > 1
        game.play(seat, bot.choose(game.engine, game.state, legal) if bot else legal[0])
    only = [line for line in texts(game, 0) if line.startswith("your only choice: ")]
    assert only and only[0].startswith("your only choice: Discard "), texts(game, 0)


def test_with_two_people_at_the_table_a_lone_choice_waits_for_its_person() -> None:
    """A dou-dizhu seat that cannot beat the lead has one choice, to pass: played at once,
    the other person's page would show the pass before they could have been kept waiting."""
    game = Game.new("dou-dizhu", {}, 3, 1, ["human", "human", "random"])
    waited = 0
    for _ in range(600):
        seat = game.to_move()
        if seat is None:
            break
        legal = game.legal()
        bot = game.bots[seat]
        if bot is None and len(legal) == 1:
            waited += 1
            assert not any(line.startswith("your only choice: ") for line in texts(game, seat))
        game.play(seat, bot.choose(game.engine, game.state, legal) if bot else legal[0])
    assert waited > 0


def test_a_page_is_told_which_rule_ends_the_round() -> None:
    game = Game.new("golf6", {"rounds": "1"}, 2, 1, None)
    played(game)
    told = [line for seat in (0, 1) for line in texts(game, seat)]
    assert any(line.startswith("the round ends before ") and "(last lap): every other seat "
               "has one more turn" in line for line in told), told


def test_a_page_may_read_the_whole_log_of_what_its_seat_was_told() -> None:
    """The page shows the latest news; asked for the log, the server sends everything the
    seat was told, as it was told, of which the page's news is the end."""
    from starlette.testclient import TestClient

    from cardrules.web.server import Hub, make_app

    game = Game.new("golf6", {"rounds": "2"}, 2, 1, None)
    played(game, 60)
    hub = Hub(delay=0)
    hub.add(game)
    token = game.tokens[0]
    assert token is not None
    with TestClient(make_app(hub)) as client:
        page = client.get(f"/api/seat/{token}").json()["news"]
        log = client.post(f"/api/seat/{token}/log", json={}).json()["news"]
    # (the end of the same items: a round's account told whole in the log, by its headline
    # among the latest, beside the account the page shows)
    assert len(log) > len(page) == 40 and [i["text"] for i in log[-40:]] == \
        [i["text"] for i in page]
    assert log[0]["text"].startswith("you turn the face-down card of your grid")


def test_the_whole_log_tells_each_rounds_account_as_the_terminal_does() -> None:
    """The page's latest news tells a round's end by its headline (its account is shown
    beside); the whole log tells the account whole, as `log` does at the terminal."""
    from cardrules.web.asks import log
    from cardrules.web.payload import seat_news

    game = Game.new("golf6", {"rounds": "2"}, 2, 1, None)
    played(game)
    whole = [item for item in log(game, 0)["news"] if item["kind"] == "account"]
    latest = [item for item in seat_news(game, 0) if item["kind"] == "account"]
    assert [item["text"][:7] for item in whole] == ["Round 1", "Round 2"]
    assert all(item["then"] for item in whole)  # each account whole
    assert [item["text"] for item in latest] == [whole[-1]["text"]] and latest[0]["then"] == []
