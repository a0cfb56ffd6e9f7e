"""The ruleset's own words: actions, cards and places, and an action as each party saw it.

`Words(rules).describe(action, state, seat)` is an action's label with its choices filled in,
a card named only if `seat` knows it (no seat: if every seat does), any other card told by
where it lies ("the face-down card of seat 2's grid at row 1, column 3", "an unseen card from
seat 3's hand").

`tell(words, state, me, action)` is an action about to be applied as every seat, and the
table, will read it once it is done: a card is named to a seat that knew it before and still
knows it once the move's own effects are done; any other is told by the place it lay in, and
a card the action showed the seat is added after (" - it was 7D"). So a card everyone knew in
a hand, put face down into a field, is not named to the others: they cannot tell which card of
the hand it was. What the action does is worked out on a copy of the game, its move made there
first (`applied`), so the words are known when the action is logged, before its effects. Text a
seat wrote into an open parameter (a secret prediction) is its own: the others read that
something was written.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardrules.errors import CardrulesError, RuleFault, RuleRuntimeError
from cardrules.model import PASS, PASS_TEXT, Action, MoveDef, Ruleset

from .runtime import OTHERS, OWNER
from .sight import apart_from
from .state import GameState

CARD_KINDS = ("red", "black", "none")  # colours, by number


class Words:
    """The words of one ruleset's actions, cards and places."""

    def __init__(self, rules: Ruleset):
        self.rules = rules
        self.moves = rules.moves
        self.board = rules.board
        self.open_moves = frozenset(m.name for m in rules.moves.values() if "words" in m.kinds)
        # Zones whose order tells their unseen cards apart (piles), by name, for place_of.
        self._stacked = {z.name: z.layout == "stack" for z in rules.zones}

    def describe(self, action: Action, state: GameState | None = None,
                 seat: int | None = None, namer: Callable[[int], str] | None = None,
                 sees: Callable[[int], bool] | None = None,
                 listed: Callable[[int], bool] | None = None) -> str:
        """An action in the ruleset's own words: its label with the choices filled in.

        With a state, a card is named only if `seat` knows it (with no seat: if everyone
        does); any other card is described by where it lies, so that a description shown
        to a player, or written to the public log, gives nothing away; the unseen cards of
        a list of cards are counted once ('AD and 2 unseen cards from seat 2's hand').
        `namer` (a card -> its words) decides instead, where the words are told after the
        action (`tell`), `listed` (a card -> whether it is named) for a list's cards, and
        `sees` (a card -> whether the reader may read what it is) for the label's values.
        """
        if action == PASS:
            return PASS_TEXT
        move = self.moves.get(action[0]) if action else None
        if move is None:
            return repr(action)
        values = {p: self.value_text(kind, v, state, seat, namer, listed)
                  for p, kind, v in zip(move.params, move.kinds, action[1:])}
        parts, values = in_person(move.label_parts,
                                  values | self.label_values(move, action, state, seat, sees))
        return "".join(text if kind == "text" else values.get(text, "") for kind, text in parts)

    def narrate(self, action: Action, who: int, seat: int | None,
                state: GameState | None = None,
                namer: Callable[[int], str] | None = None,
                sees: Callable[[int], bool] | None = None,
                listed: Callable[[int], bool] | None = None) -> str:
        """`who`'s action as a sentence `seat` reads (None: the table): 'you ask seat 2 for
        the red A' to the one who made it, 'seat 1 asks seat 2 for the red A' to everyone
        else. The label's own words are put in the person of its reader (its first verb, a
        verb after 'then', 'and' or 'or', 'your'); the choices are in `seat`'s words, as
        `describe` gives them, but a text written into an open parameter, which is its
        writer's alone."""
        if action == PASS:
            return f"{'you' if seat == who else self.player_name(who)}: {PASS_TEXT}"
        move = self.moves.get(action[0]) if action else None
        if move is None:
            return f"{self.player_name(who)}: {self.describe(action, state, seat, namer)}"
        values = {p: self.value_text(kind, v, state, seat, namer, listed)
                  if kind != "words" or seat == who else "(written, not shown)"
                  for p, kind, v in zip(move.params, move.kinds, action[1:])}
        parts, values = in_person(move.label_parts,
                                  values | self.label_values(move, action, state, seat, sees))
        return sentence(parts, values, self.player_name(who), seat == who)

    def label_values(self, move: MoveDef, action: Action, state: GameState | None,
                     seat: int | None, sees: Callable[[int], bool] | None = None
                     ) -> dict[str, str]:
        """The label's expressions in words, by number: each is worked out from the action's
        choices, and read only by a seat that knows every chosen card it reads (else '?'),
        so that it says no more of a card than the card's own name would."""
        if not move.label_values:
            return {}
        if sees is None:
            sees = self.knower(state, seat)
        out: dict[str, str] = {}
        for i, shown in enumerate(move.label_values):
            cards = [c for place in shown.cards for c in _flat(action[place])]
            out[str(i)] = self.value_text(shown.kind, self._value(move, shown, state, action)) \
                if all(sees(c) for c in cards) else "?"
        return out

    def _value(self, move: MoveDef, shown: Any, state: GameState | None, action: Action) -> Any:
        """A label's value, a fault in working it out located at the label's expression."""
        try:
            return shown.value(state, action)
        except CardrulesError as exc:
            if not isinstance(exc, RuleFault):
                raise
            failed: BaseException = exc
        except Exception as exc:  # noqa: BLE001 - a bug of cardrules, located
            failed = exc
        diagnostic = self.rules.locate(failed, f"in the label of move '{move.name}'")
        raise RuleRuntimeError(diagnostic.message, diagnostic) from None

    @staticmethod
    def knower(state: GameState | None, seat: int | None) -> Callable[[int], bool]:
        """Whether the reader knows a card: `seat` (None: every seat) in `state` (None: all
        is told)."""
        if state is None:
            return lambda c: True
        if seat is None:
            return lambda c: bool(state.known[c] == state.everyone)
        return lambda c: bool(state.known[c] >> seat & 1)

    def describe_move(self, name: str) -> str:
        """A move's label up to its first choice ('Predict' for 'Predict {prediction}')."""
        move = self.moves.get(name)
        if move is None:
            return name
        first = move.label_parts[0] if move.label_parts else ("param", "")
        return (first[1].strip() if first[0] == "text" else "") or move.name

    def value_text(self, kind: str, value: Any, state: GameState | None = None,
                   seat: int | None = None, namer: Callable[[int], str] | None = None,
                   listed: Callable[[int], bool] | None = None) -> str:
        """A move parameter's value in words, by its type (`describe` says how a card is
        named, and a list's)."""
        cards = self.rules.cards
        if kind == "card":
            return namer(value) if namer is not None else self.name_of(value, state, seat)
        if kind == "player":  # the reader is 'you' (in_person makes it 'your', 'yours')
            return YOU if seat is not None and value == seat else self.player_name(value)
        if kind == "rank":
            return cards.rank_names[value]
        if kind == "suit":
            return cards.suit_names[value]
        if kind == "colour":
            return CARD_KINDS[value]
        if kind == "words" and state is not None and seat is None:
            return "(written, not shown)"  # a typed value stays its writer's, in public
        if isinstance(value, (list, tuple)):  # a list of cards, or of groups of cards
            if all(isinstance(v, int) and not isinstance(v, bool) for v in value):
                return self.cards_text(value, state, seat, listed)
            return " | ".join(self.value_text(kind, v, state, seat, namer, listed)
                              for v in value)
        return str(value)

    def cards_text(self, cards: Any, state: GameState | None = None, seat: int | None = None,
                   listed: Callable[[int], bool] | None = None) -> str:
        """A list of cards in words: each by its name if the reader knows it (`listed`, else
        `seat` in `state`), the others counted once, with their zone when they share one
        ('AD AH and 2 unseen cards from seat 2's hand')."""
        names = self.rules.cards.names
        if state is None:
            return " ".join(names[c] for c in cards)
        reads = listed or self.knower(state, seat)
        named = [names[c] for c in cards if reads(c)]
        unseen = [c for c in cards if not reads(c)]
        if not unseen:
            return " ".join(named)
        zones = {state.where[c] for c in unseen}
        where = f" from {self.zone_words(state, zones.pop(), seat)}" if len(zones) == 1 else ""
        count = f"{'an unseen card' if len(unseen) == 1 else f'{len(unseen)} unseen cards'}" \
            f"{where}"
        return f"{' '.join(named)} and {count}" if named else count

    def player_name(self, p: int) -> str:
        """A player in words: 'seat 2', or the house's name."""
        house = self.rules.house
        if house is not None and p == house.index:
            return house.name
        return f"seat {p + 1}"

    def name_of(self, value: int, state: GameState | None = None,
                seat: int | None = None) -> str:
        """A card's name, or its place if the seat does not know it."""
        if state is not None and not self.knower(state, seat)(value):
            return self.place_of(state, value, seat)
        return self.rules.cards.names[value]

    def place_of(self, state: GameState, card: int, seat: int | None = None) -> str:
        """Where a card lies, in plain words, from `seat`'s side (None: the table's): 'the
        face-down card of seat 2's grid at row 1, column 3', 'an unseen card from seat 3's
        hand', 'the unseen card 2 from the top of the stock', 'an unseen card from pile 3'
        (a group of a shared zone, counted from 1)."""
        z = state.where[card]
        board = self.board
        name = board.names[z]
        zone = self.zone_words(state, z, seat)
        cards = state.zones[z]
        index = cards.index(card)
        if board.grid[z]:
            width = board.width[z]
            return f"the face-down card of {zone} at row {index // width + 1}, " \
                   f"column {index % width + 1}"
        if board.visibility[z] == OTHERS:  # its holder sees each card's place in it
            return f"card {index + 1} of {zone}"
        # a pile: where in it is what tells cards apart; but a hand's order (whatever its
        # layout) is its holder's alone, never told to the table
        if self._stacked.get(name, True) and board.visibility[z] != OWNER:
            depth = len(cards) - index
            return f"the unseen top card of {zone}" if depth == 1 \
                else f"the unseen card {depth} from the top of {zone}"
        return f"an unseen card from {zone}"

    def zone_words(self, state: GameState, z: int, seat: int | None = None) -> str:
        """A zone in plain words, from `seat`'s side (None: the table's): 'the stock',
        'your hand', "seat 2's hand", 'pile 3' (a group of a shared zone, from 1)."""
        board = self.board
        owner, name = board.owner[z], board.names[z]
        if owner < 0:
            group = board.group[z] if board.group else -1
            return f"the {name}" if group < 0 else f"{name} {group + 1}"  # pile 3, from 1
        if owner == state.house:
            return f"{self.player_name(owner)}'s {name}"
        return f"your {name}" if owner == seat else f"seat {owner + 1}'s {name}"


