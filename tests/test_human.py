"""People at the terminal: real games through a pseudo-terminal, saves, and no leaks.

The pty tests spawn `python -m cardrules` and type as a person would: moves, bad input,
help, quit, resume. A seeded game with a fixed way of choosing plays the same every time,
so a game saved and resumed must show exactly the screens of one never stopped. The last
tests need no terminal: save files that must be refused, and a property that whatever a
seat's screen shows names no card that seat does not know.
"""

from __future__ import annotations

import errno
import json
import os
import re
import signal
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pexpect
import pytest
from click.testing import CliRunner

from cardrules.cli.human import HUMAN, Table, read_save
from cardrules.cli.main import main
from cardrules.cli.screen import (
    Style,
    choice_lines,
    decision_screen,
    numbered,
    strip_ansi,
    text_commands,
    text_way_out,
    view_section,
)
from cardrules.dsl.loader import load_ruleset
from cardrules.errors import GameError, IllegalAction
from cardrules.interpreter.domains import Words
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.players.bots import make_bot
from cardrules.interpreter.sessions import files
from cardrules.interpreter.sessions.record import find_action
from cardrules.interpreter.state import GameState
from cardrules.interpreter.words import applied

ROOT = Path(__file__).resolve().parent.parent
RULESET_FILES = sorted((ROOT / "rulesets").glob("*.yaml"))
PROMPT = r"seat \d> "
END_PROMPT = r"game over> "
RULE = "=" * 72
EXIT_USAGE, EXIT_GAME, EXIT_INTERRUPTED = 2, 3, 130
CHOICE = re.compile(r"^ +(\d+)\. ", re.M)
# A golf6 game that the tests stop and resume: 3 players, 2 rounds, seed 11.
# `play` against random bots: quick, and the same screens every time.
PLAY = ["play", "--bots", "random"]
GOLF_ARGS = ["golf6", "--players", "3", "--seed", "11", "-o", "rounds=2", "--plain"]


# ------------------------------------------------------------------ the terminal
def spawn(args: list[str], cwd: Path, **env: str) -> pexpect.spawn:
    environment = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    environment.pop("NO_COLOR", None)
    environment.update(env)
    return pexpect.spawn(sys.executable, ["-m", "cardrules", *args], cwd=str(cwd),
                         env=environment, encoding="utf-8", timeout=20,
                         dimensions=(60, 200), preexec_fn=interruptible)


def interruptible() -> None:
    """In the child, before it starts: Ctrl-C interrupts it, as at a terminal, even where the
    test runner's own process ignores SIGINT (a child inherits an ignored signal)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def text(child: pexpect.spawn) -> str:
    """What the program wrote before the last match, with the pty's line ends undone."""
    return (child.before or "").replace("\r\n", "\n")


def screen(child: pexpect.spawn) -> str:
    """Wait for a decision prompt; the screen it ends (from its top rule)."""
    child.expect(PROMPT)
    shown = text(child)
    assert RULE in shown, shown
    return shown[shown.rindex(RULE):]


def refused(child: pexpect.spawn, line: str, reason: str) -> None:
    """Type `line`; the reason it is refused is shown and the prompt comes back."""
    child.sendline(line)
    child.expect(PROMPT)
    assert f"refused: {reason}" in text(child)


def policy(number: int, shown: str) -> str:
    """A fixed way of choosing: the n-th decision takes its choices in turn."""
    choices = [int(n) for n in CHOICE.findall(shown.split("Choose:")[-1])]
    assert choices, shown
    return str(choices[number % len(choices)])


def drive(child: pexpect.spawn, start: int = 0, stop: int | None = None) -> Iterator[str]:
    """Decide by `policy` from the `start`-th decision (to `stop`), yielding each screen;
    ends at the end of the game (or before deciding the `stop`-th time)."""
    number = start
    while True:
        index = child.expect([PROMPT, r"Winner[^\n]*\n|Tied winners[^\n]*\n"])
        shown = text(child)
        if index == 1:
            yield shown[shown.rindex("Game over."):] + child.after.replace("\r\n", "\n")
            return
        shown = shown[shown.rindex(RULE):]
        yield shown
        if number == stop:
            return
        child.sendline(policy(number, shown))
        number += 1


def finished(child: pexpect.spawn) -> int:
    """The program's exit status once it ends (left at the end screen's prompt, with Enter,
    where the game was played to its end)."""
    if child.expect([END_PROMPT, pexpect.EOF]) == 0:
        child.sendline("")
        child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


