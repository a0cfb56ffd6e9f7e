"""The runtime every compiled rule reads through: the board, checks, and what the rule
language asks of a game (the top of a zone, the seats in play, a trick's winner, a run).

The rules that change a game are interpreter/effects.py's; what a party keeps knowing is
interpreter/sight.py's; the turn flow is interpreter/flow.py's; the meld search is
interpreter/melding.py's. Generated code calls exactly what these modules list in their
`EXPORTED` (dsl/binding.py binds those names and no others), and the code generator
specialises the `@inlinable` ones in place (dsl/inline.py); it never writes a rule of its own.

Faults: a rule that cannot be carried out in the state it meets raises RuleFault with a
plain message; `site` numbers the rule text it came from, so the engine can point there.
`Board` describes the zones of one ruleset for one table size.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeAlias, TypeVar

from cardrules.errors import RuleFault
from cardrules.model import Board

from .domains import Words
from .state import EMPTY, GameState

# A zone's visibility: nobody, its owner, everyone; OTHERS: every party but its owner.
HIDDEN, OWNER, PUBLIC, OTHERS = 0, 1, 2, 3
MOST_NUMBERS = 10_000  # the longest list numbers(a, b) makes
MOST_LETTERS = 1_000  # the longest text words(letters, a, b) stands for
# What a rule tells the flow (GameState.signal): end the turn, the phase, the round, the game.
SIGNAL_TURN, SIGNAL_PHASE, SIGNAL_ROUND, SIGNAL_GAME = 1, 2, 4, 8

F = TypeVar("F", bound=Callable[..., Any])
INLINABLE: dict[str, Callable[..., Any]] = {}


def inlinable(fn: F) -> F:
    """Mark a function the code generator may specialise in place (dsl/inline.py): a
    procedure, a function whose body is one `return` of an expression, or (the turn flow)
    one whose every path returns. It is listed in its own module's INLINABLE."""
    fn.__globals__.setdefault("INLINABLE", {})[fn.__name__] = fn  # type: ignore[attr-defined]
    return fn


# The annotation of a local whose value the code generator may know before the game, such
# as a zone's layout or visibility: `dest_vis: Fact = b.visibility[z]`. At run time such a
# local is an ordinary one (and, to type checkers, of any type); the generator replaces it
# by the value it knows and keeps only the branches that value takes.
Fact: TypeAlias = Any


# -------------------------------------------------------------------- checks
def need(value: Any, what: str, site: int) -> Any:
    """Refuse `none` where a card or a player is needed."""
    if value is None:
        raise RuleFault(f"{what} is none", site)
    return value


def at(items: Sequence[Any], index: int, noun: str, site: int) -> Any:
    """items[index], counting from 0, or from the end for a negative index (-1: the last);
    past either end is a fault, never a wrap-around."""
    try:
        return items[index]  # (Python's own negative indices are the language's)
    except IndexError:
        size = f"{len(items)}-{noun} list" if noun else f"list of {len(items)}"
        where = "before the start" if index < 0 else "past the end"
        raise RuleFault(f"index {index} is {where} of a {size}", site) from None


def position(item: Any, items: Sequence[Any], site: int) -> int:
    """Where `item` lies in `items`, counted from 0 (its first place); a list and a tuple of
    the same items alike (`same`)."""
    if not isinstance(item, (list, tuple)):  # (a card, a number...: as Python finds it)
        try:
            return items.index(item)
        except ValueError:
            pass
    else:
        for i, value in enumerate(items):
            if same(value, item):
                return i
    raise RuleFault(f"it is not in the list ({len(items)} items), so it has no position there",
                    site)


MOST_LISTED = 100_000  # subsets or combinations listed at once
IN_PLAY = "points_in_play"  # the player_round variable of the points `score N to P` gives


def in_play(s: GameState, p: int, teams: int) -> int:
    """The points seat p (by teams: p's team) has scored during play this round."""
    points = s.pvars[IN_PLAY]
    return sum(points[p % teams::teams]) if teams else points[p]


