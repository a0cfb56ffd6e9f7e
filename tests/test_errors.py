"""Diagnostics for broken rule files: exact place, a message people can act on, shown once.

Each file in tests/broken/ is tests/data/mini.yaml with one mistake, and says on its first line
what `check_files` must report: `# expect-error: LINE:COL substring-of-message`.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardrules.dsl.loader import check_files, load_ruleset
from cardrules.errors import SHOWN, CardrulesError, Diagnostic, RulesetError
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.sessions.play import play_game

TESTS = Path(__file__).resolve().parent
BASE = TESTS / "data" / "mini.yaml"
BROKEN = sorted((TESTS / "broken").glob("*.yaml"))
EXPECT = re.compile(r"# expect-error: (\d+):(\d+) (.+)")

# Broken files whose expected diagnostic the code does not give yet (real bugs): name -> reason.
# (Fixed so far: `move card to dicard` said "unknown name"; a `|` block line indented more than
# the block, a `>` folded block, escapes in quoted scalars and scalars over several lines
# were mislocated; a missing value-table rank cascaded.)
KNOWN_BUGS: dict[str, str] = {}  # every broken file is located exactly, for now
# Broken files where one mistake gives more than one diagnostic (a spurious follow-on).
CASCADES: dict[str, str] = {}

# Lark's internal names for terminals and rules must never reach a message.
LARK_NAMES = re.compile(
    r"\$END|END-OF-FILE|end-of-file|__ANON|\b(?:NAME|INT|STRING|COMPARE|ASSIGN|SUM_OP|PRODUCT_OP|FACE|COMMENT|LPAR|RPAR|"
    r"LSQB|RSQB|LBRACE|RBRACE|COMMA|DOT|EQUAL|MORETHAN|LESSTHAN|COLON|MINUS|PLUS|STAR|SLASH|"
    r"PERCENT|BANG|AMPERSAND|VBAR|SEMICOLON|WS)\b|Token\(|Tree\(|UnexpectedToken|"
    r"UnexpectedCharacters|UnexpectedEOF|VisitError|object at 0x|Traceback")


def expectation(path: Path) -> tuple[int, int, str]:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    match = EXPECT.fullmatch(first.strip())
    assert match, f"{path.name}: the first line must be '# expect-error: LINE:COL message'"
    return int(match[1]), int(match[2]), match[3]


def broken_params(bugs: dict[str, str]) -> list[object]:
    return [pytest.param(p, id=p.stem, marks=[pytest.mark.xfail(strict=True, reason=bugs[p.stem])]
                         if p.stem in bugs else []) for p in BROKEN]


def mini_with(old: str, new: str, tmp_path: Path) -> Path:
    text = BASE.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / "mini.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


# ---------------------------------------------------------------- the base file
def test_the_base_ruleset_is_valid_and_plays() -> None:
    assert check_files([str(BASE)]) == []
    for mode in ("fast", "slow"):
        engine = Engine(load_ruleset(BASE, options={"mode": mode}))
        for players in (2, 3, 4):
            state = play_game(engine, players, seed=players)
            assert state.over and len(state.round_scores) == 1


def editor_lines(text: str) -> list[str]:
    """A text's lines as editors number them: broken at \\n, \\r\\n and \\r alone (not at
    U+2028 and the others str.splitlines breaks at too)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return lines[:-1] if lines and not lines[-1] else lines  # (a last line break ends a line)


def test_there_are_broken_files() -> None:
    assert len(BROKEN) >= 20


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.stem)
def test_each_broken_file_is_the_base_with_one_small_change(path: Path) -> None:
    base = editor_lines(BASE.read_text(encoding="utf-8"))[1:]
    lines = editor_lines(path.read_text(encoding="utf-8"))[1:]
    if path.stem.startswith("cut_"):  # the base cut short: its first lines, unchanged
        assert 0 < len(lines) < len(base) and lines == base[:len(lines)]
        return
    assert len(lines) == len(base), "a broken file keeps the base's line numbers"
    changed = [i + 2 for i, (a, b) in enumerate(zip(base, lines)) if a != b]
    assert 1 <= len(changed) <= 3, changed


# ------------------------------------------------------------ the golden errors
@pytest.mark.parametrize("path", broken_params(KNOWN_BUGS))
def test_broken_file_gives_its_expected_diagnostic(path: Path) -> None:
    line, column, message = expectation(path)
    diagnostics = check_files([str(path)])
    assert diagnostics, "no diagnostic for a broken file"
    first = diagnostics[0]
    assert first.location is not None
    assert (first.location.line, first.location.column) == (line, column), first.format()
    assert message in first.message
    assert first.location.path == str(path)
    source = editor_lines(path.read_text(encoding="utf-8"))[line - 1]
    head, shown, caret = first.format().split("\n")
    assert head == f"{path}:{line}:{column}: {first.message}"
    if len(source) > SHOWN:  # a long line: a window of it (test_a_long_line_is_shown_...)
        assert len(shown) <= 4 + SHOWN + 2 and len(caret) <= len(shown) + 1
        return
    visible = "".join(ch if ch.isprintable() else "\ufffd" for ch in source)  # (a control
    assert shown == f"    {visible}"
    # character is shown as U+FFFD: a terminal drops it, and the caret would stand elsewhere)
    # a caret under the column, and under the rest of the offending text where its end is known
    width = first.end.column - column if first.end and first.end.line == line else 1
    assert caret == "    " + " " * (column - 1) + "^" * max(width, 1)


