"""What a YAML text may hold before it is parsed: a rule file's size, its characters, and
how deep its collections nest, each found on the text (or the scanner's tokens, a loop) and
located, before any composer, whose recursion deep enough input could exhaust, sees it."""

from __future__ import annotations

import re

import yaml

from cardrules.errors import Diagnostic, Location, RulesetError

try:  # the C loader is only faster; both compose the same nodes
    Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - depends on how PyYAML was built
    Loader = yaml.SafeLoader

MAX_BYTES = 1_000_000  # a rule file is a page or two; a megabyte is no rule file
MAX_DEPTH = 50  # nesting of mappings and lists


def check_bounds(text: str, path: str) -> None:
    """Refuse a text that would take the YAML parser unbounded memory or stack: over
    MAX_BYTES, or nested deeper than MAX_DEPTH. Flow nesting ([[[...) is counted first on the
    text itself (_FlowDepth), because a YAML scanner reads a flow collection ahead before it
    hands on its first token and may refuse deep nesting in its own words first; the nesting
    of both kinds is then counted on the scanner's tokens (a loop, not a recursion) before
    any composer, whose recursion deep enough input could exhaust, sees the text."""
    if len(text) > MAX_BYTES:
        raise RulesetError([Diagnostic(Location(path, 1, 1), f"the file is {len(text):,} "
                                       f"characters long; a rule file has at most "
                                       f"{MAX_BYTES:,}")])
    _check_characters(text, path)
    deepest = _FlowDepth(text).first_too_deep()
    if deepest is not None:
        line, column = _place(text, deepest)
        _too_deep(path, line, column, _line_at(text, deepest))
    loader = Loader(text)
    depth = 0
    try:
        while True:
            token = loader.get_token()
            if token is None:
                return
            if isinstance(token, _OPENING):
                depth += 1
                if depth > MAX_DEPTH:
                    mark = token.start_mark
                    lines = text.splitlines()
                    source = lines[mark.line] if mark.line < len(lines) else None
                    _too_deep(path, mark.line + 1, mark.column + 1, source)
            elif isinstance(token, _CLOSING):
                depth -= 1
    except yaml.YAMLError:
        return  # malformed: the parser itself says where
    finally:
        loader.dispose()


# What YAML lets a file hold: tab, the line breaks, printable ASCII, NEL and the rest of
# Unicode but the surrogates and U+FFFE, U+FFFF. The YAML library refuses any other character
# in its own words, at the file's start; it is found here first, at its place.
# (U+0085, U+2028 and U+2029 are refused too: YAML counts each as a line break where
# editors, terminals and the language server do not, so every line after one would be
# numbered apart, and YAML folds one inside a text into a space)
_NOT_YAML = re.compile("[^\t\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufffd"
                       "\U00010000-\U0010ffff]")
_BREAKS_APART = {0x85: "a next-line character", 0x2028: "a line separator",
                 0x2029: "a paragraph separator"}


def _check_characters(text: str, path: str) -> None:
    """Refuse the first character that YAML does not allow in a file (a control character,
    say), located at its line and column."""
    found = _NOT_YAML.search(text)
    if found is None:
        return
    at, code = found.start(), ord(found.group())
    line, column = _place(text, at)
    if code in _BREAKS_APART:
        message = (f"{_BREAKS_APART[code]} (U+{code:04X}), which YAML reads as a line break "
                   "and editors do not: break the line, or, inside a double-quoted text, "
                   f"write it as \"\\u{code:04X}\"")
    elif code < 0x20 or 0x7F <= code <= 0x9F:
        message = (f"a control character that a rule file cannot hold (U+{code:04X}): delete "
                   f"it, or, inside a double-quoted text, write it as \"\\x{code:02X}\"")
    else:
        message = f"a character that a rule file cannot hold (U+{code:04X}): delete it"
    raise RulesetError([Diagnostic(Location(path, line, column), message, _line_at(text, at))])


# A line ends at \r\n, \n or a lone \r, as YAML, editors and the language server end it.
_BREAK = re.compile(r"\r\n|\r|\n")


def _line_start(text: str, offset: int) -> int:
    """Where the line that holds `offset` starts."""
    return max(text.rfind("\n", 0, offset), text.rfind("\r", 0, offset)) + 1


def _place(text: str, offset: int) -> tuple[int, int]:
    """The line and column (from 1) of the character at `offset`."""
    line = sum(1 for _ in _BREAK.finditer(text, 0, offset)) + 1
    return line, offset - _line_start(text, offset) + 1


def _line_at(text: str, offset: int) -> str:
    start = _line_start(text, offset)
    end = _BREAK.search(text, offset)
    return text[start:end.start() if end is not None else len(text)]


_OPENING = (yaml.FlowSequenceStartToken, yaml.FlowMappingStartToken,
            yaml.BlockSequenceStartToken, yaml.BlockMappingStartToken)
