"""Stage 1: YAML text to plain data, keeping where every node was written.

Only the YAML core types are built (no Python object tags). Every value and every
mapping key keeps its position, so later stages can point at the exact text:
`Document.where(path)` for a node, `Document.where_in(path, offset)` for a
character inside a scalar (an expression's error inside a YAML string).
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import yaml

from cardrules.errors import Diagnostic, Location, RulesetError

from .yaml_bounds import MAX_DEPTH, Loader, check_bounds

Path = tuple[str | int, ...]

@dataclass(frozen=True)
class Span:
    """Where one YAML node starts, and how its text is quoted."""

    line: int  # 1-based
    column: int  # 1-based
    style: str | None  # None for plain scalars, '"', "'", '|' or '>'; ALIAS for a *name
    end_line: int = 0  # where a scalar's text ends (just past it); 0 for a collection,
    end_column: int = 0  # whose end is no place a message should stretch to


@dataclass
class _Walk:
    """How far a scalar's text has been walked (Document._in_flow): where each character of
    its value came from, so far, and where the walk stands."""

    rows: array[int]  # the row and the column of each character of the value, 0-based
    cols: array[int]  # (arrays: a long file's walks stay small)
    row: int
    col: int
    quote: str | None


@dataclass
class Document:
    """A parsed rule file: its data, its text and the span of every node."""

    path: str
    text: str
    data: Any
    spans: dict[Path, Span] = field(default_factory=dict)
    key_spans: dict[Path, Span] = field(default_factory=dict)

    @cached_property
    def lines(self) -> list[str]:
        """The text's lines, split once: every location search reads them, and a file with
        thousands of problems searches thousands of times."""
        return self.text.splitlines()

    @cached_property
    def reaches(self) -> dict[Path, tuple[int, int]]:
        """Where the text of each node, its children's included, ends furthest (line and
        column just past it; a collection's own span counts one character): worked out in
        one pass over the spans, for the extent of every entry of an outline."""
        out: dict[Path, tuple[int, int]] = {}
        for where, span in self.spans.items():
            end = (span.end_line, span.end_column) if span.end_line else \
                (span.line, span.column + 1)
            for cut in range(len(where) + 1):
                prefix = where[:cut]
                known = out.get(prefix)
                if known is None or known < end:
                    out[prefix] = end
        return out

    def source_line(self, line: int) -> str | None:
        lines = self.lines
        return lines[line - 1] if 0 < line <= len(lines) else None

    def where(self, path: Path, key: bool = False) -> Location:
        """The location of the node at `path` (or of its key), else its nearest parent's."""
        table = self.key_spans if key else self.spans
        probe = tuple(path)
        while probe not in table and probe:
            probe = probe[:-1]
            table = self.spans
        span = table.get(probe)
        if span is None:
            return Location(self.path, 1, 1)
        return Location(self.path, span.line, span.column)

    def where_end(self, path: Path, key: bool = False) -> Location | None:
        """Where the scalar at `path` (or its key) ends, just past its text; None for a
        collection, or for a node that is not written."""
        span = (self.key_spans if key else self.spans).get(tuple(path))
        if span is None or not span.end_line:
            return None
        return Location(self.path, span.end_line, span.end_column)

    def where_in(self, path: Path, offset: int) -> Location:
        """The location of character `offset` of the scalar string at `path`."""
        span = self.spans.get(tuple(path))
        if span is None:  # not written (a default): the nearest place that is
            return self.where(path)
        value = self.get(path)
        if not isinstance(value, str) or span.style == ALIAS:  # (an alias: the *name)
            return self.where(path)
        if span.style in ("|", ">"):
            return self._in_block(span, value, offset)
        return self._in_flow(span, offset)

    def _in_flow(self, span: Span, offset: int) -> Location:
        """Walk a plain or quoted scalar's source text to the character the value's
        `offset` came from: escapes ("\\x", '') are one character of the value, and a line
        break with the next line's indentation folds into one space. The walk is kept per
        scalar, so a long expression with a site at every term is walked once, not once a
        site."""
        walk = self._walks.get((span.line, span.column))
        if walk is None:
            quote = span.style if span.style in ("'", '"') else None
            walk = self._walks[span.line, span.column] = \
                _Walk(array("q"), array("q"), span.line - 1,
                      span.column - (0 if quote else 1), quote)
        rows, cols, lines, ends = walk.rows, walk.cols, self.lines, self._ends
        row, col, quote = walk.row, walk.col, walk.quote
        while len(rows) <= offset:  # one character of the value a step
            text = lines[row]
            if quote == '"' and text[col:col + 1] == "\\" and col + 1 >= ends[row] \
                    and row + 1 < len(lines):  # an escaped line break: nothing of the value
                row += 1
                col = len(lines[row]) - len(lines[row].lstrip())
                continue
            rows.append(row)
            cols.append(col)
            if col >= ends[row] and row + 1 < len(lines):  # fold into the next line
                row += 1
                if not lines[row].strip() and row + 1 < len(lines):
                    # (a line break and the blank line after it are one line break of the
                    # value; each blank line more, one more)
                    row += 1
                col = len(lines[row]) - len(lines[row].lstrip())
                continue
            if quote == '"' and text[col:col + 1] == "\\":
                col += _ESCAPE_WIDTHS.get(text[col + 1:col + 2], 2)  # \x41, \u00e9: one
            elif quote == "'" and text[col:col + 2] == "''":
                col += 2
            else:
                col += 1
        walk.row, walk.col = row, col
        return Location(self.path, rows[offset] + 1, cols[offset] + 1)

    @cached_property
    def _ends(self) -> list[int]:
        """Where each line's text ends, trailing blanks left out."""
        return [len(line.rstrip()) for line in self.lines]

    @cached_property
    def _walks(self) -> dict[tuple[int, int], _Walk]:
        return {}

    def _in_block(self, span: Span, value: str, offset: int) -> Location:
        # A block scalar's content starts on the line after its indicator. Both kinds join
        # their lines with one character (a line break for |, a space for >), so walking the
        # source lines, each worth its text plus one, finds the character's line.
        # A folded (>) block's line break before a blank line is no character: the blank
        # line is the value's line break. The indentation is the first content line's, or,
        # given by an indicator (`|2`), that many more than the key's.
        lines = self.lines
        first = span.line  # 0-based index of the line after the indicator
        header = lines[first - 1] if first > 0 else ""
        given = re.match(r"[|>][+-]?([1-9])|[|>]([1-9])", header[span.column - 1:])
        if given is not None:
            key = len(header) - len(header.lstrip(" -"))  # (past the indentation and `- `)
            indent = key + int(given.group(1) or given.group(2))
        else:
            content = next((lines[i] for i in range(first, len(lines)) if lines[i].strip()), "")
            indent = len(content) - len(content.lstrip(" "))
        remaining = offset
        folded = span.style == ">"
        for number in range(first, len(lines)):
            blank = not lines[number].strip()
            text = "" if blank else lines[number][indent:]
            if folded and blank and number > first and lines[number - 1].strip():
                continue  # (the line break before it was this line's: counted)
            if remaining <= len(text):
                return Location(self.path, number + 1, indent + remaining + 1)
            remaining -= len(text) + 1
        return Location(self.path, span.line, span.column)

    def comments_ended(self, path: Path, value: str) -> str:
        """`value`, the rule text of the scalar at `path`, with each `#` comment ended where
        its source line ends. YAML folds the lines of a `>` scalar, and of a quoted or plain
        one written over several lines, into one: the comment would run on over every line
        after it. The line break that ends it is put back in place of the space the fold
        made (the same length: locations are unchanged); the comment's end is found by
        where its characters lie, the first of the next line past it."""
        span = self.spans.get(tuple(path))
        if "#" not in value or span is None or span.style in ("|", ALIAS):
            return value
        chars = list(value)
        quote: str | None = None
        i = 0
        while i < len(chars):
            ch = chars[i]
            if quote is not None:
                quote = None if ch == quote else quote
            elif ch in "'\"":
                quote = ch
            elif ch == "#":
                line = self.where_in(path, i).line
                low, high = i + 1, len(chars)  # the first offset on a later line
                while low < high:  # (lines only grow along the value)
                    middle = (low + high) // 2
                    if self.where_in(path, middle).line > line:
                        high = middle
                    else:
                        low = middle + 1
                if low >= len(chars):
                    break
                if chars[low - 1] == " ":  # the space the fold made
                    chars[low - 1] = "\n"
                i = low
                continue
            elif ch == "\n":
                quote = None
            i += 1
        return "".join(chars)

    def get(self, path: Path) -> Any:
        node = self.data
        for part in path:
            node = node[part]
        return node

    def diagnostic(self, path: Path, message: str, key: bool = False,
                   offset: int | None = None, end: int | None = None) -> Diagnostic:
        """A diagnostic pointing at the node at `path` (or a character inside it). It
        stretches to `end` (an offset in the scalar, past the offending text) when given,
        else over the whole node when that is a scalar pointed at as a whole."""
        loc = self.where_in(path, offset) if offset is not None else self.where(path, key)
        if end is not None and offset is not None and end > offset:
            last: Location | None = self.where_in(path, end)
        elif offset is None:
            last = self.where_end(path, key) if self._written(path, key) else None
        else:
            last = None
        return Diagnostic(loc, message, self.source_line(loc.line), last)

    def _written(self, path: Path, key: bool) -> bool:
        """Whether the node at `path` (or its key) is written in this file itself, not
        stood in for by a parent's place."""
        return tuple(path) in (self.key_spans if key else self.spans)


