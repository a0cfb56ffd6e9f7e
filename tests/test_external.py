"""External bots (interpreter/players/external.py): a program in a seat, speaking JSON lines.

The example bot of the README and docs/bots.md plays a whole game of every shipped ruleset;
programs that answer garbage, an illegal index or nothing at all are handled as the seat
kind says (forfeit, or a random player takes over); and what a program is sent is only
what its seat may know.
"""

from __future__ import annotations

import json
import random
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cardrules.cli.main import main
from cardrules.dsl.loader import load_ruleset
from cardrules.errors import GameError
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.players.external import (
    describe_legal,
    is_command,
    make_external,
    parse,
    read_choice,
    split_seats,
)
from cardrules.interpreter.sessions.play import play_game
from cardrules.interpreter.view import player_view

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "shortest_bot.py"
RULESETS = sorted(p.stem for p in (ROOT / "rulesets").glob("*.yaml"))
PYTHON = sys.executable


def program(tmp_path: Path, body: str, settings: str = "timeout=5") -> str:
    """A bot program written to a file, as a `cmd:` seat kind running it."""
    path = tmp_path / "bot.py"
    path.write_text("import json, sys, time\n" + body, encoding="utf-8")
    return f"cmd[{settings}]:{PYTHON} {path}"


@pytest.mark.parametrize("name", RULESETS)
def test_the_example_bot_plays_a_whole_game(name: str) -> None:
    players = load_ruleset(name).default_players
    seats = [f"cmd:{PYTHON} {EXAMPLE}"] + ["random"] * (players - 1)
    state = play_game(Engine(load_ruleset(name)), players, seed=3, seats=seats)
    assert state.over


def test_the_readme_shows_the_example_bot() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    code = EXAMPLE.read_text(encoding="utf-8").split('"""\n', 2)[-1].strip()
    assert code in readme
    assert len(code.splitlines()) <= 10


BAD = {
    "garbage": 'for line in sys.stdin:\n    print("take the stock", flush=True)\n',
    "illegal index": 'for line in sys.stdin:\n    m = json.loads(line)\n'
                     '    if m["type"] == "decide":\n'
                     '        print(json.dumps({"index": len(m["legal"])}), flush=True)\n',
    "silence": "for line in sys.stdin:\n    time.sleep(0.01)\n",
    "exit": "sys.exit(3)\n",
    # answers again and again, never reading what it is sent: the game's lines to it pile
    # up in the pipe (made as small as Linux allows) until writing one would wait for ever
    "deaf": 'import fcntl\nfcntl.fcntl(0, 1031, 4096)\n'
            'while True:\n    print(json.dumps({"index": 0}), flush=True)\n'
            '    time.sleep(0.001)\n',
    # one line of 3 MB: not read whole, however long
    "flood": 'sys.stdin.readline()\nsys.stdout.write("x" * (3 << 20))\nsys.stdout.flush()\n'
             'sys.stdin.read()\n',
}
REASONS = {"garbage": "the answer is not JSON: 'take the stock'",
           "illegal index": "needs \"index\", a whole number from 0 to",
           "silence": "no answer within 0.5 s",
           "exit": "the program ended without answering (exit code 3)",
           "deaf": "the program did not read its input within 0.5 s",
           "flood": "the program wrote a line of more than 1,048,576 characters"}