@pytest.mark.parametrize("path", broken_params(CASCADES))
def test_one_mistake_gives_one_diagnostic(path: Path) -> None:
    diagnostics = check_files([str(path)])
    assert len(diagnostics) == 1, "\n".join(d.format() for d in diagnostics)


@pytest.mark.parametrize("path", broken_params(KNOWN_BUGS))
def test_load_ruleset_refuses_a_broken_file_with_the_same_diagnostic(path: Path) -> None:
    line, column, message = expectation(path)
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    first = info.value.diagnostics[0]
    assert first.location is not None
    assert (first.location.line, first.location.column, message in first.message) == (
        line, column, True)
    assert isinstance(info.value, CardrulesError)


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.stem)
def test_no_parser_internals_in_messages(path: Path) -> None:
    for diagnostic in check_files([str(path)]):
        assert not LARK_NAMES.search(diagnostic.format()), diagnostic.format()


def test_diagnostics_of_several_files_are_all_collected_in_order() -> None:
    a, b = (TESTS / "broken" / "unknown_function.yaml", TESTS / "broken" / "wrong_enum.yaml")
    both = check_files([str(a), str(b)])
    assert both == check_files([str(a)]) + check_files([str(b)])
    assert [d.location.path for d in both if d.location] == [str(a), str(b)]


def test_every_mistake_in_a_file_is_reported_in_file_order(tmp_path: Path) -> None:
    text = BASE.read_text(encoding="utf-8")
    text = text.replace("top(stock) to hand[me]", "top(stok) to hand[me]")
    text = text.replace("then: drop", "then: dorp")
    text = text.replace("c.points", "c.pionts")
    path = tmp_path / "three.yaml"
    path.write_text(text, encoding="utf-8")
    found = [(d.location.line, d.message.split(":")[0]) for d in check_files([str(path)])
             if d.location]
    assert found == [(39, "unknown name 'stok'"), (46, "no step 'dorp' in this phase"),
                     (67, "a card has no attribute 'pionts'")]


def test_a_loop_over_a_fault_still_has_its_body_checked(tmp_path: Path) -> None:
    """A `for` whose list fails its check: the body's own mistakes are found all the same
    (they were not, until the list was mended), and its uses of the loop's name are not."""
    text = BASE.read_text(encoding="utf-8").replace(
        "[move card to discard face up]",
        '[{for: "c in hnd[me]", do: [move c to discard face up, "set drawn += sise(stock)"]}]')
    path = tmp_path / "loop.yaml"
    path.write_text(text, encoding="utf-8")
    found = [(d.location.line, d.message.split(":")[0]) for d in check_files([str(path)])
             if d.location]
    assert found == [(53, "unknown zone 'hnd'"), (53, "unknown function 'sise'")]


# ----------------------------------------------------------- syntax, everywhere
BAD_EXPRESSIONS = [
    "size(stock) >", "size(stock", ")", "1 +* 2", "a = b", "not", "x..y",
    "size(stock) > 0 0", "'abc", "[1, 2", "if true then 1", "sum(c for)",
    "size(stock) && true", "!true", "size(stock) === 0", "size(stock) => 0", "1 < 2 < 3",
    "size(stock) == 0 |", "", "{", "size(stock) == 0;", "size(stock)[0", "c.", "(",
    "size(stock) == 0 and and true", "@", "size(stock) $ 1", "true then", "1 2",
    # keywords glued to a name are one unknown word
    "size(stock) == 0 ornot true", "size(stock) == 0 andtrue", "ifsize(stock) == 0 then 1 else 0",
]
BAD_STATEMENTS = [
    "", "move", "move top(stock)", "move top(stock) to", "deal 2 from stock to hand",
    "flip top(stock)", "flip top(stock) face sideways", "end", "end round before", "set",
    "set drawn", "let = 1", "shuffle", "win", "swap a", "move top(stock) to discard face",
    "drawn = 1", "move top(stock) into discard", "move top(stock) to discard face up up",
    # keywords glued to a name are one unknown word
    "move top(stock) to discard faceup", "movetop(stock) to discard", "settle = 5", "endgame",
    "endround", "shufflestock",
]
TRIGGER_WHEN = 'when: "size(stock) == 0"'  # line 60 of the base
TRIGGER_DO = "do: [end round]"  # line 61 of the base


