"""What a party keeps knowing when it loses sight of a card: the places it may be in.

A party (a seat, or the house) knows a card *exactly* when its bit is set in
`state.known[card]`: it knows which card lies in that place. It may also know a card
*partly*: that the card is in one of a few zones, not in which place. That happens when it
sees a card move without seeing which one moved (seat 1 puts a card from its hand face down
into its field; seat 3 takes a card at random from seat 2's hand: every card the party
believed might be in the zone the card left may now be in the zone it entered, and the
cards it knew exactly there become cards it knows partly), and when a zone whose cards it
knew is shuffled (it knows they are there, not where).

Partial knowledge is kept per party as `state.maybe[party]`: a dict from a bitmask of zone
indices to the frozenset of cards that may be in any of those zones. Cards that became
uncertain together share one entry, so a move touches a few entries, not every card (a
reshuffled stock of thirty cards the table had seen is one entry). The knowledge is sound
(each card is in one of its zones) and made only of what the party observed: which zone a
card left and which it entered, never which card it was. So two games that differ only in
cards a party has not seen update its knowledge alike.

`state.watchers[zone]` holds the parties that know something of the cards in a zone that a
move out of it could disturb: cards they know exactly while they cannot see them in
another's hand, and cards they know partly. A move out of a zone nobody watches costs one
look-up, the common case (a draw from a stock nobody has seen); so does a card coming into
sight in a game of several decks, unless someone learnt it or watches its zone (copy_seen).

What a clue says (`tell p which c in hand[p] where c.suit == s`) is knowledge of the card in
a place, not of where a card is: of each card it names, whether the condition holds, and so
which *faces* (a card's name: the copies of a card are one face) the card lying there may
have. A clue is said aloud, so every party hears it alike: `state.told` is one map, card ->
the bitmask of the faces it may be as told (a face is its first card, `Board.face`), each
clue narrowing it (the cards that matched to the faces the condition holds of, the others to
the rest). It stays with the card while it lies where it was told, and is dropped when the
card moves (to a place where it is seen, or one the clue no longer speaks of) and at a
round's start. The samplers (interpreter/players/knowledge.py) deal only cards the clues
allow into each told place, as they keep each partly known card in its zones.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from cardrules.errors import RuleFault
from cardrules.model import Board

from .runtime import OWNER
from .state import EMPTY, GameState

Groups = dict[int, frozenset[int]]  # zones mask -> the cards that may be in those zones


def parties(mask: int) -> Iterator[int]:
    """The numbers whose bits are set in `mask` (parties, or zones), lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def hand_apart(b: Board, z: int, party: int) -> bool:
    """Whether zone z is a hand another party than `party` holds: a zone its holder alone
    sees, not a grid (whose places are its own). Which of its cards is which is the
    holder's to see: the others see backs in no order of the holder's (`view.held_order`)."""
    return b.visibility[z] == OWNER and not b.grid[z] and b.owner[z] != party


def held_apart(b: Board, s: GameState, c: int, party: int) -> bool:
    """Whether card c lies in a hand another party holds, out of `party`'s sight
    (`hand_apart`): `party` cannot tell which of its cards another takes or looks at,
    whatever it knows of them."""
    z = s.where[c]
    return z >= 0 and hand_apart(b, z, party)


def apart_from(b: Board, s: GameState, c: int, actor: int) -> int:
    """The parties that cannot tell it was card c that `actor`'s rule took or looked at
    where it lies (-1: no seat's): where c lies in a hand neither `actor` nor they hold,
    every party but its holder and `actor` (`held_apart`); else none."""
    z = s.where[c]
    if z < 0 or not hand_apart(b, z, actor):
        return 0
    return s.everyone & ~(1 << b.owner[z]) & ~(1 << actor if actor >= 0 else 0)


def knowers_seen(b: Board, s: GameState, c: int, party: int) -> int:
    """The parties `party` can tell know card c: all who do (`known`), but of a card in a
    hand another holds, only its holder and `party` itself (who else has looked at one of
    those cards, or been handed it, `party` cannot follow there: `held_apart`)."""
    if held_apart(b, s, c, party):
        return s.known[c] & (1 << b.owner[s.where[c]] | 1 << party)
    return s.known[c]


def unseen_move(s: GameState, c: int, src: int, z: int, was: int, held: bool,
                holder: int) -> None:
    """Card c went from zone src to zone z; the parties that do not know it now saw a card
    go, not which. `was`: who knew c before; `held`: src is a zone whose holder (`holder`)
    alone sees its face-down cards, so the others cannot tell which of them went (out of any
    other zone a party sees which place the card left, and still knows what lies in the
    others)."""
    unaware = s.everyone & ~s.known[c]
    bits = 1 << src | 1 << z
    for p in parties(unaware & (was | s.watchers[src])):
        lost = _lose_track(s, p, src) if held and holder != p else []
        if was >> p & 1:  # it knew c was there: now there, or in z
            lost.append(c)
        groups = before = s.maybe[p]
        if any(mask >> src & 1 for mask in groups):
            groups = _spread(groups, src, bits)
        if lost:
            groups = _joined(_without(groups, lost) if groups else groups, bits, lost)
        if groups is not before:  # (most calls change nothing: a card it never saw went)
            s.maybe[p] = groups
            s.watchers[src] |= 1 << p
            s.watchers[z] |= 1 << p


