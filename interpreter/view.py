"""A player's view: what one seat may see of a game, computed from the state.

A card's identity appears exactly when that seat knows it (its bit in `known`);
otherwise the card is a back (`None`). Hidden zones show only their count. A card the seat
knows only partly (it is in one of a few zones: interpreter/sight.py) is listed under
`maybe` in each zone it may be in; what clues told of a card where it lies is its `told`
(interpreter/sight.py). Card ids never appear in a view, only names, so nothing
can be decoded from it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from cardrules.model import Board, Ruleset, VariableDef

from . import melding
from .runtime import EMPTY, IN_PLAY, OWNER, total_now
from .sight import hand_apart, parties, whereabouts
from .state import GameState
from .words import told_words


def card_entry(rules: Ruleset, s: GameState, c: int, seat: int) -> dict[str, Any] | None:
    """One card as `seat` sees it: {"card": name or None, "up": bool}, and what clues told
    of it where it lies ("told": "red, not 3"), which everyone heard; None for an empty
    slot."""
    if c == EMPTY:
        return None
    shown = rules.cards.names[c] if s.known[c] >> seat & 1 else None
    if c in s.told:
        return {"card": shown, "up": s.face_up[c], "told": told_words(rules, s.told[c])}
    return {"card": shown, "up": s.face_up[c]}


def zone_view(rules: Ruleset, s: GameState, z: int, visibility: str, seat: int,
              maybe: dict[int, list[str]] | None = None, laid: bool = False) -> dict[str, Any]:
    """One zone as `seat` sees it: its count, its cards (unless hidden, until the game is over
    and the seat knows some of them), who played each
    card of a trick, and the cards it knows may be here (`maybe`: zone -> card names).
    `laid`: a group of a grouped zone of a `row` or `spread` layout, where a ruleset that
    declares melds lays them; one that holds a run shows it as the run climbs (laid_run)."""
    cards = s.zones[z]
    count = sum(1 for c in cards if c != EMPTY)
    here = maybe.get(z) if maybe else None
    if visibility == "hidden" and not (s.over and any(
            c != EMPTY and s.known[c] >> seat & 1 for c in cards)):
        # (once the game is over, a hidden zone whose cards the rules have shown lists them)
        return {"count": count, "maybe": here} if here else {"count": count}
    other = rules.board.visibility[z] == OWNER and rules.board.owner[z] != seat
    if hand_apart(rules.board, z, seat):  # (a grid's places are its own)
        cards = held_order(rules.board, s, cards, seat)
    run = laid_run(rules, s, cards) if laid else None
    if run is not None:
        cards = run[0]
    entries = [card_entry(rules, s, c, seat) for c in cards]
    if other:  # a card of another's hand it does not know: its back, whichever way it lies
        for entry in entries:
            if entry is not None and entry["card"] is None:
                entry["up"] = False
    if run is not None:  # a wild card in a gap: the card it stands for
        for i, c in enumerate(cards):
            entry = entries[i]
            if c in run[1] and entry is not None:
                entry["as"] = rules.cards.names[run[1][c]]
    if rules.board.trick[z]:  # a trick shows who played each card
        for c, entry in zip(cards, entries):
            if entry is not None:
                by = s.by[c]
                entry["by"] = by + 1 if by is not None else None
    if here:
        return {"count": count, "cards": entries, "maybe": here}
    return {"count": count, "cards": entries}


# The layouts whose groups a laid run is read in: not a stack (its top card is what the
# rules read, and what a view says is on top), a trick or a grid (its places are its own).
LAID = ("row", "spread")


def laid_run(rules: Ruleset, s: GameState,
             cards: list[int]) -> tuple[list[int], dict[int, int]] | None:
    """A group of a grouped zone as a laid run reads (melding.run_shown), where the ruleset
    declares melds and the group holds one run and nothing else, every card face up and
    known to every seat (so that every seat sees it alike, and the order tells nobody what
    it could not see): its cards in the order the run climbs, and each wild card in a gap
    with the card it stands for. None: the cards as they lie. Only for a group of a
    `row` or `spread` layout (LAID)."""
    if rules.melds is None or not cards or any(
            c == EMPTY or not s.face_up[c] or s.known[c] != s.everyone for c in cards):
        return None
    return melding.run_shown(rules.melds, cards)


def laid_names(rules: Ruleset,
               names: Sequence[str | None]) -> list[tuple[str, str | None]] | None:
    """A group's cards by name (a round's account, the table: view.table_cards) as a laid
    run reads in a view (laid_run): each name with the name of the card it stands for, or
    None; None where a card is not named or the cards are not one run."""
    if rules.melds is None or not names or any(n is None for n in names):
        return None
    melds = rules.melds
    copies: dict[str, list[int]] = {}
    for c, name in enumerate(rules.cards.names):
        copies.setdefault(name, []).append(c)
    cards = []
    for shown in names:
        left = copies.get(str(shown))
        if not left or len({(melds.wild[c], melds.rank[c], melds.suit[c]) for c in left}) > 1:
            return None  # (copies of one name that a run reads differently: a joker's colour)
        cards.append(left.pop(0))  # (two cards of one name: two of the deck's copies)
    run = melding.run_shown(rules.melds, cards)
    if run is None:
        return None
    every = rules.cards.names
    return [(every[c], every[run[1][c]] if c in run[1] else None) for c in run[0]]


def held_order(b: Board, s: GameState, cards: list[int], seat: int) -> list[int]:
    """The cards of a zone another party holds, as `seat` may see them: those it knows in
    the deck's order of their faces, then the others (each shown as a card's back: which
    way it lies in the hand is its holder's to see, zone_view). The order in the holder's
    hand is the holder's: it changes with which card went, which the others do not see (nor
    which copy of a card, in a game of several decks: `Board.face`); and a card that came
    into the hand lies at its end there. So the backs come in an order that tells nothing
    of how the hand was made, nor of which card is which: the cards in the deck's order,
    shuffled by a generator seeded afresh at every action from the game's seed (secret
    until the game is over), its count of actions and the seat; the order a person picking
    one of them among the others at a real table could not follow."""
    known = s.known
    mine = sorted((c for c in cards if c != EMPTY and known[c] >> seat & 1),
                  key=lambda c: (b.face[c], c))
    backs = tuple(sorted(c for c in cards if c != EMPTY and not known[c] >> seat & 1))
    return mine + list(_shuffled(s.seed, s.actions, seat, backs) if len(backs) > 1 else backs)


@lru_cache(maxsize=512)
def _shuffled(seed: int, actions: int, seat: int, cards: tuple[int, ...]) -> tuple[int, ...]:
    """`cards` shuffled by a generator seeded from the game's seed, its count of actions and
    the seat (`held_order`; kept, as every view, page and tensor of the moment asks again)."""
    out = list(cards)
    random.Random((seed << 48) ^ (actions << 8) ^ seat).shuffle(out)
    return tuple(out)


def maybe_by_zone(rules: Ruleset, s: GameState, seat: int) -> dict[int, list[str]]:
    """For each zone, the cards `seat` knows only partly and that may lie there, by name in
    the deck's order of their faces (which copy of a card it is, no seat tells)."""
    out: dict[int, list[str]] = {}
    face = rules.board.face
    for c, mask in sorted(whereabouts(s, seat).items(), key=lambda item: face[item[0]]):
        for z in parties(mask):
            out.setdefault(z, []).append(rules.cards.names[c])
    return out


