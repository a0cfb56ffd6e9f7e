"""What happened, as one seat reads it: every action it saw and what came of it.

The one source is the game's event log (interpreter/flow.py and interpreter/effects.py):
an action's event carries its words for each seat (`told`, a sentence in that seat's
person), and each effect that follows (a card moved, shown, turned, a hand shuffled, a seat
put out) names its card for the seats that know it then. `news(rules, events, seat)` turns
a run of events into the seat's lines; the terminal, the browser and `run --view` lay them
out, and the log itself is the table's account of the same events. Nothing here reads the
game: a card is named only where the log names it to that seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cardrules.interpreter.sessions.people import Lone
from cardrules.model import PASS, Ruleset

from .account import ends_game, round_account
from .render import printable, trigger_docs, value_words, winner_names

Event = dict[str, Any]


@dataclass(frozen=True)
class News:
    """One thing that happened, in one seat's words: a line, and what came of it (each a
    line of its own). `kind`: 'action' (a seat's action, its `seat` from 1), 'round' (a
    round's start: its setup), 'account' (a round's end: its account) or 'game' (the game's
    end, a seat missing a turn...)."""

    text: str
    then: tuple[str, ...] = ()
    kind: str = "action"
    seat: int | None = None

    def lines(self) -> list[str]:
        """The news as text lines: the line, then each consequence indented."""
        return [self.text, *(f"  {line}" for line in self.then)]

    def to_data(self) -> dict[str, Any]:
        return {"text": self.text, "then": list(self.then), "kind": self.kind,
                "seat": self.seat}


def news(rules: Ruleset, events: Sequence[Event], seat: int, accounts: bool = True,
         lone: Lone | None = None) -> list[News]:
    """The events of a game, in order, as `seat` (from 0) reads them: each action but a
    pass with the effects that followed it, each round's end (with its account, unless
    `accounts` is false) and start, the game's end. `lone`: the events began with a
    person's only choice, played for them: the seat whose it was is told so."""
    out: list[News] = []
    current: _Open | None = None
    in_setup = False
    setup: list[Event] = []  # the effects of a round's setup
    for index, event in enumerate(events):
        kind = event.get("event")
        if kind is None:  # an effect: it belongs to the open action, if any
            if in_setup:
                setup.append(event)
            elif current is not None:
                current.effects.append(event)
            continue
        if current is not None:
            out.append(current.close(rules, seat))
            current = None
        if setup:
            out.extend(_setup_news(rules, setup, seat))
            setup = []
        if kind == "action":
            in_setup = False
            if event.get("move") != PASS[0]:
                current = _Open(event)
        elif kind == "round":
            in_setup = True
            if event["round"] > 1:  # (the first is the game's start)
                out.append(News(f"round {event['round']} begins: seat {event['dealer']} deals",
                                kind="round"))
        elif kind == "round_end":
            in_setup = False
            if accounts:
                account = round_account(rules, event, ends_game(events, index), seat)
                out.append(News(account.headline(), tuple(account.lines()), kind="account"))
        elif kind == "skip":
            out.append(News(_subject(event["seat"], seat, "misses a turn", "miss a turn"),
                            kind="game", seat=event["seat"]))
        elif kind == "forfeit":
            out.append(News(_subject(event["seat"], seat, "forfeits the game",
                                     "forfeit the game"), kind="game", seat=event["seat"]))
        elif kind == "game_end":
            out.append(News(game_end_text(event, rules), kind="game"))
    if current is not None:
        out.append(current.close(rules, seat))
    if setup:
        out.extend(_setup_news(rules, setup, seat))
    return _played_for(out, seat, lone.words) if lone is not None and lone.seat == seat \
        else out


def _played_for(out: list[News], seat: int, words: str) -> list[News]:
    """`seat`'s news of events that began with an action played for it, its only choice
    (`words`: the choice as the seat read it), told so: 'your only choice: Discard 4H'."""
    for index, item in enumerate(out):
        if item.kind == "action" and item.seat == seat + 1:
            out[index] = News(printable(f"your only choice: {words}"), item.then, item.kind,
                              item.seat)
            break
    return out


