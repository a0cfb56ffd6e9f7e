"""Stage 4 for expressions: the meaning check, from syntax nodes to the checked tree.

Every `check_<rule>` method checks one node (names, arities, types; each problem becomes a
located diagnostic) and returns its checked form (ir.py), with options and literals folded
into constants. Nothing here writes code: the generator (codegen.py) does, from what this
returns.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

from cardrules.errors import Diagnostic
from cardrules.interpreter.runtime import MOST_VALUE

from . import ir
from . import nodes as n
from .builtins import (
    CARD_ATTRIBUTES,
    EXPRESSION_WORDS,
    NAMES,
    NULLABLE_ATTRIBUTES,
    PLAYER_ATTRIBUTES,
    SETTLED_CARD_ATTRIBUTES,
    SETTLED_NAMES,
    SETTLED_PLAYER_ATTRIBUTES,
)
from .check_calls import CallChecks
from .ir import BAD
from .names import did_you_mean, rule_name
from .symbols import Assignments, Symbols
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
    UNCHECKED,
    WORDS,
    Type,
    accepts,
    as_collection,
    comparable,
    list_of,
    open_list,
    type_of_value,
    zone_type,
)

COLOURS = ("red", "black", "none")


_PLAYER_SCOPES = ("player", "player_round")


def known(code: ir.Expr) -> bool:
    """Whether an expression's value is known when the ruleset loads."""
    return isinstance(code, ir.Const) and code is not BAD


