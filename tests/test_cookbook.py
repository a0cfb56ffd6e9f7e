"""docs/grammar.md's cookbook: every rule file in it loads and plays."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.play import play_game

DOC = Path(__file__).resolve().parent.parent / "docs" / "grammar.md"


def recipes() -> dict[str, str]:
    """Each ```yaml block of the cookbook section, by the name it gives."""
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## 16. Cookbook"):]
    blocks = re.findall(r"^```yaml\n(.*?)^```", section, re.MULTILINE | re.DOTALL)
    return {re.search(r"^name: (\S+)", b, re.MULTILINE).group(1): b  # type: ignore[union-attr]
            for b in blocks}


def test_the_cookbook_has_its_recipes() -> None:
    assert "knock-rummy" in recipes()


@pytest.mark.parametrize("name", sorted(recipes()))
def test_a_recipe_plays(tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.yaml"
    path.write_text(recipes()[name], encoding="utf-8")
    engine = Engine(load_ruleset(path))
    for seed in range(2):
        state = play_game(engine, None, seed)
        assert state.over and not state.cut_off and state.winners


def test_the_rummy_scores_deadwood_and_knocks_at_ten(tmp_path: Path) -> None:
    path = tmp_path / "knock.yaml"
    path.write_text(recipes()["knock-rummy"], encoding="utf-8")
    engine = Engine(load_ruleset(path))
    state = play_game(engine, None, 4)
    assert len(state.round_scores) == 3
    assert any(min(scores) <= 10 for scores in state.round_scores)  # the knocker's