@pytest.fixture(scope="module")
def golf_screens(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Every screen of the test golf6 game played without a stop, then the end."""
    child = spawn([*PLAY, *GOLF_ARGS], tmp_path_factory.mktemp("whole"))
    screens = list(drive(child))
    assert finished(child) == 0
    return screens


# ---------------------------------------------------------------------- golf6
def test_golf6_moves_bad_input_help_rules_and_a_finished_game(tmp_path: Path) -> None:
    child = spawn([*PLAY, "golf6", "--players", "2", "--seed", "4", "-o", "rounds=1",
                   "--plain"], tmp_path)
    first = screen(child)
    assert "6-card Golf - seat 1 (you)" in first
    assert "seat 1 (you)  grid:   ##   ##   ## /   ##   ##   ##" in first
    assert "seat 2        grid:   ##   ##   ## /   ##   ##   ##" in first
    assert "  1. Turn the face-down card of your grid at row 1, column 1 face up" in first
    refused(child, "99", "there is no choice 99: type a number from 1 to 6")
    refused(child, "", "nothing typed")
    refused(child, "frobnicate", "no choice has the words 'frobnicate'")
    refused(child, "react", "this game has no chances to react")  # (golf6 has none)
    refused(child, "1 2", "choice 1 needs nothing more: type just 1")
    child.sendintr()
    child.expect(PROMPT)
    assert "refused: interrupted (Ctrl-C)" in text(child)
    child.sendeof()
    child.expect(PROMPT)
    assert "refused: end of input (Ctrl-D) ignored" in text(child)
    child.sendline("help")
    child.expect(PROMPT)
    assert "You are seat 1 of 2 in 6-card Golf" in text(child)
    child.sendline("rules")
    child.expect(PROMPT)
    assert "Keep a face-down 2x3 grid and aim low." in text(child)
    assert "Rounds (rounds) = 1" in text(child)
    assert "When the stock runs out (stock_runs_out) = reshuffle  (one of: reshuffle, " \
        "end_round)" in text(child)
    child.sendline("quit")
    child.expect(r"\[y/N\] ")
    child.sendline("n")
    child.expect(PROMPT)
    assert "Not quitting" in text(child)
    child.sendline("1")  # the first card is turned: its name now shows in the grid
    second = screen(child)
    assert re.search(r"seat 1 \(you\)  grid: +(10|[2-9AJQK])[CDHS] +##", second), second
    child.sendline(policy(1, second))
    screens = list(drive(child, start=2))
    assert finished(child) == 0
    assert any(re.search(r"holding: \((10|[2-9AJQK])[CDHS]\)", s) for s in screens)
    assert any(re.search(r"Since your last decision:\n(  you .*\n(    .*\n)*)?  seat 2 ", s)
               for s in screens)
    assert any(re.search(r"  you take the top card of the stock\n    "
                         r"(10|[2-9AJQK])[CDHS] goes from the stock to your holding", s)
               for s in screens)
    assert "Standings after 1 round (lowest total wins)" in screens[-1]
    assert not list(tmp_path.iterdir())  # nothing saved without --save or quit


def test_quit_and_resume_go_on_exactly_as_a_game_never_stopped(
        tmp_path: Path, golf_screens: list[str]) -> None:
    child = spawn([*PLAY, *GOLF_ARGS], tmp_path)
    before = list(drive(child, stop=9))
    assert before == golf_screens[:10]
    child.sendline("quit")
    child.expect(r"\[y/N\] ")
    child.sendline("y")
    child.expect(r"Resume it with: cardrules resume (\S+)")
    saved = child.match.group(1)
    assert finished(child) == 0
    assert saved == "golf6.cardrules-save"  # (no seed in the name)
    child = spawn(["resume", saved], tmp_path)
    after = list(drive(child, start=9))
    assert finished(child) == 0
    assert after == golf_screens[9:]
    assert "Standings after 2 rounds" in after[-1]


def test_save_after_each_decision_resumes_after_the_last_one(
        tmp_path: Path, golf_screens: list[str]) -> None:
    save = tmp_path / "game.json"
    child = spawn(["run", *GOLF_ARGS, "--human", "1", "--save", str(save)], tmp_path)
    assert list(drive(child, stop=5)) == golf_screens[:6]
    child.terminate(force=True)  # gone without a word: the save is of the 5th decision
    data = json.loads(save.read_text(encoding="utf-8"))
    assert data["seats"] == ["human", "random", "random"]
    assert data["ruleset"] == "golf6" and data["options"] == {"rounds": "2"}
    assert all(len(b[1]) == 625 for b in data["bots"][1:]) and data["bots"][0] is None
    assert data["format"] == "cardrules-save/3" and "state" not in data
    assert len(data["actions"]) >= 5 and data["players"] == 3 and data["seed"] == 11
    child = spawn(["resume", str(save)], tmp_path)
    after = list(drive(child, start=5))
    assert finished(child) == 0
    assert after == golf_screens[5:]


def test_the_end_screen_offers_the_whole_log(tmp_path: Path) -> None:
    """The end screen shows the latest news since the person's last decision that fits in
    40 lines, the round's account whole, says how many lines it left out, and reads out the
    whole log for `log` (or its last lines, `log 5`), the rules and help until Enter;
    anything else is refused, saying what works."""
    child = spawn([*PLAY, "golf6", "--players", "8", "--seed", "2", "-o", "rounds=1",
                   "--plain"], tmp_path)
    while child.expect([PROMPT, END_PROMPT]) == 0:
        child.sendline("1")
    end = text(child)
    earlier = re.search(r"\n  \((\d+) lines not shown: type log to read them\)\n", end)
    assert earlier and "\nWinner: seat " in end, end
    account = end.index("Round 1 over")  # the round's account whole, after what was cut
    assert end.index(earlier.group(0)) < account, end
    assert "Type log to read all you have been told of this game" in end
    child.sendline("log")
    child.expect(END_PROMPT)
    told = text(child)
    count = re.search(r"\nWhat you have been told of this game \((\d+) lines\):\n", told)
    assert count and int(count.group(1)) > 40 + int(earlier.group(1)), told
    assert re.search(r"\n  you turn the face-down card of your grid at row 1, column 1 face "
                     r"up - it was ", told)  # the person's first decision, long gone
    assert re.search(r"\n  the game is over: winner seat \d$", told.rstrip())
    child.sendline("log 5")
    child.expect(END_PROMPT)
    assert f"(5 lines; {int(count.group(1)) - 5} earlier):" in text(child)
    child.sendline("log 1")
    child.expect(END_PROMPT)
    assert f"(1 line; {int(count.group(1)) - 1} earlier):" in text(child)
    child.sendline("rules")  # the rules and help, as at a decision
    child.expect(END_PROMPT)
    assert "6-card Golf" in text(child)
    child.sendline("help")
    child.expect(END_PROMPT)
    assert "rules        read the rules of this game" in text(child)
    child.sendline("takeback")  # nothing else works here: said, and asked again
    child.expect(END_PROMPT)
    assert "refused: the game is over: type log (or log 20) to read what you were told, " \
        "rules to read the rules, or press Enter to leave" in " ".join(text(child).split())
    child.sendline("")  # Enter: leave
    assert finished(child) == 0


# -------------------------------------------------------------- precognition
def test_precognition_refuses_a_bad_prediction_and_keeps_it_secret(tmp_path: Path) -> None:
    child = spawn([*PLAY, "precognition", "--players", "2", "--seed", "2",
                   "-o", "playoff_limit=1", "--plain"], tmp_path)
    first = screen(child)
    assert "1. Predict a text of 1 to 51 letters from U, D, S (you write it next)" in first
    # nobody has written one yet: the seat's own says nothing, the others' are unseen
    assert "Prediction:" not in first
    child.sendline("1")
    child.expect("prediction> ")
    assert "Write the prediction: a text of 1 to 51 letters from U, D, S" in text(child)
    for typed, reason in [("UDX", "'X' is not allowed: use only U, D, S"),
                          ("udx", "'X' is not allowed: use only U, D, S"),  # only the bad one
                          ("U" * 60, "60 letters: write between 1 and 51")]:
        child.sendline(typed)
        child.expect("prediction> ")
        assert f"refused: {reason}" in text(child)
    child.sendintr()
    child.expect("prediction> ")
    assert "refused: interrupted (Ctrl-C): nothing chosen; type quit to stop" in text(child)
    child.sendline("quit")  # a command here, not the letters Q, U, I, T
    child.expect(r"\[y/N\] ")
    child.sendline("n")
    child.expect("prediction> ")
    assert "Not quitting" in text(child)
    child.sendline("")  # Enter alone: never a text
    child.expect(PROMPT)
    assert "Back to the choices." in text(child)
    child.sendline("1")
    child.expect("prediction> ")
    assert "(Enter alone or back: choose again; quit: save and stop; help: this again.)" in \
        text(child)
    child.sendline("help")  # a command here too: what to write, again
    child.expect("prediction> ")
    assert "Write the prediction: a text of 1 to 51 letters from U, D, S" in text(child)
    child.sendline("u d x")  # the letters refused, each once, in the order written
    child.expect("prediction> ")
    assert "refused: a space and 'X' are not allowed: use only U, D, S" in text(child)
    child.sendline("back")
    child.expect(PROMPT)
    assert "Back to the choices." in text(child)
    child.sendline("1 udu")  # the number and the text at once; letters in either case
    shown = screen(child)
    assert "Prediction: UDU" in shown
    assert "seat 2 predicts (written, not shown)" in shown
    assert re.search(r"hand: \((10|[2-9AJQK])[CDHS]\)", shown)
    child.sendline("1")
    screens = list(drive(child, start=2))
    assert finished(child) == 0
    # (the lay that ends the round is followed by a new deal: it names no card)
    laid = [s for s in screens[:-1] if "seat 2 lays an unseen card from seat 2's hand" in s]
    assert laid and all(re.search(r"row - it was (10|[2-9AJQK])[CDHS]", s) for s in laid)
    assert "Standings after 1 round (highest total wins)" in screens[-1]


def test_at_a_text_prompt_a_word_that_is_a_text_is_no_command() -> None:
    """back, quit and help are commands at a prompt for a text unless they are texts there; Enter
    alone, never a text, goes back, and the prompt and its refusals say what works."""
    assert text_commands(Words("UDS", 1, 5)) == ("back", "quit", "help")
    assert text_way_out(Words("UDS", 1, 5)) == "type quit to stop"
    letters = Words("ABCKQUITHELP", 1, 5)  # 'back', 'quit' and 'help' are texts of it
    assert text_commands(letters) == ()
    assert text_way_out(letters) == "press Enter to choose again, then type quit to stop"
    assert text_commands(Words("ABCKUDS", 1, 5)) == ("quit", "help")
    assert Words("UDS", 1, 5).problem("HELP") == \
        "'H', 'E', 'L' and 'P' are not allowed: use only U, D, S"


# ----------------------------------------------------------- pass and play, colour
def test_pass_and_play_clears_the_screen_between_people(tmp_path: Path) -> None:
    child = spawn(["run", "golf6", "-p", "3", "--seats", "human,random,human", "--seed", "3",
                   "-o", "rounds=1", "--plain"], tmp_path)
    child.expect("Seat 1, press Enter when ready ")
    assert "\x1b[2J" in text(child) and "pass the terminal to seat 1" in text(child)
    assert "grid" not in text(child)
    child.sendline("")
    assert "6-card Golf - seat 1 (you)" in screen(child)
    child.sendline("1")
    assert "seat 1 (you)" in screen(child)  # the same person goes on: no hand-over
    child.sendline("1")
    child.expect("Seat 3, press Enter when ready ")
    cleared = text(child).rsplit("\x1b[2J", 1)[1]
    assert "pass the terminal to seat 3" in cleared and "grid" not in cleared
    child.sendline("")
    third = screen(child)
    assert "6-card Golf - seat 3 (you)" in third
    assert re.search(r"seat 1 turns the face-down card of seat 1's grid at row 1, column 1 face "
                     r"up - it was (10|[2-9AJQK])[CDHS]", third)
    child.sendline("quit")
    child.expect(r"\[y/N\] ")
    child.sendline("yes")
    assert finished(child) == 0
    table = read_save(tmp_path / "golf6.cardrules-save")
    assert table.seats == [HUMAN, "random", HUMAN]


def test_only_enter_hands_the_terminal_over(tmp_path: Path) -> None:
    """At the hand-over, what the last person types is theirs: a word is refused (it used to
    hand over, showing them the next person's screen), and quit saves and stops there."""
    child = spawn(["run", "golf6", "-p", "3", "--seats", "human,random,human", "--seed", "3",
                   "-o", "rounds=1", "--plain"], tmp_path)
    child.expect("Seat 1, press Enter when ready ")
    child.sendline("")
    child.expect("seat 1> ")
    child.sendline("1")
    child.expect("seat 1> ")
    child.sendline("1")
    child.expect("Seat 3, press Enter when ready ")
    child.sendline("x")
    child.expect("Seat 3, press Enter when ready ")
    assert "refused: press Enter once seat 3 is at the terminal" in text(child)
    assert "seat 3 (you)" not in text(child)
    child.sendline("quit")
    child.expect(r"\[y/N\] ")
    child.sendline("yes")
    assert finished(child) == 0
    assert "seat 3 (you)" not in text(child)
    assert read_save(tmp_path / "golf6.cardrules-save").seats == [HUMAN, "random", HUMAN]


@pytest.mark.parametrize(("args", "env", "want", "never"), [
    ([], {}, ["\x1b[", "♠", "##"], []),
    ([], {"NO_COLOR": "1"}, ["♠"], ["\x1b["]),
    (["--plain"], {}, ["9S on top"], ["\x1b[", "♠", "♥", "♦", "♣"]),
])
def test_suits_and_colour(tmp_path: Path, args: list[str], env: dict[str, str],
                          want: list[str], never: list[str]) -> None:
    # seed 3: the discard pile starts with the 9 of spades
    child = spawn([*PLAY, "golf6", "--players", "2", "--seed", "3", *args], tmp_path, **env)
    shown = screen(child)
    child.terminate(force=True)
    for piece in want:
        assert piece in shown
    for piece in never:
        assert piece not in shown


# ------------------------------------------------------------------- no terminal
def cli(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), prog_name="cardrules")
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize(("args", "cause"), [
    (["run", "golf6", "-p", "2", "--human", "3"], "there are 2 seats"),
    (["run", "golf6", "--save", "x.json"], "saving is for games with people"),
    (["run", "golf6", "--human", "1", "--view", "2"], "--view is for games of bots"),
    (["run", "golf6", "-p", "2", "--seats", "random,robot"], "unknown seat kind 'robot'"),
    (["play", "golf6", "--bots", "human"], "not a person ('human')"),
    (["simulate", "golf6", "-n", "1", "-p", "2", "--seats", "human,random"],
     "not a person ('human')"),
    (["play", "golf6", "--bots", "robot"], "unknown seat kind 'robot'"),
])
def test_seat_options_are_checked(args: list[str], cause: str) -> None:
    code, _, err = cli(*args)
    assert code == EXIT_USAGE
    assert cause in err
    # the kinds a refusal offers are those the option takes
    offered = err.partition("expected one of ")[2]
    assert not offered or ("human" in offered) == (args[0] == "run"), err


def test_input_that_ends_stops_the_game_with_exit_code_3() -> None:
    result = CliRunner().invoke(main, [*PLAY, "golf6", "--seed", "1"], input="1\n")
    assert result.exit_code == EXIT_GAME
    assert result.stderr == "error: input ended before the game did\n"


def test_a_quit_whose_save_fails_says_why_and_the_game_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Quitting saves the game; where that fails (the disk full) the person is told why
    and the game goes on: their next line is a move, and the game plays to its end."""
    save = tmp_path / "x.save"

    def full(self: files.NewFile) -> None:  # (the new file dropped, as a failed close does)
        self.drop()
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.NewFile, "done", full)
    result = CliRunner().invoke(main, ["play", "kuhn-poker", "--seed", "5", "--plain",
                                       "--save", str(save)], input="1\nquit\ny\n1\n")
    assert result.exit_code == 0, result.output
    assert f"Not quitting: cannot save the game to {save}: No space left on device. The " \
        "game goes on: type quit again to try once more, or to quit without saving it." \
        in result.stdout
    assert "Winner: seat 2" in result.stdout and not save.exists()


def test_a_game_that_cannot_be_saved_may_be_quit_without_saving_once_told(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game too long for a save, quit with no --save: refused, saying why; asked again,
    the person may try again or quit without saving it (`lose`), leaving no file."""
    from cardrules.interpreter.sessions import record

    monkeypatch.setattr(record, "MAX_ACTIONS", 0)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["play", "kuhn-poker", "--seed", "5", "--plain"],
                                input="1\nquit\ny\nquit\ny\nquit\nlose\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.count("Not quitting: cannot save the game to kuhn-poker.cardrules-save: too "
                     "long for a saved game") == 2
    assert out.count("Quit now? The game could not be saved (cannot save the game to "
                     "kuhn-poker.cardrules-save: too long") == 2
    assert out.endswith("Quit without saving: the game is lost.\n")
    assert list(tmp_path.iterdir()) == []


