"""The language server: LSP over stdio (pygls), answering from lsp/analysis.py.

A text is checked a moment after the last keystroke (DELAY), in a worker thread, so that the
editor never waits on the compiler; a request (hover, completion...) uses the analysis of the
text as it is, made on the spot if the last one is out of date. Diagnostics in a file that
this one extends are published for that file, and pointed at from this file's `extends:`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, BinaryIO
from urllib.parse import unquote

from lsprotocol import types as t
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcServerNotInitialized,
)
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import from_fs_path, to_fs_path
from pygls.workspace.position_codec import PositionCodec, ServerTextPosition

from cardrules import __version__
from cardrules.dsl.yaml_bounds import MAX_BYTES
from cardrules.errors import Diagnostic, Location, ProtocolError

from . import features
from .analysis import Analysis, analyse
from .completion import Item, complete
from .places import Place, split_lines

DELAY = 0.3  # seconds of quiet after a change before the text is checked
MAX_HEADER = 1000  # bytes in one header line ("Content-Length: 1234" and the like)
# bytes in one message: the largest rule file, every character escaped as JSON may escape it
MAX_MESSAGE = 16 * MAX_BYTES
SOURCE = "cardrules"
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
                     "attribute": t.CompletionItemKind.Property}


class Refused(JsonRpcException):
    """A request the server answers with an error that is no fault of its own (a rename the
    file does not allow, a request before `initialize`): the editor shows the message, and
    the server's log (standard error) says nothing of it."""


@dataclass
class _File:
    """What the server keeps of one open document."""

    latest: Analysis | None = None  # of the text as it was last checked
    readable: Analysis | None = None  # the last whose names could be read (for completion)
    pending: asyncio.Task[None] | None = None
    published: dict[str, list[t.Diagnostic]] = field(default_factory=dict)  # by file URI


class RulesProtocol(LanguageServerProtocol):
    """pygls's protocol, but a request whose parameters cannot be read as the protocol's (a
    position of line -1, say) is answered with Invalid Params and the reason: pygls drops it
    unanswered, and the editor waits for an answer that never comes."""

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if not ("id" in data and "method" in data and isinstance(data["id"], (int, str))):
                raise  # (a notification or a response: nobody waits for an answer)
            reason = _reason(exc)
            error = JsonRpcInvalidParams(f"{exc.message}: {reason}") \
                if isinstance(exc, JsonRpcInvalidParams) else exc
            self._send_response(data["id"], error=error.to_response_error())
            return _ANSWERED

    def handle_message(self, message: Any) -> None:
        if message is not _ANSWERED:
            super().handle_message(message)


