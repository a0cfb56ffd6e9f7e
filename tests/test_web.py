"""`cardrules serve` through Starlette's test client: every route, every kind of refusal,
no leaks on any shipped ruleset, and games played over the wire that end exactly as the
same seeded games in the engine.

People's decisions here are made by seeded bots on the test's side and sent as a page
sends them (the index of a choice, and any text to write), so a game played over the API
can be compared with the engine playing the same bots.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
from click.testing import CliRunner  # noqa: E402
from starlette.requests import Request  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from cardrules.cli import serve as serve_cli  # noqa: E402
from cardrules.cli.main import main  # noqa: E402
from cardrules.dsl.loader import builtin_names, load_ruleset  # noqa: E402
from cardrules.errors import GameError  # noqa: E402
from cardrules.interpreter.domains import Words, is_open, matches  # noqa: E402
from cardrules.interpreter.engine import Engine  # noqa: E402
from cardrules.interpreter.players.bots import make_bot  # noqa: E402
from cardrules.interpreter.players.external import Forfeit  # noqa: E402
from cardrules.interpreter.sessions import record  # noqa: E402
from cardrules.interpreter.sessions.play import play_game  # noqa: E402
from cardrules.interpreter.sessions.record import find_action  # noqa: E402
from cardrules.interpreter.sight import whereabouts  # noqa: E402
from cardrules.interpreter.state import GameState  # noqa: E402
from cardrules.interpreter.words import applied  # noqa: E402
from cardrules.model import Action  # noqa: E402
from cardrules.present.choices import choice_key  # noqa: E402
from cardrules.web import server  # noqa: E402
from cardrules.web.game import ACCOUNTS_KEPT, Game  # noqa: E402
from cardrules.web.payload import seat_payload  # noqa: E402
from cardrules.web.server import Hub, make_app  # noqa: E402

STATIC = Path(server.__file__).parent / "static"
WORD = re.compile(r"[0-9A-Za-z]+")
ACTIONS = 30  # actions of each shipped ruleset played over the wire, every payload checked


@contextmanager
def served(*games: Game, delay: float = 0.0, save_dir: Path | None = None,
           base_url: str = "http://testserver",
           **settings: Any) -> Iterator[tuple[TestClient, Hub]]:
    hub = Hub(delay=delay, save_dir=save_dir, **settings)
    for game in games:
        hub.add(game)
    with TestClient(make_app(hub), base_url=base_url) as client:
        yield client, hub


def seat_url(game: Game, seat: int) -> str:
    token = game.tokens[seat]
    assert token is not None
    return f"/api/seat/{token}"


def request_for(game: Game, seat: int, action: Action) -> dict[str, Any]:
    """The body a page sends for `action`: its choice's place among those offered (the
    action itself, else the one offered that is the same choice), and what it writes."""
    legal = [game.legal()[i] for i in game.offered(seat)]
    key = choice_key(game.engine, game.state, action)
    for same in (lambda c: c == action, lambda c: choice_key(game.engine, game.state, c) == key):
        for index, candidate in enumerate(legal):
            if not is_open(candidate) and same(candidate):
                return {"index": index}
    for index, candidate in enumerate(legal):
        if is_open(candidate) and matches(candidate, action) is None:
            return {"index": index, "texts": {str(k): action[k] for k, part in
                                              enumerate(candidate) if isinstance(part, Words)}}
    raise AssertionError(f"{action!r} is not among the choices")


def wait_for(client: TestClient, url: str, ready: Any, timeout: float = 10.0) -> dict[str, Any]:
    """Ask for a seat's payload until `ready(payload)`, as a page waits for its turn."""
    deadline = time.monotonic() + timeout
    while True:
        payload = client.get(url).json()
        if ready(payload) or time.monotonic() > deadline:
            return payload
        time.sleep(0.002)


# ----------------------------------------------------------------- what is known
def card_names(rules_names: tuple[str, ...], data: Any) -> set[str]:
    """The card names in any text of `data` (as words; 'Jk', a joker in letters, too)."""
    deck = set(rules_names)
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str):
            for word in WORD.findall(value):
                name = "JK" if word == "Jk" else word
                if name in deck:
                    found.add(name)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
    walk(data)
    return found


def known(state: GameState, names: tuple[str, ...], seat: int | None) -> set[str]:
    """The names of the cards `seat` knows now, exactly or partly (None: that every seat
    knows exactly)."""
    if seat is None:
        return {names[c] for c in range(state.n_cards) if state.known[c] == state.everyone}
    return {names[c] for c in range(state.n_cards) if state.known[c] >> seat & 1} \
        | {names[c] for c in whereabouts(state, seat)}


def check_payloads(client: TestClient | None, game: Game) -> None:
    """Each seat's payload (over the wire with a client; else as the server would send
    it) names only cards that seat knows, in all but the news and the last round's account
    (which are checked as they are written: the account of a round names what the table saw
    at its end, which the next deal has made every seat forget) and the deck's own list of
    names."""
    names = game.engine.rules.cards.names
    for seat in range(game.state.n):
        if client is not None:
            payload = client.get(seat_url(game, seat)).json()
        else:
            payload = json.loads(json.dumps(seat_payload(game, seat, full=True)))
        assert payload["seat"] == seat + 1
        told = {k: v for k, v in payload.items() if k not in ("news", "table", "account")}
        assert card_names(names, told) <= known(game.state, names, seat), \
            (game.engine.rules.name, seat, told)


# ------------------------------------------------------------------ the routes
def test_pages_assets_and_headers() -> None:
    game = Game.new("golf6", {}, 2, 1, None)
    with served(game) as (client, _):
        lobby = client.get("/")
        assert lobby.status_code == 200 and "text/html" in lobby.headers["content-type"]
        assert "default-src 'self'" in lobby.headers["content-security-policy"]
        assert lobby.headers["referrer-policy"] == "no-referrer"
        assert lobby.headers["x-content-type-options"] == "nosniff"
        for asset in ("common.js", "choices.js", "table.js", "lobby.js", "style.css"):
            assert client.get(f"/static/{asset}").status_code == 200
        page = client.get(f"/seat/{game.tokens[0]}")
        assert page.status_code == 200 and "table.js" in page.text
        assert client.get("/seat/not-a-token").status_code == 404
        assert client.get("/static/../game.py").status_code == 404


def test_the_pages_never_put_text_in_as_markup() -> None:
    """Rule text (titles, labels, names) reaches the page as text: no script writes
    markup, and nothing is loaded from elsewhere (the page works offline)."""
    for path in STATIC.iterdir():
        text = path.read_text(encoding="utf-8")
        for unsafe in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write",
                       "eval(", "http://", "https://"):
            assert unsafe not in text, (path.name, unsafe)


def test_rulesets_are_listed_with_their_options_and_seat_kinds() -> None:
    with served() as (client, _):
        data = client.get("/api/rulesets").json()
    assert [r["name"] for r in data["rulesets"]] == builtin_names()
    golf = next(r for r in data["rulesets"] if r["name"] == "golf6")
    assert golf["players"] == {"min": 2, "max": 8, "default": 4}
    assert {"name": "stock_runs_out", "label": "When the stock runs out", "default": "reshuffle",
            "choices": ["reshuffle", "end_round"]}.items() <= \
        next(o for o in golf["options"] if o["name"] == "stock_runs_out").items()
    assert data["kinds"][0] == "human" and "greedy" in data["kinds"]
    assert data["opponent"] == "greedy"  # the other seats start as the bot play seats


def test_the_lobby_starts_a_game_and_gives_a_link_per_person(tmp_path: Path) -> None:
    with served(save_dir=tmp_path) as (client, hub):
        answer = client.post("/api/games", json={
            "ruleset": "golf6", "players": 3, "seats": ["human", "greedy", "human"],
            "options": {"rounds": 2, "discard_taken_card": False}, "seed": 7})
        assert answer.status_code == 200, answer.text
        data = answer.json()
        assert [link["seat"] for link in data["links"]] == [1, 3]
        assert all(link["url"].startswith("http://testserver/seat/") for link in data["links"])
        game = hub.games[data["game"]]
        assert game.record.options == {"rounds": "2", "discard_taken_card": "false"}
        assert data["save"] == "golf6.cardrules-save"  # its name: no folder, nor the seed
        assert record.read(tmp_path / data["save"]).seats == ["human", "greedy", "human"]
        token = data["links"][1]["url"].rsplit("/", 1)[1]
        assert client.get(f"/api/seat/{token}").json()["seat"] == 3
        again = client.post("/api/games", json={
            "ruleset": "golf6", "players": 2, "seats": ["human", "human"], "seed": 7})
        assert again.json()["save"] == "golf6-2.cardrules-save"
        # no seed asked for: one nobody can guess (a seed deals every hidden card), never
        # sent to a page (nor in the file's name)
        secret = client.post("/api/games", json={"ruleset": "golf6", "players": 2,
                                                 "seats": ["human", "human"]})
        assert secret.status_code == 200 and secret.json()["save"] == "golf6-3.cardrules-save"
        seed = hub.games[secret.json()["game"]].record.seed
        assert str(seed) not in secret.text and 0 <= seed < 2**53
        token = secret.json()["links"][0]["url"].rsplit("/", 1)[1]
        assert str(seed) not in client.get(f"/api/seat/{token}").text
        # a seed given deals a game whoever knows it can know: every seat is told so
        told = [n["text"] for n in client.get(f"/api/seat/{token}").json()["news"]]
        assert not any("dealt from a seed given" in t for t in told)
        for link in again.json()["links"]:
            token = link["url"].rsplit("/", 1)[1]
            told = [n["text"] for n in client.get(f"/api/seat/{token}").json()["news"]]
            assert any("dealt from a seed given" in t for t in told), told