def test_a_game_whose_save_could_never_be_resumed_is_not_saved(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule file whose name does not end in .yaml plays, but a save names only a rule file
    that does: --save is refused before anything is played (exit 2, no file); without it the
    person is told at the start, and quitting loses the game (saying so) rather than writing
    a save that could never be resumed."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mykuhn").write_text((ROOT / "rulesets" / "kuhn-poker.yaml").read_text(
        encoding="utf-8"), encoding="utf-8")
    why = "its ruleset '" + str(tmp_path / "mykuhn") + "' cannot be loaded: not a rule " \
        "file: a saved game names a built-in ruleset or a file whose name ends in .yaml or .yml"
    for command in (["play", "./mykuhn"], ["run", "mykuhn", "--human", "1"]):
        refused = CliRunner().invoke(main, [*command, "--seed", "5", "--save", "m.save"],
                                     input="1\nquit\ny\n")
        assert refused.exit_code == EXIT_USAGE and refused.stdout == ""
        assert "Invalid value for --save: a save of this game could never be resumed: " \
            f"{why}" in " ".join(refused.stderr.split())
    played = CliRunner().invoke(main, ["play", "./mykuhn", "--seed", "5", "--plain"],
                                input="1\nquit\ny\n")
    assert played.exit_code == 0, played.output
    assert played.stderr == f"note: a save of this game could never be resumed: {why}; the " \
        "game cannot be saved\n"
    assert "Quit now? The game cannot be saved (a save of it could never be resumed: " \
        f"{why}): it is lost. [y/N] Quit without saving: the game is lost.\n" in played.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mykuhn"]
    (tmp_path / "mykuhn.yaml").write_bytes((tmp_path / "mykuhn").read_bytes())
    saved = CliRunner().invoke(main, ["play", "mykuhn.yaml", "--seed", "5", "--save",
                                      "m.save"], input="1\nquit\ny\n")
    assert saved.exit_code == 0 and saved.stderr == ""
    resumed = CliRunner().invoke(main, ["resume", "m.save"], input="quit\ny\n")
    assert resumed.exit_code == 0, resumed.output


