"""Hostile values from the command line, the prompt and rule text meant for a terminal: each is
refused with one line that says what is expected, or printed harmless. No traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cardrules.cli.main import main
from cardrules.present.render import printable

MINI = Path(__file__).resolve().parent / "data" / "mini.yaml"
EXIT_USAGE, EXIT_INVALID, EXIT_GAME = 2, 1, 3
DIGITS = "9" * 5000  # more digits than Python will turn into a number


def cli(*args: str, input: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), prog_name="cardrules", input=input)


def test_a_number_written_with_leading_zeros_is_that_number() -> None:
    """`-s 00000000000000000001` is seed 1 (its digits past 19 are zeros)."""
    ones = CliRunner().invoke(main, ["run", "golf6", "-p", "2", "--json", "-s", "1"])
    padded = CliRunner().invoke(main, ["run", "golf6", "-p", "2", "--json", "-s",
                                       "0" * 24 + "1"])
    assert padded.exit_code == ones.exit_code == 0, padded.output
    assert padded.stdout == ones.stdout
    many = CliRunner().invoke(main, ["run", "golf6", "-p", "2", "--json", "-s",
                                     "0" * 5000 + "1"])  # (more digits than int() reads)
    assert many.exit_code == 0 and many.stdout == ones.stdout, many.output


@pytest.mark.parametrize(("args", "code", "cause"), [
    (["run", "golf6", "-o", "rounds=٣"], EXIT_INVALID, "option 'rounds': expected a whole number"),
    (["run", "golf6", "-o", "rounds=３"], EXIT_INVALID, "option 'rounds': expected a whole number"),
    (["run", "golf6", "-o", "rounds=3_000"], EXIT_INVALID,
     "option 'rounds': expected a whole number"),
    (["run", "golf6", "-o", "rounds=" + DIGITS], EXIT_INVALID,
     "option 'rounds': 999999999999999999999... is outside its range, from 1 to 10000"),
    (["run", "golf6", "-o", "rounds=999999999999999999"], EXIT_INVALID,
     "option 'rounds': 999999999999999999 is outside its range, from 1 to 10000"),
    (["run", "golf6", "-o", "rounds=-99999999999"], EXIT_INVALID,
     "option 'rounds': -99999999999 is outside its range, from 1 to 10000"),
    (["run", "golf6", "-o", "rounds=many"], EXIT_INVALID,
     "option 'rounds': expected a whole number from 1 to 10000 (digits 0-9), got 'many'"),
    (["run", "golf6", "-o", "stock_runs_out=x"], EXIT_INVALID,
     "option 'stock_runs_out': expected one of reshuffle, end_round, got 'x'"),
    (["run", "golf6", "-o", "joker_pair_cancels=maybe"], EXIT_INVALID,
     "option 'joker_pair_cancels': expected true or false (or yes or no), got 'maybe'"),
    (["run", "golf6", "-o", "rounds=1000000000"], EXIT_INVALID,
     "outside its range, from 1 to 10000"),
    (["run", "golf6", "--seed", "٣"], EXIT_USAGE, "expected a whole number in digits 0-9"),
    (["run", "golf6", "--seed", "3_000"], EXIT_USAGE, "expected a whole number in digits 0-9"),
    (["run", "golf6", "--seed", DIGITS], EXIT_USAGE, "is far too large"),
    (["run", "golf6", "--seed", "9223372036854775808"], EXIT_USAGE, "is not in the range"),
    (["run", "golf6", "--players", "３"], EXIT_USAGE, "expected a whole number in digits 0-9"),
    (["run", "golf6", "--log", ""], EXIT_USAGE, "expected a file name, got an empty text"),
    (["run", "golf6", "--human", "1", "--save", ""], EXIT_USAGE, "expected a file name"),
    (["run", "golf6", "--json", "--view", "1"], EXIT_USAGE, "--json prints the results alone"),
    (["run", "golf6", "-p", "2", "--seats", "ismcts:1000000,random"], EXIT_USAGE,
     "at most 100,000 iterations"),
    (["run", "golf6", "-p", "2", "--seats", "greedy:5000,random"], EXIT_USAGE,
     "at most 1,000 samples"),
    (["run", "golf6", "-p", "2", "--seats", "ismcts:99999s,random"], EXIT_USAGE,
     "at most 3,600 seconds"),
    (["run", "golf6", "-p", "2", "--seats", "ismcts:nans,random"], EXIT_USAGE,
     "the budget after ':' must be"),
    (["run", "golf6", "-p", "2", "--seats", "ismcts:٣,random"], EXIT_USAGE,
     "the budget after ':' must be"),
    (["run", "golf6", "-p", "2", "--seats", "ismcts:" + DIGITS + ",random"], EXIT_USAGE,
     "the budget after ':' must be"),
    (["simulate", "golf6", "-n", "٣"], EXIT_USAGE, "expected a whole number in digits 0-9"),
    (["simulate", "golf6", "-n", "2", "--workers", "1_0"], EXIT_USAGE,
     "expected a whole number in digits 0-9"),
    (["serve", "golf6", "--delay", "nan"], EXIT_USAGE, "expected seconds in digits 0-9"),
    (["serve", "golf6", "--delay", "inf"], EXIT_USAGE, "expected seconds in digits 0-9"),
    (["serve", "golf6", "--delay", "61"], EXIT_USAGE, "61 is not in the range 0<=x<=60"),
    (["serve", "golf6", "--delay", "99999999999999999999"], EXIT_USAGE,
     "'99999999999999999999' is not in the range 0<=x<=60"),
    (["serve", "golf6", "--delay", "-1"], EXIT_USAGE, "'-1' is not in the range 0<=x<=60"),
    (["serve", "golf6", "--react-wait", "0.1234567"], EXIT_USAGE,
     "'0.1234567' has more than 6 decimals: expected seconds in the range 0<=x<=3600"),
    (["serve", "golf6", "--delay", "x"], EXIT_USAGE, "in the range 0<=x<=60, got 'x'"),
    (["lsp", "--delay", "99999999"], EXIT_USAGE, "'99999999' is not in the range 0<=x<=5"),
    (["simulate", "golf6", "-n", "9" * 25], EXIT_USAGE,
     "is far too large: expected x>=1 of at most 19 digits"),
    (["serve", "golf6", "--port", "9" * 25], EXIT_USAGE,
     "is far too large: expected 0<=x<=65535"),
    (["serve", "golf6", "--port", "\x1b[2J"], EXIT_USAGE, "got '\\x1b[2J'"),
], ids=lambda v: " ".join(v)[:60] if isinstance(v, list) else None)
def test_a_bad_flag_value_is_refused_in_one_line(args: list[str], code: int,
                                                 cause: str) -> None:
    result = cli(*args)
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output and "\x1b" not in result.output
    assert sum(cause in line for line in result.output.splitlines()) == 1, result.output


def test_an_options_bad_value_is_located_at_its_declaration() -> None:
    """A value the option can never take is reported in the rule file: at the bound it
    passes (digits too many for any number too), else at the option's name."""
    for given, where, shown in [("rounds=999999999999999999", ":24:10: ", "max: 10000"),
                                ("stock_runs_out=x", ":41:11: ", "- name: stock_runs_out")]:
        result = cli("run", "golf6", "-o", given)
        assert result.exit_code == EXIT_INVALID, result.output
        head, line, caret = result.output.splitlines()[:3]
        assert "golf6.yaml" + where in head and line.strip() == shown and "^" in caret


