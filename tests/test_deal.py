"""A given deal: games started from stated cards (interpreter/deal.py, dsl/deal_file.py).

The stacked deck (each shuffle's order, top card first) and the named zones deal what they
say, for one round or many; a deal file's every mistake is reported where it was written
(tests/broken/deals/, each saying on its first line what must be reported); a stated order
that does not fit the cards shuffled is refused with its place in the file; saves keep the
deal, and older saves without one still resume; `cardrules run --deal` plays from it.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardrules.cli.main import main
from cardrules.dsl.deal_file import parse_deal, read_deal
from cardrules.dsl.loader import load_ruleset
from cardrules.errors import GameError, RulesetError
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.sessions import record
from cardrules.interpreter.sessions.record import Record
from cardrules.interpreter.state import GameState

TESTS = Path(__file__).resolve().parent
BROKEN = sorted((TESTS / "broken" / "deals").glob("*.yaml"))
EXPECT = re.compile(r"# expect-error: (\d+):(\d+) (.+)")
GIN = load_ruleset("gin-rummy")
HAND1 = ["3D", "4H", "AS", "JD", "QD", "KD", "2S", "3S", "4S", "5S"]
HAND2 = ["6C", "7C", "8H", "9H", "10H", "2C", "2D", "2H", "KC", "QC"]
ZONES = {"zones": {"hand[1]": HAND1, "hand[2]": HAND2, "upcard": ["5C"],
                   "stock": ["9S", "8S"]}}


def names(rules: object, cards: list[int]) -> list[str]:
    return [rules.cards.names[c] for c in cards if c >= 0]  # type: ignore[attr-defined]


def dealt(rules: object, state: GameState, zone: str, seat: int | None = None) -> list[str]:
    z = rules.zone(zone).zone_of(seat if seat is not None else 0)  # type: ignore[attr-defined]
    return names(rules, state.zones[z])


def test_named_zones_hold_what_the_deal_names() -> None:
    deal = parse_deal(json.dumps(ZONES), "hand.json", GIN, 2)
    state = Engine(GIN).new_game(2, 5, deal=deal)
    assert dealt(GIN, state, "hand", 0) == HAND1
    assert dealt(GIN, state, "hand", 1) == HAND2
    assert dealt(GIN, state, "upcard") == ["5C"]
    assert dealt(GIN, state, "stock")[-2:] == ["8S", "9S"]  # a stack keeps its top last
    # what the game keeps is the stacked deck that deals it: the whole deck, once
    assert len(state.deal.shuffles) == 1 and sorted(state.deal.shuffles[0]) == \
        sorted(GIN.cards.names[:52])


def test_the_cards_not_named_come_from_the_seed() -> None:
    deal = parse_deal(json.dumps({"zones": {"hand[1]": HAND1}}), "hand.json", GIN, 2)
    engine = Engine(GIN)
    one, again, other = (engine.new_game(2, seed, deal=deal) for seed in (1, 1, 2))
    assert dealt(GIN, one, "hand", 0) == dealt(GIN, other, "hand", 0) == HAND1
    assert dealt(GIN, one, "hand", 1) == dealt(GIN, again, "hand", 1)
    assert dealt(GIN, one, "hand", 1) != dealt(GIN, other, "hand", 1)


def test_a_card_the_setup_sets_aside_before_shuffling_stays_aside() -> None:
    """hanabi's setup puts the copies beyond the game's 50 cards aside, then shuffles: named
    cards are dealt from the 50 (they were taken from all 75, and the deal failed, naming a
    card the file did not), and naming a card more often than the 50 hold it says so."""
    hanabi = load_ruleset("hanabi")
    ones = ["1R", "1Y", "1G", "1B", "1W"]
    for seed in range(6):
        deal = parse_deal(json.dumps({"zones": {"hand[1]": ones}}), "hand.json", hanabi, 3)
        state = Engine(hanabi).new_game(3, seed, deal=deal)
        assert dealt(hanabi, state, "hand", 0) == ones
        assert sorted(dealt(hanabi, state, "unused")) == \
            sorted(dealt(hanabi, Engine(hanabi).new_game(3, seed), "unused"))
    fives = parse_deal(json.dumps({"zones": {"hand[1]": ["5R", "5R", "1Y", "1G", "1B"]}}),
                       "hand.json", hanabi, 3)
    with pytest.raises(GameError, match=r"5R is named more often than the setup's shuffles "
                                        r"hold it \(1\)"):
        Engine(hanabi).new_game(3, 1, deal=fives)


def test_a_stacked_deck_deals_round_after_round_then_the_seed_shuffles() -> None:
    rules = load_ruleset("golf6", {"rounds": "3"})
    engine = Engine(rules)
    deck = list(rules.cards.names[:54])
    rng = random.Random(3)
    orders = [rng.sample(deck, len(deck)) for _ in range(2)]
    deal = parse_deal(json.dumps({"shuffles": orders}), "match.json", rules, 4)
    state = engine.new_game(4, 9, deal=deal)
    first_hands = [dealt(rules, state, "grid", p) for p in range(4)]
    seen_rounds = []
    play = random.Random(1)
    while not state.over:
        if state.round != (seen_rounds[-1] if seen_rounds else None):
            seen_rounds.append(state.round)
        engine.apply(state, play.choice(engine.legal_actions(state)))
    assert state.dealt == 2 and len(seen_rounds) == 3
    # The first order is the deck from the top: the deal takes its cards in turn.
    assert sorted(c for hand in first_hands for c in hand) == sorted(orders[0][:24])


def test_an_order_that_does_not_fit_the_shuffled_cards_is_refused_with_its_place() -> None:
    order = list(GIN.cards.names[:52])
    text = json.dumps({"shuffles": [order[:51]]})
    deal = parse_deal(text, "short.json", GIN, 2)
    with pytest.raises(GameError, match=r"short.json:1:\d+: shuffle 1: 51 cards, but 52 "):
        Engine(GIN).new_game(2, 1, deal=deal)


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.stem)
def test_each_broken_deal_file_is_reported_where_the_mistake_is(path: Path) -> None:
    match = EXPECT.match(path.read_text(encoding="utf-8").splitlines()[0])
    assert match, f"{path.name} says nothing of what to expect"
    line, column, message = int(match.group(1)), int(match.group(2)), match.group(3)
    with pytest.raises(RulesetError) as caught:
        read_deal(path, GIN, 2)
    first = caught.value.diagnostics[0]
    assert first.location is not None
    assert (first.location.line, first.location.column) == (line, column), first.format()
    assert message in first.message


def test_there_are_broken_deal_files() -> None:
    assert len(BROKEN) >= 10


def test_a_deal_file_too_large_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text("zones: {}\n" + "#" * 1_100_000, encoding="utf-8")
    with pytest.raises(RulesetError, match="too large"):
        read_deal(path, GIN, 2)


def test_a_save_keeps_the_deal_and_resumes_it(tmp_path: Path) -> None:
    engine = Engine(GIN)
    deal = parse_deal(json.dumps(ZONES), "hand.json", GIN, 2)
    state = engine.new_game(2, 5, deal=deal)
    rec = Record.new("gin-rummy", {}, GIN, 2, 5, ["human", "human"],
                     deal=record.dealt_from(state))
    rec.bots = [None, None]
    play = random.Random(2)
    for _ in range(12):
        action = play.choice(engine.legal_actions(state))
        rec.actions.append(record.action_data(action))
        engine.apply(state, action)
    path = tmp_path / "game.json"
    record.write(path, rec)
    assert json.loads(path.read_text())["deal"] == rec.deal
    saved = record.read(path)
    again_engine, again = record.start(saved, load_ruleset)
    record.replay(saved, again_engine, again)
    assert again.zones == state.zones


def test_a_save_without_a_deal_has_no_deal_entry_and_a_damaged_one_is_refused() -> None:
    rec = Record.new("gin-rummy", {}, GIN, 2, 5, ["human", "human"])
    rec.bots = [None, None]
    data = rec.to_data()
    assert "deal" not in data
    data["deal"] = [["AS", 7]]
    with pytest.raises(GameError, match="its deal"):
        record.from_data(data)
    data["deal"] = [["AS"]]  # the right shape, but not the cards the stock holds
    with pytest.raises(GameError, match="its deal, shuffle 1: 1 cards, but 52 are shuffled there"):
        record.start(record.from_data(data), load_ruleset)


def test_an_older_save_still_resumes() -> None:
    rec = Record.new("gin-rummy", {}, GIN, 2, 5, ["human", "human"])
    rec.bots = [None, None]
    data = rec.to_data()
    data["format"] = record.OLDER
    data["digest"] = record.fingerprint(GIN, with_options=False)
    engine, state = record.start(record.from_data(data), load_ruleset)
    assert state.deal is None and not state.over


def test_a_search_sample_does_not_foresee_the_stated_shuffles() -> None:
    deal = parse_deal(json.dumps(ZONES), "hand.json", GIN, 2)
    state = Engine(GIN).new_game(2, 5, deal=deal)
    sample = state.copy()
    assert sample.deal is state.deal
    sample.reseed(7)
    assert sample.deal is None


def test_run_deal_plays_from_the_file_and_reports_a_broken_one(tmp_path: Path) -> None:
    path = tmp_path / "hand.yaml"
    path.write_text(json.dumps(ZONES), encoding="utf-8")
    runner = CliRunner()
    done = runner.invoke(main, ["run", "gin-rummy", "--deal", str(path), "--reveal"])
    assert done.exit_code == 0, done.output
    assert "3D" in done.output
    broken = TESTS / "broken" / "deals" / "unknown_zone.yaml"
    failed = runner.invoke(main, ["run", "gin-rummy", "--deal", str(broken)])
    assert failed.exit_code == 1
    assert f"{broken}:4:3: no zone 'hnd': did you mean 'hand'?" in failed.output
    assert "Traceback" not in failed.output
    missing = runner.invoke(main, ["run", "gin-rummy", "--deal", str(tmp_path / "none.yaml")])
    assert missing.exit_code == 1 and "cannot read the deal" in missing.output
    (tmp_path / "bytes.yaml").write_bytes(b"\xff\xfe bad")
    binary = runner.invoke(main, ["run", "gin-rummy", "--deal", str(tmp_path / "bytes.yaml")])
    assert binary.exit_code == 1 and "not a deal file (not UTF-8 text)" in binary.output


def test_a_grid_is_named_in_reading_order() -> None:
    rules = load_ruleset("golf6")
    deck = list(rules.cards.names[:54])
    deal = parse_deal(json.dumps({"zones": {"grid[1]": deck[:6]}}), "grid.json", rules, 4)
    state = Engine(rules).new_game(4, 1, deal=deal)
    assert dealt(rules, state, "grid", 0) == deck[:6]


def test_a_deal_file_of_one_huge_line_is_quoted_around_the_fault(tmp_path: Path) -> None:
    """A number of 100,000 digits: the message shows a window of its line, not all of it."""
    path = tmp_path / "digits.yaml"
    path.write_text("shuffles:\n  - [" + "9" * 100_000 + "]\n", encoding="utf-8")
    failed = CliRunner().invoke(main, ["run", "golf6", "-p", "2", "--deal", str(path)])
    assert failed.exit_code == 1 and f"{path}:2:6: this number is far too long" in failed.output
    assert len(failed.output) < 500, len(failed.output)


# A golf6 deal: seat 1's grid, seat 2's and the discard pile's card stated, the rest seeded.
GOLF_DEAL = "zones:\n  grid[1]: [AS, AH, AD, AC, 2S, 2H]\n  grid[2]: [KS, KH, KD, KC, QS, " \
            "QH]\n  discard: [5C]\n"
GOLF_GAME = ["run", "golf6", "-p", "2", "--human", "1", "--seats", "human,random", "--seed",
             "4", "--plain", "--deal"]


def test_a_decision_is_taken_back_in_a_game_from_a_deal(tmp_path: Path) -> None:
    """The game is dealt again as it was dealt (its deal, not its seed alone) to take a
    decision back: two cards turned, the discard taken, taken back."""
    path = tmp_path / "d1.yaml"
    path.write_text(GOLF_DEAL, encoding="utf-8")
    result = CliRunner().invoke(main, [*GOLF_GAME, str(path)], input="1\n1\n2\ntakeback\n")
    assert "Taken back: Take the top card of the discard pile. Decide again." in result.output
    assert "refused" not in result.output


def test_a_resumed_game_from_a_deal_takes_a_decision_back_in_the_browser(
        tmp_path: Path) -> None:
    pytest.importorskip("starlette", reason="the web extra is not installed")
    from starlette.testclient import TestClient

    from cardrules.web.game import Game
    from cardrules.web.server import Hub, make_app

    deal, save = tmp_path / "d1.yaml", tmp_path / "d1.save"
    deal.write_text(GOLF_DEAL, encoding="utf-8")
    quit_ = CliRunner().invoke(main, [*GOLF_GAME, str(deal), "--save", str(save)],
                               input="1\n1\nquit\ny\n")
    assert quit_.exit_code == 0, quit_.output
    game = Game.resume(save)
    hub = Hub(delay=0.0)
    hub.add(game)
    with TestClient(make_app(hub)) as client:
        me = f"/api/seat/{game.tokens[0]}"
        page = client.get(me).json()
        discard = next(c for c in page["choices"] if "discard pile" in c["text"])
        before = game.state.to_json()
        moved = client.post(f"{me}/move", json={"version": page["version"],
                                                  "index": discard["index"]})
        assert moved.status_code == 200, moved.text
        answer = client.post(f"{me}/takeback", json={})
        assert answer.status_code == 200, answer.text
        assert game.state.to_json() == before


def test_a_take_back_that_cannot_be_replayed_changes_nothing(tmp_path: Path) -> None:
    """Were the game not to replay to the decision (here: a record altered under it), the
    take-back is refused, the game and the decisions that may be taken back as they were;
    in the browser a refusal (409), never a server's fault (500)."""
    pytest.importorskip("starlette", reason="the web extra is not installed")
    from starlette.testclient import TestClient

    from cardrules.web.game import Game
    from cardrules.web.server import Hub, make_app

    game = Game.new("golf6", {"rounds": "1"}, 2, 5, ["human", "random"])
    for _ in range(4):  # both seats turn two cards
        seat = game.to_move()
        assert seat is not None
        game.play(seat, game.legal()[0], chosen=seat == 0)
    game.play(0, ("take_discard",), chosen=True)
    game.record.actions[0] = ["reveal", 53]  # no longer the game's first action
    actions, marks, state = list(game.record.actions), list(game.takeback.marks), \
        game.state.to_json()
    hub = Hub(delay=0.0)
    hub.add(game)
    with TestClient(make_app(hub)) as client:
        answer = client.post(f"/api/seat/{game.tokens[0]}/takeback", json={})
    assert answer.status_code == 409, answer.text
    assert "cannot be dealt again to that decision" in answer.json()["error"]
    assert (game.record.actions, game.takeback.marks, game.state.to_json()) == \
        (actions, marks, state)


