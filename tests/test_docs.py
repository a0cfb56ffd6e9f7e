"""docs/grammar.md stays in step with the grammar, the built-in registry and the schema.

Each test lists everything that is missing, so one run says what to add to the docs.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from cookbook import cookbook_files

from cardrules.dsl import builtins
from cardrules.dsl.loader import check_files, load_ruleset
from cardrules.dsl.nodes import Origin
from cardrules.dsl.parser import ParseFailure, grammar_text, parse
from cardrules.dsl.source import parse_yaml
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.players.bots import make_bot

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "grammar.md"
SCHEMA = ROOT / "dsl" / "schema.json"
SCHEMA_COPY = ROOT / "docs" / "ruleset.schema.json"

_RULE = re.compile(r"^\s*\??([a-z_][a-z0-9_]*)\s*:", re.MULTILINE)
_ALIAS = re.compile(r"->\s*([a-z_][a-z0-9_]*)")
_FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.MULTILINE | re.DOTALL)
_INLINE_CODE = re.compile(r"(`+)(.+?)\1", re.DOTALL)


@cache
def doc_text() -> str:
    assert DOC.is_file(), f"{DOC} is missing"
    return DOC.read_text(encoding="utf-8")


@cache
def code_spans() -> tuple[str, ...]:
    """The contents of every inline code span (`...`) of docs/grammar.md."""
    prose = _FENCE.sub("", doc_text())
    return tuple(m.group(2) for m in _INLINE_CODE.finditer(prose))


def _word(name: str) -> re.Pattern[str]:
    return re.compile(r"(?<![A-Za-z0-9_])" + re.escape(name) + r"(?![A-Za-z0-9_])")


def in_text(name: str) -> bool:
    return _word(name).search(doc_text()) is not None


def in_code(name: str) -> bool:
    pattern = _word(name)
    return any(pattern.search(span) for span in code_spans())


def _missing_report(what: str, missing: list[str]) -> str:
    return (f"docs/grammar.md does not mention {len(missing)} {what}: "
            + ", ".join(missing))


# ------------------------------------------------------------------ grammar
_COMMENT = re.compile(r"(^|\s)//.*$", re.MULTILINE)


def _strip_comments(text: str) -> str:
    """The grammar without its `//` comments (which mention rule names in prose)."""
    return _COMMENT.sub("", text)


def grammar_rule_names() -> list[str]:
    """Every rule defined in grammar.lark (`name:`, `?name:`) and every `-> alias`."""
    text = _strip_comments(grammar_text())
    names = set(_RULE.findall(text)) | set(_ALIAS.findall(text))
    return sorted(names)


def test_grammar_is_readable() -> None:
    names = grammar_rule_names()
    assert "expression" in names and "statement" in names and "domain" in names, names


def test_every_grammar_rule_is_documented() -> None:
    missing = [name for name in grammar_rule_names() if not in_text(name)]
    assert not missing, _missing_report("grammar rules of dsl/grammar.lark (as whole words)",
                                        missing)


# ----------------------------------------------------------------- builtins
def builtin_names() -> dict[str, list[str]]:
    return {
        "FUNCTIONS": sorted(builtins.FUNCTIONS),
        "AGGREGATES": sorted(builtins.AGGREGATES),
        "NAMES": sorted(builtins.NAMES),
        "CARD_ATTRIBUTES": sorted(builtins.CARD_ATTRIBUTES),
        "PLAYER_ATTRIBUTES": sorted(builtins.PLAYER_ATTRIBUTES),
        "CONSTRUCTS": sorted(builtins.CONSTRUCTS),
    }


def test_every_builtin_is_documented() -> None:
    missing = [f"{table}.{name}" for table, names in builtin_names().items()
               for name in names if not in_code(name)]
    assert not missing, _missing_report("built-ins of dsl/builtins.py (inside backticks)",
                                        missing)


def test_every_builtin_doc_is_the_registrys() -> None:
    """The doc columns of the built-ins' tables are the registry's text, word for word: an
    editor's hover shows the registry's, and so says what this reference says."""
    docs = {**{f"FUNCTIONS.{k}": v.doc for k, v in builtins.FUNCTIONS.items()},
            **{f"AGGREGATES.{k}": v.doc for k, v in builtins.AGGREGATES.items()},
            **{f"NAMES.{k}": v.doc for k, v in builtins.NAMES.items()},
            **{f"CARD_ATTRIBUTES.{k}": v[2] for k, v in builtins.CARD_ATTRIBUTES.items()},
            **{f"PLAYER_ATTRIBUTES.{k}": v[2] for k, v in builtins.PLAYER_ATTRIBUTES.items()}}
    missing = sorted(name for name, doc in docs.items() if doc not in doc_text())
    assert not missing, _missing_report("built-in docs of dsl/builtins.py (word for word)",
                                        missing)


def test_every_construct_is_a_grammar_rule_and_every_statement_has_one() -> None:
    rules = set(grammar_rule_names())
    assert set(builtins.CONSTRUCTS) <= rules, set(builtins.CONSTRUCTS) - rules
    statement = re.search(r"^statement:(.*?)^\n", _strip_comments(grammar_text()),
                          re.MULTILINE | re.DOTALL)
    assert statement is not None
    kinds = re.findall(r"[a-z_]+", statement.group(1))
    assert kinds and set(kinds) <= set(builtins.CONSTRUCTS), set(kinds) - set(builtins.CONSTRUCTS)


# ------------------------------------------------------ lists of the grammar
_KEYWORD = re.compile(r"^_?[A-Z]+\.2: /\(?([a-z|]+)\)?\\b", re.MULTILINE)


def _section(heading: str, next_heading: str) -> str:
    text = doc_text()
    start = text.index(heading)
    return text[start:text.index(next_heading, start)]


def _paragraph(starting: str) -> str:
    """The paragraph (or list item) of docs/grammar.md that starts with `starting`."""
    text = doc_text()
    start = text.index(starting)
    return text[start:text.index("\n\n", start)]


def _grammar_section(title: str) -> str:
    """The rules of dsl/grammar.lark between the `// --- title` comment and the next one."""
    text = grammar_text()
    start = text.index(f" {title}\n")
    return text[start:text.index("// ---", start)]


def test_the_statement_lists_name_every_statement_of_the_grammar() -> None:
    """6.1 lists the kinds of `statement` in the grammar's order; the Terminals paragraph of
    3.4 names every rule of the grammar's statements section."""
    alternatives = re.search(r"^statement:(.*?)^\n", grammar_text(), re.MULTILINE | re.DOTALL)
    assert alternatives is not None
    kinds = re.findall(r"[a-z_]+", alternatives.group(1))
    listed = re.findall(r"`([a-z_]+)`", _paragraph("The start rule for statement texts"))
    assert listed[:len(kinds)] == kinds, listed
    rules = set(_RULE.findall(_grammar_section("statements")))
    rules |= set(_ALIAS.findall(_grammar_section("statements")))
    named = set(re.findall(r"`([a-z_]+)`", _paragraph("The statement rules (")))
    assert not rules - named, f"3.4's statement rules leave out {sorted(rules - named)}"