@pytest.mark.parametrize("text", BAD_EXPRESSIONS)
def test_bad_expression_is_located_in_its_text_and_worded_for_people(
        text: str, tmp_path: Path) -> None:
    path = mini_with(TRIGGER_WHEN, f'when: "{text}"', tmp_path)
    diagnostics = check_files([str(path)])
    assert len(diagnostics) == 1
    d = diagnostics[0]
    assert d.location is not None and d.location.line == 60
    start = len('    when: "') + 1
    assert start <= d.location.column <= start + len(text), d.format()
    assert not LARK_NAMES.search(d.message), d.message
    assert d.message.startswith(("unexpected", "incomplete expression")), d.message


@pytest.mark.parametrize("text", BAD_STATEMENTS)
def test_bad_statement_is_located_in_its_text_and_worded_for_people(
        text: str, tmp_path: Path) -> None:
    path = mini_with(TRIGGER_DO, f"do: ['{text}']", tmp_path)
    diagnostics = check_files([str(path)])
    assert len(diagnostics) == 1
    d = diagnostics[0]
    assert d.location is not None and d.location.line == 61
    start = len("    do: ['") + 1
    assert start <= d.location.column <= start + len(text), d.format()
    assert not LARK_NAMES.search(d.message), d.message


@pytest.mark.parametrize(("text", "word", "hint"), [
    ("move top(stock) to discard faceup", "faceup", "face up"),
    ("movetop(stock) to discard", "movetop", "move top"),
    ("endgame", "endgame", "end game"), ("endround", "endround", "end round"),
    ("end_turn", "end_turn", "end turn"), ("shufflestock", "shufflestock", "shuffle stock"),
    ("shuffle_stock", "shuffle_stock", "shuffle stock"), ("setdrawn = 1", "setdrawn", "set drawn"),
    ("move top(stock) todiscard", "todiscard", "to discard")])
def test_two_words_glued_together_get_the_split_suggested(text: str, word: str, hint: str,
                                                         tmp_path: Path) -> None:
    """Where a keyword is glued to the next word and the statement parses with a space
    between them, the message points at the word and suggests the split."""
    path = mini_with(TRIGGER_DO, f"do: ['{text}']", tmp_path)
    [d] = check_files([str(path)])
    assert d.message.startswith(f"unexpected '{word}'")
    assert d.message.endswith(f"(did you mean '{hint}'?)"), d.message
    assert d.location is not None
    assert d.location.column == len("    do: ['") + 1 + text.index(word)


@pytest.mark.parametrize("text", ["ifx", "dealx 3 from stock to hand", "end round beforeme",
                                  "move top(stock) to discard face up sideways"])
def test_no_split_is_suggested_where_none_parses(text: str, tmp_path: Path) -> None:
    path = mini_with(TRIGGER_DO, f"do: ['{text}']", tmp_path)
    [d] = check_files([str(path)])
    assert "did you mean" not in d.message, d.message


@pytest.mark.parametrize(("text", "word"), [
    ("end round sideways", "sideways"), ("shuffle stock now", "now"),
    ("move top(stock) to discard face up sideways", "sideways")])
def test_a_statement_complete_before_a_word_says_so(text: str, word: str,
                                                    tmp_path: Path) -> None:
    """Not the parser's list of what might follow (a ')' or a ',' cannot)."""
    path = mini_with(TRIGGER_DO, f"do: ['{text}']", tmp_path)
    [d] = check_files([str(path)])
    assert d.message == f"unexpected '{word}': the statement looks complete before it"


def test_single_equals_gets_the_comparison_hint(tmp_path: Path) -> None:
    path = mini_with(TRIGGER_WHEN, 'when: "size(stock) = 0"', tmp_path)
    [d] = check_files([str(path)])
    assert d.message.endswith("(to compare, write ==)")
    assert (d.location.line, d.location.column) == (60, 24)  # type: ignore[union-attr]


@pytest.mark.parametrize("text", ["size(stock) == 0 && true", "size(stock) == 0 || true",
                                  "!(size(stock) == 0)"])
def test_c_style_logic_gets_the_words_hint(text: str, tmp_path: Path) -> None:
    path = mini_with(TRIGGER_WHEN, f'when: "{text}"', tmp_path)
    [d] = check_files([str(path)])
    assert "(write and, or, not)" in d.message


def test_double_equals_in_set_is_not_told_to_write_double_equals(tmp_path: Path) -> None:
    path = mini_with("set drawn += 1", "set drawn == 1", tmp_path)
    [d] = check_files([str(path)])
    assert "write ==" not in d.message
    assert (d.location.line, d.location.column) == (40, 30)  # type: ignore[union-attr]


