"""People play in a real browser (Chromium, driven by Playwright): two people at golf6,
each page showing its own seat's known cards and backs for the others, a click on a card
making the move that names it; one person playing a whole game of geohash with the keyboard,
asked only for their own moves and the accusation they choose to make; grandma on a phone,
its choices in reach, with a hint and a decision taken back.

Skipped, with the reason, where Playwright or the system's Chromium is missing. With
CARDRULES_SCREENSHOTS=docs, pictures of the pages are written there (serve-golf6.png,
serve-geohash.png, serve-grandma.png, serve-grandma-phone.png; the README shows them).
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
from cardrules.interpreter.players.bots import make_bot  # noqa: E402
from cardrules.interpreter.view import player_view  # noqa: E402
from cardrules.web.game import Game  # noqa: E402
from cardrules.web.payload import seat_news  # noqa: E402
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
        # A page asked for before the server listens is refused: wait until it does.
        deadline = time.monotonic() + WAIT / 1000
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.01)
        assert self.server.started, "the server did not start"
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
        shots = os.environ.get("CARDRULES_SCREENSHOTS")
        if shots:
            one.screenshot(path=str(ROOT / shots / "serve-golf6.png"))
        one.click('[data-key="grid|1||2"]')  # a click on a card makes the move naming it
        version += 1
        at_version(two, version)
        assert faces(two, '.player[data-seat="1"] [data-zone=holding]') == []
        assert held[0] in faces(two, '.player[data-seat="1"] [data-zone=grid]')
        assert "seat 1 puts the card in place of" in two.inner_text("#news")

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
        # the other seats start as the bot `cardrules play` seats; options go by label
        assert page.input_value('select[name="seat2"]') == "greedy"
        assert "Playoffs at most playoff_limit" in page.inner_text("#options")
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


# ------------------------------------------------------------ a whole game of geohash
GEOHASH_SEED = 3
ASKS_BEFORE_NAMING = 6  # then the person names the hidden cards (the test knows them)


def mine_or_over(page: Any, after: int) -> dict[str, Any]:
    """Wait until the page, past version `after`, offers the person a decision, or shows
    the game's end; what it has drawn then."""
    deadline = time.monotonic() + 4 * WAIT / 1000
    while True:
        seen = page.evaluate("() => current && {version: current.version, over: "
                             "current.view.over, mine: current.choices.length > 0, reaction: "
                             "current.reaction}")
        if seen and seen["version"] > after and (seen["mine"] or seen["over"]):
            return seen
        assert time.monotonic() < deadline, "the page never offered a decision"
        time.sleep(0.02)


def naming_the_hidden(game: Game) -> str:
    """The words of the accusation that names the hidden cards (the test sees them)."""
    engine, state = game.engine, game.state
    hidden = {engine.rules.cards.names[c] for c in state.zones[engine.board.names.index(
        "hidden")]}
    for action in game.legal():
        if action[0] == "accuse":
            named = {f"{engine.rules.cards.rank_names[action[1 + 2 * k]]}"
                     f"{engine.rules.cards.suit_names[action[2 + 2 * k]][0].upper()}"
                     for k in range(2)}
            if named == hidden:
                return engine.words.describe(action, state, 0)
    raise AssertionError("no accusation names the hidden cards")


