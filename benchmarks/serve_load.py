#!/usr/bin/env python3
"""Load on `cardrules serve`: games of two people each, played to the end over HTTP.

    python benchmarks/serve_load.py [--games 20] [--ruleset golf6] [--option rounds=3]
                                    [--poll 0.1] [--timeout 600] [--seed 1]

Starts the real server (`cardrules serve`, uvicorn) on 127.0.0.1 at a free port in a
process of its own, starts the games from the lobby's API, and gives each seat a client
(httpx) that does what a page does: asks for its seat (GET /api/seat/{token}: its choices
and the version they belong to) every `poll` seconds until it has choices, then makes one
at random (POST .../move). Prints the moves' latency (median, p99), the errors, the games
finished, and the server's memory (resident set) before and after. Loopback only; at most
50 games, and the whole run stops after `timeout` seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

MAX_GAMES = 50  # what one server keeps at once


def start_server(save_dir: str) -> tuple[subprocess.Popen[str], str]:
    """`cardrules serve` on a free loopback port; the process and its address."""
    process = subprocess.Popen(
        [sys.executable, "-m", "cardrules", "serve", "--host", "127.0.0.1", "--port", "0",
         "--delay", "0", "--save-dir", save_dir],
        stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    for line in process.stdout:
        if line.startswith("lobby: "):
            return process, line.split()[1]
    process.kill()
    raise SystemExit("error: the server did not start (see its output above)")


def rss_mb(pid: int) -> float | None:
    """The process's resident memory in MB (Linux's /proc), or None where unknown."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


class Tally:
    """What the clients saw: each move's latency, and every answer that was not 200."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.finished: set[str] = set()


async def seat_client(base: str, game: str, url: str, rng: random.Random, poll: float,
                      deadline: float, tally: Tally) -> None:
    """One seat's page: wait for choices, make one at random, until the game is over."""
    token_url = url.replace(base + "seat/", base + "api/seat/")
    async with httpx.AsyncClient(timeout=10.0) as client:
        while time.monotonic() < deadline:
            answer = await client.get(token_url)
            if answer.status_code != 200:
                tally.errors.append(f"GET {answer.status_code} {answer.text[:80]}")
                return
            seat = answer.json()
            if seat["results"]:
                tally.finished.add(game)
                return
            choices = [c for c in seat["choices"] if not c["texts"]]
            if not choices:
                await asyncio.sleep(poll)
                continue
            pick = rng.choice(choices)
            began = time.perf_counter()
            moved = await client.post(f"{token_url}/move",
                                      json={"version": seat["version"], "index": pick["index"]})
            tally.latencies.append(time.perf_counter() - began)
            if moved.status_code != 200:
                tally.errors.append(f"POST {moved.status_code} {moved.text[:80]}")


async def load(base: str, args: argparse.Namespace, tally: Tally) -> int:
    """Start the games from the lobby's API and play them; the number started."""
    options = dict(pair.split("=", 1) for pair in args.option)
    clients = []
    async with httpx.AsyncClient(timeout=30.0) as lobby:
        for number in range(args.games):
            answer = await lobby.post(base + "api/games", json={
                "ruleset": args.ruleset, "players": 2, "seats": ["human", "human"],
                "options": options, "seed": args.seed + number})
            if answer.status_code != 200:
                tally.errors.append(f"new game {answer.status_code} {answer.text[:80]}")
                continue
            data = answer.json()
            for link in data["links"]:
                rng = random.Random(f"{args.seed}/{number}/{link['seat']}")
                clients.append((data["game"], link["url"], rng))
    deadline = time.monotonic() + args.timeout
    await asyncio.gather(*(seat_client(base, game, url, rng, args.poll, deadline, tally)
                           for game, url, rng in clients))
    return len(clients) // 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help=f"games, 1 to {MAX_GAMES}")
    parser.add_argument("--ruleset", default="golf6", help="a built-in ruleset for 2 players")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--poll", type=float, default=0.1,
                        help="seconds a client waits before asking again for its seat")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds, at most")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not 1 <= args.games <= MAX_GAMES:
        parser.error(f"--games: from 1 to {MAX_GAMES}")
    with tempfile.TemporaryDirectory() as saves:
        process, base = start_server(saves)
        try:
            httpx.get(base + "api/rulesets", timeout=30.0).raise_for_status()  # warm
            before = rss_mb(process.pid)
            tally = Tally()
            began = time.monotonic()
            started = asyncio.run(load(base, args, tally))
            spent = time.monotonic() - began
            after = rss_mb(process.pid)
        finally:
            process.terminate()
            process.wait(10)
    print(report(args, tally, started, spent, before, after))
    return 0 if not tally.errors and len(tally.finished) == args.games else 1


def report(args: argparse.Namespace, tally: Tally, started: int, spent: float,
           before: float | None, after: float | None) -> str:
    """The figures, a line each."""
    moves = sorted(tally.latencies)
    lines = [f"{args.games} games of {args.ruleset}, {2 * started} clients, polling every "
             f"{args.poll} s: {spent:.1f} s"]
    if moves:
        p99 = moves[min(len(moves) - 1, int(0.99 * len(moves)))]
        lines.append(f"moves: {len(moves)}, latency median {statistics.median(moves) * 1000:.0f}"
                     f" ms, p99 {p99 * 1000:.0f} ms")
    lines.append(f"errors: {len(tally.errors)}" + (f" (first: {tally.errors[0]})"
                                                    if tally.errors else ""))
    lines.append(f"games finished: {len(tally.finished)} of {args.games}")

    def mb(value: float | None) -> str:
        return "unknown" if value is None else f"{value:.0f} MB"

    lines.append(f"server memory (RSS): {mb(before)} before, {mb(after)} after")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
