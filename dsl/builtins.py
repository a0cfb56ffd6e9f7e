"""The registry of built-in functions and names of the expression language.

Each entry has its name, parameter types, result type, a one-line doc, and how a
call is written in generated code (a template of this package whose holes the
generator fills with the arguments' code). The meaning check, the code generator and
docs/grammar.md all read this one registry.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from . import pyast
from .typesys import (
    ANY,
    BOOL,
    CARD,
    CARDS,
    COLOUR,
    INT,
    PLAYER,
    PLAYERS,
    RANK,
    SUIT,
    TEXT,
    WORDS,
    ZONE,
    Type,
    list_of,
)

Emitter = Callable[[Sequence[ast.expr], ast.expr], ast.expr]  # (arguments, site) -> code


@dataclass(frozen=True)
class Builtin:
    """A built-in function. `emit` writes the call from its arguments' code and the number
    of its site (the rule text a fault inside it points at)."""

    name: str
    params: tuple[Type, ...]
    returns: Type
    doc: str
    emit: Emitter
    variadic: bool = False  # the last parameter may repeat
    example: str = ""
    nullable: bool = False  # may give none
    takes_none: tuple[int, ...] = ()  # the arguments (by index) that may be none


def _t(template: str) -> Emitter:
    """The call written by a fixed template: `_0`, `_1`... the arguments, `_site` the site."""
    return lambda args, site: pyast.expr(template, *args, site=site)


def _call(helper: str, board: bool = False) -> Emitter:
    """A call of a runtime helper with the arguments (after B, S for the board's helpers)."""
    def emit(args: Sequence[ast.expr], site: ast.expr) -> ast.expr:
        prefix = [pyast.name("B"), pyast.name("S")] if board else []
        return pyast.call(helper, *prefix, *args)
    return emit


FUNCTIONS: dict[str, Builtin] = {}


def _register(*items: Builtin) -> None:
    for item in items:
        FUNCTIONS[item.name] = item


_register(
    Builtin("size", (list_of(ANY),), INT, "The number of cards in a zone, or of items in a list.",
            _t("len(_0)"), example="size(stock) > 0"),
    Builtin("top", (ZONE,), CARD, "The top card of a zone (the one placed last).",
            _call("top", board=True), example="move top(stock) to hand[me]"),
    Builtin("bottom", (ZONE,), CARD, "The bottom card of a zone (the one placed first).",
            _call("bottom", board=True), example="bottom(stock)"),
    Builtin("cards", (CARDS,), CARDS, "The cards of a zone, as a list.",
            _t("list(_0)"), example="flip cards(grid[p]) face up"),
    Builtin("position", (ANY, list_of(ANY)), INT,
            "Where an item lies in a list or a card in a zone, counted from 0 (the bottom card "
            "of a pile); a fault if it is not there.",
            _t("position(_0, _1, _site)"),
            example="move pile[i][position(card, pile[i]):] to pile[j]"),
    Builtin("combinations", (list_of(ANY), INT), list_of(list_of(ANY)),
            "Every way to choose so many items of a list (or cards of a zone), each a list in "
            "the list's order (a hand's: the deck's); at most 100,000 of them (a fault beyond).",
            _t("combinations(S, _0, _1, _site)"),
            example="max_by(strength(h) for h in combinations(cards(hand[me]), 5))"),
    Builtin("subsets", (list_of(ANY),), list_of(list_of(ANY)),
            "Every subset of a list (or of a zone's cards), the empty one first, then by size, "
            "each in the list's order (a hand's: the deck's); at most 100,000 of them (a fault "
            "beyond).",
            _t("subsets(S, _0, _site)"),
            example="choose: {cs: \"subsets(table) where sum(c.number for c in cs) == 7\"}"),
    Builtin("sorted", (list_of(ANY),), list_of(ANY),
            "The items of a list of numbers, ranks or suits, smallest first.",
            _call("ordered"), example="sorted(select(c.number for c in hand[me]))"),
    Builtin("all_but_top", (ZONE,), CARDS, "Every card of a zone except its top card.",
            _call("all_but_top", board=True),
            example="move all_but_top(discard) to stock face down"),
    Builtin("columns", (ZONE,), list_of(CARDS),
            "The columns of a grid zone, left to right, each a list of cards top to bottom.",
            _call("columns", board=True), example="columns(grid[p])"),
    Builtin("rows", (ZONE,), list_of(CARDS),
            "The rows of a grid zone, top to bottom, each a list of cards left to right.",
            _call("rows", board=True), example="rows(grid[p])"),
    Builtin("same_rank", (CARDS,), BOOL, "True when the cards all have one rank.",
            _t("same_key(T_rank, _0)"), example="same_rank(col)"),
    Builtin("same_suit", (CARDS,), BOOL, "True when the cards all have one suit.",
            _t("same_key(T_suit, _0)"), example="same_suit(cards(grid[me]))"),
    Builtin("is_set", (CARDS,), BOOL,
            "Whether the cards can all be of one rank, wild cards standing in for any rank.",
            _t("is_set(T_rank, T_wild, _0)"), example="is_set(cards(hand[me]))"),
    Builtin("is_flush", (CARDS,), BOOL,
            "Whether the cards can all be of one suit, wild cards standing in for any suit.",
            _t("is_flush(T_suit, T_wild, _0)"), example="is_flush(cards(grid[p]))"),
    Builtin("is_run", (CARDS, BOOL), BOOL,
            "Whether the cards can be put in a row of consecutive ranks (in the deck's rank "
            "order), wild cards filling any gap; the second argument lets a row wrap from the "
            "last rank to the first (K-A).",
            _t("is_run(T_rank, T_wild, N_RANKS, _0, _1)"),
            example="is_run(cards(grid[p]), false)"),
    Builtin("is_run_high", (CARDS,), BOOL,
            "Like is_run without wrapping, but with the deck's first rank placed after its "
            "last (an ace above the king: 9 10 J Q K A is a run, A 2 3 is not).",
            _t("is_run_high(T_rank, T_wild, N_RANKS, _0)"),
            example="is_run_high(cards(grid[p]))"),
    Builtin("words", (TEXT, INT, INT), WORDS,
            "The texts made of the given letters, between two lengths: a move parameter too "
            "large to list, sampled by bots and typed by people (only in `choose:`).",
            _t("words(_0, _1, _2, _site)"),
            example="choose: {prediction: \"words('UDS', 1, 11)\"}"),
    Builtin("changes", (CARDS,), TEXT,
            "The steps between neighbouring cards by number, one letter each: U (up), "
            "D (down), S (same).", _t("changes(T_number, _0)"),
            example="changes(cards(row))"),
    Builtin("contains", (TEXT, TEXT), BOOL,
            "Whether the first text holds the second as an unbroken piece.",
            _t("_1 in _0"), example="contains(changes(cards(row)), 'UUD')"),
    Builtin("length", (TEXT,), INT, "The number of letters of a text.",
            _call("len"), example="length(p.prediction)"),
    Builtin("numbers", (INT, INT), list_of(INT),
            "The whole numbers from the first to the second, both included (none if the "
            "second is smaller).", _t("numbers(_0, _1, _site)"),
            example="for: i in numbers(1, 3)"),
    Builtin("ranks", (), list_of(RANK), "Every rank of the deck, in its order (not jokers).",
            _t("RANKS"), example="choose: {wanted: ranks()}"),
    Builtin("suits", (), list_of(SUIT), "Every suit of the deck, in its order.",
            _t("SUITS"), example="choose: {trumps: suits()}"),
    Builtin("colours", (), list_of(COLOUR), "The colours red and black.",
            _t("COLOURS"), example="choose: {colour: colours()}"),
    Builtin("colour", (SUIT,), COLOUR,
            "The colour of a suit, as `deck.colours` names it (hearts and diamonds red, clubs "
            "and spades black); the jokers' suit has none.",
            _t("SUIT_COLOURS[_0]"), example="colour(trick_suit(c)) == colour(trump)"),
    Builtin("random_card", (ZONE,), CARD,
            "A card of the zone picked at random with the game's generator (an error if empty).",
            _call("random_card", board=True), example="move random_card(hand[target]) to hand[me]"),
    Builtin("abs", (INT,), INT, "The absolute value of a number.",
            _call("abs"), example="abs(p.total - 100)"),
    Builtin("min", (INT, INT), INT, "The smallest of two or more numbers.",
            _call("min"), variadic=True, example="min(p.total, 50)"),
    Builtin("max", (INT, INT), INT, "The largest of two or more numbers.",
            _call("max"), variadic=True, example="max(0, 10 - size(hand[p]))"),
    Builtin("knows", (PLAYER, CARD), BOOL,
            "Whether a player knows a card's identity (saw it face up, holds it, or peeked).",
            _t("bool(S.known[_1] >> _0 & 1)"),
            example="grid[me] where not knows(me, card)"),
    Builtin("possible", (CARD,), CARDS,
            "The faces a card may have as the clues said aloud (`tell`) told of it where it "
            "lies: one card of each such name, in the deck's order (every name if nothing "
            "was told of it).",
            _t("possible(B, S, _0)"),
            example="all(c.rank == '5' for c in possible(card))"),
    Builtin("next_player", (PLAYER,), PLAYER,
            "The next player still in the game after the given one, in play order.",
            _t("next_seat(S, _0, DIRECTION)"), example="next_player(dealer)"),
    Builtin("previous_player", (PLAYER,), PLAYER,
            "The player still in the game before the given one, the way play goes now (not "
            "always whose turn came last: a `turn to` or a missed turn may have passed seats "
            "by).",
            _t("next_seat(S, _0, -DIRECTION)"), example="previous_player(me)"),
    Builtin("seat", (INT,), PLAYER,
            "The player in the given seat, counted from 1 (a fault if there is no such seat).",
            _t("seat_of(S, _0, _site)"), example="first: seat(1)"),
    Builtin("owner", (CARD,), PLAYER,
            "The player whose zone holds the card, or none if it lies in a shared zone.",
            _t("owner_of(B, S, _0)"), nullable=True,
            example="first: \"owner(shown)\" (a card variable: who holds it leads)"),
    Builtin("team", (PLAYER,), PLAYERS,
            "The players of the player's team (`teams:`), in seat order, the player among them.",
            _t("team_of(S, _0, TEAMS)"), example="sum(q.bid for q in team(p))"),
    Builtin("led_suit", (CARDS,), SUIT,
            "The suit of the first card (the card led to a trick), or none if there is none.",
            _t("led_suit(T_suit, _0)"), nullable=True,
            example="card.suit == led_suit(trick)"),
    Builtin("best_of_suit", (CARDS, SUIT), CARD,
            "The highest card of the given suit among the cards, by the deck's rank order "
            "(ranks are listed from low to high), or none if there is none.",
            _t("best_of_suit(T_rank, T_suit, _0, _1)"), nullable=True,
            example="best_of_suit(trick, 'spades')"),
    Builtin("trick_suit", (CARD,), SUIT,
            "The card's suit in a trick: as `tricks: suit` reads it (a card that counts as "
            "another suit), else its own.", _t("T_suit[_0]"),
            example="trick_suit(c) == led_suit(trick)"),
    Builtin("trick_winner", (CARDS, SUIT), CARD,
            "The card that takes a trick: the highest of the trump suit (the second argument) "
            "if any was played, else the highest of the suit led (with none as trumps, always "
            "the suit led); none for no cards.",
            _t("trick_winner(T_rank, T_suit, _0, _1)"), nullable=True, takes_none=(1,),
            example="trick_winner(trick, 'spades').played_by"),
)

_register(
    Builtin("is_meld", (CARDS,), BOOL,
            "Whether the cards, all of them, form one meld of a kind the ruleset declares "
            "(`melds:`).", _t("is_meld(MELDS, _0, _site)"),
            example="is_meld(meld[me][0] + [card])"),
    Builtin("melds_in", (CARDS,), list_of(CARDS),
            "Every distinct meld that some of the cards form, longest first (copies of one "
            "card count once).", _t("melds_in(MELDS, _0, _site)"),
            example="choose: {meld: 'melds_in(hand[me])'}"),
    Builtin("can_meld", (CARDS,), BOOL,
            "Whether the cards can be laid, every one of them, in melds.",
            _t("can_meld(MELDS, _0, _site)"), example="can_meld(hand[me])"),
    Builtin("meld_layouts", (CARDS,), list_of(list_of(CARDS)),
            "Every distinct way to lay all the cards in melds (an empty list if there is "
            "none).", _t("meld_layouts(MELDS, _0, _site)"),
            example="choose: {layout: 'meld_layouts(hand[me])'}"),
    Builtin("deadwood", (CARDS,), INT,
            "The least total value (`melds: value`) of the cards left out of melds, over "
            "every way to meld some of them.", _t("deadwood(MELDS, _0, _site)"),
            example="deadwood(hand[me]) <= 10"),
    Builtin("discard_deadwood", (CARDS,), INT,
            "The least deadwood left after discarding one of the cards, the best one to "
            "discard (an error for no cards): whether a player may knock before discarding.",
            _t("discard_deadwood(MELDS, _0, _site)"), example="discard_deadwood(hand[me]) <= 10"),
    Builtin("best_melds", (CARDS,), list_of(CARDS),
            "The melds of a layout that leaves the least deadwood; where several do, the first "
            "in meld order.", _t("best_melds(MELDS, _0, _site)"),
            example="for: m in best_melds(hand[me])"),
    Builtin("left_out", (CARDS,), CARDS,
            "The cards best_melds leaves out of its melds (the deadwood itself), in the order "
            "given.", _t("left_out(MELDS, _0, _site)"),
            example="sum(c.points for c in left_out(hand[me]))"),
    Builtin("lay_downs", (CARDS, list_of(TEXT)), list_of(list_of(CARDS)),
            "Every distinct way to lay down a goal from some of the cards: the goal names a "
            "kind of meld (`melds: kinds`) once for each meld of it. A layout gives its melds "
            "in the goal's order; copies of one card, and wild cards of one value, count once.",
            _t("lay_downs(MELDS, _0, _1, _site)"),
            example="choose: {layout: \"lay_downs(hand[me], ['set', 'set', 'run'])\"}"),
    Builtin("can_lay_down", (CARDS, list_of(TEXT)), BOOL,
            "Whether some of the cards form a goal's melds (as lay_downs reads the goal): "
            "the same as size(lay_downs(...)) > 0, without listing the layouts.",
            _t("can_lay_down(MELDS, _0, _1, _site)"),
            example="can_lay_down(hand[me], ['set', 'run'])"),
)

# Functions that need `teams:` declared.
TEAM_FUNCTIONS = frozenset({"team"})
# Functions that need `melds:` declared.
MELD_FUNCTIONS = frozenset({"is_meld", "melds_in", "can_meld", "meld_layouts", "deadwood",
                            "discard_deadwood", "best_melds", "left_out", "lay_downs",
                            "can_lay_down"})
# Functions whose second argument is a goal: names of the declared kinds of meld.
GOAL_FUNCTIONS = frozenset({"lay_downs", "can_lay_down"})


@dataclass(frozen=True)
class Aggregate:
    name: str
    element: Type  # what each element must be
    returns: Type
    doc: str


AGGREGATES: dict[str, Aggregate] = {a.name: a for a in (
    Aggregate("sum", INT, INT, "The sum of a number for each item."),
    Aggregate("count", BOOL, INT, "How many items make a condition true."),
    Aggregate("all", BOOL, BOOL, "Whether a condition holds for every item (true if none)."),
    Aggregate("any", BOOL, BOOL, "Whether a condition holds for at least one item."),
    Aggregate("min", INT, INT, "The smallest number over the items (an error if none)."),
    Aggregate("max", INT, INT, "The largest number over the items (an error if none)."),
    Aggregate("first", ANY, ANY, "The first item's value (after `if`, the first that passes), "
                                 "or none if there is none."),
    Aggregate("select", ANY, ANY, "The list of the items' values (with `if`: of those that "
                                  "pass)."),
    Aggregate("max_by", ANY, ANY, "The item whose value is the largest (the first of equals), "
                                  "or none if there is none; values are numbers, ranks, suits "
                                  "or lists of numbers, a list compared item by item."),
    Aggregate("min_by", ANY, ANY, "The item whose value is the smallest (the first of equals), "
                                  "or none if there is none."),
    Aggregate("sorted_by", ANY, ANY, "The items, in the order of their values, smallest first "
                                     "(equals as they were)."),
)}


@dataclass(frozen=True)
class BuiltinName:
    """A built-in name; `code` is the template of what it reads."""

    name: str
    type: Type
    code: str
    doc: str

    def emit(self) -> ast.expr:
        return pyast.expr(self.code)


NAMES: dict[str, BuiltinName] = {b.name: b for b in (
    BuiltinName("me", PLAYER, "me", "The player acting now (in scoring: see p)."),
    BuiltinName("current", PLAYER, "S.current", "The player whose turn it is."),
    BuiltinName("dealer", PLAYER, "S.dealer", "This round's dealer."),
    BuiltinName("first", PLAYER, "S.first", "The player who starts this round's play "
                                            "(`round.first`, else the one after the dealer)."),
    BuiltinName("players", PLAYERS, "players(S)", "The players still in the game, in seat order."),
    BuiltinName("others", PLAYERS, "others(S, me, DIRECTION)",
                "The other players still in the game, in play order after me."),
    BuiltinName("player_count", INT, "S.n", "How many players the game started with."),
    BuiltinName("round", INT, "S.round", "The number of the round being played, from 1."),
    BuiltinName("turns", INT, "S.turns", "How many turns have been played in the game so far."),
    BuiltinName("house", PLAYER, "HOUSE",
                "The house (`house:`): a party that holds cards and is scored, never a seat."),
    BuiltinName("round_ending", BOOL, "S.stop_before is not None or S.signal >= 4",
                "True once something has ended the round or scheduled its end."),
)}

# Attributes every card has; rule-defined value tables add more. (type, template, doc)
CARD_ATTRIBUTES: dict[str, tuple[Type, str, str]] = {
    "rank": (RANK, "T_rank[_0]", "The rank; compare with a rank's name: c.rank == 'K'."),
    "suit": (SUIT, "T_suit[_0]", "The suit; compare with a suit's name: c.suit == 'hearts'."),
    "colour": (COLOUR, "T_colour[_0]", "'red' (hearts, diamonds) or 'black' (clubs, spades)."),
    "number": (INT, "T_number[_0]", "The rank as a number: A=1, 2-10, J=11, Q=12, K=13, joker 0."),
    "is_joker": (BOOL, "T_joker[_0]", "Whether the card is a joker."),
    "is_wild": (BOOL, "T_wild[_0]", "Whether the card is wild (the deck's `wild` condition)."),
    "face_up": (BOOL, "S.face_up[_0]", "Whether the card lies face up."),
    "played_by": (PLAYER, "S.by[_0]",
                  "The player who last played the card into a zone of `layout: trick` (none "
                  "if nobody has)."),
}
NULLABLE_ATTRIBUTES = frozenset({"played_by"})
PLAYER_ATTRIBUTES: dict[str, tuple[Type, str, str]] = {
    "seat": (INT, "_0 + 1", "The player's seat number, from 1."),
    "total": (INT, "S.totals[_0]", "The player's cumulative score in the match."),
    "active": (BOOL, "S.active[_0]", "Whether the player is still in the game."),
    "team": (INT, "_0 % TEAMS + 1", "The player's team, from 1 (with `teams:`: seats 1, "
                                   "1 + teams, ... are team 1)."),
    "score": (INT, "round_score(S, _0)",
              "The player's score in the last round that ended (0 before any has)."),
}

# How the namespace grows (docs/language-design.md, "How the built-ins grow"): a rule file's
# own names win over built-ins, so that a built-in added later never changes what a file
# means nor stops it validating. These are the only exceptions: the names language 1 let win
# over a file's own from the start (a zone, variable or option named `round` was never read,
# a player variable named `total` neither, and no value table could be named `rank`), kept so
# that every file plays as it always did. Nothing is ever added to them.
SETTLED_NAMES = frozenset({"me", "current", "dealer", "first", "players", "others",
                           "player_count", "round", "turns", "house", "round_ending"})
SETTLED_CARD_ATTRIBUTES = frozenset({"rank", "suit", "colour", "number", "is_joker", "is_wild",
                                     "face_up", "played_by", "joker", "wild"})
SETTLED_PLAYER_ATTRIBUTES = frozenset({"seat", "total", "active", "team", "score"})

# In a ruleset with a house (`house:`), the player attributes whose seat-only code would
# misread the house (whose player number follows the seats'): (template) by name.
HOUSE_PLAYER_ATTRIBUTES: dict[str, str] = {
    "seat": "seat_number(_0, HOUSE)",
    "total": "Totals(S)[_0]",
    "active": "is_active(S, _0)",
    "score": "last_score(S, _0)",
}
# ... and the built-in functions that need a seat there, not the house.
HOUSE_FUNCTIONS: dict[str, Emitter] = {
    "next_player": _t("next_seat(S, a_seat(S, _0, 'next_player needs a seat', _site), DIRECTION)"),
    "previous_player": _t("next_seat(S, a_seat(S, _0, 'previous_player needs a seat', _site), "
                          "-DIRECTION)"),
}


@dataclass(frozen=True)
class Construct:
    """A construct of the rule text: its grammar rule (dsl/grammar.lark), how it is written
    and what it does, in a sentence (what an editor shows on hovering over it)."""

    name: str
    syntax: str
    doc: str


CONSTRUCTS: dict[str, Construct] = {c.name: c for c in (
    Construct("move_cards", "move CARDS to [bottom of] ZONE [face up | face down]",
              "Moves a card, a list of cards or a zone's cards onto the top of a zone, one by "
              "one; with `bottom of`, under its cards."),
    Construct("deal_cards", "deal N from ZONE to each ZONE [after PLAYER] [face up | face down]",
              "Deals N cards (or all) one at a time round the players still in, to each one's "
              "zone of that name."),
    Construct("shuffle", "shuffle ZONE",
              "Puts a zone's cards in random order; everyone forgets which card is which."),
    Construct("flip", "flip CARDS face up | face down",
              "Turns cards face up or face down where they lie."),
    Construct("swap", "swap CARD with CARD",
              "Two cards exchange places, each taking the other's zone and position."),
    Construct("set", "set NAME = VALUE  (or +=, -=; p.NAME for a player's)",
              "Gives a game, round or player variable a new value, or adds to it or takes from "
              "it."),
    Construct("let", "let NAME = VALUE",
              "Names a value for the rest of the statement list it is in."),
    Construct("peek", "peek CARDS",
              "The acting player learns cards without turning them."),
    Construct("end_turn", "end turn",
              "The turn ends when the current action is done."),
    Construct("turn_to", "turn to PLAYER",
              "When the current turn ends, the next turn is this player's."),
    Construct("end_round", "end round [before turn of PLAYER]",
              "The round ends when the current action is done, or before the named player's "
              "next turn."),
    Construct("end_phase", "end phase",
              "The phase ends when the current action is done."),
    Construct("end_game", "end game",
              "The round ends when the current action is done, and then the match."),
    Construct("win", "win PLAYER",
              "The player wins the match, which ends with this round."),
    Construct("eliminate", "eliminate PLAYER",
              "The player is out of the game for the rest of the match."),
    Construct("reverse_direction", "reverse direction",
              "Play goes the other way round, for the rest of the round."),
    Construct("reveal", "reveal CARDS",
              "Every player learns the cards without their being turned."),
    Construct("tell", "tell PLAYER which NAME in CARDS where CONDITION",
              "A clue said aloud to the player: for each of the cards, whether the condition "
              "holds of it. Every party keeps what it says of each card while the card stays "
              "where it lies (`possible`)."),
    Construct("procedure_call", "NAME(ARGUMENTS)",
              "Runs the statements of one of the file's procedures (`procedures:`), its "
              "parameters given these values."),
    Construct("score_points", "score N to PLAYER",
              "The seat scores N points now, during play: counted in its round score, and in "
              "its total at once."),
    Construct("conditional", "if TEST then VALUE else VALUE",
              "The first value if the test is true, else the second."),
    Construct("disjunction", "A or B", "True when either side is true."),
    Construct("conjunction", "A and B", "True when both sides are true."),
    Construct("negation", "not A", "True when A is false."),
    Construct("comparison", "A == B, A != B, A < B, A <= B, A > B, A >= B",
              "Compares two values: numbers, and ranks or suits in the deck's order, can be "
              "ordered."),
    Construct("membership", "X in LIST", "Whether X is one of the list's items (or a zone's "
                                         "cards)."),
    Construct("non_membership", "X not in LIST", "Whether X is none of the list's items."),
    Construct("arithmetic", "A + B, A - B, A * B, A / B, A % B",
              "Whole-number arithmetic (/ rounds down); + also joins two lists."),
    Construct("minus", "-A", "The number with its sign changed."),
    Construct("index", "LIST[I], ZONE[PLAYER]",
              "An item of a list, counted from 0, or a player's zone (a group's: ZONE[P][I])."),
    Construct("slice", "LIST[START:STOP], ZONE[START:STOP]",
              "The items of a list, or the cards of a zone, from place START to before STOP "
              "(counted from 0, from the end where negative; either may be left out)."),
    Construct("list_literal", "[A, B, ...]", "A list of the values written."),
    Construct("domain", "LIST [where CONDITION]",
              "What a move's parameter is chosen from: the items for which the condition "
              "holds."),
    Construct("for_clause", "NAME in LIST",
              "The head of a `for:` block: its statements run once for each item, named NAME."),
)}


# The words that begin a statement (docs/grammar.md §3.2): `win(me)` is the statement `win`
# given `(me)`, so a procedure so named could never be called, and its name is refused.
STATEMENT_WORDS = ("move", "deal", "shuffle", "flip", "swap", "set", "let", "peek", "end",
                   "turn", "win", "eliminate", "reveal", "score")

# The words of expressions and domains (docs/grammar.md §3.2), in the order the reference
# lists them: keywords where the grammar takes them, and no name of a file's.
EXPRESSION_WORDS = ("if", "then", "else", "or", "and", "not", "in", "for", "where", "true",
                    "false", "none")