def player_view(rules: Ruleset, s: GameState, seat: int) -> dict[str, Any]:
    """Everything `seat` (0-based) may see now, as JSON-ready data; seats shown from 1."""
    zones: dict[str, Any] = {}
    maybe = maybe_by_zone(rules, s, seat)
    for zone in rules.zones:
        if zone.groups and not zone.owned:  # the table's piles: a list of its groups
            zones[zone.name] = [zone_view(rules, s, z, zone.visibility, seat, maybe,
                                          zone.layout in LAID) for z in zone.instances(0)]
        elif zone.groups:
            zones[zone.name] = {owner: [zone_view(rules, s, z, zone.visibility, seat, maybe,
                                                  zone.layout in LAID)
                                        for z in zone.instances(p)] for owner, p in owners(s)}
        elif zone.owned:
            zones[zone.name] = {owner: zone_view(rules, s, zone.zone_of(p), zone.visibility,
                                                 seat, maybe) for owner, p in owners(s)}
        else:
            zones[zone.name] = zone_view(rules, s, zone.index, zone.visibility, seat, maybe)
    phase = rules.phases[s.phase]
    view = {
        "ruleset": rules.name,
        "seat": seat + 1,
        "players": s.n,
        "round": s.round,
        "rounds": s.rounds_total,
        "dealer": s.dealer + 1,
        "to_move": None if s.over else (s.window[0] if s.window else s.current) + 1,
        "phase": phase.name,
        "step": phase.steps[s.step].name,
        "zones": zones,
        "variables": _game_variables(rules, s, seat),
        "player_variables": _player_variables(rules, s, seat),
        "totals": totals_now(rules, s),
        "round_scores": [list(r) for r in s.round_scores],
        "over": s.over,
        "winners": [w + 1 for w in s.winners] if s.over and s.winners else [],
    }
    if rules.flow is not None and rules.flow.direction == 0:  # rules that turn play round
        view["direction"] = "in seat order" if s.direction > 0 else "against seat order"
    if rules.house is not None:
        view["house"] = house_view(rules, s, seat)
    return view


