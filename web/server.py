"""The web server: a lobby, one page per seat, live updates, and moves.

Routes (a seat is named by its token alone):

    GET  /                          the lobby: pick a ruleset and seats, start a game
    GET  /api/rulesets              the built-in rulesets, their options, seat kinds and caps
    POST /api/games                 start a game; answers with the link of each person's seat
    GET  /seat/{token}              a seat's page
    GET  /api/seat/{token}          what the seat may see now (JSON)
    GET  /api/seat/{token}/events   the same, again after every change (server-sent events)
    POST /api/seat/{token}/move     {"version", "index", "texts"}: make one of its choices

The server is a program on the person's machine, reachable by any page their browser
opens: a request that changes something must be JSON from the server's own pages, and no
API answer is given to another site (Guard). A request to the lobby seats only people and
the built-in bots, within caps counted in work (LOBBY_BUDGETS).

Bots play as soon as it is their move, `delay` seconds apart so that people can follow;
a bot's pass in a reaction window is not waited for. They think in a bounded pool of
threads (web/pool.py): the lobby's games share BOT_WORKERS of them, the command line's
game has one of its own. Finished and abandoned games are freed (Hub.sweep). Each game is
saved after every action, a lobby game into the save folder (at most MAX_LOBBY_SAVES).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import sys
import time
from collections.abc import AsyncIterator, Callable, Collection
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cardrules.dsl.loader import builtin_names, load_ruleset
from cardrules.errors import CardrulesError, GameError, RulesetError
from cardrules.interpreter.engine import PASS
from cardrules.interpreter.players import bots
from cardrules.interpreter.players.bots import BOTS
from cardrules.interpreter.players.external import Forfeit
from cardrules.interpreter.sessions.play import finish
from cardrules.interpreter.sessions.record import HUMAN

from .game import Game, Refused, apply_move
from .payload import seat_payload
from .pool import Pool

MAX_BODY = 16 * 1024  # a move or a new game is a few hundred bytes
MAX_GAMES = 50  # games one server keeps at once (each a few hundred KB at most)
KEEP_ALIVE = 15.0  # seconds between comments on a quiet event stream
BOT_WORKERS = 2  # threads the lobby's games think in (see docs/language-design.md)
KEEP_FINISHED = 10 * 60.0  # seconds a finished game is kept, for its pages to read the end
ABANDONED_AFTER = 30 * 60.0  # seconds with no page open and no request: a game is abandoned
SWEEP_EVERY = 60.0  # seconds between looks for games to free
MAX_LOBBY_SAVES = 1000  # saved games the save folder may hold before the lobby refuses more
SAVE_SUFFIX = ".cardrules-save"
# The largest budget a lobby request may give a bot, in work per decision (never seconds:
# a game stays the same game for the same seed). At these, one decision on grandma, the
# slowest shipped ruleset for the search bots, takes under a second (README, serve); an
# ismcts iteration costs about 15 times more there than on golf6.
LOBBY_BUDGETS = {"greedy": 32, "ismcts": 10}
LOCAL_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
FOREIGN = ("refused: this request comes from a page of another site; use this server's own "
           "pages")
STATIC = resources.files("cardrules.web").joinpath("static")
SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; "
     b"frame-ancestors 'none'; base-uri 'none'; form-action 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),  # seat links hold tokens
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"cache-control", b"no-store"),
]


# ---------------------------------------------------------------------- the games
@dataclass
class Served:
    """A game as the server keeps it: what wakes its pages, who thinks for its bots, and
    when it was last asked for."""

    game: Game
    lane: Pool  # where its bots think
    seen: float  # the clock's time of the last request naming it
    pinned: bool = False  # the command line's game: kept until the server stops
    ended: float | None = None  # the clock's time it was first seen over
    watchers: int = 0  # pages with an event stream open
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    runner: asyncio.Task[None] | None = None


@dataclass
class Hub:
    """Every game this server plays, the bots' pace and pool, and where lobby games are
    saved. `clock` (seconds) tells when games are abandoned; tests set it."""

    delay: float = 0.8
    save_dir: Path | None = None  # None: games started from the lobby are not saved
    hosts: Collection[str] | None = None  # the names it answers to; None: any
    clock: Callable[[], float] = time.monotonic
    workers: int = BOT_WORKERS
    served: dict[str, Served] = field(default_factory=dict)
    loop: asyncio.AbstractEventLoop | None = None  # the server's, while it runs
    closing: bool = False  # the server is stopping: event streams end
    offer: dict[str, Any] | None = None  # what the lobby offers, made once

    def __post_init__(self) -> None:
        self.pool = Pool(self.workers, "bots")

    @property
    def games(self) -> dict[str, Game]:
        return {key: served.game for key, served in self.served.items()}

    def add(self, game: Game, pinned: bool = False) -> Served:
        """Serve `game`; its bots start playing once the server runs. A `pinned` game (the
        command line's) is never freed and thinks in a thread of its own, as its seats may
        take any time (programs, time budgets); the lobby's games share the pool."""
        self.sweep()
        if len(self.served) >= MAX_GAMES:
            raise Refused(503, f"this server already plays {MAX_GAMES} games: try again when "
                          "one has ended")
        lane = Pool(1, f"game-{game.id}") if pinned else self.pool
        now = self.clock()
        served = Served(game, lane, seen=now, pinned=pinned,
                        ended=now if game.state.over else None)
        self.served[game.id] = served
        if self.loop is None:
            return served  # the server starts its bots when it starts
        try:
            asyncio.get_running_loop()
        except RuntimeError:  # added from another thread (a test's, say)
            self.loop.call_soon_threadsafe(self.start, served)
        else:
            self.start(served)
        return served

    def find(self, token: str) -> tuple[Served, int]:
        """The game and seat of a token (noting that the game was asked for); Refused (404)
        if it is nobody's."""
        found = None
        for served in self.served.values():
            seat = served.game.seat_of(token)
            if seat is not None:
                found = (served, seat)
        if found is None:
            raise Refused(404, "no seat has this link: ask for the link of your seat")
        found[0].seen = self.clock()
        return found

    def start(self, served: Served) -> None:
        """Start the task that plays the game's bots (in the server's event loop)."""
        if served.game.id in self.served:
            served.runner = asyncio.create_task(self.run_bots(served))

    def close(self) -> None:
        """Let every page's event stream end, and the bots stop (the server is stopping:
        it would otherwise wait for the pages to go)."""
        self.closing = True
        for served in list(self.served.values()):
            self.notify(served)

    # ------------------------------------------------------------- freeing games
    def sweep(self) -> list[str]:
        """Free every game finished more than KEEP_FINISHED ago, and every game abandoned:
        no page open and no request for ABANDONED_AFTER. The command line's game stays.
        Returns the games freed."""
        now = self.clock()
        gone = [key for key, served in self.served.items() if not served.pinned and (
            (served.ended is not None and now - served.ended >= KEEP_FINISHED)
            or (served.watchers == 0 and now - served.seen >= ABANDONED_AFTER))]
        for key in gone:
            self.free(key)
        return gone

    def free(self, key: str) -> None:
        """Forget a game: its bots stop, its pages' streams end, its links answer 404 (its
        save file, if any, stays: the person can resume it)."""
        served = self.served.pop(key, None)
        if served is None:
            return
        if served.runner is not None:
            served.runner.cancel()
        self.notify(served)
        if served.lane is not self.pool:
            served.lane.close()
        game = served.game
        if not game.state.over:
            finish(game.engine, game.state, game.bots)  # stops any program (none in lobby)

    async def sweeping(self) -> None:
        """Free games as they finish or are abandoned, every SWEEP_EVERY seconds."""
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            self.sweep()

    # ------------------------------------------------------------------ changes
    def changed_by_action(self, served: Served) -> None:
        """After an action: wake the pages, note when the game ended, and say once if the
        game can no longer be saved."""
        game = served.game
        if game.state.over and served.ended is None:
            served.ended = self.clock()
        self.notify(served)
        if game.unreported:
            game.unreported = False
            print(f"warning: {game.save_problem}", file=sys.stderr)

    def notify(self, served: Served) -> None:
        """Wake every page (and the bots) waiting for the game to change."""
        served.changed.set()
        served.changed = asyncio.Event()

    async def wait(self, served: Served, version: int | None, timeout: float) -> None:
        """Until the game has moved past `version`, or `timeout` seconds."""
        event = served.changed
        if served.game.version == version:
            with suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), timeout)

    # ---------------------------------------------------------------- the bots
    async def run_bots(self, served: Served) -> None:
        """Make the bots' moves as they come up, until the game is over (or a rule fails:
        said on stderr and on the pages, and the game stops there); then stop any
        program seated in it."""
        game = served.game
        try:
            await self.play_bots(served)
        except CardrulesError as exc:
            print(f"error: game {game.id} ({game.engine.rules.name}) cannot go on: {exc}",
                  file=sys.stderr)
            game.news.append(public(f"the game cannot go on: {exc}"))
            self.notify(served)
        if game.state.over and any(hasattr(bot, "finish") for bot in game.bots):
            await served.lane.run(finish, game.engine, game.state, game.bots)  # may block

    async def play_bots(self, served: Served) -> None:
        game = served.game
        while not game.state.over and not self.closing:
            bot = game.bot_to_move()
            if bot is None:
                await self.wait(served, game.version, KEEP_ALIVE)
                continue
            began = time.monotonic()
            version, seat, legal = game.version, game.to_move(), game.legal()
            assert seat is not None
            # Nobody else may move meanwhile (it is this bot's move): no lock while it
            # thinks, so that a person's request to this game is answered at once.
            try:
                action = await served.lane.run(bot.choose, game.engine, game.state, legal)
            except Forfeit as exc:  # a program seat answered badly: the game ends there
                async with served.lock:
                    game.forfeit(exc.seat, public(exc.reason))
                self.changed_by_action(served)
                return
            if action != PASS:
                await asyncio.sleep(max(0.0, self.delay - (time.monotonic() - began)))
            async with served.lock:
                if game.version != version:  # cannot happen, but never play a stale choice
                    continue
                game.play(seat, action)
            self.changed_by_action(served)

    # ------------------------------------------------------------------ saves
    def check_saves(self) -> None:
        """Refused (503) if the save folder already holds MAX_LOBBY_SAVES saved games."""
        if self.save_dir is None:
            return
        try:
            with os.scandir(self.save_dir) as entries:
                held = sum(1 for entry in entries if entry.name.endswith(SAVE_SUFFIX))
        except OSError:
            return  # not made yet (or unreadable: saving will say why)
        if held >= MAX_LOBBY_SAVES:
            raise Refused(503, f"the server's save folder holds {MAX_LOBBY_SAVES} saved games, "
                          "as many as it takes: the person running the server may move or "
                          "delete old saves")

    def save(self, game: Game) -> str | None:
        """Save a game the lobby started (and accepted) into the save folder, made at the
        first save; the file's name, or None if it is not saved."""
        if self.save_dir is None:
            return None
        with suppress(OSError):  # a folder that cannot be made: the write below says why
            self.save_dir.mkdir(parents=True, exist_ok=True)
        game.save = free_path(self.save_dir, f"{game.engine.rules.name}-{game.record.seed}")
        game.write()
        if game.save_problem is not None:
            game.unreported = False
            print(f"warning: {game.save_problem}", file=sys.stderr)
            return None
        return game.save.name


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


