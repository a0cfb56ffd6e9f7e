"""The language server's own work, in this process (no editor): what it publishes, and how
much work a file of many problems or a large file costs it. tests/test_lsp.py drives the
server as an editor does."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls", reason="the language server needs the lsp extra (pygls)")

from lsprotocol import types as t  # noqa: E402

from cardrules.lsp.server import RulesServer, _File, make_server  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GOLF6 = ROOT / "rulesets" / "golf6.yaml"


def _sent(server: RulesServer) -> list[t.PublishDiagnosticsParams]:
    """What the server publishes from now on, kept rather than written out."""
    sent: list[t.PublishDiagnosticsParams] = []
    server.text_document_publish_diagnostics = sent.append  # type: ignore[method-assign]
    return sent


def _diagnostic(line: int, message: str) -> t.Diagnostic:
    where = t.Range(start=t.Position(line=line, character=4),
                    end=t.Position(line=line, character=9))
    return t.Diagnostic(range=where, message=message, source="cardrules")


def test_many_diagnostics_are_merged_without_comparing_each_with_all(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A file's diagnostics found by two open documents are published once each, in order;
    merging them never compares every one with every other (5,000 problems were 12.5
    million comparisons, and the server answered nothing for a minute)."""
    server = make_server()
    target = "file:///parent.yaml"
    first = [_diagnostic(i, f"unknown name 'x{i}'") for i in range(3000)]
    second = [_diagnostic(i, f"unknown name 'x{i}'") for i in range(2000, 4000)]
    server.files["file:///a.yaml"] = _File(published={target: first})
    server.files["file:///b.yaml"] = _File(published={target: second})
    compared = 0
    equal = t.Diagnostic.__eq__

    def counted(self: Any, other: Any) -> Any:
        nonlocal compared
        compared += 1
        return equal(self, other)

    monkeypatch.setattr(t.Diagnostic, "__eq__", counted)
    sent = _sent(server)
    server.send(target)
    [params] = sent
    assert [d.message for d in params.diagnostics] == [f"unknown name 'x{i}'"
                                                       for i in range(4000)]
    assert compared <= 4000


# ------------------------------------------------------------------ one analysis


def test_a_valid_file_is_checked_once_for_its_diagnostics_and_its_names(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The meaning check is the slow stage (seconds for a large file): one analysis runs it
    once, and reads the names from the program it checked."""
    from cardrules.dsl import compiler
    from cardrules.dsl.loader import check_text
    from cardrules.lsp.analysis import analyse

    text = GOLF6.read_text(encoding="utf-8")
    runs = 0
    check = compiler.check

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal runs
        runs += 1
        return check(*args, **kwargs)

    monkeypatch.setattr(compiler, "check", counted)
    found = analyse(str(GOLF6), text)
    assert runs == 1 and found.index is not None
    # (the checked program's types: a function's is known only from it)
    assert any(s.kind == "function" and s.type is not None for s in found.index.symbols)
    assert found.diagnostics == check_text(str(GOLF6), text, hints=True)


# ------------------------------------------------------------ requests meanwhile
class Editor:
    """An editor's side of a server in this process: its documents and requests, each
    answered by the handler the server registered; and how many texts were analysed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, delay: float = 60) -> None:
        from pygls.workspace import Workspace

        from cardrules.lsp import server as module

        self.server = make_server()
        self.server.initialized = True
        self.server.delay = delay  # (no check waiting for quiet runs in a test)
        self.server.protocol._workspace = Workspace(None)
        self.sent = _sent(self.server)
        self.analysed: list[str] = []
        analyse = module.analyse

        def counted(path: str, text: str, unsaved: Any = None) -> Any:
            self.analysed.append(text)
            return analyse(path, text, unsaved)

        monkeypatch.setattr(module, "analyse", counted)
        self.converted_in: list[str] = []  # the threads diagnostics were made ready in
        by_file = module.published.by_file

        def noted(*args: Any) -> Any:
            self.converted_in.append(threading.current_thread().name)
            return by_file(*args)

        monkeypatch.setattr(module.published, "by_file", noted)

    async def call(self, method: str, params: Any) -> Any:
        return await self.server.protocol.fm.features[method](params)

    async def open(self, uri: str, text: str) -> None:
        self.server.workspace.put_text_document(t.TextDocumentItem(uri, "yaml", 1, text))
        await self.call(t.TEXT_DOCUMENT_DID_OPEN, t.DidOpenTextDocumentParams(
            t.TextDocumentItem(uri, "yaml", 1, text)))

    async def change(self, uri: str, text: str, version: int) -> None:
        params = t.DidChangeTextDocumentParams(
            t.VersionedTextDocumentIdentifier(version=version, uri=uri),
            [t.TextDocumentContentChangeWholeDocument(text=text)])
        self.server.workspace.update_text_document(params.text_document,
                                                   params.content_changes[0])
        await self.call(t.TEXT_DOCUMENT_DID_CHANGE, params)

    async def hover(self, uri: str, line: int, column: int) -> t.Hover | None:
        hover: t.Hover | None = await self.call(t.TEXT_DOCUMENT_HOVER, t.HoverParams(
            t.TextDocumentIdentifier(uri), t.Position(line - 1, column - 1)))
        return hover

    async def published(self, count: int) -> None:
        """Wait until the server has published `count` times."""
        for _ in range(3000):
            if len(self.sent) >= count:
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"published {len(self.sent)} times, not {count}")


