"""What a simulated run is (Simulation: the rulesets played on the same seeds, the table and
its seats) and what each of its games sends back (GameRecord): the words simulate.py plays in
and statistics.py sums up."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Protocol

from cardrules.model import Ruleset


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
    cut_off: bool = False  # the ruleset's bound on actions (`max_actions`) ended it unfinished
    moves: int = 0  # the seats' own decisions: its actions less those played without asking


Records = tuple[GameRecord, ...]  # one game's records: one per ruleset of the run
