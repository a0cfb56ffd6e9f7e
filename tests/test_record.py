"""Saved games as replay records (interpreter/sessions/record.py), on every shipped ruleset.

A game is played some way with bots, its record written and read back, replayed from the
seed, and played on: it must go on exactly as the game that never stopped.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardrules.dsl.loader import builtin_names, load_ruleset
from cardrules.errors import GameError, IllegalAction
from cardrules.interpreter.domains import Words
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.players.bots import Bot
from cardrules.interpreter.sessions import record
from cardrules.interpreter.sessions.record import HUMAN, Record, action_data, find_action, make_bots
from cardrules.interpreter.state import GameState

BEFORE, AFTER = 60, 40  # actions before the save, and after it


def play_on(engine: Engine, state: GameState, bots: list[Bot | None], rec: Record,
            count: int) -> None:
    """`count` actions by the seats' bots (or to the end), each noted in `rec`."""
    for _ in range(count):
        legal = engine.legal_actions(state)
        if not legal:
            return
        seat = engine.to_move(state)
        bot = bots[seat]
        assert seat is not None and bot is not None
        action = bot.choose(engine, state, legal)
        engine.apply(state, action)
        rec.actions.append(action_data(action))


@pytest.mark.parametrize("name", builtin_names())
def test_a_record_replays_and_the_game_goes_on_as_if_never_stopped(
        name: str, tmp_path: Path) -> None:
    rules = load_ruleset(name)
    engine = Engine(rules)
    seats = ["random"] * rules.default_players
    seats[-1] = "greedy" if name == "golf6" else "random"
    rec = Record.new(name, {}, rules, rules.default_players, 3, seats)
    state = engine.new_game(rules.default_players, 3)
    bots = make_bots(seats, 3)
    play_on(engine, state, bots, rec, BEFORE)
    rec.keep_streams(bots)
    record.write(tmp_path / "game.json", rec)
    play_on(engine, state, bots, rec, AFTER)

    saved = record.read(tmp_path / "game.json")
    assert saved.actions == rec.actions[:len(saved.actions)]
    again_engine, again = record.start(saved, load_ruleset)
    record.replay(saved, again_engine, again)
    again_bots = make_bots(saved.seats, saved.seed)
    record.restore_streams(again_bots, saved.bots)
    play_on(again_engine, again, again_bots, saved, AFTER)
    assert again.to_dict() == state.to_dict()
    assert saved.actions == rec.actions


def test_a_typed_text_is_recorded_and_checked_against_its_domain() -> None:
    engine = Engine(load_ruleset("precognition"))
    state = engine.new_game(2, 1)
    template = next(a for a in engine.legal_actions(state) if a[0] == "predict")
    assert isinstance(template[1], Words)
    action = find_action(engine, state, ["predict", "UDU"])
    assert action == ("predict", "UDU")
    for wrong in (["predict", "UDX"], ["predict", ""], ["predict", 3], ["predict"]):
        with pytest.raises(IllegalAction):
            find_action(engine, state, wrong)


def test_an_action_is_matched_by_its_exact_json() -> None:
    engine = Engine(load_ruleset("golf6"))
    state = engine.new_game(2, 1)
    reveal = next(a for a in engine.legal_actions(state) if a[0] == "reveal")
    assert find_action(engine, state, action_data(reveal)) is reveal
    for wrong in ([reveal[0], float(reveal[1])], [reveal[0], str(reveal[1])],
                  [reveal[0], reveal[1], 0], "reveal", [], [7]):
        with pytest.raises(IllegalAction):
            find_action(engine, state, wrong)


def test_a_choice_of_cards_saved_in_another_order_is_the_same_action() -> None:
    """A save written before a hand's cards were listed in the deck's order names a choice
    of several cards in its holder's order: it is the one action of those cards (never
    another, and never a list of other cards)."""
    engine = Engine(load_ruleset("dou-dizhu"))
    found = 0
    for seed in range(10):
        state = engine.new_game(3, seed)
        legal = engine.legal_actions(state)
        while legal and not any(isinstance(p, tuple) and len(p) > 1 for a in legal for p in a):
            legal = engine.play(state, legal[0])
        for action in legal:
            data = action_data(action)
            if not any(isinstance(p, list) and len(p) > 1 for p in data):
                continue
            held = [p[::-1] if isinstance(p, list) else p for p in data]
            assert find_action(engine, state, held) == action
            other = [[p[0] + 1000, *p[1:]] if isinstance(p, list) else p for p in data]
            with pytest.raises(IllegalAction):
                find_action(engine, state, other)
            found += 1
    assert found > 10