def _find(text: str, needle: str) -> tuple[int, int]:
    for number, line in enumerate(text.split("\n"), 1):
        if needle in line:
            return number, line.index(needle) + 1
    raise AssertionError(needle)


def test_a_request_after_a_change_is_answered_from_the_last_check(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """After a keystroke, a hover is answered from the last check (carried across the
    lines added since), not from an analysis of its own queued behind the check the change
    scheduled (a large file: 9 to 43 s a hover). A hover on a line changed since waits for
    the check of the text as it is, started at once in place of the one waiting, which
    then publishes; the next hover uses it."""
    editor = Editor(monkeypatch)
    uri = GOLF6.as_uri()
    text = GOLF6.read_text(encoding="utf-8")

    async def session() -> None:
        await editor.open(uri, text)
        await editor.published(1)
        assert editor.analysed == [text]
        line, column = _find(text, "took_discard")
        before = await editor.hover(uri, line, column)
        assert before is not None and "took_discard" in str(before.contents)

        typed = "# two lines\n# typed above\n" + text.replace("# ", "#  ", 1)
        await editor.change(uri, typed, 2)
        after = await editor.hover(uri, line + 2, column)
        assert editor.analysed == [text]  # answered from the last check
        assert after is not None and after.contents == before.contents
        assert after.range is not None and before.range is not None
        assert after.range.start.line == before.range.start.line + 2

        on_new = await editor.hover(uri, 1, 3)  # a line the last check did not see
        assert editor.analysed == [text, typed] and on_new is None
        await editor.published(2)
        assert editor.sent[-1].diagnostics == []
        # (made ready for the editor with the check, not on the loop that answers it)
        assert editor.converted_in == ["cardrules-check_0"] * 2
        await editor.hover(uri, line + 2, column)
        assert editor.analysed == [text, typed]

    asyncio.run(session())
    editor.server.checker.shutdown(wait=True)


def test_a_rename_after_a_change_is_worked_out_on_the_text_as_it_is(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A rename's edits must fit the text they are made to: it waits for the check of the
    text as it is, which finds the use typed since."""
    editor = Editor(monkeypatch)
    uri = GOLF6.as_uri()
    text = GOLF6.read_text(encoding="utf-8")
    typed = text.replace('when: "size(discard) > 0"',
                         'when: "size(discard) > 0 and not took_discard"', 1)
    assert typed != text

    async def session() -> None:
        await editor.open(uri, text)
        await editor.published(1)
        await editor.change(uri, typed, 2)
        line, column = _find(typed, "took_discard")
        edit = await editor.call(t.TEXT_DOCUMENT_RENAME, t.RenameParams(
            t.TextDocumentIdentifier(uri), t.Position(line - 1, column - 1), "from_discard"))
        assert editor.analysed == [text, typed]
        assert len(edit.changes[uri]) == typed.count("took_discard")

    asyncio.run(session())
    editor.server.checker.shutdown(wait=True)


def test_lines_are_carried_across_the_stretch_rewritten() -> None:
    from cardrules.lsp.positions import Changed, Moved

    old = ["a", "b", "c", "d"]
    changed = Changed.between(old, ["a", "x", "y", "c", "d"])
    assert (changed.first, changed.old_end, changed.new_end) == (1, 2, 3)
    assert [changed.to_old(line) for line in (0, 3, 4)] == [0, 2, 3]
    assert [changed.to_new(line) for line in (0, 2, 3)] == [0, 3, 4]
    for line in (1, 2):
        with pytest.raises(Moved):
            changed.to_old(line)
    assert changed.nearest_old(2) == 1
    inserted = Changed.between(old, ["a", "b", "new", "c", "d"])
    assert inserted.to_new(2) == 3 and inserted.nearest_old(2) == 1
    assert Changed.between(old, old).none and Changed.between(old, ["a"]).to_new(0) == 0


def test_messages_read_as_validate_prints_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """A control character or a terminal escape written in the file (here as escapes in a
    double-quoted key) reaches a message: `validate` prints it through `printable`, and the
    editor is sent the same words (they were sent NUL and ESC [31m as they were)."""
    from cardrules.dsl.loader import check_text
    from cardrules.present.render import printable

    editor = Editor(monkeypatch)
    path = ROOT / "rulesets" / "kuhn-poker.yaml"
    text = path.read_text(encoding="utf-8").replace("players: {min: 2",
                                                    '"play\\0ers\\e[31m": {min: 2', 1)
    [problem] = check_text(str(path), text)
    assert "\x00" in problem.message and "\x1b[31m" in problem.message

    async def session() -> None:
        await editor.open(path.as_uri(), text)
        await editor.published(1)

    asyncio.run(session())
    editor.server.checker.shutdown(wait=True)
    [sent] = editor.sent[0].diagnostics
    assert sent.message == printable(problem.message) == \
        "unknown key 'players': did you mean 'players'?"


def test_a_check_waits_for_the_one_running_and_outdated_texts_are_never_checked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """On a large file a check takes seconds: texts to check while one runs wait for it,
    and only the newest of them is checked next (each waiter is answered from it)."""
    from cardrules.lsp import server as served
    from cardrules.lsp.analysis import Analysis

    checked: list[str] = []
    gate = threading.Event()

    def slow(path: str, text: str, uri: str, codec: Any, unsaved: Any) -> Any:
        checked.append(text)
        if len(checked) == 1:
            gate.wait(5)
        return Analysis(path, text, []), {}

    monkeypatch.setattr(served, "_check", slow)

    class Quiet(RulesServer):
        codec = None  # type: ignore[assignment]

        def unsaved(self, uri: str) -> dict[str, str]:
            return {}

        def text_of(self, uri: str) -> str | None:
            return None  # (nothing published)

    async def typing() -> list[str]:
        ls = Quiet()
        ls.start("file:///big.yaml", "a")
        await asyncio.sleep(0.05)
        jobs = [ls.start("file:///big.yaml", text) for text in "bcde"]
        gate.set()
        found = await asyncio.gather(*(asyncio.shield(job.future) for job in jobs))
        return [analysis.text for analysis, _ in found]

    assert asyncio.run(typing()) == ["e"] * 4
    assert checked == ["a", "e"]


@pytest.mark.parametrize(("source", "line", "want"), [
    ("a: ab", 0, "a: abc"),  # past the end of a last line with no line break: at its end
    ("a: ab\n", 0, "a: abc\n"),
    ("a: ab\r\nb: x", 0, "a: abc\r\nb: x"),
    ("t: 'a\u2028b'\nc: d", 1, "t: 'a\u2028b'\nc: dc"),  # (U+2028 ends no line)
    ("t: x\x0cy\rc: d", 1, "t: x\x0cy\rc: dc"),
])
def test_a_documents_lines_end_where_the_protocol_ends_them(source: str, line: int,
                                                            want: str) -> None:
    from pygls.workspace import TextDocument

    from cardrules.lsp.server import _ProtocolLines

    document = TextDocument("file:///x.yaml", source)
    document.__class__ = _ProtocolLines
    document.apply_change(t.TextDocumentContentChangePartial(text="c", range=t.Range(
        start=t.Position(line=line, character=50), end=t.Position(line=line, character=50))))
    assert document.source == want
