"""The round's flow, compiled: phases, steps, moves (their legal actions and effects),
triggers and scoring. Part of the ruleset builder (see build.Builder)."""

from __future__ import annotations

import ast
import re
from typing import Any

from .base import BuilderBase
from .expressions import BAD as BAD_CODE
from .expressions import local_name
from .model import MoveDef, PhaseDef, StepDef
from .names import did_you_mean
from .source import Path
from .typesys import ANY, BOOL, INT, PLAYER, TEXT, WORDS, Type

_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


class FlowBuilder(BuilderBase):
    """Compiles the parts of a ruleset that make up its rounds."""

    reaction_step: _Step | None = None

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
        body = ["    out = []", *legal, "    return out"]
        if _reads_no_state(body):
            # The same actions in every state (choices from ranks() and the like, filtered
            # by conditions on the choices alone): listed once, on first use, then copied.
            self.functions.append("\n".join([f"def _list_{fn}():", *body]))
            self.functions.append("\n".join([
                f"def {fn}(S, me):",
                f"    got = LISTED.get({fn!r})",
                "    if got is None:",
                f"        got = LISTED[{fn!r}] = _list_{fn}()",
                "    return list(got)"]))
            self.constants["LISTED"] = {}
        else:
            self.emit(f"def {fn}(S, me):", body)
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
        names_cards = tuple(_names_cards(bound.get(p, ANY)) for p in params)
        return _Move(name, spec.get("label", name.replace("_", " ")), tuple(params), kinds,
                     names_cards, fn, then, self.doc.where(path), spec.get("doc", ""))

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
            if "evaluate" in self.data.get("scoring", {}):
                estimate = self.compile_value(("scoring", "evaluate"), INT,
                                              "an evaluation", has_me=True)
                self.emit("def evaluate(S, p):", ["    me = p", f"    {local_name('p')} = p",
                                                  f"    return {estimate}"])
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


def _reads_no_state(body: list[str]) -> bool:
    """Whether generated function lines use neither the state, nor the seat, nor the zones."""
    tree = ast.parse("def f():\n" + "\n".join(body))
    return not any(isinstance(node, ast.Name) and node.id in ("S", "me", "Z")
                   for node in ast.walk(tree))


def _names_cards(t: Type) -> bool:
    """Whether a parameter of type t is a card or a list (of lists...) of cards."""
    while t.is_list and t.item is not None:
        t = t.item
    return t.name == "card"


class _Move:
    def __init__(self, name: str, label: str, params: tuple[str, ...], kinds: tuple[str, ...],
                 names_cards: tuple[bool, ...], fn: str, then: str | None, location: Any,
                 doc: str):
        self.name, self.label, self.params, self.fn = name, label, params, fn
        self.kinds, self.names_cards = kinds, names_cards
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


def bind_phase(p: _Phase, ns: dict[str, Any]) -> PhaseDef:
    names = [s.name for s in p.steps]
    steps = tuple(bind_step(s, names, ns) for s in p.steps)
    return PhaseDef(p.name, p.turns, steps, ns[p.skip] if p.skip else None,
                    ns[p.on_skip] if p.on_skip else None)


def bind_step(s: _Step, names: list[str], ns: dict[str, Any]) -> StepDef:
    moves = tuple(MoveDef(m.name, m.label, m.params, m.kinds, ns[m.fn],
                          names.index(m.then) if m.then in names else None,
                          m.location, m.doc, m.names_cards) for m in s.moves)
    return StepDef(s.name, s.repeat, moves, ns[s.legal], s.location)
