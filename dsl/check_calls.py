"""Stage 4 for calls: the meaning check of a call (a built-in function, or one of the
ruleset's own functions) and of an aggregate (`sum(c.points for c in hand[p])`), from syntax
nodes to the checked tree. ExpressionChecker (check_expr.py) is made of these checks and the
others; what they need of it is declared below."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager

from . import ir
from . import nodes as n
from .builtins import (
    AGGREGATES,
    FUNCTIONS,
    GOAL_FUNCTIONS,
    MELD_FUNCTIONS,
    TEAM_FUNCTIONS,
)
from .ir import BAD
from .names import did_you_mean
from .symbols import FunctionInfo, Symbols
from .typesys import (
    BOOL,
    CARDS,
    NONE,
    ZONE,
    Type,
    comparable,
    item_type,
    list_of,
    orderable,
)


class CallChecks:
    """The checks of calls and aggregates, a part of ExpressionChecker. The methods declared
    first are the rest of the checker's, which these use."""

    symbols: Symbols
    choosing = False  # while a move's `choose` domain is checked (words(...) is one)

    def check(self, node: n.Expr) -> ir.Expr:
        raise NotImplementedError

    def error(self, pos: n.Pos, message: str) -> ir.Expr:
        raise NotImplementedError

    def expect(self, code: ir.Expr, wanted: Type, pos: n.Pos, what: str) -> ir.Expr:
        raise NotImplementedError

    def needed(self, code: ir.Expr, pos: n.Pos, what: str) -> ir.Expr:
        raise NotImplementedError

    def iterable(self, node: n.Expr, code: ir.Expr | None = None) -> ir.Expr:
        raise NotImplementedError

    def clash(self, name: str, pos: n.Pos) -> bool:
        raise NotImplementedError

    def hides(self, name: str, pos: n.Pos, role: str) -> None:
        raise NotImplementedError

    def cards_of(self, node: n.Expr, what: str) -> ir.Expr:
        raise NotImplementedError

    def named_constant(self, t: Type, node: n.Text) -> ir.Expr:
        raise NotImplementedError

    def as_named(self, t: Type, code: ir.Expr, node: n.Expr) -> ir.Expr:
        raise NotImplementedError

    def bind(self, names: dict[str, Type]) -> AbstractContextManager[None]:
        raise NotImplementedError

    def uncoloured(self, pos: n.Pos) -> ir.Expr:
        raise NotImplementedError

    def check_call(self, node: n.Call) -> ir.Expr:
        if node.function in self.symbols.functions:  # the file's own, over any built-in
            return self.user_call(node)
        if node.function == self.symbols.writing and node.function not in FUNCTIONS \
                and node.function not in AGGREGATES:
            return self.error(node.pos, f"'{node.function}' is the function being written: a "
                                        "function calls only those declared above it, so "
                                        "that none calls itself")
        if node.function in self.symbols.unchecked and node.function != self.symbols.writing:
            return BAD  # the file's own, failed where written (and said so there)
        if node.function in AGGREGATES and node.function not in FUNCTIONS:
            return self.error(node.pos, f"{node.function}(...) takes a generator: "
                                        f"{node.function}(x.points for x in hand[p])")
        fn = FUNCTIONS.get(node.function)
        if fn is None and node.function in RETIRED:
            return self.error(node.pos, f"{node.function}() is no longer a built-in: declare "
                                        "the kinds of meld (`melds:`) and use "
                                        f"{RETIRED[node.function]}")
        if fn is None and node.function in self.symbols.procedure_names:
            return self.error(node.pos, f"'{node.function}' is a procedure, which does "
                                        "something and gives no value: an expression calls a "
                                        "function (`functions:`)")
        if fn is None:
            return self.error(node.pos, f"unknown function '{node.function}'" + did_you_mean(
                node.function, [*FUNCTIONS, *self.symbols.functions]))
        params = list(fn.params)
        if fn.variadic and len(node.args) > len(params):
            params += [params[-1]] * (len(node.args) - len(params))
        if len(node.args) != len(params):
            want = f"at least {len(fn.params)}" if fn.variadic else str(len(fn.params))
            return self.error(node.pos, f"{fn.name}() takes {want} argument"
                                        f"{'s' if want != '1' else ''}, got {len(node.args)}")
        if fn.name == "colour" and self.symbols.uncoloured:
            return self.uncoloured(node.pos)
        if fn.name in TEAM_FUNCTIONS and not self.symbols.teams:
            return self.error(node.pos, "this ruleset declares no teams (`teams:`)")
        if fn.name in MELD_FUNCTIONS and not self.symbols.melds:
            return self.error(node.pos, f"{fn.name}() needs the kinds of meld declared "
                                        "(`melds:`)")
        args = [self.argument(arg, want, fn.name, i in fn.takes_none)
                for i, (arg, want) in enumerate(zip(node.args, params))]
        if any(a is BAD for a in args):
            return BAD
        if fn.name == "words" and not self.choosing:
            return self.error(node.pos, "words(...) is a domain of texts a player writes: it "
                                        "has meaning only as a move's `choose` domain "
                                        "(choose: {guess: \"words('UDS', 1, 11)\"})")
        if fn.name in GOAL_FUNCTIONS:
            self.goal_kinds(args[1])
        if fn.name in ("sorted", "combinations", "subsets"):
            return self.list_call(fn.name, tuple(args), node)
        if fn.name == "position" and not comparable(args[0].type, item_type(args[1].type)):
            return self.error(node.args[0].pos, f"position() looks for {args[0].type} in a "
                                                f"{args[1].type}: it is never there")
        return ir.Call(fn.name, tuple(args), type=fn.returns, pos=node.pos,
                       nullable=fn.nullable)

    def list_call(self, name: str, args: tuple[ir.Expr, ...], node: n.Call) -> ir.Expr:
        """sorted(), combinations(), subsets(): lists of the argument's own items."""
        item = item_type(args[0].type)
        if name == "sorted":
            if not orderable(item):
                return self.error(node.args[0].pos, f"sorted() orders numbers, ranks, suits or "
                                                    f"lists of numbers, but this is "
                                                    f"{args[0].type}: write sorted_by(c.number "
                                                    "for c in ...)")
            return ir.Call(name, args, type=list_of(item), pos=node.pos)
        return ir.Call(name, args, type=list_of(list_of(item)), pos=node.pos)

    def goal_kinds(self, goal: ir.Expr) -> None:
        """Report the kinds of meld a goal names, where it writes them out, that the ruleset
        does not declare (others are checked as the game runs)."""
        known = self.symbols.meld_kinds
        for const in _written_texts(goal, self.symbols.functions):
            if const.value not in known:
                self.error(const.pos, f"no meld kind '{const.value}' (the kinds: "
                                      f"{', '.join(known)})" + did_you_mean(const.value, known))

    def user_call(self, node: n.Call) -> ir.Expr:
        """A call of one of the ruleset's own functions (`functions:`)."""
        info = self.symbols.functions[node.function]
        if len(node.args) != len(info.params):
            count = len(info.params)
            return self.error(node.pos, f"{node.function}() takes {count} argument"
                                        f"{'s' if count != 1 else ''}, got {len(node.args)}")
        args = [self.argument(arg, want, node.function)
                for arg, want in zip(node.args, info.params)]
        if any(a is BAD for a in args):
            return BAD
        return ir.UserCall(node.function, tuple(args), type=info.returns, pos=node.pos,
                           nullable=info.nullable)

    def argument(self, node: n.Expr, wanted: Type, fn: str, none_ok: bool = False) -> ir.Expr:
        """An argument of a call, of the type wanted; `none_ok`: one the function reads none
        in (trick_winner's trumps), so neither `none` written nor a value that may be none
        is refused or checked."""
        if wanted == ZONE:
            code = self.check(node)
            if code is not BAD and not isinstance(code, ir.ZoneRef):
                return self.error(node.pos, f"{fn}() needs a zone, but this is {code.type}")
            return code
        if wanted == CARDS:
            return self.cards_of(node, f"the argument of {fn}()")
        if wanted.is_list:
            code = self.iterable(node)
            return self.expect(code, wanted, node.pos, f"the argument of {fn}()")
        code = self.as_named(wanted, self.check(node), node)  # (a text naming a rank...)
        if none_ok and code is not BAD and code.type == NONE:
            return code
        code = self.expect(code, wanted, node.pos, f"the argument of {fn}()")
        return code if none_ok else self.needed(code, node.pos, f"the argument of {fn}()")

    def check_aggregate(self, node: n.Aggregate) -> ir.Expr:
        agg = AGGREGATES.get(node.function)
        if agg is None:
            return self.error(node.pos, f"'{node.function}(... for ...)' is not an aggregate: "
                                        "use one of " + ", ".join(AGGREGATES))
        source = self.iterable(node.source)
        if source is BAD or self.clash(node.variable, node.variable_pos):
            return BAD
        self.hides(node.variable, node.variable_pos, "loop variable")
        assert source.type.item is not None
        with self.bind({node.variable: source.type.item}):
            element = self.expect(self.check(node.element), agg.element, node.element.pos,
                                  f"each item of {agg.name}()")
            cond = None
            if node.condition is not None:
                cond = self.expect(self.check(node.condition), BOOL, node.condition.pos,
                                   "the condition after 'if'")
        if element is BAD or cond is BAD:
            return BAD
        if agg.name in BY_VALUE and not orderable(element.type):
            return self.error(node.element.pos, f"the value of {agg.name}() must be a number, a "
                                                f"rank, a suit or a list of numbers, but this is "
                                                f"{element.type}")
        if agg.name not in ("first", "select"):
            element = self.needed(element, node.element.pos, f"each item of {agg.name}()")
        if cond is not None:
            cond = self.needed(cond, node.pos, "the condition after 'if'")
        if agg.name == "first":
            t, nullable = element.type, True
        elif agg.name == "select":
            t, nullable = list_of(element.type), False
        elif agg.name == "sorted_by":
            t, nullable = source.type, False
        elif agg.name in BY_VALUE:
            t, nullable = source.type.item, True
        else:
            t, nullable = agg.returns, False
        return ir.Aggregate(agg.name, element, node.variable, source, cond, type=t,
                            pos=node.pos, nullable=nullable)


# Built-ins a rule file written for an earlier version may call, and what does their work now.
RETIRED = {"goal_layouts": "lay_downs(cards, goal)", "meets_goal": "can_lay_down(cards, goal)"}


def _written_texts(code: ir.Expr, functions: dict[str, FunctionInfo]) -> Iterator[ir.Const]:
    """The texts a list expression writes out as its items: in list literals, both branches
    of `if`, joined lists and the bodies of the ruleset's functions it calls."""
    if isinstance(code, ir.ListLiteral):
        for item in code.items:
            if isinstance(item, ir.Const) and isinstance(item.value, str):
                yield item
    elif isinstance(code, ir.Conditional):
        yield from _written_texts(code.then, functions)
        yield from _written_texts(code.otherwise, functions)
    elif isinstance(code, ir.Join):
        yield from _written_texts(code.left, functions)
        yield from _written_texts(code.right, functions)
    elif isinstance(code, ir.UserCall):
        info = functions.get(code.function)
        if info is not None and info.body is not None:
            yield from _written_texts(info.body, functions)


# The aggregates that give the items by their values (`max_by(c.points for c in hand[me])`).
BY_VALUE = ("max_by", "min_by", "sorted_by")