def total_now(s: GameState, p: int, teams: int) -> int:
    """p's total with the points it has scored during play this round (`p.total`, where a
    ruleset scores points during play); once the round is scored, its total holds them."""
    if p >= s.n:
        return s.house_total
    scored = len(s.round_scores) >= s.round  # (this round's scores are in the totals)
    return s.totals[p] + (0 if scored else in_play(s, p, teams))


# The most steps one action's listing built-ins may take (subsets, combinations: each item
# of each list they make a step), with the rules it sets off (its triggers, the next listing,
# a round's scoring and setup): a rule file cannot know how many cards a zone will hold, so
# the work a listing does there is counted as it is done (docs/grammar.md §2.18).
MOST_WORK = 10_000_000
MOST_GAME_WORK = 100 * MOST_WORK  # a whole game's work, every action's added up


def charge(s: GameState, steps: int, site: int) -> None:
    """Count `steps` of work; a fault once the count passes MOST_WORK. The count starts
    afresh when the game's count of actions has moved on (which a move's own rules do at
    their end: a window holds a move's rules, and the triggers and the listing after the
    move before it), and where a question is asked between actions (a score, an estimate,
    a listing, the reactions a seat could make: Engine), so that no action, and no
    question asked of a game however often, passes it."""
    if s.work_at != s.actions:
        s.work_at = s.actions
        s.work = 0
    s.work += steps
    if s.work > MOST_WORK:
        raise RuleFault(f"this action's work passes {MOST_WORK:,} steps here (the loops "
                        "through cards and lists, and the lists subsets and combinations "
                        "make): go through fewer lists, or fewer cards", site)
    spend(s, steps, site)


def spend(s: GameState, steps: int, site: int) -> None:
    """Count `steps` against the whole game alone: a fault once the game's count passes
    MOST_GAME_WORK. Where every rule is bounded before the game, but not a game of as many
    actions as it may take (dsl/work.py, Weighing.game_counted)."""
    s.spent += steps
    if s.spent > MOST_GAME_WORK:
        raise RuleFault(f"the game's work passes {MOST_GAME_WORK:,} steps here, its actions' "
                        "work added up (the loops its rules go through): the rules go "
                        "through too much, action after action", site)


def spent(s: GameState, items: Sequence[Any], per_item: int, site: int) -> Sequence[Any]:
    """The items a loop written inside no other goes through, counted against the game
    (`spend`) at `per_item` steps each: its body's bound, every loop inside it included."""
    spend(s, len(items) * per_item, site)
    return items


def spent_on(s: GameState, steps: int, site: int, value: Any) -> Any:
    """`value`, a call of a function that a rule makes inside no loop, counted against the
    game (`spend`) at its bound, `steps`, once made."""
    spend(s, steps, site)
    return value


def counted(s: GameState, items: Sequence[Any], per_item: int, site: int) -> Sequence[Any]:
    """The items a loop goes through, charged to the action under way at `per_item` steps
    each (the loop's body, weighed before the game with each loop inside it once: each
    charges its own). Where a rule may loop through more than the work bound allows with
    every zone full (dsl/work.py), how many cards the zones hold is counted as they do."""
    # (charge, written out: it runs at every loop of such a program)
    steps = len(items) * per_item
    if s.work_at != s.actions:
        s.work_at = s.actions
        s.work = 0
    s.work += steps
    if s.work > MOST_WORK:
        charge(s, 0, site)  # (the fault)
    s.spent += steps
    if s.spent > MOST_GAME_WORK:
        spend(s, 0, site)  # (the fault)
    return items


