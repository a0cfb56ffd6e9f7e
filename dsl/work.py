"""The most work each rule of a checked program can take: a bound known before any game.

Every limit of the language holds alone (a list of numbers(a, b) has at most 10,000 items, a
`while` block runs at most 1,000 times), but loops nest, and work multiplies through them.
This stage weighs each rule (a function, a procedure, a condition, a move's listing and its
effect, a trigger, the setup, a score) in steps: each part of an expression or statement
is a step, and a loop takes its body's steps once for each item it may go through. A loop
goes through at most:

- a zone: its places (a grid) or every card in play;
- `players`, `others`, a team: the most players (and the house);
- numbers(a, b): b - a + 1, from the least a and the most b known before the game (numbers
  written out, options, the items of such a list), else its own limit (MOST_NUMBERS);
- combinations(xs, k): the binomial of the most items of xs and k, subsets(xs): 2 ** items,
  either at most MOST_LISTED (the runtime refuses to list more; of cards in play, whose count
  is play's, the lists and their items are counted while the game runs, runtime.charge);
- a `while` or `until` block: its limit; a call of a function or a procedure: its own bound,
  weighed with what its arguments are known to be.

A piece of an aggregate that reads nothing of the item is worked out once for the loop (the
code generator's `hoist`, dsl/reads.py's `loop_invariant`), and is weighed once. A meld
search counts once (its own bound, MOST_MELD_STEPS, holds for each call). A rule whose text
fixes more than limits.MAX_WORK steps is refused where it is written (docs/grammar.md §2.18).

What only play fixes is counted while the game runs (interpreter/runtime.py `charge`): the
lists subsets and combinations make, and, in a program some rule of which may pass the bound
with every zone full (Weighing.counted), each loop through a list, at the steps one of its
items is weighed at here (Weighing.per_item, by the loop's place in the rule text). And
where every rule is bounded but a whole game, each action at what its text fixes times
max_actions, may pass limits.MAX_GAME_WORK (Weighing.game_counted), each loop a rule writes
inside no other, and each call it makes inside no loop, is counted against the game
(runtime.spent), at what its text fixes.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from cardrules.errors import Diagnostic
from cardrules.interpreter.runtime import MOST_LISTED
from cardrules.model import CardTable

from . import ir, limits
from . import nodes as n
from .weigher import Nested, PosKey, Weigher, pos_key


@dataclass(frozen=True)
class Weight:
    """The most steps one rule takes (`steps`), and of them what its rule text fixes
    (`fixed`: every loop through the cards in play counted once), and the part of it that
    weighs most (where a message about it points)."""

    rule: str
    steps: int
    fixed: int
    pos: n.Pos


@dataclass(frozen=True)
class Weighing:
    """The bound of every rule of a program (`weights`), and where subsets or combinations
    of cards in play are gone through inside a loop through another such list (`nested`)."""

    weights: list[Weight]
    nested: list[Nested]
    per_item: dict[PosKey, int]  # each loop's steps for one item (ItemWeights)
    # the loops written inside no other loop of their rule, and the steps of each call
    # written inside none (what a game's count charges: GameItems)
    outermost: frozenset[PosKey] = frozenset()
    calls: dict[PosKey, int] = field(default_factory=dict)
    per_action: int = 0  # the most steps one action's rule text fixes (see weigh)
    max_actions: int = limits.DEFAULT_ACTIONS

    @property
    def counted(self) -> bool:
        """Whether some rule, with every loop through the cards in play at its largest (a
        zone holding every card, the most lists subsets and combinations make, a meld search
        counted once: its own bound holds), may pass limits.MAX_WORK: then the loops through
        lists are counted while the game runs (runtime.counted), each item at its body's
        weight (`per_item`), and each time round a `while` or `until` block. Otherwise
        every rule is bounded before the game, and nothing but the lists subsets and
        combinations make is counted against the action."""
        return any(w.steps > limits.MAX_WORK for w in self.weights)

    @property
    def game_counted(self) -> bool:
        """Whether, every rule bounded before the game, a whole game may still pass
        limits.MAX_GAME_WORK: each action at what its rule text fixes (`per_action`: every loop
        through a zone's cards once) times `max_actions`. Then the loops a rule writes inside
        no other are counted against the game as they run (runtime.spent), each item at what
        the text fixes for its body (`per_item`: the loops of numbers, players and blocks inside
        it, and the functions it calls, at their bound, so they need no count of their own),
        each time round such a `while` or `until` block, and each call of a function or a
        procedure such a rule makes inside no loop, at its bound (`calls`). The text's own
        multiplications are counted so; what a zone's cards add is not, and the game is
        weighed with each zone's cards once (each such loop goes through at most the cards in
        play, and the rule's bound with every zone full holds; docs/grammar.md §2.18 says what
        that leaves)."""
        return not self.counted and self.per_action * self.max_actions > limits.MAX_GAME_WORK


def weights(program: ir.Program, cards: CardTable, players: int) -> list[Weight]:
    """The bound of every rule of the program, in the order the rule file declares them."""
    return weigh(program, cards, players).weights


def weigh(program: ir.Program, cards: CardTable, players: int,
          max_actions: int = limits.DEFAULT_ACTIONS) -> Weighing:
    """The bound of every rule, and where subsets or combinations of cards in play are gone
    through inside a loop through another such list; `players`: the most seats (and the
    house)."""
    every = Weigher(program, cards, players, True)  # (every zone at its largest)
    whole = list(every.rules())
    weigher = Weigher(program, cards, players, False)
    fixed = list(weigher.rules())
    # One action may take a move's rules, its triggers, a round's end, scoring and next
    # setup, and the next decision's listing: every rule once, a seat's every seat's.
    per_action = sum(most * (players if rule in weigher.per_seat else 1)
                     for rule, most, _ in fixed)
    # (lists nested are told by how many ways they may list, with the zones at their largest)
    return Weighing([Weight(rule, steps, most, pos) for (rule, steps, pos), (_, most, _) in
                     zip(whole, fixed)], every.nested, weigher.per_item,
                    frozenset(weigher.per_item) - weigher.inner, weigher.per_call, per_action,
                    max_actions)


def over_budget(weighing: Weighing) -> Iterator[Diagnostic]:
    """A diagnostic for each rule whose rule text fixes more than limits.MAX_WORK steps, and
    for each loop through subsets or combinations of cards in play inside a loop through
    others (each lists up to MOST_LISTED: nested, they multiply)."""
    seen: set[PosKey] = set()
    for nested in weighing.nested:
        pos = nested.call[1] if nested.call is not None else nested.pos
        if pos_key(pos) in seen:  # (each place once: a place is its text's and its offset)
            continue
        seen.add(pos_key(pos))
        where = f" (line {_line(nested.outer)})" if nested.outer is not None else ""
        what = "this goes through subsets or combinations of cards in play" \
            if nested.call is None else \
            f"this call of '{nested.call[0]}' goes through subsets or combinations of cards " \
            f"in play (line {_line(nested.pos)})"
        yield pos.diagnostic(
            f"{what} inside another loop through such a list{where}: each may list up to "
            f"{MOST_LISTED:,}, and together they may list more than the "
            f"{limits.MAX_WORK:,} steps an action may take; go through one such list at a "
            "time, or through fewer cards")
    for weight in weighing.weights:
        if weight.fixed > limits.MAX_WORK:
            yield weight.pos.diagnostic(
                f"{weight.rule} may take up to {_count(weight.fixed)} steps, more than the "
                f"{limits.MAX_WORK:,} a rule may take: the loops nested here multiply "
                "(numbers(a, b), a while or until block's limit, players, the functions it "
                "calls); loop over fewer items, give numbers() bounds known before the game, "
                "or lower a block's limit")


class GameItems:
    """Where a whole game's work is counted while it runs (Weighing.game_counted): the
    steps one item of a loop takes, for a loop a rule writes inside no other, and the steps
    of a call it writes inside no loop, as the rule text fixes them (None for the others:
    the loop around them, or the call of the function they are in, counted them)."""

    def __init__(self, per_item: dict[PosKey, int], outermost: frozenset[PosKey],
                 calls: dict[PosKey, int]):
        self.per_item, self.outermost, self.calls = per_item, outermost, calls

    def __call__(self, pos: n.Pos) -> int | None:
        key = pos_key(pos)
        if key not in self.outermost:
            return None
        return self.per_item.get(key, limits.MAX_WORK)

    def call(self, pos: n.Pos) -> int | None:
        return self.calls.get(pos_key(pos))


class ItemWeights:
    """The steps one item of a loop takes (its body, or its element and condition), each
    loop through a list inside it counted once, as the work bound weighed it where it is
    written (with what is known there of the values it reads): where a program's loops are
    counted while the game runs (Weighing.counted), the code generator charges each loop its
    items times this weight, and each loop inside charges its own."""

    def __init__(self, per_item: dict[PosKey, int]):
        self.per_item = per_item

    def __call__(self, pos: n.Pos) -> int:
        return self.per_item.get(pos_key(pos), limits.MAX_WORK)  # (never weighed: at most)


def _count(steps: int) -> str:
    return f"{steps:,}" if steps < 10**15 else f"about 10^{len(str(steps)) - 1}"


def _line(pos: n.Pos) -> str:
    """Where a stretch of rule text is, for a message about another: its line (and file,
    where it is not the one the message is about: a parent's)."""
    location = pos.diagnostic("").location
    return str(location.line) if location is not None else "?"
