"""A rule that fails while a game runs is reported at its own rule text, in plain words.

One test per kind of fault the language has: each is a tiny ruleset whose only move fails in
one way, and the message must name the exact place (file:line:col of the failing part), the
move and seat, and say what went wrong without any Python in it. The same message reaches
people from `run`, `play`, `simulate` and `compare`.
"""

from __future__ import annotations

import functools
import re
import traceback
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardrules.cli.main import main
from cardrules.dsl.loader import load_ruleset
from cardrules.errors import RuleFault, RuleRuntimeError
from cardrules.interpreter import effects, runtime
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.kernel import Kernel
from cardrules.interpreter.players.bots import make_bot
from cardrules.interpreter.players.search import GreedyBot, IsmctsBot

BASE = """\
cardrules: 1
name: faults
deck: {{ranks: [A, "2"], suits: [clubs, hearts], zone: stock}}
zones:
  - {{name: stock, visibility: hidden}}
  - {{name: pile, visibility: public}}
  - {{name: hand, owner: each, visibility: owner}}
  - {{name: slot, owner: each, visibility: public, layout: grid, rows: 1, columns: 1}}
  - {{name: meld, owner: each, visibility: public, groups: 2}}
variables:
  - {{name: who, scope: round, initial: none, type: player}}
  - {{name: lost, scope: round, initial: none, type: card}}
  - {{name: count, scope: round, initial: none, type: number}}
  - {{name: zero, scope: round, initial: 0}}
round:
  setup:
    - shuffle stock
  phases:
    - name: play
      turns: rotate
      steps:
        - name: act
          moves:
            - name: go
              do:
                - {fault}
scoring:
  round:
    - {{name: nothing, score: "0"}}
"""

# statement, the part of it the caret must point at, and the message after the context
FAULTS = {
    "player is none": ("move top(hand[who]) to pile", "hand[who]",
                       "hand[who]: the player is none"),
    "card is none": ("move lost to pile", "move lost",
                     "move lost to pile: what is moved is none"),
    "winner is none": ("win who", "win who", "win who: the winner is none"),
    "index past the end": ("move cards(stock)[9] to pile", "cards(stock)[9]",
                           "cards(stock)[9]: index 9 is past the end of a 4-card list"),
    "index before the start": ("move cards(stock)[zero - 5] to pile", "cards(stock)[zero",
                               "index -5 is before the start of a 4-card list"),
    "a number that is none changed": ("set count -= 1", "set count",
                                      "set count -= 1: the number is none"),
    "division by zero": ("set zero = 7 / zero", "7 / zero", "7 / zero: 7 / 0: division by zero"),
    "modulo by zero": ("set zero = 7 % zero", "7 % zero", "7 % 0: division by zero"),
    "min of nothing": ("set zero = min(c.number for c in pile)", "min(",
                       "min(c.number for c in pile): min of no items"),
    "top of an empty zone": ("move top(pile) to stock", "move top(pile)",
                             "zone 'pile' is empty: it has no top card"),
    "random card of an empty zone": ("move random_card(pile) to stock", "move random_card",
                                     "zone 'pile' is empty: no card to pick at random"),
    "too many numbers": ("for: i in numbers(1, 20000)", "numbers(",
                         "numbers(1, 20000) would make 20000 numbers; the most is 10000"),
    "too many combinations": ("set zero = size(combinations(numbers(1, 30), 15))",
                              "combinations(",
                              "choosing 15 of 30 items gives 155117520 ways: more than 100,000 "
                              "are never listed"),
    "too many subsets": ("set zero = size(subsets(numbers(zero, 20)))", "subsets(",
                         "a list of 21 items has 2097152 subsets: more than 100,000 are never "
                         "listed"),
    "no such position": ("set zero = position(top(stock), cards(pile))", "position(",
                         "it is not in the list (0 items), so it has no position there"),
    "a full grid": ("deal 2 from stock to each slot", "deal 2",
                    "zone 'slot[1]' is full: all 1 places hold a card"),
    "no such group": ("move top(stock) to meld[me][5]", "meld[me][5]",
                      "meld[me][5]: group 5 does not exist: the groups are 0 to 1"),
}


