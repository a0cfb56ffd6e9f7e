"""Turn order, partnerships and tricks as data: each construct on a small constructed ruleset.

`turn to P`, a round's and a phase's `first`, `automatic` steps, triggers `before: turn`,
phases with `when`, `teams` with team scoring, and trick zones with their built-ins.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardrules.dsl.loader import check_files, load_ruleset
from cardrules.errors import RuleRuntimeError
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.sessions.play import play_game

BASE = """\
cardrules: 1
name: turns
players: {{min: {low}, max: 4, default: 4}}
{top}
deck: {{ranks: [A, "2", "3", "4"], suits: [clubs, hearts], zone: stock}}
zones:
  - {{name: stock, visibility: hidden}}
  - {{name: pile, visibility: public, layout: trick}}
  - {{name: hand, owner: each, visibility: owner}}
variables:
  - {{name: starts, scope: round, initial: none, type: player}}
  - {{name: count, scope: player, initial: 0}}
  - {{name: bids_made, scope: round, initial: 0}}
round:
  setup:
    - shuffle stock
    - deal 2 from stock to each hand
{round}
  phases:
{phases}
{rest}
triggers:
  - {{name: done, after: move, when: "all(size(hand[p]) == 0 for p in players)", do: [end round]}}
{triggers}
scoring:
{scoring}
"""

PLAY = """\
    - name: play
      turns: rotate
{extra}
      steps:
        - name: play
{step}
          moves:
            - name: play
              label: "Play {{card}}"
              choose: {{card: "hand[me]"}}
              do:
                - move card to pile face up
{do}
"""


def ruleset(tmp_path: Path, *, top: str = "", round_: str = "", phases: str | None = None,
            extra: str = "", step: str = "", do: str = "", rest: str = "", triggers: str = "",
            scoring: str = "  round: [{name: none, score: '0'}]", low: int = 2) -> Path:
    """A small game written into a file: each player plays their two cards to a pile."""
    play = PLAY.format(extra=extra, step=step, do=do) if phases is None else phases
    text = BASE.format(top=top, round=round_, phases=play, rest=rest, scoring=scoring, low=low,
                       triggers=triggers)
    path = tmp_path / "turns.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def movers(engine: Engine, players: int = 4, seed: int = 1, limit: int = 12) -> list[int]:
    """The seats (from 1) of the first `limit` actions, each seat's first card played."""
    state = engine.new_game(players, seed)
    out = []
    for _ in range(limit):
        legal = engine.legal_actions(state)
        if not legal:
            break
        out.append(state.current + 1)
        engine.apply(state, legal[0])
    return out


def test_turn_to_names_who_plays_next(tmp_path: Path) -> None:
    rule = ('                - if: "me != seat(3) and size(hand[seat(3)]) > 0"\n'
            '                  then: [turn to seat(3)]')
    path = ruleset(tmp_path, do=rule)
    assert check_files([str(path)]) == []
    assert movers(Engine(load_ruleset(path)), limit=6) == [1, 3, 4, 3, 4, 1]


def test_turn_to_a_seat_that_is_out_goes_to_the_next_one_in(tmp_path: Path) -> None:
    path = ruleset(tmp_path, do="                - eliminate seat(3)\n"
                                "                - turn to seat(3)")
    assert movers(Engine(load_ruleset(path)), limit=2) == [1, 4]


def test_the_round_and_a_phase_name_who_starts(tmp_path: Path) -> None:
    holder = "owner(first(c for c in all_cards if c.rank == '4' and c.suit == 'hearts'))"
    path = ruleset(tmp_path, round_=f'  first: "{holder}"'.replace(
        "all_cards", "cards(hand[seat(1)]) + cards(hand[seat(2)]) + cards(hand[seat(3)]) "
                     "+ cards(hand[seat(4)])"))
    engine = Engine(load_ruleset(path))
    for seed in range(5):
        state = engine.new_game(4, seed)
        holder_seat = next(p for p in range(4) if any(
            engine.rules.cards.names[c] == "4H" for c in state.zones[engine.rules.zone(
                "hand").zone_of(p)]))
        assert state.current == holder_seat
    path = ruleset(tmp_path, extra='      first: "seat(2)"')
    assert movers(Engine(load_ruleset(path)), limit=2) == [2, 3]


def test_an_automatic_step_plays_a_single_choice_and_counts_it_as_forced(
        tmp_path: Path) -> None:
    path = ruleset(tmp_path, step="          automatic: true")
    engine = Engine(load_ruleset(path))
    state = engine.new_game(4, 1)
    decided = 0
    while not state.over:
        legal = engine.legal_actions(state)
        assert len(legal) > 1 or state.over  # a single choice is never offered
        engine.apply(state, legal[0])
        decided += 1
    results = engine.results(state)
    assert results["forced"] == 4 and results["actions"] == 8 and decided == 4


def test_a_trigger_before_a_turn_runs_for_the_seat_about_to_play(tmp_path: Path) -> None:
    path = ruleset(tmp_path, triggers="""\
  - name: count_turns
    before: turn
    do: [set me.count += 1]""")
    engine = Engine(load_ruleset(path))
    state = engine.new_game(4, 1)
    assert state.pvars["count"] == [1, 0, 0, 0]
    engine.apply(state, engine.legal_actions(state)[0])
    assert state.pvars["count"] == [1, 1, 0, 0]


def test_a_trigger_may_have_after_or_before_but_not_both(tmp_path: Path) -> None:
    path = ruleset(tmp_path, triggers="""\
  - name: twice
    after: move
    before: turn
    do: []""")
    [d] = check_files([str(path)])
    assert d.message == "expected exactly one of: after, before"


