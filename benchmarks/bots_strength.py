"""How strong are the search bots? Seat 1 is a search bot, every other seat random.

    python benchmarks/bots_strength.py            # 300 games per ruleset
    python benchmarks/bots_strength.py --games 60 --workers 2

For each ruleset it prints seat 1's win rate with a 95% Wilson interval, next to the win
rate of seat 1 when it is random too (the same seeds), and for golf6 the mean score of
seat 1 in both cases. A shared win counts as a win. Then the mean seconds per decision of
ISMCTS at its default time budget (0.1 s), over a few decisions per ruleset.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import time
from typing import Any

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.bots import RandomBot, make_bot
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.search import GreedyBot, IsmctsBot

# The bot used per ruleset, with a budget small enough for hundreds of games in minutes.
BEST: dict[str, tuple[str, dict[str, Any]]] = {
    "golf6": ("greedy", {"samples": 4}),
    "czech-golf": ("ismcts", {"iterations": 60}),
    "geohash": ("greedy", {"samples": 4}),
    "precognition": ("ismcts", {"iterations": 40}),
    "grandma": ("greedy", {"samples": 1}),
}
SCORE_RULESETS = ("golf6",)
BASE_SEED = 100_000


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def make(kind: str, params: dict[str, Any], seed: int, seat: int) -> Any:
    bot = make_bot(kind, seed, seat)
    for key, value in params.items():
        setattr(bot, key, value)
    return bot


def one_game(job: tuple[str, str, int]) -> tuple[bool, int]:
    """(seat 1 won, seat 1's total) for one game; mode 'bot' or 'random' for seat 1."""
    name, mode, seed = job
    engine = Engine(load_ruleset(name))
    state = engine.new_game(seed=seed)
    kind, params = BEST[name]
    bots = [make(kind, params, seed, 0) if mode == "bot" else make_bot("random", seed, 0)]
    bots += [make_bot("random", seed, seat) for seat in range(1, state.n)]
    legal = engine.legal_actions(state)
    while legal:
        seat = engine.to_move(state)
        legal = engine.step(state, bots[seat].choose(engine, state, legal))
    return 0 in (state.winners or []), state.totals[0]


def seconds_per_decision(name: str, decisions: int = 5) -> float:
    """Mean wall time of IsmctsBot at its default budget, on decisions of a random game."""
    engine = Engine(load_ruleset(name))
    state = engine.new_game(seed=7)
    walker = RandomBot(7)
    bot = IsmctsBot(7)
    spent, timed = 0.0, 0
    legal = engine.legal_actions(state)
    while legal and timed < decisions:
        if len(legal) > 1:
            start = time.perf_counter()
            bot.choose(engine, state, legal)
            spent += time.perf_counter() - start
            timed += 1
        for _ in range(3):  # move on a few actions between timed decisions
            if not legal:
                break
            legal = engine.step(state, walker.choose(engine, state, legal))
    return spent / max(timed, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--workers", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--rulesets", nargs="*", default=list(BEST))
    args = parser.parse_args()
    print(f"{args.games} games per ruleset; seat 1 = bot, other seats random")
    print(f"{'ruleset':<13} {'bot':<22} {'bot wins (95% CI)':<26} {'random seat 1 (95% CI)':<26}"
          " secs")
    with multiprocessing.Pool(args.workers) as pool:
        for name in args.rulesets:
            kind, params = BEST[name]
            start = time.perf_counter()
            seeds = [BASE_SEED + g for g in range(args.games)]
            bot = pool.map(one_game, [(name, "bot", s) for s in seeds], chunksize=1)
            base = pool.map(one_game, [(name, "random", s) for s in seeds], chunksize=4)
            took = time.perf_counter() - start
            cells = []
            for results in (bot, base):
                wins = sum(w for w, _ in results)
                lo, hi = wilson(wins, len(results))
                cells.append(f"{wins / len(results):6.1%} [{lo:5.1%}, {hi:5.1%}]")
            label = kind + "(" + ",".join(f"{k}={v}" for k, v in params.items()) + ")"
            print(f"{name:<13} {label:<22} {cells[0]:<26} {cells[1]:<26} {took:5.0f}",
                  flush=True)
            if name in SCORE_RULESETS:
                mean_bot = sum(t for _, t in bot) / len(bot)
                mean_rand = sum(t for _, t in base) / len(base)
                print(f"{'':<13} mean seat-1 score: bot {mean_bot:.1f}, random {mean_rand:.1f}"
                      f" (winner: {Engine(load_ruleset(name)).rules.winner})", flush=True)
    print("ISMCTS at its default budget (0.1 s), mean seconds per decision:")
    for name in args.rulesets:
        print(f"  {name:<13} {seconds_per_decision(name):.3f}", flush=True)


if __name__ == "__main__":
    main()


__all__ = ["GreedyBot", "IsmctsBot", "main", "wilson"]