def write(tmp_path: Path, statement: str) -> Path:
    if statement.startswith("for:"):
        statement = "{" + statement.replace("for: ", "for: '") + "', do: []}"
    path = tmp_path / "faults.yaml"
    path.write_text(BASE.format(fault=statement), encoding="utf-8")
    return path


def position(path: Path, statement: str, part: str) -> tuple[int, int]:
    """Line and column of `part` on the line that holds the statement."""
    text = statement.removeprefix("for: ")
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if text in line:
            return number, line.index(part) + 1
    raise AssertionError(f"{statement!r} not found")


def first_fault(path: Path) -> RuleRuntimeError:
    engine = Engine(load_ruleset(path))
    state = engine.new_game(2, seed=1)
    with pytest.raises(RuleRuntimeError) as info:
        engine.apply(state, ("go",))
    return info.value


@pytest.mark.parametrize("kind", FAULTS)
def test_each_fault_names_its_place_and_says_what_went_wrong(kind: str, tmp_path: Path) -> None:
    statement, part, message = FAULTS[kind]
    path = write(tmp_path, statement)
    fault = first_fault(path)
    d = fault.diagnostic
    assert d is not None and d.location is not None, str(fault)
    assert d.location.path == str(path)
    assert (d.location.line, d.location.column) == position(path, statement, part), d.format()
    assert d.message.startswith("in move 'go' (seat 1): "), d.message
    assert message in d.message, d.message
    assert not re.search(r"Error\(|Traceback|'NoneType'|list index", d.format())
    lines = d.format().splitlines()
    assert len(lines) == 3 and lines[2].strip() == "^"


def test_a_number_that_may_be_none_is_changed_once_it_holds_one(tmp_path: Path) -> None:
    """`set x -= 1` of a variable declared `initial: none` compiles (it once stopped the
    generator), and changes the number the variable holds."""
    path = write(tmp_path, "set count = 3\n                - set count -= 1")
    engine = Engine(load_ruleset(path))
    state = engine.new_game(2, seed=1)
    engine.apply(state, ("go",))
    assert state.vars["count"] == 2


def test_a_fault_leaves_no_python_in_the_message_from_the_command_line(tmp_path: Path) -> None:
    path = write(tmp_path, FAULTS["player is none"][0])
    result = CliRunner().invoke(main, ["run", str(path)], prog_name="cardrules")
    assert result.exit_code == 3
    line, column = position(path, FAULTS["player is none"][0], "hand[who]")
    first = result.stderr.splitlines()[0]
    assert first == (f"{path}:{line}:{column}: in move 'go' (seat 1): hand[who]: the player "
                     "is none"), result.stderr
    assert "Traceback" not in result.output


def test_simulate_and_compare_report_the_same_fault(tmp_path: Path) -> None:
    path = write(tmp_path, FAULTS["division by zero"][0])
    line, column = position(path, FAULTS["division by zero"][0], "7 / zero")
    for args in (["simulate", str(path), "--games", "2", "--workers", "1"],
                 ["compare", str(path), str(path), "--games", "2", "--workers", "1"]):
        result = CliRunner().invoke(main, args, prog_name="cardrules")
        assert result.exit_code == 3, result.output
        assert f"{path}:{line}:{column}: in move 'go' (seat" in result.stderr, result.stderr
        assert "division by zero" in result.stderr and "Traceback" not in result.output


def test_a_fault_in_the_setup_is_located_too(tmp_path: Path) -> None:
    path = tmp_path / "setup.yaml"
    path.write_text(BASE.format(fault="end turn").replace(
        "    - shuffle stock", "    - shuffle stock\n    - move top(pile) to stock"),
        encoding="utf-8")
    with pytest.raises(RuleRuntimeError) as info:
        Engine(load_ruleset(path)).new_game(2, seed=1)
    d = info.value.diagnostic
    assert d is not None and d.location is not None
    assert (d.location.line, d.message) == (
        18, "in the round's setup: move top(pile) to stock: zone 'pile' is empty: it has no "
            "top card")


