"""The web server: a lobby, one page per seat, live updates, and moves.

Routes (a seat is named by its token alone):

    GET  /                          the lobby: pick a ruleset and seats, start a game
    GET  /api/rulesets              the built-in rulesets, their options, seat kinds and caps
    POST /api/games                 start a game; answers with the link of each person's seat
    GET  /seat/{token}              a seat's page
    GET  /api/seat/{token}          what the seat may see now (JSON)
    GET  /api/seat/{token}/events   the same, again after every change (server-sent events)
    POST /api/seat/{token}/move     {"version", "index", "texts"}: make one of its choices
    POST /api/seat/{token}/react    {"want"} or {"stop"}: how it meets chances to react
    POST /api/seat/{token}/hint     {"bot"}: a bot's pick for its decision, and estimates
    POST /api/seat/{token}/takeback {}: take back its last decision (alone against bots)

The server is a program on the person's machine, reachable by any page their browser
opens: a request that changes something must be JSON from the server's own pages, and no
API answer is given to another site (Guard). A request to the lobby seats only people and
the built-in bots, within caps counted in work (LOBBY_BUDGETS).

Bots play as soon as it is their move, `delay` seconds apart so that people can follow;
a bot's pass in a reaction window is not waited for, and a person's chance to react goes
by unless they asked for it (interpreter/sessions/windows.py); with several people at the
game it waits `window_wait` seconds for them at most. They think in a bounded pool of
threads (web/pool.py): the lobby's games share BOT_WORKERS of them, the command line's
game has one of its own. Finished and abandoned games are freed (Hub.sweep). Each game is
saved after every action, a lobby game into the save folder (at most MAX_LOBBY_SAVES).
"""

from __future__ import annotations

import asyncio
import functools
import json
import os
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Collection
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from cardrules.errors import CardrulesError, GameError
from cardrules.interpreter.engine import PASS
from cardrules.interpreter.players.external import Forfeit
from cardrules.interpreter.sessions.play import finish
from cardrules.interpreter.sessions.start import SAVE_SUFFIX, free_path

from . import asks
from .game import Game, Refused, apply_move
from .guard import Guard, SecurityHeaders, allowed_hosts, public, refusal
from .lobby import LOBBY_BUDGETS, game_from_lobby, links, lobby_offer
from .payload import seat_payload
from .pool import Pool
from .served import Served

__all__ = ["Hub", "LOBBY_BUDGETS", "allowed_hosts", "links", "make_app", "public"]

MAX_BODY = 16 * 1024  # a move or a new game is a few hundred bytes
MAX_GAMES = 50  # games one server keeps at once (each a few hundred KB at most)
KEEP_ALIVE = 15.0  # seconds between comments on a quiet event stream
MAX_CONNECTIONS = 512  # connections at once (pages hold theirs open); past it, 503
BODY_WAIT = 10.0  # seconds a request's body may take to arrive
MAX_STREAMS = 4  # event streams open at once for one seat (its page in a few tabs)
TOO_MANY_STREAMS = (f"this seat has {MAX_STREAMS} pages open already: close one (each "
                    "page follows the game by itself)")
BOT_WORKERS = 2  # threads the lobby's games think in (see docs/language-design.md)
KEEP_FINISHED = 10 * 60.0  # seconds a finished game is kept, for its pages to read the end
ABANDONED_AFTER = 30 * 60.0  # seconds with no page open and no request: a game is abandoned
SWEEP_EVERY = 60.0  # seconds between looks for games to free
MAX_LOBBY_SAVES = 1000  # saved games the save folder may hold before the lobby refuses more
WINDOW_WAIT = 20.0  # seconds a chance to react waits for a person, with several (--react-wait)
STATIC = resources.files("cardrules.web").joinpath("static")


