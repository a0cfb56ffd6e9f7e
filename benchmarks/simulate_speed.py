#!/usr/bin/env python3
"""Throughput and memory of `cardrules simulate` on golf6 (4 players, random seats).

    python benchmarks/simulate_speed.py [--games 3000] [--big]

1. Games per second with 1 worker (in this process) and with 2 worker processes, and
   their ratio (the target: 2 workers at least 1.8x one, on a machine with 2 free cores).
2. Peak memory (ru_maxrss) of a run of 10^3 and 10^4 games (with --big also 10^5) on 2
   workers, each run in a fresh process so that its peak is its own: the parent that sums
   the games up, and the largest of its worker processes. Records are summed up as they
   arrive and never kept, so both should stay flat as the number of games grows.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from contextlib import closing

from cardrules.dsl.loader import RulesetRef, load_ruleset
from cardrules.interpreter.sessions.simulate import Simulation, Summary, stream

RULESET, PLAYERS = "golf6", 4


def run(games: int, workers: int, seed: int = 1) -> tuple[float, Summary]:
    """Seconds to play and sum up `games` games, and the summary."""
    sim = Simulation((RulesetRef.of(RULESET),), games, PLAYERS, ("random",) * PLAYERS, seed)
    summary = Summary(load_ruleset(RULESET), sim)
    started = time.perf_counter()
    with closing(stream(sim, workers)) as records:
        for (record,) in records:
            summary.add(record)
    return time.perf_counter() - started, summary


def child(games: int) -> None:
    """One memory measurement: print this process's and its children's peak RSS (KiB)."""
    seconds, summary = run(games, workers=2)
    print(json.dumps({
        "games": summary.games, "seconds": seconds,
        "parent_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "children_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
        "win_rate_1": summary.report()["per_seat"][0]["win_rate"]}))


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the pool's workers): the
    CPU a game costs, whatever else runs on the machine."""
    own, kids = (resource.getrusage(who) for who in (resource.RUSAGE_SELF,
                                                      resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def throughput(games: int) -> None:
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"throughput: {RULESET}, {PLAYERS} players, {games} games "
          f"({os.cpu_count()} CPUs; load average before: {load})")
    rates = {}
    for workers in (1, 2):
        cpu = cpu_seconds()
        seconds, summary = run(games, workers)
        cpu = cpu_seconds() - cpu
        rates[workers] = games / seconds
        print(f"  {workers} worker{'s' if workers > 1 else ' '}  {seconds:7.2f} s  "
              f"{rates[workers]:7.1f} games/s  CPU {1000 * cpu / games:5.2f} ms/game, "
              f"{cpu / seconds:4.2f} cores busy  "
              f"(seat 1 win rate {summary.report()['per_seat'][0]['win_rate']})")
    ratio = rates[2] / rates[1]
    verdict = "meets" if ratio >= 1.8 else "misses"
    print(f"  ratio 2 workers / 1 worker: {ratio:.2f}x ({verdict} the 1.8x target)")


def memory(sizes: list[int]) -> None:
    print("peak memory (ru_maxrss), 2 workers, each size in a fresh process")
    print(f"  {'games':>7}  {'seconds':>8}  {'games/s':>8}  {'parent MiB':>10}  "
          f"{'largest worker MiB':>18}")
    for games in sizes:
        out = subprocess.run([sys.executable, __file__, "--child", str(games)],
                             check=True, capture_output=True, text=True).stdout
        m = json.loads(out)
        print(f"  {m['games']:>7}  {m['seconds']:>8.1f}  {m['games'] / m['seconds']:>8.1f}  "
              f"{m['parent_kib'] / 1024:>10.1f}  {m['children_kib'] / 1024:>18.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3000, help="games for the throughput")
    parser.add_argument("--big", action="store_true", help="also measure 10^5 games")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    throughput(args.games)
    print()
    memory([10 ** 3, 10 ** 4] + ([10 ** 5] if args.big else []))


if __name__ == "__main__":
    main()
