#!/usr/bin/env python3
"""The declared-meld search (interpreter/melding.py) before and after it cut hands into
parts, side by side, on hands from 10 cards to well past the old bound of 24.

    python benchmarks/meld_speed.py [--hands 20] [--seed 1] [--before REV] [--sizes 10,16,...]

"Before" is interpreter/melding.py as it stands at git revision --before (default: main),
loaded from `git show` into a module of its own; "after" is the working tree's. Two sets of
kinds: gin rummy's (one 52-card deck, sets of 3-4, runs of 3+ with the ace low, no wild
cards) and a contract rummy's (two decks, every 2 wild, sets of 3+, runs of 4+ turning the
corner K-A). For each hand size it times deadwood, discard_deadwood and best_melds on the
same random hands with each version (each hand's time the best of --repeat runs, so that a
slice lost to another process does not count), checks that both give the same answers
where both answer, and prints mean and worst milliseconds a hand (of the hands it answers)
and their ratio (where both answer every hand). `past` counts the hands a version refuses:
a search past the bound of work (MOST_MELD_STEPS), a fault in play.
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from cardrules.errors import RuleFault
from cardrules.interpreter import melding
from cardrules.model import MeldKind

ROOT = Path(__file__).resolve().parent.parent
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = "CDHS"


def old_module(revision: str) -> ModuleType:
    """interpreter/melding.py at `revision` (with interpreter/meld_candidates.py, which it
    imports where the revision has it), imported as a package of its own."""
    folder = Path(tempfile.mkdtemp()) / "melding_before"
    folder.mkdir()
    (folder / "__init__.py").write_text("", encoding="utf-8")
    for name in ("melding", "meld_candidates"):
        shown = subprocess.run(["git", "show", f"{revision}:interpreter/{name}.py"], cwd=ROOT,
                               capture_output=True, text=True)
        if shown.returncode == 0:
            (folder / f"{name}.py").write_text(shown.stdout, encoding="utf-8")
    sys.path.insert(0, str(folder.parent))
    try:
        return importlib.import_module("melding_before.melding")
    finally:
        sys.path.remove(str(folder.parent))


def tables(copies: int, wild_rank: str | None) -> tuple[Any, ...]:
    cards = [(r, s) for _ in range(copies) for s in range(4) for r in range(13)]
    return ([r for r, _ in cards], [s for _, s in cards],
            [RANKS[r] == wild_rank for r, _ in cards], [RANKS[r] + SUITS[s] for r, s in cards],
            [min(r + 1, 10) for r, _ in cards])


GIN = ((MeldKind("set", False, 3, 4, -1), MeldKind("run", True, 3, 0, -1, "low")), 1, None)
CONTRACT = ((MeldKind("set", False, 3, 0, -1), MeldKind("run", True, 4, 0, -1, "wrap")), 2, "2")


def meld_rules(module: ModuleType, spec: tuple[Any, ...]) -> Any:
    kinds, copies, wild = spec
    rank, suit, wilds, names, value = tables(copies, wild)
    return module.MeldRules(kinds, rank, suit, wilds, names, value, 13, 0)


def searches(module: ModuleType, rules: Any, hand: list[int]) -> tuple[Any, ...]:
    if hasattr(rules, "forget"):
        rules.forget()  # time the searches, not the answers kept from the last run
    return (module.deadwood(rules, hand, 0), module.discard_deadwood(rules, hand, 0),
            module.best_melds(rules, hand, 0))


def timed(fn: Callable[..., Any], args: tuple[Any, ...], repeat: int) -> tuple[float, Any]:
    """The best of `repeat` runs in seconds, and the answer (or the fault's message)."""
    best, answer = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        try:
            answer = fn(*args)
        except RuleFault as exc:
            return time.perf_counter() - start, f"fault: {exc}"
        best = min(best, time.perf_counter() - start)
    return best, answer


def run_size(versions: Sequence[tuple[str, ModuleType]], spec: tuple[Any, ...], size: int,
             hands: int, seed: int, repeat: int) -> list[str]:
    deck = 52 * spec[1]
    rng = random.Random(seed * 1000 + size)
    drawn = [rng.sample(range(deck), size) for _ in range(hands)]
    cells: list[str] = []
    means: list[float | None] = []
    answers: list[list[Any]] = []
    for _, module in versions:
        rules = meld_rules(module, spec)
        times, got = [], []
        for hand in drawn:
            seconds, answer = timed(searches, (module, rules, hand), repeat)
            got.append(answer)
            if not isinstance(answer, str):
                times.append(seconds * 1000)
            if hasattr(rules, "_left_out"):  # (a revision that kept left_out's answers)
                rules._left_out.clear()
        faults = sum(isinstance(a, str) for a in got)
        means.append(statistics.mean(times) if times else None)
        cells.append((f"{statistics.mean(times):9.2f} {max(times):9.2f}" if times
                      else f"{'-':>9} {'-':>9}") + f" {faults:>3}/{hands}")
        answers.append(got)
    both = [i for i in range(hands) if not any(isinstance(a[i], str) for a in answers)]
    same = ("same answers" if all(a[i] == answers[0][i] for a in answers[1:] for i in both)
            else "DIFFERENT ANSWERS")
    first, second = means[0], means[-1]
    every = not any(isinstance(a, str) for got in answers for a in got)
    ratio = f"{first / second:6.2f}x" if every and first is not None and second is not None \
        else "     -"
    return [f"{size:>5}  " + "   ".join(cells) + f"   {ratio}  {same}"]


def main(argv: Sequence[str] | None = None) -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--before", default="main")
    parser.add_argument("--sizes", default="10,16,20,24,28,32,40")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    versions = [(f"before ({args.before})", old_module(args.before)), ("after", melding)]
    print(f"{args.hands} random hands a size, seed {args.seed}; milliseconds a hand "
          "(deadwood + discard_deadwood + best_melds), best of "
          f"{args.repeat} runs; ratio: before / after")
    for title, spec in (("gin rummy's kinds, one deck", GIN),
                        ("a contract rummy's kinds, two decks, 2s wild", CONTRACT)):
        print(f"\n{title}")
        print(f"{'cards':>5}  {'before mean':>9} {'worst':>9} {'past':>6}   "
              f"{'after mean':>9} {'worst':>9} {'past':>6}   ratio")
        for size in sizes:
            print("\n".join(run_size(versions, spec, size, args.hands, args.seed, args.repeat)),
                  flush=True)


if __name__ == "__main__":
    main()
