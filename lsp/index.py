"""What a rule file names and where: its declarations (symbols) and every place rule text
names one of them, or a built-in (occurrences).

Everything here is read from the compiler's own products: the declarations the reader
builds (dsl/reader.py), whose every node keeps its position, and, for a file that checks,
the checked program (dsl/ir.py), whose nodes carry their types. Places are worked out by the
same code that places a diagnostic (`Pos.diagnostic`), so a name is found where `validate`
would point at it. Names are resolved as the checker resolves them: a local first (a move's
parameter, a loop's variable, a `let`), then a built-in name, then the ruleset's zones,
variables and options.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any

from cardrules.dsl import decls as d
from cardrules.dsl import ir
from cardrules.dsl import nodes as n
from cardrules.dsl.builtins import (
    CARD_ATTRIBUTES,
    FUNCTIONS,
    NAMES,
    PLAYER_ATTRIBUTES,
)
from cardrules.dsl.cards import STANDARD_RANKS, STANDARD_SUITS
from cardrules.dsl.checker import Checked
from cardrules.dsl.names import rule_name
from cardrules.dsl.typesys import Type

from .places import (
    Place,
    extent,
    name_pos,
    place_of,
    size,
    subject_pos,
    through_alias,
    word_between,
)


@dataclass(eq=False)
class Symbol:
    """Something the rule file declares: a zone, variable, option, function, value table,
    phase, step, move, trigger, parameter or local name."""

    kind: str
    name: str
    place: Place | None
    detail: str = ""  # the declaration in a line: its type, scope, choices...
    doc: str = ""
    type: Type | None = None
    parent: Symbol | None = None  # a step's phase, a move's step
    body: Place | None = None  # the whole entry, for an outline
    within: Place | None = None  # where a local is bound (an aggregate's text), when known
    outside: Place | None = None  # a stretch of `within` where it is not (the iterable)


@dataclass(frozen=True)
class Occurrence:
    """A name in rule text (or a name the file declares), and what it names: one of the
    file's symbols, or a built-in (`builtin` is then its table and name, for a hover)."""

    place: Place
    name: str
    symbol: Symbol | None = None
    builtin: tuple[str, str] | None = None  # ("function", "size"), ("construct", "move")...
    text: str | None = None  # a text literal's value ('K', 'hearts', 'QS')
    type: Type | None = None
    aliased: bool = False  # read again through a YAML alias (*name), placed at the alias


@dataclass
class Index:
    """Everything one analysis of a rule file knows about its names."""

    symbols: list[Symbol] = field(default_factory=list)
    occurrences: list[Occurrence] = field(default_factory=list)
    ranks: tuple[str, ...] = STANDARD_RANKS
    suits: tuple[str, ...] = STANDARD_SUITS
    jokers: int = 0
    choices: dict[str, tuple[Any, ...]] = field(default_factory=dict)  # option -> choices
    meld_kinds: dict[str, str] = field(default_factory=dict)  # name -> set | run

    def at(self, path: str, line: int, column: int) -> Occurrence | None:
        """The innermost occurrence at a character of the file at `path`."""
        found = [o for o in self.occurrences if o.place.holds(path, line, column)]
        if not found:
            return None
        return min(found, key=lambda o: size(o.place))

    def uses(self, symbol: Symbol) -> list[Occurrence]:
        """Every occurrence of a symbol, its declaration included, in file order; not the
        readings again through a YAML alias (*name): the text they read is written once, and
        is noted where it is."""
        return sorted((o for o in self.occurrences if o.symbol is symbol and not o.aliased),
                      key=lambda o: (o.place.path, o.place.start.line, o.place.start.column))

    def globals(self, *kinds: str) -> list[Symbol]:
        return [s for s in self.symbols if s.kind in kinds]


