#!/usr/bin/env python3
"""Time the meld searches over the kinds a ruleset declares (interpreter/melding.py) on
random hands: a contract rummy's goals, and the built-ins gin rummy reads.

    python benchmarks/melds_speed.py [--hands 200] [--seed 1] [--forced-twos 2-5] [--repeat 3]

Hands are drawn from two 52-card decks, where every 2 is wild. Half of the hands have
several 2s forced into them (how many is drawn from --forced-twos), since wild cards are
what makes the search large. For each of grandma's goals (trios of exactly 3, staircases
of exactly 4 turning the corner K-A) it times `can_lay_down` and `lay_downs` (all layouts)
on every hand, checks that they agree, and prints mean and worst milliseconds and the
number of layouts found (mean, max). Each hand's time is the
best of --repeat runs, so that a time slice lost to another process on a busy machine
(a few ms) does not pass for the search's own worst case; --repeat 1 shows raw times.

Then it times the declared-meld built-ins (deadwood, discard_deadwood, best_melds, melds_in,
can_meld, meld_layouts) with two sets of kinds: gin rummy's (one deck, sets of 3-4, runs of
3+ with the ace low, no wild cards) on random 10- and 11-card hands, and a contract rummy's
(the same two-deck 13-card hands, 2s wild, sets of 3+, runs of 4+ turning the corner K-A).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from cardrules.interpreter import meld_goals, melding

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
    """Per-hand timings (ms) of can_lay_down and lay_downs for one goal, and layout counts."""
    rules = goal_rules()
    goal = ["trio"] * trios + ["staircase"] * staircases
    decide, listing, counts, met = [], [], [], 0
    for hand in hands:
        best_decide = best_list = math.inf
        for _ in range(repeat):
            rules.forget()  # time the search, not the answers kept from the last run
            t0 = time.perf_counter()
            ok = meld_goals.can_lay_down(rules, hand, goal, 0)
            t1 = time.perf_counter()
            rules.forget()
            t2 = time.perf_counter()
            layouts = meld_goals.lay_downs(rules, hand, goal, 0)
            t3 = time.perf_counter()
            best_decide, best_list = min(best_decide, t1 - t0), min(best_list, t3 - t2)
        if ok != bool(layouts):
            raise SystemExit(f"can_lay_down and lay_downs disagree on {sorted(hand)}")
        decide.append(ms(best_decide))
        listing.append(ms(best_list))
        counts.append(len(layouts))
        met += ok
    return {"met": met, "can_mean": statistics.fmean(decide), "can_max": max(decide),
            "list_mean": statistics.fmean(listing), "list_max": max(listing),
            "n_mean": statistics.fmean(counts), "n_max": max(counts)}


DECLARED = ("deadwood", "discard_deadwood", "best_melds", "melds_in", "can_meld",
            "meld_layouts")


def gin_rules() -> melding.MeldRules:
    """Gin rummy's kinds on one 52-card deck (ids suit * 13 + rank)."""
    rank = tuple(c % 13 for c in range(52))
    kinds = (melding.MeldKind("set", False, 3, 4, -1), melding.MeldKind("run", True, 3, 0, -1))
    return melding.MeldRules(kinds, rank, tuple(c // 13 for c in range(52)), (False,) * 52,
                             tuple(RANKS[c % 13] + SUITS[c // 13] for c in range(52)),
                             tuple(min(r + 1, 10) for r in rank), len(RANKS), 0)


def goal_rules() -> melding.MeldRules:
    """grandma's kinds as it plays by default: trios of 3, staircases of 4 (K-A wraps)."""
    rank, suit, wild, names = two_decks()
    kinds = (melding.MeldKind("trio", False, 3, 3, -1),
             melding.MeldKind("staircase", True, 4, 4, -1, "wrap"))
    points = (15, 20, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10)
    return melding.MeldRules(kinds, rank, suit, wild, names, tuple(points[r] for r in rank),
                             len(RANKS), 0)


def contract_rules() -> melding.MeldRules:
    """A contract rummy's kinds on two decks, 2s wild, valued by the card's number."""
    rank, suit, wild, names = two_decks()
    kinds = (melding.MeldKind("trio", False, 3, 0, -1),
             melding.MeldKind("staircase", True, 4, 0, -1, "wrap"))
    return melding.MeldRules(kinds, rank, suit, wild, names, tuple(r + 1 for r in rank),
                             len(RANKS), 0)


def time_declared(rules: melding.MeldRules, hands: list[list[int]],
                  repeat: int) -> dict[str, tuple[float, float, float]]:
    """Per built-in: mean ms, worst ms and mean result size (a number, or a list's length)."""
    out = {}
    for name in DECLARED:
        fn = getattr(melding, name)
        times, sizes = [], []
        for hand in hands:
            best = math.inf
            for _ in range(repeat):
                rules.forget()  # time the search, not the answer kept from the last run
                t0 = time.perf_counter()
                got = fn(rules, hand, 0)
                best = min(best, time.perf_counter() - t0)
            times.append(ms(best))
            sizes.append(float(got if isinstance(got, (int, bool)) else len(got)))
        out[name] = (statistics.fmean(times), max(times), statistics.fmean(sizes))
    return out


def print_declared(title: str, rules: melding.MeldRules, hands: list[list[int]],
                   repeat: int) -> None:
    print(title)
    print(f"  {'built-in':<18}{'mean ms':>9}{'worst ms':>10}{'result (mean)':>15}")
    for name, (mean, worst, size) in time_declared(rules, hands, repeat).items():
        print(f"  {name:<18}{mean:>9.3f}{worst:>10.3f}{size:>15.2f}")


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
    print(f"{'goal':<18}{'met':>5}  {'can_lay_down ms':>17}  {'lay_downs ms':>17}  "
          f"{'layouts':>14}")
    print(f"{'':<18}{'':>5}  {'mean':>8} {'worst':>8}  {'mean':>8} {'worst':>8}  "
          f"{'mean':>7} {'max':>6}")
    for trios, staircases in GOALS:
        r = time_goal(hands, trios, staircases, args.repeat)
        print(f"{goal_name(trios, staircases):<18}{r['met']:>5}  {r['can_mean']:>8.3f} "
              f"{r['can_max']:>8.3f}  {r['list_mean']:>8.3f} {r['list_max']:>8.3f}  "
              f"{r['n_mean']:>7.1f} {r['n_max']:>6}")
    rng = random.Random(args.seed)
    for size in (10, 11):
        gin = [rng.sample(range(52), size) for _ in range(args.hands)]
        print_declared(f"\ndeclared melds, gin rummy's kinds, {args.hands} hands of {size} "
                       "cards (one deck, no wild cards)", gin_rules(), gin, args.repeat)
    print_declared(f"\ndeclared melds, trios of 3+ and staircases of 4+ (K-A wraps), the "
                   f"{args.hands} two-deck hands above", contract_rules(), hands, args.repeat)


if __name__ == "__main__":
    main()