def combinations(s: GameState, items: Sequence[Any], k: int, site: int
                 ) -> list[tuple[Any, ...]]:
    """Every way to choose k of the items, each in the items' order (none if k is out of
    range); a fault if there are more than MOST_LISTED. Each is a tuple, as an action's value
    must be (`same` compares it with a list). Its items are charged to the action's work."""
    n = len(items)
    if not 0 <= k <= n:
        return []
    ways = math.comb(n, k)
    if ways > MOST_LISTED:
        raise RuleFault(f"choosing {k} of {n} items gives {ways} ways: more than "
                        f"{MOST_LISTED:,} are never listed", site)
    charge(s, ways * (k + 1), site)
    return list(itertools.combinations(items, k))


def subsets(s: GameState, items: Sequence[Any], site: int) -> list[tuple[Any, ...]]:
    """Every subset of the items, the empty one first, then by size, each in the items'
    order; a fault if there are more than MOST_LISTED. Its items are charged to the
    action's work."""
    n = len(items)
    if n > MOST_LISTED.bit_length() - 1:
        raise RuleFault(f"a list of {n} items has {1 << n if n < 64 else 'too many'} subsets: "
                        f"more than {MOST_LISTED:,} are never listed", site)
    charge(s, (n + 2) << n >> 1, site)  # (2^n lists of n/2 items on average, and each list)
    return [c for k in range(n + 1) for c in itertools.combinations(items, k)]


def frozen(value: Any) -> Any:
    """A value as an action holds it: a list (a list of lists...) as a tuple at every depth,
    so that a list of cards chosen by a move, made by select or a slice, is hashable and
    compares as the same choice in a replay."""
    if isinstance(value, (list, tuple)):
        return tuple(frozen(item) for item in value)
    return value


def same(a: Any, b: Any) -> bool:
    """Whether two values are equal, a list and a tuple of the same items alike."""
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return bool(a == b)


def member(item: Any, items: Iterable[Any]) -> bool:
    """Whether `item` (a list) is among `items`, a list and a tuple of the same items alike."""
    return any(same(item, other) for other in items)


def ordered(items: Sequence[Any]) -> list[Any]:
    """The items, smallest first."""
    return sorted(items)


def _value(pair: tuple[Any, Any]) -> Any:
    return pair[0]


def most_by(pairs: Sequence[tuple[Any, Any]]) -> Any:
    """The item of the (value, item) pairs with the largest value, the first of equals."""
    return max(pairs, key=_value)[1] if pairs else None


def least_by(pairs: Sequence[tuple[Any, Any]]) -> Any:
    """The item of the (value, item) pairs with the smallest value, the first of equals."""
    return min(pairs, key=_value)[1] if pairs else None


def ordered_by(pairs: Sequence[tuple[Any, Any]]) -> list[Any]:
    """The items of the (value, item) pairs by their values, smallest first, equals as they
    came."""
    return [item for _, item in sorted(pairs, key=_value)]


MOST_VALUE = 2**53 - 1  # the largest number a game holds, either sign (a browser's exact)


def bounded(value: int, site: int) -> int:
    """A number stored or multiplied by a rule, refused beyond MOST_VALUE either side of 0
    (`none`, where a rule stores what may be none, as it is: reading it says so)."""
    try:
        if -MOST_VALUE <= value <= MOST_VALUE:
            return value
    except TypeError:
        if value is None:
            return value
        raise
    raise RuleFault(f"a number of {value.bit_length()} bits is made here: beyond "
                    f"{MOST_VALUE:,} (2^53 - 1) either side of 0, the most a game holds", site)


def scored(entries: tuple[int, ...], site: int) -> tuple[int, ...]:
    """A seat's score entries for a round (each bounded), their sum bounded too."""
    bounded(sum(entries), site)
    return entries


MOST_ITEMS = 100_000  # items a list a game makes may hold, those of the lists in it counted


def joined(a: Sequence[Any], b: Sequence[Any], site: int) -> list[Any]:
    """`a + b` of two lists, refused beyond MOST_ITEMS (a list joined to itself again and
    again would take any memory)."""
    if len(a) + len(b) > MOST_ITEMS:
        raise RuleFault(f"a list of {len(a) + len(b):,} items is made here: more than "
                        f"{MOST_ITEMS:,}, the most a list may hold", site)
    return [*a, *b]


