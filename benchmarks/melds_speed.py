#!/usr/bin/env python3
"""Time the contract-rummy meld search (interpreter/melds.py) on random 13-card hands.

    python benchmarks/melds_speed.py [--hands 200] [--seed 1] [--forced-twos 2-5] [--repeat 3]

Hands are drawn from two 52-card decks, where every 2 is wild. Half of the hands have
several 2s forced into them (how many is drawn from --forced-twos), since wild cards are
what makes the search large. For each contract rummy goal it times `can_meet` and
`goal_layouts` (all layouts) on every hand, checks that they agree, and prints mean and
worst milliseconds and the number of layouts found (mean, max). Each hand's time is the
best of --repeat runs, so that a time slice lost to another process on a busy machine
(a few ms) does not pass for the search's own worst case; --repeat 1 shows raw times.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from cardrules.interpreter.melds import can_meet, goal_layouts

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")
HAND = 13
GOALS = ((2, 0), (1, 1), (0, 2), (2, 1), (1, 2), (4, 0), (0, 3))  # (trios, staircases)


def two_decks() -> tuple[tuple[int, ...], tuple[int, ...], tuple[bool, ...], tuple[str, ...]]:
    """rank, suit, wild and name tables for two 52-card decks (ids 0..103), 2s wild."""
    cards = [(r, s) for _ in range(2) for s in range(len(SUITS)) for r in range(len(RANKS))]
    rank = tuple(r for r, _ in cards)
    suit = tuple(s for _, s in cards)
    wild = tuple(RANKS[r] == "2" for r in rank)
    names = tuple(RANKS[r] + SUITS[s] for r, s in cards)
    return rank, suit, wild, names


def draw_hands(count: int, seed: int, forced: tuple[int, int],
               wild: tuple[bool, ...]) -> list[list[int]]:
    """Random hands; every other one gets between forced[0] and forced[1] 2s first."""
    rng = random.Random(seed)
    twos = [c for c, w in enumerate(wild) if w]
    others = [c for c, w in enumerate(wild) if not w]
    hands = []
    for i in range(count):
        if i % 2:
            n = rng.randint(*forced)
            hand = rng.sample(twos, n) + rng.sample(others, HAND - n)
        else:
            hand = rng.sample(range(len(wild)), HAND)
        rng.shuffle(hand)
        hands.append(hand)
    return hands


def ms(seconds: float) -> float:
    return seconds * 1000.0


def time_goal(hands: list[list[int]], trios: int, staircases: int,
              repeat: int) -> dict[str, float]:
    """Per-hand timings (ms) of can_meet and goal_layouts for one goal, and layout counts."""
    rank, suit, wild, names = two_decks()
    decide, listing, counts, met = [], [], [], 0
    for hand in hands:
        best_decide = best_list = math.inf
        for _ in range(repeat):
            t0 = time.perf_counter()
            ok = can_meet(hand, rank, suit, wild, names, len(RANKS), trios, staircases)
            t1 = time.perf_counter()
            layouts = goal_layouts(hand, rank, suit, wild, names, len(RANKS), trios,
                                   staircases)
            t2 = time.perf_counter()
            best_decide, best_list = min(best_decide, t1 - t0), min(best_list, t2 - t1)
        if ok != bool(layouts):
            raise SystemExit(f"can_meet and goal_layouts disagree on {sorted(hand)}")
        decide.append(ms(best_decide))
        listing.append(ms(best_list))
        counts.append(len(layouts))
        met += ok
    return {"met": met, "can_mean": statistics.fmean(decide), "can_max": max(decide),
            "list_mean": statistics.fmean(listing), "list_max": max(listing),
            "n_mean": statistics.fmean(counts), "n_max": max(counts)}


def goal_name(trios: int, staircases: int) -> str:
    parts = [f"{trios} trio{'s' * (trios != 1)}" if trios else "",
             f"{staircases} stair{'s' * (staircases != 1)}" if staircases else ""]
    return " + ".join(p for p in parts if p)


def parse_range(text: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    bounds = (int(low), int(high or low))
    if not 0 <= bounds[0] <= bounds[1] <= 8:
        raise argparse.ArgumentTypeError("expected LOW-HIGH with 0 <= LOW <= HIGH <= 8")
    return bounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=200, help="random hands per goal")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--forced-twos", type=parse_range, default=(2, 5),
                        help="how many 2s (wild) to force into every other hand: LOW-HIGH")
    parser.add_argument("--repeat", type=int, default=3,
                        help="time each hand this many times and keep the best")
    args = parser.parse_args()
    if args.hands < 1 or args.repeat < 1:
        parser.error("--hands and --repeat must be at least 1")
    _, _, wild, _ = two_decks()
    hands = draw_hands(args.hands, args.seed, args.forced_twos, wild)
    n_wild = [sum(wild[c] for c in h) for h in hands]
    print(f"{args.hands} hands of {HAND} cards from two decks (2s wild), seed {args.seed}; "
          f"wild cards per hand: mean {statistics.fmean(n_wild):.2f}, max {max(n_wild)}; "
          f"best of {args.repeat} runs per hand")
    print(f"{'goal':<18}{'met':>5}  {'can_meet ms':>17}  {'goal_layouts ms':>17}  "
          f"{'layouts':>14}")
    print(f"{'':<18}{'':>5}  {'mean':>8} {'worst':>8}  {'mean':>8} {'worst':>8}  "
          f"{'mean':>7} {'max':>6}")
    for trios, staircases in GOALS:
        r = time_goal(hands, trios, staircases, args.repeat)
        print(f"{goal_name(trios, staircases):<18}{r['met']:>5}  {r['can_mean']:>8.3f} "
              f"{r['can_max']:>8.3f}  {r['list_mean']:>8.3f} {r['list_max']:>8.3f}  "
              f"{r['n_mean']:>7.1f} {r['n_max']:>6}")


if __name__ == "__main__":
    main()
