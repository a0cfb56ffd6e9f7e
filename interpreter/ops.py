"""The primitive effects every rule is made of, on a GameState.

Compiled rules call these (move, flip, swap, shuffle, peek, deal); the engine uses
them too. Each keeps the state's invariants: every card in exactly one zone,
`where` pointing at it, knowledge updated as a person at the table would learn.
`Board` describes the zones of one ruleset for one table size.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from cardrules.dsl.errors import RuleRuntimeError

from .state import GameState

HIDDEN, OWNER, PUBLIC = 0, 1, 2
EMPTY = -1  # an empty grid slot


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


# -------------------------------------------------------------------- reading
def top(b: Board, s: GameState, z: int) -> int:
    """The top card of a zone (the last one placed)."""
    cards = s.zones[z]
    if b.grid[z]:
        present = [c for c in cards if c != EMPTY]
        if present:
            return present[-1]
    elif cards:
        return cards[-1]
    raise RuleRuntimeError(f"zone '{b.names[z]}' is empty: it has no top card")


def empty(b: Board, z: int) -> int:
    """Raise the error for taking the top card of an empty zone."""
    raise RuleRuntimeError(f"zone '{b.names[z]}' is empty: it has no top card")


def bottom(b: Board, s: GameState, z: int) -> int:
    """The bottom card of a zone (the first one placed)."""
    for c in s.zones[z]:
        if c != EMPTY:
            return c
    raise RuleRuntimeError(f"zone '{b.names[z]}' is empty: it has no bottom card")


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


# -------------------------------------------------------------------- effects
def _arrive(b: Board, s: GameState, c: int, z: int) -> None:
    vis = b.visibility[z]
    if vis == PUBLIC and s.face_up[c]:
        s.known[c] = s.everyone
    elif vis == OWNER:
        s.known[c] |= 1 << b.owner[z]


def put(b: Board, s: GameState, c: int, z: int) -> None:
    cards = s.zones[z]
    if b.grid[z]:
        if EMPTY in cards:
            cards[cards.index(EMPTY)] = c
        elif len(cards) < b.slots[z]:
            cards.append(c)
        else:
            raise RuleRuntimeError(f"zone '{b.names[z]}' is full: all {b.slots[z]} places "
                                   "hold a card")
    else:
        cards.append(c)
    s.where[c] = z


def take(b: Board, cards: list[int], z: int, c: int) -> None:
    """Take card c out of zone z's list (a grid keeps an empty slot where it was)."""
    if b.grid[z]:
        cards[cards.index(c)] = EMPTY
    elif cards[-1] == c:
        cards.pop()
    else:
        cards.remove(c)


def move(b: Board, s: GameState, c: int, z: int, face: bool | None) -> None:
    """Move one card to the top (or first empty slot) of zone z, optionally turning it."""
    # The code generator writes this out for single cards; this serves lists of cards.
    src = s.where[c]
    take(b, s.zones[src], src, c)
    if b.grid[z]:
        put(b, s, c, z)
    else:
        s.zones[z].append(c)
        s.where[c] = z
    if face is not None:
        s.face_up[c] = face
    if b.visibility[src] == OWNER and not s.face_up[c]:
        # A card leaving a hand face down: only the hand's owner can tell which it was.
        s.known[c] &= 1 << b.owner[src]
    vis = b.visibility[z]
    if vis == PUBLIC and s.face_up[c]:
        s.known[c] = s.everyone
    elif vis == OWNER:
        s.known[c] |= 1 << b.owner[z]
    if s.log is not None:
        _log(b, s, "move", c, src, z)


def move_all(b: Board, s: GameState, cards: Iterable[int], z: int, face: bool | None) -> None:
    """Move several cards, in order, to zone z."""
    for c in list(cards):
        move(b, s, c, z, face)