@pytest.mark.parametrize(("body", "status", "cause"), [
    ("not json", 400, "not JSON"),
    ([1, 2], 400, "expected a ruleset"),
    ({"ruleset": "golf7", "players": 2, "seats": ["human", "human"]}, 400, "pick one"),
    ({"ruleset": "golf6", "players": 2, "seats": ["human"]}, 400, "one kind for each seat"),
    ({"ruleset": "golf6", "players": 2, "seats": ["human", "wizard"]}, 400,
     "unknown seat kind 'wizard'"),
    ({"ruleset": "golf6", "players": 2, "seats": ["human", "cmd:touch PWNED"]}, 400,
     "a program (cmd:) can be seated only from the command line"),
    ({"ruleset": "golf6", "players": 2, "seats": ["random", "random"]}, 400,
     "at least one seat for a person"),
    ({"ruleset": "golf6", "players": 9, "seats": ["human"] * 9}, 400, "2 to 8 players"),
    ({"ruleset": "golf6", "players": 2, "seats": ["human", "human"],
      "options": {"rounds": "many"}}, 400, "rounds"),
    ({"ruleset": "golf6", "players": 2, "seats": ["human", "human"], "options": [1]}, 400,
     "options are names with values"),
    ({"ruleset": "golf6", "players": 2, "seats": ["human", "human"], "options": 0}, 400,
     "options are names with values"),
    ({"ruleset": "golf6", "players": 2, "seats": ["human", "human"], "options": []}, 400,
     "options are names with values"),
    ({"ruleset": "golf6", "players": 2, "seats": ["human", "human"], "seed": -1}, 400,
     "a seed is a whole number"),
    ({"ruleset": "golf6", "players": 2, "seats": ["human", "human"], "pad": "x" * 20000},
     413, "at most 16384 bytes"),
])
def test_the_lobby_refuses_a_game_it_cannot_start(body: Any, status: int, cause: str) -> None:
    with served() as (client, hub):
        content = body if isinstance(body, str) else json.dumps(body)
        answer = client.post("/api/games", content=content,
                             headers={"content-type": "application/json"})
        assert answer.status_code == status, answer.text
        assert cause in answer.json()["error"]
        assert not hub.games