LISTING = """\
cardrules: 1
name: listing
deck: {ranks: [A, "2"], suits: [clubs, hearts], zone: stock}
zones:
  - {name: stock, visibility: hidden}
variables:
  - {name: divisor, scope: round, initial: 1}
round:
  setup:
    - shuffle stock
  phases:
    - name: play
      turns: rotate
      steps:
        - name: ask
          moves:
            - name: go
              when: 7 / divisor > 0
              do:
                - set divisor = 1
        - name: answer
          moves:
            - name: zero
              do:
                - set divisor = 0
scoring:
  round:
    - {name: nothing, score: "0"}
"""


@pytest.mark.parametrize("make", [Engine, Kernel, functools.partial(Engine, compiled=False)],
                         ids=["engine", "kernel", "interpreted flow"])
def test_a_fault_listing_the_next_decision_names_that_step_and_seat(
        make: type[Engine], tmp_path: Path) -> None:
    """A move's code ends by listing the next decision: a rule that fails there is the
    listed step's, for the seat it was listed for, not the move's just made (seat 1 answers
    `zero`; the turn passes and listing seat 2's `ask` divides by zero), as the flow that
    lists apart from the move's code says it."""
    path = tmp_path / "listing.yaml"
    path.write_text(LISTING, encoding="utf-8")
    engine = make(load_ruleset(path))
    state = engine.new_game(2, seed=1)
    engine.apply(state, ("go",))
    with pytest.raises(RuleRuntimeError) as info:
        engine.apply(state, ("zero",))
    d = info.value.diagnostic
    assert d is not None and d.location is not None
    assert (d.location.line, d.location.column) == (18, 21), d.format()
    assert d.message == ("listing the moves of step 'ask' (seat 2): 7 / divisor: 7 / 0: "
                         "division by zero"), d.message


