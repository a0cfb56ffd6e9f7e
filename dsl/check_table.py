"""Stage 4, the table: what a ruleset fixes before any game is played, checked (its options
and their ranges, the players and the house, partnerships, the deck and its value tables, which
cards are wild, the zones, the kinds of meld), for the ruleset checker (dsl/checker.py) to build
the rest on.
"""

from __future__ import annotations

import re
from typing import Any

from cardrules.errors import Diagnostic, RulesetError
from cardrules.model import CardTable, HouseDef, MeldKind, OptionDef, ZoneDef

from . import decls as d
from . import limits
from . import nodes as n
from .builtins import CARD_ATTRIBUTES, NAMES, SETTLED_CARD_ATTRIBUTES, SETTLED_NAMES
from .cards import (
    COLOUR_NUMBERS,
    NO_COLOUR,
    STANDARD_RANKS,
    STANDARD_SUITS,
    card_table,
    suit_colour,
)
from .check_expr import (
    BAD,
)
from .check_melds import meld_kinds
from .check_stmt import StatementChecker
from .fold import Env, NotStatic, value_at_load
from .names import did_you_mean
from .typesys import (
    CARD,
    INT,
    Type,
)


def coerce_option(value: Any, like: Any) -> Any:
    """A command-line option value (text) as the type of the option's default, or None."""
    if not isinstance(value, str):
        return value if type(value) is type(like) else None
    if isinstance(like, bool):
        return {"true": True, "yes": True, "false": False, "no": False}.get(value.lower())
    if isinstance(like, int):
        # ASCII digits only: no '٣', no '3_000', no 4,000-digit numbers.
        if re.fullmatch(r"-?[0-9]{1,10}", value) is None:
            return None
        number = int(value)
        return number if abs(number) <= limits.MAX_VALUE else None
    return value


