"""A hint: what a search bot would play in a seat's place, and what it thinks of each choice.

The bot is one the person chooses (`greedy` or `ismcts`, with a budget, as a seat kind is
written), made afresh for the hint with a random stream of its own, seeded from what the
seat can see of where the game stands (the number of actions so far, the seat, the kind):
never from the game's seed, and never one of the game's bots, whose streams a hint leaves
alone. It searches as it would for its own seat, on samples of what the seat does not know
(knowledge.py), so a hint depends only on what the seat has observed.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from cardrules.errors import GameError
from cardrules.model import Action

from ..engine import Engine
from ..state import GameState
from .bots import check_kind, make_bot
from .search import Estimate, Weighed

HINT_KINDS = ("greedy", "ismcts")  # the bots that weigh their choices
DEFAULT_HINT = "greedy"
SHOWN = 8  # candidates a hint lists, the best first


@dataclass(frozen=True)
class Hint:
    """A bot's suggestion for a seat's decision: which bot, its pick, its estimates."""

    kind: str
    pick: Action
    estimates: tuple[Estimate, ...]


def check_hint_kind(kind: str) -> None:
    """Refuse (GameError) a bot that gives no hints, or a seat kind that names no bot."""
    name = kind.partition(":")[0]  # (what it names first: a budget is read only for a bot)
    if name not in HINT_KINDS:
        offered = ", ".join(HINT_KINDS)
        raise GameError(f"'{kind[:40]}' gives no hints: ask one of {offered} "
                        "(with a budget if you like: greedy:8, ismcts:10)")
    check_kind(kind)


def hint(engine: Engine, state: GameState, kind: str = DEFAULT_HINT) -> Hint:
    """What the bot `kind` would play for the seat to move now, with its estimates; the
    game is not changed. GameError if the game is over or `kind` gives no hints."""
    check_hint_kind(kind)
    game = state.copy()  # (the bot lists and samples; the game itself stays as it is)
    legal = engine.legal_actions(game)
    seat = engine.to_move(game)
    if seat is None or not legal:
        raise GameError("the game is over: there is nothing to decide")
    seed = zlib.crc32(f"hint/{seat}/{game.actions}/{kind}".encode())
    bot = make_bot(kind, seed, seat)
    weighed: Weighed = bot.weigh(engine, game, legal)  # type: ignore[attr-defined]
    return Hint(kind, weighed.pick, pick_first(weighed))


def pick_first(weighed: Weighed) -> tuple[Estimate, ...]:
    """The estimates in the bot's order (best first: by value, or a search's by how often
    it tried each), the pick first of all (the bot draws among equals, and a search picks
    the choice it tried most, which may not be the one whose tries went best: the list
    must not name another first); each action once (a text a bot writes may come up twice
    among those it tries: the first, the best, stands)."""
    estimates, seen = [], set()
    for estimate in weighed.estimates:
        if estimate.action not in seen:
            seen.add(estimate.action)
            estimates.append(estimate)
    at = next((i for i, e in enumerate(estimates) if e.action == weighed.pick), None)
    if at is None:
        return tuple(estimates)
    mine = estimates.pop(at)
    return (mine, *estimates)