# ---------------------------------------------------------------------- the games
@dataclass
class Hub:
    """Every game this server plays, the bots' pace and pool, and where lobby games are
    saved. `clock` (seconds) tells when games are abandoned; tests set it."""

    delay: float = 0.8
    save_dir: Path | None = None  # None: games started from the lobby are not saved
    window_wait: float = WINDOW_WAIT  # seconds a window waits for a person among several
    hosts: Collection[str] | None = None  # the names it answers to; None: any
    clock: Callable[[], float] = time.monotonic
    workers: int = BOT_WORKERS
    served: dict[str, Served] = field(default_factory=dict)
    loop: asyncio.AbstractEventLoop | None = None  # the server's, while it runs
    closing: bool = False  # the server is stopping: event streams end
    offer: dict[str, Any] | None = None  # what the lobby offers, made once

    def __post_init__(self) -> None:
        self.pool = Pool(self.workers, "bots")
        self.offering = asyncio.Lock()  # the lobby's offer is made once, however many ask

    async def lobby_offer(self) -> dict[str, Any]:
        """What the lobby offers, made at the first request (loading every ruleset takes a
        while: in a thread, once, the requests meanwhile waiting for it)."""
        async with self.offering:
            if self.offer is None:
                self.offer = await asyncio.to_thread(lobby_offer)
        return self.offer

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
        seat = game.to_move()
        if seat is not None and game.bots[seat] is None:
            self.left(served, seat)  # a window that waits for a person begins to wait now
        self.notify(served)
        if game.unreported:
            game.unreported = False
            print(f"warning: {game.save_problem}", file=sys.stderr)

    def notify(self, served: Served) -> None:
        """Wake every page (and the bots) waiting for the game to change."""
        served.changed.set()
        served.changed = asyncio.Event()
        for seat in list(served.pages):
            self.notify_page(served, seat)

    def notify_page(self, served: Served, seat: int) -> None:
        """Wake `seat`'s pages alone (its own controls changed)."""
        served.pages.pop(seat, asyncio.Event()).set()

    def own_change(self, served: Served, seat: int) -> None:
        """`seat` changed how it meets reactions: its own pages are drawn again, and the
        bots' runner looks again (a window waiting for the seat may now go by); the other
        seats' pages are not woken (their keep-alives, too, tell them nothing of it)."""
        served.changed.set()
        served.changed = asyncio.Event()
        self.notify_page(served, seat)

    async def wait(self, served: Served, version: int | None, timeout: float) -> None:
        """Until the game has moved past `version`, or `timeout` seconds (the runner)."""
        event = served.changed
        if served.game.version == version:
            with suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), timeout)

    async def wait_page(self, served: Served, seat: int, seen: tuple[int, int] | None,
                        timeout: float) -> None:
        """Until `seat`'s page has more to show than at `seen`, or `timeout` seconds."""
        event = served.page_event(seat)
        if page_mark(served.game, seat) == seen:
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
                seat = game.to_move()
                if seat is not None and await self.passes(served, seat):
                    self.changed_by_action(served)
                    continue
                await self.wait(served, game.version, self.waiting(served, seat))
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

    # ------------------------------------------------------- people's reaction windows
    async def passes(self, served: Served, seat: int) -> bool:
        """Let the reaction window now offered to a person's `seat` go by, if it is not
        for them (they neither stop at each nor asked to react), or if, with several people
        at the game, it has waited `window_wait` seconds for them. Whether it did."""
        game = served.game
        async with served.lock:
            if game.to_move() != seat or not game.windows.in_window(game.state, seat):
                return False
            if game.windows.passes(game.state, seat):
                game.play(seat, PASS)
                return True
            if self.bounded(game) and game.windows.expired(game.state, seat, self.clock(),
                                                           self.window_wait):
                game.went_by(seat, self.window_wait)
                return True
        return False

    def bounded(self, game: Game) -> bool:
        """Whether a window waits a bounded time for a person: with several at the game."""
        return len(game.people) > 1

    def waiting(self, served: Served, seat: int | None) -> float:
        """How long the runner may wait for a change: until the window that waits for a
        person now runs out (by the clock), at most KEEP_ALIVE seconds."""
        game = served.game
        if seat is None or not self.bounded(game):
            return KEEP_ALIVE
        left = game.windows.left(game.state, seat, self.clock(), self.window_wait)
        return KEEP_ALIVE if left is None else min(KEEP_ALIVE, left)

    def left(self, served: Served, seat: int) -> float | None:
        """The seconds the window waiting for `seat` has left, where it waits a bounded
        time (noting, the first time it is asked, that it began to wait)."""
        game = served.game
        if not self.bounded(game) or not game.windows.in_window(game.state, seat) \
                or game.windows.passes(game.state, seat):
            return None
        game.windows.expired(game.state, seat, self.clock(), self.window_wait)
        return game.windows.left(game.state, seat, self.clock(), self.window_wait)

    def tick(self) -> None:
        """Wake every game's runner and pages (the clock has moved on: a window may have
        run out)."""
        for served in list(self.served.values()):
            self.notify(served)

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
        try:
            game.save = free_path(self.save_dir, game.engine.rules.name)
        except OSError as exc:  # a folder whose files cannot be looked for: played unsaved
            print(f"warning: game {game.id} is not saved: {self.save_dir} cannot be used "
                  f"({exc.strerror or exc})", file=sys.stderr)
            return None
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
    try:
        async with asyncio.timeout(BODY_WAIT):  # a body sent a byte at a time holds a place
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY:
                    raise Refused(413, f"a request body is at most {MAX_BODY} bytes")
    except ClientDisconnect:  # nobody is left to answer
        raise Refused(400, "the request was cut off before its end") from None
    except TimeoutError:
        raise Refused(408, f"the request's body took more than {BODY_WAIT:g} seconds to "
                           "arrive") from None
    try:
        value = json.loads(body)
        # A lone surrogate (\udc80) is valid JSON but no text: refused here, before it is
        # stored in a game or quoted in an answer, which could then not be written.
        json.dumps(value, ensure_ascii=False).encode()
    except (ValueError, RecursionError):  # (UnicodeEncodeError is a ValueError)
        raise Refused(400, "the request is not JSON text (UTF-8, without lone "
                           "surrogates)") from None
    return value


