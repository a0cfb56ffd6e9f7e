"""Calls of the rule file's functions unfolded into the loop that makes them, before the loop's
invariant parts are worked out once (reads.py, `loop_invariant`).

A move's `where` or an aggregate's condition often calls a function once per item:
spades lists `hand[me] where ... follows(card, me)`, and `follows` asks whether the hand holds
the suit led, which is the same for every card. Called, the function works that out again for
each card; unfolded (its value written in place of the call, each parameter read as the call's
argument), the part that reads nothing of the card is worked out once, before the loop.

Only what changes nothing but the time taken is unfolded: a call whose function's value cannot
fail (reads.py, `total`: no fault, so no message, can come from inside it), whose arguments
are names or constants (each read as often as the function reads its parameter, at no cost),
none of them a name the function's value binds itself (which would capture it), of a function
that is not small enough to be worth keeping by its arguments instead (`kept`), and not larger
than MOST_NODES.
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

from . import ir
from .reads import nodes_of, total

MOST_NODES = 80  # the largest function value unfolded, in nodes


class Unfolder:
    """Unfolds the calls of one program's functions (each function's own value once)."""

    def __init__(self, functions: tuple[ir.Function, ...], kept: frozenset[str]):
        self.functions = {fn.name: fn for fn in functions}
        self.kept = kept
        self.values: dict[str, ir.Expr | None] = {}  # a function's unfolded value, if total

    def __call__(self, expr: ir.Expr) -> ir.Expr:
        """`expr` with every call that may be unfolded unfolded (the same node if none)."""
        if not any(isinstance(n, ir.UserCall) for n in nodes_of(expr)):
            return expr
        return self._expr(expr)

    def _expr(self, node: Any) -> Any:
        if isinstance(node, tuple):  # (the same tuple where no item changed)
            items = tuple(self._expr(item) for item in node)
            return node if all(a is b for a, b in zip(items, node)) else items
        if not isinstance(node, ir.Expr):
            return node
        changed = {f.name: self._expr(getattr(node, f.name)) for f in fields(node)
                   if f.init and isinstance(getattr(node, f.name), (ir.Expr, tuple))}
        if any(changed[name] is not getattr(node, name) for name in changed):
            node = replace(node, **changed)
        if isinstance(node, ir.UserCall):
            return self._call(node)
        return node

    def _call(self, call: ir.UserCall) -> ir.Expr:
        fn = self.functions.get(call.function)
        value = self._value(call.function)
        if fn is None or value is None \
                or not all(isinstance(a, (ir.Local, ir.Const, ir.StateName)) for a in call.args):
            return call
        bound = {n.variable for n in nodes_of(value) if isinstance(n, ir.Aggregate)}
        if any(isinstance(a, ir.Local) and a.name in bound for a in call.args):
            return call  # (the argument's name would be captured inside)
        return _substitute(value, {p: a for (p, _), a in zip(fn.params, call.args)})

    def _value(self, name: str) -> ir.Expr | None:
        """The function's value with its own calls unfolded, if it may be unfolded."""
        if name not in self.values:
            self.values[name] = None  # (a function never calls itself; this only guards)
            fn = self.functions.get(name)
            if fn is not None and name not in self.kept:
                value = self._expr(fn.value)
                if len(nodes_of(value)) <= MOST_NODES and total(value):
                    self.values[name] = value
        return self.values[name]


def _substitute(node: Any, names: dict[str, ir.Expr]) -> Any:
    """`node` with each local of `names` read as its expression; an aggregate's own
    variable hides a parameter of the same name inside it."""
    if isinstance(node, tuple):
        return tuple(_substitute(item, names) for item in node)
    if not isinstance(node, ir.Expr):
        return node
    if isinstance(node, ir.Local):
        return names.get(node.name, node)
    if isinstance(node, ir.Aggregate) and node.variable in names:
        inner = {k: v for k, v in names.items() if k != node.variable}
        return replace(node, source=_substitute(node.source, names),
                       element=_substitute(node.element, inner),
                       condition=_substitute(node.condition, inner))
    changed = {f.name: _substitute(getattr(node, f.name), names) for f in fields(node)
               if f.init and isinstance(getattr(node, f.name), (ir.Expr, tuple))}
    return replace(node, **changed) if changed else node
