"""The checked tree: what the meaning check hands the code generator.

Every name is resolved (a zone, a variable, a built-in, a local), every node carries its
type and its position, options and literals are folded into constants, and where a value
may be none but must not be, a `Need` says so. The generator trusts this tree: it never
looks a name up or checks a type again.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any

from cardrules.model import ZoneDef

from . import nodes as n
from .typesys import ANY, Type


# ------------------------------------------------------------------- expressions
@dataclass(frozen=True)
class Expr:
    type: Type = field(kw_only=True)
    pos: n.Pos = field(kw_only=True, compare=False, repr=False)
    nullable: bool = field(kw_only=True, default=False)  # may be none at run time


@dataclass(frozen=True)
class Const(Expr):
    """A value known when the ruleset loads: a literal, an option, a folded result; ranks,
    suits and colours as their numbers."""

    value: Any


@dataclass(frozen=True)
class Local(Expr):
    """A name a rule binds: a parameter, a `let`, a loop variable, `p` in scoring."""

    name: str


@dataclass(frozen=True)
class StateName(Expr):
    """A built-in name read from the game (me, current, dealer, players...)."""

    name: str


@dataclass(frozen=True)
class ZoneRef(Expr):
    """A zone: shared (no owner), a seat's, or one group of a grouped zone (a seat's, or a shared
    one: no owner)."""

    zone: ZoneDef
    owner: Expr | None = None
    group: Expr | None = None


@dataclass(frozen=True)
class ZoneCards(Expr):
    """A zone's cards as a list (a grid's empty slots left out)."""

    ref: ZoneRef


@dataclass(frozen=True)
class GameVar(Expr):
    """A game or round variable."""

    name: str


@dataclass(frozen=True)
class PlayerVar(Expr):
    """A player's variable: p.name."""

    player: Expr
    name: str


@dataclass(frozen=True)
class PlayerAttr(Expr):
    """A built-in attribute of a player: seat, total, active, score."""

    player: Expr
    name: str


@dataclass(frozen=True)
class CardAttr(Expr):
    """An attribute of a card: a built-in one, or a value table (`table` set)."""

    card: Expr
    name: str
    table: bool = False


@dataclass(frozen=True)
class Call(Expr):
    """A call of a built-in function (builtins.FUNCTIONS)."""

    function: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class UserCall(Expr):
    """A call of one of the ruleset's own functions."""

    function: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Aggregate(Expr):
    """`sum(c.points for c in grid[p] if c.face_up)` and the other aggregates."""

    function: str
    element: Expr
    variable: str
    source: Expr
    condition: Expr | None


@dataclass(frozen=True)
class ListLiteral(Expr):
    items: tuple[Expr, ...]


@dataclass(frozen=True)
class Join(Expr):
    """Two lists as one, the left one's items first."""

    left: Expr
    right: Expr


@dataclass(frozen=True)
class Index(Expr):
    """list[index], counted from 0 and checked."""

    subject: Expr
    index: Expr


@dataclass(frozen=True)
class Slice(Expr):
    """list[start:stop], counted from 0 (from the end where negative), cut at the ends."""

    subject: Expr
    start: Expr | None
    stop: Expr | None


@dataclass(frozen=True)
class Minus(Expr):
    operand: Expr


@dataclass(frozen=True)
class Arithmetic(Expr):
    op: str  # + - * / %  (/ rounds down)
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Comparison(Expr):
    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Membership(Expr):
    item: Expr
    collection: Expr
    negated: bool


@dataclass(frozen=True)
class Negation(Expr):
    operand: Expr


@dataclass(frozen=True)
class Conjunction(Expr):
    """left and right (right only read if left holds)."""

    left: Expr
    right: Expr


@dataclass(frozen=True)
class Disjunction(Expr):
    """left or right (right only read if left does not hold)."""

    left: Expr
    right: Expr


@dataclass(frozen=True)
class Conditional(Expr):
    test: Expr
    then: Expr
    otherwise: Expr


@dataclass(frozen=True)
class Need(Expr):
    """The value of `operand`, which must not be none: `what` names it in the fault."""

    operand: Expr
    what: str


# -------------------------------------------------------------------- statements
@dataclass(frozen=True)
class Stmt:
    pos: n.Pos = field(kw_only=True, compare=False, repr=False)


@dataclass(frozen=True)
class MoveCards(Stmt):
    """Move a card (`many` false) or cards to a zone; `top_of` is set for `top(Z)` of a
    zone that is not a grid (the card is taken from its top); `bottom`: they go under the
    zone's cards (not a grid), in the order they would lie on an empty zone."""

    cards: Expr
    many: bool
    to: ZoneRef
    face: bool | None
    top_of: ZoneRef | None = None
    bottom: bool = False


@dataclass(frozen=True)
class DealCards(Stmt):
    count: Expr | None  # None: every card
    source: ZoneRef
    zone: ZoneDef
    face: bool | None
    after: Expr | None


@dataclass(frozen=True)
class Shuffle(Stmt):
    zone: ZoneRef


@dataclass(frozen=True)
class Flip(Stmt):
    cards: Expr
    many: bool
    face: bool


@dataclass(frozen=True)
class Swap(Stmt):
    first: Expr
    second: Expr


@dataclass(frozen=True)
class Set(Stmt):
    """`set`: `target` is a GameVar, a PlayerVar or a PlayerAttr 'total'."""

    target: Expr
    op: str  # = += -=
    value: Expr


@dataclass(frozen=True)
class Let(Stmt):
    name: str
    value: Expr


@dataclass(frozen=True)
class Peek(Stmt):
    cards: Expr
    many: bool


@dataclass(frozen=True)
class Reveal(Stmt):
    cards: Expr
    many: bool