_ANSWERED = object()  # a request refused as it was read: answered already


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

    # ------------------------------------------------------------ analysis
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

    async def current(self, uri: str) -> Analysis | None:
        """The analysis of the document's text as it is now (made now if the last one is of
        another text; published by the check that the change scheduled); None for a document
        the editor has not opened."""
        text = self.text_of(uri)
        if text is None:
            return None
        state = self.files.setdefault(uri, _File())
        if state.latest is not None and state.latest.text == text:
            return state.latest
        return await self.analysed(uri, text)

    async def analysed(self, uri: str, text: str) -> Analysis:
        """A text's analysis, made in the checking thread; kept if the text is still the
        document's."""
        loop = asyncio.get_running_loop()
        found = await loop.run_in_executor(self.checker, analyse, self.path_of(uri), text)
        state = self.files.setdefault(uri, _File())
        if self.text_of(uri) == text:
            state.latest = found
            if found.readable:
                state.readable = found
        return found

    async def check(self, uri: str, text: str) -> None:
        """Analyse a text and publish what it found, unless it changed meanwhile (its own
        check follows)."""
        found = await self.analysed(uri, text)
        if self.text_of(uri) == text:
            self.publish(uri, found)

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
                await self.check(uri, text)

        state.pending = asyncio.ensure_future(later())

    # --------------------------------------------------------- diagnostics
    def publish(self, uri: str, found: Analysis) -> None:
        """Publish a file's diagnostics: its own, and those located in the files it extends
        (for those files, and pointed at from this one's `extends:`)."""
        by_file: dict[str, list[t.Diagnostic]] = {uri: []}
        for diagnostic in found.diagnostics:
            where = diagnostic.location
            target = uri if where is None or where.path == found.path else \
                from_fs_path(os.path.abspath(where.path)) or uri
            converted = self.convert(diagnostic, found)
            by_file.setdefault(target, []).append(converted)
            if target != uri:
                by_file[uri].append(self.inherited(diagnostic, converted, target, found))
        state = self.files.setdefault(uri, _File())
        for other in set(state.published) - set(by_file):
            by_file[other] = []  # a parent's problem that is gone
        state.published = {k: v for k, v in by_file.items() if v or k == uri}
        for target in by_file:
            self.send(target)

    def dependents(self, uri: str) -> list[str]:
        """The open documents that extend the file of `uri`, as last checked."""
        path = self.path_of(uri)
        return [other for other, state in self.files.items() if other != uri and
                state.latest is not None and path in state.latest.parents]

    def send(self, target: str) -> None:
        """Publish every diagnostic for a file that any open document found in it; for an
        open document, only what its own check found (another's, made of the text on disk,
        may be out of date)."""
        own = self.files.get(target)
        sources = [own] if own is not None and own.latest is not None else \
            list(self.files.values())
        merged: dict[tuple[Any, ...], t.Diagnostic] = {}
        for state in sources:
            for item in state.published.get(target, []):
                merged.setdefault(_identity(item), item)
        self.text_document_publish_diagnostics(
            t.PublishDiagnosticsParams(uri=target, diagnostics=list(merged.values())))

    def convert(self, diagnostic: Diagnostic, found: Analysis) -> t.Diagnostic:
        """A diagnostic as the editor takes it: its range from where it starts to where the
        offending text ends (to the end of the word at its start, where that is not known)."""
        where = diagnostic.location or Location(found.path, 1, 1)
        lines = found.lines_of(where.path)
        end = diagnostic.end or _word_end(lines, where)
        return t.Diagnostic(range=self.range_of(Place(where, end), lines),
                            message=diagnostic.message, source=SOURCE,
                            severity=t.DiagnosticSeverity.Hint if diagnostic.hint else
                            t.DiagnosticSeverity.Error)

    def inherited(self, diagnostic: Diagnostic, converted: t.Diagnostic, target: str,
                  found: Analysis) -> t.Diagnostic:
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
            range=self.range_of(Place(start, end), found.lines_of(found.path)),
            message=f"in the parent ruleset, {head}{diagnostic.message}",
            severity=converted.severity, source=SOURCE,
            related_information=[t.DiagnosticRelatedInformation(
                location=t.Location(uri=target, range=converted.range),
                message=diagnostic.message)])

    # ---------------------------------------------------------- positions
    @property
    def codec(self) -> PositionCodec:
        return self.workspace.position_codec

    def range_of(self, place: Place, lines: list[str]) -> t.Range:
        """A place of a file (1-based, in characters) as an editor's range."""
        return t.Range(start=self.position_of(place.start, lines),
                       end=self.position_of(place.end, lines))

    def position_of(self, where: Location, lines: list[str]) -> t.Position:
        line = max(where.line - 1, 0)
        character = max(where.column - 1, 0)
        if line < len(lines):
            character = min(character, len(lines[line]))
        return self.codec.position_to_client_units(lines, ServerTextPosition(line, character))

    def place_in(self, found: Analysis, position: t.Position) -> tuple[int, int]:
        """An editor's position in a document as a 1-based line and column of characters."""
        lines = found.lines_of(found.path)
        server = self.codec.position_from_client_units(lines, position)
        return server.line + 1, server.character + 1

    def location_of(self, place: Place, found: Analysis) -> t.Location:
        path = os.path.abspath(place.path)
        # (a file whose text the analysis did not keep is one named by `extends:`, whose
        # place is its start, which needs no text to be shown)
        lines = found.lines_of(place.path)
        return t.Location(uri=from_fs_path(path) or path, range=self.range_of(place, lines))


