"""Stage 5, expressions: the part of the generator that writes each checked expression as a
Python expression (`expr_<construct>`, one per node of ir.py), with what every part of the
generator shares: the numbered rule text (`sites`) each piece of code comes from, fresh
temporaries, and zone indices written so that a listing can name them.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from cardrules.model import Site, ZoneDef

from . import ir, pyast
from . import nodes as n
from .builtins import (
    CARD_ATTRIBUTES,
    FUNCTIONS,
    HOUSE_FUNCTIONS,
    HOUSE_PLAYER_ATTRIBUTES,
    NAMES,
    PLAYER_ATTRIBUTES,
)
from .checker import Checked
from .inline import Inliner, pure
from .reads import drawing_functions, loop_invariant, remembered, repeated_calls
from .typesys import NONE
from .unfold import Unfolder
from .work import ItemWeights

_ARITH = {"+": ast.Add(), "-": ast.Sub(), "*": ast.Mult()}
_COMPARE = {"==": ast.Eq(), "!=": ast.NotEq(), "<": ast.Lt(), "<=": ast.LtE(), ">": ast.Gt(),
            ">=": ast.GtE()}



def local(name: str) -> str:
    """The Python name of a rule-level local (parameters, lets, loop variables)."""
    return "v_" + name


S, B, Z, ME = (pyast.name(x) for x in ("S", "B", "Z", "me"))
# The built-ins that read a card's suit and rank in a trick (`tricks:`).
TRICK_FUNCTIONS = frozenset({"led_suit", "best_of_suit", "trick_winner", "trick_suit"})
# What reads a list whose order cannot change its answer: built-ins, and aggregates.
ORDER_FREE_FUNCTIONS = frozenset({"size", "same_rank", "same_suit", "is_set", "is_flush",
                                  "is_run", "is_run_high"})
ORDER_FREE_AGGREGATES = frozenset({"count", "sum", "min", "max", "all", "any"})

class ExpressionWriter:
    """Writes expressions, numbering the rule text they come from; the Generator
    (dsl/codegen.py) builds the module's functions and statements on it."""

    def __init__(self, checked: Checked, inliner: Inliner):
        self.checked = checked
        self.inliner = inliner
        self.sites: list[Site] = []
        self._site_keys: dict[tuple[Any, ...], int] = {}
        self.statement_sites: dict[int, int] = {}
        self.constants: dict[str, Any] = {}
        self._site_now: int | None = None  # the site of the statement being written
        self._iterable = 0  # > 0 while writing a comprehension's iterable
        # id of a checked node worked out once for a loop -> its local, and its code where
        # it is worked out where first needed (None: before the loop)
        self._hoisted: dict[int, tuple[str, ast.expr | None]] = {}
        self._temp = 0
        # A rule's name bound, where it is written, to another local than local(name): an
        # inner `let` or loop that hides a binding outside it (codegen_stmt.py's scopes)
        self._names: dict[str, str] = {}
        # The names bound, where they are written, to lists of a few items at most (each a
        # subset: no more than `subsets` takes), whose items are not charged (`charged`)
        self._few: set[str] = set()
        functions = checked.program.functions
        self.kept = remembered(functions)  # functions kept by their arguments (reads.py)
        self.unfold = Unfolder(functions, frozenset(self.kept))
        self.drawing = drawing_functions(functions)  # never worked out once for a loop
        # each loop's steps for one item, where the loops are counted while the game runs
        # against the action, or against the game (only those inside no other loop)
        self.per_item = ItemWeights(checked.per_item) if checked.per_item is not None else None
        self.game_items = checked.game_items

    # ----------------------------------------------------------------- sites
    def site(self, pos: n.Pos) -> int:
        """The number of the rule text at `pos` (made the first time it is asked for)."""
        origin = pos.origin
        key = (id(origin.doc), origin.path, origin.key, pos.offset, pos.end)
        found = self._site_keys.get(key)
        if found is not None:
            return found
        if origin.doc is None:
            site = Site(None, None, "")
        else:
            diagnostic = pos.diagnostic("")
            site = Site(diagnostic.location, diagnostic.source_line, pos.text.strip())
        self.sites.append(site)
        self._site_keys[key] = len(self.sites) - 1
        return len(self.sites) - 1

    def site_const(self, pos: n.Pos) -> ast.expr:
        return pyast.const(self.site(pos))

    def tag(self, statements: list[ast.stmt], site: int) -> list[ast.stmt]:
        """Remember `site` for these statements and every statement inside them that has
        none of its own yet."""
        stack = list(statements)
        while stack:
            node = stack.pop()
            if id(node) in self.statement_sites:
                continue  # tagged, with everything inside it
            self.statement_sites[id(node)] = site
            for part in ("body", "orelse"):
                stack.extend(x for x in getattr(node, part, ()) if isinstance(x, ast.stmt))
        return statements

    def temp(self) -> str:
        """A fresh local of the generated code (for a value read twice)."""
        self._temp += 1
        return f"_t{self._temp}"


    def counted(self, source: ast.expr, pos: n.Pos) -> ast.expr:
        """The source of the loop written at `pos`, where the program's loops are counted
        while the game runs (Checked.per_item), charged its items at the steps the work
        bound weighed one at; where the game's work is counted instead (Checked.game_items),
        a loop inside no other charged to the game at its items' bound."""
        if self.per_item is None:
            steps = self.game_items(pos) if self.game_items is not None else None
            if steps is None:
                return source
            return pyast.call("spent", S, source, pyast.const(steps), self.site_const(pos))
        return pyast.call("counted", S, source, pyast.const(self.per_item(pos)),
                          self.site_const(pos))

    def charged(self, code: ast.expr, node: ir.Expr) -> ast.expr:
        """A list gone through whole by what is no loop (whether an item is in it, two lists
        alike, a slice, a join), where the program's loops are counted while the game runs
        (Checked.per_item): its items charged too, a step each, since the work bound weighed
        it as the rule text fixes it, once (a list a variable holds may hold many more)."""
        if self.per_item is None or _zone_read(node) \
                or (isinstance(node, ir.Local) and node.name in self._few):
            return code  # (a zone holds at most the cards in play, which the bound counted;
            # a subset, at most the few items `subsets` takes)
        return pyast.call("counted", S, code, pyast.const(1), self.site_const(node.pos))

    # ----------------------------------------------------------- expressions
    def expr(self, node: ir.Expr) -> ast.expr:
        found = self._hoisted.get(id(node))
        if found is not None:  # worked out once for the loop it is part of
            name, code = found
            if code is None:
                return pyast.name(name)
            return ast.IfExp(pyast.name(name), pyast.subscript(pyast.name(name), pyast.const(0)),
                             pyast.call("kept", pyast.name(name), code))
        method = getattr(self, "expr_" + type(node).__name__)
        return method(node)  # type: ignore[no-any-return]

    def hoist(self, parts: list[ir.Expr], bound: str) -> list[tuple[str, ast.expr]]:
        """The pieces of a loop's parts worth working out once (reads.py's `loop_invariant`),
        each with a fresh local and what to set it to before the loop; the parts' code written
        from here on reads the local (until `unhoist`). A piece is worked out before the loop
        where `loop_invariant` says so; else where the loop first needs it: its local is a
        list, empty until then (`kept(_t, value)` fills it)."""
        out = []
        for piece, before in loop_invariant(parts, bound, self.drawing):
            # Written as for a comprehension's iterable (no `:=`): a piece's code goes in a
            # comprehension's first clause, and may be read in an inner one's iterable.
            self._iterable += 1
            try:
                code = self.expr(piece)
            finally:
                self._iterable -= 1
            name = self.temp()
            if before:
                out.append((name, code))
                self._hoisted[id(piece)] = (name, None)
            else:
                out.append((name, ast.List([], ast.Load())))
                self._hoisted[id(piece)] = (name, code)
        return out

    def values_sharing(self, values: list[ir.Expr], fixed: frozenset[str]
                       ) -> tuple[list[ast.expr], list[ast.stmt]]:
        """The code of `values` (one function's value, or a scoring's entries), and the
        statements to run before it: each call of the rule file's functions they make more
        than once with the same arguments (whose arguments read only the names `fixed`) is
        made where first needed and kept (`share`)."""
        shared = self.share(values, fixed)
        try:
            codes = [self.expr(value) for value in values]
        finally:
            self.unhoist(shared)
        return codes, [pyast.assign(name, code) for name, code in shared]

    def share(self, values: list[ir.Expr], fixed: frozenset[str]) -> list[tuple[str, ast.expr]]:
        """Each call of the rule file's functions that `values` makes more than once with the
        same arguments (reads.py's `repeated_calls`; `fixed`: the names its arguments may
        read), made where first needed and kept, as `hoist` does: a fresh local and what to
        set it to before the value is worked out, until `unhoist`."""
        out: list[tuple[str, ast.expr]] = []
        for group in repeated_calls(values, fixed, self.drawing):
            name = self.temp()
            out.append((name, ast.List([], ast.Load())))
            # each place its own code (the same call, but a fault in its arguments is that
            # place's: whichever runs first says where it failed, as before)
            self._iterable += 1  # (as in hoist: no `:=`)
            try:
                codes = [self.expr(call) for call in group]
            finally:
                self._iterable -= 1
            for call, code in zip(group, codes):
                self._hoisted[id(call)] = (name, code)
        return out

    def unhoist(self, pieces: list[tuple[str, ast.expr]]) -> None:
        names = {name for name, _ in pieces}
        self._hoisted = {k: v for k, v in self._hoisted.items() if v[0] not in names}

    def expr_Const(self, node: ir.Const) -> ast.expr:
        return pyast.const(node.value)

    def expr_Local(self, node: ir.Local) -> ast.expr:
        return pyast.name(self._names.get(node.name, local(node.name)))

    @contextmanager
    def bound(self, name: str, python: str, few: bool = False) -> Iterator[None]:
        """While code is written inside a binding of `name` (an aggregate's variable, a
        loop's), `name` reads `python`; with `few`, it holds a list of a few items at most."""
        outer, was_few = self._names.get(name), name in self._few
        self._names[name] = python
        if few:
            self._few.add(name)
        else:
            self._few.discard(name)
        try:
            yield
        finally:
            if outer is None:
                del self._names[name]
            else:
                self._names[name] = outer
            if was_few:
                self._few.add(name)
            else:
                self._few.discard(name)

    def expr_StateName(self, node: ir.StateName) -> ast.expr:
        return NAMES[node.name].emit()

    def zone_index(self, ref: ir.ZoneRef) -> ast.expr:
        """The index of the zone a reference names, folded where it is known."""
        zone = ref.zone
        if ref.owner is None and ref.group is not None:  # a group of a shared zone
            group = pyast.call("group", self.expr(ref.group), pyast.const(zone.groups),
                               self.site_const(ref.pos))
            return ast.BinOp(zone_const(zone), ast.Add(), group)
        if ref.owner is None:
            return zone_const(zone)
        owner = self.expr(ref.owner)
        if ref.group is None:
            return seat_zone(zone, owner)
        groups = pyast.const(zone.groups)
        group = pyast.call("group", self.expr(ref.group), groups, self.site_const(ref.pos))
        first = seat_zone(zone, ast.BinOp(owner, ast.Mult(), groups))
        return ast.BinOp(first, ast.Add(), group)

    def expr_ZoneRef(self, node: ir.ZoneRef) -> ast.expr:
        return self.zone_index(node)

    def in_any_order(self, node: ir.Expr) -> ast.expr:
        """A list read where its order cannot change the answer (its size, whether a card
        is in it, a sum over it): a zone's cards as they lie, never sorted first."""
        if isinstance(node, ir.Call) and node.function == "cards" \
                and id(node) not in self._hoisted:
            node = node.args[0]
        if isinstance(node, ir.ZoneCards) and node.ref.zone.layout != "grid" \
                and id(node) not in self._hoisted:
            return pyast.subscript(Z, self.zone_index(node.ref))
        return self.expr(node)

    def expr_ZoneCards(self, node: ir.ZoneCards) -> ast.expr:
        cards = pyast.subscript(Z, self.zone_index(node.ref))
        if node.ref.zone.layout != "grid":
            if _hand(node):
                # a hand read as a list: in the deck's order, never its holder's (which
                # card came last is the holder's to know, and a list made of a hand may
                # be shown: a move's choice, the cards it lays down)
                return pyast.call("sorted", cards)
            return cards
        if self._iterable:  # Python allows no := in a comprehension's iterable
            return pyast.call("present", cards)
        # A grid without an empty slot is its own list of cards; only a gap needs present().
        grid = self.temp()
        return pyast.expr("_g if -1 not in (_g := _cards) else present(_g)", pyast.name(grid),
                          cards=cards, g=pyast.name(grid))

    def expr_GameVar(self, node: ir.GameVar) -> ast.expr:
        return pyast.subscript(pyast.attr(S, "vars"), pyast.const(node.name))

    def expr_PlayerVar(self, node: ir.PlayerVar) -> ast.expr:
        table = pyast.subscript(pyast.attr(S, "pvars"), pyast.const(node.name))
        return pyast.subscript(table, self.expr(node.player))

    def expr_PlayerAttr(self, node: ir.PlayerAttr) -> ast.expr:
        if node.name == "total" and self.checked.program.in_play:  # with the points in play
            teams = self.checked.scored_teams
            return pyast.call("total_now", S, self.expr(node.player), pyast.const(teams))
        return self.stored_attr(node, self.expr(node.player))

    def stored_attr(self, node: ir.PlayerAttr, player: ast.expr) -> ast.expr:
        """Where a player's attribute is kept (a total without the points in play)."""
        template = PLAYER_ATTRIBUTES[node.name][1]
        if self.checked.house is not None:
            template = HOUSE_PLAYER_ATTRIBUTES.get(node.name, template)
        return pyast.expr(template, player)

    def expr_CardAttr(self, node: ir.CardAttr) -> ast.expr:
        card = self.expr(node.card)
        if node.table:
            return pyast.subscript(pyast.name("T_" + node.name), card)
        return pyast.expr(CARD_ATTRIBUTES[node.name][1], card)

    def expr_Call(self, node: ir.Call) -> ast.expr:
        if node.function == "top":
            zone = node.args[0]
            assert isinstance(zone, ir.ZoneRef)
            if zone.zone.layout != "grid":
                index = self.zone_index(zone)
                # (a group's index checks its number with a call, made once: by the call)
                if self.inliner.available and pure(index):
                    return self.inliner.expression("top_of_stack", {"b": B, "s": S, "z": index})
                return pyast.call("top_of_stack", B, S, index)
        if node.function == "cards" and _hand(node.args[0]) and id(node) not in self._hoisted:
            return self.expr(node.args[0])  # (sorted: a list of its own already)
        write = self.in_any_order if node.function in ORDER_FREE_FUNCTIONS else self.expr
        args = [write(a) for a in node.args]
        program = self.checked.program
        if node.function in TRICK_FUNCTIONS and (program.trick_suit or program.trick_rank):
            return self.trick_call(node.function, args)
        if self.checked.house is not None and node.function in HOUSE_FUNCTIONS:
            return HOUSE_FUNCTIONS[node.function](args, self.site_const(node.pos))
        return FUNCTIONS[node.function].emit(args, self.site_const(node.pos))

    def trick_call(self, function: str, args: list[ast.expr]) -> ast.expr:
        """A trick built-in where `tricks:` says how a card's suit or rank is read: the
        tables it reads are the ruleset's functions of the card (tr_suit, tr_rank)."""
        program = self.checked.program
        suit = pyast.call("ReadAs", S, pyast.name("tr_suit")) if program.trick_suit \
            else pyast.name("T_suit")
        rank = pyast.call("ReadAs", S, pyast.name("tr_rank")) if program.trick_rank \
            else pyast.name("T_rank")
        if function == "trick_suit":
            return pyast.subscript(suit, args[0])
        if function == "led_suit":
            return pyast.call("led_suit", suit, *args)
        return pyast.call(function, rank, suit, *args)

    def expr_UserCall(self, node: ir.UserCall) -> ast.expr:
        call = pyast.call(f"f_{node.function}", S, *(self.expr(a) for a in node.args))
        steps = self.game_items.call(node.pos) if self.game_items is not None else None
        if steps is None:
            return call
        return pyast.call("spent_on", S, pyast.const(steps), self.site_const(node.pos), call)

    def expr_Aggregate(self, node: ir.Aggregate) -> ast.expr:
        if _mapped(node):
            return self.mapped(node, self.counted(self.in_any_order(node.source), node.pos))
        var, source, once, element_code, conds = self.aggregate_parts(node)
        comps = [*(ast.comprehension(pyast.store(name), ast.Tuple([code], ast.Load()), [], 0)
                   for name, code in once),
                 ast.comprehension(pyast.store(var), source, conds, 0)]
        name = node.function
        if name == "count":
            comps[-1].ifs.append(element_code)
            element_code = pyast.const(1)
        if name == "select":
            return ast.ListComp(element_code, comps)
        if name in ("first", "all", "any"):  # these stop at the item that decides
            generator = ast.GeneratorExp(element_code, comps)
            if name == "first":
                return pyast.call("next", generator, pyast.const(None))
            return pyast.call(name, generator)
        if name in ("max_by", "min_by", "sorted_by"):  # (value, item) pairs, then the items
            pair = ast.Tuple([element_code, pyast.name(var)], ast.Load())
            by = {"max_by": "most_by", "min_by": "least_by", "sorted_by": "ordered_by"}[name]
            return pyast.call(by, ast.ListComp(pair, comps))
        # Every item is needed: a list is made faster than a generator is run.
        items = ast.ListComp(element_code, comps)
        if name in ("min", "max"):
            helper = "least" if name == "min" else "most"
            return pyast.call(helper, items, self.site_const(node.pos))
        return pyast.call("sum", items)

    def aggregate_parts(self, node: ir.Aggregate
                        ) -> tuple[str, ast.expr, list[tuple[str, ast.expr]], ast.expr,
                                   list[ast.expr]]:
        """An aggregate's loop, written apart: its variable, what it runs over, the pieces
        worked out once before it (each a local and its value), the element's code and the
        item's tests (the seat still in, then the condition)."""
        var = local(node.variable)
        element = node.element
        seated: list[ast.expr] = []
        source: ast.expr
        if isinstance(node.source, ir.StateName) and node.source.name == "players":
            # the seats still in, tested one by one: no list made (an aggregate over the
            # players often stops at the first: `all(size(hand[p]) == 0 for p in players)`)
            source = pyast.call("range", pyast.attr(S, "n"))
            if self.game_items is not None:  # (a game's count: the loops inside no other)
                source = self.counted(source, node.pos)
            seated.append(pyast.subscript(pyast.attr(S, "active"), pyast.name(var)))
        else:
            write = self.in_any_order if node.function in ORDER_FREE_AGGREGATES else self.expr
            self._iterable += 1
            try:
                source = self.counted(write(node.source), node.pos)
            finally:
                self._iterable -= 1
        # What the element and condition read that is the same for every item is worked out
        # once: a first `for` over a one-item tuple (no `:=`, which a comprehension's
        # iterable may not hold); the functions they call unfolded first (dsl/unfold.py).
        element = self.unfold(element)
        condition = self.unfold(node.condition) if node.condition is not None else None
        pieces = self.hoist([element, *([condition] if condition is not None else [])],
                            node.variable)
        try:
            # (a subset holds no more items than `subsets` takes: a few, charged as one step)
            few = isinstance(node.source, ir.Call) and node.source.function == "subsets"
            with self.bound(node.variable, var, few):
                element_code = self.expr(element)
                conds = [self.expr(condition)] if condition is not None else []
        finally:
            self.unhoist(pieces)
        return var, source, pieces, element_code, seated + conds

    def test_statements(self, test: ir.Expr, then: list[ast.stmt],
                        otherwise: list[ast.stmt]) -> list[ast.stmt]:
        """`if test: then else: otherwise`. A test that is an `all` or an `any` (or `not`
        one, or one after `and` with nothing otherwise) is written as a loop that leaves at
        the item that decides: no generator is made and resumed, on what may run after
        every card (`all(size(hand[p]) == 0 for p in players)`)."""
        if isinstance(test, ir.Negation) and _loops(test.operand):
            return self.test_statements(test.operand, otherwise, then)
        if isinstance(test, ir.Conjunction) and not otherwise and _loops(test.right):
            return [pyast.if_(self.expr(test.left), self.test_statements(test.right, then, []))]
        if not (isinstance(test, ir.Aggregate) and _loops(test)):
            return [pyast.if_(self.expr(test), then, otherwise)]
        var, source, once, element_code, conds = self.aggregate_parts(test)
        # The loop's variable is a fresh local (the test's own stays unbound: a name of the
        # rule that the blocks read is the one outside the test).
        item = self.temp()
        element_code, conds = copy.deepcopy((element_code, conds))  # (code may be shared)
        for node in (x for code in (element_code, *conds) for x in pyast.nodes(code)):
            if isinstance(node, ast.Name) and node.id == var:
                node.id = item
        if test.function == "all":  # decided by an item that fails
            decides, decided, rest = _negated(element_code), otherwise, then
        else:  # decided by an item that holds
            decides, decided, rest = element_code, then, otherwise
        found = pyast.if_(ast.BoolOp(ast.And(), [*conds, decides]) if conds else decides,
                          [*decided, ast.Break()])
        return [*(pyast.assign(name, code) for name, code in once),
                ast.For(pyast.store(item), source, [found], rest)]

    def mapped(self, node: ir.Aggregate, source: ast.expr) -> ast.expr:
        """`sum(c.points for c in col)` (`_mapped`): a table mapped over the items, with no
        Python frame per item (a table of truth values counts its true entries)."""
        element = node.element
        assert isinstance(element, ir.CardAttr)
        template = ("T_" + element.name + "[_0]") if element.table else \
            CARD_ATTRIBUTES[element.name][1]
        lookup = pyast.expr(template, pyast.name("_item"))
        assert isinstance(lookup, ast.Subscript)  # every card attribute is a table lookup
        fn = "sum" if node.function == "count" else node.function
        return pyast.call(fn, pyast.call("entries", lookup.value, source))

    def expr_ListLiteral(self, node: ir.ListLiteral) -> ast.expr:
        return ast.List([self.expr(i) for i in node.items], ast.Load())

    def expr_Join(self, node: ir.Join) -> ast.expr:
        return pyast.call("joined", self.charged(self.expr(node.left), node.left),
                          self.charged(self.expr(node.right), node.right),
                          self.site_const(node.pos))

    def expr_Index(self, node: ir.Index) -> ast.expr:
        item = node.type.name
        noun = item if item in ("card", "player") else ""
        return pyast.call("at", self.expr(node.subject), self.expr(node.index),
                          pyast.const(noun), self.site_const(node.pos))

    def expr_Slice(self, node: ir.Slice) -> ast.expr:
        bounds = [None if b is None else self.expr(b) for b in (node.start, node.stop)]
        return ast.Subscript(self.charged(self.expr(node.subject), node.subject),
                             ast.Slice(*bounds), ast.Load())

    def expr_Minus(self, node: ir.Minus) -> ast.expr:
        return ast.UnaryOp(ast.USub(), self.expr(node.operand))

    def expr_Arithmetic(self, node: ir.Arithmetic) -> ast.expr:
        left, right = self.expr(node.left), self.expr(node.right)
        if node.op == "*" and not (isinstance(node.left, ir.Const)
                                   and isinstance(node.right, ir.Const)):
            return pyast.call("bounded", ast.BinOp(left, ast.Mult(), right),
                              self.site_const(node.pos))
        if node.op in _ARITH:
            return ast.BinOp(left, _ARITH[node.op], right)
        if isinstance(node.right, ir.Const) and node.right.value:  # never zero: plain
            return ast.BinOp(left, ast.FloorDiv() if node.op == "/" else ast.Mod(), right)
        helper = "divide" if node.op == "/" else "modulo"
        return pyast.call(helper, left, right, self.site_const(node.pos))

    def expr_Comparison(self, node: ir.Comparison) -> ast.expr:
        op: ast.cmpop = _COMPARE[node.op]
        if NONE in (node.left.type, node.right.type) and node.op in ("==", "!="):
            op = ast.Is() if node.op == "==" else ast.IsNot()
        elif node.op in ("==", "!=") and (node.left.type.is_list or node.right.type.is_list):
            # a chosen subset is a tuple (an action's value), a written list a list: alike
            same = pyast.call("same", self.charged(self.expr(node.left), node.left),
                              self.charged(self.expr(node.right), node.right))
            return same if node.op == "==" else ast.UnaryOp(ast.Not(), same)
        return ast.Compare(self.expr(node.left), [op], [self.expr(node.right)])

    def expr_Membership(self, node: ir.Membership) -> ast.expr:
        if node.item.type.item is not None:  # a list among lists: a tuple (a subset, an
            # action's choice) and a list of the same items alike (runtime.same)
            found = pyast.call("member", self.expr(node.item), self.charged(
                self.in_any_order(node.collection), node.collection))
            return ast.UnaryOp(ast.Not(), found) if node.negated else found
        op = ast.NotIn() if node.negated else ast.In()
        return ast.Compare(self.expr(node.item), [op], [self.charged(
            self.in_any_order(node.collection), node.collection)])

    def expr_Negation(self, node: ir.Negation) -> ast.expr:
        return ast.UnaryOp(ast.Not(), self.expr(node.operand))

    def expr_Conjunction(self, node: ir.Conjunction) -> ast.expr:
        return ast.BoolOp(ast.And(), [self.expr(node.left), self.expr(node.right)])

    def expr_Disjunction(self, node: ir.Disjunction) -> ast.expr:
        return ast.BoolOp(ast.Or(), [self.expr(node.left), self.expr(node.right)])

    def expr_Conditional(self, node: ir.Conditional) -> ast.expr:
        return ast.IfExp(self.expr(node.test), self.expr(node.then), self.expr(node.otherwise))

    def expr_Need(self, node: ir.Need) -> ast.expr:
        return pyast.call("need", self.expr(node.operand), pyast.const(node.what),
                          self.site_const(node.pos))



