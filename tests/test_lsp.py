"""`cardrules lsp` end to end: a real LSP client (pytest-lsp) drives the real server over stdio.

The diagnostics must be what `validate` prints, at the same places, with the offending text's
range; hover, completion, definitions, references, rename and the outline are asked of the
shipped rulesets; a hostile file gets the compiler's own refusal.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pygls", reason="the language server needs the lsp extra (pygls)")
pytest.importorskip("pytest_lsp", reason="these tests drive the server with pytest-lsp")

import pytest_lsp  # noqa: E402
from lsprotocol import types as t  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient  # noqa: E402

from cardrules.dsl.loader import check_files, check_text  # noqa: E402
from cardrules.errors import Diagnostic  # noqa: E402

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
RULESETS = ROOT / "rulesets"
BROKEN = TESTS / "broken"
MINI = TESTS / "data" / "mini.yaml"

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(
    scope="module",
    config=ClientServerConfig(server_command=[sys.executable, "-m", "cardrules", "lsp",
                                              "--delay", "0.05"]),
)
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    params = t.InitializeParams(capabilities=pytest_lsp.client_capabilities("neovim"))
    await lsp_client.initialize_session(params)
    yield
    await lsp_client.shutdown_session()


# ------------------------------------------------------------------- helpers
async def published(client: LanguageClient, uri: str, wait: float = 20) -> list[t.Diagnostic]:
    """The diagnostics the server publishes next for a document."""
    for _ in range(int(wait / 0.02)):
        if uri in client.diagnostics:
            return list(client.diagnostics.pop(uri))
        await asyncio.sleep(0.02)
    raise AssertionError(f"no diagnostics published for {uri}")


async def settled(client: LanguageClient, uri: str, ready: Any, wait: float = 20
                  ) -> list[t.Diagnostic]:
    """The diagnostics the server publishes for a document, once they are `ready` (a
    check an earlier edit set off may publish first, under load)."""
    for _ in range(int(wait / 0.02)):
        if uri in client.diagnostics:
            found = list(client.diagnostics.pop(uri))
            if ready(found):
                return found
        await asyncio.sleep(0.02)
    raise AssertionError(f"no diagnostics as awaited published for {uri}")


async def opened(client: LanguageClient, path: Path, text: str | None = None
                 ) -> list[t.Diagnostic]:
    """Open a document (its file's text, or `text`) and wait for its diagnostics."""
    uri = path.as_uri()
    client.diagnostics.pop(uri, None)
    client.text_document_did_open(t.DidOpenTextDocumentParams(t.TextDocumentItem(
        uri=uri, language_id="yaml", version=1,
        text=path.read_text(encoding="utf-8") if text is None else text)))
    return await published(client, uri)


async def changed(client: LanguageClient, path: Path, text: str, version: int,
                  ready: Any = None) -> list[t.Diagnostic]:
    """Replace a document's whole text, as typing would, and wait for its diagnostics (with
    `ready`, for those it accepts: a check the document's opening set off may publish
    after the change is sent, under load; see `settled`)."""
    uri = path.as_uri()
    client.diagnostics.pop(uri, None)
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        text_document=t.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[t.TextDocumentContentChangeWholeDocument(text=text)]))
    return await (published(client, uri) if ready is None else settled(client, uri, ready))


def closed(client: LanguageClient, path: Path) -> None:
    client.text_document_did_close(t.DidCloseTextDocumentParams(
        t.TextDocumentIdentifier(uri=path.as_uri())))


def where(path: Path, line: int, column: int) -> dict[str, object]:
    """A document and a position in it, from a 1-based line and column."""
    return {"text_document": t.TextDocumentIdentifier(uri=path.as_uri()),
            "position": t.Position(line=line - 1, character=column - 1)}


def find(path: Path, needle: str, nth: int = 0) -> tuple[int, int]:
    """The 1-based line and column of the nth occurrence of a text in a file."""
    seen = 0
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        at = line.find(needle)
        while at >= 0:
            if seen == nth:
                return number, at + 1
            seen += 1
            at = line.find(needle, at + 1)
    raise AssertionError(f"{needle!r} not in {path}")


def as_validate(diagnostic: t.Diagnostic) -> tuple[int, int, int, int, str]:
    r = diagnostic.range
    return (r.start.line + 1, r.start.character + 1, r.end.line + 1, r.end.character + 1,
            diagnostic.message)


def expected(found: Diagnostic) -> tuple[int, int, int, int, str]:
    start = found.location
    assert start is not None
    end = found.end
    if end is None:  # the server stretches a place with no known end over its word
        line = found.source_line or ""
        stop = start.column - 1
        while stop < len(line) and (line[stop].isalnum() or line[stop] == "_"):
            stop += 1
        stop = stop + 1 if stop == start.column - 1 and stop < len(line) else stop
        return (start.line, start.column, start.line, stop + 1, found.message)
    return (start.line, start.column, end.line, end.column, found.message)


# ------------------------------------------------------------- diagnostics
@pytest.mark.parametrize("name", sorted(p.stem for p in RULESETS.glob("*.yaml")))
async def test_a_shipped_ruleset_has_no_diagnostics(client: LanguageClient, name: str) -> None:
    path = RULESETS / f"{name}.yaml"
    assert await opened(client, path) == []
    closed(client, path)


TYPICAL = ["malformed_yaml", "duplicate_key", "unknown_top_key", "wrong_enum",
           "missing_required_key", "unknown_zone_move", "unknown_name_did_you_mean",
           "unknown_function", "wrong_arity", "type_error_and", "incomplete_expression",
           "single_equals", "bad_statement", "unknown_rank", "then_unknown_step",
           "set_unknown_variable", "block_scalar", "double_quoted_escapes"]


async def test_each_typical_mistake_gets_validates_diagnostics(client: LanguageClient,
                                                               tmp_path: Path) -> None:
    """A valid file, then a dozen and more mistakes typed into it one after another: each
    gets exactly the diagnostics `validate` prints for it, at its places and ranges."""
    path = tmp_path / "mini.yaml"
    path.write_text(MINI.read_text(encoding="utf-8"), encoding="utf-8")
    assert await opened(client, path) == []
    for version, name in enumerate(TYPICAL, 2):
        broken = BROKEN / f"{name}.yaml"
        got = await changed(client, path, broken.read_text(encoding="utf-8"), version)
        want = check_files([str(broken)])
        assert [as_validate(d) for d in got] == [expected(d) for d in want], name
        assert all(d.severity == t.DiagnosticSeverity.Error and d.source == "cardrules"
                   for d in got)
    assert await changed(client, path, MINI.read_text(encoding="utf-8"), 99) == []
    closed(client, path)


async def test_validates_hints_are_published_as_hints(client: LanguageClient,
                                                      tmp_path: Path) -> None:
    path = tmp_path / "hinted.yaml"
    text = GOLF6.read_text(encoding="utf-8").replace(
        "  - name: took_discard\n",
        "  - name: round\n    scope: game\n    initial: 0\n  - name: took_discard\n")
    path.write_text(text, encoding="utf-8")
    from cardrules.dsl.loader import check_file

    want = list(check_file(str(path), hints=True))
    assert want and all(d.hint for d in want)
    got = await opened(client, path, text)
    assert [as_validate(d) for d in got] == [expected(d) for d in want]
    assert all(d.severity == t.DiagnosticSeverity.Hint for d in got)
    closed(client, path)


