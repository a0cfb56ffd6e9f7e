"""Rename: the places to rewrite to give a name the file declares another, worked out from
an analysis (lsp/analysis.py) in the compiler's terms (1-based lines and columns), or the
reason it cannot be (RenameRefused).

A name is renamed where it is written. Text that YAML reads again through an alias (*name) is
written once, at its anchor (&name): a parameter declared in an anchored `choose:` is the
parameter of every move that reads it, and their uses are renamed together. What the file
would be once renamed is checked again (`verify`, the compiler's own check): a rename that
would make a valid file invalid is refused with the compiler's message.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from pathlib import Path

import yaml

from cardrules.dsl import builtins as b
from cardrules.dsl.parser import keywords
from cardrules.dsl.yaml_bounds import Loader
from cardrules.errors import Location

from .analysis import Analysis, analyse
from .features import text_meanings
from .index import Index, Occurrence, Symbol
from .places import Place, split_lines

IDENTIFIER = re.compile(r"[a-z_][a-z0-9_]*")
KEYWORDS = keywords()  # the words rule text reserves: the grammar's keywords
RENAMABLE = ("zone", "variable", "option", "function", "parameter", "local", "value table",
             "step", "phase", "move", "trigger", "meld kind", "score", "procedure")
GLOBAL = ("zone", "variable", "option", "function", "value table", "procedure")
LOCAL = ("parameter", "local")
Spot = tuple[int, int]  # a line and column, 1-based
_BOUND = {"p": "the player being scored in `scoring:`", "card": "the card being tested in "
          "`deck: wild:`"}  # names the checker binds in some rule text


class RenameRefused(Exception):
    """A rename that would break the file, or of something that cannot be renamed."""


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
    a new name that is not one or that would mean something else where it is written."""
    symbol, _ = renamable(analysis, line, column)
    index = analysis.index
    assert index is not None
    if not IDENTIFIER.fullmatch(new) or new in KEYWORDS:
        raise RenameRefused(f"'{new}' is not a valid name here (use lower-case letters, "
                            "digits and _, from a letter or _, and no word of the language: "
                            f"{', '.join(sorted(KEYWORDS))})")
    if new == symbol.name:
        return []
    together = family(analysis, index, symbol)
    for member in together:
        _refuse_clash(index, member, new)
    places: list[Place] = []
    for member in together:
        uses = index.uses(member)
        outside = sorted({Path(o.place.path).name for o in uses
                          if o.place.path != analysis.path})
        if outside:
            raise RenameRefused(f"'{symbol.name}' is also written in {', '.join(outside)}, "
                                "which this file extends: rename it there")
        places += [o.place for o in uses if o.place not in places]
    if symbol.kind == "meld kind":
        places += _kind_texts(analysis, index, symbol, new)
    return sorted(places, key=lambda p: (p.start.line, p.start.column))


def _refuse_clash(index: Index, symbol: Symbol, new: str) -> None:
    """RenameRefused if `new` would mean something else where the symbol is written: a
    built-in, a name of the same kind, a local hiding a global (or hidden by one), an
    attribute of cards or players."""
    if new in b.NAMES or new in b.FUNCTIONS or new in b.AGGREGATES:
        raise RenameRefused(f"'{new}' already names something in this ruleset (a built-in)")
    if symbol.kind in GLOBAL:
        taken = [s for s in index.symbols if s.name == new and s.kind in GLOBAL + LOCAL]
    elif symbol.kind in LOCAL:
        taken = [s for s in index.symbols if s.name == new and (
            s.kind in GLOBAL or (s.kind in LOCAL and s.parent is symbol.parent))]
    else:
        taken = [s for s in index.symbols if s.name == new and s.kind == symbol.kind]
    if taken:
        other = taken[0]
        where = f" (line {other.place.start.line})" if other.place is not None else ""
        raise RenameRefused(f"'{new}' already names something in this ruleset: a "
                            f"{other.kind}{where}")
    if symbol.kind == "value table" and new in {*b.CARD_ATTRIBUTES, *b.SETTLED_CARD_ATTRIBUTES}:
        raise RenameRefused(f"'{new}' is an attribute of every card (c.{new}): a value table "
                            "cannot take its name")
    if symbol.kind in GLOBAL and new in _BOUND:
        raise RenameRefused(f"'{new}' names {_BOUND[new]}: a {symbol.kind} so named "
                            "could not be read there")
    if symbol.kind == "move" and new == "pass":
        raise RenameRefused("'pass' is the answer to a reaction window: a move cannot take "
                            "that name")
    if symbol.kind == "variable" and new in {*b.PLAYER_ATTRIBUTES, *b.SETTLED_PLAYER_ATTRIBUTES}:
        raise RenameRefused(f"'{new}' is an attribute of every player (p.{new}): a variable "
                            "cannot take its name")


