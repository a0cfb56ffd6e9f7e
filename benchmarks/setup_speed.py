#!/usr/bin/env python3
"""What starting a game costs: games/s of a one-hand ruleset with a handful of actions.

    python benchmarks/setup_speed.py [--games 20000] [--batches 5]

benchmarks/data/high-card.yaml deals one card to each of 4 players, each shows it, the highest
wins: four actions a game, so a game is mostly its set-up (the state, the deck, the deal) and
its end (the scores). Prints games/s (the best batch: the machine's noise only ever slows a
batch down) and microseconds per game, split into new_game and the rest.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.sessions.play import play_game

RULESET = Path(__file__).resolve().parent / "data" / "high-card.yaml"


def best_rate(fn, count: int, batches: int) -> float:
    best = float("inf")
    for _ in range(batches):
        t0 = time.perf_counter()
        for seed in range(count):
            fn(seed)
        best = min(best, time.perf_counter() - t0)
    return count / best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--batches", type=int, default=5)
    args = parser.parse_args(argv)
    engine = Engine(load_ruleset(RULESET))
    play_game(engine, 4, 0)  # warm up
    whole = best_rate(lambda seed: play_game(engine, 4, seed), args.games, args.batches)
    start = best_rate(lambda seed: engine.new_game(4, seed), args.games, args.batches)
    print(f"high-card, 4 players, {args.games} games a batch, best of {args.batches}")
    print(f"  whole games            {whole:9.0f} games/s  ({1e6 / whole:6.1f} us a game)")
    print(f"  new_game alone         {start:9.0f} games/s  ({1e6 / start:6.1f} us a game)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