@pytest.mark.parametrize("end", ["\r", "\r\n"])
async def test_lines_ended_by_a_lone_carriage_return(client: LanguageClient, tmp_path: Path,
                                                     end: str) -> None:
    """A line ends at \\r\\n, \\n or a lone \\r, for the editor as for YAML: the range is
    where validate points, and a hover finds its name."""
    path = tmp_path / "old_mac.yaml"
    text = GOLF6.read_text(encoding="utf-8").replace("top(stock)", "top(stok)", 1)
    path.write_bytes(text.replace("\n", end).encode("utf-8"))
    want = check_files([str(path)])
    got = await opened(client, path, text.replace("\n", end))
    line, column = find(GOLF6, "top(stock)")
    assert [as_validate(d)[:2] for d in got] == [(line, column + 4)]
    assert [as_validate(d)[4] for d in got] == [d.message for d in want]
    answer = await client.text_document_hover_async(t.HoverParams(
        **where(path, *find(GOLF6, "discard, visibility"))))  # type: ignore[arg-type]
    assert answer is not None and "zone discard" in str(answer.contents)
    closed(client, path)


async def test_an_expression_is_underlined_whole(client: LanguageClient) -> None:
    path = BROKEN / "unknown_name_did_you_mean.yaml"
    [found] = await opened(client, path)
    line, column = find(path, "top(stok)")
    column += len("top(")
    assert as_validate(found)[:4] == (line, column, line, column + 4)
    closed(client, path)


# ----------------------------------------------------------------- hover
GOLF6 = RULESETS / "golf6.yaml"
GRANDMA = RULESETS / "grandma.yaml"


async def hover_text(client: LanguageClient, path: Path, needle: str, nth: int = 0,
                     shift: int = 0) -> str:
    line, column = find(path, needle, nth)
    answer = await client.text_document_hover_async(t.HoverParams(
        **where(path, line, column + shift)))  # type: ignore[arg-type]
    assert answer is not None, needle
    contents = answer.contents
    assert isinstance(contents, t.MarkupContent)
    return contents.value


async def test_hover_on_golf6(client: LanguageClient) -> None:
    await opened(client, GOLF6)
    top = await hover_text(client, GOLF6, "top(stock)")
    assert "top(zone) -> card" in top and "The top card of a zone (the one placed last)." in top
    move = await hover_text(client, GOLF6, "move top(stock)")
    assert "move CARDS to [bottom of] ZONE" in move
    took = await hover_text(client, GOLF6, "took_discard", 1)
    assert "variable took_discard: true or false" in took and "scope round" in took
    cancels = await hover_text(client, GOLF6, "cancels(col)")
    assert "function cancels(col: list of cards) -> true or false" in cancels
    zone = await hover_text(client, GOLF6, "holding[me]")
    assert "zone holding" in zone and "each player's" in zone
    option = await hover_text(client, GOLF6, "stock_runs_out ==")
    assert "option stock_runs_out" in option and "choices reshuffle, end_round" in option
    points = await hover_text(client, GOLF6, "c.points", shift=2)
    assert "value table points" in points
    key = await hover_text(client, GOLF6, "summary:")
    assert "The rules in a few lines" in key
    closed(client, GOLF6)


async def test_hover_on_grandma(client: LanguageClient) -> None:
    await opened(client, GRANDMA)
    rank = await hover_text(client, GRANDMA, "'2'")
    assert "Rank 2 of this deck" in rank
    trio = await hover_text(client, GRANDMA, "'trio'", 1)
    assert "Meld kind trio (a set)" in trio
    aggregate = await hover_text(client, GRANDMA, "sum(size(m)")
    assert "sum(" in aggregate and "The sum of a number for each item." in aggregate
    param = await hover_text(client, GRANDMA, "layout))")
    assert "parameter layout" in param
    closed(client, GRANDMA)


# ------------------------------------------------------------ completion
async def labels(client: LanguageClient, path: Path, line: int, column: int) -> set[str]:
    answer = await client.text_document_completion_async(t.CompletionParams(
        **where(path, line, column)))  # type: ignore[arg-type]
    assert isinstance(answer, t.CompletionList)
    return {item.label for item in answer.items}


async def test_completion_on_golf6(client: LanguageClient, tmp_path: Path) -> None:
    text = GOLF6.read_text(encoding="utf-8")
    path = tmp_path / "golf6.yaml"
    path.write_text(text, encoding="utf-8")
    await opened(client, path)
    line, column = find(path, "size(discard) > 0")
    names = await labels(client, path, line, column + 5)
    assert {"stock", "discard", "took_discard", "stock_runs_out", "cancels", "top", "sum",
            "me"} <= names
    assert "grid" in names and "holding" in names
    line, column = find(path, "c.points for c in col")
    assert {"points", "rank", "face_up", "total"} <= await labels(client, path, line,
                                                                  column + 2)
    line, column = find(path, "visibility: owner")
    assert await labels(client, path, line, column + len("visibility: ")) == {
        "public", "owner", "others", "hidden"}
    # a new line at the top level: the keys the file has not written
    lines = text.split("\n")
    lines.insert(3, "")
    await changed(client, path, "\n".join(lines), 2)
    keys = await labels(client, path, 4, 1)
    assert "teams" in keys and "extends" in keys and "zones" not in keys
    # a new move: `then:` offers the phase's steps; a statement's start, the statements
    lines = text.split("\n")
    line, _ = find(path, "- name: take_discard")
    indent = " " * (len(lines[line - 1]) - len(lines[line - 1].lstrip()))
    lines[line - 1:line - 1] = [f"{indent}- name: extra", f"{indent}  then: ",
                                f"{indent}  do:", f"{indent}    - "]
    await changed(client, path, "\n".join(lines), 3)
    assert {"draw", "place"} <= await labels(client, path, line + 1, len(indent) + 9)
    starts = await labels(client, path, line + 3, len(indent) + 7)
    assert {"move", "deal", "shuffle", "set"} <= starts
    # a statement of keywords alone is offered whole (`reverse` alone is none)
    assert {"reverse direction", "end turn", "end round", "turn to"} <= starts
    assert "reverse" not in starts
    closed(client, path)


async def test_a_document_no_file_can_be_breaks_no_other(client: LanguageClient,
                                                        tmp_path: Path) -> None:
    """An editor may name a document anything: a NUL in its name names no file. It is
    checked as an unsaved buffer, and completion in the other documents goes on."""
    path = tmp_path / "golf6.yaml"
    path.write_text(GOLF6.read_text(encoding="utf-8"), encoding="utf-8")
    await opened(client, path)
    odd = "file:///tmp/%00x.yaml"
    client.text_document_did_open(t.DidOpenTextDocumentParams(t.TextDocumentItem(
        uri=odd, language_id="yaml", version=1, text="cardrules: 1\nname: x\n")))
    await published(client, odd)
    text = path.read_text(encoding="utf-8")
    assert await changed(client, path, "# typed\n" + text, 2) == []  # (checked beside it)
    line, column = find(path, "size(discard) > 0")
    assert {"stock", "discard"} <= await labels(client, path, line + 1, column + 5)
    client.text_document_did_close(t.DidCloseTextDocumentParams(
        t.TextDocumentIdentifier(odd)))
    closed(client, path)