@pytest.mark.parametrize(("value", "found"), [("0", "the number 0"), ("-3", "the number -3"),
                                            ("[2]", "a list")])
def test_a_repeat_out_of_its_shapes_says_what_it_takes(tmp_path: Path, value: str,
                                                     found: str) -> None:
    """Not jsonschema's 'is not valid under any of the given schemas': what repeat takes."""
    path = mini_with("        - name: draw\n", f"        - name: draw\n          repeat: "
                     f"{value}\n", tmp_path)
    [d] = check_files([str(path)])
    assert d.message == ("repeat: expected a whole number of at least 1 or an expression "
                         f"(text), found {found}")
    assert (d.location.line, d.location.column) == (34, 19)  # type: ignore[union-attr]


# ------------------------------------------------------------ meaning, more
def test_a_move_without_do_is_valid(tmp_path: Path) -> None:
    """`do:` is optional in the schema: a move may do nothing but move the turn on."""
    path = mini_with("              label: Keep every card\n              do: []\n",
                     "              label: Keep every card\n", tmp_path)
    assert check_files([str(path)]) == []
    state = play_game(Engine(load_ruleset(path)), 2, seed=1)
    assert state.over


def test_joker_is_not_a_rank_of_a_deck_without_jokers(tmp_path: Path) -> None:
    path = mini_with("card.rank != 'K'", "card.rank != 'joker'", tmp_path)
    [d] = check_files([str(path)])
    assert d.message == "'joker' is not a rank of this deck: expected A, 2, 3, K"


@pytest.mark.parametrize(("old", "new", "message"), [
    ("card.rank != 'K'", "card.rank != 'Q'", "'Q' is not a rank of this deck"),
    ("card.rank != 'K'", "card.suit != 'heart'", "did you mean 'hearts'?"),
    ("card.rank != 'K'", "card.colour != 'blue'", "'blue' is not a colour"),
    ("card.rank != 'K'", "card.rank > 2", "only numbers, ranks and suits can be ordered with >"),
    ("card.rank != 'K'", "card.points", "a condition must be true or false, but this is a "
                                        "number"),
    ("deal 2 from stock to each hand", "deal 2 from stock to each discard",
     "needs a zone that each player owns"),
    ("move top(stock) to hand[me]", "move top(stock) to discard[me]",
     "zone 'discard' is shared: write discard without [...]"),
    ("sum(c.points for c in hand[p])", "sum(c.points for c in hand[p]) > 0",
     "a score must be a number, but this is true or false"),
    ("sum(c.points for c in hand[p])", "sum(hand[p])", "sum(...) takes a generator"),
    ("sum(c.points for c in hand[p])", "size(hand[me]) + me",
     "the right of + must be a number, but this is a player"),
    ("initial: 0", "initial: nothing", "unknown name 'nothing'"),
    ("rounds: 1", "rounds: \"'one'\"", "must be a number"),
    ("deal 2 from stock", "deal -2 from stock", "deal -2: a deal gives each player at least 0"),
    # a key with no value after a text in a flow mapping: a misspelt key is still said so;
    # words cut off by a comma (on the line, or the one before) are; a quoted text is whole
    ("visibility: owner}", "visibility: owner, kep}", "unknown key 'kep': did you mean 'keep'?"),
    ("visibility: owner}", "visibility: owner, doc: Yours,\n      to keep}",
     "unknown key 'to keep': a comma inside { } ends a value"),
    ("visibility: owner}", "visibility: owner, doc: 'Yours', plain}",
     "unknown key 'plain': expected one of"),
])
def test_meaning_errors(old: str, new: str, message: str, tmp_path: Path) -> None:
    path = mini_with(old, new, tmp_path)
    diagnostics = check_files([str(path)])
    assert len(diagnostics) == 1, [d.format() for d in diagnostics]
    assert message in diagnostics[0].message, diagnostics[0].format()
    assert diagnostics[0].source_line and diagnostics[0].location


def test_a_rank_in_the_wrong_case_gets_a_suggestion(tmp_path: Path) -> None:
    path = mini_with("card.rank != 'K'", "card.rank != 'k'", tmp_path)
    [d] = check_files([str(path)])
    assert d.message.endswith("did you mean 'K'?")


def test_a_bad_deck_count_is_reported_once(tmp_path: Path) -> None:
    path = mini_with("  zone: stock\n", "  zone: stock\n  copies: 'player_count > 2'\n",
                     tmp_path)
    [d] = check_files([str(path)])
    assert d.message == "deck copies must be a number, but this is true or false"
    assert (d.location.line, d.location.column) == (15, 25)  # type: ignore[union-attr]


