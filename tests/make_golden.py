"""Write the golden game transcripts in tests/golden/: one game per ruleset, played by
random bots from a fixed seed, recorded as its actions, its results and a digest of its
event log. tests/test_golden.py replays them. Regenerate on purpose, after a change that is
meant to change games:

    python tests/make_golden.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from test_golden import log_digest  # this script runs from tests/, beside the test

from cardrules.dsl.loader import load_ruleset
from cardrules.interpreter.bots import make_bot
from cardrules.interpreter.engine import Engine

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"
SEED = 2024


def record(path: Path) -> dict[str, Any]:
    """Play one game of the ruleset at `path` with random bots and record it."""
    engine = Engine(load_ruleset(path))
    state = engine.new_game(None, SEED, log=True)
    bots = [make_bot("random", SEED, seat) for seat in range(state.n)]
    actions = []
    legal = engine.legal_actions(state)
    while legal:
        seat = engine.to_move(state)
        assert seat is not None
        action = bots[seat].choose(engine, state, legal)
        actions.append(list(action))
        legal = engine.step(state, action)
    return {"ruleset": path.name, "seed": SEED, "players": state.n, "actions": actions,
            "results": engine.results(state), "log_sha256": log_digest(state)}


def main() -> int:
    GOLDEN.mkdir(exist_ok=True)
    for path in sorted((ROOT / "rulesets").glob("*.yaml")):
        transcript = record(path)
        out = GOLDEN / (path.stem + ".json")
        out.write_text(json.dumps(transcript, separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"{out.relative_to(ROOT)}: {len(transcript['actions'])} actions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