async def test_completion_inside_a_text_offers_the_decks_names(client: LanguageClient
                                                               ) -> None:
    await opened(client, GRANDMA)
    line, column = find(GRANDMA, "'2'")
    names = await labels(client, GRANDMA, line, column + 1)
    assert {"A", "K", "hearts", "spades", "red"} <= names
    closed(client, GRANDMA)


async def test_completion_in_a_quoted_value_knows_its_key(client: LanguageClient) -> None:
    """`wild: "...` is a condition on `card`, quoted as much as not."""
    await opened(client, GRANDMA)
    line, column = find(GRANDMA, 'wild: "')
    assert "card" in await labels(client, GRANDMA, line, column + len('wild: "'))
    closed(client, GRANDMA)


async def test_completion_offers_a_loops_name_only_inside_it(client: LanguageClient) -> None:
    await opened(client, GOLF6)
    line, column = find(GOLF6, 'value: "sum(if cancels(col)')
    start = await labels(client, GOLF6, line, column + len('value: "'))
    assert "grid" in start and "col" not in start and "c" not in start
    line, column = find(GOLF6, "sum(c.points for c in col)")
    inner = await labels(client, GOLF6, line, column + len("sum("))
    assert {"c", "col", "grid"} <= inner
    closed(client, GOLF6)


async def test_completion_offers_a_for_loops_name_only_inside_its_entry(
        client: LanguageClient) -> None:
    """grandma's lay_down: `i` of `for: i in numbers(...)` inside the loop's `do:`, not in
    the move's statements after it (`layout`, the move's choice, in both)."""
    path = RULESETS / "grandma.yaml"
    await opened(client, path)
    line, column = find(path, '"move layout[i] to meld[me][i] face up"')
    inside = await labels(client, path, line, column + len('"move '))
    assert {"i", "layout"} <= inside
    line, column = find(path, "set me.down = true")
    after = await labels(client, path, line, column + len("set "))
    assert "i" not in after and "layout" in after
    closed(client, path)


async def test_completion_offers_a_lets_name_only_to_the_end_of_its_list(
        client: LanguageClient, tmp_path: Path) -> None:
    """A `let` in a `then:` list names its value to the end of that list, not after it."""
    text = GOLF6.read_text(encoding="utf-8").replace(
        "                - flip new face up\n",
        "                - if: \"size(stock) > 0\"\n"
        "                  then:\n"
        "                    - let spare = top(stock)\n"
        "                    - flip spare face up\n"
        "                - flip new face up\n")
    path = tmp_path / "golf6.yaml"
    path.write_text(text, encoding="utf-8")
    assert await opened(client, path, text) == []
    line, column = find(path, "- flip spare face up")
    inside = await labels(client, path, line, column + len("- flip "))
    assert {"spare", "new", "card"} <= inside
    line, column = find(path, "- flip new face up")
    after = await labels(client, path, line, column + len("- flip "))
    assert "spare" not in after and {"new", "card"} <= after
    closed(client, path)


# ------------------------------------------- definitions, references, rename
async def test_definition_and_references_on_golf6(client: LanguageClient) -> None:
    await opened(client, GOLF6)
    line, column = find(GOLF6, "cancels(col)")
    found = await client.text_document_definition_async(t.DefinitionParams(
        **where(GOLF6, line, column)))  # type: ignore[arg-type]
    assert isinstance(found, list) and len(found) == 1
    declared, _ = find(GOLF6, "- name: cancels")
    assert found[0].uri == GOLF6.as_uri() and found[0].range.start.line + 1 == declared
    line, column = find(GOLF6, "took_discard", 2)
    refs = await client.text_document_references_async(t.ReferenceParams(
        context=t.ReferenceContext(include_declaration=True),
        **where(GOLF6, line, column)))  # type: ignore[arg-type]
    assert refs is not None
    text = GOLF6.read_text(encoding="utf-8")
    assert len(refs) == text.count("took_discard")
    closed(client, GOLF6)


async def rename(client: LanguageClient, path: Path, needle: str, new: str, nth: int = 0
                 ) -> tuple[str, int]:
    """Rename the name at a text: the file's text with the edits made, and their number."""
    line, column = find(path, needle, nth)
    edit = await client.text_document_rename_async(t.RenameParams(
        new_name=new, **where(path, line, column)))  # type: ignore[arg-type]
    assert edit is not None and edit.changes is not None
    lines = path.read_text(encoding="utf-8").split("\n")
    for change in sorted(edit.changes[path.as_uri()], key=lambda e: (
            e.range.start.line, e.range.start.character), reverse=True):
        start, end = change.range.start, change.range.end
        assert start.line == end.line
        row = lines[start.line]
        lines[start.line] = row[:start.character] + change.new_text + row[end.character:]
    return "\n".join(lines), len(edit.changes[path.as_uri()])


@pytest.mark.parametrize(("ruleset", "needle", "new"), [
    ("golf6", "took_discard", "from_discard"),
    ("golf6", "holding", "in_hand"),
    ("golf6", "cancels(col)", "cancel_out"),
    ("grandma", "goal_melds()", "goal_kinds"),
    ("grandma", "trios_laid", "sets_laid"),
    ("geohash", "open_asking", "asking_open"),  # read again through an alias (*name)
    ("grandma", "trio, kind", "triple"),  # a meld kind: its texts ('trio') name it too
])
async def test_rename_leaves_a_valid_file(client: LanguageClient, tmp_path: Path,
                                          ruleset: str, needle: str, new: str) -> None:
    path = tmp_path / f"{ruleset}.yaml"
    original = (RULESETS / f"{ruleset}.yaml").read_text(encoding="utf-8")
    path.write_text(original, encoding="utf-8")
    await opened(client, path)
    renamed, edits = await rename(client, path, needle, new)
    old = needle.split("(")[0].split(",")[0]
    assert edits >= 2 and _uses(renamed, new) == _uses(original, new) + edits
    assert _uses(renamed, old) == _uses(original, old) - edits  # (what is left: comments)
    assert check_text(str(path), renamed) == []
    closed(client, path)


async def test_an_option_shown_in_a_label_is_renamed_with_the_option(client: LanguageClient,
                                                                       tmp_path: Path) -> None:
    """`{mode}` in a label shows the option `mode` (no parameter has the name): renaming the
    option renames it there too, and the file stays valid."""
    path = tmp_path / "mini.yaml"
    original = (TESTS / "data" / "mini.yaml").read_text(encoding="utf-8").replace(
        "label: Take the top card of the stock\n", "label: \"Take the top card ({mode})\"\n")
    path.write_text(original, encoding="utf-8")
    assert check_text(str(path), original) == []
    await opened(client, path)
    renamed, edits = await rename(client, path, "mode", "speed")
    assert "({speed})" in renamed and edits == _uses(original, "mode") == 4
    assert check_text(str(path), renamed) == []
    closed(client, path)


