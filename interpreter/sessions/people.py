"""A game with people at its seats, as every front end keeps one (the terminal's table, the
server's game): its record (a replay, record.py), its bots, how each person meets chances to
react (windows.py) and what they may take back (takeback.py). `take` applies an action the way
all of them must."""

from __future__ import annotations

from cardrules.model import Action

from ..engine import Engine
from ..players.bots import Bot
from ..state import GameState
from .record import Record, action_data
from .takeback import TakeBack
from .windows import Windows


class PeoplesGame:
    """What a front end's game holds (its own dataclass declares these fields), and the one
    way an action is applied to it."""

    record: Record
    engine: Engine
    state: GameState
    bots: list[Bot | None]
    windows: Windows
    takeback: TakeBack

    def take(self, seat: int, action: Action, chosen: bool = False) -> None:
        """Apply `seat`'s action (IllegalAction from the engine: the game is unchanged) and
        note it in the record. `chosen`: a person chose it, so it answers their chance to
        react, and they may take it back (alone against bots)."""
        state = self.state
        mark = self.takeback.mark(self.record, self.bots, state, seat) if chosen else None
        if chosen:
            self.windows.answered(state, seat)
        self.engine.apply(state, action)
        if mark is not None:
            self.takeback.keep(mark)
        self.record.actions.append(action_data(action))
