"""What a seat's page is told, from the same words as the terminal's (present/news.py): the
news of a game's setup before its first decision, what came of each action, and the lines
that stand for several moves of one action."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")

from cardrules.web.game import Game  # noqa: E402
from cardrules.web.payload import seat_payload  # noqa: E402


def texts(game: Game, seat: int) -> list[str]:
    """The news a seat's page is sent, each entry's line and what came of it."""
    return [line for entry in seat_payload(game, seat)["news"]
            for line in [entry["text"], *entry["then"]]]


def test_the_first_rounds_setup_is_news_before_the_first_decision() -> None:
    game = Game.new("geohash", {}, 4, 1, None)
    assert texts(game, 0)[:2] == ["before play:", "7D 7H JD JH go from your hand to the heap"]