# ------------------------------------------------------------------ building
class _Builder:
    """Walks a ruleset's declarations, scope by scope as the checker does, noting every
    symbol and every occurrence."""

    def __init__(self, decls: d.RulesetDecl, types: dict[tuple[Any, ...], ir.Expr]):
        self.decls = decls
        self.types = types
        self.index = Index()
        self.container: Symbol | None = None  # the entry whose rule text is being walked
        self.by_name: dict[str, Symbol] = {}  # zones, variables, options
        self.functions: dict[str, Symbol] = {}
        self.procedures: dict[str, Symbol] = {}
        self.tables: dict[str, Symbol] = {}

    # pieces ------------------------------------------------------------
    def declare(self, kind: str, named: d.Named, detail: str = "", doc: str = "",
                parent: Symbol | None = None, body: n.Pos | None = None) -> Symbol:
        place = place_of(named.pos, len(named.name))
        symbol = Symbol(kind, named.name, place, detail, doc, parent=parent,
                        body=extent(body) if body is not None else None)
        self.index.symbols.append(symbol)
        if place is not None:
            self.index.occurrences.append(Occurrence(place, named.name, symbol,
                                                     aliased=through_alias(named.pos)))
        return symbol

    def note(self, pos: n.Pos, name: str, symbol: Symbol | None = None,
             builtin: tuple[str, str] | None = None, text: str | None = None) -> None:
        place = place_of(pos, len(name))
        if place is None:
            return
        typed = self.types.get(_key(pos))
        kind = typed.type if typed is not None else None
        if symbol is not None and symbol.type is None and kind is not None and \
                symbol.kind in ("parameter", "local"):
            symbol.type = kind  # a local's type is that of any of its uses
        self.index.occurrences.append(Occurrence(place, name, symbol, builtin, text, kind,
                                                 through_alias(pos)))

    # the whole ---------------------------------------------------------
    def build(self) -> Index:
        decls = self.decls
        self.deck()
        for option in decls.options:
            symbol = self.declare("option", option.name, _option_detail(option), option.doc)
            self.by_name.setdefault(option.name.name, symbol)
            if option.choices:
                self.index.choices[option.name.name] = tuple(c.value for c in option.choices)
        for table in decls.values:
            self.tables[table.name.name] = self.declare(
                "value table", table.name, "card." + table.name.name + ": " + ", ".join(
                    f"{rank.name} {number.value}" for rank, number in table.entries))
        for zone in decls.zones:
            self.by_name.setdefault(zone.name.name, self.declare(
                "zone", zone.name, _zone_detail(zone), zone.doc, body=zone.pos))
        for variable in decls.variables:
            self.by_name.setdefault(variable.name.name, self.declare(
                "variable", variable.name, "", variable.doc))
        for function in decls.functions:
            self.functions.setdefault(function.name.name, self.declare(
                "function", function.name, "", function.doc, body=_entry(function.name)))
        for procedure in decls.procedures:
            self.procedures.setdefault(procedure.name.name, self.declare(
                "procedure", procedure.name, "", procedure.doc, body=_entry(procedure.name)))
        if decls.deck.zone is not None:
            self.name_ref(decls.deck.zone.pos, decls.deck.zone.name)
        if decls.melds is not None:
            self.melds(decls.melds)
        self.expressions()
        self.flow()
        return self.index

    def deck(self) -> None:
        deck, index = self.decls.deck, self.index
        if deck.ranks:
            index.ranks = tuple(str(r.value) for r in deck.ranks)
        if deck.suits:
            index.suits = tuple(str(s.value) for s in deck.suits)
        index.jokers = deck.jokers.whole if deck.jokers and isinstance(
            deck.jokers.value, int) else 0
        for literal in (*deck.ranks, *deck.suits):
            self.note(literal.pos, str(literal.value), text=str(literal.value))

    def melds(self, melds: d.MeldsDecl) -> None:
        if melds.value is not None and melds.value.name in self.tables:
            self.note(melds.value.pos, melds.value.name, self.tables[melds.value.name])
        for kind in melds.kinds:
            self.declare("meld kind", kind.name, f"a {kind.kind}")
            self.index.meld_kinds[kind.name.name] = kind.kind
            for part in (kind.min, kind.max, kind.wilds):
                self.expr(part, {})
            if isinstance(kind.ace, n.Expr):
                self.expr(kind.ace, {})

    def parameters(self, params: tuple[tuple[d.Named, str], ...]) -> dict[str, Symbol | None]:
        """The scope of a function's or a procedure's body: its parameters, declared."""
        return {p.name: self.declare("parameter", p, kind, parent=self.container)
                for p, kind in params}

    def expressions(self) -> None:
        """The rule text outside the round's flow: functions, variables, the deck, scoring."""
        decls = self.decls
        for function in decls.functions:
            self.container = self.functions.get(function.name.name)
            self.expr(function.value, self.parameters(function.params))
        self.container = None
        for variable in decls.variables:
            self.expr(variable.initial, {})
        self.expr(decls.deck.copies, {})
        if decls.deck.wild is not None:
            self.expr(decls.deck.wild, {"card": None})
        scoring = decls.scoring
        for entry in scoring.round:
            self.container = self.declare("score", entry.name, "", entry.doc,
                                          body=_entry(entry.name))
            self.expr(entry.score, {"p": None})
        self.container = None
        self.expr(scoring.evaluate, {"p": None})
        self.expr(scoring.rounds, {})
        self.expr(scoring.until, {})
        self.expr(decls.round_first, {})

    def flow(self) -> None:
        """The round: setup, phases with their steps and moves, the end, triggers."""
        decls = self.decls
        for procedure in decls.procedures:
            self.container = self.procedures.get(procedure.name.name)
            self.statements(procedure.body, self.parameters(procedure.params))
        self.container = None
        self.statements(decls.setup, {})
        for phase in decls.phases:
            symbol = self.declare("phase", phase.name, f"turns: {phase.turns}", phase.doc,
                                  body=phase.pos)
            steps = {s.name.name: self.declare("step", s.name, "", s.doc, symbol, s.pos)
                     for s in phase.steps}
            self.expr(phase.skip_turn, {})
            self.statements(phase.on_skip, {})
            self.expr(phase.first, {})
            self.expr(phase.when, {})
            for step in phase.steps:
                self.step(step, steps[step.name.name], steps)
        if decls.reactions is not None:
            self.step(decls.reactions, None, {})
        self.statements(decls.round_end, {})
        for trigger in decls.triggers:
            self.container = self.declare("trigger", trigger.name,
                                          trigger.after.replace("_", " "), trigger.doc,
                                          body=_entry(trigger.name))
            self.expr(trigger.when, {})
            self.statements(trigger.body, {})
        self.container = None

    def step(self, step: d.StepDecl, symbol: Symbol | None, steps: dict[str, Symbol]) -> None:
        self.expr(step.repeat, {})
        for move in step.moves:
            self.move(move, symbol, steps)

    def move(self, move: d.MoveDecl, step: Symbol | None, steps: dict[str, Symbol]) -> None:
        self.container = self.declare("move", move.name, move.label_text, move.doc, step,
                                      move.pos)
        self.expr(move.when, {})
        scope: dict[str, Symbol | None] = {}
        for param in move.params:
            domain = param.domain
            symbol = self.declare("parameter", param.name,
                                  "chosen from " + domain.pos.text.strip()
                                  if domain is not None else "", parent=self.container)
            if domain is not None:
                self.expr(domain.source, scope)
                scope = {**scope, param.name.name: symbol}
                self.expr(domain.where, scope)
            else:
                scope = {**scope, param.name.name: symbol}
        if move.label is not None:
            for placeholder in move.label.placeholders:
                if placeholder.name in scope:
                    self.note(placeholder.pos, placeholder.name, scope[placeholder.name])
                else:  # `{knock_card}`: an option's value, where no parameter has the name
                    self.expr(n.Name(placeholder.name, pos=placeholder.pos), scope)
            for placeholder in move.label.expressions:  # `{size(cs)}`: its names, as anywhere
                self.expr(placeholder.expr, scope)
        self.statements(move.body, scope)
        if move.then is not None and move.then.name in steps:
            self.note(move.then.pos, move.then.name, steps[move.then.name])
        self.container = None

    # statements --------------------------------------------------------
    def statements(self, body: tuple[n.Stmt, ...], scope: dict[str, Symbol | None]) -> None:
        """A statement list; a `let` names its value for the statements after it."""
        scope = dict(scope)
        for stmt in body:
            self.construct(stmt)
            if isinstance(stmt, n.Let):
                self.expr(stmt.value, scope)
                local = scope[stmt.name] = self.local(stmt.name, stmt.name_pos, "local")
                local.within = self.rest_of_list(stmt.pos, local.place)
            elif isinstance(stmt, n.For):
                self.expr(stmt.source, scope)
                variable = self.local(stmt.variable, stmt.variable_pos, "local")
                # bound in the loop's entry ({for: ..., do: [...]}) alone
                origin = stmt.pos.origin
                variable.within = extent(n.Pos(n.Origin(origin.doc, origin.path[:-1]), 0, 0))
                self.statements(stmt.body, {**scope, stmt.variable: variable})
            elif isinstance(stmt, n.If):
                self.expr(stmt.test, scope)
                self.statements(stmt.then, scope)
                self.statements(stmt.otherwise, scope)
            elif isinstance(stmt, (n.While, n.Until)):
                self.expr(stmt.test, scope)
                self.statements(stmt.body, scope)
            else:
                self.simple(stmt, scope)

    def simple(self, stmt: n.Stmt, scope: dict[str, Symbol | None]) -> None:
        """A one-line statement: its names, then every expression in it."""
        if isinstance(stmt, n.Set):
            if stmt.subject is not None:
                subject = subject_pos(stmt)
                if subject is not None:
                    self.name_ref(subject, stmt.subject, scope)
            target = self.by_name.get(stmt.name)
            self.note(stmt.name_pos, stmt.name, target if target is not None and
                      target.kind == "variable" else None,
                      ("player attribute", stmt.name) if stmt.name in PLAYER_ATTRIBUTES
                      else None)
        elif isinstance(stmt, n.DealCards):
            self.name_ref(stmt.zone_pos, stmt.zone, {})
        elif isinstance(stmt, n.ProcedureCall):
            self.note(name_pos(stmt.pos, stmt.name), stmt.name,
                      self.procedures.get(stmt.name))
        for value in _children(stmt):
            self.expr(value, scope)

    def construct(self, stmt: n.Stmt) -> None:
        """A statement's keyword, for a hover on the construct."""
        rule = _rule_name(stmt)
        if rule is None or isinstance(stmt, n.ProcedureCall):  # (its name is its own)
            return
        word = stmt.pos.text.split(None, 1)[0] if stmt.pos.text.strip() else rule
        self.note(name_pos(stmt.pos, word), word, builtin=("construct", rule))

    @staticmethod
    def rest_of_list(pos: n.Pos, place: Place | None) -> Place | None:
        """Where a `let` binds its name: from it to the end of the statement list it is
        written in (None where that is not known: from the name on)."""
        origin = pos.origin
        if place is None or not origin.path or not isinstance(origin.path[-1], int):
            return None
        listed = extent(n.Pos(n.Origin(origin.doc, origin.path[:-1]), 0, 0))
        return Place(place.start, listed.end) if listed is not None else None

    def local(self, name: str, pos: n.Pos, kind: str, within: n.Pos | None = None) -> Symbol:
        symbol = Symbol(kind, name, place_of(pos, len(name)), parent=self.container,
                        within=place_of(within) if within is not None else None)
        self.index.symbols.append(symbol)
        self.note(pos, name, symbol)
        return symbol

    # expressions -------------------------------------------------------
    def expr(self, node: Any, scope: dict[str, Symbol | None]) -> None:
        """Every name an expression holds (walked with a stack: rule text nests deep)."""
        stack: list[tuple[Any, dict[str, Symbol | None]]] = [(node, scope)]
        while stack:
            item, names = stack.pop()
            if item is None:
                continue
            if isinstance(item, n.Aggregate):
                self.note(name_pos(item.pos, item.function), item.function,
                          builtin=("aggregate", item.function))
                stack.append((item.source, names))
                variable = self.local(item.variable, item.variable_pos, "local", item.pos)
                variable.outside = place_of(item.source.pos)  # (`for c in c`: not that c)
                inner = {**names, item.variable: variable}
                stack.extend([(item.element, inner), (item.condition, inner)])
                continue
            self.one(item, names)
            stack.extend((child, names) for child in _children(item))

    def one(self, node: n.Node, scope: dict[str, Symbol | None]) -> None:
        """The names of one expression node (its parts are walked by `expr`)."""
        if isinstance(node, n.Name):
            self.name_ref(node.pos, node.name, scope)
        elif isinstance(node, n.Call):
            where = name_pos(node.pos, node.function)
            if node.function in self.functions:
                self.note(where, node.function, self.functions[node.function])
            elif node.function in FUNCTIONS:
                self.note(where, node.function, builtin=("function", node.function))
        elif isinstance(node, n.Attribute):
            self.attribute(node)
        elif isinstance(node, n.Text):
            self.note(node.pos, repr(node.value), text=node.value)
        else:
            self.keyword(node)

    def keyword(self, node: n.Node) -> None:
        """The word or operator that makes an expression what it is (`if`, `and`, `in`,
        `==`...), for a hover on the construct."""
        rule = _rule_name(node)
        if rule is None:
            return
        if isinstance(node, (n.Comparison, n.Arithmetic)):  # (their pos starts at the operator)
            self.note(name_pos(node.pos, node.op), node.op, builtin=("construct", rule))
        elif isinstance(node, (n.Conditional, n.Negation)):
            word = "if" if isinstance(node, n.Conditional) else "not"
            self.note(name_pos(node.pos, word), word, builtin=("construct", rule))
        elif isinstance(node, (n.Conjunction, n.Disjunction, n.Membership)):
            left, right = (node.item, node.collection) if isinstance(node, n.Membership) \
                else (node.left, node.right)
            word = {"conjunction": "and", "disjunction": "or", "membership": "in",
                    "non_membership": "not"}[rule]
            where = word_between(node.pos, left.pos, right.pos, word)
            if where is not None:
                self.note(where, word, builtin=("construct", rule))

    def name_ref(self, pos: n.Pos, name: str, scope: dict[str, Symbol | None] | None = None
                 ) -> None:
        if scope is not None and name in scope:
            symbol = scope[name]
            if symbol is None:  # a name the checker binds itself: p in scoring, card in wild
                self.note(pos, name, builtin=("local", name))
            else:
                self.note(pos, name, symbol)
        elif name in NAMES and not (name == "house" and self.decls.house is None):
            self.note(pos, name, builtin=("name", name))
        elif name in self.by_name:
            self.note(pos, name, self.by_name[name])

    def attribute(self, node: n.Attribute) -> None:
        """`x.name`: a card's attribute or value table, or a player's attribute or
        variable; the checked program says which when the file checks."""
        typed = self.types.get(_key(node.pos))
        on_card = isinstance(typed, ir.CardAttr) if typed is not None else None
        name, where = node.name, node.name_pos
        variable = self.by_name.get(name)
        if on_card is not True and variable is not None and variable.kind == "variable":
            self.note(where, name, variable)
        elif on_card is not False and name in self.tables:
            self.note(where, name, self.tables[name])
        elif on_card is not False and name in CARD_ATTRIBUTES:
            self.note(where, name, builtin=("card attribute", name))
        elif name in PLAYER_ATTRIBUTES:
            self.note(where, name, builtin=("player attribute", name))


