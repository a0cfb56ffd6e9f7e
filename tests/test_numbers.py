"""Numbers a game holds stay within 2^53 - 1 either side of 0 (what a browser shows exactly):
a value stored, scored or multiplied beyond it is a located rule fault, never a traceback."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardrules.cli.main import main
from cardrules.dsl.loader import load_ruleset
from cardrules.errors import RuleRuntimeError, RulesetError
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.runtime import MOST_VALUE
from cardrules.interpreter.sessions.play import play_game

KUHN = Path(__file__).resolve().parent.parent / "rulesets" / "kuhn-poker.yaml"
SCORE = 'score: "if takes_pot(p) then pot() - p.stake else 0 - p.stake"'


def kuhn(tmp_path: Path, score: str, setup: str = "") -> Path:
    text = KUHN.read_text(encoding="utf-8")
    assert SCORE in text
    text = text.replace(SCORE, f'score: "{score}"')
    if setup:
        text = text.replace("    - shuffle stock\n", f"    - shuffle stock\n    - {setup}\n", 1)
    path = tmp_path / "kuhn.yaml"
    path.write_text(text, encoding="utf-8")
    return path


HUGE = "if takes_pot(p) then (pot() + 1) * 1000000000 * 1000000000 else 0"


@pytest.mark.parametrize("expression", ["1000000000 * 1000000000", "9007199254740991 + 1",
                                        "0 - 9007199254740991 - 1"])
def test_numbers_known_before_any_game_that_pass_the_bound_are_refused_where_written(
        tmp_path: Path, expression: str) -> None:
    """Folded before any game, such a number would be one no game may hold (and one a
    product of a few hundred literals makes too long for Python to write out)."""
    path = kuhn(tmp_path, f"if takes_pot(p) then {expression} else 0")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and "2^53 - 1" in result.output
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1)
                if expression in text)
    assert f"{path}:{line}:" in result.output


def test_a_product_of_hundreds_of_literals_is_refused_not_a_traceback(tmp_path: Path) -> None:
    literal = "999999999999999999"
    tree = literal
    for _ in range(8):  # 256 literals, nested 8 deep
        tree = f"({tree} * {tree})"
    result = CliRunner().invoke(main, ["validate", str(kuhn(tmp_path, tree))])
    assert result.exit_code == 1 and "2^53 - 1" in result.output, result.output


def test_a_product_beyond_the_bound_is_a_located_fault(tmp_path: Path) -> None:
    engine = Engine(load_ruleset(kuhn(tmp_path, HUGE)))
    with pytest.raises(RuleRuntimeError) as info:
        play_game(engine, 2, seed=1)
    assert "2^53 - 1" in str(info.value) and "kuhn.yaml:" in str(info.value)


def test_a_variable_squared_in_a_loop_stops_at_the_bound(tmp_path: Path) -> None:
    loop = "{while: 'true', limit: 40, do: ['set checks = checks * checks + 2']}"
    path = kuhn(tmp_path, "0", loop)
    engine = Engine(load_ruleset(path))
    with pytest.raises(RuleRuntimeError, match="2\\^53 - 1"):
        play_game(engine, 2, seed=1)


def test_the_bound_itself_is_held(tmp_path: Path) -> None:
    engine = Engine(load_ruleset(kuhn(tmp_path, str(MOST_VALUE))))
    state = play_game(engine, 2, seed=1)
    assert state.totals == [MOST_VALUE, MOST_VALUE]


@pytest.mark.parametrize("args", [["run"], ["run", "--json"], ["simulate", "-n", "2"]])
def test_the_commands_say_where_and_exit_non_zero(tmp_path: Path, args: list[str]) -> None:
    path = kuhn(tmp_path, HUGE)
    result = CliRunner().invoke(main, [args[0], str(path), *args[1:]])
    assert result.exit_code not in (0, None), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output and "2^53 - 1" in result.output
    assert f"{path}:" in result.output


def test_the_web_payload_of_a_total_at_the_bound_is_plain_json(tmp_path: Path) -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed")
    from cardrules.web.game import Game
    from cardrules.web.payload import seat_payload

    game = Game.new(str(kuhn(tmp_path, f"0 - {MOST_VALUE}")), {}, 2, 1, ["human", "random"])
    text = json.dumps(seat_payload(game, 0))
    assert text


def test_a_sum_kept_by_a_place_worked_out_is_read_and_written_at_one_place(
        tmp_path: Path) -> None:
    """`set last.stake += me.stake`, `last` a seat that may be none: the seat is worked out
    once (checked to be a seat once), and the sum is bounded there."""
    path = kuhn(tmp_path, "0 - p.stake")
    text = path.read_text(encoding="utf-8").replace(
        "do: [set me.stake += 1, set bet_made = true]",
        "do: [set me.stake += 1, set bet_made = true, set last.stake += me.stake]", 1).replace(
        "                - set checks += 1\n", "                - set checks += 1\n"
        "                - set last = me\n", 1).replace(
        "variables:\n", "variables:\n  - {name: last, scope: round, initial: none, "
        "type: player}\n", 1)
    path.write_text(text, encoding="utf-8")
    rules = load_ruleset(path)
    move = rules.python[rules.python.index("def m_bet"):]
    move = move[:move.index("\n\n")]
    assert move.count("need(") == 1 and "bounded(" in move, move
    engine = Engine(rules)
    state = engine.new_game(2, 1)
    first = state.current
    engine.apply(state, ("check",))
    engine.apply(state, ("bet",))
    stakes = [1, 1]
    stakes[1 - first] = 2
    stakes[first] = 1 + 2
    assert state.pvars["stake"] == stakes


def test_numbers_kept_in_a_list_are_bounded_too(tmp_path: Path) -> None:
    """A list of numbers stored each turn, its number doubled: a fault at the bound, as for
    a number stored alone (the list would otherwise hold any number)."""
    loop = "{while: 'true', limit: 80, do: ['set piles = [piles[0] + piles[0] + 1, 0]']}"
    path = kuhn(tmp_path, "0", loop)
    text = path.read_text(encoding="utf-8").replace(
        "variables:\n", "variables:\n  - {name: piles, scope: round, initial: \"[1, 0]\"}\n", 1)
    path.write_text(text, encoding="utf-8")
    engine = Engine(load_ruleset(path))
    with pytest.raises(RuleRuntimeError, match="2\\^53 - 1"):
        play_game(engine, 2, seed=1)


def test_a_rounds_entries_adding_up_beyond_the_bound_fault_at_the_scoring(
        tmp_path: Path) -> None:
    """Two score entries each at the bound: their sum, the round's score, is refused where
    the scoring is written (file, line and column), not at the file alone."""
    path = kuhn(tmp_path, str(MOST_VALUE))
    text = path.read_text(encoding="utf-8")
    entry = f'      score: "{MOST_VALUE}"\n'
    assert text.count(entry) == 1
    text = text.replace(entry, entry + f'    - name: again\n      score: "{MOST_VALUE}"\n')
    path.write_text(text, encoding="utf-8")
    engine = Engine(load_ruleset(path))
    with pytest.raises(RuleRuntimeError) as info:
        play_game(engine, 2, seed=1)
    assert "2^53 - 1" in str(info.value)
    assert re.search(r"kuhn\.yaml:\d+:\d+", str(info.value)), str(info.value)


@pytest.mark.parametrize("statement", ["set checks = 999999999999999999",
                                       "set checks += 999999999999999999"])
def test_a_constant_beyond_the_bound_is_refused_where_it_is_stored(
        tmp_path: Path, statement: str) -> None:
    engine = Engine(load_ruleset(kuhn(tmp_path, "0", statement)))
    with pytest.raises(RuleRuntimeError, match="2\\^53 - 1"):
        play_game(engine, 2, seed=1)


def test_a_product_of_constants_beyond_the_bound_is_refused_before_any_game(
        tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match="2\\^53 - 1"):
        load_ruleset(kuhn(tmp_path, "0", "set checks = 999999999 * 999999999"))


def test_a_variable_starting_beyond_the_bound_is_refused_at_the_start(tmp_path: Path) -> None:
    """`initial: 999999999999999999`: the game's start is a fault at the variable's initial
    value, as a `set` of it would be."""
    path = kuhn(tmp_path, "0")
    text = path.read_text(encoding="utf-8").replace(
        "variables:\n", "variables:\n  - {name: huge, scope: game, initial: "
        "\"999999999999999999\"}\n", 1)
    path.write_text(text, encoding="utf-8")
    engine = Engine(load_ruleset(path))
    with pytest.raises(RuleRuntimeError, match="2\\^53 - 1"):
        engine.new_game(2, 1)
