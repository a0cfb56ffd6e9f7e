"""The language grows without breaking a rule file: a rule file's own names win over built-ins.

tests/data/grown/ holds rule files written against earlier lists of built-ins, each naming a
function, value table or variable as the language later named a built-in (`trick_winner`,
`size`, `combinations`, the card attribute `play_rank`...). Each must validate, with a hint
where its name hides a built-in, and play to the end. And as the language will go on growing,
each name such a file declares is given to a new built-in here, of every kind at once: the
file must still validate and compile to the very same code.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardrules.dsl import builtins
from cardrules.dsl.compiler import compile_document
from cardrules.dsl.loader import check_files, load_document
from cardrules.dsl.typesys import INT
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.players.bots import make_bot
from cardrules.interpreter.sessions.play import play

GROWN = sorted((Path(__file__).resolve().parent / "data" / "grown").glob("*.yaml"))


@pytest.mark.parametrize("path", GROWN, ids=[p.stem for p in GROWN])
def test_a_file_written_against_older_builtins_validates_and_plays(path: Path) -> None:
    found = check_files([str(path)], hints=True)
    assert [d for d in found if not d.hint] == []
    hidden = {d.message.split("'")[1] for d in found if d.hint}
    declared = {f["name"] for f in load_document(path).data.get("functions", [])}
    assert declared & set(builtins.FUNCTIONS) <= hidden
    rules = compile_document(load_document(path))
    for seed in range(3):
        engine = Engine(rules)
        state = engine.new_game(None, seed)
        bots = [make_bot("random", seed, seat) for seat in range(state.n)]
        assert play(engine, state, bots).over


def _names(path: Path) -> set[str]:
    """Every name a file declares: its functions, value tables, variables, zones, options."""
    data = load_document(path).data
    names = {entry["name"] for key in ("functions", "variables", "zones", "options")
             for entry in data.get(key, [])}
    return names | set(data.get("values", {}))


@pytest.mark.parametrize("path", GROWN, ids=[p.stem for p in GROWN])
def test_a_builtin_added_later_changes_nothing_in_a_file(
        path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = compile_document(load_document(path)).python
    new = _names(path) - builtins.SETTLED_NAMES - builtins.SETTLED_CARD_ATTRIBUTES \
        - builtins.SETTLED_PLAYER_ATTRIBUTES
    assert new
    for name in new:  # a built-in of every kind, by each name the file gives
        monkeypatch.setitem(builtins.FUNCTIONS, name, builtins.Builtin(
            name, (), INT, "A built-in added later.", lambda args, site: args[0]))
        monkeypatch.setitem(builtins.NAMES, name, builtins.BuiltinName(name, INT, "0", "Later."))
        monkeypatch.setitem(builtins.CARD_ATTRIBUTES, name, (INT, "0", "Later."))
        monkeypatch.setitem(builtins.PLAYER_ATTRIBUTES, name, (INT, "0", "Later."))
    assert check_files([str(path)]) == []
    assert compile_document(load_document(path)).python == before