def test_save_never_writes_over_a_file_that_is_not_a_save_of_this_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--save refuses, before anything is played (exit 2), a file there that is not a save of
    the game: the rule file being played, a pipe, a save of another game; and a file in a
    folder that is not there. A save of the
    game being resumed, at its point or an earlier one, is written over."""
    monkeypatch.chdir(tmp_path)
    rules = tmp_path / "mykuhn.yaml"
    rules.write_text((ROOT / "rulesets" / "kuhn-poker.yaml").read_text(encoding="utf-8"),
                     encoding="utf-8")
    text = rules.read_text(encoding="utf-8")
    os.mkfifo(tmp_path / "pipe")

    def cardrules(*args: str, typed: str = "1\nquit\ny\n") -> Any:
        return CliRunner().invoke(main, [*args, "--plain"], input=typed)

    for save, why in (("mykuhn.yaml", "will not write over mykuhn.yaml: not a cardrules "
                                      "saved game (not JSON"),
                      ("pipe", "will not save to pipe: it is not a file"),
                      ("none/a.save", "cannot write none/a.save: there is no folder none")):
        refused = cardrules("play", "mykuhn.yaml", "--seed", "5", "--save", save)
        assert refused.exit_code == EXIT_USAGE and refused.stdout == "", refused.output
        assert why in " ".join(refused.stderr.split())
    assert rules.read_text(encoding="utf-8") == text
    assert cardrules("play", "golf6", "-p", "2", "--seed", "5", "--save", "a.save").exit_code \
        == 0
    other = cardrules("run", "golf6", "--human", "1", "--seed", "6", "--save", "a.save")
    assert other.exit_code == EXIT_USAGE and "will not write over a.save: it holds another " \
        "saved game; resume that one (cardrules resume a.save)" in " ".join(other.stderr.split())
    (tmp_path / "earlier.save").write_bytes((tmp_path / "a.save").read_bytes())
    on = cardrules("resume", "a.save", "--save", "earlier.save", typed="1\nquit\ny\n")
    assert on.exit_code == 0 and "Game saved to earlier.save" in on.stdout, on.output
    assert len(read_save(tmp_path / "earlier.save").record.actions) > \
        len(read_save(tmp_path / "a.save").record.actions)
    back = cardrules("resume", "a.save", "--save", "earlier.save")  # a later point: kept
    assert back.exit_code == EXIT_USAGE and "holds another saved game" in back.stderr


GOOD_ACTIONS = 12  # the test save: golf6, 3 players, seed 11, after 12 actions


def saved_game(tmp_path: Path) -> dict[str, Any]:
    """A save of a golf6 game a dozen actions in (a person and two random bots; the
    person's choices made at random too), written to tmp_path/good.json."""
    engine = Engine(load_ruleset("golf6", {"rounds": "2"}))
    state = engine.new_game(3, 11, log=True)
    table = Table.start("golf6", {"rounds": "2"}, engine, state, [HUMAN, "random", "random"],
                        11)
    chooser = make_bot("random", 5, 0)
    legal = engine.legal_actions(state)
    for _ in range(GOOD_ACTIONS):
        seat = engine.to_move(state)
        assert seat is not None
        bot = table.bots[seat] or chooser
        legal = table.advance(seat, bot.choose(engine, state, legal))
    table.write(tmp_path / "good.json")
    return json.loads((tmp_path / "good.json").read_text(encoding="utf-8"))


def spoil(data: dict[str, Any], key: str, value: object) -> dict[str, Any]:
    out = json.loads(json.dumps(data))
    target = out
    *path, last = key.split(".")
    for part in path:
        target = target[int(part)] if isinstance(target, list) else target[part]
    if isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value
    return out


def refusal(path: Path) -> str:
    """Resume `path`: it must be refused with exit code 3 and one line, no traceback;
    returns the line."""
    code, out, err = cli("resume", str(path))
    assert code == EXIT_GAME, (out, err)
    assert err.count("\n") == 1 and err.startswith(f"error: {path}: "), err
    assert "Traceback" not in out + err
    return err


def spoiled_saves(good: dict[str, Any]) -> dict[str, object]:
    """Damaged or foreign saves by name (the others in the test are texts as they are)."""
    first = good["actions"][0]
    return {
        "seats": spoil(good, "seats", ["human", "wizard", "random"]),
        "search budget": spoil(good, "seats", ["human", "ismcts:100000000", "random"]),
        "samples budget": spoil(good, "seats", ["human", "greedy:100000000", "random"]),
        "seed": spoil(good, "seed", "eleven"),
        "huge seed": spoil(good, "seed", 10**30),
        "digits": json.dumps(good).replace('"seed": 11', '"seed": ' + "9" * 5000),
        "players": spoil(good, "players", 4),
        "ruleset": spoil(good, "ruleset", "golf7"),
        "digest": spoil(good, "digest", "0" * 16),
        "old": {**good, "format": "cardrules-save/1"},
        "actions": spoil(good, "actions", {"1": first}),
        "action": spoil(good, "actions.2", "reveal"),
        "nested": spoil(good, "actions.2", ["reveal", [[[[[1]]]]]]),
        "illegal": spoil(good, "actions.2", ["reveal", 999]),
        "inserted": {**good, "actions": [first, *good["actions"]]},
        "many": {**good, "actions": [first] * 100_001},
        "bots": spoil(good, "bots", [None]),
        "bots.1": spoil(good, "bots.1", [3, [1, 2], None]),
        "word": spoil(good, "bots.1.1.0", 2**40),
        "gauss": spoil(good, "bots.1.2", "x"),
        "person": spoil(good, "bots.0", good["bots"][1]),
        "state": {**good, "state": {"zones": []}},
        "no actions": {k: v for k, v in good.items() if k != "actions"},
        "nobody": {**good, "seats": ["random"] * 3, "bots": [good["bots"][1]] * 3},
    }


@pytest.mark.parametrize(("content", "cause"), [
    ("", "not JSON"),
    ("garbage\n", "not JSON"),
    (b"\xff\xfe\x00", "not text"),
    ('{"format": "something-else/1"}', "not a cardrules saved game"),
    ("[1, 2, 3]", "not a cardrules saved game"),
    ("cut", "not JSON"),
    ("old", "saved by an older cardrules ('cardrules-save/1'"),
    ("seats", "unknown seat kind 'wizard'"),
    ("search budget", "a damaged saved game (seat kind 'ismcts:100000000': at most 100,000 "
                      "iterations)"),
    ("samples budget", "a damaged saved game (seat kind 'greedy:100000000': at most 1,000 "
                       "samples)"),
    ("seed", "damaged saved game (its seed)"),
    ("huge seed", "damaged saved game (its seed)"),
    ("digits", "a number far too large"),
    ("players", "3 seats for 4 players"),
    ("ruleset", "cannot be loaded: no ruleset 'golf7'"),
    ("digest", "the ruleset 'golf6' or the save's options have changed since this game was "
               "saved"),
    ("actions", "damaged saved game (its actions)"),
    ("action", "action 3 is not an action"),
    ("nested", "action 3 is not an action"),
    ("illegal", "action 3 of the saved game cannot be played: not a legal action now"),
    ("inserted", "action 2 of the saved game cannot be played"),
    ("many", "too long for a saved game (100,001 actions; a save holds at most 100,000)"),
    ("bots", "its random streams (one per seat)"),
    ("bots.1", "its random streams"),
    ("word", "its random streams"),
    ("gauss", "its random streams"),
    ("person", "its random streams"),
    ("state", "an entry a save never has: 'state'"),
    ("no actions", "no 'actions'"),
    ("nobody", "no seat for a person"),
    ("big", "too large for a saved game"),
])
def test_a_damaged_or_foreign_save_is_refused_with_exit_code_3(
        tmp_path: Path, content: str | bytes, cause: str) -> None:
    good = saved_game(tmp_path)
    spoiled = spoiled_saves(good).get(content, content) if isinstance(content, str) \
        else content
    path = tmp_path / "spoiled.json"
    if content == "cut":
        path.write_text((tmp_path / "good.json").read_text(encoding="utf-8")[:500])
    elif content == "big":
        path.write_text(" " * (4 * 2**20) + json.dumps(good))
    elif isinstance(spoiled, bytes):
        path.write_bytes(spoiled)
    else:
        path.write_text(spoiled if isinstance(spoiled, str) else json.dumps(spoiled))
    assert cause in refusal(path)


def honest(ruleset: str, options: dict[str, str], players: int, seed: int,
           actions: list[Any]) -> GameState | None:
    """The game a record describes, replayed here by Engine.apply alone (None if one of
    its actions is not legal)."""
    engine = Engine(load_ruleset(ruleset, options))
    state = engine.new_game(players, seed)
    for data in actions:
        try:
            engine.apply(state, find_action(engine, state, data))
        except IllegalAction:
            return None
    return state


EDITS = {  # an edit of a save, and the refusal it meets
    "show hidden cards": "an entry a save never has: 'known'",
    "stack a grid": "cannot be played: not a legal action now: [\"swap\", 0]",
    "add cards": "action 1 of the saved game cannot be played",
    "set totals": "an entry a save never has: 'totals'",
    "mark the game won": "an entry a save never has: 'over'",
    "change the seed": "action 1 of the saved game cannot be played",
    "insert an illegal action": "action 6 of the saved game cannot be played",
    "take another's card": "cannot be played: not a legal action now",
    "seat 1 a person's only": "its random streams",
}


@pytest.mark.parametrize("edit", EDITS)
def test_an_edited_save_is_refused_or_changes_nothing(tmp_path: Path, edit: str) -> None:
    """A save holds no table: an edit can only name actions, and an action the rules do
    not allow at that point is refused; whatever does replay is a game the rules allow."""
    good = saved_game(tmp_path)
    edited = json.loads(json.dumps(good))
    actions = edited["actions"]
    if edit == "show hidden cards":
        edited["known"] = [7] * 54
    elif edit == "stack a grid":  # put chosen cards into grid 1 by naming them
        actions += [["swap", card] for card in range(6)]
    elif edit == "add cards":
        actions[0] = [*actions[0], 53]
    elif edit == "set totals":
        edited["totals"] = [-1000, 0, 0]
    elif edit == "mark the game won":
        edited["over"], edited["winners"] = True, [1]
    elif edit == "change the seed":
        edited["seed"] = 12
    elif edit == "insert an illegal action":
        actions.insert(5, ["discard"])
    elif edit == "seat 1 a person's only":  # every seat a person's: no bot to replay
        edited["seats"] = [HUMAN] * 3
    else:  # act for another seat: seat 2's first reveal made again, now by seat 1
        actions.append(next(a for a in actions[3:] if a[0] == "reveal"))
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(edited))
    try:
        table = read_save(path)
    except GameError:
        assert EDITS[edit] in refusal(path)
        return
    # It replayed: only a new seed can do that, and the game is then one the rules allow.
    assert edit == "change the seed"
    state = honest("golf6", {"rounds": "2"}, 3, edited["seed"], edited["actions"])
    assert state is not None and table.state.to_dict() == state.to_dict()


