"""The front door of the dsl: rule file (path or built-in name) to Ruleset.

    load_ruleset("rulesets/golf6.yaml")   # or load_ruleset("golf6")
    check_files(["mine.yaml"])             # every diagnostic, for `cardrules validate`
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from cardrules.errors import Diagnostic, Location, RulesetError
from cardrules.model import Ruleset

from .binding import forget_lines
from .compiler import check_document, code_names, compile_checked, compile_document, let_go
from .dump import dump, resolved_yaml
from .inherit import MergedDocument, merge_documents, parent_path, parent_reference
from .reader import read
from .schema import check_structure
from .source import Document, parse_yaml
from .yaml_bounds import MAX_BYTES


def builtin_names() -> list[str]:
    """The names of the rulesets shipped with cardrules."""
    folder = resources.files("cardrules.rulesets")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".yaml"))


RULE_FILE_SUFFIXES = (".yaml", ".yml")
# A rule file's first key, at the start of a line: what a parent must have to be read at all.
_VERSION_KEY = re.compile(r"^cardrules[ \t]*:", re.M)


def is_file(path: Path) -> bool:
    """Whether `path` names a file; False for a name the system refuses (too long, say)."""
    try:
        return path.is_file()
    except (OSError, ValueError):  # a name too long, or with a NUL in it
        return False


def exists(path: Path) -> bool:
    """Whether `path` names anything at all (False for a name the system refuses)."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def is_dir(path: Path) -> bool:
    """Whether `path` names a folder (False for a name the system refuses)."""
    try:
        return path.is_dir()
    except (OSError, ValueError):
        return False


def shown_name(ref: str | Path, width: int = 80) -> str:
    """A file name or reference as messages show it: cut short when it is very long."""
    text = str(ref)
    return text if len(text) <= width else text[:width - 3] + "..."


def builtin_file(ref: str) -> Path | None:
    """The file of the built-in ruleset `ref` names, or None if it names none (a path, a
    file's name, another name). A built-in's name always means the built-in."""
    if "/" in ref or ref.endswith(RULE_FILE_SUFFIXES):
        return None
    shipped = Path(str(resources.files("cardrules.rulesets").joinpath(ref + ".yaml")))
    return shipped if is_file(shipped) else None


def resolve(ref: str, builtin_only: bool = False) -> Path:
    """The file of a built-in ruleset of that name, or a path to a rule file. A built-in's
    name (no folder, no .yaml) is always the built-in: a file of that name in the current
    folder does not stand in for it (a game's key names it alone). With `builtin_only`, a
    name (not a path) is looked for among the built-in rulesets alone."""
    path = Path(ref)
    named = "/" not in ref and not ref.endswith(RULE_FILE_SUFFIXES)
    shipped = builtin_file(ref)  # whatever the current folder holds
    if shipped is not None:
        return shipped
    if not (named and builtin_only) and is_file(path):
        return path
    if named:
        known = ", ".join(builtin_names())
        where = "" if builtin_only else "not a file, and "
        raise RulesetError([Diagnostic(None, f"no ruleset '{shown_name(ref)}': {where}not one "
                                             f"of the built-in rulesets ({known})")])
    found = "is a folder, not a rule file" if is_dir(path) else \
        "is not a file (a device, or a pipe), not a rule file" if exists(path) else \
        "no such file"
    raise RulesetError([Diagnostic(None, f"{shown_name(ref)}: {found}")])


def read_text(path: Path) -> str:
    """A rule file's text; RulesetError (naming the file, quoting nothing) if unreadable, or
    located at the first byte that is not UTF-8."""
    try:
        with path.open("rb") as file:  # at most a little over a rule file's bound: a device
            data = file.read(MAX_BYTES * 4 + 1)  # may never end (4: UTF-8's longest character)
    except OSError as exc:
        raise RulesetError([Diagnostic(None, f"{shown_name(path)}: cannot read: "
                                             f"{exc.strerror}")]) from None
    if len(data) > MAX_BYTES * 4:
        raise RulesetError([Diagnostic(Location(str(path), 1, 1), f"the file is larger than "
                                       f"{MAX_BYTES * 4:,} bytes; a rule file has at most "
                                       f"{MAX_BYTES:,} characters")])
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RulesetError([_not_utf8(str(path), data, exc.start)]) from None


def _not_utf8(path: str, data: bytes, at: int) -> Diagnostic:
    """Where the first byte that is not UTF-8 lies, as a line and a column of characters."""
    start = data.rfind(b"\n", 0, at) + 1
    line = data.count(b"\n", 0, at) + 1
    before = data[start:at].decode("utf-8", errors="replace")
    return Diagnostic(Location(path, line, len(before) + 1),
                      f"not a text file (UTF-8): byte 0x{data[at]:02X} is not part of any "
                      "character")


