"""Repetition as a rule (`repetition: forbid`): a move that would return the game to a position
the table has seen this round is not legal, for the engine, the kernel and every front end that
asks them; and `validate` notes moves that undo each other where the rules allow it."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardrules.dsl.loader import check_files, load_ruleset
from cardrules.errors import IllegalAction, NoLegalMove
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.kernel import Kernel
from cardrules.interpreter.players.repetition import NEWS, Memory
from cardrules.interpreter.positions import position
from cardrules.interpreter.state import GameState

TESTS = Path(__file__).resolve().parent
FERRY = TESTS / "games" / "ferry.yaml"
SHUTTLE = TESTS / "data" / "shuttle.yaml"
ROOT = TESTS.parent


def _without_the_rule(path: Path, tmp_path: Path) -> Path:
    out = tmp_path / path.name
    out.write_text("".join(line for line in path.read_text(encoding="utf-8")
                           .splitlines(keepends=True) if not line.startswith("repetition:")),
                   encoding="utf-8")
    return out


def _with_the_rule(path: Path, tmp_path: Path) -> Path:
    out = tmp_path / path.name
    out.write_text(path.read_text(encoding="utf-8").replace(
        "max_actions: 60\n", "max_actions: 60\nrepetition: forbid\n"), encoding="utf-8")
    return out


def two_crossed() -> tuple[Engine, GameState, int, int]:
    """A ferry game in which the first two cards of the near bank have crossed, in turn."""
    engine = Engine(load_ruleset(FERRY))
    state = engine.new_game(2, 0)
    near = engine.rules.zone("near").index
    first, second = state.zones[near][:2]
    engine.apply(state, ("cross", first))
    engine.apply(state, ("cross", second))
    return engine, state, first, second


def test_a_move_back_to_a_position_seen_is_not_legal() -> None:
    """tests/games/ferry.yaml: two cards ferried across, the second may not be brought back
    (the table would be as it was after the first crossed), but the first may; the seat may
    still land the ferry. The engine refuses the move back, and leaves the game as it was."""
    engine, state, first, second = two_crossed()
    legal = engine.legal_actions(state)
    assert ("bring_back", first) in legal and ("bring_back", second) not in legal
    assert ("land",) in legal
    before = state.to_dict()
    with pytest.raises(IllegalAction):
        engine.apply(state, ("bring_back", second))
    assert state.to_dict() == before
    # Bringing the first back is a new position: the near bank is a row, and its order
    # has changed (the second card is across, the first now last on the near bank).
    engine.apply(state, ("bring_back", first))


def test_the_positions_seen_are_kept_in_the_saved_game() -> None:
    """What the table has seen is a part of the game: a game read back from JSON refuses the
    same moves, and so does the kernel playing it."""
    engine, state, first, second = two_crossed()
    legal = engine.legal_actions(state)
    assert ("bring_back", second) not in legal
    again = GameState.from_json(state.to_json())
    assert again.seen == state.seen and engine.legal_actions(again) == legal
    kernel = Kernel(engine.rules)
    assert kernel.legal_actions(kernel.adopt(state.copy())) == legal


def test_without_the_rule_a_seat_may_shuttle_until_the_bound(tmp_path: Path) -> None:
    """tests/data/shuttle.yaml, a seat that always takes the first legal move: it shifts a
    card right and left until the bound on actions cuts the game off; with `repetition:
    forbid` the shift back is not legal, so it draws, and wins."""
    for path, cut_off in ((SHUTTLE, True), (_with_the_rule(SHUTTLE, tmp_path), False)):
        engine = Engine(load_ruleset(path))
        state = engine.new_game(seed=1)
        while not state.over:
            engine.apply(state, engine.legal_actions(state)[0])
        assert state.cut_off is cut_off, path
        assert (state.winners == [0]) is not cut_off


def test_validate_notes_moves_that_undo_each_other(tmp_path: Path) -> None:
    """A hint at a move that only carries cards back where another carries them, unless the
    rules forbid repetition; no shipped ruleset, nor test game, gets one."""
    path = _without_the_rule(FERRY, tmp_path)
    line = path.read_text(encoding="utf-8").splitlines().index("            - name: bring_back")
    found = check_files([str(path)], hints=True)
    assert [(d.location.line, d.hint) for d in found] == [(line + 1, True)]
    assert "'bring_back' can undo 'cross': one carries cards from near to far" \
        in found[0].message
    assert check_files([str(FERRY)], hints=True) == []
    # (that no shipped ruleset nor test game gets a hint is tests/test_rulesets.py's check)


def test_whether_a_move_repeats_never_depends_on_the_card_it_turns_up(tmp_path: Path) -> None:
    """Shuttle with `repetition: forbid`: drawing turns up the stock's top card, which nobody
    knows. Two games alike but for the order of the stock, each having seen the position the
    first would reach by drawing (its top card on the left pile), list the same moves: which
    card would turn up cannot decide whether the draw repeats a position, or the listing
    would tell the seat which card lies on top."""
    engine = Engine(load_ruleset(_with_the_rule(SHUTTLE, tmp_path)))
    one = engine.new_game(1, 3)
    stock = engine.rules.zone("stock").index
    assert len(one.zones[stock]) >= 2 and not any(one.known[c] for c in one.zones[stock])
    two = one.copy()
    cards = two.zones[stock]
    cards[-1], cards[-2] = cards[-2], cards[-1]  # (unseen by anyone: the stock's top two)
    drawn = one.copy()
    engine.apply(drawn, ("draw",))
    reached = position(engine.rules, drawn, None)  # the table's position after the draw
    for game in (one, two):
        game.seen.add(reached)
        game.version += 1
        game.legal_cache = None
    assert ("draw",) in engine.legal_actions(one)
    assert engine.legal_actions(one) == engine.legal_actions(two)
    kernel = Kernel(engine.rules)
    assert kernel.legal_actions(kernel.adopt(one.copy())) == engine.legal_actions(one)


FLIPS = """\
cardrules: 1
name: flips
players: {min: 2, max: 2}
repetition: forbid
max_actions: 40
deck: {ranks: [A, "2", "3"], suits: [clubs, hearts], zone: stock}
zones:
  - {name: stock, visibility: hidden}
  - {name: row, owner: each, visibility: public, layout: row}
