"""Stage 5: the checked program to one Python module of plain functions.

The generator trusts the checked tree (ir.py): it looks nothing up and checks no type.
It builds Python syntax trees (pyast.py), so rule text reaches the code only as literal
values and checked names, and it writes control flow and calls into the one runtime
(interpreter/runtime.py), specialising the runtime's inlinable card rules in place
(inline.py) where it knows facts before the game.

It also numbers the rule text each piece of code comes from (`sites`): a fault at run
time names its site, and every generated statement remembers its own, so that anything
that goes wrong in generated code points back at the rule author's text.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any

from cardrules.interpreter import remembered
from cardrules.model import Site

from . import ir, pyast
from . import nodes as n
from .checker import Checked
from .codegen_expr import S, Z, local, seat_zone
from .codegen_stmt import StatementWriter, small
from .inline import Inliner
from .reads import seat_zones, tells


@dataclass
class Manifest:
    """Every function the generator wrote, by what it does: the assembler reads the module's
    functions from here (it never rebuilds a name), and so do the tests."""

    procedures: dict[str, str] = field(default_factory=dict)  # a rule file's procedure ->
    functions: dict[str, str] = field(default_factory=dict)  # a rule file's function ->
    initial: dict[str, str] = field(default_factory=dict)  # a variable -> its initial value
    legal: dict[tuple[int, str], str] = field(default_factory=dict)  # (phase, step) -> list
    reactions: str | None = None  # the reaction window's listing
    moves: dict[str, str] = field(default_factory=dict)  # a move -> its own rules
    handlers: dict[str, str] = field(default_factory=dict)  # a move -> rules, then the flow
    skip: dict[int, str] = field(default_factory=dict)  # a phase -> does a seat miss a turn
    on_skip: dict[int, str] = field(default_factory=dict)  # a phase -> what a miss does
    first: dict[int, str] = field(default_factory=dict)  # a phase -> who plays first
    when: dict[int, str] = field(default_factory=dict)  # a phase -> is it played
    triggers: dict[str, str] = field(default_factory=dict)  # a kind -> its triggers
    setup: str = ""
    round_end: str = ""
    round_first: str | None = None
    score: str = ""
    evaluate: str | None = None
    evaluate_key: str | None = None
    until: str | None = None
    helpers: list[str] = field(default_factory=list)  # functions only the others call
    labels: dict[str, tuple[str, ...]] = field(default_factory=dict)  # a move -> its label's
    # expressions, each fn(S, action) -> a value

    def names(self) -> set[str]:
        """The name of every function the module defines."""
        out = {*self.functions.values(), *self.procedures.values(), *self.initial.values(),
               *self.legal.values(),
               *self.moves.values(), *self.handlers.values(), *self.skip.values(),
               *self.on_skip.values(), *self.first.values(), *self.when.values(),
               *self.triggers.values(), *self.helpers, self.setup, self.round_end, self.score,
               *(name for names in self.labels.values() for name in names)}
        return out | {n for n in (self.reactions, self.round_first, self.evaluate,
                                  self.evaluate_key, self.until) if n is not None}


@dataclass
class Generated:
    """The module's syntax tree, its constants, what each function does, and where its code
    came from."""

    module: ast.Module
    constants: dict[str, Any]
    sites: list[Site]
    statement_sites: dict[int, int]  # id of a generated statement -> its site
    manifest: Manifest
    tells: bool  # some rule gives a clue (`tell`)




class Generator(StatementWriter):
    """Writes one ruleset's module: its functions (their statements are StatementWriter's,
    dsl/codegen_stmt.py; the expressions ExpressionWriter's, dsl/codegen_expr.py)."""

    def __init__(self, checked: Checked, inliner: Inliner, effects: dict[str, Any] | None = None):
        """`effects`: what the card rules may take as known wherever they are specialised
        (the `Fact` locals of interpreter/effects.py): the engine's code keeps who knows each
        card (`knowing`), a playout kernel's may not, and never logs (`logging`); whether
        any rule gives a clue (`telling`) is the program's, whether a card has a copy
        (`copies`, several decks) the deck's."""
        super().__init__(checked, inliner)
        self.functions: list[ast.stmt] = []
        self.manifest = Manifest()
        names = checked.cards.names
        self.effects = {"knowing": True, "telling": tells(checked.program),
                        "copies": len(set(names)) < len(names), **(effects or {})}


    # ---------------------------------------------------------------- module
    def rules(self) -> None:
        """Every function of the rules: user functions, variables' initial values, each
        step's legal actions and each move's own rules, setup, triggers, scoring (the move
        handlers, the rules and the flow after them, are codegen_flow.py's)."""
        program, made = self.checked.program, self.manifest
        for fn in program.functions:
            self.function_def(fn, self.kept.get(fn.name))
        for name, how in (("tr_suit", program.trick_suit), ("tr_rank", program.trick_rank)):
            if how is not None:  # `tricks:`: a card's suit or rank in a trick
                made.helpers.append(self.expression_function(name, ["S", "v_card"], how))
        for proc in program.procedures:
            params = ["S", "me", *(local(p) for p, _ in proc.params)]
            body = self.body(proc.body, tuple(p for p, _ in proc.params)) or [ast.Pass()]
            made.procedures[proc.name] = self.add_function(f"pr_{proc.name}", params, body,
                                                           self.checked.decls.name.pos)
        for var in program.variables:
            initial = var.initial
            if isinstance(initial, ir.Const) and not small(initial.value):
                # a number beyond what a value table may hold (folded before the game, as
                # 999999999 * 999999999): bounded as a number stored is
                value = self.expr(initial)
                many = isinstance(initial.value, (list, tuple))
                checked = pyast.call("bounded_items", value, self.site_const(initial.pos)) \
                    if many else self.bounded(value, initial.pos)
                body = self.tag([ast.Return(checked)], self.site(initial.pos))
                made.initial[var.name] = self.add_function(f"init_{var.name}", ["S"], body,
                                                           initial.pos)
                continue
            made.initial[var.name] = self.expression_function(f"init_{var.name}", ["S"],
                                                              initial)
        for index, phase in enumerate(program.phases):
            for step in phase.steps:
                made.legal[index, step.name] = self.step_functions(step, f"{index}_{step.name}")
            if phase.skip_turn is not None:
                made.skip[index] = self.expression_function(f"skip_{index}", ["S", "me"],
                                                            phase.skip_turn)
                made.on_skip[index] = self.statement_function(f"on_skip_{index}", phase.on_skip,
                                                              phase.skip_turn.pos)
            if phase.first is not None:
                made.first[index] = self.seat_function(
                    f"first_{index}", phase.first, f"phase '{phase.name}' begins with it")
            if phase.when is not None:
                made.when[index] = self.expression_function(f"when_{index}", ["S", "me"],
                                                            phase.when)
        if program.reactions is not None:
            made.reactions = self.step_functions(program.reactions, "reactions")
        made.setup = self.statement_function("setup", program.setup,
                                             self.checked.decls.name.pos)
        if program.round_first is not None:
            made.round_first = self.seat_function("round_first", program.round_first,
                                                  "the round's play begins with it")
        made.round_end = self.statement_function("round_end", program.round_end,
                                                 self.checked.decls.name.pos)
        for kind, triggers in program.triggers.items():
            if triggers:
                self.trigger_function(kind, triggers)
        self.score_functions(program)
        if program.until is not None:
            made.until = self.expression_function("until", ["S"], program.until)

    def module(self) -> Generated:
        """The module of every function written, with what it knows of them."""
        doc = ast.Expr(pyast.const(f"Generated by cardrules from the ruleset "
                                   f"'{self.checked.decls.name.name}'."))
        module = ast.Module([doc, *self.functions], [])
        if any(isinstance(node, ir.ReverseDirection) for node in ir.within(self.checked.program)):
            # rules that turn play round: which way it goes is the game's, not the ruleset's
            module = _GameDirection().visit(module)
        return Generated(module, self.constants, self.sites, self.statement_sites,
                         self.manifest, self.effects["telling"])

    # ------------------------------------------------------------- functions
    def add_function(self, fn_name: str, params: list[str], body: list[ast.stmt],
                     pos: n.Pos) -> str:
        uses_zones = any(isinstance(x, ast.Name) and x.id == "Z"
                         for stmt in body for x in pyast.nodes(stmt))
        prologue = [pyast.assign("Z", pyast.attr(S, "zones"))] if uses_zones else []
        fn = pyast.function(fn_name, params, prologue + body)
        self.tag([fn], self.site(pos))
        self.functions.append(fn)
        return fn_name

    def function_def(self, fn: ir.Function, lists: tuple[bool, ...] | None = None) -> None:
        """A function of the rule file. `lists`, for a function whose value is kept by its
        arguments (reads.remembered: which of them are lists, keyed as tuples): its values
        are kept in a Remembered of its own (remembered.remember: bounded, kept as copies, a
        list handed out as a copy), so that keeping them changes nothing but the time."""
        params = ["S", *(local(p) for p, _ in fn.params)]
        if lists is None:
            self.manifest.functions[fn.name] = self.expression_function(
                f"f_{fn.name}", params, fn.value, fixed=frozenset(p for p, _ in fn.params))
            return
        kept = f"M_{fn.name}"
        self.constants[kept] = remembered.Remembered()
        # a list argument: its items, and whether it came as a tuple (a function that hands
        # back its argument hands back what it was given, and `in` tells them apart)
        key = ast.Tuple([pyast.expr("(_0[:0] == (), *_0)", pyast.name(name)) if is_list
                         else pyast.name(name)
                         for name, is_list in zip(params[1:], lists)], ast.Load())
        size: ast.expr = pyast.const(len(lists))  # (the key's items: each list's count)
        for name, is_list in zip(params[1:], lists):
            if is_list:
                size = ast.BinOp(size, ast.Add(), pyast.call("len", pyast.name(name)))
        [value], prologue = self.values_sharing([fn.value], frozenset(p for p, _ in fn.params))
        body = pyast.stmts("_k = _key\n_v = _kept.values.get(_k)\nif _v is None:\n"
                           "    return remember(_kept, _k, _size, _value, _depth)\n",
                           key=key, kept=pyast.name(kept), size=size,
                           value=value, depth=pyast.const(_depth(fn.value.type)))
        found = body[2]  # (`if _v is None:`, where the value is worked out)
        assert isinstance(found, ast.If)
        found.body[0:0] = prologue
        out = pyast.name("_v")
        body.append(ast.Return(pyast.expr("_0[:]", out) if fn.value.type.is_list else out))
        self.tag(body, self.site(fn.value.pos))
        self.manifest.functions[fn.name] = self.add_function(f"f_{fn.name}", params, body,
                                                             fn.value.pos)

    def expression_function(self, fn_name: str, params: list[str], value: ir.Expr,
                            prologue: list[ast.stmt] | None = None,
                            fixed: frozenset[str] = frozenset()) -> str:
        """A function returning `value`; a call it makes more than once with the same
        arguments (which read only the names `fixed`) is made once (`share`)."""
        [code], shared = self.values_sharing([value], fixed)
        body = [*(prologue or []), *shared, ast.Return(code)]
        self.tag(body, self.site(value.pos))
        return self.add_function(fn_name, params, body, value.pos)

    def seat_function(self, fn_name: str, value: ir.Expr, what: str) -> str:
        """A function returning `value`, a seat who is to play (`what` it is for): the house,
        which takes no turn, is a fault at the rule text (runtime.a_seat)."""
        [code], shared = self.values_sharing([value], frozenset())
        seat = pyast.call("a_seat", S, code, pyast.const(what), self.site_const(value.pos))
        body = [*shared, ast.Return(seat)]
        self.tag(body, self.site(value.pos))
        return self.add_function(fn_name, ["S", "me"], body, value.pos)

    def statement_function(self, fn_name: str, stmts: tuple[ir.Stmt, ...],
                           pos: n.Pos) -> str:
        return self.add_function(fn_name, ["S", "me"], self.body(stmts), pos)

    def trigger_function(self, kind: str, triggers: tuple[ir.Trigger, ...]) -> None:
        body: list[ast.stmt] = []
        for trigger in triggers:
            inner = self.body(trigger.body, rule=("trigger", trigger.name))
            if trigger.when is None:
                body.extend(inner)
            else:
                body.extend(self.tag(self.test_statements(trigger.when, inner, []),
                                     self.site(trigger.when.pos)))
        pos = triggers[0].when.pos if triggers[0].when is not None else \
            self.checked.decls.name.pos
        self.manifest.triggers[kind] = self.add_function(kind, ["S", "me"], body, pos)

    def score_functions(self, program: ir.Program) -> None:
        bind = pyast.stmts("me = p\nv_p = p")
        values, shared = self.values_sharing([score.value for score in program.scores],
                                             frozenset({"p"}))
        if len(values) > 1 or program.in_play:  # (one entry alone: scored bounds it)
            values = [self.bounded(v, score.value.pos)
                      for v, score in zip(values, program.scores)]
        if program.in_play:  # the points scored during play, the last entry ('in play')
            teams = self.checked.scored_teams
            values.append(pyast.call("in_play", S, pyast.name("p"), pyast.const(teams)))
        pos = program.scores[0].value.pos if program.scores else self.checked.decls.name.pos
        entries = ast.Tuple(values, ast.Load())  # (their sum bounded: the round's score)
        body = [*bind, *shared, ast.Return(pyast.call("scored", entries, self.site_const(pos)))]
        self.tag(body, self.site(pos))
        self.manifest.score = self.add_function("score", ["S", "p"], body, pos)
        if program.evaluate is not None:
            self.manifest.evaluate = self.expression_function(
                "evaluate", ["S", "p"], program.evaluate, bind, fixed=frozenset({"p"}))
            self.estimate_key(program.evaluate)

    def estimate_key(self, estimate: ir.Expr) -> None:
        """`evaluate_key(S, p)`, when the estimate reads nothing but seat p's own zones: their
        cards and which way up they lie, which decide the estimate (so a search can keep it)."""
        zones = seat_zones(estimate)
        if zones is None:
            return
        # One flat tuple: each zone's cards, then which way up each lies (a grid's empty slot,
        # -1, reads the last card's, which tells nothing but is harmless: the cards say the
        # slot is empty); with several zones each is preceded by its length, so that where
        # one ends is never in doubt.
        body: list[ast.stmt] = [pyast.assign("up", pyast.expr("S.face_up"))]
        parts: list[ast.expr] = []
        for i, zone in enumerate(zones):
            held = f"_z{i}"
            body.append(pyast.assign(held, pyast.subscript(Z, seat_zone(zone, pyast.name("p")))))
            if len(zones) > 1:
                parts.append(pyast.call("len", pyast.name(held)))
            parts.append(ast.Starred(pyast.name(held), ast.Load()))
            parts.append(ast.Starred(pyast.expr("[up[c] for c in _z]", z=pyast.name(held)),
                                     ast.Load()))
        body.append(ast.Return(ast.Tuple(parts, ast.Load())))
        self.tag(body, self.site(estimate.pos))
        self.manifest.evaluate_key = self.add_function("evaluate_key", ["S", "p"], body,
                                                       estimate.pos)

    # ----------------------------------------------------------------- steps
    def step_functions(self, step: ir.Step, key: str) -> str:
        """A step's listing function (and each of its moves' rules); its name."""
        body: list[ast.stmt] = [pyast.assign("out", ast.List([], ast.Load()))]
        for move in step.moves:
            body.extend(self.listing(move))
            self.move_function(move)
        body.append(ast.Return(pyast.name("out")))
        _first_made(body, self.statement_sites)
        fn_name = f"legal_{key}"
        if not _reads_state(body, but_counts=True):
            body = _without_game_counts(body)  # (worked out once: no game pays for it)
            # The same actions in every state (choices from ranks() and the like, filtered
            # by conditions on the choices alone): listed once, on first use, then copied.
            self.manifest.helpers.append(self.add_function(f"list_{key}", [], body, step.pos))
            self.constants["LISTED"] = {}
            body = pyast.stmts(
                "got = LISTED.get(_key)\nif got is None:\n    got = LISTED[_key] = _list()\n"
                "return list(got)", key=pyast.const(fn_name), list=pyast.name(f"list_{key}"))
            self.tag(body, self.site(step.pos))
        return self.add_function(fn_name, ["S", "me"], body, step.pos)

    def listing(self, move: ir.Move) -> list[ast.stmt]:
        """The statements that append a move's legal actions to `out`."""
        if move.when is not None and isinstance(move.when, ir.Const) and not move.when.value:
            return []  # the options rule the move out
        table = self.action_table(move)
        if table is not None:
            action: ast.expr = pyast.subscript(pyast.name(table),
                                               pyast.name(local(move.params[0].name)))
        elif move.params:
            # a list chosen (cards picked by select or a slice) is held as a tuple
            action = ast.Tuple([pyast.const(move.name),
                                *(pyast.call(pyast.name("frozen"), pyast.name(local(p.name)))
                                  if p.type.is_list else pyast.name(local(p.name))
                                  for p in move.params)], ast.Load())
        else:
            self.constants[f"A_{move.name}"] = (move.name,)
            action = pyast.name(f"A_{move.name}")
        out = pyast.name("out")
        if len(move.params) == 1 and not move.params[0].open:
            # one parameter: the actions of its values as one list (faster than appending)
            param = move.params[0]
            where = param.where
            if isinstance(where, ir.Const) and where.value is True:
                where = None
            source = self.temp()  # (a comprehension's source may not assign: `:=`)
            inner: list[ast.stmt] = [pyast.assign(source, self.counted(
                self.domain(param), param.source.pos))]
            where = self.unfold(where) if where is not None else None
            pieces = self.hoist([where], param.name) if where is not None else []
            inner += [pyast.assign(name, code) for name, code in pieces]
            try:
                test = [self.expr(where)] if where is not None else []
            finally:
                self.unhoist(pieces)
            made = ast.ListComp(action, [ast.comprehension(
                pyast.store(local(param.name)), pyast.name(source), test, 0)])
            inner.append(pyast.expr_stmt(pyast.call(pyast.attr(out, "extend"), made)))
        else:
            inner = [pyast.expr_stmt(pyast.call(pyast.attr(out, "append"), action))]
            for param in reversed(move.params):
                inner = self.parameter(param, inner)
        if move.when is not None:
            inner = [pyast.if_(self.expr(move.when), inner)]
        return self.tag(inner, self.site(move.when.pos if move.when is not None else move.pos))

    def action_table(self, move: ir.Move) -> str | None:
        """For a move of one parameter of few values (a card, a player, a rank...): a table
        of its actions, made once, so that listing one costs a look-up, not a new tuple."""
        if len(move.params) != 1 or move.params[0].open:
            return None
        cards = self.checked.cards
        size = {"card": len(cards.names), "player": self.checked.max_players,
                "rank": len(cards.rank_names), "suit": len(cards.suit_names),
                "colour": 3}.get(move.params[0].type.name)
        if size is None:
            return None
        self.constants[f"ACT_{move.name}"] = tuple((move.name, i) for i in range(size))
        return f"ACT_{move.name}"

    def parameter(self, param: ir.Param, inner: list[ast.stmt]) -> list[ast.stmt]:
        var = local(param.name)
        if param.open:
            return [pyast.assign(var, self.expr(param.source)), *inner]
        if param.where is not None:
            inner = [pyast.if_(self.expr(param.where), inner)]
        source = self.counted(self.domain(param), param.source.pos)
        return [ast.For(pyast.store(var), source, inner, [])]

    def domain(self, param: ir.Param) -> ast.expr:
        """What a move's parameter is chosen from. One card of a hand is listed as the hand
        lies (the listing is its holder's alone, in the order the holder sees it); a list
        of cards made from a hand comes in the deck's order (`expr_ZoneCards`)."""
        if param.type.is_list:
            return self.expr(param.source)
        if isinstance(param.source, ir.ListLiteral) and any(
                item.nullable for item in param.source.items):
            # an item that may be none (`[first(...)]`, `[if ... else none]`): none is no
            # choice, and is not offered
            return pyast.expr("[_x for _x in _0 if _x is not None]",
                              self.in_any_order(param.source))
        return self.in_any_order(param.source)

    def move_function(self, move: ir.Move) -> None:
        unpack: list[ast.stmt] = [
            pyast.assign(local(p.name), pyast.subscript(pyast.name("A"), pyast.const(i)))
            for i, p in enumerate(move.params, 1)]
        self.manifest.moves[move.name] = self.add_function(
            f"m_{move.name}", ["S", "me", "A"],
            unpack + self.body(move.body, tuple(p.name for p in move.params),
                               ("move", move.name)), move.pos)
        self.manifest.labels[move.name] = tuple(
            self.expression_function(f"l_{move.name}_{i}", ["S", "A"], value, unpack)
            for i, value in enumerate(move.label_values))

