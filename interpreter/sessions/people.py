"""A game with people at its seats, as every front end keeps one (the terminal's table, the
server's game): its record (a replay, record.py), its bots, how each person meets chances to
react (windows.py) and what they may take back (takeback.py). `take` applies an action the way
all of them must, and `step` tells what came of it the way each front end tells news.

A person's lone choice (`lone`: the one legal action of their decision, needing nothing from
them) is played for them (`play_lone`) and told so; a save records it as any action, and
replaying the save (`replayed`) tells it so again. It is no decision of theirs: nothing to take
back, and no answer to a chance to react. Every other action of a person's, replayed, is their
decision as in play: what could be taken back before a save can be after it is resumed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TypeVar

from cardrules.errors import GameError
from cardrules.model import PASS, Action

from ..domains import is_open
from ..engine import Engine
from ..players.bots import Bot
from ..positions import cards_position
from ..state import GameState
from ..view import values_seen, with_values
from . import record as records
from .events import Event, EventStream, drain, round_ends
from .record import HUMAN, Loader, Record, action_data, make_bots
from .takeback import TakeBack, revealing
from .windows import Windows


@dataclass(frozen=True)
class Lone:
    """A person's only choice, played for them: their seat, and the choice in the words they
    would have read it in among their choices ('Discard 4H')."""

    seat: int
    words: str


class PeoplesGame:
    """What a front end's game holds (its own dataclass declares these fields), the one way
    an action is applied to it, and the one way a person's lone choice is played. Each front
    end says how it tells news (`tell`)."""

    record: Record
    engine: Engine
    state: GameState
    bots: list[Bot | None]
    windows: Windows
    takeback: TakeBack
    # per person, where the cards lay (as they saw them) when their lone choices were played
    # since they last decided: a lone choice that would be played from there again is asked
    lone_from: dict[int, set[bytes]]

    def take(self, seat: int, action: Action, chosen: bool = False) -> None:
        """Apply `seat`'s action (IllegalAction from the engine: the game is unchanged) and
        note it in the record. `chosen`: a person chose it, so it answers their chance to
        react, and they may take it back (alone against bots)."""
        state = self.state
        mark = self.takeback.mark(self.record, self.bots, state, seat) if chosen else None
        # (the game as it was, to see whether what comes of the decision hangs on cards the
        # person had not seen: taking it back is refused then; only where one may take back)
        before = state.copy() if mark is not None and len(self.windows.seats) == 1 else None
        if chosen:
            self.windows.answered(state, seat)
            self.lone_from.pop(seat, None)
        # the events the action makes (a game played by people keeps them until told)
        fresh = state.log.fresh if isinstance(state.log, EventStream) else state.log
        start, actions = len(fresh) if fresh is not None else 0, state.actions
        self.engine.apply(state, action)
        if mark is not None:
            if before is not None:  # (worked out if it is asked whether it can be taken back)
                engine, after = self.engine, state.copy()
                mark = replace(mark, pending=lambda: revealing(engine, before, seat, action,
                                                               after))
            self.takeback.keep(mark)
        # who acted: the seat, and each seat the engine played an automatic step for after
        # it (unknown, -1, where no events are kept: any)
        self.takeback.acted({seat} | ({event["seat"] - 1 for event in fresh[start:]
                                       if event.get("event") == "action"}
                                      if fresh is not None and len(fresh) >= start else
                                      {-1} if state.actions - actions > 1 else set()))
        self.record.actions.append(action_data(action))

    def step(self, seat: int, action: Action, chosen: bool = False,
             lone: bool = False) -> None:
        """`take` `seat`'s action, then `tell` what came of it. `lone`: it is the person's
        only choice, played for them, and they are told so."""
        told = Lone(seat, self.engine.words.describe(action, self.state, seat)) \
            if lone else None  # (in the words of the game before it)
        if lone:  # (where it was played from: `lone`)
            self.lone_from.setdefault(seat, set()).add(
                cards_position(self.engine.rules, self.state, seat))
        self.tell(drain(self.state.log))  # what the engine played before it, on its own
        before = values_seen(self.engine.rules, self.state)
        self.take(seat, action, chosen)
        # with what each seat sees of the variables, changed by the action
        self.tell(with_values(self.engine.rules, self.state, before, drain(self.state.log)),
                  told)

    def listed(self) -> list[Action]:
        """The legal actions now, with what the engine played alone to reach them told (the
        only action of an automatic step is played as the actions are listed): before the
        decision it leads to, after what came before it."""
        legal = self.engine.legal_actions(self.state)
        self.tell(drain(self.state.log))
        return legal

    def lone(self, seat: int, legal: Sequence[Action]) -> Action | None:
        """The action to play for the person at `seat` without asking them: the one legal
        action of their decision (`legal`), unless it needs something from them (a text to
        write), or another person sits at the table. A reaction window always offers passing
        too, so it is never one; a bot's seat never has one.

        How many choices a seat has often hangs on its hidden cards (a dou-dizhu hand that
        cannot beat the lead, one card of the suit led): a decision played at once, with no
        hand-over at a shared terminal and no wait on another person's page, would tell the
        other people what a table never shows them. Bots read only their views, which are
        the same either way.

        Nor is it played where the cards lie as they lay at one played since the person last
        decided (`positions.cards_position`, a count that grows left out): lone choices
        that go round in a circle (a patience's card shuttled between two columns) would
        play on for ever, or to the game's bound on actions, lost with no decision left to
        take back. There they are asked, and may take back the decision that led there."""
        if seat in self.windows.seats and len(self.windows.seats) == 1 and len(legal) == 1 \
                and legal[0] != PASS and not is_open(legal[0]):
            seen = self.lone_from.get(seat)
            if seen and cards_position(self.engine.rules, self.state, seat) in seen:
                return None
            return legal[0]
        return None

    def play_lone(self, seat: int, legal: Sequence[Action]) -> bool:
        """Play the lone choice of the person at `seat`, if their decision among `legal` is
        one (`step`, told so); whether it was."""
        action = self.lone(seat, legal)
        if action is not None:
            self.step(seat, action, lone=True)
        return action is not None

    def replayed(self, seat: int, action: Action) -> None:
        """`step` for an action read from a save: a person's lone choice is told as it was
        in play; any other action of a person's was their decision (`decided`)."""
        lone = self.lone(seat, self.engine.legal_actions(self.state)) == action
        if not lone:
            self.decided(seat)
        # a person's decision may be taken back after the resume as before it (its mark
        # made as in play; the bots' streams are set as saved once the replay is done)
        self.step(seat, action, chosen=not lone and self.bots[seat] is None and
                  self.record.seats[seat] == HUMAN, lone=lone)

    def decided(self, seat: int) -> None:
        """`seat` made the action about to be replayed from a save (a front end that keeps
        a person's news until their next decision drops it: they had read it)."""

    def tell(self, events: list[Event], lone: Lone | None = None) -> None:
        """Tell each person what they may know of `events` (`lone`: they began with a
        person's only choice, played for them): each front end its own way."""
        raise NotImplementedError

    def noted(self) -> Record:
        """The record as a save holds it now: with each bot's random stream and each
        person's way of meeting chances to react."""
        self.record.keep_streams(self.bots)
        self.record.reacting = self.windows.settings(self.record.players)
        return self.record


G = TypeVar("G", bound=PeoplesGame)


def resume(path: Path, programs: dict[int, str] | None, loader: Loader,
           make: Callable[[Record, Engine, GameState, list[Bot | None]], G]) -> G:
    """The game with people saved in `path`, made by `make` (from its record without its
    actions, the engine, the freshly dealt game and its bots) and replayed to where it was
    saved (`replayed`), its bots' streams and its people's reaction settings as they were;
    `programs` (seat -> 'cmd:...', from the command line) sit where programs played.
    GameError (one line, naming the file) if it is not such a save, or does not replay."""
    saved = records.read(path)
    if HUMAN not in saved.seats:
        raise GameError(f"{path}: a saved game with no seat for a person")
    try:
        kinds = saved.programs_for(programs or {})
        engine, state = records.start(saved, loader, log=round_ends())
        game = make(replace(saved, actions=[]), engine, state, make_bots(kinds, saved.seed))
        records.replay(saved, engine, state, game.replayed)
    except GameError as exc:
        raise GameError(f"{path}: {exc}") from None
    records.restore_streams(game.bots, saved.bots)
    game.takeback.streams_now(game.bots)  # (no bot has acted since those that may be)
    game.windows.restore(saved.reacting)  # (after the replay: a person's, as saved)
    return game