def _lose_track(s: GameState, p: int, src: int) -> list[int]:
    """Party p can no longer tell apart the face-down cards it knew in zone src: they are
    no longer known to it exactly (returned, to be known partly)."""
    known, up = s.known, s.face_up
    keep = ~(1 << p)
    lost = [d for d in s.zones[src] if d != EMPTY and known[d] >> p & 1 and not up[d]]
    for d in lost:
        known[d] &= keep
    return lost


def _spread(groups: Groups, src: int, bits: int) -> Groups:
    """Every group that may be in zone src may now be in the zones of `bits` too."""
    out: Groups = {}
    for mask, cards in groups.items():
        if mask >> src & 1:
            mask |= bits
        out[mask] = out[mask] | cards if mask in out else cards
    return out


def _without(groups: Groups, cards: Iterable[int]) -> Groups:
    """The groups less some cards (a group left empty is dropped)."""
    gone = frozenset(cards)
    out: Groups = {}
    for mask, members in groups.items():
        rest = members - gone
        if rest:
            out[mask] = rest
    return out


def _joined(groups: Groups, mask: int, cards: Iterable[int]) -> Groups:
    out = dict(groups)
    out[mask] = out.get(mask, frozenset()) | frozenset(cards)
    return out


def seen_again(s: GameState, c: int, gained: int) -> None:
    """The parties in `gained` know card c exactly again: what they knew partly is moot."""
    for p in parties(gained):
        if s.maybe[p]:
            s.maybe[p] = _without(s.maybe[p], (c,))


def shuffled_unseen(s: GameState, z: int, knew: dict[int, list[int]]) -> None:
    """Zone z was shuffled: each party in `knew` (party -> the cards it knew exactly there,
    and sees no longer) knows they are in z, not where."""
    bit = 1 << z
    for p, cards in knew.items():
        s.maybe[p] = _joined(_without(s.maybe[p], cards), bit, cards)
        s.watchers[z] |= 1 << p


def forget_all(s: GameState, zones: int) -> None:
    """A fresh start of what every party knows partly (a new round, all cards gathered)."""
    s.maybe = [{} for _ in s.maybe]
    s.watchers = [0] * zones
    s.told = {}


def forget_cards(s: GameState, cards: list[int]) -> None:
    """The cards gathered back to the deck at a round's start are no one's partly known
    cards any more (those a zone keeps from round to round are still where they were)."""
    for p, groups in enumerate(s.maybe):
        if groups:
            s.maybe[p] = _without(groups, cards)
    untold(s, cards)


def whereabouts(s: GameState, p: int) -> dict[int, int]:
    """Party p's partly known cards, each with the mask of zones it may be in, those zones
    left out that hold no card p does not know exactly (the card, which p does not know
    exactly, cannot lie there)."""
    groups = s.maybe[p] if 0 <= p < len(s.maybe) else {}
    if not groups:
        return {}
    open_zones = 0
    known = s.known
    for z, cards in enumerate(s.zones):
        if any(c != EMPTY and not known[c] >> p & 1 for c in cards):
            open_zones |= 1 << z
    found = {c: mask & open_zones for mask, cards in groups.items() for c in cards}
    return dict(sorted(found.items()))


def public_whereabouts(s: GameState) -> dict[int, int]:
    """What every party knows partly, and alike: a card every seat and the house know to
    lie in the same zones (what the table as a whole may say of it)."""
    seats = [whereabouts(s, p) for p in parties(s.everyone)]
    if not seats or not seats[0]:
        return {}
    first = seats[0]
    return {c: mask for c, mask in first.items() if all(w.get(c) == mask for w in seats[1:])}


# ------------------------------------------------------------------- clues
def tell_cards(b: Board, s: GameState, who: int, cards: list[int], marks: list[bool],
               faces: list[bool]) -> None:
    """A clue said aloud to `who`: of each card of `cards`, whether a condition holds
    (`marks`), the condition holding of the faces of `b.faces` as `faces` says. Each card's
    told faces narrow to those it could be; the event log records the answers by place."""
    if not s.knowing:
        return
    every = yes = 0
    for f, holds in zip(b.faces, faces):
        every |= 1 << f
        if holds:
            yes |= 1 << f
    told = dict(s.told)
    for c, holds in zip(cards, marks):
        mask = told.get(c, every) & (yes if holds else every & ~yes)
        if not mask >> b.face[c] & 1:
            raise RuleFault("a clue's condition may read only what a card is (its rank, suit, "
                            "colour, values): it says one thing of a card and another of a "
                            f"copy of it ({b.card_names[c]})")
        told[c] = mask
    s.told = told
    if s.log is not None:
        for event in told_event(b, s, who, cards, marks):
            s.log.append(event)


