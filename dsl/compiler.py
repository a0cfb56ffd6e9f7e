"""A checked document to a compiled Ruleset: the stages after the schema, in order.

    read (reader.py)      document -> declarations, every piece of rule text parsed
    check (checker.py)    declarations -> checked program, every problem reported
    generate (codegen.py) checked program -> Python syntax tree, with its sites
    bind (binding.py)     syntax tree -> compiled functions, run once
    assemble (here)       -> the immutable Ruleset the engine plays
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import cache
from typing import Any

from cardrules.errors import Diagnostic, Location, RulesetError
from cardrules.interpreter import effects, flow, runtime
from cardrules.interpreter.melding import MeldRules
from cardrules.model import (
    CardTable,
    FlowFacts,
    LabelValue,
    MoveDef,
    PhaseDef,
    Ruleset,
    StepDef,
    VariableDef,
    ZoneDef,
)

from . import ir
from . import nodes as n
from .binding import Bound, NestedTooDeep, bind, forget_lines
from .cards import NO_COLOUR
from .checker import Checked, check
from .codegen import Generated, Generator, Manifest
from .codegen_flow import FlowGenerator, flow_facts
from .codegen_stmt import VISIBILITY
from .inline import Inliner
from .listing import listing
from .reader import read
from .reads import least_written_number, locals_read, reads_knowledge
from .source import Document
from .typesys import Type


@cache
def inliner() -> Inliner:
    """The specialiser of the runtime's card rules and turn flow (its source is read once)."""
    return Inliner(runtime, {**runtime.INLINABLE, **effects.INLINABLE, **flow.INLINABLE})


def compile_document(doc: Document, options: dict[str, Any] | None = None,
                     inline: bool = True) -> Ruleset:
    """Compile a structurally valid document; RulesetError with every problem found.
    `inline=False` calls the runtime's card rules instead of specialising them."""
    return compile_checked(check_document(doc, options), doc, inline)


def compile_checked(checked: Checked, doc: Document, inline: bool = True) -> Ruleset:
    """The stages after the meaning check, for a document already checked."""
    facts = flow_facts(checked.program, checked.direction,
                       checked.decls.repetition == "forbid")
    try:
        generated = generate(checked, facts, inline)
    except RecursionError:
        raise _too_deep(doc) from None
    board = board_of(checked)
    try:
        bound = bind(generated, checked.decls.name.name, tables(checked, board))
    except NestedTooDeep:
        raise _too_deep(doc) from None
    rules = assemble(checked, board, bound, generated, doc, facts,
                     _Listing(checked, facts, inline, None))
    return replace(rules, kernel=_Kernel(checked, board, doc, facts, inline))


class _Listing:
    """The generated module as a person reads it (dsl/listing.py), written the first time it
    is asked for (`cardrules show --stage python`; a game never asks): the generator is run
    again on the same checked program and facts, and writes the same module."""

    def __init__(self, checked: Checked, facts: FlowFacts, inline: bool,
                 effects: dict[str, Any] | None):
        self.args = (checked, facts, inline, effects)
        self.text: str | None = None

    def __call__(self) -> str:
        if self.text is None:
            self.text = listing(generate(*self.args))
        return self.text


class _Kernel:
    """The rules compiled again for a playout kernel, the first time they are asked for: the
    same checked program, generator and inlined card rules and turn flow, specialised with
    other facts (no log, no cache of legal actions, and who knows each card kept only where
    a rule asks)."""

    def __init__(self, checked: Checked, board: runtime.Board, doc: Document,
                 facts: FlowFacts, inline: bool):
        self.args = (checked, board, doc, facts, inline)
        self.made: Ruleset | None = None
        self.let_go = False  # its ruleset is no longer kept (`let_go`): nor is its source

    def __call__(self) -> Ruleset:
        if self.made is None:
            checked, board, doc, facts, inline = self.args
            facts = replace(facts, caching=False)
            # (a position, where repetition is forbidden, is what the table knows)
            effects = {"knowing": reads_knowledge(checked.program) or facts.forbid_repetition,
                       "logging": False}
            generated = generate(checked, facts, inline, effects)
            bound = bind(generated, f"{checked.decls.name.name} kernel", tables(checked, board))
            made = assemble(checked, board, bound, generated, doc, facts,
                            _Listing(checked, facts, inline, effects))
            self.made = replace(made, knowing=effects["knowing"])
            if self.let_go:  # (made for a game of a ruleset no longer kept)
                forget_lines(self.made.code_name)
        return self.made