def page(name: str) -> FileResponse:
    return FileResponse(str(STATIC.joinpath(name)), media_type="text/html")


Handler = Callable[[Request], Awaitable[Response]]


def answering(handler: Handler) -> Handler:
    """A request handler whose refusals (an unknown seat, a body too large or not JSON, a
    move out of turn...) are answered as such, written once for every route; a rule that
    fails while the answer is made is answered with its located message."""

    @functools.wraps(handler)
    async def answered(request: Request) -> Response:
        try:
            return await handler(request)
        except Refused as refused:
            return refusal(refused)
        except GameError as exc:  # a rule failed (a label's value, say): the ruleset's fault
            return refusal(Refused(500, f"the game cannot go on: {exc}"))

    return answered


async def read_object(request: Request, expected: str) -> dict[str, Any]:
    """The request's body, which must be a JSON object (`expected` says which)."""
    body = await read_json(request)
    if not isinstance(body, dict):
        raise Refused(400, f"expected {expected}")
    return body


def make_app(hub: Hub) -> Starlette:
    """The Starlette application serving `hub`'s games."""

    def seat_of(request: Request) -> tuple[Served, int]:
        return hub.find(request.path_params["token"])

    async def lobby(request: Request) -> Response:
        return page("lobby.html")

    async def rulesets(request: Request) -> Response:
        return JSONResponse(await hub.lobby_offer())

    @answering
    async def new_game(request: Request) -> Response:
        body = await read_json(request)
        hub.check_saves()
        # Loading a ruleset and dealing take a while: not in the event loop.
        game = await asyncio.to_thread(game_from_lobby, body)
        hub.add(game)  # accepted: only now is it saved
        return JSONResponse({"game": game.id, "links": links(game, str(request.base_url)),
                             "save": hub.save(game)})

    async def seat_page(request: Request) -> Response:
        try:
            seat_of(request)
        except Refused:  # a person's browser, not a program: a page, not JSON
            return Response("No seat has this link.\n", status_code=404,
                            media_type="text/plain")
        return page("table.html")

    @answering
    async def seat_state(request: Request) -> Response:
        served, seat = seat_of(request)
        return JSONResponse(seat_payload(served.game, seat, full=True,
                                         left=hub.left(served, seat)))

    @answering
    async def seat_events(request: Request) -> Response:
        served, seat = seat_of(request)
        # (a seat with too many streams open is refused in the stream's first event: a
        # page's EventSource gives up on a refused request without reading why)
        return StreamingResponse(events(hub, served, seat), media_type="text/event-stream")

    @answering
    async def seat_move(request: Request) -> Response:
        served, seat = seat_of(request)
        body = await read_object(request, '{"version", "index", "texts"}')
        game = served.game
        async with served.lock:
            action = game.choose(seat, body.get("version"), body.get("index"),
                                 body.get("texts"))
            apply_move(game, seat, action)
        hub.changed_by_action(served)
        return JSONResponse({"version": game.version})

    @answering
    async def seat_ask(request: Request) -> Response:
        """A request of a seat's page besides a move: web/asks.py."""
        served, seat = seat_of(request)
        what = request.path_params["what"]
        if what not in ("hint", "react", "takeback", "log"):
            raise Refused(404, f"a seat's page asks for a hint, a reaction, a take-back or "
                               f"the log, not {what[:40]!r}")
        body = await read_object(request, "a JSON object")
        game = served.game
        if what == "hint":  # reads the game only: nothing changed
            return JSONResponse(await asks.hint(served, seat, body))
        if what == "log":
            return JSONResponse(asks.log(game, seat))
        if what == "react":
            async with served.lock:
                answer = asks.react(game, seat, body)
            hub.own_change(served, seat)
            return JSONResponse(answer)
        answer = await asks.take_back(served, seat)
        hub.changed_by_action(served)
        return JSONResponse(answer)

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
        Route("/api/seat/{token}/{what:str}", seat_ask, methods=["POST"]),
        Mount("/static", StaticFiles(directory=str(STATIC)), name="static"),
    ]
    async def no_route(request: Request, exc: Exception) -> Response:
        """A path or method no route takes: JSON for the API (as its other refusals), a
        line for a person's browser."""
        status = getattr(exc, "status_code", 404)
        if request.url.path.startswith("/api/"):
            allowed = (getattr(exc, "headers", None) or {}).get("Allow", "another method")
            what = "no such request" if status == 404 else \
                f"{request.method[:10]} is not answered here: {allowed} is"
            return refusal(Refused(status, what))
        return Response("Not found.\n" if status == 404 else "Method not allowed.\n",
                        status_code=status, media_type="text/plain")

    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={404: no_route, 405: no_route})
    app.state.hub = hub
    app.add_middleware(Guard, hosts=hub.hosts)
    app.add_middleware(SecurityHeaders)
    return app


