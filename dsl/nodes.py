"""The typed syntax tree of rule text: frozen dataclasses, one per grammar rule.

Each node records `pos`: the rule text it came from and its offset there, so
that later stages can point at it. Names match the grammar (`conditional` rule,
`Conditional` node, `compile_conditional` in the code generator).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cardrules.errors import Diagnostic

if TYPE_CHECKING:
    from .source import Document


@dataclass(frozen=True)
class Origin:
    """The rule text a node came from: a scalar of a YAML document (or, with `key`, the
    key that names a mapping entry)."""

    doc: Document = field(compare=False, repr=False)
    path: tuple[str | int, ...]
    key: bool = False


@dataclass(frozen=True)
class Pos:
    """A stretch of rule text: its origin, the offset of its first character and the
    offset just past its last (`end` is `offset` when only the start is known)."""

    origin: Origin
    offset: int
    end: int = -1

    @property
    def text(self) -> str:
        """The rule text this position covers (empty when its end is unknown)."""
        value = self.origin.doc.get(self.origin.path)
        if not isinstance(value, str) or self.end < self.offset:
            return ""
        return value[self.offset:self.end]

    def diagnostic(self, message: str) -> Diagnostic:
        """A diagnostic pointing at the start of this stretch of rule text, and reaching to
        its end where that is known."""
        origin = self.origin
        if origin.key:
            return origin.doc.diagnostic(origin.path, message, key=True)
        end = self.end if self.end > self.offset else None
        return origin.doc.diagnostic(origin.path, message, offset=self.offset, end=end)


@dataclass(frozen=True)
class Node:
    pos: Pos = field(kw_only=True, compare=False)


# ---------------------------------------------------------------- expressions
class Expr(Node):
    """Any expression."""


@dataclass(frozen=True)
class Number(Expr):
    value: int


@dataclass(frozen=True)
class Text(Expr):
    value: str


@dataclass(frozen=True)
class Boolean(Expr):
    value: bool


@dataclass(frozen=True)
class Nothing(Expr):
    pass


@dataclass(frozen=True)
class Name(Expr):
    name: str


@dataclass(frozen=True)
class Call(Expr):
    function: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class Aggregate(Expr):
    """`sum(c.points for c in grid[p] if c.face_up)`."""

    function: str
    element: Expr
    variable: str
    variable_pos: Pos
    source: Expr
    condition: Expr | None


@dataclass(frozen=True)
class ListLiteral(Expr):
    items: tuple[Expr, ...]


@dataclass(frozen=True)
class Attribute(Expr):
    subject: Expr
    name: str
    name_pos: Pos


@dataclass(frozen=True)
class Index(Expr):
    subject: Expr
    key: Expr


@dataclass(frozen=True)
class Slice(Expr):
    """`pile[i:]`, `cards[1:3]`: the items from a place to before another."""

    subject: Expr
    start: Expr | None
    stop: Expr | None


@dataclass(frozen=True)
class Minus(Expr):
    operand: Expr


@dataclass(frozen=True)
class Arithmetic(Expr):
    left: Expr
    op: str
    right: Expr
    span: Pos  # the whole expression (`pos` starts at the operator, where a caret points)


@dataclass(frozen=True)
class Comparison(Expr):
    left: Expr
    op: str
    right: Expr
    span: Pos  # the whole expression (`pos` starts at the operator, where a caret points)


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
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Disjunction(Expr):
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Conditional(Expr):
    test: Expr
    then: Expr
    otherwise: Expr


# ----------------------------------------------------------------- statements
class Stmt(Node):
    """Any statement of a `do:` list."""


@dataclass(frozen=True)
class MoveCards(Stmt):
    cards: Expr
    to: Expr
    face_up: bool | None
    bottom: bool = False  # `to bottom of Z`: under the zone's cards, not on top of them


@dataclass(frozen=True)
class DealCards(Stmt):
    count: Expr | None  # None: deal them all, one at a time round the table
    source: Expr
    zone: str
    zone_pos: Pos
    face_up: bool | None
    after: Expr | None = None  # the first card goes to the seat after this one


@dataclass(frozen=True)
class Shuffle(Stmt):
    zone: Expr


@dataclass(frozen=True)
class Flip(Stmt):
    cards: Expr
    face_up: bool


@dataclass(frozen=True)
class Swap(Stmt):
    first: Expr
    second: Expr


@dataclass(frozen=True)
class Set(Stmt):
    subject: str | None  # `p` in `set p.total = 0`; None for a game or round variable
    name: str
    name_pos: Pos
    op: str
    value: Expr


@dataclass(frozen=True)
class Let(Stmt):
    name: str
    name_pos: Pos
    value: Expr


@dataclass(frozen=True)
class Peek(Stmt):
    cards: Expr


@dataclass(frozen=True)
class EndTurn(Stmt):
    pass


@dataclass(frozen=True)
class TurnTo(Stmt):
    """`turn to P`: the next turn is P's, whoever the turn order would have given it to."""

    player: Expr


