"""A program seat (cmd:COMMAND) comes only from the person at the command line.

A save file and a web request are data someone else may have written: neither can make
cardrules start a program. A save records that a seat was a program, never the command;
`resume` asks for the command again (`--seat N=cmd:...`) or refuses, saying how. Checking a
seat kind never starts anything.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cardrules.cli.main import main
from cardrules.dsl.loader import load_ruleset
from cardrules.errors import GameError
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.players.bots import check_kind
from cardrules.interpreter.sessions import record

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "shortest_bot.py"
BOT = f"cmd:{sys.executable} {EXAMPLE}"


@pytest.fixture
def no_programs(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every attempt to start a program, caught (and refused) where it would start."""
    started: list[Any] = []

    def refuse(*args: Any, **kwargs: Any) -> None:
        started.append(args)
        raise AssertionError("a program was started")

    monkeypatch.setattr(subprocess, "Popen", refuse)
    return started


def saved_with(tmp_path: Path, seats: list[str], fmt: str = record.FORMAT,
               actions: int = 0) -> Path:
    """A save of golf6 for two players with the given seat kinds (as a file might hold
    them), after `actions` of the game's first actions."""
    rules = load_ruleset("golf6")
    engine = Engine(rules)
    state = engine.new_game(2, 5)
    done = []
    for _ in range(actions):
        action = engine.legal_actions(state)[0]
        done.append(record.action_data(action))
        engine.apply(state, action)
    data = {"format": fmt, "ruleset": "golf6",
            "digest": record.fingerprint(rules, with_options=fmt == record.FORMAT),
            "options": {}, "players": 2, "seed": 5, "seats": seats, "plain": True,
            "bots": [None if kind == "human" else [3, [0] * 624 + [624], None]
                     for kind in seats],
            "actions": done}
    path = tmp_path / "game.cardrules-save"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


# ------------------------------------------------------------------ checking a kind
def test_checking_a_seat_kind_never_starts_anything(no_programs: list[Any]) -> None:
    check_kind("cmd:touch ran", programs=True)
    check_kind("cmd[timeout=2,fallback=random]:python bot.py", programs=True)
    check_kind("ismcts:200")
    with pytest.raises(GameError, match="only from the command line"):
        check_kind("cmd:touch ran")
    with pytest.raises(GameError, match="unknown seat kind 'wizard'"):
        check_kind("wizard", programs=True)
    with pytest.raises(GameError, match="at most 100,000 iterations"):
        check_kind("ismcts:100001")
    assert not no_programs


# ------------------------------------------------------------------------ saves
@pytest.mark.parametrize("fmt", [record.FORMAT, record.OLDER])
def test_a_save_naming_a_program_never_starts_it(fmt: str, tmp_path: Path,
                                                 no_programs: list[Any]) -> None:
    """The command a save holds (an older save kept it) is read as 'a program played here'
    and never run: resuming without a command for that seat is refused, saying how."""
    path = saved_with(tmp_path, [f"cmd:touch {tmp_path / 'ran'}", "human"], fmt)
    assert record.read(path).seats == [record.PROGRAM, "human"]
    for args in (["resume", str(path)], ["serve", "--resume", str(path), "--port", "0"]):
        result = CliRunner().invoke(main, args, input="quit\ny\n")
        assert result.exit_code == 3, result.output
        assert "seat 1 was played by a program" in result.stderr
        assert "--seat 1=cmd:COMMAND" in result.stderr
        assert "Traceback" not in result.output
    assert not (tmp_path / "ran").exists() and not no_programs


def test_a_resumed_program_seat_takes_its_command_from_the_command_line(
        tmp_path: Path) -> None:
    path = saved_with(tmp_path, [record.PROGRAM, "human"], actions=3)
    saved = record.read(path)
    assert saved.programs_for({0: BOT}) == [BOT, "human"]
    with pytest.raises(GameError, match="seat 2 was played by 'human': a resumed game takes a "
                                        "program's command"):
        saved.programs_for({0: BOT, 1: BOT})
    with pytest.raises(GameError, match="there is no seat 5: the saved game has 2 seats"):
        saved.programs_for({4: BOT})
    with pytest.raises(GameError, match="expected the command after 'cmd:'"):
        saved.programs_for({0: "cmd:"})
    result = CliRunner().invoke(main, ["resume", str(path), "--plain", "--seat", f"1={BOT}"],
                                input="quit\ny\n")
    assert result.exit_code == 0, result.output
    assert "seats: program, human - resumed from" in result.output
    assert "Game saved to" in result.output
    again = json.loads(path.read_text(encoding="utf-8"))
    assert again["seats"] == ["program", "human"] and len(again["actions"]) >= 3
    assert "cmd" not in json.dumps(again)