def flip_all(b: Board, s: GameState, cards: Iterable[int], face: bool) -> None:
    """Turn cards face up or face down where they lie; a card turned up where others can
    see it becomes known to all. (The code generator writes this out for a single card.)"""
    face_up, known, where, vis = s.face_up, s.known, s.where, b.visibility
    for c in list(cards):
        face_up[c] = face
        if face and vis[where[c]] != HIDDEN:
            known[c] = s.everyone
        if s.log is not None:
            log_flip(b, s, c)


def swap(b: Board, s: GameState, c: int, d: int) -> None:
    """Exchange the places of two cards (each takes the other's zone and slot)."""
    where, known, face_up = s.where, s.known, s.face_up
    zc, zd = where[c], where[d]
    lc, ld = s.zones[zc], s.zones[zd]
    lc[lc.index(c)], ld[ld.index(d)] = d, c
    where[c], where[d] = zd, zc
    vis, owner = b.visibility, b.owner
    vc, vd = vis[zc], vis[zd]
    # What each card's watchers now know: as in move(), a card leaving a hand face down is
    # known only to the hand's owner; then its new zone's rule applies.
    if vc == OWNER and not face_up[c]:
        known[c] &= 1 << owner[zc]
    if vd == OWNER and not face_up[d]:
        known[d] &= 1 << owner[zd]
    if vd == PUBLIC:
        if face_up[c]:
            known[c] = s.everyone
    elif vd == OWNER:
        known[c] |= 1 << owner[zd]
    if vc == PUBLIC:
        if face_up[d]:
            known[d] = s.everyone
    elif vc == OWNER:
        known[d] |= 1 << owner[zc]
    if s.log is not None:
        _log(b, s, "swap", c, zc, zd)
        _log(b, s, "swap", d, zd, zc)


def shuffle(b: Board, s: GameState, z: int) -> None:
    """Shuffle a zone with the game's generator; nobody knows the shuffled order."""
    cards = s.zones[z]
    s.rng.shuffle(cards)
    known = s.known
    vis = b.visibility[z]
    if vis == HIDDEN or (vis == PUBLIC and not any(s.face_up[c] for c in cards if c != EMPTY)):
        for c in cards:
            if c != EMPTY:
                known[c] = 0
    else:
        for c in cards:
            if c != EMPTY:
                known[c] = 0
                _arrive(b, s, c, z)
    if s.log is not None:
        s.log.append({"effect": "shuffle", "zone": _zone_label(b, z)})


def peek(b: Board, s: GameState, c: int, who: int) -> None:
    """Let seat `who` learn a card without turning it."""
    s.known[c] |= 1 << who
    if s.log is not None:
        s.log.append({"effect": "peek", "seat": who + 1, "zone": b.names[s.where[c]]})


def peek_all(b: Board, s: GameState, cards: Iterable[int], who: int) -> None:
    for c in list(cards):
        peek(b, s, c, who)


def deal(b: Board, s: GameState, count: int | None, src: int, base: int, face: bool | None,
         step: int, after: int | None = None) -> None:
    """Deal `count` cards to each seat in play, one at a time round the table, starting with
    the first player (or the seat after `after`); with no count, deal every card."""
    first = s.first if after is None else next_seat(s, after, step)
    seats = ([first] if s.active[first] else []) + others(s, first, step)
    if not seats:
        raise RuleRuntimeError("no player is left to deal to")
    stock = s.zones[src]
    if count is None:
        cards = present(stock) if b.grid[src] else list(stock)
        for i, c in enumerate(reversed(cards)):
            move(b, s, c, base + seats[i % len(seats)], face)
        return
    if len(stock) < count * len(seats) or b.grid[src]:
        for _ in range(count):  # the general way, which reports an empty zone
            for p in seats:
                move(b, s, top(b, s, src), base + p, face)
        return
    zones, where, face_up, known = s.zones, s.where, s.face_up, s.known
    from_hand = b.visibility[src] == OWNER
    for _ in range(count):
        for p in seats:
            c = stock.pop()
            z = base + p
            dest = zones[z]
            if b.grid[z] and (EMPTY in dest or len(dest) >= b.slots[z]):
                put(b, s, c, z)
            else:
                dest.append(c)
                where[c] = z
            if face is not None:
                face_up[c] = face
            if from_hand and not face_up[c]:  # leaving a hand face down: see move()
                known[c] &= 1 << b.owner[src]
            vis = b.visibility[z]
            if vis == PUBLIC and face_up[c]:
                known[c] = s.everyone
            elif vis == OWNER:
                known[c] |= 1 << b.owner[z]
            if s.log is not None:
                _log(b, s, "move", c, src, z)


