"""The whole rule file as a tree of declarations, each with its position.

`reader.read(document)` builds it from the YAML before any meaning check runs: every
piece of rule text in it is already parsed (nodes.py), every number and name is typed.
The checker (checker.py) reads only this tree, never the YAML.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from . import nodes as n


@dataclass(frozen=True)
class Named:
    """Something the rule file names: its name, and where the name is written."""

    name: str
    pos: n.Pos


def repeated(named: Iterable[Any]) -> Iterator[Named]:
    """The names of `named` (declarations, each with a `name`) that an earlier one already
    has, in order: each is a second declaration of its name."""
    seen: set[str] = set()
    for item in named:
        if item.name.name in seen:
            yield item.name
        seen.add(item.name.name)


@dataclass(frozen=True)
class Literal:
    """A number, text or truth value written as YAML (an option's default, a size)."""

    value: int | str | bool
    pos: n.Pos

    @property
    def whole(self) -> int:
        """The value as a whole number (where the schema allows only one)."""
        return int(self.value)


@dataclass(frozen=True)
class OptionDecl:
    name: Named
    default: Literal
    choices: tuple[Literal, ...] | None
    doc: str
    low: Literal | None = None  # min:
    high: Literal | None = None  # max:
    label: str = ""  # how people see it named (label:), if the file says


@dataclass(frozen=True)
class DeckDecl:
    ranks: tuple[Literal, ...]
    suits: tuple[Literal, ...]
    jokers: Literal | None
    copies: n.Expr | None
    zone: Named | None
    wild: n.Expr | None
    pos: n.Pos
    colours: tuple[tuple[Named, str], ...] = ()  # suit -> 'red' or 'black'
    joker_names: tuple[Literal, ...] = ()  # the jokers of a copy, in order


@dataclass(frozen=True)
class ValueTableDecl:
    name: Named
    entries: tuple[tuple[Named, Literal], ...]  # rank name -> number
    pos: n.Pos  # the table itself


@dataclass(frozen=True)
class MeldKindDecl:
    """One kind of meld (`melds.kinds`): a set or a run, its sizes, wilds and ace. The sizes
    are expressions that options may decide; so is the ace, where it is not one of its words."""

    name: Named
    kind: str  # set | run
    min: n.Expr | None
    max: n.Expr | None
    wilds: n.Expr | None
    ace: Literal | n.Expr | None  # a Literal: one of the words; else an expression
    pos: n.Pos


@dataclass(frozen=True)
class MeldsDecl:
    value: Named | None  # the value table deadwood counts by (None: the card's number)
    kinds: tuple[MeldKindDecl, ...]
    pos: n.Pos


@dataclass(frozen=True)
class ZoneDecl:
    name: Named
    owned: bool
    visibility: str
    layout: str
    rows: Literal | None
    columns: Literal | None
    groups: Literal | None
    doc: str
    pos: n.Pos
    keep: bool = False  # keeps its cards across rounds


@dataclass(frozen=True)
class VariableDecl:
    name: Named
    scope: str
    initial: n.Expr | None
    declared_type: Named | None  # `type:`, for a variable whose initial value is none
    visibility: str
    doc: str
    internal: bool = False
    secret_until: Named | None = None  # `round_end` or `game_end`, where it is written
    label: str = ""  # how players see it named (label:), if the file says


@dataclass(frozen=True)
class FunctionDecl:
    name: Named
    params: tuple[tuple[Named, str], ...]  # parameter name, type name
    value: n.Expr | None
    doc: str


@dataclass(frozen=True)
class ProcedureDecl:
    """`procedures:` entry: statements with parameters, run where a statement calls them."""

    name: Named
    params: tuple[tuple[Named, str], ...]  # parameter name, type name
    body: tuple[n.Stmt, ...]
    doc: str


@dataclass(frozen=True)
class ParamDecl:
    """One `choose:` entry: a parameter and the domain it ranges over."""

    name: Named
    domain: n.Domain | None


@dataclass(frozen=True)
class MoveDecl:
    name: Named
    label: n.Label | None
    label_text: str
    doc: str
    when: n.Expr | None
    params: tuple[ParamDecl, ...]
    body: tuple[n.Stmt, ...]
    then: Named | None
    pos: n.Pos


@dataclass(frozen=True)
class StepDecl:
    name: Named
    repeat: n.Expr | None
    moves: tuple[MoveDecl, ...]
    doc: str
    pos: n.Pos
    automatic: bool = False


@dataclass(frozen=True)
class PhaseDecl:
    name: Named
    turns: str
    steps: tuple[StepDecl, ...]
    skip_turn: n.Expr | None
    on_skip: tuple[n.Stmt, ...]
    doc: str
    pos: n.Pos
    first: n.Expr | None = None
    when: n.Expr | None = None


@dataclass(frozen=True)
class TriggerDecl:
    name: Named
    after: str  # after_setup | after_move | after_turn | after_round | before_turn
    when: n.Expr | None
    body: tuple[n.Stmt, ...]
    doc: str


@dataclass(frozen=True)
class ScoreDecl:
    name: Named
    score: n.Expr | None
    doc: str


@dataclass(frozen=True)
class ScoringDecl:
    by: str
    by_pos: n.Pos | None  # where `by:` is written, if it is
    winner: str
    rounds: n.Expr | None
    until: n.Expr | None
    evaluate: n.Expr | None
    round: tuple[ScoreDecl, ...]
    stakes: str = "win"  # what a match is worth to a seat: win | points | chips
    stakes_pos: n.Pos | None = None  # where `stakes:` is written, if it is


@dataclass(frozen=True)
class HouseDecl:
    """`house:`: one party that is not a seat."""

    name: str
    doc: str
    pos: n.Pos


@dataclass(frozen=True)
class PlayersDecl:
    min: Literal | None
    max: Literal | None
    default: Literal | None
    pos: n.Pos


@dataclass(frozen=True)
class RulesetDecl:
    """A whole rule file (merged onto its parents), declaration by declaration."""

    name: Named
    title: str
    summary: str
    path: str
    players: PlayersDecl
    direction: str
    options: tuple[OptionDecl, ...]
    deck: DeckDecl
    values: tuple[ValueTableDecl, ...]
    zones: tuple[ZoneDecl, ...]
    variables: tuple[VariableDecl, ...]
    functions: tuple[FunctionDecl, ...]
    setup: tuple[n.Stmt, ...]
    phases: tuple[PhaseDecl, ...]
    round_end: tuple[n.Stmt, ...]
    reactions: StepDecl | None
    triggers: tuple[TriggerDecl, ...]
    scoring: ScoringDecl
    round_first: n.Expr | None = None
    teams: Literal | None = None
    melds: MeldsDecl | None = None
    procedures: tuple[ProcedureDecl, ...] = ()
    trick_suit: n.Expr | None = None  # `tricks: suit`: a card's suit in a trick
    trick_rank: n.Expr | None = None  # `tricks: rank`: a card's strength in a trick
    max_actions: Literal | None = None
    house: HouseDecl | None = None
    repetition: str = "allow"  # `repetition: forbid`: no move returns to a position seen
