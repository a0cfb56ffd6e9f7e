"""Opening a rule file, or a save that names one, is never more dangerous than opening a text
file: hostile text in any field of a rule file is refused with a located message, or, where
the field is free text, kept as text. Nothing of it ever runs.

Every payload tries to make Python create a sentinel file; after each attempt the sentinel
must not exist. Payloads go into every kind of text field of tests/data/mini.yaml and of each
shipped ruleset, through validate, run and resume; Hypothesis builds more from their parts.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardrules.cli.main import main
from cardrules.dsl.loader import load_ruleset
from cardrules.errors import CardrulesError, RulesetError
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.players.bots import make_bot
from cardrules.interpreter.sessions import record

ROOT = Path(__file__).resolve().parent.parent
MINI = yaml.safe_load((ROOT / "tests" / "data" / "mini.yaml").read_text(encoding="utf-8"))
RULESETS = sorted((ROOT / "rulesets").glob("*.yaml"))

# SENTINEL stands for the path the payload tries to create.
PAYLOADS = [
    "__import__('os').mkdir('SENTINEL')",
    "top.__globals__['__builtins__']['__import__']('os').mkdir('SENTINEL')",
    "p\tin\ttop.__globals__['__builtins__']['__import__']('os').mkdir('SENTINEL') in players",
    "x'); __import__('os').mkdir('SENTINEL'); ('",
    'x"); __import__("os").mkdir("SENTINEL"); ("',
    '"""; __import__("os").mkdir("SENTINEL"); """',
    "1\n__import__('os').mkdir('SENTINEL')",
    "1; __import__('os').mkdir('SENTINEL')",
    "1 # \n__import__('os').mkdir('SENTINEL')",
    "size(stock) > 0 or __import__('os').mkdir('SENTINEL')",
    "().__class__.__base__.__subclasses__()[0]",
    "lambda: __import__('os').mkdir('SENTINEL')",
    "exec(\"__import__('os').mkdir('SENTINEL')\")",
    "open('SENTINEL', 'w')",
    "getattr(me, '__class__')",
    "{card.__class__.__init__.__globals__}",
    "{card:{card}}",
    "}",
    "{",
    "ｓｉｚｅ(stock) > 0",
    "ſize(stock) > 0",
    "\u0430ll(c.face_up for c in stock)",  # a Cyrillic a
    "f'{__import__(\"os\").mkdir(\"SENTINEL\")}'",
    "move top(stock) to discard; __import__('os').mkdir('SENTINEL')",
    "v_me",
    "S.zones",
]

EXPRESSIONS = ("when", "if", "score", "initial", "value", "copies", "wild", "rounds", "until",
               "evaluate", "skip_turn", "repeat")
STATEMENT_LISTS = ("do", "setup", "end", "then", "else", "on_skip")


def text_fields(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[str, tuple[Any, ...]]]:
    """(kind, path) of every piece of rule text or name in a rule file's data."""
    if isinstance(data, dict):
        for key, value in data.items():
            here = (*path, key)
            if key in EXPRESSIONS and not isinstance(value, (dict, list)):
                yield "expression", here
            elif key == "for":
                yield "for", here
            elif key == "label":
                yield "label", here
            elif key in ("name", "zone", "then") and isinstance(value, str):
                yield "name", here
            elif key in ("title", "summary", "doc", "default"):
                yield "text", here
            if path and path[-1] == "choose":
                yield "domain", here
                yield "key", here
            elif path and path[-1] in ("values", "params"):
                yield "key", here
            if isinstance(value, (dict, list)):
                yield from text_fields(value, here)
    elif isinstance(data, list):
        for i, item in enumerate(data):
            if isinstance(item, str) and path and path[-1] in STATEMENT_LISTS:
                yield "statement", (*path, i)
            elif isinstance(item, (dict, list)):
                yield from text_fields(item, (*path, i))


def with_text(data: dict[str, Any], kind: str, path: tuple[Any, ...], text: str) -> dict[str, Any]:
    """A copy of `data` with `text` at `path` (as the key there, for a key)."""
    out = copy.deepcopy(data)
    node = out
    for part in path[:-1]:
        node = node[part]
    if kind == "key":
        node[text] = node.pop(path[-1])
    else:
        node[path[-1]] = text
    return out


def attempt(data: dict[str, Any], where: Path, sentinel: Path) -> None:
    """Validate the rule file; if it is valid, play it and describe its actions. Nothing may
    escape but a located refusal, and the sentinel must never appear."""
    where.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False),
                     encoding="utf-8")
    try:
        rules = load_ruleset(where)
    except RulesetError as exc:
        for d in exc.diagnostics:  # (a child's mistake may show in the parent it breaks)
            assert d.location is not None, d.format()
            assert "Traceback" not in d.format() and "please report" not in d.format(), \
                d.format()
    else:
        try:
            engine = Engine(rules)
            state = engine.new_game(None, seed=1)
            bot = make_bot("random", 1, 0)
            legal = engine.legal_actions(state)
            for _ in range(60):  # every move's rules run, and the labels are rendered
                if not legal:
                    break
                for action in legal[:20]:
                    engine.words.describe(action, state)
                legal = engine.play(state, bot.choose(engine, state, legal))
        except CardrulesError as exc:  # a rule that fails in play: refused, located
            assert "please report" not in str(exc), str(exc)
    assert not sentinel.exists(), f"rule text ran Python: {where.read_text()}"


def mini_fields() -> list[tuple[str, tuple[Any, ...]]]:
    data = copy.deepcopy(MINI)
    data["round"]["setup"].append({"for": "p in players", "do": ["shuffle stock"]})
    return list(text_fields(data))