def _setup_news(rules: Ruleset, effects: Sequence[Event], seat: int) -> list[News]:
    """What a round's setup did that the seat's view of the table does not show: cards
    that left a seat's zone (passed to another seat, say), each named if the seat knows it.
    What was dealt from shared zones the seat sees in its own hand."""
    passed = [e for e in effects if e.get("effect") in ("move", "swap")
              and "[" in str(e.get("from", ""))]
    lines = consequences(rules, passed, seat)
    return [News("before play:", tuple(printable(line) for line in lines), kind="round")] \
        if lines else []


def setup_lines(rules: Ruleset, effects: Sequence[Event]) -> list[str]:
    """Every effect of a round's setup, as `run --reveal` prints it: each card named where
    any seat knows it (a card no seat knows stays 'a card'), each zone by its owner."""
    named = []
    for effect in effects:
        told = effect.get("told")
        if effect.get("card") is None and isinstance(told, list):
            effect = {**effect, "card": next((c for c in told if c is not None), None)}
        named.append({k: v for k, v in effect.items() if k != "told"})
    return [printable(line) for line in consequences(rules, named, -1)]


def game_end_text(event: Event, rules: Ruleset) -> str:
    """The game's end in a line: who won (or that nobody did, or that it was cut off)."""
    if event.get("cut_off"):
        return f"the game is over: {event['cut_off']}"
    names = winner_names(event.get("winners", []), rules.teams)
    one = "winners " if names and rules.teams else "winner "  # (a team is its seats)
    house = event.get("house")
    if house is not None and house.get("winner") and rules.house is not None:
        names.insert(0, rules.house.name)
    over = "the game is over"
    if event.get("limit"):  # (its `until` never met)
        rounds = event["limit"]
        over += f" after {rounds} round{'s' if rounds != 1 else ''}, the most it plays"
    if not names:
        return f"{over}: no winner"
    return f"{over}: " + (one if len(names) == 1 else "tied winners ") + ", ".join(names)


@dataclass
class _Open:
    """An action whose effects are still being read."""

    event: Event
    effects: list[Event] = field(default_factory=list)

    def close(self, rules: Ruleset, seat: int) -> News:
        told = self.event.get("told")
        text = told[seat] if isinstance(told, list) and seat < len(told) \
            else f"seat {self.event['seat']}: {self.event.get('action', '')}"
        effects = [e for e in self.effects if not self.said(e, seat)]
        then = consequences(rules, effects, seat)
        move = rules.moves.get(self.event.get("move", ""))
        if not then and move is not None and "player" in move.kinds \
                and all(e.get("effect") == "values" for e in self.effects):
            # asked of another seat, and nothing came of it that the seat sees (a clue given
            # is an effect: what it told is the action's own line; a change of a variable
            # the seat does not see is none of its news, else it would tell the seat that
            # something it may not see changed)
            then = ["nothing comes of it"]
        return News(printable(text), tuple(printable(line) for line in then),
                    seat=self.event.get("seat"))

    def said(self, effect: Event, seat: int) -> bool:
        """Whether the action's own line told `seat` what `effect` tells: a card it named
        turned face up ('- it was 9C'), or a look the line itself was, one whose card it
        named to the seat that looked ('you look at ... - it was 9C'; to the others, 'seat 2
        looks at the face-down card of ...' is the look). Cards are told apart by number: a
        second card of the same name is another card."""
        kind = effect.get("effect")
        if kind not in ("flip up", "peek"):
            return False
        learner = effect["seat"] - 1 if kind == "peek" else seat  # who learns the card
        cards = _named(effect, learner)
        return bool(cards) and set(cards) <= set(_named(self.event, learner))


def _named(event: Event, seat: int) -> list[int]:
    """The cards, by number, an event names to `seat` (its `named` entry, or none)."""
    named = event.get("named")
    return named[seat] if isinstance(named, list) and 0 <= seat < len(named) else []


