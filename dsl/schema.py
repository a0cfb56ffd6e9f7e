"""Stage 2: check a rule file's structure against the JSON Schema shipped with the package."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from importlib import resources
from typing import Any

import jsonschema

from cardrules.errors import Diagnostic

from . import limits
from .names import suggest
from .source import Document

# The keys a block statement begins with (dsl/schema.json `statement` picks the block by it).
BLOCKS = ("if", "for", "while", "until")


@cache
def schema() -> dict[str, Any]:
    """The ruleset JSON Schema (draft 2020-12), as shipped in the package."""
    text = resources.files(__package__).joinpath("schema.json").read_text(encoding="utf-8")
    result: dict[str, Any] = json.loads(text)
    return result


@cache
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema())


def check_structure(doc: Document) -> Iterator[Diagnostic]:
    """Yield one located diagnostic per structural problem, in file order."""
    errors = sorted(_validator().iter_errors(doc.data), key=lambda e: _order(doc, e))
    for error in errors:
        yield from _explain(doc, _deepest(error))
    yield from _rule_count(doc)


def _rule_count(doc: Document) -> Iterator[Diagnostic]:
    """At most limits.MAX_RULES moves (reactions too), triggers, functions and procedures in
    all, counted before any rule text is read (each is compiled on its own): the first past
    the bound, in the file's order, is told."""
    data = doc.data if isinstance(doc.data, dict) else {}
    paths: list[tuple[Any, ...]] = []
    for key in ("functions", "procedures", "triggers"):
        items = data.get(key)
        paths += [(key, i) for i in range(len(items))] if isinstance(items, list) else []
    steps: list[tuple[tuple[Any, ...], Any]] = []
    rounds = data.get("round")
    phases = rounds.get("phases") if isinstance(rounds, dict) else None
    for p, phase in enumerate(phases if isinstance(phases, list) else []):
        found = phase.get("steps") if isinstance(phase, dict) else None
        steps += [(("round", "phases", p, "steps", i), step)
                  for i, step in enumerate(found if isinstance(found, list) else [])]
    if isinstance(data.get("reactions"), dict):
        steps.append((("reactions",), data["reactions"]))
    for path, step in steps:
        moves = step.get("moves") if isinstance(step, dict) else None
        paths += [(*path, "moves", i) for i in range(len(moves))] \
            if isinstance(moves, list) else []
    if len(paths) > limits.MAX_RULES:
        def place(path: tuple[Any, ...]) -> tuple[bool, str, int, int]:
            loc = doc.where(path)  # (what a parent gives first: a child adds to it)
            return str(loc.path) == str(doc.path), str(loc.path), loc.line, loc.column
        placed = sorted(paths, key=place)
        past = placed[limits.MAX_RULES]
        whole = " with the rulesets it extends" if not place(placed[0])[0] else ""
        yield doc.diagnostic(past, f"a ruleset gives at most {limits.MAX_RULES:,} moves, "
                                   f"triggers, functions and procedures in all; this one"
                                   f"{whole} gives {len(paths):,}")


def _order(doc: Document, error: jsonschema.ValidationError) -> tuple[int, int]:
    loc = doc.where(tuple(error.absolute_path))
    return (loc.line, loc.column)


def _deepest(error: jsonschema.ValidationError) -> jsonschema.ValidationError:
    # For `oneOf` (a statement is a string, an if-block or a for-block) the most
    # useful complaint is the one from the branch that matched the value's shape; but a
    # `oneOf` of keys (a trigger's `after` or `before`) is its own complaint, whether both
    # keys are given or neither (not "missing required key 'after'", as if `before` were
    # no answer).
    if error.validator == "oneOf" and _one_key_of(error.validator_value):
        return error
    if error.validator == "oneOf" and error.context:
        shaped = [e for e in error.context if e.validator != "type"]
        if shaped:
            return _deepest(max(shaped, key=lambda e: len(e.absolute_path)))
    return error


