"""GameState: everything about one game in play, as plain data.

A state round-trips through JSON (`to_json` / `from_json`). Cards are integers;
zones are lists of cards (the last card of a stack is its top; a grid's slots are
in reading order, -1 marking an empty slot). Per card: `face_up`, and `known`, a
bitmask of the parties (seats, and the house) that know which card lies in its place.
Per party, `maybe`: the cards it knows only partly, each with the zones it may be in
(interpreter/sight.py); `told`: what clues said aloud of cards where they lie (sight.py).
The random generator is part of the state, so a saved game continues exactly as it would
have.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from cardrules.errors import GameError

FORMAT = "cardrules-state/1"
EMPTY = -1  # an empty slot of a grid

# Fields that are plain JSON values, saved and loaded as they are.
_PLAIN = (
    "ruleset", "seed", "n", "rounds_total", "zones", "where", "face_up", "known", "vars",
    "pvars", "totals", "round_scores", "round", "dealer", "first", "current", "phase",
    "step", "reps", "turns_in_phase", "stop_before", "signal", "winners", "over", "turns",
    "actions", "active", "window",
    "n_cards", "next_turn", "forced", "by",
)

# Fields of a game with a house (`house:`), saved only there: its player number (-1: no
# house), its match total, its score in each round, and whether it has won.
_HOUSE = ("house", "house_total", "house_scores", "house_won")


def blank_rng() -> random.Random:
    """A generator whose state is about to be set (by `seed` or `setstate`): made without
    Random()'s own seeding from the operating system, which costs several times as much."""
    return random.Random.__new__(random.Random)


@dataclass(frozen=True)
class Deal:
    """A stacked deck (`shuffles`: each shuffle's order as card names, top first) or the
    cards of zones when the game starts (`zones`: zone index, names in the zone's own order,
    a stack's top last as the engine keeps it, and whether it is a stack, which may name its
    top cards alone). `where` holds, for messages, where each order (or zone) was written."""

    shuffles: tuple[tuple[str, ...], ...] = ()
    zones: tuple[tuple[int, tuple[str, ...], bool], ...] = ()
    where: tuple[str, ...] = ()

    def data(self) -> list[list[str]]:
        """The stacked deck as JSON data (what a save keeps)."""
        return [list(order) for order in self.shuffles]


def added_up(round_scores: list[list[int]]) -> list[list[int]]:
    """Each seat's total after each round, from the rounds' scores alone."""
    out: list[list[int]] = []
    for scores in round_scores:
        out.append([t + x for t, x in zip(out[-1], scores)] if out else list(scores))
    return out


class Seen:
    """The positions the table has seen this round (`repetition: forbid`), as one game sees
    them. A copy of the game shares the table of positions, and sees those seen up to its
    making (each is numbered in the order it was seen). Only the game that made the table
    adds to it, where it lies: the game a copy was made of goes on at a step a decision;
    a copy (a search's imagined game, perhaps in another thread, as a page's hint is worked
    out) takes a table of its own at its first position, from a copy of the shared one made
    at once. So a game's every decision, and the copies `repetition: forbid` makes to try
    each move, cost the same however long the round has gone on."""

    __slots__ = ("table", "count", "own")

    def __init__(self, keys: Iterable[bytes] = ()) -> None:
        self.table: dict[bytes, int] = {}
        for key in keys:
            self.table.setdefault(key, len(self.table))
        self.count = len(self.table)
        self.own = True  # whether this game made the table (and alone adds to it)

    def __contains__(self, key: object) -> bool:
        found = self.table.get(key)  # type: ignore[call-overload]
        return found is not None and found < self.count

    def __iter__(self) -> Iterator[bytes]:
        return (key for key, number in self.table.copy().items() if number < self.count)

    def __len__(self) -> int:
        return self.count

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Seen) and set(self) == set(other)

    __hash__ = None  # type: ignore[assignment]

    def add(self, key: bytes) -> None:
        if key in self:
            return
        if not self.own or len(self.table) != self.count:  # a table of its own from here
            # (dict.copy is one step another thread cannot come between)
            self.table = {k: n for k, n in self.table.copy().items() if n < self.count}
            self.own = True
        self.table[key] = self.count
        self.count += 1

    def copy(self) -> Seen:
        other = Seen.__new__(Seen)
        other.table, other.count, other.own = self.table, self.count, False
        return other


