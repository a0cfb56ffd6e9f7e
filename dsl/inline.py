"""Specialising the runtime's own card rules and turn flow in place: one definition, two uses.

A function the runtime marks `@inlinable` (interpreter/runtime.py, interpreter/flow.py) is an
ordinary Python function the engine calls. Where the code generator knows facts before the
game (the destination is a stack, a public zone; the card is turned face up; the move's step
is the last of its phase), it asks for the function's body with those facts put in:
parameters and `Fact` locals become constants, a known table's entries at constant places
become their values (`F.facts.repeat[0][1]`: `Known`), the branches they decide are dropped,
other locals get fresh names, and inlinable calls inside are specialised in turn (a `return`
of one, a tail call, becomes its body's own returns). What comes out is the same rule, minus
the decisions already taken.

The body is read from the runtime's source. Where the source cannot be read (a
distribution without .py files), `available` is false and the generator calls the
runtime functions instead: the same rules, only slower.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Callable
from types import ModuleType
from typing import Any

from . import pyast

Value = ast.expr | bool | int | str | None


class Ref:
    """A known table's entry that is a function of the generated module, by its name."""

    def __init__(self, name: str):
        self.name = pyast.checked_name(name)


class _Known:
    """A value of a known table held while its entries are looked up (never written out:
    one left in generated code is refused by the generator's wall)."""

    def __init__(self, value: Any):
        self.value = value


def _simple(node: ast.expr) -> bool:
    """Whether an argument may be copied into every place its parameter is used."""
    return isinstance(node, (ast.Name, ast.Constant))


class Inliner:
    """Specialises the inlinable functions of one runtime module."""

    def __init__(self, module: ModuleType, functions: dict[str, Callable[..., Any]]):
        self.module = module
        self.defs: dict[str, ast.FunctionDef] = {}
        try:
            for fn_name, fn in functions.items():
                self.defs[fn_name] = self._definition(fn)
        except (OSError, TypeError, SyntaxError):
            self.defs = {}
        self.counts = {k: _assignment_counts(v) for k, v in self.defs.items()}
        self.available = bool(self.defs)
        # Module-level numbers (EMPTY, PUBLIC...) are written as their values, those of
        # each function's own module.
        self.constants = {k: v for k, v in vars(module).items()
                          if type(v) is int and k.isupper()}
        for fn in functions.values():
            self.constants.update({k: v for k, v in getattr(fn, "__globals__", {}).items()
                                   if type(v) is int and k.isupper()})

    @staticmethod
    def _definition(fn: Callable[..., Any]) -> ast.FunctionDef:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
        node = tree.body[0]
        assert isinstance(node, ast.FunctionDef)
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body = body[1:]  # the docstring
        node.body = body
        return node

    def params(self, fn_name: str) -> list[str]:
        return [a.arg for a in self.defs[fn_name].args.args]

    # ------------------------------------------------------------------ entry
    def statements(self, fn_name: str, args: dict[str, Value],
                   facts: dict[str, Any] | None = None,
                   known: dict[str, dict[str, Any]] | None = None) -> list[ast.stmt]:
        """The body of procedure `fn_name` specialised for `args` (nodes or known values),
        `facts` (values of its `Fact` locals, and of its callees') and `known` (a parameter's
        name -> values of its attributes, looked up where the code reads them)."""
        return _without_dead_stores(self._inline(fn_name, args, facts or {}, _Fresh(),
                                                 known or {}))

    def _inline(self, fn_name: str, args: dict[str, Value], facts: dict[str, Any],
                fresh: _Fresh, known: dict[str, dict[str, Any]] | None = None,
                ) -> list[ast.stmt]:
        prologue, env = self._bind(fn_name, args, fresh)
        spec = _Specialiser(self, env, facts, self.counts[fn_name], fresh, known or {})
        return prologue + spec.block(pyast.clone(self.defs[fn_name].body))

    def expression(self, fn_name: str, args: dict[str, Value]) -> ast.expr:
        """The value of a one-`return` function, specialised; every node argument must be a
        name or a constant."""
        fresh = _Fresh()
        prologue, env = self._bind(fn_name, args, fresh, duplicate_pure=True)
        assert not prologue, "an inlined expression takes arguments without calls only"
        body = self.defs[fn_name].body
        assert len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value
        spec = _Specialiser(self, env, {}, {}, fresh, {})
        return spec.expression(pyast.clone(body[0].value))

    # ---------------------------------------------------------------- helpers
    def _bind(self, fn_name: str, args: dict[str, Value], fresh: _Fresh,
              duplicate_pure: bool = False) -> tuple[list[ast.stmt], dict[str, ast.expr]]:
        """Each parameter's stand-in: the argument itself if it is a name or a constant (or,
        with `duplicate_pure`, any argument without a call, computed where it is used), else
        a fresh local assigned it first."""
        params = self.params(fn_name)
        if set(args) != set(params):
            raise TypeError(f"{fn_name} takes {params}, given {sorted(args)}")
        prologue: list[ast.stmt] = []
        env: dict[str, ast.expr] = {}
        for param in params:
            value = args[param]
            node = value if isinstance(value, ast.expr) else pyast.const(value)
            if not (_simple(node) or (duplicate_pure and pure(node))):
                # evaluated once, where the call would have been
                temp = fresh(param)
                prologue.append(pyast.assign(temp, node))
                node = pyast.name(temp)
            env[param] = node
        return prologue, env


