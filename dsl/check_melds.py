"""The meld kinds a ruleset declares (`melds:`), checked into the search's own terms."""

from __future__ import annotations

from collections.abc import Iterator

from cardrules.errors import Diagnostic
from cardrules.interpreter.melding import MeldKind

from . import decls as d
from . import limits
from .names import did_you_mean


def meld_kinds(spec: d.MeldsDecl, value_tables: tuple[str, ...],
               out: list[MeldKind]) -> Iterator[Diagnostic]:
    """Check `melds:`, appending each kind to `out`; yield every problem."""
    if spec.value is not None and spec.value.name != "number" \
            and spec.value.name not in value_tables:
        yield spec.value.pos.diagnostic(
            f"melds: no value table '{spec.value.name}' (a table of `values:`, or number)"
            + did_you_mean(spec.value.name, [*value_tables, "number"]))
    if len(spec.kinds) > limits.MAX_MELD_KINDS:
        yield spec.kinds[limits.MAX_MELD_KINDS].pos.diagnostic(
            f"at most {limits.MAX_MELD_KINDS} kinds of meld")
    seen: set[str] = set()
    for kind in spec.kinds[:limits.MAX_MELD_KINDS]:
        if kind.name.name in seen:
            yield kind.name.pos.diagnostic(f"the meld kind '{kind.name.name}' is declared twice")
        seen.add(kind.name.name)
        yield from _kind(kind, out)


def _kind(kind: d.MeldKindDecl, out: list[MeldKind]) -> Iterator[Diagnostic]:
    least = kind.min.whole if kind.min else 3
    most = kind.max.whole if kind.max else 0
    wilds = kind.wilds.whole if kind.wilds else -1
    bad = False
    for literal in (kind.min, kind.max, kind.wilds):
        if literal is not None and literal.whole > limits.MAX_MELD_SIZE:
            yield literal.pos.diagnostic(f"a meld has at most {limits.MAX_MELD_SIZE} cards")
            bad = True
    if kind.max and most < least:
        yield kind.max.pos.diagnostic(f"max {most} is below min {least}")
        bad = True
    if kind.ace is not None and kind.kind != "run":
        yield kind.ace.pos.diagnostic("ace: only a run has an order for the ace to stand in")
        bad = True
    if not bad:
        out.append(MeldKind(kind.name.name, kind.kind == "run", least, most, wilds,
                            str(kind.ace.value) if kind.ace else "low"))