ALIAS = "*"  # the style of a node written as an alias (*name): located at the alias
MAX_NODES = 100_000  # values, once YAML aliases are expanded


def parse_yaml(text: str, path: str) -> Document:
    """Parse rule-file text; raise RulesetError (located) when it is not valid YAML, or when
    it is larger, deeper or (through aliases) more repetitive than any rule file."""
    check_bounds(text, path)
    try:
        loader = Loader(text)
        try:
            root = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = Location(path, mark.line + 1, mark.column + 1) if mark else Location(path, 1, 1)
        lines = text.splitlines()
        if lines and where.line > len(lines):  # (the end of a text with no last line break:
            where = Location(path, len(lines), len(lines[-1]) + 1)  # the end of its last line)
        src = lines[where.line - 1] if 0 < where.line <= len(lines) else None
        problem = exc.problem or exc.context or "malformed YAML"
        if "expected ',' or '}'" in problem and src is not None \
                and any(ch in src for ch in "[]{}"):
            # (inside { }, a value's own brackets end it: `{card: hand[me]}`)
            problem += ("; inside { }, a value holding [ ], { } or a comma must be in quotes "
                        "({card: \"hand[me]\"})")
        raise RulesetError([Diagnostic(where, f"malformed YAML: {problem}", src)]) from None
    except yaml.YAMLError as exc:
        raise RulesetError([Diagnostic(Location(path, 1, 1), f"malformed YAML: {exc}")]) from None
    doc = Document(path, text, None)
    if root is None:
        doc.data = None
        return doc
    errors: list[Diagnostic] = []
    doc.data = _Builder(doc, errors, _aliases(text) if "*" in text else []).build(root, ())
    if errors:
        raise RulesetError(errors)
    _end_comments(doc)
    return doc