class ExpressionChecker(CallChecks):
    """Checks expressions against a ruleset's symbols (statements: check_stmt.py)."""

    def __init__(self, symbols: Symbols, diagnostics: list[Diagnostic],
                 assignments: Assignments | None = None):
        self.symbols = symbols
        self.diagnostics = diagnostics
        self.assignments = assignments  # set on the first reading only
        self.scope: dict[str, tuple[Type, bool]] = {}  # local -> (type, may be none)
        self.has_me = True
        self.hints: list[Diagnostic] = []  # notes that do not make the file invalid
        # the parameters of the move whose `when` is being checked: chosen only after it
        self.not_yet_chosen: tuple[str, ...] = ()

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
        """Whether `name` may not name what the file binds or declares (reported): a word of
        the expressions (`if`, `and`, `none`...: a name so spelt cannot always be read), or
        `house` in a ruleset that has one (it names the house there, and nothing else may)."""
        if name in EXPRESSION_WORDS:
            self.error(pos, f"'{name}' is a word of the language ({' '.join(EXPRESSION_WORDS)}):"
                            " choose another name")
            return True
        if name != "house" or self.symbols.house is None:
            return False
        self.error(pos, "'house' names the house in this ruleset (`house:`); choose another "
                        "name")
        return True

    def hides(self, name: str, pos: n.Pos, role: str) -> None:
        """A hint where a name the rules bind for a while (a loop's variable, a parameter)
        is also a zone, a variable, an option or a built-in name: the bound name wins
        wherever it is seen (grammar 4.3), so the other cannot be read there."""
        s = self.symbols
        var = s.variables.get(name)
        if name in s.zones:
            what = "zone"
        elif var is not None and var.scope in ("game", "round"):
            what = "variable"
        elif name in s.options:
            what = "option"
        elif name in NAMES:
            what = "built-in name"
        else:
            return
        where = "inside this loop" if role == "loop variable" else "where it is seen"
        self.hint(pos, f"'{name}' is also {'an' if what == 'option' else 'a'} {what}: {where}, "
                       f"'{name}' is the {role} and the {what} cannot be read; choose another "
                       "name")

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
            if t is UNCHECKED:
                return BAD
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
        if name in self.not_yet_chosen:
            return self.error(node.pos, f"'{name}' is chosen by this move (`choose`), and a "
                                        "move's `when` is tested before anything is chosen: "
                                        f"test the choice in the `where` of {name}'s list")
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
        if isinstance(base, ir.ZoneRef):
            return self.error(node.pos, f"cannot index {base.type} by a card's place: a card "
                              "of a zone by place is an item of its cards, cards(Z)[i] (or a "
                              "slice, Z[i:j]; the top card, top(Z))")
        if coll is None:
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
        if name == "colour" and self.symbols.uncoloured:
            return self.uncoloured(node.name_pos)
        if name in CARD_ATTRIBUTES:
            return ir.CardAttr(card, name, type=CARD_ATTRIBUTES[name][0], pos=node.pos,
                               nullable=name in NULLABLE_ATTRIBUTES)
        if name in self.symbols.value_tables:
            return ir.CardAttr(card, name, True, type=INT, pos=node.pos)
        known_attrs = [*CARD_ATTRIBUTES, *self.symbols.value_tables]
        return self.error(node.name_pos, f"a card has no attribute '{name}'"
                                         + did_you_mean(name, known_attrs))

    def uncoloured(self, pos: n.Pos) -> ir.Expr:
        """A colour read in a deck with a suit of no colour: refused, with the fix."""
        suits = self.symbols.uncoloured
        return self.error(pos, f"the deck gives suit '{suits[0]}' no colour: name the colour "
                               f"of each suit in deck.colours ({suits[0]}: red or black)")

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

    def check_list_literal(self, node: n.ListLiteral,
                           checked: list[ir.Expr] | None = None) -> ir.Expr:
        items = [self.check(i) for i in node.items] if checked is None else checked
        if any(i is BAD for i in items):
            return BAD
        named = next((i.type for i in items if i.type in NAMED), None)
        if named is not None:  # texts among ranks (suits, colours) name ranks: [c.suit, 'spades']
            items = [self.as_named(named, i, item) for i, item in zip(items, node.items)]
            if any(i is BAD for i in items):
                return BAD
        first = items[0].type if items else ANY
        for code, item in zip(items, node.items):
            if not comparable(first, code.type):
                return self.error(item.pos, f"a list mixes {first} and {code.type}")
        return ir.ListLiteral(tuple(items), type=list_of(first), pos=node.pos)

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
            if not -MOST_VALUE <= value <= MOST_VALUE:  # (and no huge number is ever written)
                return self.error(node.span, f"this {_RESULT[node.op]}, worked out before any "
                                  f"game, is beyond {MOST_VALUE:,} (2^53 - 1) either side of 0, "
                                  "the most a game holds")
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
        t = a.type if not open_list(a.type) else b.type
        return ir.Join(a, b, type=t, pos=node.pos)

    def check_comparison(self, node: n.Comparison) -> ir.Expr:
        left, right = self.check(node.left), self.check(node.right)
        if left is BAD or right is BAD:
            return BAD
        if left.type in NAMED:  # `c.rank == 'K'`, `c.suit == trumps` (an option)
            right = self.as_named(left.type, right, node.right)
        elif right.type in NAMED:
            left = self.as_named(right.type, left, node.left)
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
            fix = ""  # (a rank compared with a number written: the rank's name is a text)
            for named, side in ((left, node.right), (right, node.left)):
                if named.type == RANK and isinstance(side, n.Number):
                    fix = f": a rank is named as a text, write '{side.value}'"
            return self.error(node.pos, f"comparing {left.type} with {right.type} "
                                        f"is always false{fix}")
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
        names = self.deck_names(t)
        if node.value not in names:
            return self.error(node.pos, f"'{node.value}' is not {t} of this deck: expected "
                              + ", ".join(names) + did_you_mean(node.value, names))
        return ir.Const(names.index(node.value), type=t, pos=node.pos)

    def as_named(self, t: Type, code: ir.Expr, node: n.Expr) -> ir.Expr:
        """`code`, a text written where a rank, a suit or a colour (`t`) is wanted, or an
        option's text there, as that one (the deck names them with texts); any other as it
        is."""
        if t not in NAMED or code is BAD or code.type != TEXT:
            return code
        if isinstance(node, n.Text):
            return self.named_constant(t, node)
        if isinstance(node, n.Name) and node.name not in self.scope \
                and node.name in self.symbols.options and known(code):
            names = self.deck_names(t)
            value = code.value  # type: ignore[attr-defined]
            if value not in names:
                return self.error(node.pos, f"option '{node.name}' is '{value}', which is not "
                                  f"{t} of this deck: expected " + ", ".join(names))
            return ir.Const(names.index(value), type=t, pos=node.pos)
        return code

    def deck_names(self, t: Type) -> tuple[str, ...]:
        """The names of the deck's ranks, its suits or the colours."""
        return tuple({RANK: self.symbols.rank_names, SUIT: self.symbols.suit_names,
                      COLOUR: COLOURS}[t])

    def named_list(self, t: Type, node: n.ListLiteral) -> ir.Expr:
        """A list written where its items are ranks (suits, colours: `t`): its texts as
        those."""
        items = [self.as_named(t, self.check(item), item) for item in node.items]
        if any(i is BAD for i in items):
            return BAD
        return self.check_list_literal(node, items)

    def check_membership(self, node: n.Membership) -> ir.Expr:
        item = self.check(node.item)
        if item is not BAD and item.type in NAMED and isinstance(node.collection, n.ListLiteral):
            # a rank (suit, colour) among texts written: `c.suit in ['spades', 'hearts']`
            coll = self.named_list(item.type, node.collection)
        else:
            coll = self.iterable(node.collection)
        if item is BAD or coll is BAD:
            return BAD
        assert coll.type.item is not None
        item = self.as_named(coll.type.item, item, node.item)  # ('spades' in trumps)
        if item is BAD:
            return BAD
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
        then = self.as_named(other.type, then, node.then)  # (`then 'spades' else c.suit`)
        other = self.as_named(then.type, other, node.otherwise)
        if BAD in (then, other):
            return BAD
        if not comparable(then.type, other.type) and not self.may_be_none(then, other):
            return self.error(node.pos, f"the two branches differ: {then.type} "
                                        f"and {other.type}")
        if known(test):
            return then if test.value else other  # type: ignore[attr-defined]
        t = other.type if then.type == NONE else then.type
        return ir.Conditional(self.needed(test, node.test.pos, "the test"), then, other, type=t,
                         pos=node.pos, nullable=then.nullable or other.nullable)


    @staticmethod
    def may_be_none(then: ir.Expr, other: ir.Expr) -> bool:
        """Whether one branch is `none` and the other a rank, a suit or a colour: such a
        value may be nothing, as a card or a player may (`if ... then c.suit else none`)."""
        if NONE not in (then.type, other.type):
            return False
        return (other.type if then.type == NONE else then.type) in NAMED


NAMED = (RANK, SUIT, COLOUR)  # what the deck names with texts ('spades', 'K', 'red')
_RESULT = {"+": "sum", "-": "difference", "*": "product", "/": "quotient", "%": "remainder"}
_ARITHMETIC = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
               "/": lambda a, b: a // b, "%": lambda a, b: a % b}
_COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def _may_be_none(value: ir.Expr, other: ir.Expr) -> bool:
    """`x == none` where x may hold none (a variable first none, say): a real question."""
    return value.nullable and other.type == NONE


__all__ = ["BAD", "COLOURS", "WORDS", "ExpressionChecker", "known"]