def test_a_bug_in_cardrules_points_at_the_rule_and_its_traceback_at_the_generated_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An error that is not a rule's fault is still located, and the Python traceback a
    developer sees names the generated line and shows its text."""
    path = write(tmp_path, "shuffle pile")
    rules = load_ruleset(path)

    def broken(*args: object) -> None:
        raise ValueError("a bug")

    engine = Engine(rules)
    state = engine.new_game(2, seed=1)
    monkeypatch.setitem(rules.moves["go"].run.__globals__, "shuffle", broken)
    with pytest.raises(RuleRuntimeError) as info:
        engine.apply(state, ("go",))
    d = info.value.diagnostic
    assert d is not None and d.location is not None
    assert (d.location.line, d.location.column) == position(path, "shuffle pile", "shuffle")
    assert "a bug in cardrules" in d.message and "ValueError: a bug" in d.message
    shown = "".join(traceback.format_exception(info.value.__cause__))
    assert rules.code_name in shown and "shuffle(B, S, 1)" in shown


def test_the_search_bots_let_a_broken_rule_through(tmp_path: Path) -> None:
    """A rule that fails is an error wherever it fails: inside a bot's samples too, never a
    silently bad score."""
    path = write(tmp_path, FAULTS["division by zero"][0])
    text = path.read_text(encoding="utf-8").replace(
        "            - name: go\n", "            - name: wait\n              do: []\n"
                                    "            - name: go\n")
    path.write_text(text, encoding="utf-8")
    engine = Engine(load_ruleset(path))
    for bot in (GreedyBot(1), IsmctsBot(1, iterations=20)):
        state = engine.new_game(2, seed=1)
        with pytest.raises(RuleRuntimeError, match="division by zero"):
            bot.choose(engine, state, engine.legal_actions(state))


def test_a_fault_carries_its_site_and_unlocated_faults_still_have_words() -> None:
    with pytest.raises(RuleFault) as info:
        runtime.need(None, "the card", 3)
    assert (info.value.site, info.value.message) == (3, "the card is none")


def test_random_bots_meet_the_fault_as_an_error_not_a_draw(tmp_path: Path) -> None:
    path = write(tmp_path, FAULTS["card is none"][0])
    engine = Engine(load_ruleset(path))
    state = engine.new_game(2, seed=1)
    bot = make_bot("random", 1, 0)
    with pytest.raises(RuleRuntimeError, match="what is moved is none"):
        engine.apply(state, bot.choose(engine, state, engine.legal_actions(state)))


def test_the_runtime_shuffles_exactly_as_python_does() -> None:
    """Games are replayed from their seed: the runtime's own shuffle must draw from the
    generator exactly as random.shuffle does."""
    import random

    for seed in range(200):
        for size in (0, 1, 2, 3, 7, 52, 54, 104, 300):
            a, b = list(range(size)), list(range(size))
            first, second = random.Random(seed), random.Random(seed)
            first.shuffle(a)
            effects.shuffled(second, b)
            assert a == b and first.getstate() == second.getstate()


@pytest.mark.parametrize(("domain", "message"), [
    ("words('UD', 1, size(stock) - 10)", "words('UD', 1, -6) holds no text"),
    ("words('', 1, 3)", "words('', 1, 3) holds no text"),
    ("words('UD', 1, 1000000)", "words(..., 1000000) would take texts of 1000000 letters; "
                                "the most is 1000"),
])
def test_an_open_domain_with_no_text_or_too_long_ones_is_a_fault(
        domain: str, message: str, tmp_path: Path) -> None:
    path = tmp_path / "faults.yaml"
    path.write_text(BASE.format(fault="move top(stock) to pile").replace(
        "            - name: go\n",
        "            - name: say\n"
        f"              choose: {{text: \"{domain}\"}}\n"
        "              do: []\n"
        "            - name: go\n"), encoding="utf-8")
    engine = Engine(load_ruleset(path))
    with pytest.raises(RuleRuntimeError) as info:
        engine.legal_actions(engine.new_game(2, seed=1))
    d = info.value.diagnostic
    assert d is not None and d.location is not None and message in d.message, str(info.value)
    assert d.location.column == path.read_text().splitlines()[d.location.line - 1] \
        .index("words(") + 1


def test_players_who_all_keep_missing_turns_are_a_fault_at_skip_turn(tmp_path: Path) -> None:
    path = tmp_path / "faults.yaml"
    path.write_text(BASE.format(fault="move top(stock) to pile").replace(
        "      turns: rotate\n", "      turns: rotate\n      skip_turn: \"size(stock) > 0\"\n"
        "      on_skip: []\n"), encoding="utf-8")
    engine = Engine(load_ruleset(path))
    state = engine.new_game(2, seed=1)  # (the first turn is nobody's to miss)
    with pytest.raises(RuleRuntimeError) as info:
        engine.play(state, ("go",))
    d = info.value.diagnostic
    assert d is not None and d.location is not None, str(info.value)
    assert "every player keeps missing turns" in d.message
    assert d.source_line is not None and "skip_turn" in d.source_line


def test_a_goal_naming_no_declared_kind_is_a_fault_at_its_call(tmp_path: Path) -> None:
    """A goal's kinds written out are checked when the file loads; one read from a variable
    is checked at the call, which is then the place of the fault."""
    path = tmp_path / "faults.yaml"
    path.write_text(BASE.format(fault="move top(stock) to pile").replace(
        "  - {name: zero, scope: round, initial: 0}\n",
        "  - {name: zero, scope: round, initial: 0}\n"
        "  - {name: wanted, scope: round, initial: \"'trio'\"}\n"
        "melds:\n"
        "  kinds: [{name: pair, kind: set, min: 2}]\n").replace(
        "            - name: go\n",
        "            - name: lay\n"
        "              choose: {layout: \"lay_downs(hand[me], [wanted])\"}\n"
        "              do: []\n"
        "            - name: go\n"), encoding="utf-8")
    engine = Engine(load_ruleset(path))
    with pytest.raises(RuleRuntimeError) as info:
        engine.legal_actions(engine.new_game(2, seed=1))
    d = info.value.diagnostic
    assert d is not None and d.location is not None, str(info.value)
    assert "lay_downs: no meld kind 'trio' (the kinds: pair)" in d.message
    assert d.source_line is not None and "lay_downs(hand[me], [wanted])" in d.source_line
    assert "please report" not in d.message


def test_a_fault_in_a_label_value_is_located_at_its_expression(tmp_path: Path) -> None:
    """A label's value that cannot be worked out (here a division by zero) is a fault at the
    label's expression, as any rule's is, not a bare error."""
    source = (Path(__file__).parent / "games" / "ferry.yaml").read_text(encoding="utf-8")
    shown = "{card.worth}\""
    assert shown in source
    path = tmp_path / "ferry.yaml"
    path.write_text(source.replace(shown, "{card.worth / 0}\""), encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(path), "--seed", "3", "--plain"])
    assert result.exit_code != 0
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1)
                if "{card.worth / 0}" in text)
    assert f"ferry.yaml:{line}:" in result.output, result.output
    assert "in the label of move 'lay': card.worth / 0: " in result.output, result.output
    assert "Traceback" not in result.output


def test_a_number_set_to_what_may_be_none_holds_none_and_says_so_where_read(
        tmp_path: Path) -> None:
    """`first` of no items is none: stored in a number, the number is none (no fault, and
    never a bug of cardrules), and a rule that then reads it as a number says so there."""
    path = write(tmp_path, "set zero = first(n for n in numbers(1, zero))")
    engine = Engine(load_ruleset(path))
    state = engine.new_game(2, seed=1)
    engine.apply(state, ("go",))  # numbers(1, 0): no items
    assert state.vars["zero"] is None
    with pytest.raises(RuleRuntimeError,
                       match=r":26:58: .*zero: the argument of numbers\(\) is none"):
        engine.apply(state, ("go",))


PHASED = """\
cardrules: 1
name: phased
house: {name: Bank}
deck: {ranks: [A, "2"], suits: [clubs, hearts], zone: stock}
zones:
  - {name: stock, visibility: hidden}
  - {name: hand, owner: each, visibility: owner}