def code_names(rules: Ruleset) -> list[str]:
    """The names a ruleset's generated modules were compiled under: its engine's, and its
    kernel's where it was made."""
    names = [rules.code_name]
    kernel = rules.kernel
    if isinstance(kernel, _Kernel) and kernel.made is not None:
        names.append(kernel.made.code_name)
    return names


def let_go(rules: Ruleset) -> list[str]:
    """A ruleset no longer kept: the names of its generated modules (`code_names`), and its
    kernel, if it is made from here on (for a game still playing it), keeps no source."""
    if isinstance(rules.kernel, _Kernel):
        rules.kernel.let_go = True
    return code_names(rules)


def generate(checked: Checked, facts: FlowFacts, inline: bool = True,
             effects: dict[str, Any] | None = None) -> Generated:
    """The module of a checked program: its rules' functions, then each move's handler
    (`effects`: what the card rules take as known, Generator's)."""
    generator = Generator(checked, inliner() if inline else _NO_INLINING, effects)
    generator.rules()
    FlowGenerator(generator, facts).generate()
    return generator.module()


def board_of(checked: Checked) -> runtime.Board:
    """The zones of a checked program, every instance by index (see make_board)."""
    house = checked.house.index if checked.house is not None else -1
    return make_board(checked.zones, checked.max_players + (house >= 0), checked.cards.names,
                      house)


def check_document(doc: Document, options: dict[str, Any] | None = None) -> Checked:
    """Read and check a document; RulesetError with every problem, in file order."""
    try:
        decls, problems = read(doc)
        checked, found = check(decls, options)
    except RecursionError:  # each bound is checked, but bounds can multiply (docs/grammar.md)
        raise _too_deep(doc) from None
    if problems or found or checked is None:
        located = sorted(problems + found, key=_order)
        raise RulesetError(_once(located))
    return checked


def _too_deep(doc: Document) -> RulesetError:
    return RulesetError([Diagnostic(Location(doc.path, 1, 1), "this file is too deeply nested "
                                    "to check: its expressions, blocks, functions and "
                                    "procedures, one inside another, go deeper than cardrules "
                                    "can follow")])


def _order(diagnostic: Diagnostic) -> tuple[int, int]:
    loc = diagnostic.location
    return (loc.line, loc.column) if loc else (0, 0)