_CLOSING = (yaml.FlowSequenceEndToken, yaml.FlowMappingEndToken, yaml.BlockEndToken)


class _FlowDepth:
    """Counts the nesting of YAML flow collections ([...] and {...}) on the text alone, so
    that the bound is this project's whatever YAML library reads the file next.

    It knows just enough YAML to tell a bracket that opens a collection from one inside a
    string: quoted scalars, comments and block scalars (| and >) are skipped, and outside a
    collection a bracket opens one only where a value starts (`key: [`, `- [`, a line's
    start). Where it cannot tell, it errs towards counting less: the scanner's own token
    count, and the builder's, still bound what it misses."""

    _SIGNIFICANT = re.compile(r"[\[\]{}'\"#\n|>]")

    def __init__(self, text: str):
        self.text = text

    def first_too_deep(self, bound: int | None = None) -> int | None:
        """The offset of the bracket that opens the collection nested deeper than `bound`
        (MAX_DEPTH by default), or None if there is none."""
        return self._scan(MAX_DEPTH if bound is None else bound)[0]

    def deepest(self) -> int:
        """How deep the text's flow collections nest."""
        return self._scan(None)[1]

    def _scan(self, bound: int | None) -> tuple[int | None, int]:
        text, depth, deepest, pos = self.text, 0, 0, 0
        while True:
            found = self._SIGNIFICANT.search(text, pos)
            if found is None:
                return None, deepest
            at, char = found.start(), found.group()
            pos = at + 1
            if char == "#" and (at == 0 or text[at - 1] in " \t\n\r"):
                pos = self._line_end(at)
            elif char in "'\"" and self._value_starts(at, depth):
                pos = self._after_quoted(at)
            elif char in "[{" and (depth or self._value_starts(at, 0)):
                depth += 1
                deepest = max(deepest, depth)
                if bound is not None and depth > bound:
                    return at, deepest
            elif char in "]}" and depth:
                depth -= 1
            elif char in "|>" and not depth and self._value_starts(at, 0):
                pos = self._after_block_scalar(at)

    def _line_end(self, at: int) -> int:
        end = _BREAK.search(self.text, at)
        return len(self.text) if end is None else end.start()

    def _value_starts(self, at: int, depth: int) -> bool:
        """Whether a value may start at `at`: after a line's indentation, an entry's '- ',
        a key's ': ' or '? ', an anchor or a tag; within a collection also after [ { , :"""
        text = self.text
        start = _line_start(text, at)
        before = text[start:at].rstrip(" \t")
        if not before:
            return True
        if depth:
            return before[-1] in "[{,:?"
        if len(before) == at - start:  # nothing between the word before and this character
            return False
        word = before.rsplit(None, 1)[-1]
        return word in ("-", "?", ":") or word.endswith(":") or word[0] in "&!"

    def _after_quoted(self, at: int) -> int:
        """The offset after the quoted scalar opening at `at` (the text's end if unclosed)."""
        text, quote = self.text, self.text[at]
        pos = at + 1
        while True:
            end = text.find(quote, pos)
            if end < 0:
                return len(text)
            if quote == "'" and text.startswith("''", end):
                pos = end + 2
            elif quote == '"' and _escaped(text, end):
                pos = end + 1
            else:
                return end + 1

    def _after_block_scalar(self, at: int) -> int:
        """The offset of the first line after the block scalar whose indicator is at `at`:
        its content is the lines indented further than the node that holds it (a key, or
        the '-' of a sequence entry), and blank lines."""
        text = self.text
        start = _line_start(text, at)
        head = text[start:at]
        body = head.lstrip(" ")
        indent = len(head) - len(body)
        while body.startswith("- ") or body == "-":
            stripped = body[1:].lstrip(" ")
            if not stripped:  # `- |`: the entry's own dash holds it
                break
            indent += len(body) - len(stripped)
            body = stripped
        pos = self._line_end(at) + 1
        while pos < len(text):
            end = self._line_end(pos)
            line = text[pos:end]
            if line.strip() and len(line) - len(line.lstrip(" ")) <= indent:
                return pos
            pos = end + 1
        return len(text)


def flow_depth(text: str) -> int:
    """How deep the flow collections ([...], {...}) of a YAML text nest, counted on the text
    alone (as the bound on nesting is)."""
    return _FlowDepth(text).deepest()


def _escaped(text: str, at: int) -> bool:
    """Whether the character at `at` follows an odd number of backslashes."""
    count = 0
    while at - count - 1 >= 0 and text[at - count - 1] == "\\":
        count += 1
    return count % 2 == 1


def _too_deep(path: str, line: int, column: int, source: str | None) -> None:
    raise RulesetError([Diagnostic(Location(path, line, column),
                                   f"nested more than {MAX_DEPTH} levels deep; no rule file "
                                   "needs that", source[:200] if source else None)])
