"""The statistics of simulated games: one ruleset's (Summary), or two on the same seeds
(Comparison), summed up one GameRecord at a time by streaming accumulators.

Three kinds of game need their own figures:
- a game cut off by the ruleset's bound on actions (`max_actions`) did not end: it is counted
  apart, and kept out of every other figure (win rates, scores, lengths, lead changes);
- with partnerships (`teams:`) the sides are the teams: a team's win is one win, for each of
  its seats, and the report has a line per team;
- a game for one seat (a patience game) has no opponent: its report gives the win rate and
  the moves to win, and no head-to-head figures (ties, the first player's advantage, leads).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache
from statistics import NormalDist
from typing import Any

from cardrules.model import Ruleset

from .runs import GameRecord, Simulation

Z95 = 1.959963984540054  # the standard normal quantile of 0.975: two-sided 95%
SHARE_NOTE = "a tied win counts 1/k for each of its k winners"
TEAM_NOTE = ("a team's win counts once, for each of its seats; a tied win counts 1/k for "
             "each of its k winning teams")
LEAD_NOTE = ("a lead change: after a round, one seat alone leads the totals (as the "
             "rules after the round leave them) and it is not the seat that last led alone "
             "(a tie for the lead changes nothing)")
CUT_OFF_NOTE = ("games cut off by the bound on actions (max_actions) are counted apart and "
                "left out of every other figure")
MOVES_NOTE = "moves to win: the seat's own decisions in a game it won"


@lru_cache(maxsize=256)
def t_quantile(p: float, df: int) -> float:
    """The `p` quantile (0.5 <= p < 1) of Student's t distribution with `df` (>= 1) degrees
    of freedom: exact (the distribution's closed form for whole degrees, inverted by
    bisection) up to EXACT_DF degrees, the Cornish-Fisher expansion beyond (within 1e-8)."""
    if not 0.5 <= p < 1 or df < 1:
        raise ValueError(f"t_quantile({p}, {df}): p from 0.5 below 1, df from 1")
    if p == 0.5:
        return 0.0
    if df > EXACT_DF:
        return _cornish_fisher(p, df)
    low, high = 0.0, 1.0
    while 0.5 + _t_central(high, df) / 2 < p:
        low, high = high, 2 * high
    for _ in range(200):
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if 0.5 + _t_central(middle, df) / 2 < p:
            low = middle
        else:
            high = middle
    return high


EXACT_DF = 200  # beyond, the expansion's error is far below what a report shows


def _t_central(t: float, df: int) -> float:
    """P(-t < T < t) for Student's t with `df` degrees (Abramowitz and Stegun 26.7.3-4:
    a finite sum of powers of cos(theta), theta = atan(t / sqrt(df)))."""
    theta = math.atan(t / math.sqrt(df))
    cos2 = math.cos(theta) ** 2
    if df % 2:  # odd
        total, term = 0.0, math.cos(theta)
        for k in range(1, (df - 1) // 2 + 1):
            total += term
            term *= 2 * k / (2 * k + 1) * cos2
        return 2 / math.pi * (theta + math.sin(theta) * total)
    total, term = 0.0, 1.0
    for k in range(1, df // 2 + 1):
        total += term
        term *= (2 * k - 1) / (2 * k) * cos2
    return math.sin(theta) * total


def _cornish_fisher(p: float, df: int) -> float:
    """Student's t quantile from the normal one, in powers of 1/df (A&S 26.7.5)."""
    x = NormalDist().inv_cdf(p)
    g1 = (x**3 + x) / 4
    g2 = (5 * x**5 + 16 * x**3 + 3 * x) / 96
    g3 = (3 * x**7 + 19 * x**5 + 17 * x**3 - 15 * x) / 384
    g4 = (79 * x**9 + 776 * x**7 + 1482 * x**5 - 1920 * x**3 - 945 * x) / 92160
    return x + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


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

    def ci(self, level: float = 0.95) -> tuple[float, float] | None:
        """The `level` confidence interval of the mean, from Student's t with n - 1 degrees
        (wider than the normal one for few numbers: 6.5 times at n = 2); None for fewer
        than two numbers, whose spread is unknown."""
        if self.n < 2:
            return None
        half = t_quantile((1 + level) / 2, self.n - 1) * self.sd / math.sqrt(self.n)
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