MINI_FIELDS = mini_fields()


def test_every_kind_of_text_field_is_covered() -> None:
    kinds = {kind for kind, _ in MINI_FIELDS}
    assert kinds == {"expression", "statement", "domain", "for", "label", "name", "text", "key"}


@pytest.mark.parametrize(("kind", "path"), MINI_FIELDS,
                         ids=[f"{k}:{'.'.join(map(str, p))}" for k, p in MINI_FIELDS])
def test_no_payload_in_any_field_of_a_small_ruleset_runs(kind: str, path: tuple[Any, ...],
                                                         tmp_path: Path) -> None:
    sentinel = tmp_path / "pwned"
    base = copy.deepcopy(MINI)
    base["round"]["setup"].append({"for": "p in players", "do": ["shuffle stock"]})
    # Free text (titles, docs, a text option's default) is never read as code: a few will do.
    for payload in PAYLOADS if kind != "text" else PAYLOADS[:4] + PAYLOADS[15:17]:
        text = payload.replace("SENTINEL", str(sentinel))
        attempt(with_text(base, kind, path, text), tmp_path / "rules.yaml", sentinel)


def first_of_each_kind(path: Path) -> list[tuple[str, tuple[Any, ...]]]:
    seen: dict[str, tuple[Any, ...]] = {}
    for kind, where in text_fields(yaml.safe_load(path.read_text(encoding="utf-8"))):
        seen.setdefault(kind, where)
    return sorted(seen.items())


@pytest.mark.parametrize("ruleset", RULESETS, ids=[p.stem for p in RULESETS])
def test_no_payload_in_a_shipped_ruleset_runs(ruleset: Path, tmp_path: Path) -> None:
    data = yaml.safe_load(ruleset.read_text(encoding="utf-8"))
    if "extends" in data:  # keep the child beside its parent's name
        data["extends"] = str(ROOT / "rulesets" / (data["extends"] + ".yaml"))
    sentinel = tmp_path / "pwned"
    # each kind of field its own payload of the four, in turn (every payload in every field
    # is tried on the small ruleset, above)
    chosen = (PAYLOADS[1], PAYLOADS[3], PAYLOADS[6], PAYLOADS[15])
    for index, (kind, path) in enumerate(first_of_each_kind(ruleset)):
        text = chosen[index % len(chosen)].replace("SENTINEL", str(sentinel))
        attempt(with_text(data, kind, path, text), tmp_path / ruleset.name, sentinel)


def test_the_command_line_refuses_with_located_messages(tmp_path: Path) -> None:
    sentinel = tmp_path / "pwned"
    hostile = PAYLOADS[2].replace("SENTINEL", str(sentinel))
    data = copy.deepcopy(MINI)
    data["round"]["setup"].append({"for": hostile, "do": []})
    path = tmp_path / "x.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    runner = CliRunner()
    for args in (["validate", str(path)], ["run", str(path)], ["show", "--python", str(path)]):
        result = runner.invoke(main, args, prog_name="cardrules")
        assert result.exit_code == 1, result.output
        assert result.stderr.startswith(f"{path}:"), result.stderr
        assert "Traceback" not in result.output
    assert not sentinel.exists()


def test_a_save_naming_a_hostile_ruleset_is_refused(tmp_path: Path) -> None:
    """A save names its ruleset; whoever wrote the save may have written that file too, with
    the fingerprint to match. Resuming loads it like any rule file: refused, nothing runs."""
    sentinel = tmp_path / "pwned"
    data = copy.deepcopy(MINI)
    data["round"]["setup"].append({"for": PAYLOADS[2].replace("SENTINEL", str(sentinel)),
                                   "do": []})
    rules = tmp_path / "hostile.yaml"
    rules.write_text(yaml.safe_dump(MINI), encoding="utf-8")
    game = record.Record.new(str(rules), {}, load_ruleset(rules), 2, 1, ["human", "random"])
    game.keep_streams(record.make_bots(game.seats, game.seed))
    rules.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    game.digest = hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()
                                 ).hexdigest()[:16]
    save = tmp_path / "game.cardrules-save"
    record.write(save, game)
    result = CliRunner().invoke(main, ["resume", str(save)], prog_name="cardrules")
    assert result.exit_code == 3, result.output
    assert "cannot be loaded" in result.stderr and "Traceback" not in result.output
    assert not sentinel.exists()


FRAGMENTS = st.sampled_from([
    "__import__", "('os')", ".mkdir", "('SENTINEL')", "'", '"', "\t", "\n", ";", "#", "{",
    "}", "in", "players", "top(stock)", "__globals__", "[", "]", "(", ")", ".", ",", " ",
    "ｓ", "ſ", "\u0430", "move", "to", "discard", "face", "up", "=", "==", "and", "not",
    "card", "me", "S", "B", "lambda", ":", "exec", "eval", "\\", "%", "*", "**", "@",
])


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=st.lists(FRAGMENTS, min_size=1, max_size=12), field=st.sampled_from(MINI_FIELDS))
def test_built_payloads_never_run(parts: list[str], field: tuple[str, tuple[Any, ...]],
                                  tmp_path: Path) -> None:
    sentinel = tmp_path / "pwned"
    text = "".join(parts).replace("SENTINEL", str(sentinel))
    base = copy.deepcopy(MINI)
    base["round"]["setup"].append({"for": "p in players", "do": ["shuffle stock"]})
    kind, path = field
    attempt(with_text(base, kind, path, text), tmp_path / "built.yaml", sentinel)