def told_words(rules: Ruleset, mask: int) -> str:
    """What the clues told of a card (`mask`: the faces it may be, sight.py) in words: its
    suits and ranks where the faces left are every pairing of them ('red', 'red, not 3',
    'not red, not blue, 1 or 2'), else the names left ('1R or 2B')."""
    cards, faces = rules.cards, rules.board.faces
    left = [f for f in faces if mask >> f & 1]
    if not left:
        return "nothing"
    suits = sorted({cards.suit[f] for f in left})
    ranks = sorted({cards.rank[f] for f in left})
    if len(left) != sum(1 for f in faces if cards.suit[f] in suits and cards.rank[f] in ranks):
        return " or ".join(cards.names[f] for f in left)
    parts = [_which(suits, sorted({cards.suit[f] for f in faces}), cards.suit_names),
             _which(ranks, sorted({cards.rank[f] for f in faces}), cards.rank_names)]
    return ", ".join(p for p in parts if p) or "anything"


def _which(left: list[int], every: list[int], names: tuple[str, ...]) -> str:
    """Some of a deck's suits (or ranks) in words: one by its name, else those left out
    ('not 3, not 4'), or those left where they are fewer ('1 or 2')."""
    if left == every:
        return ""
    if len(left) == 1:
        return names[left[0]]
    out = [x for x in every if x not in left]
    if len(out) <= len(left):
        return ", ".join(f"not {names[x]}" for x in out)
    return " or ".join(names[x] for x in left)