# ----------------------------------------------------------------------- flow
def end_round_before(s: GameState, p: int) -> None:
    """Schedule the round's end for just before seat p's next turn (first call wins)."""
    if s.stop_before is None:
        s.stop_before = p


def win(s: GameState, p: int) -> None:
    """Seat p wins the whole match at once (with any other seat that wins at that moment)."""
    if s.winners is None:
        s.winners = []
    if p not in s.winners:  # several wins at one moment share the victory
        s.winners.append(p)
    s.signal |= 8  # engine.SIGNAL_GAME


def reveal(b: Board, s: GameState, cards: Iterable[int]) -> None:
    """Show cards to everyone without turning them: all players now know them."""
    for c in list(cards):
        s.known[c] = s.everyone
        if s.log is not None:
            _log(b, s, "reveal", c, s.where[c], s.where[c])


def random_card(b: Board, s: GameState, z: int) -> int:
    """A card of zone z chosen with the game's generator."""
    cards = present(s.zones[z])
    if not cards:
        raise RuleRuntimeError(f"zone '{b.names[z]}' is empty: no card to pick at random")
    return cards[s.rng.randrange(len(cards))]


def eliminate(s: GameState, p: int) -> None:
    """Seat p is out of the game: turns pass it by; its cards stay where they are."""
    s.active[p] = False
    if p == s.current:
        s.signal |= 1  # engine.SIGNAL_TURN: an eliminated player's turn ends at once
    if s.log is not None:
        s.log.append({"effect": "eliminate", "seat": p + 1})


def round_score(s: GameState, p: int) -> int:
    """Seat p's score in the last round that ended."""
    return s.round_scores[-1][p] if s.round_scores else 0


def changes(number: tuple[int, ...], cards: list[int]) -> str:
    """U, D or S for each step between neighbouring cards, by number."""
    return "".join("U" if number[b] > number[a] else "D" if number[b] < number[a] else "S"
                   for a, b in zip(cards, cards[1:]))


def group(i: int, count: int) -> int:
    """Check a group number of a grouped zone (0 to count-1)."""
    if not 0 <= i < count:
        raise RuleRuntimeError(f"group {i} does not exist: the groups are 0 to {count - 1}")
    return i


def need(value: Any, what: str) -> Any:
    """Refuse `none` where a card or player is needed."""
    if value is None:
        raise RuleRuntimeError(f"{what} is none")
    return value


# ------------------------------------------------------------------------ log
def log_move(b: Board, s: GameState, c: int, src: int, dest: int) -> None:
    _log(b, s, "move", c, src, dest)


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
    return b.names[z] if owner < 0 else f"{b.names[z]}[{owner + 1}]"


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


def same_key(table: tuple[int, ...], cards: list[int]) -> bool:
    """Whether every card has the same entry in a card table (rank, suit...)."""
    return len(set(map(table.__getitem__, cards))) <= 1


# ------------------------------------------------------------------ card patterns
def is_set(rank: tuple[int, ...], wild: tuple[bool, ...], cards: list[int]) -> bool:
    """All one rank, wild cards standing in for any."""
    return len({rank[c] for c in cards if not wild[c]}) <= 1


def is_flush(suit: tuple[int, ...], wild: tuple[bool, ...], cards: list[int]) -> bool:
    """All one suit, wild cards standing in for any."""
    return len({suit[c] for c in cards if not wild[c]}) <= 1


def is_run(rank: tuple[int, ...], wild: tuple[bool, ...], n_ranks: int, cards: list[int],
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