# An absolute file path (POSIX or Windows), its last part captured: install paths and the
# person's folders are not for pages (a rule's fault names its file, a program's its own).
_ABSOLUTE = re.compile(r"(?<![\w.~])(?:[A-Za-z]:)?[/\\](?:[^\s'\"`:,;()\[\]{}<>/\\]+[/\\])*"
                       r"([^\s'\"`:,;()\[\]{}<>/\\]*)")


def public(text: str) -> str:
    """`text` as a page may be told it: every absolute file path cut to its file's name."""
    return _ABSOLUTE.sub(r"\1", text)


def refusal(refused: Refused) -> JSONResponse:
    return JSONResponse({"error": public(refused.reason)}, status_code=refused.status)


def page(name: str) -> FileResponse:
    return FileResponse(str(STATIC.joinpath(name)), media_type="text/html")


def make_app(hub: Hub) -> Starlette:
    """The Starlette application serving `hub`'s games."""

    async def lobby(request: Request) -> Response:
        return page("lobby.html")

    async def rulesets(request: Request) -> Response:
        if hub.offer is None:  # loading every ruleset takes a while: not in the event loop
            hub.offer = await asyncio.to_thread(lobby_offer)
        return JSONResponse(hub.offer)

    async def new_game(request: Request) -> Response:
        try:
            body = await read_json(request)
            hub.check_saves()
            # Loading a ruleset and dealing take a while: not in the event loop.
            game = await asyncio.to_thread(game_from_lobby, body)
            hub.add(game)  # accepted: only now is it saved
        except Refused as refused:
            return refusal(refused)
        base = str(request.base_url)
        return JSONResponse({"game": game.id, "links": links(game, base),
                             "save": hub.save(game)})

    async def seat_page(request: Request) -> Response:
        try:
            hub.find(request.path_params["token"])
        except Refused:
            return Response("No seat has this link.\n", status_code=404,
                            media_type="text/plain")
        return page("table.html")

    async def seat_state(request: Request) -> Response:
        try:
            served, seat = hub.find(request.path_params["token"])
        except Refused as refused:
            return refusal(refused)
        return JSONResponse(seat_payload(served.game, seat, full=True))

    async def seat_events(request: Request) -> Response:
        try:
            served, seat = hub.find(request.path_params["token"])
        except Refused as refused:
            return refusal(refused)
        return StreamingResponse(events(hub, served, seat), media_type="text/event-stream")

    async def seat_move(request: Request) -> Response:
        try:
            served, seat = hub.find(request.path_params["token"])
            body = await read_json(request)
            if not isinstance(body, dict):
                raise Refused(400, "expected {\"version\", \"index\", \"texts\"}")
            game = served.game
            async with served.lock:
                action = game.choose(seat, body.get("version"), body.get("index"),
                                     body.get("texts"))
                apply_move(game, seat, action)
        except Refused as refused:
            return refusal(refused)
        hub.changed_by_action(served)
        return JSONResponse({"version": game.version})

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        for served in hub.served.values():
            hub.start(served)
        sweeper = asyncio.create_task(hub.sweeping())
        yield
        hub.loop = None
        sweeper.cancel()
        for served in hub.served.values():
            if served.runner is not None:
                served.runner.cancel()
            game = served.game
            if not game.state.over:
                finish(game.engine, game.state, game.bots)  # programs stop with the server
            served.lane.close()  # (the shared pool among them: closing twice is harmless)
        hub.pool.close()

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
    app.state.hub = hub
    app.add_middleware(Guard, hosts=hub.hosts)
    app.add_middleware(SecurityHeaders)
    return app