async def test_a_meld_kind_is_not_renamed_to_a_text_that_names_something() -> None:
    from cardrules.lsp import rename as renaming
    from cardrules.lsp.analysis import analyse

    found = analyse(str(GRANDMA), GRANDMA.read_text(encoding="utf-8"))
    line, column = find(GRANDMA, "trio, kind")
    with pytest.raises(renaming.RenameRefused, match="already names"):
        renaming.rename(found, line, column, "hearts")
    texts = [p for p in renaming.rename(found, line, column, "triple")
             if p.end.column - p.start.column == 4 and p.start.line != line]
    assert len(texts) == GRANDMA.read_text(encoding="utf-8").count("'trio'")


async def test_an_anchored_value_is_located_from_its_own_text(client: LanguageClient,
                                                              tmp_path: Path) -> None:
    """`when: &nonempty "..."`: YAML counts the anchor as part of the value; every place in
    the value is counted from its opening quote, in `validate`, a hover and a rename."""
    path = tmp_path / "anchored.yaml"
    original = GOLF6.read_text(encoding="utf-8").replace(
        'when: "size(discard) > 0"', 'when: &nonempty "size(discard) > 0"')
    path.write_text(original.replace("size(discard) > 0", "size(dicard) > 0"),
                    encoding="utf-8")
    line, column = find(path, "dicard")
    [found] = check_files([str(path)])
    assert found.location is not None
    assert (found.location.line, found.location.column) == (line, column), found.format()
    path.write_text(original, encoding="utf-8")
    await opened(client, path)
    hover = await hover_text(client, path, "discard) > 0")
    assert "zone discard" in hover
    renamed, _ = await rename(client, path, "discard, visibility", "pile")
    assert 'when: &nonempty "size(pile) > 0"' in renamed
    assert check_text(str(path), renamed) == []
    closed(client, path)


def _uses(text: str, name: str) -> int:
    """How often a name is written as a whole word."""
    import re

    return len(re.findall(rf"(?<![\w]){re.escape(name)}(?![\w])", text))


async def test_rename_refuses_a_name_that_is_taken_or_not_a_name(client: LanguageClient
                                                                  ) -> None:
    await opened(client, GOLF6)
    line, column = find(GOLF6, "took_discard", 1)
    for bad in ("stock", "Not A Name", "move"):
        with pytest.raises(Exception, match="already names|not a valid name"):
            await client.text_document_rename_async(t.RenameParams(
                new_name=bad, **where(GOLF6, line, column)))  # type: ignore[arg-type]
    closed(client, GOLF6)


async def test_outline_of_golf6(client: LanguageClient) -> None:
    await opened(client, GOLF6)
    found = await client.text_document_document_symbol_async(t.DocumentSymbolParams(
        text_document=t.TextDocumentIdentifier(uri=GOLF6.as_uri())))
    assert found is not None
    by_name = {s.name: s for s in found if isinstance(s, t.DocumentSymbol)}
    assert {"reveal", "play", "cancels", "grid_points", "stock", "took_discard"} <= set(by_name)
    play = by_name["play"]
    assert [s.name for s in play.children or []] == ["draw", "place"]
    draw = (play.children or [])[0]
    assert {"take_stock", "take_discard"} <= {s.name for s in draw.children or []}
    assert play.range.start.line < draw.range.start.line <= play.range.end.line
    closed(client, GOLF6)


# ---------------------------------------------------------------- extends
async def test_a_file_with_a_parent(client: LanguageClient, tmp_path: Path) -> None:
    """A child that makes its parent's text wrong: the problem is published for the parent's
    file as `validate` prints it, and pointed at from the child's `extends:`; go to
    definition on `extends:` opens the parent."""
    base = tmp_path / "base.yaml"
    base.write_text(MINI.read_text(encoding="utf-8"), encoding="utf-8")
    child = tmp_path / "child.yaml"
    child.write_text("cardrules: 1\nextends: base.yaml\nname: child\n"
                     "options:\n  - {name: mode, choices: [fast, slower]}\n", encoding="utf-8")
    got = await opened(client, child)
    want = check_files([str(child)])
    assert want and all(d.location and d.location.path == str(base) for d in want)
    parent = await published(client, base.as_uri())
    assert [as_validate(d) for d in parent] == [expected(d) for d in want]
    assert len(got) == len(want) and all(d.range.start.line == 1 for d in got)
    assert got[0].related_information and \
        got[0].related_information[0].location.uri == base.as_uri()
    found = await client.text_document_definition_async(t.DefinitionParams(
        **where(child, 2, 10)))  # type: ignore[arg-type]
    assert isinstance(found, list) and found[0].uri == base.resolve().as_uri()
    # mended, the child clears the parent's diagnostics too
    child_text = child.read_text(encoding="utf-8").replace("slower", "slow")
    assert await changed(client, child, child_text, 2) == []
    assert await published(client, base.as_uri()) == []
    closed(client, child)


async def test_a_child_reads_its_parent_as_the_editor_holds_it(client: LanguageClient,
                                                                tmp_path: Path) -> None:
    """A parent open with its child: the child is checked against the parent's text in the
    editor, saved or not: mended there, neither shows its old errors before any save;
    closed unsaved, the child reads the file again and its errors are back."""
    base, child = tmp_path / "base.yaml", tmp_path / "child.yaml"
    good = GOLF6.read_text(encoding="utf-8").replace("name: golf6", "name: base")
    base.write_text(good.replace("top(stock)", "top(stok)"), encoding="utf-8")
    child.write_text("cardrules: 1\nextends: base.yaml\nname: child\n", encoding="utf-8")
    assert await opened(client, child)
    assert await published(client, base.as_uri())
    assert await opened(client, base)
    # opened, the parent is read from the editor: the child is checked again at once
    assert "stok" in (await published(client, child.as_uri()))[0].message
    # mended in the editor, not saved (the checks of its opening may publish first)
    assert await changed(client, base, good, 2, ready=lambda found: not found) == []
    assert await settled(client, child.as_uri(), lambda found: not found) == []
    await asyncio.sleep(0.3)
    assert not client.diagnostics.get(base.as_uri(), [])
    client.diagnostics.pop(child.as_uri(), None)
    closed(client, base)  # unsaved: the file still says top(stok)
    again = await published(client, child.as_uri())
    assert again and "stok" in again[0].message
    closed(client, child)


async def test_a_parent_changed_on_disk_is_read_again(client: LanguageClient,
                                                      tmp_path: Path) -> None:
    """A parent not open in the editor changes on disk (a checkout): told so
    (workspace/didChangeWatchedFiles), the server checks the open files that extend it."""
    base, child = tmp_path / "base.yaml", tmp_path / "child.yaml"
    good = GOLF6.read_text(encoding="utf-8").replace("name: golf6", "name: base")
    base.write_text(good, encoding="utf-8")
    child.write_text("cardrules: 1\nextends: base.yaml\nname: child\n", encoding="utf-8")
    assert await opened(client, child) == []
    base.write_text(good.replace("top(stock)", "top(stok)"), encoding="utf-8")
    client.workspace_did_change_watched_files(t.DidChangeWatchedFilesParams(changes=[
        t.FileEvent(uri=base.as_uri(), type=t.FileChangeType.Changed)]))
    again = await published(client, child.as_uri())
    assert again and "stok" in again[0].message
    closed(client, child)


