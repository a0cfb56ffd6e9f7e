#!/usr/bin/env python3
"""How fast the search bots decide: decisions per second of `greedy` and `ismcts` at their
default budgets, in each of the five games, one bot seat among random ones.

    python benchmarks/bots_speed.py [--games 20] [--decisions 400] [--rulesets golf6 grandma]
    python benchmarks/bots_speed.py --rulesets freecell   # any other: at its default seats
    python benchmarks/bots_speed.py --match        # also: one golf6 match, four greedy seats

Only the bot's own decisions are timed (the random seats' moves are not), one process, the
bot's seat turning from game to game. Prints decisions/s for each bot and game; --match times
whole 4-player golf6 matches with greedy in every seat, in seconds a match, and as how many
random matches of the hand-written Golf (../shared/bench/golf_handcoded.py) take that long,
timed in the same run. The searches play their imagined games on the ruleset's kernel, compiled
at a search's first decision; that compile is timed apart, once per ruleset.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
import time
from pathlib import Path
from types import ModuleType

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.kernel import kernel_for
from cardrules.interpreter.players.bots import make_bot
from cardrules.interpreter.sessions.play import play_game

GAMES = {"golf6": 4, "czech-golf": 4, "geohash": 4, "precognition": 3, "grandma": 3}


def decisions_per_second(engine: Engine, players: int, kind: str, games: int,
                         most: int) -> tuple[float, int]:
    spent, decisions = 0.0, 0
    for seed in range(games):
        if decisions >= most:
            break
        state = engine.new_game(players, seed)
        watched = seed % players
        bots = [make_bot(kind if seat == watched else "random", seed, seat)
                for seat in range(players)]
        legal = engine.legal_actions(state)
        while legal:
            seat = engine.to_move(state)
            assert seat is not None
            if seat == watched and len(legal) > 1:
                t0 = time.perf_counter()
                action = bots[seat].choose(engine, state, legal)
                spent += time.perf_counter() - t0
                decisions += 1
            else:
                action = bots[seat].choose(engine, state, legal)
            legal = engine.play(state, action)
    return decisions / spent if spent else 0.0, decisions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per bot and ruleset")
    parser.add_argument("--rulesets", nargs="*", default=list(GAMES),
                        help="built-in rulesets (default: the five; any other plays at its "
                             "default number of players)")
    parser.add_argument("--decisions", type=int, default=400,
                        help="no new game once a bot has made this many timed decisions")
    parser.add_argument("--match", action="store_true",
                        help="also time 4-player golf6 matches with four greedy seats")
    args = parser.parse_args(argv)
    print(f"decisions/s at the default budgets, {args.games} games per bot and ruleset")
    print(f"  {'game (players)':<20} {'greedy':>10} {'ismcts':>10}   (decisions timed; "
          "the kernel's compile, once per ruleset)")
    for name in args.rulesets:
        engine = Engine(load_ruleset(name))
        players = GAMES.get(name, engine.rules.default_players)
        # A search plays its imagined games on the ruleset's kernel, compiled at its first
        # decision (`kernel_for`): once per ruleset and process, so timed apart, not as a
        # decision's time.
        t0 = time.perf_counter()
        kernel_for(engine)
        compile_time = time.perf_counter() - t0
        rates = [decisions_per_second(engine, players, kind, args.games, args.decisions)
                 for kind in ("greedy", "ismcts")]
        print(f"  {f'{name} ({players})':<20} {rates[0][0]:10.1f} {rates[1][0]:10.1f}   "
              f"({rates[0][1]}, {rates[1][1]}; {compile_time:.2f} s)")
    if args.match:
        engine = Engine(load_ruleset("golf6"))
        play_game(engine, 4, 99, seats=["greedy"] * 4)  # warm up: compile, allocate
        t0 = time.perf_counter()
        for seed in range(3):
            play_game(engine, 4, seed, seats=["greedy"] * 4)
        match = (time.perf_counter() - t0) / 3
        line = f"golf6, 4 greedy seats: {match:.2f} s a match"
        if REFERENCE.is_file():
            ref = _reference()
            rng = random.Random(1)
            t0 = time.perf_counter()
            for _ in range(200):
                ref.play_match(rng, 4, 9, False, ref.play_round_api)
            hand = (time.perf_counter() - t0) / 200
            line += f" (the time of {match / hand:,.0f} hand-written random matches)"
        print(line)
    return 0


REFERENCE = Path(__file__).resolve().parent.parent.parent / "shared" / "bench" / "golf_handcoded.py"


def _reference() -> ModuleType:
    spec = importlib.util.spec_from_file_location("golf_handcoded", REFERENCE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


if __name__ == "__main__":
    sys.exit(main())
