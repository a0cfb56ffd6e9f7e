"""What a seat may see, as a tensor of fixed shape, for any ruleset (as text: texts.py).

The tensor is built from the knowledge the seat's texts are, in named pieces. Cards are
counted by name (the two copies of a card in a game of two decks are alike), and every
place a card can lie in (a zone's slot, as the action table numbers them) has a row:

    card_zone      names x (zones + 1)  how many copies of each card the seat knows in each
                                        zone; the last column, how many it does not know
    card_maybe     names x zones        of those it does not know, how many it knows may
                                        lie in each zone (a card it lost sight of: in the
                                        hand it was in, or the zone a card went to)
    card_known_by  names x seats        of those it knows, how many each seat knows too,
                                        as far as it can tell (in another's hand: its
                                        holder; sight.knowers_seen)
    zone_sizes     zones                cards in each zone / cards
    slots          places x 4           each place: holds a card, face up, known to the
                                        seat, and then which card: (name's index + 1) / names;
                                        another's hand in no order of its holder's (the cards
                                        the seat knows first, in the deck's order, then
                                        the others, as face down: view.held_order)
    told           places x names       (where a rule gives clues, `tell`) each place: the
                                        names its card may have as the clues told, 1 each
                                        (a row of 0s where nothing was told), which every
                                        seat heard alike
    seats          seats x 3            the seat itself, the seat to move, the dealer
    totals         seats                the totals so far (as scored, not scaled)
    round          2                    the round, the rounds at most
    direction      1                    (where a rule turns play round, `reverse direction`)
                                        which way play goes now: 1 in seat order, -1 against
    variables      one a game or round variable, one per seat a player variable: a
                   number, a truth value as 0/1, a text or list by its length, a card
                   the seat knows, a player, a rank, suit or colour by its place among
                   them as (place + 1) / how many (0: none, or a card the seat does not
                   know); a player variable the seat may not see is 0
    texts          texts x 64           each text variable's letters, as (code - 31) / 96
    choosing       action ids           how often each id appears in the parts chosen
                                        so far (only for the seat choosing)
    moves_made     seats x moves        (information state only) each seat's actions so
                                        far, counted per move

Nothing in it depends on a card the seat does not know: a determinization for the seat
(knowledge.determinize) has the very same tensor.
"""

from __future__ import annotations

from array import array
from itertools import compress
from operator import is_not, ne
from typing import Any

import numpy as np

from cardrules.interpreter.runtime import OWNER
from cardrules.interpreter.sight import hand_apart, whereabouts
from cardrules.interpreter.sight import parties as zone_numbers
from cardrules.interpreter.state import GameState
from cardrules.interpreter.view import (
    _game_variables,
    _player_variables,
    held_order,
    player_view,
    secret,
    shown,
)

from . import table as tables
from .match import Match
from .table import Table

EMPTY = -1
_PLANS: dict[Any, TensorPlan] = {}