round:
  setup: [shuffle stock, deal 2 from stock to each row face down]
  phases:
    - name: play
      turns: rotate
      steps:
        - name: act
          moves:
            - name: flip
              label: "Turn {card} up"
              choose: {card: "row[me] where not card.face_up"}
              do: [flip card face up]
            - name: wait
              label: Wait
scoring:
  winner: none
  round:
    - {name: none, score: "0"}
"""


def test_a_move_that_turns_up_a_card_nobody_knew_repeats_nothing(tmp_path: Path) -> None:
    """Turning up a face-down card of a public row shows the table a card it did not know:
    news, whichever card it is, so it is never a repeat, even where nothing else about the
    table would change; waiting, which changes nothing, is one once the table has been so."""
    path = tmp_path / "flips.yaml"
    path.write_text(FLIPS, encoding="utf-8")
    engine = Engine(load_ruleset(path))
    state = engine.new_game(2, 1)
    engine.apply(state, ("wait",))  # seat 1 waits: seat 2's wait would bring back the start
    legal = engine.legal_actions(state)
    assert ("wait",) not in legal and len(legal) == 2 and all(a[0] == "flip" for a in legal)


MIXES = FLIPS.replace("name: flips", "name: mixes").replace(
    "deal 2 from stock to each row face down", "deal 3 from stock to each row face up").replace(
    """            - name: flip
              label: "Turn {card} up"
              choose: {card: "row[me] where not card.face_up"}
              do: [flip card face up]""", """            - name: mix
              label: Shuffle my row
              do: ["shuffle row[me]"]""")


def test_a_move_that_meets_chance_repeats_nothing(tmp_path: Path) -> None:
    """Shuffling a row of face-up cards: how the shuffle would fall is not known before it is
    made, so it cannot decide whether the move repeats a position (the legal moves would tell
    a seat how the next shuffle falls, or leave it none where the shuffle would restore its
    row): it never does. Seat 1 waits; seat 2 may not wait (that would restore the start),
    and may always shuffle, one time in six back into the order it had."""
    path = tmp_path / "mixes.yaml"
    path.write_text(MIXES, encoding="utf-8")
    assert check_files([str(path)]) == []
    engine = Engine(load_ruleset(path))
    for seed in range(30):
        state = engine.new_game(2, seed)
        engine.apply(state, ("wait",))
        assert engine.legal_actions(state) == [("mix",)], seed


def test_the_search_bots_memory_reads_no_shuffle_ahead(tmp_path: Path) -> None:
    """The search bots' memory judges a candidate as the rule does: a shuffle is news however
    it falls, even where listing the next decision (which, with `repetition: forbid`, tries
    each move on copies of its own) came after it."""
    path = tmp_path / "mixes.yaml"
    path.write_text(MIXES, encoding="utf-8")
    engine = Engine(load_ruleset(path))
    for seed in range(6):
        state = engine.new_game(2, seed)
        engine.apply(state, ("wait",))
        after = Memory._after(engine.unwatched(), state, state.current, ("mix",))
        assert after == NEWS, seed


TOGGLE = """\
cardrules: 1
name: toggle
players: {min: 2, max: 2, default: 2}
repetition: forbid
deck:
  ranks: [A, "2"]
  suits: [clubs]
  zone: pile
