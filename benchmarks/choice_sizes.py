#!/usr/bin/env python3
"""How long the longest choice lists are: grandma's lay-down and geohash's two-card declaration.

    python benchmarks/choice_sizes.py [--games 100] [--seed 1]

grandma: random games of three players; at every decision where a lay-down is offered, the
number of lay-down actions (both goals of the last round counted together). geohash: random
games of four players, the two-card declarations offered at each turn's first decision. Prints
how many such decisions were seen, the mean and the largest list.
"""

from __future__ import annotations

import argparse
import random
import statistics

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.engine import PASS, Engine


def sizes(name: str, players: int, games: int, seed: int, move: str) -> list[int]:
    """The number of `move` actions (by prefix) at each decision that offers any."""
    eng = Engine(load_ruleset(name))
    rng = random.Random(seed)
    seen: list[int] = []
    for game in range(games):
        state = eng.new_game(players, seed + game)
        legal = eng.legal_actions(state)
        steps = 0
        while legal and steps < 3000:
            count = sum(1 for a in legal if str(a[0]).startswith(move))
            if count:
                seen.append(count)
            # mostly anything but the move measured and accusations, so that games last
            calm = [a for a in legal if a != PASS and not str(a[0]).startswith(("accuse", move))]
            action = PASS if state.window else rng.choice(calm or legal)
            legal = eng.play(state, action)
            steps += 1
    return seen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name, players, move in (("grandma", 3, "lay_down"), ("geohash", 4, "declare_two")):
        seen = sizes(name, players, args.games, args.seed, move)
        print(f"{name} {move}: {len(seen)} decisions, mean {statistics.mean(seen):.1f}, "
              f"max {max(seen)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