async def test_an_editor_that_can_watch_files_is_asked_to() -> None:
    """To an editor that registers capabilities as it goes, the server asks to be told of
    changes to rule files on disk; to another, nothing is sent."""
    watching = {"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": True}}}
    said, _ = await asyncio.to_thread(_all_at_once, [
        {"id": 1, "method": "initialize", "params": {"capabilities": watching}},
        {"method": "initialized", "params": {}}, {"method": "exit"}])
    [asked] = [m for m in said if m.get("method") == "client/registerCapability"]
    [registration] = asked["params"]["registrations"]  # type: ignore[index]
    assert registration["method"] == "workspace/didChangeWatchedFiles"
    assert registration["registerOptions"]["watchers"] == [{"globPattern": "**/*.{yaml,yml}"}]
    said, _ = await asyncio.to_thread(_all_at_once, [*INITIALIZE, {"method": "exit"}])
    assert not [m for m in said if m.get("method") == "client/registerCapability"]


@pytest.mark.parametrize(("files", "problem"), [
    ({"a.yaml": "cardrules: 1\nextends: b.yaml\nname: a\n",
      "b.yaml": "cardrules: 1\nextends: a.yaml\nname: b\n"}, "in a cycle"),
    ({"a.yaml": "cardrules: 1\nname: a\nzones: [\n"}, "malformed YAML"),
])
async def test_a_parent_that_cannot_be_loaded_is_pointed_at_from_extends(
        client: LanguageClient, tmp_path: Path, files: dict[str, str], problem: str) -> None:
    """A chain of `extends:` that cannot be loaded (a cycle, a parent's broken YAML): the
    child's diagnostic sits on the parent named in its `extends:`, not at its first key."""
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    child = tmp_path / "child.yaml"
    child.write_text("cardrules: 1\nname: child\nextends: a.yaml\n", encoding="utf-8")
    got = await opened(client, child)
    assert got and all(problem in d.message for d in got)
    assert [as_validate(d)[:4] for d in got] == [(3, 10, 3, 16)] * len(got)  # (`a.yaml`)
    # each links to the place in the parent that validate names, the parent's text read
    # though it did not load (it used to be its top)
    told = [d.location for d in check_files([str(child)]) if d.location is not None]
    linked = [(r.location.range.start.line + 1, r.location.range.start.character + 1)
              for d in got for r in d.related_information or []]
    assert linked == [(where.line, where.column) for where in told], (linked, told)
    closed(client, child)


async def test_a_builtin_parent(client: LanguageClient, tmp_path: Path) -> None:
    """A house rule on a built-in ruleset: valid; the entries it may change or place itself
    among are the parent's; a name the parent declares is defined in the parent's file."""
    child = tmp_path / "mine.yaml"
    text = ("cardrules: 1\nextends: golf6\nname: mine\noptions:\n  - name: rounds\n"
            "    default: 4\n  - name: fast\n    default: false\n"
            "    insert_after: stock_runs_out\n    doc: Unused.\n")
    assert await opened(client, child, text) == []
    options = {"rounds", "stock_runs_out", "joker_pair_cancels"}
    assert options <= await labels(client, child, 5, len("  - name: ") + 1)
    assert options <= await labels(client, child, 9, len("    insert_after: ") + 1)
    found = await client.text_document_definition_async(t.DefinitionParams(
        **where(child, 2, 10)))  # type: ignore[arg-type]
    assert isinstance(found, list) and found[0].uri.endswith("/rulesets/golf6.yaml")
    closed(client, child)


# ---------------------------------------------------------------- hostile
@pytest.mark.parametrize(("kind", "text", "message"), [
    ("deep", "cardrules: 1\nname: deep\nround: " + "[" * 60 + "]" * 60 + "\n",
     "nested more than 50 levels deep"),
    ("aliases", "cardrules: 1\nname: bomb\na: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 10) + "]\n"
        for i in range(8)), "more than 100,000 values"),
    ("huge", "cardrules: 1\nname: huge\n" + "# x\n" * 260_000, "a rule file has at most"),
    ("deep rule text", MINI.read_text(encoding="utf-8").replace(
        "size(stock) == 0", "not " * 150 + "size(stock) == 0"),
     "nested more than 100 levels"),
])
async def test_a_hostile_file_gets_the_compilers_refusal(client: LanguageClient,
                                                         tmp_path: Path, kind: str, text: str,
                                                         message: str) -> None:
    path = tmp_path / "hostile.yaml"
    got = await opened(client, path, text)
    want = check_text(str(path), text)
    assert want and any(message in d.message for d in want), [d.message for d in want]
    assert [d.message for d in got] == [d.message for d in want]
    closed(client, path)


async def test_a_document_the_editor_did_not_open_is_never_read(client: LanguageClient,
                                                                tmp_path: Path) -> None:
    """A request may name any URI: the server answers only about the documents the editor
    opened, with their text as sent; any other gets an empty answer (no file is read, a
    missing one is no error)."""
    secret = tmp_path / "secret.yaml"
    secret.write_text(GOLF6.read_text(encoding="utf-8"), encoding="utf-8")
    for uri in (secret.as_uri(), (tmp_path / "nope" / "b.yaml").as_uri()):
        document = t.TextDocumentIdentifier(uri=uri)
        at = t.Position(line=1, character=2)
        assert await client.text_document_document_symbol_async(
            t.DocumentSymbolParams(text_document=document)) == []
        assert await client.text_document_hover_async(
            t.HoverParams(text_document=document, position=at)) is None
        assert await client.text_document_definition_async(
            t.DefinitionParams(text_document=document, position=at)) == []
        listed = await client.text_document_completion_async(
            t.CompletionParams(text_document=document, position=at))
        assert isinstance(listed, t.CompletionList) and not listed.items
        assert await client.text_document_rename_async(
            t.RenameParams(text_document=document, position=at, new_name="x")) is None
    # opened, the same file is answered about from the text the editor sent, not the file's
    await opened(client, secret, "cardrules: 1\nextends: golf6\nname: mine\n")
    found = await client.text_document_document_symbol_async(t.DocumentSymbolParams(
        text_document=t.TextDocumentIdentifier(uri=secret.as_uri())))
    assert found is not None and "reveal" not in {s.name for s in found}
    closed(client, secret)


@pytest.mark.parametrize(("sent", "message"), [
    (b"Content-Length: 99999999999999999999\r\n\r\n{}",
     "Content-Length 99999999999999999999, and the input ends after 2 bytes of it"),
    (b"Content-Length: 16000001\r\n\r\n{}", "16000001, and the input ends after 2 bytes"),
    (b"X" * 5000, "a message header longer than 1,000 bytes"),
    # headers pygls passes over, waiting for ever for one it can read
    (b"Content-Length: abc\r\n\r\n{}", "a message header 'Content-Length: abc' is not"),
    (b"content-length: 2\r\n\r\n{}", "a message header 'content-length: 2' is not"),
    (b"Content-Length: 2\n\n{}", "a message header 'Content-Length: 2' is not"),
    (b"Content-Length: 0\r\n\r\n", "Content-Length 0: a message has at least one byte"),
    (b"Content-Type: text\r\n\r\n{}", "a message's headers end without a Content-Length"),
])
async def test_a_header_that_no_editor_sends_is_refused(sent: bytes, message: str) -> None:
    import subprocess

    done = await asyncio.to_thread(
        subprocess.run, [sys.executable, "-m", "cardrules", "lsp"], input=sent,
        capture_output=True, timeout=60)
    said = done.stderr.decode()
    assert done.returncode == 2 and done.stdout == b""
    assert said.startswith("error: cardrules lsp: ") and message in said, said
    assert "Traceback" not in said and said.count("\n") == 1


