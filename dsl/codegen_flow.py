"""The turn flow, compiled: one handler per move that applies it and takes the game on.

The engine's generic `step` interprets the flow at every action: which step comes next, whether
the turn ends, who plays next, which triggers run. All of that is known for each move before any
game (its phase and step, its `then`, the step's repeat count, the phase's way of passing turns,
which triggers the ruleset has), so the generator writes it out per move:

    def h_swap(S, me, A, E, listing):
        ...the move's own rules...
        S.version += 1
        S.actions += 1
        if S.signal:                       # a rule ended the turn, phase, round or game
            return E.signalled(S, me, listing)
        S.turns += 1                       # the last step: the turn ends
        after_turn(S, me)
        ...who plays next, and that seat's legal actions

What is rare (a signal, the round's or the phase's end, turns missed, reaction windows) is
handed to the engine (`E`), which keeps the one generic implementation of it; the engine's
interpreted flow stays as the reference the compiled one is tested against, action by action.
"""

from __future__ import annotations

import ast

from . import ir, pyast
from .codegen import Generator, local

_END_ROUND_OR_GAME = 4 | 8
_END_PHASE = 2


class FlowGenerator:
    """Adds the move handlers to a Generator's module."""

    def __init__(self, gen: Generator):
        self.gen = gen
        program = gen.checked.program
        self.program = program
        self.has_reactions = program.reactions is not None
        self.after_move = bool(program.triggers.get("after_move"))
        self.after_turn = bool(program.triggers.get("after_turn"))
        self.before_turn = bool(program.triggers.get("before_turn"))
        self.turn_to = _uses_turn_to(program)

    def generate(self) -> None:
        for index, phase in enumerate(self.program.phases):
            for number, step in enumerate(phase.steps):
                for move in step.moves:
                    self.handler(index, phase, number, move)

    # --------------------------------------------------------------- handlers
    def handler(self, index: int, phase: ir.Phase, number: int, move: ir.Move) -> None:
        gen = self.gen
        unpack = [pyast.assign(local(p.name), pyast.subscript(pyast.name("A"), pyast.const(i)))
                  for i, p in enumerate(move.params, 1)]
        body = unpack + gen.block(move.body)
        flow = pyast.stmts("S.version += 1\nS.actions += 1")
        if self.after_move:
            flow += pyast.stmts("after_move(S, me)")
        flow += pyast.stmts("if S.signal:\n    return E.signalled(S, me, listing)")
        flow += self.transition(index, phase, number, move)
        gen.tag(flow, gen.site(move.pos))
        gen.add_function(f"h_{move.name}", ["S", "me", "A", "E", "listing"], body + flow,
                         move.pos)

    def transition(self, index: int, phase: ir.Phase, number: int,
                   move: ir.Move) -> list[ast.stmt]:
        """What follows the move: a jump, the step again, the next step, or the turn's end
        (the engine's generic flow, in the same order)."""
        steps = phase.steps
        if move.then is not None:
            return self.enter_step(index, phase, move.then)
        out: list[ast.stmt] = []
        if steps[number].repeat > 1:
            out.append(pyast.if_(pyast.expr("S.reps > 1"),
                                 pyast.stmts("S.reps -= 1") + self.listing(index, number)))
        if number + 1 < len(steps):
            return out + self.enter_step(index, phase, number + 1)
        return out + self.end_turn(index, phase)

    def enter_step(self, index: int, phase: ir.Phase, number: int) -> list[ast.stmt]:
        return pyast.stmts("S.step = _0\nS.reps = _1", pyast.const(number),
                           pyast.const(phase.steps[number].repeat)) + self.listing(index, number)

    def end_turn(self, index: int, phase: ir.Phase) -> list[ast.stmt]:
        """The engine's end of a turn, for this phase: who plays next, or the phase's or the
        round's end."""
        out = pyast.stmts("S.turns += 1")
        if self.after_turn:
            out += pyast.stmts("after_turn(S, me)\nif S.signal & _0:\n"
                               "    return E.round_done(S, me, listing)",
                               pyast.const(_END_ROUND_OR_GAME))
        if self.turn_to:  # a rule may have named the next seat
            out += pyast.stmts("nxt = E.next_seat(S, me)")
        else:
            out += pyast.stmts("nxt = (me + STEP) % S.n\nif not S.active[nxt]:\n"
                               "    nxt = next_seat(S, me, STEP)")
        if phase.skip_turn is not None:
            out += pyast.stmts("nxt = E.skip_turns(S, nxt)")
        if phase.turns == "each_once":
            out += pyast.stmts("S.turns_in_phase += 1\nif S.turns_in_phase >= sum(S.active):\n"
                               "    S.signal |= _0", pyast.const(_END_PHASE))
        out += pyast.stmts(
            "if S.signal & _0:\n    return E.phase_done(S, me, listing)\n"
            "if nxt == S.stop_before:\n    return E.round_done(S, me, listing)\n"
            "S.current = nxt\nS.step = 0\nS.reps = _1", pyast.const(_END_PHASE),
            pyast.const(phase.steps[0].repeat))
        if self.before_turn:  # the new turn's triggers may change anything: the engine goes on
            return out + pyast.stmts("E.begin_turn(S)\nreturn E.tail(S, me, listing)")
        if self.has_reactions:  # the engine lists the next seat's actions after the window
            return out + self.listing(index, 0)
        # The actor's `me` is spent: the listing is the next seat's.
        return out + pyast.stmts("me = nxt") + self.listing(index, 0)

    def listing(self, index: int, number: int) -> list[ast.stmt]:
        """The legal actions of step `number` for seat `me`, kept in the state and returned."""
        step = self.program.phases[index].steps[number]
        if self.has_reactions or step.automatic:  # a reaction window, or a forced action,
            return pyast.stmts("return E.tail(S, me, listing)")  # first: the engine's tail
        fn = pyast.name(f"legal_{index}_{step.name}")
        return pyast.stmts(
            "if not listing:\n    S.legal_cache = None\n    return []\n"
            "out = _legal(S, me)\nif not out:\n    E.stuck(S)\n"
            "S.legal_cache = (S.version, out)\nreturn out", legal=fn)


def _uses_turn_to(program: ir.Program) -> bool:
    """Whether any statement of the program is `turn to`."""
    def walk(stmts: tuple[ir.Stmt, ...]) -> bool:
        for stmt in stmts:
            if isinstance(stmt, ir.TurnTo):
                return True
            inner = [getattr(stmt, f, ()) for f in ("then", "otherwise", "body")]
            if any(walk(part) for part in inner if isinstance(part, tuple)):
                return True
        return False
    bodies = [program.setup, program.round_end]
    bodies += [m.body for p in program.phases for s in p.steps for m in s.moves]
    bodies += [p.on_skip for p in program.phases]
    bodies += [t.body for ts in program.triggers.values() for t in ts]
    if program.reactions is not None:
        bodies += [m.body for m in program.reactions.moves]
    return any(walk(b) for b in bodies)
