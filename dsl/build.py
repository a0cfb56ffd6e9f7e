"""Stage 6: a structurally valid rule file to a compiled, immutable Ruleset.

Reads the document's parts in order (options, deck, values, zones, variables,
round flow, triggers, scoring), parses each piece of rule text, has the Compiler
check and translate it, and compiles the generated module once.
"""

from __future__ import annotations

import builtins
import dataclasses
import re
from typing import Any

from cardrules.interpreter import domains, melds, ops

from . import nodes as n
from .builtins import AGGREGATES, FUNCTIONS
from .compiler import BAD as BAD_CODE
from .compiler import Code, Compiler, Symbols, local_name
from .errors import Diagnostic, RulesetError
from .model import (
    CardTable,
    MoveDef,
    OptionDef,
    PhaseDef,
    Ruleset,
    StepDef,
    VariableDef,
    ZoneDef,
)
from .names import did_you_mean
from .parser import ParseFailure, parse
from .source import Document, Path
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
)

STANDARD_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
STANDARD_SUITS = ("clubs", "diamonds", "hearts", "spades")
_RED_SUITS = ("hearts", "diamonds")
_BLACK_SUITS = ("clubs", "spades")
_FACE_NUMBERS = {"A": 1, "J": 11, "Q": 12, "K": 13}
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")

_RUNTIME = {name: getattr(ops, name) for name in (
    "top", "bottom", "present", "all_but_top", "players", "others", "next_seat", "move",
    "move_all", "flip", "flip_all", "swap", "shuffle", "peek", "peek_all", "deal",
    "end_round_before", "win", "need", "columns", "rows", "same_key", "is_set", "is_flush",
    "is_run", "eliminate", "round_score", "changes", "reveal", "random_card", "empty", "put",
    "take", "log_move", "log_flip", "group",
)} | {"goal_layouts": melds.rule_goal_layouts}


