"""`extends:`: a ruleset built on another, stating only what differs.

Merge rules (docs/grammar.md, "Inheritance"):
- mappings merge key by key; a key whose value is null (`evaluate: null`, or `~`) deletes the
  parent's key of that name;
- lists of named things (every item a mapping with `name`: options, zones, phases, steps,
  moves, triggers, scoring entries...) merge by name: an entry whose name the parent has is
  merged into the parent's entry (key by key; `replace: true` replaces it whole, `remove: true`
  removes it); a new entry is appended, or placed with `insert_before: NAME` or
  `insert_after: NAME`;
- anything else (numbers, texts, lists of statements) replaces the parent's value.

The merged document remembers which file wrote every node, so an error in an inherited rule
points at the parent's file and line.
"""

from __future__ import annotations

import os
from pathlib import Path as FilePath
from typing import Any

from cardrules.errors import Diagnostic, Location, RulesetError

from .source import Document, Path

DIRECTIVES = ("remove", "replace", "insert_before", "insert_after")


class MergedDocument(Document):
    """A document assembled from several files; every node answers for its own file."""

    def __init__(self, path: str, data: Any, origins: dict[Path, tuple[Document, Path]]):
        super().__init__(path, "", data)
        self.origins = origins

    def _origin(self, path: Path) -> tuple[Document, Path]:
        probe = tuple(path)
        for cut in range(len(probe), -1, -1):
            found = self.origins.get(probe[:cut])
            if found is not None:
                doc, base = found
                return doc, (*base, *probe[cut:])
        raise KeyError(path)  # pragma: no cover - the root always has an origin

    def where(self, path: Path, key: bool = False) -> Location:
        doc, orig = self._origin(path)
        return doc.where(orig, key)

    def where_in(self, path: Path, offset: int) -> Location:
        doc, orig = self._origin(path)
        return doc.where_in(orig, offset)

    def diagnostic(self, path: Path, message: str, key: bool = False,
                   offset: int | None = None, end: int | None = None) -> Diagnostic:
        doc, orig = self._origin(path)
        return doc.diagnostic(orig, message, key=key, offset=offset, end=end)


def merge_documents(parent: Document, child: Document) -> MergedDocument:
    """The child's document laid over its parent's, by the merge rules."""
    origins: dict[Path, tuple[Document, Path]] = {(): (child, ())}
    errors: list[Diagnostic] = []
    if "name" not in child.data:  # else it would run under its parent's name
        errors.append(child.diagnostic(("extends",), "a ruleset that extends another needs a "
                                                     "name of its own: add 'name:' (the file's "
                                                     "name)"))
    child_data = {k: v for k, v in child.data.items() if k != "extends"}
    data = _merge(parent, (), parent.data, child, (), child_data, (), origins, errors)
    if errors:
        raise RulesetError(errors)
    return MergedDocument(child.path, data, origins)


def _subtree(doc: Document, path: Path, value: Any, at: Path,
             origins: dict[Path, tuple[Document, Path]]) -> Any:
    origins[at] = (doc, path)
    return value


def _merge(pdoc: Document, ppath: Path, pval: Any, cdoc: Document, cpath: Path, cval: Any,
           at: Path, origins: dict[Path, tuple[Document, Path]],
           errors: list[Diagnostic]) -> Any:
    if isinstance(pval, dict) and isinstance(cval, dict):
        origins[at] = (cdoc, cpath)
        out: dict[str, Any] = {}
        for key, value in pval.items():
            if key not in cval:
                out[key] = _subtree(pdoc, (*ppath, key), value, (*at, key), origins)
        for key, value in cval.items():
            if value is None:  # `key: null` deletes the parent's key
                if key not in pval:
                    errors.append(cdoc.diagnostic(
                        (*cpath, key), f"cannot delete '{key}': the parent has no such key "
                        f"(keys: {', '.join(pval)})", key=True))
                continue
            if key in pval:
                out[key] = _merge(pdoc, (*ppath, key), pval[key], cdoc, (*cpath, key), value,
                                  (*at, key), origins, errors)
            else:
                out[key] = _subtree(cdoc, (*cpath, key), value, (*at, key), origins)
        # keep the parent's order of keys, then the child's new ones
        return {k: out[k] for k in [*pval, *[k for k in cval if k not in pval]] if k in out}
    if _named_list(pval) and _named_list(cval):
        return _merge_named(pdoc, ppath, pval, cdoc, cpath, cval, at, origins, errors)
    return _subtree(cdoc, cpath, cval, at, origins)


def _named_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(
        isinstance(item, dict) and "name" in item for item in value)


