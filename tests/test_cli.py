"""The `cardrules` command: output people read, exit codes, and no tracebacks.

click 8.2+ keeps stdout and stderr apart in CliRunner results: `result.stdout` and
`result.stderr` each hold one stream, `result.output` both as a terminal would show them.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cardrules.cli.errors import EXIT_CLOSED
from cardrules.cli.main import main
from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.sessions.play import play_game

ROOT = Path(__file__).resolve().parent.parent
GOLF6 = ROOT / "rulesets" / "golf6.yaml"
BROKEN = Path(__file__).resolve().parent / "broken"
EXIT_INVALID, EXIT_USAGE, EXIT_GAME = 1, 2, 3


def cli(*args: str) -> Result:
    """`cardrules ARGS` at a terminal 80 columns wide."""
    return CliRunner().invoke(main, list(args), prog_name="cardrules", catch_exceptions=False,
                              env={"COLUMNS": "80"})


def engine_results(seed: int, players: int | None = None, **options: str) -> dict[str, object]:
    engine = Engine(load_ruleset("golf6", options=options or None))
    return engine.results(play_game(engine, players, seed))


def standings_rows(stdout: str) -> list[list[int]]:
    """The rows of the final table (its rounds in one block, as 80 columns show 9 of them):
    rank, seat, total, then one score per round."""
    table = stdout.split("Standings after", 1)[1].splitlines()
    assert table[2].split()[:4] == ["rank", "seat", "total", "1"], table
    return [[int(x) for x in line.split()] for line in table[3:] if re.match(r"\s+\d", line)]


# ---------------------------------------------------------------------- run
def test_run_golf6_prints_nine_rounds_standings_and_a_winner() -> None:
    result = cli("run", "golf6", "--seed", "3")
    assert result.exit_code == 0
    assert result.stderr == ""
    out = result.stdout
    lines = out.splitlines()
    assert lines[0] == ("6-card Golf (golf6) - 4 players, seed 3, "
                        "seats: random, random, random, random")
    assert [line for line in lines if line.startswith("Round ")] == [
        f"Round {r}" for r in range(1, 10)]
    assert "Standings after 9 rounds (lowest total wins)" in lines
    expected = engine_results(3)
    rows = standings_rows(out)
    assert [row[0] for row in rows] == [1, 2, 3, 4]
    assert sorted(row[1] for row in rows) == [1, 2, 3, 4]
    totals = expected["totals"]
    assert isinstance(totals, list)
    for _rank, seat, total, *per_round in rows:
        assert total == totals[seat - 1] == sum(per_round)
        assert len(per_round) == 9
    assert [row[2] for row in rows] == sorted(totals)
    winners = expected["winners"]
    assert isinstance(winners, list) and len(winners) >= 1
    label = "Winner" if len(winners) == 1 else "Tied winners"
    assert lines[-1] == f"{label}: " + ", ".join(f"seat {w}" for w in winners)


def test_run_round_lines_show_each_seats_grid_and_score() -> None:
    out = cli("run", "golf6", "--seed", "3", "--plain").stdout
    seat_lines = [line for line in out.splitlines() if line.startswith("  seat ")]
    assert len(seat_lines) == 9 * 4
    for line in seat_lines:
        match = re.fullmatch(r"  seat (\d)  grid: (.+) / (.+)   score +(-?\d+)  total +(-?\d+)",
                             line)
        assert match, line
        cards = match[2].split() + match[3].split()
        assert len(cards) == 6
        assert all(re.fullmatch(r"(10|[2-9AJQK])[CDHS]|Jk", c) for c in cards), cards
    assert not re.search("[\u2660-\u2667]", out)  # --plain: no suit symbols
    fancy = cli("run", "golf6", "--seed", "3").stdout
    assert re.search("[\u2663\u2666\u2665\u2660]", fancy)


def test_run_same_seed_same_output_and_other_seed_differs() -> None:
    first = cli("run", "golf6", "--seed", "3")
    again = cli("run", "golf6", "--seed", "3")
    other = cli("run", "golf6", "--seed", "4")
    assert first.stdout == again.stdout
    assert other.exit_code == 0 and other.stdout != first.stdout


def test_run_json_has_totals_and_winners() -> None:
    result = cli("run", "golf6", "--seed", "3", "--json")
    assert result.exit_code == 0
    assert len(result.stdout.strip().splitlines()) == 1
    data = json.loads(result.stdout)
    assert data == engine_results(3)
    assert len(data["totals"]) == 4 and data["rounds"] == 9
    best = min(data["totals"])
    assert data["winners"] == [p + 1 for p, t in enumerate(data["totals"]) if t == best]


def test_run_players_and_options() -> None:
    result = cli("run", "golf6", "-p", "2", "-s", "9", "-o", "rounds=2", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["players"] == 2 and data["rounds"] == 2
    assert data == engine_results(9, 2, rounds="2")
    text = cli("run", "golf6", "-p", "2", "-s", "9", "--option", "rounds=2").stdout
    assert "Standings after 2 rounds" in text


def test_run_a_rule_file_by_path() -> None:
    by_path = cli("run", str(GOLF6), "--seed", "5", "--json")
    by_name = cli("run", "golf6", "--seed", "5", "--json")
    assert by_path.exit_code == 0 and by_path.stdout == by_name.stdout


def test_run_log_writes_json_lines(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    result = cli("run", "golf6", "--seed", "3", "--log", str(log), "--json")
    assert result.exit_code == 0
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert events[0]["event"] == "round" and events[-1]["event"] == "game_end"
    ends = [e for e in events if e.get("event") == "round_end"]
    assert [e["round"] for e in ends] == list(range(1, 10))
    assert ends[-1]["totals"] == json.loads(result.stdout)["totals"]
    assert events[-1]["winners"] == json.loads(result.stdout)["winners"]
    # the table's log: no seat's own words, nor the cards (by number) named to one seat
    assert not any(key in event for event in events for key in ("told", "named"))


def test_run_log_replaces_a_link_at_its_name_never_writing_through_it(tmp_path: Path) -> None:
    victim, log = tmp_path / "victim.txt", tmp_path / "game.jsonl"
    victim.write_text("keep me\n", encoding="utf-8")
    log.symlink_to(victim)
    result = cli("run", "golf6", "--seed", "3", "--log", str(log), "--json")
    assert result.exit_code == 0, result.output
    assert victim.read_text(encoding="utf-8") == "keep me\n" and not log.is_symlink()
    assert json.loads(log.read_text(encoding="utf-8").splitlines()[-1])["event"] == "game_end"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl", "victim.txt"]


def test_run_log_to_an_unwritable_place(tmp_path: Path) -> None:
    result = cli("run", "golf6", "--log", str(tmp_path / "no" / "such" / "dir.jsonl"))
    assert result.exit_code == EXIT_GAME
    assert_one_line_cause(result, "cannot write the log to")


# ------------------------------------------------------- files the options write over
OUTPUTS = {  # each option that writes a file, in the command that takes it
    "--csv": ["simulate", "-n", "2", "-w", "1"],
    "--plot": ["simulate", "-n", "2", "-w", "1"],
    "--log": ["run", "--json"],
}


def kept_files(tmp_path: Path) -> dict[str, Path]:
    """Files no option writes, each as a user keeps it: a rule file, a saved game, a deal."""
    from cardrules.interpreter.sessions import record

    rules = tmp_path / "mygolf.yaml"
    rules.write_text(GOLF6.read_text(encoding="utf-8"), encoding="utf-8")
    save = tmp_path / "game.save"
    record.write(save, record.Record.new("golf6", {}, load_ruleset("golf6"), 4, 5,
                                         ["human"] + ["random"] * 3))
    deal = tmp_path / "deal.json"
    deal.write_text(json.dumps({"zones": {"discard": ["5C"]}}), encoding="utf-8")
    return {"rule file": rules, "save": save, "deal": deal}


@pytest.mark.parametrize("option", OUTPUTS)
def test_an_output_option_writes_over_no_file_of_another_kind(option: str,
                                                               tmp_path: Path) -> None:
    """A rule file (the very one played, too), a save or a deal named as the file --csv,
    --plot or --log writes is refused before anything is played, exit 2, naming the file;
    it is left as it was, and nothing else is written."""
    if option == "--plot":
        pytest.importorskip("matplotlib")
    kept = kept_files(tmp_path)
    before = {path: path.read_bytes() for path in kept.values()}
    command, *rest = OUTPUTS[option]
    for kind, target in kept.items():
        played = str(kept["rule file"])  # the rule file being played is a target too
        result = cli(command, played, *rest, option, str(target))
        assert result.exit_code == EXIT_USAGE, (kind, result.output)
        assert result.stdout == "" and "Traceback" not in result.output
        said = " ".join(result.stderr.split())
        assert f"will not write over {target}" in said and option in said, said
        assert {path: path.read_bytes() for path in kept.values()} == before, kind
        assert sorted(p.name for p in tmp_path.iterdir()) == \
            sorted(path.name for path in kept.values())


@pytest.mark.parametrize("option", OUTPUTS)
def test_an_output_option_writes_over_its_own_output_and_an_empty_file(option: str,
                                                                      tmp_path: Path) -> None:
    """What the option wrote before (a run of another seed), or an empty file, is written
    over with the new output, as a fresh file would be written."""
    if option == "--plot":
        pytest.importorskip("matplotlib")
    command, *rest = OUTPUTS[option]
    fresh, again, empty = tmp_path / "fresh.out", tmp_path / "again.out", tmp_path / "empty"
    assert cli(command, "golf6", *rest, "--seed", "7", option, str(again)).exit_code == 0
    earlier = again.read_bytes()
    empty.write_bytes(b"")
    for target in (fresh, again, empty):
        result = cli(command, "golf6", *rest, "--seed", "8", option, str(target))
        assert result.exit_code == 0, result.output
    assert again.read_bytes() != earlier
    if option != "--plot":  # (a picture need not be the same bytes each time it is drawn)
        assert again.read_bytes() == fresh.read_bytes() == empty.read_bytes()


@pytest.mark.parametrize("args", [
    ["play", "golf6", "--save", ""], ["resume", ""],
    ["simulate", "golf6", "-n", "2", "--csv", ""], ["simulate", "golf6", "-n", "2", "--plot", ""],
    ["run", "golf6", "--log", ""]])  # (serve's: tests/test_web.py)
def test_a_file_option_given_an_empty_text_is_refused(args: list[str]) -> None:
    """Given, but naming no file: refused, never taken for the option left out."""
    result = cli(*args)
    assert result.exit_code == EXIT_USAGE, result.output
    assert "expected a file name, got an empty text" in result.stderr


@pytest.mark.parametrize("args", [["run", "golf6"], ["simulate", "golf6", "-n", "2"],
                                  ["compare", "golf6", "golf6", "-n", "2"]])
def test_seats_given_an_empty_text_are_refused(args: list[str]) -> None:
    result = cli(*args, "--seats", "")
    assert result.exit_code == EXIT_USAGE, result.output
    assert "expected one kind for each seat" in result.stderr


def test_options_shown_at_the_syntax_trees_stage_are_checked_still() -> None:
    """The syntax tree is the text's, whatever the options; an option that is not the
    file's, or a value it does not take, is refused there as at every other stage."""
    for option, message in (("nosuch=1", "no option 'nosuch'"),
                            ("rounds=abc", "option 'rounds': expected a whole number")):
        result = cli("show", "golf6", "--stage", "nodes", "-o", option)
        assert result.exit_code != 0 and message in result.stderr, result.output
    assert cli("show", "golf6", "--stage", "nodes", "-o", "rounds=3").exit_code == 0