def _entry(named: d.Named) -> n.Pos:
    """The entry a name is given in (`- name: x ...`): the mapping that holds `name:`."""
    origin = named.pos.origin
    return n.Pos(n.Origin(origin.doc, origin.path[:-1]), 0)


def _key(pos: n.Pos) -> tuple[Any, ...]:
    return (pos.origin.path, pos.origin.key, pos.offset, pos.end)


def _children(node: Any) -> Iterator[Any]:
    """The syntax nodes an expression or statement holds directly."""
    for item in fields(node):
        if item.name in ("pos", "span", "name_pos", "variable_pos", "zone_pos", "limit_pos"):
            continue
        value = getattr(node, item.name)
        if isinstance(value, n.Node):
            yield value
        elif isinstance(value, tuple):
            yield from (v for v in value if isinstance(v, n.Node))


def _rule_name(node: n.Node) -> str | None:
    """The grammar rule a syntax node was built from, where the registry has a construct of
    that name (the block statements come from YAML keys, not from a rule)."""
    if isinstance(node, (n.If, n.For, n.While, n.Until)):
        return None
    if isinstance(node, n.Membership):
        return "non_membership" if node.negated else "membership"
    return rule_name(type(node))


def _option_detail(option: d.OptionDecl) -> str:
    default = option.default.value
    text = f"default {default!r}" if isinstance(default, str) else \
        f"default {str(default).lower() if isinstance(default, bool) else default}"
    if option.choices:
        text += "; choices " + ", ".join(str(c.value) for c in option.choices)
    if option.low is not None or option.high is not None:
        low = option.low.value if option.low is not None else "..."
        high = option.high.value if option.high is not None else "..."
        text += f"; from {low} to {high}"
    return text


