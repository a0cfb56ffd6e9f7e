"""The JSON Schema of rule files (dsl/schema.json), read for an editor: which keys a mapping
may have at a place, what each is for, and the values a key allows."""

from __future__ import annotations

from typing import Any

from cardrules.dsl.schema import schema

ITEM = "*"  # in a path of keys: an item of a list


def node_at(path: list[str]) -> list[dict[str, Any]]:
    """The schema nodes that may describe the value at a path of keys (ITEM for a list's
    item); several where the schema offers a choice (a statement is a text or a block)."""
    nodes = _expand(schema())
    for key in path:
        following: list[dict[str, Any]] = []
        for node in nodes:
            if key == ITEM:
                items = node.get("items")
                if isinstance(items, dict):
                    following.extend(_expand(items))
                continue
            properties = node.get("properties", {})
            if key in properties:
                following.extend(_expand(properties[key]))
            elif isinstance(node.get("additionalProperties"), dict):
                following.extend(_expand(node["additionalProperties"]))
        nodes = following
    return nodes


def _expand(node: Any, depth: int = 0) -> list[dict[str, Any]]:
    """A schema node with its references followed and its choices (oneOf, anyOf, and the
    branches of an if: a statement's kind of block) spread."""
    if not isinstance(node, dict) or depth > 10:
        return []
    if "$ref" in node:
        name = str(node["$ref"]).rsplit("/", 1)[-1]
        # (what the key says of itself beside its reference comes before the reference's)
        said = [{"description": node["description"]}] if node.get("description") else []
        return said + _expand(schema()["$defs"].get(name), depth + 1)
    out = [node]
    for key in ("oneOf", "anyOf", "allOf"):
        for option in node.get(key, []):
            out.extend(_expand(option, depth + 1))
    for key in ("then", "else"):
        out.extend(_expand(node.get(key), depth + 1))
    return out


def keys_at(path: list[str]) -> dict[str, str]:
    """The keys a mapping at `path` may have, each with its description (or '')."""
    found: dict[str, str] = {}
    for node in node_at(path):
        for key, spec in node.get("properties", {}).items():
            described = next((n.get("description", "") for n in _expand(spec)
                              if n.get("description")), "")
            found.setdefault(key, described)
    return found


def values_at(path: list[str]) -> list[str]:
    """The values the schema lists for the key at `path` (an enum), if it does."""
    values: list[str] = []
    for node in node_at(path):
        for value in node.get("enum", []):
            if str(value) not in values:
                values.append(str(value))
    return values


def description(path: list[str]) -> str:
    """What the schema says of the key at `path`, if anything."""
    return next((n["description"] for n in node_at(path) if n.get("description")), "")


def is_rule_text(path: list[str]) -> bool:
    """Whether the value at `path` is rule text (an expression or a statement)."""
    defs = schema()["$defs"]
    wanted = [defs["expression"], defs["statement"]]
    nodes = node_at(path)
    return any(node is want for node in nodes for want in wanted) or \
        any(node.get("type") == "string" and not node.get("enum") for node in nodes)
