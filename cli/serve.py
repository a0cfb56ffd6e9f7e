"""`cardrules serve`: play a ruleset in the browser, each person at their own page.

    cardrules serve golf6 --players 2                 # two links, one per seat
    cardrules serve golf6 -p 3 --seats human,greedy,random
    cardrules serve --resume golf6-7.cardrules-save   # on from a saved game
    cardrules serve                                    # only the lobby: start games there

The server (web/, installed with the `web` extra) listens on 127.0.0.1 unless --host says
otherwise, and prints one link per person's seat; a link's token is the seat's only key. The
command line's game takes any seat kind (programs, time budgets); the lobby's only the built-in
bots within caps, and its games are saved in --save-dir.
"""

from __future__ import annotations

import importlib.util
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from cardrules.dsl.loader import load_referenced, load_ruleset
from cardrules.errors import GameError
from cardrules.interpreter.sessions import record as records
from cardrules.interpreter.sessions.record import HUMAN
from cardrules.interpreter.sessions.start import free_path, fresh_seed

if TYPE_CHECKING:
    from cardrules.web.game import Game
    from cardrules.web.server import Hub

from cardrules.present.render import printable

from .errors import EXIT_USAGE, reports_errors
from .params import (
    SEAT,
    SEED,
    Seconds,
    Whole,
    check_save,
    file_name,
    parse_options,
    parse_programs,
    parse_seats,
    player_count,
)
from .table import game_line

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
SAVE_DIR = "cardrules-saves"  # in the current folder: where the lobby's games are saved


def web_installed() -> bool:
    """Whether the web extra (Starlette and uvicorn) is installed."""
    return all(importlib.util.find_spec(name) is not None for name in ("starlette", "uvicorn"))


@click.command("serve")
@click.argument("ruleset", required=False)
@click.option("--players", "-p", type=SEAT, help="Number of players "
              "(default: the ruleset's).")
@click.option("--seats", help="Comma-separated seat kinds, one per player: human or a bot "
              "kind (default: every seat a person's).")
@click.option("--seed", "-s", type=SEED, help="Seed for the deal and the bots (default: a new "
              "one nobody knows, never shown while the game is on).")
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
              help="Set one of the ruleset's options (repeatable).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; anything but this machine's own lets others in.")
