"""One decision of a game chosen in parts, from the chooser's side: its legal actions as a
tree of ids (the parts of table.py), and a prefix of ids followed along it (match.py asks).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from cardrules.interpreter.domains import Words
from cardrules.interpreter.state import GameState

from . import table as tables

Action = tuple[Any, ...]


class Deciding(Protocol):
    """What a decision is made from: a game being played in parts (a Match)."""

    @property
    def table(self) -> tables.Table: ...

    def playing(self) -> GameState: ...

    def listed(self) -> list[Action]: ...

    def card_token(self) -> Callable[[int], int]: ...


class Decision:
    """The legal actions of one decision, from the chooser's side: trees of ids, each whole
    action's parts. Never changed once made, so copies of a match share it."""

    def __init__(self, match: Deciding):
        s, engine, ids = match.playing(), match.table.engine, match.table.parts
        legal = match.listed()
        self.seat = s.window[0] if s.window else s.current
        self.legal = legal
        self.tree: dict[Any, Any] = {}
        self.open: list[tuple[Action, list[Any]]] = []  # actions with a text to write
        card = match.card_token()
        moves, open_moves = engine.moves, engine.open_moves
        for action in legal:
            move = moves.get(action[0])
            if move is None:  # the engine's own `pass` in a reaction window
                self._insert([ids.moves["pass"]], action)
            elif action[0] in open_moves and any(isinstance(a, Words) for a in action[1:]):
                elements: list[Any] = [ids.moves[action[0]]]
                for kind, cards, value in zip(move.kinds, move.names_cards, action[1:]):
                    if isinstance(value, Words):
                        for ch in value.alphabet:
                            ids.letter(ch)  # refuses a letter the table has no id for
                        elements.append(value)
                    else:
                        ids.value_tokens(kind, cards, value, card, elements)
                self.open.append((action, elements))
            else:
                self._insert(ids.tokens(move, action, card), action)

    def _insert(self, tokens: list[int], action: Action) -> None:
        node = self.tree
        for t in tokens:
            child = node.get(t)
            if child is None:
                child = node[t] = {}
            node = child
        node[None] = action

    def whole(self) -> list[tuple[tuple[int, ...], Action]]:
        """Every legal action with no text to write, with its ids, in the engine's order."""
        out: list[tuple[tuple[int, ...], Action]] = []
        stack: list[tuple[tuple[int, ...], dict[Any, Any]]] = [((), self.tree)]
        while stack:
            prefix, node = stack.pop()
            for key, child in node.items():
                if key is None:
                    out.append((prefix, child))
                else:
                    stack.append(((*prefix, key), child))
        order = {id(a): i for i, a in enumerate(self.legal)}
        return sorted(out, key=lambda pair: order.get(id(pair[1]), 0))

    def follow(self, prefix: list[int], ids: Any) -> tuple[list[int], Action | None]:
        """The ids that may come after `prefix` (sorted), and the action it spells if whole."""
        after: set[int] = set()
        done: Action | None = None
        node: Any = self.tree
        for t in prefix:
            node = node.get(t)
            if node is None:
                break
        if node is not None:
            after.update(k for k in node if k is not None)
            done = node.get(None)
        for action, elements in self.open:
            more, texts = walk(elements, prefix, ids)
            after |= more
            if texts is not None:
                filled = iter(texts)
                done = tuple(next(filled) if isinstance(a, Words) else a for a in action)
        return sorted(after), done


def walk(elements: list[Any], prefix: list[int], ids: Any) -> tuple[set[int], list[str] | None]:
    """Follow `prefix` along an action with texts to write (ids, and Words where a text goes):
    the ids that may come next, and the texts written if the prefix spells the whole action."""
    j = 0
    texts: list[str] = []
    for element in elements:
        if not isinstance(element, Words):
            if j == len(prefix):
                return {element}, None
            if prefix[j] != element:
                return set(), None
            j += 1
            continue
        letters: list[str] = []
        longest = min(element.longest, tables.TEXT_LIMIT)
        while True:
            if j == len(prefix):
                more = {ids.letter(ch) for ch in element.alphabet} \
                    if len(letters) < longest else set()
                if len(letters) >= element.shortest:
                    more.add(ids.end)
                return more, None
            t = prefix[j]
            j += 1
            if t == ids.end:
                if len(letters) < element.shortest:
                    return set(), None
                break
            ch = ids.letter_of(t)
            if ch is None or ch not in element.alphabet or len(letters) >= longest:
                return set(), None
            letters.append(ch)
        texts.append("".join(letters))
    return set(), (texts if j == len(prefix) else None)
