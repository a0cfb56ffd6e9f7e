"""The compiled Ruleset: immutable, shared, everything the engine needs.

The functions held here were generated from the checked syntax tree and compiled
once when the ruleset loaded. Signatures: `legal(S, me) -> list[action]`,
`run(S, me, action)` for a move, `fn(S, me)` for statement lists and triggers,
`score(S, p) -> tuple[int, ...]` (one entry per scoring rule).

Both the rule compiler (dsl/) and the engine (interpreter/) read this module; it
imports neither.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from types import TracebackType
from typing import Any

from cardrules.errors import Diagnostic, Location, RuleFault

Action = tuple[Any, ...]
StateFn = Callable[..., Any]
PASS: Action = ("pass",)  # the answer of a seat that lets a reaction window go by
PASS_TEXT = "Pass: let this chance go by"  # how a pass reads, in every listing and log


@dataclass(frozen=True)
class CardTable:
    """What every card id means: names and attributes, for the most decks a game can use."""

    per_deck: int
    names: tuple[str, ...]
    rank: tuple[int, ...]
    suit: tuple[int, ...]
    colour: tuple[int, ...]
    number: tuple[int, ...]
    joker: tuple[bool, ...]
    wild: tuple[bool, ...]
    values: dict[str, tuple[int, ...]]
    rank_names: tuple[str, ...]  # index -> name; jokers use the last index, 'joker'
    suit_names: tuple[str, ...]  # jokers use the last index, 'joker'


@dataclass(frozen=True)
class OptionDef:
    name: str
    default: Any
    choices: tuple[Any, ...] | None
    doc: str
    low: int | None = None  # the least value a whole-number option takes (min:), if bounded
    high: int | None = None  # the greatest (max:)
    label: str = ""  # how people see it named (label:); "" for its name

    @property
    def title(self) -> str:
        """The option as people see it named: its label, or its name with _ as spaces."""
        return self.label or self.name.replace("_", " ")


@dataclass(frozen=True)
class ZoneDef:
    name: str
    owned: bool
    visibility: str
    layout: str
    rows: int
    columns: int
    index: int  # shared: its zone index; owned: the index of seat 0's zone
    doc: str = ""
    groups: int = 0  # a zone of several groups (melds, piles): each seat, or the table, has
    # this many
    keep: bool = False  # keeps its cards from one round to the next

    def zone_of(self, seat: int) -> int:
        """The zone index of a seat's zone (of its first group, for a grouped zone)."""
        if not self.owned:
            return self.index
        return self.index + seat * max(self.groups, 1)

    def instances(self, seat: int) -> list[int]:
        """The zone indices a seat has of this zone: one, or one per group."""
        first = self.zone_of(seat)
        return list(range(first, first + max(self.groups, 1)))


@dataclass(frozen=True)
class HouseDef:
    """The party that is not a seat (`house:`). `index` is its player number in the rules:
    the table's largest seat count, so it follows every seat at every table size (its zone
    of a zone each player owns is `zone_of(index)`, and it is never in `players`)."""

    name: str
    index: int
    doc: str = ""


@dataclass(frozen=True)
class VariableDef:
    name: str
    scope: str  # game | round | player | player_round
    initial: StateFn  # fn(S) -> value
    doc: str = ""
    visibility: str = "public"  # owner: other seats see it only once the game is over
    kind: str = "any"  # the type of its values: card, player, number, rank, list...
    item_kind: str = ""  # for a list: the type of its items
    internal: bool = False  # the rules' own bookkeeping: never shown to players
    secret_until: str = "game_end"  # with visibility owner: shown to all at round_end or game_end
    label: str = ""  # how players see it named (label:); "" for its name
    inner: tuple[str, ...] = ()  # for a list of lists: the types below its items', outermost first

    @property
    def shape(self) -> tuple[str, ...]:
        """Its type, outermost first: ('card',), ('list', 'card'), ('list', 'list', 'card')."""
        return (self.kind, *((self.item_kind,) if self.item_kind else ()), *self.inner)

    @property
    def names_cards(self) -> bool:
        """Whether its values name cards (a card, or cards in lists at any depth)."""
        return "card" in self.shape

    @property
    def title(self) -> str:
        """The variable as players see it named: its label, or its name with _ as spaces."""
        return self.label or self.name.replace("_", " ")


