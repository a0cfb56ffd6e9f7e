"""What a round's setup did, told: cards exchanged before play (tests/data/pass_left.yaml).

The setup deals three cards to each hand, then passes each hand's top card to the next
player by way of the passer's own passing pile. `run --reveal` prints the deal and the
exchange before the table they leave; each seat's news names a passed card only to the
passer and the receiver; the table's log file names none of them.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from cardrules.cli.main import main
from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.sessions.play import play_game
from cardrules.present.news import news

PASS_LEFT = str(Path(__file__).resolve().parent / "data" / "pass_left.yaml")


def passes(engine: Engine, log: list[dict]) -> list[tuple[int, int, str]]:
    """(passer, receiver, card) of each card passed: read from the whole truth (the told
    words of the receiver, who always knows it)."""
    out = []
    for event in log:
        if event.get("effect") == "move" and event["from"].startswith("passing["):
            receiver = int(event["to"][5:-1]) - 1
            out.append((int(event["from"][8:-1]) - 1, receiver, event["told"][receiver]))
    return out


def test_each_seat_is_told_the_cards_passed_that_it_knows_and_no_other() -> None:
    engine = Engine(load_ruleset(PASS_LEFT))
    state = play_game(engine, players=3, seed=4, log=True)
    assert state.log is not None
    passed = passes(engine, state.log)
    assert len(passed) == 3 and all(card for _, _, card in passed)
    for seat in range(3):
        told = [n for n in news(engine.rules, state.log, seat) if n.text == "before play:"]
        assert len(told) == 1
        text = "\n".join(told[0].then)
        for passer, receiver, card in passed:
            assert (card in text) == (seat in (passer, receiver)), (seat, card, text)


def test_reveal_prints_the_deal_and_the_exchange_before_the_table() -> None:
    result = CliRunner().invoke(main, ["run", PASS_LEFT, "--seed", "4", "--reveal",
                                       "--plain"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    start = lines.index("Round 1, dealer seat 3:")
    setup = [line for line in lines[start + 1:] if line.startswith("  setup:")]
    assert setup[0] == "  setup: the stock is shuffled"
    dealt = [line for line in setup if "from the stock to seat" in line]
    assert len(dealt) == 3 and all(len(line.split(" go ")[0].split()) == 4 for line in dealt)
    exchanged = [line for line in setup if "passing to seat" in line]
    assert len(exchanged) == 3 and "a card" not in " ".join(exchanged)
    after = lines.index("  the table after the setup:")
    assert start < after < lines.index(next(line for line in lines if "shown" in line
                                            and "seat 1" in line and "hand" in line))


def test_the_tables_log_names_no_passed_card(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    result = CliRunner().invoke(main, ["run", PASS_LEFT, "--seed", "4", "--log", str(path)],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in path.read_text().splitlines()]
    moved = [e for e in events if e.get("effect") == "move" and "passing" in e["from"]]
    assert len(moved) == 3 and all(e["card"] is None and "told" not in e for e in moved)
