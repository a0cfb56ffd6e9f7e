"""Reaction windows for people: passed for them unless they want to answer.

The engine opens a reaction window after every action of a ruleset with `reactions:`
(interpreter/flow.py): each seat still in is offered its reactions, or to pass. A bot
answers every window, as it answers every decision. A person at a real table is not asked
whether they want to speak: they speak when they want. So a person's seat has a setting,
and a wish:

- by default (`stop` false) a window offered to a person passes for them at once, the pass
  being an action like any other (a saved game replays it);
- `stop` true: they are asked at every window, for those who want full control;
- `wanted`: they asked to react (a terminal's `react`, the browser's react control) while
  the game went on; the next window offered to them stops for them, and once they have
  answered it, windows pass again.

A save keeps both (record.py, `reacting`), so a resumed game asks where the person asked to
be asked: a resume never lets a chance go by for them that they would have been asked at.

With several people at one served game, a window that waits for one of them waits a
bounded time (`expired`): the clock is the caller's, so tests move it on.

Nothing here is a game's: it applies to every ruleset's reaction moves alike.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..state import GameState


@dataclass
class Reacting:
    """How one person's seat meets reaction windows."""

    stop: bool = False  # asked at every window
    wanted: bool = False  # asked at the next one
    waiting: tuple[int, float] | None = None  # (the game's version, when) a window began to wait


@dataclass
class Windows:
    """The people's seats and how each meets reaction windows."""

    seats: dict[int, Reacting] = field(default_factory=dict)

    @classmethod
    def of(cls, people: Iterable[int]) -> Windows:
        return cls({seat: Reacting() for seat in people})

    def settings(self, seats: int) -> list[dict[str, bool] | None] | None:
        """Each person's setting and wish, per seat, as a save keeps them (record.py); None
        where every person's are the defaults."""
        if not any(r.stop or r.wanted for r in self.seats.values()):
            return None
        return [None if (r := self.seats.get(seat)) is None else
                {"stop": r.stop, "wanted": r.wanted} for seat in range(seats)]

    def restore(self, settings: list[dict[str, bool] | None] | None) -> None:
        """Set each person's setting and wish to those a save kept (None: the defaults)."""
        for seat, setting in enumerate(settings or []):
            if setting is not None and seat in self.seats:
                self.seats[seat].stop = setting["stop"]
                self.seats[seat].wanted = setting["wanted"]

    def in_window(self, state: GameState, seat: int) -> bool:
        """Whether `seat` is offered a reaction window now (the legal actions are listed)."""
        return bool(state.window) and state.window[0] == seat and not state.over

    def passes(self, state: GameState, seat: int) -> bool:
        """Whether the window now offered to `seat`, a person's, passes for them without
        asking: they neither stop at every window nor asked to react."""
        reacting = self.seats.get(seat)
        return reacting is not None and self.in_window(state, seat) \
            and not reacting.stop and not reacting.wanted

    def want(self, seat: int, wanted: bool = True) -> None:
        """The person at `seat` wants to react at their next chance (or no longer does)."""
        if seat in self.seats:
            self.seats[seat].wanted = wanted

    def set_stop(self, seat: int, stop: bool) -> None:
        """Ask the person at `seat` at every window (`stop`), or pass windows for them."""
        if seat in self.seats:
            self.seats[seat].stop = stop

    def answered(self, state: GameState, seat: int) -> None:
        """The person at `seat` has made a decision: one in a window fulfils their wish."""
        reacting = self.seats.get(seat)
        if reacting is not None:
            reacting.waiting = None
            if state.window:
                reacting.wanted = False

    def expired(self, state: GameState, seat: int, now: float, wait: float) -> bool:
        """Whether the window that waits for `seat` now has waited `wait` seconds by the
        caller's clock (`now`): it began waiting when this was first asked at this point of
        the game (`state.version`)."""
        reacting = self.seats.get(seat)
        if reacting is None or not self.in_window(state, seat):
            return False
        if reacting.waiting is None or reacting.waiting[0] != state.version:
            reacting.waiting = (state.version, now)
        return now - reacting.waiting[1] >= wait

    def left(self, state: GameState, seat: int, now: float, wait: float) -> float | None:
        """Seconds the window waiting for `seat` has left (None: no such window)."""
        reacting = self.seats.get(seat)
        if reacting is None or reacting.waiting is None \
                or reacting.waiting[0] != state.version or not self.in_window(state, seat):
            return None
        return max(0.0, wait - (now - reacting.waiting[1]))
