"""What the server answers, worked out from an analysis (lsp/analysis.py), in the compiler's
terms: places are 1-based lines and columns of characters, as diagnostics have them (the
server turns them into the editor's positions). Hover, definition, references and
the outline; completion is lsp/completion.py, rename lsp/rename.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from cardrules.dsl import builtins as b
from cardrules.dsl.inherit import parent_path, parent_reference
from cardrules.dsl.loader import referenced_file, rule_file_text
from cardrules.errors import Location, RulesetError

from . import schema_keys
from .analysis import Analysis
from .index import Index, Occurrence, Symbol, type_word
from .places import Place


# ------------------------------------------------------------------- hover
def hover(analysis: Analysis, line: int, column: int) -> tuple[str, Place] | None:
    """Markdown about what is at a place, and the stretch it covers."""
    index = analysis.index
    if index is not None:
        found = index.at(analysis.path, line, column)
        if found is not None:
            text = describe(found, index)
            if text:
                return text, found.place
    return key_hover(analysis, line, column)


def describe(found: Occurrence, index: Index) -> str:
    """What an occurrence names, in markdown: a signature or declaration, then its doc."""
    if found.symbol is not None:
        return describe_symbol(found.symbol, found)
    if found.builtin is not None:
        return describe_builtin(*found.builtin)
    if found.text is not None:
        return describe_text(found.text, index)
    return ""


def _block(code: str, doc: str = "") -> str:
    return f"```\n{code}\n```" + (f"\n\n{doc}" if doc else "")


def describe_builtin(table: str, name: str) -> str:
    """A built-in's signature and its doc, from the registry (dsl/builtins.py)."""
    if table == "function":
        fn = b.FUNCTIONS[name]
        params = [type_word(t) for t in fn.params]
        if fn.variadic:
            params.append("...")
        returns = type_word(fn.returns) + (" or none" if fn.nullable else "")
        return _block(f"{name}({', '.join(params)}) -> {returns}", fn.doc)
    if table == "aggregate":
        agg = b.AGGREGATES[name]
        return _block(f"{name}({type_word(agg.element).upper().replace(' ', '_')} for x in "
                      f"LIST [if CONDITION]) -> {type_word(agg.returns)}", agg.doc)
    if table == "name":
        item = b.NAMES[name]
        return _block(f"{name}: {type_word(item.type)}", item.doc)
    if table == "card attribute":
        kind, _, doc = b.CARD_ATTRIBUTES[name]
        return _block(f"card.{name}: {type_word(kind)}", doc)
    if table == "player attribute":
        kind, _, doc = b.PLAYER_ATTRIBUTES[name]
        return _block(f"player.{name}: {type_word(kind)}", doc)
    if table == "construct":
        construct = b.CONSTRUCTS[name]
        return _block(construct.syntax, construct.doc)
    if table == "local":
        what = {"p": "the player being scored", "card": "the card being tested"}.get(name, "")
        return _block(f"{name}: {'player' if name == 'p' else 'card'}", what.capitalize() + ".")
    return ""


def describe_symbol(symbol: Symbol, found: Occurrence | None = None) -> str:
    """A declaration: its kind, name and type or details, then its doc and where it is."""
    kind = found.type if found is not None and found.type is not None else symbol.type
    head = f"{symbol.kind} {symbol.name}"
    if symbol.kind == "function" and symbol.detail:
        head = f"function {symbol.detail}"
    elif kind is not None:
        head += f": {type_word(kind)}"
    lines = [head]
    if symbol.detail and symbol.kind != "function":
        lines.append(f"({symbol.detail})")
    if symbol.parent is not None and symbol.kind in ("step", "move"):
        lines.append(f"in {symbol.parent.kind} {symbol.parent.name}")
    text = _block("\n".join(lines), symbol.doc)
    if symbol.place is not None:
        text += f"\n\nDeclared at {Path(symbol.place.path).name}:{symbol.place.start.line}"
    return text


def describe_text(value: str, index: Index) -> str:
    """What a text names in this deck: a rank, a suit, a colour, a card, a meld kind or an
    option's choice (a text that names nothing is said to, for a text compared with one)."""
    said = text_meanings(value, index)
    if not said:
        return _block(repr(value), "A text; it names no rank, suit or card of this deck.")
    return _block(repr(value), "; ".join(s[:1].upper() + s[1:] for s in said) + ".")