class _Fresh:
    """Names for the locals of one specialised rule: _i1_c, _i2_cards... (one rule's code
    never runs interleaved with another's, so numbering each from 1 is safe)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, local: str) -> str:
        self.count += 1
        return pyast.checked_name(f"_i{self.count}_{local}")


def _assignment_counts(fn: ast.FunctionDef) -> dict[str, int]:
    counts: dict[str, int] = {}
    for node in pyast.nodes(fn):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For)):
            targets = [node.target]
        for target in targets:
            for leaf in pyast.nodes(target):
                if isinstance(leaf, ast.Name) and isinstance(leaf.ctx, ast.Store):
                    counts[leaf.id] = counts.get(leaf.id, 0) + 1
    return counts


class _Specialiser:
    """Rewrites one copy of a function body for one set of arguments and facts."""

    def __init__(self, inliner: Inliner, env: dict[str, ast.expr], facts: dict[str, Any],
                 counts: dict[str, int], fresh: _Fresh, known: dict[str, dict[str, Any]]):
        self.inliner = inliner
        self.fresh = fresh
        self.env = env  # parameter or local -> what stands for it now
        self.facts = facts
        self.counts = counts
        self.renamed: set[str] = set()  # locals that have a fresh name here
        # a parameter's name, as the caller's code names it -> its known attributes
        self.known = {_root(env.get(p, pyast.name(p))): values for p, values in known.items()}

    # ------------------------------------------------------------ statements
    def block(self, body: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for stmt in body:
            out.extend(self.statement(stmt))
            if out and isinstance(out[-1], (ast.Return, ast.Raise)):
                break  # (a tail call inlined here returns: what follows never runs)
        return out

    def statement(self, stmt: ast.stmt) -> list[ast.stmt]:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            return self._fact(stmt)
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 \
                and isinstance(stmt.targets[0], ast.Name):
            return self._assign(stmt.targets[0].id, stmt.value)
        if isinstance(stmt, ast.If):
            return self._if(stmt)
        if isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Name) and not stmt.orelse:
            return self._for(stmt)
        if isinstance(stmt, (ast.Expr, ast.Return)) and isinstance(stmt.value, ast.Call) \
                and isinstance(stmt.value.func, ast.Name) \
                and stmt.value.func.id in self.inliner.defs:
            # a call of an inlinable procedure, or a tail call of an inlinable function
            # (whose own returns then return from here)
            return self._call(stmt.value)
        return [self._rewrite(stmt)]

    def _fact(self, stmt: ast.AnnAssign) -> list[ast.stmt]:
        assert isinstance(stmt.target, ast.Name)
        local = stmt.target.id
        annotation = stmt.annotation
        is_fact = isinstance(annotation, ast.Name) and annotation.id == "Fact"
        if is_fact and local in self.facts:
            self.env[local] = pyast.const(self.facts[local])
            return []
        assert stmt.value is not None
        return self._assign(local, stmt.value)

    def _assign(self, local: str, value: ast.expr) -> list[ast.stmt]:
        new_value = self.expression(value)
        if _held(new_value) is not _MISSING and self.counts.get(local, 0) == 1:
            self.env[local] = new_value  # assigned once, to a value known now
            return []
        if local in self.renamed:  # assigned before: the same fresh name again
            fresh = self.env[local].id  # type: ignore[attr-defined]
        else:
            fresh = self.fresh(local)
            self.renamed.add(local)
        self.env[local] = pyast.name(fresh)
        return [pyast.assign(fresh, new_value)]

    def _if(self, stmt: ast.If) -> list[ast.stmt]:
        test = self.expression(stmt.test)
        if isinstance(test, ast.Constant):
            return self.block(stmt.body if test.value else stmt.orelse)
        body, orelse = self.block(stmt.body), self.block(stmt.orelse)
        if not body and not orelse:
            return [ast.Expr(test)] if not pure(test) else []
        if not body:
            return [pyast.if_(_negate(test), orelse)]
        return [pyast.if_(test, body, orelse)]

    def _for(self, stmt: ast.For) -> list[ast.stmt]:
        """A loop, its body specialised (inlinable calls in it too)."""
        assert isinstance(stmt.target, ast.Name)
        source = self.expression(stmt.iter)
        local = stmt.target.id
        fresh = self.fresh(local)
        self.env[local] = pyast.name(fresh)
        self.renamed.add(local)
        body = self.block(stmt.body) or [ast.Pass()]
        return [ast.For(pyast.store(fresh), source, body, [])]

    def _call(self, node: ast.Call) -> list[ast.stmt]:
        assert isinstance(node.func, ast.Name)
        callee = node.func.id
        params = self.inliner.params(callee)
        args = {p: self.expression(a) for p, a in zip(params, node.args)}
        known = {p: self.known[_root(a)] for p, a in args.items() if _root(a) in self.known}
        return self.inliner._inline(callee, dict(args), self.facts, self.fresh, known)

    def _rewrite(self, stmt: ast.stmt) -> ast.stmt:
        rewritten = _Names(self).visit(stmt)
        assert isinstance(rewritten, ast.stmt)
        return rewritten

    # ----------------------------------------------------------- expressions
    def expression(self, node: ast.expr) -> ast.expr:
        rewritten = _fold(_Names(self).visit(node))
        assert isinstance(rewritten, ast.expr)
        return rewritten


class _Names(ast.NodeTransformer):
    """Puts what stands for each parameter and local in place of its name."""

    def __init__(self, spec: _Specialiser):
        self.spec = spec

    def visit_Name(self, node: ast.Name) -> ast.expr:
        spec = self.spec
        if node.id in spec.env:
            replacement = pyast.clone(spec.env[node.id])
            if isinstance(node.ctx, ast.Store):
                replacement.ctx = ast.Store()  # type: ignore[attr-defined]
            return replacement
        if node.id in spec.inliner.constants and isinstance(node.ctx, ast.Load):
            return pyast.const(spec.inliner.constants[node.id])
        if isinstance(node.ctx, ast.Store):  # a local first assigned in a nested block
            fresh = spec.fresh(node.id)
            spec.env[node.id] = pyast.name(fresh)
            return pyast.store(fresh)
        return node

    def generic_visit(self, node: ast.AST) -> ast.AST:
        node = super().generic_visit(node)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id in self.spec.known \
                and node.attr in self.spec.known[node.value.id]:
            return _value(self.spec.known[node.value.id][node.attr])
        return _fold(node) if isinstance(node, ast.expr) else node


def _root(node: Any) -> str:
    """The name an argument is written as (known tables follow a parameter by it)."""
    return node.id if isinstance(node, ast.Name) else ""


def _value(value: Any) -> ast.expr:
    """A known value in generated code: a plain value as itself, a function by its name,
    anything else held (`_Known`) until an entry of it is looked up."""
    if isinstance(value, Ref):
        return pyast.name(value.name)
    if value is None or isinstance(value, (bool, int, str)):
        return pyast.const(value)
    return ast.Constant(_Known(value))  # type: ignore[arg-type]


def _held(node: ast.AST) -> Any:
    """The value a folded node holds (a `_Known`, or a plain constant), or a marker."""
    if isinstance(node, ast.Constant):
        return node.value.value if isinstance(node.value, _Known) else node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) \
            and isinstance(node.operand, ast.Constant) and type(node.operand.value) is int:
        return -node.operand.value  # (a negative number, as pyast.const writes it)
    return _MISSING


_MISSING = object()


# ------------------------------------------------------------------- folding
_COMPARE = {ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b,
            ast.Is: lambda a, b: a is b, ast.IsNot: lambda a, b: a is not b,
            ast.Lt: lambda a, b: a < b, ast.LtE: lambda a, b: a <= b,
            ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b}


def _fold(node: ast.AST) -> ast.AST:
    """One node with constant operands replaced by its value (children already folded):
    also a known value's attribute or entry, its length, a sum or difference."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Constant) \
            and isinstance(node.value.value, _Known):
        return _value(getattr(node.value.value.value, node.attr))
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Constant) \
            and isinstance(node.value.value, _Known) and isinstance(node.slice, ast.Constant) \
            and type(node.slice.value) is int:
        return _value(node.value.value.value[node.slice.value])
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" \
            and len(node.args) == 1 and isinstance(_held(node.args[0]), tuple):
        return pyast.const(len(_held(node.args[0])))
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)) \
            and type(_held(node.left)) is int and type(_held(node.right)) is int:
        left, right = _held(node.left), _held(node.right)
        return pyast.const(left + right if isinstance(node.op, ast.Add) else left - right)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not) \
            and isinstance(node.operand, ast.Constant):
        return pyast.const(not node.operand.value)
    if isinstance(node, ast.Compare) and len(node.ops) == 1 \
            and isinstance(node.left, ast.Constant) \
            and isinstance(node.comparators[0], ast.Constant) \
            and type(node.ops[0]) in _COMPARE:
        result = _COMPARE[type(node.ops[0])](node.left.value, node.comparators[0].value)
        return pyast.const(bool(result))
    if isinstance(node, ast.IfExp) and _held(node.test) is not _MISSING:
        return node.body if _held(node.test) else node.orelse
    if isinstance(node, ast.BoolOp):
        return _fold_boolop(node)
    return node


