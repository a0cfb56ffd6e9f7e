"""What names mean in a ruleset, as the meaning check builds it: its zones, variables, options,
functions and procedures, with what a first reading saw stored in each variable. The checkers
(check_expr, check_stmt, check_table, checker) fill and read it; nothing here checks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardrules.model import ZoneDef

from . import ir
from . import nodes as n
from .typesys import Type, open_list


@dataclass
class VariableInfo:
    scope: str  # game | round | player | player_round
    type: Type
    nullable: bool


@dataclass
class FunctionInfo:
    params: tuple[Type, ...]
    returns: Type
    nullable: bool
    body: ir.Expr | None = None  # its checked value
    names: tuple[str, ...] = ()  # its parameters' names


@dataclass
class Symbols:
    """What names mean in a ruleset: its zones, variables, options, functions, card tables."""

    zones: dict[str, ZoneDef] = field(default_factory=dict)
    variables: dict[str, VariableInfo] = field(default_factory=dict)
    secret: frozenset[str] = frozenset()  # the variables some seats may not see
    options: dict[str, Any] = field(default_factory=dict)
    choices: dict[str, tuple[Any, ...]] = field(default_factory=dict)  # options with choices
    functions: dict[str, FunctionInfo] = field(default_factory=dict)
    unchecked: set[str] = field(default_factory=set)  # functions whose value failed its check
    writing: str | None = None  # the function whose value is being checked
    procedures: dict[str, tuple[Type, ...]] = field(default_factory=dict)  # their params
    procedure_names: frozenset[str] = frozenset()  # every procedure declared, checked or not
    value_tables: tuple[str, ...] = ()
    rank_names: tuple[str, ...] = ()
    suit_names: tuple[str, ...] = ()
    uncoloured: tuple[str, ...] = ()  # the deck's suits with no colour (not French, not named)
    teams: int = 0  # partnerships declared (`teams:`), or 0
    melds: bool = False  # whether `melds:` is declared
    meld_kinds: tuple[str, ...] = ()  # the names of its kinds
    house: int | None = None  # the house's player number (`house:`), or None


@dataclass
class Assignments:
    """What a first reading of the rules saw stored in each variable (to type variables
    whose initial value is none, and to know which may hold none)."""

    types: dict[str, list[tuple[Type, n.Pos]]] = field(default_factory=dict)
    nullable: set[str] = field(default_factory=set)

    def decided(self) -> dict[str, Type]:
        """Each variable's first type stored that says all (not none, not an open list): a
        reading that decides no more than the one before has found every type it can."""
        out = {}
        for name, types in self.types.items():
            found = [t for t, _ in types if t.name not in ("none", "any") and not open_list(t)]
            if found:
                out[name] = found[0]
        return out
