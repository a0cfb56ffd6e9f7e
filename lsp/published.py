"""An analysis' diagnostics as the editor is sent them, by the file they are in: the
document's own, and those located in the files it extends (for those files, and pointed at
from the document's `extends:`). Made in the checking thread, with the check: what is left
for the server's loop to do is to send them. Their messages read as `validate` prints them
(`printable`: no control character or terminal escape a rule file's text may hold).
"""

from __future__ import annotations

import os
from typing import Any

from lsprotocol import types as t
from pygls.workspace.position_codec import PositionCodec

from cardrules.errors import Diagnostic, Location
from cardrules.present.render import printable

from .analysis import Analysis
from .places import Place
from .positions import range_of, uri_of

SOURCE = "cardrules"


def by_file(found: Analysis, uri: str, codec: PositionCodec) -> dict[str, list[t.Diagnostic]]:
    """The diagnostics of an analysis of the document at `uri`, by the URI of the file each
    is in (the document's own list first, empty if it has none)."""
    made: dict[str, list[t.Diagnostic]] = {uri: []}
    for diagnostic in found.diagnostics:
        where = diagnostic.location
        target = uri if where is None or where.path == found.path else \
            uri_of(os.path.abspath(where.path))
        converted = convert(diagnostic, found, codec)
        made.setdefault(target, []).append(converted)
        if target != uri:
            made[uri].append(inherited(diagnostic, converted, target, found, codec))
    return made


def convert(diagnostic: Diagnostic, found: Analysis, codec: PositionCodec) -> t.Diagnostic:
    """A diagnostic as the editor takes it: its range from where it starts to where the
    offending text ends (to the end of the word at its start, where that is not known)."""
    where = diagnostic.location or Location(found.path, 1, 1)
    lines = found.lines_of(where.path)
    end = diagnostic.end or _word_end(lines, where)
    return t.Diagnostic(range=range_of(codec, Place(where, end), lines),
                        message=printable(diagnostic.message), source=SOURCE,
                        severity=t.DiagnosticSeverity.Hint if diagnostic.hint else
                        t.DiagnosticSeverity.Error)


def inherited(diagnostic: Diagnostic, converted: t.Diagnostic, target: str, found: Analysis,
              codec: PositionCodec) -> t.Diagnostic:
    """A diagnostic of a parent's text, shown at this file's `extends:`: the parent's
    place, the message, and a link to it."""
    own = found.own
    span = own.spans.get(("extends",)) if own is not None else None
    start = Location(found.path, span.line, span.column) if span else Location(
        found.path, 1, 1)
    end = Location(found.path, span.end_line, span.end_column) \
        if span and span.end_line else _word_end(found.lines_of(found.path), start)
    place = diagnostic.location
    head = f"{os.path.basename(place.path)}:{place.line}:{place.column}: " if place else ""
    return t.Diagnostic(
        range=range_of(codec, Place(start, end), found.lines_of(found.path)),
        message=printable(f"in the parent ruleset, {head}{diagnostic.message}"),
        severity=converted.severity, source=SOURCE,
        related_information=[t.DiagnosticRelatedInformation(
            location=t.Location(uri=target, range=converted.range),
            message=converted.message)])


def merged(lists: list[list[t.Diagnostic]]) -> list[t.Diagnostic]:
    """The diagnostics of several lists, each once, in the order first found."""
    kept: dict[tuple[Any, ...], t.Diagnostic] = {}
    for items in lists:
        for item in items:
            kept.setdefault(identity(item), item)
    return list(kept.values())


def identity(diagnostic: t.Diagnostic) -> tuple[Any, ...]:
    """What makes two published diagnostics one (the fields filled in here), as a key a
    dict can hold: comparing each with all the others would take the square of their
    number."""
    return (_span(diagnostic.range), diagnostic.message, diagnostic.severity, diagnostic.source,
            tuple((i.location.uri, _span(i.location.range), i.message)
                  for i in diagnostic.related_information or ()))


def _span(where: t.Range) -> tuple[int, int, int, int]:
    return (where.start.line, where.start.character, where.end.line, where.end.character)


def _word_end(lines: list[str], where: Location) -> Location:
    """The end of the word (or the one character) at a place: a range an editor can show."""
    if not 0 < where.line <= len(lines):
        return where
    text = lines[where.line - 1]
    end = where.column - 1
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    if end == where.column - 1 and end < len(text):
        end += 1
    return Location(where.path, where.line, end + 1)
