"""Stage 3: rule text to syntax tree, with the one Lark grammar built once.

`parse(text, kind, origin)` returns a node of `nodes` or raises ParseFailure with a
located diagnostic in the author's terms (what was expected, what was found), never
Lark's terminal names. Every piece of rule text goes through here: expressions,
statements, domains, `for:` clauses, labels and the names a rule file gives.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from cardrules.errors import Diagnostic

from . import nodes as n

KINDS = ("expression", "statement", "domain", "for_clause", "label", "identifier")
MAX_DEPTH = 100  # nesting of rule text, well within what every later stage can walk
# An aggregate (`any(c.face_up for c in hand[me])`) is written as a call around a generator
# (two levels of parentheses, and more of Python's own nesting): nested 80 deep, its code
# passed what Python compiles. So it counts as three levels.
AGGREGATE_DEPTH = 3
MAX_TEXT = 20_000  # characters of one piece of rule text
MAX_DIGITS = 18  # of a number in rule text (the largest any rule needs has a few)


class ParseFailure(Exception):
    """Rule text that does not follow the grammar; carries the located diagnostic."""

    def __init__(self, diagnostic: Diagnostic):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


@cache
def grammar_text() -> str:
    """The grammar's source, as shipped in the package."""
    return resources.files(__package__).joinpath("grammar.lark").read_text(encoding="utf-8")


@cache
def _parser() -> Lark:
    return Lark(grammar_text(), parser="lalr", start=list(KINDS),
                propagate_positions=True, maybe_placeholders=True)


def parse(text: str, kind: str, origin: n.Origin) -> Any:
    """Parse one piece of rule text of the given kind into its syntax tree."""
    doc = origin.doc
    if len(text) > MAX_TEXT:
        raise ParseFailure(doc.diagnostic(origin.path, f"this rule text is {len(text)} "
                                          f"characters long; the most is {MAX_TEXT}"))
    try:
        tree, deep = _tree(text, kind)
    except UnexpectedInput as exc:
        raise ParseFailure(_diagnose(text, kind, origin, exc)) from None
    if deep is not None:
        raise ParseFailure(doc.diagnostic(
            origin.path, f"this {kind} is nested more than {MAX_DEPTH} levels deep (an "
            f"aggregate, `any(... for ...)`, counts {AGGREGATE_DEPTH}): split it with `let` or "
            "a function", offset=deep))
    return _Builder(origin).build(tree.children[0] if kind == "expression" else tree)


@lru_cache(maxsize=4096)
def _tree(text: str, kind: str) -> tuple[Tree, int | None]:
    """The parse tree of a piece of rule text, and where it nests too deep (`_too_deep`).
    Kept for the texts parsed last (the same rule texts are read again by each load of a
    ruleset with other options, and by its children): the tree is only ever read."""
    tree = _parser().parse(text, start=kind)
    return tree, _too_deep(tree)


def _too_deep(tree: Tree) -> int | None:
    """The offset of the first part (in the text) nested more than MAX_DEPTH rules deep, or
    None (walked without recursion, so that no depth of input can exhaust Python's stack)."""
    stack: list[tuple[Tree, int]] = [(tree, 0)]  # (the start rule is no nesting)
    first: int | None = None
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            at = getattr(item.meta, "start_pos", 0) or 0
            first = at if first is None else min(first, at)
            continue
        stack.extend((child, depth if child.data == "arguments" else
                      depth + AGGREGATE_DEPTH if child.data == "aggregate" else depth + 1)
                     for child in item.children if isinstance(child, Tree))
    return first


# ---------------------------------------------------------------- diagnostics
_FRIENDLY = {
    "NAME": "a name", "INT": "a number", "STRING": "a text in quotes",
    "COMPARE": "a comparison (== != < <= > >=)", "ASSIGN": "= or += or -=",
    "SUM_OP": "+ or -", "PRODUCT_OP": "* / or %", "FACING": "up or down",
    "LABEL_TEXT": "text", "$END": "the end of the text", "<END-OF-FILE>": "the end of the text",
}

_END = {"$END", "<END-OF-FILE>"}  # (how Lark names the text's end, by version)
_START_WORDS = {
    "statement": "a statement (move, deal, shuffle, flip, swap, set, let, peek, end, turn, "
                 "win, eliminate, reverse direction, reveal, tell, score, or a procedure's "
                 "call: name(...))",
    "expression": "an expression",
    "domain": "a collection to choose from",
    "for_clause": "'NAME in LIST' (for: p in players)",
    "label": "a label",
    "identifier": "a name: letters, digits and _, from a letter or _",
}