def _zone_detail(zone: d.ZoneDecl) -> str:
    parts = ["each player's" if zone.owned else "shared", f"visibility {zone.visibility}",
             f"layout {zone.layout}"]
    if zone.groups is not None:
        parts.append(f"{zone.groups.value} groups")
    if zone.keep:
        parts.append("kept across rounds")
    return ", ".join(parts)


# -------------------------------------------------------------------- types
def checked_types(checked: Checked | None) -> dict[tuple[Any, ...], ir.Expr]:
    """Every checked expression node of a program by the position of its rule text (for
    the type of a name, and whether `x.name` is a card's or a player's)."""
    found: dict[tuple[Any, ...], ir.Expr] = {}
    if checked is None:
        return found
    stack: list[Any] = [checked.program]
    seen: set[int] = set()
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, (tuple, list)):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif is_dataclass(item) and type(item).__module__ == ir.__name__:
            if isinstance(item, ir.Expr) and item.pos.origin.doc is not None:
                found.setdefault(_key(item.pos), item)
            stack.extend(getattr(item, f.name) for f in fields(item) if f.name != "pos")
    return found


def build_index(decls: d.RulesetDecl, checked: Checked | None = None) -> Index:
    """The symbols and occurrences of a ruleset's declarations (with the types of a checked
    program, when the file checks)."""
    index = _Builder(decls, checked_types(checked)).build()
    if checked is not None:
        _add_types(index, checked)
    return index


def _add_types(index: Index, checked: Checked) -> None:
    """The declared types of variables and functions, from the checked program."""
    variables = {v.name: v for v in checked.program.variables}
    functions = {f.name: f for f in checked.program.functions}
    for symbol in index.symbols:
        if symbol.kind == "variable" and symbol.name in variables:
            var = variables[symbol.name]
            symbol.type = var.type
            symbol.detail = f"{var.type}, scope {var.scope}, visibility {var.visibility}"
        elif symbol.kind == "function" and symbol.name in functions:
            fn = functions[symbol.name]
            symbol.type = fn.value.type
            params = ", ".join(f"{name}: {type_word(t)}" for name, t in fn.params)
            symbol.detail = f"{symbol.name}({params}) -> {type_word(fn.value.type)}"


def type_word(t: Type) -> str:
    """A type as a signature writes it: `card`, `list of cards`, `number`."""
    text = str(t)
    for article in ("a ", "an "):
        if text.startswith(article):
            return text[len(article):]
    return text
