"""The generated module as a person reads it (`cardrules show --stage python`, the reviewed
snapshots in tests/generated/).

The same syntax tree the binder compiles, written out with two additions that change nothing
it does: each function is headed by a comment naming the rule text it was generated from
(file, line, column and the text), and every zone index the generator wrote is given by the
zone's name (`ZONE_grid + me` where the code runs `2 + me`), with the names defined once at the
top. An index the inliner worked out from others (rare) stays a number.
"""

from __future__ import annotations

import ast
from pathlib import PurePath

from . import pyast
from .codegen import Generated

_TEXT = 60  # the longest rule text quoted in a function's heading


def listing(generated: Generated) -> str:
    """The module's source, headed and with zones named."""
    module = pyast.clone(generated.module)
    zones: dict[str, int] = {}
    module = _ZoneNames(zones).visit(module)
    pyast.wall(module)
    headings = [_heading(generated, fn) for fn in generated.module.body
                if isinstance(fn, ast.FunctionDef)]
    out: list[str] = []
    functions = iter(headings)
    for line in ast.unparse(ast.fix_missing_locations(module)).splitlines():
        if line.startswith("def "):
            heading = next(functions)
            if heading:
                out.append(heading)
        out.append(line)
        if not zones or not line.startswith('"""'):
            continue
        out.append("")  # the zone names follow the module's docstring
        out += [f"ZONE_{name} = {index}" for name, index in
                sorted(zones.items(), key=lambda item: item[1])]
        zones = {}
    return "\n".join(out) + "\n"


def _heading(generated: Generated, fn: ast.FunctionDef) -> str:
    """`# golf6.yaml:155:13  sum(...)` for a function's rule text (or, where that is a whole
    entry, its first line: `- name: take_discard`)."""
    site_number = generated.statement_sites.get(id(fn))
    if site_number is None:
        return ""
    site = generated.sites[site_number]
    if site.location is None:
        return ""
    where = f"{PurePath(site.location.path).name}:{site.location.line}:{site.location.column}"
    text = " ".join((site.text or site.source_line or "").split())
    if len(text) > _TEXT:
        text = text[:_TEXT - 3] + "..."
    return f"# {where}  {text}".rstrip()


class _ZoneNames(ast.NodeTransformer):
    """Zone indices by name; `zones` collects each name's first index."""

    def __init__(self, zones: dict[str, int]):
        self.zones = zones

    def visit_Constant(self, node: ast.Constant) -> ast.expr:
        tag = getattr(node, "zone", None)
        if tag is None:
            return node
        name, base = tag
        self.zones[name] = base
        named = pyast.name(f"ZONE_{name}")
        offset = node.value - base
        return named if offset == 0 else ast.BinOp(named, ast.Add(), ast.Constant(offset))
