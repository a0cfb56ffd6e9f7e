#!/usr/bin/env python3
"""Does a ruleset play the same game as OpenSpiel's? Uniform random players in both engines.

    python benchmarks/openspiel_match.py spades [--games 4000] [--seed 1]
    python benchmarks/openspiel_match.py gin-rummy [--games 3000]
    python benchmarks/openspiel_match.py kuhn-poker [--games 20000]
    python benchmarks/openspiel_match.py dou-dizhu [--games 2000]
    python benchmarks/openspiel_match.py holdem [--games 20000]

Plays the cardrules ruleset with the options that reproduce OpenSpiel's game (below), and
OpenSpiel's game with its default parameters (universal_poker with those of heads-up limit
hold'em), each with every seat choosing uniformly among
its legal actions (OpenSpiel's chance nodes sampled by their probabilities). Compares the mean
number of player actions a game and the mean return of each seat, each with its 95% interval
(mean +- 1.96 standard errors; the two agree when the interval of their difference holds 0),
and prints the games per second of OpenSpiel and of cardrules (on its playout kernel, what
simulations run on, and on its engine, what serves people), measured in the same run, in
batches that take turns. Needs open_spiel (pip install '.[openspiel]').
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from cardrules.adapters.lockstep import HOLDEM_PARAMS
from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.kernel import Kernel
from cardrules.interpreter.sessions.play import play_game


@dataclass(frozen=True)
class Match:
    """A ruleset, the options that make it OpenSpiel's game, that game's name and its
    parameters."""

    ruleset: str
    options: dict[str, str]
    game: str
    params: dict[str, Any] = field(default_factory=dict)


MATCHES = {
    "spades": Match("spades", {"one_deal": "true", "first_bidder": "seat1",
                               "first_lead": "seat1", "spades_broken": "never",
                               "team_bid_limit": "true"}, "spades"),
    "gin-rummy": Match("gin-rummy", {"openspiel": "true"}, "gin_rummy"),
    "kuhn-poker": Match("kuhn-poker", {}, "kuhn_poker"),
    "dou-dizhu": Match("dou-dizhu", {"openspiel": "true"}, "dou_dizhu"),
    "holdem": Match("holdem", {"hands": "1"}, "universal_poker", HOLDEM_PARAMS),
}


Result = tuple[float, list[int], list[list[float]]]  # seconds, actions and returns per game
BATCHES = 8  # each engine plays its games in this many batches, taking turns


def cardrules_games(match: Match, games: range, seed: int, kernel: bool = True) -> Result:
    """Seconds, player actions per game and each seat's return per game, for the games
    numbered `games`."""
    rules = load_ruleset(match.ruleset, match.options)
    engine = Kernel(rules) if kernel else Engine(rules)
    play_game(engine, None, -1)  # warm up: compile, allocate
    actions: list[int] = []
    returns: list[list[float]] = []
    t0 = time.perf_counter()
    for game in games:
        state = play_game(engine, None, seed * 1_000_003 + game)
        actions.append(state.actions)
        returns.append([float(t) for t in state.totals])
    return time.perf_counter() - t0, actions, returns


def openspiel_games(match: Match, games: range, rng: random.Random) -> Result:
    import pyspiel

    game = pyspiel.load_game(match.game, match.params)
    actions: list[int] = []
    returns: list[list[float]] = []
    t0 = time.perf_counter()
    for _ in games:
        state = game.new_initial_state()
        count = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
                count += 1
        actions.append(count)
        returns.append(list(state.returns()))
    return time.perf_counter() - t0, actions, returns


def side_by_side(match: Match, games: int, seed: int) -> dict[str, Result]:
    """Each engine's games, played in batches that take turns (so that a change in the
    machine's load falls on all of them alike), the times and results of each summed."""
    rng = random.Random(seed)  # OpenSpiel's chance and choices, one stream across batches
    runs: dict[str, Callable[[range], Result]] = {
        "cardrules": lambda part: cardrules_games(match, part, seed),
        "engine": lambda part: cardrules_games(match, part, seed, kernel=False),
        "OpenSpiel": lambda part: openspiel_games(match, part, rng)}
    results: dict[str, Result] = {who: (0.0, [], []) for who in runs}
    size = -(-games // BATCHES)
    for start in range(0, games, size):
        part = range(start, min(start + size, games))
        for who, run in runs.items():
            seconds, actions, returns = run(part)
            total, all_actions, all_returns = results[who]
            results[who] = (total + seconds, all_actions + actions, all_returns + returns)
    return results


def interval(values: list[float]) -> tuple[float, float]:
    """Mean and half-width of its 95% interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.nan
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def compare(name: str, ours: list[float], theirs: list[float]) -> bool:
    (a, ha), (b, hb) = interval(ours), interval(theirs)
    half = math.sqrt(ha * ha + hb * hb)
    agree = abs(a - b) <= half or (ha == hb == 0 and a == b)
    print(f"  {name:<26} cardrules {a:9.3f} +- {ha:6.3f}   OpenSpiel {b:9.3f} +- {hb:6.3f}   "
          f"{'agree' if agree else 'DIFFER'}")
    return agree


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(MATCHES))
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    match = MATCHES[args.game]
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("open_spiel is not installed: pip install '.[openspiel]'", file=sys.stderr)
        return 2
    results = side_by_side(match, args.games, args.seed)
    options = " ".join(f"{k}={v}" for k, v in match.options.items()) or "its defaults"
    print(f"{match.ruleset} ({options}) against OpenSpiel's {match.game}, {args.games} games "
          "each, uniform random players")
    names = {"cardrules": "cardrules kernel", "engine": "cardrules engine"}
    for who, (seconds, _, _) in results.items():
        print(f"  {names.get(who, who):<17} {args.games / seconds:9.1f} games/s")
    rate = {who: args.games / seconds for who, (seconds, _, _) in results.items()}
    print(f"  ratio kernel / OpenSpiel {rate['cardrules'] / rate['OpenSpiel']:6.2f}, "
          f"engine / OpenSpiel {rate['engine'] / rate['OpenSpiel']:6.2f}")
    ours, theirs = results["cardrules"], results["OpenSpiel"]
    ok = compare("player actions per game", [float(a) for a in ours[1]],
                 [float(a) for a in theirs[1]])
    for seat in range(len(ours[2][0])):
        ok &= compare(f"return of seat {seat + 1}", [r[seat] for r in ours[2]],
                      [r[seat] for r in theirs[2]])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