class TableChecker(StatementChecker):
    """The declarations of the table; `_RulesetChecker` goes on to the rules of play."""

    decls: d.RulesetDecl
    overrides: dict[str, Any]
    option_bounds: dict[str, tuple[d.Literal | None, d.Literal | None]]

    def problem(self, pos: n.Pos, message: str) -> None:
        self.diagnostics.append(pos.diagnostic(message))

    # --------------------------------------------------------------- options
    def options(self) -> tuple[OptionDef, ...]:
        defs: list[OptionDef] = []
        for option in self.decls.options:
            name = option.name.name
            if self.clash(name, option.name.pos):
                continue
            if name in self.symbols.options:
                self.problem(option.name.pos, f"option '{name}' is declared twice")
                continue
            default = option.default.value
            self.bounded_value(option.default)
            choices = tuple(c.value for c in option.choices) if option.choices else None
            listed = option.choices or ()
            if len({type(c.value) for c in listed}) > 1:  # (`-o size=3` is read as the
                first = listed[0]                         # choices' kind: one kind only)
                odd = next(c for c in listed if type(c.value) is not type(first.value))
                self.problem(odd.pos, f"an option's choices are of one kind: the first, "
                             f"{_written(first)}, is {_KINDS[type(first.value)]}, and "
                             f"{_written(odd)} is {_KINDS[type(odd.value)]}: write them all "
                             "alike (in quotes, every one is a text)")
            if choices is not None and default not in choices:
                self.problem(option.default.pos, f"the default '{default}' is not one of "
                             "the choices: " + ", ".join(str(c) for c in choices))
            low, high = self.option_range(option)
            defs.append(OptionDef(name, default, choices, option.doc, low, high, option.label))
            self.option_bounds[name] = (option.low, option.high)
            self.symbols.options[name] = default
            self.settled_name(name, option.name.pos, "option")
            if choices is not None:
                self.symbols.choices[name] = choices
        for name, value in self.overrides.items():
            self.override(defs, name, value)
        return tuple(defs)

    def option_range(self, option: d.OptionDecl) -> tuple[int | None, int | None]:
        """An option's min: and max:, checked: whole numbers, for an option whose default is
        one, around the default, and not beside a list of choices."""
        bounds = [b for b in (option.low, option.high) if b is not None]
        for bound in bounds:
            self.bounded_value(bound)
        if not bounds:
            return None, None
        default = option.default.value
        if type(default) is not int:
            self.problem(bounds[0].pos, "min and max bound an option whose default is a whole "
                                        "number; this one's is " + _type_word(default))
            return None, None
        if option.choices:
            self.problem(bounds[0].pos, "an option has choices or a range (min, max), not both")
            return None, None
        low = option.low.whole if option.low is not None else None
        high = option.high.whole if option.high is not None else None
        if low is not None and high is not None and low > high:
            self.problem(bounds[-1].pos, f"max {high} is below min {low}")
        elif (low is not None and default < low) or (high is not None and default > high):
            self.problem(option.default.pos, f"the default {default} is outside the option's "
                                             f"range, {_range_text(low, high)}")
        return low, high

    def bounded_value(self, literal: d.Literal) -> None:
        value = literal.value
        if type(value) is int and abs(value) > limits.MAX_VALUE:
            self.problem(literal.pos, f"{value} is too large: numbers here are at most "
                                      f"{limits.MAX_VALUE:,} either side of 0")

    def override(self, defs: list[OptionDef], name: str, value: Any) -> None:
        by_name = {o.name: o for o in defs}
        option = by_name.get(name)
        if option is None:
            raise RulesetError([Diagnostic(None, f"{self.decls.path}: no option "
                                           f"'{_shown(name)}'" + did_you_mean(name, by_name))])
        coerced = coerce_option(value, option.default)
        low, high = self.option_bounds.get(name, (None, None))
        digits = isinstance(value, str) and type(option.default) is int and \
            re.fullmatch(r"-?[0-9]+", value) is not None
        if coerced is None and digits and (low or high):  # too large: outside its range too
            negative = value.startswith("-")
            bound = low if negative and low else high if not negative and high else low or high
            assert bound is not None
            raise RulesetError([bound.pos.diagnostic(
                f"option '{name}': {_shown(value)} is outside its range, "
                f"{_range_text(option.low, option.high)}")])
        if coerced is None or (option.choices is not None and coerced not in option.choices):
            declared = next(o for o in self.decls.options if o.name.name == name)
            raise RulesetError([declared.name.pos.diagnostic(
                f"option '{name}': {_wanted(option, digits)}, got '{_shown(str(value))}'")])
        below = option.low is not None and coerced < option.low
        above = option.high is not None and coerced > option.high
        bound = low if below else high if above else None
        if bound is not None:  # said where the rule file draws the line
            raise RulesetError([bound.pos.diagnostic(
                f"option '{name}': {coerced} is outside its range, "
                f"{_range_text(option.low, option.high)}")])
        self.symbols.options[name] = coerced

    def players(self) -> None:
        spec = self.decls.players
        low = spec.min.whole if spec.min else 2
        high = spec.max.whole if spec.max else max(low, 4)
        default = spec.default.whole if spec.default else low
        self.min_players, self.max_players, self.default_players = low, high, default
        if not low <= default <= high:
            self.problem(spec.pos, "players: expected min <= default <= max")
        if high > limits.MAX_PLAYERS:
            self.problem(spec.max.pos if spec.max else spec.pos,
                         f"players: at most {limits.MAX_PLAYERS}")
        # (a range the later checks can use, whatever was wrong above)
        self.min_players = max(1, min(low, limits.MAX_PLAYERS))
        self.max_players = max(self.min_players, min(high, limits.MAX_PLAYERS))
        self.direction = 1 if self.decls.direction == "clockwise" else -1

    def house(self) -> HouseDef | None:
        """`house:`: a party that is not a seat; in rule text, the player `house`. Its player
        number follows every seat's (the largest table size), so that its zones and player
        variables sit after the seats' at every table size."""
        spec = self.decls.house
        if spec is None:
            return None
        if self.decls.teams is not None:
            self.problem(self.decls.teams.pos, "a ruleset with a house (`house:`) cannot "
                         "play in partnerships (`teams:`): the house belongs to no team")
        self.symbols.house = self.max_players
        return HouseDef(spec.name, self.max_players, spec.doc)

    def stakes(self) -> None:
        """`scoring.stakes: chips`: the totals are chips that pass between the seats, so the
        seats' returns add up to nothing; a table that scores as one, or a house (not a
        seat, so not in the returns), has no such seats."""
        scoring = self.decls.scoring
        if scoring.stakes != "chips" or scoring.stakes_pos is None:
            return
        if scoring.by == "table":
            self.problem(scoring.stakes_pos, "chips change hands between the seats, and a "
                         "table that scores as one (`by: table`) passes none: its stakes are "
                         "`points`")
        elif self.decls.house is not None:
            self.problem(scoring.stakes_pos, "chips change hands between the seats, and the "
                         "house is no seat: what it wins or loses is in no seat's return, so "
                         "the stakes of a game against it are `points`")

    def teams(self) -> None:
        """`teams: N`: seat s (from 1) plays in team (s - 1) mod N + 1, at every table size
        the ruleset allows."""
        spec = self.decls.teams
        by_team = self.decls.scoring.by == "team"
        if spec is None:
            if by_team:
                pos = self.decls.scoring.by_pos or self.decls.name.pos
                self.problem(pos, "scoring by team needs `teams:`")
            return
        # (declared, if refused: a use of teams is no second mistake; the file runs nowhere)
        count = self.symbols.teams = spec.whole
        if self.decls.house is not None:
            return  # (refused with the house)
        bad = [n for n in range(self.min_players, self.max_players + 1) if n % count]
        if bad:
            self.problem(spec.pos, f"{count} teams cannot share {bad[0]} players equally: "
                         f"the player counts must be multiples of {count}")

    def max_actions(self) -> int:
        """`max_actions`: the bound on a game's length, so that every game ends."""
        spec = self.decls.max_actions
        if spec is None:
            return limits.DEFAULT_ACTIONS
        if spec.whole > limits.MAX_ACTIONS:
            self.problem(spec.pos, f"max_actions: at most {limits.MAX_ACTIONS:,}")
            return limits.MAX_ACTIONS
        return spec.whole

    def melds(self) -> tuple[MeldKind, ...]:
        """`melds:`: the kinds of meld the meld built-ins read."""
        if self.decls.melds is None:
            return ()
        kinds: list[MeldKind] = []
        self.diagnostics.extend(meld_kinds(self.decls.melds, self.symbols.value_tables,
                                           self.static, self.is_known_name, kinds))
        self.symbols.melds = True
        self.symbols.meld_kinds = tuple(k.name.name for k in self.decls.melds.kinds)
        return tuple(kinds)

    def static(self, node: n.Expr, wanted: Type, what: str) -> Any:
        """The value of an expression known before the game (numbers, texts and options),
        or None, with the problem reported, where it is not one."""
        self.has_me = False
        code = self.expect(self.check(node), wanted, node.pos, what)
        if code is BAD:
            return None
        try:
            return value_at_load(code, Env())
        except NotStatic as exc:
            self.problem(exc.node.pos, f"{what} may only use numbers, texts and options")
            return None

    # ------------------------------------------------------------------ deck
    def deck(self) -> tuple[CardTable, dict[int, int]]:
        deck = self.decls.deck
        ranks = tuple(str(r.value) for r in deck.ranks) or STANDARD_RANKS
        suits = tuple(str(s.value) for s in deck.suits) or STANDARD_SUITS
        jokers = deck.jokers.whole if deck.jokers else 0
        bad = self.distinct_names(deck.ranks, "ranks", limits.MAX_RANKS) | \
            self.distinct_names(deck.suits, "suits", limits.MAX_SUITS)
        bad |= self.names_apart(deck.ranks, deck.suits)
        if bad:  # left out, so that nothing else speaks of them again
            ranks = tuple(r for r in ranks if r not in bad) or STANDARD_RANKS
            suits = tuple(s for s in suits if s not in bad) or STANDARD_SUITS
        if deck.jokers and jokers > limits.MAX_JOKERS:
            self.problem(deck.jokers.pos, f"at most {limits.MAX_JOKERS} jokers")
            jokers = limits.MAX_JOKERS
        ranks, suits = ranks[:limits.MAX_RANKS], suits[:limits.MAX_SUITS]
        # 'joker' names the jokers' rank and suit, in a deck that has any
        self.symbols.rank_names = (*ranks, "joker") if jokers else ranks
        self.symbols.suit_names = (*suits, "joker") if jokers else suits
        per_deck = len(ranks) * len(suits) + jokers
        copies = self.copies(per_deck)
        colours: dict[str, int] = {}
        for suit, colour in deck.colours:
            if suit.name not in suits:
                self.problem(suit.pos, f"deck.colours: no suit '{suit.name}' in this deck"
                             + did_you_mean(suit.name, suits))
            colours[suit.name] = COLOUR_NUMBERS[colour]
        joker_names = self.joker_names(ranks, suits, jokers)
        table = card_table(ranks, suits, jokers, max(copies.values()), per_deck, colours,
                           joker_names)
        self.symbols.uncoloured = tuple(s for s in suits
                                        if suit_colour(s, colours) == NO_COLOUR)
        values = self.value_tables(ranks, jokers, table)
        self.symbols.value_tables = tuple(values)
        partial = CardTable(per_deck=per_deck, values=values, wild=(False,) * len(table["names"]),
                            **table)
        return CardTable(per_deck=per_deck, values=values, wild=self.wild(partial),
                         **table), copies

    def names_apart(self, ranks: Any, suits: Any) -> set[str]:
        """The ranks and suits that would give two cards one name, each refused where it is
        written: a card is named by its rank and its suit's first letter (AS, 10H), and a
        deal file or a person may write it in either case."""
        bad: set[str] = set()
        seen: dict[str, str] = {}
        for literal in ranks:
            text = str(literal.value)
            if text.upper() in seen and seen[text.upper()] != text:
                self.problem(literal.pos, f"ranks '{seen[text.upper()]}' and '{text}' differ "
                                          "only by case: their cards would have one name "
                                          "(names are read in either case)")
                bad.add(text)
            seen.setdefault(text.upper(), text)
        initials: dict[str, str] = {}
        for literal in suits:
            text = str(literal.value)
            initial = text[:1].upper()
            if initial in initials and initials[initial] != text:
                self.problem(literal.pos, f"suits '{initials[initial]}' and '{text}' both "
                                          f"begin with {initial}: a card is named by its rank "
                                          f"and its suit's first letter (A{initial}), so their "
                                          "cards would have one name; give each suit a first "
                                          "letter of its own")
                bad.add(text)
            initials.setdefault(initial, text)
        return bad

    def joker_names(self, ranks: tuple[str, ...], suits: tuple[str, ...],
                    jokers: int) -> tuple[str, ...]:
        """The names a deck gives its jokers (`joker_names`), one for each joker of a copy,
        each its own and none a card's name already; () where there are none or a name is
        not fit to be one."""
        given = self.decls.deck.joker_names
        if not given:
            return ()
        if len(given) != jokers:
            self.problem(given[jokers if len(given) > jokers else 0].pos,
                         f"deck.joker_names names {len(given)} joker"
                         f"{'' if len(given) == 1 else 's'}, but a copy of the deck has "
                         f"{jokers}: give one name for each")
            return ()
        # (a deal file names cards in upper or lower case: names differing only by case are
        # one name there)
        taken = {(r + s[:1]).upper() for r in ranks for s in suits}
        seen: set[str] = set()
        for literal in given:
            text = str(literal.value)
            if not 0 < len(text) <= limits.MAX_CARD_NAME or not text.isprintable() \
                    or any(ch.isspace() for ch in text):
                self.problem(literal.pos, "a joker's name has 1 to "
                                          f"{limits.MAX_CARD_NAME} characters, without spaces")
                return ()
            if text.upper() in taken or text.upper() in seen:
                self.problem(literal.pos, f"the joker name '{text}' is already a card's name "
                                          "(names differing only by case are the same name): "
                                          "each card of a deck has a name of its own")
                return ()
            seen.add(text.upper())
        return tuple(str(literal.value) for literal in given)

    def distinct_names(self, names: tuple[d.Literal, ...], what: str, most: int) -> set[str]:
        """Check a deck's ranks or suits; the names that are not fit to be one."""
        seen: set[str] = set()
        bad: set[str] = set()
        for literal in names:
            text = str(literal.value)
            if text in seen or text == "joker":
                self.problem(literal.pos, f"the {what} of a deck must be distinct, and "
                                          "'joker' is reserved")
            elif not 0 < len(text) <= limits.MAX_CARD_NAME or not text.isprintable() \
                    or any(ch.isspace() for ch in text):
                self.problem(literal.pos, f"the {what} of a deck are names of 1 to "
                                          f"{limits.MAX_CARD_NAME} characters, without spaces")
                bad.add(text)
            seen.add(text)
        if len(names) > most:
            self.problem(names[most].pos, f"a deck has at most {most} {what}")
        return bad

    def copies(self, per_deck: int) -> dict[int, int]:
        """How many decks, for each table size the ruleset allows."""
        node = self.decls.deck.copies
        sizes = range(self.min_players, self.max_players + 1)
        if node is None:
            return dict.fromkeys(sizes, 1)
        self.has_me = False
        code = self.expect(self.check(node), INT, node.pos, "deck copies")
        out = dict.fromkeys(sizes, 1)
        if code is BAD:
            return out
        for count in sizes:
            try:
                value = value_at_load(code, Env(player_count=count))
            except NotStatic as exc:
                self.problem(exc.node.pos, "the deck count may only use numbers, options and "
                                           "player_count")
                return out
            if not 1 <= value <= limits.MAX_COPIES or value * per_deck > limits.MAX_CARDS:
                self.problem(node.pos, f"deck copies: {value} for {count} players; a game "
                             f"uses 1 to {limits.MAX_COPIES} decks and at most "
                             f"{limits.MAX_CARDS} cards")
                return out
            out[count] = value
        return out

    def value_tables(self, ranks: tuple[str, ...], jokers: int,
                     table: dict[str, Any]) -> dict[str, tuple[int, ...]]:
        out: dict[str, tuple[int, ...]] = {}
        wanted = list(ranks) + (["joker"] if jokers else [])
        for spec in self.decls.values:
            name = spec.name.name
            if name in SETTLED_CARD_ATTRIBUTES:
                self.problem(spec.name.pos, f"a value table cannot be named '{name}': cards "
                                            "already have an attribute of that name")
                continue
            if name in CARD_ATTRIBUTES:
                self.hint(spec.name.pos, f"'{name}' is also a built-in card attribute: in this "
                                         f"file c.{name} reads this table")
            given = {rank.name: number.value for rank, number in spec.entries}
            for rank, number in spec.entries:
                if rank.name not in wanted:
                    self.problem(rank.pos, f"'{rank.name}' is not a rank of this deck"
                                 + did_you_mean(rank.name, wanted))
                self.bounded_value(number)
            missing = [r for r in wanted if r not in given]
            if missing:
                self.problem(spec.pos, f"values '{name}' gives no number for: "
                             + ", ".join(missing))
            by_rank = [_number(given.get(r)) for r in ranks] + [_number(given.get("joker"))]
            out[name] = tuple(by_rank[r] for r in table["rank"])
        return out

    def wild(self, cards: CardTable) -> tuple[bool, ...]:
        """Which cards are wild: `deck.wild`, a condition on `card` alone, worked out now."""
        node = self.decls.deck.wild
        count = len(cards.names)
        if node is None:
            return (False,) * count
        self.has_me = False
        with self.bind({"card": CARD}):
            code = self.condition(node)
        if code is BAD:
            return (False,) * count
        try:
            return tuple(bool(value_at_load(code, Env(locals={"card": c}, cards=cards)))
                         for c in range(count))
        except NotStatic as exc:
            self.problem(exc.node.pos, "the wild condition may only use the card's own "
                         "attributes (rank, suit, colour, number, is_joker, value tables) and "
                         "options")
            return (False,) * count

    # ----------------------------------------------------------------- zones
    def zones(self) -> tuple[tuple[ZoneDef, ...], int]:
        specs = self.decls.zones
        if len(specs) > limits.MAX_ZONES:
            self.problem(specs[limits.MAX_ZONES].pos, f"at most {limits.MAX_ZONES} zones")
            specs = specs[:limits.MAX_ZONES]
        out: list[ZoneDef] = []
        index = 0
        for spec in [z for z in specs if not z.owned] + [z for z in specs if z.owned]:
            rows, cols = self.side(spec.rows), self.side(spec.columns)
            groups = self.size(spec.groups, limits.MAX_GROUPS, "groups")
            out.append(ZoneDef(spec.name.name, spec.owned, spec.visibility, spec.layout,
                               rows, cols, index, spec.doc, groups, spec.keep))
            owners = self.max_players + (self.symbols.house is not None)
            index += (owners if spec.owned else 1) * max(groups, 1)
        seen: set[str] = set()
        for spec in specs:
            name = spec.name.name
            self.clash(name, spec.name.pos)
            if not spec.owned:
                self.settled_name(name, spec.name.pos, "zone")
            if name in seen:
                self.problem(spec.name.pos, f"zone '{name}' is declared twice")
            seen.add(name)
            if spec.visibility == "others" and not spec.owned:
                self.problem(spec.pos, f"zone '{name}' has visibility 'others', which needs a "
                                       "holder: a zone each player owns (owner: each)")
            if spec.layout == "grid" and not (spec.rows and spec.columns):
                self.problem(spec.pos, "a grid zone needs rows and columns")
        self.symbols.zones = {z.name: z for z in out}
        for option in self.decls.options:  # (a name is read as a zone before an option)
            if option.name.name in seen:
                self.hint(option.name.pos, f"'{option.name.name}' is also a zone's name, "
                                           f"which a bare '{option.name.name}' reads: this "
                                           "option is never read; choose another name")
        home = self.decls.deck.zone
        zone = self.symbols.zones.get(home.name) if home else None
        if zone is None or zone.owned:
            where = home.pos if home else self.decls.deck.pos
            name = home.name if home else "None"
            shared = [z.name for z in out if not z.owned]  # (a zone each player owns is none)
            self.problem(where, f"the deck's zone must be a shared zone, not '{name}'"
                         + (", which each player owns" + (
                             f": the shared zones are {', '.join(shared)}" if shared else "")
                            if zone is not None else did_you_mean(name, shared)))
            return tuple(out), 0
        return tuple(out), zone.index

    def settled_name(self, name: str, pos: n.Pos, what: str) -> None:
        """A hint where a zone or an option shares its name with a built-in name: which of
        the two a bare name reads."""
        if name == "house":
            return  # (the house has its own rule: `clash`)
        if name in SETTLED_NAMES:
            self.hint(pos, f"'{name}' is a built-in name, which a bare '{name}' reads: this "
                           f"{what} is never read; choose another name")
        elif name in NAMES:
            self.hint(pos, f"'{name}' is also a built-in name: in this file it is this {what}")

    def side(self, literal: d.Literal | None) -> int:
        return self.size(literal, limits.MAX_GRID_SIDE, "rows or columns") or 1

    def size(self, literal: d.Literal | None, most: int, what: str) -> int:
        if literal is None:
            return 0
        if literal.whole > most:
            self.problem(literal.pos, f"at most {most} {what}")
            return most
        return literal.whole



