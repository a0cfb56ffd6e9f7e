"""The language server's own work, in this process (no editor): what it publishes, and how
much work a file of many problems or a large file costs it. tests/test_lsp.py drives the
server as an editor does."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("pygls", reason="the language server needs the lsp extra (pygls)")

from lsprotocol import types as t  # noqa: E402

from cardrules.lsp.server import RulesServer, _File, make_server  # noqa: E402


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