# ------------------------------------------------------------------- files
def test_a_missing_file_is_one_plain_diagnostic(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # a short name, quoted whole
    missing = Path("nope.yaml")
    [d] = check_files([str(missing)])
    assert d.location is None and d.message == f"{missing}: no such file"
    assert d.format() == d.message
    with pytest.raises(RulesetError, match="no such file"):
        load_ruleset(missing)


def test_an_unknown_builtin_name_lists_the_builtin_rulesets() -> None:
    with pytest.raises(RulesetError) as info:
        load_ruleset("golf7")
    assert str(info.value).startswith("no ruleset 'golf7'")
    assert "golf6" in str(info.value)


@pytest.mark.parametrize("text", ["", "# only a comment\n", "- a\n- list\n", "just text\n"])
def test_a_file_that_is_not_a_mapping(text: str, tmp_path: Path) -> None:
    path = tmp_path / "odd.yaml"
    path.write_text(text, encoding="utf-8")
    [d] = check_files([str(path)])
    assert d.message == "a rule file must be a YAML mapping of keys to values"
    assert (d.location.line, d.location.column) == (1, 1)  # type: ignore[union-attr]


def test_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    """Located at the first byte that is not UTF-8, counting characters on its line."""
    path = tmp_path / "latin1.yaml"
    path.write_bytes("cardrules: 1\ntitle: \u00e9t\u00e9 caf".encode()
                     + "\u00e9\n".encode("latin-1"))
    [d] = check_files([str(path)])
    assert "not a text file (UTF-8): byte 0xE9" in d.message
    assert d.location is not None and (d.location.line, d.location.column) == (2, 15)


def test_yaml_tags_and_merge_keys_are_refused(tmp_path: Path) -> None:
    path = mini_with("title: Mini", "title: !!python/name:os.system Mini", tmp_path)
    [d] = check_files([str(path)])
    assert "unsupported YAML tag" in d.message
    assert (d.location.line, d.location.column) == (4, 8)  # type: ignore[union-attr]


@pytest.mark.parametrize(("tagged", "tag"), [
    ("players: !!set {min: 2, max: 4, default: 2}", "!!set"),
    ("players: !custom {min: 2, max: 4, default: 2}", "!custom"),
    ("players: !!omap [{min: 2}, {max: 4}, {default: 2}]", "!!omap"),
])
def test_tags_on_mappings_and_lists_are_refused_too(tagged: str, tag: str,
                                                    tmp_path: Path) -> None:
    path = mini_with("players: {min: 2, max: 4, default: 2}", tagged, tmp_path)
    [d] = check_files([str(path)])
    assert d.message == f"unsupported YAML tag '{tag}'"
    assert d.location is not None and (d.location.line, d.location.column) == (5, 10)


@pytest.mark.parametrize(("written", "cause"), [
    ("0.0", "'0.0' is not a whole number: numbers here are whole (write 0)"),
    ("2.5", "'2.5' is not a whole number"),
    (".nan", "(for a text, put it in quotes: '.nan')"),
])
def test_a_number_written_with_a_point_is_refused_where_it_is_written(
        written: str, cause: str, tmp_path: Path) -> None:
    """One rule for numbers written as floats, wherever they are written (an option's
    default of 0.0 validated on one ruleset and failed in code generation on another)."""
    path = mini_with("default: 2}", f"default: {written}}}", tmp_path)
    [d] = check_files([str(path)])
    assert cause in d.message
    assert d.location is not None and (d.location.line, d.location.column) == (5, 36)


def test_a_diagnostic_formats_as_path_line_col_then_source_and_caret() -> None:
    from cardrules.errors import Location

    d = Diagnostic(Location("x.yaml", 3, 5), "boom", "abcdefgh\n")
    assert d.format() == "x.yaml:3:5: boom\n    abcdefgh\n        ^"
    assert Diagnostic(None, "plain").format() == "plain"
    # with its end known, the carets underline the offending text, on its first line only
    ranged = Diagnostic(Location("x.yaml", 3, 5), "boom", "abcdefgh\n", Location("x.yaml", 3, 8))
    assert ranged.format().splitlines()[2] == "        ^^^"
    longer = Diagnostic(Location("x.yaml", 3, 5), "boom", "abcdefgh\n", Location("x.yaml", 5, 2))
    assert longer.format().splitlines()[2] == "        ^^^^"


def test_a_long_line_is_shown_as_a_window_around_the_column() -> None:
    """A line of 100,000 characters is not quoted whole (nor underlined by 100,000 carets):
    the 100 characters around the column, … where it is cut; a line of 100 is shown whole."""
    from cardrules.errors import Location

    def lines(text: str, column: int, end: int | None = None) -> list[str]:
        stop = Location("x.yaml", 2, end) if end is not None else None
        return Diagnostic(Location("x.yaml", 2, column), "boom", text, stop).format() \
            .splitlines()[1:]

    digits = "  - [" + "9" * 100_000 + "]"
    shown, caret = lines(digits, 6, 100_006)
    assert shown == "      - [" + "9" * 95 + "\u2026"  # the start: nothing cut before it
    assert caret == "    " + " " * 5 + "^" * 95  # up to where the shown text stops
    middle = "a" * 5000 + "X" + "b" * 5000
    shown, caret = lines(middle, 5001)
    assert shown == "    \u2026" + "a" * 40 + "X" + "b" * 59 + "\u2026"
    assert caret == "    " + " " * 41 + "^" and shown[len(caret) - 1] == "X"
    tail = "c" * 300
    shown, caret = lines(tail, 301)  # just past the end: the line's last 100, then the caret
    assert shown == "    \u2026" + "c" * 100 and caret == "    " + " " * 101 + "^"
    exact = "d" * SHOWN  # as long as may be shown: whole, as any short line
    assert lines(exact, 3, 200) == ["    " + exact, "    " + "  " + "^" * (SHOWN - 2)]


def test_a_broken_file_underlines_the_offending_text() -> None:
    [d] = check_files([str(TESTS / "broken" / "unknown_name_did_you_mean.yaml")])
    assert d.location is not None and d.end is not None
    assert (d.location.line, d.location.column, d.end.line, d.end.column) == (39, 28, 39, 32)
    assert d.format().splitlines()[2] == "    " + " " * 27 + "^^^^"  # stok


@pytest.mark.parametrize(("old", "new", "message"), [
    ("name: mini", "name: my_mini",
     "'my_mini' is not a valid ruleset name (use lower-case letters, digits and -, from a letter)"),
    ("name: stock", "name: the stock",
     "'the stock' is not a valid name here (use lower-case letters, digits and _)"),
    (TRIGGER_DO, 'do: [{for: "p players", do: [end round]}]',
     "expected 'NAME in LIST' (for: p in players), found 'p players'"),
])
def test_a_badly_formed_name_says_what_the_form_is(old: str, new: str, message: str,
                                                     tmp_path: Path) -> None:
    [d] = check_files([str(mini_with(old, new, tmp_path))])
    assert d.message == message


@pytest.mark.parametrize("missing", ["deck", "zones"])
def test_a_file_without_a_deck_or_zones_is_told_which_key_is_missing(missing: str,
                                                                     tmp_path: Path) -> None:
    lines = ["cardrules: 1", "name: x", "deck: {zone: s}", "zones: [{name: s}]", "round:",
             "  phases: [{name: a, turns: rotate, steps: [{name: b, moves: [{name: c}]}]}]"]
    path = tmp_path / "x.yaml"
    path.write_text("\n".join(line for line in lines if not line.startswith(missing)) + "\n")
    [problem] = check_files([str(path)])
    assert problem.message == f"missing required key '{missing}'"
    assert (problem.location.line, problem.location.column) == (1, 1)


# ------------------------------------------------------------------ option ranges
RANGED = "options:\n  - {name: depth, default: 3, min: 1, max: 5, doc: How deep.}\n"


@pytest.mark.parametrize(("option", "cause", "at"), [
    ("{name: depth, default: 7, min: 1, max: 5, doc: d}", "the default 7 is outside the "
                                                          "option's range, from 1 to 5", "7"),
    ("{name: depth, default: 3, min: 4, max: 2, doc: d}", "max 2 is below min 4", "2"),
    ("{name: depth, default: fast, min: 1, doc: d}", "min and max bound an option whose "
                                                     "default is a whole number", "1"),
    ("{name: depth, default: 3, choices: [3, 4], max: 5, doc: d}",
     "an option has choices or a range (min, max), not both", "5"),
])
def test_an_option_range_is_checked_where_it_is_written(option: str, cause: str, at: str,
                                                        tmp_path: Path) -> None:
    path = mini_with("options:\n", f"options:\n  - {option}\n", tmp_path)
    [d] = check_files([str(path)])
    assert cause in d.message
    column = len("  - ") + option.index(f" {at},") + 2
    assert d.location is not None and (d.location.line, d.location.column) == (7, column)


@pytest.mark.parametrize(("value", "bound"), [("0", "min: 1"), ("6", "max: 5")])
def test_a_value_outside_an_options_range_is_refused_at_its_bound(
        value: str, bound: str, tmp_path: Path) -> None:
    """From the command line, a save or the lobby: the value is refused, and the message
    points at the min or max it passes."""
    path = mini_with("options:\n", RANGED, tmp_path)
    assert load_ruleset(path, {"depth": "5"}).options["depth"] == 5
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path, {"depth": value})
    [d] = caught.value.diagnostics
    assert d.message == f"option 'depth': {value} is outside its range, from 1 to 5"
    column = RANGED.splitlines()[1].index(bound) + len(bound)
    assert d.location is not None and (d.location.line, d.location.column) == (7, column)


