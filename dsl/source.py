"""Stage 1: YAML text to plain data, keeping where every node was written.

Only the YAML core types are built (no Python object tags). Every value and every
mapping key keeps its position, so later stages can point at the exact text:
`Document.where(path)` for a node, `Document.where_in(path, offset)` for a
character inside a scalar (an expression's error inside a YAML string).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from cardrules.errors import Diagnostic, Location, RulesetError

Path = tuple[str | int, ...]

try:  # the C loader is only faster; both compose the same nodes
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on how PyYAML was built
    _Loader = yaml.SafeLoader


@dataclass(frozen=True)
class Span:
    """Where one YAML node starts, and how its text is quoted."""

    line: int  # 1-based
    column: int  # 1-based
    style: str | None  # None for plain scalars, '"', "'", '|' or '>'


@dataclass
class Document:
    """A parsed rule file: its data, its text and the span of every node."""

    path: str
    text: str
    data: Any
    spans: dict[Path, Span] = field(default_factory=dict)
    key_spans: dict[Path, Span] = field(default_factory=dict)

    @property
    def lines(self) -> list[str]:
        return self.text.splitlines()

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

    def where_in(self, path: Path, offset: int) -> Location:
        """The location of character `offset` of the scalar string at `path`."""
        span = self.spans.get(tuple(path))
        value = self.get(path)
        if span is None or not isinstance(value, str):
            return self.where(path)
        if span.style in ("|", ">"):
            return self._in_block(span, value, offset)
        return self._in_flow(span, offset)

    def _in_flow(self, span: Span, offset: int) -> Location:
        """Walk a plain or quoted scalar's source text to the character the value's
        `offset` came from: escapes ("\\x", '') are one character of the value, and a line
        break with the next line's indentation folds into one space."""
        lines = self.lines
        row, col = span.line - 1, span.column - 1
        quote = span.style if span.style in ("'", '"') else None
        if quote:
            col += 1
        index = 0
        while row < len(lines):
            text = lines[row]
            if col >= len(text.rstrip()) and row + 1 < len(lines):  # fold into the next line
                if index == offset:
                    break
                index += 1
                row += 1
                col = len(lines[row]) - len(lines[row].lstrip())
                continue
            if index >= offset:
                break
            escaped = (quote == '"' and text[col:col + 1] == "\\") or \
                (quote == "'" and text[col:col + 2] == "''")
            col += 2 if escaped else 1
            index += 1
        return Location(self.path, row + 1, col + 1)

    def _in_block(self, span: Span, value: str, offset: int) -> Location:
        # A block scalar's content starts on the line after its indicator. Both kinds join
        # their lines with one character (a line break for |, a space for >), so walking the
        # source lines, each worth its text plus one, finds the character's line.
        lines = self.lines
        first = span.line  # 0-based index of the line after the indicator
        content = [ln for ln in lines[first:] if ln.strip()]
        indent = len(content[0]) - len(content[0].lstrip(" ")) if content else 0
        remaining = offset
        for number in range(first, len(lines)):
            text = lines[number][indent:] if lines[number].strip() else ""
            if remaining <= len(text):
                return Location(self.path, number + 1, indent + remaining + 1)
            remaining -= len(text) + 1
        return Location(self.path, span.line, span.column)

    def get(self, path: Path) -> Any:
        node = self.data
        for part in path:
            node = node[part]
        return node

    def diagnostic(self, path: Path, message: str, key: bool = False,
                   offset: int | None = None) -> Diagnostic:
        """A diagnostic pointing at the node at `path` (or a character inside it)."""
        loc = self.where_in(path, offset) if offset is not None else self.where(path, key)
        return Diagnostic(loc, message, self.source_line(loc.line))


def parse_yaml(text: str, path: str) -> Document:
    """Parse rule-file text; raise RulesetError (located) when it is not valid YAML."""
    try:
        loader = _Loader(text)
        try:
            root = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = Location(path, mark.line + 1, mark.column + 1) if mark else Location(path, 1, 1)
        lines = text.splitlines()
        src = lines[where.line - 1] if 0 < where.line <= len(lines) else None
        problem = exc.problem or exc.context or "malformed YAML"
        raise RulesetError([Diagnostic(where, f"malformed YAML: {problem}", src)]) from None
    except yaml.YAMLError as exc:
        raise RulesetError([Diagnostic(Location(path, 1, 1), f"malformed YAML: {exc}")]) from None
    doc = Document(path, text, None)
    if root is None:
        doc.data = None
        return doc
    errors: list[Diagnostic] = []
    doc.data = _build(root, (), doc, errors)
    if errors:
        raise RulesetError(errors)
    return doc


def _span(node: yaml.Node) -> Span:
    style = getattr(node, "style", None) if isinstance(node, yaml.ScalarNode) else None
    return Span(node.start_mark.line + 1, node.start_mark.column + 1, style or None)


def _build(node: yaml.Node, path: Path, doc: Document, errors: list[Diagnostic]) -> Any:
    doc.spans[path] = _span(node)
    if isinstance(node, yaml.MappingNode):
        return _build_mapping(node, path, doc, errors)
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, (*path, i), doc, errors) for i, item in enumerate(node.value)]
    return _scalar(node, path, doc, errors)


def _build_mapping(node: yaml.MappingNode, path: Path, doc: Document,
                   errors: list[Diagnostic]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key_node, value_node in node.value:
        if not isinstance(key_node, yaml.ScalarNode):
            errors.append(_located(doc, key_node, "a mapping key must be a plain word"))
            continue
        key = str(key_node.value)  # keys stay as written: `2:` names the rank "2"
        if key == "<<":
            errors.append(_located(doc, key_node, "YAML merge keys (<<) are not supported; "
                                                  "use `extends:` to build on another ruleset"))
            continue
        if key in out:
            errors.append(_located(doc, key_node, f"duplicate key '{key}'"))
            continue
        doc.key_spans[(*path, key)] = _span(key_node)
        out[key] = _build(value_node, (*path, key), doc, errors)
    return out


_SCALAR_TAGS = {
    "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null",
}


def _scalar(node: yaml.Node, path: Path, doc: Document, errors: list[Diagnostic]) -> Any:
    if node.tag not in _SCALAR_TAGS:
        errors.append(_located(doc, node, f"unsupported YAML tag '{node.tag}'"))
        return None
    return _CONSTRUCTOR.yaml_constructors[node.tag](_CONSTRUCTOR, node)


_CONSTRUCTOR = yaml.SafeLoader("")


def _located(doc: Document, node: yaml.Node, message: str) -> Diagnostic:
    span = _span(node)
    loc = Location(doc.path, span.line, span.column)
    return Diagnostic(loc, message, doc.source_line(span.line))