def _end_comments(doc: Document) -> None:
    """Each `#` comment of a rule text folded from several lines ended where its line ends,
    in the document's values themselves (Document.comments_ended): so that what reads the
    values, the reader, `show` writing them out and `diff` comparing them, reads the text
    the author wrote, never a comment that runs on over the lines after it. Words for
    people (a title, a summary, a doc) are no rule text: a `#` there is a word like any
    other. A text given again by an alias (`*when`) is ended as its anchor's is."""
    ended: dict[str, str] = {}
    aliases: list[Path] = []
    for path, span in list(doc.spans.items()):
        if not path or is_prose(path):
            continue
        value = doc.get(path)
        if not isinstance(value, str) or "#" not in value:
            continue
        if span.style == ALIAS:
            aliases.append(path)
            continue
        text = doc.comments_ended(path, value)
        if text != value:
            ended[value] = text
            doc.get(path[:-1])[path[-1]] = text
    for path in aliases:
        value = doc.get(path)
        if value in ended:
            doc.get(path[:-1])[path[-1]] = ended[value]


def is_prose(path: Sequence[str | int]) -> bool:
    """Whether the text at a path of keys is words for people, not rule text: a title, a
    summary, a doc, an option's or a variable's label (a move's label is rule text: its
    {...}). The language server offers no names there either."""
    key = path[-1]
    return key in ("title", "summary", "doc") or (key == "label" and "moves" not in path)


