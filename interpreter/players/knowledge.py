"""What one seat knows of a game, and samples of the rest that agree with it.

A seat knows a card's identity exactly when the card's bit for that seat is set in
`state.known`, and partly when it knows the card is in one of a few zones
(interpreter/sight.py). Everything else about the layout (how many cards lie in each zone
and slot, which are face up) is public. A *determinization* for a seat re-deals the cards it
does not know exactly among the places that hold such cards, each partly known card in one
of its zones, so that everything it has seen stays put and the hidden cards are consistent
with what it saw.

Nothing here reads a card's identity except through what the seat knows: the positions of
unknown cards are used only as "a place holding an unknown card", never for which card it
is. What clues told of a place (sight.py: the faces the card lying there may be) is a
constraint too: only a card of one of those faces is dealt there, and the told faces stay
with the place. The partly known cards are placed first, each at random among the free places of its
zones (a fresh start, then a search for an augmenting path, if that runs into a dead end);
the others are shuffled into the places left. Where the seat knows nothing partly, that is
one shuffle of the unknown cards, drawn from the generator as it always was.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from ..runtime import EMPTY, OWNER
from ..sight import whereabouts
from ..state import GameState


def unknown_positions(state: GameState, seat: int) -> list[tuple[int, int]]:
    """(zone, index) of every place holding a card `seat` does not know, in board order."""
    known = state.known
    out = []
    for z, cards in enumerate(state.zones):
        for i, c in enumerate(cards):
            if c != EMPTY and not known[c] >> seat & 1:
                out.append((z, i))
    return out


def nothing_hidden(rules: Any, state: GameState, seat: int) -> bool:
    """Whether a determinization for `seat` would draw nothing afresh: the seat knows every
    card (so none is re-dealt or relabelled), no other party holds two cards or more in a
    hand whose order the seat does not see, and no other seat keeps a secret variable (a
    sample sets each to the seat's own value). The game itself then differs from any sample
    only in what no position and no rule reads: its generator (a sample's is reseeded: a
    move that meets chance is news either way), its seed, the other parties' partial
    knowledge. A look over every card and zone, far cheaper than a sample."""
    mask = 1 << seat
    if not all(k & mask for k in state.known):
        return False
    board = rules.board
    for z, cards in enumerate(state.zones):
        if board.visibility[z] == OWNER and board.owner[z] != seat and len(cards) > 1 \
                and sum(c != EMPTY for c in cards) > 1:
            return False
    return state.over or not any(var.visibility == "owner" and var.name in state.pvars
                                 for var in rules.variables)


def possible_locations(state: GameState, seat: int) -> dict[int, set[int]]:
    """For each card: the zones it may be in, as far as `seat` can tell.

    A card the seat knows is where it is; a card it knows partly is in one of its zones;
    a card it does not know may be in any zone that holds a card unknown to the seat.
    """
    known = state.known
    hidden_zones = {z for z, _ in unknown_positions(state, seat)}
    partly = whereabouts(state, seat)
    out: dict[int, set[int]] = {}
    for c in range(state.n_cards):
        if known[c] >> seat & 1:
            out[c] = {state.where[c]}
        elif c in partly:
            out[c] = {z for z in hidden_zones if partly[c] >> z & 1}
        else:
            out[c] = set(hidden_zones)
    return out


def determinize_with_map(engine: Any, state: GameState, seat: int,
                         rng: random.Random) -> tuple[GameState, dict[int, int]]:
    """A determinization for `seat` and the relabelling it made: `mapping[c]` is the card
    now lying where card c lay (identity for every card the seat knows).

    Per place, what is public or belongs to the place (face up or not, which seats know the
    card there) stays with the place; only the card identities move. The copy's random
    generator is reseeded from `rng`, so future shuffles and draws are not foreseen either,
    and its seed is drawn afresh (the game's would deal the true hands again).
    Player variables declared secret (`visibility: owner`) of the other seats are replaced
    by the seat's own value, which it knows, so their true values are not read.
    """
    det = state.copy()
    positions = unknown_positions(state, seat)
    cards = [state.zones[z][i] for z, i in positions]
    # Deal the unknown cards from a fixed order (sorted), so the sample depends only on
    # which cards are unknown and what the seat knows of them, never on where they truly are.
    told = state.told
    faces = {index: told[c] for index, c in enumerate(cards) if c in told}
    face = getattr(getattr(engine, "rules", None), "board", None)
    drawn = deal_unknown(sorted(cards), positions, whereabouts(state, seat), rng,
                         faces, face.face if face is not None and faces else ())
    mapping = {c: c for c in range(state.n_cards)}
    old_known = state.known
    old_up = state.face_up
    old_by = state.by
    for (z, i), old, new in zip(positions, cards, drawn):
        det.zones[z][i] = new
        det.where[new] = z
        det.known[new] = old_known[old]
        det.face_up[new] = old_up[old]
        det.by[new] = old_by[old]
        mapping[old] = new
    if told:  # what was told of a place stays with it, whichever card lies there now
        det.told = {mapping[c]: mask for c, mask in told.items()}
    rules = getattr(engine, "rules", None)
    if rules is not None:  # a variable naming a card names the card now where it lay
        relabel_variables(rules.variables, det, mapping)
    fresh = rng.getrandbits(64)
    det.reseed(fresh)
    # The game's seed deals the true hands (new_game): a sample keeps a seed of its own,
    # drawn with its generator's. No seed deals a sample; this one only tells it apart.
    det.seed = fresh >> 32
    if rules is not None:
        shuffle_held_orders(rules.board, det, seat, rng)
    det.version += 1
    det.legal_cache = None
    # The other parties' partial knowledge was of where the true cards are: not of these.
    # A sample is searched, never shown: it keeps none from here on (what every party
    # knows exactly still follows the rules, as a rule may ask it).
    det.maybe = [groups if p == seat else {} for p, groups in enumerate(det.maybe)]
    det.sight = False
    if rules is not None and not state.over:
        for var in rules.variables:
            if getattr(var, "visibility", None) == "owner" and var.name in det.pvars:
                values = det.pvars[var.name]
                det.pvars[var.name] = [values[seat] for _ in values]
    return det, mapping


def relabel_variables(variables: Any, det: GameState, mapping: dict[int, int]) -> None:
    """Each variable that holds a card, or cards in lists, made to hold the card `mapping`
    put where each card lay: the sample is the game with the unknown cards relabelled, and a
    variable left naming the true card would say which card lies there."""
    for var in variables:
        if not var.names_cards:
            continue
        shape = var.shape
        if var.name in det.vars:
            det.vars[var.name] = _relabelled(det.vars[var.name], shape, mapping)
        elif var.name in det.pvars:
            det.pvars[var.name] = [_relabelled(v, shape, mapping) for v in det.pvars[var.name]]


def _relabelled(value: Any, shape: tuple[str, ...], mapping: dict[int, int]) -> Any:
    """A value of the type `shape` (outermost first) with each card it names relabelled."""
    if value is None or not shape:
        return value
    if shape[0] == "card":
        return mapping[value]
    if shape[0] == "list":
        return [_relabelled(v, shape[1:], mapping) for v in value]
    return value


def shuffle_held_orders(board: Any, det: GameState, seat: int, rng: random.Random) -> None:
    """The cards of each zone another party holds put in a random order among its places,
    where `seat` knows some of them: the seat does not see the holder's order (its view
    shows the cards it knows first, in the deck's order), so the sample must not keep it.
    Where it knows none, the deal of the unknown cards has made the order random already."""
    known = det.known
    for z, cards in enumerate(det.zones):
        if board.visibility[z] != OWNER or board.owner[z] == seat or len(cards) < 2 \
                or not any(c != EMPTY and known[c] >> seat & 1 for c in cards):
            continue
        places = [i for i, c in enumerate(cards) if c != EMPTY]
        held = sorted(cards[i] for i in places)  # (whatever the order they lay in)
        rng.shuffle(held)
        for i, c in zip(places, held):
            cards[i] = c


def deal_unknown(cards: list[int], positions: list[tuple[int, int]], partly: dict[int, int],
                 rng: random.Random, faces: dict[int, int] | None = None,
                 face: tuple[int, ...] = ()) -> list[int]:
    """The cards for `positions`, in their order: a random deal in which each card in
    `partly` lies in one of the zones of its mask, and the place of each index in `faces`
    gets a card whose face (`face[c]`, sight.py) is in its mask."""
    if faces:
        return _deal_told(cards, positions, partly, rng, faces, face)
    constrained = [c for c in cards if c in partly]
    if not constrained:
        rng.shuffle(cards)
        return cards
    free: dict[int, list[int]] = {}  # zone -> indices into positions still free
    for index, (z, _i) in enumerate(positions):
        free.setdefault(z, []).append(index)
    placed = _place_partly(constrained, partly, free, rng) or \
        _match_partly(constrained, partly, positions, rng)
    rest = [c for c in cards if c not in placed.values()]
    rng.shuffle(rest)
    out: list[int] = []
    for index in range(len(positions)):
        out.append(placed[index] if index in placed else rest.pop())
    return out


def _place_partly(cards: list[int], partly: dict[int, int], free: dict[int, list[int]],
                  rng: random.Random) -> dict[int, int] | None:
    """Each card at a random free place among its zones, in a random order (a card with
    more places is no likelier to be placed first); None at a dead end."""
    order = cards[:]
    rng.shuffle(order)
    taken: set[int] = set()
    placed: dict[int, int] = {}
    for c in order:
        places = [i for z, indices in free.items() if partly[c] >> z & 1 for i in indices
                  if i not in taken]
        if not places:
            return None
        index = places[int(rng.random() * len(places))]
        taken.add(index)
        placed[index] = c
    return placed


def _match_partly(cards: list[int], partly: dict[int, int], positions: list[tuple[int, int]],
                  rng: random.Random) -> dict[int, int]:
    """A placing of every card among its zones found by augmenting paths (there is one: the
    true deal), tried in a random order."""
    options = {c: [i for i, (z, _i) in enumerate(positions) if partly[c] >> z & 1]
               for c in cards}
    for places in options.values():
        rng.shuffle(places)
    holder: dict[int, int] = {}  # place index -> card

    def seat(c: int, seen: set[int]) -> bool:
        for index in options[c]:
            if index not in seen:
                seen.add(index)
                if index not in holder or seat(holder[index], seen):
                    holder[index] = c
                    return True
        return False

    for c in cards:
        if not seat(c, set()):  # pragma: no cover - what the seat knows is always true
            raise AssertionError("partial knowledge that no deal agrees with")
    return holder


def _deal_told(cards: list[int], positions: list[tuple[int, int]], partly: dict[int, int],
               rng: random.Random, faces: dict[int, int], face: tuple[int, ...]) -> list[int]:
    """deal_unknown where clues narrow some places: the places and cards with a constraint
    are matched first (a random order, then augmenting paths where it runs into a dead
    end), the rest shuffled into the places left."""

    def fits(c: int, index: int) -> bool:
        zone_ok = c not in partly or bool(partly[c] >> positions[index][0] & 1)
        return zone_ok and (index not in faces or bool(faces[index] >> face[c] & 1))

    bound = sorted(faces)
    bound_cards = [c for c in cards if c in partly]
    rng.shuffle(bound)
    holder: dict[int, int] = {}  # place index -> card
    placed: dict[int, int] = {}  # card -> place index
    order = cards[:]
    rng.shuffle(order)

    def seat_place(index: int, seen: set[int]) -> bool:
        for c in order:
            if c in seen or not fits(c, index):
                continue
            seen.add(c)
            if c not in placed or seat_place(placed[c], seen):
                holder[index], placed[c] = c, index
                return True
        return False

    for index in bound:
        if not seat_place(index, set()):  # pragma: no cover - the true deal fits
            raise AssertionError("clues that no deal agrees with")
    for c in bound_cards:  # a partly known card not yet placed: among its zones' free places
        if c in placed:
            continue
        places = [i for i in range(len(positions)) if i not in holder and fits(c, i)]
        if not places:  # pragma: no cover - a rare dead end: the partial-knowledge matcher
            return _deal_matched(cards, positions, fits, rng)
        index = places[int(rng.random() * len(places))]
        holder[index], placed[c] = c, index
    rest = [c for c in order if c not in placed]
    out: list[int] = []
    for index in range(len(positions)):
        out.append(holder[index] if index in holder else rest.pop())
    return out


def _deal_matched(cards: list[int], positions: list[tuple[int, int]],
                  fits: Callable[[int, int], bool], rng: random.Random) -> list[int]:
    """Every place matched to a card that fits it, by augmenting paths in a random order."""
    order = cards[:]
    rng.shuffle(order)
    holder: dict[int, int] = {}
    placed: dict[int, int] = {}

    def seat_place(index: int, seen: set[int]) -> bool:
        for c in order:
            if c not in seen and fits(c, index):
                seen.add(c)
                if c not in placed or seat_place(placed[c], seen):
                    holder[index], placed[c] = c, index
                    return True
        return False

    for index in range(len(positions)):
        if not seat_place(index, set()):  # pragma: no cover - the true deal fits
            raise AssertionError("knowledge that no deal agrees with")
    return [holder[index] for index in range(len(positions))]


def translate(engine: Any, action: tuple[Any, ...], mapping: dict[int, int]) -> tuple[Any, ...]:
    """The action with each card it names replaced by mapping[card]: an action of the real
    game as it reads in a sample made with `mapping` (determinize_with_map), which names a
    card the seat does not know by its place."""
    if action[0] not in engine.card_moves:
        return action
    out: list[Any] = [action[0]]
    for cards, arg in zip(engine.moves[action[0]].names_cards, action[1:]):
        out.append(_map_cards(arg, mapping) if cards else arg)
    return tuple(out)


def _map_cards(value: Any, mapping: dict[int, int]) -> Any:
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return mapping.get(value, value)
    if isinstance(value, tuple):
        return tuple(_map_cards(v, mapping) for v in value)
    if isinstance(value, list):
        return [_map_cards(v, mapping) for v in value]
    return value


def determinize(engine: Any, state: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy of `state` in which the cards `seat` does not know are re-dealt at random among
    the places holding cards it does not know (see determinize_with_map)."""
    return determinize_with_map(engine, state, seat, rng)[0]