@dataclass(frozen=True)
class LabelValue:
    """An expression of a move's label (`{count(cs)}`): the type of what it shows, its
    compiled value (fn(state, action), reading the action's choices alone), and the places in
    the action (from 1) of the chosen cards it reads: a seat reads the value only if it knows
    each of them."""

    kind: str
    value: Callable[[Any, Any], Any]
    cards: tuple[int, ...] = ()


@dataclass(frozen=True)
class MoveDef:
    name: str
    label: str  # as written, with its {parameter} placeholders
    params: tuple[str, ...]
    kinds: tuple[str, ...]  # each parameter's type: card, player, int...
    run: StateFn
    then: int | None  # index of the step to go to, in the same phase
    location: Location
    doc: str = ""
    names_cards: tuple[bool, ...] = ()  # per parameter: is it a card, or a list of them?
    # The label parsed: ("text", words), ("param", name) and ("value", its number in
    # label_values) in order.
    label_parts: tuple[tuple[str, str], ...] = ()
    # The compiled flow: fn(S, me, action, engine, listing) -> the next legal actions; it
    # applies the move and takes the game on to the next decision (None for a reaction).
    handle: StateFn | None = None
    label_values: tuple[LabelValue, ...] = ()
    # the least number its choices of numbers write (dsl/reads.py, least_written_number): 0,
    # or below where a rule writes a negative one
    least_number: int = 0

    def render(self, values: dict[str, str]) -> str:
        """The label with each placeholder replaced by its value in words (`values`, by
        parameter name, and by number for the label's expressions)."""
        return "".join(text if kind == "text" else values.get(text, "")
                       for kind, text in self.label_parts)


@dataclass(frozen=True)
class StepDef:
    name: str
    repeat: int
    moves: tuple[MoveDef, ...]
    legal: StateFn
    location: Location
    automatic: bool = False  # a single legal action here is played without asking
    site: Diagnostic | None = None  # where the step is written, for a failure there


@dataclass(frozen=True)
class PhaseDef:
    name: str
    turns: str  # each_once | rotate
    steps: tuple[StepDef, ...]
    skip_turn: StateFn | None = None  # fn(S, seat) -> whether that seat misses its turn
    on_skip: StateFn | None = None  # fn(S, seat): what missing a turn does
    first: StateFn | None = None  # fn(S, me) -> the seat that starts the phase
    when: StateFn | None = None  # fn(S, me) -> whether the phase is played
    skip_site: Diagnostic | None = None  # where skip_turn is written (message left empty)
    when_site: Diagnostic | None = None  # where `when` is written (message left empty)


@dataclass(frozen=True)
class Site:
    """A piece of rule text generated code comes from: where it is, and what it says."""

    location: Location | None
    source_line: str | None
    text: str  # the rule text itself (an expression or a statement), for messages


@dataclass(frozen=True)
class Board:
    """Per zone index: its name, owner seat (-1 if shared), visibility, and grid shape."""

    names: tuple[str, ...]
    owner: tuple[int, ...]
    visibility: tuple[int, ...]
    grid: tuple[bool, ...]
    slots: tuple[int, ...]
    width: tuple[int, ...]
    card_names: tuple[str, ...]
    trick: tuple[bool, ...] = ()  # a zone of `layout: trick`: cards remember who played them
    house: int = -1  # the house's player number (the owner of its zones), or -1
    group: tuple[int, ...] = ()  # a group of a grouped zone: its number from 0 (else -1)

    @cached_property
    def face(self) -> tuple[int, ...]:
        """Per card: the first card of its name, which stands for its face (the copies of a
        card in a game of several decks are one face, as a clue tells of them)."""
        first: dict[str, int] = {}
        return tuple(first.setdefault(name, c) for c, name in enumerate(self.card_names))

    @cached_property
    def copies(self) -> bool:
        """Whether some card has a copy (a game of several decks)."""
        return any(self.twinned)

    @cached_property
    def twinned_in(self) -> dict[int, tuple[bool, ...]]:
        """Per count of cards in play (a table size's decks: the cards numbered below it),
        per card: whether another card in play has its name (golf6 at four players: its two
        jokers alone; at five, with two decks, every card)."""
        return _Twins(self.card_names)

    @cached_property
    def twinned(self) -> tuple[bool, ...]:
        """Per card: whether another card has its name (a copy, or golf6's second joker)."""
        count: dict[str, int] = {}
        for name in self.card_names:
            count[name] = count.get(name, 0) + 1
        return tuple(count[name] > 1 for name in self.card_names)

    @cached_property
    def faces(self) -> tuple[int, ...]:
        """One card of each face, in the deck's order."""
        return tuple(sorted(set(self.face)))