def test_a_good_save_reads_back(tmp_path: Path) -> None:
    good = saved_game(tmp_path)
    table = read_save(tmp_path / "good.json")
    assert table.seats == [HUMAN, "random", "random"] and table.state.n == 3
    assert table.record.actions == good["actions"] and table.state.actions == GOOD_ACTIONS
    assert [b.rng.getstate()[1][-1] for b in table.bots[1:]] == \
        [b[1][-1] for b in good["bots"][1:]]
    with pytest.raises(GameError, match="cannot read"):
        read_save(tmp_path / "missing.json")


# ------------------------------------------------------------ nothing leaks
SYMBOL = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
# A card name shown in letters ('QH', 'Jk') or with a suit symbol ('Q♥'), as a word. (One right
# after '=' names what a wild card in a laid run stands for, '2♣=5♥': no card, so not counted.)
CARD = re.compile(r"(?<![0-9A-Za-z=])(?:(10|[2-9AJQK])([CDHS♣♦♥♠])|(JK|Jk))(?![0-9A-Za-z])")


def named(text: str, names: set[str]) -> Counter[str]:
    """The card names a text shows, as the deck names them ('QH', 'JK')."""
    found: Counter[str] = Counter()
    for rank, suit, joker in CARD.findall(text):
        name = "JK" if joker else rank + SYMBOL.get(suit, suit)
        if name in names:
            found[name] += 1
    return found