def text_meanings(value: str, index: Index) -> list[str]:
    """Each thing a text names in this ruleset, in words."""
    said: list[str] = []
    ranks, suits = index.ranks, index.suits
    if value in ranks:
        said.append(f"rank {value} of this deck: the {_nth(ranks.index(value) + 1)} of "
                    f"{len(ranks)} ranks, from low to high")
    if value in suits:
        said.append(f"suit {value} of this deck: the {_nth(suits.index(value) + 1)} of "
                    f"{len(suits)} suits")
    if value == "joker" and index.jokers:
        said.append(f"the jokers' rank and suit ({index.jokers} jokers in a deck)")
    if value in ("red", "black"):
        said.append(f"colour {value}")
    cards = [(r, s) for r in ranks for s in suits if r + s[:1].upper() == value]
    if value == "JK" and index.jokers:
        said.append("card JK: a joker")
    for rank, suit in cards:
        said.append(f"card {value}: the {rank} of {suit}")
    if value in index.meld_kinds:
        said.append(f"meld kind {value} (a {index.meld_kinds[value]})")
    for option, choices in index.choices.items():
        if value in choices:
            said.append(f"a choice of option {option}")
    return said


def _nth(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(
        number % 10, "th")
    return f"{number}{suffix}"


def key_hover(analysis: Analysis, line: int, column: int) -> tuple[str, Place] | None:
    """A YAML key of the file: what the schema says of it."""
    own = analysis.own
    if own is None:
        return None
    for path, span in own.key_spans.items():
        start, end = (span.line, span.column), (span.end_line, span.end_column)
        if span.end_line and start <= (line, column) <= end:
            keys = [schema_keys.ITEM if isinstance(p, int) else str(p) for p in path]
            text = schema_keys.description(keys)
            if not text:
                return None
            place = Place(Location(own.path, *start), Location(own.path, *end))
            return _block(f"{keys[-1]}:", text), place
    return None


# ------------------------------------------------- definitions and references
def definition(analysis: Analysis, line: int, column: int) -> list[Place]:
    """Where the name at a place is declared; for `extends:`, the parent file's start."""
    parent = parent_at(analysis, line, column)
    if parent is not None:
        return [parent]
    symbol = symbol_at(analysis, line, column)
    return [symbol.place] if symbol is not None and symbol.place is not None else []


def parent_at(analysis: Analysis, line: int, column: int) -> Place | None:
    """The parent's file when the place is the value of `extends:`, found as the loader
    finds it (beside the file, or a built-in ruleset)."""
    own = analysis.own
    if own is None:
        return None
    span = own.spans.get(("extends",))
    reference = parent_reference(own)
    if span is None or reference is None or span.line != line or column < span.column:
        return None
    try:  # (as the loader finds it: a rule file's name, never any other file asked about)
        found = referenced_file(parent_path(own, reference[0]), "a parent's name")
        rule_file_text(found)
    except RulesetError:
        return None
    start = Location(str(found.resolve()), 1, 1)
    return Place(start, start)


def symbol_at(analysis: Analysis, line: int, column: int) -> Symbol | None:
    index = analysis.index
    if index is None:
        return None
    found = index.at(analysis.path, line, column)
    return found.symbol if found is not None else None


def references(analysis: Analysis, line: int, column: int, declaration: bool) -> list[Place]:
    """Every place that names the symbol at a place (its declaration too, if asked)."""
    symbol = symbol_at(analysis, line, column)
    if symbol is None or analysis.index is None:
        return []
    return [o.place for o in analysis.index.uses(symbol)
            if declaration or o.place != symbol.place]


# ------------------------------------------------------------------ outline
@dataclass
class Outline:
    """One entry of an editor's outline of the file."""

    name: str
    kind: str
    detail: str
    place: Place
    body: Place
    children: list[Outline] = field(default_factory=list)


OUTLINED = ("phase", "step", "move", "function", "zone", "variable", "option", "trigger")


def outline(analysis: Analysis) -> list[Outline]:
    """The file's phases (with their steps and moves), functions, zones, variables, options
    and triggers, as declared in this file."""
    index = analysis.index
    if index is None:
        return []
    made: dict[int, Outline] = {}
    top: list[Outline] = []
    for symbol in index.symbols:
        if symbol.kind not in OUTLINED or symbol.place is None or \
                symbol.place.path != analysis.path:
            continue
        body = symbol.body if symbol.body is not None and \
            symbol.body.path == analysis.path else symbol.place
        body = Place(min(body.start, symbol.place.start, key=_key),
                     max(body.end, symbol.place.end, key=_key))
        entry = Outline(symbol.name, symbol.kind, symbol.detail, symbol.place, body)
        made[id(symbol)] = entry
        holder = made.get(id(symbol.parent)) if symbol.parent is not None else None
        (holder.children if holder is not None else top).append(entry)
    return top


def _key(where: Location) -> tuple[int, int]:
    return (where.line, where.column)
