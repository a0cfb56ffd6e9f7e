"""Stage 4 for a whole ruleset: its declarations checked, in the order they depend on each
other (options, players, deck, zones, variables, functions, the round's flow, triggers,
scoring), into the checked program the generator compiles.

`check(decls, options)` returns the Checked ruleset and every diagnostic found. Variables
whose initial value is `none` take their type from what the rules store in them: a first
reading of the rules notes every `set`, and the real check runs with those types.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from cardrules.errors import Diagnostic, RulesetError
from cardrules.model import CardTable, HouseDef, MeldKind, OptionDef, ZoneDef

from . import decls as d
from . import ir, limits
from . import nodes as n
from .builtins import AGGREGATES, CARD_ATTRIBUTES, FUNCTIONS
from .cards import STANDARD_RANKS, STANDARD_SUITS, card_table
from .check_expr import (
    BAD,
    Assignments,
    FunctionInfo,
    Symbols,
    VariableInfo,
    known,
)
from .check_melds import meld_kinds
from .check_stmt import StatementChecker
from .fold import Env, NotStatic, evaluate
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
    PLAYERS,
    RANK,
    SUIT,
    TEXT,
    WORDS,
    Type,
    accepts,
)

TRIGGER_KINDS = ("after_setup", "after_move", "after_turn", "after_round", "before_turn")
TYPE_NAMES = {"card": CARD, "cards": CARDS, "player": PLAYER, "players": PLAYERS,
              "number": INT, "bool": BOOL, "text": TEXT, "rank": RANK, "suit": SUIT,
              "colour": COLOUR}


@dataclass(frozen=True)
class MoveInfo:
    """What the engine and the people need of a move besides its code."""

    kinds: tuple[str, ...]  # each parameter's type name
    names_cards: tuple[bool, ...]


@dataclass(frozen=True)
class Checked:
    """A checked ruleset: its program and everything fixed before any game."""

    decls: d.RulesetDecl
    program: ir.Program
    options: dict[str, Any]
    option_defs: tuple[OptionDef, ...]
    cards: CardTable
    copies: dict[int, int]  # table size -> decks
    rounds: dict[int, int]  # table size -> rounds (at most, when `until` is given)
    home_zone: int
    zones: tuple[ZoneDef, ...]
    min_players: int
    max_players: int
    default_players: int
    direction: int
    moves: dict[str, MoveInfo]
    teams: int = 0  # partnerships, or 0
    score_by: str = "player"  # player | team
    melds: tuple[MeldKind, ...] = ()  # the kinds of meld declared (`melds:`)
    meld_value: str = "number"  # what deadwood counts by
    max_actions: int = limits.DEFAULT_ACTIONS  # a game ends, with no winner, after this many
    house: HouseDef | None = None  # the party that is not a seat (`house:`)


def check(decls: d.RulesetDecl, options: dict[str, Any] | None = None
          ) -> tuple[Checked | None, list[Diagnostic]]:
    """Check a ruleset with the given option values; the result is None if any problem."""
    seen = Assignments()
    if not all(_plain_value(v.initial) for v in decls.variables):
        first = _RulesetChecker(decls, options, seen)
        first.run()
    second = _RulesetChecker(decls, options, None, seen)
    checked = second.run()
    found = sorted(second.diagnostics, key=_order)
    return (checked if not found else None), found


def _plain_value(node: n.Expr | None) -> bool:
    """Whether a variable's initial value is a number, text or truth value written out: its
    type is known, and such a variable never holds none, whatever the rules store in it."""
    if isinstance(node, n.Minus):
        node = node.operand
    return isinstance(node, (n.Number, n.Text, n.Boolean))


def _order(diagnostic: Diagnostic) -> tuple[int, int]:
    loc = diagnostic.location
    return (loc.line, loc.column) if loc else (0, 0)


def coerce_option(value: Any, like: Any) -> Any:
    """A command-line option value (text) as the type of the option's default, or None."""
    if not isinstance(value, str):
        return value if type(value) is type(like) else None
    if isinstance(like, bool):
        return {"true": True, "yes": True, "false": False, "no": False}.get(value.lower())
    if isinstance(like, int):
        # ASCII digits only: no '٣', no '3_000', no 4,000-digit numbers.
        if re.fullmatch(r"-?[0-9]{1,10}", value) is None:
            return None
        number = int(value)
        return number if abs(number) <= limits.MAX_VALUE else None
    return value


