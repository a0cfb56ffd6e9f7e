"""Completion: the words that may be written at a place of a rule file, worked out from its
text and the last analysis of it that could be read (lsp/analysis.py), in the compiler's
terms (1-based lines and columns, as diagnostics have them)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from cardrules.dsl import builtins as b
from cardrules.dsl.loader import builtin_names
from cardrules.dsl.source import is_prose

from . import schema_keys
from .analysis import Analysis
from .features import describe_builtin
from .index import Index, Symbol, type_word
from .places import Place, split_lines

_WORD_BEFORE = re.compile(r"[A-Za-z0-9_]*$")


@dataclass(frozen=True)
class Item:
    """One completion: the word, what kind of thing it is, a line about it, its doc."""

    label: str
    kind: str
    detail: str = ""
    doc: str = ""


def complete(text: str, line: int, column: int, known: Analysis | None,
             known_line: int | None = None) -> list[Item]:
    """The words that may be written at a place of `text` (1-based line and column of the
    cursor). The text need not parse: the place is read from its lines alone, and the names
    from `known`, the last analysis of the file that could read them (of a text whose line
    `known_line` is the cursor's, or the nearest to it, where the texts differ)."""
    at = line if known_line is None else known_line
    lines = split_lines(text)
    current = lines[line - 1] if 0 < line <= len(lines) else ""
    row = flow_start(lines, line - 1, current[:column - 1])
    # (the entry the cursor is in: from the line a flow list it continues was opened on)
    before = "\n".join([*lines[row:line - 1], current[:column - 1]])
    if _in_comment(current[:column - 1]):
        return []
    inner, entry, quoted, _ = _scan(before)
    keys = key_path(lines, row, before) + inner
    value_key = re.match(r"^\s*([a-z_]+):\s", entry)
    said = [*keys, value_key.group(1)] if value_key else keys
    if said and (is_prose(said) or said[-1] == "label" and not _in_placeholder(entry)):
        return []  # (words for people, not rule text: a move's label reads names in {})
    if quoted:  # (`wild: "...`: the text is the value of the entry's key)
        opened = re.match(r"^\s*([a-z_]+):\s", entry)
        return rule_text_items(before, [*keys, opened.group(1)] if opened else keys, known,
                               at, column)
    if re.fullmatch(r"\s*[A-Za-z_]*", entry):
        items: list[Item] = []
        if any("properties" in node for node in schema_keys.node_at(keys)):
            items += key_items(keys, lines)
        if schema_keys.is_rule_text(keys) or not items:
            items += rule_text_items(before, keys, known, at, column)
        return items
    value = re.match(r"^\s*([a-z_]+):\s+(.*)$", entry, re.DOTALL)
    if value is not None:
        key, written = value.group(1), value.group(2)
        plain = value_items([*keys, key], written, known, at)
        if plain is not None:
            return plain
        keys = [*keys, key]
    return rule_text_items(before, keys, known, at, column)


def _in_comment(before: str) -> bool:
    """Whether the cursor is in a comment: past a `#` that begins the line's text or
    follows a space, outside a quoted text."""
    quote = ""
    for at, char in enumerate(before):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (at == 0 or before[at - 1] in " \t"):
            return True
    return False


def _in_placeholder(entry: str) -> bool:
    """Whether the cursor is inside a label's `{...}`, opened and not closed."""
    return entry.rfind("{") > entry.rfind("}")


def flow_start(lines: list[str], row: int, before: str) -> int:
    """The row (0-based) of the line that opened a flow list or mapping ([..., {...) that
    the cursor's line continues, unclosed until the cursor; `row` itself if there is none
    (the line starts an entry of its own, or the entry above closed what it opened)."""
    if _ENTRY.match(before):
        return row
    reach = 0  # the text between that line and the cursor's: each step reads it all again,
    # so it is bounded (a flow collection longer than that above the cursor is none here)
    for above in range(row - 1, max(row - 100, 0) - 1, -1):
        text = lines[above]
        reach += len(text) + 1
        if reach > FLOW_REACH:
            return row
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        if _scan("\n".join(lines[above:row]))[3] > 0:
            return above
        if _ENTRY.match(text):
            return row
    return row


_ENTRY = re.compile(r"^\s*(?:-(?:\s|$)|[A-Za-z_][\w-]*\s*:(?:\s|$))")
# The most characters above the cursor a flow collection it continues may open from: each
# line above is read with all below it, so a completion reads at most 100 times this.
FLOW_REACH = 4_000


def _scan(before: str) -> tuple[list[str], str, bool, int]:
    """Read a line up to the cursor: the keys of the flow collections ({..., [...) open
    there (ITEM for a list's item), the text of the entry the cursor is in, whether a
    quoted text is open, and how many flow collections are."""
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
    return ([k for level in levels for k in level], before[start:], bool(quote),
            len(levels))


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
                    line: int, column: int) -> list[Item]:
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
    items = name_items(index, keys, line, known.path if known else "", column)
    if _starts_statement(head, keys):
        items += [Item(_leading_words(c.syntax), "keyword", c.syntax, c.doc)
                  for c in b.CONSTRUCTS.values() if c.name in _STATEMENTS]
        if index is not None:  # a procedure is called where a statement starts
            items += [Item(s.name, "procedure", f"procedure {s.name}", s.doc)
                      for s in index.globals("procedure")]
    return items