def owners(s: GameState) -> list[tuple[str, int]]:
    """The owners of a zone each player owns, as a view names them ('1'... and 'house'),
    with their player numbers."""
    owners = [(str(p + 1), p) for p in range(s.n)]
    if s.house >= 0:
        owners.append(("house", s.house))
    return owners


def secret(var: VariableDef, over: bool, round_over: bool = False) -> bool:
    """Whether a player variable's values are still kept from the other seats: one declared
    `visibility: owner` is, until the game is `over`, or, with `secret_until: round_end`,
    until its round is over (`round_over`: the round's account is being written)."""
    if var.visibility != "owner" or over:
        return False
    return not (round_over and var.secret_until == "round_end")


def house_view(rules: Ruleset, s: GameState, seat: int | None,
               over: bool | None = None, round_over: bool = False) -> dict[str, Any]:
    """The house as `seat` may see it (None: as everyone may): its name, total, round
    scores, player variables (one declared `visibility: owner` hidden from every seat while
    `secret`), and at the end whether it won. Its zones are in the view's `zones`, under the
    owner 'house'."""
    assert rules.house is not None
    over = s.over if over is None else over
    return {"name": rules.house.name, "total": s.house_total,
            "round_scores": list(s.house_scores),
            "variables": {var.name: None if secret(var, over, round_over)
                          else shown(rules, s, seat, var.shape, s.pvars[var.name][s.house])
                          for var in rules.variables if var.name in s.pvars and not var.internal},
            "winner": s.over and s.house_won}


def seen_values(rules: Ruleset, s: GameState, seat: int) -> dict[tuple[str, int], Any]:
    """The variables as `seat`'s view shows them (no internal one; another's secret as
    None), by name and player (-1 for a game or round variable): what a person's news
    compares before and after an action."""
    out = {(name, -1): value for name, value in _game_variables(rules, s, seat).items()}
    for name, values in _player_variables(rules, s, seat).items():
        out.update(((name, p), value) for p, value in enumerate(values))
    return out


def values_seen(rules: Ruleset, s: GameState) -> tuple[int, list[dict[tuple[str, int], Any]]]:
    """The rounds scored so far and every seat's `seen_values`, in seat order: what
    `with_values` compares with after an action."""
    return len(s.round_scores), [seen_values(rules, s, p) for p in range(s.n)]


