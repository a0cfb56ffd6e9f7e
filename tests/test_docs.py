"""docs/grammar.md stays in step with the grammar, the built-in registry and the schema.

Each test lists everything that is missing, so one run says what to add to the docs.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from cardrules.dsl import builtins
from cardrules.dsl.parser import grammar_text

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "grammar.md"
SCHEMA = ROOT / "dsl" / "schema.json"
SCHEMA_COPY = ROOT / "docs" / "ruleset.schema.json"

_RULE = re.compile(r"^\s*\??([a-z_][a-z0-9_]*)\s*:", re.MULTILINE)
_ALIAS = re.compile(r"->\s*([a-z_][a-z0-9_]*)")
_FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.MULTILINE | re.DOTALL)
_INLINE_CODE = re.compile(r"(`+)(.+?)\1", re.DOTALL)


@cache
def doc_text() -> str:
    assert DOC.is_file(), f"{DOC} is missing"
    return DOC.read_text(encoding="utf-8")


@cache
def code_spans() -> tuple[str, ...]:
    """The contents of every inline code span (`...`) of docs/grammar.md."""
    prose = _FENCE.sub("", doc_text())
    return tuple(m.group(2) for m in _INLINE_CODE.finditer(prose))


def _word(name: str) -> re.Pattern[str]:
    return re.compile(r"(?<![A-Za-z0-9_])" + re.escape(name) + r"(?![A-Za-z0-9_])")


def in_text(name: str) -> bool:
    return _word(name).search(doc_text()) is not None


def in_code(name: str) -> bool:
    pattern = _word(name)
    return any(pattern.search(span) for span in code_spans())


def _missing_report(what: str, missing: list[str]) -> str:
    return (f"docs/grammar.md does not mention {len(missing)} {what}: "
            + ", ".join(missing))


# ------------------------------------------------------------------ grammar
_COMMENT = re.compile(r"(^|\s)//.*$", re.MULTILINE)


def _strip_comments(text: str) -> str:
    """The grammar without its `//` comments (which mention rule names in prose)."""
    return _COMMENT.sub("", text)


def grammar_rule_names() -> list[str]:
    """Every rule defined in grammar.lark (`name:`, `?name:`) and every `-> alias`."""
    text = _strip_comments(grammar_text())
    names = set(_RULE.findall(text)) | set(_ALIAS.findall(text))
    return sorted(names)


def test_grammar_is_readable() -> None:
    names = grammar_rule_names()
    assert "expression" in names and "statement" in names and "domain" in names, names


def test_every_grammar_rule_is_documented() -> None:
    missing = [name for name in grammar_rule_names() if not in_text(name)]
    assert not missing, _missing_report("grammar rules of dsl/grammar.lark (as whole words)",
                                        missing)


# ----------------------------------------------------------------- builtins
def builtin_names() -> dict[str, list[str]]:
    return {
        "FUNCTIONS": sorted(builtins.FUNCTIONS),
        "AGGREGATES": sorted(builtins.AGGREGATES),
        "NAMES": sorted(builtins.NAMES),
        "CARD_ATTRIBUTES": sorted(builtins.CARD_ATTRIBUTES),
        "PLAYER_ATTRIBUTES": sorted(builtins.PLAYER_ATTRIBUTES),
    }


def test_every_builtin_is_documented() -> None:
    missing = [f"{table}.{name}" for table, names in builtin_names().items()
               for name in names if not in_code(name)]
    assert not missing, _missing_report("built-ins of dsl/builtins.py (inside backticks)",
                                        missing)


# ------------------------------------------------------------------- schema
def schema_property_names(node: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """(where, key) for every key of every `properties` mapping, at any depth."""
    if isinstance(node, dict):
        props = node.get("properties")
        if isinstance(props, dict):
            for key in props:
                yield path or "(top level)", key
        for key, value in node.items():
            yield from schema_property_names(value, f"{path}/{key}" if path else key)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from schema_property_names(value, f"{path}/{i}")


def test_schema_has_defs() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    keys = {key for _, key in schema_property_names(schema)}
    assert {"cardrules", "name", "round"} <= keys
    assert isinstance(schema.get("$defs"), dict) and schema["$defs"]


def test_every_schema_key_is_documented() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    missing = sorted({f"{where}: {key}" for where, key in schema_property_names(schema)
                      if not in_code(key)})
    assert not missing, _missing_report("keys of dsl/schema.json (inside backticks)", missing)


def test_schema_copy_is_identical() -> None:
    assert SCHEMA_COPY.is_file(), f"{SCHEMA_COPY} is missing: copy dsl/schema.json there"
    assert SCHEMA_COPY.read_bytes() == SCHEMA.read_bytes(), (
        "docs/ruleset.schema.json differs from dsl/schema.json: copy dsl/schema.json over it")
