"""Stage 4 for expressions: the meaning check, from syntax nodes to the checked tree.

Every `check_<rule>` method checks one node (names, arities, types; each problem becomes a
located diagnostic) and returns its checked form (ir.py), with options and literals folded
into constants. Nothing here writes code: the generator (codegen.py) does, from what this
returns.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from cardrules.errors import Diagnostic
from cardrules.model import ZoneDef

from . import ir
from . import nodes as n
from .builtins import (
    AGGREGATES,
    CARD_ATTRIBUTES,
    FUNCTIONS,
    GOAL_FUNCTIONS,
    MELD_FUNCTIONS,
    NAMES,
    NULLABLE_ATTRIBUTES,
    PLAYER_ATTRIBUTES,
    SETTLED_CARD_ATTRIBUTES,
    SETTLED_NAMES,
    SETTLED_PLAYER_ATTRIBUTES,
    TEAM_FUNCTIONS,
)
from .names import did_you_mean, rule_name
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
    WORDS,
    ZONE,
    Type,
    accepts,
    as_collection,
    comparable,
    list_of,
    zone_type,
)

COLOURS = ("red", "black", "none")
_NOWHERE = n.Pos(n.Origin(None, ()), 0)  # type: ignore[arg-type]
BAD = ir.Const(None, type=ANY, pos=_NOWHERE)  # what a node with a problem checks to


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


@dataclass
class Symbols:
    """What names mean in a ruleset: its zones, variables, options, functions, card tables."""

    zones: dict[str, ZoneDef] = field(default_factory=dict)
    variables: dict[str, VariableInfo] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    choices: dict[str, tuple[Any, ...]] = field(default_factory=dict)  # options with choices
    functions: dict[str, FunctionInfo] = field(default_factory=dict)
    procedures: dict[str, tuple[Type, ...]] = field(default_factory=dict)  # their params
    procedure_names: frozenset[str] = frozenset()  # every procedure declared, checked or not
    value_tables: tuple[str, ...] = ()
    rank_names: tuple[str, ...] = ()
    suit_names: tuple[str, ...] = ()
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


_PLAYER_SCOPES = ("player", "player_round")


def known(code: ir.Expr) -> bool:
    """Whether an expression's value is known when the ruleset loads."""
    return isinstance(code, ir.Const) and code is not BAD