@dataclass(frozen=True)
class Tell(Stmt):
    """A clue: for each card of `source`, whether `condition` holds of it (the card named
    `name`), said to `player` and heard by the table."""

    player: Expr
    name: str
    source: Expr
    condition: Expr


@dataclass(frozen=True)
class Signal(Stmt):
    """end turn | end phase | end round | end game."""

    kind: str


@dataclass(frozen=True)
class TurnTo(Stmt):
    player: Expr


@dataclass(frozen=True)
class EndRoundBefore(Stmt):
    player: Expr


@dataclass(frozen=True)
class Win(Stmt):
    player: Expr


@dataclass(frozen=True)
class Eliminate(Stmt):
    player: Expr


@dataclass(frozen=True)
class ReverseDirection(Stmt):
    """Play goes the other way round for the rest of the round."""


@dataclass(frozen=True)
class ProcedureCall(Stmt):
    """A call of one of the rule file's procedures (`procedures:`)."""

    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Procedure:
    name: str
    params: tuple[tuple[str, Type], ...]
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class ScorePoints(Stmt):
    """Points to a seat during play: added to its points in play (IN_PLAY), which its round
    score counts and its total reads."""

    points: Expr
    player: Expr


@dataclass(frozen=True)
class If(Stmt):
    test: Expr
    then: tuple[Stmt, ...]
    otherwise: tuple[Stmt, ...]


@dataclass(frozen=True)
class For(Stmt):
    name: str
    source: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Loop(Stmt):
    """A `while` (the test first: run while true) or an `until` (the body first: run until
    true) block, its body run at most `limit` times."""

    test: Expr
    body: tuple[Stmt, ...]
    limit: int
    test_first: bool


# ---------------------------------------------------------------- the ruleset
@dataclass(frozen=True)
class Param:
    """A move's parameter: its domain (a list to go through, or an open domain of texts),
    filtered by `where`."""

    name: str
    type: Type
    source: Expr
    where: Expr | None
    open: bool


@dataclass(frozen=True)
class Move:
    name: str
    label: n.Label
    doc: str
    when: Expr | None
    params: tuple[Param, ...]
    body: tuple[Stmt, ...]
    then: int | None  # the step to go to, in the same phase
    pos: n.Pos
    label_values: tuple[Expr, ...] = ()  # the label's expressions, in order


@dataclass(frozen=True)
class Step:
    name: str
    repeat: int
    moves: tuple[Move, ...]
    pos: n.Pos
    automatic: bool = False


@dataclass(frozen=True)
class Phase:
    name: str
    turns: str
    steps: tuple[Step, ...]
    skip_turn: Expr | None
    on_skip: tuple[Stmt, ...]
    first: Expr | None = None  # who starts the phase (a player, with `me` the round's first)
    when: Expr | None = None  # whether the phase is played at all


@dataclass(frozen=True)
class Trigger:
    name: str
    when: Expr | None
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Function:
    name: str
    params: tuple[tuple[str, Type], ...]
    value: Expr


@dataclass(frozen=True)
class Variable:
    name: str
    scope: str
    type: Type
    initial: Expr
    visibility: str
    doc: str
    internal: bool = False
    secret_until: str = "game_end"  # with visibility owner: round_end or game_end
    label: str = ""  # how players see it named


@dataclass(frozen=True)
class Score:
    name: str
    value: Expr


@dataclass(frozen=True)
class Program:
    """Everything the generator turns into code, for one ruleset and its options."""

    functions: tuple[Function, ...]
    variables: tuple[Variable, ...]
    setup: tuple[Stmt, ...]
    phases: tuple[Phase, ...]
    round_end: tuple[Stmt, ...]
    reactions: Step | None
    triggers: dict[str, tuple[Trigger, ...]]  # after_setup, after_move... before_turn
    scores: tuple[Score, ...]
    evaluate: Expr | None
    rounds: Expr
    until: Expr | None
    round_first: Expr | None = None  # who starts the round's play, after the setup
    in_play: bool = False  # whether a statement scores points during play (`score N to P`)
    procedures: tuple[Procedure, ...] = ()  # each may call only those before it
    trick_suit: Expr | None = None  # `tricks: suit`, with `card` bound
    trick_rank: Expr | None = None  # `tricks: rank`, with `card` bound


_NOWHERE = n.Pos(n.Origin(None, ()), 0)  # type: ignore[arg-type]
BAD = Const(None, type=ANY, pos=_NOWHERE)  # what a node with a problem checks to


def within(node: object) -> Iterator[object]:
    """Every node of a checked tree (`node` and all below it, with tuples, lists and dicts
    gone into), in no particular order: a loop, not a recursion, however deep the tree."""
    stack: list[object] = [node]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(parts(node))


def parts(node: object) -> Any:
    """What a node of a checked tree holds, one level down: a dataclass's fields (but a
    zone's declaration and a place in the text, which hold no rule), the items of a tuple or
    list, the values of a dict; nothing for anything else."""
    kind = _PARTS.get(type(node))
    if kind is None:
        kind = _PARTS[type(node)] = _kind(type(node))
    if kind == "items":
        return node
    if kind == "values":
        return node.values()  # type: ignore[attr-defined]
    return [getattr(node, name) for name in kind]


_PARTS: dict[type, str | tuple[str, ...]] = {}  # a type -> "items", "values" or field names


def _kind(cls: type) -> str | tuple[str, ...]:
    if issubclass(cls, (tuple, list)):
        return "items"
    if issubclass(cls, dict):
        return "values"
    if is_dataclass(cls) and not issubclass(cls, (ZoneDef, n.Pos)):
        return tuple(f.name for f in fields(cls))
    return ()