def _cut_off_by_a_comma(doc: Document, mapping: Any, path: tuple[Any, ...],
                        key: str) -> str | None:
    """The key before `key` when `key` looks like the tail of its text (not a known key
    misspelt: the caller asks only then), cut off by a comma in a flow mapping (`{doc:
    Cards you won, to keep}` reads `to keep` as a key with no value), else None."""
    if not isinstance(mapping, dict) or mapping.get(key) is not None:
        return None
    keys = list(mapping)
    at = keys.index(key)
    if at == 0 or not isinstance(mapping[keys[at - 1]], str):
        return None
    loc = doc.where((*path, key), True)
    line = doc.source_line(loc.line) or ""
    before = line[:loc.column - 1].rstrip()
    if not before:  # the key begins its line: the comma ends the one before
        before = (doc.source_line(loc.line - 1) or "").rstrip()
    if not before.endswith(",") or before[:-1].rstrip().endswith(("'", '"')):
        return None  # (no comma just before it; or a text in quotes ends before the comma)
    return str(keys[at - 1])


def _explain(doc: Document, error: jsonschema.ValidationError) -> Iterator[Diagnostic]:
    path = tuple(error.absolute_path)
    kind = error.validator
    rule: Any = error.validator_value  # what the schema asked for
    schema: dict[str, Any] = error.schema if isinstance(error.schema, dict) else {}
    if kind == "additionalProperties":
        allowed = sorted(schema.get("properties", {}))
        for key in _unexpected(error, schema):
            hint = suggest(key, allowed)
            fix = f"did you mean '{hint}'?" if hint else "expected one of: " + ", ".join(allowed)
            if key in ELSE_IF and "else" in allowed:
                fix = ("an `if` block has `then` and `else`: write the next test as an `if` "
                       "block inside `else` (else: [{if: ..., then: [...]}])")
            # (a key with a space is no misspelt key: words of a text, more likely)
            before = _cut_off_by_a_comma(doc, error.instance, path, key) \
                if not hint or " " in key.strip() else None
            if before is not None:
                fix = (f"a comma inside {{ }} ends a value; if this is the rest of {before}'s "
                       "text, put that text in quotes")
            yield doc.diagnostic((*path, key), f"unknown key '{key}': {fix}", key=True)
        return
    if kind == "required":
        missing = error.message.split("'")[1] if "'" in error.message else error.message
        yield doc.diagnostic(path, f"missing required key '{missing}'")
        return
    if kind == "enum":
        found = error.instance
        choices = ", ".join(str(c) for c in rule)
        hint = suggest(str(found), [str(c) for c in rule]) if isinstance(found, str) else None
        tail = f"; did you mean '{hint}'?" if hint else ""
        # (a text as written; anything else as YAML reads it: `true` is the boolean true)
        shown = f"'{found}'" if isinstance(found, str) else _describe(found)
        yield doc.diagnostic(path, f"{shown} is not allowed here: "
                                   f"expected one of {choices}{tail}")
        return
    if kind == "type":
        wanted_text = " or ".join(rule) if isinstance(rule, list) else str(rule)
        fix = ""
        if "string" in wanted_text and isinstance(error.instance, (dict, bool)):
            # (YAML's own reading of a text not in quotes: `{card}` is a mapping, `on` and
            # `no` are truth values)
            fix = ("; YAML reads { } at a value's start as a mapping: put the text in quotes "
                   "(label: \"{card} ...\")" if isinstance(error.instance, dict) else
                   "; YAML reads yes, no, on, off, true and false as truth values: put the "
                   "text in quotes ('on')")
        yield doc.diagnostic(path, f"expected {_article(wanted_text)}, "
                                   f"found {_describe(error.instance)}{fix}")
        return
    if kind == "pattern":
        if "\\s+in\\s+" in str(rule):
            yield doc.diagnostic(path, f"expected 'NAME in LIST' (for: p in players), "
                                       f"found '{error.instance}'")
        elif "0-9-" in str(rule):  # the ruleset's own name: a-z, 0-9 and the hyphen
            yield doc.diagnostic(path, f"'{error.instance}' is not a valid ruleset name (use "
                                       "lower-case letters, digits and -, from a letter)")
        else:
            yield doc.diagnostic(path, f"'{error.instance}' is not a valid name here "
                                       "(use lower-case letters, digits and _)")
        return
    if kind == "oneOf" and _one_key_of(rule):
        # one key of several, and only one (a trigger's `after` or `before`)
        keys = [k for option in rule for k in option["required"]]
        yield doc.diagnostic(path, "expected exactly one of: " + ", ".join(keys))
        return
    if kind == "not" and schema.get("$comment") == "not a statement":
        found = error.instance
        near = [hint for key in found for hint in [suggest(str(key), list(BLOCKS))] if hint] \
            if isinstance(found, dict) else []
        tail = f" (did you mean '{near[0]}'?)" if near else ""
        yield doc.diagnostic(path, "expected a statement: a text, or a block that begins "
                                   "with `if:` (then `then:`), `for:`, `while:` or `until:` "
                                   f"(then `do:`){tail}")
        return
    if kind == "anyOf":  # one of several shapes (repeat: a number, or an expression)
        wanted = [_wanted(option) for option in rule if isinstance(option, dict)]
        yield doc.diagnostic(path, f"{_named(path)}expected {' or '.join(wanted)}, "
                                   f"found {_describe(error.instance)}")
        return
    if kind in ("minimum", "maximum"):
        yield doc.diagnostic(path, f"{_named(path)}expected {_wanted(schema)}, "
                                   f"found {_describe(error.instance)}")
        return
    if kind == "const":
        yield doc.diagnostic(path, f"expected {rule!r}, found {error.instance!r}")
        return
    if kind in ("minItems", "maxItems") and isinstance(error.instance, list):
        bound = "at least" if kind == "minItems" else "at most"
        items = "item" if rule == 1 else "items"
        yield doc.diagnostic(path, f"{_named(path)}expected a list of {bound} {rule} {items}, "
                                   f"found {len(error.instance)}")
        return
    yield doc.diagnostic(path, error.message)


