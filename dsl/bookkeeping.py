"""Internal variables are public bookkeeping: a note where one may keep what a card is.

A variable declared `internal: true` is shown to no seat, and stands for what every seat
could keep from what it saw (the passes so far, the turn a player laid down): a search bot's
sample of the game (interpreter/players/knowledge.py) re-deals the cards its seat does not
know and keeps such a variable as it is. One set from what a card is (its rank, suit or
number, a value table's entry, whether cards make a meld) may then hold what some seat does
not know, and that seat's bots read it through the variable. The variables that hold cards
are not concerned: a sample names in them the cards it dealt.

`validate` notes each `set` of an internal variable holding no card whose value, or a
condition it is set under (an `if`, a loop's test or cards, a trigger's `when`, the
`skip_turn` of a phase's `on_skip`), reads what a card is: directly, through a `let`, one of
the file's functions or a procedure's parameter. A card read so is not always hidden (the top
of a face-up discard pile), so this is a hint, never an error. Which card is where, and which
way up, is public, and so is comparing cards as such (`card == me.taken`): those are not
noted.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields, is_dataclass

from cardrules.model import ZoneDef

from . import ir
from . import nodes as n
from .typesys import Type

# Built-ins whose value hangs on what the cards given are (their ranks, suits, values).
FACES = frozenset({
    "same_rank", "same_suit", "is_set", "is_flush", "is_run", "is_run_high", "changes",
    "led_suit", "best_of_suit", "trick_suit", "trick_winner", "is_meld", "melds_in",
    "can_meld", "meld_layouts", "deadwood", "discard_deadwood", "best_melds", "left_out",
    "lay_downs", "can_lay_down",
})
# ... and those that take cards or zones but read only where cards lie, which way up and
# who knows them (tests/test_bookkeeping.py holds every such built-in to one of the two).
PLACES = frozenset({
    "top", "bottom", "cards", "all_but_top", "columns", "rows", "random_card", "knows",
    "possible", "owner",
})
PUBLIC_ATTRIBUTES = frozenset({"face_up", "played_by"})  # where a card lies, not what it is

Read = ir.Expr  # the node that reads what a card is, for the message


def internal_sets(program: ir.Program) -> Iterator[tuple[n.Pos, str]]:
    """A hint at each `set` of an internal variable that may keep what a card is."""
    concerned = {v.name for v in program.variables if v.internal and not _holds_cards(v.type)}
    if not concerned:
        return
    walk = _Walk(program, concerned)
    for stmts, condition in _blocks(program):
        walk.block(stmts, None if condition is None else walk.reads(condition, {}), {})
    for (pos, name), (read, guarded) in walk.found.items():
        how = "under a condition that reads" if guarded else "from"
        yield pos, (
            f"internal variable '{name}' is set {how} {_what(read)}: an internal variable is "
            "the rules' public bookkeeping, which a search bot's samples of the game keep as "
            f"it stands, so where a seat does not know that card its bots read it through "
            f"'{name}'. Keep what only some seats may know in a player variable with "
            "`visibility: owner`, or read the card where the rules need it (in the scoring, "
            "say)")


def _holds_cards(t: Type | None) -> bool:
    while t is not None and t.is_list:
        t = t.item
    return t is not None and t.name == "card"


def _blocks(program: ir.Program) -> Iterator[tuple[tuple[ir.Stmt, ...], ir.Expr | None]]:
    """Every statement list of the program at the top of its rule, with the condition it
    runs under (a trigger's `when`, a phase's `skip_turn`), if any."""
    yield program.setup, None
    yield program.round_end, None
    for phase in program.phases:
        yield phase.on_skip, phase.skip_turn
        for step in phase.steps:
            for move in step.moves:
                yield move.body, None
    if program.reactions is not None:
        for move in program.reactions.moves:
            yield move.body, None
    for triggers in program.triggers.values():
        for trigger in triggers:
            yield trigger.body, trigger.when
    for procedure in program.procedures:
        yield procedure.body, None


class _Walk:
    """The statements' walk: what each reads, and the sets found."""

    def __init__(self, program: ir.Program, concerned: set[str]):
        self.functions = {f.name: f for f in program.functions}
        self.procedures = {p.name: p for p in program.procedures}
        self.concerned = concerned
        # (where, variable) -> (what it reads, whether under a condition), in order found
        self.found: dict[tuple[n.Pos, str], tuple[Read, bool]] = {}
        self._function_reads: dict[str, Read | None] = {}
        self._called: set[tuple[str, bool, frozenset[str]]] = set()

    def block(self, stmts: tuple[ir.Stmt, ...], guard: Read | None,
              lets: dict[str, Read]) -> None:
        """Note the sets of `stmts`, run under `guard` (what a condition it runs under
        reads, if it reads what a card is), with `lets` the locals that hold what one is."""
        lets = dict(lets)  # a `let` holds for the rest of its block
        for stmt in stmts:
            if isinstance(stmt, ir.Set):
                self.set(stmt, guard, lets)
            elif isinstance(stmt, ir.Let):
                read = self.reads(stmt.value, lets)
                if read is not None:
                    lets[stmt.name] = read
                else:
                    lets.pop(stmt.name, None)
            elif isinstance(stmt, ir.If):
                inner = guard or self.reads(stmt.test, lets)
                self.block(stmt.then, inner, lets)
                self.block(stmt.otherwise, inner, lets)
            elif isinstance(stmt, ir.For):
                self.block(stmt.body, guard or self.reads(stmt.source, lets), lets)
            elif isinstance(stmt, ir.Loop):
                self.block(stmt.body, guard or self.reads(stmt.test, lets), lets)
            elif isinstance(stmt, ir.ProcedureCall):
                self.call(stmt, guard, lets)

    def set(self, stmt: ir.Set, guard: Read | None, lets: dict[str, Read]) -> None:
        target = stmt.target
        if not isinstance(target, (ir.GameVar, ir.PlayerVar)) or \
                target.name not in self.concerned:
            return
        read = self.reads(stmt.value, lets)
        if read is not None:
            self.found[stmt.pos, target.name] = (read, False)
        elif guard is not None:
            self.found.setdefault((stmt.pos, target.name), (guard, True))

    def call(self, stmt: ir.ProcedureCall, guard: Read | None, lets: dict[str, Read]) -> None:
        """Walk a procedure's body as called here: under the call's condition, with each
        parameter that holds no card read as what its argument reads. (A parameter holding
        cards holds which cards, not what they are; the body's own reads are its own.) Its
        body is walked once for each way it is called."""
        procedure = self.procedures.get(stmt.name)
        if procedure is None:
            return
        params: dict[str, Read] = {}
        for (name, kind), arg in zip(procedure.params, stmt.args):
            read = None if _holds_cards(kind) else self.reads(arg, lets)
            if read is not None:
                params[name] = read
        way = (stmt.name, guard is not None, frozenset(params))
        if (guard is not None or params) and way not in self._called:
            self._called.add(way)
            self.block(procedure.body, guard, params)

    def reads(self, expr: object, lets: dict[str, Read]) -> Read | None:
        """The first node of `expr` found to read what a card is (None if none does)."""
        stack: list[object] = [expr]
        while stack:
            node = stack.pop()
            if isinstance(node, ir.CardAttr) and node.name not in PUBLIC_ATTRIBUTES:
                return node
            if isinstance(node, ir.Call) and node.function in FACES:
                return node
            if isinstance(node, ir.Local) and node.name in lets:
                return lets[node.name]
            if isinstance(node, ir.UserCall) and self.function_reads(node.function):
                return node
            if isinstance(node, (tuple, list)):
                stack.extend(node)
            elif is_dataclass(node) and not isinstance(node, (ZoneDef, Type, n.Pos, type)):
                stack.extend(getattr(node, f.name) for f in fields(node))
        return None

    def function_reads(self, name: str) -> bool:
        if name not in self._function_reads:
            self._function_reads[name] = None  # (a function calls only those before it)
            function = self.functions.get(name)
            if function is not None:
                self._function_reads[name] = self.reads(function.value, {})
        return self._function_reads[name] is not None


def _what(read: Read) -> str:
    """What a node reads, in the author's words."""
    if isinstance(read, ir.CardAttr):
        return f"a card's {read.name}"
    if isinstance(read, ir.Call):
        return f"{read.function}(), which reads what the cards are"
    if isinstance(read, ir.UserCall):
        return f"function '{read.function}', which reads what a card is"
    return "what a card is"