def told_event(b: Board, s: GameState, who: int, cards: list[int],
               marks: list[bool]) -> list[dict[str, Any]]:
    """A clue's answers as the event log keeps them, one event per zone the cards lie in:
    the zone, its owner (from 1; 0: shared), the places (from 1) of the cards the condition
    holds of (`yes`) and of the others (`no`). Every party heard them."""
    events: dict[int, dict[str, Any]] = {}
    for c, holds in zip(cards, marks):
        z = s.where[c]
        event = events.get(z)
        if event is None:
            event = events[z] = {"effect": "tell", "seat": who + 1, "zone": b.names[z],
                                 "owner": b.owner[z] + 1, "yes": [], "no": []}
        event["yes" if holds else "no"].append(s.zones[z].index(c) + 1)
    return list(events.values())


def untold(s: GameState, cards: Iterable[int]) -> None:
    """The cards left the places a clue spoke of: what it told of them is dropped."""
    told = s.told
    gone = {c for c in cards if c in told}
    if gone:
        s.told = {c: mask for c, mask in told.items() if c not in gone}


def possible(b: Board, s: GameState, c: int) -> list[int]:
    """The faces card c may have as the clues told (one card of each face, in the deck's
    order): every face if nothing was told of it where it lies."""
    mask = s.told.get(c)
    if mask is None:
        return list(b.faces)
    return [f for f in b.faces if mask >> f & 1]


def copy_seen(b: Board, s: GameState, c: int, z: int, seeing: int, knew: int,
              shown: Iterable[int] = ()) -> None:
    """Card c, whose face has copies (a game of several decks), has just come into the sight
    of the parties of `seeing` (they know which card it is now) out of zone z: out of a hand
    it left (the order of a hand, not a grid, is its holder's alone), or out of a place
    where it lay unseen (turned up, peeked at, moved face up off a pile); `knew`: who knew
    it exactly before. A party cannot tell which copy of the face it saw, as at a table
    where copies are one face, so what it keeps must be the same whichever copy it was
    (two games that differ only in that look alike to it):

    - the copies it was tracking there are those of the face it knew exactly in that hand
      (face down: a card face up in a hand shows), those it knew partly to lie in z (in
      any of its zones), and c itself if it was one of these;
    - one of them may be the card it saw: of k tracked, k - 1 are left to track (all the
      others if c was tracked, else all but one: the highest numbered, a choice made from
      what the party knows alone);
    - where it tracked only exact copies, those left stay known exactly; where it tracked
      some partly, those left are known partly, to lie in z or in any zone one of them
      might have lain in.

    Out of a zone other than a hand a party that knew c exactly saw its very place, and
    learns nothing; a hand's holder sees which card it was. `shown`: the cards shown with c,
    all at once (a hand revealed): seen too, so none of them is one it has to keep track of.
    Without partial knowledge kept (`s.sight`: a search's samples, a kernel that reads
    `knows`), the exact rule alone holds (docs/language-design.md 3.3, rule 6)."""
    hand = b.visibility[z] == OWNER and not b.grid[z]
    if hand:  # (those who knew none of its cards, and did not learn this one, track none)
        seeing &= ~(1 << b.owner[z]) & (~knew | s.watchers[z])
    elif s.sight:  # (those who kept track of nothing there track no copy)
        seeing &= ~knew & s.watchers[z]
    else:
        return
    if not seeing:
        return
    face, known, up = b.face, s.known, s.face_up
    f = face[c]
    # (most sightings find nothing tracked: no copy in the hand known, nothing kept partly)
    twins = [d for d in s.zones[z] if d != EMPTY and d != c and face[d] == f
             and known[d] & seeing and not up[d] and d not in shown] if hand else []
    if not twins and not (s.sight and any(s.maybe[p] for p in parties(seeing))):
        return
    bit = 1 << z
    for p in parties(seeing):
        me = 1 << p
        exact = [d for d in twins if known[d] & me]
        tracked = hand and bool(knew & me)  # c was one of those it tracked
        partly: list[int] = []
        some_partly = False  # it tracked some partly (c, maybe)
        union = bit  # the zones any of them might lie in
        groups = s.maybe[p] if s.sight else {}
        for mask, cards in groups.items():
            if mask & bit:
                for d in cards:
                    if face[d] == f:
                        some_partly = True
                        union |= mask
                        if d == c:
                            tracked = True
                        elif d not in shown:
                            partly.append(d)
        left = exact + partly
        if not left:
            continue
        if not tracked:  # the one it saw may have been one of them: one fewer is left
            gone = max(left)
            left.remove(gone)
            if gone in exact:
                known[gone] &= ~me
                exact.remove(gone)
            else:
                groups = _without(groups, (gone,))
        if some_partly:  # those left are known partly, anywhere one of them might lie
            for d in exact:
                known[d] &= ~me
            groups = _joined(_without(groups, left), union, left) if left else groups
            for w in parties(union):
                s.watchers[w] |= me
        if groups is not s.maybe[p] and s.sight:
            s.maybe[p] = groups


# What the card rules' inlined code calls of this module (dsl/binding.py binds these names).
EXPORTED = ("unseen_move", "seen_again", "tell_cards", "untold", "possible", "copy_seen")