# ----------------------------------------------------- the person of a label's words
# Words that begin no verb: after them, a label is told as '<who>: <label>'.
_NOT_VERBS = frozenset({"no", "not", "a", "an", "the", "all", "every", "each", "one", "two",
                        "my", "your", "their", "his", "her", "its", "nothing", "none"})
_IRREGULAR = {"be": "is", "have": "has", "do": "does", "go": "goes"}
_THIRD = {"you": "they", "your": "their", "yours": "theirs", "yourself": "themselves"}
_WORD = re.compile(r"[A-Za-z]+")
_JOINED_VERB = re.compile(r"(\b(?:then|and|or)\s+)([a-z]+)")
_SECOND = re.compile(r"\b(?:[Yy]ou|[Yy]our|[Yy]ours|[Yy]ourself)\b")


YOU = "you"


def in_person(parts: tuple[tuple[str, str], ...], values: dict[str, str]
              ) -> tuple[tuple[tuple[str, str], ...], dict[str, str]]:
    """A label's parts and values with a player chosen who is its reader ('you') put as the
    label's words have it: "{owner}'s meld" -> 'your meld', 'meld 2 of {owner}' -> 'meld 2
    of yours'."""
    if YOU not in values.values():
        return parts, values
    out, values = list(parts), dict(values)
    for i, (kind, name) in enumerate(parts):
        if kind == "text" or values.get(name) != YOU:
            continue
        after = parts[i + 1] if i + 1 < len(parts) else ("", "")
        if after[0] == "text" and after[1].startswith("'s"):
            values[name] = "your"
            out[i + 1] = ("text", after[1][2:])
        elif i and parts[i - 1][0] == "text" and re.search(r"\bof $", parts[i - 1][1]):
            values[name] = "yours"
    return tuple(out), values