# ------------------------------------------------------------------ effects
def consequences(rules: Ruleset, effects: Sequence[Event], seat: int) -> list[str]:
    """What a run of effects did, as `seat` saw it: cards that went the same way in a row
    (or round the table, as a deal) as one line."""
    groups: list[tuple[tuple[Any, ...], list[str | None]]] = []
    for index, effect in enumerate(effects):
        if _swapped(effects, index - 1):  # (told with the card it changed places with)
            continue
        if effect.get("effect") == "values":  # (the variables the seat sees that changed)
            groups += [(("rule", None, None, None, text), [])
                       for text in values_text(rules, effect, seat)]
            continue
        if effect.get("effect") in _RULED:
            groups.append((("rule", None, None, None, ruled_text(rules, effect, seat)), []))
            continue
        if _swapped(effects, index):
            key = ("swap", effect.get("from"), effect.get("to"), None, None)
            groups.append((key, [_card(effect, seat), _card(effects[index + 1], seat)]))
            continue
        key = _key(effect)
        card = _card(effect, seat)
        found = _group_of(groups, key)
        if found is not None and key[0] in _CARDS:
            found[1].append(card)
        else:
            groups.append((key, [card]))
    return [line for key, cards in groups for line in [_line(rules, key, cards, seat)] if line]


_CARDS = ("move", "swap", "reveal", "flip up", "flip down")  # effects on a card


# What a rule says of the round or the game (interpreter/effects.py logs it, with the rule).
_RULED = ("end round before", "end round", "end game", "win")


def ruled_text(rules: Ruleset, effect: Event, seat: int) -> str:
    """A rule ending the round or the game, or making a winner, in `seat`'s words, with the
    trigger that said it ('the round ends before seat 4's next turn (last lap): every other
    seat has one more turn'); a move's is the action's own line, told just above."""
    kind = effect["effect"]
    why = _trigger_words(rules, effect["trigger"]) if "trigger" in effect else ""
    if kind == "end round before":
        whose = "your" if effect["seat"] == seat + 1 else f"seat {effect['seat']}'s"
        last = ": every other seat has one more turn" if effect.get("turn") == effect["seat"] \
            else ""
        return f"the round ends before {whose} next turn{why}{last}"
    if kind == "win":
        if effect.get("house"):
            house = rules.house.name if rules.house is not None else "the house"
            return f"{house} wins{why}"
        return _subject(effect["seat"], seat, "wins", "win") + why
    return f"the {kind[4:]} ends{why}"


VALUE_TEXT = 60  # characters of a variable's values before and after, told at most


def values_text(rules: Ruleset, effect: Event, seat: int) -> list[str]:
    """The variables an action changed as `seat` sees them (the session's `values` effect:
    per seat, [name, player or -1, before, after]), each a line in its words: 'Fuses: 3 ->
    2', "seat 2's Tricks: 0 -> 1", 'your Bid: none -> 4'."""
    changed = effect.get("changed")
    if not isinstance(changed, list) or not 0 <= seat < len(changed):
        return []
    titles = {var.name: var.title for var in rules.variables}
    out = []
    for name, owner, before, after in changed[seat]:
        whose = "" if owner < 0 else "your " if owner == seat else f"seat {owner + 1}'s "
        title = titles.get(name, name)
        title = title if whose else title[:1].upper() + title[1:]
        was, now = (value_words(rules, name, v, seat + 1) for v in (before, after))
        if len(was) + len(now) > VALUE_TEXT:  # (a long list: that it changed, and its size)
            out.append(f"{whose}{title} changed" + (f": {len(after)} items"
                                                   if isinstance(after, list) else ""))
        else:
            out.append(f"{whose}{title}: {was} -> {now}")
    return out


def _trigger_words(rules: Ruleset, name: str) -> str:
    """A trigger as news names it: ' (its name in words: its doc)', or without a doc."""
    doc = trigger_docs(rules).get(name, "")
    words = name.replace("_", " ")
    return f" ({words}: {doc})" if doc else f" ({words})"


def _swapped(effects: Sequence[Event], index: int) -> bool:
    """Whether effects `index` and `index + 1` are the two halves of one swap: two cards
    that changed places."""
    if index < 0 or index + 1 >= len(effects):
        return False
    one, other = effects[index], effects[index + 1]
    return one.get("effect") == other.get("effect") == "swap" \
        and one.get("from") == other.get("to") and one.get("to") == other.get("from")


def _key(effect: Event) -> tuple[Any, ...]:
    kind = effect.get("effect")
    if kind == "swap":
        kind = "move"  # a swap is two cards going each the other's way
    elif kind == "move" and effect.get("under"):
        kind = "move under"  # beneath the cards of where it goes
    if kind == "score":  # points scored during play: how many, and the total they make
        return (kind, None, None, effect.get("seat"), (effect.get("points"), effect.get("total")))
    if kind == "reverse":  # play turned round: which way it goes now
        return (kind, None, None, None, effect.get("way"))
    return (kind, effect.get("from"), effect.get("to"), effect.get("seat"), effect.get("zone"))