async def test_a_document_too_long_to_read_is_passed_over_and_the_others_served() -> None:
    """A 17 MB file opened in an editor that starts the server for every YAML file: its
    message is read through and passed over, with one line on standard error, and the
    server goes on with the next document."""
    answers, said = await asyncio.to_thread(talk, [
        {"id": 1, "method": "initialize", "params": {"capabilities": {}}},
        {"method": "initialized", "params": {}},
        {"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": "file:///tmp/big.yaml", "languageId": "yaml", "version": 1,
            "text": "x" * 17_000_000}}},
        {"id": 2, "method": "textDocument/documentSymbol", "params": {
            "textDocument": {"uri": "file:///tmp/big.yaml"}}},
        {"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": "file:///tmp/small.yaml", "languageId": "yaml", "version": 1,
            "text": GOLF6.read_text(encoding="utf-8")}}},
        {"id": 3, "method": "textDocument/documentSymbol", "params": {
            "textDocument": {"uri": "file:///tmp/small.yaml"}}},
    ])
    assert said.splitlines() == ["cardrules lsp: a message of 17,000,161 bytes passed over: "
                                 "the server reads at most 16,000,000 (a document that large "
                                 "is no rule file)"]
    assert answers[2]["result"] == []
    assert {"reveal", "play"} <= {s["name"] for s in answers[3]["result"]}  # type: ignore


def talk(messages: list[dict[str, object]]) -> tuple[dict[object, dict[str, object]], str]:
    """Send a server its messages one at a time, each request's answer awaited before the
    next is sent, then `shutdown` and `exit`: the answers by id, and what it wrote on
    standard error."""
    import json
    import subprocess

    server = subprocess.Popen([sys.executable, "-m", "cardrules", "lsp", "--delay", "0"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
    assert server.stdin is not None and server.stdout is not None
    answers: dict[object, dict[str, object]] = {}
    for message in [*messages, {"id": "down", "method": "shutdown"}, {"method": "exit"}]:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        server.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        server.stdin.flush()
        while "id" in message and message["id"] not in answers:
            length = 0
            while (header := server.stdout.readline().strip()):
                if header.lower().startswith(b"content-length:"):
                    length = int(header.split(b":")[1])
            assert length, "the server stopped answering"
            answer = json.loads(server.stdout.read(length))
            if "method" not in answer:  # (not a notification of the server's)
                answers[answer["id"]] = answer
    _, err = server.communicate(timeout=60)
    assert server.returncode == 0, err
    return answers, err.decode()


INITIALIZE: list[dict[str, object]] = [
    {"id": "init", "method": "initialize", "params": {"capabilities": {}}},
    {"method": "initialized", "params": {}}]


async def test_a_request_before_initialize_is_refused_in_a_sentence() -> None:
    hover = {"textDocument": {"uri": GOLF6.as_uri()}, "position": {"line": 0, "character": 0}}
    answers, err = await asyncio.to_thread(talk, [
        {"id": 1, "method": "textDocument/hover", "params": hover}, *INITIALIZE,
        {"id": 2, "method": "textDocument/hover", "params": hover}])
    assert answers[1]["error"] == {"code": -32002, "message": "the server is not initialized: "
                                   "an editor sends `initialize` first"}
    assert answers[2]["result"] is None  # (initialized: a document not open has no hover)
    assert err == ""


async def test_a_refused_rename_is_the_editors_to_show_not_the_logs() -> None:
    line, column = find(GOLF6, "took_discard", 1)
    document = {"uri": GOLF6.as_uri(), "languageId": "yaml", "version": 1,
                "text": GOLF6.read_text(encoding="utf-8")}
    answers, err = await asyncio.to_thread(talk, [
        *INITIALIZE, {"method": "textDocument/didOpen", "params": {"textDocument": document}},
        *({"id": bad, "method": "textDocument/rename", "params": {
            "textDocument": {"uri": GOLF6.as_uri()}, "newName": bad,
            "position": {"line": line - 1, "character": column - 1}}}
          for bad in ("stock", "Not A Name"))])
    assert answers["stock"]["error"]["code"] == -32600  # type: ignore[index]
    assert "already names" in answers["stock"]["error"]["message"]  # type: ignore[index]
    assert "not a valid name" in answers["Not A Name"]["error"]["message"]  # type: ignore
    assert err == ""


def _all_at_once(messages: list[dict[str, object]]) -> tuple[list[dict[str, object]], int]:
    """Send a server every message at once and let it end: what it wrote (each message
    decoded), and its exit status."""
    import json
    import subprocess

    data = b"".join(b"Content-Length: %d\r\n\r\n%s" % (len(body), body) for body in (
        json.dumps({"jsonrpc": "2.0", **m}).encode() for m in messages))
    done = subprocess.run([sys.executable, "-m", "cardrules", "lsp"], input=data,
                          capture_output=True, timeout=60)
    out, said = done.stdout, []
    while out:
        head, _, rest = out.partition(b"\r\n\r\n")
        length = int(head.split(b"Content-Length:")[1].split(b"\r\n")[0])
        said.append(json.loads(rest[:length]))
        out = rest[length:]
    return said, done.returncode


async def test_a_request_after_shutdown_is_answered_invalid_request() -> None:
    """The protocol: after `shutdown`, a request is answered with Invalid Request (it was
    left unanswered, and the editor waited), and `exit` ends the server cleanly."""
    hover = {"textDocument": {"uri": GOLF6.as_uri()}, "position": {"line": 0, "character": 0}}
    said, status = await asyncio.to_thread(_all_at_once, [
        *INITIALIZE, {"id": "down", "method": "shutdown"},
        {"id": 7, "method": "textDocument/hover", "params": hover}, {"method": "exit"}])
    answers = {m["id"]: m for m in said if "id" in m}
    assert answers["down"]["result"] is None and status == 0
    assert answers[7]["error"]["code"] == -32600  # type: ignore[index]
    assert "shutting down" in answers[7]["error"]["message"]  # type: ignore[index]


@pytest.mark.parametrize(("capabilities", "provider"), [
    ({"textDocument": {"rename": {"prepareSupport": True}}}, {"prepareProvider": True}),
    ({}, True),  # the protocol: rename options only to an editor that says it prepares
])
async def test_prepare_rename_is_advertised_to_an_editor_that_asks_for_it(
        capabilities: dict[str, object], provider: object) -> None:
    said, _ = await asyncio.to_thread(_all_at_once, [
        {"id": 1, "method": "initialize", "params": {"capabilities": capabilities}},
        {"method": "exit"}])
    assert said[0]["result"]["capabilities"]["renameProvider"] == provider  # type: ignore


async def test_a_change_the_protocol_does_not_allow_is_dropped_in_a_line() -> None:
    """A change at line -1 cannot be read as the protocol's: it is dropped, the log says why
    in one line, and the server goes on answering."""
    uri = GOLF6.as_uri()
    document = {"uri": uri, "languageId": "yaml", "version": 1, "text": "cardrules: 1\n"}
    change = {"range": {"start": {"line": -1, "character": -5},
                        "end": {"line": 0, "character": 0}}, "text": "x"}
    answers, err = await asyncio.to_thread(talk, [
        *INITIALIZE, {"method": "textDocument/didOpen", "params": {"textDocument": document}},
        {"method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": 2}, "contentChanges": [change]}},
        {"id": 1, "method": "textDocument/documentSymbol",
         "params": {"textDocument": {"uri": uri}}}])
    assert answers[1]["result"] == []
    assert "Traceback" not in err and err.count("\n") == 1, err
    assert err.startswith("cardrules lsp: ") and "Position.line" in err and "-1" in err


