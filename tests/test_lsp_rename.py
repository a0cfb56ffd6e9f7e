"""Rename, as the language server works it out (lsp/rename.py): a rename it accepts leaves a
file that `validate` accepts, and one that would not is refused with the reason."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the language server needs the lsp extra (pygls)")

from cardrules.dsl.loader import check_text  # noqa: E402
from cardrules.lsp import rename as renaming  # noqa: E402
from cardrules.lsp.analysis import Analysis, analyse  # noqa: E402
from cardrules.lsp.index import Symbol  # noqa: E402

RULESETS = Path(__file__).resolve().parent.parent / "rulesets"


def _analysed(name: str) -> Analysis:
    path = RULESETS / name
    return analyse(str(path), path.read_text(encoding="utf-8"))


def _at(found: Analysis, line: int, needle: str) -> tuple[int, int]:
    """The 1-based place of a text on a line of an analysed file."""
    return line, found.lines_of(found.path)[line - 1].index(needle) + 1


def _problems(found: Analysis, text: str) -> list[str]:
    return [d.format() for d in check_text(found.path, text) if not d.hint]


def test_a_parameter_declared_in_an_anchor_is_renamed_in_every_move_that_reads_it() -> None:
    """geohash.yaml declares `card` in `choose: &declare_choose {card: ...}`, which another
    move reads again (`choose: *declare_choose`): that move's uses of `card` are renamed
    with it (they were left as they were, and `validate` found `card` unknown)."""
    found = _analysed("geohash.yaml")
    line, column = _at(found, 163, "card")
    places = renaming.rename(found, line, column, "chosen")
    renamed = renaming.renamed(found.text, places, "chosen")
    assert _problems(found, renamed) == []
    lines = renamed.split("\n")
    assert "choose: &declare_choose {chosen: " in lines[162]
    assert "{chosen}" in lines[160]  # the anchored label both moves show
    assert lines[238].strip() == "- reveal chosen"  # in the move that reads the anchor
    # ... and the same from a use in that move
    line, column = _at(found, 239, "card")
    again = renaming.rename(found, line, column, "chosen")
    assert renaming.renamed(found.text, again, "chosen") == renamed


@pytest.mark.parametrize(("ruleset", "line", "needle", "new", "reason"), [
    ("kuhn-poker.yaml", 34, "hand", "q", "a local"),
    ("golf6.yaml", 76, "holding", "new", "a local"),
    ("golf6.yaml", 63, "points", "rank", "an attribute of every card"),
    ("kuhn-poker.yaml", 37, "stake", "active", "an attribute of every player"),
    ("kuhn-poker.yaml", 37, "stake", "none", "not a valid name"),
    ("kuhn-poker.yaml", 37, "stake", "size", "a built-in"),
    ("kuhn-poker.yaml", 74, "bet", "pass", "the answer to a reaction window"),
    ("freecell.yaml", 54, "found", "p", "the player being scored"),
])
def test_a_rename_to_a_name_that_would_mean_something_else_is_refused(
        ruleset: str, line: int, needle: str, new: str, reason: str) -> None:
    """Each of these was accepted, and `validate` rejected the file it made."""
    found = _analysed(ruleset)
    with pytest.raises(renaming.RenameRefused, match=reason):
        renaming.rename(found, *_at(found, line, needle), new)


def test_a_rename_the_rules_above_let_through_is_checked_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The last wall: what the file would be is checked by the compiler, and a rename that
    would make it invalid is refused with the compiler's message."""
    found = _analysed("kuhn-poker.yaml")
    monkeypatch.setattr(renaming, "_refuse_clash", lambda *args: None)
    places = renaming.rename(found, *_at(found, 34, "hand"), "q")
    with pytest.raises(renaming.RenameRefused, match="would not be valid: line 54: "):
        renaming.verify(found, places, "q")
    renaming.verify(found, renaming.rename(found, *_at(found, 34, "hand"), "held"), "held")


def _sample(found: Analysis) -> list[Symbol]:
    """The names a file declares, the first and last of each kind, and every name renamed
    with another (through a YAML alias)."""
    assert found.index is not None
    mine = [s for s in found.index.symbols if s.place is not None and
            s.place.path == found.path and s.kind in renaming.RENAMABLE]
    chosen: dict[int, Symbol] = {}
    for kind in dict.fromkeys(s.kind for s in mine):
        of_kind = [s for s in mine if s.kind == kind]
        chosen.update({id(s): s for s in (of_kind[0], of_kind[-1])})
    for symbol in mine:
        if len(renaming.family(found, found.index, symbol)) > 1:
            chosen[id(symbol)] = symbol
    return list(chosen.values())


@pytest.mark.parametrize("name", sorted(p.name for p in RULESETS.glob("*.yaml")))
def test_renaming_a_shipped_rulesets_names_leaves_a_valid_file(name: str) -> None:
    """Every kind of name each shipped ruleset declares (the first and the last of each,
    and each read again through an alias), renamed to a fresh name where it is declared:
    the rename is refused only for a name a parent file writes, and the file it makes is
    valid. (Every name of every ruleset: 835 renames, 40 s; this sample is a few seconds.)"""
    found = _analysed(name)
    assert found.index is not None
    for symbol in _sample(found):
        assert symbol.place is not None
        if any(o.symbol is symbol and o.aliased and o.place == symbol.place
               for o in found.index.occurrences):
            continue  # (declared through an alias, *name: renamed at its anchor's text)
        try:
            places = renaming.rename(found, symbol.place.start.line,
                                     symbol.place.start.column, "fresh_name")
        except renaming.RenameRefused as refused:
            assert "which this file extends" in str(refused), (symbol.kind, symbol.name)
            continue
        renamed = renaming.renamed(found.text, places, "fresh_name")
        assert _problems(found, renamed) == [], (symbol.kind, symbol.name)