class ExpressionChecker:
    """Checks expressions against a ruleset's symbols (statements: check_stmt.py)."""

    def __init__(self, symbols: Symbols, diagnostics: list[Diagnostic],
                 assignments: Assignments | None = None):
        self.symbols = symbols
        self.diagnostics = diagnostics
        self.assignments = assignments  # set on the first reading only
        self.scope: dict[str, tuple[Type, bool]] = {}  # local -> (type, may be none)
        self.has_me = True
        self.hints: list[Diagnostic] = []  # notes that do not make the file invalid

    def hint(self, pos: n.Pos, message: str) -> None:
        """Note something the author may not mean, without refusing the file."""
        self.hints.append(replace(pos.diagnostic(message), hint=True))

    def declares(self, name: str) -> bool:
        """Whether the rule file names a zone, variable or option so."""
        s = self.symbols
        return name in s.zones or name in s.variables or name in s.options

    def builtin_name(self, name: str) -> bool:
        """Whether a bare name is the built-in one: a rule file's own zone, variable or option
        of the same name wins, except over the names language 1 let win from the start."""
        return name in NAMES and (name in SETTLED_NAMES or not self.declares(name))

    # ------------------------------------------------------------ diagnostics
    def error(self, pos: n.Pos, message: str) -> ir.Expr:
        self.diagnostics.append(pos.diagnostic(message))
        return BAD

    def clash(self, name: str, pos: n.Pos) -> bool:
        """Whether `name` is `house` in a ruleset that has one (reported: it names the house
        there, and nothing else may)."""
        if name != "house" or self.symbols.house is None:
            return False
        self.error(pos, "'house' names the house in this ruleset (`house:`); choose another "
                        "name")
        return True

    @contextmanager
    def bind(self, names: dict[str, Type]) -> Iterator[None]:
        """Names visible inside a block (parameters, loop variables, `p` in scoring)."""
        saved = dict(self.scope)
        for name, t in names.items():
            self.scope[name] = (t, False)
        try:
            yield
        finally:
            self.scope = saved

    def expect(self, code: ir.Expr, wanted: Type, pos: n.Pos, what: str) -> ir.Expr:
        if code is not BAD and not accepts(wanted, code.type):
            return self.error(pos, f"{what} must be {wanted}, but this is {code.type}")
        return code

    def needed(self, code: ir.Expr, pos: n.Pos, what: str) -> ir.Expr:
        """`code` where a value is needed: if it may be none, checked when the game runs."""
        if code is BAD or not code.nullable:
            return code
        return ir.Need(code, what, type=code.type, pos=pos)

    def is_known_name(self, name: str) -> bool:
        s = self.symbols
        return name in self.scope or (name in NAMES and (name != "house" or s.house is not None)) \
            or name in s.zones or name in s.variables \
            or name in s.options

    def known_names(self) -> list[str]:
        s = self.symbols
        names = [k for k in NAMES if k != "house" or s.house is not None]
        return [*self.scope, *names, *s.zones, *s.variables, *s.options]

    # ----------------------------------------------------------- expressions
    def check(self, node: n.Expr) -> ir.Expr:
        method = getattr(self, "check_" + rule_name(type(node)))
        return method(node)  # type: ignore[no-any-return]

    def condition(self, node: n.Expr) -> ir.Expr:
        """Check an expression that must be true or false."""
        code = self.expect(self.check(node), BOOL, node.pos, "a condition")
        return self.needed(code, node.pos, "the condition")

    def cards_of(self, node: n.Expr, what: str) -> ir.Expr:
        """Check an expression used as a list of cards (a zone gives its cards)."""
        code = self.check(node)
        if code is BAD:
            return BAD
        if isinstance(code, ir.ZoneRef):
            return ir.ZoneCards(code, type=CARDS, pos=node.pos)
        code = self.expect(code, CARDS, node.pos, what)
        return self.needed(code, node.pos, "the list")

    def iterable(self, node: n.Expr, code: ir.Expr | None = None) -> ir.Expr:
        """Check an expression to go through (a zone gives its cards); `code` if done."""
        code = self.check(node) if code is None else code
        if code is BAD:
            return BAD
        if isinstance(code, ir.ZoneRef):
            return ir.ZoneCards(code, type=CARDS, pos=node.pos)
        coll = as_collection(code.type)
        if coll is None:
            return self.error(node.pos, f"cannot go through {code.type}: "
                                        "expected a zone or a list")
        return self.needed(replace(code, type=coll), node.pos, "the list")

    def check_number(self, node: n.Number) -> ir.Expr:
        return ir.Const(node.value, type=INT, pos=node.pos)

    def check_text(self, node: n.Text) -> ir.Expr:
        return ir.Const(node.value, type=TEXT, pos=node.pos)

    def check_boolean(self, node: n.Boolean) -> ir.Expr:
        return ir.Const(node.value, type=BOOL, pos=node.pos)

    def check_nothing(self, node: n.Nothing) -> ir.Expr:
        return ir.Const(None, type=NONE, pos=node.pos, nullable=True)

    def check_name(self, node: n.Name) -> ir.Expr:
        name = node.name
        if name in self.scope:
            t, nullable = self.scope[name]
            return ir.Local(name, type=t, pos=node.pos, nullable=nullable)
        if name == "house" and self.symbols.house is None:
            return self.no_house(node)
        if self.builtin_name(name):
            if name in ("me", "others") and not self.has_me:
                return self.error(node.pos, f"'{name}' has no meaning here: no player is acting")
            return ir.StateName(name, type=NAMES[name].type, pos=node.pos)
        return self.ruleset_name(node)

    def ruleset_name(self, node: n.Name) -> ir.Expr:
        """A name the ruleset declares: a zone, a game or round variable, an option."""
        name, s = node.name, self.symbols
        if name in s.zones:
            zone = s.zones[name]
            if zone.owned:
                return self.error(node.pos, f"zone '{name}' belongs to each player: "
                                            f"write {name}[me] or {name}[p]")
            if zone.groups:
                return self.error(node.pos, f"zone '{name}' has {zone.groups} groups: write "
                                            f"{name}[i], i from 0")
            return ir.ZoneRef(zone, type=zone_type(name), pos=node.pos)
        if name in s.variables:
            var = s.variables[name]
            if var.scope in _PLAYER_SCOPES:
                return self.error(node.pos, f"'{name}' is a player variable: write p.{name}")
            return ir.GameVar(name, type=var.type, pos=node.pos, nullable=var.nullable)
        if name in s.options:
            value = s.options[name]
            return ir.Const(value, type=type_of_value(value), pos=node.pos)
        return self.error(node.pos, f"unknown name '{name}'"
                                    + did_you_mean(name, self.known_names()))

    def no_house(self, node: n.Name) -> ir.Expr:
        """`house` in a ruleset without one: a zone, variable or option of that name, else
        an error that says how to declare one."""
        s = self.symbols
        if node.name in s.zones or node.name in s.variables or node.name in s.options:
            return self.ruleset_name(node)
        return self.error(node.pos, "this ruleset declares no house: `house` needs a top-level "
                                    "`house:` (house: {name: Dealer})")

    def check_index(self, node: n.Index) -> ir.Expr:
        subject = node.subject
        zones = self.symbols.zones
        if isinstance(subject, n.Name) and subject.name in zones \
                and subject.name not in self.scope:
            return self.zone_ref(subject.name, node)
        if isinstance(subject, n.Index) and isinstance(subject.subject, n.Name) \
                and subject.subject.name not in self.scope and subject.subject.name in zones \
                and zones[subject.subject.name].groups and zones[subject.subject.name].owned:
            return self.group_ref(subject.subject.name, subject, node)
        if isinstance(subject, n.Name) and not self.is_known_name(subject.name):
            self.check(node.key)  # for the problems inside the brackets
            return self.error(subject.pos, f"unknown zone '{subject.name}'"
                              + did_you_mean(subject.name, zones))
        base = self.check(subject)
        if base is BAD:
            self.check(node.key)
            return BAD
        key = self.expect(self.check(node.key), INT, node.key.pos, "a list index")
        if key is BAD:
            return BAD
        coll = as_collection(base.type)
        if coll is None or isinstance(base, ir.ZoneRef):
            return self.error(node.pos, f"cannot index {base.type}")
        item = coll.item or ANY
        return ir.Index(self.needed(base, node.pos, "the list"),
                     self.needed(key, node.pos, "the index"), type=item, pos=node.pos)

    def check_slice(self, node: n.Slice) -> ir.Expr:
        """`pile[i:]`: a zone's cards (a grid's present ones) or a list's items, from place
        start to before place stop."""
        code = self.check(node.subject)
        if code is not BAD and not isinstance(code, ir.ZoneRef) \
                and as_collection(code.type) is None:
            return self.error(node.subject.pos, f"cannot slice {code.type}: expected a zone "
                                                "or a list")
        subject = self.iterable(node.subject, code)
        bounds = [None if b is None else self.expect(self.check(b), INT, b.pos, "a slice's bound")
                  for b in (node.start, node.stop)]
        if subject is BAD or BAD in bounds:
            return BAD
        start, stop = (None if b is None else self.needed(b, node.pos, "a slice's bound")
                       for b in bounds)
        return ir.Slice(subject, start, stop, type=subject.type, pos=node.pos)

    def zone_ref(self, name: str, node: n.Index) -> ir.Expr:
        zone = self.symbols.zones[name]
        if not zone.owned and zone.groups:  # a shared zone's group: pile[i], i from 0
            group = self.expect(self.check(node.key), INT, node.key.pos, "a group's number")
            if group is BAD:
                return BAD
            return ir.ZoneRef(zone, None, self.needed(group, node.pos, "the group"),
                              type=zone_type(name), pos=node.pos)
        if not zone.owned:
            return self.error(node.pos, f"zone '{name}' is shared: write {name} without [...]")
        if zone.groups:
            return self.error(node.pos, f"zone '{name}' has {zone.groups} groups for each "
                                        f"player: write {name}[p][i], i from 0")
        owner = self.expect(self.check(node.key), PLAYER, node.key.pos, "a zone's owner")
        if owner is BAD:
            return BAD
        return ir.ZoneRef(zone, self.needed(owner, node.pos, "the player"),
                          type=zone_type(name), pos=node.pos)

    def group_ref(self, name: str, owner_node: n.Index, node: n.Index) -> ir.Expr:
        """`meld[p][i]`: group i (from 0) of seat p's grouped zone."""
        zone = self.symbols.zones[name]
        owner = self.expect(self.check(owner_node.key), PLAYER, owner_node.key.pos,
                            "a zone's owner")
        group = self.expect(self.check(node.key), INT, node.key.pos, "a group's number")
        if owner is BAD or group is BAD:
            return BAD
        return ir.ZoneRef(zone, self.needed(owner, node.pos, "the player"),
                          self.needed(group, node.pos, "the group"),
                          type=zone_type(name), pos=node.pos)

    def check_attribute(self, node: n.Attribute) -> ir.Expr:
        subject = self.check(node.subject)
        if subject is BAD:
            return BAD
        t = subject.type
        if t == CARD:
            return self.card_attribute(subject, node)
        if t == PLAYER:
            return self.player_attribute(subject, node)
        if t == ANY:
            return BAD
        return self.error(node.name_pos, f"{t} has no attribute '{node.name}'")

    def card_attribute(self, subject: ir.Expr, node: n.Attribute) -> ir.Expr:
        name = node.name
        card = self.needed(subject, node.pos, "the card")
        if name in self.symbols.value_tables and name not in SETTLED_CARD_ATTRIBUTES:
            return ir.CardAttr(card, name, True, type=INT, pos=node.pos)  # the file's own
        if name in CARD_ATTRIBUTES:
            return ir.CardAttr(card, name, type=CARD_ATTRIBUTES[name][0], pos=node.pos,
                               nullable=name in NULLABLE_ATTRIBUTES)
        if name in self.symbols.value_tables:
            return ir.CardAttr(card, name, True, type=INT, pos=node.pos)
        known_attrs = [*CARD_ATTRIBUTES, *self.symbols.value_tables]
        return self.error(node.name_pos, f"a card has no attribute '{name}'"
                                         + did_you_mean(name, known_attrs))

    def player_attribute(self, subject: ir.Expr, node: n.Attribute) -> ir.Expr:
        name = node.name
        player = self.needed(subject, node.pos, "the player")
        var = self.symbols.variables.get(name)
        if var is not None and var.scope in _PLAYER_SCOPES \
                and name not in SETTLED_PLAYER_ATTRIBUTES:  # the file's own wins
            return ir.PlayerVar(player, name, type=var.type, pos=node.pos,
                                nullable=var.nullable)
        if name in PLAYER_ATTRIBUTES:
            if name == "team" and not self.symbols.teams:
                return self.error(node.name_pos, "this ruleset declares no teams (`teams:`)")
            return ir.PlayerAttr(player, name, type=PLAYER_ATTRIBUTES[name][0], pos=node.pos)
        var = self.symbols.variables.get(name)
        if var is not None and var.scope in _PLAYER_SCOPES:
            return ir.PlayerVar(player, name, type=var.type, pos=node.pos,
                                nullable=var.nullable)
        names = [*PLAYER_ATTRIBUTES] + [k for k, v in self.symbols.variables.items()
                                        if v.scope in _PLAYER_SCOPES]
        return self.error(node.name_pos, f"a player has no attribute '{name}'"
                                         + did_you_mean(name, names))

    def check_call(self, node: n.Call) -> ir.Expr:
        if node.function in self.symbols.functions:  # the file's own, over any built-in
            return self.user_call(node)
        if node.function in AGGREGATES and node.function not in FUNCTIONS:
            return self.error(node.pos, f"{node.function}(...) takes a generator: "
                                        f"{node.function}(x.points for x in hand[p])")
        fn = FUNCTIONS.get(node.function)
        if fn is None and node.function in RETIRED:
            return self.error(node.pos, f"{node.function}() is no longer a built-in: declare "
                                        "the kinds of meld (`melds:`) and use "
                                        f"{RETIRED[node.function]}")
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
        if fn.name in TEAM_FUNCTIONS and not self.symbols.teams:
            return self.error(node.pos, "this ruleset declares no teams (`teams:`)")
        if fn.name in MELD_FUNCTIONS and not self.symbols.melds:
            return self.error(node.pos, f"{fn.name}() needs the kinds of meld declared "
                                        "(`melds:`)")
        args = [self.argument(arg, want, fn.name) for arg, want in zip(node.args, params)]
        if any(a is BAD for a in args):
            return BAD
        if fn.name in GOAL_FUNCTIONS:
            self.goal_kinds(args[1])
        if fn.name in ("sorted", "combinations", "subsets"):
            return self.list_call(fn.name, tuple(args), node)
        if fn.name == "position" and not comparable(args[0].type, item_type(args[1].type)):
            return self.error(node.args[0].pos, f"position() looks for {args[0].type} in a "
                                                f"{args[1].type}: it is never there")
        return ir.Call(fn.name, tuple(args), type=fn.returns, pos=node.pos,
                       nullable=fn.nullable)

    def list_call(self, name: str, args: tuple[ir.Expr, ...], node: n.Call) -> ir.Expr:
        """sorted(), combinations(), subsets(): lists of the argument's own items."""
        item = item_type(args[0].type)
        if name == "sorted":
            if not orderable(item):
                return self.error(node.args[0].pos, f"sorted() orders numbers, ranks, suits or "
                                                    f"lists of numbers, but this is "
                                                    f"{args[0].type}: write sorted_by(c.number "
                                                    "for c in ...)")
            return ir.Call(name, args, type=list_of(item), pos=node.pos)
        return ir.Call(name, args, type=list_of(list_of(item)), pos=node.pos)

    def goal_kinds(self, goal: ir.Expr) -> None:
        """Report the kinds of meld a goal names, where it writes them out, that the ruleset
        does not declare (others are checked as the game runs)."""
        known = self.symbols.meld_kinds
        for const in _written_texts(goal, self.symbols.functions):
            if const.value not in known:
                self.error(const.pos, f"no meld kind '{const.value}' (the kinds: "
                                      f"{', '.join(known)})" + did_you_mean(const.value, known))

    def user_call(self, node: n.Call) -> ir.Expr:
        """A call of one of the ruleset's own functions (`functions:`)."""
        info = self.symbols.functions[node.function]
        if len(node.args) != len(info.params):
            count = len(info.params)
            return self.error(node.pos, f"{node.function}() takes {count} argument"
                                        f"{'s' if count != 1 else ''}, got {len(node.args)}")
        args = [self.argument(arg, want, node.function)
                for arg, want in zip(node.args, info.params)]
        if any(a is BAD for a in args):
            return BAD
        return ir.UserCall(node.function, tuple(args), type=info.returns, pos=node.pos,
                           nullable=info.nullable)

    def argument(self, node: n.Expr, wanted: Type, fn: str) -> ir.Expr:
        if wanted == ZONE:
            code = self.check(node)
            if code is not BAD and not isinstance(code, ir.ZoneRef):
                return self.error(node.pos, f"{fn}() needs a zone, but this is {code.type}")
            return code
        if wanted == CARDS:
            return self.cards_of(node, f"the argument of {fn}()")
        if wanted.is_list:
            code = self.iterable(node)
            return self.expect(code, wanted, node.pos, f"the argument of {fn}()")
        if wanted in (RANK, SUIT, COLOUR) and isinstance(node, n.Text):
            return self.named_constant(wanted, node)
        code = self.expect(self.check(node), wanted, node.pos, f"the argument of {fn}()")
        return self.needed(code, node.pos, f"the argument of {fn}()")

    def check_aggregate(self, node: n.Aggregate) -> ir.Expr:
        agg = AGGREGATES.get(node.function)
        if agg is None:
            return self.error(node.pos, f"'{node.function}(... for ...)' is not an aggregate: "
                                        "use one of " + ", ".join(AGGREGATES))
        source = self.iterable(node.source)
        if source is BAD:
            return BAD
        assert source.type.item is not None
        with self.bind({node.variable: source.type.item}):
            element = self.expect(self.check(node.element), agg.element, node.element.pos,
                                  f"each item of {agg.name}()")
            cond = None
            if node.condition is not None:
                cond = self.expect(self.check(node.condition), BOOL, node.condition.pos,
                                   "the condition after 'if'")
        if element is BAD or cond is BAD:
            return BAD
        if agg.name in BY_VALUE and not orderable(element.type):
            return self.error(node.element.pos, f"the value of {agg.name}() must be a number, a "
                                                f"rank, a suit or a list of numbers, but this is "
                                                f"{element.type}")
        if agg.name not in ("first", "select"):
            element = self.needed(element, node.element.pos, f"each item of {agg.name}()")
        if cond is not None:
            cond = self.needed(cond, node.pos, "the condition after 'if'")
        if agg.name == "first":
            t, nullable = element.type, True
        elif agg.name == "select":
            t, nullable = list_of(element.type), False
        elif agg.name == "sorted_by":
            t, nullable = source.type, False
        elif agg.name in BY_VALUE:
            t, nullable = source.type.item, True
        else:
            t, nullable = agg.returns, False
        return ir.Aggregate(agg.name, element, node.variable, source, cond, type=t,
                            pos=node.pos, nullable=nullable)

    def check_list_literal(self, node: n.ListLiteral) -> ir.Expr:
        items = [self.check(i) for i in node.items]
        if any(i is BAD for i in items):
            return BAD
        item_type = items[0].type if items else ANY
        for code, item in zip(items, node.items):
            if not comparable(item_type, code.type):
                return self.error(item.pos, f"a list mixes {item_type} and {code.type}")
        return ir.ListLiteral(tuple(items), type=list_of(item_type), pos=node.pos)

    def check_minus(self, node: n.Minus) -> ir.Expr:
        operand = self.expect(self.check(node.operand), INT, node.operand.pos,
                              "what follows -")
        if operand is BAD:
            return BAD
        if known(operand):
            return ir.Const(-operand.value, type=INT, pos=node.pos)  # type: ignore[attr-defined]
        return ir.Minus(self.needed(operand, node.pos, "the number"), type=INT, pos=node.pos)

    def check_arithmetic(self, node: n.Arithmetic) -> ir.Expr:
        left, right = self.check(node.left), self.check(node.right)
        if left is BAD or right is BAD:
            return BAD
        if node.op == "+" and as_collection(left.type) and as_collection(right.type):
            return self.joined_lists(node, left, right)
        left = self.expect(left, INT, node.left.pos, f"the left of {node.op}")
        right = self.expect(right, INT, node.right.pos, f"the right of {node.op}")
        if left is BAD or right is BAD:
            return BAD
        if known(left) and known(right) and not (node.op in "/%" and right.value == 0):  # type: ignore[attr-defined]
            value = _ARITHMETIC[node.op](left.value, right.value)  # type: ignore[attr-defined]
            return ir.Const(value, type=INT, pos=node.pos)
        return ir.Arithmetic(node.op, self.needed(left, node.span, "the number"),
                             self.needed(right, node.span, "the number"), type=INT, pos=node.span)

    def joined_lists(self, node: n.Arithmetic, left: ir.Expr, right: ir.Expr) -> ir.Expr:
        """`a + b` of two lists (a zone counts as its cards): one list, a's items first."""
        a, b = self.iterable(node.left, left), self.iterable(node.right, right)
        if BAD in (a, b):
            return BAD
        if not comparable(a.type, b.type):
            return self.error(node.pos, f"cannot join {a.type} and {b.type}")
        t = a.type if a.type.item != ANY else b.type
        return ir.Join(a, b, type=t, pos=node.pos)

    def check_comparison(self, node: n.Comparison) -> ir.Expr:
        left, right = self.check(node.left), self.check(node.right)
        if left is BAD or right is BAD:
            return BAD
        if left.type in (RANK, SUIT, COLOUR) and isinstance(node.right, n.Text):
            right = self.named_constant(left.type, node.right)
        elif right.type in (RANK, SUIT, COLOUR) and isinstance(node.left, n.Text):
            left = self.named_constant(right.type, node.left)
        if left is BAD or right is BAD:
            return BAD
        ordering = node.op in ("<", "<=", ">", ">=")
        if ordering and not (left.type == right.type and left.type in (RANK, SUIT)):
            # Numbers are ordered; so are two ranks, or two suits, as the deck lists them.
            for side, code in ((node.left, left), (node.right, right)):
                if not accepts(INT, code.type):
                    return self.error(side.pos, f"only numbers, ranks and suits can be ordered "
                                                f"with {node.op}, but this is {code.type}")
        elif not ordering and not comparable(left.type, right.type) \
                and not _may_be_none(left, right) and not _may_be_none(right, left):
            return self.error(node.pos, f"comparing {left.type} with {right.type} "
                                        "is always false")
        self.check_choice(node, left, right)
        if known(left) and known(right):
            value = _COMPARE[node.op](left.value, right.value)  # type: ignore[attr-defined]
            return ir.Const(value, type=BOOL, pos=node.pos)
        if ordering:
            left = self.needed(left, node.span, "what is compared")
            right = self.needed(right, node.span, "what is compared")
        return ir.Comparison(node.op, left, right, type=BOOL, pos=node.span)

    def check_choice(self, node: n.Comparison, left: ir.Expr, right: ir.Expr) -> None:
        """`option == 'text'` with a text the option can never hold is a typo."""
        for side, other in ((node.left, node.right), (node.right, node.left)):
            if isinstance(side, n.Name) and isinstance(other, n.Text) \
                    and side.name not in self.scope and side.name in self.symbols.choices:
                choices = self.symbols.choices[side.name]
                if other.value not in choices:
                    self.error(other.pos, f"option '{side.name}' is never '{other.value}': "
                               "its choices are " + ", ".join(map(str, choices))
                               + did_you_mean(other.value, map(str, choices)))

    def named_constant(self, t: Type, node: n.Text) -> ir.Expr:
        names = {RANK: self.symbols.rank_names, SUIT: self.symbols.suit_names,
                 COLOUR: COLOURS}[t]
        if node.value not in names:
            return self.error(node.pos, f"'{node.value}' is not {t} of this deck: expected "
                              + ", ".join(names) + did_you_mean(node.value, names))
        return ir.Const(names.index(node.value), type=t, pos=node.pos)

    def check_membership(self, node: n.Membership) -> ir.Expr:
        item = self.check(node.item)
        coll = self.iterable(node.collection)
        if item is BAD or coll is BAD:
            return BAD
        assert coll.type.item is not None
        if not comparable(item.type, coll.type.item):
            return self.error(node.pos, f"{item.type} is never in {coll.type}")
        return ir.Membership(item, coll, node.negated, type=BOOL, pos=node.pos)

    def check_negation(self, node: n.Negation) -> ir.Expr:
        operand = self.expect(self.check(node.operand), BOOL, node.operand.pos,
                              "what follows 'not'")
        if operand is BAD:
            return BAD
        if known(operand):
            return ir.Const(not operand.value, type=BOOL, pos=node.pos)  # type: ignore[attr-defined]
        return ir.Negation(self.needed(operand, node.pos, "the condition"), type=BOOL, pos=node.pos)

    def _junction(self, node: n.Conjunction | n.Disjunction, op: str) -> ir.Expr:
        left = self.expect(self.check(node.left), BOOL, node.left.pos, f"each side of '{op}'")
        right = self.expect(self.check(node.right), BOOL, node.right.pos,
                            f"each side of '{op}'")
        if left is BAD or right is BAD:
            return BAD
        left = self.needed(left, node.left.pos, "the condition")
        right = self.needed(right, node.right.pos, "the condition")
        kind = ir.Conjunction if op == "and" else ir.Disjunction
        if known(left):  # `and`/`or` with a side known at load time folds away
            decides = (op == "and") != bool(left.value)  # type: ignore[attr-defined]
            return ir.Const(bool(left.value), type=BOOL, pos=node.pos) if decides else right  # type: ignore[attr-defined]
        if known(right):
            decides = (op == "and") != bool(right.value)  # type: ignore[attr-defined]
            return kind(left, right, type=BOOL, pos=node.pos) if decides else left
        return kind(left, right, type=BOOL, pos=node.pos)

    def check_conjunction(self, node: n.Conjunction) -> ir.Expr:
        return self._junction(node, "and")

    def check_disjunction(self, node: n.Disjunction) -> ir.Expr:
        return self._junction(node, "or")

    def check_conditional(self, node: n.Conditional) -> ir.Expr:
        test = self.expect(self.check(node.test), BOOL, node.test.pos, "the test after 'if'")
        then, other = self.check(node.then), self.check(node.otherwise)
        if BAD in (test, then, other):
            return BAD
        if not comparable(then.type, other.type):
            return self.error(node.pos, f"the two branches differ: {then.type} "
                                        f"and {other.type}")
        if known(test):
            return then if test.value else other  # type: ignore[attr-defined]
        t = other.type if then.type == NONE else then.type
        return ir.Conditional(self.needed(test, node.test.pos, "the test"), then, other, type=t,
                         pos=node.pos, nullable=then.nullable or other.nullable)


