#!/usr/bin/env python3
"""Time complete 4-player, 9-round golf6 matches: cardrules against a hand-written Golf.

    python benchmarks/golf_speed.py [--games 400] [--reference PATH]

All play uniformly random moves at the same decision points. cardrules plays them twice:
on its playout kernel (interpreter/kernel.py: what simulations, `compare` and the bots'
searches run on) and on its engine (what serves people: knowledge, logs, checked actions).
The reference is a hand-coded Python Golf driven through a legal_actions()/apply_action()
API (its `--style api`), the fair yardstick for an interpreter. All run in this one
process, in alternating batches, so machine noise hits them alike. It prints matches per
second, the ratios, and checks that they play the same game: mean play-phase turns per
round and mean round score per player must agree within noise.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import random
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.kernel import Kernel
from cardrules.interpreter.sessions.play import play_game

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_REFERENCE = ROOT.parent / "shared" / "bench" / "golf_handcoded.py"
PLAYERS, ROUNDS = 4, 9


def load_reference(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("golf_handcoded", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load the reference program {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def interpreter_batch(engine: Engine, seeds: range) -> tuple[float, list[float], list[float]]:
    """Seconds for the batch, and per match: play-phase turns per round, round score."""
    turns, scores = [], []
    t0 = time.perf_counter()
    for seed in seeds:
        state = play_game(engine, PLAYERS, seed)
        # state.turns counts the reveal phase too: one turn per player per round.
        turns.append((state.turns - PLAYERS * ROUNDS) / ROUNDS)
        scores.append(sum(state.totals) / (PLAYERS * ROUNDS))
    return time.perf_counter() - t0, turns, scores


def reference_batch(ref: ModuleType, rng: random.Random,
                    count: int) -> tuple[float, list[float], list[float]]:
    turns, scores = [], []
    t0 = time.perf_counter()
    for _ in range(count):
        totals, _winners, _actions, t = ref.play_match(rng, PLAYERS, ROUNDS, False,
                                                       ref.play_round_api)
        turns.append(t / ROUNDS)
        scores.append(sum(totals) / (PLAYERS * ROUNDS))
    return time.perf_counter() - t0, turns, scores


def agree(name: str, a: list[float], b: list[float]) -> bool:
    """Whether two samples' means agree within 4 standard errors of their difference."""
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    se = math.sqrt(statistics.variance(a) / len(a) + statistics.variance(b) / len(b))
    ok = abs(ma - mb) <= 4 * se
    print(f"  {name:<40} cardrules {ma:7.2f}   reference {mb:7.2f}   "
          f"difference {ma - mb:+.2f} (4 s.e. = {4 * se:.2f})  {'agree' if ok else 'DIFFER'}")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="matches for each engine")
    parser.add_argument("--batches", type=int, default=4, help="alternating batches")
    parser.add_argument("--reference", type=Path, default=DEFAULT_REFERENCE)
    args = parser.parse_args(argv)
    if not args.reference.is_file():
        print(f"reference program not found: {args.reference}", file=sys.stderr)
        return 2
    ref = load_reference(args.reference)
    rules = load_ruleset("golf6")
    players = {"kernel": Kernel(rules), "engine": Engine(rules)}
    per_batch = max(args.games // args.batches, 1)
    rng = random.Random(1)
    seconds = {"kernel": 0.0, "engine": 0.0, "reference": 0.0}
    turns: dict[str, list[float]] = {name: [] for name in seconds}
    scores: dict[str, list[float]] = {name: [] for name in seconds}
    for player in players.values():
        play_game(player, PLAYERS, 0)  # warm up: compile, allocate
    for b in range(args.batches):
        for name, player in players.items():
            dt, t, s = interpreter_batch(player, range(b * per_batch, (b + 1) * per_batch))
            seconds[name] += dt
            turns[name] += t
            scores[name] += s
        dt, t, s = reference_batch(ref, rng, per_batch)
        seconds["reference"] += dt
        turns["reference"] += t
        scores["reference"] += s
    games = per_batch * args.batches
    rate = {name: games / spent for name, spent in seconds.items()}
    print(f"golf6, {PLAYERS} players, {ROUNDS} rounds, {games} matches each, uniform random play")
    print(f"  cardrules kernel                 {rate['kernel']:8.1f} matches/s")
    print(f"  cardrules engine                 {rate['engine']:8.1f} matches/s")
    print(f"  hand-written, --style api        {rate['reference']:8.1f} matches/s")
    print(f"  ratio kernel / hand-written      {rate['kernel'] / rate['reference']:8.3f}")
    print(f"  ratio engine / hand-written      {rate['engine'] / rate['reference']:8.3f}")
    print("same game?")
    ok = True
    for name in ("kernel", "engine"):
        ok &= agree(f"{name}: play-phase turns per round", turns[name], turns["reference"])
        ok &= agree(f"{name}: round score per player", scores[name], scores["reference"])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
