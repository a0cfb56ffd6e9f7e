"""A listing's condition split on what it reads of the game before going through the items.

A move's listing is one comprehension, `[action for card in hand if test]`; the pieces of
`test` that read nothing of the item are worked out once, before it, into locals
(codegen_expr's `hoist`). Where such a local stands alone among the `and`s and `or`s of
`test` (spades: `size(trick) == 0 and ...` or `size(trick) > 0 and ...`, whether the seat
leads or follows), each item would still ask it. So the listing is written once for each way
it can fall: `if leads: [... if test with leads true] else: [... with leads false]`, each
test simplified. Only whether an item passes the test counts (a filter), so a constant that
decides an `and` or an `or` may take its place; the parts that would have run still run, in
the same order, and none that would not have run does. At most `MOST` locals are split on.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

MOST = 2  # locals split on, one inside another: at most 2**MOST comprehensions


def unswitched(test: ast.expr | None, guards: frozenset[str],
               emit: Callable[[ast.expr | None], list[ast.stmt]],
               most: int = MOST) -> list[ast.stmt]:
    """The statements that list the items passing `test`: `emit(test)` (None: every item),
    or an `if` on one of `guards` (locals worked out before the loop) that `test` reads as
    an operand of its `and`s and `or`s, with the listing of each branch's simpler test."""
    if test is None:
        return emit(None)
    guard = _first_guard(test, guards) if most > 0 else None
    if guard is None:
        return emit(test)
    branches = []
    for value in (True, False):
        simpler = _simplified(_put(test, guard, value))
        if isinstance(simpler, ast.Constant):  # every item, or none
            branches.append(emit(None) if simpler.value else [])
        else:
            branches.append(unswitched(simpler, guards - {guard}, emit, most - 1))
    then, other = branches
    if not then:
        return [ast.If(ast.UnaryOp(ast.Not(), ast.Name(guard, ast.Load())), other, [])] \
            if other else []
    return [ast.If(ast.Name(guard, ast.Load()), then, other)]


def _first_guard(test: ast.expr, guards: frozenset[str]) -> str | None:
    """The first of `guards` that stands as an operand of the `and`s and `or`s of `test`
    (its top, or inside them), in the order they are read."""
    if isinstance(test, ast.Name) and test.id in guards:
        return test.id
    if isinstance(test, ast.BoolOp):
        for operand in test.values:
            found = _first_guard(operand, guards)
            if found is not None:
                return found
    return None


def _put(test: ast.expr, guard: str, value: bool) -> ast.expr:
    """`test` with `value` for `guard` where it stands as an operand of its `and`s and `or`s."""
    if isinstance(test, ast.Name) and test.id == guard:
        return ast.Constant(value)
    if isinstance(test, ast.BoolOp):
        return ast.BoolOp(test.op, [_put(operand, guard, value) for operand in test.values])
    return test


def _simplified(test: ast.expr) -> ast.expr:
    """`test` with its constants worked into its `and`s and `or`s, as a filter reads it
    (only whether it holds counts): `True and x` is x, `False and x` False (x never ran), an
    `x and False` kept (x runs); the same for `or` the other way round."""
    if not isinstance(test, ast.BoolOp):
        return test
    decides = isinstance(test.op, ast.Or)  # the constant that decides this operator
    kept: list[ast.expr] = []
    for operand in map(_simplified, test.values):
        if isinstance(operand, ast.Constant) and isinstance(operand.value, bool):
            if operand.value is not decides:
                continue  # (True in an `and`, False in an `or`: it changes nothing)
            if not kept:
                return ast.Constant(decides)  # decided before anything else runs
            kept.append(operand)  # decided after the operands before it have run
            break
        kept.append(operand)
    if not kept:
        return ast.Constant(not decides)
    return kept[0] if len(kept) == 1 else ast.BoolOp(test.op, kept)