class TensorPlan:
    """The pieces of the tensor for one Table, with their shapes."""

    def __init__(self, table: Table, recall: bool):
        rules = table.rules
        n, z, p = table.n_cards, table.zone_count, table.players
        self.table, self.recall = table, recall
        probe = player_view(rules, table.engine.new_game(table.players, 0), 0)
        self.numbers: list[tuple[str, str]] = []  # (scope, name): scope 'game' or 'player'
        self.texts: list[tuple[str, str, int]] = []  # (scope, name, seat or -1)
        for var in rules.variables:
            scope = "player" if var.scope in ("player", "player_round") else "game"
            self.numbers.append((scope, var.name))
            start = probe["player_variables" if scope == "player" else "variables"]
            value = start.get(var.name)
            first = value[0] if scope == "player" and isinstance(value, list) and value \
                else value
            if isinstance(first, str):
                seats = range(p) if scope == "player" else [-1]
                self.texts += [(scope, var.name, seat) for seat in seats]
        width = sum(p if scope == "player" else 1 for scope, _ in self.numbers)
        # each variable, and whether the view shows its value as it is (not a card, player,
        # rank, suit or colour by its name, nor a list of them)
        self.declared = [(var, (var.shape[0] if var.shape else "any") not in
                          ("list", "card", "player", "rank", "suit", "colour"))
                         for var in rules.variables]
        self.moves = list(table.parts.moves)
        self.move_index = {move: i for i, move in enumerate(self.moves)}
        names = rules.cards.names[:n]
        distinct = list(dict.fromkeys(names))
        self.name_of = np.array([distinct.index(name) for name in names], dtype=np.int64)
        self.copies = np.bincount(self.name_of, minlength=len(distinct)).astype(np.float32)
        self.places = sum(place.capacity for place in table.places)
        k = len(distinct)
        pieces: list[tuple[str, tuple[int, ...]]] = [
            ("card_zone", (k, z + 1)), ("card_maybe", (k, z)), ("card_known_by", (k, p)),
            ("zone_sizes", (z,)),
        ]
        if self.places:
            pieces.append(("slots", (self.places, 4)))
        if self.places and rules.tells:
            pieces.append(("told", (self.places, k)))
        pieces += [("seats", (p, 3)), ("totals", (p,)), ("round", (2,))]
        if rules.flow is not None and rules.flow.direction == 0:  # (rules turn play round)
            pieces.append(("direction", (1,)))
        if width:
            pieces.append(("variables", (width,)))
        if self.texts:
            pieces.append(("texts", (len(self.texts), tables.TEXT_LIMIT)))
        if table.whole is None:  # with whole actions, nothing is ever chosen in part
            pieces.append(("choosing", (len(table.parts),)))
        if recall:
            pieces.append(("moves_made", (p, len(self.moves))))
        self.pieces = pieces
        self.slices: list[tuple[str, int, int, tuple[int, ...]]] = []
        at = 0
        for name, shape in pieces:
            count = int(np.prod(shape))
            self.slices.append((name, at, at + count, shape))
            at += count
        self.size = at
        self._dealing: dict[int, np.ndarray] = {}

    def dealing(self, seat: int) -> np.ndarray:
        """The tensor before the deal (only the seat's own mark), made once per seat."""
        tensor = self._dealing.get(seat)
        if tensor is None:
            tensor = self._dealing[seat] = np.zeros(self.size, np.float32)
            self.views(tensor)["seats"][seat, 0] = 1.0
            tensor.flags.writeable = False
        return tensor

    @staticmethod
    def of(table: Table, recall: bool) -> TensorPlan:
        """The TensorPlan of a Table, made once."""
        key = (table.key, recall)
        plan = _PLANS.get(key)
        if plan is None or plan.table is not table:
            plan = _PLANS[key] = TensorPlan(table, recall)
        return plan

    def views(self, tensor: np.ndarray) -> dict[str, np.ndarray]:
        """Named views into a flat tensor of `size` floats, one per piece."""
        return {name: tensor[start:end].reshape(shape)
                for name, start, end, shape in self.slices}

    def variables(self, s: GameState, seat: int) -> list[float]:
        """Each variable as `seat` may see it (its player view's), as numbers: as
        view.player_view shows it (view.shown), read from the game without making the view."""
        over = s.over
        out: list[float] = []
        for var, plain in self.declared:
            name = var.name
            if var.scope in ("player", "player_round"):
                if name not in s.pvars or var.internal:
                    out += [0.0] * self.table.players
                    continue
                hide = secret(var, over)
                for p, value in enumerate(s.pvars[name][:s.n]):
                    out.append(0.0 if hide and p != seat else _number(value) if plain
                               else self.named(s, seat, var.shape, value))
            elif name not in s.vars or var.internal:
                out.append(0.0)
            else:
                value = s.vars[name]
                out.append(_number(value) if plain else self.named(s, seat, var.shape, value))
        return out

    def named(self, s: GameState, seat: int, shape: tuple[str, ...], value: Any) -> float:
        """A variable's value that the view shows by its name, as a number: a card the seat
        knows as (its name's place among the deck's names + 1) / names (0 if the seat does
        not know it), a player as (seat + 1) / (seats + 1), the house 1, a rank, suit or
        colour as (its place + 1) / how many there are; a list by its length; none 0."""
        if value is None:
            return 0.0
        kind = shape[0] if shape else "any"
        if kind == "card":
            if not s.known[value] >> seat & 1:
                return 0.0
            return (int(self.name_of[value]) + 1) / len(self.copies)
        if kind == "player":
            n = self.table.players
            return (min(value, n) + 1) / (n + 1)
        cards = self.table.rules.cards
        if kind == "rank":
            return (value + 1) / len(cards.rank_names)
        if kind == "suit":
            return (value + 1) / len(cards.suit_names)
        if kind == "colour":
            return (value + 1) / 3
        return _number(shown(self.table.rules, s, seat, shape, value))

    def texts_of(self, s: GameState, seat: int, out: np.ndarray) -> None:
        """Each text variable's letters as `seat` may see them."""
        rules = self.table.rules
        game, players = _game_variables(rules, s, seat), _player_variables(rules, s, seat)
        out[:] = 0.0
        for row, (scope, name, owner) in enumerate(self.texts):
            value = players[name][owner] if scope == "player" else game.get(name)
            if isinstance(value, str):
                for i, ch in enumerate(value[:tables.TEXT_LIMIT]):
                    out[row, i] = max(0, min(96, ord(ch) - 31)) / 96


