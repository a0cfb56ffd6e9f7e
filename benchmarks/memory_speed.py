#!/usr/bin/env python3
"""How long a search bot's memory step takes (interpreter/players/repetition.py: whether its
pick returns to a position the seat has seen), on the decisions of greedy games, side by side:
drawing a sample of the game at every decision, and as it is done now (no sample where
nothing is hidden from the seat, knowledge.nothing_hidden).

    python benchmarks/memory_speed.py [--rulesets freecell golf6] [--games 6] [--repeat 15]

The decisions are gathered first (the game, the seat, greedy's pick and its ranking), then the
step is timed on each with a fresh memory, the two ways interleaved in one process, `--repeat`
times; prints the median time a decision of each way and their ratio. Where the seat never
knows every card (golf6) the two are the same work but for the look that says so.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.players import repetition
from cardrules.interpreter.players.bots import make_bot

Decision = tuple[Any, int, Any, list[Any]]  # the game, the seat, the pick, the ranking


def gathered(engine: Engine, games: int, most: int = 60) -> list[Decision]:
    """Every decision with a choice of greedy seats in `games` games (at most `most` actions
    each), with what greedy thought of it."""
    out: list[Decision] = []
    players = engine.rules.default_players
    for seed in range(games):
        state = engine.new_game(players, seed)
        bots = [make_bot("greedy", seed, seat) for seat in range(players)]
        legal = engine.legal_actions(state)
        for _ in range(most):
            if not legal:
                break
            seat = engine.to_move(state)
            assert seat is not None
            if len(legal) > 1:
                weighed = bots[seat].weigh(engine, state, legal)  # type: ignore[attr-defined]
                out.append((state.copy(), seat, weighed.pick, list(weighed.ranked)))
            legal = engine.play(state, bots[seat].choose(engine, state, legal))
    return out


def per_decision(engine: Engine, decisions: list[Decision], sample: bool) -> float:
    """Seconds a decision's memory step takes, a sample drawn every time or not."""
    now = repetition.nothing_hidden
    if sample:
        repetition.nothing_hidden = lambda *args: False  # type: ignore[assignment]
    try:
        t0 = time.perf_counter()
        for state, seat, pick, ranked in decisions:
            repetition.Memory().choose(engine, state, seat, pick, ranked)
        return (time.perf_counter() - t0) / len(decisions)
    finally:
        repetition.nothing_hidden = now  # type: ignore[assignment]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulesets", nargs="*", default=["freecell", "golf6"])
    parser.add_argument("--games", type=int, default=6, help="greedy games per ruleset")
    parser.add_argument("--repeat", type=int, default=15, help="timed passes of each way")
    args = parser.parse_args(argv)
    print("the memory step a decision, median of each way's passes, interleaved")
    print(f"  {'game (players)':<20} {'sampled':>10} {'now':>10} {'ratio':>7}   (decisions)")
    for name in args.rulesets:
        engine = Engine(load_ruleset(name))
        decisions = gathered(engine, args.games)
        sampled, now = [], []
        for _ in range(args.repeat):
            sampled.append(per_decision(engine, decisions, True))
            now.append(per_decision(engine, decisions, False))
        before, after = statistics.median(sampled), statistics.median(now)
        print(f"  {f'{name} ({engine.rules.default_players})':<20} {before * 1e6:8.0f} us "
              f"{after * 1e6:8.0f} us {before / after:6.2f}x   ({len(decisions)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