def test_the_end_of_a_game_from_a_deal_says_what_deals_it_again(tmp_path: Path) -> None:
    """A game from a given deal names its deal file with its seed at the end (its seed
    alone deals another game), and that deals it again: the same choices, the same end. A
    resumed one, whose save holds the deal and not its file's name, says to give the file."""
    path = tmp_path / "my deal.yaml"
    path.write_text(GOLF_DEAL, encoding="utf-8")
    # (a person who always takes the first choice: enough lines for the longest such game)
    game = ["run", "golf6", "-p", "2", "-o", "rounds=1", "--human", "1", "--plain",
            "--deal", str(path)]
    first = CliRunner().invoke(main, game, input="1\n" * 2000)
    assert first.exit_code == 0, first.output
    found = re.search(r"Game over\. Its seed was (\d+): --deal (.+) --seed (\d+) deal it "
                      r"again\.\n", first.stdout)
    assert found and found.group(1) == found.group(3), first.stdout
    assert found.group(2) == f"'{path}'"  # (quoted: as typed at a shell)
    again = CliRunner().invoke(main, [*game, "--seed", found.group(1)], input="1\n" * 2000)
    assert again.stdout.split("Game over.")[1] == first.stdout.split("Game over.")[1]
    save = tmp_path / "g.save"
    CliRunner().invoke(main, [*game, "--seed", "4", "--save", str(save)], input="1\nquit\ny\n")
    resumed = CliRunner().invoke(main, ["resume", str(save), "--plain"], input="1\n" * 2000)
    assert "Game over. Its seed was 4: --deal with the file it was dealt from and --seed 4 " \
        "deal it again." in resumed.stdout