async def events(hub: Hub, served: Served, seat: int) -> AsyncIterator[str]:
    """The seat's payload now and after every change (the first with the table's
    declarations, as a page that connects or reconnects needs them), while the game is
    served. An open stream keeps the game from being abandoned."""
    game = served.game
    version = None
    served.watchers += 1
    try:
        while not hub.closing and hub.served.get(game.id) is served:
            if game.version != version:
                payload = seat_payload(game, seat, full=version is None)
                version = game.version
                yield f"data: {json.dumps(payload, separators=(',', ':'))}\n\n"
            else:
                yield ": still here\n\n"
            await hub.wait(served, version, KEEP_ALIVE)
    finally:
        served.watchers -= 1
        served.seen = hub.clock()


# -------------------------------------------------------------- other sites
class Guard:
    """Refuses, before any route sees it, a request that a page of another site may have
    sent through the person's browser: one for a name the server does not answer to (a
    site whose name was pointed at this machine), an API request from another site
    (Origin or Sec-Fetch-Site), and a request that changes something without a JSON body
    (a form or text/plain post needs no permission from the browser; JSON does)."""

    def __init__(self, app: ASGIApp, hosts: Collection[str] | None = None):
        self.app = app
        self.hosts = None if hosts is None else {name.lower() for name in hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refused = self.problem(scope)
            if refused is not None:
                await refusal(refused)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def problem(self, scope: Scope) -> Refused | None:
        """Why the request is refused, or None."""
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        if self.hosts is not None and host_name(host) not in self.hosts:
            return Refused(400, "this server answers only to requests for "
                           + ", ".join(sorted(self.hosts)))
        changes = scope["method"] not in ("GET", "HEAD")
        if changes or scope["path"].startswith("/api/"):
            site = headers.get("sec-fetch-site")
            if site is not None and site not in ("same-origin", "none"):
                return Refused(403, FOREIGN)
            origin = headers.get("origin")
            if origin is not None and not same_origin(origin, host):
                return Refused(403, FOREIGN)
        if changes:
            media = headers.get("content-type", "").partition(";")[0].strip().lower()
            if media != "application/json":
                return Refused(415, "a request that changes something sends JSON "
                               "(Content-Type: application/json)")
        return None


def host_name(host: str) -> str:
    """The name in a Host header, without its port or an IPv6 address's brackets."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].partition("]")[0]
    return host.rpartition(":")[0] if host.count(":") == 1 else host


def same_origin(origin: str, host: str) -> bool:
    """Whether an Origin header names the server itself, as the request's Host does (the
    scheme is not compared: a proxy in front may speak https for it)."""
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.netloc) \
        and parts.netloc.lower() == host.strip().lower()


def allowed_hosts(listening: str) -> frozenset[str] | None:
    """The names a server listening on `listening` answers to: this machine's own, and
    the address it was given; None (any) for every address (0.0.0.0, ::), as the names
    others reach it by are not known."""
    name = host_name(listening) if listening.startswith("[") else listening.lower()
    if name in ("", "0.0.0.0", "::"):
        return None
    return LOCAL_NAMES | {name}


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
def lobby_offer() -> dict[str, Any]:
    """What the lobby offers: the built-in rulesets, the seat kinds, and each bot's budget
    (what its number counts, and the most a request may ask for)."""
    return {"rulesets": [ruleset_info(name) for name in builtin_names()],
            "kinds": [HUMAN, *BOTS],
            "bots": [bot_info(name) for name in BOTS]}


def bot_info(name: str) -> dict[str, Any]:
    """A built-in bot kind as the lobby offers it: its budget's unit and cap, if any."""
    unit = getattr(BOTS[name], "budget", None)
    return {"kind": name, "budget": unit, "max": LOBBY_BUDGETS.get(name) if unit else None}


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