@dataclass(frozen=True)
class EndRound(Stmt):
    before_turn_of: Expr | None


@dataclass(frozen=True)
class EndPhase(Stmt):
    pass


@dataclass(frozen=True)
class EndGame(Stmt):
    pass


@dataclass(frozen=True)
class Win(Stmt):
    player: Expr


@dataclass(frozen=True)
class Eliminate(Stmt):
    player: Expr


@dataclass(frozen=True)
class ReverseDirection(Stmt):
    pass


@dataclass(frozen=True)
class ProcedureCall(Stmt):
    """`refill(me, 3)`: the statements of one of the file's procedures, run here."""

    name: str
    args: tuple[Expr, ...]


@dataclass(frozen=True)
class ScorePoints(Stmt):
    """`score 3 to me`: points to a seat during play, counted in its round score."""

    points: Expr
    player: Expr


@dataclass(frozen=True)
class Reveal(Stmt):
    cards: Expr


@dataclass(frozen=True)
class Tell(Stmt):
    """tell PLAYER which NAME in CARDS where CONDITION: a clue."""

    player: Expr
    variable: str
    variable_pos: Pos
    source: Expr
    condition: Expr


# Block statements come from YAML structure, not from one line of text; each part
# keeps the statements it holds, already parsed.
@dataclass(frozen=True)
class If(Stmt):
    test: Expr
    then: tuple[Stmt, ...]
    otherwise: tuple[Stmt, ...]


@dataclass(frozen=True)
class For(Stmt):
    variable: str
    variable_pos: Pos
    source: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class While(Stmt):
    """`while: test`, `limit: N`, `do: [...]`: the test first, then the body, again."""

    test: Expr
    body: tuple[Stmt, ...]
    limit: int | None  # None: not written (an error the checker reports)
    limit_pos: Pos | None


@dataclass(frozen=True)
class Until(Stmt):
    """`until: test`, `limit: N`, `do: [...]`: the body first, then the test, again."""

    test: Expr
    body: tuple[Stmt, ...]
    limit: int | None
    limit_pos: Pos | None


# -------------------------------------------------------------------- domains
@dataclass(frozen=True)
class Domain(Node):
    """What a move's parameter ranges over: `grid[me] where not card.face_up`."""

    source: Expr
    where: Expr | None


# ---------------------------------------------------------------- for clauses
@dataclass(frozen=True)
class ForClause(Node):
    """The head of a `for:` block: `p in players`."""

    variable: str
    variable_pos: Pos
    source: Expr


# --------------------------------------------------------------------- labels
@dataclass(frozen=True)
class Placeholder(Node):
    """`{card}` or `{count(cs)}` in a label: the value chosen for a move's parameter (`name`,
    when the placeholder is a name alone), or an expression worked out from the parameters
    (`expr`, any other expression)."""

    name: str
    expr: Expr | None = None


@dataclass(frozen=True)
class Label(Node):
    """A move's label: free text and placeholders, in order."""

    parts: tuple[str | Placeholder, ...]

    @property
    def placeholders(self) -> tuple[Placeholder, ...]:
        """The placeholders that name a parameter (`{card}`)."""
        return tuple(p for p in self.parts if isinstance(p, Placeholder) and p.expr is None)

    @property
    def expressions(self) -> tuple[Placeholder, ...]:
        """The placeholders that hold an expression (`{count(cs)}`)."""
        return tuple(p for p in self.parts if isinstance(p, Placeholder) and p.expr is not None)


# ---------------------------------------------------------------- identifiers
@dataclass(frozen=True)
class Identifier(Node):
    """A name the rule file gives to something (a zone, a variable, a move...)."""

    name: str