def test_a_run_refused_before_its_game_begins_leaves_the_log_there_as_it_was(
        tmp_path: Path) -> None:
    """--log names a log of an earlier game; the run is refused once the game is dealt (a
    seat that is not at the table, a --save that is a rule file, the same file as --save):
    the earlier log stays whole, and no new file is left, there or beside it."""
    kept = kept_files(tmp_path)
    log = tmp_path / "game.jsonl"
    assert cli("run", "golf6", "--seed", "3", "--json", "--log", str(log)).exit_code == 0
    earlier = log.read_bytes()
    names = sorted(p.name for p in tmp_path.iterdir())
    for refused in (["--human", "9"], ["--human", "1", "--save", str(kept["rule file"])],
                    ["--human", "1", "--save", str(log)]):
        result = cli("run", "golf6", "--log", str(log), *refused)
        assert result.exit_code == EXIT_USAGE, result.output
        assert log.read_bytes() == earlier, refused
        assert sorted(p.name for p in tmp_path.iterdir()) == names, refused
    assert cli("run", "golf6", "--log", str(tmp_path / "new.jsonl"), "--human", "9"
               ).exit_code == EXIT_USAGE
    assert sorted(p.name for p in tmp_path.iterdir()) == names
    # a run whose game fails before its first action (a seat's program cannot start): the
    # same; one that fails later leaves what happened so far
    result = cli("run", "golf6", "-p", "2", "--log", str(log), "--seats",
                 f"cmd:{tmp_path / 'no-such-program'},random")
    assert result.exit_code == 3 and "cannot start" in result.stderr, result.output
    assert log.read_bytes() == earlier
    assert sorted(p.name for p in tmp_path.iterdir()) == names