def _fold_boolop(node: ast.BoolOp) -> ast.expr:
    decisive = isinstance(node.op, ast.Or)  # the value that settles `or` (True) / `and`
    kept: list[ast.expr] = []
    for value in node.values:
        if isinstance(value, ast.Constant):
            if bool(value.value) == decisive:
                if all(pure(k) for k in kept):
                    return pyast.const(decisive)
                return ast.BoolOp(node.op, [*kept, pyast.const(decisive)])
            continue  # a neutral constant: drop it
        kept.append(value)
    if not kept:
        return pyast.const(not decisive)
    return kept[0] if len(kept) == 1 else ast.BoolOp(node.op, kept)


def _negate(test: ast.expr) -> ast.expr:
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return test.operand
    return ast.UnaryOp(ast.Not(), test)


def pure(node: ast.expr) -> bool:
    """Whether evaluating `node` cannot change anything (no call in it): an argument that
    `Inliner.expression` may take."""
    return not any(isinstance(n, ast.Call) for n in pyast.nodes(node))




def _without_dead_stores(body: list[ast.stmt]) -> list[ast.stmt]:
    """Drop assignments to fresh locals that nothing reads, when computing the value cannot
    change anything (a fact that folding made useless)."""
    while True:
        loads: set[str] = set()
        assigns: list[ast.Assign] = []
        for node in pyast.nodes(ast.Module(body, [])):  # (one walk finds both)
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                loads.add(node.id)
            elif isinstance(node, ast.Assign):
                assigns.append(node)
        dead = [stmt for stmt in assigns
                if len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                and stmt.targets[0].id.startswith("_i") and stmt.targets[0].id not in loads
                and pure(stmt.value)]
        if not dead:
            return body
        body = _Drop({id(stmt) for stmt in dead}).run(body)


class _Drop(ast.NodeTransformer):
    def __init__(self, ids: set[int]):
        self.ids = ids

    def run(self, body: list[ast.stmt]) -> list[ast.stmt]:
        module = self.visit(ast.Module(body, []))
        return module.body  # type: ignore[no-any-return]

    def visit_Assign(self, node: ast.Assign) -> ast.AST | None:
        return None if id(node) in self.ids else node

    def visit_If(self, node: ast.If) -> ast.AST:
        self.generic_visit(node)
        if not node.body:
            node.body = [ast.Pass()]
        return node