def known(state: GameState, names: tuple[str, ...], mask: int | None = None,
          seat: int = 0) -> Counter[str]:
    """The names of the cards a seat knows (or, with `mask`, that every seat in it knows)."""
    return Counter(names[c] for c in range(state.n_cards)
                   if (state.known[c] == mask if mask is not None else state.known[c] >> seat & 1))


def check_screens(path: Path, players: int, seed: int, budget: int) -> int:
    """Play one seeded game with random bots, one seat watched as if by a person; check
    every screen it would be shown. Returns how many screens were checked."""
    rules = load_ruleset(path)
    engine = Engine(rules)
    names = rules.cards.names
    every = set(names)
    state = engine.new_game(players, seed)
    watched = seed % state.n
    seats = ["random"] * state.n
    seats[watched] = HUMAN
    table = Table.start(str(path), {}, engine, state, seats, seed)
    table.bots[watched] = make_bot("random", seed, watched)
    news = table.pending[watched]
    checked = 0
    legal = engine.legal_actions(state)
    while legal and checked < budget:
        seat = engine.to_move(state)
        assert seat is not None
        if seat == watched:
            mine = known(state, names, seat=seat)
            told = set(named("\n".join(news), every))  # each checked when it was added
            for style in (Style(plain=True), Style(plain=False, colour=True)):
                bare = strip_ansi("\n".join(decision_screen(engine, state, seat, legal, [],
                                                             style)))
                assert set(named(bare, every)) <= set(mine), (path.name, seed, bare)
                full = strip_ansi("\n".join(decision_screen(engine, state, seat, legal, news,
                                                             style)))
                assert set(named(full, every)) <= set(mine) | told, (path.name, seed, full)
                view = strip_ansi("\n".join(view_section(rules, state, seat, style)))
                assert set(named(view, every)) <= set(mine), (path.name, seed, view)
            if checked % 7 == 0:  # every choice, however long the list
                listed = "\n".join(choice_lines(engine, state, seat, numbered(legal),
                                                Style(True), limit=None))
                assert set(named(listed, every)) <= set(mine), (path.name, seed, listed)
            checked += 1
            news.clear()
        public = set(known(state, names, mask=state.everyone))
        own = set(known(state, names, seat=watched))  # what the seat knew, and learns
        before = len(news)
        action = table.bots[seat].choose(engine, state, legal)
        moved = applied(engine.rules, state, seat, action)  # (the move done, before a round ends)
        if moved is not None:
            own |= set(known(moved, names, seat=watched))
        legal = table.advance(seat, action)
        public |= set(known(state, names, mask=state.everyone))
        own |= set(known(state, names, seat=watched))
        for line in news[before:]:  # named only if the seat knew it before or after
            assert set(named(line, every)) <= own | public, (path.name, seed, line)
    return checked


@pytest.mark.parametrize("path", RULESET_FILES, ids=lambda p: p.stem)
def test_no_screen_names_a_card_its_seat_does_not_know(path: Path) -> None:
    rules = load_ruleset(path)
    sizes = sorted({rules.min_players, rules.default_players, min(rules.max_players, 5)})
    checked = sum(check_screens(path, players, seed, budget=40)
                  for players in sizes for seed in range(1, 5))
    assert checked >= 4


def test_a_round_that_ends_on_your_move_is_shown_to_you(tmp_path: Path) -> None:
    """The end of a round (the final layout as everyone sees it, and the scores) reaches
    the person even when their own move ended it."""
    from click.testing import CliRunner

    from cardrules.cli.main import main as cli

    result = CliRunner().invoke(cli, [*PLAY, "golf6", "--players", "2", "--plain",
                                      "--seed", "3"], input="1\n" * 400)
    text = result.stdout
    at = text.index("Round 1 over (lowest total wins)")
    account = text[at:].split("=" * 72, 1)[0]
    assert "score" in account and "total" in account and "grid:" in account
    assert "Since your last decision:" in text[:at].rsplit("=" * 72, 1)[1]


# ------------------------------------------------------ long lists, reactions
def test_a_long_list_is_chosen_in_parts_and_enter_passes_a_reaction(tmp_path: Path) -> None:
    """geohash against the default (greedy) bots: a move with many choices is one line,
    picked part by part with 'back' to return; a reaction window costs one Enter to pass
    and offers the accusation as one line, chosen rank, then suit."""
    child = spawn(["play", "geohash", "--players", "3", "--seed", "5", "--plain"], tmp_path)
    child.expect(PROMPT)
    assert "seats: human, greedy, greedy" in text(child)  # sensible bots by default
    first = text(child)[text(child).rindex(RULE):]
    assert "1. Ask ... for the ... ... (26 choices: type 1 to choose it part by part)" in first
    assert "Declare 2C a match of a hidden card" in first  # short enough to list in full
    child.sendline("1")
    child.expect("target player> ")
    assert "Choose the target player:\n  1. seat 2\n  2. seat 3" in text(child)
    child.sendline("hint")  # not here: said what is, and where the others are
    child.expect("target player> ")
    assert "refused: type a number from 1 to 2, back, help or quit" in text(child)
    child.sendline("help")  # the part to choose again, and what works here
    child.expect("target player> ")
    assert "Choose the target player:\n  1. seat 2\n  2. seat 3" in text(child)
    assert "back (or 0) goes back to the whole choices, where log, hint and takeback " \
        "work" in " ".join(text(child).split())
    child.sendline("back")
    child.expect(PROMPT)
    assert "Back to the choices." in text(child)
    assert "Chances to react go by for you: type react to take your next one" in first
    child.sendline("react")  # the chance to react after this ask waits for the person
    child.expect(PROMPT)
    assert "Your next chance to react will wait for you" in text(child)
    child.sendline("1")
    child.expect("target player> ")
    child.sendline("1")
    child.expect("rank> ")
    assert "Ask seat 2 for the ... ..." in text(child)
    child.sendline("1")  # the ace: its colour follows from the hand (one red ace held)
    window = screen(child)
    # what the person's own ask did: seat 2 had the ace, and the pair went to the heap (in
    # the deck's order)
    assert "you ask seat 2 for the red A\n    AD goes from seat 2's hand to your hand\n" \
        "    AD in your hand is shown to everyone\n" \
        "    AD AH go from your hand to the heap" in window
    assert "act now, or Enter (or 0) to pass" in window
    assert "1. Name the hidden cards: the ... of ... and the ... of ... (1326 choices" in window
    child.sendline("1")
    child.expect("first rank> ")
    assert "13. K" in text(child)
    child.sendline("13")
    child.expect("first suit> ")
    assert "Name the hidden cards: the K of ... and the ... of ..." in text(child)
    child.sendline("back")
    child.expect(PROMPT)
    child.sendline("")  # Enter alone: the chance goes by; the next ask of the turn comes
    assert "1. Ask ... for the ... ..." in screen(child)
    assert "refused" not in text(child)
    child.terminate(force=True)


