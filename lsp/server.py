"""The language server: LSP over stdio (pygls), answering from lsp/analysis.py.

A text is checked a moment after the last keystroke (DELAY), in a worker thread, so that the
editor never waits on the compiler; the check makes the analysis and the diagnostics to
publish, and the server's loop only sends them. Requests are answered from the last check
made, whatever text it was of, carried across the lines changed since (lsp/positions.py): a
request about a line changed since, or an answer on one, waits for the check of the text as
it is (the one a change scheduled, started at once, never a second), and so does a rename.
Diagnostics in a file that this one extends are published for that file, and pointed at
from this file's `extends:`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, TypeVar
from urllib.parse import unquote

from lsprotocol import types as t
from pygls.exceptions import JsonRpcInvalidRequest, JsonRpcServerNotInitialized
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument, Workspace
from pygls.workspace.position_codec import PositionCodec

from cardrules import __version__
from cardrules.present.render import printable

from . import features, published
from . import rename as renaming
from .analysis import Analysis, analyse
from .completion import Item, complete
from .places import split_lines
from .positions import Changed, Moved, View
from .protocol import PASSED_OVER, BoundedInput, PlainLog, Refused, RulesProtocol

DELAY = 0.3  # seconds of quiet after a change before the text is checked
CONTENT_MODIFIED = -32801  # the protocol's error for an answer the editor's changes outdated
_SYMBOL_KINDS = {"phase": t.SymbolKind.Namespace, "step": t.SymbolKind.Event,
                 "move": t.SymbolKind.Method, "function": t.SymbolKind.Function,
                 "zone": t.SymbolKind.Array, "variable": t.SymbolKind.Variable,
                 "option": t.SymbolKind.Constant, "trigger": t.SymbolKind.Event}
_COMPLETION_KINDS = {"key": t.CompletionItemKind.Property, "value": t.CompletionItemKind.Value,
                     "ruleset": t.CompletionItemKind.File, "step": t.CompletionItemKind.Event,
                     "function": t.CompletionItemKind.Function,
                     "name": t.CompletionItemKind.Variable,
                     "keyword": t.CompletionItemKind.Keyword,
                     "zone": t.CompletionItemKind.Field,
                     "variable": t.CompletionItemKind.Variable,
                     "option": t.CompletionItemKind.Constant,
                     "parameter": t.CompletionItemKind.Variable,
                     "local": t.CompletionItemKind.Variable,
                     "procedure": t.CompletionItemKind.Function,
                     "attribute": t.CompletionItemKind.Property}
Answer = TypeVar("Answer")
ByFile = dict[str, list[t.Diagnostic]]  # diagnostics by the URI of the file they are in


@dataclass
class _Check:
    """One check of a document's text: under way in the checking thread, or done."""

    text: str
    future: asyncio.Future[tuple[Analysis, ByFile]]


@dataclass
class _File:
    """What the server keeps of one open document."""

    latest: Analysis | None = None  # the last check's, of the text as it was then
    readable: Analysis | None = None  # the last whose names could be read (for completion,
    # and for what is asked while the text's YAML or shape is broken)
    pending: asyncio.Task[None] | None = None  # a check waiting for quiet
    running: _Check | None = None  # the last check started
    waiting: _Check | None = None  # the check of the newest text, after the one running
    published: ByFile = field(default_factory=dict)


class _ProtocolLines(TextDocument):
    """pygls's document with its lines where the protocol has them: a line ends at \\r\\n,
    \\n or a lone \\r, and nowhere else (pygls splits with str.splitlines, which also breaks
    at U+2028, U+0085, a form feed...: an editor's change would land on the wrong line)."""

    @property
    def lines(self) -> Sequence[str]:
        return tuple(_LINES.findall(self.source))

    def _apply_incremental_change(self, change: t.TextDocumentContentChangePartial) -> None:
        """The change, its places past a line's end taken as that end, as the protocol
        says (pygls takes them one short of it, on a last line with no line break)."""
        lines = self.lines

        def clamped(at: t.Position) -> t.Position:
            if at.line >= len(lines):
                return at
            most = self._position_codec.client_num_units(lines[at.line].rstrip("\r\n"))
            return at if at.character <= most else t.Position(line=at.line, character=most)

        super()._apply_incremental_change(t.TextDocumentContentChangePartial(
            range=t.Range(start=clamped(change.range.start), end=clamped(change.range.end)),
            text=change.text, range_length=change.range_length))


