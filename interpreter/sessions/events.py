"""Event logs that keep little: each event handed on as it is logged, a few of them kept.

    log = EventStream(sink=write_line, kinds={"round_end"}, keep=1)
    state = engine.new_game(players, seed, log=log)

A game's event log (`GameState.log`) is a list the engine and the runtime append to. A plain
list keeps every event, so it grows with the game; an EventStream passes each event to `sink`
(a file writer, a printer) and keeps only the latest `keep` events of the kinds named, so a
game of any length takes the same memory. The engine cannot tell the two apart.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

Event = dict[str, Any]


class EventStream(list[Event]):
    """An event log that hands each event to `sink` and keeps at most `keep` of the latest
    events whose kind (`event["event"]`) is in `kinds`. `sink` must not raise: it is called
    from the middle of a move.

    With `fresh`, it also keeps every event since `drain` was last called (at most
    FRESH_KEPT of the latest): what the actions just applied did, for those who tell people
    of it (present/news.py)."""

    def __init__(self, sink: Callable[[Event], None] | None = None,
                 kinds: Collection[str] = (), keep: int = 0, fresh: bool = False) -> None:
        super().__init__()
        self.sink = sink
        self.kinds = frozenset(kinds)
        self.keep = keep
        self.fresh: list[Event] | None = [] if fresh else None

    def append(self, event: Event) -> None:
        if self.sink is not None:
            self.sink(event)
        if self.fresh is not None:
            self.fresh.append(event)
            if len(self.fresh) > FRESH_KEPT:
                del self.fresh[:len(self.fresh) - FRESH_KEPT // 2]
        if self.keep and event.get("event") in self.kinds:
            super().append(event)
            if len(self) > self.keep:
                del self[0]

    def drain(self) -> list[Event]:
        """The events logged since the last drain (none if it keeps no fresh events)."""
        if self.fresh is None:
            return []
        out, self.fresh = self.fresh, []
        return out


FRESH_KEPT = 20_000  # fresh events kept when nobody drains them (a deal of a few decks: ~500)


def round_ends(sink: Callable[[Event], None] | None = None) -> EventStream:
    """The event log a game played by people keeps: the last round's end, for the round's
    account, and the events since they were last told what happened (and every event handed
    to `sink`, a log file's writer, as it comes)."""
    return EventStream(sink, kinds=("round_end",), keep=1, fresh=True)


def drain(log: list[Event] | None) -> list[Event]:
    """The events a game's log kept since it was last drained ([] for a log keeping none)."""
    return log.drain() if isinstance(log, EventStream) else []