# ------------------------------------------------------------------ aliases
def family(analysis: Analysis, index: Index, symbol: Symbol) -> list[Symbol]:
    """The symbol and those that must be renamed with it: a name written in an anchor's
    text (&name) that an alias (*name) reads again is, there, another symbol of the same
    kind and name (another move's parameter), whose other uses are written elsewhere."""
    reads = _reads(analysis.text)
    if not reads:
        return [symbol]
    spots: dict[Spot, list[Occurrence]] = {}
    for found in index.occurrences:
        if found.symbol is not None and found.place.path == analysis.path:
            spots.setdefault(_spot(found.place.start), []).append(found)
    linked: dict[int, list[Symbol]] = {}
    for alias, stretch in reads.items():
        written = [o for o in _written(spots, reads, stretch, set())]
        for again in spots.get(alias, []):
            if not again.aliased or again.symbol is None:
                continue
            for first in written:
                if first.name == again.name and first.symbol is not None and \
                        first.symbol.kind == again.symbol.kind:
                    linked.setdefault(id(first.symbol), []).append(again.symbol)
                    linked.setdefault(id(again.symbol), []).append(first.symbol)
    members, todo = [symbol], [symbol]
    while todo:
        for other in linked.get(id(todo.pop()), []):
            if all(other is not m for m in members):
                members.append(other)
                todo.append(other)
    return members


def _written(spots: dict[Spot, list[Occurrence]], reads: dict[Spot, tuple[Spot, Spot]],
             stretch: tuple[Spot, Spot], seen: set[Spot]) -> Iterator[Occurrence]:
    """The occurrences written in a stretch of the text, and those an alias written in it
    reads again (an alias inside an anchor's text)."""
    start, end = stretch
    for spot, found in spots.items():
        if start <= spot < end:
            yield from (o for o in found if not o.aliased)
            if spot in reads and spot not in seen:
                seen.add(spot)
                yield from _written(spots, reads, reads[spot], seen)


def _reads(text: str) -> dict[Spot, tuple[Spot, Spot]]:
    """For each alias (*name) of a text, by where it is written, the stretch of text of the
    node it repeats (from the anchor's start to just past its end); empty where YAML cannot
    read the text (its analysis then has no names to rename)."""
    if "*" not in text:
        return {}
    reads: dict[Spot, tuple[Spot, Spot]] = {}
    anchors: dict[str, tuple[Spot, Spot]] = {}
    opened: list[tuple[str | None, Spot]] = []
    loader = Loader(text)
    try:
        while loader.check_event():
            event = loader.get_event()
            start = (event.start_mark.line + 1, event.start_mark.column + 1)
            end = (event.end_mark.line + 1, event.end_mark.column + 1)
            if isinstance(event, yaml.AliasEvent):
                if event.anchor in anchors:
                    reads[start] = anchors[event.anchor]
            elif isinstance(event, yaml.ScalarEvent):
                if event.anchor:
                    anchors[event.anchor] = (start, end)
            elif isinstance(event, yaml.CollectionStartEvent):
                opened.append((event.anchor, start))
            elif isinstance(event, yaml.CollectionEndEvent) and opened:
                anchor, began = opened.pop()
                if anchor:
                    anchors[anchor] = (began, end)
    except yaml.YAMLError:
        return {}
    finally:
        loader.dispose()
    return reads


def _spot(where: Location) -> Spot:
    return (where.line, where.column)


# ------------------------------------------------------------------ meld kinds
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


# ------------------------------------------------------------------ the last wall
def renamed(text: str, places: list[Place], new: str) -> str:
    """A text with each place (1-based, of characters, on one line each) rewritten as
    `new`; its lines counted as the analysis counts them (places.split_lines)."""
    lines = split_lines(text)
    ends = _LINE_END.findall(text) + [""]
    for place in sorted(places, key=lambda p: (p.start.line, p.start.column), reverse=True):
        row = place.start.line - 1
        line = lines[row]
        lines[row] = line[:place.start.column - 1] + new + line[place.end.column - 1:]
    return "".join(line + end for line, end in zip(lines, ends))


_LINE_END = re.compile(r"\r\n|\r|\n")


def verify(analysis: Analysis, places: list[Place], new: str,
           unsaved: Mapping[str, str] | None = None) -> None:
    """RenameRefused, with the compiler's message, if the file renamed has problems that
    the file as it is has not (the checks above are the compiler's rules as this module
    knows them; the compiler is the one that decides). `unsaved`: the parents as the editor
    holds them, read as the file's own check read them."""
    before = [d for d in analysis.diagnostics if not d.hint]
    after = [d for d in analyse(analysis.path, renamed(analysis.text, places, new),
                                unsaved).diagnostics if not d.hint]
    if len(after) > len(before):
        problem = after[0] if not before else next(
            (d for d in after if d.message not in {p.message for p in before}), after[0])
        where = f"line {problem.location.line}: " if problem.location is not None else ""
        raise RenameRefused(f"renamed '{new}', the file would not be valid: {where}"
                            f"{problem.message}")