_WORD = re.compile(r"[A-Za-z0-9_]+")
_KEYWORD_PATTERN = re.compile(r"\(?([a-z|]+)\)?\\b")


@cache
def keywords() -> frozenset[str]:
    """The grammar's keywords (move, to, face, up, end, game...): the words rule text
    reserves, and those a glued pair of them (`faceup`, `endgame`) may be split into."""
    found = (_KEYWORD_PATTERN.fullmatch(str(t.pattern.value)) for t in _parser().terminals)
    return frozenset(word for m in found if m is not None for word in m.group(1).split("|"))


def _split_hint(text: str, kind: str, start: int, end: int) -> str:
    """' (did you mean ...?)' where the word text[start:end] is two of the grammar's words
    glued together, one a keyword (`endgame`, `movetop(stock)`, `faceup`, `shuffle_stock`),
    and the text parses with a space between them (for the _); '' otherwise."""
    word = text[start:end]
    reserved = keywords()
    splits = [(word[:i], word[i + 1:]) if word[i] == "_" else (word[:i], word[i:])
              for i in range(1, len(word))]
    for left, right in splits:
        if (left not in reserved and right not in reserved) or not left.strip("_") \
                or not right.strip("_") or left.endswith("_") or right.startswith("_"):
            continue
        if _parses(f"{text[:start]}{left} {right}{text[end:]}", kind):
            return f" (did you mean '{left} {right}'?)"
    return ""


def _glued(text: str, kind: str, exc: UnexpectedInput) -> tuple[int, int, str] | None:
    """Where two of the grammar's words were glued together (`faceup`, `endgame`,
    `movetop(stock)`): the word found where the parse failed, or a statement's first word
    (read as a procedure's name), with the hint that splits it; None where neither is."""
    at = (exc.token.start_pos if isinstance(exc, UnexpectedToken) else exc.pos_in_stream) or 0
    places = []
    word = _WORD.match(text, at)
    if word is not None:
        places.append((at, word.end()))
    if kind == "statement":
        places.append(_first_word(text))
    for start, end in places:
        hint = _split_hint(text, kind, start, end) if end > start else ""
        if hint:
            return start, end, hint
    return None


def _parses(text: str, kind: str) -> bool:
    """Whether the text is a whole piece of rule text of the kind."""
    try:
        _parser().parse(text, start=kind)
    except UnexpectedInput:
        return False
    return True


def _first_word(text: str) -> tuple[int, int]:
    """Where the text's first word begins and ends."""
    start = len(text) - len(text.lstrip())
    word = _WORD.match(text, start)
    return start, word.end() if word is not None else start


def _describe_terminal(name: str) -> str:
    if name in _FRIENDLY:
        return _FRIENDLY[name]
    for term in _parser().terminals:
        if term.name == name:
            value = str(term.pattern.value)
            return "'" + value.removesuffix("\\b").replace("(up|down)", "up or down") + "'"
    return name.lower().strip("_")


def _expected(exc: UnexpectedInput) -> str:
    names = sorted(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or [])
    words = sorted({_describe_terminal(t) for t in names})
    if not words:
        return ""
    if len(words) > 6:
        words = words[:6] + ["..."]
    return "expected " + (words[0] if len(words) == 1 else "one of " + ", ".join(words))


