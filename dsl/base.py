"""What every part of the ruleset builder shares: the document, the diagnostics found so
far, the compiler and the generated functions, and how rule text is parsed from the YAML."""

from __future__ import annotations

import dataclasses
from typing import Any

from . import nodes as n
from .errors import Diagnostic
from .expressions import Symbols
from .parser import ParseFailure, parse
from .source import Document, Path
from .statements import Compiler
from .typesys import Type


class BuilderBase:
    """The document being built, its diagnostics, and the helpers every part uses."""


    def __init__(self, doc: Document, options: dict[str, Any] | None = None):
        self.doc = doc
        self.data: dict[str, Any] = doc.data
        self.overrides = dict(options or {})
        self.diagnostics: list[Diagnostic] = []
        self.symbols = Symbols()
        self.compiler = Compiler(self.symbols)
        self.functions: list[str] = []
        self.constants: dict[str, Any] = {}

    # --------------------------------------------------------------- helpers
    def error(self, path: Path, message: str, key: bool = False) -> None:
        self.diagnostics.append(self.doc.diagnostic(path, message, key=key))

    def parse(self, path: Path, kind: str) -> Any:
        """Parse the rule text at `path`; None (with a diagnostic) if it does not parse."""
        value = self.doc.get(path)
        text = str(value).lower() if isinstance(value, bool) else str(value)
        try:
            return parse(text, kind, n.Origin(self.doc, path))
        except ParseFailure as failure:
            self.diagnostics.append(failure.diagnostic)
            return None

    def statements(self, path: Path) -> tuple[n.Stmt, ...]:
        """Parse a YAML list of statements (strings, if-blocks, for-blocks)."""
        out: list[n.Stmt] = []
        try:
            items = self.doc.get(path) or []
        except KeyError:  # an optional list of statements that is not there
            items = []
        for i, item in enumerate(items):
            here = (*path, i)
            if isinstance(item, str):
                stmt = self.parse(here, "statement")
            elif "if" in item:
                stmt = self._if_block(here, item)
            else:
                stmt = self._for_block(here, item)
            if stmt is not None:
                out.append(stmt)
        return tuple(out)

    def _if_block(self, path: Path, item: dict[str, Any]) -> n.Stmt | None:
        test = self.parse((*path, "if"), "expression")
        then = self.statements((*path, "then"))
        other = self.statements((*path, "else")) if "else" in item else ()
        pos = n.Pos(n.Origin(self.doc, (*path, "if")), 0)
        return n.If(test, then, other, pos=pos) if test is not None else None

    def _for_block(self, path: Path, item: dict[str, Any]) -> n.Stmt | None:
        text = str(item["for"])
        var, _, rest = text.strip().partition(" ")
        offset = text.index(rest.strip()[2:].strip(), text.index(" in ") + 3)
        try:
            source = parse(text[offset:], "expression", n.Origin(self.doc, (*path, "for")))
        except ParseFailure as failure:
            self.diagnostics.append(failure.diagnostic)
            return None
        body = self.statements((*path, "do"))
        pos = n.Pos(n.Origin(self.doc, (*path, "for")), 0)
        return n.For(var, shifted(source, offset), body, pos=pos)

    def emit(self, header: str, body: list[str]) -> None:
        self.functions.append("\n".join([header, "    Z = S.zones", *body]))

    def compile_value(self, path: Path, wanted: Type, what: str, has_me: bool = False) -> str:
        """Compile the expression at `path` to Python text (checked against `wanted`)."""
        node = self.parse(path, "expression")
        if node is None:
            return "None"
        self.compiler.has_me = has_me
        code = self.compiler.expect(self.compiler.compile(node), wanted, node.pos, what)
        return code.text


def shifted(node: Any, offset: int) -> Any:
    """Re-base a parsed node's positions by `offset` characters (text parsed from a slice)."""
    if isinstance(node, tuple):
        return tuple(shifted(x, offset) for x in node)
    if not isinstance(node, n.Node):
        return node
    changes = {}
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        if isinstance(value, n.Pos):
            changes[f.name] = n.Pos(value.origin, value.offset + offset)
        elif isinstance(value, (n.Node, tuple)):
            changes[f.name] = shifted(value, offset)
    return dataclasses.replace(node, **changes)


# The only Python built-ins generated code may call.