@pytest.mark.parametrize("path", [*BROKEN, *sorted((TESTS.parent / "rulesets").glob("*.yaml"))],
                         ids=lambda p: p.stem)
def test_a_text_checked_for_a_path_gives_what_validate_gives_for_the_file(path: Path) -> None:
    """An editor's unsaved text is checked by the same stages as the file (check_text), without
    generating code: the same diagnostics, in the same order."""
    from cardrules.dsl.loader import check_text

    assert check_text(str(path), path.read_text(encoding="utf-8")) == check_files([str(path)])


def test_a_refused_alias_is_located_at_the_alias_not_its_anchor(tmp_path: Path) -> None:
    # An alias (*name) is its anchor's node again: a problem of the copy is shown where the
    # copy is written, at the alias; aliases after a refused merge key are still told apart.
    from cardrules.dsl.loader import check_files

    def located(old: str, new: str) -> tuple[list[str], dict[tuple[int, int], str]]:
        path = mini_with(old, new, tmp_path)
        problems = check_files([str(path)])
        return (path.read_text(encoding="utf-8").splitlines(),
                {(p.location.line, p.location.column): p.message for p in problems
                 if p.location is not None})

    lines, found = located("title: Mini", "title: Mini\nbase: &z {x: 1}\n"
                                          "more: {<<: *z, y: &n 2.5}\nlast: *n")
    last = next(i for i, line in enumerate(lines, 1) if line.startswith("last:"))
    assert "'2.5' is not a whole number" in found[last, len("last: ") + 1]
    assert (last - 1, lines[last - 2].index("<<") + 1) in found  # the merge key, refused
    lines, found = located("  - {name: hand, owner: each, visibility: owner}",
                           "  - &h {name: hand, owner: each, visibility: owner}\n  - *h")
    twice = next(i for i, line in enumerate(lines, 1) if line == "  - *h")
    assert found == {(twice, 5): "zone 'hand' is declared twice"}


