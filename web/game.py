"""One game served to browsers: its seats and their tokens, the news, and moves.

A seat is known by its token alone (secrets.token_urlsafe, compared with
secrets.compare_digest). What a seat is sent is built in web/payload.py from player_view
and that seat's own legal actions; a move is a place in the list of choices the seat is
offered (`Game.offered`, in an order made of what the seat can see), so no card's number,
nor the order the engine lists them in, ever leaves the server. Every action is applied by
the engine, noted in the game's record (interpreter/sessions/record.py) and saved, so the
game can be resumed at any point.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardrules.dsl.loader import load_referenced, load_ruleset
from cardrules.errors import GameError, IllegalAction
from cardrules.interpreter.domains import Words
from cardrules.interpreter.engine import PASS, Engine
from cardrules.interpreter.players.bots import Bot
from cardrules.interpreter.players.external import forfeit
from cardrules.interpreter.sessions import people, record
from cardrules.interpreter.sessions.events import drain, round_ends
from cardrules.interpreter.sessions.people import Lone, PeoplesGame
from cardrules.interpreter.sessions.record import HUMAN, Record, make_bots
from cardrules.interpreter.sessions.takeback import TakeBack
from cardrules.interpreter.sessions.windows import Windows
from cardrules.interpreter.state import GameState
from cardrules.model import Action
from cardrules.present.account import Account, ends_game, round_account
from cardrules.present.choices import offered_order
from cardrules.present.lines import fitted
from cardrules.present.news import News, news

NEWS_KEPT = 5000  # entries of news kept (each an action's, for every seat); a page shows
# the latest of them, and all of them when it asks for the log
ACCOUNTS_KEPT = 3  # rounds' accounts kept; a page shows the last
MAX_TEXT = 1000  # the longest text a person may type into a move


SEED_GIVEN = ("this game was dealt from a seed given when it was started: whoever knows that "
              "seed can know every card")


class Refused(Exception):
    """A request that changes nothing: an HTTP status and one line saying why."""

    def __init__(self, status: int, reason: str):
        super().__init__(reason)
        self.status = status
        self.reason = reason


@dataclass
class Game(PeoplesGame):
    """A game in play in the browser: engine, state, record, bots and seat tokens."""

    id: str
    record: Record
    engine: Engine
    state: GameState
    bots: list[Bot | None]
    tokens: list[str | None]  # per seat: a person's token, None for a bot
    save: Path | None = None
    # what happened: a line every seat reads alike, or for each seat what it read of some
    # actions (each in its words, with what came of it: present/news.py)
    news: list[str | tuple[tuple[News, ...], ...]] = field(default_factory=list)
    version: int = 0  # counts the actions applied here: a page's choices belong to one
    # per seat: changes of its own controls (how it meets reactions), which only its own
    # page shows again; they leave `version`, and so the others' choices, as they were
    redrawn: dict[int, int] = field(default_factory=dict)
    save_problem: str | None = None
    unreported: bool = False
    forfeited: list[int] = field(default_factory=list)  # seats whose program forfeited
    # the last rounds' accounts, each as every seat reads it
    accounts: list[tuple[Account, ...]] = field(default_factory=list)
    windows: Windows = field(default_factory=Windows)  # how each person meets reactions
    takeback: TakeBack = field(default_factory=TakeBack)
    lone_from: dict[int, set[bytes]] = field(default_factory=dict)  # (people.py)

    def __post_init__(self) -> None:
        if not self.windows.seats:
            self.windows = Windows.of(p for p, token in enumerate(self.tokens)
                                      if token is not None)

    def seed_given(self) -> None:
        """The deal comes from a seed someone gave: every seat is told, as whoever knows a
        seed can deal the game again and know every card."""
        self.news.append(SEED_GIVEN)

    # ---------------------------------------------------------------- starting
    @classmethod
    def new(cls, ref: str, options: dict[str, str], players: int | None, seed: int,
            seats: list[str] | None, save: Path | None = None) -> Game:
        """A new game of `ref`; `seats` names each seat's kind (default: every seat a
        person's). RulesetError or GameError if it cannot be played as asked."""
        engine = Engine(load_ruleset(ref, options))
        state = engine.new_game(players, seed, log=round_ends())
        kinds = list(seats) if seats else [HUMAN] * state.n
        if len(kinds) != state.n:
            raise GameError(f"{len(kinds)} seats named for {state.n} players")
        if HUMAN not in kinds:
            raise GameError("a game in the browser needs at least one seat for a person")
        rec = Record.new(ref, options, engine.rules, state.n, seed, kinds)
        return cls(secrets.token_hex(8), rec, engine, state, make_bots(kinds, seed),
                   new_tokens(kinds), save).started()

    def dealt(self) -> Game:
        """The game as dealt: what its first round's setup did is news before the first
        decision, as a later round's is."""
        self.tell(drain(self.state.log))
        return self

    def started(self) -> Game:
        """A new game, dealt, up to the first decision a person has to make."""
        self.dealt().settle()
        return self

    @classmethod
    def resume(cls, path: Path, save: Path | None = None,
               programs: dict[int, str] | None = None) -> Game:
        """The game saved in `path`, replayed to where it was (new seat tokens), with
        `programs` (seat -> 'cmd:...', from the command line) in the seats programs played;
        GameError (one line) if the save is refused."""
        game = people.resume(  # (not saved as it is replayed)
            path, programs, load_referenced,
            lambda saved, engine, state, bots: cls(secrets.token_hex(8), saved, engine, state,
                                                   bots, new_tokens(saved.seats)).dealt())
        game.save = save or path
        game.settle()  # (a save made elsewhere may stand at a person's only choice)
        return game

    # ------------------------------------------------------------------ seats
    def seat_of(self, token: str) -> int | None:
        """The seat whose token this is, or None; every token is compared in full."""
        found = None
        for seat, mine in enumerate(self.tokens):
            if mine is not None and secrets.compare_digest(mine.encode(), token.encode()):
                found = seat
        return found

    @property
    def seats(self) -> list[str]:
        return self.record.seats

    def legal(self) -> list[Action]:
        """The legal actions now (asked first: it settles who is to move)."""
        return self.engine.legal_actions(self.state)

    def to_move(self) -> int | None:
        self.legal()
        return self.engine.to_move(self.state)

    def bot_to_move(self) -> Bot | None:
        seat = self.to_move()
        return None if seat is None else self.bots[seat]

    # ------------------------------------------------------------------ moves
    def choose(self, seat: int, version: Any, index: Any, texts: Any) -> Action:
        """The action a person's request picks: choice `index` of the list the page was
        sent at `version`, with `texts` ({position: text}) for what must be written.
        Refused (nothing changes) if it is not theirs to make."""
        mover = self.to_move()
        if mover is None:
            raise Refused(409, "the game is over")
        if mover != seat:
            raise Refused(409, f"it is seat {mover + 1}'s move, not yours")
        if type(version) is not int:
            raise Refused(400, "a choice's version is a whole number: the one the page was "
                          "sent with its choices")
        if version != self.version:
            raise Refused(409, "the game has moved on since that choice was shown: choose "
                          "again")
        order = self.offered(seat)
        if type(index) is not int or not 0 <= index < len(order):
            raise Refused(400, "there is no such choice")
        return fill_texts(self.legal()[order[index]], texts)

    def offered(self, seat: int) -> list[int]:
        """The choices `seat`'s page lists now, as indices into `legal()`, in the page's
        order (present/choices.py `offered_order`: the order of what the seat can see, each
        choice once); none unless the decision is the seat's. A page's choice is a place
        in this list."""
        if self.to_move() != seat:
            return []
        return offered_order(self.engine, self.state, seat, self.legal())

    @property
    def people(self) -> list[int]:
        return [p for p, token in enumerate(self.tokens) if token is not None]

    def play(self, seat: int, action: Action, chosen: bool = False) -> None:
        """Apply `seat`'s action (IllegalAction: nothing changes), note it in the record
        and in each seat's news, and save the game. `chosen`: a person chose it (and may
        take it back, alone against bots)."""
        self.step(seat, action, chosen)
        self.settle()
        self.write()

    def take(self, seat: int, action: Action, chosen: bool = False) -> None:
        """PeoplesGame.take, counted: the pages' choices belong to the game before it. Every
        action applied counts, those the engine plays alone after it too: a card played for
        a seat that held only one it could play reads as that seat's choice would."""
        before = self.state.actions
        super().take(seat, action, chosen)
        self.version += max(1, self.state.actions - before)

    def settle(self) -> None:
        """Play each decision of a person's that has nothing to decide for them (`play_lone`),
        until one does (or the game ends)."""
        while (seat := self.to_move()) is not None and self.play_lone(seat, self.legal()):
            pass

    def tell(self, events: list[dict[str, Any]], lone: Lone | None = None) -> None:
        """Note what `events` tell each seat (and each round's account); `lone`: they began
        with a person's only choice, played for them."""
        rules = self.engine.rules
        told = tuple(tuple(news(rules, events, p, lone=lone)) for p in range(self.state.n))
        if any(told):
            self.news.append(told)
            del self.news[:-NEWS_KEPT]
        for index, event in enumerate(events):
            if event.get("event") == "round_end":
                last = ends_game(events, index)
                self.accounts.append(tuple(round_account(rules, event, last, p)
                                           for p in range(self.state.n)))
                del self.accounts[:-ACCOUNTS_KEPT]

    def taken_back(self, seat: int) -> GameState:
        """The game as it stood before `seat`'s last decision, replayed; nothing changes
        (the long part of `take_back`, which a server does in the game's threads). Refused,
        saying why, where it may not or cannot be taken back."""
        problem = self.takeback.refusal(self.state, seat, len(self.people))
        if problem is not None:
            raise Refused(409, problem)
        try:
            return self.takeback.replayed(self.record, self.engine, round_ends())
        except GameError as exc:  # nothing changed: the game goes on as it was
            raise Refused(409, str(exc)) from None

    def take_back(self, seat: int, replayed: GameState | None = None) -> None:
        """Take back `seat`'s last decision, to the game `taken_back` gives (worked out here
        unless given; Refused, saying why, where it may not or cannot be: then nothing has
        changed)."""
        if replayed is None:
            replayed = self.taken_back(seat)
        state, undone = self.takeback.take(self.record, self.engine, self.bots,
                                           round_ends(), replayed)
        drain(state.log)
        self.state = state
        words = self.engine.words.describe(record.find_action(self.engine, state, undone),
                                           state, seat)
        self.news.append(tuple((News(f"you take back: {words}", kind="game"),) if p == seat
                               else () for p in range(state.n)))
        self.version += 1
        self.write()

    def went_by(self, seat: int, wait: float) -> None:
        """The reaction window waiting for `seat` has waited `wait` seconds: it passes, and
        the seat is told why."""
        self.play(seat, PASS)
        self.news.append(tuple((News(f"your chance to react went by: with several people at "
                                     f"the table it waits {wait:g} seconds", kind="game"),)
                               if p == seat else () for p in range(self.state.n)))

    def forfeit(self, seat: int, reason: str) -> None:
        """End the game because `seat`'s program forfeits it (`reason`: why, as its pages
        are told). Not an action: the save stays as it was, at the last action."""
        forfeit(self.engine, self.state, seat)
        self.forfeited.append(seat)
        self.news.append(f"seat {seat + 1} forfeits the game: {reason}")
        self.version += 1  # the pages' choices are gone

    def write(self) -> None:
        """Save the game. A failure is kept in `save_problem` (and `unreported`, until the
        server has said so once); play goes on."""
        if self.save is None:
            return
        try:
            record.write(self.save, self.noted())
            self.save_problem = None
        except GameError as exc:
            self.unreported = self.save_problem is None
            self.save_problem = str(exc)


