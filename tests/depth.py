"""How far the suite's seeded searches go: the random games, mutants and pairs of games that
look for a broken promise. Each such budget is written `deep(n)`: `n` on an ordinary run,
which keeps the whole suite within five minutes on two cores, and `n` times
CARDRULES_TEST_DEPTH where that is set, for a longer search of the same promises:

    CARDRULES_TEST_DEPTH=10 python -m pytest tests/test_information.py
"""

from __future__ import annotations

import os


def _depth() -> float:
    text = os.environ.get("CARDRULES_TEST_DEPTH", "").strip() or "1"
    try:
        depth = float(text)
    except ValueError:
        raise SystemExit(f"CARDRULES_TEST_DEPTH is {text!r}: a number, as 4 or 0.5") from None
    if not 0 < depth <= 1000:
        raise SystemExit(f"CARDRULES_TEST_DEPTH is {text}: a number above 0, at most 1000")
    return depth


DEPTH = _depth()


def deep(n: int) -> int:
    """A search budget of `n` (games, mutants, decisions...), as deep as the run asks."""
    return max(1, round(n * DEPTH))