def bounded_items(values: Sequence[Any], site: int, numbers: bool = True) -> list[Any]:
    """A list of numbers (or of lists of them) stored by a rule: each number bounded; a list
    of lists (`numbers` False: of any items) holding MOST_ITEMS items at most, all told (the
    same list held twice counts twice: a view or a save writes it out twice). Stored as lists
    at every depth: `subsets` and `combinations` give tuples, which a save writes as lists."""
    count = 0

    def stored(items: Sequence[Any]) -> list[Any]:
        nonlocal count
        count += len(items)
        if count > MOST_ITEMS:
            raise RuleFault(f"a list holding more than {MOST_ITEMS:,} items, those of the "
                            "lists in it counted, is stored here: the most a list may hold",
                            site)
        out = []
        for v in items:
            if isinstance(v, (list, tuple)):
                out.append(stored(v))
            else:
                if numbers and v is not None:
                    bounded(v, site)
                out.append(v)
        return out

    return stored(values)


def divide(a: int, b: int, site: int) -> int:
    """a / b, rounded down (whole numbers only)."""
    if b == 0:
        raise RuleFault(f"{a} / 0: division by zero", site)
    return a // b


def modulo(a: int, b: int, site: int) -> int:
    if b == 0:
        raise RuleFault(f"{a} % 0: division by zero", site)
    return a % b


def least(values: Iterable[int], site: int) -> int:
    """min(...) of an aggregate: a fault when there is nothing to take the least of."""
    found = min(values, default=None)
    if found is None:
        raise RuleFault("min of no items", site)
    return found


def most(values: Iterable[int], site: int) -> int:
    found = max(values, default=None)
    if found is None:
        raise RuleFault("max of no items", site)
    return found


def numbers(first: int, last: int, site: int) -> list[int]:
    """The whole numbers from first to last, both included (at most MOST_NUMBERS)."""
    if last - first + 1 > MOST_NUMBERS:
        raise RuleFault(f"numbers({first}, {last}) would make {last - first + 1} numbers; "
                        f"the most is {MOST_NUMBERS}", site)
    return list(range(first, last + 1))


def words(alphabet: str, shortest: int, longest: int, site: int) -> Words:
    """The open domain of texts of `alphabet`'s letters, `shortest` (at least 1) to `longest`
    letters long; a fault if it holds no text or texts of more than MOST_LETTERS letters."""
    shortest = max(shortest, 1)
    if not alphabet or longest < shortest:
        raise RuleFault(f"words('{alphabet[:20]}', {shortest}, {longest}) holds no text: it "
                        "needs a letter, and a longest length of at least the shortest", site)
    if longest > MOST_LETTERS:
        raise RuleFault(f"words(..., {longest}) would take texts of {longest} letters; the "
                        f"most is {MOST_LETTERS}", site)
    return Words(alphabet, shortest, longest)


def group(i: int, count: int, site: int) -> int:
    """Check a group number of a grouped zone (0 to count-1)."""
    if not 0 <= i < count:
        raise RuleFault(f"group {i} does not exist: the groups are 0 to {count - 1}", site)
    return i


# -------------------------------------------------------------------- reading
def empty(b: Board, z: int) -> int:
    """Fail for taking the top card of an empty zone."""
    raise RuleFault(f"zone '{zone_label(b, z)}' is empty: it has no top card")


@inlinable
def top_of_stack(b: Board, s: GameState, z: int) -> int:
    """The top card of a zone that is not a grid (the one placed last)."""
    return s.zones[z][-1] if s.zones[z] else empty(b, z)


def top(b: Board, s: GameState, z: int) -> int:
    """The top card of a zone (the last one placed; a grid's last card present)."""
    cards = present(s.zones[z]) if b.grid[z] else s.zones[z]
    return cards[-1] if cards else empty(b, z)


