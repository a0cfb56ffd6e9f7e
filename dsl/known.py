"""What is known of a value before any game (the work bound's view of it, dsl/work.py): of
a list, the most items it may hold and what is known of each; of a number, its least and its
most, where they can be worked out from the rule text, the options and the value tables."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Known:
    """What is known of a value before the game: of a list, the most items it holds and what
    is known of each; of a number, its least and its most where they are known."""

    most: int = 1
    item: Known | None = None
    low: int | None = None
    high: int | None = None
    zoned: bool = False  # a list of cards in play (as many as a zone holds)
    listed: bool = False  # subsets or combinations of such a list


def join(a: Known, b: Known) -> Known:
    """What is known of a value that is either a or b."""
    item = a.item if b.item is None else b.item if a.item is None else join(a.item, b.item)
    low = None if a.low is None or b.low is None else min(a.low, b.low)
    high = None if a.high is None or b.high is None else max(a.high, b.high)
    return Known(max(a.most, b.most), item, low, high, a.zoned or b.zoned,
                 a.listed or b.listed)


def number(low: int | None, high: int | None) -> Known:
    return Known(1, None, low, high)


def arithmetic(op: str, a: Known, b: Known) -> Known:
    if None in (a.low, a.high, b.low, b.high):
        if op == "%" and b.low is not None and b.low > 0 and b.high is not None:
            return number(0, b.high - 1)
        return Known()
    assert a.low is not None and a.high is not None and b.low is not None \
        and b.high is not None
    if op == "+":
        return number(a.low + b.low, a.high + b.high)
    if op == "-":
        return number(a.low - b.high, a.high - b.low)
    if op == "*":
        ends = [x * y for x in (a.low, a.high) for y in (b.low, b.high)]
        return number(min(ends), max(ends))
    if op == "%" and b.low > 0:
        return number(0, b.high - 1)
    if op == "/" and b.low > 0:  # (rounded down)
        ends = [a.low // b.low, a.low // b.high, a.high // b.low, a.high // b.high]
        return number(min(ends), max(ends))
    return Known()


def extreme(f: str, args: list[Known]) -> Known:
    if f == "abs":
        a = args[0]
        if a.low is None or a.high is None:
            return Known()
        top = max(abs(a.low), abs(a.high))
        return number(0 if a.low <= 0 <= a.high else min(abs(a.low), abs(a.high)), top)
    lows = [a.low for a in args]
    highs = [a.high for a in args]
    pick = min if f == "min" else max
    low = None if None in lows else pick(x for x in lows if x is not None)
    high = None if None in highs else pick(x for x in highs if x is not None)
    return number(low, high)
