"""One game played in parts: the core both framework adapters share.

A Match holds a cardrules GameState and the parts chosen so far of the action being chosen
(see table.py). At each part the ids offered are exactly those that begin at least one
whole legal action together with the parts already chosen; when the parts spell a whole
action, the engine applies it. Before the game starts, the seed of the deal is drawn as
SEED_PARTS chance outcomes of SEED_BASE values each: the deal and every later shuffle or
draw come from the state's own generator, seeded with it.

Each seat also keeps its recall of the game: every action as it saw it (a card named only
if the seat knows it once the move is done, by its place before otherwise, a card in
another's hand by the hand alone; a text only by its writer).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardrules.errors import IllegalAction
from cardrules.interpreter.domains import Words
from cardrules.interpreter.players.knowledge import determinize
from cardrules.interpreter.runtime import OWNER
from cardrules.interpreter.state import GameState
from cardrules.interpreter.view import player_view
from cardrules.interpreter.words import known_after

from . import table as tables
from .table import AdapterError, Table

SEED_BASE = 256
SEED_PARTS = 4  # a 32-bit seed
RESAMPLE_ATTEMPTS = 50
Action = tuple[Any, ...]


@dataclass(frozen=True)
class Record:
    """One applied action as the table saw it: who, what, and per card it names, which seats
    know the card once the move is done and where it lay before (for the others)."""

    seat: int
    action: Action
    cards: tuple[tuple[int, int, str], ...]  # (card, seats that know it, where it lay)


class Decision:
    """The legal actions of one decision as trees of ids, from the chooser's side. Never
    changed once made, so copies of a match share it."""

    def __init__(self, match: Match):
        s, engine, ids = match.state, match.table.engine, match.table.actions
        assert s is not None
        legal = engine.legal_actions(s)
        seat = engine.to_move(s)
        assert seat is not None
        self.seat = seat
        self.legal = legal
        self.tree: dict[Any, Any] = {}
        self.open: list[tuple[Action, list[Any]]] = []  # actions with a text to write
        card = match.card_token()
        for action in legal:
            move = engine.moves.get(action[0])
            if move is None:  # the engine's own `pass` in a reaction window
                self._insert([ids.moves["pass"]], action)
            elif any(isinstance(a, Words) for a in action[1:]):
                elements: list[Any] = [ids.moves[action[0]]]
                for kind, cards, value in zip(move.kinds, move.names_cards, action[1:]):
                    if isinstance(value, Words):
                        for ch in value.alphabet:
                            ids.letter(ch)  # refuses a letter the table has no id for
                        elements.append(value)
                    else:
                        ids.value_tokens(kind, cards, value, card, elements)
                self.open.append((action, elements))
            else:
                self._insert(ids.tokens(move, action, card), action)

    def _insert(self, tokens: list[int], action: Action) -> None:
        node = self.tree
        for t in tokens:
            node = node.setdefault(t, {})
        node[None] = action

    def whole(self) -> list[tuple[tuple[int, ...], Action]]:
        """Every legal action with no text to write, with its ids, in the engine's order."""
        out: list[tuple[tuple[int, ...], Action]] = []
        stack: list[tuple[tuple[int, ...], dict[Any, Any]]] = [((), self.tree)]
        while stack:
            prefix, node = stack.pop()
            for key, child in node.items():
                if key is None:
                    out.append((prefix, child))
                else:
                    stack.append(((*prefix, key), child))
        order = {id(a): i for i, a in enumerate(self.legal)}
        return sorted(out, key=lambda pair: order.get(id(pair[1]), 0))

    def follow(self, prefix: list[int], ids: Any) -> tuple[list[int], Action | None]:
        """The ids that may come after `prefix` (sorted), and the action it spells if whole."""
        after: set[int] = set()
        done: Action | None = None
        node: Any = self.tree
        for t in prefix:
            node = node.get(t)
            if node is None:
                break
        if node is not None:
            after.update(k for k in node if k is not None)
            done = node.get(None)
        for action, elements in self.open:
            more, texts = walk(elements, prefix, ids)
            after |= more
            if texts is not None:
                filled = iter(texts)
                done = tuple(next(filled) if isinstance(a, Words) else a for a in action)
        return sorted(after), done