def sentence(parts: tuple[tuple[str, str], ...], values: dict[str, str], who: str,
             own: bool) -> str:
    """A move's label (its parsed `parts`) told as a sentence: by its maker (`own`: 'you
    take the top card of the stock'), or of `who` to anyone else ('seat 2 takes the top
    card of the stock', 'your' becoming 'their'). Only the label's own text changes
    person; the choices' words (`values`) are the reader's already."""
    out: list[str] = []
    started = False
    for kind, text in parts:
        if kind != "text":  # a parameter's value, or the label's expression's
            out.append(values.get(text, ""))
            started = True
            continue
        if not own:
            text = _JOINED_VERB.sub(lambda m: m.group(1) + _conjugate(m.group(2)), text)
            text = _SECOND.sub(lambda m: _recase(_THIRD[m.group(0).lower()], m.group(0)), text)
        if not started:
            text = _first_verb(text, own)
            started = True
        out.append(text)
    body = "".join(out)
    subject = "you" if own else who
    if not parts or parts[0][0] != "text" or body.startswith(":"):
        return f"{subject}{body}" if body.startswith(":") else f"{subject}: {body}"
    return f"{subject} {body}"


def _first_verb(text: str, own: bool) -> str:
    """A label's opening words with its first word lower-cased and, told of another,
    in the third person ('Take the' -> 'takes the'); ': no more lay-offs' where the label
    opens with no verb, 'is done'/'are done' for 'Done'."""
    match = _WORD.match(text)
    if match is None:
        return ": " + text
    word = match.group(0).lower()
    rest = text[match.end():]
    if word == "done":
        return ("are done" if own else "is done") + rest
    if word in _NOT_VERBS:
        return ": " + word + rest
    return (word if own else _conjugate(word)) + rest


