"""Simulation: many seeded games with bots, played in parallel, summed up as they arrive.

    sim = Simulation((RulesetRef.of("golf6"),), games=1000, players=4,
                     seats=("random",) * 4, seed=1)
    summary = Summary(load_ruleset("golf6"), sim)
    with closing(stream(sim, workers=2)) as games:
        for (record,) in games:
            summary.add(record)
    summary.report()

Game `i` of a run is dealt from `game_seed(seed, i)`, so it is the same game whatever the
number of workers or the backend, and `cardrules run RULESET --seed <that seed>` replays it.
Workers send back one small GameRecord per game, in chunks; records are summed up in game
order (so every floating-point sum is the same from run to run) by streaming accumulators:
memory stays flat however many games are played.

Backends: "local" (this process for one worker, else a pool of worker processes) and "dask" (a
`distributed.Client`, the optional extra `cardrules[cluster]`).
"""

from __future__ import annotations

import hashlib
import multiprocessing
import signal
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from itertools import islice
from typing import Any

from cardrules.errors import CardrulesError, GameError

from ..engine import Engine
from ..kernel import Kernel, kernel_for
from ..players.bots import make_bot, plays_blind
from .play import play
from .runs import GameRecord, Records, RulesetSource, Simulation

# The statistics, summed up from the records this module plays (interpreter/sessions/statistics.py).
from .statistics import (  # noqa: F401  (a run's API: play here, sum up there)
    Z95,
    Comparison,
    Running,
    Summary,
    Tally,
    wilson,
)

__all__ = ["Comparison", "GameRecord", "Running", "Simulation", "Summary", "Tally", "Z95",
           "game_seed", "lead_changes", "play_record", "stream", "wilson"]


