"""What a seat may see, as text and as a tensor of fixed shape, for any ruleset.

The text is the seat's player view (interpreter/view.py) as JSON, plus the parts it has
chosen so far of the action it is choosing; the information state adds its recall of every
action (match.py). The tensor is built from the same knowledge, in named pieces. Cards are
counted by name (the two copies of a card in a game of two decks are alike), and every
place a card can lie in (a zone's slot, as the action table numbers them) has a row:

    card_zone      names x (zones + 1)  how many copies of each card the seat knows in each
                                        zone; the last column, how many it does not know
    card_maybe     names x zones        of those it does not know, how many it knows may
                                        lie in each zone (a card it lost sight of: in the
                                        hand it was in, or the zone a card went to)
    card_known_by  names x seats        of those it knows, how many each seat knows too
    zone_sizes     zones                cards in each zone / cards
    slots          places x 4           each place: holds a card, face up, known to the
                                        seat, and then which card: (name's index + 1) / names;
                                        another's hand in no order of its holder's (the cards
                                        the seat knows first, in the deck's order)
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
                   number, a truth value as 0/1, a text or list by its length; a player
                   variable the seat may not see is 0
    texts          texts x 64           each text variable's letters, as (code - 31) / 96
    choosing       action ids           how often each id appears in the parts chosen
                                        so far (only for the seat choosing)
    moves_made     seats x moves        (information state only) each seat's actions so
                                        far, counted per move

Nothing in it depends on a card the seat does not know: a determinization for the seat
(knowledge.determinize) has the very same tensor.
"""

from __future__ import annotations

import json
from array import array
from itertools import compress
from operator import ne
from typing import Any

import numpy as np

from cardrules.interpreter.runtime import OWNER
from cardrules.interpreter.sight import parties as zone_numbers
from cardrules.interpreter.sight import whereabouts
from cardrules.interpreter.state import GameState
from cardrules.interpreter.view import _game_variables, _player_variables, player_view

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

    def variables(self, s: GameState, seat: int, out: np.ndarray) -> None:
        """Each variable as `seat` may see it (its player view's), as numbers."""
        rules = self.table.rules
        game, players = _game_variables(rules, s, seat), _player_variables(rules, s, seat)
        at = 0
        for scope, name in self.numbers:
            if scope == "player":
                for value in players.get(name, [None] * self.table.players):
                    out[at] = _number(value)
                    at += 1
            else:
                out[at] = _number(game.get(name))
                at += 1

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


