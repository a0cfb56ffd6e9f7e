"""Stage 4 for a whole ruleset: its declarations checked, in the order they depend on each
other (options, players, deck, zones, variables, functions, the round's flow, triggers,
scoring), into the checked program the generator compiles. What the table fixes before any
game (options, players, deck, zones, meld kinds) is dsl/check_table.py's.

`check(decls, options)` returns the Checked ruleset and every diagnostic found. Variables
whose initial value is `none` take their type from what the rules store in them: a first
reading of the rules notes every `set`, and the real check runs with those types.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from cardrules.errors import Diagnostic
from cardrules.interpreter.runtime import IN_PLAY, MOST_ITEMS
from cardrules.model import CardTable, HouseDef, MeldKind, OptionDef, ZoneDef, scored_teams

from . import decls as d
from . import ir, limits
from . import nodes as n
from .builtins import (
    AGGREGATES,
    FUNCTIONS,
    NAMES,
    PLAYER_ATTRIBUTES,
    SETTLED_NAMES,
    SETTLED_PLAYER_ATTRIBUTES,
    STATEMENT_WORDS,
)
from .check_expr import BAD, known
from .check_hints import program_hints
from .check_moves import MoveChecker, MoveInfo
from .fold import Env, NotStatic, value_at_load
from .names import did_you_mean
from .reads import trick_reading
from .symbols import Assignments, FunctionInfo, Symbols, VariableInfo
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
    Type,
    accepts,
    open_list,
)
from .weigher import PosKey
from .work import GameItems, over_budget, weigh

TRIGGER_KINDS = ("after_setup", "after_move", "after_turn", "after_round", "before_turn")
TYPE_NAMES = {"card": CARD, "cards": CARDS, "player": PLAYER, "players": PLAYERS,
              "number": INT, "bool": BOOL, "text": TEXT, "rank": RANK, "suit": SUIT,
              "colour": COLOUR}


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
    score_by: str = "player"  # player | team | table

    @property
    def scored_teams(self) -> int:
        """The partnerships scores are shared in: `teams` by team, one by table (everyone
        is a partner), 0 (none) by player."""
        return scored_teams(self.teams, self.score_by)
    melds: tuple[MeldKind, ...] = ()  # the kinds of meld declared (`melds:`)
    meld_value: str = "number"  # what deadwood counts by
    max_actions: int = limits.DEFAULT_ACTIONS  # a game ends, with no winner, after this many
    house: HouseDef | None = None  # the party that is not a seat (`house:`)
    hints: tuple[Diagnostic, ...] = ()  # notes for the author that make nothing invalid
    # each loop's steps for one item, where the loops are counted while a game runs (work.py)
    per_item: dict[PosKey, int] | None = None
    # where the game's work is counted instead (work.py Weighing.game_counted): what one item
    # of a loop written inside no other takes, by such loops alone
    game_items: GameItems | None = None


def check(decls: d.RulesetDecl, options: dict[str, Any] | None = None
          ) -> tuple[Checked | None, list[Diagnostic]]:
    """Check a ruleset with the given option values; the result is None if any problem."""
    seen = Assignments()
    if not all(_plain_value(v.initial) for v in decls.variables):
        _RulesetChecker(decls, options, seen).run()
        # Read again while a variable's type is still being found: one stored from another
        # whose type the reading before found (`set b = a`, a first `none` or `[]`).
        for _ in range(_READINGS):
            again = Assignments()
            _RulesetChecker(decls, options, again, seen).run()
            if again.decided() == seen.decided():
                break
            seen = again
    second = _RulesetChecker(decls, options, None, seen)
    checked = second.run()
    found = sorted(second.diagnostics, key=_order)
    if checked is not None:
        checked = replace(checked, hints=tuple(sorted(second.hints, key=_order)))
    return (checked if not found else None), found


_READINGS = 4  # readings that may pass a variable's type on to another, at most


def _plain_value(node: n.Expr | None) -> bool:
    """Whether a variable's initial value is a number, text or truth value written out: its
    type is known, and such a variable never holds none, whatever the rules store in it."""
    if isinstance(node, n.Minus):
        node = node.operand
    return isinstance(node, (n.Number, n.Text, n.Boolean))


def _order(diagnostic: Diagnostic) -> tuple[int, int]:
    loc = diagnostic.location
    return (loc.line, loc.column) if loc else (0, 0)


class _RulesetChecker(MoveChecker):
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

    # ------------------------------------------------------------------ whole
    def run(self) -> Checked | None:
        decls = self.decls
        self.players()
        house = self.house()
        option_defs = self.options()
        self.teams()
        self.stakes()
        cards, copies = self.deck()
        zones, home = self.zones()
        variables = self.variables()
        melds = self.melds()  # after the zones and variables, which it may not read
        functions = self.functions()
        procedures = self.procedures()
        self.call_depths(functions, procedures)
        tricks = self.tricks(functions)
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
        self.pending_turns()
        if self.diagnostics or self.assignments is not None:
            return None
        if self.scores_in_play:  # the points in play: a player_round variable of its own
            variables = self.points_in_play(variables)
        program = ir.Program(functions, variables, setup, phases, round_end, reactions,
                             triggers, scores, evaluate_ir, rounds_ir, until, round_first,
                             self.scores_in_play, procedures, *tricks)
        for pos, note in program_hints(decls, program, melds, cards, copies):
            self.hint(pos, note)
        max_actions = self.max_actions()
        weighing = weigh(program, cards, self.max_players + 1, max_actions)
        self.diagnostics.extend(over_budget(weighing))
        return Checked(decls, program, dict(self.symbols.options), option_defs, cards, copies,
                       rounds, home, zones, self.min_players, self.max_players,
                       self.default_players, self.direction, self.move_infos,
                       self.symbols.teams, decls.scoring.by, melds,
                       decls.melds.value.name if decls.melds and decls.melds.value else "number",
                       max_actions, house,
                       per_item=weighing.per_item if weighing.counted else None,
                       game_items=GameItems(weighing.per_item, weighing.outermost,
                                            weighing.calls) if weighing.game_counted else None)

    # ------------------------------------------------------------- variables
    def points_in_play(self, variables: tuple[ir.Variable, ...]) -> tuple[ir.Variable, ...]:
        """The variables and each seat's points scored this round by `score N to P`
        (IN_PLAY), 0 at each round's start: the rules' own bookkeeping, shown as the round
        score's entry 'in play' and in the log, not as a variable."""
        pos = self.decls.name.pos
        if IN_PLAY in self.symbols.variables:
            named = next((v.name.pos for v in self.decls.variables if v.name.name == IN_PLAY),
                         pos)
            self.problem(named, f"a variable is named '{IN_PLAY}', the name of the points a "
                                "`score` statement gives: rename it")
            return variables
        return (*variables, ir.Variable(IN_PLAY, "player_round", INT, ir.Const(0, type=INT,
                                                                              pos=pos),
                                        "public", "The points scored during play this round "
                                        "(`score N to P`), counted in the round's score.",
                                        internal=True))

    def variables(self) -> tuple[ir.Variable, ...]:
        """Every variable, typed, before any rule text that reads one is checked."""
        out: list[ir.Variable] = []
        self.has_me = False
        held = 0  # lists the variables hold, one per seat for a player variable
        for spec in self.decls.variables:
            name = spec.name.name
            if self.clash(name, spec.name.pos):
                continue
            if name in self.symbols.variables or name in self.symbols.zones:
                taken = "another variable" if name in self.symbols.variables else "a zone"
                self.problem(spec.name.pos, f"the name '{name}' is already taken by {taken}")
                continue
            self.shadowing(spec, name)
            initial = self.check(spec.initial) if spec.initial is not None else BAD
            if spec.declared_type is not None and spec.initial is not None:  # initial: "'spades'"
                initial = self.as_named(TYPE_NAMES.get(spec.declared_type.name, ANY), initial,
                                        spec.initial)
            t = self.variable_type(spec, initial)
            nullable = initial.type == NONE or name in self.seen.nullable \
                if self.seen is not None else True
            if t.is_list:
                was = held
                # (a player variable: one per seat of the largest table, and the house's)
                held += 1 if spec.scope in ("game", "round") \
                    else self.max_players + (self.decls.house is not None)
                if held > limits.MAX_LISTS_HELD >= was:  # (said once, where it is passed)
                    self.problem(spec.name.pos, f"with this one the variables hold {held} "
                                 f"lists (a player variable one for each of up to "
                                 f"{self.max_players} seats"
                                 + (" and the house" if self.decls.house is not None else "")
                                 + f"): at most {limits.MAX_LISTS_HELD}"
                                 f", as each may hold {MOST_ITEMS:,} items; keep fewer lists "
                                 "(a list of lists holds many)")
            self.symbols.variables[name] = VariableInfo(spec.scope, t, nullable)
            out.append(ir.Variable(name, spec.scope, t, initial, spec.visibility, spec.doc,
                                   spec.internal, self.secret_until(spec), spec.label))
        self.symbols.secret = frozenset(v.name for v in out if v.visibility != "public")
        return tuple(out)

    def shadowing(self, spec: d.VariableDecl, name: str) -> None:
        """A hint where a variable and a built-in share a name: which one the rules read."""
        player = spec.scope in ("player", "player_round")
        if player and name in SETTLED_PLAYER_ATTRIBUTES:
            self.hint(spec.name.pos, f"'{name}' is a built-in player attribute, which p.{name} "
                                     "reads: this variable is never read; choose another name")
        elif player and name in PLAYER_ATTRIBUTES:
            self.hint(spec.name.pos, f"'{name}' is also a built-in player attribute: in this "
                                     f"file p.{name} is this variable")
        elif not player and name in SETTLED_NAMES:
            self.hint(spec.name.pos, f"'{name}' is a built-in name, which a bare '{name}' "
                                     "reads: this variable is never read; choose another name")
        elif not player and name in NAMES:
            self.hint(spec.name.pos, f"'{name}' is also a built-in name: in this file it is "
                                     "this variable")

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
        if initial.type != NONE and not open_list(initial.type):
            return initial.type
        if self.seen is None:  # the first reading: any value may be stored
            return ANY if initial.type == NONE else initial.type
        # `none`, or a list whose items' type `[]` does not say: what the rules store in it
        stored = [t for t, _ in self.seen.types.get(spec.name.name, [])
                  if t not in (NONE, ANY) and not open_list(t)]
        return stored[0] if stored else initial.type

    # ------------------------------------------------------------- functions
    def functions(self) -> tuple[ir.Function, ...]:
        """The ruleset's own functions, in order (each may call those before it)."""
        out: list[ir.Function] = []
        self.has_me = False
        for spec in self.decls.functions:
            name = spec.name.name
            if self.clash(name, spec.name.pos):
                continue
            if name in self.symbols.functions:
                self.problem(spec.name.pos, f"'{name}' is already a function")
                continue
            if name in FUNCTIONS or name in AGGREGATES:
                self.hint(spec.name.pos, f"'{name}' is also a built-in function: in this file "
                                         f"{name}(...) calls this one")
            params = {p.name: TYPE_NAMES[kind] for p, kind in spec.params}
            # A function whose value fails is said to fail once, where it is written: its
            # calls are not errors of their own (nor a missing function).
            self.symbols.unchecked.add(name)
            if any([self.clash(p.name, p.pos) for p, _ in spec.params]):
                continue
            for param, _ in spec.params:
                self.hides(param.name, param.pos, "parameter")
            if spec.value is None:
                continue
            self.symbols.writing = name
            try:
                with self.bind(params):
                    value = self.check(spec.value)
            finally:
                self.symbols.writing = None
            if value is BAD:
                continue
            self.symbols.unchecked.discard(name)
            self.symbols.functions[name] = FunctionInfo(tuple(params.values()), value.type,
                                                        value.nullable, value, tuple(params))
            out.append(ir.Function(name, tuple(params.items()), value))
        return tuple(out)

    def call_depths(self, functions: tuple[ir.Function, ...],
                    procedures: tuple[ir.Procedure, ...]) -> None:
        """Functions and procedures call one another at most MAX_CALL_DEPTH deep (each
        calls only those before it, so a depth is its deepest callee's plus one): reported
        where a chain first goes deeper."""
        depth: dict[str, int] = {}
        where = {spec.name.name: spec.name.pos for spec in self.decls.functions}
        where.update((spec.name.name, spec.name.pos) for spec in self.decls.procedures)
        for name, body in [*((f.name, f.value) for f in functions),
                           *((p.name, p.body) for p in procedures)]:
            callees = {node.function for node in ir.within(body)
                       if isinstance(node, ir.UserCall)}
            callees.update(node.name for node in ir.within(body)
                           if isinstance(node, ir.ProcedureCall))
            deepest = max(callees, key=lambda c: depth.get(c, 0), default=None)
            depth[name] = 1 + (depth.get(deepest, 0) if deepest is not None else 0)
            if depth[name] == limits.MAX_CALL_DEPTH + 1:
                self.problem(where[name], f"'{name}' calls '{deepest}', and so on: "
                                          f"{depth[name]} functions and procedures, one "
                                          f"inside another, where at most "
                                          f"{limits.MAX_CALL_DEPTH} may be")

    def tricks(self, functions: tuple[ir.Function, ...]
               ) -> tuple[ir.Expr | None, ir.Expr | None]:
        """`tricks:`, how a card's suit and strength are read in a trick, with `card` bound.
        Neither may read cards as a trick does (led_suit and the like): it would ask itself
        how a card is read, without end."""
        out: list[ir.Expr | None] = []
        for node, wanted, what, key in (
                (self.decls.trick_suit, SUIT, "a card's suit in a trick", "suit"),
                (self.decls.trick_rank, INT, "a card's rank in a trick", "rank")):
            if node is None:
                out.append(None)
                continue
            with self.bind({"card": CARD}):
                code = self.expect(self.check(node), wanted, node.pos, what)
            if code is not BAD and (found := trick_reading(functions, code)) is not None:
                part, builtin = found
                through = "" if isinstance(part, ir.Call) else \
                    f" (through the function '{part.function}')"  # type: ignore[attr-defined]
                self.problem(part.pos, f"`tricks: {key}` says how a trick reads a card; it "
                             f"cannot call {builtin}{through}, which reads cards as `tricks:` "
                             "says, so it would ask itself without end: read the card's own "
                             "attributes (card.suit, card.rank, a value table)")
                code = BAD
            out.append(None if code is BAD else self.needed(code, node.pos, what))
        return out[0], out[1]

    def procedures(self) -> tuple[ir.Procedure, ...]:
        """The ruleset's own procedures, in order: each may call only those before it, so
        that none calls itself, however indirectly."""
        out: list[ir.Procedure] = []
        self.symbols.procedure_names = frozenset(p.name.name for p in self.decls.procedures)
        for spec in self.decls.procedures:
            name = spec.name.name
            if self.clash(name, spec.name.pos):
                continue
            if name in STATEMENT_WORDS:
                self.problem(spec.name.pos, f"'{name}' begins a statement ("
                             f"{' '.join(STATEMENT_WORDS)}): `{name}(...)` would be read as "
                             "that statement, never as a call of this procedure; choose "
                             "another name")
                continue
            if name in self.symbols.procedures:
                self.problem(spec.name.pos, f"'{name}' is already a procedure")
                continue
            if name in self.symbols.functions:
                self.problem(spec.name.pos, f"'{name}' is already a function")
                continue
            params = {p.name: TYPE_NAMES[kind] for p, kind in spec.params}
            if any([self.clash(p.name, p.pos) for p, _ in spec.params]):
                continue
            for param, _ in spec.params:
                self.hides(param.name, param.pos, "parameter")
            self.has_me = True
            with self.bind(params):
                body = self.statements(spec.body)
            self.has_me = False
            self.symbols.procedures[name] = tuple(params.values())
            out.append(ir.Procedure(name, tuple(params.items()), body))
        return tuple(out)

    # ------------------------------------------------------------------ flow
    def phases(self) -> tuple[ir.Phase, ...]:
        self.taken: set[str] = set()
        out: list[ir.Phase] = []
        # (a variant changes a phase, and a move goes on to a step, by its name)
        for twice in d.repeated(self.decls.phases):
            self.problem(twice.pos, f"phase '{twice.name}' is declared twice")
        for spec in self.decls.phases:
            names = [s.name.name for s in spec.steps]
            for twice in d.repeated(spec.steps):
                self.problem(twice.pos, f"step '{twice.name}' is declared twice in phase "
                                        f"'{spec.name.name}'")
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
        return self.step(spec, []) if spec is not None else None

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
                value = value_at_load(code, Env(player_count=count))
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
