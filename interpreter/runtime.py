"""The runtime every compiled rule calls into: the card rules, written once.

Each effect keeps the state's invariants: every card in exactly one zone, `where`
pointing at it, and knowledge updated as a person at the table would learn (who may
know a card after it moves, turns or is shown). The code generator calls these
functions, or, for the few on every action's path (`@inlinable`), specialises their
own definition where a zone's layout or visibility is known before the game
(dsl/inline.py); it never writes a rule of its own.

Faults: a rule that cannot be carried out in the state it meets raises RuleFault with a
plain message; `site` numbers the rule text it came from, so the engine can point there.
`Board` describes the zones of one ruleset for one table size.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias, TypeVar

from cardrules.errors import RuleFault

from .deal import stack
from .domains import Words
from .sight import parties, seen_again, shuffled_unseen, unseen_move
from .state import EMPTY, GameState

HIDDEN, OWNER, PUBLIC = 0, 1, 2  # a zone's visibility
MOST_NUMBERS = 10_000  # the longest list numbers(a, b) makes
MOST_LETTERS = 1_000  # the longest text words(letters, a, b) stands for

F = TypeVar("F", bound=Callable[..., Any])
INLINABLE: dict[str, Callable[..., Any]] = {}


def inlinable(fn: F) -> F:
    """Mark a runtime function the code generator may specialise in place (dsl/inline.py):
    a procedure, or a function whose body is one `return` of an expression."""
    INLINABLE[fn.__name__] = fn
    return fn


# The annotation of a local whose value the code generator may know before the game, such
# as a zone's layout or visibility: `dest_vis: Fact = b.visibility[z]`. At run time such a
# local is an ordinary one (and, to type checkers, of any type); the generator replaces it
# by the value it knows and keeps only the branches that value takes.
Fact: TypeAlias = Any


@dataclass(frozen=True)
class Board:
    """Per zone index: its name, owner seat (-1 if shared), visibility, and grid shape."""

    names: tuple[str, ...]
    owner: tuple[int, ...]
    visibility: tuple[int, ...]
    grid: tuple[bool, ...]
    slots: tuple[int, ...]
    width: tuple[int, ...]
    card_names: tuple[str, ...]
    trick: tuple[bool, ...] = ()  # a zone of `layout: trick`: cards remember who played them
    house: int = -1  # the house's player number (the owner of its zones), or -1


# -------------------------------------------------------------------- checks
def need(value: Any, what: str, site: int) -> Any:
    """Refuse `none` where a card or a player is needed."""
    if value is None:
        raise RuleFault(f"{what} is none", site)
    return value


def at(items: Sequence[Any], index: int, noun: str, site: int) -> Any:
    """items[index], counting from 0; past either end is a fault, never a wrap-around."""
    if not 0 <= index < len(items):
        size = f"{len(items)}-{noun} list" if noun else f"list of {len(items)}"
        where = "before the start" if index < 0 else "past the end"
        raise RuleFault(f"index {index} is {where} of a {size}", site)
    return items[index]


def divide(a: int, b: int, site: int) -> int:
    """a / b, rounded down (whole numbers only)."""
    if b == 0:
        raise RuleFault(f"{a} / 0: division by zero", site)
    return a // b


def modulo(a: int, b: int, site: int) -> int:
    if b == 0:
        raise RuleFault(f"{a} % 0: division by zero", site)
    return a % b


def least(values: Iterable[int], site: int) -> int:
    """min(...) of an aggregate: a fault when there is nothing to take the least of."""
    found = min(values, default=None)
    if found is None:
        raise RuleFault("min of no items", site)
    return found


def most(values: Iterable[int], site: int) -> int:
    found = max(values, default=None)
    if found is None:
        raise RuleFault("max of no items", site)
    return found


def numbers(first: int, last: int, site: int) -> list[int]:
    """The whole numbers from first to last, both included (at most MOST_NUMBERS)."""
    if last - first + 1 > MOST_NUMBERS:
        raise RuleFault(f"numbers({first}, {last}) would make {last - first + 1} numbers; "
                        f"the most is {MOST_NUMBERS}", site)
    return list(range(first, last + 1))


def words(alphabet: str, shortest: int, longest: int, site: int) -> Words:
    """The open domain of texts of `alphabet`'s letters, `shortest` (at least 1) to `longest`
    letters long; a fault if it holds no text or texts of more than MOST_LETTERS letters."""
    shortest = max(shortest, 1)
    if not alphabet or longest < shortest:
        raise RuleFault(f"words('{alphabet[:20]}', {shortest}, {longest}) holds no text: it "
                        "needs a letter, and a longest length of at least the shortest", site)
    if longest > MOST_LETTERS:
        raise RuleFault(f"words(..., {longest}) would take texts of {longest} letters; the "
                        f"most is {MOST_LETTERS}", site)
    return Words(alphabet, shortest, longest)


def group(i: int, count: int, site: int) -> int:
    """Check a group number of a grouped zone (0 to count-1)."""
    if not 0 <= i < count:
        raise RuleFault(f"group {i} does not exist: the groups are 0 to {count - 1}", site)
    return i


# -------------------------------------------------------------------- reading
def empty(b: Board, z: int) -> int:
    """Fail for taking the top card of an empty zone."""
    raise RuleFault(f"zone '{_zone_label(b, z)}' is empty: it has no top card")


@inlinable
def top_of_stack(b: Board, s: GameState, z: int) -> int:
    """The top card of a zone that is not a grid (the one placed last)."""
    return s.zones[z][-1] if s.zones[z] else empty(b, z)


def top(b: Board, s: GameState, z: int) -> int:
    """The top card of a zone (the last one placed; a grid's last card present)."""
    cards = present(s.zones[z]) if b.grid[z] else s.zones[z]
    return cards[-1] if cards else empty(b, z)


def bottom(b: Board, s: GameState, z: int) -> int:
    """The bottom card of a zone (the first one placed)."""
    for c in s.zones[z]:
        if c != EMPTY:
            return c
    raise RuleFault(f"zone '{_zone_label(b, z)}' is empty: it has no bottom card")


def present(cards: list[int]) -> list[int]:
    """The cards of a grid, without its empty slots (the list itself when it has none)."""
    return [c for c in cards if c != EMPTY] if EMPTY in cards else cards


def all_but_top(b: Board, s: GameState, z: int) -> list[int]:
    cards = present(s.zones[z]) if b.grid[z] else s.zones[z]
    return cards[:-1]


def players(s: GameState) -> list[int]:
    """Seats still in the game, in seat order."""
    return [p for p in range(s.n) if s.active[p]]


def others(s: GameState, me: int, step: int) -> list[int]:
    """The other seats still in the game, in play order starting after `me`."""
    n = s.n
    return [q for q in ((me + step * k) % n for k in range(1, n)) if s.active[q]]


def next_seat(s: GameState, p: int, step: int) -> int:
    """The next seat still in the game after `p`, in play order."""
    n = s.n
    for k in range(1, n + 1):
        q = (p + step * k) % n
        if s.active[q]:
            return q
    return p


def random_card(b: Board, s: GameState, z: int) -> int:
    """A card of zone z chosen with the game's generator."""
    cards = present(s.zones[z])
    if not cards:
        raise RuleFault(f"zone '{_zone_label(b, z)}' is empty: no card to pick at random")
    return cards[s.rng.randrange(len(cards))]


def seat_of(s: GameState, number: int, site: int) -> int:
    """The player in seat `number`, counted from 1."""
    if not 1 <= number <= s.n:
        raise RuleFault(f"there is no seat {number}: the seats are 1 to {s.n}", site)
    return number - 1


def owner_of(b: Board, s: GameState, c: int) -> int | None:
    """The seat whose zone holds card c, or None for a shared zone."""
    owner = b.owner[s.where[c]]
    return owner if owner >= 0 else None


def team_of(s: GameState, p: int, teams: int) -> list[int]:
    """The seats of p's team, in seat order (seat q is in team q mod teams)."""
    return list(range(p % teams, s.n, teams))


def led_suit(suit: Sequence[int], cards: Sequence[int]) -> int | None:
    """The suit of the first card, or None."""
    return suit[cards[0]] if cards else None


def best_of_suit(rank: Sequence[int], suit: Sequence[int], cards: Iterable[int],
                 wanted: int | None) -> int | None:
    """The card of suit `wanted` with the highest rank (the deck lists ranks low to high)."""
    best = None
    for c in cards:
        if suit[c] == wanted and (best is None or rank[c] > rank[best]):
            best = c
    return best


def trick_winner(rank: Sequence[int], suit: Sequence[int], cards: Sequence[int],
                 trump: int) -> int | None:
    """The card that takes the trick: the best trump if one was played, else the best card
    of the suit led."""
    best = best_of_suit(rank, suit, cards, trump)
    return best if best is not None else best_of_suit(rank, suit, cards, led_suit(suit, cards))


def round_score(s: GameState, p: int) -> int:
    """Seat p's score in the last round that ended."""
    return s.round_scores[-1][p] if s.round_scores else 0


# ------------------------------------------------------------------ the house
# A ruleset with a house (`house:`) reads players through these instead of the seat lists:
# the house's player number follows every seat's, and what it has of its own (its total,
# its scores) is kept apart from the seats' lists, which stay one entry a seat.
class Totals:
    """The match totals by player number, the house's among them (read and written)."""

    __slots__ = ("s",)

    def __init__(self, s: GameState):
        self.s = s

    def __getitem__(self, p: int) -> int:
        s = self.s
        return s.totals[p] if p < s.n else s.house_total

    def __setitem__(self, p: int, value: int) -> None:
        s = self.s
        if p < s.n:
            s.totals[p] = value
        else:
            s.house_total = value


def seat_number(p: int, house: int) -> int:
    """A player's seat number from 1; the house has none (0)."""
    return 0 if p == house else p + 1


def is_active(s: GameState, p: int) -> bool:
    """Whether a player is still in the game; the house always is."""
    return p >= s.n or s.active[p]


def last_score(s: GameState, p: int) -> int:
    """A player's score in the last round that ended, the house's too."""
    if p < s.n:
        return round_score(s, p)
    return s.house_scores[-1] if s.house_scores else 0


def a_seat(s: GameState, p: int, what: str, site: int) -> int:
    """`p`, where a rule needs a seat (whose turn is next, who is put out...): never the
    house, which takes no turn."""
    if p >= s.n:
        raise RuleFault(f"the house is not a seat: {what}", site)
    return p


def knows(s: GameState, p: int, c: int) -> bool:
    """Whether seat p knows card c."""
    return bool(s.known[c] >> p & 1)


def entries(table: Sequence[Any], items: Iterable[int]) -> Iterable[Any]:
    """Each item's entry in a table (a card attribute of each card), lazily."""
    return map(table.__getitem__, items)


def changes(number: Sequence[int], cards: Sequence[int]) -> str:
    """U, D or S for each step between neighbouring cards, by number."""
    return "".join("U" if number[b] > number[a] else "D" if number[b] < number[a] else "S"
                   for a, b in zip(cards, cards[1:]))


# -------------------------------------------------------------------- effects
def put(b: Board, s: GameState, c: int, z: int) -> None:
    """Card c goes to grid z: its first empty slot, else after its last card."""
    cards = s.zones[z]
    if EMPTY in cards:
        cards[cards.index(EMPTY)] = c
    elif len(cards) < b.slots[z]:
        cards.append(c)
    else:
        raise RuleFault(f"zone '{_zone_label(b, z)}' is full: all {b.slots[z]} places "
                        "hold a card")
    s.where[c] = z


@inlinable
def leave(b: Board, s: GameState, c: int, src: int) -> None:
    """Card c leaves zone src; a grid keeps an empty slot where it lay."""
    cards = s.zones[src]
    src_grid: Fact = b.grid[src]
    if src_grid:
        cards[cards.index(c)] = EMPTY
    elif cards[-1] == c:
        cards.pop()
    else:
        cards.remove(c)


@inlinable
def arrive(b: Board, s: GameState, c: int, src: int, z: int, face: bool | None,
           by: int) -> None:
    """Card c, just taken from zone src by seat `by`, lands on zone z (a grid: its first
    empty slot), turned face up or down (None: as it was); then who knows which card it is
    (and what those who could not tell which card moved may still know: sight.py); a trick
    zone notes who played it."""
    was = s.known[c]
    dest_trick: Fact = b.trick[z]
    if dest_trick:
        s.by[c] = by
    dest_grid: Fact = b.grid[z]
    if dest_grid:
        put(b, s, c, z)
    else:
        s.zones[z].append(c)
        s.where[c] = z
    if face is not None:
        s.face_up[c] = face
    up = s.face_up[c] if face is None else face
    src_vis: Fact = b.visibility[src]
    if src_vis == OWNER and not up:
        # A card leaving a hand face down: only the hand's owner can tell which it was.
        s.known[c] &= 1 << b.owner[src]
    dest_vis: Fact = b.visibility[z]
    if dest_vis == PUBLIC:
        if up:
            s.known[c] = s.everyone
    elif dest_vis == OWNER:
        s.known[c] |= 1 << b.owner[z]
        others = s.known[c] & ~(1 << b.owner[z])
        if others:  # they know it in a hand they do not see: a move out of it may hide it
            s.watchers[z] |= others
    if s.sight:  # (a search's sample of the game keeps no partial knowledge)
        if s.everyone & ~s.known[c] & (was | s.watchers[src]):
            unseen_move(s, c, src, z, was, src_vis == OWNER and not up, b.owner[src])
        if s.known[c] & ~was & s.watchers[src]:
            seen_again(s, c, s.known[c] & ~was)
    if s.log is not None:
        log_move(b, s, c, src, z)


@inlinable
def move_card(b: Board, s: GameState, c: int, z: int, face: bool | None, by: int) -> None:
    """Move card c, wherever it lies, to zone z."""
    src = s.where[c]
    leave(b, s, c, src)
    arrive(b, s, c, src, z, face, by)


@inlinable
def move_top(b: Board, s: GameState, src: int, z: int, face: bool | None, by: int) -> None:
    """Move the top card of zone src (not a grid) to zone z."""
    cards = s.zones[src]
    if not cards:
        empty(b, src)
    c = cards.pop()
    arrive(b, s, c, src, z, face, by)


@inlinable
def move_all(b: Board, s: GameState, cards: Iterable[int], z: int, face: bool | None,
             by: int) -> None:
    """Move several cards, in order, to zone z."""
    for c in list(cards):
        move_card(b, s, c, z, face, by)


@inlinable
def flip_card(b: Board, s: GameState, c: int, face: bool) -> None:
    """Turn a card face up or down where it lies; a card turned up where others can see it
    becomes known to all. The log records what the table sees: a card turned face down
    where only its owner, or nobody, sees it is not an event for the others."""
    s.face_up[c] = face
    z = s.where[c]
    vis = b.visibility[z]
    if face and vis != HIDDEN:
        gained = s.everyone & ~s.known[c]
        s.known[c] = s.everyone
        if gained & s.watchers[z]:
            seen_again(s, c, gained)
    elif not face and vis == OWNER:
        others = s.known[c] & ~(1 << b.owner[z])
        if others:  # known, but now unseen in a hand: a move out of it may hide it
            s.watchers[z] |= others
    if s.log is not None and (face or vis == PUBLIC):
        log_flip(b, s, c)


@inlinable
def flip_all(b: Board, s: GameState, cards: Iterable[int], face: bool) -> None:
    for c in list(cards):
        flip_card(b, s, c, face)


@inlinable
def swap(b: Board, s: GameState, c: int, d: int) -> None:
    """Exchange the places of two cards (each takes the other's zone and slot); each is then
    known as if it had moved there."""
    zc = s.where[c]
    zd = s.where[d]
    was_c = s.known[c]
    was_d = s.known[d]
    lc = s.zones[zc]
    ld = s.zones[zd]
    at_c = lc.index(c)  # both places first: the two may lie in one zone
    at_d = ld.index(d)
    lc[at_c] = d
    ld[at_d] = c
    s.where[c] = zd
    s.where[d] = zc
    known_after_move(b, s, c, zc, zd, was_c)
    known_after_move(b, s, d, zd, zc, was_d)
    if s.log is not None:
        log_swap(b, s, c, d, zc, zd)


@inlinable
def known_after_move(b: Board, s: GameState, c: int, src: int, z: int, was: int) -> None:
    """Who knows card c after it went from zone src to zone z, as it lies now (`was`: who
    knew it before; for those who could not tell it was c that moved, see sight.py)."""
    up = s.face_up[c]
    src_vis = b.visibility[src]
    if src_vis == OWNER and not up:
        s.known[c] &= 1 << b.owner[src]
    vis = b.visibility[z]
    if vis == PUBLIC:
        if up:
            s.known[c] = s.everyone
    elif vis == OWNER:
        s.known[c] |= 1 << b.owner[z]
        others = s.known[c] & ~(1 << b.owner[z])
        if others:
            s.watchers[z] |= others
    if s.sight:  # (a search's sample of the game keeps no partial knowledge)
        if s.everyone & ~s.known[c] & (was | s.watchers[src]):
            unseen_move(s, c, src, z, was, src_vis == OWNER and not up, b.owner[src])
        if s.known[c] & ~was & s.watchers[src]:
            seen_again(s, c, s.known[c] & ~was)


def shuffle(b: Board, s: GameState, z: int) -> None:
    """Shuffle a zone with the game's generator; nobody knows the shuffled order, except
    what the zone itself shows (a public zone's face-up cards, an owner's own hand)."""
    cards = s.zones[z]
    if s.deal is None:
        shuffled(s.rng, cards)
    else:  # a given deal: the order it states for this shuffle (interpreter/deal.py)
        stack(b, s, z, shuffled)
    known, vis = s.known, b.visibility[z]
    shows = vis == OWNER or (vis == PUBLIC and any(s.face_up[c] for c in cards if c != EMPTY))
    knew: dict[int, list[int]] = {}  # party -> the cards it knew here and sees no longer
    for c in cards:
        if c != EMPTY:
            was = known[c]
            known[c] = 0
            if shows:
                known_after_move(b, s, c, z, z, 0)
            if s.sight:
                for p in parties(was & ~known[c]):
                    knew.setdefault(p, []).append(c)
    if knew:
        shuffled_unseen(s, z, knew)
    if s.log is not None:
        s.log.append({"effect": "shuffle", "zone": _zone_label(b, z)})


def shuffled(rng: random.Random, cards: list[int]) -> None:
    """Shuffle in place exactly as rng.shuffle(cards) does (the same draws from the
    generator, so the same order), without a Python call for each card."""
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        bound = i + 1
        width = bound.bit_length()
        j = getrandbits(width)
        while j >= bound:
            j = getrandbits(width)
        cards[i], cards[j] = cards[j], cards[i]


def peek(b: Board, s: GameState, c: int, who: int) -> None:
    """Let seat `who` learn a card without turning it."""
    gained = 1 << who & ~s.known[c]
    s.known[c] |= 1 << who
    learnt(b, s, c, gained)
    if s.log is not None:
        s.log.append({"effect": "peek", "seat": who + 1, "zone": b.names[s.where[c]]})


def learnt(b: Board, s: GameState, c: int, gained: int) -> None:
    """The parties in `gained` have just learnt card c where it lies: what they knew of it
    partly is moot, and where it lies unseen in another's hand they must keep track of it."""
    z = s.where[c]
    if gained & s.watchers[z]:
        seen_again(s, c, gained & s.watchers[z])
    if b.visibility[z] == OWNER and not s.face_up[c]:
        others = s.known[c] & ~(1 << b.owner[z])
        if others:
            s.watchers[z] |= others


def peek_all(b: Board, s: GameState, cards: Iterable[int], who: int) -> None:
    for c in list(cards):
        peek(b, s, c, who)


def reveal(b: Board, s: GameState, cards: Iterable[int]) -> None:
    """Show cards to everyone without turning them: all players now know them."""
    for c in list(cards):
        gained = s.everyone & ~s.known[c]
        s.known[c] = s.everyone
        learnt(b, s, c, gained)
        if s.log is not None:
            _log(b, s, "reveal", c, s.where[c], s.where[c])


@inlinable
def deal(b: Board, s: GameState, count: int | None, src: int, base: int, face: bool | None,
         step: int, after: int | None, by: int) -> None:
    """Deal `count` cards to each seat in play, one at a time round the table, starting with
    the first player (or the seat after `after`); with no count, deal every card."""
    seats = deal_order(s, step, after)
    src_grid: Fact = b.grid[src]
    if count is None:
        cards = present(s.zones[src]) if src_grid else list(s.zones[src])
        cards.reverse()
        for i in range(len(cards)):
            move_card(b, s, cards[i], base + seats[i % len(seats)], face, by)
    elif src_grid:
        for _ in range(count):
            for p in seats:
                move_card(b, s, top(b, s, src), base + p, face, by)
    else:
        for _ in range(count):
            for p in seats:
                move_top(b, s, src, base + p, face, by)


def deal_order(s: GameState, step: int, after: int | None) -> list[int]:
    """The seats still in, in the order cards are dealt to them."""
    first = s.first if after is None else next_seat(s, after, step)
    seats = ([first] if s.active[first] else []) + others(s, first, step)
    if not seats:
        raise RuleFault("no player is left to deal to")
    return seats


# ----------------------------------------------------------------------- flow
SIGNAL_TURN, SIGNAL_PHASE, SIGNAL_ROUND, SIGNAL_GAME = 1, 2, 4, 8


def end_round_before(s: GameState, p: int) -> None:
    """Schedule the round's end for just before seat p's next turn (first call wins)."""
    if s.stop_before is None:
        s.stop_before = p


def win(s: GameState, p: int) -> None:
    """Seat p wins the whole match at once (with any other seat that wins at that moment);
    the house too, kept apart from the seats that win."""
    if s.winners is None:
        s.winners = []
    if p >= s.n:
        s.house_won = True
    elif p not in s.winners:  # several wins at one moment share the victory
        s.winners.append(p)
    s.signal |= SIGNAL_GAME


def eliminate(s: GameState, p: int) -> None:
    """Seat p is out of the game: turns pass it by; its cards stay where they are."""
    s.active[p] = False
    if p == s.current:
        s.signal |= SIGNAL_TURN  # an eliminated player's turn ends at once
    if s.log is not None:
        s.log.append({"effect": "eliminate", "seat": p + 1})


# ------------------------------------------------------------------------ log
def log_move(b: Board, s: GameState, c: int, src: int, dest: int) -> None:
    _log(b, s, "move", c, src, dest)


def log_swap(b: Board, s: GameState, c: int, d: int, zc: int, zd: int) -> None:
    _log(b, s, "swap", c, zc, zd)
    _log(b, s, "swap", d, zd, zc)


def log_flip(b: Board, s: GameState, c: int) -> None:
    _log(b, s, "flip up" if s.face_up[c] else "flip down", c, s.where[c], s.where[c])


def _log(b: Board, s: GameState, kind: str, c: int, src: int, dest: int) -> None:
    assert s.log is not None
    public = s.known[c] == s.everyone
    entry: dict[str, Any] = {"effect": kind, "card": b.card_names[c] if public else None,
                             "from": _zone_label(b, src), "to": _zone_label(b, dest)}
    s.log.append(entry)


def _zone_label(b: Board, z: int) -> str:
    owner = b.owner[z]
    if owner < 0:
        return b.names[z]
    return f"{b.names[z]}[house]" if owner == b.house else f"{b.names[z]}[{owner + 1}]"


# ------------------------------------------------------------- grids and sets
def columns(b: Board, s: GameState, z: int) -> list[list[int]]:
    """A grid's columns, each top to bottom, without empty slots."""
    cards, width = s.zones[z], b.width[z]
    if EMPTY in cards:
        return [present(cards[col::width]) for col in range(width)]
    return [cards[col::width] for col in range(width)]


def rows(b: Board, s: GameState, z: int) -> list[list[int]]:
    """A grid's rows, each left to right, without empty slots."""
    cards, width = s.zones[z], b.width[z]
    return [present(cards[i:i + width]) for i in range(0, len(cards), width)]


def same_key(table: Sequence[int], cards: Sequence[int]) -> bool:
    """Whether every card has the same entry in a card table (rank, suit...)."""
    return len(set(map(table.__getitem__, cards))) <= 1


def is_set(rank: Sequence[int], wild: Sequence[bool], cards: Sequence[int]) -> bool:
    """All one rank, wild cards standing in for any."""
    return len({rank[c] for c in cards if not wild[c]}) <= 1


def is_flush(suit: Sequence[int], wild: Sequence[bool], cards: Sequence[int]) -> bool:
    """All one suit, wild cards standing in for any."""
    return len({suit[c] for c in cards if not wild[c]}) <= 1


def is_run_high(rank: Sequence[int], wild: Sequence[bool], n_ranks: int,
                cards: Sequence[int]) -> bool:
    """Whether the cards fill len(cards) consecutive ranks with the deck's first rank placed
    after its last (an ace above the king), wild cards taking any rank; no wrapping."""
    count = len(cards)
    if count > n_ranks:
        return False
    ranks = sorted(n_ranks if rank[c] == 0 else rank[c] for c in cards if not wild[c])
    if not ranks:
        return True
    if any(rank[c] >= n_ranks for c in cards if not wild[c]) or len(set(ranks)) != len(ranks):
        return False
    return ranks[-1] - ranks[0] + 1 <= count


def is_run(rank: Sequence[int], wild: Sequence[bool], n_ranks: int, cards: Sequence[int],
           wrap: bool) -> bool:
    """Whether the cards fill len(cards) consecutive ranks, wild cards taking any rank.

    Ranks are indices in the deck's rank order (a joker that is not wild has the index
    n_ranks, so it fits no run). With `wrap`, the order is a circle (K-A-2...).
    """
    count = len(cards)
    if count > n_ranks:
        return False
    ranks = sorted(rank[c] for c in cards if not wild[c])
    if not ranks:
        return True
    if ranks[-1] >= n_ranks or len(set(ranks)) != len(ranks):
        return False
    if ranks[-1] - ranks[0] + 1 <= count:
        return True
    if not wrap:
        return False
    # On a circle the smallest arc holding every rank leaves out the largest gap.
    gaps = [b - a for a, b in zip(ranks, ranks[1:])] + [ranks[0] + n_ranks - ranks[-1]]
    return n_ranks - max(gaps) + 1 <= count
