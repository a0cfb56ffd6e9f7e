"""A listing's condition split on the locals worked out before its loop (dsl/unswitch.py):
for any condition of `and`s and `or`s over such locals and parts that read the item, the
split listing lists the same items, and runs the same parts on the same items in the same
order, as the condition written once."""

from __future__ import annotations

import ast
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cardrules.dsl.unswitch import unswitched

GUARDS = ("g0", "g1", "g2")


def tree(depth: int = 3) -> st.SearchStrategy[ast.expr]:
    """A condition: a local (g0..g2), a part that reads the item (p0..p3: each notes that it
    ran, then answers from a table), a constant, or an `and`/`or`/`not` of conditions."""
    leaf = st.one_of(
        st.sampled_from(GUARDS).map(lambda name: ast.Name(name, ast.Load())),
        st.integers(0, 3).map(lambda i: ast.Call(ast.Name(f"p{i}", ast.Load()),
                                                  [ast.Name("x", ast.Load())], [])),
        st.booleans().map(ast.Constant))
    if depth == 0:
        return leaf
    inner = tree(depth - 1)
    return st.one_of(
        leaf if depth < 3 else st.nothing(),
        st.tuples(st.sampled_from([ast.And(), ast.Or()]), st.lists(inner, min_size=2,
                                                                   max_size=3))
        .map(lambda t: ast.BoolOp(t[0], t[1])),
        inner.map(lambda e: ast.UnaryOp(ast.Not(), e)))


def run(statements: list[ast.stmt], guards: dict[str, Any], answers: list[list[bool]]
        ) -> tuple[list[int], list[tuple[int, int]]]:
    """The items listed and the parts run, (part, item) in order."""
    ran: list[tuple[int, int]] = []

    def part(i: int) -> Any:
        def answer(x: int) -> bool:
            ran.append((i, x))
            return answers[i][x]
        return answer

    module = ast.fix_missing_locations(ast.Module(statements, []))
    space: dict[str, Any] = {"out": [], "items": range(4), **guards,
                             **{f"p{i}": part(i) for i in range(4)}}
    exec(compile(module, "<listing>", "exec"), space)  # noqa: S102 - the test's own code
    return space["out"], ran


def listing(test: ast.expr | None) -> list[ast.stmt]:
    comp = ast.ListComp(ast.Name("x", ast.Load()), [ast.comprehension(
        ast.Name("x", ast.Store()), ast.Name("items", ast.Load()),
        [test] if test is not None else [], 0)])
    call = ast.Call(ast.Attribute(ast.Name("out", ast.Load()), "extend", ast.Load()), [comp], [])
    return [ast.Expr(call)]


@settings(max_examples=1000, deadline=None, database=None)
@given(test=tree(), guards=st.tuples(*[st.sampled_from([True, False, 0, 2, None, "a"])] * 3),
       answers=st.lists(st.lists(st.booleans(), min_size=4, max_size=4), min_size=4,
                        max_size=4))
def test_a_split_listing_lists_and_runs_as_the_condition_written_once(
        test: ast.expr, guards: tuple[Any, ...], answers: list[list[bool]]) -> None:
    values = dict(zip(GUARDS, guards))
    once = run(listing(test), values, answers)
    split = run(unswitched(test, frozenset(GUARDS), listing), values, answers)
    assert split == once, ast.unparse(test)


def test_spades_leading_or_following_is_asked_once() -> None:
    test = ast.parse("(leads and (a(x) or b)) or (follows and c(x))", mode="eval").body
    code = "\n".join(ast.unparse(s) for s in unswitched(test, frozenset({"leads", "follows"}),
                                                        listing))
    assert code.splitlines()[0] == "if leads:" and "elif follows:" in code
    assert "leads and" not in code and "follows and" not in code