zones:
  - {name: pile, visibility: public, layout: row}
round:
  setup:
    - flip cards(pile) face up
  phases:
    - name: play
      turns: rotate
      steps:
        - name: shift
          moves:
            - name: shift
              label: "Put {card} last"
              choose: {card: pile}
              do: [move card to pile face up]
scoring:
  winner: lowest
  round:
    - {name: none, score: "0"}
"""


@pytest.mark.parametrize("rule, why", [
    ("repetition: forbid\n", "every move it lists would bring back a position the table has "
                             "seen this round (`repetition: forbid`)"),
    ("", "of its moves ('shift'), each one's `when` is false here or one of its choices has "
         "nothing to choose from"),
])
def test_a_step_left_without_a_move_says_why_at_the_step(tmp_path: Path, rule: str,
                                                         why: str) -> None:
    """Two cards, each seat putting one last: the second seat can only bring back the deal's
    order, or leave the row as it is; with the rule, nothing is left to it. Without the rule,
    a row the move may not leave empty (`where` of no card) leaves nothing either. Either
    way the error points at the step, with its line, and says which it was."""
    text = TOGGLE.replace("repetition: forbid\n", rule)
    if not rule:
        text = text.replace("choose: {card: pile}", 'choose: {card: "pile where false"}')
    path = tmp_path / "toggle.yaml"
    path.write_text(text, encoding="utf-8")
    engine = Engine(load_ruleset(path))
    state = engine.new_game(2, 1)
    with pytest.raises(NoLegalMove) as caught:
        for _ in range(4):
            engine.apply(state, engine.legal_actions(state)[0])
    lines = str(caught.value).splitlines()
    line = text.splitlines().index("        - name: shift") + 1
    assert lines[0].startswith(f"{path}:{line}:11: seat ") and why in lines[0]
    assert lines[1:] == ["            - name: shift", "              ^"]


def test_the_positions_seen_are_shared_by_copies_each_seeing_its_own() -> None:
    """A copy sees the positions seen up to its making: those the game sees after are not
    its, nor are a copy's the game's; the game adds to its table where it lies (the table is
    not copied), a copy takes a table of its own at its first (a search's imagined game may
    play in another thread, as a page's hint is worked out, while the game goes on)."""
    game = GameState()
    game.seen.add(b"a")
    idle = game.copy()
    idle.seen.add(b"z")  # a copy's first: a table of its own, even where the game added none
    assert idle.seen.table is not game.seen.table and b"z" not in game.seen
    copy = game.copy()
    game.seen.add(b"b")  # the game goes on: its table grows where it lies
    assert b"b" in game.seen and b"b" not in copy.seen and game.seen.table is copy.seen.table
    copy.seen.add(b"c")  # the copy has seen less than the table holds: a table of its own
    assert set(copy.seen) == {b"a", b"c"} and set(game.seen) == {b"a", b"b"}
    assert copy.seen.table is not game.seen.table and b"c" not in game.seen
    assert len(game.seen) == 2 and game.seen != copy.seen


def test_a_long_round_under_the_rule_costs_the_same_a_decision() -> None:
    """tests/games/ferry.yaml: the positions seen grow with the round; each decision adds
    its own to the game's table in place, however many were seen before (it used to copy
    them all: a round of 40,000 actions took minutes)."""
    engine, state, first, second = two_crossed()
    table = state.seen.table
    for _ in range(6):
        if state.over:
            break
        engine.apply(state, engine.legal_actions(state)[0])
    assert state.seen.table is table and len(state.seen) > 2
