"""How strong are the search bots? One seat is a search bot, every other seat random.

    python benchmarks/bots_strength.py                  # 300 games per ruleset
    python benchmarks/bots_strength.py --games 60 --rulesets golf6 geohash
    python benchmarks/bots_strength.py --bot czech-golf=ismcts:100

The bot's seat turns with the game (game g puts it in seat g mod n), so any advantage of
sitting first counts for and against it alike. Its baseline is "a random seat": the very
same games (same seeds, same seat) with that seat random too. A win shared by k seats
counts 1/k. For each ruleset it prints:

  - the bot's win rate and the random seat's, each with a 95% Wilson interval, and their
    ratio; then both seats' mean round score (for rulesets won by the lowest total, how
    much lower the bot's is);
  - the bot's seconds per decision (mean and largest), at the budget used;
  - what the seat does when a move is offered, bot beside random: per move, how often it
    was offered, how often it was taken then, and how often taking it ended the game at
    once in the seat's favour ("won") or put the seat out of it ("out").

Default budgets are deterministic, so the figures are a pure function of --seed.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import time
from collections import Counter
from typing import Any

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.players.bots import make_bot
from cardrules.interpreter.sessions.simulate import wilson

# The best bot found for each ruleset, at its default budget, and the table size.
BEST: dict[str, tuple[str, int]] = {
    "golf6": ("greedy", 4),
    "czech-golf": ("greedy", 4),
    "geohash": ("greedy", 4),
    "precognition": ("ismcts", 3),
    "grandma": ("greedy", 3),
}



def one_game(job: tuple[str, int, str, int]) -> dict[str, Any]:
    """Play one game with `kind` in the watched seat (seed mod players) and random seats
    elsewhere; what the watched seat did and how it ended."""
    name, players, kind, seed = job
    engine = Engine(load_ruleset(name))
    state = engine.new_game(players, seed)
    seat = seed % state.n
    bots = [make_bot(kind if p == seat else "random", seed, p) for p in range(state.n)]
    offered: Counter[str] = Counter()
    taken: Counter[str] = Counter()
    won: Counter[str] = Counter()
    out: Counter[str] = Counter()
    times: list[float] = []
    legal = engine.legal_actions(state)
    while legal:
        mover = engine.to_move(state)
        assert mover is not None
        if mover != seat:
            legal = engine.play(state, bots[mover].choose(engine, state, legal))
            continue
        start = time.perf_counter()
        action = bots[seat].choose(engine, state, legal)
        if len(legal) > 1:
            times.append(time.perf_counter() - start)
        offered.update({a[0] for a in legal})
        taken[action[0]] += 1
        legal = engine.play(state, action)
        if state.over and seat in (state.winners or []):
            won[action[0]] += 1
        elif not state.active[seat]:
            out[action[0]] += 1
    winners = state.winners or []
    scores = [r[seat] for r in state.round_scores]
    return {"share": 1 / len(winners) if seat in winners else 0.0,
            "round": sum(scores) / len(scores) if scores else 0.0,
            "offered": offered, "taken": taken, "won": won, "out": out, "times": times}


def summarise(results: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"games": len(results), "wins": sum(r["share"] for r in results),
                           "round": sum(r["round"] for r in results) / len(results),
                           "times": [t for r in results for t in r["times"]]}
    for key in ("offered", "taken", "won", "out"):
        out[key] = sum((r[key] for r in results), Counter())
    return out


def rate(s: dict[str, Any]) -> str:
    lo, hi = wilson(s["wins"], s["games"])
    return f"{s['wins'] / s['games']:6.1%} [{lo:5.1%}, {hi:5.1%}]"


def moves_table(bot: dict[str, Any], base: dict[str, Any]) -> list[str]:
    lines = [f"    {'move':<16} {'offered':>8} {'taken':>7} {'won':>5} {'out':>5}   |"
             f" random: {'offered':>7} {'taken':>7} {'won':>5} {'out':>5}"]
    for move in sorted(set(bot["offered"]) | set(base["offered"])):
        cells = []
        for s in (bot, base):
            n = s["offered"][move]
            share = f"{s['taken'][move] / n:6.1%}" if n else "     -"
            cells.append(f"{n:>8} {share:>7} {s['won'][move]:>5} {s['out'][move]:>5}")
        lines.append(f"    {move:<16} {cells[0]}   |         {cells[1]}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--workers", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--seed", type=int, default=100_000, help="the first game's seed")
    parser.add_argument("--rulesets", nargs="*", default=list(BEST))
    parser.add_argument("--bot", action="append", default=[], metavar="RULESET=KIND",
                        help="another seat kind for one ruleset, e.g. czech-golf=ismcts:100")
    parser.add_argument("--no-moves", action="store_true", help="leave out the moves tables")
    args = parser.parse_args()
    best = dict(BEST)
    for pair in args.bot:
        name, _, kind = pair.partition("=")
        best[name] = (kind, best[name][1])
    print(f"{args.games} games per ruleset, seeds from {args.seed}; one bot seat (turning with"
          " the game), every other seat random")
    print(f"{'ruleset':<13} {'bot':<12} {'n':>2} {'bot wins (95% CI)':<24}"
          f" {'random seat (95% CI)':<24} {'ratio':>5}  {'s/decision mean, max':<20} secs")
    with multiprocessing.Pool(args.workers) as pool:
        for name in args.rulesets:
            kind, players = best[name]
            start = time.perf_counter()
            seeds = range(args.seed, args.seed + args.games)
            bot = summarise(pool.map(one_game, [(name, players, kind, s) for s in seeds],
                                     chunksize=1))
            base = summarise(pool.map(one_game, [(name, players, "random", s) for s in seeds],
                                      chunksize=4))
            took = time.perf_counter() - start
            ratio = bot["wins"] / base["wins"] if base["wins"] else math.inf
            times = bot["times"] or [0.0]
            speed = f"{sum(times) / len(times):.3f}, {max(times):.3f}"
            print(f"{name:<13} {kind:<12} {players:>2} {rate(bot):<24} {rate(base):<24}"
                  f" {ratio:5.2f}  {speed:<20} {took:4.0f}", flush=True)
            line = f"{'':<13} mean round score: bot {bot['round']:.2f}, random {base['round']:.2f}"
            if Engine(load_ruleset(name)).rules.winner == "lowest" and base["round"]:
                line += f" (lowest wins: the bot's is {1 - bot['round'] / base['round']:.0%} lower)"
            print(line, flush=True)
            if not args.no_moves:
                print("\n".join(moves_table(bot, base)), flush=True)


if __name__ == "__main__":
    main()