def _aliases(text: str) -> list[Span]:
    """Where each alias (*name) of a text is written, in order. The composed nodes do not
    say: an alias is its anchor's node, which knows only the anchor's place."""
    out: list[Span] = []
    loader = Loader(text)
    try:
        while loader.check_event():
            event = loader.get_event()
            start, end = event.start_mark, event.end_mark
            if isinstance(event, yaml.AliasEvent) and start is not None and end is not None:
                out.append(Span(start.line + 1, start.column + 1, ALIAS, end.line + 1,
                                end.column + 1))
    finally:
        loader.dispose()
    return out


def _span(node: yaml.Node, lines: list[str] | None = None) -> Span:
    """A node's span; a scalar's starts at its own text, past an anchor written before it
    (`&name "..."`), which YAML counts as part of the node. (A tag, `!!int x`, is kept: a
    message about what the tag says points at it.)"""
    if not isinstance(node, yaml.ScalarNode):
        return Span(node.start_mark.line + 1, node.start_mark.column + 1, None)
    end = node.end_mark
    line, column = node.start_mark.line, node.start_mark.column
    if lines is not None:
        line, column = _past_properties(lines, line, column, (end.line, end.column))
    return Span(line + 1, column + 1, node.style or None, end.line + 1, end.column + 1)


_PROPERTY = re.compile(r"&\S*\s*")
# The width in the source of a double-quoted text's escape, by the letter after its \
# (each is one character of the value; any other escape is two characters wide).
_ESCAPE_WIDTHS = {"x": 4, "u": 6, "U": 10}


def _past_properties(lines: list[str], line: int, column: int,
                     end: tuple[int, int]) -> tuple[int, int]:
    """The (0-based) place of a scalar's text after the anchor that may open it,
    on its line or a later one; never past the scalar's end."""
    skipped = False
    while line < len(lines):
        text = lines[line]
        found = _PROPERTY.match(text, column)
        if found is None:
            if not skipped or column < len(text.rstrip()) or line + 1 >= len(lines):
                break
            line, column = line + 1, len(lines[line + 1]) - len(lines[line + 1].lstrip())
            continue
        column, skipped = found.end(), True
    return min((line, column), end)


