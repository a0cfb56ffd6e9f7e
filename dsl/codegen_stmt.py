"""Stage 5, a rule's statements: each statement of the checked tree written as Python
statements (the card rules specialised in place, dsl/inline.py), the numbers it stores
bounded, the tests of its `if`s written as loops where that stops early
(codegen_expr.test_statements). The module and its functions are dsl/codegen.py's."""

from __future__ import annotations

import ast
import copy
from typing import Any

from cardrules.interpreter import runtime
from cardrules.model import ZoneDef

from . import ir, pyast
from . import nodes as n
from .codegen_expr import ME, B, ExpressionWriter, S, local, zone_const
from .limits import MAX_VALUE
from .typesys import INT

VISIBILITY = {"hidden": runtime.HIDDEN, "owner": runtime.OWNER, "public": runtime.PUBLIC,
              "others": runtime.OTHERS}
_SIGNALS = {"turn": runtime.SIGNAL_TURN, "phase": runtime.SIGNAL_PHASE,
            "round": runtime.SIGNAL_ROUND, "game": runtime.SIGNAL_GAME}


class StatementWriter(ExpressionWriter):
    """Writes the statements of a rule (the generator is one)."""

    effects: dict[str, Any]  # what the card rules may take as known (codegen.Generator)

    # ---------------------------------------------------------------- scopes
    # A rule's names are scoped (a `let` ends with the list it is written in, a loop's name
    # with its body); a function's locals are not. So a `let` or a loop inside a block that
    # hides a name bound outside it gets a fresh local, read through `_names` while it is
    # bound, and the name outside is left as it was.
    _visible: set[str]  # the names bound here: parameters, and lets and loops around
    _rule: tuple[str, str] | None = None  # the move or trigger being written (`body`)
    _here: set[str] | None  # the names a `let` bound in this inner block (None: the body)

    def body(self, stmts: tuple[ir.Stmt, ...], params: tuple[str, ...] = (),
             rule: tuple[str, str] | None = None) -> list[ast.stmt]:
        """A rule's statements, the whole of a function's (its parameters bound). `rule`:
        the move or trigger they are ('move', name), which the log names where a statement
        ends the round or the game (None: a procedure's, a setup's...)."""
        self._names, self._visible, self._here = {}, set(params), None
        self._rule = rule
        return self.block(stmts)

    def inner(self, stmts: tuple[ir.Stmt, ...], loop: tuple[str, str] | None = None
              ) -> list[ast.stmt]:
        """A block inside another (a branch, a loop's body: `loop` its name and local):
        what is bound in it ends with it."""
        saved = dict(self._names), set(self._visible), self._here
        self._here = set()
        if loop is not None:
            name, python = loop
            self._visible.add(name)
            if python != local(name):
                self._names[name] = python
        try:
            return self.block(stmts)
        finally:
            self._names, self._visible, self._here = saved

    def binding(self, name: str) -> str:
        """The local a `let` or a loop of `name` binds here: a fresh one where it would
        overwrite a binding outside this block that is still to be read after it."""
        if self._here is not None and name in self._visible and name not in self._here:
            return self.fresh(name)
        return self._names.get(name, local(name))

    def fresh(self, name: str) -> str:
        """A local for `name` that no other binding of the function has (no rule's name
        is spelt so: theirs are all local(name), `v_...`)."""
        self._temp += 1
        return f"_h{self._temp}_{name}"

    # ------------------------------------------------------------ statements
    def block(self, stmts: tuple[ir.Stmt, ...]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in stmts:
            site = self.site(stmt.pos)
            saved, self._site_now = self._site_now, site
            try:
                method = getattr(self, "stmt_" + type(stmt).__name__)
                out.extend(self.tag(method(stmt), site))
            finally:
                self._site_now = saved
        return out

    def zone_facts(self, zone: ZoneDef, prefix: str) -> dict[str, Any]:
        return {f"{prefix}_grid": zone.layout == "grid", f"{prefix}_trick": zone.layout == "trick",
                f"{prefix}_vis": VISIBILITY[zone.visibility]}

    def stmt_MoveCards(self, stmt: ir.MoveCards) -> list[ast.stmt]:
        dest = self.zone_index(stmt.to)
        face = stmt.face
        facts = self.zone_facts(stmt.to.zone, "dest")
        if stmt.top_of is not None:
            facts |= self.zone_facts(stmt.top_of.zone, "src")
            return self.card_rule("move_top", facts, src=self.zone_index(stmt.top_of), z=dest,
                                  face=face, by=ME, under=stmt.bottom)
        if stmt.many:
            whole = stmt.cards.args[0] if isinstance(stmt.cards, ir.Call) \
                and stmt.cards.function == "cards" else stmt.cards
            if isinstance(whole, ir.ZoneCards) and whole.ref.zone.layout != "grid" \
                    and stmt.to.zone.layout != "grid":  # a zone's every card
                facts |= self.zone_facts(whole.ref.zone, "src")
                if whole.ref.zone is not stmt.to.zone:  # (two zones, never one)
                    facts["to_itself"] = False
                return self.card_rule("move_zone", facts, src=self.zone_index(whole.ref),
                                      z=dest, face=face, by=ME, under=stmt.bottom)
            cards = self.expr(stmt.cards)
            if not _named(stmt.cards):  # (a move's choice, or a part of it: in its order)
                # cards worked out from a hand land in the deck's order, not their holder's
                cards = pyast.call("table_order", B, S, cards)
            return self.card_rule("move_all", facts, cards=cards, z=dest, face=face, by=ME,
                                  under=stmt.bottom)
        return self.card_rule("move_card", facts, c=self.expr(stmt.cards), z=dest, face=face,
                              by=ME, under=stmt.bottom)

    def card_rule(self, fn_name: str, facts: dict[str, Any], **args: Any) -> list[ast.stmt]:
        """A runtime card rule: specialised in place where its source is at hand."""
        if self.inliner.available:
            return self.inliner.statements(fn_name, {"b": B, "s": S, **args},
                                           {**self.effects, **facts})
        values = [a if isinstance(a, ast.expr) else pyast.const(a) for a in args.values()]
        return [pyast.expr_stmt(pyast.call(fn_name, B, S, *values))]

    def stmt_DealCards(self, stmt: ir.DealCards) -> list[ast.stmt]:
        count = self.expr(stmt.count) if stmt.count is not None else pyast.const(None)
        after = self.expr(stmt.after) if stmt.after is not None else pyast.const(None)
        facts = self.zone_facts(stmt.source.zone, "src") | self.zone_facts(stmt.zone, "dest")
        return self.card_rule("deal", facts, count=count, src=self.zone_index(stmt.source),
                              base=zone_const(stmt.zone), face=stmt.face,
                              direction=pyast.name("DIRECTION"),
                              after=after, by=ME)

    def stmt_Shuffle(self, stmt: ir.Shuffle) -> list[ast.stmt]:
        return [pyast.expr_stmt(pyast.call("shuffle", B, S, self.zone_index(stmt.zone)))]

    def stmt_Flip(self, stmt: ir.Flip) -> list[ast.stmt]:
        if stmt.many:
            return self.card_rule("flip_all", {}, cards=self.expr(stmt.cards), face=stmt.face)
        return self.card_rule("flip_card", {}, c=self.expr(stmt.cards), face=stmt.face)

    def stmt_Swap(self, stmt: ir.Swap) -> list[ast.stmt]:
        return self.card_rule("swap", {}, c=self.expr(stmt.first), d=self.expr(stmt.second))

    def stmt_Peek(self, stmt: ir.Peek) -> list[ast.stmt]:
        fn = "peek_all" if stmt.many else "peek"
        return [pyast.expr_stmt(pyast.call(fn, B, S, self.expr(stmt.cards), ME))]

    def stmt_Reveal(self, stmt: ir.Reveal) -> list[ast.stmt]:
        cards = self.expr(stmt.cards)
        if not stmt.many:
            cards = ast.List([cards], ast.Load())
        return [pyast.expr_stmt(pyast.call("reveal", B, S, cards))]

    def stmt_Tell(self, stmt: ir.Tell) -> list[ast.stmt]:
        """The cards, whether the condition holds of each, and of each face of the deck
        (FACES: one card of each name), handed to the one rule of a clue (sight.py)."""
        cards = pyast.store("_told")
        marks = [self._each(stmt, pyast.name("_told")), self._each(stmt, pyast.name("FACES"))]
        told = self.counted(pyast.call("list", self.expr(stmt.source)), stmt.pos)
        return [ast.Assign([cards], told),
                pyast.expr_stmt(pyast.call("tell_cards", B, S, self.expr(stmt.player),
                                           pyast.name("_told"), *marks))]

    def _each(self, stmt: ir.Tell, cards: ast.expr) -> ast.expr:
        """[condition for each card of `cards`], the card bound to the clue's name."""
        loop = ast.comprehension(pyast.store(local(stmt.name)), cards, [], 0)
        with self.bound(stmt.name, local(stmt.name)):
            return ast.ListComp(pyast.call("bool", self.expr(stmt.condition)), [loop])

    def stmt_Set(self, stmt: ir.Set) -> list[ast.stmt]:
        # A number stored is bounded (runtime.bounded) where it may grow faster than by a
        # step at a time: a small constant set or added (no larger than a value table's
        # numbers may be) is not.
        plain = isinstance(stmt.value, ir.Const) and small(stmt.value.value)
        check = stmt.value.type == INT and not plain
        value = self.expr(stmt.value)
        if isinstance(stmt.target, ir.PlayerAttr) and stmt.target.name == "total" \
                and self.checked.program.in_play:
            return self.set_total(stmt, stmt.target, value)
        if stmt.op == "=":
            target = self.expr(stmt.target)
            if _numbers(stmt.value.type) and not plain:
                # a list of numbers: each bounded (a list kept and grown would hold any)
                value = pyast.call("bounded_items", value, self.site_const(stmt.pos))
            elif _nested(stmt.value.type):  # a list of lists: its items counted all told
                value = pyast.call("bounded_items", value, self.site_const(stmt.pos),
                                   pyast.const(False))
            return [pyast.assign(target, self.bounded(value, stmt.pos) if check else value)]
        op = ast.Add() if stmt.op == "+=" else ast.Sub()
        need = stmt.target if isinstance(stmt.target, ir.Need) else None
        store = pyast.assign(self.expr(need.operand if need else stmt.target), value).targets[0]
        assert isinstance(store, (ast.Name, ast.Attribute, ast.Subscript))
        if not check and need is None:
            return [ast.AugAssign(store, op, value)]
        out: list[ast.stmt] = []
        if isinstance(store, ast.Subscript) and not isinstance(store.slice,
                                                               (ast.Name, ast.Constant)):
            name = self.temp()  # the place is read and written: worked out once
            out.append(pyast.assign(name, store.slice))
            store.slice = pyast.name(name)
        load = copy.deepcopy(store)
        load.ctx = ast.Load()
        read: ast.expr = load
        if need is not None:  # a variable that may be none: x = need(x) - v
            read = pyast.call("need", load, pyast.const(need.what), self.site_const(need.pos))
        total: ast.expr = ast.BinOp(read, op, value)
        out.append(ast.Assign([store], self.bounded(total, stmt.pos) if check else total))
        return out

    def set_total(self, stmt: ir.Set, target: ir.PlayerAttr, value: ast.expr
                  ) -> list[ast.stmt]:
        """`set p.total ...` where points are scored during play: p.total reads the total
        kept and the points in play (runtime.total_now); what is set is the total kept, so
        that it then reads as set (`=`), or moves by the value (`+=`, `-=`)."""
        who = self.temp()
        out: list[ast.stmt] = [pyast.assign(who, self.expr(target.player))]
        store = pyast.assign(self.stored_attr(target, pyast.name(who)), value).targets[0]
        assert isinstance(store, (ast.Attribute, ast.Subscript))
        load = copy.deepcopy(store)
        load.ctx = ast.Load()
        now = pyast.call("total_now", S, pyast.name(who),
                         pyast.const(self.checked.scored_teams))
        if stmt.op == "=":  # (kept = value - what is in play)
            result: ast.expr = ast.BinOp(ast.BinOp(value, ast.Sub(), now), ast.Add(), load)
        else:
            result = ast.BinOp(load, ast.Add() if stmt.op == "+=" else ast.Sub(), value)
        out.append(ast.Assign([store], self.bounded(result, stmt.pos)))
        return out

    def bounded(self, value: ast.expr, pos: n.Pos) -> ast.expr:
        """A number as a rule stores it: within MOST_VALUE, else a fault at `pos`."""
        return pyast.call("bounded", value, self.site_const(pos))

    def stmt_Let(self, stmt: ir.Let) -> list[ast.stmt]:
        value = self.expr(stmt.value)  # (`let x = x + 1` reads the x outside)
        python = self.binding(stmt.name)
        if python != local(stmt.name):
            self._names[stmt.name] = python
        self._visible.add(stmt.name)
        if self._here is not None:
            self._here.add(stmt.name)
        return [pyast.assign(python, value)]

    def stmt_Signal(self, stmt: ir.Signal) -> list[ast.stmt]:
        if stmt.kind in ("round", "game"):  # logged, with the rule that said it
            return [pyast.expr_stmt(pyast.call("ends", S, pyast.const(_SIGNALS[stmt.kind]),
                                                pyast.const(self._rule)))]
        return pyast.stmts("S.signal |= _0", pyast.const(_SIGNALS[stmt.kind]))

    def seat(self, player: ir.Expr, pos: n.Pos, what: str) -> ast.expr:
        """A player where a rule needs a seat: in a ruleset with a house, checked not to be
        the house when the game runs."""
        code = self.expr(player)
        if self.checked.house is None:
            return code
        return pyast.call("a_seat", S, code, pyast.const(what), self.site_const(pos))

    def stmt_TurnTo(self, stmt: ir.TurnTo) -> list[ast.stmt]:
        return pyast.stmts("S.next_turn = _0", self.seat(stmt.player, stmt.pos,
                                                         "`turn to` names a seat"))

    def stmt_EndRoundBefore(self, stmt: ir.EndRoundBefore) -> list[ast.stmt]:
        who = self.seat(stmt.player, stmt.pos, "it never has a turn before which a round ends")
        return [pyast.expr_stmt(pyast.call("end_round_before", S, who,
                                            pyast.const(self._rule)))]

    def stmt_Win(self, stmt: ir.Win) -> list[ast.stmt]:
        return [pyast.expr_stmt(pyast.call("win", S, self.expr(stmt.player),
                                           pyast.const(self._rule)))]

    def stmt_ProcedureCall(self, stmt: ir.ProcedureCall) -> list[ast.stmt]:
        args = [self.expr(a) for a in stmt.args]
        call: list[ast.stmt] = [pyast.expr_stmt(pyast.call(f"pr_{stmt.name}", S, ME, *args))]
        steps = self.game_items.call(stmt.pos) if self.game_items is not None else None
        if steps is None:
            return call
        return [pyast.expr_stmt(pyast.call("spend", S, pyast.const(steps),
                                           self.site_const(stmt.pos))), *call]

    def stmt_ScorePoints(self, stmt: ir.ScorePoints) -> list[ast.stmt]:
        teams = self.checked.scored_teams
        who = self.seat(stmt.player, stmt.pos, "it scores at the round's end")
        points = self.bounded(self.expr(stmt.points), stmt.points.pos)
        return [pyast.expr_stmt(pyast.call("score_points", S, points, who,
                                           pyast.const(teams)))]

    def stmt_Eliminate(self, stmt: ir.Eliminate) -> list[ast.stmt]:
        who = self.seat(stmt.player, stmt.pos, "it cannot be put out")
        return [pyast.expr_stmt(pyast.call("eliminate", S, who))]

    def stmt_ReverseDirection(self, stmt: ir.ReverseDirection) -> list[ast.stmt]:
        return [pyast.expr_stmt(pyast.call("reverse_direction", S))]

    def stmt_If(self, stmt: ir.If) -> list[ast.stmt]:
        if isinstance(stmt.test, ir.Const):  # settled by the options: its branch's own block
            return self.inner(stmt.then if stmt.test.value else stmt.otherwise)
        return self.test_statements(stmt.test, self.inner(stmt.then),
                                    self.inner(stmt.otherwise))

    def stmt_For(self, stmt: ir.For) -> list[ast.stmt]:
        # (a list: the loop may change the zone)
        code = self.expr(stmt.source)
        if not (isinstance(code, ast.Call) and isinstance(code.func, ast.Name)
                and code.func.id in ("list", "sorted")):  # (a list of its own already)
            code = pyast.call("list", code)
        source = self.counted(code, stmt.pos)
        # (a fresh local where the loop hides a name still to be read after it)
        python = self.fresh(stmt.name) if stmt.name in self._visible else local(stmt.name)
        body = self.inner(stmt.body, (stmt.name, python)) or [ast.Pass()]
        return [ast.For(pyast.store(python), source, body, [])]

    def stmt_Loop(self, stmt: ir.Loop) -> list[ast.stmt]:
        """`for _loop in range(limit)`, leaving when the test says so: before the body for
        a while, after it for an until."""
        exit_test = self.expr(stmt.test)
        if stmt.test_first:
            exit_test = ast.UnaryOp(ast.Not(), exit_test)
        leave = pyast.if_(exit_test, [ast.Break()], [])
        body = self.inner(stmt.body)
        inner = [leave, *body] if stmt.test_first else [*body, leave]
        if self.per_item is not None:  # (counted: each time round, at what one is weighed)
            inner.insert(0, pyast.expr_stmt(pyast.call(
                "charge", S, pyast.const(self.per_item(stmt.pos)), self.site_const(stmt.pos))))
        elif self.game_items is not None and (steps := self.game_items(stmt.pos)) is not None:
            inner.insert(0, pyast.expr_stmt(pyast.call(
                "spend", S, pyast.const(steps), self.site_const(stmt.pos))))
        return [ast.For(pyast.store("_loop"), pyast.call("range", pyast.const(stmt.limit)),
                        inner, [])]


def _named(cards: ir.Expr) -> bool:
    """Whether cards moved are a name's (a move's choice, a local), or a part of one."""
    while isinstance(cards, (ir.Index, ir.Slice)):
        cards = cards.subject
    return isinstance(cards, ir.Local)


def small(value: Any) -> bool:
    """Whether a constant holds no number larger than a value table's may be (or a list of
    such): stored, or added a step at a time, it needs no bound at run time."""
    if isinstance(value, (list, tuple)):
        return all(small(v) for v in value)
    return not isinstance(value, int) or -MAX_VALUE <= value <= MAX_VALUE


def _nested(t: Any) -> bool:
    """Whether a type is a list of lists (a list may hold one list many times over)."""
    return t is not None and t.is_list and t.item is not None and t.item.is_list


def _numbers(t: Any) -> bool:
    """Whether a type is a list of numbers, or of lists of them."""
    while t is not None and t.is_list:
        t = t.item
        if t is not None and t.name == "int":
            return True
    return False
