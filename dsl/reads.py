"""What checked rules read of a game: who knows which card (`reads_knowledge`: a playout
kernel keeps that only for rules that ask), whether a rule gives a clue (`tells`), and what
an estimate reads (`seat_zones`).

A player's mid-round estimate (`scoring.evaluate`) is asked for again and again by the search
bots, on states that differ in other seats' cards. When the estimate reads nothing but the
player's own zones (their cards, which way up they lie, the cards' fixed attributes and the
options), two states with the same cards there have the same estimate. `seat_zones(expr)`
finds those zones, or None when the expression reads anything else (a variable, another
seat's zone, the round number...), in which case nothing is remembered.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields

from cardrules.model import ZoneDef

from . import ir
from .builtins import CARD_ATTRIBUTES
from .dump import dump
from .typesys import Type

# Built-ins whose value depends on their arguments alone (and on the ruleset).
PURE = frozenset({
    "size", "cards", "columns", "rows", "same_rank", "same_suit", "is_set", "is_flush",
    "is_run", "is_run_high", "changes", "contains", "length", "abs", "min", "max", "numbers",
    "ranks", "suits", "colours", "colour", "lay_downs", "can_lay_down", "is_meld", "melds_in",
    "can_meld", "meld_layouts", "deadwood", "discard_deadwood", "best_melds", "left_out",
    "position", "combinations", "subsets", "sorted",
})


# Built-ins whose value depends on who knows which card.
KNOWLEDGE = frozenset({"knows", "possible"})


def reads_knowledge(program: ir.Program) -> bool:
    """Whether any rule of the program asks who knows a card."""
    return _any_node(program, lambda node: isinstance(node, ir.Call)
                     and node.function in KNOWLEDGE)


def tells(program: ir.Program) -> bool:
    """Whether any rule of the program gives a clue (`tell`)."""
    return _any_node(program, lambda node: isinstance(node, ir.Tell))


def _any_node(program: ir.Program, found: Callable[[object], bool]) -> bool:
    """Whether any node of the program is `found`. Each node is looked at once: a checked
    program shares nodes (a function's body, inlined where it is called), and walking every
    path to them would take time exponential in how deeply the calls nest."""
    stack: list[object] = [program]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        inner = ir.parts(node)
        if inner:  # (a node holding others is looked into once)
            if id(node) in seen:
                continue
            seen.add(id(node))
        if found(node):
            return True
        stack.extend(inner)
    return False


class _Unknown(Exception):
    pass


def least_written_number(exprs: list[ir.Expr], functions: tuple[ir.Function, ...],
                         tables: Mapping[str, tuple[int, ...]]) -> int:
    """The least whole number written in `exprs` (as folded: an option's value, or a branch an
    option rules out, is settled), or read of a card's value table (`tables`, by name; its
    negative too: the table's most, negated), there and in the functions they call, in
    turn; 0 if none is negative. The adapters number a choice of a number from it
    (adapters/table.py), so that a choice whose rules write `[-10, 10]`, or read -10 of a
    card's `adds`, can be encoded."""
    by_name = {f.name: f for f in functions}
    least, called = 0, set()
    stack: list[object] = list(exprs)
    while stack:
        for node in ir.within(stack.pop()):
            if isinstance(node, ir.UserCall) and node.function not in called:
                called.add(node.function)
                if node.function in by_name:
                    stack.append(by_name[node.function].value)
            elif isinstance(node, ir.Const):
                values = node.value if isinstance(node.value, (list, tuple)) else [node.value]
                for value in values:
                    if isinstance(value, int) and not isinstance(value, bool):
                        least = min(least, value)
            elif isinstance(node, ir.CardAttr) and node.table and node.name in tables:
                least = min(least, *tables[node.name])
            elif isinstance(node, ir.Minus) and isinstance(node.operand, ir.CardAttr) \
                    and node.operand.table and node.operand.name in tables:
                least = min(least, -max(tables[node.operand.name]))
    return least


def seat_zones(expr: ir.Expr, seat: str = "p") -> list[ZoneDef] | None:
    """The zones of seat `seat` (a local's name) the expression reads, if it reads nothing
    else of the game (of its cards, their tables and which way up they lie, not who played
    them); else None."""
    found: dict[str, ZoneDef] = {}
    try:
        _walk(expr, seat, found, bound={seat})
    except _Unknown:
        return None
    return list(found.values())


def _walk(node: ir.Expr, seat: str, found: dict[str, ZoneDef], bound: set[str]) -> None:
    if isinstance(node, ir.ZoneRef):
        if node.group is not None or not isinstance(node.owner, ir.Local) \
                or node.owner.name != seat:
            raise _Unknown
        found[node.zone.name] = node.zone
        return
    if isinstance(node, ir.Local):
        if node.name not in bound:
            raise _Unknown  # a let or a parameter from outside: not in the key
        return
    if isinstance(node, ir.Call) and node.function not in PURE:
        raise _Unknown
    if isinstance(node, (ir.StateName, ir.GameVar, ir.PlayerVar, ir.PlayerAttr, ir.UserCall)):
        raise _Unknown
    if isinstance(node, ir.CardAttr) and node.name in STATE_CARD_ATTRIBUTES \
            and node.name != "face_up":
        raise _Unknown  # the key holds which way up each card lies, nothing else of play
    if isinstance(node, ir.Aggregate):
        _walk(node.source, seat, found, bound)
        inner = bound | {node.variable}
        _walk(node.element, seat, found, inner)
        if node.condition is not None:
            _walk(node.condition, seat, found, inner)
        return
    for f in fields(node):
        value = getattr(node, f.name)
        if isinstance(value, ir.Expr):
            _walk(value, seat, found, bound)
        elif isinstance(value, tuple):
            for item in value:
                if isinstance(item, ir.Expr):
                    _walk(item, seat, found, bound)


def outside_reads(expr: ir.Expr, params: frozenset[str],
                  calls: frozenset[str] = frozenset()) -> ir.Expr | None:
    """The first part of `expr` (a label's expression) that reads anything but the names
    `params` (a move's parameters), the locals it binds itself, constants, the cards' fixed
    attributes and built-ins of their arguments alone: a zone, a variable, a name of the
    game (`me`, `round`), a player's attribute, a ruleset's function (but those named in
    `calls`). None if there is none: then the value depends on the action alone."""
    stack: list[tuple[ir.Expr, frozenset[str]]] = [(expr, params)]
    while stack:
        node, bound = stack.pop()
        if isinstance(node, ir.UserCall) and node.function in calls:
            stack.extend((arg, bound) for arg in node.args)
            continue
        if isinstance(node, (ir.ZoneRef, ir.ZoneCards, ir.GameVar, ir.PlayerVar,
                             ir.PlayerAttr, ir.StateName, ir.UserCall)):
            return node
        if isinstance(node, ir.Local) and node.name not in bound:
            return node
        if isinstance(node, ir.Call) and node.function not in PURE:
            for arg in node.args:  # (what it reads, if anything: `top(kitty)` reads kitty)
                found = outside_reads(arg, bound, calls)
                if found is not None:
                    return found
            return node
        if isinstance(node, ir.Aggregate):
            inner = bound | {node.variable}
            stack.append((node.source, bound))
            stack.extend((part, inner) for part in (node.element, node.condition)
                         if part is not None)
            continue
        stack.extend((child, bound) for child in _children(node))
    return None


# Built-ins whose work grows with their arguments (a search, every way to choose): a function
# of the ruleset that calls one is worth remembering by its arguments.
SEARCHING = frozenset({
    "combinations", "subsets", "sorted", "lay_downs", "can_lay_down", "melds_in", "can_meld",
    "meld_layouts", "deadwood", "discard_deadwood", "best_melds", "left_out",
})
# A card's attributes that change as the game goes (which way up it lies, who played it): read
# from the game, not from the deck's tables.
STATE_CARD_ATTRIBUTES = frozenset(name for name, (_, code, _) in CARD_ATTRIBUTES.items()
                                  if "S." in code)
# Argument types a remembered value is kept by: the value itself, or a list of such values
# as a tuple.
_KEYED = frozenset({"int", "bool", "text", "card", "player", "rank", "suit", "colour"})


def remembered(functions: tuple[ir.Function, ...]) -> dict[str, tuple[bool, ...]]:
    """The ruleset's functions whose value is kept by their arguments (`f(h, k)` asked again
    with the same hand and number answers at once): those whose value depends on their
    arguments alone (they read no zone, variable, name of the game, player's attribute or
    card attribute that changes in play, such as `face_up`, and call only built-ins of their
    arguments and such functions of the ruleset), whose
    arguments are all values or flat lists of values, and that do work worth keeping (go
    through a list, search, or call such a function). For each: which arguments are lists
    (kept as tuples)."""
    pure: set[str] = set()
    changed = True
    while changed:  # (a function is pure when the functions it calls are)
        changed = False
        for fn in functions:
            if fn.name not in pure and outside_reads(
                    fn.value, frozenset(p for p, _ in fn.params), frozenset(pure)) is None \
                    and not any(isinstance(n, ir.CardAttr) and not n.table
                                and n.name in STATE_CARD_ATTRIBUTES for n in _nodes(fn.value)):
                pure.add(fn.name)
                changed = True
    out: dict[str, tuple[bool, ...]] = {}
    changed = True
    while changed:  # (a function is worth keeping when it calls one that is)
        changed = False
        for fn in functions:
            if fn.name in pure and fn.name not in out and _keyed(fn.params) \
                    and _works(fn.value, out):
                out[fn.name] = tuple(t.is_list for _, t in fn.params)
                changed = True
    return out


def _keyed(params: tuple[tuple[str, Type], ...]) -> bool:
    return bool(params) and all(
        t.name in _KEYED or t.is_list and t.item is not None and t.item.name in _KEYED
        for _, t in params)


def _works(expr: ir.Expr, kept: dict[str, tuple[bool, ...]]) -> bool:
    return any(isinstance(n, ir.Aggregate) or isinstance(n, ir.Call) and n.function in SEARCHING
               or isinstance(n, ir.UserCall) and n.function in kept for n in _nodes(expr))


def locals_read(expr: ir.Expr) -> set[str]:
    """The names of the locals `expr` reads (those it binds itself too)."""
    return {node.name for node in _nodes(expr) if isinstance(node, ir.Local)}


# Built-ins that cannot fail on any value of their types (nor draw from the generator):
# a part of an aggregate made of them and of what is fixed during the aggregate is worked out
# once, before it (`loop_invariant`).
TOTAL = frozenset({
    "size", "cards", "all_but_top", "columns", "rows", "same_rank", "same_suit", "is_set",
    "is_flush", "is_run_high", "changes", "contains", "length", "ranks", "suits", "colours",
    "colour",
    "abs", "min", "max", "knows", "owner", "team", "led_suit", "best_of_suit",
})
TOTAL_AGGREGATES = frozenset({"sum", "count", "all", "any", "first", "select"})
_TOTAL_NODES = (ir.Const, ir.Local, ir.StateName, ir.GameVar, ir.PlayerVar, ir.CardAttr,
                ir.PlayerAttr, ir.ZoneCards, ir.ZoneRef, ir.Comparison, ir.Membership,
                ir.Negation, ir.Conjunction, ir.Disjunction, ir.Conditional, ir.ListLiteral,
                ir.Join, ir.Minus, ir.Arithmetic, ir.Call)


def loop_invariant(parts: list[ir.Expr], bound: str,
                   drawing: frozenset[str] = frozenset()) -> list[tuple[ir.Expr, bool]]:
    """The largest pieces of `parts` (an aggregate's element and condition, which run once
    per item bound to the local `bound`) that read nothing of the item, draw nothing from the
    game's generator (`random_card`, or a function of the ruleset in `drawing`) and call a
    function or go through a list: working each out once changes nothing but the time taken.
    With each, whether to work it out before the loop: so is a piece that cannot fail
    (`total`) and goes through no list; any other is worked out where the loop first needs
    it and kept for the items after, so that if it fails, it fails where and when it would
    have, and a search through a list that no item needs (whether the hand holds a spade,
    where the card played need not follow suit) is never made."""
    out: list[tuple[ir.Expr, bool]] = []
    for part in parts:
        _invariant(part, bound, drawing, out)
    return out


def _invariant(node: ir.Expr, bound: str, drawing: frozenset[str],
               out: list[tuple[ir.Expr, bool]]) -> None:
    inside = _nodes(node)
    if any(isinstance(n, _WORK) for n in inside) and not any(
            isinstance(n, ir.Local) and n.name == bound or draws(n, drawing) for n in inside):
        out.append((node, total(node) and not any(isinstance(n, ir.Aggregate) for n in inside)))
        return
    if isinstance(node, ir.Aggregate):  # (its own element and condition bind a local)
        _invariant(node.source, bound, drawing, out)
        return
    for child in _children(node):
        _invariant(child, bound, drawing, out)


_WORK = (ir.Call, ir.Aggregate, ir.UserCall)  # what is worth working out once
DRAWING = frozenset({"random_card"})  # built-ins that draw from the game's generator


def draws(node: ir.Expr, drawing: frozenset[str]) -> bool:
    """Whether `node` itself draws from the game's generator: a built-in that draws, or a
    function of the ruleset in `drawing` (`drawing_functions`)."""
    return isinstance(node, ir.Call) and node.function in DRAWING \
        or isinstance(node, ir.UserCall) and node.function in drawing


def repeated_calls(values: list[ir.Expr], fixed: frozenset[str],
                   drawing: frozenset[str]) -> list[list[ir.UserCall]]:
    """The calls of the rule file's functions that `values` (one function's value, or a
    scoring's entries) makes more than once with the same arguments, grouped: each group's
    calls give one value, as nothing changes while a value is worked out (their arguments
    read only the names `fixed`, never a local an aggregate binds, and nothing in them draws
    a card at random)."""
    groups: dict[str, list[ir.UserCall]] = {}
    stack: list[tuple[ir.Expr, frozenset[str]]] = [(value, frozenset()) for value in values]
    while stack:
        node, bound = stack.pop()
        if isinstance(node, ir.UserCall):
            inside = [n for arg in node.args for n in _nodes(arg)]
            if not draws(node, drawing) and not any(
                    isinstance(n, ir.Local) and (n.name not in fixed or n.name in bound)
                    or draws(n, drawing) or isinstance(n, ir.Aggregate) for n in inside):
                groups.setdefault(dump(node), []).append(node)
                continue
        if isinstance(node, ir.Aggregate):
            stack.append((node.source, bound))
            inner = bound | {node.variable}
            stack.extend((part, inner) for part in (node.element, node.condition)
                         if part is not None)
            continue
        stack.extend((child, bound) for child in _children(node))
    return [group for group in groups.values() if len(group) > 1]


# Built-ins that read a card's suit and rank the way `tricks:` says a trick reads them.
TRICK_READERS = frozenset({"led_suit", "best_of_suit", "trick_suit", "trick_winner"})


def trick_reading(functions: tuple[ir.Function, ...], node: ir.Expr
                  ) -> tuple[ir.Expr, str] | None:
    """The first part of `node` that reads cards the way `tricks:` says (a call of a built-in
    of TRICK_READERS, or of one of the ruleset's functions that makes one, however
    indirectly), with the built-in it comes to; None if none does. `tricks:` itself may not:
    it would ask itself how to read a card, with no end."""
    reached: dict[str, str] = {}  # function -> the built-in it comes to
    changed = True
    while changed:
        changed = False
        for fn in functions:
            if fn.name not in reached:
                found = _trick_read(fn.value, reached)
                if found is not None:
                    reached[fn.name] = found[1]
                    changed = True
    return _trick_read(node, reached)


def _trick_read(node: ir.Expr, reached: dict[str, str]) -> tuple[ir.Expr, str] | None:
    for n in sorted(_nodes(node), key=lambda n: n.pos.offset):
        if isinstance(n, ir.Call) and n.function in TRICK_READERS:
            return n, n.function
        if isinstance(n, ir.UserCall) and n.function in reached:
            return n, reached[n.function]
    return None


def drawing_functions(functions: tuple[ir.Function, ...]) -> frozenset[str]:
    """The ruleset's functions that draw from the game's generator, themselves or through
    another: each call of one is a fresh draw, never worked out once for many."""
    out: set[str] = set()
    changed = True
    while changed:
        changed = False
        for fn in functions:
            if fn.name not in out and any(draws(n, frozenset(out)) for n in _nodes(fn.value)):
                out.add(fn.name)
                changed = True
    return frozenset(out)


def total(expr: ir.Expr) -> bool:
    """Whether `expr` cannot fail on any value of its types (nor draw from the generator):
    made of names, constants, card attributes, zones, comparisons and the like, built-ins
    that cannot fail, + - * and the aggregates that cannot (not min or max of nothing)."""
    for n in _nodes(expr):
        if isinstance(n, ir.Aggregate):
            if n.function not in TOTAL_AGGREGATES:
                return False
            continue
        if not isinstance(n, _TOTAL_NODES):
            return False
        if isinstance(n, ir.Call) and n.function not in TOTAL:
            return False
        if isinstance(n, ir.Arithmetic) and n.op not in ("+", "-", "*"):
            return False
        if isinstance(n, ir.ZoneRef) and n.group is not None:
            return False
    return True


def nodes_of(node: ir.Expr) -> list[ir.Expr]:
    """Every node of `node`'s tree, `node` first."""
    return _nodes(node)


def _nodes(node: ir.Expr) -> list[ir.Expr]:
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(_children(n))
    return out


def _children(node: ir.Expr) -> list[ir.Expr]:
    out: list[ir.Expr] = []
    for f in fields(node):
        value = getattr(node, f.name)
        if isinstance(value, ir.Expr):
            out.append(value)
        elif isinstance(value, tuple):
            out.extend(v for v in value if isinstance(v, ir.Expr))
    return out


def clue_read(expr: ir.Expr, name: str,
              functions: Mapping[str, tuple[tuple[str, ...], ir.Expr | None]],
              secret: frozenset[str]) -> tuple[ir.Expr, str] | None:
    """The first part of a clue's condition `expr` (its card named `name`) that reads more
    than a clue may say, and what it reads; None if nothing does. A clue says of each card
    what it is, against what everyone knows: it reads the card's rank, suit, colour, number
    and value tables (`c.suit == colour`), and the move's choices, the options, the
    variables everyone sees and the game's public facts, never a zone (where a card lies,
    or which card lies somewhere: `c == top(stock)` names the stock's top card), which way
    up a card lies or who played it, a variable kept secret, or the card itself in any other
    way (`c == d`, a built-in given it); through the file's functions (`functions`: each
    one's parameter names and value) as far as they read it (docs/grammar.md 6.7a)."""

    def walk(node: object, card: str) -> tuple[ir.Expr, str] | None:
        if isinstance(node, ir.Need):
            return walk(node.operand, card)
        if isinstance(node, ir.Local):
            return (node, f"'{card}' itself, not what it is (its rank, suit, colour...)") \
                if node.name == card else None
        if isinstance(node, (ir.ZoneRef, ir.ZoneCards)):
            return node, "a zone, where cards lie"
        if isinstance(node, ir.CardAttr):
            if node.name in STATE_CARD_ATTRIBUTES:
                return node, f"a card's {node.name}, which changes in play"
            if isinstance(node.card, ir.Local) and node.card.name == card:
                return None
            return walk(node.card, card)
        if isinstance(node, (ir.GameVar, ir.PlayerVar)) and node.name in secret:
            return node, f"the variable '{node.name}', kept secret"
        if isinstance(node, ir.UserCall):
            params, value = functions.get(node.function, ((), None))
            for i, arg in enumerate(node.args):
                bare = arg.operand if isinstance(arg, ir.Need) else arg
                if isinstance(bare, ir.Local) and bare.name == card:
                    if value is None or i >= len(params) or \
                            walk(value, params[i]) is not None:
                        return arg, f"'{card}' handed to {node.function}(), which reads more " \
                                    "of it than what it is"
                elif (found := walk(arg, card)) is not None:
                    return found
            if value is not None and (found := walk(value, "")) is not None:
                return node, f"{node.function}(), which reads {found[1]}"
            return None
        if isinstance(node, ir.Aggregate) and node.variable == card:
            return walk(node.source, card)  # (the loop's own name hides the card's)
        if isinstance(node, ir.Expr):
            for f in fields(node):
                if f.name in ("type", "pos", "nullable"):
                    continue
                value = getattr(node, f.name)
                for part in value if isinstance(value, tuple) else (value,):
                    if isinstance(part, ir.Expr) and (found := walk(part, card)) is not None:
                        return found
        return None

    return walk(expr, name)