ACE_PLACES = ("low", "high", "both", "wrap")  # where a run's ace may stand


@dataclass(frozen=True)
class MeldKind:
    """One kind of meld a ruleset declares."""

    name: str
    run: bool  # a run in one suit, else a set of one rank
    least: int
    most: int  # the longest such meld (0: no limit but the hand)
    wilds: int  # the most wild cards in one (-1: any number)
    ace: str = "low"  # runs: where the ace may stand (ACE_PLACES)


@dataclass(frozen=True)
class FlowFacts:
    """What the turn flow knows of a ruleset before any game: per phase and step, the
    flow's facts. The engine's flow reads them at every action; the code generator
    specialises the same flow with them (interpreter/flow.py)."""

    repeat: tuple[tuple[int, ...], ...]  # per phase, per step: how many times it is played
    automatic: tuple[tuple[bool, ...], ...]  # per phase, per step: a single action is forced
    each_once: tuple[bool, ...]  # per phase: every seat in plays one turn, then it ends
    skipping: tuple[bool, ...]  # per phase: a seat may miss its turn (`skip_turn`)
    after_move: bool  # the ruleset has triggers after a move,
    after_turn: bool  # after a turn,
    before_turn: bool  # before a turn,
    reactions: bool  # and a reaction window after every action
    turn_to: bool  # some rule names the next seat (`turn to`)
    ends_turns: bool  # some rule says `end turn`
    direction: int  # +1 clockwise (seat order), -1 counterclockwise
    # the engine keeps each decision's legal actions with the state's version (for its fast
    # path and its callers); a playout kernel, whose driver holds them, does not
    caching: bool = True
    # `repetition: forbid`: a move that returns the game to a position the table has seen
    # this round is not legal (flow.unrepeated)
    forbid_repetition: bool = False


def scored_teams(teams: int, score_by: str) -> int:
    """The partnerships scores are shared in: `teams` by team, one by table (everyone is a
    partner), 0 (none) by player."""
    return teams if score_by == "team" else 1 if score_by == "table" else 0