def test_the_start_rules_are_the_parsers() -> None:
    from cardrules.dsl.parser import KINDS

    table = re.findall(r"^\| `([a-z_]+)` \|", _section("### 3.1 ", "### 3.2 "), re.MULTILINE)
    assert tuple(table) == KINDS
    start = _paragraph("`?start: expression`")
    assert all(f"`{kind}`" in start for kind in KINDS), start


def test_the_reserved_words_are_the_grammars_keywords() -> None:
    """The reserved words of 3.2 are the keywords of dsl/grammar.lark, every one; those it
    says are refused as names are the checker's (builtins.EXPRESSION_WORDS), in its order."""
    keywords = {word for found in _KEYWORD.findall(grammar_text()) for word in found.split("|")}
    bullet = " ".join(_paragraph("- **Reserved words**").split())
    listed = bullet[:bullet.index("The lexer is contextual")]
    words = {w for span in re.findall(r"`([a-z ]+)`", listed) for w in span.split()}
    assert words == keywords, (f"not listed: {sorted(keywords - words)}; "
                               f"not keywords: {sorted(words - keywords)}")
    refused = re.search(r"the words of expressions \(`([a-z ]+)`\)", bullet)
    assert refused is not None
    assert tuple(refused.group(1).split()) == builtins.EXPRESSION_WORDS
    statement = re.search(r"a procedure may not be named by a word that begins a statement "
                          r"\(`([a-z ]+)`\)", bullet)
    assert statement is not None
    assert tuple(statement.group(1).split()) == builtins.STATEMENT_WORDS