def _first_made(body: list[ast.stmt], sites: dict[int, int]) -> None:
    """`out = []` then `out.extend(<list>)` or `out.append(<action>)` as the first thing done
    with it, unconditionally: the list made at once (`out = <list>`, `out = [<action>]`),
    which a listing run after every action saves making and growing."""
    for i, stmt in enumerate(body[1:], 1):
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) \
                and isinstance(call.func.value, ast.Name) and call.func.value.id == "out":
            made = call.args[0] if call.func.attr == "extend" \
                else ast.List([call.args[0]], ast.Load())
            body[i] = ast.copy_location(pyast.assign("out", made), stmt)
            # (a fault there is the same rule text's; the nodes dropped leave no site behind,
            # which a node made later at the same address would take for its own)
            if id(stmt) in sites:
                sites[id(body[i])] = sites.pop(id(stmt))
            sites.pop(id(body[0]), None)
            del body[0]
            return
        if not isinstance(stmt, ast.Assign) or any(
                isinstance(node, ast.Name) and node.id == "out" for node in pyast.nodes(stmt)):
            return  # (a test, a loop, or a use of the list before)


class _GameCounts(ast.NodeTransformer):
    """Generated code without what counts a game's work (runtime.spend, spent, spent_on)."""

    def visit_Call(self, node: ast.Call) -> Any:
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id == "spent":
            return node.args[1]
        if isinstance(node.func, ast.Name) and node.func.id == "spent_on":
            return node.args[3]
        return node

    def visit_Expr(self, node: ast.Expr) -> Any:
        if isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name) \
                and node.value.func.id == "spend":
            return None
        return self.generic_visit(node)


