"""Each stage of the compiler on its own (docs/language-design.md, the stages): the parser on
a piece of rule text, the reader, the checker, the load-time folding and the generator, each
given the previous stage's output directly rather than reached through the loader, and each
compared with a reviewed expected output (tests/stages/, rewritten by tests/make_stages.py).

And one name per construct: a construct of the rule text keeps its grammar rule's stem as a
syntax node, in the checker and, where it is not lowered into another, in the checked
program and the generator; the design record's glossary names every lowering.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cardrules.cli.main import main as cli
from cardrules.dsl import ir
from cardrules.dsl import nodes as n
from cardrules.dsl.check_expr import ExpressionChecker
from cardrules.dsl.check_stmt import StatementChecker
from cardrules.dsl.checker import check
from cardrules.dsl.codegen import Generator
from cardrules.dsl.codegen_flow import flow_facts
from cardrules.dsl.compiler import generate
from cardrules.dsl.dump import dump
from cardrules.dsl.fold import Env, NotStatic, value_at_load
from cardrules.dsl.listing import listing
from cardrules.dsl.loader import STAGES, load_document, stage_text
from cardrules.dsl.names import rule_name
from cardrules.dsl.parser import grammar_text, parse
from cardrules.dsl.reader import read
from cardrules.dsl.symbols import Symbols

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "stages" / "constructs.yaml"
DESIGN = HERE.parent / "docs" / "language-design.md"
SUFFIX = {"nodes": "nodes.txt", "ir": "ir.txt", "python": "py.txt"}


def expected_path(stage: str) -> Path:
    return FIXTURE.with_name(f"{FIXTURE.stem}.{SUFFIX[stage]}")


def outputs(path: Path) -> dict[str, str]:
    """Each stage run on the previous one's output: read, then check, then generate."""
    decls, problems = read(load_document(path))
    assert not problems, problems
    checked, found = check(decls)
    assert checked is not None and not found, found
    generated = generate(checked, flow_facts(checked.program, checked.direction))
    return {"nodes": dump(decls), "ir": dump(checked.program), "python": listing(generated)}


@pytest.fixture(scope="module")
def made() -> dict[str, str]:
    return outputs(FIXTURE)


@pytest.mark.parametrize("stage", list(SUFFIX))
def test_each_stage_gives_its_reviewed_output(made: dict[str, str], stage: str) -> None:
    expected = expected_path(stage).read_text(encoding="utf-8")
    assert made[stage] == expected, (
        f"the {stage} stage's output of {FIXTURE.name} changed: if on purpose, run "
        f"`python tests/make_stages.py` and review the diff")


def test_show_prints_each_stage(made: dict[str, str]) -> None:
    runner = CliRunner()
    for stage in STAGES:
        result = runner.invoke(cli, ["show", str(FIXTURE), "--stage", stage])
        assert result.exit_code == 0, result.output
        assert result.output == stage_text(FIXTURE, stage)
        if stage in made:
            assert result.output == made[stage]
    short = runner.invoke(cli, ["show", str(FIXTURE), "--python"])
    assert short.output == made["python"]
    yaml_text = runner.invoke(cli, ["show", str(FIXTURE)]).output
    assert yaml_text.startswith("cardrules: 1\n") and "name: constructs" in yaml_text


