"""Stage 4 for statements: each `check_<rule>` checks one statement of a `do:` list and
returns its checked form (ir.py); expressions inside are checked by ExpressionChecker."""

from __future__ import annotations

from typing import Any

from . import ir, limits
from . import nodes as n
from .builtins import FUNCTIONS, SETTLED_NAMES
from .check_expr import BAD, ExpressionChecker, known
from .names import did_you_mean, rule_name
from .reads import clue_read
from .typesys import (
    CARD,
    CARDS,
    INT,
    NONE,
    PLAYER,
    UNCHECKED,
    accepts,
    comparable,
)

# What a value stored in a variable is called where it may not be none (check_set).
_WHAT = {INT: "the number", CARD: "the card", PLAYER: "the player"}


class StatementChecker(ExpressionChecker):
    """Checks expressions and statements against a ruleset's symbols."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.turns_named: list[n.Pos] = []  # where a `turn to` is written
        self.phases_ended = False  # whether some statement is `end phase`
        self.scores_in_play = False  # whether some statement is `score N to P`
        self.loops_around = 0  # the blocks that loop (for, while, until) around a statement

    def statements(self, stmts: tuple[n.Stmt, ...]) -> tuple[ir.Stmt, ...]:
        """A list of statements, checked; a `let` is seen by the statements after it."""
        saved = dict(self.scope)
        out: list[ir.Stmt] = []
        try:
            for stmt in stmts:
                method = getattr(self, "check_" + rule_name(type(stmt)))
                checked = method(stmt)
                if isinstance(checked, tuple):
                    out.extend(checked)
                elif checked is not None:
                    out.append(checked)
        finally:
            self.scope = saved
        return tuple(out)

    def _zone_target(self, node: n.Expr, what: str) -> ir.Expr:
        if isinstance(node, n.Name) and not self.is_known_name(node.name):
            return self.error(node.pos, f"unknown zone '{node.name}'"
                              + did_you_mean(node.name, self.symbols.zones))
        code = self.check(node)
        if code is not BAD and not isinstance(code, ir.ZoneRef):
            return self.error(node.pos, f"{what} must be a zone, but this is {code.type}")
        return code

    def _one_or_many(self, node: n.Expr, what: str, pos: n.Pos) -> tuple[ir.Expr, bool]:
        """A card, or several (a list or a zone's cards); the flag says which."""
        code = self.check(node)
        if code is BAD:
            return BAD, False
        if code.type == CARD:
            return self.needed(code, pos, what), False
        if isinstance(code, ir.ZoneRef):
            return ir.ZoneCards(code, type=CARDS, pos=node.pos), True
        if accepts(CARDS, code.type):
            return self.needed(code, pos, what), True
        return self.error(node.pos, f"{what} must be a card or cards, but this is "
                                    f"{code.type}"), False

    def check_move_cards(self, stmt: n.MoveCards) -> ir.Stmt | None:
        cards, many = self._one_or_many(stmt.cards, "what is moved", stmt.pos)
        dest = self._zone_target(stmt.to, "where cards move to")
        if cards is BAD or dest is BAD:
            return None
        assert isinstance(dest, ir.ZoneRef)
        if stmt.bottom and dest.zone.layout == "grid":
            self.error(stmt.to.pos, f"zone '{dest.zone.name}' is a grid: it has places, not a "
                                    "bottom (move the card to it, and it takes the first empty "
                                    "place)")
            return None
        top_of = self._top_of_stack(cards)
        return ir.MoveCards(cards, many and top_of is None, dest, stmt.face_up, top_of,
                            stmt.bottom, pos=stmt.pos)

    @staticmethod
    def _top_of_stack(code: ir.Expr) -> ir.ZoneRef | None:
        """The zone, when `code` is top(Z) of a zone that is not a grid."""
        if isinstance(code, ir.Call) and code.function == "top":
            zone = code.args[0]
            if isinstance(zone, ir.ZoneRef) and zone.zone.layout != "grid":
                return zone
        return None

    def check_deal_cards(self, stmt: n.DealCards) -> ir.Stmt | None:
        count = None
        if stmt.count is not None:
            count = self.expect(self.check(stmt.count), INT, stmt.count.pos,
                                "how many to deal")
            count = self.needed(count, stmt.pos, "how many to deal")
            if isinstance(count, ir.Const) and type(count.value) is int and count.value < 0:
                self.error(stmt.count.pos, f"deal {count.value}: a deal gives each player at "
                                           "least 0 cards")
                count = BAD
        source = self._zone_target(stmt.source, "where cards are dealt from")
        after = None
        if stmt.after is not None:
            after = self.expect(self.check(stmt.after), PLAYER, stmt.after.pos,
                                "the seat before the first to be dealt to")
            after = self.needed(after, stmt.pos, "the player")
        zone = self.symbols.zones.get(stmt.zone)
        if zone is None:
            self.error(stmt.zone_pos, f"unknown zone '{stmt.zone}'"
                       + did_you_mean(stmt.zone, self.symbols.zones))
            return None
        if not zone.owned or zone.groups:
            self.error(stmt.zone_pos, f"'deal ... to each {stmt.zone}' needs a zone that "
                                      "each player owns, without groups")
            return None
        if BAD in (count, source, after):
            return None
        assert isinstance(source, ir.ZoneRef)
        return ir.DealCards(count, source, zone, stmt.face_up, after, pos=stmt.pos)

    def check_reveal(self, stmt: n.Reveal) -> ir.Stmt | None:
        cards, many = self._one_or_many(stmt.cards, "what is shown", stmt.pos)
        return None if cards is BAD else ir.Reveal(cards, many, pos=stmt.pos)

    def check_tell(self, stmt: n.Tell) -> ir.Stmt | None:
        player = self.expect(self.check(stmt.player), PLAYER, stmt.player.pos, "who is told")
        source = self.iterable(stmt.source)
        if source is BAD or player is BAD or self.clash(stmt.variable, stmt.variable_pos):
            return None
        self.hides(stmt.variable, stmt.variable_pos, "loop variable")
        if source.type.item != CARD:
            self.error(stmt.source.pos, f"a clue tells of cards, but this is {source.type}")
            return None
        with self.bind({stmt.variable: CARD}):
            condition = self.condition(stmt.condition)
        if condition is BAD:
            return None
        functions = {name: (info.names, info.body) for name, info in
                     self.symbols.functions.items()}
        read = clue_read(condition, stmt.variable, functions, self.symbols.secret)
        if read is not None:
            self.error(read[0].pos, "a clue's condition may read only what a card is (its "
                                    "rank, suit, colour, number, value tables) against what "
                                    "everyone knows (the move's choices, the options, public "
                                    f"variables): this reads {read[1]}")
            return None
        return ir.Tell(self.needed(player, stmt.player.pos, "who is told"), stmt.variable,
                       source, condition, pos=stmt.pos)

    def check_shuffle(self, stmt: n.Shuffle) -> ir.Stmt | None:
        zone = self._zone_target(stmt.zone, "what is shuffled")
        if zone is BAD:
            return None
        assert isinstance(zone, ir.ZoneRef)
        return ir.Shuffle(zone, pos=stmt.pos)

    def check_flip(self, stmt: n.Flip) -> ir.Stmt | None:
        cards, many = self._one_or_many(stmt.cards, "what is turned", stmt.pos)
        return None if cards is BAD else ir.Flip(cards, many, stmt.face_up, pos=stmt.pos)

    def check_swap(self, stmt: n.Swap) -> ir.Stmt | None:
        a = self.expect(self.check(stmt.first), CARD, stmt.first.pos, "what is swapped")
        b = self.expect(self.check(stmt.second), CARD, stmt.second.pos, "what is swapped")
        if a is BAD or b is BAD:
            return None
        return ir.Swap(self.needed(a, stmt.pos, "the card"), self.needed(b, stmt.pos, "the card"),
                       pos=stmt.pos)

    def check_peek(self, stmt: n.Peek) -> ir.Stmt | None:
        if not self.has_me:
            self.error(stmt.pos, "'peek' needs an acting player, and none acts here")
            return None
        cards, many = self._one_or_many(stmt.cards, "what is peeked at", stmt.pos)
        return None if cards is BAD else ir.Peek(cards, many, pos=stmt.pos)

    def check_set(self, stmt: n.Set) -> ir.Stmt | None:
        target = self.set_target(stmt)
        if target is BAD:
            return None
        value = self.check(stmt.value)
        if value is BAD:
            return None
        if stmt.op == "=":  # `set trump = 'hearts'`
            value = self.as_named(target.type, value, stmt.value)
            if value is BAD:
                return None
        self.record(stmt, target, value)
        if stmt.op != "=":
            value = self.expect(value, INT, stmt.value.pos, f"the value of {stmt.op}")
            target = self.expect(target, INT, stmt.name_pos,
                                 f"a variable changed with {stmt.op}")
            if value is not BAD:
                value = self.needed(value, stmt.pos, "the number")
        elif not comparable(target.type, value.type) \
                and not (value.type == NONE and target.nullable):
            self.error(stmt.value.pos, f"'{stmt.name}' holds {target.type}, "
                                       f"but this is {value.type}")
            return None
        if value is BAD or target is BAD:
            return None
        if stmt.op != "=":
            target = self.needed(target, stmt.pos, "the number")
        elif not target.nullable and value.nullable:
            # a variable that never holds none (its initial value written out) may not be
            # given one: a fault here, not where a rule reads it as a number
            value = self.needed(value, stmt.pos, _WHAT.get(target.type, "the value"))
        return ir.Set(target, stmt.op, value, pos=stmt.pos)

    def record(self, stmt: n.Set, target: ir.Expr, value: ir.Expr) -> None:
        """On the first reading, note what is stored in the variable."""
        if self.assignments is None or stmt.op != "=":
            return
        self.assignments.types.setdefault(stmt.name, []).append((value.type, stmt.value.pos))
        if value.nullable:
            self.assignments.nullable.add(stmt.name)

    def set_target(self, stmt: n.Set) -> ir.Expr:
        s = self.symbols
        if stmt.subject is None:
            var = s.variables.get(stmt.name)
            if var is None:
                return self.error(stmt.name_pos, f"unknown variable '{stmt.name}'"
                                  + did_you_mean(stmt.name, s.variables))
            if var.scope in ("player", "player_round"):
                return self.error(stmt.name_pos, f"'{stmt.name}' is a player variable: "
                                                 f"write set p.{stmt.name} = ...")
            return ir.GameVar(stmt.name, type=var.type, pos=stmt.name_pos,
                              nullable=var.nullable)
        subject = self.check(n.Name(stmt.subject, pos=stmt.pos))
        subject = self.expect(subject, PLAYER, stmt.pos, f"'{stmt.subject}'")
        if subject is BAD:
            return BAD
        subject = self.needed(subject, stmt.pos, "the player")
        if stmt.name == "total":
            return ir.PlayerAttr(subject, "total", type=INT, pos=stmt.name_pos)
        var = s.variables.get(stmt.name)
        if var is None or var.scope not in ("player", "player_round"):
            names = ["total"] + [k for k, v in s.variables.items()
                                 if v.scope in ("player", "player_round")]
            return self.error(stmt.name_pos, f"a player has no variable '{stmt.name}'"
                              + did_you_mean(stmt.name, names))
        return ir.PlayerVar(subject, stmt.name, type=var.type, pos=stmt.name_pos,
                            nullable=var.nullable)

    def check_let(self, stmt: n.Let) -> ir.Stmt | None:
        if self.clash(stmt.name, stmt.pos):
            return None
        if (stmt.name in SETTLED_NAMES and stmt.name != "house") \
                or stmt.name in self.symbols.zones:
            self.error(stmt.pos, f"'{stmt.name}' is already a name of the language or a zone; "
                                 "choose another")
            return None
        value = self.check(stmt.value)
        if value is BAD or isinstance(value, ir.ZoneRef):
            if value is not BAD:
                self.error(stmt.value.pos, "a zone cannot be given another name; "
                                           "write it out where it is used")
            self.scope[stmt.name] = (UNCHECKED, False)  # its uses are not a second error
            return None
        self.scope[stmt.name] = (value.type, value.nullable)
        return ir.Let(stmt.name, value, pos=stmt.pos)

    def check_end_turn(self, stmt: n.EndTurn) -> ir.Stmt:
        return ir.Signal("turn", pos=stmt.pos)

    def check_end_round(self, stmt: n.EndRound) -> ir.Stmt | None:
        if stmt.before_turn_of is None:
            return ir.Signal("round", pos=stmt.pos)
        who = self.expect(self.check(stmt.before_turn_of), PLAYER, stmt.before_turn_of.pos,
                          "whose turn ends the round")
        if who is BAD or self.the_house(who, "never has a turn: its turn cannot end the round"):
            return None
        return ir.EndRoundBefore(self.needed(who, stmt.pos, "the player"), pos=stmt.pos)

    def check_turn_to(self, stmt: n.TurnTo) -> ir.Stmt | None:
        who = self.expect(self.check(stmt.player), PLAYER, stmt.player.pos, "whose turn is next")
        if who is BAD or self.the_house(who, "is not a seat and never takes a turn: `turn to` "
                                             "names a seat"):
            return None
        self.turns_named.append(stmt.pos)
        return ir.TurnTo(self.needed(who, stmt.pos, "the player"), pos=stmt.pos)

    def the_house(self, who: ir.Expr, message: str) -> bool:
        """Whether `who` is written `house` (reported with `message`: not for a seat's rule)."""
        if isinstance(who, ir.StateName) and who.name == "house":
            self.error(who.pos, f"the house {message}")
            return True
        return False

    def check_end_phase(self, stmt: n.EndPhase) -> ir.Stmt:
        self.phases_ended = True
        return ir.Signal("phase", pos=stmt.pos)

    def pending_turns(self) -> None:
        """Where a rule names the next turn and another ends the phase, a hint: a `turn to`
        still pending when its phase ends is dropped (the next phase has its own first)."""
        if self.phases_ended:
            for pos in self.turns_named:
                self.hint(pos, "a `turn to` still pending when its phase ends is dropped: the "
                               "next phase begins with its `first` (a phase's first:, else the "
                               "round's)")

    def check_end_game(self, stmt: n.EndGame) -> ir.Stmt:
        return ir.Signal("game", pos=stmt.pos)

    def check_win(self, stmt: n.Win) -> ir.Stmt | None:
        who = self.expect(self.check(stmt.player), PLAYER, stmt.player.pos, "the winner")
        return None if who is BAD else ir.Win(self.needed(who, stmt.pos, "the winner"),
                                              pos=stmt.pos)

    def check_procedure_call(self, stmt: n.ProcedureCall) -> ir.Stmt | None:
        name, symbols = stmt.name, self.symbols
        params = symbols.procedures.get(name)
        if params is None:
            if name in symbols.procedure_names and name not in symbols.functions:
                self.error(stmt.pos, f"'{name}' is declared later, or is the procedure being "
                                     "written: a procedure calls only those declared before "
                                     "it, so that none calls itself")
            elif name in symbols.functions or name in FUNCTIONS:
                self.error(stmt.pos, f"'{name}' is a function, which gives a value: a "
                                     "statement calls a procedure (`procedures:`)")
            else:
                self.error(stmt.pos, f"unknown procedure '{name}'"
                           + did_you_mean(name, symbols.procedures))
            return None
        if len(stmt.args) != len(params):
            count = len(params)
            self.error(stmt.pos, f"{name}() takes {count} argument{'s' if count != 1 else ''}, "
                                 f"got {len(stmt.args)}")
            return None
        args = [self.argument(arg, want, name) for arg, want in zip(stmt.args, params)]
        if any(a is BAD for a in args):
            return None
        return ir.ProcedureCall(name, tuple(args), pos=stmt.pos)

    def check_score_points(self, stmt: n.ScorePoints) -> ir.Stmt | None:
        points = self.expect(self.check(stmt.points), INT, stmt.points.pos, "the points scored")
        who = self.expect(self.check(stmt.player), PLAYER, stmt.player.pos, "who scores")
        if who is not BAD and self.the_house(who, "is not a seat: it scores at the round's end"):
            return None
        if points is BAD or who is BAD:
            return None
        self.scores_in_play = True
        return ir.ScorePoints(self.needed(points, stmt.pos, "the points"),
                              self.needed(who, stmt.pos, "the player"), pos=stmt.pos)

    def check_eliminate(self, stmt: n.Eliminate) -> ir.Stmt | None:
        who = self.expect(self.check(stmt.player), PLAYER, stmt.player.pos, "who is out")
        if who is not BAD and self.the_house(who, "is not a seat: it cannot be put out"):
            return None
        return None if who is BAD else ir.Eliminate(self.needed(who, stmt.pos, "the player"),
                                                    pos=stmt.pos)

    def check_reverse_direction(self, stmt: n.ReverseDirection) -> ir.Stmt:
        return ir.ReverseDirection(pos=stmt.pos)

    def check_if(self, stmt: n.If) -> ir.Stmt | tuple[ir.Stmt, ...] | None:
        test = self.condition(stmt.test)
        then = self.statements(stmt.then)
        other = self.statements(stmt.otherwise)
        if test is BAD:
            return None
        if known(test):  # settled by the options: both branches checked, one kept
            kept = then if test.value else other  # type: ignore[attr-defined]
            if not any(isinstance(s, ir.Let) for s in kept):
                return kept  # (its statements join the list around it)
            # a `let` in it ends with the branch: the generator keeps it a block of its own
        return ir.If(test, then, other, pos=stmt.pos)

    def nested_loop(self, stmt: n.Stmt) -> bool:
        """Whether a block that loops may begin here: at most limits.MAX_LOOP_NESTING inside
        one another in a rule (Python compiles no more inside one function, with what the
        flow writes around them); a procedure's own begin again."""
        if self.loops_around < limits.MAX_LOOP_NESTING:
            return True
        self.error(stmt.pos, f"blocks that loop (for, while, until) nest at most "
                             f"{limits.MAX_LOOP_NESTING} deep in one rule: move the inner "
                             "ones into a procedure, whose own begin again")
        return False

    def check_for(self, stmt: n.For) -> ir.Stmt | None:
        if not self.nested_loop(stmt):
            return None
        self.loops_around += 1
        try:
            return self._for(stmt)
        finally:
            self.loops_around -= 1

    def _for(self, stmt: n.For) -> ir.Stmt | None:
        source = self.iterable(stmt.source)
        if self.clash(stmt.variable, stmt.variable_pos):
            return None
        self.hides(stmt.variable, stmt.variable_pos, "loop variable")
        if source is BAD:  # the body's own faults are still found; its uses of the name are not
            with self.bind({stmt.variable: UNCHECKED}):
                self.statements(stmt.body)
            return None
        assert source.type.item is not None
        with self.bind({stmt.variable: source.type.item}):
            body = self.statements(stmt.body)
        return ir.For(stmt.variable, source, body, pos=stmt.pos)

    def check_while(self, stmt: n.While) -> ir.Stmt | None:
        return self.loop(stmt, "while", test_first=True)

    def check_until(self, stmt: n.Until) -> ir.Stmt | None:
        return self.loop(stmt, "until", test_first=False)

    def loop(self, stmt: n.While | n.Until, key: str, test_first: bool) -> ir.Stmt | None:
        """A loop must say how often it may run at most, so that every rule ends."""
        if not self.nested_loop(stmt):
            return None
        test = self.condition(stmt.test)
        self.loops_around += 1
        try:
            body = self.statements(stmt.body)
        finally:
            self.loops_around -= 1
        limit = stmt.limit
        if limit is None:
            self.error(stmt.pos, f"a {key} block needs `limit: N`, the most times its body "
                                 "runs (then the block ends)")
            return None
        if limit > limits.MAX_LOOP:
            assert stmt.limit_pos is not None
            self.error(stmt.limit_pos, f"limit: at most {limits.MAX_LOOP}")
            return None
        if test is BAD:
            return None
        return ir.Loop(test, body, limit, test_first, pos=stmt.pos)
