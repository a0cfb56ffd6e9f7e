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


def make_bot(kind: str, game_seed: int, seat: int) -> Bot:
    """A bot of the named kind for one seat, seeded from the game's seed and the seat."""
    cls = BOTS.get(kind)
    if cls is None:
        raise GameError(f"unknown seat kind '{kind}': expected one of " + ", ".join(BOTS))
    # A number made from the game's seed, the seat and the kind (seeding with a number is
    # much faster than with text, and this runs for every game of a simulation).
    bot: Bot = cls(zlib.crc32(f"{game_seed}/{seat}/{kind}".encode()) + (game_seed << 32))
    return bot