class GameState:
    """One game in play. The engine mutates it in place; copy() gives an independent one."""

    __slots__ = (*_PLAIN, "_rng", "_rng_shared", "_rng_seed", "chances", "version",
                 "legal_cache", "log", "everyone", "forcing", "cut_off", "maybe", "watchers",
                 "told", "sight", "knowing", "deal", "dealt", "seen", "until_round_end",
                 "between_rounds", "work", "work_at", "spent", "direction", "round_totals",
                 *_HOUSE)

    def __init__(self) -> None:
        self.ruleset = ""
        self.seed: int = 0
        self.n = 0
        self.everyone = 0
        self.n_cards = 0
        self.rounds_total = 1
        self._rng = blank_rng()
        self._rng_shared = False
        self._rng_seed: int | None = None  # a seed not yet given to a generator (reseed)
        self.chances = 0  # times the generator was asked for (kept by copies, not saved)
        # A given deal (interpreter/deal.py: the order its shuffles yield), and how many of
        # its orders the game has used; None: every shuffle is the generator's.
        self.deal: Any = None
        self.dealt = 0
        self.zones: list[list[int]] = []
        self.where: list[int] = []
        self.face_up: list[bool] = []
        self.known: list[int] = []
        # per party: zones mask -> cards that may be in those zones (sight.py); never changed
        # in place, so that copies may share them
        self.maybe: list[dict[int, frozenset[int]]] = []
        self.watchers: list[int] = []  # per zone: the parties a move out of it may mislead
        # what clues said aloud (`tell`): card -> the faces it may be as told, while it lies
        # where it lay then (sight.py); never changed in place, so that copies may share it
        self.told: dict[int, int] = {}
        # whether partial knowledge is kept (a search's sample of a game needs none)
        self.sight = True
        # whether who knows each card is kept at all (a playout kernel's game, whose rules
        # never ask, keeps none: interpreter/kernel.py)
        self.knowing = True
        self.vars: dict[str, Any] = {}
        self.pvars: dict[str, list[Any]] = {}
        self.totals: list[int] = []
        self.round_scores: list[list[int]] = []  # each round's, appended whole, never changed
        self.round = 0
        self.dealer = 0
        self.first = 0
        self.current = 0
        self.phase = 0
        self.step = 0
        self.reps = 0
        self.turns_in_phase = 0
        self.stop_before: int | None = None
        self.next_turn: int | None = None  # who plays next, when a rule has said (turn to)
        # which way play goes (+1 seat order, -1 against it): the ruleset's `direction` at
        # each round's start, turned by `reverse direction`; read only where rules turn it
        self.direction = 1
        self.forced = 0  # actions played without asking: the only legal one, in a step so marked
        self.forcing = False  # (while forced actions are being played)
        self.by: list[int | None] = []  # per card: who played it into a trick zone last
        self.signal = 0  # end turn 1, end phase 2, end round 4, end game 8 (engine.SIGNAL_*)
        self.winners: list[int] | None = None
        self.over = False
        self.cut_off = False  # ended by the ruleset's bound on actions (`max_actions`)
        # A search's imagined game is played to its round's end and no further: the round is
        # scored, the next is not dealt (nobody would play it), and nothing is left to play
        # (`between_rounds`). Kept by copies, never saved.
        self.until_round_end = False
        self.between_rounds = False
        self.turns = 0
        self.actions = 0
        self.active: list[bool] = []
        self.window: list[int] = []  # seats still to answer in a reaction window, next first
        self.version = 0
        self.legal_cache: tuple[int, list[tuple[Any, ...]]] | None = None
        self.log: list[dict[str, Any]] | None = None
        # The positions of this round the table has decided at (interpreter/positions.py),
        # kept where the rules forbid repetition: replaced when one is added, never changed.
        self.seen = Seen()
        # The steps the rules' listing built-ins have taken since the game's count of actions
        # was `work_at` (runtime.charge): bounded, so that no action takes unbounded time.
        # Kept by no copy and never saved.
        self.work = 0
        self.work_at = 0
        # All the work counted so far in this game, every action's (runtime.charge): bounded
        # too, so that no game takes unbounded time. Kept by copies, never saved (a resumed
        # game counts it again as it replays).
        self.spent = 0
        self.house = -1
        self.house_total = 0
        self.house_scores: list[int] = []
        # each seat's total after each round, what the rules after it changed included
        self.round_totals: list[list[int]] = []
        self.house_won = False

    def seat_count(self, n: int, house: int = -1) -> None:
        """Set the number of seats and the house's player number (-1: none), and so
        `everyone`, the mask with the bit of every party that can know a card."""
        self.n = n
        self.house = house
        self.everyone = (1 << n) - 1 | (1 << house if house >= 0 else 0)
        self.maybe = [{} for _ in range(max(n, house + 1))]

    # ------------------------------------------------------------- the generator
    @property
    def rng(self) -> random.Random:
        """The game's random generator. A copy of the state shares it until either side uses
        it (copying a generator's state costs more than copying the rest of a game, and most
        copies made by a search never draw from it). A seed given by `reseed` is given to a
        generator only then, each copy that draws seeding its own: the same draws as one
        generator seeded at once and copied, for less than copying a generator's state."""
        self.chances += 1
        if self._rng_shared:
            own = blank_rng()
            if self._rng_seed is not None:
                own.seed(self._rng_seed)
            else:
                own.setstate(self._rng.getstate())
            self._rng, self._rng_shared, self._rng_seed = own, False, None
        return self._rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng, self._rng_shared, self._rng_seed = value, False, None

    def reseed(self, seed: int) -> None:
        """A generator of its own, seeded afresh (the old state is not kept): seeded when it
        is first drawn from (see rng), which a search's sample often never is."""
        self._rng, self._rng_shared, self._rng_seed = self._rng, True, seed
        self.deal = None  # a search's sample foresees no stated shuffle either

    def met_chance_since(self, before: GameState) -> bool:
        """Whether this game, a copy of `before` made since, has met chance since: drawn from
        its generator (a shuffle, a random card) or taken a given deal's next order. Nobody
        at the table could have foreseen what that gave."""
        return self.chances != before.chances or self.dealt != before.dealt

    # ------------------------------------------------------------------ copies
    def copy(self) -> GameState:
        """An independent copy (for search); the event log is not carried over."""
        other = GameState.__new__(GameState)
        other.ruleset, other.seed, other.n, other.rounds_total = \
            self.ruleset, self.seed, self.n, self.rounds_total
        other.zones = list(map(list.copy, self.zones))
        other.where = self.where[:]
        other.face_up = self.face_up[:]
        if self.knowing:
            other.known = self.known[:]
            other.maybe = self.maybe[:]  # (each party's dict is replaced, never changed)
            other.watchers = self.watchers[:]
        else:  # a kernel's game keeps no knowledge: what it holds is never read or changed
            other.known, other.maybe, other.watchers = self.known, self.maybe, self.watchers
        other.told = self.told
        other.sight = self.sight
        other.knowing = self.knowing
        other.vars = self.vars.copy()
        other.pvars = {k: v[:] for k, v in self.pvars.items()}
        other.totals = self.totals[:]
        other.round_scores = self.round_scores[:]  # (a round's scores are never changed)
        other.round, other.dealer, other.first, other.current = \
            self.round, self.dealer, self.first, self.current
        other.phase, other.step, other.reps, other.turns_in_phase = \
            self.phase, self.step, self.reps, self.turns_in_phase
        other.stop_before, other.signal, other.over, other.turns, other.actions = \
            self.stop_before, self.signal, self.over, self.turns, self.actions
        other.winners = self.winners[:] if self.winners is not None else None
        other.cut_off = self.cut_off
        other.until_round_end, other.between_rounds = self.until_round_end, self.between_rounds
        other.active = self.active[:]
        other.window = self.window[:]
        other.n_cards = self.n_cards
        other.next_turn, other.forced, other.forcing = self.next_turn, self.forced, False
        other.direction = self.direction
        other.by = self.by[:]
        other.deal, other.dealt = self.deal, self.dealt  # (a deal is never changed)
        other._rng, other._rng_seed = self._rng, self._rng_seed  # shared until either draws
        other.chances = self.chances
        other._rng_shared = self._rng_shared = True
        other.everyone = self.everyone
        other.house, other.house_total, other.house_won = \
            self.house, self.house_total, self.house_won
        other.house_scores = self.house_scores[:]
        other.round_totals = self.round_totals[:]  # (a round's totals are never changed)
        other.version = self.version
        other.legal_cache = self.legal_cache  # same version, same actions (never mutated)
        other.log = None
        other.seen = self.seen.copy()
        other.work, other.work_at, other.spent = 0, self.actions, self.spent
        return other

    # -------------------------------------------------------------------- JSON
    def to_dict(self) -> dict[str, Any]:
        """The state as a JSON-ready dict."""
        data = {name: getattr(self, name) for name in _PLAIN}
        version, internal, gauss = self.rng.getstate()
        data["rng"] = [version, list(internal), gauss]
        data["format"] = FORMAT
        if self.cut_off:  # written only when true: states saved before it existed still load
            data["cut_off"] = True
        if self.direction != 1:  # (so too: only where rules turn play round, and it is)
            data["direction"] = -1
        if self.house >= 0:  # (only a game with a house has these)
            data.update({name: getattr(self, name) for name in _HOUSE})
        if self.deal is not None and hasattr(self.deal, "data"):  # (only a given deal)
            data["deal"] = self.deal.data()
            data["dealt"] = self.dealt
        if any(self.maybe):  # (only where some party knows a card partly)
            data["maybe"] = [[[mask, sorted(cards)] for mask, cards in m.items()]
                             for m in self.maybe]
            data["watchers"] = list(self.watchers)
        if self.told:  # (only where a clue was told)
            data["told"] = sorted([c, mask] for c, mask in self.told.items())
        if self.seen:  # (only where the rules forbid repetition)
            data["seen"] = sorted(key.hex() for key in self.seen)
        if self.round_totals != added_up(self.round_scores):  # (only where rules after a
            data["round_totals"] = self.round_totals  # round changed a total)
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameState:
        """Rebuild a state from `to_dict` output; raise GameError if it is not one."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise GameError("not a cardrules game state (missing or unknown 'format')")
        state = cls()
        try:
            for name in _PLAIN:
                setattr(state, name, data[name])
            if "house" in data:
                state.house_total = int(data["house_total"])
                state.house_scores = [int(x) for x in data["house_scores"]]
                state.house_won = data["house_won"] is True
            state.seat_count(int(state.n), int(data.get("house", -1)))
            state.watchers = [int(w) for w in data.get("watchers", [0] * len(state.zones))]
            if "maybe" in data:
                state.maybe = [{int(mask): frozenset(int(c) for c in cards)
                                for mask, cards in m} for m in data["maybe"]]
            state.told = {int(c): int(mask) for c, mask in data.get("told", [])}
            state.forcing = False
            state.cut_off = data.get("cut_off", False) is True
            state.direction = -1 if data.get("direction", 1) == -1 else 1
            state.seen = Seen(bytes.fromhex(key) for key in data.get("seen", ()))
            state.round_totals = [[int(x) for x in totals] for totals in data["round_totals"]] \
                if "round_totals" in data else added_up(state.round_scores)
            if "deal" in data:
                state.deal = Deal(shuffles=tuple(tuple(str(n) for n in order)
                                                 for order in data["deal"]))
                state.dealt = int(data["dealt"])
            version, internal, gauss = data["rng"]
            state.rng.setstate((version, tuple(internal), gauss))
        except (KeyError, TypeError, ValueError) as exc:
            raise GameError(f"damaged game state: {exc}") from None
        return state

    @classmethod
    def from_json(cls, text: str) -> GameState:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise GameError(f"not a cardrules game state: {exc}") from None
        return cls.from_dict(data)
