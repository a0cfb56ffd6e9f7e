"""Bots: seat policies that choose among the legal actions.

A bot gets the engine, the state and the legal actions, and returns one of them.
Each bot owns its random stream, seeded from the game's seed and its seat, so a
game with bots is fully determined by its seed.
"""

from __future__ import annotations

import random
import re
import zlib
from typing import Any, Protocol

from cardrules.errors import GameError
from cardrules.model import Action

from ..domains import fill
from ..engine import Engine
from ..state import GameState
from .external import is_command, make_external
from .external import parse as parse_command


class Bot(Protocol):
    name: str

    def choose(self, engine: Engine, state: GameState, legal: list[Action]) -> Action: ...


class RandomBot:
    """Picks uniformly among the legal actions."""

    name = "random"
    blind = True  # decides without reading what its seat knows: it can sit at a kernel's game

    def __init__(self, seed: Any):
        self.rng = random.Random(seed)
        self.uniform = self.rng.random  # play() draws from it directly for speed

    def choose(self, engine: Engine, state: GameState, legal: list[Action]) -> Action:
        action = legal[int(self.uniform() * len(legal))]
        if engine.open_moves and action[0] in engine.open_moves:
            action = fill(action, self.rng)
        return action


BOTS: dict[str, type] = {"random": RandomBot}
# The bot a person plays against unless they say otherwise (`cardrules play`, the lobby).
OPPONENT = "greedy"


def _register_search_bots() -> None:
    """Add the search bots ('greedy', 'ismcts'); imported here to keep imports one-way."""
    from .search import register

    register(BOTS)


_register_search_bots()


# The largest budget a seat kind may ask for, by what it sets: enough for any use, and a
# bound on the time one decision may take.
MAX_BUDGET: dict[str, int] = {"iterations": 100_000, "samples": 1_000, "seconds": 3_600}
_SECONDS = re.compile(r"(?:[0-9]{1,7}(?:\.[0-9]{0,6})?|\.[0-9]{1,6})s", re.ASCII)


# The largest budget a seat kind may give a bot where it comes from a file or a request rather
# than the person at the command line (a web page's request, a saved game), in work per
# decision, never seconds (a game stays the same game for the same seed). At these, one
# decision on grandma, the slowest shipped ruleset for the search bots, takes under a second
# (README, serve); an ismcts iteration costs about 15 times more there than on golf6.
ASKED_BUDGETS = {"greedy": 32, "ismcts": 10}


def asked_kind_problem(kind: str) -> str | None:
    """Why a bot's seat kind (checked by check_kind) is more than a file or a request may
    seat by itself (ASKED_BUDGETS: budgets in work, and no larger), said as what such a
    source 'takes' or 'allows', or None."""
    name, budget = split_kind(kind)
    most = ASKED_BUDGETS.get(name)
    unit = getattr(BOTS[name], "budget", None)
    if isinstance(budget, float):
        return f"takes budgets in work, not time: {name}:N, N {unit} a decision, up to {most}"
    if budget is not None and most is not None and budget > most:
        return f"allows at most {most} {unit} a decision"
    return None


def split_kind(kind: str) -> tuple[str, int | float | None]:
    """'ismcts:200' -> ('ismcts', 200), 'ismcts:0.5s' -> ('ismcts', 0.5): a seat kind and
    its budget, if one is given (a whole number, or seconds with an 's')."""
    name, colon, budget = kind.partition(":")
    if not colon:
        return name, None
    if budget.isascii() and budget.isdigit() and len(budget) <= 12 and int(budget) >= 1:
        return name, int(budget)
    if _SECONDS.fullmatch(budget) and float(budget[:-1]) > 0:
        return name, float(budget[:-1])
    raise GameError(f"seat kind '{kind}': the budget after ':' must be a whole number from 1 "
                    "(ismcts:200) or seconds (ismcts:0.5s)")


def check_kind(kind: str, programs: bool = False) -> None:
    """Refuse (GameError, saying why) a seat kind that names no seat: an unknown kind, a
    budget a kind does not take or over its bound, a program (`cmd:`) written wrongly, or
    any program at all unless `programs` (only the person at the command line may seat a
    program). Nothing is made or started."""
    if is_command(kind):
        if not programs:
            raise GameError(f"seat kind '{kind[:40]}': a program (cmd:) can be seated only "
                            "from the command line, by the person starting the game")
        parse_command(kind)
        return
    _bot_class(kind)


def _bot_class(kind: str) -> tuple[type, str | None, int | float | None]:
    """The class of a built-in seat kind, the keyword its budget sets and the budget;
    GameError if the kind or its budget is refused."""
    name, budget = split_kind(kind)
    cls = BOTS.get(name)
    if cls is None:
        raise GameError(f"unknown seat kind '{name}': expected one of "
                        + ", ".join([*BOTS, "cmd:COMMAND"]))
    keyword: str | None = getattr(cls, "budget", None)
    if isinstance(budget, float):
        keyword = "seconds" if getattr(cls, "timed", False) else None
        if keyword is None:
            raise GameError(f"seat kind '{name}' takes no time budget")
    if budget is not None:
        if keyword is None:
            raise GameError(f"seat kind '{name}' takes no budget")
        most = MAX_BUDGET.get(keyword)
        if most is not None and budget > most:
            raise GameError(f"seat kind '{kind}': at most {most:,} {keyword}")
    return cls, keyword, budget


def plays_blind(kind: str) -> bool:
    """Whether a seat of this kind decides without reading what its seat knows (a random
    seat): a game of such seats alone can be played on the ruleset's kernel."""
    if is_command(kind):
        return False
    return bool(getattr(_bot_class(kind)[0], "blind", False))


def make_bot(kind: str, game_seed: int, seat: int) -> Bot:
    """A bot of the named kind for one seat, seeded from the game's seed and the seat.

    `kind` may carry a budget: 'ismcts:200' (iterations per decision) or 'greedy:8' (samples
    per action); 'ismcts:0.5s' gives a search bot wall time instead. Every budget but time,
    and every default, is a pure function of the seed, so the game is too. 'cmd:COMMAND' is
    a program speaking JSON lines (interpreter/players/external.py), started at its first decision:
    callers seat one only when the person at the command line named it (check_kind).
    """
    # A number made from the game's seed, the seat and the kind (seeding with a number is
    # much faster than with text, and this runs for every game of a simulation).
    if is_command(kind):  # an external program (interpreter/players/external.py)
        return make_external(kind, zlib.crc32(f"{game_seed}/{seat}/cmd".encode())
                             + (game_seed << 32), seat)
    cls, keyword, budget = _bot_class(kind)
    seed = zlib.crc32(f"{game_seed}/{seat}/{kind.partition(':')[0]}".encode()) \
        + (game_seed << 32)
    if budget is None or keyword is None:
        return cls(seed)  # type: ignore[no-any-return]
    return cls(seed, **{keyword: budget})  # type: ignore[no-any-return]