def test_a_phase_declared_twice_is_located_at_the_second(tmp_path: Path) -> None:
    """A variant changes a phase by its name, so two phases of one name are refused (the
    base's `drop` step made a second phase `play`; `burn` goes on to `draw` instead)."""
    text = BASE.read_text(encoding="utf-8").replace("then: drop", "then: draw")
    old = "\n        - name: drop\n"
    assert text.count(old) == 1
    path = tmp_path / "mini.yaml"
    path.write_text(text.replace(old, "\n    - name: play\n      turns: rotate\n      steps:"
                                      + old), encoding="utf-8")
    problems = check_files([str(path)])
    lines = path.read_text(encoding="utf-8").splitlines()
    second = [i for i, line in enumerate(lines, 1) if line == "    - name: play"][1]
    assert [(p.location.line, p.location.column, p.message) for p in problems
            if p.location is not None] == [(second, 13, "phase 'play' is declared twice")]
    assert len(problems) == 1


@pytest.mark.parametrize("old,new,line,message", [
    ("choose: {card: \"hand[me] where card.rank != 'K'\"}",
     "choose: {card: \"hand[me] where card.rank != 'K')\"}", 52, "unexpected ')'"),
    ("choose: {card: \"hand[me] where card.rank != 'K'\"}",
     "choose: {card: \"hnad[me] where card.rank != 'K'\"}", 52, "unknown zone 'hnad'"),
    ("zones:\n", "functions:\n  - name: worth\n    params: {c: card}\n"
     "    value: \"c.points +\"\nzones:\n", 20, "incomplete expression"),
])
def test_a_declaration_that_fails_is_one_problem_not_two(old: str, new: str, line: int,
                                                          message: str, tmp_path: Path) -> None:
    """A parameter whose domain, or a function whose value, fails is said to fail where it
    is written, once: its uses are not "unknown name" or "unknown function" besides."""
    path = mini_with(old, new, tmp_path)
    if "worth" in new:  # the move's condition calls the function
        text = path.read_text(encoding="utf-8").replace("card.rank != 'K'",
                                                        "worth(card) > 0")
        path.write_text(text, encoding="utf-8")
    found = check_files([str(path)])
    assert [(d.location.line if d.location else 0, d.message.split(":")[0]) for d in found] \
        == [(line, message)], [d.format() for d in found]


@pytest.mark.parametrize("old,new", [
    ("                - set drawn += 1\n", "                - let if = 3\n"),
    ("  - name: drawn\n", "  - name: and\n"),
    ("choose: {card: \"hand[me] where card.rank != 'K'\"}",
     "choose: {where: \"hand[me] where where.rank != 'K'\"}"),
    ("zones:\n", "functions:\n  - {name: none, value: \"1\"}\nzones:\n"),
])
def test_a_word_of_the_language_names_nothing_of_a_files(old: str, new: str,
                                                          tmp_path: Path) -> None:
    """`if`, `and`, `where`, `none`... may not name a variable, a local, a choice or a
    function (some could never be read: `none` is always the literal)."""
    found = check_files([str(mini_with(old, new, tmp_path))])
    assert any("is a word of the language" in d.message for d in found), \
        [d.format() for d in found]