_ARITHMETIC = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
               "/": lambda a, b: a // b, "%": lambda a, b: a % b}
_COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def _may_be_none(value: ir.Expr, other: ir.Expr) -> bool:
    """`x == none` where x may hold none (a variable first none, say): a real question."""
    return value.nullable and other.type == NONE


def type_of_value(value: Any) -> Type:
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    if isinstance(value, str):
        return TEXT
    return ANY


__all__ = ["BAD", "COLOURS", "WORDS", "ExpressionChecker", "Symbols", "known"]


# Built-ins a rule file written for an earlier version may call, and what does their work now.
RETIRED = {"goal_layouts": "lay_downs(cards, goal)", "meets_goal": "can_lay_down(cards, goal)"}


def _written_texts(code: ir.Expr, functions: dict[str, FunctionInfo]) -> Iterator[ir.Const]:
    """The texts a list expression writes out as its items: in list literals, both branches
    of `if`, joined lists and the bodies of the ruleset's functions it calls."""
    if isinstance(code, ir.ListLiteral):
        for item in code.items:
            if isinstance(item, ir.Const) and isinstance(item.value, str):
                yield item
    elif isinstance(code, ir.Conditional):
        yield from _written_texts(code.then, functions)
        yield from _written_texts(code.otherwise, functions)
    elif isinstance(code, ir.Join):
        yield from _written_texts(code.left, functions)
        yield from _written_texts(code.right, functions)
    elif isinstance(code, ir.UserCall):
        info = functions.get(code.function)
        if info is not None and info.body is not None:
            yield from _written_texts(info.body, functions)


def item_type(t: Type) -> Type:
    """The type of a list's (or a zone's) items."""
    coll = as_collection(t)
    return coll.item if coll is not None and coll.item is not None else ANY


# The aggregates that give the items by their values (`max_by(c.points for c in hand[me])`).
BY_VALUE = ("max_by", "min_by", "sorted_by")


def orderable(t: Type) -> bool:
    """Whether values of this type can be put in order: numbers, ranks, suits (as the deck
    lists them) and lists of numbers (item by item)."""
    return t in (INT, RANK, SUIT) or (t.is_list and t.item == INT)
