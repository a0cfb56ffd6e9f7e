"""A game as the server keeps it (Served): the game, the thread lane its bots think in, and
what wakes its pages. The server keeps them; what a page may ask of one (asks.py) reads them."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from .game import Game
from .pool import Pool


@dataclass
class Served:
    """A game as the server keeps it: what wakes its pages, who thinks for its bots, and
    when it was last asked for."""

    game: Game
    lane: Pool  # where its bots think
    seen: float  # the clock's time of the last request naming it
    pinned: bool = False  # the command line's game: kept until the server stops
    ended: float | None = None  # the clock's time it was first seen over
    watchers: int = 0  # pages with an event stream open
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    runner: asyncio.Task[None] | None = None
