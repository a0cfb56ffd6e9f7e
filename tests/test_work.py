"""No game of a rule file that validates takes unbounded time: what the work bound
(dsl/work.py) cannot know before the game, the work of the lists subsets and combinations
make of a zone's cards, is counted while the game runs, and an action that passes its budget
is a fault at the rule (docs/grammar.md §2.18)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cardrules.cli.main import main
from cardrules.dsl.loader import check_files, load_ruleset
from cardrules.errors import RuleRuntimeError
from cardrules.interpreter import runtime
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.kernel import Kernel, kernel_for
from cardrules.interpreter.players.bots import make_bot
from cardrules.interpreter.players.search import IsmctsBot

LOOPED = (Path(__file__).parent / "data" / "looped.yaml").read_text(encoding="utf-8")

# A loop of known length around one list made of a 16-card hand: 10,000 times 2^16 subsets.
SUBSETS = "size(subsets(cards(hand[me])))"
COMBINATIONS = "size(combinations(cards(hand[me]), 8))"


def write(tmp_path: Path, listed: str) -> Path:
    path = tmp_path / "looped.yaml"
    path.write_text(LOOPED.replace(SUBSETS, listed), encoding="utf-8")
    return path


@pytest.mark.parametrize("listed", [SUBSETS, COMBINATIONS])
def test_a_loop_around_the_lists_a_hand_makes_validates_and_faults_at_the_list(
        tmp_path: Path, listed: str) -> None:
    """The rule validates (a hand's size is play's), and its action, which would take
    minutes, stops at the list with a located fault saying the action's budget."""
    path = write(tmp_path, listed)
    assert check_files([str(path)]) == []
    line = next(i for i, text in enumerate(path.read_text(encoding="utf-8").splitlines())
                if "numbers(1, 10000)" in text)
    for engine in (Engine(load_ruleset(path)), Kernel(load_ruleset(path))):
        state = engine.new_game(2, seed=1)
        with pytest.raises(RuleRuntimeError) as info:
            engine.apply(state, ("go",))
        d = info.value.diagnostic
        assert d is not None and d.location is not None, str(info.value)
        assert d.location.line == line + 1
        assert d.source_line is not None
        assert d.location.column == d.source_line.index(listed.split("(")[1]) + 1
        assert d.message.startswith("in move 'go' (seat 1): "), d.message
        assert "this action's work passes 10,000,000 steps here" in d.message, d.message


def small_subsets(tmp_path: Path) -> Path:
    """SUBSETS with a loop of 3 around the lists of subsets, and no end: each action's work
    is 3 lists of 2^16 subsets, 1,769,472 steps, and the game goes on."""
    text = write(tmp_path, SUBSETS).read_text(encoding="utf-8")
    small = tmp_path / "small.yaml"
    small.write_text(text.replace("numbers(1, 10000)", "numbers(1, 3)")
                     .replace("                - end game\n", ""), encoding="utf-8")
    return small


def test_the_budget_is_the_actions_and_starts_afresh_with_the_next(tmp_path: Path) -> None:
    """Work done in one action does not count against the next: with a budget of a few
    lists, each action may make them."""
    engine = Engine(load_ruleset(small_subsets(tmp_path)))
    state = engine.new_game(2, seed=1)
    for _ in range(12):  # (each action: 3 lists of 2^16 subsets, 1,769,472 steps; 12
        engine.apply(state, ("go",))  # of them would pass the budget counted together)
        assert state.work <= 2 * 1_769_472 + 1000
    copy = state.copy()
    assert copy.work == 0