class SeatTensor:
    """One seat's observation tensor of one match, in a buffer of its own, rewritten where
    the game changed since it was last written: the cards that moved, turned or became
    known or unknown, the places whose card changed; the small pieces (seats, totals,
    round, variables) every time. Only what the seat knows is read (a card's name only if
    it knows it), as for a tensor written afresh."""

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
        for z, place in enumerate(table.places):
            other = rules.board.visibility[z] == OWNER and rules.board.owner[z] != seat
            rows.append((first, place.capacity, other))
            first += place.capacity
        self.rows = rows
        n = table.n_cards
        # the game as last written: nowhere, known to nobody (the pieces are all 0)
        self.where: list[int] = [-1] * n
        self.known: list[int] = [0] * n
        self.face: list[bool] = [False] * n
        self.zones: list[list[int]] = [[] for _ in table.places]
        self.maybe = False  # whether card_maybe holds anything
        self.told = False  # whether the told piece holds anything
        self.marks: list[int] = []  # the seats piece's marks of the seat to move, dealer
        self.totals: list[int] = [0] * table.players  # the totals piece as written
        self.chosen: list[int] = []  # the choosing piece's ids
        self.raw[self.at["seats"] + 3 * seat] = 1.0
        self.card_zone, self.known_by = self.at["card_zone"], self.at["card_known_by"]
        self.width, self.players = len(self.rows) + 1, table.players
        self.seats_of: dict[int, list[int]] = {}  # who knows a card -> those seats
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
        self.values: Any = None
        self.cards_named = any(var.names_cards for var in rules.variables)

    def update(self, s: GameState, match: Match) -> np.ndarray:
        """Bring the tensor to `s` (the engine's game of `match` now) and return it."""
        raw, seat, at = self.raw, self.seat, self.at
        where, known, face = s.where, s.known, s.face_up
        changed: set[int] = set()
        if where != self.where or known != self.known or face != self.face:
            was_where, was_known, cards = self.where, self.known, range(len(where))
            if where != was_where:
                changed.update(compress(cards, map(ne, where, was_where)))
            if known != was_known:
                changed.update(compress(cards, map(ne, known, was_known)))
            # each card that moved or became known or unknown: taken away where it was
            # counted, counted where it is (inline: this runs for every card that changed);
            # who knows it too, only where that changed (a card seen by the same seats that
            # moves, say, changes card_zone alone)
            zone_row, known_row, last = self.zone_row, self.known_row, self.width - 1
            for c in changed:
                was_z, z, was_k, k = was_where[c], where[c], was_known[c], known[c]
                was_in = was_z >= 0 and was_k >> seat & 1
                now_in = z >= 0 and k >> seat & 1
                row = zone_row[c]
                if was_z >= 0:
                    raw[row + (was_z if was_in else last)] -= 1.0
                if z >= 0:
                    raw[row + (z if now_in else last)] += 1.0
                if was_in and now_in and was_k == k:
                    continue
                base = known_row[c]
                if was_in:
                    for p in self._seats(was_k):
                        raw[base + p] -= 1.0
                if now_in:
                    for p in self._seats(k):
                        raw[base + p] += 1.0
            if face != self.face:
                changed.update(compress(range(len(face)), map(ne, face, self.face)))
            self.where, self.known, self.face = list(where), list(known), list(face)
        sizes, n, slot = at["zone_sizes"], len(where), self._slot
        zones = s.zones
        near = {where[c] for c in changed}  # the zones holding a card that changed
        near.update(compress(range(len(zones)), map(ne, zones, self.zones)))
        kept: dict[int, tuple[bool, int, list[int]]] = {}  # a zone written here -> how
        for z in near:
            cards, old = zones[z], self.zones[z]
            touched = cards != old
            first, capacity, other = self.rows[z]
            if touched:
                raw[sizes + z] = (len(cards) - cards.count(EMPTY)) / n
                self.zones[z] = list(cards)
            if not capacity:
                continue
            if other:  # another's hand: the cards the seat knows first, in the deck's order
                mine = sorted(c for c in cards if c != EMPTY and known[c] >> seat & 1)
                shown = mine + [c for c in cards if c == EMPTY or not known[c] >> seat & 1]
                for i in range(min(max(len(shown), len(old)), capacity)):
                    slot(first + i, shown[i] if i < len(shown) else EMPTY, s)
                continue
            # the places whose card changed, from the first (a card drawn from the top, or
            # put on it, changes one; a swap in a grid, one)
            common = 0
            if touched:
                common = min(len(cards), len(old))
                low = common
                if cards[:common] != old[:common]:
                    low = 0
                    while cards[low] == old[low]:
                        low += 1
                for i in range(low, min(max(len(cards), len(old)), capacity)):
                    if i >= common or cards[i] != old[i]:
                        slot(first + i, cards[i] if i < len(cards) else EMPTY, s)
            kept[z] = (touched, common, old)
        # then the places of the cards that changed (turned, or became known or unknown) in
        # places that kept their card
        for c in changed:
            found = kept.get(where[c])
            if found is not None:
                touched, common, old = found
                z = where[c]
                cards = zones[z]
                i = cards.index(c)
                first, capacity, _ = self.rows[z]
                if i < capacity and (not touched or i < common and cards[i] == old[i]):
                    slot(first + i, c, s)
        groups = s.maybe[seat] if 0 <= seat < len(s.maybe) else {}
        if groups or self.maybe:
            self.parts["card_maybe"][:] = 0.0
            base, width = at["card_maybe"], len(self.rows)
            for c, mask in whereabouts(s, seat).items():
                for z in zone_numbers(mask):
                    raw[base + self.names[c] * width + z] += 1.0
            self.maybe = bool(groups)
        if s.told or self.told:
            self._told(s)
        self._small(s, match, bool(changed))
        return self.shown

    def _seats(self, knowers: int) -> list[int]:
        """The seats of a mask of those who know a card."""
        seats = self.seats_of.get(knowers)
        if seats is None:
            seats = self.seats_of[knowers] = [p for p in range(self.players)
                                              if knowers >> p & 1]
        return seats

    def _told(self, s: GameState) -> None:
        """The told piece afresh: per place, the names the clues left its card."""
        if "told" not in self.parts:
            return
        piece = self.parts["told"]
        piece[:] = 0.0
        known, seat = s.known, self.seat
        for c, mask in s.told.items():
            z = s.where[c]
            first, capacity, other = self.rows[z]
            cards = s.zones[z]
            if other:  # another's hand, in the order the slots piece shows it
                cards = sorted(d for d in cards if d != EMPTY and known[d] >> seat & 1) + \
                    [d for d in cards if d == EMPTY or not known[d] >> seat & 1]
            index = cards.index(c)
            if index < capacity:
                for f in zone_numbers(mask):
                    piece[first + index, self.names[f]] = 1.0
        self.told = bool(s.told)

    def _slot(self, row: int, c: int, s: GameState) -> None:
        """Place `row`: holds a card, face up, known to the seat, and which (by name)."""
        at = self.slots + 4 * row
        if c == EMPTY:
            self.raw[at:at + 4] = self.empty
        elif s.known[c] >> self.seat & 1:
            self.raw[at:at + 4] = self.named[c][s.face_up[c]]
        else:
            self.raw[at:at + 4] = self.face_up if s.face_up[c] else self.face_down

    def _small(self, s: GameState, match: Match, changed: bool) -> None:
        """The pieces written whole every time: seats, totals, round, and the parts chosen;
        the variables and texts when they (or, for a card, what the seat knows) changed."""
        raw, at, plan, seat = self.raw, self.at, self.plan, self.seat
        seats = at["seats"]
        for mark in self.marks:
            raw[mark] = 0.0
        marks = [seats + 3 * s.dealer + 2]
        if not s.over:
            marks.append(seats + 3 * (s.window[0] if s.window else s.current) + 1)
        for mark in marks:
            raw[mark] = 1.0
        self.marks = marks
        if s.totals != self.totals:
            totals, players = at["totals"], plan.table.players
            raw[totals:totals + players] = array("f", s.totals[:players])
            self.totals = list(s.totals)
        raw[at["round"]] = s.round
        raw[at["round"] + 1] = s.rounds_total
        if "direction" in at:
            raw[at["direction"]] = s.direction
        values = (s.over, [tuple(v) if isinstance(v, list) else v for v in s.vars.values()],
                  [tuple(tuple(v) if isinstance(v, list) else v for v in values)
                   for values in s.pvars.values()])
        if values != self.values or (changed and self.cards_named):
            self.values = values
            if "variables" in at:
                plan.variables(s, seat, self.parts["variables"])
            if "texts" in at:
                plan.texts_of(s, seat, self.parts["texts"])
        if "choosing" in at:
            choosing = at["choosing"]
            for token in self.chosen:
                raw[choosing + token] = 0.0
            self.chosen = list(match.prefix) if match.prefix and match.to_move() == seat \
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


