"""What the server answers, worked out from an analysis (lsp/analysis.py), in the compiler's
terms: places are 1-based lines and columns of characters, as diagnostics have them (the
server turns them into the editor's positions).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from cardrules.dsl import builtins as b
from cardrules.dsl.inherit import parent_path, parent_reference
from cardrules.dsl.loader import builtin_names, resolve
from cardrules.dsl.parser import grammar_text
from cardrules.errors import Location, RulesetError

from . import schema_keys
from .analysis import Analysis
from .index import Index, Occurrence, Symbol, type_word
from .places import Place, split_lines

IDENTIFIER = re.compile(r"[a-z_][a-z0-9_]*")
_WORD_BEFORE = re.compile(r"[A-Za-z0-9_]*$")
# the words rule text reserves: the grammar's keywords (`_IF.2: /if\b/`, and up and down)
KEYWORDS = frozenset(word for found in re.findall(r"/\(?([a-z|]+)\)?\\b/", grammar_text())
                     for word in found.split("|"))


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
    try:
        found = resolve(parent_path(own, reference[0]), builtin_only=True)
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


# ------------------------------------------------------------------- rename
class RenameRefused(Exception):
    """A rename that would break the file, or of something that cannot be renamed."""


RENAMABLE = ("zone", "variable", "option", "function", "parameter", "local", "value table",
             "step", "phase", "move", "trigger", "meld kind", "score")


def renamable(analysis: Analysis, line: int, column: int) -> tuple[Symbol, Place]:
    """The user name at a place, if it may be renamed in this file; RenameRefused if not."""
    index = analysis.index
    found = index.at(analysis.path, line, column) if index is not None else None
    if found is None or found.symbol is None or index is None:
        raise RenameRefused("only a name this file declares can be renamed here")
    symbol = found.symbol
    if symbol.kind not in RENAMABLE:
        raise RenameRefused(f"a {symbol.kind} cannot be renamed")
    elsewhere = sorted({Path(o.place.path).name for o in index.uses(symbol)
                        if o.place.path != analysis.path})
    if elsewhere:
        raise RenameRefused(f"'{symbol.name}' is also written in {', '.join(elsewhere)}, "
                            "which this file extends: rename it there")
    return symbol, found.place


def rename(analysis: Analysis, line: int, column: int, new: str) -> list[Place]:
    """The places to rewrite to rename the name at a place; RenameRefused, saying why, for
    a new name that is not one or that another name already is."""
    symbol, _ = renamable(analysis, line, column)
    index = analysis.index
    assert index is not None
    if not IDENTIFIER.fullmatch(new) or new in KEYWORDS:
        raise RenameRefused(f"'{new}' is not a valid name here (use lower-case letters, "
                            "digits and _, from a letter or _, and no keyword)")
    if new == symbol.name:
        return []
    taken = {s.name for s in index.symbols if s.kind in ("zone", "variable", "option",
                                                          "function", "value table")}
    if symbol.kind in ("parameter", "local"):
        taken |= {s.name for s in index.symbols if s.parent is symbol.parent and
                  s.kind in ("parameter", "local")}
    elif symbol.kind not in ("zone", "variable", "option", "function", "value table"):
        taken = {s.name for s in index.symbols if s.kind == symbol.kind}
    if new in taken or new in b.NAMES or new in b.FUNCTIONS or new in b.AGGREGATES:
        raise RenameRefused(f"'{new}' already names something in this ruleset")
    places = [o.place for o in index.uses(symbol)]
    if symbol.kind == "meld kind":
        places += _kind_texts(analysis, index, symbol, new)
    return places


def _kind_texts(analysis: Analysis, index: Index, symbol: Symbol, new: str) -> list[Place]:
    """The insides of the texts ('trio') that name a meld kind in rule text, renamed with
    it; RenameRefused where a text could name something else too, or is not in this file."""
    if text_meanings(new, index):
        raise RenameRefused(f"'{new}' already names something in this ruleset")
    meanings = text_meanings(symbol.name, index)
    if len(meanings) > 1:
        raise RenameRefused(f"the text '{symbol.name}' names more than the meld kind here ("
                            f"{'; '.join(meanings)}): its texts cannot be told apart")
    places: list[Place] = []
    for found in index.occurrences:
        if found.text != symbol.name or found.aliased:
            continue
        start, end = found.place.start, found.place.end
        if found.place.path != analysis.path:
            raise RenameRefused(f"'{symbol.name}' is also written in "
                                f"{Path(found.place.path).name}, which this file extends: "
                                "rename it there")
        if start.line != end.line or end.column - start.column != len(symbol.name) + 2:
            raise RenameRefused(f"a text '{symbol.name}' is written with an escape or over "
                                f"lines (line {start.line}): rename it by hand")
        places.append(Place(Location(start.path, start.line, start.column + 1),
                            Location(end.path, end.line, end.column - 1)))
    return places


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


# --------------------------------------------------------------- completion
@dataclass(frozen=True)
class Item:
    """One completion: the word, what kind of thing it is, a line about it, its doc."""

    label: str
    kind: str
    detail: str = ""
    doc: str = ""


def complete(text: str, line: int, column: int, known: Analysis | None) -> list[Item]:
    """The words that may be written at a place of `text` (1-based line and column of the
    cursor). The text need not parse: the place is read from its lines alone, and the names
    from `known`, the last analysis of the file that could read them."""
    lines = split_lines(text)
    current = lines[line - 1] if 0 < line <= len(lines) else ""
    before = current[:column - 1]
    inner, entry, quoted = _scan(before)
    keys = key_path(lines, line - 1, before) + inner
    if quoted:  # (`wild: "...`: the text is the value of the entry's key)
        opened = re.match(r"^\s*([a-z_]+):\s", entry)
        return rule_text_items(before, [*keys, opened.group(1)] if opened else keys, known,
                               line)
    if re.fullmatch(r"\s*[A-Za-z_]*", entry):
        items: list[Item] = []
        if any("properties" in node for node in schema_keys.node_at(keys)):
            items += key_items(keys, lines)
        if schema_keys.is_rule_text(keys) or not items:
            items += rule_text_items(before, keys, known, line)
        return items
    value = re.match(r"^\s*([a-z_]+):\s+(.*)$", entry)
    if value is not None:
        key, written = value.group(1), value.group(2)
        plain = value_items([*keys, key], written, known, line)
        if plain is not None:
            return plain
        keys = [*keys, key]
    return rule_text_items(before, keys, known, line)


def _scan(before: str) -> tuple[list[str], str, bool]:
    """Read a line up to the cursor: the keys of the flow collections ({..., [...) open
    there (ITEM for a list's item), the text of the entry the cursor is in, and whether a
    quoted text is open."""
    levels: list[list[str]] = []
    lead = re.match(r"^\s*(?:-\s+)*", before)
    key, start, quote = "", lead.end() if lead else 0, ""
    for at, char in enumerate(before):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "[{":
            levels.append(([key] if key else []) + ([schema_keys.ITEM] if char == "[" else []))
            key, start = "", at + 1
        elif char in "]}":
            if levels:
                levels.pop()
            key = ""
        elif char == "," and levels:
            key, start = "", at + 1
        elif char == ":" and before[at + 1:at + 2] in (" ", ""):
            key = before[start:at].strip()
    return [k for level in levels for k in level], before[start:], bool(quote)


def key_path(lines: list[str], row: int, before: str) -> list[str]:
    """The keys of the mappings that hold the cursor, outermost first (ITEM for an item of a
    list), read from the indentation of the lines above alone, so that it works on text that
    does not parse."""
    content = re.match(r"^(\s*)((?:-\s+)*)", before)
    assert content is not None
    indent = len(content.group(0))  # where the cursor's key or value starts
    path: list[str] = []
    if content.group(2):  # the cursor's line is an item of a list
        path.append(schema_keys.ITEM)
        indent = len(content.group(1))
    for above in range(row - 1, -1, -1):
        if indent == 0:
            break
        text = lines[above]
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        found = re.match(r"^(\s*)((?:-\s+)*)(?:([A-Za-z_][\w-]*)\s*:(.*))?", text)
        assert found is not None
        dash, key, rest = len(found.group(1)), found.group(3), (found.group(4) or "").strip()
        at = dash + len(found.group(2))  # where the line's key starts
        if found.group(2) and dash < indent:  # `- key: ...`: an item holding the cursor
            if key and at < indent and (not rest or rest[0] in "|>#"):
                path.insert(0, key)  # ... under its key, `- do:`
            path.insert(0, schema_keys.ITEM)
            indent = dash
        elif not found.group(2) and at < indent:
            if key:
                path.insert(0, key)
            indent = at
    return path


def key_items(keys: list[str], lines: list[str]) -> list[Item]:
    """The keys the schema allows in the mapping at `keys` (at the top, those not written
    yet)."""
    allowed = schema_keys.keys_at(keys)
    if not keys:
        written = {m.group(1) for line in lines if (m := re.match(r"^([a-z_]+):", line))}
        allowed = {k: v for k, v in allowed.items() if k not in written}
    return [Item(key, "key", "key", text) for key, text in allowed.items()]


def value_items(keys: list[str], written: str, known: Analysis | None,
                line: int) -> list[Item] | None:
    """The values of a key that has a fixed list of them: the schema's, a step's name after
    `then:`, a built-in ruleset after `extends:`; None for rule text."""
    last = keys[-1]
    if last == "extends":
        return [Item(name, "ruleset", "built-in ruleset") for name in builtin_names()]
    if last == "then" and schema_keys.ITEM in keys and "moves" in keys:
        return [Item(s.name, "step", "step") for s in _steps_near(known, line)]
    listed = _LISTS.get(keys[-3]) if len(keys) >= 3 and keys[-2] == schema_keys.ITEM else None
    if listed and (last in ("insert_before", "insert_after") or
                   (last == "name" and known is not None and known.parents)):
        # an entry placed among, or merged into, the entries of a list (`extends:`)
        names = [s.name for s in known.index.globals(listed)] \
            if known is not None and known.index is not None else []
        return [Item(name, listed, f"{listed} {name}") for name in dict.fromkeys(names)]
    values = schema_keys.values_at(keys)
    if values:
        return [Item(v, "value", "/".join(k for k in keys if k != schema_keys.ITEM)) for v in
                values]
    if written.startswith(("[", "{")) or schema_keys.is_rule_text(keys):
        return None  # rule text, or a flow list of it
    return []


_LISTS = {"phases": "phase", "steps": "step", "moves": "move", "zones": "zone",
          "variables": "variable", "options": "option", "functions": "function",
          "triggers": "trigger"}


def _steps_near(known: Analysis | None, line: int) -> list[Symbol]:
    """The steps of the phase the line is in (every step if no phase holds it)."""
    if known is None or known.index is None:
        return []
    steps = known.index.globals("step")
    phases = [s for s in known.index.globals("phase") if s.body is not None and
              s.body.path == known.path and s.body.start.line <= line <= s.body.end.line]
    if phases:
        return [s for s in steps if s.parent is phases[-1]]
    return steps


def rule_text_items(before: str, keys: list[str], known: Analysis | None,
                    line: int) -> list[Item]:
    """Names for rule text: after a dot, attributes; inside a text, the deck's ranks and
    suits; else every name valid here, with the statements' words at a statement's start."""
    prefix = _WORD_BEFORE.search(before)
    start = prefix.start() if prefix else len(before)
    head = before[:start]
    index = known.index if known is not None else None
    if head.endswith("."):
        return attribute_items(index)
    if _in_text(before):
        return card_items(index)
    items = name_items(index, keys, line, known.path if known else "", len(before) + 1)
    if _starts_statement(head, keys):
        items += [Item(c.syntax.split(" ", 1)[0], "keyword", c.syntax, c.doc)
                  for c in b.CONSTRUCTS.values() if c.name in _STATEMENTS]
    return items


_STATEMENTS = ("move_cards", "deal_cards", "shuffle", "flip", "swap", "set", "let", "peek",
               "end_turn", "turn_to", "end_round", "end_phase", "end_game", "win", "eliminate",
               "reveal", "tell")
_STATEMENT_LISTS = ("do", "setup", "end", "then", "else", "on_skip")


def _starts_statement(head: str, keys: list[str]) -> bool:
    """Whether a statement starts where the cursor's word does: an item of a statement
    list, or the first word of a flow list's item."""
    listed = len(keys) >= 2 and keys[-1] == schema_keys.ITEM and keys[-2] in _STATEMENT_LISTS
    stripped = head.rstrip(" \"'")
    return (listed and re.fullmatch(r"\s*(?:-\s+)+[\"']?", head) is not None) or \
        stripped.endswith(("[", ",")) and re.search(r"\b(do|setup|end|then|else|on_skip):\s*\[",
                                                    head) is not None


def _in_text(before: str) -> bool:
    """Whether the cursor is inside a text of rule text ('K' in "c.rank == 'K'"): the value
    is read with its outer YAML quotes, and the other kind of quote opens a text."""
    value = re.sub(r"^\s*(?:-\s+)*(?:[a-z_]+:\s+)?", "", before)
    outer = value[:1] if value[:1] in "'\"" else ""
    inner = "'" if outer != "'" else '"'
    body = value[1:] if outer else value
    return body.count(inner) % 2 == 1


def attribute_items(index: Index | None) -> list[Item]:
    """After `x.`: every card attribute, value table, player attribute and player variable
    (which one `x` is is not known until the text checks)."""
    items = [Item(name, "attribute", f"card.{name}: {type_word(t)}", doc)
             for name, (t, _, doc) in b.CARD_ATTRIBUTES.items()]
    items += [Item(name, "attribute", f"player.{name}: {type_word(t)}", doc)
              for name, (t, _, doc) in b.PLAYER_ATTRIBUTES.items()]
    if index is not None:
        items += [Item(s.name, "attribute", f"card.{s.name} (value table)", s.detail)
                  for s in index.globals("value table")]
        items += [Item(s.name, "variable", f"player variable: {s.detail}", s.doc)
                  for s in index.globals("variable") if "scope player" in s.detail]
    return items


def card_items(index: Index | None) -> list[Item]:
    """Inside a text: the deck's ranks, suits and colours, the options' choices."""
    if index is None:
        return []
    items = [Item(rank, "rank", "rank") for rank in index.ranks]
    items += [Item(suit, "suit", "suit") for suit in index.suits]
    items += [Item(colour, "colour", "colour") for colour in ("red", "black")]
    for option, choices in index.choices.items():
        items += [Item(str(c), "choice", f"a choice of option {option}") for c in choices]
    items += [Item(kind, "meld kind", f"meld kind ({how})")
              for kind, how in index.meld_kinds.items()]
    return items


def name_items(index: Index | None, keys: list[str], line: int, path: str,
               column: int = 0) -> list[Item]:
    """Every name valid in rule text at a line (and column): the file's zones, variables,
    options and functions, the locals of the entry that holds the line (an aggregate's only
    inside its text), and the built-ins."""
    items = [Item(name, "function", describe_builtin("function", name).split("\n")[1],
                  fn.doc) for name, fn in b.FUNCTIONS.items()]
    items += [Item(name, "function", f"{name}(... for x in LIST)", agg.doc)
              for name, agg in b.AGGREGATES.items() if name not in b.FUNCTIONS]
    items += [Item(name, "name", f"{name}: {type_word(item.type)}", item.doc)
              for name, item in b.NAMES.items()]
    items += [Item(word, "keyword", "keyword") for word in b.EXPRESSION_WORDS]
    if keys[:1] == ["scoring"]:
        items.append(Item("p", "local", "p: player", "The player being scored."))
    if keys[:2] == ["deck", "wild"]:
        items.append(Item("card", "local", "card: card", "The card being tested."))
    if index is None:
        return items
    for symbol in index.globals("zone", "variable", "option", "function"):
        if symbol.kind == "variable" and "scope player" in symbol.detail:
            continue  # written p.name
        items.append(Item(symbol.name, symbol.kind, _short(symbol), symbol.doc))
    holders = [s for s in index.symbols if s.body is not None and s.body.path == path and
               s.body.start.line <= line <= s.body.end.line]
    seen: set[str] = set()
    for symbol in index.symbols:
        if symbol.kind in ("parameter", "local") and symbol.parent in holders and \
                symbol.place is not None and symbol.place.start.line <= line and \
                _binds(symbol.within, line, column) and symbol.name not in seen:
            seen.add(symbol.name)
            items.append(Item(symbol.name, symbol.kind, _short(symbol), symbol.detail))
    return items


def _binds(within: Place | None, line: int, column: int) -> bool:
    """Whether a local bound in a stretch of text (None: from its name on) is bound at a
    cursor: between its first and last characters (column 0: anywhere on its lines)."""
    if within is None:
        return True
    start, end = within.start, within.end
    if column == 0:
        return start.line <= line <= end.line
    return (start.line, start.column) < (line, column) < (end.line, end.column)


def _short(symbol: Symbol) -> str:
    if symbol.kind == "function" and symbol.detail:
        return symbol.detail
    typed = f": {type_word(symbol.type)}" if symbol.type is not None else ""
    return f"{symbol.kind} {symbol.name}{typed}"