@dataclass(frozen=True)
class Ruleset:
    """A loaded, checked, compiled ruleset."""

    name: str
    title: str
    summary: str
    path: str
    min_players: int
    max_players: int
    default_players: int
    direction: int  # +1 clockwise (seat order), -1 counterclockwise
    options: dict[str, Any]
    option_defs: tuple[OptionDef, ...]
    cards: CardTable
    copies: dict[int, int]  # table size -> number of decks
    home_zone: int
    zones: tuple[ZoneDef, ...]
    zone_count: int
    board: Board
    variables: tuple[VariableDef, ...]
    phases: tuple[PhaseDef, ...]
    setup: StateFn
    round_end: StateFn
    after_move: StateFn | None
    after_turn: StateFn | None
    after_round: StateFn | None
    after_setup: StateFn | None
    before_turn: StateFn | None
    score: StateFn
    score_names: tuple[str, ...]
    evaluate: StateFn | None  # fn(S, p) -> int: a mid-round estimate of p's round score
    winner: str  # lowest | highest
    rounds: dict[int, int]  # table size -> rounds (at most, when `until` is given)
    until: StateFn | None  # fn(S) -> bool, asked after each round: is the match over?
    reactions: StepDef | None  # moves any seat may make after each action (or pass)
    moves: dict[str, MoveDef]
    round_first: StateFn | None  # fn(S, me) -> who starts the round's play (after the setup)
    teams: int  # partnerships: seat s (from 1) is in team (s - 1) mod teams + 1 (0: none)
    score_by: str  # player | team | table (a cooperative game: one score for everyone)
    max_actions: int  # a game that reaches this many actions ends there, with no winner
    # fn() -> the generated source as a person reads it (`python`), written when first asked
    python_listing: Callable[[], str] = field(repr=False, compare=False)
    data: dict[str, Any] = field(repr=False, default_factory=dict)  # the resolved rule file
    sites: tuple[Site, ...] = field(repr=False, default=())
    # fn(S, p) -> what `evaluate` reads, where that is p's own zones alone (else None)
    evaluate_key: StateFn | None = field(repr=False, default=None)
    code_name: str = ""  # the file name the generated code was compiled under
    line_sites: dict[int, int] = field(repr=False, default_factory=dict)  # line -> site
    house: HouseDef | None = None  # the party that is not a seat, if the ruleset has one
    flow: FlowFacts | None = None  # the turn flow's facts (the compiler always gives them)
    stakes: str = "win"  # what a match is worth to a seat (adapters' returns): win, points, chips
    # The same rules compiled for a playout kernel (interpreter/kernel.py): no log, no cache
    # of legal actions, and no record of who knows each card unless a rule asks; compiled
    # the first time it is asked for. None for a kernel's own rules.
    kernel: Callable[[], Ruleset] | None = field(repr=False, default=None, compare=False)
    knowing: bool = True  # the code keeps who knows each card (a kernel's: where rules ask)
    tells: bool = False  # some rule gives a clue (`tell`): an action's words tell its answers
    # the declared kinds of meld with the card tables they read (interpreter/meld_candidates.py,
    # MeldRules), where the ruleset declares melds: the views read laid runs with them
    melds: Any = field(repr=False, default=None, compare=False)

    @property
    def python(self) -> str:
        """The generated source, for inspection (`cardrules show --stage python`)."""
        return self.python_listing()

    @property
    def scored_teams(self) -> int:
        return scored_teams(self.teams, self.score_by)

    @property
    def owners(self) -> int:
        """How many owners a zone each player owns has instances for: every seat the ruleset
        allows, and the house."""
        return self.max_players + (self.house is not None)

    def zone(self, name: str) -> ZoneDef:
        for z in self.zones:
            if z.name == name:
                return z
        raise KeyError(name)

    def locate(self, exc: BaseException, context: str) -> Diagnostic:
        """A diagnostic for a failure of this ruleset's generated code: at the rule text of
        the fault's site, else of the generated line that was running."""
        site = exc.site if isinstance(exc, RuleFault) else None
        if site is None:
            site = self._site_of(exc.__traceback__)
        if isinstance(exc, RuleFault):
            message = exc.message
        else:  # not a rule's fault: a bug of cardrules, shown with what Python said
            message = (f"cardrules failed to carry out this rule ({type(exc).__name__}: "
                       f"{exc}); this is a bug in cardrules, please report it")
        if site is None or not 0 <= site < len(self.sites):
            return Diagnostic(None, f"{self.path}: {context}: {message}")
        where = self.sites[site]
        text = f"{where.text}: " if where.text and not message.startswith(where.text) else ""
        return Diagnostic(where.location, f"{context}: {text}{message}", where.source_line)

    def listing_of(self, tb: TracebackType | None) -> tuple[str, int] | None:
        """Where a traceback went through a step's listing (the legal actions of the next
        decision, listed at the end of a move's code): that step's name and the seat it
        listed for; None if it did not."""
        listings = {step.legal.__name__: step.name
                    for phase in self.phases for step in phase.steps}
        while tb is not None:
            code = tb.tb_frame.f_code
            if code.co_filename == self.code_name and code.co_name in listings:
                seat = tb.tb_frame.f_locals.get("me")
                if isinstance(seat, int):
                    return listings[code.co_name], seat
            tb = tb.tb_next
        return None

    def _site_of(self, tb: TracebackType | None) -> int | None:
        """The site of the innermost generated line in a traceback."""
        found = None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self.code_name:
                found = self.line_sites.get(tb.tb_lineno, found)
            tb = tb.tb_next
        return found


def current_traceback() -> TracebackType | None:
    return sys.exc_info()[2]


class _Twins(dict[int, tuple[bool, ...]]):
    """Board.twinned_in: each count's table made when first asked for."""

    def __init__(self, names: tuple[str, ...]):
        super().__init__()
        self.names = names

    def __missing__(self, count: int) -> tuple[bool, ...]:
        seen: dict[str, int] = {}
        for name in self.names[:count]:
            seen[name] = seen.get(name, 0) + 1
        found = self[count] = tuple(seen.get(name, 0) > 1 and c < count
                                    for c, name in enumerate(self.names))
        return found