def test_a_games_work_added_up_is_bounded_too(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Each action within its budget, action after action (max_actions allows 10,000,000):
    the game's work added up stops it, located, so that no game takes days. The bound,
    100 actions' worth, is some 400 times what a random game of any shipped ruleset does
    (scopa's most, 2.4 million steps); here it is lowered to see it hold."""
    engine = Engine(load_ruleset(small_subsets(tmp_path)))
    state = engine.new_game(2, seed=1)
    assert runtime.MOST_GAME_WORK == 100 * runtime.MOST_WORK
    monkeypatch.setattr(runtime, "MOST_GAME_WORK", 10 * 1_769_472)
    with pytest.raises(RuleRuntimeError, match="the game's work passes 17,694,720 steps") as info:
        for _ in range(12):  # (each action: 1,769,472 steps, as above)
            engine.apply(state, ("go",))
    assert re.search(r"small\.yaml:\d+:\d+", str(info.value)), str(info.value)
    assert state.actions == 10  # the eleventh action is the one that passes it


def test_the_fault_reaches_run_and_simulate_as_a_located_message(tmp_path: Path) -> None:
    path = write(tmp_path, SUBSETS)
    for args in (["run", str(path)], ["simulate", str(path), "--games", "2", "--workers", "1"]):
        result = CliRunner().invoke(main, args, prog_name="cardrules")
        assert result.exit_code == 3, result.output
        assert re.search(rf"{re.escape(str(path))}:\d+:\d+: in move 'go' \(seat \d\): "
                         r"subsets\(cards\(hand\[me\]\)\): this action's work passes",
                         result.stderr), result.stderr
        assert "Traceback" not in result.output


BIG_DECK = """\
cardrules: 1
name: big
deck:
  ranks: [A, "2", "3", "4", "5", "6", "7", "8", "9", "10", J, Q, K, B, C, D]
  suits: [a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p]
  copies: 16
  zone: stock
zones:
  - {name: stock, visibility: hidden}
variables:
  - {name: total, scope: round, initial: 0}
round:
  phases:
    - name: play
      turns: rotate
      steps:
        - name: act
          moves:
            - name: go
              do:
                - {for: 'a in stock', do: [{for: 'b in stock', do: [{for: 'c in stock',
                   do: ['set total = a.number']}]}]}
                - end game
scoring:
  round:
    - {name: nothing, score: "0"}
"""


def test_three_loops_through_a_deck_of_4096_cards_validate_and_fault_at_the_inner_loop(
        tmp_path: Path) -> None:
    """4,096^3 steps in one action (minutes), which the work bound lets through (a loop
    through a zone counts once there; weighed at the deck's size, the shipped dou-dizhu,
    scopa and holdem would be refused): the loops are counted while the game runs, and the
    action stops at the loop that passes the budget."""
    path = tmp_path / "big.yaml"
    path.write_text(BIG_DECK, encoding="utf-8")
    assert check_files([str(path)]) == []
    for engine in (Engine(load_ruleset(path)), Kernel(load_ruleset(path))):
        state = engine.new_game(2, seed=1)
        with pytest.raises(RuleRuntimeError) as info:
            engine.apply(state, ("go",))
        d = info.value.diagnostic
        assert d is not None and d.location is not None and d.source_line is not None
        assert d.location.line == 21 and d.source_line[d.location.column - 1:].startswith(
            "c in stock"), d.format()
        assert "in move 'go' (seat 1): " in d.message
        assert "this action's work passes 10,000,000 steps here" in d.message, d.message


def test_only_rulesets_that_may_pass_the_bound_count_their_loops() -> None:
    """Where every rule is bounded before the game with every zone full, nothing is counted
    while it runs (golf6, grandma's kernel stay as they were); the rest count each loop."""
    counted = {name: "counted(S, " in load_ruleset(name).python
               for name in ("golf6", "gin-rummy", "dou-dizhu", "scopa")}
    assert counted == {"golf6": False, "gin-rummy": False, "dou-dizhu": True, "scopa": True}


def test_questions_asked_between_actions_have_work_of_their_own() -> None:
    """scopa counts its loops: its score, asked again and again at one decision (a page, a
    bot's estimate), never adds up to a fault, as it would if every asking counted against
    the action."""
    engine = Engine(load_ruleset("scopa"))
    state = engine.new_game(2, 3)
    engine.legal_actions(state)
    first = engine.round_score(state, 0)
    assert state.work > 0  # it is counted
    for _ in range(2000):
        assert engine.round_score(state, 0) == first and engine.estimate(state, 1) >= -10**9
    assert state.work < runtime.MOST_WORK // 1000



# Each action takes loops whose length its text fixes (10,000 steps), in a game that may
# take 10,000,000 actions: 10^11 steps, days, though every rule is bounded before the game.
FIXED = """\
cardrules: 1
name: fixed
max_actions: 10000000
deck: {ranks: [A, "2"], suits: [a, b], zone: stock}
zones:
  - {name: stock, visibility: hidden}
variables:
  - {name: total, scope: round, initial: 0}
functions:
  - name: heavy
    value: "sum(sum(x + y for y in numbers(1, 100)) for x in numbers(1, 100))"
procedures:
  - name: heavier
    do:
      - {for: 'x in numbers(1, 100)', do: [{for: 'y in numbers(1, 100)',
         do: ['set total = x + y']}]}
round:
  phases:
    - name: play
      turns: rotate
      steps:
        - name: act
          moves:
            - name: go
              do:
                - {for: 'x in numbers(1, 100)', do: [{for: 'y in numbers(1, 100)',
                   do: ['set total = x + y']}]}
                - {while: 'total > 0', limit: 5, do: ['set total = total - 100']}
                - set total = heavy()
                - heavier()
scoring:
  round:
    - {name: nothing, score: "0"}
"""


def test_a_game_of_many_actions_each_bounded_before_the_game_is_bounded_too(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the rule text fixes more work for a whole game (each action at its most, times
    max_actions) than a game may take, the loops are counted as they run, those through
    numbers and each time round a while block as well, and the game's work added up stops
    it, located. Here the bound is lowered to see it hold within a few actions."""
    path = tmp_path / "fixed.yaml"
    path.write_text(FIXED, encoding="utf-8")
    assert check_files([str(path)]) == []
    rules = load_ruleset(path)
    code = {part.split("(")[0]: part for part in rules.python.split("\ndef ")[1:]}
    # the rule's outer loop and its block, and the function and procedure it calls, counted
    # where the rule makes them; the loops inside them, and the functions' own, not again
    go = code["h_go"]
    assert go.count("spent(S, ") == 1 and go.count("spend(S, ") == 2
    assert go.count("spent_on(S, ") == 1
    assert not any(word in code[name] for word in ("spent", "spend")
                   for name in ("f_heavy", "pr_heavier"))
    assert "counted(S, " not in rules.python  # (no action passes its own bound)
    for engine in (Engine(rules), Kernel(rules)):
        state = engine.new_game(2, seed=1)
        engine.apply(state, ("go",))
        each = state.spent
        assert 30_000 <= each < 300_000  # (the outer loops' items, at what one was weighed
        # at, the inner loops' with them; each time round the block; the two calls)
        monkeypatch.setattr(runtime, "MOST_GAME_WORK", 20 * each)
        with pytest.raises(RuleRuntimeError, match="the game's work passes") as info:
            for _ in range(30):
                engine.apply(state, ("go",))
        assert re.search(r"fixed\.yaml:\d+:\d+: in move 'go'", str(info.value)), str(info.value)
        assert state.actions == 20
        monkeypatch.undo()
    small = path.read_text(encoding="utf-8").replace("max_actions: 10000000", "max_actions: 1000")
    path.write_text(small, encoding="utf-8")
    assert "spent(S, " not in load_ruleset(path).python  # (about 10^7 steps a game at most)


def test_a_loop_through_the_players_is_counted_against_the_game(tmp_path: Path) -> None:
    """An aggregate over `players` is written as a loop over the seats (no list made): where
    the game's work is counted, it is counted too."""
    path = tmp_path / "fixed.yaml"
    path.write_text(FIXED.replace("                - set total = heavy()\n",
                                  "                - set total = sum(heavy() for p in players)\n"
                                  "                - if: all(heavy() > 0 for p in players)\n"
                                  "                  then: [set total = 1]\n"),
                    encoding="utf-8")
    go = load_ruleset(path).python.split("\ndef h_go")[1]
    assert go.count("spent(S, range(S.n)") == 2, go


def test_a_search_on_heavy_actions_imagines_few_of_them(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Each `go` takes tens of thousands of steps, within every bound: ismcts at its default
    budget, counted in actions, would imagine thousands of them. The steps its imagined
    games count beyond HEAVY_ACTION an action are charged to its budget too, and a playout
    ends at PLAYOUT_STEPS (both lowered here, by a hundred and by ten, to the scale of this
    file: a rule file of actions of a tenth of a second meets them as they are)."""
    monkeypatch.setattr(IsmctsBot, "HEAVY_ACTION", IsmctsBot.HEAVY_ACTION // 100)
    monkeypatch.setattr(IsmctsBot, "PLAYOUT_STEPS", IsmctsBot.PLAYOUT_STEPS // 10)
    path = tmp_path / "fixed.yaml"
    path.write_text(FIXED.replace(
        """            - name: go
              do:""", """            - name: rest
              do: ['set total = total + 1']
            - name: go
              do:"""), encoding="utf-8")
    engine = Engine(load_ruleset(path))
    state = engine.new_game(2, seed=1)
    kernel = kernel_for(engine)
    play, imagined = kernel.play, []

    def counting(*args: Any, **kwargs: Any) -> Any:
        imagined.append(args[1])
        return play(*args, **kwargs)

    kernel.play = counting  # type: ignore[method-assign]
    try:
        make_bot("ismcts", 1, 0).choose(engine, state, engine.legal_actions(state))
    finally:
        kernel.play = play  # type: ignore[method-assign]
    heavy = sum(action == ("go",) for action in imagined)
    assert 0 < heavy <= 200, (heavy, len(imagined))

# A list of players joined to itself move after move, then gone through in two loops, one
# inside the other: a list a variable holds is as long as play made it.
DOUBLED = """cardrules: 1
name: doubled
title: Doubled
players: {min: 2, max: 2, default: 2}
deck: {ranks: [A, "2"], suits: [clubs], zone: stock}
zones: [{name: stock, visibility: hidden}]
variables:
  - {name: x, scope: game, initial: 0}
  - {name: seats, scope: game, initial: "players"}
round:
  phases:
    - name: play
      turns: rotate
      steps:
        - name: turn
          moves:
            - name: grow
              label: Grow
              when: "size(seats) < 60000"
              do: ["set seats = seats + seats"]
            - name: spin
              label: Spin
              when: "size(seats) >= 60000"
              do:
                - for: p in seats
                  do:
                    - for: q in seats
                      do: ["set x = (x + 1) % 7"]
scoring:
  winner: highest
  round: [{name: none, score: "0"}]
"""


def test_a_loop_through_a_list_a_variable_holds_counts_as_many_items_as_play_put_there(
        tmp_path: Path) -> None:
    """The list of players holds 65,536 of them after 15 moves: the two loops would take
    4 billion steps in one action. It validates (play makes the list), and the action stops
    at the inner loop with a located fault, in the engine and the kernel alike."""
    spun_faults_at(tmp_path / "doubled.yaml", DOUBLED, "q in seats")


def spun_faults_at(path: Path, text: str, where: str) -> None:
    """`text` (DOUBLED, or a variant) validates, and after 15 moves that double the list,
    the spin stops at the line holding `where` with a located fault, in the engine and the
    kernel alike."""
    path.write_text(text, encoding="utf-8")
    assert check_files([str(path)]) == []
    line = next(i for i, written in enumerate(text.splitlines()) if where in written) + 1
    for engine in (Engine(load_ruleset(path)), Kernel(load_ruleset(path))):
        state = engine.new_game(2, seed=1)
        for _ in range(15):
            engine.apply(state, ("grow",))
        with pytest.raises(RuleRuntimeError, match="this action's work passes") as info:
            engine.apply(state, ("spin",))
        d = info.value.diagnostic
        assert d is not None and d.location is not None and d.location.line == line


@pytest.mark.parametrize("spun", [
    "count(q in seats for q in numbers(3, 2002))",
    "count(seats[1:] == seats for q in numbers(1, 2000))",
    # a subset's items are few and not charged; a name bound again inside to a held list is
    "count(any(any(q in cs for cs in [seats]) for cs in subsets(players)) "
    "for q in numbers(3, 2002))"])
def test_whether_an_item_is_in_a_held_list_counts_the_lists_items(tmp_path: Path,
                                                                   spun: str) -> None:
    """Whether a number is in a list of 65,536 numbers it is not in, 2,000 times, is no loop
    through the list, but goes through it all the same (as does comparing it with a slice of
    itself): each counts the list's items, and the action stops there with a located fault."""
    text = DOUBLED.replace('initial: "players"', 'initial: "numbers(1, 2)"').replace(
        """                - for: p in seats
                  do:
                    - for: q in seats
                      do: ["set x = (x + 1) % 7"]""", f'                - "set x = {spun}"')
    spun_faults_at(tmp_path / "member.yaml", text, "set x = count")


def test_the_lists_variables_hold_are_bounded_in_number(tmp_path: Path) -> None:
    """Each list may hold 100,000 items: the variables may hold 32 lists in all (a player
    variable one per seat), else the file is refused at the variable that passes it."""
    lists = "".join(f"  - {{name: v{i}, scope: player, initial: \"numbers(1, 10)\"}}\n"
                    for i in range(17))
    text = DOUBLED.replace("variables:\n", "variables:\n" + lists)
    path = tmp_path / "held.yaml"
    path.write_text(text, encoding="utf-8")
    problems = check_files([str(path)])
    assert len(problems) == 1 and ":24:12: with this one the variables hold 34 lists" in \
        problems[0].format(), [p.format() for p in problems]
    fewer = "".join(line for line in lists.splitlines(keepends=True)[:15])
    path.write_text(DOUBLED.replace("variables:\n", "variables:\n" + fewer), encoding="utf-8")
    assert check_files([str(path)]) == []  # 30, and the list of players: 31
    # with a house, a player variable holds one list more: the house's
    path.write_text(DOUBLED.replace("variables:\n", "variables:\n" + fewer).replace(
        "zones:", "house: {name: Bank}\nzones:"), encoding="utf-8")
    problems = check_files([str(path)])
    assert len(problems) == 1 and "hold 33 lists (a player variable one for each of up to 2 " \
        "seats and the house)" in problems[0].message, [p.format() for p in problems]


def test_subsets_gone_through_in_a_function_called_over_subsets_are_refused(
        tmp_path: Path) -> None:
    """A subset of a hand is cards in play as the hand is: a function that goes through its
    subsets, called for each subset of the hand, nests two such lists (2^16 times 2^16), and
    is refused where the function is called inside the outer loop, naming the line of each
    (the function may be called elsewhere harmlessly), not left to fault at the work bound
    while a game runs."""
    text = """\
cardrules: 1
name: subs
players: {min: 2, max: 2}
deck: {zone: stock}
zones:
  - {name: stock, visibility: hidden}
  - {name: hand, owner: each, visibility: owner}
functions:
  - {name: best, params: {h: cards}, value: "max(size(s) for s in subsets(h))"}
round:
  setup: [shuffle stock, deal 16 from stock to each hand]
  phases:
    - name: show
      turns: each_once
      steps:
        - name: b
          moves:
            - {name: c, when: "any(best(s) > 20 for s in subsets(hand[me]))", do: []}
            - {name: d, do: []}
"""
    path = tmp_path / "subs.yaml"
    path.write_text(text, encoding="utf-8")
    (problem,) = check_files([str(path)])
    assert problem.message.startswith(
        "this call of 'best' goes through subsets or combinations of cards in play (line 9) "
        "inside another loop through such a list (line 18)"), problem.message
    assert problem.location is not None and problem.location.line == 18
    # one level, the function called for the hand itself, validates
    path.write_text(text.replace("any(best(s) > 20 for s in subsets(hand[me]))",
                                 "best(hand[me]) > 20"), encoding="utf-8")
    assert check_files([str(path)]) == []


def test_small_lists_of_cards_in_play_may_nest(tmp_path: Path) -> None:
    """The pairs among each three cards of a seven-card hand: lists of a hand's cards, one
    inside another, but small ones (a three-card way has three pairs), validate and play."""
    text = """\
cardrules: 1
name: pairs
players: {min: 2, max: 2}
deck: {zone: stock}
zones:
  - {name: stock, visibility: hidden}
  - {name: hand, owner: each, visibility: owner}
round:
  setup: [shuffle stock, deal 7 from stock to each hand]
  phases:
    - name: show
      turns: each_once
      steps:
        - name: b
          moves:
            - name: c
              when: >-
                any(all(same_rank(t) for t in combinations(w, 2))
                    for w in combinations(hand[me], 3))
              do: []
            - {name: d, do: []}
"""
    path = tmp_path / "pairs.yaml"
    path.write_text(text, encoding="utf-8")
    assert check_files([str(path)]) == []
    engine = Engine(load_ruleset(path))
    state = engine.new_game(2, 1)
    while engine.legal_actions(state):
        engine.apply(state, engine.legal_actions(state)[-1])
    assert state.over


NESTED = """
cardrules: 1
name: nested
players: {min: 2, max: 2}
deck: {zone: stock}
zones:
  - {name: stock, visibility: hidden}
  - {name: hand, owner: each, visibility: owner}
functions:
  - name: runs_in
    params: {cs: cards}
    value: "count(size(y) >= 3 and is_run(y, false) for y in subsets(cs))"
round:
  setup: [shuffle stock, deal 5 from stock to each hand]
  phases:
    - name: show
      turns: each_once
      steps:
        - name: show
          moves:
            - {name: show, do: ["reveal cards(hand[me])"]}
scoring:
  winner: highest
  round:
    - name: longest
      score: "count(size(x) == max(size(y) for y in subsets(hand[p])) for x in subsets(hand[p]))"
    - name: runs
      score: "runs_in(hand[p])"
"""


def test_subsets_gone_through_once_for_a_loop_or_in_a_function_are_told_where_they_nest(
        tmp_path: Path) -> None:
    """A piece of a loop's text that reads nothing of its item is worked out once, before
    it: the subsets it goes through are not inside the loop, and the file validates (and
    plays). Subsets gone through in a function called inside a loop through subsets are
    refused where the function is called, naming the function's loop and the loop around."""
    path = tmp_path / "nested.yaml"
    path.write_text(NESTED, encoding="utf-8")
    assert check_files([str(path)]) == []
    engine = Engine(load_ruleset(path))
    state = engine.new_game(2, seed=1)
    legal = engine.legal_actions(state)
    while legal:
        legal = engine.play(state, legal[0])
    assert state.over
    lines = NESTED.splitlines()
    path.write_text(NESTED + '    - name: nested\n      score: "sum(runs_in(x) for x in '
                    'subsets(hand[p]))"\n    - name: again\n      score: "max(runs_in(x) '
                    'for x in subsets(hand[p]))"\n', encoding="utf-8")
    problem, again = check_files([str(path)])  # (each call is told: the same text at each)
    assert again.location is not None and problem.location is not None
    assert again.location.line == problem.location.line + 2
    at = next(i for i, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
              if "runs_in(x)" in text)  # the added score's line
    assert problem.location is not None and problem.location.line == at
    assert problem.source_line is not None
    assert problem.location.column == problem.source_line.index("runs_in(x)") + 1
    function = next(i for i, text in enumerate(lines, 1) if "for y in subsets(cs)" in text)
    assert problem.message.startswith(
        f"this call of 'runs_in' goes through subsets or combinations of cards in play (line "
        f"{function}) inside another loop through such a list (line {at})"), problem.message


@pytest.mark.parametrize("first", ["via", "direct"])
def test_subsets_nested_through_a_function_are_told_at_every_call_in_any_order(
        tmp_path: Path, first: str) -> None:
    """The same function weighed once, inside another function's call or not, is told at
    every call of a rule that nests its subsets in a loop through subsets, whichever the
    file writes first."""
    functions = ('  - name: wrapped\n    params: {cs: cards}\n    value: "runs_in(cs) + 0"\n'
                 'round:')
    via = '    - {name: via, score: "sum(wrapped(x) for x in subsets(hand[p]))"}\n'
    direct = '    - {name: direct, score: "sum(runs_in(x) for x in subsets(hand[p]))"}\n'
    text = NESTED.replace("round:", functions, 1) + \
        (via + direct if first == "via" else direct + via)
    path = tmp_path / "nested.yaml"
    path.write_text(text, encoding="utf-8")
    problems = check_files([str(path)])
    lines = text.splitlines()
    expected = {i for i, line in enumerate(lines, 1) if "(x) for x in subsets" in line}
    assert {p.location.line for p in problems if p.location is not None} == expected, \
        [p.format() for p in problems]