class _Entry:
    """One entry of a named list while merging: where it came from, and the child's
    changes to lay over it, if any."""

    def __init__(self, name: str, value: Any, doc: Document, path: Path):
        self.name, self.value, self.doc, self.path = name, value, doc, path
        self.change: tuple[Any, Document, Path] | None = None


def _merge_named(pdoc: Document, ppath: Path, pval: list[Any], cdoc: Document, cpath: Path,
                 cval: list[Any], at: Path, origins: dict[Path, tuple[Document, Path]],
                 errors: list[Diagnostic]) -> list[Any]:
    entries = [_Entry(item["name"], item, pdoc, (*ppath, i)) for i, item in enumerate(pval)]
    given: dict[str, bool] = {}  # each name the child's list gives: was it a removal?
    for i, item in enumerate(cval):
        here = (*cpath, i)
        name = item["name"]
        if given.get(repr(name)) is False:  # named twice (removing, then adding again, is a move)
            errors.append(cdoc.diagnostic((*here, "name"), f"'{name}' is given twice in this "
                                          "list: give each entry once"))
            continue
        given[repr(name)] = item.get("remove") is True
        names = [e.name for e in entries]
        body = {k: v for k, v in item.items() if k not in DIRECTIVES}
        placed = "insert_before" in item or "insert_after" in item
        if item.get("remove") is True:
            if name in names:
                del entries[names.index(name)]
            else:
                errors.append(cdoc.diagnostic((*here, "name"), f"cannot remove '{name}': the "
                                              "parent has no entry of that name"
                                              + _listing(names)))
        elif name in names and not placed:
            entry = entries[names.index(name)]
            if item.get("replace") is True:
                entry.value, entry.doc, entry.path, entry.change = body, cdoc, here, None
            else:
                entry.change = (body, cdoc, here)
        elif name in names:
            errors.append(cdoc.diagnostic((*here, "name"), f"'{name}' is already an entry: "
                                          "to move it, remove it and add it again"))
        else:
            for key, value in body.items():  # `key: null` deletes a parent's key: none here
                if value is None:
                    errors.append(cdoc.diagnostic(
                        (*here, key), f"cannot delete '{key}': the parent has no such key "
                        f"('{name}' is a new entry: leave the key out)"))
            position = _position(item, names, cdoc, here, errors)
            if position is not None:
                entries.insert(position, _Entry(name, body, cdoc, here))
    origins[at] = (cdoc, cpath)
    out = []
    for index, entry in enumerate(entries):
        spot = (*at, index)
        if entry.change is None:
            out.append(_subtree(entry.doc, entry.path, entry.value, spot, origins))
        else:
            body, doc, path = entry.change
            out.append(_merge(entry.doc, entry.path, entry.value, doc, path, body, spot,
                              origins, errors))
    return out


def _position(item: dict[str, Any], names: list[str], doc: Document, here: Path,
              errors: list[Diagnostic]) -> int | None:
    """Where a new entry goes: before or after a named one, else at the end."""
    for key, shift in (("insert_before", 0), ("insert_after", 1)):
        if key in item:
            anchor = item[key]
            if anchor in names:
                return names.index(anchor) + shift
            errors.append(doc.diagnostic((*here, key), f"no entry '{anchor}' to place "
                                         f"'{item['name']}' {key}" + _listing(names)))
            return None
    return len(names)


def _listing(names: list[str]) -> str:
    return " (entries: " + ", ".join(names) + ")" if names else ""


def parent_reference(child: Document) -> tuple[str, Location] | None:
    """The `extends:` value of a document and where it is written, if any."""
    data = child.data
    if isinstance(data, dict) and isinstance(data.get("extends"), str):
        return data["extends"], child.where(("extends",))
    return None


def parent_path(child: Document, ref: str) -> str:
    """A parent reference as a loadable name: a path relative to the child's file, or a
    built-in ruleset's name. An absolute path is refused: a rule file names its parent
    where it lies beside it, so that a file sent by someone else cannot read anywhere."""
    if "/" in ref or "\\" in ref or ref.endswith((".yaml", ".yml")):
        if FilePath(ref).is_absolute() or ref.startswith(("/", "\\", "~")) or \
                (len(ref) > 1 and ref[1] == ":"):
            raise RulesetError([Diagnostic(None, "a parent is named relative to this file "
                                                 "(base.yaml, ../common/base.yaml) or by a "
                                                 "built-in name, not by an absolute path")])
        # (joined as written: a file beside one in the working folder, `./golf6`, stays a
        # path, never the built-in name `golf6` that pathlib would make of it)
        return os.path.join(os.path.dirname(child.path) or ".", ref)
    return ref