def read_document(path: Path, text: str | None = None) -> Document:
    """Read and parse a rule file's YAML (stage 1)."""
    doc = parse_yaml(read_text(path) if text is None else text, str(path))
    if not isinstance(doc.data, dict):
        raise RulesetError([Diagnostic(Location(str(path), 1, 1),
                                       "a rule file must be a YAML mapping of keys to values")])
    return doc


MAX_EXTENDS = 16  # files in one chain of `extends:`, the first included


def load_document(path: Path, chain: tuple[Path, ...] = (), text: str | None = None,
                  unsaved: Mapping[str, str] | None = None) -> Document:
    """A rule file's document, merged onto its parents when it `extends:` one (`text`: the
    file's text, when it has been read already; `unsaved`: the texts an editor holds of
    files it has open, by resolved path, read for a parent in place of its file)."""
    doc = read_document(path, text)
    reference = parent_reference(doc)
    if reference is None:
        return doc
    name = reference[0]
    if len(chain) + 1 >= MAX_EXTENDS:
        raise RulesetError([doc.diagnostic(("extends",), f"more than {MAX_EXTENDS} rulesets "
                                                         "extend one another in a chain: no "
                                                         "house rule needs that many layers")])
    try:
        parent_file = referenced_file(parent_path(doc, name), "a parent's name")
        text = rule_file_text(parent_file, (unsaved or {}).get(str(parent_file.resolve())))
    except RulesetError as exc:
        cause = exc.diagnostics[0].message if exc.diagnostics else ""
        raise RulesetError([doc.diagnostic(("extends",), f"cannot use the parent ruleset "
                                                         f"'{shown_name(name)}': {cause}")]) \
            from None
    here = path.resolve()
    seen = (*chain, here)
    if parent_file.resolve() in seen:
        cycle = " -> ".join(str(p) for p in (*seen, parent_file.resolve()))
        raise RulesetError([doc.diagnostic(("extends",), f"rulesets extend each other in a "
                                                         f"cycle: {cycle}")])
    return merge_documents(load_document(parent_file, seen, text, unsaved), doc)


def referenced_file(ref: str, what: str) -> Path:
    """The file that a reference in data someone else may have written names (a parent in
    `extends:`, a saved game's ruleset): a built-in ruleset's name, or a path whose name ends
    in .yaml or .yml. Any other path is refused before the system is asked about it, so the
    message tells nothing of that file, not even whether it exists (`what`: whose name it is,
    for the message)."""
    named = "/" not in ref and "\\" not in ref and not ref.lower().endswith(RULE_FILE_SUFFIXES)
    if not named and Path(ref).suffix.lower() not in RULE_FILE_SUFFIXES:
        raise RulesetError([Diagnostic(None, f"not a rule file: {what} ends in .yaml or .yml")])
    return resolve(ref, builtin_only=True)


def rule_file_text(path: Path, text: str | None = None) -> str:
    """The text of a referenced file (`referenced_file`; `text`: an editor's unsaved text of
    it, read in its place) if it is a rule file: at most a rule file's size, with a
    top-level `cardrules:` key. Any other file is read but never quoted: a message about it
    holds its name alone, none of its lines."""
    if text is None:
        text = read_text(path)
    if not _VERSION_KEY.search(text):
        raise RulesetError([Diagnostic(None, "not a rule file: it has no top-level "
                                             "'cardrules:' key")])
    return text


@dataclass(frozen=True)
class RulesetRef:
    """How another process loads a ruleset: a file (an absolute path) or a built-in name, and
    options. Small, picklable and hashable, for simulations run over many workers."""

    ref: str
    options: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, ref: str, options: dict[str, str] | None = None) -> RulesetRef:
        path = Path(ref)
        where = str(path.resolve()) if builtin_file(ref) is None and is_file(path) else ref
        return cls(where, tuple(sorted((options or {}).items())))

    def load(self) -> Ruleset:
        return load_ruleset(self.ref, dict(self.options) or None)


def load_ruleset(ref: str | Path, options: dict[str, Any] | None = None) -> Ruleset:
    """Load, check and compile a ruleset; raise RulesetError with every problem found.

    A Ruleset is immutable, so the same files with the same options compile once: the last
    few are kept, keyed by the text of every file read (a changed file compiles afresh)."""
    return _compiled(load_document(resolve(str(ref))), options)


def load_referenced(ref: str, options: dict[str, Any] | None = None) -> Ruleset:
    """`load_ruleset` for a ruleset named in data someone else may have written (a saved
    game's `ruleset`, by `cardrules resume` and `serve --resume`): a built-in ruleset's name,
    or a rule file, checked as a parent in `extends:` is (`referenced_file`,
    `rule_file_text`) before it is parsed."""
    path = referenced_file(ref, "a saved game names a built-in ruleset or a file whose name")
    return _compiled(load_document(path, text=rule_file_text(path)), options)