def test_a_conditional_inside_an_operation_is_told_to_go_in_parentheses(tmp_path: Path) -> None:
    path = mini_with('score: "sum(c.points for c in hand[p])"',
                     'score: "1 + if size(stock) > 0 then 2 else 3"', tmp_path)
    [d] = check_files([str(path)])
    assert d.message.startswith("a conditional (if ... then ... else ...) inside a larger")
    assert d.location is not None and d.location.column == 19  # at the `if`


def test_a_list_of_any_value_is_called_so(tmp_path: Path) -> None:
    path = mini_with('score: "sum(c.points for c in hand[p])"',
                     'score: "size(max_by([] for c in stock))"', tmp_path)
    found = check_files([str(path)])
    assert found and "list of values" in found[0].message and "anys" not in found[0].message, \
        [d.format() for d in found]


def test_teams_refused_are_one_mistake_not_one_more_at_each_use(tmp_path: Path) -> None:
    """`teams: 3` for 2 to 4 players is refused once: `p.team` and `team(p)` are not
    also told the ruleset has no teams."""
    path = mini_with("sum(c.points for c in hand[p])",
                     "sum(c.points for c in hand[p]) + p.team + size(team(p))", tmp_path)
    text = path.read_text(encoding="utf-8").replace("players: {min: 2, max: 4, default: 2}",
                                                    "players: {min: 2, max: 4, default: 2}\n"
                                                    "teams: 3")
    path.write_text(text, encoding="utf-8")
    found = [d.message for d in check_files([str(path)])]
    assert found == ["3 teams cannot share 2 players equally: the player counts must be "
                     "multiples of 3"], found


_WHEN = """              when: "size(stock) > 0 and mode == 'fast'\""""


@pytest.mark.parametrize("form", [
    # escapes are one character of the value, however wide in the source
    """              when: "'\\u00e9' != 'x' and size(stock) > 0 and mdoe == 'fast'\"""",
    """              when: "'\\x41' != 'x' and size(stock) > 0 and mdoe == 'fast'\"""",
    # an escaped line break is nothing of the value
    """              when: "size(stock) > 0 \\\n                and mdoe == 'fast'\"""",
    # a block's indentation given by its indicator, the text indented further
    """              when: |2\n                  size(stock) > 0\n"""
    """                  and mdoe == 'fast'""",
    # a blank line folds into one line break, in a folded block, a plain and a quoted text
    """              when: >-\n                size(stock) > 0\n\n"""
    """                and mdoe == 'fast'""",
    """              when: size(stock) > 0\n\n                and mdoe == 'fast'""",
    """              when: "size(stock) > 0\n\n                and mdoe == 'fast'\"""",
], ids=["unicode-escape", "hex-escape", "escaped-break", "indicator", "folded-blank",
        "plain-blank", "quoted-blank"])
def test_a_problem_points_at_its_word_in_every_style_of_yaml_text(tmp_path: Path,
                                                                  form: str) -> None:
    mini = (Path(__file__).resolve().parent / "data" / "mini.yaml").read_text(encoding="utf-8")
    assert _WHEN in mini
    text = mini.replace(_WHEN, form)
    path = tmp_path / "styles.yaml"
    path.write_text(text, encoding="utf-8")
    (problem,) = check_files([str(path)])
    assert "unknown name 'mdoe'" in problem.message and problem.location is not None
    line = text.split("\n")[problem.location.line - 1]
    assert line[problem.location.column - 1:].startswith("mdoe"), line


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
def test_a_character_refused_is_located_whatever_ends_the_lines(tmp_path: Path,
                                                                end: str) -> None:
    """A file whose lines end with a lone \\r (as YAML and editors read it) is located as
    one with \\n: the control character of tests/broken/control_character.yaml at 4:10."""
    text = (Path(__file__).resolve().parent / "broken" / "control_character.yaml") \
        .read_text(encoding="utf-8")
    path = tmp_path / "ends.yaml"
    path.write_bytes(text.replace("\n", end).encode("utf-8"))
    (problem,) = check_files([str(path)])
    assert problem.location is not None
    assert (problem.location.line, problem.location.column) == (4, 10)
    assert problem.source_line == "title: Mi\x01ni"


@pytest.mark.parametrize("text", ["cardrules: 1\nname: x\nc", "cardrules: 1\nname: x\nc\n"])
def test_a_yaml_problem_at_the_texts_end_is_on_its_last_line(tmp_path: Path, text: str) -> None:
    path = tmp_path / "end.yaml"
    path.write_text(text, encoding="utf-8")
    (problem,) = check_files([str(path)])
    assert problem.location is not None and problem.message.startswith("malformed YAML")
    assert (problem.location.line, problem.location.column) == (3, 2)
    assert problem.source_line == "c"
