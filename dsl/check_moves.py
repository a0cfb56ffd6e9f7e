"""Stage 4 for a move: its parameters, its label (the options it names, the values it shows,
worked out from the move's choices alone) and its rules, checked into an ir.Move; what the
engine and the people need of it besides its code (MoveInfo)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from . import decls as d
from . import ir
from . import nodes as n
from .check_expr import BAD, known
from .check_table import TableChecker
from .names import did_you_mean
from .reads import outside_reads
from .typesys import ANY, CARD, TEXT, UNCHECKED, WORDS, Type

# What a label's expression may show (a card is named by its parameter alone: `{card}`).
LABEL_TYPES = frozenset({"int", "text", "rank", "suit", "colour", "player"})


def _read_name(node: ir.Expr) -> str:
    """What a part of an expression reads of the game, in words."""
    if isinstance(node, (ir.ZoneRef, ir.ZoneCards)):
        zone = node.zone if isinstance(node, ir.ZoneRef) else node.ref.zone
        return f"zone '{zone.name}'"
    if isinstance(node, (ir.GameVar, ir.PlayerVar)):
        return f"variable '{node.name}'"
    if isinstance(node, ir.PlayerAttr):
        return f"a player's {node.name}"
    if isinstance(node, (ir.Call, ir.UserCall)):
        return f"'{node.function}'"
    return f"'{getattr(node, 'name', '?')}'"


@dataclass(frozen=True)
class MoveInfo:
    """What the engine and the people need of a move besides its code."""

    kinds: tuple[str, ...]  # each parameter's type name
    names_cards: tuple[bool, ...]


class MoveChecker(TableChecker):
    """Checks a move of a step (the ruleset's checker is one)."""

    move_infos: dict[str, MoveInfo]

    def move(self, spec: d.MoveDecl, step_names: list[str]) -> ir.Move | None:
        """A move of a step among `step_names` (none: a reaction, which is in no phase)."""
        name = spec.name.name
        then = None
        if spec.then is not None:
            if not step_names:
                self.problem(spec.then.pos, "a reaction is made out of turn, in no phase's "
                             "steps: it takes no `then` (play goes on where it was)")
            elif spec.then.name in step_names:
                then = step_names.index(spec.then.name)
            else:
                self.problem(spec.then.pos, f"no step '{spec.then.name}' in this phase"
                             + did_you_mean(spec.then.name, step_names))
        param_names = [p.name.name for p in spec.params]
        label = spec.label
        if label is not None:
            label = self.options_shown(label, param_names)
            self.check_label(label, param_names)
        self.has_me = True
        self.not_yet_chosen = tuple(param_names)
        try:
            when = self.condition(spec.when) if spec.when is not None else None
        finally:
            self.not_yet_chosen = ()
        if when is not None and known(when) and when.value:  # type: ignore[attr-defined]
            when = None
        saved = dict(self.scope)
        try:
            params = tuple(p for p in (self.parameter(p) for p in spec.params) if p is not None)
            shown = self.label_values(label, params) if label is not None else None
            body = self.statements(spec.body)
        finally:
            self.scope = saved
        if label is None or shown is None or when is BAD \
                or len(params) != len(spec.params):
            return None
        kinds = tuple(p.type.name for p in params)
        self.move_infos[name] = MoveInfo(kinds, tuple(_names_cards(p.type) for p in params))
        return ir.Move(name, label, spec.doc, when, params, body, then, spec.pos, shown)

    def options_shown(self, label: n.Label, params: list[str]) -> n.Label:
        """The label with each placeholder that names an option, not a parameter of the move
        (`{knock_card}`), made an expression that shows the option's value."""
        parts = tuple(replace(part, expr=n.Name(part.name, pos=part.pos))
                      if isinstance(part, n.Placeholder) and part.expr is None
                      and part.name not in params and part.name in self.symbols.options
                      else part for part in label.parts)
        return label if parts == label.parts else replace(label, parts=parts)

    def parameter(self, spec: d.ParamDecl) -> ir.Param | None:
        name = spec.name.name
        domain = spec.domain
        if self.clash(name, spec.name.pos):
            return None
        self.hides(name, spec.name.pos, "parameter")
        self.scope[name] = (UNCHECKED, False)  # until its domain is known to check
        if domain is None:
            return None
        self.choosing = True  # (the one place words(...) means something: check_calls)
        try:
            first = self.check(domain.source)
        finally:
            self.choosing = False
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

    def label_values(self, label: n.Label, params: tuple[ir.Param, ...]
                     ) -> tuple[ir.Expr, ...] | None:
        """A label's expressions (`{count(cs)}`), checked with the parameters bound: each
        shows a number, a text, a rank, a suit, a colour or a player, worked out from the
        move's choices alone (so that what it shows is what the action says), else None."""
        chosen = frozenset(p.name for p in params)
        out: list[ir.Expr] = []
        for placeholder in label.expressions:
            assert placeholder.expr is not None
            code = self.check(placeholder.expr)
            if code is BAD:
                continue
            if code.type.name not in LABEL_TYPES:
                article = "a " if code.type.is_list else ""
                self.problem(placeholder.pos, f"a label shows a number, a text, a rank, a suit, "
                             f"a colour or a player, not {article}{code.type}"
                             + (": name a chosen card by its parameter alone ('{card}')"
                                if code.type == CARD else ""))
                continue
            outside = outside_reads(code, chosen)
            if outside is not None:
                self.problem(outside.pos, "a label's value is worked out from the move's "
                             f"choices alone, but this reads {_read_name(outside)}")
                continue
            out.append(self.needed(code, placeholder.pos, "the label's value"))
        return tuple(out) if len(out) == len(label.expressions) else None

    def check_label(self, label: n.Label, params: list[str]) -> None:
        for placeholder in label.placeholders:
            if placeholder.name not in params:
                self.problem(placeholder.pos, f"the label names '{{{placeholder.name}}}', but "
                             "the move chooses " + (", ".join(params) if params else "nothing"))


def _names_cards(t: Type) -> bool:
    """Whether a parameter of type t is a card or a list (of lists...) of cards."""
    while t.is_list and t.item is not None:
        t = t.item
    return t.name == "card"