def test_show_of_a_broken_file_stops_at_its_stage(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text(FIXTURE.read_text(encoding="utf-8").replace(
        "set passes = 0", "set passes = 'zero'"), encoding="utf-8")
    runner = CliRunner()
    read_ok = runner.invoke(cli, ["show", str(broken), "--stage", "nodes"])
    assert read_ok.exit_code == 0  # reading does not know the types
    checked = runner.invoke(cli, ["show", str(broken), "--stage", "ir"])
    assert checked.exit_code != 0
    assert re.search(r"broken\.yaml:\d+:\d+: ", checked.output)
    assert "Traceback" not in checked.output


# ------------------------------------------------------------------ the parser on rule text
def _parsed(text: str) -> str:
    return dump(parse(text, "expression", n.Origin(None, ())))  # type: ignore[arg-type]


PARSED = [
    ("-x[0]", "Minus()\n  operand: Index()\n    subject: Name(name='x')\n"
              "    key: Number(value=0)\n"),
    ("a or b and not c",
     "Disjunction()\n  left: Name(name='a')\n  right: Conjunction()\n"
     "    left: Name(name='b')\n    right: Negation()\n      operand: Name(name='c')\n"),
    ("x not in [1, 2]",
     "Membership(negated=True)\n  item: Name(name='x')\n  collection: ListLiteral()\n"
     "    items: [\n      Number(value=1)\n      Number(value=2)\n    ]\n"),
    ("1 + 2 * 3",
     "Arithmetic(op='+')\n  left: Number(value=1)\n  right: Arithmetic(op='*')\n"
     "    left: Number(value=2)\n    right: Number(value=3)\n"),
    ("if a then 1 else 2",
     "Conditional()\n  test: Name(name='a')\n  then: Number(value=1)\n"
     "  otherwise: Number(value=2)\n"),
]


@pytest.mark.parametrize(("text", "expected"), PARSED)
def test_the_parser_builds_the_syntax_tree(text: str, expected: str) -> None:
    assert _parsed(text) == expected


# ------------------------------------------------------------------ folding at load time
FOLDED: list[tuple[str, dict[str, Any], Any]] = [
    ("1 + 2 * 3", {}, 7),
    ("-7 / 2", {}, -4),  # `/` rounds down
    ("if player_count > 4 then 2 else 1", {"player_count": 5}, 2),
    ("player_count in [2, 3] and not player_count == 3", {"player_count": 2}, True),
    ("size(players)", {"player_count": 3}, NotStatic),
]


@pytest.mark.parametrize(("text", "env", "expected"), FOLDED)
def test_folding_computes_what_is_known_before_any_game(
        text: str, env: dict[str, Any], expected: Any) -> None:
    diagnostics: list[Any] = []
    code = ExpressionChecker(Symbols(), diagnostics).check(
        parse(text, "expression", n.Origin(None, ())))  # type: ignore[arg-type]
    assert not diagnostics, diagnostics
    if expected is NotStatic:
        with pytest.raises(NotStatic):
            value_at_load(code, Env(**env))
    else:
        assert value_at_load(code, Env(**env)) == expected


# ------------------------------------------------------------------ one name per construct
def _node_classes() -> list[type]:
    return [c for c in vars(n).values() if isinstance(c, type)
            and issubclass(c, (n.Expr, n.Stmt)) and c not in (n.Expr, n.Stmt)]


def _grammar_rules() -> set[str]:
    text = grammar_text()
    return set(re.findall(r"^\??([a-z_]+):", text, re.M)) | set(re.findall(r"-> ([a-z_]+)", text))


def _glossary() -> str:
    text = DESIGN.read_text(encoding="utf-8")
    found = re.search(r"^### [0-9.]* ?Glossary[^\n]*\n(.*?)(?=^#)", text, re.M | re.S)
    assert found, "docs/language-design.md has no glossary (### Glossary)"
    return found.group(1)


def test_each_construct_keeps_one_name_through_the_stages() -> None:
    rules, glossary = _grammar_rules(), _glossary()
    checkers = {name for cls in (ExpressionChecker, StatementChecker) for name in dir(cls)}
    emitters = {name for name in dir(Generator) if name.startswith(("expr_", "stmt_"))}
    ir_classes = {c.__name__ for c in vars(ir).values() if isinstance(c, type)
                  and issubclass(c, (ir.Expr, ir.Stmt)) and c not in (ir.Expr, ir.Stmt)}
    for cls in _node_classes():
        stem = rule_name(cls)
        if cls not in (n.Boolean, n.If, n.For, n.While, n.Until):  # words, or YAML keys
            assert stem in rules, f"node {cls.__name__} has no grammar rule {stem}"
        assert f"check_{stem}" in checkers, f"node {cls.__name__} has no check_{stem}"
        if cls.__name__ in ir_classes:
            kind = "expr" if issubclass(cls, n.Expr) else "stmt"
            assert f"{kind}_{cls.__name__}" in emitters, cls.__name__
        else:
            assert f"`{cls.__name__}`" in glossary, \
                f"{cls.__name__} is lowered into another node: the glossary must say which"
    for name in ir_classes - {c.__name__ for c in _node_classes()}:
        assert f"`ir.{name}`" in glossary, f"ir.{name} is in no glossary entry"
