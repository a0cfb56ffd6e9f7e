"""The turn flow, compiled: one handler per move that applies it and takes the game on.

The turn flow is written once, in interpreter/flow.py, and the engine plays every action
through it. Each move's handler here is that same flow specialised for the move, as the card
rules are (inline.py): what is known of the move before any game (its phase and step, where
its `then` leads, the phase's way of passing turns, which triggers the ruleset has: the
ruleset's `FlowFacts`, and each step's listing function) is put in, and the branches it
decides are dropped:

    def h_swap(S, me, A, F, listing):
        ...the move's own rules...
        S.version += 1
        S.actions += 1
        if S.signal:                       # a rule ended the turn, phase, round or game
            return signalled(F, S, me, listing)
        S.turns += 1                       # the last step: the turn ends
        ...who plays next, and that seat's legal actions

What is rare (a signal, a phase's or a round's end, turns missed, reaction windows) stays a
call to the flow's own functions, which generated code is handed with the `Flow` (`F`).
"""

from __future__ import annotations

import ast

from cardrules.model import FlowFacts

from . import ir, pyast
from .codegen import Generator
from .codegen_expr import local
from .inline import Ref

FLOW = ("F", "S", "me", "listing")  # the names the flow's functions are handed


def flow_facts(program: ir.Program, direction: int, forbid_repetition: bool = False
               ) -> FlowFacts:
    """What the turn flow knows of a program before any game (interpreter/flow.py reads the
    same facts at run time, from the Ruleset); `forbid_repetition`: `repetition: forbid`."""
    phases = program.phases
    triggers = program.triggers
    return FlowFacts(
        repeat=tuple(tuple(step.repeat for step in phase.steps) for phase in phases),
        automatic=tuple(tuple(step.automatic for step in phase.steps) for phase in phases),
        each_once=tuple(phase.turns == "each_once" for phase in phases),
        skipping=tuple(phase.skip_turn is not None for phase in phases),
        after_move=bool(triggers.get("after_move")),
        after_turn=bool(triggers.get("after_turn")),
        before_turn=bool(triggers.get("before_turn")),
        reactions=program.reactions is not None,
        turn_to=uses(program, ir.TurnTo),
        ends_turns=any(isinstance(node, ir.Signal) and node.kind == "turn"
                       for node in ir.within(program)),
        # where rules turn play round, which way it goes is the game's (0: read it there)
        direction=0 if uses(program, ir.ReverseDirection) else direction,
        forbid_repetition=forbid_repetition)


class FlowGenerator:
    """Adds the move handlers to a Generator's module."""

    def __init__(self, gen: Generator, facts: FlowFacts):
        self.gen = gen
        self.facts = facts
        program = gen.checked.program
        self.program = program
        # What the handlers know of the `Flow` they are handed: its facts, and each step's
        # listing function by its name in this module.
        self.known = {"F": {"facts": facts,
                            "legal": tuple(tuple(Ref(gen.manifest.legal[i, step.name])
                                                 for step in p.steps)
                                           for i, p in enumerate(program.phases)),
                            # the triggers the ruleset has, called by name
                            **{kind: Ref(name) for kind, name in gen.manifest.triggers.items()
                               if kind in ("after_move", "after_turn", "before_turn")}}}

    def generate(self) -> None:
        for index, phase in enumerate(self.program.phases):
            for number, step in enumerate(phase.steps):
                for move in step.moves:
                    self.handler(index, number, move)

    def handler(self, index: int, number: int, move: ir.Move) -> None:
        """`h_MOVE(S, me, A, F, listing)`: the move's rules, then the flow after it."""
        gen = self.gen
        unpack = [pyast.assign(local(p.name), pyast.subscript(pyast.name("A"), pyast.const(i)))
                  for i, p in enumerate(move.params, 1)]
        body = unpack + gen.body(move.body, tuple(p.name for p in move.params),
                                 ("move", move.name))
        args = {name: pyast.name(name) for name in FLOW}
        where = {"phase": index, "step": number, "then": move.then}
        if "move_made" in gen.inliner.defs:
            flow = gen.inliner.statements("move_made", {**args, **where}, self.fact_locals(),
                                          self.known)
        else:  # (the flow's source cannot be read: it is called instead, the same rules)
            flow = [ast.Return(pyast.call("move_made", *args.values(),
                                          *map(pyast.const, where.values())))]
        gen.tag(flow, gen.site(move.pos))
        gen.manifest.handlers[move.name] = gen.add_function(
            f"h_{move.name}", ["S", "me", "A", "F", "listing"], body + flow, move.pos)

    def fact_locals(self) -> dict[str, bool]:
        """The flow's `Fact` locals, by name (interpreter/flow.py)."""
        facts = self.facts
        return {"triggered": facts.after_move, "after": facts.after_turn,
                "named": facts.turn_to, "begins": facts.before_turn, "caching": facts.caching,
                "ending": facts.ends_turns}


def uses(program: ir.Program, kind: type[ir.Stmt]) -> bool:
    """Whether any statement of the program is of this kind (`turn to`, say)."""
    return any(isinstance(node, kind) for node in ir.within(program))