class _Builder:
    """Turns composed YAML nodes into plain data, recording every node's span; counts the
    values it builds, so that aliases repeating aliases cannot multiply them unboundedly."""

    def __init__(self, doc: Document, errors: list[Diagnostic], aliases: list[Span]):
        self.doc = doc
        self.errors = errors
        self.count = 0
        # An alias is its anchor's node met again: met in the order of the text (outside
        # what an alias repeats), the n-th such is the n-th alias written.
        self.aliases = iter(aliases)
        self.seen: set[int] = set()
        self.repeating: list[Span] = []  # the aliases being expanded, outermost first

    def span(self, node: yaml.Node) -> Span:
        """Where a node is written: at its alias when it is one, or is part of what one
        repeats (that copy has no text of its own but the alias)."""
        if self.repeating:
            return self.repeating[0]
        alias = next(self.aliases, None) if id(node) in self.seen else None
        self.seen.add(id(node))
        return _span(node, self.doc.lines) if alias is None else alias

    def build(self, node: yaml.Node, path: Path, depth: int = 0) -> Any:
        self.count += 1
        if self.count > MAX_NODES or depth > MAX_DEPTH:
            raise RulesetError([_located(self.doc, node, (
                f"this file holds more than {MAX_NODES:,} values once its YAML aliases (*name) "
                "are expanded" if self.count > MAX_NODES else
                f"nested more than {MAX_DEPTH} levels deep; no rule file needs that"))])
        span = self.doc.spans[path] = self.span(node)
        if span.style == ALIAS and not self.repeating:
            self.repeating.append(span)
            try:
                return self.value(node, path, depth)
            finally:
                self.repeating.pop()
        return self.value(node, path, depth)

    def value(self, node: yaml.Node, path: Path, depth: int) -> Any:
        if not isinstance(node, yaml.ScalarNode) and node.tag not in _COLLECTION_TAGS:
            self.errors.append(_located(self.doc, node, f"unsupported YAML tag "
                                                        f"'{_short_tag(node.tag)}'",
                                        self.doc.spans.get(path)))
        if isinstance(node, yaml.MappingNode):
            return self.mapping(node, path, depth)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, (*path, i), depth + 1) for i, item in enumerate(node.value)]
        return _scalar(node, path, self.doc, self.errors)

    def mapping(self, node: yaml.MappingNode, path: Path, depth: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        doc, errors = self.doc, self.errors
        for key_node, value_node in node.value:
            key_span = self.span(key_node)
            if not isinstance(key_node, yaml.ScalarNode):
                errors.append(_located(doc, key_node, "a mapping key must be a plain word",
                                       key_span))
                self.skip(key_node, key_span)
                self.skip(value_node)
                continue
            key = str(key_node.value)  # keys stay as written: `2:` names the rank "2"
            if key == "<<":
                errors.append(_located(doc, key_node, "YAML merge keys (<<) are not supported; "
                                                      "use `extends:` to build on another ruleset",
                                       key_span))
                self.skip(value_node)
                continue
            if key in out:
                errors.append(_located(doc, key_node, f"duplicate key '{key}'", key_span))
                self.skip(value_node)
                continue
            doc.key_spans[(*path, key)] = key_span
            out[key] = self.build(value_node, (*path, key), depth + 1)
        return out

    def skip(self, node: yaml.Node, span: Span | None = None) -> None:
        """Pass over a node that is not built (refused), noting the aliases written in it,
        so that the aliases after it are still told apart."""
        if span is None:
            span = self.span(node)
        if span.style == ALIAS or self.repeating:
            return
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                self.skip(key_node)
                self.skip(value_node)
        elif isinstance(node, yaml.SequenceNode):
            for item in node.value:
                self.skip(item)


_SCALAR_TAGS = {
    "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null",
}


_COLLECTION_TAGS = {"tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"}


def _short_tag(tag: str) -> str:
    """A tag as it was written: !!set for the YAML tag, !custom for a local one."""
    text = "!!" + tag[len("tag:yaml.org,2002:"):] if tag.startswith("tag:yaml.org,2002:") \
        else tag
    return text if len(text) <= 40 else text[:37] + "..."


def _scalar(node: yaml.Node, path: Path, doc: Document, errors: list[Diagnostic]) -> Any:
    span = doc.spans.get(path)  # where it is written: an alias, at the alias
    if node.tag not in _SCALAR_TAGS:
        errors.append(_located(doc, node, f"unsupported YAML tag '{_short_tag(node.tag)}'",
                               span))
        return None
    try:
        value = _CONSTRUCTOR.yaml_constructors[node.tag](_CONSTRUCTOR, node)
        if isinstance(value, float):  # one rule for every number: the language has no others
            errors.append(_located(doc, node, _not_whole(str(node.value), value), span))
            return None
        return value
    except (ValueError, KeyError, IndexError):
        text = str(node.value)
        if len(text) > 1000 and sum(ch.isdigit() for ch in text) > 1000:  # Python will not
            message = ("this number is far too long: a rule file's numbers have at most a "
                       "few digits")                                       # read it
        else:  # a tag that says what the text is not: !!int x, !!bool maybe
            kind = node.tag.rsplit(":", 1)[-1]
            shown = text if len(text) <= 40 else text[:37] + "..."
            message = f"'{shown}' is not a valid {_TAG_NAMES.get(kind, kind)}, as its tag " \
                      f"!!{kind} says it is"
        errors.append(_located(doc, node, message, span))
        return None


_TAG_NAMES = {"int": "whole number", "float": "number", "bool": "truth value (true or false)"}


def _not_whole(text: str, value: float) -> str:
    """Why a number written with a point, an exponent, .inf or .nan is refused."""
    shown = text if len(text) <= 40 else text[:37] + "..."
    if value.is_integer() and abs(value) < 10**18:
        fix = f"write {int(value)}"
    else:
        fix = f"for a text, put it in quotes: '{shown}'"
    return f"'{shown}' is not a whole number: numbers here are whole ({fix})"


_CONSTRUCTOR = yaml.SafeLoader("")


def _located(doc: Document, node: yaml.Node, message: str,
             span: Span | None = None) -> Diagnostic:
    """A diagnostic at a node: where it is written (`span`, an alias's own), else its own."""
    span = span or _span(node)
    loc = Location(doc.path, span.line, span.column)
    end = Location(doc.path, span.end_line, span.end_column) if span.end_line else None
    return Diagnostic(loc, message, doc.source_line(span.line), end)
