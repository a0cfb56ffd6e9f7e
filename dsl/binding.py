"""Stage 6: the generated module compiled and bound to the runtime, once per ruleset.

This is the one place generated code is run: `bind(generated, ...)` writes the checked
syntax tree out as source, compiles it under a file name of its own (registered with
`linecache`, so a traceback through it shows the generated lines), and executes it in a
namespace that holds only the runtime's functions, the ruleset's tables and a few plain
Python built-ins. It also maps each generated line back to the rule text it came from.
"""

from __future__ import annotations

import ast
import builtins
import hashlib
import linecache
from dataclasses import dataclass
from functools import cache
from typing import Any

from cardrules.errors import GeneratorError
from cardrules.interpreter import (
    card_sets,
    effects,
    flow,
    meld_goals,
    melding,
    remembered,
    runtime,
    sight,
)

from . import pyast
from .codegen import Generated

# The only Python built-ins generated code may call.
SAFE_BUILTINS = {name: getattr(builtins, name) for name in (
    "len", "list", "sum", "all", "any", "min", "max", "abs", "map", "bool", "range", "tuple",
    "next", "sorted")}


# The modules generated code calls into, each with its declared EXPORTED names: the runtime's
# reading, its questions of grids and sets of cards, the card rules that change a game, what
# parties keep knowing, the meld searches (of a whole hand, and of a goal to lay down) and the
# turn flow.
RUNTIME_MODULES = (runtime, card_sets, remembered, effects, sight, melding, meld_goals,
                   flow)


@cache
def runtime_names() -> dict[str, Any]:
    """What generated code may call or read: every name the runtime modules declare, and
    nothing else (no two modules may declare one name)."""
    out: dict[str, Any] = {}
    for module in RUNTIME_MODULES:
        for name in module.EXPORTED:
            if name in out:
                raise GeneratorError(f"{module.__name__} and another runtime module both "
                                     f"export '{name}'")
            out[name] = getattr(module, name)
    return out


@dataclass(frozen=True)
class Bound:
    """The generated module, run: its names, its source and where each line came from."""

    namespace: dict[str, Any]
    source: str
    code_name: str
    line_sites: dict[int, int]


class NestedTooDeep(GeneratorError):
    """The rules nest blocks (`if`, `for`, `while`, `until`, and the procedures that hold
    them), or expressions, deeper than Python compiles the code written for them: the file's
    bound, told as such (dsl/compiler.py), not a fault of the generator."""


def bind(generated: Generated, ruleset_name: str, tables: dict[str, Any]) -> Bound:
    """Compile and run the generated module with the runtime and `tables` in scope."""
    try:
        source = pyast.unparse(generated.module) + "\n"
    except RecursionError:  # (expressions one inside another past what Python can write)
        raise NestedTooDeep(f"the generated code of {ruleset_name} nests deeper than Python "
                            "writes") from None
    digest = hashlib.blake2b(source.encode(), digest_size=6).hexdigest()
    code_name = f"<cardrules {ruleset_name} {digest}>"
    try:
        written = ast.parse(source, code_name)
        code = compile(written, code_name, "exec")
    except SyntaxError as exc:
        if "too many statically nested blocks" in str(exc) \
                or "too many nested parentheses" in str(exc):  # Python's bound, not a fault
            raise NestedTooDeep(f"the generated code of {ruleset_name} nests its blocks "
                                "deeper than Python compiles") from None
        raise GeneratorError(f"the generated code of {ruleset_name} does not compile: {exc}") \
            from exc
    except (ValueError, RecursionError) as exc:  # the generator's fault
        raise GeneratorError(f"the generated code of {ruleset_name} does not compile: {exc}") \
            from None
    linecache.cache[code_name] = (len(source), None, source.splitlines(True), code_name)
    namespace: dict[str, Any] = {"__builtins__": SAFE_BUILTINS, **runtime_names(),
                                 **generated.constants, **tables}
    exec(code, namespace)  # noqa: S102 - the module was built from the checked tree only
    return Bound(namespace, source, code_name, line_sites(generated, written))


def forget_lines(code_name: str) -> None:
    """Drop a generated module's source from linecache (its ruleset is no longer kept: a
    server compiling a ruleset for each set of options it is asked for keeps a few)."""
    linecache.cache.pop(code_name, None)


def line_sites(generated: Generated, written: ast.Module) -> dict[int, int]:
    """Each generated line's site: the statement trees before and after writing them out
    (`written`: the source parsed) have the same shape, so walking both side by side pairs
    each statement with its line."""
    out: dict[int, int] = {}
    sites = generated.statement_sites
    for before, after in zip(pyast.statements(generated.module.body),
                             pyast.statements(written.body)):
        if type(before).__name__ != type(after).__name__:
            break  # pragma: no cover - unparse keeps the shape
        if isinstance(after, ast.stmt):
            site = sites.get(id(before))
            if site is not None:
                out.setdefault(after.lineno, site)
    return out
