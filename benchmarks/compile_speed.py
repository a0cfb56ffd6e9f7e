#!/usr/bin/env python3
"""What loading a ruleset costs: each shipped ruleset read, checked and compiled, in ms.

    python benchmarks/compile_speed.py [--repeats 5]

Every stage after the file is read runs each time (the meaning check, the generator, the
inliner, writing and compiling the module); the compiled-rulesets cache and the parser's
cache of rule texts are emptied before each compile, so the figure is a first load's, as
`cardrules run` and `cardrules validate` pay it. Prints each ruleset's best time (the
machine's noise only ever slows a run down) and their sum.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from cardrules.dsl import parser
from cardrules.dsl.loader import compile_document, load_document, resolve

RULESETS = sorted((Path(__file__).resolve().parent.parent / "rulesets").glob("*.yaml"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    total = 0.0
    print(f"{'ruleset':<16}{'ms':>8}")
    for path in RULESETS:
        doc = load_document(resolve(str(path)))
        best = float("inf")
        for _ in range(args.repeats):
            parser._tree.cache_clear()  # (a first load parses every rule text)
            started = time.perf_counter()
            compile_document(doc)
            best = min(best, time.perf_counter() - started)
        total += best
        print(f"{path.stem:<16}{best * 1000:>8.0f}")
    print(f"{'all':<16}{total * 1000:>8.0f}")


if __name__ == "__main__":
    main()