def test_a_phase_is_played_only_when_its_condition_holds(tmp_path: Path) -> None:
    phases = PLAY.format(extra='      when: "round == 2"', step="", do="").replace(
        "name: play\n", "name: extra\n", 1).replace("- name: play\n              label",
                                                      "- name: extra_play\n              label")
    phases += PLAY.format(extra="", step="", do="")
    path = ruleset(tmp_path, phases=phases, scoring="  rounds: 2\n  round: [{name: n, score: '0'}]")
    engine = Engine(load_ruleset(path))
    state = engine.new_game(4, 1)
    assert engine.rules.phases[state.phase].name == "play"  # round 1: the first is skipped
    while state.round == 1:
        engine.apply(state, engine.legal_actions(state)[0])
    assert engine.rules.phases[state.phase].name == "extra"


TEAMS = "teams: 2"


def test_teams_score_together_and_win_together(tmp_path: Path) -> None:
    path = ruleset(tmp_path, top=TEAMS, low=4, scoring="""\
  by: team
  winner: highest
  round:
    - {name: cards, score: "sum(size(hand[q]) + 10 * q.team for q in team(p))"}""")
    engine = Engine(load_ruleset(path))
    state = engine.new_game(4, 1)
    assert state.totals == [0, 0, 0, 0]
    assert [list(r) for r in [[q + 1 for q in range(4) if q % 2 == p % 2] for p in range(2)]] \
        == [[1, 3], [2, 4]]
    finished = play_game(engine, 4, 1)
    # team 1 (seats 1, 3): 10 + 10; team 2 (seats 2, 4): 20 + 20; hands empty at the end.
    assert finished.totals == [20, 40, 20, 40]
    assert engine.results(finished)["winners"] == [2, 4]


@pytest.mark.parametrize(("top", "text", "message"), [
    ("", 'score: "size(team(p))"', "this ruleset declares no teams"),
    ("", 'score: "p.team"', "this ruleset declares no teams"),
    ("teams: 3", 'score: "0"', "3 teams cannot share 4 players equally"),
])
def test_teams_are_checked(top: str, text: str, message: str, tmp_path: Path) -> None:
    path = ruleset(tmp_path, top=top, scoring=f"  round: [{{name: n, {text}}}]", low=4)
    [d] = check_files([str(path)])
    assert message in d.message and d.location is not None


def test_a_trick_zone_remembers_who_played_each_card(tmp_path: Path) -> None:
    rest = """\
functions:
  - name: taker
    value: "trick_winner(pile, 'hearts').played_by"
  - name: led
    value: led_suit(pile)"""
    path = ruleset(tmp_path, rest=rest)
    engine = Engine(load_ruleset(path))
    state = engine.new_game(4, 3)
    for _ in range(4):
        engine.apply(state, engine.legal_actions(state)[0])
    names = engine.rules.cards.names
    pile = state.zones[engine.rules.zone("pile").index]
    assert [state.by[c] for c in pile] == [0, 1, 2, 3]
    ns = engine.rules.moves["play"].run.__globals__
    suits, ranks = engine.rules.cards.suit, engine.rules.cards.rank
    hearts = [c for c in pile if names[c].endswith("H")]
    expected = max(hearts, key=lambda c: ranks[c]) if hearts else max(
        (c for c in pile if suits[c] == suits[pile[0]]), key=lambda c: ranks[c])
    assert ns["f_taker"](state) == state.by[expected]
    assert ns["f_led"](state) == suits[pile[0]]


def test_bids_from_a_range_the_state_decides(tmp_path: Path) -> None:
    """A numeric choice from 0 to the cards in hand, the last bidder barred from making the
    bids add up: an ordinary domain with `where`."""
    phases = """\
    - name: bidding
      turns: each_once
      steps:
        - name: bid
          moves:
            - name: bid
              label: "Bid {n}"
              choose:
                n: >-
                  numbers(0, size(hand[me])) where
                  bids_made < size(players) - 1 or n + sum(q.count for q in others) != 2
              do: [set me.count = n, set bids_made += 1]
""" + PLAY.format(extra="", step="", do="")
    path = ruleset(tmp_path, phases=phases)
    assert check_files([str(path)]) == []
    engine = Engine(load_ruleset(path))
    state = engine.new_game(2, 1)
    assert [a[1] for a in engine.legal_actions(state)] == [0, 1, 2]
    engine.apply(state, ("bid", 1))
    assert [a[1] for a in engine.legal_actions(state)] == [0, 2]  # 1 would make it add up


def test_a_ruleset_where_no_phase_is_ever_played_says_so(tmp_path: Path) -> None:
    path = ruleset(tmp_path, extra='      when: "false and round > 0"')
    with pytest.raises(RuleRuntimeError, match="no phase is played"):
        Engine(load_ruleset(path)).new_game(4, 1)


def test_a_turn_to_pending_when_its_phase_ends_is_dropped() -> None:
    # `turn to` then `end phase` in one move: the each_once phase after it gives every seat
    # one turn from the round's first (it once gave the named seat two and the dealer none),
    # and validate says what happens to the pending turn
    from pathlib import Path

    from cardrules.dsl.loader import check_files, load_ruleset
    from cardrules.interpreter.engine import Engine

    path = Path(__file__).resolve().parent / "data" / "pending_turn.yaml"
    (hint,) = check_files([str(path)], hints=True)
    assert hint.hint and "dropped" in hint.message
    for compiled in (True, False):
        engine = Engine(load_ruleset(path), compiled=compiled)
        state = engine.new_game(3, 1)
        order = []
        while not state.over:
            order.append((state.phase, engine.to_move(state)))
            engine.apply(state, engine.legal_actions(state)[0])
        assert order == [(0, 0), (1, 0), (1, 1), (1, 2)]
        assert state.pvars["turns_b"] == [1, 1, 1]
