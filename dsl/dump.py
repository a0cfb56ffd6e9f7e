"""A stage's output written out to read, for `cardrules show --stage` and the per-stage
fixture tests: the resolved rule file as YAML (`resolved_yaml`), and the syntax tree the
reader builds (`nodes`) or the checked program (`ir`) as a tree (`dump`).

Like `ast.dump(tree, indent=2)`: each node is its class and its one-line fields, then its
nested fields one a line, indented by two spaces. What is the same in every tree is left out,
so that a difference is one of meaning: positions (`pos` and the like), a field left at its
default or empty (none, no items), the document a node came from, the folder of the rule file.
A record the tree refers to rather than holds (a zone's definition, a card table) is written
as its kind and name; a type as the reference writes it.
"""

from __future__ import annotations

import dataclasses
from pathlib import PurePath
from typing import Any

import yaml

from cardrules.model import CardTable, ZoneDef

from .typesys import Type

_HIDDEN = ("pos", "span", "origin")  # and any field ending in _pos
_INDENT = "  "
_WIDTH = 96  # a list of short items is written on one line up to this width


def dump(tree: Any) -> str:
    """The tree as indented text, ending in a newline."""
    return "\n".join(_lines(tree, 0)) + "\n"


def _lines(value: Any, depth: int, head: str = "") -> list[str]:
    pad = _INDENT * depth
    short = _short(value)
    if short is not None:
        return [f"{pad}{head}{short}"]
    if isinstance(value, (tuple, list)):
        items = [_short(item) for item in value]
        written = [item for item in items if item is not None]
        width = len(pad + head) + sum(len(item) + 2 for item in written)
        if len(written) == len(items) and width < _WIDTH:
            return [f"{pad}{head}[{', '.join(written)}]"]
        out = [f"{pad}{head}["]
        for item in value:
            out += _lines(item, depth + 1)
        return out + [f"{pad}]"]
    if isinstance(value, dict):
        out = [f"{pad}{head}{{"]
        for key, item in value.items():
            out += _lines(item, depth + 1, f"{key!r}: ")
        return out + [f"{pad}}}"]
    shown = _fields(value)
    simple = [f"{name}={_short(item)}" for name, item in shown if _short(item) is not None]
    nested = [(name, item) for name, item in shown if _short(item) is None]
    out = [f"{pad}{head}{type(value).__name__}({', '.join(simple)})"]
    for name, item in nested:
        out += _lines(item, depth + 1, f"{name}: ")
    return out


def _short(value: Any) -> str | None:
    """A value written on one line, or None for one that nests."""
    if value is None or isinstance(value, (bool, int, str, float)):
        return repr(value)
    if isinstance(value, Type):
        return f"<{value}>"
    if isinstance(value, ZoneDef):
        return f"<zone {value.name}>"
    if isinstance(value, CardTable):
        return f"<cards: {len(value.names)}>"
    if isinstance(value, (tuple, list, dict)):
        return "[]" if not value else None
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return f"{type(value).__name__}()" if not _fields(value) else None
    return f"<{type(value).__name__}>"


def _fields(value: Any) -> list[tuple[str, Any]]:
    """A record's fields worth writing: not positions, not left at their defaults."""
    out = []
    for field in dataclasses.fields(value):
        if field.name in _HIDDEN or field.name.endswith("_pos") or not field.repr:
            continue
        item = getattr(value, field.name)
        if item is None or (isinstance(item, (tuple, list, dict)) and not item):
            continue
        if field.name == "path" and isinstance(item, str):
            item = PurePath(item).name
        if field.default is not dataclasses.MISSING and item == field.default:
            continue
        if field.default_factory is not dataclasses.MISSING and item == field.default_factory():
            continue
        out.append((field.name, item))
    return out


def resolved_yaml(data: dict[str, Any], options: dict[str, Any]) -> str:
    """The resolved rule file as YAML, with option defaults set to the values in force."""
    out = dict(data)
    if "options" in out:
        out["options"] = [{**o, "default": options.get(o["name"], o["default"])}
                          for o in out["options"]]
    text = yaml.dump(out, Dumper=_BlockDumper, sort_keys=False, allow_unicode=True, width=100)
    # A character no terminal should be handed as it is (a control, an escape, one that
    # turns the text's direction round) lies only in a text written in double quotes (see
    # _text): written there as its escape, the file reads the same and shows nothing hidden.
    return "".join(ch if ch.isprintable() or ch == "\n" else _escape(ch) for ch in text)


def _escape(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 \
        else f"\\U{code:08x}"


class _BlockDumper(yaml.SafeDumper):
    """Writes texts of several lines as literal blocks, as people write them, and a text
    holding a character that is not printable in double quotes."""


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    shown = value.replace("\n", "")
    style = '"' if not shown.isprintable() else "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_BlockDumper.add_representer(str, _text)