def walk(elements: list[Any], prefix: list[int], ids: Any) -> tuple[set[int], list[str] | None]:
    """Follow `prefix` along an action with texts to write (ids, and Words where a text goes):
    the ids that may come next, and the texts written if the prefix spells the whole action."""
    j = 0
    texts: list[str] = []
    for element in elements:
        if not isinstance(element, Words):
            if j == len(prefix):
                return {element}, None
            if prefix[j] != element:
                return set(), None
            j += 1
            continue
        letters: list[str] = []
        longest = min(element.longest, tables.TEXT_LIMIT)
        while True:
            if j == len(prefix):
                more = {ids.letter(ch) for ch in element.alphabet} \
                    if len(letters) < longest else set()
                if len(letters) >= element.shortest:
                    more.add(ids.end)
                return more, None
            t = prefix[j]
            j += 1
            if t == ids.end:
                if len(letters) < element.shortest:
                    return set(), None
                break
            ch = ids.letter_of(t)
            if ch is None or ch not in element.alphabet or len(letters) >= longest:
                return set(), None
            letters.append(ch)
        texts.append("".join(letters))
    return set(), (texts if j == len(prefix) else None)


class Match:
    """One game at a Table: the seed being drawn, then the game, chosen part by part."""

    def __init__(self, table: Table):
        self.table = table
        self.seed_parts: list[int] = []
        self.state: GameState | None = None
        self._shared = False  # whether a copy of this match holds the same GameState
        self.prefix: list[int] = []
        self.records: list[Record] = []
        self.actions = 0  # whole actions applied
        self.made: dict[tuple[int, str], int] = {}  # (seat, move) -> actions of that move
        self.cut = False  # stopped at the bound on actions, with no winner
        # In a sample made for one seat, whose recall of the game stands for every seat's
        # (the sampler knows only what that seat saw).
        self.recall_of: int | None = None
        self._decision: Decision | None = None
        self._next: tuple[list[int], Action | None] | None = None
        self._recall: dict[int, tuple[int, str]] = {}  # seat -> (records told, the text)
        self._views: dict[int, dict[str, Any]] = {}  # seat -> its player view, until a change
        self._memo: dict[Any, Any] = {}  # what is computed from the state, until a change

    # ------------------------------------------------------------------- chance
    def is_chance(self) -> bool:
        return self.state is None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(b, 1.0 / SEED_BASE) for b in range(SEED_BASE)]

    def apply_chance(self, outcome: int) -> None:
        if self.state is not None or not 0 <= outcome < SEED_BASE:
            raise IllegalAction(f"not a chance outcome now: {outcome}")
        self.seed_parts.append(outcome)
        if len(self.seed_parts) == SEED_PARTS:
            self.start(sum(b * SEED_BASE ** i for i, b in enumerate(self.seed_parts)))

    def start(self, seed: int) -> None:
        """Deal the game from `seed` (the chance outcomes' seed, or one given directly)."""
        self.state = self.table.engine.new_game(self.table.players, seed)
        self._forget()

    # --------------------------------------------------------------------- play
    def is_over(self) -> bool:
        return self.cut or (self.state is not None and self.state.over)

    def to_move(self) -> int | None:
        """The seat choosing now (None at a chance node or when the game is over)."""
        if self.state is None or self.is_over():
            return None
        return self.decision().seat

    def decision(self) -> Decision:
        if self._decision is None:
            self._decision = Decision(self)
        return self._decision

    def following(self) -> tuple[list[int], Action | None]:
        if self._next is None:
            self._next = self.decision().follow(self.prefix, self.table.actions)
        return self._next

    def legal(self) -> list[int]:
        """The ids the seat choosing may take now, ascending ([] when over)."""
        if self.state is None or self.is_over():
            return []
        return self.following()[0]

    def apply(self, token: int) -> None:
        """Take one part; apply the action once the parts spell a whole one."""
        if self.state is None or self.is_over():
            raise IllegalAction("no seat chooses now")
        if token not in self.following()[0]:
            label = self.label(token)
            raise IllegalAction(f"'{label}' is not legal now")
        self.prefix.append(token)
        self._next = None
        done = self.following()[1]
        if done is not None:
            self._play(done)

    def _play(self, action: Action) -> None:
        s = self.state
        assert s is not None
        if self._shared:  # copy on write: the first to play on a shared state copies it
            self.state = s = s.copy()
            self._shared = False
        record = self.record_of(self.decision().seat, action)
        self.table.engine.apply(s, action)
        self.records.append(record)
        seat = record.seat
        self.actions += 1
        self.made[seat, action[0]] = self.made.get((seat, action[0]), 0) + 1
        self._forget()
        if not s.over and self.actions >= self.table.max_actions:
            self.cut = True

    def _forget(self) -> None:
        self.prefix = []
        self._decision = None
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
            assert self.state is not None
            view = self._views[seat] = player_view(self.table.rules, self.state, seat)
        return view

    def card_token(self) -> Callable[[int], int]:
        """A card's id: the id of its place (what anybody may name it by)."""
        s = self.state
        assert s is not None
        place, where, zones = self.table.actions.place, s.where, s.zones

        def card(c: int) -> int:
            z = where[c]
            return place(z, zones[z].index(c))
        return card

    def record_of(self, seat: int, action: Action) -> Record:
        """`seat`'s action, about to be applied, as the recall will tell it: a card named to
        the seats that know it once the move is done (one laid face up is seen by all; one a
        seat knew but lost sight of, is not), by its place before the action to the others
        (interpreter/told.py)."""
        assert self.state is not None
        after = known_after(self.table.rules, self.state, seat, action)
        facts = tuple((c, after.get(c, known), place)
                      for c, known, place in self._card_facts(action))
        return Record(seat, action, facts)

    def recall_line(self, record: Record, viewer: int) -> str:
        """One action of the recall, as `viewer` reads it."""
        return self._told(record, viewer)

    def _card_facts(self, action: Action) -> tuple[tuple[int, int, str], ...]:
        move = self.table.engine.moves.get(action[0])
        if move is None or not any(move.names_cards):
            return ()
        s = self.state
        assert s is not None
        out = []
        held = self.table.rules.board.visibility
        for cards, value in zip(move.names_cards, action[1:]):
            if cards:
                for c in _flat(value):
                    z = s.where[c]
                    place = self.table.places[z]
                    # a hand's order is its holder's: the others are told the hand alone
                    where = place.label if held[z] == OWNER else \
                        place.slot_label(s.zones[z].index(c))
                    out.append((c, s.known[c], where))
        return tuple(out)

    def returns(self) -> list[float]:
        """Zero-sum: 1/k - 1/n to each of k winners, -1/n to the others; 0 to all if the game
        is not over or has no winner."""
        n = self.table.players
        s = self.state
        if s is None or not self.is_over() or self.cut or not s.winners:
            return [0.0] * n
        share = 1.0 / len(s.winners)
        return [(share if p in s.winners else 0.0) - 1.0 / n for p in range(n)]

    def label(self, token: int) -> str:
        labels = self.table.actions.labels
        return labels[token] if 0 <= token < len(labels) else str(token)

    # ------------------------------------------------------------------- recall
    def recall(self, seat: int) -> str:
        """Every action so far as `seat` saw it, one a line."""
        told, text = self._recall.get(seat, (0, ""))
        if told < len(self.records):
            viewer = seat if self.recall_of is None else self.recall_of
            text += "".join(self._told(r, viewer) + "\n" for r in self.records[told:])
            self._recall[seat] = (len(self.records), text)
        return text

    def _told(self, record: Record, viewer: int) -> str:
        engine = self.table.engine
        names = self.table.rules.cards.names
        seen = {c: names[c] if known >> viewer & 1 else place
                for c, known, place in record.cards}
        move = engine.moves.get(record.action[0])
        words = [f"seat {record.seat + 1}:", record.action[0]]
        if move is not None:
            for kind, cards, value in zip(move.kinds, move.names_cards, record.action[1:]):
                if cards:
                    words.append(_cards_text(value, seen))
                elif kind == "words":
                    words.append(repr(value) if viewer == record.seat else "(written)")
                else:
                    words.append(engine.words.value_text(kind, value))
        return " ".join(words)

    # --------------------------------------------------------------- copies
    def copy(self) -> Match:
        other = Match.__new__(Match)
        other.__dict__.update(self.__dict__)
        # Copies share the GameState until one of them plays on (see _play): OpenSpiel
        # copies a state far more often than it plays on both.
        self._shared = other._shared = self.state is not None
        other.seed_parts = list(self.seed_parts)
        other.prefix = list(self.prefix)
        other.records = list(self.records)
        other.made = dict(self.made)
        other._recall = dict(self._recall)
        # What is computed from the state is shared until either copy changes (each then
        # starts afresh); what depends on the parts chosen has them in its key.
        other._views = self._views
        other._memo = self._memo
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> Match:
        return self.copy()

    def resample(self, seat: int, rng: random.Random) -> Match:
        """A copy in which what `seat` does not know is drawn afresh, consistent with what it
        knows (knowledge.determinize; the state's generator is reseeded too, so later
        shuffles and draws are not foreseen either)."""
        out = self.copy()
        if self.state is None:
            out.seed_parts = [rng.randrange(SEED_BASE) for _ in self.seed_parts]
            return out
        out.recall_of = seat if self.recall_of is None else self.recall_of
        out._recall = {seat: self._recall[seat]} if seat in self._recall else {}
        for _ in range(RESAMPLE_ATTEMPTS):
            out.state = determinize(self.table.engine, self.state, seat, rng)
            out._shared = False
            out._decision = None
            out._next = None
            out._views = {}
            out._memo = {}
            if not self.prefix or self.is_over() or self._fits(out):
                return out
        raise AdapterError("no sample of the hidden cards agrees with the parts of the action "
                           "chosen so far")

    @staticmethod
    def _fits(sample: Match) -> bool:
        """Whether the parts chosen so far still begin a legal action in `sample`."""
        prefix, sample.prefix = sample.prefix, []
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
        state = self.state.to_json() if self.state is not None else None
        return (_restore, (self.table.key, state, self.seed_parts, self.prefix,
                           self.records, self.actions, self.cut, self.recall_of))


def _restore(key: tuple[str, tuple[tuple[str, str], ...], int], state: str | None,
             seed_parts: list[int], prefix: list[int], records: list[Record], actions: int,
             cut: bool, recall_of: int | None) -> Match:
    match = Match(tables.table(*key))
    match.state = GameState.from_json(state) if state is not None else None
    match.seed_parts, match.records = list(seed_parts), list(records)
    match.actions, match.cut, match.recall_of = actions, cut, recall_of
    for record in match.records:
        made = (record.seat, record.action[0])
        match.made[made] = match.made.get(made, 0) + 1
    match.prefix = list(prefix)
    return match


def _flat(value: Any) -> list[int]:
    if isinstance(value, (list, tuple)):
        return [c for v in value for c in _flat(v)]
    return [value]


def _cards_text(value: Any, seen: dict[int, str]) -> str:
    if isinstance(value, (list, tuple)):
        inner = [_cards_text(v, seen) for v in value]
        nested = any(isinstance(v, (list, tuple)) for v in value)
        return "[" + (" | " if nested else " ").join(inner) + "]"
    return seen.get(value, str(value))