def _conjugate(verb: str) -> str:
    """A verb in the third person singular: take -> takes, pass -> passes, carry ->
    carries."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb in _NOT_VERBS or verb in _THIRD:
        return verb
    if verb.endswith(("s", "x", "z", "ch", "sh", "o")):
        return verb + "es"
    if len(verb) > 1 and verb.endswith("y") and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def _recase(word: str, like: str) -> str:
    return word.capitalize() if like[:1].isupper() else word


# --------------------------------------------------------- an action as it was seen
@dataclass(frozen=True)
class Told:
    """An action's words: for the table (the label's words, with the choices filled in),
    and for each seat (seats[0] for seat 1) as a sentence in that seat's person: 'you ask
    seat 2 for the red A' to its maker, 'seat 1 asks seat 2 for the red A' to the others;
    and for each seat, the cards (by their faces' numbers) its sentence names, each one the
    seat knows once the action is done (the others it tells of by where they lie)."""

    public: str
    seats: tuple[str, ...]
    named: tuple[tuple[int, ...], ...]


def tell(words: Words, state: GameState, me: int, action: Action) -> Told:
    """`me`'s action in every seat's words and in the table's, `state` being the game before
    the action is applied (it is not changed)."""
    seats = range(state.n)
    if action == PASS:
        return Told(words.describe(action), tuple(words.narrate(action, me, p) for p in seats),
                    tuple(() for _ in seats))
    move = words.moves.get(action[0])
    cards = cards_of(words.rules, action)
    if move is not None and action[0] in words.open_moves:
        public = f"{words.describe_move(action[0])} (written, not shown)"
        return Told(public, tuple(words.narrate(action, me, p, state) for p in seats),
                    tuple(_named(cards, _knows(state.known, p), words.rules.board.face)
                          for p in seats))
    answers = clue_answers(words.rules, state, me, action) if words.rules.tells else []
    if move is None or not cards:
        return Told(words.describe(action, state, None) + answered(words, answers, None),
                    tuple(words.narrate(action, me, p, state) + answered(words, answers, p)
                          for p in seats), tuple(() for _ in seats))
    done = applied(words.rules, state, me, action) or state
    after = {c: done.known[c] for c in cards}
    # A party that knew another copy of a card's face where the card lay knew it as well as
    # one that knew the card itself: it cannot tell the two apart (sight.copy_seen).
    knew = {c: state.known[c] | copies_known(words.rules, state, done, c) for c in cards} \
        if words.rules.board.copies else state.known
    everyone = state.everyone
    # A card the action takes or looks at in a hand neither the actor nor the reader holds:
    # the reader cannot tell which of its cards it was, whatever it knows of them
    # (sight.apart_from), before the action and after (where it still lies there).
    board = words.rules.board
    apart = {c: (apart_from(board, state, c, me), apart_from(board, done, c, me))
             for c in cards}

    def seen(known: Any, p: int, when: int) -> Callable[[int], bool]:
        return lambda c: bool(known[c] >> p & 1 and not apart[c][when] >> p & 1)

    public = _words(words, state, action, None, me, cards,
                    lambda c: knew[c] == everyone and not apart[c][0],
                    lambda c: after[c] == everyone and not apart[c][1])
    told = tuple(_words(words, state, action, p, me, cards, seen(knew, p, 0),
                        seen(after, p, 1)) + answered(words, answers, p) for p in seats)
    face = words.rules.board.face
    return Told(public + answered(words, answers, None), told,
                tuple(_named(cards, seen(after, p, 1), face) for p in seats))


def _knows(known: Any, seat: int) -> Callable[[int], bool]:
    return lambda c: bool(known[c] >> seat & 1)


def _named(cards: list[int], knows: Callable[[int], bool], face: Any) -> tuple[int, ...]:
    """The cards of an action's words that a seat's sentence names: those it knows (`knows`,
    once the action is done), each told by its name (or ' - it was 7D'), never by its place;
    by the number of its face (`Board.face`: copies of a card are one face to a seat)."""
    return tuple(face[c] for c in cards if knows(c))


def clue_answers(rules: Ruleset, state: GameState, me: int,
                 action: Action) -> list[dict[str, Any]]:
    """The answers of the clues `me`'s action gives by its move's own effects (the event
    log's `tell` events, sight.tell_cards), worked out on a copy of the game."""
    move = rules.moves.get(action[0]) if action and action != PASS else None
    if move is None:
        return []
    copy = state.copy()
    copy.log = []
    try:
        move.run(copy, me, action)
    except Exception:  # noqa: BLE001 - the move will fail, and be reported, in play
        return []
    return [event for event in copy.log if event.get("effect") == "tell"]


def answered(words: Words, answers: list[dict[str, Any]], seat: int | None) -> str:
    """What clues answered, as `seat` (None: the table) reads it: ' - cards 1 and 3 of
    your hand', ' - no card of seat 2's hand'. Every seat hears a clue alike; only the
    person of the words is the reader's."""
    out = []
    for event in answers:
        zone, owner, held = event["zone"], event["owner"], event["yes"]
        where = f"the {zone}" if owner < 1 else f"your {zone}" if owner - 1 == seat \
            else f"{words.player_name(owner - 1)}'s {zone}"
        if not held:
            out.append(f"no card of {where}")
        else:
            listed = ", ".join(str(p) for p in held[:-1]) + " and " if len(held) > 1 else ""
            noun = "cards" if len(held) > 1 else "card"
            out.append(f"{noun} {listed}{held[-1]} of {where}")
    return "".join(f" - {text}" for text in out)


def known_after(rules: Ruleset, state: GameState, me: int, action: Action) -> dict[int, int]:
    """For each card `action` names, who knows it once the move's own effects are done. If
    the move cannot be carried out, who knows it now."""
    cards = cards_of(rules, action)
    if not cards:
        return {}
    after = applied(rules, state, me, action) or state
    return {c: after.known[c] for c in cards}


def copies_known(rules: Ruleset, before: GameState, after: GameState, c: int) -> int:
    """The parties that did not know card c before a move (`before`, `after`) and know it
    after, that knew another copy of its face where c lay and know that copy no more: they
    saw the face go, and cannot tell which copy it was (sight.copy_seen)."""
    face = rules.board.face
    gained = after.known[c] & ~before.known[c]
    if not gained:
        return 0
    out = 0
    for other in before.zones[before.where[c]]:
        if other >= 0 and other != c and face[other] == face[c]:
            out |= before.known[other] & ~after.known[other] & gained
    return out


def applied(rules: Ruleset, state: GameState, me: int, action: Action) -> GameState | None:
    """The game once `me`'s action's move has done its own effects, on a copy (what follows
    the move, its triggers, a round's end and a new deal, is not done; the copy draws from
    the generator what the game will draw). None if the move cannot be carried out there:
    the game itself will say why."""
    move = rules.moves.get(action[0]) if action and action != PASS else None
    if move is None:
        return None
    copy = state.copy()  # (a copy keeps no event log and tells no watcher)
    try:
        move.run(copy, me, action)
    except Exception:  # noqa: BLE001 - the move will fail, and be reported, in play
        return None
    return copy


def cards_of(rules: Ruleset, action: Action) -> list[int]:
    """The cards an action names (a card, or a list or layout of cards), in order, each once."""
    move = rules.moves.get(action[0]) if action else None
    if move is None:
        return []
    out: list[int] = []
    for names_cards, value in zip(move.names_cards, action[1:]):
        if names_cards:
            for c in _flat(value):
                if c not in out:
                    out.append(c)
    return out


def _words(words: Words, state: GameState, action: Action, seat: int | None, me: int,
           cards: list[int], knew: Callable[[int], bool], knows: Callable[[int], bool]) -> str:
    """`me`'s action in the words of `seat` (a sentence), or of the table (None: the
    label's words), and the cards it showed them."""
    names = words.rules.cards.names

    def namer(c: int) -> str:
        return names[c] if knew(c) and knows(c) else words.place_of(state, c, seat)

    def sees(c: int) -> bool:  # a label's value reads only cards the reader knows once the
        return knows(c)  # move is done, which its words name ('- it was 7D'): a card it knew
    # that leaves a hand unseen is told by its place alone, and so must its value be

    text = words.describe(action, state, seat, namer, sees, knows) if seat is None \
        else words.narrate(action, me, seat, state, namer, sees, knows)
    listed = {c for value in action[1:] if isinstance(value, (list, tuple))
              for c in _flat(value)}  # (named in their list once the move shows them)
    shown = [names[c] for c in cards if not knew(c) and knows(c) and c not in listed]
    return f"{text} - it was {' '.join(shown)}" if shown else text


def _flat(value: Any) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [value]
    if isinstance(value, (list, tuple)):
        return [c for v in value for c in _flat(v)]
    return []
