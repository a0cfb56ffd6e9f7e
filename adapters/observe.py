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
    seats          seats x 3            the seat itself, the seat to move, the dealer
    totals         seats                the totals so far (as scored, not scaled)
    round          2                    the round, the rounds at most
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
from typing import Any

import numpy as np

from cardrules.interpreter.runtime import OWNER
from cardrules.interpreter.sight import parties as zone_numbers
from cardrules.interpreter.sight import whereabouts
from cardrules.interpreter.view import player_view

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
        pieces += [("seats", (p, 3)), ("totals", (p,)), ("round", (2,))]
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

    def fill(self, match: Match, seat: int, parts: dict[str, np.ndarray]) -> None:
        """Write what `seat` may see of `match` into `parts` (views from `views` of a tensor
        of zeros)."""
        if match.dealt is None:  # the seed is still being drawn: nothing is dealt yet
            parts["seats"][seat, 0] = 1.0
            return
        board = match.memo("board", lambda: Board(match))
        mine = (board.known >> seat) & 1
        seen = np.nonzero(mine)[0]
        names = self.name_of[seen]
        card_zone, known_by = parts["card_zone"], parts["card_known_by"]
        k, width, p = card_zone.shape[0], card_zone.shape[1], known_by.shape[1]
        card_zone.flat[:] = np.bincount(names * width + board.where[seen], minlength=k * width)
        card_zone[:, -1] = self.copies - np.bincount(names, minlength=k)
        bits = (board.known[seen, None] >> np.arange(p)) & 1
        known_by.flat[:] = np.bincount((names[:, None] * p + np.arange(p)).ravel(),
                                       weights=bits.ravel(), minlength=k * p)
        card_maybe = parts["card_maybe"]
        for c, mask in whereabouts(match.state, seat).items():
            for z in zone_numbers(mask):
                card_maybe[self.name_of[c], z] += 1.0
        parts["zone_sizes"][:] = board.sizes
        if self.places:
            slots, cards = parts["slots"], board.seen_slots(seat, mine)
            held = cards >= 0
            some = np.maximum(cards, 0)  # a card id for every slot; only held ones are read
            told = held & (mine[some] == 1)
            slots[:, 0] = held
            slots[:, 1] = held * board.face_up[some]
            slots[:, 2] = told
            slots[:, 3] = told * (self.name_of[some] + 1) / len(self.copies)
        view = match.view(seat)
        seats = parts["seats"]
        seats[seat, 0] = 1.0
        if view["to_move"] is not None:
            seats[view["to_move"] - 1, 1] = 1.0
        seats[view["dealer"] - 1, 2] = 1.0
        parts["totals"][:] = view["totals"]
        parts["round"][:] = (view["round"], view["rounds"])
        if "variables" in parts:
            self._variables(view, parts["variables"])
        if "texts" in parts:
            self._texts(view, parts["texts"])
        if match.prefix and match.to_move() == seat:
            choosing = parts["choosing"]
            for token in match.prefix:
                choosing[token] += 1.0

    def _variables(self, view: dict[str, Any], out: np.ndarray) -> None:
        at = 0
        for scope, name in self.numbers:
            if scope == "player":
                for value in view["player_variables"].get(name, [None] * self.table.players):
                    out[at] = _number(value)
                    at += 1
            else:
                out[at] = _number(view["variables"].get(name))
                at += 1

    def _texts(self, view: dict[str, Any], out: np.ndarray) -> None:
        for row, (scope, name, seat) in enumerate(self.texts):
            value = view["player_variables"][name][seat] if scope == "player" \
                else view["variables"].get(name)
            if isinstance(value, str):
                for i, ch in enumerate(value[:tables.TEXT_LIMIT]):
                    out[row, i] = max(0, min(96, ord(ch) - 31)) / 96


class Board:
    """What the tensors need of a state, for every seat at once (each seat then keeps only
    the cards it knows): per card its zone, face and knowers; per zone its size; per place
    (as the action table numbers them) its card."""

    def __init__(self, match: Match):
        s = match.state
        assert s is not None
        n = s.n_cards
        self.known = np.array(s.known, dtype=np.int64)
        self.where = np.array(s.where, dtype=np.int64)
        self.face_up = np.array(s.face_up, dtype=np.float32)
        self.sizes = np.array([(len(cards) - cards.count(EMPTY)) / n for cards in s.zones],
                              dtype=np.float32)
        slots: list[int] = []
        self.held: list[tuple[int, int, int]] = []  # (start, end, holder) of others' hands
        visibility, owner = match.table.rules.board.visibility, match.table.rules.board.owner
        for z, (place, cards) in enumerate(zip(match.table.places, s.zones)):
            held = cards[:place.capacity]
            if visibility[z] == OWNER:
                self.held.append((len(slots), len(slots) + len(held), owner[z]))
            slots += list(held) + [EMPTY] * (place.capacity - len(held))
        self.slot_cards = np.array(slots, dtype=np.int64)

    def seen_slots(self, seat: int, mine: np.ndarray) -> np.ndarray:
        """Each place's card, another's hands in no order of its holder's: the cards `seat`
        knows (`mine`, per card) first, in the deck's order, then the others."""
        cards = self.slot_cards
        if not any(holder != seat for _, _, holder in self.held):
            return cards
        cards = cards.copy()
        for start, end, holder in self.held:
            if holder != seat and end > start:
                part = cards[start:end]
                known = np.sort(part[mine[part] == 1])
                cards[start:end] = np.concatenate([known, part[mine[part] == 0]])
        return cards


def _number(value: Any) -> float:
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, (str, list, tuple, dict)):
        return float(len(value))
    return 0.0


def tensor_of(plan: TensorPlan, match: Match, seat: int) -> np.ndarray:
    """The flat tensor of what `seat` sees of `match` (kept until the match changes: do not
    write into it)."""
    if match.dealt is None:  # also how OpenSpiel learns the shape, on a new game each time
        return plan.dealing(seat)
    mine = bool(match.prefix) and match.to_move() == seat
    key = ("tensor", plan.recall, seat, tuple(match.prefix) if mine else ())
    return match.memo(key, lambda: _tensor(plan, match, seat))


def _tensor(plan: TensorPlan, match: Match, seat: int) -> np.ndarray:
    tensor = np.zeros(plan.size, np.float32)
    if plan.recall:  # the observation's tensor, then the moves made
        observed = tensor_of(TensorPlan.of(plan.table, False), match, seat)
        tensor[:observed.size] = observed
        made = plan.views(tensor)["moves_made"]
        for (who, move), count in match.made.items():
            made[who, plan.move_index[move]] = count
    else:
        plan.fill(match, seat, plan.views(tensor))
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