def game_from_lobby(body: Any) -> Game:
    """A new game as the lobby asks for it (not saved yet); Refused with the reason if it
    cannot be."""
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
        return Game.new(name, chosen, players, seed, seats)
    except RulesetError as exc:
        problem = exc.diagnostics[0].message if exc.diagnostics else "invalid options"
        raise Refused(400, problem) from None
    except GameError as exc:
        raise Refused(400, str(exc)) from None


def check_kind(kind: Any) -> None:
    """A seat kind a request may ask for: a person or a built-in bot, never a program (only
    the person at the command line may seat one), with a budget in work no larger than
    the lobby's cap. Nothing is made or started."""
    if not isinstance(kind, str) or len(kind) > 40:
        raise Refused(400, "a seat is 'human' or a bot kind")
    if kind == HUMAN:
        return
    try:
        bots.check_kind(kind, programs=False)
        name, budget = bots.split_kind(kind)
    except CardrulesError as exc:
        raise Refused(400, str(exc)) from None
    most = LOBBY_BUDGETS.get(name)
    unit = getattr(BOTS[name], "budget", None)
    if isinstance(budget, float):
        raise Refused(400, f"seat kind '{kind}': the lobby takes budgets in work, not time: "
                      f"{name}:N, N {unit} a decision, up to {most}")
    if budget is not None and most is not None and budget > most:
        raise Refused(400, f"seat kind '{kind}': the lobby allows at most {most} {unit} a "
                      "decision")


def free_path(folder: Path, stem: str) -> Path:
    """A save file in `folder` named after `stem` that no file has yet."""
    path = folder / f"{stem}{SAVE_SUFFIX}"
    number = 2
    while path.exists():
        path = folder / f"{stem}-{number}{SAVE_SUFFIX}"
        number += 1
    return path


def links(game: Game, base: str) -> list[dict[str, Any]]:
    """Each person's seat with its link (`base`: the server's address, ending in /)."""
    return [{"seat": seat + 1, "url": f"{base}seat/{token}"}
            for seat, token in enumerate(game.tokens) if token is not None]
