"""How far the suite's seeded searches go: the random games, mutants and pairs of games that
look for a broken promise. Each such budget is written `deep(n)`: `n` on an ordinary run,
which keeps the whole suite within five minutes on two cores, and `n` times
CARDRULES_TEST_DEPTH where that is set, for a longer search of the same promises:

    CARDRULES_TEST_DEPTH=10 python -m pytest tests/test_information.py
"""

from __future__ import annotations

import os


def _depth() -> tuple[float, str]:
    """The depth asked for, and what is wrong with it ('' if nothing: tests/conftest.py
    stops the run before it starts, saying so)."""
    text = os.environ.get("CARDRULES_TEST_DEPTH", "").strip() or "1"
    try:
        depth = float(text)
    except ValueError:
        return 1.0, f"CARDRULES_TEST_DEPTH is {text[:20]!r}: a number, such as 4 or 0.5"
    if not 0 < depth <= 1000:
        return 1.0, f"CARDRULES_TEST_DEPTH is {text[:20]}: a number above 0, at most 1000"
    return depth, ""


DEPTH, PROBLEM = _depth()


def deep(n: int) -> int:
    """A search budget of `n` (games, mutants, decisions...), as deep as the run asks."""
    return max(1, round(n * DEPTH))
