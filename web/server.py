"""The web server: a lobby, one page per seat, live updates, and moves.

Routes (a seat is named by its token alone):

    GET  /                          the lobby: pick a ruleset and seats, start a game
    GET  /api/rulesets              the built-in rulesets, their options and seat kinds
    POST /api/games                 start a game; answers with the link of each person's seat
    GET  /seat/{token}              a seat's page
    GET  /api/seat/{token}          what the seat may see now (JSON)
    GET  /api/seat/{token}/events   the same, again after every change (server-sent events)
    POST /api/seat/{token}/move     {"version", "index", "texts"}: make one of its choices

Bots play as soon as it is their move, `delay` seconds apart so that people can follow;
a bot's pass in a reaction window is not waited for. Each game is saved after every action.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cardrules.dsl.loader import builtin_names, load_ruleset
from cardrules.errors import CardrulesError, GameError, RulesetError
from cardrules.interpreter import bots
from cardrules.interpreter.bots import BOTS
from cardrules.interpreter.engine import PASS
from cardrules.interpreter.record import HUMAN

from .game import Game, Refused, apply_move
from .payload import seat_payload

MAX_BODY = 16 * 1024  # a move or a new game is a few hundred bytes
MAX_GAMES = 50  # games one server keeps (each a few hundred KB at most)
KEEP_ALIVE = 15.0  # seconds between comments on a quiet event stream
STATIC = resources.files("cardrules.web").joinpath("static")
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; "
     b"frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),  # seat links hold tokens
    (b"cache-control", b"no-store"),
]


# ---------------------------------------------------------------------- the games
@dataclass
class Hub:
    """Every game this server plays, the bots' pace, and where new games are saved."""

    delay: float = 0.8
    save_dir: Path | None = None  # None: games started from the lobby are not saved
    games: dict[str, Game] = field(default_factory=dict)
    changed: dict[str, asyncio.Event] = field(default_factory=dict)
    locks: dict[str, asyncio.Lock] = field(default_factory=dict)
    runners: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    loop: asyncio.AbstractEventLoop | None = None  # the server's, while it runs
    closing: bool = False  # the server is stopping: event streams end

    def add(self, game: Game) -> None:
        """Serve `game`; its bots start playing once the server runs."""
        if len(self.games) >= MAX_GAMES:
            raise Refused(503, f"this server already plays {MAX_GAMES} games")
        self.games[game.id] = game
        self.changed[game.id] = asyncio.Event()
        self.locks[game.id] = asyncio.Lock()
        if self.loop is None:
            return  # the server starts its bots when it starts
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # added from another thread (a test's, say)
            self.loop.call_soon_threadsafe(self.start, game)
        else:
            self.start(game)

    def find(self, token: str) -> tuple[Game, int]:
        """The game and seat of a token; Refused (404) if it is nobody's."""
        found = None
        for game in self.games.values():
            seat = game.seat_of(token)
            if seat is not None:
                found = (game, seat)
        if found is None:
            raise Refused(404, "no seat has this link: ask for the link of your seat")
        return found

    def start(self, game: Game) -> None:
        """Start the task that plays the game's bots (in the server's event loop)."""
        self.runners[game.id] = asyncio.create_task(self.run_bots(game))

    def close(self) -> None:
        """Let every page's event stream end, and the bots stop (the server is stopping:
        it would otherwise wait for the pages to go)."""
        self.closing = True
        for game in list(self.games.values()):
            self.notify(game)

    def changed_by_action(self, game: Game) -> None:
        """After an action: wake the pages, and say once if the game can no longer be
        saved."""
        self.notify(game)
        if game.unreported:
            game.unreported = False
            print(f"warning: {game.save_problem}", file=sys.stderr)

    def notify(self, game: Game) -> None:
        """Wake every page (and the bots) waiting for `game` to change."""
        event = self.changed.get(game.id)
        if event is not None:
            event.set()
            self.changed[game.id] = asyncio.Event()

    async def wait(self, game: Game, version: int, timeout: float) -> None:
        """Until `game` has moved past `version`, or `timeout` seconds."""
        event = self.changed[game.id]
        if game.version == version:
            with suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), timeout)

    async def run_bots(self, game: Game) -> None:
        """Make the bots' moves as they come up, until the game is over (or a rule fails:
        said on stderr, and the game stops there)."""
        try:
            await self.play_bots(game)
        except CardrulesError as exc:
            print(f"error: game {game.id} ({game.engine.rules.name}) cannot go on: {exc}",
                  file=sys.stderr)

    async def play_bots(self, game: Game) -> None:
        while not game.state.over and not self.closing:
            bot = game.bot_to_move()
            if bot is None:
                await self.wait(game, game.version, KEEP_ALIVE)
                continue
            began = time.monotonic()
            async with self.locks[game.id]:
                seat = game.to_move()
                assert seat is not None
                # Search bots take a while: think in a thread, the server answers meanwhile
                # (nothing else can change the game: it is this bot's move).
                action = await asyncio.to_thread(bot.choose, game.engine, game.state,
                                                 game.legal())
            if action != PASS:
                await asyncio.sleep(max(0.0, self.delay - (time.monotonic() - began)))
            async with self.locks[game.id]:
                game.play(seat, action)
            self.changed_by_action(game)