def _group_of(groups: list[tuple[tuple[Any, ...], list[str | None]]],
              key: tuple[Any, ...]) -> tuple[tuple[Any, ...], list[str | None]] | None:
    """The group an effect joins: the last one, if it went the same way; or an earlier one
    it went the same way as, if every group since is of the same kind from the same place
    (cards dealt round the table)."""
    for index in range(len(groups) - 1, -1, -1):
        other = groups[index][0]
        if other == key:
            return groups[index]
        if other[0] != key[0] or other[1] != key[1] or key[0] != "move":
            return None
    return None


def _card(effect: Event, seat: int) -> str | None:
    told = effect.get("told")
    if isinstance(told, list) and seat < len(told):
        return told[seat]
    card = effect.get("card")
    return card if isinstance(card, str) else None


def _line(rules: Ruleset, key: tuple[Any, ...], cards: list[str | None], seat: int) -> str:
    kind, source, target, who, zone = key
    if kind == "rule":  # a rule ending the round or the game (its words made already)
        return str(zone)
    if kind == "swap":  # two cards changing places
        first, second = (card or "a card" for card in cards)
        return f"{first} in {place(rules, source, seat)} and {second} in " \
               f"{place(rules, target, seat)} change places"
    if kind in ("move", "move under"):
        what, many = _cards_text(cards)
        under = "the bottom of " if kind == "move under" else ""
        return f"{what} {'go' if many else 'goes'} from {place(rules, source, seat)} to " \
               f"{under}{place(rules, target, seat)}"
    if kind == "reveal":  # (where each lies: whose hand showed it is news too)
        what, many = _cards_text(cards)
        where = f" in {place(rules, source, seat)}" if source is not None else ""
        return f"{what}{where} {'are' if many else 'is'} shown to everyone"
    if kind in ("flip up", "flip down"):
        what, many = _cards_text(cards)
        return f"{what} {'are' if many else 'is'} turned face {kind[5:]} in " \
               f"{place(rules, source, seat)}"
    if kind == "shuffle":
        return f"{place(rules, zone, seat)} is shuffled"
    if kind == "peek":
        name = cards[0] if cards else None
        if who == seat + 1:
            return f"you look at {name or 'a card'} ({zone})"
        return f"seat {who} looks at a card ({zone})"
    if kind == "eliminate":
        return _subject(who, seat, "is out of the game", "are out of the game")
    if kind == "reverse":
        return f"play turns round: it now goes {zone}"
    if kind == "score":
        points, total = zone
        noun = "point" if abs(points) == 1 else "points"
        return _subject(who, seat, f"scores {points} {noun}", f"score {points} {noun}") \
            + f" (total {total})"
    return ""


def _cards_text(cards: list[str | None]) -> tuple[str, bool]:
    """Cards as a seat knows them ('AD AH', 'a card', '3 cards', 'AD and 2 other cards'),
    and whether they are more than one."""
    names = [c for c in cards if c is not None]
    unseen = len(cards) - len(names)
    if not unseen:
        return " ".join(names), len(names) > 1
    if not names:
        return ("a card" if unseen == 1 else f"{unseen} cards"), unseen > 1
    other = "other card" if unseen == 1 else "other cards"
    return f"{' '.join(names)} and {unseen} {other}", True


def place(rules: Ruleset, label: Any, seat: int) -> str:
    """A zone as the log names it ('hand[2]', 'stock', 'hand[house]', 'pile 3') in `seat`'s
    words: 'your hand', "seat 2's hand", 'the stock', 'pile 3' (a group of a shared zone)."""
    text = str(label)
    name, _, owner = text.partition("[")
    if not owner:
        return name if " " in name else f"the {name}"
    owner = owner.rstrip("]")
    if owner == "house":
        house = rules.house.name if rules.house is not None else "the house"
        return f"{house}'s {name}"
    return f"your {name}" if owner == str(seat + 1) else f"seat {owner}'s {name}"


def _subject(who: Any, seat: int, third: str, second: str) -> str:
    return f"you {second}" if who == seat + 1 else f"seat {who} {third}"
