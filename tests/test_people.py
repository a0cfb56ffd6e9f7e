"""A game with people at its seats, as the terminal and the browser both hold one
(interpreter/sessions/people.py): a person's lone choice is found, played for them and
recorded by the one runtime, each front end saying only how it tells the news."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from cardrules.dsl.loader import load_referenced, load_ruleset
from cardrules.interpreter.engine import PASS, Engine
from cardrules.interpreter.players.bots import Bot
from cardrules.interpreter.sessions import people, record
from cardrules.interpreter.sessions.events import Event, round_ends
from cardrules.interpreter.sessions.people import Lone, PeoplesGame
from cardrules.interpreter.sessions.record import HUMAN, Record, action_data, make_bots
from cardrules.interpreter.sessions.takeback import TakeBack
from cardrules.interpreter.sessions.windows import Windows
from cardrules.interpreter.state import GameState
from cardrules.present.news import news

SEATS = [HUMAN, "random", "random"]


@dataclass
class Heard(PeoplesGame):
    """A front end that keeps what it is asked to tell, as it is asked."""

    record: Record
    engine: Engine
    state: GameState
    bots: list[Bot | None]
    windows: Windows
    takeback: TakeBack = field(default_factory=TakeBack)
    lone_from: dict[int, set[bytes]] = field(default_factory=dict)
    told: list[tuple[list[Event], Lone | None]] = field(default_factory=list)
    decisions: list[int] = field(default_factory=list)

    def tell(self, events: list[Event], lone: Lone | None = None) -> None:
        self.told.append((events, lone))

    def decided(self, seat: int) -> None:
        self.decisions.append(seat)


def heard(saved: Record, engine: Engine, state: GameState, bots: list[Bot | None]) -> Heard:
    return Heard(saved, engine, state, bots,
                 Windows.of(p for p, kind in enumerate(saved.seats) if kind == HUMAN))


def new_game(name: str, seed: int) -> Heard:
    engine = Engine(load_ruleset(name))
    state = engine.new_game(len(SEATS), seed, log=round_ends())
    saved = Record.new(name, {}, engine.rules, state.n, seed, list(SEATS))
    return heard(saved, engine, state, make_bots(SEATS, seed))


def to_lone_choice(game: Heard) -> list:
    """Play (the bots theirs, the person the first of theirs) until the person's decision
    is a lone choice; its legal actions."""
    for _ in range(2000):
        legal = game.engine.legal_actions(game.state)
        seat = game.engine.to_move(game.state)
        assert legal and seat is not None, "the game ended before a lone choice"
        bot = game.bots[seat]
        if bot is None and game.lone(seat, legal) is not None:
            return legal
        game.step(seat, bot.choose(game.engine, game.state, legal) if bot else legal[0],
                  chosen=bot is None)
    raise AssertionError("no lone choice")


def test_a_persons_lone_choice_is_played_recorded_and_told_by_the_one_runtime() -> None:
    game = new_game("grandma", 1)
    legal = to_lone_choice(game)
    action = legal[0]
    words = game.engine.words.describe(action, game.state, 0)
    marks, actions = len(game.takeback.marks), len(game.record.actions)
    assert game.play_lone(0, legal)
    # recorded as any action (a save holds it), no decision of theirs to take back
    assert game.record.actions[actions:] == [action_data(action)]
    assert len(game.takeback.marks) == marks
    events, lone = game.told[-1]
    assert lone == Lone(0, words) and words.startswith("Discard ")
    # told, by the words layer, in the words they would have read it in
    rules = game.engine.rules
    assert news(rules, events, 0, lone=lone)[0].text == f"your only choice: {words}"
    assert not news(rules, events, 1, lone=lone)[0].text.startswith("your only choice")
    # a bot's seat, a text to write, a chance to react: never played for a person
    assert game.lone(1, legal) is None
    assert game.lone(0, [PASS]) is None
    assert not game.play_lone(1, legal)


def test_a_lone_choice_is_asked_where_another_person_sits_at_the_table() -> None:
    """Whether a seat has one choice or several hangs on its hidden cards: played at once, it
    would tell another person at the table (no hand-over, no wait) what the cards did."""
    game = new_game("grandma", 1)
    legal = to_lone_choice(game)
    assert game.lone(0, legal) == legal[0]
    game.windows = Windows.of([0, 2])  # a second person at seat 3
    assert game.lone(0, legal) is None
    assert not game.play_lone(0, legal)


def test_a_lone_choice_needing_words_is_still_asked() -> None:
    game = new_game("precognition", 1)
    legal = game.engine.legal_actions(game.state)
    seat = game.engine.to_move(game.state)
    assert seat == 0 and len(legal) == 1 and game.lone(0, legal) is None


def test_a_saved_lone_choice_is_told_so_again_when_the_save_is_replayed(tmp_path: Path) -> None:
    game = new_game("grandma", 1)
    game.play_lone(0, to_lone_choice(game))
    path = tmp_path / "grandma.cardrules-save"
    record.write(path, game.noted())
    again = people.resume(path, None, load_referenced, heard)
    assert again.state.to_json() == game.state.to_json()
    assert [lone for _, lone in again.told if lone is not None] == \
        [lone for _, lone in game.told if lone is not None]
    # every other action was a decision (a bot's or the person's), read as such
    assert len(again.decisions) == len(game.record.actions) - 1


def test_a_decision_that_could_be_taken_back_can_be_after_the_game_is_resumed(
        tmp_path: Path) -> None:
    """golf6: the person turns their cards and takes the discard; saved and resumed, they may
    take it back as they could have before, to the same game (the bots' streams as they were),
    and what could not be taken back before cannot be after either."""
    game = new_game("golf6", 3)
    for _ in range(200):  # to the person's decision to take the discard, the first after
        seat = game.engine.to_move(game.state)  # a bot has acted
        legal = game.engine.legal_actions(game.state)
        bot = game.bots[seat]
        if bot is None and ("take_discard",) in legal and game.takeback.marks:
            break
        game.step(seat, bot.choose(game.engine, game.state, legal) if bot else legal[0],
                  chosen=bot is None)
    game.step(0, ("take_discard",), chosen=True)
    assert game.takeback.refusal(game.state, 0, 1) is None
    path = tmp_path / "golf6.cardrules-save"
    record.write(path, game.noted())
    again = people.resume(path, None, load_referenced, heard)
    assert again.takeback.refusal(again.state, 0, 1) is None
    assert len(again.takeback.marks) == len(game.takeback.marks)
    assert again.takeback.answered == game.takeback.answered
    before, _ = game.takeback.take(game.record, game.engine, game.bots, round_ends())
    after, undone = again.takeback.take(again.record, again.engine, again.bots, round_ends())
    assert undone == ["take_discard"] and after.to_json() == before.to_json()
    assert [record.bot_stream(b) for b in again.bots] == [record.bot_stream(b) for b in game.bots]
    # the decision before it cannot be taken back, after the resume as before
    refusal = again.takeback.refusal(after, 0, 1)
    assert refusal is not None and refusal == game.takeback.refusal(before, 0, 1)


def test_a_resumed_game_plays_again_only_the_decisions_that_may_be_taken_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whether what came of a decision hung on unseen cards (eight games played again) is
    worked out only when asked whether it may be taken back: resuming a save replays every
    decision, and only the last, unanswered, may be (a 60,000-action save took a minute)."""
    game = new_game("golf6", 3)
    for _ in range(120):
        seat = game.engine.to_move(game.state)
        legal = game.engine.legal_actions(game.state)
        bot = game.bots[seat]
        game.step(seat, bot.choose(game.engine, game.state, legal) if bot else legal[0],
                  chosen=bot is None)
    path = tmp_path / "golf6.cardrules-save"
    record.write(path, game.noted())
    played: list[int] = []
    real = people.revealing

    def counted(*args: object) -> bool:
        played.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(people, "revealing", counted)
    again = people.resume(path, None, load_referenced, heard)
    assert len(again.takeback.marks) > 10 and not played
    for _ in range(3):
        again.takeback.refusal(again.state, 0, 1)
    assert len(played) <= 1
    assert again.takeback.refusal(again.state, 0, 1) == game.takeback.refusal(game.state, 0, 1)


def test_any_other_seats_action_ends_the_chance_to_take_back_however_many_it_had() -> None:
    """Whether a bot had one legal action or several hangs on its hidden cards: had only a
    choice among several ended the person's chance to take a decision back, the offer told
    them which (a dou-dizhu bot that could not beat the lead). Any action of another seat
    ends it, a lone one too; the person's own (their only choice, played) does not."""
    takeback = TakeBack()
    takeback.keep(TakeBack.mark(Record.new("golf6", {}, Engine(load_ruleset("golf6")).rules,
                                           3, 1, list(SEATS)), [None, None, None],
                                Engine(load_ruleset("golf6")).new_game(3, 1), 0))
    takeback.acted({0})
    assert takeback.answered == 0
    takeback.acted({1})  # whether it had one action or twenty
    assert takeback.answered == 1


def test_an_automatic_step_the_engine_plays_for_another_seat_counts_as_its_action() -> None:
    """spades plays a seat's only card of the suit led for it (an automatic step): whether
    it was played so or chosen hangs on that seat's hand, so it ends the chance as well."""
    engine = Engine(load_ruleset("spades"))
    seats = [HUMAN, "random", "random", "random"]
    for seed in range(40):
        state = engine.new_game(4, seed, log=round_ends())
        saved = Record.new("spades", {}, engine.rules, 4, seed, list(seats))
        game = heard(saved, engine, state, make_bots(seats, seed))
        while (seat := engine.to_move(state)) is not None:
            legal = engine.legal_actions(state)
            bot = game.bots[seat]
            if bot is not None:
                game.step(seat, bot.choose(engine, state, legal))
                continue
            forced = state.forced
            game.step(seat, legal[0], chosen=True)
            if state.forced > forced and engine.to_move(state) != 0:
                # the engine played on for a bot: the decision may not be taken back
                assert game.takeback.answered == len(game.takeback.marks), seed
                return
    raise AssertionError("no card played for a bot after the person's in 40 deals")


SHUTTLE = """
cardrules: 1
name: shuttle
players: {min: 1, max: 1, default: 1}
max_actions: 200
deck: {ranks: [A, "2"], suits: [spades], zone: stock}
zones:
  - {name: stock, visibility: public, layout: row}
  - {name: left, visibility: public, layout: stack}
  - {name: right, visibility: public, layout: stack}
variables:
  - {name: trips, scope: round, initial: 0}
round:
  setup: ["flip cards(stock) face up"]
  phases:
    - name: play
      turns: rotate
      steps:
        - name: move
          moves:
            - name: start
              label: "Play {card}"
              when: "size(left) + size(right) == 0"
              choose: {card: "cards(stock)"}
              do: ["move card to left face up"]
            - name: carry
              label: "Carry the card across"
              when: "size(left) > size(right)"
              do: ["move top(left) to right face up", "set trips += 1"]
            - name: back
              label: "Bring the card back"
              when: "size(right) > size(left)"
              do: ["move top(right) to left face up", "set trips += 1"]
scoring:
  winner: lowest
  round:
    - {name: left, score: "size(left)"}
"""


def test_lone_choices_that_go_round_in_a_circle_are_asked(tmp_path: Path) -> None:
    """After the person's decision only one move is ever legal, carrying the card across and
    back (and counting the trips): played for them, it would go on to the game's bound on
    actions, lost with nothing left to take back. Once a lone choice comes round to where
    the cards lay when one was played, the person is asked; their next decision starts
    again."""
    path = tmp_path / "shuttle.yaml"
    path.write_text(SHUTTLE, encoding="utf-8")
    engine = Engine(load_ruleset(str(path)))
    state = engine.new_game(1, 0, log=round_ends())
    saved = Record.new("shuttle", {}, engine.rules, 1, 0, [HUMAN])
    game = heard(saved, engine, state, make_bots([HUMAN], 0))
    legal = engine.legal_actions(state)
    assert len(legal) == 2
    game.step(0, legal[0], chosen=True)
    played = 0
    while game.play_lone(0, engine.legal_actions(state)):
        played += 1
        assert played < 10
    assert played == 2 and not state.over
    legal = engine.legal_actions(state)
    assert len(legal) == 1 and game.lone(0, legal) is None  # asked
    game.step(0, legal[0], chosen=True)  # the person plays it: their decision
    assert game.play_lone(0, engine.legal_actions(state))


PROBE = """
cardrules: 1
name: probe
players: {min: 2, max: 2, default: 2}
max_actions: 20
deck: {ranks: [A, K], suits: [spades, hearts], zone: stock}
zones:
  - {name: stock, visibility: hidden}
  - {name: hand, owner: each, visibility: owner}
  - {name: pit, visibility: hidden}
variables:
  - {name: found, scope: round, initial: false}
round:
  setup: [shuffle stock, deal 1 from stock to each hand face down]
  phases:
    - name: play
      turns: rotate
      steps:
        - name: act
          repeat: 2
          moves:
            - name: probe
              label: Probe
              do:
                - if: "any(top(hand[q]).rank == 'A' for q in others)"
                  then: [set found = true]
            - name: wait
              label: Wait
              do: []
            - name: bury
              label: "Bury {card}"
              choose: {card: "hand[next_player(me)]"}
              do: ["move card to pit face down"]
scoring:
  winner: highest
  round:
    - {name: zero, score: "0"}
"""


@pytest.mark.parametrize("seed", range(4))
def test_a_decision_whose_outcome_hung_on_unseen_cards_is_not_taken_back(
        tmp_path: Path, seed: int) -> None:
    """Probing says whether the other hand holds an ace: taking it back would let the person
    choose again knowing. Refused, whatever the probe found (the refusal tells nothing
    either); waiting, which shows nothing, may be taken back, and so may burying the other's
    unseen card face down, which shows nothing either (in the games played again to see,
    the card buried is the one lying in its place)."""
    path = tmp_path / "probe.yaml"
    path.write_text(PROBE, encoding="utf-8")
    engine = Engine(load_ruleset(str(path)))
    seats = [HUMAN, "random"]
    state = engine.new_game(2, seed, log=round_ends())
    saved = Record.new("probe", {}, engine.rules, 2, seed, seats)
    game = heard(saved, engine, state, make_bots(seats, seed))
    assert engine.to_move(state) == 0
    game.step(0, ("wait",), chosen=True)
    assert game.takeback.refusal(state, 0, 1) is None
    state, _ = game.takeback.take(game.record, engine, game.bots, round_ends())
    game.state = state
    bury = next(a for a in engine.legal_actions(state) if a[0] == "bury")
    game.step(0, bury, chosen=True)
    assert game.takeback.refusal(state, 0, 1) is None
    state, _ = game.takeback.take(game.record, engine, game.bots, round_ends())
    game.state = state
    game.step(0, ("probe",), chosen=True)
    problem = game.takeback.refusal(game.state, 0, 1)
    assert problem is not None and "hung on cards you had not seen" in problem


def test_a_lead_another_seat_might_have_followed_at_once_is_not_taken_back() -> None:
    """spades plays a seat's only card of the suit led at once (`automatic`): after the
    person's card, that the next seat is asked, not played for, tells it holds no lone card
    to follow with. Taking the card back would let the person lead again knowing: refused
    wherever the next decision is another seat's in that step (the games played again to
    see, eight, found the seat with a lone card in too few of them to be sure to)."""
    engine = Engine(load_ruleset("spades"))
    seats = [HUMAN, "random", "random", "random"]
    state = engine.new_game(4, 2, log=round_ends())
    saved = Record.new("spades", {}, engine.rules, 4, 2, seats)
    game = heard(saved, engine, state, make_bots(seats, 2))
    checked = 0
    while not game.state.over and checked < 6:
        state = game.state
        seat = engine.to_move(state)
        assert seat is not None
        legal = engine.legal_actions(state)
        bot = game.bots[seat]
        if bot is not None:
            game.step(seat, bot.choose(engine, state, legal))
            continue
        game.step(seat, legal[-1], chosen=True)
        after = game.state
        waits = not after.over and after.current != 0 and \
            engine.rules.phases[after.phase].steps[after.step].automatic
        problem = game.takeback.refusal(after, 0, 1)
        if waits:  # (refused: for this, unless for something seen first)
            assert problem is not None
            checked += "hung on cards you had not seen" in problem
    assert checked == 6