def test_many_workers_are_capped_with_a_line_saying_so() -> None:
    result = cli("simulate", "golf6-quick", "-n", "2", "--workers", "10000")
    assert result.exit_code == 0, result.output
    assert "--workers 10000: this machine has" in result.output


@pytest.mark.parametrize(("typed", "refusal"), [
    ("١", "'١' is not a number in digits 0-9"),
    ("１", "'１' is not a number in digits 0-9"),
    ("１ 2", "'１' is not a number in digits 0-9"),
    (DIGITS, "there is no choice 999999999...: type a number from 1 to 6"),
    ("3_0", "no choice has the words '3_0'"),
    ("x" * 6000, "no choice has the words '" + "x" * 37 + "...'"),
    ("\x1b]0;owned\x07", "no choice has the words '\\x1b]0;owned\\x07'"),
])
def test_an_odd_answer_at_the_prompt_is_refused_and_the_game_goes_on(
        typed: str, refusal: str) -> None:
    result = cli("play", "golf6", "-p", "2", "--seed", "1", "--plain", input=typed + "\n1\n")
    assert result.exit_code == EXIT_GAME  # input ended after the good answer
    assert "Traceback" not in result.output and "\x1b" not in result.stdout
    assert f"refused: {refusal}" in result.stdout
    assert result.stdout.count("Type a number") == 2  # the answer 1 was taken


