"""Stages 4 and 5 for statements: each `statement_<rule>` checks one statement of a `do:`
list and writes its Python lines. Expressions inside are compiled by ExpressionCompiler.
"""

from __future__ import annotations

from . import nodes as n
from .builtins import NAMES
from .expressions import BAD, Code, ExpressionCompiler, local_name, snake_case
from .names import did_you_mean
from .typesys import CARD, CARDS, INT, PLAYER, accepts, comparable


class Compiler(ExpressionCompiler):
    """Checks and compiles expressions and statements against a ruleset's symbols."""

    # ------------------------------------------------------------ statements
    def statements(self, stmts: tuple[n.Stmt, ...], out: list[str], indent: int) -> None:
        """Append the Python lines for a list of statements to `out`."""
        saved = dict(self.scope)
        try:
            for stmt in stmts:
                method = getattr(self, "statement_" + snake_case(type(stmt).__name__))
                method(stmt, out, "    " * indent)
        finally:
            self.scope = saved

    def _zone_target(self, node: n.Expr, what: str) -> Code:
        if isinstance(node, n.Name) and not self.is_known_name(node.name):
            return self.error(node.pos, f"unknown zone '{node.name}'"
                              + did_you_mean(node.name, self.symbols.zones))
        code = self.compile(node)
        if code is not BAD and code.zone is None:
            return self.error(node.pos, f"{what} must be a zone, but this is {code.type}")
        return code

    def _one_or_many(self, node: n.Expr, what: str) -> tuple[Code, bool]:
        """A card, or several (a list or a zone's cards); the flag says which."""
        code = self.compile(node)
        if code is BAD:
            return BAD, False
        if code.type == CARD:
            return code, False
        if code.zone is not None:
            return self.cards_of(node, what), True
        if accepts(CARDS, code.type):
            return code, True
        return self.error(node.pos, f"{what} must be a card or cards, but this is "
                                    f"{code.type}"), False

    def statement_move(self, stmt: n.Move, out: list[str], pad: str) -> None:
        cards, many = self._one_or_many(stmt.cards, "what is moved")
        dest = self._zone_target(stmt.to, "where cards move to")
        if cards is BAD or dest is BAD:
            return
        source = self._top_of_stack(stmt.cards)
        if source is not None or not many:
            self._move_one(cards, source, dest, stmt.face_up, out, pad)
            return
        out.append(f"{pad}move_all(B, S, {cards.text}, {dest.text}, {stmt.face_up!r})")

    def _top_of_stack(self, node: n.Expr) -> Code | None:
        """The zone, when `node` is top(Z) of a zone that is not a grid."""
        if isinstance(node, n.Call) and node.function == "top" and len(node.args) == 1:
            code = self.compile(node.args[0])
            if code.zone is not None and code.zone.layout != "grid":
                return code
        return None

    def _move_one(self, card: Code, source: Code | None, dest: Code, face: bool | None,
                  out: list[str], pad: str) -> None:
        """ops.move written out for one card, specialised on what is known here: the
        destination zone and its visibility, and for `top(Z)` of a stack, the source."""
        self.temp += 1
        c, z, src = f"_c{self.temp}", f"_z{self.temp}", f"_s{self.temp}"
        zone = dest.zone
        assert zone is not None
        if source is not None:
            lines = [f"{src} = {source.text}",
                     f"{c} = Z[{src}].pop() if Z[{src}] else empty(B, {src})"]
        else:
            value = f"need({card.text}, 'the card to move')" if card.nullable else card.text
            rest = f"_l{self.temp}"
            lines = [f"{c} = {value}", f"{src} = S.where[{c}]", f"{rest} = Z[{src}]",
                     f"if B.grid[{src}]: {rest}[{rest}.index({c})] = -1",
                     f"elif {rest}[-1] == {c}: {rest}.pop()",
                     f"else: {rest}.remove({c})"]
        lines.append(f"{z} = {dest.text}")
        if zone.layout == "grid":
            lines.append(f"put(B, S, {c}, {z})")
        else:
            lines += [f"Z[{z}].append({c})", f"S.where[{c}] = {z}"]
        if face is not None:
            lines.append(f"S.face_up[{c}] = {face!r}")
        # A card leaving a hand face down: only the hand's owner can tell which it was.
        if source is None:
            lines.append(f"if B.visibility[{src}] == 1 and not S.face_up[{c}]: "
                         f"S.known[{c}] &= 1 << B.owner[{src}]")
        elif source.zone is not None and source.zone.visibility == "owner" and face is not True:
            lines.append(f"if not S.face_up[{c}]: S.known[{c}] &= 1 << B.owner[{src}]")
        if zone.visibility == "public" and face is not False:
            known = f"S.known[{c}] = S.everyone"
            lines.append(known if face else f"if S.face_up[{c}]: {known}")
        elif zone.visibility == "owner":
            lines.append(f"S.known[{c}] |= 1 << B.owner[{z}]")
        lines.append(f"if S.log is not None: log_move(B, S, {c}, {src}, {z})")
        out.extend(pad + line for line in lines)

    def statement_deal(self, stmt: n.Deal, out: list[str], pad: str) -> None:
        count = None
        if stmt.count is not None:
            count = self.expect(self.compile(stmt.count), INT, stmt.count.pos, "how many to deal")
        source = self._zone_target(stmt.source, "where cards are dealt from")
        after = None
        if stmt.after is not None:
            after = self.expect(self.compile(stmt.after), PLAYER, stmt.after.pos,
                                "the seat before the first to be dealt to")
        zone = self.symbols.zones.get(stmt.zone)
        if zone is None:
            self.error(stmt.zone_pos, f"unknown zone '{stmt.zone}'"
                       + did_you_mean(stmt.zone, self.symbols.zones))
            return
        if not zone.owned or zone.groups:
            self.error(stmt.zone_pos, f"'deal ... to each {stmt.zone}' needs a zone that "
                                      "each player owns, without groups")
            return
        if BAD in (count, source, after):
            return
        amount = "None" if count is None else count.text
        start = "None" if after is None else f"need({after.text}, 'the player')"
        out.append(f"{pad}deal(B, S, {amount}, {source.text}, {zone.index}, "
                   f"{stmt.face_up!r}, STEP, {start})")

    def statement_reveal(self, stmt: n.Reveal, out: list[str], pad: str) -> None:
        cards, many = self._one_or_many(stmt.cards, "what is shown")
        if cards is not BAD:
            out.append(f"{pad}reveal(B, S, {cards.text if many else '[' + cards.text + ']'})")

    def statement_shuffle(self, stmt: n.Shuffle, out: list[str], pad: str) -> None:
        zone = self._zone_target(stmt.zone, "what is shuffled")
        if zone is not BAD:
            out.append(f"{pad}shuffle(B, S, {zone.text})")

    def statement_flip(self, stmt: n.Flip, out: list[str], pad: str) -> None:
        cards, many = self._one_or_many(stmt.cards, "what is turned")
        if cards is BAD:
            return
        if many:
            out.append(f"{pad}flip_all(B, S, {cards.text}, {stmt.face_up!r})")
        elif not stmt.face_up:
            out.append(f"{pad}S.face_up[{cards.text}] = False")
        else:  # ops.flip_all written out for one card
            self.temp += 1
            c = f"_c{self.temp}"
            out += [f"{pad}{c} = {cards.text}", f"{pad}S.face_up[{c}] = True",
                    f"{pad}if B.visibility[S.where[{c}]]: S.known[{c}] = S.everyone",
                    f"{pad}if S.log is not None: log_flip(B, S, {c})"]

    def statement_swap(self, stmt: n.Swap, out: list[str], pad: str) -> None:
        a = self.expect(self.compile(stmt.first), CARD, stmt.first.pos, "what is swapped")
        b = self.expect(self.compile(stmt.second), CARD, stmt.second.pos, "what is swapped")
        if a is not BAD and b is not BAD:
            out.append(f"{pad}swap(B, S, {a.text}, {b.text})")

    def statement_peek(self, stmt: n.Peek, out: list[str], pad: str) -> None:
        if not self.has_me:
            self.error(stmt.pos, "'peek' needs an acting player, and none acts here")
            return
        cards, many = self._one_or_many(stmt.cards, "what is peeked at")
        if cards is not BAD:
            fn = "peek_all" if many else "peek"
            out.append(f"{pad}{fn}(B, S, {cards.text}, me)")

    def statement_set(self, stmt: n.Set, out: list[str], pad: str) -> None:
        target = self.set_target(stmt)
        if target is BAD:
            return
        value = self.compile(stmt.value)
        if value is BAD:
            return
        if stmt.op != "=":
            value = self.expect(value, INT, stmt.value.pos, f"the value of {stmt.op}")
            target = self.expect(target, INT, stmt.name_pos, f"a variable changed with {stmt.op}")
        elif not comparable(target.type, value.type):
            self.error(stmt.value.pos, f"'{stmt.name}' holds {target.type}, "
                                       f"but this is {value.type}")
            return
        if value is not BAD and target is not BAD:
            out.append(f"{pad}{target.text} {stmt.op} {value.text}")

    def set_target(self, stmt: n.Set) -> Code:
        s = self.symbols
        if stmt.subject is None:
            var = s.variables.get(stmt.name)
            if var is None:
                return self.error(stmt.name_pos, f"unknown variable '{stmt.name}'"
                                  + did_you_mean(stmt.name, s.variables))
            if var[0] in ("player", "player_round"):
                return self.error(stmt.name_pos, f"'{stmt.name}' is a player variable: "
                                                 f"write set p.{stmt.name} = ...")
            return Code(f"S.vars[{stmt.name!r}]", var[1])
        subject = self.compile(n.Name(stmt.subject, pos=stmt.pos))
        subject = self.expect(subject, PLAYER, stmt.pos, f"'{stmt.subject}'")
        if subject is BAD:
            return BAD
        if stmt.name == "total":
            return Code(f"S.totals[{subject.text}]", INT)
        var = s.variables.get(stmt.name)
        if var is None or var[0] not in ("player", "player_round"):
            names = ["total"] + [k for k, v in s.variables.items()
                                 if v[0] in ("player", "player_round")]
            return self.error(stmt.name_pos, f"a player has no variable '{stmt.name}'"
                              + did_you_mean(stmt.name, names))
        return Code(f"S.pvars[{stmt.name!r}][{subject.text}]", var[1])

    def statement_let(self, stmt: n.Let, out: list[str], pad: str) -> None:
        if stmt.name in NAMES or stmt.name in self.symbols.zones:
            self.error(stmt.pos, f"'{stmt.name}' is already a name of the language or a zone; "
                                 "choose another")
            return
        value = self.compile(stmt.value)
        if value is BAD:
            return
        if value.zone is not None:
            self.error(stmt.value.pos, "a zone cannot be given another name; "
                                       "write it out where it is used")
            return
        self.scope[stmt.name] = (local_name(stmt.name), value.type)
        if value.nullable:
            self.nullable.add(local_name(stmt.name))
        else:
            self.nullable.discard(local_name(stmt.name))
        out.append(f"{pad}{local_name(stmt.name)} = {value.text}")

    def statement_end_turn(self, stmt: n.EndTurn, out: list[str], pad: str) -> None:
        out.append(f"{pad}S.signal |= 1")

    def statement_end_round(self, stmt: n.EndRound, out: list[str], pad: str) -> None:
        if stmt.before_turn_of is None:
            out.append(f"{pad}S.signal |= 4")
            return
        who = self.expect(self.compile(stmt.before_turn_of), PLAYER, stmt.before_turn_of.pos,
                          "whose turn ends the round")
        if who is not BAD:
            out.append(f"{pad}end_round_before(S, need({who.text}, 'the player'))")

    def statement_end_phase(self, stmt: n.EndPhase, out: list[str], pad: str) -> None:
        out.append(f"{pad}S.signal |= 2")

    def statement_end_game(self, stmt: n.EndGame, out: list[str], pad: str) -> None:
        out.append(f"{pad}S.signal |= 8")

    def statement_win(self, stmt: n.Win, out: list[str], pad: str) -> None:
        who = self.expect(self.compile(stmt.player), PLAYER, stmt.player.pos, "the winner")
        if who is not BAD:
            out.append(f"{pad}win(S, need({who.text}, 'the winner'))")

    def statement_eliminate(self, stmt: n.Eliminate, out: list[str], pad: str) -> None:
        who = self.expect(self.compile(stmt.player), PLAYER, stmt.player.pos, "who is out")
        if who is not BAD:
            out.append(f"{pad}eliminate(S, need({who.text}, 'the player'))")

    def statement_if(self, stmt: n.If, out: list[str], pad: str) -> None:
        test = self.condition(stmt.test)
        if test.known:  # settled by the options: check both branches, keep one
            unused: list[str] = []
            self.statements(stmt.then, out if test.const else unused, len(pad) // 4)
            self.statements(stmt.otherwise, unused if test.const else out, len(pad) // 4)
            return
        out.append(f"{pad}if {test.text}:")
        self.block(stmt.then, out, pad)
        if stmt.otherwise:
            out.append(f"{pad}else:")
            self.block(stmt.otherwise, out, pad)

    def statement_for(self, stmt: n.For, out: list[str], pad: str) -> None:
        source = self.iterable(stmt.source)
        if source is BAD:
            return
        assert source.type.item is not None
        out.append(f"{pad}for {local_name(stmt.variable)} in list({source.text}):")
        with self.bind({stmt.variable: source.type.item}):
            self.block(stmt.body, out, pad)

    def block(self, stmts: tuple[n.Stmt, ...], out: list[str], pad: str) -> None:
        before = len(out)
        self.statements(stmts, out, len(pad) // 4 + 1)
        if len(out) == before:
            out.append(pad + "    pass")
