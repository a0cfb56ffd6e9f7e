"""Values worked out before any game: the checked tree evaluated on what is known then.

The deck's size depends on the table size (`copies`), which cards are wild on each card's
own attributes (`wild`), a step's repeat count and the number of rounds on the options.
`value_at_load(expr, env)` computes such an expression from the checked tree alone, for the
names `env` binds; anything else (a zone, a variable, a card's face) raises NotStatic
naming the part that cannot be known yet. No code is generated or run for this.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from cardrules.model import CardTable

from . import ir


class NotStatic(Exception):
    """The expression reads something only a game in play knows."""

    def __init__(self, node: ir.Expr):
        super().__init__("not known before the game")
        self.node = node


@dataclass(frozen=True)
class Env:
    """What is known: the table size, a card being examined, the card tables."""

    player_count: int | None = None
    locals: Mapping[str, Any] | None = None
    cards: CardTable | None = None


def value_at_load(expr: ir.Expr, env: Env) -> Any:
    """The value of `expr` where only `env` is known; NotStatic if it needs more."""
    handler = _HANDLERS.get(type(expr))
    if handler is None:
        raise NotStatic(expr)
    return handler(expr, env)


def _const(e: ir.Const, env: Env) -> Any:
    return e.value


def _local(e: ir.Local, env: Env) -> Any:
    if env.locals is None or e.name not in env.locals:
        raise NotStatic(e)
    return env.locals[e.name]


def _state_name(e: ir.StateName, env: Env) -> Any:
    if e.name == "player_count" and env.player_count is not None:
        return env.player_count
    raise NotStatic(e)


_CARD_TABLES = ("rank", "suit", "colour", "number", "is_joker")


def _card_attr(e: ir.CardAttr, env: Env) -> Any:
    card = value_at_load(e.card, env)
    table = env.cards
    if table is None:
        raise NotStatic(e)
    if e.table:
        return table.values[e.name][card]
    if e.name not in _CARD_TABLES:
        raise NotStatic(e)
    return getattr(table, "joker" if e.name == "is_joker" else e.name)[card]


def _minus(e: ir.Minus, env: Env) -> Any:
    return -value_at_load(e.operand, env)


def _arithmetic(e: ir.Arithmetic, env: Env) -> Any:
    a, b = value_at_load(e.left, env), value_at_load(e.right, env)
    if e.op in "/%" and b == 0:
        raise NotStatic(e)  # the checker reports the division by zero
    return _OPS[e.op](a, b)


_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "/": lambda a, b: a // b, "%": lambda a, b: a % b,
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}


def _comparison(e: ir.Comparison, env: Env) -> Any:
    return _OPS[e.op](value_at_load(e.left, env), value_at_load(e.right, env))


def _negation(e: ir.Negation, env: Env) -> Any:
    return not value_at_load(e.operand, env)


def _junction(e: ir.Conjunction | ir.Disjunction, env: Env) -> Any:
    left = value_at_load(e.left, env)
    if isinstance(e, ir.Conjunction) != bool(left):
        return bool(left)
    return bool(value_at_load(e.right, env))


def _conditional(e: ir.Conditional, env: Env) -> Any:
    return value_at_load(e.then if value_at_load(e.test, env) else e.otherwise, env)


def _membership(e: ir.Membership, env: Env) -> Any:
    found = value_at_load(e.item, env) in value_at_load(e.collection, env)
    return not found if e.negated else found


def _list_literal(e: ir.ListLiteral, env: Env) -> Any:
    return [value_at_load(item, env) for item in e.items]


def _call(e: ir.Call, env: Env) -> Any:
    if e.function in ("abs", "min", "max"):
        values = [value_at_load(a, env) for a in e.args]
        if e.function == "abs":
            return abs(values[0])
        return min(values) if e.function == "min" else max(values)
    raise NotStatic(e)


def _need(e: ir.Need, env: Env) -> Any:
    value = value_at_load(e.operand, env)
    if value is None:
        raise NotStatic(e)
    return value


_HANDLERS: dict[type, Callable[[Any, Env], Any]] = {
    ir.Const: _const, ir.Local: _local, ir.StateName: _state_name, ir.CardAttr: _card_attr,
    ir.Minus: _minus, ir.Arithmetic: _arithmetic, ir.Comparison: _comparison,
    ir.Negation: _negation, ir.Conjunction: _junction, ir.Disjunction: _junction,
    ir.Conditional: _conditional, ir.Membership: _membership, ir.ListLiteral: _list_literal,
    ir.Call: _call,
    ir.Need: _need,
}
