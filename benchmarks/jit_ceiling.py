#!/usr/bin/env python3
"""What a playout kernel in typed arrays could reach under a just-in-time compiler: golf6.

    pip install numba          # not a dependency of cardrules: this probe only
    python benchmarks/jit_ceiling.py [--games 400]

The playout kernel (interpreter/kernel.py) is generated Python over Python objects, and
numba compiles none of it (benchmarks/jit_probe.py). A second target of the generator would
have to write the game as typed arrays instead. Before anyone builds that target, this probe
measures what it would buy: golf6's rules written here, by hand, in the form such a target
would emit (a zone a row of card ids with its length, each card's zone and which way up it
lies, a seat's decision listed as small integer ids from one fixed table, then applied by
id), compiled by numba, and timed against the kernel and the hand-written Python Golf
(../shared/bench/golf_handcoded.py --style api) in one run. It prints matches a second,
the ratios and the compile time.

Its random streams are the kernel's, drawn by interpreter/twister.py (Python's Mersenne
Twister as an array, compiled here by numba): the game's generator seeded with the game's
seed shuffles the stock at each deal and the discard pile (all but its top card, bottom
first) when the stock runs out, and each seat chooses with its own stream, seeded as
make_bot seeds a random seat, `legal[int(random() * len(legal))]` over its legal actions
in the kernel's listing order. So for the same seed the typed-array golf6 plays the
kernel's very game, and the probe checks it: for every match the kernel plays, the typed
arrays play the same seed and must end with the same totals and the same number of turns
(it prints how many of them agreed). It also checks that the three play the same game as
the hand-written Golf, whose stream is its own (play turns per round and round score per
player agree within noise).

This is a measurement, not a kernel: the rules below are golf6's as shipped (the default
options), written once more by hand, and nothing of cardrules runs on them but the
generator's arithmetic.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import zlib
from pathlib import Path
from typing import Any

import numpy as np
from golf_speed import agree, load_reference  # (beside this script)

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter import twister
from cardrules.interpreter.kernel import Kernel
from cardrules.interpreter.sessions.play import play_game

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT.parent / "shared" / "bench" / "golf_handcoded.py"
PLAYERS, ROUNDS = 4, 9

# The table of ids: a decision is one of these, as a generated table would number them.
REVEAL = 0  # 0-5: turn the grid's slot face up
TAKE_STOCK, TAKE_DISCARD = 6, 7
SWAP = 8  # 8-13: put the held card in the grid's slot
DISCARD = 14
# Zones: the stock, the discard pile, then each seat's grid and the card it holds.
STOCK, PILE = 0, 1
CARDS = 54  # one deck and two jokers (golf6 plays one deck up to four players)
STATE = twister.SIZE  # a random stream: 624 words and an index


def card_tables() -> tuple[np.ndarray, np.ndarray]:
    """Each card's rank (the jokers' own, 13) and points, by card id: the deck's order,
    suit by suit from the ace to the king, then the two jokers."""
    rank = np.array([c % 13 for c in range(52)] + [13, 13], dtype=np.int64)
    value_of = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 0, -2]
    return rank, np.array([value_of[r] for r in rank], dtype=np.int64)


def seeds_of(seed: int, out: np.ndarray) -> np.ndarray:
    """The game's seed, then each seat's stream's seed as make_bot makes a random seat's
    (interpreter/players/bots.py), into `out`."""
    out[0] = seed
    for seat in range(PLAYERS):
        out[seat + 1] = zlib.crc32(f"{seed}/{seat}/random".encode()) + (seed << 32)
    return out


def compiled(numba: Any) -> Any:
    """The typed-array golf6, compiled: `match(seeds, rank, points, totals) -> play turns`,
    `seeds` as seeds_of gives them."""
    njit = numba.njit(cache=False)
    mt = twister.compiled(njit)
    seed, shuffle, uniform = mt.seed, mt.shuffle, mt.random

    @njit
    def listed(phase: int, seat: int, up: np.ndarray, lengths: np.ndarray,
               out: np.ndarray) -> int:
        count = 0
        if phase == 0:  # reveal: each face-down card of the grid
            for slot in range(6):
                if not up[seat, slot]:
                    out[count] = REVEAL + slot
                    count += 1
        elif phase == 1:  # draw
            if lengths[STOCK] > 0 or lengths[PILE] > 1:
                out[count] = TAKE_STOCK
                count += 1
            if lengths[PILE] > 0:
                out[count] = TAKE_DISCARD
                count += 1
        else:  # place: any slot of the grid, or discard
            for slot in range(6):
                out[count] = SWAP + slot
                count += 1
            out[count] = DISCARD
            count += 1
        return count

    @njit
    def grid_points(grid: np.ndarray, rank: np.ndarray, points: np.ndarray) -> int:
        total = 0
        for col in range(3):
            a, b = grid[col], grid[col + 3]
            if rank[a] != rank[b]:
                total += points[a] + points[b]
        return total

    @njit
    def play_round(first: int, streams: np.ndarray, rank: np.ndarray, points: np.ndarray,
                   scores: np.ndarray) -> int:
        game = streams[0]  # the game's generator; seat p's is streams[p + 1]
        piles = np.empty((2, CARDS), dtype=np.int64)  # the stock and the discard pile
        lengths = np.zeros(2, dtype=np.int64)
        grids = np.empty((PLAYERS, 6), dtype=np.int64)
        up = np.zeros((PLAYERS, 6), dtype=np.bool_)
        for c in range(CARDS):  # every card gathered into the stock, in card order
            piles[STOCK, c] = c
        lengths[STOCK] = CARDS
        shuffle(game, piles[STOCK], CARDS)
        for slot in range(6):  # dealt one at a time, round the table from the first seat
            for k in range(PLAYERS):
                lengths[STOCK] -= 1
                grids[(first + k) % PLAYERS, slot] = piles[STOCK, lengths[STOCK]]
        lengths[STOCK] -= 1
        piles[PILE, 0] = piles[STOCK, lengths[STOCK]]
        lengths[PILE] = 1
        legal = np.empty(16, dtype=np.int64)
        seat, phase, reveals, held, ender, turns = first, 0, 0, -1, -1, 0
        while True:
            count = listed(phase, seat, up, lengths, legal)
            action = legal[int(uniform(streams[seat + 1]) * count)]
            if phase == 0:
                up[seat, action - REVEAL] = True
                reveals += 1
                if reveals % 2 == 0:
                    seat = (seat + 1) % PLAYERS
                if reveals == 2 * PLAYERS:
                    phase = 1
            elif phase == 1:
                if action == TAKE_STOCK:
                    if lengths[STOCK] == 0:  # all but the discard's top card, shuffled
                        top = piles[PILE, lengths[PILE] - 1]
                        for i in range(lengths[PILE] - 1):
                            piles[STOCK, i] = piles[PILE, i]
                        lengths[STOCK] = lengths[PILE] - 1
                        shuffle(game, piles[STOCK], lengths[STOCK])
                        piles[PILE, 0] = top
                        lengths[PILE] = 1
                    lengths[STOCK] -= 1
                    held = piles[STOCK, lengths[STOCK]]
                else:
                    lengths[PILE] -= 1
                    held = piles[PILE, lengths[PILE]]
                phase = 2
            else:
                if action == DISCARD:
                    piles[PILE, lengths[PILE]] = held
                else:
                    slot = action - SWAP
                    piles[PILE, lengths[PILE]] = grids[seat, slot]
                    grids[seat, slot] = held
                    up[seat, slot] = True
                lengths[PILE] += 1
                held = -1
                turns += 1
                if ender < 0:
                    done = True
                    for slot in range(6):
                        done = done and up[seat, slot]
                    if done:
                        ender = seat
                seat = (seat + 1) % PLAYERS
                if seat == ender:
                    break
                phase = 1
        for p in range(PLAYERS):
            scores[p] = grid_points(grids[p], rank, points)
        return turns

    @njit
    def match(seeds: np.ndarray, rank: np.ndarray, points: np.ndarray,
              totals: np.ndarray) -> int:
        streams = np.empty((PLAYERS + 1, STATE), dtype=np.int64)
        for k in range(PLAYERS + 1):
            seed(streams[k], seeds[k])
        scores = np.zeros(PLAYERS, dtype=np.int64)
        turns = 0
        for p in range(PLAYERS):
            totals[p] = 0
        for r in range(ROUNDS):
            # The deal passes on each round, from the seat before seat 1: seat 1 plays first
            # in round 1, seat 2 in round 2...
            turns += play_round(r % PLAYERS, streams, rank, points, scores)
            for p in range(PLAYERS):
                totals[p] += scores[p]
        return turns

    return match


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="matches of each (default 400)")
    parser.add_argument("--batches", type=int, default=4)
    args = parser.parse_args(argv)
    try:
        import numba
    except ImportError:
        print("numba is not installed (pip install numba): nothing to measure")
        return 0
    rank, points = card_tables()
    rules = load_ruleset("golf6")
    if rank.tolist() != list(rules.cards.rank[:CARDS]) \
            or points.tolist() != list(rules.cards.values["points"][:CARDS]):
        print("the card tables here are not golf6's")
        return 1
    seeds = np.zeros(PLAYERS + 1, dtype=np.int64)
    t0 = time.perf_counter()
    match = compiled(numba)
    totals = np.zeros(PLAYERS, dtype=np.int64)
    match(seeds_of(0, seeds), rank, points, totals)  # compiled at its first call
    compile_seconds = time.perf_counter() - t0
    kernel = Kernel(rules)
    play_game(kernel, PLAYERS, 0)
    ref = load_reference(REFERENCE)
    rng = random.Random(1)
    seconds = {"typed arrays under numba": 0.0, "kernel": 0.0, "hand-written": 0.0}
    turns: dict[str, list[float]] = {name: [] for name in seconds}
    scores: dict[str, list[float]] = {name: [] for name in seconds}
    kernel_games: dict[int, tuple[list[int], int]] = {}  # seed -> totals, play turns
    per = max(1, args.games // args.batches)
    jit_per = per * 20  # (too quick to time in batches of the others' size)
    for b in range(args.batches):
        t0 = time.perf_counter()
        for seed in range(b * jit_per + 1, (b + 1) * jit_per + 1):
            played = match(seeds_of(seed, seeds), rank, points, totals)
            turns["typed arrays under numba"].append(played / ROUNDS)
            scores["typed arrays under numba"].append(float(totals.sum()) / (PLAYERS * ROUNDS))
        seconds["typed arrays under numba"] += time.perf_counter() - t0
        t0 = time.perf_counter()
        for seed in range(b * per, (b + 1) * per):
            state = play_game(kernel, PLAYERS, seed)
            turns["kernel"].append((state.turns - PLAYERS * ROUNDS) / ROUNDS)
            scores["kernel"].append(sum(state.totals) / (PLAYERS * ROUNDS))
            kernel_games[seed] = (list(state.totals), state.turns - PLAYERS * ROUNDS)
        seconds["kernel"] += time.perf_counter() - t0
        t0 = time.perf_counter()
        for _ in range(per):
            got, _, _, played = ref.play_match(rng, PLAYERS, ROUNDS, False, ref.play_round_api)
            turns["hand-written"].append(played / ROUNDS)
            scores["hand-written"].append(sum(got) / (PLAYERS * ROUNDS))
        seconds["hand-written"] += time.perf_counter() - t0
    rate = {name: len(turns[name]) / spent for name, spent in seconds.items()}
    print(f"golf6, {PLAYERS} players, {ROUNDS} rounds, uniform random play "
          f"(numba {numba.__version__})")
    for name, value in rate.items():
        print(f"  {name:<26} {value:10.1f} matches/s  ({len(turns[name])} matches)")
    typed = rate["typed arrays under numba"]
    print(f"  typed arrays / hand-written   {typed / rate['hand-written']:8.1f}x")
    print(f"  typed arrays / kernel         {typed / rate['kernel']:8.1f}x")
    print(f"  kernel / hand-written         {rate['kernel'] / rate['hand-written']:8.3f}")
    print(f"  compile (first call)          {compile_seconds:8.2f} s")
    print("the kernel's very game? (the same seeds: the same totals and turns at the end)")
    differ = []
    for seed, (kernel_totals, kernel_turns) in kernel_games.items():
        played = match(seeds_of(seed, seeds), rank, points, totals)
        if totals.tolist() != kernel_totals or played != kernel_turns:
            differ.append(seed)
            if len(differ) <= 5:
                print(f"  seed {seed}: typed arrays {totals.tolist()} in {played} play turns, "
                      f"kernel {kernel_totals} in {kernel_turns}")
    ok = not differ
    print(f"  {len(kernel_games) - len(differ)} of {len(kernel_games)} matches agree, "
          "game by game")
    print("same game as the hand-written Golf?")
    for name in ("typed arrays under numba", "kernel"):
        ok &= agree(f"{name}: play turns per round", turns[name], turns["hand-written"])
        ok &= agree(f"{name}: round score per player", scores[name], scores["hand-written"])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