def observation_text(match: Match, seat: int) -> str:
    """What `seat` sees now: its player view as JSON, and the parts it has chosen so far."""
    if match.dealt is None:
        return f"seat {seat + 1}: the cards are being shuffled"
    mine = bool(match.prefix) and match.to_move() == seat
    return match.memo(("observation", seat, tuple(match.prefix) if mine else ()),
                      lambda: _observation_text(match, seat, mine))


def _observation_text(match: Match, seat: int, mine: bool) -> str:
    text = json.dumps(match.view(seat), separators=(",", ":"), ensure_ascii=False)
    if mine:
        text += "\nchoosing: " + ", ".join(match.label(t) for t in match.prefix)
    return text


def information_text(match: Match, seat: int) -> str:
    """The observation and the seat's recall of every action so far."""
    return observation_text(match, seat) + "\n" + match.recall(seat)


def truth_text(match: Match) -> str:
    """The whole game, hidden cards included (for debugging, never for a seat): every zone
    that holds a card, `(X)` for a face-down card; then totals and the parts chosen."""
    if match.dealt is None:
        return "seed bytes drawn: " + " ".join(str(b) for b in match.seed_parts)
    return match.memo(("truth", tuple(match.prefix)), lambda: _truth_text(match))


def _truth_text(match: Match) -> str:
    s = match.state
    assert s is not None
    names = match.table.rules.cards.names
    lines = [f"{match.table.rules.name}: {match.actions} actions, "
             + ("over" if match.is_over() else f"seat {(match.to_move() or 0) + 1} to move")]
    for place, cards in zip(match.table.places, s.zones):
        if cards:
            shown = ["--" if c == EMPTY else names[c] if s.face_up[c] else f"({names[c]})"
                     for c in cards]
            lines.append(f"  {place.label}: {' '.join(shown)}")
    lines.append("  totals: " + " ".join(str(t) for t in s.totals))
    if match.prefix:
        lines.append("  choosing: " + ", ".join(match.label(t) for t in match.prefix))
    return "\n".join(lines)
