"""Taking back one's last decision, when playing alone against bots.

A saved game is a replay record (record.py): the deal comes from the seed (or the deal the
game was given) and every action is applied again. So a decision is taken back by dealing the
game again and replaying every action before it, the bots' random streams set back to what
they were then: the game stands exactly where it stood when the person decided, and goes on
as it would have.

It is refused where the seat has learnt of a card since that decision (drawn, peeked at,
shown: any card it knows now and did not know then; or told something of a card it does not
know, by a clue; or narrowed down where a card may be): the deal is fixed from the start, so
taking back a look would let a person see a hidden card and choose again. It is refused too
once another seat has acted since (a bot's bet, its letting a chance to react go by, a card
the engine played for it): the bots answer the same way again, so taking a decision back would
let a person try one, see how a bot holding hidden cards answers, and choose again knowing
it. Any action counts, a bot's only choice too: whether it had a choice hangs on its cards.
It is refused too where what came of the decision itself hung on cards the seat had not seen
(a rule that looks into another's hand and says what it found): as the decision is kept, it
is played again in a few games the seat could not tell from this one, its cards it did not
know dealt afresh (`revealing`), and if the seat would see anything else in one of them, the
outcome told it something. It is refused once the game is over: its end shows the hands and
the seed that dealt them.
And it is for a game with one person only: with several, it would undo what others saw and
did.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from cardrules.errors import GameError
from cardrules.model import Action

from ..engine import Engine
from ..players.bots import Bot
from ..players.knowledge import determinize_with_map, translate
from ..positions import position
from ..sight import whereabouts
from ..state import GameState
from .record import Record, bot_stream, find_action, new_game, restore_streams

KEPT = 50  # decisions that can be taken back, one after the other


@dataclass(frozen=True)
class Mark:
    """The game as it stood when a person decided: how many actions the record held, the
    bots' streams, the cards the seat knew (a bit per card), what clues had told of each
    card and where the seat knew a card partly to be (card -> its zones' mask)."""

    seat: int
    actions: int
    streams: tuple[Any, ...]
    known: int
    told: dict[int, int] = field(default_factory=dict)
    partly: dict[int, int] = field(default_factory=dict)
    revealing: bool = False  # what came of it hung on cards the seat had not seen
    # whether it did, worked out when first asked (`revealed`): a game resumed from its save
    # replays every decision, and only the last few unanswered ones can be taken back
    pending: Callable[[], bool] | None = field(default=None, compare=False, repr=False)


@dataclass
class TakeBack:
    """The decisions a person may take back, the latest last."""

    marks: list[Mark] = field(default_factory=list)
    # the first `answered` marks are decisions another seat has acted after
    answered: int = 0

    @staticmethod
    def mark(record: Record, bots: Sequence[Bot | None], state: GameState,
             seat: int) -> Mark:
        """Where the game stands as `seat`'s person decides, `record` holding the actions
        so far (kept once the decision is made: `keep`)."""
        return Mark(seat, len(record.actions), tuple(bot_stream(bot) for bot in bots),
                    knows(state, seat), dict(state.told), whereabouts(state, seat))

    def keep(self, mark: Mark) -> None:
        self.marks.append(mark)
        dropped = max(0, len(self.marks) - KEPT)
        del self.marks[:dropped]
        self.answered = max(0, self.answered - dropped)

    def streams_now(self, bots: Sequence[Bot | None]) -> None:
        """The bots' streams are as they are now at every decision no other seat has acted
        after (a game resumed from a save: its replay played no bot, and sets their streams
        as saved only once done)."""
        now = tuple(bot_stream(bot) for bot in bots)
        self.marks[self.answered:] = [replace(mark, streams=now)
                                      for mark in self.marks[self.answered:]]

    def acted(self, seats: set[int]) -> None:
        """`seats` have each made an action (a bot's, a person's only choice played for them,
        an automatic step the engine played; -1: some seat, unknown): any other seat's
        answers every decision marked before it. However many choices that seat had: how
        many it had hangs on its hidden cards, which the person must not learn by being
        let take a decision back or not."""
        if self.marks and seats - {self.marks[-1].seat}:
            # (none of them can be taken back now: what it would take to say whether one
            # was revealing is let go; those answered before were let go then)
            for i in range(self.answered, len(self.marks)):
                if self.marks[i].pending is not None:
                    self.marks[i] = replace(self.marks[i], pending=None)
            self.answered = len(self.marks)

    def revealed(self) -> bool:
        """Whether what came of the last decision hung on cards its seat had not seen
        (worked out once, when first asked)."""
        mark = self.marks[-1]
        if mark.pending is not None:
            mark = self.marks[-1] = replace(mark, revealing=mark.pending(), pending=None)
        return mark.revealing

    def refusal(self, state: GameState, seat: int, people: int) -> str | None:
        """Why `seat` may not take back its last decision now, or None if it may."""
        if people != 1:
            return "taking a decision back is for a game with one person against bots: " \
                   "here the others have seen it"
        if state.over:  # (its end tells what it tells: the hands shown, the seed)
            return "the game is over: its end has told what it tells (the cards shown, " \
                   "the seed that dealt them), so it is not played again"
        if not self.marks or self.marks[-1].seat != seat:
            return "there is no decision of yours to take back"
        mark = self.marks[-1]
        if knows(state, seat) & ~mark.known:
            return "you have seen a card since that decision (drawn, looked at or shown): " \
                   "taking it back would let you choose again knowing it"
        if told_since(state, seat, mark) or whereabouts(state, seat).items() - \
                mark.partly.items():
            return "you have learnt something of a card since that decision (a clue, or " \
                   "where it may be): taking it back would let you choose again knowing it"
        if len(self.marks) <= self.answered:
            return "another seat has acted since that decision: taking it back would let " \
                   "you choose again knowing how it answered"
        if self.revealed():
            return "what came of that decision hung on cards you had not seen: taking it " \
                   "back would let you choose again knowing what it showed"
        return None

    def replayed(self, record: Record, engine: Engine,
                 log: list[dict[str, Any]] | bool) -> GameState:
        """The game as it stood before the last decision: dealt again as it was dealt (with
        `log` as its event log) and replayed to just before it. Nothing else changes (the
        work of a take-back, which a server does in a thread of its own, then `take`).
        GameError if the game cannot be replayed to it."""
        mark = self.marks[-1]
        try:
            state = new_game(record, engine, log)
            for number, data in enumerate(record.actions[:mark.actions], 1):
                try:
                    engine.apply(state, find_action(engine, state, data))
                except GameError as exc:
                    raise GameError(f"action {number} cannot be replayed: {exc}") from None
        except GameError as exc:
            raise GameError(f"the game cannot be dealt again to that decision ({exc}): it "
                            "goes on as it is") from None
        return state

    def take(self, record: Record, engine: Engine, bots: Sequence[Bot | None],
             log: list[dict[str, Any]] | bool,
             replayed: GameState | None = None) -> tuple[GameState, list[Any]]:
        """Take back the last decision: the game as `replayed` gives it (worked out here
        unless given), the bots' streams as they were then; `record` keeps the actions
        before it. Returns the new game and the action taken back (as the record held it).
        GameError if the game cannot be replayed to it: then nothing has changed, the
        decision still among those that may be taken back."""
        mark = self.marks[-1]
        undone = record.actions[mark.actions]
        state = self.replayed(record, engine, log) if replayed is None else replayed
        self.marks.pop()
        self.answered = min(self.answered, len(self.marks))
        del record.actions[mark.actions:]
        restore_streams(bots, list(mark.streams))
        return state, undone


SAMPLES = 8  # games the seat could not tell apart, in which a decision is played again


def revealing(engine: Engine, before: GameState, seat: int, action: Action,
              after: GameState) -> bool:
    """Whether what came of `seat`'s `action`, played in `before` to reach `after`, hung on
    cards the seat did not know: it leads to another seat's `automatic` step (where a lone
    choice would have been played at once: that it waits tells what that seat holds), or,
    played in SAMPLES games the seat could not tell from
    `before` (knowledge.determinize, seeded from the game), the seat would see something
    else after it in one (positions.position), or the action would be refused there (a
    card it names that the seat did not know is the card lying in its place there)."""
    rules = engine.rules
    if not after.over and not after.between_rounds and not after.window \
            and after.current != seat \
            and rules.phases[after.phase].steps[after.step].automatic:
        # Another seat's step that plays its only choice at once waits for it: that it was
        # not played at once told whether the seat had one, whatever the samples met.
        return True
    seen = position(rules, after, seat)
    rng = random.Random(zlib.crc32(f"takeback/{seat}/{before.actions}".encode()))
    for _ in range(SAMPLES):
        # (the action names a card it did not know by its place: the card lying there now)
        world, mapping = determinize_with_map(engine, before, seat, rng)
        world.log = None
        try:
            engine.apply(world, translate(engine, action, mapping))
        except GameError:
            return True
        if position(rules, world, seat) != seen:
            return True
    return False


def knows(state: GameState, seat: int) -> int:
    """The cards `seat` knows exactly now, a bit per card."""
    known = state.known
    return sum(1 << c for c in range(state.n_cards) if known[c] >> seat & 1)



def told_since(state: GameState, seat: int, mark: Mark) -> bool:
    """Whether clues have told something new of a card the seat does not know, since
    `mark` (a clue of the seat's own of cards it sees tells it nothing)."""
    known = state.known
    return any(mark.told.get(c) != mask for c, mask in state.told.items()
               if not known[c] >> seat & 1)