def bottom(b: Board, s: GameState, z: int) -> int:
    """The bottom card of a zone (the first one placed)."""
    for c in s.zones[z]:
        if c != EMPTY:
            return c
    raise RuleFault(f"zone '{zone_label(b, z)}' is empty: it has no bottom card")


def present(cards: list[int]) -> list[int]:
    """The cards of a grid, without its empty slots (the list itself when it has none)."""
    return [c for c in cards if c != EMPTY] if EMPTY in cards else cards


def all_but_top(b: Board, s: GameState, z: int) -> list[int]:
    cards = present(s.zones[z]) if b.grid[z] else s.zones[z]
    return cards[:-1]


def kept(memo: list[Any], value: Any) -> Any:
    """`value`, kept in `memo` (an empty list until now) and handed back: a piece of a loop
    that reads nothing of the item but may fail, worked out where the loop first needs it
    (dsl/codegen_expr.py, `hoist`)."""
    memo.append(value)
    return value


def players(s: GameState) -> list[int]:
    """Seats still in the game, in seat order."""
    return [p for p in range(s.n) if s.active[p]]


def others(s: GameState, me: int, direction: int) -> list[int]:
    """The other seats still in the game, in play order starting after `me`."""
    n = s.n
    return [q for q in ((me + direction * k) % n for k in range(1, n)) if s.active[q]]


def next_seat(s: GameState, p: int, direction: int) -> int:
    """The next seat still in the game after `p`, in play order."""
    n = s.n
    for k in range(1, n + 1):
        q = (p + direction * k) % n
        if s.active[q]:
            return q
    return p


def random_card(b: Board, s: GameState, z: int) -> int:
    """A card of zone z chosen with the game's generator."""
    cards = present(s.zones[z])
    if not cards:
        raise RuleFault(f"zone '{zone_label(b, z)}' is empty: no card to pick at random")
    return cards[s.rng.randrange(len(cards))]


def seat_of(s: GameState, number: int, site: int) -> int:
    """The player in seat `number`, counted from 1."""
    if not 1 <= number <= s.n:
        raise RuleFault(f"there is no seat {number}: the seats are 1 to {s.n}", site)
    return number - 1


def owner_of(b: Board, s: GameState, c: int) -> int | None:
    """The seat whose zone holds card c, or None for a shared zone."""
    owner = b.owner[s.where[c]]
    return owner if owner >= 0 else None


def team_of(s: GameState, p: int, teams: int) -> list[int]:
    """The seats of p's team, in seat order (seat q is in team q mod teams)."""
    return list(range(p % teams, s.n, teams))


class ReadAs:
    """A card's suit or rank in a trick as the ruleset reads it (`tricks:`): a table by card
    worked out when asked, for the trick built-ins, which read tables."""

    __slots__ = ("s", "read")

    def __init__(self, s: GameState, read: Callable[[GameState, int], int]):
        self.s, self.read = s, read

    def __getitem__(self, c: int) -> int:
        return self.read(self.s, c)


def led_suit(suit: Sequence[int], cards: Sequence[int]) -> int | None:
    """The suit of the first card, or None."""
    return suit[cards[0]] if cards else None


def best_of_suit(rank: Sequence[int], suit: Sequence[int], cards: Iterable[int],
                 wanted: int | None) -> int | None:
    """The card of suit `wanted` with the highest rank (the deck lists ranks low to high)."""
    best = None
    for c in cards:
        if suit[c] == wanted and (best is None or rank[c] > rank[best]):
            best = c
    return best


def trick_winner(rank: Sequence[int], suit: Sequence[int], cards: Sequence[int],
                 trump: int) -> int | None:
    """The card that takes the trick: the best trump if one was played, else the best card
    of the suit led."""
    best = best_of_suit(rank, suit, cards, trump)
    return best if best is not None else best_of_suit(rank, suit, cards, led_suit(suit, cards))


