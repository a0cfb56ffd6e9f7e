"""The lobby: the games a page may start, and what it may seat in them.

A request to the lobby seats only people and the built-in bots, within caps counted in
work, never in seconds (LOBBY_BUDGETS): a game stays the same game for its seed, and no
request can make a decision long. The other seats default to the bot `cardrules play` seats
against a person; a ruleset's options are offered by their labels, their names a detail.
"""

from __future__ import annotations

import json
from typing import Any

from cardrules.dsl.loader import builtin_names, load_ruleset
from cardrules.errors import CardrulesError, GameError, RulesetError
from cardrules.interpreter.players import bots
from cardrules.interpreter.players.bots import BOTS, OPPONENT
from cardrules.interpreter.sessions.record import HUMAN
from cardrules.interpreter.sessions.start import fresh_seed

from .game import Game, Refused

# The largest budget a lobby request may give a bot, in work per decision: what any file or
# request may seat by itself (bots.ASKED_BUDGETS). Hints are held to them too.
LOBBY_BUDGETS = bots.ASKED_BUDGETS


def lobby_offer() -> dict[str, Any]:
    """What the lobby offers: the built-in rulesets, the seat kinds, each bot's budget
    (what its number counts, and the most a request may ask for), and the bot the other
    seats default to (the one `cardrules play` seats against a person)."""
    return {"rulesets": [ruleset_info(name) for name in builtin_names()],
            "kinds": [HUMAN, *BOTS],
            "bots": [bot_info(name) for name in BOTS],
            "opponent": OPPONENT}


def bot_info(name: str) -> dict[str, Any]:
    """A built-in bot kind as the lobby offers it: its budget's unit and cap, if any."""
    unit = getattr(BOTS[name], "budget", None)
    return {"kind": name, "budget": unit, "max": LOBBY_BUDGETS.get(name) if unit else None}


def ruleset_info(name: str) -> dict[str, Any]:
    """A built-in ruleset as the lobby offers it."""
    rules = load_ruleset(name)
    return {"name": rules.name, "title": rules.title,
            "summary": " ".join(rules.summary.split()),
            "players": {"min": rules.min_players, "max": rules.max_players,
                        "default": rules.default_players},
            "options": [{"name": o.name, "label": o.title, "default": o.default,
                         "choices": list(o.choices) if o.choices else None,
                         "doc": " ".join(o.doc.split())} for o in rules.option_defs]}


def game_from_lobby(body: Any) -> Game:
    """A new game as the lobby asks for it (not saved yet); Refused with the reason if it
    cannot be."""
    if not isinstance(body, dict):
        raise Refused(400, "expected a ruleset, players, seats and options")
    name, players, seats = body.get("ruleset"), body.get("players"), body.get("seats")
    options, seed = body.get("options", {}), body.get("seed")
    if options is None:  # (no options: every default)
        options = {}
    if not isinstance(name, str) or name not in builtin_names():
        raise Refused(400, "pick one of the rulesets offered")
    if type(players) is not int or not isinstance(seats, list) or len(seats) != players:
        raise Refused(400, "name one kind for each seat")
    if not isinstance(options, dict) or not all(
            isinstance(k, str) and isinstance(v, str | int | bool) for k, v in options.items()):
        raise Refused(400, "options are names with values")
    given = seed is not None
    if seed is None:
        seed = fresh_seed()  # (never shown while the game is on, nor in a file's name)
    elif type(seed) is not int or not 0 <= seed < 2**63:
        raise Refused(400, "a seed is a whole number from 0")
    for kind in seats:
        check_kind(kind)
    chosen = {k: json.dumps(v) if isinstance(v, bool) else str(v) for k, v in options.items()}
    offered = load_ruleset(name)  # (as offered, compiled once): a table it cannot seat is
    if not offered.min_players <= players <= offered.max_players:  # refused before options
        raise Refused(400, f"{name} is for {offered.min_players} to {offered.max_players} "
                           "players")  # are compiled
    try:
        game = Game.new(name, chosen, players, seed, seats)
    except RulesetError as exc:
        problem = exc.diagnostics[0].message if exc.diagnostics else "invalid options"
        raise Refused(400, problem) from None
    except GameError as exc:
        raise Refused(400, str(exc)) from None
    if given:  # whoever started the game may know every card: every seat is told so
        game.seed_given()
    return game


def check_kind(kind: Any) -> None:
    """A seat kind a request may ask for: a person or a built-in bot, never a program (only
    the person at the command line may seat one), with a budget in work no larger than
    the lobby's cap. Nothing is made or started."""
    if not isinstance(kind, str) or len(kind) > 40:
        raise Refused(400, "a seat is 'human' or a bot kind")
    if kind == HUMAN:
        return
    try:
        bots.check_kind(kind, programs=False)
    except CardrulesError as exc:
        raise Refused(400, str(exc)) from None
    problem = bots.asked_kind_problem(kind)
    if problem is not None:
        raise Refused(400, f"seat kind '{kind}': the lobby {problem}")


def links(game: Game, base: str) -> list[dict[str, Any]]:
    """Each person's seat with its link (`base`: the server's address, ending in /)."""
    return [{"seat": seat + 1, "url": f"{base}seat/{token}"}
            for seat, token in enumerate(game.tokens) if token is not None]