# --------------------------------------------------------------------- requests
async def read_json(request: Request) -> Any:
    """The request's JSON body, at most MAX_BODY bytes; Refused otherwise."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise Refused(413, f"a request body is at most {MAX_BODY} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise Refused(413, f"a request body is at most {MAX_BODY} bytes")
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        raise Refused(400, "the request is not JSON") from None


def refusal(refused: Refused) -> JSONResponse:
    return JSONResponse({"error": refused.reason}, status_code=refused.status)


def page(name: str) -> FileResponse:
    return FileResponse(str(STATIC.joinpath(name)), media_type="text/html")


def make_app(hub: Hub) -> Starlette:
    """The Starlette application serving `hub`'s games."""

    async def lobby(request: Request) -> Response:
        return page("lobby.html")

    async def rulesets(request: Request) -> Response:
        return JSONResponse({"rulesets": [ruleset_info(name) for name in builtin_names()],
                             "kinds": [HUMAN, *BOTS]})

    async def new_game(request: Request) -> Response:
        try:
            game = game_from_lobby(await read_json(request), hub.save_dir)
            hub.add(game)
        except Refused as refused:
            return refusal(refused)
        base = str(request.base_url)
        return JSONResponse({"game": game.id, "links": links(game, base),
                             "save": str(game.save) if game.save else None})

    async def seat_page(request: Request) -> Response:
        try:
            hub.find(request.path_params["token"])
        except Refused:
            return Response("No seat has this link.\n", status_code=404,
                            media_type="text/plain")
        return page("table.html")

    async def seat_state(request: Request) -> Response:
        try:
            game, seat = hub.find(request.path_params["token"])
        except Refused as refused:
            return refusal(refused)
        return JSONResponse(seat_payload(game, seat, full=True))

    async def seat_events(request: Request) -> Response:
        try:
            game, seat = hub.find(request.path_params["token"])
        except Refused as refused:
            return refusal(refused)
        return StreamingResponse(events(hub, game, seat), media_type="text/event-stream")

    async def seat_move(request: Request) -> Response:
        try:
            game, seat = hub.find(request.path_params["token"])
            body = await read_json(request)
            if not isinstance(body, dict):
                raise Refused(400, "expected {\"version\", \"index\", \"texts\"}")
            async with hub.locks[game.id]:
                action = game.choose(seat, body.get("version"), body.get("index"),
                                     body.get("texts"))
                apply_move(game, seat, action)
        except Refused as refused:
            return refusal(refused)
        hub.changed_by_action(game)
        return JSONResponse({"version": game.version})

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        for game in hub.games.values():
            hub.start(game)
        yield
        hub.loop = None
        for task in hub.runners.values():
            task.cancel()

    routes = [
        Route("/", lobby),
        Route("/api/rulesets", rulesets),
        Route("/api/games", new_game, methods=["POST"]),
        Route("/seat/{token}", seat_page),
        Route("/api/seat/{token}", seat_state),
        Route("/api/seat/{token}/events", seat_events),
        Route("/api/seat/{token}/move", seat_move, methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(SecurityHeaders)
    return app


async def events(hub: Hub, game: Game, seat: int) -> AsyncIterator[str]:
    """The seat's payload now and after every change (the first with the table's
    declarations, as a page that connects or reconnects needs them)."""
    version = None
    while not hub.closing:
        if game.version != version:
            payload = seat_payload(game, seat, full=version is None)
            version = game.version
            yield f"data: {json.dumps(payload, separators=(',', ':'))}\n\n"
        else:
            yield ": still here\n\n"
        await hub.wait(game, version, KEEP_ALIVE)


class SecurityHeaders:
    """Adds the headers every answer carries (no framing, no sniffing, no referrer)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + SECURITY_HEADERS
            await send(message)
        await self.app(scope, receive, sending if scope["type"] == "http" else send)


# ------------------------------------------------------------------- the lobby
def ruleset_info(name: str) -> dict[str, Any]:
    """A built-in ruleset as the lobby offers it."""
    rules = load_ruleset(name)
    return {"name": rules.name, "title": rules.title,
            "summary": " ".join(rules.summary.split()),
            "players": {"min": rules.min_players, "max": rules.max_players,
                        "default": rules.default_players},
            "options": [{"name": o.name, "default": o.default,
                         "choices": list(o.choices) if o.choices else None,
                         "doc": " ".join(o.doc.split())} for o in rules.option_defs]}


def game_from_lobby(body: Any, save_dir: Path | None) -> Game:
    """A new game as the lobby asks for it; Refused with the reason if it cannot be."""
    if not isinstance(body, dict):
        raise Refused(400, "expected a ruleset, players, seats and options")
    name, players, seats = body.get("ruleset"), body.get("players"), body.get("seats")
    options, seed = body.get("options") or {}, body.get("seed")
    if not isinstance(name, str) or name not in builtin_names():
        raise Refused(400, "pick one of the rulesets offered")
    if type(players) is not int or not isinstance(seats, list) or len(seats) != players:
        raise Refused(400, "name one kind for each seat")
    if not isinstance(options, dict) or not all(
            isinstance(k, str) and isinstance(v, str | int | bool) for k, v in options.items()):
        raise Refused(400, "options are names with values")
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    elif type(seed) is not int or not 0 <= seed < 2**63:
        raise Refused(400, "a seed is a whole number from 0")
    for kind in seats:
        check_kind(kind)
    chosen = {k: json.dumps(v) if isinstance(v, bool) else str(v) for k, v in options.items()}
    try:
        game = Game.new(name, chosen, players, seed, seats)
    except RulesetError as exc:
        problem = exc.diagnostics[0].message if exc.diagnostics else "invalid options"
        raise Refused(400, problem) from None
    except GameError as exc:
        raise Refused(400, str(exc)) from None
    if save_dir is not None:
        game.save = free_path(save_dir, f"{game.engine.rules.name}-{seed}")
        game.write()
    return game


def check_kind(kind: Any) -> None:
    """A seat kind a request may ask for: a person or a built-in bot, never a program (only
    the person at the command line may seat one). Nothing is made or started."""
    if not isinstance(kind, str) or len(kind) > 40:
        raise Refused(400, "a seat is 'human' or a bot kind")
    if kind != HUMAN:
        try:
            bots.check_kind(kind, programs=False)
        except CardrulesError as exc:
            raise Refused(400, str(exc)) from None


def free_path(folder: Path, stem: str) -> Path:
    """A save file in `folder` named after `stem` that no file has yet."""
    path = folder / f"{stem}.cardrules-save"
    number = 2
    while path.exists():
        path = folder / f"{stem}-{number}.cardrules-save"
        number += 1
    return path


def links(game: Game, base: str) -> list[dict[str, Any]]:
    """Each person's seat with its link (`base`: the server's address, ending in /)."""
    return [{"seat": seat + 1, "url": f"{base}seat/{token}"}
            for seat, token in enumerate(game.tokens) if token is not None]