class Builder:
    """Builds one Ruleset from one checked document; collects every diagnostic."""

    def __init__(self, doc: Document, options: dict[str, Any] | None = None):
        self.doc = doc
        self.data: dict[str, Any] = doc.data
        self.overrides = dict(options or {})
        self.diagnostics: list[Diagnostic] = []
        self.symbols = Symbols()
        self.compiler = Compiler(self.symbols)
        self.functions: list[str] = []
        self.constants: dict[str, Any] = {}
        self.reaction_step: _Step | None = None

    # --------------------------------------------------------------- helpers
    def error(self, path: Path, message: str, key: bool = False) -> None:
        self.diagnostics.append(self.doc.diagnostic(path, message, key=key))

    def parse(self, path: Path, kind: str) -> Any:
        """Parse the rule text at `path`; None (with a diagnostic) if it does not parse."""
        value = self.doc.get(path)
        text = str(value).lower() if isinstance(value, bool) else str(value)
        try:
            return parse(text, kind, n.Origin(self.doc, path))
        except ParseFailure as failure:
            self.diagnostics.append(failure.diagnostic)
            return None

    def statements(self, path: Path) -> tuple[n.Stmt, ...]:
        """Parse a YAML list of statements (strings, if-blocks, for-blocks)."""
        out: list[n.Stmt] = []
        try:
            items = self.doc.get(path) or []
        except KeyError:  # an optional list of statements that is not there
            items = []
        for i, item in enumerate(items):
            here = (*path, i)
            if isinstance(item, str):
                stmt = self.parse(here, "statement")
            elif "if" in item:
                stmt = self._if_block(here, item)
            else:
                stmt = self._for_block(here, item)
            if stmt is not None:
                out.append(stmt)
        return tuple(out)

    def _if_block(self, path: Path, item: dict[str, Any]) -> n.Stmt | None:
        test = self.parse((*path, "if"), "expression")
        then = self.statements((*path, "then"))
        other = self.statements((*path, "else")) if "else" in item else ()
        pos = n.Pos(n.Origin(self.doc, (*path, "if")), 0)
        return n.If(test, then, other, pos=pos) if test is not None else None

    def _for_block(self, path: Path, item: dict[str, Any]) -> n.Stmt | None:
        text = str(item["for"])
        var, _, rest = text.strip().partition(" ")
        offset = text.index(rest.strip()[2:].strip(), text.index(" in ") + 3)
        try:
            source = parse(text[offset:], "expression", n.Origin(self.doc, (*path, "for")))
        except ParseFailure as failure:
            self.diagnostics.append(failure.diagnostic)
            return None
        body = self.statements((*path, "do"))
        pos = n.Pos(n.Origin(self.doc, (*path, "for")), 0)
        return n.For(var, _shift(source, offset), body, pos=pos)

    def emit(self, header: str, body: list[str]) -> None:
        self.functions.append("\n".join([header, "    Z = S.zones", *body]))

    def compile_value(self, path: Path, wanted: Type, what: str, has_me: bool = False) -> str:
        """Compile the expression at `path` to Python text (checked against `wanted`)."""
        node = self.parse(path, "expression")
        if node is None:
            return "None"
        self.compiler.has_me = has_me
        code = self.compiler.expect(self.compiler.compile(node), wanted, node.pos, what)
        return code.text

    # ----------------------------------------------------------------- build
    def build(self) -> Ruleset:
        data = self.data
        self.options()
        self.players()
        cards = self.deck()
        zones = self.zones()
        self.variables_declared()
        self.functions_declared()
        variables = self.variables()
        phases, moves = self.phases()
        setup = self.statement_function("setup", ("round", "setup"))
        round_end = self.statement_function("round_end", ("round", "end"))
        triggers = self.triggers()
        score_names = self.scoring()
        copies = self.function_of_table("copies", ("deck", "copies"), 1, quiet=True)
        has_until = "until" in data.get("scoring", {})
        # With `until`, the match goes on round after round; `rounds` then only bounds it.
        rounds = self.function_of_table("rounds", ("scoring", "rounds"), 100 if has_until else 1)
        until = self.condition_of_table("until", ("scoring", "until")) if has_until else None
        if self.diagnostics or self.compiler.diagnostics:
            raise RulesetError(self.all_diagnostics())
        namespace = self.run_module(cards, zones)
        board = namespace["B"]
        bound_phases = tuple(_bind_phase(p, namespace) for p in phases)
        reactions = None if self.reaction_step is None else _bind_step(
            self.reaction_step, ["reactions"], namespace)
        ruleset = Ruleset(
            name=data["name"], title=data.get("title", data["name"]),
            summary=data.get("summary", "").strip(), path=self.doc.path,
            min_players=self.min_players, max_players=self.max_players,
            default_players=self.default_players, direction=self.step,
            options=dict(self.symbols.options), option_defs=tuple(self.option_defs),
            cards=cards, copies=namespace[copies], home_zone=self.home_zone,
            zones=tuple(zones), zone_count=len(board.names), board=board,
            variables=tuple(VariableDef(v.name, v.scope, namespace[v.initial], v.doc,
                                        v.visibility) for v in variables),
            phases=bound_phases,
            setup=namespace[setup], round_end=namespace[round_end],
            after_move=namespace.get(triggers["move"] or ""),
            after_turn=namespace.get(triggers["turn"] or ""),
            after_round=namespace.get(triggers["round"] or ""),
            after_setup=namespace.get(triggers["setup"] or ""),
            score=namespace["score"], score_names=score_names,
            winner=data.get("scoring", {}).get("winner", "lowest"),
            rounds=namespace[rounds],
            until=namespace[until] if until else None,
            moves={m.name: m for p in bound_phases for s in p.steps for m in s.moves}
            | ({m.name: m for m in reactions.moves} if reactions else {}),
            reactions=reactions,
            python=self.source(), data=data,
        )
        return ruleset

    def all_diagnostics(self) -> list[Diagnostic]:
        found = self.diagnostics + self.compiler.diagnostics
        return sorted(found, key=lambda d: (d.location.line, d.location.column)
                      if d.location else (0, 0))

    def source(self) -> str:
        return "\n\n".join(self.functions) + "\n"

    def run_module(self, cards: CardTable, zones: list[ZoneDef]) -> dict[str, Any]:
        namespace: dict[str, Any] = {"__builtins__": _SAFE_BUILTINS, **_RUNTIME}
        namespace["B"] = self.board(cards, zones)
        namespace["words"] = domains.words
        namespace["STEP"] = self.step
        namespace["T_rank"], namespace["T_suit"] = cards.rank, cards.suit
        namespace["T_colour"], namespace["T_number"] = cards.colour, cards.number
        namespace["T_joker"], namespace["T_wild"] = cards.joker, cards.wild
        namespace["N_RANKS"] = len(cards.rank_names) - 1
        namespace["RANKS"] = list(range(len(cards.rank_names) - 1))
        namespace["SUITS"] = list(range(len(cards.suit_names) - 1))
        namespace["COLOURS"] = [0, 1]
        for name, table in cards.values.items():
            namespace["T_" + name] = table
        namespace.update(self.constants)
        try:
            code = compile(self.source(), f"<ruleset {self.data['name']}>", "exec")
        except SyntaxError as exc:  # generated code that does not compile is cardrules' fault
            raise RulesetError([Diagnostic(None, f"{self.doc.path}: cardrules could not "
                                           f"compile this ruleset (please report it): {exc}")]
                               ) from None
        exec(code, namespace)  # noqa: S102 - generated from the checked syntax tree only
        return namespace

    # --------------------------------------------------------------- options
    def options(self) -> None:
        self.option_defs: list[OptionDef] = []
        seen: set[str] = set()
        for i, item in enumerate(self.data.get("options", [])):
            name = item["name"]
            if name in seen:
                self.error(("options", i, "name"), f"option '{name}' is declared twice")
                continue
            seen.add(name)
            choices = tuple(item["choices"]) if "choices" in item else None
            default = item["default"]
            if choices is not None and default not in choices:
                self.error(("options", i, "default"), f"the default '{default}' is not one of "
                           "the choices: " + ", ".join(str(c) for c in choices))
            self.option_defs.append(OptionDef(name, default, choices, item["doc"].strip()))
            self.symbols.options[name] = default
            if choices is not None:
                self.symbols.choices[name] = choices
        for name, value in self.overrides.items():
            self.override(name, value)

    def override(self, name: str, value: Any) -> None:
        defs = {o.name: o for o in self.option_defs}
        option = defs.get(name)
        if option is None:
            raise RulesetError([Diagnostic(None, f"{self.doc.path}: no option '{name}'"
                                           + did_you_mean(name, defs))])
        value = _coerce(value, option.default)
        if value is None or (option.choices is not None and value not in option.choices):
            wanted = (", ".join(str(c) for c in option.choices) if option.choices
                      else type(option.default).__name__)
            raise RulesetError([Diagnostic(None, f"option '{name}': expected {wanted}")])
        self.symbols.options[name] = value

    def players(self) -> None:
        spec = self.data.get("players", {})
        self.min_players = spec.get("min", 2)
        self.max_players = spec.get("max", max(self.min_players, 4))
        self.default_players = spec.get("default", self.min_players)
        if not self.min_players <= self.default_players <= self.max_players:
            self.error(("players",), "players: expected min <= default <= max")
        direction = self.data.get("direction", "clockwise")
        self.step = 1 if direction == "clockwise" else -1

    # ------------------------------------------------------------------ deck
    def deck(self) -> CardTable:
        deck = self.data.get("deck", {})
        ranks = tuple(str(r) for r in deck.get("ranks", STANDARD_RANKS))
        suits = tuple(str(s) for s in deck.get("suits", STANDARD_SUITS))
        jokers = deck.get("jokers", 0)
        for path, names in ((("deck", "ranks"), ranks), (("deck", "suits"), suits)):
            if len(set(names)) != len(names) or "joker" in names:
                self.error(path, "names must be distinct, and 'joker' is reserved")
        # 'joker' names the jokers' rank and suit, in a deck that has any
        self.symbols.rank_names = (*ranks, "joker") if jokers else ranks
        self.symbols.suit_names = (*suits, "joker") if jokers else suits
        per_deck = len(ranks) * len(suits) + jokers
        copies = self.max_copies()
        table = _card_table(ranks, suits, jokers, copies, per_deck)
        values = self.value_tables(ranks, jokers, table, copies)
        self.symbols.value_tables = tuple(values)
        table["wild"] = self.wild_table(table, values)
        return CardTable(per_deck=per_deck, values=values, **table)

    def wild_table(self, table: dict[str, Any], values: dict[str, tuple[int, ...]]
                   ) -> tuple[bool, ...]:
        """Which cards are wild: `deck.wild`, a condition on `card` alone, worked out now."""
        count = len(table["names"])
        if "wild" not in self.data.get("deck", {}):
            return (False,) * count
        path = ("deck", "wild")
        node = self.parse(path, "expression")
        if node is None:
            return (False,) * count
        self.compiler.has_me = False
        with self.compiler.bind({"card": CARD}):
            code = self.compiler.condition(node)
        if code.known:
            return (bool(code.const),) * count
        space = {"T_rank": table["rank"], "T_suit": table["suit"], "T_colour": table["colour"],
                 "T_number": table["number"], "T_joker": table["joker"],
                 **{"T_" + k: v for k, v in values.items()}}
        try:
            test = eval(compile(f"lambda v_card: {code.text}", "<wild>", "eval"),  # noqa: S307
                        {"__builtins__": {}, **space})  # generated from the checked tree
            return tuple(bool(test(c)) for c in range(count))
        except Exception:  # the condition reads more than the card: say so
            self.error(path, "the wild condition may only use the card's own attributes "
                             "(rank, suit, colour, number, is_joker, value tables) and options")
            return (False,) * count

    def max_copies(self) -> int:
        """The most decks any allowed table size uses (to size the card table)."""
        raw = self.data.get("deck", {}).get("copies", 1)
        if isinstance(raw, int) and not isinstance(raw, bool):
            return max(raw, 1)
        node = self.parse(("deck", "copies"), "expression")
        if node is None:
            return 1
        self.compiler.has_me = False
        code = self.compiler.expect(self.compiler.compile(node), INT, node.pos, "deck copies")
        if code.type != INT:
            return 1
        fake = _TableSize()
        most = 1
        for count in range(self.min_players, self.max_players + 1):
            fake.n = count
            try:
                value = eval(compile(code.text, "<copies>", "eval"),  # noqa: S307 - generated
                             {"__builtins__": {}, "S": fake})
            except Exception as exc:  # a copies rule may only read the table size
                self.error(("deck", "copies"), f"cannot work out the deck count: {exc}")
                return 1
            most = max(most, int(value))
        return most

    def value_tables(self, ranks: tuple[str, ...], jokers: int, table: dict[str, Any],
                     copies: int) -> dict[str, tuple[int, ...]]:
        out: dict[str, tuple[int, ...]] = {}
        wanted = list(ranks) + (["joker"] if jokers else [])
        for name, entries in self.data.get("values", {}).items():
            path = ("values", name)
            for key in entries:
                if key not in wanted:
                    self.error((*path, key), f"'{key}' is not a rank of this deck"
                               + did_you_mean(key, wanted), key=True)
            missing = [r for r in wanted if r not in entries]
            if missing:
                self.error(path, f"values '{name}' gives no number for: " + ", ".join(missing))
            by_rank = [entries.get(r, 0) for r in ranks] + [entries.get("joker", 0)]
            out[name] = tuple(by_rank[r] for r in table["rank"])
        return out

    # ----------------------------------------------------------------- zones
    def zones(self) -> list[ZoneDef]:
        shared = [z for z in self.data.get("zones", []) if z.get("owner", "none") != "each"]
        owned = [z for z in self.data.get("zones", []) if z.get("owner", "none") == "each"]
        out: list[ZoneDef] = []
        index = 0
        for spec in shared + owned:
            layout = spec.get("layout", "stack")
            is_owned = spec.get("owner", "none") == "each"
            rows, cols = spec.get("rows", 1), spec.get("columns", 1)
            groups = spec.get("groups", 0)
            out.append(ZoneDef(spec["name"], is_owned, spec.get("visibility", "public"),
                               layout, rows, cols, index, spec.get("doc", ""), groups))
            index += self.max_players * max(groups, 1) if is_owned else 1
        seen: set[str] = set()
        for i, zone in enumerate(self.data.get("zones", [])):
            if zone["name"] in seen:
                self.error(("zones", i, "name"), f"zone '{zone['name']}' is declared twice")
            seen.add(zone["name"])
            if zone.get("layout") == "grid" and not ("rows" in zone and "columns" in zone):
                self.error(("zones", i), "a grid zone needs rows and columns")
            if "groups" in zone and zone.get("owner") != "each":
                self.error(("zones", i, "groups"), "only a zone each player owns can have "
                                                   "groups")
        self.symbols.zones = {z.name: z for z in out}
        home = self.data.get("deck", {}).get("zone")
        zone = self.symbols.zones.get(home) if home else None
        if zone is None or zone.owned:
            self.error(("deck", "zone"), f"the deck's zone must be a shared zone, not '{home}'"
                       + did_you_mean(str(home), self.symbols.zones))
            self.home_zone = 0
        else:
            self.home_zone = zone.index
        return out

    def board(self, cards: CardTable, zones: list[ZoneDef]) -> ops.Board:
        names: list[str] = []
        owner: list[int] = []
        vis: list[int] = []
        grid: list[bool] = []
        slots: list[int] = []
        width: list[int] = []
        code = {"hidden": ops.HIDDEN, "owner": ops.OWNER, "public": ops.PUBLIC}
        for z in zones:
            for seat in range(self.max_players if z.owned else 1):
                for _ in range(max(z.groups, 1)):
                    names.append(z.name)
                    owner.append(seat if z.owned else -1)
                    vis.append(code[z.visibility])
                    grid.append(z.layout == "grid")
                    slots.append(z.rows * z.columns if z.layout == "grid" else 1 << 30)
                    width.append(z.columns)
        return ops.Board(tuple(names), tuple(owner), tuple(vis), tuple(grid), tuple(slots),
                         tuple(width), cards.names)

    # ------------------------------------------------------------- variables
    def variables_declared(self) -> None:
        """Declare every variable (with its type) before any rule text is compiled."""
        self.var_specs: list[tuple[int, dict[str, Any], Code | None]] = []
        for i, spec in enumerate(self.data.get("variables", [])):
            name = spec["name"]
            if name in self.symbols.variables or name in self.symbols.zones:
                self.error(("variables", i, "name"), f"the name '{name}' is already taken")
                continue
            node = self.parse(("variables", i, "initial"), "expression")
            self.compiler.has_me = False
            code = self.compiler.compile(node) if node is not None else None
            t = code.type if code is not None else ANY
            self.symbols.variables[name] = (spec["scope"], ANY if t == NONE else t)
            self.var_specs.append((i, spec, code))

    def functions_declared(self) -> None:
        """Compile the ruleset's own functions, in order (each may call those before it)."""
        for i, spec in enumerate(self.data.get("functions", [])):
            path = ("functions", i)
            name = spec["name"]
            if name in FUNCTIONS or name in AGGREGATES or name in self.symbols.functions:
                self.error((*path, "name"), f"'{name}' is already a function")
                continue
            params: dict[str, Type] = {}
            for param, type_name in spec.get("params", {}).items():
                params[param] = PARAM_TYPES[type_name]
            node = self.parse((*path, "value"), "expression")
            if node is None:
                continue
            self.compiler.has_me = False
            with self.compiler.bind(params):
                code = self.compiler.compile(node)
            fn = f"f_{name}"
            args = "".join(", " + local_name(p) for p in params)
            self.emit(f"def {fn}(S{args}):", [f"    return {code.text}"])
            self.symbols.functions[name] = (fn, tuple(params.values()), code.type)

    def variables(self) -> list[_Var]:
        out = []
        for _, spec, code in self.var_specs:
            fn = f"init_{spec['name']}"
            self.emit(f"def {fn}(S):", [f"    return {code.text if code else 'None'}"])
            out.append(_Var(spec["name"], spec["scope"], fn, spec.get("doc", ""),
                            spec.get("visibility", "public")))
        return out

    # ------------------------------------------------------------------ flow
    def phases(self) -> tuple[list[_Phase], list[_Move]]:
        phases: list[_Phase] = []
        moves: list[_Move] = []
        taken: dict[str, Path] = {}
        for i, spec in enumerate(self.data.get("round", {}).get("phases", [])):
            path = ("round", "phases", i)
            step_names = [s["name"] for s in spec["steps"]]
            steps = []
            for j, step in enumerate(spec["steps"]):
                steps.append(self.step_def((*path, "steps", j), step, step_names, moves, taken))
            phase = _Phase(spec["name"], spec["turns"], steps)
            if "skip_turn" in spec:
                phase.skip = self.seat_condition(f"skip_{i}", (*path, "skip_turn"))
                phase.on_skip = self.statement_function(f"on_skip_{i}", (*path, "on_skip"))
            phases.append(phase)
        if "reactions" in self.data:
            spec = self.data["reactions"]
            self.reaction_step = self.step_def(("reactions",), {"name": "reactions", **spec},
                                               ["reactions"], moves, taken)
        return phases, moves

    def repeat_count(self, path: Path, spec: dict[str, Any]) -> int:
        """A step's `repeat`: a number, or an expression the options settle (e.g. `peeks`)."""
        raw = spec.get("repeat", 1)
        if isinstance(raw, int) and not isinstance(raw, bool):
            return raw
        node = self.parse((*path, "repeat"), "expression")
        if node is None:
            return 1
        self.compiler.has_me = False
        code = self.compiler.expect(self.compiler.compile(node), INT, node.pos, "a repeat count")
        if code is BAD_CODE:
            return 1
        if not code.known or code.const < 1:
            self.error((*path, "repeat"), "a repeat count must be a whole number from 1 that "
                                          "the options settle before the game")
            return 1
        return int(code.const)

    def seat_condition(self, fn: str, path: Path) -> str:
        """A condition about one seat, bound as `me` (a phase's `skip_turn`)."""
        text = self.compile_value(path, BOOL, "the condition", has_me=True)
        self.emit(f"def {fn}(S, me):", [f"    return {text}"])
        return fn

    def step_def(self, path: Path, spec: dict[str, Any], step_names: list[str],
                 moves: list[_Move], taken: dict[str, Path]) -> _Step:
        legal: list[str] = []
        step_moves = []
        for k, move in enumerate(spec["moves"]):
            mpath = (*path, "moves", k)
            name = move["name"]
            if name == "pass":
                self.error((*mpath, "name"), "'pass' is the answer to a reaction window; "
                                             "choose another name for this move")
                continue
            if name in taken:
                self.error((*mpath, "name"), f"move '{name}' is declared twice (moves need "
                                             "names unique in the ruleset)")
                continue
            taken[name] = mpath
            step_moves.append(self.move_def(mpath, move, step_names, legal))
        moves.extend(step_moves)
        fn = f"legal_{len(self.functions)}"
        self.emit(f"def {fn}(S, me):", ["    out = []", *legal, "    return out"])
        return _Step(spec["name"], self.repeat_count(path, spec), step_moves, fn,
                     self.doc.where(path))

    def move_def(self, path: Path, spec: dict[str, Any], step_names: list[str],
                 legal: list[str]) -> _Move:
        name = spec["name"]
        params = list(spec.get("choose", {}))
        fn = f"move_{name}"
        then = spec.get("then")
        if then is not None and then not in step_names:
            self.error((*path, "then"), f"no step '{then}' in this phase"
                       + did_you_mean(then, step_names))
        self.check_label(path, spec.get("label", name), params)
        self.compiler.has_me = True
        lines: list[str] = []
        pad = "    "
        if "when" in spec:
            node = self.parse((*path, "when"), "expression")
            test = self.compiler.condition(node) if node is not None else None
            if test is not None and not (test.known and test.const):
                lines.append(f"{pad}if {test.text}:")
                pad += "    "
        bound: dict[str, Type] = {}
        with self.compiler.bind({}):
            for param in params:
                pad = self.parameter(path, param, bound, lines, pad)
            args = ", ".join(local_name(p) for p in params)
            action = f"({name!r}, {args},)" if params else f"A_{name}"
            if not params:
                self.constants[f"A_{name}"] = (name,)
            lines.append(f"{pad}out.append({action})")
            body: list[str] = []
            self.compiler.statements(self.statements((*path, "do")), body, 1)
        legal.extend(lines)
        # A move's function takes the whole action (move name, *choices) as A.
        unpack = [f"    {local_name(p)} = A[{i}]" for i, p in enumerate(params, 1)]
        self.emit(f"def {fn}(S, me, A):", unpack + (body or ["    pass"]))
        kinds = tuple(bound.get(p, ANY).name for p in params)
        return _Move(name, spec.get("label", name.replace("_", " ")), tuple(params), kinds, fn,
                     then, self.doc.where(path), spec.get("doc", ""))

    def parameter(self, path: Path, param: str, bound: dict[str, Type], lines: list[str],
                  pad: str) -> str:
        node = self.parse((*path, "choose", param), "domain")
        if node is None:
            return pad
        var = local_name(param)
        first = self.compiler.compile(node.source)
        if first is BAD_CODE:
            return pad
        if first.type == WORDS:  # an open domain: one action, its parameter filled in later
            if node.where is not None:
                self.compiler.error(node.where.pos, "an open domain takes no 'where'")
            lines.append(f"{pad}{var} = {first.text}")
            self.compiler.scope[param] = (var, TEXT)
            bound[param] = WORDS
            return pad
        source = self.compiler.iterable(node.source, first)
        item = source.type.item if source.type.item is not None else ANY
        lines.append(f"{pad}for {var} in {source.text}:")
        pad += "    "
        self.compiler.scope[param] = (var, item)
        bound[param] = item
        if node.where is not None:
            lines.append(f"{pad}if {self.compiler.condition(node.where).text}:")
            pad += "    "
        return pad

    def check_label(self, path: Path, label: str, params: list[str]) -> None:
        for match in _PLACEHOLDER.finditer(label):
            if match.group(1) not in params:
                self.diagnostics.append(self.doc.diagnostic(
                    (*path, "label"), f"the label names '{{{match.group(1)}}}', but the move "
                    "chooses " + (", ".join(params) if params else "nothing")))

    def statement_function(self, fn: str, path: Path, has_me: bool = True) -> str:
        try:
            stmts = self.statements(path)
        except KeyError:
            stmts = ()
        body: list[str] = []
        self.compiler.has_me = has_me
        self.compiler.statements(stmts, body, 1)
        self.emit(f"def {fn}(S, me):", body or ["    pass"])
        return fn

    def triggers(self) -> dict[str, str | None]:
        bodies: dict[str, list[str]] = {"move": [], "turn": [], "round": [], "setup": []}
        seen: set[str] = set()
        for i, spec in enumerate(self.data.get("triggers", [])):
            path = ("triggers", i)
            if spec["name"] in seen:
                self.error((*path, "name"), f"trigger '{spec['name']}' is declared twice")
            seen.add(spec["name"])
            body = bodies[spec["after"]]
            self.compiler.has_me = True
            pad = "    "
            test = None
            if "when" in spec:
                node = self.parse((*path, "when"), "expression")
                if node is None:
                    continue
                test = self.compiler.condition(node)
                if not test.known:
                    body.append(f"    if {test.text}:")
                    pad = "        "
            inner: list[str] = []
            self.compiler.statements(self.statements((*path, "do")), inner, len(pad) // 4)
            if test is None or not test.known or test.const:  # a trigger the options rule out
                body.extend(inner or [pad + "pass"])
        out: dict[str, str | None] = {}
        for after, body in bodies.items():
            out[after] = f"after_{after}" if body else None
            if body:
                self.emit(f"def after_{after}(S, me):", body)
        return out

    def scoring(self) -> tuple[str, ...]:
        entries = self.data.get("scoring", {}).get("round", [])
        names, values = [], []
        with self.compiler.bind({"p": PLAYER}):
            for i, spec in enumerate(entries):
                names.append(spec["name"])
                values.append(self.compile_value(("scoring", "round", i, "score"), INT,
                                                 "a score", has_me=True))
        tuple_text = "(" + "".join(v + ", " for v in values) + ")"
        self.emit("def score(S, p):", ["    me = p", f"    {local_name('p')} = p",
                                       f"    return {tuple_text}"])
        return tuple(names)

    def condition_of_table(self, fn: str, path: Path) -> str:
        """A condition on the state between rounds (no player acts): `scoring.until`."""
        text = self.compile_value(path, BOOL, "the match's end condition")
        self.emit(f"def {fn}(S):", [f"    return {text}"])
        return fn

    def function_of_table(self, fn: str, path: Path, default: int, quiet: bool = False) -> str:
        """A function of the table (S.n) alone: deck copies, number of rounds. `quiet`: its
        problems were already reported (the deck count is checked when the deck is built)."""
        try:
            self.doc.get(path)
        except KeyError:
            text = repr(default)
        else:
            before = len(self.compiler.diagnostics), len(self.diagnostics)
            text = self.compile_value(path, INT, str(path[-1]))
            if quiet:
                del self.compiler.diagnostics[before[0]:]
                del self.diagnostics[before[1]:]
        self.emit(f"def {fn}(S):", [f"    return {text}"])
        return fn


# --------------------------------------------------------------------- pieces
PARAM_TYPES = {"card": CARD, "cards": CARDS, "player": PLAYER, "players": PLAYERS,
               "number": INT, "bool": BOOL, "text": TEXT, "rank": RANK, "suit": SUIT,
               "colour": COLOUR}


class _Var:
    def __init__(self, name: str, scope: str, initial: str, doc: str, visibility: str):
        self.name, self.scope, self.initial, self.doc = name, scope, initial, doc
        self.visibility = visibility


class _Move:
    def __init__(self, name: str, label: str, params: tuple[str, ...], kinds: tuple[str, ...],
                 fn: str, then: str | None, location: Any, doc: str):
        self.name, self.label, self.params, self.fn = name, label, params, fn
        self.kinds = kinds
        self.then, self.location, self.doc = then, location, doc


class _Step:
    def __init__(self, name: str, repeat: int, moves: list[_Move], legal: str, location: Any):
        self.name, self.repeat, self.moves, self.legal = name, repeat, moves, legal
        self.location = location


class _Phase:
    def __init__(self, name: str, turns: str, steps: list[_Step]):
        self.name, self.turns, self.steps = name, turns, steps
        self.skip: str | None = None
        self.on_skip: str | None = None


class _TableSize:
    """Stands in for a state when working out the deck count from the table size."""

    n = 0


def _bind_phase(p: _Phase, ns: dict[str, Any]) -> PhaseDef:
    names = [s.name for s in p.steps]
    steps = tuple(_bind_step(s, names, ns) for s in p.steps)
    return PhaseDef(p.name, p.turns, steps, ns[p.skip] if p.skip else None,
                    ns[p.on_skip] if p.on_skip else None)


def _bind_step(s: _Step, names: list[str], ns: dict[str, Any]) -> StepDef:
    moves = tuple(MoveDef(m.name, m.label, m.params, m.kinds, ns[m.fn],
                          names.index(m.then) if m.then in names else None,
                          m.location, m.doc) for m in s.moves)
    return StepDef(s.name, s.repeat, moves, ns[s.legal], s.location)


def _card_table(ranks: tuple[str, ...], suits: tuple[str, ...], jokers: int, copies: int,
                per_deck: int) -> dict[str, Any]:
    names, rank, suit, colour, number, joker = [], [], [], [], [], []
    for _ in range(copies):
        for si, s in enumerate(suits):
            for ri, r in enumerate(ranks):
                names.append(r + s[0].upper())
                rank.append(ri)
                suit.append(si)
                colour.append(0 if s in _RED_SUITS else 1 if s in _BLACK_SUITS else 2)
                number.append(_number(r, ri))
                joker.append(False)
        for j in range(jokers):
            names.append("JK")
            rank.append(len(ranks))
            suit.append(len(suits))
            colour.append(j % 2)
            number.append(0)
            joker.append(True)
    return {"names": tuple(names), "rank": tuple(rank), "suit": tuple(suit),
            "colour": tuple(colour), "number": tuple(number), "joker": tuple(joker),
            "rank_names": (*ranks, "joker"), "suit_names": (*suits, "joker")}


def _number(rank: str, index: int) -> int:
    if rank in _FACE_NUMBERS:
        return _FACE_NUMBERS[rank]
    return int(rank) if rank.isdigit() else index + 1


def _coerce(value: Any, like: Any) -> Any:
    """Turn a command-line option value (text) into the type of the option's default."""
    if not isinstance(value, str):
        return value if type(value) is type(like) else None
    if isinstance(like, bool):
        return {"true": True, "yes": True, "false": False, "no": False}.get(value.lower())
    if isinstance(like, int):
        try:
            return int(value)
        except ValueError:
            return None
    return value


def _shift(node: Any, offset: int) -> Any:
    """Re-base a parsed node's positions by `offset` characters (text parsed from a slice)."""
    if isinstance(node, tuple):
        return tuple(_shift(x, offset) for x in node)
    if not isinstance(node, n.Node):
        return node
    changes = {}
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        if isinstance(value, n.Pos):
            changes[f.name] = n.Pos(value.origin, value.offset + offset)
        elif isinstance(value, (n.Node, tuple)):
            changes[f.name] = _shift(value, offset)
    return dataclasses.replace(node, **changes)


# The only Python built-ins generated code may call.
_SAFE_BUILTINS = {name: getattr(builtins, name) for name in (
    "len", "list", "sum", "all", "any", "min", "max", "abs", "map", "bool", "range", "tuple",
    "next")}
