"""Mutation fuzzing in the suite: a few hundred seeded mutants of every shipped ruleset, each
refused with diagnostics that carry file:line:col, or loaded and played; none ends in a
traceback or takes longer than a short limit. benchmarks/fuzz_rulesets.py makes the mutants
and runs larger numbers of them."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted((ROOT / "rulesets").glob("*.yaml"))
# One budget of mutants shared by every shipped ruleset, so that the suite's time stays put as
# rulesets are added (benchmarks/fuzz_rulesets.py runs 500 of each and more).
MUTANTS_IN_ALL = 576
MUTANTS = max(32, MUTANTS_IN_ALL // len(RULESETS))  # of each ruleset: a few seconds of work
SEED = 16
LIMIT = 10.0  # seconds one mutant may take, validated and played


def fuzzer() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fuzz_rulesets",
                                                  ROOT / "benchmarks" / "fuzz_rulesets.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclass looks itself up there)
    spec.loader.exec_module(module)
    return module


FUZZ = fuzzer()


def test_mutants_are_the_same_for_the_same_seed() -> None:
    text = RULESETS[0].read_text(encoding="utf-8")
    assert list(FUZZ.mutants(text, 20, 5)) == list(FUZZ.mutants(text, 20, 5))
    assert list(FUZZ.mutants(text, 20, 5)) != list(FUZZ.mutants(text, 20, 6))


def test_a_hang_and_a_traceback_are_caught(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) \
        -> None:
    def forever(path: Path) -> None:
        while True:
            pass

    monkeypatch.setattr(FUZZ, "_attempt", forever)
    assert FUZZ.attempt(tmp_path / "x.yaml", limit=0.2).kind == "bad"
    monkeypatch.setattr(FUZZ, "_attempt", lambda path: [][0])
    outcome = FUZZ.attempt(tmp_path / "x.yaml")
    assert outcome.kind == "bad" and outcome.detail.startswith("IndexError")


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda p: p.stem)
def test_no_mutant_of_a_shipped_ruleset_ends_in_a_traceback(ruleset: Path,
                                                            tmp_path: Path) -> None:
    counts: Counter[str] = Counter()
    for text, outcome in FUZZ.fuzz(ruleset, MUTANTS, SEED, tmp_path, LIMIT):
        counts[outcome.kind] += 1
        assert outcome.kind != "bad", f"{outcome.detail}\n--- the mutant:\n{text}"
    # More than a third refused: the mutants reach the checker. (Not half: a ruleset that
    # extends another is in good part its summary, words in which a word swapped or a line
    # moved is still a valid file.)
    assert counts["refused"] > MUTANTS // 3 and counts["valid"] > 0, counts