def zone_const(zone: ZoneDef, offset: int = 0) -> ast.expr:
    """A zone's index (plus `offset`: a seat's own, a group's) as a number a listing names."""
    return pyast.zone_index(zone.index + offset, zone.name, zone.index)


def seat_zone(zone: ZoneDef, owner: ast.expr) -> ast.expr:
    """The index of `owner`'s own zone of a kind (the first zone's is the seat itself)."""
    if isinstance(owner, ast.Constant) and type(owner.value) is int:
        return zone_const(zone, owner.value)
    return owner if zone.index == 0 else ast.BinOp(zone_const(zone), ast.Add(), owner)



def _hand(node: ir.Expr) -> bool:
    """Whether an expression is the cards of a zone its holder alone sees (not a grid's,
    whose places are its own): read as a list, they come in the deck's order."""
    return isinstance(node, ir.ZoneCards) and node.ref.zone.visibility == "owner" \
        and node.ref.zone.layout != "grid"


def _loops(test: ir.Expr) -> bool:
    """Whether `test_statements` writes this test as a loop (at its end, for an `and`)."""
    if isinstance(test, ir.Negation):
        return _loops(test.operand)
    if isinstance(test, ir.Conjunction):
        return _loops(test.right)
    return isinstance(test, ir.Aggregate) and test.function in ("all", "any") \
        and not _mapped(test)  # (a table mapped over the items is faster still)


def _mapped(node: ir.Aggregate) -> bool:
    """Whether an aggregate is a table mapped over its items (`mapped`)."""
    element = node.element
    return node.condition is None and node.function in ("sum", "count", "all", "any") \
        and isinstance(element, ir.CardAttr) and isinstance(element.card, ir.Local) \
        and element.card.name == node.variable


_OPPOSITE: dict[type, type] = {ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.In: ast.NotIn,
                               ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}


def _negated(code: ast.expr) -> ast.expr:
    """`not code`, a single `==`, `!=`, `in` or `is` test turned round."""
    if isinstance(code, ast.Compare) and len(code.ops) == 1 and type(code.ops[0]) in _OPPOSITE:
        return ast.Compare(code.left, [_OPPOSITE[type(code.ops[0])]()], code.comparators)
    return ast.UnaryOp(ast.Not(), code)


def _zone_read(node: ir.Expr) -> bool:
    """Whether `node` reads a zone's cards (`hand[me]`, `cards(hand[me])`): a list of at most
    the cards in play, never one a variable made long."""
    if isinstance(node, ir.Call) and node.function == "cards" and node.args:
        node = node.args[0]
    return isinstance(node, (ir.ZoneCards, ir.ZoneRef))