# ------------------------------------------------------------------ what is played
def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` (from 0) of a run seeded `seed`: a 63-bit hash of the two,
    so that runs with nearby seeds share no games."""
    digest = hashlib.blake2b(f"{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def lead_changes(round_totals: Sequence[Sequence[int]], winner: str) -> int:
    """How often the lead of the totals changed hands between rounds (`round_totals`: each
    seat's total after each round, what rules after a round changed included).

    After each round the leader is the one seat with the best total (lowest or highest, as
    `winner` says); a change is counted when a seat takes the lead alone from another seat
    that last led alone. Ties for the lead neither count nor end anyone's lead.
    """
    best = min if winner == "lowest" else max
    leader, changes = None, 0
    for totals in round_totals:
        top = best(totals)
        leaders = [seat for seat, total in enumerate(totals) if total == top]
        if len(leaders) == 1:
            if leader is not None and leaders[0] != leader:
                changes += 1
            leader = leaders[0]
    return changes


def play_record(engine: Engine, sim: Simulation, index: int, turn: int = 0) -> GameRecord:
    """Play game `index` of `sim` with `engine`'s ruleset and sum it up; with `turn`, the
    seats' kinds turned that many places round the table (seat kind j at place j + turn),
    the results given back in the kinds' order."""
    seed = game_seed(sim.seed, index)
    n = sim.players
    kinds = [sim.seats[(place - turn) % n] for place in range(n)]
    try:
        state = engine.new_game(sim.players, seed)
        bots = [make_bot(kind, seed, place) for place, kind in enumerate(kinds)]
        state = play(engine, state, bots)
        results = engine.results(state)
    except CardrulesError as exc:
        raise GameError(f"{engine.rules.name}: game {index + 1} (seed {seed}): {exc}") from None
    house = results.get("house")
    totals = results["totals"]
    round_totals = state.round_totals
    teams = engine.rules.teams
    if 0 < teams < n and engine.rules.score_by == "team":
        # Partners share one total: the lead passes between teams (seat t scores for team t).
        round_totals = [totals[:teams] for totals in round_totals]
    return GameRecord(index, tuple(sorted((w - 1 - turn) % n + 1 for w in results["winners"])),
                      tuple(totals[(j + turn) % n] for j in range(n)),
                      results["turns"], results["actions"], results["rounds"],
                      lead_changes(round_totals, engine.rules.winner),
                      house["total"] if house else None, bool(house and house["winner"]),
                      "cut_off" in results, results["actions"] - results["forced"])


# Each process loads a ruleset once and keeps its engine (a worker is handed many chunks).
_ENGINES: dict[tuple[RulesetSource, bool], Engine] = {}


def engine_for(ref: RulesetSource, kernel: bool = False) -> Engine:
    """The ruleset's engine, or (`kernel`) its playout kernel, made once per process."""
    engine = _ENGINES.get((ref, kernel))
    if engine is None:
        rules = ref.load()
        engine = _ENGINES[ref, kernel] = Kernel(rules) if kernel else Engine(rules)
    return engine


def play_span(sim: Simulation, span: tuple[int, int]) -> list[Records]:
    """Games span[0] to span[1] - 1, each played with every ruleset of `sim` (in duplicate
    play, once per rotation: a ruleset's records follow one another): on the rules' kernel
    where every seat plays blind (random seats), else on the engine (whose searches play on
    the kernel in turn); the games are the same either way."""
    kernel = all(plays_blind(kind) for kind in sim.seats)
    engines = [engine_for(ref, kernel) for ref in sim.rulesets]
    return [tuple(play_record(engine, sim, index, turn) for engine in engines
                  for turn in range(sim.rotations))
            for index in range(*span)]


def chunk_size(games: int, workers: int) -> int:
    """Games per chunk: small enough to keep every worker busy to the end, large enough that
    sending them costs little next to playing them."""
    return max(1, min(64, games // (workers * 16)))


def spans(games: int, workers: int) -> Iterator[tuple[int, int]]:
    """Game indices in chunks, made as they are asked for: a run of a billion games takes
    no more memory than a run of ten."""
    size = chunk_size(games, workers)
    return ((start, min(start + size, games)) for start in range(0, games, size))


# ------------------------------------------------------------------------ backends
def stream(sim: Simulation, workers: int = 1, client: Any = None) -> Iterator[Records]:
    """Every game's records (one per ruleset), in game order, as the games finish.

    With a `distributed.Client` the games run on its cluster; otherwise on `workers` local
    processes (one: this process). Close the iterator (contextlib.closing) to stop early:
    the workers are stopped with it.
    """
    chunks = spans(sim.games, workers)
    count = -(-sim.games // chunk_size(sim.games, workers))  # how many chunks
    if client is not None:
        batches = _dask_batches(sim, chunks, client, window=4 * max(workers, 1))
    elif workers <= 1 or count <= 1:
        # One game at a time, so that a stop (Ctrl-C) loses no finished game.
        batches = (play_span(sim, (game, game + 1)) for game in range(sim.games))
    else:
        kernel = all(plays_blind(kind) for kind in sim.seats)
        for ref in sim.rulesets:  # forked workers inherit them, instead of each loading them
            engine = engine_for(ref, kernel)
            if not kernel:  # (whose searches play on the kernel)
                kernel_for(engine)
        batches = _pool_batches(sim, chunks, min(workers, count))
    for batch in batches:
        yield from batch


def _ignore_interrupts() -> None:
    # Ctrl-C reaches every process of the terminal's group: the parent alone answers it
    # (and stops the pool), so that workers do not each print a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _pool_batches(sim: Simulation, chunks: Iterable[tuple[int, int]],
                  workers: int) -> Iterator[list[Records]]:
    """Chunks on local worker processes, at most two per worker in flight, taken back in
    order (so sums are taken in order). A chunk that fails stops the others at once."""
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(),
                               initializer=_ignore_interrupts)
    todo = iter(chunks)
    pending = deque(pool.submit(play_span, sim, span) for span in islice(todo, 2 * workers))
    try:
        while pending:
            batch = pending.popleft().result()
            pending.extend(pool.submit(play_span, sim, span) for span in islice(todo, 1))
            yield batch
    finally:
        if any(not future.done() for future in pending):  # stopped early (Ctrl-C, a fault)
            for process in list((getattr(pool, "_processes", None) or {}).values()):
                process.terminate()  # chunks under way are not waited for
        pool.shutdown(wait=True, cancel_futures=True)


def _dask_batches(sim: Simulation, chunks: Iterable[tuple[int, int]], client: Any,
                  window: int) -> Iterator[list[Records]]:
    """Chunks on a Dask cluster, at most `window` in flight, taken back in order."""
    todo = iter(chunks)
    pending = deque(client.submit(play_span, sim, span, pure=False)
                    for span in islice(todo, window))
    try:
        while pending:
            batch = pending.popleft().result()
            for span in islice(todo, 1):
                pending.append(client.submit(play_span, sim, span, pure=False))
            yield batch
    finally:
        for future in pending:
            future.cancel()
