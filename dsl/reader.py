"""Stage 3 for a whole file: a structurally valid document to its tree of declarations.

`read(doc)` parses every piece of rule text the document holds (expressions, statements,
`for:` clauses, domains, labels, names) with the one grammar and returns the
RulesetDecl with every problem found on the way. It runs after the schema check, so the
shape of the data (which keys, which YAML types) is already known to be right.
"""

from __future__ import annotations

import re
from typing import Any

from cardrules.errors import Diagnostic
from cardrules.model import ACE_PLACES

from . import decls as d
from . import nodes as n
from .parser import ParseFailure, parse
from .source import Document, Path

_RULESET_NAME = re.compile(r"[a-z][a-z0-9-]*")


def read(doc: Document) -> tuple[d.RulesetDecl, list[Diagnostic]]:
    """The document's declarations, and the problems met reading its rule text."""
    reader = _Reader(doc)
    return reader.ruleset(), reader.diagnostics


class _Reader:
    def __init__(self, doc: Document):
        self.doc = doc
        self.data: dict[str, Any] = doc.data
        self.diagnostics: list[Diagnostic] = []

    # ---------------------------------------------------------------- pieces
    def pos(self, path: Path, key: bool = False) -> n.Pos:
        value = self._get(path)
        length = len(value) if isinstance(value, str) and not key else 0
        return n.Pos(n.Origin(self.doc, tuple(path), key), 0, length)

    def _get(self, path: Path) -> Any:
        try:
            return self.doc.get(path)
        except (KeyError, IndexError, TypeError):
            return None

    def has(self, path: Path) -> bool:
        try:
            self.doc.get(path)
        except (KeyError, IndexError, TypeError):
            return False
        return True

    def text(self, path: Path, kind: str) -> Any:
        """Parse the rule text at `path` as `kind`; None (with a diagnostic) if it fails."""
        value = self._get(path)
        source = str(value).lower() if isinstance(value, bool) else str(value)
        try:
            return parse(source, kind, n.Origin(self.doc, tuple(path)))
        except ParseFailure as failure:
            self.diagnostics.append(failure.diagnostic)
            return None

    def expr(self, path: Path) -> n.Expr | None:
        return self.text(path, "expression") if self.has(path) else None

    def named(self, path: Path, key: bool = False) -> d.Named:
        """A name the file gives: parsed as an identifier, which it must be exactly."""
        raw = path[-1] if key else self._get(path)
        pos = self.pos(path, key)
        name = str(raw)
        ident = self._identifier_of_key(name, pos) if key else self.text(path, "identifier")
        if ident is not None and ident.name != name:
            self.diagnostics.append(pos.diagnostic(
                f"'{name.strip()}' is written with spaces or line breaks around it: a name "
                "is one word"))
            name = ident.name  # the rest of the file may then use it without a follow-on
        return d.Named(name, pos)

    def _identifier_of_key(self, name: str, pos: n.Pos) -> n.Identifier | None:
        try:
            return parse(name, "identifier", pos.origin)  # type: ignore[no-any-return]
        except ParseFailure:
            self.diagnostics.append(pos.diagnostic(
                f"'{name}' is not a valid name here (use lower-case letters, digits and _)"))
            return None

    def literal(self, path: Path) -> d.Literal | None:
        return d.Literal(self._get(path), self.pos(path)) if self.has(path) else None

    def doc_text(self, path: Path) -> str:
        value = self._get(path)
        return str(value).strip() if value is not None else ""

    def statements(self, path: Path) -> tuple[n.Stmt, ...]:
        """A YAML list of statements (strings, if-blocks, for-blocks), parsed."""
        out: list[n.Stmt] = []
        items = self._get(path) if self.has(path) else None
        for i, item in enumerate(items or []):
            here = (*path, i)
            stmt: n.Stmt | None
            if isinstance(item, str):
                stmt = self.text(here, "statement")
            elif "if" in item:
                stmt = self._if_block(here, item)
            elif "while" in item or "until" in item:
                stmt = self._loop_block(here, item)
            else:
                stmt = self._for_block(here)
            if stmt is not None:
                out.append(stmt)
        return tuple(out)

    def _if_block(self, path: Path, item: dict[str, Any]) -> n.Stmt | None:
        test = self.text((*path, "if"), "expression")
        then = self.statements((*path, "then"))
        other = self.statements((*path, "else")) if "else" in item else ()
        return n.If(test, then, other, pos=self.pos((*path, "if"))) if test is not None \
            else None

    def _loop_block(self, path: Path, item: dict[str, Any]) -> n.Stmt | None:
        key = "while" if "while" in item else "until"
        test = self.text((*path, key), "expression")
        body = self.statements((*path, "do"))
        limit = self.literal((*path, "limit"))
        if test is None:
            return None
        kind = n.While if key == "while" else n.Until
        return kind(test, body, limit.whole if limit else None, limit.pos if limit else None,
                    pos=self.pos((*path, key)))

    def _for_block(self, path: Path) -> n.Stmt | None:
        clause = self.text((*path, "for"), "for_clause")
        body = self.statements((*path, "do"))
        if clause is None:
            return None
        return n.For(clause.variable, clause.variable_pos, clause.source, body,
                     pos=self.pos((*path, "for")))

    # ------------------------------------------------------------ the whole
    def ruleset(self) -> d.RulesetDecl:
        data = self.data
        round_path = ("round",)
        return d.RulesetDecl(
            name=self.ruleset_name(),
            title=self.doc_text(("title",)) or str(data.get("name", "")),
            summary=self.doc_text(("summary",)),
            path=self.doc.path,
            players=self.players(),
            direction=str(data.get("direction", "clockwise")),
            options=tuple(self.option(i) for i in range(len(data.get("options", [])))),
            deck=self.deck(),
            values=tuple(self.value_table(k) for k in data.get("values", {})),
            zones=tuple(self.zone(i) for i in range(len(data.get("zones", [])))),
            variables=tuple(self.variable(i) for i in range(len(data.get("variables", [])))),
            functions=tuple(self.function(i) for i in range(len(data.get("functions", [])))),
            procedures=tuple(self.procedure(i)
                             for i in range(len(data.get("procedures", [])))),
            trick_suit=self.expr(("tricks", "suit")), trick_rank=self.expr(("tricks", "rank")),
            setup=self.statements((*round_path, "setup")),
            phases=tuple(self.phase(i) for i in range(
                len(data.get("round", {}).get("phases", [])))),
            round_end=self.statements((*round_path, "end")),
            reactions=self.step(("reactions",), "reactions") if "reactions" in data else None,
            triggers=tuple(self.trigger(i) for i in range(len(data.get("triggers", [])))),
            scoring=self.scoring(),
            round_first=self.expr((*round_path, "first")),
            teams=self.literal(("teams",)),
            melds=self.melds() if "melds" in data else None,
            max_actions=self.literal(("max_actions",)),
            house=self.house() if "house" in data else None,
            repetition=str(data.get("repetition", "allow")),
        )

    def house(self) -> d.HouseDecl:
        path = ("house",)
        name = self.doc_text((*path, "name"))
        return d.HouseDecl(name or "the house", self.doc_text((*path, "doc")), self.pos(path))

    def ruleset_name(self) -> d.Named:
        """The ruleset's name: lower-case letters, digits and -, as typed on a command line."""
        if not self.has(("name",)):
            return d.Named("", self.pos(()))
        name = str(self._get(("name",)))
        pos = self.pos(("name",))
        if _RULESET_NAME.fullmatch(name) is None:
            self.diagnostics.append(pos.diagnostic(
                f"{name.strip()!r} is not a valid ruleset name (use lower-case letters, digits "
                "and -, from a letter)"))
        return d.Named(name, pos)

    def players(self) -> d.PlayersDecl:
        path = ("players",)
        return d.PlayersDecl(self.literal((*path, "min")), self.literal((*path, "max")),
                             self.literal((*path, "default")), self.pos(path))

    def option(self, i: int) -> d.OptionDecl:
        path = ("options", i)
        choices = None
        if self.has((*path, "choices")):
            count = len(self._get((*path, "choices")))
            choices = tuple(d.Literal(self._get((*path, "choices", k)),
                                      self.pos((*path, "choices", k))) for k in range(count))
        default = self.literal((*path, "default"))
        assert default is not None  # required by the schema
        return d.OptionDecl(self.named((*path, "name")), default, choices,
                            self.doc_text((*path, "doc")), self.literal((*path, "min")),
                            self.literal((*path, "max")), self.doc_text((*path, "label")))

    def deck(self) -> d.DeckDecl:
        path = ("deck",)
        spec = self._get(path) or {}

        def listed(key: str) -> tuple[d.Literal, ...]:
            return tuple(d.Literal(v, self.pos((*path, key, k)))
                         for k, v in enumerate(spec.get(key, [])))

        return d.DeckDecl(
            ranks=listed("ranks"), suits=listed("suits"),
            jokers=self.literal((*path, "jokers")),
            copies=self.expr((*path, "copies")),
            zone=self.named((*path, "zone")) if self.has((*path, "zone")) else None,
            wild=self.expr((*path, "wild")), pos=self.pos(path),
            joker_names=listed("joker_names"),
            colours=tuple((d.Named(str(suit), self.pos((*path, "colours", suit), key=True)),
                           str(colour))
                          for suit, colour in (spec.get("colours") or {}).items()))

    def value_table(self, key: str) -> d.ValueTableDecl:
        path = ("values", key)
        entries = tuple((d.Named(str(rank), self.pos((*path, rank), key=True)),
                         d.Literal(number, self.pos((*path, rank))))
                        for rank, number in (self._get(path) or {}).items())
        return d.ValueTableDecl(self.named(path, key=True), entries, self.pos(path))

    def melds(self) -> d.MeldsDecl:
        path = ("melds",)
        spec = self._get(path)
        kinds = tuple(self.meld_kind((*path, "kinds", k)) for k in range(len(spec["kinds"])))
        value = self.named((*path, "value")) if "value" in spec else None
        return d.MeldsDecl(value, kinds, self.pos(path))

    def meld_kind(self, path: Path) -> d.MeldKindDecl:
        spec = self._get(path)
        ace_path = (*path, "ace")
        ace: d.Literal | n.Expr | None = self.literal(ace_path) \
            if spec.get("ace") in ACE_PLACES else self.expr(ace_path)
        return d.MeldKindDecl(
            self.named((*path, "name")), spec["kind"], self.expr((*path, "min")),
            self.expr((*path, "max")), self.expr((*path, "wilds")), ace, self.pos(path))

    def zone(self, i: int) -> d.ZoneDecl:
        path = ("zones", i)
        spec = self._get(path)
        return d.ZoneDecl(
            name=self.named((*path, "name")), owned=spec.get("owner", "none") == "each",
            visibility=spec.get("visibility", "public"), layout=spec.get("layout", "stack"),
            rows=self.literal((*path, "rows")), columns=self.literal((*path, "columns")),
            groups=self.literal((*path, "groups")), doc=self.doc_text((*path, "doc")),
            pos=self.pos(path), keep=bool(spec.get("keep", False)))

    def variable(self, i: int) -> d.VariableDecl:
        path = ("variables", i)
        spec = self._get(path)
        declared = self.named((*path, "type")) if "type" in spec else None
        until = self.named((*path, "secret_until")) if "secret_until" in spec else None
        return d.VariableDecl(self.named((*path, "name")), spec["scope"],
                              self.expr((*path, "initial")), declared,
                              spec.get("visibility", "public"), self.doc_text((*path, "doc")),
                              bool(spec.get("internal", False)), until,
                              self.doc_text((*path, "label")))

    def function(self, i: int) -> d.FunctionDecl:
        path = ("functions", i)
        return d.FunctionDecl(self.named((*path, "name")), self.params(path),
                              self.expr((*path, "value")), self.doc_text((*path, "doc")))

    def params(self, path: tuple[Any, ...]) -> tuple[tuple[d.Named, str], ...]:
        """A function's or a procedure's `params:`, each name with its type, in order."""
        return tuple((self.named((*path, "params", name), key=True), str(kind))
                     for name, kind in (self._get((*path, "params")) or {}).items())

    def procedure(self, i: int) -> d.ProcedureDecl:
        path = ("procedures", i)
        return d.ProcedureDecl(self.named((*path, "name")), self.params(path),
                               self.statements((*path, "do")), self.doc_text((*path, "doc")))

    def phase(self, i: int) -> d.PhaseDecl:
        path = ("round", "phases", i)
        spec = self._get(path)
        steps = tuple(self.step((*path, "steps", j)) for j in range(len(spec["steps"])))
        return d.PhaseDecl(self.named((*path, "name")), spec["turns"], steps,
                           self.expr((*path, "skip_turn")),
                           self.statements((*path, "on_skip")), self.doc_text((*path, "doc")),
                           self.pos(path), self.expr((*path, "first")),
                           self.expr((*path, "when")))

    def step(self, path: Path, name: str | None = None) -> d.StepDecl:
        spec = self._get(path)
        moves = tuple(self.move((*path, "moves", k)) for k in range(len(spec["moves"])))
        step_name = d.Named(name, self.pos(path)) if name else self.named((*path, "name"))
        return d.StepDecl(step_name, self.expr((*path, "repeat")), moves,
                          self.doc_text((*path, "doc")), self.pos(path),
                          bool(spec.get("automatic", False)))

    def move(self, path: Path) -> d.MoveDecl:
        spec = self._get(path)
        name = self.named((*path, "name"))
        label_text = spec.get("label", str(spec["name"]).replace("_", " "))
        label = self.text((*path, "label"), "label") if "label" in spec else \
            n.Label((label_text,), pos=self.pos((*path, "name")))
        params = tuple(d.ParamDecl(self.named((*path, "choose", key), key=True),
                                   self.text((*path, "choose", key), "domain"))
                       for key in spec.get("choose", {}))
        return d.MoveDecl(
            name=name, label=label, label_text=label_text, doc=self.doc_text((*path, "doc")),
            when=self.expr((*path, "when")), params=params,
            body=self.statements((*path, "do")),
            then=self.named((*path, "then")) if "then" in spec else None, pos=self.pos(path))

    def trigger(self, i: int) -> d.TriggerDecl:
        path = ("triggers", i)
        spec = self._get(path)
        kind = f"after_{spec['after']}" if "after" in spec else f"before_{spec['before']}"
        return d.TriggerDecl(self.named((*path, "name")), kind,
                             self.expr((*path, "when")), self.statements((*path, "do")),
                             self.doc_text((*path, "doc")))

    def scoring(self) -> d.ScoringDecl:
        path = ("scoring",)
        spec = self._get(path) or {}
        entries = tuple(d.ScoreDecl(self.named((*path, "round", k, "name")),
                                    self.expr((*path, "round", k, "score")),
                                    self.doc_text((*path, "round", k, "doc")))
                        for k in range(len(spec.get("round", []))))
        by_pos = self.pos((*path, "by")) if "by" in spec else None
        return d.ScoringDecl(spec.get("by", "player"), by_pos, spec.get("winner", "lowest"),
                             self.expr((*path, "rounds")),
                             self.expr((*path, "until")), self.expr((*path, "evaluate")),
                             entries, spec.get("stakes", "win"),
                             self.pos((*path, "stakes")) if "stakes" in spec else None)
