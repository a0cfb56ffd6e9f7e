#!/usr/bin/env python3
"""Can a just-in-time compiler run the playout kernel? numba tried on every kernel function.

    pip install numba          # not a dependency of cardrules: this probe only
    python benchmarks/jit_probe.py [--rulesets golf6 spades]

For each ruleset, plays a few kernel games with every generated function wrapped in
`numba.njit` (nopython mode: the only mode numba still offers that can be faster than
Python), each wrapper falling back to the Python function once numba refuses it, and
reports how many of the functions numba compiled, how long compiling took, why the others
were refused (the first line of numba's message, grouped), and games a second with the
compiled functions against the plain kernel, in the same run.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.kernel import Kernel
from cardrules.interpreter.sessions.play import play_game


class Probe:
    """A generated function, called through numba while numba compiles it."""

    def __init__(self, fn: Callable[..., Any], numba: Any, report: dict[str, Any]):
        self.fn = fn
        self.report = report
        self.jitted: Callable[..., Any] | None = numba.njit(fn)
        self.errors = numba.core.errors.NumbaError

    def __call__(self, *args: Any) -> Any:
        if self.jitted is not None:
            t0 = time.perf_counter()
            try:
                out = self.jitted(*args)
            except self.errors as exc:
                self.report["refused"][_reason(str(exc))] += 1
                self.jitted = None
            else:
                self.report["compiled"].add(self.fn.__name__)
                return out
            finally:
                self.report["seconds"] += time.perf_counter() - t0
        return self.fn(*args)


_REASONS = re.compile(r"non-precise type [\w\[\]]+|Untyped global name '[^']+'|"
                      r"Unknown attribute '[^']+'|Cannot determine Numba type of <class '[^']+'>|"
                      r"Use of unsupported opcode \(\w+\)|Unsupported constraint encountered")


def _reason(message: str) -> str:
    """What numba could not type, in a few words."""
    found = _REASONS.search(message)
    return found.group(0) if found else message.strip().splitlines()[0][:90]


def probe(name: str, games: int, numba: Any) -> None:
    rules = load_ruleset(name)
    plain = Kernel(rules)
    kernel_rules = rules.kernel()  # type: ignore[misc]
    namespace = plain.moves[next(iter(plain.moves))].handle.__globals__  # type: ignore[union-attr]
    functions = {k: v for k, v in namespace.items()
                 if callable(v) and getattr(v, "__module__", None) is None
                 and getattr(v, "__code__", None) is not None
                 and v.__code__.co_filename == kernel_rules.code_name}
    report: dict[str, Any] = {"compiled": set(), "refused": Counter(), "seconds": 0.0}
    saved = dict(functions)
    for key, fn in functions.items():
        namespace[key] = Probe(fn, numba, report)
    handles = {m: d.handle for m, d in plain.moves.items() if d.handle is not None}
    try:
        probed_moves = {m: Probe(h, numba, report) for m, h in handles.items()}
        for move, wrapper in probed_moves.items():  # (the kernel's rules are shared)
            object.__setattr__(kernel_rules.moves[move], "handle", wrapper)
        probed = Kernel(rules)
        t0 = time.perf_counter()
        for seed in range(games):
            play_game(probed, None, seed)
        probed_time = time.perf_counter() - t0
    finally:
        namespace.update(saved)
        for move, handle in handles.items():
            object.__setattr__(kernel_rules.moves[move], "handle", handle)
    t0 = time.perf_counter()
    for seed in range(games):
        play_game(plain, None, seed)
    plain_time = time.perf_counter() - t0
    total = len(functions) + len(probed_moves)
    print(f"{name}: {len(report['compiled'])} of {total} kernel functions compiled by numba "
          f"({report['seconds']:.2f} s spent trying)")
    for reason, count in report["refused"].most_common(4):
        print(f"  refused {count:3d}x: {reason}")
    print(f"  games/s: plain kernel {games / plain_time:8.1f}, through numba "
          f"{games / probed_time:8.1f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulesets", nargs="*", default=["golf6", "spades"])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args(argv)
    try:
        import numba
    except ImportError:
        print("numba is not installed (pip install numba): nothing to probe", file=sys.stderr)
        return 2
    print(f"numba {numba.__version__}")
    for name in args.rulesets:
        probe(name, args.games, numba)
    return 0


if __name__ == "__main__":
    sys.exit(main())
