"""Between the compiler's places and the editor's positions.

A place is a 1-based line and column of characters in the text an analysis was made of; a
position is a 0-based line and a column counted in the editor's units (UTF-16 by default) in
the document's text as it is now. The two texts differ while a newer text waits for its
check: the lines before and after the stretch rewritten since are the same in both, and
are carried across (`Changed`); a place on a rewritten line cannot be (`Moved`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from lsprotocol import types as t
from pygls.uris import from_fs_path
from pygls.workspace.position_codec import PositionCodec, ServerTextPosition

from cardrules.errors import Location

from .analysis import Analysis
from .places import Place, split_lines


class Moved(Exception):
    """A place on a line rewritten since the analysis was made: it cannot say what is
    there now."""


@dataclass(frozen=True)
class Changed:
    """How a text's lines moved: the lines before `first` are the same in both texts, and
    so are those from `old_end` in the old text and from `new_end` in the new (0-based);
    the old lines between `first` and `old_end` were rewritten as the new lines between
    `first` and `new_end`."""

    first: int
    old_end: int
    new_end: int

    @classmethod
    def between(cls, old: list[str], new: list[str]) -> Changed:
        """The one stretch of lines that differs between two texts' lines (typing since the
        last check, wherever it was, lies in it)."""
        first, most = 0, min(len(old), len(new))
        while first < most and old[first] == new[first]:
            first += 1
        after = 0
        while after < most - first and old[-1 - after] == new[-1 - after]:
            after += 1
        return cls(first, len(old) - after, len(new) - after)

    @property
    def none(self) -> bool:
        """Whether the two texts have the same lines."""
        return self.first == self.old_end == self.new_end

    def to_old(self, line: int) -> int:
        """A line of the new text (0-based) in the old; Moved for a rewritten one."""
        if line < self.first:
            return line
        if line >= self.new_end:
            return line - self.new_end + self.old_end
        raise Moved(line)

    def to_new(self, line: int) -> int:
        """A line of the old text (0-based) in the new; Moved for a rewritten one."""
        if line < self.first:
            return line
        if line >= self.old_end:
            return line - self.old_end + self.new_end
        raise Moved(line)

    def nearest_old(self, line: int) -> int:
        """A line of the new text in the old, or for a rewritten one, the old line nearest
        to it among those rewritten (the line before them, if none was)."""
        try:
            return self.to_old(line)
        except Moved:
            return max(min(line, self.old_end - 1), self.first - 1, 0)


SAME = Changed(0, 0, 0)  # (two texts with the same lines)


class View:
    """An analysis seen from the document as it is now (`text`, the editor's): positions
    of the document as places of the analysis, and places as the editor's locations, each
    carried across the lines rewritten since (Moved where it cannot be)."""

    def __init__(self, found: Analysis, codec: PositionCodec, text: str | None = None):
        self.found = found
        self.codec = codec
        self.changed = SAME if text is None or text == found.text else Changed.between(
            found.lines_of(found.path), split_lines(text))

    @property
    def current(self) -> bool:
        """Whether the analysis is of the document's text as it is."""
        return self.changed.none

    def place_in(self, position: t.Position) -> tuple[int, int]:
        """An editor's position in the document as a 1-based line and column of characters
        of the analysis' text."""
        line = self.changed.to_old(position.line)
        lines = self.found.lines_of(self.found.path)
        character = position.character
        if 0 <= line < len(lines):  # (past a line's end is its end, not its last character,
            character = min(character, self.codec.client_num_units(lines[line]))  # as pygls)
        server = self.codec.position_from_client_units(
            lines, t.Position(line=line, character=character))
        return server.line + 1, server.character + 1

    def location_of(self, place: Place) -> t.Location:
        """A place of the analysis (in the document or a file it extends) as the editor's
        location."""
        path = place.path
        lines = self.found.lines_of(path)
        # (a file whose text the analysis did not keep is one named by `extends:`, whose
        # place is its start, which needs no text to be shown)
        where = range_of(self.codec, place, lines)
        if path == self.found.path and not self.changed.none:
            where = t.Range(start=t.Position(line=self.changed.to_new(where.start.line),
                                             character=where.start.character),
                            end=t.Position(line=self.changed.to_new(where.end.line),
                                           character=where.end.character))
        return t.Location(uri=uri_of(path), range=where)


def uri_of(path: str) -> str:
    """The URI of a file's path."""
    path = os.path.abspath(path)
    return from_fs_path(path) or path


def range_of(codec: PositionCodec, place: Place, lines: list[str]) -> t.Range:
    """A place of a text (1-based, in characters) as an editor's range in it."""
    return t.Range(start=position_of(codec, place.start, lines),
                   end=position_of(codec, place.end, lines))


def position_of(codec: PositionCodec, where: Location, lines: list[str]) -> t.Position:
    """A place's line and column (1-based, in characters) as an editor's position."""
    line = max(where.line - 1, 0)
    character = max(where.column - 1, 0)
    if line < len(lines):
        character = min(character, len(lines[line]))
    return codec.position_to_client_units(lines, ServerTextPosition(line, character))
