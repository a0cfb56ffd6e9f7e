"""Two people play golf6 in a real browser (Chromium, driven by Playwright): each page
shows its own seat's known cards and backs for the cards it does not know, and a click on
a card makes the move that names it.

Skipped, with the reason, where Playwright or the system's Chromium is missing. With
CARDRULES_SCREENSHOT=docs/serve-golf6.png, a screenshot of seat 1's page in the middle of
the game is written there (the README shows it).
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn", reason="the web extra is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
from cardrules.interpreter.view import player_view  # noqa: E402
from cardrules.web.game import Game  # noqa: E402
from cardrules.web.server import Hub, links, make_app  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
        "--disable-dev-shm-usage"]
ROOT = Path(__file__).resolve().parent.parent
WAIT = 10_000  # ms

pytestmark = pytest.mark.skipif(not os.access(CHROMIUM, os.X_OK),
                                reason=f"no Chromium at {CHROMIUM} (apt-get install chromium)")


class Serving:
    """A real server (uvicorn) on a free local port, in a thread of its own."""

    def __init__(self, hub: Hub):
        import uvicorn
        self.hub = hub
        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.base = f"http://127.0.0.1:{self.socket.getsockname()[1]}/"
        config = uvicorn.Config(make_app(hub), log_level="warning", access_log=False,
                                timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run,
                                       kwargs={"sockets": [self.socket]}, daemon=True)

    def __enter__(self) -> Serving:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.hub.loop is not None:  # as at Ctrl-C: open pages' streams end
            self.hub.loop.call_soon_threadsafe(self.hub.close)
        self.server.should_exit = True
        self.thread.join(10)
        self.socket.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        try:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        except sync_api.Error as exc:
            pytest.skip(f"Chromium does not start here: {str(exc).splitlines()[0]}")
        yield chromium
        chromium.close()


def faces(page: Any, where: str) -> list[str | None]:
    """The cards drawn in `where` (a CSS selector): a card's name, or None for a back."""
    return page.eval_on_selector_all(
        f"{where} .card:not(.empty)",
        "nodes => nodes.map(n => n.classList.contains('back') ? null : n.dataset.card)")


def known_names(game: Game, seat: int) -> set[str]:
    """The names of every card the seat's player view shows."""
    view = player_view(game.engine.rules, game.state, seat)
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if isinstance(value.get("card"), str):
                found.add(value["card"])
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
    walk(view["zones"])
    return found


def at_version(page: Any, version: int) -> None:
    """Wait until the page has drawn the game at `version` (or later)."""
    deadline = time.monotonic() + WAIT / 1000
    while page.evaluate("() => current === null ? -1 : current.version") < version:
        assert time.monotonic() < deadline, f"the page never reached version {version}"
        time.sleep(0.02)


def test_two_seats_play_golf6_by_clicking(browser: Any) -> None:
    game = Game.new("golf6", {"rounds": "1"}, 2, 3, None)
    for _ in range(4):  # each seat has turned two cards (the first page test plays these)
        seat = game.to_move()
        assert seat is not None
        game.play(seat, game.legal()[0])
    hub = Hub(delay=0)
    hub.add(game)
    with Serving(hub) as serving:
        pages = []
        context = browser.new_context(viewport={"width": 1280, "height": 860})
        for link in links(game, serving.base):
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
            page.goto(link["url"])
            pages.append((page, errors))
        one, two = pages[0][0], pages[1][0]
        version = 4
        for seat, (page, _) in enumerate(pages):
            at_version(page, version)
            grids = faces(page, ".owned-zone[data-zone=grid]")
            assert grids.count(None) == 8 and len(grids) == 12
            shown = [c for c in faces(page, "#board") if c]
            assert set(shown) <= known_names(game, seat) and len(shown) == 5  # 4 + discard
        assert one.inner_text("#status").startswith("Your move")
        assert two.inner_text("#status").startswith("Seat 1 to move")
        assert two.locator(".card.playable").count() == 0

        # Seat 1 takes the stock's top card: only seat 1 sees what it is.
        one.get_by_role("button", name="Take the top card of the stock").click()
        version += 1
        at_version(one, version)
        at_version(two, version)
        held = faces(one, '.player[data-seat="1"] [data-zone=holding]')
        assert len(held) == 1 and held[0] is not None and held[0] in known_names(game, 0)
        assert faces(two, '.player[data-seat="1"] [data-zone=holding]') == [None]
        assert one.locator(".card.playable").count() == 6  # a card to put it in place of
        screenshot = os.environ.get("CARDRULES_SCREENSHOT")
        if screenshot:
            one.screenshot(path=str(ROOT / screenshot))
        one.click('[data-key="grid|1||2"]')  # a click on a card makes the move naming it
        version += 1
        at_version(two, version)
        assert faces(two, '.player[data-seat="1"] [data-zone=holding]') == []
        assert held[0] in faces(two, '.player[data-seat="1"] [data-zone=grid]')
        assert "seat 1: Put the card in place of" in two.inner_text("#news")

        # Seat 2 takes the discard and puts it in its grid, by clicking too.
        assert two.inner_text("#status").startswith("Your move")
        two.get_by_role("button", name="Take the top card of the discard pile").click()
        version += 1
        at_version(two, version)
        two.click('[data-key="grid|2||0"]')
        version += 1
        at_version(one, version)
        for _, errors in pages:
            assert not errors, errors
        context.close()
    assert game.version == version and len(game.record.actions) == version