# ------------------------------------------------------------------ validate
def test_validate_golf6() -> None:
    result = cli("validate", str(GOLF6))
    assert result.exit_code == 0
    assert result.stdout == "1 file valid\n" and result.stderr == ""


def test_validate_every_shipped_ruleset() -> None:
    files = sorted(str(p) for p in (ROOT / "rulesets").glob("*.yaml"))
    result = cli("validate", *files)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"{len(files)} file{'s' if len(files) != 1 else ''} valid\n"


def test_validate_a_broken_file_shows_place_line_and_caret() -> None:
    path = BROKEN / "unknown_function.yaml"
    result = cli("validate", str(path))
    assert result.exit_code == EXIT_INVALID
    assert result.stdout == ""
    source = path.read_text(encoding="utf-8").splitlines()[36]
    assert result.stderr.splitlines() == [
        f"{path}:37:22: unknown function 'sise': did you mean 'size'?",
        f"    {source}",
        "    " + " " * 21 + "^" * len("sise(stock)"),
        "1 problem found",
    ]


def test_validate_reports_every_problem_of_every_file() -> None:
    files = [BROKEN / "wrong_enum.yaml", GOLF6, BROKEN / "unknown_function.yaml"]
    result = cli("validate", *map(str, files))
    assert result.exit_code == EXIT_INVALID
    heads = [line for line in result.stderr.splitlines() if re.match(r"\S+:\d+:\d+: ", line)]
    assert [h.split(":")[0] for h in heads] == [str(files[0]), str(files[2])]
    assert result.stderr.splitlines()[-1] == "2 problems found"


