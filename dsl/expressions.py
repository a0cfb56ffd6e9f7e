"""Stages 4 and 5 for expressions: the meaning check and code generation, in one walk.

Every `compile_<rule>` method first checks its node (names, arities, types; each
problem becomes a located diagnostic) and then writes the Python that computes it.
Generated code only ever comes from checked nodes: rule names become `v_<name>`
locals, literals are written with repr(), and nothing of the rule text is pasted.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from . import nodes as n
from .builtins import AGGREGATES, CARD_ATTRIBUTES, FUNCTIONS, NAMES, PLAYER_ATTRIBUTES
from .errors import Diagnostic
from .model import ZoneDef
from .names import did_you_mean
from .typesys import (
    ANY,
    BOOL,
    CARD,
    CARDS,
    COLOUR,
    INT,
    NONE,
    PLAYER,
    RANK,
    SUIT,
    TEXT,
    ZONE,
    Type,
    accepts,
    as_collection,
    comparable,
    list_of,
    zone_type,
)

UNKNOWN = object()  # the value of an expression that is only known while a game runs


@dataclass(frozen=True)
class Code:
    """Generated Python for one expression, and what it is."""

    text: str
    type: Type
    zone: ZoneDef | None = None  # set for a zone reference; text is then its zone index
    const: Any = UNKNOWN  # the value, when it is known before any game starts
    lookup: tuple[str, str] | None = None  # (table, key) when the value is table[key]
    nullable: bool = False  # whether the value may be none (variables, `none`, lets of them)

    @property
    def known(self) -> bool:
        return self.const is not UNKNOWN


def constant(value: Any, t: Type) -> Code:
    """A value known when the ruleset loads (literals, options, what folds from them)."""
    return Code(repr(value), t, const=value)


BAD = Code("None", ANY)
_NO_ZONE = ZoneDef("", False, "hidden", "stack", 1, 1, 0)


@dataclass
class Symbols:
    """What names mean in a ruleset: its zones, variables, options and card tables."""

    zones: dict[str, ZoneDef] = field(default_factory=dict)
    variables: dict[str, tuple[str, Type]] = field(default_factory=dict)  # name -> scope, type
    options: dict[str, Any] = field(default_factory=dict)
    choices: dict[str, tuple[Any, ...]] = field(default_factory=dict)  # options with choices
    # the ruleset's own functions: name -> (Python name, parameter types, result type)
    functions: dict[str, tuple[str, tuple[Type, ...], Type]] = field(default_factory=dict)
    value_tables: tuple[str, ...] = ()
    rank_names: tuple[str, ...] = ()
    suit_names: tuple[str, ...] = ()


COLOURS = ("red", "black", "none")


class ExpressionCompiler:
    """Checks and compiles expressions against a ruleset's symbols (statements: see
    statements.Compiler, which builds on this)."""

    def __init__(self, symbols: Symbols):
        self.symbols = symbols
        self.diagnostics: list[Diagnostic] = []
        self.scope: dict[str, tuple[str, Type]] = {}
        self.has_me = True
        self.temp = 0  # numbers the temporaries of written-out statements
        self.nullable: set[str] = set()  # locals that may hold none
        self.iterable_depth = 0  # > 0 while compiling the source of a comprehension

    # ------------------------------------------------------------ diagnostics
    def error(self, pos: n.Pos, message: str) -> Code:
        doc = pos.origin.doc
        self.diagnostics.append(doc.diagnostic(pos.origin.path, message, offset=pos.offset))
        return BAD

    @contextmanager
    def bind(self, names: dict[str, Type]) -> Iterator[None]:
        """Names visible inside a block (parameters, loop variables, `p` in scoring)."""
        saved = dict(self.scope)
        for name, t in names.items():
            self.scope[name] = (local_name(name), t)
        try:
            yield
        finally:
            self.scope = saved

    def expect(self, code: Code, wanted: Type, pos: n.Pos, what: str) -> Code:
        if code is not BAD and not accepts(wanted, code.type):
            self.error(pos, f"{what} must be {wanted}, but this is {code.type}")
            return BAD
        return code

    def is_known_name(self, name: str) -> bool:
        s = self.symbols
        return name in self.scope or name in NAMES or name in s.zones or name in s.variables \
            or name in s.options

    def known_names(self) -> list[str]:
        s = self.symbols
        return [*self.scope, *NAMES, *s.zones, *s.variables, *s.options]

    # ----------------------------------------------------------- expressions
    def compile(self, node: n.Expr) -> Code:
        method = getattr(self, "compile_" + snake_case(type(node).__name__))
        return method(node)  # type: ignore[no-any-return]

    def cards_of(self, node: n.Expr, what: str) -> Code:
        """Compile an expression used as a list of cards (a zone gives its cards)."""
        code = self.compile(node)
        if code is BAD:
            return BAD
        if code.zone is not None:
            if code.zone.layout == "grid" and self.iterable_depth:
                text = f"present(Z[{code.text}])"  # (no := inside a comprehension's source)
            elif code.zone.layout == "grid":  # a grid's slots may hold -1 (empty): skip those
                self.temp += 1
                g = f"_g{self.temp}"
                text = f"({g} if -1 not in ({g} := Z[{code.text}]) else present({g}))"
            else:
                text = f"Z[{code.text}]"
            return Code(text, CARDS)
        return self.expect(code, CARDS, node.pos, what)

    def compile_number(self, node: n.Number) -> Code:
        return constant(node.value, INT)

    def compile_text(self, node: n.Text) -> Code:
        return constant(node.value, TEXT)

    def compile_boolean(self, node: n.Boolean) -> Code:
        return constant(node.value, BOOL)

    def compile_nothing(self, node: n.Nothing) -> Code:
        return Code("None", NONE, const=None, nullable=True)

    def compile_name(self, node: n.Name) -> Code:
        name, s = node.name, self.symbols
        if name in self.scope:
            pyname, t = self.scope[name]
            return Code(pyname, t, nullable=pyname in self.nullable)
        if name in NAMES:
            if name in ("me", "others") and not self.has_me:
                return self.error(node.pos, f"'{name}' has no meaning here: no player is acting")
            b = NAMES[name]
            return Code(b.code, b.type)
        if name in s.zones:
            zone = s.zones[name]
            if zone.owned:
                return self.error(node.pos, f"zone '{name}' belongs to each player: "
                                            f"write {name}[me] or {name}[p]")
            return Code(repr(zone.index), zone_type(name), zone)
        if name in s.variables:
            scope, t = s.variables[name]
            if scope in ("player", "player_round"):
                return self.error(node.pos, f"'{name}' is a player variable: write p.{name}")
            return Code(f"S.vars[{name!r}]", t, nullable=True)
        if name in s.options:
            value = s.options[name]
            return constant(value, _type_of_value(value))
        return self.error(node.pos, f"unknown name '{name}'"
                                    + did_you_mean(name, self.known_names()))

    def compile_index(self, node: n.Index) -> Code:
        subject = node.subject
        if isinstance(subject, n.Name) and subject.name in self.symbols.zones \
                and subject.name not in self.scope:
            return self.zone_ref(subject.name, node)
        if isinstance(subject, n.Index) and isinstance(subject.subject, n.Name) \
                and subject.subject.name not in self.scope \
                and self.symbols.zones.get(subject.subject.name, _NO_ZONE).groups:
            return self.group_ref(subject.subject.name, subject, node)
        if isinstance(subject, n.Name) and not self.is_known_name(subject.name):
            self.compile(node.key)  # for the problems inside the brackets
            return self.error(subject.pos, f"unknown zone '{subject.name}'"
                              + did_you_mean(subject.name, self.symbols.zones))
        base = self.compile(subject)
        if base is BAD:
            self.compile(node.key)
            return BAD
        key = self.expect(self.compile(node.key), INT, node.key.pos, "a list index")
        if key is BAD:
            return BAD
        coll = as_collection(base.type)
        if coll is None or base.zone is not None:
            return self.error(node.pos, f"cannot index {base.type}")
        return Code(f"{base.text}[{key.text}]", coll.item or ANY)

    def zone_ref(self, name: str, node: n.Index) -> Code:
        zone = self.symbols.zones[name]
        if not zone.owned:
            return self.error(node.pos, f"zone '{name}' is shared: write {name} without [...]")
        if zone.groups:
            return self.error(node.pos, f"zone '{name}' has {zone.groups} groups for each "
                                        f"player: write {name}[p][i], i from 0")
        owner = self.expect(self.compile(node.key), PLAYER, node.key.pos, "a zone's owner")
        if owner is BAD:
            return BAD
        return Code(f"({zone.index} + {owner.text})", zone_type(name), zone)

    def group_ref(self, name: str, owner_node: n.Index, node: n.Index) -> Code:
        """`meld[p][i]`: group i (from 0) of seat p's grouped zone."""
        zone = self.symbols.zones[name]
        owner = self.expect(self.compile(owner_node.key), PLAYER, owner_node.key.pos,
                            "a zone's owner")
        group = self.expect(self.compile(node.key), INT, node.key.pos, "a group's number")
        if owner is BAD or group is BAD:
            return BAD
        count = zone.groups
        return Code(f"({zone.index} + {owner.text} * {count} + group({group.text}, {count}))",
                    zone_type(name), zone)

    def compile_attribute(self, node: n.Attribute) -> Code:
        subject = self.compile(node.subject)
        if subject is BAD:
            return BAD
        name, t = node.name, subject.type
        if t == CARD:
            return self.card_attribute(subject, node)
        if t == PLAYER:
            return self.player_attribute(subject, node)
        if t == ANY:
            return BAD
        return self.error(node.name_pos, f"{t} has no attribute '{name}'")

    def card_attribute(self, subject: Code, node: n.Attribute) -> Code:
        name = node.name
        if name in CARD_ATTRIBUTES:
            t, template, _ = CARD_ATTRIBUTES[name]
            table = template.split("[", 1)[0]  # every card attribute is a table lookup
            return Code(template.format(subject.text), t, lookup=(table, subject.text))
        if name in self.symbols.value_tables:
            return Code(f"T_{name}[{subject.text}]", INT, lookup=(f"T_{name}", subject.text))
        known = [*CARD_ATTRIBUTES, *self.symbols.value_tables]
        return self.error(node.name_pos, f"a card has no attribute '{name}'"
                                         + did_you_mean(name, known))

    def player_attribute(self, subject: Code, node: n.Attribute) -> Code:
        name = node.name
        if name in PLAYER_ATTRIBUTES:
            t, template, _ = PLAYER_ATTRIBUTES[name]
            return Code(template.format(f"need({subject.text}, 'the player')"), t)
        var = self.symbols.variables.get(name)
        if var is not None and var[0] in ("player", "player_round"):
            return Code(f"S.pvars[{name!r}][{subject.text}]", var[1], nullable=True)
        known = [*PLAYER_ATTRIBUTES] + [k for k, v in self.symbols.variables.items()
                                        if v[0] in ("player", "player_round")]
        return self.error(node.name_pos, f"a player has no attribute '{name}'"
                                         + did_you_mean(name, known))

    def compile_call(self, node: n.Call) -> Code:
        if node.function in AGGREGATES and node.function not in FUNCTIONS:
            return self.error(node.pos, f"{node.function}(...) takes a generator: "
                                        f"{node.function}(x.points for x in hand[p])")
        if node.function in self.symbols.functions:
            return self.user_call(node)
        fn = FUNCTIONS.get(node.function)
        if fn is None:
            return self.error(node.pos, f"unknown function '{node.function}'" + did_you_mean(
                node.function, [*FUNCTIONS, *self.symbols.functions]))
        params = list(fn.params)
        if fn.variadic and len(node.args) > len(params):
            params += [params[-1]] * (len(node.args) - len(params))
        if len(node.args) != len(params):
            want = f"at least {len(fn.params)}" if fn.variadic else str(len(fn.params))
            return self.error(node.pos, f"{fn.name}() takes {want} argument"
                                        f"{'s' if want != '1' else ''}, got {len(node.args)}")
        args = [self.argument(arg, want, fn.name) for arg, want in zip(node.args, params)]
        if any(a is BAD for a in args):
            return BAD
        zone = args[0].zone if args else None
        if fn.name == "top" and zone is not None and zone.layout != "grid":
            z = args[0].text  # the top of a stack, written out (a pure, cheap expression)
            return Code(f"(Z[{z}][-1] if Z[{z}] else empty(B, {z}))", CARD)
        return Code(fn.emit([a.text for a in args]), fn.returns)

    def user_call(self, node: n.Call) -> Code:
        """A call of one of the ruleset's own functions (`functions:`)."""
        pyname, params, returns = self.symbols.functions[node.function]
        if len(node.args) != len(params):
            return self.error(node.pos, f"{node.function}() takes {len(params)} argument"
                                        f"{'s' if len(params) != 1 else ''}, got {len(node.args)}")
        args = [self.argument(arg, want, node.function) for arg, want in zip(node.args, params)]
        if any(a is BAD for a in args):
            return BAD
        return Code(f"{pyname}(S{''.join(', ' + a.text for a in args)})", returns)

    def argument(self, node: n.Expr, wanted: Type, fn: str) -> Code:
        if wanted == ZONE:
            code = self.compile(node)
            if code is not BAD and code.zone is None:
                return self.error(node.pos, f"{fn}() needs a zone, but this is {code.type}")
            return code
        if wanted == CARDS:
            return self.cards_of(node, f"the argument of {fn}()")
        if wanted.is_list:
            code = self.iterable(node)
            return self.expect(code, wanted, node.pos, f"the argument of {fn}()")
        return self.expect(self.compile(node), wanted, node.pos, f"the argument of {fn}()")

    def compile_aggregate(self, node: n.Aggregate) -> Code:
        agg = AGGREGATES.get(node.function)
        if agg is None:
            return self.error(node.pos, f"'{node.function}(... for ...)' is not an aggregate: "
                                        "use one of " + ", ".join(AGGREGATES))
        self.iterable_depth += 1  # Python allows no := in a comprehension's iterable
        try:
            source = self.iterable(node.source)
        finally:
            self.iterable_depth -= 1
        if source is BAD:
            return BAD
        assert source.type.item is not None
        var = local_name(node.variable)
        with self.bind({node.variable: source.type.item}):
            element = self.expect(self.compile(node.element), agg.element, node.element.pos,
                                  f"each item of {agg.name}()")
            cond = None
            if node.condition is not None:
                cond = self.expect(self.compile(node.condition), BOOL, node.condition.pos,
                                   "the condition after 'if'")
        if element is BAD or cond is BAD:
            return BAD
        if agg.name in ("first", "select"):
            loop = f"for {var} in {source.text}" + (f" if {cond.text}" if cond else "")
            if agg.name == "first":
                return Code(f"next(({element.text} {loop}), None)", element.type, nullable=True)
            return Code(f"[{element.text} {loop}]", list_of(element.type))
        if cond is None and element.lookup is not None and element.lookup[1] == var:
            # `sum(c.points for c in col)`: map the table over the items, with no Python
            # frame per item (bool tables count their true entries). No comprehension, so
            # the source may be compiled in the form with := after all.
            source = self.iterable(node.source)
            fn = "sum" if agg.name == "count" else agg.name
            return Code(f"{fn}(map({element.lookup[0]}.__getitem__, {source.text}))", agg.returns)
        loop = f"for {var} in {source.text}" + (f" if {cond.text}" if cond else "")
        if agg.name == "count":
            return Code(f"sum(1 {loop} if {element.text})", INT)
        return Code(f"{agg.name}({element.text} {loop})", agg.returns)

    def iterable(self, node: n.Expr, code: Code | None = None) -> Code:
        """Compile an expression to go through (a zone gives its cards); `code` if done."""
        code = self.compile(node) if code is None else code
        if code is BAD:
            return BAD
        if code.zone is not None:
            return self.cards_of(node, "")
        coll = as_collection(code.type)
        if coll is None:
            return self.error(node.pos, f"cannot go through {code.type}: "
                                        "expected a zone or a list")
        return Code(code.text, coll)

    def compile_list_literal(self, node: n.ListLiteral) -> Code:
        items = [self.compile(i) for i in node.items]
        if any(i is BAD for i in items):
            return BAD
        item_type = items[0].type if items else ANY
        for code, item in zip(items, node.items):
            if not comparable(item_type, code.type):
                return self.error(item.pos, f"a list mixes {item_type} and {code.type}")
        return Code("[" + ", ".join(i.text for i in items) + "]", list_of(item_type))

    def compile_minus(self, node: n.Minus) -> Code:
        operand = self.expect(self.compile(node.operand), INT, node.operand.pos, "what follows -")
        if operand is BAD:
            return BAD
        return constant(-operand.const, INT) if operand.known else Code(f"(-{operand.text})", INT)

    def compile_arithmetic(self, node: n.Arithmetic) -> Code:
        left, right = self.compile(node.left), self.compile(node.right)
        if left is BAD or right is BAD:
            return BAD
        if node.op == "+" and as_collection(left.type) and as_collection(right.type):
            return self.joined_lists(node, left, right)
        left = self.expect(left, INT, node.left.pos, f"the left of {node.op}")
        right = self.expect(right, INT, node.right.pos, f"the right of {node.op}")
        if left is BAD or right is BAD:
            return BAD
        op = "//" if node.op == "/" else node.op
        if left.known and right.known and not (op in ("//", "%") and right.const == 0):
            return constant(_ARITHMETIC[op](left.const, right.const), INT)
        return Code(f"({left.text} {op} {right.text})", INT)

    def joined_lists(self, node: n.Arithmetic, left: Code, right: Code) -> Code:
        """`a + b` of two lists (a zone counts as its cards): one list, a's items first."""
        a, b = self.iterable(node.left, left), self.iterable(node.right, right)
        if BAD in (a, b):
            return BAD
        if not comparable(a.type, b.type):
            return self.error(node.pos, f"cannot join {a.type} and {b.type}")
        return Code(f"[*{a.text}, *{b.text}]", a.type if a.type.item != ANY else b.type)

    def compile_comparison(self, node: n.Comparison) -> Code:
        left, right = self.compile(node.left), self.compile(node.right)
        if left is BAD or right is BAD:
            return BAD
        if left.type in (RANK, SUIT, COLOUR) and isinstance(node.right, n.Text):
            right = self.named_constant(left.type, node.right)
        elif right.type in (RANK, SUIT, COLOUR) and isinstance(node.left, n.Text):
            left = self.named_constant(right.type, node.left)
        if left is BAD or right is BAD:
            return BAD
        if node.op in ("<", "<=", ">", ">=") and not (left.type == right.type
                                                     and left.type in (RANK, SUIT)):
            # Numbers are ordered; so are two ranks, or two suits, as the deck lists them.
            for side, code in ((node.left, left), (node.right, right)):
                if not accepts(INT, code.type):
                    return self.error(side.pos, f"only numbers, ranks and suits can be ordered "
                                                f"with {node.op}, but this is {code.type}")
        elif not comparable(left.type, right.type):
            return self.error(node.pos, f"comparing {left.type} with {right.type} "
                                        "is always false")
        self.check_choice(node, left, right)
        if left.known and right.known:
            return constant(_COMPARE[node.op](left.const, right.const), BOOL)
        op = node.op
        if NONE in (left.type, right.type):
            op = "is" if node.op == "==" else "is not" if node.op == "!=" else op
        return Code(f"({left.text} {op} {right.text})", BOOL)

    def check_choice(self, node: n.Comparison, left: Code, right: Code) -> None:
        """`option == 'text'` with a text the option can never hold is a typo."""
        for side, other in ((node.left, node.right), (node.right, node.left)):
            if isinstance(side, n.Name) and isinstance(other, n.Text) \
                    and side.name not in self.scope and side.name in self.symbols.choices:
                choices = self.symbols.choices[side.name]
                if other.value not in choices:
                    self.error(other.pos, f"option '{side.name}' is never '{other.value}': "
                               "its choices are " + ", ".join(map(str, choices))
                               + did_you_mean(other.value, map(str, choices)))

    def named_constant(self, t: Type, node: n.Text) -> Code:
        names = {RANK: self.symbols.rank_names, SUIT: self.symbols.suit_names,
                 COLOUR: COLOURS}[t]
        if node.value not in names:
            return self.error(node.pos, f"'{node.value}' is not {t} of this deck: expected "
                              + ", ".join(names) + did_you_mean(node.value, names))
        return Code(repr(names.index(node.value)), t)

    def compile_membership(self, node: n.Membership) -> Code:
        item = self.compile(node.item)
        coll = self.iterable(node.collection)
        if item is BAD or coll is BAD:
            return BAD
        assert coll.type.item is not None
        if not comparable(item.type, coll.type.item):
            return self.error(node.pos, f"{item.type} is never in {coll.type}")
        op = "not in" if node.negated else "in"
        return Code(f"({item.text} {op} {coll.text})", BOOL)

    def compile_negation(self, node: n.Negation) -> Code:
        operand = self.expect(self.compile(node.operand), BOOL, node.operand.pos,
                              "what follows 'not'")
        if operand is BAD:
            return BAD
        return constant(not operand.const, BOOL) if operand.known \
            else Code(f"(not {operand.text})", BOOL)

    def _logic(self, node: n.Conjunction | n.Disjunction, op: str) -> Code:
        left = self.expect(self.compile(node.left), BOOL, node.left.pos, f"each side of '{op}'")
        right = self.expect(self.compile(node.right), BOOL, node.right.pos,
                            f"each side of '{op}'")
        if left is BAD or right is BAD:
            return BAD
        if left.known:  # `and`/`or` with a side known at load time folds away
            decides = (op == "and") != bool(left.const)
            return constant(bool(left.const), BOOL) if decides else right
        if right.known:
            decides = (op == "and") != bool(right.const)
            return Code(f"({left.text} {op} {right.text})", BOOL) if decides else left
        return Code(f"({left.text} {op} {right.text})", BOOL)

    def compile_conjunction(self, node: n.Conjunction) -> Code:
        return self._logic(node, "and")

    def compile_disjunction(self, node: n.Disjunction) -> Code:
        return self._logic(node, "or")

    def compile_conditional(self, node: n.Conditional) -> Code:
        test = self.expect(self.compile(node.test), BOOL, node.test.pos, "the test after 'if'")
        then, other = self.compile(node.then), self.compile(node.otherwise)
        if BAD in (test, then, other):
            return BAD
        if not comparable(then.type, other.type):
            return self.error(node.pos, f"the two branches differ: {then.type} "
                                        f"and {other.type}")
        t = other.type if then.type == NONE else then.type
        if test.known:
            return then if test.const else other
        return Code(f"({then.text} if {test.text} else {other.text})", t,
                    nullable=then.nullable or other.nullable)

    def condition(self, node: n.Expr) -> Code:
        """Compile an expression that must be true or false."""
        return self.expect(self.compile(node), BOOL, node.pos, "a condition")


_ARITHMETIC = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
               "//": lambda a, b: a // b, "%": lambda a, b: a % b}
_COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def local_name(name: str) -> str:
    """The Python name of a rule-level local (parameters, lets, loop variables)."""
    return "v_" + name


def snake_case(name: str) -> str:
    """`EndRound` -> `end_round`: a node class's name as its grammar rule's."""
    out = []
    for i, ch in enumerate(name):
        if ch.isupper() and i:
            out.append("_")
        out.append(ch.lower())
    return "".join(out)


def _type_of_value(value: Any) -> Type:
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    if isinstance(value, str):
        return TEXT
    return ANY