class SeatsOf(dict[int, list[int]]):
    """The seats of each mask of those who know a card, made when first asked for."""

    def __init__(self, players: int):
        super().__init__()
        self.players = players

    def __missing__(self, knowers: int) -> list[int]:
        seats = self[knowers] = [p for p in range(self.players) if knowers >> p & 1]
        return seats


class SeatTensor:
    """One seat's observation tensor of one match, in a buffer of its own, rewritten where
    the game changed since it was last written: the zones whose cards changed, the cards
    that moved, turned or became known or unknown, the places whose card changed; the
    small pieces (seats, totals, round, variables) where they changed. Only what the seat
    knows is read (a card's name only if it knows it), as for a tensor written afresh."""

    def __init__(self, plan: TensorPlan, seat: int):
        self.plan, self.seat = plan, seat
        self.raw = array("f", bytes(4 * plan.size))  # written here, item by item
        self.tensor = np.frombuffer(self.raw, dtype=np.float32)
        self.parts = plan.views(self.tensor)
        self.shown = self.tensor.view()  # what callers get: not to be written
        self.shown.flags.writeable = False
        self.at = {name: start for name, start, _, _ in plan.slices}
        table = plan.table
        self.names = [int(x) for x in plan.name_of]
        self.kinds = len(plan.copies)
        # per zone: its first row among the places, its capacity, and whether another
        # seat holds it (shown in no order of its holder's)
        rows, first = [], 0
        rules = table.rules
        self.board = rules.board
        for z, place in enumerate(table.places):
            other = hand_apart(rules.board, z, seat)  # (a grid's places are its own)
            rows.append((first, place.capacity, other))
            first += place.capacity
        self.rows = rows
        # per zone, the parties the seat can tell know a card there (sight.knowers_seen): in
        # a hand another holds, the holder and itself; elsewhere all who do
        board = rules.board
        self.keep = [1 << board.owner[z] | 1 << seat if other else -1
                     for z, (_, _, other) in enumerate(rows)]
        # per zone, whether the seat sees which way a card it does not know lies there: not
        # in a zone another alone sees, a grid too (its back, as the view shows it)
        self.facing = [not (board.visibility[z] == OWNER and board.owner[z] != seat)
                       for z in range(len(rows))]
        n = table.n_cards
        # the game as last written: nowhere, known to nobody (the pieces are all 0)
        self.where: list[int] = [-1] * n
        self.known: list[int] = [0] * n
        self.face: list[bool] = [False] * n
        self.zones: list[list[int]] = [[] for _ in table.places]
        self.maybe = False  # whether card_maybe holds anything
        self.told = False  # whether the told piece holds anything
        self.marks: tuple[int, int] = (-1, -1)  # the seats piece's marks of the dealer and the
        # seat to move (-1: none)
        self.totals: list[int] = [0] * table.players  # the totals piece as written
        self.chosen: list[int] = []  # the choosing piece's ids
        self.raw[self.at["seats"] + 3 * seat] = 1.0
        self.card_zone, self.known_by = self.at["card_zone"], self.at["card_known_by"]
        self.width, self.players = len(self.rows) + 1, table.players
        self.seats_of = SeatsOf(table.players)  # who knows a card -> those seats
        # per card: where its name's rows begin in card_zone and card_known_by, and the
        # number that tells its name in a place
        self.zone_row = [self.card_zone + name * self.width for name in self.names]
        self.known_row = [self.known_by + name * self.players for name in self.names]
        self.which = [(name + 1) / self.kinds for name in self.names]
        self.slots = self.at.get("slots", 0)
        self.empty = array("f", (0.0, 0.0, 0.0, 0.0))
        self.face_up = array("f", (1.0, 1.0, 0.0, 0.0))
        self.face_down = array("f", (1.0, 0.0, 0.0, 0.0))
        # a place holding a card the seat knows, per card: face down, face up
        self.named = [(array("f", (1.0, 0.0, 1.0, which)), array("f", (1.0, 1.0, 1.0, which)))
                      for which in self.which]
        # what the variables were written from (and whether one names a card, whose name
        # the seat may learn or lose)
        self.vars: dict[str, Any] | None = None
        self.pvars: dict[str, list[Any]] | None = None
        self.over = False
        self.cards_named = any(var.names_cards for var in rules.variables)
        self.cards, self.zone_numbers, self.n = range(n), range(len(rows)), n
        self.last = self.width - 1  # card_zone's column of the cards the seat does not know
        self.sizes, self.seats_at, self.round_at = \
            self.at["zone_sizes"], self.at["seats"], self.at["round"]
        self.direction_at: int | None = self.at.get("direction")
        self.choosing_at: int | None = self.at.get("choosing")
        self.variables_at: int | None = self.at.get("variables")
        # what each place of another's hand shows as last written (an item of `named`,
        # face_up, face_down or empty)
        self.written = [self.empty] * plan.places

    def update(self, s: GameState, match: Match) -> np.ndarray:
        """Bring the tensor to `s` (the engine's game of `match` now) and return it."""
        raw, seat = self.raw, self.seat
        where, known, face, zones = s.where, s.known, s.face_up, s.zones
        was_where, was_known, was_zones = self.where, self.known, self.zones
        moved: set[int] = set()
        if zones != was_zones:
            # the zones whose cards changed: their sizes, the places whose card changed, and
            # the cards that came into them (every card that moved came into one)
            places, sizes, n, rows = self.slots, self.sizes, self.n, self.rows
            named, up, down, empty = self.named, self.face_up, self.face_down, self.empty
            for z in compress(self.zone_numbers, map(ne, zones, was_zones)):
                cards, old = zones[z], was_zones[z]
                size, was = len(cards), len(old)
                # (a card taken from the top, or put on it, leaves the others where they were)
                if size < was and cards == old[:size]:
                    news = []
                elif size > was and cards[:was] == old:
                    news = list(range(was, size))
                else:
                    news = list(compress(range(min(size, was)), map(ne, cards, old)))
                    if size > was:
                        news += range(was, size)
                moved.update(map(cards.__getitem__, news))
                raw[sizes + z] = (size - cards.count(EMPTY)) / n
                was_zones[z] = cards[:]
                first, capacity, other = rows[z]
                if other:  # another's hand: the cards the seat knows first, in deck order
                    self._hand(first, capacity, cards, was, s)
                    continue
                if size < was:  # places left empty
                    news += range(size, was)
                at = places + 4 * first
                facing = self.facing[z]
                for i in news:
                    if i < capacity:
                        c = cards[i] if i < size else EMPTY
                        j = at + 4 * i
                        raw[j:j + 4] = empty if c == EMPTY else \
                            named[c][face[c]] if known[c] >> seat & 1 else \
                            up if face[c] and facing else down
            moved.discard(EMPTY)
            moved.difference_update([c for c in moved if where[c] == was_where[c]])
            self.where = where[:]
        changed = moved  # the cards that moved, turned, or became known or unknown
        learnt = known != was_known
        if learnt:
            changed = moved | set(compress(self.cards, map(ne, known, was_known)))
            self.known = known[:]
        if changed:
            self._counts(changed, was_where, was_known, s)
        if face != self.face:
            changed = changed | set(compress(self.cards, map(ne, face, self.face)))
            self.face = face[:]
        if len(changed) > len(moved):  # the places of cards that turned, or became known or
            self._turned(changed - moved, s)  # unknown, where they were
        groups = s.maybe[seat] if 0 <= seat < len(s.maybe) else {}
        if groups or self.maybe:
            self.parts["card_maybe"][:] = 0.0
            base, width = self.at["card_maybe"], len(self.rows)
            for c, mask in whereabouts(s, seat).items():
                for z in zone_numbers(mask):
                    raw[base + self.names[c] * width + z] += 1.0
            self.maybe = bool(groups)
        if s.told or self.told:
            self._told(s)
        self._small(s, match, bool(changed))
        return self.shown

    def _counts(self, changed: set[int], was_where: list[int], was_known: list[int],
                s: GameState) -> None:
        """card_zone and card_known_by for the cards that moved or became known or unknown
        (`changed`, that were in `was_where` and known to `was_known`): each taken away
        where it was counted, counted where it is, in its zone's column if the seat knows
        it, else in the last; who knows it too, only where that changed (a card seen by the
        same seats that moves, say, changes card_zone alone; a card the seat does not know
        that moves, nothing)."""
        raw, seat, where, known, keep = self.raw, self.seat, s.where, s.known, self.keep
        zone_row, known_row, last, seats_of = \
            self.zone_row, self.known_row, self.last, self.seats_of
        for c in changed:
            # (who knows it, as far as the seat can tell where it was, and where it is)
            was_z, z = was_where[c], where[c]
            was_k = was_known[c] & keep[was_z] if was_z >= 0 else was_known[c]
            k = known[c] & keep[z] if z >= 0 else known[c]
            was_in = was_z >= 0 and was_k >> seat & 1
            now_in = z >= 0 and k >> seat & 1
            if was_in:
                row = zone_row[c]
                if now_in:
                    if was_z != z:
                        raw[row + was_z] -= 1.0
                        raw[row + z] += 1.0
                    if was_k == k:
                        continue
                else:
                    raw[row + was_z] -= 1.0
                    if z >= 0:
                        raw[row + last] += 1.0
                base = known_row[c]
                for p in seats_of[was_k]:
                    raw[base + p] -= 1.0
                if now_in:
                    for p in seats_of[k]:
                        raw[base + p] += 1.0
            elif now_in:
                row = zone_row[c]
                if was_z >= 0:
                    raw[row + last] -= 1.0
                raw[row + z] += 1.0
                base = known_row[c]
                for p in seats_of[k]:
                    raw[base + p] += 1.0
            elif (was_z >= 0) != (z >= 0):  # (dealt, or out of play: in the last column)
                raw[zone_row[c] + last] += 1.0 if z >= 0 else -1.0

    def _turned(self, cards: set[int], s: GameState) -> None:
        """The places of `cards`, which turned or became known or unknown where they lie."""
        raw, seat, rows, zones = self.raw, self.seat, self.rows, s.zones
        where, known, face = s.where, s.known, s.face_up
        hands: set[int] = set()
        for c in cards:
            z = where[c]
            first, capacity, other = rows[z]
            if other:
                hands.add(z)
                continue
            i = zones[z].index(c)
            if i < capacity:
                at = self.slots + 4 * (first + i)
                raw[at:at + 4] = self.named[c][face[c]] if known[c] >> seat & 1 else \
                    self.face_up if face[c] and self.facing[z] else self.face_down
        for z in hands:
            first, capacity, _ = rows[z]
            self._hand(first, capacity, zones[z], len(zones[z]), s)

    def _hand(self, first: int, capacity: int, cards: list[int], was: int,
              s: GameState) -> None:
        """The places of another's hand (`was` cards long when last written): the cards the
        seat knows first, then the others, as the seat's view shows them (view.held_order);
        each place written only if what it shows changed."""
        known, face, seat = s.known, s.face_up, self.seat
        named, down, empty = self.named, self.face_down, self.empty
        # (a card it does not know there shows its back, whichever way it lies: zone_view)
        shown = [named[c][face[c]] if known[c] >> seat & 1 else down
                 for c in held_order(self.board, s, cards, seat)]
        if len(shown) < len(cards):
            shown += [empty] * cards.count(EMPTY)
        count = min(max(len(shown), was), capacity)
        if len(shown) < count:
            shown += [empty] * (count - len(shown))
        written, raw = self.written, self.raw
        at = self.slots + 4 * first
        for i in compress(range(count), map(is_not, shown, written[first:first + count])):
            raw[at + 4 * i:at + 4 * i + 4] = written[first + i] = shown[i]

    def _told(self, s: GameState) -> None:
        """The told piece afresh: per place, the names the clues left its card."""
        if "told" not in self.parts:
            return
        piece = self.parts["told"]
        piece[:] = 0.0
        seat = self.seat
        for c, mask in s.told.items():
            z = s.where[c]
            first, capacity, other = self.rows[z]
            cards = s.zones[z]
            if other:  # another's hand, in the order the slots piece shows it
                cards = held_order(self.board, s, cards, seat)
            index = cards.index(c)
            if index < capacity:
                for f in zone_numbers(mask):
                    piece[first + index, self.names[f]] = 1.0
        self.told = bool(s.told)

    def _small(self, s: GameState, match: Match, changed: bool) -> None:
        """The small pieces: the marks of the seat to move and the dealer, the totals, round
        and direction, and the parts chosen, where they changed; the variables and texts when
        they (or, for a card, what the seat knows) changed."""
        raw, at = self.raw, self.at
        seats = self.seats_at
        marks = (seats + 3 * s.dealer + 2,
                 -1 if s.over else seats + 3 * (s.window[0] if s.window else s.current) + 1)
        if marks != self.marks:
            for mark in self.marks:
                if mark >= 0:
                    raw[mark] = 0.0
            for mark in marks:
                if mark >= 0:
                    raw[mark] = 1.0
            self.marks = marks
        if s.totals != self.totals:
            totals = at["totals"]
            raw[totals:totals + self.players] = array("f", s.totals[:self.players])
            self.totals = list(s.totals)
        round_at = self.round_at
        raw[round_at] = s.round
        raw[round_at + 1] = s.rounds_total
        if self.direction_at is not None:
            raw[self.direction_at] = s.direction
        if s.vars != self.vars or s.pvars != self.pvars or s.over != self.over or \
                (changed and self.cards_named):
            # what they are written from, kept (a list in a variable may change in place)
            self.vars = {name: value[:] if isinstance(value, list) else value
                         for name, value in s.vars.items()}
            self.pvars = {name: [value[:] if isinstance(value, list) else value
                                 for value in values] for name, values in s.pvars.items()}
            self.over = s.over
            if self.variables_at is not None:
                numbers = self.plan.variables(s, self.seat)
                raw[self.variables_at:self.variables_at + len(numbers)] = array("f", numbers)
            if "texts" in at:
                self.plan.texts_of(s, self.seat, self.parts["texts"])
        choosing = self.choosing_at
        if choosing is not None and (self.chosen or match.prefix):
            for token in self.chosen:
                raw[choosing + token] = 0.0
            self.chosen = list(match.prefix) if match.prefix and match.to_move() == self.seat \
                else []
            for token in self.chosen:
                raw[choosing + token] += 1.0