_LINES = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")


def _lines_as_the_protocol_has_them(workspace: Workspace) -> None:
    """Every document the workspace makes from now on splits its lines as the protocol
    does (_ProtocolLines: the same document, one property apart)."""
    make = workspace._create_text_document

    def create(*args: Any, **kwargs: Any) -> TextDocument:
        document = make(*args, **kwargs)
        document.__class__ = _ProtocolLines
        return document

    workspace._create_text_document = create  # type: ignore[method-assign]


def _pass_on(source: asyncio.Future[Answer], target: asyncio.Future[Answer]) -> None:
    """When `source` is done, `target` is done alike (unless cancelled meanwhile)."""
    def done(_: object) -> None:
        if target.done():
            return
        if source.cancelled():
            target.cancel()
        elif source.exception() is not None:
            target.set_exception(source.exception())  # type: ignore[arg-type]
        else:
            target.set_result(source.result())
    source.add_done_callback(done)


def _check(path: str, text: str, uri: str, codec: PositionCodec,
           unsaved: dict[str, str]) -> tuple[Analysis, ByFile]:
    """A text's analysis and its diagnostics as the editor is sent them (in the checking
    thread; `unsaved`: the other open documents' texts, by resolved path)."""
    found = analyse(path, text, unsaved)
    return found, published.by_file(found, uri, codec)