# -------------------------------------------------------------- the failures
def assert_one_line_cause(result: Result, cause: str) -> None:
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    assert result.stdout == ""
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    causes = [line for line in lines if cause in line]
    assert len(causes) == 1, result.stderr


@pytest.mark.parametrize(("args", "code", "cause"), [
    (["run", "no-such-file.yaml"], EXIT_INVALID, "no-such-file.yaml: no such file"),
    (["validate", "no-such-file.yaml"], EXIT_INVALID, "no-such-file.yaml: no such file"),
    (["run", "golf7"], EXIT_INVALID, "no ruleset 'golf7'"),
    (["run", "golf6", "--players", "9"], EXIT_USAGE,
     "Invalid value for --players: golf6 is for 2 to 8 players, not 9"),
    (["run", "golf6", "--players", "1"], EXIT_USAGE, "golf6 is for 2 to 8 players, not 1"),
    (["run", "golf6", "--players", "40"], EXIT_USAGE, "40 is not in the range"),
    (["run", "golf6", "-o", "rounds=many"], EXIT_INVALID,
     "option 'rounds': expected a whole number from 1 to 10000 (digits 0-9), got 'many'"),
    (["run", "golf6", "-o", "stock_runs_out=never"], EXIT_INVALID,
     "option 'stock_runs_out': expected one of reshuffle, end_round, got 'never'"),
    (["run", "golf6", "-o", "nosuch=1"], EXIT_INVALID, "no option 'nosuch'"),
    (["run", "golf6", "-o", "rounds=0"], EXIT_INVALID,
     "option 'rounds': 0 is outside its range, from 1 to 10000"),
    (["run", "golf6", "-o", "rounds"], EXIT_USAGE, "expected NAME=VALUE, got 'rounds'"),
    (["run", "golf6", "-p", "2", "--seats", "random,robot"], EXIT_USAGE,
     "unknown seat kind 'robot'"),
    (["run", "golf6", "-p", "2", "--seats", "random"], EXIT_USAGE,
     "1 seats named for 2 players"),
    (["run", "golf6", "--seed", "x"], EXIT_USAGE, "expected a whole number in digits 0-9, got 'x'"),
    # click's own words around the name may change between its releases; the name may not
    (["run"], EXIT_USAGE, "'RULESET'"),
    (["validate"], EXIT_USAGE, "'FILES...'"),
    (["frobnicate"], EXIT_USAGE, "'frobnicate'"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else None)
def test_errors_exit_non_zero_with_a_one_line_cause(args: list[str], code: int,
                                                      cause: str) -> None:
    result = CliRunner().invoke(main, args, prog_name="cardrules")
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert_one_line_cause(result, cause)


@pytest.mark.parametrize("command", ["run", "validate"])
def test_a_folder_is_not_a_rule_file(tmp_path: Path, command: str) -> None:
    result = CliRunner().invoke(main, [command, str(tmp_path)], prog_name="cardrules")
    assert result.exit_code == EXIT_INVALID
    assert f"{tmp_path}: is a folder, not a rule file" in result.stderr


def test_show_refuses_python_with_another_stage() -> None:
    result = CliRunner().invoke(main, ["show", "golf6", "--stage", "ir", "--python"],
                                prog_name="cardrules")
    assert result.exit_code == EXIT_USAGE and result.stdout == ""
    assert "--python is short for --stage python, and --stage says ir" in result.stderr
    both = CliRunner().invoke(main, ["show", "golf6", "--stage", "python", "--python"])
    assert both.exit_code == 0 and both.stdout.startswith(
        CliRunner().invoke(main, ["show", "golf6", "--python"]).stdout[:200])


def test_show_writes_a_folded_texts_comment_ended_at_its_line(tmp_path: Path) -> None:
    """A `#` in a folded rule text ends with its line (docs/grammar.md 2.17); `show` writes
    the text so, and the file it writes plays the same game ('+ 100' is not commented out)."""
    text = GOLF6.read_text(encoding="utf-8").replace(
        "      score: grid_points(p)\n",
        "      score: >-\n        grid_points(p)   # the grid\n        + 100\n")
    assert "+ 100" in text
    folded = tmp_path / "folded.yaml"
    folded.write_text(text, encoding="utf-8")
    shown = cli("show", str(folded))
    assert shown.exit_code == 0 and "  + 100\n" in shown.stdout
    again = tmp_path / "again.yaml"
    again.write_text(shown.stdout, encoding="utf-8")
    first = play_game(Engine(load_ruleset(folded)), 4, 3).totals
    assert play_game(Engine(load_ruleset(again)), 4, 3).totals == first
    assert min(first) >= 900  # nine rounds of 100 at least
    assert cli("diff", str(folded), str(again)).stdout.strip() == "no differences"


def test_words_for_people_keep_a_hash_and_an_alias_ends_its_comment_as_its_anchor(
        tmp_path: Path) -> None:
    """A `#` in a folded summary is a word (the summary reads as written, one line); a
    rule text given again by an alias ends its comment where its anchor does."""
    text = GOLF6.read_text(encoding="utf-8")
    text = text.replace("summary: |\n", "summary: >-\n  Play like game #2 of the series,\n  then"
                        " draw.\n\n", 1)
    text = text.replace('              when: "size(discard) > 0"\n',
                        "              when: &some >-\n                size(discard) > 100"
                        "   # never\n                or size(discard) > 0\n", 1)
    text = text.replace('              when: "discard_taken_card or not took_discard"\n',
                        "              when: *some\n", 1)
    path = tmp_path / "alias.yaml"
    path.write_text(text, encoding="utf-8")
    rules = load_ruleset(path)
    assert rules.summary.startswith("Play like game #2 of the series, then draw.\n")
    shown = cli("show", str(path)).stdout
    assert shown.count("size(discard) > 100   # never\n") == 2
    assert shown.count("or size(discard) > 0") == 2  # (the alias's too: not in its comment)
    engine = Engine(rules)
    state, seen = engine.new_game(2, 1), set()
    for _ in range(40):
        legal = engine.legal_actions(state)
        seen.update(action[0] for action in legal)
        engine.apply(state, legal[0])
    assert "discard" in seen  # (its `when`, the alias, holds once the pile has a card)


def test_malformed_yaml_is_located() -> None:
    path = BROKEN / "malformed_yaml.yaml"
    result = CliRunner().invoke(main, ["run", str(path)])
    assert result.exit_code == EXIT_INVALID
    first = result.stderr.splitlines()[0]
    # What follows "malformed YAML:" is the YAML library's own wording, which may change
    assert first.startswith(f"{path}:4:12: malformed YAML: ")
    assert result.stderr.splitlines()[2] == "    " + " " * 11 + "^"
    assert "Traceback" not in result.output


def test_validate_a_move_without_do(tmp_path: Path) -> None:
    text = (Path(__file__).resolve().parent / "data" / "mini.yaml").read_text(encoding="utf-8")
    path = tmp_path / "nodo.yaml"
    assert text.count("              do: []\n") == 1
    path.write_text(text.replace("              do: []\n", ""), encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.exit_code == 0
    assert result.stdout == "1 file valid\n"


# ------------------------------------------------------------ help, version
def test_version() -> None:
    result = cli("--version")
    assert result.exit_code == 0
    assert result.stdout == f"cardrules, version {version('cardrules')}\n"


@pytest.mark.parametrize(("args", "words"), [
    ([], ["run", "validate"]),
    (["run"], ["RULESET", "--players", "--seed", "--seats", "--option", "--log", "--json",
               "--plain"]),
    (["validate"], ["FILES"]),
])
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_on_every_command(args: list[str], words: list[str], flag: str) -> None:
    result = cli(*args, flag)
    assert result.exit_code == 0
    assert result.stdout.startswith(f"Usage: {' '.join(['cardrules', *args])} [OPTIONS]")
    for word in words:
        assert word in result.stdout


# ------------------------------------------------------------- the real thing
def console_script() -> str:
    beside = Path(sys.executable).with_name("cardrules")
    found = str(beside) if beside.is_file() else shutil.which("cardrules")
    assert found, "the cardrules console script is not installed"
    return found


def test_console_script_runs_like_the_test_runner() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run([console_script(), "run", "golf6", "--seed", "3"],
                          capture_output=True, text=True, encoding="utf-8", env=env,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout == cli("run", "golf6", "--seed", "3").stdout


def test_console_script_error_has_no_traceback() -> None:
    done = subprocess.run([console_script(), "run", "golf6", "--players", "9"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == EXIT_USAGE
    assert done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.endswith("Error: Invalid value for --players: golf6 is for 2 to 8 "
                                "players, not 9\n")


@pytest.mark.parametrize("args", [
    ["run", "golf6", "-p", "1"], ["play", "golf6", "-p", "1"], ["serve", "golf6", "-p", "1"],
    ["simulate", "freecell", "-p", "2", "-n", "1"],
    ["compare", "golf6", "freecell", "-n", "1"], ["compare", "golf6", "kuhn-poker", "-n", "1"],
    ["run", "golf6", "--seats", "human,ismcts:0.5s"],
    ["serve", "golf6", "--seats", "human,ismcts:0.5s"],
    ["play", "golf6", "--bots", "human"], ["serve", "golf6", "-p", "2", "--seats", "random,greedy"],
], ids=" ".join)
def test_the_same_mistake_is_a_usage_error_in_every_command(args: list[str]) -> None:
    """A player count the ruleset is not for, or seats that do not fit the table: exit code
    2, whatever the command (3 is for a game that fails in play, or a save)."""
    result = CliRunner().invoke(main, args, prog_name="cardrules")
    assert result.exit_code == EXIT_USAGE, result.output
    assert result.stdout == "" and ("Invalid value for" in result.stderr
                                    or "share no number of players" in result.stderr)


def test_compare_says_why_a_player_count_does_not_fit() -> None:
    """Two rulesets for no common table size are refused as such; where the first one's
    default is what does not fit the second, the message says it was the default."""
    apart = CliRunner().invoke(main, ["compare", "freecell", "golf6", "-n", "1"])
    assert apart.exit_code == EXIT_USAGE
    assert "share no number of players: freecell is for 1 player, golf6 is for 2 to 8 " \
        "players" in apart.stderr
    default = CliRunner().invoke(main, ["compare", "golf6", "kuhn-poker", "-n", "1"])
    assert default.exit_code == EXIT_USAGE
    assert "kuhn-poker is for 2 players, not 4 (golf6's default: give --players)" \
        in default.stderr


@pytest.mark.parametrize("args", [["run", "spades", "--reveal"], ["run", "golf6", "--view", "1"],
                                  ["run", "golf6", "--log", os.devnull]],
                         ids=["reveal", "view", "log"])
def test_a_closed_output_ends_the_command_quietly(args: list[str]) -> None:
    # `cardrules run ... | head`: the reader takes a line and closes the pipe; whatever the
    # command was doing then (a move under way, printed by a watcher), it ends without a word
    for seed in ("1", "2"):
        process = subprocess.Popen([console_script(), *args, "--seed", seed],
                                   stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE)
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.readline()
        process.stdout.close()  # as `head -1` does
        with process.stderr:
            error = process.stderr.read().decode()
        assert process.wait(timeout=120) == EXIT_CLOSED, error
        assert error == ""


def test_run_reveal_names_every_card_of_the_deal_and_marks_forced_plays() -> None:
    result = cli("run", "spades", "--reveal", "--plain", "--option", "one_deal=true")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    hands = [line for line in lines if line.strip().startswith("seat ") and "hand:" in line]
    assert len(hands) >= 4
    named = re.findall(r"\b(?:10|[2-9JQKA])[CDHS]\b", "\n".join(hands[:4]))
    assert len(named) == 52 and len(set(named)) == 52  # the whole deal, each card once
    assert any(line.endswith("(the only move)") for line in lines)
    plays = [line for line in lines if re.match(r"\s+seat \d: (Bid|Play) ", line)]
    assert len(plays) == 4 + 52  # four bids, thirteen tricks


def test_run_reveal_with_search_bots_prints_only_the_games_actions(tmp_path: Path) -> None:
    """A search tries actions on samples of the game with the same engine: none of them may
    reach the transcript. The same game played without --reveal logs its actions: the
    transcript has one line per logged action, by the same seat, in the same order."""
    game = ["run", "golf6", "-p", "2", "--seats", "greedy,ismcts:20", "-o", "rounds=1",
            "--plain"]
    shown = cli(*game, "--reveal")
    assert shown.exit_code == 0, shown.output
    lines = [line for line in shown.stdout.splitlines() if re.match(r"  seat \d: ", line)]
    log = tmp_path / "game.jsonl"
    played = cli(*game, "--log", str(log))
    assert played.exit_code == 0, played.output
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    actions = [e for e in events if e.get("event") == "action"]
    assert [int(line.split()[1].rstrip(":")) for line in lines] == [a["seat"] for a in actions]
    assert shown.stdout.split("Standings")[1] == played.stdout.split("Standings")[1]


def test_run_reveal_names_the_cards_an_action_moves() -> None:
    """The card drawn into holding and the card put into the grid are named, as are those
    the choices name; every action line of a golf6 round names a card."""
    result = cli("run", "golf6", "-p", "2", "-o", "rounds=1", "--reveal", "--plain")
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stdout.splitlines() if re.match(r"  seat \d: ", line)]
    card = r"(?:10|[2-9JQKA])[CDHS]|Jk"
    takes = [line for line in lines if "Take the top card" in line]
    assert takes and all(re.search(rf"\(({card})\)$", line) for line in takes)
    puts = [line for line in lines if "Put the card in place of" in line]
    assert puts and all(re.search(rf"in place of ({card}) \(({card})\)$", line)
                        for line in puts)
    assert all(re.search(card, line) for line in lines)


def test_reveal_words_name_the_card_drawn_and_the_card_put_in_place() -> None:
    from cardrules.cli.main import revealed_words
    engine = Engine(load_ruleset("golf6"))
    state = engine.new_game(2, 4)
    names = engine.rules.cards.names
    while state.phase == 0:  # each turns two cards face up
        engine.apply(state, engine.legal_actions(state)[0])
    top = state.zones[engine.rules.zone("stock").index][-1]
    assert revealed_words(engine, state, ("take_stock",)) == \
        f"Take the top card of the stock ({names[top]})"
    engine.apply(state, ("take_stock",))
    me = state.current
    slot = state.zones[engine.rules.zone("grid").zone_of(me)][0]
    swap = next(a for a in engine.legal_actions(state) if a[0] == "swap" and a[1] == slot)
    assert revealed_words(engine, state, swap) == \
        f"Put the card in place of {names[slot]} ({names[top]})"


@pytest.mark.parametrize("extra", [["--view", "1"], ["--json"], ["--human", "1"],
                                   ["--seats", "human,random,random,random"]])
def test_run_reveal_refuses_a_view_json_or_a_person(extra: list[str]) -> None:
    result = cli("run", "spades", "--reveal", *extra)
    assert result.exit_code == EXIT_USAGE
    assert "--reveal" in result.stderr and "Traceback" not in result.output


def test_run_view_shows_the_variables_the_seat_may_see() -> None:
    result = cli("run", "spades", "--view", "1", "--plain", "--option", "one_deal=true")
    assert result.exit_code == 0, result.output
    screens = result.stdout.split("Round 1 of 1 - seat 1's view")
    # by their labels; a bid nobody has made yet is not shown (the view, before the news
    # of the bids made after it, each told with the variable it sets)
    view = screens[1].split("  totals:")[0]
    assert "Spades broken: no" in view and "Bid:" not in view
    assert "seat 2's Bid: none -> " in screens[1]
    seats = [line for line in screens[2].splitlines()
             if re.match(r"\s+seat \d( \(you\))? +hand:", line)]
    assert len(seats) == 4 and all(re.search(r"Bid: \d+ ", line) for line in seats)


def test_a_match_played_until_a_condition_gives_its_round_count_as_a_bound() -> None:
    played_off = cli("run", "precognition", "--view", "1", "--plain")
    assert played_off.exit_code == 0, played_off.output
    assert re.search(r"^Round 1 \(at most \d+\) - seat 1's view", played_off.stdout, re.M)
    fixed = cli("run", "golf6", "--view", "1", "--plain")
    assert re.search(r"^Round 1 of 9 - seat 1's view", fixed.stdout, re.M)


def test_lsp_without_its_extra_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardrules.cli import lsp

    monkeypatch.setattr(lsp, "lsp_installed", lambda: False)
    result = cli("lsp")
    assert result.exit_code == 2 and result.stdout == ""
    assert "cardrules lsp needs the lsp extra (pygls): pip install 'cardrules[lsp]'" in \
        result.stderr


@pytest.mark.parametrize("args", [["golf6", "--view", "1", "-s", "4", "-o", "rounds=2"],
                                  ["holdem", "--view", "1", "-s", "4"],
                                  ["geohash", "--view", "2", "-s", "2"]],
                         ids=["golf6", "holdem", "geohash"])
def test_run_view_tells_a_rounds_account_after_the_action_that_ended_it(
        args: list[str]) -> None:
    """As a person playing reads it: the action ending a round and what it turned up, then
    the round's account; no action of the round comes after its account."""
    result = cli("run", *args, "--plain")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    ends = [i for i, line in enumerate(lines) if re.match(r"  Round \d+ over \(", line)]
    assert ends
    for end in ends:
        # the action that ended it (and what that did), not a view of the table
        assert re.match(r"  (you|seat \d)|    ", lines[end - 1]), lines[end - 1]
        after = next((i for i in range(end + 1, len(lines))
                      if not lines[i].startswith("    ")), len(lines))
        assert after == len(lines) or re.match(
            r"  (round \d+ begins|the game is over)|Round \d+ ", lines[after]), lines[after]
    assert not any(re.fullmatch(r"Round \d+", line) for line in lines)  # (no summary apart)


def test_run_view_shows_cards_in_its_news_as_the_table_does() -> None:
    """Suit symbols in the lines of what happened, as in the view above them (letters only
    with --plain), as a person playing sees them."""
    letters = re.compile(r"\b(?:10|[2-9JQKA])[CDHS]\b")
    shown = cli("run", "czech-golf", "--view", "1", "--seed", "3").stdout
    news = [line for line in shown.splitlines() if line.startswith("  you look at")]
    assert news and all("♠" in line or "♥" in line or "♦" in line or "♣" in line
                        for line in news)
    assert not letters.search(shown)
    plain = cli("run", "czech-golf", "--view", "1", "--seed", "3", "--plain").stdout
    assert "it was 8S" in plain and "♠" not in plain


def test_a_built_in_name_means_the_built_in_whatever_the_folder_holds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A file named like a built-in ruleset in the current folder does not stand in for it
    (nor is it read and quoted back); `./NAME` names the file."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "kuhn-poker").write_text("secret line one\nsecret: two\n", encoding="utf-8")
    assert load_ruleset("kuhn-poker").name == "kuhn-poker"
    result = CliRunner().invoke(main, ["validate", "kuhn-poker"])
    assert result.exit_code == 0 and "secret" not in result.output
    result = CliRunner().invoke(main, ["validate", "./kuhn-poker"])
    assert result.exit_code != 0 and "kuhn-poker:2" in result.output


# A game whose every round opens with one action the engine plays for each seat (an
# automatic step); with dealt=1 a round has no decision at all.
OPENING = """\
cardrules: 1
name: opening
title: Opening
summary: Each player opens with their first card, played for them, then plays the rest.
players: {min: 2, max: 2, default: 2}
options:
  - {name: dealt, default: 2, min: 1, max: 3, doc: The cards dealt to each player.}
deck: {ranks: [A, "2", "3", "4"], suits: [clubs, hearts], zone: stock}
zones:
  - {name: stock, visibility: hidden}
  - {name: pile, visibility: public}
  - {name: hand, owner: each, visibility: owner}
round:
  setup:
    - shuffle stock
    - deal dealt from stock to each hand
  phases:
    - name: open
      turns: each_once
      steps:
        - name: open
          automatic: true
          moves:
            - name: open
              label: "Open with {card}"
              choose: {card: "[first(c for c in hand[me])]"}
              do: [move card to pile face up]
    - name: play
      turns: rotate
      steps:
        - name: play
          moves:
            - name: play
              label: "Play {card}"
              choose: {card: "hand[me]"}
              do: [move card to pile face up]
triggers:
  - {name: done, after: move, when: "all(size(hand[p]) == 0 for p in players)", do: [end round]}
scoring:
  rounds: 2
  round: [{name: cards, score: "0"}]
"""


@pytest.mark.parametrize("dealt", ["2", "1"])
def test_run_reveal_shows_a_rounds_start_before_the_actions_played_for_a_seat(
        tmp_path: Path, dealt: str) -> None:
    """Each round's header, its setup and the table it left come before the round's first
    action, one the engine plays alone too, and even in a round with no decision at all."""
    path = tmp_path / "opening.yaml"
    path.write_text(OPENING, encoding="utf-8")
    out = cli("run", str(path), "--reveal", "--plain", "-o", f"dealt={dealt}").stdout
    lines = out.splitlines()
    for number in (1, 2):
        head = lines.index(next(line for line in lines if line.startswith(f"Round {number},")))
        opens = [i for i, line in enumerate(lines) if "Open with" in line]
        assert sum(head < i for i in opens) == 2 * (3 - number), out  # its two, and after
        table = lines[lines.index("  the table after the setup:", head) + 3:][:2]
        assert all(len(line.split(":")[1].split()) == int(dealt) for line in table), out


def test_run_view_and_a_person_are_told_an_action_played_for_a_seat_where_it_came(
        tmp_path: Path) -> None:
    """--view tells the openings the engine played before the view they led to; a person
    is told them before their only choice, each with its own card."""
    path = tmp_path / "opening.yaml"
    path.write_text(OPENING, encoding="utf-8")
    out = cli("run", str(path), "--view", "1", "--plain").stdout
    first_view = out.index("Round 1 of 2 - seat 1's view")
    assert -1 < out.index("you open with") < first_view, out
    assert out.index("seat 2 opens with") < first_view, out
    result = CliRunner().invoke(main, ["run", str(path), "--human", "1", "--plain"],
                                input="\n" * 4, env={"COLUMNS": "80"})
    told = result.stdout
    opened = re.search(r"\n  you open with (\S+)\n    (\S+) goes from your hand", told)
    assert opened and opened.group(1) == opened.group(2), told
    only = re.search(r"\n  your only choice: Play (\S+)\n    (\S+) goes from your hand", told)
    assert only and only.group(1) == only.group(2), told
    assert opened.start() < only.start()
