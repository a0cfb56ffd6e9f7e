#!/usr/bin/env python3
"""What the playout kernel buys a search bot at equal time: ISMCTS on the kernel against ISMCTS
on the engine, in the same games, each given the same seconds a decision.

    python benchmarks/bots_equal_time.py                       # precognition and golf6
    python benchmarks/bots_equal_time.py --rulesets golf6 --seconds 0.05 --games 100

ISMCTS plays its imagined games on the rules' kernel (interpreter/kernel.py); before the
kernel it played them on the engine, which keeps who knows each card, a cache of legal actions
and checks every action. Here one seat plays on the kernel and one on the engine, each with
`--seconds` of wall time a decision (`ismcts:0.02s`), the other seats random. Game g puts the
kernel's seat at g mod n and the engine's next to it, after it in even games and before it in
odd ones, so neither sitting first nor playing after the other favours either. It prints each
seat's share of the wins (a win shared by k seats counts 1/k) with a 95% Wilson interval, and
how many iterations each made a decision (all its iterations over all its searches): at equal time,
the kernel's seat searches more and (the figures say how much) wins more. Time budgets depend
on the machine, so the figures are not a function of the seed; both seats of a game meet the
same load.
"""

from __future__ import annotations

import argparse
import functools
import multiprocessing
from typing import Any

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.kernel import Kernel
from cardrules.interpreter.players.bots import make_bot
from cardrules.interpreter.players.search import IsmctsBot
from cardrules.interpreter.sessions.play import play
from cardrules.interpreter.sessions.simulate import wilson
from cardrules.interpreter.state import GameState
from cardrules.model import Action, Ruleset

PLAYERS = {"precognition": 3, "golf6": 4, "czech-golf": 4, "grandma": 3, "geohash": 4}


class OnEngine(Kernel):
    """The engine, as a search plays its samples on it (what ISMCTS did before the kernel):
    the engine's own rules, checks, cache and knowledge; only `adopt` from the kernel's
    interface, which keeps all of that and stops the sample at its round's end."""

    def __init__(self, ruleset: Ruleset):  # (no kernel compilation: the engine's rules)
        Engine.__init__(self, ruleset)

    legal_actions = Engine.legal_actions
    _make_play = Engine._make_play

    def adopt(self, state: GameState, until_round_end: bool = False) -> GameState:
        state.until_round_end = until_round_end
        return state


class Counted(IsmctsBot):
    """ISMCTS with a time budget that counts its searches and their iterations."""

    def __init__(self, seed: Any, seconds: float) -> None:
        super().__init__(seed, seconds=seconds)
        self.iterations_made = 0
        self.searches = 0

    def _grow(self, engine: Engine, state: GameState, legal: list[Action]) -> Any:
        self.searches += 1
        return super()._grow(engine, state, legal)

    def _iterate(self, *args: Any) -> None:
        self.iterations_made += 1
        super()._iterate(*args)


@functools.cache
def rules_of(name: str) -> Ruleset:
    return load_ruleset(name)


# The engine each ruleset's searches play on, by the id of the Ruleset (rules_of keeps each
# one loaded, once per ruleset and worker).
ON_ENGINE: dict[int, OnEngine] = {}


class CountedOnEngine(Counted):
    @staticmethod
    def playouts(engine: Engine) -> Kernel:  # type: ignore[override]
        found = ON_ENGINE.get(id(engine.rules))
        if found is None:
            found = ON_ENGINE[id(engine.rules)] = OnEngine(engine.rules)
        return found


def one_game(job: tuple[str, int, float, int]) -> dict[str, float]:
    name, players, seconds, seed = job
    engine = Engine(rules_of(name))
    state = engine.new_game(players, seed)
    n = state.n
    kernel_seat = seed % n
    engine_seat = (kernel_seat + (1 if seed % 2 == 0 else -1)) % n
    kernel_bot = Counted(f"{seed}/kernel", seconds)
    engine_bot = CountedOnEngine(f"{seed}/engine", seconds)
    bots = [kernel_bot if p == kernel_seat else engine_bot if p == engine_seat
            else make_bot("random", seed, p) for p in range(n)]
    play(engine, state, bots)
    winners = state.winners or []
    out: dict[str, float] = {}
    for label, seat, bot in (("kernel", kernel_seat, kernel_bot),
                             ("engine", engine_seat, engine_bot)):
        out[label] = 1 / len(winners) if seat in winners else 0.0
        out[label + " iterations"] = bot.iterations_made
        out[label + " searches"] = bot.searches
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rulesets", nargs="*", default=["precognition", "golf6"])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=0.02, help="each search's a decision")
    parser.add_argument("--workers", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    args = parser.parse_args()
    print(f"ISMCTS, {args.seconds:g} s a decision, on the kernel and on the engine in the same "
          f"games (the other seats random), {args.games} games per ruleset")
    print(f"{'ruleset':<13} {'n':>2}  {'on the kernel: wins (95% CI)':<30}"
          f" {'on the engine: wins (95% CI)':<30} iterations a decision, kernel / engine")
    with multiprocessing.Pool(args.workers) as pool:
        for name in args.rulesets:
            players = PLAYERS.get(name) or load_ruleset(name).default_players
            seeds = range(args.seed, args.seed + args.games)
            results = pool.map(one_game, [(name, players, args.seconds, s) for s in seeds],
                               chunksize=1)
            cells = []
            for label in ("kernel", "engine"):
                wins = sum(r[label] for r in results)
                lo, hi = wilson(wins, len(results))
                cells.append(f"{wins / len(results):6.1%} [{lo:5.1%}, {hi:5.1%}]")
            kernel_its, engine_its = (sum(r[f"{label} iterations"] for r in results)
                                      / max(sum(r[f"{label} searches"] for r in results), 1)
                                      for label in ("kernel", "engine"))
            print(f"{name:<13} {players:>2}  {cells[0]:<30} {cells[1]:<30} "
                  f"{kernel_its:7.1f} / {engine_its:.1f} ({kernel_its / engine_its:.2f}x)",
                  flush=True)


if __name__ == "__main__":
    main()