def _diagnose(text: str, kind: str, origin: n.Origin, exc: UnexpectedInput) -> Diagnostic:
    doc = origin.doc
    if isinstance(exc, UnexpectedEOF) or (
            isinstance(exc, UnexpectedToken) and exc.token.type == "$END"):
        where = len(text.rstrip())
        if kind == "statement" and _WORD.fullmatch(text.strip()):
            # one word, read as a procedure's name waiting for its '(': say so of the word
            start, end = _first_word(text)
            return doc.diagnostic(origin.path, f"unexpected '{text.strip()}': expected "
                                  + _START_WORDS[kind] + _split_hint(text, kind, start, end),
                                  offset=start, end=end)
        expected = _expected(exc) if text.strip() else "expected " + _START_WORDS[kind]
        message = f"incomplete {kind.replace('_', ' ')}: {expected}"
        return doc.diagnostic(origin.path, message, offset=where)
    glued = _glued(text, kind, exc)
    if glued is not None:
        start, end, hint = glued
        return doc.diagnostic(origin.path, f"unexpected '{text[start:end]}'{hint}",
                              offset=start, end=end)
    if isinstance(exc, UnexpectedToken) and kind == "statement" \
            and set(exc.expected or ()) == {"LPAR"} and _WORD.fullmatch(
                text[:exc.token.start_pos or 0].strip()):
        # A first word that is no statement's was read as a procedure's name: say so of it.
        start = len(text) - len(text.lstrip())
        word = text[:exc.token.start_pos or 0].strip()
        return doc.diagnostic(origin.path, f"unexpected '{word}': expected "
                              + _START_WORDS[kind] + _split_hint(text, kind, start,
                                                                 start + len(word)),
                              offset=start, end=start + len(word))
    before = re.search(r"(?<![\w.])if\s*$", text[:exc.token.start_pos or 0]) \
        if isinstance(exc, UnexpectedToken) and kind != "label" else None
    if before is not None:
        # `1 + if a then b else c`: the conditional binds loosest, so no operand begins
        # with it, and `if` was read as a name
        return doc.diagnostic(origin.path, "a conditional (if ... then ... else ...) inside a "
                              "larger expression goes in parentheses: 1 + (if a then b else c)",
                              offset=before.start(), end=before.start() + 2)
    if isinstance(exc, UnexpectedToken) and exc.token.type == "LABEL_TEXT" and kind != "label":
        # Lark's lexer, finding no word it can take here, read the rest as label text.
        where = exc.token.start_pos or 0
        return doc.diagnostic(origin.path, _unexpected_characters(text, where, kind, exc),
                              offset=where, end=_word_end(text, where))
    if isinstance(exc, UnexpectedToken):
        found = exc.token
        what = f"'{found.value}'"
        expected = _expected(exc)
        offset = found.start_pos or 0
        if offset == 0 and kind in ("statement", "for_clause", "identifier"):
            expected = "expected " + _START_WORDS[kind]
        elif _END & set(exc.expected or ()) and _parses(text[:offset], kind):
            expected = f"the {kind.replace('_', ' ')} looks complete before it"
        if found.value == "=" and kind == "statement" and text.lstrip().startswith("set "):
            expected += " (set gives a value with a single =)"
        elif found.value == "=":
            expected += " (to compare, write ==)"
        elif _after_facing(text, offset, str(found.value), kind):
            expected += _AFTER_FACING
        elif found.value == "for" and re.search(r"\bfor\s+\w+\s+in\b", text[:offset]):
            expected += (" (an aggregate takes one `for`: write a second inside it, "
                         "any(any(... for c in hand[p]) for p in players))")
        return doc.diagnostic(origin.path, f"unexpected {what}: {expected}", offset=offset,
                              end=offset + len(str(found.value)))
    if isinstance(exc, UnexpectedCharacters):
        where = exc.pos_in_stream or 0
        return doc.diagnostic(origin.path, _unexpected_characters(text, where, kind, exc),
                              offset=where, end=_word_end(text, where))
    return doc.diagnostic(origin.path, f"cannot parse this {kind}")  # pragma: no cover


_AFTER_FACING = (" (a deal says whom it starts after before how the cards face: deal 5 from "
                 "stock to each hand after dealer face down)")


def _after_facing(text: str, where: int, word: str, kind: str) -> bool:
    """Whether `word` at `where` is a deal's `after` written after its `face up|down`."""
    return word == "after" and kind == "statement" and re.match(r"\s*deal\b", text) \
        is not None and re.search(r"\bface\s+(up|down)\s*$", text[:where]) is not None


def _word_end(text: str, where: int) -> int:
    """The end of the word that starts at `where`, or of its one character if none does."""
    word = _WORD.match(text, where)
    return word.end() if word is not None else min(where + 1, len(text))