@pytest.mark.parametrize(("value", "cause"), [
    ("one=cmd:x", "expected SEAT=cmd:COMMAND"),
    ("0=cmd:x", "expected SEAT=cmd:COMMAND"),
    ("1=cmd[colour=red]:x", "unknown setting 'colour=red'"),
])
def test_a_bad_seat_flag_is_refused(value: str, cause: str, tmp_path: Path) -> None:
    path = saved_with(tmp_path, [record.PROGRAM, "human"])
    result = CliRunner().invoke(main, ["resume", str(path), "--seat", value])
    assert result.exit_code == 2 and cause in result.stderr, result.output


def test_a_programs_seat_takes_a_command_and_nothing_else(tmp_path: Path) -> None:
    path = saved_with(tmp_path, [record.PROGRAM, "human"])
    result = CliRunner().invoke(main, ["resume", str(path), "--seat", "1=random"])
    assert result.exit_code == 3, result.output
    assert "a resumed game takes a program's command (cmd:COMMAND) for a program's seat" in \
        result.stderr


def test_a_save_seats_no_bot_beyond_what_a_request_may_unless_named_again(
        tmp_path: Path) -> None:
    """A save is a file: it may hold a bot with an hour's search a decision. It seats one
    only within what a web request may (bots.ASKED_BUDGETS, budgets in work); a larger one
    plays if the command line names it again, the same."""
    for kind, cause in [("ismcts:3600s", "it takes budgets in work, not time"),
                        ("ismcts:100000", "it allows at most 10 iterations a decision"),
                        ("greedy:33", "it allows at most 32 samples a decision")]:
        path = saved_with(tmp_path, [kind, "human"])
        result = CliRunner().invoke(main, ["resume", str(path)], input="quit\ny\n")
        assert result.exit_code == 3, result.output
        assert f"seat 1 is '{kind}' in the saved game, more than a saved game may seat by " \
            f"itself ({cause}" in result.stderr
        assert f"name it again to resume (--seat 1={kind})" in result.stderr
        assert "Traceback" not in result.output
    path = saved_with(tmp_path, ["ismcts:200", "human"])
    result = CliRunner().invoke(main, ["resume", str(path), "--seat", "1=ismcts:300"])
    assert result.exit_code == 3 and "a bot's own kind again" in result.stderr
    result = CliRunner().invoke(main, ["resume", str(path), "--plain", "--seat", "1=ismcts:200"],
                                input="quit\ny\n")
    assert result.exit_code == 0, result.output
    assert "seats: ismcts:200, human - resumed from" in result.output
    path = saved_with(tmp_path, ["ismcts:10", "human"])  # (within: seated as saved)
    result = CliRunner().invoke(main, ["resume", str(path), "--plain"], input="quit\ny\n")
    assert result.exit_code == 0, result.output


def test_the_resume_command_shown_names_again_what_a_save_does_not_seat() -> None:
    from cardrules.cli.table import resume_command

    assert resume_command(Path("g.save"), ["human", "ismcts", "greedy:8"]) == \
        "cardrules resume g.save"
    assert resume_command(Path("my game.save"), ["human", "ismcts:500", "cmd:python b.py",
                                                 record.PROGRAM, "ismcts:1s"]) == \
        "cardrules resume 'my game.save' --seat 2=ismcts:500 --seat '3=cmd:python b.py' " \
        "--seat '4=cmd:COMMAND' --seat 5=ismcts:1s"


def test_a_game_with_a_person_and_a_program_saves_no_command(tmp_path: Path) -> None:
    """One rule for every command: a program named on the command line may share a table
    with people; its save says only that a program played."""
    save = tmp_path / "game.json"
    result = CliRunner().invoke(main, [
        "run", "golf6", "-p", "2", "-o", "rounds=1", "--plain", "--seats", f"human,{BOT}",
        "--save", str(save)], input="1\n" * 8 + "quit\ny\n")
    assert result.exit_code == 0, result.output
    assert "seats: human, program" in result.output and "Game saved to" in result.output
    data = json.loads(save.read_text(encoding="utf-8"))
    assert data["seats"] == ["human", "program"] and "cmd" not in json.dumps(data)
    assert len(data["actions"]) >= 8  # the program made its moves too


def test_edited_options_are_noticed_and_shown(tmp_path: Path) -> None:
    """A save's fingerprint covers its options: a save edited to play fewer rounds is
    refused, and the line a resumed game starts with names the options it plays under."""
    path = saved_with(tmp_path, ["human", "random"])
    data = json.loads(path.read_text(encoding="utf-8"))
    data["options"] = {"rounds": "1"}
    path.write_text(json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(main, ["resume", str(path)])
    assert result.exit_code == 3
    assert "the ruleset 'golf6' or the save's options have changed" in result.stderr
    data["digest"] = record.fingerprint(load_ruleset("golf6", {"rounds": "1"}))
    path.write_text(json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(main, ["resume", str(path), "--plain"], input="quit\ny\n")
    assert result.exit_code == 0, result.output
    assert "options: rounds=1 - resumed from" in result.output
