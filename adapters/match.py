"""One game played in parts: the core both framework adapters share.

A Match holds a cardrules GameState and the parts chosen so far of the action being chosen
(see table.py). At each part the ids offered are exactly those that begin at least one
whole legal action together with the parts already chosen; when the parts spell a whole
action, the engine applies it. Before the game starts, the seed of the deal is drawn as
SEED_PARTS chance outcomes of SEED_BASE values each: the deal and every later shuffle or
draw come from the state's own generator, seeded with it.

Each seat also keeps its recall of the game: every action as it saw it, the engine's own
plays of an automatic step included (recall.py tells how a record is made and read). A
sample made for a seat keeps the actions only as that seat knew them (recall.as_seen), so
pickling the sample hands on nothing more.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from operator import is_
from typing import Any

from cardrules.errors import IllegalAction, NoLegalMove
from cardrules.interpreter.players.knowledge import determinize
from cardrules.interpreter.state import GameState
from cardrules.interpreter.view import player_view

from . import recall
from . import table as tables
from .decision import Decision
from .recall import Record
from .table import AdapterError, Table

SEED_BASE = 256
SEED_PARTS = 4  # a 32-bit seed
RESAMPLE_ATTEMPTS = 2000
Action = tuple[Any, ...]


class Match:
    """One game at a Table: the seed being drawn, then the game, chosen whole or in parts.

    The game steps on the table's kernel (the same game, without knowledge or log). What a
    seat may see needs the engine's game, with who knows each card: `state` is that game,
    brought up to date when asked by applying the actions made since (and telling each, as
    the recall will, on the way). A match nobody observes never plays the engine's game."""

    def __init__(self, table: Table, recording: bool = True):
        """`recording`: tell each action for the recall as it is caught up with (else the
        recall is worked out, replaying the game from its deal, when first asked for)."""
        self.table = table
        self.seed_parts: list[int] = []
        self.dealt: int | None = None  # the seed of the deal, once dealt
        self._live: GameState | None = None  # the kernel's game, stepped on
        self._seen: GameState | None = None  # the engine's game, `_behind` actions behind
        self._behind: list[tuple[int, Action]] = []  # (seat, action) not applied to _seen
        self._legal: list[Action] | None = None  # the kernel's legal actions in _live
        self._own_live = self._own_seen = False  # copy on write: held by no other copy
        self.prefix: list[int] = []
        self._records: list[Record] | None = [] if recording else None
        self._history: list[tuple[int, Action]] = []  # (seat, action) since the deal
        self.tensors: dict[Any, Any] = {}  # seat -> its observation tensor (observe.py)
        self.actions = 0  # whole actions applied
        self._made: dict[tuple[int, str], int] = {}  # (seat, move) -> actions of that move
        self.cut = False  # stopped at the bound on actions, with no winner
        # In a sample made for one seat, whose recall of the game stands for every seat's
        # (the sampler knows only what that seat saw).
        self.recall_of: int | None = None
        self._decision: Decision | None = None
        # With whole actions, the decision now by ids (made while a seat chooses, never
        # changed, so copies share them): the ids offered, ascending (None: not made yet),
        # each legal action's id in the kernel's order, and the seat choosing.
        self._ids: list[int] | None = None
        self._aligned: list[int] = []
        self._chooser = 0
        self._next: tuple[list[int], Action | None] | None = None
        self._recall: dict[int, tuple[int, str]] = {}  # seat -> (records told, the text)
        self._views: dict[int, dict[str, Any]] = {}  # seat -> its player view, until a change
        self._memo: dict[Any, Any] = {}  # what is computed from the state, until a change

    # ------------------------------------------------------------------- chance
    def is_chance(self) -> bool:
        return self.dealt is None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The seed's next part, each equally likely; none once the game is dealt."""
        if self.dealt is not None:
            return []
        return [(b, 1.0 / SEED_BASE) for b in range(SEED_BASE)]

    def apply_chance(self, outcome: int) -> None:
        if self.dealt is not None or not 0 <= outcome < SEED_BASE:
            raise IllegalAction(f"not a chance outcome now: {outcome}")
        self.seed_parts.append(outcome)
        if len(self.seed_parts) == SEED_PARTS:
            self.start(sum(b * SEED_BASE ** i for i, b in enumerate(self.seed_parts)))

    def start(self, seed: int) -> None:
        """Deal the game from `seed` (the chance outcomes' seed, or one given directly)."""
        self.dealt = seed
        self._live = live = self.table.kernel.new_game(self.table.players, seed)
        self._own_live = True
        self._seen, self._behind = None, []  # the engine deals it too when first asked
        self._forget()
        # The first decision at once: steps that play a lone action by themselves may end
        # the game before anyone decides (its rounds over, or its bound on actions reached).
        self._legal = self.table.kernel.legal_actions(live)
        if live.over:
            self.cut = live.cut_off

    # -------------------------------------------------------------- the games
    @property
    def state(self) -> GameState | None:
        """The engine's game now, with who knows each card (None before the deal)."""
        if self._behind or (self._seen is None and self.dealt is not None):
            self._catch_up()
        return self._seen

    @state.setter
    def state(self, state: GameState | None) -> None:
        """Play on from `state`, a game of the table's engine (not changed: copied first)."""
        self._seen, self._own_seen = state, False
        self._live, self._legal, self._behind, self._history = None, None, [], []
        self.dealt = None if state is None else state.seed or 0
        if self._records is None:  # what came before is not known: the recall starts here
            self._records = []
        self._forget()

    @property
    def made(self) -> dict[tuple[int, str], int]:
        """How many actions of each move each seat has made: (seat, move) -> count."""
        if self._behind:
            self._catch_up()
        return self._made

    @property
    def records(self) -> list[Record]:
        """Every action so far as the recall tells it (see record_of)."""
        if self._records is None:  # not kept so far: replay the game from its deal
            assert self.dealt is not None
            engine, s = self.table.engine, self.table.engine.new_game(self.table.players,
                                                                       self.dealt)
            self._records = []
            with self.table.recording(s, self._noting(self._records, None)):
                for _, action in self._history[:len(self._history) - len(self._behind)]:
                    engine.apply(s, action)
        if self._behind:
            self._catch_up()
        return self._records

    def _catch_up(self) -> None:
        engine = self.table.engine
        s = self._seen
        if s is None:
            assert self.dealt is not None
            s = self._seen = engine.new_game(self.table.players, self.dealt)
            self._own_seen = True
        elif not self._own_seen and self._behind:
            s = self._seen = s.copy()
            self._own_seen = True
        behind, self._behind = self._behind, []
        with self.table.recording(s, self._noting(self._records, self._made)):
            for _, action in behind:
                engine.apply(s, _listed(s, action))

    def _noting(self, records: list[Record] | None, made: dict[tuple[int, str], int] | None
                ) -> Callable[[int, Action, GameState], None]:
        """What notes each action applied to the engine's game, the engine's own plays of an
        automatic step included: its record for the recall, and the count of moves made."""
        def note(seat: int, action: Action, s: GameState) -> None:
            if records is not None:
                records.append(self._record(s, seat, action))
            if made is not None:
                made[seat, action[0]] = made.get((seat, action[0]), 0) + 1
        return note

    def playing(self) -> GameState:
        """The kernel's game now (made from the engine's if need be; do not change it)."""
        live = self._live
        if live is None:
            seen = self._seen
            assert seen is not None
            live = self._live = self.table.kernel.adopt(seen.copy())
            self._own_live = True
        return live

    def listed(self) -> list[Action]:
        """The legal actions in the kernel's game now."""
        if self._legal is None:
            self._legal = self.table.kernel.legal_actions(self.playing())
        return self._legal

    # --------------------------------------------------------------------- play
    def is_over(self) -> bool:
        if self.cut:
            return True
        live = self._live
        if live is None:
            return self.dealt is not None and self.playing().over
        return live.over

    def to_move(self) -> int | None:
        """The seat choosing now (None at a chance node or when the game is over)."""
        if self.dealt is None or self.is_over():
            return None
        if self.table.whole is not None:
            if self._ids is None:
                self._whole()
            return self._chooser
        return self.decision().seat

    def decision(self) -> Decision:
        """The decision now, in parts (tests and searches look into its trees)."""
        if self._decision is None:
            self._decision = Decision(self)
        return self._decision

    def _whole(self) -> list[int]:
        """The decision now, by the ids of whole actions: the ids offered."""
        ids = self._ids
        if ids is None:
            s = self._live or self.playing()
            self._choose(s, self._legal if self._legal is not None else self.listed())
            ids = self._ids
            assert ids is not None
        return ids

    def _choose(self, s: GameState, legal: list[Action]) -> None:
        whole = self.table.whole
        assert whole is not None
        self._aligned = aligned = whole.ids_of(legal, s.where, s.zones)
        self._ids = sorted(aligned)
        self._chooser = s.window[0] if s.window else s.current

    def play_id(self, token: int) -> int | None:
        """With whole actions: apply the action of id `token`; the seat choosing next (None
        once the game is over)."""
        if self._ids is None:  # (made while a seat chooses)
            if self.dealt is None or self.is_over():
                raise IllegalAction("no seat chooses now")
            self._whole()
        try:
            action = self._legal[self._aligned.index(token)]  # type: ignore[index]
        except ValueError:
            raise IllegalAction(f"'{self.label(token)}' is not legal now") from None
        # what _play does, written out: this runs for every action of every game
        live = self._live
        assert live is not None  # (the choice was made from it)
        if not self._own_live:  # copy on write: the first to play on a shared game copies it
            live = self._live = live.copy()
            self._own_live = True
        seat = self._chooser
        self._behind.append((seat, action))
        if self._records is None:
            self._history.append((seat, action))
        table = self.table
        legal = self._legal = table.kernel.play(live, action)
        self.actions += 1
        self._decision = None
        if self._views:  # (an empty one is never shared: see copy)
            self._views = {}
        if self._memo:
            self._memo = {}
        if live.over:  # (stopped by the ruleset's own bound on actions: cut, no winner)
            self._ids = None
            self.cut = live.cut_off
            return None
        if self.actions >= table.max_actions:
            self._ids = None
            self.cut = True
            return None
        # The next decision at once: whoever plays on asks for its ids, and needs them to
        # read the id it is handed.
        self._choose(live, legal)
        return self._chooser

    def following(self) -> tuple[list[int], Action | None]:
        if self._next is None:
            self._next = self.decision().follow(self.prefix, self.table.parts)
        return self._next

    def legal(self) -> list[int]:
        """The ids the seat choosing may take now, ascending ([] when over)."""
        if self._ids is not None:
            return self._ids
        if self.dealt is None or self.is_over():
            return []
        if self.table.whole is not None:
            return self._whole()
        return self.following()[0]

    def apply(self, token: int) -> None:
        """Take one id: a whole action, or a part, applying the action once the parts spell
        a whole one."""
        if self.dealt is None or self.is_over():
            raise IllegalAction("no seat chooses now")
        if self.table.whole is not None:
            self.play_id(token)
            return
        if token not in self.following()[0]:
            label = self.label(token)
            raise IllegalAction(f"'{label}' is not legal now")
        self.prefix.append(token)
        self._next = None
        done = self.following()[1]
        if done is not None:
            self._play(done)

    def _play(self, action: Action, seat: int | None = None) -> None:
        if seat is None:
            seat = self.decision().seat
        live = self._live
        if live is None:
            live = self.playing()
        elif not self._own_live:  # copy on write: the first to play on a shared game copies it
            live = self._live = live.copy()
            self._own_live = True
        self._behind.append((seat, action))
        if self._records is None:  # kept to work the recall out if it is asked for
            self._history.append((seat, action))
        self._legal = self.table.kernel.play(live, action)
        self.actions += 1
        if self.prefix:
            self.prefix = []
        self._decision = self._next = self._ids = None
        if self._views:  # (an empty one is never shared: see copy)
            self._views = {}
        if self._memo:
            self._memo = {}
        if live.over:
            self.cut = live.cut_off
        elif self.actions >= self.table.max_actions:
            self.cut = True

    def _forget(self) -> None:
        self.prefix = []
        self._decision = self._ids = None
        self._next = None
        self._views = {}
        self._memo = {}

    def memo(self, key: Any, make: Callable[[], Any]) -> Any:
        """`make()`, kept until the state changes (the value must not be changed)."""
        try:
            return self._memo[key]
        except KeyError:
            value = self._memo[key] = make()
            return value

    def view(self, seat: int) -> dict[str, Any]:
        """`seat`'s player view of the game now (interpreter/view.py)."""
        view = self._views.get(seat)
        if view is None:
            state = self.state
            assert state is not None
            view = self._views[seat] = player_view(self.table.rules, state, seat)
        return view

    def card_token(self) -> Callable[[int], int]:
        """A card's id in the parts table: the id of its place (what anybody may name it
        by)."""
        s = self.playing()
        place, where, zones = self.table.parts.place, s.where, s.zones

        def card(c: int) -> int:
            z = where[c]
            return place(z, zones[z].index(c))
        return card

    def record_of(self, seat: int, action: Action) -> Record:
        """`seat`'s action, about to be applied, as the recall will tell it: a card named to
        the seats that know it once the move is done (one laid face up is seen by all; one a
        seat knew but lost sight of, is not), by its place before the action to the others
        (interpreter/told.py)."""
        state = self.state
        assert state is not None
        return self._record(state, seat, action)

    def _record(self, s: GameState, seat: int, action: Action) -> Record:
        return recall.record(self.table, s, seat, action)

    def as_seen(self, record: Record, viewer: int) -> Record:
        """`record` saying no more than `viewer` knew of it (recall.as_seen)."""
        return recall.as_seen(self.table, record, viewer)

    def recall_line(self, record: Record, viewer: int) -> str:
        """One action of the recall, as `viewer` reads it."""
        return self._told(record, viewer)

    def returns(self) -> list[float]:
        """What the match was worth to each seat (`stakes_returns`); 0 to all while it is
        not over, and when the bound on actions stopped it."""
        if self.dealt is None or not self.is_over() or self.cut:
            return [0.0] * self.table.players
        return stakes_returns(self.table, self.playing())

    def label(self, token: int) -> str:
        labels = self.table.actions.labels
        return labels[token] if 0 <= token < len(labels) else str(token)

    # ------------------------------------------------------------------- recall
    def recall(self, seat: int) -> str:
        """Every action so far as `seat` saw it, one a line."""
        told, text = self._recall.get(seat, (0, ""))
        records = self.records
        if told < len(records):
            viewer = seat if self.recall_of is None else self.recall_of
            text += "".join(self._told(r, viewer) + "\n" for r in records[told:])
            self._recall[seat] = (len(records), text)
        return text

    def _told(self, record: Record, viewer: int) -> str:
        return recall.told(self.table, record, viewer)

    # --------------------------------------------------------------- copies
    def copy(self) -> Match:
        other = Match.__new__(Match)
        other.__dict__.update(self.__dict__)
        # Copies share the games until one of them plays on (see _play, _catch_up):
        # OpenSpiel copies a state far more often than it plays on both.
        self._own_live = other._own_live = False
        self._own_seen = other._own_seen = False
        other.seed_parts = list(self.seed_parts)
        other.prefix = list(self.prefix)
        other._behind = list(self._behind)
        other._records = None if self._records is None else list(self._records)
        other._history = list(self._history)
        other.tensors = {}  # written in place: never shared
        other._made = dict(self._made)
        other._recall = dict(self._recall)
        # What is computed from the state is shared until either copy changes (each then
        # starts afresh); what depends on the parts chosen has them in its key.
        other._views = self._views if self._views else {}
        other._memo = self._memo if self._memo else {}
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Match:
        return self.copy()

    def resample(self, seat: int, rng: random.Random) -> Match:
        """A copy in which what `seat` does not know is drawn afresh, consistent with what it
        knows (knowledge.determinize; the state's generator is reseeded too, so later
        shuffles and draws are not foreseen either). Its seed and seed parts are the
        sample's own, drawn with it: no seed deals the sample, and the game's would deal
        the true hands. Its records are the game's as `seat` knew them (as_seen)."""
        state = self.state  # caught up first: the copy's records and moves made are whole
        out = self.copy()
        if state is None:
            out.seed_parts = [rng.randrange(SEED_BASE) for _ in self.seed_parts]
            return out
        out.recall_of = viewer = seat if self.recall_of is None else self.recall_of
        # The game's records name the cards of every action: the sample's say no more than
        # the seat knew (they go with it when it is pickled).
        out._records = list(self.memo(("as seen", viewer), lambda: [
            self.as_seen(r, viewer) for r in self.records]))
        out._recall = {seat: self._recall[seat]} if seat in self._recall else {}
        if self.prefix and self.to_move() != seat:
            # The parts another seat has chosen of its action are its own: `seat` never saw
            # them, and keeping them would keep only samples that fit the hidden cards they
            # were chosen from. The sample's chooser begins its action afresh.
            out.prefix = []
        # The sample is at the game's decision: the same seat to choose after as many
        # actions. (A hand drawn afresh may leave a step that plays a lone action by itself,
        # `automatic`, with one: the sample would play it on, an action `seat` never saw.)
        chooser, actions = self.to_move(), self.playing().actions
        for _ in range(RESAMPLE_ATTEMPTS):
            out._seen, out._own_seen = determinize(self.table.engine, state, seat, rng), True
            out._live, out._legal, out._behind = None, None, []
            out._decision = out._ids = None
            out._next = None
            out._views = {}
            out._memo = {}
            if self._playable(out) and out.to_move() == chooser and \
                    out.playing().actions == actions and (not out.prefix or self._fits(out)):
                # The chance outcomes of the sample are its own: the game's seed would deal
                # the true hands (and the game's actions, kept to work the recall out, are
                # not the sample's: its recall is made already).
                out.dealt = out._seen.seed
                out.seed_parts = parts_of(out.dealt)
                out._history = []
                return out
        raise AdapterError(f"no sample of the cards seat {seat + 1} does not know, out of "
                           f"{RESAMPLE_ATTEMPTS} drawn, agrees with what the game has shown "
                           "(the parts of the action chosen so far, or what the actions the "
                           "seat saw tell of the cards: each sample left the seat to move "
                           "nothing it may do, or one action only, which the rules play)")

    @staticmethod
    def _playable(sample: Match) -> bool:
        """Whether `sample` goes on: its game over, or a seat with something to choose.
        Hidden cards are drawn knowing what a seat saw, not what the actions it saw tell of
        them (an action allowed only to a hand of some kind says the hand is of that kind):
        such a sample may leave the seat to move with nothing it may do, and is drawn
        again. Any other fault of the rules is the rules', and is raised."""
        try:
            return sample.is_over() or bool(sample.legal())
        except NoLegalMove:
            return False

    @staticmethod
    def _fits(sample: Match) -> bool:
        """Whether the parts chosen so far still begin a legal action in `sample`."""
        prefix, sample.prefix = sample.prefix, []
        sample._next = None  # (worked out for the whole prefix, if asked before)
        try:
            for token in prefix:
                if token not in sample.following()[0]:
                    return False
                sample.prefix.append(token)
                sample._next = None
            return True
        finally:
            sample.prefix = prefix
            sample._next = None

    # ------------------------------------------------------------ persistence
    def __reduce__(self) -> tuple[Any, ...]:
        state = self.state
        return (_restore, (self.table.key, state.to_json() if state is not None else None,
                           self.seed_parts, self.prefix, self.records, self.actions, self.cut,
                           self.recall_of))


