"""A game with people at its seats, as every front end keeps one (the terminal's table, the
server's game): its record (a replay, record.py), its bots, how each person meets chances to
react (windows.py) and what they may take back (takeback.py). `take` applies an action the way
all of them must."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

from cardrules.errors import GameError
from cardrules.model import Action

from ..engine import Engine
from ..players.bots import Bot
from ..state import GameState
from . import record as records
from .events import round_ends
from .record import HUMAN, Loader, Record, action_data, make_bots
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
        else:
            self.takeback.chose(seat, self.engine.legal_actions(state))
        self.engine.apply(state, action)
        if mark is not None:
            self.takeback.keep(mark)
        self.record.actions.append(action_data(action))

    def noted(self) -> Record:
        """The record as a save holds it now: with each bot's random stream and each
        person's way of meeting chances to react."""
        self.record.keep_streams(self.bots)
        self.record.reacting = self.windows.settings(self.record.players)
        return self.record


G = TypeVar("G", bound=PeoplesGame)


def resume(path: Path, programs: dict[int, str] | None, loader: Loader,
           make: Callable[[Record, Engine, GameState, list[Bot | None]], G],
           advance: Callable[[G], Callable[[int, Action], None]]) -> G:
    """The game with people saved in `path`, made by `make` (from its record without its
    actions, the engine, the freshly dealt game and its bots) and replayed to where it was
    saved by `advance(game)`, its bots' streams and its people's reaction settings as they
    were; `programs` (seat -> 'cmd:...',
    from the command line) sit where programs played. GameError (one line, naming the file)
    if it is not such a save, or does not replay."""
    saved = records.read(path)
    if HUMAN not in saved.seats:
        raise GameError(f"{path}: a saved game with no seat for a person")
    try:
        kinds = saved.programs_for(programs or {})
        engine, state = records.start(saved, loader, log=round_ends())
        game = make(replace(saved, actions=[]), engine, state, make_bots(kinds, saved.seed))
        records.replay(saved, engine, state, advance(game))
    except GameError as exc:
        raise GameError(f"{path}: {exc}") from None
    records.restore_streams(game.bots, saved.bots)
    game.windows.restore(saved.reacting)  # (after the replay: a person's, as saved)
    return game
