"""Moves that undo each other: a note for the author where the rules allow going back and forth.

Two moves of one phase undo each other when each does nothing but carry cards between the
same two zones, the one from the first to the second, the other back: a seat may then shuttle a
card for ever, and a search that values positions may well do so. Where the rule file does not
forbid repetition (`repetition: forbid`), `validate` says so in a hint at the second move.

The reading is kept simple, so that it says nothing it cannot show: a move counts only if its
every statement is a `move` of cards whose zone it can name (a parameter chosen from a zone,
`top(Z)` or `bottom(Z)`, or a zone's cards), to a zone it can name, of the same owner written
the same way (`hand[me]`, or a shared zone); a move that sets a variable, scores, deals, or
reads a zone through an expression it cannot follow is never said to undo anything.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import ir

Zone = tuple[str, str]  # a zone's name and its owner as written ('' for a shared zone)


def undoing(program: ir.Program) -> Iterator[tuple[ir.Move, ir.Move, Zone, Zone]]:
    """Each pair (first, second, from, to) of moves of one phase where `first` only carries
    cards from `from` to `to` and `second` only carries them back; each pair once, the second
    being the later move in the file."""
    steps = [[*phase.steps] for phase in program.phases]
    for phase_steps in steps:
        moves = [m for step in phase_steps for m in step.moves]
        ways = [(m, _carries(m)) for m in moves]
        for i, (second, back) in enumerate(ways):
            if back is None:
                continue
            for first, there in ways[:i]:
                if there is not None and there == (back[1], back[0]):
                    yield first, second, there[0], there[1]
                    break


def zone_words(zone: Zone) -> str:
    """A zone as the rule text writes it: 'near', 'hand[me]'."""
    name, owner = zone
    return f"{name}[{owner}]" if owner else name


def _carries(move: ir.Move) -> tuple[Zone, Zone] | None:
    """(from, to) if every statement of the move carries cards from one zone to another, the
    same two each time; else None."""
    if not move.body:
        return None
    params = {p.name: p for p in move.params}
    found: set[tuple[Zone, Zone]] = set()
    for stmt in move.body:
        if not isinstance(stmt, ir.MoveCards):
            return None
        source = stmt.top_of if stmt.top_of is not None else _source(stmt.cards, params)
        start = _zone(source) if source is not None else None
        dest = _zone(stmt.to)
        if start is None or dest is None or start == dest:
            return None
        found.add((start, dest))
    return found.pop() if len(found) == 1 else None


def _source(cards: ir.Expr, params: dict[str, ir.Param]) -> ir.ZoneRef | None:
    """The zone the cards of a `move` come from, where it can be named."""
    if isinstance(cards, ir.Need):
        cards = cards.operand
    if isinstance(cards, ir.ZoneRef):
        return cards
    if isinstance(cards, ir.ZoneCards):
        return cards.ref
    if isinstance(cards, ir.Call) and cards.function in ("top", "bottom") \
            and isinstance(cards.args[0], ir.ZoneRef):
        return cards.args[0]
    if isinstance(cards, ir.Local) and cards.name in params:
        param = params[cards.name]
        if param.open or param.type.is_list:
            return None
        return _source(param.source, {})
    return None


def _zone(ref: ir.ZoneRef) -> Zone | None:
    """A zone's name and owner as written, if the owner is a plain name (`me`, `p`) or there
    is none, and it is not one group of a grouped zone."""
    if ref.group is not None:
        return None
    owner = ref.owner
    if owner is None:
        return (ref.zone.name, "")
    if isinstance(owner, (ir.Local, ir.StateName)):
        return (ref.zone.name, owner.name)
    return None
