"""Building generated Python safely: as syntax trees, never as pasted text.

The code generator builds Python's own `ast` nodes. Rule text can reach them only as a
Constant's value (written out by `repr` when the tree is unparsed) or as a name that
`name()` has checked; templates are fixed strings of this package, parsed once, whose
holes (`_0`, `_1`, ... or named `_x`) are filled with nodes, never with text.

`wall(tree)` is the last check before anything is compiled: every identifier must be a
plain ASCII name that is not a dunder, every literal a plain value, and every node of a
kind the generator writes. It raises GeneratorError otherwise, whatever the cause.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from functools import cache
from typing import Any

from cardrules.errors import GeneratorError

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_LITERALS = (bool, int, str, type(None))

Expr = ast.expr
Stmt = ast.stmt


def checked_name(text: str) -> str:
    """`text` if it is a plain identifier the generated code may use, else GeneratorError."""
    if not isinstance(text, str) or not text.isascii() or _IDENT.fullmatch(text) is None \
            or text.startswith("__"):
        raise GeneratorError(f"refused to write the name {text!r} into generated code")
    return text


def name(text: str) -> ast.Name:
    return ast.Name(checked_name(text), ast.Load())


def store(text: str) -> ast.Name:
    return ast.Name(checked_name(text), ast.Store())


def const(value: Any) -> ast.expr:
    """A literal: a number, text, truth value or None; tuples and lists of those."""
    if isinstance(value, tuple):
        return ast.Tuple([const(v) for v in value], ast.Load())
    if isinstance(value, list):
        return ast.List([const(v) for v in value], ast.Load())
    if type(value) not in _LITERALS:
        raise GeneratorError(f"refused to write the value {value!r} into generated code")
    if type(value) is int and value < 0:  # as Python reads it back: minus, then the number
        return ast.UnaryOp(ast.USub(), ast.Constant(-value))
    return ast.Constant(value)


class ZoneIndex(ast.Constant):
    """A zone's index in generated code: the number the code runs with, and the zone it names
    (`zone`: its name and its first index), for a listing to write by name."""

    _fields = ("value", "kind", "zone")
    zone: tuple[str, int]


ZoneIndex.__name__ = ZoneIndex.__qualname__ = "Constant"  # written out as the number it is


def zone_index(index: int, zone: str, base: int) -> ast.Constant:
    """The index `index` of zone `zone`, whose first index is `base`."""
    node = ZoneIndex(index)
    node.zone = (checked_name(zone), base)
    return node


def attr(value: ast.expr, attribute: str) -> ast.Attribute:
    return ast.Attribute(value, checked_name(attribute), ast.Load())


def call(func: str | ast.expr, *args: ast.expr) -> ast.Call:
    return ast.Call(name(func) if isinstance(func, str) else func, list(args), [])


def subscript(value: ast.expr, index: ast.expr) -> ast.Subscript:
    return ast.Subscript(value, index, ast.Load())


def expr_stmt(value: ast.expr) -> ast.Expr:
    return ast.Expr(value)


def assign(target: str | ast.expr, value: ast.expr) -> ast.Assign:
    node = store(target) if isinstance(target, str) else _as_store(target)
    return ast.Assign([node], value)


# Nodes with no fields (a name's context, an operator), which Python's own parser shares
# between the nodes that hold them: a copy may share them too.
_SHARED = frozenset(cls for cls in vars(ast).values() if isinstance(cls, type)
                    and issubclass(cls, (ast.expr_context, ast.boolop, ast.operator,
                                         ast.unaryop, ast.cmpop)))


def clone(node: Any) -> Any:
    """A deep copy of a syntax tree (much faster than copy.deepcopy for these plain nodes:
    a node's fields, and where it has them its place in a source, are in its __dict__)."""
    if type(node) is list:
        return [clone(item) for item in node]
    if not isinstance(node, ast.AST) or type(node) in _SHARED:
        return node
    new = node.__class__.__new__(node.__class__)
    fields = new.__dict__
    for name, value in node.__dict__.items():
        if isinstance(value, ast.AST) or type(value) is list:
            value = clone(value)
        fields[name] = value
    return new


def nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node of a syntax tree, `tree` first: what ast.walk yields, in another order
    (depth first), and several times faster (the fields are read from each node's
    __dict__). Two trees of the same shape are walked in the same order."""
    stack = [tree]
    pop, push = stack.pop, stack.append
    while stack:
        node = pop()
        yield node
        for value in reversed(node.__dict__.values()):
            if isinstance(value, ast.AST):
                push(value)
            elif type(value) is list:
                for item in reversed(value):
                    if isinstance(item, ast.AST):
                        push(item)


def statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement of a block and of the blocks inside it, in the order written."""
    stack = list(reversed(body))
    while stack:
        stmt = stack.pop()
        yield stmt
        for name in ("handlers", "finalbody", "orelse", "body"):
            inner = stmt.__dict__.get(name)
            if type(inner) is list:
                stack.extend(reversed(inner))


def _as_store(target: ast.expr) -> ast.expr:
    target = clone(target)
    target.ctx = ast.Store()  # type: ignore[attr-defined]
    return target


def if_(test: ast.expr, body: list[ast.stmt], orelse: list[ast.stmt] | None = None) -> ast.If:
    return ast.If(test, body or [ast.Pass()], orelse or [])


def function(fn_name: str, params: list[str], body: list[ast.stmt]) -> ast.FunctionDef:
    args = ast.arguments(posonlyargs=[], args=[ast.arg(checked_name(p)) for p in params],
                         vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
    node = ast.FunctionDef(checked_name(fn_name), args, body or [ast.Pass()], [], None)
    if sys.version_info >= (3, 12):  # pragma: no cover - depends on the Python version
        node.type_params = []
    return node


# ------------------------------------------------------------------ templates
@cache
def _template(source: str, mode: str) -> ast.AST:
    tree = ast.parse(source, mode=mode)
    return tree


class _Fill(ast.NodeTransformer):
    def __init__(self, holes: dict[str, ast.AST]):
        self.holes = holes

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if node.id in self.holes:
            filled = clone(self.holes[node.id])
            if isinstance(node.ctx, ast.Store) and isinstance(filled, ast.expr):
                filled = _as_store(filled)
            return filled
        return node


def _holes(args: tuple[ast.AST, ...], named: dict[str, ast.AST]) -> dict[str, ast.AST]:
    holes = {f"_{i}": a for i, a in enumerate(args)}
    holes.update({"_" + k: v for k, v in named.items()})
    return holes


def expr(template: str, *args: ast.AST, **named: ast.AST) -> ast.expr:
    """An expression from a fixed template of this package, its holes filled with nodes:
    expr('len(_0)', node)."""
    tree = clone(_template(template, "eval"))
    filled = _Fill(_holes(args, named)).visit(tree)
    assert isinstance(filled, ast.Expression)
    return filled.body


def stmts(template: str, *args: ast.AST, **named: ast.AST) -> list[ast.stmt]:
    """Statements from a fixed template, holes filled as in `expr`."""
    tree = clone(_template(template, "exec"))
    filled = _Fill(_holes(args, named)).visit(tree)
    assert isinstance(filled, ast.Module)
    return filled.body


# ----------------------------------------------------------------------- wall
_ALLOWED = (
    ast.Module, ast.FunctionDef, ast.arguments, ast.arg, ast.Return, ast.Assign,
    ast.AugAssign, ast.AnnAssign, ast.For, ast.While, ast.If, ast.Expr, ast.Pass, ast.Break,
    ast.Continue, ast.Raise, ast.Try, ast.ExceptHandler, ast.BoolOp, ast.BinOp, ast.UnaryOp,
    ast.IfExp, ast.ListComp, ast.GeneratorExp, ast.comprehension, ast.Compare, ast.Call,
    ast.Constant, ast.Attribute, ast.Subscript, ast.Starred, ast.Name, ast.List, ast.Tuple,
    ast.Slice, ast.Load, ast.Store, ast.Del, ast.And, ast.Or, ast.Add, ast.Sub, ast.Mult,
    ast.FloorDiv, ast.Mod, ast.LShift, ast.RShift, ast.BitOr, ast.BitAnd, ast.BitXor,
    ast.Invert, ast.Not, ast.UAdd, ast.USub, ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt,
    ast.GtE, ast.Is, ast.IsNot, ast.In, ast.NotIn, ast.NamedExpr, ast.keyword,
)


_ALLOWED_TYPES = frozenset(_ALLOWED)
_NAMING = ("id", "attr", "arg", "name")  # the fields that hold an identifier


def wall(tree: ast.AST) -> None:
    """Refuse any node, identifier or literal the generator must never write."""
    for node in nodes(tree):
        if type(node) not in _ALLOWED_TYPES and not isinstance(node, _ALLOWED):
            raise GeneratorError(f"refused to generate a {type(node).__name__} node")
        fields = node.__dict__
        for field in _NAMING:
            value = fields.get(field)
            if isinstance(value, str):
                checked_name(value)
        if isinstance(node, ast.Constant) and type(node.value) not in _LITERALS:
            raise GeneratorError(f"refused to write the value {node.value!r}")


def unparse(tree: ast.AST) -> str:
    """The source text of a checked tree (literals written by repr)."""
    wall(tree)
    # ast.unparse reads a statement's line only to look for a type comment (there is none):
    # where a statement has no place in a source, any line does.
    body = tree.body if isinstance(tree, ast.Module) else [tree] if isinstance(tree, ast.stmt) \
        else []
    for stmt in statements(body):
        if "lineno" not in stmt.__dict__:
            stmt.lineno = 1
    return ast.unparse(tree)