def _rate_interval(successes: float, n: int) -> list[float | None]:
    """A win rate's Wilson interval as reported: none where no game came to its end (a rate
    of nothing is unknown, not anywhere from 0 to 1)."""
    return _interval(wilson(successes, n)) if n else [None, None]


def _summary(stat: Running) -> dict[str, float | None]:
    return {"mean": _r(stat.mean) if stat.n else None, "sd": _r(stat.sd) if stat.n else None}


def _spread(tally: Tally) -> dict[str, float | None]:
    """Mean, sd and the 10th, 50th and 90th percentiles of a tally."""
    return {**_summary(tally), "p10": tally.percentile(10), "p50": tally.percentile(50),
            "p90": tally.percentile(90)}


def team_count(rules: Ruleset, players: int) -> int:
    """The partnerships at a table of `players` (0: every seat plays for itself)."""
    return rules.teams if 0 < rules.teams < players else 0


def sides_won(record: GameRecord, teams: int) -> set[int]:
    """The sides (seats, or teams where there are teams; from 0) among a game's winners."""
    return {(w - 1) % teams if teams else w - 1 for w in record.winners}


def share(record: GameRecord, seat: int, teams: int) -> float:
    """A seat's (from 0) share of a game's win: 1/k where its side is one of k winners
    (the house among them, if it won too)."""
    won = sides_won(record, teams)
    side = seat % teams if teams else seat
    return 1 / (len(won) + record.house_won) if side in won else 0.0


def house_share(record: GameRecord, teams: int) -> float:
    return 1 / (len(sides_won(record, teams)) + 1) if record.house_won else 0.0


