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
import math
import multiprocessing
import signal
from collections import Counter, deque
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import islice
from typing import Any, NamedTuple, Protocol

from cardrules.errors import CardrulesError, GameError
from cardrules.model import Ruleset

from ..engine import Engine
from ..kernel import Kernel, kernel_for
from ..players.bots import make_bot, plays_blind
from .play import play

Z95 = 1.959963984540054  # the standard normal quantile of 0.975: two-sided 95%
SHARE_NOTE = "a tied win counts 1/k for each of its k winners"
LEAD_NOTE = ("a lead change: after a round, one seat alone leads the cumulative totals "
             "and it is not the seat that last led alone (a tie for the lead changes nothing)")


# ------------------------------------------------------------------ what is played
def game_seed(seed: int, index: int) -> int:
    """The seed of game `index` (from 0) of a run seeded `seed`: a 63-bit hash of the two,
    so that runs with nearby seeds share no games."""
    digest = hashlib.blake2b(f"{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


class RulesetSource(Protocol):
    """What a worker is given to load a ruleset from (cardrules.dsl.loader.RulesetRef): a
    small, picklable, hashable reference, loaded once per process."""

    ref: str
    options: tuple[tuple[str, str], ...]

    def load(self) -> Ruleset: ...


@dataclass(frozen=True)
class Simulation:
    """A run: the rulesets played on the same seeds (one, or two to compare), and the table."""

    rulesets: tuple[RulesetSource, ...]
    games: int  # games to play; with rotations, deals: each is played once per rotation
    players: int
    seats: tuple[str, ...]
    seed: int
    # Duplicate play: each deal is played `rotations` times (the table's size), the seats'
    # kinds turned one place further round the table each time; a game's results are put
    # back in the order of `seats`, so seat 1 is the first kind wherever it sat.
    rotations: int = 1


class GameRecord(NamedTuple):
    """What one finished game sends back: enough for every statistic, and no more."""

    game: int  # its index in the run, from 0
    winners: tuple[int, ...]  # seats from 1
    totals: tuple[int, ...]
    turns: int
    actions: int
    rounds: int
    lead_changes: int
    house_total: int | None = None  # a game with a house (`house:`): its total
    house_won: bool = False  # ... and whether it won (alone or with the seats in `winners`)


Records = tuple[GameRecord, ...]  # one game's records: one per ruleset of the run


def lead_changes(round_scores: Sequence[Sequence[int]], winner: str) -> int:
    """How often the lead of the cumulative totals changed hands between rounds.

    After each round the leader is the one seat with the best total (lowest or highest, as
    `winner` says); a change is counted when a seat takes the lead alone from another seat
    that last led alone. Ties for the lead neither count nor end anyone's lead.
    """
    best = min if winner == "lowest" else max
    totals: list[int] = []
    leader, changes = None, 0
    for scores in round_scores:
        totals = list(scores) if not totals else [t + s for t, s in zip(totals, scores)]
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
        results = engine.results(play(engine, state, bots))
    except CardrulesError as exc:
        raise GameError(f"{engine.rules.name}: game {index + 1} (seed {seed}): {exc}") from None
    house = results.get("house")
    totals = results["totals"]
    return GameRecord(index, tuple(sorted((w - 1 - turn) % n + 1 for w in results["winners"])),
                      tuple(totals[(j + turn) % n] for j in range(n)),
                      results["turns"], results["actions"], results["rounds"],
                      lead_changes(results["round_scores"], engine.rules.winner),
                      house["total"] if house else None, bool(house and house["winner"]))


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


# ---------------------------------------------------------------------- statistics
def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (`successes` may be fractional)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    # At p = 0 or 1 the interval touches 0 or 1 exactly (rounding would miss it by an ulp).
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return low, high


class Running:
    """Count, mean and standard deviation of a stream of numbers (Welford's method)."""

    __slots__ = ("n", "mean", "m2")

    def __init__(self) -> None:
        self.n, self.mean, self.m2 = 0, 0.0, 0.0

    def add(self, x: float) -> None:
        self.n += 1
        delta = x - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (x - self.mean)

    @property
    def sd(self) -> float:
        """The sample standard deviation (0 for fewer than two numbers)."""
        return math.sqrt(self.m2 / (self.n - 1)) if self.n > 1 else 0.0

    def ci(self, z: float = Z95) -> tuple[float, float]:
        """A normal-approximation confidence interval of the mean."""
        half = z * self.sd / math.sqrt(self.n) if self.n else math.inf
        return self.mean - half, self.mean + half


class Tally(Running):
    """A Running that also counts each value, for exact percentiles: scores are integers,
    so the counts stay few (one per distinct score) however many games are played."""

    __slots__ = ("counts",)

    def __init__(self) -> None:
        super().__init__()
        self.counts: Counter[float] = Counter()

    def add(self, x: float) -> None:
        super().add(x)
        self.counts[x] += 1

    def percentile(self, q: float) -> float | None:
        """The nearest-rank percentile: the least value with at least q% of values at or
        below it (None for no values)."""
        if not self.n:
            return None
        rank, seen = max(1, math.ceil(q / 100 * self.n)), 0
        for value in sorted(self.counts):
            seen += self.counts[value]
            if seen >= rank:
                return value
        raise AssertionError("unreachable: the counts add up to n")


def _r(x: float | None) -> float | None:
    """Report numbers to 4 decimals: the table, JSON and CSV all show these very values."""
    return None if x is None else round(x, 4) + 0.0  # + 0.0: no -0.0


def _interval(bounds: tuple[float, float]) -> list[float | None]:
    return [_r(bounds[0]), _r(bounds[1])]


def _summary(stat: Running) -> dict[str, float | None]:
    return {"mean": _r(stat.mean) if stat.n else None, "sd": _r(stat.sd) if stat.n else None}


class Summary:
    """The statistics of one ruleset's games, built up one GameRecord at a time."""

    def __init__(self, rules: Ruleset, sim: Simulation) -> None:
        self.rules, self.sim = rules, sim
        self.games = 0
        self.interrupted = False
        # Per seat: how many games it won as one of k winners, by k (exact, order-free).
        self.shares: list[Counter[int]] = [Counter() for _ in sim.seats]
        self.scores = [Tally() for _ in sim.seats]
        self.turns, self.actions, self.rounds = Running(), Running(), Running()
        self.leads = Tally()
        self.tied = 0
        self.unwon = 0  # games that ended with no winner (a stop such as a turn limit)
        # The house (`house:`), counted as the seats are: its wins by k, its totals.
        self.house_shares: Counter[int] = Counter()
        self.house_scores = Tally()

    def add(self, record: GameRecord) -> None:
        self.games += 1
        k = len(record.winners) + record.house_won  # the house shares a tied win too
        if record.house_won:
            self.house_shares[k] += 1
        if record.house_total is not None:
            self.house_scores.add(record.house_total)
        for seat in record.winners:
            self.shares[seat - 1][k] += 1
        if k > 1:
            self.tied += 1
        elif k == 0:
            self.unwon += 1
        for tally, total in zip(self.scores, record.totals):
            tally.add(total)
        self.turns.add(record.turns)
        self.actions.add(record.actions)
        self.rounds.add(record.rounds)
        self.leads.add(record.lead_changes)

    def wins(self, seat: int | None) -> float:
        """Seat `seat`'s (from 0; None: the house's) wins, a tied win counting 1/k."""
        shares = self.house_shares if seat is None else self.shares[seat]
        return sum(count / k for k, count in sorted(shares.items()))

    def win_rate(self, seat: int | None) -> float | None:
        return self.wins(seat) / self.games if self.games else None

    def report(self) -> dict[str, Any]:
        """Every number, rounded as shown, in plain JSON-ready values."""
        n, players = self.games, self.sim.players
        seats = []
        for seat, (kind, tally) in enumerate(zip(self.sim.seats, self.scores)):
            seats.append({
                "seat": seat + 1, "kind": kind, "wins": _r(self.wins(seat)),
                "win_rate": _r(self.win_rate(seat)), "win_ci": _interval(wilson(
                    self.wins(seat), n)),
                "score_mean": _r(tally.mean) if n else None, "score_sd": _r(tally.sd) if n
                else None, "score_p10": tally.percentile(10),
                "score_p50": tally.percentile(50), "score_p90": tally.percentile(90)})
        first = self.win_rate(0)
        low, high = wilson(self.wins(0), n)
        out = {
            "ruleset": self.rules.name, "title": self.rules.title, "winner": self.rules.winner,
            "options": dict(self.sim.rulesets[0].options), "players": players,
            "seats": list(self.sim.seats), "seed": self.sim.seed, "games": n,
            "games_requested": self.sim.games, "interrupted": self.interrupted,
            "per_seat": seats,
            "length": {"turns": _summary(self.turns), "actions": _summary(self.actions),
                       "rounds": _summary(self.rounds)},
            "ties": {"games": self.tied, "rate": _r(self.tied / n) if n else None,
                     "note": SHARE_NOTE},
            "no_winner": {"games": self.unwon, "rate": _r(self.unwon / n) if n else None},
            "first_player_advantage": {
                "value": _r(first - 1 / players) if first is not None else None,
                "ci": _interval((low - 1 / players, high - 1 / players))},
            "lead_changes": {**_summary(self.leads),
                             "games_with_change": n - self.leads.counts[0] if n else 0,
                             "note": LEAD_NOTE},
        }
        if self.rules.house is not None:
            out["house"] = self.house_report()
        return out

    def house_report(self) -> dict[str, Any]:
        """The house's line: its wins (a tie with seats shared as theirs are) and totals."""
        assert self.rules.house is not None
        n, tally = self.games, self.house_scores
        return {"name": self.rules.house.name, "wins": _r(self.wins(None)),
                "win_rate": _r(self.win_rate(None)), "win_ci": _interval(wilson(
                    self.wins(None), n)),
                "score_mean": _r(tally.mean) if n else None,
                "score_sd": _r(tally.sd) if n else None, "score_p10": tally.percentile(10),
                "score_p50": tally.percentile(50), "score_p90": tally.percentile(90)}


class Comparison:
    """Two rulesets played on the same seeds: per-game (paired) differences, A minus B."""

    LENGTHS = ("turns", "actions", "rounds")

    def __init__(self, first: Ruleset, second: Ruleset, sim: Simulation) -> None:
        self.sides = (Summary(first, sim), Summary(second, sim))
        self.sim = sim
        self.win_diff = [Running() for _ in sim.seats]
        self.score_diff = [Running() for _ in sim.seats]
        self.length_diff = {name: Running() for name in self.LENGTHS}
        self.house_diff = Running()  # the house's win share, where both have a house

    @property
    def games(self) -> int:
        return self.sides[0].games

    @property
    def interrupted(self) -> bool:
        return self.sides[0].interrupted

    @interrupted.setter
    def interrupted(self, value: bool) -> None:
        for side in self.sides:
            side.interrupted = value

    def add(self, *records: GameRecord) -> None:
        """One deal's games: A's then B's, one each (or one per rotation, in duplicate
        play). The paired differences are per deal, the mean over its rotations: the games
        of one deal are not independent of each other, the deals are."""
        half = len(records) // 2
        pairs = list(zip(records[:half], records[half:]))
        for a, b in pairs:
            self.sides[0].add(a)
            self.sides[1].add(b)

        def mean(values: Iterable[float]) -> float:
            return sum(values) / len(pairs)

        for seat in range(self.sim.players):
            self.win_diff[seat].add(mean(_share(a, seat) - _share(b, seat) for a, b in pairs))
            self.score_diff[seat].add(mean(a.totals[seat] - b.totals[seat] for a, b in pairs))
        for name in self.LENGTHS:
            self.length_diff[name].add(mean(getattr(a, name) - getattr(b, name)
                                            for a, b in pairs))
        if all(a.house_total is not None and b.house_total is not None for a, b in pairs):
            self.house_diff.add(mean(_house_share(a) - _house_share(b) for a, b in pairs))

    def report(self) -> dict[str, Any]:
        """Per seat and per game-length measure: A, B, A - B with its 95% CI, significant."""
        first, second = (side.report() for side in self.sides)
        per_seat = []
        for seat in range(self.sim.players):
            a, b = first["per_seat"][seat], second["per_seat"][seat]
            per_seat.append({
                "seat": seat + 1, "kind": self.sim.seats[seat],
                "win_rate": _difference(a["win_rate"], b["win_rate"], self.win_diff[seat]),
                "score_mean": _difference(a["score_mean"], b["score_mean"],
                                          self.score_diff[seat])})
        length = {name: _difference(first["length"][name]["mean"],
                                    second["length"][name]["mean"], self.length_diff[name])
                  for name in self.LENGTHS}
        out = {"a": first["ruleset"], "b": second["ruleset"],
                "a_title": first["title"], "b_title": second["title"],
                "players": self.sim.players, "seats": list(self.sim.seats),
                "seed": self.sim.seed, "games": self.games,
                "games_requested": self.sim.games * self.sim.rotations,
                "interrupted": self.interrupted, "duplicate": self.sim.rotations > 1,
                "deals": self.win_diff[0].n if self.win_diff else 0,
                "per_seat": per_seat, "length": length,
                "note": ("differences are A minus B, paired game by game (same seeds)"
                         if self.sim.rotations == 1 else
                         "duplicate: each deal played with the seats turned round the table "
                         f"{self.sim.rotations} times, a seat being its kind wherever it sat; "
                         "differences are A minus B, paired deal by deal (the mean of its "
                         "games)") + "; " + SHARE_NOTE}
        if "house" in first and "house" in second:
            out["house"] = {"win_rate": _difference(first["house"]["win_rate"],
                                                    second["house"]["win_rate"],
                                                    self.house_diff)}
        return out


def _share(record: GameRecord, seat: int) -> float:
    """A seat's (from 0) share of a game's win: 1/k for one of k winners."""
    won = seat + 1 in record.winners
    return 1 / (len(record.winners) + record.house_won) if won else 0.0


def _house_share(record: GameRecord) -> float:
    return 1 / (len(record.winners) + 1) if record.house_won else 0.0


def _difference(a: float | None, b: float | None, diff: Running) -> dict[str, Any]:
    if not diff.n:
        return {"a": a, "b": b, "diff": None, "ci": [None, None], "significant": False}
    low, high = diff.ci()
    significant = diff.n > 1 and (low > 0 or high < 0)
    return {"a": a, "b": b, "diff": _r(diff.mean), "ci": _interval((low, high)),
            "significant": significant}