def _once(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Each diagnostic once (a node reachable twice, through a YAML alias, is one problem)."""
    seen: set[tuple[Any, str]] = set()
    out = []
    for d in diagnostics:
        key = (d.location, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


class _NoInlining(Inliner):
    def __init__(self) -> None:
        self.defs = {}
        self.counts = {}
        self.available = False
        self.constants = {}


_NO_INLINING = _NoInlining()


def make_board(zones: tuple[ZoneDef, ...], owners: int, card_names: tuple[str, ...],
               house: int = -1) -> runtime.Board:
    """Every zone instance (one per owner of an owned zone: each seat the ruleset allows,
    then the house if it has one; one per group) by index."""
    names: list[str] = []
    owner: list[int] = []
    vis: list[int] = []
    grid: list[bool] = []
    slots: list[int] = []
    width: list[int] = []
    trick: list[bool] = []
    group: list[int] = []
    for z in zones:
        for seat in range(owners if z.owned else 1):
            for g in range(max(z.groups, 1)):
                group.append(g if z.groups else -1)
                names.append(z.name)
                owner.append(seat if z.owned else -1)
                vis.append(VISIBILITY[z.visibility])
                grid.append(z.layout == "grid")
                slots.append(z.rows * z.columns if z.layout == "grid" else 1 << 30)
                width.append(z.columns)
                trick.append(z.layout == "trick")
    return runtime.Board(tuple(names), tuple(owner), tuple(vis), tuple(grid), tuple(slots),
                         tuple(width), card_names, tuple(trick), house, tuple(group))


def suit_colours(cards: CardTable) -> tuple[int, ...]:
    """Each suit's colour, by the suit's number (the jokers' suit, the last: none)."""
    first = {suit: card for card, suit in reversed(list(enumerate(cards.suit)))}
    return tuple(cards.colour[first[s]] if s in first and not cards.joker[first[s]]
                 else NO_COLOUR for s in range(len(cards.suit_names)))


def tables(checked: Checked, board: runtime.Board) -> dict[str, Any]:
    """The values generated code reads by name: the board, the card tables, the deck."""
    cards = checked.cards
    out: dict[str, Any] = {
        "B": board, "DIRECTION": checked.direction, "N_RANKS": len(cards.rank_names) - 1,
        "TEAMS": checked.teams or 1,
        "HOUSE": checked.house.index if checked.house is not None else -1,
        "RANKS": list(range(len(cards.rank_names) - 1)),
        "SUITS": list(range(len(cards.suit_names) - 1)), "COLOURS": [0, 1],
        "SUIT_COLOURS": suit_colours(cards),
        "T_rank": cards.rank, "T_suit": cards.suit, "T_colour": cards.colour,
        "T_number": cards.number, "T_joker": cards.joker, "T_wild": cards.wild,
        "FACES": list(board.faces),
    }
    for name, table in cards.values.items():
        out["T_" + name] = table
    if checked.decls.melds is not None:
        out["MELDS"] = meld_rules(checked)
    return out


def meld_rules(checked: Checked) -> MeldRules:
    """The declared kinds of meld with the card tables the search reads."""
    cards = checked.cards
    n_ranks = len(cards.rank_names) - 1
    ace = cards.rank_names.index("A") if "A" in cards.rank_names[:n_ranks] else -1
    value = cards.number if checked.meld_value == "number" else cards.values[checked.meld_value]
    return MeldRules(checked.melds, cards.rank, cards.suit, cards.wild, cards.names, value,
                     n_ranks, ace)


def location(pos: n.Pos) -> Location:
    found = pos.diagnostic("").location
    assert found is not None
    return found


def assemble(checked: Checked, board: runtime.Board, bound: Bound, generated: Generated,
             doc: Document, facts: FlowFacts, python: Callable[[], str]) -> Ruleset:
    """The Ruleset: the checked declarations, and each generated function as the generator's
    manifest names it."""
    fn = _Functions(bound.namespace, generated.manifest)
    made = generated.manifest
    program = checked.program
    phases = tuple(_phase(checked, p, i, fn) for i, p in enumerate(program.phases))
    reactions = _step(checked, program.reactions, made.reactions, fn) \
        if program.reactions is not None else None
    moves = {m.name: m for p in phases for s in p.steps for m in s.moves}
    if reactions is not None:
        moves |= {m.name: m for m in reactions.moves}
    decls = checked.decls
    return Ruleset(
        name=decls.name.name, title=decls.title, summary=decls.summary, path=doc.path,
        min_players=checked.min_players, max_players=checked.max_players,
        default_players=checked.default_players, direction=checked.direction,
        options=checked.options, option_defs=checked.option_defs, cards=checked.cards,
        copies=checked.copies, home_zone=checked.home_zone, zones=checked.zones,
        zone_count=len(board.names), board=board,
        variables=tuple(VariableDef(v.name, v.scope, fn(made.initial[v.name]), v.doc,
                                    v.visibility, v.type.name,
                                    v.type.item.name if v.type.item else "", v.internal,
                                    v.secret_until, v.label, _inner(v.type))
                        for v in program.variables),
        phases=phases, setup=fn(made.setup), round_end=fn(made.round_end),
        after_move=fn(made.triggers.get("after_move")),
        after_turn=fn(made.triggers.get("after_turn")),
        after_round=fn(made.triggers.get("after_round")),
        after_setup=fn(made.triggers.get("after_setup")),
        before_turn=fn(made.triggers.get("before_turn")), round_first=fn(made.round_first),
        teams=checked.teams, score_by=checked.score_by, max_actions=checked.max_actions,
        score=fn(made.score), score_names=tuple(s.name for s in program.scores)
        + (("in play",) if program.in_play else ()),
        evaluate=fn(made.evaluate), winner=decls.scoring.winner, rounds=checked.rounds,
        until=fn(made.until), reactions=reactions, moves=moves, python_listing=python,
        data=doc.data, sites=tuple(generated.sites), evaluate_key=fn(made.evaluate_key),
        code_name=bound.code_name, house=checked.house,
        line_sites=bound.line_sites, flow=facts, tells=generated.tells,
        melds=bound.namespace.get("MELDS"), stakes=decls.scoring.stakes)


class _Functions:
    """The bound module's functions, looked up by the names the manifest gives."""

    def __init__(self, namespace: dict[str, Any], manifest: Manifest):
        self.namespace = namespace
        self.manifest = manifest

    def __call__(self, name: str | None) -> Any:
        """The function of that name, or None where the generator wrote none."""
        return None if name is None else self.namespace[name]


def _phase(checked: Checked, phase: ir.Phase, index: int, fn: _Functions) -> PhaseDef:
    made = fn.manifest
    steps = tuple(_step(checked, s, made.legal[index, s.name], fn) for s in phase.steps)
    site = phase.skip_turn.pos.diagnostic("") if phase.skip_turn is not None else None
    when = phase.when.pos.diagnostic("") if phase.when is not None else None
    return PhaseDef(phase.name, phase.turns, steps, fn(made.skip.get(index)),
                    fn(made.on_skip.get(index)), fn(made.first.get(index)),
                    fn(made.when.get(index)), skip_site=site, when_site=when)


def _step(checked: Checked, step: ir.Step, legal: str | None, fn: _Functions) -> StepDef:
    moves = tuple(_move(checked, m, fn) for m in step.moves)
    return StepDef(step.name, step.repeat, moves, fn(legal), location(step.pos),
                   step.automatic, step.pos.diagnostic(""))


def _move(checked: Checked, move: ir.Move, fn: _Functions) -> MoveDef:
    info = checked.moves[move.name]
    parts: list[tuple[str, str]] = []
    for part in move.label.parts:
        if not isinstance(part, n.Placeholder):
            parts.append(("text", part))
        elif part.expr is None:
            parts.append(("param", part.name))
        else:
            parts.append(("value", str(sum(kind == "value" for kind, _ in parts))))
    text = "".join(f"{{{p.name}}}" if isinstance(p, n.Placeholder) else p
                   for p in move.label.parts)
    made = fn.manifest
    names = [p.name for p in move.params]
    values = tuple(LabelValue(value.type.name, fn(name), tuple(
        names.index(local) + 1 for local in sorted(locals_read(value) & set(names))
        if info.names_cards[names.index(local)]))
        for value, name in zip(move.label_values, made.labels.get(move.name, ())))
    numbers = [part for param, kind, cards in zip(move.params, info.kinds, info.names_cards)
               if kind == "int" or (kind == "list" and not cards)
               for part in (param.source, param.where) if part is not None]
    return MoveDef(move.name, text, tuple(names), info.kinds,
                   fn(made.moves[move.name]), move.then, location(move.pos), move.doc,
                   info.names_cards, tuple(parts), fn(made.handlers.get(move.name)), values,
                   least_written_number(numbers, checked.program.functions,
                                        checked.cards.values))


def _inner(t: Type) -> tuple[str, ...]:
    """The types below a list's items (a list of lists), outermost first."""
    out: list[str] = []
    item = t.item.item if t.item is not None else None
    while item is not None:
        out.append(item.name)
        item = item.item
    return tuple(out)