def new_tokens(seats: list[str]) -> list[str | None]:
    """An unguessable token for each person's seat."""
    return [secrets.token_urlsafe(24) if kind == HUMAN else None for kind in seats]


def fill_texts(action: Action, texts: Any) -> Action:
    """`action` with each open parameter set from `texts` ({"1": "UDU"}), checked as the
    terminal checks it; Refused with the domain's own words if a text does not fit."""
    if not any(isinstance(part, Words) for part in action):
        return action
    if not isinstance(texts, Mapping):
        texts = {}
    parts = list(action)
    for index, part in enumerate(action):
        if isinstance(part, Words):
            typed = texts.get(str(index))
            typed = typed[:MAX_TEXT + 1] if isinstance(typed, str) else ""
            value = fitted(part, typed.strip())
            problem = part.problem(value)
            if problem is not None:
                raise Refused(400, problem)
            parts[index] = value
    return tuple(parts)


def apply_move(game: Game, seat: int, action: Action) -> None:
    """Play a person's chosen action; Refused if the engine refuses it."""
    try:
        game.play(seat, action, chosen=True)
    except IllegalAction as exc:
        raise Refused(409, str(exc)) from None
    except GameError as exc:  # a rule failed: the ruleset's fault, not the player's
        raise Refused(500, f"the game cannot go on: {exc}") from None