def _without_game_counts(body: list[ast.stmt]) -> list[ast.stmt]:
    """`body` without its counts of the game's work, changed where it stands (each node
    kept keeps its site): for a listing worked out once, whatever the game, which no game
    pays for again."""
    out = []
    for stmt in body:
        kept = _GameCounts().visit(stmt)
        if kept is not None:
            out.append(kept)
    return out


_COUNTS = frozenset({"spend", "spent", "spent_on"})


def _reads_state(body: list[ast.stmt], but_counts: bool = False) -> bool:
    """Whether generated statements use the state, the seat or the zones (`but_counts`:
    other than to count the game's work)."""
    counting: set[int] = set()
    if but_counts:  # (the state a count is charged to: the first argument of each)
        counting = {id(node.args[0]) for stmt in body for node in pyast.nodes(stmt)
                    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in _COUNTS and node.args}
    return any(isinstance(node, ast.Name) and node.id in ("S", "me", "Z")
               and id(node) not in counting
               for stmt in body for node in pyast.nodes(stmt))


def _depth(t: Any) -> int:
    """How many lists deep a value of type `t` is (0: no list), or -1 where the innermost
    items' type is not known (they may be lists)."""
    depth = 0
    while t is not None and t.is_list:
        depth += 1
        t = t.item
    return -1 if depth and (t is None or t.name in ("any", "none")) else depth


class _GameDirection(ast.NodeTransformer):
    """DIRECTION (the ruleset's `direction`) read as S.direction (the game's)."""

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id == "DIRECTION" and isinstance(node.ctx, ast.Load):
            return ast.copy_location(pyast.attr(S, "direction"), node)
        return node