def _restore(key: tuple[str, tuple[tuple[str, str], ...], int, str, str], state: str | None,
             seed_parts: list[int], prefix: list[int], records: list[Record], actions: int,
             cut: bool, recall_of: int | None) -> Match:
    match = Match(tables.table(*key))
    if state is not None:
        match.state = GameState.from_json(state)
        match._own_seen = True
    match.seed_parts, match._records = list(seed_parts), list(records)
    match.actions, match.cut, match.recall_of = actions, cut, recall_of
    for record in match._records:
        made = (record.seat, record.action[0])
        match._made[made] = match._made.get(made, 0) + 1
    match.prefix = list(prefix)
    return match


def _listed(s: GameState, action: Action) -> Action:
    """The engine's own tuple of `action` (the kernel's, equal to one the engine listed in
    `s`, of the same types), which the engine applies without looking for it again among
    its legal actions; `action` itself where the engine has not listed one such."""
    cache = s.legal_cache
    if cache is None or cache[0] != s.version:
        return action
    legal = cache[1]
    try:
        own = legal[legal.index(action)]
    except ValueError:
        return action
    if own is action or all(map(is_, map(type, own), map(type, action))):
        return own
    return action


def parts_of(seed: int) -> list[int]:
    """The chance outcomes that spell `seed` (below SEED_BASE ** SEED_PARTS), first first."""
    return [seed // SEED_BASE ** i % SEED_BASE for i in range(SEED_PARTS)]


def zero_sum(n: int, winners: Any) -> list[float]:
    """1/k - 1/n to each of k winners among n seats, -1/n to the others (0 to all if none);
    alone at the table, 1 for a win and 0 without."""
    if n == 1:
        return [1.0 if winners else 0.0]
    if not winners:
        return [0.0] * n
    share = 1.0 / len(winners)
    return [(share if p in winners else 0.0) - 1.0 / n for p in range(n)]


def stakes_returns(table: Table, s: GameState) -> list[float]:
    """Each seat's return from the game `s` as it stands, by the table's stakes: `win`, the
    winners share a win (zero_sum); `points` and `chips`, what the totals are worth
    (totals_worth); chips only change hands, so a game whose totals do not add up to nothing
    is refused: its stakes are not chips."""
    n = table.players
    if table.stakes == "win":
        return zero_sum(n, s.winners)
    if table.stakes == "chips" and sum(s.totals[:n]) != 0:
        raise AdapterError(f"returns=chips: the totals {s.totals[:n]} add up to "
                           f"{sum(s.totals[:n])}, not 0: chips only change hands, so "
                           f"{table.rules.name}'s stakes are not chips (returns=points)")
    return totals_worth(table, s)


def totals_worth(table: Table, s: GameState) -> list[float]:
    """The seats' totals as returns of points or chips: a total itself, or its negative
    where the lowest total wins (points), so that more is always better."""
    totals = [float(t) for t in s.totals[:table.players]]
    lowest = table.stakes == "points" and table.rules.winner == "lowest"
    return [-t for t in totals] if lowest else totals