def _number(value: Any) -> int:
    return value if type(value) is int else 0



def _range_text(low: int | None, high: int | None) -> str:
    """'from 2 to 9', 'at least 1', 'at most 10'."""
    if low is not None and high is not None:
        return f"from {low} to {high}"
    return f"at least {low}" if low is not None else f"at most {high}"


def _wanted(option: OptionDef, digits: bool) -> str:
    """What an option's value must be, for a message about one that is not."""
    if option.choices:
        return "expected one of " + ", ".join(str(c) for c in option.choices)
    if type(option.default) is int:
        low = option.low if option.low is not None else -limits.MAX_VALUE
        high = option.high if option.high is not None else limits.MAX_VALUE
        return f"expected a whole number {_range_text(low, high)}" + (
            "" if digits else " (digits 0-9)")
    taken = " (or yes or no)" if isinstance(option.default, bool) else ""
    return f"expected {_type_word(option.default)}{taken}"


def _shown(value: str, width: int = 24) -> str:
    """A value given on the command line, cut short in a message when it is long."""
    return value if len(value) <= width else value[:width - 3] + "..."


def _type_word(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a whole number (digits 0-9)"
    return "a text"


_KINDS = {str: "a text", int: "a number", bool: "a truth value"}


def _written(literal: d.Literal) -> str:
    """A choice as the file writes it (`on`, which YAML reads as true, as `on`; a text in
    quotes with its quotes)."""
    origin = literal.pos.origin
    found = origin.doc.diagnostic(origin.path, "")
    start, end, line = found.location, found.end, found.source_line
    if start is not None and end is not None and line and start.line == end.line:
        return line[start.column - 1:end.column - 1]
    return str(literal.value).lower() if isinstance(literal.value, bool) else str(literal.value)