class _RulesetChecker(StatementChecker):
    """Checks one ruleset's declarations; collects every diagnostic."""

    def __init__(self, decls: d.RulesetDecl, overrides: dict[str, Any] | None,
                 assignments: Assignments | None, seen: Assignments | None = None):
        super().__init__(Symbols(), [], assignments)
        self.decls = decls
        self.overrides = dict(overrides or {})
        self.seen = seen  # what the first reading saw stored in each variable
        # each option's min: and max: as written, to point at when a value passes them
        self.option_bounds: dict[str, tuple[d.Literal | None, d.Literal | None]] = {}
        self.move_infos: dict[str, MoveInfo] = {}

    def problem(self, pos: n.Pos, message: str) -> None:
        self.diagnostics.append(pos.diagnostic(message))

    # ------------------------------------------------------------------ whole
    def run(self) -> Checked | None:
        decls = self.decls
        self.players()
        house = self.house()
        option_defs = self.options()
        self.teams()
        cards, copies = self.deck()
        zones, home = self.zones()
        variables = self.variables()
        melds = self.melds()  # after the zones and variables, which it may not read
        functions = self.functions()
        phases = self.phases()
        reactions = self.reactions()
        self.has_me = True
        setup = self.statements(decls.setup)
        round_end = self.statements(decls.round_end)
        triggers = self.triggers()
        scores, evaluate_ir = self.scoring()
        rounds_ir, rounds, until = self.match_length()
        self.has_me = False
        round_first = self.player(decls.round_first, "who starts the round")
        if self.diagnostics or self.assignments is not None:
            return None
        program = ir.Program(functions, variables, setup, phases, round_end, reactions,
                             triggers, scores, evaluate_ir, rounds_ir, until, round_first)
        return Checked(decls, program, dict(self.symbols.options), option_defs, cards, copies,
                       rounds, home, zones, self.min_players, self.max_players,
                       self.default_players, self.direction, self.move_infos,
                       self.symbols.teams, decls.scoring.by, melds,
                       decls.melds.value.name if decls.melds and decls.melds.value else "number",
                       self.max_actions(), house)

    # --------------------------------------------------------------- options
    def options(self) -> tuple[OptionDef, ...]:
        defs: list[OptionDef] = []
        for option in self.decls.options:
            name = option.name.name
            if self.clash(name, option.name.pos):
                continue
            if name in self.symbols.options:
                self.problem(option.name.pos, f"option '{name}' is declared twice")
                continue
            default = option.default.value
            self.bounded_value(option.default)
            choices = tuple(c.value for c in option.choices) if option.choices else None
            if choices is not None and default not in choices:
                self.problem(option.default.pos, f"the default '{default}' is not one of "
                             "the choices: " + ", ".join(str(c) for c in choices))
            low, high = self.option_range(option)
            defs.append(OptionDef(name, default, choices, option.doc, low, high, option.label))
            self.option_bounds[name] = (option.low, option.high)
            self.symbols.options[name] = default
            if choices is not None:
                self.symbols.choices[name] = choices
        for name, value in self.overrides.items():
            self.override(defs, name, value)
        return tuple(defs)

    def option_range(self, option: d.OptionDecl) -> tuple[int | None, int | None]:
        """An option's min: and max:, checked: whole numbers, for an option whose default is
        one, around the default, and not beside a list of choices."""
        bounds = [b for b in (option.low, option.high) if b is not None]
        for bound in bounds:
            self.bounded_value(bound)
        if not bounds:
            return None, None
        default = option.default.value
        if type(default) is not int:
            self.problem(bounds[0].pos, "min and max bound an option whose default is a whole "
                                        "number; this one's is " + _type_word(default))
            return None, None
        if option.choices:
            self.problem(bounds[0].pos, "an option has choices or a range (min, max), not both")
            return None, None
        low = option.low.whole if option.low is not None else None
        high = option.high.whole if option.high is not None else None
        if low is not None and high is not None and low > high:
            self.problem(bounds[-1].pos, f"max {high} is below min {low}")
        elif (low is not None and default < low) or (high is not None and default > high):
            self.problem(option.default.pos, f"the default {default} is outside the option's "
                                             f"range, {_range_text(low, high)}")
        return low, high

    def bounded_value(self, literal: d.Literal) -> None:
        value = literal.value
        if type(value) is int and abs(value) > limits.MAX_VALUE:
            self.problem(literal.pos, f"{value} is too large: numbers here are at most "
                                      f"{limits.MAX_VALUE:,} either side of 0")

    def override(self, defs: list[OptionDef], name: str, value: Any) -> None:
        by_name = {o.name: o for o in defs}
        option = by_name.get(name)
        if option is None:
            raise RulesetError([Diagnostic(None, f"{self.decls.path}: no option '{name}'"
                                           + did_you_mean(name, by_name))])
        coerced = coerce_option(value, option.default)
        if coerced is None or (option.choices is not None and coerced not in option.choices):
            wanted = (", ".join(str(c) for c in option.choices) if option.choices
                      else _type_word(option.default))
            raise RulesetError([Diagnostic(None, f"option '{name}': expected {wanted}")])
        low, high = self.option_bounds.get(name, (None, None))
        below = option.low is not None and coerced < option.low
        above = option.high is not None and coerced > option.high
        bound = low if below else high if above else None
        if bound is not None:  # said where the rule file draws the line
            raise RulesetError([bound.pos.diagnostic(
                f"option '{name}': {coerced} is outside its range, "
                f"{_range_text(option.low, option.high)}")])
        self.symbols.options[name] = coerced

    def players(self) -> None:
        spec = self.decls.players
        low = spec.min.whole if spec.min else 2
        high = spec.max.whole if spec.max else max(low, 4)
        default = spec.default.whole if spec.default else low
        self.min_players, self.max_players, self.default_players = low, high, default
        if not low <= default <= high:
            self.problem(spec.pos, "players: expected min <= default <= max")
        if high > limits.MAX_PLAYERS:
            self.problem(spec.max.pos if spec.max else spec.pos,
                         f"players: at most {limits.MAX_PLAYERS}")
        # (a range the later checks can use, whatever was wrong above)
        self.min_players = max(1, min(low, limits.MAX_PLAYERS))
        self.max_players = max(self.min_players, min(high, limits.MAX_PLAYERS))
        self.direction = 1 if self.decls.direction == "clockwise" else -1

    def house(self) -> HouseDef | None:
        """`house:`: a party that is not a seat; in rule text, the player `house`. Its player
        number follows every seat's (the largest table size), so that its zones and player
        variables sit after the seats' at every table size."""
        spec = self.decls.house
        if spec is None:
            return None
        if self.decls.teams is not None:
            self.problem(self.decls.teams.pos, "a ruleset with a house (`house:`) cannot "
                         "play in partnerships (`teams:`): the house belongs to no team")
        self.symbols.house = self.max_players
        return HouseDef(spec.name, self.max_players, spec.doc)

    def teams(self) -> None:
        """`teams: N`: seat s (from 1) plays in team (s - 1) mod N + 1, at every table size
        the ruleset allows."""
        spec = self.decls.teams
        by_team = self.decls.scoring.by == "team"
        if spec is None:
            if by_team:
                pos = self.decls.scoring.by_pos or self.decls.name.pos
                self.problem(pos, "scoring by team needs `teams:`")
            return
        if self.decls.house is not None:
            return  # (refused with the house)
        count = spec.whole
        bad = [n for n in range(self.min_players, self.max_players + 1) if n % count]
        if bad:
            self.problem(spec.pos, f"{count} teams cannot share {bad[0]} players equally: "
                         f"the player counts must be multiples of {count}")
            return
        self.symbols.teams = count

    def max_actions(self) -> int:
        """`max_actions`: the bound on a game's length, so that every game ends."""
        spec = self.decls.max_actions
        if spec is None:
            return limits.DEFAULT_ACTIONS
        if spec.whole > limits.MAX_ACTIONS:
            self.problem(spec.pos, f"max_actions: at most {limits.MAX_ACTIONS:,}")
            return limits.MAX_ACTIONS
        return spec.whole

    def melds(self) -> tuple[MeldKind, ...]:
        """`melds:`: the kinds of meld the meld built-ins read."""
        if self.decls.melds is None:
            return ()
        kinds: list[MeldKind] = []
        self.diagnostics.extend(meld_kinds(self.decls.melds, self.symbols.value_tables,
                                           self.static, self.is_known_name, kinds))
        self.symbols.melds = True
        self.symbols.meld_kinds = tuple(k.name.name for k in self.decls.melds.kinds)
        return tuple(kinds)

    def static(self, node: n.Expr, wanted: Type, what: str) -> Any:
        """The value of an expression known before the game (numbers, texts and options),
        or None, with the problem reported, where it is not one."""
        self.has_me = False
        code = self.expect(self.check(node), wanted, node.pos, what)
        if code is BAD:
            return None
        try:
            return evaluate(code, Env())
        except NotStatic as exc:
            self.problem(exc.node.pos, f"{what} may only use numbers, texts and options")
            return None

    # ------------------------------------------------------------------ deck
    def deck(self) -> tuple[CardTable, dict[int, int]]:
        deck = self.decls.deck
        ranks = tuple(str(r.value) for r in deck.ranks) or STANDARD_RANKS
        suits = tuple(str(s.value) for s in deck.suits) or STANDARD_SUITS
        jokers = deck.jokers.whole if deck.jokers else 0
        bad = self.distinct_names(deck.ranks, "ranks", limits.MAX_RANKS) | \
            self.distinct_names(deck.suits, "suits", limits.MAX_SUITS)
        if bad:  # left out, so that nothing else speaks of them again
            ranks = tuple(r for r in ranks if r not in bad) or STANDARD_RANKS
            suits = tuple(s for s in suits if s not in bad) or STANDARD_SUITS
        if deck.jokers and jokers > limits.MAX_JOKERS:
            self.problem(deck.jokers.pos, f"at most {limits.MAX_JOKERS} jokers")
            jokers = limits.MAX_JOKERS
        ranks, suits = ranks[:limits.MAX_RANKS], suits[:limits.MAX_SUITS]
        # 'joker' names the jokers' rank and suit, in a deck that has any
        self.symbols.rank_names = (*ranks, "joker") if jokers else ranks
        self.symbols.suit_names = (*suits, "joker") if jokers else suits
        per_deck = len(ranks) * len(suits) + jokers
        copies = self.copies(per_deck)
        table = card_table(ranks, suits, jokers, max(copies.values()), per_deck)
        values = self.value_tables(ranks, jokers, table)
        self.symbols.value_tables = tuple(values)
        partial = CardTable(per_deck=per_deck, values=values, wild=(False,) * len(table["names"]),
                            **table)
        return CardTable(per_deck=per_deck, values=values, wild=self.wild(partial),
                         **table), copies

    def distinct_names(self, names: tuple[d.Literal, ...], what: str, most: int) -> set[str]:
        """Check a deck's ranks or suits; the names that are not fit to be one."""
        seen: set[str] = set()
        bad: set[str] = set()
        for literal in names:
            text = str(literal.value)
            if text in seen or text == "joker":
                self.problem(literal.pos, f"the {what} of a deck must be distinct, and "
                                          "'joker' is reserved")
            elif not 0 < len(text) <= limits.MAX_CARD_NAME or not text.isprintable() \
                    or any(ch.isspace() for ch in text):
                self.problem(literal.pos, f"the {what} of a deck are names of 1 to "
                                          f"{limits.MAX_CARD_NAME} characters, without spaces")
                bad.add(text)
            seen.add(text)
        if len(names) > most:
            self.problem(names[most].pos, f"a deck has at most {most} {what}")
        return bad

    def copies(self, per_deck: int) -> dict[int, int]:
        """How many decks, for each table size the ruleset allows."""
        node = self.decls.deck.copies
        sizes = range(self.min_players, self.max_players + 1)
        if node is None:
            return dict.fromkeys(sizes, 1)
        self.has_me = False
        code = self.expect(self.check(node), INT, node.pos, "deck copies")
        out = dict.fromkeys(sizes, 1)
        if code is BAD:
            return out
        for count in sizes:
            try:
                value = evaluate(code, Env(player_count=count))
            except NotStatic as exc:
                self.problem(exc.node.pos, "the deck count may only use numbers, options and "
                                           "player_count")
                return out
            if not 1 <= value <= limits.MAX_COPIES or value * per_deck > limits.MAX_CARDS:
                self.problem(node.pos, f"deck copies: {value} for {count} players; a game "
                             f"uses 1 to {limits.MAX_COPIES} decks and at most "
                             f"{limits.MAX_CARDS} cards")
                return out
            out[count] = value
        return out

    def value_tables(self, ranks: tuple[str, ...], jokers: int,
                     table: dict[str, Any]) -> dict[str, tuple[int, ...]]:
        out: dict[str, tuple[int, ...]] = {}
        wanted = list(ranks) + (["joker"] if jokers else [])
        for spec in self.decls.values:
            name = spec.name.name
            if name in CARD_ATTRIBUTES or name in ("joker", "wild"):
                self.problem(spec.name.pos, f"a value table cannot be named '{name}': cards "
                                            "already have an attribute of that name")
                continue
            given = {rank.name: number.value for rank, number in spec.entries}
            for rank, number in spec.entries:
                if rank.name not in wanted:
                    self.problem(rank.pos, f"'{rank.name}' is not a rank of this deck"
                                 + did_you_mean(rank.name, wanted))
                self.bounded_value(number)
            missing = [r for r in wanted if r not in given]
            if missing:
                self.problem(spec.pos, f"values '{name}' gives no number for: "
                             + ", ".join(missing))
            by_rank = [_number(given.get(r)) for r in ranks] + [_number(given.get("joker"))]
            out[name] = tuple(by_rank[r] for r in table["rank"])
        return out

    def wild(self, cards: CardTable) -> tuple[bool, ...]:
        """Which cards are wild: `deck.wild`, a condition on `card` alone, worked out now."""
        node = self.decls.deck.wild
        count = len(cards.names)
        if node is None:
            return (False,) * count
        self.has_me = False
        with self.bind({"card": CARD}):
            code = self.condition(node)
        if code is BAD:
            return (False,) * count
        try:
            return tuple(bool(evaluate(code, Env(locals={"card": c}, cards=cards)))
                         for c in range(count))
        except NotStatic as exc:
            self.problem(exc.node.pos, "the wild condition may only use the card's own "
                         "attributes (rank, suit, colour, number, is_joker, value tables) and "
                         "options")
            return (False,) * count

    # ----------------------------------------------------------------- zones
    def zones(self) -> tuple[tuple[ZoneDef, ...], int]:
        specs = self.decls.zones
        if len(specs) > limits.MAX_ZONES:
            self.problem(specs[limits.MAX_ZONES].pos, f"at most {limits.MAX_ZONES} zones")
            specs = specs[:limits.MAX_ZONES]
        out: list[ZoneDef] = []
        index = 0
        for spec in [z for z in specs if not z.owned] + [z for z in specs if z.owned]:
            rows, cols = self.side(spec.rows), self.side(spec.columns)
            groups = self.size(spec.groups, limits.MAX_GROUPS, "groups")
            out.append(ZoneDef(spec.name.name, spec.owned, spec.visibility, spec.layout,
                               rows, cols, index, spec.doc, groups, spec.keep))
            owners = self.max_players + (self.symbols.house is not None)
            index += owners * max(groups, 1) if spec.owned else 1
        seen: set[str] = set()
        for spec in specs:
            name = spec.name.name
            self.clash(name, spec.name.pos)
            if name in seen:
                self.problem(spec.name.pos, f"zone '{name}' is declared twice")
            seen.add(name)
            if spec.layout == "grid" and not (spec.rows and spec.columns):
                self.problem(spec.pos, "a grid zone needs rows and columns")
            if spec.groups and not spec.owned:
                self.problem(spec.groups.pos, "only a zone each player owns can have groups")
        self.symbols.zones = {z.name: z for z in out}
        home = self.decls.deck.zone
        zone = self.symbols.zones.get(home.name) if home else None
        if zone is None or zone.owned:
            where = home.pos if home else self.decls.deck.pos
            name = home.name if home else "None"
            self.problem(where, f"the deck's zone must be a shared zone, not '{name}'"
                         + did_you_mean(name, self.symbols.zones))
            return tuple(out), 0
        return tuple(out), zone.index

    def side(self, literal: d.Literal | None) -> int:
        return self.size(literal, limits.MAX_GRID_SIDE, "rows or columns") or 1

    def size(self, literal: d.Literal | None, most: int, what: str) -> int:
        if literal is None:
            return 0
        if literal.whole > most:
            self.problem(literal.pos, f"at most {most} {what}")
            return most
        return literal.whole

    # ------------------------------------------------------------- variables
    def variables(self) -> tuple[ir.Variable, ...]:
        """Every variable, typed, before any rule text that reads one is checked."""
        out: list[ir.Variable] = []
        self.has_me = False
        for spec in self.decls.variables:
            name = spec.name.name
            if self.clash(name, spec.name.pos):
                continue
            if name in self.symbols.variables or name in self.symbols.zones:
                self.problem(spec.name.pos, f"the name '{name}' is already taken")
                continue
            initial = self.check(spec.initial) if spec.initial is not None else BAD
            t = self.variable_type(spec, initial)
            nullable = initial.type == NONE or name in self.seen.nullable \
                if self.seen is not None else True
            self.symbols.variables[name] = VariableInfo(spec.scope, t, nullable)
            out.append(ir.Variable(name, spec.scope, t, initial, spec.visibility, spec.doc,
                                   spec.internal, self.secret_until(spec), spec.label))
        return tuple(out)

    def secret_until(self, spec: d.VariableDecl) -> str:
        """Until when a variable kept with `visibility: owner` stays secret: `game_end` (the
        default) or `round_end`. A round-end reveal fits only a value that lasts one round: a
        `player` variable would be shown at a round's end and then hidden again."""
        until = spec.secret_until
        if until is None:
            return "game_end"
        if spec.visibility != "owner":
            self.problem(until.pos, "`secret_until` says until when a secret stays secret: it "
                         "needs `visibility: owner`")
        elif until.name == "round_end" and spec.scope != "player_round":
            self.problem(until.pos, "`secret_until: round_end` is for a variable of scope "
                         f"player_round, whose value lasts one round (this one is {spec.scope})")
        return until.name

    def variable_type(self, spec: d.VariableDecl, initial: ir.Expr) -> Type:
        declared = spec.declared_type
        if declared is not None:
            t = TYPE_NAMES.get(declared.name)
            if t is None:
                self.problem(declared.pos, f"unknown type '{declared.name}': expected one of "
                             + ", ".join(TYPE_NAMES) + did_you_mean(declared.name, TYPE_NAMES))
                return ANY
            if initial is not BAD and initial.type != NONE and not accepts(t, initial.type):
                self.problem(spec.initial.pos if spec.initial else declared.pos,
                             f"the initial value must be {t}, but this is {initial.type}")
            return t
        if initial.type != NONE:
            return initial.type
        if self.seen is None:
            return ANY  # the first reading: any value may be stored
        stored = [t for t, _ in self.seen.types.get(spec.name.name, [])
                  if t not in (NONE, ANY)]
        return stored[0] if stored else NONE

    # ------------------------------------------------------------- functions
    def functions(self) -> tuple[ir.Function, ...]:
        """The ruleset's own functions, in order (each may call those before it)."""
        out: list[ir.Function] = []
        self.has_me = False
        for spec in self.decls.functions:
            name = spec.name.name
            if name in FUNCTIONS or name in AGGREGATES or name in self.symbols.functions:
                self.problem(spec.name.pos, f"'{name}' is already a function")
                continue
            params = {p.name: TYPE_NAMES[kind] for p, kind in spec.params}
            if any([self.clash(p.name, p.pos) for p, _ in spec.params]):
                continue
            if spec.value is None:
                continue
            with self.bind(params):
                value = self.check(spec.value)
            if value is BAD:
                continue
            self.symbols.functions[name] = FunctionInfo(tuple(params.values()), value.type,
                                                        value.nullable, value)
            out.append(ir.Function(name, tuple(params.items()), value))
        return tuple(out)

    # ------------------------------------------------------------------ flow
    def phases(self) -> tuple[ir.Phase, ...]:
        self.taken: set[str] = set()
        out: list[ir.Phase] = []
        for spec in self.decls.phases:
            names = [s.name.name for s in spec.steps]
            steps = tuple(self.step(step, names) for step in spec.steps)
            skip: ir.Expr | None = None
            on_skip: tuple[ir.Stmt, ...] = ()
            self.has_me = True
            if spec.skip_turn is not None:
                skip = self.condition(spec.skip_turn)
                on_skip = self.statements(spec.on_skip)
            self.has_me = False
            first = self.player(spec.first, "who starts the phase")
            when = self.condition(spec.when) if spec.when is not None else None
            if when is not None and known(when) and when.value:  # type: ignore[attr-defined]
                when = None
            out.append(ir.Phase(spec.name.name, spec.turns, steps, skip, on_skip, first,
                                None if when is BAD else when))
        return tuple(out)

    def player(self, node: n.Expr | None, what: str) -> ir.Expr | None:
        """A rule text that names a player (who starts a phase or the round), checked."""
        if node is None:
            return None
        code = self.expect(self.check(node), PLAYER, node.pos, what)
        return None if code is BAD else self.needed(code, node.pos, "the player")

    def reactions(self) -> ir.Step | None:
        spec = self.decls.reactions
        return self.step(spec, ["reactions"]) if spec is not None else None

    def step(self, spec: d.StepDecl, step_names: list[str]) -> ir.Step:
        moves: list[ir.Move] = []
        for move in spec.moves:
            name = move.name.name
            if name == "pass":
                self.problem(move.name.pos, "'pass' is the answer to a reaction window; "
                                            "choose another name for this move")
                continue
            if name in self.taken:
                self.problem(move.name.pos, f"move '{name}' is declared twice (moves need "
                                            "names unique in the ruleset)")
                continue
            self.taken.add(name)
            checked = self.move(move, step_names)
            if checked is not None:
                moves.append(checked)
        return ir.Step(spec.name.name, self.repeat(spec), tuple(moves), spec.pos, spec.automatic)

    def repeat(self, spec: d.StepDecl) -> int:
        """A step's `repeat`: a number, or an expression the options settle (e.g. `peeks`)."""
        if spec.repeat is None:
            return 1
        self.has_me = False
        code = self.expect(self.check(spec.repeat), INT, spec.repeat.pos, "a repeat count")
        if code is BAD:
            return 1
        if not known(code) or not 1 <= code.value <= limits.MAX_REPEAT:  # type: ignore[attr-defined]
            self.problem(spec.repeat.pos, "a repeat count must be a whole number from 1 to "
                         f"{limits.MAX_REPEAT} that the options settle before the game")
            return 1
        return int(code.value)  # type: ignore[attr-defined]

    def move(self, spec: d.MoveDecl, step_names: list[str]) -> ir.Move | None:
        name = spec.name.name
        then = None
        if spec.then is not None:
            if spec.then.name in step_names:
                then = step_names.index(spec.then.name)
            else:
                self.problem(spec.then.pos, f"no step '{spec.then.name}' in this phase"
                             + did_you_mean(spec.then.name, step_names))
        param_names = [p.name.name for p in spec.params]
        if spec.label is not None:
            self.check_label(spec.label, param_names)
        self.has_me = True
        when = self.condition(spec.when) if spec.when is not None else None
        if when is not None and known(when) and when.value:  # type: ignore[attr-defined]
            when = None
        saved = dict(self.scope)
        try:
            params = tuple(p for p in (self.parameter(p) for p in spec.params) if p is not None)
            body = self.statements(spec.body)
        finally:
            self.scope = saved
        if spec.label is None or when is BAD or len(params) != len(spec.params):
            return None
        kinds = tuple(p.type.name for p in params)
        self.move_infos[name] = MoveInfo(kinds, tuple(_names_cards(p.type) for p in params))
        return ir.Move(name, spec.label, spec.doc, when, params, body, then, spec.pos)

    def parameter(self, spec: d.ParamDecl) -> ir.Param | None:
        name = spec.name.name
        domain = spec.domain
        if domain is None or self.clash(name, spec.name.pos):
            return None
        first = self.check(domain.source)
        if first is BAD:
            return None
        if first.type == WORDS:  # an open domain: one action, its parameter filled in later
            if domain.where is not None:
                self.error(domain.where.pos, "an open domain takes no 'where'")
            self.scope[name] = (TEXT, False)
            return ir.Param(name, WORDS, first, None, True)
        source = self.iterable(domain.source, first)
        if source is BAD:
            return None
        item = source.type.item if source.type.item is not None else ANY
        self.scope[name] = (item, False)
        where = self.condition(domain.where) if domain.where is not None else None
        if where is BAD:
            return None
        return ir.Param(name, item, source, where, False)

    def check_label(self, label: n.Label, params: list[str]) -> None:
        for placeholder in label.placeholders:
            if placeholder.name not in params:
                self.problem(placeholder.pos, f"the label names '{{{placeholder.name}}}', but "
                             "the move chooses " + (", ".join(params) if params else "nothing"))

    # -------------------------------------------------------------- triggers
    def triggers(self) -> dict[str, tuple[ir.Trigger, ...]]:
        found: dict[str, list[ir.Trigger]] = {kind: [] for kind in TRIGGER_KINDS}
        seen: set[str] = set()
        self.has_me = True
        for spec in self.decls.triggers:
            name = spec.name.name
            if name in seen:
                self.problem(spec.name.pos, f"trigger '{name}' is declared twice")
            seen.add(name)
            when = self.condition(spec.when) if spec.when is not None else None
            body = self.statements(spec.body)
            if when is BAD:
                continue
            if when is not None and known(when):
                if not when.value:  # type: ignore[attr-defined]
                    continue  # a trigger the options rule out
                when = None
            found[spec.after].append(ir.Trigger(name, when, body))
        return {after: tuple(items) for after, items in found.items()}

    # --------------------------------------------------------------- scoring
    def scoring(self) -> tuple[tuple[ir.Score, ...], ir.Expr | None]:
        spec = self.decls.scoring
        scores: list[ir.Score] = []
        self.has_me = True
        estimate = None
        with self.bind({"p": PLAYER}):
            for entry in spec.round:
                value = self.number(entry.score, "a score")
                if value is not None:
                    scores.append(ir.Score(entry.name.name, value))
            if spec.evaluate is not None:
                estimate = self.number(spec.evaluate, "an evaluation")
        return tuple(scores), estimate

    def number(self, node: n.Expr | None, what: str) -> ir.Expr | None:
        if node is None:
            return None
        code = self.expect(self.check(node), INT, node.pos, what)
        return None if code is BAD else self.needed(code, node.pos, what)

    def match_length(self) -> tuple[ir.Expr, dict[int, int], ir.Expr | None]:
        """How many rounds (for each table size), and `until`, the match's end condition."""
        spec = self.decls.scoring
        self.has_me = False
        until = self.condition(spec.until) if spec.until is not None else None
        default = 100 if until is not None else 1  # with `until`, `rounds` only bounds it
        sizes = range(self.min_players, self.max_players + 1)
        pos = spec.rounds.pos if spec.rounds is not None else self.decls.name.pos
        code = self.number(spec.rounds, "rounds") if spec.rounds is not None else \
            ir.Const(default, type=INT, pos=pos)
        rounds = dict.fromkeys(sizes, default)
        if code is None:
            return ir.Const(default, type=INT, pos=pos), rounds, until
        for count in sizes:
            try:
                value = evaluate(code, Env(player_count=count))
            except NotStatic as exc:
                self.problem(exc.node.pos, "the number of rounds may only use numbers, "
                                           "options and player_count")
                break
            if not 1 <= value <= limits.MAX_ROUNDS:
                self.problem(pos, f"rounds: {value} for {count} players, but a match has at "
                                  f"least one round and at most {limits.MAX_ROUNDS:,}")
                break
            rounds[count] = value
        return code, rounds, None if until is BAD else until


def _names_cards(t: Type) -> bool:
    """Whether a parameter of type t is a card or a list (of lists...) of cards."""
    while t.is_list and t.item is not None:
        t = t.item
    return t.name == "card"


def _number(value: Any) -> int:
    return value if type(value) is int else 0


def _range_text(low: int | None, high: int | None) -> str:
    """'from 2 to 9', 'at least 1', 'at most 10'."""
    if low is not None and high is not None:
        return f"from {low} to {high}"
    return f"at least {low}" if low is not None else f"at most {high}"


def _type_word(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number (digits 0-9)"
    return "a text"
