"""The values a function of a rule file keeps by its arguments (dsl/reads.py, `remembered`):
asked again with the same arguments, it answers from here. Part of the runtime: its
EXPORTED names are bound for generated code as runtime.py's are (dsl/binding.py)."""

from __future__ import annotations

from typing import Any

# What one function of a rule file keeps of its values by their arguments (dsl/reads.py,
# `remembered`), in items (each argument, and each item of a list and of the lists in it),
# before it starts afresh: a bound on the memory a long game, a search or a server may take.
REMEMBERED_ITEMS = 200_000


class Remembered:
    """The values one function of a rule file has worked out, by their arguments."""

    __slots__ = ("values", "items")

    def __init__(self) -> None:
        self.values: dict[tuple[Any, ...], Any] = {}
        self.items = 0


def remember(kept: Remembered, key: tuple[Any, ...], size: int, value: Any,
             depth: int) -> Any:
    """`value`, just worked out for the arguments `key` (of `size` items), kept as a copy
    of its own (a list passed in, a zone's say, goes on changing; the lists inside are
    copied too: `depth` lists deep, as the function's type says, or -1 where it does not),
    and handed out: a list as a copy the caller may change, so that nothing kept is ever
    changed. None is handed out and not kept (it is never found again); nor is a value too
    large for the bound."""
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        value = _own(value, depth)
        size += _items(value, depth)
    else:
        size += 1
    if kept.items + size > REMEMBERED_ITEMS:
        kept.values.clear()
        kept.items = 0
    if size <= REMEMBERED_ITEMS:
        kept.values[key] = value
        kept.items += size
    return value[:] if type(value) is list else value


def _own(value: list[Any] | tuple[Any, ...], depth: int) -> Any:
    """A copy of a list, and of the lists inside it (`depth` lists deep, or -1: look at each
    item), each as it is (tuples stay tuples)."""
    if depth == 1:
        return list(value) if type(value) is list else value
    if depth > 1:
        inner = [None if item is None else _own(item, depth - 1) for item in value]
    else:
        inner = [_own(item, -1) if isinstance(item, (list, tuple)) else item for item in value]
    return inner if type(value) is list else tuple(inner)


def _items(value: list[Any] | tuple[Any, ...], depth: int) -> int:
    """How many items a list holds, counting those of the lists inside it."""
    if depth == 1:
        return len(value)
    inner = depth - 1 if depth > 1 else -1
    return sum(_items(item, inner) if isinstance(item, (list, tuple)) else 1 for item in value)


EXPORTED = ("remember",)