round:
  setup: [shuffle stock, "move top(stock) to hand[house]"]
  phases:
    - name: play
      turns: rotate
      PART
      steps:
        - name: act
          moves:
            - {name: go, do: [end round]}
scoring:
  round:
    - {name: nothing, score: "0"}
"""


@pytest.mark.parametrize(("part", "message"), [
    ('first: "owner(top(hand[house]))"',
     "owner(top(hand[house])): the house is not a seat: phase 'play' begins with it"),
    ('when: "size(stock) > 9"',
     "round 1: no phase is played (every phase's `when` is false)")])
def test_a_phase_that_cannot_begin_is_a_fault_at_its_rule(part: str, message: str,
                                                          tmp_path: Path) -> None:
    """A phase `first` that gives the house, which takes no turn, or a round whose every
    phase's `when` is false: a fault where the rule is written, as any other."""
    path = tmp_path / "phased.yaml"
    path.write_text(PHASED.replace("PART", part), encoding="utf-8")
    engine = Engine(load_ruleset(path))
    with pytest.raises(RuleRuntimeError) as info:
        engine.new_game(2, seed=1)
    d = info.value.diagnostic
    assert d is not None and d.location is not None and d.location.line == 13, str(info.value)
    assert d.source_line is not None and d.source_line[d.location.column - 1:] \
        .startswith(part.split('"')[1])
    assert message in d.message and "report" not in d.message, d.message


def test_a_number_that_never_holds_none_set_to_none_is_a_fault_at_the_set(
        tmp_path: Path) -> None:
    """Every variable's initial value written out: none ever holds none, so a rule storing
    what may be none (first of no items) is a fault where it stores it, and the scoring that
    reads the number never meets none (it did, as a bug of cardrules)."""
    text = """\
cardrules: 1
name: plain
deck: {ranks: [A, "2"], suits: [clubs], zone: stock}
zones: [{name: stock, visibility: hidden}]
variables:
  - {name: x, scope: game, initial: 0}
round:
  phases:
    - name: play
      turns: rotate
      steps:
        - name: turn
          moves:
            - {name: go, do: ["set x = first(n for n in numbers(1, 0))", end round]}
scoring:
  round:
    - {name: b, score: "x + 1"}
"""
    path = tmp_path / "plain.yaml"
    path.write_text(text, encoding="utf-8")
    engine = Engine(load_ruleset(path))
    state = engine.new_game(2, seed=1)
    with pytest.raises(RuleRuntimeError, match=r"plain\.yaml:14:32: in move 'go' \(seat 1\): "
                       r"set x = first\(n for n in numbers\(1, 0\)\): the number is none"):
        engine.apply(state, ("go",))