def _compiled(doc: Document, options: dict[str, Any] | None) -> Ruleset:
    """A loaded document checked and compiled with `options` (or the one compiled already)."""
    key = (_sources(doc), tuple(sorted((k, str(v)) for k, v in (options or {}).items())))
    with _KEEPING:  # (a server compiles in its threads)
        found = _COMPILED.get(key)
        if found is not None:
            _COMPILED.move_to_end(key)
            return found
    problems = list(check_structure(doc))
    if problems:
        raise RulesetError(problems)
    rules = compile_document(doc, options)
    with _KEEPING:
        _COMPILED[key] = rules
        while len(_COMPILED) > _KEEP:
            _, old = _COMPILED.popitem(last=False)
            kept = {name for other in _COMPILED.values() for name in code_names(other)}
            for name in let_go(old):  # (its source, kept for tracebacks, goes with it)
                if name not in kept:
                    forget_lines(name)
    return rules


STAGES = ("yaml", "nodes", "ir", "python")  # what `cardrules show --stage` prints


def stage_text(ref: str | Path, stage: str, options: dict[str, Any] | None = None) -> str:
    """What a stage of the compiler makes of a ruleset, as text to read (docs/
    language-design.md, the stages): `nodes` the syntax tree the reader builds from the rule
    text, `ir` the checked program for these options, `python` the generated module headed by
    its rule text; `yaml` is the document the loader resolved (parents merged in). Every stage
    before the one asked for runs, and its problems are raised as they would be on loading."""
    if stage not in STAGES:
        raise ValueError(f"no stage {stage!r}")
    if stage in ("yaml", "python"):
        rules = load_ruleset(ref, options)
        return rules.python if stage == "python" else resolved_yaml(rules.data, rules.options)
    doc = load_document(resolve(str(ref)))
    problems = list(check_structure(doc))
    if problems:
        raise RulesetError(problems)
    if stage == "nodes":
        decls, problems = read(doc)
        if problems:
            raise RulesetError(problems)
        if options:  # (the tree is the text's, whatever the options; they are checked still)
            check_document(doc, options)
        return dump(decls)
    return dump(check_document(doc, options).program)


_KEEP = 32
_KEEPING = threading.Lock()
_COMPILED: OrderedDict[tuple[Any, ...], Ruleset] = OrderedDict()


def _sources(doc: Document) -> tuple[tuple[str, str], ...]:
    """The path and text of every file a document was read from."""
    if isinstance(doc, MergedDocument):
        docs = {id(d): d for d, _ in doc.origins.values()}
        return tuple(sorted(p for d in docs.values() for p in _sources(d)))
    return ((doc.path, doc.text),)


def check_file(path: str, hints: bool = False) -> Iterator[Diagnostic]:
    """Yield every problem in one rule file (none if it is valid); with `hints`, a valid
    file's hints too (notes that make nothing invalid, such as a name hiding a built-in)."""
    yield from _check(lambda: load_document(resolve(path)), hints=hints)


def check_text(path: str, text: str, hints: bool = False,
               unsaved: Mapping[str, str] | None = None) -> list[Diagnostic]:
    """Every problem in `text` read as the rule file at `path`, which need not be saved (an
    editor's buffer): its parents are read from beside `path`, as they would be for the file
    (a parent in `unsaved`, by its resolved path, from the text given there).
    The stages stop after the meaning check, where every diagnostic comes from: no code is
    generated, so nothing is run. With `hints`, a valid text's hints follow."""
    return list(_check(lambda: load_document(Path(path), text=text, unsaved=unsaved),
                       generate=False,
                       hints=hints))


def _check(load: Callable[[], Document], generate: bool = True,
           hints: bool = False) -> Iterator[Diagnostic]:
    """The problems the stages find in the document `load` reads, each stage stopping the
    next; with `generate`, the ruleset is compiled to the end, as the game would load it;
    with `hints`, a valid file's hints follow."""
    try:
        doc = load()
    except RulesetError as exc:
        yield from exc.diagnostics
        return
    problems = list(check_structure(doc))
    if problems:
        yield from problems
        return
    try:
        checked = check_document(doc)
        if generate:
            compile_checked(checked, doc)
    except RulesetError as exc:
        yield from exc.diagnostics
        return
    if hints:
        yield from checked.hints


def check_files(paths: Iterable[str], hints: bool = False) -> list[Diagnostic]:
    """Every problem in every file given (with `hints`, and every valid file's hints)."""
    return [d for p in paths for d in check_file(p, hints)]