async def test_a_request_the_protocol_does_not_allow_is_answered_with_the_reason() -> None:
    """A request whose parameters cannot be read (a position of line -1, a position left
    out) is answered with Invalid Params and why: an editor waiting for it is never left
    waiting. The server goes on answering, and logs nothing."""
    uri = GOLF6.as_uri()
    document = {"uri": uri, "languageId": "yaml", "version": 1,
                "text": GOLF6.read_text(encoding="utf-8")}
    line, column = find(GOLF6, "took_discard", 1)
    answers, err = await asyncio.to_thread(talk, [
        *INITIALIZE, {"method": "textDocument/didOpen", "params": {"textDocument": document}},
        {"id": 1, "method": "textDocument/hover", "params": {
            "textDocument": {"uri": uri}, "position": {"line": -1, "character": 0}}},
        {"id": 2, "method": "textDocument/definition", "params": {"textDocument": {"uri": uri}}},
        {"id": 3, "method": "textDocument/hover", "params": {
            "textDocument": {"uri": uri},
            "position": {"line": line - 1, "character": column - 1}}}])
    assert answers[1]["error"]["code"] == -32602  # type: ignore[index]
    assert "Position.line" in answers[1]["error"]["message"]  # type: ignore[index]
    assert answers[2]["error"]["code"] == -32602  # type: ignore[index]
    assert "position" in answers[2]["error"]["message"]  # type: ignore[index]
    assert answers[3]["result"] is not None
    assert err == ""


# ----------------------------------------------------------------- neovim
async def test_neovim_shows_validates_diagnostics_and_a_hover(tmp_path: Path) -> None:
    """A real editor, headless: Neovim starts `cardrules lsp` for a file with three mistakes
    (tests/data/nvim_lsp.lua) and receives validate's diagnostics, ranges included, and a
    built-in's hover."""
    import os
    import shutil
    import subprocess

    nvim = shutil.which("nvim")
    if nvim is None:
        pytest.skip("Neovim is not installed (apt-get install neovim)")
    text = MINI.read_text(encoding="utf-8")
    for old, new in (("top(stock) to hand[me]", "top(stok) to hand[me]"),
                     ("then: drop", "then: dorp"), ("c.points", "c.pionts")):
        text = text.replace(old, new)
    path = tmp_path / "house-rules.yaml"
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "received.txt"
    line, column = find(path, "top(stok)")
    env = {**os.environ, "OUT": str(out), "CARDRULES_LSP": f"{sys.executable} -m cardrules lsp",
           "HOVER_LINE": str(line), "HOVER_COLUMN": str(column)}
    await asyncio.to_thread(
        subprocess.run, [nvim, "--headless", "--clean", "-u",
                         str(TESTS / "data" / "nvim_lsp.lua"), str(path)],
        env=env, cwd=tmp_path, timeout=60, check=True, stdin=subprocess.DEVNULL,
        capture_output=True)
    received = out.read_text(encoding="utf-8").splitlines()
    want = [f"diagnostic {a}:{b}-{c}:{d} {m}" for a, b, c, d, m in
            (expected(found) for found in check_files([str(path)]))]
    assert [r for r in received if r.startswith("diagnostic")] == want and len(want) == 3
    assert any(r.startswith("hover ") and "top(zone) -> card" in r for r in received)