def with_values(rules: Ruleset, s: GameState,
                before: tuple[int, list[dict[tuple[str, int], Any]]],
                events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`events` (what an action logged) with the effect that tells the variables each seat's
    view shows that the action changed since `before` (`values_seen` then), for the news
    (present/news.py, `values`: per seat, [name, player or -1, before, after]): last; or,
    where the action ended a round, just before that round's end, as the variables were
    then (the `round_end` event holds each seat's, `told`), the round's account telling
    the rest. No effect where no seat sees a change."""
    rounds, then_seen = before
    if len(s.round_scores) == rounds:
        changed = _changed(then_seen, values_seen(rules, s)[1])
        return events + [changed] if changed else events
    for index, event in enumerate(events):
        told = event.get("told") if event.get("event") == "round_end" else None
        if isinstance(told, list):
            ended = [{(name, owner): value for name, owner, value in each["values"]}
                     for each in told]
            changed = _changed(then_seen, ended)
            return events[:index] + [changed] + events[index:] if changed else events
    return events


def _changed(then_seen: list[dict[tuple[str, int], Any]],
             now_seen: list[dict[tuple[str, int], Any]]) -> dict[str, Any] | None:
    changed = [[[name, owner, then.get((name, owner)), value]
                for (name, owner), value in now.items() if then.get((name, owner)) != value]
               for then, now in zip(then_seen, now_seen)]
    return {"effect": "values", "changed": changed} if any(changed) else None


def _player_variables(rules: Ruleset, s: GameState, seat: int) -> dict[str, list[Any]]:
    """Player variables; one declared `visibility: owner` shows only its owner's value
    (None for the others) while it is `secret`: the view is of a round in play."""
    out = {}
    for var in rules.variables:
        if var.name not in s.pvars or var.internal:
            continue
        hide = secret(var, s.over)
        out[var.name] = [shown(rules, s, seat, var.shape, v)
                         if not hide or p == seat else None
                         for p, v in enumerate(s.pvars[var.name][:s.n])]
    return out


def public_variables(rules: Ruleset, s: GameState, over: bool,
                     round_over: bool = False) -> dict[str, list[Any]]:
    """Player variables as every seat may see them (the public event log): a card named only
    if everyone knows it, and a variable declared `visibility: owner` shown only once it is
    no longer `secret` (the game `over`, or with `secret_until: round_end` the round, when
    `round_over`; None until then); internal variables never."""
    return {var.name: [None if secret(var, over, round_over)
                       else shown(rules, s, None, var.shape, v)
                       for v in s.pvars[var.name][:s.n]]
            for var in rules.variables if var.name in s.pvars and not var.internal}


def _game_variables(rules: Ruleset, s: GameState, seat: int) -> dict[str, Any]:
    return {var.name: shown(rules, s, seat, var.shape, s.vars[var.name])
            for var in rules.variables if var.name in s.vars and not var.internal}


def shown(rules: Ruleset, s: GameState, seat: int | None, shape: tuple[str, ...],
          value: Any) -> Any:
    """A variable's value as the seat sees it (no seat: as everyone does), in the view's
    terms: a card by its name if the seat knows it (else None: a card id would tell which
    card it is), a player by seat number from 1, a rank, suit or colour by its name."""
    if value is None:
        return None
    kind = shape[0] if shape else "any"
    if kind == "list":  # (a list of lists of cards too: each card as the seat knows it)
        return [shown(rules, s, seat, shape[1:], v) for v in value]
    if kind == "card":
        known = s.known[value]
        seen = known == s.everyone if seat is None else known >> seat & 1
        return rules.cards.names[value] if seen else None
    if kind == "player":
        return "house" if value == s.house else value + 1
    if kind == "rank":
        return rules.cards.rank_names[value]
    if kind == "suit":
        return rules.cards.suit_names[value]
    if kind == "colour":
        return ("red", "black", "none")[value]
    return value


def table_cards(rules: Ruleset, s: GameState, public: bool = False,
                seat: int | None = None) -> dict[str, Any]:
    """Every zone's cards by name, face up or not: the whole truth; with `public`, only the
    cards everyone knows are named (the others are None), as the event log shows, a zone its
    holder alone sees in the table's order (those named first, in the deck's order); with
    `seat` as well, the cards that seat knows are named too (what the seat can tell of the
    table)."""
    names, face, board = rules.cards.names, rules.board.face, rules.board
    everyone = s.everyone
    mine = 0 if seat is None else 1 << seat

    def named(c: int) -> bool:
        return c >= 0 and (not public or s.known[c] == everyone or bool(s.known[c] & mine))

    out: dict[str, Any] = {}
    for zone in rules.zones:
        def cards(z: int) -> list[str | None]:
            held = s.zones[z]
            if public and board.visibility[z] == OWNER:
                # a hand in the table's order, not its holder's (which the table never saw):
                # the cards named first, in the deck's order, then the others
                seen = sorted((c for c in held if named(c)), key=lambda c: (face[c], c))
                return [names[c] for c in seen] + [None] * (len(held) - len(seen))
            return [names[c] if named(c) else None for c in held]
        if zone.groups and not zone.owned:
            out[zone.name] = [cards(z) for z in zone.instances(0)]
        elif zone.groups:
            out[zone.name] = {owner: [cards(z) for z in zone.instances(p)]
                              for owner, p in owners(s)}
        elif zone.owned:
            out[zone.name] = {owner: cards(zone.zone_of(p)) for owner, p in owners(s)}
        else:
            out[zone.name] = cards(zone.index)
    return out


def seen_apart(public: dict[str, Any], seen: dict[str, Any]) -> dict[str, Any]:
    """What of `seen` (a seat's `table_cards`) differs from `public` (the table's): the zones,
    and of a zone each holder owns, the holders, where the seat can tell more."""
    out: dict[str, Any] = {}
    for name, cards in seen.items():
        if cards == public[name]:
            continue
        if isinstance(cards, dict):
            out[name] = {owner: held for owner, held in cards.items()
                         if held != public[name][owner]}
        else:
            out[name] = cards
    return out


def card_places(rules: Ruleset, s: GameState, seat: int) -> dict[int, list[Any]]:
    """Where each card lies, as a path into `seat`'s player view's `zones`: [zone name,
    owner ('1'... or None), group (or None), slot]. A page uses it to find the card a legal
    action names among those it draws; it tells where cards are, never what they are (in
    another's hand, the slot of the view's own order)."""
    places: dict[int, list[Any]] = {}
    board = rules.board

    def note(z: int, name: str, owner: str | None, group: int | None,
             laid: bool = False) -> None:
        cards = s.zones[z]
        if hand_apart(board, z, seat):
            cards = held_order(rules.board, s, cards, seat)
        run = laid_run(rules, s, cards) if laid else None
        if run is not None:  # (as the view shows it)
            cards = run[0]
        for slot, c in enumerate(cards):
            if c != EMPTY:
                places[c] = [name, owner, group, slot]

    for zone in rules.zones:
        if zone.groups and not zone.owned:
            for g, z in enumerate(zone.instances(0)):
                note(z, zone.name, None, g, zone.layout in LAID)
        elif zone.groups:
            for owner, p in owners(s):
                for g, z in enumerate(zone.instances(p)):
                    note(z, zone.name, owner, g, zone.layout in LAID)
        elif zone.owned:
            for owner, p in owners(s):
                note(zone.zone_of(p), zone.name, owner, None)
        else:
            note(zone.index, zone.name, None, None)
    return places


def totals_now(rules: Ruleset, s: GameState) -> list[int]:
    """Each seat's total as the table's score sheet has it now: with the points scored
    during play this round (`score N to P`, as `p.total` reads it), not yet in the totals."""
    if IN_PLAY not in s.pvars:
        return list(s.totals)
    return [total_now(s, p, rules.scored_teams) for p in range(s.n)]