@pytest.mark.parametrize(("text", "shown"), [
    ("plain", "plain"),
    ("\x1b[2J\x1b[HMini", "Mini"),
    ("\x1b]0;window title\x07Mini", "Mini"),
    ("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "link"),
    ("a\x9b31mb", "ab"),
    ("bell\x07 and\tdel\x7f", "bell and del"),
    ("right\u202eto left\u200b", "rightto left"),
])
def test_printable_removes_escapes_and_controls(text: str, shown: str) -> None:
    assert printable(text) == shown


def test_rule_text_with_escapes_reaches_the_terminal_harmless(tmp_path: Path) -> None:
    path = tmp_path / "mini.yaml"
    text = MINI.read_text(encoding="utf-8")
    path.write_text(text.replace("title: Mini", 'title: "\\e]0;owned\\aMini\\e[2J"')
                    .replace("label: Keep every card", 'label: "Keep\\e[8m every card"'),
                    encoding="utf-8")
    for args in (["run", str(path)], ["run", str(path), "--view", "1"],
                 ["play", str(path), "--seed", "2"]):
        result = cli(*args, input="\n".join(["1"] * 40) + "\n")
        assert "Mini" in result.output, result.output
        assert "\x1b" not in result.output and "\x07" not in result.output


def test_show_writes_a_texts_hidden_characters_as_escapes(tmp_path: Path) -> None:
    """`show` prints the rule file back as YAML: a text's escapes, controls and a character
    that turns the text's direction round are written as escapes in double quotes, so the
    terminal is handed none of them, and the file shown reads the same."""
    import yaml

    path = tmp_path / "mini.yaml"
    label = 'label: "Keep\\e[8m every\\tcard \\u202eevil"'
    path.write_text(MINI.read_text(encoding="utf-8").replace("label: Keep every card", label),
                    encoding="utf-8")
    result = cli("show", str(path))
    assert result.exit_code == 0, result.output
    assert result.output.isascii() or all(ch.isprintable() or ch == "\n"
                                           for ch in result.output)
    assert "\\u202e" in result.output and "\x1b" not in result.output
    shown = tmp_path / "shown.yaml"
    shown.write_text(result.output, encoding="utf-8")
    labels = [yaml.safe_load(p.read_text(encoding="utf-8"))["round"]["phases"][0]["steps"][1]
              ["moves"][1]["label"] for p in (path, shown)]
    assert labels[0] == labels[1] == "Keep\x1b[8m every\tcard \u202eevil"


LONG = "x" * 300  # longer than a file name may be


@pytest.mark.parametrize(("args", "code", "cause"), [
    (["resume", "/dev/zero"], EXIT_GAME, "/dev/zero: is not a file (a folder, a device, "
                                         "or a pipe), not a saved game"),
    (["resume", "/dev/null"], EXIT_GAME, "/dev/null: is not a file"),
    (["resume", "/tmp"], EXIT_GAME, "/tmp: is not a file"),
    (["run", "golf6", "--deal", "/dev/zero"], EXIT_INVALID, "/dev/zero: is not a file (a "
                                                            "folder, a device, or a pipe), "
                                                            "not a deal file"),
    (["validate", "/dev/zero"], EXIT_INVALID, "/dev/zero: is not a file (a device, or a pipe)"),
    (["validate", "/"], EXIT_INVALID, "/: is a folder, not a rule file"),
    (["validate", LONG + ".yaml"], EXIT_INVALID, "...: no such file"),
    (["run", LONG], EXIT_INVALID, "not a file, and not one of the built-in rulesets"),
    (["resume", LONG + ".json"], EXIT_GAME, "error: " + LONG[:40]),
    (["run", "golf6", "--log", LONG + ".jsonl"], EXIT_GAME, "cannot write the log to"),
], ids=lambda v: " ".join(v)[:40] if isinstance(v, list) else None)
def test_a_file_that_is_no_file_never_ends_or_has_too_long_a_name_is_refused(
        args: list[str], code: int, cause: str) -> None:
    if args[1].startswith("/dev/") and not Path(args[1]).exists():
        pytest.skip(f"no {args[1]} here")
    result = cli(*args)
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output and cause in result.output, result.output


def test_a_pipe_given_as_a_save_or_a_deal_is_refused_without_waiting(tmp_path: Path) -> None:
    """Opening a named pipe to read waits for a writer: a save or a deal that is one is
    refused before it is opened, as a rule file that is one is."""
    import os

    pipe = tmp_path / "fifo.yaml"
    os.mkfifo(pipe)
    for args, code in ((["resume", str(pipe)], EXIT_GAME),
                       (["run", "golf6", "--deal", str(pipe)], EXIT_INVALID),
                       (["validate", str(pipe)], EXIT_INVALID)):
        result = cli(*args)
        assert result.exit_code == code and "is not a file" in result.output, result.output


def test_a_file_of_too_many_rules_is_refused_before_its_rule_text_is_read(
        tmp_path: Path) -> None:
    """Each move, trigger, function and procedure is compiled on its own: a file gives at
    most 256 in all (2,000 moves took 25 s and 723 MB to load). The first past the bound
    is told, in the file's order."""
    import yaml

    data = yaml.safe_load(MINI.read_text(encoding="utf-8"))
    data["functions"] = [{"name": f"f{i}", "value": str(i)} for i in range(246)]
    data["procedures"] = [{"name": f"p{i}", "do": ["shuffle stock"]} for i in range(5)]
    path = tmp_path / "many.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    assert cli("validate", str(path)).exit_code == 0  # and the mini's 4 moves and trigger
    data["procedures"].append({"name": "p5", "do": ["shuffle stock"]})
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    result = cli("validate", str(path))
    assert result.exit_code == EXIT_INVALID, result.output
    assert "a ruleset gives at most 256 moves, triggers, functions and procedures in all; " \
        "this one gives 257" in result.output, result.output
    assert "1 problem found" in result.output and "- name: p5" in result.output


def _nested(depth: int, kind: str = "until") -> list:
    """A setup of `depth` blocks, each inside the last (whiles and untils in turn, or ifs)."""
    body: list = ["shuffle stock"]
    for level in range(depth):
        if kind == "if":
            body = [{"if": "true", "then": body}]
        else:
            key = ("while", "until")[level % 2] if kind == "loops" else kind
            body = [{key: "true", "limit": 1, "do": body}]
    return body


def test_a_rule_files_structure_is_checked_once_however_deep_its_blocks_nest(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A statement is read as the block its first key names, alone: were every kind of block
    tried on it, a block inside one would be read once for each kind, and again for each
    kind at every level (a kilobyte of nested `until:` took days to validate). Counted in
    the schema's steps, not timed: each level adds the same few."""
    import jsonschema

    from cardrules.dsl import schema
    from cardrules.dsl.loader import load_document

    steps = [0]
    descend = jsonschema.Draft202012Validator.descend

    def counted(self: object, *args: object, **kwargs: object) -> object:
        steps[0] += 1
        return descend(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(jsonschema.Draft202012Validator, "descend", counted)
    data = load_document(MINI).data
    for kind in ("until", "loops", "if"):
        taken = []
        for depth in (4, 8, 12):
            data["round"]["setup"] = _nested(depth, kind)
            steps[0] = 0
            assert list(schema._validator().iter_errors(data)) == []
            taken.append(steps[0])
        assert taken[2] - taken[1] == taken[1] - taken[0] < 100, (kind, taken)


def test_blocks_nested_deeper_than_python_compiles_are_told_so(tmp_path: Path) -> None:
    """Procedures may nest blocks past what Python compiles of the code written for them: the
    file is told where its loops nest too deeply (exit 1), not that cardrules failed."""
    import yaml

    data = yaml.safe_load(MINI.read_text(encoding="utf-8"))
    data["procedures"] = [{"name": "deep", "do": _nested(23, "loops")}]
    data["round"]["setup"] = ["shuffle stock", "deep()"]
    path = tmp_path / "deep.yaml"
    path.write_text(yaml.safe_dump(data, default_flow_style=True, width=10**6),
                    encoding="utf-8")
    result = cli("validate", str(path))
    assert result.exit_code == EXIT_INVALID, result.output
    assert "blocks that loop (for, while, until) nest at most 16 deep in one rule" in \
        result.output and "Traceback" not in result.output


@pytest.mark.parametrize("seats", [[], ["--human", "1"]])
def test_a_deal_the_table_cannot_take_writes_no_file(seats: list[str], tmp_path: Path) -> None:
    """A deal file that reads well but names cards the table does not shuffle is refused (a
    fault of the file: exit 1, located) before the game begins: the log already there is
    left as it was, and no new file is written."""
    log, fresh = tmp_path / "game.jsonl", tmp_path / "fresh.jsonl"
    assert cli("run", "golf6", "-o", "rounds=1", "--log", str(log)).exit_code == 0
    before = log.read_bytes()
    deal = tmp_path / "deal.yaml"
    deal.write_text("shuffles: [[]]\n", encoding="utf-8")
    for target in (log, fresh):
        result = cli("run", "golf6", "--log", str(target), "--deal", str(deal), *seats,
                     input="quit\n")
        assert result.exit_code == EXIT_INVALID, result.output
        assert f"{deal}:1:" in result.output and "Traceback" not in result.output
    assert log.read_bytes() == before and not fresh.exists()


def test_a_rules_fault_in_the_first_deal_is_the_rules_not_the_deal_files(tmp_path: Path) -> None:
    """The first deal is tried before the game begins to refuse a deal file the table cannot
    take; a fault of the rules in that setup is told as in play (exit 3), not as the file's."""
    rules = tmp_path / "mini.yaml"
    rules.write_text(MINI.read_text(encoding="utf-8").replace(
        "    - shuffle stock\n", "    - shuffle stock\n    - set drawn = 1 / drawn\n", 1),
        encoding="utf-8")
    deal = tmp_path / "deal.yaml"
    deal.write_text("shuffles: [[AC, 2C, 3C, KC, AD, 2D, 3D, KD, AH, 2H, 3H, KH, AS, 2S, 3S, "
                    "KS]]\n", encoding="utf-8")
    for extra in ([], ["--deal", str(deal)]):
        result = cli("run", str(rules), *extra)
        assert result.exit_code == EXIT_GAME, (extra, result.output)
        assert "division by zero" in result.output and "Traceback" not in result.output