@click.option("--port", type=Whole(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0: any free one).")
@click.option("--save", "save_file", type=click.Path(dir_okay=False), callback=file_name,
              help="Save the game here after every action (default: RULESET."
              "cardrules-save, numbered if taken, or the file resumed).")
@click.option("--resume", "resume_file", type=click.Path(dir_okay=False), callback=file_name,
              help="Go on with a saved game (from serve, play or run --human).")
@click.option("--seat", "programs", multiple=True, metavar="SEAT=KIND",
              help="With --resume: cmd:COMMAND, the program to play a seat that a program "
                   "played (a save never holds the command); or a bot's kind again, where the "
                   "save gives it more than a save may seat by itself (repeatable).")
@click.option("--delay", type=Seconds(60), default=0.8, show_default=True,
              help="Seconds between bots' moves, so that people can follow them.")
@click.option("--react-wait", "react_wait", type=Seconds(3600), default=20.0,
              show_default=True, help="With several people at a game: the seconds a chance "
              "to react waits for a person who asked to be offered it, before it goes by.")
@click.option("--save-dir", type=click.Path(file_okay=False), default=SAVE_DIR, callback=file_name,
              show_default=True, help="Folder for the games started from the lobby (made at "
              "the first one saved).")
@reports_errors
def serve_cmd(ruleset: str | None, players: int | None, seats: str | None, seed: int | None,
              options: tuple[str, ...], host: str, port: int, save_file: str | None,
              resume_file: str | None, delay: float, programs: tuple[str, ...] = (),
              react_wait: float = 20.0, save_dir: str = "") -> None:
    """Play RULESET in the browser: one link per person's seat, a lobby at /."""
    if not web_installed():
        click.echo("error: cardrules serve needs the web extra (Starlette and uvicorn): "
                   "pip install 'cardrules[web]' (in a checkout: pip install '.[web]')",
                   err=True)
        sys.exit(EXIT_USAGE)
    from cardrules.web.server import Hub, allowed_hosts

    if ruleset and resume_file:
        raise click.UsageError("give a RULESET to start a game, or --resume FILE, not both")
    if programs and not resume_file:
        raise click.UsageError("--seat names the program of a resumed game's seat: start a "
                               "game's programs with --seats")
    folder = Path(save_dir or SAVE_DIR)
    try:
        folder.exists()
    except OSError as exc:  # (a name too long, a folder that may not be looked into)
        raise click.BadParameter(f"{str(folder)[:60]}... cannot be used: "
                                 f"{exc.strerror or exc}", param_hint="--save-dir") from None
    hub = Hub(delay=delay, save_dir=folder, hosts=allowed_hosts(host),
              window_wait=react_wait)
    game, secret = None, True
    if resume_file:
        game = resumed_game(resume_file, save_file, parse_programs(programs))
    elif ruleset:
        game, secret = new_game(ruleset, players, seats, seed, options)
        check_save(save_file, game.record)
    # The address is had before a new game's save is written: a server that cannot
    # listen leaves no file behind.
    with listen(host, port) as listener:
        if game is not None and not resume_file:
            first_save(game, save_file, secret)
        if game is not None:
            hub.add(game, pinned=True)  # the person's own: any seat kind, kept to the end
        run(hub, game, listener, host)


def new_game(ruleset: str, players: int | None, seats: str | None, seed: int | None,
             options: tuple[str, ...]) -> tuple[Game, bool]:
    """The game the command line asks for (not yet saved), and whether its seed is secret
    (cardrules' pick)."""
    from cardrules.web.game import Game

    chosen = parse_options(options)
    # what the command line asks for is checked here, as every command checks it
    count = player_count(players, [load_ruleset(ruleset, chosen)])
    kinds = parse_seats(seats, count) if seats is not None else None
    if kinds is not None and HUMAN not in kinds:
        raise click.BadParameter("a game in the browser needs at least one seat for a "
                                 "person (human)", param_hint="--seats")
    secret = seed is None
    seed = fresh_seed() if secret else seed
    game = Game.new(ruleset, chosen, count, seed, kinds)
    unsaveable = records.resumable(game.record, load_referenced)
    if unsaveable is not None:  # (a game served is saved after every action)
        raise click.BadParameter(f"a game in the browser is saved, and a save of this one "
                                 f"could never be resumed: {unsaveable}", param_hint="RULESET")
    if not secret:  # whoever gave the seed may know every card: every seat is told so
        game.seed_given()
    return game, secret


def first_save(game: Game, save_file: str | None, secret: bool) -> None:
    """Save a new game where --save says (else RULESET.cardrules-save, numbered if taken)
    and announce it with its save file."""
    rules = game.engine.rules
    game.save = Path(save_file) if save_file else free_path(Path.cwd(), rules.name)
    game.write()
    if game.save_problem:
        raise GameError(game.save_problem)
    click.echo(printable(f"{game_line(rules, game.record, secret)}; saved to {game.save}"))


def resumed_game(resume_file: str, save_file: str | None, programs: dict[int, str]) -> Game:
    from cardrules.web.game import Game

    game = Game.resume(Path(resume_file), Path(save_file) if save_file else None, programs)
    check_save(save_file, game.record)
    click.echo(printable(f"{game_line(game.engine.rules, game.record, True)} - resumed from "
                         f"{resume_file} after {len(game.record.actions)} actions; saved to "
                         f"{game.save}"))
    return game


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on host:port; GameError (one line) if it cannot be had."""
    sock = None
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        family, kind, proto, _, address = infos[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(64)
    except (OSError, UnicodeError) as exc:  # (UnicodeError: a name no DNS label can be)
        if sock is not None:
            sock.close()
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else \
            "not a host name" if isinstance(exc, UnicodeError) else str(exc)
        raise GameError(f"cannot listen on {host[:80]} port {port}: {why}") from None
    return sock


def run(hub: Hub, game: Game | None, listener: socket.socket, host: str) -> None:
    """Print the links, then serve until Ctrl-C."""
    import uvicorn

    from cardrules.web.server import MAX_CONNECTIONS, links, make_app
    address, port = listener.getsockname()[:2]
    shown = f"[{address}]" if ":" in address else address
    base = f"http://{shown}:{port}/"
    if host not in LOCAL_HOSTS:
        click.echo(f"warning: listening on {host}, not only on this machine: anyone who can "
                   "reach it may open the lobby and start games; a seat's link is its only "
                   "key, so send each link to its player alone")
    if game is not None:
        for link in links(game, base):
            click.echo(f"seat {link['seat']}: {link['url']}")
    click.echo(f"lobby: {base}  (Ctrl-C stops the server)")
    if hub.save_dir is not None:
        click.echo(f"games started from the lobby are saved in {hub.save_dir}")
    # Open pages keep their event streams open: on Ctrl-C, wait for them a second only.
    # log_config=None: the server's warnings go through Python's logging as it is set up,
    # rather than uvicorn re-configuring (and closing) every handler of the process.
    # limit_concurrency: connections (each page holds one open) beyond which a request is
    # answered 503 at once, so that many connections left half-sent cannot use up the
    # process's open files.
    config = uvicorn.Config(make_app(hub), log_level="warning", access_log=False,
                            lifespan="on", timeout_graceful_shutdown=1, log_config=None,
                            limit_concurrency=MAX_CONNECTIONS)

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            if hub.loop is not None:  # end the pages' event streams, then stop
                hub.loop.call_soon_threadsafe(hub.close)
            super().handle_exit(sig, frame)

    Server(config).run(sockets=[listener])
    if game is not None and game.save is not None:
        click.echo(f"stopped; the game is saved: cardrules serve --resume {game.save}")