class Summary:
    """The statistics of one ruleset's games, built up one GameRecord at a time."""

    def __init__(self, rules: Ruleset, sim: Simulation, which: int = 0) -> None:
        """`which`: the ruleset's place in the simulation (B's is 1, in a comparison)."""
        self.rules, self.sim, self.which = rules, sim, which
        self.teams = team_count(rules, sim.players)
        self.games = 0  # every game played, cut off or not
        self.cut = 0  # games cut off by the bound on actions: in no other figure
        self.interrupted = False
        # Per side (seat, or team): how many games it won as one of k winners, by k.
        self.shares: list[Counter[int]] = [Counter() for _ in range(self.teams or sim.players)]
        self.scores = [Tally() for _ in sim.seats]
        self.turns, self.actions, self.rounds = Running(), Running(), Running()
        self.leads = Tally()
        self.moves_to_win = Tally()  # one seat: its moves in the games it won
        self.tied = 0
        self.unwon = 0  # games that ended with no winner (a stop such as a turn limit)
        # The house (`house:`), counted as the seats are: its wins by k, its totals.
        self.house_shares: Counter[int] = Counter()
        self.house_scores = Tally()

    @property
    def finished(self) -> int:
        """The games that came to their end (those the figures are of)."""
        return self.games - self.cut

    def add(self, record: GameRecord) -> None:
        self.games += 1
        if record.cut_off:
            self.cut += 1
            return
        won = sides_won(record, self.teams)
        k = len(won) + record.house_won  # the house shares a tied win too
        if record.house_won:
            self.house_shares[k] += 1
        if record.house_total is not None:
            self.house_scores.add(record.house_total)
        for side in won:
            self.shares[side][k] += 1
        if k > 1:
            self.tied += 1
        elif k == 0:
            self.unwon += 1
        if self.sim.players == 1 and record.winners:
            self.moves_to_win.add(record.moves)
        for tally, total in zip(self.scores, record.totals):
            tally.add(total)
        self.turns.add(record.turns)
        self.actions.add(record.actions)
        self.rounds.add(record.rounds)
        self.leads.add(record.lead_changes)

    def wins(self, seat: int | None) -> float:
        """Seat `seat`'s (from 0; None: the house's) wins, a tied win counting 1/k; with
        teams, every win of the seat's team."""
        if seat is None:
            shares = self.house_shares
        else:
            shares = self.shares[seat % self.teams if self.teams else seat]
        return sum(count / k for k, count in sorted(shares.items()))

    def win_rate(self, seat: int | None) -> float | None:
        return self.wins(seat) / self.finished if self.finished else None

    def options(self) -> dict[str, str]:
        """The options the simulation set, each as the ruleset read it (`rounds=04` is
        rounds=4, `one_deal=yes` one_deal=true)."""
        read = self.rules.options
        return {name: _option_text(read.get(name, value))
                for name, value in dict(self.sim.rulesets[self.which].options).items()}

    def report(self) -> dict[str, Any]:
        """Every number, rounded as shown, in plain JSON-ready values."""
        n, players = self.finished, self.sim.players
        seats = []
        for seat, (kind, tally) in enumerate(zip(self.sim.seats, self.scores)):
            seats.append({
                "seat": seat + 1, "kind": kind, "wins": _r(self.wins(seat)),
                "win_rate": _r(self.win_rate(seat)),
                "win_ci": _rate_interval(self.wins(seat), n),
                "score_mean": _r(tally.mean) if n else None, "score_sd": _r(tally.sd) if n
                else None, "score_p10": tally.percentile(10),
                "score_p50": tally.percentile(50), "score_p90": tally.percentile(90)})
        out: dict[str, Any] = {
            "ruleset": self.rules.name, "title": self.rules.title, "winner": self.rules.winner,
            "options": self.options(), "players": players,
            "seats": list(self.sim.seats), "seed": self.sim.seed, "games": self.games,
            "games_requested": self.sim.games, "interrupted": self.interrupted,
            "finished": n,
            "cut_off": {"games": self.cut, "rate": _r(self.cut / self.games) if self.games
                        else None, "max_actions": self.rules.max_actions,
                        "note": CUT_OFF_NOTE},
            "per_seat": seats,
            "length": {"turns": _summary(self.turns), "actions": _summary(self.actions),
                       "rounds": _summary(self.rounds)},
            "no_winner": {"games": self.unwon, "rate": _r(self.unwon / n) if n else None},
        }
        if players == 1:
            out["solo"] = self.solo_report()
        else:
            out["ties"] = {"games": self.tied, "rate": _r(self.tied / n) if n else None,
                           "note": TEAM_NOTE if self.teams else SHARE_NOTE}
            out["first_player_advantage"] = self.first_player_advantage()
            out["lead_changes"] = {**_summary(self.leads),
                                   "games_with_change": n - self.leads.counts[0] if n else 0,
                                   "note": LEAD_NOTE.replace("seat", "team") if self.teams
                                   else LEAD_NOTE}
        if self.teams:
            out["per_team"] = [self.team_report(team) for team in range(self.teams)]
        if self.rules.house is not None:
            out["house"] = self.house_report()
        return out

    def first_player_advantage(self) -> dict[str, Any]:
        """Seat 1's win rate (its team's, with teams) less the sides' mean win rate: what
        it would win were every seat alike. The mean is 1/sides where every game has a
        winning seat, less where games end with no winner or the house wins (none: no side
        won a game, and there is no advantage to measure)."""
        n, sides = self.finished, self.teams or self.sim.players
        out: dict[str, Any] = {"value": None, "ci": [None, None], "sides": sides,
                               "baseline": None}
        won = sum(self.wins(side) for side in range(sides))
        if not n or not won:
            return out
        baseline = won / (n * sides)
        low, high = wilson(self.wins(0), n)
        out.update(value=_r(self.wins(0) / n - baseline),
                   ci=_interval((low - baseline, high - baseline)), baseline=_r(baseline))
        return out

    def team_report(self, team: int) -> dict[str, Any]:
        """A team's line: its seats and its wins."""
        seats = list(range(team, self.sim.players, self.teams))
        return {"team": team + 1, "seats": [s + 1 for s in seats],
                "kinds": [self.sim.seats[s] for s in seats], "wins": _r(self.wins(team)),
                "win_rate": _r(self.win_rate(team)),
                "win_ci": _rate_interval(self.wins(team), self.finished)}

    def solo_report(self) -> dict[str, Any]:
        """One seat alone: how often it wins, and in how many moves."""
        wins = self.wins(0)
        shares = self.shares[0]
        return {"wins": _r(wins), "win_rate": _r(self.win_rate(0)),
                "win_ci": _rate_interval(wins, self.finished),
                "games_won": sum(shares.values()),
                "tied": sum(count for k, count in shares.items() if k > 1),
                "tie_note": SHARE_NOTE,
                "moves_to_win": _spread(self.moves_to_win), "note": MOVES_NOTE}

    def house_report(self) -> dict[str, Any]:
        """The house's line: its wins (a tie with seats shared as theirs are) and totals."""
        assert self.rules.house is not None
        n, tally = self.finished, self.house_scores
        return {"name": self.rules.house.name, "wins": _r(self.wins(None)),
                "win_rate": _r(self.win_rate(None)),
                "win_ci": _rate_interval(self.wins(None), n),
                "score_mean": _r(tally.mean) if n else None,
                "score_sd": _r(tally.sd) if n else None, "score_p10": tally.percentile(10),
                "score_p50": tally.percentile(50), "score_p90": tally.percentile(90)}


