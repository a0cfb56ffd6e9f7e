#!/usr/bin/env python3
"""Random play on the kernel: whole games per second, for some rulesets, of this build and
(with --against) of another, side by side.

    python benchmarks/random_play_speed.py [--games 40] [--rounds 5] [--against DIR] \
        [RULESET ...]

Each round times every ruleset's batch of games (random seats, seeds 0..games-1, the
default number of players) in a fresh process per build, the builds taking turns, so that
machine noise hits them alike; the time is the process's CPU time. Beside each rate, the
actions the batch took (equal for two builds that play the same games). --against DIR: a
folder holding another build's importable `cardrules` package (put first on the import path
of its processes). It prints each build's best and median games per second over the rounds
(the best: the batch other work disturbed least) and, with two builds, the ratios of the
bests and of the medians (this build's over the other's).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

DEFAULT = ("dou-dizhu", "grandma")


def batch(names: list[str], games: int) -> dict[str, list[float]]:
    """Of each ruleset, played in this process: games per second of the process's CPU time
    (what other work on the machine disturbs least), and the actions the games took."""
    from cardrules.dsl.loader import load_ruleset
    from cardrules.interpreter.kernel import Kernel
    from cardrules.interpreter.sessions.play import play_game

    out = {}
    for name in names:
        kernel = Kernel(load_ruleset(name))
        play_game(kernel, None, 0)  # (warm: the first game pays for what is made once)
        actions = 0
        t0 = time.process_time()
        for seed in range(games):
            actions += play_game(kernel, None, seed).actions
        out[name] = [games / (time.process_time() - t0), actions]
    return out


def run(names: list[str], games: int, path: str | None) -> dict[str, list[float]]:
    """A batch in a fresh process, of the build at `path` (None: this one)."""
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [path, env.get("PYTHONPATH")]))
    done = subprocess.run([sys.executable, __file__, "--worker", "--games", str(games), *names],
                          env=env, capture_output=True, text=True, check=True, cwd="/")
    return dict(json.loads(done.stdout))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("rulesets", nargs="*", default=list(DEFAULT))
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--against", metavar="DIR")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(batch(args.rulesets, args.games)))
        return 0
    builds = {"this": None} | ({"other": args.against} if args.against else {})
    rates: dict[str, dict[str, list[float]]] = {b: {r: [] for r in args.rulesets}
                                                for b in builds}
    actions: dict[str, dict[str, float]] = {b: {} for b in builds}
    for i in range(args.rounds):
        order = list(builds.items()) if i % 2 == 0 else list(reversed(builds.items()))
        for build, path in order:
            for name, (rate, taken) in run(args.rulesets, args.games, path).items():
                rates[build][name].append(rate)
                actions[build][name] = taken
    print(f"{'ruleset':<12}" + "".join(f"{b + ' best':>12}{'median':>8}{'actions':>9}"
                                        for b in builds)
          + ("   ratio best  median" if args.against else ""))
    for name in args.rulesets:
        best = [max(rates[b][name]) for b in builds]
        middle = [statistics.median(rates[b][name]) for b in builds]
        line = f"{name:<12}" + "".join(f"{x:>12.1f}{m:>8.1f}{actions[b][name]:>9.0f}"
                                       for x, m, b in zip(best, middle, builds))
        if args.against:
            line += f"{best[0] / best[1]:>13.3f}{middle[0] / middle[1]:>8.3f}"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