class RulesServer(LanguageServer):
    """The server, with what it keeps of each open rule file."""

    def __init__(self) -> None:
        super().__init__("cardrules", __version__, protocol_cls=RulesProtocol)
        self.files: dict[str, _File] = {}
        self.delay = DELAY
        self.stopping = False  # asked to shut down: the exit that follows is a clean one
        self.initialized = False  # answered `initialize`: the editor's documents are kept
        # one check at a time, off the event loop: the editor's requests are answered meanwhile
        self.checker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardrules-check")

    @property
    def codec(self) -> PositionCodec:
        return self.workspace.position_codec

    # ------------------------------------------------------------ documents
    def path_of(self, uri: str) -> str:
        """The file a document stands for: its own path, or for a document that has none
        (an unsaved buffer), a name in the current folder."""
        path = to_fs_path(uri) if uri.startswith("file:") else None
        return os.path.abspath(path) if path else os.path.abspath(uri.rsplit("/", 1)[-1] or
                                                                   "untitled.yaml")

    def text_of(self, uri: str) -> str | None:
        """The text of a document the editor opened, as the editor sent it; None for any
        other. A request may name any URI: a file the editor did not open is never read
        (pygls's own `get_text_document` would read it from disk, /dev/zero too). Before
        `initialize` there are no documents: the request is refused (ServerNotInitialized)."""
        if not self.initialized:
            raise Refused("the server is not initialized: an editor sends `initialize` first",
                          JsonRpcServerNotInitialized.CODE)
        document = self.workspace.text_documents.get(unquote(uri))
        return None if document is None else document.source

    def unsaved(self, uri: str) -> dict[str, str]:
        """The texts of the other files the editor has open, as it holds them, by resolved
        path: a parent is read from there, as the author sees it, saved or not."""
        out: dict[str, str] = {}
        for other, document in list(self.workspace.text_documents.items()):
            if other != unquote(uri) and other.startswith("file:"):
                # (pygls keeps a document by its URI decoded once already: a name with
                # `#` or `%` in it is not decoded again)
                path = resolved(document.path) if document.path else None
                if path is not None:
                    out[path] = document.source
        return out

    # --------------------------------------------------------------- checks
    def start(self, uri: str, text: str) -> _Check:
        """Check a text of a document in the checking thread; when it is done, its analysis
        is the document's latest, and its diagnostics are published if the text is still
        the document's (if not, its own check follows). One check of a document runs at a
        time: a text to check while one runs waits for it, and a text changed again while
        it waits takes its place, so that no check of an outdated text is ever run (on a
        large file, each takes seconds)."""
        state = self.files.setdefault(uri, _File())
        running = state.running
        if running is not None and not running.future.done():
            waiting = state.waiting
            if waiting is None:
                waiting = state.waiting = _Check(
                    text, asyncio.get_running_loop().create_future())
            waiting.text = text
            return waiting
        future = asyncio.get_running_loop().run_in_executor(
            self.checker, _check, self.path_of(uri), text, uri, self.codec, self.unsaved(uri))
        job = state.running = _Check(text, future)
        future.add_done_callback(lambda _: self.finished(uri, state, job))
        return job

    def finished(self, uri: str, state: _File, job: _Check) -> None:
        waiting, state.waiting = state.waiting, None
        if job.future.cancelled() or self.files.get(uri) is not state:
            if waiting is not None:  # (closed meanwhile)
                waiting.future.cancel()
            return
        if waiting is not None:  # the newest text, checked now; who waits for it is told
            _pass_on(self.start(uri, waiting.text).future, waiting.future)
        error = job.future.exception()
        if error is not None:
            logging.getLogger("pygls").error("a check failed", exc_info=error)
            return
        found, made = job.future.result()
        state.latest = found
        if found.readable:
            state.readable = found
        if self.text_of(uri) == job.text:
            self.publish(uri, state, made)

    async def fresh(self, uri: str, text: str) -> Analysis:
        """The analysis of a document's text as it is: the last check's if it is of this
        text and no other is waiting (one after a save reads the parents again), else a
        check started now, in place of the one waiting."""
        state = self.files.setdefault(uri, _File())
        job = state.running
        if state.pending is not None and not state.pending.done():
            state.pending.cancel()
            job = self.start(uri, text)
        elif job is None or job.text != text:
            job = self.start(uri, text)
        found, _ = await asyncio.shield(job.future)
        return found

    def schedule(self, uri: str, delay: float) -> None:
        """Check the document after `delay` seconds of quiet (a new change starts again);
        nothing for a document the editor has not opened."""
        if self.text_of(uri) is None:
            return
        state = self.files.setdefault(uri, _File())
        if state.pending is not None:
            state.pending.cancel()

        async def later() -> None:
            await asyncio.sleep(delay)
            text = self.text_of(uri)
            if text is not None:  # (closed meanwhile: nothing to check)
                self.start(uri, text)

        state.pending = asyncio.ensure_future(later())

    # ------------------------------------------------------------- requests
    async def view(self, uri: str, fresh: bool = False) -> View | None:
        """The last analysis of a document, seen from its text as it is (with `fresh`, or
        when none was made yet, the analysis of that text); None for a document the editor
        has not opened."""
        text = self.text_of(uri)
        if text is None:
            return None
        state = self.files.setdefault(uri, _File())
        found = state.latest
        if not fresh and found is not None and not found.readable and \
                state.readable is not None:
            # (a text whose YAML or shape is broken for now, half typed: its names are read
            # from the last text that had them, carried to the lines as they are)
            found = state.readable
        if fresh or found is None:
            found = await self.fresh(uri, text)
            text = self.text_of(uri)  # (the editor may have changed it meanwhile)
            if text is None:
                return None
        return View(found, self.codec, text)

    async def answer(self, uri: str, work: Callable[[View], Answer], empty: Answer) -> Answer:
        """What `work` answers from the last analysis of a document; from the analysis of
        its text as it is where `work` needs a line changed since (Moved). `empty` for a
        document the editor has not opened, or changed again meanwhile."""
        view = await self.view(uri)
        if view is None:
            return empty
        if not view.current:
            try:
                return work(view)
            except Moved:
                view = await self.view(uri, fresh=True)
                if view is None:
                    return empty
        try:
            return work(view)
        except Moved:
            return empty

    # ---------------------------------------------------------- diagnostics
    def publish(self, uri: str, state: _File, made: ByFile) -> None:
        """Publish what a document's check found, by file (and clear, in a parent, what
        its last check found there and this one did not)."""
        made = dict(made)
        for other in set(state.published) - set(made):
            made[other] = []  # a parent's problem that is gone
        state.published = {k: v for k, v in made.items() if v or k == uri}
        for target in made:
            self.send(target)

    def dependents(self, uri: str) -> list[str]:
        """The open documents that extend the file of `uri`, as last checked (a parent
        named `../common/base.yaml` is the file of that path, resolved)."""
        path = resolved(self.path_of(uri))
        return [other for other, state in self.files.items() if other != uri and
                state.latest is not None and path is not None and
                any(resolved(parent) == path for parent in state.latest.parents)]

    def send(self, target: str) -> None:
        """Publish every diagnostic for a file that any open document found in it; for an
        open document, only what its own check found (another's may be of an older text of
        it)."""
        own = self.files.get(target)
        sources = [own] if own is not None and own.latest is not None else \
            list(self.files.values())
        self.text_document_publish_diagnostics(t.PublishDiagnosticsParams(
            uri=target, diagnostics=published.merged(
                [state.published.get(target, []) for state in sources])))