@pytest.mark.parametrize("command", [["play", "geohash"],
                                     ["run", "geohash", "--human", "1"]])
def test_react_asks_at_every_chance_from_the_start(command: list[str], tmp_path: Path) -> None:
    """--react is `react always` from the first decision: a person whose every decision is
    their only choice (played for them: a snap game) would never reach a prompt to type it.
    The save keeps the setting, as it keeps the command's."""
    for flags, stop in (([], None), (["--react"], True)):
        save = tmp_path / f"g{len(flags)}.cardrules-save"
        result = CliRunner().invoke(main, [*command, "--seed", "5", "--plain", *flags,
                                           "--save", str(save)], input="quit\ny\n")
        assert result.exit_code == 0, result.output
        reacting = json.loads(save.read_text(encoding="utf-8")).get("reacting")
        assert (reacting[0]["stop"] if reacting else None) is stop


def test_a_person_put_out_sees_the_rest_of_the_game(tmp_path: Path) -> None:
    """A wrong accusation puts the person out; what they did is said, and the rest of the
    game is shown as it happens, to its end."""
    child = spawn(["play", "geohash", "--players", "3", "--seed", "5", "--plain",
                   "--option", "turn_limit=6"], tmp_path)
    screen(child)
    child.sendline("react always")  # asked at every chance to react
    child.expect(PROMPT)
    child.sendline("1")
    child.expect("target player> ")
    child.sendline("1")
    child.expect("rank> ")
    child.sendline("1")
    screen(child)  # the reaction window after the ask
    child.sendline("1")
    for part in ("first rank", "first suit", "second rank", "second suit"):  # (the aces of
        # clubs and diamonds)
        child.expect(f"{part}> ")
        child.sendline("1")
    child.expect(r"No winner|Winner[^\n]*\n")
    shown = text(child)
    assert "you are out of the game" in shown
    assert shown.index("you are out of the game") < shown.index("Standings")
    assert "Standings after 1 round (only a win decides)" in shown
    assert finished(child) == 0


# ------------------------------------------------------ a whole game of geohash
PART = r"(target player|rank|colour)> "
END = r"Winner[^\n]*\n|No winner"


def next_screen(child: pexpect.spawn, parts: bool = False) -> str | None:
    """The next decision's screen (answering '1' to each part of a choice made part by
    part, with `parts`), or None at the game's end."""
    while True:
        index = child.expect([PROMPT, END, PART] if parts else [PROMPT, END])
        if index == 2:
            child.sendline("1")
            continue
        if index == 1:
            return None
        shown = text(child)
        return shown[shown.rindex(RULE):]


def test_a_whole_geohash_game_asks_the_person_only_for_their_own_moves(tmp_path: Path) -> None:
    """One person against the default bots plays geohash to its end at the terminal: no
    chance to react stops the game for them unless they type react; each ask's outcome is
    in what they read next; they name the hidden cards (the test knows them) when they
    want, and read the round's account. Fewer than 2 decisions per move of their turns."""
    seed = 3
    engine = Engine(load_ruleset("geohash"))
    dealt = engine.new_game(3, seed)
    names = engine.rules.cards.names
    hidden = [names[c] for c in dealt.zones[engine.board.names.index("hidden")]]
    words = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
    ranks = engine.rules.cards.rank_names
    hidden.sort(key=lambda n: (ranks.index(n[:-1]), "CDHS".index(n[-1])))
    naming = " and the ".join(f"{n[:-1]} of {words[n[-1]]}" for n in hidden)
    child = spawn(["play", "geohash", "--players", "3", "--seed", str(seed), "--plain"],
                  tmp_path)
    decisions = asks = 0
    shown = next_screen(child)
    while shown is not None:
        decisions += 1
        if asks:  # what the last ask did, told first thing
            last = re.search(r"Since your last decision:\n(?:  .*\n)*?  you ask seat \d for "
                             r"the \w+ \w+\n    (\S.*)\n", shown)
            assert last, shown
        if "A chance to react" in shown:  # the one the person asked for
            assert asks == 7
            child.sendline(f"{hidden[0][:-1]} {words[hidden[0][-1]]} {hidden[1][:-1]} "
                           f"{words[hidden[1][-1]]}")
            child.expect(PROMPT)
            number = re.search(rf"^ +(\d+)\. Name the hidden cards: the {naming}$",
                               text(child).replace("\r", ""), re.M)
            assert number, text(child)
            child.sendline(number.group(1))
            shown = next_screen(child)
            continue
        assert "Chances to react go by for you" in shown or asks == 7
        if asks == 6:
            child.sendline("react")
            child.expect(PROMPT)
            assert "Your next chance to react will wait for you" in text(child)
        child.sendline("1")  # an ask, chosen part by part: the first of each part
        asks += 1
        shown = next_screen(child, parts=True)
    end = text(child) + child.after
    assert "Winner: seat 1" in end
    assert "Round 1 over (only a win decides)" in end and "hidden:" in end
    assert decisions == asks + 1 < 2 * asks  # no chance to react but the one asked for
    assert finished(child) == 0