@pytest.mark.parametrize("bad", sorted(BAD))
def test_a_bad_program_forfeits(bad: str, tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    engine = Engine(load_ruleset("czech-golf"))
    kind = program(tmp_path, BAD[bad], "timeout=0.5,start=0")
    state = play_game(engine, 2, seed=1, seats=[kind, "random"])
    assert state.over and state.winners == [1]  # the seat that forfeits is not a winner
    err = capsys.readouterr().err
    assert err.startswith(f"seat 1 ({kind}): ") and REASONS[bad] in err, err
    assert err.endswith("; the seat forfeits the game\n")


def test_a_program_slow_to_start_may_take_its_time_to_read_too(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`start` is the time a program may take before its first answer: reading its start
    line and its first decision may take that long too; each later line, its `timeout`."""
    bot = make_external(program(tmp_path, "sys.stdin.read()\n", "timeout=0.5,start=5"), 1, 0)
    given: list[tuple[str, float | None]] = []

    def sent(message: dict[str, Any], timeout: float | None = None) -> bool:
        given.append((message["type"], timeout))
        return True

    monkeypatch.setattr(bot, "_send", sent)
    monkeypatch.setattr(bot, "_answer", lambda timeout: '{"index": 0}')
    engine = Engine(load_ruleset("czech-golf"))
    state = engine.new_game(2, 1)
    for _ in range(2):
        bot.choose(engine, state, engine.legal_actions(state))
    bot.stop()
    assert given == [("start", 5.5), ("decide", 5.5), ("decide", 0.5)]


def test_programs_that_write_ahead_leave_nothing_running(tmp_path: Path) -> None:
    """A program that writes many lines ahead, then waits: once its game is over, no thread
    reading it and no pipe to it is left behind, game after game."""
    kind = program(tmp_path, "for _ in range(200):\n    print(json.dumps({'index': 0}))\n"
                   "sys.stdout.flush()\nsys.stdin.read()\n", "timeout=0.5,start=0")
    engine = Engine(load_ruleset("czech-golf"))
    play_game(engine, 2, seed=1, seats=[kind, "random"])
    threads = threading.active_count()
    for seed in range(2, 6):
        play_game(engine, 2, seed=seed, seats=[kind, "random"])
    for _ in range(100):
        if threading.active_count() <= threads:
            break
        time.sleep(0.05)
    assert threading.active_count() <= threads


def test_a_bad_program_can_hand_over_to_a_random_player(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    engine = Engine(load_ruleset("czech-golf"))
    kind = program(tmp_path, BAD["garbage"], "fallback=random")
    state = play_game(engine, 2, seed=1, seats=[kind, "random"])
    assert state.over and engine.results(state)["turns"] > 1  # played on to the end
    err = capsys.readouterr().err
    assert "a random player takes the seat for the rest of the game" in err
    assert err.count("\n") == 1  # said once


def test_the_command_line_reports_a_forfeit(tmp_path: Path) -> None:
    kind = program(tmp_path, BAD["garbage"])
    result = CliRunner().invoke(main, ["run", "czech-golf", "--seats", f"{kind},random",
                                       "--json"])
    assert result.exit_code == 0, result.output
    results = json.loads(result.stdout)
    assert results["forfeited"] == [1] and results["winners"] == [2]
    result = CliRunner().invoke(main, ["run", "czech-golf", "--seats", f"{kind},random"])
    assert "Seat 1 forfeited the game (its program answered badly)." in result.stdout


@pytest.mark.parametrize("seats, message", [
    ("cmd:,random", "expected the command after 'cmd:'"),
    ("cmd[timeout=0]:x,random", "timeout must be a number of seconds above 0"),
    # seconds are written in ASCII digits, as every number a flag takes
    ("cmd[timeout=\u0661]:x,random", "timeout must be a number of seconds above 0"),
    ("cmd[timeout=1e3]:x,random", "timeout must be a number of seconds above 0"),
    ("cmd[timeout=1_0]:x,random", "timeout must be a number of seconds above 0"),
    ("cmd[fallback=pass]:x,random", "fallback must be 'random' or 'forfeit'"),
    ("cmd[speed=2]:x,random", "unknown setting 'speed=2' (expected timeout=SECONDS, "),
    ("cmd[timeout=2:x],random", "expected the command after 'cmd:'"),
    ("cmd[start=-1]:x,random", "start must be a number of seconds from 0"),
    ('cmd:x "unclosed,random', "a quote is opened and never closed"),
    ("cmd:'unterminated", "a quote is opened and never closed"),
])
def test_a_badly_written_seat_is_refused(seats: str, message: str) -> None:
    result = CliRunner().invoke(main, ["run", "czech-golf", "--seats", seats])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_a_program_that_cannot_start_is_one_clear_error() -> None:
    result = CliRunner().invoke(main, ["run", "czech-golf", "--seats",
                                       "cmd:no-such-program-here --x,random"])
    assert result.exit_code == 3
    assert "seat 1: cannot start 'no-such-program-here --x'" in result.output
    assert "Traceback" not in result.output


def test_people_and_programs_share_a_table_when_the_command_line_says_so() -> None:
    """The command line seats a program beside a person as anywhere else (its save keeps no
    command: tests/test_program_seats.py); here the program cannot start, and says so."""
    result = CliRunner().invoke(main, ["run", "czech-golf", "--seats", "cmd:x-no-such,human"])
    assert result.exit_code == 3 and "seat 1: cannot start 'x-no-such'" in result.output


def test_seats_split_at_commas_outside_quotes_and_brackets() -> None:
    text = 'cmd[timeout=2,fallback=random]:python bot.py --name "a, b",random,greedy:4'
    assert split_seats(text) == ['cmd[timeout=2,fallback=random]:python bot.py --name "a, b"',
                                 "random", "greedy:4"]
    spec = parse(split_seats(text)[0])
    assert spec.argv == ("python", "bot.py", "--name", "a, b")
    assert spec.timeout == 2.0 and spec.fallback == "random" and spec.start == 10.0
    assert is_command("cmd:x") and is_command("cmd[timeout=1]:x") and not is_command("cmdx")
    assert parse("cmd:python bot.py").fallback == "forfeit"
    with pytest.raises(GameError, match="']' missing after the settings"):
        parse("cmd[timeout=2:python bot.py")


# ------------------------------------------------------------ what a program is told
@pytest.mark.parametrize("name", ["golf6", "czech-golf", "geohash", "grandma", "precognition"])
def test_a_program_is_told_only_what_its_seat_knows(name: str) -> None:
    """Every card named in a decision (view and legal actions) is one the seat knows; one it
    does not know is null, described by where it lies; no card id or seed is sent."""
    engine = Engine(load_ruleset(name))
    names = engine.rules.cards.names
    rng = random.Random(2)
    state = engine.new_game(None, 8)
    for _ in range(300):
        legal = engine.legal_actions(state)
        if not legal:
            break
        seat = engine.to_move(state)
        assert seat is not None
        entries, actions = describe_legal(engine, state, seat, legal)
        known = {names[c] for c in range(state.n_cards) if state.known[c] >> seat & 1}
        for entry, action in zip(entries, actions):
            told = json.dumps(entry["args"])
            for arg in json.loads(told):
                for card in (arg if isinstance(arg, list) else [arg]):
                    for item in (card if isinstance(card, list) else [card]):
                        if isinstance(item, str) and item in names:
                            assert item in known
            assert entry["text"] == engine.words.describe(action, state, seat)
        message = json.dumps({"view": player_view(engine.rules, state, seat), "legal": entries})
        assert '"seed"' not in message
        action = rng.choice(legal)
        if engine.open_moves:
            from cardrules.interpreter.domains import fill
            action = fill(action, rng)
        engine.apply(state, action)


def test_an_unseen_card_is_null_and_described_by_its_place() -> None:
    engine = Engine(load_ruleset("golf6"))
    state = engine.new_game(4, 1)
    entries, actions = describe_legal(engine, state, 0, engine.legal_actions(state))
    assert all(entry["args"] == [None] for entry in entries)
    assert entries[0]["text"] == "Turn the face-down card of your grid at row 1, column 1 face up"
    assert [e["index"] for e in entries] == list(range(len(entries)))


def test_an_answer_is_read_strictly() -> None:
    engine = Engine(load_ruleset("precognition"))
    state = engine.new_game(3, 1)
    entries, actions = describe_legal(engine, state, 0, engine.legal_actions(state))
    assert entries[0]["fill"][0]["letters"] == "UDS" and entries[0]["fill"][0]["shortest"] == 1
    assert read_choice('{"index": 0, "fill": ["UDU"]}', entries, actions) == ("predict", "UDU")
    for line, problem in [('{"index": 0}', 'needs "fill": a list of 1 text'),
                          ('{"index": 0, "fill": ["UXU"]}', "'X' is not allowed"),
                          ('[0]', "not a JSON object"),
                          ('{"index": true}', 'needs "index"')]:
        with pytest.raises(GameError, match=problem):
            read_choice(line, entries, actions)
