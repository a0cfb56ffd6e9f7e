"""Where things lie in a rule file: a stretch of it (a Place), worked out by the same code
that places a diagnostic (`Pos.diagnostic`), so that the editor points where `validate`
would; the stretch of a whole YAML entry (for an outline); and the stretches of words inside
an expression that the syntax nodes do not keep (a keyword, the subject of a `set`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from cardrules.dsl import nodes as n
from cardrules.dsl.source import ALIAS, Document
from cardrules.errors import Location

_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def split_lines(text: str) -> list[str]:
    """A text's lines as an editor counts them (the Language Server Protocol's line ends:
    \\r\\n, \\n and a lone \\r, as YAML has them too)."""
    return _LINE_BREAK.split(text)


@dataclass(frozen=True)
class Place:
    """A stretch of a rule file: from `start` to just before `end` (same path)."""

    start: Location
    end: Location

    @property
    def path(self) -> str:
        return self.start.path

    def holds(self, path: str, line: int, column: int) -> bool:
        """Whether the character at (line, column) of the file at `path` lies here (or the
        cursor just after the last one, where an editor puts it after typing a name)."""
        if path != self.path:
            return False
        here = (line, column)
        return (self.start.line, self.start.column) <= here <= (self.end.line, self.end.column)


def size(place: Place) -> tuple[int, int]:
    return (place.end.line - place.start.line, place.end.column - place.start.column)


def place_of(pos: n.Pos, length: int = 0) -> Place | None:
    """Where a piece of rule text lies, as `validate` would point at it; `length` stands in
    for an end the position does not know. None for a position with no document."""
    if pos.origin.doc is None:
        return None
    found = pos.diagnostic("")
    start = found.location
    if start is None:
        return None
    end = found.end or Location(start.path, start.line, start.column + max(length, 1))
    return Place(start, end)


def _written(pos: n.Pos) -> tuple[Document, Any] | None:
    """The document that wrote a position's node (of a merged document, the file that
    wrote it), and the node's path there; None for a position written nowhere."""
    doc, path = pos.origin.doc, pos.origin.path
    if doc is None:
        return None
    resolve = getattr(doc, "_origin", None)
    return resolve(path) if resolve is not None else (doc, path)


def through_alias(pos: n.Pos) -> bool:
    """Whether a position's rule text is read again through a YAML alias (*name): its place
    is then the alias, where the text it names is not written."""
    written = _written(pos)
    if written is None:
        return False
    doc, path = written
    span = (doc.key_spans if pos.origin.key else doc.spans).get(path)
    return span is not None and span.style == ALIAS


def extent(pos: n.Pos) -> Place | None:
    """The whole YAML entry a position names (a phase, a move): from its first character to
    the end of the last thing written in it, in the file that wrote it."""
    written = _written(pos)
    if written is None:
        return None
    doc, path = written
    if path not in doc.spans:
        return place_of(pos)
    first = doc.spans[path]
    last = max((first.line, first.column), doc.reaches[path])
    return Place(Location(doc.path, first.line, first.column), Location(doc.path, *last))


def name_pos(pos: n.Pos, name: str) -> n.Pos:
    """The stretch of a name written at the start of `pos` (a call's, an aggregate's)."""
    return n.Pos(pos.origin, pos.offset, pos.offset + len(name))


def word_between(whole: n.Pos, left: n.Pos, right: n.Pos, word: str) -> n.Pos | None:
    """Where a keyword is written between two parts of an expression."""
    text = whole.origin.doc.get(whole.origin.path)
    if not isinstance(text, str):
        return None
    at = text.find(word, max(left.end, left.offset), right.offset)
    return n.Pos(whole.origin, at, at + len(word)) if at >= 0 else None


def subject_pos(stmt: n.Set) -> n.Pos | None:
    """Where `p` is written in `set p.name = ...`: the name before the dot."""
    text = stmt.name_pos.origin.doc.get(stmt.name_pos.origin.path)
    if not isinstance(text, str) or stmt.subject is None:
        return None
    before = text[:stmt.name_pos.offset].rstrip()
    if not before.endswith("."):
        return None
    end = len(before[:-1].rstrip())
    return n.Pos(stmt.name_pos.origin, end - len(stmt.subject), end)