def test_the_words_refused_as_a_procedures_name_are_those_a_call_cannot_reach() -> None:
    """Every keyword `w` of the grammar for which `w(x)` is not read as a procedure's call is
    in builtins.STATEMENT_WORDS, and every word there is one."""
    keywords = {word for found in _KEYWORD.findall(grammar_text()) for word in found.split("|")}
    unreachable = set()
    for word in keywords - set(builtins.EXPRESSION_WORDS):
        doc = parse_yaml(f"do: '{word}(x)'", "probe.yaml")
        try:
            stmt = parse(f"{word}(x)", "statement", Origin(doc, ("do",)))
        except ParseFailure:
            unreachable.add(word)
            continue
        if type(stmt).__name__ != "ProcedureCall":
            unreachable.add(word)
    assert unreachable == set(builtins.STATEMENT_WORDS)


# ------------------------------------------------------------------- schema
def schema_property_names(node: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """(where, key) for every key of every `properties` mapping, at any depth."""
    if isinstance(node, dict):
        props = node.get("properties")
        if isinstance(props, dict):
            for key in props:
                yield path or "(top level)", key
        for key, value in node.items():
            yield from schema_property_names(value, f"{path}/{key}" if path else key)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from schema_property_names(value, f"{path}/{i}")


def test_schema_has_defs() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    keys = {key for _, key in schema_property_names(schema)}
    assert {"cardrules", "name", "round"} <= keys
    assert isinstance(schema.get("$defs"), dict) and schema["$defs"]


def test_every_schema_key_is_documented() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    missing = sorted({f"{where}: {key}" for where, key in schema_property_names(schema)
                      if not in_code(key)})
    assert not missing, _missing_report("keys of dsl/schema.json (inside backticks)", missing)


def test_schema_copy_is_identical() -> None:
    assert SCHEMA_COPY.is_file(), f"{SCHEMA_COPY} is missing: copy dsl/schema.json there"
    assert SCHEMA_COPY.read_bytes() == SCHEMA.read_bytes(), (
        "docs/ruleset.schema.json differs from dsl/schema.json: copy dsl/schema.json over it")


# ----------------------------------------------------------------- cookbook
def test_the_cookbook_has_its_games() -> None:
    assert [name for name, _ in cookbook_files()] == ["whist", "oh-hell", "crazy-eights", "go-fish",
                                                      "knock-rummy", "blackjack"]


@pytest.mark.parametrize("name", [name for name, _ in cookbook_files()])
def test_every_cookbook_game_validates_and_plays_to_the_end(name: str, tmp_path: Path) -> None:
    text = dict(cookbook_files())[name]
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    assert check_files([str(path)]) == []
    rules = load_ruleset(path)
    # at the table's fewest, its default and its most players (the hand runs out sooner at
    # two: go fish's ask had nobody to ask)
    counts = sorted({rules.min_players, rules.default_players, rules.max_players})
    plays = [(["random"], 1), (["random"], 2), (["greedy:1", "random"], 3)]
    for players, (seats, seed) in [(n, play) for n in counts for play in plays]:
        engine = Engine(rules)
        state = engine.new_game(players, seed)
        bots = [make_bot(seats[p % len(seats)], seed, p) for p in range(state.n)]
        for _ in range(20_000):
            if engine.is_over(state):
                break
            seat = engine.to_move(state)
            assert seat is not None
            engine.apply(state, bots[seat].choose(engine, state, engine.legal_actions(state)))
        assert engine.is_over(state), (name, players, seed)
        results = engine.results(state)
        house = results.get("house")  # (a game against the house may be won by it alone)
        assert results["winners"] or (house and house["winner"]), (name, players, seed, results)


def test_the_cookbook_dealer_may_not_make_the_bids_add_up(tmp_path: Path) -> None:
    path = tmp_path / "oh-hell.yaml"
    path.write_text(dict(cookbook_files())["oh-hell"], encoding="utf-8")
    engine = Engine(load_ruleset(path))
    state = engine.new_game(4, 5)
    dealer_bids = 0
    while not engine.is_over(state):
        legal = engine.legal_actions(state)
        seat = engine.to_move(state)
        if legal[0][0] == "bid":
            hand = next(z for z in engine.rules.zones if z.name == "hand")
            held = len(state.zones[hand.zone_of(seat)])
            offered = sorted(a[1] for a in legal)
            made = sum(b for b in state.pvars["bid"] if b is not None)
            if seat == state.dealer:
                dealer_bids += 1
                assert offered == [b for b in range(held + 1) if made + b != state.round]
            else:
                assert offered == list(range(held + 1))
        engine.apply(state, legal[-1])
    assert dealer_bids == 7


def test_the_cookbook_rummy_scores_deadwood_and_knocks_at_ten(tmp_path: Path) -> None:
    path = tmp_path / "knock-rummy.yaml"
    path.write_text(dict(cookbook_files())["knock-rummy"], encoding="utf-8")
    engine = Engine(load_ruleset(path))
    state = engine.new_game(None, 4)
    bots = [make_bot("random", 4, p) for p in range(state.n)]
    while not engine.is_over(state):
        seat = engine.to_move(state)
        assert seat is not None
        engine.apply(state, bots[seat].choose(engine, state, engine.legal_actions(state)))
    assert len(state.round_scores) == 3 and not state.cut_off
    assert all(min(scores) <= 10 for scores in state.round_scores)  # the knocker's deadwood


# ------------------------------------------------------------- stated values
# Examples that state a value or an outcome are written in one marked form, a fenced block of
# kind `values`, one example a line: `EXPRESSION => VALUE`, or `=> fault: WORDS` for a rule
# that stops the game. Each is worked out here in a game, so the reference cannot drift.
_VALUES = re.compile(r"^```values\n(.*?)^```$", re.MULTILINE | re.DOTALL)
_STATED = re.compile(r"`([^`\n]+)` (?:is|gives) (-?[0-9]+\b|`[^`\n]+`)")
VALUES_GAME = """\
cardrules: 1
name: values
deck: {zone: stock}
zones:
  - {name: stock, visibility: hidden}
  - {name: row, visibility: public, layout: row}
  - {name: hand, owner: each, visibility: owner}
variables:
  - {name: v, scope: game, initial: "VALUE"}
round:
  phases: [{name: p, turns: rotate, steps: [{name: s, moves: [{name: m, do: [end game]}]}]}]
"""


def stated_values() -> list[tuple[str, str]]:
    """(expression, what it is said to give) for every line of every `values` block."""
    out = []
    for block in _VALUES.findall(doc_text()):
        for line in block.splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                expression, _, value = line.partition("=>")
                assert value, f"a line of a values block without '=>': {line}"
                out.append((expression.strip(), value.strip()))
    return out


def _written(value: Any) -> str:
    """A value as rule text writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, str):
        return f"'{value}'"
    if isinstance(value, (list, tuple)):  # (a subset is a tuple, as an action's value is)
        return "[" + ", ".join(_written(v) for v in value) + "]"
    return str(value)


@pytest.mark.parametrize(("expression", "stated"), stated_values())
def test_every_stated_value_is_what_the_language_gives(expression: str, stated: str,
                                                       tmp_path: Path) -> None:
    from cardrules.errors import RuleRuntimeError

    path = tmp_path / "values.yaml"
    path.write_text(VALUES_GAME.replace("VALUE", expression.replace('"', '\\"')),
                    encoding="utf-8")
    assert check_files([str(path)]) == [], expression
    engine = Engine(load_ruleset(path))
    if stated.startswith("fault:"):
        with pytest.raises(RuleRuntimeError) as fault:
            engine.new_game(2, 1)
        assert stated.removeprefix("fault:").strip() in str(fault.value), expression
    else:
        assert _written(engine.new_game(2, 1).vars["v"]) == stated, expression


def test_the_reference_states_values_only_in_its_marked_form() -> None:
    """A value stated in the prose (`7 / 2` is 3) of an expression of literals alone is one
    that a `values` block states, and so is checked."""
    from cardrules.dsl import nodes as n
    from cardrules.dsl.parser import ParseFailure, parse
    from cardrules.dsl.source import Document

    checked = {expression for expression, _ in stated_values()}
    unchecked = []
    for expression, _ in _STATED.findall(_FENCE.sub("", doc_text())):
        origin = n.Origin(Document("reference", expression, {"e": expression}), ("e",))
        try:
            tree = parse(expression, "expression", origin)
        except ParseFailure:
            continue
        if not _names_in(tree) and expression not in checked:
            unchecked.append(expression)
    assert not unchecked, f"values stated in prose, not in a `values` block: {unchecked}"


def _names_in(node: Any) -> bool:
    """Whether a syntax tree reads a name (anything but literals and built-in functions)."""
    from dataclasses import fields

    from cardrules.dsl import nodes as n

    if isinstance(node, n.Name):
        return True
    if isinstance(node, n.Node):
        return any(_names_in(getattr(node, f.name)) for f in fields(node))
    if isinstance(node, tuple):
        return any(_names_in(item) for item in node)
    return False