class Comparison:
    """Two rulesets played on the same seeds: per-game (paired) differences, A minus B.
    A pair where either game was cut off is left out of the differences; in duplicate
    play, the whole deal it belongs to (the deal's other games would no longer put every
    kind in every seat, and each deal counts as one)."""

    LENGTHS = ("turns", "actions", "rounds")

    def __init__(self, first: Ruleset, second: Ruleset, sim: Simulation) -> None:
        self.sides = (Summary(first, sim), Summary(second, sim, 1))
        # A's and B's figures over the pairs the differences are of (neither cut off), so
        # that each A - B is its A less its B
        self.paired = (Summary(first, sim), Summary(second, sim, 1))
        self.sim = sim
        self.teams = tuple(side.teams for side in self.sides)
        self.win_diff = [Running() for _ in sim.seats]
        self.score_diff = [Running() for _ in sim.seats]
        self.length_diff = {name: Running() for name in self.LENGTHS}
        self.house_diff = Running()  # the house's win share, where both have a house
        self.moves_diff = Running()  # one seat: moves to win, where both games were won
        self.moves = (Running(), Running())  # ... A's and B's, in those games
        self.cut_pairs = 0  # pairs left out: one game or both cut off, or in such a deal
        self.deals = 0  # deals played (each one pair, or one per rotation in duplicate play)

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
        self.deals += 1
        for a, b in pairs:
            self.sides[0].add(a)
            self.sides[1].add(b)
        if any(a.cut_off or b.cut_off for a, b in pairs):
            self.cut_pairs += len(pairs)
            return
        for a, b in pairs:
            self.paired[0].add(a)
            self.paired[1].add(b)

        def mean(values: Iterable[float]) -> float:
            return sum(values) / len(pairs)

        ta, tb = self.teams
        for seat in range(self.sim.players):
            self.win_diff[seat].add(mean(share(a, seat, ta) - share(b, seat, tb)
                                         for a, b in pairs))
            self.score_diff[seat].add(mean(a.totals[seat] - b.totals[seat] for a, b in pairs))
        for name in self.LENGTHS:
            self.length_diff[name].add(mean(getattr(a, name) - getattr(b, name)
                                            for a, b in pairs))
        if all(a.house_total is not None and b.house_total is not None for a, b in pairs):
            self.house_diff.add(mean(house_share(a, ta) - house_share(b, tb)
                                     for a, b in pairs))
        won = [(a, b) for a, b in pairs if a.winners and b.winners]
        if self.sim.players == 1 and won:
            self.moves_diff.add(sum(a.moves - b.moves for a, b in won) / len(won))
            for a, b in won:  # (A's and B's over the same games as their difference)
                self.moves[0].add(a.moves)
                self.moves[1].add(b.moves)

    def report(self, asked: int | None = None) -> dict[str, Any]:
        """Per seat and per game-length measure: A, B, A - B with its 95% CI, significant
        (`asked`: the games asked for, where whole deals of duplicate play make more)."""
        whole = [side.report() for side in self.sides]
        first, second = (side.report() for side in self.paired)
        all_cut = self.cut_pairs > 0 and not self.paired[0].games
        finished = NO_DEAL_FINISHED if self.sim.rotations > 1 else NO_PAIR_FINISHED
        why = finished if all_cut else NO_PAIR
        per_seat = []
        for seat in range(self.sim.players):
            a, b = first["per_seat"][seat], second["per_seat"][seat]
            per_seat.append({
                "seat": seat + 1, "kind": self.sim.seats[seat],
                "win_rate": _difference(a["win_rate"], b["win_rate"], self.win_diff[seat],
                                        why),
                "score_mean": _difference(a["score_mean"], b["score_mean"],
                                          self.score_diff[seat], why)})
        length = {name: _difference(first["length"][name]["mean"],
                                    second["length"][name]["mean"], self.length_diff[name],
                                    why)
                  for name in self.LENGTHS}
        note = SHARE_NOTE if not any(self.teams) else TEAM_NOTE
        out = {"a": first["ruleset"], "b": second["ruleset"],
                "a_title": first["title"], "b_title": second["title"],
                "a_options": first["options"], "b_options": second["options"],
                "players": self.sim.players, "seats": list(self.sim.seats),
                "seed": self.sim.seed, "games": self.games,
                "games_requested": self.sim.games * self.sim.rotations if asked is None
                else asked, "games_planned": self.sim.games * self.sim.rotations,
                "interrupted": self.interrupted, "duplicate": self.sim.rotations > 1,
                "deals": self.deals,
                "deals_paired": self.win_diff[0].n if self.win_diff else 0,
                "cut_off": {"a": whole[0]["cut_off"]["games"],
                            "b": whole[1]["cut_off"]["games"],
                            "pairs_left_out": self.cut_pairs, "note": CUT_OFF_NOTE},
                "paired": self.paired[0].games,
                "per_seat": per_seat, "length": length,
                "note": ("differences are A minus B, paired game by game (same seeds)"
                         if self.sim.rotations == 1 else
                         "duplicate: each deal played with the seats turned round the table "
                         f"{self.sim.rotations} times, a seat being its kind wherever it sat; "
                         "differences are A minus B, paired deal by deal (the mean of its "
                         "games)") + "; " + note}
        if self.sim.players == 1:
            out["moves_to_win"] = _difference(self.moves[0].mean if self.moves[0].n else None,
                                              self.moves[1].mean if self.moves[1].n else None,
                                              self.moves_diff,
                                              finished if all_cut else NO_PAIR_WON)
        if "house" in first and "house" in second:
            out["house"] = {"win_rate": _difference(first["house"]["win_rate"],
                                                    second["house"]["win_rate"],
                                                    self.house_diff, why)}
        return out