def _unexpected_characters(text: str, where: int, kind: str, exc: UnexpectedInput) -> str:
    """What to say of text the grammar has no word for at `where`."""
    char = text[where] if where < len(text) else "?"
    word = _WORD.match(text, where)
    expected = _expected(exc)
    if text[:where].strip() and _parses(text[:where], kind):
        expected = f"the {kind.replace('_', ' ')} looks complete before it"
    if not text[:where].strip() and kind in ("statement", "for_clause", "identifier"):
        expected = "expected " + _START_WORDS[kind]
    if word is not None and (char.isalpha() or char == "_"):
        # A whole word the grammar cannot take here: most often a keyword glued to a name.
        hint = _AFTER_FACING if _after_facing(text, where, word.group(), kind) else ""
        return f"unexpected '{word.group()}'" + (f": {expected}" if expected else "") + hint
    if not char.isascii():
        return f"unexpected character '{char}' (U+{ord(char):04X}): rule text is ASCII"
    hint = ""
    each = re.search(r"\beach\s+(\w+)\s*$", text[:where]) if char == "[" else None
    if each is not None:
        name = each.group(1)
        hint = (f": 'to each {name}' takes no index, as it deals to every player's own "
                "(to give one player cards, move them to that player's zone)")
    elif char == "=" and kind == "statement" and text.lstrip().startswith("set "):
        hint = " (set gives a value with a single =)"
    elif char == "=":
        hint = " (to compare, write ==)"
    elif char == "(" and kind == "statement" and re.fullmatch(r"\s*set\s+\w+", text[:where]):
        # `set next_player(me).missed += 1`: a target is a name or P.name, P one name
        hint = (": what is set is a variable or P.name with P one name; name the player "
                "first (let q = ..., then set q.name ...)")
    elif char == "[" and kind == "statement" and re.fullmatch(r"\s*set\s+\w+", text[:where]):
        hint = (": what is set is a variable or P.name, never an item of a list; set the "
                "list whole (set xs = ...)")
    elif char in "&|!":
        hint = " (write and, or, not)"
    elif kind == "identifier":
        hint = " (a name is letters, digits and _, from a letter or _)"
    return f"unexpected character '{char}'{hint}"


