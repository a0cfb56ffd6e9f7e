"""The card rules that change a game: moving, turning, swapping, dealing, shuffling, showing
cards, and what each party knows of a card afterwards (with interpreter/sight.py); the
signals a rule gives the flow (`win`, `eliminate`, `end round before`); the event log of it.

Each effect keeps the state's invariants: every card in exactly one zone, `where` pointing at
it, and knowledge updated as a person at the table would learn. The code generator calls
these functions, or, for those on every action's path (`@inlinable`), specialises their own
definition where a zone's layout or visibility is known before the game (dsl/inline.py); it
never writes a rule of its own. The functions generated code may call are listed in
`EXPORTED`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from cardrules.errors import RuleFault

from .deal import stack
from .runtime import (
    EMPTY,
    HIDDEN,
    IN_PLAY,
    OTHERS,
    OWNER,
    PUBLIC,
    SIGNAL_GAME,
    SIGNAL_TURN,
    Board,
    Fact,
    empty,
    inlinable,
    next_seat,
    others,
    present,
    top,
    total_now,
    zone_label,
)
from .sight import (
    apart_from,
    copy_seen,
    parties,
    seen_again,
    shuffled_unseen,
    unseen_move,
    untold,
)
from .state import GameState

INLINABLE: dict[str, Callable[..., Any]] = {}  # filled by @inlinable below


# -------------------------------------------------------------------- effects
def put(b: Board, s: GameState, c: int, z: int) -> None:
    """Card c goes to grid z: its first empty slot, else after its last card."""
    cards = s.zones[z]
    if EMPTY in cards:
        cards[cards.index(EMPTY)] = c
    elif len(cards) < b.slots[z]:
        cards.append(c)
    else:
        raise RuleFault(f"zone '{zone_label(b, z)}' is full: all {b.slots[z]} places "
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
           by: int, under: bool) -> None:
    """Card c, just taken from zone src by seat `by`, lands on zone z (a grid: its first
    empty slot; `under`: beneath the zone's cards, not on them), turned face up or down
    (None: as it was); then who knows which card it is
    (and what those who could not tell which card moved may still know: sight.py); a trick
    zone notes who played it."""
    knowing: Fact = s.knowing
    if knowing:
        was = s.known[c]
    dest_trick: Fact = b.trick[z]
    if dest_trick:
        s.by[c] = by
    dest_grid: Fact = b.grid[z]
    if dest_grid:
        put(b, s, c, z)
    elif under:
        s.zones[z].insert(0, c)
        s.where[c] = z
    else:
        s.zones[z].append(c)
        s.where[c] = z
    if face is not None:
        s.face_up[c] = face
    logging: Fact = s.log is not None
    if knowing:
        up = s.face_up[c] if face is None else face
        known_after_move(b, s, c, src, z, was, up)
    if logging:
        if under:
            log_move_under(b, s, c, src, z)
        else:
            log_move(b, s, c, src, z)


@inlinable
def move_card(b: Board, s: GameState, c: int, z: int, face: bool | None, by: int,
              under: bool) -> None:
    """Move card c, wherever it lies, to zone z (`under`: to its bottom)."""
    src = s.where[c]
    leave(b, s, c, src)
    arrive(b, s, c, src, z, face, by, under)


@inlinable
def move_top(b: Board, s: GameState, src: int, z: int, face: bool | None, by: int,
             under: bool) -> None:
    """Move the top card of zone src (not a grid) to zone z (`under`: to its bottom)."""
    cards = s.zones[src]
    if not cards:
        empty(b, src)
    c = cards.pop()
    arrive(b, s, c, src, z, face, by, under)


@inlinable
def move_all(b: Board, s: GameState, cards: Iterable[int], z: int, face: bool | None,
             by: int, under: bool) -> None:
    """Move several cards, in order, to zone z (the last on top); `under`: beneath its
    cards, lying in the same order among themselves. Keeping their facing (`face` None),
    cards of a hand that lie face up go first: where each of those lies among the others,
    which leave the hand unseen, would tell the table whether an unseen card comes before
    or after it in the deck's order."""
    moved = list(cards)
    if face is None:
        moved = seen_first(b, s, moved)
    if under:
        moved.reverse()
    for c in moved:
        move_card(b, s, c, z, face, by, under)


@inlinable
def move_zone(b: Board, s: GameState, src: int, z: int, face: bool | None, by: int,
              under: bool) -> None:
    """Move every card of zone src (not a grid), from its bottom card up, to zone z (not a
    grid; `under`: beneath its cards, in the same order): as move_all does with them, but
    where nobody's knowledge or log is kept (a playout kernel's game), without looking for
    each card's place: the zone is emptied once its cards have landed."""
    cards = s.zones[src]
    knowing: Fact = s.knowing
    logging: Fact = s.log is not None
    to_itself: Fact = src == z  # (each card leaves and lands again)
    # a hand's cards land in the deck's order: the order they lay in is their holder's alone
    src_vis: Fact = b.visibility[src]
    if src_vis == OWNER:  # noqa: SIM108 - a statement: the inliner drops the branch a fact decides
        moved = sorted(cards)
    else:
        moved = list(cards)
    if under:
        moved.reverse()
    for c in moved:
        if knowing or logging or to_itself:
            leave(b, s, c, src)
        arrive(b, s, c, src, z, face, by, under)
    if not (knowing or logging or to_itself):
        cards.clear()


@inlinable
def flip_card(b: Board, s: GameState, c: int, face: bool) -> None:
    """Turn a card face up or down where it lies; a card turned up where others can see it
    becomes known to all. The log records what the table sees: a card turned face down
    where only its owner, or nobody, sees it is not an event for the others, nor is a card
    turned the way it already lay."""
    logging: Fact = s.log is not None
    if logging:
        turned = s.face_up[c] != face
    s.face_up[c] = face
    knowing: Fact = s.knowing
    if knowing or logging:
        z = s.where[c]
        vis = b.visibility[z]
    if knowing:
        if face and vis != HIDDEN:
            was = s.known[c]
            gained = s.everyone & ~was
            s.known[c] = s.everyone
            copies: Fact = b.copies  # (several decks: the deck's)
            if copies and (s.sight or vis == OWNER) and b.twinned_in[s.n_cards][c]:
                copy_seen(b, s, c, z, s.everyone, was)  # (who saw which copy it is?)
            if gained & s.watchers[z]:
                seen_again(s, c, gained)
        elif not face and vis == OWNER:
            others = s.known[c] & ~(1 << b.owner[z])
            if others:  # known, but now unseen in a hand: a move out of it may hide it
                s.watchers[z] |= others
    if logging and turned and (face or vis == PUBLIC):
        log_flip(b, s, c)


def seen_first(b: Board, s: GameState, cards: list[int]) -> list[int]:
    """`cards`, those lying face up first, each part in its order, where any lies in a zone
    its holder alone sees (move_all); else `cards` as they are."""
    if not any(b.visibility[s.where[c]] == OWNER for c in cards):
        return cards
    up = s.face_up
    return [c for c in cards if up[c]] + [c for c in cards if not up[c]]


def table_order(b: Board, s: GameState, cards: Iterable[int]) -> list[int]:
    """Cards to turn or show, in the deck's order of their faces if any lies in a zone its
    holder alone sees (the table learns which cards they are, not where each lay in the
    hand, nor which copy of a card it was: `Board.face`)."""
    out = list(cards)
    if any(b.visibility[s.where[c]] == OWNER for c in out):
        face = b.face
        out.sort(key=lambda c: (face[c], c))
    return out


@inlinable
def flip_all(b: Board, s: GameState, cards: Iterable[int], face: bool) -> None:
    """Turn cards; a hand's in the deck's order: the order they lay in is their holder's
    alone (the table sees which cards are turned, not where each lay in the hand)."""
    logging: Fact = s.log is not None
    if logging:  # noqa: SIM108 - a statement: the inliner drops the branch a fact decides
        turned = table_order(b, s, cards)  # (the order they are turned in is the log's)
    else:
        turned = list(cards)
    for c in turned:
        flip_card(b, s, c, face)


@inlinable
def swap(b: Board, s: GameState, c: int, d: int) -> None:
    """Exchange the places of two cards (each takes the other's zone and slot); each is then
    known as if it had moved there."""
    zc = s.where[c]
    zd = s.where[d]
    lc = s.zones[zc]
    ld = s.zones[zd]
    at_c = lc.index(c)  # both places first: the two may lie in one zone
    at_d = ld.index(d)
    lc[at_c] = d
    ld[at_d] = c
    s.where[c] = zd
    s.where[d] = zc
    knowing: Fact = s.knowing
    if knowing:
        was_c = s.known[c]
        was_d = s.known[d]
        known_after_move(b, s, c, zc, zd, was_c, s.face_up[c])
        known_after_move(b, s, d, zd, zc, was_d, s.face_up[d])
    logging: Fact = s.log is not None
    if logging:
        log_swap(b, s, c, d, zc, zd)


@inlinable
def known_after_move(b: Board, s: GameState, c: int, src: int, z: int, was: int,
                     up: bool) -> None:
    """Who knows card c after it went from zone src to zone z, where it lies face up or not
    (`up`), `was`: who knew it before (for those who could not tell it was c that moved, see
    sight.py)."""
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
    elif dest_vis == OTHERS:  # every party sees it but its holder (face up: all)
        s.known[c] = s.everyone if up else s.known[c] | s.everyone & ~(1 << b.owner[z])
    copies: Fact = b.copies  # (several decks: the deck's)
    if copies:  # those who see it cannot tell which copy they saw (of them, those who
        # learnt it or kept track of cards where it was: sight.copy_seen)
        if src_vis == OWNER and not b.grid[src]:
            if s.known[c] & (~was | s.watchers[src]) & ~(1 << b.owner[src]) \
                    and b.twinned_in[s.n_cards][c]:
                copy_seen(b, s, c, src, s.known[c], was)
        elif s.sight and s.known[c] & ~was & s.watchers[src] and b.twinned_in[s.n_cards][c]:
            copy_seen(b, s, c, src, s.known[c], was)
    telling: Fact = s.told  # (known before the game: whether any rule gives a clue)
    if telling and c in s.told:  # what a clue told of it was of the place it left
        untold(s, (c,))
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
    if s.log is not None:
        s.log.append({"effect": "shuffle", "zone": zone_label(b, z)})
    if not s.knowing:
        return
    untold(s, cards)  # a clue told of places, which the shuffle has mixed
    known, vis = s.known, b.visibility[z]
    shows = vis in (OWNER, OTHERS) or \
        (vis == PUBLIC and any(s.face_up[c] for c in cards if c != EMPTY))
    knew: dict[int, list[int]] = {}  # party -> the cards it knew here and sees no longer
    for c in cards:
        if c != EMPTY:
            was = known[c]
            known[c] = 0
            if shows:
                known_after_move(b, s, c, z, z, 0, s.face_up[c])
            if s.sight:
                for p in parties(was & ~known[c]):
                    knew.setdefault(p, []).append(c)
    if knew:
        shuffled_unseen(s, z, knew)


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
    if not s.knowing:
        return
    gained = 1 << who & ~s.known[c]
    s.known[c] |= 1 << who
    learnt(b, s, c, gained)
    if s.log is not None:
        s.log.append({"effect": "peek", "seat": who + 1, "zone": b.names[s.where[c]],
                      "told": seen_by_each(b, s, c, who), "named": named_to_each(b, s, c, who)})


def learnt(b: Board, s: GameState, c: int, gained: int,
           together: frozenset[int] = frozenset()) -> None:
    """The parties in `gained` have just learnt card c where it lies (with the cards of
    `together`, shown at once): what they knew of it partly is moot, and where it lies
    unseen in another's hand they must keep track of it."""
    z = s.where[c]
    if b.copies and b.twinned_in[s.n_cards][c] and gained | s.watchers[z] & s.known[c]:
        # those who see it cannot tell which copy it is
        copy_seen(b, s, c, z, s.known[c], s.known[c] & ~gained, together)
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
    if not s.knowing:
        return
    shown = table_order(b, s, cards)  # (a hand's in the deck's order, as flip_all)
    together = frozenset(shown)  # (seen all at once: no copy among them is mistaken)
    for c in shown:
        gained = s.everyone & ~s.known[c]
        s.known[c] = s.everyone
        learnt(b, s, c, gained, together)
        if s.log is not None:
            _log(b, s, "reveal", c, s.where[c], s.where[c])


@inlinable
def deal(b: Board, s: GameState, count: int | None, src: int, base: int, face: bool | None,
         direction: int, after: int | None, by: int) -> None:
    """Deal `count` cards to each seat in play, one at a time round the table, starting with
    the first player (or the seat after `after`); with no count, deal every card."""
    seats = deal_order(s, direction, after)
    src_grid: Fact = b.grid[src]
    if count is None:
        cards = present(s.zones[src]) if src_grid else list(s.zones[src])
        cards.reverse()
        for i in range(len(cards)):
            move_card(b, s, cards[i], base + seats[i % len(seats)], face, by, False)
    elif src_grid:
        for _ in range(count):
            for p in seats:
                move_card(b, s, top(b, s, src), base + p, face, by, False)
    else:
        for _ in range(count):
            for p in seats:
                move_top(b, s, src, base + p, face, by, False)


def deal_order(s: GameState, direction: int, after: int | None) -> list[int]:
    """The seats still in, in the order cards are dealt to them."""
    first = s.first if after is None else next_seat(s, after, direction)
    seats = ([first] if s.active[first] else []) + others(s, first, direction)
    if not seats:
        raise RuleFault("no player is left to deal to")
    return seats


# ----------------------------------------------------------------------- flow
# A rule in the log: ('move', its name) or ('trigger', its name); None for one of no move or
# trigger (a procedure's statements, the setup's).
Rule = tuple[str, str] | None


def end_round_before(s: GameState, p: int, rule: Rule = None) -> None:
    """Schedule the round's end for just before seat p's next turn (first call wins), and
    log it with the rule that said it and whose turn it is now."""
    if s.stop_before is None:
        s.stop_before = p
        if s.log is not None:
            s.log.append({"effect": "end round before", "seat": p + 1,
                          "turn": s.current + 1, **_by(rule)})


def ends(s: GameState, signal: int, rule: Rule = None) -> None:
    """A rule ends the round (SIGNAL_ROUND) or the game (SIGNAL_GAME): logged, with the rule."""
    s.signal |= signal
    if s.log is not None:
        s.log.append({"effect": "end game" if signal & SIGNAL_GAME else "end round",
                      **_by(rule)})


def win(s: GameState, p: int, rule: Rule = None) -> None:
    """Seat p wins the whole match at once (with any other seat that wins at that moment);
    the house too, kept apart from the seats that win. Logged, with the rule that said it."""
    if s.winners is None:
        s.winners = []
    if p >= s.n:
        s.house_won = True
    elif p not in s.winners:  # several wins at one moment share the victory
        s.winners.append(p)
    s.signal |= SIGNAL_GAME
    if s.log is not None:
        who = {"house": True} if p >= s.n else {"seat": p + 1}
        s.log.append({"effect": "win", **who, **_by(rule)})


def _by(rule: Rule) -> dict[str, str]:
    return {rule[0]: rule[1]} if rule is not None else {}


def score_points(s: GameState, points: int, p: int, teams: int) -> None:
    """Seat p scores points during play: its points in play, which its round score counts
    (the scoring's entry 'in play') and its total reads, and the log. Once the round is
    scored (in the triggers after it) there is no round score to count them: they go to
    the total itself, of each seat that shares p's score (its team's, or the table's)."""
    if len(s.round_scores) >= s.round:
        for q in range(s.n):
            if q == p or (teams and q % teams == p % teams):
                s.totals[q] += points
    else:
        s.pvars[IN_PLAY][p] += points
    if s.log is not None:
        s.log.append({"effect": "score", "seat": p + 1, "points": points,
                      "total": total_now(s, p, teams)})


def reverse_direction(s: GameState) -> None:
    """Play goes the other way round, for the rest of the round (`reverse direction`)."""
    s.direction = -s.direction
    if s.log is not None:
        s.log.append({"effect": "reverse",
                      "way": "in seat order" if s.direction > 0 else "against seat order"})


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


def log_move_under(b: Board, s: GameState, c: int, src: int, dest: int) -> None:
    """A move to a zone's bottom (`move ... to bottom of`), so marked."""
    _log(b, s, "move", c, src, dest, under=True)


def log_swap(b: Board, s: GameState, c: int, d: int, zc: int, zd: int) -> None:
    _log(b, s, "swap", c, zc, zd)
    _log(b, s, "swap", d, zd, zc)


def log_flip(b: Board, s: GameState, c: int) -> None:
    _log(b, s, "flip up" if s.face_up[c] else "flip down", c, s.where[c], s.where[c])


def _log(b: Board, s: GameState, kind: str, c: int, src: int, dest: int,
         under: bool = False) -> None:
    """An effect on card c as the table sees it (the card named if every seat knows it),
    and, where only some seats know it, as each seat does (`told`: the card's name, or None
    for a seat that does not know it now); `named`: the card, by its face's number, to each
    seat that knows it (a log file, being the table's, leaves out what is each seat's:
    SEATS_OWN)."""
    assert s.log is not None
    known = s.known[c]
    public = known == s.everyone
    entry: dict[str, Any] = {"effect": kind, "card": b.card_names[c] if public else None,
                             "from": zone_label(b, src), "to": zone_label(b, dest)}
    if not public and known & ((1 << s.n) - 1):  # some seat knows it
        entry["told"] = seen_by_each(b, s, c)
    entry["named"] = named_to_each(b, s, c)
    if under:
        entry["under"] = True
    s.log.append(entry)


# The fields of an event that are each seat's own, a list with an entry for each seat: its
# words (`told`: an action's sentence, a card's name or None) and the cards it names to that
# seat, by the number of each one's face (`named`: an action's, interpreter/words.py Told;
# an effect's one card, to a seat that knows it). A seat reads its own entry alone; the
# table's log has none of them.
SEATS_OWN = ("told", "named")


def seen_by_each(b: Board, s: GameState, c: int, actor: int | None = None
                 ) -> list[str | None]:
    """Card c as each seat knows it now: its name, or None. With `actor` (the seat whose
    rule reads c where it lies, as a look does): None to a seat that cannot tell which
    card that was (c in a hand neither holds, sight.apart_from), whatever it knows of it."""
    known, name = s.known[c], b.card_names[c]
    if actor is not None:
        known &= ~apart_from(b, s, c, actor)
    return [name if known >> p & 1 else None for p in range(s.n)]


def named_to_each(b: Board, s: GameState, c: int, actor: int | None = None
                  ) -> list[list[int]]:
    """Card c, by the number of its face (`Board.face`: the copies of a card, in a game of
    several decks, are one face, which no seat tells apart), to each seat that knows it now
    (`named`; `actor` as for seen_by_each)."""
    known, face = s.known[c], b.face[c]
    if actor is not None:
        known &= ~apart_from(b, s, c, actor)
    return [[face] if known >> p & 1 else [] for p in range(s.n)]




# What generated code may call of this module (dsl/binding.py binds these names).
EXPORTED = (
    "put", "leave", "arrive", "move_card", "move_top", "move_all", "move_zone", "flip_card",
    "flip_all", "swap", "known_after_move", "shuffle", "seen_first", "peek", "peek_all",
    "reveal", "deal", "deal_order", "end_round_before", "ends", "win", "eliminate",
    "reverse_direction",
    "score_points", "log_move", "log_move_under",
    "log_swap", "log_flip", "table_order",
)