_STATEMENTS = ("move_cards", "deal_cards", "shuffle", "flip", "swap", "set", "let", "peek",
               "end_turn", "turn_to", "end_round", "end_phase", "end_game", "win", "eliminate",
               "reverse_direction", "reveal", "tell")
_STATEMENT_LISTS = ("do", "setup", "end", "then", "else", "on_skip")


def _leading_words(syntax: str) -> str:
    """A statement's words before its first part to fill in: `move`, `end turn`, `reverse
    direction`, `turn to`."""
    words = re.match(r"[a-z]+(?: [a-z]+)*", syntax)
    return words.group() if words else syntax.split(" ", 1)[0]


def _starts_statement(head: str, keys: list[str]) -> bool:
    """Whether a statement starts where the cursor's word does: an item of a statement
    list, or the first word of a flow list's item."""
    listed = len(keys) >= 2 and keys[-1] == schema_keys.ITEM and keys[-2] in _STATEMENT_LISTS
    stripped = re.sub(r"[\s\"']+$", "", head)
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
    if keys[:2] == ["scoring", "evaluate"] or \
            keys[:4] == ["scoring", "round", schema_keys.ITEM, "score"]:
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
        if symbol.kind in ("parameter", "local") and symbol.name not in seen and \
                _in_scope(symbol, holders, path, line, column):
            seen.add(symbol.name)
            items.append(Item(symbol.name, symbol.kind, _short(symbol), symbol.detail))
    return items


def _in_scope(symbol: Symbol, holders: list[Symbol], path: str, line: int,
              column: int) -> bool:
    """Whether a parameter or local is bound at a cursor: in the stretch of text that binds
    it, where that is known (a loop's entry, the rest of a `let`'s list, an aggregate's
    text but its iterable), wherever it is; else in the entry that declares it (a move's or
    a function's, which a file that extends another may write again), from its name on."""
    within = symbol.within
    if within is not None:
        outside = symbol.outside
        return within.path == path and _binds(within, line, column) and not (
            outside is not None and column and outside.holds(path, line, column))
    place = symbol.place
    return symbol.parent in holders and place is not None and (
        place.path != path or place.start.line <= line)


def _binds(within: Place | None, line: int, column: int) -> bool:
    """Whether a local bound in a stretch of text (None: from its name on) is bound at a
    cursor: after its first character, up to just after its last, where a name typed last
    ends (column 0: anywhere on its lines)."""
    if within is None:
        return True
    start, end = within.start, within.end
    if column == 0:
        return start.line <= line <= end.line
    return (start.line, start.column) < (line, column) <= (end.line, end.column)


def _short(symbol: Symbol) -> str:
    if symbol.kind == "function" and symbol.detail:
        return symbol.detail
    typed = f": {type_word(symbol.type)}" if symbol.type is not None else ""
    return f"{symbol.kind} {symbol.name}{typed}"