def _one_key_of(options: Any) -> bool:
    """Whether a `oneOf` asks for one key of several: each option only a `required`."""
    return isinstance(options, list) and bool(options) and all(
        isinstance(option, dict) and set(option) == {"required"} for option in options)


def _named(path: tuple[Any, ...]) -> str:
    """'repeat: ', the key a value is given for (nothing for an item of a list)."""
    return f"{path[-1]}: " if path and isinstance(path[-1], str) else ""


def _wanted(option: dict[str, Any]) -> str:
    """What a part of the schema takes, in words: 'a whole number of at least 1'."""
    kind = option.get("type")
    if kind in ("integer", "number"):
        low, high = option.get("minimum"), option.get("maximum")
        what = "a whole number" if kind == "integer" else "a number"
        if low is not None and high is not None:
            return f"{what} from {low} to {high}"
        if low is not None:
            return f"{what} of at least {low}"
        return f"{what} of at most {high}" if high is not None else what
    if kind == "string":
        return "an expression (text)"
    return _article(str(kind)) if isinstance(kind, str) else "another value"


def _unexpected(error: jsonschema.ValidationError, schema: dict[str, Any]) -> list[str]:
    allowed = set(schema.get("properties", {}))
    instance = error.instance if isinstance(error.instance, dict) else {}
    return [k for k in instance if k not in allowed]


def _article(text: str) -> str:
    return ("an " if text[:1] in "aeiou" else "a ") + text


# Other languages' words for "else if", which an `if` block writes as an `if` inside `else`.
ELSE_IF = frozenset({"elif", "elsif", "elseif", "else_if", "else if"})


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, int):
        return f"the number {value}"
    return f"'{value}'"
