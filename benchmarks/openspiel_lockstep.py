#!/usr/bin/env python3
"""Play rulesets in lockstep with OpenSpiel's own games and count every difference.

    python benchmarks/openspiel_lockstep.py spades gin-rummy --seconds 600
    python benchmarks/openspiel_lockstep.py gin-rummy --games 1000 --seed 2
    python benchmarks/openspiel_lockstep.py hanabi --players 3 --games 5000

For each matched game (adapters/lockstep.py: spades with the options of OpenSpiel's spades,
gin-rummy and dou-dizhu with openspiel=true, kuhn-poker as it is, hanabi with its published
rules), games are played side by side: OpenSpiel's chance outcomes are the ruleset's given deal,
and before every decision the seat to move and the whole legal set must agree; at the end, the
returns. Players are random, biased toward rare endings (nil bids, knocking at once, lay-offs,
bombs and long combinations). Prints, per game, the games and decisions compared and the
differences by kind, with the first example of each (its seed and OpenSpiel's actions, to
reproduce it). Each game runs until --games are played or --seconds have passed, whichever
comes first. Exit status 1 if any difference was found. Needs open_spiel.
"""

from __future__ import annotations

import argparse
import sys
import time

from cardrules.adapters.lockstep import KINDS, MATCHED, run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="GAME",
                        help=f"matched games (default: all: {', '.join(sorted(MATCHED))})")
    parser.add_argument("--games", type=int, default=1_000_000_000,
                        help="the most games to play of each")
    parser.add_argument("--seconds", type=float, default=None,
                        help="the most seconds to spend on each")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=None,
                        help="the table size, for a game that has several (hanabi: 2-5)")
    args = parser.parse_args(argv)
    if args.games >= 1_000_000_000 and args.seconds is None:
        parser.error("give --games or --seconds (or both)")
    unknown = [name for name in args.names if name not in MATCHED]
    if unknown:
        parser.error(f"no matched game '{unknown[0]}': {', '.join(sorted(MATCHED))}")
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("open_spiel is not installed: pip install '.[openspiel]'", file=sys.stderr)
        return 2
    found = 0
    for name in args.names or sorted(MATCHED):
        match = MATCHED[name]
        options = " ".join(f"{k}={v}" for k, v in match.options.items())
        start = time.monotonic()
        params = {"players": args.players} if args.players is not None else None
        tally = run(name, args.games, args.seconds, args.seed, params)
        spent = time.monotonic() - start
        kinds = ", ".join(f"{kind} {tally.differences[kind]}" for kind in KINDS)
        total = sum(tally.differences.values())
        found += total
        with_options = f" ({options})" if options else ""
        print(f"{name}{with_options} against OpenSpiel's {match.game}: {tally.games:,} games, "
              f"{tally.decisions:,} decisions, {total} differences ({kinds}) in {spent:.0f} s",
              flush=True)
        made = ", ".join(f"{move} {count:,}" for move, count in sorted(tally.moves.items()))
        print(f"  moves made: {made}")
        for kind, example in tally.examples.items():
            print(f"  first {kind}: {example}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
