"""Write the golden games in tests/golden/: one game per ruleset, played by random bots from a
fixed seed, kept as a transcript a person can read (NAME.txt; tests/test_golden.py says what
it holds, and replays it). Regenerate on purpose, after a change that is meant to change games,
then review the diff:

    python tests/make_golden.py
"""

from __future__ import annotations

import sys

from test_golden import GOLDEN, ROOT, SEED, Choose, play  # run from tests/, beside the test

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.players.bots import make_bot
from cardrules.interpreter.state import GameState
from cardrules.model import Action


def random_bots(players: int) -> Choose:
    """Random bots in every seat, each drawing from its own stream of the seed."""
    bots = [make_bot("random", SEED, seat) for seat in range(players)]

    def choose(engine: Engine, state: GameState, legal: list[Action]) -> Action:
        seat = engine.to_move(state)
        assert seat is not None
        return bots[seat].choose(engine, state, legal)
    return choose


def main() -> int:
    GOLDEN.mkdir(exist_ok=True)
    for path in sorted((ROOT / "rulesets").glob("*.yaml")):
        rules = load_ruleset(path)
        players = rules.default_players
        text = play(rules, path.relative_to(ROOT).as_posix(), players, SEED,
                    random_bots(players))
        out = GOLDEN / (path.stem + ".txt")
        out.write_text(text, encoding="utf-8")
        print(f"{out.relative_to(ROOT)}: {text.count(chr(10))} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