SORTING = """\
cardrules: 1
name: sorting
players: {min: 2, max: 2}
deck: {zone: stock}
zones:
  - {name: stock, visibility: hidden}
  - {name: pile, visibility: public}
  - {name: hand, owner: each, visibility: owner, layout: row}
round:
  setup:
    - shuffle stock
    - deal 5 from stock to each hand face down
    - for: p in players
      do: ["move select(c for c in hand[p] if c.suit == 'spades') to pile face up"]
  phases:
    - name: play
      turns: each_once
      steps:
        - name: s
          moves:
            - {name: show, do: ["flip cards(hand[me]) face up"]}
"""


@pytest.mark.parametrize("named", [["2H", "3H", "4H", "5H", "6H"], ["2H", "3H", "4H"]])
def test_a_setup_that_depends_on_its_cards_says_so_whatever_is_named(tmp_path: Path,
                                                                     named: list[str]) -> None:
    """A setup that moves a hand's spades away leaves it as many cards as it deals it no
    spade: the count the trial deal saw is no count of the rules', so the refusal says the
    setup depends on its cards (give the shuffles), never that the setup puts N there; and
    a row named is its whole: more cards dealt there than named is refused too."""
    rules_path = tmp_path / "sorting.yaml"
    rules_path.write_text(SORTING, encoding="utf-8")
    rules = load_ruleset(rules_path)
    deal = parse_deal(json.dumps({"zones": {"hand[1]": named}}), "named.json", rules, 2)
    for seed in range(6):
        with pytest.raises(GameError, match="setup depends on which cards it deals"):
            Engine(rules).new_game(2, seed, deal=deal)
