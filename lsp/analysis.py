"""One look at a rule file's text, as the compiler sees it: its diagnostics (exactly what
`cardrules validate` prints for the file), and what it names (lsp/index.py).

The loader's stages run on the text once, as `check_text` (the loader's check of a text given
for a path) runs them, so the diagnostics are the same; the names come from the declarations
of the checked program, or, when the meaning check finds problems, from the reader's (which
it builds even then). Nothing is compiled to code and nothing is run; the only files read are
the ones the loader reads, the parents named by `extends:`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

from cardrules.dsl.compiler import check_document
from cardrules.dsl.inherit import parent_path, parent_reference
from cardrules.dsl.loader import (
    RULE_FILE_SUFFIXES,
    builtin_file,
    load_document,
    read_document,
)
from cardrules.dsl.reader import read
from cardrules.dsl.schema import check_structure
from cardrules.dsl.source import Document
from cardrules.dsl.yaml_bounds import MAX_BYTES
from cardrules.errors import Diagnostic, Location, RulesetError

from .index import Index, build_index
from .places import split_lines


@dataclass
class Analysis:
    """What the compiler's stages found in one text of a rule file."""

    path: str
    text: str
    diagnostics: list[Diagnostic]
    doc: Document | None = None  # the file's document, merged onto its parents
    index: Index | None = None  # its names, when its structure could be read
    own: Document | None = None  # the file's own document, before any merge
    parents: list[str] = field(default_factory=list)  # the files it extends
    texts: dict[str, str] = field(default_factory=dict)  # the text of each of those files
    _lines: dict[str, list[str]] = field(default_factory=dict, repr=False)

    def lines_of(self, path: str) -> list[str]:
        """The lines of this text (for its own path) or of a parent's, split once (a file
        of the text's; none for a file the analysis did not keep)."""
        found = self._lines.get(path)
        if found is None:
            text = self.text if path == self.path else self.texts.get(path, "")
            found = self._lines[path] = split_lines(text)
        return found

    @property
    def readable(self) -> bool:
        """Whether its names could be read (its YAML and structure are sound)."""
        return self.index is not None


def analyse(path: str, text: str, unsaved: Mapping[str, str] | None = None) -> Analysis:
    """Check a text as the rule file at `path`, and read what it names (a parent the editor
    has open, in `unsaved` by its resolved path, read as the editor holds it). A failure the
    compiler does not describe (a bug of cardrules) becomes a diagnostic at the file's top
    rather than an editor's lost server."""
    try:
        return _analyse(path, text, unsaved)
    except RecursionError:
        problem = "this file is too deeply nested to check"
    except Exception as exc:  # noqa: BLE001 - an editor must keep its server
        problem = f"cardrules could not check this file ({type(exc).__name__}): please report it"
    return Analysis(path, text, [Diagnostic(Location(path, 1, 1), problem)])


def _analyse(path: str, text: str, unsaved: Mapping[str, str] | None) -> Analysis:
    """The loader's stages, as `check_text` runs them (hints included), each one once: the
    checked program a valid text gives is the one its names are read from."""
    try:
        doc = load_document(Path(path), text=text, unsaved=unsaved)
    except RulesetError as exc:
        found = Analysis(path, text, list(exc.diagnostics),
                         texts=_texts_told(exc.diagnostics, path, unsaved))
        # (its parents could not be merged: its own keys are still where they are, and the
        # parent it names is still the one it extends, to check it again once that mends)
        with suppress(RulesetError):
            found.own = read_document(Path(path), text)
            found.parents = _named_parent(found.own)
        return found
    found = Analysis(path, text, [], doc, own=_own(doc), parents=_parents(doc),
                     texts=_texts(doc))
    found.diagnostics = list(check_structure(doc))
    if found.diagnostics:
        return found
    try:
        checked = check_document(doc)
    except RulesetError as exc:
        found.diagnostics = list(exc.diagnostics)
        # (a check that fails keeps no declarations: they are read again, for the names)
        with suppress(RecursionError, RulesetError):
            found.index = build_index(read(doc)[0])
        return found
    found.diagnostics = list(checked.hints)
    found.index = build_index(checked.decls, checked)
    return found


def _texts_told(diagnostics: list[Diagnostic], path: str,
                unsaved: Mapping[str, str] | None) -> dict[str, str]:
    """The text of each other file a diagnostic points into (a parent that did not load:
    its YAML broken, say), as the editor holds it or as it lies on disk (at most what the
    loader reads of a rule file), so that its place is told where it is."""
    out: dict[str, str] = {}
    for diagnostic in diagnostics:
        where = diagnostic.location
        if where is None or where.path == path or where.path in out:
            continue
        held = (unsaved or {}).get(where.path) or (unsaved or {}).get(
            os.path.abspath(where.path))
        if held is not None:
            out[where.path] = held
            continue
        with suppress(OSError, UnicodeDecodeError):
            if Path(where.path).is_file():
                with open(where.path, "rb") as file:
                    out[where.path] = file.read(MAX_BYTES + 1).decode("utf-8")
    return out


def _named_parent(own: Document) -> list[str]:
    """The rule file a document's `extends:` names, whether or not it is there or loads
    (none for a built-in ruleset's name, which no edit changes, nor for a name the loader
    refuses: RulesetError for an absolute path)."""
    reference = parent_reference(own)
    if reference is None or builtin_file(reference[0]) is not None:
        return []
    target = parent_path(own, reference[0])
    return [os.path.abspath(target)] if target.lower().endswith(RULE_FILE_SUFFIXES) else []


def _own(doc: Document) -> Document:
    """The document of the file itself, whether or not it was merged onto a parent."""
    origins = getattr(doc, "origins", None)
    if origins is None:
        return doc
    own: Document = origins[()][0]
    return own


def _texts(doc: Document) -> dict[str, str]:
    """The text of every file a merged document was read from, by path."""
    origins = getattr(doc, "origins", None)
    if origins is None:
        return {doc.path: doc.text}
    return {source.path: source.text for source, _ in origins.values()}


def _parents(doc: Document) -> list[str]:
    """The paths of the files a merged document was read from, other than its own."""
    origins = getattr(doc, "origins", None)
    if origins is None:
        return []
    paths: list[str] = []
    for source, _ in origins.values():
        if source.path != doc.path and source.path not in paths:
            paths.append(source.path)
    return paths