def test_loads_refuses_what_is_not_a_record() -> None:
    rules = load_ruleset("golf6")
    good = Record.new("golf6", {}, rules, 2, 1, [HUMAN, "random"])
    good.keep_streams(make_bots(good.seats, 1))
    assert record.loads(record.dumps(good)) == good
    data = good.to_data()
    for key, value, cause in [
            ("seed", True, "its seed"), ("players", 2.0, "its players"),
            ("options", {"rounds": 2}, "its options"), ("seats", "human", "its seats"),
            ("plain", "yes", "display setting"), ("ruleset", "", "its ruleset"),
            ("bots", [None, [3, [0] * 624 + [625], None]], "random streams"),
            ("bots", [None, [2, [0] * 625, None]], "random streams")]:
        with pytest.raises(GameError, match=cause):
            record.loads(json.dumps({**data, key: value}))
    with pytest.raises(GameError, match="far too large"):
        record.loads('{"format": "cardrules-save/2", "seed": ' + "9" * 5000 + "}")


def _save_naming(tmp_path: Path, ruleset: str) -> Path:
    rules = load_ruleset("golf6")
    saved = Record.new("golf6", {}, rules, 2, 1, [HUMAN, "random"])
    saved.keep_streams(make_bots(saved.seats, 1))
    path = tmp_path / "game.save"
    path.write_text(json.dumps({**saved.to_data(), "ruleset": ruleset}), encoding="utf-8")
    return path


@pytest.mark.parametrize(("name", "content", "cause"), [
    ("shadow", "root:$6$hunter2:19000:0:99999:7:::\n",
     "a saved game names a built-in ruleset or a file whose name ends in .yaml or .yml"),
    ("secret.env", "cardrules: 1\nAPI_KEY=hunter2\n", "ends in .yaml or .yml"),
    ("notes.yaml", "password: hunter2\n", "it has no top-level 'cardrules:' key"),
    ("list.yml", "- hunter2\n", "it has no top-level 'cardrules:' key"),
])
def test_a_save_naming_a_file_that_is_not_a_rule_file_is_refused_without_telling_of_it(
        tmp_path: Path, name: str, content: str, cause: str) -> None:
    """A save is data anyone may have written: its `ruleset` is a built-in name or a rule file
    (.yaml or .yml, declaring `cardrules:`), as a parent in `extends:` is. Any other file is
    refused unread, with the message a missing file gets; a .yaml that is no rule file is
    named, never quoted. `resume` and `serve --resume` check alike."""
    from click.testing import CliRunner

    from cardrules.cli.main import main
    from cardrules.dsl.loader import load_referenced
    from cardrules.web.game import Game

    (tmp_path / name).write_text(content, encoding="utf-8")
    there, missing = str(tmp_path / name), str(tmp_path / "gone" / name)
    said = []
    for ref in (there, missing):
        with pytest.raises(GameError) as refused:
            record.start(record.read(_save_naming(tmp_path, ref)), load_referenced)
        said.append(str(refused.value).replace(ref, "REF"))
        assert f"its ruleset '{ref}' cannot be loaded: not a rule file" in str(refused.value) \
            or "no such file" in str(refused.value)
    assert cause in said[0] and "hunter2" not in said[0], said[0]
    if not name.endswith((".yaml", ".yml")):  # refused unread: nothing tells it is there
        assert said[0] == said[1]
    result = CliRunner().invoke(main, ["resume", str(_save_naming(tmp_path, there))])
    assert result.exit_code == 3 and cause in result.output and "hunter2" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    with pytest.raises(GameError, match="not a rule file"):
        Game.resume(_save_naming(tmp_path, there))


def test_a_save_naming_a_rule_file_or_a_built_in_ruleset_resumes(tmp_path: Path) -> None:
    from cardrules.dsl.loader import load_referenced

    shipped = str(Path(__file__).resolve().parent.parent / "rulesets" / "golf6.yaml")
    for ref in ("golf6", shipped):
        engine, state = record.start(record.read(_save_naming(tmp_path, ref)), load_referenced)
        assert engine.rules.name == "golf6" and not state.over


