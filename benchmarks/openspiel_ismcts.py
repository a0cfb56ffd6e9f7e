"""OpenSpiel's ISMCTS playing cardrules games through the adapter, beside cardrules' own bots.

    # the README's figures (about 3 and 12 minutes on 2 cores):
    python benchmarks/openspiel_ismcts.py --rulesets czech-golf --games 300 --openspiel-games 300
    python benchmarks/openspiel_ismcts.py --rulesets golf6 --games 100 --openspiel-games 30

For each ruleset (golf6 and czech-golf, four players) one seat is a bot and every other
seat random; the bot's seat turns with the game (game g puts it in seat g mod 4). Game g is
dealt from the same seed whatever the bot, and "random" is that seat random too, in the
very same games. A win shared by k seats counts 1/k. The bots:

  - openspiel-ismcts: OpenSpiel's ISMCTSBot (open_spiel.python.algorithms.ismcts; the C++
    bot cannot call a Python game's resample_from_infostate) on the game
    pyspiel.load_game("cardrules", ...), with the adapter's resample_from_infostate and its
    RoundRollouts evaluator, --simulations per decision, UCT constant 2. It chooses each
    action in parts (docs/adapters.md): each part with more than one id is a search;
  - greedy and ismcts: cardrules' own, at their default budgets.

It prints each bot's win rate with a 95% Wilson interval, the random seat's in the same
games, and its speed: actions chosen per second of its own thinking (for the OpenSpiel bot
an action is all of its parts).
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import random
import time
from typing import Any

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.players.bots import make_bot
from cardrules.interpreter.sessions.simulate import wilson

TABLES = {"golf6": 4, "czech-golf": 4}
CARDRULES_BOTS = ("greedy", "ismcts")


def seed_of(game: int) -> int:
    """Game g's seed: 32 bits, so that OpenSpiel's four chance bytes deal the same game."""
    digest = hashlib.blake2b(f"openspiel-ismcts:{game}".encode(), digest_size=4).digest()
    return int.from_bytes(digest, "little")



def share(winners: list[int], seat: int) -> float:
    return 1.0 / len(winners) if seat in winners else 0.0


def cardrules_game(job: tuple[str, str, int, int]) -> dict[str, Any]:
    """A game with a cardrules bot (or a random seat) in the watched seat."""
    name, kind, game, _ = job
    engine = Engine(load_ruleset(name))
    players = TABLES[name]
    seat, seed = game % players, seed_of(game)
    state = engine.new_game(players, seed)
    bots = [make_bot(kind if p == seat else "random", seed, p) for p in range(players)]
    legal = engine.legal_actions(state)
    thinking, actions = 0.0, 0
    while legal:
        mover = engine.to_move(state)
        assert mover is not None
        if mover == seat:
            started = time.perf_counter()
            action = bots[mover].choose(engine, state, legal)
            thinking += time.perf_counter() - started
            actions += 1
        else:
            action = bots[mover].choose(engine, state, legal)
        legal = engine.play(state, action)
    return {"game": game, "won": share(state.winners or [], seat), "seconds": thinking,
            "actions": actions}


def openspiel_game(job: tuple[str, str, int, int]) -> dict[str, Any]:
    """A game on OpenSpiel's side: its ISMCTS in the watched seat, random whole actions
    elsewhere (a random cardrules seat, not a random choice of each part)."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts

    import cardrules.openspiel  # noqa: F401 - registers the game
    from cardrules.adapters.openspiel import RoundRollouts

    name, _, game, simulations = job
    players = TABLES[name]
    seat, seed = game % players, seed_of(game)
    spiel = pyspiel.load_game("cardrules", {"ruleset": name, "players": players,
                                            "actions": "parts"})
    bot = ismcts.ISMCTSBot(spiel, RoundRollouts(1, seed), 2.0, simulations,
                           random_state=np.random.RandomState(seed % 2 ** 31))
    rng = random.Random(seed)
    state = spiel.new_initial_state()
    for byte in seed.to_bytes(4, "little"):
        state.apply_action(byte)
    thinking, actions = 0.0, 0
    while not state.is_terminal():
        if state.current_player() == seat:
            started = time.perf_counter()
            before = state.match.actions
            while state.match.actions == before and not state.is_terminal():
                state.apply_action(bot.step(state))
            thinking += time.perf_counter() - started
            actions += 1
        else:
            whole = state.match.decision().whole()
            for part in whole[int(rng.random() * len(whole))][0]:
                state.apply_action(part)
    winners = state.match.state.winners or []
    return {"game": game, "won": share(winners, seat), "seconds": thinking, "actions": actions}


def run(job: tuple[str, str, int, int]) -> tuple[str, str, dict[str, Any]]:
    name, kind = job[0], job[1]
    result = openspiel_game(job) if kind == "openspiel-ismcts" else cardrules_game(job)
    return name, kind, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200,
                        help="games per ruleset for cardrules' bots and the random seat")
    parser.add_argument("--openspiel-games", type=int, default=40,
                        help="games per ruleset for OpenSpiel's ISMCTS")
    parser.add_argument("--simulations", type=int, default=50,
                        help="OpenSpiel ISMCTS simulations per decision")
    parser.add_argument("--rulesets", nargs="+", default=list(TABLES), choices=list(TABLES))
    parser.add_argument("--workers", type=int, default=multiprocessing.cpu_count())
    args = parser.parse_args()
    jobs = []
    for name in args.rulesets:
        jobs += [(name, "openspiel-ismcts", g, args.simulations)
                 for g in range(args.openspiel_games)]
        jobs += [(name, "random", g, 0) for g in range(max(args.games, args.openspiel_games))]
        for kind in CARDRULES_BOTS:
            jobs += [(name, kind, g, 0) for g in range(args.games)]
    jobs.sort(key=lambda job: job[1] != "openspiel-ismcts")  # the long ones first
    results: dict[tuple[str, str], list[dict[str, Any]]] = {}
    started = time.perf_counter()
    with multiprocessing.get_context().Pool(args.workers) as pool:
        for name, kind, result in pool.imap_unordered(run, jobs):
            results.setdefault((name, kind), []).append(result)
    print(f"{len(jobs)} games in {time.perf_counter() - started:.0f} s, {args.workers} "
          f"workers; OpenSpiel ISMCTS at {args.simulations} simulations per decision\n")
    print("| game (players) | bot | games | bot wins (95% CI) | random seat wins, same games "
          "(95% CI) | actions per second of thinking |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name in args.rulesets:
        randoms = {r["game"]: r["won"] for r in results.get((name, "random"), [])}
        for kind in ("openspiel-ismcts", *CARDRULES_BOTS):
            rows = results.get((name, kind), [])
            if not rows:
                continue
            n, wins = len(rows), sum(r["won"] for r in rows)
            base = sum(randoms[r["game"]] for r in rows)  # the same games, that seat random
            low, high = wilson(wins, n)
            base_low, base_high = wilson(base, n)
            speed = sum(r["actions"] for r in rows) / sum(r["seconds"] for r in rows)
            print(f"| {name} ({TABLES[name]}) | {kind} | {n} | {100 * wins / n:.1f}% "
                  f"[{100 * low:.1f}, {100 * high:.1f}] | {100 * base / n:.1f}% "
                  f"[{100 * base_low:.1f}, {100 * base_high:.1f}] | {speed:.1f} |")


if __name__ == "__main__":
    main()
