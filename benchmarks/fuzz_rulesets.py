"""Mutation fuzzing of the shipped rulesets: every mutant is refused with located diagnostics,
or loads and plays; none ends in a traceback or runs past a time limit.

    python benchmarks/fuzz_rulesets.py --mutants 1000 --seed 1     # per ruleset
    python benchmarks/fuzz_rulesets.py --mutants 200 --ruleset golf6 --show 5
    python benchmarks/fuzz_rulesets.py --mutants 200 --file tests/games/*.yaml

A mutant is a ruleset with one to three small edits to its text: a line deleted, doubled,
moved or re-indented; a word swapped for another of the file's or for a hostile token
(brackets, YAML tags and anchors, numbers of thousands of digits, letters of other scripts,
escape sequences); a number made extreme; a byte that is not UTF-8; the file cut short.
Each is validated; a valid one plays a short game with random bots. Prints the count of each
outcome, per ruleset.
tests/test_fuzz.py runs a small, fixed part of this in the suite.
"""

from __future__ import annotations

import argparse
import random
import re
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from cardrules.dsl.loader import load_ruleset
from cardrules.errors import CardrulesError, RuleRuntimeError, RulesetError
from cardrules.interpreter.engine import Engine
from cardrules.interpreter.players.bots import make_bot

RULESETS = Path(__file__).resolve().parent.parent / "rulesets"
LOCATED = re.compile(r"[^\n]+:\d+:\d+: \S")
HOSTILE = ["{", "}", "[", "]", ":", ": ", ",", "'", '"', "#", "&a ", "*a", "!!int ", "!!str ",
           "|", ">", "- ", "\t", "\n", "9" * 5000, "-1", "0", "18446744073709551616",
           "-18446744073709551616", "1000000000", "٣", "ſ", "ｓ", "\x1b[2J", "\u202e", "\x00",
           "faceup", "ornot", "none", "me", "{card:{card}}", "(", ")", " + ", "==", "=", "..",
           "\\", "<<: *a", "~", "null", "true", "yes", "1e9", "0x10", "__class__", "%",
           "extends: /etc/passwd", "copies: 99999", "repeat: 1000000"]
ACTIONS = 150  # played of a valid mutant
LIMIT = 20.0  # seconds a mutant may take (validate and play), on a busy machine


class Hang(Exception):
    """A mutant took longer than the limit."""


@dataclass
class Outcome:
    """What became of one mutant: 'refused', 'valid', 'fault' (refused in play), or 'bad'
    (a traceback, a diagnostic without a place, or a hang), with the reason for 'bad'."""

    kind: str
    detail: str = ""
    seconds: float = 0.0


# ------------------------------------------------------------------ mutations
Lines = list[str]


def delete_line(lines: Lines, rng: random.Random) -> None:
    if len(lines) > 1:
        del lines[rng.randrange(len(lines))]


def double_line(lines: Lines, rng: random.Random) -> None:
    lines.insert(rng.randrange(len(lines) + 1), rng.choice(lines))


def move_line(lines: Lines, rng: random.Random) -> None:
    line = lines.pop(rng.randrange(len(lines)))
    lines.insert(rng.randrange(len(lines) + 1), line)


def reindent(lines: Lines, rng: random.Random) -> None:
    i = rng.randrange(len(lines))
    lines[i] = (" " * rng.choice([1, 2, 4]) + lines[i]) if rng.random() < 0.5 \
        else lines[i][rng.choice([1, 2]):]


def insert_token(lines: Lines, rng: random.Random) -> None:
    i = rng.randrange(len(lines))
    at = rng.randrange(len(lines[i]) + 1)
    lines[i] = lines[i][:at] + rng.choice(HOSTILE) + lines[i][at:]


def cut_span(lines: Lines, rng: random.Random) -> None:
    i = rng.randrange(len(lines))
    at = rng.randrange(len(lines[i]) + 1)
    lines[i] = lines[i][:at] + lines[i][at + rng.randint(1, 8):]


def swap_word(lines: Lines, rng: random.Random) -> None:
    words = [w for line in lines for w in re.findall(r"[A-Za-z_][A-Za-z_0-9]*", line)]
    i = rng.randrange(len(lines))
    spots = list(re.finditer(r"[A-Za-z_][A-Za-z_0-9]*|[0-9]+", lines[i]))
    if spots and words:
        m = rng.choice(spots)
        new = rng.choice(HOSTILE) if rng.random() < 0.3 else rng.choice(words)
        lines[i] = lines[i][:m.start()] + new + lines[i][m.end():]


def extreme_number(lines: Lines, rng: random.Random) -> None:
    spots = [(i, m) for i, line in enumerate(lines) for m in re.finditer(r"\b[0-9]+\b", line)]
    if spots:
        i, m = rng.choice(spots)
        new = rng.choice(["0", "-1", "1000000000", "18446744073709551616", "-999999",
                          "9" * 5000, "65", "4097", "10001"])
        lines[i] = lines[i][:m.start()] + new + lines[i][m.end():]


def invalid_byte(lines: Lines, rng: random.Random) -> None:
    """A byte that is no UTF-8 (written as such by `fuzz`: a lone surrogate escape)."""
    i = rng.randrange(len(lines))
    at = rng.randrange(len(lines[i]) + 1)
    lines[i] = lines[i][:at] + rng.choice(["\udce9", "\udcff", "\udcc3"]) + lines[i][at:]