# ------------------------------------------------------------------ features
def make_server() -> RulesServer:
    """The server with every feature registered."""
    server = RulesServer()

    @server.feature(t.INITIALIZE)
    def initialize(ls: RulesServer, params: t.InitializeParams) -> None:
        ls.initialized = True
        _lines_as_the_protocol_has_them(ls.workspace)

    @server.feature(t.INITIALIZED)
    def initialized(ls: RulesServer, params: t.InitializedParams) -> None:
        # A file another extends may change on disk, closed in the editor (a checkout, a
        # save from elsewhere): the editor that can is asked to say so (below).
        workspace = ls.client_capabilities.workspace
        watched = workspace.did_change_watched_files if workspace is not None else None
        if watched is not None and watched.dynamic_registration:
            ls.client_register_capability(t.RegistrationParams(registrations=[t.Registration(
                id="cardrules-rule-files", method=t.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=t.DidChangeWatchedFilesRegistrationOptions(watchers=[
                    t.FileSystemWatcher(glob_pattern="**/*.{yaml,yml}")]))]))

    @server.feature(t.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def watched_files(ls: RulesServer, params: t.DidChangeWatchedFilesParams) -> None:
        for change in params.changes:  # the open files that extend one: checked again
            for other in ls.dependents(change.uri):
                ls.schedule(other, 0)

    @server.feature(PASSED_OVER)
    def passed_over(ls: RulesServer, params: None) -> None:
        """A message too long to read was passed over (lsp/protocol.py): said already."""

    @server.feature(t.SHUTDOWN)
    def shutdown(ls: RulesServer, params: None) -> None:
        ls.stopping = True

    @server.feature(t.EXIT)
    def exit_now(ls: RulesServer, params: None) -> None:
        # A check under way in the worker thread is of no use now: leave at once rather
        # than wait for it (Python joins its worker threads before it exits).
        sys.stdout.flush()
        os._exit(0 if ls.stopping else 1)

    @server.feature(t.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: RulesServer, params: t.DidOpenTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)
        for other in ls.dependents(params.text_document.uri):  # (they read it from the
            ls.schedule(other, 0)                              # editor now, not its file)

    @server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: RulesServer, params: t.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, ls.delay)
        for other in ls.dependents(params.text_document.uri):  # they read it as it is now
            ls.schedule(other, ls.delay)

    @server.feature(t.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: RulesServer, params: t.DidSaveTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)

    @server.feature(t.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: RulesServer, params: t.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        children = ls.dependents(uri)  # (read from its file again, once it is closed)
        state = ls.files.pop(uri, None)
        for other in children:
            ls.schedule(other, 0)
        if state is None:
            return
        if state.pending is not None:
            state.pending.cancel()
        for target in state.published:
            ls.send(target)

    @server.feature(t.TEXT_DOCUMENT_HOVER)
    async def hover(ls: RulesServer, params: t.HoverParams) -> t.Hover | None:
        def work(view: View) -> t.Hover | None:
            answer = features.hover(view.found, *view.place_in(params.position))
            if answer is None:
                return None
            text, place = answer
            return t.Hover(contents=t.MarkupContent(kind=t.MarkupKind.Markdown,
                                                    value=printable(text)),
                           range=view.location_of(place).range)

        return await ls.answer(params.text_document.uri, work, None)

    @server.feature(t.TEXT_DOCUMENT_COMPLETION,
                    t.CompletionOptions(trigger_characters=[".", "'", " ", "["]))
    async def completion(ls: RulesServer, params: t.CompletionParams) -> t.CompletionList:
        uri = params.text_document.uri
        text = ls.text_of(uri)
        state = ls.files.setdefault(uri, _File())
        known = state.readable or state.latest
        if known is None and text is not None:
            known = await ls.fresh(uri, text)
            text = ls.text_of(uri)
        if text is None or known is None:  # (not open, or closed meanwhile)
            return t.CompletionList(is_incomplete=False, items=[])
        lines = split_lines(text)
        server = ls.codec.position_from_client_units(lines, t.Position(
            line=params.position.line, character=params.position.character))
        line = Changed.between(known.lines_of(known.path), lines).nearest_old(server.line)
        items = complete(text, server.line + 1, server.character + 1, known, line + 1)
        unique = list({item.label: item for item in reversed(items)}.values())[::-1]
        return t.CompletionList(is_incomplete=False, items=[_item(i) for i in unique])

    @server.feature(t.TEXT_DOCUMENT_DEFINITION)
    async def definition(ls: RulesServer, params: t.DefinitionParams) -> list[t.Location]:
        def work(view: View) -> list[t.Location]:
            places = features.definition(view.found, *view.place_in(params.position))
            return [view.location_of(p) for p in places]

        return await ls.answer(params.text_document.uri, work, [])

    @server.feature(t.TEXT_DOCUMENT_REFERENCES)
    async def references(ls: RulesServer, params: t.ReferenceParams) -> list[t.Location]:
        def work(view: View) -> list[t.Location]:
            places = features.references(view.found, *view.place_in(params.position),
                                         params.context.include_declaration)
            return [view.location_of(p) for p in places]

        return await ls.answer(params.text_document.uri, work, [])

    @server.feature(t.TEXT_DOCUMENT_PREPARE_RENAME)
    async def prepare_rename(ls: RulesServer, params: t.PrepareRenameParams
                             ) -> t.PrepareRenamePlaceholder | None:
        view = await ls.view(params.text_document.uri, fresh=True)
        if view is None or not view.current:
            return None
        try:
            symbol, place = renaming.renamable(view.found, *view.place_in(params.position))
        except renaming.RenameRefused:
            return None
        return t.PrepareRenamePlaceholder(range=view.location_of(place).range,
                                          placeholder=symbol.name)

    @server.feature(t.TEXT_DOCUMENT_RENAME)
    async def rename(ls: RulesServer, params: t.RenameParams) -> t.WorkspaceEdit | None:
        uri, new = params.text_document.uri, params.new_name
        view = await ls.view(uri, fresh=True)
        if view is None:
            return None
        try:
            if not view.current:
                raise Refused("the file changed while the rename was worked out: rename "
                              "again", CONTENT_MODIFIED)
            places = renaming.rename(view.found, *view.place_in(params.position), new)
            # (the file renamed is checked again, off the loop, before the editor gets it)
            await asyncio.get_running_loop().run_in_executor(
                ls.checker, renaming.verify, view.found, places, new, ls.unsaved(uri))
        except renaming.RenameRefused as refused:
            raise Refused(printable(str(refused)), JsonRpcInvalidRequest.CODE) from None
        if ls.text_of(uri) != view.found.text:
            raise Refused("the file changed while the rename was worked out: rename again",
                          CONTENT_MODIFIED)
        edits = [t.TextEdit(range=view.location_of(p).range, new_text=new) for p in places]
        return t.WorkspaceEdit(changes={uri: edits})

    @server.feature(t.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    async def symbols(ls: RulesServer, params: t.DocumentSymbolParams
                      ) -> list[t.DocumentSymbol]:
        def work(view: View) -> list[t.DocumentSymbol]:
            return [_symbol(entry, view) for entry in features.outline(view.found)]

        return await ls.answer(params.text_document.uri, work, [])

    return server


def _item(item: Item) -> t.CompletionItem:
    doc = t.MarkupContent(kind=t.MarkupKind.Markdown, value=printable(item.doc)) \
        if item.doc else None
    return t.CompletionItem(label=item.label, detail=printable(item.detail) or None,
                            documentation=doc,
                            kind=_COMPLETION_KINDS.get(item.kind, t.CompletionItemKind.Text))


def _symbol(entry: features.Outline, view: View) -> t.DocumentSymbol:
    return t.DocumentSymbol(
        name=printable(entry.name), detail=printable(entry.detail) or None,
        kind=_SYMBOL_KINDS.get(entry.kind, t.SymbolKind.Object),
        range=view.location_of(entry.body).range,
        selection_range=view.location_of(entry.place).range,
        children=[_symbol(child, view) for child in entry.children])


def serve(delay: float = DELAY, stream: BinaryIO | None = None) -> None:
    """Run the server on standard input (or `stream`) and output until the editor stops it;
    ProtocolError if what comes in is not a message."""
    log = logging.getLogger("pygls")
    log.addHandler(PlainLog())
    log.propagate = False
    server = make_server()
    server.delay = delay
    server.start_io(BoundedInput(stream or sys.stdin.buffer))  # type: ignore[arg-type]


def resolved(path: str) -> str | None:
    """A path made absolute, its links followed; None for a name no file can have (a NUL
    in it: a document's URI is the editor's, as it sends it)."""
    try:
        return str(Path(path).resolve())
    except (OSError, ValueError):
        return None