def test_a_whole_geohash_game_by_keyboard_without_being_asked_to_pass(browser: Any) -> None:
    """One person against two greedy bots plays a whole game of geohash with the keyboard:
    chances to react go by unasked, each ask's outcome is read in "what happened", the
    reaction control names the hidden cards when the person wants, and the round's account
    shows at the end. The person is asked for fewer than 2 decisions per move of their
    turns (here: one for each ask, and one for the accusation they asked to make)."""
    game = Game.new("geohash", {}, 3, GEOHASH_SEED, ["human", "greedy", "greedy"])
    hub = Hub(delay=0)
    hub.add(game)
    with Serving(hub) as serving:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(links(game, serving.base)[0]["url"])
        decisions = asks = 0
        turns: set[int] = set()
        version = -1
        while True:
            seen = mine_or_over(page, version)
            if seen["over"]:
                break
            version = seen["version"]
            decisions += 1
            if seen["reaction"]:  # the chance to react the person asked for: name them
                assert asks == ASKS_BEFORE_NAMING + 1  # asked for after the last ask
                words = naming_the_hidden(game)
                page.fill("input.narrow", " ".join(words.split()[-8:]))  # the 5 of hearts...
                page.wait_for_selector("#choices button.choice[data-number='2']",
                                       state="detached")
                assert page.inner_text("#choices button.choice[data-number='1']") == \
                    f"1. {words}"
                page.keyboard.press("Enter")  # the one choice left
                at_version(page, seen["version"] + 1)
                continue
            turns.add(game.state.turns)
            if asks == 4 and os.environ.get("CARDRULES_SCREENSHOTS"):
                page.screenshot(path=str(ROOT / os.environ["CARDRULES_SCREENSHOTS"] /
                                         "serve-geohash.png"))
            if asks == ASKS_BEFORE_NAMING:  # the control, always there: react at my next chance
                page.click("#react-now")
                page.wait_for_selector("text=Your next chance to react will wait for you")
                # (the control drew the page again at a newer version: the decision to wait
                # for after this ask is one past that, not past the one read above)
                version = page.evaluate("() => current.version")
            # (the page may be drawing the choices again: wait for them, then read them)
            page.wait_for_selector("#choices button.choice[data-number='1']")
            choice = page.eval_on_selector("#choices button.choice[data-number='1']",
                                           "node => node.textContent")
            assert choice.startswith("1. Ask seat ")
            page.keyboard.press("1")
            page.keyboard.press("Enter")
            asks += 1
            asked = choice[3:]
            # What came of it, as the person reads it (a card given, one fished at random,
            # or nothing), under the ask in "what happened".
            # (the same ask may have been made before: the newest is the one just made)
            item = page.locator("#news > li", has_text=f"you {asked[0].lower()}{asked[1:]}")
            item.last.locator(".then li").first.wait_for(timeout=WAIT)
        assert game.state.winners == [0]
        # the round's account, before anything else: what each seat scored, and why
        page.wait_for_selector("#account:not([hidden])")
        account = page.inner_text("#account")
        assert "Round 1 over (only a win decides)" in account and "seat 3" in account
        assert "hidden:" in account
        assert "Winner: seat 1" in page.inner_text("#winner-rule")
        # the status line says who won in the standings' own words
        assert page.inner_text("#status") == "Game over. Winner: seat 1"
        assert decisions == asks + 1 < 2 * asks  # no window but the one asked for
        assert len(turns) * 2 >= asks
        assert not errors, errors
        page.close()


# --------------------------------------------------- a phone, a hint, a take-back
def test_on_a_phone_the_choices_are_in_reach_with_a_hint_and_a_take_back(browser: Any) -> None:
    """grandma at 390 px wide: no sideways scrolling, and the person's choices in sight
    without scrolling; a hint lists a bot's pick and its estimate of each choice; taking the
    discard (a card everyone saw) can be taken back, and the choice is offered again."""
    game = Game.new("grandma", {}, 3, 2, ["human", "greedy", "greedy"])
    hub = Hub(delay=0)
    hub.add(game)
    with Serving(hub) as serving:
        url = links(game, serving.base)[0]["url"]
        phone = browser.new_page(viewport={"width": 390, "height": 844})
        errors: list[str] = []
        phone.on("pageerror", lambda error: errors.append(str(error)))
        phone.goto(url)
        phone.wait_for_selector("#choices button.choice")
        assert phone.evaluate("() => document.scrollingElement.scrollWidth") <= 390
        for button in phone.query_selector_all("#choices button.choice"):
            box = button.bounding_box()
            assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844
        take = "Take 4♥ from the discard pile"  # (a card name drawn as a small card)
        assert phone.inner_text("#choices button.choice[data-number='2']") == f"2. {take}"

        phone.click("#hint-button")  # greedy, the first bot offered
        phone.wait_for_selector("#hint:not([hidden]) .estimates li")
        hint = phone.inner_text("#hint")
        assert hint.startswith("Hint from greedy: ")
        assert phone.locator("#hint .estimates li").count() == 2  # both choices, weighed
        assert "points" in hint or "level with" in hint
        if os.environ.get("CARDRULES_SCREENSHOTS"):
            wide = browser.new_page(viewport={"width": 1280, "height": 860})
            wide.goto(url)
            wide.wait_for_selector("#choices button.choice")
            wide.click("#hint-button")
            wide.wait_for_selector("#hint:not([hidden]) .estimates li")
            wide.screenshot(path=str(ROOT / os.environ["CARDRULES_SCREENSHOTS"] /
                                     "serve-grandma.png"))
            wide.close()

        phone.keyboard.press("2")
        phone.keyboard.press("Enter")
        at_version(phone, 1)
        assert game.record.actions[0][0] == "take_discard"
        phone.click("#take-back")
        at_version(phone, 2)  # the game as it was: the choice is offered again
        assert game.record.actions == [] and game.state.actions == 0
        phone.wait_for_selector(f"#choices button.choice:has-text('{take}')")
        assert f"you take back: {take}" in phone.inner_text("#news")
        if os.environ.get("CARDRULES_SCREENSHOTS"):
            phone.screenshot(path=str(ROOT / os.environ["CARDRULES_SCREENSHOTS"] /
                                      "serve-grandma-phone.png"))
        assert not errors, errors
        phone.close()