async def test_exit_does_not_wait_for_a_check_under_way(tmp_path: Path) -> None:
    """`exit` ends the server at once, with a long check of a large file under way."""
    import json
    import subprocess
    import time

    extra = "".join(f"  - name: f{i}\n    params: {{p: player}}\n    value: \"grid_points(p) "
                    f"+ {i}\"\n" for i in range(12_000))
    # (900 KB: checked in about 5 s on a quiet machine, longer on a loaded one)
    text = GOLF6.read_text(encoding="utf-8").replace("\nscoring:", "\n" + extra + "\nscoring:")
    uri = (tmp_path / "large.yaml").as_uri()

    def framed(*messages: dict[str, object]) -> bytes:
        return b"".join(b"Content-Length: %d\r\n\r\n%s" % (len(body), body) for body in (
            json.dumps({"jsonrpc": "2.0", **m}).encode() for m in messages))

    server = subprocess.Popen([sys.executable, "-m", "cardrules", "lsp", "--delay", "0"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
    assert server.stdin is not None and server.stdout is not None
    # Answered once started (however loaded the machine): from here on, only exit is timed.
    server.stdin.write(framed({"id": 1, "method": "initialize", "params": {"capabilities": {}}}))
    server.stdin.flush()
    length = 0
    while (line := server.stdout.readline().strip()):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    assert b'"id": 1' in server.stdout.read(length).replace(b'"id":1', b'"id": 1')
    server.stdin.write(framed({"method": "initialized", "params": {}},
                              {"method": "textDocument/didOpen", "params": {"textDocument": {
                                  "uri": uri, "languageId": "yaml", "version": 1,
                                  "text": text}}}))
    server.stdin.flush()
    await asyncio.sleep(0.5)  # checking
    started = time.monotonic()
    _, err = server.communicate(framed({"id": 2, "method": "shutdown"}, {"method": "exit"}),
                                timeout=60)
    took = time.monotonic() - started
    assert server.returncode == 0 and b"Traceback" not in err, err
    assert took < 2, f"exit took {took:.1f} s"


async def test_a_child_whose_parent_is_named_up_a_folder_is_checked_again(
        client: LanguageClient, tmp_path: Path) -> None:
    """`extends: ../common/base.yaml`: a change to that parent in the editor checks the
    child again (the parent's path as the child names it, resolved, is the parent's)."""
    (tmp_path / "common").mkdir()
    (tmp_path / "house").mkdir()
    base, child = tmp_path / "common" / "base.yaml", tmp_path / "house" / "child.yaml"
    good = MINI.read_text(encoding="utf-8")
    base.write_text(good, encoding="utf-8")
    child.write_text("cardrules: 1\nextends: ../common/base.yaml\nname: child\n",
                     encoding="utf-8")
    assert await opened(client, child) == []
    assert await opened(client, base) == []
    await published(client, child.as_uri())  # (checked again as the parent opened)
    assert await changed(client, base, good.replace("top(stock)", "top(stoc)"), 2)
    again = await published(client, child.as_uri())
    assert again and "stoc" in again[0].message
    closed(client, child)
    closed(client, base)


async def test_a_child_is_checked_again_once_its_broken_parent_mends(
        client: LanguageClient, tmp_path: Path) -> None:
    """A parent that cannot be loaded for a moment (half-typed YAML) is still the child's
    parent: mended, the child is checked again and its old problem goes."""
    base, child = tmp_path / "base.yaml", tmp_path / "child.yaml"
    good = MINI.read_text(encoding="utf-8")
    base.write_text(good, encoding="utf-8")
    child.write_text("cardrules: 1\nextends: base.yaml\nname: child\n", encoding="utf-8")
    assert await opened(client, child) == []
    assert await opened(client, base) == []
    await published(client, child.as_uri())
    assert await changed(client, base, good.replace("title: Mini", 'title: "Mini'), 2)
    broken = await settled(client, child.as_uri(), bool)
    assert "malformed YAML" in broken[0].message
    assert await changed(client, base, good, 3) == []
    assert await settled(client, child.as_uri(), lambda found: not found) == []
    closed(client, child)
    closed(client, base)


async def test_a_parent_named_with_a_hash_is_read_as_the_editor_holds_it(
        client: LanguageClient, tmp_path: Path) -> None:
    """A parent whose file name holds `#` (a URI's fragment mark, sent as %23) is found
    among the open documents: its unsaved text is what the child reads."""
    base, child = tmp_path / "base #1.yaml", tmp_path / "child.yaml"
    good = MINI.read_text(encoding="utf-8")
    base.write_text(good, encoding="utf-8")
    child.write_text('cardrules: 1\nextends: "base #1.yaml"\nname: child\n',
                     encoding="utf-8")
    assert await opened(client, child) == []
    assert await opened(client, base, good.replace("top(stock)", "top(stoc)"))
    again = await published(client, child.as_uri())
    assert again and "stoc" in again[0].message
    closed(client, base)
    closed(client, child)


async def test_a_rename_is_checked_with_the_parent_the_editor_holds(
        client: LanguageClient, tmp_path: Path) -> None:
    """A child that reads a zone its parent has only in the editor (unsaved): renaming in
    the child is checked against that parent, as the child's own check is."""
    base, child = tmp_path / "base.yaml", tmp_path / "child.yaml"
    good = MINI.read_text(encoding="utf-8")
    base.write_text(good, encoding="utf-8")
    with_pile = good.replace("zones:\n", "zones:\n  - {name: pile, visibility: public}\n", 1)
    child.write_text("cardrules: 1\nextends: base.yaml\nname: child\n"
                     "variables:\n  - {name: bonus, scope: game, initial: 0}\n"
                     "triggers:\n  - {name: heap, after: turn, when: \"size(pile) > 3\", "
                     "do: [\"set bonus += 1\"]}\n", encoding="utf-8")
    assert await opened(client, base, with_pile) == []
    assert await opened(client, child) == []
    text, edits = await rename(client, child, "bonus", "extra")
    assert edits == 2 and "extra += 1" in text
    closed(client, child)
    closed(client, base)


async def test_go_to_a_parent_never_points_at_a_file_that_is_no_rule_file(
        client: LanguageClient, tmp_path: Path) -> None:
    """`extends:` naming a file the loader refuses (no .yaml, or no `cardrules:` key) has no
    definition: the editor is never sent to /etc/passwd."""
    (tmp_path / "notes.yaml").write_text("password: hunter2\n", encoding="utf-8")
    for parent in ("../../../../../../etc/passwd", "notes.yaml"):
        child = tmp_path / "child.yaml"
        child.write_text(f"cardrules: 1\nextends: {parent}\nname: child\n", encoding="utf-8")
        assert await opened(client, child)
        found = await client.text_document_definition_async(t.DefinitionParams(
            **where(child, 2, 10)))  # type: ignore[arg-type]
        assert found == [] or found is None
        closed(client, child)


async def test_an_edit_lands_on_the_editors_line_past_a_line_separator(
        client: LanguageClient, tmp_path: Path) -> None:
    """A line holds U+2028 (which validate reports, and YAML reads as a line break, but the
    protocol and editors do not): an edit after it lands where the editor made it, and so
    does the one that deletes it, as the diagnostic asks; then the server's text is the
    editor's, and so are its diagnostics."""
    path = tmp_path / "sep.yaml"
    text = MINI.read_text(encoding="utf-8").replace("title: Mini", 'title: "Mi\u2028ni"')
    got = await opened(client, path, text)
    assert got and "U+2028" in got[0].message
    line, column = find(MINI, "top(stock)")  # (the text's lines are the file's)
    start = column - 1 + len("top(stoc")
    separator = text.split("\n")[3].index("\u2028")

    def cut(row: int, at: int) -> t.TextDocumentContentChangePartial:
        return t.TextDocumentContentChangePartial(text="", range=t.Range(
            start=t.Position(line=row, character=at), end=t.Position(line=row, character=at + 1)))

    client.diagnostics.pop(path.as_uri(), None)
    client.text_document_did_change(t.DidChangeTextDocumentParams(
        text_document=t.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=2),
        content_changes=[cut(line - 1, start), cut(3, separator)]))
    lines = text.split("\n")
    lines[line - 1] = lines[line - 1][:start] + lines[line - 1][start + 1:]
    lines[3] = lines[3].replace("\u2028", "")
    path.write_text("\n".join(lines), encoding="utf-8")
    got = await published(client, path.as_uri())
    want = check_files([str(path)])
    assert want and "stoc" in want[0].message
    assert [as_validate(d) for d in got] == [expected(d) for d in want]
    closed(client, path)


async def test_a_half_typed_key_leaves_the_names_answered(client: LanguageClient,
                                                         tmp_path: Path) -> None:
    """While a key is half typed (a schema error: `whe: x` in a move), hover, definition
    and the outline answer from the last text whose names could be read, on the lines
    that did not change; on the line being typed, nothing is made up."""
    path = tmp_path / "typing.yaml"
    good = MINI.read_text(encoding="utf-8")
    path.write_text(good, encoding="utf-8")
    assert await opened(client, path) == []
    lines = good.split("\n")
    at = next(i for i, line in enumerate(lines) if "top(stock)" in line)
    typing = "\n".join([*lines[:at + 1], "              whe: x", *lines[at + 1:]])
    assert await changed(client, path, typing, 2)  # (the schema's problem)
    top = await hover_text(client, path, "top(stock)")  # (the file: the line numbers before)
    assert "top(zone) -> card" in top
    outline = await client.text_document_document_symbol_async(t.DocumentSymbolParams(
        text_document=t.TextDocumentIdentifier(uri=path.as_uri())))
    names, stack = set(), list(outline or [])
    while stack:
        symbol = stack.pop()
        names.add(symbol.name)
        stack.extend(getattr(symbol, "children", None) or [])
    assert {"mode", "stock", "draw"} <= names
    assert await client.text_document_hover_async(t.HoverParams(
        text_document=t.TextDocumentIdentifier(uri=path.as_uri()),
        position=t.Position(line=at + 1, character=15))) is None
    closed(client, path)


async def test_a_hover_past_a_lines_end_names_nothing(client: LanguageClient) -> None:
    """Past the end of a line there is no word: a hover there is answered as at its end,
    not with the line's last word."""
    await opened(client, GOLF6)
    line, _ = find(GOLF6, "- move top(stock) to holding[me]")
    for character in (len(GOLF6.read_text(encoding="utf-8").splitlines()[line - 1]), 200):
        assert await client.text_document_hover_async(t.HoverParams(
            text_document=t.TextDocumentIdentifier(uri=GOLF6.as_uri()),
            position=t.Position(line=line - 1, character=character))) is None
    closed(client, GOLF6)