def cut_short(lines: Lines, rng: random.Random) -> None:
    text = "".join(lines)
    at = rng.randrange(len(text))
    lines[:] = text[:at].splitlines(keepends=True) or ["\n"]


MUTATIONS: list[Callable[[Lines, random.Random], None]] = [
    delete_line, double_line, move_line, reindent, insert_token, insert_token, cut_span,
    swap_word, swap_word, swap_word, extreme_number, cut_short, invalid_byte]


def mutants(text: str, count: int, seed: int) -> Iterator[str]:
    """`count` mutants of `text`, the same ones for the same seed."""
    rng = random.Random(seed)
    base = text.splitlines(keepends=True)
    for _ in range(count):
        lines = list(base)
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            rng.choice(MUTATIONS)(lines, rng)
        yield "".join(lines)


# ------------------------------------------------------------------ one mutant
def _alarm(signum: int, frame: FrameType | None) -> None:
    raise Hang


def attempt(path: Path, limit: float = LIMIT) -> Outcome:
    """Validate the rule file at `path` and, if it is valid, play a short game of it."""
    started = time.perf_counter()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        outcome = _attempt(path)
    except Hang:
        outcome = Outcome("bad", f"took more than {limit} s")
    except RecursionError:
        outcome = Outcome("bad", "RecursionError\n" + traceback.format_exc(limit=-8))
    except Exception as exc:  # noqa: BLE001 - anything else escaping is what we look for
        outcome = Outcome("bad", f"{type(exc).__name__}\n" + traceback.format_exc(limit=-8))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    outcome.seconds = time.perf_counter() - started
    return outcome


def _attempt(path: Path) -> Outcome:
    try:
        rules = load_ruleset(path)
    except RulesetError as exc:
        for d in exc.diagnostics:
            text = d.format()
            if d.location is None or not LOCATED.match(text) or "please report" in text:
                return Outcome("bad", "a diagnostic without its place: " + text)
        return Outcome("refused")
    engine = Engine(rules)
    try:
        state = engine.new_game(None, seed=1)
        bot = make_bot("random", 1, 0)
        legal = engine.legal_actions(state)
        for _ in range(ACTIONS):
            if not legal:
                break
            for action in legal[:10]:
                engine.words.describe(action, state)
            legal = engine.play(state, bot.choose(engine, state, legal))
        engine.results(state)
    except RuleRuntimeError as exc:
        text = exc.diagnostic.format() if exc.diagnostic else str(exc)
        if not LOCATED.match(text) or "please report" in text:
            return Outcome("bad", "a fault in play without its place or cause: " + text)
        return Outcome("fault")
    except CardrulesError:
        return Outcome("fault")
    return Outcome("valid")


def fuzz(ruleset: Path, count: int, seed: int, folder: Path,
         limit: float = LIMIT) -> Iterator[tuple[str, Outcome]]:
    """(mutant text, outcome) of each of `count` seeded mutants of `ruleset`."""
    path = folder / ruleset.name
    for text in mutants(ruleset.read_text(encoding="utf-8"), count, seed):
        path.write_text(text, encoding="utf-8", errors="surrogateescape")
        yield text, attempt(path, limit)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mutants", type=int, default=1000, help="per ruleset")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ruleset", action="append", help="a shipped ruleset's name "
                                                           "(default: all)")
    parser.add_argument("--file", action="extend", nargs="+", type=Path,
                        help="rule files by path, in place of the shipped rulesets (e.g. the "
                             "test games of tests/games/, which use the newest constructs)")
    parser.add_argument("--show", type=int, default=3, help="bad mutants shown per ruleset")
    args = parser.parse_args()
    paths = sorted(RULESETS.glob("*.yaml"))
    if args.ruleset:
        paths = [p for p in paths if p.stem in args.ruleset]
    if args.file:
        paths = [p for p in paths if args.ruleset] + args.file
    total: Counter[str] = Counter()
    started = time.perf_counter()
    print(f"{'ruleset':<16}{'mutants':>8}{'refused':>9}{'valid':>7}{'fault':>7}{'bad':>5}"
          f"{'slowest':>9}")
    with tempfile.TemporaryDirectory() as folder:
        for path in paths:
            counts: Counter[str] = Counter()
            slowest = 0.0
            shown = 0
            for text, outcome in fuzz(path, args.mutants, args.seed, Path(folder)):
                counts[outcome.kind] += 1
                slowest = max(slowest, outcome.seconds)
                if outcome.kind == "bad" and shown < args.show:
                    shown += 1
                    print(f"--- bad mutant of {path.name}: {outcome.detail}\n{text[:3000]}",
                          file=sys.stderr)
            total.update(counts)
            print(f"{path.stem:<16}{args.mutants:>8}{counts['refused']:>9}{counts['valid']:>7}"
                  f"{counts['fault']:>7}{counts['bad']:>5}{slowest:>8.2f}s")
    print(f"{'all':<16}{sum(total.values()):>8}{total['refused']:>9}{total['valid']:>7}"
          f"{total['fault']:>7}{total['bad']:>5}   in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