def _identity(diagnostic: t.Diagnostic) -> tuple[Any, ...]:
    """What makes two published diagnostics one (the fields the server fills in), as a key a
    dict can hold: comparing each with all the others would take the square of their number."""
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


# ------------------------------------------------------------------ features
def make_server() -> RulesServer:
    """The server with every feature registered."""
    server = RulesServer()

    @server.feature(t.INITIALIZE)
    def initialize(ls: RulesServer, params: t.InitializeParams) -> None:
        ls.initialized = True

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

    @server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: RulesServer, params: t.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, ls.delay)

    @server.feature(t.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: RulesServer, params: t.DidSaveTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)
        for other in ls.dependents(params.text_document.uri):  # they read it from disk
            ls.schedule(other, 0)

    @server.feature(t.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: RulesServer, params: t.DidCloseTextDocumentParams) -> None:
        state = ls.files.pop(params.text_document.uri, None)
        if state is None:
            return
        if state.pending is not None:
            state.pending.cancel()
        for target in state.published:
            ls.send(target)

    @server.feature(t.TEXT_DOCUMENT_HOVER)
    async def hover(ls: RulesServer, params: t.HoverParams) -> t.Hover | None:
        found = await ls.current(params.text_document.uri)
        if found is None:
            return None
        answer = features.hover(found, *ls.place_in(found, params.position))
        if answer is None:
            return None
        text, place = answer
        return t.Hover(contents=t.MarkupContent(kind=t.MarkupKind.Markdown, value=text),
                       range=ls.location_of(place, found).range)

    @server.feature(t.TEXT_DOCUMENT_COMPLETION,
                    t.CompletionOptions(trigger_characters=[".", "'", " ", "["]))
    async def completion(ls: RulesServer, params: t.CompletionParams) -> t.CompletionList:
        uri = params.text_document.uri
        text = ls.text_of(uri)
        if text is None:
            return t.CompletionList(is_incomplete=False, items=[])
        state = ls.files.setdefault(uri, _File())
        known = state.readable or await ls.current(uri)
        if known is None:  # (closed meanwhile)
            return t.CompletionList(is_incomplete=False, items=[])
        lines = split_lines(text)
        server = ls.codec.position_from_client_units(lines, params.position)
        items = complete(text, server.line + 1, server.character + 1, known)
        unique = list({item.label: item for item in reversed(items)}.values())[::-1]
        return t.CompletionList(is_incomplete=False, items=[_item(i) for i in unique])

    @server.feature(t.TEXT_DOCUMENT_DEFINITION)
    async def definition(ls: RulesServer, params: t.DefinitionParams) -> list[t.Location]:
        found = await ls.current(params.text_document.uri)
        if found is None:
            return []
        places = features.definition(found, *ls.place_in(found, params.position))
        return [ls.location_of(p, found) for p in places]

    @server.feature(t.TEXT_DOCUMENT_REFERENCES)
    async def references(ls: RulesServer, params: t.ReferenceParams) -> list[t.Location]:
        found = await ls.current(params.text_document.uri)
        if found is None:
            return []
        places = features.references(found, *ls.place_in(found, params.position),
                                     params.context.include_declaration)
        return [ls.location_of(p, found) for p in places]

    @server.feature(t.TEXT_DOCUMENT_PREPARE_RENAME)
    async def prepare_rename(ls: RulesServer, params: t.PrepareRenameParams
                             ) -> t.PrepareRenamePlaceholder | None:
        found = await ls.current(params.text_document.uri)
        if found is None:
            return None
        try:
            symbol, place = features.renamable(found, *ls.place_in(found, params.position))
        except features.RenameRefused:
            return None
        return t.PrepareRenamePlaceholder(range=ls.location_of(place, found).range,
                                          placeholder=symbol.name)

    @server.feature(t.TEXT_DOCUMENT_RENAME)
    async def rename(ls: RulesServer, params: t.RenameParams) -> t.WorkspaceEdit | None:
        found = await ls.current(params.text_document.uri)
        if found is None:
            return None
        try:
            places = features.rename(found, *ls.place_in(found, params.position),
                                     params.new_name)
        except features.RenameRefused as refused:
            raise Refused(str(refused), JsonRpcInvalidRequest.CODE) from None
        edits = [t.TextEdit(range=ls.location_of(p, found).range, new_text=params.new_name)
                 for p in places]
        return t.WorkspaceEdit(changes={params.text_document.uri: edits})

    @server.feature(t.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    async def symbols(ls: RulesServer, params: t.DocumentSymbolParams
                      ) -> list[t.DocumentSymbol]:
        found = await ls.current(params.text_document.uri)
        if found is None:
            return []
        return [_symbol(entry, ls, found) for entry in features.outline(found)]

    return server


def _item(item: Item) -> t.CompletionItem:
    doc = t.MarkupContent(kind=t.MarkupKind.Markdown, value=item.doc) if item.doc else None
    return t.CompletionItem(label=item.label, detail=item.detail or None, documentation=doc,
                            kind=_COMPLETION_KINDS.get(item.kind, t.CompletionItemKind.Text))


def _symbol(entry: features.Outline, ls: RulesServer, found: Analysis) -> t.DocumentSymbol:
    return t.DocumentSymbol(
        name=entry.name, detail=entry.detail or None,
        kind=_SYMBOL_KINDS.get(entry.kind, t.SymbolKind.Object),
        range=ls.location_of(entry.body, found).range,
        selection_range=ls.location_of(entry.place, found).range,
        children=[_symbol(child, ls, found) for child in entry.children])


class BoundedInput:
    """Standard input as pygls reads it (a line for each header, then the body of the length
    a header gave), each read bounded: a header line longer than MAX_HEADER, or a body longer
    than MAX_MESSAGE, cannot be an editor's, and is refused (ProtocolError) before anything is
    read into memory. pygls takes any length that is digits, 99999999999999999999 too."""

    def __init__(self, stream: BinaryIO):
        self.stream = stream

    def readline(self) -> bytes:
        line = self.stream.readline(MAX_HEADER + 1)
        if len(line) > MAX_HEADER:
            raise ProtocolError(f"a message header longer than {MAX_HEADER:,} bytes: not the "
                                "Language Server Protocol")
        return line

    def read(self, size: int) -> bytes:
        if size > MAX_MESSAGE:
            shown = str(size) if size < 10**30 else "a number of more than 30 digits"
            raise ProtocolError(f"a message header gives Content-Length {shown}: a message "
                                f"has at most {MAX_MESSAGE:,} bytes")
        return self.stream.read(size)


class PlainLog(logging.Handler):
    """pygls's log on standard error, a plain line for each thing worth saying, never a
    traceback: a message the protocol does not allow (a position of line -1) is dropped with
    its reason; a refusal (Refused) is the editor's to show, not the log's. (An error of the
    server's own is answered to the editor with its traceback.)"""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)

    def emit(self, record: logging.LogRecord) -> None:
        error = record.exc_info[1] if record.exc_info else None
        said = record.getMessage().split("\n", 1)[0]
        if isinstance(error, Refused) or said == "Unable to deserialize message":
            return  # (a refusal; or the reason, which the next record gives in a line)
        if error is not None:
            said = f"{said}: {_reason(error)}"
        try:
            sys.stderr.write(f"cardrules lsp: {said}\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass


def _reason(error: BaseException) -> str:
    """What an exception says in a line: the innermost cause (a ValueError behind cattrs's
    group behind pygls's Invalid Params), as its type and message."""
    while True:
        if isinstance(error, BaseExceptionGroup) and error.exceptions:
            error = error.exceptions[0]
        elif error.__cause__ is not None:
            error = error.__cause__
        else:
            break
    text = str(error).split("\n", 1)[0]
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def serve(delay: float = DELAY, stream: BinaryIO | None = None) -> None:
    """Run the server on standard input (or `stream`) and output until the editor stops it;
    ProtocolError if what comes in is not a message."""
    log = logging.getLogger("pygls")
    log.addHandler(PlainLog())
    log.propagate = False
    server = make_server()
    server.delay = delay
    server.start_io(BoundedInput(stream or sys.stdin.buffer))  # type: ignore[arg-type]