NO_CI = "an interval takes two or more paired games (or deals): there was one"
NO_PAIR = "no pair of games (or deals) has this figure in both"
NO_PAIR_WON = "no pair of games (or deals) has this figure in both: only a game won has it"
NO_PAIR_FINISHED = "every pair of games had a game cut off (max_actions)"
NO_DEAL_FINISHED = "every deal had a game cut off (max_actions), and is left out whole"


def _difference(a: float | None, b: float | None, diff: Running,
                why: str = NO_PAIR) -> dict[str, Any]:
    """A - B, its 95% interval and whether that interval, as reported, excludes 0 (with
    `no_ci` saying why there is no interval, where there is none: `why` where no pair has
    the figure)."""
    if not diff.n:
        return {"a": a, "b": b, "diff": None, "ci": [None, None], "significant": False,
                "no_ci": why}
    bounds = diff.ci()
    if bounds is None:
        return {"a": a, "b": b, "diff": _r(diff.mean), "ci": [None, None],
                "significant": False, "no_ci": NO_CI}
    low, high = _interval(bounds)
    assert low is not None and high is not None
    # judged on the interval as shown, so that the mark and the numbers always agree
    return {"a": a, "b": b, "diff": _r(diff.mean), "ci": [low, high],
            "significant": low > 0 or high < 0}


def _option_text(value: Any) -> str:
    """An option's value as a report writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
