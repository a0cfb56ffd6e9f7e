"""What differs between two resolved rulesets, entry by entry.

Lists of named things are compared by name (so an inserted move is one addition, not a
shifted list); everything else by value. Each difference is a `Change`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Change:
    kind: str  # "added" | "removed" | "changed" | "moved"
    path: str  # dotted, with entry names: round.phases.play.steps.draw.moves.take_stock.when
    old: Any = None
    new: Any = None

    def format(self) -> str:
        if self.kind == "added":
            return f"+ {self.path}: {_short(self.new)}"
        if self.kind == "removed":
            return f"- {self.path}: {_short(self.old)}"
        if self.kind == "moved":
            return f"~ {self.path}: order {', '.join(self.old)} -> {', '.join(self.new)}"
        return f"~ {self.path}: " + " -> ".join(_apart(_full(self.old), _full(self.new)))


def diff(old: Any, new: Any, path: str = "") -> Iterator[Change]:
    """Every difference between two rule-file data trees."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old:
            here = f"{path}.{key}" if path else key
            if key not in new:
                yield Change("removed", here, old=old[key])
            else:
                yield from diff(old[key], new[key], here)
        for key in new:
            if key not in old:
                yield Change("added", f"{path}.{key}" if path else key, new=new[key])
        return
    if _named(old) and _named(new):
        yield from _diff_named(old, new, path)
        return
    if old != new:
        yield Change("changed", path, old=old, new=new)


def _named(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(
        isinstance(item, dict) and "name" in item for item in value)


def _diff_named(old: list[dict[str, Any]], new: list[dict[str, Any]],
                path: str) -> Iterator[Change]:
    old_by = {item["name"]: item for item in old}
    new_by = {item["name"]: item for item in new}
    for name, item in old_by.items():
        if name not in new_by:
            yield Change("removed", f"{path}.{name}", old=item)
        else:
            yield from diff(item, new_by[name], f"{path}.{name}")
    for name, item in new_by.items():
        if name not in old_by:
            yield Change("added", f"{path}.{name}", new=item)
    shared_old = [n for n in old_by if n in new_by]
    shared_new = [n for n in new_by if n in old_by]
    if shared_old != shared_new:
        yield Change("moved", path, old=shared_old, new=shared_new)


SHOWN = 100  # characters of a value a difference shows


def _full(value: Any) -> str:
    """A value on one line as a rule file writes it (YAML's flow style: `{name: bonus,
    default: -20}`, `false`): a text with line breaks (a summary) quoted, its breaks
    written \\n, so that each difference stays one line."""
    return _one_line(value) if isinstance(value, str) else flow_text(value)


def _short(value: Any) -> str:
    """A value on one line, at most SHOWN characters."""
    text = _full(value)
    return text if len(text) <= SHOWN else text[:SHOWN - 3] + "..."


def _apart(old: str, new: str) -> tuple[str, str]:
    """Two long values, each at most SHOWN characters, shown from a little before where they
    first differ (two summaries alike in their first hundred characters would read alike)."""
    if len(old) <= SHOWN and len(new) <= SHOWN:
        return old, new
    same = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
    start = max(0, same - SHOWN // 3)
    out = []
    for text in (old, new):
        text = ("..." + text[start:]) if start else text
        out.append(text if len(text) <= SHOWN else text[:SHOWN - 3] + "...")
    return out[0], out[1]


def flow_text(value: Any) -> str:
    """A value of a rule file's data in YAML's flow style, on one line."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_text(str(k))}: {flow_text(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow_text(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        return _text(value)
    return str(value)


_PLAIN = re.compile(r"[A-Za-z_(][^\[\]{},#:'\"\n\t\\]*")
_WORDS = frozenset({"true", "false", "yes", "no", "on", "off", "null", "none", "~"})


def _text(text: str) -> str:
    """A text inside a flow collection: as it is where YAML reads it back as that text,
    else in double quotes (JSON's escapes are YAML's)."""
    if _PLAIN.fullmatch(text) and text == text.strip() and text.lower() not in _WORDS \
            and text.isprintable():
        return text
    return json.dumps(text, ensure_ascii=False)


_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r", '"': '\\"', "\\": "\\\\"}


def _one_line(text: str) -> str:
    if text.isprintable():
        return text
    return '"' + "".join(_ESCAPES.get(c, c if c.isprintable() else f"\\u{ord(c):04x}")
                         for c in text) + '"'