# ------------------------------------------------------------------- building
class _Builder:
    """Turns Lark's parse tree into `nodes`, one method per grammar rule."""

    def __init__(self, origin: n.Origin):
        self.origin = origin

    def pos(self, item: Tree | Token) -> n.Pos:
        if isinstance(item, Token):
            start = item.start_pos or 0
            end = item.end_pos if item.end_pos is not None else start
            return n.Pos(self.origin, start, end)
        meta = item.meta
        start = getattr(meta, "start_pos", 0) or 0
        return n.Pos(self.origin, start, getattr(meta, "end_pos", start) or start)

    def span(self, first: n.Pos, last: n.Pos) -> n.Pos:
        """The stretch from the start of `first` to the end of `last`."""
        return n.Pos(self.origin, first.offset, max(last.end, first.end))

    def build(self, item: Tree | Token) -> Any:
        if isinstance(item, Token):  # pragma: no cover - every token sits inside a rule
            raise TypeError(f"unexpected token {item!r}")
        method = getattr(self, "rule_" + str(item.data))
        return method(item, *item.children)

    # expressions ---------------------------------------------------------
    def rule_expression(self, t: Tree, inner: Tree) -> n.Expr:
        return self.build(inner)  # type: ignore[no-any-return]

    def rule_conditional(self, t: Tree, test: Tree, then: Tree, otherwise: Tree) -> n.Expr:
        return n.Conditional(self.build(test), self.build(then), self.build(otherwise),
                             pos=self.pos(t))

    def rule_disjunction(self, t: Tree, left: Tree, right: Tree) -> n.Expr:
        return n.Disjunction(self.build(left), self.build(right), pos=self.pos(t))

    def rule_conjunction(self, t: Tree, left: Tree, right: Tree) -> n.Expr:
        return n.Conjunction(self.build(left), self.build(right), pos=self.pos(t))

    def rule_negation(self, t: Tree, operand: Tree) -> n.Expr:
        return n.Negation(self.build(operand), pos=self.pos(t))

    def rule_comparison(self, t: Tree, left: Tree, op: Token, right: Tree) -> n.Expr:
        whole = self.pos(t)
        return n.Comparison(self.build(left), str(op), self.build(right), whole,
                            pos=n.Pos(self.origin, op.start_pos or 0, whole.end))

    def rule_membership(self, t: Tree, item: Tree, coll: Tree) -> n.Expr:
        return n.Membership(self.build(item), self.build(coll), False, pos=self.pos(t))

    def rule_non_membership(self, t: Tree, item: Tree, coll: Tree) -> n.Expr:
        return n.Membership(self.build(item), self.build(coll), True, pos=self.pos(t))

    def rule_arithmetic(self, t: Tree, left: Tree, op: Token, right: Tree) -> n.Expr:
        whole = self.pos(t)
        return n.Arithmetic(self.build(left), str(op), self.build(right), whole,
                            pos=n.Pos(self.origin, op.start_pos or 0, whole.end))

    def rule_minus(self, t: Tree, operand: Tree) -> n.Expr:
        return n.Minus(self.build(operand), pos=self.pos(t))

    def rule_attribute(self, t: Tree, subject: Tree, name: Token) -> n.Expr:
        return n.Attribute(self.build(subject), str(name), self.pos(name), pos=self.pos(t))

    def rule_index(self, t: Tree, subject: Tree, key: Tree) -> n.Expr:
        return n.Index(self.build(subject), self.build(key), pos=self.pos(t))

    def rule_slice(self, t: Tree, subject: Tree, start: Tree | None,
                   stop: Tree | None) -> n.Expr:
        return n.Slice(self.build(subject), self.build(start) if start is not None else None,
                       self.build(stop) if stop is not None else None, pos=self.pos(t))

    def rule_number(self, t: Tree, token: Token) -> n.Expr:
        if len(token) > MAX_DIGITS:  # Python refuses to read thousands of digits
            origin = self.origin
            raise ParseFailure(origin.doc.diagnostic(
                origin.path, f"this number has {len(token):,} digits: a number in rule text "
                f"has at most {MAX_DIGITS}", offset=token.start_pos or 0))
        return n.Number(int(token), pos=self.pos(token))

    def rule_text(self, t: Tree, token: Token) -> n.Expr:
        return n.Text(str(token)[1:-1], pos=self.pos(token))

    def rule_true(self, t: Tree) -> n.Expr:
        return n.Boolean(True, pos=self.pos(t))

    def rule_false(self, t: Tree) -> n.Expr:
        return n.Boolean(False, pos=self.pos(t))

    def rule_nothing(self, t: Tree) -> n.Expr:
        return n.Nothing(pos=self.pos(t))

    def rule_name(self, t: Tree, token: Token) -> n.Expr:
        return n.Name(str(token), pos=self.pos(token))

    def rule_call(self, t: Tree, name: Token, args: Tree | None) -> n.Expr:
        built = tuple(self.build(a) for a in args.children) if args is not None else ()
        return n.Call(str(name), built, pos=self.span(self.pos(name), self.pos(t)))

    def rule_aggregate(self, t: Tree, name: Token, element: Tree, var: Token, source: Tree,
                       condition: Tree | None) -> n.Expr:
        cond = self.build(condition) if condition is not None else None
        return n.Aggregate(str(name), self.build(element), str(var), self.pos(var),
                           self.build(source), cond,
                           pos=self.span(self.pos(name), self.pos(t)))

    def rule_list_literal(self, t: Tree, args: Tree | None) -> n.Expr:
        built = tuple(self.build(a) for a in args.children) if args is not None else ()
        return n.ListLiteral(built, pos=self.pos(t))

    # statements ----------------------------------------------------------
    def rule_statement(self, t: Tree, inner: Tree) -> n.Stmt:
        return self.build(inner)  # type: ignore[no-any-return]

    def _facing(self, facing: Tree | None) -> bool | None:
        return None if facing is None else str(facing.children[0]) == "up"

    def rule_move_cards(self, t: Tree, cards: Tree, bottom: Token | None, to: Tree,
                        facing: Tree | None) -> n.Stmt:
        return n.MoveCards(self.build(cards), self.build(to), self._facing(facing),
                           bottom is not None, pos=self.pos(t))

    def rule_deal_cards(self, t: Tree, count: Tree, source: Tree, zone: Token, after: Tree | None,
                  facing: Tree | None) -> n.Stmt:
        amount = None if count.data == "deal_all" else self.build(count.children[0])
        return n.DealCards(amount, self.build(source), str(zone), self.pos(zone),
                      self._facing(facing), self.build(after) if after is not None else None,
                      pos=self.pos(t))

    def rule_shuffle(self, t: Tree, zone: Tree) -> n.Stmt:
        return n.Shuffle(self.build(zone), pos=self.pos(t))

    def rule_flip(self, t: Tree, cards: Tree, facing: Tree) -> n.Stmt:
        return n.Flip(self.build(cards), bool(self._facing(facing)), pos=self.pos(t))

    def rule_swap(self, t: Tree, first: Tree, second: Tree) -> n.Stmt:
        return n.Swap(self.build(first), self.build(second), pos=self.pos(t))

    def rule_set(self, t: Tree, target: Tree, op: Token, value: Tree) -> n.Stmt:
        parts = [tok for tok in target.children if isinstance(tok, Token)]
        subject = str(parts[0]) if len(parts) == 2 else None
        name = parts[-1]
        return n.Set(subject, str(name), self.pos(name), str(op), self.build(value),
                     pos=self.pos(t))

    def rule_let(self, t: Tree, name: Token, value: Tree) -> n.Stmt:
        return n.Let(str(name), self.pos(name), self.build(value), pos=self.pos(t))

    def rule_peek(self, t: Tree, cards: Tree) -> n.Stmt:
        return n.Peek(self.build(cards), pos=self.pos(t))

    def rule_end_turn(self, t: Tree) -> n.Stmt:
        return n.EndTurn(pos=self.pos(t))

    def rule_turn_to(self, t: Tree, player: Tree) -> n.Stmt:
        return n.TurnTo(self.build(player), pos=self.pos(t))

    def rule_end_round(self, t: Tree, before: Tree | None) -> n.Stmt:
        return n.EndRound(self.build(before) if before is not None else None, pos=self.pos(t))

    def rule_end_phase(self, t: Tree) -> n.Stmt:
        return n.EndPhase(pos=self.pos(t))

    def rule_end_game(self, t: Tree) -> n.Stmt:
        return n.EndGame(pos=self.pos(t))

    def rule_win(self, t: Tree, player: Tree) -> n.Stmt:
        return n.Win(self.build(player), pos=self.pos(t))

    def rule_procedure_call(self, t: Tree, name: Token, args: Tree | None) -> n.Stmt:
        built = tuple(self.build(a) for a in args.children) if args is not None else ()
        return n.ProcedureCall(str(name), built, pos=self.pos(t))

    def rule_score_points(self, t: Tree, points: Tree, player: Tree) -> n.Stmt:
        return n.ScorePoints(self.build(points), self.build(player), pos=self.pos(t))

    def rule_eliminate(self, t: Tree, player: Tree) -> n.Stmt:
        return n.Eliminate(self.build(player), pos=self.pos(t))

    def rule_reverse_direction(self, t: Tree, words: Token) -> n.Stmt:
        return n.ReverseDirection(pos=self.pos(t))

    def rule_reveal(self, t: Tree, cards: Tree) -> n.Stmt:
        return n.Reveal(self.build(cards), pos=self.pos(t))

    def rule_tell(self, t: Tree, player: Tree, var: Token, source: Tree,
                  condition: Tree) -> n.Stmt:
        return n.Tell(self.build(player), str(var), self.pos(var), self.build(source),
                      self.build(condition), pos=self.pos(t))

    # domains, for clauses, labels, identifiers ----------------------------
    def rule_domain(self, t: Tree, source: Tree, where: Tree | None) -> n.Domain:
        return n.Domain(self.build(source), self.build(where) if where is not None else None,
                        pos=self.pos(t))

    def rule_for_clause(self, t: Tree, var: Token, source: Tree) -> n.ForClause:
        return n.ForClause(str(var), self.pos(var), self.build(source), pos=self.pos(t))

    def rule_label(self, t: Tree, *parts: Token | Tree) -> n.Label:
        built: list[str | n.Placeholder] = []
        for part in parts:
            if isinstance(part, Token):
                built.append(str(part))
            else:  # a placeholder: a parameter's name alone, or an expression
                expr = self.build(part.children[0])
                built.append(n.Placeholder(expr.name, pos=expr.pos) if isinstance(expr, n.Name)
                             else n.Placeholder(expr.pos.text.strip(), expr, pos=expr.pos))
        return n.Label(tuple(built), pos=n.Pos(self.origin, 0, 0))

    def rule_identifier(self, t: Tree, name: Token) -> n.Identifier:
        return n.Identifier(str(name), pos=self.pos(name))
