"""The compiler's shape: one-way stages, a generator that writes only checked names and plain
literals, card rules written once, generated code kept as reviewed snapshots, types without
holes, and input bounded before any parser sees it."""

from __future__ import annotations

import ast
import json
import linecache
import random
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules.dsl import pyast
from cardrules.dsl.loader import check_files, load_ruleset
from cardrules.dsl.yaml_bounds import flow_depth
from cardrules.errors import GeneratorError, RuleRuntimeError, RulesetError
from cardrules.interpreter import effects, runtime
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.kernel import Kernel
from cardrules.interpreter.state import GameState

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOTS = Path(__file__).resolve().parent / "generated"
RULESETS = sorted((ROOT / "rulesets").glob("*.yaml"))


# --------------------------------------------------------------- the module graph
# (every module's layer: tests/test_layers.py)
def imports_of(folder: str) -> dict[str, set[str]]:
    """For each module of a folder, the cardrules packages it imports."""
    out: dict[str, set[str]] = {}
    for path in sorted((ROOT / folder).glob("*.py")):
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] if node.level == 0 else []
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                parts = name.split(".")
                if parts[0] == "cardrules" and len(parts) > 1:
                    found.add(parts[1])
        out[f"{folder}/{path.name}"] = found
    return out


def test_the_base_modules_import_no_stage() -> None:
    for module in ("errors.py", "model.py"):
        assert imports_of("cardrules")[f"cardrules/{module}"] <= {"errors"}


# ------------------------------------------------------------------------- the wall
@pytest.mark.parametrize("bad", ["__import__", "a b", "x;y", "ſ", "1x", "", "__globals__",
                                 "os.system", "é"])
def test_the_generator_refuses_any_name_that_is_not_plain(bad: str) -> None:
    with pytest.raises(GeneratorError):
        pyast.name(bad)
    with pytest.raises(GeneratorError):
        pyast.attr(pyast.name("S"), bad)


@pytest.mark.parametrize("bad", [1.5, b"x", object(), {"a": 1}, print])
def test_the_generator_refuses_any_value_that_is_not_a_plain_literal(bad: object) -> None:
    with pytest.raises(GeneratorError):
        pyast.const(bad)


@pytest.mark.parametrize("source", ["import os", "from os import system", "lambda: 0",
                                    "global x", "x.__class__", "with open('f') as f: pass",
                                    "class A: pass", "async def f(): pass"])
def test_the_wall_refuses_what_the_generator_never_writes(source: str) -> None:
    with pytest.raises(GeneratorError):
        pyast.wall(ast.parse(source))


@pytest.mark.parametrize("inline", [True, False], ids=["specialised", "runtime calls"])
@pytest.mark.parametrize("path", RULESETS, ids=[p.stem for p in RULESETS])
def test_generated_code_reads_only_what_is_declared(path: Path, inline: bool) -> None:
    """The generated module defines exactly the functions its manifest lists, and each of
    them reads only its own parameters and locals, the module's functions and constants,
    the ruleset's tables, safe built-ins and the names the runtime modules export."""
    from cardrules.dsl.binding import SAFE_BUILTINS, runtime_names
    from cardrules.dsl.codegen_flow import flow_facts
    from cardrules.dsl.compiler import board_of, check_document, generate, tables
    from cardrules.dsl.loader import load_document, resolve

    checked = check_document(load_document(resolve(str(path))))
    generated = generate(checked, flow_facts(checked.program, checked.direction), inline)
    defined = [f for f in generated.module.body if isinstance(f, ast.FunctionDef)]
    assert {f.name for f in defined} == generated.manifest.names()
    outside = set(runtime_names()) | set(SAFE_BUILTINS) | set(generated.constants) \
        | generated.manifest.names() | set(tables(checked, board_of(checked)))
    for fn in defined:
        own = {a.arg for a in fn.args.args} | {n.id for n in ast.walk(fn)
                                              if isinstance(n, ast.Name)
                                              and isinstance(n.ctx, ast.Store)}
        read = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)
                and isinstance(n.ctx, ast.Load)}
        assert read <= outside | own, (fn.name, sorted(read - outside - own))
    assert not generated.manifest.names() & set(runtime_names()), \
        "generated code redefines a runtime function"


