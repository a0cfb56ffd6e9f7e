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
    streams: dict[int, int] = field(default_factory=dict)  # seat -> its open event streams
    hinting: set[int] = field(default_factory=set)  # seats with a hint being worked out
    changed: asyncio.Event = field(default_factory=asyncio.Event)  # wakes the bots' runner
    pages: dict[int, asyncio.Event] = field(default_factory=dict)  # seat -> wakes its pages
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    runner: asyncio.Task[None] | None = None

    @property
    def watchers(self) -> int:
        """Pages with an event stream open."""
        return sum(self.streams.values())

    def page_event(self, seat: int) -> asyncio.Event:
        """What wakes `seat`'s pages: the game changing, or the seat's own controls."""
        event = self.pages.get(seat)
        if event is None:
            event = self.pages[seat] = asyncio.Event()
        return event
