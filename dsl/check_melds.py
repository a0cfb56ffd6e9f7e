"""The meld kinds a ruleset declares (`melds:`), checked into the search's own terms."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from cardrules.errors import Diagnostic
from cardrules.model import ACE_PLACES, MeldKind, ZoneDef

from . import decls as d
from . import ir, limits
from . import nodes as n
from .names import did_you_mean
from .typesys import INT, TEXT, Type

Static = Callable[[n.Expr, Type, str], Any]


def meld_kinds(spec: d.MeldsDecl, value_tables: tuple[str, ...], static: Static,
               known: Callable[[str], bool], out: list[MeldKind]) -> Iterator[Diagnostic]:
    """Check `melds:`, appending each kind to `out`; yield every problem. `static(expr, type,
    what)` is the value of an expression known before the game (options and numbers), or
    None where it is not (the problem is then reported); `known(name)` whether a name means
    something in an expression (an option), so that a bare word that does not is taken for
    a misspelt ace."""
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
        yield from _kind(kind, static, known, out)


def _size(kind: d.MeldKindDecl, field: str, static: Static, default: int, least: int,
          problems: list[Diagnostic]) -> int | None:
    """A size of a kind (min, max or wilds), or its default if not written; None if it is
    not fit (its problem, if not reported already, is added to `problems`)."""
    node = getattr(kind, field)
    if node is None:
        return default
    value = static(node, INT, f"a meld kind's {field}")
    if value is not None and not least <= value <= limits.MAX_MELD_SIZE:
        problems.append(node.pos.diagnostic(
            f"{field}: {value}; a meld kind's {field} is {least} to {limits.MAX_MELD_SIZE}"))
        return None
    return value


def _kind(kind: d.MeldKindDecl, static: Static, known: Callable[[str], bool],
          out: list[MeldKind]) -> Iterator[Diagnostic]:
    problems: list[Diagnostic] = []
    least = _size(kind, "min", static, 3, 1, problems)
    most = _size(kind, "max", static, 0, 1, problems)
    wilds = _size(kind, "wilds", static, -1, 0, problems)
    yield from problems
    bad = least is None or most is None or wilds is None
    if kind.max is not None and least is not None and most is not None and most < least:
        yield kind.max.pos.diagnostic(f"max {most} is below min {least}")
        bad = True
    ace = "low"
    if kind.ace is not None:
        if kind.kind != "run":
            yield kind.ace.pos.diagnostic("ace: only a run has an order for the ace to stand in")
            bad = True
        elif isinstance(kind.ace, d.Literal):
            ace = str(kind.ace.value)
        elif isinstance(kind.ace, n.Name) and not known(kind.ace.name):
            yield kind.ace.pos.diagnostic(
                f"ace: '{kind.ace.name}' is not one of {', '.join(ACE_PLACES)}"
                + did_you_mean(kind.ace.name, ACE_PLACES))
            bad = True
        else:
            value = static(kind.ace, TEXT, "a run's ace")
            if value is None:
                bad = True
            elif value not in ACE_PLACES:
                yield kind.ace.pos.diagnostic(
                    f"ace: '{value}'; the ace stands {', '.join(ACE_PLACES[:-1])} or "
                    f"{ACE_PLACES[-1]}" + did_you_mean(str(value), ACE_PLACES))
                bad = True
            else:
                ace = str(value)
    if not bad:
        assert least is not None and most is not None and wilds is not None
        out.append(MeldKind(kind.name.name, kind.kind == "run", least, most, wilds, ace))


# ------------------------------------------------------- searches that may pass their bound
# The meld built-ins that split a whole hand (interpreter/melding.py's _Search), and the most
# cards such a search takes, where wild cards meld, that every hand drawn for
# benchmarks/meld_speed.py searched inside its bound of work (a contract rummy's kinds, two
# decks, 2s wild: 20 of 20 hands of 32 cards, 14 of 20 of 36 and of 40).
SPLIT_SEARCHES = frozenset({"deadwood", "discard_deadwood", "best_melds", "left_out",
                            "can_meld", "meld_layouts", "melds_in"})
SAFE_WILD_CARDS = 32


def large_wild_searches(program: ir.Program, kinds: tuple[MeldKind, ...], wild: bool,
                        cards: int) -> Iterator[tuple[ir.Call, str, int]]:
    """Each call (with its zone's name and the most cards it may hold) of a meld search of a
    whole zone that may hold more than SAFE_WILD_CARDS cards, in rules whose wild cards meld.
    A zone holds at most its grid's places, else every card in play (`cards`): nothing else
    is read of what the deal and the draws allow."""
    if not wild or not any(kind.wilds != 0 for kind in kinds):
        return
    for call in _calls(program):
        if call.function not in SPLIT_SEARCHES or not call.args:
            continue
        zone = _zone(call.args[0])
        if zone is None:
            continue
        most = zone.rows * zone.columns if zone.layout == "grid" else cards
        if most > SAFE_WILD_CARDS:
            yield call, zone.name, most


def _zone(expr: ir.Expr) -> ZoneDef | None:
    if isinstance(expr, ir.Need):
        expr = expr.operand
    if isinstance(expr, ir.ZoneCards):
        expr = expr.ref
    return expr.zone if isinstance(expr, ir.ZoneRef) else None


def _calls(program: ir.Program) -> Iterator[ir.Call]:
    """Every call of a built-in in the program, in no particular order."""
    return (node for node in ir.within(program) if isinstance(node, ir.Call))