def round_score(s: GameState, p: int) -> int:
    """Seat p's score in the last round that ended."""
    return s.round_scores[-1][p] if s.round_scores else 0


# ------------------------------------------------------------------ the house
# A ruleset with a house (`house:`) reads players through these instead of the seat lists:
# the house's player number follows every seat's, and what it has of its own (its total,
# its scores) is kept apart from the seats' lists, which stay one entry a seat.
class Totals:
    """The match totals by player number, the house's among them (read and written)."""

    __slots__ = ("s",)

    def __init__(self, s: GameState):
        self.s = s

    def __getitem__(self, p: int) -> int:
        s = self.s
        return s.totals[p] if p < s.n else s.house_total

    def __setitem__(self, p: int, value: int) -> None:
        s = self.s
        if p < s.n:
            s.totals[p] = value
        else:
            s.house_total = value


def seat_number(p: int, house: int) -> int:
    """A player's seat number from 1; the house has none (0)."""
    return 0 if p == house else p + 1


def is_active(s: GameState, p: int) -> bool:
    """Whether a player is still in the game; the house always is."""
    return p >= s.n or s.active[p]


def last_score(s: GameState, p: int) -> int:
    """A player's score in the last round that ended, the house's too."""
    if p < s.n:
        return round_score(s, p)
    return s.house_scores[-1] if s.house_scores else 0


def a_seat(s: GameState, p: int, what: str, site: int) -> int:
    """`p`, where a rule needs a seat (whose turn is next, who is put out...): never the
    house, which takes no turn."""
    if p >= s.n:
        raise RuleFault(f"the house is not a seat: {what}", site)
    return p


def knows(s: GameState, p: int, c: int) -> bool:
    """Whether seat p knows card c."""
    return bool(s.known[c] >> p & 1)


def entries(table: Sequence[Any], items: Iterable[int]) -> Iterable[Any]:
    """Each item's entry in a table (a card attribute of each card), lazily."""
    return map(table.__getitem__, items)


def changes(number: Sequence[int], cards: Sequence[int]) -> str:
    """U, D or S for each step between neighbouring cards, by number."""
    return "".join("U" if number[b] > number[a] else "D" if number[b] < number[a] else "S"
                   for a, b in zip(cards, cards[1:]))


def zone_label(b: Board, z: int) -> str:
    """A zone instance as the log and messages name it: 'hand[2]', 'stock', 'hand[house]',
    'pile 3' (a group of a shared zone, numbered from 1 as people count)."""
    owner = b.owner[z]
    if owner < 0:
        return f"{b.names[z]} {b.group[z] + 1}" if b.group and b.group[z] >= 0 else b.names[z]
    return f"{b.names[z]}[house]" if owner == b.house else f"{b.names[z]}[{owner + 1}]"


# What generated code may call or read of this module (dsl/binding.py binds these names).
EXPORTED = (
    "EMPTY", "HIDDEN", "OWNER", "PUBLIC", "OTHERS", "MOST_LETTERS", "MOST_NUMBERS",
    "SIGNAL_TURN", "SIGNAL_PHASE", "SIGNAL_ROUND", "SIGNAL_GAME", "IN_PLAY", "ReadAs", "in_play",
    "total_now", "need", "at", "position", "charge", "counted", "spend", "spent", "spent_on",
    "combinations",
    "subsets", "frozen", "same", "ordered",
    "kept", "member", "most_by", "least_by", "ordered_by", "bounded",
    "bounded_items", "scored",
    "joined", "MOST_ITEMS",
    "MOST_VALUE", "divide", "modulo", "least", "most", "numbers", "words", "group",
    "empty", "top_of_stack", "top", "bottom", "present", "all_but_top", "players", "others",
    "next_seat", "random_card", "seat_of", "owner_of", "team_of", "led_suit", "best_of_suit",
    "trick_winner", "round_score", "Totals", "seat_number", "is_active", "last_score", "a_seat",
    "knows", "entries", "changes",
)
