"""Notes for the author on the checked program as a whole, which make nothing invalid: moves
that undo each other where repetition is allowed (dsl/undo.py), meld searches that may take
more cards than they manage inside their bound of work (dsl/check_melds.py), internal
variables that may keep what a card is (dsl/bookkeeping.py), play turned round in a phase
of one turn each."""

from __future__ import annotations

from collections.abc import Iterator

from cardrules.interpreter.meld_candidates import MOST_MELD_STEPS
from cardrules.model import CardTable, MeldKind

from . import decls as d
from . import ir
from . import nodes as n
from .bookkeeping import internal_sets
from .check_melds import SAFE_WILD_CARDS, large_wild_searches
from .undo import undoing, zone_words


def program_hints(decls: d.RulesetDecl, program: ir.Program, melds: tuple[MeldKind, ...],
                  cards: CardTable, copies: dict[int, int]) -> Iterator[tuple[n.Pos, str]]:
    """Each hint on the program: where it points, and what it says."""
    if decls.repetition != "forbid":
        for first, second, there, back in undoing(program):
            yield second.pos, (
                f"'{second.name}' can undo '{first.name}': one carries cards from "
                f"{zone_words(there)} to {zone_words(back)}, the other carries them back, and "
                "neither does anything else, so a seat may go back and forth for ever; "
                "`repetition: forbid` makes a move that returns the game to a position "
                "already seen not legal")
    in_play = cards.per_deck * max(copies.values(), default=1)
    for call, zone, most in large_wild_searches(program, melds, any(cards.wild), in_play):
        yield call.pos, (
            f"{call.function}() searches zone '{zone}', which may hold up to {most} cards: "
            f"with wild cards, a meld search of more than {SAFE_WILD_CARDS} cards may pass its "
            f"bound of {MOST_MELD_STEPS:,} steps and stop the game "
            "(benchmarks/meld_speed.py); search fewer cards at once where hands can grow "
            "that large")
    for phase in program.phases:
        if phase.turns != "each_once":
            continue
        for step in phase.steps:
            for move in step.moves:
                for node in ir.within(move.body):
                    if isinstance(node, ir.ReverseDirection):
                        yield node.pos, (
                            f"phase '{phase.name}' gives every seat one turn (`turns: "
                            "each_once`), counting turns: turning play round there gives the "
                            "seat before a second turn and leaves a seat without one")
    yield from loop_lets(program)
    yield from internal_sets(program)


def loop_lets(program: ir.Program) -> Iterator[tuple[n.Pos, str]]:
    """A `let` in a `while` or `until` block's body naming what the block's condition reads:
    it makes a name of its own for that time round, so the condition keeps reading the one
    from before the block, which never changes (the block then runs to its limit)."""
    for node in ir.within(program):
        if not isinstance(node, ir.Loop):
            continue
        read = {x.name for x in ir.within(node.test) if isinstance(x, ir.Local)}
        for stmt in ir.within(node.body):
            if isinstance(stmt, ir.Let) and stmt.name in read:
                yield stmt.pos, (
                    f"this `let {stmt.name}` makes a {stmt.name} of its own for one time round "
                    f"the block: the block's condition reads the {stmt.name} from before it, "
                    "which never changes; keep what changes from one time round to the next in "
                    "a variable (`variables:`, then `set`)")