def test_a_table_the_ruleset_cannot_seat_is_refused_before_its_options_are_compiled(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A server compiles a ruleset for each set of options asked for: a request it refuses
    for its table size compiles nothing (`load_ruleset` is not asked for those options)."""
    from cardrules.dsl import loader

    with served() as (client, hub):
        asked: list[Any] = []
        real = loader._compiled

        def compiled(doc: Any, options: Any) -> Any:
            asked.append(options)
            return real(doc, options)

        monkeypatch.setattr(loader, "_compiled", compiled)
        answer = client.post("/api/games", json={
            "ruleset": "spades", "players": 1, "seats": ["human"],
            "options": {"target": "5001"}})
        assert answer.status_code == 400 and "4 to 4 players" in answer.json()["error"]
        assert all(not options for options in asked), asked
        assert not hub.games


def test_a_body_without_a_length_is_limited_too() -> None:
    game = Game.new("golf6", {}, 2, 1, None)
    with served(game) as (client, _):
        chunks = (b"x" * 4096 for _ in range(8))
        answer = client.post(f"{seat_url(game, 0)}/move", content=chunks,
                             headers={"content-type": "application/json"})
        assert answer.status_code == 413


def test_a_rule_failing_while_a_seat_is_answered_is_told_where_it_is(tmp_path: Path) -> None:
    """A label's value that cannot be worked out fails while the seat's choices are made: the
    page is told the rule's located message, not a bare server error."""
    source = (Path(__file__).parent / "games" / "ferry.yaml").read_text(encoding="utf-8")
    path = tmp_path / "ferry.yaml"
    path.write_text(source.replace("{card.worth}\"", "{card.worth / 0}\""), encoding="utf-8")
    game = Game.new(str(path), {}, 2, 3, None)
    with served(game) as (client, _):
        state = client.get(seat_url(game, 0)).json()  # the ferry first: no value to show
        land = next(c for c in state["choices"] if c["text"] == "Land the ferry")
        client.post(f"{seat_url(game, 0)}/move", json={"version": state["version"],
                                                       "index": land["index"]})
        answer = client.get(seat_url(game, 0))  # then laying a card, whose label fails
    assert answer.status_code == 500
    error = answer.json()["error"]
    assert error.startswith("the game cannot go on: ") and "ferry.yaml:" in error, error
    assert "in the label of move 'lay': card.worth / 0" in error, error



def test_an_action_past_its_work_budget_is_told_where_it_stopped(tmp_path: Path) -> None:
    """A move whose loops pass the action's budget of work (tests/test_work.py): the page
    is told the located fault, and the server goes on answering. (A second move: a lone
    one would be played for the person alone at the table as the game starts, and fail
    there.)"""
    text = (Path(__file__).parent / "data" / "looped.yaml").read_text(encoding="utf-8")
    path = tmp_path / "looped.yaml"
    path.write_text(text.replace("                - end game\n",
                                 "                - end game\n"
                                 "            - {name: stop, do: [end game]}\n"),
                    encoding="utf-8")
    with pytest.raises(GameError, match="this action's work passes 10,000,000 steps"):
        Game.new(str(Path(__file__).parent / "data" / "looped.yaml"), {}, 2, 1,
                 ["human", "random"])
    game = Game.new(str(path), {}, 2, 1, None)
    with served(game) as (client, _):
        state = client.get(seat_url(game, 0)).json()
        go = next(c for c in state["choices"] if c["move"] == "go")
        moved = client.post(f"{seat_url(game, 0)}/move", json={"version": state["version"],
                                                               "index": go["index"]})
        answer = client.get(seat_url(game, 0))
    error = moved.json().get("error") or answer.json().get("error")
    assert error is not None, (moved.text, answer.text)
    assert "looped.yaml:" in error and "this action's work passes 10,000,000 steps" in error, \
        error


# ----------------------------------------------------------------- refusals
def test_wrong_tokens_and_illegal_moves_are_refused_and_change_nothing() -> None:
    game = Game.new("precognition", {"playoff_limit": "1"}, 2, 2, None)
    with served(game) as (client, _):
        before = (game.state.to_json(), list(game.record.actions), game.version)
        me, other = seat_url(game, 0), seat_url(game, 1)
        first = client.get(me).json()
        predict = next(c for c in first["choices"] if c["texts"])
        assert predict["texts"] == [{"at": 1, "name": "prediction",
                                     "about": "a text of 1 to 51 letters from U, D, S"}]
        attempts = [
            ("/api/seat/nobody/move", {"version": 0, "index": 0}, 404, "no seat has this link"),
            (f"/api/seat/{game.tokens[0]}x/move", {"version": 0, "index": 0}, 404, "no seat"),
            (f"{other}/move", {"version": 0, "index": 0}, 409, "seat 1's move, not yours"),
            (f"{me}/move", {"version": 5, "index": 0}, 409, "moved on"),
            (f"{me}/move", {"version": "0", "index": 0}, 400, "whole number"),
            (f"{me}/move", {"version": 0, "index": 99}, 400, "no such choice"),
            (f"{me}/move", {"version": 0, "index": True}, 400, "no such choice"),
            (f"{me}/move", [0, 0], 400, "expected"),
            (f"{me}/move", {"version": 0, "index": predict["index"], "texts": {"1": "UDX"}},
             400, "'X' is not allowed: use only U, D, S"),
            (f"{me}/move", {"version": 0, "index": predict["index"], "texts": {"1": ""}},
             400, "empty: write at least one letter"),
            (f"{me}/move", {"version": 0, "index": predict["index"], "texts": {"1": "U" * 60}},
             400, "60 letters: write between 1 and 51"),
            (f"{me}/move", {"version": 0, "index": predict["index"]}, 400, "empty"),
        ]
        for url, body, status, cause in attempts:
            answer = client.post(url, json=body)
            assert answer.status_code == status, (url, body, answer.text)
            assert cause in answer.json()["error"], (cause, answer.text)
            assert (game.state.to_json(), game.record.actions, game.version) == before
        for url in ("/api/seat/nobody", "/api/seat/nobody/events"):
            assert client.get(url).status_code == 404
        # Letters in the other case are taken, as at the terminal.
        answer = client.post(f"{me}/move", json={"version": 0, "index": predict["index"],
                                                 "texts": {"1": " udu "}})
        assert answer.status_code == 200 and answer.json() == {"version": 1}
        assert game.record.actions == [["predict", "UDU"]]
        payload = client.get(other).json()
        assert [n["text"] for n in payload["news"]] == ["seat 1 predicts (written, not shown)"]
        assert payload["view"]["player_variables"]["prediction"] == [None, ""]


def test_a_finished_game_takes_no_more_moves() -> None:
    game = Game.new("golf6-quick", {"rounds": "1"}, 2, 3, ["human", "random"])
    bot = make_bot("random", 3, 0)
    while not game.state.over:
        seat = game.to_move()
        assert seat is not None
        chooser = game.bots[seat] or bot
        game.play(seat, chooser.choose(game.engine, game.state, game.legal()))
    with served(game) as (client, _):
        payload = client.get(seat_url(game, 0)).json()
        assert payload["results"]["over"] and payload["choices"] == []
        answer = client.post(f"{seat_url(game, 0)}/move",
                             json={"version": game.version, "index": 0})
        assert answer.status_code == 409 and answer.json()["error"] == "the game is over"


# ----------------------------------------------------------------- whole games
def play_over_the_api(client: TestClient, game: Game, seed: int, limit: int,
                      check: bool) -> int:
    """Play `game` (every seat a person's) over the API, each person's choice made by a
    seeded random bot; with `check`, every seat's payload is checked at every step and
    the news as it is written (and the end, if it comes). Returns the number of actions
    played."""
    names = game.engine.rules.cards.names
    choosers = [make_bot("random", seed, seat) for seat in range(game.state.n)]
    # the game replayed beside, to learn what each seat knew as each round ended
    at_end: list[list[set[str]]] = []
    beside = Engine(game.engine.rules, watch_round=lambda s: at_end.append(
        [known(s, names, p) for p in range(s.n)]))
    played = 0
    while not game.state.over and played < limit:
        if check:  # over the wire every third action (a request costs ~10 ms)
            check_payloads(client if played % 3 == 0 else None, game)
        seat = game.to_move()
        assert seat is not None
        legal = game.legal()
        action = choosers[seat].choose(game.engine, game.state, legal)
        before, done = game.state.copy(), len(game.record.actions)
        news, rounds = len(game.news), len(at_end)
        answer = client.post(f"{seat_url(game, seat)}/move",
                             json={"version": game.version, **request_for(game, seat, action)})
        assert answer.status_code == 200, answer.text
        # each seat's news names what the seat knew before an action or once it was done,
        # of the action and of any only choice played for a person after it
        told = [set[str]() for _ in range(game.state.n)]
        for data in game.record.actions[done:]:
            now = find_action(game.engine, before, data)
            mover = game.engine.to_move(before)
            assert mover is not None
            moved = applied(game.engine.rules, before, mover, now) or before
            for p in range(game.state.n):
                told[p] |= known(before, names, p) | known(moved, names, p)
            beside.apply(before, now)
        played += len(game.record.actions) - done - 1
        if check:
            for p in range(game.state.n):
                lines = [line if isinstance(line, str) else line[p]
                         for line in game.news[news:]]
                assert card_names(names, lines) <= told[p] | known(game.state, names, p), \
                    lines
            # a round's account, written as the round ends, names only cards its seat knew
            # then
            ended = at_end[rounds:]
            assert len(ended) <= ACCOUNTS_KEPT
            for each, knew in zip(game.accounts[len(game.accounts) - len(ended):], ended):
                for p, account in enumerate(each):
                    assert card_names(names, account.to_data()) <= knew[p], account.to_data()
        played += 1
    if check and game.state.over:
        check_payloads(client, game)
    return played


@pytest.mark.parametrize("name", builtin_names())
def test_no_payload_names_a_card_its_seat_does_not_know(name: str) -> None:
    rules = load_ruleset(name)
    players = max(rules.min_players, min(rules.max_players, 3))
    played, seed = 0, 5
    with served() as (client, hub):
        # a game plays 2 actions at least (a hand of Kuhn poker); random accusations end
        # geohash early
        while played < ACTIONS and seed < 5 + ACTIONS // 2:
            game = Game.new(name, {}, players, seed, None)
            hub.add(game)
            played += play_over_the_api(client, game, seed, limit=ACTIONS - played,
                                        check=True)
            seed += 1
    assert played >= ACTIONS


def test_a_game_played_over_the_api_ends_as_in_the_engine(tmp_path: Path) -> None:
    """Two people and a bot over the wire, the people choosing as random bots of their
    seats would: the same results as the engine's game of three random bots."""
    seats = ["human", "random", "human"]
    game = Game.new("golf6-quick", {"rounds": "1"}, 3, 9, seats, save=tmp_path / "g.json")
    choosers = [make_bot("random", 9, seat) for seat in range(3)]
    with served(game) as (client, _):
        urls = [seat_url(game, seat) for seat in (0, 2)]

        def ready(payload: dict[str, Any]) -> bool:  # a person's move, or the end
            return bool(payload["choices"] or payload["results"]
                        or client.get(urls[1]).json()["choices"])

        while True:
            payload = wait_for(client, urls[0], ready)
            if payload["results"]:
                break
            seat = game.to_move()
            assert seat in (0, 2)
            legal = game.legal()
            action = choosers[seat].choose(game.engine, game.state, legal)
            answer = client.post(f"{seat_url(game, seat)}/move",
                                 json={"version": game.version, **request_for(game, seat, action)})
            assert answer.status_code == 200, answer.text
        results = payload["results"]
    engine = Engine(load_ruleset("golf6-quick", {"rounds": "1"}))
    assert results.pop("standings")[0] == "Standings after 1 round (lowest total wins)"
    assert results == engine.results(play_game(engine, 3, 9, ["random"] * 3))
    saved = record.read(tmp_path / "g.json")
    assert len(saved.actions) == results["actions"]
    resumed = Game.resume(tmp_path / "g.json")
    assert resumed.state.to_dict() == game.state.to_dict()
    assert resumed.tokens[0] != game.tokens[0]


def test_bots_wait_between_moves_but_not_to_pass() -> None:
    game = Game.new("golf6", {"rounds": "1"}, 2, 2, ["human", "random"])
    with served(game, delay=0.3) as (client, _):
        me = seat_url(game, 0)
        for _ in range(2):  # seat 1 turns two cards; then seat 2, a bot, turns two
            payload = client.get(me).json()
            began = time.monotonic()  # (before the move: the bot's wait cannot start earlier)
            client.post(f"{me}/move", json={"version": payload["version"], "index": 0})
        payload = wait_for(client, me, lambda p: p["version"] >= 3)
        assert payload["version"] == 3 and time.monotonic() - began >= 0.25
        wait_for(client, me, lambda p: p["choices"])
    geohash = Game.new("geohash", {}, 3, 4, ["human", "greedy", "greedy"])
    with served(geohash, delay=5.0) as (client, _):
        me = seat_url(geohash, 0)
        payload = client.get(me).json()
        assert payload["react"]["label"] == "Name the hidden cards"
        assert payload["react"]["offered"] and not payload["react"]["stop"]
        ask = next(c for c in payload["choices"] if c["move"] == "ask")
        began = time.monotonic()
        client.post(f"{me}/move", json={"version": 0, "index": ask["index"]})
        # Both bots let the reaction window go by (greedy never accuses on a hunch) without
        # the 5 s wait between moves (weighing 1,326 accusations takes each a fraction of a
        # second); the asker's own chance to react goes by for them, unasked; then comes
        # their second ask.
        after = wait_for(client, me, lambda p: p["choices"], timeout=4.5)
        assert not after["reaction"] and time.monotonic() - began < 4.0
        assert after["version"] == 4 and geohash.record.actions[1:] == [["pass"]] * 3
        # Stopping at every chance to react: the next window waits for the asker.
        answer = client.post(f"{me}/react", json={"stop": True})
        assert answer.status_code == 200 and answer.json() == {"want": False, "stop": True}
        payload = client.get(me).json()
        ask = next(c for c in payload["choices"] if c["move"] == "ask")
        client.post(f"{me}/move", json={"version": payload["version"], "index": ask["index"]})
        after = wait_for(client, me, lambda p: p["choices"], timeout=4.5)
        assert after["reaction"] and after["react"]["open"]
        passing = [c for c in after["choices"] if c["pass"]]
        assert len(passing) == 1 and passing[0]["text"] == "Pass: let this chance go by"


def test_a_game_that_cannot_be_saved_is_said_once_and_goes_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = Game.new("golf6", {}, 2, 1, None, save=tmp_path / "gone" / "game.json")
    with served(game) as (client, _):
        for version in range(3):
            answer = client.post(f"{seat_url(game, game.to_move() or 0)}/move",
                                 json={"version": version, "index": 0})
            assert answer.status_code == 200
    err = capsys.readouterr().err
    assert err.count("warning: cannot save the game to") == 1, err


# ----------------------------------------------------------------- live updates
def events(stream: Any) -> Iterator[dict[str, Any]]:
    for line in stream.iter_lines():
        if line.startswith("data: "):
            yield json.loads(line[6:])


def test_every_seat_sees_moves_as_they_happen_and_gets_its_seat_back() -> None:
    game = Game.new("golf6", {}, 2, 4, None)
    with served(game) as (client, _):
        with client.stream("GET", f"{seat_url(game, 1)}/events") as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            seen = events(stream)
            first = next(seen)
            assert first["table"]["title"] == "6-card Golf" and first["version"] == 0
            assert first["choices"] == [] and first["view"]["to_move"] == 1
            first_zone = first["table"]["zones"][2]
            assert first_zone["layout"] == "grid" and first_zone["columns"] == 3
            mine = client.get(seat_url(game, 0)).json()
            client.post(f"{seat_url(game, 0)}/move", json={"version": 0, "index": 0})
            update = next(seen)
            assert update["version"] == 1 and "table" not in update
            told = update["news"][-1]
            assert told["text"].startswith("seat 1 turns the face-down card of seat 1's grid")
            assert " face up - it was " in told["text"]  # (turned: the line says it once)
            assert told["then"] == []
            assert mine["choices"][0]["cards"] == [["grid", "1", None, 0]]
        with client.stream("GET", f"{seat_url(game, 1)}/events") as stream:
            again = next(events(stream))  # a page that reconnects: the seat as it is now
            assert again["version"] == 1 and again["table"]["name"] == "golf6"


# ------------------------------------------------------------------ the command
def cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), prog_name="cardrules")
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def no_serving(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """`cardrules serve` up to the point of serving: the app it would serve is kept."""
    import uvicorn
    apps: list[Any] = []
    monkeypatch.setattr(uvicorn.Server, "run",
                        lambda self, sockets=None: apps.append(self.config.app))
    return apps


def test_serve_prints_a_link_per_person_and_saves(tmp_path: Path, no_serving: list[Any],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = cli("serve", "golf6", "-p", "3", "--seats", "human,greedy,human",
                         "--seed", "5", "--port", "0")
    assert code == 0, err
    lines = out.splitlines()
    links = [line for line in lines if line.startswith("seat ")]
    assert [line.split(":")[0] for line in links] == ["seat 1", "seat 3"]
    tokens = {line.rsplit("/", 1)[1] for line in links}
    assert len(tokens) == 2 and all(len(t) >= 32 for t in tokens)
    assert "http://127.0.0.1:" in links[0] and "warning" not in out
    assert "saved to" in lines[0] and (tmp_path / "golf6.cardrules-save").is_file()
    assert "seed 5," in lines[0]  # (given on the command line: the person knows it)
    assert len(no_serving) == 1
    [game] = no_serving[0].state.hub.games.values()  # and every seat is told it was given
    assert any("dealt from a seed given" in entry for entry in game.news
               if isinstance(entry, str))
    code, out, err = cli("serve", "--resume", "golf6.cardrules-save", "--port", "0",
                         "--host", "0.0.0.0")
    assert code == 0, err
    assert "resumed from golf6.cardrules-save after 0 actions" in out
    assert "seed shown at the end" in out and "seed 5" not in out
    assert "warning: listening on 0.0.0.0, not only on this machine" in out
    assert not tokens & {line.rsplit("/", 1)[1] for line in out.splitlines()
                         if line.startswith("seat ")}


@pytest.mark.parametrize(("args", "code", "cause"), [
    (["serve", "golf6", "-p", "2", "--seats", "human,robot"], 2, "unknown seat kind 'robot'"),
    (["serve", "golf6", "--seats", "random,random,random,random"], 2,
     "at least one seat for a person"),
    (["serve", "golf6", "--resume", "x"], 2, "not both"),
    (["serve", "--resume", "missing.json"], 3, "cannot read the saved game"),
    (["serve", "golf6", "-p", "9"], 2, "2 to 8 players"),
    (["serve", "golf7"], 1, "golf7"),
    (["serve", "golf6", "--save", ""], 2, "expected a file name, got an empty text"),
    (["serve", "--resume", ""], 2, "expected a file name, got an empty text"),
    (["serve", "golf6", "--save-dir", ""], 2, "expected a folder name, got an empty text"),
    (["serve", "golf6", "--save-dir", "d" * 300], 2, "cannot be used: File name too long"),
    (["serve", "golf6", "--seats", ""], 2, "expected one kind for each seat"),
])
def test_serve_refuses_what_it_cannot_do(tmp_path: Path, no_serving: list[Any],
                                         monkeypatch: pytest.MonkeyPatch, args: list[str],
                                         code: int, cause: str) -> None:
    monkeypatch.chdir(tmp_path)
    got, out, err = cli(*args)
    assert got == code and cause in err, (got, out, err)
    assert "Traceback" not in out + err and not no_serving


def test_serve_refuses_a_rule_file_a_save_could_not_name(
        tmp_path: Path, no_serving: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """A served game is saved after every action, and a save names a built-in ruleset or a
    rule file whose name ends in .yaml or .yml: another file is refused before serving."""
    monkeypatch.chdir(tmp_path)
    rules = Path(load_ruleset("kuhn-poker").path).read_text(encoding="utf-8")
    (tmp_path / "mykuhn").write_text(rules, encoding="utf-8")
    code, out, err = cli("serve", "./mykuhn", "--port", "0")
    assert code == 2 and "Invalid value for RULESET: a game in the browser is saved, and a " \
        "save of this one could never be resumed" in " ".join(err.split()), err
    assert "ends in .yaml or .yml" in err and not no_serving
    assert [p.name for p in tmp_path.iterdir()] == ["mykuhn"]


def test_serve_never_saves_over_a_file_that_is_not_a_save_of_its_game(
        tmp_path: Path, no_serving: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("mine\n", encoding="utf-8")
    code, out, err = cli("serve", "golf6", "--save", "notes.txt", "--port", "0")
    assert code == 2 and "will not write over notes.txt: not a cardrules saved game" in err
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine\n" and not no_serving
    assert cli("serve", "golf6", "-p", "2", "--port", "0")[0] == 0
    code, out, err = cli("serve", "--resume", "golf6.cardrules-save", "--save", "notes.txt",
                         "--port", "0")
    assert code == 2 and "will not write over notes.txt" in err and "resumed" not in out


def test_serve_refuses_a_busy_port_and_says_how_to_install_the_web_extra(
        no_serving: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    listener = serve_cli.listen("127.0.0.1", 0)
    port = str(listener.getsockname()[1])
    try:
        code, _, err = cli("serve", "--port", port)
    finally:
        listener.close()
    assert code == 3 and err.startswith(f"error: cannot listen on 127.0.0.1 port {port}")
    monkeypatch.setattr(serve_cli, "web_installed", lambda: False)
    code, _, err = cli("serve", "golf6")
    assert code == 2 and "pip install 'cardrules[web]'" in err


def test_serve_that_cannot_listen_leaves_no_save(
        tmp_path: Path, no_serving: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    listener = serve_cli.listen("127.0.0.1", 0)
    port = str(listener.getsockname()[1])
    try:
        for _ in range(2):  # a retry adds none either
            code, out, err = cli("serve", "golf6", "-p", "2", "--port", port)
            assert code == 3 and "cannot listen on" in err and "saved to" not in out
            code, _, err = cli("serve", "golf6", "--port", "0", "--host", "256.1.1.1",
                               "--save", "named.cardrules-save")
            assert code == 3 and "cannot listen on 256.1.1.1" in err
            for host in ("a..b", "a" * 70):  # (no DNS label is empty, or past 63 letters)
                code, _, err = cli("serve", "golf6", "--port", "0", "--host", host)
                assert code == 3 and "not a host name" in err and "Traceback" not in err
    finally:
        listener.close()
    assert list(tmp_path.iterdir()) == [] and not no_serving


# ------------------------------------------------------------------ other sites
GOLF_GAME = {"ruleset": "golf6", "players": 2, "seats": ["human", "human"], "seed": 3}
FOREIGN = {"origin": "https://cards.example"}


def test_a_page_of_another_site_can_neither_start_nor_move_nor_read() -> None:
    game = Game.new("golf6", {}, 2, 1, None)
    with served(game) as (client, hub):
        me = seat_url(game, 0)
        for headers in (FOREIGN, {"origin": "null"}, {"sec-fetch-site": "cross-site"},
                        {"sec-fetch-site": "same-site"},
                        {"origin": "http://testserver.example"}):
            answer = client.post("/api/games", json=GOLF_GAME, headers=headers)
            assert answer.status_code == 403, (headers, answer.text)
            assert "another site" in answer.json()["error"]
            answer = client.post(f"{me}/move", json={"version": 0, "index": 0},
                                 headers=headers)
            assert answer.status_code == 403, (headers, answer.text)
            for url in ("/api/rulesets", me, f"{me}/events"):
                assert client.get(url, headers=headers).status_code == 403, (headers, url)
            # A seat's link opens from anywhere (it is sent by chat or mail): only the API
            # it calls is the server's own.
            assert client.get(f"/seat/{game.tokens[0]}", headers=headers).status_code == 200
        assert list(hub.games) == [game.id] and game.version == 0
        # A form or a text/plain post needs no permission from the browser: refused too.
        for content_type in ("text/plain", "application/x-www-form-urlencoded",
                             "multipart/form-data; boundary=x", None):
            headers = {"content-type": content_type} if content_type else {}
            for url, body in (("/api/games", json.dumps(GOLF_GAME)),
                              (f"{me}/move", '{"version": 0, "index": 0}')):
                answer = client.post(url, content=body, headers=headers)
                assert answer.status_code == 415, (content_type, answer.text)
                assert "Content-Type: application/json" in answer.json()["error"]
                answer = client.post(url, content=body, headers={**headers, **FOREIGN})
                assert answer.status_code == 403
        assert list(hub.games) == [game.id] and game.version == 0
        # No answer lets another site read it: no CORS header, even to a preflight.
        preflight = client.options("/api/games", headers={
            **FOREIGN, "access-control-request-method": "POST",
            "access-control-request-headers": "content-type"})
        assert preflight.status_code == 403
        for answer in (preflight, client.get("/api/rulesets", headers=FOREIGN),
                       client.get(me)):
            assert not any(h.startswith("access-control-") for h in answer.headers)
        # The server's own pages: same origin, or typed into the address bar.
        same = {"origin": "http://testserver", "sec-fetch-site": "same-origin"}
        assert client.get(me, headers={"sec-fetch-site": "none"}).status_code == 200
        answer = client.post(f"{me}/move", json={"version": 0, "index": 0}, headers=same)
        assert answer.status_code == 200 and game.version == 1
        answer = client.post("/api/games", json=GOLF_GAME,
                             headers={"content-type": "application/json; charset=utf-8",
                                      **same})
        assert answer.status_code == 200 and len(hub.games) == 2


def test_the_server_answers_only_to_its_own_names() -> None:
    """A site whose name is pointed at 127.0.0.1 (DNS rebinding) is its own origin: the
    Host it sends is refused."""
    game = Game.new("golf6", {}, 2, 1, None)
    hosts = server.allowed_hosts("127.0.0.1")
    assert hosts == {"127.0.0.1", "localhost", "::1"}
    assert server.allowed_hosts("0.0.0.0") is None and server.allowed_hosts("::") is None
    assert server.allowed_hosts("192.168.1.5") == hosts | {"192.168.1.5"}
    with served(game, base_url="http://cards.example:8000", hosts=hosts) as (client, hub):
        for url in ("/", "/api/rulesets", seat_url(game, 0)):
            answer = client.get(url, headers={"origin": "http://cards.example:8000"})
            assert answer.status_code == 400
            assert answer.json()["error"] == ("this server answers only to requests for "
                                              "127.0.0.1, ::1, localhost")
        assert client.post("/api/games", json=GOLF_GAME).status_code == 400
        assert list(hub.games) == [game.id]
        for host in ("localhost:8000", "127.0.0.1:8000", "[::1]:8000", "LOCALHOST"):
            assert client.get(seat_url(game, 0), headers={"host": host}).status_code == 200


# ------------------------------------------------------------------- the lobby's bots
def test_the_lobby_offers_the_built_in_bots_with_their_caps() -> None:
    with served() as (client, _):
        data = client.get("/api/rulesets").json()
    assert data["kinds"] == ["human", "random", "greedy", "ismcts"]
    assert data["bots"] == [
        {"kind": "random", "budget": None, "max": None},
        {"kind": "greedy", "budget": "samples", "max": server.LOBBY_BUDGETS["greedy"]},
        {"kind": "ismcts", "budget": "iterations", "max": server.LOBBY_BUDGETS["ismcts"]}]


@pytest.mark.parametrize(("kind", "cause"), [
    ("ismcts:11", "the lobby allows at most 10 iterations a decision"),
    ("greedy:33", "the lobby allows at most 32 samples a decision"),
    ("ismcts:0.5s", "the lobby takes budgets in work, not time: ismcts:N, N iterations a "
                    "decision, up to 10"),
    ("ismcts:3600s", "not time"),
    ("random:5", "seat kind 'random' takes no budget"),
    ("greedy:0", "a whole number from 1"),
    ("cmd[timeout=1]:python bot.py", "only from the command line"),
    (7, "a seat is 'human' or a bot kind"),
])
def test_the_lobby_refuses_a_bot_over_its_cap(kind: Any, cause: str) -> None:
    with served() as (client, hub):
        answer = client.post("/api/games", json={**GOLF_GAME, "seats": ["human", kind]})
        assert answer.status_code == 400 and cause in answer.json()["error"], answer.text
        assert not hub.games


def test_the_lobby_takes_a_bot_at_its_cap() -> None:
    with served() as (client, hub):
        for kind in ("ismcts:10", "greedy:32", "greedy:1", "ismcts"):
            answer = client.post("/api/games", json={**GOLF_GAME, "seats": ["human", kind]})
            assert answer.status_code == 200, answer.text
            assert hub.games[answer.json()["game"]].seats == ["human", kind]


# -------------------------------------------------------------------- bots think apart
class Blocking:
    """A bot that thinks until the test lets it go: it holds a worker as long as needed."""

    name = "blocking"

    def __init__(self, release: threading.Event, started: threading.Semaphore):
        self.release = release
        self.started = started

    def choose(self, engine: Engine, state: GameState, legal: list[Action]) -> Action:
        self.started.release()
        assert self.release.wait(30), "the test never let the bot go"
        return legal[0]


def bot_game(seed: int, bot: Any = None) -> Game:
    """golf6 for a bot (seat 1, first to move) and a person; `bot` in place of random."""
    game = Game.new("golf6", {"rounds": "1"}, 2, seed, ["random", "human"])
    if bot is not None:
        game.bots[0] = bot
    return game


def test_a_request_is_answered_while_every_bot_worker_is_busy() -> None:
    release, started = threading.Event(), threading.Semaphore(0)
    stuck = [bot_game(seed, Blocking(release, started)) for seed in range(3)]
    waiting = bot_game(7)  # a random bot: short, but every worker is taken
    people = Game.new("golf6", {}, 2, 8, None)
    try:
        with served(*stuck, waiting, people, workers=2) as (client, hub):
            for _ in range(2):
                assert started.acquire(timeout=10), "the bots never started thinking"
            assert hub.pool.busy == 2 and not hub.pool.jobs.empty()
            assert client.get("/api/rulesets").status_code == 200
            answer = client.post(f"{seat_url(people, 0)}/move", json={"version": 0, "index": 0})
            assert answer.status_code == 200 and people.version == 1
            # A person's request to a game whose bot is thinking is answered at once too.
            answer = client.post(f"{seat_url(stuck[0], 1)}/move",
                                 json={"version": 0, "index": 0})
            assert answer.status_code == 409 and "seat 1's move" in answer.json()["error"]
            assert [g.version for g in (*stuck, waiting)] == [0, 0, 0, 0]
            release.set()
            for game in (*stuck, waiting):
                payload = wait_for(client, seat_url(game, 1), lambda p: p["version"] >= 2)
                assert payload["version"] >= 2
    finally:
        release.set()


def test_the_command_lines_game_thinks_apart_from_the_lobbys() -> None:
    """However long the command line's seats think (ismcts:3600s, a program), the lobby's
    games go on: its game has a thread of its own."""
    release, started = threading.Event(), threading.Semaphore(0)
    own = bot_game(1, Blocking(release, started))
    lobby = bot_game(2)
    try:
        with served(workers=1) as (client, hub):
            hub.add(own, pinned=True)
            assert started.acquire(timeout=10)
            hub.add(lobby)
            payload = wait_for(client, seat_url(lobby, 1), lambda p: p["version"] >= 2)
            assert payload["version"] >= 2 and own.version == 0
    finally:
        release.set()


class Forfeiting:
    """A program seat that answers badly: it forfeits, and is stopped when the game ends."""

    name = "program"

    def __init__(self) -> None:
        self.finished: list[bool] = []

    def choose(self, engine: Engine, state: GameState, legal: list[Action]) -> Action:
        raise Forfeit(0, "cannot start the program: no file /home/someone/bots/mine.py")

    def finish(self, engine: Engine, state: GameState) -> None:
        self.finished.append(state.over)

    def stop(self) -> None:
        self.finished.append(False)


def test_a_program_that_forfeits_ends_its_game_and_is_stopped() -> None:
    program = Forfeiting()
    game = bot_game(4, program)
    with served(game) as (client, _):
        with client.stream("GET", f"{seat_url(game, 1)}/events") as stream:
            seen = events(stream)
            first = next(seen)
            after = first if first["results"] else next(seen)
        assert after["results"]["over"] and after["results"]["forfeited"] == [1]
        assert after["results"]["winners"] == [2] and after["choices"] == []
        assert after["news"][-1]["text"] == ("seat 1 forfeits the game: cannot start the "
                                             "program: no file mine.py")
        wait_for(client, seat_url(game, 1), lambda p: program.finished)
        assert program.finished == [True]
        answer = client.post(f"{seat_url(game, 1)}/move", json={"version": 1, "index": 0})
        assert answer.status_code == 409 and answer.json()["error"] == "the game is over"


# ---------------------------------------------------------------- games are freed
class Clock:
    """The time the server sees, moved on by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_abandoned_games_are_freed_and_their_places_taken(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server, "MAX_GAMES", 5)
    clock = Clock()
    with served(clock=clock) as (client, hub):
        started = [client.post("/api/games", json=GOLF_GAME).json() for _ in range(5)]
        full = client.post("/api/games", json=GOLF_GAME)
        assert full.status_code == 503
        assert full.json()["error"] == ("this server already plays 5 games: try again when "
                                        "one has ended")
        watched = started[0]["links"][0]["url"].rsplit("/", 1)[1]
        asked = started[1]["links"][0]["url"].rsplit("/", 1)[1]
        with client.stream("GET", f"/api/seat/{watched}/events") as stream:
            page = events(stream)  # (kept: a stream read no more is closed)
            next(page)  # a page is open on this game
            clock.now += server.ABANDONED_AFTER - 1
            assert client.get(f"/api/seat/{asked}").status_code == 200  # a request: kept
            assert client.post("/api/games", json=GOLF_GAME).status_code == 503
            clock.now += 1
            again = client.post("/api/games", json=GOLF_GAME)
            assert again.status_code == 200  # three abandoned games were freed
            assert set(hub.games) == {started[0]["game"], started[1]["game"],
                                      again.json()["game"]}
            clock.now += 10 * server.ABANDONED_AFTER
            assert hub.sweep() == [started[1]["game"], again.json()["game"]]
        assert client.get(f"/api/seat/{watched}").status_code == 200  # the page went now
        for link in started[2]["links"]:
            assert client.get(link["url"]).status_code == 404
        clock.now += server.ABANDONED_AFTER
        assert hub.sweep() == [started[0]["game"]] and not hub.games


def test_a_finished_game_is_kept_a_while_for_its_pages(tmp_path: Path) -> None:
    clock = Clock()
    game = Game.new("golf6-quick", {"rounds": "1"}, 2, 5, None)
    own = Game.new("golf6", {}, 2, 6, None)
    with served(game, clock=clock, save_dir=tmp_path) as (client, hub):
        hub.add(own, pinned=True)  # the command line's: kept while the server runs
        with client.stream("GET", f"{seat_url(game, 0)}/events") as stream:
            page = events(stream)
            next(page)
            play_over_the_api(client, game, 5, limit=10_000, check=False)
            assert game.state.over
            clock.now += server.KEEP_FINISHED - 1
            assert hub.sweep() == []
            assert client.get(seat_url(game, 1)).json()["results"]["over"]
            clock.now += 1
            assert hub.sweep() == [game.id]  # though a page is still open
        assert client.get(seat_url(game, 0)).status_code == 404
        clock.now += 100 * server.ABANDONED_AFTER
        assert hub.sweep() == [] and list(hub.games) == [own.id]


# ---------------------------------------------------------------------- saves
def test_a_save_is_written_only_for_a_game_accepted(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    saves = tmp_path / "saves"
    monkeypatch.setattr(server, "MAX_GAMES", 2)
    with served(save_dir=saves) as (client, hub):
        assert client.get("/api/rulesets").status_code == 200 and not saves.exists()
        assert client.post("/api/games", json={**GOLF_GAME, "seats": ["human", "robot"]}) \
            .status_code == 400
        assert not saves.exists()
        first = client.post("/api/games", json=GOLF_GAME).json()
        assert first["save"] == "golf6.cardrules-save"
        assert [p.name for p in saves.iterdir()] == [first["save"]]
        hub.add(Game.new("golf6", {}, 2, 4, None))
        refused = client.post("/api/games", json={**GOLF_GAME, "seed": 9})
        assert refused.status_code == 503
        assert [p.name for p in saves.iterdir()] == [first["save"]]


def test_the_lobby_stops_at_its_bound_on_saves(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server, "MAX_LOBBY_SAVES", 2)
    with served(save_dir=tmp_path) as (client, hub):
        for seed in (1, 2):
            assert client.post("/api/games", json={**GOLF_GAME, "seed": seed}) \
                .status_code == 200
        refused = client.post("/api/games", json={**GOLF_GAME, "seed": 3})
        assert refused.status_code == 503 and refused.json()["error"] == (
            "the server's save folder holds 2 saved games, as many as it takes: the person "
            "running the server may move or delete old saves")
        assert len(hub.games) == 2 and len(list(tmp_path.iterdir())) == 2
        (tmp_path / "golf6.cardrules-save").unlink()
        assert client.post("/api/games", json={**GOLF_GAME, "seed": 3}).status_code == 200


def test_a_save_folder_that_cannot_be_made_is_said_and_the_game_goes_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    with served(save_dir=blocked / "saves") as (client, hub):
        answer = client.post("/api/games", json=GOLF_GAME)
        assert answer.status_code == 200 and answer.json()["save"] is None
        assert len(hub.games) == 1
    assert "warning: cannot save the game to" in capsys.readouterr().err


def test_a_save_folder_whose_files_cannot_be_looked_for_is_said_and_the_game_goes_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A folder name too long to look in (so too one that may not be searched): the game
    is played unsaved, said on stderr, never an error of the server's with a game kept
    that nobody has a link to."""
    with served(save_dir=tmp_path / ("d" * 300)) as (client, hub):
        answer = client.post("/api/games", json=GOLF_GAME)
        assert answer.status_code == 200 and answer.json()["save"] is None
        assert answer.json()["links"] and len(hub.games) == 1
    err = capsys.readouterr().err
    assert "is not saved" in err and "Traceback" not in err


def test_no_text_sent_to_a_page_names_a_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    install = str(Path(server.__file__).parent.parent)
    assert server.public(f"{install}/rulesets/golf6.yaml:12:3: unknown zone 'x'") == \
        "golf6.yaml:12:3: unknown zone 'x'"
    assert server.public("cannot save the game to C:\\Users\\me\\g.cardrules-save: full") == \
        "cannot save the game to g.cardrules-save: full"
    assert server.public("'/home/me/bot.py' ended; 1/2 and U/D stay") == \
        "'bot.py' ended; 1/2 and U/D stay"
    game = Game.new("golf6", {}, 2, 1, None)

    def failing(seat: int, action: Action, chosen: bool = False) -> None:
        raise GameError(f"{install}/rulesets/golf6.yaml:40:9: division by zero")

    monkeypatch.setattr(game, "play", failing)
    with served(game) as (client, _):
        answer = client.post(f"{seat_url(game, 0)}/move", json={"version": 0, "index": 0})
    assert answer.status_code == 500
    assert answer.json()["error"] == "the game cannot go on: golf6.yaml:40:9: division by zero"


def test_serve_saves_the_lobbys_games_in_its_save_folder(
        tmp_path: Path, no_serving: list[Any], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = cli("serve", "--port", "0")
    assert code == 0, err
    hub = no_serving[0].state.hub
    assert hub.save_dir == Path("cardrules-saves") and not (tmp_path / "cardrules-saves").exists()
    assert hub.hosts == {"127.0.0.1", "localhost", "::1"}
    code, out, err = cli("serve", "golf6", "-p", "2", "--seats", "human,ismcts:0.5s", "--seed", "2",
                         "--save-dir", "elsewhere", "--port", "0", "--host", "0.0.0.0")
    assert code == 0, err
    hub = no_serving[1].state.hub
    assert hub.save_dir == Path("elsewhere") and hub.hosts is None
    (served_game,) = hub.served.values()
    assert served_game.pinned and served_game.game.seats == ["human", "ismcts:0.5s"]
    assert (tmp_path / "golf6.cardrules-save").is_file() and not (tmp_path / "elsewhere").exists()


# -------------------------------------------------- reactions, hints, take-backs
def test_with_several_people_a_chance_to_react_waits_a_bounded_time() -> None:
    """Two people and a bot at geohash: the person who stops at every chance to react is
    waited for `window_wait` seconds by the server's clock (moved on by the test, never
    slept through), then the chance goes by and they are told why; the other person's
    chances go by unasked."""
    clock = Clock()
    game = Game.new("geohash", {}, 3, 4, ["human", "human", "greedy"])
    with served(game, clock=clock, window_wait=30.0) as (client, hub):
        me, other = seat_url(game, 0), seat_url(game, 1)
        assert client.post(f"{other}/react", json={"stop": True}).status_code == 200
        payload = client.get(me).json()
        ask = next(c for c in payload["choices"] if c["move"] == "ask")
        client.post(f"{me}/move", json={"version": payload["version"], "index": ask["index"]})
        waiting = wait_for(client, other, lambda p: p["reaction"])
        assert waiting["react"]["open"] and waiting["react"]["left"] == 30.0
        assert "it goes by" not in waiting["news"][-1]["text"]
        clock.now += 29
        assert hub.loop is not None
        hub.loop.call_soon_threadsafe(hub.tick)
        assert client.get(other).json()["react"]["left"] == 1.0  # still waiting
        assert game.to_move() == 1
        clock.now += 1
        hub.loop.call_soon_threadsafe(hub.tick)
        after = wait_for(client, other, lambda p: not p["reaction"])
        assert not after["reaction"] and game.record.actions[-1] == ["pass"]
        assert any("your chance to react went by" in n["text"] for n in after["news"])
        assert not any("went by" in n["text"] for n in client.get(me).json()["news"])
        # the first person's own chance went by for them at once: their next ask is theirs
        mine = wait_for(client, me, lambda p: p["choices"])
        assert not mine["reaction"]


def test_how_a_seat_meets_reactions_is_its_own() -> None:
    """geohash, two people: the second asks to react at its next chance. The first's page
    is not woken, shows the same bytes, and a choice it was shown is still taken (the
    version it was sent with holds); asking again for what is already set changes nothing;
    the second's own page shows the control as it now is."""
    game = Game.new("geohash", {}, 3, 4, ["human", "human", "greedy"])
    with served(game) as (client, hub):
        me, other = seat_url(game, 0), seat_url(game, 1)
        before = client.get(me).content
        payload = json.loads(before)
        theirs = client.get(other).json()
        assert not theirs["react"]["wanted"]
        answer = client.post(f"{other}/react", json={"want": True})
        assert answer.status_code == 200 and answer.json()["want"] is True
        assert game.version == payload["version"] and game.redrawn == {1: 1}
        assert client.get(me).content == before
        assert client.get(other).json()["react"]["wanted"]
        for _ in range(3):  # already so: nothing to draw again
            assert client.post(f"{other}/react", json={"want": True}).status_code == 200
        assert game.redrawn == {1: 1}
        served_game = hub.served[game.id]
        assert 0 not in served_game.pages  # nobody woke the first seat's pages for it
        ask = next(c for c in payload["choices"] if c["move"] == "ask")
        answer = client.post(f"{me}/move", json={"version": payload["version"],
                                                  "index": ask["index"]})
        assert answer.status_code == 200, answer.text


def test_a_resumed_game_meets_reactions_as_each_person_asked(tmp_path: Path) -> None:
    """How a person meets chances to react is saved as it is set (before any move) and
    restored when the game resumes, so no window passes for them that they asked to see."""
    save = tmp_path / "gh.save"
    game = Game.new("geohash", {}, 3, 3, ["human", "human", "greedy"], save=save)
    game.write()
    with served(game) as (client, _):
        assert client.post(f"{seat_url(game, 1)}/react", json={"stop": True}).status_code \
            == 200
        assert client.post(f"{seat_url(game, 0)}/react", json={"want": True}).status_code \
            == 200
    assert json.loads(save.read_text(encoding="utf-8"))["reacting"] == [
        {"stop": False, "wanted": True}, {"stop": True, "wanted": False}, None]
    again = Game.resume(save)
    assert [(r.stop, r.wanted) for r in again.windows.seats.values()] == [(False, True),
                                                                         (True, False)]


def test_a_seat_has_a_few_event_streams_and_one_hint_at_a_time() -> None:
    """The fifth event stream of one seat, and a second hint asked for while the first is
    worked out, are refused: each costs the server work for every change."""
    game = Game.new("golf6", {"rounds": "1"}, 2, 5, ["human", "greedy"])
    with served(game) as (client, hub):
        me = seat_url(game, 0)
        kept = hub.served[game.id]
        kept.streams[0] = server.MAX_STREAMS
        answer = client.get(f"{me}/events")  # told in the stream, which a page reads
        assert answer.status_code == 200 and answer.text.startswith("event: refused\n")
        assert "pages open already" in json.loads(answer.text.split("data: ", 1)[1])["error"]
        kept.hinting.add(0)
        answer = client.post(f"{me}/hint", json={})
        assert answer.status_code == 429 and "being worked out" in answer.json()["error"]
        kept.hinting.clear()
        assert client.post(f"{me}/hint", json={}).status_code == 200
        assert kept.hinting == set()

    async def first_of(stream: Any) -> str:
        return str(await stream.__anext__())

    # a stream let in as the seat's fourth opens: refused in its first event
    hub = Hub()
    hub.add(game)
    kept = hub.served[game.id]
    kept.streams[0] = server.MAX_STREAMS
    event = asyncio.run(first_of(server.events(hub, kept, 0)))
    assert event.startswith("event: refused") and kept.streams[0] == server.MAX_STREAMS

    async def open_and_close() -> tuple[int, int]:  # a stream counts while it is open
        stream = server.events(hub, kept, 0)
        await stream.__anext__()
        during = kept.streams[0]
        await stream.aclose()
        return during, kept.streams[0]

    kept.streams[0] = 0
    assert asyncio.run(open_and_close()) == (1, 0) and kept.watchers == 0


def test_a_request_no_route_takes_is_refused_in_json_on_the_api() -> None:
    game = Game.new("golf6", {"rounds": "1"}, 2, 5, ["human", "greedy"])
    with served(game) as (client, _):
        answer = client.get("/api/nothing")
        assert answer.status_code == 404 and answer.json() == {"error": "no such request"}
        answer = client.get(f"{seat_url(game, 0)}/hint")
        assert answer.status_code == 405
        assert answer.json() == {"error": "GET is not answered here: POST is"}
        answer = client.get("/nothing")
        assert answer.status_code == 404 and answer.text == "Not found.\n"


def test_a_request_cut_off_or_holding_no_text_is_refused_quietly(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A lone surrogate is valid JSON but not text: refused (400, said in JSON) before it
    reaches a game or an answer quoting it; a body cut off before its end is refused
    without a traceback, and one that takes too long to arrive is refused (408)."""
    game = Game.new("precognition", {}, 3, 1, ["human", "greedy", "greedy"])
    with served(game) as (client, _):
        bodies = [("/api/games", '{"ruleset": "golf6", "seats": ["human", "greedy:\\udc80"]}'),
                  ("/api/games", '{"ruleset": "golf6", "options": {"rounds": "\\udc80"}}'),
                  (f"{seat_url(game, 0)}/hint", '{"bot": "\\udc80"}'),
                  (f"{seat_url(game, 0)}/move", '{"version": 0, "index": 0, '
                                                '"texts": {"1": "U\\udc80"}}')]
        for url, body in bodies:
            answer = client.post(url, content=body.encode(),
                                 headers={"content-type": "application/json"})
            assert answer.status_code == 400, (url, answer.text)
            assert "lone surrogates" in answer.json()["error"]
        assert game.version == 0

    async def cut_off() -> dict[str, Any]:
        return {"type": "http.disconnect"}

    request = Request({"type": "http", "method": "POST", "headers": [], "path": "/"},
                      cut_off)
    with pytest.raises(server.Refused, match="cut off"):
        asyncio.run(server.read_json(request))

    async def slowly() -> dict[str, Any]:  # a byte now and then, never the end
        await asyncio.sleep(0.01)
        return {"type": "http.request", "body": b" ", "more_body": True}

    monkeypatch.setattr(server, "BODY_WAIT", 0.2)
    request = Request({"type": "http", "method": "POST", "headers": [], "path": "/"}, slowly)
    with pytest.raises(server.Refused, match="took more than 0.2 seconds") as refused:
        asyncio.run(server.read_json(request))
    assert refused.value.status == 408


def test_a_hint_is_a_bots_pick_for_the_seats_own_decision_within_the_caps() -> None:
    game = Game.new("golf6", {"rounds": "1"}, 2, 5, ["human", "greedy"])
    with served(game) as (client, _):
        me = seat_url(game, 0)
        answer = client.post(f"{me}/hint", json={})
        assert answer.status_code == 200, answer.text
        hint = answer.json()
        choices = client.get(me).json()["choices"]
        assert hint["bot"] == "greedy" and hint["version"] == 0
        assert hint["pick"]["text"] == choices[hint["pick"]["index"]]["text"]
        assert len(hint["estimates"]) == 6 and all(e["words"] for e in hint["estimates"])
        assert client.post(f"{me}/hint", json={"bot": "ismcts:10"}).status_code == 200
        for body, status, cause in [
                ({"bot": "greedy:33"}, 400, "at most 32 samples"),
                ({"bot": "ismcts:1s"}, 400, "budgets in work, not time"),
                ({"bot": "random"}, 400, "'random' gives no hints"),
                ({"bot": "cmd:python x.py"}, 400, "from the command line"),
                ({"bot": 3}, 400, "expected {\"bot\""),
                ({"bot": "x" * 500}, 400, "expected {\"bot\""),
                ([], 400, "expected a JSON object")]:
            answer = client.post(f"{me}/hint", json=body)
            assert answer.status_code == status and cause in answer.json()["error"], answer.text
        assert game.version == 0 and game.record.actions == []
        client.post(f"{me}/move", json={"version": 0, "index": 0})  # the first of two
        answer = client.post(f"{me}/hint", json={})
        assert answer.status_code == 200 and answer.json()["version"] == 1
        assert len(answer.json()["estimates"]) == 5
    people = Game.new("golf6", {}, 2, 5, None)
    with served(people) as (client, _):
        answer = client.post(f"{seat_url(people, 1)}/hint", json={})
        assert answer.status_code == 409 and "not yours now" in answer.json()["error"]


def test_a_decision_is_taken_back_alone_against_bots_until_a_card_is_seen() -> None:
    game = Game.new("golf6", {"rounds": "1"}, 2, 5, ["human", "greedy"])
    for _ in range(4):  # both seats turn two cards
        seat = game.to_move()
        assert seat is not None
        game.play(seat, game.legal()[0], chosen=seat == 0)
    with served(game) as (client, _):
        me = seat_url(game, 0)
        first = payload = client.get(me).json()
        discard = next(c for c in payload["choices"] if "discard pile" in c["text"])
        before = game.state.to_json()
        client.post(f"{me}/move", json={"version": payload["version"],
                                         "index": discard["index"]})
        payload = client.get(me).json()
        assert payload["takeback"] and game.record.actions[-1] == ["take_discard"]
        for wrong in ("bogus", "take_back", "move2"):  # not a take-back: refused, nothing done
            answer = client.post(f"{me}/{wrong}", json={})
            assert answer.status_code == 404 and "take-back" in answer.json()["error"]
            assert game.record.actions[-1] == ["take_discard"]
        answer = client.post(f"{me}/takeback", json={})
        assert answer.status_code == 200, answer.text
        assert game.state.to_json() == before and len(game.record.actions) == 4
        again = client.get(me).json()  # the same decision, offered again
        assert [c["text"] for c in again["choices"]] == [c["text"] for c in first["choices"]]
        assert again["news"][-1]["text"] == "you take back: Take the top card of the discard " \
            "pile"
        # the stock's top card is seen once taken: that cannot be taken back
        stock = next(c for c in again["choices"] if "stock" in c["text"])
        client.post(f"{me}/move", json={"version": again["version"], "index": stock["index"]})
        assert not client.get(me).json()["takeback"]
        answer = client.post(f"{me}/takeback", json={})
        assert answer.status_code == 409 and "you have seen a card since" in \
            answer.json()["error"]
    people = Game.new("golf6", {}, 2, 5, None)
    with served(people) as (client, _):
        client.post(f"{seat_url(people, 0)}/move", json={"version": 0, "index": 0})
        answer = client.post(f"{seat_url(people, 0)}/takeback", json={})
        assert answer.status_code == 409 and "one person against bots" in answer.json()["error"]


def test_a_take_back_replays_the_game_in_the_games_threads(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Replaying a long game to take a decision back takes a while: it is done in the game's
    threads, never the server's loop, which answers every other page meanwhile."""
    game = Game.new("golf6", {"rounds": "1"}, 2, 5, ["human", "greedy"])
    for _ in range(4):
        seat = game.to_move()
        assert seat is not None
        game.play(seat, game.legal()[0], chosen=seat == 0)
    threads: list[str] = []
    replay = game.taken_back

    def taken_back(seat: int) -> Any:
        threads.append(threading.current_thread().name)
        return replay(seat)

    monkeypatch.setattr(game, "taken_back", taken_back)
    with served(game) as (client, _):
        me = seat_url(game, 0)
        payload = client.get(me).json()
        discard = next(c for c in payload["choices"] if "discard pile" in c["text"])
        before = game.state.to_json()
        client.post(f"{me}/move", json={"version": payload["version"],
                                         "index": discard["index"]})
        answer = client.post(f"{me}/takeback", json={})
        assert answer.status_code == 200, answer.text
        assert game.state.to_json() == before
    assert len(threads) == 1 and threads[0].startswith(("bots-", "game-")), threads


def test_a_decision_that_ended_the_game_is_not_taken_back() -> None:
    """hold'em, one hand: the person folds, which ends the game; its end shows the seed that
    dealt every card. Taking the fold back would open the game again to a person who knows
    the bot's cards and the stock: refused, and the page offers no take-back."""
    game = Game.new("holdem", {"hands": "1"}, 2, 3, ["human", "random"])
    while game.to_move() != 0 or ("fold",) not in game.legal():
        seat = game.to_move()
        assert seat is not None, "the game ended before the person could fold"
        bot = game.bots[seat]
        game.play(seat, bot.choose(game.engine, game.state, game.legal()) if bot else
                  game.legal()[0], chosen=bot is None)
    fold = ("fold",)
    game.play(0, fold, chosen=True)
    assert game.state.over
    refusal = game.takeback.refusal(game.state, 0, 1)
    assert refusal is not None and "the game is over" in refusal
    with served(game) as (client, _):
        me = seat_url(game, 0)
        assert not client.get(me).json()["takeback"]
        answer = client.post(f"{me}/takeback", json={})
        assert answer.status_code == 409 and "the game is over" in answer.json()["error"]
        assert game.state.over and game.record.actions[-1] == ["fold"]


def test_a_decision_is_not_taken_back_once_a_bot_has_answered_it() -> None:
    """kuhn-poker: the person checks and the bot, holding a card the person cannot see,
    bets or checks. The bots answer the same way again, so taking the check back would let
    the person see how the bot meets it and choose again knowing: refused, on the page too.
    An answer with no choice in it ends it too: whether the bot had a choice hangs on its
    card (tests/test_people.py)."""
    answered = 0
    for seed in range(6):
        game = Game.new("kuhn-poker", {}, 2, seed, ["human", "random"])
        assert game.to_move() == 0
        check = next(a for a in game.legal() if a[0] != "bet")
        game.play(0, check, chosen=True)
        assert game.takeback.refusal(game.state, 0, 1) is None
        bot = game.bots[1]
        assert bot is not None and game.to_move() == 1 and len(game.legal()) > 1
        game.play(1, bot.choose(game.engine, game.state, game.legal()))
        if game.state.over:
            continue
        refusal = game.takeback.refusal(game.state, 0, 1)
        assert refusal is not None and "another seat has acted" in refusal, seed
        with served(game) as (client, _):
            assert not client.get(seat_url(game, 0)).json()["takeback"]
            answer = client.post(f"{seat_url(game, 0)}/takeback", json={})
            assert answer.status_code == 409 and "how it answered" in answer.json()["error"]
        answered += 1
    assert answered > 0
    game = Game.new("kuhn-poker", {}, 2, 0, ["human", "random"])
    game.play(0, game.legal()[0], chosen=True)
    assert game.takeback.refusal(game.state, 0, 1) is None
    game.takeback.acted({1})  # a move of the bot's with no choice in it
    assert "another seat has acted" in (game.takeback.refusal(game.state, 0, 1) or "")


def test_a_decision_is_not_taken_back_once_a_clue_has_told_the_seat_of_its_cards() -> None:
    """hanabi: the person gives a clue, then the bot gives one of the person's own cards,
    which the person cannot see: no card is seen, but the person now knows something of a
    card it did not, so the clue cannot be taken back to choose again knowing it."""
    found = 0
    for seed in range(50):
        game = Game.new("hanabi", {}, 2, seed, ["human", "random"])
        if game.to_move() != 0:
            continue
        clue = next(a for a in game.legal() if a[0] not in ("play", "discard"))
        game.play(0, clue, chosen=True)
        assert game.takeback.refusal(game.state, 0, 1) is None  # its own clue: nothing learnt
        bot = game.bots[1]
        assert bot is not None
        answer = bot.choose(game.engine, game.state, game.legal())
        told = dict(game.state.told)
        game.play(1, answer)
        hand = game.engine.rules.zone("hand").zone_of(0)
        if game.to_move() != 0 or not any(game.state.where[c] == hand and told.get(c) != mask
                                           for c, mask in game.state.told.items()):
            continue
        refusal = game.takeback.refusal(game.state, 0, 1)
        assert refusal is not None and "learnt something of a card" in refusal, seed
        found += 1
    assert found > 0


def test_a_card_the_engine_plays_for_a_seat_counts_in_the_pages_version() -> None:
    """spades plays a seat's only card of the suit led for it: the page's version counts it
    as it counts a card chosen, so the version's steps never tell another seat which."""
    played_alone = 0
    for seed in range(6):  # (ten deals or so of each game: every action is checked)
        game = Game.new("spades", {}, 4, seed, ["human", "random", "random", "random"])
        while not game.state.over and game.state.actions < 600:
            seat = game.to_move()
            assert seat is not None
            bot = game.bots[seat]
            legal = game.legal()
            action = bot.choose(game.engine, game.state, legal) if bot else legal[0]
            version, actions, forced = game.version, game.state.actions, game.state.forced
            game.play(seat, action, chosen=bot is None)
            played_alone += game.state.forced - forced
            assert game.version - version == game.state.actions - actions, seed
    assert played_alone > 0


def test_the_lobbys_offer_is_made_once_however_many_ask_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Loading every ruleset takes a while: requests arriving together, before it is made,
    wait for the one making it (a hundred made it a hundred times, and the first game
    waited behind them)."""
    made: list[int] = []

    def offer() -> dict[str, Any]:
        made.append(1)
        time.sleep(0.05)
        return {"rulesets": []}

    monkeypatch.setattr(server, "lobby_offer", offer)
    hub = Hub()

    async def ask() -> list[dict[str, Any]]:
        return list(await asyncio.gather(*(hub.lobby_offer() for _ in range(20))))

    answers = asyncio.run(ask())
    assert made == [1] and all(a == {"rulesets": []} for a in answers)
