"""How the work bound weighs a rule (dsl/work.py): each part of an expression or a statement
a step, a loop its body's steps once for each item it may go through, a call its callee's
bound with what its arguments are known to be (dsl/known.py)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from cardrules.interpreter.meld_goals import MOST_GOAL_MELDS
from cardrules.interpreter.melding import MOST_LAYOUTS
from cardrules.interpreter.runtime import MOST_ITEMS, MOST_LISTED, MOST_NUMBERS
from cardrules.model import CardTable, ZoneDef

from . import ir, limits
from . import nodes as n
from .builtins import MELD_FUNCTIONS
from .known import Known, arithmetic, extreme, join, number
from .reads import drawing_functions, loop_invariant
from .typesys import Type

# Built-ins that go once through each of their list arguments.
_LINEAR = frozenset({
    "size", "cards", "position", "all_but_top", "same_rank", "same_suit", "is_set",
    "is_flush", "is_run", "is_run_high", "changes", "led_suit", "best_of_suit",
    "trick_winner", "random_card", "bottom", "top", "columns", "rows",
})


# The steps a whole action listed weighs besides the work of finding it: the list holds it
# (a tuple of its values, the memory of a few steps), so that the work bound bounds a
# listing's memory too, at a million actions (6 million took 1.25 GB).
LISTED_ACTION = 10

PosKey = tuple[int, str, str, int, int]


def pos_key(pos: n.Pos) -> PosKey:
    """A place of rule text, as the work bound and the code generator both name a loop."""
    origin = pos.origin
    return id(origin.doc), str(origin.path), str(origin.key), pos.offset, pos.end


Part = tuple[str, int, n.Pos]  # a rule, its steps, where it weighs most


@dataclass(frozen=True)
class Nested:
    """A loop through subsets or combinations of cards in play inside another: where it is,
    where the loop around it is, and the call of a function (its name, where it is called)
    that stands between them, if one does."""

    pos: n.Pos
    outer: n.Pos | None = None
    call: tuple[str, n.Pos] | None = None
    depth: int = 0  # how many such loops were around the outer one


class Weigher:
    """Weighs rules; `whole`: a loop through the cards in play (a zone, a meld search's
    answer) goes through every card in play, else once (what the rule text itself fixes)."""

    def __init__(self, program: ir.Program, cards: CardTable, players: int, whole: bool):
        self.program = program
        self.cards = len(cards.names) if whole else 1
        self.items = MOST_ITEMS if whole else 1  # a list a variable holds (held)
        self.search = 1  # (a meld search is bounded by its own MOST_MELD_STEPS)
        self.layouts = MOST_LAYOUTS if whole else 1
        self.ranks = len(set(cards.rank))
        self.suits = len(set(cards.suit))
        self.players = players
        self.tables = {**cards.values, "number": cards.number}
        self.functions = {f.name: f for f in program.functions}
        self.procedures = {p.name: p for p in program.procedures}
        self.drawing = drawing_functions(program.functions)
        self.hoisted: dict[int, Known] = {}  # pieces worked out once for a loop: one step
        self.memo: dict[tuple[str, tuple[Known, ...], int], tuple[int, Known]] = {}
        # of each call weighed once (`memo`), the loops nested through it, told again at
        # another call alike
        self.memo_nested: dict[tuple[str, tuple[Known, ...], int], list[Nested]] = {}
        self.busy: set[str] = set()
        self.depth = 0  # loops through subsets or combinations of cards in play, around here
        self.ways = 1  # the most items those loops go through, multiplied
        self.nested: list[Nested] = []  # where such a loop is inside another
        self.listing: list[n.Pos] = []  # those loops around here, outermost first
        # the calls of functions being weighed, outermost first: (name, where it is called,
        # how many of those loops were around it)
        self.calling: list[tuple[str, n.Pos, int]] = []
        self.per_item: dict[PosKey, int] = {}  # each loop's steps for one item, at most
        self.per_seat: set[str] = set()  # the rules one action may ask of every seat
        self.nest = 0  # loops (and function bodies) around here, in the rule being weighed
        self.inner: set[PosKey] = set()  # loops inside another, or in a function's body
        self.per_call: dict[PosKey, int] = {}  # a call inside no loop: its steps, at most

    # ------------------------------------------------------------------ rules
    def rules(self) -> Iterator[Part]:
        p = self.program
        for v in p.variables:
            if v.scope.startswith("player"):  # (each seat's, where it starts afresh)
                self.per_seat.add(f"variable '{v.name}'")
            yield from self.expression(f"variable '{v.name}'", v.initial)
        yield from self.block("the setup", p.setup)
        if p.round_first is not None:
            yield from self.expression("the round's first player", p.round_first)
        for phase in p.phases:
            what = f"phase '{phase.name}'"
            for part in (phase.when, phase.first, phase.skip_turn):
                if part is not None:
                    yield from self.expression(what, part)
            yield from self.block(f"{what}'s on_skip", phase.on_skip)
            for step in phase.steps:
                yield from self.step(step)
        if p.reactions is not None:
            for reaction in self.step(p.reactions):  # (listed for each seat in a window)
                self.per_seat.add(reaction[0])
                yield reaction
        yield from self.block("the round's end", p.round_end)
        for kind, triggers in p.triggers.items():
            for trigger in triggers:
                yield from self.trigger(kind, trigger)
        for score in p.scores:  # (each seat's, at a round's end)
            self.per_seat.add(f"score '{score.name}'")
            yield from self.expression(f"score '{score.name}'", score.value, self.scored())
        if p.evaluate is not None:
            yield from self.expression("the estimate (evaluate)", p.evaluate, self.scored())
        for what, part in (("the rounds", p.rounds), ("the match's end (until)", p.until),
                           ("tricks: suit", p.trick_suit), ("tricks: rank", p.trick_rank)):
            if part is not None:
                yield from self.expression(what, part)

    def scored(self) -> dict[str, Known]:
        return {"p": Known(), "card": Known()}

    def expression(self, rule: str, node: ir.Expr, env: dict[str, Known] | None = None
                   ) -> Iterator[Part]:
        steps, _ = self.expr(node, env or {})
        yield rule, steps, node.pos

    def block(self, rule: str, body: tuple[ir.Stmt, ...], env: dict[str, Known] | None = None
              ) -> Iterator[Part]:
        if not body:
            return
        env = dict(env or {})
        parts = [(self.stmt(s, env), s.pos) for s in body]
        yield rule, sum(steps for steps, _ in parts), max(parts, key=_steps)[1]

    def trigger(self, kind: str, trigger: ir.Trigger) -> Iterator[Part]:
        env: dict[str, Known] = {}
        parts = [(self.expr(trigger.when, env)[0], trigger.when.pos)] if trigger.when else []
        parts += [(self.stmt(s, env), s.pos) for s in trigger.body]
        if parts:
            yield f"trigger '{trigger.name}'", sum(s for s, _ in parts), max(parts, key=_steps)[1]

    def step(self, step: ir.Step) -> Iterator[Part]:
        for move in step.moves:
            env: dict[str, Known] = {}
            listing = self.expr(move.when, env)[0] if move.when is not None else 0
            times = 1
            listed, ways = self.depth, self.ways
            for param in move.params:  # (each parameter's choices go through the former's)
                steps, known = self.expr(param.source, env)
                item = known.item or Known()
                env[param.name] = item
                if known.listed:
                    if self.depth > listed and self.ways * known.most > limits.MAX_WORK:
                        self.nested.append(self.nesting(param.source.pos))
                    self.depth += 1
                    self.ways *= max(known.most, 1)
                where, each = self.loop_each([param.where], param.name, item, env,
                                             known.most) if param.where is not None else (0, 0)
                labels = sum(self.expr(value, env)[0] for value in move.label_values)
                # (each item of the last parameter's list is a whole action listed, and kept)
                kept = LISTED_ACTION if param is move.params[-1] else 0
                self.weigh_item(param.source.pos, 1 + each + labels + kept)
                listing += times * (steps + where)
                times *= max(known.most, 1)
                self.nest += 1  # (the next parameter's choices: inside this one's loop)
            self.nest -= len(move.params)
            self.depth, self.ways = listed, ways
            for value in move.label_values:
                listing += times * self.expr(value, env)[0]
            if move.params:
                listing += times * LISTED_ACTION
            yield f"move '{move.name}' (listing its choices)", listing, move.pos
            yield from self.block(f"move '{move.name}'", move.body, env)

    # -------------------------------------------------------------- statements
    def stmt(self, s: ir.Stmt, env: dict[str, Known]) -> int:
        if isinstance(s, ir.If):
            test = self.expr(s.test, env)[0]
            return test + max(self.body(s.then, env), self.body(s.otherwise, env))
        if isinstance(s, ir.For):
            steps, known = self.expr(s.source, env)
            inner = {**env, s.name: known.item or Known()}
            with self.through(known, s.pos), self.nested_loop():
                each = self.body(s.body, inner)
            self.weigh_item(s.pos, 1 + each)
            return steps + known.most * each
        if isinstance(s, ir.Loop):
            test = self.expr(s.test, env)[0]
            with self.nested_loop():
                each = test + self.body(s.body, env)
            self.weigh_item(s.pos, each)  # (a time round the block)
            return test + s.limit * each
        if isinstance(s, ir.Let):
            steps, known = self.expr(s.value, env)
            env[s.name] = known
            return steps + 1
        if isinstance(s, ir.ProcedureCall):
            args = [self.expr(a, env) for a in s.args]
            steps = 1 + sum(a for a, _ in args) + self.procedure(s.name, [k for _, k in args])
            self.weigh_call(s.pos, steps)
            return steps
        if isinstance(s, ir.Tell):
            steps, known = self.expr(s.source, env)
            inner = {**env, s.name: known.item or Known()}
            with self.nested_loop():
                each = 1 + self.expr(s.condition, inner)[0]
            self.weigh_item(s.pos, each)
            return steps + self.expr(s.player, env)[0] + known.most * each
        if isinstance(s, (ir.DealCards, ir.Shuffle)):
            return 1 + self.cards + sum(self.expr(e, env)[0] for e in _exprs(s))
        steps = 1
        for e in _exprs(s):  # (cards moved, flipped or shown: one step each)
            cost, known = self.expr(e, env)
            steps += cost + (known.most if e.type.is_list or e.type.name == "zone" else 0)
        return steps

    def body(self, body: tuple[ir.Stmt, ...], env: dict[str, Known]) -> int:
        inner = dict(env)
        return sum(self.stmt(s, inner) for s in body)

    def procedure(self, name: str, args: list[Known]) -> int:
        proc = self.procedures.get(name)
        if proc is None:
            return 1
        key = ("procedure " + name, tuple(args), self.ways)
        if key not in self.memo:
            env = {p: a for (p, _), a in zip(proc.params, args)}
            with self.nested_loop():  # (its loops counted where it is called)
                self.memo[key] = (self.body(proc.body, env), Known())
        return self.memo[key][0]

    # -------------------------------------------------------------- expressions
    def expr(self, node: ir.Expr, env: dict[str, Known]) -> tuple[int, Known]:
        """The most steps `node` takes, and what is known of its value."""
        hoisted = self.hoisted.get(id(node))
        if hoisted is not None:
            return 1, hoisted
        method = getattr(self, "expr_" + type(node).__name__, None)
        if method is None:
            return 1, self.default(node.type)
        return method(node, env)  # type: ignore[no-any-return]

    def exprs(self, nodes: tuple[ir.Expr | None, ...], env: dict[str, Known]
              ) -> tuple[int, list[Known]]:
        found = [self.expr(e, env) for e in nodes if e is not None]
        return sum(s for s, _ in found), [k for _, k in found]

    def default(self, t: Type) -> Known:
        """What is known of a value of type t alone: a list of cards holds at most every card
        in play, of players every player; any other list its numbers' limit."""
        if t.name == "zone":
            return Known(self.cards)
        if not t.is_list:
            return Known()
        item = t.item
        if item is not None and item.is_list:
            return Known(MOST_LISTED, self.default(item))
        if item is not None and item.name == "player":
            return Known(self.players)
        if item is not None and item.name in ("card", "rank", "suit", "colour"):
            return Known(self.cards, zoned=True)
        return Known(max(MOST_NUMBERS, self.cards))

    def zone(self, zone: ZoneDef) -> Known:
        if zone.layout == "grid":
            return Known(zone.rows * zone.columns)
        return Known(self.cards, zoned=True)

    def expr_Const(self, node: ir.Const, env: dict[str, Known]) -> tuple[int, Known]:
        v = node.value
        if isinstance(v, int) and not isinstance(v, bool):
            return 1, number(v, v)
        if isinstance(v, (list, tuple)):
            return 1, Known(len(v), self.default(node.type).item)
        return 1, Known()

    def expr_Local(self, node: ir.Local, env: dict[str, Known]) -> tuple[int, Known]:
        return 1, env.get(node.name, self.default(node.type))

    def expr_StateName(self, node: ir.StateName, env: dict[str, Known]) -> tuple[int, Known]:
        if node.name in ("players", "others"):
            return 1 + self.players, Known(self.players, Known())
        if node.name == "player_count":
            return 1, number(0, self.players)
        return 1, self.default(node.type)

    def expr_ZoneRef(self, node: ir.ZoneRef, env: dict[str, Known]) -> tuple[int, Known]:
        steps, _ = self.exprs((node.owner, node.group), env)
        return 1 + steps, self.zone(node.zone)

    def expr_ZoneCards(self, node: ir.ZoneCards, env: dict[str, Known]) -> tuple[int, Known]:
        steps, known = self.expr_ZoneRef(node.ref, env)
        return steps + known.most, known

    def held(self, t: Type) -> Known:
        """What is known of a value a variable holds: a list holds what play put in it (one
        joined to itself again and again grows: a list of players may hold many more than
        the players), up to MOST_ITEMS items; in what the rule text fixes it counts once, as
        a zone's cards do, and a rule that may go through more than the bound allows is
        counted while the game runs."""
        known = self.default(t)
        if not t.is_list:
            return known
        return Known(self.items, known.item, zoned=True, listed=known.listed)

    def expr_GameVar(self, node: ir.GameVar, env: dict[str, Known]) -> tuple[int, Known]:
        return 1, self.held(node.type)

    def expr_PlayerVar(self, node: ir.PlayerVar, env: dict[str, Known]) -> tuple[int, Known]:
        return 1 + self.expr(node.player, env)[0], self.held(node.type)

    def expr_PlayerAttr(self, node: ir.PlayerAttr, env: dict[str, Known]) -> tuple[int, Known]:
        return 1 + self.expr(node.player, env)[0], self.default(node.type)

    def expr_CardAttr(self, node: ir.CardAttr, env: dict[str, Known]) -> tuple[int, Known]:
        values = self.tables.get(node.name) if node.table or node.name == "number" else None
        known = number(min(values), max(values)) if values else self.default(node.type)
        return 1 + self.expr(node.card, env)[0], known

    def expr_Need(self, node: ir.Need, env: dict[str, Known]) -> tuple[int, Known]:
        steps, known = self.expr(node.operand, env)
        return steps + 1, known

    def expr_ListLiteral(self, node: ir.ListLiteral, env: dict[str, Known]
                         ) -> tuple[int, Known]:
        steps, items = self.exprs(node.items, env)
        item = None
        for k in items:
            item = k if item is None else join(item, k)
        return 1 + steps, Known(len(items), item)

    def expr_Join(self, node: ir.Join, env: dict[str, Known]) -> tuple[int, Known]:
        steps, (a, b) = self.exprs((node.left, node.right), env)
        item = a.item if b.item is None else b.item if a.item is None else join(a.item, b.item)
        return 1 + steps + a.most + b.most, Known(a.most + b.most, item, zoned=a.zoned or b.zoned,
                                                  listed=a.listed or b.listed)

    def expr_Index(self, node: ir.Index, env: dict[str, Known]) -> tuple[int, Known]:
        steps, (subject, _) = self.exprs((node.subject, node.index), env)
        return 1 + steps, subject.item or self.default(node.type)

    def expr_Slice(self, node: ir.Slice, env: dict[str, Known]) -> tuple[int, Known]:
        steps, (subject, *bounds) = self.exprs((node.subject, node.start, node.stop), env)
        most = subject.most
        if node.start is None and node.stop is not None and bounds[-1].high is not None \
                and bounds[-1].high >= 0:
            most = min(most, bounds[-1].high)  # xs[:k]
        return 1 + steps + subject.most, Known(most, subject.item)

    def expr_Minus(self, node: ir.Minus, env: dict[str, Known]) -> tuple[int, Known]:
        steps, k = self.expr(node.operand, env)
        return steps + 1, number(None if k.high is None else -k.high,
                                  None if k.low is None else -k.low)

    def expr_Arithmetic(self, node: ir.Arithmetic, env: dict[str, Known]) -> tuple[int, Known]:
        steps, (a, b) = self.exprs((node.left, node.right), env)
        return 1 + steps, arithmetic(node.op, a, b)

    def expr_Comparison(self, node: ir.Comparison, env: dict[str, Known]) -> tuple[int, Known]:
        steps, known = self.exprs((node.left, node.right), env)
        return 1 + steps + sum(k.most for k in known if k.item is not None), Known()

    def expr_Membership(self, node: ir.Membership, env: dict[str, Known]) -> tuple[int, Known]:
        steps, (_, collection) = self.exprs((node.item, node.collection), env)
        return 1 + steps + collection.most, Known()

    def expr_Negation(self, node: ir.Negation, env: dict[str, Known]) -> tuple[int, Known]:
        return 1 + self.expr(node.operand, env)[0], Known()

    def expr_Conjunction(self, node: ir.Conjunction, env: dict[str, Known]
                         ) -> tuple[int, Known]:
        return 1 + self.exprs((node.left, node.right), env)[0], Known()

    expr_Disjunction = expr_Conjunction

    def expr_Conditional(self, node: ir.Conditional, env: dict[str, Known]
                         ) -> tuple[int, Known]:
        test = self.expr(node.test, env)[0]
        (a, ka), (b, kb) = self.expr(node.then, env), self.expr(node.otherwise, env)
        return 1 + test + max(a, b), join(ka, kb)

    def expr_Aggregate(self, node: ir.Aggregate, env: dict[str, Known]) -> tuple[int, Known]:
        steps, source = self.expr(node.source, env)
        item = source.item or Known()
        parts = [node.element, *([node.condition] if node.condition is not None else [])]
        inner = {**env, node.variable: item}
        # (the pieces worked out once for the loop are weighed outside it: `invariant`)
        with self.invariant(parts, node.variable, inner) as once, \
                self.through(source, node.pos):
            value = self.expr(node.element, inner)[1] if node.function in (
                "select", "first", "max", "min") else Known()
            steps += self.loop(parts, node.variable, item, inner, source.most, node.pos, once)
        if node.function in ("select", "sorted_by"):
            return steps, Known(source.most, value if node.function == "select" else item,
                                zoned=source.zoned, listed=source.listed)
        if node.function in ("max_by", "min_by"):
            return steps, item
        if node.function == "count":
            return steps, number(0, source.most)
        if node.function in ("first", "max", "min"):
            return steps, value
        return steps, Known()

    @contextmanager
    def through(self, source: Known, pos: n.Pos) -> Iterator[None]:
        """While weighing a loop through `source`: one through subsets or combinations of
        cards in play inside another is noted (`nested`)."""
        if not source.listed:
            yield
            return
        if self.depth and self.ways * source.most > limits.MAX_WORK:
            # (small lists of a few cards may nest: 35 ways of 3)
            self.nested.append(self.nesting(pos))
        self.depth += 1
        self.listing.append(pos)
        ways, self.ways = self.ways, self.ways * max(source.most, 1)
        try:
            yield
        finally:
            self.depth -= 1
            self.listing.pop()
            self.ways = ways

    def nesting(self, pos: n.Pos) -> Nested:
        """A loop through subsets or combinations of cards in play, at `pos`, inside another
        (`listing`): told where the rule text nests them, at the call of the function that
        holds it where one stands between the two."""
        outer = self.listing[-1] if self.listing else None
        return Nested(pos, outer, self.crossing(), len(self.listing) - 1)

    def crossing(self, default: tuple[str, n.Pos] | None = None) -> tuple[str, n.Pos] | None:
        """The outermost call being weighed that is made inside the innermost loop through
        such a list around here (`listing`), if any (else `default`)."""
        return next(((name, at) for name, at, around in self.calling
                     if around >= len(self.listing)), default)

    def weigh_item(self, pos: n.Pos, steps: int) -> None:
        """Note the steps one item of the loop written at `pos` takes (the most of every
        place it is weighed at: a function's, at each call)."""
        key = pos_key(pos)
        self.per_item[key] = max(self.per_item.get(key, 0), steps)
        if self.nest:
            self.inner.add(key)

    @contextmanager
    def nested_loop(self, levels: int = 1) -> Iterator[None]:
        """While weighing what a loop does for one item: a loop written there is inside it."""
        self.nest += levels
        try:
            yield
        finally:
            self.nest -= levels

    def weigh_call(self, pos: n.Pos, steps: int) -> None:
        """Note the steps a call of a function or a procedure written at `pos` takes, where
        it is inside no loop of its rule (inside one, the loop's item counts them)."""
        if not self.nest:
            key = pos_key(pos)
            self.per_call[key] = max(self.per_call.get(key, 0), steps)

    def loop(self, parts: list[ir.Expr], bound: str, item: Known, env: dict[str, Known],
             most: int, pos: n.Pos | None = None, once: int | None = None) -> int:
        """The steps the parts of a loop take for `most` items: the pieces worked out once
        for the loop are weighed once (`once`: already, with `invariant`). Its steps for one
        item are noted at `pos`."""
        steps, each = self.loop_each(parts, bound, item, env, most, once)
        if pos is not None:
            self.weigh_item(pos, 1 + each)
        return steps

    def loop_each(self, parts: list[ir.Expr], bound: str, item: Known,
                  env: dict[str, Known], most: int, once: int | None = None
                  ) -> tuple[int, int]:
        """The steps of a loop's parts for `most` items, and for each (not counting the
        pieces worked out once; `once`: their steps, weighed already with `invariant`)."""
        if once is None:
            with self.invariant(parts, bound, env) as once:
                return self.loop_each(parts, bound, item, env, most, once)
        with self.nested_loop():
            each = sum(self.expr(part, {**env, bound: item})[0] for part in parts)
        return once + most * (1 + each), each

    @contextmanager
    def invariant(self, parts: list[ir.Expr], bound: str,
                  env: dict[str, Known]) -> Iterator[int]:
        """While weighing a loop's parts: the pieces of them that read nothing of its item
        (`loop_invariant`), weighed once, where the loop is (as the code works them out
        before it, or once where first needed), and read as worked out; their steps."""
        outer = {k: v for k, v in env.items() if k != bound}
        pieces = loop_invariant(parts, bound, self.drawing)
        once = 0
        for piece, _ in pieces:
            steps, known = self.expr(piece, outer)
            once += steps
            self.hoisted[id(piece)] = known
        try:
            yield once
        finally:
            for piece, _ in pieces:
                self.hoisted.pop(id(piece), None)

    def expr_UserCall(self, node: ir.UserCall, env: dict[str, Known]) -> tuple[int, Known]:
        steps, args = self.exprs(node.args, env)
        fn = self.functions.get(node.function)
        if fn is None or node.function in self.busy:
            return 1 + steps, self.default(node.type)
        key = (node.function, tuple(args), self.ways)
        if key not in self.memo:
            self.busy.add(node.function)
            self.calling.append((node.function, node.pos, len(self.listing)))
            found = len(self.nested)
            try:
                with self.nested_loop():  # (its loops counted where it is called)
                    self.memo[key] = self.expr(fn.value, {p: a for (p, _), a in
                                                          zip(fn.params, args)})
            finally:
                self.busy.discard(node.function)
                self.calling.pop()
            # (those whose outer loop is around this call: another call alike nests them too)
            self.memo_nested[key] = [e for e in self.nested[found:]
                                     if e.depth < len(self.listing)]
        else:  # the same call elsewhere nests the same loops: told at this call too
            call = self.crossing((node.function, node.pos))
            self.nested += [Nested(e.pos, self.listing[-1] if self.listing else e.outer, call,
                                   len(self.listing) - 1)
                            for e in self.memo_nested.get(key, ())]
        inner, known = self.memo[key]
        self.weigh_call(node.pos, 1 + steps + inner)
        return 1 + steps + inner, known

    def expr_Call(self, node: ir.Call, env: dict[str, Known]) -> tuple[int, Known]:
        steps, args = self.exprs(node.args, env)
        steps += 1
        f = node.function
        if f in _LINEAR or f == "sorted":
            steps += sum(a.most for a in args if a.item is not None or a.most > 1)
        if f in MELD_FUNCTIONS:
            return steps + self.search, self.melds(f)
        if f == "size":  # (as many as the list may hold: a zone's, as a loop through it)
            return steps, number(0, args[0].most)
        if f == "numbers":
            low, high = args[0].low, args[1].high
            most = MOST_NUMBERS if low is None or high is None else \
                max(0, min(high - low + 1, MOST_NUMBERS))
            return steps + most, Known(most, number(low, high))
        if f == "combinations":
            items, k = args[0].most, args[1]
            low, high = max(k.low or 0, 0), min(items if k.high is None else k.high, items)
            ways = max((math.comb(items, j) for j in _near_half(low, high, items)), default=0)
            ways = min(ways, MOST_LISTED)
            # (each way is cards in play too: its own subsets are listed as a zone's are)
            return steps + ways * max(high, 1), Known(ways, Known(high, args[0].item,
                                                                  zoned=args[0].zoned),
                                                      listed=args[0].zoned)
        if f == "subsets":
            items = min(args[0].most, MOST_LISTED.bit_length() - 1)  # (more: a fault)
            ways = 1 << items
            return steps + ways * max(items, 1), Known(ways, Known(items, args[0].item,
                                                                   zoned=args[0].zoned),
                                                       listed=args[0].zoned)
        if f == "ranks":
            return steps + self.ranks, Known(self.ranks)
        if f == "suits":
            return steps + self.suits, Known(self.suits)
        if f == "colours":
            return steps + 2, Known(2)
        if f in ("team", "possible"):
            most = self.players if f == "team" else self.cards
            return steps + most, Known(most)
        if f in ("columns", "rows"):
            return steps, self.grid(node, f)
        if f in ("min", "max", "abs"):
            return steps, extreme(f, args)
        if f in ("sorted", "cards", "all_but_top"):
            return steps, args[0]
        return steps, self.default(node.type)

    def grid(self, node: ir.Call, f: str) -> Known:
        zone = node.args[0]
        if isinstance(zone, ir.ZoneRef) and zone.zone.layout == "grid":
            rows, cols = zone.zone.rows, zone.zone.columns
            return Known(cols, Known(rows)) if f == "columns" else Known(rows, Known(cols))
        return Known(self.cards, Known(self.cards))

    def melds(self, f: str) -> Known:
        """What a meld search gives: layouts (at most MOST_LAYOUTS, of at most a goal's
        melds, or a meld a card), or melds (at most a card each), of at most every card."""
        meld = Known(self.cards)
        if f == "lay_downs":
            return Known(self.layouts, Known(MOST_GOAL_MELDS, meld))
        if f == "meld_layouts":
            return Known(self.layouts, Known(self.cards, meld))
        if f in ("melds_in", "best_melds"):
            return Known(self.cards, meld)
        return meld if f == "left_out" else Known()


def _steps(part: tuple[int, n.Pos]) -> int:
    return part[0]


def _near_half(low: int, high: int, items: int) -> list[int]:
    """The sizes of a choice among low..high that may give the most ways: the ends, and
    the one nearest half the items."""
    if low > high:
        return []
    half = min(max(items // 2, low), high)
    return [low, high, half]


def _exprs(s: ir.Stmt) -> list[ir.Expr]:
    """The expressions a simple statement reads."""
    out: list[ir.Expr] = []
    for name in getattr(s, "__dataclass_fields__", {}):
        value = getattr(s, name)
        if isinstance(value, ir.Expr):
            out.append(value)
        elif isinstance(value, tuple):
            out.extend(v for v in value if isinstance(v, ir.Expr))
    return out