def test_the_lobby_starts_a_game_whose_links_open(browser: Any) -> None:
    hub = Hub(delay=0)
    with Serving(hub) as serving:
        page = browser.new_page()
        page.goto(serving.base)
        page.select_option("#ruleset", "precognition")
        page.select_option('select[name="seat2"]', "random")  # 3 players
        assert page.is_hidden('input[name="seat2-budget"]')  # random takes no budget
        page.select_option('select[name="seat3"]', "ismcts")
        page.fill('input[name="seat3-budget"]', "5")
        assert page.get_attribute('input[name="seat3-budget"]', "max") == "10"
        assert "ismcts up to 10 iterations" in page.inner_text("#budgets")
        page.click("#start")
        page.wait_for_selector("#links a", timeout=WAIT)
        assert next(iter(hub.games.values())).seats == ["human", "random", "ismcts:5"]
        urls = page.eval_on_selector_all("#links a", "nodes => nodes.map(n => n.href)")
        assert len(urls) == 1 and urls[0].startswith(serving.base + "seat/")  # one person
        page.goto(urls[0])
        at_version(page, 0)
        assert page.inner_text("#title") == "Precognition"
        page.get_by_role("button", name="Predict").first.click()
        page.fill('input[name="prediction"]', "UDX")
        page.click("text=Send")
        page.wait_for_selector("#refusal:has-text('not allowed')", timeout=WAIT)
        assert "'X' is not allowed: use only U, D, S" in page.inner_text("#refusal")
        page.fill('input[name="prediction"]', "ud")
        page.click("text=Send")
        at_version(page, 1)
        assert hub.games and next(iter(hub.games.values())).record.actions[0] == \
            ["predict", "UD"]
        page.close()


def test_a_page_of_another_site_cannot_start_move_or_read(browser: Any) -> None:
    """A page served elsewhere (here: another port, another origin) tries what a hostile
    site would, in a real browser: a text/plain post (no preflight), a JSON post, reading
    the API. (Its own server's CSP would stop it first; it is lifted to test this one.)"""
    game = Game.new("golf6", {}, 2, 1, None)
    target = Hub(delay=0)
    target.add(game)
    with Serving(target) as victim, Serving(Hub(delay=0)) as other:
        context = browser.new_context(bypass_csp=True)
        page = context.new_page()
        page.goto(other.base + "static/common.js")  # any page of the other origin
        token = game.tokens[0]
        tried = page.evaluate("""async ([base, token]) => {
          const out = {};
          const attempt = async (name, url, init) => {
            try { const r = await fetch(base + url, init); out[name] = r.type + " " + r.status; }
            catch (e) { out[name] = "refused by the browser"; }
          };
          const move = JSON.stringify({version: 0, index: 0});
          const game = JSON.stringify({ruleset: "golf6", players: 2, seats: ["human", "human"]});
          await attempt("plain game", "api/games",
                        {method: "POST", mode: "no-cors", body: game,
                         headers: {"Content-Type": "text/plain"}});
          await attempt("plain move", "api/seat/" + token + "/move",
                        {method: "POST", mode: "no-cors", body: move,
                         headers: {"Content-Type": "text/plain"}});
          await attempt("json game", "api/games",
                        {method: "POST", body: game,
                         headers: {"Content-Type": "application/json"}});
          await attempt("read", "api/seat/" + token, {});
          return out;
        }""", [victim.base, token])
        context.close()
    # The posts are sent (no preflight) and refused by the server; their answers, like
    # every other, may be read only by the server's own pages (Cross-Origin-Resource-Policy).
    assert set(tried.values()) == {"refused by the browser"}, tried
    assert list(target.games) == [game.id] and game.version == 0