def test_every_built_ins_code_calls_only_what_the_runtime_exports() -> None:
    """Each built-in function and player attribute writes calls of declared runtime names
    (or safe Python built-ins, or the ruleset's tables) only: the registry and the runtime's
    export lists cannot drift apart."""
    from cardrules.dsl.binding import SAFE_BUILTINS, runtime_names
    from cardrules.dsl.builtins import FUNCTIONS, HOUSE_PLAYER_ATTRIBUTES, PLAYER_ATTRIBUTES

    allowed = set(runtime_names()) | set(SAFE_BUILTINS) | {"B", "S", "me", "MELDS", "TEAMS",
                                                           "DIRECTION", "HOUSE", "N_RANKS"}
    args = [ast.Name(f"arg{i}", ast.Load()) for i in range(6)]
    for builtin in FUNCTIONS.values():
        code = builtin.emit(args, pyast.const(0))
        called = {n.func.id for n in ast.walk(code)
                  if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
        assert called <= allowed | {a.id for a in args}, (builtin.name, called - allowed)
    templates = [(name, entry[1]) for name, entry in PLAYER_ATTRIBUTES.items()]
    for name, template in [*templates, *HOUSE_PLAYER_ATTRIBUTES.items()]:
        code = pyast.expr(template, args[0])
        called = {n.func.id for n in ast.walk(code)
                  if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
        assert called <= allowed, (name, called - allowed)


def test_rule_text_reaches_generated_code_only_as_literals(tmp_path: Path) -> None:
    hostile = "x') or __import__('os').system('echo') or ('"
    path = tmp_path / "text.yaml"
    text = (ROOT / "tests" / "data" / "mini.yaml").read_text(encoding="utf-8")
    path.write_text(text.replace("default: fast\n    choices: [fast, slow]",
                                 f"default: {json.dumps(hostile)}").replace(
        "mode == 'fast'", "mode != 'slow'"), encoding="utf-8")
    tree = ast.parse(load_ruleset(path).python)
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert "__import__" not in names and "system" not in names
    assert not any(isinstance(n, ast.Attribute) and n.attr == "system" for n in ast.walk(tree))


# ----------------------------------------------------------- the card rules, once
def test_the_card_rules_on_every_action_are_the_runtimes_inlinable_ones() -> None:
    assert {"move_card", "move_top", "flip_card", "arrive", "leave"} <= set(effects.INLINABLE)
    assert "top_of_stack" in runtime.INLINABLE


# --------------------------------------------------------------------- snapshots
@pytest.mark.parametrize("path", RULESETS, ids=[p.stem for p in RULESETS])
def test_generated_code_matches_its_reviewed_snapshot(path: Path) -> None:
    snapshot = SNAPSHOTS / (path.stem + ".py.txt")
    assert snapshot.is_file(), "run python tests/make_generated.py and review the result"
    assert load_ruleset(path).python == snapshot.read_text(encoding="utf-8"), (
        f"the generated code of {path.stem} changed: run python tests/make_generated.py and "
        "review the diff")


@pytest.mark.parametrize("path", RULESETS, ids=[p.stem for p in RULESETS])
def test_every_generated_line_points_back_at_rule_text(path: Path) -> None:
    rules = load_ruleset(path)
    lines = [line.rstrip("\n") for line in linecache.getlines(rules.code_name)]  # as run
    assert lines, rules.code_name
    code_lines = [n for n, line in enumerate(lines, 1)
                  if line.strip() not in ("", "else:") and not line.startswith('"""')]
    missing = [lines[n - 1] for n in code_lines if n not in rules.line_sites]
    assert not missing, missing[:5]
    for site in rules.line_sites.values():
        assert rules.sites[site].location is not None


# ------------------------------------------------------------------------- types
def mini_with(tmp_path: Path, old: str, new: str) -> Path:
    text = (ROOT / "tests" / "data" / "mini.yaml").read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path = tmp_path / "mini.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def mini_with_functions(tmp_path: Path, functions: str, where: str) -> Path:
    """mini.yaml with a `functions:` block (its entries' YAML lines) and its `drop` move
    choosing `hand[me] where <where>`, which calls them."""
    path = mini_with(tmp_path, "zones:\n", "functions:\n" + functions + "zones:\n")
    text = path.read_text(encoding="utf-8").replace("hand[me] where card.rank != 'K'",
                                                    f"hand[me] where {where}")
    path.write_text(text, encoding="utf-8")
    return path


def test_a_variable_first_none_takes_its_type_from_what_is_stored(tmp_path: Path) -> None:
    """Storing the text 'hearts' and comparing it with a suit is always false: refused."""
    path = mini_with(tmp_path, "    initial: 0\n", "    initial: 0\n"
                     "  - {name: trump, scope: round, initial: none}\n")
    text = path.read_text(encoding="utf-8").replace(
        "                - set drawn += 1\n",
        "                - set drawn += 1\n                - set trump = 'hearts'\n").replace(
        "card.rank != 'K'", "card.suit != trump")
    path.write_text(text, encoding="utf-8")
    [d] = check_files([str(path)])
    assert d.message == "comparing a suit with a text is always false", d.format()


def test_a_declared_type_makes_a_text_a_suit(tmp_path: Path) -> None:
    path = mini_with(tmp_path, "    initial: 0\n", "    initial: 0\n"
                     "  - {name: trump, scope: round, initial: none, type: suit}\n")
    text = path.read_text(encoding="utf-8").replace(
        "                - set drawn += 1\n",
        "                - set drawn += 1\n                - set trump = 'hearts'\n").replace(
        "card.rank != 'K'", "card.suit != trump")
    path.write_text(text, encoding="utf-8")
    assert check_files([str(path)]) == []
    text = text.replace("set trump = 'hearts'", "set trump = 'heart'")
    path.write_text(text, encoding="utf-8")
    [d] = check_files([str(path)])
    assert "'heart' is not a suit of this deck" in d.message and "did you mean 'hearts'" \
        in d.message


def test_two_kinds_of_value_in_one_variable_are_refused(tmp_path: Path) -> None:
    path = mini_with(tmp_path, "    initial: 0\n", "    initial: 0\n"
                     "  - {name: last, scope: round, initial: none}\n")
    text = path.read_text(encoding="utf-8").replace(
        "                - set drawn += 1\n",
        "                - set drawn += 1\n                - set last = top(hand[me])\n"
        "                - set last = 3\n")
    path.write_text(text, encoding="utf-8")
    [d] = check_files([str(path)])
    assert d.message == "'last' holds a card, but this is a number"


# ------------------------------------------------------------------ input bounds
def test_a_billion_laughs_is_refused_at_once(tmp_path: Path) -> None:
    lol = "lol0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
    for i in range(1, 10):
        lol += f"lol{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]\n"
    path = tmp_path / "bomb.yaml"
    path.write_text("cardrules: 1\nname: x\n" + lol, encoding="utf-8")
    [d] = check_files([str(path)])
    assert "more than 100,000 values once its YAML aliases" in d.message
    assert d.location is not None and d.location.line > 2


@pytest.mark.parametrize(("text", "line", "column"), [
    ("a: " + "[" * 100_000 + "]" * 100_000, 1, 54),
    ("a:" + "".join("\n" + " " * i + "- " for i in range(200)), 52, 51),  # indentless first
    ("a: " + "{b: " * 1000 + "1" + "}" * 1000, 1, 4 + 4 * 50),
    ("a:\n  b: |\n    [[[[\n  c: '[[[['\n  d: \"{\\\"[\"\n  # [[[[\n  e: "
     + "[" * 51 + "]" * 51, 7, 56),
])
def test_deep_nesting_is_refused_before_the_parser_sees_it(text: str, line: int, column: int,
                                                           tmp_path: Path) -> None:
    """The bound is the project's own, whatever the YAML library would refuse on its own,
    and it is located where the nesting passes it (brackets in strings, comments and block
    scalars are not nesting)."""
    path = tmp_path / "deep.yaml"
    path.write_text(text, encoding="utf-8")
    [d] = check_files([str(path)])
    assert "nested more than 50 levels deep" in d.message
    assert d.location is not None and (d.location.line, d.location.column) == (line, column)


_TEXTS = st.text(alphabet="ab []{}'\",:#|>-&!?\\", max_size=8)
_NESTED = st.recursive(_TEXTS, lambda inner: st.lists(inner, max_size=3)
                       | st.dictionaries(st.text(alphabet="ab", min_size=1, max_size=3), inner,
                                         max_size=3), max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(_NESTED, st.booleans(), st.sampled_from(["'", '"', None]))
def test_the_flow_nesting_count_agrees_with_yaml(data: object, flow: bool,
                                                 style: str | None) -> None:
    """Counted on the text alone, the nesting of flow collections is what a YAML scanner
    finds, whatever strings, comments and block scalars the file holds."""
    text = yaml.safe_dump({"a": data, "b": "x"}, default_flow_style=flow, default_style=style,
                          allow_unicode=True, width=30)
    loader = yaml.SafeLoader(text)
    depth = deepest = 0
    for token in iter(loader.get_token, None):
        if isinstance(token, (yaml.FlowSequenceStartToken, yaml.FlowMappingStartToken)):
            depth += 1
            deepest = max(deepest, depth)
        elif isinstance(token, (yaml.FlowSequenceEndToken, yaml.FlowMappingEndToken)):
            depth -= 1
    assert flow_depth(text) == deepest, text


@pytest.mark.parametrize("written", [
    '>-\n        1000   # a thousand\n        + sum(c.points for c in hand[p])',
    '"1000   # a thousand\n        + sum(c.points for c in hand[p])"',
    '>-\n        1000   # a "thousand" + 7\n        + sum(c.points for c in hand[p])',
    '|-\n        1000   # a thousand\n        + sum(c.points for c in hand[p])',
    "'1000   # it''s a thousand\n        + sum(c.points for c in hand[p])'",
    '"1000   # a \\"thousand\\"\n        + sum(c.points for c in hand[p])"',
])
def test_a_comment_ends_with_its_line_in_a_folded_scalar(written: str, tmp_path: Path) -> None:
    """YAML folds a `>` or quoted scalar's lines into one line: a rule-text comment still
    ends where its line ends, so the lines after it count (they were dropped, silently),
    and an error after it is still located on its own line."""
    scores = []
    for text in (written, '"1000 + sum(c.points for c in hand[p])"'):
        engine = Engine(load_ruleset(mini_with(tmp_path, 'score: "sum(c.points for c in '
                                               'hand[p])"', f"score: {text}")))
        state = engine.new_game(2, 1)
        scores.append([engine.round_score(state, p) for p in range(2)])
    assert scores[0] == scores[1] and min(scores[0]) >= 1000
    broken = mini_with(tmp_path, 'score: "sum(c.points for c in hand[p])"',
                       f"score: {written}".replace("hand[p]", "nowhere[p]"))
    [d] = check_files([str(broken)])
    last = 67 + written.count("\n")  # the line of `+ sum(...)`
    assert "nowhere" in d.message and d.location is not None and d.location.line == last, \
        d.format()


def test_a_call_in_a_call_is_one_level_of_nesting(tmp_path: Path) -> None:
    """abs(abs(...)) nests a level a call (its arguments are no level of their own): 95
    calls deep loads and plays, 101 is refused; parentheses are no level."""
    inner = "sum(c.points for c in hand[p])"
    for depth, loads in ((95, True), (101, False)):
        text = "abs(" * depth + "(((" * 30 + inner + ")))" * 30 + ")" * depth
        path = mini_with(tmp_path, f'score: "{inner}"', f'score: "{text}"')
        found = check_files([str(path)])
        assert (found == []) == loads, [d.format() for d in found]
        if loads:
            engine = Engine(load_ruleset(path))
            assert engine.round_score(engine.new_game(2, 1), 0) >= 0
        else:
            assert "nested more than 100 levels deep" in found[0].message


def test_an_inner_let_or_loop_hides_a_name_only_while_it_is_bound(tmp_path: Path) -> None:
    """A loop through the hand named like the move's choice, and a `let` in a branch named
    like one outside it, leave the names outside as they were (a function's locals are not
    scoped: they overwrote them, and the card moved was the loop's last)."""
    path = mini_with(tmp_path, "              do: [move card to discard face up]\n",
                     "              do:\n"
                     "                - let n = 1\n"
                     "                - for: card in cards(hand[me])\n"
                     "                  do: [let n = 5]\n"
                     "                - if: \"size(stock) >= 0\"\n"
                     "                  then: [let n = 7, move card to discard face up]\n"
                     "                - if: \"n != 1\"\n"
                     "                  then: [end game]\n")
    engine = Engine(load_ruleset(path))
    for seed in range(5):
        state = engine.new_game(2, seed)
        legal = engine.legal_actions(state)
        while legal and state.step != 1:
            legal = engine.play(state, legal[-1])
        drops = [a for a in legal if a[0] == "drop"]
        if len(drops) < 2:
            continue
        chosen = drops[0]
        engine.play(state, chosen)
        assert state.zones[engine.rules.zone("discard").zone_of(0)][-1] == chosen[1]
        assert not state.over  # n is 1 again after the branch's own n


def test_a_let_in_a_branch_the_options_settle_ends_with_it(tmp_path: Path) -> None:
    """A branch kept because an option settles its test is still a block of its own, and a
    name it binds afresh never meets a rule's name spelt like the generator's own (x_2)."""
    path = mini_with(tmp_path, "              do: [move card to discard face up]\n",
                     "              do:\n"
                     "                - let x_2 = 100\n"
                     "                - let x = 1\n"
                     "                - if: \"mode == 'fast'\"\n"
                     "                  then:\n"
                     "                    - let x = cards(hand[me])\n"
                     "                    - let x_2 = x\n"
                     "                  else: [let x = 2]\n"
                     "                - if: \"size(stock) >= 0\"\n"
                     "                  then: [let x = 3]\n"
                     "                - if: \"x + x_2 != 101\"\n"
                     "                  then: [end game]\n"
                     "                - move card to discard face up\n")
    for options in ({"mode": "fast"}, {"mode": "slow"}):
        engine = Engine(load_ruleset(path, options))
        state = engine.new_game(2, 1)
        legal = engine.legal_actions(state)
        while legal and state.step != 1:
            legal = engine.play(state, legal[-1])
        engine.play(state, next(a for a in legal if a[0] == "drop"))
        assert not state.over, options


def test_an_expression_of_500_terms_is_refused_plainly(tmp_path: Path) -> None:
    path = mini_with(tmp_path, 'score: "sum(c.points for c in hand[p])"',
                     'score: "' + " + ".join(["1"] * 500) + '"')
    [d] = check_files([str(path)])
    assert "nested more than 100 levels deep" in d.message


def chain(kind: str, length: int) -> str:
    """`functions:` (kind f) or `procedures:` (kind p) entries, each calling the one before."""
    if kind == "f":
        return "".join(f'  - {{name: f{i}, params: {{n: number}}, value: '
                       f'"{f"f{i - 1}(n) + 1" if i else "n"}"}}\n' for i in range(length))
    return "".join(f'  - {{name: p{i}, do: ["{f"p{i - 1}()" if i else "shuffle stock"}"]}}\n'
                   for i in range(length))


@pytest.mark.parametrize("kind", ["f", "p"])
def test_functions_and_procedures_call_one_another_at_most_32_deep(kind: str,
                                                                  tmp_path: Path) -> None:
    """A chain of 32 is a rule file; one of 33 is refused where it passes the bound, and one
    of 250 likewise (it would take every later stage deeper than Python's stack; a file
    gives at most 256 functions and procedures, with its moves and triggers)."""
    key = "functions:\n" if kind == "f" else "procedures:\n"
    assert not check_files([str(mini_with(tmp_path, "zones:\n", key + chain(kind, 32)
                                          + "zones:\n"))])
    for length in (33, 250):
        path = mini_with(tmp_path, "zones:\n", key + chain(kind, length) + "zones:\n")
        [d] = check_files([str(path)])
        assert d.message == (f"'{kind}32' calls '{kind}31', and so on: 33 functions and "
                             "procedures, one inside another, where at most 32 may be")
        assert d.location is not None and d.location.line == 1 + next(
            n for n, line in enumerate(path.read_text().splitlines()) if f"{kind}32," in line)


def test_a_file_too_deep_for_the_checker_is_refused_at_its_top(tmp_path: Path) -> None:
    """What no single bound catches (bounds multiply) ends in a message, not a traceback."""
    import inspect
    import sys
    limit = sys.getrecursionlimit()
    # a stack far shallower than the checker is written for: 60 frames beyond this one
    sys.setrecursionlimit(len(inspect.stack(0)) + 60)
    try:
        [d] = check_files([str(mini_with(tmp_path, "zones:\n", "procedures:\n"
                                          + chain("p", 30) + "zones:\n"))])
    finally:
        sys.setrecursionlimit(limit)
    assert "too deeply nested to check" in d.message and d.location is not None
    assert (d.location.line, d.location.column) == (1, 1)


def test_a_number_of_thousands_of_digits_is_refused(tmp_path: Path) -> None:
    path = mini_with(tmp_path, "rounds: 1", "rounds: " + "9" * 5000)
    [d] = check_files([str(path)])
    assert "far too long" in d.message


@pytest.mark.parametrize(("old", "new", "message"), [
    ("  zone: stock\n", "  zone: stock\n  copies: 1000\n", "a game uses 1 to 16 decks"),
    ("  zone: stock\n", "  zone: stock\n  copies: -5\n", "a game uses 1 to 16 decks"),
    ("rounds: 1", "rounds: 1000000000", "at most 10,000"),
    ("rounds: 1", "rounds: 18446744073709551616", "a number in rule text has at most 18"),
    ("        - name: draw\n", "        - name: draw\n          repeat: 1000000000\n",
     "a repeat count must be a whole number from 1 to 1000"),
])
def test_every_size_has_an_upper_bound(old: str, new: str, message: str,
                                       tmp_path: Path) -> None:
    [d] = check_files([str(mini_with(tmp_path, old, new))])
    assert message in d.message, d.format()


def test_rulesets_and_their_code_load_without_running_rule_text(tmp_path: Path) -> None:
    """Loading never evaluates a rule: the deck count and wild cards are worked out from the
    checked tree (a condition on something only a game knows is refused)."""
    path = mini_with(tmp_path, "  zone: stock\n", "  zone: stock\n  wild: 'card.face_up'\n")
    [d] = check_files([str(path)])
    assert "the wild condition may only use the card's own attributes" in d.message
    with pytest.raises(RulesetError):
        load_ruleset(path)
    assert re.search(r"^def ", load_ruleset("golf6").python, re.MULTILINE)


# ------------------------------------------------------------ remembered values
def test_a_function_of_its_arguments_alone_keeps_its_values_and_hands_out_copies(
        tmp_path: Path) -> None:
    """A function that reads nothing but its arguments is worked out once per arguments
    (dou-dizhu's and holdem's listings ask the same ones again and again); one that reads
    a zone is not, as its value changes with the game; a kept list is handed out as a copy,
    so a caller that changes it changes nothing kept."""
    path = mini_with_functions(
        tmp_path,
        "  - name: low\n    params: {h: cards}\n"
        "    value: \"select(c for c in h if c.points < 2)\"\n"
        "  - name: ahead\n    params: {h: cards}\n"
        "    value: \"select(c for c in h if size(stock) > 40)\"\n",
        "card in low(hand[me]) or card in ahead(hand[me])")
    rules = load_ruleset(path)
    source = rules.python
    assert "M_low.values.get(" in source and "M_ahead" not in source
    namespace = rules.setup.__globals__  # type: ignore[union-attr]
    low, kept = namespace["f_low"], namespace["M_low"]
    points = rules.cards.values["points"]
    hand = [c for c in range(8)]
    first = low(None, hand)
    assert first == [c for c in hand if points[c] < 2] and len(kept.values) == 1
    first.append(99)
    assert low(None, hand) == [c for c in hand if points[c] < 2]  # (the kept one, unchanged)
    assert low(None, tuple(hand)) == low(None, hand)  # (a tuple of the same cards: its own key)


def test_a_kept_value_is_the_functions_own_and_never_one_that_changes_in_play(
        tmp_path: Path) -> None:
    """A function whose value is its argument keeps a copy, not the caller's list (a zone's,
    which goes on changing); one that reads which way up a card lies is never kept (that
    changes in play); a function of a list that may give none gives none."""
    path = mini_with_functions(
        tmp_path,
        "  - name: same_list\n    params: {h: cards}\n"
        "    value: \"if any(c.points > 0 for c in h) then h else []\"\n"
        "  - name: ups\n    params: {h: cards}\n"
        "    value: \"select(c for c in h if c.face_up)\"\n"
        "  - name: pair\n    params: {h: cards}\n"
        "    value: \"first(g for g in combinations(h, 2) if same_rank(g))\"\n",
        "card in same_list(hand[me]) or card in ups(hand[me]) "
        "or pair(hand[me]) != none")
    rules = load_ruleset(path)
    namespace = rules.setup.__globals__  # type: ignore[union-attr]
    assert "M_same_list" in namespace and "M_pair" in namespace and "M_ups" not in namespace
    hand = [0, 1, 2]  # (an ace among them: the list itself is the value)
    same_list = namespace["f_same_list"]
    assert same_list(None, hand) == [0, 1, 2]
    hand.append(3)  # the caller's list changes (a zone's would as the game goes on)
    assert same_list(None, [0, 1, 2]) == [0, 1, 2]  # what was kept is what was worked out
    rank = rules.cards.rank
    no_pair = [c for c in range(len(rank)) if rank[c] != rank[0]][:1] + [0]
    game = GameState()  # (combinations counts its work against the game's action)
    assert namespace["f_pair"](game, no_pair) is None
    assert namespace["f_pair"](game, no_pair) is None  # (asked again: none again, no error)
    # a tuple and a list of the same cards are two arguments: what is handed back is of the
    # kind given, as a fresh call's would be (`in` tells them apart)
    assert type(same_list(None, (0, 1))) is tuple and type(same_list(None, [0, 1])) is list
    assert type(same_list(None, (0, 1))) is tuple


def test_a_kept_list_holding_none_first_is_still_the_functions_own(tmp_path: Path) -> None:
    """A list whose first item is none and whose next is the caller's list: what is kept is
    a copy all the way down, so the caller's list changing later changes nothing kept."""
    path = mini_with_functions(
        tmp_path,
        "  - name: both\n    params: {h: cards}\n"
        "    value: \"[first(g for g in combinations(h, 2) if same_rank(g)), h]\"\n",
        "size(both(hand[me])) > 1")
    rules = load_ruleset(path)
    namespace = rules.setup.__globals__  # type: ignore[union-attr]
    assert "M_both" in namespace
    rank = rules.cards.rank
    hand = [0] + [c for c in range(len(rank)) if rank[c] != rank[0]][:1]
    both = namespace["f_both"]
    assert both(GameState(), hand) == [None, hand]
    first = list(hand)
    hand.append(hand[0] + 1)
    assert both(None, first) == [None, first]


def test_a_call_in_a_loop_is_unfolded_where_it_cannot_fail_and_its_fixed_part_worked_out_once(
        tmp_path: Path) -> None:
    """`hand[me] where short(card, me)`: the function's value is written in the loop, and
    what it asks of the hand alone (the same for every card) is worked out once, where the
    loop first needs it (a card of 2 points or more), and kept. A function that may fail (a
    division) stays a call, so its faults keep their place; so does one whose argument's name
    its own loop binds (it would be captured)."""
    path = mini_with_functions(
        tmp_path,
        "  - name: short\n    params: {card: card, p: player}\n"
        "    value: \"card.points < 2 or all(c.points > 1 for c in hand[p])\"\n"
        "  - name: share\n    params: {card: card, p: player}\n"
        "    value: \"card.points / size(hand[p]) > 0\"\n"
        "  - name: other\n    params: {x: card}\n"
        "    value: \"any(c.points > x.points for c in stock)\"\n",
        "short(card, me) and share(card, me) and "
        "all(other(c) for c in discard)")
    source = load_ruleset(path).python
    listing = source[source.index("def legal_0_drop"):]
    listing = listing[:listing.index("\n\n")]
    before, loop = listing.split("out = [")
    assert "f_short" not in listing and "all(" not in before  # unfolded; its fixed part:
    [kept] = re.findall(r"(_t\d+)\[0\] if _t\d+ else kept\(_t\d+, all\(\(T_points", loop)
    assert f"{kept} = []" in before  # kept where first needed
    assert "f_share(S, v_card, me)" in loop  # may fail: called
    assert "f_other(S, v_c)" in listing  # `c` is the function's own loop variable: called


def test_a_fixed_part_that_may_fail_is_worked_out_where_first_needed_and_kept(
        tmp_path: Path) -> None:
    """`hand[me] where card.points < mean()`: mean() is the same for every card but may fail
    (a division by the size of an empty pile), so it is worked out where the loop first
    needs it, once, and kept: where no card gets that far it is never worked out (no fault),
    where one does it fails with its own message, in its own place. What draws a card at
    random is never kept: each card draws afresh."""
    functions = ("  - name: mean\n    params: {}\n"
                 "    value: \"sum(c.points for c in discard) / size(discard)\"\n"
                 "  - name: pick\n    params: {}\n    value: \"random_card(stock)\"\n")
    path = mini_with_functions(tmp_path, functions, "card.points > 5 and card.points < mean()")
    source = load_ruleset(path).python
    listing = source[source.index("def legal_0_drop"):]
    listing = listing[:listing.index("\n\n")]
    assert listing.count("f_mean(S)") == 1 and "kept(" in listing
    engine = Engine(load_ruleset(path))
    state = engine.new_game(2, 1)
    assert engine.play(state, ("take",)) == [("keep",)]  # no card has 5 points: never asked
    path = mini_with_functions(tmp_path, functions, "card.points < mean()")
    engine = Engine(load_ruleset(path))
    state = engine.new_game(2, 1)
    with pytest.raises(RuleRuntimeError) as fault:
        engine.play(state, ("take",))
    assert "division by zero" in str(fault.value) and "mini.yaml:" in str(fault.value)
    state = engine.new_game(2, 1)
    discard = engine.rules.zone("discard").index
    card = state.zones[engine.rules.home_zone].pop()  # one card in the discard pile
    state.zones[discard].append(card)
    state.where[card] = discard
    points = engine.rules.cards.values["points"]
    legal = engine.play(state, ("take",))
    hand = state.zones[engine.rules.zone("hand").index + state.current]
    assert sorted(legal) == sorted([("drop", c) for c in hand if points[c] < points[card]]
                                   + [("keep",)])
    path = mini_with_functions(tmp_path, functions,
                               "card.rank == pick().rank or card.suit == random_card(stock).suit")
    source = load_ruleset(path).python
    listing = source[source.index("def legal_0_drop"):]
    listing = listing[:listing.index("\n\n")]
    assert "kept(" not in listing and "for v_card in" in listing.split("f_pick(S)")[0]


def test_a_piece_worked_out_once_may_read_a_grid_anywhere_in_its_loop(tmp_path: Path) -> None:
    """A piece read in an inner loop's source, or worked out before the loop, is written
    without `:=` (which Python refuses there): each of these rule texts compiles and lists."""
    path = mini_with(tmp_path, "zones:\n", "functions:\n  - name: firsts\n"
                     "    params: {h: cards}\n    value: \"h[0:1]\"\nzones:\n"
                     "  - {name: board, owner: each, visibility: public, layout: grid, rows: 1,"
                     " columns: 2}\n")
    text = path.read_text(encoding="utf-8").replace(
        "    - deal 2 from stock to each hand\n",
        "    - deal 2 from stock to each hand\n    - deal 1 from stock to each board\n")
    for where in ("any(y.rank == card.rank for y in firsts(board[me]))",
                  "count(size(board[me]) > 0 for x in hand[me]) > 0 and "
                  "card.rank == top(board[me]).rank",
                  "count(any(y.rank == x.rank for y in cards(board[me])[0:1]) "
                  "for x in hand[me]) >= 0 and card.rank == top(board[me]).rank"):
        path.write_text(text.replace("hand[me] where card.rank != 'K'", f"hand[me] where {where}"),
                        encoding="utf-8")
        rules = load_ruleset(path)
        engine = Engine(rules)
        state = engine.new_game(2, 1)
        legal = engine.play(state, ("take",))
        me, rank = state.current, rules.cards.rank
        board = state.zones[rules.zone("board").index + me]
        hand = state.zones[rules.zone("hand").index + me]
        assert sorted(legal) == sorted([("drop", c) for c in hand if rank[c] == rank[board[0]]]
                                       + [("keep",)]), where


def test_a_call_made_twice_with_the_same_arguments_in_one_value_is_made_once(
        tmp_path: Path) -> None:
    """`share(p) - 1 if share(p) > 1 else share(p)`: one call, kept, in the function's body
    and in a scoring's entries; not a call whose argument is a loop's item (each item its
    own), nor one that draws a card at random (each a draw of its own). The value, and a
    fault's message, are the same."""
    functions = ("  - name: share\n    params: {p: player}\n"
                 "    value: \"sum(c.points for c in hand[p]) / size(discard)\"\n"
                 "  - name: twice\n    params: {p: player}\n"
                 "    value: \"if share(p) > 1 then share(p) - 1 else share(p) + "
                 "sum(share(q) for q in players)\"\n"
                 "  - name: pick\n    params: {}\n    value: \"random_card(stock)\"\n"
                 "  - name: two\n    params: {}\n    value: \"pick() == pick()\"\n")
    path = mini_with_functions(tmp_path, functions, "card.rank != 'K'")
    text = path.read_text(encoding="utf-8").replace(
        '      score: "sum(c.points for c in hand[p])"',
        '      score: "twice(p) + twice(p)"')
    path.write_text(text, encoding="utf-8")
    source = load_ruleset(path).python
    def kept_once(function: str, call: str) -> bool:  # every place of it reads one keep
        body = source[source.index(f"def {function}("):]
        body = body[:body.index("\n\n")]
        keeps = set(re.findall(r"kept\((_t\d+), " + re.escape(call), body))
        return len(keeps) == 1 and body.count(call) == body.count(f"kept({keeps.pop()}, {call}")
    assert kept_once("f_twice", "f_share(S, v_p)") and kept_once("score", "f_twice(S, v_p)")
    assert "sum([f_share(S, v_q) for v_q in" in source  # (each item its own call)
    two = source[source.index("def f_two"):]
    assert two[:two.index("\n\n")].count("f_pick(S)") == 2
    engine = Engine(load_ruleset(path))
    state = engine.new_game(2, 1)
    discard = engine.rules.zone("discard").index
    card = state.zones[engine.rules.home_zone].pop()
    state.zones[discard].append(card)
    state.where[card] = discard
    namespace = engine.rules.setup.__globals__  # type: ignore[union-attr]
    points = engine.rules.cards.values["points"]

    def share(p: int) -> int:
        return sum(points[c] for c in state.zones[engine.rules.zone("hand").index + p])

    def twice(p: int) -> int:
        return share(p) - 1 if share(p) > 1 else share(p) + share(0) + share(1)
    assert [namespace["score"](state, p) for p in range(2)] == \
        [(2 * twice(p),) for p in range(2)]
    state.zones[discard].clear()  # a division by an empty pile's size: its own message
    with pytest.raises(RuleRuntimeError) as fault:
        engine.flow.call(namespace["score"], state, 0)
    assert "division by zero" in str(fault.value) and "mini.yaml:" in str(fault.value)
    # a fault in a shared call's arguments is the place's that runs first, as it was
    entry = 'score: "same(10 / size(discard)) + same(10 / size(discard))"'
    path.write_text(text.replace('score: "twice(p) + twice(p)"', entry).replace(
        "functions:\n", "functions:\n  - name: same\n    params: {x: number}\n    value: x\n"),
        encoding="utf-8")
    engine = Engine(load_ruleset(path))
    state = engine.new_game(2, 1)
    lines = path.read_text(encoding="utf-8").splitlines()
    row = next(i for i, line in enumerate(lines, 1) if entry in line)
    column = lines[row - 1].index("10 /") + 1
    with pytest.raises(RuleRuntimeError) as fault:
        engine.flow.call(engine.rules.score, state, 0)
    assert f"mini.yaml:{row}:{column}:" in str(fault.value), str(fault.value)


def test_a_label_placeholder_that_names_an_option_shows_its_value(tmp_path: Path) -> None:
    """`{mode}` in a label, where the move chooses no `mode` but the rules have that option,
    shows the option's value; a name that is neither stays an error."""
    path = mini_with(tmp_path, "label: Take the top card of the stock\n",
                     "label: \"Take the top card ({mode} mode)\"\n")
    engine = Engine(load_ruleset(path))
    state = engine.new_game(2, 1)
    assert engine.words.describe(("take",), state, 0) == "Take the top card (fast mode)"
    engine = Engine(load_ruleset(path, {"mode": "slow"}))
    assert engine.words.describe(("take",), engine.new_game(2, 1), 0) == \
        "Take the top card (slow mode)"
    path = mini_with(tmp_path, "label: Take the top card of the stock\n",
                     "label: \"Take the top card ({speed} mode)\"\n")
    [d] = check_files([str(path)])
    assert d.message == "the label names '{speed}', but the move chooses nothing", d.format()


def test_what_a_function_keeps_is_bounded_by_its_items() -> None:
    """However large its values, a function keeps at most REMEMBERED_ITEMS items (its
    arguments and its values' items), then starts afresh; a value larger than that is handed
    out and not kept."""
    from cardrules.interpreter import remembered

    kept = remembered.Remembered()
    big = [list(range(50)) for _ in range(40)]  # 2,041 items
    for n in range(300):
        assert remembered.remember(kept, (n,), 1, big, 2) == big
        assert kept.items <= remembered.REMEMBERED_ITEMS
    assert 0 < len(kept.values) < 300
    huge = list(range(remembered.REMEMBERED_ITEMS + 1))
    assert remembered.remember(kept, ("huge",), 1, huge, 1) == huge and \
        ("huge",) not in kept.values


_TESTS = ["all(size(hand[p]) > 1 for p in players)",
          "any(c.points >= 2 for c in hand[me] if c.suit != 'clubs')",
          "not any(c.rank == 'K' for c in discard)",
          "drawn > 1 and all(c.points > 0 for c in hand[me])",
          "not all(size(hand[q]) == size(hand[me]) for q in players)"]


def test_a_test_of_all_or_any_written_as_a_loop_agrees_with_the_value(tmp_path: Path) -> None:
    """An `if` or a trigger's `when` that is an `all` or an `any` (or `not` one, or one after
    `and`) is written as a loop that leaves at the item that decides: after every action of
    random games, on the engine and on the kernel, each test's branch taken, and which of a
    trigger and its opposite ran, agree with the test's value worked out as an expression."""
    count = len(_TESTS)
    variables = "".join(f"  - {{name: {kind}{i}, scope: round, initial: false}}\n"
                        for i in range(count) for kind in "est")
    do = "".join(f"      - set e{i} = {test}\n"
                 f"      - if: \"{test}\"\n        then: [set s{i} = true]\n"
                 f"        else: [set s{i} = false]\n" for i, test in enumerate(_TESTS))
    triggers = "".join(f"  - {{name: yes{i}, after: move, when: \"{test}\", "
                       f"do: [set t{i} = true]}}\n"
                       f"  - {{name: no{i}, after: move, when: \"not ({test})\", "
                       f"do: [set t{i} = false]}}\n" for i, test in enumerate(_TESTS))
    path = mini_with(tmp_path, "triggers:\n", "triggers:\n  - name: values\n    after: move\n"
                     "    do:\n" + do + triggers)
    text = path.read_text(encoding="utf-8").replace(
        "    initial: 0\n", "    initial: 0\n" + variables, 1)
    path.write_text(text, encoding="utf-8")
    rules = load_ruleset(path)
    after_move = rules.python[rules.python.index("def after_move"):]
    assert after_move.count("break\n    else:") >= count  # loops, each with a branch after it
    for engine in (Engine(rules), Kernel(rules)):
        for seed in range(40):
            state = engine.new_game(2 + seed % 3, seed)
            legal = engine.legal_actions(state)
            rng = random.Random(seed)
            while legal:
                legal = engine.play(state, rng.choice(legal))
                values = state.vars
                assert all(values[f"e{i}"] == values[f"s{i}"] == values[f"t{i}"]
                           for i in range(count)), (seed, values)


def test_numbers_up_to_a_hands_size_weigh_as_the_hand_does(tmp_path: Path) -> None:
    """Two positions of a hand chosen (numbers(1, size(hand[me]))): as many numbers as the
    hand holds cards, each loop counted as a loop through the hand (not 10,000 numbers
    each, which the work bound refused)."""
    path = mini_with(tmp_path, "choose: {card: \"hand[me] where card.rank != 'K'\"}",
                     "choose: {i: \"numbers(1, size(hand[me]))\", "
                     "j: \"numbers(1, size(hand[me]))\"}")
    text = path.read_text(encoding="utf-8").replace('label: "Drop {card}"', "label: Drop")
    text = text.replace("do: [move card to discard face up]",
                        "do: [\"move cards(hand[me])[i - 1] to discard face up\"]")
    path.write_text(text, encoding="utf-8")
    assert check_files([str(path)]) == []


def test_a_function_that_calls_itself_is_refused_where_it_does(tmp_path: Path) -> None:
    """A function calls only those declared above it: one calling itself is refused at the
    call, not left to make every rule that calls it vanish from a file said to be valid."""
    path = mini_with_functions(tmp_path, '  - {name: deep, params: {n: number}, value: '
                                         '"if n <= 0 then 7 else deep(n - 1)"}\n',
                               "deep(3) == 7")
    [d] = check_files([str(path)])
    assert d.message == ("'deep' is the function being written: a function calls only those "
                         "declared above it, so that none calls itself")
    assert d.location is not None and d.source_line is not None and \
        d.source_line[d.location.column - 1:].startswith("deep(n - 1)")


def test_inside_its_own_value_a_function_named_as_a_built_in_calls_the_built_in(
        tmp_path: Path) -> None:
    """`size` declared by the file wins over the built-in everywhere after it (a hint says
    so); inside its own value, where it is not yet declared, `size(...)` is the built-in: a
    wrapper of it."""
    for most, listed in ((100, True), (200, False)):
        path = mini_with_functions(tmp_path, '  - {name: size, params: {z: cards}, '
                                             'value: "size(z) + 100"}\n',
                                   f"size(hand[me]) > {most}")
        assert check_files([str(path)]) == []  # (and a hint)
        engine = Engine(load_ruleset(path))
        state = engine.new_game(2, seed=1)
        engine.apply(state, ("take",))  # a hand of cards: its size + 100 > 100, not 200
        assert any(a[0] == "drop" for a in engine.legal_actions(state)) == listed


def test_the_generated_sources_kept_for_tracebacks_are_the_compiled_rulesets(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A server compiles a ruleset for each set of options it is asked for: the source of
    each (kept in linecache, so that a traceback shows its lines) goes when the ruleset is no
    longer kept, its kernel's with it, so memory stays bounded however many are asked for."""
    from cardrules.dsl import loader

    monkeypatch.setattr(loader, "_KEEP", 3)
    made = []
    for rounds in range(1, 9):
        rules = load_ruleset("spades", {"target": str(100 * rounds)})
        rules.kernel()  # type: ignore[misc]
        made.append(rules)
    kept = [r for r in made if any(r is other for other in loader._COMPILED.values())]
    assert kept == made[-3:]

    def names(rules: Any) -> set[str]:
        return {rules.code_name, rules.kernel().code_name}

    shown = set().union(*map(names, kept))  # (rulesets of the same code share its name)
    assert all((name in linecache.cache) == (name in shown)
               for rules in made for name in names(rules))
    assert len(set().union(*map(names, made))) > len(shown)  # some were dropped
    assert linecache.getlines(kept[-1].code_name)
    # a kernel first asked for once its ruleset is no longer kept (a game still playing it)
    late = load_ruleset("spades", {"target": "150"})
    for rounds in range(9, 13):
        load_ruleset("spades", {"target": str(100 * rounds)})
    assert not any(late is other for other in loader._COMPILED.values())
    assert late.kernel().code_name not in linecache.cache  # type: ignore[misc]
