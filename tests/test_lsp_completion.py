"""Completion (lsp/completion.py) on the shipped rulesets: each name `validate` accepts where
the cursor is is offered there, and a name it would reject is not."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

pytest.importorskip("pygls", reason="the language server needs the lsp extra (pygls)")

from cardrules.lsp.analysis import Analysis, analyse  # noqa: E402
from cardrules.lsp.completion import complete  # noqa: E402

RULESETS = Path(__file__).resolve().parent.parent / "rulesets"


@cache
def _analysed(name: str) -> Analysis:
    path = RULESETS / name
    return analyse(str(path), path.read_text(encoding="utf-8"))


def _labels(ruleset: str, needle: str, cursor: str) -> set[str]:
    """The labels offered with the cursor just after `cursor`, written after the start of
    `needle` in the first line of the ruleset that holds it."""
    found = _analysed(ruleset)
    lines = found.lines_of(found.path)
    row = next(i for i, line in enumerate(lines) if needle in line)
    start = lines[row].index(needle)
    column = lines[row].index(cursor, start) + len(cursor) + 1
    return {item.label for item in complete(found.text, row + 1, column, found)}


@pytest.mark.parametrize(("ruleset", "needle", "cursor", "name"), [
    # a loop's local in the round's end, outside any move or function
    ("kuhn-poker.yaml", 'do: ["flip cards(hand[p]) face up"]', "hand[p", "p"),
    # an aggregate's local where its `for c in ...` comes on a later line
    ("dou-dizhu.yaml", "and all(kept(c, loose(h, body)", "kept(c", "c"),
    # the locals of scoring.evaluate
    ("golf6.yaml", "evaluate: \"sum(if same_rank(col)", "same_rank(co", "col"),
    ("golf6.yaml", "evaluate: \"sum(if same_rank(col)", "all(c", "c"),
    # a procedure where a statement starts
    ("dou-dizhu.yaml", "do: [\"play(cards, [], 'solo')\"]", '"play', "play"),
    ("dou-dizhu.yaml", "do: [\"play(cards, [], 'solo')\"]", '"play', "crown"),
    # a parameter of a function the parent declares and this file writes again
    ("golf6-pairs10.yaml", "for col in columns(grid[p]))", "grid[p", "p"),
    # a loop's local where its entry ends, and `p` in a round's score over lines
    ("geohash.yaml", "then: [eliminate p]", "eliminate p", "p"),
    ("czech-golf.yaml", "then min(c.number for c in hand[p]", "hand[p", "p"),
    # a statement's word on the line a flow list goes on to
    ("holdem.yaml", " " * 19 + "set acted += 1]", " " * 19, "set"),
])
def test_a_name_valid_at_the_cursor_is_offered(ruleset: str, needle: str, cursor: str,
                                               name: str) -> None:
    assert name in _labels(ruleset, needle, cursor)


@pytest.mark.parametrize(("ruleset", "needle", "cursor", "name"), [
    # `p` is the player scored in a round's score and in `evaluate`, not in `rounds`
    ("golf6.yaml", "  rounds: rounds", "rounds: rounds", "p"),
    # an aggregate's variable is not bound in its own iterable
    ("golf6.yaml", "all(c.is_joker for c in col)", "for c in c", "c"),
])
def test_a_name_validate_rejects_at_the_cursor_is_not_offered(ruleset: str, needle: str,
                                                              cursor: str, name: str) -> None:
    assert name not in _labels(ruleset, needle, cursor)


def test_a_statement_s_keys_are_offered_and_described_at_any_depth() -> None:
    """The schema picks a statement's kind of block by its first key (if, then else): the
    keys of every kind are offered where a statement begins, nested ones too, with their
    descriptions, and a nested statement is rule text."""
    from cardrules.lsp.schema_keys import description, is_rule_text, keys_at

    for path in (["round", "setup", "*"], ["round", "setup", "*", "then", "*"],
                 ["round", "setup", "*", "do", "*", "do", "*"]):
        assert set(keys_at(path)) == {"if", "then", "else", "for", "do", "while", "until",
                                      "limit"}, path
        assert is_rule_text(path), path
    assert "most times the body runs" in description(["round", "setup", "*", "limit"])


@pytest.mark.parametrize(("ruleset", "needle", "cursor"), [
    ("golf6.yaml", "# 6-card Golf, base rules.", "# 6-card "),  # a comment line
    ("golf6.yaml", "# the held card is placed", "the held "),  # a comment after a value
    ("golf6.yaml", "title: 6-card Golf", "6-card "),  # words for people
    ("golf6.yaml", "Keep a face-down 2x3 grid", "Keep a "),  # a summary's line
    ("golf6.yaml", "doc: Whether the card being held", "Whether the "),
    ("golf6.yaml", 'label: "Put the card in place of {card}"', "Put the "),
])
def test_nothing_is_offered_in_a_comment_or_in_words_for_people(ruleset: str, needle: str,
                                                                 cursor: str) -> None:
    assert _labels(ruleset, needle, cursor) == set()


def test_a_labels_placeholder_is_rule_text() -> None:
    assert "size" in _labels("golf6.yaml", 'label: "Put the card in place of {card}"', "{c")


@pytest.mark.parametrize("ruleset", ["golf6.yaml", "spades.yaml", "grandma.yaml",
                                     "hanabi.yaml"])
def test_every_key_of_a_shipped_ruleset_has_words_for_its_hover(ruleset: str) -> None:
    """What the schema says of each key (dsl/schema.json's descriptions) is what the editor
    shows over it: every key a shipped ruleset writes has some."""
    from cardrules.lsp import schema_keys

    found = _analysed(ruleset)
    assert found.own is not None
    silent = set()
    for path in found.own.key_spans:
        keys = [schema_keys.ITEM if isinstance(p, int) else str(p) for p in path]
        if not schema_keys.description(keys):
            silent.add("/".join(k for k in keys if k != schema_keys.ITEM))
    assert not silent, sorted(silent)


def test_completion_below_long_lines_reads_a_bounded_text(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """Which flow collection the cursor's line continues is looked for in the lines above,
    each read with all below it: below a hundred lines of 9,000 characters (a summary's
    block), that read 45 million characters and kept the server from answering for seconds.
    It reads at most a bounded text above the cursor now; a flow list a few lines up is
    still found."""
    from cardrules.lsp import completion

    read = [0]
    scan = completion._scan

    def counted(before: str) -> object:
        read[0] += len(before)
        return scan(before)

    monkeypatch.setattr(completion, "_scan", counted)
    lines = ["summary: >"] + ["  " + "word " * 1800] * 100 + ["  more"]
    assert completion.flow_start(lines, len(lines) - 1, "  mo") == len(lines) - 1
    assert read[0] <= 100 * completion.FLOW_REACH
    lines = ["round:", "  setup: [shuffle stock,", "    deal 5 from stock to each hand,",
             "    mo"]
    assert completion.flow_start(lines, 3, "    mo") == 1