def seat_page(browser: Any, game: Game, serving: Serving, seat: int) -> tuple[Any, Any]:
    """A context of its own and in it the page of `seat`'s link (0-based), drawn up to the
    game's version."""
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    page.goto(links(game, serving.base)[seat]["url"])
    at_version(page, game.version)
    return context, page


def test_a_tricks_cards_say_who_played_them(browser: Any) -> None:
    game = Game.new("spades", {}, 4, 1, ["human"] * 4)
    trick = game.engine.board.names.index("trick")
    while len(game.state.zones[trick]) < 2:  # four bids, then two cards to the trick
        seat = game.to_move()
        assert seat is not None
        game.play(seat, game.legal()[0])
    entries = player_view(game.engine.rules, game.state, 0)["zones"]["trick"]["cards"]
    expected = ["you" if e["by"] == 1 else f"seat {e['by']}" for e in entries]
    hub = Hub(delay=0)
    hub.add(game)
    with Serving(hub) as serving:
        context, page = seat_page(browser, game, serving, 0)
        shown = page.eval_on_selector_all("[data-zone=trick] .card .by",
                                          "nodes => nodes.map(n => n.textContent)")
        assert shown == expected and len(shown) == 2
        told = len(seat_news(game, 0, limit=None))  # the whole log, at a click
        page.click("#log-button")
        page.wait_for_function(f"() => document.querySelectorAll('#news > li').length == {told}",
                               timeout=WAIT)
        context.close()


def test_the_whole_log_stays_once_the_game_is_over(browser: Any) -> None:
    """A finished game's page shows its latest news, and the Whole log still shows all the
    seat was told once the server has let the game go (the page keeps it when the game
    ends)."""
    game = Game.new("golf6", {"rounds": "2"}, 2, 1, None)
    choosers = [make_bot("random", 1, seat) for seat in (0, 1)]
    while not game.state.over:
        seat = game.to_move()
        assert seat is not None
        game.play(seat, choosers[seat].choose(game.engine, game.state, game.legal()))
    told = seat_news(game, 0, limit=None)
    hub = Hub(delay=0)
    hub.add(game)
    with Serving(hub) as serving:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        with page.expect_response(lambda response: response.url.endswith("/log"),
                                  timeout=WAIT) as kept:
            page.goto(links(game, serving.base)[0]["url"])
        assert kept.value.ok
        page.wait_for_selector("#news > li")
        assert page.inner_text("#status").startswith("Game over.")
        assert len(page.query_selector_all("#news > li")) < len(told)
        assert hub.loop is not None
        hub.loop.call_soon_threadsafe(hub.free, game.id)  # as KEEP_FINISHED after its end
        deadline = time.monotonic() + WAIT / 1000
        while game.id in hub.served:
            assert time.monotonic() < deadline, "the game was never let go"
            time.sleep(0.02)
        page.click("#log-button")
        page.wait_for_function(f"() => document.querySelectorAll('#news > li').length == "
                               f"{len(told)}", timeout=WAIT)
        oldest = page.inner_text("#news > li:last-child")
        # (its cards drawn as cards: the words before them)
        assert oldest.startswith(told[0]["text"].split(" - it was ")[0]), (oldest, told[0])
        assert page.inner_text("#refusal") == ""
        page.close()


def test_a_wild_card_in_a_laid_run_says_what_it_stands_for(browser: Any) -> None:
    game = Game.new("grandma", {}, 3, 1, ["human"] * 3)
    rules, state = game.engine.rules, game.state
    group = rules.zone("meld").instances(0)[1]  # seat 1's second meld, laid as 2C 7H 4H 6H
    for name in ("2C", "7H", "4H", "6H"):
        c = rules.cards.names.index(name)
        state.zones[state.where[c]].remove(c)
        state.zones[group].append(c)
        state.where[c], state.face_up[c], state.known[c] = group, True, state.everyone
    hub = Hub(delay=0)
    hub.add(game)
    with Serving(hub) as serving:
        context, page = seat_page(browser, game, serving, 1)
        laid = page.eval_on_selector_all(
            "[data-zone=meld] .card", "nodes => nodes.map(n => [n.dataset.card, "
            "(n.querySelector('.stands') || {}).textContent || ''])")
        assert laid == [["4H", ""], ["2C", "= 5♥"], ["6H", ""], ["7H", ""]], laid
        context.close()