def test_a_record_the_reader_would_refuse_is_never_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Writer and reader hold one set of limits: a game too long for a save is refused when
    it is written, saying why, and the save written before it stays as it was."""
    monkeypatch.setattr(record, "MAX_ACTIONS", 4)
    rules = load_ruleset("golf6")
    engine = Engine(rules)
    state = engine.new_game(2, 1)
    rec = Record.new("golf6", {}, rules, 2, 1, [HUMAN, "random"])
    rec.keep_streams(make_bots(rec.seats, 1))
    path = tmp_path / "game.json"
    for number in range(1, 6):
        action = engine.legal_actions(state)[0]
        engine.apply(state, action)
        rec.actions.append(action_data(action))
        if number <= 4:
            record.write(path, rec)
            assert record.read(path).actions == rec.actions
    kept = path.read_bytes()
    with pytest.raises(GameError, match=r"cannot save the game to .*game\.json: too long for a "
                                        r"saved game \(5 actions; a save holds at most 4\)"):
        record.write(path, rec)
    assert path.read_bytes() == kept and sorted(tmp_path.iterdir()) == [path]


def test_at_the_terminal_a_game_too_long_to_save_goes_on_and_says_so_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from cardrules.cli.main import main

    monkeypatch.setattr(record, "MAX_ACTIONS", 6)
    save = tmp_path / "game.json"
    result = CliRunner().invoke(main, ["run", "golf6", "-p", "2", "-s", "3", "-o", "rounds=1",
                                       "--human", "1", "--save", str(save)],
                                input="1\n" * 200)
    assert result.exit_code == 0, result.output
    assert result.stderr.count("warning: cannot save the game to") == 1, result.stderr
    assert "too long for a saved game" in result.stderr and "Game over." in result.stdout
    assert 0 < len(record.read(save).actions) <= 6  # the last save that could be resumed


def test_what_is_written_is_read_back_and_nothing_else_is_written(tmp_path: Path) -> None:
    """An action holding a number a game may hold (3,000,000,000: beyond 2^31, within 2^53)
    is saved and read back; an action the reader would refuse (a number beyond 2^53) is not
    written, and the save there is left as it was."""
    base = (Path(__file__).resolve().parent / "data" / "mini.yaml").read_text(encoding="utf-8")
    text = base.replace("              label: Keep every card\n              do: []",
                        "              label: \"Keep, bidding {n}\"\n"
                        "              choose: {n: \"numbers(3000000000, 3000000001)\"}\n"
                        "              do: []")
    path = tmp_path / "big.yaml"
    path.write_text(text, encoding="utf-8")
    rules = load_ruleset(path)
    engine = Engine(rules)
    state = engine.new_game(2, 1)
    saved = Record.new(str(path), {}, rules, 2, 1, [HUMAN, HUMAN])
    saved.bots = [None, None]  # (two people: no random streams)
    for _ in range(2):
        legal = engine.legal_actions(state)
        action = next((a for a in legal if a[0] == "keep"), legal[0])
        engine.apply(state, action)
        saved.actions.append(action_data(action))
    assert ["keep", 3000000000] in saved.actions
    save = tmp_path / "game.cardrules-save"
    record.write(save, saved)
    assert record.read(save).actions == saved.actions
    saved.actions.append(["keep", 2**60])
    with pytest.raises(GameError, match="cannot save the game"):
        record.write(save, saved)
    assert len(record.read(save).actions) == 2


def small_record() -> Record:
    rules = load_ruleset("kuhn-poker")
    rec = Record.new("kuhn-poker", {}, rules, 2, 5, [HUMAN, "random"])
    rec.keep_streams(make_bots(rec.seats, 5))
    return rec


def test_a_save_is_made_anew_beside_the_file_never_through_a_planted_link(
        tmp_path: Path) -> None:
    """The file a save is written into before it takes the save's place is a new one, made
    for it alone: links planted where a fixed name would be are left alone, and the save is
    its owner's alone to read; nothing else is left in the folder."""
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n", encoding="utf-8")
    save = tmp_path / "s.save"
    for name in ("s.save.part", ".s.save.part", "s.save.tmp"):
        (tmp_path / name).symlink_to(victim)
    record.write(save, small_record())
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    assert record.read(save).seed == 5 and save.stat().st_mode & 0o777 == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        ".s.save.part", "s.save", "s.save.part", "s.save.tmp", "victim.txt"]


def test_a_save_that_fails_part_way_leaves_the_save_before_and_nothing_else(
        tmp_path: Path) -> None:
    """A save cut off by a limit on a file's size (ulimit -f) is refused, saying so; the
    save there before is whole, and no part of the new one is left behind."""
    import subprocess
    import sys

    save = tmp_path / "s.save"
    record.write(save, small_record())
    before = save.read_bytes()
    script = ("import resource, sys\n"
              "from pathlib import Path\n"
              "from cardrules.interpreter.sessions import record\n"
              "saved = record.read(Path(sys.argv[1]))\n"
              "saved.actions = [['bet']] * 2000\n"  # (read back unchecked: written as data)
              "resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))\n"
              "try:\n"
              "    record.write(Path(sys.argv[1]), saved)\n"
              "except Exception as exc:\n"
              "    print(exc)\n")
    done = subprocess.run([sys.executable, "-c", script, str(save)], capture_output=True,
                          text=True, timeout=60)
    assert "cannot save the game to" in done.stdout and "too large" in done.stdout, done
    assert save.read_bytes() == before and [p.name for p in tmp_path.iterdir()] == ["s.save"]


def test_a_save_keeps_each_persons_reaction_settings_and_checks_them() -> None:
    """`reacting`: per seat, a person's {"stop", "wanted"} or None for a bot's; written only
    where a person's are not the defaults, so a save without it (older ones too) resumes
    with the defaults; any other shape is a damaged save."""
    rec = small_record()
    data = rec.to_data()
    assert "reacting" not in data and record.from_data(data).reacting is None
    data["reacting"] = [{"stop": True, "wanted": False}, None]
    assert record.from_data(json.loads(json.dumps(data))).reacting == data["reacting"]
    for damaged in ([{"stop": True, "wanted": False}], [None, {"stop": True, "wanted": True}],
                    [{"stop": 1, "wanted": False}, None], [{"stop": True}, None],
                    [{"stop": True, "wanted": False, "more": True}, None], {"0": None}):
        with pytest.raises(GameError, match="a damaged saved game \\(its reaction settings"):
            record.from_data({**data, "reacting": damaged})