def test_a_resumed_game_asks_at_the_chances_to_react_it_asked_at(tmp_path: Path) -> None:
    """A person who asked to be asked at every chance to react (react always) and quit at
    one is asked there again when the game resumes: a resume never lets it go by for them,
    nor adds a pass they did not choose. The save keeps the setting; the person's wish for
    their next chance alone (react) is kept too."""
    save = tmp_path / "gh.save"
    typed = "react always\n1\n1\n1\nquit\ny\n"
    played = CliRunner().invoke(main, ["play", "geohash", "--seed", "3", "--plain", "--save",
                                       str(save)], input=typed)
    assert played.exit_code == 0, played.output
    assert played.stdout.rstrip().rsplit("seat 1> ", 2)[-2].count("A chance to react") == 1
    actions = record_of(save)["actions"]
    assert record_of(save)["reacting"] == [{"stop": True, "wanted": False}, None, None, None]
    resumed = CliRunner().invoke(main, ["resume", str(save), "--plain"], input="quit\ny\n")
    assert resumed.exit_code == 0, resumed.output
    assert "A chance to react (seat 1's turn)" in resumed.stdout
    assert "Chances to react go by for you" not in resumed.stdout
    assert record_of(save)["actions"] == actions  # no pass chosen for the person
    wish = CliRunner().invoke(main, ["resume", str(save), "--plain"],
                              input="react auto\n0\nreact\nquit\ny\n")
    assert wish.exit_code == 0, wish.output
    assert record_of(save)["reacting"] == [{"stop": False, "wanted": True}, None, None, None]
    table = read_save(save)
    assert (table.windows.seats[0].stop, table.windows.seats[0].wanted) == (False, True)


def record_of(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def test_a_hint_and_a_decision_taken_back_at_the_terminal() -> None:
    """`hint` shows a bot's pick and its estimates; `takeback` undoes taking the discard
    (a card everyone saw), not taking the stock's top card (seen once taken)."""
    typed = "1\n1\nhint\nhint random\nhint cmd:ls\n2\ntakeback\n1\ntakeback\n"
    result = CliRunner().invoke(main, [*PLAY[:1], "golf6", "--players", "2", "--seed", "5",
                                       "--plain", "-o", "rounds=1"], input=typed)
    out = result.stdout
    assert "Hint from greedy: 2. Take the top card of the discard pile\n" \
        "  what it makes of each choice, the best first:\n" \
        "    2. Take the top card of the discard pile: 7.0 points ahead of the best other " \
        "seat (4 samples)\n" in out
    assert "refused: 'random' gives no hints: ask one of greedy, ismcts" in out
    assert "refused: 'cmd:ls' gives no hints: ask one of greedy, ismcts" in out
    assert "Taken back: Take the top card of the discard pile. Decide again." in out
    assert "  you take back: Take the top card of the discard pile\n" in out
    after = out.split("Decide again.")[1]
    assert "  you take the top card of the stock\n    JC goes from the stock to your " \
        "holding" in after
    assert "refused: you have seen a card since that decision" in after


def test_ctrl_c_during_a_hint_cancels_it_and_the_game_goes_on(tmp_path: Path) -> None:
    """A long hint is cut short by Ctrl-C: the same decision is asked again, and the game
    is neither ended nor changed."""
    child = spawn([*PLAY, "golf6", "--players", "2", "--seed", "4", "-o", "rounds=1",
                   "--plain"], tmp_path)
    screen(child)
    child.sendline("hint ismcts:100000")  # (far more than a second's search)
    time.sleep(1)
    child.sendintr()
    child.expect(PROMPT)
    assert "Hint cancelled (Ctrl-C): nothing chosen" in text(child)
    child.sendline("1")
    assert "seat 1 (you)  grid:" in screen(child)
    child.sendline("quit")
    child.expect(r"\[y/N\] ")
    child.sendline("y")
    assert finished(child) == 0


def test_a_seed_cardrules_picks_is_shown_only_once_the_game_is_over(tmp_path: Path) -> None:
    """The seed deals every hidden card: one the person did not give is not on the screen
    while the game is on, nor in the save file's name, nor when the game is resumed; the
    end tells it, to deal the game again."""
    child = spawn([*PLAY, "kuhn-poker", "--plain"], tmp_path)
    child.expect(PROMPT)
    first = text(child)
    assert "seed shown at the end" in first and not re.search(r"seed \d", first)
    child.sendline("quit")
    child.expect(r"\[y/N\] ")
    child.sendline("y")
    child.expect(r"Resume it with: cardrules resume (\S+)")
    assert child.match.group(1) == "kuhn-poker.cardrules-save"
    assert finished(child) == 0
    seed = json.loads((tmp_path / "kuhn-poker.cardrules-save").read_text())["seed"]
    child = spawn(["resume", "kuhn-poker.cardrules-save", "--plain"], tmp_path)
    child.expect(PROMPT)
    resumed = text(child)
    assert "seed shown at the end" in resumed and str(seed) not in resumed
    for _ in range(10):  # play the first choice to the end
        child.sendline("1")
        index = child.expect([PROMPT, END_PROMPT])
        if index == 1:
            break
    assert f"Its seed was {seed}: --seed {seed} deals it again." in text(child)
    child.sendline("")  # Enter: leave the end screen
    assert finished(child) == 0
    # `run` with a person in a seat: not the bots' default seed 1, which deals a known game
    child = spawn(["run", "kuhn-poker", "--human", "1", "--plain"], tmp_path)
    child.expect(PROMPT)
    assert "seed shown at the end" in text(child) and "seed 1," not in text(child)
    child.sendline("quit")
    child.expect(r"\[y/N\] ")
    child.sendline("n")
    child.expect(PROMPT)
    child.terminate(force=True)


def test_ctrl_c_while_the_bots_play_offers_to_save_the_game_as_it_stood_at_the_last_decision(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Interrupted while a bot thinks (no --save), the person is offered a save of the game
    as it stood at their last decision; resumed, it goes on from there."""
    from cardrules.interpreter.players import search

    monkeypatch.chdir(tmp_path)
    choose = search.GreedyBot.choose
    calls = {"n": 0}

    def slow(self: Any, engine: Any, state: Any, legal: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 3:  # the bots' third decision: the person presses Ctrl-C
            raise KeyboardInterrupt
        return choose(self, engine, state, legal)

    monkeypatch.setattr(search.GreedyBot, "choose", slow)
    result = CliRunner().invoke(main, ["play", "golf6", "-p", "2", "--seed", "5", "--plain"],
                                input="1\n1\n1\n1\ny\n")
    assert result.exit_code == EXIT_INTERRUPTED, result.output
    saved = tmp_path / "golf6.cardrules-save"
    assert f"Game saved to {saved.name}" in result.stderr and saved.exists(), result.stderr
    record = json.loads(saved.read_text(encoding="utf-8"))
    assert len(record["actions"]) >= 3
    monkeypatch.setattr(search.GreedyBot, "choose", choose)
    resumed = CliRunner().invoke(main, ["resume", str(saved), "--plain"], input="quit\ny\n")
    assert resumed.exit_code == 0 and "resumed from" in resumed.stdout, resumed.output


def test_a_letter_in_the_other_case_is_taken_only_where_it_stays_one_letter() -> None:
    """'udx' is taken as 'UDX' (and refused for the X alone), but 'ß', whose upper case is two
    letters, is not an 'SS', nor the one ligature 'ﬆ' an 'ST': each is refused as itself."""
    from cardrules.present.lines import fitted

    letters = Words("UDS", 1, 5)
    assert fitted(letters, "uds") == "UDS" and fitted(letters, "udx") == "UDX"
    assert fitted(letters, "ß") == "ß" and letters.problem("ß") is not None
    assert fitted(letters, "uﬆ") == "Uﬆ"
