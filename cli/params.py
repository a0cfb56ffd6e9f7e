"""Numbers on the command line: ASCII digits, within stated bounds.

Python's int() and float() read '٣', '３', '3_000', 'nan' and 'inf'; click's INT and FLOAT
types pass such text on. A flag value is typed by a person or a script, so these types take
only what the help shows: an optional '-', ASCII digits, for seconds a '.' and more digits.
"""

from __future__ import annotations

import re
from typing import Any

import click

from .render import quoted

MAX_SEED = 2**63 - 1  # a saved game keeps a seed of at most this size, either sign
_WHOLE = re.compile(r"-?[0-9]+", re.ASCII)
MAX_DIGITS = 19  # of any number a flag takes
_DECIMAL = re.compile(r"[0-9]{1,6}(?:\.[0-9]{0,6})?|\.[0-9]{1,6}", re.ASCII)


class Whole(click.ParamType):
    """A whole number in ASCII digits from `low` to `high` (either may be None: unbounded,
    within 19 digits)."""

    name = "integer"

    def __init__(self, low: int | None = None, high: int | None = None):
        self.low, self.high = low, high

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif isinstance(value, str) and _WHOLE.fullmatch(value.strip()):
            if len(value.strip().lstrip("-")) > MAX_DIGITS:
                self.fail(f"'{quoted(value, 24)}' is far too large: expected "
                          f"{self.range_text()}", param, ctx)
            number = int(value.strip())
        else:
            self.fail(f"expected a whole number in digits 0-9, got '{quoted(str(value), 24)}'",
                      param, ctx)
        if (self.low is not None and number < self.low) or \
                (self.high is not None and number > self.high):
            self.fail(f"{number} is not in the range {self.range_text()}", param, ctx)
        return number

    def range_text(self) -> str:
        if self.high is None:
            return f"x>={self.low}" if self.low is not None else "a whole number"
        if self.low is None:
            return f"x<={self.high}"
        return f"{self.low}<=x<={self.high}"


class Seconds(click.ParamType):
    """A number of seconds, such as 0.8, in ASCII digits, at most `high`."""

    name = "seconds"

    def __init__(self, high: float):
        self.high = high

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            number = float(value)
        elif isinstance(value, str) and _DECIMAL.fullmatch(value.strip()):
            number = float(value.strip())
        else:
            self.fail("expected seconds in digits 0-9 (such as 0.8), got "
                      f"'{quoted(str(value), 24)}'", param, ctx)
        if not 0 <= number <= self.high:  # (also false for nan)
            self.fail(f"{number:g} is not in the range 0<=x<={self.high:g}", param, ctx)
        return number



SEED = Whole(-MAX_SEED, MAX_SEED)
SEAT = Whole(1, 16)  # a seat number, or a number of players
