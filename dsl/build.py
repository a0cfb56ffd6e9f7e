"""Stage 6: a structurally valid rule file to a compiled, immutable Ruleset.

Reads the document's parts in order (options, deck, values, zones, variables,
round flow, triggers, scoring), parses each piece of rule text, has the Compiler
check and translate it, and compiles the generated module once.
"""

from __future__ import annotations

import builtins
from typing import Any

from cardrules.interpreter import domains, melds, ops

from .builtins import AGGREGATES, FUNCTIONS
from .cards import STANDARD_RANKS, STANDARD_SUITS, card_table
from .errors import Diagnostic, RulesetError
from .expressions import Code, local_name
from .flow import FlowBuilder, bind_phase, bind_step
from .model import (
    CardTable,
    OptionDef,
    Ruleset,
    VariableDef,
    ZoneDef,
)
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
    Type,
)

_RUNTIME = {name: getattr(ops, name) for name in (
    "top", "bottom", "present", "all_but_top", "players", "others", "next_seat", "move",
    "move_all", "flip_all", "swap", "shuffle", "peek", "peek_all", "deal",
    "end_round_before", "win", "need", "columns", "rows", "same_key", "is_set", "is_flush",
    "is_run", "eliminate", "round_score", "changes", "reveal", "random_card", "empty", "put",
    "take", "log_move", "log_flip", "group",
)} | {"goal_layouts": melds.rule_goal_layouts}


class Builder(FlowBuilder):
    """Builds one Ruleset from one checked document; collects every diagnostic."""

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
        bound_phases = tuple(bind_phase(p, namespace) for p in phases)
        reactions = None if self.reaction_step is None else bind_step(
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
            evaluate=namespace.get("evaluate"),
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
        table = card_table(ranks, suits, jokers, copies, per_deck)
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


PARAM_TYPES = {"card": CARD, "cards": CARDS, "player": PLAYER, "players": PLAYERS,
               "number": INT, "bool": BOOL, "text": TEXT, "rank": RANK, "suit": SUIT,
               "colour": COLOUR}


class _Var:
    def __init__(self, name: str, scope: str, initial: str, doc: str, visibility: str):
        self.name, self.scope, self.initial, self.doc = name, scope, initial, doc
        self.visibility = visibility


class _TableSize:
    """Stands in for a state when working out the deck count from the table size."""

    n = 0


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


_SAFE_BUILTINS = {name: getattr(builtins, name) for name in (
    "len", "list", "sum", "all", "any", "min", "max", "abs", "map", "bool", "range", "tuple",
    "next")}
