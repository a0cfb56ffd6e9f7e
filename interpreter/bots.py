"""Bots: seat policies that choose among the legal actions.

A bot gets the engine, the state and the legal actions, and returns one of them.
Each bot owns its random stream, seeded from the game's seed and its seat, so a
game with bots is fully determined by its seed.
"""

from __future__ import annotations

import random
import zlib
from typing import Any, Protocol

from cardrules.dsl.errors import GameError
from cardrules.dsl.model import Action

from .domains import fill
from .engine import Engine
from .state import GameState


class Bot(Protocol):
    name: str

    def choose(self, engine: Engine, state: GameState, legal: list[Action]) -> Action: ...


class RandomBot:
    """Picks uniformly among the legal actions."""

    name = "random"

    def __init__(self, seed: Any):
        self.rng = random.Random(seed)
        self.uniform = self.rng.random  # play() draws from it directly for speed

    def choose(self, engine: Engine, state: GameState, legal: list[Action]) -> Action:
        action = legal[int(self.uniform() * len(legal))]
        if engine.open_moves and action[0] in engine.open_moves:
            action = fill(action, self.rng)
        return action


BOTS: dict[str, type] = {"random": RandomBot}


def _register_search_bots() -> None:
    """Add the search bots ('greedy', 'ismcts'); imported here to keep imports one-way."""
    from .search import register

    register(BOTS)


_register_search_bots()


def split_kind(kind: str) -> tuple[str, int | None]:
    """'ismcts:200' -> ('ismcts', 200): a seat kind and its budget, if one is given."""
    name, _, budget = kind.partition(":")
    if not budget:
        return name, None
    if not budget.isdigit() or int(budget) < 1:
        raise GameError(f"seat kind '{kind}': the budget after ':' must be a whole number "
                        "from 1")
    return name, int(budget)


def make_bot(kind: str, game_seed: int, seat: int) -> Bot:
    """A bot of the named kind for one seat, seeded from the game's seed and the seat.

    `kind` may carry a budget, 'ismcts:200' (iterations per decision) or 'greedy:8' (samples
    per action): with it a search bot is fully determined by the seed, whereas its default
    budget is time (about 0.1 s a decision), which depends on the machine.
    """
    name, budget = split_kind(kind)
    cls = BOTS.get(name)
    if cls is None:
        raise GameError(f"unknown seat kind '{name}': expected one of " + ", ".join(BOTS))
    # A number made from the game's seed, the seat and the kind (seeding with a number is
    # much faster than with text, and this runs for every game of a simulation).
    seed = zlib.crc32(f"{game_seed}/{seat}/{name}".encode()) + (game_seed << 32)
    keyword: str | None = getattr(cls, "budget", None)
    if budget is None:
        bot: Bot = cls(seed)
    elif keyword is None:
        raise GameError(f"seat kind '{name}' takes no budget")
    else:
        bot = cls(seed, **{keyword: budget})
    return bot