def _number(value: Any) -> float:
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, (str, list, tuple, dict)):
        return float(len(value))
    return 0.0


def tensor_of(plan: TensorPlan, match: Match, seat: int) -> np.ndarray:
    """The flat tensor of what `seat` sees of `match`: do not write into it; it is kept
    until the match changes (and then rewritten in place: copy it to keep it)."""
    if match.dealt is None:  # also how OpenSpiel learns the shape, on a new game each time
        return plan.dealing(seat)
    if plan.recall:
        mine = bool(match.prefix) and match.to_move() == seat
        key = ("tensor", seat, tuple(match.prefix) if mine else ())
        return match.memo(key, lambda: _with_recall(plan, match, seat))
    writer = match.tensors.get(seat)
    if writer is None or writer.plan is not plan:
        writer = match.tensors[seat] = SeatTensor(plan, seat)
    state = match.state
    assert state is not None
    return writer.update(state, match)


class TensorItems:
    """A seat's tensor as a list of floats (what OpenSpiel's tensors are), kept up to date
    from the items that changed since it was last asked for: making 3,000 floats afresh at
    every decision (`tolist`), and freeing them after, took longer than the tensor itself."""

    __slots__ = ("seen", "items")

    def __init__(self, tensor: np.ndarray):
        self.seen = tensor.copy()  # the tensor as `items` holds it
        self.items: list[float] = tensor.tolist()

    def of(self, tensor: np.ndarray) -> list[float]:
        """`tensor`'s items, a list of the caller's own."""
        if tensor.shape != self.seen.shape:
            self.seen, self.items = tensor.copy(), tensor.tolist()
        else:
            changed = np.flatnonzero(tensor != self.seen)
            if changed.size:
                values = tensor[changed]
                self.seen[changed] = values
                items = self.items
                for i, value in zip(changed.tolist(), values.tolist()):
                    items[i] = value
        return self.items.copy()


def tensor_items(plan: TensorPlan, match: Match, seat: int) -> list[float]:
    """`tensor_of` as a list of floats, the same numbers."""
    tensor = tensor_of(plan, match, seat)
    key = ("items", seat, plan.recall)
    kept = match.tensors.get(key)
    if kept is None:
        kept = match.tensors[key] = TensorItems(tensor)
    return kept.of(tensor)  # type: ignore[no-any-return]


def _with_recall(plan: TensorPlan, match: Match, seat: int) -> np.ndarray:
    """The observation's tensor, then the moves made."""
    tensor = np.zeros(plan.size, np.float32)
    observed = tensor_of(TensorPlan.of(plan.table, False), match, seat)
    tensor[:observed.size] = observed
    made = plan.views(tensor)["moves_made"]
    for (who, move), count in match.made.items():
        made[who, plan.move_index[move]] = count
    tensor.flags.writeable = False
    return tensor