async def events(hub: Hub, served: Served, seat: int) -> AsyncIterator[str]:
    """The seat's payload now and after every change (the first with the table's
    declarations, as a page that connects or reconnects needs them), while the game is
    served. An open stream keeps the game from being abandoned."""
    game = served.game
    if served.streams.get(seat, 0) >= MAX_STREAMS:
        yield f"event: refused\ndata: {json.dumps({'error': TOO_MANY_STREAMS})}\n\n"
        return
    seen: tuple[int, int] | None = None
    served.streams[seat] = served.streams.get(seat, 0) + 1
    try:
        while not hub.closing and hub.served.get(game.id) is served:
            mark = page_mark(game, seat)
            if mark != seen:
                payload = seat_payload(game, seat, full=seen is None,
                                       left=hub.left(served, seat))
                seen = mark
                yield f"data: {json.dumps(payload, separators=(',', ':'))}\n\n"
            else:
                yield ": still here\n\n"
            await hub.wait_page(served, seat, seen, KEEP_ALIVE)
    finally:
        served.streams[seat] -= 1
        served.seen = hub.clock()


def page_mark(game: Game, seat: int) -> tuple[int, int]:
    """What a seat's page was drawn from: the game's actions, and the seat's own controls."""
    return game.version, game.redrawn.get(seat, 0)


