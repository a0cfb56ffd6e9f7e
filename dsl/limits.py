"""The upper bounds of every size a rule file gives, checked when it is validated.

A rule file is untrusted input: these bounds keep loading it, and every game of it, within
a small, known amount of memory and time. docs/grammar.md lists them (§2, "Limits").
"""

from __future__ import annotations

from cardrules.interpreter.runtime import MOST_GAME_WORK, MOST_WORK

MAX_PLAYERS = 16
MAX_RANKS = 64
MAX_SUITS = 16
MAX_JOKERS = 64
MAX_CARD_NAME = 20  # characters of a rank or a suit
MAX_COPIES = 16  # decks shuffled together
MAX_CARDS = 4096  # cards in play, all decks and jokers counted
MAX_ZONES = 256  # zone declarations
MAX_GRID_SIDE = 32  # rows, or columns, of a grid
MAX_GROUPS = 64  # groups of a grouped zone, per player
MAX_REPEAT = 1000  # times a step is taken in one turn
MAX_LOOP = 1000  # times the body of a while or until block runs
MAX_CALL_DEPTH = 32  # the file's functions and procedures calling one another, one inside another
MAX_LOOP_NESTING = 16  # blocks that loop (for, while, until) one inside another in one rule
MAX_ROUNDS = 10_000  # rounds in a match
MAX_MELD_KINDS = 16  # kinds of meld in `melds:`
MAX_MELD_SIZE = 24  # cards in one meld kind (a search at run time takes up to 60 cards)
MAX_ACTIONS = 10_000_000  # actions in one game (`max_actions`)
DEFAULT_ACTIONS = 100_000  # ...when the ruleset does not say
MAX_VALUE = 10**9  # the largest number in a value table or an option, either sign
# lists the variables hold (a player variable one per seat at the largest table), each of at
# most runtime.MOST_ITEMS items: what a game's variables may hold in all is bounded
MAX_LISTS_HELD = 32
# moves (reactions too), triggers, functions and procedures, in all: each is compiled on its
# own, at about 12 ms and a third of a megabyte a move (a file of 2,000 moves took 25 s and
# 723 MB to load); the shipped rulesets give at most 32
MAX_RULES = 256
# steps a rule's text may fix, its loops multiplied (dsl/work.py): the same budget an
# action's counted work has while the game runs (runtime.charge)
MAX_WORK = MOST_WORK
# steps a whole game may take, every action's added up: where the rule text fixes more (each
# action at its most, times max_actions), the loops are counted while the game runs
MAX_GAME_WORK = MOST_GAME_WORK

LIMITS: dict[str, tuple[int, str]] = {
    "players": (MAX_PLAYERS, "players at a table"),
    "ranks": (MAX_RANKS, "ranks in a deck"),
    "suits": (MAX_SUITS, "suits in a deck"),
    "jokers": (MAX_JOKERS, "jokers in a deck"),
    "card name": (MAX_CARD_NAME, "characters of a rank or a suit"),
    "copies": (MAX_COPIES, "decks shuffled together"),
    "cards": (MAX_CARDS, "cards in play"),
    "zones": (MAX_ZONES, "zone declarations"),
    "rows": (MAX_GRID_SIDE, "rows of a grid"),
    "columns": (MAX_GRID_SIDE, "columns of a grid"),
    "groups": (MAX_GROUPS, "groups of a zone, per player"),
    "repeat": (MAX_REPEAT, "times a step is taken in a turn"),
    "limit": (MAX_LOOP, "times a while or until block runs"),
    "rounds": (MAX_ROUNDS, "rounds in a match"),
    "meld kinds": (MAX_MELD_KINDS, "kinds of meld"),
    "meld size": (MAX_MELD_SIZE, "cards in one meld"),
    "max_actions": (MAX_ACTIONS, "actions in one game"),
    "value": (MAX_VALUE, "size of a number in a value table or an option"),
    "lists held": (MAX_LISTS_HELD, "lists the variables hold"),
    "rules": (MAX_RULES, "moves, triggers, functions and procedures in all"),
    "loops nested": (MAX_LOOP_NESTING, "blocks that loop nested in one rule"),
}
