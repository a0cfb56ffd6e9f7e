"""Golden game transcripts: each ruleset's recorded game replays to the same results and
the same event log. After a change that is meant to change games, regenerate them with
`python tests/make_golden.py` and review the difference."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from cardrules.dsl.compiler import compile_document
from cardrules.dsl.loader import load_document, load_ruleset, resolve
from cardrules.dsl.schema import check_structure
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.state import GameState

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TRANSCRIPTS = sorted((HERE / "golden").glob("*.json"))


def test_every_ruleset_has_a_transcript() -> None:
    rulesets = {p.stem for p in (ROOT / "rulesets").glob("*.yaml")}
    assert {p.stem for p in TRANSCRIPTS} == rulesets, "run python tests/make_golden.py"


def log_digest(state: GameState) -> str:
    """A digest of the whole event log: any change in what a game does changes it."""
    text = "\n".join(json.dumps(event, sort_keys=True) for event in state.log or [])
    return hashlib.sha256(text.encode()).hexdigest()


def replay_action(action: list[Any]) -> tuple[Any, ...]:
    """JSON turned tuples into lists: a layout parameter is a tuple of tuples again."""
    return tuple(tuple(tuple(m) for m in a) if isinstance(a, list) else a for a in action)


def compiled(path: Path, inline: bool) -> Engine:
    """The ruleset's engine; without `inline`, its code calls the runtime's card rules
    instead of specialising them in place."""
    if inline:
        return Engine(load_ruleset(path))
    doc = load_document(resolve(str(path)))
    assert not list(check_structure(doc))
    return Engine(compile_document(doc, inline=False))


@pytest.mark.parametrize("inline", [True, False], ids=["specialised", "runtime calls"])
@pytest.mark.parametrize("path", TRANSCRIPTS, ids=[p.stem for p in TRANSCRIPTS])
def test_a_recorded_game_replays_exactly(path: Path, inline: bool) -> None:
    """Every recorded game replays to the same results and event log, whether the card
    rules are specialised in the generated code or called in the runtime (one definition)."""
    golden = json.loads(path.read_text(encoding="utf-8"))
    engine = compiled(ROOT / "rulesets" / golden["ruleset"], inline)
    state = engine.new_game(golden["players"], golden["seed"], log=True)
    for number, action in enumerate(golden["actions"]):
        assert not state.over, f"the game ended early, before action {number}"
        engine.apply(state, replay_action(action))  # refuses anything not legal now
    assert state.over
    assert engine.results(state) == golden["results"]
    assert log_digest(state) == golden["log_sha256"]
